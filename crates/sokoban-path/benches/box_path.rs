//! Timing of one box-path query and one walk on 80x50 warehouse levels.
//!
//! Run with `cargo bench -p sokoban-path`. Every query is timed on its own with
//! `std::time::Instant` after a warm-up pass; the table gives the median and the 90th
//! percentile in microseconds.

use std::hint::black_box;
use std::time::Instant;

use sokoban_core::{Level, Position, Square};
use sokoban_path::{fixtures, walk_distances, walk_path, BoxSearch};

const WIDTH: usize = 80;
const HEIGHT: usize = 50;
const SEEDS: [u64; 4] = [1, 2, 3, 4];
const MIN_SAMPLES: usize = 400;

/// One box query: a level, a box, and the reachable square needing the most pushes.
struct Query {
    level: usize,
    box_sq: Square,
    target: Square,
}

/// Time `f` on every item, cycling through the items until there are `MIN_SAMPLES` timings.
fn time_all<T>(items: &[T], mut f: impl FnMut(&T)) -> Vec<f64> {
    for it in items {
        f(it); // warm-up
    }
    let mut us = Vec::with_capacity(MIN_SAMPLES + items.len());
    while us.len() < MIN_SAMPLES {
        for it in items {
            let t = Instant::now();
            f(it);
            us.push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    us.sort_by(f64::total_cmp);
    us
}

fn pct(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn row(name: &str, sorted: &[f64]) {
    println!(
        "| {name:<34} | {:>7} | {:>10.1} | {:>8.1} | {:>8.1} |",
        sorted.len(),
        pct(sorted, 0.5),
        pct(sorted, 0.9),
        sorted[sorted.len() - 1]
    );
}

fn main() {
    let levels: Vec<Level> = SEEDS.iter().map(|&s| fixtures::warehouse(WIDTH, HEIGHT, s)).collect();

    let mut queries = Vec::new();
    let (mut reach_sum, mut push_sum, mut move_sum) = (0, 0, 0);
    for (li, lv) in levels.iter().enumerate() {
        for b in lv.start.box_squares() {
            let s = BoxSearch::new(&lv.board, &lv.start, b);
            let reach = s.reachable();
            let target =
                *reach.iter().max_by_key(|&&t| (s.pushes_to(t), std::cmp::Reverse(t))).unwrap();
            if target == b {
                continue;
            }
            let path = s.path_to(target).unwrap();
            reach_sum += reach.len();
            push_sum += path.iter().filter(|m| m.push).count();
            move_sum += path.len();
            queries.push(Query { level: li, box_sq: b, target });
        }
    }
    let nq = queries.len();

    // Walks: from several start squares of each level to the square farthest from it.
    let mut walks: Vec<(usize, Position, Square)> = Vec::new();
    let mut walk_sum = 0;
    for (li, lv) in levels.iter().enumerate() {
        let d0 = walk_distances(&lv.board, &lv.start);
        let starts: Vec<Square> =
            (0..lv.board.len()).filter(|&s| d0[s] != u32::MAX).step_by(61).collect();
        for p in starts {
            let pos = Position { player: p, boxes: lv.start.boxes.clone() };
            let d = walk_distances(&lv.board, &pos);
            let far = (0..d.len()).filter(|&s| d[s] != u32::MAX).max_by_key(|&s| d[s]).unwrap();
            walk_sum += d[far] as usize;
            walks.push((li, pos, far));
        }
    }

    let new_only = time_all(&queries, |q| {
        let lv = &levels[q.level];
        black_box(BoxSearch::new(black_box(&lv.board), black_box(&lv.start), q.box_sq));
    });
    let new_path = time_all(&queries, |q| {
        let lv = &levels[q.level];
        let s = BoxSearch::new(black_box(&lv.board), black_box(&lv.start), q.box_sq);
        black_box(s.path_to(black_box(q.target)));
    });
    let search_once: Vec<(usize, BoxSearch, Square)> = queries
        .iter()
        .map(|q| {
            let lv = &levels[q.level];
            (q.level, BoxSearch::new(&lv.board, &lv.start, q.box_sq), q.target)
        })
        .collect();
    let path_again = time_all(&search_once, |(_, s, t)| {
        black_box(s.path_to(black_box(*t)));
    });
    let reachable = time_all(&search_once, |(_, s, _)| {
        black_box(s.reachable());
    });
    let walk = time_all(&walks, |(li, pos, t)| {
        black_box(walk_path(black_box(&levels[*li].board), black_box(pos), *t));
    });

    println!(
        "warehouse({WIDTH}, {HEIGHT}, seed {SEEDS:?}): {nq} box queries (boxes that can move), \
         on average {} reachable squares, farthest target {:.1} pushes / {:.1} moves; \
         {} walks of {:.1} steps on average",
        reach_sum / nq,
        push_sum as f64 / nq as f64,
        move_sum as f64 / nq as f64,
        walks.len(),
        walk_sum as f64 / walks.len() as f64,
    );
    println!();
    println!(
        "| {:<34} | {:>7} | {:>10} | {:>8} | {:>8} |",
        "operation", "samples", "median µs", "p90 µs", "max µs"
    );
    println!("|{:-<36}|{:-<9}|{:-<12}|{:-<10}|{:-<10}|", "", "", "", "", "");
    row("BoxSearch::new", &new_only);
    row("new + path_to(farthest)", &new_path);
    row("path_to again (cached search)", &path_again);
    row("reachable() (highlight list)", &reachable);
    row("walk_path across the level", &walk);
}
