//! Level and solution formats: reading any supported text (with automatic detection) and
//! writing levels back out.
//!
//! # Formats
//!
//! * **XSB** — the classic drawing: `#` wall, `@` player, `+` player on goal, `$` box, `*` box on
//!   goal, `.` goal, space / `-` / `_` floor. Trailing spaces are insignificant, leading spaces
//!   matter.
//! * **Run-length (RLE)** — XSB with counts: `4#` is `####`, `2(#-)` is `#-#-` (groups nest),
//!   rows separated by `|` and/or line breaks, `3|` gives empty rows. See [`to_rle`].
//! * **MF8** — SokoPlayer HTML5's notation (`H` wall, `_` floor, `a` player, `x` player on goal),
//!   rows joined by `|`; bare, inside a SokoPlayer link `...?w=4&h=9&lvl=HHHH|H__H|...`, or in a
//!   `[soko=W,H]...[/soko]` wrapper. See [`to_mf8`], [`to_sokoplayer_url`], [`to_soko_wrapper`].
//! * **SokobanScript links** — `?level=` with percent-encoded XSB, or `?base64=` with Base64 of
//!   XSB. See [`to_sokobanscript_level_url`] and [`to_sokobanscript_base64_url`].
//! * **Collections** (`.xsb`, `.sok`, `.txt`) — many levels with titles and comments; the rules
//!   for titles are given at [`parse_input`]. See [`to_collection`].
//! * **LURD** solutions — see [`crate::lurd`].
//!
//! Every parser produces [`Grid`]s, not levels: [`Entry::level`] (or [`Grid::validate`]) checks
//! one. Trailing floor squares of every row are dropped when reading (they are always outside
//! the level), so all formats agree on a level's width and printing then parsing gives back the
//! same [`Level`]. Missing squares (short rows, missing rows) are outside.
//!
//! # Detection
//!
//! [`detect`] looks at the trimmed text and takes the first rule that applies:
//!
//! 1. starts with `[soko=` (any case) → [`Format::SokoWrapper`];
//! 2. one line with a query parameter `lvl=` (at the start or after `?` / `&`) →
//!    [`Format::SokoPlayerUrl`];
//! 3. one line with a parameter `level=` → [`Format::SokobanScriptLevel`], or `base64=` →
//!    [`Format::SokobanScriptBase64`];
//! 4. any other one-line link (starting with `http://` or `https://`, or with both `w=` and
//!    `h=` parameters) → [`Format::SokoPlayerUrl`], so that reading it says what is missing;
//! 5. only LURD letters, digits, parentheses and whitespace, with at least one letter →
//!    [`Format::Lurd`] (no level format uses the letters `l u r d`);
//! 6. an `H` and no `#`, and either only MF8 characters, `|` and whitespace, or a single line
//!    with `|` → [`Format::Mf8`] (`H` is no XSB character, `#` no MF8 one);
//! 7. one line holding a `#` that is neither a `;` comment nor a `Key: value` line →
//!    [`Format::Rle`] if it has digits, parentheses or `|`, else [`Format::Xsb`];
//! 8. several lines that are all board lines, forming one board → [`Format::Xsb`], or
//!    [`Format::Rle`] if some use counts or `|`;
//! 9. anything else → [`Format::Collection`] (one or many levels).
//!
//! Ambiguities, and how they are settled:
//!
//! * URLs must be on one line, so a collection whose comments quote a link is still read as a
//!   collection.
//! * A text of only LURD letters is a solution even if it was meant as a title.
//! * Rule 8 reads the text exactly as rule 9 would; it only names the format more precisely.
//!   Rule 7 reads the line as one board even without a title, and reports errors by position
//!   (`at position 17`); a one-line text such as `Level #1` is thus reported as a bad board.
//! * `+` inside URL parameters is the player on a goal, not a space (use `%20` for a space).

mod mf8;
pub(crate) mod rle;
mod text;
mod url;

use std::fmt;

pub use mf8::{to_mf8, to_soko_wrapper, to_sokoplayer_url};
pub use rle::{position_to_rle, to_rle};
pub use url::{to_sokobanscript_base64_url, to_sokobanscript_level_url};

use crate::board::{Level, Move, Position};
use crate::error::{Error, ErrorKind, Result};
use crate::grid::{Grid, Tile};
use crate::lurd;
use rle::{board_rows, EXPANSION_BUDGET};
use text::Source;

/// A format the input was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// One XSB board.
    Xsb,
    /// One run-length board (`4#|#@$.#|...`).
    Rle,
    /// Bare MF8 (`HHHH|H_aH|...`).
    Mf8,
    /// A SokoPlayer HTML5 link (`...?w=..&h=..&lvl=...`).
    SokoPlayerUrl,
    /// One or more `[soko=W,H]...[/soko]` wrappers.
    SokoWrapper,
    /// A SokobanScript link with `level=` (percent-encoded XSB).
    SokobanScriptLevel,
    /// A SokobanScript link with `base64=` (Base64 of XSB).
    SokobanScriptBase64,
    /// A text collection (`.xsb`, `.sok`, `.txt`): one or many levels with titles.
    Collection,
    /// A LURD solution.
    Lurd,
}

impl Format {
    /// A short human-readable name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Xsb => "XSB",
            Format::Rle => "run-length XSB",
            Format::Mf8 => "MF8",
            Format::SokoPlayerUrl => "SokoPlayer link",
            Format::SokoWrapper => "[soko] wrapper",
            Format::SokobanScriptLevel => "SokobanScript level link",
            Format::SokobanScriptBase64 => "SokobanScript base64 link",
            Format::Collection => "collection",
            Format::Lurd => "LURD solution",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One level of an input, as read (not yet validated).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// 1-based number of the level in its collection.
    pub number: usize,
    /// Title, if the source gave one (also in `grid.title`).
    pub title: Option<String>,
    /// The squares as read.
    pub grid: Grid,
    /// 1-based line of the first board row, for text inputs.
    pub first_line: Option<usize>,
}

impl Entry {
    /// Validate the level. Errors are prefixed with the level's number and title
    /// (`level 3 "Easy": the level has no player (@ or +)`).
    pub fn level(&self) -> Result<Level> {
        self.grid.validate().map_err(|e| {
            let prefix = match &self.title {
                Some(t) => format!("level {} {t:?}: ", self.number),
                None => format!("level {}: ", self.number),
            };
            e.context(&prefix)
        })
    }
}

/// The levels of an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collection {
    /// The collection's title, if the text has a header that gives one.
    pub title: Option<String>,
    /// The levels, in order (at least one).
    pub entries: Vec<Entry>,
    /// The format the input was read in.
    pub format: Format,
}

/// What an input holds: levels or a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// One or more levels.
    Levels(Collection),
    /// A LURD solution, push flags as written.
    Solution(Vec<Move>),
}

/// The text without a leading byte order mark (which some editors write at the start of files).
fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// True when the trimmed text starts with `[soko=` in any case.
fn is_wrapper(t: &str) -> bool {
    t.get(..6).is_some_and(|s| s.eq_ignore_ascii_case("[soko="))
}

/// Which format a text is in (see the module documentation for the rules).
pub fn detect(text: &str) -> Format {
    let text = strip_bom(text);
    let t = text.trim();
    let single = !t.contains(['\n', '\r']);
    if is_wrapper(t) {
        return Format::SokoWrapper;
    }
    if single {
        if url::param(t, "lvl").is_some() {
            return Format::SokoPlayerUrl;
        }
        if url::param(t, "level").is_some() {
            return Format::SokobanScriptLevel;
        }
        if url::param(t, "base64").is_some() {
            return Format::SokobanScriptBase64;
        }
        let has_size = url::param(t, "w").is_some() && url::param(t, "h").is_some();
        if has_size || t.starts_with("http://") || t.starts_with("https://") {
            return Format::SokoPlayerUrl;
        }
    }
    if lurd::is_lurd(t) {
        return Format::Lurd;
    }
    if t.contains('H')
        && !t.contains('#')
        && ((single && t.contains('|'))
            || t.chars().all(|c| mf8::mf8_tile(c).is_some() || c == '|' || c.is_whitespace()))
    {
        return Format::Mf8;
    }
    if single && t.contains('#') && !t.starts_with(';') && text::key_value(t).is_none() {
        let rle = t.contains(|c: char| c.is_ascii_digit() || "()|".contains(c));
        return if rle { Format::Rle } else { Format::Xsb };
    }
    match text::single_board(text) {
        Some(true) => Format::Rle,
        Some(false) => Format::Xsb,
        None => Format::Collection,
    }
}

/// One entry holding a grid read from a single-level format.
fn single(grid: Grid) -> Vec<Entry> {
    vec![Entry { number: 1, title: None, grid, first_line: None }]
}

/// A board written on one line (XSB or run-length); errors say `at position P`.
fn parse_line_board(text: &str, budget: &mut usize) -> Result<Grid> {
    let t = text.trim();
    // Positions count from the start of the line, including leading whitespace.
    let lead = &text[..text.len() - text.trim_start().len()];
    let offset = lead.rsplit(['\n', '\r']).next().unwrap_or("").chars().count();
    let loc = |at: usize| format!("at position {}", at + 1 + offset);
    let rows = board_rows(t, budget, &loc)?;
    let lines = vec![None; rows.len()];
    Ok(Grid { rows, title: None, lines })
}

/// Read any supported input, detecting its format (see [`detect`]).
///
/// Levels are not validated, so that each can be checked on its own ([`Entry::level`]), but an
/// unknown character inside a board is an error that says where it is (`unknown character 'Q'
/// at line 4, column 7`, or `in row 3, column 2 of the lvl parameter`, or `at position 17`).
/// Malformed links and wrappers give [`ErrorKind::BadUrl`], malformed solutions
/// [`ErrorKind::BadSolution`], and a text without any level [`ErrorKind::Empty`].
///
/// # Collections
///
/// Consecutive board lines (only board characters and at least one `#`; run-length rows
/// allowed) form one level; anything else separates levels. A level's title is:
///
/// 1. a `Title:` line (key in any case). It belongs to the level above it when no blank line
///    separates them and that level has no `Title:` yet (`.sok` files write titles after the
///    board); else to the level below it when no blank line separates them; else to the level
///    above. A `Title:` before the first level with a blank line between is the collection's
///    title (and the level's, when there is only one);
/// 2. else the nearest line before the board (blank lines between are allowed) when it is a
///    `; comment` (`; 12` gives `12`) or plain text (`Easy one`), unless it looks like a LURD
///    solution.
///
/// Other `Key: value` lines (`Author:`, `Solution (12/3):`...) are ignored, and so is a
/// `Comment:` ... `Comment-End:` block. Without a header `Title:`, the collection's title is the
/// first comment or text line before the first level that is not that level's own title.
pub fn parse_input(text: &str) -> Result<Input> {
    let text = strip_bom(text);
    if text.trim().is_empty() {
        return Err(Error::new(ErrorKind::Empty, "the input is empty"));
    }
    let format = detect(text);
    let t = text.trim();
    let single_line = !t.contains(['\n', '\r']);
    let mut budget = EXPANSION_BUDGET;
    let (title, entries) = match format {
        Format::Lurd => return Ok(Input::Solution(lurd::parse_lurd(text)?)),
        Format::SokoWrapper => {
            let grids = mf8::parse_wrappers(t)?;
            let entries = grids
                .into_iter()
                .enumerate()
                .map(|(i, grid)| Entry { number: i + 1, title: None, grid, first_line: None })
                .collect();
            (None, entries)
        }
        Format::SokoPlayerUrl => (None, single(mf8::parse_url(t)?)),
        Format::Mf8 => (None, single(mf8::parse_bare(t)?)),
        Format::SokobanScriptLevel | Format::SokobanScriptBase64 => {
            (None, url::parse_sokobanscript(t, format, &mut budget)?)
        }
        Format::Xsb | Format::Rle if single_line => {
            (None, single(parse_line_board(text, &mut budget)?))
        }
        Format::Xsb | Format::Rle | Format::Collection => {
            let src = Source { suffix: "", keep_lines: true };
            text::parse(text, &src, &mut budget)?
        }
    };
    Ok(Input::Levels(Collection { title, entries, format }))
}

/// Like [`parse_input`], but a solution is an error ([`ErrorKind::Empty`]: no level).
pub fn parse_collection(text: &str) -> Result<Collection> {
    match parse_input(text)? {
        Input::Levels(c) => Ok(c),
        Input::Solution(_) => {
            Err(Error::new(ErrorKind::Empty, "the input is a solution (LURD), not a level"))
        }
    }
}

/// Read one level (the first, if the input holds several) and validate it.
pub fn parse_level(text: &str) -> Result<Level> {
    let collection = parse_collection(text)?;
    let first =
        collection.entries.first().ok_or_else(|| Error::new(ErrorKind::Empty, "no level found"))?;
    first.grid.validate()
}

/// Text lines of board rows: `floor` for floor and outside squares. A row without a wall
/// cannot be a line of its own (a line without `#` is not read as a board line): an empty row
/// (possible only between two separate parts of a board) or a row of decorations only (boxes
/// on goals outside the level) is joined to the line before with a `|` row break, or, at the
/// top, to the line after.
pub(crate) fn board_lines(rows: &[Vec<Tile>], floor: char) -> Vec<String> {
    let mut lines: Vec<String> = Vec::with_capacity(rows.len());
    let mut above = String::new();
    for row in rows {
        let text: String =
            row.iter().map(|&t| if t == Tile::Floor { floor } else { t.xsb() }).collect();
        if text.contains('#') {
            lines.push(std::mem::take(&mut above) + &text);
        } else if let Some(last) = lines.last_mut() {
            last.push('|');
            last.push_str(&text);
        } else {
            above.push_str(&text);
            above.push('|');
        }
    }
    lines
}

/// A level's board in XSB: rows separated by `\n` (no final newline), floor and outside as
/// spaces, no title.
pub fn to_xsb(level: &Level) -> String {
    position_to_xsb(level, &level.start)
}

/// Another position on a level's board in XSB (see [`to_xsb`]).
pub fn position_to_xsb(level: &Level, pos: &Position) -> String {
    board_lines(&Grid::from_position(level, pos).rows, ' ').join("\n")
}

/// Levels as a collection text: each board followed by a `Title:` line when the level has a
/// title, a blank line between levels. Reading it back gives the same levels and titles
/// (titles are written on one line and trimmed).
pub fn to_collection(levels: &[Level]) -> String {
    let mut out = String::new();
    for (i, level) in levels.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&to_xsb(level));
        out.push('\n');
        if let Some(title) = &level.title {
            let title = title.replace(['\r', '\n'], " ");
            let title = title.trim();
            if !title.is_empty() {
                out.push_str("Title: ");
                out.push_str(title);
                out.push('\n');
            }
        }
    }
    out
}
