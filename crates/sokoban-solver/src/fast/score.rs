//! Scores of children, for the scored strategy (as Festival computes them): every move of a
//! position being expanded is scored without building the child — the scorer moves the box
//! in the occupancy it reads and back — so that the advisors and the order of the moves can
//! look at the children. A score holds the goals packed in plan order, the number of areas
//! the boxes cut the player's floor into, the passages between rooms boxes block, boxes out
//! of plan, hotspots (boxes cutting another box off from a goal it could otherwise reach)
//! and, last, the boxes' summed distance to their nearest goals. The HF search toward a
//! backward position scores as Festival's does there: its own hotspots ([`hf_hotspots`]),
//! no room links, no boxes out of plan.

use std::cmp::Reverse;

use super::board::{before_move, State};
use super::features::{label_areas, parts_round, HotBase};
use super::shared::Analysis;
use crate::analysis::bits::PlayerArea;
use crate::analysis::problem::{Problem, NONE};

/// A position's score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Score {
    /// Goals packed in plan order (more is better).
    pub packed: u16,
    /// Areas of free floor (fewer is better; 1 when the player can go everywhere).
    pub regions: u16,
    /// Passages between rooms with a box in them (fewer is better).
    pub blocked_links: u16,
    /// Boxes out of plan (fewer is better).
    pub out_of_plan: u16,
    /// Boxes that cut another box off from a goal (fewer is better).
    pub hotspots: u16,
    /// Summed pushes of the boxes to their nearest goals (smaller is better).
    pub dist: u32,
    /// Ranked by fewer areas first, then more packed (the HF search's order, Festival's:
    /// a target reached in any order needs the player everywhere more than one box more).
    pub regions_first: bool,
}

/// [`Score::rank`]'s type: smaller is better.
pub type Rank = (Reverse<u16>, u16, u16, u16, u16, u32);

impl Score {
    /// The order of scores: more packed, then fewer areas, fewer blocked passages, fewer
    /// out of plan, fewer hotspots, smaller distance (smaller rank is better).
    pub fn rank(&self) -> Rank {
        if self.regions_first {
            return (
                Reverse(u16::MAX - self.regions),
                u16::MAX - self.packed,
                self.blocked_links,
                self.hotspots,
                self.out_of_plan,
                self.dist,
            );
        }
        (
            Reverse(self.packed),
            self.regions,
            self.blocked_links,
            self.out_of_plan,
            self.hotspots,
            self.dist,
        )
    }

    /// [`Score::rank`] packed in 112 bits, the same order (compared as one integer, for the
    /// sort of a node's moves).
    #[inline]
    pub fn rank_bits(&self) -> u128 {
        let (Reverse(a), b, c, d, e, f) = self.rank();
        ((u16::MAX - a) as u128) << 96
            | (b as u128) << 80
            | (c as u128) << 64
            | (d as u128) << 48
            | (e as u128) << 32
            | f as u128
    }

    /// True when `self` is better than `other`.
    #[inline]
    pub fn better(&self, other: &Score) -> bool {
        self.rank() < other.rank()
    }

    /// The feature-space cell: packed, areas, out of plan.
    pub fn cell_key(&self) -> u64 {
        (self.packed as u64) << 32 | (self.regions as u64) << 16 | self.out_of_plan as u64
    }

    /// The rank in 32 bits (distance left out, parts clamped), for ordering moves.
    pub fn order_key(&self) -> u32 {
        let c = |x: u16| x.min(63) as u32;
        if self.regions_first {
            return c(self.regions) << 26
                | (255 - self.packed.min(255) as u32) << 18
                | c(self.blocked_links) << 12
                | c(self.hotspots) << 6
                | c(self.out_of_plan);
        }
        (255 - self.packed.min(255) as u32) << 24
            | c(self.regions) << 18
            | c(self.blocked_links) << 12
            | c(self.out_of_plan) << 6
            | c(self.hotspots)
    }
}

/// Scratch for scoring, and what it knows of the position being expanded.
pub struct Scorer {
    label: Vec<u32>,
    stamp: u32,
    /// Labels of the last area count start here.
    base: u32,
    /// Smallest square of each area of the last count (indexed by label - base).
    area_min: Vec<u16>,
    /// The second smallest square of each area (`NONE` for an area of one square).
    area_second: Vec<u16>,
    stack: Vec<u16>,
    /// Areas of the base position (its last count).
    base_areas: u16,
    /// The player's part, flooded when its smallest square is not known otherwise (its
    /// boxes are the child's).
    player_area: PlayerArea,
    /// How many boxes each box of the base position blocks (hotspots).
    hot_base: HotBase,
    /// Boxes per link, blocked links and summed distance of the base position.
    link_boxes: Vec<u16>,
    base_links: u16,
    base_dist: u32,
    /// The base position's packed steps and boxes out of plan.
    base_packing: (u16, u16),
    /// Scores ranked by areas first ([`Score::regions_first`]).
    regions_first: bool,
    /// Festival's HF features ([`super::fess::Config::hf_hot`]).
    hf_hot: bool,
    /// The base position's HF hotspots, where they are counted.
    base_hf_hot: u16,
}

/// Festival's HF hotspots of the position with `occupied` and `boxes`, the goals of `p`
/// its target squares.
fn hf_hotspots(p: &Problem, occupied: &[bool], boxes: impl Iterator<Item = u16>) -> u16 {
    let occ = |s: u16| occupied[s as usize];
    let boxes_hot: i32 = boxes.map(|b| hf_box_hot(p, occ, b)).sum();
    let goals_shut: i32 = p.goals.iter().map(|&g| hf_goal_shut(p, occ, g)).sum();
    (boxes_hot + goals_shut) as u16
}

/// 1 for a box on `b` off the targets beside a wall or a box (`occ(s)` where a box is).
#[inline]
fn hf_box_hot(p: &Problem, occ: impl Fn(u16) -> bool, b: u16) -> i32 {
    (!p.is_goal[b as usize] && p.nbr[b as usize].iter().any(|&y| y == NONE || occ(y))) as i32
}

/// 1 for an empty target `g` no box can be pushed into: on each side a wall, or a wall or a
/// box beyond the square next to it.
#[inline]
fn hf_goal_shut(p: &Problem, occ: impl Fn(u16) -> bool, g: u16) -> i32 {
    let open = (0..4).any(|d| {
        let y = p.nbr[g as usize][d];
        y != NONE && {
            let z = p.nbr[y as usize][d];
            z != NONE && !occ(z)
        }
    });
    (!occ(g) && !open) as i32
}

/// [`hf_hotspots`] of the child where the box on `from` went to `to` (`occupied` is the
/// child's), from the parent's count `base`: only the moved box, the boxes beside its two
/// squares, and the empty goals on or two squares in line from them can change.
fn hf_hotspots_moved(p: &Problem, occupied: &[bool], base: u16, from: u16, to: u16) -> u16 {
    let child = |s: u16| occupied[s as usize];
    let parent = before_move(occupied, from, to);
    let mut sum = base as i32 - hf_box_hot(p, parent, from) + hf_box_hot(p, child, to);
    let mut seen = [NONE; 8];
    let mut n = 0;
    for &s in &[from, to] {
        for &b in &p.nbr[s as usize] {
            if b == NONE || b == from || b == to || !occupied[b as usize] || seen[..n].contains(&b)
            {
                continue;
            }
            seen[n] = b;
            n += 1;
            sum += hf_box_hot(p, child, b) - hf_box_hot(p, parent, b);
        }
    }
    let mut goals = [NONE; 10];
    let mut n = 0;
    for &s in &[from, to] {
        let in_line = (0..4).map(|d| {
            let y = p.nbr[s as usize][d];
            if y == NONE {
                NONE
            } else {
                p.nbr[y as usize][d]
            }
        });
        for g in std::iter::once(s).chain(in_line) {
            if g == NONE || !p.is_goal[g as usize] || goals[..n].contains(&g) {
                continue;
            }
            goals[n] = g;
            n += 1;
            sum += hf_goal_shut(p, child, g) - hf_goal_shut(p, parent, g);
        }
    }
    sum as u16
}

impl Scorer {
    pub fn new(a: &Analysis, regions_first: bool, hf_hot: bool) -> Scorer {
        let p = &a.p;
        Scorer {
            label: vec![0; p.n],
            stamp: 0,
            base: 1,
            area_min: Vec::new(),
            area_second: Vec::new(),
            stack: Vec::with_capacity(p.n),
            base_areas: 0,
            player_area: PlayerArea::new(p),
            hot_base: HotBase::default(),
            link_boxes: vec![0; a.rooms.links],
            base_links: 0,
            base_dist: 0,
            base_packing: (0, 0),
            regions_first,
            hf_hot,
            base_hf_hot: 0,
        }
    }

    /// Take the position in `st` as the base of the moves to score, and score it.
    pub fn score_base(&mut self, a: &Analysis, st: &State) -> Score {
        let (p, plan) = (&a.p, &a.plan);
        self.link_boxes.fill(0);
        self.base_links = 0;
        self.base_dist = 0;
        for &b in &st.boxes {
            let l = a.rooms.link_of[b as usize];
            if l != NONE {
                if self.link_boxes[l as usize] == 0 {
                    self.base_links += 1;
                }
                self.link_boxes[l as usize] += 1;
            }
            self.base_dist += a.nearest[b as usize].min(1000) as u32;
        }
        let (packed, out_of_plan) = plan.packing(p, &st.occupied, st.boxes.iter().copied());
        self.base_packing = (packed, out_of_plan);
        self.base_areas = self.count_areas(p, &st.occupied);
        self.player_area.set_boxes(&st.boxes);
        if self.hf_hot {
            self.base_hf_hot = hf_hotspots(p, &st.occupied, st.boxes.iter().copied());
            return Score {
                packed,
                regions: self.base_areas,
                hotspots: self.base_hf_hot,
                dist: self.base_dist,
                regions_first: self.regions_first,
                ..Score::default()
            };
        }
        Score {
            packed,
            regions: self.base_areas,
            blocked_links: self.base_links,
            out_of_plan,
            hotspots: a.hotspots.as_ref().map_or(0, |h| h.base(p, &st.boxes, &mut self.hot_base)),
            dist: self.base_dist,
            regions_first: self.regions_first,
        }
    }

    /// Score the child of the base position where the box on `from` went to `to` (the box
    /// search's side groups of `to`: [`super::board::Move::groups`]), the player ending on
    /// `player`; also returns the smallest square of the player's area there.
    pub fn score_move(
        &mut self,
        a: &Analysis,
        st: &mut State,
        from: u16,
        to: u16,
        to_groups: u8,
        player: u16,
    ) -> (Score, u16) {
        let (p, plan) = (&a.p, &a.plan);
        st.occupied[from as usize] = false;
        st.occupied[to as usize] = true;
        self.player_area.set_box(from, false);
        self.player_area.set_box(to, true);
        let moved = st.boxes.iter().map(|&b| if b == from { to } else { b });
        let (packed, out_of_plan) =
            plan.packing_moved(p, &st.occupied, moved, self.base_packing, from, to);
        let (regions, norm) = self.child_areas(p, &st.occupied, from, to, to_groups, player);
        let hf_hot = self.hf_hot.then(|| {
            let hot = hf_hotspots_moved(p, &st.occupied, self.base_hf_hot, from, to);
            debug_assert_eq!(hot, {
                let moved = st.boxes.iter().map(|&b| if b == from { to } else { b });
                hf_hotspots(p, &st.occupied, moved)
            });
            hot
        });
        st.occupied[to as usize] = false;
        st.occupied[from as usize] = true;
        self.player_area.set_box(to, false);
        self.player_area.set_box(from, true);
        let dist = self.base_dist - a.nearest[from as usize].min(1000) as u32
            + a.nearest[to as usize].min(1000) as u32;
        // Festival's HF features rank no room links: they are not counted.
        if let Some(hotspots) = hf_hot {
            let regions_first = self.regions_first;
            let score =
                Score { packed, regions, hotspots, dist, regions_first, ..Score::default() };
            return (score, norm);
        }
        let (lf, lt) = (a.rooms.link_of[from as usize], a.rooms.link_of[to as usize]);
        let mut links = self.base_links;
        if lf != lt {
            if lf != NONE && self.link_boxes[lf as usize] == 1 {
                links -= 1;
            }
            if lt != NONE && self.link_boxes[lt as usize] == 0 {
                links += 1;
            }
        }
        let score = Score {
            packed,
            regions,
            blocked_links: links,
            out_of_plan,
            hotspots: a.hotspots.as_ref().map_or(0, |h| {
                let hot = h.count_moved(p, &self.hot_base, from, to);
                debug_assert_eq!(hot, h.count(p, &st.boxes, from, to));
                hot
            }),
            dist,
            regions_first: self.regions_first,
        };
        (score, norm)
    }

    /// The areas of the child of the base position where the box on `from` went to `to`
    /// (`occupied` is the child's), and the smallest square of the area of `player` — from
    /// the base labels: freeing `from` joins the areas around it; filling `to` keeps the
    /// area count when the free squares around `to` stay joined by the ring of its eight
    /// neighbours, and otherwise splits it in as many parts as the box search's side groups
    /// of `to` (`to_groups`) that its free sides fall in.
    fn child_areas(
        &mut self,
        p: &Problem,
        occupied: &[bool],
        from: u16,
        to: u16,
        to_groups: u8,
        player: u16,
    ) -> (u16, u16) {
        let free = |y: u16| y != NONE && !occupied[y as usize];
        // Freeing `from`: the base areas around it (`to` was free in the base) join.
        let mut joined = [u32::MAX; 4];
        let mut n_joined = 0;
        let mut joined_min = from;
        for &y in &p.nbr[from as usize] {
            if y == NONE || (y != to && occupied[y as usize]) {
                continue;
            }
            let l = self.label[y as usize] - self.base;
            if !joined[..n_joined].contains(&l) {
                joined[n_joined] = l;
                n_joined += 1;
                joined_min = joined_min.min(self.area_min[l as usize]);
            }
        }
        let areas = self.base_areas as usize + 1 - n_joined;
        // The player's area before `to` is filled (the player stands next to `to`): the
        // joined one, or its own base area.
        let player_joined = player == from
            || joined[..n_joined].contains(&(self.label[player as usize] - self.base));
        let x_min = if player_joined {
            joined_min
        } else {
            self.area_min[(self.label[player as usize] - self.base) as usize]
        };
        // Where filling `to` splits nothing and `to` was the smallest square, the next
        // smallest takes its place: of `to`'s base area, or of the areas joined through
        // `from` (and `from` itself).
        let next_min = |sc: &Scorer| {
            let l_to = sc.label[to as usize] - sc.base;
            let mut m = sc.area_second[l_to as usize];
            if player_joined {
                m = m.min(from);
                for &l in joined[..n_joined].iter().filter(|&&l| l != l_to) {
                    m = m.min(sc.area_min[l as usize]);
                }
            }
            m
        };
        // Filling `to` splits its area where the ring of its eight neighbours does not
        // keep its free sides joined: as many parts as the side groups they fall in, one
        // of them the player's.
        let parts = parts_round(p, to, free, to_groups);
        // Split, the player's part's smallest square is not known: flood it, up to the
        // smallest square of the area it was split from (where reached, that one).
        let min = if parts > 1 {
            let least = if x_min == to { NONE } else { x_min };
            self.player_area.flood_min(p, occupied, player, least)
        } else if x_min != to {
            x_min
        } else {
            next_min(self)
        };
        let r = ((areas + parts - 1) as u16, min);
        debug_assert_eq!(r, labelled_areas(p, occupied, player), "{from} -> {to}");
        r
    }

    /// Number of areas of free floor; labels them and notes each area's smallest square.
    fn count_areas(&mut self, p: &Problem, occupied: &[bool]) -> u16 {
        if self.stamp > u32::MAX - p.n as u32 - 2 {
            self.label.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        let base = self.stamp;
        self.base = base;
        self.area_min.clear();
        let area_min = &mut self.area_min;
        let count =
            label_areas(p, occupied, &mut self.label, base, &mut self.stack, |s| area_min.push(s));
        self.stamp = base + count;
        self.area_second.clear();
        self.area_second.resize(count as usize, NONE);
        let mut left = count;
        for s in 0..p.n {
            if left == 0 {
                break;
            }
            if !occupied[s] {
                let l = (self.label[s] - base) as usize;
                if s as u16 != self.area_min[l] && self.area_second[l] == NONE {
                    self.area_second[l] = s as u16;
                    left -= 1;
                }
            }
        }
        self.area_min.len() as u16
    }

    /// The area of free square `s` in the last count, `None` for a square with a box.
    pub fn area_of(&self, s: u16) -> Option<u32> {
        let l = self.label[s as usize];
        (l >= self.base).then_some(l)
    }
}

/// The number of areas of free floor and the smallest square of the area of `player`, by
/// labelling the whole floor afresh: the check of [`Scorer::child_areas`] in debug builds.
fn labelled_areas(p: &Problem, occupied: &[bool], player: u16) -> (u16, u16) {
    let (mut label, mut stack, mut mins) = (vec![0; p.n], Vec::new(), Vec::new());
    let count = label_areas(p, occupied, &mut label, 1, &mut stack, |s| mins.push(s));
    (count as u16, mins[(label[player as usize] - 1) as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ranked areas first, a position the player can walk all over beats one with a box
    /// more in place (the HF search); ranked as the plan's strategies rank, the other way.
    #[test]
    fn regions_first_puts_fewer_areas_before_more_packed() {
        let one_area = Score { packed: 3, regions: 1, dist: 9, ..Score::default() };
        let two_areas = Score { packed: 4, regions: 2, dist: 1, ..Score::default() };
        assert!(two_areas.better(&one_area));
        assert!(two_areas.order_key() < one_area.order_key());
        let first = |s: Score| Score { regions_first: true, ..s };
        assert!(first(one_area).better(&first(two_areas)));
        assert!(first(one_area).order_key() < first(two_areas).order_key());
        let more = Score { packed: 5, ..one_area };
        assert!(first(more).better(&first(one_area)), "then more packed");
    }

    /// Festival's HF hotspots: a box off the targets beside a wall or a box, and an empty
    /// target no box can be pushed into; boxes on targets and open ground count nothing.
    #[test]
    fn hf_hotspots_count_boxes_against_walls_and_closed_targets() {
        let level =
            sokoban_core::format::parse_level("#######\n#. $  #\n#  @  #\n#$   .#\n#######")
                .unwrap();
        let p = Problem::new(&level.board);
        let sq = |r, c| p.compact[level.board.square(r, c)];
        let count = |boxes: &[u16]| {
            let mut occupied = vec![false; p.n];
            boxes.iter().for_each(|&b| occupied[b as usize] = true);
            hf_hotspots(&p, &occupied, boxes.iter().copied())
        };
        // (1,3) and (3,1) stand against walls; the target (1,1) is shut by them.
        assert_eq!(count(&[sq(1, 3), sq(3, 1)]), 3);
        // A box in the open and one on a target: nothing.
        assert_eq!(count(&[sq(2, 2), sq(3, 5)]), 0);
    }
}
