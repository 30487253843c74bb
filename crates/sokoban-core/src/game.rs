//! A game in progress: the current position, the moves made since the start, and
//! undo/redo history in which a restart is an undoable action: undoing it brings back
//! the moves and the redo list exactly as they were before the restart. Moves can be
//! grouped (a walk to a clicked square, a box dragged along its path) so that one undo
//! or redo takes back or replays the whole group.

use crate::board::{Dir, Level, Move, Position};
use crate::error::{Error, ErrorKind, Result};

/// One entry of the undo stack.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Action {
    /// A move and its group (0: a move on its own).
    Move(Move, u32),
    /// A restart; remembers the moves and the redo list it discarded so undo can bring
    /// them back.
    Restart { line: Vec<Move>, redo: Vec<(Move, u32)> },
}

/// A level being played.
#[derive(Clone, Debug)]
pub struct Game {
    level: Level,
    pos: Position,
    /// Moves from the start position to the current one.
    line: Vec<Move>,
    pushes: usize,
    undo: Vec<Action>,
    /// Undone moves with their groups, the next one to redo last.
    redo: Vec<(Move, u32)>,
    /// The group new moves join (0: none).
    group: u32,
    last_group: u32,
}

impl Game {
    /// A new game at the level's start.
    pub fn new(level: Level) -> Game {
        let pos = level.start.clone();
        Game {
            level,
            pos,
            line: Vec::new(),
            pushes: 0,
            undo: Vec::new(),
            redo: Vec::new(),
            group: 0,
            last_group: 0,
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

    /// Moves made from the start to the current position.
    pub fn moves(&self) -> usize {
        self.line.len()
    }

    /// Pushes among those moves.
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

    /// True when every box is on a goal.
    pub fn is_solved(&self) -> bool {
        self.pos.is_solved(&self.level.board)
    }

    /// Boxes on goals.
    pub fn boxes_on_goals(&self) -> usize {
        self.pos.boxes_on_goals(&self.level.board)
    }

    /// True when there is something to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// True when there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Start a group: the moves made until [`Game::end_group`] are undone and redone as one.
    pub fn begin_group(&mut self) {
        self.last_group += 1;
        self.group = self.last_group;
    }

    /// End the current group.
    pub fn end_group(&mut self) {
        self.group = 0;
    }

    fn do_move(&mut self, dir: Dir, group: u32) -> Option<Move> {
        let m = self.pos.apply(&self.level.board, dir)?;
        self.line.push(m);
        self.pushes += m.push as usize;
        self.undo.push(Action::Move(m, group));
        Some(m)
    }

    /// Step in a direction. Returns the move, or `None` when blocked (nothing changes).
    ///
    /// A step equal to the next redo move keeps the rest of the redo list; any other
    /// step clears it.
    pub fn step(&mut self, dir: Dir) -> Option<Move> {
        let m = self.do_move(dir, self.group)?;
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
                if g != 0 {
                    while let Some(&Action::Move(m2, g2)) = self.undo.last() {
                        if g2 != g {
                            break;
                        }
                        self.undo.pop();
                        self.unmove(m2, g2);
                    }
                }
                true
            }
            Some(Action::Restart { line, redo }) => {
                for &m in &line {
                    self.pos.apply(&self.level.board, m.dir).expect("history replays");
                }
                self.pushes = line.iter().filter(|m| m.push).count();
                self.line = line;
                self.redo = redo;
                true
            }
        }
    }

    fn unmove(&mut self, m: Move, g: u32) {
        self.pos.unapply(&self.level.board, m);
        self.line.pop();
        self.pushes -= m.push as usize;
        self.redo.push((m, g));
    }

    /// Redo the last undone move, or group of moves. Returns false when there is nothing to
    /// redo.
    pub fn redo(&mut self) -> bool {
        match self.redo.pop() {
            None => false,
            Some((m, g)) => {
                self.do_move(m.dir, g).expect("redo replays");
                if g != 0 {
                    while let Some(&(m2, g2)) = self.redo.last() {
                        if g2 != g {
                            break;
                        }
                        self.redo.pop();
                        self.do_move(m2.dir, g2).expect("redo replays");
                    }
                }
                true
            }
        }
    }

    /// Go back to the start position, as one undoable action. Does nothing at the start.
    pub fn restart(&mut self) -> bool {
        if self.line.is_empty() {
            return false;
        }
        let line = std::mem::take(&mut self.line);
        let redo = std::mem::take(&mut self.redo);
        self.pos = self.level.start.clone();
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

    /// Check that a sequence of moves is legal from the current position, without playing it.
    ///
    /// The push flags of `moves` must agree with what happens on the board.
    pub fn check_moves(&self, moves: &[Move]) -> Result<()> {
        let mut p = self.pos.clone();
        for (i, m) in moves.iter().enumerate() {
            match p.apply(&self.level.board, m.dir) {
                Some(actual) if actual == *m => {}
                Some(actual) => {
                    let what = if actual.push { "pushes a box" } else { "does not push a box" };
                    return Err(Error::new(
                        ErrorKind::IllegalMove,
                        format!(
                            "move {} ('{}') {what}; write it as '{}'",
                            i + 1,
                            m.lurd(),
                            actual.lurd()
                        ),
                    ));
                }
                None => {
                    return Err(Error::new(
                        ErrorKind::IllegalMove,
                        format!("move {} ('{}') is blocked", i + 1, m.lurd()),
                    ))
                }
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
            self.step(m.dir);
        }
        if own {
            self.end_group();
        }
        Ok(())
    }

    /// Rebuild a game from saved history: the moves from the start and the redo moves.
    pub fn restore(level: Level, line: &[Move], redo: &[Move]) -> Result<Game> {
        let mut g = Game::new(level);
        g.check_moves(line)?;
        for m in line {
            g.step(m.dir);
        }
        let mut probe = g.pos.clone();
        for (i, m) in redo.iter().enumerate() {
            if probe.apply(&g.level.board, m.dir) != Some(*m) {
                return Err(Error::new(
                    ErrorKind::IllegalMove,
                    format!("redo move {} ('{}') is not legal", i + 1, m.lurd()),
                ));
            }
        }
        g.redo = redo.iter().rev().map(|&m| (m, 0)).collect();
        Ok(g)
    }
}
