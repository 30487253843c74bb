//! Solution optimizer: makes a Sokoban solution shorter — fewer moves, or fewer pushes —
//! and never longer. A crate of its own because that is one job, on top of the solver's
//! analysis (compact squares, dead squares, freeze deadlocks, Zobrist keys) and the rules
//! engine, which replays every result.
//!
//! The method is the vicinity search of the desktop optimizers ([`vicinity`]): the box
//! placements near the solution (one, two or three boxes on any of their K nearest
//! squares) and a shortest-path search over pushes through them ([`search`]), repeated
//! while it gains. When the widest vicinity the memory holds gains nothing, a global
//! search (A\* over every placement, pruned by the best solution's length) looks for a
//! shorter solution anywhere, and when it runs out of nodes within its memory, proves the
//! best optimal.
//! An [`Optimizer`] runs in slices ([`Optimizer::step`]) with a clock the caller gives,
//! within a memory budget, and keeps the best solution so far; it reads no environment and
//! prints nothing.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub mod lanes;
pub mod search;
mod table;
pub mod vicinity;

use sokoban_core::{Dir, Game, Level, Move, Position};
use sokoban_solver::analysis::problem::Problem;

pub use sokoban_solver::Clock;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use sokoban_solver::StdClock;

use search::{Event, Search, Through};
use vicinity::{Push, Vicinity};

/// What "shorter" means: the first count decides, the second breaks ties, and then the
/// tie-breakers players rank by: fewest box lines, then fewest box changes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Metric {
    /// Fewest moves, then pushes, box lines, box changes.
    #[default]
    Moves,
    /// Fewest pushes, then moves, box lines, box changes.
    Pushes,
}

impl Metric {
    /// The counts in the metric's order, to compare lexicographically.
    pub fn key(self, c: Counts) -> (usize, usize, usize, usize) {
        match self {
            Metric::Moves => (c.moves, c.pushes, c.box_lines, c.box_changes),
            Metric::Pushes => (c.pushes, c.moves, c.box_lines, c.box_changes),
        }
    }
}

/// The default memory budget: 256 MiB (a quarter for the vicinity's placements, the rest
/// for the search).
pub const DEFAULT_MEMORY: usize = 256 << 20;

/// The default vicinity: one box on any of its 20 nearest squares, two on any of their 10,
/// three on any of their 5.
pub const DEFAULT_VICINITY: [usize; 3] = [20, 10, 5];

/// What to optimize and within what limits.
#[derive(Clone, Debug, PartialEq)]
pub struct OptimizeOptions {
    pub metric: Metric,
    /// K for one, two, three ... boxes moved at once (see [`vicinity`]).
    pub vicinity: Vec<usize>,
    /// Memory for the placements and the search, in bytes ([`DEFAULT_MEMORY`]).
    pub memory_bytes: usize,
    /// Stop after this many milliseconds (`None`: no limit), with the best so far.
    pub time_limit_ms: Option<f64>,
    /// Stop after this much work (`None`: no limit): placements tried plus search nodes,
    /// a budget that does not depend on the machine.
    pub node_limit: Option<u64>,
    /// Report progress at most this often, in milliseconds.
    pub progress_interval_ms: f64,
    /// Run the global search once the vicinity search gains nothing.
    pub global: bool,
}

impl Default for OptimizeOptions {
    fn default() -> Self {
        OptimizeOptions {
            metric: Metric::Moves,
            vicinity: DEFAULT_VICINITY.to_vec(),
            memory_bytes: DEFAULT_MEMORY,
            time_limit_ms: None,
            node_limit: None,
            progress_interval_ms: 100.0,
            global: true,
        }
    }
}

/// The counts players score a solution by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub moves: usize,
    pub pushes: usize,
    /// Straight runs of pushes: a push starts a new line unless the push before moved the
    /// same box in the same direction (walks in between do not matter).
    pub box_lines: usize,
    /// Pushes of another box than the push before (the first push counts one).
    pub box_changes: usize,
}

impl Counts {
    /// The counts of a solution with `moves` moves and these pushes (the square the box
    /// leaves, the direction), in order.
    fn of(p: &Problem, moves: usize, pushes: &[Push]) -> Counts {
        let (mut box_lines, mut box_changes) = (0, 0);
        let mut last = search::START;
        for &push in pushes {
            let (line, change) = search::starts(p, last, push);
            (box_lines, box_changes) = (box_lines + line as usize, box_changes + change as usize);
            last = push;
        }
        Counts { moves, pushes: pushes.len(), box_lines, box_changes }
    }
}

/// Which method is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Building the vicinity: placements with this many boxes moved, each on any of its
    /// `nearest` squares.
    VicinityBuild { boxes: usize, nearest: usize },
    /// Searching the vicinity for the shortest solution through it.
    VicinitySearch,
    /// The global search: A\* over every placement, under the best solution's length.
    Global,
}

/// A snapshot of the optimizer, reported about every [`OptimizeOptions::progress_interval_ms`].
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// The input solution's counts (after cutting moves past the solved position).
    pub start: Counts,
    /// The best solution's counts so far.
    pub best: Counts,
    pub method: Method,
    /// Rounds that made the solution shorter so far.
    pub gains: u32,
    /// How much of the solution the method has gone through, 0 to 1 (the global search:
    /// how far its lower bound has risen from the start towards the best's length).
    pub done: f64,
    /// Placements in the vicinity.
    pub placements: usize,
    /// Work done: placements tried and search nodes.
    pub nodes: u64,
    pub memory_bytes: usize,
    pub elapsed_ms: f64,
}

/// Why the optimizer stopped before it had nothing more to gain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Time,
    Nodes,
}

/// How an optimization ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The last round found nothing shorter in the vicinity of the best solution, at the
    /// widest vicinity the memory holds (after each round without gain one more box moves
    /// at a time, then every K doubles), nor did the global search within its memory
    /// ([`Report::optimal`] when it went through every placement it had to).
    Finished,
    /// A limit stopped it; the best so far is given.
    Limit(Limit),
    /// The caller asked to stop; the best so far is given.
    Cancelled,
}

/// The result: the best solution found (the input's when nothing shorter was), replayed
/// by the rules engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub status: Status,
    pub moves: Vec<Move>,
    pub counts: Counts,
    /// The input solution's counts.
    pub start: Counts,
    pub gains: u32,
    pub nodes: u64,
    pub elapsed_ms: f64,
    /// The vicinity or the search through it filled its memory: a larger budget might gain
    /// more (never with [`Report::optimal`]: nothing can).
    pub memory_full: bool,
    /// The global search went through every placement that could beat the best and found
    /// none: the best is optimal in the metric (with its tie-breakers).
    pub optimal: bool,
}

impl Report {
    /// The solution as LURD text.
    pub fn lurd(&self) -> String {
        sokoban_core::lurd::to_lurd(&self.moves)
    }
}

/// What one call of [`Optimizer::step`] ended with.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Running(Progress),
    Done(Report),
}

/// The input is not a solution of the level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptimizeError {
    /// What is wrong and where, e.g. `move 37 ('R') is blocked: a wall`.
    pub message: String,
    /// The 1-based move where the replay fails, when one does.
    pub step: Option<usize>,
}

impl std::fmt::Display for OptimizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OptimizeError {}

/// A solution: its moves, its pushes (compact square the box leaves, direction), counts.
#[derive(Clone, Debug)]
struct Line {
    moves: Vec<Move>,
    pushes: Vec<Push>,
    counts: Counts,
}

/// Replay `moves` on the level by the rules engine, cut after the move that solves it.
/// An error names the move that fails, or says that the moves do not solve the level.
fn replay(level: &Level, p: &Problem, moves: &[Move]) -> Result<Line, OptimizeError> {
    let board = &level.board;
    if let Err(e) = Game::new(level.clone()).check_moves(moves) {
        // Find the move the rules engine refused, to say what blocks it.
        let mut pos = level.start.clone();
        for (i, m) in moves.iter().enumerate() {
            if pos.try_move(board, m.dir) != Some(*m) {
                let why = blocked(level, &pos, m.dir).map(|w| format!(": {w}")).unwrap_or_default();
                return Err(OptimizeError {
                    message: format!("{}{why}", e.message),
                    step: Some(i + 1),
                });
            }
            pos.apply(board, m.dir);
        }
        return Err(OptimizeError { message: e.message, step: None });
    }
    let mut pos = level.start.clone();
    let mut pushes = Vec::new();
    let mut end = 0;
    if !pos.is_solved(board) {
        for (i, m) in moves.iter().enumerate() {
            if m.push {
                let from = board.neighbor(pos.player, m.dir).expect("a legal push");
                pushes.push((p.compact[from], m.dir.index() as u8));
            }
            pos.apply(board, m.dir);
            if m.push && pos.is_solved(board) {
                end = i + 1;
                break;
            }
        }
        if end == 0 {
            return Err(OptimizeError {
                message: format!(
                    "the moves do not solve the level: after all {} of them, {} of {} boxes are on goals",
                    moves.len(),
                    pos.boxes_on_goals(board),
                    level.box_count()
                ),
                step: None,
            });
        }
    }
    let moves = moves[..end].to_vec();
    let counts = Counts::of(p, moves.len(), &pushes);
    Ok(Line { moves, pushes, counts })
}

/// What stops a step in `dir` from `pos`, in words.
fn blocked(level: &Level, pos: &Position, dir: Dir) -> Option<&'static str> {
    let board = &level.board;
    let Some(next) = board.floor_neighbor(pos.player, dir) else { return Some("a wall") };
    if !pos.has_box(next) {
        return None;
    }
    match board.floor_neighbor(next, dir) {
        None => Some("the box ahead is against a wall"),
        Some(b) if pos.has_box(b) => Some("the box ahead is against another box"),
        Some(_) => None,
    }
}

/// Pushes turned into moves (the player's shortest walks between them) from the level's
/// start and replayed by the rules engine.
fn build(level: &Level, p: &Problem, pushes: &[Push]) -> Option<Line> {
    let board = &level.board;
    let mut pos = level.start.clone();
    let mut moves = Vec::new();
    for &(from, dir) in pushes {
        let from = p.board_sq[from as usize];
        let dir = Dir::from_index(dir as usize);
        let stand = board.neighbor(from, dir.opposite())?;
        for d in sokoban_path::walk_path(board, &pos, stand)? {
            moves.push(pos.apply(board, d)?);
        }
        let m = pos.apply(board, dir)?;
        if !m.push {
            return None;
        }
        moves.push(m);
    }
    let line = replay(level, p, &moves).ok()?;
    (line.moves.len() == moves.len()).then_some(line)
}

/// Where the optimizer is.
enum Phase {
    Build,
    Search,
    Global,
}

/// An optimization in progress, advanced by [`Optimizer::step`].
pub struct Optimizer {
    level: Level,
    p: Problem,
    options: OptimizeOptions,
    start: Counts,
    best: Line,
    start_boxes: Vec<u16>,
    start_player: u16,
    vicinity: Vicinity,
    search: Search,
    phase: Phase,
    gains: u32,
    memory_full: bool,
    optimal: bool,
    /// The shortest solution offered from elsewhere, not yet taken.
    offered: Option<Line>,
    t0: Option<f64>,
    last_report_ms: f64,
    done: Option<Report>,
}

impl Optimizer {
    /// Prepare to optimize `moves` (a solution of `level` from its start); an error when
    /// they do not solve it, naming the move that fails.
    pub fn new(
        level: &Level,
        moves: &[Move],
        options: OptimizeOptions,
    ) -> Result<Optimizer, OptimizeError> {
        let p = Problem::without_components(&level.board);
        let best = replay(level, &p, moves)?;
        let start_boxes: Vec<u16> =
            level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
        let start_player = p.compact[level.start.player];
        let nb = start_boxes.len();
        let set_bytes = options.memory_bytes / 4;
        let vicinity = Vicinity::new(&p, &options.vicinity, set_bytes);
        let search = Search::new(&p, nb, options.metric, options.memory_bytes - set_bytes);
        let mut o = Optimizer {
            level: level.clone(),
            start: best.counts,
            best,
            start_boxes,
            start_player,
            vicinity,
            search,
            phase: Phase::Build,
            gains: 0,
            memory_full: false,
            optimal: false,
            offered: None,
            t0: None,
            last_report_ms: 0.0,
            done: None,
            p,
            options,
        };
        o.begin_round();
        Ok(o)
    }

    /// [`Optimizer::new`] on a LURD text.
    pub fn from_lurd(
        level: &Level,
        lurd: &str,
        options: OptimizeOptions,
    ) -> Result<Optimizer, OptimizeError> {
        let moves = sokoban_core::lurd::parse_lurd(lurd)
            .map_err(|e| OptimizeError { message: e.message, step: None })?;
        Self::new(level, &moves, options)
    }

    /// The best solution so far (replayed).
    pub fn best(&self) -> (&[Move], Counts) {
        (&self.best.moves, self.best.counts)
    }

    fn begin_round(&mut self) {
        if let Some(line) = self.offered.take() {
            if self.options.metric.key(line.counts) < self.options.metric.key(self.best.counts) {
                self.best = line;
            }
        }
        self.vicinity.reset(&self.p, &self.start_boxes, &self.best.pushes);
        self.phase = Phase::Build;
    }

    /// A solution found elsewhere (another lane, [`lanes`]): replayed, and taken as the
    /// best at the start of the next round when it is shorter then. Ignored when it does
    /// not solve the level or is not shorter than the best and any offer before it.
    pub fn offer(&mut self, moves: &[Move]) {
        let Ok(line) = replay(&self.level, &self.p, moves) else { return };
        let key = |c| self.options.metric.key(c);
        let bar = match &self.offered {
            Some(o) if key(o.counts) < key(self.best.counts) => o.counts,
            _ => self.best.counts,
        };
        if key(line.counts) < key(bar) {
            self.offered = Some(line);
        }
    }

    fn nodes(&self) -> u64 {
        self.vicinity.tried + self.search.expanded
    }

    /// The current progress.
    pub fn progress(&self, clock: &dyn Clock) -> Progress {
        let (method, done) = match self.phase {
            Phase::Build => {
                let (boxes, share) = self.vicinity.stage();
                let nearest = self.vicinity.sizes().get(boxes - 1).copied().unwrap_or(0);
                (Method::VicinityBuild { boxes, nearest }, share)
            }
            Phase::Search => (
                Method::VicinitySearch,
                self.search.furthest as f64 / self.best.pushes.len().max(1) as f64,
            ),
            Phase::Global => {
                let best = self.options.metric.key(self.best.counts).0 as f64;
                let (lo, now) = (self.search.bound_start as f64, self.search.bound_now as f64);
                (Method::Global, if best > lo { (now - lo) / (best - lo) } else { 1.0 })
            }
        };
        Progress {
            start: self.start,
            best: self.best.counts,
            method,
            gains: self.gains,
            done,
            placements: self.vicinity.set.len(),
            nodes: self.nodes(),
            memory_bytes: self.vicinity.set.bytes() + self.search.bytes(),
            elapsed_ms: self.t0.map_or(0.0, |t| clock.now_ms() - t),
        }
    }

    fn finish(&mut self, clock: &dyn Clock, status: Status) -> Report {
        let r = Report {
            status,
            moves: self.best.moves.clone(),
            counts: self.best.counts,
            start: self.start,
            gains: self.gains,
            nodes: self.nodes(),
            elapsed_ms: self.t0.map_or(0.0, |t| clock.now_ms() - t),
            memory_full: self.memory_full && !self.optimal,
            optimal: self.optimal,
        };
        self.done = Some(r.clone());
        r
    }

    /// Stop, with the best solution so far.
    pub fn cancel(&mut self, clock: &dyn Clock) -> Report {
        match &self.done {
            Some(r) => r.clone(),
            None => self.finish(clock, Status::Cancelled),
        }
    }

    /// Do up to `budget` units of work (placements tried, search nodes); true when there
    /// is nothing more to gain.
    fn work(&mut self, budget: u64) -> bool {
        match self.phase {
            Phase::Build => {
                if self.vicinity.build(&self.p, budget) {
                    self.memory_full |= self.vicinity.full;
                    let (player, boxes) = (self.start_player, &self.start_boxes);
                    self.search.reset(&self.p, player, boxes, &self.best.pushes);
                    self.phase = Phase::Search;
                }
                false
            }
            Phase::Search => {
                match self.search.run(&self.p, Through::Set(&self.vicinity.set), budget) {
                    Event::Budget => false,
                    Event::Exhausted => {
                        self.memory_full |= self.search.full;
                        self.begin_global()
                    }
                    Event::Found(pushes) => {
                        if self.take(&pushes) {
                            return false;
                        }
                        // Nothing shorter near the solution: look further, while the
                        // placements fit in memory, then anywhere.
                        if !self.vicinity.full && self.vicinity.widen(&self.p) {
                            self.begin_round();
                            false
                        } else {
                            self.begin_global()
                        }
                    }
                }
            }
            Phase::Global => match self.search.run(&self.p, Through::Bound, budget) {
                Event::Budget => false,
                Event::Exhausted => {
                    self.optimal = !self.search.full;
                    true
                }
                // Back to the vicinity of the shorter solution; a found solution that is
                // not shorter (it cannot be: the bound prunes those) ends it.
                Event::Found(pushes) => !self.take(&pushes),
            },
        }
    }

    /// Take the pushes as the best solution when they are shorter, and start a round
    /// around them.
    fn take(&mut self, pushes: &[Push]) -> bool {
        let m = self.options.metric;
        let built = build(&self.level, &self.p, pushes);
        debug_assert!(built.is_some(), "the search's pushes replay: {pushes:?}");
        match built {
            Some(line) if m.key(line.counts) < m.key(self.best.counts) => {
                self.best = line;
                self.gains += 1;
                self.begin_round();
                true
            }
            _ => false,
        }
    }

    /// Start the global search (when the options ask for it); true when there is nothing
    /// more to do.
    fn begin_global(&mut self) -> bool {
        if !self.options.global {
            return true;
        }
        let (player, boxes) = (self.start_player, &self.start_boxes);
        self.search.reset_global(&self.p, player, boxes, self.best.counts);
        self.phase = Phase::Global;
        false
    }

    /// Work for up to about `slice_ms` milliseconds, returning early when progress is due.
    /// A slice of zero reports the progress so far.
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
            if let Some(r) = self.work_within(clock, t0, u64::MAX) {
                return Step::Done(r);
            }
            let t = clock.now_ms();
            if t - self.last_report_ms >= self.options.progress_interval_ms || t >= slice_end {
                self.last_report_ms = t;
                return Step::Running(self.progress(clock));
            }
        }
    }

    /// Work until `units` more units are done (placements tried, search nodes), or to the
    /// end or a limit: then the report.
    pub fn run_units(&mut self, clock: &dyn Clock, units: u64) -> Option<Report> {
        if let Some(r) = &self.done {
            return Some(r.clone());
        }
        let t0 = *self.t0.get_or_insert_with(|| clock.now_ms());
        let end = self.nodes() + units;
        loop {
            let left = end.saturating_sub(self.nodes());
            if left == 0 {
                return None;
            }
            if let Some(r) = self.work_within(clock, t0, left) {
                return Some(r);
            }
        }
    }

    /// Up to 4096 units of work (at most `cap`, at least one) within the time and work
    /// limits counted from `t0`: the report when the optimizer ends.
    fn work_within(&mut self, clock: &dyn Clock, t0: f64, cap: u64) -> Option<Report> {
        if let Some(limit) = self.options.time_limit_ms {
            if clock.now_ms() - t0 >= limit {
                return Some(self.finish(clock, Status::Limit(Limit::Time)));
            }
        }
        let mut budget = cap.min(4096);
        if let Some(limit) = self.options.node_limit {
            let nodes = self.nodes();
            if nodes >= limit {
                return Some(self.finish(clock, Status::Limit(Limit::Nodes)));
            }
            budget = budget.min(limit - nodes);
        }
        self.work(budget).then(|| self.finish(clock, Status::Finished))
    }

    /// Count elapsed time (and the time limit) from `t0` on the caller's clock instead of
    /// from the first [`Optimizer::step`], so that the setup counts too.
    pub fn count_from(&mut self, t0: f64) {
        if self.done.is_none() {
            self.t0 = Some(t0);
        }
    }
}

/// Optimize in one call, reporting progress; `on_progress` returns false to cancel.
pub fn optimize(
    level: &Level,
    moves: &[Move],
    options: OptimizeOptions,
    clock: &dyn Clock,
    mut on_progress: impl FnMut(&Progress) -> bool,
) -> Result<Report, OptimizeError> {
    let t0 = clock.now_ms();
    let mut o = Optimizer::new(level, moves, options)?;
    o.count_from(t0);
    loop {
        match o.step(clock, f64::INFINITY) {
            Step::Done(r) => return Ok(r),
            Step::Running(p) => {
                if !on_progress(&p) {
                    return Ok(o.cancel(clock));
                }
            }
        }
    }
}
