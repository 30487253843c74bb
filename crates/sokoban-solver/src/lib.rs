//! Sokoban solvers on one analysis. Plain Rust, no browser types: the CLI calls them
//! directly and the wasm crate runs them in Web Workers, in slices ([`Solver::step`]) so a
//! worker stays responsive and can be cancelled.
//!
//! - [`analysis`]: the problem in compact indices and every deadlock test, shared by the
//!   searches and the optimizer.
//! - [`optimal`]: the push-optimal IDA*.
//! - [`fast`]: any solution quickly, a feature space search after FESS.
//! - [`shorten`]: a bounded pass that makes a fast solution shorter.
//! - `portfolio` (native only): the fast search's strategies on several threads.
//!
//! This file is the façade: [`Solver`] (either search behind limits, progress and
//! cancellation), [`Options`], [`Progress`], [`Clock`] and the memory defaults
//! ([`memory`]). Every solution is replayed by the rules engine
//! ([`sokoban_core::Game`]) before it is returned.

// Index loops over parallel, square-indexed tables read better than zipped iterators here.
#![allow(clippy::needless_range_loop)]

pub mod analysis;
pub mod fast;
pub mod optimal;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub mod portfolio;
pub mod shorten;
pub mod work;

use analysis::problem::{Problem, NONE};
use optimal::{Engine, Event};
use sokoban_core::{Board, Cell, Dir, Game, Level, Move, Position, Square};

pub use analysis::deadlock::{dead_squares, deadlocked_boxes, DeadlockKind, Deadlocks};

/// Which search runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Push-optimal IDA*: the fewest pushes, proven.
    #[default]
    Optimal,
    /// Any solution, as fast as possible: the feature space search over macro moves
    /// ([`fast`]).
    Fast,
}

/// Limits and reporting cadence of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Stop with [`Status::Limit`] after this many milliseconds (`None`: no limit).
    pub time_limit_ms: Option<f64>,
    /// Stop with [`Status::Limit`] after this many nodes (`None`: no limit). The fast
    /// search counts the moves it makes.
    pub node_limit: Option<u64>,
    /// Memory for the search, in MiB: the optimal search's transposition table, or the
    /// fast search's store of positions.
    pub table_mib: usize,
    /// Report progress at most this often inside an iteration, in milliseconds.
    pub progress_interval_ms: f64,
    /// Which search.
    pub mode: Mode,
    /// Effort of the shortening pass ([`shorten`]) after the fast search has found a
    /// solution (0: the solution is given as found). The optimal search's
    /// solutions have the fewest pushes already and are never shortened.
    pub shorten: u64,
    /// The fast search's development switches (all off: the search as shipped).
    pub experiments: fast::Experiments,
}

/// Default memory budgets in MiB, one source for the CLI, the page and [`Options`].
pub mod memory {
    /// The fast search's stores, natively (the CLI; divided between its jobs and threads).
    pub const FAST_MIB: usize = 1024;
    /// The optimal search's table, natively.
    pub const OPTIMAL_MIB: usize = 256;
    /// The fast search in the browser: a wasm tab has 2–4 GB at most, and a store may grow
    /// past its budget by one step of growth (a quarter of a vector, or a hash table's
    /// doubling) before it notices; the page divides it between its workers.
    pub const PAGE_FAST_MIB: usize = 512;
    /// The optimal search's table in the browser, and [`super::Options`]'s default.
    pub const PAGE_OPTIMAL_MIB: usize = 64;
}

/// The shortening pass's default effort ([`shorten::shorten_solution`]: box searches, and
/// twenty times as many positions). Measured on the fast search's XSokoban solutions (79):
/// pushes 1.4% and moves 5.4% fewer, 7.3 ms a level (median); twice the effort gains
/// 0.2% more for 12.4 ms.
pub const DEFAULT_SHORTEN: u64 = 500;

impl Default for Options {
    /// The optimal search, no time or node limit, a 64 MiB table, progress every 100 ms.
    fn default() -> Self {
        Options {
            time_limit_ms: None,
            node_limit: None,
            table_mib: memory::PAGE_OPTIMAL_MIB,
            progress_interval_ms: 100.0,
            mode: Mode::Optimal,
            shorten: DEFAULT_SHORTEN,
            experiments: fast::Experiments::default(),
        }
    }
}

pub use sokoban_core::clock::Clock;
/// The clock the searches read (one for every crate: `sokoban_core::clock`).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use sokoban_core::clock::StdClock;

/// A snapshot of the search, reported at the end of each iteration and periodically.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// IDA* iteration number (1-based).
    pub iteration: u32,
    /// Current threshold: no solution with fewer pushes exists.
    pub threshold: u32,
    /// Lower bound of the start position.
    pub root_bound: u32,
    /// Nodes generated in this iteration.
    pub nodes_iteration: u64,
    /// Nodes generated in all.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub elapsed_ms: f64,
    /// Average nodes per second so far.
    pub nodes_per_second: f64,
    /// Occupied transposition table slots.
    pub table_used: usize,
    /// Transposition table slots (the memory budget: the table grows up to it).
    pub table_capacity: usize,
    /// True when this report marks the end of an iteration: then `iteration` and
    /// `nodes_iteration` describe the iteration that just ended, and `threshold` is
    /// already the next iteration's (the proven lower bound on the pushes).
    pub iteration_done: bool,
    /// The fast search's own read-out (`None` for the optimal search). Then `nodes` counts
    /// the moves made, `iteration` is the strategy's number, and the threshold fields and
    /// the table fields are 0.
    pub fast: Option<fast::FastProgress>,
}

/// Why a search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Time,
    Nodes,
    /// The fast search filled its memory without a solution.
    Memory,
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A solution was found and verified (push-optimal from the optimal search).
    Solved,
    /// Proved: no solution exists from the position.
    Unsolvable,
    /// A time or node limit was reached.
    Limit(Limit),
    /// The caller asked to stop.
    Cancelled,
    /// Internal error: a solution failed verification by the rules engine (a bug; the
    /// solution is withheld). The message is in [`Report::error`].
    Error,
}

/// A verified solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// All moves, walks and pushes, from the position solved.
    pub moves: Vec<Move>,
    /// Number of pushes (optimal when the optimal search found it).
    pub pushes: usize,
    /// The pushes and moves of the solution as the search found it, when the shortening
    /// pass made it shorter.
    pub found: Option<(usize, usize)>,
}

impl Solution {
    /// The moves as LURD text.
    pub fn lurd(&self) -> String {
        self.moves.iter().map(|m| m.lurd()).collect()
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub status: Status,
    pub solution: Option<Solution>,
    pub nodes: u64,
    pub elapsed_ms: f64,
    pub iterations: u32,
    /// Threshold reached (a proven lower bound on the pushes when not solved).
    pub threshold: u32,
    /// What went wrong, for [`Status::Error`].
    pub error: Option<String>,
}

/// Why a solver could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

/// What one call of [`Solver::step`] ended with.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Still searching; here is the progress.
    Running(Progress),
    /// Finished.
    Done(Report),
}

/// The part of the time limit the setup's searches may take ([`Solver::new_timed`]): the
/// second packing search is sized to take about a quarter where its pulls are slowest on
/// the development levels (Sasquatch I 34), so only slower boards reach this.
pub const SETUP_SHARE: f64 = 0.5;

/// The search behind a [`Solver`].
enum Search {
    Optimal(Box<Engine>),
    Fast(Box<fast::FastSearch>),
}

/// A search in progress, advanced by [`Solver::step`]: the push-optimal IDA* or the fast
/// search, as [`Options::mode`] says.
pub struct Solver {
    level: Level,
    search: Search,
    options: Options,
    t0: Option<f64>,
    last_report_ms: f64,
    done: Option<Report>,
    /// [`Solver::step`] returns once the work done reaches this ([`Solver::pause_at`]).
    pause_at: Option<u64>,
}

impl Solver {
    /// Prepare a search from `pos` (any position of the level, not only its start). The
    /// setup is not timed: a board where its searches are slow may take longer than the
    /// time limit ([`Solver::new_timed`] stops them).
    pub fn new(level: &Level, pos: &Position, options: Options) -> Result<Solver, SetupError> {
        Solver::setup(level, pos, options, fast::Deadline::NONE)
    }

    /// [`Solver::new`] on `clock`, the time (and its limit) counted from `t0`, setup
    /// included, the setup's searches stopped at [`SETUP_SHARE`] of the limit.
    pub fn new_timed(
        level: &Level,
        pos: &Position,
        options: Options,
        clock: &dyn Clock,
        t0: f64,
    ) -> Result<Solver, SetupError> {
        let limit = options.time_limit_ms;
        let passed = || limit.is_some_and(|l| clock.now_ms() - t0 >= l * SETUP_SHARE);
        let mut solver = Solver::setup(level, pos, options, fast::Deadline::new(&passed))?;
        solver.count_from(t0);
        Ok(solver)
    }

    fn setup(
        level: &Level,
        pos: &Position,
        options: Options,
        deadline: fast::Deadline,
    ) -> Result<Solver, SetupError> {
        let board = &level.board;
        if pos.boxes.len() != board.len() {
            return Err(SetupError("the position does not fit the board".into()));
        }
        if pos.player >= board.len() || !board.is_floor(pos.player) || pos.boxes[pos.player] {
            return Err(SetupError("the player is not on a free floor square".into()));
        }
        let boxes = pos.box_squares();
        if boxes.iter().any(|&b| !board.is_floor(b)) {
            return Err(SetupError("a box is not on a floor square".into()));
        }
        if boxes.len() != board.goal_count() || boxes.is_empty() {
            return Err(SetupError(format!(
                "{} boxes but {} goals",
                boxes.len(),
                board.goal_count()
            )));
        }
        if options.mode == Mode::Fast && boxes.len() > fast::board::MAX_BOXES {
            return Err(SetupError(format!(
                "the fast search takes at most {} boxes",
                fast::board::MAX_BOXES
            )));
        }
        let (reduced, boxes) = without_fixed_boxes(board, boxes);
        let p = Problem::new(&reduced);
        let player = p.compact[pos.player];
        let cboxes: Vec<u16> = boxes.iter().map(|&b| p.compact[b]).collect();
        debug_assert!(player != NONE && cboxes.iter().all(|&b| b != NONE));
        let bytes = options.table_mib.max(1) * 1024 * 1024;
        let search = match options.mode {
            Mode::Optimal => {
                let mut engine = Engine::new(p, player, &cboxes, bytes);
                engine.enable_groups();
                engine.enable_pairs();
                engine.enable_reduced(&reduced);
                Search::Optimal(Box::new(engine))
            }
            Mode::Fast => {
                let exp = &options.experiments;
                Search::Fast(Box::new(fast::FastSearch::with_deadline(
                    &reduced,
                    p,
                    (player, &cboxes),
                    bytes,
                    options.time_limit_ms,
                    deadline,
                    exp,
                )))
            }
        };
        let mut start = level.clone();
        start.start = pos.clone();
        Ok(Solver {
            level: start,
            search,
            options,
            t0: None,
            last_report_ms: 0.0,
            done: None,
            pause_at: None,
        })
    }

    /// Count elapsed time (and the time limit) from `t0` on the search's clock instead of
    /// from the first [`Solver::step`], so that the setup counts too: only through
    /// [`Solver::new_timed`], which also stops the setup's searches at the limit.
    fn count_from(&mut self, t0: f64) {
        if self.done.is_none() {
            self.t0 = Some(t0);
        }
    }

    /// Counters of the optimal search engine (threshold, iterations, nodes, PI-corral
    /// prunes); all zero for the fast search (see [`Solver::fast_stats`]).
    pub fn stats(&self) -> optimal::Stats {
        match &self.search {
            Search::Optimal(e) => e.stats(),
            Search::Fast(_) => optimal::Stats::default(),
        }
    }

    /// Counters of the fast search's strategy running (`None` for the optimal search).
    pub fn fast_stats(&self) -> Option<fast::fess::FessStats> {
        match &self.search {
            Search::Optimal(_) => None,
            Search::Fast(f) => Some(f.stats()),
        }
    }

    /// The fast search's trace lines so far ([`fast::Experiments::trace`]), taken out.
    pub fn take_trace(&mut self) -> Vec<String> {
        match &mut self.search {
            Search::Optimal(_) => Vec::new(),
            Search::Fast(f) => f.take_trace(),
        }
    }

    /// The fast search's strategy that found the solution (`None` before, or for the
    /// optimal search).
    pub fn solved_by(&self) -> Option<&'static str> {
        match &self.search {
            Search::Optimal(_) => None,
            Search::Fast(f) => f.solved_by(),
        }
    }

    /// The fast search's best position so far drawn as text (`None` for the optimal
    /// search): for studying the search.
    pub fn fast_best_picture(&self) -> Option<String> {
        match &self.search {
            Search::Optimal(_) => None,
            Search::Fast(f) => f.best_picture(&self.level.board),
        }
    }

    /// The problem searched (compact squares of the board with fixed boxes as walls).
    fn problem(&self) -> &Problem {
        match &self.search {
            Search::Optimal(e) => e.problem(),
            Search::Fast(f) => f.problem(),
        }
    }

    /// The work done so far, counted the same on every run: the fast search's operations
    /// ([`fast::FastSearch::op_work`]), or with `turnwork` its turns
    /// ([`fast::FastSearch::turns`]); the optimal search's nodes.
    pub fn work(&self) -> u64 {
        match &self.search {
            Search::Optimal(e) => e.stats().nodes,
            Search::Fast(f) if self.options.experiments.turn_work => f.turns(),
            Search::Fast(f) => f.op_work(),
        }
    }

    /// Make [`Solver::step`] return (running) as soon as [`Solver::work`] reaches `work`
    /// (`None`: no such pause). The portfolio's threads agree this way on which one solved
    /// first, whatever their speeds.
    pub fn pause_at(&mut self, work: Option<u64>) {
        self.pause_at = work;
    }

    /// Nodes (optimal search) or moves and pulls made (fast search) so far.
    fn nodes(&self) -> u64 {
        match &self.search {
            Search::Optimal(e) => e.stats().nodes,
            Search::Fast(f) => f.units(),
        }
    }

    /// The current progress.
    pub fn progress(&self, clock: &dyn Clock) -> Progress {
        let elapsed = self.t0.map_or(0.0, |t| clock.now_ms() - t);
        let nodes = self.nodes();
        let nodes_per_second = if elapsed > 0.0 { nodes as f64 * 1000.0 / elapsed } else { 0.0 };
        match &self.search {
            Search::Optimal(engine) => {
                let st = engine.stats();
                let (used, cap) = engine.table_fill();
                Progress {
                    iteration: st.iteration,
                    threshold: st.threshold,
                    root_bound: st.root_bound,
                    nodes_iteration: st.nodes_iter,
                    nodes,
                    elapsed_ms: elapsed,
                    nodes_per_second,
                    table_used: used,
                    table_capacity: cap,
                    iteration_done: false,
                    fast: None,
                }
            }
            Search::Fast(f) => {
                let fp = f.progress();
                Progress {
                    iteration: fp.strategy_number,
                    threshold: 0,
                    root_bound: 0,
                    nodes_iteration: fp.generated,
                    nodes,
                    elapsed_ms: elapsed,
                    nodes_per_second,
                    table_used: 0,
                    table_capacity: 0,
                    iteration_done: false,
                    fast: Some(fp),
                }
            }
        }
    }

    fn finish(&mut self, clock: &dyn Clock, status: Status, solution: Option<Solution>) -> Report {
        let (iterations, threshold) = match &self.search {
            Search::Optimal(e) => {
                let st = e.stats();
                (st.iteration, st.threshold)
            }
            Search::Fast(f) => (f.progress().strategy_number, 0),
        };
        let r = Report {
            status,
            solution,
            nodes: self.nodes(),
            elapsed_ms: self.t0.map_or(0.0, |t| clock.now_ms() - t),
            iterations,
            threshold,
            error: None,
        };
        self.done = Some(r.clone());
        r
    }

    /// Stop the search as cancelled.
    pub fn cancel(&mut self, clock: &dyn Clock) -> Report {
        if let Some(r) = &self.done {
            return r.clone();
        }
        self.finish(clock, Status::Cancelled, None)
    }

    /// Finish with a solution given as pushes (compact square the box leaves, direction),
    /// after the rules engine has replayed it.
    fn solved(&mut self, clock: &dyn Clock, pushes: &[(u16, u8)]) -> Report {
        let built = build_solution(&self.level, self.problem(), pushes);
        let built = match (&self.search, built) {
            (Search::Fast(_), Ok(sol)) if self.options.shorten > 0 => Ok(
                shorten::shorten_solution(&self.level, self.problem(), sol, self.options.shorten),
            ),
            (_, built) => built,
        };
        match built {
            Ok(sol) => self.finish(clock, Status::Solved, Some(sol)),
            Err(e) => {
                let mut r = self.finish(clock, Status::Error, None);
                r.error = Some(format!("the solution failed verification: {e}"));
                self.done = Some(r.clone());
                r
            }
        }
    }

    /// Search for up to about `slice_ms` milliseconds (checking the clock every 1024 nodes,
    /// or every few moves of the fast search), returning early at the end of an iteration or
    /// when progress is due. A slice of zero (or less) searches nothing: it reports the
    /// progress so far (a page shows the set-up read-out before the first real slice, even
    /// when the search then takes only a moment).
    pub fn step(&mut self, clock: &dyn Clock, slice_ms: f64) -> Step {
        if let Some(r) = &self.done {
            return Step::Done(r.clone());
        }
        let now = clock.now_ms();
        let t0 = *self.t0.get_or_insert(now);
        if slice_ms <= 0.0 {
            return Step::Running(self.progress(clock));
        }
        let slice_end = now + slice_ms;
        loop {
            if self.pause_at.is_some_and(|w| self.work() >= w) {
                return Step::Running(self.progress(clock));
            }
            if let Some(limit) = self.options.time_limit_ms {
                if clock.now_ms() - t0 >= limit {
                    return Step::Done(self.finish(clock, Status::Limit(Limit::Time), None));
                }
            }
            let nodes = self.nodes();
            let mut budget = match self.search {
                Search::Optimal(_) => 1024u64,
                // A move of the fast search costs a box search per box: tens of microseconds.
                // The strategy with the largest share (the greedy probe, whose moves cost
                // a twentieth) makes this many per turn, the rules strategy a quarter.
                Search::Fast(_) => 64u64,
            };
            if let Some(limit) = self.options.node_limit {
                if nodes >= limit {
                    let r = self.finish(clock, Status::Limit(Limit::Nodes), None);
                    return Step::Done(r);
                }
                budget = budget.min(limit - nodes);
            }
            match &mut self.search {
                Search::Optimal(engine) => match engine.run(budget) {
                    Event::Budget => {}
                    Event::IterationDone => {
                        let mut p = self.progress(clock);
                        p.iteration_done = true;
                        self.last_report_ms = clock.now_ms();
                        return Step::Running(p);
                    }
                    Event::Solved(pushes) => {
                        let pushes: Vec<(u16, u8)> =
                            pushes.iter().map(|p| (p.from, p.dir)).collect();
                        return Step::Done(self.solved(clock, &pushes));
                    }
                    Event::Unsolvable => {
                        return Step::Done(self.finish(clock, Status::Unsolvable, None));
                    }
                },
                Search::Fast(f) => match f.run(budget) {
                    fast::FastEvent::Budget => {}
                    fast::FastEvent::Solved(pushes) => {
                        return Step::Done(self.solved(clock, &pushes));
                    }
                    fast::FastEvent::Unsolvable => {
                        return Step::Done(self.finish(clock, Status::Unsolvable, None));
                    }
                    fast::FastEvent::OutOfMemory => {
                        let r = self.finish(clock, Status::Limit(Limit::Memory), None);
                        return Step::Done(r);
                    }
                },
            }
            let t = clock.now_ms();
            if t - self.last_report_ms >= self.options.progress_interval_ms || t >= slice_end {
                self.last_report_ms = t;
                return Step::Running(self.progress(clock));
            }
        }
    }
}

/// Turn pushes (compact square of `p` the box leaves, direction) into moves (shortest walks
/// between pushes) from the level's start, and replay them with the rules engine: the
/// solution only if they solve the level.
pub(crate) fn build_solution(
    level: &Level,
    p: &Problem,
    pushes: &[(u16, u8)],
) -> Result<Solution, String> {
    let board = &level.board;
    let mut pos = level.start.clone();
    let mut moves = Vec::new();
    for &(from, dir) in pushes {
        let from = *p.board_sq.get(from as usize).ok_or("push from off the floor")?;
        let dir = Dir::from_index(dir as usize);
        let stand = board.neighbor(from, dir.opposite()).ok_or("push from off the board")?;
        let walk =
            sokoban_path::walk_path(board, &pos, stand).ok_or("player cannot reach the push")?;
        for d in walk {
            moves.push(pos.apply(board, d).ok_or("walk blocked")?);
        }
        let m = pos.apply(board, dir).ok_or("push blocked")?;
        if !m.push {
            return Err("push did not move a box".into());
        }
        moves.push(m);
    }
    let mut game = Game::new(level.clone());
    game.play(&moves).map_err(|e| e.message)?;
    if !game.is_solved() {
        return Err("the moves do not solve the level".into());
    }
    Ok(Solution { pushes: game.pushes(), moves, found: None })
}

/// The board with the boxes that can never move again and stand on goals (with every box
/// frozen with them) turned into walls, and the boxes left. No solution moves such a box,
/// so the search need not carry it, and as walls they lengthen the push distances of the
/// other boxes and can make more squares dead (which can freeze more boxes: repeated until
/// nothing changes). When every box is fixed the position is solved and nothing changes.
fn without_fixed_boxes(board: &Board, mut boxes: Vec<Square>) -> (Board, Vec<Square>) {
    let mut board = board.clone();
    loop {
        let p = Problem::without_components(&board);
        let mut on = vec![false; p.n];
        for &b in &boxes {
            on[p.compact[b] as usize] = true;
        }
        let fixed = analysis::deadlock::frozen_on_goals(&p, &|s| on[s as usize]);
        if fixed.is_empty() || fixed.len() == boxes.len() {
            return (board, boxes);
        }
        board = analysis::fixed::walled(&board, &p, &fixed);
        boxes.retain(|&b| board.cells()[b] != Cell::Wall);
    }
}

/// Solve in one call, reporting progress; `on_progress` returns false to cancel.
pub fn solve(
    level: &Level,
    pos: &Position,
    options: Options,
    clock: &dyn Clock,
    mut on_progress: impl FnMut(&Progress) -> bool,
) -> Result<Report, SetupError> {
    let mut s = Solver::new_timed(level, pos, options, clock, clock.now_ms())?;
    loop {
        match s.step(clock, f64::INFINITY) {
            Step::Done(r) => return Ok(r),
            Step::Running(p) => {
                if !on_progress(&p) {
                    return Ok(s.cancel(clock));
                }
            }
        }
    }
}
