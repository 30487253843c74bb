//! Sliding-tile puzzles — the 8-puzzle, the 15-puzzle, the 24-puzzle and any board from
//! 2 x 2 to 5 x 5 with any goal layout — and an optimal solver. Plain Rust, no browser
//! types: the CLI calls it directly and the wasm crate runs it in a Web Worker, in slices
//! ([`Solver::step`]), so the worker stays responsive and can be cancelled.
//!
//! - [`Board`]: tiles in row-major order, 0 the blank; [`Board::can_reach`] decides at once
//!   whether a goal can be reached (permutation parity against the blank's distance).
//! - [`Game`]: a position being played, with undo and redo.
//! - [`Solver`]: boards of at most 9 cells by A* with the Manhattan distance ([`astar`]);
//!   larger ones by IDA* ([`ida`]) with additive pattern databases ([`pdb`]: 6-6-3 for the
//!   15-puzzle, 5-5-5-5-4 for the 24-puzzle), built once per board size and kept in a
//!   [`DbCache`], with the lookup of the mirror image where the goal allows; the Manhattan
//!   distance or linear conflicts on request.
//!
//! Every solution is replayed by [`Board::play`] and compared with the goal before it is
//! returned.

// Index loops over parallel, cell-indexed tables read better than zipped iterators here.
#![allow(clippy::needless_range_loop)]

pub mod astar;
pub mod board;
pub mod ida;
pub mod pdb;

use std::sync::Arc;

pub use board::{
    letters, parse_moves, parse_size, Board, Dir, Game, GoalKind, PuzzleError, Rng, MAX_CELLS,
    MAX_SIDE, MIN_SIDE,
};
pub use pdb::{DbCache, PatternDb};

use astar::{Astar, AstarEvent, MAX_ASTAR_CELLS};
use ida::{Ida, IdaEvent, LinearConflict, Manhattan, Pdb};
use pdb::PdbBuilder;

pub use sokoban_core::clock::Clock;
/// The clock the solver reads (one for every crate: `sokoban_core::clock`).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use sokoban_core::clock::StdClock;

/// Which lower bound guides the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HeuristicKind {
    /// A* with the Manhattan distance up to 9 cells, pattern databases above.
    #[default]
    Auto,
    /// IDA* with the Manhattan distance (Korf 1985).
    Manhattan,
    /// IDA* with the Manhattan distance plus linear conflicts.
    LinearConflict,
    /// IDA* with additive pattern databases (any size, also 9 cells and less).
    PatternDb,
}

impl HeuristicKind {
    pub fn parse(s: &str) -> Option<HeuristicKind> {
        match s {
            "auto" => Some(HeuristicKind::Auto),
            "manhattan" | "md" => Some(HeuristicKind::Manhattan),
            "linear-conflict" | "lc" => Some(HeuristicKind::LinearConflict),
            "pdb" | "pattern-db" | "database" => Some(HeuristicKind::PatternDb),
            _ => None,
        }
    }
}

/// Limits and choices of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Stop with [`Status::Limit`] after this many milliseconds (`None`: no limit). The
    /// database build counts.
    pub time_limit_ms: Option<f64>,
    /// Stop with [`Status::Limit`] after this many nodes (`None`: no limit).
    pub node_limit: Option<u64>,
    /// Report progress at most this often inside an iteration, in milliseconds.
    pub progress_interval_ms: f64,
    pub heuristic: HeuristicKind,
    /// Also look up the mirror image across the diagonal (pattern databases on a square
    /// board whose goal allows it).
    pub mirror: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            time_limit_ms: None,
            node_limit: None,
            progress_interval_ms: 100.0,
            heuristic: HeuristicKind::Auto,
            mirror: true,
        }
    }
}

/// Why a search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Time,
    Nodes,
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// An optimal solution was found and replayed to the goal.
    Solved,
    /// The goal cannot be reached (decided by parity, without a search).
    Unsolvable,
    Limit(Limit),
    Cancelled,
    /// A solution failed to replay (a bug; it is withheld). See [`Report::error`].
    Error,
}

/// What the solver is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Building pattern databases.
    Building,
    /// Searching.
    Searching,
}

/// The pattern databases of a search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DbInfo {
    /// Tables the search uses.
    pub tables: usize,
    /// Of them, ready (built now or found in the cache).
    pub ready: usize,
    /// Of them, found in the cache.
    pub cached: usize,
    /// Fraction of the table being built (0..1).
    pub building: f64,
    /// Bytes of the tables ready.
    pub bytes: usize,
    /// Milliseconds their builds took (when they were built).
    pub build_ms: f64,
    /// Group sizes, e.g. "6-6-3".
    pub partition: String,
    /// Whether the mirror lookup is used.
    pub mirrored: bool,
}

/// A snapshot of the search, reported at the end of each iteration and periodically.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub phase: Phase,
    /// "A*" or "IDA*".
    pub algorithm: &'static str,
    /// "Manhattan", "linear conflict" or "pattern databases".
    pub heuristic: &'static str,
    /// IDA* iteration (1-based); 1 for A*.
    pub iteration: u32,
    /// No solution has fewer moves (the IDA* threshold, or A*'s f being expanded).
    pub threshold: u32,
    /// Lower bound of the start.
    pub root_bound: u32,
    pub nodes_iteration: u64,
    /// Nodes generated in all (A*: positions expanded).
    pub nodes: u64,
    pub elapsed_ms: f64,
    pub nodes_per_second: f64,
    /// True when this report marks the end of an iteration: `iteration` and
    /// `nodes_iteration` then describe the iteration that ended, and `threshold` is the
    /// next one's.
    pub iteration_done: bool,
    pub db: DbInfo,
}

/// A solution: the blank's moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub moves: Vec<Dir>,
}

impl Solution {
    /// The moves as `U R D L` letters.
    pub fn letters(&self) -> String {
        letters(&self.moves)
    }

    /// The tiles that slide, in order.
    pub fn tiles(&self, start: &Board) -> Vec<u8> {
        let mut b = start.clone();
        self.moves.iter().filter_map(|&d| b.slide(d)).collect()
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
    /// The threshold reached: a proven lower bound on the moves when not solved.
    pub threshold: u32,
    pub error: Option<String>,
}

/// What one call of [`Solver::step`] ended with.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Running(Progress),
    Done(Report),
}

/// How a board is flipped so that a goal with the blank in a corner has it in the top-left
/// corner (the tables are built for that layout and shared by all four corners).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Flip {
    h: bool,
    v: bool,
}

impl Flip {
    fn for_goal(goal: &Board) -> Flip {
        let (w, h) = (goal.width(), goal.height());
        let b = goal.blank();
        let (r, c) = (b / w, b % w);
        if (r == 0 || r == h - 1) && (c == 0 || c == w - 1) {
            Flip { h: c != 0, v: r != 0 }
        } else {
            Flip::default()
        }
    }

    fn cell(self, w: usize, h: usize, cell: usize) -> usize {
        let (mut r, mut c) = (cell / w, cell % w);
        if self.v {
            r = h - 1 - r;
        }
        if self.h {
            c = w - 1 - c;
        }
        r * w + c
    }

    fn board(self, b: &Board) -> Board {
        let (w, h) = (b.width(), b.height());
        let mut t = vec![0u8; b.len()];
        for (c, &x) in b.tiles().iter().enumerate() {
            t[self.cell(w, h, c)] = x;
        }
        Board::new(w, h, t).expect("a flip keeps a board valid")
    }

    /// A move of the flipped board as a move of the original one (a flip is its own
    /// inverse).
    fn dir(self, d: Dir) -> Dir {
        match d {
            Dir::Left | Dir::Right if self.h => d.opposite(),
            Dir::Up | Dir::Down if self.v => d.opposite(),
            _ => d,
        }
    }
}

enum Engine {
    /// Nothing to search: the answer is known.
    None,
    Astar(Box<Astar>),
    Manhattan(Box<Ida<Manhattan>>),
    Linear(Box<Ida<LinearConflict>>),
    Pdb(Box<Ida<Pdb>>),
}

/// Databases still to build before the search starts.
struct Building {
    groups: Vec<Vec<u8>>,
    tables: Vec<Arc<PatternDb>>,
    builder: Option<PdbBuilder>,
}

/// A search in progress, advanced by [`Solver::step`].
pub struct Solver {
    start: Board,
    goal: Board,
    flip: Flip,
    /// The flipped start and goal the engines see.
    fstart: Board,
    fgoal: Board,
    options: Options,
    cache: DbCache,
    building: Option<Building>,
    engine: Engine,
    db: DbInfo,
    heuristic: &'static str,
    algorithm: &'static str,
    /// Set when the answer is known before any search (unsolvable, already solved).
    known: Option<Status>,
    t0: Option<f64>,
    last_report_ms: f64,
    done: Option<Report>,
    /// The start's lower bound, kept when the engine goes back to the cache.
    root_bound: u32,
    /// When the databases' build started.
    build_t0: Option<f64>,
}

impl Solver {
    /// Prepare a search from `start` to `goal` (same size). Pattern databases are taken
    /// from `cache` when there, else built by the first steps and put there.
    pub fn new(
        start: &Board,
        goal: &Board,
        options: Options,
        cache: &DbCache,
    ) -> Result<Solver, PuzzleError> {
        if start.width() != goal.width() || start.height() != goal.height() {
            return Err(PuzzleError(format!(
                "the position is {}x{} but the goal {}x{}",
                start.width(),
                start.height(),
                goal.width(),
                goal.height()
            )));
        }
        let flip = Flip::for_goal(goal);
        let (fstart, fgoal) = (flip.board(start), flip.board(goal));
        let n = start.len();
        let mut s = Solver {
            start: start.clone(),
            goal: goal.clone(),
            flip,
            fstart,
            fgoal,
            options,
            cache: cache.clone(),
            building: None,
            engine: Engine::None,
            db: DbInfo::default(),
            heuristic: "Manhattan",
            algorithm: "IDA*",
            known: None,
            t0: None,
            last_report_ms: 0.0,
            done: None,
            root_bound: 0,
            build_t0: None,
        };
        if !start.can_reach(goal) {
            s.known = Some(Status::Unsolvable);
            return Ok(s);
        }
        if start == goal {
            s.known = Some(Status::Solved);
            return Ok(s);
        }
        let (w, fs, fg) = (start.width(), s.fstart.tiles().to_vec(), s.fgoal.tiles().to_vec());
        match s.options.heuristic {
            HeuristicKind::Auto if n <= MAX_ASTAR_CELLS => {
                let mut a = s.cache.take_astar(w, start.height(), &fg);
                a.start(&fs);
                s.algorithm = "A*";
                s.engine = Engine::Astar(a);
            }
            HeuristicKind::Manhattan => {
                s.engine =
                    Engine::Manhattan(Box::new(Ida::new(w, &fs, &fg, Manhattan::new(w, &fg))));
            }
            HeuristicKind::LinearConflict => {
                s.heuristic = "linear conflict";
                let h = LinearConflict::new(w, &fg);
                s.engine = Engine::Linear(Box::new(Ida::new(w, &fs, &fg, h)));
            }
            HeuristicKind::Auto | HeuristicKind::PatternDb => {
                s.heuristic = "pattern databases";
                let groups = pdb::partition(w, start.height(), s.fgoal.blank());
                s.db.tables = groups.len();
                s.db.partition =
                    groups.iter().map(|g| g.len().to_string()).collect::<Vec<_>>().join("-");
                let mut b = Building { groups, tables: Vec::new(), builder: None };
                s.take_cached(&mut b);
                s.building = Some(b);
            }
        }
        Ok(s)
    }

    /// Take the next tables from the cache while they are there.
    fn take_cached(&mut self, b: &mut Building) {
        let (w, h) = (self.start.width(), self.start.height());
        while b.builder.is_none() && b.tables.len() < b.groups.len() {
            let Some(t) = self.cache.get(w, h, &b.groups[b.tables.len()]) else { return };
            self.db.cached += 1;
            self.db.ready += 1;
            self.db.bytes += t.bytes();
            b.tables.push(t);
        }
    }

    /// Count the elapsed time (and the time limit) from `t0` instead of the first step.
    pub fn count_from(&mut self, t0: f64) {
        self.t0 = Some(t0);
    }

    fn nodes(&self) -> u64 {
        match &self.engine {
            Engine::None => 0,
            Engine::Astar(a) => a.expanded,
            Engine::Manhattan(e) => e.nodes,
            Engine::Linear(e) => e.nodes,
            Engine::Pdb(e) => e.nodes,
        }
    }

    fn counters(&self) -> (u32, u32, u32, u64) {
        match &self.engine {
            Engine::None => (0, 0, 0, 0),
            Engine::Astar(a) => (1, a.bound(), a.root_h(), a.expanded),
            Engine::Manhattan(e) => (e.iteration, e.bound, e.root_h, e.nodes_iteration),
            Engine::Linear(e) => (e.iteration, e.bound, e.root_h, e.nodes_iteration),
            Engine::Pdb(e) => (e.iteration, e.bound, e.root_h, e.nodes_iteration),
        }
    }

    /// The current progress.
    pub fn progress(&self, clock: &dyn Clock) -> Progress {
        let elapsed = self.t0.map_or(0.0, |t| clock.now_ms() - t);
        let mut nodes = self.nodes();
        let (iteration, mut threshold, mut root_bound, nodes_iteration) = self.counters();
        if let Some(r) = &self.done {
            // The engine may have been handed back to the cache.
            nodes = r.nodes;
            threshold = r.threshold;
            root_bound = root_bound.max(self.root_bound);
        }
        let mut db = self.db.clone();
        if let Some(b) = self.building.as_ref().and_then(|b| b.builder.as_ref()) {
            db.building = b.fraction();
        }
        let search_ms = elapsed - db.build_ms;
        Progress {
            phase: if self.building.is_some() { Phase::Building } else { Phase::Searching },
            algorithm: self.algorithm,
            heuristic: self.heuristic,
            iteration,
            threshold,
            root_bound,
            nodes_iteration,
            nodes,
            elapsed_ms: elapsed,
            nodes_per_second: if search_ms > 0.0 { nodes as f64 * 1000.0 / search_ms } else { 0.0 },
            iteration_done: false,
            db,
        }
    }

    fn finish(&mut self, clock: &dyn Clock, status: Status, solution: Option<Solution>) -> Report {
        let (iterations, threshold, root, _) = self.counters();
        self.root_bound = root;
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
        // The A* tables serve the next small board.
        if matches!(self.engine, Engine::Astar(_)) {
            if let Engine::Astar(a) = std::mem::replace(&mut self.engine, Engine::None) {
                self.cache.keep_astar(a);
            }
        }
        r
    }

    /// Stop the search as cancelled.
    pub fn cancel(&mut self, clock: &dyn Clock) -> Report {
        if let Some(r) = &self.done {
            return r.clone();
        }
        self.finish(clock, Status::Cancelled, None)
    }

    /// Map the engine's moves back to the board as given, replay them, and finish.
    fn solved(&mut self, clock: &dyn Clock, moves: Vec<Dir>) -> Report {
        let moves: Vec<Dir> = moves.into_iter().map(|d| self.flip.dir(d)).collect();
        let mut b = self.start.clone();
        let check = match b.play(&moves) {
            Ok(()) if b == self.goal => Ok(()),
            Ok(()) => Err("the moves do not reach the goal".to_string()),
            Err(e) => Err(e.0),
        };
        match check {
            Ok(()) => self.finish(clock, Status::Solved, Some(Solution { moves })),
            Err(e) => {
                let mut r = self.finish(clock, Status::Error, None);
                r.error = Some(format!("the solution failed verification: {e}"));
                self.done = Some(r.clone());
                r
            }
        }
    }

    /// Build the next piece of the databases; true when the search can start.
    fn build(&mut self, clock: &dyn Clock, budget: u64) -> bool {
        let Some(mut b) = self.building.take() else { return true };
        if b.tables.len() < b.groups.len() {
            // The build's time counts from here, the builder's memory included.
            let t0 = *self.build_t0.get_or_insert_with(|| clock.now_ms());
            let (w, h) = (self.start.width(), self.start.height());
            let builder =
                b.builder.get_or_insert_with(|| PdbBuilder::new(w, h, &b.groups[b.tables.len()]));
            builder.started(clock.now_ms());
            if builder.run(budget) {
                let db = Arc::new(b.builder.take().expect("builder").finish(clock.now_ms()));
                self.db.ready += 1;
                self.db.bytes += db.bytes();
                self.cache.insert(db.clone());
                b.tables.push(db);
                self.take_cached(&mut b);
            }
            self.db.build_ms = clock.now_ms() - t0;
        }
        if b.tables.len() < b.groups.len() {
            self.building = Some(b);
            return false;
        }
        let w = self.start.width();
        let pdb = Pdb::new(w, self.fgoal.tiles(), b.tables, self.options.mirror);
        self.db.mirrored = pdb.mirrored();
        let ida = Ida::new(w, self.fstart.tiles(), self.fgoal.tiles(), pdb);
        self.engine = Engine::Pdb(Box::new(ida));
        true
    }

    /// Search (or build databases) for up to about `slice_ms` milliseconds, checking the
    /// clock every few thousand nodes; returns early at the end of an iteration or when
    /// progress is due.
    pub fn step(&mut self, clock: &dyn Clock, slice_ms: f64) -> Step {
        if let Some(r) = &self.done {
            return Step::Done(r.clone());
        }
        let now = clock.now_ms();
        let t0 = *self.t0.get_or_insert(now);
        if let Some(status) = self.known {
            let sol = (status == Status::Solved).then(|| Solution { moves: Vec::new() });
            return Step::Done(self.finish(clock, status, sol));
        }
        let slice_end = now + slice_ms;
        loop {
            if let Some(limit) = self.options.time_limit_ms {
                if clock.now_ms() - t0 >= limit {
                    return Step::Done(self.finish(clock, Status::Limit(Limit::Time), None));
                }
            }
            if self.building.is_some() {
                let ready = self.build(clock, 1 << 15);
                let t = clock.now_ms();
                if ready
                    || t - self.last_report_ms >= self.options.progress_interval_ms
                    || t >= slice_end
                {
                    self.last_report_ms = t;
                    return Step::Running(self.progress(clock));
                }
                continue;
            }
            let nodes = self.nodes();
            let mut budget: u64 = 1 << 13;
            if let Some(limit) = self.options.node_limit {
                if nodes >= limit {
                    return Step::Done(self.finish(clock, Status::Limit(Limit::Nodes), None));
                }
                budget = budget.min(limit - nodes);
            }
            let event = match &mut self.engine {
                Engine::None => IdaEvent::Unsolvable,
                Engine::Astar(a) => match a.run(budget.min(1 << 11)) {
                    AstarEvent::Budget => IdaEvent::Budget,
                    AstarEvent::Solved(m) => IdaEvent::Solved(m),
                    AstarEvent::Unsolvable => IdaEvent::Unsolvable,
                },
                Engine::Manhattan(e) => e.run(budget),
                Engine::Linear(e) => e.run(budget),
                Engine::Pdb(e) => e.run(budget),
            };
            match event {
                IdaEvent::Budget => {}
                IdaEvent::IterationDone => {
                    let mut p = self.progress(clock);
                    // Report the iteration that ended.
                    p.iteration -= 1;
                    p.nodes_iteration = self.last_iteration_nodes();
                    p.iteration_done = true;
                    self.last_report_ms = clock.now_ms();
                    return Step::Running(p);
                }
                IdaEvent::Solved(moves) => return Step::Done(self.solved(clock, moves)),
                IdaEvent::Unsolvable => {
                    let mut r = self.finish(clock, Status::Error, None);
                    r.error = Some("the search ended without reaching the goal".into());
                    self.done = Some(r.clone());
                    return Step::Done(r);
                }
            }
            let t = clock.now_ms();
            if t - self.last_report_ms >= self.options.progress_interval_ms || t >= slice_end {
                self.last_report_ms = t;
                return Step::Running(self.progress(clock));
            }
        }
    }

    /// Nodes of the iteration that just ended (kept by the engine until the next node).
    fn last_iteration_nodes(&self) -> u64 {
        match &self.engine {
            Engine::Manhattan(e) => e.last_iteration_nodes,
            Engine::Linear(e) => e.last_iteration_nodes,
            Engine::Pdb(e) => e.last_iteration_nodes,
            _ => 0,
        }
    }

    /// The start as given.
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// The goal as given.
    pub fn goal(&self) -> &Board {
        &self.goal
    }
}

/// Solve in one call (no progress), with a cache for the databases.
pub fn solve(
    start: &Board,
    goal: &Board,
    options: Options,
    cache: &DbCache,
    clock: &dyn Clock,
) -> Result<Report, PuzzleError> {
    let mut s = Solver::new(start, goal, options, cache)?;
    s.count_from(clock.now_ms());
    loop {
        if let Step::Done(r) = s.step(clock, f64::INFINITY) {
            return Ok(r);
        }
    }
}
