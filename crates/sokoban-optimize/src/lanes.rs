//! The optimizer on several threads: lanes, each an [`Optimizer`] with vicinity sizes of
//! its own and a share of the memory, that show one another their best solution every
//! [`SYNC_UNITS`] units of work; each takes a shorter one at the start of its next round.
//! The exchange happens at the same amounts of work on every run, so a work limit gives
//! the same result every time. Native only (threads); the page optimizes in one worker
//! (the README says why).

use std::sync::{Barrier, Mutex};

use sokoban_core::{Level, Move};

use crate::{Clock, OptimizeError, OptimizeOptions, Optimizer, Report, Status};

/// Work between two exchanges: about a tenth of a second.
pub const SYNC_UNITS: u64 = 65_536;

/// The vicinity sizes of each lane after the first, as multiples of the options' (lane 0
/// keeps them): wider first, then narrower; lanes beyond these repeat them.
const LANE_SCALE: [f64; 3] = [2.0, 0.5, 4.0];

/// The options of lane `i` of `lanes`: its vicinity sizes and its share of the memory.
pub fn lane_options(options: &OptimizeOptions, i: usize, lanes: usize) -> OptimizeOptions {
    let mut o = options.clone();
    o.memory_bytes = options.memory_bytes / lanes.max(1);
    if i > 0 {
        let scale = LANE_SCALE[(i - 1) % LANE_SCALE.len()];
        for k in &mut o.vicinity {
            *k = ((*k as f64 * scale).round() as usize).max(1);
        }
    }
    o
}

/// Optimize `moves` on `lanes` threads (one: [`crate::optimize`] without progress). The
/// report is the best lane's: its moves and counts; `nodes` is the work of all lanes,
/// `optimal` true when a lane proved its best optimal (then the others stop), `status`
/// the best lane's.
pub fn optimize_lanes(
    level: &Level,
    moves: &[Move],
    options: OptimizeOptions,
    lanes: usize,
    clock: &(dyn Clock + Sync),
) -> Result<Report, OptimizeError> {
    let lanes = lanes.max(1);
    let t0 = clock.now_ms();
    let mut opts: Vec<Optimizer> = (0..lanes)
        .map(|i| Optimizer::new(level, moves, lane_options(&options, i, lanes)))
        .collect::<Result<_, _>>()?;
    for o in &mut opts {
        o.count_from(t0);
    }
    let barrier = Barrier::new(lanes);
    // Each lane's best so far, and whether it has ended.
    let board: Mutex<Vec<(Vec<Move>, Option<Report>)>> =
        Mutex::new(opts.iter().map(|o| (o.best().0.to_vec(), None)).collect());
    let metric = options.metric;
    std::thread::scope(|scope| {
        for (i, o) in opts.iter_mut().enumerate() {
            let (barrier, board) = (&barrier, &board);
            scope.spawn(move || loop {
                let report = o.run_units(clock, SYNC_UNITS);
                {
                    let mut b = board.lock().expect("no lane panics");
                    b[i] = (o.best().0.to_vec(), report);
                }
                barrier.wait();
                let all_done = {
                    let b = board.lock().expect("no lane panics");
                    let proved = b.iter().any(|(_, r)| r.as_ref().is_some_and(|r| r.optimal));
                    if proved {
                        true
                    } else {
                        for (j, (best, _)) in b.iter().enumerate() {
                            if j != i {
                                o.offer(best);
                            }
                        }
                        b.iter().all(|(_, r)| r.is_some())
                    }
                };
                // Everyone reads before anyone writes again.
                barrier.wait();
                if all_done {
                    break;
                }
            });
        }
    });
    let b = board.into_inner().expect("no lane panics");
    let nodes = b.iter().filter_map(|(_, r)| r.as_ref()).map(|r| r.nodes).sum();
    let optimal = b.iter().any(|(_, r)| r.as_ref().is_some_and(|r| r.optimal));
    let mut best = b
        .into_iter()
        .filter_map(|(_, r)| r)
        .min_by_key(|r| (metric.key(r.counts), !r.optimal))
        .expect("every lane reports when they stop");
    best.nodes = nodes;
    best.optimal = optimal;
    if optimal {
        best.status = Status::Finished;
        best.memory_full = false;
    }
    best.elapsed_ms = clock.now_ms() - t0;
    Ok(best)
}
