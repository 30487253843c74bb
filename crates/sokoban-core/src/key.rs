//! A level's identity: the same level opened from a file, a link or a paste (any format,
//! any title, any margin of blank rows and columns) has the same key. The page keys saved
//! progress by it.
//!
//! The normalized form is the start position in XSB ([`crate::format::to_xsb`]: floor and
//! outside as spaces, no trailing spaces, no title) with blank rows dropped and the blank
//! columns every row shares on the left removed. The key is the 128-bit FNV-1a hash of
//! that text as 32 lowercase hex digits.

use crate::board::Level;
use crate::format;

/// The normalized XSB of a level's start position (see the module doc).
pub fn normalized_xsb(level: &Level) -> String {
    let xsb = format::to_xsb(level);
    let rows: Vec<&str> = xsb.lines().filter(|l| !l.trim().is_empty()).collect();
    let margin = rows.iter().map(|l| l.len() - l.trim_start_matches(' ').len()).min().unwrap_or(0);
    rows.iter().map(|l| &l[margin..]).collect::<Vec<_>>().join("\n")
}

/// 128-bit FNV-1a of some bytes.
fn fnv1a_128(bytes: &[u8]) -> u128 {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
    bytes.iter().fold(OFFSET, |h, &b| (h ^ b as u128).wrapping_mul(PRIME))
}

/// The level's key: 32 hex digits, the same for every way of writing the level.
pub fn level_key(level: &Level) -> String {
    format!("{:032x}", fnv1a_128(normalized_xsb(level).as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{parse_level, to_mf8, to_rle, to_sokoplayer_url};

    const ROOM: &str = "#######\n#.  $ #\n# #@  #\n#  $. #\n#######";

    #[test]
    fn same_level_any_format_same_key() {
        let l = parse_level(ROOM).unwrap();
        let key = level_key(&l);
        assert_eq!(key.len(), 32);
        let writings = [
            format!("Title: A room\n\n   {}\n", ROOM.replace('\n', "\n   ")),
            to_rle(&l),
            to_sokoplayer_url(&l, "https://example.org/"),
            format!("[soko=7,5]{}[/soko]", to_mf8(&l)),
            ROOM.replace(' ', "-"),
        ];
        for w in writings {
            assert_eq!(level_key(&parse_level(&w).unwrap()), key, "{w}");
        }
    }

    #[test]
    fn another_start_is_another_level() {
        let key = level_key(&parse_level(ROOM).unwrap());
        let moved = ROOM.replace("#@ ", "# @");
        assert_ne!(level_key(&parse_level(&moved).unwrap()), key);
        let other_goal = "#######\n# . $ #\n# #@  #\n#  $. #\n#######";
        assert_ne!(level_key(&parse_level(other_goal).unwrap()), key);
    }

    #[test]
    fn normalized_form_has_no_margin() {
        let l = parse_level(&format!("\n\n  {}", ROOM.replace('\n', "\n  "))).unwrap();
        assert_eq!(normalized_xsb(&l), ROOM);
        // FNV-1a 128 of the empty string is the offset basis.
        assert_eq!(format!("{:032x}", fnv1a_128(b"")), "6c62272e07bb014262b821756295c58d");
    }
}
