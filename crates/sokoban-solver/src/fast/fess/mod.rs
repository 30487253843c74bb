//! Feature space search (FESS, Shoham & Schaeffer 2020) over macro moves.
//!
//! Every position found is filed in a *cell* of the feature space by its [`Features`](super::features::Features). The
//! search visits the non-empty cells in turn (round robin, every other turn going to the
//! cell with the best features instead); in the cell visited it takes, over all positions
//! filed there, the untried move of least accumulated weight and makes it: one child per
//! visit. A position's moves are all its macro moves. A handful of *advisors* each nominate
//! at most one of them — the move that packs the next goal of the plan (while nothing is
//! packed and no box can reach the first goal, the move that brings a box nearest to it),
//! the one that joins the most player areas, one that takes a box out of a passage between
//! rooms, one that takes an out-of-plan box off its goal — and those weigh 0; every other
//! move weighs 1. A child's weight is its parent's plus the move's. Among moves of equal
//! weight the newer position goes first.
//!
//! Positions are stored compactly (sorted box squares, the player's area by its smallest
//! square) with their untried moves, and recognised again by a 64-bit key. Children that
//! the shared analysis proves dead (freeze, boxes frozen on goals that cut off goals,
//! corrals, the matching of boxes to goals they can reach), or whose boxes near the
//! moved box are stuck on their own (a small search, Festival's way; the stuck set is
//! learned as a pattern that later positions are tested against), are never stored. Memory is
//! bounded: when the store reaches its budget the search stops and says so.
//!
//! Here: the store and the visits. `order`: a position's moves and their order (advisors
//! or scores). `learn`: the tests a new position gets and the patterns learned.

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::rc::Rc;
use std::sync::Arc;

mod learn;
mod order;

use learn::Pockets;
use order::{features_rank, score_rank};

use super::back::Backward;
use super::board::{Move, MoveGen, State, MAX_BOXES};
use super::dead::DeadTests;
use super::experiments::StopRule;
use super::features::FeatureScratch;
use super::score::{Rank, Score, Scorer};
use super::shared::{Analysis, Learned};
use crate::analysis::bits::PlayerArea;
use crate::analysis::problem::{Keyed, NONE};
use crate::work::{self, Op};

/// Make room for `add` more items in a store, growing it by a quarter rather than doubling
/// it: the memory budget counts capacities, and after a doubling up to half of one is
/// unused (measured: XSokoban 18 ran out of a 512 MiB budget with its move store just
/// doubled).
fn room<T>(v: &mut Vec<T>, add: usize) {
    if v.len() + add > v.capacity() {
        v.reserve_exact(add.max(v.capacity() / 4).max(1024));
    }
}

/// Node id of "no node".
const NO_NODE: u32 = u32::MAX;
/// Seen-table value of a position proved dead.
const DEAD: u32 = u32::MAX;
/// Moves of a new position stored: a position can have hundreds of moves and most are left
/// after a few; the rest are generated again when needed, [`MOVE_BLOCK`] at a time.
const FIRST_BLOCK: u32 = 16;
/// Moves stored each time a position's stored moves run out.
const MOVE_BLOCK: u32 = 32;

/// How one strategy runs the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Every other visit goes to the cell with the best features.
    pub alternate_best: bool,
    /// Advisors nominate moves (weight 0); off: every move weighs 1.
    pub advisors: bool,
    /// Score every child ([`Score`], Festival's way): the advisors nominate the best-scored
    /// child by each criterion, the other moves go best-scored first, and positions are
    /// filed by the best score on their path. Off: the advisors follow rules of thumb, the
    /// other moves go by how much nearer a goal they bring their box, and positions are
    /// filed by their own features; far cheaper per position.
    pub scored: bool,
    /// Festival's corral rule in move generation: when a position has a PI-corral, only
    /// its barrier boxes move (some solution, if any, starts with a push into it). Fewer
    /// children per position, but each costs a corral analysis.
    pub corral_moves: bool,
    /// The area joiner advises (rules strategy): a move that leaves fewer player areas.
    pub area_joiner: bool,
    /// Every new position whose move shuts off an area beside the moved box gets a stuck
    /// test of that pocket (`Pockets::find`) before it is stored, not only once
    /// its subtree has grown (the scored strategy: see [`STRATEGIES`](super::STRATEGIES)).
    pub pocket_moves: bool,
    /// The scored strategy ranks scores by fewer areas first ([`Score::regions_first`]).
    pub regions_first: bool,
    /// The HF search's features, Festival's: hotspots are boxes off the target squares
    /// beside a wall or a box, and empty target squares no box can be pushed into (their
    /// advisor takes the fewest); room links and boxes out of plan are neither ranked nor
    /// advised (a target in any order has no plan).
    pub hf_hot: bool,
}

impl Config {
    /// The rules strategy's configuration: the one the others are written against.
    pub const RULES: Config = Config {
        alternate_best: true,
        advisors: true,
        scored: false,
        corral_moves: false,
        area_joiner: true,
        pocket_moves: false,
        regions_first: false,
        hf_hot: false,
    };
}

impl Default for Config {
    fn default() -> Self {
        Config::RULES
    }
}

/// A stored position.
#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    /// The move from the parent ([`Move::pack`]).
    mv: u32,
    weight: u32,
    /// Its moves, in order: the first `advised` nominated. Only a block of them is stored,
    /// `moves[moves_at..moves_at + moves_len]`, which starts at move number `skipped`; the
    /// rest (`total` in all) are generated again when the block runs out.
    moves_at: u32,
    moves_len: u32,
    skipped: u32,
    total: u32,
    /// The next untried move in the block.
    next: u32,
    advised: u32,
    /// Smallest square of the player's area.
    norm: u16,
    /// The best score on the path from the root to here (scored strategy).
    best_past: Score,
    /// Scored strategy, more moves than the first block: where in `masks` the children that
    /// were left out of the order (seen before) are marked, so that the order generated again
    /// is the same (`u32::MAX`: none).
    mask_at: u32,
}

/// A cell of the feature space: the positions filed there with untried moves, by the
/// weight of their next move (newest first among equals).
struct Cell {
    /// How good the cell's features are (smaller is better).
    rank: u64,
    /// Entries: (weight << 32 | order key of the next move, `u32::MAX - node`).
    heap: BinaryHeap<Reverse<(u64, u32)>>,
}

/// Counters of a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FessStats {
    /// Positions stored.
    pub nodes: u64,
    /// Moves made (children generated).
    pub generated: u64,
    /// Children that were positions seen before.
    pub duplicates: u64,
    /// Children proved dead.
    pub deadlocks: u64,
    /// Cells of the feature space in use.
    pub cells: usize,
    /// Most goals packed in plan order by any position.
    pub best_packed: u16,
    /// Moves nominated by advisors.
    pub advised: u64,
    /// Positions tested for stuck boxes, patterns learned, children that held a pattern,
    /// and stored positions found dead by a pattern later.
    pub stuck_tests: u64,
    pub patterns: u64,
    pub pattern_deadlocks: u64,
    pub pruned: u64,
    /// Times a position's stored moves ran out and the next block was generated again.
    pub refills: u64,
    /// Children scored (scored strategy).
    pub scored: u64,
    /// Positions whose moves a PI-corral restricted.
    pub corral_nodes: u64,
    /// Positions searched by the stuck tests of whole positions.
    pub whole_tested: u64,
    /// With a reference solution (`watch=`): its pushes, the most pushes into it of a
    /// position stored, and of one called dead (0: none; a dead one is an unsound test).
    pub watch_len: u32,
    pub watch_deepest: u32,
    pub watch_dead: u32,
    /// The most pushes into it of a stored position of the reference whose moves the search
    /// began to make, and how many of that one's moves it made.
    pub watch_expanded: u32,
    pub watch_expanded_moves: u32,
    /// The weight (non-advised moves from the root) of the deepest one stored.
    pub watch_weight: u32,
}

/// What [`Fess::run`] stopped for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FessEvent {
    /// The budget of this call is used up.
    Budget,
    /// Solved: the pushes from the root (compact square the box leaves, direction).
    Solved(Vec<(u16, u8)>),
    /// Every move of every position was made: no solution (proved: every position reachable
    /// from the root was stored or proved dead).
    Exhausted,
    /// The store reached its memory budget.
    MemoryFull,
    /// A new position is in the backward search's perimeter: the forward node and the
    /// backward node.
    Met(u32, u32),
}

/// The search.
pub struct Fess {
    a: Arc<Analysis>,
    /// A new child [`Fess::scored_moves`] found in the perimeter, made at once: a node's
    /// children are made one a turn, so one that meets could wait long for its turn.
    ahead: Option<u32>,
    config: Config,
    st: State,
    gen: MoveGen,
    feats: FeatureScratch,
    dead: DeadTests,
    learned: Rc<RefCell<Learned>>,
    nb: usize,
    nodes: Vec<Node>,
    /// Per node: positions in its subtree (itself included), and whether it is known dead.
    subtree: Vec<u32>,
    dead_node: Vec<bool>,
    positions: Vec<u16>,
    moves: Vec<u32>,
    /// Order keys of the moves (scored strategy): the score of the child each leads to.
    move_keys: Vec<u32>,
    /// Bitsets over a position's generated moves: those left out of its order (scored
    /// strategy, see [`Node::mask_at`]).
    masks: Vec<u64>,
    /// Debug builds: the whole first order of each position whose moves fill more than a
    /// block (scored strategy), to check each regeneration against.
    #[cfg(debug_assertions)]
    first_orders: HashMap<u32, (Vec<u32>, Vec<u32>)>,
    seen: HashMap<u64, u32, Keyed>,
    /// The keys of a reference solution's positions, each with its push count (`watch=`).
    watch: HashMap<u64, u32, Keyed>,
    /// Stored positions of the reference solution: node, pushes into it.
    watch_nodes: HashMap<u32, u32>,
    cells: Vec<Cell>,
    cell_of: HashMap<u64, u32, Keyed>,
    heap_entries: usize,
    cursor: usize,
    turn: u64,
    best_cell: u32,
    /// A node with the best features found.
    best_node: u32,
    best_rank: Option<u64>,
    /// The node whose position `st` holds (`NO_NODE`: none).
    loaded: u32,
    memory_limit: usize,
    full: bool,
    // Scratch.
    move_buf: Vec<Move>,
    /// Squares of the boxes a PI-corral restricts the moves to.
    corral_only: Vec<bool>,
    flood: PlayerArea,
    order_moves: Vec<u32>,
    order_keys: Vec<u32>,
    /// The moves left out by the last [`Fess::scored_moves`].
    mask_buf: Vec<u64>,
    scorer: Scorer,
    cands: Vec<(Move, Score)>,
    /// The children's keys, one a move, probed in the store once all are scored.
    child_keys: Vec<u64>,
    scored_order: Vec<(u128, u64)>,
    order: Vec<(i32, u32)>,
    next_goals: Vec<u16>,
    /// The squares the plan fills next, and floor distances from such squares (an empty
    /// row until needed) for the opener.
    targets: Vec<u16>,
    floor_rows: Vec<Vec<u16>>,
    /// For the explorer: candidates by rank, the player's area before the move, and the
    /// squares a box on each square can reach on an empty board (empty until needed).
    explore_order: Vec<(Rank, u32)>,
    reach_before: Vec<u64>,
    box_rows: Vec<Vec<bool>>,
    mark: Vec<u32>,
    mark_stamp: u32,
    /// The boxes near the moved box, and which are taken (local stuck test).
    local: Vec<u16>,
    local_taken: Vec<bool>,
    /// Scratch of the pocket search ([`Pockets::find`]).
    pockets: Pockets,
    pub stats: FessStats,
    /// Festival's inefficient stops cut the moves ([`super::stops`]); the search then
    /// proves nothing by running out of moves.
    pub stops: bool,
    stop_area: PlayerArea,
}

impl Fess {
    /// A search from a position (compact squares; boxes sorted or not) with a memory budget
    /// in bytes for its store. The root is checked: [`Fess::run`] reports a dead root as
    /// exhausted at once.
    pub fn new(
        a: Arc<Analysis>,
        config: Config,
        player: u16,
        boxes: &[u16],
        memory_limit: usize,
        learned: Rc<RefCell<Learned>>,
    ) -> Fess {
        let p = Arc::clone(&a.p);
        let ng = p.goals.len();
        let nb = boxes.len();
        assert!(nb <= MAX_BOXES && nb == ng, "as many boxes as goals, at most {MAX_BOXES}");
        let mut f = Fess {
            st: State::new(&p, &a.layout),
            gen: MoveGen::new(&a.layout),
            feats: FeatureScratch::new(&p, &a.rooms),
            dead: a.dead_tests(memory_limit),
            learned,
            nb,
            nodes: Vec::new(),
            subtree: Vec::new(),
            dead_node: Vec::new(),
            positions: Vec::new(),
            moves: Vec::new(),
            move_keys: Vec::new(),
            masks: Vec::new(),
            #[cfg(debug_assertions)]
            first_orders: HashMap::default(),
            seen: HashMap::default(),
            watch: HashMap::default(),
            watch_nodes: HashMap::default(),
            ahead: None,
            cells: Vec::new(),
            cell_of: HashMap::default(),
            heap_entries: 0,
            cursor: 0,
            turn: 0,
            best_cell: 0,
            best_node: NO_NODE,
            best_rank: None,
            loaded: NO_NODE,
            memory_limit,
            full: false,
            move_buf: Vec::new(),
            corral_only: vec![false; p.n],
            flood: PlayerArea::new(&p),
            order_moves: Vec::new(),
            order_keys: Vec::new(),
            mask_buf: Vec::new(),
            scorer: Scorer::new(&a, config.regions_first, config.hf_hot),
            cands: Vec::new(),
            child_keys: Vec::new(),
            scored_order: Vec::new(),
            order: Vec::new(),
            next_goals: Vec::new(),
            targets: Vec::new(),
            floor_rows: vec![Vec::new(); p.n],
            explore_order: Vec::new(),
            reach_before: Vec::new(),
            box_rows: vec![Vec::new(); p.n],
            mark: vec![0; p.n],
            mark_stamp: 0,
            local: Vec::new(),
            local_taken: vec![false; p.n],
            pockets: Pockets::new(p.n),
            stops: match a.exp.stops {
                StopRule::Off => false,
                StopRule::All => true,
                StopRule::Scored | StopRule::Tunnels => config.scored,
            },
            stop_area: PlayerArea::new(&p),
            stats: FessStats::default(),
            config,
            a,
        };
        let mut sorted = boxes.to_vec();
        sorted.sort_unstable();
        if let Some(lurd) = f.a.exp.watch.clone() {
            f.watch_path(&lurd, &sorted, player);
        }
        f.st.set(&p, &f.a.layout, &sorted, player);
        if f.dead.at_start(&p, &f.st) {
            return f; // no node: exhausted
        }
        let key = f.st.key(&p);
        let id = f.store(NO_NODE, 0, 0);
        f.seen.insert(key, id);
        f.loaded = id;
        if !f.st.solved(&p) {
            f.prepare(id, None);
        }
        f
    }

    /// Key every position of the reference solution `lurd` played from `boxes` and `player`
    /// (it stops at a move the board does not allow).
    fn watch_path(&mut self, lurd: &str, boxes: &[u16], mut player: u16) {
        let p = Arc::clone(&self.a.p);
        let mut boxes = boxes.to_vec();
        let mut pushes = 0;
        for ch in lurd.chars() {
            let Some(d) = sokoban_core::Dir::from_lurd(ch).map(|d| d.index()) else { break };
            let next = p.nbr[player as usize][d];
            if next == NONE {
                break;
            }
            if let Some(i) = boxes.iter().position(|&b| b == next) {
                let to = p.nbr[next as usize][d];
                if to == NONE || boxes.contains(&to) {
                    break;
                }
                boxes[i] = to;
                boxes.sort_unstable();
                pushes += 1;
                self.st.set(&p, &self.a.layout, &boxes, next);
                self.watch.insert(self.st.key(&p), pushes);
            }
            player = next;
        }
        self.stats.watch_len = pushes;
    }

    /// The root's stored moves in the order they are tried (the first block of them): the
    /// square its box leaves, the square it goes to, and whether an advisor nominated it —
    /// for studies of where a peer's path leaves ours.
    pub fn root_moves(&self) -> Vec<(u16, u16, bool)> {
        let Some(root) = self.nodes.first() else { return Vec::new() };
        (0..root.moves_len)
            .map(|k| {
                let m = Move::unpack(self.moves[(root.moves_at + k) as usize]);
                (self.positions[m.box_i as usize], m.to, root.skipped + k < root.advised)
            })
            .collect()
    }

    /// The pushes into the reference solution of the position keyed `key`, if it is one of
    /// its positions (no lookup at all without one).
    #[inline]
    fn watched(&self, key: u64) -> Option<u32> {
        if self.watch.is_empty() {
            None
        } else {
            self.watch.get(&key).copied()
        }
    }

    /// Node `id` is about to make its next move: the deepest watched one counts it.
    fn watch_expanding(&mut self, id: u32) {
        if let Some(&k) = self.watch_nodes.get(&id) {
            if k >= self.stats.watch_expanded {
                self.stats.watch_expanded = k;
                self.stats.watch_expanded_moves = self.nodes[id as usize].next;
            }
        }
    }

    /// The store's memory budget in bytes.
    pub fn memory_budget(&self) -> usize {
        self.memory_limit
    }

    /// Lower the store's memory budget to `bytes` (never below what it holds now): the
    /// schedule takes memory back for a search it starts later.
    pub fn limit_memory(&mut self, bytes: usize) {
        self.memory_limit = bytes.max(self.memory()).min(self.memory_limit);
    }

    /// Raise the store's memory budget by `bytes` (memory other strategies of the search
    /// left unused), so that a full store searches on.
    pub fn grant_memory(&mut self, bytes: usize) {
        self.memory_limit += bytes;
        self.full = self.memory() > self.memory_limit;
    }

    /// True when the root is solved already (the search has nothing to do).
    pub fn root_solved(&self) -> bool {
        !self.nodes.is_empty() && {
            let p = &self.a.p;
            self.positions[..self.nb].iter().all(|&b| p.is_goal[b as usize])
        }
    }

    /// Bytes held by the store.
    pub fn memory(&self) -> usize {
        self.nodes.capacity() * (std::mem::size_of::<Node>() + 5)
            + self.positions.capacity() * 2
            + self.moves.capacity() * 4
            + self.move_keys.capacity() * 4
            + self.masks.capacity() * 8
            + self.seen.capacity() * 13
            + self.cell_of.capacity() * 13
            + self.cells.capacity() * std::mem::size_of::<Cell>()
            + self.heap_entries * 8
            + self.dead.memory()
    }

    /// The stored position with the best features (boxes, a square of the player's area).
    pub fn best_position(&self) -> Option<(Vec<u16>, u16)> {
        let id = self.best_node;
        (id != NO_NODE).then(|| {
            let at = id as usize * self.nb;
            (self.positions[at..at + self.nb].to_vec(), self.nodes[id as usize].norm)
        })
    }

    /// The stored live node whose position has key `key`, `boxes` and player area `norm`.
    pub fn find(&self, key: u64, boxes: &[u16], norm: u16) -> Option<u32> {
        let id = *self.seen.get(&key)?;
        let at = id as usize * self.nb;
        (id != DEAD
            && self.positions[at..at + self.nb] == *boxes
            && self.nodes[id as usize].norm == norm)
            .then_some(id)
    }

    /// Search for up to `budget` moves, looking each new position up in the backward
    /// search's `perimeter` when there is one.
    pub fn run(&mut self, budget: u64, perimeter: Option<&Backward>) -> FessEvent {
        if self.nodes.is_empty() {
            return FessEvent::Exhausted;
        }
        if self.root_solved() {
            return FessEvent::Solved(Vec::new());
        }
        for _ in 0..budget {
            if self.full {
                return FessEvent::MemoryFull;
            }
            let Some(c) = self.pick_cell() else { return FessEvent::Exhausted };
            let Reverse((_, tag)) = self.cells[c].heap.pop().expect("picked cells are not empty");
            self.heap_entries -= 1;
            let id = u32::MAX - tag;
            if self.dead_node[id as usize] {
                continue; // found dead after it was filed
            }
            if self.nodes[id as usize].next == self.nodes[id as usize].moves_len {
                self.refill(id);
            }
            let node = &mut self.nodes[id as usize];
            let k = node.next;
            node.next += 1;
            let mv = self.moves[(node.moves_at + k) as usize];
            let weight = node.weight + (node.skipped + k >= node.advised) as u32;
            if node.skipped + node.next < node.total {
                // The scored strategy files the node by its next move's key: that move must
                // be stored.
                if self.config.scored && node.next == node.moves_len {
                    self.refill(id);
                }
                let node = self.nodes[id as usize];
                let w = node.weight + (node.skipped + node.next >= node.advised) as u32;
                let key = if self.config.scored {
                    self.move_keys[(node.moves_at + node.next) as usize]
                } else {
                    0
                };
                self.cells[c].heap.push(Reverse(((w as u64) << 32 | key as u64, tag)));
                self.heap_entries += 1;
            }
            if !self.watch_nodes.is_empty() {
                self.watch_expanding(id);
            }
            match self.expand(id, mv, weight, perimeter) {
                Some((solved, NO_NODE)) => return FessEvent::Solved(self.pushes_to(solved)),
                Some((node, back)) => return FessEvent::Met(node, back),
                None => {}
            }
        }
        FessEvent::Budget
    }

    /// The next cell to visit.
    fn pick_cell(&mut self) -> Option<usize> {
        self.turn += 1;
        if self.config.alternate_best && self.turn % 2 == 0 {
            if self.cells[self.best_cell as usize].heap.is_empty() {
                self.best_cell = self.find_best_cell();
            }
            if !self.cells[self.best_cell as usize].heap.is_empty() {
                return Some(self.best_cell as usize);
            }
        }
        let len = self.cells.len();
        for k in 0..len {
            let c = (self.cursor + k) % len;
            if !self.cells[c].heap.is_empty() {
                self.cursor = c + 1;
                return Some(c);
            }
        }
        None
    }

    /// The non-empty cell with the best features (the current best if none).
    fn find_best_cell(&self) -> u32 {
        let mut best: Option<u32> = None;
        for (i, c) in self.cells.iter().enumerate() {
            if c.heap.is_empty() {
                continue;
            }
            if best.is_none_or(|b| c.rank < self.cells[b as usize].rank) {
                best = Some(i as u32);
            }
        }
        best.unwrap_or(self.best_cell)
    }

    /// Load a stored position into the state.
    fn load(&mut self, id: u32) {
        if self.loaded == id {
            return;
        }
        let at = id as usize * self.nb;
        let norm = self.nodes[id as usize].norm;
        let p = &self.a.p;
        self.st.set(p, &self.a.layout, &self.positions[at..at + self.nb], norm);
        self.loaded = id;
    }

    /// Store the position in the state as a new node.
    fn store(&mut self, parent: u32, mv: u32, weight: u32) -> u32 {
        let id = self.nodes.len() as u32;
        room(&mut self.positions, self.nb);
        room(&mut self.nodes, 1);
        room(&mut self.subtree, 1);
        room(&mut self.dead_node, 1);
        self.positions.extend_from_slice(&self.st.boxes);
        self.nodes.push(Node {
            parent,
            mv,
            weight,
            moves_at: 0,
            moves_len: 0,
            skipped: 0,
            total: 0,
            next: 0,
            advised: 0,
            norm: self.st.norm,
            best_past: Score::default(),
            mask_at: u32::MAX,
        });
        self.subtree.push(1);
        self.dead_node.push(false);
        self.stats.nodes += 1;
        if self.memory() > self.memory_limit {
            self.full = true;
        }
        id
    }

    /// Make move `mv` of node `parent`; store the child if it is new and not dead. Returns
    /// the child when it is solved (with `NO_NODE`), or when it is in the perimeter (with
    /// the backward node).
    fn expand(
        &mut self,
        parent: u32,
        mv: u32,
        weight: u32,
        perimeter: Option<&Backward>,
    ) -> Option<(u32, u32)> {
        self.stats.generated += 1;
        work::add(Op::Expand, 1);
        if self.loaded != parent {
            // The move floods the child: the parent needs no flood of its own.
            let at = parent as usize * self.nb;
            let norm = self.nodes[parent as usize].norm;
            let p = &self.a.p;
            self.st.set_unflooded(p, &self.a.layout, &self.positions[at..at + self.nb], norm);
        }
        let p = Arc::clone(&self.a.p);
        let m = Move::unpack(mv);
        let player = p.nbr[m.to as usize][m.side as usize];
        self.st.move_box(&p, &self.a.layout, m.box_i as usize, m.to, player);
        self.loaded = NO_NODE;
        let key = self.st.key(&p);
        if self.seen.contains_key(&key) {
            self.stats.duplicates += 1;
            return None;
        }
        if let Some(back) = perimeter.and_then(|b| b.lookup(key)) {
            let (boxes, norm) = perimeter.expect("looked up").position(back);
            if boxes == &self.st.boxes[..] && norm == self.st.norm {
                let id = self.store(parent, mv, weight);
                self.seen.insert(key, id);
                return Some((id, back));
            }
        }
        if self.dead_after_move(&p, key, m.to) {
            self.seen.insert(key, DEAD);
            if let Some(k) = self.watched(key) {
                self.stats.watch_dead = self.stats.watch_dead.max(k);
            }
            return None;
        }
        let watched = self.watched(key);
        let id = self.store(parent, mv, weight);
        if let Some(k) = watched {
            if k > self.stats.watch_deepest {
                self.stats.watch_weight = weight;
            }
            self.stats.watch_deepest = self.stats.watch_deepest.max(k);
            self.watch_nodes.insert(id, k);
        }
        self.seen.insert(key, id);
        self.loaded = id;
        if self.st.solved(&p) {
            return Some((id, NO_NODE));
        }
        let ahead = if self.a.exp.no_meet_ahead { None } else { perimeter };
        self.prepare(id, ahead);
        self.grow_subtrees(id);
        // A child in the perimeter is made at once, not when its turn comes.
        if let Some(mv) = self.ahead.take() {
            let w = self.nodes[id as usize].weight + 1;
            return self.expand(id, mv, w, perimeter);
        }
        None
    }

    /// Generate the moves of the new node `id` (its position in the state), order them with
    /// the advisors' nominations first, store the first block of them, and file the node in
    /// its cell.
    fn prepare(&mut self, id: u32, perimeter: Option<&Backward>) {
        let scored = self.config.scored;
        let (rank, steps, n_adv, cell) = if scored {
            let (own, n_adv) = self.scored_moves(None, perimeter, FIRST_BLOCK as usize);
            let parent = self.nodes[id as usize].parent;
            let mut best_past = own;
            if parent != NO_NODE {
                let bp = self.nodes[parent as usize].best_past;
                if !own.better(&bp) {
                    best_past = bp;
                }
            }
            self.nodes[id as usize].best_past = best_past;
            let cell = (best_past.cell_key(), score_rank(&best_past));
            (score_rank(&own), own.packed, n_adv, cell)
        } else {
            let (f, n_adv) = self.ordered_moves(FIRST_BLOCK as usize);
            let r = features_rank(&f);
            (r, (u16::MAX - (r >> 48) as u16), n_adv, (f.key(), r))
        };
        let packed = self.a.plan.goals_done(steps);
        if packed > self.stats.best_packed {
            self.stats.best_packed = packed;
        }
        if self.best_rank.is_none_or(|r| rank < r) {
            self.best_rank = Some(rank);
            self.best_node = id;
        }
        self.stats.advised += n_adv as u64;
        let n_moves = self.order_moves.len() as u32;
        // The scored strategy leaves children seen before out of the order: where its moves
        // fill more than the first block, which ones is kept, for the order's regeneration.
        let stored = n_moves.min(FIRST_BLOCK);
        if scored && stored < n_moves {
            self.nodes[id as usize].mask_at = self.masks.len() as u32;
            room(&mut self.masks, self.mask_buf.len());
            self.masks.extend_from_slice(&self.mask_buf);
            #[cfg(debug_assertions)]
            self.first_orders.insert(
                id,
                (
                    self.order_moves[..stored as usize].to_vec(),
                    self.order_keys[..stored as usize].to_vec(),
                ),
            );
        }
        let at = self.moves.len() as u32;
        room(&mut self.moves, stored as usize);
        self.moves.extend_from_slice(&self.order_moves[..stored as usize]);
        if scored {
            room(&mut self.move_keys, stored as usize);
            self.move_keys.extend_from_slice(&self.order_keys[..stored as usize]);
        }
        let node = &mut self.nodes[id as usize];
        node.moves_at = at;
        node.moves_len = stored;
        node.total = n_moves;
        node.advised = n_adv;
        if n_moves == 0 {
            return;
        }
        let w = node.weight + (n_adv == 0) as u32;
        let key = if scored { self.move_keys[at as usize] } else { 0 };
        let c = self.cell_for(cell.0, cell.1);
        self.cells[c as usize].heap.push(Reverse(((w as u64) << 32 | key as u64, u32::MAX - id)));
        self.heap_entries += 1;
        if self.memory() > self.memory_limit {
            self.full = true;
        }
    }

    /// The next block of node `id`'s moves: generated again (the order is a function of the
    /// position) and the part after the moves tried so far stored.
    fn refill(&mut self, id: u32) {
        self.load(id);
        let node = self.nodes[id as usize];
        if self.config.scored {
            self.scored_moves(Some(node.mask_at as usize), None, usize::MAX);
        } else {
            self.ordered_moves(usize::MAX);
        }
        debug_assert_eq!(self.order_moves.len(), node.total as usize, "the same order again");
        #[cfg(debug_assertions)]
        if let Some((moves, keys)) = self.first_orders.get(&id) {
            let n = moves.len();
            assert!(
                moves[..] == self.order_moves[..n] && keys[..] == self.order_keys[..n],
                "the same order"
            );
        }
        let from = (node.skipped + node.moves_len) as usize;
        let to = (from + MOVE_BLOCK as usize).min(self.order_moves.len());
        let at = self.moves.len() as u32;
        room(&mut self.moves, to - from);
        self.moves.extend_from_slice(&self.order_moves[from..to]);
        if self.config.scored {
            room(&mut self.move_keys, to - from);
            self.move_keys.extend_from_slice(&self.order_keys[from..to]);
        }
        let node = &mut self.nodes[id as usize];
        node.moves_at = at;
        node.skipped = from as u32;
        node.moves_len = (to - from) as u32;
        node.next = 0;
        self.stats.refills += 1;
    }

    /// The cell of a feature tuple (made when new).
    fn cell_for(&mut self, key: u64, rank: u64) -> u32 {
        if let Some(&c) = self.cell_of.get(&key) {
            return c;
        }
        let c = self.cells.len() as u32;
        self.cells.push(Cell { rank, heap: BinaryHeap::new() });
        self.cell_of.insert(key, c);
        self.stats.cells = self.cells.len();
        if rank < self.cells[self.best_cell as usize].rank {
            self.best_cell = c;
        }
        if self.config.scored {
            self.cursor = c as usize; // a new cell is visited next (Festival)
        }
        c
    }

    /// The pushes from the root to node `id`.
    pub fn pushes_to(&mut self, id: u32) -> Vec<(u16, u8)> {
        self.loaded = NO_NODE;
        let nodes = &self.nodes;
        let link = |x: u32| {
            let n = &nodes[x as usize];
            (n.parent, n.mv, n.norm)
        };
        pushes_to_node(&self.a, &mut self.gen, &mut self.st, &self.positions, id, link)
    }
}

/// The single pushes from the root of a search tree to node `id`, given the stored
/// positions (sorted boxes, one position after another) and, per node, its parent
/// (`u32::MAX` for the root), the move from it ([`Move::pack`]) and a square of its
/// player's area.
pub(super) fn pushes_to_node(
    a: &Analysis,
    gen: &mut MoveGen,
    st: &mut State,
    positions: &[u16],
    id: u32,
    link: impl Fn(u32) -> (u32, u32, u16),
) -> Vec<(u16, u8)> {
    let (p, nb) = (&a.p, a.p.goals.len());
    let mut chain = Vec::new();
    let mut x = id;
    while x != NO_NODE {
        chain.push(x);
        x = link(x).0;
    }
    chain.reverse();
    let mut out = Vec::new();
    for w in chain.windows(2) {
        let at = w[0] as usize * nb;
        st.set(p, &a.layout, &positions[at..at + nb], link(w[0]).2);
        let m = Move::unpack(link(w[1]).1);
        let ok = gen.steps_of(p, &a.layout, st, m, false, &mut out);
        debug_assert!(ok.is_some(), "a stored move is possible from its parent");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::order::{approach, box_reach, floor_distances};
    use super::*;
    use crate::analysis::problem::Problem;
    use crate::analysis::problem::INF_DIST;

    impl Fess {
        /// The sets [`Fess::pocket_stuck`] tests, for the pockets holding one of the
        /// squares `starts`, in the position whose boxes are `boxes` (sorted).
        fn pocket_groups(
            &mut self,
            p: &Problem,
            boxes: &[u16],
            norm: u16,
            starts: impl Iterator<Item = u16>,
        ) -> Vec<Vec<u16>> {
            let occupied = self.flood_position(p, boxes, norm);
            let flood = &self.flood;
            let mut out = Vec::new();
            self.pockets.find(
                p,
                self.nb,
                &occupied,
                |s| flood.reached(s),
                starts,
                |g| {
                    out.push(g.to_vec());
                    false
                },
            );
            out
        }
    }
    use crate::fast::board::Layout;
    use crate::fast::plan::Plan;
    use sokoban_core::format::parse_level;

    /// Nine boxes in an open room, goals in two rows below: many moves per position.
    const NINE_BOXES: &str = "##########\n\
         #        #\n\
         # $ $ $  #\n\
         #  $ $ $ #\n\
         # $ $ $  #\n\
         #   @    #\n\
         #........#\n\
         #.       #\n\
         ##########";

    /// A search from the start of `level` with `config`, its boxes (sorted) and player.
    fn search_on(level: &sokoban_core::Level, config: Config) -> (Fess, Vec<u16>, u16) {
        search_with(level, config, "")
    }

    /// [`search_on`] with development switches (`exp`, as `Experiments::parse` reads them).
    fn search_with(
        level: &sokoban_core::Level,
        config: Config,
        exp: &str,
    ) -> (Fess, Vec<u16>, u16) {
        let p = Problem::new(&level.board);
        let layout = Arc::new(Layout::new(&level.board, &p));
        let mut boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
        boxes.sort_unstable();
        let player = p.compact[level.start.player];
        let plan = Arc::new(Plan::new(&p, &layout, &boxes));
        let p = Arc::new(p);
        let exp = Arc::new(crate::fast::Experiments::parse(exp).expect("switches"));
        let a = Arc::new(Analysis::new(Arc::clone(&p), layout, plan, exp));
        let f = Fess::new(a, config, player, &boxes, 64 << 20, Learned::new(&p));
        (f, boxes, player)
    }

    /// The scored strategy stores a block of its moves and generates the order again when
    /// the block is used up: the order must come back the same (debug builds compare it
    /// with the first one in `refill`), with the children seen by then still in it.
    #[test]
    fn scored_order_generated_again_is_the_same() {
        let level = parse_level(NINE_BOXES).expect("level");
        let config = Config { scored: true, corral_moves: false, ..Config::default() };
        let (mut f, _, _) = search_on(&level, config);
        let root = f.nodes[0];
        assert!(root.total > FIRST_BLOCK && root.mask_at != u32::MAX, "the root has many moves");
        // The root's whole order (its first making put only the first block in order).
        f.scored_moves(None, None, usize::MAX);
        let first = (f.order_moves.clone(), f.order_keys.clone());
        // Some children get seen (the root's among them) ...
        for _ in 0..3 {
            assert_eq!(f.run(1, None), FessEvent::Budget);
        }
        assert!(f.seen.len() > 1);
        // ... and the root's block is used up: the order comes back as it was.
        f.nodes[0].next = f.nodes[0].moves_len;
        f.refill(0);
        assert_eq!((&f.order_moves, &f.order_keys), (&first.0, &first.1));
        let node = f.nodes[0];
        assert_eq!(
            (node.skipped, node.moves_len),
            (FIRST_BLOCK, (root.total - FIRST_BLOCK).min(MOVE_BLOCK))
        );
        let at = node.moves_at as usize;
        assert_eq!(
            &f.moves[at..at + node.moves_len as usize],
            &first.0[FIRST_BLOCK as usize..(FIRST_BLOCK + node.moves_len) as usize]
        );
    }

    /// The approacher takes the move that ends nearest the goal, only if it brings its box
    /// nearer, the fewest pushes among equals.
    #[test]
    fn approacher_brings_a_box_nearest() {
        // Push distances to the goal of squares 0..6.
        let d = [0, 1, 2, 3, 4, 5, INF_DIST];
        // (box square, target square, pushes)
        let moves = [(5, 4, 1), (3, 1, 4), (6, 2, 2), (4, 1, 3), (2, 3, 1)];
        assert_eq!(approach(&d, moves.iter().copied()), Some(3), "to square 1, 3 pushes");
        // Only moves away or sideways: none.
        assert_eq!(approach(&d, [(2, 3, 1), (1, 1, 2)].into_iter()), None);
        assert_eq!(approach(&d, std::iter::empty()), None);
    }

    /// The stuck test's sets for pockets: the boxes round the square the player cannot
    /// reach, and the box beside them; the box far away stays out.
    #[test]
    fn pocket_groups_are_the_fence_and_its_neighbours() {
        let level = parse_level(
            "#########\n\
             #  $$   #\n\
             # $.$   #\n\
             #  $    #\n\
             #@   $  #\n\
             #. ... .#\n\
             #########",
        )
        .expect("level");
        let (mut f, boxes, player) = search_on(&level, Config::default());
        let p = Arc::clone(&f.a.p);
        let at = |r: usize, c: usize| p.compact[r * 9 + c];
        let mut want = vec![at(1, 3), at(1, 4), at(2, 2), at(2, 4), at(3, 3)];
        want.sort_unstable();
        let all = || 0..p.n as u16;
        assert_eq!(f.pocket_groups(&p, &boxes, player, all()), vec![want.clone()]);
        // From the squares beside one box (as after a move): the pocket beside it only.
        let beside = |f: &mut Fess, s: u16| {
            let near = p.nbr[s as usize];
            f.pocket_groups(&p, &boxes, player, near.into_iter())
        };
        assert_eq!(beside(&mut f, at(3, 3)), vec![want]);
        assert!(beside(&mut f, at(4, 5)).is_empty(), "no pocket beside the lone box");
        // Opened (the player next to the pocket's square): no pocket.
        let mut open: Vec<u16> = boxes.iter().copied().filter(|&b| b != at(3, 3)).collect();
        open.push(at(3, 6));
        open.sort_unstable();
        assert!(f.pocket_groups(&p, &open, player, all()).is_empty());
    }

    /// The stuck test of a whole position runs while its positions searched stay within
    /// the moves made ([`WHOLE_TEST_PER_MOVE`]), and not once they are past them.
    #[test]
    fn whole_position_tests_keep_to_their_budget() {
        let level = parse_level(
            "#########\n\
             #   #   #\n\
             # $ $ $ #\n\
             #  $ $  #\n\
             # @     #\n\
             #.. . ..#\n\
             #########",
        )
        .expect("level");
        let (mut f, _, _) = search_on(&level, Config::default());
        // Spent: the root gets no whole test (and a pocket test finds nothing to test).
        f.stats.generated = 0;
        f.stats.whole_tested = 1;
        f.learn_at(0);
        assert_eq!(f.stats.whole_tested, 1);
        // Within the budget: it runs.
        f.stats.generated = 10;
        f.learn_at(0);
        assert!(f.stats.whole_tested > 1, "the whole position was searched");
        assert!(!f.dead_node[0], "the start is not stuck");
    }

    /// The opener's and the explorer's tables: floor steps ignore boxes; a box goes where
    /// the player can push it from some side, and nowhere from a corner.
    #[test]
    fn floor_steps_and_box_reach_on_an_empty_board() {
        let level = parse_level(
            "#######\n\
             #@    #\n\
             # $ . #\n\
             #  ####\n\
             #  #\n\
             ####",
        )
        .expect("level");
        let p = Problem::new(&level.board);
        let at = |r: usize, c: usize| p.compact[level.board.square(r, c)];
        let d = floor_distances(&p, at(1, 1));
        assert_eq!((d[at(1, 1) as usize], d[at(1, 5) as usize], d[at(4, 2) as usize]), (0, 4, 4));
        let corner = box_reach(&p, at(1, 1));
        assert_eq!(corner.iter().filter(|&&x| x).count(), 1, "a box in a corner stays");
        let middle = box_reach(&p, at(2, 2));
        assert!(
            middle[at(2, 4) as usize] && middle[at(1, 1) as usize] && middle[at(4, 1) as usize]
        );
        let bottom = box_reach(&p, at(4, 2));
        assert_eq!(bottom.iter().filter(|&&x| x).count(), 1, "no side to push it from");
    }

    /// With the opener and the explorer advising (`opener,explorer`), the scored search
    /// nominates more moves and still solves.
    #[test]
    fn opener_and_explorer_advise_and_the_search_solves() {
        let level = parse_level(NINE_BOXES).expect("level");
        let run = |exp: &str| {
            let config = Config { scored: true, corral_moves: true, ..Config::default() };
            let (mut f, _, _) = search_with(&level, config, exp);
            let event = f.run(200_000, None);
            (matches!(event, FessEvent::Solved(_)), f.stats.advised, f.stats.generated)
        };
        let (base, with) = (run(""), run("opener,explorer"));
        assert!(base.0 && with.0, "both solve: {base:?} {with:?}");
        assert!(
            with.1 * base.2 > base.1 * with.2,
            "a larger share of the moves advised: {with:?} against {base:?}"
        );
    }
}
