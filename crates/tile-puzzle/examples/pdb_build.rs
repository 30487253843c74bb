//! Build one pattern database and print how long it took:
//! `cargo run --release -p tile-puzzle --example pdb_build -- 4 4 4,5,8,9,12,13`
use std::time::Instant;
use tile_puzzle::pdb::PdbBuilder;

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let w: usize = a.first().map_or(4, |s| s.parse().unwrap());
    let h: usize = a.get(1).map_or(4, |s| s.parse().unwrap());
    let cells: Vec<u8> = a
        .get(2)
        .map_or("4,5,8,9,12,13", |s| s.as_str())
        .split(',')
        .map(|s| s.parse().unwrap())
        .collect();
    let t = Instant::now();
    let mut b = PdbBuilder::new(w, h, &cells);
    let setup = t.elapsed().as_secs_f64();
    while !b.run(1 << 20) {}
    let db = b.finish(0.0);
    println!(
        "{}x{} {:?}: {} placements, max {}, {} bytes, setup {:.2} s, total {:.2} s",
        w,
        h,
        cells,
        db.placements,
        db.max_value,
        db.bytes(),
        setup,
        t.elapsed().as_secs_f64()
    );
}
