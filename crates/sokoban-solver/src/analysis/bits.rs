//! The player's area as bits: the floor laid out one machine word per row, so that a flood
//! fills whole runs of a row at once and spreads to the rows above and below with a few word
//! operations, where [`crate::analysis::problem::AreaFlood`] visits square by square. The searches'
//! hot floods (the fast search's positions, the stuck search, the corral deadlock search)
//! use it on boards up to 64 columns wide; its answers are the same as `AreaFlood`'s.

use std::sync::Arc;

use sokoban_core::{Board, Square};

use crate::analysis::problem::{AreaFlood, Problem, NONE};
use crate::work::{self, Op};

/// Where each floor square lies on the bit grid, and the floor.
#[derive(Clone, Debug)]
pub struct BitGrid {
    /// Row and column of each compact square (from the floor's bounding box).
    pos: Vec<(u8, u8)>,
    /// Floor bits of each row.
    floor: Vec<u64>,
    /// Compact index of the first floor square of each row (compact squares are numbered
    /// row by row, so the rest follow by counting bits).
    first: Vec<u16>,
    /// Doubling steps that fill a row's longest run (4 for 16 columns, up to 6).
    steps: u32,
}

impl BitGrid {
    /// The grid of a board's floor (`board_sq`: the board square of each compact square, in
    /// board order); `None` when the floor spans more than 64 columns or 255 rows.
    pub fn new(board: &Board, board_sq: &[Square]) -> Option<BitGrid> {
        let rc: Vec<(usize, usize)> = board_sq.iter().map(|&s| board.row_col(s)).collect();
        let r0 = rc.iter().map(|x| x.0).min()?;
        let r1 = rc.iter().map(|x| x.0).max()?;
        let c0 = rc.iter().map(|x| x.1).min()?;
        let c1 = rc.iter().map(|x| x.1).max()?;
        if c1 - c0 >= 64 || r1 - r0 >= 255 {
            return None;
        }
        let rows = r1 - r0 + 1;
        let mut floor = vec![0u64; rows];
        let mut first = vec![NONE; rows];
        let mut pos = Vec::with_capacity(rc.len());
        for (i, &(r, c)) in rc.iter().enumerate() {
            let (r, c) = (r - r0, c - c0);
            floor[r] |= 1 << c;
            if first[r] == NONE {
                first[r] = i as u16;
            }
            pos.push((r as u8, c as u8));
        }
        let steps = (c1 - c0 + 1).next_power_of_two().trailing_zeros().max(4);
        Some(BitGrid { pos, floor, first, steps })
    }

    /// Words of a bit set over the grid (one per row).
    #[inline]
    pub fn words(&self) -> usize {
        self.floor.len()
    }

    /// Row and bit of compact square `s`.
    #[inline]
    pub fn at(&self, s: u16) -> (usize, u64) {
        let (r, c) = self.pos[s as usize];
        (r as usize, 1 << c)
    }

    /// Set or clear square `s` in the bit set `bits`.
    #[inline]
    pub fn set(&self, bits: &mut [u64], s: u16, on: bool) {
        let (r, b) = self.at(s);
        if on {
            bits[r] |= b;
        } else {
            bits[r] &= !b;
        }
    }

    /// True when `bits` holds square `s`.
    #[inline]
    pub fn has(&self, bits: &[u64], s: u16) -> bool {
        let (r, b) = self.at(s);
        bits[r] & b != 0
    }

    /// The compact square of row `r`, column bit `c`.
    #[inline]
    fn square(&self, r: usize, c: u32) -> u16 {
        let below = self.floor[r] & ((1u64 << c) - 1);
        self.first[r] + below.count_ones() as u16
    }

    /// The squares of `bits`, in increasing order.
    pub fn squares<'a>(&'a self, bits: &'a [u64]) -> impl Iterator<Item = u16> + 'a {
        bits.iter().enumerate().flat_map(move |(r, &w)| {
            let mut w = w & self.floor[r];
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let c = w.trailing_zeros();
                    w &= w - 1;
                    self.square(r, c)
                })
            })
        })
    }
}

/// Fill the runs of `p` (the free squares of a row) that hold a bit of `g` (`g` within
/// `p`), both ways along the row: towards the high bits by one addition (a carry runs from
/// each seed to the end of its run), towards the low bits by `STEPS` doubling shifts (runs
/// of up to 2^`STEPS` squares).
#[inline(always)]
fn fill_row<const STEPS: u32>(g: u64, p: u64) -> u64 {
    let up = ((p.wrapping_add(g) ^ p ^ g) & p) | g;
    let (mut dn, mut pd) = (g, p);
    let mut k = 1;
    for _ in 0..STEPS {
        dn |= pd & (dn >> k);
        pd &= pd >> k;
        k <<= 1;
    }
    up | dn
}

/// Scratch for floods on a [`BitGrid`].
#[derive(Clone, Debug, Default)]
pub struct BitArea {
    reach: Vec<u64>,
    free: Vec<u64>,
}

impl BitArea {
    pub fn new(g: &BitGrid) -> BitArea {
        BitArea { reach: vec![0; g.words()], free: vec![0; g.words()] }
    }

    /// Flood from `from` over the floor without the squares of `boxes`; returns the area's
    /// smallest square (as [`crate::analysis::problem::AreaFlood::flood`]).
    pub fn flood(&mut self, g: &BitGrid, boxes: &[u64], from: u16) -> u16 {
        self.flood_min(g, boxes, from, NONE)
    }

    /// [`BitArea::flood`] for a caller that knows no square of the area is smaller than
    /// `least`: once a sweep reaches `least` the flood ends there and returns it (the area
    /// left partly flooded).
    pub fn flood_min(&mut self, g: &BitGrid, boxes: &[u64], from: u16, least: u16) -> u16 {
        match g.steps {
            4 => self.flood_with::<4>(g, boxes, from, least),
            5 => self.flood_with::<5>(g, boxes, from, least),
            _ => self.flood_with::<6>(g, boxes, from, least),
        }
    }

    fn flood_with<const STEPS: u32>(
        &mut self,
        g: &BitGrid,
        boxes: &[u64],
        from: u16,
        least: u16,
    ) -> u16 {
        let rows = g.words();
        for r in 0..rows {
            self.free[r] = g.floor[r] & !boxes[r];
            self.reach[r] = 0;
        }
        let (r0, b0) = g.at(from);
        let (reach, free) = (&mut self.reach[..rows], &self.free[..rows]);
        reach[r0] = fill_row::<STEPS>(b0, free[r0]);
        // Sweep down from `start`, then up from the highest row changed since the last
        // upward sweep, then down again from the lowest row that sweep changed, and so on
        // until a sweep finds nothing new (rows outside those ranges have nothing new to
        // carry).
        let (mut start, mut top) = (r0, r0);
        let (lr, lb) = if least == NONE { (0, 0) } else { g.at(least) };
        // Rows swept, for the count of work.
        let mut swept = rows;
        let done = |swept: usize| work::add(Op::FloodRows, swept as u64);
        loop {
            swept += rows - start - 1 + top;
            for r in start + 1..rows {
                let seed = reach[r - 1] & free[r] & !reach[r];
                if seed != 0 {
                    reach[r] = fill_row::<STEPS>(reach[r] | seed, free[r]);
                    top = r;
                }
            }
            if reach[lr] & lb != 0 {
                done(swept);
                return least;
            }
            let mut low = usize::MAX;
            for r in (0..top).rev() {
                let seed = reach[r + 1] & free[r] & !reach[r];
                if seed != 0 {
                    reach[r] = fill_row::<STEPS>(reach[r] | seed, free[r]);
                    low = r;
                }
            }
            if low == usize::MAX {
                break;
            }
            if reach[lr] & lb != 0 {
                done(swept);
                return least;
            }
            (start, top) = (low, 0);
        }
        done(swept);
        let r = reach.iter().position(|&w| w != 0).unwrap_or(r0);
        g.square(r, reach[r].trailing_zeros())
    }

    /// True when the last flood reached `s`.
    #[inline]
    pub fn reached(&self, g: &BitGrid, s: u16) -> bool {
        g.has(&self.reach, s)
    }

    /// The last flood's area, one word per row.
    pub fn rows(&self) -> &[u64] {
        &self.reach
    }
}

/// The player's area in a search's hot loop: flooded by bits on the problem's [`BitGrid`],
/// square by square ([`AreaFlood`]) on boards too wide for one. The caller keeps the boxes
/// here ([`PlayerArea::set_box`]) as well as in its own `blocked` table.
pub struct PlayerArea {
    grid: Option<Arc<BitGrid>>,
    boxes: Vec<u64>,
    bits: BitArea,
    queue: AreaFlood,
}

impl PlayerArea {
    pub fn new(p: &Problem) -> PlayerArea {
        let grid = p.grid.clone();
        let (boxes, bits) = match &grid {
            Some(g) => (vec![0; g.words()], BitArea::new(g)),
            None => (Vec::new(), BitArea::default()),
        };
        let queue = AreaFlood::new(if grid.is_some() { 0 } else { p.n });
        PlayerArea { grid, boxes, bits, queue }
    }

    /// True when the floods go by bits (the board has a [`BitGrid`]).
    #[inline]
    pub fn by_bits(&self) -> bool {
        self.grid.is_some()
    }

    /// The boxes stand on `boxes` and nowhere else.
    pub fn set_boxes(&mut self, boxes: &[u16]) {
        if let Some(g) = &self.grid {
            self.boxes.fill(0);
            for &b in boxes {
                g.set(&mut self.boxes, b, true);
            }
        }
    }

    /// A box now stands on `s` (`on`) or no longer does.
    #[inline]
    pub fn set_box(&mut self, s: u16, on: bool) {
        if let Some(g) = &self.grid {
            g.set(&mut self.boxes, s, on);
        }
    }

    /// Flood from `from` over the squares not `blocked` (the boxes given to
    /// [`PlayerArea::set_box`] too); returns the area's smallest square.
    pub fn flood(&mut self, p: &Problem, blocked: &[bool], from: u16) -> u16 {
        self.flood_min(p, blocked, from, NONE)
    }

    /// [`PlayerArea::flood`] for a caller that knows no square of the area is smaller
    /// than `least` (`NONE`: none known): the flood may end once it reaches `least`, the
    /// area then left partly flooded ([`BitArea::flood_min`]).
    pub fn flood_min(&mut self, p: &Problem, blocked: &[bool], from: u16, least: u16) -> u16 {
        match &self.grid {
            Some(g) => {
                debug_assert!((0..p.n as u16).all(|s| g.has(&self.boxes, s) == blocked[s as usize]));
                self.bits.flood_min(g, &self.boxes, from, least)
            }
            None => self.queue.flood(p, blocked, from),
        }
    }

    /// True when the last flood reached `s`.
    #[inline]
    pub fn reached(&self, s: u16) -> bool {
        match &self.grid {
            Some(g) => self.bits.reached(g, s),
            None => self.queue.reached(s),
        }
    }

    /// Call `f` on each square of the last flood's area.
    pub fn for_each_square(&self, mut f: impl FnMut(u16)) {
        match &self.grid {
            Some(g) => g.squares(self.bits.rows()).for_each(f),
            None => self.queue.area().iter().for_each(|&s| f(s)),
        }
    }

    /// The squares the last flood did not reach that are not `blocked`, in increasing
    /// order (the squares of the corrals).
    pub fn unreached<'a>(&'a self, blocked: &'a [bool]) -> Unreached<'a> {
        Unreached { area: self, blocked, row: 0, word: 0, next: 0 }
    }

    /// The last flood's area as bits: one word per row of the grid, or one bit per square
    /// (compact index) without one.
    pub fn area_bits(&self, out: &mut [u64]) {
        match &self.grid {
            Some(_) => out.copy_from_slice(self.bits.rows()),
            None => {
                out.fill(0);
                for &s in self.queue.area() {
                    out[s as usize / 64] |= 1 << (s % 64);
                }
            }
        }
    }

    /// Words of [`PlayerArea::area_bits`].
    pub fn area_words(&self, p: &Problem) -> usize {
        match &self.grid {
            Some(g) => g.words(),
            None => p.n.div_ceil(64),
        }
    }

    /// True when `bits` (from [`PlayerArea::area_bits`]) holds `s`.
    #[inline]
    pub fn area_has(&self, bits: &[u64], s: u16) -> bool {
        match &self.grid {
            Some(g) => g.has(bits, s),
            None => bits[s as usize / 64] >> (s % 64) & 1 != 0,
        }
    }
}

/// The free squares outside the player's area ([`PlayerArea::unreached`]).
pub struct Unreached<'a> {
    area: &'a PlayerArea,
    blocked: &'a [bool],
    /// Bits: the row under way and its squares left; else the next square.
    row: usize,
    word: u64,
    next: usize,
}

impl Iterator for Unreached<'_> {
    type Item = u16;

    #[inline]
    fn next(&mut self) -> Option<u16> {
        let a = self.area;
        match &a.grid {
            Some(g) => {
                while self.word == 0 {
                    if self.row >= g.words() {
                        return None;
                    }
                    let r = self.row;
                    self.word = g.floor[r] & !a.boxes[r] & !a.bits.reach[r];
                    self.row += 1;
                }
                let c = self.word.trailing_zeros();
                self.word &= self.word - 1;
                Some(g.square(self.row - 1, c))
            }
            None => {
                while self.next < self.blocked.len() {
                    let s = self.next as u16;
                    self.next += 1;
                    if !self.blocked[s as usize] && !a.queue.reached(s) {
                        return Some(s);
                    }
                }
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::problem::{AreaFlood, Problem};
    use sokoban_core::format::parse_level;

    /// A level of the project's own: rooms, corridors, a one-wide dead end.
    const LEVEL: [&str; 10] = [
        "    #####",
        "  ###   #   ####",
        "  #   $ #####  #",
        "  # #  $   @   #",
        "### #.## ##$# ##",
        "#.  # ##  #   #",
        "# $  $    $  .#",
        "#   #######  .#",
        "#####  #.   .##",
        "       #######",
    ];

    fn rng(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// A room `w` floor squares wide and `h` high, every third row a wall with a gap that
    /// moves along (runs of every length, rooms joined one way only).
    fn room(w: usize, h: usize) -> String {
        let mut rows = vec!["#".repeat(w + 2)];
        for r in 0..h {
            let mut row: Vec<char> = std::iter::once('#')
                .chain((0..w).map(|c| if r % 3 == 2 && c != (r * 7) % w { '#' } else { ' ' }))
                .chain(std::iter::once('#'))
                .collect();
            if r == 0 {
                row[1..4].copy_from_slice(&['@', '$', '.']);
            }
            rows.push(row.into_iter().collect());
        }
        rows.push("#".repeat(w + 2));
        rows.join("\n")
    }

    #[test]
    fn floods_as_the_square_by_square_flood_does() {
        // Boards that take four, five and six doubling steps a row.
        for (text, steps) in [(LEVEL.join("\n"), 4), (room(24, 10), 5), (room(64, 7), 6)] {
            floods_the_same(&text, steps);
        }
    }

    fn floods_the_same(text: &str, steps: u32) {
        let level = parse_level(text).unwrap();
        let p = Problem::new(&level.board);
        assert_eq!(p.grid.as_ref().unwrap().steps, steps);
        let mut area = PlayerArea::new(&p);
        assert!(area.by_bits());
        agrees_with_square_by_square(&p, &mut area);
    }

    /// Floods of `area` on random positions of `p`, against [`AreaFlood`]'s.
    fn agrees_with_square_by_square(p: &Problem, area: &mut PlayerArea) {
        let mut flood = AreaFlood::new(p.n);
        let mut seed = 0x1234_5678_9ABC_DEF1u64;
        let mut bits = vec![0u64; area.area_words(p)];
        for round in 0..2000 {
            // Boxes on a random share of the squares, from none to most.
            let share = round % 10;
            let blocked: Vec<bool> = (0..p.n).map(|_| rng(&mut seed) % 10 < share).collect();
            let boxes: Vec<u16> = (0..p.n as u16).filter(|&s| blocked[s as usize]).collect();
            if round % 2 == 0 {
                area.set_boxes(&boxes);
            } else {
                // The same, box by box.
                area.set_boxes(&[]);
                boxes.iter().for_each(|&b| area.set_box(b, true));
            }
            let free: Vec<u16> = (0..p.n as u16).filter(|&s| !blocked[s as usize]).collect();
            let Some(&from) = free.get(rng(&mut seed) as usize % free.len().max(1)) else {
                continue;
            };
            assert_eq!(area.flood(p, &blocked, from), flood.flood(p, &blocked, from));
            area.area_bits(&mut bits);
            for s in 0..p.n as u16 {
                assert_eq!(area.reached(s), flood.reached(s), "square {s}");
                assert_eq!(area.area_has(&bits, s), flood.reached(s), "square {s}");
            }
            let mut squares = Vec::new();
            area.for_each_square(|s| squares.push(s));
            squares.sort_unstable();
            let mut expect = flood.area().to_vec();
            expect.sort_unstable();
            assert_eq!(squares, expect);
            let outside: Vec<u16> = area.unreached(&blocked).collect();
            let expect: Vec<u16> = free.iter().copied().filter(|&s| !flood.reached(s)).collect();
            assert_eq!(outside, expect);
            // Told a bound no greater than the area's smallest square (the smallest itself,
            // or a free square outside the area), the flood still gives the smallest.
            let min = flood.flood(p, &blocked, from);
            let outside_below = free.iter().copied().find(|&s| s < min && !flood.reached(s));
            for least in [min, outside_below.unwrap_or(NONE)] {
                assert_eq!(area.flood_min(p, &blocked, from, least), min, "bound {least}");
            }
        }
    }

    #[test]
    fn wide_floors_have_no_grid() {
        let row = format!("#{}#", " ".repeat(65));
        let wall = "#".repeat(67);
        let text = format!("{wall}\n#@{}$.#\n{row}\n{wall}\n", " ".repeat(62));
        let level = parse_level(&text).unwrap();
        let p = Problem::new(&level.board);
        assert!(BitGrid::new(&level.board, &p.board_sq).is_none());
        // The player's area floods square by square there, with the same answers.
        let mut area = PlayerArea::new(&p);
        assert!(!area.by_bits());
        agrees_with_square_by_square(&p, &mut area);
    }
}
