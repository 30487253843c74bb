//! Feature space search (FESS, Shoham & Schaeffer 2020) over macro moves.
//!
//! Every position found is filed in a *cell* of the feature space by its [`Features`]. The
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

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::rc::Rc;
use std::sync::Arc;

use super::back::Backward;
use super::board::{Move, MoveGen, State, MAX_BOXES};
use super::dead::DeadTests;
use super::experiments::StopRule;
use super::features::{parts_round, FeatureScratch, Features};
use super::score::{Rank, Score, Scorer};
use super::shared::{Analysis, Learned, Tested};
use crate::analysis::bits::PlayerArea;
use crate::analysis::deadlock::stuck::{Verdict, SEARCH_LIMIT};
use crate::analysis::problem::{Keyed, Problem, NONE};

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
/// Moves of boxes next to two player areas or more that the area advisor tries.
const AREA_TRIES: usize = 24;
/// Moves of a new position stored: a position can have hundreds of moves and most are left
/// after a few; the rest are generated again when needed, [`MOVE_BLOCK`] at a time.
const FIRST_BLOCK: u32 = 16;
/// Moves stored each time a position's stored moves run out.
const MOVE_BLOCK: u32 = 32;

/// Number of advisors (rules strategy): packer (or approacher), area joiner, passage
/// opener, out-of-plan remover.
const ADVISORS: usize = 4;

/// A position whose subtree has grown to this many positions is tested for stuck boxes
/// (the search is spending time there; Festival's rule).
const LEARN_AT: u32 = 64;

/// Most boxes in a local stuck test, and the positions it may search (0: no test).
/// Measured on XSokoban at 300k moves: 300 and 10 solve 70; 100 and 8, 69; 1,000 and 12,
/// 70 but 10% slower. Then, with the pocket tests, at 60 s a level: 150 against 300, 84
/// both ways, 69 levels move for move the same, 89 in 1.35 M moves (1.45 M; its local
/// tests gave up 3,904 times, 1.2 M positions), Microban the same.
const LOCAL_MAX_BOXES: usize = 10;
const LOCAL_LIMIT: usize = 150;
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
    scored_order: Vec<(u32, Rank, u16, u32)>,
    order: Vec<(i32, u32)>,
    next_goals: Vec<u16>,
    mark: Vec<u32>,
    mark_stamp: u32,
    /// The boxes near the moved box, and which are taken (local stuck test).
    local: Vec<u16>,
    local_taken: Vec<bool>,
    /// Scratch of the pocket search ([`Pockets::groups`]).
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
            scorer: Scorer::new(&a, config.regions_first),
            cands: Vec::new(),
            scored_order: Vec::new(),
            order: Vec::new(),
            next_goals: Vec::new(),
            mark: vec![0; p.n],
            mark_stamp: 0,
            local: Vec::new(),
            local_taken: vec![false; p.n],
            pockets: Pockets::new(p.n),
            stops: match a.exp.stops {
                StopRule::Off => false,
                StopRule::All => true,
                StopRule::Scored => config.scored,
            },
            stop_area: PlayerArea::new(&p),
            stats: FessStats::default(),
            config,
            a,
        };
        let mut sorted = boxes.to_vec();
        sorted.sort_unstable();
        f.st.set(&p, &f.a.layout, &sorted, player);
        if f.dead.at_start(&p, &f.st) {
            return f; // no node: exhausted
        }
        let key = f.st.key(&p);
        let id = f.store(NO_NODE, 0, 0);
        f.seen.insert(key, id);
        f.loaded = id;
        if !f.st.solved(&p) {
            f.prepare(id);
        }
        f
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
            return None;
        }
        let id = self.store(parent, mv, weight);
        self.seen.insert(key, id);
        self.loaded = id;
        if self.st.solved(&p) {
            return Some((id, NO_NODE));
        }
        self.prepare(id);
        self.grow_subtrees(id);
        None
    }

    /// The new position in the state (its key `key`), its box just moved to `to`: dead by
    /// the move's deadlock tests, a learned pattern, the local stuck test or (the scored
    /// strategy) the pocket test? The tests' verdicts are kept for the other strategies
    /// ([`Tested`]); a pattern is looked for every time (the store grows).
    fn dead_after_move(&mut self, p: &Problem, key: u64, to: u16) -> bool {
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
            let stuck = LOCAL_LIMIT > 0 && self.local_stuck(p, to);
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

    /// The boxes near the box just moved to `to` (side by side, corner to corner or two
    /// squares apart in a line, and so on from box to box), alone on the board: stuck? Then
    /// the position is dead, and the pattern is learned.
    fn local_stuck(&mut self, p: &Problem, to: u16) -> bool {
        self.local.clear();
        self.local.push(to);
        self.local_taken[to as usize] = true;
        let mut k = 0;
        while k < self.local.len() && self.local.len() < LOCAL_MAX_BOXES {
            let s = self.local[k];
            k += 1;
            for d in 0..4 {
                let a = p.nbr[s as usize][d];
                let e = (d + 1) & 3;
                let b = p.nbr[s as usize][e];
                // The square diagonally across, by either way round.
                let diag = match (a, b) {
                    (a, _) if a != NONE && p.nbr[a as usize][e] != NONE => p.nbr[a as usize][e],
                    (_, b) if b != NONE => p.nbr[b as usize][d],
                    _ => NONE,
                };
                // And the square two steps straight on.
                let two = if a != NONE { p.nbr[a as usize][d] } else { NONE };
                for t in [a, diag, two] {
                    if t != NONE
                        && self.st.occupied[t as usize]
                        && !self.local_taken[t as usize]
                        && self.local.len() < LOCAL_MAX_BOXES
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
        if stuck.run(p, &self.local, self.st.player, LOCAL_LIMIT) != Verdict::Stuck {
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
    fn grow_subtrees(&mut self, id: u32) {
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
    fn learn_at(&mut self, id: u32) {
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
    fn flood_position(&mut self, p: &Problem, boxes: &[u16], norm: u16) -> Vec<bool> {
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

    /// Generate the moves of the new node `id` (its position in the state), order them with
    /// the advisors' nominations first, store the first block of them, and file the node in
    /// its cell.
    fn prepare(&mut self, id: u32) {
        let scored = self.config.scored;
        let (rank, steps, n_adv, cell) = if scored {
            let (own, n_adv) = self.scored_moves(None);
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
            let (f, n_adv) = self.ordered_moves();
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
            self.first_orders.insert(id, (self.order_moves.clone(), self.order_keys.clone()));
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
            self.scored_moves(Some(node.mask_at as usize));
        } else {
            self.ordered_moves();
        }
        debug_assert_eq!(self.order_moves.len(), node.total as usize, "the same order again");
        #[cfg(debug_assertions)]
        if let Some((moves, keys)) = self.first_orders.get(&id) {
            assert!(moves == &self.order_moves && keys == &self.order_keys, "the same order");
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

    /// The macro moves of the position in the state into `move_buf`: with a PI-corral, only
    /// its barrier boxes' when the strategy uses the corral rule ([`Config::corral_moves`]).
    fn generate_moves(&mut self) {
        let a = Arc::clone(&self.a);
        let p = &a.p;
        self.move_buf.clear();
        if self.config.corral_moves && self.dead.corral_boxes(p, &self.st, &mut self.corral_only) {
            self.stats.corral_nodes += 1;
            self.gen.generate_only(
                p,
                &a.layout,
                &mut self.st,
                &self.corral_only,
                &mut self.move_buf,
            );
        } else {
            self.gen.generate(p, &a.layout, &mut self.st, false, &mut self.move_buf);
        }
        if let Some(stops) = a.stops.as_ref().filter(|_| self.stops) {
            self.stop_area.set_boxes(&self.st.boxes);
            let (st, area) = (&mut self.st, &mut self.stop_area);
            self.move_buf.retain(|m| {
                let from = st.boxes[m.box_i as usize];
                let player = p.nbr[m.to as usize][m.side as usize];
                !stops.prunes(p, &mut st.occupied, area, from, m.to, player)
            });
        }
    }

    /// The scored strategy's moves of the position in the state, in the order they are
    /// tried, into `order_moves` (with their children's order keys in `order_keys`), the
    /// children seen before left out (with `mask`, the position's marks in `masks`, those
    /// it marks instead: the same order again); returns the position's own score and how
    /// many moves lead (the advisors' nominations).
    fn scored_moves(&mut self, mask: Option<usize>) -> (Score, u32) {
        let a = Arc::clone(&self.a);
        let p = &a.p;
        let own = self.scorer.score_base(&a, &self.st);
        self.generate_moves();
        self.cands.clear();
        self.mask_buf.clear();
        self.mask_buf.resize(self.move_buf.len().div_ceil(64), 0);
        for k in 0..self.move_buf.len() {
            let m = self.move_buf[k];
            if let Some(at) = mask {
                if self.masks[at + k / 64] >> (k % 64) & 1 != 0 {
                    continue;
                }
            }
            let from = self.st.boxes[m.box_i as usize];
            let player = p.nbr[m.to as usize][m.side as usize];
            let (score, norm) =
                self.scorer.score_move(&a, &mut self.st, from, m.to, m.groups, player);
            if mask.is_none() {
                let child_key = self.st.hash
                    ^ p.z_box[from as usize]
                    ^ p.z_box[m.to as usize]
                    ^ p.z_player[norm as usize];
                if self.seen.contains_key(&child_key) {
                    self.mask_buf[k / 64] |= 1 << (k % 64);
                    continue;
                }
            }
            self.cands.push((m, score));
        }
        self.stats.scored += self.move_buf.len() as u64;
        let n = self.cands.len();
        let mut advised = [usize::MAX; 6];
        if self.config.advisors && n > 0 {
            advised[..5].copy_from_slice(&scored_advice(&own, &self.cands));
        }
        // With two moves or fewer, the best one weighs nothing (Festival's rule).
        if n > 0 && n <= 2 && advised.iter().all(|&k| k == usize::MAX) {
            advised[5] = (0..n).min_by_key(|&k| self.cands[k].1.rank()).unwrap_or(0);
        }
        self.scored_order.clear();
        for (k, (m, sc)) in self.cands.iter().enumerate() {
            let weight = !advised.contains(&k) as u32;
            self.scored_order.push((weight, sc.rank(), m.pushes, k as u32));
        }
        self.scored_order.sort_unstable();
        self.order_moves.clear();
        self.order_keys.clear();
        for &(_, _, _, k) in &self.scored_order {
            let (m, sc) = &self.cands[k as usize];
            self.order_moves.push(m.pack());
            self.order_keys.push(sc.order_key());
        }
        let n_adv = advised.iter().filter(|&&k| k != usize::MAX).count() as u32;
        (own, n_adv)
    }

    /// The moves of the position in the state, in the order they are tried, into
    /// `order_moves`; returns its features and how many moves lead (the advisors'
    /// nominations).
    fn ordered_moves(&mut self) -> (Features, u32) {
        let a = Arc::clone(&self.a);
        let p = &a.p;
        let f = self.feats.features(p, &a.plan, &a.rooms, &self.st.boxes, &self.st.occupied);
        self.generate_moves();
        let n_moves = self.move_buf.len();
        // Advisors: indices into move_buf.
        let mut advised = [usize::MAX; ADVISORS];
        if self.config.advisors && n_moves > 0 {
            advised = self.advise(f); // finds the plan's next goals too
        } else {
            self.a.plan.next_goals(p, &self.st.occupied, &mut self.next_goals);
        }
        // The rest by how much closer they bring their box to a goal, then fewest pushes; a
        // box taken off a packed goal last.
        self.order.clear();
        for (k, m) in self.move_buf.iter().enumerate() {
            if advised.contains(&k) {
                continue;
            }
            let from = self.st.boxes[m.box_i as usize];
            let gain = a.nearest[m.to as usize] as i32 - a.nearest[from as usize] as i32;
            let packed = self.is_packed(from) as i32;
            let score = packed * 100_000 + gain * 256 + m.pushes.min(255) as i32;
            self.order.push((score, k as u32));
        }
        self.order.sort_unstable();
        self.order_moves.clear();
        let mut n_adv = 0;
        for &k in advised.iter().filter(|&&k| k != usize::MAX) {
            self.order_moves.push(self.move_buf[k].pack());
            n_adv += 1;
        }
        for &(_, k) in &self.order {
            self.order_moves.push(self.move_buf[k as usize].pack());
        }
        (f, n_adv)
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

    /// True when the box on `s` stands on a goal packed in plan order (after
    /// `plan.next_goals` for the position).
    fn is_packed(&self, s: u16) -> bool {
        self.a.plan.box_packed(s, self.a.goal_no[s as usize], &self.next_goals)
    }

    /// The advisors' nominations (indices into `move_buf`, `usize::MAX` for none): the
    /// packer (or, when it has no move and nothing is packed, the approacher), the area
    /// joiner, the passage opener, the out-of-plan remover.
    fn advise(&mut self, f: Features) -> [usize; ADVISORS] {
        let a = Arc::clone(&self.a);
        let p = &a.p;
        let plan = &a.plan;
        let mut out = [usize::MAX; ADVISORS];
        plan.next_goals(p, &self.st.occupied, &mut self.next_goals);
        // Packer: a box (not packed itself) onto the next goal of a cluster, fewest pushes.
        self.mark_stamp += 1;
        for t in plan.next_squares(p, &self.next_goals) {
            self.mark[t as usize] = self.mark_stamp;
        }
        let mut best: Option<(u16, usize)> = None;
        for (k, m) in self.move_buf.iter().enumerate() {
            if self.mark[m.to as usize] == self.mark_stamp {
                let from = self.st.boxes[m.box_i as usize];
                if !self.is_packed(from) && best.is_none_or(|(pu, _)| m.pushes < pu) {
                    best = Some((m.pushes, k));
                }
            }
        }
        if let Some((_, k)) = best {
            out[0] = k;
        } else if f.packed == 0 && !a.exp.no_approach {
            // Approacher, while nothing is packed: no box reaches the first goal; the move
            // that brings a box nearest to it (push distance on the empty board), nearer
            // than the box was. XSokoban 39, where a box must be worked round a sealed
            // pocket before the goal room can be entered, solved in 10 s (never without).
            let next = plan.next_squares(p, &self.next_goals).next();
            if let Some(j) = next.map(|t| a.goal_no[t as usize]).filter(|&j| j != NONE) {
                let d = &p.dist[j as usize * p.n..(j as usize + 1) * p.n];
                let boxes = &self.st.boxes;
                let moves = self.move_buf.iter().map(|m| (boxes[m.box_i as usize], m.to, m.pushes));
                if let Some(k) = approach(d, moves) {
                    out[0] = k;
                }
            }
        }
        // Area joiner: of the boxes next to two areas or more, the move that leaves the
        // fewest areas (fewer than now).
        if f.regions > 1 && self.config.area_joiner && !a.exp.no_join {
            out[1] = self.join_areas(f.regions);
        }
        // Passage opener: a box alone in a passage, moved off every passage.
        if f.blocked_links > 0 && !a.exp.no_link {
            self.feats.blocked_links(&a.rooms, &self.st.boxes);
            let mut best: Option<(u16, usize)> = None;
            for (k, m) in self.move_buf.iter().enumerate() {
                let from = self.st.boxes[m.box_i as usize];
                let l = a.rooms.link_of[from as usize];
                if l == NONE || self.feats.boxes_on_link(l) != 1 {
                    continue;
                }
                if a.rooms.link_of[m.to as usize] == NONE
                    && best.is_none_or(|(pu, _)| m.pushes < pu)
                {
                    best = Some((m.pushes, k));
                }
            }
            if let Some((_, k)) = best {
                out[2] = k;
            }
        }
        // Out-of-plan remover: a box out of plan (on a goal past its cluster's packed ones,
        // or in the zone the next goals of the plan shut in), moved out of it.
        if f.out_of_plan > 0 && !a.exp.no_out_of_plan {
            let mut best: Option<(u16, usize)> = None;
            for (k, m) in self.move_buf.iter().enumerate() {
                let from = self.st.boxes[m.box_i as usize];
                let (out_now, out_after) = if plan.per_cluster {
                    let on = a.goal_no[from as usize] != NONE && !self.is_packed(from);
                    (on, a.goal_no[m.to as usize] != NONE)
                } else {
                    (plan.out_of_plan_at(f.packed, from), plan.out_of_plan_at(f.packed, m.to))
                };
                if out_now && !out_after && best.is_none_or(|(pu, _)| m.pushes < pu) {
                    best = Some((m.pushes, k));
                }
            }
            if let Some((_, k)) = best {
                out[3] = k;
            }
        }
        // One nomination per move.
        for i in 1..ADVISORS {
            if out[..i].contains(&out[i]) {
                out[i] = usize::MAX;
            }
        }
        out
    }

    /// The area joiner's move (see [`Fess::advise`]), `usize::MAX` for none.
    fn join_areas(&mut self, regions: u16) -> usize {
        let p = Arc::clone(&self.a.p);
        // The labels of the areas are those of the feature computation just made.
        self.order.clear();
        for (k, m) in self.move_buf.iter().enumerate() {
            let from = self.st.boxes[m.box_i as usize];
            let mut labels = [u32::MAX; 4];
            let mut distinct = 0;
            for &t in &p.nbr[from as usize] {
                if t == NONE {
                    continue;
                }
                if let Some(l) = self.feats.area_of(t) {
                    if !labels.contains(&l) {
                        labels[distinct] = l;
                        distinct += 1;
                    }
                }
            }
            if distinct >= 2 {
                self.order.push((m.pushes as i32, k as u32));
            }
        }
        self.order.sort_unstable();
        self.order.truncate(AREA_TRIES);
        let mut best: Option<(u16, usize)> = None;
        for i in 0..self.order.len() {
            let k = self.order[i].1 as usize;
            let m = self.move_buf[k];
            let from = self.st.boxes[m.box_i as usize];
            let r = self.regions_after(&p, regions, from, m.to, m.groups);
            if r < regions && best.is_none_or(|(br, _)| r < br) {
                best = Some((r, k));
            }
        }
        best.map_or(usize::MAX, |(_, k)| k)
    }

    /// The number of player areas after the box on `from` goes to `to`, from the count
    /// `regions` (with its labels) of the position now: the areas around `from` merge;
    /// `to` may cut its area in parts ([`parts_round`]: the ring round it, else the move's
    /// side groups of `to`).
    fn regions_after(&self, p: &Problem, regions: u16, from: u16, to: u16, groups: u8) -> u16 {
        if from == to {
            return regions; // the box came back, the player went round it
        }
        let r = self.regions_after_inner(p, regions, from, to, groups);
        #[cfg(debug_assertions)]
        {
            let mut occ = self.st.occupied.clone();
            occ[from as usize] = false;
            occ[to as usize] = true;
            let mut seen = vec![false; p.n];
            let mut want = 0;
            for s0 in 0..p.n {
                if occ[s0] || seen[s0] {
                    continue;
                }
                want += 1;
                let mut stack = vec![s0 as u16];
                seen[s0] = true;
                while let Some(x) = stack.pop() {
                    for &y in &p.nbr[x as usize] {
                        if y != NONE && !occ[y as usize] && !seen[y as usize] {
                            seen[y as usize] = true;
                            stack.push(y);
                        }
                    }
                }
            }
            debug_assert_eq!(r, want, "areas after moving {from} to {to}");
        }
        r
    }

    fn regions_after_inner(
        &self,
        p: &Problem,
        regions: u16,
        from: u16,
        to: u16,
        groups: u8,
    ) -> u16 {
        let mut labels = [u32::MAX; 4];
        let mut k = 0;
        for &t in &p.nbr[from as usize] {
            if t != NONE {
                if let Some(l) = self.feats.area_of(t) {
                    if !labels[..k].contains(&l) {
                        labels[k] = l;
                        k += 1;
                    }
                }
            }
        }
        let mut r = regions as i32 + if k == 0 { 1 } else { 1 - k as i32 };
        // Free after the move: not a box, or `from`; never `to`. Filling `to` may cut its
        // area in parts (none where `to` was an area of its own).
        let occ = &self.st.occupied;
        let free = |s: u16| s != NONE && s != to && (s == from || !occ[s as usize]);
        r += parts_round(p, to, free, groups) as i32 - 1;
        r.max(1) as u16
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

/// The pockets of a position, for the stuck test: the areas the player cannot reach, each
/// with the boxes round it and those beside them. Scratch is kept between calls: pocket
/// squares marked with the call's stamp, box marks all clear between calls.
struct Pockets {
    seen: Vec<u32>,
    stamp: u32,
    queue: Vec<u16>,
    taken: Vec<bool>,
    group: Vec<u16>,
}

impl Pockets {
    fn new(n: usize) -> Pockets {
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
    fn find(
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

/// The approacher's move (index into `moves`: box square, target square, pushes): the one
/// that brings a box nearest to the goal whose push distances are `d`, nearer than the
/// box was (fewest pushes among equals); `None` when no move brings a box nearer.
fn approach(d: &[u16], moves: impl Iterator<Item = (u16, u16, u16)>) -> Option<usize> {
    let mut best: Option<(u16, u16, usize)> = None;
    for (k, (from, to, pushes)) in moves.enumerate() {
        let (df, dt) = (d[from as usize], d[to as usize]);
        if dt < df && best.is_none_or(|(bd, bp, _)| (dt, pushes) < (bd, bp)) {
            best = Some((dt, pushes, k));
        }
    }
    best.map(|(_, _, k)| k)
}

/// A cell's or position's rank from its features (rules strategy): more packed, fewer out
/// of plan, fewer areas, fewer blocked passages (smaller is better).
fn features_rank(f: &Features) -> u64 {
    ((u16::MAX - f.packed) as u64) << 48
        | (f.out_of_plan as u64) << 32
        | (f.regions as u64) << 16
        | f.blocked_links as u64
}

/// The same from a score (scored strategy): more packed, fewer areas, fewer blocked
/// passages, fewer out of plan.
fn score_rank(s: &Score) -> u64 {
    if s.regions_first {
        return (s.regions as u64) << 48
            | ((u16::MAX - s.packed) as u64) << 32
            | (s.blocked_links as u64) << 16
            | s.out_of_plan as u64;
    }
    ((u16::MAX - s.packed) as u64) << 48
        | (s.regions as u64) << 32
        | (s.blocked_links as u64) << 16
        | s.out_of_plan as u64
}

/// The scored strategy's advisors (indices into `cands`, `usize::MAX` for none): the best
/// child (by score) that packs more goals; of those that pack no fewer, the best with
/// fewer player areas, fewer blocked passages, fewer hotspots, and fewer boxes out of plan
/// without more areas or blocked passages.
fn scored_advice(own: &Score, cands: &[(Move, Score)]) -> [usize; 5] {
    let mut out = [usize::MAX; 5];
    let mut best: [Option<Rank>; 5] = [None; 5];
    for (k, (_, s)) in cands.iter().enumerate() {
        if s.packed < own.packed {
            continue;
        }
        let wants = [
            s.packed > own.packed,
            s.regions < own.regions,
            s.blocked_links < own.blocked_links,
            s.hotspots < own.hotspots,
            s.out_of_plan < own.out_of_plan
                && s.regions <= own.regions
                && s.blocked_links <= own.blocked_links,
        ];
        let r = s.rank();
        for i in 0..5 {
            if wants[i] && best[i].is_none_or(|b| r < b) {
                best[i] = Some(r);
                out[i] = k;
            }
        }
    }
    for i in 1..5 {
        if out[..i].contains(&out[i]) {
            out[i] = usize::MAX;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
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

    /// A search from the start of `level` with `config`, its boxes (sorted) and player.
    fn search_on(level: &sokoban_core::Level, config: Config) -> (Fess, Vec<u16>, u16) {
        let p = Problem::new(&level.board);
        let layout = Arc::new(Layout::new(&level.board, &p));
        let mut boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
        boxes.sort_unstable();
        let player = p.compact[level.start.player];
        let plan = Arc::new(Plan::new(&p, &layout, &boxes));
        let p = Arc::new(p);
        let a = Arc::new(Analysis::new(Arc::clone(&p), layout, plan, Arc::default()));
        let f = Fess::new(a, config, player, &boxes, 64 << 20, Learned::new(&p));
        (f, boxes, player)
    }

    /// The scored strategy stores a block of its moves and generates the order again when
    /// the block is used up: the order must come back the same (debug builds compare it
    /// with the first one in `refill`), with the children seen by then still in it.
    #[test]
    fn scored_order_generated_again_is_the_same() {
        let level = parse_level(
            "##########\n\
             #        #\n\
             # $ $ $  #\n\
             #  $ $ $ #\n\
             # $ $ $  #\n\
             #   @    #\n\
             #........#\n\
             #.       #\n\
             ##########",
        )
        .expect("level");
        let config = Config { scored: true, corral_moves: false, ..Config::default() };
        let (mut f, _, _) = search_on(&level, config);
        let root = f.nodes[0];
        assert!(root.total > FIRST_BLOCK && root.mask_at != u32::MAX, "the root has many moves");
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
}
