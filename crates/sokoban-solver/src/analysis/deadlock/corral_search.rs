//! Corral deadlock detection: a small search on the boxes around one corral alone.
//!
//! Take the barrier boxes of a corral (the boxes next to an area the player cannot reach),
//! remove every other box from the board and ask whether those boxes alone can all be
//! brought onto goals. If they cannot, the position is a deadlock: in any solution of the
//! full position, the pushes of the barrier boxes, in their order, are legal in the
//! reduced position too (the boxes removed only ever stood in the way: the player reaches
//! more, and a square free there was free in the full position) and end with every
//! barrier box on a goal. So pruning on this test keeps every solution.
//!
//! The reduced search is a greedy best-first search (fewest pushes to the nearest goals,
//! summed) with dead-square and freeze pruning. It also stops, with "not a deadlock", as
//! soon as the player gets into the corral, or after a few expanded positions: it is
//! meant to catch corrals that are closed for good, cheaply. The tests run on the corrals
//! next to the box just pushed (the others were tested before), and verdicts are cached by
//! the reduced position. On levels where the searches seldom find a deadlock (Microban 93:
//! one in 180) they cost more than they save, so past a warm-up the test backs off to a
//! sample of the calls while its recent success rate stays low.

use std::collections::{BinaryHeap, HashMap, HashSet};

use crate::analysis::bits::PlayerArea;
use crate::analysis::deadlock::freeze_deadlock;
use crate::analysis::problem::{Keyed, Problem, INF_DIST, NONE};
use crate::work::{self, Op};

/// Positions the reduced search may expand before it gives up (not proven). Measured on
/// Microban 93, 139 and 153: 100 finds nearly every deadlock 2000 does, at a fraction of
/// the cost.
const NODE_LIMIT: usize = 100;
/// Cached verdicts kept before the cache is cleared.
const CACHE_LIMIT: usize = 1 << 18;
/// Reduced searches run before their success rate is judged.
const WARMUP: u64 = 2000;
/// Below one deadlock in this many reduced searches, the test is rare luck on this level:
/// it then runs on one call in [`SPARSE`] only (the others answer "not proven", which only
/// prunes less), so that its rate keeps being measured.
const RARE: u64 = 50;
const SPARSE: u64 = 16;
/// The rate counts the most recent searches: both counts are halved when they reach this.
const WINDOW: u64 = 8 * WARMUP;

/// Counters of corral deadlock detection.
#[derive(Clone, Copy, Debug, Default)]
pub struct CorralStats {
    /// Reduced searches run (cache misses).
    pub searches: u64,
    /// Positions expanded by them.
    pub nodes: u64,
    /// Tests answered from the cache.
    pub cache_hits: u64,
    /// Corrals proved deadlocked.
    pub deadlocks: u64,
    /// Tests skipped because the searches rarely found a deadlock on this level.
    pub skipped: u64,
}

/// Scratch space and cache for the reduced searches (one per engine).
pub struct CorralSearch {
    /// Fewest pushes from each square to the nearest goal (`u32` sum-friendly).
    nearest: Vec<u32>,
    box_on: Vec<bool>,
    area: PlayerArea,
    walls: Vec<u16>,
    /// Stored positions: `k` box squares then the player square, per position.
    arena: Vec<u16>,
    heap: BinaryHeap<(std::cmp::Reverse<u32>, u32)>,
    seen: HashSet<u64, Keyed>,
    cache: HashMap<u64, bool, Keyed>,
    boxes: Vec<u16>,
    pub stats: CorralStats,
    /// Tests asked for, and the recent searches and the deadlocks they found (see
    /// [`RARE`]).
    calls: u64,
    recent_searches: u64,
    recent_deadlocks: u64,
}

impl CorralSearch {
    /// Scratch for a problem.
    pub fn new(p: &Problem) -> CorralSearch {
        let n = p.n;
        let nearest = (0..n)
            .map(|s| {
                let d = (0..p.goals.len()).map(|j| p.dist[j * n + s]).min().unwrap_or(INF_DIST);
                d as u32
            })
            .collect();
        CorralSearch {
            nearest,
            box_on: vec![false; n],
            area: PlayerArea::new(p),
            walls: Vec::new(),
            arena: Vec::new(),
            heap: BinaryHeap::new(),
            seen: HashSet::default(),
            cache: HashMap::default(),
            boxes: Vec::new(),
            stats: CorralStats::default(),
            calls: 0,
            recent_searches: 0,
            recent_deadlocks: 0,
        }
    }

    /// True when the boxes on `barrier` alone, with the player on `player`, can never all
    /// stand on goals (so the full position is a deadlock).
    ///
    /// `norm` is a square of the player's area in the full position (its smallest): with
    /// the barrier it fixes the reduced position, whose player area is the one holding it.
    pub fn deadlocked(
        &mut self,
        p: &Problem,
        barrier: &[u16],
        inside: u16,
        player: u16,
        norm: u16,
    ) -> bool {
        let k = barrier.len();
        if barrier.iter().all(|&b| p.is_goal[b as usize]) {
            return false;
        }
        self.calls += 1;
        if self.recent_searches >= WARMUP
            && self.recent_deadlocks * RARE < self.recent_searches
            && self.calls % SPARSE != 0
        {
            self.stats.skipped += 1;
            return false;
        }
        let root_key = barrier.iter().fold(0u64, |h, &b| h ^ p.z_box[b as usize])
            ^ p.z_player[norm as usize]
            ^ p.z_box[inside as usize].rotate_left(29);
        if let Some(&v) = self.cache.get(&root_key) {
            self.stats.cache_hits += 1;
            return v;
        }
        self.stats.searches += 1;
        let dead = self.search(p, barrier, inside, player, k);
        if self.cache.len() >= CACHE_LIMIT {
            self.cache.clear();
        }
        self.cache.insert(root_key, dead);
        self.stats.deadlocks += dead as u64;
        self.recent_searches += 1;
        self.recent_deadlocks += dead as u64;
        if self.recent_searches >= WINDOW {
            self.recent_searches /= 2;
            self.recent_deadlocks /= 2;
        }
        dead
    }

    /// The reduced search itself: true when it exhausts without putting every box on a
    /// goal.
    fn search(&mut self, p: &Problem, barrier: &[u16], inside: u16, player: u16, k: usize) -> bool {
        let stride = k + 1;
        self.arena.clear();
        self.heap.clear();
        self.seen.clear();
        self.arena.extend_from_slice(barrier);
        self.arena.push(player);
        let h0: u32 = barrier.iter().map(|&b| self.nearest[b as usize]).sum();
        self.heap.push((std::cmp::Reverse(h0), 0));
        let mut boxes = std::mem::take(&mut self.boxes);
        boxes.resize(k, 0);
        let dead = self.search_with(p, inside, stride, &mut boxes);
        self.boxes = boxes;
        dead
    }

    fn search_with(&mut self, p: &Problem, inside: u16, stride: usize, boxes: &mut [u16]) -> bool {
        let k = boxes.len();
        let mut expanded = 0;
        while let Some((_, idx)) = self.heap.pop() {
            let base = idx as usize * stride;
            boxes.copy_from_slice(&self.arena[base..base + k]);
            let pl = self.arena[base + k];
            for &b in boxes.iter() {
                self.box_on[b as usize] = true;
                self.area.set_box(b, true);
            }
            let norm = self.area.flood(p, &self.box_on, pl);
            let hash = boxes.iter().fold(0u64, |h, &b| h ^ p.z_box[b as usize]);
            if !self.seen.insert(hash ^ p.z_player[norm as usize]) {
                for &b in boxes.iter() {
                    self.box_on[b as usize] = false;
                    self.area.set_box(b, false);
                }
                continue;
            }
            if self.area.reached(inside) {
                for &b in boxes.iter() {
                    self.box_on[b as usize] = false;
                    self.area.set_box(b, false);
                }
                return false;
            }
            expanded += 1;
            self.stats.nodes += 1;
            work::add(Op::CorralNodes, 1);
            if expanded > NODE_LIMIT {
                for &b in boxes.iter() {
                    self.box_on[b as usize] = false;
                    self.area.set_box(b, false);
                }
                return false;
            }
            let h: u32 = boxes.iter().map(|&b| self.nearest[b as usize]).sum();
            let mut solved = false;
            'pushes: for i in 0..k {
                let b = boxes[i];
                for d in 0..4 {
                    let to = p.step(b, d);
                    let behind = p.step(b, (d + 2) & 3);
                    if to == NONE
                        || behind == NONE
                        || self.box_on[to as usize]
                        || p.dead[to as usize]
                        || !self.area.reached(behind)
                    {
                        continue;
                    }
                    self.box_on[b as usize] = false;
                    self.box_on[to as usize] = true;
                    let frozen = {
                        let on = &self.box_on;
                        freeze_deadlock(p, &mut self.walls, &|s| on[s as usize], to)
                    };
                    let all_on_goals = !frozen
                        && p.is_goal[to as usize]
                        && boxes.iter().all(|&x| x == b || p.is_goal[x as usize]);
                    self.box_on[to as usize] = false;
                    self.box_on[b as usize] = true;
                    if all_on_goals {
                        solved = true;
                        break 'pushes;
                    }
                    if frozen {
                        continue;
                    }
                    let child = (self.arena.len() / stride) as u32;
                    for (j, &x) in boxes.iter().enumerate() {
                        self.arena.push(if j == i { to } else { x });
                    }
                    self.arena.push(b);
                    let hc = h - self.nearest[b as usize] + self.nearest[to as usize];
                    self.heap.push((std::cmp::Reverse(hc), child));
                }
            }
            for &b in boxes.iter() {
                self.box_on[b as usize] = false;
                self.area.set_box(b, false);
            }
            if solved {
                return false;
            }
        }
        true
    }
}
