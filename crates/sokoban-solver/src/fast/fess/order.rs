//! The moves of a position of the feature space search and their order: generated (with
//! the corral and stop rules), then nominated by the advisors (rules strategy) or scored
//! child by child (scored strategy), and the ranks its cells are filed by.

use std::cmp::Reverse;
use std::sync::Arc;

use super::Fess;
use crate::analysis::problem::{Problem, NONE};
use crate::fast::back::Backward;
use crate::fast::board::Move;
use crate::fast::features::{parts_round, Features};
use crate::fast::score::{Rank, Score};
use crate::work::{self, Op};

/// Moves of boxes next to two player areas or more that the area advisor tries.
const AREA_TRIES: usize = 24;

/// Number of advisors (rules strategy): packer (or approacher), area joiner, passage
/// opener, out-of-plan remover.
const ADVISORS: usize = 4;

impl Fess {
    /// The macro moves of the position in the state into `move_buf`: with a PI-corral, only
    /// its barrier boxes' when the strategy uses the corral rule ([`Config::corral_moves`](super::Config::corral_moves)).
    fn generate_moves(&mut self) {
        let a = Arc::clone(&self.a);
        let p = &a.p;
        self.move_buf.clear();
        if self.config.corral_moves
            && self.dead.corral_boxes(p, &self.st, &mut self.corral_only)
            && (a.exp.park_corral || !self.corral_parked(p))
        {
            self.stats.corral_nodes += 1;
            self.gen.generate_only(
                p,
                &a.layout,
                &mut self.st,
                &self.corral_only,
                &mut self.move_buf,
            );
        } else {
            self.gen.generate(p, &a.layout, &mut self.st, false, &mut self.move_buf);
        }
        if let Some(stops) = a.stops.as_ref().filter(|_| self.stops) {
            self.stop_area.set_boxes(&self.st.boxes);
            let (st, area) = (&mut self.st, &mut self.stop_area);
            self.move_buf.retain(|m| {
                let from = st.boxes[m.box_i as usize];
                let player = p.nbr[m.to as usize][m.side as usize];
                !stops.prunes(p, &mut st.occupied, area, from, m.to, player)
            });
        }
    }

    /// The corral the corral rule found (`corral_only`) is held by a box the plan parked
    /// there on a step already done: the rule would have that box pushed now, undoing the
    /// plan, which moves it on later — so the rule gives way (XSokoban 88: the parked plug
    /// of a corridor, sealed once the goals beside it fill; solved at 152k moves instead of
    /// not at 300k; bench/decisions.md).
    fn corral_parked(&self, p: &Problem) -> bool {
        let plan = &self.a.plan;
        if plan.parking_steps() == 0 {
            return false;
        }
        let done = plan.packed(p, &self.st.occupied);
        self.st.boxes.iter().any(|&b| self.corral_only[b as usize] && plan.parks_before(b, done))
    }

    /// The scored strategy's moves of the position in the state, in the order they are
    /// tried, into `order_moves` (with their children's order keys in `order_keys`), the
    /// children seen before left out (with `mask`, the position's marks in `masks`, those
    /// it marks instead: the same order again); returns the position's own score and how
    /// many moves lead (the advisors' nominations).
    /// With a `perimeter`, the first new child found in it is kept in `self.ahead`, for
    /// the caller to make at once. Only the first `sorted` moves are put in order; the
    /// rest follow them in no order.
    pub(super) fn scored_moves(
        &mut self,
        mask: Option<usize>,
        perimeter: Option<&Backward>,
        sorted: usize,
    ) -> (Score, u32) {
        let a = Arc::clone(&self.a);
        let p = &a.p;
        let own = self.scorer.score_base(&a, &self.st);
        self.generate_moves();
        self.cands.clear();
        self.child_keys.clear();
        self.mask_buf.clear();
        self.mask_buf.resize(self.move_buf.len().div_ceil(64), 0);
        for k in 0..self.move_buf.len() {
            let m = self.move_buf[k];
            if let Some(at) = mask {
                if self.masks[at + k / 64] >> (k % 64) & 1 != 0 {
                    continue;
                }
            }
            let from = self.st.boxes[m.box_i as usize];
            let player = p.nbr[m.to as usize][m.side as usize];
            let (score, norm) =
                self.scorer.score_move(&a, &mut self.st, from, m.to, m.groups, player);
            if mask.is_none() {
                let child_key = self.st.hash
                    ^ p.z_box[from as usize]
                    ^ p.z_box[m.to as usize]
                    ^ p.z_player[norm as usize];
                self.child_keys.push(child_key);
            }
            self.cands.push((m, score));
        }
        if mask.is_none() {
            // Probed back to back once all are scored, the stores' cache misses overlap:
            // ×0.965 at 1,500,000 moves (bench/decisions.md). Without a mask no move was
            // left out, so candidate `k` is move `k`.
            let mut kept = 0;
            for k in 0..self.cands.len() {
                let child_key = self.child_keys[k];
                if self.seen.contains_key(&child_key) {
                    self.mask_buf[k / 64] |= 1 << (k % 64);
                    continue;
                }
                if self.ahead.is_none() && perimeter.is_some_and(|b| b.lookup(child_key).is_some())
                {
                    self.ahead = Some(self.cands[k].0.pack());
                }
                self.cands.swap(kept, k);
                kept += 1;
            }
            self.cands.truncate(kept);
        }
        self.stats.scored += self.move_buf.len() as u64;
        work::add(Op::Child, self.move_buf.len() as u64);
        let n = self.cands.len();
        let mut advised = [usize::MAX; 8];
        if self.config.advisors && n > 0 {
            advised[..5].copy_from_slice(&scored_advice(&own, &self.cands));
            if a.exp.opener && advised[0] == usize::MAX {
                advised[5] = self.opener(&own);
            }
            if a.exp.explorer {
                let k = self.explorer(&own);
                advised[6] = if advised[..6].contains(&k) { usize::MAX } else { k };
            }
        }
        // With two moves or fewer, the best one weighs nothing (Festival's rule).
        if n > 0 && n <= 2 && advised.iter().all(|&k| k == usize::MAX) {
            advised[7] = (0..n).min_by_key(|&k| self.cands[k].1.rank()).unwrap_or(0);
        }
        self.scored_order.clear();
        for (k, (m, sc)) in self.cands.iter().enumerate() {
            let weight = !advised.contains(&k) as u128;
            let tail = (m.pushes as u64) << 32 | k as u64;
            self.scored_order.push((weight << 112 | sc.rank_bits(), tail));
        }
        // Sorted as (weight, rank, pushes, index): two integers compare faster than the tuple.
        sort_first(&mut self.scored_order, sorted);
        self.order_moves.clear();
        self.order_keys.clear();
        for &(_, tail) in &self.scored_order {
            let (m, sc) = &self.cands[tail as u32 as usize];
            self.order_moves.push(m.pack());
            self.order_keys.push(sc.order_key());
        }
        let n_adv = advised.iter().filter(|&&k| k != usize::MAX).count() as u32;
        (own, n_adv)
    }

    /// The opener (Festival's): where no child packs more, the box nearest the square the
    /// plan fills next (by floor distance, boxes ignored) moved no nearer to it, without
    /// more player areas or blocked passages — ties to the move that takes it farthest.
    /// It clears the way for the next step rather than waiting for a move that packs
    /// (index into `cands`, `usize::MAX` for none). Called only where the packer advises
    /// nothing, i.e. no child packs more.
    fn opener(&mut self, own: &Score) -> usize {
        let a = Arc::clone(&self.a);
        let p = &a.p;
        a.plan.next_goals(p, &self.st.occupied, &mut self.next_goals);
        self.targets.clear();
        self.targets.extend(a.plan.next_squares(p, &self.next_goals));
        if self.targets.is_empty() {
            return usize::MAX;
        }
        for k in 0..self.targets.len() {
            let t = self.targets[k] as usize;
            if self.floor_rows[t].is_empty() {
                self.floor_rows[t] = floor_distances(p, t as u16);
            }
        }
        let rows = &self.floor_rows;
        let dist = |s: u16| self.targets.iter().map(|&t| rows[t as usize][s as usize]).min();
        // Nearest box first, then farthest move, then the first such candidate.
        let keyed = self.cands.iter().enumerate().filter_map(|(k, (m, s))| {
            let worse = s.packed < own.packed
                || s.regions > own.regions
                || s.blocked_links > own.blocked_links;
            let from = self.st.boxes[m.box_i as usize];
            let (d1, d2) = (dist(from)?, dist(m.to)?);
            (!worse && d2 >= d1 && d1 != u16::MAX).then_some((d1, Reverse(d2), k))
        });
        keyed.min().map_or(usize::MAX, |b| b.2)
    }

    /// The explorer (Festival's): the best-scored child, packing no fewer, whose move can
    /// be undone on an empty board and lets the player reach a side of another box it
    /// could not reach before, from which that box can be pushed — a move that opens new
    /// moves without committing a box (index into `cands`, `usize::MAX` for none).
    fn explorer(&mut self, own: &Score) -> usize {
        let a = Arc::clone(&self.a);
        let p = &a.p;
        self.explore_order.clear();
        self.explore_order.extend(
            (0..self.cands.len())
                .filter(|&k| self.cands[k].1.packed >= own.packed)
                .map(|k| (self.cands[k].1.rank(), k as u32)),
        );
        if self.explore_order.is_empty() {
            return usize::MAX;
        }
        self.explore_order.sort_unstable();
        self.flood.set_boxes(&self.st.boxes);
        self.flood.flood(p, &self.st.occupied, self.st.player);
        self.reach_before.resize(self.flood.area_words(p), 0);
        self.flood.area_bits(&mut self.reach_before);
        for i in 0..self.explore_order.len() {
            let k = self.explore_order[i].1 as usize;
            let m = self.cands[k].0;
            let from = self.st.boxes[m.box_i as usize];
            if self.box_rows[m.to as usize].is_empty() {
                self.box_rows[m.to as usize] = box_reach(p, m.to);
            }
            if !self.box_rows[m.to as usize][from as usize] {
                continue;
            }
            let occ = &mut self.st.occupied;
            occ[from as usize] = false;
            occ[m.to as usize] = true;
            self.flood.set_box(from, false);
            self.flood.set_box(m.to, true);
            self.flood.flood(p, occ, p.nbr[m.to as usize][m.side as usize]);
            let mut opens = false;
            'boxes: for &b in &self.st.boxes {
                if b == from {
                    continue;
                }
                for d in 0..4 {
                    let (side, ahead) = (p.nbr[b as usize][d], p.nbr[b as usize][(d + 2) % 4]);
                    if side == NONE || ahead == NONE || occ[ahead as usize] || occ[side as usize] {
                        continue;
                    }
                    if side == from || self.flood.area_has(&self.reach_before, side) {
                        continue;
                    }
                    if self.flood.reached(side) {
                        opens = true;
                        break 'boxes;
                    }
                }
            }
            occ[m.to as usize] = false;
            occ[from as usize] = true;
            self.flood.set_box(m.to, false);
            self.flood.set_box(from, true);
            if opens {
                return k;
            }
        }
        usize::MAX
    }

    /// The moves of the position in the state, in the order they are tried, into
    /// `order_moves`; returns its features and how many moves lead (the advisors'
    /// nominations). Only the first `sorted` moves are put in order, as in
    /// [`Fess::scored_moves`].
    pub(super) fn ordered_moves(&mut self, sorted: usize) -> (Features, u32) {
        let a = Arc::clone(&self.a);
        let p = &a.p;
        let f = self.feats.features(p, &a.plan, &a.rooms, &self.st.boxes, &self.st.occupied);
        self.generate_moves();
        let n_moves = self.move_buf.len();
        // Advisors: indices into move_buf.
        let mut advised = [usize::MAX; ADVISORS];
        if self.config.advisors && n_moves > 0 {
            advised = self.advise(f); // finds the plan's next goals too
        } else {
            self.a.plan.next_goals(p, &self.st.occupied, &mut self.next_goals);
        }
        // The rest by how much closer they bring their box to a goal, then fewest pushes; a
        // box taken off a packed goal last.
        self.order.clear();
        for (k, m) in self.move_buf.iter().enumerate() {
            if advised.contains(&k) {
                continue;
            }
            let from = self.st.boxes[m.box_i as usize];
            let gain = a.nearest[m.to as usize] as i32 - a.nearest[from as usize] as i32;
            let packed = self.is_packed(from) as i32;
            let score = packed * 100_000 + gain * 256 + m.pushes.min(255) as i32;
            self.order.push((score, k as u32));
        }
        sort_first(&mut self.order, sorted);
        self.order_moves.clear();
        let mut n_adv = 0;
        for &k in advised.iter().filter(|&&k| k != usize::MAX) {
            self.order_moves.push(self.move_buf[k].pack());
            n_adv += 1;
        }
        for &(_, k) in &self.order {
            self.order_moves.push(self.move_buf[k as usize].pack());
        }
        (f, n_adv)
    }

    /// True when the box on `s` stands on a goal packed in plan order (after
    /// `plan.next_goals` for the position).
    fn is_packed(&self, s: u16) -> bool {
        self.a.plan.box_packed(s, self.a.goal_no[s as usize], &self.next_goals)
    }

    /// The advisors' nominations (indices into `move_buf`, `usize::MAX` for none): the
    /// packer (or, when it has no move and nothing is packed, the approacher), the area
    /// joiner, the passage opener, the out-of-plan remover.
    fn advise(&mut self, f: Features) -> [usize; ADVISORS] {
        let a = Arc::clone(&self.a);
        let p = &a.p;
        let plan = &a.plan;
        let mut out = [usize::MAX; ADVISORS];
        plan.next_goals(p, &self.st.occupied, &mut self.next_goals);
        // Packer: a box (not packed itself) onto the next goal of a cluster, fewest pushes.
        self.mark_stamp += 1;
        for t in plan.next_squares(p, &self.next_goals) {
            self.mark[t as usize] = self.mark_stamp;
        }
        let mut best: Option<(u16, usize)> = None;
        for (k, m) in self.move_buf.iter().enumerate() {
            if self.mark[m.to as usize] == self.mark_stamp {
                let from = self.st.boxes[m.box_i as usize];
                if !self.is_packed(from) && best.is_none_or(|(pu, _)| m.pushes < pu) {
                    best = Some((m.pushes, k));
                }
            }
        }
        if let Some((_, k)) = best {
            out[0] = k;
        } else if f.packed == 0 && !a.exp.no_approach {
            // Approacher, while nothing is packed: no box reaches the first goal; the move
            // that brings a box nearest to it (push distance on the empty board), nearer
            // than the box was. XSokoban 39, where a box must be worked round a sealed
            // pocket before the goal room can be entered, solved in 10 s (never without).
            let next = plan.next_squares(p, &self.next_goals).next();
            if let Some(j) = next.map(|t| a.goal_no[t as usize]).filter(|&j| j != NONE) {
                let d = &p.dist[j as usize * p.n..(j as usize + 1) * p.n];
                let boxes = &self.st.boxes;
                let moves = self.move_buf.iter().map(|m| (boxes[m.box_i as usize], m.to, m.pushes));
                if let Some(k) = approach(d, moves) {
                    out[0] = k;
                }
            }
        }
        // Area joiner: of the boxes next to two areas or more, the move that leaves the
        // fewest areas (fewer than now).
        if f.regions > 1 && self.config.area_joiner && !a.exp.no_join {
            out[1] = self.join_areas(f.regions);
        }
        // Passage opener: a box alone in a passage, moved off every passage.
        if f.blocked_links > 0 && !a.exp.no_link {
            self.feats.blocked_links(&a.rooms, &self.st.boxes);
            let mut best: Option<(u16, usize)> = None;
            for (k, m) in self.move_buf.iter().enumerate() {
                let from = self.st.boxes[m.box_i as usize];
                let l = a.rooms.link_of[from as usize];
                if l == NONE || self.feats.boxes_on_link(l) != 1 {
                    continue;
                }
                if a.rooms.link_of[m.to as usize] == NONE
                    && best.is_none_or(|(pu, _)| m.pushes < pu)
                {
                    best = Some((m.pushes, k));
                }
            }
            if let Some((_, k)) = best {
                out[2] = k;
            }
        }
        // Out-of-plan remover: a box out of plan (on a goal past its cluster's packed ones,
        // or in the zone the next goals of the plan shut in), moved out of it.
        if f.out_of_plan > 0 && !a.exp.no_out_of_plan {
            let mut best: Option<(u16, usize)> = None;
            for (k, m) in self.move_buf.iter().enumerate() {
                let from = self.st.boxes[m.box_i as usize];
                let (out_now, out_after) = if plan.per_cluster {
                    let on = a.goal_no[from as usize] != NONE && !self.is_packed(from);
                    (on, a.goal_no[m.to as usize] != NONE)
                } else {
                    (plan.out_of_plan_at(f.packed, from), plan.out_of_plan_at(f.packed, m.to))
                };
                if out_now && !out_after && best.is_none_or(|(pu, _)| m.pushes < pu) {
                    best = Some((m.pushes, k));
                }
            }
            if let Some((_, k)) = best {
                out[3] = k;
            }
        }
        // One nomination per move.
        for i in 1..ADVISORS {
            if out[..i].contains(&out[i]) {
                out[i] = usize::MAX;
            }
        }
        out
    }

    /// The area joiner's move (see [`Fess::advise`]), `usize::MAX` for none.
    fn join_areas(&mut self, regions: u16) -> usize {
        let p = Arc::clone(&self.a.p);
        // The labels of the areas are those of the feature computation just made.
        self.order.clear();
        for (k, m) in self.move_buf.iter().enumerate() {
            let from = self.st.boxes[m.box_i as usize];
            let mut labels = [u32::MAX; 4];
            let mut distinct = 0;
            for &t in &p.nbr[from as usize] {
                if t == NONE {
                    continue;
                }
                if let Some(l) = self.feats.area_of(t) {
                    if !labels.contains(&l) {
                        labels[distinct] = l;
                        distinct += 1;
                    }
                }
            }
            if distinct >= 2 {
                self.order.push((m.pushes as i32, k as u32));
            }
        }
        self.order.sort_unstable();
        self.order.truncate(AREA_TRIES);
        let mut best: Option<(u16, usize)> = None;
        for i in 0..self.order.len() {
            let k = self.order[i].1 as usize;
            let m = self.move_buf[k];
            let from = self.st.boxes[m.box_i as usize];
            let r = self.regions_after(&p, regions, from, m.to, m.groups);
            if r < regions && best.is_none_or(|(br, _)| r < br) {
                best = Some((r, k));
            }
        }
        best.map_or(usize::MAX, |(_, k)| k)
    }

    /// The number of player areas after the box on `from` goes to `to`, from the count
    /// `regions` (with its labels) of the position now: the areas around `from` merge;
    /// `to` may cut its area in parts ([`parts_round`]: the ring round it, else the move's
    /// side groups of `to`).
    fn regions_after(&self, p: &Problem, regions: u16, from: u16, to: u16, groups: u8) -> u16 {
        if from == to {
            return regions; // the box came back, the player went round it
        }
        let r = self.regions_after_inner(p, regions, from, to, groups);
        #[cfg(debug_assertions)]
        {
            let mut occ = self.st.occupied.clone();
            occ[from as usize] = false;
            occ[to as usize] = true;
            let mut seen = vec![false; p.n];
            let mut want = 0;
            for s0 in 0..p.n {
                if occ[s0] || seen[s0] {
                    continue;
                }
                want += 1;
                let mut stack = vec![s0 as u16];
                seen[s0] = true;
                while let Some(x) = stack.pop() {
                    for &y in &p.nbr[x as usize] {
                        if y != NONE && !occ[y as usize] && !seen[y as usize] {
                            seen[y as usize] = true;
                            stack.push(y);
                        }
                    }
                }
            }
            debug_assert_eq!(r, want, "areas after moving {from} to {to}");
        }
        r
    }

    fn regions_after_inner(
        &self,
        p: &Problem,
        regions: u16,
        from: u16,
        to: u16,
        groups: u8,
    ) -> u16 {
        let mut labels = [u32::MAX; 4];
        let mut k = 0;
        for &t in &p.nbr[from as usize] {
            if t != NONE {
                if let Some(l) = self.feats.area_of(t) {
                    if !labels[..k].contains(&l) {
                        labels[k] = l;
                        k += 1;
                    }
                }
            }
        }
        let mut r = regions as i32 + if k == 0 { 1 } else { 1 - k as i32 };
        // Free after the move: not a box, or `from`; never `to`. Filling `to` may cut its
        // area in parts (none where `to` was an area of its own).
        let occ = &self.st.occupied;
        let free = |s: u16| s != NONE && s != to && (s == from || !occ[s as usize]);
        r += parts_round(p, to, free, groups) as i32 - 1;
        r.max(1) as u16
    }
}

/// The approacher's move (index into `moves`: box square, target square, pushes): the one
/// that brings a box nearest to the goal whose push distances are `d`, nearer than the
/// box was (fewest pushes among equals); `None` when no move brings a box nearer.
pub(super) fn approach(d: &[u16], moves: impl Iterator<Item = (u16, u16, u16)>) -> Option<usize> {
    let mut best: Option<(u16, u16, usize)> = None;
    for (k, (from, to, pushes)) in moves.enumerate() {
        let (df, dt) = (d[from as usize], d[to as usize]);
        if dt < df && best.is_none_or(|(bd, bp, _)| (dt, pushes) < (bd, bp)) {
            best = Some((dt, pushes, k));
        }
    }
    best.map(|(_, _, k)| k)
}

/// A cell's or position's rank from its features (rules strategy): more packed, fewer out
/// of plan, fewer areas, fewer blocked passages (smaller is better).
pub(super) fn features_rank(f: &Features) -> u64 {
    ((u16::MAX - f.packed) as u64) << 48
        | (f.out_of_plan as u64) << 32
        | (f.regions as u64) << 16
        | f.blocked_links as u64
}

/// Put the first `sorted` items of `v` in order, the rest after them in no order: only a
/// node's first block of moves is needed at once, the rest are generated and sorted again
/// when a refill needs them. Items are distinct, so the block is the full sort's.
fn sort_first<T: Ord + Copy + std::fmt::Debug>(v: &mut [T], sorted: usize) {
    if sorted >= v.len().saturating_sub(1) {
        v.sort_unstable();
        return;
    }
    #[cfg(debug_assertions)]
    let mut full = v.to_vec();
    v.select_nth_unstable(sorted);
    v[..sorted].sort_unstable();
    #[cfg(debug_assertions)]
    {
        full.sort_unstable();
        debug_assert_eq!(&full[..sorted], &v[..sorted]);
    }
}

/// The same from a score (scored strategy): more packed, fewer areas, fewer blocked
/// passages, fewer out of plan.
pub(super) fn score_rank(s: &Score) -> u64 {
    if s.regions_first {
        return (s.regions as u64) << 48
            | ((u16::MAX - s.packed) as u64) << 32
            | (s.blocked_links as u64) << 16
            | s.out_of_plan as u64;
    }
    ((u16::MAX - s.packed) as u64) << 48
        | (s.regions as u64) << 32
        | (s.blocked_links as u64) << 16
        | s.out_of_plan as u64
}

/// Steps over the floor from `t` to every square, boxes ignored (`u16::MAX`: none).
pub(super) fn floor_distances(p: &Problem, t: u16) -> Vec<u16> {
    let mut d = vec![u16::MAX; p.n];
    let mut queue = std::collections::VecDeque::from([t]);
    d[t as usize] = 0;
    while let Some(s) = queue.pop_front() {
        for &q in &p.nbr[s as usize] {
            if q != NONE && d[q as usize] == u16::MAX {
                d[q as usize] = d[s as usize] + 1;
                queue.push_back(q);
            }
        }
    }
    d
}

/// The squares a box on `t` can be pushed to on an empty board, the player starting on
/// any side of it.
pub(super) fn box_reach(p: &Problem, t: u16) -> Vec<bool> {
    let classes =
        p.side_class[t as usize].iter().filter(|&&c| c != u8::MAX).fold(0, |m, &c| m | 1 << c);
    p.push_reach(t, classes).iter().map(|&d| d != u16::MAX).collect()
}

/// The scored strategy's advisors (indices into `cands`, `usize::MAX` for none): the best
/// child (by score) that packs more goals; of those that pack no fewer, the best with
/// fewer player areas, fewer blocked passages, fewer hotspots, and fewer boxes out of plan
/// without more areas or blocked passages.
fn scored_advice(own: &Score, cands: &[(Move, Score)]) -> [usize; 5] {
    let mut out = [usize::MAX; 5];
    let mut best: [Option<Rank>; 5] = [None; 5];
    for (k, (_, s)) in cands.iter().enumerate() {
        if s.packed < own.packed {
            continue;
        }
        let wants = [
            s.packed > own.packed,
            s.regions < own.regions,
            s.blocked_links < own.blocked_links,
            s.hotspots < own.hotspots,
            s.out_of_plan < own.out_of_plan
                && s.regions <= own.regions
                && s.blocked_links <= own.blocked_links,
        ];
        let r = s.rank();
        for i in 0..5 {
            if wants[i] && best[i].is_none_or(|b| r < b) {
                best[i] = Some(r);
                out[i] = k;
            }
        }
    }
    for i in 1..5 {
        if out[..i].contains(&out[i]) {
            out[i] = usize::MAX;
        }
    }
    out
}
