//! A level as read from text, before validation: a ragged grid of tiles.
//!
//! Every format parser produces a [`Grid`]; [`Grid::validate`] turns it into a [`Level`]
//! or says what is wrong and where.

use crate::board::{Board, Cell, Level, Position, MAX_COLS, MAX_ROWS};
use crate::error::{Error, ErrorKind, Result};

/// One square as written in a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tile {
    Floor,
    Wall,
    Goal,
    Box,
    BoxOnGoal,
    Player,
    PlayerOnGoal,
}

impl Tile {
    /// The XSB character of the tile (floor is a space).
    pub fn xsb(self) -> char {
        match self {
            Tile::Floor => ' ',
            Tile::Wall => '#',
            Tile::Goal => '.',
            Tile::Box => '$',
            Tile::BoxOnGoal => '*',
            Tile::Player => '@',
            Tile::PlayerOnGoal => '+',
        }
    }

    /// The tile of an XSB character (`-` and `_` are floor too).
    pub fn from_xsb(c: char) -> Option<Tile> {
        Some(match c {
            ' ' | '-' | '_' => Tile::Floor,
            '#' => Tile::Wall,
            '.' => Tile::Goal,
            '$' => Tile::Box,
            '*' => Tile::BoxOnGoal,
            '@' => Tile::Player,
            '+' => Tile::PlayerOnGoal,
            _ => return None,
        })
    }

    /// True for a goal square (with or without box or player).
    pub fn is_goal(self) -> bool {
        matches!(self, Tile::Goal | Tile::BoxOnGoal | Tile::PlayerOnGoal)
    }

    /// True when a box stands here.
    pub fn is_box(self) -> bool {
        matches!(self, Tile::Box | Tile::BoxOnGoal)
    }

    /// True when the player stands here.
    pub fn is_player(self) -> bool {
        matches!(self, Tile::Player | Tile::PlayerOnGoal)
    }

    /// The tile with the given contents.
    pub fn compose(wall: bool, goal: bool, boxed: bool, player: bool) -> Tile {
        match (wall, goal, boxed, player) {
            (true, ..) => Tile::Wall,
            (_, false, true, _) => Tile::Box,
            (_, true, true, _) => Tile::BoxOnGoal,
            (_, false, false, true) => Tile::Player,
            (_, true, false, true) => Tile::PlayerOnGoal,
            (_, true, false, false) => Tile::Goal,
            (_, false, false, false) => Tile::Floor,
        }
    }
}

/// A level as written: rows of tiles (rows may differ in length; missing squares are outside),
/// an optional title, and where each row came from in the source text.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Grid {
    /// The rows, top to bottom.
    pub rows: Vec<Vec<Tile>>,
    /// Title, if the source gave one.
    pub title: Option<String>,
    /// For each row, the 1-based source line it came from, when that means something.
    pub lines: Vec<Option<usize>>,
}

impl Grid {
    /// Where a square is, for messages: `row 3, column 5` plus the source line when known.
    pub fn locate(&self, row: usize, col: usize) -> String {
        match self.lines.get(row).copied().flatten() {
            Some(line) => format!("row {}, column {} (line {line})", row + 1, col + 1),
            None => format!("row {}, column {}", row + 1, col + 1),
        }
    }

    /// Number of columns (the longest row).
    pub fn width(&self) -> usize {
        self.rows.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// The tile at a row and column; `None` past the end of a row or the grid.
    pub fn get(&self, row: usize, col: usize) -> Option<Tile> {
        self.rows.get(row).and_then(|r| r.get(col)).copied()
    }

    /// A grid from a level (the inverse of [`Grid::validate`] up to trailing outside squares).
    pub fn from_level(level: &Level) -> Grid {
        Self::from_position(level, &level.start)
    }

    /// A grid showing a level's board with another position on it.
    pub fn from_position(level: &Level, pos: &Position) -> Grid {
        let b = &level.board;
        let mut rows = Vec::with_capacity(b.height());
        for r in 0..b.height() {
            let mut row = Vec::with_capacity(b.width());
            for c in 0..b.width() {
                let s = b.square(r, c);
                let t = match b.cell(s) {
                    Cell::Wall => Tile::Wall,
                    Cell::Outside => Tile::Floor,
                    Cell::Floor => {
                        Tile::compose(false, b.is_goal(s), pos.boxes[s], pos.player == s)
                    }
                };
                row.push(t);
            }
            while row.last() == Some(&Tile::Floor) {
                row.pop();
            }
            rows.push(row);
        }
        Grid { rows, title: level.title.clone(), lines: vec![None; b.height()] }
    }

    /// Check the grid and build the level.
    ///
    /// Errors: empty, too large, no player, two players, open level (the player can walk off
    /// the board), a box or goal where the player can never get, no boxes, and box count not
    /// equal to goal count. Floor squares the player can never reach become [`Cell::Outside`];
    /// a box already on a goal there is kept as a fixed box on a goal (a decoration some
    /// published levels use).
    pub fn validate(&self) -> Result<Level> {
        // Drop empty rows at the top and bottom; they carry no squares.
        let first = self.rows.iter().position(|r| !r.is_empty());
        let Some(first) = first else {
            return Err(Error::new(ErrorKind::Empty, "the level has no squares"));
        };
        let last = self.rows.iter().rposition(|r| !r.is_empty()).unwrap_or(first);
        // Trailing floor squares are always outside (or the level is open); drop them so
        // every format gives the same width.
        let rows: Vec<&[Tile]> = self.rows[first..=last]
            .iter()
            .map(|r| {
                let end = r.iter().rposition(|&t| t != Tile::Floor).map_or(0, |i| i + 1);
                &r[..end]
            })
            .collect();
        let loc = |r: usize, c: usize| self.locate(r + first, c);
        let height = rows.len();
        let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
        if width > MAX_COLS || height > MAX_ROWS {
            return Err(Error::new(
                ErrorKind::TooLarge,
                format!(
                    "the level is {width} columns by {height} rows; the largest allowed is {MAX_COLS} by {MAX_ROWS}"
                ),
            ));
        }
        let get = |r: usize, c: usize| rows.get(r).and_then(|row| row.get(c)).copied();

        let mut player = None;
        for (r, row) in rows.iter().enumerate() {
            for (c, t) in row.iter().enumerate() {
                if t.is_player() {
                    if let Some((pr, pc)) = player {
                        return Err(Error::new(
                            ErrorKind::TwoPlayers,
                            format!("two players: one at {} and one at {}", loc(pr, pc), loc(r, c)),
                        ));
                    }
                    player = Some((r, c));
                }
            }
        }
        let Some((pr, pc)) = player else {
            return Err(Error::new(ErrorKind::NoPlayer, "the level has no player (@ or +)"));
        };

        // Flood fill from the player through everything that is not a wall.
        let idx = |r: usize, c: usize| r * width + c;
        let mut inside = vec![false; width * height];
        let mut stack = vec![(pr, pc)];
        inside[idx(pr, pc)] = true;
        while let Some((r, c)) = stack.pop() {
            let nbrs = [
                (r.checked_sub(1), Some(c)),
                (Some(r + 1), Some(c)),
                (Some(r), c.checked_sub(1)),
                (Some(r), Some(c + 1)),
            ];
            for (nr, nc) in nbrs {
                let open = match (nr, nc) {
                    (Some(nr), Some(nc)) => match get(nr, nc) {
                        None => true,
                        Some(Tile::Wall) => continue,
                        Some(_) => {
                            if !inside[idx(nr, nc)] {
                                inside[idx(nr, nc)] = true;
                                stack.push((nr, nc));
                            }
                            continue;
                        }
                    },
                    _ => true,
                };
                if open {
                    return Err(Error::new(
                        ErrorKind::Open,
                        format!(
                            "the level is open: the player can walk off the board at {} (a wall is missing)",
                            loc(r, c)
                        ),
                    ));
                }
            }
        }

        let mut cells = vec![Cell::Outside; width * height];
        let mut goals = vec![false; width * height];
        let mut boxes = Vec::new();
        let mut goal_count = 0;
        for (r, row) in rows.iter().enumerate() {
            for (c, &t) in row.iter().enumerate() {
                let s = idx(r, c);
                if t == Tile::Wall {
                    cells[s] = Cell::Wall;
                    continue;
                }
                if !inside[s] {
                    if t == Tile::BoxOnGoal {
                        // A box on a goal the player can never reach: a fixed decoration
                        // (some published levels have them). It stays a box on a goal.
                        cells[s] = Cell::Floor;
                        goals[s] = true;
                        goal_count += 1;
                        boxes.push(s);
                        continue;
                    }
                    if t.is_box() || t.is_goal() {
                        let what = if t.is_box() { "box" } else { "goal" };
                        return Err(Error::new(
                            ErrorKind::Outside,
                            format!(
                                "the {what} at {} is outside the level: the player can never get there",
                                loc(r, c)
                            ),
                        ));
                    }
                    continue;
                }
                cells[s] = Cell::Floor;
                if t.is_goal() {
                    goals[s] = true;
                    goal_count += 1;
                }
                if t.is_box() {
                    boxes.push(s);
                }
            }
        }
        if boxes.is_empty() {
            return Err(Error::new(ErrorKind::NoBoxes, "the level has no boxes ($ or *)"));
        }
        if boxes.len() != goal_count {
            return Err(Error::new(
                ErrorKind::BoxGoalMismatch,
                format!(
                    "the level has {} box{} but {} goal{}",
                    boxes.len(),
                    if boxes.len() == 1 { "" } else { "es" },
                    goal_count,
                    if goal_count == 1 { "" } else { "s" }
                ),
            ));
        }
        let board = Board::new(width, height, cells, goals);
        let start = Position::from_squares(width * height, idx(pr, pc), &boxes);
        Ok(Level { title: self.title.clone(), board, start })
    }
}
