//! Benchmark of the shortening pass on solutions already found: for each solved level of a
//! `sokoban solve --csv` file (run with `--shorten 0`), shorten its solution with the given
//! effort and print the pushes and moves before and after and the time taken.
//!
//! `cargo run --release -p sokoban-solver --example shorten -- LEVELS.xsb SOLUTIONS.csv [EFFORT]`
//! (`MACRO_ONLY=1`: the macro-move merging alone, EFFORT box searches).

use std::time::Instant;

use sokoban_core::{format, lurd, Game};
use sokoban_solver::analysis::problem::Problem;
use sokoban_solver::{shorten, Solution, DEFAULT_SHORTEN};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        return Err("usage: shorten LEVELS SOLUTIONS.csv [EFFORT]".into());
    }
    let levels = format::parse_collection(&std::fs::read_to_string(&args[1])?)?;
    let csv = std::fs::read_to_string(&args[2])?;
    let effort: u64 = args.get(3).map_or(Ok(DEFAULT_SHORTEN), |s| s.parse())?;
    println!("level,pushes,moves,short_pushes,short_moves,ms");
    let (mut n, mut p0, mut m0, mut p1, mut m1, mut ms_all) = (0, 0, 0, 0, 0, Vec::new());
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() < 7 || f[1] != "solved" {
            continue;
        }
        let number: usize = f[0].parse()?;
        let level = levels.entries[number - 1].level()?;
        let moves = lurd::parse_lurd(f[6])?;
        let mut game = Game::new(level.clone());
        game.play(&moves).map_err(|e| e.message)?;
        assert!(game.is_solved(), "level {number}: the CSV's solution does not solve it");
        let sol = Solution { pushes: game.pushes(), moves, found: None };
        let (pushes, len) = (sol.pushes, sol.moves.len());
        let t = Instant::now();
        let p = Problem::new(&level.board);
        let short = if std::env::var("MACRO_ONLY").is_ok() {
            match shorten::merge_macros(&level.board, &level.start, &sol.moves, effort) {
                Some(m) => {
                    let mut g = Game::new(level.clone());
                    g.play(&m).map_err(|e| e.message)?;
                    Solution { pushes: g.pushes(), moves: m, found: None }
                }
                None => sol,
            }
        } else {
            shorten::shorten_solution(&level, &p, sol, effort)
        };
        let ms = t.elapsed().as_secs_f64() * 1e3;
        println!("{number},{pushes},{len},{},{},{ms:.1}", short.pushes, short.moves.len());
        n += 1;
        (p0, m0, p1, m1) = (p0 + pushes, m0 + len, p1 + short.pushes, m1 + short.moves.len());
        ms_all.push(ms);
    }
    ms_all.sort_by(f64::total_cmp);
    let pct = |a: usize, b: usize| 100.0 * (a as f64 - b as f64) / a as f64;
    eprintln!(
        "{n} solutions, effort {effort}: pushes {p0} -> {p1} (-{:.1}%), moves {m0} -> {m1} (-{:.1}%); time median {:.1} ms, max {:.1} ms, total {:.0} ms",
        pct(p0, p1),
        pct(m0, m1),
        ms_all.get(ms_all.len() / 2).copied().unwrap_or(0.0),
        ms_all.last().copied().unwrap_or(0.0),
        ms_all.iter().sum::<f64>()
    );
    Ok(())
}
