//! Greedy best-first search over macro moves, by the matching lower bound alone: the
//! position whose boxes are cheapest to match to the goals (push distances on the empty
//! board, the optimal search's assignment) is expanded next, all its children at once.
//!
//! No plan, no features: it is the schedule's probe for small levels, where the feature
//! search's plan guides it wrongly and a plain search through a small space finds the way
//! at once (Microban 99: 77 ms instead of 3.5 s). It reads the same analysis, dead tests
//! and learned patterns as the feature search, and proves a level unsolvable the same way:
//! every position reachable from the start stored or proved dead.

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::rc::Rc;
use std::sync::Arc;

use super::board::{Move, MoveGen, State};
use super::dead::DeadTests;
use super::fess::{pushes_to_node, FessEvent, FessStats};
use super::shared::{Analysis, Learned};
use crate::analysis::assign::{Assignment, INF_COST};
use crate::analysis::problem::{Keyed, Problem, INF_DIST};
use crate::work::{self, Op};

/// The assignment's cost of a box on `sq` for goal `j`: its push distance.
fn push_cost(p: &Problem, sq: u16, j: usize) -> i64 {
    match p.dist[j * p.n + sq as usize] {
        INF_DIST => INF_COST,
        d => d as i64,
    }
}

/// Node id of "no node".
const NO_NODE: u32 = u32::MAX;
/// Seen-table value of a position proved dead.
const DEAD: u32 = u32::MAX;

/// A stored position: its parent, the move from it, the smallest square of the player's
/// area.
#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    mv: u32,
    norm: u16,
}

/// The search.
pub struct Greedy {
    a: Arc<Analysis>,
    st: State,
    gen: MoveGen,
    dead: DeadTests,
    learned: Rc<RefCell<Learned>>,
    nb: usize,
    nodes: Vec<Node>,
    positions: Vec<u16>,
    seen: HashMap<u64, u32, Keyed>,
    /// Open positions: (lower bound, newest first).
    open: BinaryHeap<Reverse<(u32, u32)>>,
    assignment: Assignment,
    /// The assignment of the position being expanded, saved: each child restores it and
    /// re-matches the one box that moved (O(n²) instead of a fresh O(n³) solve).
    parent_assignment: Vec<i64>,
    /// The position being expanded (node id, player square) and its next move: an
    /// expansion with thousands of children stops at the budget and goes on next call.
    expanding: Option<(u32, u16)>,
    next_move: usize,
    best: (u32, u32),
    memory_limit: usize,
    full: bool,
    // Scratch.
    moves: Vec<Move>,
    parent_boxes: Vec<u16>,
    pub stats: FessStats,
}

impl Greedy {
    /// A search from a position (compact squares) with a memory budget in bytes. A dead
    /// root leaves nothing to search: [`Greedy::run`] reports it exhausted.
    pub fn new(
        a: Arc<Analysis>,
        player: u16,
        boxes: &[u16],
        memory_limit: usize,
        learned: Rc<RefCell<Learned>>,
    ) -> Greedy {
        let p = Arc::clone(&a.p);
        let nb = boxes.len();
        let assignment = Assignment::new(nb);
        let mut g = Greedy {
            st: State::new(&p, &a.layout),
            gen: MoveGen::new(&a.layout),
            dead: a.dead_tests(memory_limit),
            learned,
            nb,
            nodes: Vec::new(),
            positions: Vec::new(),
            seen: HashMap::default(),
            open: BinaryHeap::new(),
            parent_assignment: vec![0; assignment.saved_len()],
            assignment,
            expanding: None,
            next_move: 0,
            best: (u32::MAX, NO_NODE),
            memory_limit,
            full: false,
            moves: Vec::new(),
            parent_boxes: Vec::new(),
            stats: FessStats::default(),
            a,
        };
        let mut sorted = boxes.to_vec();
        sorted.sort_unstable();
        g.st.set(&p, &g.a.layout, &sorted, player);
        if g.dead.at_start(&p, &g.st) {
            return g;
        }
        let Some(h) = g.bound(&p) else { return g };
        let key = g.st.key(&p);
        let id = g.store(NO_NODE, 0);
        g.seen.insert(key, id);
        g.open.push(Reverse((h, u32::MAX - id)));
        g
    }

    /// The store's memory budget in bytes.
    pub fn memory_budget(&self) -> usize {
        self.memory_limit
    }

    /// Bytes held by the store.
    pub fn memory(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.positions.capacity() * 2
            + self.seen.capacity() * 13
            + self.open.capacity() * 8
            + self.dead.memory()
    }

    /// The stored position with the smallest bound (boxes, a square of the player's area).
    pub fn best_position(&self) -> Option<(Vec<u16>, u16)> {
        let id = self.best.1;
        (id != NO_NODE).then(|| {
            let at = id as usize * self.nb;
            (self.positions[at..at + self.nb].to_vec(), self.nodes[id as usize].norm)
        })
    }

    /// The matching lower bound of the position in the state; `None` when some box can
    /// be matched to no goal.
    fn bound(&mut self, p: &Problem) -> Option<u32> {
        let boxes = &self.st.boxes;
        let cost = |i: usize, j: usize| push_cost(p, boxes[i], j);
        self.assignment.solve(&cost);
        let total = self.assignment.total(&cost);
        (total < INF_COST).then_some(total as u32)
    }

    /// The bound of the parent position (`parent_boxes`, its assignment saved in
    /// `parent_assignment`) with box `i` moved to `to`.
    fn child_bound(&mut self, p: &Problem, i: usize, to: u16) -> Option<u32> {
        let boxes = &self.parent_boxes;
        let cost = |r: usize, j: usize| push_cost(p, if r == i { to } else { boxes[r] }, j);
        self.assignment.restore(&self.parent_assignment);
        self.assignment.update_row(i, &cost);
        let total = self.assignment.total(&cost);
        debug_assert_eq!(
            {
                let mut fresh = self.assignment.clone();
                fresh.solve(&cost);
                fresh.total(&cost).min(INF_COST)
            },
            total.min(INF_COST),
            "the incremental bound equals a fresh solve"
        );
        (total < INF_COST).then_some(total as u32)
    }

    fn store(&mut self, parent: u32, mv: u32) -> u32 {
        let id = self.nodes.len() as u32;
        self.positions.extend_from_slice(&self.st.boxes);
        self.nodes.push(Node { parent, mv, norm: self.st.norm });
        self.stats.nodes += 1;
        work::add(Op::Expand, 1);
        if self.memory() > self.memory_limit {
            self.full = true;
        }
        id
    }

    /// Search for up to `budget` moves (children made).
    pub fn run(&mut self, budget: u64) -> FessEvent {
        let p = Arc::clone(&self.a.p);
        if self.nodes.is_empty() {
            return FessEvent::Exhausted;
        }
        if self.stats.generated == 0
            && self.positions[..self.nb].iter().all(|&b| p.is_goal[b as usize])
        {
            return FessEvent::Solved(Vec::new());
        }
        let end = self.stats.generated + budget;
        while self.stats.generated < end {
            if self.full {
                return FessEvent::MemoryFull;
            }
            let (id, norm) = match self.expanding {
                Some(e) => e,
                None => {
                    let Some(Reverse((_, tag))) = self.open.pop() else {
                        return FessEvent::Exhausted;
                    };
                    let id = u32::MAX - tag;
                    let at = id as usize * self.nb;
                    let norm = self.nodes[id as usize].norm;
                    self.parent_boxes.clear();
                    self.parent_boxes.extend_from_slice(&self.positions[at..at + self.nb]);
                    self.st.set(&p, &self.a.layout, &self.parent_boxes, norm);
                    self.moves.clear();
                    self.gen.generate(&p, &self.a.layout, &mut self.st, false, &mut self.moves);
                    let h = self.bound(&p);
                    debug_assert!(h.is_some(), "a stored position has a finite bound");
                    self.assignment.save_to(&mut self.parent_assignment);
                    self.expanding = Some((id, norm));
                    self.next_move = 0;
                    // The state holds the parent, flooded: the first child starts from it.
                    (id, norm)
                }
            };
            while self.next_move < self.moves.len() && self.stats.generated < end {
                let k = self.next_move;
                self.next_move += 1;
                let m = self.moves[k];
                self.stats.generated += 1;
                if k > 0 {
                    self.st.set_unflooded(&p, &self.a.layout, &self.parent_boxes, norm);
                }
                let player = p.nbr[m.to as usize][m.side as usize];
                self.st.move_box(&p, &self.a.layout, m.box_i as usize, m.to, player);
                let key = self.st.key(&p);
                if self.seen.contains_key(&key) {
                    self.stats.duplicates += 1;
                    continue;
                }
                if self.dead.after_move(&p, &self.st, m.to)
                    || self.learned.borrow().patterns.matches(
                        &self.st.occupied,
                        &self.st.boxes,
                        self.st.player,
                    )
                {
                    self.stats.deadlocks += 1;
                    self.seen.insert(key, DEAD);
                    continue;
                }
                let Some(h) = self.child_bound(&p, m.box_i as usize, m.to) else {
                    self.stats.deadlocks += 1;
                    self.seen.insert(key, DEAD);
                    continue;
                };
                let child = self.store(id, m.pack());
                self.seen.insert(key, child);
                if self.st.solved(&p) {
                    self.stats.best_packed = self.nb as u16;
                    return FessEvent::Solved(self.pushes_to(child));
                }
                if h < self.best.0 {
                    self.best = (h, child);
                }
                self.open.push(Reverse((h, u32::MAX - child)));
            }
            if self.next_move >= self.moves.len() {
                self.expanding = None;
            }
        }
        FessEvent::Budget
    }

    /// The pushes from the root to node `id`.
    pub fn pushes_to(&mut self, id: u32) -> Vec<(u16, u8)> {
        let nodes = &self.nodes;
        let link = |x: u32| {
            let n = &nodes[x as usize];
            (n.parent, n.mv, n.norm)
        };
        pushes_to_node(&self.a, &mut self.gen, &mut self.st, &self.positions, id, link)
    }
}
