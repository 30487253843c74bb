//! The searches' work counted in operations: the kernels that take the time (floods, box
//! reach, the stuck, corral and confinement searches, the matchings, scoring a child) add
//! what they did to counters of the running thread, so that a portfolio lane's count of
//! work follows what it really computed — the same on every run, and on any level close to
//! the time it took — where a count of moves or calls does not (a pull costs 0.08–1.24 of a
//! scored move depending on the level). A lane reads the counters before and after each of
//! its calls ([`counts`]), so lanes taking turns on one thread are counted apart.

use std::cell::Cell;

/// What the counters count (indices into the weights).
#[derive(Clone, Copy, Debug)]
pub enum Op {
    /// Rows a flood of the player's area swept (bits), or squares it reached (queue): a
    /// flood's cost.
    FloodRows = 0,
    /// Nodes a box reach search reached.
    BoxNodes = 1,
    /// Positions a stuck search expanded.
    StuckNodes = 2,
    /// Positions a corral or confinement search expanded.
    CorralNodes = 3,
    /// Inner steps of the assignment (matching) updates, a goal each.
    Assign = 4,
    /// A child scored (its features, its position looked up).
    Child = 5,
    /// A move or a pull made (a feature, greedy or backward search's).
    Expand = 6,
    /// Floor squares of a position whose blocks were prepared for its box searches.
    Prepare = 7,
}

/// Number of counters.
pub const OPS: usize = 8;

/// Weights of the counters in [`weighted`]: nanoseconds each, fitted (least squares in the
/// relative error, no weight below zero) on lanes 0 and 1 alone over 50 development levels,
/// 300,000 moves each, on this project's 2-vCPU machine (bench/runs/2026-12-04-portfolio-op-work);
/// the order of work needs only their ratios, the portfolio's round (`ROUND_OPS`) is in the
/// same nanoseconds. A stuck or corral node costs its corral analysis besides its flood.
const WEIGHTS: [u64; OPS] = [4, 65, 740, 600, 3, 130, 140, 50];

thread_local! {
    static COUNTS: [Cell<u64>; OPS] = const { [const { Cell::new(0) }; OPS] };
}

/// Count `n` operations of kind `op` on this thread.
#[inline]
pub fn add(op: Op, n: u64) {
    COUNTS.with(|c| {
        let c = &c[op as usize];
        c.set(c.get().wrapping_add(n));
    });
}

/// This thread's counters so far.
pub fn counts() -> [u64; OPS] {
    COUNTS.with(|c| std::array::from_fn(|i| c[i].get()))
}

/// Counts of operations weighted by what each costs.
pub fn weighted(counts: &[u64; OPS]) -> u64 {
    (0..OPS).map(|i| counts[i] * WEIGHTS[i]).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_the_running_threads_and_weighted_by_kind() {
        let before = counts();
        add(Op::StuckNodes, 3);
        add(Op::FloodRows, 10);
        let after = counts();
        let mut d = [0; OPS];
        for i in 0..OPS {
            d[i] = after[i] - before[i];
        }
        assert_eq!((d[Op::StuckNodes as usize], d[Op::FloodRows as usize]), (3, 10));
        let (stuck, rows) = (WEIGHTS[Op::StuckNodes as usize], WEIGHTS[Op::FloodRows as usize]);
        assert_eq!(weighted(&d), 3 * stuck + 10 * rows);
        // Another thread starts from nothing and its operations are not this one's.
        let other = std::thread::spawn(|| {
            add(Op::Child, 5);
            counts()
        });
        assert_eq!(other.join().unwrap()[Op::Child as usize], 5);
        assert_eq!(counts(), after);
    }
}
