//! Where a macro move may leave its box: Festival's rule against *inefficient stops*, a
//! heuristic that cuts the forward search's moves (it can cut every solution, so a search
//! using it proves nothing by running out of moves).
//!
//! A box may not stop inside a tunnel — a run of two or more squares each with walls on
//! both sides across the run — except on the first square of a tunnel without goals (the
//! top or left end), nor just outside the mouth of a one-wide passage (walls on both
//! diagonals on the passage's side) where it can only go back in or is left for no purpose:
//! with a wall beside it and the other side out of the player's reach, or with the player
//! reaching the square on its far side from the passage (it could be pushed in); with a box
//! beside it and the other side out of reach.
//! Goals and the squares the plan puts boxes on are always allowed. The fast search's
//! scored strategies take the tunnels alone ([`Stops::tunnels_only`]): the mouths cut the
//! way on levels of many boxes.
//!
//! The backward searches' pulls have a rule of their own ([`Stops::for_pulls`], Festival's
//! pull mode): the start squares take the goals' place, and a box may not stop in a notch.

use sokoban_core::Board;

use super::plan::Plan;
use crate::analysis::bits::PlayerArea;
use crate::analysis::problem::{Problem, NONE};

/// The eight neighbours, clockwise from up: row and column offsets.
const RING: [(isize, isize); 8] =
    [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)];

/// The stop rules of a level.
#[derive(Clone, Debug)]
pub struct Stops {
    /// Squares a box may never stop on (tunnels).
    tunnel: Vec<bool>,
    /// Per square, its eight neighbours (compact, `NONE` off the floor), clockwise from up,
    /// and a bit per orientation `j` (0, 2, 4, 6) whose mouth shape the walls make:
    /// walls on ring squares `j + 3` and `j + 5`.
    ring: Vec<[u16; 8]>,
    mouth: Vec<u8>,
    /// Squares always allowed: goals and the plan's squares (pulls: the start squares).
    free: Vec<bool>,
    /// Pulls only: per square, a bit per orientation `j` where a box left there stands in
    /// a notch: floor on ring square `j` with a wall beyond it, walls on `j + 1`, `j + 3`
    /// and `j + 4` (or mirrored, `j + 4`, `j + 5` and `j + 7`).
    notch: Vec<u8>,
}

impl Stops {
    pub fn new(p: &Problem, board: &Board, plan: &Plan) -> Stops {
        let mut free = p.is_goal.clone();
        for st in &plan.steps {
            free[st.square as usize] = true;
        }
        Self::build(p, board, free, &p.is_goal)
    }

    /// The rule without its passage mouths: a box stops anywhere but inside a tunnel.
    pub fn tunnels_only(mut self) -> Stops {
        self.mouth.fill(0);
        self
    }

    /// The rule for pulls (the backward searches'), Festival's in its pull mode: the start
    /// squares take the goals' place (always allowed; a tunnel holding one has no free
    /// first square), and a box may not stop in a notch ([`Stops::prunes_pull`]).
    pub fn for_pulls(p: &Problem, board: &Board, starts: &[u16]) -> Stops {
        let mut free = vec![false; p.n];
        for &s in starts {
            free[s as usize] = true;
        }
        let ends = free.clone();
        let mut stops = Self::build(p, board, free, &ends);
        let ring = &stops.ring;
        let wall = |s: usize, k: usize| ring[s][k & 7] == NONE;
        stops.notch = (0..p.n)
            .map(|s| {
                let mut bits = 0u8;
                for j in (0..8).step_by(2) {
                    let q = ring[s][j];
                    let shut = q != NONE && ring[q as usize][j] == NONE;
                    let one = wall(s, j + 1) && wall(s, j + 3) && wall(s, j + 4);
                    let other = wall(s, j + 4) && wall(s, j + 5) && wall(s, j + 7);
                    if shut && (one || other) {
                        bits |= 1 << j;
                    }
                }
                bits
            })
            .collect();
        stops
    }

    /// `ends[s]`: a tunnel holding `s` has no free first square.
    fn build(p: &Problem, board: &Board, free: Vec<bool>, ends: &[bool]) -> Stops {
        let n = p.n;
        let at = |s: u16, dr: isize, dc: isize| -> u16 {
            let (r, c) = board.row_col(p.board_sq[s as usize]);
            let (r, c) = (r as isize + dr, c as isize + dc);
            if r < 0 || c < 0 || r >= board.height() as isize || c >= board.width() as isize {
                return NONE;
            }
            p.compact[board.square(r as usize, c as usize)]
        };
        let ring: Vec<[u16; 8]> = (0..n as u16)
            .map(|s| {
                let mut r = [NONE; 8];
                for (k, &(dr, dc)) in RING.iter().enumerate() {
                    r[k] = at(s, dr, dc);
                }
                r
            })
            .collect();
        let mut mouth = vec![0u8; n];
        for s in 0..n {
            for j in (0..8).step_by(2) {
                let r = &ring[s];
                if r[(j + 3) & 7] == NONE && r[(j + 5) & 7] == NONE {
                    mouth[s] |= 1 << j;
                }
            }
        }
        // Tunnels: along a row (walls above and below) and along a column (walls left and
        // right); `d` is the direction along the run, `a` and `b` the sides across it.
        let mut tunnel = vec![false; n];
        for (d, a, b) in [(2usize, 0usize, 4usize), (4, 6, 2)] {
            let back = (d + 4) & 7;
            let inside = |s: u16| ring[s as usize][a] == NONE && ring[s as usize][b] == NONE;
            for s in 0..n as u16 {
                if !inside(s) {
                    continue;
                }
                let prev = ring[s as usize][back];
                if prev != NONE && inside(prev) {
                    continue; // not the first square of its run
                }
                let mut run = vec![s];
                let mut t = ring[s as usize][d];
                while t != NONE && inside(t) {
                    run.push(t);
                    t = ring[t as usize][d];
                }
                if run.len() < 2 {
                    continue;
                }
                let goal = run.iter().any(|&q| ends[q as usize]);
                for (i, &q) in run.iter().enumerate() {
                    if i > 0 || goal {
                        tunnel[q as usize] = true;
                    }
                }
            }
        }
        Stops { tunnel, ring, mouth, free, notch: Vec::new() }
    }

    /// True when a box pulled from `from` to `to` stops inefficiently (a rule made by
    /// [`Stops::for_pulls`]): inside a tunnel, or in a notch whose open side is free in
    /// the child (`occupied`: the position before the pull).
    pub fn prunes_pull(&self, occupied: &[bool], from: u16, to: u16) -> bool {
        let t = to as usize;
        if self.free[t] {
            return false;
        }
        if self.tunnel[t] {
            return true;
        }
        let bits = self.notch[t];
        (0..8).step_by(2).any(|j| {
            let q = self.ring[t][j];
            bits & (1 << j) != 0 && (q == from || !occupied[q as usize])
        })
    }

    /// True when a box pushed from `from` to `to`, the player ending on `player`, stops
    /// inefficiently. `occupied` is the position before the move; `area` holds its boxes
    /// and is flooded for the child where the rule needs the player's reach.
    pub fn prunes(
        &self,
        p: &Problem,
        occupied: &mut [bool],
        area: &mut PlayerArea,
        from: u16,
        to: u16,
        player: u16,
    ) -> bool {
        let t = to as usize;
        if self.free[t] {
            return false;
        }
        if self.tunnel[t] {
            return true;
        }
        let m = self.mouth[t];
        if m == 0 {
            return false;
        }
        let r = &self.ring[t];
        let wall = |k: usize| r[k & 7] == NONE;
        let boxed = |k: usize, occ: &[bool]| {
            let q = r[k & 7];
            q != NONE && q != from && (occ[q as usize] || q == to)
        };
        // The child's player area, flooded once.
        occupied[from as usize] = false;
        occupied[t] = true;
        area.set_box(from, false);
        area.set_box(to, true);
        area.flood(p, occupied, player);
        let reached = |k: usize, area: &PlayerArea| {
            let q = r[k & 7];
            q != NONE && area.reached(q)
        };
        let mut prune = false;
        for j in (0..8).step_by(2) {
            if m & (1 << j) == 0 {
                continue;
            }
            // A wall on one side, the other side floor: left out of reach, or the player
            // beyond the box (it could go on into the passage).
            if (wall(j + 2) && !wall(j + 6) && (!reached(j + 6, area) || reached(j, area)))
                || (wall(j + 6) && !wall(j + 2) && (!reached(j + 2, area) || reached(j, area)))
                || (boxed(j + 2, occupied) && !reached(j + 6, area))
                || (boxed(j + 6, occupied) && !reached(j + 2, area))
            {
                prune = true;
                break;
            }
        }
        occupied[t] = false;
        occupied[from as usize] = true;
        area.set_box(to, false);
        area.set_box(from, true);
        prune
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fast::board::Layout;

    /// Row 3 between walls from column 3 to 7 is a tunnel without a goal; rows 1 and 5
    /// from column 3 to 7 are tunnels with a goal; (4,2) is a passage one square wide whose mouth above
    /// is (3,2).
    const LEVEL: &str = "\
##########
#@ $  .  #
#  ##### #
#.    $  #
## ##### #
## $  .  #
##########";

    fn stops_of(xsb: &str) -> (Problem, Stops, sokoban_core::Level) {
        let level = sokoban_core::format::parse_level(xsb).unwrap();
        let p = Problem::new(&level.board);
        let layout = Layout::new(&level.board, &p);
        let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
        let plan = Plan::new(&p, &layout, &boxes);
        let stops = Stops::new(&p, &level.board, &plan);
        (p, stops, level)
    }

    #[test]
    fn a_box_stops_in_a_tunnel_only_on_the_first_square_of_one_without_goals() {
        let (p, stops, level) = stops_of(LEVEL);
        let sq = |r: usize, c: usize| p.compact[level.board.square(r, c)] as usize;
        assert!(!stops.tunnel[sq(3, 3)]);
        for c in 4..=7 {
            assert!(stops.tunnel[sq(3, c)], "(3,{c})");
            assert!(stops.tunnel[sq(5, c)], "(5,{c})");
        }
        assert!(stops.tunnel[sq(5, 3)], "a tunnel with a goal has no free first square");
        for c in 3..=7 {
            assert!(stops.tunnel[sq(1, c)], "(1,{c}): the top row between walls too");
        }
        for (r, c) in [(1, 2), (3, 2), (3, 8), (2, 8), (4, 2)] {
            assert!(!stops.tunnel[sq(r, c)], "({r},{c})");
        }
    }

    /// Prunes the move of the box on `from` to `to` (player ending on `player`) with boxes
    /// on `others` too, by the whole rule or ([`Stops::tunnels_only`]) its tunnels alone;
    /// checks the position is left as it was.
    fn prunes(
        xsb: &str,
        from: (usize, usize),
        to: (usize, usize),
        player: (usize, usize),
        others: &[(usize, usize)],
        tunnels_only: bool,
    ) -> bool {
        let (p, stops, level) = stops_of(xsb);
        let stops = if tunnels_only { stops.tunnels_only() } else { stops };
        let sq = |(r, c): (usize, usize)| p.compact[level.board.square(r, c)];
        let mut occupied = vec![false; p.n];
        let mut boxes = vec![sq(from)];
        boxes.extend(others.iter().map(|&x| sq(x)));
        for &b in &boxes {
            occupied[b as usize] = true;
        }
        let mut area = PlayerArea::new(&p);
        area.set_boxes(&boxes);
        let before = occupied.clone();
        let cut = stops.prunes(&p, &mut occupied, &mut area, sq(from), sq(to), sq(player));
        assert_eq!(occupied, before);
        cut
    }

    #[test]
    fn goals_the_open_floor_and_a_mouth_left_usable_are_allowed() {
        assert!(!prunes(LEVEL, (1, 3), (1, 6), (1, 5), &[], false), "a goal");
        assert!(!prunes(LEVEL, (2, 2), (2, 1), (2, 2), &[], false), "open floor");
        assert!(prunes(LEVEL, (1, 3), (3, 5), (3, 4), &[], false), "inside a tunnel");
        // At the mouth (3,2) with a box beside it on (3,3): the other side (3,1) is in
        // the player's reach.
        assert!(!prunes(LEVEL, (1, 2), (3, 2), (2, 2), &[(3, 3)], false));
    }

    /// The box pushed down into the mouth (3,2) with boxes on (3,3) and (2,1): its far side
    /// (3,1) is out of the player's reach, so the whole rule cuts it, the tunnels alone not.
    #[test]
    fn the_tunnels_alone_cut_no_mouth() {
        let others = [(3, 3), (2, 1)];
        assert!(prunes(LEVEL, (2, 2), (3, 2), (2, 2), &others, false));
        assert!(!prunes(LEVEL, (2, 2), (3, 2), (2, 2), &others, true));
        assert!(prunes(LEVEL, (1, 3), (3, 5), (3, 4), &[], true), "inside a tunnel");
    }

    /// Pulls: start squares are always allowed, and a tunnel holding one has no free first
    /// square (LEVEL's row 3 holds the start box (3,6)).
    #[test]
    fn pulls_stop_on_start_squares_and_nowhere_in_a_tunnel_holding_one() {
        let (p, pushes, level) = stops_of(LEVEL);
        let sq = |r: usize, c: usize| p.compact[level.board.square(r, c)];
        let starts: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
        let stops = Stops::for_pulls(&p, &level.board, &starts);
        let mut occupied = vec![false; p.n];
        for &b in &starts {
            occupied[b as usize] = true;
        }
        let from = sq(3, 6);
        assert!(stops.prunes_pull(&occupied, from, sq(3, 3)), "the first square of row 3");
        assert!(stops.prunes_pull(&occupied, from, sq(3, 5)), "inside row 3");
        assert!(!stops.prunes_pull(&occupied, sq(3, 5), sq(3, 6)), "a start square");
        assert!(!stops.prunes_pull(&occupied, from, sq(3, 8)), "open floor");
        assert!(!pushes.tunnel[sq(3, 3) as usize], "pushes: row 3 holds no goal");
    }

    /// A box left in a notch (floor above it with a wall beyond, walls below and on the
    /// diagonals of one side) is cut while the square above is free.
    #[test]
    fn a_pull_into_a_notch_is_cut_while_its_open_side_is_free() {
        const NOTCH: &str = "\
######
## ###
#@ $.#
######";
        let level = sokoban_core::format::parse_level(NOTCH).unwrap();
        let p = Problem::new(&level.board);
        let sq = |r: usize, c: usize| p.compact[level.board.square(r, c)];
        let stops = Stops::for_pulls(&p, &level.board, &[sq(2, 3)]);
        let mut occupied = vec![false; p.n];
        occupied[sq(2, 3) as usize] = true;
        assert!(stops.prunes_pull(&occupied, sq(2, 3), sq(2, 2)));
        occupied[sq(1, 2) as usize] = true;
        assert!(!stops.prunes_pull(&occupied, sq(2, 3), sq(2, 2)), "its open side taken");
        assert!(!stops.prunes_pull(&occupied, sq(2, 2), sq(2, 3)), "a start square");
    }

    #[test]
    fn a_box_at_a_mouth_between_a_box_and_a_side_out_of_reach_is_cut() {
        // Boxes on both sides of the mouth: each side is out of the player's reach.
        assert!(prunes(LEVEL, (1, 2), (3, 2), (2, 2), &[(3, 3), (3, 1)], false));
    }
}
