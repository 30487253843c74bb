//! The fast search's view of a position: the boxes (sorted compact squares), the player's
//! area, the padded cells the box searches read, and macro moves (one box pushed to any
//! place it can reach while the others stay put) generated with `sokoban_path::BoxReach`.

use sokoban_core::Board;
use sokoban_path::{BoxReach, Cells, Grid};

use crate::analysis::bits::PlayerArea;
use crate::analysis::problem::{Problem, NONE};
use crate::work::{self, Op};

/// The board laid out for the box searches: the padded grid, the maps between compact and
/// padded squares, and the empty board's cells with the dead squares closed to boxes.
pub struct Layout {
    pub grid: Grid,
    /// Padded index of each compact square.
    pub pad: Vec<u32>,
    /// Compact square of each padded index (`NONE` off the floor).
    pub compact: Vec<u16>,
    /// Cells of the empty board; dead squares are [`sokoban_path::NO_BOX`].
    pub base: Cells,
    /// The board itself.
    pub board: Board,
}

impl Layout {
    /// The layout of `board` (the board `p` was built from).
    pub fn new(board: &Board, p: &Problem) -> Layout {
        let grid = Grid::new(board);
        let pad: Vec<u32> = p.board_sq.iter().map(|&s| grid.index(s) as u32).collect();
        let mut compact = vec![NONE; grid.len()];
        for (c, &i) in pad.iter().enumerate() {
            compact[i as usize] = c as u16;
        }
        let mut base = Cells::new(&grid, board, None);
        for (c, &i) in pad.iter().enumerate() {
            if p.dead[c] && !p.is_goal[c] {
                base.forbid_box(i as usize);
            }
        }
        Layout { grid, pad, compact, base, board: board.clone() }
    }
}

/// A macro move: box number `box_i` (in the position's sorted box list) pushed to `to`,
/// the player ending on side `side` of it, in `pushes` pushes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub box_i: u16,
    pub to: u16,
    pub side: u8,
    pub pushes: u16,
    /// Side groups of `to` with the box there (`BoxReach::side_groups`: which of its free
    /// sides the player's areas join); [`NO_GROUPS`] when not known (a move unpacked).
    pub groups: u8,
}

impl Move {
    /// The move in 32 bits (box number: 14 bits, side: 2, square: 16); the push count is
    /// not kept.
    #[inline]
    pub fn pack(self) -> u32 {
        (self.box_i as u32) << 18 | (self.side as u32) << 16 | self.to as u32
    }

    /// A move from [`Move::pack`] (with no push count).
    #[inline]
    pub fn unpack(m: u32) -> Move {
        Move {
            box_i: (m >> 18) as u16,
            side: ((m >> 16) & 3) as u8,
            to: m as u16,
            pushes: 0,
            groups: NO_GROUPS,
        }
    }
}

/// [`Move::groups`] not known (real side groups leave the two low bits clear).
pub const NO_GROUPS: u8 = u8::MAX;

/// Most boxes a macro move can name (14 bits).
pub const MAX_BOXES: usize = 1 << 14;

/// The occupancy before the move of a box from `from` to `to`, read from the child's
/// `occupied` (for counts made from the parent's: what the move changed is counted both
/// ways).
#[inline]
pub fn before_move(occupied: &[bool], from: u16, to: u16) -> impl Fn(u16) -> bool + Copy + '_ {
    move |s| if s == from { true } else { s != to && occupied[s as usize] }
}

/// One position being looked at, with everything the analysis reads.
pub struct State {
    /// Box squares, sorted.
    pub boxes: Vec<u16>,
    /// Index into `boxes` of the box on each square, `NONE` where none.
    pub box_at: Vec<u16>,
    /// True where a box stands.
    pub occupied: Vec<bool>,
    /// Padded cells with the boxes blocked.
    pub cells: Cells,
    /// The player's area (after [`State::flood`]).
    pub flood: PlayerArea,
    /// A square of the player's area (the player's own square when known).
    pub player: u16,
    /// The smallest square of the player's area.
    pub norm: u16,
    /// Zobrist hash of the box squares.
    pub hash: u64,
}

impl State {
    /// An empty board.
    pub fn new(p: &Problem, layout: &Layout) -> State {
        State {
            boxes: Vec::new(),
            box_at: vec![NONE; p.n],
            occupied: vec![false; p.n],
            cells: layout.base.clone(),
            flood: PlayerArea::new(p),
            player: 0,
            norm: 0,
            hash: 0,
        }
    }

    /// Set the position: `boxes` (sorted) and a square of the player's area; floods.
    pub fn set(&mut self, p: &Problem, layout: &Layout, boxes: &[u16], player: u16) {
        self.set_unflooded(p, layout, boxes, player);
        self.flood(p);
    }

    /// [`State::set`] without the flood (for a position about to be moved from: the move
    /// floods).
    pub fn set_unflooded(&mut self, p: &Problem, layout: &Layout, boxes: &[u16], player: u16) {
        for &b in &self.boxes {
            self.box_at[b as usize] = NONE;
            self.occupied[b as usize] = false;
            self.flood.set_box(b, false);
            self.cells.unblock(&layout.grid, layout.pad[b as usize] as usize);
        }
        self.boxes.clear();
        self.boxes.extend_from_slice(boxes);
        self.hash = 0;
        for (i, &b) in boxes.iter().enumerate() {
            self.box_at[b as usize] = i as u16;
            self.occupied[b as usize] = true;
            self.flood.set_box(b, true);
            self.cells.block(&layout.grid, layout.pad[b as usize] as usize);
            self.hash ^= p.z_box[b as usize];
        }
        self.player = player;
    }

    /// Flood the player's area from `player`; sets `norm`.
    pub fn flood(&mut self, p: &Problem) {
        self.norm = self.flood.flood(p, &self.occupied, self.player);
    }

    /// Push box `i` to `to` (a macro move), the player ending on `player`; keeps the boxes
    /// sorted and floods. Returns the box's new index.
    pub fn move_box(
        &mut self,
        p: &Problem,
        layout: &Layout,
        i: usize,
        to: u16,
        player: u16,
    ) -> usize {
        let from = self.boxes[i];
        self.occupied[from as usize] = false;
        self.flood.set_box(from, false);
        self.box_at[from as usize] = NONE;
        self.cells.unblock(&layout.grid, layout.pad[from as usize] as usize);
        self.occupied[to as usize] = true;
        self.flood.set_box(to, true);
        self.cells.block(&layout.grid, layout.pad[to as usize] as usize);
        self.hash ^= p.z_box[from as usize] ^ p.z_box[to as usize];
        // Keep the list sorted: slide the box to its new place.
        let mut k = i;
        self.boxes[k] = to;
        while k > 0 && self.boxes[k - 1] > to {
            self.boxes[k] = self.boxes[k - 1];
            self.box_at[self.boxes[k] as usize] = k as u16;
            k -= 1;
        }
        while k + 1 < self.boxes.len() && self.boxes[k + 1] < to {
            self.boxes[k] = self.boxes[k + 1];
            self.box_at[self.boxes[k] as usize] = k as u16;
            k += 1;
        }
        self.boxes[k] = to;
        self.box_at[to as usize] = k as u16;
        self.player = player;
        self.flood(p);
        k
    }

    /// Table key: the boxes and the player's area.
    #[inline]
    pub fn key(&self, p: &Problem) -> u64 {
        self.hash ^ p.z_player[self.norm as usize]
    }

    /// True when every box stands on a goal.
    pub fn solved(&self, p: &Problem) -> bool {
        self.boxes.iter().all(|&b| p.is_goal[b as usize])
    }
}

/// Macro move generation: scratch for the box searches.
pub struct MoveGen {
    reach: BoxReach,
    path: Vec<u32>,
}

impl MoveGen {
    pub fn new(layout: &Layout) -> MoveGen {
        MoveGen { reach: BoxReach::new(&layout.grid), path: Vec::new() }
    }

    /// The sides of box `b` (compact) the player can reach now.
    #[inline]
    fn player_sides(p: &Problem, st: &State, b: u16) -> u8 {
        let mut sides = 0u8;
        for d in 0..4 {
            let s = p.nbr[b as usize][d];
            if s != NONE && st.flood.reached(s) {
                sides |= 1 << d;
            }
        }
        sides
    }

    /// Every macro move of the position in `st` (flooded), appended to `out`: for each box,
    /// each place it can be left (square and player area) with the fewest pushes — or,
    /// with `pull`, pulls (the reverse game).
    pub fn generate(
        &mut self,
        p: &Problem,
        layout: &Layout,
        st: &mut State,
        pull: bool,
        out: &mut Vec<Move>,
    ) {
        self.prepare(p, layout, st);
        for i in 0..st.boxes.len() {
            self.box_moves(p, layout, st, i, pull, out);
        }
    }

    /// The areas of free floor of the position last given to [`MoveGen::generate`] (or
    /// [`MoveGen::generate_only`]), found by its block search.
    pub fn areas(&self) -> u16 {
        self.reach.areas() as u16
    }

    /// [`MoveGen::generate`] (pushes) for the boxes standing where `only` is true.
    pub fn generate_only(
        &mut self,
        p: &Problem,
        layout: &Layout,
        st: &mut State,
        only: &[bool],
        out: &mut Vec<Move>,
    ) {
        self.prepare(p, layout, st);
        for i in 0..st.boxes.len() {
            if only[st.boxes[i] as usize] {
                self.box_moves(p, layout, st, i, false, out);
            }
        }
    }

    /// The blocks of the position in `st` for its boxes' searches, counted as work.
    fn prepare(&mut self, p: &Problem, layout: &Layout, st: &State) {
        self.reach.prepare_position(&layout.grid, &st.cells);
        work::add(Op::Prepare, p.n as u64);
    }

    /// Lift box `i` off and run the box search from the sides the player reaches; `false`
    /// when no first push (pull) is possible, without a search. With `lifted`, the search
    /// is for a box of the position given to `BoxReach::prepare_position`.
    fn search(
        &mut self,
        p: &Problem,
        layout: &Layout,
        st: &mut State,
        i: usize,
        pull: bool,
        lifted: bool,
    ) -> bool {
        let b = st.boxes[i];
        let sides = Self::player_sides(p, st, b);
        let bi = layout.pad[b as usize] as usize;
        let g = &layout.grid;
        let any = (0..4).any(|d| {
            sides & (1 << d) != 0 && {
                if pull {
                    // The player steps on from side `d`; the box follows onto it.
                    let stand = g.step(bi, d);
                    st.cells.is_free(g.step(stand, d)) && st.cells.box_may_enter(stand)
                } else {
                    st.cells.box_may_enter(g.step(bi, d ^ 2))
                }
            }
        });
        if !any {
            return false;
        }
        st.cells.unblock(g, bi);
        if pull && lifted {
            self.reach.search_pulls_lifted(g, &st.cells, bi, sides);
        } else if pull {
            self.reach.search_pulls(g, &st.cells, bi, sides);
        } else if lifted {
            self.reach.search_lifted(g, &st.cells, bi, sides);
        } else {
            self.reach.search(g, &st.cells, bi, sides);
        }
        work::add(Op::BoxNodes, self.reach.reached().len() as u64);
        st.cells.block(g, bi);
        true
    }

    /// The macro moves of box `i` of the position given to `BoxReach::prepare_position`,
    /// appended to `out`.
    fn box_moves(
        &mut self,
        p: &Problem,
        layout: &Layout,
        st: &mut State,
        i: usize,
        pull: bool,
        out: &mut Vec<Move>,
    ) {
        if !self.search(p, layout, st, i, pull, true) {
            return;
        }
        for &node in self.reach.ends() {
            let to = layout.compact[node as usize / 4];
            let pushes = self.reach.pushes(node as usize).unwrap_or(0);
            out.push(Move {
                box_i: i as u16,
                to,
                side: (node % 4) as u8,
                pushes: pushes.min(u16::MAX as u32) as u16,
                groups: self.reach.side_groups(node as usize / 4),
            });
        }
    }

    /// The single steps of move `m` from the position in `st` (flooded): the squares the box
    /// stands on, from its start to `m.to`, each with the direction of the step that leaves
    /// it, appended to `out`. None if the move is not possible there.
    pub fn steps_of(
        &mut self,
        p: &Problem,
        layout: &Layout,
        st: &mut State,
        m: Move,
        pull: bool,
        out: &mut Vec<(u16, u8)>,
    ) -> Option<()> {
        if (m.box_i as usize) >= st.boxes.len()
            || !self.search(p, layout, st, m.box_i as usize, pull, false)
        {
            return None;
        }
        let node = 4 * layout.pad[m.to as usize] as usize + m.side as usize;
        self.reach.pushes(node)?;
        self.reach.path(&layout.grid, node, &mut self.path);
        for w in self.path.windows(2) {
            let from = layout.compact[w[0] as usize / 4];
            let side = (w[1] % 4) as u8;
            // A push leaves the player behind the box: it went away from the new side.
            out.push((from, if pull { side } else { side ^ 2 }));
        }
        Some(())
    }
}
