//! MF8, the level notation of SokoPlayer HTML5 links, and the `[soko=W,H]...[/soko]` wrapper.
//!
//! Squares: `H` wall, `_` floor (also used for outside; `-` and space are accepted too), `a`
//! player, `x` player on goal, `$` box, `*` box on goal, `.` goal (`A` and `X` are accepted for
//! `a` and `x`). Rows are joined by `|` (in the wrapper, also by line breaks).
//!
//! A SokoPlayer link is `...?w=W&h=H&lvl=ROWS` with any base (or none), parameters in any order,
//! percent-encoding decoded (`%7C` is `|`, `%20` a floor; `+` is not a space). Rows shorter than
//! the width and missing rows are outside; a row wider than `w` or more rows than `h` is an
//! error. `w` and `h` may be left out.

use super::rle::trim_floors;
use super::url::{param, percent_decode, query_separator};
use crate::board::Level;
use crate::error::{Error, ErrorKind, Result};
use crate::grid::{Grid, Tile};

/// The tile of an MF8 character.
pub(crate) fn mf8_tile(c: char) -> Option<Tile> {
    Some(match c {
        'H' => Tile::Wall,
        '_' | '-' | ' ' => Tile::Floor,
        'a' | 'A' => Tile::Player,
        'x' | 'X' => Tile::PlayerOnGoal,
        '$' => Tile::Box,
        '*' => Tile::BoxOnGoal,
        '.' => Tile::Goal,
        _ => return None,
    })
}

/// The MF8 character of a tile.
fn mf8_char(t: Tile) -> char {
    match t {
        Tile::Wall => 'H',
        Tile::Floor => '_',
        Tile::Player => 'a',
        Tile::PlayerOnGoal => 'x',
        Tile::Box => '$',
        Tile::BoxOnGoal => '*',
        Tile::Goal => '.',
    }
}

/// Split MF8 text into rows: by `|` on one line; with line breaks, every non-blank line
/// (trimmed, a leading or trailing `|` ignored) gives one or more `|`-separated rows.
fn segments(text: &str) -> Vec<&str> {
    if !text.contains(['\n', '\r']) {
        return text.split('|').collect();
    }
    let mut out = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let line = line.strip_prefix('|').unwrap_or(line);
        let line = line.strip_suffix('|').unwrap_or(line);
        out.extend(line.split('|'));
    }
    out
}

/// Build a grid from MF8 rows, checking them against the given width and height. `what` names
/// the source in messages (`the lvl parameter`).
fn grid_of(text: &str, what: &str, w: Option<usize>, h: Option<usize>) -> Result<Grid> {
    let mut segs = segments(text);
    while segs.len() > 1 && segs.last().is_some_and(|s| s.is_empty()) {
        segs.pop();
    }
    let mut rows = Vec::with_capacity(segs.len());
    for (r, seg) in segs.iter().enumerate() {
        let mut row = Vec::with_capacity(seg.len());
        for (c, ch) in seg.chars().enumerate() {
            let t = mf8_tile(ch).ok_or_else(|| {
                Error::new(
                    ErrorKind::UnknownChar,
                    format!(
                        "unknown character {ch:?} in row {}, column {} of {what}",
                        r + 1,
                        c + 1
                    ),
                )
            })?;
            row.push(t);
        }
        if let Some(w) = w.filter(|&w| row.len() > w) {
            return Err(Error::new(
                ErrorKind::BadUrl,
                format!(
                    "row {} of {what} is {} squares wide but the given width is {w}",
                    r + 1,
                    row.len()
                ),
            ));
        }
        trim_floors(&mut row);
        rows.push(row);
    }
    if let Some(h) = h.filter(|&h| rows.len() > h) {
        return Err(Error::new(
            ErrorKind::BadUrl,
            format!("{what} has {} rows but the given height is {h}", rows.len()),
        ));
    }
    let lines = vec![None; rows.len()];
    Ok(Grid { rows, title: None, lines })
}

/// Parse bare MF8 text (`HHHH|H_aH|...`).
pub(crate) fn parse_bare(text: &str) -> Result<Grid> {
    grid_of(text.trim(), "the MF8 text", None, None)
}

/// Parse a SokoPlayer link (`...?w=W&h=H&lvl=...`).
pub(crate) fn parse_url(url: &str) -> Result<Grid> {
    let what = "the lvl parameter";
    let raw = param(url, "lvl").ok_or_else(|| {
        Error::new(ErrorKind::BadUrl, "the URL has no lvl parameter (nor level= or base64=)")
    })?;
    let lvl = percent_decode(raw, what)?;
    if lvl.trim().is_empty() {
        return Err(Error::new(ErrorKind::Empty, "the lvl parameter is empty"));
    }
    let number = |name: &str| -> Result<Option<usize>> {
        let Some(raw) = param(url, name) else {
            return Ok(None);
        };
        let v = percent_decode(raw, &format!("the {name} parameter"))?;
        v.trim().parse().map(Some).map_err(|_| {
            Error::new(ErrorKind::BadUrl, format!("the {name} parameter {v:?} is not a number"))
        })
    };
    let (w, h) = (number("w")?, number("h")?);
    grid_of(&lvl, what, w, h)
}

/// Parse one or more `[soko=W,H]...[/soko]` wrappers (separated by whitespace).
pub(crate) fn parse_wrappers(text: &str) -> Result<Vec<Grid>> {
    const OPEN: &str = "[soko=";
    const CLOSE: &str = "[/soko]";
    let mut grids = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let n = grids.len() + 1;
        let what =
            if n == 1 { "the [soko] wrapper".to_string() } else { format!("[soko] wrapper {n}") };
        // ASCII lowercasing keeps byte offsets, so positions found in `lower` fit `rest`.
        let lower = rest.to_ascii_lowercase();
        if !lower.starts_with(OPEN) {
            let snippet: String = rest.chars().take(20).collect();
            return Err(Error::new(
                ErrorKind::BadUrl,
                format!("expected [soko=W,H] but found {snippet:?}"),
            ));
        }
        let close = lower.find(']').ok_or_else(|| {
            Error::new(ErrorKind::BadUrl, format!("the [soko=W,H] tag of {what} has no ']'"))
        })?;
        let dims = &rest[OPEN.len()..close];
        let size = dims.split_once(',').and_then(|(w, h)| {
            Some((w.trim().parse::<usize>().ok()?, h.trim().parse::<usize>().ok()?))
        });
        let Some((w, h)) = size else {
            return Err(Error::new(
                ErrorKind::BadUrl,
                format!(
                    "{what} must give a width and a height such as [soko=6,7], not [soko={dims}]"
                ),
            ));
        };
        let body_end = lower[close..].find(CLOSE).map(|i| close + i).ok_or_else(|| {
            Error::new(ErrorKind::BadUrl, format!("{what} is not closed with [/soko]"))
        })?;
        grids.push(grid_of(rest[close + 1..body_end].trim(), &what, Some(w), Some(h))?);
        rest = rest[body_end + CLOSE.len()..].trim_start();
    }
    Ok(grids)
}

/// A level's board in MF8: every row padded to the full width with `_`, rows joined by `|`.
pub fn to_mf8(level: &Level) -> String {
    let width = level.board.width();
    let rows: Vec<String> = Grid::from_level(level)
        .rows
        .iter()
        .map(|row| {
            let mut s: String = row.iter().map(|&t| mf8_char(t)).collect();
            s.extend(std::iter::repeat_n('_', width - row.len()));
            s
        })
        .collect();
    rows.join("|")
}

/// A SokoPlayer link: `{base}?w=W&h=H&lvl=MF8` (`&` instead of `?` when `base` already has a
/// query). Nothing needs percent-encoding: MF8 uses only letters and `_$*.|`.
pub fn to_sokoplayer_url(level: &Level, base: &str) -> String {
    let b = &level.board;
    format!("{base}{}w={}&h={}&lvl={}", query_separator(base), b.width(), b.height(), to_mf8(level))
}

/// A forum wrapper: `[soko=W,H]MF8[/soko]`.
pub fn to_soko_wrapper(level: &Level) -> String {
    format!("[soko={},{}]{}[/soko]", level.board.width(), level.board.height(), to_mf8(level))
}
