//! Rules, parity, the pattern database builder against a plain breadth-first search of
//! its abstract space, the game's history, and the solver's slices, limits and cancel.

mod common;

use std::collections::VecDeque;

use tile_puzzle::board::neighbor;
use tile_puzzle::pdb::PdbBuilder;
use tile_puzzle::{
    Board, Clock, DbCache, Dir, Game, GoalKind, HeuristicKind, Limit, Options, Phase, Rng, Solver,
    Status, Step,
};

/// Solvability as the textbooks state it: for an odd width the number of inversions of
/// the tiles (blank left out) must be even; for an even width the inversions plus the
/// blank's row counted from the bottom (1-based) must be odd. Goal: blank last.
fn textbook_solvable(b: &Board) -> bool {
    let t: Vec<u8> = b.tiles().iter().copied().filter(|&x| x != 0).collect();
    let inv =
        (0..t.len()).map(|i| (i + 1..t.len()).filter(|&j| t[i] > t[j]).count()).sum::<usize>();
    if b.width() % 2 == 1 {
        inv % 2 == 0
    } else {
        let row_from_bottom = b.height() - b.blank() / b.width();
        (inv + row_from_bottom) % 2 == 1
    }
}

#[test]
fn parity_matches_reachability_and_the_textbook_rule() {
    // Small boards: every permutation, against the set reached by breadth-first search.
    for (w, h) in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)] {
        for kind in [GoalKind::BlankFirst, GoalKind::BlankLast] {
            let goal = Board::goal(w, h, kind).unwrap();
            let reach = common::bfs(&goal, 1000);
            let n = w * h;
            let fact: usize = (1..=n).product();
            assert_eq!(reach.len(), fact / 2, "{w}x{h}");
            let mut rng = Rng::new(7);
            for _ in 0..3000 {
                let mut t: Vec<u8> = (0..n as u8).collect();
                for i in (1..n).rev() {
                    t.swap(i, rng.below(i as u64 + 1) as usize);
                }
                let b = Board::new(w, h, t.clone()).unwrap();
                assert_eq!(b.can_reach(&goal), reach.contains_key(&common::pack(&t)), "{b:?}");
            }
        }
    }
    // Larger boards: against the textbook rule.
    let mut rng = Rng::new(8);
    for (w, h) in [(4, 4), (5, 5), (4, 3), (3, 4), (5, 4), (4, 5), (3, 5)] {
        let goal = Board::goal(w, h, GoalKind::BlankLast).unwrap();
        for _ in 0..2000 {
            let n = w * h;
            let mut t: Vec<u8> = (0..n as u8).collect();
            for i in (1..n).rev() {
                t.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let b = Board::new(w, h, t).unwrap();
            assert_eq!(b.can_reach(&goal), textbook_solvable(&b), "{b:?}");
        }
    }
}

#[test]
fn unsolvable_positions_answer_at_once() {
    let cache = DbCache::new();
    for (text, kind) in [
        ("1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0", GoalKind::BlankLast),
        ("0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15", GoalKind::BlankFirst),
        ("2 1 3 0", GoalKind::BlankLast),
    ] {
        let b = Board::parse(text, None).unwrap();
        let goal = Board::goal(b.width(), b.height(), kind).unwrap();
        let r = common::solve(&b, &goal, HeuristicKind::Auto, &cache);
        assert_eq!(r.status, Status::Unsolvable, "{text}");
        assert_eq!(r.nodes, 0);
        assert!(cache.is_empty(), "no database is built for an unsolvable position");
    }
    // A random 5x5 position with two tiles swapped from a reachable one.
    let goal = Board::goal(5, 5, GoalKind::BlankFirst).unwrap();
    let mut t = Board::random(&goal, &mut Rng::new(3)).tiles().to_vec();
    let (i, j) = (t.iter().position(|&x| x == 1).unwrap(), t.iter().position(|&x| x == 2).unwrap());
    t.swap(i, j);
    let r = common::solve(&Board::new(5, 5, t).unwrap(), &goal, HeuristicKind::Auto, &cache);
    assert_eq!(r.status, Status::Unsolvable);
}

/// The table by a plain 0-1 breadth-first search over (cells of the group's tiles, blank
/// cell), then the least over the blank's cells.
fn brute_force_table(w: usize, h: usize, cells: &[u8]) -> Vec<(Vec<u8>, u8)> {
    use std::collections::HashMap;
    let n = w * h;
    let mut dist: HashMap<(Vec<u8>, u8), u8> = HashMap::new();
    let mut dq = VecDeque::new();
    for b in 0..n as u8 {
        if !cells.contains(&b) {
            dist.insert((cells.to_vec(), b), 0);
            dq.push_back((cells.to_vec(), b));
        }
    }
    while let Some((pos, b)) = dq.pop_front() {
        let d = dist[&(pos.clone(), b)];
        for dir in Dir::ALL {
            let Some(q) = neighbor(w, h, b as usize, dir) else { continue };
            let q = q as u8;
            let mut p2 = pos.clone();
            let cost = match pos.iter().position(|&c| c == q) {
                Some(i) => {
                    p2[i] = b;
                    1
                }
                None => 0,
            };
            let key = (p2, q);
            if dist.get(&key).is_none_or(|&old| old > d + cost) {
                dist.insert(key.clone(), d + cost);
                if cost == 0 {
                    dq.push_front(key);
                } else {
                    dq.push_back(key);
                }
            }
        }
    }
    let mut best: HashMap<Vec<u8>, u8> = HashMap::new();
    for ((pos, _), d) in dist {
        let e = best.entry(pos).or_insert(d);
        *e = (*e).min(d);
    }
    best.into_iter().collect()
}

#[test]
fn pattern_databases_match_a_plain_search() {
    for (w, h, cells) in [
        (3, 3, vec![1u8, 2, 3, 4]),
        (3, 3, vec![5, 6, 7, 8]),
        (2, 4, vec![0, 3, 6]),
        (4, 4, vec![1, 2, 3]),
        (4, 3, vec![0, 5, 6, 9]),
        (5, 5, vec![12, 0]),
    ] {
        let mut b = PdbBuilder::new(w, h, &cells);
        while !b.run(1000) {}
        let db = b.finish(0.0);
        let want = brute_force_table(w, h, &cells);
        assert_eq!(db.placements as usize, want.len());
        for (pos, d) in want {
            assert_eq!(db.value(&pos), d, "{w}x{h} {cells:?} at {pos:?}");
        }
    }
}

#[test]
fn game_history_with_groups() {
    let goal = Board::goal(3, 3, GoalKind::BlankLast).unwrap();
    let start = Board::parse("1 2 3 4 5 6 0 7 8", None).unwrap();
    let mut g = Game::new(start.clone(), goal).unwrap();
    assert!(!g.is_solved() && g.solvable());
    // A click on the last cell of the row slides two tiles: one group.
    let moves = g.board().moves_to(8);
    assert_eq!(moves, vec![Dir::Right, Dir::Right]);
    g.begin_group();
    for &d in &moves {
        assert!(g.step(d).is_some());
    }
    g.end_group();
    assert!(g.is_solved());
    assert_eq!(g.moves(), 2);
    assert!(g.undo());
    assert_eq!(g.board(), &start);
    assert!(g.can_redo());
    assert!(g.redo());
    assert!(g.is_solved());
    assert!(g.step(Dir::Down).is_none(), "off the board");
    g.undo_all();
    assert_eq!(g.moves(), 0);
    assert_eq!(g.redo_all(), 2);
    assert_eq!(tile_puzzle::letters(&g.line()), "RR");
    assert!(g.play(&[Dir::Up, Dir::Right]).is_err(), "R from the right edge");
    assert_eq!(g.moves(), 2, "all or nothing");
    assert!(g.board().moves_to(0).is_empty(), "not in the blank's row or column");
}

#[test]
fn reading_positions() {
    assert!(Board::parse("1 2 3", None).unwrap_err().0.contains("square"));
    assert!(Board::parse("1 2 3 4 5 6 7 8 8", None).unwrap_err().0.contains("twice"));
    assert!(Board::parse("1 2 3 4 5 6 7 8 9", None).unwrap_err().0.contains("out of range"));
    assert!(Board::parse("1 2 x 4", None).unwrap_err().0.contains("'x'"));
    let b = Board::parse("1,2,3\n4,5,6 / 7,8,0", None).unwrap();
    assert_eq!((b.width(), b.height()), (3, 3));
    let b = Board::parse("1 2 3 4 5 0", Some((3, 2))).unwrap();
    assert_eq!((b.width(), b.height(), b.blank()), (3, 2, 5));
    assert!(Board::new(6, 6, (0..36).collect()).is_err());
    assert_eq!(tile_puzzle::parse_size("15"), Some((4, 4)));
    assert_eq!(tile_puzzle::parse_size("3x4"), Some((3, 4)));
    assert_eq!(tile_puzzle::parse_size("6x2"), None);
    assert_eq!(tile_puzzle::parse_moves("u r D l").unwrap().len(), 4);
    assert!(tile_puzzle::parse_moves("UX").is_err());
}

struct FakeClock(std::cell::Cell<f64>);
impl Clock for FakeClock {
    fn now_ms(&self) -> f64 {
        let t = self.0.get();
        self.0.set(t + 0.01);
        t
    }
}

#[test]
fn the_solver_runs_in_slices_reports_and_stops() {
    let cache = DbCache::new();
    let goal = Board::goal(4, 4, GoalKind::BlankFirst).unwrap();
    let start = Board::random_walk(&goal, 70, &mut Rng::new(11));
    let clock = FakeClock(std::cell::Cell::new(0.0));
    let mut s = Solver::new(&start, &goal, Options::default(), &cache).unwrap();
    let (mut building, mut iterations, mut last_threshold) = (0, 0, 0);
    let report = loop {
        match s.step(&clock, 0.5) {
            Step::Running(p) => {
                if p.phase == Phase::Building {
                    building += 1;
                    assert!(p.db.building >= 0.0 && p.db.building <= 1.0);
                } else {
                    assert_eq!(p.db.ready, 3);
                    assert_eq!(p.db.partition, "6-6-3");
                }
                if p.iteration_done {
                    iterations += 1;
                    assert!(p.threshold >= last_threshold);
                    last_threshold = p.threshold;
                }
            }
            Step::Done(r) => break r,
        }
    };
    assert!(building > 10, "the build is reported in slices");
    assert_eq!(report.status, Status::Solved);
    let n = report.solution.as_ref().unwrap().moves.len();
    assert_eq!(n, common::length(&start, &goal, HeuristicKind::LinearConflict, &cache));
    let root = s.progress(&clock).root_bound;
    assert_eq!(iterations as u32, (n as u32 - root) / 2, "{n} moves, bound {root} at the start");
    // The next search finds the tables in the cache.
    let mut s = Solver::new(&start, &goal, Options::default(), &cache).unwrap();
    match s.step(&clock, 1000.0) {
        Step::Running(p) => assert_eq!(p.db.cached, 3),
        Step::Done(r) => assert_eq!(r.status, Status::Solved),
    }
    // Node limit, cancel.
    // A random position (about 53 moves on average: more than a few thousand nodes).
    let hard = Board::random(&goal, &mut Rng::new(99));
    let options = Options { node_limit: Some(5000), ..Options::default() };
    let mut s = Solver::new(&hard, &goal, options, &cache).unwrap();
    let r = loop {
        if let Step::Done(r) = s.step(&clock, 1000.0) {
            break r;
        }
    };
    assert_eq!(r.status, Status::Limit(Limit::Nodes));
    assert!(r.threshold >= 40);
    let mut s = Solver::new(&hard, &goal, Options::default(), &cache).unwrap();
    s.step(&clock, 1.0);
    assert_eq!(s.cancel(&clock).status, Status::Cancelled);
    assert!(matches!(s.step(&clock, 1.0), Step::Done(r) if r.status == Status::Cancelled));
    // Time limit.
    let options = Options { time_limit_ms: Some(2.0), ..Options::default() };
    let mut s = Solver::new(&hard, &goal, options, &cache).unwrap();
    let r = loop {
        if let Step::Done(r) = s.step(&clock, 1.0) {
            break r;
        }
    };
    assert_eq!(r.status, Status::Limit(Limit::Time));
    // Already solved: no moves.
    let r = common::solve(&goal, &goal, HeuristicKind::Auto, &cache);
    assert_eq!((r.status, r.solution.unwrap().moves.len()), (Status::Solved, 0));
}
