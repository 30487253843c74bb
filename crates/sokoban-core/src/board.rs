//! The static board (walls, floor, goals), positions (player + boxes) and single moves.

use std::fmt;

/// Largest number of columns a level may have.
pub const MAX_COLS: usize = 255;
/// Largest number of rows a level may have.
pub const MAX_ROWS: usize = 255;

/// A square index: `row * width + col`.
pub type Square = usize;

/// One of the four directions of movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    Up = 0,
    Right = 1,
    Down = 2,
    Left = 3,
}

impl Dir {
    /// All four directions, in index order.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Right, Dir::Down, Dir::Left];

    /// The index of this direction (0..4).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The direction with this index (taken modulo 4).
    #[inline]
    pub fn from_index(i: usize) -> Dir {
        Dir::ALL[i & 3]
    }

    /// The opposite direction.
    #[inline]
    pub fn opposite(self) -> Dir {
        Dir::from_index(self.index() + 2)
    }

    /// Row and column deltas.
    #[inline]
    pub fn delta(self) -> (isize, isize) {
        match self {
            Dir::Up => (-1, 0),
            Dir::Right => (0, 1),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
        }
    }

    /// The LURD letter of a walk in this direction (lowercase).
    pub fn lurd(self) -> char {
        match self {
            Dir::Up => 'u',
            Dir::Right => 'r',
            Dir::Down => 'd',
            Dir::Left => 'l',
        }
    }

    /// The direction of a LURD letter (either case).
    pub fn from_lurd(c: char) -> Option<Dir> {
        match c.to_ascii_lowercase() {
            'u' => Some(Dir::Up),
            'r' => Some(Dir::Right),
            'd' => Some(Dir::Down),
            'l' => Some(Dir::Left),
            _ => None,
        }
    }
}

/// What a square of the board is, ignoring boxes and the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Not part of the level: the player can never get there.
    Outside,
    /// A wall.
    Wall,
    /// A floor square the player can reach (boxes and the player move on these).
    Floor,
}

/// The static part of a level: walls, floor and goals on a `width x height` grid.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    width: usize,
    height: usize,
    cells: Vec<Cell>,
    goals: Vec<bool>,
}

impl Board {
    /// Build a board from its cells and goals (both `width * height` long, row-major).
    ///
    /// # Panics
    /// If the vectors have the wrong length or a goal is not on a floor square.
    pub fn new(width: usize, height: usize, cells: Vec<Cell>, goals: Vec<bool>) -> Board {
        assert_eq!(cells.len(), width * height);
        assert_eq!(goals.len(), width * height);
        for (i, &g) in goals.iter().enumerate() {
            assert!(!g || cells[i] == Cell::Floor, "goal off the floor");
        }
        Board { width, height, cells, goals }
    }

    /// Number of columns.
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of squares (`width * height`).
    #[inline]
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// True for a 0x0 board (never produced by the parsers).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The cell at a square.
    #[inline]
    pub fn cell(&self, sq: Square) -> Cell {
        self.cells[sq]
    }

    /// All cells, row-major.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// True when the square is a floor square of the level.
    #[inline]
    pub fn is_floor(&self, sq: Square) -> bool {
        self.cells[sq] == Cell::Floor
    }

    /// True when the square is a goal.
    #[inline]
    pub fn is_goal(&self, sq: Square) -> bool {
        self.goals[sq]
    }

    /// The goal flags, row-major.
    pub fn goals(&self) -> &[bool] {
        &self.goals
    }

    /// Number of goals.
    pub fn goal_count(&self) -> usize {
        self.goals.iter().filter(|&&g| g).count()
    }

    /// The square at a row and column.
    #[inline]
    pub fn square(&self, row: usize, col: usize) -> Square {
        row * self.width + col
    }

    /// Row and column of a square.
    #[inline]
    pub fn row_col(&self, sq: Square) -> (usize, usize) {
        (sq / self.width, sq % self.width)
    }

    /// The neighbour of a square in a direction, if it is on the grid.
    #[inline]
    pub fn neighbor(&self, sq: Square, dir: Dir) -> Option<Square> {
        let (r, c) = self.row_col(sq);
        match dir {
            Dir::Up => (r > 0).then(|| sq - self.width),
            Dir::Down => (r + 1 < self.height).then(|| sq + self.width),
            Dir::Left => (c > 0).then(|| sq - 1),
            Dir::Right => (c + 1 < self.width).then(|| sq + 1),
        }
    }

    /// The neighbour in a direction if it is a floor square.
    #[inline]
    pub fn floor_neighbor(&self, sq: Square, dir: Dir) -> Option<Square> {
        self.neighbor(sq, dir).filter(|&n| self.is_floor(n))
    }

    /// The direction from `a` to an adjacent square `b`.
    pub fn dir_between(&self, a: Square, b: Square) -> Option<Dir> {
        Dir::ALL.into_iter().find(|&d| self.neighbor(a, d) == Some(b))
    }

    /// Number of floor squares.
    pub fn floor_count(&self) -> usize {
        self.cells.iter().filter(|&&c| c == Cell::Floor).count()
    }
}

/// A position: where the player and the boxes are.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The player's square.
    pub player: Square,
    /// One flag per board square: true where a box stands.
    pub boxes: Vec<bool>,
}

impl Position {
    /// A position from a player square and a list of box squares on a board of `len` squares.
    pub fn from_squares(len: usize, player: Square, boxes: &[Square]) -> Position {
        let mut b = vec![false; len];
        for &s in boxes {
            b[s] = true;
        }
        Position { player, boxes: b }
    }

    /// True when a box stands on the square.
    #[inline]
    pub fn has_box(&self, sq: Square) -> bool {
        self.boxes[sq]
    }

    /// The box squares in increasing order.
    pub fn box_squares(&self) -> Vec<Square> {
        self.boxes.iter().enumerate().filter(|(_, &b)| b).map(|(i, _)| i).collect()
    }

    /// Number of boxes.
    pub fn box_count(&self) -> usize {
        self.boxes.iter().filter(|&&b| b).count()
    }

    /// Number of boxes that stand on goals.
    pub fn boxes_on_goals(&self, board: &Board) -> usize {
        (0..board.len()).filter(|&s| self.boxes[s] && board.is_goal(s)).count()
    }

    /// True when every box is on a goal.
    pub fn is_solved(&self, board: &Board) -> bool {
        (0..board.len()).all(|s| !self.boxes[s] || board.is_goal(s))
    }

    /// True when a square is free floor: floor without a box.
    #[inline]
    pub fn is_free(&self, board: &Board, sq: Square) -> bool {
        board.is_floor(sq) && !self.boxes[sq]
    }

    /// What a step in `dir` would do from here: `None` if blocked, else whether it pushes.
    pub fn try_move(&self, board: &Board, dir: Dir) -> Option<Move> {
        let next = board.floor_neighbor(self.player, dir)?;
        if !self.boxes[next] {
            return Some(Move { dir, push: false });
        }
        let beyond = board.floor_neighbor(next, dir)?;
        if self.boxes[beyond] {
            return None;
        }
        Some(Move { dir, push: true })
    }

    /// Take a step if legal; returns the move made.
    pub fn apply(&mut self, board: &Board, dir: Dir) -> Option<Move> {
        let m = self.try_move(board, dir)?;
        let next = board.neighbor(self.player, dir).expect("checked");
        if m.push {
            let beyond = board.neighbor(next, dir).expect("checked");
            self.boxes[next] = false;
            self.boxes[beyond] = true;
        }
        self.player = next;
        Some(m)
    }

    /// Take back a move previously made by [`Position::apply`].
    pub fn unapply(&mut self, board: &Board, m: Move) {
        let back = m.dir.opposite();
        let prev = board.neighbor(self.player, back).expect("move was legal");
        if m.push {
            let boxsq = board.neighbor(self.player, m.dir).expect("move was legal");
            self.boxes[boxsq] = false;
            self.boxes[self.player] = true;
        }
        self.player = prev;
    }

    /// Squares the player can reach without pushing (one flag per square).
    pub fn reachable(&self, board: &Board) -> Vec<bool> {
        let mut seen = vec![false; board.len()];
        let mut stack = vec![self.player];
        seen[self.player] = true;
        while let Some(s) = stack.pop() {
            for d in Dir::ALL {
                if let Some(n) = board.floor_neighbor(s, d) {
                    if !seen[n] && !self.boxes[n] {
                        seen[n] = true;
                        stack.push(n);
                    }
                }
            }
        }
        seen
    }
}

/// One step of the player: a direction and whether it pushed a box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub dir: Dir,
    pub push: bool,
}

impl Move {
    /// The LURD letter: lowercase for a walk, uppercase for a push.
    pub fn lurd(self) -> char {
        let c = self.dir.lurd();
        if self.push {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.lurd())
    }
}

/// A level: a board, the start position, and the title and number it had in its collection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// Title, when the source gave one.
    pub title: Option<String>,
    /// The static board.
    pub board: Board,
    /// The starting position.
    pub start: Position,
}

impl Level {
    /// Number of boxes.
    pub fn box_count(&self) -> usize {
        self.start.box_count()
    }
}
