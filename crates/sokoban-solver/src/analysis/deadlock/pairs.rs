//! The two-box deadlock table: every placement of two boxes (on squares that are not dead)
//! and of the player that cannot be solved even with no other box on the board.
//!
//! Sound for any position: other boxes never help two boxes to their goals (drop them from
//! a solution and what is left is a solution of the two alone, the player's walks included),
//! so a position holding a dead pair, with the player in the pair's dead region, has no
//! solution. Built before the search by one backward pass (pulls) from every placement of
//! two boxes on two goals; whatever the pulls do not reach is dead. The player's place
//! counts by region: the floor the two boxes leave, cut into areas. A pair dead wherever the
//! player is needs no player test; for a pair dead in some areas only, each square's area
//! is kept when the table stays small.
//!
//! Both searches use it: the optimal one after each push, the fast one after each move.

use crate::analysis::problem::{Problem, NONE};

/// Work limit for the build (box squares² × floor squares): larger levels get no table.
const MAX_WORK: usize = 24_000_000;
/// Bytes of area labels kept for pairs dead in some areas only.
const MAX_LABEL_BYTES: usize = 16 << 20;
/// Pairs that cut the floor into more areas than this are left out.
const MAX_AREAS: u8 = 8;
/// A pair dead wherever the player is.
const ALL: u32 = u32::MAX;

/// The table.
pub struct PairTable {
    /// Per square, its dead partners: `partners[starts[s]..starts[s + 1]]`, each the other
    /// square and `ALL` (dead wherever the player is) or the number of its `labels`.
    starts: Vec<u32>,
    partners: Vec<(u16, u32)>,
    /// Per partly dead pair: each square's area is dead (1) or not (0), `u8::MAX` for the
    /// two box squares.
    labels: Vec<Vec<u8>>,
    /// Dead pairs found (dead everywhere, partly).
    pub dead_pairs: (usize, usize),
}

impl PairTable {
    /// Build the table; `None` when the level is too large for it.
    pub fn new(p: &Problem) -> Option<PairTable> {
        let n = p.n;
        let squares: Vec<u16> = (0..n as u16).filter(|&s| !p.dead[s as usize]).collect();
        let m = squares.len();
        if m < 2 || m * m * n > MAX_WORK || n >= NONE as usize {
            return None;
        }
        let mut index = vec![NONE; n];
        for (i, &s) in squares.iter().enumerate() {
            index[s as usize] = i as u16;
        }
        // The areas of every pair i < j: `area[tri(i, j) * n + s]` (`u8::MAX` on the two
        // boxes), and how many there are. A pair with more than MAX_AREAS areas is left
        // out (never called dead).
        let tri = |i: usize, j: usize| {
            let (i, j) = if i < j { (i, j) } else { (j, i) };
            i * (2 * m - i - 1) / 2 + (j - i - 1)
        };
        let pairs = m * (m - 1) / 2;
        let mut area = vec![u8::MAX; pairs * n];
        let mut areas = vec![0u8; pairs];
        let mut stack: Vec<u16> = Vec::with_capacity(n);
        for i in 0..m {
            for j in i + 1..m {
                let (a, b) = (squares[i], squares[j]);
                let k = tri(i, j);
                let lab = &mut area[k * n..][..n];
                let mut r = 0u8;
                for s in 0..n as u16 {
                    if s == a || s == b || lab[s as usize] != u8::MAX {
                        continue;
                    }
                    if r == MAX_AREAS {
                        break;
                    }
                    lab[s as usize] = r;
                    stack.push(s);
                    while let Some(x) = stack.pop() {
                        for &y in &p.nbr[x as usize] {
                            if y != NONE && y != a && y != b && lab[y as usize] == u8::MAX {
                                lab[y as usize] = r;
                                stack.push(y);
                            }
                        }
                    }
                    r += 1;
                }
                stack.clear();
                areas[k] = r;
            }
        }
        let full = |k: usize| areas[k] == MAX_AREAS;
        // Solved states, bit `pair * MAX_AREAS + area`: from two boxes on two goals, the
        // player in any area, backwards by pulls of either box. The player stands next to
        // box `z` on `y` (in the state's area) and steps back to `w`; the box follows onto
        // `y`.
        let bit = |k: usize, r: u8| k * MAX_AREAS as usize + r as usize;
        let mut solved = vec![0u64; (pairs * MAX_AREAS as usize).div_ceil(64)];
        let mut queue: Vec<(u16, u16, u8)> = Vec::new();
        let mark = |solved: &mut Vec<u64>, x: usize| {
            let new = solved[x / 64] >> (x % 64) & 1 == 0;
            solved[x / 64] |= 1 << (x % 64);
            new
        };
        for (x, &g) in p.goals.iter().enumerate() {
            for &h in &p.goals[x + 1..] {
                let (i, j) = (index[g as usize] as usize, index[h as usize] as usize);
                let k = tri(i, j);
                if full(k) {
                    continue;
                }
                for r in 0..areas[k] {
                    if mark(&mut solved, bit(k, r)) {
                        queue.push((i as u16, j as u16, r));
                    }
                }
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let (i, j, r) = queue[head];
            head += 1;
            let lab = &area[tri(i as usize, j as usize) * n..][..n];
            for (zi, oi) in [(i as usize, j as usize), (j as usize, i as usize)] {
                let (z, other) = (squares[zi], squares[oi]);
                for d in 0..4 {
                    let y = p.nbr[z as usize][d];
                    if y == NONE || lab[y as usize] != r || p.dead[y as usize] {
                        continue;
                    }
                    let w = p.nbr[y as usize][d];
                    if w == NONE || w == other {
                        continue;
                    }
                    let yi = index[y as usize] as usize;
                    let k = tri(yi, oi);
                    if full(k) {
                        continue;
                    }
                    let r2 = area[k * n + w as usize];
                    if mark(&mut solved, bit(k, r2)) {
                        queue.push((yi as u16, oi as u16, r2));
                    }
                }
            }
        }
        // Verdicts, as lists of dead partners per square.
        let mut lists: Vec<Vec<(u16, u32)>> = vec![Vec::new(); n];
        let mut labels = Vec::new();
        let mut label_bytes = 0;
        let mut dead_pairs = (0, 0);
        for i in 0..m {
            for j in i + 1..m {
                let k = tri(i, j);
                if full(k) {
                    continue;
                }
                let is_dead = |r: u8| solved[bit(k, r) / 64] >> (bit(k, r) % 64) & 1 == 0;
                let dead = (0..areas[k]).filter(|&r| is_dead(r)).count();
                let (a, b) = (squares[i], squares[j]);
                let v = if dead == 0 {
                    continue;
                } else if dead == areas[k] as usize {
                    dead_pairs.0 += 1;
                    ALL
                } else {
                    dead_pairs.1 += 1;
                    if label_bytes + n <= MAX_LABEL_BYTES {
                        label_bytes += n;
                        let l = area[k * n..][..n]
                            .iter()
                            .map(|&r| if r == u8::MAX { u8::MAX } else { is_dead(r) as u8 })
                            .collect();
                        labels.push(l);
                        labels.len() as u32 - 1
                    } else {
                        continue;
                    }
                };
                lists[a as usize].push((b, v));
                lists[b as usize].push((a, v));
            }
        }
        let mut starts = Vec::with_capacity(n + 1);
        let mut partners = Vec::new();
        for l in &lists {
            starts.push(partners.len() as u32);
            partners.extend_from_slice(l);
        }
        starts.push(partners.len() as u32);
        Some(PairTable { starts, partners, labels, dead_pairs })
    }

    /// The dead partners of square `s`.
    #[inline]
    fn partners(&self, s: u16) -> &[(u16, u32)] {
        &self.partners[self.starts[s as usize] as usize..self.starts[s as usize + 1] as usize]
    }

    #[inline]
    fn dead_for(&self, v: u32, player: u16) -> bool {
        v == ALL || self.labels[v as usize][player as usize] == 1
    }

    /// Boxes on `a` and `b`, the player on `player` (any square of the player's area):
    /// dead? Squares that are dead for a box alone answer `false` (other tests see those).
    pub fn dead(&self, a: u16, b: u16, player: u16) -> bool {
        self.partners(a).iter().any(|&(q, v)| q == b && self.dead_for(v, player))
    }

    /// A box just moved to `to`: does it form a dead pair with another box (`has_box`)?
    #[inline]
    pub fn dead_with(&self, to: u16, has_box: impl Fn(u16) -> bool, player: u16) -> bool {
        self.partners(to).iter().any(|&(q, v)| has_box(q) && self.dead_for(v, player))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sokoban_core::format::parse_level;
    use std::collections::HashSet;

    /// Forward check: the placements (a, b, player) from which the two boxes alone reach
    /// two goals, found by iterating to a fixpoint over single steps and pushes.
    fn solvable_forward(p: &Problem) -> HashSet<(u16, u16, u16)> {
        let n = p.n as u16;
        let mut good: HashSet<(u16, u16, u16)> = HashSet::new();
        let key = |a: u16, b: u16, s: u16| if a < b { (a, b, s) } else { (b, a, s) };
        loop {
            let before = good.len();
            for a in 0..n {
                for b in a + 1..n {
                    for s in 0..n {
                        if s == a || s == b || good.contains(&(a, b, s)) {
                            continue;
                        }
                        let done = p.is_goal[a as usize] && p.is_goal[b as usize];
                        let next = (0..4).any(|d| {
                            let t = p.nbr[s as usize][d];
                            if t == NONE {
                                return false;
                            }
                            if t == a || t == b {
                                let other = if t == a { b } else { a };
                                let u = p.nbr[t as usize][d];
                                u != NONE && u != other && good.contains(&key(u, other, t))
                            } else {
                                good.contains(&(a, b, t))
                            }
                        });
                        if done || next {
                            good.insert((a, b, s));
                        }
                    }
                }
            }
            if good.len() == before {
                return good;
            }
        }
    }

    fn check(text: &str) -> (usize, usize) {
        let level = parse_level(text).expect("valid level");
        let p = Problem::new(&level.board);
        let t = PairTable::new(&p).expect("small");
        let good = solvable_forward(&p);
        for a in 0..p.n as u16 {
            for b in a + 1..p.n as u16 {
                if p.dead[a as usize] || p.dead[b as usize] {
                    continue;
                }
                for s in 0..p.n as u16 {
                    if s == a || s == b {
                        continue;
                    }
                    assert_eq!(
                        t.dead(a, b, s),
                        !good.contains(&(a, b, s)),
                        "boxes {a} {b}, player {s} in\n{text}"
                    );
                }
            }
        }
        t.dead_pairs
    }

    #[test]
    fn agrees_with_a_forward_search() {
        // Two boxes side by side on a wall with a goal each out of reach, a dead end with
        // one goal for two boxes, rooms cut by a box pair, a 2-wide corridor.
        let levels = [
            "#######\n#.   .#\n# $$  #\n#  @  #\n#######",
            "########\n#  .   #\n# $$ @ #\n##. ####\n ####",
            "#########\n#.  #  .#\n# $ $ @ #\n#   #   #\n#########",
            "#######\n#. $  #\n##$## #\n#.  @ #\n#######",
            "########\n#..    #\n#  $$  #\n####  @#\n   #####",
        ];
        let mut found = (0, 0);
        for l in levels {
            let d = check(l);
            found = (found.0 + d.0, found.1 + d.1);
        }
        assert!(found.0 > 0, "some pairs are dead everywhere");
        assert!(found.1 > 0, "some pairs are dead in some areas only");
    }
}
