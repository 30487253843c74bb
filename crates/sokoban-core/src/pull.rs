//! The reverse game (pull mode, as YASC and BoxMan have it): the boxes start on the
//! goals and the player pulls them; when the boxes stand where the level starts them and
//! the player is in the start's player area (the area counts, not the square), the
//! reverse moves, read backwards, are a forward solution.
//!
//! A pull in direction `d` is exactly the inverse of a forward push in the opposite
//! direction, so the position is kept with [`Position::unapply`] and the forward solution
//! is the reverse line read backwards with every direction turned round, after a walk from
//! the level's start to where the reverse game ended. Every forward solution is replayed by
//! [`Game`] before it is returned.

use crate::board::{Board, Dir, Level, Move, Position, Square};
use crate::error::{Error, ErrorKind, Result};
use crate::game::Game;
use crate::history::{History, Rules};

/// The reverse game's steps: the player walks, and may pull the box behind it along.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reverse;

impl Rules for Reverse {
    fn try_step(board: &Board, pos: &Position, dir: Dir, pull: bool) -> Option<Move> {
        let ahead = board.floor_neighbor(pos.player, dir)?;
        if pos.has_box(ahead) {
            return None;
        }
        let behind = board.floor_neighbor(pos.player, dir.opposite());
        Some(Move { dir, push: pull && behind.is_some_and(|s| pos.has_box(s)) })
    }

    fn make(board: &Board, pos: &mut Position, m: Move) {
        // The pull in `m.dir` undoes a forward push in the opposite direction.
        pos.unapply(board, Move { dir: m.dir.opposite(), push: m.push });
    }

    fn take_back(board: &Board, pos: &mut Position, m: Move) {
        // Taking a pull back is the forward push itself.
        let f = pos.apply(board, m.dir.opposite());
        debug_assert_eq!(f.map(|f| f.push), Some(m.push));
    }

    fn illegal(index: usize, asked: Move, _actual: Option<Move>) -> Error {
        Error::new(
            ErrorKind::IllegalMove,
            format!("move {} ('{}') is not possible in pull mode here", index + 1, asked.lurd()),
        )
    }
}

/// A reverse game in progress: its line starts with a box on every goal, and `push` marks
/// a pull in its moves and counters.
pub type PullGame = History<Reverse>;

impl History<Reverse> {
    /// The reverse game of a level: boxes on every goal, the player on its start square or,
    /// when a box stands there now, on the nearest free floor square. An error when no floor
    /// square is left free.
    pub fn new(level: Level) -> Result<PullGame> {
        let b = &level.board;
        let goals: Vec<Square> = (0..b.len()).filter(|&s| b.is_goal(s)).collect();
        let mut start = Position::from_squares(b.len(), level.start.player, &goals);
        // Boxes fixed on goals outside the level (decorations) stay as they are.
        start.player = nearest_free(&level, &start, level.start.player).ok_or_else(|| {
            Error::new(
                ErrorKind::IllegalMove,
                "pull mode needs a free floor square for the player, and every square the player can reach holds a box",
            )
        })?;
        Ok(History::with_start(level, start))
    }

    /// Pulls among the moves (the shared history's [`History::pushes`]).
    pub fn pulls(&self) -> usize {
        self.pushes()
    }

    /// Boxes standing on squares where the level starts a box.
    pub fn boxes_home(&self) -> usize {
        let (pos, home) = (self.position(), &self.level().start);
        (0..pos.boxes.len()).filter(|&s| pos.boxes[s] && home.boxes[s]).count()
    }

    /// Before the first move the player may start on any free floor square it could walk
    /// to from its start (the area is what the forward game ends in, so any square of it
    /// will do). Returns false when there are moves, or the square is not such a square.
    pub fn place_player(&mut self, square: Square) -> bool {
        let board = &self.level().board;
        if square >= board.len() || !self.position().is_free(board, square) {
            return false;
        }
        let mut start = self.start().clone();
        start.player = square;
        self.move_start(start)
    }

    /// What a step in `dir` would do: `None` when the square ahead is not free floor, else
    /// a move whose `push` says whether it pulls (only when `pull` is asked and a box stands
    /// behind the player).
    pub fn try_step(&self, dir: Dir, pull: bool) -> Option<Move> {
        Reverse::try_step(&self.level().board, self.position(), dir, pull)
    }

    /// Step in a direction, pulling the box behind the player when `pull` is true and there
    /// is one. Returns the move (`push` = pulled), or `None` when blocked.
    pub fn step(&mut self, dir: Dir, pull: bool) -> Option<Move> {
        self.step_with(dir, pull)
    }

    /// True when the boxes stand where the level starts them and the player can walk to
    /// the level's start square: the reverse game has reached the start.
    pub fn is_done(&self) -> bool {
        let (pos, level) = (self.position(), self.level());
        pos.boxes == level.start.boxes && pos.reachable(&level.board)[level.start.player]
    }

    /// The forward solution, when [`PullGame::is_done`]: a walk from the level's start to
    /// where the reverse game ended, then the reverse moves backwards with their directions
    /// turned round (pulls become pushes), up to the last push. Replayed by [`Game`]:
    /// `None` unless it solves.
    pub fn forward_solution(&self) -> Option<Vec<Move>> {
        if !self.is_done() {
            return None;
        }
        let level = self.level();
        let mut moves = walk(level, &level.start, self.position().player)?;
        let back = self.line().iter().rev();
        moves.extend(back.map(|m| Move { dir: m.dir.opposite(), push: m.push }));
        // The walks after the last push (to where the reverse game began) are not needed.
        while moves.last().is_some_and(|m| !m.push) {
            moves.pop();
        }
        let mut game = Game::new(level.clone());
        game.play(&moves).ok()?;
        game.is_solved().then_some(moves)
    }
}

/// The nearest square to `from` (walking over floor, through boxes) that is free floor.
fn nearest_free(level: &Level, pos: &Position, from: Square) -> Option<Square> {
    let b = &level.board;
    let mut seen = vec![false; b.len()];
    let mut queue = std::collections::VecDeque::from([from]);
    seen[from] = true;
    while let Some(s) = queue.pop_front() {
        if pos.is_free(b, s) {
            return Some(s);
        }
        for d in Dir::ALL {
            if let Some(n) = b.floor_neighbor(s, d) {
                if !seen[n] {
                    seen[n] = true;
                    queue.push_back(n);
                }
            }
        }
    }
    None
}

/// A shortest walk (no pushes) from the position's player square to `to`.
fn walk(level: &Level, pos: &Position, to: Square) -> Option<Vec<Move>> {
    let b = &level.board;
    let mut from = vec![None; b.len()];
    let mut queue = std::collections::VecDeque::from([pos.player]);
    let mut seen = vec![false; b.len()];
    seen[pos.player] = true;
    while let Some(s) = queue.pop_front() {
        if s == to {
            let mut out = Vec::new();
            let mut at = s;
            while let Some((prev, d)) = from[at] {
                out.push(Move { dir: d, push: false });
                at = prev;
            }
            out.reverse();
            return Some(out);
        }
        for d in Dir::ALL {
            if let Some(n) = b.floor_neighbor(s, d) {
                if !seen[n] && !pos.has_box(n) {
                    seen[n] = true;
                    from[n] = Some((s, d));
                    queue.push_back(n);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_level;
    use crate::lurd::{parse_lurd, to_lurd};

    /// Player (2,3); boxes (1,4) and (3,3); goals (1,1) and (3,4).
    const ROOM: &str = "#######\n#.  $ #\n# #@  #\n#  $. #\n#######";

    fn pull_game(text: &str) -> PullGame {
        PullGame::new(parse_level(text).unwrap()).unwrap()
    }

    fn play(g: &mut PullGame, lurd: &str) {
        for m in parse_lurd(lurd).unwrap() {
            assert_eq!(g.step(m.dir, m.push), Some(m), "{lurd}: {m}");
        }
    }

    #[test]
    fn starts_with_boxes_on_goals() {
        let g = pull_game(ROOM);
        let b = &g.level().board;
        for s in 0..b.len() {
            assert_eq!(g.position().has_box(s), b.is_goal(s));
        }
        assert_eq!(g.position().player, g.level().start.player);
        assert!(!g.is_done());
    }

    #[test]
    fn pulling_back_to_the_start_gives_a_forward_solution() {
        let mut g = pull_game(ROOM);
        // The upper box from its goal (1,1) pulled right to (1,4), then the lower one from
        // (3,4) left to (3,3); the player ends on (3,2), in the start's area.
        play(&mut g, "ulRRRdlldL");
        assert_eq!((g.moves(), g.pulls(), g.boxes_home()), (10, 4, 2));
        assert!(g.is_done(), "{:?}", g.position());
        let sol = g.forward_solution().expect("a forward solution");
        assert_eq!(to_lurd(&sol), "ullddrRurruLLL");
        // Restart is undoable; undo_all and redo_all go through the line.
        assert!(g.restart());
        assert_eq!(g.moves(), 0);
        assert!(!g.is_done());
        assert!(g.undo());
        assert_eq!(g.moves(), 10);
        assert_eq!(g.undo_all(), 10);
        assert_eq!(g.redo_all(), 10);
        assert!(g.is_done());
    }

    #[test]
    fn walking_away_without_pull_leaves_the_box() {
        let mut g = pull_game("#####\n#@$.#\n#####");
        // Reverse start: box on the goal (1,3), player (1,1).
        let goal = g.level().board.square(1, 3);
        assert!(g.position().has_box(goal));
        g.step(Dir::Right, true); // player to (1,2)
        assert_eq!(g.pulls(), 0);
        let m = g.step(Dir::Left, true).unwrap(); // pulls the box from (1,3) to (1,2)
        assert!(m.push);
        assert!(g.is_done());
        assert_eq!(to_lurd(&g.forward_solution().unwrap()), "R");
        assert!(g.undo());
        let m = g.step(Dir::Left, false).unwrap();
        assert!(!m.push);
        assert!(g.position().has_box(goal));
    }

    #[test]
    fn groups_undo_together_and_redo_keeps_on_same_step() {
        let mut g = pull_game(ROOM);
        g.begin_group();
        play(&mut g, "ul");
        g.end_group();
        play(&mut g, "R");
        assert!(g.undo());
        assert_eq!(g.moves(), 2);
        assert!(g.undo());
        assert_eq!(g.moves(), 0);
        assert!(g.redo());
        assert_eq!(g.moves(), 2);
        assert_eq!(g.step(Dir::Right, true).map(|m| m.push), Some(true));
        assert!(g.redo_moves().is_empty());
    }

    #[test]
    fn place_player_only_before_moves_and_on_free_floor() {
        let mut g = pull_game(ROOM);
        let b = g.level().board.clone();
        assert!(!g.place_player(b.square(1, 1)), "a box stands on the goal");
        assert!(!g.place_player(0), "a wall");
        assert!(g.place_player(b.square(1, 5)));
        play(&mut g, "d");
        assert!(!g.place_player(b.square(1, 2)));
    }

    #[test]
    fn play_is_all_or_nothing() {
        let mut g = pull_game(ROOM);
        let bad = parse_lurd("ulRRRuu").unwrap();
        assert!(g.play(&bad).is_err());
        assert_eq!(g.moves(), 0);
        g.play(&parse_lurd("ulR").unwrap()).unwrap();
        assert_eq!((g.moves(), g.pulls()), (3, 1));
        assert!(g.undo());
        assert_eq!(g.moves(), 0);
    }
}
