//! Timing of the player's-area flood: square by square (`AreaFlood`) against a row of bits
//! at a time (`bits::BitArea`), on the start positions of a collection, with all the boxes
//! and with only the first four (the stuck and corral searches flood with a few boxes).
//!
//! Run with `cargo bench -p sokoban-solver --bench flood -- LEVELS.xsb [N...]` (default:
//! `../shared/levels/xsokoban-90.xsb` beside the project, every level); prints one row per
//! level and position, nanoseconds per flood.

use std::hint::black_box;
use std::time::Instant;

use sokoban_core::format::parse_collection;
use sokoban_solver::analysis::bits::{BitArea, BitGrid};
use sokoban_solver::analysis::problem::{AreaFlood, Problem};

const FLOODS: u32 = 100_000;

fn per_flood(mut f: impl FnMut() -> u16) -> f64 {
    for _ in 0..1000 {
        black_box(f());
    }
    let t = Instant::now();
    for _ in 0..FLOODS {
        black_box(f());
    }
    t.elapsed().as_nanos() as f64 / FLOODS as f64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let path = args.first().cloned().unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/levels/xsokoban-90.xsb").into()
    });
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("no level file at {path}: nothing to time");
        return;
    };
    let want: Vec<usize> = args.iter().skip(1).filter_map(|s| s.parse().ok()).collect();
    let entries = parse_collection(&text).expect("a level collection").entries;
    println!("| level | squares | boxes | area | square by square (ns) | bits (ns) | ratio |");
    println!("|---|---|---|---|---|---|---|");
    let mut ratios = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if !want.is_empty() && !want.contains(&(i + 1)) {
            continue;
        }
        let Ok(level) = e.grid.validate() else { continue };
        let p = Problem::new(&level.board);
        let Some(g) = BitGrid::new(&level.board, &p.board_sq) else { continue };
        let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
        let player = p.compact[level.start.player];
        for keep in [boxes.len(), 4.min(boxes.len())] {
            let mut blocked = vec![false; p.n];
            let mut bits = vec![0u64; g.words()];
            for &b in &boxes[..keep] {
                blocked[b as usize] = true;
                g.set(&mut bits, b, true);
            }
            let mut queue = AreaFlood::new(p.n);
            let mut bit_area = BitArea::new(&g);
            let area = {
                queue.flood(&p, &blocked, player);
                queue.area().len()
            };
            let a = per_flood(|| queue.flood(&p, &blocked, player));
            let b = per_flood(|| bit_area.flood(&g, &bits, player));
            ratios.push(a / b);
            println!("| {} | {} | {keep} | {area} | {a:.0} | {b:.0} | {:.2} |", i + 1, p.n, a / b);
        }
    }
    if !ratios.is_empty() {
        ratios.sort_by(f64::total_cmp);
        println!("\nmedian ratio {:.2} over {} positions", ratios[ratios.len() / 2], ratios.len());
    }
}
