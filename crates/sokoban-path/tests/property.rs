//! Property tests against brute force on random small boards and on warehouse fixtures.

mod common;

use common::{brute, lurd, replay, try_level, walk_bfs, Rng};
use sokoban_core::{Dir, Level};
use sokoban_path::{box_path, fixtures, walk_distances, walk_path, BoxSearch};

/// A random board: border walls, random interior walls, 1-3 boxes, as many goals.
fn random_level(rng: &mut Rng) -> Option<Level> {
    let w = 6 + rng.below(3);
    let h = 6 + rng.below(3);
    let wall_pct = 10 + rng.below(25);
    let mut grid = vec![vec!['#'; w]; h];
    let mut floor = Vec::new();
    for (r, row) in grid.iter_mut().enumerate().take(h - 1).skip(1) {
        for (c, ch) in row.iter_mut().enumerate().take(w - 1).skip(1) {
            if rng.below(100) >= wall_pct {
                *ch = ' ';
                floor.push((r, c));
            }
        }
    }
    let boxes = 1 + rng.below(3);
    if floor.len() < boxes + 2 {
        return None;
    }
    // Distinct squares for the player and the boxes; goals anywhere on floor.
    for i in 0..=boxes {
        let j = i + rng.below(floor.len() - i);
        floor.swap(i, j);
    }
    let (pr, pc) = floor[0];
    grid[pr][pc] = '@';
    for &(r, c) in &floor[1..=boxes] {
        grid[r][c] = '$';
    }
    let mut goals = 0;
    while goals < boxes {
        let (r, c) = floor[rng.below(floor.len())];
        grid[r][c] = match grid[r][c] {
            ' ' => '.',
            '$' => '*',
            '@' => '+',
            _ => continue,
        };
        goals += 1;
    }
    let text: String = grid.iter().map(|row| row.iter().collect::<String>() + "\n").collect();
    try_level(&text)
}

/// Check every box of a level: reachability and every path against the brute force.
fn check_level(lv: &Level) -> usize {
    let (board, pos) = (&lv.board, &lv.start);
    let mut paths = 0;
    for b in pos.box_squares() {
        let search = BoxSearch::new(board, pos, b);
        let best = brute(board, pos, b);
        let expect: Vec<usize> = (0..board.len()).filter(|&s| best[s].is_some()).collect();
        assert_eq!(search.reachable(), expect, "box {b}");
        for (t, &best) in best.iter().enumerate() {
            assert_eq!(search.can_reach(t), best.is_some(), "box {b} target {t}");
            assert_eq!(search.pushes_to(t), best.map(|(p, _)| p as usize));
            let moves = search.path_to(t);
            let Some((pushes, total)) = best else {
                assert_eq!(moves, None);
                continue;
            };
            let moves = moves.expect("reachable target has a path");
            let got = replay(board, pos, b, t, &moves);
            assert_eq!(
                (got as u32, moves.len() as u32),
                (pushes, total),
                "box {b} target {t}: {}",
                lurd(&moves)
            );
            paths += 1;
        }
        // A few targets again through the free function: same answer.
        for &t in expect.iter().step_by(3) {
            assert_eq!(box_path(board, pos, b, t), search.path_to(t));
        }
    }
    paths
}

/// walk_path and walk_distances against plain BFS.
fn check_walks(lv: &Level) {
    let (board, pos) = (&lv.board, &lv.start);
    let bfs = walk_bfs(board, pos);
    let dists = walk_distances(board, pos);
    for t in 0..board.len() {
        assert_eq!(dists[t], bfs[t].unwrap_or(u32::MAX));
        let path = walk_path(board, pos, t);
        assert_eq!(path.as_ref().map(|p| p.len() as u32), bfs[t], "target {t}");
        if let Some(path) = path {
            let mut p = pos.clone();
            for &d in &path {
                let m = p.apply(board, d).expect("legal walk");
                assert!(!m.push);
            }
            assert_eq!(p.player, t);
        }
    }
}

#[test]
fn random_small_boards_match_brute_force() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut boards, mut paths) = (0, 0);
    while boards < 500 {
        if let Some(lv) = random_level(&mut rng) {
            paths += check_level(&lv);
            check_walks(&lv);
            boards += 1;
        }
    }
    assert!(paths > 3000, "only {paths} paths checked");
}

#[test]
fn warehouse_fixtures_match_brute_force() {
    for seed in 0..6 {
        let lv = fixtures::warehouse(20, 14, seed);
        check_level(&lv);
        check_walks(&lv);
    }
}

#[test]
fn paths_are_deterministic() {
    let lv = fixtures::warehouse(40, 25, 11);
    for b in lv.start.box_squares() {
        let a = BoxSearch::new(&lv.board, &lv.start, b);
        let c = BoxSearch::new(&lv.board, &lv.start, b);
        for t in a.reachable() {
            assert_eq!(a.path_to(t), c.path_to(t));
        }
    }
    let far = walk_distances(&lv.board, &lv.start)
        .iter()
        .enumerate()
        .filter(|(_, &d)| d != u32::MAX)
        .max_by_key(|(_, &d)| d)
        .map(|(s, _)| s)
        .unwrap();
    let w: Vec<Dir> = walk_path(&lv.board, &lv.start, far).unwrap();
    assert_eq!(Some(w), walk_path(&lv.board, &lv.start, far));
}
