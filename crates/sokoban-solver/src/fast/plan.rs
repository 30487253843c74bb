//! The packing plan: the order in which to fill the goals, from a backward analysis of the
//! solved position (as in FESS).
//!
//! Start with a box on every goal. Repeatedly take one box out: pull it (the reverse game,
//! the other boxes on their goals standing still) until it reaches a square some box starts
//! on — it "leaves the goal area". Among the boxes that can leave, the one with the fewest
//! pulls goes first: the goals by the way out are emptied first, so they are filled last.
//! When no box can leave, the one that gets farthest from its goal (most squares reached by
//! pulls) goes, and the plan counts that step as relaxed. The packing order is the removal
//! order reversed.
//!
//! Goals next to each other form a cluster; within a cluster the order matters, across
//! clusters it does not. A goal counts as *packed* when it and every goal before it in its
//! cluster's order hold boxes; a box on a goal of the cluster that is not packed is *out of
//! plan* (it stands where the plan wants boxes later, and may block the goals before it).

use sokoban_path::{BoxReach, Cells};

use super::board::Layout;
use crate::problem::{Problem, INF_DIST, NONE};

/// Beyond this much work (goals² × squares) the backward analysis is skipped and the goals
/// are ordered by distance (farthest from the boxes first).
const MAX_WORK: usize = 60_000_000;

/// The packing plan of a level.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Goal numbers (indices into `Problem::goals`) in packing order.
    pub order: Vec<u16>,
    /// The cluster of each goal number.
    pub cluster: Vec<u16>,
    /// Each goal's place in its cluster's order (0: filled first).
    pub rank: Vec<u16>,
    /// Per cluster, its goal numbers in packing order.
    pub clusters: Vec<Vec<u16>>,
    /// Removals that found no way out and were relaxed.
    pub relaxed: usize,
}

/// How far a position follows the plan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Packing {
    /// Goals packed in plan order.
    pub packed: u16,
    /// Boxes on goals that are not packed.
    pub out_of_plan: u16,
}

impl Plan {
    /// The plan for a level whose boxes start on `start` (compact squares).
    pub fn new(p: &Problem, layout: &Layout, start: &[u16]) -> Plan {
        let ng = p.goals.len();
        let (cluster, clusters_unordered) = goal_clusters(p);
        let (order, relaxed) = if ng * ng * p.n > MAX_WORK {
            (distance_order(p, start), 0)
        } else {
            backward_order(p, layout, start)
        };
        let mut clusters: Vec<Vec<u16>> = vec![Vec::new(); clusters_unordered];
        let mut rank = vec![0u16; ng];
        for &j in &order {
            let c = &mut clusters[cluster[j as usize] as usize];
            rank[j as usize] = c.len() as u16;
            c.push(j);
        }
        Plan { order, cluster, rank, clusters, relaxed }
    }

    /// Packed goals and out-of-plan boxes of a position (`occupied[s]` where a box is).
    pub fn packing(&self, p: &Problem, occupied: &[bool]) -> Packing {
        let mut out = Packing::default();
        for c in &self.clusters {
            let mut k = 0;
            while k < c.len() && occupied[p.goals[c[k] as usize] as usize] {
                k += 1;
            }
            let filled = c[k..].iter().filter(|&&j| occupied[p.goals[j as usize] as usize]).count();
            out.packed += k as u16;
            out.out_of_plan += filled as u16;
        }
        out
    }

    /// The next goal to fill in each cluster (`NONE` for a full cluster), for a position.
    pub fn next_goals(&self, p: &Problem, occupied: &[bool], out: &mut Vec<u16>) {
        out.clear();
        for c in &self.clusters {
            let next = c.iter().find(|&&j| !occupied[p.goals[j as usize] as usize]);
            out.push(next.copied().unwrap_or(NONE));
        }
    }
}

/// Goals connected through goals next to each other: the cluster of each goal number, and
/// the number of clusters.
fn goal_clusters(p: &Problem) -> (Vec<u16>, usize) {
    let ng = p.goals.len();
    let mut goal_no = vec![NONE; p.n];
    for (j, &g) in p.goals.iter().enumerate() {
        goal_no[g as usize] = j as u16;
    }
    let mut cluster = vec![NONE; ng];
    let mut count = 0u16;
    let mut stack = Vec::new();
    for j in 0..ng {
        if cluster[j] != NONE {
            continue;
        }
        cluster[j] = count;
        stack.push(j as u16);
        while let Some(k) = stack.pop() {
            let g = p.goals[k as usize];
            for &t in &p.nbr[g as usize] {
                if t != NONE && goal_no[t as usize] != NONE {
                    let m = goal_no[t as usize] as usize;
                    if cluster[m] == NONE {
                        cluster[m] = count;
                        stack.push(m as u16);
                    }
                }
            }
        }
        count += 1;
    }
    (cluster, count as usize)
}

/// Goals ordered by how far they are from the nearest starting box, farthest first.
fn distance_order(p: &Problem, start: &[u16]) -> Vec<u16> {
    let n = p.n;
    let mut far: Vec<(u16, u16)> = (0..p.goals.len())
        .map(|j| {
            let d = start.iter().map(|&s| p.dist[j * n + s as usize]).min().unwrap_or(INF_DIST);
            (d, j as u16)
        })
        .collect();
    far.sort_by_key(|&(d, j)| (std::cmp::Reverse(d), j));
    far.into_iter().map(|(_, j)| j).collect()
}

/// The backward analysis (see the module doc): the packing order and the relaxed steps.
fn backward_order(p: &Problem, layout: &Layout, start: &[u16]) -> (Vec<u16>, usize) {
    let ng = p.goals.len();
    let grid = &layout.grid;
    let mut exit = vec![false; p.n];
    for &s in start {
        if !p.is_goal[s as usize] {
            exit[s as usize] = true;
        }
    }
    if !exit.iter().any(|&e| e) {
        // Every box starts on a goal: any square off the goals is a way out.
        for s in 0..p.n {
            exit[s] = !p.is_goal[s];
        }
    }
    // Cells with a box on every goal still filled. (Pulls never reach a dead square: the
    // pushes back from there would reach the goal.)
    let mut cells: Cells = layout.base.clone();
    let mut filled = vec![true; ng];
    for &g in &p.goals {
        cells.block(grid, layout.pad[g as usize] as usize);
    }
    let mut reach = BoxReach::new(grid);
    let mut removal = Vec::with_capacity(ng);
    let mut relaxed = 0;
    for _ in 0..ng {
        // (pulls to the way out, or u32::MAX) and squares reached, per filled goal.
        let mut best: Option<(u32, usize, u16)> = None; // (pulls, goal)
        let mut fallback: Option<(usize, u16)> = None; // (squares reached, goal)
        for j in 0..ng {
            if !filled[j] {
                continue;
            }
            let g = p.goals[j];
            let gi = layout.pad[g as usize] as usize;
            cells.unblock(grid, gi);
            // The player may be in any area next to the box in the solved position.
            reach.search_pulls(grid, &cells, gi, cells.free_sides(gi));
            cells.block(grid, gi);
            let mut out = u32::MAX;
            let mut squares = 0usize;
            for &node in reach.reached() {
                let s = layout.compact[node as usize / 4];
                if s == NONE {
                    continue;
                }
                squares += 1;
                if exit[s as usize] {
                    out = out.min(reach.pushes(node as usize).unwrap_or(u32::MAX));
                }
            }
            if out != u32::MAX && best.is_none_or(|(o, _, _)| out < o) {
                best = Some((out, squares, j as u16));
            }
            if fallback.is_none_or(|(sq, _)| squares > sq) {
                fallback = Some((squares, j as u16));
            }
        }
        let j = match best {
            Some((_, _, j)) => j,
            None => {
                relaxed += 1;
                fallback.expect("a filled goal is left").1
            }
        };
        filled[j as usize] = false;
        cells.unblock(grid, layout.pad[p.goals[j as usize] as usize] as usize);
        removal.push(j);
    }
    removal.reverse();
    (removal, relaxed)
}
