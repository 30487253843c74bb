//! Print a generated warehouse level as XSB (for trying large levels in the page or the CLI).
//!
//! `cargo run --release -p sokoban-path --example warehouse -- 80 50 1`
fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (w, h, seed) = (
        args.first().copied().unwrap_or(80),
        args.get(1).copied().unwrap_or(50),
        args.get(2).copied().unwrap_or(1),
    );
    let level = sokoban_path::fixtures::warehouse(w, h, seed as u64);
    println!("{}", sokoban_core::format::to_xsb(&level));
}
