//! `sokoban-fuzz seeds DIR [TARGET]`: write the seed corpus to DIR (inputs of `all`, or of
//! one target).
//! `sokoban-fuzz replay DIR [TARGET]`: run every file of DIR through `all` or TARGET, timed
//! (the slowest input of each target, in a release build without instrumentation).
//! `sokoban-fuzz run TARGET N [SEED]`: a plain mutation run of N inputs without libFuzzer
//! (no nightly needed; no coverage guidance): seeds mutated again and again, every input's
//! time checked against a second. TARGET: all, formats, session, solver.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["seeds", dir, rest @ ..] => {
            // All seeds (inputs of `all`), or one target's (its number byte dropped).
            let pick = match rest.first().copied() {
                None => None,
                Some("formats") => Some(0),
                Some("session") => Some(1),
                Some("solver") => Some(2),
                Some(other) => panic!("unknown target {other}"),
            };
            std::fs::create_dir_all(dir).expect("creates the directory");
            let mut n = 0;
            for (i, s) in sokoban_fuzz::seeds().iter().enumerate() {
                let body = match pick {
                    None => &s[..],
                    Some(t) if sokoban_fuzz::target_of(s[0]) == t => &s[1..],
                    Some(_) => continue,
                };
                std::fs::write(format!("{dir}/seed-{i:03}"), body).expect("writes a seed");
                n += 1;
            }
            println!("{n} seeds in {dir}");
        }
        ["replay", dir, rest @ ..] => {
            // Every file of DIR through `all` (or through TARGET), timed per target.
            let pick = rest.first().map(|t| match *t {
                "formats" => 0,
                "session" => 1,
                "solver" => 2,
                other => panic!("unknown target {other}"),
            });
            let mut per = [(0u32, 0f64, 0f64); 3];
            for e in std::fs::read_dir(dir).expect("reads the directory").flatten() {
                let data = std::fs::read(e.path()).expect("reads a file");
                let t = std::time::Instant::now();
                match pick {
                    None => sokoban_fuzz::all(&data),
                    Some(0) => sokoban_fuzz::formats(&data),
                    Some(1) => sokoban_fuzz::session(&data),
                    Some(_) => sokoban_fuzz::solver(&data),
                }
                let ms = t.elapsed().as_secs_f64() * 1e3;
                let k =
                    pick.unwrap_or_else(|| data.first().map_or(0, |&b| sokoban_fuzz::target_of(b)));
                per[k].0 += 1;
                per[k].1 += ms;
                per[k].2 = per[k].2.max(ms);
            }
            for (name, (n, ms, max)) in ["formats", "session", "solver"].iter().zip(per) {
                println!("{name}: {n} inputs, {ms:.1} ms in all, slowest {max:.2} ms");
            }
        }
        ["run", target, n, rest @ ..] => {
            let n: u64 = n.parse().expect("N is a number");
            let seed: u64 = rest.first().map_or(0x5EED, |s| s.parse().expect("SEED is a number"));
            let f: fn(&[u8]) = match *target {
                "all" => sokoban_fuzz::all,
                "formats" => sokoban_fuzz::formats,
                "session" => sokoban_fuzz::session,
                "solver" => sokoban_fuzz::solver,
                other => panic!("unknown target {other}"),
            };
            let (slowest, total) = sokoban_fuzz::mutation_run(f, *target != "all", n, seed);
            println!(
                "{n} inputs in {:.1} s, slowest {:.1} ms, 0 panics",
                total.as_secs_f64(),
                slowest.as_secs_f64() * 1e3
            );
        }
        _ => {
            eprintln!("usage: sokoban-fuzz seeds DIR [TARGET] | replay DIR [TARGET] | run TARGET N [SEED]");
            std::process::exit(2);
        }
    }
}
