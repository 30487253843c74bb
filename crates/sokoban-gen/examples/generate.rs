//! Generate levels and time them: `cargo run --release -p sokoban-gen --example generate --
//! 10x10-4-1 15x15-8-1 ...` prints each level (XSB), its difficulty, the candidates tried
//! and the seconds it took.
use sokoban_solver::StdClock;

fn main() {
    let specs: Vec<String> = std::env::args().skip(1).collect();
    if specs.is_empty() {
        eprintln!("usage: generate WxH-BOXES-SEED ...");
        std::process::exit(2);
    }
    for spec in specs {
        let req = match sokoban_gen::parse_spec(&spec) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{spec}: {e}");
                std::process::exit(2);
            }
        };
        let t = std::time::Instant::now();
        match sokoban_gen::generate(req, &StdClock::new()) {
            Ok(g) => {
                let d = g.difficulty;
                println!("{spec}\n{}", g.xsb);
                println!(
                    "{spec}: {:.3} s, {} pushes{}, {} moves, {} solver nodes, {} candidates built, {} proved\n",
                    t.elapsed().as_secs_f64(),
                    d.pushes,
                    if d.optimal { " (optimal)" } else { " (fast search)" },
                    d.moves,
                    d.nodes,
                    g.attempts,
                    g.proved
                );
            }
            Err(e) => println!("{spec}: {:.3} s, error: {e}\n", t.elapsed().as_secs_f64()),
        }
    }
}
