//! PI-corral pruning.
//!
//! A corral is a connected area of free squares the player cannot reach; its barrier is
//! the set of boxes next to it. It is a PI-corral when
//! - (I) no barrier box can ever be pushed anywhere but into the corral — counting walls,
//!   barrier boxes and dead squares as blocking and every other box as movable — and
//! - (P) the player can reach the square behind every such inward push right now
//!   (pushes whose square behind is a wall, a barrier box or inside the corral are
//!   impossible until the barrier changes, so they need neither condition).
//!
//! If the corral still has work in it (a barrier box off its goal, or an empty goal inside),
//! every solution must at some point push a barrier box; the first such push goes into the
//! corral (I) and is already possible now (P), and it can be moved to the front of the
//! solution without changing the push count: the pushes before it never touch the corral
//! area, and freeing the barrier square only enlarges the player's area. So only the
//! corral's inward pushes need to be searched — push-optimality is kept. A PI-corral with
//! no inward push at all can never be opened: the position is a deadlock.
//!
//! A corral may be several areas together (`merge`, Festival's way): where a barrier box
//! could be pushed from one area the player cannot reach or into one, that area joins the
//! corral, and the conditions are checked on the union — the argument above holds for any
//! set of unreachable areas walled in by their barrier. Its barrier then also holds the
//! boxes diagonally beside its squares: all of them must keep to the conditions, and a push
//! from a square one of them holds cannot come first. In a field of boxes every gap is an
//! area of its own and none is a PI-corral alone; together they often are (Sasquatch IV 30:
//! Festival's search keeps 3 moves after its first push where ours kept every move). The
//! fast search measured it and uses it in two of its portfolio's lanes, not by default (its
//! `merge` switch).

use crate::analysis::problem::{Problem, NONE};

/// What the corral analysis found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No PI-corral: search every push.
    All,
    /// Search only the pushes left in the output list.
    Only,
    /// A PI-corral that can never be opened: prune the node.
    Deadlock,
}

/// Scratch space for corral analysis (one per search; no allocation per node).
pub struct Corrals {
    label: Vec<u32>,
    box_mark: Vec<u32>,
    next: u32,
    stack: Vec<u16>,
    barrier: Vec<u16>,
    pushes: Vec<(u16, u8)>,
    /// The corrals with work left whose barrier holds the last pushed box, candidates for
    /// the corral deadlock test: for each, a square inside it and then its barrier boxes,
    /// one corral after another (`suspect_ends` marks where each ends).
    pub suspects: Vec<u16>,
    pub suspect_ends: Vec<usize>,
    /// Every goal must get a box (false in a subproblem with fewer boxes than goals: then
    /// an empty goal inside a corral is no work left).
    fill_goals: bool,
    /// Areas join a corral where a barrier push leads from or into them (see above).
    pub merge: bool,
    /// This node's areas: their squares one area after another (`comp_ends`), each area's
    /// label, and whether it holds an empty goal.
    comp_squares: Vec<u16>,
    comp_ends: Vec<usize>,
    comp_goal: Vec<bool>,
    /// Per area (label - base of the node), the union it joined: its seed area + 1 (0: none
    /// yet at this node).
    comp_union: Vec<u32>,
    union: Vec<u32>,
}

/// Most areas a union of areas may hold before it is given up (the analysis runs on every
/// position: a field of boxes has many small areas).
const MAX_UNION: usize = 24;

impl Corrals {
    /// Scratch for a problem with `n` squares; `fill_goals` when there are as many boxes
    /// as goals.
    pub fn new(n: usize, fill_goals: bool) -> Corrals {
        Corrals {
            label: vec![0; n],
            box_mark: vec![0; n],
            next: 0,
            stack: Vec::with_capacity(n),
            barrier: Vec::new(),
            pushes: Vec::new(),
            suspects: Vec::new(),
            suspect_ends: Vec::new(),
            fill_goals,
            merge: false,
            comp_squares: Vec::new(),
            comp_ends: Vec::new(),
            comp_goal: Vec::new(),
            comp_union: Vec::new(),
            union: Vec::new(),
        }
    }

    fn fresh(&mut self) -> u32 {
        self.next += 1;
        self.next
    }

    /// Analyse the corrals of a position. `has_box(s)` where a box stands; `reached(s)`
    /// where the player can go; `outside` gives (in increasing order) at least every square
    /// with neither, the squares of the corrals. On [`Verdict::Only`], `out` holds the
    /// pushes (box square, direction) of the PI-corral with the fewest of them.
    pub fn analyse(
        &mut self,
        p: &Problem,
        has_box: impl Fn(usize) -> bool,
        reached: impl Fn(u16) -> bool,
        outside: impl Iterator<Item = u16>,
        last: u16,
        out: &mut Vec<(u16, u8)>,
    ) -> Verdict {
        let n = p.n;
        // Labels of this node are `base..`; start over well before the counter could wrap.
        if self.next > u32::MAX - n as u32 - 1 {
            self.label.fill(0);
            self.box_mark.fill(0);
            self.next = 0;
        }
        let base = self.next + 1;
        let mut best: Option<usize> = None;
        out.clear();
        self.suspects.clear();
        self.suspect_ends.clear();
        self.comp_squares.clear();
        self.comp_ends.clear();
        self.comp_goal.clear();
        for s0 in outside {
            let s0 = s0 as usize;
            if has_box(s0) || reached(s0 as u16) {
                continue;
            }
            let l = self.label[s0];
            if l >= base {
                continue; // already in a corral of this node
            }
            let id = self.fresh();
            // Flood the corral area and collect its barrier boxes.
            self.barrier.clear();
            let mut unfinished = false;
            self.stack.clear();
            self.stack.push(s0 as u16);
            self.label[s0] = id;
            while let Some(x) = self.stack.pop() {
                if self.merge {
                    self.comp_squares.push(x);
                }
                if self.fill_goals && p.is_goal[x as usize] {
                    unfinished = true; // an empty goal inside
                }
                for &y in &p.nbr[x as usize] {
                    if y == NONE {
                        continue;
                    }
                    let yu = y as usize;
                    if has_box(yu) {
                        if self.box_mark[yu] != id {
                            self.box_mark[yu] = id;
                            self.barrier.push(y);
                        }
                    } else if self.label[yu] != id {
                        self.label[yu] = id;
                        self.stack.push(y);
                    }
                }
            }
            if self.merge {
                self.comp_ends.push(self.comp_squares.len());
                self.comp_goal.push(unfinished);
            }
            if !unfinished {
                unfinished = self.barrier.iter().any(|&b| !p.is_goal[b as usize]);
            }
            if unfinished && self.barrier.contains(&last) {
                self.suspects.push(s0 as u16);
                self.suspects.extend_from_slice(&self.barrier);
                self.suspect_ends.push(self.suspects.len());
            }
            // Check the I and P conditions.
            self.pushes.clear();
            let mut pi = true;
            'boxes: for &b in &self.barrier {
                for d in 0..4 {
                    let (label, mark) = (&self.label, &self.box_mark);
                    let kind = push_kind(
                        p,
                        b,
                        d,
                        |x| has_box(x as usize) && mark[x as usize] == id,
                        |x| !has_box(x as usize) && label[x as usize] == id,
                    );
                    match kind {
                        Some((s, Kind::Inward)) if !reached(s) => {
                            pi = false; // P fails
                            break 'boxes;
                        }
                        Some((_, Kind::Inward)) => self.pushes.push((b, d as u8)),
                        Some((_, Kind::Out(_))) => {
                            pi = false; // I fails: the box might leave sideways or outwards
                            break 'boxes;
                        }
                        Some((_, Kind::Blocked)) | None => {}
                    }
                }
            }
            if !pi || !unfinished {
                continue;
            }
            if self.pushes.is_empty() {
                return Verdict::Deadlock;
            }
            if best.is_none_or(|k| self.pushes.len() < k) {
                best = Some(self.pushes.len());
                out.clear();
                out.extend_from_slice(&self.pushes);
            }
        }
        if best.is_none() && self.merge && self.comp_ends.len() >= 2 {
            match self.unions(p, &has_box, &reached, base, out) {
                Some(Verdict::Deadlock) => return Verdict::Deadlock,
                Some(_) => return Verdict::Only,
                None => {}
            }
        }
        if best.is_some() {
            Verdict::Only
        } else {
            Verdict::All
        }
    }

    /// PI-corrals of several areas (`merge`): from each area not yet in a union, areas join
    /// while a barrier push leads from or into one; the union with the fewest inward pushes
    /// goes to `out` (`Some(Only)`), `Some(Deadlock)` for one that can never be opened.
    fn unions(
        &mut self,
        p: &Problem,
        has_box: &impl Fn(usize) -> bool,
        reached: &impl Fn(u16) -> bool,
        base: u32,
        out: &mut Vec<(u16, u8)>,
    ) -> Option<Verdict> {
        let comps = self.comp_ends.len();
        if self.comp_union.len() < comps {
            self.comp_union.resize(comps, 0);
        }
        self.comp_union[..comps].fill(0);
        let mut best: Option<usize> = None;
        for seed in 0..comps {
            if self.comp_union[seed] != 0 {
                continue; // tried already, in a union grown from an earlier area
            }
            let stamp = seed as u32 + 1;
            self.union.clear();
            self.union.push(seed as u32);
            self.comp_union[seed] = stamp;
            let (pi, unfinished) = loop {
                match self.check_union(p, has_box, reached, base, stamp) {
                    Grow::Join(c) if self.union.len() < MAX_UNION => {
                        self.comp_union[c as usize] = stamp;
                        self.union.push(c);
                    }
                    Grow::Join(_) | Grow::Fails => break (false, false),
                    Grow::Pi(unfinished) => break (true, unfinished),
                }
            };
            if !pi || !unfinished {
                continue;
            }
            if self.pushes.is_empty() {
                return Some(Verdict::Deadlock);
            }
            if best.is_none_or(|k| self.pushes.len() < k) {
                best = Some(self.pushes.len());
                out.clear();
                out.extend_from_slice(&self.pushes);
            }
        }
        best.map(|_| Verdict::Only)
    }

    /// The union of areas marked `stamp` (`union`): an area to join, or whether it is a
    /// PI-corral (its inward pushes in `pushes`) with work left.
    fn check_union(
        &mut self,
        p: &Problem,
        has_box: &impl Fn(usize) -> bool,
        reached: &impl Fn(u16) -> bool,
        base: u32,
        stamp: u32,
    ) -> Grow {
        let comps = self.comp_ends.len();
        // The area of a free square this node labelled, if it is one.
        let area_of = |label: &[u32], s: u16| -> Option<usize> {
            let l = label[s as usize];
            (l >= base && ((l - base) as usize) < comps).then(|| (l - base) as usize)
        };
        let bid = self.fresh();
        self.barrier.clear();
        let mut unfinished = false;
        for &c in &self.union {
            let c = c as usize;
            unfinished |= self.comp_goal[c];
            let from = if c == 0 { 0 } else { self.comp_ends[c - 1] };
            for &x in &self.comp_squares[from..self.comp_ends[c]] {
                for d in 0..4 {
                    // The box beside, and the one diagonally across.
                    for y in [p.step(x, d), p.diagonal(x, d)] {
                        if y != NONE && has_box(y as usize) && self.box_mark[y as usize] != bid {
                            self.box_mark[y as usize] = bid;
                            self.barrier.push(y);
                        }
                    }
                }
            }
        }
        unfinished |= self.barrier.iter().any(|&b| !p.is_goal[b as usize]);
        let inside = |label: &[u32], cu: &[u32], s: u16| {
            !has_box(s as usize) && area_of(label, s).is_some_and(|c| cu[c] == stamp)
        };
        self.pushes.clear();
        for &b in &self.barrier {
            for d in 0..4 {
                let (label, mark, cu) = (&self.label, &self.box_mark, &self.comp_union);
                let kind = push_kind(
                    p,
                    b,
                    d,
                    |x| has_box(x as usize) && mark[x as usize] == bid,
                    |x| inside(label, cu, x),
                );
                let Some((s, kind)) = kind else { continue };
                if !has_box(s as usize) && !reached(s) {
                    // The player stands there only from another area: it joins.
                    if let Some(c) = area_of(label, s) {
                        return Grow::Join(c as u32);
                    }
                }
                match kind {
                    Kind::Inward if !reached(s) => return Grow::Fails, // P fails
                    Kind::Inward => self.pushes.push((b, d as u8)),
                    Kind::Out(t) => {
                        if !has_box(t as usize) && !reached(t) {
                            if let Some(c) = area_of(label, t) {
                                return Grow::Join(c as u32);
                            }
                        }
                        return Grow::Fails; // I fails
                    }
                    Kind::Blocked => {}
                }
            }
        }
        Grow::Pi(unfinished)
    }
}

/// Where a push of a barrier box leads.
enum Kind {
    /// Into the corral, onto a live square.
    Inward,
    /// Out of it, onto this square, free or a box not in the barrier.
    Out(u16),
    /// Nowhere: onto a barrier box, or onto a dead square.
    Blocked,
}

/// The push of the barrier box on `b` in direction `d`: the square the player pushes from
/// and where it leads; `None` when it cannot be the first barrier push — no floor on either
/// side, or the player's square a barrier box or inside the corral (it cannot get in before
/// the first barrier push).
fn push_kind(
    p: &Problem,
    b: u16,
    d: usize,
    barrier: impl Fn(u16) -> bool,
    inside: impl Fn(u16) -> bool,
) -> Option<(u16, Kind)> {
    let t = p.step(b, d);
    let s = p.step(b, (d + 2) & 3);
    if t == NONE || s == NONE || barrier(s) || inside(s) {
        return None;
    }
    let kind = if inside(t) {
        if p.dead[t as usize] {
            Kind::Blocked
        } else {
            Kind::Inward
        }
    } else if barrier(t) || p.dead[t as usize] {
        Kind::Blocked
    } else {
        Kind::Out(t)
    };
    Some((s, kind))
}

/// What one check of a union of areas found.
enum Grow {
    /// This area joins the union.
    Join(u32),
    /// It is no PI-corral.
    Fails,
    /// It is a PI-corral; with work left in it or not.
    Pi(bool),
}

#[cfg(test)]
mod tests {
    use super::*;
    use sokoban_core::format::parse_level;

    /// The verdict and pushes (row, column of the box, direction) for the level's start.
    fn analyse(text: &str, merge: bool) -> (Verdict, Vec<(usize, usize, u8)>) {
        let level = parse_level(text).unwrap();
        let p = Problem::new(&level.board);
        let mut boxed = vec![false; p.n];
        for b in level.start.box_squares() {
            boxed[p.compact[b] as usize] = true;
        }
        let mut reached = vec![false; p.n];
        let mut stack = vec![p.compact[level.start.player]];
        reached[stack[0] as usize] = true;
        while let Some(x) = stack.pop() {
            for &y in &p.nbr[x as usize] {
                if y != NONE && !boxed[y as usize] && !reached[y as usize] {
                    reached[y as usize] = true;
                    stack.push(y);
                }
            }
        }
        let mut corrals = Corrals::new(p.n, true);
        corrals.merge = merge;
        let mut out = Vec::new();
        let outside = (0..p.n as u16).filter(|&s| !boxed[s as usize] && !reached[s as usize]);
        let v = corrals.analyse(&p, |s| boxed[s], |s| reached[s as usize], outside, NONE, &mut out);
        let pushes = out
            .iter()
            .map(|&(b, d)| {
                let (r, c) = level.board.row_col(p.board_sq[b as usize]);
                (r, c, d)
            })
            .collect();
        (v, pushes)
    }

    /// Two gaps in a block of boxes, a box between them: neither is a PI-corral alone (the
    /// box between can be pushed from the other), together they are, with the six pushes
    /// into them from the player's side.
    #[test]
    fn two_gaps_make_one_corral_together() {
        let text = "\
#########
#@....  #
# $$$$$ #
# $.$.$ #
# $$$$$ #
#.......#
#########";
        assert_eq!(analyse(text, false).0, Verdict::All);
        let (v, mut pushes) = analyse(text, true);
        assert_eq!(v, Verdict::Only);
        pushes.sort_unstable();
        // Up 0, right 1, down 2, left 3.
        let want = vec![(2, 3, 2), (2, 5, 2), (3, 2, 1), (3, 6, 3), (4, 3, 0), (4, 5, 0)];
        assert_eq!(pushes, want);
    }

    /// A box beside a gap that can be pushed along outside it (here up, from below) spoils
    /// the union too.
    #[test]
    fn a_barrier_box_that_can_leave_sideways_spoils_the_union() {
        let text = "\
#########
#@..    #
#  $$$$ #
# $.$.$ #
#  $$$$ #
#.......#
#########";
        assert_eq!(analyse(text, true).0, Verdict::All);
    }
}
