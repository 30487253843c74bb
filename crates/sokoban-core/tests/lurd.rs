//! LURD solutions: parsing, printing, run-length notation and errors.

use proptest::prelude::*;
use sokoban_core::format::{detect, parse_input, parse_level, Format, Input};
use sokoban_core::lurd::{is_lurd, parse_lurd, to_lurd, to_rle_lurd};
use sokoban_core::{Dir, ErrorKind, Game, Move};

fn mv(c: char) -> Move {
    Move { dir: Dir::from_lurd(c).unwrap(), push: c.is_ascii_uppercase() }
}

fn moves(letters: &str) -> Vec<Move> {
    letters.chars().map(mv).collect()
}

/// Random moves with long runs now and then, so counts of several digits occur.
fn moves_strategy() -> impl Strategy<Value = Vec<Move>> {
    let run = prop_oneof![6 => Just(1usize), 3 => 2usize..6, 1 => 1usize..150];
    prop::collection::vec((0usize..4, prop::bool::weighted(0.33), run), 0..40).prop_map(|runs| {
        runs.into_iter()
            .flat_map(|(d, push, n)| std::iter::repeat_n(Move { dir: Dir::from_index(d), push }, n))
            .collect()
    })
}

#[test]
fn test_parse_and_print() {
    let m = parse_lurd("luRD").unwrap();
    assert_eq!(
        m,
        [
            Move { dir: Dir::Left, push: false },
            Move { dir: Dir::Up, push: false },
            Move { dir: Dir::Right, push: true },
            Move { dir: Dir::Down, push: true },
        ]
    );
    assert_eq!(to_lurd(&m), "luRD");
    assert_eq!(to_rle_lurd(&m), "luRD");
    // Whitespace and line breaks are ignored.
    assert_eq!(parse_lurd(" lu\n RD\r\n\t").unwrap(), m);
    assert_eq!(parse_lurd("").unwrap(), []);
    assert_eq!(to_lurd(&[]), "");
    assert_eq!(to_rle_lurd(&[]), "");
}

#[test]
fn test_run_length() {
    assert_eq!(parse_lurd("3l2U").unwrap(), moves("lllUU"));
    assert_eq!(parse_lurd("12r").unwrap(), moves(&"r".repeat(12)));
    assert_eq!(to_rle_lurd(&moves("lllUUrDDDDDDDDDDDDl")), "3l2Ur12Dl");
    // Case matters for runs: a walk and a push are different letters.
    assert_eq!(to_rle_lurd(&moves("llLL")), "2l2L");
    // Counts split by whitespace still read as one number.
    assert_eq!(parse_lurd("1 2d").unwrap(), moves(&"d".repeat(12)));
}

#[test]
fn test_groups() {
    assert_eq!(parse_lurd("3(lu)").unwrap(), moves("lululu"));
    assert_eq!(parse_lurd("(lu)").unwrap(), moves("lu"));
    assert_eq!(parse_lurd("2(r2(Ud))L").unwrap(), moves("rUdUdrUdUdL"));
    assert_eq!(parse_lurd("2(3l)").unwrap(), moves("llllll"));
    assert_eq!(parse_lurd("0(lu)r").unwrap(), moves("r"));
    assert_eq!(parse_lurd("x2( l )").err().map(|e| e.kind), Some(ErrorKind::BadSolution));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Plain and run-length LURD read back as the same moves, also wrapped in a group,
    /// repeated and spread over lines.
    #[test]
    fn test_random_round_trips(m in moves_strategy()) {
        let plain = to_lurd(&m);
        prop_assert_eq!(plain.chars().count(), m.len());
        prop_assert_eq!(&parse_lurd(&plain).unwrap(), &m, "{}", plain);
        let rle = to_rle_lurd(&m);
        prop_assert!(rle.len() <= plain.len().max(1), "{}", rle);
        prop_assert_eq!(&parse_lurd(&rle).unwrap(), &m, "{}", rle);
        // No letter is followed by the same letter in run-length output.
        let letters: Vec<char> = rle.chars().filter(|c| c.is_ascii_alphabetic()).collect();
        prop_assert!(letters.windows(2).all(|w| w[0] != w[1]), "{}", rle);
        // Wrapped in a group and repeated, then spread over lines.
        let doubled = format!("2({rle})");
        prop_assert_eq!(parse_lurd(&doubled).unwrap(), [m.clone(), m.clone()].concat());
        let wrapped: String = plain
            .chars()
            .enumerate()
            .flat_map(|(i, c)| if i % 7 == 6 { vec![c, '\n'] } else { vec![c] })
            .collect();
        prop_assert_eq!(&parse_lurd(&wrapped).unwrap(), &m);
        if !m.is_empty() {
            prop_assert_eq!(detect(&rle), Format::Lurd, "{}", rle);
            prop_assert!(is_lurd(&wrapped));
        }
    }
}

#[test]
fn test_errors() {
    let e = parse_lurd("luxR").unwrap_err();
    assert_eq!(e.kind, ErrorKind::BadSolution);
    assert!(e.message.contains("'x'") && e.message.contains("position 3"), "{}", e.message);
    // Positions count whitespace.
    let e = parse_lurd("lu\n  rr?").unwrap_err();
    assert!(e.message.contains("'?'") && e.message.contains("position 8"), "{}", e.message);
    let e = parse_lurd("lu3").unwrap_err();
    assert_eq!(e.kind, ErrorKind::BadSolution);
    assert!(e.message.contains("count at position 3"), "{}", e.message);
    let e = parse_lurd("l(ur").unwrap_err();
    assert!(
        e.message.contains("never closed") && e.message.contains("position 2"),
        "{}",
        e.message
    );
    let e = parse_lurd("lu)r").unwrap_err();
    assert!(e.message.contains("')' at position 3"), "{}", e.message);
    let e = parse_lurd("2(3)").unwrap_err();
    assert!(e.message.contains("count at position 3"), "{}", e.message);
    let e = parse_lurd("999999999(999999999l)").unwrap_err();
    assert_eq!(e.kind, ErrorKind::BadSolution);
    assert!(e.message.contains("too many moves"), "{}", e.message);
    let e = parse_lurd(&format!("{}l{}", "(".repeat(100), ")".repeat(100))).unwrap_err();
    assert!(e.message.contains("nested too deeply"), "{}", e.message);
}

#[test]
fn test_solution_input_and_check() {
    let level = parse_level("#######\n#@ $ .#\n#######").unwrap();
    let Input::Solution(m) = parse_input("  r\nR  R\n").unwrap() else {
        panic!("a solution");
    };
    assert_eq!(m, moves("rRR"));
    let mut game = Game::new(level.clone());
    // The push flags are as written; the game checks them.
    assert!(game.check_moves(&moves("rrr")).is_err());
    game.play(&m).unwrap();
    assert!(game.is_solved());
    assert_eq!(parse_input("r2R").unwrap(), Input::Solution(m));
}
