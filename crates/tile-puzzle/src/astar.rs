//! A* with the Manhattan distance for boards of at most 9 cells (the 8-puzzle and
//! smaller): exact, since the Manhattan distance is consistent, and quick (an 8-puzzle has
//! 181,440 positions that reach a goal). Positions are packed 4 bits per cell into a
//! `u64` and numbered by their Lehmer code, so the search's tables are flat arrays kept
//! between solves. The open list is a bucket queue by f, last in first out within a bucket
//! (deeper nodes first). Runs for a budget of expansions and resumes.

use crate::board::{neighbor, Dir};

/// Most cells A* takes.
pub const MAX_ASTAR_CELLS: usize = 9;

const NONE: u8 = u8::MAX;
const STATE_MASK: u64 = (1 << 36) - 1;

/// What a call of [`Astar::run`] ended with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AstarEvent {
    /// The budget ran out; call again.
    Budget,
    /// The blank's moves of an optimal solution.
    Solved(Vec<Dir>),
    /// Every position reachable was expanded (the goal is not among them).
    Unsolvable,
}

/// The search, with tables reusable for another position of the same size and goal.
pub struct Astar {
    w: usize,
    h: usize,
    n: usize,
    goal_tiles: Vec<u8>,
    nbr: Vec<[u8; 4]>,
    /// md[tile * n + cell]: distance of `tile` on `cell` to its goal cell.
    md: Vec<u8>,
    fact: [u32; 10],
    goal: u64,
    start: u64,
    start_blank: u8,
    /// Best g found per position (by rank); NONE when not seen.
    g: Vec<u8>,
    /// The direction the blank moved to reach the position by its best path.
    how: Vec<u8>,
    closed: Vec<bool>,
    touched: Vec<u32>,
    buckets: Vec<Vec<u64>>,
    f: usize,
    /// Positions expanded.
    pub expanded: u64,
    /// Positions generated (children put on the open list).
    pub generated: u64,
    root_h: u32,
}

fn pack(tiles: &[u8]) -> u64 {
    tiles.iter().enumerate().fold(0, |s, (i, &t)| s | (t as u64) << (4 * i))
}

impl Astar {
    /// Tables for a `w` x `h` board (at most 9 cells) and its goal.
    pub fn new(w: usize, h: usize, goal: &[u8]) -> Astar {
        let n = w * h;
        assert!(n <= MAX_ASTAR_CELLS, "A* takes boards of at most 9 cells");
        let nbr = (0..n)
            .map(|c| {
                let mut a = [NONE; 4];
                for d in Dir::ALL {
                    if let Some(q) = neighbor(w, h, c, d) {
                        a[d.index()] = q as u8;
                    }
                }
                a
            })
            .collect();
        let mut md = vec![0u8; n * n];
        for (gc, &t) in goal.iter().enumerate() {
            if t == 0 {
                continue;
            }
            for c in 0..n {
                md[t as usize * n + c] =
                    ((c / w).abs_diff(gc / w) + (c % w).abs_diff(gc % w)) as u8;
            }
        }
        let mut fact = [1u32; 10];
        for i in 1..10 {
            fact[i] = fact[i - 1] * i as u32;
        }
        let size = fact[n] as usize;
        Astar {
            w,
            h,
            n,
            goal_tiles: goal.to_vec(),
            nbr,
            md,
            fact,
            goal: pack(goal),
            start: 0,
            start_blank: 0,
            g: vec![NONE; size],
            how: vec![NONE; size],
            closed: vec![false; size],
            touched: Vec::new(),
            buckets: Vec::new(),
            f: 0,
            expanded: 0,
            generated: 0,
            root_h: 0,
        }
    }

    /// Whether these tables serve a `w` x `h` board with this goal.
    pub fn fits(&self, w: usize, h: usize, goal: &[u8]) -> bool {
        self.w == w && self.h == h && self.goal_tiles == goal
    }

    fn rank(&self, s: u64) -> usize {
        let mut used = 0u32;
        let mut r = 0u32;
        for i in 0..self.n {
            let t = ((s >> (4 * i)) & 15) as u32;
            let less = (used & ((1 << t) - 1)).count_ones();
            r += (t - less) * self.fact[self.n - 1 - i];
            used |= 1 << t;
        }
        r as usize
    }

    fn h(&self, s: u64) -> u32 {
        (0..self.n)
            .map(|c| {
                let t = ((s >> (4 * c)) & 15) as usize;
                if t == 0 {
                    0
                } else {
                    self.md[t * self.n + c] as u32
                }
            })
            .sum()
    }

    /// Start a search from `tiles` (clears what the last search left).
    pub fn start(&mut self, tiles: &[u8]) {
        for &r in &self.touched {
            self.g[r as usize] = NONE;
            self.how[r as usize] = NONE;
            self.closed[r as usize] = false;
        }
        self.touched.clear();
        for b in &mut self.buckets {
            b.clear();
        }
        self.expanded = 0;
        self.generated = 0;
        let s = pack(tiles);
        let blank = tiles.iter().position(|&t| t == 0).expect("blank") as u8;
        self.start = s;
        self.start_blank = blank;
        let h = self.h(s);
        self.root_h = h;
        let r = self.rank(s);
        self.g[r] = 0;
        self.touched.push(r as u32);
        self.push(h as usize, s | (blank as u64) << 48);
        self.f = h as usize;
    }

    fn push(&mut self, f: usize, entry: u64) {
        if self.buckets.len() <= f {
            self.buckets.resize_with(f + 1, Vec::new);
        }
        self.buckets[f].push(entry);
    }

    /// The lower bound proven so far: the f of the positions being expanded.
    pub fn bound(&self) -> u32 {
        self.f as u32
    }

    /// Heuristic value of the start.
    pub fn root_h(&self) -> u32 {
        self.root_h
    }

    /// Expand up to `budget` positions.
    pub fn run(&mut self, mut budget: u64) -> AstarEvent {
        while budget > 0 {
            while self.f < self.buckets.len() && self.buckets[self.f].is_empty() {
                self.f += 1;
            }
            if self.f >= self.buckets.len() {
                return AstarEvent::Unsolvable;
            }
            let e = self.buckets[self.f].pop().expect("non-empty bucket");
            let s = e & STATE_MASK;
            let g = ((e >> 40) & 0xff) as u8;
            let blank = ((e >> 48) & 0x1f) as usize;
            let r = self.rank(s);
            if self.closed[r] || g > self.g[r] {
                continue;
            }
            self.closed[r] = true;
            self.expanded += 1;
            budget -= 1;
            if s == self.goal {
                return AstarEvent::Solved(self.path(s, blank));
            }
            let h = self.f as u32 - g as u32;
            for d in 0..4 {
                let q = self.nbr[blank][d];
                if q == NONE {
                    continue;
                }
                let q = q as usize;
                let t = (s >> (4 * q)) & 15;
                let s2 = (s & !(15 << (4 * q))) | t << (4 * blank);
                let ti = t as usize * self.n;
                let h2 = h + self.md[ti + blank] as u32 - self.md[ti + q] as u32;
                let g2 = g + 1;
                let r2 = self.rank(s2);
                if self.closed[r2] || g2 >= self.g[r2] {
                    continue;
                }
                if self.g[r2] == NONE {
                    self.touched.push(r2 as u32);
                }
                self.g[r2] = g2;
                self.how[r2] = d as u8;
                self.generated += 1;
                self.push((g2 as u32 + h2) as usize, s2 | (g2 as u64) << 40 | (q as u64) << 48);
            }
        }
        AstarEvent::Budget
    }

    /// Walk back from the goal along `how` to the start.
    fn path(&self, mut s: u64, mut blank: usize) -> Vec<Dir> {
        let mut out = Vec::new();
        while s != self.start {
            let d = self.how[self.rank(s)] as usize;
            // The blank came from the cell on the opposite side.
            let from = self.nbr[blank][(d + 2) & 3] as usize;
            let t = (s >> (4 * from)) & 15;
            s = (s & !(15 << (4 * from))) | t << (4 * blank);
            blank = from;
            out.push(Dir::from_index(d));
        }
        out.reverse();
        out
    }
}
