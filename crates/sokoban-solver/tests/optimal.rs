//! The solver's push counts are optimal: checked against a brute-force breadth-first search
//! over full positions (boxes + player region) on project-written levels and on a few
//! hundred random small levels, which also checks that unsolvable levels are reported
//! unsolvable. Every solution is replayed by the rules engine.

mod common;

use common::{
    brute_force, project_levels, random_level, random_pulled_level, replays, XorShift, LEVELS,
};
use sokoban_core::format::parse_level;
use sokoban_core::{Dir, Game, Grid, Level, Position, Tile};
use sokoban_solver::analysis::problem::Problem;
use sokoban_solver::optimal::{Engine, Stats, INF_F};
use sokoban_solver::{solve, Options, Solver, Status, StdClock, Step};

/// Solve with the stepping API: the report and the engine's counters.
fn run(level: &Level) -> (sokoban_solver::Report, Stats) {
    let opts = Options { time_limit_ms: Some(20_000.0), table_mib: 16, ..Options::default() };
    let clock = StdClock::new();
    let mut s = Solver::new(level, &level.start, opts).expect("setup");
    loop {
        if let Step::Done(r) = s.step(&clock, f64::INFINITY) {
            return (r, s.stats());
        }
    }
}

/// Check the solver against the brute-force optimum; returns the engine's counters.
fn check(level: &Level, name: &str) -> Stats {
    let want = brute_force(level);
    let (r, stats) = run(level);
    match want {
        Some(p) => {
            assert_eq!(r.status, Status::Solved, "{name}: expected a solution of {p} pushes");
            let sol = r.solution.expect("solution");
            assert_eq!(sol.pushes, p, "{name}: not push-optimal");
            assert_eq!(replays(level, &sol.moves, name), p);
        }
        None => assert_eq!(r.status, Status::Unsolvable, "{name}: should be unsolvable"),
    }
    stats
}

#[test]
fn project_levels_are_solved_push_optimally() {
    for (i, level) in project_levels() {
        check(&level, &format!("level {i}"));
    }
}

/// `count` random levels checked against the brute force: (solvable, unsolvable, the sum of
/// the engine's counters).
fn random_levels(
    seed: u64,
    wall_pct: usize,
    max_boxes: usize,
    count: usize,
) -> (usize, usize, Totals) {
    let mut rng = XorShift(seed);
    let (mut solved, mut unsolvable, mut tried) = (0, 0, 0);
    let mut totals = Totals::default();
    while tried < count {
        let Some(level) = random_level(&mut rng, wall_pct, max_boxes) else { continue };
        tried += 1;
        if brute_force(&level).is_some() {
            solved += 1;
        } else {
            unsolvable += 1;
        }
        let st = check(
            &level,
            &format!("random level {tried}:\n{}", sokoban_core::format::to_xsb(&level)),
        );
        totals.add(&st);
    }
    (solved, unsolvable, totals)
}

/// What the pruning rules did over many levels.
#[derive(Default, Debug)]
struct Totals {
    chained: u64,
    corral_deadlocks: u64,
    fixed_checks: u64,
    fixed_deadlocks: u64,
    group_searches: u64,
}

impl Totals {
    fn add(&mut self, st: &Stats) {
        self.chained += st.chained;
        self.corral_deadlocks += st.corral_tests.deadlocks;
        self.fixed_checks += st.fixed_checks;
        self.fixed_deadlocks += st.fixed_deadlocks;
        self.group_searches += st.group_searches;
    }
}

#[test]
fn random_levels_match_brute_force() {
    let (solved, unsolvable, _) = random_levels(0xC0FF_EE12_3456_789A, 18, 3, 300);
    // The generator must exercise both outcomes.
    assert!(solved > 50 && unsolvable > 20, "solved {solved}, unsolvable {unsolvable}");
}

/// Many walls: corridors and doorways, where the forced-push rule and PI-corrals act.
#[test]
fn random_corridor_levels_match_brute_force() {
    let (solved, unsolvable, totals) = random_levels(0x005E_ED0F_C044_1D0A, 35, 3, 300);
    assert!(solved > 30 && unsolvable > 20, "solved {solved}, unsolvable {unsolvable}");
    // Boxes were pushed on along forced runs without stopping.
    assert!(totals.chained > 0, "{totals:?}");
}

/// Tunnels: the boxes go through in forced runs (pushed on without stopping between), a
/// run stops on a goal, and the push counts stay optimal.
#[test]
fn forced_runs_through_tunnels_stay_push_optimal() {
    let levels = [
        // Two rooms joined by a tunnel: both boxes go through it to the far room's goals.
        "#######   ######\n#@    #####    #\n# $ $       .. #\n#     #####    #\n#######   ######",
        // A tunnel with its goal half-way: the run must stop on the goal.
        "##########\n#@$   .  #\n##########",
        // The player starts one step back from the box in the tunnel.
        "#########\n#@ $   .#\n#########",
    ];
    let mut chained = 0;
    for (i, text) in levels.iter().enumerate() {
        let level = parse_level(text).unwrap_or_else(|e| panic!("tunnel level {i}: {e}"));
        chained += check(&level, &format!("tunnel level {i}")).chained;
    }
    assert!(chained > 0, "no forced run was made");
}

/// `count` pulled levels (see [`random_pulled_level`]) checked against the brute force;
/// the sum of the engine's counters.
fn pulled_levels(seed: u64, two_rooms: bool, count: usize) -> Totals {
    let mut rng = XorShift(seed);
    let (mut tried, mut totals) = (0, Totals::default());
    while tried < count {
        let Some(level) = random_pulled_level(&mut rng, two_rooms) else { continue };
        tried += 1;
        assert!(brute_force(&level).is_some(), "pulled levels are solvable");
        let text = sokoban_core::format::to_xsb(&level);
        totals.add(&check(&level, &format!("pulled level {tried}:\n{text}")));
    }
    eprintln!("{totals:?}");
    totals
}

/// Two rooms with two boxes each, joined by one door: where the group bound acts.
#[test]
fn random_two_room_levels_match_brute_force() {
    let totals = pulled_levels(0x7700_4003_5000_0144, true, 100);
    assert!(totals.group_searches > 0, "{totals:?}");
}

#[test]
fn random_pulled_levels_match_brute_force() {
    let totals = pulled_levels(0x00C0_47D3_D10C_4ED5, false, 200);
    // The rules under test must have acted.
    assert!(totals.corral_deadlocks > 0 && totals.group_searches > 0, "{totals:?}");
    assert!(
        totals.fixed_deadlocks > 0 && totals.fixed_checks > totals.fixed_deadlocks,
        "{totals:?}"
    );
}

/// A random level whose walls and goals are symmetric (mirror, half turn, or all eight
/// symmetries of a square), so the table stores symmetric positions as one.
fn random_symmetric_level(rng: &mut XorShift) -> Option<Level> {
    let n = 5 + rng.below(3);
    let kind = rng.below(3);
    let (w, h) = if kind == 2 { (n, n) } else { (n + rng.below(2), n) };
    let map = |r: usize, c: usize| -> Vec<(usize, usize)> {
        let mut v = vec![(r, c), (r, w - 1 - c)];
        if kind >= 1 {
            v.push((h - 1 - r, c));
            v.push((h - 1 - r, w - 1 - c));
        }
        if kind == 2 {
            v.extend([(c, r), (c, h - 1 - r), (w - 1 - c, r), (w - 1 - c, h - 1 - r)]);
        }
        v
    };
    let mut wall: Vec<Vec<bool>> = (0..h)
        .map(|r| (0..w).map(|c| r == 0 || c == 0 || r == h - 1 || c == w - 1).collect())
        .collect();
    for _ in 0..rng.below(4) {
        let (r, c) = (1 + rng.below(h - 2), 1 + rng.below(w - 2));
        for (a, b) in map(r, c) {
            wall[a][b] = true;
        }
    }
    let mut goal = vec![vec![false; w]; h];
    let (r, c) = (1 + rng.below(h - 2), 1 + rng.below(w - 2));
    if wall[r][c] {
        return None;
    }
    for (a, b) in map(r, c) {
        goal[a][b] = true;
    }
    let goals: Vec<(usize, usize)> =
        (0..h).flat_map(|r| (0..w).map(move |c| (r, c))).filter(|&(r, c)| goal[r][c]).collect();
    let mut free: Vec<(usize, usize)> = (0..h)
        .flat_map(|r| (0..w).map(move |c| (r, c)))
        .filter(|&(r, c)| !wall[r][c] && !goal[r][c])
        .collect();
    if goals.len() > 4 || free.len() < goals.len() + 1 {
        return None;
    }
    let mut rows: Vec<Vec<Tile>> = (0..h)
        .map(|r| {
            (0..w)
                .map(|c| {
                    if wall[r][c] {
                        Tile::Wall
                    } else if goal[r][c] {
                        Tile::Goal
                    } else {
                        Tile::Floor
                    }
                })
                .collect()
        })
        .collect();
    for _ in 0..goals.len() {
        let (r, c) = free.swap_remove(rng.below(free.len()));
        rows[r][c] = Tile::Box;
    }
    let (r, c) = free.swap_remove(rng.below(free.len()));
    rows[r][c] = Tile::Player;
    let n = rows.len();
    Grid { rows, title: None, lines: vec![None; n] }.validate().ok()
}

#[test]
fn random_symmetric_levels_match_brute_force() {
    let mut rng = XorShift(0x0051_3377_0000_0093);
    let (mut tried, mut solved, mut symmetric) = (0, 0, 0);
    while tried < 300 {
        let Some(level) = random_symmetric_level(&mut rng) else { continue };
        tried += 1;
        solved += brute_force(&level).is_some() as usize;
        symmetric += !Problem::new(&level.board).symmetries.is_empty() as usize;
        check(
            &level,
            &format!("symmetric level {tried}:\n{}", sokoban_core::format::to_xsb(&level)),
        );
    }
    assert!(solved >= 20 && symmetric >= 200, "solved {solved}, symmetric {symmetric}");
}

#[test]
fn solves_from_a_mid_game_position() {
    let level = parse_level(LEVELS[1]).unwrap();
    let mut g = Game::new(level.clone());
    for d in "ulldd".chars() {
        g.step(Dir::from_lurd(d).unwrap()).unwrap();
    }
    let pos = g.position().clone();
    let opts = Options::default();
    let r = solve(&level, &pos, opts, &StdClock::new(), |_| true).unwrap();
    assert_eq!(r.status, Status::Solved);
    let sol = r.solution.unwrap();
    let mut g2 = g.clone();
    g2.play(&sol.moves).unwrap();
    assert!(g2.is_solved());
    assert_eq!(sol.pushes, 4);
}

#[test]
fn limits_and_cancellation_stop_the_search() {
    let level = parse_level(LEVELS[3]).unwrap();
    let opts = Options { node_limit: Some(3), ..Options::default() };
    let r = solve(&level, &level.start, opts, &StdClock::new(), |_| true).unwrap();
    assert_eq!(r.status, Status::Limit(sokoban_solver::Limit::Nodes));
    assert!(r.nodes <= 3);

    let opts = Options { time_limit_ms: Some(0.0), ..Options::default() };
    let r = solve(&level, &level.start, opts, &StdClock::new(), |_| true).unwrap();
    assert_eq!(r.status, Status::Limit(sokoban_solver::Limit::Time));

    // Cancelling from the progress callback, and through the stepping API.
    let opts = Options { progress_interval_ms: 0.0, ..Options::default() };
    let mut calls = 0;
    let r = solve(&level, &level.start, opts.clone(), &StdClock::new(), |p| {
        calls += 1;
        assert!(p.nodes >= p.nodes_iteration);
        false
    })
    .unwrap();
    if r.status != Status::Solved {
        assert_eq!(r.status, Status::Cancelled);
        assert_eq!(calls, 1);
    }
    let clock = StdClock::new();
    let mut s = sokoban_solver::Solver::new(&level, &level.start, opts).unwrap();
    assert_eq!(s.cancel(&clock).status, Status::Cancelled);
    match s.step(&clock, 10.0) {
        sokoban_solver::Step::Done(r) => assert_eq!(r.status, Status::Cancelled),
        other => panic!("expected the cancelled report, got {other:?}"),
    }
}

/// The engine with fewer boxes than goals (the searches of the group bound), restarted
/// from one position after another on the same table, some searches cut short by a small
/// node budget, some started from a proven lower bound: every finished search's push count
/// equals the brute-force optimum, and a cut-short one never claims more than it.
#[test]
fn subproblem_engine_matches_brute_force() {
    let mut rng = XorShift(0x5AB9_0B1E_0000_0144);
    let (mut levels, mut checked, mut cut_short) = (0, 0, 0);
    while levels < 60 {
        let Some(level) = random_pulled_level(&mut rng, false) else { continue };
        let boxes = level.start.box_squares();
        if boxes.len() < 2 {
            continue;
        }
        levels += 1;
        let p = Problem::new(&level.board);
        let k = 1 + rng.below(boxes.len() - 1);
        let subset = |rng: &mut XorShift| {
            let mut b = boxes.clone();
            while b.len() > k {
                b.swap_remove(rng.below(b.len()));
            }
            b
        };
        let first: Vec<u16> = subset(&mut rng).iter().map(|&b| p.compact[b]).collect();
        let player = p.compact[level.start.player];
        let mut e = Engine::new(p.clone(), player, &first, 1 << 16);
        for _ in 0..4 {
            let kept = subset(&mut rng);
            let mut sub = level.clone();
            sub.start = Position::from_squares(level.board.len(), level.start.player, &kept);
            let want = brute_force(&sub).map_or(INF_F, |c| c as u32);
            let kept_c: Vec<u16> = kept.iter().map(|&b| p.compact[b]).collect();
            if rng.below(2) == 0 {
                // A search cut short: its bound is a lower bound, and what it learned must
                // not mislead the next search.
                e.restart(player, &kept_c, 0);
                let (c, exact) = e.bound(1 + rng.below(6) as u64);
                assert!(c <= want, "cut-short bound {c} above the optimum {want}");
                if !exact {
                    cut_short += 1;
                }
            }
            let hint = if want != INF_F && rng.below(2) == 0 { want.saturating_sub(1) } else { 0 };
            e.restart(player, &kept_c, hint);
            let (c, exact) = e.bound(u64::MAX);
            assert!(exact);
            assert_eq!(
                c,
                want,
                "subproblem of {k} boxes, hint {hint}:\n{}",
                sokoban_core::format::to_xsb(&sub)
            );
            checked += 1;
        }
    }
    assert!(checked >= 200 && cut_short >= 20, "checked {checked}, cut short {cut_short}");
}
