//! Property tests against brute force on random small boards (proptest, with shrinking)
//! and on warehouse fixtures.

mod common;

use common::{brute, lurd, replay, try_level, walk_bfs};
use proptest::prelude::*;
use sokoban_core::{Dir, Level};
use sokoban_path::{
    box_path, fixtures, walk_distances, walk_path, BoxReach, BoxSearch, Cells, Grid,
};

/// A random board: border walls, random interior walls (10-35%), 1-3 boxes, as many goals
/// (drawings that are not valid levels are drawn again).
fn random_level() -> impl Strategy<Value = Level> {
    (6usize..9, 6usize..9, 10usize..35, 1usize..4)
        .prop_flat_map(|(w, h, wall_pct, boxes)| {
            (
                Just((w, h, boxes)),
                prop::collection::vec(prop::bool::weighted(wall_pct as f64 / 100.0), w * h),
                prop::collection::vec(any::<prop::sample::Index>(), 8),
            )
        })
        .prop_filter_map("not a valid level", |((w, h, boxes), walls, picks)| {
            draw_level(w, h, boxes, &walls, &picks)
        })
}

#[allow(clippy::needless_range_loop)] // the first picks place the player and the boxes
fn draw_level(
    w: usize,
    h: usize,
    boxes: usize,
    walls: &[bool],
    picks: &[prop::sample::Index],
) -> Option<Level> {
    let mut grid = vec![vec!['#'; w]; h];
    let mut floor = Vec::new();
    for (r, row) in grid.iter_mut().enumerate().take(h - 1).skip(1) {
        for (c, ch) in row.iter_mut().enumerate().take(w - 1).skip(1) {
            if !walls[r * w + c] {
                *ch = ' ';
                floor.push((r, c));
            }
        }
    }
    if floor.len() < boxes + 2 {
        return None;
    }
    // Distinct squares for the player and the boxes; goals anywhere on floor.
    for i in 0..=boxes {
        let j = i + picks[i].index(floor.len() - i);
        floor.swap(i, j);
    }
    let (pr, pc) = floor[0];
    grid[pr][pc] = '@';
    for &(r, c) in &floor[1..=boxes] {
        grid[r][c] = '$';
    }
    let mut goals = 0;
    for p in picks.iter().skip(4).cycle().take(64) {
        if goals == boxes {
            break;
        }
        let (r, c) = floor[p.index(floor.len())];
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Box reach and box paths (fewest pushes, then fewest moves) and walks against the
    /// brute force, on every box and every target of a random board.
    #[test]
    fn random_small_boards_match_brute_force(lv in random_level()) {
        check_level(&lv);
        check_walks(&lv);
    }
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

/// Brute force for [`BoxReach`]: 0-1 BFS over (player, box) squares, pushes (or pulls)
/// costing one.
/// Returns every (box square, player area) the box can be left in with at least one push,
/// the area named by its smallest square, with the fewest pushes, sorted.
fn brute_ends(lv: &Level, box_sq: usize, forbid: &[bool], pull: bool) -> Vec<(usize, usize, u32)> {
    use std::collections::VecDeque;
    let (board, pos) = (&lv.board, &lv.start);
    let n = board.len();
    let wall = |s: usize| !board.is_floor(s) || (pos.boxes[s] && s != box_sq);
    let mut dist = vec![u32::MAX; n * n];
    let mut dq = VecDeque::from([(pos.player, box_sq, 0u32)]);
    dist[pos.player * n + box_sq] = 0;
    while let Some((p, b, k)) = dq.pop_front() {
        if dist[p * n + b] != k {
            continue;
        }
        for d in Dir::ALL {
            let Some(q) = board.neighbor(p, d).filter(|&q| !wall(q)) else { continue };
            if pull && q != b && board.neighbor(p, d.opposite()) == Some(b) && !forbid[p] {
                // Step away from the box, pulling it along.
                if k + 1 < dist[q * n + p] {
                    dist[q * n + p] = k + 1;
                    dq.push_back((q, p, k + 1));
                }
            }
            if q == b && pull {
                continue;
            }
            if q == b {
                let Some(r) = board.neighbor(b, d).filter(|&r| !wall(r) && !forbid[r]) else {
                    continue;
                };
                if k + 1 < dist[q * n + r] {
                    dist[q * n + r] = k + 1;
                    dq.push_back((q, r, k + 1));
                }
            } else if k < dist[q * n + b] {
                dist[q * n + b] = k;
                dq.push_front((q, b, k));
            }
        }
    }
    // Per box square: the player's areas (smallest square) with their fewest pushes.
    let area_min = |b: usize, p: usize| {
        let mut seen = vec![false; n];
        let mut stack = vec![p];
        seen[p] = true;
        let mut min = p;
        while let Some(s) = stack.pop() {
            min = min.min(s);
            for d in Dir::ALL {
                if let Some(t) = board.neighbor(s, d) {
                    if !wall(t) && t != b && !seen[t] {
                        seen[t] = true;
                        stack.push(t);
                    }
                }
            }
        }
        min
    };
    let mut best: std::collections::BTreeMap<(usize, usize), u32> = Default::default();
    let mut at_start = Vec::new();
    for p in 0..n {
        for b in 0..n {
            let k = dist[p * n + b];
            if k == u32::MAX {
                continue;
            }
            let a = area_min(b, p);
            if k == 0 {
                at_start.push((b, a));
            }
            let e = best.entry((b, a)).or_insert(k);
            *e = (*e).min(k);
        }
    }
    best.into_iter()
        .filter(|(key, _)| !at_start.contains(key))
        .map(|((b, a), k)| (b, a, k))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The reusable search behind the solver's macro moves: one `BoxReach` for every box of a
    /// board (its scratch reset between searches), squares forbidden to boxes left out, each
    /// end a distinct (square, player area) with the fewest pushes, and each end's path a
    /// legal push sequence that leaves the player in that area; pulls (the reverse game) give
    /// the ends the brute force finds with pulls.
    #[test]
    fn box_reach_ends_match_brute_force(
        lv in random_level(),
        forbidden in prop::collection::vec(prop::bool::weighted(0.1), 64),
    ) {
        box_reach_ends(&lv, &forbidden);
    }
}

/// Connected areas of the floor squares holding no box, by plain search.
fn free_areas(lv: &Level) -> usize {
    let (board, pos) = (&lv.board, &lv.start);
    let free = |s: usize| board.is_floor(s) && !pos.has_box(s);
    let mut seen = vec![false; board.len()];
    let mut areas = 0;
    for s in (0..board.len()).filter(|&s| free(s)) {
        if seen[s] {
            continue;
        }
        areas += 1;
        seen[s] = true;
        let mut stack = vec![s];
        while let Some(x) = stack.pop() {
            for d in Dir::ALL {
                if let Some(y) = board.neighbor(x, d).filter(|&y| free(y) && !seen[y]) {
                    seen[y] = true;
                    stack.push(y);
                }
            }
        }
    }
    areas
}

fn box_reach_ends(lv: &Level, forbidden: &[bool]) {
    let (mut checked, mut pulls) = (0, 0);
    {
        let (board, pos) = (&lv.board, &lv.start);
        let grid = Grid::new(board);
        let mut cells = Cells::new(&grid, board, Some(pos));
        let forbid: Vec<bool> =
            (0..board.len()).map(|s| board.is_floor(s) && forbidden[s % 64]).collect();
        for (s, _) in forbid.iter().enumerate().filter(|(_, &f)| f) {
            cells.forbid_box(grid.index(s));
        }
        let mut reach = BoxReach::new(&grid);
        let mut lifted = BoxReach::new(&grid);
        let walk = walk_distances(board, pos);
        for b in pos.box_squares() {
            let bi = grid.index(b);
            cells.unblock(&grid, bi);
            let mut sides = 0u8;
            for d in Dir::ALL {
                if board.neighbor(b, d).is_some_and(|s| walk[s] != u32::MAX) {
                    sides |= 1 << d.index();
                }
            }
            reach.search(&grid, &cells, bi, sides);
            let mut got = Vec::new();
            let mut path = Vec::new();
            for &node in reach.ends() {
                let (t, side) = (grid.square(node as usize / 4), node as usize % 4);
                let k = reach.pushes(node as usize).unwrap();
                // Replay the path with the rules.
                reach.path(&grid, node as usize, &mut path);
                assert_eq!(path.len() as u32, k + 1);
                let mut p = pos.clone();
                for w in path.windows(2) {
                    let from = grid.square(w[0] as usize / 4);
                    let dir = Dir::from_index((w[1] as usize % 4) ^ 2);
                    let stand = board.neighbor(from, dir.opposite()).unwrap();
                    let walk = sokoban_path::walk_path(board, &p, stand).expect("walkable");
                    for d in walk {
                        p.apply(board, d).unwrap();
                    }
                    let m = p.apply(board, dir).expect("legal push");
                    assert!(m.push);
                    assert!(!forbid[board.neighbor(from, dir).unwrap()]);
                }
                assert!(p.has_box(t));
                let player = board.neighbor(t, Dir::from_index(side)).unwrap();
                assert_eq!(p.player, player);
                // The area, named by its smallest square.
                let area = walk_distances(board, &p).iter().position(|&d| d != u32::MAX).unwrap();
                got.push((t, area, k));
            }
            got.sort();
            let want = brute_ends(lv, b, &forbid, false);
            assert_eq!(got, want, "box {b}\n{}", sokoban_core::format::to_xsb(lv));
            checked += got.len();
            // Pulls: the same ends (square, player area, fewest pulls).
            reach.search_pulls(&grid, &cells, bi, sides);
            let mut pulled = Vec::new();
            for &node in reach.ends() {
                let (t, side) = (grid.square(node as usize / 4), node as usize % 4);
                let mut p = pos.clone();
                p.boxes[b] = false;
                p.boxes[t] = true;
                p.player = board.neighbor(t, Dir::from_index(side)).unwrap();
                let area = walk_distances(board, &p).iter().position(|&d| d != u32::MAX).unwrap();
                pulled.push((t, area, reach.pushes(node as usize).unwrap()));
                // The path replays as pulls: walk beside the box, step away, the box follows.
                reach.path(&grid, node as usize, &mut path);
                let mut q = pos.clone();
                for w in path.windows(2) {
                    let from = grid.square(w[0] as usize / 4);
                    let e = Dir::from_index(w[1] as usize % 4);
                    let stand = board.neighbor(from, e).unwrap();
                    for d in sokoban_path::walk_path(board, &q, stand).expect("walkable") {
                        q.apply(board, d).unwrap();
                    }
                    let away = board.neighbor(stand, e).unwrap();
                    assert!(q.is_free(board, away), "room to step away");
                    q.boxes[from] = false;
                    q.boxes[stand] = true;
                    q.player = away;
                }
                assert!(q.has_box(t));
                assert_eq!(q.player, p.player);
            }
            pulled.sort();
            assert_eq!(pulled, brute_ends(lv, b, &forbid, true), "pulls of box {b}");
            // From the position's blocks with the box lifted: the same search.
            let reached: Vec<(u32, Option<u32>)> =
                reach.reached().iter().map(|&v| (v, reach.pushes(v as usize))).collect();
            cells.block(&grid, bi);
            lifted.prepare_position(&grid, &cells);
            assert_eq!(lifted.areas() as usize, free_areas(lv), "areas of the free floor");
            cells.unblock(&grid, bi);
            lifted.search_pulls_lifted(&grid, &cells, bi, sides);
            let again: Vec<(u32, Option<u32>)> =
                lifted.reached().iter().map(|&v| (v, lifted.pushes(v as usize))).collect();
            assert_eq!(again, reached, "lifted pulls of box {b}");
            assert_eq!(lifted.ends(), reach.ends(), "lifted pull ends of box {b}");
            pulls += pulled.len();
            cells.block(&grid, bi);
        }
    }
    // Counted for the record (a board may have no ends at all).
    let _ = (checked, pulls);
}
