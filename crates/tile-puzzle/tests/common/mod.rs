//! Helpers of the tests: breadth-first search from a goal over whole (small) state spaces
//! or to a depth, positions packed 5 bits per cell.

#![allow(dead_code)]

use std::collections::HashMap;

use tile_puzzle::{board::neighbor, Board, DbCache, Dir, HeuristicKind, Options, Report};

pub fn pack(tiles: &[u8]) -> u128 {
    tiles.iter().enumerate().fold(0, |s, (i, &t)| s | (t as u128) << (5 * i))
}

pub fn unpack(s: u128, n: usize) -> Vec<u8> {
    (0..n).map(|i| ((s >> (5 * i)) & 31) as u8).collect()
}

/// Distances from `goal` of every position within `max_depth` moves (all of them when the
/// space is small enough and `max_depth` is large).
pub fn bfs(goal: &Board, max_depth: usize) -> HashMap<u128, u8> {
    let (w, h, n) = (goal.width(), goal.height(), goal.len());
    let mut dist = HashMap::new();
    let start = pack(goal.tiles());
    dist.insert(start, 0u8);
    let mut layer = vec![start];
    for d in 1..=max_depth {
        let mut next = Vec::new();
        for &s in &layer {
            let t = unpack(s, n);
            let b = t.iter().position(|&x| x == 0).unwrap();
            for dir in Dir::ALL {
                if let Some(q) = neighbor(w, h, b, dir) {
                    let mut u = t.clone();
                    u.swap(b, q);
                    let p = pack(&u);
                    if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(p) {
                        e.insert(d as u8);
                        next.push(p);
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        layer = next;
    }
    dist
}

/// Solve and check that the solution replays from `start` to `goal`.
pub fn solve(start: &Board, goal: &Board, heuristic: HeuristicKind, cache: &DbCache) -> Report {
    let clock = tile_puzzle::StdClock::new();
    let options = Options { heuristic, ..Options::default() };
    let r = tile_puzzle::solve(start, goal, options, cache, &clock).expect("solver");
    if let Some(sol) = &r.solution {
        let mut b = start.clone();
        b.play(&sol.moves).expect("legal moves");
        assert_eq!(&b, goal, "the solution reaches the goal");
    }
    r
}

/// Length of the optimal solution found (panics if none).
pub fn length(start: &Board, goal: &Board, heuristic: HeuristicKind, cache: &DbCache) -> usize {
    let r = solve(start, goal, heuristic, cache);
    assert_eq!(r.status, tile_puzzle::Status::Solved, "{start:?}: {r:?}");
    r.solution.unwrap().moves.len()
}
