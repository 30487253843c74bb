//! Box paths for pulls (the page's pull mode): where one box can be pulled while the others
//! stay put, and the moves (walks and pulls) that leave it on a chosen square with the
//! fewest pulls.
//!
//! A node `(b, d)` is the box on `b` and the player on the neighbour of `b` in direction
//! `d`, ready to pull: the pull moves the player one more step in `d` (that square must be
//! free) and the box onto the player's square, giving node `(b + d, d)`. The player may also
//! walk round the box to another side `e` of `b` at no pull's cost. A 0-1 breadth-first
//! search over nodes gives the fewest pulls; the player's region around the box is flooded
//! once per box square and region, so the search is O(n²) in the worst case on n floor
//! squares: fine for hand-played levels, which is what it serves.

use std::collections::VecDeque;

use sokoban_core::{Board, Dir, Move, Position, Square};

const NONE: u32 = u32::MAX;

/// Where one box can be pulled, answering any number of target queries.
#[derive(Clone, Debug)]
pub struct PullSearch {
    box_sq: Square,
    /// Fewest pulls to each node `4 * b + d` (`NONE`: not reached).
    dist: Vec<u32>,
    /// How each node was reached: the previous node and whether by a pull (else a walk).
    prev: Vec<(u32, bool)>,
    /// The node the search started from (the player's first side), or `NONE`.
    first: u32,
    board: Board,
    pos: Position,
}

fn neighbor(b: &Board, s: Square, d: usize) -> Option<Square> {
    b.floor_neighbor(s, Dir::from_index(d))
}

impl PullSearch {
    /// Search where the box on `box_sq` can be pulled from `pos`.
    pub fn new(board: &Board, pos: &Position, box_sq: Square) -> PullSearch {
        let len = board.len();
        let mut s = PullSearch {
            box_sq,
            dist: vec![NONE; 4 * len],
            prev: vec![(NONE, false); 4 * len],
            first: NONE,
            board: board.clone(),
            pos: pos.clone(),
        };
        if box_sq >= len || pos.boxes.len() != len || !pos.has_box(box_sq) || pos.player >= len {
            return s;
        }
        // Other boxes are walls; the selected box moves.
        let mut others = pos.clone();
        others.boxes[box_sq] = false;
        let free = |sq: Square, b: Square| sq != b && others.is_free(board, sq);
        let mut queue: VecDeque<usize> = VecDeque::new();
        // The sides of the box the player can walk to now.
        let mut at_start = others.clone();
        at_start.boxes[box_sq] = true;
        let reach = at_start.reachable(board);
        for d in 0..4 {
            if let Some(n) = neighbor(board, box_sq, d) {
                if reach[n] && free(n, box_sq) {
                    let node = 4 * box_sq + d;
                    s.dist[node] = 0;
                    if s.first == NONE {
                        s.first = node as u32;
                    }
                    s.prev[node] = (s.first, false);
                    queue.push_back(node);
                }
            }
        }
        let mut flooded = vec![false; 4 * len];
        while let Some(node) = queue.pop_front() {
            let (b, d) = (node / 4, node % 4);
            let k = s.dist[node];
            // Walks round the box: every side in the same region, at no cost.
            if !flooded[node] {
                let mut here = others.clone();
                here.boxes[b] = true;
                here.player = neighbor(board, b, d).expect("a side is floor");
                let region = here.reachable(board);
                for e in 0..4 {
                    if let Some(n) = neighbor(board, b, e) {
                        if region[n] && free(n, b) {
                            let other = 4 * b + e;
                            flooded[other] = true;
                            if s.dist[other] > k {
                                s.dist[other] = k;
                                s.prev[other] = (node as u32, false);
                                queue.push_front(other);
                            }
                        }
                    }
                }
            }
            // The pull: the player steps on in `d`, the box follows onto its square.
            let p = neighbor(board, b, d).expect("a side is floor");
            if let Some(beyond) = neighbor(board, p, d) {
                if free(beyond, b) {
                    let next = 4 * p + d;
                    if s.dist[next] > k + 1 {
                        s.dist[next] = k + 1;
                        s.prev[next] = (node as u32, true);
                        queue.push_back(next);
                    }
                }
            }
        }
        s
    }

    /// The square of the selected box.
    pub fn box_square(&self) -> Square {
        self.box_sq
    }

    fn best(&self, sq: Square) -> Option<usize> {
        (0..4)
            .map(|d| 4 * sq + d)
            .filter(|&n| n < self.dist.len() && self.dist[n] != NONE)
            .min_by_key(|&n| self.dist[n])
    }

    /// Fewest pulls that leave the box on `sq` (0 for its own square), or `None`.
    pub fn pulls_to(&self, sq: Square) -> Option<usize> {
        if sq == self.box_sq && self.first != NONE {
            return Some(0);
        }
        self.best(sq).map(|n| self.dist[n] as usize)
    }

    /// Every square the box can be pulled to, its own square included, in increasing order.
    pub fn reachable(&self) -> Vec<Square> {
        (0..self.board.len()).filter(|&sq| self.pulls_to(sq).is_some()).collect()
    }

    /// The moves (walks, and pulls as pushes' letters: `push` = pull) that leave the box on
    /// `target` with the fewest pulls; `Some(vec![])` when it is there, `None` when it cannot
    /// get there.
    pub fn path_to(&self, target: Square) -> Option<Vec<Move>> {
        let k = self.pulls_to(target)?;
        if k == 0 {
            return Some(Vec::new());
        }
        // The chain of nodes back to the first side.
        let mut chain = vec![self.best(target)?];
        loop {
            let n = *chain.last().expect("not empty");
            if n as u32 == self.first {
                break;
            }
            chain.push(self.prev[n].0 as usize);
        }
        chain.reverse();
        // Play it out on a copy of the position, walking between the sides.
        let mut pos = self.pos.clone();
        let mut moves = Vec::new();
        let walk_to = |pos: &mut Position, moves: &mut Vec<Move>, to: Square| -> Option<()> {
            for d in crate::walk_path(&self.board, pos, to)? {
                moves.push(Move { dir: d, push: false });
                pos.player = self.board.neighbor(pos.player, d)?;
            }
            Some(())
        };
        walk_to(&mut pos, &mut moves, neighbor(&self.board, self.box_sq, chain[0] % 4)?)?;
        for pair in chain.windows(2) {
            let (from, to) = (pair[0], pair[1]);
            let pulled = self.prev[to].1;
            if pulled {
                let d = Dir::from_index(from % 4);
                let b = from / 4;
                let p = self.board.neighbor(b, d)?;
                pos.player = self.board.neighbor(p, d)?;
                pos.boxes[b] = false;
                pos.boxes[p] = true;
                moves.push(Move { dir: d, push: true });
            } else {
                walk_to(&mut pos, &mut moves, neighbor(&self.board, to / 4, to % 4)?)?;
            }
        }
        Some(moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sokoban_core::format::parse_level;
    use sokoban_core::lurd::to_lurd;
    use sokoban_core::{Level, PullGame};

    fn setup(text: &str) -> (Level, PullGame) {
        let level = parse_level(text).unwrap();
        (level.clone(), PullGame::new(level).unwrap())
    }

    /// Play pull moves on a PullGame: the pull path must be legal there.
    fn apply(g: &mut PullGame, moves: &[Move]) {
        g.play(moves).unwrap_or_else(|e| panic!("{}: {}", to_lurd(moves), e.message));
    }

    #[test]
    fn pulls_a_box_round_a_corner_with_the_fewest_pulls() {
        // Reverse start: the box on the goal (1,1); the player (2,4).
        let (level, mut g) = setup("######\n#.   #\n#  $@#\n#    #\n######");
        let b = &level.board;
        let s = PullSearch::new(b, g.position(), b.square(1, 1));
        let reach = s.reachable();
        assert!(reach.contains(&b.square(1, 1)));
        // Pulled right along row 1, then down: the corner square (1,4) cannot be reached
        // (the player would have to stand in the wall beyond it).
        assert_eq!(s.pulls_to(b.square(1, 3)), Some(2));
        assert_eq!(s.pulls_to(b.square(1, 4)), None);
        assert_eq!(s.pulls_to(b.square(2, 1)), Some(1));
        assert_eq!(s.pulls_to(b.square(2, 2)), Some(2));
        let path = s.path_to(b.square(2, 3)).unwrap();
        assert_eq!(path.iter().filter(|m| m.push).count(), 3);
        apply(&mut g, &path);
        assert!(g.position().has_box(b.square(2, 3)));
        assert_eq!(s.path_to(b.square(1, 1)), Some(vec![]));
    }

    #[test]
    fn every_reachable_square_has_a_legal_path() {
        let (level, g) = setup("#######\n#.  $ #\n# #@  #\n#  $. #\n#######");
        let b = &level.board;
        for box_sq in g.position().box_squares() {
            let s = PullSearch::new(b, g.position(), box_sq);
            for t in s.reachable() {
                let mut copy = g.clone();
                let path = s.path_to(t).unwrap();
                apply(&mut copy, &path);
                assert!(copy.position().has_box(t), "box {box_sq} to {t}: {}", to_lurd(&path));
                assert_eq!(path.iter().filter(|m| m.push).count(), s.pulls_to(t).unwrap());
            }
        }
    }

    #[test]
    fn no_box_no_reach() {
        let (level, g) = setup("#####\n#@$.#\n#####");
        let s = PullSearch::new(&level.board, g.position(), 0);
        assert!(s.reachable().is_empty());
    }
}
