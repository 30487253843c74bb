//! One-off measurement: the project's own box paths, walks, formats and matching against the
//! crates.io crates `soukoban` (formats, box path finding with biconnected components) and
//! `pathfinding` (`kuhn_munkres`). Prints markdown tables; see README.md.
//!
//! Every operation is timed call by call with `std::time::Instant` after one warm-up pass over
//! all inputs, cycling through the inputs until there are at least `MIN_SAMPLES` timings.

use std::hint::black_box;
use std::str::FromStr;
use std::time::Instant;

use pathfinding::kuhn_munkres::kuhn_munkres_min;
use pathfinding::matrix::Matrix;
use sokoban_core::format::{self, Input};
use sokoban_core::{Dir, Level, Position, Square};
use sokoban_path::{fixtures, walk_distances, walk_path, BoxSearch};
use sokoban_solver::assign::Assignment;
use soukoban::direction::{DirectedPosition, Direction};
use soukoban::map::Map;
use soukoban::path_finding::{
    compute_box_waypoints, compute_player_move_directions, construct_box_path,
    construct_player_path,
};
use soukoban::solver::Strategy;
use soukoban::Vector2;

const WIDTH: usize = 80;
const HEIGHT: usize = 50;
const SEEDS: [u64; 4] = [1, 2, 3, 4];
const MIN_SAMPLES: usize = 600;

// ---------------------------------------------------------------------------------------------
// Timing

/// Time `f` (which returns its own elapsed µs, so setup can stay outside) on every item after a
/// warm-up pass, cycling until there are `MIN_SAMPLES` timings. Sorted.
fn time_each<T>(items: &[T], mut f: impl FnMut(&T) -> f64) -> Vec<f64> {
    for it in items {
        f(it);
    }
    let mut us = Vec::with_capacity(MIN_SAMPLES + items.len());
    while us.len() < MIN_SAMPLES {
        for it in items {
            us.push(f(it));
        }
    }
    us.sort_by(f64::total_cmp);
    us
}

/// Time `f` on every item (nothing to set up).
fn time_all<T>(items: &[T], mut f: impl FnMut(&T)) -> Vec<f64> {
    time_each(items, |it| {
        let t = Instant::now();
        f(it);
        t.elapsed().as_secs_f64() * 1e6
    })
}

fn pct(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn med(sorted: &[f64]) -> f64 {
    pct(sorted, 0.5)
}

fn header(cols: &[&str]) {
    println!("| {} |", cols.join(" | "));
    println!(
        "|{}|",
        cols.iter().map(|c| format!("{:-<1$}", "", c.len() + 2)).collect::<Vec<_>>().join("|")
    );
}

fn row(name: &str, sorted: &[f64], digits: usize) {
    println!(
        "| {name} | {} | {:.digits$} | {:.digits$} |",
        sorted.len(),
        med(sorted),
        pct(sorted, 0.9)
    );
}

// ---------------------------------------------------------------------------------------------
// Square <-> soukoban position

/// Converts our square indices to soukoban positions (soukoban strips common indentation, so
/// the offset is found from the player).
struct Coords {
    width: usize,
    dx: i32,
    dy: i32,
}

impl Coords {
    fn new(level: &Level, map: &Map) -> Coords {
        let (r, c) = level.board.row_col(level.start.player);
        let p = map.player_position();
        Coords { width: level.board.width(), dx: c as i32 - p.x, dy: r as i32 - p.y }
    }
    fn to_vec(&self, sq: Square) -> Vector2<i32> {
        Vector2::new((sq % self.width) as i32 - self.dx, (sq / self.width) as i32 - self.dy)
    }
}

fn dir_of(v: Vector2<i32>) -> Dir {
    match Direction::try_from(v).expect("unit step") {
        Direction::Up => Dir::Up,
        Direction::Right => Dir::Right,
        Direction::Down => Dir::Down,
        Direction::Left => Dir::Left,
    }
}

/// soukoban's equivalent of `BoxSearch::new` + `path_to`: push-optimal waypoints, the cheapest
/// arrival side at the target, the box path, and the player path along it (positions, start
/// included). Returns (pushes, player positions).
fn soukoban_box_path(
    map: &Map,
    box_pos: Vector2<i32>,
    target: Vector2<i32>,
) -> Option<(usize, Vec<Vector2<i32>>)> {
    let (waypoints, costs) = compute_box_waypoints(map, box_pos, Strategy::PushOptimal);
    let (_, end) = Direction::iter()
        .map(|d| DirectedPosition::new(target, d))
        .filter_map(|dp| costs.get(&dp).map(|&c| (c, dp)))
        .min_by_key(|&(c, _)| c)?;
    let box_path = construct_box_path(end, &waypoints);
    let player_path = construct_player_path(map, map.player_position(), &box_path);
    Some((box_path.len() - 1, player_path))
}

// ---------------------------------------------------------------------------------------------
// 1 + 2: box paths and walks

fn box_paths_and_walks(levels: &[Level], maps: &[Map], coords: &[Coords]) {
    struct Query {
        level: usize,
        box_sq: Square,
        target: Square,
        box_pos: Vector2<i32>,
        target_pos: Vector2<i32>,
    }
    let mut queries = Vec::new();
    let (mut push_sum, mut our_moves, mut their_moves) = (0usize, 0usize, 0usize);
    let (mut push_mismatch, mut more_moves, mut fewer_moves, mut replay_fail) = (0, 0, 0, 0);
    let (mut reach_ours, mut reach_theirs) = (0usize, 0usize);
    let mut max_extra = 0usize;
    for (li, lv) in levels.iter().enumerate() {
        let cv = &coords[li];
        for b in lv.start.box_squares() {
            let s = BoxSearch::new(&lv.board, &lv.start, b);
            let reach = s.reachable();
            let target =
                *reach.iter().max_by_key(|&&t| (s.pushes_to(t), std::cmp::Reverse(t))).unwrap();
            if target == b {
                continue;
            }
            let ours = s.path_to(target).unwrap();
            let pushes = ours.iter().filter(|m| m.push).count();
            let (bp, tp) = (cv.to_vec(b), cv.to_vec(target));
            let (their_pushes, ppath) =
                soukoban_box_path(&maps[li], bp, tp).expect("soukoban finds a path");
            // Squares the box can reach, according to soukoban (keys of the waypoint map).
            let (wp, _) = compute_box_waypoints(&maps[li], bp, Strategy::PushOptimal);
            let mut squares: Vec<_> = wp.keys().map(|d| (d.position.y, d.position.x)).collect();
            squares.sort_unstable();
            squares.dedup();
            reach_ours += reach.len();
            reach_theirs += squares.len();
            // Replay soukoban's player path with our rules: must be legal and end on target.
            let mut pos = lv.start.clone();
            let mut their_push_count = 0;
            let mut ok = true;
            for w in ppath.windows(2) {
                match pos.apply(&lv.board, dir_of(w[1] - w[0])) {
                    Some(m) => their_push_count += m.push as usize,
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok || !pos.has_box(target) || their_push_count != their_pushes {
                replay_fail += 1;
            }
            let tm = ppath.len() - 1;
            if their_pushes != pushes {
                push_mismatch += 1;
            }
            if tm > ours.len() {
                more_moves += 1;
                max_extra = max_extra.max(tm - ours.len());
            } else if tm < ours.len() {
                fewer_moves += 1;
            }
            push_sum += pushes;
            our_moves += ours.len();
            their_moves += tm;
            queries.push(Query { level: li, box_sq: b, target, box_pos: bp, target_pos: tp });
        }
    }
    let nq = queries.len();

    let ours_search = time_all(&queries, |q| {
        let lv = &levels[q.level];
        black_box(BoxSearch::new(black_box(&lv.board), black_box(&lv.start), q.box_sq));
    });
    let theirs_search = time_all(&queries, |q| {
        black_box(compute_box_waypoints(
            black_box(&maps[q.level]),
            q.box_pos,
            Strategy::PushOptimal,
        ));
    });
    let ours_path = time_all(&queries, |q| {
        let lv = &levels[q.level];
        let s = BoxSearch::new(black_box(&lv.board), black_box(&lv.start), q.box_sq);
        black_box(s.path_to(black_box(q.target)));
    });
    let theirs_path = time_all(&queries, |q| {
        black_box(soukoban_box_path(black_box(&maps[q.level]), q.box_pos, black_box(q.target_pos)));
    });

    println!("## 1. Box path (drag and drop)\n");
    println!(
        "warehouse({WIDTH}, {HEIGHT}, seeds {SEEDS:?}): {nq} queries (every box that can move, \
         target = reachable square needing the most pushes; {:.1} pushes on average).\n",
        push_sum as f64 / nq as f64
    );
    header(&["operation", "samples", "median µs", "p90 µs"]);
    row("ours: `BoxSearch::new`", &ours_search, 1);
    row("soukoban: `compute_box_waypoints(PushOptimal)`", &theirs_search, 1);
    row("ours: `BoxSearch::new` + `path_to(target)`", &ours_path, 1);
    row("soukoban: waypoints + `construct_box_path` + `construct_player_path`", &theirs_path, 1);
    println!();
    println!(
        "Ratio soukoban / ours: search only {:.1}x (median), {:.1}x (p90); full query {:.1}x \
         (median), {:.1}x (p90).\n",
        med(&theirs_search) / med(&ours_search),
        pct(&theirs_search, 0.9) / pct(&ours_search, 0.9),
        med(&theirs_path) / med(&ours_path),
        pct(&theirs_path, 0.9) / pct(&ours_path, 0.9),
    );
    println!(
        "Checks: push counts differ in {push_mismatch} of {nq} queries; reachable squares \
         {reach_ours} (ours) vs {reach_theirs} (soukoban) summed over queries; soukoban's player \
         path replayed with our rules fails or misses the target in {replay_fail} queries. \
         Moves: ours {our_moves}, soukoban {their_moves} in total ({:+.1}%); soukoban longer in \
         {more_moves} queries (by up to {max_extra} moves), shorter in {fewer_moves}.\n",
        (their_moves as f64 / our_moves as f64 - 1.0) * 100.0
    );

    // ---- 2: walks, as in crates/sokoban-path/benches/box_path.rs.
    struct Walk {
        level: usize,
        pos: Position,
        map: Map,
        target: Square,
        target_pos: Vector2<i32>,
    }
    let mut walks = Vec::new();
    let (mut len_ours, mut len_theirs, mut len_mismatch) = (0usize, 0usize, 0usize);
    for (li, lv) in levels.iter().enumerate() {
        let cv = &coords[li];
        let d0 = walk_distances(&lv.board, &lv.start);
        let starts: Vec<Square> =
            (0..lv.board.len()).filter(|&s| d0[s] != u32::MAX).step_by(61).collect();
        for p in starts {
            let pos = Position { player: p, boxes: lv.start.boxes.clone() };
            let d = walk_distances(&lv.board, &pos);
            let far = (0..d.len()).filter(|&s| d[s] != u32::MAX).max_by_key(|&s| d[s]).unwrap();
            let mut map = maps[li].clone();
            map.set_player_position(cv.to_vec(p));
            let a = walk_path(&lv.board, &pos, far).unwrap().len();
            let b = compute_player_move_directions(&map, cv.to_vec(far)).unwrap().len();
            len_ours += a;
            len_theirs += b;
            len_mismatch += (a != b) as usize;
            walks.push(Walk { level: li, pos, map, target: far, target_pos: cv.to_vec(far) });
        }
    }
    let ours_walk = time_all(&walks, |w| {
        black_box(walk_path(black_box(&levels[w.level].board), black_box(&w.pos), w.target));
    });
    let theirs_walk = time_all(&walks, |w| {
        black_box(compute_player_move_directions(black_box(&w.map), black_box(w.target_pos)));
    });
    println!("## 2. Player walk\n");
    println!(
        "{} walks (every 61st reachable square of each level to the square farthest from it, \
         {:.1} steps on average).\n",
        walks.len(),
        len_ours as f64 / walks.len() as f64
    );
    header(&["operation", "samples", "median µs", "p90 µs"]);
    row("ours: `walk_path` (BFS)", &ours_walk, 1);
    row("soukoban: `compute_player_move_directions` (A*)", &theirs_walk, 1);
    println!();
    println!(
        "Ratio soukoban / ours: {:.1}x (median), {:.1}x (p90). Lengths: {len_ours} vs \
         {len_theirs} steps in total, {len_mismatch} walks differ.\n",
        med(&theirs_walk) / med(&ours_walk),
        pct(&theirs_walk, 0.9) / pct(&ours_walk, 0.9),
    );
}

// ---------------------------------------------------------------------------------------------
// 3: parsing

fn ours_collection(text: &str) -> Vec<Level> {
    match format::parse_input(text).unwrap() {
        Input::Levels(c) => c.entries.iter().map(|e| e.level().unwrap()).collect(),
        Input::Solution(_) => panic!("not a level"),
    }
}

fn parsing(levels: &[Level]) {
    let text = format::to_collection(levels);
    let n = levels.len() as f64;
    assert_eq!(ours_collection(&text).len(), levels.len());
    let theirs: Vec<soukoban::level::Level> =
        soukoban::level::Level::load_from_str(&text).collect::<Result<_, _>>().unwrap();
    assert_eq!(theirs.len(), levels.len());

    let texts = [text];
    let ours_coll: Vec<f64> = time_all(&texts, |t| {
        black_box(ours_collection(black_box(t)));
    })
    .into_iter()
    .map(|x| x / n)
    .collect();
    let theirs_coll: Vec<f64> = time_all(&texts, |t| {
        let v: Vec<_> = soukoban::level::Level::load_from_str(black_box(t))
            .collect::<Result<Vec<_>, _>>()
            .unwrap();
        black_box(v);
    })
    .into_iter()
    .map(|x| x / n)
    .collect();
    let xsbs: Vec<String> = levels.iter().map(format::to_xsb).collect();
    let ours_one = time_all(&xsbs, |t| {
        black_box(format::parse_level(black_box(t)).unwrap());
    });
    let theirs_one = time_all(&xsbs, |t| {
        black_box(soukoban::level::Level::from_str(black_box(t)).unwrap());
    });
    let theirs_map = time_all(&xsbs, |t| {
        black_box(Map::from_str(black_box(t)).unwrap());
    });

    println!("## 3. Parsing\n");
    println!(
        "The 4 warehouses ({WIDTH}x{HEIGHT}, {} bytes as a collection with titles). Times are per \
         level.\n",
        texts[0].len()
    );
    header(&["operation", "samples", "median µs", "p90 µs"]);
    row("ours: `parse_input` + `Entry::level` (collection)", &ours_coll, 1);
    row("soukoban: `Level::load_from_str` (collection)", &theirs_coll, 1);
    row("ours: `parse_level` (one XSB board)", &ours_one, 1);
    row("soukoban: `Level::from_str` (one XSB board)", &theirs_one, 1);
    row("soukoban: `Map::from_str` (one XSB board)", &theirs_map, 1);
    println!();
    println!(
        "Ratio soukoban / ours (median): collection {:.1}x, one board {:.1}x.\n",
        med(&theirs_coll) / med(&ours_coll),
        med(&theirs_one) / med(&ours_one)
    );

    // Formats soukoban reads or not, on a small level written by our writers.
    let small = format::parse_level(
        "Title: Small\n\
         \x20 #####\n\
         ###   #\n\
         #.@$  #\n\
         ### $.#\n\
         #.##$ #\n\
         # # . ##\n\
         #$ *$$.#\n\
         #   .  #\n\
         ########\n",
    )
    .unwrap();
    let reference = Map::from_str(&format::to_xsb(&small)).unwrap();
    let inputs = [
        ("XSB", format::to_xsb(&small)),
        ("RLE, rows joined by `|`", format::to_rle(&small)),
        ("MF8", format::to_mf8(&small)),
        ("SokoPlayer link", format::to_sokoplayer_url(&small, "https://example.org/sokoplayer/")),
        ("`[soko=W,H]` wrapper", format::to_soko_wrapper(&small)),
        (
            "SokobanScript `?level=`",
            format::to_sokobanscript_level_url(&small, "https://example.org/sokoban/"),
        ),
        (
            "SokobanScript `?base64=`",
            format::to_sokobanscript_base64_url(&small, "https://example.org/sokoban/"),
        ),
        ("XSB with a bad character (`Q` at line 4, column 5)", {
            let mut lines: Vec<String> =
                format::to_xsb(&small).lines().map(str::to_string).collect();
            lines[3].replace_range(4..5, "Q");
            lines.join("\n")
        }),
        ("XSB without a player", format::to_xsb(&small).replace('@', " ")),
        ("XSB, one box more than goals", format::to_xsb(&small).replacen("  #\n", " $#\n", 1)),
    ];
    println!("Formats (the 9x9 level above written by our writers; input shown shortened):\n");
    header(&["format", "input", "ours (`parse_input` + validate)", "soukoban `Level::from_str`"]);
    for (name, text) in &inputs {
        let ours = match format::parse_input(text) {
            Ok(Input::Levels(c)) => match c.entries[0].level() {
                Ok(l) if l == small || (l.board == small.board && l.start == small.start) => {
                    format!("ok ({})", c.format)
                }
                Ok(_) => format!("ok ({}), different level", c.format),
                Err(e) => format!("error: {e}"),
            },
            Ok(Input::Solution(_)) => "read as a solution".to_string(),
            Err(e) => format!("error: {e}"),
        };
        let theirs = match soukoban::level::Level::from_str(text) {
            Ok(l) if *l.map() == reference => "ok, same map".to_string(),
            Ok(_) => "ok, but a different map".to_string(),
            Err(e) => format!("error: {e}"),
        };
        let shown: String = text.replace('\n', "⏎").chars().take(40).collect();
        let shown = if text.chars().count() > 40 { format!("{shown}…") } else { shown };
        // `|` must be escaped inside markdown table cells, even in code spans.
        let cell = |s: &str| s.replace('|', "\\|");
        println!("| {} | `{}` | {} | {} |", cell(name), cell(&shown), cell(&ours), cell(&theirs));
    }
    println!();
}

// ---------------------------------------------------------------------------------------------
// 4: matching

/// SplitMix64.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

struct Case {
    n: usize,
    cost: Vec<i64>,
    matrix: Matrix<i64>,
    /// The same costs with row `row` replaced (one box pushed).
    row: usize,
    cost2: Vec<i64>,
    solved: Assignment,
}

fn matching() {
    const CASES: usize = 200;
    println!("## 4. Matching (the solver's lower bound)\n");
    println!(
        "{CASES} random n x n cost matrices per n (values 0..60, SplitMix64); the update case \
         replaces one random row with new random values. Times are per call.\n"
    );
    header(&[
        "n",
        "pathfinding `kuhn_munkres_min` median / p90 µs",
        "same + building the `Matrix` median / p90 µs",
        "ours `Assignment::solve` median / p90 µs",
        "ours `update_row` median / p90 µs",
        "km / solve",
        "km / update_row",
        "totals agree",
    ]);
    let mut rng = Rng(0x5E_ED0F_50C0);
    for n in [4usize, 8, 12, 16, 24] {
        let cases: Vec<Case> = (0..CASES)
            .map(|_| {
                let cost: Vec<i64> = (0..n * n).map(|_| rng.below(61) as i64).collect();
                let row = rng.below(n as u64) as usize;
                let mut cost2 = cost.clone();
                for j in 0..n {
                    cost2[row * n + j] = rng.below(61) as i64;
                }
                let mut solved = Assignment::new(n);
                solved.solve(&|i, j| cost[i * n + j]);
                let matrix = Matrix::from_vec(n, n, cost.clone()).unwrap();
                Case { n, cost, matrix, row, cost2, solved }
            })
            .collect();

        // Check: the three agree, before and after the row change.
        let mut agree = 0;
        for c in &cases {
            let c1 = |i: usize, j: usize| c.cost[i * n + j];
            let c2 = |i: usize, j: usize| c.cost2[i * n + j];
            let (km1, _) = kuhn_munkres_min(&c.matrix);
            let (km2, _) = kuhn_munkres_min(&Matrix::from_vec(n, n, c.cost2.clone()).unwrap());
            let mut fresh = Assignment::new(n);
            fresh.solve(&c2);
            let mut upd = c.solved.clone();
            upd.update_row(c.row, &c2);
            agree += (km1 == c.solved.total(&c1)
                && km2 == fresh.total(&c2)
                && km2 == upd.total(&c2)) as usize;
        }

        let km = time_all(&cases, |c| {
            black_box(kuhn_munkres_min(black_box(&c.matrix)));
        });
        let km_build = time_all(&cases, |c| {
            let cost = |i: usize, j: usize| c.cost[i * c.n + j];
            let m = Matrix::from_fn(c.n, c.n, |(i, j)| black_box(&cost)(i, j));
            black_box(kuhn_munkres_min(&m));
        });
        let mut a = Assignment::new(n);
        let solve = time_all(&cases, |c| {
            let cost = |i: usize, j: usize| c.cost[i * c.n + j];
            a.solve(black_box(&cost));
            black_box(&a);
        });
        let update = time_each(&cases, |c| {
            let mut s = c.solved.clone();
            let cost = |i: usize, j: usize| c.cost2[i * c.n + j];
            let t = Instant::now();
            s.update_row(black_box(c.row), black_box(&cost));
            let e = t.elapsed().as_secs_f64() * 1e6;
            black_box(&s);
            e
        });
        println!(
            "| {n} | {:.2} / {:.2} | {:.2} / {:.2} | {:.2} / {:.2} | {:.2} / {:.2} | {:.1}x | {:.1}x | {agree}/{CASES} |",
            med(&km),
            pct(&km, 0.9),
            med(&km_build),
            pct(&km_build, 0.9),
            med(&solve),
            pct(&solve, 0.9),
            med(&update),
            pct(&update, 0.9),
            med(&km) / med(&solve),
            med(&km) / med(&update),
        );
    }
    println!();
}

fn main() {
    // The clock's own cost, to read the sub-microsecond figures against.
    let empty = time_all(&[(); 100], |_| {
        black_box(());
    });
    println!(
        "Timer: `Instant::now()` + `elapsed()` around nothing: median {:.3} µs, p90 {:.3} µs.\n",
        med(&empty),
        pct(&empty, 0.9)
    );

    let levels: Vec<Level> = SEEDS.iter().map(|&s| fixtures::warehouse(WIDTH, HEIGHT, s)).collect();
    let maps: Vec<Map> = levels
        .iter()
        .map(|l| Map::from_str(&format::to_xsb(l)).expect("soukoban reads XSB"))
        .collect();
    let coords: Vec<Coords> = levels.iter().zip(&maps).map(|(l, m)| Coords::new(l, m)).collect();
    for (l, m) in levels.iter().zip(&maps) {
        assert_eq!(l.box_count(), m.box_positions().len());
    }

    box_paths_and_walks(&levels, &maps, &coords);
    parsing(&levels);
    matching();
}
