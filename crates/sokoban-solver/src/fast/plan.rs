//! The packing plan: the order in which to fill the goals, from a backward analysis of the
//! solved position (as in FESS), and what follows from it.
//!
//! Two analyses give plans. The fast search's plan comes from the *packing search*
//! ([`super::back::Backward::packing`], Festival's way): a search over macro pulls in which
//! boxes leave the board on start squares; [`Plan::from_pulls`] plays its pulls forward.
//! The greedy removals below are its fallback (and the plan where they relax fewer steps)
//! and the base of the cluster-first plans.
//!
//! Start with a box on every goal. Repeatedly take one box out: pull it (the reverse game,
//! the other boxes on their goals standing still, the player coming from outside) until it
//! reaches a square some box starts on — it "leaves the goal area". Among the boxes that
//! can leave, the one that gets off the goals in the fewest pulls goes first (then the one
//! nearest the way out): the goals by the ways out are emptied first, so they are filled
//! last. When no box can leave, the player may start anywhere next to the box; when still
//! none can, one box is *parked*: pulled off its goal to the nearest square off the goals
//! that a box could be pushed to from the start, where it stays in the way until it can
//! leave; when no box can even be parked, the one reaching the most squares goes. Those
//! steps count as relaxed. Each removal is also checked against the boxes there are
//! (*supply*): forward, the goals still filled after it come first, so with those goals as
//! walls every other goal must get a start box of its own that can be pushed to it (push
//! distances of that walled board, the player followed round the box; a matching). The
//! first removal in the order above that passes is taken; when none does, the first. The
//! pull search alone lets many boxes leave by one way out where one box starts: in XSokoban
//! 14 it filled the goals by the room's only shaft first, and the boxes below could no
//! longer get in (solved in 11 s with the check, never without).
//!
//! The plan is the backward analysis reversed, as *steps*: fill a goal, or bring a box to
//! a parking square (it moves on to its goal at a later step). A position has done `k`
//! steps when the first `k` hold: the goal holds a box; the parking square does, or a
//! square further along its box's stops does by a step among the `k` (a box moved on
//! early does not count: see [`Plan::packed`]). Parking matters: in XSokoban 87 the goals
//! of one row can only be filled from a pocket the boxes must reach before the rows below
//! are filled; without the parking steps the search fills those rows first and never
//! recovers. Its *out-of-plan* boxes are those standing where, once the next goals of the
//! plan are filled, no goal still empty can be reached: the zone for each number of goals
//! filled is computed before the search (looking one change ahead, as Festival does), from
//! reachability tables with the filled goals as walls. Goals next to each other form a
//! *cluster* (for the picture).

use sokoban_path::{BoxReach, Cells};

use super::board::Layout;
use crate::analysis::goal_reach::GoalReach;
use crate::analysis::problem::{Problem, INF_DIST, NONE};

/// Beyond this much work (goals² × squares) the backward analysis is skipped and the goals
/// are ordered by distance (farthest from the boxes first), and there are no out-of-plan
/// zones.
const MAX_WORK: usize = 10_000_000;

/// The packing plan of a level.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Goal numbers (indices into `Problem::goals`) in packing order.
    pub order: Vec<u16>,
    /// Each goal's place in the order.
    pub place: Vec<u16>,
    /// The cluster of each goal number.
    pub cluster: Vec<u16>,
    /// Each goal's place in its cluster's order.
    pub rank: Vec<u16>,
    /// Per cluster, its goal numbers in packing order.
    pub clusters: Vec<Vec<u16>>,
    /// Removals that found no way out and were relaxed.
    pub relaxed: usize,
    /// True when the level was small enough for the backward analysis (else the goals are
    /// ordered by distance).
    pub analysed: bool,
    /// Per packed count `k`, a bitset over the squares (`zone_words` words): the out-of-plan
    /// zone. Empty when the analysis was too large.
    zones: Vec<u64>,
    zone_words: usize,
    /// Count packed goals per cluster (each cluster's filled prefix, summed) instead of as
    /// one prefix of the whole order; then the boxes out of plan are those on goals past
    /// their cluster's prefix.
    pub per_cluster: bool,
    /// The plan as steps (see [`Step`]): the goals in packing order, with the parking the
    /// backward analysis needed put where the boxes must be parked.
    pub steps: Vec<Step>,
    /// Per number of steps done, the goals filled by them.
    goals_done: Vec<u16>,
    /// Per square, the step that puts a box there (`NONE`: none), and the step that takes a
    /// parked box away from it (`NONE`: none).
    fill_step: Vec<u16>,
    vacate_step: Vec<u16>,
    /// Per step, the step that moves its parked box on (`NONE`: a goal step).
    onward: Vec<u16>,
    /// Parking steps count as done only by steps done (see [`Plan::packed`]).
    pub until: bool,
    /// Made by the packing search by Festival's rules
    /// ([`super::schedule::packing_search_plan`]): taken over the greedy removals' even
    /// where it relaxes more, and followed even where the dead-prefix test fails it, a test
    /// that does not tell Festival's orders from ours (bench/festival-plans.md).
    pub festival: bool,
}

/// One step of the plan: a box onto `square`. A goal is filled for good; a parking square
/// (`then` is not `NONE`) holds its box until a later step moves it on to square `then`
/// (a goal, or the next parking square), and counts as done while it holds a box or once
/// that later step is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub square: u16,
    pub then: u16,
}

impl Plan {
    /// The plan for a level whose boxes start on `start` (compact squares).
    pub fn new(p: &Problem, layout: &Layout, start: &[u16]) -> Plan {
        Self::with_bias(p, layout, start, None, true)
    }

    /// [`Plan::new`], with or without the supply check of its removals (an experiment).
    pub fn with_supply(p: &Problem, layout: &Layout, start: &[u16], supply: bool) -> Plan {
        Self::with_bias(p, layout, start, None, supply)
    }

    /// An alternative plan that fills the goals of cluster `first` before any other (the
    /// backward analysis takes the other clusters' boxes out first) and, among the boxes
    /// that can leave, takes out first the one whose way out is farthest. `None` when the
    /// level has one cluster or the analysis is too large.
    pub fn cluster_first(
        p: &Problem,
        layout: &Layout,
        start: &[u16],
        first: u16,
        supply: bool,
    ) -> Option<Plan> {
        let ng = p.goals.len();
        let (_, clusters) = goal_clusters(p);
        (clusters > 1 && (first as usize) < clusters && ng * ng * p.n <= MAX_WORK)
            .then(|| Self::with_bias(p, layout, start, Some(first), supply))
    }

    fn with_bias(
        p: &Problem,
        layout: &Layout,
        start: &[u16],
        first: Option<u16>,
        supply: bool,
    ) -> Plan {
        let ng = p.goals.len();
        let small = ng * ng * p.n <= MAX_WORK;
        let (steps, relaxed) = if small {
            backward_order(p, layout, start, first, supply)
        } else {
            (goal_steps(p, &distance_order(p, start)), 0)
        };
        Self::from_steps(p, steps, relaxed)
    }

    /// A plan without an order: every goal a cluster of its own, so that the packed count is
    /// the number of goals holding a box and no box is out of plan (the HF search's target,
    /// an imagined position reached in any order, as Festival counts it).
    pub fn unordered(p: &Problem, start: &[u16]) -> Plan {
        let mut plan = Self::from_order(p, distance_order(p, start), 0);
        let ng = p.goals.len();
        plan.per_cluster = true;
        plan.cluster = (0..ng as u16).collect();
        plan.rank = vec![0; ng];
        plan.clusters = (0..ng as u16).map(|j| vec![j]).collect();
        plan
    }

    /// Number of goal clusters.
    pub fn cluster_count(&self) -> usize {
        self.clusters.len()
    }

    /// The plan with a given packing order (goal numbers, all of them once).
    pub fn from_order(p: &Problem, order: Vec<u16>, relaxed: usize) -> Plan {
        Self::from_steps(p, goal_steps(p, &order), relaxed)
    }

    /// The plan of a list of steps (every goal filled by exactly one step).
    pub fn from_steps(p: &Problem, steps: Vec<Step>, relaxed: usize) -> Plan {
        let ng = p.goals.len();
        let order: Vec<u16> = steps
            .iter()
            .filter(|st| st.then == NONE)
            .map(|st| p.goals.binary_search(&st.square).expect("a goal step") as u16)
            .collect();
        debug_assert_eq!(order.len(), ng);
        let small = ng * ng * p.n <= MAX_WORK;
        let (cluster, n_clusters) = goal_clusters(p);
        let mut clusters: Vec<Vec<u16>> = vec![Vec::new(); n_clusters];
        let mut place = vec![0u16; ng];
        let mut rank = vec![0u16; ng];
        for (k, &j) in order.iter().enumerate() {
            place[j as usize] = k as u16;
            let c = &mut clusters[cluster[j as usize] as usize];
            rank[j as usize] = c.len() as u16;
            c.push(j);
        }
        let StepTables { goals_done, fill_step, vacate_step, onward } = step_tables(p, &steps);
        let zone_words = p.n.div_ceil(64);
        let zones = if small { out_of_plan_zones(p, &order, &place) } else { Vec::new() };
        Plan {
            order,
            place,
            cluster,
            rank,
            clusters,
            relaxed,
            analysed: small,
            zones,
            zone_words,
            per_cluster: false,
            steps,
            goals_done,
            fill_step,
            vacate_step,
            onward,
            until: true,
            festival: false,
        }
    }

    /// The plan of a packing search's pulls ([`super::back::Backward::pulls_to`]): from
    /// the solved position, each pull takes a box from a square to another, and a box
    /// pulled onto a start square no box has taken yet leaves the board. Played forward,
    /// each stop of a box becomes a step (consecutive pulls of one box are one stop, and a
    /// pull that leaves its box where it stood is none): its
    /// goal at its last stop, a parking square before. Boxes still on the board at the end
    /// and not on a start square of their own are relaxed: their squares are the first
    /// steps (as are goals whose box never moved).
    pub fn from_pulls(p: &Problem, start: &[u16], pulls: &[(u16, u16)]) -> Plan {
        let ng = p.goals.len();
        let mut is_start = vec![false; p.n];
        for &s in start {
            is_start[s as usize] = true;
        }
        let mut used = vec![false; p.n];
        let mut who = vec![NONE; p.n];
        let mut stops: Vec<Vec<u16>> = Vec::with_capacity(ng);
        for (j, &g) in p.goals.iter().enumerate() {
            who[g as usize] = j as u16;
            stops.push(vec![g]);
        }
        let mut removed = vec![false; ng];
        // Per stop made, the goal number of its box and the stop's place in its list.
        let mut events: Vec<(u16, usize)> = Vec::new();
        let mut last: Option<(u16, u16)> = None; // box and its square after the last pull
        for &(from, to) in pulls {
            let j = who[from as usize];
            debug_assert!(j != NONE, "a pull moves a box");
            if j == NONE {
                continue;
            }
            // A macro pull that brings its box back to its square (the player ends on
            // another side) is no stop of the box: as a step it would park the box where
            // it already stands.
            let leaves = is_start[to as usize] && !used[to as usize];
            if from == to && !leaves {
                continue;
            }
            who[from as usize] = NONE;
            if last == Some((j, from)) {
                *stops[j as usize].last_mut().expect("a stop") = to;
            } else {
                stops[j as usize].push(to);
                events.push((j, stops[j as usize].len() - 1));
            }
            if is_start[to as usize] && !used[to as usize] {
                used[to as usize] = true;
                removed[j as usize] = true;
                last = None;
            } else {
                who[to as usize] = j;
                last = Some((j, to));
            }
        }
        let mut steps = Vec::with_capacity(events.len() + ng);
        let mut relaxed = 0;
        for j in 0..ng {
            if removed[j] {
                continue;
            }
            let list = &stops[j];
            let x = *list.last().expect("a stop");
            let placed = is_start[x as usize] && !used[x as usize];
            if list.len() == 1 {
                relaxed += !placed as usize;
                steps.push(Step { square: x, then: NONE });
            } else if !placed {
                relaxed += 1;
                steps.push(Step { square: x, then: list[list.len() - 2] });
            }
        }
        for &(j, i) in events.iter().rev() {
            let list = &stops[j as usize];
            let then = if i >= 2 { list[i - 2] } else { NONE };
            steps.push(Step { square: list[i - 1], then });
        }
        Self::from_steps(p, steps, relaxed)
    }

    /// The plan without its parking steps (the same goal order).
    pub fn without_parking(&self, p: &Problem) -> Plan {
        let steps = goal_steps(p, &self.order);
        let StepTables { goals_done, fill_step, vacate_step, onward } = step_tables(p, &steps);
        // The order, clusters and zones stay: they follow from the goal order alone.
        Plan { steps, goals_done, fill_step, vacate_step, onward, ..self.clone() }
    }

    /// Steps that park boxes.
    pub fn parking_steps(&self) -> usize {
        self.steps.len() - self.order.len()
    }

    /// True when square `sq` is the parking square of one of the first `done` steps.
    pub fn parks_before(&self, sq: u16, done: u16) -> bool {
        let k = self.fill_step[sq as usize];
        k != NONE && k < done && self.steps[k as usize].then != NONE
    }

    /// The goals filled by a position's packed count (`steps` steps done; per cluster,
    /// already a count of goals).
    pub fn goals_done(&self, steps: u16) -> u16 {
        if self.per_cluster {
            return steps;
        }
        self.goals_done.get(steps as usize).copied().unwrap_or(steps)
    }

    /// Packed goals and boxes out of plan of a position (`occupied[s]` where a box is,
    /// `boxes` the box squares).
    pub fn packing(
        &self,
        p: &Problem,
        occupied: &[bool],
        boxes: impl Iterator<Item = u16>,
    ) -> (u16, u16) {
        if self.per_cluster {
            let (mut packed, mut filled) = (0, 0);
            for c in &self.clusters {
                let (k, f) = cluster_packing(p, c, |s| occupied[s as usize]);
                (packed, filled) = (packed + k, filled + f);
            }
            return (packed as u16, filled as u16);
        }
        let packed = self.packed(p, occupied);
        (packed, self.out_of_plan(packed, boxes))
    }

    /// Boxes out of plan among `boxes` with `packed` steps done.
    fn out_of_plan(&self, packed: u16, boxes: impl Iterator<Item = u16>) -> u16 {
        boxes.filter(|&b| self.box_out_of_plan(packed, b)).count() as u16
    }

    /// True when a box on `s` is out of plan with `packed` steps done: in the zone and not
    /// one those steps put in place.
    #[inline]
    fn box_out_of_plan(&self, packed: u16, s: u16) -> bool {
        !self.holds_step(packed, s) && self.out_of_plan_at(packed, s)
    }

    /// [`Plan::packing`] of the child of a position whose packing was `base`, the box on
    /// `from` gone to `to` (`occupied` and `boxes` the child's): the packed count reads only
    /// the squares of steps (every goal is one), and whether a box is out of plan depends on
    /// its square and that count alone, so where the count stays the boxes out of plan
    /// change by the move's two squares alone.
    pub fn packing_moved(
        &self,
        p: &Problem,
        occupied: &[bool],
        boxes: impl Iterator<Item = u16>,
        base: (u16, u16),
        from: u16,
        to: u16,
    ) -> (u16, u16) {
        let on_step = |s: u16| self.fill_step[s as usize] != NONE;
        if self.per_cluster {
            if !(on_step(from) || on_step(to)) {
                return base;
            }
            let moved = self.clusters_moved(p, occupied, base, from, to);
            debug_assert_eq!(moved, self.packing(p, occupied, boxes));
            return moved;
        }
        let packed = if on_step(from) || on_step(to) { self.packed(p, occupied) } else { base.0 };
        if packed != base.0 {
            return (packed, self.out_of_plan(packed, boxes));
        }
        let out = |s: u16| self.box_out_of_plan(packed, s) as u16;
        let moved = (packed, base.1 - out(from) + out(to));
        debug_assert_eq!(moved, self.packing(p, occupied, boxes));
        moved
    }

    /// [`Plan::packing_moved`] counted per cluster, the move touching a goal: only the
    /// clusters of the goals on `from` and `to` can change, each counted before and after.
    fn clusters_moved(
        &self,
        p: &Problem,
        occupied: &[bool],
        base: (u16, u16),
        from: u16,
        to: u16,
    ) -> (u16, u16) {
        let child = |s: u16| occupied[s as usize];
        let parent = super::board::before_move(occupied, from, to);
        let (mut packed, mut filled) = (base.0 as i32, base.1 as i32);
        let mut done = NONE;
        for s in [from, to] {
            let Ok(j) = p.goals.binary_search(&s) else { continue };
            let c = self.cluster[j];
            if c == done {
                continue;
            }
            done = c;
            let goals = &self.clusters[c as usize];
            let (after, before) =
                (cluster_packing(p, goals, child), cluster_packing(p, goals, parent));
            packed += after.0 as i32 - before.0 as i32;
            filled += after.1 as i32 - before.1 as i32;
        }
        (packed as u16, filled as u16)
    }

    /// Steps of the plan done: the longest prefix of the steps whose boxes are in place
    /// (`occupied[s]` where a box is).
    ///
    /// A parking step is done while its square holds a box, or once its box has moved on
    /// (a square further along its stops holds one) *by a step done*: a parked box moved
    /// on before its time leaves its parking step undone (XSokoban 88: the box parked in
    /// the doorway, pushed on to its goal early, shut the goals behind it off while the
    /// plan counted 14 of 23 goals packed).
    #[inline]
    pub fn packed(&self, _p: &Problem, occupied: &[bool]) -> u16 {
        let mut m = 0;
        while let Some(st) = self.steps.get(m) {
            let done = occupied[st.square as usize]
                || (st.then != NONE && self.moved_on(m, occupied) != NONE);
            if !done {
                break;
            }
            m += 1;
        }
        if self.until && self.steps.len() > self.order.len() {
            for (k, st) in self.steps[..m].iter().enumerate() {
                if st.then != NONE && !occupied[st.square as usize] {
                    let at = self.moved_on(k, occupied);
                    if at as usize >= m {
                        return k as u16;
                    }
                }
            }
        }
        m as u16
    }

    /// The first step after parking step `k` along its box's stops whose square holds a
    /// box (`NONE`: none).
    #[inline]
    fn moved_on(&self, k: usize, occupied: &[bool]) -> u16 {
        let mut i = self.onward[k];
        while i != NONE {
            if occupied[self.steps[i as usize].square as usize] {
                return i;
            }
            i = self.onward[i as usize];
        }
        NONE
    }

    /// True when a box on `s` is one the first `done` steps put in place and no step among
    /// them or the next moves on.
    #[inline]
    fn holds_step(&self, done: u16, s: u16) -> bool {
        self.fill_step[s as usize] < done && self.vacate_step[s as usize] > done
    }

    /// True when square `s` is in the out-of-plan zone of a position with `packed` goals
    /// packed.
    #[inline]
    pub fn out_of_plan_at(&self, packed: u16, s: u16) -> bool {
        let at = self.goals_done(packed) as usize * self.zone_words + s as usize / 64;
        self.zones.get(at).is_some_and(|w| w >> (s % 64) & 1 != 0)
    }

    /// Where the plan goes next, written into `out` (read by [`Plan::next_squares`] and
    /// [`Plan::box_packed`]): per cluster its first empty goal number (`NONE` for a full
    /// cluster), or with one sequence of steps the steps done.
    pub fn next_goals(&self, p: &Problem, occupied: &[bool], out: &mut Vec<u16>) {
        out.clear();
        let empty = |j: &&u16| !occupied[p.goals[**j as usize] as usize];
        if self.per_cluster {
            for c in &self.clusters {
                out.push(c.iter().find(empty).copied().unwrap_or(NONE));
            }
        } else {
            out.push(self.packed(p, occupied));
        }
    }

    /// The squares the next steps put a box on, given [`Plan::next_goals`].
    pub fn next_squares<'a>(
        &'a self,
        p: &'a Problem,
        next: &'a [u16],
    ) -> impl Iterator<Item = u16> + 'a {
        next.iter().filter_map(move |&x| {
            if self.per_cluster {
                (x != NONE).then(|| p.goals[x as usize])
            } else {
                self.steps.get(x as usize).map(|st| st.square)
            }
        })
    }

    /// True when the box on square `s` (goal number `j`, `NONE` off the goals) is in place
    /// by the plan, given [`Plan::next_goals`]: on a goal already packed, or parked by a
    /// step done and not the next to move on.
    pub fn box_packed(&self, s: u16, j: u16, next: &[u16]) -> bool {
        if self.per_cluster {
            if j == NONE {
                return false;
            }
            let n = next[self.cluster[j as usize] as usize];
            return n == NONE || self.rank[j as usize] < self.rank[n as usize];
        }
        self.holds_step(next[0], s)
    }

    /// True when the plan can be followed from the start: the board is small enough for
    /// [`Plan::first_dead_prefix`] and no prefix of the order is dead. Where it cannot, the
    /// packed count may not rise for long however well a search does (XSokoban 16: the
    /// rules strategy packs no goal in its first 40,000 moves and solves it after 152,000).
    pub fn followable(
        &self,
        p: &Problem,
        board: &sokoban_core::Board,
        start: &[u16],
        player: u16,
    ) -> bool {
        self.dead_prefix(p, board, start, player) == Some(None)
    }

    /// [`Plan::followable`] with a check already made for the same start (its walled
    /// problems are kept between plans).
    pub(crate) fn followable_with(&self, p: &Problem, check: &mut PrefixSupply) -> bool {
        self.dead_prefix_with(p, check).is_none()
    }

    /// For studying plans: the fewest goals of the packing order (`k`, from 1) after which,
    /// those goals walls and no other box moved, the boxes on `start` can no longer fill
    /// every goal: no matching gives each of the first `k` goals a box that reaches it on
    /// the board and each other goal one that reaches it on the walled board from the
    /// player's side (push distances of the walled problem, as the search's own matching).
    /// `None` when every prefix passes, or the board is too large for walled problems.
    /// The check ignores the plan's parking steps: on a plan that parks, a dead prefix
    /// says the boxes must be moved before those goals are filled, not that the plan is
    /// wrong (XSokoban 50, 66, 69 fail at 1 or 2 goals in every plan; 69 has no solution
    /// that does not first move boxes through its goal room from one side to the other,
    /// as its parking plan does: `bench/decisions.md`, why 50, 66 and 69 park).
    pub fn first_dead_prefix(
        &self,
        p: &Problem,
        board: &sokoban_core::Board,
        start: &[u16],
        player: u16,
    ) -> Option<usize> {
        self.dead_prefix(p, board, start, player).flatten()
    }

    /// [`Plan::first_dead_prefix`], `None` when the board is too large for walled problems
    /// and `Some(None)` when every prefix passes.
    fn dead_prefix(
        &self,
        p: &Problem,
        board: &sokoban_core::Board,
        start: &[u16],
        player: u16,
    ) -> Option<Option<usize>> {
        let mut check = PrefixSupply::new(p, board, start, player)?;
        Some(self.dead_prefix_with(p, &mut check))
    }

    /// The fewest goals of the order that, filled first, fail `check`; `None`: none.
    pub(crate) fn dead_prefix_with(&self, p: &Problem, check: &mut PrefixSupply) -> Option<usize> {
        let mut walled = vec![false; p.goals.len()];
        (1..p.goals.len()).find(|&k| {
            walled[self.order[k - 1] as usize] = true;
            !check.passes(p, &walled)
        })
    }
}

/// The dead-prefix test of a set of goals filled first: with those goals walls and no other
/// box moved, can the boxes where they start still fill every goal? A matching gives each
/// goal of the set a box that reaches it on the board, and each other goal one that reaches
/// it on the walled board from the player's side (push distances of the walled problem, as
/// the search's own matching).
pub(crate) struct PrefixSupply {
    reduced: crate::analysis::fixed::Reduced,
    matcher: crate::analysis::matching::Matcher,
    start: Vec<u16>,
    player: u16,
    /// Per start box, the push distance to each goal on the board (from the player's side).
    board_rows: Vec<u16>,
    walls: Vec<u16>,
    costs: Vec<u16>,
    row: Vec<u16>,
}

impl PrefixSupply {
    /// The check for boxes on `start` and the player on `player`; `None` on boards too
    /// large for walled problems.
    pub(crate) fn new(
        p: &Problem,
        board: &sokoban_core::Board,
        start: &[u16],
        player: u16,
    ) -> Option<PrefixSupply> {
        let reduced = crate::analysis::fixed::Reduced::new(board, p, 64 << 20)?;
        let ng = p.goals.len();
        let mut board_rows = vec![INF_DIST; start.len() * ng];
        for (i, &b) in start.iter().enumerate() {
            p.cost_row(b, p.player_class(b, player), &mut board_rows[i * ng..(i + 1) * ng]);
        }
        Some(PrefixSupply {
            reduced,
            matcher: crate::analysis::matching::Matcher::default(),
            start: start.to_vec(),
            player,
            board_rows,
            walls: Vec::with_capacity(ng),
            costs: vec![INF_DIST; start.len() * ng],
            row: vec![INF_DIST; ng],
        })
    }

    /// True when, the goals `walled[j]` filled first, the boxes can still fill every goal.
    pub(crate) fn passes(&mut self, p: &Problem, walled: &[bool]) -> bool {
        let (ng, nb) = (p.goals.len(), self.start.len());
        self.walls.clear();
        self.walls.extend((0..ng).filter(|&j| walled[j]).map(|j| p.goals[j]));
        if self.walls.is_empty() || self.walls.len() == ng {
            return true;
        }
        let r = self.reduced.get(p, &self.walls);
        let rp = r.compact[p.board_sq[self.player as usize]];
        self.costs.fill(INF_DIST);
        for (i, &b) in self.start.iter().enumerate() {
            let rb = r.compact[p.board_sq[b as usize]];
            if rb != NONE {
                let class = if rp == NONE { u8::MAX } else { r.player_class(rb, rp) };
                r.cost_row(rb, class, &mut self.row[..r.goals.len()]);
            }
            // The walled problem's goals are the goals not walled, in the same order.
            let mut rj = 0;
            for j in 0..ng {
                let c = &mut self.costs[i * ng + j];
                if walled[j] {
                    *c = match rb {
                        NONE if p.goals[j] == b => 0,
                        NONE => INF_DIST,
                        _ => self.board_rows[i * ng + j],
                    };
                } else {
                    if rb != NONE {
                        *c = self.row[rj];
                    }
                    rj += 1;
                }
            }
        }
        self.matcher.perfect(&self.costs, nb, ng)
    }
}

/// Per number of steps done, the goals filled by them; per square, the step that puts a
/// box there and the step that takes a parked box away (`NONE`: none).
fn step_tables(p: &Problem, steps: &[Step]) -> StepTables {
    let mut goals_done = vec![0u16; steps.len() + 1];
    let mut fill_step = vec![NONE; p.n];
    let mut vacate_step = vec![NONE; p.n];
    let mut onward = vec![NONE; steps.len()];
    for (i, st) in steps.iter().enumerate() {
        goals_done[i + 1] = goals_done[i] + (st.then == NONE) as u16;
        let f = &mut fill_step[st.square as usize];
        if *f == NONE {
            *f = i as u16;
        }
        if st.then != NONE {
            let next = (i + 1..steps.len()).find(|&k| steps[k].square == st.then);
            onward[i] = next.map_or(NONE, |k| k as u16);
            vacate_step[st.square as usize] = onward[i];
        }
    }
    StepTables { goals_done, fill_step, vacate_step, onward }
}

/// What [`step_tables`] derives from the steps (see the fields of [`Plan`]).
struct StepTables {
    goals_done: Vec<u16>,
    fill_step: Vec<u16>,
    vacate_step: Vec<u16>,
    onward: Vec<u16>,
}

/// The steps that fill the goals in `order` (goal numbers), one each.
fn goal_steps(p: &Problem, order: &[u16]) -> Vec<Step> {
    order.iter().map(|&j| Step { square: p.goals[j as usize], then: NONE }).collect()
}

/// Per step `k` (`k` goals packed), the squares from which a box can no longer reach any
/// goal after the next one is filled (the plan's first `k + 1` goals as walls), dead
/// squares left out; each step then takes the zone of the next step where the zone
/// changes, so boxes are asked to leave before they are shut in (Festival's rule). The
/// last step has no zone.
fn out_of_plan_zones(p: &Problem, order: &[u16], place: &[u16]) -> Vec<u64> {
    let ng = order.len();
    let words = p.n.div_ceil(64);
    let mut zones = vec![0u64; ng.max(1) * words];
    let mut reach = GoalReach::new(p);
    let mut wall = vec![false; p.n];
    for k in 0..ng.saturating_sub(1) {
        wall[p.goals[order[k] as usize] as usize] = true;
        let walls = order[..=k].iter().map(|&j| p.goals[j as usize]);
        let table = reach.table(p, walls, |j| place[j] as usize > k);
        let zone = &mut zones[k * words..(k + 1) * words];
        for s in 0..p.n {
            let row = &table[s * reach.words..(s + 1) * reach.words];
            if !wall[s] && !p.dead[s] && row.iter().all(|&w| w == 0) {
                zone[s / 64] |= 1 << (s % 64);
            }
        }
    }
    // Look one change ahead: the steps up to a change take the changed zone.
    let mut last = 0;
    let mut current = vec![0u64; words];
    for i in 0..ng.saturating_sub(1) {
        let zone = zones[i * words..(i + 1) * words].to_vec();
        if zone == current {
            continue;
        }
        for m in last..=i {
            zones[m * words..(m + 1) * words].copy_from_slice(&zone);
        }
        current = zone;
        last = i;
    }
    zones
}

/// A cluster's packing (`c` its goal numbers in order, `occ(s)` where a box is): the goals
/// of its filled prefix, and the goals past it holding a box.
fn cluster_packing(p: &Problem, c: &[u16], occ: impl Fn(u16) -> bool) -> (usize, usize) {
    let mut k = 0;
    while k < c.len() && occ(p.goals[c[k] as usize]) {
        k += 1;
    }
    (k, c[k..].iter().filter(|&&j| occ(p.goals[j as usize])).count())
}

/// Goals connected through goals next to each other: the cluster of each goal number, and
/// the number of clusters.
fn goal_clusters(p: &Problem) -> (Vec<u16>, usize) {
    let ng = p.goals.len();
    let mut goal_no = vec![NONE; p.n];
    for (j, &g) in p.goals.iter().enumerate() {
        goal_no[g as usize] = j as u16;
    }
    let mut cluster = vec![NONE; ng];
    let mut count = 0u16;
    let mut stack = Vec::new();
    for j in 0..ng {
        if cluster[j] != NONE {
            continue;
        }
        cluster[j] = count;
        stack.push(j as u16);
        while let Some(k) = stack.pop() {
            let g = p.goals[k as usize];
            for &t in &p.nbr[g as usize] {
                if t != NONE && goal_no[t as usize] != NONE {
                    let m = goal_no[t as usize] as usize;
                    if cluster[m] == NONE {
                        cluster[m] = count;
                        stack.push(m as u16);
                    }
                }
            }
        }
        count += 1;
    }
    (cluster, count as usize)
}

/// Goals ordered by how far they are from the nearest starting box, farthest first.
fn distance_order(p: &Problem, start: &[u16]) -> Vec<u16> {
    let n = p.n;
    let mut far: Vec<(u16, u16)> = (0..p.goals.len())
        .map(|j| {
            let d = start.iter().map(|&s| p.dist[j * n + s as usize]).min().unwrap_or(INF_DIST);
            (d, j as u16)
        })
        .collect();
    far.sort_by_key(|&(d, j)| (std::cmp::Reverse(d), j));
    far.into_iter().map(|(_, j)| j).collect()
}

/// Most supply checks of a backward analysis, per goal (each builds a problem; past them
/// the removals go unchecked).
const SUPPLY_CHECKS: usize = 4;

/// The backward analysis (see the module doc): the packing order and the relaxed steps.
/// With `first`, the goals of that cluster are taken out last (filled first), and the box
/// with the farthest way out leaves first; `supply`: removals are supply-checked.
fn backward_order(
    p: &Problem,
    layout: &Layout,
    start: &[u16],
    first: Option<u16>,
    supply: bool,
) -> (Vec<Step>, usize) {
    let (cluster, _) = goal_clusters(p);
    let ng = p.goals.len();
    let grid = &layout.grid;
    let mut exit = vec![false; p.n];
    for &s in start {
        if !p.is_goal[s as usize] {
            exit[s as usize] = true;
        }
    }
    if !exit.iter().any(|&e| e) {
        // Every box starts on a goal: any square off the goals is a way out.
        for s in 0..p.n {
            exit[s] = !p.is_goal[s];
        }
    }
    // Cells with a box on every goal still filled. (Pulls never reach a dead square: the
    // pushes back from there would reach the goal.)
    let mut cells: Cells = layout.base.clone();
    let mut filled = vec![true; ng];
    for &g in &p.goals {
        cells.block(grid, layout.pad[g as usize] as usize);
    }
    let mut reach = BoxReach::new(grid);
    // Squares a box can be pushed to from where some box starts, on the empty board: the
    // only places a box can be parked (a box parked elsewhere could never have come).
    let mut arrive = vec![false; p.n];
    for &s0 in start {
        let i = layout.pad[s0 as usize] as usize;
        reach.search(grid, &layout.base, i, layout.base.free_sides(i));
        for &node in reach.reached() {
            let s = layout.compact[node as usize / 4];
            if s != NONE {
                arrive[s as usize] = true;
            }
        }
    }
    // The steps backwards: a box taken off a goal (to the way out or to a parking square:
    // `then` = NONE), or a parked box leaving its square (`then` = the goal it came from).
    let mut back_steps: Vec<Step> = Vec::with_capacity(ng);
    let mut relaxed = 0;
    let mut area = vec![false; p.n];
    let mut stack = Vec::with_capacity(p.n);
    // Parked boxes: (square, the goal square they came from).
    let mut parked: Vec<(u16, u16)> = Vec::new();
    let mut supply = supply.then(|| Supply::new(p, &layout.board, start)).flatten();
    for _ in 0..ng {
        outside_area(p, &filled, &exit, &mut area, &mut stack);
        // Boxes parked earlier leave as soon as they can.
        parked.retain(|&(q, g)| {
            pull_search(layout, &mut cells, &mut reach, q, None);
            let out = reach.reached().iter().any(|&node| {
                let s = layout.compact[node as usize / 4];
                s != NONE && exit[s as usize]
            });
            if out {
                cells.unblock(grid, layout.pad[q as usize] as usize);
                back_steps.push(Step { square: q, then: g });
            }
            !out
        });
        let mut pick = None;
        let mut fallback = None;
        for player_anywhere in [false, true] {
            let side_ok = |j: usize, d: usize| {
                let t = p.nbr[p.goals[j] as usize][d];
                filled[j] && t != NONE && (player_anywhere || area[t as usize])
            };
            let key = |j: usize, leave: u32, out: u32| match first {
                None => (0, leave, out),
                Some(c) => ((cluster[j] == c) as u32, u32::MAX - out, leave),
            };
            let cands = removable(p, layout, &mut cells, &mut reach, &exit, side_ok, key);
            if fallback.is_none() {
                fallback = cands.first().map(|&j| (j, player_anywhere));
            }
            pick = match supply.as_mut().filter(|sup| sup.checks < SUPPLY_CHECKS * ng) {
                Some(sup) => cands.iter().copied().find(|&j| sup.check(p, &filled, j as usize)),
                None => cands.first().copied(),
            };
            if pick.is_some() {
                relaxed += player_anywhere as usize;
                break;
            }
        }
        if pick.is_none() {
            if let Some((j, anywhere)) = fallback {
                pick = Some(j);
                relaxed += anywhere as usize;
            }
        }
        let j = match pick {
            Some(j) => j,
            None => {
                relaxed += 1;
                // No box can get out: park one off its goal, on the nearest square off the
                // goals it can be pulled to (it stays there in the way of the others until
                // it can leave); or, when none can move at all, take out the one that gets
                // farthest.
                match park(p, layout, &mut cells, &mut reach, &filled, &arrive) {
                    Some((j, q)) => {
                        cells.block(grid, layout.pad[q as usize] as usize);
                        parked.push((q, p.goals[j as usize]));
                        j
                    }
                    None => farthest(p, layout, &mut cells, &mut reach, &filled),
                }
            }
        };
        filled[j as usize] = false;
        cells.unblock(grid, layout.pad[p.goals[j as usize] as usize] as usize);
        back_steps.push(Step { square: p.goals[j as usize], then: NONE });
    }
    // Boxes still parked at the end are parked first.
    back_steps.extend(parked.iter().map(|&(q, g)| Step { square: q, then: g }));
    let mut steps = back_steps;
    steps.reverse();
    (steps, relaxed)
}

/// The supply check of a removal: once the goals still filled after it are filled (forward,
/// they come first), can each goal left get a box of its own from the start, by pushes on
/// the board with the filled goals as walls (push distances that follow the player round
/// the box, from the best side of its start square)?
struct Supply {
    reduced: crate::analysis::fixed::Reduced,
    matcher: crate::analysis::matching::Matcher,
    start: Vec<u16>,
    walls: Vec<u16>,
    costs: Vec<u16>,
    /// Checks made (each builds the problem of a walled board).
    checks: usize,
}

impl Supply {
    fn new(p: &Problem, board: &sokoban_core::Board, start: &[u16]) -> Option<Supply> {
        Some(Supply {
            reduced: crate::analysis::fixed::Reduced::new(board, p, 64 << 20)?,
            matcher: crate::analysis::matching::Matcher::default(),
            start: start.to_vec(),
            walls: Vec::new(),
            costs: Vec::new(),
            checks: 0,
        })
    }

    /// True when, `filled` but goal `j` filled first, the other goals can be supplied.
    fn check(&mut self, p: &Problem, filled: &[bool], j: usize) -> bool {
        self.checks += 1;
        self.walls.clear();
        self.walls.extend((0..p.goals.len()).filter(|&k| filled[k] && k != j).map(|k| p.goals[k]));
        let r = self.reduced.get(p, &self.walls);
        let ng = r.goals.len();
        let have: Vec<u16> = self
            .start
            .iter()
            .filter(|s| !self.walls.contains(s))
            .map(|&s| r.compact[p.board_sq[s as usize]])
            .collect();
        let nh = have.len();
        self.costs.clear();
        self.costs.resize(ng * nh, INF_DIST);
        for k in 0..ng {
            for (b, &s) in have.iter().enumerate() {
                if s != NONE {
                    self.costs[k * nh + b] = r.dist[k * r.n + s as usize];
                }
            }
        }
        self.matcher.perfect(&self.costs, ng, nh)
    }
}

/// True when goal square `s` still holds its box in the backward analysis.
fn is_filled(p: &Problem, filled: &[bool], s: u16) -> bool {
    p.is_goal[s as usize] && filled[p.goals.binary_search(&s).expect("a goal")]
}

/// The player's squares when it comes from outside the goal area: those it can walk to
/// from the way out (`exit`), the boxes still on goals (`filled`) in the way.
fn outside_area(
    p: &Problem,
    filled: &[bool],
    exit: &[bool],
    area: &mut [bool],
    stack: &mut Vec<u16>,
) {
    area.fill(false);
    stack.clear();
    for s in 0..p.n {
        if exit[s] && !is_filled(p, filled, s as u16) {
            area[s] = true;
            stack.push(s as u16);
        }
    }
    while let Some(x) = stack.pop() {
        for &y in &p.nbr[x as usize] {
            if y != NONE && !area[y as usize] && !is_filled(p, filled, y) {
                area[y as usize] = true;
                stack.push(y);
            }
        }
    }
}

/// Of the goals whose box can be pulled out to the way out, the player starting on the
/// sides `side_ok(goal number, direction)` allows (none for a goal no longer filled), the
/// one of least `key(goal number, pulls to leave the goals, pulls to the way out)`.
fn removable(
    p: &Problem,
    layout: &Layout,
    cells: &mut Cells,
    reach: &mut BoxReach,
    exit: &[bool],
    side_ok: impl Fn(usize, usize) -> bool,
    key: impl Fn(usize, u32, u32) -> (u32, u32, u32),
) -> Vec<u16> {
    let mut all: Vec<((u32, u32, u32), u16)> = Vec::new();
    for (j, &g) in p.goals.iter().enumerate() {
        let sides = (0..4).filter(|&d| side_ok(j, d)).fold(0u8, |m, d| m | 1 << d);
        if sides == 0 {
            continue;
        }
        pull_search(layout, cells, reach, g, Some(sides));
        // Pulls to leave the goals, and to reach the way out (which must be possible).
        let (mut leave, mut out) = (u32::MAX, u32::MAX);
        for &node in reach.reached() {
            let s = layout.compact[node as usize / 4];
            if s == NONE || p.is_goal[s as usize] {
                continue;
            }
            let k = reach.pushes(node as usize).unwrap_or(u32::MAX);
            leave = leave.min(k);
            if exit[s as usize] {
                out = out.min(k);
            }
        }
        let key = key(j, leave, out);
        if out != u32::MAX {
            all.push((key, j as u16));
        }
    }
    all.sort_unstable();
    all.into_iter().map(|(_, j)| j).collect()
}

/// A box to park: of the filled goals, the one whose box can be pulled off the goals in the
/// fewest pulls (the player anywhere next to it), and the square off the goals it gets to;
/// `None` when no box can leave the goals at all.
fn park(
    p: &Problem,
    layout: &Layout,
    cells: &mut Cells,
    reach: &mut BoxReach,
    filled: &[bool],
    arrive: &[bool],
) -> Option<(u16, u16)> {
    let mut best: Option<(u32, u16, u16)> = None;
    for (j, &g) in p.goals.iter().enumerate() {
        if !filled[j] {
            continue;
        }
        pull_search(layout, cells, reach, g, None);
        for &node in reach.ends() {
            let s = layout.compact[node as usize / 4];
            if s == NONE || p.is_goal[s as usize] || !arrive[s as usize] {
                continue;
            }
            let k = reach.pushes(node as usize).unwrap_or(u32::MAX);
            if best.is_none_or(|(b, _, _)| k < b) {
                best = Some((k, j as u16, s));
            }
        }
    }
    best.map(|(_, j, s)| (j, s))
}

/// Of the filled goals, the one whose box reaches the most squares by pulls (the player
/// anywhere next to it).
fn farthest(
    p: &Problem,
    layout: &Layout,
    cells: &mut Cells,
    reach: &mut BoxReach,
    filled: &[bool],
) -> u16 {
    let mut best: Option<(usize, u16)> = None;
    for (j, &g) in p.goals.iter().enumerate() {
        if !filled[j] {
            continue;
        }
        pull_search(layout, cells, reach, g, None);
        let squares = reach.reached().len();
        if best.is_none_or(|(sq, _)| squares > sq) {
            best = Some((squares, j as u16));
        }
    }
    best.expect("a filled goal is left").1
}

/// Pull search of the box on compact square `s` (lifted off for the search and put back),
/// the player starting on the sides `sides` (`None`: every free side).
fn pull_search(
    layout: &Layout,
    cells: &mut Cells,
    reach: &mut BoxReach,
    s: u16,
    sides: Option<u8>,
) {
    let grid = &layout.grid;
    let i = layout.pad[s as usize] as usize;
    cells.unblock(grid, i);
    reach.search_pulls(grid, cells, i, sides.unwrap_or_else(|| cells.free_sides(i)));
    cells.block(grid, i);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unordered plan counts every goal holding a box, whichever it is, and puts no box
    /// out of plan.
    #[test]
    fn the_unordered_plan_counts_goals_holding_a_box_in_any_order() {
        let level =
            sokoban_core::format::parse_level("#######\n#.$ $.#\n#  @  #\n#.$ $.#\n#######")
                .unwrap();
        let p = Problem::new(&level.board);
        let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
        let plan = Plan::unordered(&p, &boxes);
        let mut occupied = vec![false; p.n];
        for (k, &g) in p.goals.iter().enumerate() {
            occupied[g as usize] = true;
            let on: Vec<u16> = p.goals[..=k].to_vec();
            assert_eq!(plan.packing(&p, &occupied, on.iter().copied()), (k as u16 + 1, 0));
            assert_eq!(plan.goals_done(k as u16 + 1), k as u16 + 1);
        }
        // Any one goal alone counts one.
        for &g in p.goals.iter() {
            let mut one = vec![false; p.n];
            one[g as usize] = true;
            assert_eq!(plan.packing(&p, &one, [g].into_iter()), (1, 0));
        }
    }

    /// A plan from pulls that park a box before its goal: the parking square counts as
    /// parked by a done step only once that step is done, and goal squares never do.
    #[test]
    fn parks_before_names_the_parking_squares_of_done_steps() {
        let level =
            sokoban_core::format::parse_level("########\n#..    #\n#   $$@#\n########").unwrap();
        let p = Problem::new(&level.board);
        let sq = |r, c| p.compact[level.board.square(r, c)];
        let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
        let (g1, g2, park) = (sq(1, 1), sq(1, 2), sq(2, 1));
        // Backward: the box of g1 to the parking square, the box of g2 off the board, then
        // the parked box off the board.
        let pulls = [(g1, park), (g2, sq(2, 5)), (park, sq(2, 4))];
        let plan = Plan::from_pulls(&p, &boxes, &pulls);
        assert_eq!(plan.parking_steps(), 1);
        assert_eq!(plan.steps[0], Step { square: park, then: g1 });
        assert!(!plan.parks_before(park, 0));
        assert!(plan.parks_before(park, 1) && plan.parks_before(park, 3));
        assert!(!plan.parks_before(g1, 3) && !plan.parks_before(g2, 3));
    }
}
