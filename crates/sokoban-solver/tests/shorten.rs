//! The shortening pass: its results replay, are never longer than what it was given, never
//! have fewer pushes than the brute force's optimum, and take out the waste written into
//! hand-made solutions.

mod common;

use common::{brute_force, random_pulled_level, replays, XorShift};
use sokoban_core::format::parse_level;
use sokoban_core::{lurd, Game, Level};
use sokoban_solver::analysis::problem::Problem;
use sokoban_solver::shorten::{merge_macros, shorten_solution};
use sokoban_solver::{solve, Mode, Options, Solution, Status, StdClock, DEFAULT_SHORTEN};

/// A solution given as LURD, checked.
fn solution(level: &Level, text: &str) -> Solution {
    let moves = lurd::parse_lurd(text).expect("lurd");
    let pushes = replays(level, &moves, text);
    Solution { pushes, moves, found: None }
}

/// An open room: one box, one goal three squares to its right.
const ROOM: &str = "\
########
#      #
# @$  .#
#      #
########";

#[test]
fn a_box_pushed_there_and_back_is_pushed_once() {
    let level = parse_level(ROOM).unwrap();
    // Right, round the box, left (back where it started), round again, right three times.
    let wasteful = solution(&level, "RurrdLulldRRR");
    assert_eq!((wasteful.pushes, wasteful.moves.len()), (5, 13));
    let p = Problem::new(&level.board);
    let short = shorten_solution(&level, &p, wasteful, DEFAULT_SHORTEN);
    assert_eq!(replays(&level, &short.moves, "shortened"), short.pushes);
    assert_eq!((short.pushes, short.moves.len()), (3, 3));
    assert_eq!(short.found, Some((5, 13)));
}

#[test]
fn a_walk_between_two_runs_of_one_box_goes() {
    // The box goes right one square, the player steps up and back, the box goes on.
    let level = parse_level(ROOM).unwrap();
    let wasteful = solution(&level, "RudRR");
    assert_eq!((wasteful.pushes, wasteful.moves.len()), (3, 5));
    let short =
        merge_macros(&level.board, &level.start, &wasteful.moves, 100).expect("the walk goes");
    let mut g = Game::new(level.clone());
    g.play(&short).unwrap();
    assert!(g.is_solved());
    assert_eq!((g.pushes(), short.len()), (3, 3));
}

/// Two boxes, each one push from its goal; the wasteful order walks the player across
/// the room and back.
const TWO: &str = "\
#########
#  .    #
#@ $  $ #
#     . #
#########";

#[test]
fn two_boxes_are_taken_in_the_order_that_walks_less() {
    let level = parse_level(TWO).unwrap();
    // The far box first (down), then back for the near one (up).
    let wasteful = solution(&level, "urrrrrDlldlU");
    assert_eq!((wasteful.pushes, wasteful.moves.len()), (2, 12));
    let p = Problem::new(&level.board);
    let short = shorten_solution(&level, &p, wasteful.clone(), DEFAULT_SHORTEN);
    assert_eq!(replays(&level, &short.moves, "shortened"), short.pushes);
    assert_eq!(short.pushes, 2);
    // Near box first: d r r U, then r r u r D.
    assert_eq!(short.moves.len(), 9);
}

#[test]
fn a_solution_without_waste_is_given_back_unchanged() {
    let level = parse_level(ROOM).unwrap();
    let direct = solution(&level, "RRR");
    let p = Problem::new(&level.board);
    let short = shorten_solution(&level, &p, direct.clone(), DEFAULT_SHORTEN);
    assert_eq!(short, direct);
    assert_eq!(short.found, None);
}

/// Crowded rooms pulled back from their goals: the fast search's solution, shortened,
/// replays, is never longer (pushes, then moves) and never beats the brute force's
/// fewest pushes; some get shorter.
#[test]
fn shortened_fast_solutions_replay_and_respect_the_optimum() {
    let mut rng = XorShift(0x5407_7E11_0000_0003);
    let (mut tried, mut shorter) = (0, 0);
    let options = Options {
        time_limit_ms: Some(20_000.0),
        table_mib: 16,
        mode: Mode::Fast,
        shorten: 0,
        ..Options::default()
    };
    while tried < 120 {
        let Some(level) = random_pulled_level(&mut rng, tried % 3 == 0) else { continue };
        tried += 1;
        let name = format!("pulled level {tried}:\n{}", sokoban_core::format::to_xsb(&level));
        let r = solve(&level, &level.start, options.clone(), &StdClock::new(), |_| true).unwrap();
        assert_eq!(r.status, Status::Solved, "{name}");
        let sol = r.solution.unwrap();
        assert_eq!(sol.found, None, "{name}: shorten 0 gives the solution as found");
        let p = Problem::new(&level.board);
        let short = shorten_solution(&level, &p, sol.clone(), DEFAULT_SHORTEN);
        assert_eq!(replays(&level, &short.moves, &name), short.pushes);
        assert!((short.pushes, short.moves.len()) <= (sol.pushes, sol.moves.len()), "{name}");
        let fewest = brute_force(&level).expect("pulled levels are solvable");
        assert!(short.pushes >= fewest, "{name}: {} pushes, the optimum is {fewest}", short.pushes);
        match short.found {
            Some(found) => {
                assert_eq!(found, (sol.pushes, sol.moves.len()), "{name}");
                shorter += 1;
            }
            None => assert_eq!(short, sol, "{name}"),
        }
    }
    assert!(shorter > 10, "only {shorter} of {tried} solutions got shorter");
}

/// The solver shortens its fast solutions by default and says by how much.
#[test]
fn the_fast_search_reports_the_solution_as_found() {
    let level = parse_level(ROOM).unwrap();
    let options = Options { mode: Mode::Fast, ..Options::default() };
    let r = solve(&level, &level.start, options, &StdClock::new(), |_| true).unwrap();
    let sol = r.solution.expect("solved");
    assert_eq!(replays(&level, &sol.moves, "room"), sol.pushes);
    if let Some((pushes, moves)) = sol.found {
        assert!((sol.pushes, sol.moves.len()) < (pushes, moves));
    }
    assert_eq!(sol.pushes, 3);
}
