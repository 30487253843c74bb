//! The rules: a board of `width` x `height` cells holding the tiles 1..n-1 and the blank
//! (0), moves of the blank (a tile next to the blank slides into it), reading positions,
//! goal layouts, solvability by permutation parity, and random positions.

use std::fmt;

/// Smallest side of a board.
pub const MIN_SIDE: usize = 2;
/// Largest side of a board.
pub const MAX_SIDE: usize = 5;
/// Most cells of a board (5 x 5).
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// What went wrong with a position or a request, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleError(pub String);

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PuzzleError {}

fn err<T>(msg: impl Into<String>) -> Result<T, PuzzleError> {
    Err(PuzzleError(msg.into()))
}

/// A direction the blank moves in (the tile on that side slides the other way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    Up = 0,
    Right = 1,
    Down = 2,
    Left = 3,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Right, Dir::Down, Dir::Left];

    /// 0 up, 1 right, 2 down, 3 left.
    pub fn from_index(i: usize) -> Dir {
        Dir::ALL[i & 3]
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn opposite(self) -> Dir {
        Dir::from_index(self.index() + 2)
    }

    /// `U`, `R`, `D` or `L`: how solutions are written (the blank's moves).
    pub fn letter(self) -> char {
        ['U', 'R', 'D', 'L'][self.index()]
    }

    /// Read `U R D L` (either case).
    pub fn from_letter(c: char) -> Option<Dir> {
        match c.to_ascii_uppercase() {
            'U' => Some(Dir::Up),
            'R' => Some(Dir::Right),
            'D' => Some(Dir::Down),
            'L' => Some(Dir::Left),
            _ => None,
        }
    }
}

/// Moves as letters (the blank's directions).
pub fn letters(moves: &[Dir]) -> String {
    moves.iter().map(|d| d.letter()).collect()
}

/// Read a move list written as `U R D L` letters (case and spaces ignored).
pub fn parse_moves(text: &str) -> Result<Vec<Dir>, PuzzleError> {
    let mut out = Vec::new();
    for (i, c) in text.chars().enumerate() {
        if c.is_whitespace() || c == ',' {
            continue;
        }
        match Dir::from_letter(c) {
            Some(d) => out.push(d),
            None => return err(format!("'{c}' at character {} is not a move (U, R, D, L)", i + 1)),
        }
    }
    Ok(out)
}

/// Where the blank stands in the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GoalKind {
    /// `0 1 2 ... n-1`: the blank in the top-left corner (Korf's instances).
    BlankFirst,
    /// `1 2 ... n-1 0`: the blank in the bottom-right corner (the usual judge goal).
    #[default]
    BlankLast,
}

impl GoalKind {
    /// `blank-first` / `first` or `blank-last` / `last`.
    pub fn parse(s: &str) -> Option<GoalKind> {
        match s {
            "blank-first" | "first" | "0-first" => Some(GoalKind::BlankFirst),
            "blank-last" | "last" | "0-last" => Some(GoalKind::BlankLast),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            GoalKind::BlankFirst => "blank-first",
            GoalKind::BlankLast => "blank-last",
        }
    }
}

/// A position: tiles in row-major order, 0 the blank.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    width: usize,
    height: usize,
    tiles: Vec<u8>,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({}x{}: {})", self.width, self.height, self.to_text())
    }
}

/// Check a board size.
pub fn check_size(width: usize, height: usize) -> Result<(), PuzzleError> {
    if !(MIN_SIDE..=MAX_SIDE).contains(&width) || !(MIN_SIDE..=MAX_SIDE).contains(&height) {
        return err(format!(
            "a {width}x{height} board is not supported: each side must be {MIN_SIDE} to {MAX_SIDE}"
        ));
    }
    Ok(())
}

/// The square board with `cells` cells (4, 9, 16, 25), if there is one.
pub fn square_size(cells: usize) -> Option<(usize, usize)> {
    (MIN_SIDE..=MAX_SIDE).find(|s| s * s == cells).map(|s| (s, s))
}

/// Read `WxH` (or `W×H`, `W*H`), or a puzzle name: 3, 8, 15, 24 (and 2x2 as 3).
pub fn parse_size(s: &str) -> Option<(usize, usize)> {
    let s = s.trim();
    if let Some((a, b)) = s.split_once(['x', 'X', '×', '*']) {
        let (w, h) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
        return check_size(w, h).ok().map(|_| (w, h));
    }
    let n: usize = s.parse().ok()?;
    square_size(n + 1)
}

/// Numbers separated by spaces, commas, semicolons, slashes or line breaks.
pub fn parse_numbers(text: &str) -> Result<Vec<u32>, PuzzleError> {
    let mut out = Vec::new();
    for tok in text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '/' | '|')) {
        if tok.is_empty() {
            continue;
        }
        match tok.parse::<u32>() {
            Ok(v) => out.push(v),
            Err(_) => return err(format!("'{tok}' is not a tile number")),
        }
    }
    Ok(out)
}

impl Board {
    /// A board from tiles in row-major order; they must be 0..n-1, each once.
    pub fn new(width: usize, height: usize, tiles: Vec<u8>) -> Result<Board, PuzzleError> {
        check_size(width, height)?;
        let n = width * height;
        if tiles.len() != n {
            return err(format!(
                "a {width}x{height} board has {n} cells, but {} numbers were given",
                tiles.len()
            ));
        }
        let mut seen = [false; MAX_CELLS];
        for (i, &t) in tiles.iter().enumerate() {
            if t as usize >= n {
                return err(format!(
                    "tile {t} (number {}) is out of range: a {width}x{height} board has tiles 0 to {}",
                    i + 1,
                    n - 1
                ));
            }
            if seen[t as usize] {
                return err(format!("tile {t} appears twice"));
            }
            seen[t as usize] = true;
        }
        Ok(Board { width, height, tiles })
    }

    /// Read a position: numbers in row-major order (0 the blank). The size is given, or
    /// else the count must be a square (4, 9, 16 or 25 numbers).
    pub fn parse(text: &str, size: Option<(usize, usize)>) -> Result<Board, PuzzleError> {
        let nums = parse_numbers(text)?;
        if nums.is_empty() {
            return err("no tile numbers");
        }
        let (w, h) = match size {
            Some(s) => s,
            None => square_size(nums.len()).ok_or_else(|| {
                PuzzleError(format!(
                    "{} numbers do not make a square board (4, 9, 16 or 25); give the size",
                    nums.len()
                ))
            })?,
        };
        if nums.iter().any(|&v| v > 255) {
            return err("tile numbers must be below the number of cells");
        }
        Board::new(w, h, nums.into_iter().map(|v| v as u8).collect())
    }

    /// The goal of a size.
    pub fn goal(width: usize, height: usize, kind: GoalKind) -> Result<Board, PuzzleError> {
        check_size(width, height)?;
        let n = width * height;
        let tiles = match kind {
            GoalKind::BlankFirst => (0..n as u8).collect(),
            GoalKind::BlankLast => (1..n as u8).chain([0]).collect(),
        };
        Board::new(width, height, tiles)
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Never: a board has at least 4 cells.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// Tiles in row-major order, 0 the blank.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The blank's cell.
    pub fn blank(&self) -> usize {
        self.tiles.iter().position(|&t| t == 0).expect("a board has a blank")
    }

    /// The cell of a tile.
    pub fn cell_of(&self, tile: u8) -> usize {
        self.tiles.iter().position(|&t| t == tile).expect("tile on the board")
    }

    /// The cell next to `cell` in `dir`, if on the board.
    pub fn neighbor(&self, cell: usize, dir: Dir) -> Option<usize> {
        neighbor(self.width, self.height, cell, dir)
    }

    /// Move the blank in `dir` (the tile there slides into the blank's cell); returns the
    /// tile that slid, or `None` at the edge.
    pub fn slide(&mut self, dir: Dir) -> Option<u8> {
        let b = self.blank();
        let q = self.neighbor(b, dir)?;
        let t = self.tiles[q];
        self.tiles[b] = t;
        self.tiles[q] = 0;
        Some(t)
    }

    /// Play moves, all or nothing; an error names the first move off the board.
    pub fn play(&mut self, moves: &[Dir]) -> Result<(), PuzzleError> {
        let mut b = self.clone();
        for (i, &d) in moves.iter().enumerate() {
            if b.slide(d).is_none() {
                return err(format!(
                    "move {} ('{}') would take the blank off the board",
                    i + 1,
                    d.letter()
                ));
            }
        }
        *self = b;
        Ok(())
    }

    /// The blank's moves that slide the tile on `cell` towards the blank, together with the
    /// tiles between them (the cell must be in the blank's row or column); empty otherwise.
    pub fn moves_to(&self, cell: usize) -> Vec<Dir> {
        let b = self.blank();
        let w = self.width;
        let (br, bc, cr, cc) = (b / w, b % w, cell / w, cell % w);
        if cell >= self.len() || cell == b {
            return Vec::new();
        }
        if cr == br {
            let d = if cc > bc { Dir::Right } else { Dir::Left };
            vec![d; cc.abs_diff(bc)]
        } else if cc == bc {
            let d = if cr > br { Dir::Down } else { Dir::Up };
            vec![d; cr.abs_diff(br)]
        } else {
            Vec::new()
        }
    }

    /// True when the goal can be reached from here: the permutation taking this board to
    /// the goal (blank included) has the parity of the blank's taxicab distance to its goal
    /// cell. (For an odd width this is the parity of the tiles' inversions; for an even
    /// width, of the inversions plus the blank's row.)
    pub fn can_reach(&self, goal: &Board) -> bool {
        if self.width != goal.width || self.height != goal.height {
            return false;
        }
        let n = self.len();
        let mut goal_cell = [0usize; MAX_CELLS];
        for (c, &t) in goal.tiles.iter().enumerate() {
            goal_cell[t as usize] = c;
        }
        // Parity of the cell permutation: n minus the number of cycles.
        let mut seen = [false; MAX_CELLS];
        let mut cycles = 0;
        for start in 0..n {
            if seen[start] {
                continue;
            }
            cycles += 1;
            let mut c = start;
            while !seen[c] {
                seen[c] = true;
                c = goal_cell[self.tiles[c] as usize];
            }
        }
        let perm_odd = (n - cycles) % 2 == 1;
        let (b, g) = (self.blank(), goal.blank());
        let w = self.width;
        let dist = (b / w).abs_diff(g / w) + (b % w).abs_diff(g % w);
        perm_odd == (dist % 2 == 1)
    }

    /// The tiles as numbers separated by spaces.
    pub fn to_text(&self) -> String {
        let v: Vec<String> = self.tiles.iter().map(|t| t.to_string()).collect();
        v.join(" ")
    }

    /// The tiles as rows of right-aligned numbers.
    pub fn picture(&self) -> String {
        let mut s = String::new();
        for row in self.tiles.chunks(self.width) {
            let cells: Vec<String> = row
                .iter()
                .map(|&t| if t == 0 { " .".to_string() } else { format!("{t:>2}") })
                .collect();
            s.push_str(&cells.join(" "));
            s.push('\n');
        }
        s
    }

    /// Manhattan distance of the tiles to their goal cells.
    pub fn manhattan(&self, goal: &Board) -> u32 {
        let w = self.width;
        let mut goal_cell = [0usize; MAX_CELLS];
        for (c, &t) in goal.tiles.iter().enumerate() {
            goal_cell[t as usize] = c;
        }
        let mut sum = 0;
        for (c, &t) in self.tiles.iter().enumerate() {
            if t != 0 {
                let g = goal_cell[t as usize];
                sum += ((c / w).abs_diff(g / w) + (c % w).abs_diff(g % w)) as u32;
            }
        }
        sum
    }

    /// A position drawn uniformly from those that reach `goal`.
    pub fn random(goal: &Board, rng: &mut Rng) -> Board {
        let mut tiles = goal.tiles.clone();
        for i in (1..tiles.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            tiles.swap(i, j);
        }
        let mut b = Board { width: goal.width, height: goal.height, tiles };
        if !b.can_reach(goal) {
            // Swapping two tiles (not the blank) flips the parity.
            let (x, y) = {
                let mut it = (0..b.len()).filter(|&c| b.tiles[c] != 0);
                (it.next().unwrap(), it.next().unwrap())
            };
            b.tiles.swap(x, y);
        }
        b
    }

    /// The position after `moves` random moves of the blank from `goal`, never undoing the
    /// move before (it may still end nearer the goal than `moves`).
    pub fn random_walk(goal: &Board, moves: usize, rng: &mut Rng) -> Board {
        let mut b = goal.clone();
        let mut last: Option<Dir> = None;
        for _ in 0..moves {
            let blank = b.blank();
            let options: Vec<Dir> = Dir::ALL
                .into_iter()
                .filter(|&d| Some(d.opposite()) != last && b.neighbor(blank, d).is_some())
                .collect();
            let d = options[rng.below(options.len() as u64) as usize];
            b.slide(d);
            last = Some(d);
        }
        b
    }
}

/// The cell next to `cell` in `dir` on a `w` x `h` board.
pub fn neighbor(w: usize, h: usize, cell: usize, dir: Dir) -> Option<usize> {
    let (r, c) = (cell / w, cell % w);
    match dir {
        Dir::Up if r > 0 => Some(cell - w),
        Dir::Down if r + 1 < h => Some(cell + w),
        Dir::Left if c > 0 => Some(cell - 1),
        Dir::Right if c + 1 < w => Some(cell + 1),
        _ => None,
    }
}

/// A small deterministic random number generator (SplitMix64): scrambles and tests.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        // Rejection keeps it uniform.
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let v = self.next_u64();
            if v < zone {
                return v % n;
            }
        }
    }
}

/// A position being played: the board, its start, and the history of moves with undo and
/// redo. Moves made between [`Game::begin_group`] and [`Game::end_group`] (a click that
/// slides several tiles) are undone and redone together.
#[derive(Clone, Debug)]
pub struct Game {
    start: Board,
    goal: Board,
    board: Board,
    done: Vec<Vec<Dir>>,
    undone: Vec<Vec<Dir>>,
    grouping: bool,
    group_open: bool,
}

impl Game {
    pub fn new(start: Board, goal: Board) -> Result<Game, PuzzleError> {
        if start.width != goal.width || start.height != goal.height {
            return err("the goal is not the size of the board");
        }
        Ok(Game {
            board: start.clone(),
            start,
            goal,
            done: Vec::new(),
            undone: Vec::new(),
            grouping: false,
            group_open: false,
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn start(&self) -> &Board {
        &self.start
    }

    pub fn goal(&self) -> &Board {
        &self.goal
    }

    pub fn is_solved(&self) -> bool {
        self.board == self.goal
    }

    /// Whether the goal can be reached from the current position.
    pub fn solvable(&self) -> bool {
        self.board.can_reach(&self.goal)
    }

    /// Moves made since the start (what undo can take back).
    pub fn moves(&self) -> usize {
        self.done.iter().map(Vec::len).sum()
    }

    /// The moves from the start to here.
    pub fn line(&self) -> Vec<Dir> {
        self.done.iter().flatten().copied().collect()
    }

    /// The moves redo would make, in order.
    pub fn redo_moves(&self) -> Vec<Dir> {
        self.undone.iter().rev().flatten().copied().collect()
    }

    pub fn can_undo(&self) -> bool {
        !self.done.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// Start a group of moves undone together.
    pub fn begin_group(&mut self) {
        self.grouping = true;
        self.group_open = false;
    }

    pub fn end_group(&mut self) {
        self.grouping = false;
        self.group_open = false;
    }

    /// Move the blank; returns the tile that slid, or `None` at the edge. Clears redo.
    pub fn step(&mut self, dir: Dir) -> Option<u8> {
        let t = self.board.slide(dir)?;
        self.undone.clear();
        if self.grouping && self.group_open {
            self.done.last_mut().expect("open group").push(dir);
        } else {
            self.done.push(vec![dir]);
            self.group_open = self.grouping;
        }
        Some(t)
    }

    /// Play moves as one group, all or nothing.
    pub fn play(&mut self, moves: &[Dir]) -> Result<(), PuzzleError> {
        let mut b = self.board.clone();
        b.play(moves)?;
        if !moves.is_empty() {
            self.board = b;
            self.undone.clear();
            self.done.push(moves.to_vec());
        }
        self.group_open = false;
        Ok(())
    }

    /// Take back the last move or group; false when there is none.
    pub fn undo(&mut self) -> bool {
        self.group_open = false;
        let Some(g) = self.done.pop() else { return false };
        for d in g.iter().rev() {
            self.board.slide(d.opposite()).expect("undo of a legal move");
        }
        self.undone.push(g);
        true
    }

    /// Make again the last move or group undone; false when there is none.
    pub fn redo(&mut self) -> bool {
        self.group_open = false;
        let Some(g) = self.undone.pop() else { return false };
        for &d in &g {
            self.board.slide(d).expect("redo of a legal move");
        }
        self.done.push(g);
        true
    }

    /// Undo everything; returns the moves undone.
    pub fn undo_all(&mut self) -> usize {
        let n = self.moves();
        while self.undo() {}
        n
    }

    /// Redo everything; returns how many moves.
    pub fn redo_all(&mut self) -> usize {
        let mut n = 0;
        while let Some(g) = self.undone.last() {
            n += g.len();
            self.redo();
        }
        n
    }
}
