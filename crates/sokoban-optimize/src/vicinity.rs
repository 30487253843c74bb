//! The vicinity of a solution: the box placements near it, which the vicinity search
//! ([`crate::search`]) goes through.
//!
//! From every position of the solution (the start and the position after each push), the
//! placements where one box stands on any of its K₁ nearest squares, two boxes on any of
//! their K₂ nearest, three on any of their K₃ nearest (floor distance on the bare board,
//! dead squares left out, frozen placements left out) form a set ([`Vicinity`]). The
//! solution itself is in the set, so the shortest way through it is never longer. Rounds
//! start with one box moved at a time (small sets, quick gains on large levels); a round
//! without gain adds the next number of boxes, and once all are in, doubles every K.

use sokoban_solver::analysis::deadlock::freeze_deadlock;
use sokoban_solver::analysis::problem::{Problem, NONE};

use crate::table::KeySet;

/// A push: the compact square the box leaves and the direction (`Dir` index).
pub(crate) type Push = (u16, u8);

/// The Zobrist key of a box placement.
pub(crate) fn placement_key(p: &Problem, boxes: &[u16]) -> u64 {
    boxes.iter().fold(0, |h, &b| h ^ p.z_box[b as usize])
}

/// Play a push on a box list (the box on `from` moves one square in `dir`).
pub(crate) fn play(p: &Problem, boxes: &mut [u16], (from, dir): Push) {
    let b = boxes.iter_mut().find(|b| **b == from).expect("a box to push");
    *b = p.step(from, dir as usize);
}

/// The set of placements near a solution, built a position at a time.
pub(crate) struct Vicinity {
    /// Squares near each square, nearest first (as many as the largest K).
    near: Vec<Vec<u16>>,
    /// K for one, two, three ... boxes moved.
    sizes: Vec<usize>,
    /// How many of `sizes` are in use: rounds start with one box moved at a time and
    /// add the next number of boxes after a round without gain.
    active: usize,
    pub set: KeySet,
    /// The set reached its memory before every placement was in.
    pub full: bool,
    /// Placements tried (in the set or not).
    pub tried: u64,
    // The cursor: boxes moved at once now (1-based), next position of the solution, its
    // boxes and key; the solution's pushes and start.
    moved: usize,
    index: usize,
    boxes: Vec<u16>,
    key: u64,
    pushes: Vec<Push>,
    start: Vec<u16>,
    // Scratch.
    occ: Vec<bool>,
    walls: Vec<u16>,
    chosen: Vec<u16>,
}

impl Vicinity {
    pub fn new(p: &Problem, sizes: &[usize], bytes: usize) -> Vicinity {
        let kmax = sizes.iter().copied().max().unwrap_or(0);
        Vicinity {
            near: nearest(p, kmax),
            sizes: sizes.to_vec(),
            active: 1.min(sizes.len()),
            set: KeySet::new(bytes),
            full: false,
            tried: 0,
            moved: 1,
            index: 0,
            boxes: Vec::new(),
            key: 0,
            pushes: Vec::new(),
            start: Vec::new(),
            occ: vec![false; p.n],
            walls: Vec::new(),
            chosen: Vec::new(),
        }
    }

    /// Move one more box at a time, or once every number in the sizes is in use, double
    /// every K (up to every square a box may stand on); false when nothing grows.
    pub fn widen(&mut self, p: &Problem) -> bool {
        if self.active < self.sizes.len() {
            self.active += 1;
            return true;
        }
        let most = p.dead.iter().filter(|&&d| !d).count().saturating_sub(1);
        if self.sizes.iter().all(|&k| k >= most) {
            return false;
        }
        for k in &mut self.sizes {
            *k = (*k * 2).min(most);
        }
        self.near = nearest(p, most.min(self.sizes.iter().copied().max().unwrap_or(0)));
        true
    }

    /// The K of each number of boxes moved, as far as in use.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes[..self.active]
    }

    /// Start over around a solution (`start` boxes, then `pushes`): the set holds the
    /// solution's own placements.
    pub fn reset(&mut self, p: &Problem, start: &[u16], pushes: &[Push]) {
        self.set.clear();
        self.full = false;
        self.start = start.to_vec();
        self.pushes = pushes.to_vec();
        let mut boxes = start.to_vec();
        self.set.insert(placement_key(p, &boxes));
        for &push in pushes {
            play(p, &mut boxes, push);
            self.set.insert(placement_key(p, &boxes));
        }
        self.moved = 1;
        self.rewind(p);
    }

    fn rewind(&mut self, p: &Problem) {
        self.index = 0;
        self.boxes.clone_from(&self.start);
        self.key = placement_key(p, &self.boxes);
    }

    /// Boxes moved at once in the placements being added now, and the share of the
    /// solution's positions done at that number.
    pub fn stage(&self) -> (usize, f64) {
        (self.moved, self.index as f64 / (self.pushes.len() + 1) as f64)
    }

    /// Add the placements of solution positions until `budget` placements have been tried;
    /// true when every position has had every number of boxes moved (or the set is full).
    pub fn build(&mut self, p: &Problem, budget: u64) -> bool {
        let end = self.tried + budget;
        while self.tried < end {
            if self.full || self.moved > self.active {
                return true;
            }
            let k = self.sizes[self.moved - 1];
            for &b in &self.boxes {
                self.occ[b as usize] = true;
            }
            self.chosen.clear();
            self.pick(p, self.moved, k, 0, self.key);
            for &b in &self.boxes {
                self.occ[b as usize] = false;
            }
            if self.index == self.pushes.len() {
                self.moved += 1;
                self.rewind(p);
            } else {
                let push = self.pushes[self.index];
                self.key ^=
                    p.z_box[push.0 as usize] ^ p.z_box[p.step(push.0, push.1 as usize) as usize];
                play(p, &mut self.boxes, push);
                self.index += 1;
            }
        }
        self.full || self.moved > self.active
    }

    /// Move `left` more boxes (from the box numbered `first` on) to any of their `k`
    /// nearest free squares; add each placement that is not frozen.
    fn pick(&mut self, p: &Problem, left: usize, k: usize, first: usize, key: u64) {
        if left == 0 {
            self.leaf(p, key);
            return;
        }
        for i in first..self.boxes.len() {
            let b = self.boxes[i] as usize;
            self.occ[b] = false;
            for j in 0..k.min(self.near[b].len()) {
                let t = self.near[b][j];
                if self.occ[t as usize] {
                    continue;
                }
                self.occ[t as usize] = true;
                self.chosen.push(t);
                self.pick(p, left - 1, k, i + 1, key ^ p.z_box[b] ^ p.z_box[t as usize]);
                self.chosen.pop();
                self.occ[t as usize] = false;
                if self.full {
                    break;
                }
            }
            self.occ[b] = true;
        }
    }

    fn leaf(&mut self, p: &Problem, key: u64) {
        self.tried += 1;
        if self.set.contains(key) {
            return;
        }
        let occ = &self.occ;
        let has_box = |s: u16| occ[s as usize];
        for &t in &self.chosen {
            if freeze_deadlock(p, &mut self.walls, &has_box, t) {
                return;
            }
        }
        if !self.set.insert(key) {
            self.full = true;
        }
    }
}

/// For each square, up to `k` other squares nearest to it by floor distance on the bare
/// board (dead squares left out), nearest first.
fn nearest(p: &Problem, k: usize) -> Vec<Vec<u16>> {
    let mut seen = vec![u32::MAX; p.n];
    let mut queue = Vec::with_capacity(p.n);
    (0..p.n as u16)
        .map(|s| {
            let mut out = Vec::with_capacity(k);
            if k == 0 || p.dead[s as usize] {
                return out;
            }
            queue.clear();
            queue.push(s);
            seen[s as usize] = s as u32;
            let mut head = 0;
            while head < queue.len() && out.len() < k {
                let a = queue[head];
                head += 1;
                if a != s && !p.dead[a as usize] {
                    out.push(a);
                }
                for &t in &p.nbr[a as usize] {
                    if t != NONE && seen[t as usize] != s as u32 {
                        seen[t as usize] = s as u32;
                        queue.push(t);
                    }
                }
            }
            out
        })
        .collect()
}
