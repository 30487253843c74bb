//! The command line as Rust users expect it: help and version, usage errors that name the
//! argument and suggest the right one, exit codes, JSON output, parallel solving in level
//! order, old flag spellings. Levels written for the tests.

mod common;
use common::sokoban;

use serde_json::Value;

fn write_temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("sokoban-cli-options-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// Six small levels, all solvable, of different sizes (so they finish out of order when
/// several run at once).
const SIX: &str = "\
; 1
#######
#.  $ #
# #@  #
#  $. #
#######

; 2
#######
#@ $ .#
#######

; 3
  #####
###   #
#  $# #
# .@  #
#  $. #
##   ##
 #####

; 4
########
#  .   #
# $$ @ #
#  .#  #
# $  . #
########

; 5
#####
#@$.#
#####

; 6
 #######
 #  .  #
##$##$ #
#  @ . #
# .# $ #
#     ##
#######
";

#[test]
fn help_on_the_tool_and_every_subcommand() {
    for args in [&["--help"][..], &["-h"], &["help"]] {
        let (code, out, _) = sokoban(args, None);
        assert_eq!(code, 0, "{args:?}");
        assert!(out.contains("Usage: sokoban <COMMAND>"), "{out}");
        for sub in ["check", "convert", "solve", "plan", "puzzle"] {
            assert!(out.contains(sub), "{sub} missing from\n{out}");
        }
    }
    let (_, out, _) = sokoban(&["--help"], None);
    assert!(out.contains("Exit status:") && out.contains("2  usage error"), "{out}");
    for sub in ["check", "convert", "solve", "plan", "puzzle"] {
        for flag in ["--help", "-h"] {
            let (code, out, err) = sokoban(&[sub, flag], None);
            assert_eq!(code, 0, "{sub} {flag}: {err}");
            assert!(out.contains(&format!("Usage: sokoban {sub}")), "{sub} {flag}: {out}");
            assert!(out.contains("Exit status:"), "{sub} {flag}: {out}");
        }
        let (code, out, _) = sokoban(&["help", sub], None);
        assert_eq!(code, 0);
        assert!(out.contains(&format!("Usage: sokoban {sub}")));
    }
    let (_, out, _) = sokoban(&["solve", "--help"], None);
    for flag in [
        "--mode",
        "--levels",
        "--timeout",
        "--memory",
        "--nodes",
        "--jobs",
        "--csv",
        "--json",
        "--expect",
        "--progress",
    ] {
        assert!(out.contains(flag), "solve --help lacks {flag}");
    }
}

#[test]
fn version() {
    let (code, out, _) = sokoban(&["--version"], None);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), format!("sokoban {}", env!("CARGO_PKG_VERSION")));
    let (code, out, _) = sokoban(&["solve", "-V"], None);
    assert_eq!(code, 0);
    assert!(out.starts_with("sokoban-solve "), "{out}");
}

#[test]
fn usage_errors_name_the_argument_and_suggest_the_right_one() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["solve", "--tmeout", "3", "x.xsb"],
            &["'--tmeout'", "similar argument exists: '--timeout'"],
        ),
        (&["slove", "x.xsb"], &["'slove'", "similar subcommand exists: 'solve'"]),
        (&["solve", "x.xsb", "--mode", "fats"], &["'fats'", "--mode", "'fast'"]),
        (&["solve", "x.xsb", "--levels", "one"], &["'one'", "--levels", "not N or A-B"]),
        (&["solve", "x.xsb", "--timeout", "soon"], &["'soon'", "--timeout"]),
        (&["solve", "x.xsb", "--jobs", "0"], &["--jobs"]),
        (&["solve", "x.xsb", "--csv", "--json"], &["--csv", "--json", "cannot be used with"]),
        (&["solve"], &["<FILE>"]),
        (&["puzzle", "--heuristic", "pbd"], &["'pbd'", "possible values: auto, pdb, lc"]),
        (&["puzzle", "--size", "9x9"], &["--size", "not WxH"]),
        (&[], &["Usage: sokoban <COMMAND>"]),
    ];
    for (args, wants) in cases {
        let (code, _, err) = sokoban(args, Some(""));
        assert_eq!(code, 2, "{args:?}: {err}");
        for w in *wants {
            assert!(err.contains(w), "{args:?}: '{w}' not in\n{err}");
        }
    }
    // A file that is not there, input that is not levels: exit 2 with the name.
    let (code, _, err) = sokoban(&["check", "/no/such/file.xsb"], None);
    assert_eq!(code, 2);
    assert!(err.contains("/no/such/file.xsb"), "{err}");
    let (code, _, err) = sokoban(&["solve", "-"], Some("lurd"));
    assert_eq!(code, 2);
    assert!(err.contains("solution"), "{err}");
}

#[test]
fn old_spellings_still_work() {
    let p = write_temp("six.xsb", SIX);
    // --name=value, options before the file, a repeated option (the last counts).
    let (code, out, err) = sokoban(
        &["solve", "--timeout=1", "--levels=2", "--timeout", "5", &p, "--csv", "--jobs=1"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.lines().nth(1).unwrap().starts_with("2,solved,2,3,"), "{out}");
    let (code, out, _) = sokoban(&["convert", "--level", "5", "--to", "rle", &p], None);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "5#|#@$.#|5#");
    let (code, out, _) = sokoban(&["plan", &p, "--levels", "5"], None);
    assert_eq!(code, 0);
    assert!(out.starts_with("level 5\n"), "{out}");
    // The plan under development switches, as `solve` takes them; an unknown one is refused.
    let (code, with, _) = sokoban(&["plan", &p, "--levels", "5", "--experiments", "oneplan"], None);
    assert_eq!((code, &with), (0, &out));
    let (code, _, err) = sokoban(&["plan", &p, "--experiments", "nosuch"], None);
    assert_eq!(code, 2);
    assert!(err.contains("nosuch"), "{err}");
}

#[test]
fn check_json_has_one_object_per_level() {
    let text = format!("{SIX}\n; 7\n#####\n#@$ #\n#####\n");
    let p = write_temp("check.xsb", &text);
    let (code, out, err) = sokoban(&["check", &p, "--json"], None);
    assert_eq!(code, 1, "level 7 has no goal");
    assert_eq!(err.trim(), "7 levels, 6 valid");
    let rows: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert_eq!(rows.len(), 7);
    assert_eq!(rows[1]["level"], 2);
    assert_eq!(rows[1]["title"], "2");
    assert_eq!((rows[1]["width"].as_u64(), rows[1]["height"].as_u64()), (Some(7), Some(3)));
    assert_eq!(rows[1]["boxes"], 1);
    assert_eq!(rows[1]["valid"], true);
    assert!(rows[1]["error"].is_null());
    assert_eq!(rows[6]["valid"], false);
    assert!(rows[6]["error"].as_str().unwrap().contains("goal"), "{}", rows[6]);
}

/// The CSV lines without the time column.
fn without_ms(out: &str) -> Vec<String> {
    out.lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            if f.len() > 5 {
                f.remove(5);
            }
            f.join(",")
        })
        .collect()
}

#[test]
fn parallel_runs_print_in_level_order_and_match_one_job() {
    let p = write_temp("par.xsb", SIX);
    let (c1, one, e1) = sokoban(&["solve", &p, "--csv", "--jobs", "1"], None);
    let (c3, three, e3) = sokoban(&["solve", &p, "--csv", "--jobs", "3"], None);
    assert_eq!((c1, c3), (0, 0), "{e1}\n{e3}");
    assert_eq!(without_ms(&one), without_ms(&three));
    let levels: Vec<&str> = three.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(levels, ["1", "2", "3", "4", "5", "6"]);
    assert!(e1.starts_with("6 of 6 solved in ") && !e1.contains("jobs"), "{e1}");
    // Several jobs share the memory: 256 MiB over 3 jobs.
    assert!(e3.contains("(3 jobs, 85 MiB each; wall time "), "{e3}");
    // Piped output: no progress bar, nothing else on standard error.
    assert_eq!(e3.lines().count(), 1, "{e3}");
    let (code, table, err) = sokoban(&["solve", &p, "--jobs", "2", "--memory", "64"], None);
    assert_eq!(code, 0);
    assert!(err.is_empty(), "no bar when piped: {err}");
    assert!(table.lines().last().unwrap().contains("(2 jobs, 32 MiB each"), "{table}");
    // The default: the cores this process may use; the same results.
    let (code, dflt, _) = sokoban(&["solve", &p, "--csv"], None);
    assert_eq!(code, 0);
    assert_eq!(without_ms(&dflt), without_ms(&one));
}

#[test]
fn more_lanes_than_threads_give_the_moves_of_as_many_threads() {
    let p = write_temp("lanes.xsb", SIX);
    let fast = ["solve", &p, "--csv", "--mode", "fast", "--jobs", "1"];
    let (c4, four, e4) = sokoban(&[&fast[..], &["--threads", "4"]].concat(), None);
    let (c1, lanes, e1) = sokoban(&[&fast[..], &["--threads", "1", "--lanes", "4"]].concat(), None);
    assert_eq!((c4, c1), (0, 0), "{e4}\n{e1}");
    // The same solutions; the moves all lanes made (nodes) depend on the threads' timing.
    let solutions = |out: &str| -> Vec<String> {
        let row = |l: &String| {
            let f: Vec<&str> = l.split(',').collect();
            [&f[..4], &f[5..]].concat().join(",")
        };
        without_ms(out).iter().map(row).collect()
    };
    assert_eq!(solutions(&lanes), solutions(&four));
    assert!(e1.contains("(1 jobs, 4 lanes on 1 threads each"), "{e1}");
    assert!(e4.contains("(1 jobs, 4 threads each"), "{e4}");
}

#[test]
fn solve_json_and_exit_codes() {
    // Level 2 is proved unsolvable (a box in a corner), level 3 needs more nodes than given.
    let text = "\
; 1
#####
#@$.#
#####

; 2
#####
#@ .#
#$  #
#####

; 3
#######
#.  $ #
# #@  #
#  $. #
#######
";
    let p = write_temp("codes.xsb", text);
    let (code, out, err) = sokoban(&["solve", &p, "--json", "--nodes", "2", "--jobs", "2"], None);
    assert_eq!(code, 1, "not all solved: {out}{err}");
    let rows: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert_eq!(rows.len(), 3, "{out}");
    assert_eq!(rows[0]["status"], "solved");
    assert_eq!(rows[0]["pushes"], 1);
    assert_eq!(rows[0]["lurd"], "R");
    assert_eq!(rows[1]["status"], "unsolvable");
    assert!(rows[1]["pushes"].is_null());
    assert_eq!(rows[2]["status"], "limit");
    assert_eq!(rows[2]["limit"], "nodes");
    assert!(err.starts_with("1 of 3 solved"), "{err}");
    // Only level 1: all good.
    let (code, _, _) = sokoban(&["solve", &p, "--levels", "1", "--json"], None);
    assert_eq!(code, 0);
    // Expected counts in JSON; a difference fails the run.
    let expect = write_temp("expect.csv", "level,pushes\n1,2\n");
    let (code, out, err) =
        sokoban(&["solve", &p, "--levels", "1", "--json", "--expect", &expect], None);
    assert_eq!(code, 1);
    let row: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!((row["pushes"].as_u64(), row["expected_pushes"].as_u64()), (Some(1), Some(2)));
    assert!(err.contains("MISMATCH: expected 2 pushes"), "{err}");
    // A level the fast search cannot take is an error line, and the run goes on.
    let (code, out, _) =
        sokoban(&["solve", &p, "--levels", "1-2", "--csv", "--mode", "fast"], None);
    assert_eq!(code, 1);
    assert!(out.lines().nth(1).unwrap().starts_with("1,solved,1,"), "{out}");
}

#[test]
fn puzzle_exit_codes() {
    // -1 (proved unreachable) is an answer: exit 0; a position cut by its time limit is not.
    let (code, out, _) = sokoban(&["puzzle"], Some("1\n2 1 3 4 5 6 7 8 0\n"));
    assert_eq!((code, out.as_str()), (0, "-1\n"));
    let hard = "1\n0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1\n";
    let (code, out, _) =
        sokoban(&["puzzle", "--timeout", "0.001", "--heuristic", "manhattan"], Some(hard));
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("limit"), "{out}");
}
