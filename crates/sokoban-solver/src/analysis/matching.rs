//! Whether every box can have a goal of its own among those it can reach: Kuhn's
//! augmenting paths over the finite entries of a box-by-goal cost table. The fast search's
//! deadlock tests and both checks of [`crate::analysis::fixed`] (the walls-only reach table and the
//! reduced problems) share it.

use crate::analysis::problem::INF_DIST;

/// Scratch for the matching (no allocation per call once grown).
#[derive(Clone, Debug, Default)]
pub struct Matcher {
    /// The box on each goal (`u32::MAX`: none).
    goal_box: Vec<u32>,
    unmatched: Vec<u32>,
    visited: Vec<u32>,
    stamp: u32,
}

impl Matcher {
    /// True when each of the `nb` boxes gets its own goal among the `ng`, box `i` only a
    /// goal `j` with `costs[i * ng + j] != INF_DIST`.
    pub fn perfect(&mut self, costs: &[u16], nb: usize, ng: usize) -> bool {
        self.goal_box.clear();
        self.goal_box.resize(ng, u32::MAX);
        if self.visited.len() < ng {
            self.visited.resize(ng, 0);
        }
        // Greedy first: a free reachable goal for each box.
        self.unmatched.clear();
        for i in 0..nb {
            let row = &costs[i * ng..(i + 1) * ng];
            match (0..ng).find(|&j| row[j] != INF_DIST && self.goal_box[j] == u32::MAX) {
                Some(j) => self.goal_box[j] = i as u32,
                None => self.unmatched.push(i as u32),
            }
        }
        for k in 0..self.unmatched.len() {
            let i = self.unmatched[k] as usize;
            self.stamp = self.stamp.wrapping_add(1);
            if self.stamp == 0 {
                self.visited.fill(0);
                self.stamp = 1;
            }
            if !augment(i, ng, costs, &mut self.goal_box, &mut self.visited, self.stamp) {
                return false;
            }
        }
        true
    }
}

/// Kuhn's augmenting path from box `i` over the pairs with a finite cost.
fn augment(
    i: usize,
    ng: usize,
    costs: &[u16],
    goal_box: &mut [u32],
    visited: &mut [u32],
    stamp: u32,
) -> bool {
    for j in 0..ng {
        if costs[i * ng + j] == INF_DIST || visited[j] == stamp {
            continue;
        }
        visited[j] = stamp;
        let other = goal_box[j];
        if other == u32::MAX || augment(other as usize, ng, costs, goal_box, visited, stamp) {
            goal_box[j] = i as u32;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_perfect_matching_only_where_one_exists() {
        const X: u16 = INF_DIST;
        let mut m = Matcher::default();
        // Box 0 reaches goals 0 and 1, box 1 only goal 0: 0 -> 1, 1 -> 0.
        assert!(m.perfect(&[1, 1, 2, X], 2, 2));
        // Both boxes reach only goal 0.
        assert!(!m.perfect(&[1, X, 2, X], 2, 2));
        // Fewer boxes than goals.
        assert!(m.perfect(&[X, X, 3], 1, 3));
        assert!(!m.perfect(&[X, X, X], 1, 3));
    }
}
