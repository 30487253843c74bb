//! The push-optimal search: IDA* over pushes with a minimum-cost matching lower bound
//! (and, where the boxes fall into groups that work apart, the sum of the groups' own
//! costs), a transposition table keyed on boxes plus the normalized player square, deadlock
//! pruning (dead squares, freeze, PI-corrals, corrals closed for good, boxes frozen on goals
//! that cut off empty goals), a forced-push rule that pushes a box on along a tunnel as one
//! step, and last-pushed-box-first move ordering. Boxes that can never move again on goals
//! at the start become walls.
//!
//! The IDA* engine: an explicit-stack depth-first search over pushes that can stop after
//! any number of nodes and resume, so one thread (a Web Worker) can interleave it with
//! message handling. No allocation per node: children, frames and bound snapshots live in
//! arenas that grow to the deepest path once.
//!
//! Beside it: `groups` (the bound as a sum over boxes that work apart) and `table` (its
//! transposition table).

pub(crate) mod groups;
pub(crate) mod table;

use crate::analysis::assign::{Assignment, INF_COST};
use crate::analysis::corral::{Corrals, Verdict};
use crate::analysis::deadlock::corral_search::CorralSearch;
use crate::analysis::deadlock::freeze_status;
use crate::analysis::fixed::{FixedGoals, Reduced};
use crate::analysis::problem::{Problem, INF_DIST, NONE};
use crate::optimal::groups::Groups;
use crate::optimal::table::{Table, DEAD};
use std::sync::Arc;

/// The bits of a table key taken from its bucket hash (see [`Engine::key`]).
const LOW_KEY: u64 = 0xFFFF_FFFF;

/// f-value meaning "no solution below this node".
pub const INF_F: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Child {
    box_id: u16,
    dir: u8,
    order: i16,
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    g: u32,
    /// Smallest f of the cut-off descendants: the node needs at least `min_f - g` more
    /// (proven once the iteration ends without a solution).
    min_f: u32,
    child_lo: u32,
    child_hi: u32,
    next: u32,
    tt_slot: u32,
    key: u64,
    /// The push that led here (unused at the root): box `box_id` went from `from` in
    /// direction `dir`, `pushes` times in a row (a forced run, see [`Engine::push_on`]).
    box_id: u16,
    from: u16,
    player_before: u16,
    dir: u8,
    pushes: u16,
}

/// One push of a solution: the box's square before the push (compact) and the direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Push {
    pub from: u16,
    pub dir: u8,
}

/// Append `count` pushes of one box in direction `dir`, starting from `from`, to a path.
fn push_run(p: &Problem, path: &mut Vec<Push>, from: u16, dir: u8, count: u32) {
    let mut s = from;
    for _ in 0..count {
        path.push(Push { from: s, dir });
        s = p.step(s, dir as usize);
    }
}

/// What [`Engine::run`] stopped for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The node budget of this call is used up; call again to go on.
    Budget,
    /// An iteration ended without a solution; the threshold was raised.
    IterationDone,
    /// A push-optimal solution.
    Solved(Vec<Push>),
    /// The search space is exhausted: no solution.
    Unsolvable,
}

/// Search statistics.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Current IDA* threshold (pushes).
    pub threshold: u32,
    /// Iterations started.
    pub iteration: u32,
    /// Nodes generated in the current iteration.
    pub nodes_iter: u64,
    /// Nodes generated in all.
    pub nodes: u64,
    /// Lower bound of the root.
    pub root_bound: u32,
    /// Nodes whose pushes were cut down to one PI-corral's.
    pub corral_prunes: u64,
    /// Nodes found dead by a PI-corral that can never be opened.
    pub corral_deadlocks: u64,
    /// Nodes where only the forced push of the last box was searched.
    pub forced: u64,
    /// Nodes where the last box can never move again (forced-push rule).
    pub forced_deadlocks: u64,
    /// Pushes made on along a forced run without stopping at the position between
    /// (see `Engine::push_on`): not counted as nodes.
    pub chained: u64,
    /// Corral deadlock tests: reduced searches run, their nodes, cache hits, deadlocks.
    pub corral_tests: crate::analysis::deadlock::corral_search::CorralStats,
    /// Pushes that left boxes frozen on goals (checked by `Reduced`, or `FixedGoals` on
    /// boards too large for it), and how many of those cut the other boxes off from the
    /// empty goals.
    pub fixed_checks: u64,
    pub fixed_deadlocks: u64,
    /// Pushes cut by the two-box deadlock table.
    pub pair_deadlocks: u64,
    /// Searches of single groups run for the group bound, and their nodes.
    pub group_searches: u64,
    pub group_nodes: u64,
}

/// The search state.
pub struct Engine {
    p: Arc<Problem>,
    boxes: Vec<u16>,
    box_at: Vec<u16>,
    player: u16,
    hash: u64,
    /// The box hash of the position's image under each board symmetry.
    sym_hash: Vec<u64>,
    /// The bucket and key of the current position, the smallest over its symmetric images.
    bucket: u64,
    /// Squares of the player's area after the last flood: `queue[..area]`.
    area: usize,
    /// The smallest of them.
    norm: u16,
    assign: Assignment,
    /// Assignment snapshots, one per depth.
    snaps: Vec<i64>,
    snap_len: usize,
    /// Per box: the class of its sides the player can reach (see `Problem::player_class`);
    /// its push distances are taken from those sides only.
    row_class: Vec<u8>,
    /// The matching's cost matrix, `costs[i * goals + j]`: push distance of box `i` to goal
    /// `j` from its class (`INF_DIST`: never); rows past the boxes (a subproblem) are 0.
    /// A row is rewritten only when its box's square or class differs from the ones it was
    /// computed for (`cost_key`), so most nodes rewrite one row.
    costs: Vec<u16>,
    cost_key: Vec<(u16, u8)>,
    /// Scratch: the rows [`Engine::update_bound`] re-matches.
    changed_rows: Vec<u16>,
    /// Per square (plus a wall sentinel at `n`): `stamp` where the player can go.
    reach: Vec<u32>,
    stamp: u32,
    queue: Vec<u16>,
    /// Neighbour table with walls mapped to the sentinel square `n`.
    flood_nbr: Vec<[u16; 4]>,
    goal_of: Vec<u16>,
    freeze_walls: Vec<u16>,
    corrals: Corrals,
    corral_pushes: Vec<(u16, u8)>,
    corral_search: CorralSearch,
    fixed: FixedGoals,
    /// Problems with boxes frozen on goals as walls, when enabled.
    reduced: Option<Reduced>,
    /// The two-box deadlock table, when enabled.
    pairs: Option<crate::analysis::deadlock::pairs::PairTable>,
    /// The group bound (see `groups::Groups`), when enabled and the boxes form several groups.
    groups: Option<Groups>,
    /// Zobrist hash of each group's box squares.
    group_hash: Vec<u64>,
    /// Each group's cost at each depth of the current path.
    group_cost: Vec<u32>,
    tt: Table,
    stack: Vec<Frame>,
    children: Vec<Child>,
    stats: Stats,
    /// Parity of every solution's push count from the root (see `Problem::parity`); `None`
    /// with fewer boxes than goals (then it is not fixed).
    parity: Option<u32>,
    /// Children cut off by the threshold in this iteration.
    cuts: u64,
    started: bool,
    finished: bool,
    /// A lower bound on the root's pushes known from elsewhere (see [`Engine::restart`]).
    hint: u32,
}

/// Cost of matching box `i` to goal `j` from the cost matrix (see `Engine::costs`).
#[inline(always)]
fn cost(costs: &[u16], ng: usize, i: usize, j: usize) -> i64 {
    let d = costs[i * ng + j];
    if d == INF_DIST {
        INF_COST
    } else {
        d as i64
    }
}

impl Engine {
    /// An engine for a problem, a start position (compact squares), and a table size.
    ///
    /// There may be fewer boxes than goals (a subproblem): then the search brings every box
    /// onto some goal.
    pub fn new(p: Problem, player: u16, box_squares: &[u16], tt_bytes: usize) -> Engine {
        Self::with_problem(Arc::new(p), player, box_squares, tt_bytes)
    }

    /// [`Engine::new`] on a problem shared with other engines.
    pub fn with_problem(
        p: Arc<Problem>,
        player: u16,
        box_squares: &[u16],
        tt_bytes: usize,
    ) -> Engine {
        let n = p.n;
        let ng = p.goals.len();
        assert!(box_squares.len() <= ng, "more boxes than goals");
        let mut box_at = vec![NONE; n];
        let mut hash = 0u64;
        for (i, &b) in box_squares.iter().enumerate() {
            box_at[b as usize] = i as u16;
            hash ^= p.z_box[b as usize];
        }
        let nb = box_squares.len();
        let sym_hash = p
            .symmetries
            .iter()
            .map(|m| box_squares.iter().fold(0u64, |h, &b| h ^ p.z_box[m[b as usize] as usize]))
            .collect();
        let assign = Assignment::new(ng);
        let snap_len = assign.saved_len() + nb;
        Engine {
            boxes: box_squares.to_vec(),
            box_at,
            player,
            hash,
            sym_hash,
            bucket: 0,
            area: 0,
            norm: 0,
            assign,
            snaps: Vec::new(),
            snap_len,
            row_class: vec![u8::MAX; nb],
            costs: vec![0; ng * ng],
            cost_key: vec![(NONE, 0); nb],
            changed_rows: Vec::with_capacity(nb),
            reach: vec![0; n + 1],
            stamp: 0,
            queue: vec![0; n + 1],
            flood_nbr: p
                .nbr
                .iter()
                .map(|a| a.map(|t| if t == NONE { n as u16 } else { t }))
                .collect(),
            goal_of: vec![0; ng],
            freeze_walls: Vec::with_capacity(16),
            corrals: Corrals::new(n, nb == ng),
            corral_pushes: Vec::new(),
            corral_search: CorralSearch::new(&p),
            fixed: FixedGoals::new(&p),
            reduced: None,
            pairs: None,
            groups: None,
            group_hash: Vec::new(),
            group_cost: Vec::new(),
            tt: Table::with_bytes(tt_bytes),
            stack: Vec::new(),
            children: Vec::new(),
            stats: Stats::default(),
            parity: Self::parity_of(&p, box_squares),
            cuts: 0,
            started: false,
            finished: false,
            hint: 0,
            p,
        }
    }

    fn parity_of(p: &Problem, boxes: &[u16]) -> Option<u32> {
        if boxes.len() != p.goals.len() {
            return None;
        }
        let goals = p.goals.iter().map(|&g| p.parity[g as usize] as u32).sum::<u32>();
        let boxes = boxes.iter().map(|&b| p.parity[b as usize] as u32).sum::<u32>();
        Some((goals + boxes) & 1)
    }

    /// Cut positions holding a pair of boxes that cannot be solved even alone (see
    /// `analysis::deadlock::pairs`). Returns the dead pairs found (dead for any player square, for
    /// some), `None` when the board is too large for the table.
    pub fn enable_pairs(&mut self) -> Option<(usize, usize)> {
        self.pairs = crate::analysis::deadlock::pairs::PairTable::new(&self.p);
        self.pairs.as_ref().map(|t| t.dead_pairs)
    }

    /// Match the boxes again on the problem with the boxes frozen on goals made walls
    /// whenever a push freezes one there (see `Reduced`; its cache takes at most 32 MiB
    /// beside the table); `board` is the one the problem was built from. False on boards
    /// too large.
    pub fn enable_reduced(&mut self, board: &sokoban_core::Board) -> bool {
        self.reduced = Reduced::new(board, &self.p, crate::analysis::fixed::REDUCED_CACHE_BYTES);
        self.reduced.is_some()
    }

    /// Add the group bound (see `groups::Groups`) when the boxes of the start position form
    /// several groups. Returns the number of groups (0: not enabled).
    pub fn enable_groups(&mut self) -> usize {
        self.groups = Groups::new(&self.p, self.player, &self.boxes);
        let Some(g) = &self.groups else { return 0 };
        self.group_hash = vec![0; g.len()];
        for (i, &b) in self.boxes.iter().enumerate() {
            self.group_hash[g.of_box[i] as usize] ^= self.p.z_box[b as usize];
        }
        g.len()
    }

    /// The group bound of the current position at search depth `depth` (0 without
    /// groups): the sum of the groups' costs, kept per depth. `moved` is the box just
    /// pushed `pushes` times (`NONE` at the root): only its group changed, and its cost is
    /// at least its cost before less `pushes`.
    fn group_bound(&mut self, depth: usize, moved: u16, pushes: u32) -> u32 {
        let Some(groups) = &mut self.groups else { return 0 };
        let ng = groups.len();
        if self.group_cost.len() < (depth + 1) * ng {
            self.group_cost.resize((depth + 1) * ng, 0);
        }
        let here = depth * ng;
        if moved == NONE {
            for g in 0..ng {
                let c = groups.cost(
                    &self.p,
                    g,
                    &self.boxes,
                    self.group_hash[g],
                    (self.player, self.norm),
                    0,
                );
                self.group_cost[here + g] = c;
            }
        } else {
            let parent = here - ng;
            self.group_cost.copy_within(parent..here, here);
            let g = groups.of_box[moved as usize] as usize;
            let hint = self.group_cost[parent + g].saturating_sub(pushes);
            let c = groups.cost(
                &self.p,
                g,
                &self.boxes,
                self.group_hash[g],
                (self.player, self.norm),
                hint,
            );
            self.group_cost[here + g] = c;
        }
        let mut total = 0u32;
        for &c in &self.group_cost[here..here + ng] {
            if c == INF_F {
                return INF_F;
            }
            total += c;
        }
        total
    }

    /// Start over from another position of the same problem, keeping what the table learned
    /// (bounds proven by finished iterations hold whatever the root). `hint` is a proven
    /// lower bound on its pushes: the first iteration starts there.
    pub fn restart(&mut self, player: u16, box_squares: &[u16], hint: u32) {
        self.hint = hint;
        assert_eq!(box_squares.len(), self.boxes.len());
        self.forget_unfinished();
        for &b in &self.boxes {
            self.box_at[b as usize] = NONE;
        }
        self.hash = 0;
        for (i, &b) in box_squares.iter().enumerate() {
            self.box_at[b as usize] = i as u16;
            self.hash ^= self.p.z_box[b as usize];
        }
        self.boxes.copy_from_slice(box_squares);
        for (h, m) in self.sym_hash.iter_mut().zip(&self.p.symmetries) {
            *h = box_squares.iter().fold(0u64, |h, &b| h ^ self.p.z_box[m[b as usize] as usize]);
        }
        self.player = player;
        self.parity = Self::parity_of(&self.p, box_squares);
        self.stack.clear();
        self.children.clear();
        self.started = false;
        self.finished = false;
        self.stats.nodes_iter = 0;
    }

    /// Drop the bounds learned in the iteration under way: they are proven only if it ends
    /// without a solution. (The next iteration number marks them as proven otherwise.)
    fn forget_unfinished(&mut self) {
        if !self.stack.is_empty() || self.finished {
            self.tt.abandon_iteration(self.stats.iteration as u16);
        }
    }

    /// Search from the current root until solved, proved unsolvable, or about `budget`
    /// nodes: returns a lower bound on the pushes needed and whether it is exact (`INF_F`
    /// when unsolvable).
    pub fn bound(&mut self, budget: u64) -> (u32, bool) {
        let start = self.stats.nodes;
        loop {
            let used = self.stats.nodes - start;
            if used >= budget {
                let t = self.stats.threshold;
                self.forget_unfinished();
                self.stack.clear();
                self.children.clear();
                self.finished = true;
                return (t, false);
            }
            match self.run((budget - used).min(4096)) {
                Event::Budget | Event::IterationDone => {}
                Event::Solved(path) => return (path.len() as u32, true),
                Event::Unsolvable => return (INF_F, true),
            }
        }
    }

    /// Statistics so far.
    pub fn stats(&self) -> Stats {
        Stats {
            group_searches: self.groups.as_ref().map_or(0, |g| g.searches),
            group_nodes: self.groups.as_ref().map_or(0, |g| g.nodes),
            corral_tests: self.corral_search.stats,
            fixed_checks: self.fixed.checks + self.reduced.as_ref().map_or(0, |r| r.checks),
            fixed_deadlocks: self.fixed.deadlocks + self.reduced.as_ref().map_or(0, |r| r.cuts),
            ..self.stats
        }
    }

    /// (used, capacity) of the transposition table.
    pub fn table_fill(&self) -> (usize, usize) {
        (self.tt.used(), self.tt.capacity())
    }

    /// The problem being solved.
    pub fn problem(&self) -> &Problem {
        &self.p
    }

    /// Flood the player's region; returns the normalized (smallest) square.
    fn flood(&mut self) -> u16 {
        // Stamps advance by two: `stamp` marks squares the player reaches, `stamp + 1` the
        // squares with boxes, so one comparison (`< stamp`) tests "free and not yet seen".
        // Walls are the sentinel square `n`, whose mark never falls below any stamp.
        if self.stamp >= u32::MAX - 4 {
            self.reach.fill(0);
            self.stamp = 0;
        }
        self.stamp += 2;
        let stamp = self.stamp;
        let n = self.p.n;
        self.reach[n] = u32::MAX;
        for &b in &self.boxes {
            self.reach[b as usize] = stamp + 1;
        }
        let (reach, queue, nbr) = (&mut self.reach, &mut self.queue, &self.flood_nbr);
        assert!(reach.len() == n + 1 && queue.len() == n + 1 && nbr.len() == n);
        queue[0] = self.player;
        reach[self.player as usize] = stamp;
        let mut min = self.player;
        let (mut head, mut tail) = (0usize, 1usize);
        while head < tail {
            // SAFETY: every square index in `queue` and `flood_nbr` is at most `n` (the
            // sentinel, never enqueued since its mark is u32::MAX), `reach` and `queue` have
            // `n + 1` entries, and each square is enqueued at most once, so `tail <= n`.
            unsafe {
                let s = *queue.get_unchecked(head);
                head += 1;
                for &t in nbr.get_unchecked(s as usize) {
                    let r = reach.get_unchecked_mut(t as usize);
                    if *r < stamp {
                        *r = stamp;
                        *queue.get_unchecked_mut(tail) = t;
                        tail += 1;
                        min = min.min(t);
                    }
                }
            }
        }
        self.area = tail;
        self.norm = min;
        min
    }

    /// The smallest total push count of the root's parity that is at least `f`: every
    /// solution through a node has that parity, so any lower bound can be rounded up to it.
    #[inline]
    fn fit(&self, f: u32) -> u32 {
        match self.parity {
            Some(parity) if f != INF_F => f + ((f ^ parity) & 1),
            _ => f,
        }
    }

    #[inline]
    fn key(&mut self, norm: u16) -> u64 {
        self.bucket = self.hash;
        let mut key = self.hash ^ self.p.z_player[norm as usize];
        // A symmetric image of the position needs as many pushes: key the smallest image.
        for k in 0..self.sym_hash.len() {
            let h = self.sym_hash[k];
            if h > self.bucket {
                continue;
            }
            let map = &self.p.symmetries[k];
            let norm_k =
                self.queue[..self.area].iter().map(|&x| map[x as usize]).min().unwrap_or(0);
            let key_k = h ^ self.p.z_player[norm_k as usize];
            if h < self.bucket || key_k < key {
                self.bucket = h;
                key = key_k;
            }
        }
        // The low half of the key is the bucket's: the table can move entries to a larger
        // table by their keys alone.
        (key & !LOW_KEY) | (self.bucket & LOW_KEY)
    }

    /// The smallest box hash over the position's symmetric images (its table bucket).
    #[inline]
    fn min_box_hash(&self) -> u64 {
        self.sym_hash.iter().fold(self.hash, |m, &h| m.min(h))
    }

    fn bound_total(&self) -> u32 {
        let (costs, ng) = (&self.costs, self.p.goals.len());
        let t = self.assign.total(&|i, j| cost(costs, ng, i, j));
        if t >= INF_COST {
            INF_F
        } else {
            t as u32
        }
    }

    fn apply(&mut self, box_id: u16, dir: u8) -> (u16, u16) {
        let from = self.boxes[box_id as usize];
        let to = self.p.step(from, dir as usize);
        let before = self.player;
        self.player = from;
        self.box_at[from as usize] = NONE;
        self.box_at[to as usize] = box_id;
        self.boxes[box_id as usize] = to;
        self.hash ^= self.p.z_box[from as usize] ^ self.p.z_box[to as usize];
        for (h, m) in self.sym_hash.iter_mut().zip(&self.p.symmetries) {
            *h ^= self.p.z_box[m[from as usize] as usize] ^ self.p.z_box[m[to as usize] as usize];
        }
        if let Some(g) = &self.groups {
            self.group_hash[g.of_box[box_id as usize] as usize] ^=
                self.p.z_box[from as usize] ^ self.p.z_box[to as usize];
        }
        (from, before)
    }

    fn unapply(&mut self, box_id: u16, from: u16, player_before: u16) {
        let to = self.boxes[box_id as usize];
        self.box_at[to as usize] = NONE;
        self.box_at[from as usize] = box_id;
        self.boxes[box_id as usize] = from;
        self.hash ^= self.p.z_box[from as usize] ^ self.p.z_box[to as usize];
        for (h, m) in self.sym_hash.iter_mut().zip(&self.p.symmetries) {
            *h ^= self.p.z_box[m[from as usize] as usize] ^ self.p.z_box[m[to as usize] as usize];
        }
        if let Some(g) = &self.groups {
            self.group_hash[g.of_box[box_id as usize] as usize] ^=
                self.p.z_box[from as usize] ^ self.p.z_box[to as usize];
        }
        self.player = player_before;
    }

    fn snap_at(&mut self, depth: usize) {
        let start = depth * self.snap_len;
        let end = start + self.snap_len;
        if self.snaps.len() < end {
            self.snaps.resize(end, 0);
        }
        let k = self.assign.saved_len();
        self.assign.save_to(&mut self.snaps[start..start + k]);
        for (d, &c) in self.snaps[start + k..end].iter_mut().zip(&self.row_class) {
            *d = c as i64;
        }
    }

    fn restore_at(&mut self, depth: usize) {
        let start = depth * self.snap_len;
        let end = start + self.snap_len;
        let k = self.assign.saved_len();
        self.assign.restore(&self.snaps[start..start + k]);
        for (c, &d) in self.row_class.iter_mut().zip(&self.snaps[start + k..end]) {
            *c = d as u8;
        }
    }

    /// Rewrite the cost rows of the boxes whose square or class changed since their row
    /// was computed.
    fn refresh_costs(&mut self) {
        for k in 0..self.boxes.len() {
            self.refresh_row(k);
        }
    }

    /// Rewrite box `k`'s cost row if its square or class changed since it was computed.
    #[inline]
    fn refresh_row(&mut self, k: usize) {
        let key = (self.boxes[k], self.row_class[k]);
        if self.cost_key[k] != key {
            let ng = self.p.goals.len();
            self.cost_key[k] = key;
            self.p.cost_row(key.0, key.1, &mut self.costs[k * ng..(k + 1) * ng]);
        }
    }

    /// Bring the bound up to date after a push of box `moved`: its row, and the rows of the
    /// boxes whose reachable side class changed because the player moved. (The matching
    /// was restored to the parent's, whose rows it was built on; the matrix may still hold
    /// rows of a sibling: all rows are brought to this position before any is re-matched.)
    fn update_bound(&mut self, moved: usize) {
        let player = self.player;
        self.changed_rows.clear();
        for k in 0..self.boxes.len() {
            let c = self.p.player_class(self.boxes[k], player);
            if c != self.row_class[k] || k == moved {
                self.row_class[k] = c;
                self.changed_rows.push(k as u16);
            }
            self.refresh_row(k);
        }
        let (costs, ng) = (&self.costs, self.p.goals.len());
        for &k in &self.changed_rows {
            self.assign.update_row(k as usize, &|i, j| cost(costs, ng, i, j));
        }
    }

    /// True when a box may be pushed onto `s`: a floor square (not `NONE`), free, not dead.
    #[inline(always)]
    fn open_for_box(&self, s: u16) -> bool {
        s != NONE && self.box_at[s as usize] == NONE && !self.p.dead[s as usize]
    }

    /// Add the push of box `i` in direction `d` if it is legal here (the player can reach the
    /// square behind, the target is free and not dead).
    #[inline]
    fn add_child(&mut self, i: usize, d: usize, last_box: u16) {
        let b = self.boxes[i];
        let to = self.p.step(b, d);
        if !self.open_for_box(to) {
            return;
        }
        let behind = self.p.step(b, (d + 2) & 3);
        if behind == NONE || self.reach[behind as usize] != self.stamp {
            return;
        }
        let j = self.goal_of[i] as usize;
        let here = self.p.dist(j, b) as i32;
        let there = self.p.dist(j, to) as i32;
        // The pushed box first; then pushes that bring their box closer to its goal; among
        // equals, boxes that are still far from their goal.
        let delta = (there - here).clamp(-100, 100) * 128 - here.min(127);
        let order = if i as u16 == last_box { delta - 16384 } else { delta } as i16;
        self.children.push(Child { box_id: i as u16, dir: d as u8, order });
    }

    /// After box `box_id` was pushed in direction `dir`: while the forced-push rule (see
    /// [`Engine::forced`]) holds for it — off its goal, the player behind it and unable to
    /// get round it on the bare board, the square ahead free and not dead — push it on at
    /// once. The rule makes that push the only one searched from the position between, so
    /// that position need not be stopped at (flooded, looked up, bounded): the run is one
    /// edge of the search, as long as its pushes. Returns the pushes made on. Stops before
    /// a blocked square ahead: the next node's forced rule finds that deadlock.
    fn push_on(&mut self, box_id: u16, dir: u8) -> u32 {
        let mut made = 0;
        loop {
            // The player stands behind the box (on the square the box just left).
            let b = self.boxes[box_id as usize];
            if self.p.is_goal[b as usize]
                || self.p.sole_side(b, self.p.player_class(b, self.player)).is_none()
                || !self.open_for_box(self.p.step(b, dir as usize))
            {
                break;
            }
            self.apply(box_id, dir);
            made += 1;
        }
        self.stats.chained += made as u64;
        made
    }

    /// The forced-push rule (a tunnel macro that keeps push-optimality). A box off its goal
    /// on `b` such that, on the bare board, the side of `b` the player is on connects to no
    /// other side of `b`: the player can never get round it, so its first push can only be
    /// away from that side. If the player can stand there now, that push can be made first
    /// in some shortest solution — every push before it stays on the player's side of `b`
    /// and never touches the square ahead — so it is the only child searched. If the square
    /// ahead is a wall, a box (on the far side, which the player can never reach) or a dead
    /// square, the box can never move: a deadlock.
    ///
    /// Returns `Some(Some((box, dir)))`: search only that push; `Some(None)`: deadlock;
    /// `None`: the rule does not apply. The box pushed last is tried first.
    fn forced(&self, last_box: u16) -> Option<Option<(u16, u8)>> {
        let nb = self.boxes.len() as u16;
        let first = if last_box == NONE { 0 } else { last_box };
        let mut forced = None;
        for k in 0..nb {
            let i = (first + k) % nb;
            let b = self.boxes[i as usize];
            if self.p.is_goal[b as usize] {
                continue;
            }
            let Some(side) = self.p.sole_side(b, self.row_class[i as usize]) else { continue };
            let dir = (side + 2) & 3;
            if !self.open_for_box(self.p.step(b, dir)) {
                return Some(None);
            }
            let stand = self.p.step(b, side);
            if forced.is_none() && self.reach[stand as usize] == self.stamp {
                forced = Some((i, dir as u8));
            }
        }
        forced.map(Some)
    }

    /// Generate the pushes of the current node (after [`Engine::flood`]) into the arena.
    ///
    /// `last_box` was just pushed (`NONE` at the root).
    fn generate(&mut self, last_box: u16) -> (u32, u32) {
        let lo = self.children.len() as u32;
        let nb = self.boxes.len();
        self.assign.goals_of(&mut self.goal_of);
        if let Some(only) = self.forced(last_box) {
            self.stats.forced += 1;
            if let Some((i, d)) = only {
                self.add_child(i as usize, d as usize, last_box);
            } else {
                self.stats.forced_deadlocks += 1;
            }
            let hi = self.children.len() as u32;
            return (lo, hi);
        }
        let stamp = self.stamp;
        let last = if last_box == NONE { NONE } else { self.boxes[last_box as usize] };
        let box_at = &self.box_at;
        let reach = &self.reach;
        let mut verdict = self.corrals.analyse(
            &self.p,
            |s| box_at[s] != NONE,
            |s| reach[s as usize] == stamp,
            0..self.p.n as u16,
            last,
            &mut self.corral_pushes,
        );
        if verdict != Verdict::Deadlock {
            let mut start = 0;
            for &end in &self.corrals.suspect_ends {
                let inside = self.corrals.suspects[start];
                let barrier = &self.corrals.suspects[start + 1..end];
                start = end;
                if self.corral_search.deadlocked(&self.p, barrier, inside, self.player, self.norm) {
                    verdict = Verdict::Deadlock;
                    break;
                }
            }
        }
        match verdict {
            Verdict::Deadlock => {
                self.stats.corral_deadlocks += 1;
            }
            Verdict::Only => {
                self.stats.corral_prunes += 1;
                for k in 0..self.corral_pushes.len() {
                    let (b, d) = self.corral_pushes[k];
                    let i = self.box_at[b as usize] as usize;
                    self.add_child(i, d as usize, last_box);
                }
            }
            Verdict::All => {
                for i in 0..nb {
                    for d in 0..4 {
                        self.add_child(i, d, last_box);
                    }
                }
            }
        }
        let hi = self.children.len() as u32;
        // Stable insertion sort: few children.
        let slice = &mut self.children[lo as usize..hi as usize];
        for k in 1..slice.len() {
            let mut m = k;
            while m > 0 && slice[m - 1].order > slice[m].order {
                slice.swap(m - 1, m);
                m -= 1;
            }
        }
        (lo, hi)
    }

    fn start_iteration(&mut self) -> Option<Event> {
        self.stats.iteration += 1;
        if self.stats.iteration % (u16::MAX as u32 + 1) == 0 {
            // Entries carry the iteration as 16 bits: never let an old one pass for current.
            self.tt.clear();
        }
        self.cuts = 0;
        self.stats.nodes_iter = 0;
        self.children.clear();
        self.stack.clear();
        let norm = self.flood();
        let key = self.key(norm);
        if !self.started {
            for k in 0..self.boxes.len() {
                self.row_class[k] = self.p.player_class(self.boxes[k], self.player);
            }
            self.refresh_costs();
            let (costs, ng) = (&self.costs, self.p.goals.len());
            self.assign.solve(&|i, j| cost(costs, ng, i, j));
        } else {
            // The matrix may still hold rows of the last position searched.
            self.refresh_costs();
        }
        let mut h = self.bound_total();
        if h == 0 {
            self.finished = true;
            return Some(Event::Solved(Vec::new()));
        }
        if h != INF_F {
            h = h.max(self.group_bound(0, NONE, 0));
        }
        if h == INF_F {
            self.finished = true;
            return Some(Event::Unsolvable);
        }
        let iter = self.stats.iteration as u16;
        let found = self.tt.find(self.bucket, key);
        if let Some(slot) = found {
            let b = self.tt.bound_for(slot, iter);
            if b == DEAD {
                self.finished = true;
                return Some(Event::Unsolvable);
            }
            h = h.max(b as u32);
        }
        if !self.started {
            self.started = true;
            h = self.fit(h.max(self.hint));
            self.stats.threshold = h;
            self.stats.root_bound = h;
        }
        let root = Push { from: NONE, dir: 0 };
        self.enter(found, key, 0, h, iter, NONE, (root, 0), NONE);
        None
    }

    /// Expand the current position: record it in the table (on the path), generate its
    /// pushes and push its frame. `box_id` made `push`, some number of times in a row, to
    /// get here from a position where the player stood on `player_before` (`NONE` at the
    /// root).
    #[allow(clippy::too_many_arguments)]
    fn enter(
        &mut self,
        found: Option<usize>,
        key: u64,
        g: u32,
        h: u32,
        iter: u16,
        box_id: u16,
        (push, pushes): (Push, u16),
        player_before: u16,
    ) {
        let g16 = g.min(u16::MAX as u32) as u16;
        let mut found = found;
        if found.is_none() && self.tt.crowded() {
            self.grow_table();
            found = self.tt.find(self.bucket, key);
        }
        let slot = match found {
            Some(slot) => {
                self.tt.enter(slot, g16, iter);
                slot
            }
            None => self.tt.insert(self.bucket, key, g16, h.min(DEAD as u32 - 1) as u16, iter),
        };
        let (lo, hi) = self.generate(box_id);
        self.stack.push(Frame {
            g,
            min_f: INF_F,
            child_lo: lo,
            child_hi: hi,
            next: lo,
            tt_slot: slot as u32,
            key,
            box_id,
            from: push.from,
            player_before,
            dir: push.dir,
            pushes,
        });
    }

    /// Grow the table and find the slots of the positions on the path again.
    fn grow_table(&mut self) {
        self.tt.grow();
        for fr in &mut self.stack {
            // A slot that cannot be found leaves `holds` false: its lesson is dropped.
            fr.tt_slot = self.tt.slot_of(fr.key).map_or(u32::MAX, |s| s as u32);
        }
    }

    /// Search for up to `budget` nodes.
    pub fn run(&mut self, budget: u64) -> Event {
        if self.finished {
            return Event::Unsolvable;
        }
        if self.stack.is_empty() {
            if let Some(ev) = self.start_iteration() {
                return ev;
            }
        }
        let mut left = budget;
        loop {
            let depth = self.stack.len() - 1;
            let top = self.stack[depth];
            if top.next < top.child_hi {
                if left == 0 {
                    return Event::Budget;
                }
                left -= 1;
                self.stack[depth].next += 1;
                let c = self.children[top.next as usize];
                let (from, before) = self.apply(c.box_id, c.dir);
                let pushes = 1 + self.push_on(c.box_id, c.dir);
                let g = top.g + pushes;
                self.stats.nodes += 1;
                self.stats.nodes_iter += 1;
                let to = self.boxes[c.box_id as usize];
                self.tt.prefetch(self.min_box_hash());
                // Freeze deadlock of the pushed box.
                {
                    let box_at = &self.box_at;
                    let has_box = |s: u16| box_at[s as usize] != NONE;
                    let (frozen, off_goal) =
                        freeze_status(&self.p, &mut self.freeze_walls, &has_box, to);
                    if frozen
                        && (off_goal
                            // The reduced problem's matching, where there is one, sees all
                            // that the walls-only reach table sees.
                            || match self.reduced.as_mut() {
                                Some(r) => !r.matchable(&self.p, &self.boxes, &has_box, self.player),
                                None => self.fixed.deadlocked(&self.p, &self.boxes, &self.box_at),
                            })
                    {
                        self.unapply(c.box_id, from, before);
                        continue;
                    }
                }
                let box_at = &self.box_at;
                let has_box = |s: u16| box_at[s as usize] != NONE;
                if self.pairs.as_ref().is_some_and(|t| t.dead_with(to, has_box, self.player)) {
                    self.stats.pair_deadlocks += 1;
                    self.unapply(c.box_id, from, before);
                    continue;
                }
                let norm = self.flood();
                let key = self.key(norm);
                let mut learned = 0u32;
                let iter = self.stats.iteration as u16;
                let threshold = self.stats.threshold;
                let found = self.tt.find(self.bucket, key);
                if let Some(slot) = found {
                    let e = *self.tt.get(slot);
                    let b = self.tt.bound_for(slot, iter);
                    if b == DEAD {
                        self.unapply(c.box_id, from, before);
                        continue;
                    }
                    if e.iter == iter && e.g() as u32 <= g {
                        let f = if e.on_path() {
                            // A repetition of an ancestor at e.g(). If the iteration ends
                            // without a solution, that ancestor needs more than
                            // threshold - e.g() pushes, and so does this route.
                            self.fit(g + threshold - e.g() as u32 + 1)
                        } else {
                            // Searched already in this iteration from as few pushes.
                            let best = e.best();
                            if best == DEAD {
                                INF_F
                            } else {
                                g + best as u32
                            }
                        };
                        let top = &mut self.stack[depth];
                        top.min_f = top.min_f.min(f);
                        self.unapply(c.box_id, from, before);
                        continue;
                    }
                    learned = b as u32;
                }
                self.snap_at(depth + 1);
                self.update_bound(c.box_id as usize);
                let hm = self.bound_total();
                // The group bound only where the matching does not cut already.
                let hg = if hm == INF_F || hm == 0 || g + hm.max(learned) > self.stats.threshold {
                    0
                } else {
                    self.group_bound(depth + 1, c.box_id, pushes)
                };
                if hm == INF_F || hg == INF_F {
                    self.restore_at(depth + 1);
                    self.unapply(c.box_id, from, before);
                    continue;
                }
                let h = hm.max(learned).max(hg);
                let f = g + h;
                if f > self.stats.threshold {
                    self.cuts += 1;
                    let m = &mut self.stack[depth].min_f;
                    *m = (*m).min(f);
                    self.restore_at(depth + 1);
                    self.unapply(c.box_id, from, before);
                    continue;
                }
                if hm == 0 {
                    // All boxes on goals.
                    let mut path = Vec::new();
                    for fr in &self.stack[1..] {
                        push_run(&self.p, &mut path, fr.from, fr.dir, fr.pushes as u32);
                    }
                    push_run(&self.p, &mut path, from, c.dir, pushes);
                    self.finished = true;
                    return Event::Solved(path);
                }
                let push = (Push { from, dir: c.dir }, pushes as u16);
                self.enter(found, key, g, h, iter, c.box_id, push, before);
            } else {
                let fr = self.stack.pop().expect("non-empty");
                // What this node taught: it needs at least min_f - g more pushes.
                let slot = fr.tt_slot as usize;
                if self.tt.holds(slot, fr.key) {
                    let e = self.tt.get_mut(slot);
                    e.leave_path();
                    let learned = if fr.min_f == INF_F {
                        DEAD
                    } else {
                        (fr.min_f - fr.g).min(DEAD as u32 - 1) as u16
                    };
                    e.h_new = e.h_new.max(learned);
                }
                self.children.truncate(fr.child_lo as usize);
                if self.stack.is_empty() {
                    // Unsolvable when nothing was left unexplored because of the threshold:
                    // every other cut (deadlocks, repetitions, transpositions, PI-corrals)
                    // keeps some solution if there is one.
                    if fr.min_f == INF_F || self.cuts == 0 {
                        self.finished = true;
                        return Event::Unsolvable;
                    }
                    // No solution within the threshold, so at least one more push is needed.
                    // min_f can be at or below the threshold when a child was cut as a
                    // repetition of a position on the current path (its stored bound is
                    // a valid but weak lower bound); never go back down.
                    self.stats.threshold = self.fit(fr.min_f.max(self.stats.threshold + 1));
                    return Event::IterationDone;
                }
                let d = self.stack.len() - 1;
                let parent = &mut self.stack[d];
                parent.min_f = parent.min_f.min(fr.min_f);
                self.restore_at(d + 1);
                self.unapply(fr.box_id, fr.from, fr.player_before);
            }
        }
    }
}
