//! `sokoban puzzle`: the judge format, CSV in and out, goals, sizes and errors, on
//! positions written for the tests.

mod common;

fn sokoban(args: &[&str], stdin: &str) -> (i32, String, String) {
    common::sokoban(args, Some(stdin))
}

#[test]
fn judge_format_prints_one_answer_per_position() {
    let input = "5\n1 2 3 4 5 0 7 8 6\n1 2 3 4 0 5 6 7 8\n8 6 7 2 5 4 3 0 1\n6 4 7 8 5 0 3 2 1\n2 1 3 4 5 6 7 8 0\n";
    let (code, out, err) = sokoban(&["puzzle"], input);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "1\n14\n31\n31\n-1\n");
    // From a file, positions broken over lines any way.
    let path = std::env::temp_dir().join("sokoban-puzzle-judge.txt");
    std::fs::write(&path, "2\n1 2 3\n4 5 6\n7 0 8\n0 1 2 3 4 5 6 7 8\n").unwrap();
    let (code, out, _) = sokoban(&["puzzle", path.to_str().unwrap()], "");
    assert_eq!(code, 0);
    assert_eq!(out, "1\n22\n");
}

#[test]
fn csv_with_expected_lengths_and_the_blank_first_goal() {
    // Positions 2, 6 and 12 moves from the blank-first goal (made by hand: 12 is the blank
    // walking round the 2x2 block at the top left three times).
    let input = "id,optimal_moves,tiles\n\
                 a,2,4 1 2 3 8 5 6 7 0 9 10 11 12 13 14 15\n\
                 b,6,1 2 0 3 4 5 6 7 8 9 10 11 12 13 14 15\n\
                 c,0,0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n";
    let (code, out, err) = sokoban(&["puzzle", "--csv", "--goal", "blank-first"], input);
    assert_eq!(code, 1, "b takes 2 moves, not 6: a mismatch");
    assert!(err.contains("b: MISMATCH: 2 moves, expected 6"), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "id,status,moves,nodes,ms,solution");
    assert!(lines[1].starts_with("a,solved,2,") && lines[1].ends_with(",UU"), "{}", lines[1]);
    assert!(lines[2].starts_with("b,solved,2,") && lines[2].ends_with(",LL"), "{}", lines[2]);
    assert!(lines[3].starts_with("c,solved,0,"));
    assert!(err.contains("pattern databases 6-6-3"), "{err}");
}

#[test]
fn sizes_goals_and_heuristics() {
    // A 3x4 board needs --size; a goal given as tiles.
    let input = "1\n1 2 3 4 5 6 7 8 9 10 0 11\n";
    let (code, _, err) = sokoban(&["puzzle"], input);
    assert_eq!(code, 2);
    assert!(err.contains("--size"), "{err}");
    let (code, out, _) = sokoban(&["puzzle", "--size", "4x3"], input);
    assert_eq!((code, out.as_str()), (0, "1\n"));
    let (code, out, _) =
        sokoban(&["puzzle", "--goal", "1 2 3 4 5 6 7 8 9 10 0 11", "--size", "4x3"], input);
    assert_eq!((code, out.as_str()), (0, "0\n"));
    for h in ["manhattan", "lc", "pdb", "auto"] {
        let (code, out, _) = sokoban(&["puzzle", "--heuristic", h], "1\n8 6 7 2 5 4 3 0 1\n");
        assert_eq!((code, out.as_str()), (0, "31\n"), "{h}");
    }
}

#[test]
fn bad_input_says_what_is_wrong() {
    let (code, _, err) = sokoban(&["puzzle"], "2\n1 2 3 4 5 6 7 8 0\n");
    assert_eq!(code, 2);
    assert!(err.contains("do not split into 2 positions"), "{err}");
    let (code, _, err) = sokoban(&["puzzle"], "1\n1 2 3 4 5 6 7 8 8\n");
    assert_eq!(code, 2);
    assert!(err.contains("position 1: tile 8 appears twice"), "{err}");
    let (code, _, err) = sokoban(&["puzzle", "--goal", "middle"], "1\n1 2 3 4 5 6 7 8 0\n");
    assert_eq!(code, 2);
    assert!(err.contains("--goal"), "{err}");
}
