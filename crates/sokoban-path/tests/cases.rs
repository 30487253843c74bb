//! Hand-made box-path and walking cases.

mod common;

use common::{brute, level, lurd, replay, sq};
use sokoban_core::{Dir, Level, Position};
use sokoban_path::{box_path, walk_distances, walk_path, BoxSearch, UNREACHABLE};

/// Path to `target` checked against the brute force: legal, ends on target, optimal.
/// Returns the moves as LURD.
fn checked_path(lv: &Level, box_sq: usize, target: usize) -> String {
    let search = BoxSearch::new(&lv.board, &lv.start, box_sq);
    let moves = search.path_to(target).expect("reachable");
    let pushes = replay(&lv.board, &lv.start, box_sq, target, &moves);
    let best = brute(&lv.board, &lv.start, box_sq)[target].expect("brute force agrees");
    assert_eq!((pushes as u32, moves.len() as u32), best, "{}", lurd(&moves));
    assert_eq!(search.pushes_to(target), Some(pushes));
    assert_eq!(box_path(&lv.board, &lv.start, box_sq, target), Some(moves.clone()));
    lurd(&moves)
}

#[test]
fn push_round_a_corner_walks_round_the_box() {
    let lv = level(
        "
########
#@     #
# $    #
#      #
###### #
     # #
     #.#
     ###
",
    );
    let (b, t) = (sq(&lv, 2, 2), sq(&lv, 6, 6));
    let path = checked_path(&lv, b, t);
    assert_eq!(path.chars().filter(|c| c.is_uppercase()).count(), 8);
    // Somewhere the pushes change direction and the player has to walk round the box.
    assert!(path.contains("Ru") || path.contains("Rr") || path.contains("Dr"), "{path}");
    assert!(path.ends_with("DDDD"), "{path}");
}

#[test]
fn fewer_moves_wins_among_fewest_pushes() {
    // Box to (3,4): right-then-down costs 6 moves, down-then-right 12 (the wall at (1,2)
    // makes the walk to the top of the box long).
    let lv = level(
        "
#######
#@#   #
#  $  #
#     #
#    .#
#######
",
    );
    let (b, t) = (sq(&lv, 2, 3), sq(&lv, 3, 4));
    assert_eq!(checked_path(&lv, b, t), "drRurD");
}

#[test]
fn box_hemmed_in_by_other_boxes() {
    let lv = level(
        "
#######
#  $  #
# $$$ #
#  @  #
#.. ..#
#######
",
    );
    let b = sq(&lv, 2, 3);
    let search = BoxSearch::new(&lv.board, &lv.start, b);
    assert_eq!(search.reachable(), vec![b]);
    assert_eq!(search.path_to(sq(&lv, 1, 3)), None);
    assert_eq!(search.path_to(sq(&lv, 3, 3)), None);
    assert!(!search.can_reach(sq(&lv, 4, 3)));
    // The box on the left can move, but never through its neighbours.
    let left = sq(&lv, 2, 2);
    let s = BoxSearch::new(&lv.board, &lv.start, left);
    assert!(s.can_reach(sq(&lv, 3, 2)));
    assert!(!s.can_reach(sq(&lv, 2, 3)));
    for t in s.reachable() {
        checked_path(&lv, left, t);
    }
}

#[test]
fn box_against_a_wall_stays_on_it() {
    let lv = level(
        "
#######
#@ $ .#
#     #
#######
",
    );
    let b = sq(&lv, 1, 3);
    let search = BoxSearch::new(&lv.board, &lv.start, b);
    let row1: Vec<usize> = (1..=5).map(|c| sq(&lv, 1, c)).collect();
    assert_eq!(search.reachable(), row1);
    let under = sq(&lv, 2, 3);
    assert!(!search.can_reach(under));
    assert_eq!(search.pushes_to(under), None);
    assert_eq!(search.path_to(under), None);
    assert_eq!(box_path(&lv.board, &lv.start, b, under), None);
    // Off-board and wall targets are simply unreachable.
    assert_eq!(search.path_to(lv.board.len() + 5), None);
    assert_eq!(search.path_to(0), None);
    // Round the box underneath to its right side (5 steps, several equal walks), then 2 pushes.
    let path = checked_path(&lv, b, sq(&lv, 1, 1));
    assert_eq!(path.len(), 7);
    assert!(path.ends_with("uLL"), "{path}");
    assert_eq!(checked_path(&lv, b, sq(&lv, 1, 5)), "rRR");
}

#[test]
fn target_is_the_box_square() {
    let lv = level(
        "
#####
#@$.#
#####
",
    );
    let b = sq(&lv, 1, 2);
    let search = BoxSearch::new(&lv.board, &lv.start, b);
    assert!(search.can_reach(b));
    assert_eq!(search.pushes_to(b), Some(0));
    assert_eq!(search.path_to(b), Some(vec![]));
    assert_eq!(search.reachable(), vec![b, sq(&lv, 1, 3)]);
    assert_eq!(box_path(&lv.board, &lv.start, b, b), Some(vec![]));
    assert_eq!(search.box_square(), b);
}

#[test]
fn box_in_a_doorway_cuts_the_player_off() {
    // The box stands in the only doorway: the player cannot get to its right side, so it
    // must go into the right room first (two pushes, so the player can follow it in), and
    // come back.
    let lv = level(
        "
#########
#   #   #
# @ $  .#
#   #   #
#########
",
    );
    let b = sq(&lv, 2, 4);
    let search = BoxSearch::new(&lv.board, &lv.start, b);
    assert_eq!(search.pushes_to(sq(&lv, 2, 5)), Some(1));
    assert_eq!(search.pushes_to(sq(&lv, 2, 3)), Some(5));
    let path = checked_path(&lv, b, sq(&lv, 2, 3));
    assert!(path.starts_with("rRR"), "{path}");
    assert!(path.ends_with("LLL"), "{path}");
    for t in search.reachable() {
        checked_path(&lv, b, t);
    }

    // With a second doorway the player walks round instead: one push.
    let lv = level(
        "
#########
#   #   #
# @ $  .#
#       #
#########
",
    );
    let search = BoxSearch::new(&lv.board, &lv.start, b);
    assert_eq!(search.pushes_to(sq(&lv, 2, 3)), Some(1));
    let path = checked_path(&lv, b, sq(&lv, 2, 3));
    assert_eq!(path.len(), 6);
    assert!(path.ends_with("uL"), "{path}");
}

#[test]
fn no_box_on_the_square_gives_an_empty_search() {
    let lv = level(
        "
#####
#@$.#
#####
",
    );
    let s = BoxSearch::new(&lv.board, &lv.start, sq(&lv, 1, 3));
    assert!(s.reachable().is_empty());
    assert!(!s.can_reach(sq(&lv, 1, 3)));
    assert_eq!(s.path_to(sq(&lv, 1, 3)), None);
    let s = BoxSearch::new(&lv.board, &lv.start, 10_000);
    assert!(s.reachable().is_empty());
}

#[test]
fn box_cannot_be_reached_by_the_player() {
    // Player shut in by boxes: the selected box stays where it is.
    let lv = level(
        "
#######
#@$ $.#
#$    #
#.  . #
#######
",
    );
    let b = sq(&lv, 1, 4);
    let s = BoxSearch::new(&lv.board, &lv.start, b);
    assert_eq!(s.reachable(), vec![b]);
    assert_eq!(s.path_to(sq(&lv, 1, 5)), None);
}

#[test]
fn a_search_answers_many_targets_like_fresh_searches() {
    let lv = sokoban_path::fixtures::warehouse(24, 16, 3);
    for b in lv.start.box_squares() {
        let search = BoxSearch::new(&lv.board, &lv.start, b);
        let targets = search.reachable();
        // Twice, in two orders, so cached walks are used the second time.
        for &t in targets.iter().chain(targets.iter().rev()) {
            let fresh = box_path(&lv.board, &lv.start, b, t);
            assert_eq!(search.path_to(t), fresh);
        }
    }
}

#[test]
fn large_open_room() {
    // 255x255: deep depth-first search, long paths.
    let n = 255;
    let mut text = String::new();
    for r in 0..n {
        for c in 0..n {
            let ch = if r == 0 || c == 0 || r == n - 1 || c == n - 1 {
                '#'
            } else if (r, c) == (1, 1) {
                '@'
            } else if (r, c) == (127, 127) {
                '$'
            } else if (r, c) == (3, 3) {
                '.'
            } else {
                ' '
            };
            text.push(ch);
        }
        text.push('\n');
    }
    let lv = level(&text);
    let b = sq(&lv, 127, 127);
    let t = sq(&lv, 200, 50);
    let search = BoxSearch::new(&lv.board, &lv.start, b);
    assert_eq!(search.pushes_to(t), Some(73 + 77));
    // Every square not touching the wall, plus the wall-side squares reachable along walls.
    assert_eq!(search.reachable().len(), 253 * 253);
    let moves = search.path_to(t).unwrap();
    assert_eq!(replay(&lv.board, &lv.start, b, t, &moves), 150);
    // Walk 125 + 126 to the top of the box, 73 pushes down, 2 steps round the corner,
    // 77 pushes left.
    assert_eq!(moves.len(), 251 + 73 + 2 + 77);
}

#[test]
fn walking() {
    let lv = level(
        "
#######
#@ #  #
#  $ .#
#  #  #
#######
",
    );
    let (board, pos) = (&lv.board, &lv.start);
    assert_eq!(walk_path(board, pos, pos.player), Some(vec![]));
    assert_eq!(walk_path(board, pos, sq(&lv, 0, 0)), None, "wall");
    assert_eq!(walk_path(board, pos, sq(&lv, 2, 3)), None, "box");
    assert_eq!(walk_path(board, pos, sq(&lv, 1, 4)), None, "cut off by the box");
    assert_eq!(walk_path(board, pos, 1000), None, "off the board");
    let p = walk_path(board, pos, sq(&lv, 3, 2)).unwrap();
    assert_eq!(p, vec![Dir::Right, Dir::Down, Dir::Down]);
    let d = walk_distances(board, pos);
    assert_eq!(d[pos.player], 0);
    assert_eq!(d[sq(&lv, 3, 2)], 3);
    assert_eq!(d[sq(&lv, 1, 4)], UNREACHABLE);
    assert_eq!(d[sq(&lv, 2, 3)], UNREACHABLE);
    assert_eq!(d[0], UNREACHABLE);
    // A position whose player stands on a wall walks nowhere.
    let bad = Position { player: 0, boxes: pos.boxes.clone() };
    assert_eq!(walk_path(board, &bad, sq(&lv, 3, 2)), None);
    assert!(walk_distances(board, &bad).iter().all(|&x| x == UNREACHABLE));
}
