//! Vicinity search: the box placements near a solution, and the shortest way through them.
//!
//! From every position of the solution (the start and the position after each push), the
//! placements where one box stands on any of its K₁ nearest squares, two boxes on any of
//! their K₂ nearest, three on any of their K₃ nearest (floor distance on the bare board,
//! dead squares left out, frozen placements left out) form a set ([`Vicinity`]). A
//! Dijkstra search over single pushes between placements of that set ([`Search`]), from
//! the start to the solved placement, finds the solution through the set that is shortest
//! in the metric: nodes are (boxes, player square after the push), an edge is a push whose
//! cost is the player's shortest walk to it plus the push. The solution itself is in the
//! set, so the search never finds a longer one. Rounds start with one box moved at a time
//! (small sets, quick gains on large levels); a round without gain adds the next number of
//! boxes, and once all are in, doubles every K.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use sokoban_solver::analysis::deadlock::freeze_deadlock;
use sokoban_solver::analysis::problem::{Keyed, Problem, NONE};

use crate::table::{Entry, KeyMap, KeySet};
use crate::Metric;

/// A push: the compact square the box leaves and the direction (`Dir` index).
pub(crate) type Push = (u16, u8);

/// The Zobrist key of a box placement.
pub(crate) fn placement_key(p: &Problem, boxes: &[u16]) -> u64 {
    boxes.iter().fold(0, |h, &b| h ^ p.z_box[b as usize])
}

/// Play a push on a box list (the box on `from` moves one square in `dir`).
pub(crate) fn play(p: &Problem, boxes: &mut [u16], (from, dir): Push) {
    let b = boxes.iter_mut().find(|b| **b == from).expect("a box to push");
    *b = p.step(from, dir as usize);
}

/// The set of placements near a solution, built a position at a time.
pub(crate) struct Vicinity {
    /// Squares near each square, nearest first (as many as the largest K).
    near: Vec<Vec<u16>>,
    /// K for one, two, three ... boxes moved.
    sizes: Vec<usize>,
    /// How many of `sizes` are in use: rounds start with one box moved at a time and
    /// add the next number of boxes after a round without gain.
    active: usize,
    pub set: KeySet,
    /// The set reached its memory before every placement was in.
    pub full: bool,
    /// Placements tried (in the set or not).
    pub tried: u64,
    // The cursor: boxes moved at once now (1-based), next position of the solution, its
    // boxes and key; the solution's pushes and start.
    moved: usize,
    index: usize,
    boxes: Vec<u16>,
    key: u64,
    pushes: Vec<Push>,
    start: Vec<u16>,
    // Scratch.
    occ: Vec<bool>,
    walls: Vec<u16>,
    chosen: Vec<u16>,
}

impl Vicinity {
    pub fn new(p: &Problem, sizes: &[usize], bytes: usize) -> Vicinity {
        let kmax = sizes.iter().copied().max().unwrap_or(0);
        Vicinity {
            near: nearest(p, kmax),
            sizes: sizes.to_vec(),
            active: 1.min(sizes.len()),
            set: KeySet::new(bytes),
            full: false,
            tried: 0,
            moved: 1,
            index: 0,
            boxes: Vec::new(),
            key: 0,
            pushes: Vec::new(),
            start: Vec::new(),
            occ: vec![false; p.n],
            walls: Vec::new(),
            chosen: Vec::new(),
        }
    }

    /// Move one more box at a time, or once every number in the sizes is in use, double
    /// every K (up to every square a box may stand on); false when nothing grows.
    pub fn widen(&mut self, p: &Problem) -> bool {
        if self.active < self.sizes.len() {
            self.active += 1;
            return true;
        }
        let most = p.dead.iter().filter(|&&d| !d).count().saturating_sub(1);
        if self.sizes.iter().all(|&k| k >= most) {
            return false;
        }
        for k in &mut self.sizes {
            *k = (*k * 2).min(most);
        }
        self.near = nearest(p, most.min(self.sizes.iter().copied().max().unwrap_or(0)));
        true
    }

    /// The K of each number of boxes moved, as far as in use.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes[..self.active]
    }

    /// Start over around a solution (`start` boxes, then `pushes`): the set holds the
    /// solution's own placements.
    pub fn reset(&mut self, p: &Problem, start: &[u16], pushes: &[Push]) {
        self.set.clear();
        self.full = false;
        self.start = start.to_vec();
        self.pushes = pushes.to_vec();
        let mut boxes = start.to_vec();
        self.set.insert(placement_key(p, &boxes));
        for &push in pushes {
            play(p, &mut boxes, push);
            self.set.insert(placement_key(p, &boxes));
        }
        self.moved = 1;
        self.rewind(p);
    }

    fn rewind(&mut self, p: &Problem) {
        self.index = 0;
        self.boxes.clone_from(&self.start);
        self.key = placement_key(p, &self.boxes);
    }

    /// Boxes moved at once in the placements being added now, and the share of the
    /// solution's positions done at that number.
    pub fn stage(&self) -> (usize, f64) {
        (self.moved, self.index as f64 / (self.pushes.len() + 1) as f64)
    }

    /// Add the placements of solution positions until `budget` placements have been tried;
    /// true when every position has had every number of boxes moved (or the set is full).
    pub fn build(&mut self, p: &Problem, budget: u64) -> bool {
        let end = self.tried + budget;
        while self.tried < end {
            if self.full || self.moved > self.active {
                return true;
            }
            let k = self.sizes[self.moved - 1];
            for &b in &self.boxes {
                self.occ[b as usize] = true;
            }
            self.chosen.clear();
            self.pick(p, self.moved, k, 0, self.key);
            for &b in &self.boxes {
                self.occ[b as usize] = false;
            }
            if self.index == self.pushes.len() {
                self.moved += 1;
                self.rewind(p);
            } else {
                let push = self.pushes[self.index];
                self.key ^=
                    p.z_box[push.0 as usize] ^ p.z_box[p.step(push.0, push.1 as usize) as usize];
                play(p, &mut self.boxes, push);
                self.index += 1;
            }
        }
        self.full || self.moved > self.active
    }

    /// Move `left` more boxes (from the box numbered `first` on) to any of their `k`
    /// nearest free squares; add each placement that is not frozen.
    fn pick(&mut self, p: &Problem, left: usize, k: usize, first: usize, key: u64) {
        if left == 0 {
            self.leaf(p, key);
            return;
        }
        for i in first..self.boxes.len() {
            let b = self.boxes[i] as usize;
            self.occ[b] = false;
            for j in 0..k.min(self.near[b].len()) {
                let t = self.near[b][j];
                if self.occ[t as usize] {
                    continue;
                }
                self.occ[t as usize] = true;
                self.chosen.push(t);
                self.pick(p, left - 1, k, i + 1, key ^ p.z_box[b] ^ p.z_box[t as usize]);
                self.chosen.pop();
                self.occ[t as usize] = false;
                if self.full {
                    break;
                }
            }
            self.occ[b] = true;
        }
    }

    fn leaf(&mut self, p: &Problem, key: u64) {
        self.tried += 1;
        if self.set.contains(key) {
            return;
        }
        let occ = &self.occ;
        let has_box = |s: u16| occ[s as usize];
        for &t in &self.chosen {
            if freeze_deadlock(p, &mut self.walls, &has_box, t) {
                return;
            }
        }
        if !self.set.insert(key) {
            self.full = true;
        }
    }
}

/// For each square, up to `k` other squares nearest to it by floor distance on the bare
/// board (dead squares left out), nearest first.
fn nearest(p: &Problem, k: usize) -> Vec<Vec<u16>> {
    let mut seen = vec![u32::MAX; p.n];
    let mut queue = Vec::with_capacity(p.n);
    (0..p.n as u16)
        .map(|s| {
            let mut out = Vec::with_capacity(k);
            if k == 0 || p.dead[s as usize] {
                return out;
            }
            queue.clear();
            queue.push(s);
            seen[s as usize] = s as u32;
            let mut head = 0;
            while head < queue.len() && out.len() < k {
                let a = queue[head];
                head += 1;
                if a != s && !p.dead[a as usize] {
                    out.push(a);
                }
                for &t in &p.nbr[a as usize] {
                    if t != NONE && seen[t as usize] != s as u32 {
                        seen[t as usize] = s as u32;
                        queue.push(t);
                    }
                }
            }
            out
        })
        .collect()
}

/// A search node: a placement (boxes in [`Search::boxes`] at `index * nb`) and the
/// player's square, the best cost so far and the push that reached it (from the player's
/// square, in `dir`).
#[derive(Clone, Copy)]
struct Node {
    cost: u64,
    key: u64,
    parent: u32,
    player: u16,
    dir: u8,
}

/// How a run of the search ended.
pub(crate) enum Event {
    /// The budget is spent.
    Budget,
    /// The shortest solution through the set, as pushes.
    Found(Vec<Push>),
    /// The search filled its memory (or found no way, which a replayed input rules out).
    Exhausted,
}

/// Bytes a node takes with `nb` boxes: the node, its boxes and about two queue entries.
pub(crate) fn node_bytes(nb: usize) -> usize {
    std::mem::size_of::<Node>() + 2 * nb + 32
}

/// Dijkstra over pushes between placements of a [`Vicinity`].
pub(crate) struct Search {
    nb: usize,
    metric: Metric,
    nodes: Vec<Node>,
    boxes: Vec<u16>,
    map: KeyMap,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
    max_nodes: usize,
    goal: u64,
    /// The first position of the solution with each placement.
    on_line: HashMap<u64, u32, Keyed>,
    /// The furthest position of the solution whose placement the search has settled.
    pub furthest: u32,
    pub expanded: u64,
    pub full: bool,
    // Scratch: the placement expanded, occupancy, the player's walk.
    cur: Vec<u16>,
    occ: Vec<bool>,
    seen: Vec<u32>,
    stamp: u32,
    dist: Vec<u32>,
    queue: Vec<u16>,
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
            on_line: HashMap::default(),
            furthest: 0,
            expanded: 0,
            full: false,
            cur: Vec::with_capacity(nb),
            occ: vec![false; p.n],
            seen: vec![0; p.n],
            stamp: 0,
            dist: vec![0; p.n],
            queue: Vec::with_capacity(p.n),
        }
    }

    /// Memory in use, in bytes.
    pub fn bytes(&self) -> usize {
        self.map.bytes()
            + self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.boxes.capacity() * 2
            + self.heap.capacity() * 16
    }

    /// Start from `player` and `start` boxes, the solution's pushes marking how far along
    /// it the search has come.
    pub fn reset(&mut self, p: &Problem, player: u16, start: &[u16], pushes: &[Push]) {
        self.nodes.clear();
        self.boxes.clear();
        self.map.clear();
        self.heap.clear();
        self.on_line.clear();
        self.furthest = 0;
        self.full = false;
        let mut boxes = start.to_vec();
        self.on_line.insert(placement_key(p, &boxes), 0);
        for (i, &push) in pushes.iter().enumerate() {
            play(p, &mut boxes, push);
            self.on_line.entry(placement_key(p, &boxes)).or_insert(i as u32 + 1);
        }
        let key = placement_key(p, start);
        self.map.entry(key ^ p.z_player[player as usize], 0);
        self.nodes.push(Node { cost: 0, key, parent: u32::MAX, player, dir: 0 });
        self.boxes.extend_from_slice(start);
        self.heap.push(Reverse((0, 0)));
    }

    /// Settle up to `budget` nodes.
    pub fn run(&mut self, p: &Problem, set: &KeySet, budget: u64) -> Event {
        for _ in 0..budget {
            let Some(Reverse((cost, idx))) = self.heap.pop() else {
                return Event::Exhausted;
            };
            let node = self.nodes[idx as usize];
            if node.cost != cost {
                continue;
            }
            self.expanded += 1;
            if node.key == self.goal {
                return Event::Found(self.path(idx));
            }
            if let Some(&i) = self.on_line.get(&node.key) {
                self.furthest = self.furthest.max(i);
            }
            self.expand(p, set, idx);
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

    fn expand(&mut self, p: &Problem, set: &KeySet, idx: u32) {
        let node = self.nodes[idx as usize];
        let nb = self.nb;
        self.cur.clear();
        self.cur.extend_from_slice(&self.boxes[idx as usize * nb..][..nb]);
        for &b in &self.cur {
            self.occ[b as usize] = true;
        }
        // The player's walk distances.
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        self.queue.clear();
        self.queue.push(node.player);
        self.seen[node.player as usize] = stamp;
        self.dist[node.player as usize] = 0;
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
        'boxes: for i in 0..nb {
            let b = self.cur[i];
            for dir in 0..4 {
                let stand = p.step(b, (dir + 2) & 3);
                if stand == NONE || self.seen[stand as usize] != stamp {
                    continue;
                }
                let t = p.step(b, dir);
                if t == NONE || self.occ[t as usize] || p.dead[t as usize] {
                    continue;
                }
                let key = node.key ^ p.z_box[b as usize] ^ p.z_box[t as usize];
                if !set.contains(key) {
                    continue;
                }
                let cost = node.cost + self.edge(self.dist[stand as usize]);
                if self.nodes.len() >= self.max_nodes {
                    self.full = true;
                    break 'boxes;
                }
                let next = self.nodes.len() as u32;
                match self.map.entry(key ^ p.z_player[b as usize], next) {
                    Entry::Inserted => {
                        self.nodes.push(Node { cost, key, parent: idx, player: b, dir: dir as u8 });
                        let at = self.boxes.len();
                        self.boxes.extend_from_slice(&self.cur);
                        self.boxes[at + i] = t;
                        self.heap.push(Reverse((cost, next)));
                    }
                    Entry::Found(j) => {
                        // The same boxes and player square can come from another
                        // placement by a push in another direction.
                        let n = &mut self.nodes[j as usize];
                        if cost < n.cost {
                            n.cost = cost;
                            n.parent = idx;
                            n.dir = dir as u8;
                            self.heap.push(Reverse((cost, j)));
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
