//! 15-puzzles and other boards with positions written here: positions a known number of
//! moves from the goal (breadth-first search), random walks solved with independent lower
//! bounds (pattern databases against linear conflicts and the Manhattan distance), the
//! same position against the blank-first and the blank-last goal, and the heuristics'
//! admissibility on every position near the goal.

mod common;

use tile_puzzle::ida::{Heuristic, LinearConflict, Manhattan, Pdb};
use tile_puzzle::{Board, DbCache, GoalKind, HeuristicKind, Rng};

/// Every `step`-th position of the breadth-first search to `depth` is solved with the
/// pattern databases; its length must be its depth. Returns how many were checked.
fn check_bfs_sample(goal: &Board, depth: usize, step: usize, cache: &DbCache) -> usize {
    let dist = common::bfs(goal, depth);
    let mut keys: Vec<_> = dist.iter().filter(|(_, &d)| d as usize >= depth / 2).collect();
    keys.sort();
    let mut checked = 0;
    for (s, &d) in keys.into_iter().step_by(step) {
        let b = Board::new(goal.width(), goal.height(), common::unpack(*s, goal.len())).unwrap();
        assert_eq!(common::length(&b, goal, HeuristicKind::Auto, cache), d as usize, "{b:?}");
        checked += 1;
    }
    checked
}

#[test]
fn fifteen_puzzle_positions_near_the_goal_have_their_bfs_length() {
    let cache = DbCache::new();
    for kind in [GoalKind::BlankFirst, GoalKind::BlankLast] {
        let goal = Board::goal(4, 4, kind).unwrap();
        assert!(check_bfs_sample(&goal, 16, 997, &cache) > 200);
    }
}

#[test]
fn heuristics_never_overestimate_near_the_goal() {
    let cache = DbCache::new();
    let goal = Board::goal(4, 4, GoalKind::BlankFirst).unwrap();
    // Builds the tables (and checks one solve).
    let start = Board::random_walk(&goal, 30, &mut Rng::new(1));
    common::solve(&start, &goal, HeuristicKind::PatternDb, &cache);
    let tables: Vec<_> = tile_puzzle::pdb::partition(4, 4, 0)
        .iter()
        .map(|g| cache.get(4, 4, g).expect("built"))
        .collect();
    let g = goal.tiles();
    let mut pdb = Pdb::new(4, g, tables, true);
    assert!(pdb.mirrored());
    let mut lc = LinearConflict::new(4, g);
    let mut md = Manhattan::new(4, g);
    let dist = common::bfs(&goal, 14);
    for (s, &d) in &dist {
        let t = common::unpack(*s, 16);
        let (hp, hl, hm) = (pdb.reset(&t), lc.reset(&t), md.reset(&t));
        assert!(hp <= d as u32 && hl <= d as u32 && hm <= hl, "{t:?} at {d}: {hp} {hl} {hm}");
        // Lower bounds and the true distance have the same parity on this board.
        assert_eq!((hm + d as u32) % 2, 0);
    }
}

#[test]
fn random_walks_agree_across_heuristics_and_goals() {
    let cache = DbCache::new();
    let first = Board::goal(4, 4, GoalKind::BlankFirst).unwrap();
    let last = Board::goal(4, 4, GoalKind::BlankLast).unwrap();
    let mut rng = Rng::new(2024);
    for i in 0..24 {
        let start = Board::random_walk(&first, 40 + 2 * i, &mut rng);
        let n = common::length(&start, &first, HeuristicKind::PatternDb, &cache);
        assert_eq!(n, common::length(&start, &first, HeuristicKind::LinearConflict, &cache));
        if n <= 34 {
            assert_eq!(n, common::length(&start, &first, HeuristicKind::Manhattan, &cache));
        }
        // The same position turned half round, against the blank-last goal: tile t of the
        // blank-first goal is tile 16 - t of the blank-last one.
        let turned: Vec<u8> =
            start.tiles().iter().rev().map(|&t| if t == 0 { 0 } else { 16 - t }).collect();
        let turned = Board::new(4, 4, turned).unwrap();
        assert_eq!(n, common::length(&turned, &last, HeuristicKind::Auto, &cache));
        // Without the mirror lookup: the same length.
        let clock = tile_puzzle::StdClock::new();
        let options = tile_puzzle::Options { mirror: false, ..Default::default() };
        let r = tile_puzzle::solve(&start, &first, options, &cache, &clock).unwrap();
        assert_eq!(r.solution.unwrap().moves.len(), n);
    }
}

#[test]
fn other_boards_match_breadth_first_search() {
    let cache = DbCache::new();
    for (w, h) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (2, 5), (5, 2)] {
        for kind in [GoalKind::BlankFirst, GoalKind::BlankLast] {
            let goal = Board::goal(w, h, kind).unwrap();
            let dist = common::bfs(&goal, 200);
            let mut keys: Vec<_> = dist.iter().collect();
            keys.sort();
            // Every position of the small boards, about 1,500 of the 10-cell ones.
            let step = if dist.len() < 30_000 { 1 } else { dist.len() / 1500 };
            for (s, &d) in keys.into_iter().step_by(step) {
                let b = Board::new(w, h, common::unpack(*s, w * h)).unwrap();
                for hk in [HeuristicKind::Auto, HeuristicKind::PatternDb] {
                    assert_eq!(common::length(&b, &goal, hk, &cache), d as usize, "{b:?} {hk:?}");
                }
            }
        }
    }
    for (w, h) in [(3, 4), (4, 3), (3, 5), (5, 3), (4, 5), (5, 4)] {
        let goal = Board::goal(w, h, GoalKind::BlankLast).unwrap();
        assert!(check_bfs_sample(&goal, 13, 301, &cache) > 10);
    }
}

#[test]
fn a_goal_with_the_blank_in_the_middle() {
    let cache = DbCache::new();
    let goal = Board::parse("1 2 3 4 5 6 7 0 8 9 10 11 12 13 14 15", None).unwrap();
    assert!(check_bfs_sample(&goal, 12, 211, &cache) > 10);
    let start = Board::random_walk(&goal, 60, &mut Rng::new(5));
    assert_eq!(
        common::length(&start, &goal, HeuristicKind::Auto, &cache),
        common::length(&start, &goal, HeuristicKind::LinearConflict, &cache)
    );
}

#[test]
fn twenty_four_puzzle_random_walks() {
    let cache = DbCache::new();
    let goal = Board::goal(5, 5, GoalKind::BlankFirst).unwrap();
    let mut rng = Rng::new(24);
    for i in 0..4 {
        let start = Board::random_walk(&goal, 30 + 4 * i, &mut rng);
        let n = common::length(&start, &goal, HeuristicKind::Auto, &cache);
        assert_eq!(n, common::length(&start, &goal, HeuristicKind::LinearConflict, &cache));
    }
    assert_eq!(cache.len(), 5, "5-5-5-5-4 tables kept");
}
