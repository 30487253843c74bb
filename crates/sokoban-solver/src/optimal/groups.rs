//! A second lower bound from groups of boxes solved on their own.
//!
//! Split the boxes into groups once, at the start. In any solution, the pushes of one
//! group's boxes, in their order, solve that group alone: with the other boxes removed
//! every such push is still legal (the player reaches more, a square free before is free)
//! and the group ends on goals. The pushes of different groups are different pushes, so the
//! sum over groups of the fewest pushes that solve each group alone (with every goal
//! available) is a lower bound on the pushes of the whole position. It misses what the
//! matching sees (two groups wanting the same goals) and sees what the matching misses
//! (boxes of one group in each other's way), so the search takes the larger of the two.
//!
//! Each group's cost is found by a small IDA* of its own (the same engine, on the group's
//! boxes only, sharing one table across its searches) from the player's area on the board
//! with only the group's boxes, within a node budget: past it, the bound that search had
//! proven is used. Costs are cached by the group's boxes and that area. Pushing a box of
//! another group leaves the player in the same area of this group's board, so only the
//! pushed box's group needs a new cost, and that cost is at least the old one less one:
//! its search starts there.
//!
//! Groups pay off when a level falls apart into parts whose boxes work apart from each
//! other (Microban 144). They are formed at the start: first from the boxes' shortest push
//! paths to their goals in the matching (boxes whose paths come within one square of each
//! other go together), then by merging two groups when solving them together takes more
//! pushes than apart, up to eight boxes a group. With a single group, or when the groups'
//! costs at the start add up to no more than the matching there, the bound is off.

use std::collections::HashMap;
use std::sync::Arc;

use crate::analysis::assign::{Assignment, INF_COST};
use crate::analysis::problem::{AreaFlood, Keyed, Problem, INF_DIST, NONE};
use crate::optimal::{Engine, INF_F};

/// Nodes one group's search may spend on one arrangement of its boxes.
const BUDGET: u64 = 1000;
/// Nodes a group's search may spend on the start position when deciding on merges.
const MERGE_BUDGET: u64 = 100_000;
/// Nodes all those searches together may spend...
const MERGE_TOTAL: u64 = 1_000_000;
/// ... and at most this many divided by the number of squares.
const MERGE_WORK: u64 = 200_000_000;
/// Most boxes in one group.
const MAX_GROUP: usize = 8;
/// Table memory of each group's search.
const TABLE_BYTES: usize = 2 << 20;
/// What setting up one of those searches costs, in nodes of the budget below (its table
/// is cleared, its arrays made): on a big level with many boxes the thousands of pairs to
/// try cost more to set up than to search (60 x 60 with 100 boxes: 24 s before this).
const SETUP_NODES: u64 = 1000;
/// Cached costs kept before the cache is cleared.
const CACHE_LIMIT: usize = 1 << 18;

/// The groups, their searches and the cache.
pub struct Groups {
    /// Group of each box (by the engine's box index).
    pub of_box: Vec<u8>,
    /// Box indices of each group.
    members: Vec<Vec<u16>>,
    engines: Vec<Engine>,
    /// Per group, a salt for the cache key.
    salt: Vec<u64>,
    /// Cost by the group's boxes and the player's area on the group's board.
    cache: HashMap<u64, u32, Keyed>,
    /// The same by the group's boxes and the player's area on the full board (that area
    /// lies in one area of the group's board): found without flooding the group's board.
    quick: HashMap<u64, u32, Keyed>,
    // Scratch.
    squares: Vec<u16>,
    on: Vec<bool>,
    area: AreaFlood,
    /// Group searches run (cache misses) and the nodes they took.
    pub searches: u64,
    pub nodes: u64,
}

impl Groups {
    /// Split the boxes of a start position into groups; `None` when they form one group.
    pub fn new(p: &Arc<Problem>, player: u16, boxes: &[u16]) -> Option<Groups> {
        let nb = boxes.len();
        if nb < 2 || nb != p.goals.len() {
            return None;
        }
        let n = p.n;
        let cost = |i: usize, j: usize| {
            let d = p.dist[j * n + boxes[i] as usize];
            if d == INF_DIST {
                INF_COST
            } else {
                d as i64
            }
        };
        let mut a = Assignment::new(nb);
        a.solve(&cost);
        let matching = a.total(&cost);
        if matching >= INF_COST {
            return None;
        }
        let mut goal_of = vec![0u16; nb];
        a.goals_of(&mut goal_of);
        // Each box's squares on a shortest push path to its goal, and their neighbours.
        let mut near: Vec<Vec<bool>> = Vec::with_capacity(nb);
        let mut path: Vec<Vec<bool>> = Vec::with_capacity(nb);
        for i in 0..nb {
            let j = goal_of[i] as usize;
            let mut mark = vec![false; n];
            let mut on = vec![false; n];
            let mut s = boxes[i];
            loop {
                mark[s as usize] = true;
                on[s as usize] = true;
                for &t in &p.nbr[s as usize] {
                    if t != NONE {
                        mark[t as usize] = true;
                    }
                }
                let d = p.dist[j * n + s as usize];
                if d == 0 {
                    break;
                }
                let next = p.nbr[s as usize]
                    .iter()
                    .copied()
                    .find(|&t| t != NONE && p.dist[j * n + t as usize] < d);
                match next {
                    Some(t) => s = t,
                    None => break,
                }
            }
            near.push(mark);
            path.push(on);
        }
        // Union boxes whose neighbourhoods overlap.
        let mut parent: Vec<usize> = (0..nb).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        for i in 0..nb {
            for k in i + 1..nb {
                if (0..n).any(|s| (near[i][s] && path[k][s]) || (path[i][s] && near[k][s])) {
                    let (ri, rk) = (root(&mut parent, i), root(&mut parent, k));
                    parent[ri] = rk;
                }
            }
        }
        let mut id = vec![usize::MAX; nb];
        let mut members: Vec<Vec<u16>> = Vec::new();
        let mut of_box = vec![0u8; nb];
        for i in 0..nb {
            let r = root(&mut parent, i);
            if id[r] == usize::MAX {
                id[r] = members.len();
                members.push(Vec::new());
            }
            members[id[r]].push(i as u16);
            of_box[i] = id[r] as u8;
        }
        // Merge two groups when solving them together takes more pushes than apart (their
        // boxes are in each other's way), up to MAX_GROUP boxes a group.
        // All these searches together stay within a node budget; past it a cost counts as 0
        // (no merge, and possibly no groups: a weaker bound, never a wrong one).
        // Every node floods the board: on a big board the budget shrinks accordingly.
        let total = MERGE_TOTAL.min(MERGE_WORK / n.max(1) as u64);
        let spent = std::cell::Cell::new(0u64);
        let root_cost = |m: &[u16]| -> u32 {
            let left = total.saturating_sub(spent.get());
            if left == 0 {
                return 0;
            }
            let sq: Vec<u16> = m.iter().map(|&i| boxes[i as usize]).collect();
            let mut e = Engine::with_problem(p.clone(), player, &sq, TABLE_BYTES);
            let (c, _) = e.bound(MERGE_BUDGET.min(left));
            spent.set(spent.get() + e.stats().nodes + SETUP_NODES);
            c
        };
        let mut cost: Vec<u32> = members.iter().map(|m| root_cost(m)).collect();
        loop {
            // Gains of all merges of two groups; then the disjoint merges with the largest
            // total gain (exhaustively for a few groups, best first otherwise).
            let g = members.len();
            let mut gain = vec![vec![(0u32, 0u32); g]; g];
            for a in 0..g {
                for b in a + 1..g {
                    if members[a].len() + members[b].len() > MAX_GROUP
                        || cost[a] == INF_F
                        || cost[b] == INF_F
                    {
                        continue;
                    }
                    let both: Vec<u16> = members[a].iter().chain(&members[b]).copied().collect();
                    let c = root_cost(&both);
                    gain[a][b] = (c.saturating_sub(cost[a] + cost[b]), c);
                }
            }
            let pairs = best_pairs(&gain);
            if pairs.is_empty() {
                break;
            }
            let mut merged: Vec<Vec<u16>> = Vec::new();
            let mut merged_cost = Vec::new();
            let mut used = vec![false; g];
            for &(a, b) in &pairs {
                used[a] = true;
                used[b] = true;
                merged.push(members[a].iter().chain(&members[b]).copied().collect());
                merged_cost.push(gain[a][b].1);
            }
            for a in 0..g {
                if !used[a] {
                    merged.push(std::mem::take(&mut members[a]));
                    merged_cost.push(cost[a]);
                }
            }
            members = merged;
            cost = merged_cost;
        }
        for (g, m) in members.iter().enumerate() {
            for &i in m {
                of_box[i as usize] = g as u8;
            }
        }
        // Only where the groups see more than the matching at the start: elsewhere they
        // seldom pay for their searches.
        let total: u64 = cost.iter().map(|&c| c as u64).sum();
        if members.len() < 2 || members.len() > u8::MAX as usize || total <= matching as u64 {
            return None;
        }
        let engines = members
            .iter()
            .map(|m| {
                let sq: Vec<u16> = m.iter().map(|&i| boxes[i as usize]).collect();
                Engine::with_problem(p.clone(), NONE, &sq, TABLE_BYTES)
            })
            .collect();
        let salt = (0..members.len() as u64)
            .map(|g| (g + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17))
            .collect();
        Some(Groups {
            of_box,
            members,
            engines,
            salt,
            cache: HashMap::default(),
            quick: HashMap::default(),
            squares: Vec::new(),
            on: vec![false; n],
            area: AreaFlood::new(n),
            searches: 0,
            nodes: 0,
        })
    }

    /// Number of groups.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Group `g`'s cost for the boxes on `boxes` (by box index) with the player on
    /// `player` (`norm`: the smallest square of its area on the full board): the fewest
    /// pushes that bring them alone onto goals (or a proven lower bound when its search runs
    /// out of budget). `hash` is the Zobrist hash of the group's box squares and `hint` a
    /// proven lower bound on the cost. `INF_F` when the group cannot be solved.
    ///
    /// The cost depends on the player's area on the board with only the group's boxes; the
    /// player stays in that area while other groups' boxes are pushed (they are not on
    /// that board), so other groups' costs stay valid.
    pub fn cost(
        &mut self,
        p: &Problem,
        g: usize,
        boxes: &[u16],
        hash: u64,
        (player, norm): (u16, u16),
        hint: u32,
    ) -> u32 {
        let quick_key = hash ^ self.salt[g] ^ p.z_player[norm as usize].rotate_left(23);
        if let Some(&c) = self.quick.get(&quick_key) {
            return c;
        }
        self.squares.clear();
        self.squares.extend(self.members[g].iter().map(|&i| boxes[i as usize]));
        if self.squares.iter().all(|&b| p.is_goal[b as usize]) {
            return 0;
        }
        for &b in &self.squares {
            self.on[b as usize] = true;
        }
        let area = self.area.flood(p, &self.on, player);
        for &b in &self.squares {
            self.on[b as usize] = false;
        }
        if self.quick.len() >= CACHE_LIMIT {
            self.quick.clear();
        }
        let key = hash ^ self.salt[g] ^ p.z_player[area as usize];
        if let Some(&c) = self.cache.get(&key) {
            self.quick.insert(quick_key, c);
            return c;
        }
        let e = &mut self.engines[g];
        e.restart(player, &self.squares, hint);
        let before = e.stats().nodes;
        let (c, _) = e.bound(BUDGET);
        self.nodes += e.stats().nodes - before;
        self.searches += 1;
        if self.cache.len() >= CACHE_LIMIT {
            self.cache.clear();
        }
        self.cache.insert(key, c);
        self.quick.insert(quick_key, c);
        c
    }
}

/// Disjoint pairs `(a, b)`, `a < b`, with the largest total gain (`gain[a][b].0`), only
/// pairs with a gain: exhaustive up to 10 groups, best first beyond.
fn best_pairs(gain: &[Vec<(u32, u32)>]) -> Vec<(usize, usize)> {
    let g = gain.len();
    fn search(
        gain: &[Vec<(u32, u32)>],
        used: &mut Vec<bool>,
        cur: &mut Vec<(usize, usize)>,
        total: u32,
        best: &mut (u32, Vec<(usize, usize)>),
    ) {
        if total > best.0 {
            *best = (total, cur.clone());
        }
        let Some(a) = (0..used.len()).find(|&a| !used[a]) else { return };
        used[a] = true;
        // Leave `a` alone, or pair it.
        search(gain, used, cur, total, best);
        for b in a + 1..used.len() {
            if !used[b] && gain[a][b].0 > 0 {
                used[b] = true;
                cur.push((a, b));
                search(gain, used, cur, total + gain[a][b].0, best);
                cur.pop();
                used[b] = false;
            }
        }
        used[a] = false;
    }
    if g <= 10 {
        let mut best = (0, Vec::new());
        search(gain, &mut vec![false; g], &mut Vec::new(), 0, &mut best);
        return best.1;
    }
    let mut all: Vec<(u32, usize, usize)> = (0..g)
        .flat_map(|a| (a + 1..g).map(move |b| (a, b)))
        .filter(|&(a, b)| gain[a][b].0 > 0)
        .map(|(a, b)| (gain[a][b].0, a, b))
        .collect();
    all.sort_by_key(|x| std::cmp::Reverse(x.0));
    let mut used = vec![false; g];
    let mut out = Vec::new();
    for (_, a, b) in all {
        if !used[a] && !used[b] {
            used[a] = true;
            used[b] = true;
            out.push((a, b));
        }
    }
    out
}
