//! Shared helpers for the integration tests: level parsing, a brute-force oracle, replay checks.

#![allow(dead_code)]

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use sokoban_core::{Board, Dir, Grid, Level, Move, Position, Square, Tile};

/// A level from XSB text (blank lines ignored, other lines kept as written).
pub fn level(text: &str) -> Level {
    let rows: Vec<Vec<Tile>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.chars().map(|c| Tile::from_xsb(c).expect("xsb character")).collect())
        .collect();
    let n = rows.len();
    Grid { rows, title: None, lines: vec![None; n] }.validate().expect("valid level")
}

/// Like [`level`] but returns `None` for an invalid level.
pub fn try_level(text: &str) -> Option<Level> {
    let rows: Vec<Vec<Tile>> = text
        .lines()
        .map(|l| l.chars().map(|c| Tile::from_xsb(c).expect("xsb character")).collect())
        .collect();
    let n = rows.len();
    Grid { rows, title: None, lines: vec![None; n] }.validate().ok()
}

/// The square at (row, column).
pub fn sq(lv: &Level, r: usize, c: usize) -> Square {
    lv.board.square(r, c)
}

/// Moves as LURD text.
pub fn lurd(moves: &[Move]) -> String {
    moves.iter().map(|m| m.lurd()).collect()
}

/// Replay `moves` from `pos` with [`Position::apply`]: every move must be legal with the push
/// flag it claims, every push must push the selected box, and the box must end on `target`.
/// Returns the number of pushes.
pub fn replay(
    board: &Board,
    pos: &Position,
    box_sq: Square,
    target: Square,
    moves: &[Move],
) -> usize {
    let mut p = pos.clone();
    let mut b = box_sq;
    let mut pushes = 0;
    for (i, m) in moves.iter().enumerate() {
        let next = board.neighbor(p.player, m.dir).expect("on board");
        let applied = p.apply(board, m.dir);
        assert_eq!(applied, Some(*m), "move {i} ({}) of {}", m.lurd(), lurd(moves));
        if m.push {
            assert_eq!(next, b, "move {i} pushes another box");
            b = board.neighbor(b, m.dir).unwrap();
            pushes += 1;
        }
    }
    assert_eq!(b, target, "box ends on the target");
    assert!(p.has_box(target));
    // The other boxes did not move.
    for s in 0..board.len() {
        if s != target && s != box_sq {
            assert_eq!(p.boxes[s], pos.boxes[s], "other box at {s} changed");
        }
    }
    pushes
}

/// Brute force: Dijkstra over (player, box) states with lexicographic (pushes, moves) cost, the
/// other boxes acting as walls. Returns, per square, the best (pushes, moves) to get the box
/// there, or `None`.
pub fn brute(board: &Board, pos: &Position, box_sq: Square) -> Vec<Option<(u32, u32)>> {
    let n = board.len();
    let wall = |s: Square| !board.is_floor(s) || (pos.boxes[s] && s != box_sq);
    let mut best = vec![None; n];
    let mut seen = vec![(u32::MAX, u32::MAX); n * n];
    let mut heap = BinaryHeap::new();
    let start = pos.player * n + box_sq;
    seen[start] = (0, 0);
    heap.push(Reverse(((0u32, 0u32), pos.player, box_sq)));
    while let Some(Reverse((cost, p, b))) = heap.pop() {
        if seen[p * n + b] != cost {
            continue;
        }
        if best[b].is_none_or(|c| cost < c) {
            best[b] = Some(cost);
        }
        for d in Dir::ALL {
            let Some(q) = board.neighbor(p, d) else {
                continue;
            };
            if wall(q) {
                continue;
            }
            let (state, c) = if q == b {
                let Some(r) = board.neighbor(b, d) else {
                    continue;
                };
                if wall(r) {
                    continue;
                }
                ((q, r), (cost.0 + 1, cost.1 + 1))
            } else {
                ((q, b), (cost.0, cost.1 + 1))
            };
            let k = state.0 * n + state.1;
            if c < seen[k] {
                seen[k] = c;
                heap.push(Reverse((c, state.0, state.1)));
            }
        }
    }
    best
}

/// Plain BFS walking distances (boxes are walls).
pub fn walk_bfs(board: &Board, pos: &Position) -> Vec<Option<u32>> {
    let mut dist = vec![None; board.len()];
    dist[pos.player] = Some(0);
    let mut q = VecDeque::from([pos.player]);
    while let Some(s) = q.pop_front() {
        for d in Dir::ALL {
            if let Some(n) = board.floor_neighbor(s, d) {
                if !pos.boxes[n] && dist[n].is_none() {
                    dist[n] = Some(dist[s].unwrap() + 1);
                    q.push_back(n);
                }
            }
        }
    }
    dist
}
