//! The fast search as a portfolio of *lanes*, each a whole fast search with a schedule of
//! its own ([`fast::lane_experiments`]) and its part of the memory, run side by side on
//! threads (a thread with several lanes takes them in turn, a round each, as Festival
//! shares one core between its strategies). The first solution in the order of work stops
//! the others: each lane counts its work in the operations of its calls, weighted by what
//! each costs ([`Solver::work`]; with `turnwork`, in turns), the same on every run and
//! close to the time taken on any level, and a solution found after work `w`
//! wins over any found later in that count (on a tie, the lower lane), so a given number
//! of lanes gives the same moves every time, on any number of threads; a lane that finds
//! one makes the others run on only up to its count.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use sokoban_core::{Level, Position};

use crate::{
    fast, Clock, Limit, Mode, Options, Progress, Report, SetupError, Solver, Status, Step,
};

/// Turns a lane makes between looks at the others' results (and progress reports), with
/// work counted in turns (`turnwork`).
const ROUND: u64 = 64;
/// About the same in operations (weighted in nanoseconds): a call takes a median 0.35 ms.
const ROUND_OPS: u64 = ROUND * 350_000;

/// The portfolio's result: the winning lane's report, which lane and strategy found the
/// solution, and every lane's work.
#[derive(Clone, Debug, PartialEq)]
pub struct PortfolioReport {
    /// The winner's report (its `nodes`: the moves of all lanes together).
    pub report: Report,
    /// The lane whose solution (or proof) it is, and the strategy in it.
    pub lane: Option<usize>,
    pub strategy: Option<&'static str>,
    /// Moves made by each lane.
    pub lane_nodes: Vec<u64>,
    /// When each lane ended (ms from the start): a lane that ended well after the winner
    /// was searching up to the winner's count of work (the portfolio's wait).
    pub lane_ms: Vec<f64>,
}

/// A lane's ending that stops the portfolio: (work, lane, report, strategy).
type Ending = (u64, usize, Report, Option<&'static str>);

/// What the lanes agree on as they go.
struct Shared {
    /// The first ending in the order of work.
    best: Mutex<Option<Ending>>,
    cancel: AtomicBool,
    /// The work a lane does between looks ([`ROUND_OPS`] or [`ROUND`]).
    round: u64,
}

impl Shared {
    /// The work up to which `lane` still has to search: all of it while nothing has
    /// ended; with an ending at `w` by lane `l`, up to `w` (a lane below `l`) or `w - 1`.
    fn horizon(&self, lane: usize) -> Option<u64> {
        let best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        best.as_ref().map(|(w, l, ..)| if lane < *l { *w } else { w.saturating_sub(1) })
    }

    fn offer(&self, work: u64, lane: usize, report: Report, strategy: Option<&'static str>) {
        let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        if best.as_ref().is_none_or(|(w, l, ..)| (work, lane) < (*w, *l)) {
            *best = Some((work, lane, report, strategy));
        }
    }
}

/// Solve `pos` with the fast search on `lanes` lanes (at least one) and `threads` threads
/// (at least one, at most `lanes`; thread `t` takes lanes `t`, `t + threads`, … in turn),
/// each lane with `options`'s limits, the memory (`table_mib`) split between the lanes,
/// lane 0 with `options.experiments` and the others with their own. `on_progress` hears
/// each lane's progress (lane, progress) from its thread and returns false to cancel them
/// all. The moves depend on `lanes` only, not on `threads`.
pub fn solve_portfolio(
    level: &Level,
    pos: &Position,
    options: Options,
    lanes: usize,
    threads: usize,
    clock: &(dyn Clock + Sync),
    on_progress: &(dyn Fn(usize, &Progress) -> bool + Sync),
) -> Result<PortfolioReport, SetupError> {
    let lanes = lanes.max(1);
    let threads = threads.clamp(1, lanes);
    let t0 = clock.now_ms();
    let round = if options.experiments.turn_work { ROUND } else { ROUND_OPS };
    let shared = Shared { best: Mutex::new(None), cancel: AtomicBool::new(false), round };
    let mut ends: Vec<(usize, Report)> = Vec::with_capacity(lanes);
    let mut setup_error = None;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (options, shared) = (&options, &shared);
                // Each lane's search is built in its thread (it is not Send).
                scope.spawn(move || {
                    let mut mine = Vec::new();
                    for lane in (t..lanes).step_by(threads) {
                        let mut o = options.clone();
                        o.mode = Mode::Fast;
                        o.table_mib = (options.table_mib / lanes).max(1);
                        o.experiments = fast::lane_experiments(lane, &options.experiments);
                        let solver = Solver::new_timed(level, pos, o, clock, t0)?;
                        mine.push((lane, solver));
                    }
                    Ok(run_lanes(mine, shared, clock, on_progress))
                })
            })
            .collect();
        for h in handles {
            // A thread that panicked is dropped with its lanes; the others' results stand.
            match h.join() {
                Ok(Ok(end)) => ends.extend(end),
                Ok(Err(e)) => setup_error = Some(e),
                Err(_) => {}
            }
        }
    });
    if let (Some(e), true) = (setup_error, ends.is_empty()) {
        return Err(e);
    }
    ends.sort_by_key(|(lane, _)| *lane);
    let lane_nodes: Vec<u64> = ends.iter().map(|(_, r)| r.nodes).collect();
    let lane_ms: Vec<f64> = ends.iter().map(|(_, r)| r.elapsed_ms).collect();
    let total_nodes = lane_nodes.iter().sum();
    let elapsed_ms = clock.now_ms() - t0;
    let best = shared.best.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some((_, lane, mut report, strategy)) = best {
        report.nodes = total_nodes;
        report.elapsed_ms = elapsed_ms;
        return Ok(PortfolioReport { report, lane: Some(lane), strategy, lane_nodes, lane_ms });
    }
    // No lane solved or proved anything: a lane's failed verification first (a bug to
    // report), then the limit that ended them (time before nodes before memory), else
    // cancelled; the report is that lane's.
    let status = [Status::Error]
        .into_iter()
        .chain([Limit::Time, Limit::Nodes, Limit::Memory].map(Status::Limit))
        .find(|s| ends.iter().any(|(_, r)| r.status == *s))
        .unwrap_or(Status::Cancelled);
    let pick = ends.iter().position(|(_, r)| r.status == status).unwrap_or(0);
    let mut report =
        ends.into_iter().nth(pick).map(|(_, r)| r).ok_or(SetupError("every lane failed".into()))?;
    report.status = status;
    report.solution = None;
    report.nodes = total_nodes;
    report.elapsed_ms = elapsed_ms;
    Ok(PortfolioReport { report, lane: None, strategy: None, lane_nodes, lane_ms })
}

/// One thread's lanes: each searches a round in turn until it ends, or another lane's
/// ending makes the rest of its work moot. Returns each lane's last report.
fn run_lanes(
    mut lanes: Vec<(usize, Solver)>,
    shared: &Shared,
    clock: &dyn Clock,
    on_progress: &(dyn Fn(usize, &Progress) -> bool + Sync),
) -> Vec<(usize, Report)> {
    let mut ended = Vec::with_capacity(lanes.len());
    while !lanes.is_empty() {
        let mut k = 0;
        while k < lanes.len() {
            let (lane, solver) = &mut lanes[k];
            match round(*lane, solver, shared, clock, on_progress) {
                Some(report) => {
                    let (lane, _) = lanes.remove(k);
                    ended.push((lane, report));
                }
                None => k += 1,
            }
        }
    }
    ended
}

/// One round of a lane: its report if it ended in it, or before it (cancelled, or past
/// another lane's ending).
fn round(
    lane: usize,
    solver: &mut Solver,
    shared: &Shared,
    clock: &dyn Clock,
    on_progress: &(dyn Fn(usize, &Progress) -> bool + Sync),
) -> Option<Report> {
    let horizon = shared.horizon(lane);
    let work = solver.work();
    if shared.cancel.load(Ordering::Relaxed) || horizon.is_some_and(|h| work >= h) {
        return Some(solver.cancel(clock));
    }
    let target = (work + shared.round).min(horizon.unwrap_or(u64::MAX));
    solver.pause_at(Some(target));
    match solver.step(clock, f64::INFINITY) {
        Step::Done(r) => {
            // A solution or a proof ends the portfolio; a lane out of its limits or memory,
            // or whose solution failed verification, ends alone.
            if matches!(r.status, Status::Solved | Status::Unsolvable) {
                shared.offer(solver.work(), lane, r.clone(), solver.solved_by());
            }
            Some(r)
        }
        Step::Running(p) => {
            if !on_progress(lane, &p) {
                shared.cancel.store(true, Ordering::Relaxed);
            }
            None
        }
    }
}
