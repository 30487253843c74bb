//! Compare partitions of the 15-puzzle's tiles for the pattern databases: nodes and time of
//! IDA* on positions of a CSV file (id,...,tiles), blank-first goal.
//! `cargo run --release -p tile-puzzle --example partition -- FILE N "4,5,8,9,12,13/6,7,10,11,14,15/1,2,3" [nomirror]`
use std::sync::Arc;
use std::time::Instant;
use tile_puzzle::ida::{Ida, IdaEvent, Pdb};
use tile_puzzle::pdb::PdbBuilder;
use tile_puzzle::{Board, GoalKind};

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let text = std::fs::read_to_string(&a[0]).unwrap();
    let count: usize = a[1].parse().unwrap();
    let groups: Vec<Vec<u8>> =
        a[2].split('/').map(|g| g.split(',').map(|c| c.parse().unwrap()).collect()).collect();
    let mirror = a.get(3).is_none_or(|s| s != "nomirror");
    let t = Instant::now();
    let tables: Vec<Arc<tile_puzzle::PatternDb>> = groups
        .iter()
        .map(|g| {
            let mut b = PdbBuilder::new(4, 4, g);
            while !b.run(1 << 20) {}
            Arc::new(b.finish(0.0))
        })
        .collect();
    println!("build {:.2} s", t.elapsed().as_secs_f64());
    let goal = Board::goal(4, 4, GoalKind::BlankFirst).unwrap();
    let (mut nodes, t) = (0u64, Instant::now());
    for line in text.lines().skip(1).take(count) {
        let tiles = line.rsplit(',').next().unwrap();
        let b = Board::parse(tiles, None).unwrap();
        let pdb = Pdb::new(4, goal.tiles(), tables.clone(), mirror);
        let mut ida = Ida::new(4, b.tiles(), goal.tiles(), pdb);
        loop {
            match ida.run(1 << 20) {
                IdaEvent::Solved(_) => break,
                IdaEvent::Unsolvable => panic!(),
                _ => {}
            }
        }
        nodes += ida.nodes;
    }
    println!("{count} positions: {nodes} nodes, {:.2} s", t.elapsed().as_secs_f64());
}
