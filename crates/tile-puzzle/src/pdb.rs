//! Additive pattern databases (Korf and Felner, 2002). The tiles are split into disjoint
//! groups by their goal cells; a group's table holds, for every placement of its tiles, the
//! fewest moves *of those tiles* that bring them to their goal cells, the other tiles
//! being indistinguishable and the blank moving among them for free. A move moves one tile,
//! so the tables' values add up to a lower bound on the moves (admissible and consistent).
//!
//! A table is indexed by the cells of its tiles in slot order, `sum(cell[i] * n^i)` for a
//! board of `n` cells (a sparse index: some entries are never used, but the index of a
//! child differs from its parent's by one multiply-add, which the search's inner loop
//! needs), and holds 4 bits per entry: half the value's excess over the group's Manhattan
//! distance (8 MiB for six tiles of the 15-puzzle). It is built by a breadth-first search over (placement, region of the blank) in
//! layers of cost: the blank's region (the cells it reaches without moving a group tile) is
//! flood-filled with bit masks, and each group tile next to the region may step into it at
//! cost 1. The build runs for a budget of steps and resumes, so a worker can report it and
//! cancel it. Built tables are kept in a [`DbCache`] and shared between searches.

use std::sync::{Arc, Mutex};

use crate::astar::Astar;
use crate::board::{neighbor, Dir, MAX_CELLS};

const UNSEEN: u8 = u8::MAX;

/// The largest table the solver builds, in entries (half as many bytes).
pub const MAX_TABLE_ENTRIES: u64 = 1 << 24;

/// One group's table. A value is never below the group's own Manhattan distance and has
/// its parity (each move of a group tile changes that distance by one), so the table keeps
/// only (value - distance) / 2, in 4 bits: half the memory of a byte per entry, for one
/// more add in the search (which keeps each group's distance up to date anyway).
pub struct PatternDb {
    pub width: usize,
    pub height: usize,
    /// Goal cells of the group's tiles, in slot order.
    pub cells: Vec<u8>,
    /// (fewest moves of the group's tiles - their Manhattan distance) / 2, by the sparse
    /// index of their cells: entry `i` in the low (even `i`) or high nibble of byte `i / 2`.
    pub excess: Vec<u8>,
    /// How long the build took (ms), as measured by the caller's clock.
    pub build_ms: f64,
    /// Placements (of `n! / (n-k)!`) the build reached.
    pub placements: u64,
    /// The largest value in the table.
    pub max_value: u8,
}

impl PatternDb {
    /// Bytes the table takes.
    pub fn bytes(&self) -> usize {
        self.excess.len()
    }

    /// (value - distance) / 2 at a sparse index.
    #[inline]
    pub fn half_excess(&self, idx: usize) -> u8 {
        (self.excess[idx / 2] >> ((idx & 1) * 4)) & 15
    }

    /// The value for the group's tiles on `cells` (slot order).
    pub fn value(&self, cells: &[u8]) -> u8 {
        let n = (self.width * self.height) as u32;
        let idx = cells.iter().rev().fold(0u32, |a, &c| a * n + c as u32);
        let md: usize =
            cells.iter().zip(&self.cells).map(|(&c, &g)| distance(self.width, c, g)).sum();
        md as u8 + 2 * self.half_excess(idx as usize)
    }
}

/// Taxicab distance of two cells on a board `w` wide.
fn distance(w: usize, a: u8, b: u8) -> usize {
    let (a, b) = (a as usize, b as usize);
    (a / w).abs_diff(b / w) + (a % w).abs_diff(b % w)
}

/// Pack a byte table (UNSEEN for placements that do not exist) into half excesses over
/// the group's Manhattan distance, walking the index like an odometer.
fn pack(w: usize, n: usize, cells: &[u8], table: &[u8]) -> Vec<u8> {
    let k = cells.len();
    let dist: Vec<i32> =
        (0..k).flat_map(|i| (0..n).map(move |c| distance(w, c as u8, cells[i]) as i32)).collect();
    let d = |c: usize, i: usize| dist[i * n + c];
    let mut digits = [0usize; 8];
    let mut md: i32 = (0..k).map(|i| d(0, i)).sum();
    let mut out = vec![0u8; table.len().div_ceil(2)];
    for (idx, &v) in table.iter().enumerate() {
        if v != UNSEEN {
            let ex = v as i32 - md;
            assert!(ex >= 0 && ex % 2 == 0 && ex / 2 < 16, "value {v} against distance {md}");
            out[idx / 2] |= ((ex / 2) as u8) << ((idx & 1) * 4);
        }
        for i in 0..k {
            let old = digits[i];
            if old + 1 < n {
                digits[i] = old + 1;
                md += d(old + 1, i) - d(old, i);
                break;
            }
            digits[i] = 0;
            md += d(0, i) - d(n - 1, i);
        }
    }
    out
}

/// Entries of a table for `k` tiles on `n` cells (sparse index).
pub fn table_entries(n: usize, k: usize) -> u64 {
    (n as u64).pow(k as u32)
}

/// Placements of `k` distinct tiles on `n` cells: `n! / (n-k)!`.
pub fn placements(n: usize, k: usize) -> u64 {
    (0..k as u64).map(|i| n as u64 - i).product()
}

/// The groups (goal cells) for a `w` x `h` board whose goal has the blank on
/// `blank_cell`. The 15-puzzle with the blank in a corner (flipped to cell 0) gets the
/// 6-6-3 partition below; the 24-puzzle 5-5-5-5-4; other boards groups of up to six tiles
/// in 2-row bands, column by column.
pub fn partition(w: usize, h: usize, blank_cell: usize) -> Vec<Vec<u8>> {
    if blank_cell == 0 && w == 4 && h == 4 {
        //  .  1  2  3     C C C     (blank's goal top left)
        //  4  5  6  7   A A B B
        //  8  9 10 11   A A B B
        // 12 13 14 15   A A B B
        return vec![vec![4, 5, 8, 9, 12, 13], vec![6, 7, 10, 11, 14, 15], vec![1, 2, 3]];
    }
    if blank_cell == 0 && w == 5 && h == 5 {
        //  .  1  2  3  4     . A A B B
        //  5  6  7  8  9     A A A B B
        // 10 11 12 13 14     C C D D B
        // 15 16 17 18 19     C C D D D
        // 20 21 22 23 24     C E E E E
        return vec![
            vec![1, 2, 5, 6, 7],
            vec![3, 4, 8, 9, 14],
            vec![10, 11, 15, 16, 20],
            vec![12, 13, 17, 18, 19],
            vec![21, 22, 23, 24],
        ];
    }
    let n = w * h;
    let k = group_size(n);
    let mut order = Vec::with_capacity(n);
    let mut r0 = 0;
    while r0 < h {
        let rows = if h - r0 == 3 || h - r0 == 1 { 1 } else { 2 };
        let rows = rows.min(h - r0);
        for c in 0..w {
            for r in r0..r0 + rows {
                order.push((r * w + c) as u8);
            }
        }
        r0 += rows;
    }
    order.retain(|&c| c as usize != blank_cell);
    order.chunks(k).map(|c| c.to_vec()).collect()
}

/// Tiles per group on a board of `n` cells: the most (up to 6) whose table fits
/// [`MAX_TABLE_ENTRIES`].
pub fn group_size(n: usize) -> usize {
    (1..=6).rev().find(|&k| table_entries(n, k) <= MAX_TABLE_ENTRIES).unwrap_or(1)
}

/// A word holding one bit per cell (`u16` up to 16 cells, `u32` up to 25).
pub trait CellMask: Copy + Default + Eq {
    fn from_u32(v: u32) -> Self;
    fn to_u32(self) -> u32;
}

impl CellMask for u16 {
    #[inline]
    fn from_u32(v: u32) -> u16 {
        v as u16
    }
    #[inline]
    fn to_u32(self) -> u32 {
        self as u32
    }
}

impl CellMask for u32 {
    #[inline]
    fn from_u32(v: u32) -> u32 {
        v
    }
    #[inline]
    fn to_u32(self) -> u32 {
        self
    }
}

/// The breadth-first search behind [`PdbBuilder`], by layers of cost. Instead of a queue,
/// each layer is a sweep over all placements in index order: `cur[idx]` holds the blank
/// cells of states found at this cost, `next[idx]` those found at the next, `done[idx]` the
/// cells of the regions already handled. A child's index differs from its parent's by
/// `(q - p) * n^slot`, so as the sweep goes up the indexes, the children's entries are
/// read and written in a few dozen ascending streams the processor prefetches, instead
/// of at random (a queue-based version spent most of its 7.5 s on those misses).
struct Sweep<M: CellMask> {
    w: usize,
    n: usize,
    /// log2(n) when n is a power of two (the 15-puzzle: digits by shifts), else 0.
    shift: u32,
    k: usize,
    mult: Vec<u32>,
    all: u32,
    not_first_col: u32,
    not_last_col: u32,
    /// Per cell, the cells next to it (mask).
    around: Vec<u32>,
    done: Vec<M>,
    cur: Vec<M>,
    next: Vec<M>,
    table: Vec<u8>,
    at: usize,
    depth: u8,
    found_next: bool,
    reached: u64,
    max_value: u8,
}

impl<M: CellMask> Sweep<M> {
    fn new(w: usize, h: usize, cells: &[u8]) -> Sweep<M> {
        let n = w * h;
        let k = cells.len();
        let entries = table_entries(n, k) as usize;
        let all = (1u32 << n) - 1;
        let (mut first, mut last) = (0u32, 0u32);
        for r in 0..h {
            first |= 1 << (r * w);
            last |= 1 << (r * w + w - 1);
        }
        let around = (0..n)
            .map(|c| {
                Dir::ALL.iter().filter_map(|&d| neighbor(w, h, c, d)).fold(0, |a, q| a | 1 << q)
            })
            .collect();
        let mut s = Sweep {
            w,
            n,
            shift: if n.is_power_of_two() { n.trailing_zeros() } else { 0 },
            k,
            mult: (0..k).map(|i| (n as u32).pow(i as u32)).collect(),
            all,
            not_first_col: all & !first,
            not_last_col: all & !last,
            around,
            done: vec![M::default(); entries],
            cur: vec![M::default(); entries],
            next: vec![M::default(); entries],
            table: vec![UNSEEN; entries],
            at: 0,
            depth: 0,
            found_next: false,
            reached: 0,
            max_value: 0,
        };
        // The goal: the group's tiles on their goal cells, the blank anywhere else.
        let idx: u32 = cells.iter().zip(&s.mult).map(|(&c, &m)| c as u32 * m).sum();
        let occupied: u32 = cells.iter().fold(0, |a, &c| a | 1 << c);
        s.cur[idx as usize] = M::from_u32(all & !occupied);
        s
    }

    /// The cells the blank reaches from `seed` through `free` cells.
    #[inline]
    fn flood(&self, seed: u32, free: u32) -> u32 {
        let mut r = seed;
        loop {
            let grown = (r
                | ((r << 1) & self.not_first_col)
                | ((r >> 1) & self.not_last_col)
                | (r << self.w)
                | (r >> self.w))
                & free;
            if grown == r {
                return r;
            }
            r = grown;
        }
    }

    /// Expand the states of placement `idx` in this layer.
    #[inline]
    fn expand(&mut self, idx: usize, mut todo: u32) {
        let mut pos = [0u8; 8];
        let mut occupied = 0u32;
        if self.shift != 0 {
            let mask = self.n - 1;
            for (i, p) in pos.iter_mut().enumerate().take(self.k) {
                *p = ((idx >> (self.shift as usize * i)) & mask) as u8;
                occupied |= 1 << *p;
            }
        } else {
            let mut rest = idx;
            for p in pos.iter_mut().take(self.k) {
                *p = (rest % self.n) as u8;
                rest /= self.n;
                occupied |= 1 << *p;
            }
        }
        let free = self.all & !occupied;
        todo &= free;
        let mut done = self.done[idx].to_u32();
        while todo != 0 {
            let region = self.flood(todo & todo.wrapping_neg(), free);
            todo &= !region;
            done |= region;
            if self.table[idx] == UNSEEN {
                self.table[idx] = self.depth;
                self.max_value = self.depth;
                self.reached += 1;
            }
            // A group tile next to the region steps into it; the blank takes its cell.
            for i in 0..self.k {
                let p = pos[i] as usize;
                let mut into = self.around[p] & region;
                while into != 0 {
                    let q = into.trailing_zeros() as usize;
                    into &= into - 1;
                    let m = self.mult[i] as usize;
                    let child = idx + q * m - p * m;
                    let e = &mut self.next[child];
                    *e = M::from_u32(e.to_u32() | 1 << p);
                    self.found_next = true;
                }
            }
        }
        self.done[idx] = M::from_u32(done);
    }

    /// Sweep up to `budget` placements; true when the table is complete.
    fn run(&mut self, mut budget: u64) -> bool {
        loop {
            if self.at >= self.cur.len() {
                if !self.found_next {
                    return true;
                }
                std::mem::swap(&mut self.cur, &mut self.next);
                self.at = 0;
                self.depth += 1;
                self.found_next = false;
            }
            if budget == 0 {
                return false;
            }
            let end = self.cur.len().min(self.at + 4096);
            let mut block = self.at;
            while block < end {
                let block_end = (block + 32).min(end);
                // Most entries are empty in most layers: skip them 32 at a time.
                if self.cur[block..block_end].iter().fold(0, |a, &x| a | x.to_u32()) == 0 {
                    block = block_end;
                    continue;
                }
                for idx in block..block_end {
                    let m = self.cur[idx].to_u32();
                    if m == 0 {
                        continue;
                    }
                    // Clearing as we go leaves `cur` empty for its turn as `next`.
                    self.cur[idx] = M::default();
                    let todo = m & !self.done[idx].to_u32();
                    if todo != 0 {
                        self.expand(idx, todo);
                    }
                }
                block = block_end;
            }
            budget = budget.saturating_sub((end - self.at) as u64);
            self.at = end;
        }
    }
}

enum SweepAny {
    Small(Sweep<u16>),
    Large(Sweep<u32>),
}

/// A table being built, resumable: [`PdbBuilder::run`] sweeps a budget of placements.
pub struct PdbBuilder {
    w: usize,
    h: usize,
    cells: Vec<u8>,
    sweep: SweepAny,
    /// Placements in all (`n! / (n-k)!`).
    pub total: u64,
    started_ms: Option<f64>,
}

impl PdbBuilder {
    /// Start building the table of the tiles whose goal cells are `cells` on a `w` x `h`
    /// board.
    pub fn new(w: usize, h: usize, cells: &[u8]) -> PdbBuilder {
        let n = w * h;
        let k = cells.len();
        assert!(n <= MAX_CELLS && (1..=8).contains(&k) && table_entries(n, k) <= MAX_TABLE_ENTRIES);
        let sweep = if n <= 16 {
            SweepAny::Small(Sweep::new(w, h, cells))
        } else {
            SweepAny::Large(Sweep::new(w, h, cells))
        };
        PdbBuilder { w, h, cells: cells.to_vec(), sweep, total: placements(n, k), started_ms: None }
    }

    /// Placements given a value so far.
    pub fn reached(&self) -> u64 {
        match &self.sweep {
            SweepAny::Small(s) => s.reached,
            SweepAny::Large(s) => s.reached,
        }
    }

    /// Fraction done, by placements reached.
    pub fn fraction(&self) -> f64 {
        self.reached() as f64 / self.total as f64
    }

    /// Note when the build started (for [`PatternDb::build_ms`]).
    pub fn started(&mut self, now_ms: f64) {
        self.started_ms.get_or_insert(now_ms);
    }

    /// Sweep up to `budget` placements; true when the table is complete.
    pub fn run(&mut self, budget: u64) -> bool {
        match &mut self.sweep {
            SweepAny::Small(s) => s.run(budget),
            SweepAny::Large(s) => s.run(budget),
        }
    }

    /// The finished table (call after [`PdbBuilder::run`] returned true).
    pub fn finish(self, now_ms: f64) -> PatternDb {
        let (table, placements, max_value) = match self.sweep {
            SweepAny::Small(s) => (s.table, s.reached, s.max_value),
            SweepAny::Large(s) => (s.table, s.reached, s.max_value),
        };
        let excess = pack(self.w, self.w * self.h, &self.cells, &table);
        PatternDb {
            width: self.w,
            height: self.h,
            cells: self.cells,
            excess,
            build_ms: self.started_ms.map_or(0.0, |t| now_ms - t),
            placements,
            max_value,
        }
    }
}

/// Tables built so far, shared between searches (a clone is another handle on the same
/// cache); also the A* search's tables of the last small board solved (a megabyte that
/// would otherwise be cleared for every 8-puzzle).
#[derive(Clone, Default)]
pub struct DbCache(Arc<Mutex<Vec<Arc<PatternDb>>>>, Arc<Mutex<Option<Box<Astar>>>>);

impl DbCache {
    pub fn new() -> DbCache {
        DbCache::default()
    }

    /// The table of this group on a `w` x `h` board, if built.
    pub fn get(&self, w: usize, h: usize, cells: &[u8]) -> Option<Arc<PatternDb>> {
        let v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        v.iter().find(|d| d.width == w && d.height == h && d.cells == cells).cloned()
    }

    pub fn insert(&self, db: Arc<PatternDb>) {
        let mut v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if !v.iter().any(|d| d.width == db.width && d.height == db.height && d.cells == db.cells) {
            v.push(db);
        }
    }

    /// Bytes held by the cached tables.
    pub fn bytes(&self) -> usize {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).iter().map(|d| d.bytes()).sum()
    }

    /// Tables held.
    pub fn len(&self) -> usize {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drop every table.
    pub fn clear(&self) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clear();
        *self.1.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// A* tables for this board and goal: the kept ones if they fit, else new ones.
    pub fn take_astar(&self, w: usize, h: usize, goal: &[u8]) -> Box<Astar> {
        let mut slot = self.1.lock().unwrap_or_else(|e| e.into_inner());
        match slot.take() {
            Some(a) if a.fits(w, h, goal) => a,
            _ => Box::new(Astar::new(w, h, goal)),
        }
    }

    /// Keep A* tables for the next search.
    pub fn keep_astar(&self, a: Box<Astar>) {
        *self.1.lock().unwrap_or_else(|e| e.into_inner()) = Some(a);
    }
}
