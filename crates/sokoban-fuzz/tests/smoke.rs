//! A short fuzz run in the test suite: every seed through every target, then a few
//! thousand mutations (no coverage guidance; the long libFuzzer run is in fuzz/README.md),
//! and every saved regression input in fuzz/regressions/.

#[test]
fn seeds_pass_every_target() {
    for s in sokoban_fuzz::seeds() {
        sokoban_fuzz::all(&s);
        sokoban_fuzz::formats(&s[1..]);
        sokoban_fuzz::session(&s[1..]);
        sokoban_fuzz::solver(&s[1..]);
    }
}

#[test]
fn short_mutation_run() {
    let (slowest, _) = sokoban_fuzz::mutation_run(sokoban_fuzz::all, false, 6000, 0x5EED_F0CC);
    assert!(slowest.as_secs_f64() < 1.0);
}

#[test]
fn saved_regression_inputs_pass() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let mut n = 0;
    for target in ["all", "formats", "session", "solver"] {
        let Ok(entries) = std::fs::read_dir(dir.join(target)) else { continue };
        for e in entries.flatten() {
            let data = std::fs::read(e.path()).unwrap();
            match target {
                "all" => sokoban_fuzz::all(&data),
                "formats" => sokoban_fuzz::formats(&data),
                "session" => sokoban_fuzz::session(&data),
                _ => sokoban_fuzz::solver(&data),
            }
            n += 1;
        }
    }
    eprintln!("{n} regression inputs");
}
