//! The shortest solution over single pushes, in the metric with its tie-breakers: through
//! the placements of a vicinity ([`crate::vicinity`]), or through any placement under a
//! bound (the global search).
//!
//! Nodes are (boxes, player square after the push, its direction); an edge is a push whose
//! cost is the player's shortest walk to it plus the push, and whether it starts a box
//! line or changes the box (the tie-breakers: that is why the direction is part of the
//! node, it says which box was pushed last and how). Costs compare as (first count,
//! second count, box lines, box changes).
//!
//! Through a vicinity the search is Dijkstra's, from the start to the solved placement.
//! The global search is A\* with a lower bound on the pushes still needed (each box's
//! fewest pushes to its nearest goal, consistent: a push changes it by at most one and
//! costs at least one move and one push), pruned wherever that bound cannot beat the best
//! solution: it finds a shorter solution anywhere on the board, or when it runs out of
//! nodes within its memory, proves the best optimal.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use sokoban_solver::analysis::deadlock::freeze_deadlock;
use sokoban_solver::analysis::problem::{Keyed, Problem, NONE};

use crate::table::{Entry, KeyMap, KeySet};
use crate::vicinity::{placement_key, play, Push};
use crate::{Counts, Metric};

/// A search node: a placement (boxes in [`Search::boxes`] at `index * nb`; its key is
/// computed again from them, 8 bytes a node fewer) and the player's square, the best cost
/// so far and the push that reached it (from the player's square, in `dir`; [`NO_PUSH`]
/// at the start).
#[derive(Clone, Copy)]
struct Node {
    cost: u64,
    parent: u32,
    /// Box lines (high half) and box changes (low half) so far, each saturating.
    tie: u32,
    player: u16,
    dir: u8,
}

/// The direction of the start node, reached by no push.
const NO_PUSH: u8 = 4;

/// Keys of the last push's direction, so that one placement and player square reached by
/// pushes in two directions are two nodes (zero for the start).
const DIR_KEY: [u64; 5] =
    [0x9e37_79b9_7f4a_7c15, 0xc2b2_ae3d_27d4_eb4f, 0x1656_67b1_9e37_79f9, 0x85eb_ca77_c2b2_ae63, 0];

/// A lower bound of `h` pushes added to both counts of a cost: every push is a move too.
const BOUND_UNIT: u64 = (1 << 32) | 1;

/// The "last push" before the first.
pub(crate) const START: Push = (NONE, NO_PUSH);

/// Whether `push` starts a box line and whether it changes the box, after `last` (the
/// rule of [`crate::Counts`]: the same box is the one the last push moved onto `push`'s
/// square; a line goes on with it in the same direction).
#[inline]
pub(crate) fn starts(p: &Problem, last: Push, (from, dir): Push) -> (bool, bool) {
    let same_box = last.1 != NO_PUSH && p.step(last.0, last.1 as usize) == from;
    (!(same_box && last.1 == dir), !same_box)
}

/// The tie-breakers (box lines in the high half, box changes in the low, each saturating)
/// after `push`, from a node whose last push is `last`.
#[inline]
fn tie_after(p: &Problem, tie: u32, last: Push, push: Push) -> u32 {
    let (line, change) = starts(p, last, push);
    let lines = (tie >> 16) + line as u32;
    let changes = (tie & 0xFFFF) + change as u32;
    lines.min(0xFFFF) << 16 | changes.min(0xFFFF)
}

/// Counts as the search's (cost, tie) pair in `metric`'s order.
fn encode(metric: Metric, c: Counts) -> (u64, u32) {
    let (a, b, ..) = metric.key(c);
    let cap = |x: usize, bits: u32| x.min((1 << bits) - 1) as u64;
    ((cap(a, 32) << 32) | cap(b, 32), (cap(c.box_lines, 16) << 16 | cap(c.box_changes, 16)) as u32)
}

/// For each square, the fewest pushes that bring a box from it to the nearest goal on the
/// bare board (`u16::MAX`: none).
fn pushes_to_goal(p: &Problem) -> Vec<u16> {
    let mut h = vec![u16::MAX; p.n];
    let mut queue: Vec<u16> = p.goals.clone();
    for &g in &p.goals {
        h[g as usize] = 0;
    }
    let mut head = 0;
    while head < queue.len() {
        let t = queue[head];
        head += 1;
        for dir in 0..4 {
            // A box pushed in `dir` from `s` onto `t`, the player behind it.
            let s = p.step(t, (dir + 2) & 3);
            if s == NONE || h[s as usize] != u16::MAX || p.step(s, (dir + 2) & 3) == NONE {
                continue;
            }
            h[s as usize] = h[t as usize] + 1;
            queue.push(s);
        }
    }
    h
}

/// The global search's bound: the best solution's cost, and each square's pushes to goal.
struct Bound {
    best: (u64, u32),
    h: Vec<u16>,
}

/// Which placements the search may go through.
#[derive(Clone, Copy)]
pub(crate) enum Through<'a> {
    /// Those of a vicinity.
    Set(&'a KeySet),
    /// Any without a frozen box, whose lower bound can still beat the best (set by
    /// [`Search::reset_global`]).
    Bound,
}

/// How a run of the search ended.
pub(crate) enum Event {
    /// The budget is spent.
    Budget,
    /// The shortest solution through the set (or under the bound), as pushes.
    Found(Vec<Push>),
    /// No way left: the memory filled ([`Search::full`]), or every node under the bound
    /// was expanded (the global search: nothing beats the best).
    Exhausted,
}

/// Bytes a node takes with `nb` boxes: the node, its boxes and about two queue entries.
pub(crate) fn node_bytes(nb: usize) -> usize {
    std::mem::size_of::<Node>() + 2 * nb + 2 * std::mem::size_of::<(u64, u32, u32)>()
}

/// Dijkstra (or A\*) over pushes.
pub(crate) struct Search {
    nb: usize,
    metric: Metric,
    nodes: Vec<Node>,
    boxes: Vec<u16>,
    map: KeyMap,
    /// (cost plus the bound's, tie, node).
    heap: BinaryHeap<Reverse<(u64, u32, u32)>>,
    max_nodes: usize,
    goal: u64,
    bound: Option<Bound>,
    /// The first position of the solution with each placement.
    on_line: HashMap<u64, u32, Keyed>,
    /// The furthest position of the solution whose placement the search has settled.
    pub furthest: u32,
    /// The global search: its lower bound at the start and at the last node settled (the
    /// first count).
    pub bound_start: u64,
    pub bound_now: u64,
    pub expanded: u64,
    pub full: bool,
    // Scratch: the placement expanded, occupancy, the player's walk, the freeze test.
    cur: Vec<u16>,
    occ: Vec<bool>,
    seen: Vec<u32>,
    stamp: u32,
    dist: Vec<u32>,
    queue: Vec<u16>,
    walls: Vec<u16>,
}

impl Search {
    pub fn new(p: &Problem, nb: usize, metric: Metric, bytes: usize) -> Search {
        Search {
            nb,
            metric,
            nodes: Vec::new(),
            boxes: Vec::new(),
            map: KeyMap::new(bytes / 4),
            heap: BinaryHeap::new(),
            max_nodes: (bytes / 4 * 3 / node_bytes(nb)).max(1),
            goal: placement_key(p, &p.goals),
            bound: None,
            on_line: HashMap::default(),
            furthest: 0,
            bound_start: 0,
            bound_now: 0,
            expanded: 0,
            full: false,
            cur: Vec::with_capacity(nb),
            occ: vec![false; p.n],
            seen: vec![0; p.n],
            stamp: 0,
            dist: vec![0; p.n],
            queue: Vec::with_capacity(p.n),
            walls: Vec::new(),
        }
    }

    /// Memory in use, in bytes.
    pub fn bytes(&self) -> usize {
        self.map.bytes()
            + self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.boxes.capacity() * 2
            + self.heap.capacity() * std::mem::size_of::<(u64, u32, u32)>()
    }

    /// Start through a vicinity from `player` and `start` boxes, the solution's pushes
    /// marking how far along it the search has come.
    pub fn reset(&mut self, p: &Problem, player: u16, start: &[u16], pushes: &[Push]) {
        self.bound = None;
        self.clear(p, player, start);
        let mut boxes = start.to_vec();
        self.on_line.insert(placement_key(p, &boxes), 0);
        for (i, &push) in pushes.iter().enumerate() {
            play(p, &mut boxes, push);
            self.on_line.entry(placement_key(p, &boxes)).or_insert(i as u32 + 1);
        }
    }

    /// Start the global search from `player` and `start` boxes, for a solution that beats
    /// `best`.
    pub fn reset_global(&mut self, p: &Problem, player: u16, start: &[u16], best: Counts) {
        let h = match self.bound.take() {
            Some(b) => b.h,
            None => pushes_to_goal(p),
        };
        self.bound = Some(Bound { best: encode(self.metric, best), h });
        self.clear(p, player, start);
        let f = self.f(0, start);
        self.bound_start = f >> 32;
        self.bound_now = self.bound_start;
        self.heap.clear();
        self.heap.push(Reverse((f, 0, 0)));
    }

    fn clear(&mut self, p: &Problem, player: u16, start: &[u16]) {
        self.nodes.clear();
        self.boxes.clear();
        self.map.clear();
        self.heap.clear();
        self.on_line.clear();
        self.furthest = 0;
        self.full = false;
        let key = placement_key(p, start);
        self.map.entry(key ^ p.z_player[player as usize] ^ DIR_KEY[NO_PUSH as usize], 0);
        let dir = NO_PUSH;
        self.nodes.push(Node { cost: 0, parent: u32::MAX, tie: 0, player, dir });
        self.boxes.extend_from_slice(start);
        self.heap.push(Reverse((0, 0, 0)));
    }

    /// A node's cost plus the bound's pushes still needed (the cost alone through a set).
    #[inline]
    fn f(&self, cost: u64, boxes: &[u16]) -> u64 {
        match &self.bound {
            None => cost,
            Some(b) => {
                cost + BOUND_UNIT * boxes.iter().map(|&s| b.h[s as usize] as u64).sum::<u64>()
            }
        }
    }

    /// Settle up to `budget` nodes.
    pub fn run(&mut self, p: &Problem, through: Through, budget: u64) -> Event {
        for _ in 0..budget {
            let Some(Reverse((f, tie, idx))) = self.heap.pop() else {
                return Event::Exhausted;
            };
            let node = self.nodes[idx as usize];
            let boxes = &self.boxes[idx as usize * self.nb..][..self.nb];
            if (self.f(node.cost, boxes), node.tie) != (f, tie) {
                continue;
            }
            self.expanded += 1;
            let key = placement_key(p, boxes);
            if key == self.goal {
                return Event::Found(self.path(idx));
            }
            if self.bound.is_some() {
                self.bound_now = f >> 32;
            } else if let Some(&i) = self.on_line.get(&key) {
                self.furthest = self.furthest.max(i);
            }
            self.expand(p, through, idx, key, f - node.cost);
            if self.full {
                return Event::Exhausted;
            }
        }
        Event::Budget
    }

    fn path(&self, mut idx: u32) -> Vec<Push> {
        let mut out = Vec::new();
        while idx != 0 {
            let n = &self.nodes[idx as usize];
            out.push((n.player, n.dir));
            idx = n.parent;
        }
        out.reverse();
        out
    }

    /// The cost of a push after a walk of `walk` steps.
    #[inline]
    fn edge(&self, walk: u32) -> u64 {
        match self.metric {
            Metric::Moves => ((walk as u64 + 1) << 32) + 1,
            Metric::Pushes => (1 << 32) + walk as u64 + 1,
        }
    }

    /// The player's walk distances from `from` among the boxes of `occ`, in `dist` where
    /// `seen` holds the new stamp.
    fn walk(&mut self, p: &Problem, from: u16) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        self.queue.clear();
        self.queue.push(from);
        self.seen[from as usize] = stamp;
        self.dist[from as usize] = 0;
        let mut head = 0;
        while head < self.queue.len() {
            let s = self.queue[head];
            head += 1;
            let d = self.dist[s as usize] + 1;
            for &t in &p.nbr[s as usize] {
                if t != NONE && !self.occ[t as usize] && self.seen[t as usize] != stamp {
                    self.seen[t as usize] = stamp;
                    self.dist[t as usize] = d;
                    self.queue.push(t);
                }
            }
        }
    }

    /// Push every box of node `idx` (its placement's key `node_key`, the bound's part of its
    /// cost `h_node`) that can be.
    fn expand(&mut self, p: &Problem, through: Through, idx: u32, node_key: u64, h_node: u64) {
        let node = self.nodes[idx as usize];
        let nb = self.nb;
        self.cur.clear();
        self.cur.extend_from_slice(&self.boxes[idx as usize * nb..][..nb]);
        for &b in &self.cur {
            self.occ[b as usize] = true;
        }
        self.walk(p, node.player);
        let stamp = self.stamp;
        'boxes: for i in 0..nb {
            let b = self.cur[i];
            for (dir, &dir_key) in DIR_KEY[..4].iter().enumerate() {
                let stand = p.step(b, (dir + 2) & 3);
                if stand == NONE || self.seen[stand as usize] != stamp {
                    continue;
                }
                let t = p.step(b, dir);
                if t == NONE || self.occ[t as usize] || p.dead[t as usize] {
                    continue;
                }
                let key = node_key ^ p.z_box[b as usize] ^ p.z_box[t as usize];
                let cost = node.cost + self.edge(self.dist[stand as usize]);
                let tie = tie_after(p, node.tie, (node.player, node.dir), (b, dir as u8));
                let f = match (through, &self.bound) {
                    (Through::Set(set), _) => {
                        if !set.contains(key) {
                            continue;
                        }
                        cost
                    }
                    (Through::Bound, None) => unreachable!("reset_global sets the bound"),
                    (Through::Bound, Some(bound)) => {
                        let h = bound.h[t as usize] as u64;
                        if h == u16::MAX as u64 {
                            continue;
                        }
                        let f = cost + h_node - BOUND_UNIT * bound.h[b as usize] as u64
                            + BOUND_UNIT * h;
                        if (f, tie) >= bound.best {
                            continue;
                        }
                        self.occ[b as usize] = false;
                        self.occ[t as usize] = true;
                        let occ = &self.occ;
                        let frozen = freeze_deadlock(p, &mut self.walls, &|s| occ[s as usize], t);
                        self.occ[t as usize] = false;
                        self.occ[b as usize] = true;
                        if frozen {
                            continue;
                        }
                        f
                    }
                };
                if self.nodes.len() >= self.max_nodes {
                    self.full = true;
                    break 'boxes;
                }
                let next = self.nodes.len() as u32;
                match self.map.entry(key ^ p.z_player[b as usize] ^ dir_key, next) {
                    Entry::Inserted => {
                        let (player, dir) = (b, dir as u8);
                        self.nodes.push(Node { cost, parent: idx, tie, player, dir });
                        let at = self.boxes.len();
                        self.boxes.extend_from_slice(&self.cur);
                        self.boxes[at + i] = t;
                        self.heap.push(Reverse((f, tie, next)));
                    }
                    Entry::Found(j) => {
                        let n = &mut self.nodes[j as usize];
                        if (cost, tie) < (n.cost, n.tie) {
                            (n.cost, n.tie, n.parent) = (cost, tie, idx);
                            self.heap.push(Reverse((f, tie, j)));
                        }
                    }
                    Entry::Full => {
                        self.full = true;
                        break 'boxes;
                    }
                }
            }
        }
        for &b in &self.cur {
            self.occ[b as usize] = false;
        }
    }
}
