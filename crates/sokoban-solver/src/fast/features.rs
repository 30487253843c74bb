//! The features of a position that place it in the fast search's feature space (FESS):
//! goals packed in plan order, boxes out of plan, the number of areas the boxes cut the
//! player's floor into, and the passages between rooms that boxes block.

use super::board::NO_GROUPS;
use super::plan::Plan;
use crate::analysis::goal_reach::GoalReach;
use crate::analysis::problem::{Problem, NONE};

/// A position's place in the feature space.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Features {
    /// Goals packed in plan order (more is better).
    pub packed: u16,
    /// Boxes on goals out of plan order (fewer is better).
    pub out_of_plan: u16,
    /// Areas of free floor (fewer is better; 1 when the player can go everywhere).
    pub regions: u16,
    /// Passages between rooms with a box in them (fewer is better).
    pub blocked_links: u16,
}

impl Features {
    /// The features as one number (a map key).
    pub fn key(&self) -> u64 {
        (self.packed as u64) << 48
            | (self.out_of_plan as u64) << 32
            | (self.regions as u64) << 16
            | self.blocked_links as u64
    }

    /// A ranking of how close the features look to the solved position: more packed first,
    /// then fewer out of plan, fewer areas, fewer blocked passages (smaller is better).
    pub fn rank(&self) -> (std::cmp::Reverse<u16>, u16, u16, u16) {
        (std::cmp::Reverse(self.packed), self.out_of_plan, self.regions, self.blocked_links)
    }
}

/// The rooms of a board and the passages that link them. A passage square is a floor square
/// with walls on two opposite sides; a passage is a run of passage squares; it links rooms
/// when it opens onto room floor at two places or more (a dead-end corridor links nothing).
#[derive(Clone, Debug)]
pub struct Rooms {
    /// The link of each square on a linking passage, `NONE` elsewhere.
    pub link_of: Vec<u16>,
    /// Number of links.
    pub links: usize,
}

impl Rooms {
    pub fn new(p: &Problem) -> Rooms {
        let n = p.n;
        let wall = |s: usize, d: usize| p.nbr[s][d] == NONE;
        let passage: Vec<bool> =
            (0..n).map(|s| (wall(s, 0) && wall(s, 2)) || (wall(s, 1) && wall(s, 3))).collect();
        let mut comp = vec![NONE; n];
        let mut link_of = vec![NONE; n];
        let mut links = 0u16;
        let mut stack = Vec::new();
        let mut members = Vec::new();
        for s0 in 0..n {
            if !passage[s0] || comp[s0] != NONE {
                continue;
            }
            comp[s0] = 0;
            stack.push(s0 as u16);
            members.clear();
            let mut contacts = 0;
            while let Some(x) = stack.pop() {
                members.push(x);
                for &y in &p.nbr[x as usize] {
                    if y == NONE {
                        continue;
                    }
                    if passage[y as usize] {
                        if comp[y as usize] == NONE {
                            comp[y as usize] = 0;
                            stack.push(y);
                        }
                    } else {
                        contacts += 1;
                    }
                }
            }
            if contacts >= 2 {
                for &x in &members {
                    link_of[x as usize] = links;
                }
                links += 1;
            }
        }
        Rooms { link_of, links: links as usize }
    }
}

/// Beyond this much work (squares² × goals) the hotspot table is not built (no hotspots).
const MAX_HOTSPOT_WORK: usize = 150_000_000;

/// Which squares block which: `blocks(q, s)` when a box on `q` (off the goals) leaves a box
/// on `s` (off the goals) fewer goals to reach than on the empty board.
#[derive(Clone, Debug)]
pub struct Hotspots {
    words: usize,
    /// Per square `q`, a bitset over the squares `s` it blocks.
    blocked_by: Vec<u64>,
    /// The same table transposed: per square `s`, a bitset over the squares `q` that
    /// block it.
    blocking: Vec<u64>,
}

/// A position's hotspots as [`Hotspots::count_moved`] reads them: how many boxes block
/// another, per box square how many it blocks, and the squares of the boxes off the goals.
#[derive(Clone, Debug, Default)]
pub struct HotBase {
    hot: u16,
    at: Vec<u16>,
    off: Vec<u64>,
}

impl Hotspots {
    /// The table, or `None` for a board too large for it.
    pub fn new(p: &Problem) -> Option<Hotspots> {
        let n = p.n;
        if n * n * p.goals.len() > MAX_HOTSPOT_WORK {
            return None;
        }
        let words = n.div_ceil(64);
        let mut reach = GoalReach::new(p);
        let count = |t: &[u64], s: usize, w: usize| -> u32 {
            t[s * w..(s + 1) * w].iter().map(|x| x.count_ones()).sum()
        };
        let base = reach.table(p, [], |_| true);
        let rw = reach.words;
        let mut blocked_by = vec![0u64; n * words];
        for q in 0..n {
            if p.is_goal[q] || p.dead[q] {
                continue;
            }
            let t = reach.table(p, [q as u16], |_| true);
            let row = &mut blocked_by[q * words..(q + 1) * words];
            for s in 0..n {
                if s != q && !p.is_goal[s] && !p.dead[s] && count(&t, s, rw) < count(&base, s, rw) {
                    row[s / 64] |= 1 << (s % 64);
                }
            }
        }
        let mut blocking = vec![0u64; n * words];
        for q in 0..n {
            for t in 0..n {
                if blocked_by[q * words + t / 64] >> (t % 64) & 1 != 0 {
                    blocking[t * words + q / 64] |= 1 << (q % 64);
                }
            }
        }
        Some(Hotspots { words, blocked_by, blocking })
    }

    /// True when a box on `q` blocks a box on `s` (see [`Hotspots`]).
    #[inline]
    pub fn blocks(&self, q: u16, s: u16) -> bool {
        self.blocked_by[q as usize * self.words + s as usize / 64] >> (s % 64) & 1 != 0
    }

    /// Boxes (off the goals) that block another box (off the goals), the box on `from`
    /// counted on `to` (pass `NONE` twice for the position as it is).
    pub fn count(&self, p: &Problem, boxes: &[u16], from: u16, to: u16) -> u16 {
        let at = |b: u16| if b == from { to } else { b };
        let mut count = 0;
        for &q in boxes {
            let q = at(q);
            if p.is_goal[q as usize] {
                continue;
            }
            let hot = boxes.iter().any(|&s| {
                let s = at(s);
                s != q && !p.is_goal[s as usize] && self.blocks(q, s)
            });
            count += hot as u16;
        }
        count
    }

    /// The hotspots of the position with boxes on `boxes` (see [`Hotspots::count`]), and
    /// what [`Hotspots::count_moved`] reads of it into `base`.
    pub fn base(&self, p: &Problem, boxes: &[u16], base: &mut HotBase) -> u16 {
        base.at.resize(p.n, 0);
        base.off.clear();
        base.off.resize(self.words, 0);
        for &s in boxes.iter().filter(|&&s| !p.is_goal[s as usize]) {
            base.off[s as usize / 64] |= 1 << (s % 64);
        }
        base.hot = 0;
        for &q in boxes {
            let c = if p.is_goal[q as usize] {
                0
            } else {
                let row = &self.blocked_by[q as usize * self.words..][..self.words];
                row.iter().zip(&base.off).map(|(r, o)| (r & o).count_ones()).sum::<u32>() as u16
            };
            base.hot += (c > 0) as u16;
            base.at[q as usize] = c;
        }
        base.hot
    }

    /// [`Hotspots::count`] for the box on `from` moved to `to`, from the position's
    /// [`Hotspots::base`]: only the moved box and the boxes blocking `from` or `to` change,
    /// found through the tables' bitsets without a pass over the boxes.
    pub fn count_moved(&self, p: &Problem, base: &HotBase, from: u16, to: u16) -> u16 {
        let w = self.words;
        let (off_from, off_to) = (!p.is_goal[from as usize], !p.is_goal[to as usize]);
        // The boxes off the goals but the moved one.
        let (fw, fbit) = (from as usize / 64, 1u64 << (from % 64));
        let others = |k: usize| base.off[k] & if k == fw { !fbit } else { !0 };
        let mut hot = base.hot - (off_from && base.at[from as usize] > 0) as u16;
        if off_to {
            let row = &self.blocked_by[to as usize * w..][..w];
            hot += (0..w).any(|k| row[k] & others(k) != 0) as u16;
        }
        for k in 0..w {
            let mut m = 0;
            if off_from {
                m |= self.blocking[from as usize * w + k];
            }
            if off_to {
                m |= self.blocking[to as usize * w + k];
            }
            m &= others(k);
            while m != 0 {
                let q = (k * 64 + m.trailing_zeros() as usize) as u16;
                m &= m - 1;
                let old = base.at[q as usize];
                let new = old - (off_from && self.blocks(q, from)) as u16
                    + (off_to && self.blocks(q, to)) as u16;
                hot = hot + (new > 0) as u16 - (old > 0) as u16;
            }
        }
        hot
    }
}

/// Scratch for the feature computations.
pub struct FeatureScratch {
    label: Vec<u32>,
    stamp: u32,
    /// The first label of the last [`FeatureScratch::regions`] run.
    last_base: u32,
    stack: Vec<u16>,
    link_boxes: Vec<u16>,
}

impl FeatureScratch {
    pub fn new(p: &Problem, rooms: &Rooms) -> FeatureScratch {
        FeatureScratch {
            label: vec![0; p.n],
            stamp: 0,
            last_base: 1,
            stack: Vec::with_capacity(p.n),
            link_boxes: vec![0; rooms.links],
        }
    }

    /// The features of a position.
    pub fn features(
        &mut self,
        p: &Problem,
        plan: &Plan,
        rooms: &Rooms,
        boxes: &[u16],
        occupied: &[bool],
    ) -> Features {
        let (packed, out_of_plan) = plan.packing(p, occupied, boxes.iter().copied());
        Features {
            packed,
            out_of_plan,
            regions: self.regions(p, occupied),
            blocked_links: self.blocked_links(rooms, boxes),
        }
    }

    /// Number of areas of free floor.
    pub fn regions(&mut self, p: &Problem, occupied: &[bool]) -> u16 {
        self.next_stamps();
        let base = self.stamp;
        self.last_base = base;
        let count = label_areas(p, occupied, &mut self.label, base, &mut self.stack, |_| {});
        self.stamp = base + count;
        count as u16
    }

    /// The area of free square `s` after [`FeatureScratch::regions`] (equal numbers: same
    /// area); `None` for a square with a box.
    pub fn area_of(&self, s: u16) -> Option<u32> {
        let l = self.label[s as usize];
        (l >= self.last_base).then_some(l)
    }

    /// Passages with a box in them; also leaves the count of boxes per link for
    /// [`FeatureScratch::boxes_on_link`].
    pub fn blocked_links(&mut self, rooms: &Rooms, boxes: &[u16]) -> u16 {
        self.link_boxes.fill(0);
        let mut blocked = 0;
        for &b in boxes {
            let l = rooms.link_of[b as usize];
            if l != NONE {
                if self.link_boxes[l as usize] == 0 {
                    blocked += 1;
                }
                self.link_boxes[l as usize] += 1;
            }
        }
        blocked
    }

    /// Boxes on link `l` (after [`FeatureScratch::blocked_links`]).
    pub fn boxes_on_link(&self, l: u16) -> u16 {
        self.link_boxes[l as usize]
    }

    /// Make room for a new run of labels (labels of older runs stay below it).
    fn next_stamps(&mut self) {
        if self.stamp > u32::MAX - self.label.len() as u32 - 2 {
            self.label.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
    }
}

/// How many parts of free floor the free sides of `to` fall in once a box fills `to`
/// (`free` tells which squares are free then): none without a free side; one where the
/// ring of its eight neighbours keeps them joined; otherwise as many as the box search's
/// side groups of `to` they are in (`groups`: [`super::board::Move::groups`], which every
/// generated move knows).
pub(crate) fn parts_round(p: &Problem, to: u16, free: impl Fn(u16) -> bool, groups: u8) -> usize {
    let nbr = &p.nbr[to as usize];
    let (mut free_sides, mut joins) = (0, 0);
    for d in 0..4 {
        let (a, b) = (nbr[d], nbr[(d + 1) % 4]);
        if !free(a) {
            continue;
        }
        free_sides += 1;
        if free(b) && free(p.nbr[a as usize][(d + 1) % 4]) {
            joins += 1;
        }
    }
    if free_sides == 0 || joins == 4 || free_sides - joins == 1 {
        return free_sides.min(1);
    }
    debug_assert_ne!(groups, NO_GROUPS, "a generated move knows its groups");
    let mut labels = 0u8;
    for (d, &t) in nbr.iter().enumerate() {
        if free(t) {
            labels |= 1 << ((groups >> (2 * d)) & 3);
        }
    }
    labels.count_ones() as usize
}

/// Label the areas of free floor (`occupied` false) `base`, `base + 1`, ... (a label
/// `>= base` means labelled already), calling `first(s)` with each area's first square, the
/// smallest; returns how many areas there are.
pub(crate) fn label_areas(
    p: &Problem,
    occupied: &[bool],
    label: &mut [u32],
    base: u32,
    stack: &mut Vec<u16>,
    mut first: impl FnMut(u16),
) -> u32 {
    let mut count = 0u32;
    for s0 in 0..p.n {
        if occupied[s0] || label[s0] >= base {
            continue;
        }
        let id = base + count;
        count += 1;
        first(s0 as u16);
        label[s0] = id;
        stack.clear();
        stack.push(s0 as u16);
        while let Some(x) = stack.pop() {
            for &y in &p.nbr[x as usize] {
                if y != NONE && !occupied[y as usize] && label[y as usize] < base {
                    label[y as usize] = id;
                    stack.push(y);
                }
            }
        }
    }
    count
}
