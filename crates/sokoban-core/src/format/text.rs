//! Text collections (`.xsb`, `.sok`, `.txt`): levels drawn row by row, with titles, comments
//! and `Key: value` lines around them.
//!
//! Every line is one of:
//!
//! * blank;
//! * a comment: its first non-blank character is `;`;
//! * a board line: only board characters (`#@+$*.-_` and space, plus run-length digits,
//!   parentheses and `|`), at least one `#`, and not ending in a digit (so a title such as
//!   `#12` is not a board). A line holding a `#` between two board lines, or starting and
//!   ending with `#` and made at least half of board characters, is also taken as a board line,
//!   so that a stray character inside a board is reported with its line and column instead of
//!   silently splitting the level;
//! * a `Key: value` line (the key starts with a letter and holds letters, spaces, `-` and `_`,
//!   optionally followed by a parenthesised part, as in `Solution (12/3):`); a `Comment:` line
//!   followed later by `Comment-End:` starts a block that is skipped entirely;
//! * any other text.
//!
//! Consecutive board lines form one level. A level's title is, in order of preference:
//!
//! 1. a `Title:` line (key case-insensitive). It belongs to the level just above it when both
//!    are in the same paragraph (no blank line between) and that level has no `Title:` yet, as
//!    in `.sok` files; otherwise to the level just below it when they share a paragraph;
//!    otherwise to the level above; a `Title:` before the first level and separated from it by
//!    a blank line is the collection's title (and also the level's, if there is only one);
//! 2. else the nearest non-blank line before the board, ignoring blank lines, when it is a
//!    comment (`; Level 7` gives `Level 7`) or plain text (`Easy one`), but not a line that
//!    looks like a LURD solution.
//!
//! The collection's title is that header `Title:`, or else the first comment or text line
//! before the first level that is not the first level's own title.

use super::Entry;
use crate::error::{Error, ErrorKind, Result};
use crate::grid::Grid;

use super::rle::{board_rows, is_board_char};

/// How to report locations of the text being parsed.
pub(crate) struct Source<'a> {
    /// Added after `at line L, column C` in messages (e.g. ` of the level parameter`).
    pub suffix: &'a str,
    /// Whether line numbers are those of the user's input (and go into [`Grid::lines`]).
    pub keep_lines: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Blank,
    Comment,
    Board,
    Title,
    Key,
    Text,
    Skipped,
}

/// A maximal run of board lines (line indices, inclusive).
#[derive(Clone, Copy, Debug)]
struct Block {
    start: usize,
    end: usize,
}

/// Split a text into lines (`\n`, `\r\n`, or lone `\r` line ends).
fn split_lines(text: &str) -> Vec<&str> {
    if !text.contains('\n') && text.contains('\r') {
        return text.split('\r').collect();
    }
    text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect()
}

/// A strict board line (see the module documentation).
pub(crate) fn is_board_line(line: &str) -> bool {
    let t = line.trim_end();
    !t.is_empty()
        && t.contains('#')
        && t.chars().all(is_board_char)
        && !t.ends_with(|c: char| c.is_ascii_digit())
}

/// The key and value of a `Key: value` line.
pub(crate) fn key_value(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.trim().split_once(':')?;
    let k = k.trim_end();
    if !k.starts_with(|c: char| c.is_alphabetic()) || k.chars().count() > 40 {
        return None;
    }
    let base = match k.find('(') {
        Some(i) if k.ends_with(')') => &k[..i],
        Some(_) => return None,
        None => k,
    };
    base.chars()
        .all(|c| c.is_alphabetic() || matches!(c, ' ' | '-' | '_'))
        .then(|| (base.trim_end(), v.trim()))
}

/// A key without case, spaces, `-` and `_`: `Comment-End` → `commentend`.
fn norm_key(key: &str) -> String {
    key.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// True for a text line made only of LURD characters: a solution, not a title.
fn looks_like_lurd(line: &str) -> bool {
    let t = line.trim();
    t.chars().count() >= 4
        && t.chars().any(|c| c.is_ascii_alphabetic())
        && t.chars().all(|c| "lurdLURD()".contains(c) || c.is_ascii_digit() || c.is_whitespace())
}

/// A text line that is probably a board line with a mistake in it.
fn suspect_board(line: &str, between_boards: bool) -> bool {
    let t = line.trim();
    if !t.contains('#') {
        return false;
    }
    let chars: Vec<char> = t.chars().filter(|c| !c.is_whitespace()).collect();
    let good = chars.iter().filter(|&&c| is_board_char(c)).count();
    between_boards || (t.starts_with('#') && t.ends_with('#') && 2 * good >= chars.len())
}

fn classify(lines: &[&str]) -> Vec<Kind> {
    let mut kinds: Vec<Kind> = lines
        .iter()
        .map(|line| {
            if line.trim().is_empty() {
                Kind::Blank
            } else if line.trim_start().starts_with(';') {
                Kind::Comment
            } else if is_board_line(line) {
                Kind::Board
            } else if let Some((k, _)) = key_value(line) {
                if norm_key(k) == "title" {
                    Kind::Title
                } else {
                    Kind::Key
                }
            } else {
                Kind::Text
            }
        })
        .collect();

    // Comment: ... Comment-End: blocks.
    let key_of = |i: usize| key_value(lines[i]).map(|(k, v)| (norm_key(k), v.is_empty()));
    let mut i = 0;
    while i < kinds.len() {
        if let (Kind::Key, Some((k, empty))) = (kinds[i], key_of(i)) {
            if k == "comment" {
                let mut end = None;
                for (j, &kind) in kinds.iter().enumerate().skip(i + 1) {
                    // A one-line `Comment: text` does not reach past a board.
                    if kind == Kind::Title || (kind == Kind::Board && !empty) {
                        break;
                    }
                    match key_of(j) {
                        Some((k, _)) if k == "commentend" => {
                            end = Some(j);
                            break;
                        }
                        Some((k, _)) if k == "comment" => break,
                        _ => {}
                    }
                }
                if let Some(end) = end {
                    kinds[i..=end].fill(Kind::Skipped);
                    i = end + 1;
                    continue;
                }
            }
        }
        i += 1;
    }

    // Board lines with mistakes.
    let strict = kinds.clone();
    for i in 0..kinds.len() {
        if kinds[i] == Kind::Text {
            let between =
                i > 0 && strict[i - 1] == Kind::Board && strict.get(i + 1) == Some(&Kind::Board);
            if suspect_board(lines[i], between) {
                kinds[i] = Kind::Board;
            }
        }
    }
    kinds
}

/// If the text is exactly one board (only board lines, one block), whether it uses run-length
/// notation (`Some(true)`) or plain XSB (`Some(false)`).
pub(crate) fn single_board(text: &str) -> Option<bool> {
    let lines: Vec<&str> = split_lines(text.trim_matches(['\n', '\r']));
    if lines.is_empty() || !lines.iter().all(|l| is_board_line(l)) {
        return None;
    }
    Some(lines.iter().any(|l| l.contains(|c: char| c.is_ascii_digit() || "()|".contains(c))))
}

/// Parse a collection: the collection title and the levels (not validated).
pub(crate) fn parse(
    text: &str,
    src: &Source<'_>,
    budget: &mut usize,
) -> Result<(Option<String>, Vec<Entry>)> {
    let lines = split_lines(text);
    let kinds = classify(&lines);

    let mut blocks: Vec<Block> = Vec::new();
    for (i, &k) in kinds.iter().enumerate() {
        if k == Kind::Board {
            match blocks.last_mut() {
                Some(b) if b.end + 1 == i => b.end = i,
                _ => blocks.push(Block { start: i, end: i }),
            }
        }
    }
    if blocks.is_empty() {
        let what = if kinds.iter().all(|&k| k == Kind::Blank) {
            "the input is empty"
        } else {
            "no level found: a board line holds only the characters #@+$*.-_ and spaces (and at least one #)"
        };
        return Err(Error::new(ErrorKind::Empty, format!("{what}{}", src.suffix)));
    }

    // Paragraph number of each line: blank lines separate paragraphs.
    let mut para = Vec::with_capacity(lines.len());
    let mut p = 0;
    for &k in &kinds {
        if k == Kind::Blank {
            p += 1;
        }
        para.push(p);
    }
    let value = |i: usize| -> Option<String> {
        let v = match kinds[i] {
            Kind::Comment => lines[i].trim_start()[1..].trim(),
            Kind::Text if !looks_like_lurd(lines[i]) => lines[i].trim(),
            Kind::Title => key_value(lines[i]).map_or("", |(_, v)| v),
            _ => "",
        };
        (!v.is_empty()).then(|| v.to_string())
    };

    // Titles from the line before each board.
    let mut titles: Vec<Option<String>> = vec![None; blocks.len()];
    let mut title_source: Vec<Option<usize>> = vec![None; blocks.len()];
    for (b, block) in blocks.iter().enumerate() {
        let before = (0..block.start).rev().find(|&i| kinds[i] != Kind::Blank);
        if let Some(i) = before {
            if matches!(kinds[i], Kind::Comment | Kind::Text) {
                titles[b] = value(i);
                title_source[b] = titles[b].as_ref().map(|_| i);
            }
        }
    }

    // Title: lines.
    let mut keyed = vec![false; blocks.len()];
    let mut header_title: Option<String> = None;
    for i in (0..lines.len()).filter(|&i| kinds[i] == Kind::Title) {
        let Some(v) = value(i) else { continue };
        // Blocks are sorted and line `i` is in none of them.
        let split = blocks.partition_point(|b| b.end < i);
        let prev = split.checked_sub(1);
        let next = (split < blocks.len()).then_some(split);
        let free = |b: Option<usize>| b.filter(|&b| !keyed[b]);
        let target = if let Some(b) = free(prev).filter(|&b| para[blocks[b].end] == para[i]) {
            Some(b)
        } else if let Some(b) = free(next).filter(|&b| para[blocks[b].start] == para[i]) {
            Some(b)
        } else if prev.is_none() {
            header_title.get_or_insert(v.clone());
            None
        } else {
            free(prev).or(free(next))
        };
        if let Some(b) = target {
            titles[b] = Some(v);
            keyed[b] = true;
        }
    }
    if blocks.len() == 1 && titles[0].is_none() {
        titles[0] = header_title.clone();
    }
    let collection_title = header_title.or_else(|| {
        (0..blocks[0].start)
            .filter(|&i| matches!(kinds[i], Kind::Comment | Kind::Text))
            .filter(|&i| Some(i) != title_source[0])
            .find_map(value)
    });

    let mut entries = Vec::with_capacity(blocks.len());
    for (b, block) in blocks.iter().enumerate() {
        let mut grid = Grid { title: titles[b].clone(), ..Grid::default() };
        for (i, line) in lines.iter().enumerate().take(block.end + 1).skip(block.start) {
            let loc = |col: usize| format!("at line {}, column {}{}", i + 1, col + 1, src.suffix);
            for row in board_rows(line, budget, &loc)? {
                grid.rows.push(row);
                grid.lines.push(src.keep_lines.then_some(i + 1));
            }
        }
        entries.push(Entry {
            number: b + 1,
            title: titles[b].clone(),
            grid,
            first_line: src.keep_lines.then_some(block.start + 1),
        });
    }
    Ok((collection_title, entries))
}
