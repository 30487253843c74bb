//! PI-corral pruning.
//!
//! A corral is a connected area of free squares the player cannot reach; its barrier is
//! the set of boxes next to it. It is a PI-corral when
//! - (I) no barrier box can ever be pushed anywhere but into the corral — counting walls,
//!   barrier boxes and dead squares as blocking and every other box as movable — and
//! - (P) the player can reach the square behind every such inward push right now
//!   (pushes whose square behind is a wall, a barrier box or inside the corral are
//!   impossible until the barrier changes, so they need neither condition).
//!
//! If the corral still has work in it (a barrier box off its goal, or an empty goal inside),
//! every solution must at some point push a barrier box; the first such push goes into the
//! corral (I) and is already possible now (P), and it can be moved to the front of the
//! solution without changing the push count: the pushes before it never touch the corral
//! area, and freeing the barrier square only enlarges the player's area. So only the
//! corral's inward pushes need to be searched — push-optimality is kept. A PI-corral with
//! no inward push at all can never be opened: the position is a deadlock.

use crate::analysis::problem::{Problem, NONE};

/// What the corral analysis found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No PI-corral: search every push.
    All,
    /// Search only the pushes left in the output list.
    Only,
    /// A PI-corral that can never be opened: prune the node.
    Deadlock,
}

/// Scratch space for corral analysis (one per search; no allocation per node).
pub struct Corrals {
    label: Vec<u32>,
    box_mark: Vec<u32>,
    next: u32,
    stack: Vec<u16>,
    barrier: Vec<u16>,
    pushes: Vec<(u16, u8)>,
    /// The corrals with work left whose barrier holds the last pushed box, candidates for
    /// the corral deadlock test: for each, a square inside it and then its barrier boxes,
    /// one corral after another (`suspect_ends` marks where each ends).
    pub suspects: Vec<u16>,
    pub suspect_ends: Vec<usize>,
    /// Every goal must get a box (false in a subproblem with fewer boxes than goals: then
    /// an empty goal inside a corral is no work left).
    fill_goals: bool,
}

impl Corrals {
    /// Scratch for a problem with `n` squares; `fill_goals` when there are as many boxes
    /// as goals.
    pub fn new(n: usize, fill_goals: bool) -> Corrals {
        Corrals {
            label: vec![0; n],
            box_mark: vec![0; n],
            next: 0,
            stack: Vec::with_capacity(n),
            barrier: Vec::new(),
            pushes: Vec::new(),
            suspects: Vec::new(),
            suspect_ends: Vec::new(),
            fill_goals,
        }
    }

    fn fresh(&mut self) -> u32 {
        self.next += 1;
        self.next
    }

    /// Analyse the corrals of a position. `has_box(s)` where a box stands; `reached(s)`
    /// where the player can go; `outside` gives (in increasing order) at least every square
    /// with neither, the squares of the corrals. On [`Verdict::Only`], `out` holds the
    /// pushes (box square, direction) of the PI-corral with the fewest of them.
    pub fn analyse(
        &mut self,
        p: &Problem,
        has_box: impl Fn(usize) -> bool,
        reached: impl Fn(u16) -> bool,
        outside: impl Iterator<Item = u16>,
        last: u16,
        out: &mut Vec<(u16, u8)>,
    ) -> Verdict {
        let n = p.n;
        // Labels of this node are `base..`; start over well before the counter could wrap.
        if self.next > u32::MAX - n as u32 - 1 {
            self.label.fill(0);
            self.box_mark.fill(0);
            self.next = 0;
        }
        let base = self.next + 1;
        let mut best: Option<usize> = None;
        out.clear();
        self.suspects.clear();
        self.suspect_ends.clear();
        for s0 in outside {
            let s0 = s0 as usize;
            if has_box(s0) || reached(s0 as u16) {
                continue;
            }
            let l = self.label[s0];
            if l >= base {
                continue; // already in a corral of this node
            }
            let id = self.fresh();
            // Flood the corral area and collect its barrier boxes.
            self.barrier.clear();
            let mut unfinished = false;
            self.stack.clear();
            self.stack.push(s0 as u16);
            self.label[s0] = id;
            while let Some(x) = self.stack.pop() {
                if self.fill_goals && p.is_goal[x as usize] {
                    unfinished = true; // an empty goal inside
                }
                for &y in &p.nbr[x as usize] {
                    if y == NONE {
                        continue;
                    }
                    let yu = y as usize;
                    if has_box(yu) {
                        if self.box_mark[yu] != id {
                            self.box_mark[yu] = id;
                            self.barrier.push(y);
                        }
                    } else if self.label[yu] != id {
                        self.label[yu] = id;
                        self.stack.push(y);
                    }
                }
            }
            if !unfinished {
                unfinished = self.barrier.iter().any(|&b| !p.is_goal[b as usize]);
            }
            if unfinished && self.barrier.contains(&last) {
                self.suspects.push(s0 as u16);
                self.suspects.extend_from_slice(&self.barrier);
                self.suspect_ends.push(self.suspects.len());
            }
            // Check the I and P conditions.
            self.pushes.clear();
            let mut pi = true;
            'boxes: for &b in &self.barrier {
                for d in 0..4 {
                    let t = p.step(b, d);
                    let s = p.step(b, (d + 2) & 3);
                    if t == NONE || s == NONE {
                        continue;
                    }
                    // The player cannot stand behind a barrier box on a wall, on another
                    // barrier box, or inside the corral (it cannot get in before the first
                    // barrier push): such pushes cannot be that first push.
                    let s_blocked = if has_box(s as usize) {
                        self.box_mark[s as usize] == id
                    } else {
                        self.label[s as usize] == id
                    };
                    if s_blocked {
                        continue;
                    }
                    let t_inside = !has_box(t as usize) && self.label[t as usize] == id;
                    if t_inside {
                        if p.dead[t as usize] {
                            continue;
                        }
                        if !reached(s) {
                            pi = false; // P fails
                            break 'boxes;
                        }
                        self.pushes.push((b, d as u8));
                    } else {
                        let t_blocked = (has_box(t as usize) && self.box_mark[t as usize] == id)
                            || p.dead[t as usize];
                        if !t_blocked {
                            pi = false; // I fails: the box might leave sideways or outwards
                            break 'boxes;
                        }
                    }
                }
            }
            if !pi || !unfinished {
                continue;
            }
            if self.pushes.is_empty() {
                return Verdict::Deadlock;
            }
            if best.is_none_or(|k| self.pushes.len() < k) {
                best = Some(self.pushes.len());
                out.clear();
                out.extend_from_slice(&self.pushes);
            }
        }
        if best.is_some() {
            Verdict::Only
        } else {
            Verdict::All
        }
    }
}
