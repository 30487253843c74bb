//! Deadlock detection: dead squares (no goal reachable by pushing) and freeze deadlocks
//! (boxes that can never move again, not all on goals). Used by the search, and by the
//! player page to warn about lost positions.
//!
//! Beside them: `corral_search` (PI-corral deadlocks, searched), [`stuck`] (the fast
//! search's bounded search for positions no box can leave, with learned patterns) and
//! `pairs` (the two-box deadlock table); `confine` (the backward game's player shut in for
//! good).

pub(crate) mod confine;
pub(crate) mod corral_search;
pub(crate) mod pairs;
pub mod stuck;

use crate::analysis::problem::{Problem, NONE};
use sokoban_core::{Level, Position, Square};

/// True when the box on `sq` is frozen (can never move again) and it, or a box frozen
/// together with it, is off a goal. `has_box(s)` tells whether a box stands on compact
/// square `s`; `walls` is scratch space (left empty).
///
/// A box is blocked along an axis when a wall is on either side, when both sides are dead
/// squares, or when a box on either side is itself frozen with this box counted as a wall.
pub fn freeze_deadlock(
    p: &Problem,
    walls: &mut Vec<u16>,
    has_box: &impl Fn(u16) -> bool,
    sq: u16,
) -> bool {
    walls.clear();
    let (frozen, off_goal) = frozen(p, walls, has_box, sq);
    frozen && off_goal
}

/// (frozen, some box in the frozen group is off a goal) for the box on `sq`: the
/// position is a deadlock when both hold; when only the first does, the box and the boxes
/// frozen with it stand on goals for good. `walls` is scratch space.
pub fn freeze_status(
    p: &Problem,
    walls: &mut Vec<u16>,
    has_box: &impl Fn(u16) -> bool,
    sq: u16,
) -> (bool, bool) {
    walls.clear();
    frozen(p, walls, has_box, sq)
}

/// (frozen, some box in the frozen group is off a goal).
fn frozen(
    p: &Problem,
    walls: &mut Vec<u16>,
    has_box: &impl Fn(u16) -> bool,
    sq: u16,
) -> (bool, bool) {
    walls.push(sq);
    let mut off = !p.is_goal[sq as usize];
    let mut result = true;
    // Vertical axis (Up=0, Down=2), then horizontal (Right=1, Left=3).
    for (d1, d2) in [(0usize, 2usize), (1, 3)] {
        match axis_blocked(p, walls, has_box, sq, d1, d2) {
            Some(o) => off |= o,
            None => {
                result = false;
                break;
            }
        }
    }
    walls.pop();
    if result {
        (true, off)
    } else {
        (false, false)
    }
}

/// `Some(off_goal_of_boxes_used)` when the box on `sq` cannot move along the axis.
fn axis_blocked(
    p: &Problem,
    walls: &mut Vec<u16>,
    has_box: &impl Fn(u16) -> bool,
    sq: u16,
    d1: usize,
    d2: usize,
) -> Option<bool> {
    let a = p.step(sq, d1);
    let b = p.step(sq, d2);
    let wall = |s: u16, w: &[u16]| s == NONE || w.contains(&s);
    if wall(a, walls) || wall(b, walls) {
        return Some(false);
    }
    if p.dead[a as usize] && p.dead[b as usize] {
        return Some(false);
    }
    for s in [a, b] {
        if has_box(s) {
            let (f, o) = frozen(p, walls, has_box, s);
            if f {
                return Some(o);
            }
        }
    }
    None
}

/// Compact squares of the boxes that can never move again and stand on goals together
/// with every box frozen with them: for the rest of the game they act as walls.
pub fn frozen_on_goals(p: &Problem, has_box: &impl Fn(u16) -> bool) -> Vec<u16> {
    let mut walls = Vec::new();
    (0..p.n as u16)
        .filter(|&s| has_box(s) && p.is_goal[s as usize])
        .filter(|&s| {
            walls.clear();
            frozen(p, &mut walls, has_box, s) == (true, false)
        })
        .collect()
}

/// Why a box is flagged by [`Deadlocks::check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadlockKind {
    /// The box stands on a square from which no goal can be reached.
    DeadSquare,
    /// The box can never move again and it, or a box frozen with it, is off a goal.
    Frozen,
}

/// Deadlock checks for one level, prepared once (for the player page: call
/// [`Deadlocks::check`] after every move).
#[derive(Clone, Debug)]
pub struct Deadlocks {
    p: Problem,
}

impl Deadlocks {
    /// Prepare the checks for a level (push distances and dead squares).
    pub fn new(level: &Level) -> Deadlocks {
        Deadlocks { p: Problem::without_components(&level.board) }
    }

    /// Board squares (true) where a box can never reach any goal.
    pub fn dead_squares(&self, board_len: usize) -> Vec<bool> {
        let mut out = vec![false; board_len];
        for (c, &s) in self.p.board_sq.iter().enumerate() {
            out[s] = self.p.dead[c] && !self.p.is_goal[c];
        }
        out
    }

    /// Boxes of a position that are in a deadlock, with the reason, in square order.
    pub fn check(&self, pos: &Position) -> Vec<(Square, DeadlockKind)> {
        let p = &self.p;
        let has_box = |s: u16| pos.boxes[p.board_sq[s as usize]];
        let mut walls = Vec::new();
        let mut out = Vec::new();
        for (c, &s) in p.board_sq.iter().enumerate() {
            if !pos.boxes[s] {
                continue;
            }
            if p.dead[c] {
                out.push((s, DeadlockKind::DeadSquare));
            } else if freeze_deadlock(p, &mut walls, &has_box, c as u16) {
                out.push((s, DeadlockKind::Frozen));
            }
        }
        out
    }
}

/// Board squares (true) where a box can never reach any goal.
pub fn dead_squares(level: &Level) -> Vec<bool> {
    Deadlocks::new(level).dead_squares(level.board.len())
}

/// Boxes of a position that are in a deadlock, with the reason, in square order.
pub fn deadlocked_boxes(level: &Level, pos: &Position) -> Vec<(Square, DeadlockKind)> {
    Deadlocks::new(level).check(pos)
}
