//! The confinement test of the backward (pull) game: a player shut in for good.
//!
//! A pull moves a box onto the square the player stood on, so pulls bring boxes into the
//! player's area, never out of it. Where the player's area is closed off by boxes, take
//! the zone: the area and the boxes beside it, diagonals counted. If no pulls of the zone's
//! boxes alone (every other box taken off the board) ever let the player onto a square
//! outside the zone, then in the full position the player never leaves it either, and
//! the boxes outside never move (to pull a box outside, the player must stand beside it,
//! and in the reduced position it could step onto that square instead). So if a box
//! outside the zone stands off the start squares, or a start square outside it is empty,
//! the position can never become the start: it is dead in the backward game.
//!
//! The reduced search is exhaustive, but bounded: past `LIMIT` positions it answers "not
//! proven". Verdicts are cached by the reduced position (the zone's boxes and the
//! player's area decide it). Festival's pull-mode corral deadlock is this idea; its
//! dragonfly search on Sasquatch I 37 finds 347 of its 658 positions dead so.

use std::collections::{HashMap, HashSet};

use crate::analysis::problem::{Keyed, Problem, NONE};
use crate::work::{self, Op};

/// Positions the reduced search may expand before it gives up (not proven), unless the
/// caller says otherwise.
pub const LIMIT: usize = 64;
/// Cached verdicts kept before the cache is cleared.
const CACHE_LIMIT: usize = 1 << 18;

/// Counters of the confinement test.
#[derive(Clone, Copy, Debug, Default)]
pub struct ConfineStats {
    /// Reduced searches run (cache misses).
    pub searches: u64,
    /// Tests answered from the cache.
    pub cache_hits: u64,
    /// Reduced searches that gave up at `LIMIT`.
    pub exceeded: u64,
}

/// Scratch and cache of the confinement test (one per backward search).
pub struct Confinement {
    /// True on the zone's squares: the player's area and its boxes.
    in_zone: Vec<bool>,
    /// The squares set in `in_zone`, to clear them.
    marked: Vec<u16>,
    zone_boxes: Vec<u16>,
    /// The reduced position's boxes, and the player's reach in it.
    box_on: Vec<bool>,
    reach: Vec<bool>,
    reached: Vec<u16>,
    /// Positions to expand: `k` box squares then the player's square, each.
    stack: Vec<u16>,
    boxes: Vec<u16>,
    seen: HashSet<u64, Keyed>,
    cache: HashMap<u64, bool, Keyed>,
    pub stats: ConfineStats,
    limit: usize,
}

impl Confinement {
    /// Scratch for a problem; the reduced searches expand at most `limit` positions.
    pub fn new(p: &Problem, limit: usize) -> Confinement {
        Confinement {
            in_zone: vec![false; p.n],
            marked: Vec::new(),
            zone_boxes: Vec::new(),
            box_on: vec![false; p.n],
            reach: vec![false; p.n],
            reached: Vec::new(),
            stack: Vec::new(),
            boxes: Vec::new(),
            seen: HashSet::default(),
            cache: HashMap::default(),
            stats: ConfineStats::default(),
            limit,
        }
    }

    /// True when the position (`boxes`, `occupied` by them; the player's area `area`, its
    /// smallest square `norm`) shuts the player in a zone from which the start position
    /// (boxes on `homes`, sorted) can never be reached.
    pub fn confined(
        &mut self,
        p: &Problem,
        boxes: &[u16],
        occupied: &[bool],
        area: &[u16],
        norm: u16,
        homes: &[u16],
    ) -> bool {
        // One area of free floor: nothing is shut off.
        if area.len() + boxes.len() >= p.n {
            return false;
        }
        for &s in area {
            self.mark(s);
        }
        self.zone_boxes.clear();
        for &b in boxes {
            if beside_area(p, b, &self.in_zone, occupied) {
                self.zone_boxes.push(b);
            }
        }
        let verdict = self.zone_boxes.len() < boxes.len() && {
            for k in 0..self.zone_boxes.len() {
                let b = self.zone_boxes[k];
                self.mark(b);
            }
            let zone = &self.in_zone;
            // Work left outside the zone, which stays as it is for good if the player does.
            let home = |b: u16| homes.binary_search(&b).is_ok();
            let work = boxes.iter().any(|&b| !zone[b as usize] && !home(b))
                || homes.iter().any(|&s| !zone[s as usize] && !occupied[s as usize]);
            work && self.cached_search(p, norm)
        };
        for &s in &self.marked {
            self.in_zone[s as usize] = false;
        }
        self.marked.clear();
        verdict
    }

    fn mark(&mut self, s: u16) {
        if !self.in_zone[s as usize] {
            self.in_zone[s as usize] = true;
            self.marked.push(s);
        }
    }

    fn cached_search(&mut self, p: &Problem, norm: u16) -> bool {
        let key =
            self.zone_boxes.iter().fold(p.z_player[norm as usize], |h, &b| h ^ p.z_box[b as usize]);
        if let Some(&v) = self.cache.get(&key) {
            self.stats.cache_hits += 1;
            return v;
        }
        self.stats.searches += 1;
        let shut = self.search(p, norm);
        if self.cache.len() >= CACHE_LIMIT {
            self.cache.clear();
        }
        self.cache.insert(key, shut);
        shut
    }

    /// The reduced search: true when every position the zone's boxes can be pulled to
    /// keeps the player inside the zone (all of them expanded within `LIMIT`).
    fn search(&mut self, p: &Problem, player: u16) -> bool {
        let k = self.zone_boxes.len();
        self.seen.clear();
        self.stack.clear();
        self.stack.extend_from_slice(&self.zone_boxes);
        self.stack.push(player);
        let mut boxes = std::mem::take(&mut self.boxes);
        let mut expanded = 0;
        let shut = loop {
            if self.stack.is_empty() {
                break true;
            }
            let at = self.stack.len() - k - 1;
            let player = self.stack[at + k];
            boxes.clear();
            boxes.extend_from_slice(&self.stack[at..at + k]);
            self.stack.truncate(at);
            for &b in &boxes {
                self.box_on[b as usize] = true;
            }
            let (out, least) = self.flood(p, player);
            let fresh = !out && {
                boxes.sort_unstable();
                let key =
                    boxes.iter().fold(p.z_player[least as usize], |h, &b| h ^ p.z_box[b as usize]);
                self.seen.insert(key)
            };
            if fresh {
                expanded += 1;
                work::add(Op::CorralNodes, 1);
                // Each box one square toward the player, who steps back one.
                for (i, &b) in boxes.iter().enumerate() {
                    for d in 0..4 {
                        let r = p.nbr[b as usize][d];
                        if r == NONE || !self.reach[r as usize] {
                            continue;
                        }
                        let r2 = p.nbr[r as usize][d];
                        if r2 == NONE || self.box_on[r2 as usize] {
                            continue;
                        }
                        self.stack.extend(
                            boxes.iter().enumerate().map(|(j, &c)| if j == i { r } else { c }),
                        );
                        self.stack.push(r2);
                    }
                }
            }
            for &b in &boxes {
                self.box_on[b as usize] = false;
            }
            for &s in &self.reached {
                self.reach[s as usize] = false;
            }
            if out {
                break false;
            }
            if expanded > self.limit {
                self.stats.exceeded += 1;
                break false;
            }
        };
        self.boxes = boxes;
        shut
    }

    /// Flood the reduced position from `player` into `reach` (listed in `reached`): (the
    /// player got out of the zone, the area's smallest square).
    fn flood(&mut self, p: &Problem, player: u16) -> (bool, u16) {
        self.reached.clear();
        self.reached.push(player);
        self.reach[player as usize] = true;
        let (mut k, mut least) = (0, player);
        while k < self.reached.len() {
            let s = self.reached[k];
            k += 1;
            if !self.in_zone[s as usize] {
                return (true, least);
            }
            least = least.min(s);
            for &t in &p.nbr[s as usize] {
                if t != NONE && !self.reach[t as usize] && !self.box_on[t as usize] {
                    self.reach[t as usize] = true;
                    self.reached.push(t);
                }
            }
        }
        (false, least)
    }
}

/// True when box `b` stands beside the area (`in_area`), diagonals counted: a box that a
/// pull could bring beside the player.
fn beside_area(p: &Problem, b: u16, in_area: &[bool], occupied: &[bool]) -> bool {
    let nbr = &p.nbr[b as usize];
    (0..4).any(|d| {
        let s = nbr[d];
        if s == NONE {
            return false;
        }
        if in_area[s as usize] && !occupied[s as usize] {
            return true;
        }
        // The diagonals beside this side.
        [(d + 1) % 4, (d + 3) % 4].iter().any(|&e| {
            let t = p.nbr[s as usize][e];
            t != NONE && in_area[t as usize] && !occupied[t as usize]
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `confined` on `xsb`'s board: boxes on `boxes`, the player on `player` (rows and
    /// columns), the level's own boxes as the start squares.
    fn confined_at(xsb: &str, boxes: &[(usize, usize)], player: (usize, usize)) -> bool {
        let level = sokoban_core::format::parse_level(xsb).unwrap();
        let p = Problem::new(&level.board);
        let sq = |(r, c): (usize, usize)| p.compact[level.board.square(r, c)];
        let mut homes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
        homes.sort_unstable();
        let mut boxes: Vec<u16> = boxes.iter().map(|&rc| sq(rc)).collect();
        boxes.sort_unstable();
        let mut occupied = vec![false; p.n];
        for &b in &boxes {
            occupied[b as usize] = true;
        }
        let mut area = vec![sq(player)];
        let mut k = 0;
        while k < area.len() {
            for &t in &p.nbr[area[k] as usize] {
                if t != NONE && !occupied[t as usize] && !area.contains(&t) {
                    area.push(t);
                }
            }
            k += 1;
        }
        let norm = *area.iter().min().unwrap();
        Confinement::new(&p, LIMIT).confined(&p, &boxes, &occupied, &area, norm, &homes)
    }

    /// A box pulled into a one-wide dead end shuts the player in behind it, an empty start
    /// square outside: dead. In a room three wide the player pulls the box in and walks
    /// round it: not. Where nothing outside is left to do, or every box is beside the
    /// player, the test does not say dead either.
    #[test]
    fn a_player_shut_in_for_good_with_work_outside_is_dead() {
        let corridor = "#######\n#@  ###\n### $.#\n### $.#\n#######";
        assert!(confined_at(corridor, &[(1, 3), (3, 4)], (1, 1)), "shut in the dead end");
        assert!(confined_at(corridor, &[(1, 3), (2, 4)], (1, 1)), "a start square left empty");
        assert!(!confined_at(corridor, &[(2, 4), (3, 4)], (1, 1)), "the start: one area");
        let room = "#########\n#@  #####\n#   $ $.#\n#####  .#\n#########";
        assert!(!confined_at(room, &[(2, 4), (3, 6)], (1, 1)), "out round the pulled box");
        assert!(!confined_at(room, &[(2, 4), (2, 6)], (1, 1)), "nothing left outside");
        assert!(!confined_at(room, &[(2, 3), (2, 4)], (1, 1)), "every box beside the player");
    }
}
