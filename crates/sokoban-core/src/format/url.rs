//! URL plumbing (query parameters, percent-encoding, Base64) and the SokobanScript formats:
//! `?level=` holding percent-encoded XSB and `?base64=` holding Base64 of XSB.
//!
//! * `level=`: rows separated by encoded newlines (`%0A`, or `%0D%0A`) or by `|`; run-length
//!   counts are allowed. `+` is not a space here (it is the player on a goal); only `%20` is.
//! * `base64=`: Base64URL (`-` and `_`) or standard (`+` and `/`) alphabet, `=` padding optional,
//!   whitespace ignored; the decoded text is XSB as in a file (titles allowed).
//!
//! A decoded text on one line is read as one board (`|` separates rows); a text with several
//! lines is read like a collection file.

use super::rle::{board_rows, segment_location};
use super::text::{self, Source};
use super::{Entry, Format};
use crate::board::Level;
use crate::error::{Error, ErrorKind, Result};
use crate::grid::Grid;

/// The query part of a URL: after the first `?`, or the whole text when there is no `?` (bare
/// `w=4&h=9&lvl=...`).
fn query(url: &str) -> &str {
    url.split_once('?').map_or(url, |(_, q)| q)
}

/// The raw (still percent-encoded) value of a query parameter; the first one wins. Names are
/// compared without case.
pub(crate) fn param<'a>(url: &'a str, name: &str) -> Option<&'a str> {
    query(url).split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        k.trim().eq_ignore_ascii_case(name).then_some(v)
    })
}

/// Where to put the query of a URL built on `base`: `?`, `&`, or nothing.
pub(crate) fn query_separator(base: &str) -> &'static str {
    if base.ends_with(['?', '&']) {
        ""
    } else if base.contains('?') {
        "&"
    } else {
        "?"
    }
}

/// Decode `%XX` escapes (`+` stays `+`). `what` names the parameter for messages.
pub(crate) fn percent_decode(raw: &str, what: &str) -> Result<String> {
    let b = raw.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = |j: usize| b.get(j).and_then(|&c| (c as char).to_digit(16));
            match (hex(i + 1), hex(i + 2)) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => {
                    let bad: String = raw[i..].chars().take(3).collect();
                    let pos = raw[..i].chars().count() + 1;
                    return Err(Error::new(
                        ErrorKind::BadUrl,
                        format!("bad percent-encoding {bad:?} at position {pos} of {what}"),
                    ));
                }
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).map_err(|_| {
        Error::new(ErrorKind::BadUrl, format!("{what} is not valid UTF-8 text once decoded"))
    })
}

/// Percent-encode like JavaScript's `encodeURIComponent`: everything except letters, digits
/// and `-_.!~*'()`.
pub(crate) fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for &b in text.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decode Base64 in either alphabet (`+/` or `-_`), padding optional, whitespace ignored.
pub(crate) fn base64_decode(text: &str, what: &str) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits, mut digits, mut padded) = (0u32, 0u32, 0usize, false);
    for (i, c) in text.chars().enumerate() {
        let bad = |why: &str| {
            Error::new(
                ErrorKind::BadUrl,
                format!("bad base64: {why} {c:?} at position {} of {what}", i + 1),
            )
        };
        let v = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            'a'..='z' => c as u32 - 'a' as u32 + 26,
            '0'..='9' => c as u32 - '0' as u32 + 52,
            '+' | '-' => 62,
            '/' | '_' => 63,
            '=' => {
                padded = true;
                continue;
            }
            c if c.is_whitespace() => continue,
            _ => return Err(bad("unexpected character")),
        };
        if padded {
            return Err(bad("character after the '=' padding:"));
        }
        acc = (acc << 6) | v;
        bits += 6;
        digits += 1;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if digits % 4 == 1 {
        return Err(Error::new(
            ErrorKind::BadUrl,
            format!(
                "bad base64: {what} has {digits} digits, which cannot be a whole number of bytes"
            ),
        ));
    }
    Ok(out)
}

/// Encode Base64URL (`-` and `_`), without padding.
pub(crate) fn base64url_encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

/// Parse a SokobanScript URL (`level=` or `base64=`, as `format` says).
pub(crate) fn parse_sokobanscript(
    url: &str,
    format: Format,
    budget: &mut usize,
) -> Result<Vec<Entry>> {
    let (name, what) = match format {
        Format::SokobanScriptBase64 => ("base64", "the base64 parameter"),
        _ => ("level", "the level parameter"),
    };
    let raw = param(url, name)
        .ok_or_else(|| Error::new(ErrorKind::BadUrl, format!("the URL has no {name} parameter")))?;
    let decoded = percent_decode(raw, what)?;
    let text = if format == Format::SokobanScriptBase64 {
        String::from_utf8(base64_decode(&decoded, what)?).map_err(|_| {
            Error::new(ErrorKind::BadUrl, format!("{what} does not decode to UTF-8 text"))
        })?
    } else {
        decoded
    };
    if text.trim().is_empty() {
        return Err(Error::new(ErrorKind::Empty, format!("{what} is empty")));
    }
    let text = text.trim_end();
    if text.contains(['\n', '\r']) {
        let suffix = format!(" of {what}");
        let src = Source { suffix: &suffix, keep_lines: false };
        return Ok(text::parse(text, &src, budget)?.1);
    }
    let chars: Vec<char> = text.chars().collect();
    let loc = |at: usize| segment_location(&chars, at, what);
    let rows = board_rows(text, budget, &loc)?;
    let lines = vec![None; rows.len()];
    let grid = Grid { rows, title: None, lines };
    Ok(vec![Entry { number: 1, title: None, grid, first_line: None }])
}

/// The board rows of a level with `-` for floor, for URLs (see [`super::board_lines`]).
fn url_xsb(level: &Level) -> String {
    super::board_lines(&Grid::from_level(level).rows, '-').join("\n")
}

/// A SokobanScript link: `{base}?level=` followed by the percent-encoded XSB rows (floor
/// written `-`, rows separated by `%0A`).
pub fn to_sokobanscript_level_url(level: &Level, base: &str) -> String {
    format!("{base}{}level={}", query_separator(base), percent_encode(&url_xsb(level)))
}

/// A SokobanScript link: `{base}?base64=` followed by the Base64URL (unpadded) of the XSB rows.
pub fn to_sokobanscript_base64_url(level: &Level, base: &str) -> String {
    let xsb = super::to_xsb(level);
    format!("{base}{}base64={}", query_separator(base), base64url_encode(xsb.as_bytes()))
}
