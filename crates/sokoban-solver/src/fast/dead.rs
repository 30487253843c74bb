//! The deadlock tests the fast search runs on each new position: the optimal search's own
//! (freeze, boxes frozen on goals that cut off goals, corrals closed for good and corrals
//! whose boxes alone cannot be solved) and the matching of boxes to goals each can reach
//! from the side the player can get to — on the empty board, and again on the board with
//! the position's boxes frozen on goals made walls ([`Reduced`]: measured on XSokoban at
//! 300,000 moves, 67 -> 69 solved; XSokoban 47 and 49 and Microban 122 solved 20-50x sooner).
//! Every test is sound: a position it calls dead has no solution.

use crate::corral::{Corrals, Verdict};
use crate::corral_deadlock::CorralSearch;
use crate::deadlock::freeze_status;
use crate::fixed::{FixedGoals, Reduced};
use crate::pairs::PairTable;
use crate::problem::{Problem, INF_DIST, NONE};
use sokoban_core::Board;
use std::sync::Arc;

use super::board::State;

/// Scratch and caches of the tests.
pub struct DeadTests {
    walls: Vec<u16>,
    fixed: FixedGoals,
    corrals: Corrals,
    corral_pushes: Vec<(u16, u8)>,
    corral_search: CorralSearch,
    costs: Vec<u16>,
    /// Matching scratch: the box on each goal (`u32::MAX`: none), boxes left by the greedy
    /// pass, visit stamps.
    goal_box: Vec<u32>,
    unmatched: Vec<u32>,
    visited: Vec<u32>,
    visit_stamp: u32,
    /// The two-box deadlock table.
    pairs: Option<Arc<PairTable>>,
    /// Moves cut by the table.
    pub pair_cuts: u64,
    /// Problems with boxes frozen on goals as walls (`None` on boards too large).
    reduced: Option<Reduced>,
    /// The boxes frozen on goals in the position tested.
    frozen: Vec<u16>,
    /// Positions found dead by the matching on a reduced problem only.
    pub reduced_cuts: u64,
}

impl DeadTests {
    pub fn new(p: &Problem, board: &Board, pairs: Option<Arc<PairTable>>) -> DeadTests {
        let ng = p.goals.len();
        DeadTests {
            walls: Vec::with_capacity(16),
            fixed: FixedGoals::new(p),
            corrals: Corrals::new(p.n, true),
            corral_pushes: Vec::new(),
            corral_search: CorralSearch::new(p),
            costs: vec![0; ng * ng],
            goal_box: Vec::with_capacity(ng),
            unmatched: Vec::new(),
            visited: vec![0; ng],
            visit_stamp: 0,
            pairs,
            pair_cuts: 0,
            reduced: if super::fess::flag("noreduced") { None } else { Reduced::new(board, p) },
            frozen: Vec::new(),
            reduced_cuts: 0,
        }
    }

    /// The position in `st` (flooded), reached by moving a box to `to`: dead?
    pub fn after_move(&mut self, p: &Problem, st: &State, to: u16) -> bool {
        let has_box = |s: u16| st.box_at[s as usize] != NONE;
        let (frozen, off_goal) = freeze_status(p, &mut self.walls, &has_box, to);
        if frozen && (off_goal || self.fixed.deadlocked(p, &st.boxes, &st.box_at)) {
            return true;
        }
        if self.pairs.as_ref().is_some_and(|t| t.dead_with(to, has_box, st.player)) {
            self.pair_cuts += 1;
            return true;
        }
        self.corral_dead(p, st, to) || !self.matchable(p, st) || !self.matchable_reduced(p, st)
    }

    /// A start position (flooded): dead? Every box is tested.
    pub fn at_start(&mut self, p: &Problem, st: &State) -> bool {
        let has_box = |s: u16| st.box_at[s as usize] != NONE;
        for &b in &st.boxes {
            if p.dead[b as usize] {
                return true;
            }
            let (frozen, off_goal) = freeze_status(p, &mut self.walls, &has_box, b);
            if frozen && off_goal {
                return true;
            }
        }
        self.corral_dead(p, st, NONE) || !self.matchable(p, st) || !self.matchable_reduced(p, st)
    }

    /// A corral that can never be opened, or one next to `last` whose boxes alone cannot
    /// be solved.
    fn corral_dead(&mut self, p: &Problem, st: &State, last: u16) -> bool {
        let (marks, stamp) = st.flood.marks();
        let verdict =
            self.corrals.analyse(p, &st.box_at, marks, stamp, last, &mut self.corral_pushes);
        if verdict == Verdict::Deadlock {
            return true;
        }
        let mut start = 0;
        for &end in &self.corrals.suspect_ends {
            let inside = self.corrals.suspects[start];
            let barrier = &self.corrals.suspects[start + 1..end];
            start = end;
            if self.corral_search.deadlocked(p, barrier, inside, st.player, st.norm) {
                return true;
            }
        }
        false
    }

    /// The boxes to move when the position in `st` (flooded) has a PI-corral: the barrier
    /// boxes of the one with the fewest pushes into it, marked in `out` (cleared first, one
    /// flag per square); false when there is none. Some solution, if any, starts with a push
    /// into that corral (see [`crate::corral`]), so only those boxes' moves need searching.
    pub fn corral_boxes(&mut self, p: &Problem, st: &State, out: &mut [bool]) -> bool {
        let (marks, stamp) = st.flood.marks();
        let verdict =
            self.corrals.analyse(p, &st.box_at, marks, stamp, NONE, &mut self.corral_pushes);
        out.fill(false);
        if verdict != Verdict::Only {
            return false;
        }
        for &(b, _) in &self.corral_pushes {
            out[b as usize] = true;
        }
        true
    }

    /// Every box can be matched to its own goal, each reachable by pushes from the side the
    /// player can get to (Kuhn's augmenting paths over the reachable pairs).
    fn matchable(&mut self, p: &Problem, st: &State) -> bool {
        let ng = p.goals.len();
        for (i, &b) in st.boxes.iter().enumerate() {
            let class = p.player_class(b, st.player);
            p.cost_row(b, class, &mut self.costs[i * ng..(i + 1) * ng]);
        }
        self.match_rows(st.boxes.len(), ng)
    }

    /// The same matching on the problem with the position's boxes frozen on goals made
    /// walls (when there are any): the other boxes to the empty goals, with the push
    /// distances and side classes that know the new walls.
    fn matchable_reduced(&mut self, p: &Problem, st: &State) -> bool {
        let Some(reduced) = self.reduced.as_mut() else { return true };
        let has_box = |s: u16| st.box_at[s as usize] != NONE;
        self.frozen.clear();
        for &b in &st.boxes {
            if p.is_goal[b as usize]
                && freeze_status(p, &mut self.walls, &has_box, b) == (true, false)
            {
                self.frozen.push(b);
            }
        }
        if self.frozen.is_empty() || self.frozen.len() == st.boxes.len() {
            return true;
        }
        let r = reduced.get(p, &self.frozen);
        let ng = r.goals.len();
        let player = r.compact[p.board_sq[st.player as usize]];
        let mut i = 0;
        for &b in &st.boxes {
            if self.frozen.contains(&b) {
                continue;
            }
            let rb = r.compact[p.board_sq[b as usize]];
            let class = r.player_class(rb, player);
            r.cost_row(rb, class, &mut self.costs[i * ng..(i + 1) * ng]);
            i += 1;
        }
        let ok = self.match_rows(i, ng);
        self.reduced_cuts += !ok as u64;
        ok
    }

    /// Kuhn's matching of `nb` boxes to `ng` goals over the finite entries of the cost
    /// rows in `costs`: true when every box gets a goal.
    fn match_rows(&mut self, nb: usize, ng: usize) -> bool {
        self.goal_box.clear();
        self.goal_box.resize(ng, u32::MAX);
        // Greedy first: a free reachable goal for each box.
        self.unmatched.clear();
        for i in 0..nb {
            let row = &self.costs[i * ng..(i + 1) * ng];
            match (0..ng).find(|&j| row[j] != INF_DIST && self.goal_box[j] == u32::MAX) {
                Some(j) => self.goal_box[j] = i as u32,
                None => self.unmatched.push(i as u32),
            }
        }
        for k in 0..self.unmatched.len() {
            let i = self.unmatched[k] as usize;
            self.visit_stamp += 1;
            if !augment(i, ng, &self.costs, &mut self.goal_box, &mut self.visited, self.visit_stamp)
            {
                return false;
            }
        }
        true
    }
}

/// Kuhn's augmenting path from box `i` over the pairs with a finite cost.
fn augment(
    i: usize,
    ng: usize,
    costs: &[u16],
    goal_box: &mut [u32],
    visited: &mut Vec<u32>,
    stamp: u32,
) -> bool {
    if visited.len() < ng {
        visited.resize(ng, 0);
    }
    for j in 0..ng {
        if costs[i * ng + j] == INF_DIST || visited[j] == stamp {
            continue;
        }
        visited[j] = stamp;
        let other = goal_box[j];
        if other == u32::MAX || augment(other as usize, ng, costs, goal_box, visited, stamp) {
            goal_box[j] = i as u32;
            return true;
        }
    }
    false
}
