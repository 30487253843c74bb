//! Everything the search precomputes once per level: compact square indices, neighbour
//! tables, goals, push distances that respect where the player must stand, dead squares
//! and Zobrist keys.

use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use sokoban_core::{Board, Dir, Square};

use crate::analysis::bits::BitGrid;
use crate::work::{self, Op};

/// "No square" in compact tables.
pub const NONE: u16 = u16::MAX;
/// Distance of a box that cannot reach a goal.
pub const INF_DIST: u16 = u16::MAX;
/// Boards with more floor squares than this skip the per-square component table (it has
/// n² entries) and use push distances over all sides.
pub const MAX_COMP_SQUARES: usize = 4096;

/// The static problem: a board reduced to its floor squares, indexed `0..n`.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Number of floor squares.
    pub n: usize,
    /// Board square of each compact square.
    pub board_sq: Vec<Square>,
    /// Compact index of each board square (`NONE` off the floor).
    pub compact: Vec<u16>,
    /// Neighbour in each direction (`Dir` order), `NONE` where there is no floor.
    pub nbr: Vec<[u16; 4]>,
    /// True on goal squares.
    pub is_goal: Vec<bool>,
    /// (row + column) mod 2 of each square. A push moves one box by one square, so the
    /// parity of the pushes still needed is fixed by the position: the sum of these over
    /// boxes and goals.
    pub parity: Vec<u8>,
    /// Goal squares, in increasing order.
    pub goals: Vec<u16>,
    /// `dist[j * n + s]`: fewest pushes to bring a box from `s` to goal `j` on an otherwise
    /// empty board, starting with the player on the best side (`INF_DIST` if impossible).
    /// Empty in [`Problem::without_components`].
    pub dist: Vec<u16>,
    /// True where a box can reach no goal (simple dead squares).
    pub dead: Vec<bool>,
    /// For each square `b` and side `d`: the class of that side, i.e. which sides of a box
    /// on `b` the player can walk between (`u8::MAX` for a side that is not floor).
    pub side_class: Vec<[u8; 4]>,
    /// `comp[b * n + s]`: the class of the sides of `b` that square `s` is connected to when
    /// a box stands on `b` (walls only otherwise); `u8::MAX` for `s == b`. Empty for very
    /// large boards (then every side counts).
    pub comp: Vec<u8>,
    /// `dist_class[(s * 4 + c) * goals + j]`: fewest pushes to bring a box from `s` to goal
    /// `j` when the player starts on a side of class `c` (empty when `comp` is). A box's
    /// costs to all goals are one contiguous row (see [`Problem::cost_row`]).
    pub dist_class: Vec<u16>,
    /// The board's symmetries other than the identity (mirrors, rotations that map floor to
    /// floor and goals to goals), as maps of compact squares. Positions that are images of
    /// each other need the same number of pushes, so the table stores them as one.
    pub symmetries: Vec<Vec<u16>>,
    /// Zobrist keys for a box on each square.
    pub z_box: Vec<u64>,
    /// Zobrist keys for the (normalized) player square.
    pub z_player: Vec<u64>,
    /// The floor as a bit grid, for fast floods ([`crate::analysis::bits`]); `None` on boards wider
    /// than 64 columns.
    pub grid: Option<Arc<BitGrid>>,
}

/// SplitMix64, for deterministic Zobrist keys.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The transformations of the floor's bounding box (mirrors, half turn, and for a square box
/// the quarter turns and diagonal mirrors) that map every floor square to a floor square
/// and goals to goals; each as a map of compact squares. The identity is left out.
fn symmetries(board: &Board, compact: &[u16], board_sq: &[Square]) -> Vec<Vec<u16>> {
    if board_sq.is_empty() {
        return Vec::new();
    }
    let rc: Vec<(usize, usize)> = board_sq.iter().map(|&s| board.row_col(s)).collect();
    let (r0, r1) = (rc.iter().map(|x| x.0).min().unwrap(), rc.iter().map(|x| x.0).max().unwrap());
    let (c0, c1) = (rc.iter().map(|x| x.1).min().unwrap(), rc.iter().map(|x| x.1).max().unwrap());
    let (h, w) = (r1 - r0, c1 - c0);
    // (row, col) relative to the box -> (row, col) relative to the box. The first three
    // fit any box; the last four (quarter turns, diagonal mirrors) only a square one.
    let transform = |t: usize, r: usize, c: usize| match t {
        0 => (r, w - c),
        1 => (h - r, c),
        2 => (h - r, w - c),
        3 => (c, r),
        4 => (w - c, h - r),
        5 => (c, h - r),
        _ => (w - c, r),
    };
    let transforms = if h == w { 0..7 } else { 0..3 };
    let mut out = Vec::new();
    'next: for t in transforms {
        let mut map = Vec::with_capacity(board_sq.len());
        for (i, &(r, c)) in rc.iter().enumerate() {
            let (tr, tc) = transform(t, r - r0, c - c0);
            let target = board.square(tr + r0, tc + c0);
            let j = compact[target];
            if j == NONE || board.is_goal(board_sq[i]) != board.is_goal(target) {
                continue 'next;
            }
            map.push(j);
        }
        out.push(map);
    }
    out
}

impl Problem {
    /// Precompute the tables of a board.
    pub fn new(board: &Board) -> Problem {
        Self::build(board, true)
    }

    /// The tables the deadlock checks need, for the page and the fixed-box reduction:
    /// no component table and no push distances (`dist` and `dist_class` stay empty), the
    /// dead squares from one search from all goals — fast on large boards.
    pub fn without_components(board: &Board) -> Problem {
        Self::build(board, false)
    }

    fn build(board: &Board, with_components: bool) -> Problem {
        let mut compact = vec![NONE; board.len()];
        let mut board_sq = Vec::new();
        for s in 0..board.len() {
            if board.is_floor(s) {
                compact[s] = board_sq.len() as u16;
                board_sq.push(s);
            }
        }
        let n = board_sq.len();
        let nbr: Vec<[u16; 4]> = board_sq
            .iter()
            .map(|&s| {
                let mut a = [NONE; 4];
                for d in Dir::ALL {
                    if let Some(t) = board.floor_neighbor(s, d) {
                        a[d.index()] = compact[t];
                    }
                }
                a
            })
            .collect();
        let is_goal: Vec<bool> = board_sq.iter().map(|&s| board.is_goal(s)).collect();
        let parity: Vec<u8> = board_sq
            .iter()
            .map(|&s| {
                let (r, c) = board.row_col(s);
                ((r + c) & 1) as u8
            })
            .collect();
        let goals: Vec<u16> = (0..n as u16).filter(|&s| is_goal[s as usize]).collect();
        let mut seed = 0x5EED_5070_BA11_u64;
        let z_box = (0..n).map(|_| splitmix(&mut seed)).collect();
        let z_player = (0..n).map(|_| splitmix(&mut seed)).collect();
        let grid = BitGrid::new(board, &board_sq).map(Arc::new);
        let mut p = Problem {
            n,
            board_sq,
            compact,
            nbr,
            is_goal,
            parity,
            goals,
            dist: Vec::new(),
            dead: Vec::new(),
            side_class: Vec::new(),
            comp: Vec::new(),
            dist_class: Vec::new(),
            symmetries: Vec::new(),
            z_box,
            z_player,
            grid,
        };
        p.symmetries = symmetries(board, &p.compact, &p.board_sq);
        // The per-class tables only serve the player-side refinement of the bound; boards
        // too large for the component table (and the page's deadlock checks) skip both.
        let classes = with_components && n <= MAX_COMP_SQUARES;
        let (sides, comp) = if classes {
            p.side_classes()
        } else {
            // Without the component table, the side classes come from the biconnected blocks
            // of the floor in linear time (a flood per square is quadratic: seconds on big
            // open boards).
            let groups = sokoban_path::side_groups(board);
            let sides = (0..n)
                .map(|b| {
                    let g = groups[p.board_sq[b]];
                    std::array::from_fn(|d| {
                        if p.nbr[b][d] == NONE {
                            u8::MAX
                        } else {
                            (g >> (2 * d)) & 3
                        }
                    })
                })
                .collect();
            (sides, Vec::new())
        };
        if with_components {
            (p.dist, p.dist_class) = p.push_distances(&sides, classes);
        } else {
            // The deadlock checks need only the dead squares: one search from all goals at
            // once instead of one per goal (on a 255 x 255 room with 1,600 goals, seconds).
            p.dead = p.dead_squares(&sides);
        }
        p.comp = comp;
        p.side_class = sides;
        if with_components {
            p.dead =
                (0..n).map(|s| (0..p.goals.len()).all(|j| p.dist[j * n + s] == INF_DIST)).collect();
        }
        p
    }

    /// Neighbour of `s` in direction `d`.
    #[inline(always)]
    pub fn step(&self, s: u16, d: usize) -> u16 {
        self.nbr[s as usize][d]
    }

    /// The square diagonally across from `s` between directions `d` and the next one
    /// clockwise, reached by either way round (`NONE` when neither way is floor).
    #[inline]
    pub fn diagonal(&self, s: u16, d: usize) -> u16 {
        let e = (d + 1) & 3;
        let (a, b) = (self.nbr[s as usize][d], self.nbr[s as usize][e]);
        match (a, b) {
            (a, _) if a != NONE && self.nbr[a as usize][e] != NONE => self.nbr[a as usize][e],
            (_, b) if b != NONE => self.nbr[b as usize][d],
            _ => NONE,
        }
    }

    /// The class of the sides of a box on `b` that the player on `player` can reach — on
    /// the bare board, so it can never reach the other sides before that box moves.
    /// `u8::MAX` when unknown (every side counts).
    #[inline(always)]
    pub fn player_class(&self, b: u16, player: u16) -> u8 {
        if self.comp.is_empty() {
            u8::MAX
        } else {
            self.comp[b as usize * self.n + player as usize]
        }
    }

    /// The side of a box on `b` that is the only one in side class `class`, if there is
    /// one (`None` for `u8::MAX`, an unknown class): a player on it can never get round the
    /// box before it moves.
    #[inline]
    pub fn sole_side(&self, b: u16, class: u8) -> Option<usize> {
        if class == u8::MAX {
            return None;
        }
        let classes = &self.side_class[b as usize];
        let mut sides = (0..4).filter(|&d| classes[d] == class);
        let side = sides.next()?;
        sides.next().is_none().then_some(side)
    }

    /// Fewest pushes from `s` to every goal with the player on a side of class `class`
    /// (`u8::MAX`: any side), written into `out` (one entry per goal).
    pub fn cost_row(&self, s: u16, class: u8, out: &mut [u16]) {
        let ng = self.goals.len();
        if class == u8::MAX {
            for (j, o) in out.iter_mut().enumerate() {
                *o = self.dist[j * self.n + s as usize];
            }
        } else {
            let at = (s as usize * 4 + class as usize) * ng;
            out.copy_from_slice(&self.dist_class[at..at + ng]);
        }
    }

    /// Fewest pushes of a lone box from `b` to each square (`u16::MAX`: it cannot get
    /// there), the player starting on a side of `b` whose class is in the bit mask
    /// `classes`: a breadth-first search over (box square, side class) states, each push
    /// needing the player on a side of the class it is in.
    pub fn push_reach(&self, b: u16, classes: u8) -> Vec<u16> {
        let mut dist = vec![u16::MAX; self.n];
        // One bit per (square, class): a square's side classes are 0..=3.
        let mut seen = vec![0u8; self.n];
        let mut queue: Vec<(u16, u8)> =
            (0..4).filter(|c| classes >> c & 1 != 0).map(|c| (b, c)).collect();
        seen[b as usize] = classes;
        dist[b as usize] = 0;
        let mut head = 0;
        while head < queue.len() {
            let (x, c) = queue[head];
            head += 1;
            for e in 0..4 {
                let (to, behind) = (self.step(x, e), self.step(x, (e + 2) & 3));
                if to == NONE || behind == NONE || self.side_class[x as usize][(e + 2) & 3] != c {
                    continue;
                }
                // The player ends on `x`, the side of `to` opposite the push.
                let c2 = self.side_class[to as usize][(e + 2) & 3];
                if c2 == u8::MAX || seen[to as usize] >> c2 & 1 != 0 {
                    continue;
                }
                seen[to as usize] |= 1 << c2;
                if dist[to as usize] == u16::MAX {
                    dist[to as usize] = dist[x as usize] + 1;
                }
                queue.push((to, c2));
            }
        }
        dist
    }

    /// Fewest pushes from `s` to goal number `j`.
    #[inline(always)]
    pub fn dist(&self, j: usize, s: u16) -> u16 {
        self.dist[j * self.n + s as usize]
    }

    /// For each square `b` and side `d`, a label such that two sides of `b` have the same
    /// label exactly when the player can walk between them around a box on `b` (other
    /// squares empty); `u8::MAX` for a side that is not floor. Also the label of every
    /// square in the board without `b` (`comp`, n² entries), from the same floods (one per
    /// square: quadratic, used up to `MAX_COMP_SQUARES`).
    fn side_classes(&self) -> (Vec<[u8; 4]>, Vec<u8>) {
        let n = self.n;
        let mut sides = vec![[u8::MAX; 4]; n];
        let mut comp = vec![u8::MAX; n * n];
        let mut stack: Vec<u16> = Vec::with_capacity(n);
        for b in 0..n {
            let row = &mut comp[b * n..(b + 1) * n];
            let mut label = 0u8;
            for d in 0..4 {
                let s = self.nbr[b][d];
                if s == NONE || row[s as usize] != u8::MAX {
                    continue;
                }
                // Flood from side d with b blocked.
                row[s as usize] = label;
                stack.clear();
                stack.push(s);
                while let Some(x) = stack.pop() {
                    for &y in &self.nbr[x as usize] {
                        if y != NONE && y as usize != b && row[y as usize] == u8::MAX {
                            row[y as usize] = label;
                            stack.push(y);
                        }
                    }
                }
                label += 1;
            }
            for d in 0..4 {
                let s = self.nbr[b][d];
                if s != NONE {
                    sides[b][d] = row[s as usize];
                }
            }
        }
        (sides, comp)
    }

    /// Breadth-first search by pulls over (box square, player side) states `b * 4 + side`,
    /// from the states already in `queue`: `enter(state, from)` is asked for each state one
    /// pull back from a state taken off the queue (the player on a side of the same class),
    /// and the state is queued when it answers true.
    fn pull_search(
        &self,
        sides: &[[u8; 4]],
        queue: &mut Vec<u32>,
        mut enter: impl FnMut(usize, usize) -> bool,
    ) {
        let mut head = 0;
        while head < queue.len() {
            let st = queue[head];
            head += 1;
            let (b2, side) = ((st / 4) as usize, (st % 4) as usize);
            // The box reached b2 by a push away from `side`: it came from b = b2 + side,
            // and the player stood at b + side before the push.
            let b = self.nbr[b2][side];
            if b == NONE || self.nbr[b as usize][side] == NONE {
                continue;
            }
            let b = b as usize;
            let class = sides[b][side];
            for t in 0..4 {
                if sides[b][t] == class && enter(b * 4 + t, st as usize) {
                    queue.push((b * 4 + t) as u32);
                }
            }
        }
    }

    /// Squares from which a lone box reaches no goal: those no goal reaches by pulls (the
    /// player on a side of the class it can walk to), every goal searched at once.
    fn dead_squares(&self, sides: &[[u8; 4]]) -> Vec<bool> {
        let n = self.n;
        let mut seen = vec![false; n * 4];
        let mut queue: Vec<u32> = Vec::with_capacity(n * 4);
        for &g in &self.goals {
            for d in 0..4 {
                if self.nbr[g as usize][d] != NONE {
                    seen[g as usize * 4 + d] = true;
                    queue.push(g as u32 * 4 + d as u32);
                }
            }
        }
        self.pull_search(sides, &mut queue, |t, _| !std::mem::replace(&mut seen[t], true));
        (0..n).map(|s| !self.is_goal[s] && (0..4).all(|d| !seen[s * 4 + d])).collect()
    }

    /// Push distances to every goal by backward search over (box square, player side):
    /// the best over all sides, and the best per side class.
    fn push_distances(&self, sides: &[[u8; 4]], classes: bool) -> (Vec<u16>, Vec<u16>) {
        let n = self.n;
        let ng = self.goals.len();
        let mut dist = vec![INF_DIST; self.goals.len() * n];
        let mut dist_class =
            if classes { vec![INF_DIST; self.goals.len() * n * 4] } else { Vec::new() };
        let mut state = vec![INF_DIST; n * 4];
        let mut queue: Vec<u32> = Vec::with_capacity(n * 4);
        for (j, &g) in self.goals.iter().enumerate() {
            state.fill(INF_DIST);
            queue.clear();
            for d in 0..4 {
                if self.nbr[g as usize][d] != NONE {
                    state[g as usize * 4 + d] = 0;
                    queue.push(g as u32 * 4 + d as u32);
                }
            }
            self.pull_search(sides, &mut queue, |t, from| {
                let new = state[t] == INF_DIST;
                if new {
                    state[t] = state[from] + 1;
                }
                new
            });
            for s in 0..n {
                let m = (0..4).map(|d| state[s * 4 + d]).min().unwrap_or(INF_DIST);
                dist[j * n + s] = m;
                if classes {
                    for d in 0..4 {
                        let c = sides[s][d];
                        if c != u8::MAX {
                            let e = &mut dist_class[(s * 4 + c as usize) * ng + j];
                            *e = (*e).min(state[s * 4 + d]);
                        }
                    }
                }
            }
            // A box on its goal needs no push, even where the player cannot stand beside it
            // (a fixed box on a goal in a walled-in pocket).
            dist[j * n + g as usize] = 0;
            if classes {
                for c in 0..4 {
                    dist_class[(g as usize * 4 + c) * ng + j] = 0;
                }
            }
        }
        (dist, dist_class)
    }
}

/// Scratch for flooding the player's area on a board where some squares are blocked (by
/// boxes): no allocation per flood.
pub struct AreaFlood {
    seen: Vec<u32>,
    stamp: u32,
    queue: Vec<u16>,
}

impl AreaFlood {
    /// Scratch for a problem with `n` squares.
    pub fn new(n: usize) -> AreaFlood {
        AreaFlood { seen: vec![0; n], stamp: 0, queue: Vec::with_capacity(n) }
    }

    /// Flood from `from` over the squares not `blocked`; returns the area's smallest square.
    pub fn flood(&mut self, p: &Problem, blocked: &[bool], from: u16) -> u16 {
        if self.stamp == u32::MAX {
            self.seen.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        let stamp = self.stamp;
        self.queue.clear();
        self.queue.push(from);
        self.seen[from as usize] = stamp;
        let mut min = from;
        let mut head = 0;
        while head < self.queue.len() {
            let s = self.queue[head];
            head += 1;
            for &t in &p.nbr[s as usize] {
                if t != NONE && !blocked[t as usize] && self.seen[t as usize] != stamp {
                    self.seen[t as usize] = stamp;
                    self.queue.push(t);
                    min = min.min(t);
                }
            }
        }
        work::add(Op::FloodRows, self.queue.len() as u64);
        min
    }

    /// True when `s` is in the area of the last flood.
    #[inline]
    pub fn reached(&self, s: u16) -> bool {
        self.seen[s as usize] == self.stamp
    }

    /// The marks of the last flood: `marks[s] == stamp` where it reached (the form the
    /// corral analysis reads).
    pub fn marks(&self) -> (&[u32], u32) {
        (&self.seen, self.stamp)
    }

    /// The squares of the last flood's area, in the order reached.
    pub fn area(&self) -> &[u16] {
        &self.queue
    }
}

/// Hashing for maps keyed by Zobrist hashes: the keys are random already, use them as they
/// are.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

pub type Keyed = BuildHasherDefault<KeyHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use sokoban_core::Cell;

    /// The side classes from the biconnected blocks (boards without the component table)
    /// split every square's sides as the floods do, and give the same push distances.
    #[test]
    fn side_classes_agree_with_and_without_the_component_table() {
        let mut x = 0x0B10_C4ED_5EED_0001u64;
        let mut below = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        for _ in 0..200 {
            let (w, h) = (4 + below(8), 4 + below(8));
            let cells: Vec<Cell> = (0..w * h)
                .map(|i| {
                    let (r, c) = (i / w, i % w);
                    let border = r == 0 || c == 0 || r == h - 1 || c == w - 1;
                    if border || below(100) < 30 {
                        Cell::Wall
                    } else {
                        Cell::Floor
                    }
                })
                .collect();
            let goals: Vec<bool> =
                cells.iter().map(|&c| c == Cell::Floor && below(100) < 15).collect();
            let board = Board::new(w, h, cells, goals);
            let (a, b) = (Problem::new(&board), Problem::without_components(&board));
            assert_eq!(a.dead, b.dead);
            for s in 0..a.n {
                for d in 0..4 {
                    for e in 0..4 {
                        let same_a = a.side_class[s][d] == a.side_class[s][e];
                        let same_b = b.side_class[s][d] == b.side_class[s][e];
                        assert_eq!(same_a, same_b, "square {s}, sides {d} {e}");
                    }
                }
            }
        }
    }
}
