//! The tests a new position of the feature space search gets before it is kept, and what
//! the search learns from them: the move's deadlock tests, learned patterns, the stuck test
//! of the boxes near the move or round a pocket, and the subtree rule (a position whose
//! subtree grows is tested whole, and on a find it and its subtree die).

use std::rc::Rc;
use std::sync::Arc;

use super::{Fess, NO_NODE};
use crate::analysis::deadlock::stuck::{Verdict, SEARCH_LIMIT};
use crate::analysis::problem::{Problem, NONE};
use crate::fast::shared::{Learned, Tested};

/// A position whose subtree has grown to this many positions is tested for stuck boxes
/// (the search is spending time there; Festival's rule).
const LEARN_AT: u32 = 64;

/// Most boxes in a local stuck test, and the positions it may search (0: no test;
/// `localboxesN`, `localN` change them). 300 positions, not the 150 XSokoban alone chose:
/// Sasquatch IV 30's start room is stuck in 247 (bench/decisions.md: local stuck test 300).
const LOCAL_MAX_BOXES: usize = 10;
const LOCAL_LIMIT: usize = 300;
/// Most squares of a pocket whose boxes get a stuck test of their own when the test of a
/// whole position fails ([`Fess::learn_at`]) or beside each move of the scored strategy,
/// and the positions that test may search: 300 solves XSokoban 88 within 60 s, where 100,
/// 200 and 1,000 do not (bench/decisions.md: pocket tests 300).
const POCKET_AREA: usize = 32;
const POCKET_LIMIT: usize = 300;
/// Positions the stuck tests of whole positions ([`Fess::learn_at`]) may search, per move
/// the strategy has made: past it, a position gets only the pocket tests. With twenty boxes
/// the whole test almost never concludes (XSokoban 89: 2 of 6,411 tests found stuck boxes,
/// 3.2 M of the stuck search's 5.3 M positions), but where it concludes the pattern can be
/// worth much (23: one found in 379 positions saves 40% of the moves), so it is bounded,
/// not dropped. Measured: 89 solved in 2.0 M fewer stuck-search positions (about 9% of
/// its time, old and new run one after the other), Microban and 81 of 90 XSokoban levels
/// move for move the same.
const WHOLE_TEST_PER_MOVE: u64 = 1;

impl Fess {
    /// The new position in the state (its key `key`), its box just moved to `to`: dead by
    /// the move's deadlock tests, a learned pattern, the local stuck test or (the scored
    /// strategy) the pocket test? The tests' verdicts are kept for the other strategies
    /// ([`Tested`]); a pattern is looked for every time (the store grows).
    pub(super) fn dead_after_move(&mut self, p: &Problem, key: u64, to: u16) -> bool {
        let tkey = key ^ p.z_box[to as usize].rotate_left(23);
        let known = self.learned.borrow().tested(tkey);
        let move_dead = match known.verdict(Tested::MOVE_DEAD, Tested::MOVE_ALIVE) {
            Some(dead) => Some(dead),
            None if self.dead.after_move(p, &self.st, to) => {
                self.learned.borrow_mut().note(tkey, Tested::MOVE_DEAD);
                Some(true)
            }
            None => None, // the local test, after the patterns, decides
        };
        if move_dead == Some(true) {
            self.stats.deadlocks += 1;
            return true;
        }
        if self.learned.borrow().patterns.matches(&self.st.occupied, &self.st.boxes, self.st.player)
        {
            self.stats.pattern_deadlocks += 1;
            return true;
        }
        let mut dead = move_dead.is_none() && {
            let stuck = self.local_limit() > 0 && self.local_stuck(p, to);
            let verdict = if stuck { Tested::MOVE_DEAD } else { Tested::MOVE_ALIVE };
            self.learned.borrow_mut().note(tkey, verdict);
            stuck
        };
        if !dead && self.config.pocket_moves {
            dead = match known.verdict(Tested::POCKET_DEAD, Tested::POCKET_ALIVE) {
                Some(v) => v,
                None => {
                    let v = self.pocket_beside_stuck(p, to);
                    let verdict = if v { Tested::POCKET_DEAD } else { Tested::POCKET_ALIVE };
                    self.learned.borrow_mut().note(tkey, verdict);
                    v
                }
            };
        }
        self.stats.deadlocks += dead as u64;
        dead
    }

    /// Positions the local stuck test may search (`localN`, else [`LOCAL_LIMIT`]).
    fn local_limit(&self) -> usize {
        self.a.exp.local_limit.unwrap_or(LOCAL_LIMIT)
    }

    /// The boxes near the box just moved to `to` (side by side, corner to corner or two
    /// squares apart in a line, and so on from box to box), alone on the board: stuck? Then
    /// the position is dead, and the pattern is learned.
    fn local_stuck(&mut self, p: &Problem, to: u16) -> bool {
        self.local.clear();
        self.local.push(to);
        self.local_taken[to as usize] = true;
        let mut k = 0;
        let most = self.a.exp.local_boxes.unwrap_or(LOCAL_MAX_BOXES);
        while k < self.local.len() && self.local.len() < most {
            let s = self.local[k];
            k += 1;
            for d in 0..4 {
                let a = p.nbr[s as usize][d];
                let diag = p.diagonal(s, d);
                // And the square two steps straight on.
                let two = if a != NONE { p.nbr[a as usize][d] } else { NONE };
                for t in [a, diag, two] {
                    if t != NONE
                        && self.st.occupied[t as usize]
                        && !self.local_taken[t as usize]
                        && self.local.len() < most
                    {
                        self.local_taken[t as usize] = true;
                        self.local.push(t);
                    }
                }
            }
        }
        for &b in &self.local {
            self.local_taken[b as usize] = false;
        }
        if self.local.len() < 2 || self.local.len() == self.nb {
            return false;
        }
        self.local.sort_unstable();
        self.stats.stuck_tests += 1;
        let mut learned = self.learned.borrow_mut();
        let Learned { stuck, patterns, .. } = &mut *learned;
        let limit = self.local_limit();
        if stuck.run(p, &self.local, self.st.player, limit) != Verdict::Stuck {
            return false;
        }
        if patterns.learn(p, stuck, &self.local, self.st.player).is_some() {
            self.stats.patterns += 1;
        }
        true
    }

    /// The position in the state (flooded), its box just moved to `to`: does the move shut
    /// off an area beside the box whose pocket is stuck ([`Pockets::find`], at most
    /// [`POCKET_LIMIT`] positions)? No pattern is learned.
    fn pocket_beside_stuck(&mut self, p: &Problem, to: u16) -> bool {
        // The state's own flood is the player's area: no second flood.
        let st = &self.st;
        let (stats, mut learned) = (&mut self.stats, self.learned.borrow_mut());
        let near = p.nbr[to as usize].into_iter();
        self.pockets.find(
            p,
            self.nb,
            &st.occupied,
            |s| st.flood.reached(s),
            near,
            |g| {
                stats.stuck_tests += 1;
                learned.stuck.run(p, g, st.player, POCKET_LIMIT) == Verdict::Stuck
            },
        )
    }

    /// Count the new node `id` in its ancestors' subtrees; test an ancestor whose subtree
    /// reaches [`LEARN_AT`] for stuck boxes.
    pub(super) fn grow_subtrees(&mut self, id: u32) {
        let mut x = self.nodes[id as usize].parent;
        while x != NO_NODE {
            self.subtree[x as usize] += 1;
            if self.subtree[x as usize] == LEARN_AT && !self.dead_node[x as usize] {
                self.learn_at(x);
            }
            x = self.nodes[x as usize].parent;
        }
    }

    /// Test node `id` for stuck boxes (the whole position while the budget of
    /// [`WHOLE_TEST_PER_MOVE`] lasts, then its pockets); on a find, learn the pattern and
    /// mark every stored position holding it, and their subtrees, dead.
    pub(super) fn learn_at(&mut self, id: u32) {
        self.stats.stuck_tests += 1;
        let p = Arc::clone(&self.a.p);
        let at = id as usize * self.nb;
        let norm = self.nodes[id as usize].norm;
        let boxes = self.positions[at..at + self.nb].to_vec();
        let learned = Rc::clone(&self.learned);
        let mut learned = learned.borrow_mut();
        let Learned { stuck, patterns, .. } = &mut *learned;
        let whole = if self.stats.whole_tested > self.stats.generated * WHOLE_TEST_PER_MOVE {
            Verdict::Unknown // the budget of the whole tests is spent: pockets only
        } else {
            let before = stuck.stats.nodes;
            let v = stuck.run(&p, &boxes, norm, SEARCH_LIMIT);
            self.stats.whole_tested += stuck.stats.nodes - before;
            v
        };
        if whole != Verdict::Stuck {
            drop(learned);
            // Too many boxes for the test of the whole position, or no budget left for it:
            // the boxes round each pocket, which the test near one move misses. The node
            // and its subtree die; no pattern is learned (measured: learned and shared by
            // the strategies, it made XSokoban 52 40 times slower, 39 2.5 times; 23 and 85
            // faster).
            if !self.a.exp.no_pockets && self.pocket_stuck(&p, &boxes, norm) {
                self.mark_dead(id);
            }
            return;
        }
        let Some(pattern) = patterns.learn(&p, stuck, &boxes, norm) else {
            drop(learned);
            self.mark_dead(id);
            return;
        };
        self.stats.patterns += 1;
        // Every stored position holding the pattern is dead (found by the same test as new
        // positions: the pattern store now holds it).
        let mut occupied = vec![false; p.n];
        for k in 0..self.nodes.len() {
            if self.dead_node[k] {
                continue;
            }
            let at = k * self.nb;
            let bs = &self.positions[at..at + self.nb];
            if !pattern.iter().all(|b| bs.binary_search(b).is_ok()) {
                continue;
            }
            for &b in bs {
                occupied[b as usize] = true;
            }
            if patterns.matches(&occupied, bs, self.nodes[k].norm) {
                self.dead_node[k] = true;
                self.stats.pruned += 1;
            }
            for &b in bs {
                occupied[b as usize] = false;
            }
        }
        self.mark_dead(id);
    }

    /// Some pocket of the position `boxes` (sorted; the player's area holds `norm`) whose
    /// boxes are stuck ([`Pockets::find`] over the whole board). (XSokoban 89: a box
    /// pushed beside a column that boxes close at both ends, none of which can ever leave
    /// it; the test near the move takes in more boxes and gives up.)
    fn pocket_stuck(&mut self, p: &Problem, boxes: &[u16], norm: u16) -> bool {
        let occupied = self.flood_position(p, boxes, norm);
        let flood = &self.flood;
        let mut learned = self.learned.borrow_mut();
        let all = 0..p.n as u16;
        self.pockets.find(
            p,
            self.nb,
            &occupied,
            |s| flood.reached(s),
            all,
            |g| learned.stuck.run(p, g, norm, POCKET_LIMIT) == Verdict::Stuck,
        )
    }

    /// The squares holding a box in the position `boxes`, with the player's area (holding
    /// `norm`) flooded in `self.flood`.
    pub(super) fn flood_position(&mut self, p: &Problem, boxes: &[u16], norm: u16) -> Vec<bool> {
        let mut occupied = vec![false; p.n];
        for &b in boxes {
            occupied[b as usize] = true;
        }
        self.flood.set_boxes(boxes);
        self.flood.flood(p, &occupied, norm);
        occupied
    }

    /// Mark node `id` dead, and every stored descendant of a dead node (in one pass:
    /// children come after their parents).
    fn mark_dead(&mut self, id: u32) {
        self.dead_node[id as usize] = true;
        for k in 1..self.nodes.len() {
            let parent = self.nodes[k].parent;
            if !self.dead_node[k] && parent != NO_NODE && self.dead_node[parent as usize] {
                self.dead_node[k] = true;
                self.stats.pruned += 1;
            }
        }
    }
}

/// The pockets of a position, for the stuck test: the areas the player cannot reach, each
/// with the boxes round it and those beside them. Scratch is kept between calls: pocket
/// squares marked with the call's stamp, box marks all clear between calls.
pub(super) struct Pockets {
    seen: Vec<u32>,
    stamp: u32,
    queue: Vec<u16>,
    taken: Vec<bool>,
    group: Vec<u16>,
}

impl Pockets {
    pub(super) fn new(n: usize) -> Pockets {
        Pockets {
            seen: vec![0; n],
            stamp: 0,
            queue: Vec::with_capacity(n),
            taken: vec![false; n],
            group: Vec::new(),
        }
    }

    /// For the areas holding one of the squares `starts` (`NONE` entries are skipped)
    /// that the player cannot reach (`reached`) in the position whose `nb` boxes are
    /// `occupied`: per area of at most [`POCKET_AREA`] squares, the boxes round it and
    /// those beside them ([`LOCAL_MAX_BOXES`] at most, sorted) go to `test`, one area
    /// after another, until it says true; returns whether it did.
    pub(super) fn find(
        &mut self,
        p: &Problem,
        nb: usize,
        occupied: &[bool],
        reached: impl Fn(u16) -> bool,
        starts: impl Iterator<Item = u16>,
        mut test: impl FnMut(&[u16]) -> bool,
    ) -> bool {
        if self.stamp == u32::MAX {
            self.seen.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        let stamp = self.stamp;
        let (seen, taken, queue, group) =
            (&mut self.seen, &mut self.taken, &mut self.queue, &mut self.group);
        for s0 in starts {
            if s0 == NONE || occupied[s0 as usize] || seen[s0 as usize] == stamp || reached(s0) {
                continue;
            }
            queue.clear();
            queue.push(s0);
            seen[s0 as usize] = stamp;
            group.clear();
            let mut head = 0;
            while head < queue.len() {
                let s = queue[head];
                head += 1;
                for &u in &p.nbr[s as usize] {
                    if u == NONE {
                        continue;
                    }
                    if occupied[u as usize] {
                        if !taken[u as usize] {
                            taken[u as usize] = true;
                            group.push(u);
                        }
                    } else if seen[u as usize] != stamp {
                        seen[u as usize] = stamp;
                        queue.push(u);
                    }
                }
            }
            let fence = group.len();
            for k in 0..fence {
                for &u in &p.nbr[group[k] as usize] {
                    if u != NONE && occupied[u as usize] && !taken[u as usize] {
                        taken[u as usize] = true;
                        group.push(u);
                    }
                }
            }
            for &b in group.iter() {
                taken[b as usize] = false;
            }
            if queue.len() <= POCKET_AREA
                && fence <= LOCAL_MAX_BOXES
                && (2..nb).contains(&group.len())
            {
                group.truncate(LOCAL_MAX_BOXES);
                group.sort_unstable();
                if test(group) {
                    return true;
                }
            }
        }
        false
    }
}
