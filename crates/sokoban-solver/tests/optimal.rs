//! The solver's push counts are optimal: checked against a brute-force breadth-first search
//! over full positions (boxes + player region) on project-written levels and on a few
//! hundred random small levels, which also checks that unsolvable levels are reported
//! unsolvable. Every solution is replayed by the rules engine.

use std::collections::{HashMap, VecDeque};

use sokoban_core::format::parse_level;
use sokoban_core::{Dir, Game, Grid, Level, Position, Tile};
use sokoban_solver::problem::Problem;
use sokoban_solver::search::{Engine, Stats, INF_F};
use sokoban_solver::{solve, Options, Solver, Status, StdClock, Step};

/// Fewest pushes by BFS over (sorted boxes, normalized player square); `None` if unsolvable.
fn brute_force(level: &Level) -> Option<usize> {
    let b = &level.board;
    let norm = |p: &Position| -> (Vec<usize>, usize) {
        let reach = p.reachable(b);
        let min = (0..b.len()).find(|&s| reach[s]).unwrap();
        (p.box_squares(), min)
    };
    let start = level.start.clone();
    let mut seen: HashMap<(Vec<usize>, usize), usize> = HashMap::new();
    let mut queue = VecDeque::new();
    seen.insert(norm(&start), 0);
    queue.push_back(start);
    while let Some(p) = queue.pop_front() {
        let d = seen[&norm(&p)];
        if p.is_solved(b) {
            return Some(d);
        }
        let reach = p.reachable(b);
        for s in 0..b.len() {
            if !p.boxes[s] {
                continue;
            }
            for dir in Dir::ALL {
                let (Some(behind), Some(to)) =
                    (b.floor_neighbor(s, dir.opposite()), b.floor_neighbor(s, dir))
                else {
                    continue;
                };
                if !reach[behind] || p.boxes[to] {
                    continue;
                }
                let mut q = p.clone();
                q.boxes[s] = false;
                q.boxes[to] = true;
                q.player = s;
                if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(norm(&q)) {
                    e.insert(d + 1);
                    queue.push_back(q);
                }
            }
        }
    }
    None
}

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
            let mut g = Game::new(level.clone());
            g.play(&sol.moves).expect("solution replays");
            assert!(g.is_solved(), "{name}: solution does not solve");
            assert_eq!(g.pushes(), p);
        }
        None => assert_eq!(r.status, Status::Unsolvable, "{name}: should be unsolvable"),
    }
    stats
}

/// Project-written levels (small, with known structure).
const LEVELS: &[&str] = &[
    // A corridor push.
    "#######\n#@ $ .#\n#######",
    // Two boxes, goals around a pillar.
    "#######\n#.  $ #\n# #@  #\n#  $. #\n#######",
    // Needs the player to walk around a box to change push direction.
    "  #####\n###   #\n#  $# #\n# #  .#\n#  @  #\n#######",
    // Three boxes in a room.
    "########\n#  .   #\n# $$ @ #\n#  .#  #\n# $  . #\n########",
    // Box in a tunnel with the goal at the end.
    "#########\n#@$    .#\n#### ####\n   #  #\n   ####",
    // Boxes that must be pushed in the right order into a dead end.
    "#######\n#..$$@#\n#  #  #\n#     #\n#######",
    // Unsolvable: the box starts against a wall away from the goal row.
    "######\n#$   #\n#  . #\n# @  #\n######",
    // Unsolvable: two boxes frozen together off goals.
    "#######\n#  $$ #\n#  .. #\n#  @  #\n#######\n",
    // A player on a goal and a box on a goal.
    "######\n#+$ *#\n# $. #\n#    #\n######",
    // A block of boxes on goals that can never move (it becomes walls): the free box must
    // go round it.
    "########\n#      #\n# **   #\n# **$ .#\n#@     #\n########",
    // Every box fixed on a goal: solved with no push.
    "######\n#@ **#\n#  **#\n######",
    // Fixed boxes on goals that wall off a dead end: the box must not go there.
    "#######\n#**   #\n#**$ .#\n#  @  #\n#######",
];

#[test]
fn project_levels_are_solved_push_optimally() {
    for (i, text) in LEVELS.iter().enumerate() {
        let level = parse_level(text).unwrap_or_else(|e| panic!("level {i}: {e}"));
        check(&level, &format!("level {i}"));
    }
}

struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random small level: a walled room with random inner walls (`wall_pct` percent of the
/// inner squares: many walls give corridors and doorways), boxes, goals and player.
fn random_level(rng: &mut XorShift, wall_pct: usize, max_boxes: usize) -> Option<Level> {
    let w = 5 + rng.below(3) + max_boxes / 4;
    let h = 5 + rng.below(3) + max_boxes / 4;
    let mut rows = vec![vec![Tile::Wall; w]; h];
    let mut free = Vec::new();
    for (r, row) in rows.iter_mut().enumerate().take(h - 1).skip(1) {
        for (c, t) in row.iter_mut().enumerate().take(w - 1).skip(1) {
            if rng.below(100) < wall_pct {
                continue;
            }
            *t = Tile::Floor;
            free.push((r, c));
        }
    }
    let nboxes = 1 + rng.below(max_boxes);
    if free.len() < 2 * nboxes + 1 {
        return None;
    }
    // Pick distinct squares: boxes, goals (may coincide with boxes), player.
    let mut pick = |rng: &mut XorShift| free.swap_remove(rng.below(free.len()));
    let boxes: Vec<_> = (0..nboxes).map(|_| pick(rng)).collect();
    let player = pick(rng);
    let mut goals = Vec::new();
    for _ in 0..nboxes {
        if rng.below(5) == 0 {
            // A goal under a box not yet used as a goal.
            if let Some(&b) = boxes.iter().find(|b| !goals.contains(*b)) {
                goals.push(b);
                continue;
            }
        }
        goals.push(pick(rng));
    }
    for &(r, c) in &boxes {
        rows[r][c] = Tile::Box;
    }
    for &(r, c) in &goals {
        rows[r][c] = if rows[r][c] == Tile::Box { Tile::BoxOnGoal } else { Tile::Goal };
    }
    rows[player.0][player.1] = Tile::Player;
    let n = rows.len();
    Grid { rows, title: None, lines: vec![None; n] }.validate().ok()
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

/// A random level solvable by construction: boxes start on the goals of a random room and
/// the player walks and pulls them away at random (a pull is a push played backwards).
/// Crowded rooms give corrals that close for good and boxes frozen on goals that wall off
/// other goals, where the corral deadlock search and the frozen-goal check prune.
fn random_pulled_level(rng: &mut XorShift, two_rooms: bool) -> Option<Level> {
    let (w, h) = if two_rooms {
        (11 + rng.below(3), 6 + rng.below(2))
    } else {
        (7 + rng.below(3), 7 + rng.below(3))
    };
    // Two rooms: a wall down the middle with one door, two goals on each side.
    let (mid, door) = if two_rooms { (w / 2, 1 + rng.below(h - 2)) } else { (0, 0) };
    let wall_pct = if two_rooms { 10 } else { 20 };
    let mut floor = vec![vec![false; w]; h];
    let mut free = Vec::new();
    for (r, row) in floor.iter_mut().enumerate().take(h - 1).skip(1) {
        for (c, f) in row.iter_mut().enumerate().take(w - 1).skip(1) {
            let open = if two_rooms && c == mid { r == door } else { rng.below(100) >= wall_pct };
            if open {
                *f = true;
                free.push((r, c));
            }
        }
    }
    let nboxes = if two_rooms { 4 } else { 3 + rng.below(4) };
    if free.len() < nboxes + 4 {
        return None;
    }
    let goals: Vec<(usize, usize)> = if two_rooms {
        let mut side = |left: bool, rng: &mut XorShift| {
            let cands: Vec<usize> = (0..free.len())
                .filter(|&i| (free[i].1 < mid) == left && free[i].1 != mid)
                .collect();
            let i = cands[rng.below(cands.len())];
            free.swap_remove(i)
        };
        vec![side(true, rng), side(true, rng), side(false, rng), side(false, rng)]
    } else {
        (0..nboxes).map(|_| free.swap_remove(rng.below(free.len()))).collect()
    };
    let mut boxes = goals.clone();
    let mut player = free[rng.below(free.len())];
    let open =
        |(r, c): (usize, usize), boxes: &[(usize, usize)]| floor[r][c] && !boxes.contains(&(r, c));
    for _ in 0..100 + rng.below(200) {
        let (dr, dc) = [(-1isize, 0isize), (0, 1), (1, 0), (0, -1)][rng.below(4)];
        let to = ((player.0 as isize + dr) as usize, (player.1 as isize + dc) as usize);
        if !open(to, &boxes) {
            continue;
        }
        let behind = ((player.0 as isize - dr) as usize, (player.1 as isize - dc) as usize);
        if rng.below(2) == 0 {
            if let Some(b) = boxes.iter_mut().find(|b| **b == behind) {
                *b = player;
            }
        }
        player = to;
    }
    if boxes.iter().all(|b| goals.contains(b)) {
        return None;
    }
    let mut rows = vec![vec![Tile::Wall; w]; h];
    for (r, row) in rows.iter_mut().enumerate() {
        for (c, t) in row.iter_mut().enumerate() {
            if floor[r][c] {
                *t = Tile::Floor;
            }
        }
    }
    for &(r, c) in &goals {
        rows[r][c] = Tile::Goal;
    }
    for &(r, c) in &boxes {
        rows[r][c] = if rows[r][c] == Tile::Goal { Tile::BoxOnGoal } else { Tile::Box };
    }
    rows[player.0][player.1] =
        if rows[player.0][player.1] == Tile::Goal { Tile::PlayerOnGoal } else { Tile::Player };
    let n = rows.len();
    Grid { rows, title: None, lines: vec![None; n] }.validate().ok()
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
