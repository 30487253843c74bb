//! Deadlocks found by a small search, and the patterns learned from them.
//!
//! [`StuckSearch`] asks whether some boxes, alone on the board with the player in a given
//! area, can all be brought onto goals. It first takes away every box that is *free* — one
//! the player can push both along a row and along a column right now — and keeps doing so
//! in every position it reaches (a free box is the only move searched there: it is
//! removed); the other positions are expanded by all their pushes, lowest summed distance
//! to the nearest goals first, with dead squares and freeze deadlocks pruned — and where
//! the boxes fence off a PI-corral with work in it, by its inward pushes only, or by none
//! when it can never be opened (the optimal search's `analysis::corral` analysis, an empty
//! goal in a corral counting as no work: there are fewer boxes than goals). Measured on
//! XSokoban 89's dead best position: its seven boxes round a one-wide column are proved
//! stuck in 73 positions (165,111 without the corrals), five of them in 7 (977). When the
//! search runs out of positions without putting every remaining box on a goal, the boxes
//! are stuck: no solution of the full position exists (any solution, restricted to these
//! boxes, would solve the smaller one — removing boxes only ever makes room), so the test
//! is sound whichever boxes it removes. It gives up after a few hundred positions.
//!
//! [`Patterns`] keeps stuck box sets found during a search, each boiled down to the fewest
//! boxes that are still stuck, with the area the player was in: a later position holding
//! all of a pattern's boxes, its player in that area, is dead. (This is Festival's "stuck
//! patterns", learned from subtrees the search spends time in.)

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use crate::analysis::bits::PlayerArea;
use crate::analysis::corral::{Corrals, Verdict as CorralVerdict};
use crate::analysis::deadlock::freeze_deadlock;
use crate::analysis::problem::{AreaFlood, Keyed, Problem, INF_DIST, NONE};
use crate::work::{self, Op};

/// Positions one stuck search may expand.
pub const SEARCH_LIMIT: usize = 500;
/// Most boxes in a learned pattern (larger stuck sets are not kept).
pub const MAX_PATTERN_BOXES: usize = 12;
/// Most patterns kept.
pub const MAX_PATTERNS: usize = 1000;
/// Verdicts cached before the cache is cleared.
const CACHE_LIMIT: usize = 1 << 16;

/// What a stuck search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The boxes can never all stand on goals: the position is dead.
    Stuck,
    /// They can (or every box was free).
    Free,
    /// The search gave up.
    Unknown,
}

/// Counters of the stuck searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StuckStats {
    pub searches: u64,
    pub nodes: u64,
    pub stuck: u64,
    pub cache_hits: u64,
}

/// Scratch and cache for stuck searches (one per search engine).
pub struct StuckSearch {
    nearest: Vec<u32>,
    box_on: Vec<bool>,
    area: PlayerArea,
    walls: Vec<u16>,
    /// Stored positions: the box count, the player square, then the boxes.
    arena: Vec<u16>,
    heap: BinaryHeap<(Reverse<u32>, u32)>,
    /// The positions searched: per box set (its key), a list of the player areas it was
    /// searched with, as bitsets over the squares (`area_bits`, `words` words each,
    /// linked by `area_next`). A position met again is found by one bit, before it costs
    /// a flood (most positions popped are met again: 59% on Microban 153).
    areas: HashMap<u64, u32, Keyed>,
    area_bits: Vec<u64>,
    area_next: Vec<u32>,
    words: usize,
    cache: HashMap<u64, Verdict, Keyed>,
    boxes: Vec<u16>,
    /// PI-corral analysis of the positions searched (fewer boxes than goals: an empty goal
    /// in a corral is no work), and the pushes it leaves.
    corrals: Corrals,
    corral_pushes: Vec<(u16, u8)>,
    pub stats: StuckStats,
}

impl StuckSearch {
    pub fn new(p: &Problem) -> StuckSearch {
        let n = p.n;
        let nearest = (0..n)
            .map(|s| {
                let d = (0..p.goals.len()).map(|j| p.dist[j * n + s]).min().unwrap_or(INF_DIST);
                d as u32
            })
            .collect();
        let area = PlayerArea::new(p);
        let words = area.area_words(p);
        StuckSearch {
            nearest,
            box_on: vec![false; n],
            area,
            walls: Vec::new(),
            arena: Vec::new(),
            heap: BinaryHeap::new(),
            areas: HashMap::default(),
            area_bits: Vec::new(),
            area_next: Vec::new(),
            words,
            cache: HashMap::default(),
            boxes: Vec::new(),
            corrals: Corrals::new(n, false),
            corral_pushes: Vec::new(),
            stats: StuckStats::default(),
        }
    }

    /// Can the boxes `boxes`, alone on the board with the player on `player`, all be
    /// brought onto goals? Gives up after `limit` positions.
    pub fn run(&mut self, p: &Problem, boxes: &[u16], player: u16, limit: usize) -> Verdict {
        if boxes.iter().all(|&b| p.is_goal[b as usize]) {
            return Verdict::Free;
        }
        for &b in boxes {
            self.box_on[b as usize] = true;
            self.area.set_box(b, true);
        }
        let norm = self.area.flood(p, &self.box_on, player);
        self.clear_boxes(boxes);
        let key = hash(p, boxes) ^ p.z_player[norm as usize];
        if let Some(&v) = self.cache.get(&key) {
            self.stats.cache_hits += 1;
            return v;
        }
        self.stats.searches += 1;
        let v = self.search(p, boxes, player, limit);
        if self.cache.len() >= CACHE_LIMIT {
            self.cache.clear();
        }
        self.cache.insert(key, v);
        self.stats.stuck += (v == Verdict::Stuck) as u64;
        v
    }

    fn push_position(&mut self, player: u16, boxes: impl Iterator<Item = u16>) -> u32 {
        let idx = self.arena.len();
        self.arena.push(0);
        self.arena.push(player);
        self.arena.extend(boxes);
        self.arena[idx] = (self.arena.len() - idx - 2) as u16;
        idx as u32
    }

    fn search(&mut self, p: &Problem, boxes: &[u16], player: u16, limit: usize) -> Verdict {
        self.arena.clear();
        self.heap.clear();
        self.areas.clear();
        self.area_bits.clear();
        self.area_next.clear();
        let h0: u32 = boxes.iter().map(|&b| self.nearest[b as usize]).sum();
        let root = self.push_position(player, boxes.iter().copied());
        self.heap.push((Reverse(h0), root));
        let mut expanded = 0;
        let mut cur = std::mem::take(&mut self.boxes);
        let verdict = loop {
            let Some((Reverse(h), idx)) = self.heap.pop() else { break Verdict::Stuck };
            let at = idx as usize;
            let k = self.arena[at] as usize;
            let pl = self.arena[at + 1];
            cur.clear();
            cur.extend_from_slice(&self.arena[at + 2..at + 2 + k]);
            if cur.iter().all(|&b| p.is_goal[b as usize]) {
                break Verdict::Free;
            }
            let key = hash(p, &cur);
            if self.searched(key, pl) {
                continue;
            }
            for &b in cur.iter() {
                self.box_on[b as usize] = true;
                self.area.set_box(b, true);
            }
            self.area.flood(p, &self.box_on, pl);
            self.record_area(key);
            expanded += 1;
            self.stats.nodes += 1;
            work::add(Op::StuckNodes, 1);
            if expanded > limit {
                self.clear_boxes(&cur);
                break Verdict::Unknown;
            }
            // A free box is taken away: the only successor.
            if let Some(i) = (0..k).find(|&i| self.free(p, cur[i])) {
                let b = cur[i];
                let hc = h - self.nearest[b as usize];
                self.clear_boxes(&cur);
                let child = self.push_position(pl, cur.iter().copied().filter(|&x| x != b));
                self.heap.push((Reverse(hc), child));
                continue;
            }
            // A PI-corral: only its pushes inwards (some solution starts with one), none
            // at all when it can never be opened.
            let (area, box_on) = (&self.area, &self.box_on);
            let only = match self.corrals.analyse(
                p,
                |s| box_on[s],
                |s| area.reached(s),
                area.unreached(box_on),
                NONE,
                &mut self.corral_pushes,
            ) {
                CorralVerdict::Deadlock => {
                    self.clear_boxes(&cur);
                    continue;
                }
                CorralVerdict::Only => true,
                CorralVerdict::All => false,
            };
            for i in 0..k {
                let b = cur[i];
                for d in 0..4 {
                    if only && !self.corral_pushes.contains(&(b, d as u8)) {
                        continue;
                    }
                    let to = p.step(b, d);
                    let behind = p.step(b, (d + 2) & 3);
                    if !self.can_push(p, to, behind) {
                        continue;
                    }
                    self.box_on[b as usize] = false;
                    self.box_on[to as usize] = true;
                    let frozen = {
                        let on = &self.box_on;
                        freeze_deadlock(p, &mut self.walls, &|s| on[s as usize], to)
                    };
                    self.box_on[to as usize] = false;
                    self.box_on[b as usize] = true;
                    if frozen {
                        continue;
                    }
                    let hc = h - self.nearest[b as usize] + self.nearest[to as usize];
                    let moved = cur.iter().map(|&x| if x == b { to } else { x });
                    let child = self.push_position(b, moved);
                    self.heap.push((Reverse(hc), child));
                }
            }
            self.clear_boxes(&cur);
        };
        self.boxes = cur;
        verdict
    }

    /// True when the boxes of key `key` were searched with the player in an area holding
    /// square `pl`.
    fn searched(&self, key: u64, pl: u16) -> bool {
        let mut r = self.areas.get(&key).copied().unwrap_or(u32::MAX);
        while r != u32::MAX {
            let at = r as usize * self.words;
            if self.area.area_has(&self.area_bits[at..at + self.words], pl) {
                return true;
            }
            r = self.area_next[r as usize];
        }
        false
    }

    /// Record the area of the last flood for the boxes of key `key`.
    fn record_area(&mut self, key: u64) {
        let r = self.area_next.len() as u32;
        let at = self.area_bits.len();
        self.area_bits.resize(at + self.words, 0);
        self.area.area_bits(&mut self.area_bits[at..]);
        let prev = self.areas.insert(key, r).unwrap_or(u32::MAX);
        self.area_next.push(prev);
    }

    fn clear_boxes(&mut self, boxes: &[u16]) {
        for &b in boxes {
            self.box_on[b as usize] = false;
            self.area.set_box(b, false);
        }
    }

    /// A push onto `to` with the player on `behind` is possible now (after a flood).
    #[inline]
    fn can_push(&self, p: &Problem, to: u16, behind: u16) -> bool {
        to != NONE
            && behind != NONE
            && !self.box_on[to as usize]
            && !p.dead[to as usize]
            && self.area.reached(behind)
    }

    /// The box on `b` can be pushed now both along its row and along its column.
    fn free(&self, p: &Problem, b: u16) -> bool {
        let axis = |d: usize| {
            (d..4).step_by(2).any(|e| {
                let to = p.step(b, e);
                let behind = p.step(b, (e + 2) & 3);
                self.can_push(p, to, behind)
            })
        };
        axis(0) && axis(1)
    }
}

fn hash(p: &Problem, boxes: &[u16]) -> u64 {
    boxes.iter().fold(0x5171_C4ED_u64, |h, &b| h ^ p.z_box[b as usize])
}

/// A learned pattern: boxes and the squares of the player's area among them.
struct Pattern {
    boxes: Vec<u16>,
    /// Bitset over the squares.
    area: Vec<u64>,
}

/// Learned stuck patterns, indexed by their first box square.
pub struct Patterns {
    patterns: Vec<Pattern>,
    by_square: Vec<Vec<u32>>,
    words: usize,
}

impl Patterns {
    pub fn new(p: &Problem) -> Patterns {
        Patterns { patterns: Vec::new(), by_square: vec![Vec::new(); p.n], words: p.n.div_ceil(64) }
    }

    /// Number of patterns.
    pub fn len(&self) -> usize {
        self.patterns.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// True when the position (`occupied[s]` where a box is, `boxes` its boxes, the player
    /// on `player`) holds a pattern.
    pub fn matches(&self, occupied: &[bool], boxes: &[u16], player: u16) -> bool {
        if self.patterns.is_empty() {
            return false;
        }
        boxes
            .iter()
            .any(|&b| self.by_square[b as usize].iter().any(|&i| self.holds(i, occupied, player)))
    }

    /// True when pattern `i` is in the position.
    fn holds(&self, i: u32, occupied: &[bool], player: u16) -> bool {
        let pat = &self.patterns[i as usize];
        pat.area[player as usize / 64] >> (player % 64) & 1 != 0
            && pat.boxes.iter().all(|&b| occupied[b as usize])
    }

    /// Learn from a position found stuck: boil the box set down (drop each box whose removal
    /// leaves it stuck) and keep it with the player's area. Returns the pattern's boxes, or
    /// `None` when it is too large to keep or the store is full.
    pub fn learn(
        &mut self,
        p: &Problem,
        search: &mut StuckSearch,
        boxes: &[u16],
        player: u16,
    ) -> Option<Vec<u16>> {
        if self.patterns.len() >= MAX_PATTERNS {
            return None;
        }
        let mut set = boxes.to_vec();
        let mut i = 0;
        while i < set.len() {
            let b = set.remove(i);
            if !set.is_empty() && search.run(p, &set, player, SEARCH_LIMIT) == Verdict::Stuck {
                continue; // still stuck without it
            }
            set.insert(i, b);
            i += 1;
        }
        if set.len() > MAX_PATTERN_BOXES {
            return None;
        }
        let mut on = vec![false; p.n];
        for &b in &set {
            on[b as usize] = true;
        }
        let mut flood = AreaFlood::new(p.n);
        flood.flood(p, &on, player);
        let mut area = vec![0u64; self.words];
        for &s in flood.area() {
            area[s as usize / 64] |= 1 << (s % 64);
        }
        let idx = self.patterns.len() as u32;
        self.by_square[set[0] as usize].push(idx);
        self.patterns.push(Pattern { boxes: set.clone(), area });
        Some(set)
    }
}
