//! Bad input never crashes: random and mutated inputs go through detection, parsing,
//! validation and LURD parsing, and every failure is an `Error` with a message.

use proptest::prelude::*;
use sokoban_core::format::{self, Input};
use sokoban_core::lurd;

const SEEDS: &[&str] = &[
    "#######\n#.  $ #\n# #@  #\n#  $. #\n#######",
    "7#|#.2-$-#|#-#@2-#|#2-$.-#|7#",
    "http://sokoban.ws/sokoplayer/?w=4&h=9&lvl=HHHH|H__H|H__H|H__H|H__H|HH$H|_HaH|_H.H|_HHH",
    "[soko=4,3]HHHH|Ha$.|HHHH[/soko]",
    "https://example.org/?level=%23%23%23%23%23%0A%23%40%24.%23%0A%23%23%23%23%23",
    "https://example.org/?base64=IyMjIyMKI0AkLiMKIyMjIyM",
    "; 1\nTitle: A\n#####\n#@$.#\n#####\n\n; 2\n#####\n#.$@#\n#####\n",
    "uurrDDl2(lu)3R",
];

/// Characters that matter to some format, plus noise.
const ALPHABET: &[u8] = b"#@+$*. -_|Hax0123456789()\n\r;:=&?%lurdLURD[]/soko,tTQ\t\xc3\xa9";

fn exercise(text: &str) {
    let _ = format::detect(text);
    match format::parse_input(text) {
        Ok(Input::Levels(c)) => {
            for e in &c.entries {
                match e.level() {
                    Ok(level) => {
                        // A valid level prints and parses back in every format.
                        let xsb = format::to_xsb(&level);
                        assert_eq!(format::parse_level(&xsb).unwrap().board, level.board);
                        let _ = format::to_rle(&level);
                        let _ = format::to_sokoplayer_url(&level, "http://x/");
                    }
                    Err(err) => assert!(!err.message.is_empty()),
                }
            }
        }
        Ok(Input::Solution(m)) => assert!(!lurd::to_lurd(&m).is_empty() || m.is_empty()),
        Err(err) => assert!(!err.message.is_empty(), "empty message for {text:?}"),
    }
    let _ = lurd::parse_lurd(text);
}

/// One edit of a seed: where (a fraction of its length), what (remove, insert, replace),
/// and the byte.
fn edit() -> impl Strategy<Value = (prop::sample::Index, u8, u8)> {
    (any::<prop::sample::Index>(), 0u8..3, prop::sample::select(ALPHABET))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_text_never_panics(bytes in prop::collection::vec(prop::sample::select(ALPHABET), 0..120)) {
        exercise(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn mutated_valid_inputs_never_panic(
        seed in 0..SEEDS.len(),
        edits in prop::collection::vec(edit(), 1..5),
    ) {
        let mut bytes = SEEDS[seed].as_bytes().to_vec();
        for (at, kind, b) in edits {
            let i = at.index(bytes.len() + 1);
            match kind {
                0 if i < bytes.len() => {
                    bytes.remove(i);
                }
                1 => bytes.insert(i, b),
                _ if i < bytes.len() => bytes[i] = b,
                _ => {}
            }
        }
        exercise(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn huge_counts_are_refused_not_allocated() {
    for text in [
        "99999999999#",
        "4000000000(#-)",
        "#|99999999|#",
        "999999999999u",
        "9(9(9(9(9(9(9(9(l))))))))",
    ] {
        exercise(text);
    }
}
