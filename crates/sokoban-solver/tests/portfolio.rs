//! The portfolio: lanes of the fast search on threads. Its solutions replay, a given number
//! of lanes gives the same moves every run on any number of threads, one lane is the plain
//! fast search, the memory is split between the lanes, and cancelling stops every lane.

mod common;

use std::sync::Mutex;

use common::{project_levels, random_pulled_level, replays, XorShift, ROOM};
use sokoban_core::format::parse_level;
use sokoban_core::Level;
use sokoban_solver::portfolio::{solve_portfolio, PortfolioReport};
use sokoban_solver::{solve, Mode, Options, Progress, Status, StdClock};

/// Ten rooms of boxes side by side: the fast search takes long on it, with a short setup.
const TEN_ROOMS: &str = include_str!("../../../tests/levels/ten-rooms.xsb");

fn options() -> Options {
    Options { time_limit_ms: Some(60_000.0), table_mib: 64, mode: Mode::Fast, ..Options::default() }
}

fn run(level: &Level, lanes: usize, threads: usize) -> PortfolioReport {
    run_with(options(), level, lanes, threads)
}

fn run_with(o: Options, level: &Level, lanes: usize, threads: usize) -> PortfolioReport {
    solve_portfolio(level, &level.start, o, lanes, threads, &StdClock::new(), &|_, _| true)
        .expect("setup")
}

/// Levels of every kind the tests have: the project's, pulled ones, the room.
fn levels() -> Vec<(String, Level)> {
    let mut out: Vec<(String, Level)> =
        project_levels().map(|(i, l)| (format!("project level {i}"), l)).collect();
    let mut rng = XorShift(0x9047_F011_0000_0001);
    let mut k = 0;
    while k < 6 {
        if let Some(l) = random_pulled_level(&mut rng, k % 3 == 0) {
            out.push((format!("pulled level {k}"), l));
            k += 1;
        }
    }
    out.push(("room".into(), parse_level(ROOM).unwrap()));
    out
}

/// Lanes ordered by their turns instead of the operations of their calls (`turnwork`):
/// still the same moves on one thread or two, the solutions replay, and each lane's ending
/// is timed.
#[test]
fn work_counted_in_turns_gives_the_same_moves_on_one_thread_or_two() {
    let mut o = options();
    o.experiments.turn_work = true;
    for (name, level) in levels() {
        let (two, again) = (run_with(o.clone(), &level, 2, 2), run_with(o.clone(), &level, 2, 1));
        assert_eq!(two.report.status, run(&level, 2, 2).report.status, "{name}");
        if let Some(sol) = &two.report.solution {
            assert_eq!(replays(&level, &sol.moves, &name), sol.pushes, "{name}");
        }
        assert_eq!(two.report.solution, again.report.solution, "{name}: the same moves");
        assert_eq!((two.lane, two.strategy), (again.lane, again.strategy), "{name}");
        assert_eq!(two.lane_ms.len(), 2, "{name}: when each lane ended");
        assert!(two.lane_ms.iter().all(|&t| t <= two.report.elapsed_ms), "{name}");
    }
}

#[test]
fn two_lanes_solve_what_one_does_with_replayed_solutions_the_same_on_one_thread_or_two() {
    for (name, level) in levels() {
        let one = run(&level, 1, 1);
        let plain = solve(&level, &level.start, options(), &StdClock::new(), |_| true).unwrap();
        assert_eq!(one.report.status, plain.status, "{name}");
        assert_eq!(one.report.solution, plain.solution, "{name}: one thread is the plain search");
        let two = run(&level, 2, 2);
        let again = run(&level, 2, 1);
        assert_eq!(two.report.status, one.report.status, "{name}");
        assert_eq!(two.lane_nodes.len(), 2, "{name}");
        if let Some(sol) = &two.report.solution {
            assert_eq!(replays(&level, &sol.moves, &name), sol.pushes, "{name}");
            assert!(two.lane.is_some() && two.strategy.is_some(), "{name}: who solved it");
        }
        assert_eq!(
            two.report.solution, again.report.solution,
            "{name}: the same moves, on two threads or one"
        );
        assert_eq!((two.lane, two.strategy), (again.lane, again.strategy), "{name}");
    }
}

#[test]
fn the_memory_is_split_between_the_lanes() {
    let level = parse_level(TEN_ROOMS).unwrap();
    let limits = Mutex::new(Vec::new());
    // Every lane reports after its first turn; cancelled once all four have.
    let on_progress = |lane: usize, p: &Progress| {
        let f = p.fast.as_ref().expect("fast read-out");
        let mut limits = limits.lock().unwrap();
        limits.push((lane, f.memory_limit));
        (0..4).any(|l| !limits.iter().any(|&(k, _)| k == l))
    };
    let o = Options { progress_interval_ms: 0.0, ..options() };
    // Four lanes on two threads: the memory goes by lanes.
    let r = solve_portfolio(&level, &level.start, o, 4, 2, &StdClock::new(), &on_progress).unwrap();
    assert_eq!(r.report.status, Status::Cancelled);
    for (lane, limit) in limits.into_inner().unwrap() {
        assert!(lane < 4);
        assert_eq!(limit, 16 << 20, "lane {lane}: a quarter of 64 MiB");
    }
}

#[test]
fn cancelling_stops_every_lane() {
    let level = parse_level(TEN_ROOMS).unwrap();
    let lanes_seen = Mutex::new([0usize; 2]);
    // Cancelled at the first report after each lane has made a turn.
    let on_progress = |lane: usize, _: &Progress| {
        let mut seen = lanes_seen.lock().unwrap();
        seen[lane] += 1;
        seen.contains(&0)
    };
    let o = Options { progress_interval_ms: 0.0, ..options() };
    let r = solve_portfolio(&level, &level.start, o, 2, 2, &StdClock::new(), &on_progress).unwrap();
    assert_eq!(r.report.status, Status::Cancelled);
    assert!(r.report.solution.is_none());
    let seen = *lanes_seen.lock().unwrap();
    // A lane looks for the cancel after each turn: both stopped within a few.
    assert!(seen.iter().all(|&n| (1..200).contains(&n)), "both lanes ran, then stopped: {seen:?}");
}
