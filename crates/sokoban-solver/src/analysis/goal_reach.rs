//! Which goals a lone box can be pushed to from each square, on the board with some squares
//! walled off: the reachability tables behind the frozen-goal deadlock test, the fast
//! search's hotspots and its out-of-plan zones.
//!
//! Reachability asks only that the square behind each push is floor (not that the player
//! can get there), so it allows at least what the game does: a goal missing from a
//! square's row can never be reached from there.

use crate::analysis::problem::{Problem, NONE};

/// Scratch for the tables (one per user; no allocation per table but the table itself).
pub struct GoalReach {
    /// 64-bit words per square in a table.
    pub words: usize,
    wall: Vec<bool>,
    seen: Vec<u32>,
    stamp: u32,
    queue: Vec<u16>,
}

impl GoalReach {
    pub fn new(p: &Problem) -> GoalReach {
        GoalReach {
            words: p.goals.len().div_ceil(64).max(1),
            wall: vec![false; p.n],
            seen: vec![0; p.n],
            stamp: 0,
            queue: Vec::with_capacity(p.n),
        }
    }

    /// Per square, a bitset (`words` words) of the goals a lone box there can be pushed to,
    /// with the squares `walls` as walls; only the goals `wanted(j)` are searched (the others'
    /// bits stay clear), and a walled goal is never reached.
    pub fn table(
        &mut self,
        p: &Problem,
        walls: impl IntoIterator<Item = u16>,
        wanted: impl Fn(usize) -> bool,
    ) -> Vec<u64> {
        let words = self.words;
        let mut table = vec![0u64; p.n * words];
        self.wall.fill(false);
        for s in walls {
            self.wall[s as usize] = true;
        }
        let free = |wall: &[bool], s: u16| s != NONE && !wall[s as usize];
        for (j, &g) in p.goals.iter().enumerate() {
            if self.wall[g as usize] || !wanted(j) {
                continue;
            }
            // Pull search from the goal: a box on `x` can be pushed onto `y = x + d` when
            // `x - d` (where the player stands) and `y` are free.
            if self.stamp == u32::MAX {
                self.seen.fill(0);
                self.stamp = 0;
            }
            self.stamp += 1;
            let stamp = self.stamp;
            self.queue.clear();
            self.queue.push(g);
            self.seen[g as usize] = stamp;
            let mut head = 0;
            while head < self.queue.len() {
                let y = self.queue[head];
                head += 1;
                table[y as usize * words + j / 64] |= 1 << (j % 64);
                for d in 0..4 {
                    let x = p.step(y, (d + 2) & 3);
                    if !free(&self.wall, x) || self.seen[x as usize] == stamp {
                        continue;
                    }
                    let behind = p.step(x, (d + 2) & 3);
                    if free(&self.wall, behind) {
                        self.seen[x as usize] = stamp;
                        self.queue.push(x);
                    }
                }
            }
        }
        table
    }
}
