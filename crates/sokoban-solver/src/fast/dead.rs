//! The deadlock tests the fast search runs on each new position: the optimal search's own
//! (freeze, boxes frozen on goals that cut off goals, corrals closed for good and corrals
//! whose boxes alone cannot be solved) and the matching of boxes to goals each can reach
//! from the side the player can get to — on the empty board, and again on the board with
//! the position's boxes frozen on goals made walls (`Reduced`: measured on XSokoban at
//! 300,000 moves, 67 -> 69 solved; XSokoban 47 and 49 and Microban 122 solved 20-50x sooner).
//! Every test is sound: a position it calls dead has no solution.

use crate::analysis::corral::{Corrals, Verdict};
use crate::analysis::deadlock::corral_search::CorralSearch;
use crate::analysis::deadlock::freeze_status;
use crate::analysis::deadlock::pairs::PairTable;
use crate::analysis::fixed::{FixedGoals, Reduced};
use crate::analysis::matching::Matcher;
use crate::analysis::problem::{Problem, NONE};
use sokoban_core::Board;
use std::sync::Arc;

use super::board::State;

/// Scratch and caches of the tests.
pub struct DeadTests {
    walls: Vec<u16>,
    fixed: FixedGoals,
    corrals: Corrals,
    corral_pushes: Vec<(u16, u8)>,
    /// The key of the position the corrals were last analysed for, and the verdict (its
    /// pushes in `corral_pushes`): the scored strategy asks for the corral's boxes of the
    /// position its move test has just analysed.
    analysed: Option<(u64, Verdict)>,
    corral_search: CorralSearch,
    costs: Vec<u16>,
    matcher: Matcher,
    /// The two-box deadlock table.
    pairs: Option<Arc<PairTable>>,
    /// Moves cut by the table.
    pub pair_cuts: u64,
    /// Problems with boxes frozen on goals as walls (`None` on boards too large).
    reduced: Option<Reduced>,
    /// Positions found dead by the matching on a reduced problem only.
    pub reduced_cuts: u64,
}

impl DeadTests {
    /// The tests for problem `p` of `board`; the caches that grow during the search hold at
    /// most `cache_bytes` (`None`: no reduced problems).
    pub fn new(
        p: &Problem,
        board: &Board,
        pairs: Option<Arc<PairTable>>,
        cache_bytes: Option<usize>,
    ) -> DeadTests {
        let ng = p.goals.len();
        DeadTests {
            walls: Vec::with_capacity(16),
            fixed: FixedGoals::new(p),
            corrals: Corrals::new(p.n, true),
            corral_pushes: Vec::new(),
            analysed: None,
            corral_search: CorralSearch::new(p),
            costs: vec![0; ng * ng],
            matcher: Matcher::default(),
            pairs,
            pair_cuts: 0,
            reduced: cache_bytes.and_then(|bytes| Reduced::new(board, p, bytes)),
            reduced_cuts: 0,
        }
    }

    /// Corrals of several areas together (`merge`; see `analysis::corral`).
    pub fn merge_corrals(&mut self, on: bool) {
        self.corrals.merge = on;
    }

    /// Bytes held by the caches that grow during a search (the reduced problems).
    pub fn memory(&self) -> usize {
        self.reduced.as_ref().map_or(0, |r| r.bytes())
    }

    /// The position in `st` (flooded), reached by moving a box to `to`: dead?
    pub fn after_move(&mut self, p: &Problem, st: &State, to: u16) -> bool {
        let has_box = |s: u16| st.box_at[s as usize] != NONE;
        let (frozen, off_goal) = freeze_status(p, &mut self.walls, &has_box, to);
        // With reduced problems the matching below sees all that the walls-only reach
        // table sees: it runs only on boards too large for them.
        if frozen
            && (off_goal
                || (self.reduced.is_none() && self.fixed.deadlocked(p, &st.boxes, &st.box_at)))
        {
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

    /// The PI-corral analysis of the position in `st` (its player area flooded), the box
    /// pushed last on `last`; the corral's pushes in `corral_pushes`.
    fn analyse_corrals(&mut self, p: &Problem, st: &State, last: u16) -> Verdict {
        let has_box = |s: usize| st.box_at[s] != NONE;
        let reached = |s: u16| st.flood.reached(s);
        let outside = st.flood.unreached(&st.occupied);
        let v = self.corrals.analyse(p, has_box, reached, outside, last, &mut self.corral_pushes);
        self.analysed = Some((st.key(p), v));
        v
    }

    /// A corral that can never be opened, or one next to `last` whose boxes alone cannot
    /// be solved.
    fn corral_dead(&mut self, p: &Problem, st: &State, last: u16) -> bool {
        let verdict = self.analyse_corrals(p, st, last);
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
    /// into that corral (see `analysis::corral`), so only those boxes' moves need searching.
    pub fn corral_boxes(&mut self, p: &Problem, st: &State, out: &mut [bool]) -> bool {
        // The verdict and pushes do not depend on the box pushed last (it only picks the
        // corrals the corral search tests): those of the same position analysed last serve.
        let verdict = match self.analysed {
            Some((key, v)) if key == st.key(p) => v,
            _ => self.analyse_corrals(p, st, NONE),
        };
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
        self.matcher.perfect(&self.costs, st.boxes.len(), ng)
    }

    /// The same matching on the problem with the position's boxes frozen on goals made
    /// walls (when there are any): the other boxes to the empty goals, with the push
    /// distances and side classes that know the new walls.
    fn matchable_reduced(&mut self, p: &Problem, st: &State) -> bool {
        let Some(reduced) = self.reduced.as_mut() else { return true };
        let ok = reduced.matchable(p, &st.boxes, &|s| st.box_at[s as usize] != NONE, st.player);
        self.reduced_cuts += !ok as u64;
        ok
    }
}
