//! LURD solutions: one letter per step, `l u r d` for a walk and `L U R D` for a push.
//!
//! Whitespace (including line breaks) is ignored. Run-length notation is accepted: a count
//! repeats the next letter (`3l` is `lll`) or the next parenthesised group (`2(lU)` is `lUlU`;
//! groups nest). A parsed solution carries the push flags as written; [`crate::Game::check_moves`]
//! checks them against a board.

use crate::board::{Dir, Move};
use crate::error::{ErrorKind, Result};
use crate::format::rle::{expand, problem_error, EXPANSION_BUDGET};

/// The move of a LURD letter, if it is one.
fn move_of(c: char) -> Option<Move> {
    if !c.is_ascii_alphabetic() {
        return None;
    }
    Some(Move { dir: Dir::from_lurd(c)?, push: c.is_ascii_uppercase() })
}

/// True when a text looks like a solution: only LURD letters, digits, parentheses and
/// whitespace, with at least one letter. (A level never holds these letters.)
pub fn is_lurd(text: &str) -> bool {
    text.chars().any(|c| move_of(c).is_some())
        && text.chars().all(|c| {
            move_of(c).is_some() || c.is_ascii_digit() || c == '(' || c == ')' || c.is_whitespace()
        })
}

/// Parse a solution. Errors ([`ErrorKind::BadSolution`]) name the bad character and its
/// 1-based position in `text` (counting every character, whitespace included).
pub fn parse_lurd(text: &str) -> Result<Vec<Move>> {
    let items: Vec<(usize, char)> =
        text.chars().enumerate().filter(|(_, c)| !c.is_whitespace()).collect();
    let mut budget = EXPANSION_BUDGET;
    expand(&items, &mut budget, move_of).map_err(|p| {
        problem_error(
            p,
            ErrorKind::BadSolution,
            ErrorKind::BadSolution,
            "moves",
            " (a solution uses l, u, r, d for moves and L, U, R, D for pushes)",
            &|at| format!("at position {} of the solution", at + 1),
        )
    })
}

/// A solution as LURD letters, one per move.
pub fn to_lurd(moves: &[Move]) -> String {
    moves.iter().map(|m| m.lurd()).collect()
}

/// A solution in run-length LURD: a run of two or more equal letters is written with its
/// count (`lllU` becomes `3lU`).
pub fn to_rle_lurd(moves: &[Move]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < moves.len() {
        let m = moves[i];
        let run = moves[i..].iter().take_while(|&&n| n == m).count();
        if run >= 2 {
            out.push_str(&run.to_string());
        }
        out.push(m.lurd());
        i += run;
    }
    out
}
