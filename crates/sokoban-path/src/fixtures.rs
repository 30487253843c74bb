//! Deterministic, project-written levels for tests and benchmarks.
//!
//! [`warehouse`] lays out a grid of rooms separated by walls with doorways (some double width,
//! some rooms with two doors to the same neighbour so the floor has cycles), fills some rooms
//! with pillars and turns others into 1-wide corridors, then places boxes on open floor and as
//! many goals. The same `(width, height, seed)` always gives the same level.

use sokoban_core::{Grid, Level, Tile, MAX_COLS, MAX_ROWS};

/// xorshift64* seeded through splitmix64; small, fast and good enough for level layout.
#[derive(Clone, Debug)]
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Rng(if z == 0 { 1 } else { z })
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + ((self.next() >> 32) % (hi - lo + 1) as u64) as usize
    }

    /// True with probability `num / den`.
    fn chance(&mut self, num: u64, den: u64) -> bool {
        (self.next() >> 32) % den < num
    }

    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.range(0, i);
            v.swap(i, j);
        }
    }
}

/// Positions of the dividing walls along one axis of `len` squares: starts with 0, ends with
/// `len - 1`, consecutive walls `min_gap..` apart.
fn cuts(len: usize, min_gap: usize, max_gap: usize, rng: &mut Rng) -> Vec<usize> {
    let mut v = vec![0];
    let mut x = 0;
    loop {
        let gap = rng.range(min_gap, max_gap);
        if x + gap + min_gap > len - 1 {
            v.push(len - 1);
            return v;
        }
        x += gap;
        v.push(x);
    }
}

/// A door of a room: the door square (row, column) and which wall of the room it is in.
#[derive(Clone, Copy, Debug)]
struct Door {
    row: usize,
    col: usize,
    /// 0 top, 1 right, 2 bottom, 3 left (as [`sokoban_core::Dir`] indices).
    wall: usize,
}

/// A warehouse level of `width` x `height` squares (each 7..=255), deterministic in `seed`.
///
/// Rooms of roughly 5-11 by 4-8 squares are joined by doorways; about a quarter of the rooms
/// are 1-wide corridors meeting in the room's middle, the others hold scattered pillars. There
/// are about `width * height / 120` boxes, each on a square with floor on all four sides, and as
/// many goals. The level is valid for [`Grid::validate`].
///
/// # Panics
/// If a dimension is outside 7..=255.
pub fn warehouse(width: usize, height: usize, seed: u64) -> Level {
    assert!((7..=MAX_COLS).contains(&width), "width {width} outside 7..={MAX_COLS}");
    assert!((7..=MAX_ROWS).contains(&height), "height {height} outside 7..={MAX_ROWS}");
    let mut rng = Rng::new(seed ^ ((width as u64) << 40) ^ ((height as u64) << 48));
    let idx = |r: usize, c: usize| r * width + c;
    let mut wall = vec![false; width * height];

    let xs = cuts(width, 6, 12, &mut rng);
    let ys = cuts(height, 5, 9, &mut rng);
    for &x in &xs {
        for r in 0..height {
            wall[idx(r, x)] = true;
        }
    }
    for &y in &ys {
        for c in 0..width {
            wall[idx(y, c)] = true;
        }
    }
    let (rooms_x, rooms_y) = (xs.len() - 1, ys.len() - 1);
    let room = |i: usize, j: usize| j * rooms_x + i;
    let mut doors: Vec<Vec<Door>> = vec![Vec::new(); rooms_x * rooms_y];

    // Doorways between neighbouring rooms: one, sometimes double width, sometimes a second one.
    for j in 0..rooms_y {
        for i in 0..rooms_x {
            let (x0, x1, y0, y1) = (xs[i], xs[i + 1], ys[j], ys[j + 1]);
            if i + 1 < rooms_x {
                let count = if rng.chance(1, 4) { 2 } else { 1 };
                for _ in 0..count {
                    let r = rng.range(y0 + 1, y1 - 1);
                    let mut rows = vec![r];
                    if r + 1 < y1 && rng.chance(1, 3) {
                        rows.push(r + 1);
                    }
                    for r in rows {
                        wall[idx(r, x1)] = false;
                        doors[room(i, j)].push(Door { row: r, col: x1, wall: 1 });
                        doors[room(i + 1, j)].push(Door { row: r, col: x1, wall: 3 });
                    }
                }
            }
            if j + 1 < rooms_y {
                let count = if rng.chance(1, 4) { 2 } else { 1 };
                for _ in 0..count {
                    let c = rng.range(x0 + 1, x1 - 1);
                    let mut cols = vec![c];
                    if c + 1 < x1 && rng.chance(1, 3) {
                        cols.push(c + 1);
                    }
                    for c in cols {
                        wall[idx(y1, c)] = false;
                        doors[room(i, j)].push(Door { row: y1, col: c, wall: 2 });
                        doors[room(i, j + 1)].push(Door { row: y1, col: c, wall: 0 });
                    }
                }
            }
        }
    }

    // The player starts in the first room, which is never a corridor room.
    let player = idx(rng.range(ys[0] + 1, ys[1] - 1), rng.range(xs[0] + 1, xs[1] - 1));

    for j in 0..rooms_y {
        for i in 0..rooms_x {
            let (x0, x1, y0, y1) = (xs[i], xs[i + 1], ys[j], ys[j + 1]);
            if (i, j) != (0, 0) && rng.chance(1, 4) {
                // Corridor room: solid, with an L-shaped 1-wide corridor from every door to
                // the middle.
                let (cy, cx) = ((y0 + y1) / 2, (x0 + x1) / 2);
                for r in y0 + 1..y1 {
                    for c in x0 + 1..x1 {
                        wall[idx(r, c)] = true;
                    }
                }
                for d in &doors[room(i, j)] {
                    // First leg: straight in from the door to the middle row or column.
                    let (r, c) = match d.wall {
                        0 | 2 => {
                            let (a, b) = (d.row.min(cy), d.row.max(cy));
                            for r in a..=b {
                                if r > y0 && r < y1 {
                                    wall[idx(r, d.col)] = false;
                                }
                            }
                            (cy, d.col)
                        }
                        _ => {
                            let (a, b) = (d.col.min(cx), d.col.max(cx));
                            for c in a..=b {
                                if c > x0 && c < x1 {
                                    wall[idx(d.row, c)] = false;
                                }
                            }
                            (d.row, cx)
                        }
                    };
                    // Second leg: along the middle row or column to the middle square.
                    for rr in r.min(cy)..=r.max(cy) {
                        wall[idx(rr, c)] = false;
                    }
                    for cc in c.min(cx)..=c.max(cx) {
                        wall[idx(r, cc)] = false;
                    }
                    wall[idx(cy, cx)] = false;
                }
            } else {
                // Ordinary room: pillars away from the walls, so doors stay open.
                if y1 - y0 < 5 || x1 - x0 < 5 {
                    continue;
                }
                let area = (y1 - y0 - 1) * (x1 - x0 - 1);
                for _ in 0..area / 10 {
                    let r = rng.range(y0 + 2, y1 - 2);
                    let c = rng.range(x0 + 2, x1 - 2);
                    let mut squares = vec![(r, c)];
                    match rng.range(0, 4) {
                        0 if c < x1 - 2 => squares.push((r, c + 1)),
                        1 if r < y1 - 2 => squares.push((r + 1, c)),
                        _ => {}
                    }
                    for (r, c) in squares {
                        if idx(r, c) != player {
                            wall[idx(r, c)] = true;
                        }
                    }
                }
            }
        }
    }
    wall[player] = false;

    // Floor the player can reach (boxes do not matter for validity).
    let mut reach = vec![false; width * height];
    let mut stack = vec![player];
    reach[player] = true;
    while let Some(s) = stack.pop() {
        for n in [s - width, s + 1, s + width, s - 1] {
            if !wall[n] && !reach[n] {
                reach[n] = true;
                stack.push(n);
            }
        }
    }
    let open =
        |s: usize| reach[s] && [s - width, s + 1, s + width, s - 1].iter().all(|&n| !wall[n]);
    let mut box_spots: Vec<usize> =
        (0..width * height).filter(|&s| s != player && open(s)).collect();
    if box_spots.is_empty() {
        box_spots = (0..width * height).filter(|&s| s != player && reach[s]).collect();
    }
    let mut goal_spots: Vec<usize> =
        (0..width * height).filter(|&s| s != player && reach[s]).collect();
    rng.shuffle(&mut box_spots);
    rng.shuffle(&mut goal_spots);
    let count = (width * height / 120).clamp(1, box_spots.len());
    let mut boxes = vec![false; width * height];
    let mut goals = vec![false; width * height];
    for &s in &box_spots[..count] {
        boxes[s] = true;
    }
    for &s in &goal_spots[..count] {
        goals[s] = true;
    }

    let rows: Vec<Vec<Tile>> = (0..height)
        .map(|r| {
            (0..width)
                .map(|c| {
                    let s = idx(r, c);
                    Tile::compose(wall[s], goals[s], boxes[s], s == player)
                })
                .collect()
        })
        .collect();
    let grid = Grid {
        rows,
        title: Some(format!("Warehouse {width}x{height} #{seed}")),
        lines: vec![None; height],
    };
    grid.validate().expect("warehouse levels are valid")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warehouses_are_valid_and_deterministic() {
        for (w, h) in [(7, 7), (8, 12), (20, 14), (80, 50), (255, 255), (255, 9)] {
            for seed in 0..4 {
                let a = warehouse(w, h, seed);
                let b = warehouse(w, h, seed);
                assert_eq!(a, b);
                assert_eq!(a.board.width(), w);
                assert_eq!(a.board.height(), h);
                assert!(a.box_count() >= 1);
                assert_eq!(a.box_count(), a.board.goal_count());
            }
        }
        assert_ne!(warehouse(80, 50, 1), warehouse(80, 50, 2));
    }
}
