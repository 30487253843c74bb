//! IDA* over the blank's moves with an explicit stack, run for a budget of nodes and
//! resumed (so a worker can report and cancel between slices). The board is a byte per
//! cell; a frame is a few bytes; nothing is allocated per node. The heuristic is updated
//! incrementally when a tile slides ([`Heuristic::slide`]) and put back on the way up
//! ([`Heuristic::unslide`]), with what it needs to put back kept in the frame.
//!
//! Heuristics: [`Manhattan`], [`LinearConflict`] (Manhattan plus two moves per tile that
//! must leave its goal row or column to let others pass), and [`Pdb`] (additive pattern
//! databases, with the maximum of the lookup of the position and of its mirror image across
//! the main diagonal where the goal is symmetric that way).

use std::sync::Arc;

use crate::board::{neighbor, Dir, MAX_CELLS};
use crate::pdb::PatternDb;

const NONE: u8 = u8::MAX;

/// A lower bound on the moves to the goal, updated as tiles slide.
pub trait Heuristic {
    /// What [`Heuristic::unslide`] needs to undo a slide.
    type Undo: Copy + Default;
    /// Set up for a position; returns its value.
    fn reset(&mut self, board: &[u8]) -> u32;
    /// `tile` slid from cell `from` to cell `to`; `board` is already the new position.
    /// Returns the new value.
    fn slide(&mut self, board: &[u8], tile: u8, from: u8, to: u8) -> (u32, Self::Undo);
    /// Undo [`Heuristic::slide`] (same `tile`, `from`, `to`); `board` is the old position
    /// again.
    fn unslide(&mut self, board: &[u8], tile: u8, from: u8, to: u8, undo: Self::Undo);
}

/// Per tile and cell: the tile's distance to its goal cell.
fn distance_table(w: usize, goal: &[u8]) -> Vec<u8> {
    let n = goal.len();
    let mut md = vec![0u8; n * n];
    for (gc, &t) in goal.iter().enumerate() {
        if t == 0 {
            continue;
        }
        for c in 0..n {
            md[t as usize * n + c] = ((c / w).abs_diff(gc / w) + (c % w).abs_diff(gc % w)) as u8;
        }
    }
    md
}

/// The Manhattan distance.
pub struct Manhattan {
    n: usize,
    md: Vec<u8>,
    h: u32,
}

impl Manhattan {
    pub fn new(w: usize, goal: &[u8]) -> Manhattan {
        Manhattan { n: goal.len(), md: distance_table(w, goal), h: 0 }
    }
}

impl Heuristic for Manhattan {
    type Undo = ();
    fn reset(&mut self, board: &[u8]) -> u32 {
        self.h = board
            .iter()
            .enumerate()
            .filter(|(_, &t)| t != 0)
            .map(|(c, &t)| self.md[t as usize * self.n + c] as u32)
            .sum();
        self.h
    }
    #[inline]
    fn slide(&mut self, _: &[u8], tile: u8, from: u8, to: u8) -> (u32, ()) {
        let row = tile as usize * self.n;
        self.h = self.h + self.md[row + to as usize] as u32 - self.md[row + from as usize] as u32;
        (self.h, ())
    }
    #[inline]
    fn unslide(&mut self, _: &[u8], tile: u8, from: u8, to: u8, _: ()) {
        let row = tile as usize * self.n;
        self.h = self.h + self.md[row + from as usize] as u32 - self.md[row + to as usize] as u32;
    }
}

/// Manhattan distance plus linear conflicts: in each row (column), the tiles whose goal is
/// in that row (column) and that are not in goal order must partly leave it: at least
/// (count - longest increasing run in goal order) of them, two extra moves each. Rows and
/// columns add up (leaving a row takes vertical moves, a column horizontal ones).
pub struct LinearConflict {
    w: usize,
    h: usize,
    md: Manhattan,
    goal_cell: [u8; MAX_CELLS],
    /// Conflict moves of each row (0..h) and column (h..h+w).
    line: [u8; 2 * crate::board::MAX_SIDE],
    extra: u32,
}

impl LinearConflict {
    pub fn new(w: usize, goal: &[u8]) -> LinearConflict {
        let mut goal_cell = [0u8; MAX_CELLS];
        for (c, &t) in goal.iter().enumerate() {
            goal_cell[t as usize] = c as u8;
        }
        LinearConflict {
            w,
            h: goal.len() / w,
            md: Manhattan::new(w, goal),
            goal_cell,
            line: [0; 2 * crate::board::MAX_SIDE],
            extra: 0,
        }
    }

    /// Conflict moves of row `r`.
    fn row(&self, board: &[u8], r: usize) -> u8 {
        let mut keys = [0u8; crate::board::MAX_SIDE];
        let mut k = 0;
        for c in 0..self.w {
            let t = board[r * self.w + c];
            if t != 0 && self.goal_cell[t as usize] as usize / self.w == r {
                keys[k] = self.goal_cell[t as usize] % self.w as u8;
                k += 1;
            }
        }
        2 * (k - lis(&keys[..k])) as u8
    }

    /// Conflict moves of column `c`.
    fn col(&self, board: &[u8], c: usize) -> u8 {
        let mut keys = [0u8; crate::board::MAX_SIDE];
        let mut k = 0;
        for r in 0..self.h {
            let t = board[r * self.w + c];
            if t != 0 && self.goal_cell[t as usize] as usize % self.w == c {
                keys[k] = self.goal_cell[t as usize] / self.w as u8;
                k += 1;
            }
        }
        2 * (k - lis(&keys[..k])) as u8
    }

    /// Recompute the lines a slide from `from` to `to` touches; returns the old values.
    fn update(&mut self, board: &[u8], from: u8, to: u8) -> [u8; 4] {
        let (w, h) = (self.w, self.h);
        let lines =
            [from as usize / w, to as usize / w, h + from as usize % w, h + to as usize % w];
        let mut old = [0u8; 4];
        for (i, &l) in lines.iter().enumerate() {
            old[i] = self.line[l];
        }
        for &l in &lines {
            let v = if l < h { self.row(board, l) } else { self.col(board, l - h) };
            self.extra = self.extra + v as u32 - self.line[l] as u32;
            self.line[l] = v;
        }
        old
    }
}

/// Length of the longest strictly increasing subsequence (at most 5 keys).
fn lis(keys: &[u8]) -> usize {
    let mut best = [0usize; crate::board::MAX_SIDE];
    let mut out = 0;
    for i in 0..keys.len() {
        best[i] = 1 + (0..i).filter(|&j| keys[j] < keys[i]).map(|j| best[j]).max().unwrap_or(0);
        out = out.max(best[i]);
    }
    out
}

impl Heuristic for LinearConflict {
    type Undo = [u8; 4];
    fn reset(&mut self, board: &[u8]) -> u32 {
        let m = self.md.reset(board);
        self.extra = 0;
        for r in 0..self.h {
            self.line[r] = self.row(board, r);
            self.extra += self.line[r] as u32;
        }
        for c in 0..self.w {
            self.line[self.h + c] = self.col(board, c);
            self.extra += self.line[self.h + c] as u32;
        }
        m + self.extra
    }
    fn slide(&mut self, board: &[u8], tile: u8, from: u8, to: u8) -> (u32, [u8; 4]) {
        let (m, ()) = self.md.slide(board, tile, from, to);
        let old = self.update(board, from, to);
        (m + self.extra, old)
    }
    fn unslide(&mut self, _: &[u8], tile: u8, from: u8, to: u8, old: [u8; 4]) {
        self.md.unslide(&[], tile, from, to, ());
        let (w, h) = (self.w, self.h);
        let lines =
            [from as usize / w, to as usize / w, h + from as usize % w, h + to as usize % w];
        // Put the old values back in reverse order (a line may appear twice).
        for i in (0..4).rev() {
            let l = lines[i];
            self.extra = self.extra + old[i] as u32 - self.line[l] as u32;
            self.line[l] = old[i];
        }
    }
}

/// The tables and how tiles map into them: the sum of the groups' values, and where the
/// goal is symmetric across the main diagonal, also the sum for the mirrored position; the
/// larger of the two.
pub struct Pdb {
    tables: Vec<Arc<PatternDb>>,
    /// The tables' bytes (kept alive by `tables`), for lookups without bounds checks: an
    /// index is a sum of cells below n times n^slot, always inside its table.
    raw: Vec<*const u8>,
    n: usize,
    /// Per tile and cell: the distance to the tile's goal cell.
    md: Vec<u8>,
    /// Each group's Manhattan distance, of the position and of its mirror image (the
    /// tables hold the values' excess over it).
    gmd: Vec<u32>,
    rgmd: Vec<u32>,
    /// Per tile: group, and n^slot.
    group: [u8; MAX_CELLS],
    mult: [u32; MAX_CELLS],
    /// Per tile of the position: the group and n^slot of its mirror tile (`None` without
    /// mirroring).
    mirror: Option<MirrorMap>,
    idx: Vec<u32>,
    val: Vec<u8>,
    sum: u32,
    ridx: Vec<u32>,
    rval: Vec<u8>,
    rsum: u32,
}

struct MirrorMap {
    group: [u8; MAX_CELLS],
    mult: [u32; MAX_CELLS],
    /// The mirror cell of each cell (across the main diagonal).
    cell: [u8; MAX_CELLS],
}

impl Pdb {
    /// Tables for the groups (in the same order as `tables`), for the `w` x `h` goal
    /// `goal`. `mirror` asks for the diagonal mirror lookup too; it is used only when the
    /// board is square and the blank's goal cell lies on the diagonal.
    pub fn new(w: usize, goal: &[u8], tables: Vec<Arc<PatternDb>>, mirror: bool) -> Pdb {
        let n = goal.len();
        let h = n / w;
        let mut goal_cell = [0u8; MAX_CELLS];
        let mut tile_at = [0u8; MAX_CELLS];
        for (c, &t) in goal.iter().enumerate() {
            goal_cell[t as usize] = c as u8;
            tile_at[c] = t;
        }
        let mut group = [NONE; MAX_CELLS];
        let mut mult = [0u32; MAX_CELLS];
        for (g, db) in tables.iter().enumerate() {
            for (slot, &c) in db.cells.iter().enumerate() {
                let t = tile_at[c as usize];
                group[t as usize] = g as u8;
                mult[t as usize] = (n as u32).pow(slot as u32);
            }
        }
        for t in 1..n {
            assert!(group[t] != NONE, "every tile belongs to a group");
        }
        let blank = goal_cell[0] as usize;
        let mirror = (mirror && w == h && blank / w == blank % w).then(|| {
            let mut cell = [0u8; MAX_CELLS];
            for c in 0..n {
                cell[c] = ((c % w) * w + c / w) as u8;
            }
            let mut mg = [NONE; MAX_CELLS];
            let mut mm = [0u32; MAX_CELLS];
            for t in 1..n {
                // The tile whose goal cell mirrors this tile's goal cell.
                let star = tile_at[cell[goal_cell[t] as usize] as usize] as usize;
                mg[t] = group[star];
                mm[t] = mult[star];
            }
            MirrorMap { group: mg, mult: mm, cell }
        });
        let _ = h;
        let g = tables.len();
        for t in &tables {
            let entries = crate::pdb::table_entries(n, t.cells.len());
            assert_eq!(t.excess.len() as u64, entries.div_ceil(2));
        }
        Pdb {
            raw: tables.iter().map(|t| t.excess.as_ptr()).collect(),
            tables,
            n,
            md: distance_table(w, goal),
            gmd: vec![0; g],
            rgmd: vec![0; g],
            group,
            mult,
            mirror,
            idx: vec![0; g],
            val: vec![0; g],
            sum: 0,
            ridx: vec![0; g],
            rval: vec![0; g],
            rsum: 0,
        }
    }

    /// Whether the mirror lookup is in use.
    pub fn mirrored(&self) -> bool {
        self.mirror.is_some()
    }
}

impl Pdb {
    /// Half the excess of group `g`'s value over its distance, at index `i`.
    #[inline(always)]
    fn lookup(&self, g: usize, i: u32) -> u8 {
        let byte = i as usize / 2;
        debug_assert!(byte < self.tables[g].excess.len());
        // SAFETY: `raw[g]` points to `tables[g].excess`, held by `self.tables` and never
        // changed; `i` is the sparse index of cells below n, below n^k, and the vector
        // has (n^k + 1) / 2 bytes.
        let b = unsafe { *self.raw[g].add(byte) };
        (b >> ((i & 1) * 4)) & 15
    }
}

impl Heuristic for Pdb {
    type Undo = (u8, u8);
    fn reset(&mut self, board: &[u8]) -> u32 {
        self.idx.iter_mut().for_each(|x| *x = 0);
        self.ridx.iter_mut().for_each(|x| *x = 0);
        self.gmd.iter_mut().for_each(|x| *x = 0);
        self.rgmd.iter_mut().for_each(|x| *x = 0);
        for (c, &t) in board.iter().enumerate() {
            if t == 0 {
                continue;
            }
            let t = t as usize;
            let d = self.md[t * self.n + c] as u32;
            self.idx[self.group[t] as usize] += c as u32 * self.mult[t];
            self.gmd[self.group[t] as usize] += d;
            if let Some(m) = &self.mirror {
                self.ridx[m.group[t] as usize] += m.cell[c] as u32 * m.mult[t];
                // Mirroring keeps distances.
                self.rgmd[m.group[t] as usize] += d;
            }
        }
        self.sum = 0;
        self.rsum = 0;
        for g in 0..self.tables.len() {
            self.val[g] = (self.gmd[g] + 2 * self.lookup(g, self.idx[g]) as u32) as u8;
            self.sum += self.val[g] as u32;
            if self.mirror.is_some() {
                self.rval[g] = (self.rgmd[g] + 2 * self.lookup(g, self.ridx[g]) as u32) as u8;
                self.rsum += self.rval[g] as u32;
            }
        }
        self.sum.max(self.rsum)
    }

    #[inline]
    fn slide(&mut self, _: &[u8], tile: u8, from: u8, to: u8) -> (u32, (u8, u8)) {
        let t = tile as usize;
        let row = t * self.n;
        let (dt, df) = (self.md[row + to as usize] as u32, self.md[row + from as usize] as u32);
        let g = self.group[t] as usize;
        let i = self.idx[g] + to as u32 * self.mult[t] - from as u32 * self.mult[t];
        self.idx[g] = i;
        let gmd = self.gmd[g] + dt - df;
        self.gmd[g] = gmd;
        let old = self.val[g];
        let v = (gmd + 2 * self.lookup(g, i) as u32) as u8;
        self.val[g] = v;
        self.sum = self.sum + v as u32 - old as u32;
        let mut rold = 0;
        if let Some(m) = &self.mirror {
            let rg = m.group[t] as usize;
            let (mt, mf) = (m.cell[to as usize] as u32, m.cell[from as usize] as u32);
            let ri = self.ridx[rg] + mt * m.mult[t] - mf * m.mult[t];
            self.ridx[rg] = ri;
            let rgmd = self.rgmd[rg] + dt - df;
            self.rgmd[rg] = rgmd;
            rold = self.rval[rg];
            let rv = (rgmd + 2 * self.lookup(rg, ri) as u32) as u8;
            self.rval[rg] = rv;
            self.rsum = self.rsum + rv as u32 - rold as u32;
        }
        (self.sum.max(self.rsum), (old, rold))
    }

    #[inline]
    fn unslide(&mut self, _: &[u8], tile: u8, from: u8, to: u8, (old, rold): (u8, u8)) {
        let t = tile as usize;
        let row = t * self.n;
        let (dt, df) = (self.md[row + to as usize] as u32, self.md[row + from as usize] as u32);
        let g = self.group[t] as usize;
        self.idx[g] = self.idx[g] + from as u32 * self.mult[t] - to as u32 * self.mult[t];
        self.gmd[g] = self.gmd[g] + df - dt;
        self.sum = self.sum + old as u32 - self.val[g] as u32;
        self.val[g] = old;
        if let Some(m) = &self.mirror {
            let rg = m.group[t] as usize;
            let (mt, mf) = (m.cell[to as usize] as u32, m.cell[from as usize] as u32);
            self.ridx[rg] = self.ridx[rg] + mf * m.mult[t] - mt * m.mult[t];
            self.rgmd[rg] = self.rgmd[rg] + df - dt;
            self.rsum = self.rsum + rold as u32 - self.rval[rg] as u32;
            self.rval[rg] = rold;
        }
    }
}

/// What a call of [`Ida::run`] ended with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IdaEvent {
    /// The node budget ran out; call again.
    Budget,
    /// An iteration ended without a solution; the next threshold is set.
    IterationDone,
    /// The blank's moves of an optimal solution.
    Solved(Vec<Dir>),
    /// No position within any threshold is the goal (never for a position whose parity
    /// reaches the goal).
    Unsolvable,
}

#[derive(Clone, Copy, Default)]
struct Frame<U: Copy + Default> {
    /// The blank's cell.
    blank: u8,
    /// The blank's cell before (the move back is not tried).
    back: u8,
    /// The next direction to try.
    next: u8,
    /// The direction the blank moved to get here.
    dir: u8,
    undo: U,
}

/// The search.
pub struct Ida<H: Heuristic> {
    heur: H,
    /// nbr[cell * 4 + dir]: the cell the blank moves to, or NONE.
    nbr: Vec<u8>,
    board: [u8; MAX_CELLS],
    start: [u8; MAX_CELLS],
    goal: [u8; MAX_CELLS],
    n: usize,
    stack: Vec<Frame<H::Undo>>,
    /// Threshold of the running iteration.
    pub bound: u32,
    next_bound: u32,
    /// Iterations started (1-based).
    pub iteration: u32,
    /// Nodes generated in all, and in this iteration.
    pub nodes: u64,
    pub nodes_iteration: u64,
    /// Nodes of the last iteration that ended.
    pub last_iteration_nodes: u64,
    /// Heuristic value of the start.
    pub root_h: u32,
}

impl<H: Heuristic> Ida<H> {
    /// A search from `start` to `goal` on a `w`-wide board.
    pub fn new(w: usize, start: &[u8], goal: &[u8], mut heur: H) -> Ida<H> {
        let n = start.len();
        let h = n / w;
        let mut nbr = vec![NONE; n * 4];
        for c in 0..n {
            for d in Dir::ALL {
                if let Some(q) = neighbor(w, h, c, d) {
                    nbr[c * 4 + d.index()] = q as u8;
                }
            }
        }
        let mut board = [0u8; MAX_CELLS];
        board[..n].copy_from_slice(start);
        let mut g = [0u8; MAX_CELLS];
        g[..n].copy_from_slice(goal);
        let root_h = heur.reset(&board[..n]);
        let blank = start.iter().position(|&t| t == 0).expect("blank") as u8;
        Ida {
            heur,
            nbr,
            board,
            start: board,
            goal: g,
            n,
            stack: vec![Frame { blank, back: NONE, next: 0, dir: NONE, undo: H::Undo::default() }],
            bound: root_h,
            next_bound: u32::MAX,
            iteration: 1,
            nodes: 0,
            nodes_iteration: 0,
            last_iteration_nodes: 0,
            root_h,
        }
    }

    /// The heuristic (to read what it reports).
    pub fn heuristic(&self) -> &H {
        &self.heur
    }

    fn solution(&self) -> Vec<Dir> {
        self.stack[1..].iter().map(|f| Dir::from_index(f.dir as usize)).collect()
    }

    /// Search up to `budget` more nodes.
    pub fn run(&mut self, mut budget: u64) -> IdaEvent {
        let n = self.n;
        if self.stack.len() == 1
            && self.stack[0].next == 0
            && self.root_h == 0
            && self.board[..n] == self.goal[..n]
        {
            return IdaEvent::Solved(Vec::new());
        }
        loop {
            if budget == 0 {
                return IdaEvent::Budget;
            }
            let depth = self.stack.len() - 1;
            let top = self.stack[depth];
            if top.next >= 4 {
                if depth == 0 {
                    if self.next_bound == u32::MAX {
                        return IdaEvent::Unsolvable;
                    }
                    self.bound = self.next_bound;
                    self.next_bound = u32::MAX;
                    self.iteration += 1;
                    self.last_iteration_nodes = self.nodes_iteration;
                    self.nodes_iteration = 0;
                    self.stack[0].next = 0;
                    return IdaEvent::IterationDone;
                }
                // Back up: the tile on the parent's blank cell slides back.
                self.stack.pop();
                let pb = top.back;
                let tile = self.board[pb as usize];
                self.board[top.blank as usize] = tile;
                self.board[pb as usize] = 0;
                self.heur.unslide(&self.board[..n], tile, top.blank, pb, top.undo);
                continue;
            }
            let d = top.next;
            self.stack[depth].next = d + 1;
            let q = self.nbr[top.blank as usize * 4 + d as usize];
            if q == NONE || q == top.back {
                continue;
            }
            budget -= 1;
            self.nodes += 1;
            self.nodes_iteration += 1;
            let tile = self.board[q as usize];
            self.board[top.blank as usize] = tile;
            self.board[q as usize] = 0;
            let (h, undo) = self.heur.slide(&self.board[..n], tile, q, top.blank);
            let f = depth as u32 + 1 + h;
            if f > self.bound {
                if f < self.next_bound {
                    self.next_bound = f;
                }
                self.board[q as usize] = tile;
                self.board[top.blank as usize] = 0;
                self.heur.unslide(&self.board[..n], tile, q, top.blank, undo);
                continue;
            }
            self.stack.push(Frame { blank: q, back: top.blank, next: 0, dir: d, undo });
            if h == 0 && self.board[..n] == self.goal[..n] {
                return IdaEvent::Solved(self.solution());
            }
        }
    }

    /// The start position (for checks).
    pub fn start(&self) -> &[u8] {
        &self.start[..self.n]
    }
}
