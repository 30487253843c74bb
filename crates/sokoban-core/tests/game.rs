//! Rules engine and history: legal moves, pushes, undo/redo/restart, and a property test
//! that random legal move sequences undo back to the start.

use proptest::prelude::*;
use sokoban_core::{Dir, Game, Grid, Level, Move, PullGame, Tile};

fn level(text: &str) -> Level {
    let rows: Vec<Vec<Tile>> = text
        .lines()
        .map(|l| l.chars().map(|c| Tile::from_xsb(c).expect("xsb char")).collect())
        .collect();
    let n = rows.len();
    Grid { rows, title: None, lines: vec![None; n] }.validate().expect("valid level")
}

// Player (2,3); boxes (1,4) and (3,3); goals (1,1) and (3,4).
const ROOM: &str = "\
#######
#.  $ #
# #@  #
#  $. #
#######";

fn dirs(s: &str) -> Vec<Dir> {
    s.chars().map(|c| Dir::from_lurd(c).unwrap()).collect()
}

fn walk(d: Dir) -> Option<Move> {
    Some(Move { dir: d, push: false })
}

fn push(d: Dir) -> Option<Move> {
    Some(Move { dir: d, push: true })
}

#[test]
fn walls_and_stuck_boxes_block() {
    let mut g = Game::new(level(ROOM));
    let start = g.position().clone();
    // Down pushes the box at (3,3) into the wall: blocked.
    assert_eq!(g.step(Dir::Down), None);
    // Left is a wall.
    assert_eq!(g.step(Dir::Left), None);
    assert_eq!(g.position(), &start);
    assert_eq!((g.moves(), g.pushes()), (0, 0));
    assert!(!g.can_undo());
    // Two boxes in a row cannot be pushed.
    let mut g = Game::new(level("#######\n#@$$..#\n#######"));
    assert_eq!(g.step(Dir::Right), None);
}

#[test]
fn solve_by_hand_with_counters() {
    let mut g = Game::new(level(ROOM));
    let plan = "ullddrRurruLLL";
    let expected: Vec<Option<Move>> = plan
        .chars()
        .map(|c| {
            let d = Dir::from_lurd(c).unwrap();
            if c.is_uppercase() {
                push(d)
            } else {
                walk(d)
            }
        })
        .collect();
    for (i, (d, e)) in dirs(plan).into_iter().zip(expected).enumerate() {
        assert!(!g.is_solved(), "solved too early at move {i}");
        assert_eq!(g.step(d), e, "move {i}");
    }
    assert!(g.is_solved());
    assert_eq!(g.moves(), 14);
    assert_eq!(g.pushes(), 4);
    assert_eq!(g.boxes_on_goals(), 2);
    let lurd: String = g.line().iter().map(|m| m.lurd()).collect();
    assert_eq!(lurd, "ullddrRurruLLL");
}

#[test]
fn undo_redo_and_redo_kept_by_same_step() {
    let mut g = Game::new(level(ROOM));
    let start = g.position().clone();
    for d in dirs("ullddrR") {
        g.step(d).unwrap();
    }
    let after = g.position().clone();
    assert_eq!(g.pushes(), 1);
    assert!(g.undo());
    assert_eq!(g.pushes(), 0);
    assert_eq!(g.moves(), 6);
    assert!(g.redo());
    assert_eq!(g.position(), &after);
    assert_eq!(g.undo_all(), 7);
    assert_eq!(g.position(), &start);
    assert!(!g.undo());
    // Stepping the same way as the next redo move keeps the rest of the redo list.
    g.step(Dir::Up).unwrap();
    assert_eq!(g.redo_moves().len(), 6);
    // A different step clears it.
    g.step(Dir::Right).unwrap();
    assert!(g.redo_moves().is_empty());
    assert!(!g.redo());
}

#[test]
fn restart_is_undoable() {
    let mut g = Game::new(level(ROOM));
    let start = g.position().clone();
    for d in dirs("ullddrR") {
        g.step(d).unwrap();
    }
    let here = g.position().clone();
    g.undo(); // one move on the redo list
    let before_restart = g.position().clone();
    assert!(g.restart());
    assert_eq!(g.position(), &start);
    assert_eq!((g.moves(), g.pushes()), (0, 0));
    assert!(!g.restart(), "restart at the start does nothing");
    // Home stops at the restart; undo crosses it.
    assert_eq!(g.undo_all(), 0);
    assert!(g.undo());
    assert_eq!(g.position(), &before_restart);
    assert_eq!(g.moves(), 6);
    // Undoing the restart brought back the redo list too.
    assert_eq!(g.redo_moves().len(), 1);
    assert!(g.redo());
    assert_eq!(g.position(), &here);
    g.undo();
    assert_eq!(g.step(Dir::Left), walk(Dir::Left));
    assert!(g.redo_moves().is_empty());
}

#[test]
fn play_is_all_or_nothing_and_checks_push_flags() {
    let mut g = Game::new(level(ROOM));
    let start = g.position().clone();
    let bad: Vec<Move> = dirs("ulldd").into_iter().map(|d| Move { dir: d, push: false }).collect();
    let mut with_wall = bad.clone();
    with_wall.push(Move { dir: Dir::Left, push: false });
    let err = g.play(&with_wall).unwrap_err();
    assert!(err.message.contains("move 6"), "{}", err.message);
    assert_eq!(g.position(), &start);
    let mut wrong_flag = bad.clone();
    wrong_flag.push(Move { dir: Dir::Right, push: false });
    wrong_flag.push(Move { dir: Dir::Right, push: false });
    let err = g.play(&wrong_flag).unwrap_err();
    assert!(err.message.contains("move 7") && err.message.contains("'R'"), "{}", err.message);
    assert_eq!(g.position(), &start);
    g.play(&bad).unwrap();
    assert_eq!(g.moves(), 5);
}

#[test]
fn restore_rebuilds_history() {
    let lvl = level(ROOM);
    let mut g = Game::new(lvl.clone());
    for d in dirs("ullddrRur") {
        g.step(d).unwrap();
    }
    g.undo();
    g.undo();
    let line = g.line().to_vec();
    let redo = g.redo_moves();
    let r = Game::restore(lvl.clone(), &line, &redo).unwrap();
    assert_eq!(r.position(), g.position());
    assert_eq!(r.redo_moves(), redo);
    let mut r2 = r.clone();
    r2.redo_all();
    assert_eq!(r2.moves(), 9);
    // A redo list that does not fit is refused.
    let bad = vec![Move { dir: Dir::Down, push: false }; 5];
    assert!(Game::restore(lvl, &line, &bad).is_err());
}

#[test]
fn groups_undo_and_redo_as_one() {
    let mut g = Game::new(level(ROOM));
    let start = g.position().clone();
    g.step(Dir::Up).unwrap();
    g.begin_group();
    for d in dirs("lldd") {
        g.step(d).unwrap();
    }
    g.end_group();
    g.step(Dir::Right).unwrap();
    let end = g.position().clone();
    assert!(g.undo()); // the single step
    assert_eq!(g.moves(), 5);
    assert!(g.undo()); // the whole group
    assert_eq!(g.moves(), 1);
    assert!(g.redo());
    assert_eq!(g.moves(), 5);
    assert!(g.redo());
    assert_eq!(g.position(), &end);
    // play() is one group; restore() keeps single steps.
    let moves: Vec<Move> = g.line().to_vec();
    let mut h = Game::new(level(ROOM));
    h.play(&moves).unwrap();
    assert!(h.undo());
    assert_eq!(h.position(), &start);
    let mut r = Game::restore(level(ROOM), &moves, &[]).unwrap();
    assert!(r.undo());
    assert_eq!(r.moves(), 5);
}

/// Levels for the random walks.
const WALK_LEVELS: [&str; 3] = [
    ROOM,
    "########\n#  .   #\n# $$ @ #\n#  .#  #\n# $  . #\n########",
    "  #####\n###   #\n#.@$  #\n### $.#\n#.##$ #\n# # . ##\n#$ *$$.#\n#   .  #\n########",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random steps (some blocked), with undo + redo now and then: the counters follow, the
    /// boxes stay on the floor, undoing everything leads back to the start and redoing
    /// everything back to the end.
    #[test]
    fn random_moves_then_undo_all_returns_to_start(
        which in 0..WALK_LEVELS.len(),
        steps in prop::collection::vec((0usize..4, prop::bool::weighted(0.1)), 1..200),
    ) {
        let lvl = level(WALK_LEVELS[which]);
        let mut g = Game::new(lvl.clone());
        let mut made = 0;
        let mut pushes = 0;
        for &(d, undo) in &steps {
            if let Some(m) = g.step(Dir::from_index(d)) {
                made += 1;
                pushes += m.push as usize;
            }
            // Now and then undo and redo in the middle.
            if undo && g.undo() {
                prop_assert!(g.redo());
            }
        }
        prop_assert_eq!(g.moves(), made);
        prop_assert_eq!(g.pushes(), pushes);
        // Box count never changes; boxes stay on floor.
        let b = &g.level().board;
        prop_assert_eq!(g.position().box_count(), lvl.box_count());
        prop_assert!(g.position().box_squares().iter().all(|&s| b.is_floor(s)));
        let end = g.position().clone();
        g.undo_all();
        prop_assert_eq!(g.position(), &lvl.start);
        prop_assert_eq!((g.moves(), g.pushes()), (0, 0));
        g.redo_all();
        prop_assert_eq!(g.position(), &end);
    }

    /// The reverse game on the same history: random steps and pulls (some blocked), undo +
    /// redo and restarts now and then; the counters follow, undoing a restart brings the
    /// line back, undoing everything leads back to the reverse start, and every pull is
    /// taken back by a forward push.
    #[test]
    fn random_pulls_then_undo_all_returns_to_start(
        which in 0..WALK_LEVELS.len(),
        steps in prop::collection::vec((0usize..4, prop::bool::ANY, 0u8..20), 1..200),
    ) {
        let mut g = PullGame::new(level(WALK_LEVELS[which])).unwrap();
        let start = g.position().clone();
        let mut line: Vec<Move> = Vec::new();
        for &(d, pull, what) in &steps {
            if let Some(m) = g.step(Dir::from_index(d), pull) {
                prop_assert!(pull || !m.push);
                line.push(m);
            }
            match what {
                0 if g.undo() => prop_assert!(g.redo()),
                1 if g.restart() => {
                    prop_assert_eq!(g.position(), &start);
                    prop_assert!(g.undo());
                }
                _ => {}
            }
            prop_assert_eq!(g.line(), &line[..]);
        }
        prop_assert_eq!(g.pulls(), line.iter().filter(|m| m.push).count());
        let end = g.position().clone();
        // Forward pushes in the opposite directions, the line backwards, undo the pulls.
        let mut p = end.clone();
        for m in line.iter().rev() {
            let f = p.apply(&g.level().board, m.dir.opposite());
            prop_assert_eq!(f.map(|f| f.push), Some(m.push));
        }
        prop_assert_eq!(&p, &start);
        prop_assert_eq!(g.undo_all(), line.len());
        prop_assert_eq!(g.position(), &start);
        prop_assert_eq!(g.redo_all(), line.len());
        prop_assert_eq!(g.position(), &end);
    }
}
