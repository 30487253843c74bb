//! A level being played, with its history: the current position, the moves made since the
//! start, and undo/redo history in which a restart is an undoable action: undoing it brings
//! back the moves and the redo list exactly as they were before the restart. Moves can be
//! grouped (a walk to a clicked square, a box dragged along its path) so that one undo or
//! redo takes back or replays the whole group.
//!
//! One history serves both games: [`Rules`] says how a step changes the position, forwards
//! ([`crate::game::Forward`], the [`crate::Game`]: pushes) or backwards
//! ([`crate::pull::Reverse`], the [`crate::PullGame`]: pulls). What only one game has (a
//! solved test, the forward solution of the reverse game) is in its own module.

use std::marker::PhantomData;

use crate::board::{Board, Dir, Level, Move, Position};
use crate::error::{Error, Result};

/// How a kind of step changes a position. A step's `push` flag says whether a box moves
/// with the player (pushed ahead forwards, pulled behind backwards).
pub trait Rules {
    /// What a step in `dir` would do from `pos`: the move, or `None` when it is blocked.
    /// `pull` asks the reverse game to pull the box behind the player; the forward game
    /// pushes whenever a box is ahead and ignores it.
    fn try_step(board: &Board, pos: &Position, dir: Dir, pull: bool) -> Option<Move>;
    /// Make a move that [`Rules::try_step`] gave.
    fn make(board: &Board, pos: &mut Position, m: Move);
    /// Take back a move just made.
    fn take_back(board: &Board, pos: &mut Position, m: Move);
    /// The error for move `index` (from 0) of a list, written as `asked`, when a step there
    /// does `actual` instead.
    fn illegal(index: usize, asked: Move, actual: Option<Move>) -> Error;
}

/// One entry of the undo stack.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Action {
    /// A move and its group (0: a move on its own).
    Move(Move, u32),
    /// A restart; remembers the moves and the redo list it discarded so undo can bring
    /// them back.
    Restart { line: Vec<Move>, redo: Vec<(Move, u32)> },
}

/// A level being played with the steps of `R`, and its history.
#[derive(Clone, Debug)]
pub struct History<R> {
    level: Level,
    /// Where the line starts and a restart goes back to.
    start: Position,
    pos: Position,
    /// Moves from the start position to the current one.
    line: Vec<Move>,
    /// Moves of the line that moved a box.
    pushes: usize,
    undo: Vec<Action>,
    /// Undone moves with their groups, the next one to redo last.
    redo: Vec<(Move, u32)>,
    /// The group new moves join (0: none).
    group: u32,
    last_group: u32,
    rules: PhantomData<R>,
}

impl<R: Rules> History<R> {
    /// A game of `level` from `start`, with no history.
    pub(crate) fn with_start(level: Level, start: Position) -> History<R> {
        History {
            pos: start.clone(),
            start,
            level,
            line: Vec::new(),
            pushes: 0,
            undo: Vec::new(),
            redo: Vec::new(),
            group: 0,
            last_group: 0,
            rules: PhantomData,
        }
    }

    /// The level.
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Where the line starts (the level's start in the forward game).
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// Moves made from the start to the current position.
    pub fn moves(&self) -> usize {
        self.line.len()
    }

    /// Pushes (pulls in the reverse game) among those moves.
    pub fn pushes(&self) -> usize {
        self.pushes
    }

    /// The moves from the start to here.
    pub fn line(&self) -> &[Move] {
        &self.line
    }

    /// The moves that redo would replay, in order.
    pub fn redo_moves(&self) -> Vec<Move> {
        self.redo.iter().rev().map(|&(m, _)| m).collect()
    }

    /// True when there is something to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// True when there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Start a group: the moves made until [`History::end_group`] are undone and redone as
    /// one.
    pub fn begin_group(&mut self) {
        self.last_group += 1;
        self.group = self.last_group;
    }

    /// End the current group.
    pub fn end_group(&mut self) {
        self.group = 0;
    }

    fn do_move(&mut self, m: Move, group: u32) {
        R::make(&self.level.board, &mut self.pos, m);
        self.line.push(m);
        self.pushes += m.push as usize;
        self.undo.push(Action::Move(m, group));
    }

    fn unmove(&mut self, m: Move, group: u32) {
        R::take_back(&self.level.board, &mut self.pos, m);
        self.line.pop();
        self.pushes -= m.push as usize;
        self.redo.push((m, group));
    }

    /// Step in a direction (`pull` as in [`Rules::try_step`]). Returns the move, or `None`
    /// when blocked (nothing changes).
    ///
    /// A step equal to the next redo move keeps the rest of the redo list; any other step
    /// clears it.
    pub(crate) fn step_with(&mut self, dir: Dir, pull: bool) -> Option<Move> {
        let m = R::try_step(&self.level.board, &self.pos, dir, pull)?;
        self.do_move(m, self.group);
        match self.redo.last() {
            Some((r, _)) if *r == m => {
                self.redo.pop();
            }
            _ => self.redo.clear(),
        }
        Some(m)
    }

    /// Undo the last action (a move, a whole group of moves, or a restart). Returns false
    /// when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        match self.undo.pop() {
            None => false,
            Some(Action::Move(m, g)) => {
                self.unmove(m, g);
                while let (true, Some(&Action::Move(m2, g2))) = (g != 0, self.undo.last()) {
                    if g2 != g {
                        break;
                    }
                    self.undo.pop();
                    self.unmove(m2, g2);
                }
                true
            }
            Some(Action::Restart { line, redo }) => {
                for &m in &line {
                    R::make(&self.level.board, &mut self.pos, m);
                }
                self.pushes = line.iter().filter(|m| m.push).count();
                self.line = line;
                self.redo = redo;
                true
            }
        }
    }

    /// Redo the last undone move, or group of moves. Returns false when there is nothing to
    /// redo.
    pub fn redo(&mut self) -> bool {
        let Some((m, g)) = self.redo.pop() else { return false };
        self.do_move(m, g);
        while let (true, Some(&(m2, g2))) = (g != 0, self.redo.last()) {
            if g2 != g {
                break;
            }
            self.redo.pop();
            self.do_move(m2, g2);
        }
        true
    }

    /// Go back to the start position, as one undoable action. Does nothing at the start.
    pub fn restart(&mut self) -> bool {
        if self.line.is_empty() {
            return false;
        }
        let line = std::mem::take(&mut self.line);
        let redo = std::mem::take(&mut self.redo);
        self.pos = self.start.clone();
        self.pushes = 0;
        self.undo.push(Action::Restart { line, redo });
        true
    }

    /// Undo moves back to the start of the current line (stops at a restart). Returns the
    /// number of moves undone.
    pub fn undo_all(&mut self) -> usize {
        let before = self.line.len();
        while matches!(self.undo.last(), Some(Action::Move(..))) {
            self.undo();
        }
        before - self.line.len()
    }

    /// Redo every move of the redo list. Returns the number of moves redone.
    pub fn redo_all(&mut self) -> usize {
        let before = self.line.len();
        while self.redo() {}
        self.line.len() - before
    }

    /// Check that a sequence of moves is legal from the current position, without playing
    /// it. The push flags of `moves` must agree with what happens on the board.
    pub fn check_moves(&self, moves: &[Move]) -> Result<()> {
        let board = &self.level.board;
        let mut p = self.pos.clone();
        for (i, &m) in moves.iter().enumerate() {
            match R::try_step(board, &p, m.dir, m.push) {
                Some(actual) if actual == m => R::make(board, &mut p, m),
                actual => return Err(R::illegal(i, m, actual)),
            }
        }
        Ok(())
    }

    /// Play a sequence of moves, all or nothing: nothing changes when one is illegal. The
    /// moves form one group (one undo takes them all back) unless a group is already open.
    pub fn play(&mut self, moves: &[Move]) -> Result<()> {
        self.check_moves(moves)?;
        let own = self.group == 0;
        if own {
            self.begin_group();
        }
        for m in moves {
            self.step_with(m.dir, m.push);
        }
        if own {
            self.end_group();
        }
        Ok(())
    }

    /// Move the start to `start` before the first move: the position is the new start, and
    /// undo and redo are forgotten. False (nothing changes) once there are moves.
    pub(crate) fn move_start(&mut self, start: Position) -> bool {
        if !self.line.is_empty() {
            return false;
        }
        self.pos = start.clone();
        self.start = start;
        self.undo.clear();
        self.redo.clear();
        true
    }

    /// Replace the redo list by `moves` (each one a move on its own), to be replayed in
    /// order. The caller has checked that they are legal from here.
    pub(crate) fn set_redo(&mut self, moves: &[Move]) {
        self.redo = moves.iter().rev().map(|&m| (m, 0)).collect();
    }
}
