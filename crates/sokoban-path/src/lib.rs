//! Box-path search: push a box to a square with the fewest pushes, then the fewest moves; player walking.
//!
//! Two services for the browser player:
//!
//! * **Player walking** ([`walk_path`], [`walk_distances`]): shortest walks of the player, with
//!   every box acting as a wall.
//! * **Box paths** ([`BoxSearch`], [`box_path`]): where one selected box can be pushed while the
//!   other boxes stay where they are (they act as walls), and the full move list (walks and
//!   pushes) that gets it to a chosen square with the fewest pushes and, among those, the fewest
//!   moves.
//!
//! The solver uses the walks for its solutions, and [`side_groups`] (which sides of a square
//! the player can walk between around a box there) for its tables on large boards.
//! [`PullSearch`] answers the same questions for pulls (the page's pull mode).
//!
//! # The box-path algorithm
//!
//! This is the algorithm of Yang Chao. A search state is a *node* `(b, s)`: the box stands on
//! square `b` and the player on the neighbour of `b` in direction `s` (the player's *side*), so
//! there are at most four nodes per square. A push in direction `e` from node `(b, s)` is possible
//! when the player can walk from side `s` to side `opposite(e)` without crossing `b` and the square
//! beyond `b` is free; it leads to node `(b + e, opposite(e))`, because the player ends on the
//! square the box left. A breadth-first search over nodes then gives the fewest pushes.
//!
//! The player's question "can I walk from side `s` to side `t` of the box?" is answered in O(1).
//! Let `G` be the graph of free squares (floor without the *other* boxes; the selected box's own
//! start square is free in `G`). When the box stands on `b`, the player moves in `G − b`, and two
//! neighbours `u`, `v` of `b` are connected in `G − b` exactly when the edges `(b, u)` and `(b, v)`
//! lie in the same biconnected component (block) of `G`. The blocks are computed once per query
//! with an iterative Hopcroft–Tarjan depth-first search (no recursion, so 255x255 boards are fine),
//! and stored as a 2-bit group label per side of each square.
//!
//! For the move count, a backward pass marks the nodes that lie on some fewest-push path to the
//! target, and a forward dynamic programme over that layered graph adds up walking costs: a push
//! in direction `e` from `(b, s)` costs the walk from side `s` to side `opposite(e)` in `G − b`,
//! plus one. Walks between sides are usually found by exact shortcuts (2 steps round a free
//! diagonal, 4 steps round a free 3-square detour); otherwise by a breadth-first search that
//! stops at the goal side, with generation-stamped scratch arrays and a per-query cache.
//!
//! All searches run on a padded copy of the board (one ring of blocked squares around it), so
//! neighbours are plain index offsets and no bounds checks or divisions sit in the hot loops.

use std::cell::RefCell;

use sokoban_core::{Board, Cell, Dir, Move, Position, Square};

pub mod fixtures;
mod pull;
mod reach;

pub use pull::PullSearch;
pub use reach::{BoxReach, Cells, Grid, NO_BOX};

/// The distance [`walk_distances`] gives to a square the player cannot walk to.
pub const UNREACHABLE: u32 = u32::MAX;

/// "No value" for `u32` arrays (unvisited, no parent, no block).
const NONE: u32 = u32::MAX;

/// Index of the unordered pair of distinct sides `{a, b}` among the six pairs, for the walk cache.
const PAIR: [[usize; 4]; 4] = [[6, 0, 1, 2], [0, 6, 3, 4], [1, 3, 6, 5], [2, 4, 5, 6]];

/// Bit of a cell byte: the square itself is free (floor, no box that counts as a wall).
const FREE: u8 = 16;

/// The padded internal grid: the board with one extra ring of blocked squares around it.
#[derive(Clone, Copy, Debug)]
struct Geom {
    /// Columns of the board.
    width: usize,
    /// Rows of the board.
    height: usize,
    /// Columns of the padded grid (`width + 2`).
    iw: usize,
    /// Squares of the padded grid.
    len: usize,
    /// Index offsets of the four directions, in [`Dir`] index order.
    off: [isize; 4],
}

impl Geom {
    fn new(board: &Board) -> Geom {
        let iw = board.width() + 2;
        let ih = board.height() + 2;
        let d = iw as isize;
        Geom { width: board.width(), height: board.height(), iw, len: iw * ih, off: [-d, 1, d, -1] }
    }

    /// Number of board squares.
    #[inline]
    fn outer_len(&self) -> usize {
        self.width * self.height
    }

    /// The padded index of a board square.
    #[inline]
    fn inner(&self, sq: Square) -> usize {
        (sq / self.width + 1) * self.iw + sq % self.width + 1
    }

    /// The board square of a padded index (never called on the padding ring).
    #[inline]
    fn outer(&self, i: usize) -> Square {
        (i / self.iw - 1) * self.width + (i % self.iw - 1)
    }

    /// The neighbour of a padded index in direction `d` (an index 0..4).
    #[inline]
    fn step(&self, i: usize, d: usize) -> usize {
        i.wrapping_add_signed(self.off[d])
    }

    /// Cell bytes in padded layout: [`FREE`] when the square is floor without a box (the box
    /// on `keep`, if any, does not count), plus bit `d` when the neighbour in direction `d` is
    /// free. The padding ring is never free.
    fn cells(&self, board: &Board, pos: &Position, keep: Option<Square>) -> Vec<u8> {
        let n = self.len;
        let iw = self.iw;
        // First 0/1 freedom flags, then the cell bytes from them in one branch-free pass.
        let mut free = vec![0u8; n];
        let floor = board.cells();
        for r in 0..self.height {
            let row = r * self.width;
            let base = (r + 1) * iw + 1;
            let dst = &mut free[base..base + self.width];
            let src = &floor[row..row + self.width];
            let boxes = &pos.boxes[row..row + self.width];
            for ((d, &f), &b) in dst.iter_mut().zip(src).zip(boxes) {
                *d = (f == Cell::Floor && !b) as u8;
            }
        }
        if let Some(k) = keep {
            if k < self.outer_len() && board.is_floor(k) {
                free[self.inner(k)] = 1;
            }
        }
        let mut cells = vec![0u8; n];
        let inner = iw..n - iw;
        let rows = cells[inner.clone()]
            .iter_mut()
            .zip(&free[inner.clone()])
            .zip(&free[inner.start - iw..inner.end - iw])
            .zip(&free[inner.start + 1..inner.end + 1])
            .zip(&free[inner.start + iw..inner.end + iw])
            .zip(&free[inner.start - 1..inner.end - 1]);
        for (((((c, &me), &up), &right), &down), &left) in rows {
            *c = me << 4 | up | right << 1 | down << 2 | left << 3;
        }
        cells
    }
}

/// Whether a cell byte is free.
#[inline]
fn is_free(cell: u8) -> bool {
    cell & FREE != 0
}

/// Iterate the set bits (0..4) of a direction mask, lowest first.
#[inline]
fn bits(mut m: u8) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            d
        })
    })
}

/// Breadth-first search over free squares other than `blocked`, from `start`; fills `dist`
/// (which must be all [`NONE`]) and stops as soon as `stop` has been labelled (pass `usize::MAX`
/// to label everything reachable). Returns the squares labelled, in order (without `stop`).
fn bfs(
    geom: &Geom,
    cells: &[u8],
    blocked: usize,
    start: usize,
    stop: usize,
    dist: &mut [u32],
) -> Vec<u32> {
    let mut queue = Vec::with_capacity(256);
    dist[start] = 0;
    queue.push(start as u32);
    if start == stop {
        return queue;
    }
    let mut head = 0;
    while head < queue.len() {
        let v = queue[head] as usize;
        head += 1;
        let dv = dist[v] + 1;
        for d in bits(cells[v] & 15) {
            let w = geom.step(v, d);
            if w != blocked && dist[w] == NONE {
                dist[w] = dv;
                if w == stop {
                    return queue;
                }
                queue.push(w as u32);
            }
        }
    }
    queue
}

/// Like [`bfs`] without an early stop, but stops once all of `goals` (entries `usize::MAX` are
/// ignored) are labelled; they may be unreachable, then it labels everything reachable.
fn bfs_to_all(
    geom: &Geom,
    cells: &[u8],
    blocked: usize,
    start: usize,
    goals: [usize; 4],
    dist: &mut [u32],
) {
    let mut left = goals.iter().filter(|&&g| g != usize::MAX).count();
    let mut queue = Vec::with_capacity(256);
    dist[start] = 0;
    queue.push(start as u32);
    let mut head = 0;
    if goals.contains(&start) {
        left -= 1;
    }
    while head < queue.len() && left > 0 {
        let v = queue[head] as usize;
        head += 1;
        let dv = dist[v] + 1;
        for d in bits(cells[v] & 15) {
            let w = geom.step(v, d);
            if w != blocked && dist[w] == NONE {
                dist[w] = dv;
                queue.push(w as u32);
                if goals.contains(&w) {
                    left -= 1;
                }
            }
        }
    }
}

/// Distance from the player to every square, walking only (boxes are walls).
///
/// Indexed by board square; [`UNREACHABLE`] for walls, boxes and squares the player cannot get
/// to. The player's own square has distance 0.
pub fn walk_distances(board: &Board, pos: &Position) -> Vec<u32> {
    let mut out = vec![UNREACHABLE; board.len()];
    if pos.player >= board.len() || !pos.is_free(board, pos.player) {
        return out;
    }
    let geom = Geom::new(board);
    let cells = geom.cells(board, pos, None);
    let mut dist = vec![NONE; geom.len];
    let queue = bfs(&geom, &cells, usize::MAX, geom.inner(pos.player), usize::MAX, &mut dist);
    for &i in &queue {
        let i = i as usize;
        out[geom.outer(i)] = dist[i];
    }
    out
}

/// The shortest walk of the player to `target`, treating every box as a wall.
///
/// `Some(vec![])` when the player already stands there; `None` when the target is off the board,
/// not floor, holds a box, or cannot be walked to. Deterministic: among shortest walks, each step
/// takes the first direction in the order up, right, down, left that stays on a shortest walk.
pub fn walk_path(board: &Board, pos: &Position, target: Square) -> Option<Vec<Dir>> {
    if target >= board.len() || pos.player >= board.len() || !pos.is_free(board, target) {
        return None;
    }
    if pos.player == target {
        return Some(Vec::new());
    }
    if !pos.is_free(board, pos.player) {
        return None;
    }
    let geom = Geom::new(board);
    let cells = geom.cells(board, pos, None);
    let mut dist = vec![NONE; geom.len];
    let start = geom.inner(pos.player);
    // Search backwards from the target so the walk can be read off forwards from the player.
    bfs(&geom, &cells, usize::MAX, geom.inner(target), start, &mut dist);
    if dist[start] == NONE {
        return None;
    }
    let mut path = Vec::with_capacity(dist[start] as usize);
    descend(&geom, start, |i| dist[i], |d| path.push(Dir::from_index(d)));
    Some(path)
}

/// Walk from `from` down a distance field `dist` to the square at distance 0, reporting each
/// step's direction index to `emit`. At each step the first direction (up, right, down, left)
/// whose square is one closer is taken.
#[inline]
fn descend(geom: &Geom, from: usize, dist: impl Fn(usize) -> u32, mut emit: impl FnMut(usize)) {
    let mut cur = from;
    let mut k = dist(cur);
    while k > 0 {
        let d = (0..4)
            .find(|&d| dist(geom.step(cur, d)) == k - 1)
            .expect("a distance field always has a closer neighbour");
        emit(d);
        cur = geom.step(cur, d);
        k -= 1;
    }
}

/// Whether sides `a` and `b` share a group in a packed 4x2-bit group label.
#[inline]
fn same_group(groups: u8, a: usize, b: usize) -> bool {
    ((groups >> (2 * a)) ^ (groups >> (2 * b))) & 3 == 0
}

/// The biconnected components (blocks) of the components of some squares in the graph of
/// free squares, as per-square arrays (padded layout). Reusable: [`Blocks::clear`] forgets
/// the components found so far at the cost of the squares they cover, so a search that asks
/// again and again (the solver's macro moves) allocates nothing.
#[derive(Clone, Debug)]
pub(crate) struct Blocks {
    /// Depth-first discovery time, from 1; 0 outside the components found.
    disc: Vec<u32>,
    /// Low points during the search, then the block of the tree edge into each square
    /// (unused for a root).
    block: Vec<u32>,
    /// Depth-first tree parent of each square.
    parent: Vec<u32>,
    /// The squares discovered, component after component, each in preorder.
    pre: Vec<u32>,
    /// Explicit depth-first stack: a square and the directions still to try from it.
    stack: Vec<(u32, u8)>,
    time: u32,
    next_block: u32,
    /// The block-cut tree (rooted where each depth-first search started): per block, the
    /// square it hangs from and its depth; per square, its depth and its component.
    head: Vec<u32>,
    block_depth: Vec<u32>,
    depth: Vec<u32>,
    comp: Vec<u32>,
    components: u32,
    /// A square added to the graph (a box lifted off, [`Blocks::lift`]): its square
    /// (`NONE`: none), the block of the edge to each of its sides, and the blocks merged
    /// into one by it (`merged[k]` holds when `marked[k] == lift_stamp`).
    lift_sq: u32,
    lift_edge: [u32; 4],
    marked: Vec<u32>,
    merged: Vec<u32>,
    lift_stamp: u32,
}

impl Blocks {
    /// Empty scratch for a padded grid of `len` squares.
    pub(crate) fn with_len(len: usize) -> Blocks {
        Blocks {
            disc: vec![0; len],
            block: vec![0; len],
            parent: vec![NONE; len],
            pre: Vec::with_capacity(256),
            stack: Vec::with_capacity(256),
            time: 1,
            next_block: 0,
            head: vec![0],
            block_depth: vec![0],
            depth: vec![0; len],
            comp: vec![0; len],
            components: 0,
            lift_sq: NONE,
            lift_edge: [NONE; 4],
            marked: vec![0],
            merged: vec![0],
            lift_stamp: 0,
        }
    }

    /// The blocks of the component of `root` (which must be free).
    #[cfg(test)]
    fn new(geom: &Geom, cells: &[u8], root: usize) -> Blocks {
        Self::from_roots(geom, cells, std::iter::once(root))
    }

    /// [`Blocks::new`] for the components of several roots at once (free squares; a root
    /// inside a component already done is skipped).
    fn from_roots(geom: &Geom, cells: &[u8], roots: impl Iterator<Item = usize>) -> Blocks {
        let mut b = Blocks::with_len(geom.len);
        for root in roots {
            b.add(geom, cells, root);
        }
        b
    }

    /// Forget every component found (in time proportional to their squares).
    pub(crate) fn clear(&mut self) {
        for &c in &self.pre {
            self.disc[c as usize] = 0;
        }
        self.pre.clear();
        self.time = 1;
        self.next_block = 0;
        self.components = 0;
        self.lift_sq = NONE;
    }

    /// Add the blocks of the component of `root` (a free square; nothing happens when it is
    /// in a component found already).
    ///
    /// Iterative Hopcroft–Tarjan: discovery times and low points come from a depth-first
    /// search with an explicit stack (each entry holds the directions still to try, without
    /// the one back to the parent). Then, in preorder, the tree edge `(parent(c), c)` starts
    /// a new block when `low(c) >= disc(parent(c))` and otherwise shares the block of the
    /// tree edge into the parent. A back edge belongs to the block of the tree edge into its
    /// deeper end, so the block of any edge `(x, y)` is the block of the tree edge into
    /// whichever end was discovered later (see [`Blocks::groups`]).
    pub(crate) fn add(&mut self, geom: &Geom, cells: &[u8], root: usize) {
        self.add_with::<false>(geom, cells, root);
    }

    /// [`Blocks::add`], with the block-cut tree ([`Blocks::lift`] reads it) when `TREE`.
    fn add_with<const TREE: bool>(&mut self, geom: &Geom, cells: &[u8], root: usize) {
        if self.disc[root] != 0 {
            return;
        }
        let (disc, low, parent) = (&mut self.disc, &mut self.block, &mut self.parent);
        let first = self.pre.len();
        disc[root] = self.time;
        low[root] = self.time;
        self.time += 1;
        self.pre.push(root as u32);
        self.stack.clear();
        self.stack.push((root as u32, cells[root] & 15));
        while let Some(top) = self.stack.last_mut() {
            let v = top.0 as usize;
            if top.1 != 0 {
                let d = top.1.trailing_zeros() as usize;
                top.1 &= top.1 - 1;
                let w = geom.step(v, d);
                if disc[w] == 0 {
                    disc[w] = self.time;
                    low[w] = self.time;
                    self.time += 1;
                    parent[w] = v as u32;
                    self.pre.push(w as u32);
                    // Every free neighbour but the parent.
                    self.stack.push((w as u32, cells[w] & 15 & !(1 << (d ^ 2))));
                } else if disc[w] < low[v] {
                    low[v] = disc[w];
                }
            } else {
                self.stack.pop();
                if let Some(&(p, _)) = self.stack.last() {
                    let p = p as usize;
                    if low[v] < low[p] {
                        low[p] = low[v];
                    }
                }
            }
        }
        // `low` is turned into the block array in place: a vertex's own low point is read
        // just before it is overwritten, and its parent (earlier in preorder) already holds
        // its block. The root's entry is never read as a block: a tree edge out of the root
        // always starts a new block. The block-cut tree's depths follow in the same pass.
        self.components += 1;
        let (depth, comp) = (&mut self.depth, &mut self.comp);
        if TREE {
            depth[root] = 0;
            comp[root] = self.components;
        }
        for &c in &self.pre[first + 1..] {
            let c = c as usize;
            let p = parent[c] as usize;
            low[c] = if low[c] >= disc[p] {
                self.next_block += 1;
                if TREE {
                    let k = self.next_block as usize;
                    if self.head.len() <= k {
                        self.head.resize(k + 1, 0);
                        self.block_depth.resize(k + 1, 0);
                    }
                    self.head[k] = p as u32;
                    self.block_depth[k] = depth[p] + 1;
                }
                self.next_block
            } else {
                low[p]
            };
            if TREE {
                depth[c] = self.block_depth[low[c] as usize] + 1;
                comp[c] = self.components;
            }
        }
    }

    /// The blocks of every component of the free squares (after [`Blocks::clear`]).
    pub(crate) fn add_all(&mut self, geom: &Geom, cells: &[u8]) {
        for i in 0..geom.len {
            if cells[i] & FREE != 0 {
                self.add_with::<true>(geom, cells, i);
            }
        }
    }

    /// Take square `v` into the graph, with edges to its free sides in `cells` (a box
    /// lifted off; every free neighbour must be in a component found by
    /// [`Blocks::add_all`], which keeps the block-cut tree this reads): the blocks on the
    /// block-cut tree's paths between its neighbours in one component merge with those
    /// edges into one block; a lone neighbour's edge is a block (a bridge) of its own. Until
    /// the next `lift` or [`Blocks::clear`], [`Blocks::groups`] answers for that graph.
    pub(crate) fn lift(&mut self, geom: &Geom, cells: &[u8], v: usize) {
        if self.lift_stamp == u32::MAX {
            self.marked.fill(0);
            self.lift_stamp = 0;
        }
        self.lift_stamp += 1;
        let k = self.next_block as usize + 1;
        if self.marked.len() < k {
            self.marked.resize(k, 0);
            self.merged.resize(k, 0);
        }
        self.lift_sq = v as u32;
        self.lift_edge = [NONE; 4];
        let mut fresh = self.next_block;
        for s in bits(cells[v] & 15) {
            if self.lift_edge[s] != NONE {
                continue; // joined to an earlier side's component
            }
            let a = geom.step(v, s);
            debug_assert!(self.disc[a] != 0, "the neighbours of a lifted box are found");
            fresh += 1;
            self.lift_edge[s] = fresh;
            for t in bits(cells[v] & 15 & !((2u8 << s) - 1)) {
                let b = geom.step(v, t);
                if self.comp[b] == self.comp[a] {
                    self.lift_edge[t] = fresh;
                    self.merge_path(a, b, fresh);
                }
            }
        }
    }

    /// Mark the blocks on the block-cut tree's path between squares `a` and `b` (one
    /// component) as merged into block `id`.
    fn merge_path(&mut self, a: usize, b: usize, id: u32) {
        // Tree nodes: a square (its parent is the block of the tree edge into it) or a
        // block (its parent is the square it hangs from). Square depths are even, block
        // depths odd.
        let (mut x, mut y) = ((false, a), (false, b));
        while x != y {
            if self.node_depth(x) >= self.node_depth(y) {
                x = self.climb(x, id);
            } else {
                y = self.climb(y, id);
            }
        }
        if x.0 {
            self.marked[x.1] = self.lift_stamp;
            self.merged[x.1] = id;
        }
    }

    #[inline]
    fn node_depth(&self, (is_block, i): (bool, usize)) -> u32 {
        if is_block {
            self.block_depth[i]
        } else {
            self.depth[i]
        }
    }

    /// The parent of tree node `x`; a block left behind is marked as merged into `id`.
    #[inline]
    fn climb(&mut self, (is_block, i): (bool, usize), id: u32) -> (bool, usize) {
        if is_block {
            self.marked[i] = self.lift_stamp;
            self.merged[i] = id;
            (false, self.head[i] as usize)
        } else {
            (true, self.block[i] as usize)
        }
    }

    /// The side groups of square `b` (in the component): 2 bits per side, side `s` at bits
    /// `2s..2s+2`, equal for two free sides exactly when their edges to `b` share a block,
    /// i.e. when the player can walk between them without crossing `b`. A side that is not free
    /// gets a group of its own.
    #[inline]
    pub(crate) fn groups(&self, geom: &Geom, cells: &[u8], b: usize) -> u8 {
        let mut sb = [NONE; 4];
        let db = self.disc[b];
        let v = self.lift_sq as usize;
        for (s, x) in sb.iter_mut().enumerate() {
            if cells[b] & (1 << s) != 0 {
                let u = geom.step(b, s);
                *x = if v == b {
                    self.lift_edge[s]
                } else if v == u {
                    self.lift_edge[s ^ 2]
                } else {
                    let k = self.block[if db > self.disc[u] { b } else { u }];
                    if self.lift_sq != NONE && self.marked[k as usize] == self.lift_stamp {
                        self.merged[k as usize]
                    } else {
                        k
                    }
                };
            } else {
                *x = NONE - s as u32; // distinct from every block and every other side
            }
        }
        let g1 = (sb[1] != sb[0]) as u8;
        let g2 = if sb[2] == sb[0] {
            0
        } else if sb[2] == sb[1] {
            1
        } else {
            2
        };
        let g3 = if sb[3] == sb[0] {
            0
        } else if sb[3] == sb[1] {
            1
        } else if sb[3] == sb[2] {
            2
        } else {
            3
        };
        g1 << 2 | g2 << 4 | g3 << 6
    }
}

/// For every square of a board without boxes: which of its sides the player can walk
/// between when a box stands there (without crossing it). `out[sq]` packs 2 bits per side
/// (side `d`, in [`Dir`] index order, at bits `2d..2d+2`); two floor sides share a group
/// exactly when they are connected around the square. A side that is not floor gets a
/// group of its own. Squares off the floor get 0. Linear time (biconnected blocks), for
/// the solver's tables on large boards.
pub fn side_groups(board: &Board) -> Vec<u8> {
    let geom = Geom::new(board);
    let empty = Position { player: 0, boxes: vec![false; board.len()] };
    let cells = geom.cells(board, &empty, None);
    let floor = (0..board.len()).filter(|&s| board.is_floor(s));
    let blocks = Blocks::from_roots(&geom, &cells, floor.clone().map(|s| geom.inner(s)));
    let mut out = vec![0u8; board.len()];
    for s in floor {
        out[s] = blocks.groups(&geom, &cells, geom.inner(s));
    }
    out
}

/// How the player gets between two sides of a box without a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Detour {
    /// Perpendicular sides, round the free diagonal square: 2 steps.
    Corner,
    /// Opposite sides, round three free squares on side `p` of the box: 4 steps.
    Around(usize),
}

/// Scratch for walks between two sides of a box, kept across [`BoxSearch::path_to`] calls.
#[derive(Clone, Debug, Default)]
struct WalkScratch {
    /// Current generation of the stamps.
    gen: u32,
    /// Generation in which a square was last labelled.
    stamp: Vec<u32>,
    /// Distance labels, valid where `stamp == gen`.
    dist: Vec<u32>,
    /// BFS queue.
    queue: Vec<u32>,
    /// Cached walk lengths plus one between two sides of a square, at `6 * square + PAIR[a][b]`;
    /// 0 when not known yet (a walk is shorter than the number of squares, < 65025, so the
    /// value fits). Zero meaning "unknown" lets the array start as zeroed memory.
    pairs: Vec<u16>,
}

/// Per-node scratch of [`BoxSearch::path_to`], kept across calls; `cost` is all `UNMARKED`
/// between calls (only the entries of `list` are touched, and they are reset at the end).
#[derive(Clone, Debug, Default)]
struct NodeScratch {
    /// `UNMARKED` (0), `MARKED` (1: on a fewest-push path, no cost yet), or the fewest moves
    /// so far plus [`COST_BASE`]. Zero meaning "unmarked" lets the array start as zeroed memory.
    cost: Vec<u32>,
    /// Best predecessor node, valid for marked nodes with a cost.
    parent: Vec<u32>,
    /// The marked nodes, in backward-pass order.
    list: Vec<u32>,
}

const UNMARKED: u32 = 0;
const MARKED: u32 = 1;
/// Offset of move counts stored in [`NodeScratch::cost`].
const COST_BASE: u32 = 2;

#[derive(Clone, Debug, Default)]
struct Scratch {
    walk: WalkScratch,
    node: NodeScratch,
}

/// Where one box can be pushed from a position, with the other boxes fixed.
///
/// Built by [`BoxSearch::new`] (one breadth-first search over box nodes); then answers any
/// number of target queries. [`BoxSearch::path_to`] keeps its scratch arrays and a cache of
/// player walks between calls, so asking for many targets (dragging a box over the board) stays
/// cheap; because of that scratch (a `RefCell`) a `BoxSearch` is `Send` but not `Sync`.
///
/// If `box_sq` holds no box (or is off the board, or the player is not on a free floor square),
/// the search is empty: nothing is reachable, not even `box_sq`.
#[derive(Clone, Debug)]
pub struct BoxSearch {
    geom: Geom,
    /// The selected box's board square.
    box_sq: Square,
    /// False when the query was meaningless (no box on `box_sq`, player off the board).
    valid: bool,
    /// Padded index of the box.
    box_in: usize,
    /// Cell bytes of `G` (padded): [`FREE`] plus free-neighbour bits, see [`Geom::cells`].
    cells: Vec<u8>,
    /// Walking distance from the player with the box at its start square (padded); complete
    /// up to the farthest reachable side of the box.
    walk0: Vec<u32>,
    /// The search over box nodes: fewest pushes to each node, side groups of the squares
    /// the box reaches.
    reach: Option<BoxReach>,
    /// Scratch and walk cache for [`BoxSearch::path_to`].
    scratch: RefCell<Scratch>,
}

impl BoxSearch {
    /// Search where the box on `box_sq` can go from `pos`, the other boxes staying put.
    pub fn new(board: &Board, pos: &Position, box_sq: Square) -> BoxSearch {
        let geom = Geom::new(board);
        let valid = box_sq < board.len()
            && pos.boxes.len() == board.len()
            && pos.has_box(box_sq)
            && board.is_floor(box_sq)
            && pos.player < board.len()
            && pos.is_free(board, pos.player);
        if !valid {
            return BoxSearch {
                geom,
                box_sq,
                valid,
                box_in: 0,
                cells: Vec::new(),
                walk0: Vec::new(),
                reach: None,
                scratch: RefCell::default(),
            };
        }
        let grid = Grid { geom };
        let cells = Cells::with_bytes(geom.cells(board, pos, Some(box_sq)));
        let box_in = geom.inner(box_sq);
        // Player distances with the box in place. Only squares closer than the farthest
        // reachable side of the box are needed (for the first walk), so the search stops once
        // every free side has been labelled; everything labelled by then is final.
        let mut walk0 = vec![NONE; geom.len];
        let mut sides = [usize::MAX; 4];
        for (s, x) in sides.iter_mut().enumerate() {
            if cells.bytes()[box_in] & (1 << s) != 0 {
                *x = geom.step(box_in, s);
            }
        }
        bfs_to_all(&geom, cells.bytes(), box_in, geom.inner(pos.player), sides, &mut walk0);
        let mut player_sides = 0u8;
        for s in 0..4 {
            if walk0[geom.step(box_in, s)] != NONE {
                player_sides |= 1 << s;
            }
        }
        let mut reach = BoxReach::new(&grid);
        reach.search(&grid, &cells, box_in, player_sides);
        BoxSearch {
            geom,
            box_sq,
            valid,
            box_in,
            cells: cells.into_bytes(),
            walk0,
            reach: Some(reach),
            scratch: RefCell::default(),
        }
    }

    /// The square of the selected box.
    pub fn box_square(&self) -> Square {
        self.box_sq
    }

    /// Fewest pushes to a padded square, [`NONE`] if unreachable by pushing.
    #[inline]
    fn min_pushes(&self, i: usize) -> u32 {
        let Some(reach) = &self.reach else { return NONE };
        let d = &reach.dist[4 * i..4 * i + 4];
        d[0].min(d[1]).min(d[2]).min(d[3])
    }

    /// True when the box can be pushed so that it ends on `sq` (its own square included).
    pub fn can_reach(&self, sq: Square) -> bool {
        self.pushes_to(sq).is_some()
    }

    /// All squares the box can be pushed to, its own square included, in increasing order.
    pub fn reachable(&self) -> Vec<Square> {
        let mut out = Vec::new();
        if !self.valid {
            return out;
        }
        let g = &self.geom;
        for r in 0..g.height {
            for c in 0..g.width {
                let sq = r * g.width + c;
                let i = (r + 1) * g.iw + c + 1;
                if sq == self.box_sq || self.min_pushes(i) != NONE {
                    out.push(sq);
                }
            }
        }
        out
    }

    /// The fewest pushes that bring the box to `sq`: `Some(0)` for its own square, `None` when
    /// it cannot get there.
    pub fn pushes_to(&self, sq: Square) -> Option<usize> {
        if !self.valid || sq >= self.geom.outer_len() {
            return None;
        }
        if sq == self.box_sq {
            return Some(0);
        }
        let p = self.min_pushes(self.geom.inner(sq));
        (p != NONE).then_some(p as usize)
    }

    /// The exact 2- or 4-step walk between distinct sides `a` and `t` of `b`, when there is one.
    #[inline]
    fn detour(&self, b: usize, a: usize, t: usize) -> Option<Detour> {
        let g = &self.geom;
        let free = |i: usize| is_free(self.cells[i]);
        let na = g.step(b, a);
        if a ^ 2 != t {
            return free(g.step(na, t)).then_some(Detour::Corner);
        }
        let nt = g.step(b, t);
        let perp = if a & 1 == 0 { [1, 3] } else { [0, 2] };
        perp.into_iter()
            .find(|&p| free(g.step(na, p)) && free(g.step(b, p)) && free(g.step(nt, p)))
            .map(Detour::Around)
    }

    /// Breadth-first search in `G − b` from side `to` of `b` until side `from` is labelled (the
    /// sides must be connected). Leaves the distance field in `sc` and caches the walk length
    /// between `to` and every side labelled on the way.
    fn side_bfs(&self, sc: &mut WalkScratch, b: usize, from: usize, to: usize) -> u32 {
        let g = &self.geom;
        if sc.stamp.len() != g.len {
            sc.stamp = vec![0; g.len];
            sc.dist = vec![0; g.len];
            sc.pairs = vec![0; 6 * g.len];
            sc.gen = 0;
        }
        sc.gen = sc.gen.wrapping_add(1);
        if sc.gen == 0 {
            sc.stamp.fill(0);
            sc.gen = 1;
        }
        let gen = sc.gen;
        let start = g.step(b, to);
        let goal = g.step(b, from);
        sc.stamp[start] = gen;
        sc.dist[start] = 0;
        sc.queue.clear();
        sc.queue.push(start as u32);
        let mut head = 0;
        'search: while head < sc.queue.len() {
            let v = sc.queue[head] as usize;
            head += 1;
            let dv = sc.dist[v] + 1;
            for d in bits(self.cells[v] & 15) {
                let w = g.step(v, d);
                if w != b && sc.stamp[w] != gen {
                    sc.stamp[w] = gen;
                    sc.dist[w] = dv;
                    if w == goal {
                        break 'search;
                    }
                    sc.queue.push(w as u32);
                }
            }
        }
        debug_assert_eq!(sc.stamp[goal], gen, "sides must be connected");
        for (x, pair) in PAIR.iter().enumerate() {
            let q = g.step(b, x);
            if x != to && sc.stamp[q] == gen {
                sc.pairs[6 * b + pair[to]] = sc.dist[q] as u16 + 1;
            }
        }
        sc.dist[goal]
    }

    /// Length of the shortest walk in `G − b` from side `a` to side `t` of `b` (connected sides).
    fn side_walk_len(&self, sc: &mut WalkScratch, b: usize, a: usize, t: usize) -> u32 {
        if a == t {
            return 0;
        }
        match self.detour(b, a, t) {
            Some(Detour::Corner) => 2,
            Some(Detour::Around(_)) => 4,
            None => match sc.pairs.get(6 * b + PAIR[a][t]) {
                Some(&d) if d != 0 => d as u32 - 1,
                _ => self.side_bfs(sc, b, a, t),
            },
        }
    }

    /// Append the shortest walk in `G − b` from side `a` to side `t` of `b` to `out`.
    fn push_side_walk(
        &self,
        sc: &mut WalkScratch,
        b: usize,
        a: usize,
        t: usize,
        out: &mut Vec<Move>,
    ) {
        let walk = |d: usize| Move { dir: Dir::from_index(d), push: false };
        if a == t {
            return;
        }
        match self.detour(b, a, t) {
            Some(Detour::Corner) => out.extend([walk(t), walk(a ^ 2)]),
            Some(Detour::Around(p)) => out.extend([walk(p), walk(a ^ 2), walk(a ^ 2), walk(p ^ 2)]),
            None => {
                self.side_bfs(sc, b, a, t);
                let gen = sc.gen;
                let (stamp, dist) = (&sc.stamp, &sc.dist);
                descend(
                    &self.geom,
                    self.geom.step(b, a),
                    |i| if stamp[i] == gen { dist[i] } else { NONE },
                    |d| out.push(walk(d)),
                );
            }
        }
    }

    /// The moves (walks and pushes) from the position that leave the box on `target`, with the
    /// fewest pushes and, among those, the fewest moves; `Some(vec![])` when the box is already
    /// there, `None` when it cannot get there. Deterministic.
    pub fn path_to(&self, target: Square) -> Option<Vec<Move>> {
        let p = self.pushes_to(target)? as u32;
        if p == 0 {
            return Some(Vec::new());
        }
        let g = &self.geom;
        let t = g.inner(target);
        let reach = self.reach.as_ref()?;
        let (dist, groups) = (&reach.dist, &reach.groups);
        let mut scratch = self.scratch.borrow_mut();
        let Scratch { walk: ws, node: ns } = &mut *scratch;
        if ns.cost.len() != dist.len() {
            ns.cost = vec![UNMARKED; dist.len()];
            ns.parent = vec![0; dist.len()];
        }
        let (cost, parent, list) = (&mut ns.cost, &mut ns.parent, &mut ns.list);
        list.clear();

        // Backward pass: mark the nodes on some fewest-push path to the target.
        for s in 0..4 {
            if dist[4 * t + s] == p {
                cost[4 * t + s] = MARKED;
                list.push((4 * t + s) as u32);
            }
        }
        let mut head = 0;
        while head < list.len() {
            let w = list[head] as usize;
            head += 1;
            let k = dist[w];
            if k == 0 {
                continue;
            }
            // The push into `w = (b2, side)` came from the box on `b = b2 + side` with the
            // player on the same side of `b`.
            let side = w & 3;
            let b = g.step(w >> 2, side);
            let gb = groups[b];
            for s in 0..4 {
                let v = 4 * b + s;
                if dist[v] == k - 1 && cost[v] == UNMARKED && same_group(gb, s, side) {
                    cost[v] = MARKED;
                    list.push(v as u32);
                }
            }
        }

        // Forward pass over the marked nodes in increasing push order (the reverse of the
        // backward queue): fewest moves to each node.
        for &v in list.iter().rev() {
            let v = v as usize;
            let (b, s) = (v >> 2, v & 3);
            let k = dist[v];
            if k == 0 {
                cost[v] = self.walk0[g.step(b, s)] + COST_BASE;
            }
            if k == p {
                continue;
            }
            let c = cost[v];
            debug_assert!(c >= COST_BASE);
            let gb = groups[b];
            for e in 0..4 {
                let side = e ^ 2;
                if !same_group(gb, s, side) {
                    continue;
                }
                let w = 4 * g.step(b, e) + side;
                if cost[w] == UNMARKED || dist[w] != k + 1 {
                    continue;
                }
                let cand = c + self.side_walk_len(ws, b, s, side) + 1;
                if cost[w] == MARKED || cand < cost[w] {
                    cost[w] = cand;
                    parent[w] = v as u32;
                }
            }
        }

        // The best target node, then the chain of nodes back to the start.
        let best = (0..4)
            .map(|s| 4 * t + s)
            .filter(|&v| dist[v] == p)
            .min_by_key(|&v| cost[v])
            .expect("target reached");
        let total = (cost[best] - COST_BASE) as usize;
        let mut chain = Vec::with_capacity(p as usize + 1);
        let mut v = best;
        chain.push(v);
        while dist[v] > 0 {
            v = parent[v] as usize;
            chain.push(v);
        }
        chain.reverse();
        for &v in list.iter() {
            cost[v as usize] = UNMARKED;
        }

        // Moves: the walk to the first push side, then walk + push for every push.
        let mut moves = Vec::with_capacity(total);
        let first_side = g.step(self.box_in, chain[0] & 3);
        let walk0 = &self.walk0;
        descend(
            g,
            first_side,
            |i| walk0[i],
            |d| moves.push(Move { dir: Dir::from_index(d ^ 2), push: false }),
        );
        moves.reverse();
        for pair in chain.windows(2) {
            let (b, s) = (pair[0] >> 2, pair[0] & 3);
            let side = pair[1] & 3;
            self.push_side_walk(ws, b, s, side, &mut moves);
            moves.push(Move { dir: Dir::from_index(side ^ 2), push: true });
        }
        debug_assert_eq!(moves.len(), total);
        Some(moves)
    }
}

/// The moves that push the box on `box_sq` to `target` with the fewest pushes, then the fewest
/// moves, the other boxes staying put. Shorthand for [`BoxSearch::new`] + [`BoxSearch::path_to`].
pub fn box_path(
    board: &Board,
    pos: &Position,
    box_sq: Square,
    target: Square,
) -> Option<Vec<Move>> {
    BoxSearch::new(board, pos, box_sq).path_to(target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sokoban_core::{Grid, Level, Tile};

    fn level(text: &str) -> Level {
        let rows: Vec<Vec<Tile>> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.chars().map(|c| Tile::from_xsb(c).expect("xsb")).collect())
            .collect();
        let n = rows.len();
        Grid { rows, title: None, lines: vec![None; n] }.validate().expect("valid level")
    }

    /// Connectivity of two sides of `b` in `G − b`, by plain flood fill.
    fn connected_bfs(geom: &Geom, cells: &[u8], b: usize, a: usize, t: usize) -> bool {
        let mut dist = vec![NONE; geom.len];
        let goal = geom.step(b, t);
        bfs(geom, cells, b, geom.step(b, a), goal, &mut dist);
        dist[goal] != NONE
    }

    /// Side groups of every square in the box's component against flood fills.
    fn check_groups(lv: &Level, box_sq: Square) {
        let geom = Geom::new(&lv.board);
        let cells = geom.cells(&lv.board, &lv.start, Some(box_sq));
        let blocks = Blocks::new(&geom, &cells, geom.inner(box_sq));
        check_groups_of(lv, box_sq, &blocks);
    }

    /// The same, from the blocks of the position with every box (`Blocks::add_all`) and
    /// the box then lifted (`Blocks::lift`).
    fn check_lifted_groups(lv: &Level) {
        let geom = Geom::new(&lv.board);
        let all = geom.cells(&lv.board, &lv.start, None);
        let mut blocks = Blocks::with_len(geom.len);
        blocks.add_all(&geom, &all);
        for box_sq in lv.start.box_squares() {
            let cells = geom.cells(&lv.board, &lv.start, Some(box_sq));
            blocks.lift(&geom, &cells, geom.inner(box_sq));
            check_groups_of(lv, box_sq, &blocks);
        }
    }

    fn check_groups_of(lv: &Level, box_sq: Square, blocks: &Blocks) {
        let geom = Geom::new(&lv.board);
        let cells = geom.cells(&lv.board, &lv.start, Some(box_sq));
        let root = geom.inner(box_sq);
        let mut comp = vec![NONE; geom.len];
        bfs(&geom, &cells, usize::MAX, root, usize::MAX, &mut comp);
        for b in 0..geom.len {
            if comp[b] == NONE {
                continue;
            }
            let groups = blocks.groups(&geom, &cells, b);
            for a in 0..4 {
                for t in 0..4 {
                    let free = |s: usize| is_free(cells[geom.step(b, s)]);
                    if a == t || !free(a) || !free(t) {
                        assert!(a == t || !same_group(groups, a, t), "walled side grouped");
                        continue;
                    }
                    assert_eq!(
                        same_group(groups, a, t),
                        connected_bfs(&geom, &cells, b, a, t),
                        "square {} sides {a} {t}",
                        geom.outer(b)
                    );
                }
            }
        }
    }

    #[test]
    fn cell_masks_match_the_board() {
        let lv = fixtures::warehouse(30, 20, 5);
        let geom = Geom::new(&lv.board);
        let b = lv.start.box_squares()[0];
        let cells = geom.cells(&lv.board, &lv.start, Some(b));
        for sq in 0..lv.board.len() {
            let free = |s: Square| lv.start.is_free(&lv.board, s) || s == b;
            let c = cells[geom.inner(sq)];
            assert_eq!(is_free(c), free(sq));
            for d in Dir::ALL {
                let n = lv.board.neighbor(sq, d).is_some_and(free);
                assert_eq!(c & (1 << d.index()) != 0, n, "square {sq} dir {d:?}");
            }
        }
    }

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> usize {
            (self.next() % n) as usize
        }
    }

    #[test]
    fn groups_match_flood_fill_on_random_boards() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let mut done = 0;
        while done < 300 {
            let w = 5 + rng.below(6);
            let h = 5 + rng.below(6);
            let mut text = String::new();
            let mut floor = Vec::new();
            for r in 0..h {
                for c in 0..w {
                    let border = r == 0 || c == 0 || r == h - 1 || c == w - 1;
                    if border || rng.below(100) < 25 {
                        text.push('#');
                    } else {
                        text.push(' ');
                        floor.push(r * (w + 1) + c);
                    }
                }
                text.push('\n');
            }
            if floor.len() < 2 {
                continue;
            }
            let mut bytes = text.into_bytes();
            let p = floor[rng.below(floor.len() as u64)];
            let mut b = floor[rng.below(floor.len() as u64)];
            while b == p {
                b = floor[rng.below(floor.len() as u64)];
            }
            bytes[p] = b'@';
            bytes[b] = b'*';
            let Ok(lv) = Grid {
                rows: String::from_utf8(bytes)
                    .unwrap()
                    .lines()
                    .map(|l| l.chars().map(|c| Tile::from_xsb(c).unwrap()).collect())
                    .collect(),
                title: None,
                lines: vec![None; h],
            }
            .validate() else {
                continue;
            };
            let box_sq = lv.start.box_squares()[0];
            check_groups(&lv, box_sq);
            done += 1;
        }
    }

    /// `side_groups` on random bare boards, floor in several pieces, against flood fills.
    #[test]
    fn side_groups_match_flood_fill_on_bare_boards() {
        let mut rng = Rng(0x5eed_0f5a_de60_0c25);
        for _ in 0..300 {
            let (w, h) = (3 + rng.below(9), 3 + rng.below(9));
            let cells: Vec<Cell> = (0..w * h)
                .map(|i| {
                    let (r, c) = (i / w, i % w);
                    let border = r == 0 || c == 0 || r == h - 1 || c == w - 1;
                    if border || rng.below(100) < 35 {
                        Cell::Wall
                    } else {
                        Cell::Floor
                    }
                })
                .collect();
            let board = Board::new(w, h, cells, vec![false; w * h]);
            let groups = side_groups(&board);
            for b in (0..w * h).filter(|&b| board.is_floor(b)) {
                // Flood the floor without `b` from each floor side.
                let mut seen = vec![usize::MAX; w * h];
                for d in Dir::ALL {
                    let Some(s) = board.floor_neighbor(b, d) else { continue };
                    if seen[s] != usize::MAX {
                        continue;
                    }
                    let mut stack = vec![s];
                    seen[s] = d.index();
                    while let Some(x) = stack.pop() {
                        for e in Dir::ALL {
                            if let Some(y) = board.floor_neighbor(x, e) {
                                if y != b && seen[y] == usize::MAX {
                                    seen[y] = d.index();
                                    stack.push(y);
                                }
                            }
                        }
                    }
                }
                for a in Dir::ALL {
                    for t in Dir::ALL {
                        let (Some(x), Some(y)) =
                            (board.floor_neighbor(b, a), board.floor_neighbor(b, t))
                        else {
                            continue;
                        };
                        assert_eq!(
                            same_group(groups[b], a.index(), t.index()),
                            seen[x] == seen[y],
                            "square {b}, sides {a:?} {t:?}"
                        );
                    }
                }
            }
        }
    }

    /// A box lifted off joins the blocks around it (several components, cycles through
    /// its square, bridges): the same groups as blocks found afresh.
    #[test]
    fn lifted_box_groups_match_flood_fill() {
        for seed in 1..=8 {
            check_lifted_groups(&fixtures::warehouse(30, 20, seed));
            check_lifted_groups(&fixtures::warehouse(12, 9, seed));
        }
        let lv = level(
            "
#########
#  * *  #
# #*#*# #
# *@* $.#
#########
",
        );
        check_lifted_groups(&lv);
    }

    #[test]
    fn groups_on_fixture() {
        let lv = fixtures::warehouse(30, 20, 7);
        for b in lv.start.box_squares() {
            check_groups(&lv, b);
        }
    }

    #[test]
    fn geometry_round_trips() {
        let lv = level("#####\n#@$.#\n#####\n");
        let g = Geom::new(&lv.board);
        for sq in 0..lv.board.len() {
            assert_eq!(g.outer(g.inner(sq)), sq);
            for d in Dir::ALL {
                if let Some(n) = lv.board.neighbor(sq, d) {
                    assert_eq!(g.step(g.inner(sq), d.index()), g.inner(n));
                }
            }
        }
    }
}
