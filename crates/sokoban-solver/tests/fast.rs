//! The fast search: its solutions replay, it calls a level unsolvable only where a brute
//! force proves it, and its packing plan and features give the answers written here for
//! hand-made levels.

mod common;

use std::sync::Arc;

use common::{
    brute_force, project_levels, random_level, random_pulled_level, replays, XorShift, LEVELS, ROOM,
};
use sokoban_core::format::parse_level;
use sokoban_core::{Dir, Game, Level};
use sokoban_solver::analysis::problem::{Problem, NONE};
use sokoban_solver::fast::board::Layout;
use sokoban_solver::fast::features::{FeatureScratch, Rooms};
use sokoban_solver::fast::plan::{Plan, Step as PlanStep};
use sokoban_solver::fast::shared::Analysis;
use sokoban_solver::fast::{draw_plan, packing_search_plan, FastEvent, FastSearch, Packing};
use sokoban_solver::{solve, Limit, Mode, Options, Report, Solver, Status, StdClock, Step};

fn fast_options() -> Options {
    Options { time_limit_ms: Some(20_000.0), table_mib: 64, mode: Mode::Fast, ..Options::default() }
}

/// Solve in fast mode with the stepping API; every progress report must carry the fast
/// read-out.
fn run_fast(level: &Level) -> Report {
    let clock = StdClock::new();
    let mut s = Solver::new(level, &level.start, fast_options()).expect("setup");
    loop {
        match s.step(&clock, 5.0) {
            Step::Done(r) => return r,
            Step::Running(p) => assert!(p.fast.is_some(), "fast progress"),
        }
    }
}

/// The fast verdict agrees with the brute force: solvable levels are solved with a
/// solution the rules engine accepts, unsolvable ones are reported unsolvable.
fn check(level: &Level, name: &str) -> bool {
    let want = brute_force(level);
    let r = run_fast(level);
    match want {
        Some(_) => {
            assert_eq!(r.status, Status::Solved, "{name}: solvable");
            let sol = r.solution.expect("solution");
            assert_eq!(replays(level, &sol.moves, name), sol.pushes);
            true
        }
        None => {
            assert_eq!(r.status, Status::Unsolvable, "{name}: unsolvable by brute force");
            false
        }
    }
}

#[test]
fn project_levels_fast() {
    for (i, level) in project_levels() {
        check(&level, &format!("project level {i}"));
    }
}

#[test]
fn random_levels_fast_match_brute_force() {
    let mut rng = XorShift(0xFA57_0000_C0FF_EE01);
    let (mut solved, mut unsolvable, mut tried) = (0, 0, 0);
    while tried < 300 {
        let wall_pct = [18, 35][tried % 2];
        let Some(level) = random_level(&mut rng, wall_pct, 3) else { continue };
        tried += 1;
        let text = sokoban_core::format::to_xsb(&level);
        if check(&level, &format!("random level {tried}:\n{text}")) {
            solved += 1;
        } else {
            unsolvable += 1;
        }
    }
    assert!(solved > 50 && unsolvable > 20, "solved {solved}, unsolvable {unsolvable}");
}

/// Crowded rooms pulled back from their goals (solvable by construction), up to six boxes.
#[test]
fn random_pulled_levels_are_solved_fast() {
    let mut rng = XorShift(0xFA57_0000_9011_ED02);
    let mut tried = 0;
    while tried < 200 {
        let Some(level) = random_pulled_level(&mut rng, tried % 4 == 0) else { continue };
        tried += 1;
        let text = sokoban_core::format::to_xsb(&level);
        assert!(check(&level, &format!("pulled level {tried}:\n{text}")));
    }
}

#[test]
fn solves_from_a_mid_game_position() {
    let level = parse_level(LEVELS[1]).unwrap();
    let mut g = Game::new(level.clone());
    for d in "ulldd".chars() {
        g.step(Dir::from_lurd(d).unwrap()).unwrap();
    }
    let pos = g.position().clone();
    let r = solve(&level, &pos, fast_options(), &StdClock::new(), |p| p.fast.is_some()).unwrap();
    assert_eq!(r.status, Status::Solved);
    let mut g2 = g.clone();
    g2.play(&r.solution.unwrap().moves).unwrap();
    assert!(g2.is_solved());
}

#[test]
fn memory_budget_and_cancellation_end_the_search_cleanly() {
    let level = parse_level(ROOM).unwrap();
    // A budget of a few kilobytes fills at once: the search ends, it does not crash.
    let p = Problem::new(&level.board);
    let player = p.compact[level.start.player];
    let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
    let mut f = FastSearch::new(&level.board, p, player, &boxes, 4096, &Default::default());
    let ev = loop {
        match f.run(100) {
            FastEvent::Budget => continue,
            ev => break ev,
        }
    };
    assert!(matches!(ev, FastEvent::OutOfMemory | FastEvent::Solved(_)), "{ev:?}");
    // Through the solver with a node limit: a clean limit.
    let opts = Options { node_limit: Some(3), ..fast_options() };
    let clock = StdClock::new();
    let mut s = Solver::new(&level, &level.start, opts).unwrap();
    let r = loop {
        if let Step::Done(r) = s.step(&clock, f64::INFINITY) {
            break r;
        }
    };
    assert!(matches!(r.status, Status::Limit(Limit::Nodes) | Status::Solved), "{:?}", r.status);
    // A zero-length slice searches nothing: it reports the set-up (what a page shows at
    // once); the next slice searches.
    let mut s = Solver::new(&level, &level.start, fast_options()).unwrap();
    match s.step(&clock, 0.0) {
        Step::Running(p) => assert_eq!(p.nodes, 0, "no move made"),
        Step::Done(r) => panic!("a zero slice ended the search: {:?}", r.status),
    }
    assert!(matches!(s.step(&clock, 0.0), Step::Running(p) if p.nodes == 0));
    let r = loop {
        if let Step::Done(r) = s.step(&clock, 50.0) {
            break r;
        }
    };
    assert!(r.nodes > 0, "the search ran");
    // Cancelled at once.
    let mut s = Solver::new(&level, &level.start, fast_options()).unwrap();
    let r = s.cancel(&clock);
    assert_eq!(r.status, Status::Cancelled);
    assert!(matches!(s.step(&clock, 1.0), Step::Done(r) if r.status == Status::Cancelled));
}

/// [`Solver::new_timed`] counts the setup in the time limit and stops its packing
/// searches there: on a clock past the limit once the setup has begun, the setup looks at
/// it and the first step ends at the limit without a move. A start no box arrangement can
/// solve by reach alone (a goal whose only way in is pushed from a wall) ends unsolvable
/// at once.
#[test]
fn the_timed_setup_stops_at_the_limit() {
    use sokoban_solver::Clock;
    let level = parse_level(ROOM).unwrap();
    let reads = std::cell::Cell::new(0u32);
    let clock = || {
        reads.set(reads.get() + 1);
        if reads.get() == 1 {
            0.0
        } else {
            1e9
        }
    };
    let mut s = Solver::new_timed(&level, &level.start, fast_options(), &clock, clock.now_ms())
        .expect("setup");
    assert!(reads.get() >= 2, "the setup looked at the clock");
    match s.step(&clock, 5.0) {
        Step::Done(r) => assert_eq!((r.status, r.nodes), (Status::Limit(Limit::Time), 0)),
        Step::Running(p) => panic!("past the limit: {p:?}"),
    }
    let niche = parse_level("########\n##.#   #\n#      #\n# #$ $@#\n#   .  #\n########").unwrap();
    let r = run_fast(&niche);
    assert_eq!((r.status, r.nodes), (Status::Unsolvable, 0));
}

/// Goal numbers of compact squares, for reading a plan.
fn goal_at(p: &Problem, level: &Level, row: usize, col: usize) -> u16 {
    let s = p.compact[level.board.square(row, col)];
    p.goals.iter().position(|&g| g == s).expect("a goal") as u16
}

fn plan_of(level: &Level) -> (Problem, Plan) {
    let p = Problem::new(&level.board);
    let layout = Layout::new(&level.board, &p);
    let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
    let plan = Plan::new(&p, &layout, &boxes);
    (p, plan)
}

#[test]
fn plan_fills_a_dead_end_from_the_far_end() {
    let level = parse_level("###########\n#@ $ $ $...#\n############").unwrap();
    let (p, mut plan) = plan_of(&level);
    plan.per_cluster = false;
    let order: Vec<u16> = plan.order.clone();
    let want: Vec<u16> = [10, 9, 8].iter().map(|&c| goal_at(&p, &level, 1, c)).collect();
    assert_eq!(order, want, "deepest goal first");
    assert_eq!(plan.clusters.len(), 1);
    assert_eq!(plan.relaxed, 0);
    // Packing counts the goals filled from the start of the order.
    let mut occupied = vec![false; p.n];
    occupied[p.goals[want[1] as usize] as usize] = true;
    assert_eq!(plan.packed(&p, &occupied), 0);
    occupied[p.goals[want[0] as usize] as usize] = true;
    assert_eq!(plan.packed(&p, &occupied), 2);
    // Out of plan: once the deepest goal is filled, a box between the player and the dead
    // end can still reach the others; nothing beyond the goals is a zone here.
    let at = |c: usize| p.compact[level.board.square(1, c)];
    assert!(!plan.out_of_plan_at(0, at(5)));
}

/// `Plan::first_dead_prefix` of a level whose goals are all on row 1, filled in the order of
/// the columns `cols`.
fn dead_prefix(xsb: &str, cols: &[usize]) -> Option<usize> {
    let level = parse_level(xsb).unwrap();
    let p = Problem::new(&level.board);
    let start: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
    let order = cols.iter().map(|&c| goal_at(&p, &level, 1, c)).collect();
    let plan = Plan::from_order(&p, order, 0);
    let player = p.compact[level.start.player];
    let dead = plan.first_dead_prefix(&p, &level.board, &start, player);
    assert_eq!(plan.followable(&p, &level.board, &start, player), dead.is_none());
    dead
}

/// The first prefix of a plan that leaves the start boxes unable to fill the goals: in a
/// dead end, filling the goal by its mouth first shuts the deeper one off.
#[test]
fn first_dead_prefix_finds_a_mouth_filled_first() {
    let corridor = "########\n#..$$ @#\n########";
    assert_eq!(dead_prefix(corridor, &[1, 2]), None);
    assert_eq!(dead_prefix(corridor, &[2, 1]), Some(1));
    // A box already on the mouth: counting it as filled first walls it, and the box beyond
    // can never reach the deeper goal.
    let filled = "######\n#.*$@#\n######";
    assert_eq!(dead_prefix(filled, &[2, 1]), Some(1));
    assert_eq!(dead_prefix(filled, &[1, 2]), None);
}

/// A plan that parks a box: the parking step counts as done while its square holds a box
/// or once the goal it feeds does; the parked box is in place until its step is next.
#[test]
fn parking_steps_count_in_order() {
    let level = parse_level("###########\n#@ $ $ $...#\n###########").unwrap();
    let p = Problem::new(&level.board);
    let sq = |c: usize| p.compact[level.board.square(1, c)];
    let goal = |c: usize| PlanStep { square: sq(c), then: NONE };
    let steps = vec![goal(10), PlanStep { square: sq(6), then: sq(9) }, goal(9), goal(8)];
    let plan = Plan::from_steps(&p, steps, 1);
    assert_eq!(plan.parking_steps(), 1);
    let order: Vec<u16> = [10, 9, 8].iter().map(|&c| goal_at(&p, &level, 1, c)).collect();
    assert_eq!(plan.order, order);
    let done = |boxes: &[usize]| {
        let mut occupied = vec![false; p.n];
        for &c in boxes {
            occupied[sq(c) as usize] = true;
        }
        plan.packed(&p, &occupied)
    };
    assert_eq!(done(&[]), 0);
    assert_eq!(done(&[10]), 1);
    assert_eq!(done(&[10, 6]), 2, "the box is parked");
    assert_eq!(done(&[10, 9]), 3, "the parked box has gone on to its goal");
    assert_eq!(done(&[10, 6, 8]), 2, "the goal fed by the parked box is empty");
    // The drawing (the `plan` command's) numbers the goals in order and lists the steps,
    // parking included, as (row, column).
    let text = draw_plan(&level, &p, &plan);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[1], "#@ $ $ $321#");
    assert_eq!(lines[3], "3 goals in 1 clusters, 1 relaxed steps, 1 parking steps");
    assert_eq!(lines[4], "steps: (1, 10), park (1, 6) then (1, 9), (1, 9), (1, 8)");
    // A plan without parking lists no steps.
    let plain = draw_plan(&level, &p, &plan.without_parking(&p));
    assert!(plain.ends_with("0 parking steps\n"), "{plain}");
    assert_eq!(done(&[10, 9, 8]), 4);
    assert_eq!((plan.goals_done(2), plan.goals_done(3), plan.goals_done(4)), (1, 2, 3));
    // What the packer aims at, and which boxes are in place.
    let mut occupied = vec![false; p.n];
    occupied[sq(10) as usize] = true;
    let mut next = Vec::new();
    plan.next_goals(&p, &occupied, &mut next);
    assert_eq!(plan.next_squares(&p, &next).collect::<Vec<_>>(), vec![sq(6)]);
    occupied[sq(6) as usize] = true;
    plan.next_goals(&p, &occupied, &mut next);
    assert_eq!(plan.next_squares(&p, &next).collect::<Vec<_>>(), vec![sq(9)]);
    assert!(plan.box_packed(sq(10), goal_at(&p, &level, 1, 10), &next));
    assert!(!plan.box_packed(sq(6), NONE, &next), "the parked box moves on next");
    assert!(!plan.box_packed(sq(4), NONE, &next));
    // The same plan without parking.
    let plain = plan.without_parking(&p);
    assert_eq!((plain.parking_steps(), &plain.order), (0, &order));
}

/// A corridor level with boxes on columns 3, 5 and 7 and goals on 8, 9 and 10: its
/// problem, the compact square of each column of its row, and the start boxes.
fn corridor() -> (Problem, Vec<u16>, Vec<u16>) {
    let level = parse_level("###########\n#@ $ $ $...#\n###########").unwrap();
    let p = Problem::new(&level.board);
    let cols: Vec<u16> = (0..11).map(|c| p.compact[level.board.square(1, c)]).collect();
    let start = [3, 5, 7].iter().map(|&c| cols[c]).collect();
    (p, cols, start)
}

/// Pulls in the corridor, from column to column.
fn corridor_pulls(cols: &[u16], list: &[(usize, usize)]) -> Vec<(u16, u16)> {
    list.iter().map(|&(a, b)| (cols[a], cols[b])).collect()
}

/// The plan of a packing search's pulls, played forward: each stop of a box is a step (its
/// goal at the last), consecutive pulls of one box are one stop, a box pulled onto a free
/// start square leaves the board, and boxes left elsewhere are relaxed first steps.
#[test]
fn plan_from_pulls_plays_the_stops_forward() {
    let (p, cols, start) = corridor();
    let sq = |c: usize| cols[c];
    let goal = |c: usize| PlanStep { square: sq(c), then: NONE };
    let park = |c: usize, then: usize| PlanStep { square: sq(c), then: sq(then) };
    let pulls = |list: &[(usize, usize)]| corridor_pulls(&cols, list);
    // Each box straight to a start square: the goals filled deepest first.
    let plan = Plan::from_pulls(&p, &start, &pulls(&[(8, 7), (9, 5), (10, 3)]));
    assert_eq!(plan.steps, vec![goal(10), goal(9), goal(8)]);
    assert_eq!((plan.relaxed, plan.parking_steps()), (0, 0));
    // The box of goal 8 waits on square 6 while the box of goal 9 leaves: forward, it is
    // parked there before goal 9 is filled. Its two pulls apart are two stops; two pulls
    // in a row are one.
    let plan = Plan::from_pulls(&p, &start, &pulls(&[(8, 6), (9, 7), (6, 5), (10, 3)]));
    assert_eq!(plan.steps, vec![goal(10), park(6, 8), goal(9), goal(8)]);
    assert_eq!((plan.relaxed, plan.parking_steps()), (0, 1));
    let plan = Plan::from_pulls(&p, &start, &pulls(&[(8, 6), (6, 5), (9, 7), (10, 3)]));
    assert_eq!(plan.steps, vec![goal(10), goal(9), goal(8)]);
    // A pull that brings a box back to its own square (the player ends on another side) is
    // no stop: no step parks the box where it stands, and it does not part two pulls of
    // the box around it.
    let plan = Plan::from_pulls(&p, &start, &pulls(&[(8, 6), (9, 9), (6, 5), (9, 7), (10, 3)]));
    assert_eq!(plan.steps, vec![goal(10), goal(9), goal(8)]);
    let plan = Plan::from_pulls(&p, &start, &pulls(&[(8, 6), (9, 7), (6, 6), (6, 5), (10, 3)]));
    assert_eq!(plan.steps, vec![goal(10), park(6, 8), goal(9), goal(8)]);
    // Boxes that never left their goals come first and are relaxed; a box that stopped off
    // the start squares is parked first, relaxed.
    let plan = Plan::from_pulls(&p, &start, &pulls(&[(8, 7)]));
    assert_eq!(plan.steps, vec![goal(9), goal(10), goal(8)]);
    assert_eq!(plan.relaxed, 2);
    let plan = Plan::from_pulls(&p, &start, &pulls(&[(8, 7), (9, 6), (10, 3)]));
    assert_eq!(plan.steps, vec![park(6, 9), goal(10), goal(9), goal(8)]);
    assert_eq!(plan.relaxed, 1);
}

/// A parking step is done while its square holds a box, or once the box has moved on by a
/// step done: a parked box pushed on to its goal early leaves the step undone.
#[test]
fn parked_box_moved_on_early_undoes_its_step() {
    let (p, cols, start) = corridor();
    let sq = |c: usize| cols[c];
    let pulls = corridor_pulls(&cols, &[(8, 6), (9, 7), (6, 5), (10, 3)]);
    // Steps: goal 10, park on 6 (then goal 8), goal 9, goal 8.
    let plan = Plan::from_pulls(&p, &start, &pulls);
    let occupied = |cols: &[usize]| {
        let mut o = vec![false; p.n];
        for &c in cols {
            o[sq(c) as usize] = true;
        }
        o
    };
    assert_eq!(plan.packed(&p, &occupied(&[10, 6, 3])), 2, "goal 10 filled, a box parked");
    assert_eq!(plan.packed(&p, &occupied(&[10, 6, 9])), 3);
    assert_eq!(plan.packed(&p, &occupied(&[10, 9, 8])), 4, "moved on by the last step");
    // The parked box pushed on to goal 8 before goal 9 is filled: only goal 10 counts.
    assert_eq!(plan.packed(&p, &occupied(&[10, 8, 3])), 1);
    let mut lenient = plan.clone();
    lenient.until = false;
    assert_eq!(lenient.packed(&p, &occupied(&[10, 8, 3])), 2);
}

/// A box parked in the dead end beyond the next goal is out of plan: once that goal is
/// filled it can reach no goal.
#[test]
fn out_of_plan_zone_lies_behind_the_next_goal() {
    // The goals are at the mouth of a dead end; the plan fills the inner one first.
    let level = parse_level("###########\n#@ $ $..  #\n###########").unwrap();
    let (p, plan) = plan_of(&level);
    let at = |c: usize| p.compact[level.board.square(1, c)];
    let inner = goal_at(&p, &level, 1, 7);
    assert_eq!(plan.order[0], inner);
    // With nothing packed, the zone is what the first goals will shut in: the squares
    // beyond the goals.
    assert!(plan.out_of_plan_at(0, at(8)));
    assert!(!plan.out_of_plan_at(0, at(4)));
}

/// Two dead ends, one up and one down, each with two goals; the boxes wait in the hall.
const TWO_DEAD_ENDS: &str = "\
##########
#####.####
#####.####
#@  $  $ #
# $   $  #
####.#####
####.#####
##########";

#[test]
fn plan_orders_each_cluster_apart() {
    let level = parse_level(TWO_DEAD_ENDS).unwrap();
    let (p, plan) = plan_of(&level);
    assert_eq!(plan.clusters.len(), 2);
    let up = [goal_at(&p, &level, 1, 5), goal_at(&p, &level, 2, 5)];
    let down = [goal_at(&p, &level, 6, 4), goal_at(&p, &level, 5, 4)];
    for c in &plan.clusters {
        assert!(c[..] == up || c[..] == down, "each dead end from its far end: {c:?}");
    }
    assert!(plan.place[up[0] as usize] < plan.place[up[1] as usize]);
    assert!(plan.place[down[0] as usize] < plan.place[down[1] as usize]);
}

/// The backward analysis checks each removal against the boxes there are: once the goals
/// before it are filled, every goal left must still get a box of its own from the start
/// (push distances on the board with the filled goals as walls, the player followed round
/// each box). Here the two boxes in the middle row reach the top goals only by the shaft on
/// the right, pushed up by a player standing under it, on (4,6), which it reaches from the
/// bottom corridor through (5,6). Taking the bottom goals out first (fewest pulls) would
/// fill (5,6) before the top goals: then one box (on (2,4)) is left for the two top goals.
/// The checked plan fills the corner, a top goal, (5,6), and the top goal the box from (2,4)
/// can still reach.
const SHAFT: &str = "\
#########
#####..##
#@  $   #
# $ $  ##
# #### ##
#  $  ..#
#########";

#[test]
fn plan_leaves_each_goal_a_box_to_fill_it() {
    let level = parse_level(SHAFT).unwrap();
    let (p, plan) = plan_of(&level);
    let want: Vec<u16> =
        [(5, 7), (1, 6), (5, 6), (1, 5)].iter().map(|&(r, c)| goal_at(&p, &level, r, c)).collect();
    assert_eq!(plan.order, want);
    assert_eq!(plan.relaxed, 0);
    assert!(check(&level, "shaft"), "the fast search solves it");
}

/// The packing search's plan (Festival's): pulls from the solved position, each box taken
/// off the board on a start square of its own.
fn packing_plan_of(level: &Level) -> (Problem, Plan) {
    let p = Problem::new(&level.board);
    let layout = Layout::new(&level.board, &p);
    let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
    let plan = Plan::new(&p, &layout, &boxes);
    let a = Arc::new(Analysis::new(
        Arc::new(p.clone()),
        Arc::new(layout),
        Arc::new(plan),
        Arc::default(),
    ));
    let plan = packing_search_plan(&a, &boxes, Packing::Once).expect("a plan");
    (p, plan)
}

#[test]
fn packing_search_plans() {
    // A dead end: deepest goal first, every box placed on a start square.
    let level = parse_level("###########\n#@ $ $ $...#\n###########").unwrap();
    let (p, plan) = packing_plan_of(&level);
    let want: Vec<u16> = [10, 9, 8].iter().map(|&c| goal_at(&p, &level, 1, c)).collect();
    assert_eq!((plan.order.clone(), plan.relaxed, plan.parking_steps()), (want, 0, 0));
    // The shaft: one top goal is filled before the bottom ones take the way to the top,
    // the box from (2,4) fills the other.
    let level = parse_level(SHAFT).unwrap();
    let (p, plan) = packing_plan_of(&level);
    let want: Vec<u16> =
        [(1, 6), (5, 7), (5, 6), (1, 5)].iter().map(|&(r, c)| goal_at(&p, &level, r, c)).collect();
    assert_eq!((plan.order.clone(), plan.relaxed, plan.parking_steps()), (want, 0, 0));
    assert!(check(&level, "shaft"), "the fast search solves it");
    // Two dead ends: each from its far end.
    let level = parse_level(TWO_DEAD_ENDS).unwrap();
    let (p, plan) = packing_plan_of(&level);
    let place = |r, c| plan.place[goal_at(&p, &level, r, c) as usize];
    assert!(place(1, 5) < place(2, 5) && place(6, 4) < place(5, 4), "{:?}", plan.order);
    assert_eq!(plan.relaxed, 0);
}

#[test]
fn cluster_first_plans_fill_the_chosen_dead_end_first() {
    // Each alternative plan fills one dead end, far end first, before the other; a level
    // with one cluster has none.
    let level = parse_level(TWO_DEAD_ENDS).unwrap();
    let p = Problem::new(&level.board);
    let layout = Layout::new(&level.board, &p);
    let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
    let up = [goal_at(&p, &level, 1, 5), goal_at(&p, &level, 2, 5)];
    let down = [goal_at(&p, &level, 6, 4), goal_at(&p, &level, 5, 4)];
    let base = Plan::new(&p, &layout, &boxes);
    assert_eq!(base.cluster_count(), 2);
    for c in 0..2u16 {
        let plan = Plan::cluster_first(&p, &layout, &boxes, c, true).expect("two clusters");
        let first = &plan.order[..2];
        assert!(first.iter().all(|&j| base.cluster[j as usize] == c), "cluster {c}: {first:?}");
        let (a, b) = if up.contains(&first[0]) { (up, down) } else { (down, up) };
        assert_eq!(plan.order, [a[0], a[1], b[0], b[1]], "far end first in each dead end");
    }
    assert!(Plan::cluster_first(&p, &layout, &boxes, 2, true).is_none(), "no third cluster");
    let one = parse_level("#######\n#@ $$..#\n#######").unwrap();
    let p1 = Problem::new(&one.board);
    let l1 = Layout::new(&one.board, &p1);
    let b1: Vec<u16> = one.start.box_squares().iter().map(|&b| p1.compact[b]).collect();
    assert!(Plan::cluster_first(&p1, &l1, &b1, 0, true).is_none(), "one cluster: no alternative");
}

#[test]
fn rooms_links_and_areas() {
    // Two rooms joined by a one-square passage; a dead-end corridor off the right room.
    let text = "\
#########
#   #   #
# $   $ ####
#.  #  .  @#
############";
    let level = parse_level(text).unwrap();
    let p = Problem::new(&level.board);
    let rooms = Rooms::new(&p);
    let at = |r: usize, c: usize| p.compact[level.board.square(r, c)];
    assert_eq!(rooms.links, 1, "only the passage between the rooms links rooms");
    assert_ne!(rooms.link_of[at(2, 4) as usize], u16::MAX);
    assert_eq!(rooms.link_of[at(3, 9) as usize], u16::MAX, "a dead end links nothing");
    let layout = Layout::new(&level.board, &p);
    let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
    let mut plan = Plan::new(&p, &layout, &boxes);
    // Each goal is a cluster of its own: counted per cluster, a box on either is packed.
    plan.per_cluster = true;
    let mut scratch = FeatureScratch::new(&p, &rooms);
    let mut occupied = vec![false; p.n];
    let mut with = |bs: &[u16]| {
        occupied.fill(false);
        for &b in bs {
            occupied[b as usize] = true;
        }
        scratch.features(&p, &plan, &rooms, bs, &occupied)
    };
    let f = with(&boxes);
    assert_eq!((f.regions, f.blocked_links, f.packed), (1, 0, 0));
    // A box in the passage blocks the link and cuts the floor in two.
    let f = with(&[at(2, 4), at(3, 1)]);
    assert_eq!((f.regions, f.blocked_links), (2, 1));
    assert_eq!((f.packed, f.out_of_plan), (1, 0), "a box on a goal of its own cluster");
}

/// The stuck search (and the patterns learned from it) call a position stuck only when the
/// brute force finds no solution, and find many of those.
#[test]
fn stuck_search_is_sound() {
    use sokoban_solver::analysis::deadlock::stuck::{Patterns, StuckSearch, Verdict, SEARCH_LIMIT};
    let mut rng = XorShift(0x57C4_0000_DEAD_10CC);
    let (mut tried, mut stuck, mut unsolvable) = (0, 0, 0);
    while tried < 400 {
        let Some(level) = random_level(&mut rng, [18, 35][tried % 2], 3) else { continue };
        tried += 1;
        let p = Problem::new(&level.board);
        let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
        let player = p.compact[level.start.player];
        let mut search = StuckSearch::new(&p);
        let verdict = search.run(&p, &boxes, player, SEARCH_LIMIT);
        let solvable = brute_force(&level).is_some();
        unsolvable += !solvable as usize;
        if verdict == Verdict::Stuck {
            let text = sokoban_core::format::to_xsb(&level);
            assert!(!solvable, "called stuck but solvable:\n{text}");
            stuck += 1;
            // The pattern learned from it holds in the position.
            let mut patterns = Patterns::new(&p);
            if patterns.learn(&p, &mut search, &boxes, player).is_some() {
                let mut occupied = vec![false; p.n];
                for &b in &boxes {
                    occupied[b as usize] = true;
                }
                assert!(patterns.matches(&occupied, &boxes, player), "{text}");
            }
        }
        if solvable {
            assert_ne!(verdict, Verdict::Stuck);
        }
    }
    assert!(stuck * 2 > unsolvable, "found {stuck} of {unsolvable} unsolvable levels");
}

/// Any subset of the boxes of a solvable position is solvable (fewer boxes only make
/// room): the stuck search, with its PI-corral pruning for fewer boxes than goals, never
/// calls one stuck — on crowded rooms pulled back from their goals (solvable by
/// construction) and on random rooms the brute force solves; on the random rooms it
/// cannot, it proves subsets stuck.
#[test]
fn stuck_search_on_box_subsets_is_sound() {
    use sokoban_solver::analysis::deadlock::stuck::{StuckSearch, Verdict};
    let mut rng = XorShift(0x5B5E_7C0B_0A11_0003);
    let (mut tried, mut of_solvable, mut stuck) = (0, 0, 0);
    while tried < 500 {
        let pulled = tried % 2 == 0;
        let level = if pulled {
            random_pulled_level(&mut rng, tried % 4 == 0)
        } else {
            random_level(&mut rng, 15, 4)
        };
        let Some(level) = level else { continue };
        tried += 1;
        let p = Problem::new(&level.board);
        let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
        let player = p.compact[level.start.player];
        let solvable = pulled || brute_force(&level).is_some();
        let mut search = StuckSearch::new(&p);
        for mask in 1u32..(1 << boxes.len()) - 1 {
            let set: Vec<u16> =
                (0..boxes.len()).filter(|&i| mask >> i & 1 != 0).map(|i| boxes[i]).collect();
            if set.len() < 2 {
                continue;
            }
            let verdict = search.run(&p, &set, player, 1000);
            if solvable {
                let text = sokoban_core::format::to_xsb(&level);
                assert_ne!(verdict, Verdict::Stuck, "a subset of a solvable level:\n{text}");
                of_solvable += 1;
            } else {
                stuck += (verdict == Verdict::Stuck) as usize;
            }
        }
    }
    assert!(of_solvable > 1000 && stuck > 100, "{of_solvable} subsets of solvable, {stuck} stuck");
}

/// The fast search's deadlock tests call a position dead only when the brute force finds
/// no solution (with PI-corrals of several areas too); among them, the matching on the
/// problem with the boxes frozen on goals made walls finds positions the other tests miss.
#[test]
fn dead_tests_are_sound_and_the_reduced_matching_adds_cuts() {
    use sokoban_solver::fast::board::State;
    use sokoban_solver::fast::dead::DeadTests;
    let mut rng = XorShift(0xF1CE_D0A1_5EED_0042);
    let (mut tried, mut dead, mut reduced) = (0, 0, 0);
    while tried < 1500 {
        let Some(level) = random_level(&mut rng, [15, 30][tried % 2], 4) else { continue };
        tried += 1;
        let p = Problem::new(&level.board);
        let layout = Layout::new(&level.board, &p);
        let mut boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
        boxes.sort_unstable();
        let mut st = State::new(&p, &layout);
        st.set(&p, &layout, &boxes, p.compact[level.start.player]);
        let mut tests = DeadTests::new(&p, &level.board, None, Some(1 << 20));
        let mut merged = DeadTests::new(&p, &level.board, None, Some(1 << 20));
        merged.merge_corrals(true);
        if merged.at_start(&p, &st) {
            let text = sokoban_core::format::to_xsb(&level);
            assert!(brute_force(&level).is_none(), "called dead with corrals merged:\n{text}");
        }
        if tests.at_start(&p, &st) {
            let text = sokoban_core::format::to_xsb(&level);
            assert!(brute_force(&level).is_none(), "called dead but solvable:\n{text}");
            dead += 1;
            reduced += tests.reduced_cuts as usize;
        }
    }
    assert!(dead > 50, "{dead} dead positions found");
    assert!(reduced > 0, "the reduced matching found none of the {dead}");
}

/// The best position's picture reads back as a level of the same board: the player's
/// square (the smallest of its area, here a goal) keeps its goal.
#[test]
fn best_picture_reads_back_as_a_level() {
    let text = "######\n#.   #\n# $$ #\n#   .#\n#@   #\n######";
    let level = parse_level(text).unwrap();
    let p = Problem::new(&level.board);
    let player = p.compact[level.start.player];
    let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
    let mut f = FastSearch::new(&level.board, p, player, &boxes, 1 << 20, &Default::default());
    f.run(1);
    let picture = f.best_picture(&level.board).expect("a best position");
    let back = parse_level(&picture).unwrap_or_else(|e| panic!("{e}:\n{picture}"));
    assert_eq!(back.board.goal_count(), level.board.goal_count(), "{picture}");
    assert_eq!(back.start.box_squares().len(), 2, "{picture}");
}

/// Play pushes (compact square the box leaves, direction) on `level`'s problem: each box
/// is there, its next square free, the player can walk behind it; true when the last push
/// leaves every box on a goal.
fn pushes_solve(level: &Level, p: &Problem, pushes: &[(u16, u8)]) -> bool {
    let mut boxed = vec![false; p.n];
    for b in level.start.box_squares() {
        boxed[p.compact[b] as usize] = true;
    }
    let mut player = p.compact[level.start.player];
    for &(from, d) in pushes {
        let (from, d) = (from as usize, d as usize);
        let to = p.nbr[from][d];
        let stand = p.nbr[from][d ^ 2];
        assert!(boxed[from] && to != NONE && !boxed[to as usize] && stand != NONE);
        // The player walks to `stand` round the boxes.
        let mut seen = vec![false; p.n];
        let mut stack = vec![player];
        seen[player as usize] = true;
        while let Some(s) = stack.pop() {
            for &t in &p.nbr[s as usize] {
                if t != NONE && !boxed[t as usize] && !seen[t as usize] {
                    seen[t as usize] = true;
                    stack.push(t);
                }
            }
        }
        assert!(seen[stand as usize], "the player reaches the push");
        boxed[from] = false;
        boxed[to as usize] = true;
        player = from as u16;
    }
    (0..p.n).all(|s| !boxed[s] || p.is_goal[s])
}

/// The greedy probe alone agrees with the brute force: it solves the solvable random
/// levels (the pushes replay) and exhausts the unsolvable ones.
#[test]
fn greedy_search_matches_brute_force() {
    use sokoban_solver::fast::fess::FessEvent;
    use sokoban_solver::fast::greedy::Greedy;
    use sokoban_solver::fast::shared::Learned;
    let mut rng = XorShift(0x06EE_D700_0000_0A01);
    let (mut solved, mut unsolvable, mut tried) = (0, 0, 0);
    while tried < 400 {
        let wall_pct = [18, 35][tried % 2];
        let Some(level) = random_level(&mut rng, wall_pct, 3) else { continue };
        tried += 1;
        let text = sokoban_core::format::to_xsb(&level);
        let want = brute_force(&level);
        let (p, a, player, boxes) = analysis_of(&level);
        let mut g = Greedy::new(a, player, &boxes, 64 << 20, Learned::new(&p));
        let event = loop {
            match g.run(10_000) {
                FessEvent::Budget => {}
                e => break e,
            }
        };
        match (want, event) {
            (Some(_), FessEvent::Solved(pushes)) => {
                assert!(pushes_solve(&level, &p, &pushes), "{text}: the pushes solve it");
                solved += 1;
            }
            (None, FessEvent::Exhausted) => unsolvable += 1,
            (w, e) => panic!("{text}: brute force {w:?}, greedy {e:?}"),
        }
    }
    assert!(solved > 60 && unsolvable > 100, "solved {solved}, unsolvable {unsolvable}");
}

/// The HF stage begun at once (Festival's second strategy: a backward search, then a
/// search toward the backward search's position with the fewest boxes on goals, ending by
/// meeting its positions): the stage starts, and the level is solved all the same, by
/// whichever search gets there, with pushes that replay.
#[test]
fn hf_stage_starts_and_the_level_is_still_solved() {
    let level = parse_level(
        "#########\n#...#   #\n#...  $ #\n#.. # $ ##\n## ## $  #\n#  $ $ $ #\n# $ @ $  #\n#   #    #\n#########",
    )
    .unwrap();
    let p = Problem::new(&level.board);
    let player = p.compact[level.start.player];
    let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
    let mut f = FastSearch::new(&level.board, p, player, &boxes, 64 << 20, &Default::default());
    f.set_hf_stage(0, 8);
    for _ in 0..200_000 {
        match f.run(1) {
            FastEvent::Solved(pushes) => {
                assert!(f.hf_started(), "the stage began before the solution");
                assert!(pushes_solve(&level, f.problem(), &pushes));
                return;
            }
            FastEvent::Budget => {}
            ev => panic!("{ev:?}"),
        }
    }
    panic!("not solved");
}

/// The fast search's analysis of a level (its greedy removals' plan), with the start's
/// player and boxes as compact squares.
fn analysis_of(level: &Level) -> (Arc<Problem>, Arc<Analysis>, u16, Vec<u16>) {
    let p = Arc::new(Problem::new(&level.board));
    let layout = Arc::new(Layout::new(&level.board, &p));
    let boxes: Vec<u16> = level.start.box_squares().into_iter().map(|b| p.compact[b]).collect();
    let plan = Arc::new(Plan::new(&p, &layout, &boxes));
    let a = Arc::new(Analysis::new(Arc::clone(&p), layout, plan, Arc::default()));
    (Arc::clone(&p), a, p.compact[level.start.player], boxes)
}

/// Squares a box on `from` can be pushed to on the board without other boxes (a push needs
/// floor behind the box and ahead of it).
fn push_reach(p: &Problem, from: u16) -> Vec<bool> {
    let mut seen = vec![false; p.n];
    let mut stack = vec![from];
    seen[from as usize] = true;
    while let Some(x) = stack.pop() {
        for d in 0..4 {
            let (ahead, behind) = (p.step(x, d), p.step(x, (d + 2) & 3));
            if ahead != NONE && behind != NONE && !seen[ahead as usize] {
                seen[ahead as usize] = true;
                stack.push(ahead);
            }
        }
    }
    seen
}

/// Whether every box square can have a start box of its own that reaches it by pushes
/// (Kuhn's augmenting paths, written out here apart from the solver's matcher).
fn matched_from_start(reach: &[Vec<bool>], squares: &[u16]) -> bool {
    fn augment(
        i: usize,
        reach: &[Vec<bool>],
        sq: &[u16],
        seen: &mut [bool],
        to: &mut [usize],
    ) -> bool {
        for j in 0..sq.len() {
            if reach[i][sq[j] as usize] && !seen[j] {
                seen[j] = true;
                if to[j] == usize::MAX || augment(to[j], reach, sq, seen, to) {
                    to[j] = i;
                    return true;
                }
            }
        }
        false
    }
    let mut to = vec![usize::MAX; squares.len()];
    (0..reach.len()).all(|i| augment(i, reach, squares, &mut vec![false; squares.len()], &mut to))
}

/// Both orders of the backward search the HF stage runs (toward the start squares, and
/// away from the goals) take as their best position only one whose boxes the start boxes
/// could each be pushed to — else the HF search toward it would end at once — on crowded
/// rooms pulled back from their goals; and the two orders do not always agree.
#[test]
fn backward_best_positions_are_reachable_from_the_start() {
    use sokoban_solver::fast::back::{BackEvent, Backward};
    let mut rng = XorShift(0xBAC4_0000_0000_0019);
    let (mut tried, mut differ) = (0, 0);
    while tried < 60 {
        let Some(level) = random_pulled_level(&mut rng, tried % 2 == 0) else { continue };
        tried += 1;
        let text = sokoban_core::format::to_xsb(&level);
        let (p, a, player, boxes) = analysis_of(&level);
        let reach: Vec<Vec<bool>> = boxes.iter().map(|&b| push_reach(&p, b)).collect();
        let mut bests = Vec::new();
        for away in [false, true] {
            let mut back = if away {
                Backward::away(Arc::clone(&a), player, &boxes, 16 << 20)
            } else {
                Backward::new(Arc::clone(&a), player, &boxes, 16 << 20)
            };
            for _ in 0..20 {
                match back.run(1_000) {
                    BackEvent::Budget => {}
                    _ => break,
                }
            }
            let best = back.best().map(|id| back.position(id).0.to_vec());
            if let Some(squares) = &best {
                assert!(matched_from_start(&reach, squares), "away {away}: {squares:?}\n{text}");
            }
            bests.push(best);
        }
        differ += (bests[0] != bests[1]) as usize;
    }
    assert!(differ > 0, "the two orders found the same best positions on every level");
}

/// Every development switch runs: the room is solved under each, with moves the rules
/// engine replays; the trace says which strategy solved it, and an order by hand that
/// names no goal, or parks a box that moves on to no later step, is refused in the trace
/// (one with a parking step is taken).
#[test]
fn every_experiment_still_solves_the_room() {
    use sokoban_solver::fast::Experiments;
    let level = parse_level(ROOM).unwrap();
    let goals: Vec<String> = (0..level.board.len())
        .filter(|&s| level.board.is_goal(s))
        .map(|s| {
            let (r, c) = level.board.row_col(s);
            format!("{r}:{c}")
        })
        .collect();
    let names =
        "rules scored noalt noadv nocorral scoredshare3 hfafter0 pullevery8 oneplan noclusterplans nogreedy \
                 nosprint nootherplan nohf back cluster noparksteps nopacksearch noapproach nojoin \
                 nolink nooop nountil nopairs noreduced nopockets nosupply merge stops stopscored trace";
    let order = format!("order={}", goals.join(";"));
    // A plan with a parking step: a box first onto a floor square off the goals, moving on
    // to the first goal; and one whose parked box moves on to no later step (refused).
    let floor = (0..level.board.len())
        .find(|&s| level.board.is_floor(s) && !level.board.is_goal(s))
        .map(|s| {
            let (r, c) = level.board.row_col(s);
            format!("{r}:{c}")
        })
        .unwrap();
    let parked = format!("trace,order={floor}>{};{}", goals[0], goals.join(";"));
    let stray = format!("trace,order={};{floor}>{}", goals.join(";"), goals[0]);
    let hand = [order.as_str(), "trace,order=0:0", parked.as_str(), stray.as_str()];
    for name in names.split_whitespace().chain(hand) {
        let experiments = Experiments::parse(name).unwrap();
        let options = Options { experiments, ..fast_options() };
        let mut s = Solver::new(&level, &level.start, options).expect("setup");
        let clock = StdClock::new();
        let r = loop {
            if let Step::Done(r) = s.step(&clock, 50.0) {
                break r;
            }
        };
        assert_eq!(r.status, Status::Solved, "{name}");
        let sol = r.solution.expect("solution");
        assert_eq!(replays(&level, &sol.moves, name), sol.pushes, "{name}");
        let solver = s.solved_by().expect("the solving strategy is known");
        let trace = s.take_trace();
        if name.starts_with("trace") {
            assert!(trace.iter().any(|t| t.contains(solver)), "{name}: {trace:?}");
        } else {
            assert!(trace.is_empty(), "{name}: no trace unless asked");
        }
        if name.ends_with("order=0:0") || name == stray {
            assert!(trace.iter().any(|t| t.contains("ignored")), "{name}: {trace:?}");
        }
        if name == parked {
            assert!(!trace.iter().any(|t| t.contains("ignored")), "{name}: {trace:?}");
        }
    }
}

/// A watched solution (`watch=LURD`) changes nothing in the search and is followed push by
/// push: the search's own solution, watched, is stored to its last position, never called
/// dead; a solution cut short is watched up to the cut.
#[test]
fn watched_solution_is_followed_to_its_end() {
    use sokoban_solver::fast::Experiments;
    let level = parse_level(ROOM).unwrap();
    let solve_with = |switches: &str| {
        let experiments = Experiments::parse(switches).unwrap();
        let options = Options { experiments, shorten: 0, ..fast_options() };
        let mut s = Solver::new(&level, &level.start, options).expect("setup");
        let clock = StdClock::new();
        let r = loop {
            if let Step::Done(r) = s.step(&clock, 50.0) {
                break r;
            }
        };
        (r, s.fast_stats().expect("fast statistics"))
    };
    let (r, stats) = solve_with("");
    let sol = r.solution.expect("solved");
    assert_eq!(stats.watch_len, 0, "nothing watched");
    let lurd = sokoban_core::lurd::to_lurd(&sol.moves);
    let (again, stats) = solve_with(&format!("watch={lurd}"));
    assert_eq!(again.solution.expect("solved").moves, sol.moves, "the same search");
    assert_eq!(stats.watch_len as usize, sol.pushes);
    assert_eq!(stats.watch_deepest as usize, sol.pushes, "its own path is stored");
    assert_eq!(stats.watch_dead, 0);
    assert!(stats.watch_expanded > 0 && stats.watch_expanded < stats.watch_len);
    // Cut by a letter that is no move: what came before is watched.
    let half = &lurd[..lurd.len() / 2];
    let (_, stats) = solve_with(&format!("watch={half}x{}", &lurd[lurd.len() / 2..]));
    assert_eq!(stats.watch_len as usize, half.chars().filter(|c| c.is_ascii_uppercase()).count());
}
