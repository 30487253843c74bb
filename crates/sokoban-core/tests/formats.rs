//! Level formats: round trips, detection, collections and error messages.

use sokoban_core::format::{
    detect, parse_collection, parse_input, parse_level, position_to_xsb, to_collection, to_mf8,
    to_rle, to_soko_wrapper, to_sokobanscript_base64_url, to_sokobanscript_level_url,
    to_sokoplayer_url, to_xsb, Format, Input,
};
use sokoban_core::{Cell, Dir, ErrorKind, Level};

/// Player on a goal, a box on a goal.
const ON_GOALS: &str = "\
######
#+ $ #
# $* #
#  . #
######";

/// Ragged rows and leading spaces (outside squares before the walls).
const RAGGED: &str = "  #####
###   #
#  $# ##
# #  . #
# . # $#
#@  #  #
########";

/// A sealed pocket of floor inside the walls (row 4, columns 5 and 6): outside squares inside
/// the board.
const POCKET: &str = " ########
 #  .   #
## #### #
#  #  # #
# $#### #
#  @  $ #
###  .###
  #####";

/// A separate piece of wall below an empty row, and runs long enough for two-digit counts.
/// (A blank line would end the level, so the empty row is written as a `|` row break.)
const SPLIT: &str = "############
#.*@ $     #
############|
   ###";

const SOKOPLAYER_EXAMPLE: &str =
    "http://sokoban.ws/sokoplayer/?w=4&h=9&lvl=HHHH|H__H|H__H|H__H|H__H|HH$H|_HaH|_H.H|_HHH";

fn level(text: &str) -> Level {
    parse_level(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn levels() -> Vec<Level> {
    [ON_GOALS, RAGGED, POCKET, SPLIT].iter().map(|t| level(t)).collect()
}

/// The error message of an input that must fail with the given kind.
fn error(text: &str, kind: ErrorKind) -> String {
    match parse_level(text) {
        Ok(_) => panic!("expected {kind:?} for {text:?}"),
        Err(e) => {
            assert_eq!(e.kind, kind, "{e}");
            e.message
        }
    }
}

fn assert_contains(message: &str, parts: &[&str]) {
    for part in parts {
        assert!(message.contains(part), "{message:?} should contain {part:?}");
    }
}

#[test]
fn test_levels_are_what_they_look_like() {
    let l = level(ON_GOALS);
    let b = &l.board;
    assert_eq!((b.width(), b.height()), (6, 5));
    assert_eq!(l.start.player, b.square(1, 1));
    assert!(b.is_goal(l.start.player));
    assert_eq!(l.box_count(), 3);
    assert_eq!(l.start.boxes_on_goals(b), 1);

    let l = level(RAGGED);
    assert_eq!((l.board.width(), l.board.height()), (8, 7));
    assert_eq!(l.board.cell(l.board.square(0, 0)), Cell::Outside);
    assert_eq!(l.board.cell(l.board.square(1, 7)), Cell::Outside);

    let l = level(POCKET);
    let pocket = [l.board.square(3, 4), l.board.square(3, 5)];
    assert!(pocket.iter().all(|&s| l.board.cell(s) == Cell::Outside));

    let l = level(SPLIT);
    assert_eq!((l.board.width(), l.board.height()), (12, 5));
    assert!((0..12).all(|c| l.board.cell(l.board.square(3, c)) == Cell::Outside));
    assert_eq!(l.board.cell(l.board.square(4, 3)), Cell::Wall);
}

#[test]
fn test_xsb_round_trip() {
    for l in levels() {
        let text = to_xsb(&l);
        assert_eq!(parse_level(&text).unwrap(), l, "{text}");
    }
    // Floors may be written '-' or '_' and trailing spaces do not matter.
    let dashed = ON_GOALS.replace(' ', "-").replace("#\n", "#   \n");
    assert_eq!(level(&dashed), level(ON_GOALS));
    assert_eq!(level(&ON_GOALS.replace(' ', "_")), level(ON_GOALS));
    // Leading spaces matter.
    assert_eq!(to_xsb(&level(RAGGED)).lines().next(), Some("  #####"));
}

#[test]
fn test_rle_round_trip() {
    for l in levels() {
        let text = to_rle(&l);
        assert!(!text.contains('\n') && !text.contains(' '), "{text}");
        assert_eq!(detect(&text), Format::Rle, "{text}");
        assert_eq!(parse_level(&text).unwrap(), l, "{text}");
    }
    assert_eq!(to_rle(&level(SPLIT)), "12#|#.*@-$5-#|12#||3-3#");
    assert_eq!(to_rle(&level(ON_GOALS)), "6#|#+-$-#|#-$*-#|#2-.-#|6#");
}

#[test]
fn test_rle_variants() {
    let plain = level(ON_GOALS);
    // Groups, nested groups, rows on separate lines, counts before '|'.
    assert_eq!(level("2(3#)|#+-$-#|#-$*-#|#2-.-#|6#"), plain);
    assert_eq!(level("2(3#)|#+-$-#|#-$*-#|#2-.-#|3(2(#))"), plain);
    assert_eq!(level("6#\n#+-$-#|#-$*-#\n#2-.-#\n6#"), plain);
    let gaps = level("12#|#.*@-$5-#|12#2|3-3#");
    assert_eq!(gaps, level(SPLIT));
}

#[test]
fn test_mf8_round_trip() {
    for l in levels() {
        let text = to_mf8(&l);
        assert_eq!(detect(&text), Format::Mf8, "{text}");
        assert_eq!(parse_level(&text).unwrap(), l, "{text}");
    }
    assert_eq!(to_mf8(&level(ON_GOALS)), "HHHHHH|Hx_$_H|H_$*_H|H__._H|HHHHHH");
}

#[test]
fn test_sokoplayer_url_round_trip() {
    for l in levels() {
        for base in ["https://sokoban.ws/sokoplayer/", "", "http://example.org/play?set=2"] {
            let url = to_sokoplayer_url(&l, base);
            assert!(url.starts_with(base), "{url}");
            assert_eq!(detect(&url), Format::SokoPlayerUrl, "{url}");
            assert_eq!(parse_level(&url).unwrap(), l, "{url}");
        }
    }
    let url = to_sokoplayer_url(&level(ON_GOALS), "https://sokoban.ws/sokoplayer/");
    assert_eq!(
        url,
        "https://sokoban.ws/sokoplayer/?w=6&h=5&lvl=HHHHHH|Hx_$_H|H_$*_H|H__._H|HHHHHH"
    );
    assert_eq!(
        to_sokoplayer_url(&level(ON_GOALS), "http://example.org/play?set=2"),
        "http://example.org/play?set=2&w=6&h=5&lvl=HHHHHH|Hx_$_H|H_$*_H|H__._H|HHHHHH"
    );
}

#[test]
fn test_sokoplayer_example() {
    let variants = [
        SOKOPLAYER_EXAMPLE.to_string(),
        SOKOPLAYER_EXAMPLE.replace("http://", "https://"),
        "?w=4&h=9&lvl=HHHH|H__H|H__H|H__H|H__H|HH$H|_HaH|_H.H|_HHH".to_string(),
        "w=4&h=9&lvl=HHHH|H__H|H__H|H__H|H__H|HH$H|_HaH|_H.H|_HHH".to_string(),
        "lvl=HHHH|H__H|H__H|H__H|H__H|HH$H|_HaH|_H.H|_HHH&h=9&w=4".to_string(),
        "  https://sokoban.ws/sokoplayer/?lvl=HHHH%7CH__H%7CH__H|H__H|H__H|HH%24H|_HaH|_H.H|_HHH&w=4&h=9\n"
            .to_string(),
    ];
    for url in &variants {
        assert_eq!(detect(url), Format::SokoPlayerUrl, "{url}");
        let l = parse_level(url).unwrap_or_else(|e| panic!("{e}: {url}"));
        assert_eq!((l.board.width(), l.board.height()), (4, 9), "{url}");
        assert_eq!(l.box_count(), 1);
        assert_eq!(l.board.row_col(l.start.player), (6, 2), "row 7, column 3 (1-based)");
        assert_eq!(l.board.goal_count(), 1);
        assert_eq!(l.board.cell(l.board.square(6, 0)), Cell::Outside);
    }
    // Short rows and missing rows are outside; %20 is a floor; A and X are accepted.
    let l = level("w=6&h=6&lvl=HHHH|H%20AH|H$_H|H._H|HHHH");
    assert_eq!((l.board.width(), l.board.height()), (4, 5));
    assert_eq!(l.board.row_col(l.start.player), (1, 2));
    let x = level("w=6&h=3&lvl=HHHHHH|HX$$.H|HHHHHH&x=1");
    assert!(x.board.is_goal(x.start.player));
}

#[test]
fn test_soko_wrapper_round_trip() {
    for l in levels() {
        let text = to_soko_wrapper(&l);
        assert_eq!(detect(&text), Format::SokoWrapper, "{text}");
        assert_eq!(parse_level(&text).unwrap(), l, "{text}");
    }
    assert_eq!(
        to_soko_wrapper(&level(ON_GOALS)),
        "[soko=6,5]HHHHHH|Hx_$_H|H_$*_H|H__._H|HHHHHH[/soko]"
    );
    // Rows on separate lines, any case, and several wrappers in a row.
    let text = "[SOKO=6,5]\nHHHHHH\nHx_$_H|\nH_$*_H\nH__._H\nHHHHHH\n[/soko]\n\n[soko=4,5]HHHH|Ha_H|H$_H|H._H|HHHH[/soko]";
    let c = parse_collection(text).unwrap();
    assert_eq!(c.format, Format::SokoWrapper);
    assert_eq!(c.entries.len(), 2);
    assert_eq!(c.entries[0].grid.validate().unwrap(), level(ON_GOALS));
    assert_eq!(c.entries[1].number, 2);
    assert_eq!(c.entries[1].grid.validate().unwrap().box_count(), 1);
}

#[test]
fn test_sokobanscript_round_trip() {
    for l in levels() {
        for base in ["https://example.org/sokobanscript/", ""] {
            let url = to_sokobanscript_level_url(&l, base);
            assert_eq!(detect(&url), Format::SokobanScriptLevel, "{url}");
            assert_eq!(parse_level(&url).unwrap(), l, "{url}");
            assert!(!url.contains('#') && !url.contains('+') && !url.contains(' '), "{url}");

            let url = to_sokobanscript_base64_url(&l, base);
            assert_eq!(detect(&url), Format::SokobanScriptBase64, "{url}");
            assert_eq!(parse_level(&url).unwrap(), l, "{url}");
            let b64 = url.split("base64=").nth(1).unwrap();
            assert!(b64.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        }
    }
    let on_goals = level(ON_GOALS);
    // Hand-encoded variants: %0D%0A line ends, '|' rows, '+' is the player on a goal.
    let crlf = "?level=%23%23%23%23%23%23%0D%0A%23+-%24-%23%0D%0A%23-%24*-%23%0D%0A%23--.-%23%0D%0A%23%23%23%23%23%23";
    assert_eq!(level(crlf), on_goals);
    let bars =
        "https://x.org/s?level=6%23|%23%2B%20%24%20%23|%23%20%24*%20%23|%23%20%20.%20%23|6%23";
    assert_eq!(level(bars), on_goals);
    // Standard alphabet with padding: "####\n#@$.#\n#####" (padding percent-encoded).
    let std64 = "?base64=IyMjIwojQCQuIwojIyMjIw%3D%3D";
    let l = level(std64);
    assert_eq!((l.board.width(), l.board.height(), l.box_count()), (5, 3, 1));
    // The same text in the URL alphabet, without padding.
    assert_eq!(level("?base64=IyMjIwojQCQuIwojIyMjIw"), l);
}

#[test]
fn test_position_to_xsb() {
    let l = level(ON_GOALS);
    let mut pos = l.start.clone();
    assert!(pos.apply(&l.board, Dir::Right).is_some());
    assert!(pos.apply(&l.board, Dir::Right).is_some_and(|m| m.push));
    let text = position_to_xsb(&l, &pos);
    assert_eq!(text, "######\n#. @$#\n# $* #\n#  . #\n######");
    let moved = level(&text);
    assert_eq!(moved.board, l.board);
    assert_eq!(moved.start, pos);
}

#[test]
fn test_collection_round_trip() {
    let mut all = levels();
    all[0].title = Some("On goals".into());
    all[2].title = Some("Pocket: with a colon".into());
    all[3].title = Some("12".into());
    let text = to_collection(&all);
    let c = parse_collection(&text).unwrap();
    assert_eq!(c.format, Format::Collection);
    assert_eq!(c.entries.len(), 4);
    for (i, (e, l)) in c.entries.iter().zip(&all).enumerate() {
        assert_eq!(e.number, i + 1);
        assert_eq!(e.title, l.title);
        assert_eq!(e.grid.title, l.title);
        assert_eq!(&e.level().unwrap(), l);
    }
    assert_eq!(c.entries[0].first_line, Some(1));
    assert_eq!(c.entries[1].first_line, Some(8));
    // Printing again gives the same text.
    let again: Vec<Level> = c.entries.iter().map(|e| e.level().unwrap()).collect();
    assert_eq!(to_collection(&again), text);
}

#[test]
fn test_collection_titles() {
    let text = "\
; Practice set
; written for the tests

; One
####
#@$.#
#####

Easy one
#####
#.$@#
#####

#####
#@$.#
#####
Title: After the board
Author: Somebody
Comment:
#####
Level 3 lies here
#####
Comment-End:

Level 4
#####
#+$*#
#####
Title: Keyed wins

#####
#.$@#
#####
";
    let c = parse_collection(text).unwrap();
    assert_eq!(c.format, Format::Collection);
    assert_eq!(c.title.as_deref(), Some("Practice set"));
    let titles: Vec<Option<&str>> = c.entries.iter().map(|e| e.title.as_deref()).collect();
    assert_eq!(
        titles,
        [Some("One"), Some("Easy one"), Some("After the board"), Some("Keyed wins"), None]
    );
    let numbers: Vec<usize> = c.entries.iter().map(|e| e.number).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5]);
    let lines: Vec<Option<usize>> = c.entries.iter().map(|e| e.first_line).collect();
    assert_eq!(lines, [Some(5), Some(10), Some(14), Some(26), Some(31)]);
    assert_eq!(c.entries[0].grid.lines, [Some(5), Some(6), Some(7)]);
    for e in &c.entries {
        e.level().unwrap();
    }
    let fourth = c.entries[3].level().unwrap();
    assert!(fourth.board.is_goal(fourth.start.player));
    assert_eq!(fourth.box_count(), 2);
}

#[test]
fn test_sok_style_file() {
    let text = "\u{feff}::::::::::::::::::::::::::::::::\r
:: Legend: #  wall   @  player ::\r
::::::::::::::::::::::::::::::::\r
\r
Title: Garden Paths\r
Author: The Tests\r
\r
1\r
  #####\r
###  .#\r
#@ $  #\r
#######\r
Title: Stroll\r
Author: The Tests\r
Solution (5/1):\r
rrRr\r
\r
2\r
######\r
#.$ @#\r
######\r
";
    assert_eq!(detect(text), Format::Collection);
    let c = parse_collection(text).unwrap();
    assert_eq!(c.title.as_deref(), Some("Garden Paths"));
    let titles: Vec<Option<&str>> = c.entries.iter().map(|e| e.title.as_deref()).collect();
    assert_eq!(titles, [Some("Stroll"), Some("2")]);
    assert_eq!(c.entries[0].grid.lines[0], Some(9));
    assert_eq!(c.entries[0].grid.rows[0].len(), 7, "leading spaces kept, '\\r' dropped");
    for e in &c.entries {
        e.level().unwrap();
    }
}

#[test]
fn test_title_before_the_board() {
    // `Title:` lines written above their boards (each in the board's paragraph).
    let text = "Title: Set name\n\nTitle: First\n#####\n#@$.#\n#####\n\nTitle: Second\n#####\n#.$@#\n#####\n";
    let c = parse_collection(text).unwrap();
    assert_eq!(c.title.as_deref(), Some("Set name"));
    let titles: Vec<Option<&str>> = c.entries.iter().map(|e| e.title.as_deref()).collect();
    assert_eq!(titles, [Some("First"), Some("Second")]);
    // One level with a title above it.
    assert_eq!(level("Title: Lonely\n\n#####\n#@$.#\n#####").title.as_deref(), Some("Lonely"));
    assert_eq!(level("; 7\n#####\n#@$.#\n#####").title.as_deref(), Some("7"));
}

#[test]
fn test_collection_with_rle_lines_and_solutions() {
    let text = "; 1\n5#\n#@$.#\n5#\nSolution:\nrR\n\n; 2\n5#|#.$@#\n5#\nlL\n";
    let c = parse_collection(text).unwrap();
    assert_eq!(c.entries.len(), 2);
    assert_eq!(c.entries[0].title.as_deref(), Some("1"));
    assert_eq!(c.entries[1].title.as_deref(), Some("2"));
    assert_eq!(c.entries[1].grid.rows.len(), 3);
    assert_eq!(c.entries[1].grid.lines, [Some(9), Some(9), Some(10)]);
    // A solution line is not the next level's title.
    let c = parse_collection("#####\n#@$.#\n#####\nuuddLLRR\n#####\n#@$.#\n#####").unwrap();
    assert_eq!(c.entries[1].title, None);
}

#[test]
fn test_error_in_the_middle_of_a_collection() {
    let text =
        "; 1\n#####\n#@$.#\n#####\n\n; 2\n#####\n#@$.#\n#@  #\n#####\n\n; 3\n#####\n#.$@#\n#####\n";
    let c = parse_collection(text).unwrap();
    assert_eq!(c.entries.len(), 3);
    assert!(c.entries[0].level().is_ok());
    assert!(c.entries[2].level().is_ok());
    let e = c.entries[1].grid.validate().unwrap_err();
    assert_eq!(e.kind, ErrorKind::TwoPlayers);
    assert_contains(&e.message, &["(line 8)", "(line 9)"]);
    let e = c.entries[1].level().unwrap_err();
    assert!(e.message.starts_with("level 2 \"2\": "), "{}", e.message);
}

#[test]
fn test_detection() {
    let l = level(ON_GOALS);
    assert_eq!(detect(ON_GOALS), Format::Xsb);
    assert_eq!(detect(&format!("\n\n{RAGGED}\n\n")), Format::Xsb);
    assert_eq!(detect("#####"), Format::Xsb);
    assert_eq!(detect(&to_rle(&l)), Format::Rle);
    assert_eq!(detect("6#\n#+-$-#\n#-$*-#\n#2-.-#\n6#"), Format::Rle);
    assert_eq!(detect(&to_mf8(&l)), Format::Mf8);
    assert_eq!(detect("HHHHHH\nHx_$_H\nH_$*_H\nH__._H\nHHHHHH"), Format::Mf8);
    assert_eq!(detect(SOKOPLAYER_EXAMPLE), Format::SokoPlayerUrl);
    assert_eq!(detect(&to_soko_wrapper(&l)), Format::SokoWrapper);
    assert_eq!(detect(&to_sokobanscript_level_url(&l, "")), Format::SokobanScriptLevel);
    assert_eq!(detect(&to_sokobanscript_base64_url(&l, "x")), Format::SokobanScriptBase64);
    assert_eq!(detect(&to_collection(&levels())), Format::Collection);
    assert_eq!(detect("; 1\n#####\n#@$.#\n#####"), Format::Collection);
    assert_eq!(detect("uurrDDLL"), Format::Lurd);
    assert_eq!(detect("  3(lu)2R\n d  "), Format::Lurd);
    assert!(matches!(parse_input("udLR").unwrap(), Input::Solution(m) if m.len() == 4));
    assert!(matches!(parse_input(ON_GOALS).unwrap(), Input::Levels(c) if c.format == Format::Xsb));
    // A solution is not a level.
    let e = parse_collection("uurr").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Empty);
}

#[test]
fn test_unknown_characters() {
    let text = "######\n#+ $ #\n# $* #\n#  .Q#\n######";
    let m = error(text, ErrorKind::UnknownChar);
    assert_eq!(m, "unknown character 'Q' at line 4, column 5");
    // Columns count leading spaces; lines count everything before.
    let m = error("; title\n\n ####\n #@ #\n #$Q#\n #. #\n ####", ErrorKind::UnknownChar);
    assert_eq!(m, "unknown character 'Q' at line 5, column 4");
    let m = error("#####\n#@\t$.#\n#####", ErrorKind::UnknownChar);
    assert_contains(&m, &["'\\t'", "line 2, column 3"]);
    // Single-line inputs.
    let m = error("5#|#@$.#|5#|#Q3#", ErrorKind::UnknownChar);
    assert_eq!(m, "unknown character 'Q' at position 14");
    let m = error("w=4&h=5&lvl=HHHH|Ha_H|HQ$H|H._H|HHHH", ErrorKind::UnknownChar);
    assert_eq!(m, "unknown character 'Q' in row 3, column 2 of the lvl parameter");
    let m = error("?level=%23%23%23%23%23|%23@$.Q|%23%23%23%23%23", ErrorKind::UnknownChar);
    assert_eq!(m, "unknown character 'Q' in row 2, column 5 of the level parameter");
    let m = error("[soko=5,3]HHHHH|Ha$.H|HHHQH[/soko]", ErrorKind::UnknownChar);
    assert_eq!(m, "unknown character 'Q' in row 3, column 4 of the [soko] wrapper");
    let m = error("HHHHH|Ha$.H|HHHQH", ErrorKind::UnknownChar);
    assert_eq!(m, "unknown character 'Q' in row 3, column 4 of the MF8 text");
    // Malformed run-length.
    let m = error("5#|#@$.#|5#)", ErrorKind::UnknownChar);
    assert_eq!(m, "')' at position 12 closes no group");
    let m = error("5#|#@$.#|2(#", ErrorKind::UnknownChar);
    assert_contains(&m, &["never closed", "position 11"]);
    let m = error("5#|#@$.#|5#|2(4)", ErrorKind::UnknownChar);
    assert_contains(&m, &["count", "position 15"]);
    let m = error("5#|#@$.#|99999999999999999999999#", ErrorKind::TooLarge);
    assert_contains(&m, &["too large", "position 10"]);
    let m = error("5#|#@$.#|5#|9999(9999#)", ErrorKind::TooLarge);
    assert_contains(&m, &["too many squares", "position 17"]);
}

#[test]
fn test_validation_errors() {
    let m = error("#####\n#.$ #\n#####", ErrorKind::NoPlayer);
    assert_contains(&m, &["no player"]);
    let m = error("######\n#@$.@#\n######", ErrorKind::TwoPlayers);
    assert_contains(&m, &["row 2, column 2 (line 2)", "row 2, column 5 (line 2)"]);
    let m = error("#####\n#@ .#\n#####", ErrorKind::NoBoxes);
    assert_contains(&m, &["no boxes"]);
    let m = error("######\n#@$$.#\n######", ErrorKind::BoxGoalMismatch);
    assert_contains(&m, &["2 boxes but 1 goal"]);
    let m = error("#####\n#@$.\n#####", ErrorKind::Open);
    assert_contains(&m, &["open", "line 2"]);
    let m = error("#####\n#@$.#\n######\n    #$", ErrorKind::Outside);
    assert_contains(&m, &["box", "row 4, column 6 (line 4)"]);
    let wide = format!("{0}\n#@$.{1}#\n{0}", "#".repeat(300), " ".repeat(295));
    let m = error(&wide, ErrorKind::TooLarge);
    assert_contains(&m, &["300 columns"]);
    // Validation errors from one-line formats name rows and columns.
    let m = error("?w=6&h=3&lvl=HHHHHH|Ha$.aH|HHHHHH", ErrorKind::TwoPlayers);
    assert_contains(&m, &["row 2, column 2", "row 2, column 5"]);
}

#[test]
fn test_url_errors() {
    let m = error("https://sokoban.ws/sokoplayer/?w=4&h=9", ErrorKind::BadUrl);
    assert_contains(&m, &["no lvl parameter"]);
    let m = error("w=4&h=9&level", ErrorKind::BadUrl);
    assert_contains(&m, &["no lvl parameter"]);
    let m = error("[soko=4,x]HHHH|Ha$.|HHHH[/soko]", ErrorKind::BadUrl);
    assert_contains(&m, &["width and a height", "[soko=4,x]"]);
    let m = error("[soko=5,3]HHHHH|Ha$.H|HHHHH", ErrorKind::BadUrl);
    assert_contains(&m, &["[/soko]"]);
    let m = error("?w=four&h=3&lvl=HHHHH|Ha$.H|HHHHH", ErrorKind::BadUrl);
    assert_contains(&m, &["w parameter", "\"four\"", "not a number"]);
    let m = error("?w=5&h=x3&lvl=HHHHH|Ha$.H|HHHHH", ErrorKind::BadUrl);
    assert_contains(&m, &["h parameter", "not a number"]);
    let m = error("?w=4&h=3&lvl=HHHH|Ha$.H|HHHH", ErrorKind::BadUrl);
    assert_contains(&m, &["row 2 of the lvl parameter", "5 squares wide", "width is 4"]);
    let m = error("?w=5&h=2&lvl=HHHHH|Ha$.H|HHHHH", ErrorKind::BadUrl);
    assert_contains(&m, &["3 rows", "height is 2"]);
    let m = error("?w=5&h=3&lvl=HHHHH%7CHa$.H%7|HHHHH", ErrorKind::BadUrl);
    assert_contains(&m, &["percent-encoding", "\"%7|\"", "position 14", "lvl parameter"]);
    let m = error("?base64=IyMj!wojQCQuIwojIyMjIw", ErrorKind::BadUrl);
    assert_contains(&m, &["bad base64", "'!'", "position 5"]);
    let m = error("?base64=IyMjIwojQCQuIwojIyMjI", ErrorKind::BadUrl);
    assert_contains(&m, &["bad base64"]);
    let m = error("?base64=IyMj=IwojQCQuIwojIyMjIw", ErrorKind::BadUrl);
    assert_contains(&m, &["bad base64", "padding", "position 6"]);
    // The base64 is fine but the text is not UTF-8.
    let m = error("?base64=_w", ErrorKind::BadUrl);
    assert_contains(&m, &["UTF-8"]);
    let m = error("?w=4&h=3&lvl=", ErrorKind::Empty);
    assert_contains(&m, &["lvl parameter is empty"]);
}

#[test]
fn test_empty_inputs() {
    assert_eq!(parse_input("").unwrap_err().kind, ErrorKind::Empty);
    assert_eq!(parse_input(" \n\t\n").unwrap_err().kind, ErrorKind::Empty);
    let e = parse_input("Just some words\n; and a comment\n").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Empty);
    assert_contains(&e.message, &["no level found"]);
}

/// Found by the fuzzer (fuzz/regressions/formats/decoration-row-above-the-board): a row
/// holding only a decoration (a box on a goal outside the level) was written as an XSB line
/// without a wall, which reads back as a title, so the board lost the row. Such a row is now
/// joined to a board line with a `|` row break.
#[test]
fn test_rows_without_walls_read_back() {
    for text in [
        "*2-|3#8#3-#|#.@$2-#|3#-$.#|#.2#$-#|#-#-.-4#|#$-*2$.#|#3-.2-#|8#",
        "5#|#@$.#|5#|-*",
        "*|-*|5#|#@$.#|5#",
    ] {
        let l = level(text);
        for written in [
            to_xsb(&l),
            to_collection(std::slice::from_ref(&l)),
            to_sokobanscript_level_url(&l, "https://x.org/"),
        ] {
            let back = parse_level(&written).expect(&written);
            assert_eq!((&back.board, &back.start), (&l.board, &l.start), "{written}");
        }
    }
}
