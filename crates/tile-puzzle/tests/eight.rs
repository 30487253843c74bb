//! The 8-puzzle, exhaustively: every one of the 181,440 positions that reach the goal is
//! solved (A* with the Manhattan distance, through the solver, its solution replayed) and
//! its length compared with a breadth-first search from the goal; every other position is
//! answered "unsolvable" without a search. The IDA* with pattern databases is checked on
//! every 16th position too.

mod common;

use tile_puzzle::{Board, DbCache, GoalKind, HeuristicKind, Status};

fn all_permutations(n: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut p: Vec<u8> = (0..n as u8).collect();
    // Heap's algorithm.
    let mut c = vec![0usize; n];
    out.push(p.clone());
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                p.swap(0, i);
            } else {
                p.swap(c[i], i);
            }
            out.push(p.clone());
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    out
}

#[test]
fn every_8_puzzle_position_has_its_bfs_length() {
    let goal = Board::goal(3, 3, GoalKind::BlankLast).unwrap();
    let dist = common::bfs(&goal, 100);
    assert_eq!(dist.len(), 181_440);
    assert_eq!(dist.values().copied().max(), Some(31));
    let cache = DbCache::new();
    let (mut solved, mut unsolvable) = (0, 0);
    for (i, tiles) in all_permutations(9).into_iter().enumerate() {
        let start = Board::new(3, 3, tiles.clone()).unwrap();
        let want = dist.get(&common::pack(&tiles)).copied();
        let r = common::solve(&start, &goal, HeuristicKind::Auto, &cache);
        match want {
            Some(d) => {
                assert_eq!(r.status, Status::Solved, "{start:?}");
                assert_eq!(r.solution.as_ref().unwrap().moves.len(), d as usize, "{start:?}");
                solved += 1;
                if i % 16 == 0 {
                    let n = common::length(&start, &goal, HeuristicKind::PatternDb, &cache);
                    assert_eq!(n, d as usize, "IDA* with databases, {start:?}");
                }
            }
            None => {
                assert_eq!(r.status, Status::Unsolvable, "{start:?}");
                assert_eq!(r.nodes, 0, "no search for an unsolvable position");
                unsolvable += 1;
            }
        }
    }
    assert_eq!((solved, unsolvable), (181_440, 181_440));
}

#[test]
fn the_judge_sample() {
    let goal = Board::goal(3, 3, GoalKind::BlankLast).unwrap();
    let cache = DbCache::new();
    let cases = [
        ("1 2 3 4 5 0 7 8 6", 1),
        ("1 2 3 4 0 5 6 7 8", 14),
        ("8 6 7 2 5 4 3 0 1", 31),
        ("6 4 7 8 5 0 3 2 1", 31),
    ];
    for (text, want) in cases {
        let b = Board::parse(text, None).unwrap();
        assert_eq!(common::length(&b, &goal, HeuristicKind::Auto, &cache), want, "{text}");
    }
    // Two tiles swapped: no solution.
    let b = Board::parse("2 1 3 4 5 6 7 8 0", None).unwrap();
    assert_eq!(common::solve(&b, &goal, HeuristicKind::Auto, &cache).status, Status::Unsolvable);
}
