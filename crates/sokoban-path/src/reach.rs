//! Where one box can be pushed, as a reusable search: the engine behind [`crate::BoxSearch`]
//! (the page's box drags) and the solver's macro moves (one box pushed to any square it can
//! reach while the others stay put).
//!
//! A [`Grid`] is a board laid out once for the searches (padded, see the crate doc); a
//! [`Cells`] holds which of its squares are free and is updated as boxes come and go; a
//! [`BoxReach`] keeps its scratch between searches, so a solver that asks for every box of
//! every position it expands allocates nothing: each search costs the squares it touches.

use sokoban_core::{Board, Position, Square};

use crate::{bits, same_group, Blocks, Geom, FREE, NONE};

/// Bit of a cell byte: a box may never stand on the square (the solver's dead squares); the
/// box search does not push a box there. The player may still walk over it.
pub const NO_BOX: u8 = 32;

/// A board laid out for the searches: the padded grid (one ring of blocked squares around
/// the board), its index arithmetic, and the empty board's cells.
#[derive(Clone, Debug)]
pub struct Grid {
    pub(crate) geom: Geom,
}

impl Grid {
    /// The layout of a board.
    pub fn new(board: &Board) -> Grid {
        Grid { geom: Geom::new(board) }
    }

    /// Number of padded squares (indices are `0..len()`).
    pub fn len(&self) -> usize {
        self.geom.len
    }

    /// True for a grid without squares (never: the padding ring is always there).
    pub fn is_empty(&self) -> bool {
        self.geom.len == 0
    }

    /// The padded index of a board square.
    #[inline]
    pub fn index(&self, sq: Square) -> usize {
        self.geom.inner(sq)
    }

    /// The board square of a padded index inside the ring.
    #[inline]
    pub fn square(&self, i: usize) -> Square {
        self.geom.outer(i)
    }

    /// The neighbour of a padded index in direction `d` ([`sokoban_core::Dir`] index order).
    #[inline]
    pub fn step(&self, i: usize, d: usize) -> usize {
        self.geom.step(i, d)
    }
}

/// Which squares of a [`Grid`] are free (floor without a box), one byte per padded square:
/// the free bit, one bit per direction whose neighbour is free, and [`NO_BOX`].
#[derive(Clone, Debug)]
pub struct Cells {
    bytes: Vec<u8>,
}

impl Cells {
    /// The cells of a position (every box blocks its square), or of the empty board.
    pub fn new(grid: &Grid, board: &Board, pos: Option<&Position>) -> Cells {
        let empty;
        let pos = match pos {
            Some(p) => p,
            None => {
                empty = Position { player: 0, boxes: vec![false; board.len()] };
                &empty
            }
        };
        Cells { bytes: grid.geom.cells(board, pos, None) }
    }

    /// A box arrives on free square `i`.
    #[inline]
    pub fn block(&mut self, grid: &Grid, i: usize) {
        self.bytes[i] &= !FREE;
        for d in 0..4 {
            let j = grid.step(i, d);
            self.bytes[j] &= !(1 << (d ^ 2));
        }
    }

    /// The box on floor square `i` leaves.
    #[inline]
    pub fn unblock(&mut self, grid: &Grid, i: usize) {
        self.bytes[i] |= FREE;
        for d in 0..4 {
            let j = grid.step(i, d);
            self.bytes[j] |= 1 << (d ^ 2);
        }
    }

    /// Mark square `i` as one no box may stand on.
    pub fn forbid_box(&mut self, i: usize) {
        self.bytes[i] |= NO_BOX;
    }

    /// True when square `i` is free.
    #[inline]
    pub fn is_free(&self, i: usize) -> bool {
        self.bytes[i] & FREE != 0
    }

    /// The mask of directions whose neighbour of `i` is free.
    #[inline]
    pub fn free_sides(&self, i: usize) -> u8 {
        self.bytes[i] & 15
    }

    /// True when a box may stand on square `i` (free and not [`NO_BOX`]).
    #[inline]
    pub fn box_may_enter(&self, i: usize) -> bool {
        self.bytes[i] & (FREE | NO_BOX) == FREE
    }

    pub(crate) fn with_bytes(bytes: Vec<u8>) -> Cells {
        Cells { bytes }
    }

    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// Yang Chao's search over box nodes `(square, player side)` for one box, the other boxes
/// fixed, by pushes (see the crate doc), with scratch kept between searches.
///
/// After [`BoxReach::search`]: [`BoxReach::pushes`] gives the fewest pushes to any node,
/// [`BoxReach::ends`] lists the distinct places the box can be left — one node per square
/// and side group, the nearest — and [`BoxReach::path`] a fewest-push path to a node.
#[derive(Clone, Debug)]
pub struct BoxReach {
    blocks: Blocks,
    /// Side groups of the squares expanded by the last search.
    pub(crate) groups: Vec<u8>,
    /// Per square, a bit per side group already expanded.
    expanded: Vec<u8>,
    expanded_list: Vec<u32>,
    /// Fewest pushes to each node `4 * square + side`; [`NONE`] if unreached.
    pub(crate) dist: Vec<u32>,
    /// Nodes reached, in order of pushes.
    queue: Vec<u32>,
    /// Nodes expanded with at least one push: the distinct end places.
    ends: Vec<u32>,
    /// The last search was over pulls.
    pulls: bool,
}

impl BoxReach {
    /// Scratch for searches on `grid`.
    pub fn new(grid: &Grid) -> BoxReach {
        let n = grid.len();
        BoxReach {
            blocks: Blocks::with_len(n),
            groups: vec![0; n],
            expanded: vec![0; n],
            expanded_list: Vec::with_capacity(64),
            dist: vec![NONE; 4 * n],
            queue: Vec::with_capacity(256),
            ends: Vec::with_capacity(64),
            pulls: false,
        }
    }

    /// Where the box on `box_in` can be pushed. `cells` must show `box_in` free (the box is
    /// lifted off for the search) and every other box blocked; `sides` has bit `s` set when
    /// the player can now walk to the neighbour of `box_in` in direction `s`.
    pub fn search(&mut self, grid: &Grid, cells: &Cells, box_in: usize, sides: u8) {
        self.run(grid, cells, box_in, sides, false, false);
    }

    /// Take the position in `cells` (every box blocked) as the one whose boxes
    /// [`BoxReach::search_lifted`] searches: the blocks of the free squares are found once
    /// for all its boxes, instead of once per box.
    pub fn prepare_position(&mut self, grid: &Grid, cells: &Cells) {
        self.blocks.clear();
        self.blocks.add_all(&grid.geom, cells.bytes());
    }

    /// The areas of free floor (connected components of the free squares) of the position
    /// last given to [`BoxReach::prepare_position`]: its blocks found them already.
    pub fn areas(&self) -> u32 {
        self.blocks.components
    }

    /// [`BoxReach::search`] for a box of the position given to
    /// [`BoxReach::prepare_position`], the same arguments (`cells` with this box lifted
    /// off, the others as they were): the blocks come from the position's, with the box's
    /// square taken in.
    pub fn search_lifted(&mut self, grid: &Grid, cells: &Cells, box_in: usize, sides: u8) {
        self.run(grid, cells, box_in, sides, false, true);
    }

    /// Where the box on `box_in` can be *pulled* (the reverse game: the player steps away
    /// from the box, which follows), with the same arguments as [`BoxReach::search`]. A
    /// node's side is again where the player stands: after a pull in direction `e` the
    /// player is on side `e` of the box. For the solver's packing plan (boxes taken out of
    /// the goals) and reverse play.
    pub fn search_pulls(&mut self, grid: &Grid, cells: &Cells, box_in: usize, sides: u8) {
        self.run(grid, cells, box_in, sides, true, false);
    }

    /// [`BoxReach::search_pulls`] for a box of the position given to
    /// [`BoxReach::prepare_position`], as [`BoxReach::search_lifted`] is for pushes (the
    /// blocks of the free squares do not depend on which way the box goes).
    pub fn search_pulls_lifted(&mut self, grid: &Grid, cells: &Cells, box_in: usize, sides: u8) {
        self.run(grid, cells, box_in, sides, true, true);
    }

    fn run(
        &mut self,
        grid: &Grid,
        cells: &Cells,
        box_in: usize,
        sides: u8,
        pull: bool,
        lifted: bool,
    ) {
        self.pulls = pull;
        for &v in &self.queue {
            self.dist[v as usize] = NONE;
        }
        for &b in &self.expanded_list {
            self.expanded[b as usize] = 0;
        }
        self.queue.clear();
        self.ends.clear();
        self.expanded_list.clear();
        let geom = &grid.geom;
        let cells = cells.bytes();
        debug_assert!(cells[box_in] & FREE != 0, "the searched box must be lifted off");
        if lifted {
            self.blocks.lift(geom, cells, box_in);
        } else {
            self.blocks.clear();
            self.blocks.add(geom, cells, box_in);
        }
        for s in bits(sides & cells[box_in] & 15) {
            self.dist[4 * box_in + s] = 0;
            self.queue.push((4 * box_in + s) as u32);
        }
        // Breadth-first search over nodes, by pushes. Side groups are computed for a square
        // when the box first gets there. Two nodes of one square whose sides share a group
        // have the same successors, so only the first of them (the nearest) is expanded.
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head] as usize;
            head += 1;
            let (b, s) = (v >> 2, v & 3);
            if self.expanded[b] == 0 {
                self.groups[b] = self.blocks.groups(geom, cells, b);
                self.expanded_list.push(b as u32);
            }
            let g = self.groups[b];
            let group_bit = 1 << ((g >> (2 * s)) & 3);
            if self.expanded[b] & group_bit != 0 {
                continue;
            }
            self.expanded[b] |= group_bit;
            let k = self.dist[v] + 1;
            if k > 1 {
                self.ends.push(v as u32);
            }
            let m = cells[b] & 15;
            if pull {
                // The player on side `e` steps on to the square beyond it, which must be
                // free; the box follows onto side `e`.
                for e in bits(m) {
                    if e != s && !same_group(g, s, e) {
                        continue;
                    }
                    let to = geom.step(b, e);
                    if cells[to] & (1 << e) == 0 || cells[to] & NO_BOX != 0 {
                        continue;
                    }
                    let w = 4 * to + e;
                    if self.dist[w] == NONE {
                        self.dist[w] = k;
                        self.queue.push(w as u32);
                    }
                }
                continue;
            }
            // Directions with free squares on both sides of the box, the square ahead open
            // to a box.
            let pushable = m & ((m >> 2) | (m << 2));
            for e in bits(pushable) {
                let side = e ^ 2;
                if side != s && !same_group(g, s, side) {
                    continue;
                }
                let to = geom.step(b, e);
                if cells[to] & NO_BOX != 0 {
                    continue;
                }
                let w = 4 * to + side;
                if self.dist[w] == NONE {
                    self.dist[w] = k;
                    self.queue.push(w as u32);
                }
            }
        }
    }

    /// The side groups of `square` (padded index) in the last search, where the box was
    /// left there: 2 bits per side, equal for two free sides the player can walk between
    /// with the box on `square` (see [`BoxReach::ends`]: valid for their squares).
    #[inline]
    pub fn side_groups(&self, square: usize) -> u8 {
        self.groups[square]
    }

    /// Fewest pushes to node `4 * square + side` in the last search, `None` if unreached.
    #[inline]
    pub fn pushes(&self, node: usize) -> Option<u32> {
        let d = self.dist[node];
        (d != NONE).then_some(d)
    }

    /// Every node reached by the last search (the start nodes included), in order of
    /// pushes (or pulls).
    pub fn reached(&self) -> &[u32] {
        &self.queue
    }

    /// The places the box can be left by at least one push: for each square and each group
    /// of its sides the player can walk between, the node reached first (fewest pushes;
    /// `node / 4` is the square, `node % 4` the side the player ends on). In order of
    /// pushes. A square's groups are disjoint player areas, so these are distinct
    /// positions.
    pub fn ends(&self) -> &[u32] {
        &self.ends
    }

    /// The nodes of a fewest-push path from the start to `node` (reached in the last
    /// [`BoxReach::search`], not [`BoxReach::search_pulls`]), start first, written into `out`. Each step from `(b, s)` to `(b', s')`
    /// pushes the box from `b` in direction `s' ^ 2`.
    pub fn path(&self, grid: &Grid, node: usize, out: &mut Vec<u32>) {
        out.clear();
        let mut w = node;
        debug_assert!(self.dist[w] != NONE);
        out.push(w as u32);
        while self.dist[w] > 0 {
            let k = self.dist[w];
            let side = w & 3;
            // The push into `(b2, side)` came from the box on `b = b2 + side` (a pull, from
            // `b = b2 - side`), the player on a side of `b` in the same group as `side`.
            let b = grid.step(w >> 2, if self.pulls { side ^ 2 } else { side });
            let gb = self.groups[b];
            let prev = (0..4)
                .map(|s| 4 * b + s)
                .find(|&v| self.dist[v] == k - 1 && (v & 3 == side || same_group(gb, v & 3, side)))
                .expect("a reached node has a predecessor one push closer");
            out.push(prev as u32);
            w = prev;
        }
        out.reverse();
    }
}
