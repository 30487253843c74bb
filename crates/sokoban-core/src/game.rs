//! The forward game: a level played from its start by the rules, with the shared history
//! of [`History`] (undo, redo, undoable restart, groups of moves, all-or-nothing replay of
//! move lists).

use crate::board::{Board, Dir, Level, Move, Position};
use crate::error::{Error, ErrorKind, Result};
use crate::history::{History, Rules};

/// The forward game's steps: the player walks, or pushes the box ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Forward;

impl Rules for Forward {
    fn try_step(board: &Board, pos: &Position, dir: Dir, _pull: bool) -> Option<Move> {
        pos.try_move(board, dir)
    }

    fn make(board: &Board, pos: &mut Position, m: Move) {
        let made = pos.apply(board, m.dir);
        debug_assert_eq!(made, Some(m), "history replays");
    }

    fn take_back(board: &Board, pos: &mut Position, m: Move) {
        pos.unapply(board, m);
    }

    fn illegal(index: usize, asked: Move, actual: Option<Move>) -> Error {
        let message = match actual {
            Some(actual) => {
                let what = if actual.push { "pushes a box" } else { "does not push a box" };
                format!(
                    "move {} ('{}') {what}; write it as '{}'",
                    index + 1,
                    asked.lurd(),
                    actual.lurd()
                )
            }
            None => format!("move {} ('{}') is blocked", index + 1, asked.lurd()),
        };
        Error::new(ErrorKind::IllegalMove, message)
    }
}

/// A level being played.
pub type Game = History<Forward>;

impl History<Forward> {
    /// A new game at the level's start.
    pub fn new(level: Level) -> Game {
        let start = level.start.clone();
        History::with_start(level, start)
    }

    /// Step in a direction. Returns the move, or `None` when blocked (nothing changes).
    ///
    /// A step equal to the next redo move keeps the rest of the redo list; any other
    /// step clears it.
    pub fn step(&mut self, dir: Dir) -> Option<Move> {
        self.step_with(dir, false)
    }

    /// True when every box is on a goal.
    pub fn is_solved(&self) -> bool {
        self.position().is_solved(&self.level().board)
    }

    /// Boxes on goals.
    pub fn boxes_on_goals(&self) -> usize {
        self.position().boxes_on_goals(&self.level().board)
    }

    /// Rebuild a game from saved history: the moves from the start and the redo moves.
    pub fn restore(level: Level, line: &[Move], redo: &[Move]) -> Result<Game> {
        let mut g = Game::new(level);
        // Each move on its own, as when they were played one by one.
        g.check_moves(line)?;
        for m in line {
            g.step(m.dir);
        }
        let mut probe = g.position().clone();
        for (i, m) in redo.iter().enumerate() {
            if probe.apply(&g.level().board, m.dir) != Some(*m) {
                return Err(Error::new(
                    ErrorKind::IllegalMove,
                    format!("redo move {} ('{}') is not legal", i + 1, m.lurd()),
                ));
            }
        }
        g.set_redo(redo);
        Ok(g)
    }
}
