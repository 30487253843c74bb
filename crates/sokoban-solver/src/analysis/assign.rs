//! Minimum-cost perfect matching of boxes to goals (the Hungarian method with potentials),
//! with an O(n²) update when one box moves. This is the search's lower bound.

use crate::work::{self, Op};

/// Cost of a box–goal pair that can never be matched.
pub const INF_COST: i64 = 1 << 32;

/// The assignment state: potentials and the matching, 1-based as in the classic
/// formulation (index 0 is a dummy column).
#[derive(Clone, Debug)]
pub struct Assignment {
    n: usize,
    /// Row potentials (rows = boxes), `u[1..=n]`.
    u: Vec<i64>,
    /// Column potentials (columns = goals), `v[0..=n]`.
    v: Vec<i64>,
    /// `p[j]`: row matched to column `j` (0 = none).
    p: Vec<usize>,
    // Scratch.
    minv: Vec<i64>,
    used: Vec<bool>,
    way: Vec<usize>,
}

impl Assignment {
    /// An empty assignment for `n` boxes and `n` goals.
    pub fn new(n: usize) -> Assignment {
        Assignment {
            n,
            u: vec![0; n + 1],
            v: vec![0; n + 1],
            p: vec![0; n + 1],
            minv: vec![0; n + 1],
            used: vec![false; n + 1],
            way: vec![0; n + 1],
        }
    }

    /// Solve from scratch. `cost(i, j)` for 0-based box `i` and goal `j`.
    pub fn solve(&mut self, cost: &impl Fn(usize, usize) -> i64) {
        self.u.fill(0);
        self.v.fill(0);
        self.p.fill(0);
        for i in 1..=self.n {
            self.add_row(i, cost);
        }
    }

    /// Box `i` (0-based) moved: its costs changed. Re-match it: O(n) when its goal is
    /// still its cheapest against the goal potentials, O(n²) otherwise.
    pub fn update_row(&mut self, i: usize, cost: &impl Fn(usize, usize) -> i64) {
        let row = i + 1;
        let matched = (1..=self.n).find(|&j| self.p[j] == row).unwrap_or(0);
        // Restore dual feasibility for the changed row.
        let m = self.least_reduced(i, cost);
        self.u[row] = m;
        // When the row's matched goal attains that minimum, the duals stay feasible and
        // the matched pair tight (the other rows and the goal potentials did not change):
        // the matching is still a minimum one.
        if matched != 0 && cost(i, matched - 1) - self.v[matched] == m {
            return;
        }
        if matched != 0 {
            self.p[matched] = 0;
        }
        self.add_row(row, cost);
    }

    /// The total [`Assignment::update_row`] would give for row `i`'s costs changed to
    /// `cost`'s, the assignment left as it is. Where row `i`'s goal `goal` (its cost there
    /// `old` before the change; `total` the total now) still has the row's least reduced
    /// cost, the matching stands as in `update_row` and the total is `total - old +
    /// cost(i, goal)`, with no change made; otherwise the row is updated, the total summed
    /// and the state restored from `saved` ([`Assignment::save_to`]).
    pub fn total_if_row(
        &mut self,
        i: usize,
        cost: &impl Fn(usize, usize) -> i64,
        (total, goal, old): (i64, usize, i64),
        saved: &[i64],
    ) -> i64 {
        let m = self.least_reduced(i, cost);
        let at = cost(i, goal);
        if at - self.v[goal + 1] == m {
            return total - old + at;
        }
        self.update_row(i, cost);
        let t = self.total(cost);
        self.restore(saved);
        t
    }

    /// Row `i`'s least cost less the goal potentials, over the goals.
    fn least_reduced(&self, i: usize, cost: &impl Fn(usize, usize) -> i64) -> i64 {
        work::add(Op::Assign, self.n as u64);
        (1..=self.n).map(|j| cost(i, j - 1) - self.v[j]).min().unwrap_or(i64::MAX)
    }

    /// Augment from the unmatched 1-based row `i`.
    fn add_row(&mut self, i: usize, cost: &impl Fn(usize, usize) -> i64) {
        let n = self.n;
        self.p[0] = i;
        let mut j0 = 0usize;
        self.minv.fill(i64::MAX);
        self.used.fill(false);
        loop {
            self.used[j0] = true;
            let i0 = self.p[j0];
            let mut delta = i64::MAX;
            let mut j1 = 0;
            work::add(Op::Assign, n as u64);
            for j in 1..=n {
                if !self.used[j] {
                    let cur = cost(i0 - 1, j - 1) - self.u[i0] - self.v[j];
                    if cur < self.minv[j] {
                        self.minv[j] = cur;
                        self.way[j] = j0;
                    }
                    if self.minv[j] < delta {
                        delta = self.minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=n {
                if self.used[j] {
                    self.u[self.p[j]] += delta;
                    self.v[j] -= delta;
                } else {
                    self.minv[j] -= delta;
                }
            }
            j0 = j1;
            if self.p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = self.way[j0];
            self.p[j0] = self.p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }

    /// Total cost of the current matching (`>= INF_COST` when some pair is impossible).
    pub fn total(&self, cost: &impl Fn(usize, usize) -> i64) -> i64 {
        (1..=self.n).map(|j| cost(self.p[j] - 1, j - 1)).sum()
    }

    /// The goal (0-based) matched to every box: `out[i]` for box `i`, in one pass.
    pub fn goals_of(&self, out: &mut [u16]) {
        for j in 1..=self.n {
            out[self.p[j] - 1] = (j - 1) as u16;
        }
    }

    /// Save the state into `dst` (exactly [`Assignment::saved_len`] values).
    pub fn save_to(&self, dst: &mut [i64]) {
        let k = self.n + 1;
        dst[..k].copy_from_slice(&self.u);
        dst[k..2 * k].copy_from_slice(&self.v);
        for (d, &s) in dst[2 * k..3 * k].iter_mut().zip(&self.p) {
            *d = s as i64;
        }
    }

    /// Restore a state saved by [`Assignment::save_to`].
    pub fn restore(&mut self, src: &[i64]) {
        let k = self.n + 1;
        self.u.copy_from_slice(&src[..k]);
        self.v.copy_from_slice(&src[k..2 * k]);
        for (d, &s) in self.p.iter_mut().zip(&src[2 * k..3 * k]) {
            *d = s as usize;
        }
    }

    /// Number of values [`Assignment::save_to`] writes.
    pub fn saved_len(&self) -> usize {
        3 * (self.n + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(c: &[Vec<i64>]) -> i64 {
        fn go(c: &[Vec<i64>], i: usize, used: &mut Vec<bool>) -> i64 {
            if i == c.len() {
                return 0;
            }
            let mut best = i64::MAX;
            for j in 0..c.len() {
                if !used[j] {
                    used[j] = true;
                    best = best.min(c[i][j] + go(c, i + 1, used));
                    used[j] = false;
                }
            }
            best
        }
        go(c, 0, &mut vec![false; c.len()])
    }

    /// A small deterministic random source.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    #[test]
    fn matches_brute_force_full_and_incremental() {
        let mut rnd = xorshift(12345);
        for round in 0..400 {
            let n = 1 + (rnd() % 7) as usize;
            let mut c: Vec<Vec<i64>> = (0..n)
                .map(|_| {
                    (0..n)
                        .map(|_| if rnd() % 9 == 0 { INF_COST } else { (rnd() % 30) as i64 })
                        .collect()
                })
                .collect();
            let mut a = Assignment::new(n);
            {
                let cc = c.clone();
                a.solve(&|i, j| cc[i][j]);
                assert_eq!(a.total(&|i, j| cc[i][j]), brute(&cc), "round {round}");
            }
            let mut saved = vec![0; a.saved_len()];
            a.save_to(&mut saved);
            let original = c.clone();
            for _ in 0..5 {
                let i = (rnd() % n as u64) as usize;
                for j in 0..n {
                    c[i][j] = if rnd() % 9 == 0 { INF_COST } else { (rnd() % 30) as i64 };
                }
                let cc = c.clone();
                a.update_row(i, &|i, j| cc[i][j]);
                assert_eq!(a.total(&|i, j| cc[i][j]), brute(&cc), "round {round} update");
            }
            // Restoring the snapshot gives back the original matching, and updates from
            // there are still optimal.
            a.restore(&saved);
            assert_eq!(a.total(&|i, j| original[i][j]), brute(&original));
            let i = (rnd() % n as u64) as usize;
            let mut c2 = original.clone();
            for j in 0..n {
                c2[i][j] = (rnd() % 30) as i64;
            }
            a.update_row(i, &|i, j| c2[i][j]);
            assert_eq!(a.total(&|i, j| c2[i][j]), brute(&c2));
        }
    }

    /// A row's change looked at without a change: the total `update_row` gives, and the
    /// assignment as it was, whether the matched goal stays the row's best or not.
    #[test]
    fn total_if_row_is_the_updated_total_and_changes_nothing() {
        let mut rnd = xorshift(99);
        let (mut kept, mut moved) = (0, 0);
        for round in 0..400 {
            let n = 1 + (rnd() % 7) as usize;
            let c: Vec<Vec<i64>> =
                (0..n).map(|_| (0..n).map(|_| (rnd() % 30) as i64).collect()).collect();
            let mut a = Assignment::new(n);
            a.solve(&|i, j| c[i][j]);
            let mut saved = vec![0; a.saved_len()];
            a.save_to(&mut saved);
            let mut goals = vec![0u16; n];
            a.goals_of(&mut goals);
            let total = a.total(&|i, j| c[i][j]);
            let i = (rnd() % n as u64) as usize;
            let mut c2 = c.clone();
            for j in 0..n {
                c2[i][j] = (rnd() % 30) as i64;
            }
            let goal = goals[i] as usize;
            let now = (total, goal, c[i][goal]);
            let t = a.total_if_row(i, &|i, j| c2[i][j], now, &saved);
            assert_eq!(t, brute(&c2), "round {round}");
            let mut after = vec![0; a.saved_len()];
            a.save_to(&mut after);
            assert_eq!(after, saved, "round {round}: the assignment as it was");
            let best = (0..n).all(|j| c2[i][goal] - a.v[goal + 1] <= c2[i][j] - a.v[j + 1]);
            if best {
                kept += 1
            } else {
                moved += 1
            }
        }
        assert!(kept > 0 && moved > 0, "both ways taken: {kept} {moved}");
    }
}
