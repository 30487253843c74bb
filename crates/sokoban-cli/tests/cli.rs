//! The `sokoban` command: check, convert and solve on project-written levels, and (ignored,
//! run with `--ignored`) check on the public collections in ../shared/levels when present.

mod common;
use common::sokoban;

const COLLECTION: &str = "\
; A tiny set written for the tests

; 1
Title: Corridor
#######
#@ $ .#
#######

; 2
Title: Two rooms
#######
#.  $ #
# #@  #
#  $. #
#######

; 3
Title: Broken
#####
#@$ #
#####
";

fn write_temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sokoban-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn check_reports_every_level_and_fails_on_an_invalid_one() {
    let p = write_temp("set.xsb", COLLECTION);
    let (code, out, _) = sokoban(&["check", p.to_str().unwrap()], None);
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].contains("Corridor") && lines[0].contains("7x3") && lines[0].ends_with("ok"));
    assert!(lines[1].contains("Two rooms") && lines[1].contains("2 boxes"));
    assert!(lines[2].contains("Broken") && lines[2].contains("error") && lines[2].contains("goal"));
    assert_eq!(lines[3], "3 levels, 2 valid");
}

#[test]
fn check_succeeds_on_valid_levels_from_stdin() {
    let (code, out, _) = sokoban(&["check", "-"], Some("#####\n#@$.#\n#####\n"));
    assert_eq!(code, 0);
    assert!(out.ends_with("1 level, 1 valid\n"), "{out}");
}

#[test]
fn convert_round_trips_through_every_format() {
    let xsb = "#######\n#.  $ #\n# #@  #\n#  $. #\n#######";
    for to in ["rle", "mf8", "sokoplayer", "soko", "sokobanscript", "base64", "collection", "xsb"] {
        let (code, out, err) = sokoban(&["convert", "--to", to], Some(xsb));
        assert_eq!(code, 0, "{to}: {err}");
        let (code, back, err) = sokoban(&["convert", "--to", "xsb"], Some(&out));
        assert_eq!(code, 0, "{to} back: {err}");
        assert_eq!(back.trim_end(), xsb, "{to} gave {out}");
    }
    let (code, _, err) = sokoban(&["convert", "--to", "nonsense"], Some(xsb));
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'nonsense' for '--to <FORMAT>'"), "{err}");
    assert!(err.contains("possible values: xsb, rle, mf8"), "{err}");
}

#[test]
fn solve_prints_csv_and_checks_expected_counts() {
    let p = write_temp("solve.xsb", COLLECTION);
    let (code, out, _) = sokoban(&["solve", p.to_str().unwrap(), "--csv", "--timeout", "5"], None);
    assert_eq!(code, 1, "level 3 is invalid: {out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "level,status,pushes,moves,nodes,ms,lurd,lane,strategy");
    assert!(lines[1].starts_with("1,solved,2,"), "{}", lines[1]);
    assert!(lines[2].starts_with("2,solved,4,"), "{}", lines[2]);
    assert_eq!(lines[3], "3,error,,,,,,,");
    // The fast search names the lane and the strategy that solved the level.
    let (code, out, err) = sokoban(
        &[
            "solve",
            p.to_str().unwrap(),
            "--levels",
            "1",
            "--mode",
            "fast",
            "--threads",
            "2",
            "--csv",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let row = out.lines().nth(1).unwrap_or_default();
    let f: Vec<&str> = row.splitn(9, ',').collect();
    assert_eq!(f.len(), 9, "{row}");
    assert!(f[0] == "1" && f[1] == "solved", "{row}");
    assert!(f[7] == "0" || f[7] == "1", "the lane: {row}");
    assert!(!f[8].is_empty(), "the strategy: {row}");
    let expect = write_temp("expect.csv", "level,pushes\n1,2\n2,5\n");
    let (code, out, _) = sokoban(
        &["solve", p.to_str().unwrap(), "--levels", "1-2", "--expect", expect.to_str().unwrap()],
        None,
    );
    assert_eq!(code, 1, "a wrong expected count must fail: {out}");
    assert!(out.contains("MISMATCH: expected 5 pushes"), "{out}");
}

/// `sokoban check` on the public collections reports every level valid (run with
/// `cargo test -p sokoban-cli -- --ignored` on a machine that has ../shared/levels).
#[test]
#[ignore]
fn shared_collections_are_all_valid() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/levels");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("no {}: skipped", dir.display());
        return;
    };
    let mut n = 0;
    for e in entries.flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "xsb") {
            let (code, out, _) = sokoban(&["check", p.to_str().unwrap()], None);
            let last = out.lines().last().unwrap_or("");
            let (total, valid) = last.split_once(" levels, ").unwrap();
            assert_eq!(format!("{total} valid"), valid, "{}: {last}", p.display());
            assert_eq!(code, 0);
            n += 1;
        }
    }
    assert!(n >= 3);
}

#[test]
fn optimize_reads_solutions_from_the_level_file_or_a_csv() {
    let sok = "\
Title: Corridor
#######
#@ $ .#
#######
Solution (7/2):
rlrRl
rR

Title: Wrong
#######
#@ $ .#
#######
Solution: rRRR
";
    let p = write_temp("optimize.sok", sok);
    let (code, out, err) = sokoban(&["optimize", p.to_str().unwrap(), "--csv"], None);
    assert_eq!(code, 1, "level 2's solution is wrong: {out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "level,status,pushes,moves,nodes,ms,lurd,pushes_before,moves_before,\
         box_lines,box_changes,box_lines_before,box_changes_before,optimal"
    );
    let f: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(
        (f[0], f[1], f[2], f[3], f[6], f[7], f[8]),
        ("1", "solved", "2", "3", "rRR", "2", "7")
    );
    // One box line and one box change, before and after; the global search proves it.
    assert_eq!((f[9], f[10], f[11], f[12], f[13]), ("1", "1", "1", "1", "true"));
    assert_eq!(lines[2], "2,error,,,,,,,,,,,,");
    let (code, out, _) = sokoban(&["optimize", p.to_str().unwrap(), "--levels", "2"], None);
    assert_eq!(code, 1);
    assert!(
        out.contains("error: move 4 ('R') is blocked: the box ahead is against a wall"),
        "{out}"
    );

    let levels = write_temp("optimize.xsb", COLLECTION);
    let csv = write_temp(
        "solutions.csv",
        "level,status,pushes,moves,nodes,ms,lurd\n1,solved,2,7,0,0,rlrRlrR\n3,limit,,,0,0,\n",
    );
    let (code, out, _) = sokoban(
        &["optimize", levels.to_str().unwrap(), csv.to_str().unwrap(), "--metric", "pushes"],
        None,
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("moves     7 ->     3  pushes    2 ->    2"), "{out}");
    assert!(out.contains("(proved optimal)"), "{out}");
    assert!(out.contains("1 solutions, 1 shorter, 1 proved optimal, 0 errors"), "{out}");
}
