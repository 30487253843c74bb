//! Generate levels and time them.
//!
//! `cargo run --release -p sokoban-gen --example generate -- 10x10-4-1 15x15-8-1 ...` prints
//! each level (XSB), its difficulty, the candidates tried and the seconds it took (CPU
//! seconds on Linux, so that another program running does not count).
//!
//! `... --example generate -- --seeds 1-20 10x10-4 15x15-8` generates every size for each
//! seed of the range and prints one line per level, then the medians per size (the
//! benchmark of bench/results.md).
use sokoban_gen::{Generated, Request};
use sokoban_solver::StdClock;

fn usage() -> ! {
    eprintln!(
        "usage: generate WxH-BOXES-SEED ...\n       generate --seeds FIRST-LAST WxH-BOXES ..."
    );
    std::process::exit(2);
}

fn request(spec: &str) -> Request {
    sokoban_gen::parse_spec(spec).unwrap_or_else(|e| {
        eprintln!("{spec}: {e}");
        std::process::exit(2)
    })
}

/// Seconds this thread has run on a CPU (Linux: /proc/thread-self/schedstat), so a busy
/// machine does not count; `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(text.split_whitespace().next()?.parse::<f64>().ok()? / 1e9)
}

/// Generate one level: the level or the error, and the seconds it took (CPU seconds of
/// this thread where the system tells them, else wall-clock seconds).
fn timed(req: Request) -> (Result<Generated, sokoban_gen::GenError>, f64) {
    let (t, cpu) = (std::time::Instant::now(), cpu_seconds());
    let r = sokoban_gen::generate(req, &StdClock::new());
    let secs = match (cpu, cpu_seconds()) {
        (Some(a), Some(b)) => b - a,
        _ => t.elapsed().as_secs_f64(),
    };
    (r, secs)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        usage();
    }
    if args[0] == "--seeds" {
        let Some((a, b)) = args.get(1).and_then(|r| r.split_once('-')) else { usage() };
        let (Ok(first), Ok(last)) = (a.parse::<u64>(), b.parse::<u64>()) else { usage() };
        for size in &args[2..] {
            let (mut secs, mut pushes, mut changes) = (Vec::new(), Vec::new(), Vec::new());
            for seed in first..=last {
                let spec = format!("{size}-{seed}");
                match timed(request(&spec)) {
                    (Ok(g), s) => {
                        let d = g.difficulty;
                        println!(
                            "{spec}\t{s:.3} s\t{} pushes\t{} box changes\t{} moves",
                            d.pushes, d.box_changes, d.moves
                        );
                        secs.push(s);
                        pushes.push(d.pushes as f64);
                        changes.push(d.box_changes as f64);
                    }
                    (Err(e), s) => println!("{spec}\t{s:.3} s\terror: {e}"),
                }
            }
            let lo = secs.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = secs.iter().copied().fold(0.0, f64::max);
            println!(
                "{size}: {} levels, seconds {lo:.2}-{hi:.2} median {:.2}, pushes median {} ({}-{}), box changes median {}\n",
                secs.len(),
                median(secs.clone()),
                median(pushes.clone()),
                pushes.iter().copied().fold(f64::INFINITY, f64::min),
                pushes.iter().copied().fold(0.0, f64::max),
                median(changes),
            );
        }
        return;
    }
    for spec in &args {
        match timed(request(spec)) {
            (Ok(g), s) => {
                let d = g.difficulty;
                println!("{spec}\n{}", g.xsb);
                println!(
                    "{spec}: {s:.3} s, {} pushes{}, {} box changes, {} moves, {} solver nodes, {} candidates built, {} proved\n",
                    d.pushes,
                    if d.optimal { " (optimal)" } else { " (fast search)" },
                    d.box_changes,
                    d.moves,
                    d.nodes,
                    g.attempts,
                    g.proved
                );
            }
            (Err(e), s) => println!("{spec}: {s:.3} s, error: {e}\n"),
        }
    }
}
