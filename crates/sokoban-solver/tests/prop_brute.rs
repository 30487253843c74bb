//! Property tests (proptest, with shrinking): on random small levels, the optimal search's
//! push count equals a brute-force breadth-first search over pushes, it calls a level
//! unsolvable exactly when the brute force finds no solution, and the fast search never
//! contradicts the brute force (its solutions replay, have at least the fewest pushes, and
//! it calls nothing unsolvable that has a solution). Self-contained: its own level drawing
//! and brute force.

use std::collections::{HashSet, VecDeque};

use proptest::prelude::*;
use sokoban_core::{Dir, Game, Grid, Level, Tile};
use sokoban_solver::{Mode, Options, Status, StdClock};

/// A random level: up to 5 x 5 squares inside walls, a quarter of them walls, 1-3 boxes
/// and as many goals (drawings that are not valid levels are drawn again).
fn small_level() -> impl Strategy<Value = Level> {
    (1usize..=5, 1usize..=5, 1usize..=3)
        .prop_flat_map(|(w, h, boxes)| {
            (
                Just((w, h, boxes)),
                prop::collection::vec(prop::bool::weighted(0.25), w * h),
                prop::collection::vec(any::<prop::sample::Index>(), 8),
            )
        })
        .prop_filter_map("not a valid level", |((w, h, boxes), walls, picks)| {
            draw(w, h, boxes, &walls, &picks)
        })
}

fn draw(
    w: usize,
    h: usize,
    boxes: usize,
    walls: &[bool],
    picks: &[prop::sample::Index],
) -> Option<Level> {
    let mut rows = vec![vec!['#'; w + 2]; h + 2];
    let mut floor = Vec::new();
    for r in 0..h {
        for c in 0..w {
            if !walls[r * w + c] {
                rows[r + 1][c + 1] = ' ';
                floor.push((r + 1, c + 1));
            }
        }
    }
    if floor.len() < boxes + 1 {
        return None;
    }
    for (i, p) in picks.iter().enumerate().take(boxes + 1) {
        let j = i + p.index(floor.len() - i);
        floor.swap(i, j);
    }
    let (pr, pc) = floor[0];
    rows[pr][pc] = '@';
    for &(r, c) in &floor[1..=boxes] {
        rows[r][c] = '$';
    }
    let mut goals = 0;
    for p in picks.iter().skip(4).cycle().take(64) {
        if goals == boxes {
            break;
        }
        let (r, c) = floor[p.index(floor.len())];
        rows[r][c] = match rows[r][c] {
            ' ' => '.',
            '$' => '*',
            '@' => '+',
            _ => continue,
        };
        goals += 1;
    }
    let tiles: Vec<Vec<Tile>> =
        rows.iter().map(|row| row.iter().map(|&c| Tile::from_xsb(c).unwrap()).collect()).collect();
    let n = tiles.len();
    Grid { rows: tiles, title: None, lines: vec![None; n] }.validate().ok()
}

/// The fewest pushes that solve the level, by breadth-first search over (boxes, the
/// player's area), or `None` when no solution exists.
fn brute_force(level: &Level) -> Option<usize> {
    let b = &level.board;
    let n = b.len();
    let floor = |s: usize| b.is_floor(s);
    // The player's area: the squares it reaches; named by the smallest.
    let reach = |player: usize, boxes: &[bool]| -> Vec<bool> {
        let mut seen = vec![false; n];
        let mut stack = vec![player];
        seen[player] = true;
        while let Some(s) = stack.pop() {
            for d in Dir::ALL {
                if let Some(t) = b.neighbor(s, d) {
                    if floor(t) && !boxes[t] && !seen[t] {
                        seen[t] = true;
                        stack.push(t);
                    }
                }
            }
        }
        seen
    };
    let solved = |boxes: &[bool]| (0..n).all(|s| !boxes[s] || b.is_goal(s));
    let start_boxes = level.start.boxes.clone();
    let start_area = reach(level.start.player, &start_boxes);
    let key = |boxes: &[bool], area: &[bool]| (boxes.to_vec(), area.iter().position(|&x| x));
    let mut seen = HashSet::new();
    seen.insert(key(&start_boxes, &start_area));
    let mut queue = VecDeque::from([(start_boxes, level.start.player, 0usize)]);
    while let Some((boxes, player, pushes)) = queue.pop_front() {
        if solved(&boxes) {
            return Some(pushes);
        }
        let area = reach(player, &boxes);
        for s in (0..n).filter(|&s| boxes[s]) {
            for d in Dir::ALL {
                let (Some(stand), Some(to)) = (b.neighbor(s, d.opposite()), b.neighbor(s, d))
                else {
                    continue;
                };
                if !area[stand] || !floor(to) || boxes[to] {
                    continue;
                }
                let mut next = boxes.clone();
                next[s] = false;
                next[to] = true;
                let a = reach(s, &next);
                if seen.insert(key(&next, &a)) {
                    queue.push_back((next, s, pushes + 1));
                }
            }
        }
    }
    None
}

fn options(mode: Mode) -> Options {
    Options {
        time_limit_ms: Some(60_000.0),
        node_limit: Some(if mode == Mode::Optimal { 5_000_000 } else { 200_000 }),
        table_mib: 4,
        progress_interval_ms: 1e9,
        mode,
        ..Options::default()
    }
}

/// Run a search; a solution must replay with the rules engine.
fn run(level: &Level, mode: Mode) -> Result<(Status, Option<usize>), TestCaseError> {
    let r = sokoban_solver::solve(level, &level.start, options(mode), &StdClock::new(), |_| true)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_ne!(r.status, Status::Error, "{:?}", r.error);
    let pushes = match &r.solution {
        Some(s) => {
            let mut g = Game::new(level.clone());
            g.play(&s.moves).map_err(|e| TestCaseError::fail(e.message))?;
            prop_assert!(g.is_solved(), "the solution does not solve the level");
            prop_assert_eq!(g.pushes(), s.pushes);
            Some(s.pushes)
        }
        None => None,
    };
    Ok((r.status, pushes))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn optimal_push_counts_equal_brute_force(level in small_level()) {
        let xsb = sokoban_core::format::to_xsb(&level);
        let want = brute_force(&level);
        let (status, pushes) = run(&level, Mode::Optimal)?;
        match want {
            Some(p) => {
                prop_assert_eq!(status, Status::Solved, "{}", xsb);
                prop_assert_eq!(pushes, Some(p), "{}", xsb);
            }
            None => prop_assert_eq!(status, Status::Unsolvable, "{}", xsb),
        }
    }

    #[test]
    fn fast_search_agrees_with_brute_force(level in small_level()) {
        let xsb = sokoban_core::format::to_xsb(&level);
        let want = brute_force(&level);
        let (status, pushes) = run(&level, Mode::Fast)?;
        match (want, status) {
            (Some(p), Status::Solved) => prop_assert!(pushes.unwrap() >= p, "{}", xsb),
            (Some(_), Status::Unsolvable) => {
                return Err(TestCaseError::fail(format!("solvable, called unsolvable:\n{xsb}")))
            }
            (None, Status::Solved) => {
                return Err(TestCaseError::fail(format!("solved an unsolvable level:\n{xsb}")))
            }
            (Some(_), _) => {
                return Err(TestCaseError::fail(format!("not solved within 200,000 moves:\n{xsb}")))
            }
            (None, _) => {}
        }
    }
}
