//! Run-length notation, shared by level rows and LURD solutions.
//!
//! A count written before a character repeats it (`4#` is `####`, `12-` is twelve floors), and
//! a count before a parenthesised group repeats the group (`2(#-)` is `#-#-`; groups nest). A
//! character without a count stands for itself. The expander here knows nothing about what the
//! characters mean: the caller maps each literal character to an item (a tile, a row break, a
//! move) and turns a [`Problem`] into an [`Error`] that says where it happened in the source.
//!
//! This module also holds the run-length printer for levels ([`to_rle`]) and the parser of one
//! board line (XSB characters, counts, groups and `|` row breaks).

use crate::board::{Level, Position, MAX_COLS, MAX_ROWS};
use crate::error::{Error, ErrorKind, Result};
use crate::grid::{Grid, Tile};

/// How many extra items counts may create in one parse (beyond the characters written), so a
/// short text such as `999999999#` cannot exhaust memory.
pub(crate) const EXPANSION_BUDGET: usize = 1 << 24;

/// Deepest nesting of parenthesised groups.
const MAX_DEPTH: usize = 64;

/// What is wrong with a run-length text. Positions are the caller's (the first element of the
/// `(position, char)` pairs given to [`expand`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Problem {
    /// A character the caller's mapping rejected.
    BadChar(char, usize),
    /// A `)` without a matching `(`.
    UnexpectedClose(usize),
    /// A `(` without a matching `)`.
    Unclosed(usize),
    /// A count at the end of the text or of a group, with nothing to repeat.
    DanglingCount(usize),
    /// A count that does not fit in 64 bits.
    CountTooLarge(usize),
    /// The counts create more items than the budget allows.
    TooLong(usize),
    /// Groups nested deeper than [`MAX_DEPTH`].
    TooDeep(usize),
}

/// Expand run-length notation.
///
/// `items` are the characters to read with their positions (the caller may have dropped
/// characters it ignores, such as whitespace in a solution). `map` turns a literal character
/// into an item, or rejects it with `None`. `budget` is the number of extra items the counts may
/// still create; it is decreased by what this call creates.
pub(crate) fn expand<T: Copy>(
    items: &[(usize, char)],
    budget: &mut usize,
    map: impl FnMut(char) -> Option<T>,
) -> std::result::Result<Vec<T>, Problem> {
    let mut ex = Expander { items, i: 0, budget, map };
    ex.sequence(None, 0)
}

struct Expander<'a, F> {
    items: &'a [(usize, char)],
    i: usize,
    budget: &'a mut usize,
    map: F,
}

impl<F> Expander<'_, F> {
    /// Take `extra` items from the budget. Counts are 64-bit on every platform (a count of
    /// 10^12 is "too many", not "too large", in wasm32 too), so the charge is in `u64`.
    fn charge(&mut self, extra: u64, pos: usize) -> std::result::Result<(), Problem> {
        let Some(left) = (*self.budget as u64).checked_sub(extra) else {
            return Err(Problem::TooLong(pos));
        };
        *self.budget = left as usize;
        Ok(())
    }

    /// Read items up to the end of the text (`open == None`) or up to the `)` closing the group
    /// opened at position `open`.
    fn sequence<T: Copy>(
        &mut self,
        open: Option<usize>,
        depth: usize,
    ) -> std::result::Result<Vec<T>, Problem>
    where
        F: FnMut(char) -> Option<T>,
    {
        let mut out = Vec::new();
        loop {
            let Some(&(pos, c)) = self.items.get(self.i) else {
                return match open {
                    Some(p) => Err(Problem::Unclosed(p)),
                    None => Ok(out),
                };
            };
            if c == ')' {
                return match open {
                    Some(_) => {
                        self.i += 1;
                        Ok(out)
                    }
                    None => Err(Problem::UnexpectedClose(pos)),
                };
            }
            let mut count = 1u64;
            if c.is_ascii_digit() {
                count = 0;
                while let Some(d) = self.items.get(self.i).and_then(|&(_, d)| d.to_digit(10)) {
                    count = count
                        .checked_mul(10)
                        .and_then(|n| n.checked_add(u64::from(d)))
                        .ok_or(Problem::CountTooLarge(pos))?;
                    self.i += 1;
                }
                match self.items.get(self.i) {
                    None | Some((_, ')')) => return Err(Problem::DanglingCount(pos)),
                    Some(_) => {}
                }
            }
            let (pos, c) = self.items[self.i];
            self.i += 1;
            if c == '(' {
                if depth >= MAX_DEPTH {
                    return Err(Problem::TooDeep(pos));
                }
                let group: Vec<T> = self.sequence(Some(pos), depth + 1)?;
                let extra = (group.len() as u64).saturating_mul(count.saturating_sub(1));
                self.charge(extra, pos)?;
                // An empty group creates nothing however large its count: no loop over it.
                // Otherwise the charge bounds the count by the budget.
                if !group.is_empty() {
                    for _ in 0..count {
                        out.extend_from_slice(&group);
                    }
                }
            } else {
                let item = (self.map)(c).ok_or(Problem::BadChar(c, pos))?;
                self.charge(count.saturating_sub(1), pos)?;
                // Within the budget (2^24 + 1 at most): fits in a usize.
                out.extend(std::iter::repeat_n(item, count as usize));
            }
        }
    }
}

/// Turn a [`Problem`] into an error. `loc` says where a position is (`at line 3, column 4`);
/// `syntax` is the kind for malformed text, `size` the kind for counts that are too large;
/// `unit` names the items (`squares`, `moves`); `hint` is added to unknown-character messages.
pub(crate) fn problem_error(
    p: Problem,
    syntax: ErrorKind,
    size: ErrorKind,
    unit: &str,
    hint: &str,
    loc: &dyn Fn(usize) -> String,
) -> Error {
    match p {
        Problem::BadChar(c, at) => {
            Error::new(syntax, format!("unknown character {c:?} {}{hint}", loc(at)))
        }
        Problem::UnexpectedClose(at) => {
            Error::new(syntax, format!("')' {} closes no group", loc(at)))
        }
        Problem::Unclosed(at) => {
            Error::new(syntax, format!("the group opened by '(' {} is never closed", loc(at)))
        }
        Problem::DanglingCount(at) => Error::new(
            syntax,
            format!("the count {} is not followed by anything to repeat", loc(at)),
        ),
        Problem::TooDeep(at) => {
            Error::new(syntax, format!("the groups {} are nested too deeply", loc(at)))
        }
        Problem::CountTooLarge(at) => {
            Error::new(size, format!("the count {} is too large", loc(at)))
        }
        Problem::TooLong(at) => Error::new(
            size,
            format!(
                "the counts {} expand to too many {unit} (more than {EXPANSION_BUDGET})",
                loc(at)
            ),
        ),
    }
}

/// Drop trailing floor squares of a row: they are always outside the level (were the player
/// able to reach one, the level would be open), and dropping them makes every format agree on
/// the level's width.
pub(crate) fn trim_floors(row: &mut Vec<Tile>) {
    while row.last() == Some(&Tile::Floor) {
        row.pop();
    }
}

/// True for the characters a board line may hold: XSB squares, counts, groups and `|`.
pub(crate) fn is_board_char(c: char) -> bool {
    Tile::from_xsb(c).is_some() || c.is_ascii_digit() || matches!(c, '(' | ')' | '|')
}

/// The rows of one board line: XSB characters with optional counts and groups, `|` starting a
/// new row (so a line may hold several rows, and `3|` gives empty rows). Trailing whitespace is
/// ignored and trailing floors are dropped. `loc` says where a 0-based character index is.
pub(crate) fn board_rows(
    line: &str,
    budget: &mut usize,
    loc: &dyn Fn(usize) -> String,
) -> Result<Vec<Vec<Tile>>> {
    // A line longer than this many characters cannot be a board: every square of the
    // largest board, each row's '|', and a count before every square still fit. Refused
    // at once instead of expanded (a 10 MB line of walls took 0.4 s).
    let most = 4 * (MAX_COLS + 1) * MAX_ROWS;
    let len = line.trim_end().len();
    if len > most {
        return Err(Error::new(
            ErrorKind::TooLarge,
            format!(
                "a board line of {len} characters {} is too long: a level has at most {MAX_COLS} x {MAX_ROWS} squares",
                loc(0)
            ),
        ));
    }
    let line = line.trim_end();
    if !line.bytes().any(|b| b.is_ascii_digit() || b == b'(' || b == b')') {
        // Plain XSB (no counts, no groups): the squares as they stand, without expanding.
        let mut rows = vec![Vec::with_capacity(line.len())];
        for (i, c) in line.chars().enumerate() {
            if c == '|' {
                rows.push(Vec::new());
            } else if let Some(t) = Tile::from_xsb(c) {
                rows.last_mut().expect("at least one row").push(t);
            } else {
                let p = Problem::BadChar(c, i);
                return Err(problem_error(
                    p,
                    ErrorKind::UnknownChar,
                    ErrorKind::TooLarge,
                    "squares",
                    "",
                    loc,
                ));
            }
        }
        rows.iter_mut().for_each(trim_floors);
        return Ok(rows);
    }
    let items: Vec<(usize, char)> = line.chars().enumerate().collect();
    let cells = expand(&items, budget, |c| match c {
        '|' => Some(None),
        _ => Tile::from_xsb(c).map(Some),
    })
    .map_err(|p| {
        problem_error(p, ErrorKind::UnknownChar, ErrorKind::TooLarge, "squares", "", loc)
    })?;
    let mut rows = vec![Vec::new()];
    for cell in cells {
        match cell {
            Some(t) => rows.last_mut().expect("at least one row").push(t),
            None => rows.push(Vec::new()),
        }
    }
    rows.iter_mut().for_each(trim_floors);
    Ok(rows)
}

/// Where a 0-based character index of a `|`-separated single-line text is:
/// `in row 3, column 2 of the lvl parameter`.
pub(crate) fn segment_location(chars: &[char], at: usize, what: &str) -> String {
    let before = &chars[..at.min(chars.len())];
    let row = before.iter().filter(|&&c| c == '|').count() + 1;
    let start = before.iter().rposition(|&c| c == '|').map_or(0, |i| i + 1);
    format!("in row {row}, column {} of {what}", at - start + 1)
}

/// A level in run-length notation: `-` for floor (and outside), counts for runs of two or more
/// equal squares, rows joined by `|`, trailing floors dropped.
pub fn to_rle(level: &Level) -> String {
    position_to_rle(level, &level.start)
}

/// Another position on a level's board in run-length notation (see [`to_rle`]).
pub fn position_to_rle(level: &Level, pos: &Position) -> String {
    let grid = Grid::from_position(level, pos);
    let rows: Vec<String> = grid.rows.iter().map(|row| rle_row(row)).collect();
    rows.join("|")
}

fn rle_row(row: &[Tile]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < row.len() {
        let t = row[i];
        let run = row[i..].iter().take_while(|&&u| u == t).count();
        if run >= 2 {
            out.push_str(&run.to_string());
        }
        out.push(if t == Tile::Floor { '-' } else { t.xsb() });
        i += run;
    }
    out
}
