//! The backward search: from the solved position, pull boxes out of the goals (the reverse
//! game) with macro pulls, and keep every position reached. Those positions are the
//! *perimeter* of a meet-in-the-middle: when the forward search reaches one of them, the
//! pulls that led there, played backwards as pushes, finish the solution (Festival's
//! perimeter). If the backward search reaches the start position itself, it has solved the
//! level alone.
//!
//! The search is a small feature space search of its own: positions are filed by how many
//! boxes still stand on goals and how many areas the boxes cut the floor into; the cells are
//! visited in turn, every other visit going to the best cell (the fewest floor areas —
//! Festival's connectivity, first in its ranking of backward positions — then the fewest
//! boxes on goals);
//! within a position, the pull that takes a box off a goal weighs nothing (with `backconn`,
//! so does the pull that leaves the fewest floor areas, where fewer), others weigh 1,
//! and among equals the pull that leaves the boxes nearest the squares boxes start on goes
//! first — or, in the search [`Backward::away`] makes, farthest from the goals (Festival's
//! max-distance backward search). The *open* search ([`Backward::open`]) pulls away from
//! the goals too, but files and ranks positions by the free squares on no cycle of the free
//! floor instead of the boxes on goals (Festival's biconnected backward search). The
//! *dragonfly* search ([`Backward::dragonfly`], after Festival's) files nothing: it makes
//! next the queued pull that leaves the cheapest matching of the boxes to the start
//! squares; where a position, taken as a forward one, has a PI-corral with work left, only
//! the pulls that change the player's reach beside the box pulled last are made (Festival's
//! corral rule). A box is never pulled where no box could ever have been pushed from a start
//! square, and no position is kept with a box that can never be pulled again off the start
//! squares (the pull-freeze test) or with the player shut in for good and work left outside
//! (the confinement test, `analysis::deadlock::confine`): none could meet a forward position.
//!
//! The same search is the *packing search* (Festival's way to a packing plan): a box pulled
//! onto a start square no box has left by yet is taken off the board (it has left the goal
//! area; the square stays taken), positions are filed by the boxes still to place as well,
//! and the pull that takes a box off weighs nothing. Its position nearest the end (fewest
//! boxes to place, then fewest on goals) gives the plan ([`super::plan::Plan::from_pulls`]).
//! The *supplied* packing search ([`Backward::packing_supplied`]) also drops every position
//! whose goals still holding boxes, filled first, would leave the boxes where they start
//! unable to fill the rest. The packing search *by Festival's rules*
//! ([`Backward::packing_festival`]) takes only pulls that take a box off wherever there is
//! one, and ranks and advises as Festival's: the second packing search, where the first
//! leaves boxes on the board.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::Arc;

use super::board::{Move, MoveGen, State};
use super::plan::PrefixSupply;
use super::shared::Analysis;
use crate::analysis::assign::{Assignment, INF_COST};
use crate::analysis::corral::{Corrals, Verdict};
use crate::analysis::deadlock::confine::{Confinement, LIMIT};
use crate::analysis::problem::{Keyed, Problem, INF_DIST, NONE};
use crate::work::{self, Op};

const NO_NODE: u32 = u32::MAX;

/// Sets of goals the supplied packing search checks at most (each builds the problem of
/// its walled board: about a millisecond on 300 squares).
const SUPPLY_CHECKS: usize = 300;

/// What the backward search's pulls go toward among equals, and its best position.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Aim {
    /// Pulls toward the start squares; the best position has the fewest boxes on goals.
    Start,
    /// Pulls away from the goals ([`Backward::away`]).
    Away,
    /// Pulls toward the start squares; the best position is the nearest them
    /// ([`Backward::near`]).
    Near,
    /// Pulls away from the goals; positions ranked by floor areas, then squares on no cycle
    /// of the free floor ([`Backward::open`]).
    Open,
    /// The packing search by Festival's rules ([`Backward::packing_festival`]).
    Festival,
    /// Best first by the least pulls matching the boxes to the start squares
    /// ([`Backward::dragonfly`]).
    Dragonfly,
}

/// A stored backward position.
#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    /// The pull-move from the parent ([`Move::pack`]).
    mv: u32,
    /// Boxes still on the board: the first of the node's `nb` entries in `positions`; the
    /// rest are the start squares its removed boxes took (packing search).
    live: u16,
    weight: u32,
    moves_at: u32,
    moves_len: u32,
    next: u32,
    advised: u32,
    norm: u16,
}

/// What [`Backward::run`] stopped for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackEvent {
    Budget,
    /// The start position was reached: this node.
    Reached(u32),
    /// No more moves: every position the pulls reach is stored.
    Exhausted,
    /// The store reached its memory budget (the perimeter stays usable).
    MemoryFull,
}

/// Counters of the backward search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BackStats {
    pub nodes: u64,
    pub generated: u64,
    pub duplicates: u64,
    pub cells: usize,
    /// Fewest boxes left on goals by a stored position.
    pub fewest_on_goals: u16,
    /// Pulls not made by the dragonfly search's corral rule.
    pub corral_cuts: u64,
    /// Pulls not made by the rule against inefficient stops ([`super::stops::Stops::for_pulls`]).
    pub stop_cuts: u64,
    /// Positions not stored: a box there can never be pulled again, off the start squares.
    pub pull_dead: u64,
    /// Positions not stored: the player is shut in a zone, work left outside it
    /// ([`Confinement`]).
    pub confined: u64,
    /// The confinement test's reduced searches.
    pub confine_searches: u64,
    /// Of them, those that gave up (not proven).
    pub confine_exceeded: u64,
}

/// `Node::moves_at`'s flag: only the node's first two pulls are kept (`lazypulls`).
const PARTIAL: u32 = 1 << 31;

/// The backward search and its perimeter.
pub struct Backward {
    a: Arc<Analysis>,
    st: State,
    gen: MoveGen,
    /// Boxes of the level: each node takes this many entries of `positions`.
    nb: usize,
    /// The packing search: a box pulled onto a square some box starts on, not taken by
    /// another box yet, is taken off the board (it has left the goal area).
    removal: bool,
    /// The start squares taken by removed boxes in the loaded position (sorted).
    used: Vec<u16>,
    /// Scratch: the boxes left when one leaves the board.
    left_buf: Vec<u16>,
    /// The stored position with the best rank and its rank: the fewest boxes left, then
    /// the fewest on goals (packing search); the fewest floor areas, then the fewest on
    /// goals (otherwise; [`Aim::Near`]: then the boxes' summed pulls to the start squares
    /// first; [`Aim::Open`]: then the squares on no cycle, then the farthest from the goals).
    best: (u64, u32),
    aim: Aim,
    nodes: Vec<Node>,
    positions: Vec<u16>,
    moves: Vec<(u32, u32)>,
    /// Every stored position by its key: the perimeter.
    seen: HashMap<u64, u32, Keyed>,
    cells: Vec<BinaryHeap<Reverse<(u64, u32)>>>,
    cell_of: HashMap<u64, u32, Keyed>,
    /// Rank of each cell's positions (for the best cell; see [`Backward::prepare`]).
    cell_rank: Vec<u32>,
    cursor: usize,
    turn: u64,
    best_cell: u32,
    /// Pulls from each square to the nearest start square of a box (`u16::MAX`: never).
    start_dist: Vec<u16>,
    /// [`Aim::Festival`]: the goals in target holes ([`target_holes`]); else empty.
    holes: Vec<bool>,
    /// Per square, what the pulls are ordered by among equals (lower first): `start_dist`,
    /// or how near the goals a box there is ([`Backward::away`]).
    order_dist: Vec<u16>,
    /// The forward start position's key, and its boxes.
    start_key: u64,
    start_boxes: Vec<u16>,
    /// `dfnode`: each node's own dragonfly key (its matching cost, then boxes off the
    /// start squares), by id.
    own_key: Vec<u32>,
    /// Festival's rule against inefficient stops of pulls (not with `nopullstops`).
    pull_stops: Option<super::stops::Stops>,
    memory_limit: usize,
    full: bool,
    move_buf: Vec<Move>,
    order: Vec<(u32, u32, u32)>,
    /// Per square `s` and start box `i`, at `s * nb + i` (a box's costs side by side, as the
    /// matching reads them row by row): the pulls from `s` to its start square on the empty
    /// board, the player starting on its side ([`start_reach`];
    /// `u16::MAX`: the box can never be pushed there; not in the packing search). The
    /// dragonfly search's matching costs and the HF target's reach: with the side, 250k on
    /// the whole suite 366 -> 367 (Sasquatch III 17), none lost (bench/decisions.md).
    start_pulls: Vec<u16>,
    /// [`Aim::Dragonfly`]: the matching of the boxes to the start boxes, its saved state,
    /// and the box of each of its rows with the row of each box (`NONE`: none). The rows
    /// stay with their boxes, so the next position's matching updates only the rows of the
    /// boxes that moved (solved anew, 50 boxes took minutes).
    assign: Assignment,
    assign_saved: Vec<i64>,
    /// The matching of [`Backward::match_start`]: each row's goal and the total.
    df_goal: Vec<u16>,
    df_total: i64,
    row_box: Vec<u16>,
    row_of: Vec<u16>,
    df_keys: Vec<u32>,
    /// [`Aim::Dragonfly`] with its corral rule: the corral analysis and its scratch.
    corrals: Option<Corrals>,
    corral_pushes: Vec<(u16, u8)>,
    /// The pull-freeze test runs ([`Backward::pull_stuck`]), and its scratch: the boxes
    /// left, where boxes stand, and the player's reach as boxes go.
    pull_test: bool,
    /// The confinement test runs (with the pull-freeze test, unless `noconfine`), and
    /// the player's area listed for it.
    confine: Option<Confinement>,
    area_buf: Vec<u16>,
    stuck_boxes: Vec<u16>,
    stuck_occupied: Vec<bool>,
    stuck_reach: Vec<bool>,
    matcher: crate::analysis::matching::Matcher,
    match_costs: Vec<u16>,
    /// Scratch of [`Backward::regions`].
    region_seen: Vec<u16>,
    /// [`Backward::label_areas`]'s labels.
    region_label: Vec<u16>,
    region_stack: Vec<u16>,
    /// Scratch of [`Backward::areas_and_off_cycles`]: discovery times (0: not yet), low
    /// points, squares on a cycle, and the depth-first stack of squares with the next side
    /// to try.
    disc: Vec<u32>,
    low: Vec<u32>,
    cyclic: Vec<bool>,
    dfs: Vec<(u16, u8)>,
    /// Packing search with the supply check ([`Backward::packing_supplied`]): the check,
    /// its verdict per set of goals holding boxes (by key), and scratch.
    supply: Option<PrefixSupply>,
    supplied: HashMap<u64, bool, Keyed>,
    walled: Vec<bool>,
    pub stats: BackStats,
    /// With [`Backward::record_fresh`], the positions stored since the last
    /// [`Backward::take_fresh`] (key, node), for the forward searches to look up.
    fresh: Option<Vec<(u64, u32)>>,
}

/// Make room in `v` for `need` more entries within a store's budget: it grows by the
/// store's `free` bytes in the share of the `held` bytes it holds (at most doubling, at
/// least a sixteenth), so the store's vectors fill its budget together. Left to double, a
/// full store uses between half and all of its budget, and its last doubling overshoots it.
fn grow_within<T>(v: &mut Vec<T>, need: usize, free: usize, held: usize) {
    let cap = v.capacity();
    if v.len() + need <= cap {
        return;
    }
    let size = std::mem::size_of::<T>().max(1);
    let part = if held == 0 {
        free
    } else {
        (free as u128 * (cap * size) as u128 / held as u128) as usize
    };
    let extra = (part / size).min(cap).max(cap / 16).max(need).max(256);
    v.reserve_exact(cap + extra - v.len());
}

impl Backward {
    /// A backward search for the level whose forward search starts from `player` and
    /// `boxes` (compact squares), with a memory budget in bytes.
    pub fn new(a: Arc<Analysis>, player: u16, boxes: &[u16], memory_limit: usize) -> Backward {
        Self::with_removal(a, player, boxes, memory_limit, false, Aim::Start)
    }

    /// [`Backward::new`] whose best position, the HF search's target, is ranked by floor
    /// areas, then the boxes' summed pulls to the nearest start squares, then boxes on
    /// goals: a target the start boxes have less far to go to.
    pub fn near(a: Arc<Analysis>, player: u16, boxes: &[u16], memory_limit: usize) -> Backward {
        Self::with_removal(a, player, boxes, memory_limit, false, Aim::Near)
    }

    /// [`Backward::new`], its pulls ordered among equals by how far they leave the boxes
    /// from the goals (the summed pushes to every goal), farthest first, instead of how
    /// near the start squares. The two find different positions with few boxes on goals:
    /// XSokoban 50 is solved by the HF search toward this one's best position (its best
    /// position in the other had 9 boxes on goals after 600,000 pulls) and 66 only toward
    /// the other's (bench/decisions.md: HF stage, two attempts).
    pub fn away(a: Arc<Analysis>, player: u16, boxes: &[u16], memory_limit: usize) -> Backward {
        Self::with_removal(a, player, boxes, memory_limit, false, Aim::Away)
    }

    /// [`Backward::near`] searched best first, not by feature cells (Festival's dragonfly
    /// search): the stored positions are queued by their next pull, keyed by the fewest
    /// pulls in the least-cost matching of the boxes to the start squares after it, then
    /// the most boxes on them, and the least key is made next; a pull after which no such
    /// matching exists is not made. As in the other backward searches, a position's first
    /// pull is its best one taking a box off a goal, where it has one (Festival's dragonfly
    /// queues every child by its own key: not kept). Its corral rule
    /// ([`Backward::corral_rule`]) took Sasquatch III 38's start from out of reach in 100,000
    /// pulls to 25,000 moves in all, as Festival's own search needs it there.
    pub fn dragonfly(
        a: Arc<Analysis>,
        player: u16,
        boxes: &[u16],
        memory_limit: usize,
    ) -> Backward {
        Self::with_removal(a, player, boxes, memory_limit, false, Aim::Dragonfly)
    }

    /// [`Backward::away`] whose positions are ranked (its best cell, and its best position,
    /// the HF search's target) by floor areas, then the free squares on no cycle of the
    /// free floor, an empty goal counted as on one (Festival's biconnected ranking): boxes
    /// that leave the rooms open and stand in the passages — then the farthest from the
    /// goals. Its cells are filed by those two counts instead of the boxes on goals.
    pub fn open(a: Arc<Analysis>, player: u16, boxes: &[u16], memory_limit: usize) -> Backward {
        Self::with_removal(a, player, boxes, memory_limit, false, Aim::Open)
    }

    /// The packing search (Festival's): the backward search in which a box pulled onto a
    /// free start square is taken off the board. It ends ([`BackEvent::Reached`]) when
    /// every box left stands on a start square of its own; [`Backward::best`] is the
    /// position nearest that, and [`Backward::pulls_to`] the pulls that reach it.
    pub fn packing(a: Arc<Analysis>, boxes: &[u16], memory_limit: usize) -> Backward {
        Self::with_removal(a, NONE, boxes, memory_limit, true, Aim::Start)
    }

    /// [`Backward::packing`] by the rules of Festival's packing search, which finish where
    /// ours runs out of room on some levels of many boxes (Sasquatch I 34: 13 of 19 boxes
    /// still on the board when 64 MiB are full, none after 1.7M pulls by these rules):
    /// - where some pull takes a box off the board, only those pulls, one a box (its base
    ///   moves);
    /// - positions ranked by boxes left, then floor areas, then boxes on goals;
    /// - the advised pull: where a box can leave, the leaving pull of a box off the goals
    ///   first, not from a target hole, then the longest; else the longest pull off a goal
    ///   that takes the boxes farther from the goals, not from a target hole;
    /// - among equals, pulls that leave the boxes farther from the goals first.
    pub fn packing_festival(a: Arc<Analysis>, boxes: &[u16], memory_limit: usize) -> Backward {
        Self::with_removal(a, NONE, boxes, memory_limit, true, Aim::Festival)
    }

    /// [`Backward::packing`] in which a position is dropped when the goals still holding
    /// boxes, filled first forward, would leave the boxes where they start unable to fill
    /// the rest (`supply`, made for these boxes and the player's start): its plan then
    /// passes the dead-prefix test wherever it gets. The plain packing search takes the
    /// start boxes off the board and cannot see that (Sasquatch III 13: its order is dead
    /// at 8 goals).
    pub(crate) fn packing_supplied(
        a: Arc<Analysis>,
        boxes: &[u16],
        supply: PrefixSupply,
        memory_limit: usize,
    ) -> Backward {
        let mut b = Self::with_removal(a, NONE, boxes, memory_limit, true, Aim::Start);
        b.supply = Some(supply);
        // The roots hold every goal: they pass; their pulls were ordered already.
        b
    }

    /// The supply check back, its walled problems kept (see [`Backward::packing_supplied`]).
    pub(crate) fn take_supply(&mut self) -> Option<PrefixSupply> {
        self.supply.take()
    }

    /// False when the position in the state fails the supply check (see
    /// [`Backward::packing_supplied`]); true without one.
    fn supplied(&mut self) -> bool {
        let Some(supply) = self.supply.as_mut() else { return true };
        let p = &self.a.p;
        let key = self
            .st
            .boxes
            .iter()
            .filter(|&&b| p.is_goal[b as usize])
            .fold(0x5EED_u64, |k, &b| k ^ p.z_box[b as usize]);
        if let Some(&ok) = self.supplied.get(&key) {
            return ok;
        }
        // Past its budget a set not checked yet counts as failing: the search stays
        // among the sets it knows can be followed.
        if self.supplied.len() >= SUPPLY_CHECKS {
            return false;
        }
        self.walled.clear();
        self.walled.resize(p.goals.len(), false);
        for &b in &self.st.boxes {
            if let Ok(j) = p.goals.binary_search(&b) {
                self.walled[j] = true;
            }
        }
        let ok = supply.passes(p, &self.walled);
        self.supplied.insert(key, ok);
        ok
    }

    fn with_removal(
        a: Arc<Analysis>,
        player: u16,
        boxes: &[u16],
        memory_limit: usize,
        removal: bool,
        aim: Aim,
    ) -> Backward {
        let p = Arc::clone(&a.p);
        let start_dist = start_distances(&p, boxes);
        let order_dist = if matches!(aim, Aim::Away | Aim::Open | Aim::Festival) {
            nearness_to_goals(&p)
        } else {
            start_dist.clone()
        };
        let mut start_pulls = Vec::new();
        if !removal {
            start_pulls.resize(p.n * boxes.len(), 0);
            for (i, &b) in boxes.iter().enumerate() {
                let row = start_reach(&p, b, player);
                debug_assert_eq!(row.len(), p.n);
                for (s, c) in row.into_iter().enumerate() {
                    start_pulls[s * boxes.len() + i] = c;
                }
            }
        }
        let pull_test = !removal && !a.exp.no_pull_stuck;
        let mut st = State::new(&p, &a.layout);
        for s in 0..p.n {
            if start_dist[s] == u16::MAX {
                st.cells.forbid_box(a.layout.pad[s] as usize);
            }
        }
        let mut start_boxes = boxes.to_vec();
        start_boxes.sort_unstable();
        // The start position's key: its boxes and its player area.
        let start_key = if removal {
            0
        } else {
            st.set(&p, &a.layout, &start_boxes, player);
            st.key(&p)
        };
        let nb = boxes.len();
        let mut b = Backward {
            st,
            gen: MoveGen::new(&a.layout),
            nb,
            removal,
            used: Vec::new(),
            left_buf: Vec::new(),
            best: (u64::MAX, NO_NODE),
            aim,
            nodes: Vec::new(),
            positions: Vec::new(),
            moves: Vec::new(),
            seen: HashMap::default(),
            cells: Vec::new(),
            cell_of: HashMap::default(),
            cell_rank: Vec::new(),
            cursor: 0,
            turn: 0,
            best_cell: 0,
            start_dist,
            holes: if aim == Aim::Festival { target_holes(&p) } else { Vec::new() },
            order_dist,
            start_pulls,
            assign: Assignment::new(boxes.len()),
            assign_saved: Vec::new(),
            df_goal: Vec::new(),
            df_total: 0,
            row_box: Vec::new(),
            row_of: vec![NONE; p.n],
            df_keys: Vec::new(),
            corrals: (aim == Aim::Dragonfly && !a.exp.no_df_corral)
                .then(|| Corrals::new(p.n, true)),
            corral_pushes: Vec::new(),
            pull_test,
            confine: (pull_test && !a.exp.no_confine)
                .then(|| Confinement::new(&p, a.exp.confine_limit.unwrap_or(LIMIT))),
            area_buf: Vec::new(),
            stuck_boxes: Vec::new(),
            stuck_occupied: vec![false; p.n],
            stuck_reach: vec![false; p.n],
            matcher: crate::analysis::matching::Matcher::default(),
            match_costs: Vec::new(),
            start_key,
            start_boxes,
            own_key: Vec::new(),
            pull_stops: (!removal && !a.exp.no_pull_stops)
                .then(|| super::stops::Stops::for_pulls(&p, &a.layout.board, boxes)),
            memory_limit,
            full: false,
            move_buf: Vec::new(),
            order: Vec::new(),
            region_seen: Vec::new(),
            region_label: Vec::new(),
            region_stack: Vec::new(),
            disc: Vec::new(),
            low: Vec::new(),
            cyclic: Vec::new(),
            dfs: Vec::new(),
            supply: None,
            supplied: HashMap::default(),
            walled: Vec::new(),
            stats: BackStats { fewest_on_goals: nb as u16, ..BackStats::default() },
            fresh: None,
            a,
        };
        b.roots();
        b
    }

    /// The solved position with the player in each area next to a box (the last push
    /// leaves the player beside a box): one root each.
    fn roots(&mut self) {
        let p = Arc::clone(&self.a.p);
        let goals = p.goals.clone();
        self.st.set(&p, &self.a.layout, &goals, goals[0]);
        let mut zone_seen = vec![false; p.n];
        for s in 0..p.n {
            if self.st.occupied[s] || zone_seen[s] {
                continue;
            }
            self.st.player = s as u16;
            self.st.flood(&p);
            let mut next_to_box = false;
            let occupied = &self.st.occupied;
            self.st.flood.for_each_square(|x| {
                zone_seen[x as usize] = true;
                next_to_box |= p.nbr[x as usize].iter().any(|&y| y != NONE && occupied[y as usize]);
            });
            if !next_to_box {
                continue;
            }
            let key = self.key();
            if self.seen.contains_key(&key) {
                continue;
            }
            let id = self.store(NO_NODE, 0, 0);
            self.seen.insert(key, id);
            self.prepare(id);
        }
    }

    /// The key of the position in the state: its boxes and player area, and the start
    /// squares taken by removed boxes.
    fn key(&self) -> u64 {
        let p = &self.a.p;
        self.used.iter().fold(self.st.key(p), |k, &s| k ^ p.z_box[s as usize].rotate_left(29))
    }

    /// The node whose position has key `key` (same boxes, same player area), if stored.
    #[inline]
    pub fn lookup(&self, key: u64) -> Option<u32> {
        self.seen.get(&key).copied()
    }

    /// True when the search still has moves to make and room to store them.
    pub fn active(&self) -> bool {
        !self.full && self.cells.iter().any(|c| !c.is_empty())
    }

    /// The store's memory budget in bytes.
    pub fn memory_budget(&self) -> usize {
        self.memory_limit
    }

    /// Bytes held by the store.
    pub fn memory(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.positions.capacity() * 2
            + self.moves.capacity() * 8
            + self.own_key.capacity() * 4
            + self.seen.capacity() * 13
            + self.cells.iter().map(|c| c.len() * 12).sum::<usize>()
    }

    /// With `fillstore`, the store's free bytes and the bytes it holds, for [`grow_within`].
    fn room(&self) -> Option<(usize, usize)> {
        let held = self.a.exp.fill_store.then(|| self.memory())?;
        Some((self.memory_limit.saturating_sub(held), held))
    }

    /// The store is full once it holds more than its budget.
    fn check_full(&mut self) {
        if self.memory() > self.memory_limit {
            self.full = true;
        }
    }

    /// Search for up to `budget` moves.
    pub fn run(&mut self, budget: u64) -> BackEvent {
        if let Some(&id) = self.seen.get(&self.start_key).filter(|_| !self.removal) {
            return BackEvent::Reached(id);
        }
        for _ in 0..budget {
            if self.full {
                return BackEvent::MemoryFull;
            }
            let Some(c) = self.pick_cell() else { return BackEvent::Exhausted };
            let Reverse((_, tag)) = self.cells[c].pop().expect("picked cells are not empty");
            let id = u32::MAX - tag;
            let node = &mut self.nodes[id as usize];
            let k = node.next;
            node.next += 1;
            let partial = node.moves_at & PARTIAL != 0;
            if k == 0 && node.moves_len > 2 && !partial {
                self.sort_rest(id);
            }
            if k == 1 && partial {
                self.load(id);
                // Made again, its pulls and cuts are not counted twice.
                let stats = self.stats;
                self.prepare_with(id, true);
                self.stats = stats;
            }
            let node = &self.nodes[id as usize];
            let at = node.moves_at & !PARTIAL;
            let (mv, _) = self.moves[(at + k) as usize];
            let weight = node.weight + (k >= node.advised) as u32;
            if node.next < node.moves_len {
                let (_, key) = self.moves[(at + node.next) as usize];
                let w = node.weight + (node.next >= node.advised) as u32;
                let q = self.queue_key(id, w, key);
                self.cells[c].push(Reverse((q, tag)));
            }
            if let Some(reached) = self.expand(id, mv, weight) {
                return BackEvent::Reached(reached);
            }
        }
        BackEvent::Budget
    }

    /// The queue key of node `id` whose next pull has weight `w` and key `key`: the weight,
    /// then the key. With `dfnode` the dragonfly search (every weight 0) queues the node by
    /// its own key instead, then the oldest first, as Festival's.
    fn queue_key(&self, id: u32, w: u32, key: u32) -> u64 {
        if self.aim == Aim::Dragonfly && self.a.exp.df_node {
            (self.own_key[id as usize] as u64) << 32 | id as u64
        } else {
            (w as u64) << 32 | key as u64
        }
    }

    /// Sort the pulls of node `id` after its first by key, ties kept in the order they
    /// were generated (see [`Backward::prepare`]); `order` is the scratch, as (key, place
    /// among the rest, pull).
    fn sort_rest(&mut self, id: u32) {
        let node = &self.nodes[id as usize];
        // The advised pulls stay first (a dragonfly node's are all advised).
        let kept =
            if node.advised == u32::MAX { 1 } else { node.advised.max(1).min(node.moves_len) };
        let rest = (node.moves_at + kept) as usize..(node.moves_at + node.moves_len) as usize;
        self.order.clear();
        let pulls = self.moves[rest.clone()].iter().enumerate();
        self.order.extend(pulls.map(|(k, &(mv, key))| (key, k as u32, mv)));
        self.order.sort_unstable();
        for (slot, &(key, _, mv)) in self.moves[rest].iter_mut().zip(&self.order) {
            *slot = (mv, key);
        }
    }

    fn pick_cell(&mut self) -> Option<usize> {
        self.turn += 1;
        if self.turn % 2 == 0 && !self.cells[self.best_cell as usize].is_empty() {
            return Some(self.best_cell as usize);
        }
        let len = self.cells.len();
        for k in 0..len {
            let c = (self.cursor + k) % len;
            if !self.cells[c].is_empty() {
                self.cursor = c + 1;
                return Some(c);
            }
        }
        None
    }

    /// The slice of `positions` of node `id`: its boxes, then its taken start squares
    /// (one entry for each box of the level).
    fn slice(&self, id: u32) -> (usize, usize, usize) {
        let at = id as usize * self.nb;
        (at, at + self.nodes[id as usize].live as usize, at + self.nb)
    }

    fn load(&mut self, id: u32) {
        let (at, mid, end) = self.slice(id);
        let norm = self.nodes[id as usize].norm;
        let p = &self.a.p;
        self.st.set(p, &self.a.layout, &self.positions[at..mid], norm);
        self.used.clear();
        self.used.extend_from_slice(&self.positions[mid..end]);
    }

    fn store(&mut self, parent: u32, mv: u32, weight: u32) -> u32 {
        let id = self.nodes.len() as u32;
        if let Some((free, held)) = self.room() {
            grow_within(&mut self.positions, self.nb, free, held);
            grow_within(&mut self.nodes, 1, free, held);
        }
        self.positions.extend_from_slice(&self.st.boxes);
        self.positions.extend_from_slice(&self.used);
        debug_assert_eq!(self.positions.len(), (id as usize + 1) * self.nb);
        self.nodes.push(Node {
            parent,
            mv,
            live: self.st.boxes.len() as u16,
            weight,
            moves_at: 0,
            moves_len: 0,
            next: 0,
            advised: 0,
            norm: self.st.norm,
        });
        self.stats.nodes += 1;
        self.check_full();
        id
    }

    /// Make pull-move `mv` of node `parent`; store the child if new. Returns it when it is
    /// the start position.
    fn expand(&mut self, parent: u32, mv: u32, weight: u32) -> Option<u32> {
        self.stats.generated += 1;
        work::add(Op::Expand, 1);
        self.load(parent);
        let p = Arc::clone(&self.a.p);
        let m = Move::unpack(mv);
        let player = p.nbr[m.to as usize][m.side as usize];
        self.st.move_box(&p, &self.a.layout, m.box_i as usize, m.to, player);
        if self.removes(m.to) {
            let mut boxes = std::mem::take(&mut self.left_buf);
            boxes.clear();
            boxes.extend(self.st.boxes.iter().copied().filter(|&b| b != m.to));
            self.st.set(&p, &self.a.layout, &boxes, player);
            self.left_buf = boxes;
            let k = self.used.partition_point(|&s| s < m.to);
            self.used.insert(k, m.to);
        }
        let key = self.key();
        if self.seen.contains_key(&key) {
            self.stats.duplicates += 1;
            return None;
        }
        if !self.supplied() {
            return None;
        }
        if self.pull_test && self.pull_stuck() {
            self.stats.pull_dead += 1;
            return None;
        }
        if self.confined() {
            self.stats.confined += 1;
            return None;
        }
        let id = self.store(parent, mv, weight);
        self.seen.insert(key, id);
        if let Some(fresh) = self.fresh.as_mut() {
            fresh.push((key, id));
        }
        if self.removal {
            if self.st.boxes.iter().all(|&b| self.removes(b)) {
                self.best = (0, id);
                return Some(id);
            }
        } else if self.is_start(key) {
            return Some(id);
        }
        self.prepare(id);
        None
    }

    /// Floor areas the boxes of node `id` cut the floor into (for the trace).
    pub fn areas_of(&mut self, id: u32) -> u16 {
        self.load(id);
        self.regions()
    }

    /// True when the position in the state, whose key is `key`, is the forward start.
    fn is_start(&self, key: u64) -> bool {
        key == self.start_key && self.st.boxes == self.start_boxes
    }

    /// True when some box of the position in the state (flooded) can never be pulled again
    /// and stands on no start square: then no pulls lead back to the start, and no forward
    /// position is this one. Boxes the player can pull one square are taken off, which
    /// opens their squares to the player, until none can be (Festival's free-pull test).
    fn pull_stuck(&mut self) -> bool {
        let p = &self.a.p;
        let st = &self.st;
        let home = |b: &u16| self.start_boxes.binary_search(b).is_ok();
        // Most positions: every box off the start squares can be pulled now.
        let now = |b: u16| pullable(p, b, |s| st.flood.reached(s), |s| st.occupied[s as usize]);
        if st.boxes.iter().all(|b| home(b) || now(*b)) {
            return false;
        }
        let (boxes, occ, reach) =
            (&mut self.stuck_boxes, &mut self.stuck_occupied, &mut self.stuck_reach);
        boxes.clear();
        boxes.extend_from_slice(&st.boxes);
        for &b in boxes.iter() {
            occ[b as usize] = true;
        }
        reach.fill(false);
        st.flood.for_each_square(|s| reach[s as usize] = true);
        let mut stack = std::mem::take(&mut self.region_stack);
        loop {
            let before = boxes.len();
            boxes.retain(|&b| {
                let goes = pullable(p, b, |s| reach[s as usize], |s| occ[s as usize]);
                if goes {
                    // The box goes: the player floods in through its square.
                    occ[b as usize] = false;
                    reach[b as usize] = true;
                    stack.push(b);
                    while let Some(x) = stack.pop() {
                        for &y in &p.nbr[x as usize] {
                            if y != NONE && !reach[y as usize] && !occ[y as usize] {
                                reach[y as usize] = true;
                                stack.push(y);
                            }
                        }
                    }
                }
                !goes
            });
            if boxes.len() == before || boxes.is_empty() {
                break;
            }
        }
        self.region_stack = stack;
        let stuck = !boxes.iter().all(home);
        for &b in boxes.iter() {
            occ[b as usize] = false;
        }
        stuck
    }

    /// True when the position in the state (flooded) shuts the player in a zone for good
    /// with work left outside it ([`Confinement`]).
    fn confined(&mut self) -> bool {
        let Some(confine) = self.confine.as_mut() else { return false };
        let st = &self.st;
        // One area of free floor (most positions): nothing is shut off.
        if st.flood.unreached(&st.occupied).next().is_none() {
            return false;
        }
        let area = &mut self.area_buf;
        area.clear();
        st.flood.for_each_square(|s| area.push(s));
        let shut =
            confine.confined(&self.a.p, &st.boxes, &st.occupied, area, st.norm, &self.start_boxes);
        self.stats.confine_searches = confine.stats.searches;
        self.stats.confine_exceeded = confine.stats.exceeded;
        shut
    }

    /// Keep the positions stored from now on for [`Backward::take_fresh`]: the forward
    /// searches look up only their own new positions in the perimeter, so one the
    /// perimeter reaches after a forward search stored it would go unmet.
    pub fn record_fresh(&mut self) {
        self.fresh.get_or_insert_with(Vec::new);
    }

    /// The positions stored since the last call (key, node), into `out` (cleared first).
    pub fn take_fresh(&mut self, out: &mut Vec<(u64, u32)>) {
        out.clear();
        if let Some(fresh) = self.fresh.as_mut() {
            std::mem::swap(fresh, out);
        }
    }

    /// True when pull `m` of the position in the state takes its box off the board
    /// (packing search): onto a start square it leaves by, from a square it could not.
    fn takes_off(&self, m: &Move) -> bool {
        self.removes(m.to) && !self.removes(self.st.boxes[m.box_i as usize])
    }

    /// True when a box pulled onto `s` leaves the board (packing search): `s` is a start
    /// square no removed box has taken.
    #[inline]
    pub fn removes(&self, s: u16) -> bool {
        // A start square is the one square at distance 0 from the start squares.
        self.removal && self.start_dist[s as usize] == 0 && self.used.binary_search(&s).is_err()
    }

    /// Packing search: the stored position nearest the end (fewest boxes left, then fewest
    /// on goals).
    pub fn best(&self) -> Option<u32> {
        (self.best.1 != NO_NODE).then_some(self.best.1)
    }

    /// Packing search: the pulls from a root to node `id`, each as the box's square before
    /// and after it (a box pulled onto a start square no removed box has taken leaves the
    /// board), and the root's goals as they were (every goal holds a box).
    pub fn pulls_to(&self, id: u32) -> Vec<(u16, u16)> {
        let mut out = Vec::new();
        let mut x = id;
        while self.nodes[x as usize].parent != NO_NODE {
            let parent = self.nodes[x as usize].parent;
            let m = Move::unpack(self.nodes[x as usize].mv);
            let (at, mid, _) = self.slice(parent);
            out.push((self.positions[at + m.box_i as usize], m.to));
            debug_assert!(mid - at > m.box_i as usize);
            x = parent;
        }
        out.reverse();
        out
    }

    /// Boxes on goals of the position in the state.
    fn on_goals(&self) -> u16 {
        let p = &self.a.p;
        self.st.boxes.iter().filter(|&&b| p.is_goal[b as usize]).count() as u16
    }

    /// Generate and order the pulls of node `id` (in the state) and file it.
    fn prepare(&mut self, id: u32) {
        self.prepare_with(id, false);
    }

    /// [`Backward::prepare`]; with `again`, only the pulls of node `id` (in the state) are
    /// made again and kept whole, sorted, the node being picked the second time
    /// (`lazypulls`).
    fn prepare_with(&mut self, id: u32, again: bool) {
        let a = Arc::clone(&self.a);
        let p = &a.p;
        let on_goals = self.on_goals();
        // Boxes left to place: on the board and not on a start square of their own.
        let live = self.st.boxes.iter().filter(|&&b| !self.removes(b)).count() as u16;
        self.stats.fewest_on_goals = self.stats.fewest_on_goals.min(on_goals);
        self.move_buf.clear();
        self.gen.generate(p, &a.layout, &mut self.st, true, &mut self.move_buf);
        if let Some(stops) = &self.pull_stops {
            let (st, len) = (&self.st, self.move_buf.len());
            self.move_buf.retain(|m| {
                let from = st.boxes[m.box_i as usize];
                !stops.prunes_pull(&st.occupied, from, m.to)
            });
            self.stats.stop_cuts += (len - self.move_buf.len()) as u64;
        }
        let festival = self.aim == Aim::Festival;
        let can_leave = festival && self.move_buf.iter().any(|m| self.takes_off(m));
        if can_leave {
            // Festival's base moves: only the pulls that take a box off, the first of each
            // box (the moves come box by box).
            let mut last = u16::MAX;
            let mut buf = std::mem::take(&mut self.move_buf);
            buf.retain(|m| {
                let keep = m.box_i != last && self.takes_off(m);
                if keep {
                    last = m.box_i;
                }
                keep
            });
            self.move_buf = buf;
        }
        let (regions, off_cycles) = if self.aim == Aim::Open {
            self.areas_and_off_cycles()
        } else {
            // The move generation's block search counted the areas already.
            debug_assert_eq!(self.gen.areas(), self.regions());
            (self.gen.areas(), 0)
        };
        // The position's rank (lower is nearer the end): boxes left to place, then boxes
        // on goals (packing search); floor areas, then boxes on goals (otherwise: the HF
        // search's target, open to the player; XSokoban 66 solved with it, fewest boxes
        // on goals alone never).
        let rank = if festival {
            (live as u32) << 24 | (regions.min(0xFF) as u32) << 16 | on_goals as u32
        } else if self.removal {
            (live as u32) << 16 | on_goals as u32
        } else if self.aim == Aim::Open {
            (regions as u32) << 16 | off_cycles as u32
        } else {
            (regions as u32) << 16 | on_goals as u32
        };
        // The boxes' summed `order_dist`: their pulls to the start squares, or their
        // nearness to the goals (`away`, `open`).
        let od = &self.order_dist;
        let dist: u32 = self.st.boxes.iter().map(|&b| od[b as usize] as u32).sum();
        let target = match self.aim {
            Aim::Near | Aim::Dragonfly => {
                (regions as u64) << 48 | (dist as u64) << 16 | on_goals as u64
            }
            Aim::Open => (rank as u64) << 32 | dist as u64,
            Aim::Start | Aim::Away | Aim::Festival => rank as u64,
        };
        if target < self.best.0 && (self.removal || self.reachable_from_start()) {
            self.best = (target, id);
        }
        if regions > 1 && self.corrals.is_some() {
            self.corral_rule(id);
        }
        // Order: by boxes left on goals, then by the boxes' summed distance to the start
        // squares, then fewest pulls. The best pull taking a box off a goal weighs 0.
        let dragonfly = self.aim == Aim::Dragonfly;
        if dragonfly {
            self.dragonfly_keys(id);
        }
        let od = &self.order_dist;
        self.order.clear();
        let mut best_off: Option<(u32, usize)> = None;
        let mut best_advice: Option<(u32, usize)> = None;
        for (k, m) in self.move_buf.iter().enumerate() {
            let from = self.st.boxes[m.box_i as usize];
            let off = p.is_goal[from as usize] && !p.is_goal[m.to as usize];
            let removed = self.removes(m.to);
            let unplaced_after = live as u32 + self.removes(from) as u32 - removed as u32;
            let d = dist - od[from as usize] as u32
                + if removed { 0 } else { od[m.to as usize] as u32 };
            let goals_after = on_goals as u32 - off as u32
                + (!p.is_goal[from as usize] && p.is_goal[m.to as usize]) as u32;
            if festival {
                // Festival's advisors: the pull to advise among those that leave, else
                // among the pulls of a box from a goal taking the boxes farther from the
                // goals; a box off the goals first, then one not from a target hole, then
                // the longest pull.
                let on_goal = p.is_goal[from as usize];
                let candidate = if can_leave { removed } else { on_goal && d < dist };
                let advice = (on_goal as u32) << 17
                    | (self.holes[from as usize] as u32) << 16
                    | (0xFFFF - m.pushes as u32);
                if candidate && best_advice.is_none_or(|(b, _)| advice < b) {
                    best_advice = Some((advice, k));
                }
            }
            let key = if dragonfly {
                self.df_keys[k]
            } else if self.removal {
                // Removing a box beats everything; then boxes on goals, then distance.
                unplaced_after.min(0xFF) << 24 | goals_after.min(0xFF) << 16 | d.min(0xFFFF)
            } else {
                goals_after << 24 | d.min(0xFF_FFFF)
            };
            let advised = if self.removal { removed || (off && !self.removes(from)) } else { off };
            if !festival && advised && best_off.is_none_or(|(bk, _)| key < bk) {
                best_off = Some((key, k));
            }
            self.order.push((1, key, k as u32));
        }
        if festival {
            best_off = best_advice;
        }
        if dragonfly && self.a.exp.df_pure {
            best_off = None;
        }
        // Not with `lazypulls`, whose nodes keep only their first two pulls.
        let conn = if self.a.exp.back_conn
            && !festival
            && !dragonfly
            && !self.removal
            && !again
            && !self.a.exp.lazy_pulls
            && regions > 1
        {
            self.fewer_areas(regions)
        } else {
            None
        };
        // Only the first pull is needed to file the node, and many nodes are never picked:
        // the rest are sorted when the node is picked first (`sort_rest`), kept meanwhile in
        // the order they were generated, which breaks ties in the sort.
        let first = best_off
            .map(|(_, k)| k)
            .or(conn)
            .unwrap_or_else(|| self.order.iter().min().map_or(0, |&(_, _, k)| k as usize));
        // The connectivity advisor's pull, second where the first is another advisor's.
        let second = conn.filter(|&c| c != first);
        let first = if again {
            // Made again, the pull made first stays first.
            let node = &self.nodes[id as usize];
            debug_assert_eq!(self.order.len(), node.moves_len as usize, "the same pulls again");
            let (made, _) = self.moves[(node.moves_at & !PARTIAL) as usize];
            self.move_buf.iter().position(|m| m.pack() == made).unwrap_or(first)
        } else {
            first
        };
        if let Some((free, held)) = self.room() {
            grow_within(&mut self.moves, self.order.len(), free, held);
        }
        let at = self.moves.len() as u32;
        if let Some(&(_, key, _)) = self.order.get(first) {
            self.moves.push((self.move_buf[first].pack(), key));
        }
        if let Some(c) = second {
            self.moves.push((self.move_buf[c].pack(), self.order[c].1));
        }
        let lazy = !again && self.a.exp.lazy_pulls && self.order.len() > 2;
        if lazy {
            // Only the next best is read before the node's second pick: the rest wait.
            let second =
                self.order.iter().enumerate().filter(|&(k, _)| k != first).min_by_key(|&(_, o)| o);
            if let Some((k, &(_, key, _))) = second {
                self.moves.push((self.move_buf[k].pack(), key));
            }
        } else {
            for (k, &(_, key, _)) in self.order.iter().enumerate() {
                if k != first && Some(k) != second {
                    self.moves.push((self.move_buf[k].pack(), key));
                }
            }
        }
        let node = &mut self.nodes[id as usize];
        node.moves_at = if lazy { at | PARTIAL } else { at };
        node.moves_len = self.order.len() as u32;
        if again {
            // Kept whole, as an eager node's after its first pick.
            self.sort_rest(id);
            self.check_full();
            return;
        }
        // Best first: every pull weighs nothing.
        let advised = (best_off.is_some() || conn.is_some()) as u32 + second.is_some() as u32;
        node.advised = if dragonfly { u32::MAX } else { advised };
        if self.order.is_empty() {
            return;
        }
        let w = node.weight + (advised == 0 && !dragonfly) as u32;
        let key = self.queue_key(id, w, self.moves[at as usize].1);
        // The cell: boxes on goals (`open`: squares on no cycle) and areas of the floor.
        let filed_by = if self.aim == Aim::Open { off_cycles } else { on_goals };
        let cell_key = if dragonfly {
            0
        } else {
            (live as u64) << 32 | (filed_by as u64) << 16 | regions as u64
        };
        let c = match self.cell_of.get(&cell_key) {
            Some(&c) => c,
            None => {
                let c = self.cells.len() as u32;
                self.cells.push(BinaryHeap::new());
                self.cell_rank.push(rank);
                self.cell_of.insert(cell_key, c);
                self.cursor = c as usize;
                self.stats.cells = self.cells.len();
                c
            }
        };
        self.cells[c as usize].push(Reverse((key, u32::MAX - id)));
        if rank < self.cell_rank[self.best_cell as usize]
            || self.cells[self.best_cell as usize].is_empty()
        {
            self.best_cell = c;
        }
        self.check_full();
    }

    /// [`Aim::Dragonfly`], its corral rule (Festival's): where the position of node `id`
    /// (in the state), taken as a forward position, has a PI-corral with work left, the
    /// forward search would push into that corral before anything else; so the position
    /// that came before it forward (a child here) must differ from it around the box the
    /// last pull moved. The pulls of that box again (its other places are siblings) and
    /// the pulls that leave the player's reach beside it as it was are dropped from
    /// `move_buf`, unless they reach the start.
    fn corral_rule(&mut self, id: u32) {
        let node = &self.nodes[id as usize];
        if node.parent == NO_NODE {
            return;
        }
        let last = Move::unpack(node.mv).to;
        let a = Arc::clone(&self.a);
        let p = &a.p;
        let Some(corrals) = self.corrals.as_mut() else { return };
        let st = &self.st;
        let has_box = |s: usize| st.occupied[s];
        let reached = |s: u16| st.flood.reached(s);
        let outside = st.flood.unreached(&st.occupied);
        let verdict = corrals.analyse(p, has_box, reached, outside, NONE, &mut self.corral_pushes);
        if verdict == Verdict::All {
            return;
        }
        let beside = |st: &State| {
            let nbr = &p.nbr[last as usize];
            (0..4).fold(0u8, |m, d| m | ((nbr[d] != NONE && st.flood.reached(nbr[d])) as u8) << d)
        };
        let before = beside(&self.st);
        let player = self.st.player;
        let mut buf = std::mem::take(&mut self.move_buf);
        let len = buf.len();
        buf.retain(|m| {
            let from = self.st.boxes[m.box_i as usize];
            if from == last {
                return false;
            }
            let stand = p.nbr[m.to as usize][m.side as usize];
            let k = self.st.move_box(p, &a.layout, m.box_i as usize, m.to, stand);
            let keep = beside(&self.st) != before || self.is_start(self.st.key(p));
            self.st.move_box(p, &a.layout, k, from, player);
            keep
        });
        self.stats.corral_cuts += (len - buf.len()) as u64;
        self.move_buf = buf;
    }

    /// Festival's connectivity advisor: the pull of `move_buf` after which the boxes cut
    /// the floor into the fewest areas, where fewer than `regions`; ties to the pull ordered
    /// first (`order`'s keys).
    fn fewer_areas(&mut self, regions: u16) -> Option<usize> {
        // The areas as labels: only a pull whose box leaves a square beside two of them can
        // join areas (the square it goes to is in the player's, which it cannot empty).
        let p = Arc::clone(&self.a.p);
        self.label_areas();
        let mut best: Option<(u16, u32, usize)> = None;
        for k in 0..self.move_buf.len() {
            let m = self.move_buf[k];
            let from = self.st.boxes[m.box_i as usize];
            let labels = &self.region_label;
            let mut first = u16::MAX;
            let joins = p.nbr[from as usize].iter().any(|&y| {
                if y == NONE || self.st.occupied[y as usize] {
                    return false;
                }
                let l = labels[y as usize];
                if first == u16::MAX {
                    first = l;
                }
                l != first
            });
            if !joins {
                continue;
            }
            self.st.occupied[from as usize] = false;
            self.st.occupied[m.to as usize] = true;
            let r = self.regions();
            self.st.occupied[m.to as usize] = false;
            self.st.occupied[from as usize] = true;
            let key = self.order[k].1;
            if r < regions && best.is_none_or(|(br, bk, _)| (r, key) < (br, bk)) {
                best = Some((r, key, k));
            }
        }
        best.map(|(_, _, k)| k)
    }

    /// [`Aim::Dragonfly`]: the order key of each pull in `move_buf` into `df_keys`, the
    /// pulls after which some box can no longer be matched to a start square dropped;
    /// with `dfnode`, node `id`'s own key into `own_key`.
    fn dragonfly_keys(&mut self, id: u32) {
        self.match_start();
        let starts = &self.start_boxes;
        let on_start = self.st.boxes.iter().filter(|b| starts.binary_search(b).is_ok()).count();
        let off = (self.nb - on_start) as u32;
        if self.a.exp.df_node {
            if self.own_key.len() <= id as usize {
                self.own_key.resize(id as usize + 1, 0);
            }
            self.own_key[id as usize] = dragonfly_order(self.df_total, off);
        }
        let mut buf = std::mem::take(&mut self.move_buf);
        self.df_keys.clear();
        buf.retain(|m| {
            let from = self.st.boxes[m.box_i as usize];
            let key = self.dragonfly_key(from, m.to, off);
            self.df_keys.extend(key);
            key.is_some()
        });
        self.move_buf = buf;
    }

    /// [`Aim::Dragonfly`]: the least-cost matching of the state's boxes to the start boxes
    /// (cost: pulls to the start square), kept for [`Backward::dragonfly_key`] with its
    /// total and each row's goal.
    fn match_start(&mut self) {
        let nb = self.nb;
        if self.row_box.is_empty() {
            self.row_box = self.st.boxes.clone();
            for (r, &b) in self.row_box.iter().enumerate() {
                self.row_of[b as usize] = r as u16;
            }
            let (rows, pulls) = (&self.row_box, &self.start_pulls);
            self.assign.solve(&|i, j| pull_cost(pulls, nb, j, rows[i]));
        } else {
            // The rows of boxes gone take the boxes come, one each, and are matched again.
            let mut k = 0;
            for &b in &self.st.boxes {
                if self.row_of[b as usize] != NONE {
                    continue;
                }
                while self.st.occupied[self.row_box[k] as usize] {
                    k += 1;
                }
                self.row_of[self.row_box[k] as usize] = NONE;
                self.row_box[k] = b;
                self.row_of[b as usize] = k as u16;
                let (rows, pulls) = (&self.row_box, &self.start_pulls);
                self.assign.update_row(k, &|i, j| pull_cost(pulls, nb, j, rows[i]));
            }
        }
        self.assign_saved.resize(self.assign.saved_len(), 0);
        self.assign.save_to(&mut self.assign_saved);
        let (rows, pulls) = (&self.row_box, &self.start_pulls);
        self.df_total = self.assign.total(&|r: usize, j: usize| pull_cost(pulls, nb, j, rows[r]));
        self.df_goal.resize(self.nb, 0);
        self.assign.goals_of(&mut self.df_goal);
    }

    /// [`Aim::Dragonfly`]: the order key of the pull of the box on `from` to `to` in the
    /// position matched by [`Backward::match_start`], `off` of whose boxes stand off the
    /// start squares: the matching's cost after it, then the fewest boxes off the start
    /// squares; `None` where some box can no longer be matched to a start square.
    fn dragonfly_key(&mut self, from: u16, to: u16, off: u32) -> Option<u32> {
        let (nb, rows, pulls) = (self.nb, &self.row_box, &self.start_pulls);
        let i = self.row_of[from as usize] as usize;
        let cost = |r: usize, j: usize| pull_cost(pulls, nb, j, if r == i { to } else { rows[r] });
        let goal = self.df_goal[i] as usize;
        let now = (self.df_total, goal, pull_cost(pulls, nb, goal, from));
        let total = self.assign.total_if_row(i, &cost, now, &self.assign_saved);
        if total >= INF_COST {
            return None;
        }
        let on_start = |s: u16| self.start_boxes.binary_search(&s).is_ok() as u32;
        let off = off + on_start(from) - on_start(to);
        Some(dragonfly_order(total, off))
    }

    /// True when the boxes of the position in the state can each have a start box of its
    /// own that could be pushed there on the empty board, the player starting on its side
    /// ([`start_reach`]): else no forward position can ever be this one, and the HF search
    /// toward it ends at once (XSokoban 90: its best position by floor areas and boxes on
    /// goals never could; Sasquatch V 28: three of its four targets, by the sides alone).
    fn reachable_from_start(&mut self) -> bool {
        let (nb, pulls) = (self.nb, &self.start_pulls);
        self.match_costs.clear();
        for i in 0..nb {
            let reach = |b: u16| if pulls[b as usize * nb + i] == u16::MAX { INF_DIST } else { 0 };
            self.match_costs.extend(self.st.boxes.iter().map(|&b| reach(b)));
        }
        self.matcher.perfect(&self.match_costs, nb, nb)
    }

    /// The areas of free floor of the state's position (as [`Backward::regions`]), and its
    /// free squares on no cycle of the free floor (every edge at them a bridge), empty
    /// goals not counted: Festival's biconnectivity score. One depth-first search with low
    /// points, its roots the areas; no allocation once the scratch has grown.
    fn areas_and_off_cycles(&mut self) -> (u16, u16) {
        let p = &self.a.p;
        let n = p.n;
        let occupied = &self.st.occupied;
        let (disc, low, cyclic, dfs) =
            (&mut self.disc, &mut self.low, &mut self.cyclic, &mut self.dfs);
        disc.clear();
        disc.resize(n, 0);
        low.clear();
        low.resize(n, 0);
        cyclic.clear();
        cyclic.resize(n, false);
        let (mut time, mut areas) = (0, 0);
        for root in 0..n {
            if occupied[root] || disc[root] != 0 {
                continue;
            }
            areas += 1;
            time += 1;
            disc[root] = time;
            low[root] = time;
            dfs.push((root as u16, 0));
            while let Some(&mut (v, ref mut side)) = dfs.last_mut() {
                let v = v as usize;
                if *side < 4 {
                    let w = p.nbr[v][*side as usize];
                    *side += 1;
                    if w == NONE || occupied[w as usize] {
                        continue;
                    }
                    let w = w as usize;
                    if disc[w] == 0 {
                        time += 1;
                        disc[w] = time;
                        low[w] = time;
                        dfs.push((w as u16, 0));
                    } else if disc[w] < disc[v]
                        && (dfs.len() < 2 || dfs[dfs.len() - 2].0 as usize != w)
                    {
                        // A back edge to an ancestor: both ends lie on a cycle.
                        low[v] = low[v].min(disc[w]);
                        cyclic[v] = true;
                        cyclic[w] = true;
                    }
                    continue;
                }
                dfs.pop();
                if let Some(&(u, _)) = dfs.last() {
                    let u = u as usize;
                    low[u] = low[u].min(low[v]);
                    // The tree edge u-v is no bridge: both ends lie on a cycle.
                    if low[v] <= disc[u] {
                        cyclic[u] = true;
                        cyclic[v] = true;
                    }
                }
            }
        }
        let off = (0..n).filter(|&s| !occupied[s] && !p.is_goal[s] && !cyclic[s]).count();
        (areas, off as u16)
    }

    /// Each free square's area (numbered from 0) into `region_label`.
    fn label_areas(&mut self) {
        let (label, stack) = (&mut self.region_label, &mut self.region_stack);
        flood_areas(&self.a.p, &self.st.occupied, label, stack);
    }

    /// Areas of free floor in the state's position (its own scratch: the labels of
    /// [`Backward::label_areas`] stay as they are).
    fn regions(&mut self) -> u16 {
        let (label, stack) = (&mut self.region_seen, &mut self.region_stack);
        flood_areas(&self.a.p, &self.st.occupied, label, stack)
    }

    /// The pushes that lead from node `id`'s position to the solved position: its pulls
    /// back to its root, each played backwards.
    pub fn pushes_from(&mut self, id: u32) -> Vec<(u16, u8)> {
        let p = Arc::clone(&self.a.p);
        let mut out = Vec::new();
        let mut steps = Vec::new();
        let mut x = id;
        while self.nodes[x as usize].parent != NO_NODE {
            let parent = self.nodes[x as usize].parent;
            self.load(parent);
            let m = Move::unpack(self.nodes[x as usize].mv);
            steps.clear();
            let ok = self.gen.steps_of(&p, &self.a.layout, &mut self.st, m, true, &mut steps);
            debug_assert!(ok.is_some(), "a stored pull is possible from its parent");
            // The pulls took the box from `s` one step in direction `e` each; played
            // backwards, the box is pushed from `s + e` in direction `e ^ 2`, last first.
            for &(s, e) in steps.iter().rev() {
                out.push((p.step(s, e as usize), e ^ 2));
            }
            x = parent;
        }
        out
    }

    /// For studying a meeting that does not happen: the most boxes any stored position
    /// (all its boxes on the board) shares with `boxes` (sorted), and how many stored
    /// positions share that many.
    pub fn nearest_overlap(&self, boxes: &[u16]) -> (usize, usize) {
        let (mut best, mut count) = (0, 0);
        for id in 0..self.nodes.len() as u32 {
            let (at, mid, end) = self.slice(id);
            if mid != end {
                continue;
            }
            let (mut i, mut j, mut k) = (0, 0, 0);
            let theirs = &self.positions[at..mid];
            while i < boxes.len() && j < theirs.len() {
                match boxes[i].cmp(&theirs[j]) {
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                    std::cmp::Ordering::Equal => {
                        k += 1;
                        i += 1;
                        j += 1;
                    }
                }
            }
            if k > best {
                (best, count) = (k, 0);
            }
            count += usize::from(k == best);
        }
        (best, count)
    }

    /// Boxes (sorted) and player-area square of node `id`.
    pub fn position(&self, id: u32) -> (&[u16], u16) {
        let (at, mid, _) = self.slice(id);
        (&self.positions[at..mid], self.nodes[id as usize].norm)
    }
}

/// Festival's target holes: a goal with walls on three sides, then, taken for a wall, the
/// goal before it, and so on. A box there blocks none of the others, so the packing search
/// fills them first (pulls from them last).
/// Each square not `occupied`'s area, numbered from 0, into `label` (`u16::MAX` on
/// occupied squares); returns how many areas.
fn flood_areas(p: &Problem, occupied: &[bool], label: &mut Vec<u16>, stack: &mut Vec<u16>) -> u16 {
    label.clear();
    label.resize(p.n, u16::MAX);
    let mut count = 0;
    for s in 0..p.n {
        if occupied[s] || label[s] != u16::MAX {
            continue;
        }
        label[s] = count;
        stack.push(s as u16);
        while let Some(x) = stack.pop() {
            for &y in &p.nbr[x as usize] {
                if y != NONE && !occupied[y as usize] && label[y as usize] == u16::MAX {
                    label[y as usize] = count;
                    stack.push(y);
                }
            }
        }
        count += 1;
    }
    count
}

fn target_holes(p: &Problem) -> Vec<bool> {
    let mut hole = vec![false; p.n];
    loop {
        let mut changed = false;
        for s in 0..p.n {
            let shut = p.nbr[s].iter().filter(|&&y| y == NONE || hole[y as usize]).count();
            if p.is_goal[s] && !hole[s] && shut == 3 {
                hole[s] = true;
                changed = true;
            }
        }
        if !changed {
            return hole;
        }
    }
}

/// Per square, how near the goals a box there is: the largest summed push distance to every
/// goal (those it can reach) of any square, less the square's own, divided by the goals.
fn nearness_to_goals(p: &Problem) -> Vec<u16> {
    let far: Vec<u32> = (0..p.n as u16)
        .map(|s| {
            (0..p.goals.len()).map(|j| p.dist(j, s)).filter(|&d| d != INF_DIST).map(u32::from).sum()
        })
        .collect();
    let top = far.iter().copied().max().unwrap_or(0);
    let goals = (p.goals.len() as u32).max(1);
    far.iter().map(|&f| ((top - f) / goals) as u16).collect()
}

/// True when the box on `b` can be pulled one square: the player stands beside it on a
/// square `reached` says it gets to, and the square beyond is no wall and holds no box
/// (`occupied`).
fn pullable(
    p: &Problem,
    b: u16,
    reached: impl Fn(u16) -> bool,
    occupied: impl Fn(u16) -> bool,
) -> bool {
    p.nbr[b as usize].iter().enumerate().any(|(d, &stand)| {
        stand != NONE && reached(stand) && {
            let to = p.nbr[stand as usize][d];
            to != NONE && !occupied(to)
        }
    })
}

/// The dragonfly search's order key of a position: the matching's cost, then the boxes
/// off the start squares (`off`).
fn dragonfly_order(total: i64, off: u32) -> u32 {
    (total.min(0xFF_FFFF) as u32) << 8 | off.min(0xFF)
}

/// The dragonfly search's cost of matching a box on `s` to start box `j`: its pulls there
/// (`start_pulls`: `nb` start boxes a square), [`INF_COST`] where it cannot get there.
fn pull_cost(start_pulls: &[u16], nb: usize, j: usize, s: u16) -> i64 {
    match start_pulls[s as usize * nb + j] {
        u16::MAX => INF_COST,
        c => c as i64,
    }
}

/// Fewest pushes of a box starting on `b` to each square on the empty board, the player
/// starting on `player` (`u16::MAX`: it cannot get there; [`Problem::push_reach`]). Without
/// side classes ([`Problem::player_class`] unknown), any side: [`start_distances`].
/// A position whose boxes cannot each be matched to a start box reaching it this way is
/// out of the forward search's reach, as the HF search's root test finds (`matchable`):
/// the player's side only narrows with other boxes on the board.
fn start_reach(p: &Problem, b: u16, player: u16) -> Vec<u16> {
    match p.player_class(b, player) {
        u8::MAX => start_distances(p, &[b]),
        class => p.push_reach(b, 1 << class),
    }
}

/// Fewest pushes from the nearest square a box starts on to each square, on the empty board
/// with the square behind each push only required to be floor (`u16::MAX`: none reaches).
/// A box pulled somewhere this is `u16::MAX` could never have been pushed there from a
/// start square.
fn start_distances(p: &Problem, starts: &[u16]) -> Vec<u16> {
    let mut dist = vec![u16::MAX; p.n];
    let mut queue: Vec<u16> = Vec::with_capacity(p.n);
    for &s in starts {
        if dist[s as usize] != 0 {
            dist[s as usize] = 0;
            queue.push(s);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let x = queue[head];
        head += 1;
        for d in 0..4 {
            let to = p.step(x, d);
            let behind = p.step(x, (d + 2) & 3);
            if to != NONE && behind != NONE && dist[to as usize] == u16::MAX {
                dist[to as usize] = dist[x as usize] + 1;
                queue.push(to);
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::super::tests::{analysed, ROOM};
    use super::*;

    /// The connectivity advisor's pull leaves the fewest floor areas of any pull, where that
    /// is fewer than before, and no pull is advised where none joins areas: its test of the
    /// square the box leaves skips no pull that would.
    #[test]
    fn the_connectivity_advisor_takes_the_pull_leaving_fewest_areas() {
        let (_, boxes, player, a, _) = analysed(ROOM);
        let mut b = Backward::new(Arc::clone(&a), player, &boxes, 16 << 20);
        b.run(3000);
        let (mut advised, mut none) = (0, 0);
        for id in 0..b.nodes.len() as u32 {
            b.load(id);
            let regions = b.regions();
            b.move_buf.clear();
            b.gen.generate(&a.p, &a.layout, &mut b.st, true, &mut b.move_buf);
            b.order.clear();
            b.order.extend((0..b.move_buf.len() as u32).map(|k| (1, k, k)));
            let after: Vec<u16> = (0..b.move_buf.len())
                .map(|k| {
                    let m = b.move_buf[k];
                    let from = b.st.boxes[m.box_i as usize];
                    b.st.occupied[from as usize] = false;
                    b.st.occupied[m.to as usize] = true;
                    let r = b.regions();
                    b.st.occupied[m.to as usize] = false;
                    b.st.occupied[from as usize] = true;
                    r
                })
                .collect();
            let fewest = after.iter().copied().min().unwrap_or(u16::MAX);
            match b.fewer_areas(regions) {
                Some(k) => {
                    assert_eq!(after[k], fewest, "node {id}");
                    assert!(fewest < regions, "node {id}");
                    advised += 1;
                }
                None => {
                    assert!(fewest >= regions, "node {id}: {fewest} < {regions}");
                    none += usize::from(regions > 1);
                }
            }
        }
        assert!(advised > 0 && none > 0, "both cases met: {advised} advised, {none} not");
        // With the advisor on, the backward search still reaches the start, and its pulls
        // played backwards solve the level.
        let (level, _, _, plain, _) = analysed(ROOM);
        let exp = Arc::new(super::super::experiments::Experiments::parse("backconn").unwrap());
        let (p, layout) = (Arc::clone(&plain.p), Arc::clone(&plain.layout));
        let packing = super::super::schedule::Packing::Once;
        let (a, _) = super::super::schedule::analyse_both(p, layout, &boxes, &exp, packing);
        let mut back = Backward::new(Arc::clone(&a), player, &boxes, 16 << 20);
        let reached = (0..1000)
            .find_map(|_| match back.run(1000) {
                BackEvent::Reached(id) => Some(id),
                BackEvent::Budget => None,
                other => panic!("{other:?}"),
            })
            .expect("the start reached");
        let pushes = back.pushes_from(reached);
        let solution = crate::build_solution(&level, &a.p, &pushes).unwrap();
        assert_eq!(solution.pushes, pushes.len());
    }

    /// The backward search whose target is nearest the start squares makes the same pulls
    /// as the plain one; its target has as few floor areas, and its boxes stand no farther
    /// from the start squares (summed pulls).
    #[test]
    fn the_near_target_is_nearer_the_start_squares_on_the_same_search() {
        let (_, boxes, player, a, _) = analysed(ROOM);
        let mut plain = Backward::new(Arc::clone(&a), player, &boxes, 16 << 20);
        let mut near = Backward::near(Arc::clone(&a), player, &boxes, 16 << 20);
        plain.run(3000);
        near.run(3000);
        assert_eq!(
            (plain.stats.nodes, plain.stats.generated),
            (near.stats.nodes, near.stats.generated)
        );
        let dist = start_distances(&a.p, &boxes);
        let rank = |b: &mut Backward| {
            let id = b.best().expect("a target");
            let near: u32 = b.position(id).0.iter().map(|&s| dist[s as usize] as u32).sum();
            b.load(id);
            (b.regions(), near)
        };
        let (pr, nr) = (rank(&mut plain), rank(&mut near));
        assert_eq!(pr.0, nr.0, "as few floor areas");
        assert!(nr.1 <= pr.1, "nearer the start squares: {nr:?} against {pr:?}");
        assert!(nr.1 > 0, "not the start position itself");
    }

    /// ROOM's start boxes, analysis, and dragonfly search run until it reaches the start
    /// (that node), its pulls played backwards checked to solve the level.
    fn room_dragonfly() -> (Vec<u16>, Arc<Analysis>, Backward, u32) {
        room_dragonfly_with("")
    }

    /// [`room_dragonfly`] with the switches `exp`.
    fn room_dragonfly_with(exp: &str) -> (Vec<u16>, Arc<Analysis>, Backward, u32) {
        let (level, boxes, player, plain, _) = analysed(ROOM);
        let exp = Arc::new(super::super::experiments::Experiments::parse(exp).unwrap());
        let (p, layout) = (Arc::clone(&plain.p), Arc::clone(&plain.layout));
        let packing = super::super::schedule::Packing::Once;
        let (a, _) = super::super::schedule::analyse_both(p, layout, &boxes, &exp, packing);
        let mut back = Backward::dragonfly(Arc::clone(&a), player, &boxes, 16 << 20);
        let reached = loop {
            match back.run(1000) {
                BackEvent::Reached(id) => break id,
                BackEvent::Budget => {}
                other => panic!("{other:?}"),
            }
        };
        let pushes = back.pushes_from(reached);
        let solution = crate::build_solution(&level, &a.p, &pushes).unwrap();
        assert_eq!(solution.pushes, pushes.len());
        (boxes, a, back, reached)
    }

    /// With `dfnode` the dragonfly search queues each position by its own key (its boxes'
    /// least-cost matching to the start squares, then boxes off them), as Festival's, and
    /// still reaches ROOM's start, its pulls replaying.
    #[test]
    fn the_dragonfly_search_in_festivals_node_order_reaches_the_start() {
        let (boxes, _, mut back, _) = room_dragonfly_with("dfnode");
        let nb = boxes.len();
        for id in 0..back.nodes.len().min(40) as u32 {
            back.load(id);
            let now = back.st.boxes.clone();
            let cost = |i: usize, j: usize| pull_cost(&back.start_pulls, nb, j, now[i]);
            let mut fresh = Assignment::new(nb);
            fresh.solve(&cost);
            let off = now.iter().filter(|b| boxes.binary_search(b).is_err()).count() as u32;
            assert_eq!(back.own_key[id as usize], (fresh.total(&cost) as u32) << 8 | off);
        }
    }

    /// The dragonfly search reaches ROOM's start position alone, and its pulls played
    /// backwards solve the level; each pull's key holds the least-cost matching of the
    /// boxes after it to the start squares, as the matching solved anew finds it.
    #[test]
    fn the_dragonfly_search_reaches_the_start_by_the_matching() {
        let (boxes, a, mut back, _) = room_dragonfly();
        let nb = boxes.len();
        for id in 0..back.nodes.len().min(40) as u32 {
            back.load(id);
            back.move_buf.clear();
            back.gen.generate(&a.p, &a.layout, &mut back.st, true, &mut back.move_buf);
            back.match_start();
            for m in back.move_buf.clone() {
                let from = back.st.boxes[m.box_i as usize];
                let mut after = back.st.boxes.clone();
                after[m.box_i as usize] = m.to;
                let pulls = &back.start_pulls;
                let cost = |i: usize, j: usize| pull_cost(pulls, nb, j, after[i]);
                let mut fresh = Assignment::new(nb);
                fresh.solve(&cost);
                let total = fresh.total(&cost);
                let on: usize = boxes.iter().filter(|b| back.st.boxes.contains(b)).count();
                let key = back.dragonfly_key(from, m.to, (nb - on) as u32);
                assert_eq!(key.map(|k| k >> 8), (total < INF_COST).then_some(total as u32));
            }
        }
    }

    /// The pull-freeze test: two boxes in a one-wide dead end, off the start squares, can
    /// never be pulled out; two boxes on the goals can; so can every position on the pulls
    /// by which the dragonfly search reaches ROOM's start, with the test and the corral
    /// rule both cutting there.
    #[test]
    fn the_pull_freeze_test_and_the_corral_rule_keep_the_way_back() {
        let (level, boxes, player, a, _) = analysed("#######\n#@$$..#\n### ###\n### ###\n#######");
        let (p, b) = (&a.p, &level.board);
        let sq = |r: usize, c: usize| p.compact[b.square(r, c)];
        let mut back = Backward::new(Arc::clone(&a), player, &boxes, 1 << 20);
        let mut stuck_at = |boxes: &[u16]| {
            let mut boxes = boxes.to_vec();
            boxes.sort_unstable();
            back.st.set(p, &a.layout, &boxes, sq(1, 1));
            back.pull_stuck()
        };
        assert!(stuck_at(&[sq(2, 3), sq(3, 3)]), "shut in the dead end");
        assert!(!stuck_at(&[sq(1, 4), sq(1, 5)]), "on the goals: pulled out in turn");
        assert!(!stuck_at(&[sq(1, 2), sq(1, 3)]), "the start");

        let (_, _, mut back, reached) = room_dragonfly();
        let st = back.stats;
        assert!(st.corral_cuts > 0 && st.pull_dead > 0, "both rules cut here: {st:?}");
        let mut id = reached;
        while id != NO_NODE {
            back.load(id);
            assert!(!back.pull_stuck(), "node {id} lies on the way back to the start");
            id = back.nodes[id as usize].parent;
        }
    }

    /// A vector grows by the store's free bytes in its share of the store, at most
    /// doubling, at least a sixteenth (and what it needs).
    #[test]
    fn vectors_grow_within_the_stores_budget() {
        let grown = |cap: usize, need: usize, free: usize, held: usize| {
            let mut v: Vec<u64> = vec![0; cap];
            let before = v.capacity();
            grow_within(&mut v, need, free, held);
            v.capacity() - before
        };
        assert_eq!(grown(100_000, 1, usize::MAX / 4, 800_000), 100_000, "room: it doubles");
        assert_eq!(grown(100_000, 1, 160_000, 1_600_000), 10_000, "half the store: half the room");
        assert_eq!(grown(100_000, 1, 0, 800_000), 6_250, "no room: a sixteenth");
        assert_eq!(grown(100_000, 9_000, 0, 800_000), 9_000, "what it needs");
        let mut v: Vec<u64> = Vec::with_capacity(10);
        grow_within(&mut v, 3, 0, 0);
        assert_eq!(v.capacity(), 10, "room enough: no growth");
    }

    /// With `fillstore`, a backward search whose store is full has used nearly all of its
    /// budget, and holds not much more (doubled, its vectors use 55-87 % of it here and
    /// hold up to 167 %).
    #[test]
    fn a_full_store_fills_its_budget() {
        let xsb =
            "##########\n#        #\n# $ $ $  #\n#  ...   #\n# $ $ .. #\n#   @    #\n##########";
        let (level, mut boxes, player, plain, _) = analysed(xsb);
        // A box in a corner: a start no pull reaches, so the search runs until it is full.
        boxes[0] = plain.p.compact[level.board.square(1, 1)];
        boxes.sort_unstable();
        let exp = Arc::new(super::super::experiments::Experiments::parse("fillstore").unwrap());
        let (p, layout) = (Arc::clone(&plain.p), Arc::clone(&plain.layout));
        let packing = super::super::schedule::Packing::Once;
        let (a, _) = super::super::schedule::analyse_both(p, layout, &boxes, &exp, packing);
        for limit in (1..=12).map(|k| k * 100_000) {
            let mut back = Backward::open(Arc::clone(&a), player, &boxes, limit);
            assert!(a.exp.fill_store);
            let mut event = BackEvent::Budget;
            while event == BackEvent::Budget {
                event = back.run(1000);
            }
            assert_eq!(event, BackEvent::MemoryFull, "the search fills {limit} bytes");
            let used = back.nodes.len() * std::mem::size_of::<Node>()
                + back.positions.len() * 2
                + back.moves.len() * 8
                + back.seen.len() * 13
                + back.cells.iter().map(|c| c.len() * 12).sum::<usize>();
            assert!(used * 10 >= limit * 9, "{used} of {limit} bytes used");
            assert!(back.memory() * 10 <= limit * 11, "{} of {limit} bytes held", back.memory());
        }
    }

    /// With `lazypulls` every backward search makes the same pulls in the same order and
    /// stores the same positions, in fewer bytes.
    #[test]
    fn lazy_pulls_search_the_same() {
        let xsb =
            "##########\n#        #\n# $ $ $  #\n#  ...   #\n# $ $ .. #\n#   @    #\n##########";
        let (level, boxes, player, plain, _) = analysed(xsb);
        // A box in a corner: a start no pull reaches, so the searches run on (the dragonfly
        // search makes no pull there: no matching to the start squares is left).
        let mut far = boxes.clone();
        far[0] = plain.p.compact[level.board.square(1, 1)];
        far.sort_unstable();
        let packing = super::super::schedule::Packing::Once;
        let searches = |exps: &str| {
            let exp = Arc::new(super::super::experiments::Experiments::parse(exps).unwrap());
            let (p, layout) = (Arc::clone(&plain.p), Arc::clone(&plain.layout));
            let (a, _) = super::super::schedule::analyse_both(p, layout, &far, &exp, packing);
            let mem = 64 << 20;
            let mut all = vec![
                Backward::new(Arc::clone(&a), player, &far, mem),
                Backward::away(Arc::clone(&a), player, &far, mem),
                Backward::open(Arc::clone(&a), player, &far, mem),
                Backward::near(Arc::clone(&a), player, &far, mem),
                Backward::dragonfly(Arc::clone(&a), player, &boxes, mem),
                Backward::packing(Arc::clone(&a), &boxes, mem),
                Backward::packing_festival(Arc::clone(&a), &boxes, mem),
            ];
            let events: Vec<BackEvent> = all.iter_mut().map(|b| b.run(4000)).collect();
            (all, events)
        };
        let (eager, eager_events) = searches("");
        let (lazy, lazy_events) = searches("lazypulls");
        assert_eq!(eager_events, lazy_events);
        for (e, l) in eager.iter().zip(&lazy) {
            assert_eq!(e.stats, l.stats);
            assert_eq!(e.positions, l.positions, "the same positions in the same order");
            let parents =
                |b: &Backward| b.nodes.iter().map(|n| (n.parent, n.mv)).collect::<Vec<_>>();
            assert_eq!(parents(e), parents(l));
        }
        for (e, l) in eager.iter().zip(&lazy).take(4) {
            assert!(e.nodes.len() > 1000, "{} positions", e.nodes.len());
            let (kept, all) = (l.moves.len(), e.moves.len());
            assert!(kept * 3 < all, "{kept} pulls kept of {all}");
        }
        // The dragonfly search with its corral rule, to the start of ROOM.
        let (_, _, e, eager_reached) = room_dragonfly_with("");
        let (_, _, l, lazy_reached) = room_dragonfly_with("lazypulls");
        assert_eq!((eager_reached, e.stats), (lazy_reached, l.stats));
        assert_eq!(e.positions, l.positions);
        assert!(e.stats.corral_cuts > 0 && l.moves.len() < e.moves.len());
    }

    /// Festival's target holes: goals walled on three sides, and the goals before them in
    /// their dead end; ROOM's goals, open on two sides or more, are none.
    #[test]
    fn target_holes_are_the_goals_of_dead_ends() {
        let level = sokoban_core::format::parse_level(
            "#######\n#...  #\n##### #\n#  $$ #\n# @$  #\n#######",
        )
        .unwrap();
        let p = Problem::new(&level.board);
        let holes = target_holes(&p);
        let at = |c| holes[p.compact[level.board.square(1, c)] as usize];
        assert!(at(1) && at(2) && at(3) && !at(4));
        assert_eq!(holes.iter().filter(|&&h| h).count(), 3);
        let (_, _, _, a, _) = analysed(ROOM);
        assert!(!target_holes(&a.p).contains(&true));
    }

    /// The packing search by Festival's rules places every box of ROOM; wherever a box
    /// can leave the board, a position it stores was reached by a pull that took one off.
    #[test]
    fn the_packing_search_by_festivals_rules_places_every_box() {
        let (_, boxes, _, a, _) = analysed(ROOM);
        let mut back = Backward::packing_festival(Arc::clone(&a), &boxes, 16 << 20);
        assert!(matches!(back.run(100_000), BackEvent::Reached(_)));
        let end = back.best().expect("the end");
        let plan = super::super::plan::Plan::from_pulls(&a.p, &boxes, &back.pulls_to(end));
        assert_eq!(plan.relaxed, 0);
        let mut order = plan.order.clone();
        order.sort_unstable();
        assert_eq!(order, (0..a.p.goals.len() as u16).collect::<Vec<_>>());
        for id in 1..back.nodes.len() as u32 {
            let parent = back.nodes[id as usize].parent;
            if parent == NO_NODE {
                continue;
            }
            back.load(parent);
            back.move_buf.clear();
            back.gen.generate(&a.p, &a.layout, &mut back.st, true, &mut back.move_buf);
            if back.move_buf.iter().any(|m| back.takes_off(m)) {
                assert!(back.nodes[id as usize].live < back.nodes[parent as usize].live);
            }
        }
    }

    /// [`Backward::nearest_overlap`]: a stored position shares every box with itself, and
    /// with one box moved to a square no stored position has a box on, one box fewer.
    #[test]
    fn the_nearest_overlap_counts_shared_boxes() {
        let (_, boxes, player, a, _) = analysed(ROOM);
        let mut back = Backward::new(Arc::clone(&a), player, &boxes, 16 << 20);
        back.run(500);
        let id = back.best().expect("a stored position");
        let mine = back.position(id).0.to_vec();
        assert_eq!(back.nearest_overlap(&mine).0, mine.len());
        let mut moved = mine.clone();
        moved[0] = u16::MAX;
        moved.sort_unstable();
        assert_eq!(back.nearest_overlap(&moved).0, mine.len() - 1);
    }

    /// [`Backward::areas_and_off_cycles`] counts, on every position the open search stores, the free
    /// squares off the goals every edge of which is a bridge: the free floor without that
    /// edge no longer joins its two ends (checked by a walk for each edge).
    #[test]
    fn squares_on_no_cycle_are_those_whose_every_edge_is_a_bridge() {
        let (_, boxes, player, a, _) = analysed(ROOM);
        let mut open = Backward::open(Arc::clone(&a), player, &boxes, 16 << 20);
        open.run(400);
        let p = Arc::clone(&a.p);
        let joined_without = |occ: &[bool], s: usize, t: usize| {
            let mut seen = vec![false; p.n];
            let mut stack = vec![s];
            seen[s] = true;
            while let Some(x) = stack.pop() {
                for &y in &p.nbr[x] {
                    let y = y as usize;
                    let cut = (x, y) == (s, t) || (x, y) == (t, s);
                    if y != NONE as usize && !occ[y] && !seen[y] && !cut {
                        seen[y] = true;
                        stack.push(y);
                    }
                }
            }
            seen[t]
        };
        let mut counts = std::collections::BTreeSet::new();
        for id in 0..open.nodes.len() as u32 {
            open.load(id);
            let occ = open.st.occupied.clone();
            let brute = (0..p.n)
                .filter(|&s| !occ[s] && !p.is_goal[s])
                .filter(|&s| {
                    !p.nbr[s].iter().any(|&t| {
                        t != NONE && !occ[t as usize] && joined_without(&occ, s, t as usize)
                    })
                })
                .count() as u16;
            let (areas, fast) = open.areas_and_off_cycles();
            assert_eq!(fast, brute, "position {id}");
            assert_eq!(areas, open.regions(), "position {id}: its areas");
            counts.insert(fast);
        }
        assert!(open.nodes.len() > 100 && counts.len() > 3, "varied positions: {counts:?}");
        assert!(open.best().is_some(), "a target");
    }

    /// A box in a corridor goes only away from the player's side: the sided reach leaves
    /// out the squares behind it, which the plain one counts; in a room the player walks
    /// round, the two agree.
    #[test]
    fn a_start_box_goes_only_where_the_players_side_lets_it() {
        let reached = |row: &[u16]| row.iter().filter(|&&d| d != u16::MAX).count();
        let (_, boxes, player, a, _) = analysed("########\n#@$   .#\n########");
        let sided = start_reach(&a.p, boxes[0], player);
        let plain = start_distances(&a.p, &boxes);
        assert_eq!(sided[player as usize], u16::MAX);
        assert_eq!(plain[player as usize], 1);
        assert_eq!((reached(&sided), reached(&plain)), (5, 6));
        let (_, boxes, player, a, _) = analysed("#######\n#     #\n# @$  #\n#    .#\n#######");
        let sided = start_reach(&a.p, boxes[0], player);
        let plain = start_distances(&a.p, &boxes);
        assert!(reached(&sided) > 1);
        assert!((0..a.p.n).all(|s| (sided[s] == u16::MAX) == (plain[s] == u16::MAX)));
    }
}
