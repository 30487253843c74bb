//! The optimizer on hand-made levels: wasteful solutions get their optimum (written here,
//! and checked against a brute-force search over every position), results replay and are
//! never longer, wrong solutions get an error naming the move.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use sokoban_core::format::parse_level;
use sokoban_core::lurd::to_lurd;
use sokoban_core::{Dir, Game, Level, Move, Position};
use sokoban_optimize::{
    optimize, Counts, Metric, OptimizeOptions, Optimizer, Status, StdClock, Step,
};

/// The fewest moves then pushes (or pushes then moves), then box lines and box changes, of
/// a level, by Dijkstra over every position (with the last push: the square its box went
/// to and its direction) and single step, and a solution with them: the reference the
/// optimizer is measured against. `None` when the level cannot be solved.
fn brute_force(level: &Level, metric: Metric) -> Option<(Counts, Vec<Move>)> {
    type State = (Position, Option<(usize, Dir)>);
    type Cost = (usize, usize, usize, usize);
    let board = &level.board;
    let step = |c: Cost, state: &State, m: Move| -> Cost {
        let (mut moves, mut pushes, mut lines, mut changes) = match metric {
            Metric::Moves => c,
            Metric::Pushes => (c.1, c.0, c.2, c.3),
        };
        moves += 1;
        if m.push {
            pushes += 1;
            let box_at = board.neighbor(state.0.player, m.dir).unwrap();
            let same = state.1.is_some_and(|(s, _)| s == box_at);
            changes += !same as usize;
            lines += !(same && state.1.is_some_and(|(_, d)| d == m.dir)) as usize;
        }
        match metric {
            Metric::Moves => (moves, pushes, lines, changes),
            Metric::Pushes => (pushes, moves, lines, changes),
        }
    };
    let start: State = (level.start.clone(), None);
    let mut best: HashMap<State, Cost> = HashMap::new();
    let mut ids: HashMap<State, usize> = HashMap::new();
    let mut states = vec![start.clone()];
    let mut parent: Vec<(usize, Move)> = vec![(0, Move { dir: Dir::Up, push: false })];
    let mut heap = BinaryHeap::new();
    best.insert(start.clone(), (0, 0, 0, 0));
    ids.insert(start, 0);
    heap.push(Reverse(((0, 0, 0, 0), 0usize)));
    while let Some(Reverse((c, id))) = heap.pop() {
        let state = states[id].clone();
        if best[&state] != c {
            continue;
        }
        if state.0.is_solved(board) {
            let counts = match metric {
                Metric::Moves => {
                    Counts { moves: c.0, pushes: c.1, box_lines: c.2, box_changes: c.3 }
                }
                Metric::Pushes => {
                    Counts { pushes: c.0, moves: c.1, box_lines: c.2, box_changes: c.3 }
                }
            };
            let mut moves = Vec::new();
            let mut at = id;
            while at != 0 {
                moves.push(parent[at].1);
                at = parent[at].0;
            }
            moves.reverse();
            return Some((counts, moves));
        }
        for d in Dir::ALL {
            let mut pos = state.0.clone();
            if let Some(m) = pos.apply(board, d) {
                let nc = step(c, &state, m);
                let last = if m.push {
                    Some((board.neighbor(pos.player, d).unwrap(), d))
                } else {
                    state.1
                };
                let next = (pos, last);
                if best.get(&next).is_none_or(|&old| nc < old) {
                    best.insert(next.clone(), nc);
                    let nid = *ids.entry(next.clone()).or_insert_with(|| {
                        states.push(next.clone());
                        parent.push((id, m));
                        states.len() - 1
                    });
                    parent[nid] = (id, m);
                    heap.push(Reverse((nc, nid)));
                }
            }
        }
    }
    None
}

/// True when the level can be solved from `pos`: a search over pushes between positions
/// taken as (boxes, the player's area).
fn solvable(level: &Level, pos: &Position) -> bool {
    let board = &level.board;
    let area = |p: &Position| p.reachable(board).iter().position(|&r| r).unwrap();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![pos.clone()];
    seen.insert((pos.boxes.clone(), area(pos)));
    while let Some(p) = stack.pop() {
        if p.is_solved(board) {
            return true;
        }
        let reach = p.reachable(board);
        for s in (0..board.len()).filter(|&s| reach[s]) {
            for d in Dir::ALL {
                let mut q = Position { player: s, boxes: p.boxes.clone() };
                if q.try_move(board, d).is_some_and(|m| m.push) {
                    q.apply(board, d);
                    if seen.insert((q.boxes.clone(), area(&q))) {
                        stack.push(q);
                    }
                }
            }
        }
    }
    false
}

/// A wasteful solution: `steps` random moves from the start (never into a position that
/// cannot be solved), then the fewest moves from there.
fn wasteful(level: &Level, mut seed: u64, steps: usize) -> Vec<Move> {
    let board = &level.board;
    let mut pos = level.start.clone();
    let mut moves = Vec::new();
    while moves.len() < steps {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut next = pos.clone();
        let Some(m) = next.apply(board, Dir::from_index(seed as usize % 4)) else { continue };
        // Only a push can make a position unsolvable.
        if !m.push || !next.is_solved(board) && solvable(level, &next) {
            moves.push(m);
            pos = next;
        }
    }
    let rest = brute_force(&Level { start: pos, ..level.clone() }, Metric::Moves).unwrap();
    moves.extend(rest.1);
    moves
}

/// The moves replay by the rules engine and solve the level; their counts.
fn replayed(level: &Level, moves: &[Move]) -> Counts {
    let mut g = Game::new(level.clone());
    g.play(moves).expect("the result replays");
    assert!(g.is_solved(), "the result solves the level");
    let board = &level.board;
    let (mut pos, mut last) = (level.start.clone(), None::<(usize, Dir)>);
    let (mut box_lines, mut box_changes) = (0, 0);
    for m in moves {
        if m.push {
            let box_at = board.neighbor(pos.player, m.dir).unwrap();
            let same = last.is_some_and(|(s, _)| s == box_at);
            box_changes += !same as usize;
            box_lines += !(same && last.is_some_and(|(_, d)| d == m.dir)) as usize;
            last = Some((board.neighbor(box_at, m.dir).unwrap(), m.dir));
        }
        pos.apply(board, m.dir);
    }
    Counts { moves: g.moves(), pushes: g.pushes(), box_lines, box_changes }
}

fn run(level: &Level, moves: &[Move], metric: Metric) -> sokoban_optimize::Report {
    let options = OptimizeOptions { metric, ..OptimizeOptions::default() };
    let r = optimize(level, moves, options, &StdClock::new(), |_| true).expect("a solution");
    assert_eq!(replayed(level, &r.moves), r.counts);
    let before = replayed(level, moves);
    assert_eq!(r.start, before);
    assert!(metric.key(r.counts) <= metric.key(before), "never longer");
    assert_eq!(r.status, Status::Finished);
    assert!(r.optimal, "the global search proves the optimum on these small levels");
    r
}

/// Moves, pushes, box lines, box changes.
const fn counts(moves: usize, pushes: usize, box_lines: usize, box_changes: usize) -> Counts {
    Counts { moves, pushes, box_lines, box_changes }
}

/// (level, random moves before a wasteful solution, optimum for moves, optimum for
/// pushes) — the optima (with their box lines and changes, the tie-breakers) as the
/// brute-force search finds them.
const CASES: &[(&str, usize, Counts, Counts)] = &[
    ("#######\n#@ $ .#\n#######\n", 6, counts(3, 2, 1, 1), counts(3, 2, 1, 1)),
    // Two boxes in a room.
    (
        "########\n#      #\n# $ $  #\n#@   . #\n##  .  #\n ###   #\n   #####\n",
        40,
        counts(15, 6, 3, 2),
        counts(15, 6, 3, 2),
    ),
    // Two boxes: two pushes more save four moves.
    (
        "#######\n#.    #\n#   . #\n# $$@ #\n#  ## #\n#######\n",
        30,
        counts(22, 9, 5, 3),
        counts(24, 7, 4, 2),
    ),
    // Three boxes, two rooms.
    (
        "#########\n#   #   #\n# $   $ #\n#  .#.  #\n## $.  @#\n #      #\n ########\n",
        60,
        counts(16, 5, 5, 3),
        counts(16, 5, 5, 3),
    ),
    // Three boxes in a row: the same boxes and player square are reached from two
    // placements by pushes in two directions (the search must keep the direction of the
    // cheaper one).
    (
        " #######\n #     #\n## $$$@#\n#...#  #\n#     ##\n###### \n",
        80,
        counts(50, 15, 12, 8),
        counts(56, 13, 12, 10),
    ),
];

#[test]
fn wasteful_solutions_get_their_optimum() {
    for (i, &(text, steps, moves_opt, pushes_opt)) in CASES.iter().enumerate() {
        let level = parse_level(text).unwrap();
        let m = brute_force(&level, Metric::Moves).unwrap().0;
        let p = brute_force(&level, Metric::Pushes).unwrap().0;
        assert_eq!(m, moves_opt, "case {i}: moves optimum");
        assert_eq!(p, pushes_opt, "case {i}: pushes optimum");
        for seed in 1..=2 {
            let moves = wasteful(&level, seed, steps);
            let r = run(&level, &moves, Metric::Moves);
            assert_eq!(r.counts, moves_opt, "case {i}: optimized for moves: {}", to_lurd(&r.moves));
            let r = run(&level, &moves, Metric::Pushes);
            assert_eq!(
                r.counts,
                pushes_opt,
                "case {i}: optimized for pushes: {}",
                to_lurd(&r.moves)
            );
        }
    }
}

#[test]
fn a_blocked_move_is_named() {
    let level = parse_level("#######\n#@ $ .#\n#######\n").unwrap();
    let e = Optimizer::from_lurd(&level, "rRRR", OptimizeOptions::default()).err().unwrap();
    assert_eq!(e.step, Some(4));
    assert!(e.message.contains("move 4 ('R')") && e.message.contains("against a wall"), "{e}");
    let e = Optimizer::from_lurd(&level, "rRu", OptimizeOptions::default()).err().unwrap();
    assert_eq!(e.step, Some(3));
    assert!(e.message.contains("move 3 ('u')") && e.message.ends_with("a wall"), "{e}");
    let e = Optimizer::from_lurd(&level, "rrR", OptimizeOptions::default()).err().unwrap();
    assert!(e.message.contains("move 2 ('r') pushes a box"), "{e}");
}

#[test]
fn moves_that_do_not_solve_are_an_error_and_moves_after_the_solve_are_cut() {
    let level = parse_level("#######\n#@ $ .#\n#######\n").unwrap();
    let e = Optimizer::from_lurd(&level, "rR", OptimizeOptions::default()).err().unwrap();
    assert_eq!(e.step, None);
    assert!(e.message.contains("do not solve") && e.message.contains("0 of 1"), "{e}");
    let o = Optimizer::from_lurd(&level, "rRRll", OptimizeOptions::default()).unwrap();
    assert_eq!(o.best().1, counts(3, 2, 1, 1));
}

#[test]
fn stepping_reports_progress_and_cancel_keeps_the_best() {
    let level = parse_level(CASES[1].0).unwrap();
    let lurd = to_lurd(&wasteful(&level, 1, 40));
    let clock = StdClock::new();
    let options = OptimizeOptions { node_limit: Some(10), ..OptimizeOptions::default() };
    let mut o = Optimizer::from_lurd(&level, &lurd, options).unwrap();
    let before = o.best().1;
    let Step::Running(p) = o.step(&clock, 0.0) else { panic!("running") };
    assert_eq!((p.start, p.best), (before, before));
    let r = loop {
        if let Step::Done(r) = o.step(&clock, 50.0) {
            break r;
        }
    };
    assert_eq!(r.status, Status::Limit(sokoban_optimize::Limit::Nodes));
    assert_eq!(r.counts, before, "no search finished within 10 nodes");
    let mut o = Optimizer::from_lurd(&level, &lurd, OptimizeOptions::default()).unwrap();
    let r = o.cancel(&clock);
    assert_eq!(r.status, Status::Cancelled);
    assert_eq!(replayed(&level, &r.moves), before);
}

#[test]
fn the_global_search_finds_what_the_vicinity_misses_and_proves_it_optimal() {
    let mut missed = 0;
    for (i, &(text, steps, moves_opt, pushes_opt)) in CASES.iter().enumerate() {
        let level = parse_level(text).unwrap();
        let moves = wasteful(&level, 3, steps);
        let before = replayed(&level, &moves);
        for (metric, opt) in [(Metric::Moves, moves_opt), (Metric::Pushes, pushes_opt)] {
            let run = |global: bool| {
                // No vicinity: only the solution's own placements.
                let options =
                    OptimizeOptions { metric, vicinity: vec![], global, ..Default::default() };
                let r = optimize(&level, &moves, options, &StdClock::new(), |_| true).unwrap();
                assert_eq!(replayed(&level, &r.moves), r.counts);
                assert!(metric.key(r.counts) <= metric.key(before), "never longer");
                r
            };
            let (without, with) = (run(false), run(true));
            assert!(!without.optimal, "case {i}: only the global search proves");
            assert_eq!((with.counts, with.optimal), (opt, true), "case {i}, {metric:?}");
            missed += (without.counts != opt) as usize;
        }
    }
    assert!(missed >= 4, "the global search had something to find: {missed} of 10");
}

#[test]
fn lanes_on_threads_reach_the_optimum_and_a_work_limit_gives_the_same_result_every_time() {
    use sokoban_optimize::lanes::{lane_options, optimize_lanes};
    let options = OptimizeOptions::default();
    let two = lane_options(&options, 1, 2);
    assert_eq!((two.vicinity, two.memory_bytes), (vec![40, 20, 10], options.memory_bytes / 2));
    for &(text, steps, moves_opt, _) in &CASES[1..] {
        let level = parse_level(text).unwrap();
        let moves = wasteful(&level, 1, steps);
        for lanes in [1, 2, 3] {
            let r =
                optimize_lanes(&level, &moves, options.clone(), lanes, &StdClock::new()).unwrap();
            assert_eq!(replayed(&level, &r.moves), r.counts);
            assert_eq!((r.counts, r.optimal, r.status), (moves_opt, true, Status::Finished));
        }
    }
    // A work limit that stops the lanes after two exchanges: the same moves every run.
    // Eight boxes above a doorway, a fast search's solution of 151 moves (the e2e tests').
    let level = parse_level(concat!(
        "###############\n#             #\n# $   $   $   #\n#  $   @  $   #\n",
        "#   $   $   $ #\n#             #\n######. #######\n     #...#\n     #...#\n",
        "     #. ##\n     ####\n"
    ))
    .unwrap();
    let lurd = "llullulDDDldRRRRRurDDDldRuuurrrruuuLLLulDDDDDDuurrrruurDrdLLLLLruulldDDldRuurrruruLLLulDDDDuuulllulDDldRRRurDDDDuuuuuluurDDDDDDuullluRRurDDDrurruLLulDD";
    let moves = sokoban_core::lurd::parse_lurd(lurd).unwrap();
    let limited = OptimizeOptions { node_limit: Some(2 * 65_536 + 1000), ..options };
    let run = || optimize_lanes(&level, &moves, limited.clone(), 2, &StdClock::new()).unwrap();
    let first = run();
    assert_eq!(first.status, Status::Limit(sokoban_optimize::Limit::Nodes));
    assert_eq!(replayed(&level, &first.moves), first.counts);
    assert!(first.counts.moves < 151, "{:?}", first.counts);
    assert_eq!(run().moves, first.moves);
}
