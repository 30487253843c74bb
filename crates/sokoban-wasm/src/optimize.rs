//! The solution optimizer for the page: [`OptimizerTask`] runs
//! [`sokoban_optimize::Optimizer`] in slices inside the solver worker, like
//! [`crate::SolverTask`], so the page shows progress and can cancel with the best so far.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use sokoban_core::format;
use sokoban_optimize::{
    Clock, Counts, Method, Metric, OptimizeOptions, Optimizer, Progress, Report, Status, Step,
};

use crate::{js_error, to_js, JsClock, MAX_MIB};

/// Default memory of the optimizer in the browser (MiB): the crate's default.
pub const DEFAULT_OPTIMIZE_MIB: usize = sokoban_optimize::DEFAULT_MEMORY >> 20;

/// An optimization of one solution, advanced in slices by the worker.
#[wasm_bindgen]
pub struct OptimizerTask {
    opt: Optimizer,
    clock: JsClock,
    metric: &'static str,
    memory_limit: usize,
    /// Gains already sent with their moves: a progress message carries `lurd` only when
    /// the best changed since the last one (a solution can have thousands of moves).
    sent_gains: Option<u32>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OptMessage {
    /// "progress", "finished", "limit", "cancelled".
    r#type: &'static str,
    /// "moves" or "pushes": what the optimizer makes fewer first.
    metric: &'static str,
    start_moves: usize,
    start_pushes: usize,
    start_box_lines: usize,
    start_box_changes: usize,
    /// The best solution so far (box lines and changes break ties after moves and pushes).
    moves: usize,
    pushes: usize,
    box_lines: usize,
    box_changes: usize,
    /// "vicinity-build" (collecting the box placements near the solution),
    /// "vicinity-search" (the shortest path through them) or "global" (a search over every
    /// placement, under the best's length).
    method: &'static str,
    /// While building: boxes moved at once, each on any of its `nearest` squares.
    boxes: Option<usize>,
    nearest: Option<usize>,
    /// How much of the solution the method has gone through, 0 to 1.
    done: f64,
    /// Rounds that made the solution shorter.
    gains: u32,
    placements: usize,
    nodes: u64,
    memory_bytes: usize,
    memory_limit: usize,
    elapsed_ms: f64,
    /// The best solution's moves: in every final message, and in a progress message when
    /// it is new since the last.
    lurd: Option<String>,
    /// "time" or "nodes" for a "limit" ending.
    limit: Option<&'static str>,
    /// A search filled its memory (final messages): more memory might gain more.
    memory_full: Option<bool>,
    /// The global search proved the best optimal (final messages).
    optimal: Option<bool>,
}

/// A JavaScript `Error` with the message, and `step` (the 1-based move where the replay
/// fails) when there is one.
fn optimize_error(e: sokoban_optimize::OptimizeError) -> JsValue {
    let err = js_error(&e.message);
    if let Some(step) = e.step {
        let _ = js_sys::Reflect::set(&err, &"step".into(), &(step as f64).into());
    }
    err
}

#[wasm_bindgen]
impl OptimizerTask {
    /// Prepare to optimize `lurd` (plain or run-length moves from the level's start) on
    /// `level` (any level format). `metric` is "moves" (fewest moves, then pushes) or
    /// "pushes" (fewest pushes, then moves); `memory_mib` the budget (0: the default,
    /// 256 MiB; at most 3072); `time_limit_ms` stops it with the best so far (0 or
    /// undefined: no limit). Throws an `Error` when the moves do not solve the level: its
    /// message says what and where (`move 37 ('R') is blocked: a wall`), and its `step`
    /// is the move that fails, when one does.
    #[wasm_bindgen(constructor)]
    pub fn new(
        level: &str,
        lurd: &str,
        metric: &str,
        memory_mib: f64,
        time_limit_ms: Option<f64>,
    ) -> Result<OptimizerTask, JsValue> {
        let level = format::parse_level(level).map_err(|e| js_error(e.message))?;
        let (metric, name) = match metric {
            "moves" => (Metric::Moves, "moves"),
            "pushes" => (Metric::Pushes, "pushes"),
            other => {
                return Err(js_error(format!("unknown metric '{other}' (known: moves, pushes)")))
            }
        };
        let mib = if memory_mib >= 1.0 {
            memory_mib.min(MAX_MIB as f64) as usize
        } else {
            DEFAULT_OPTIMIZE_MIB
        };
        let options = OptimizeOptions {
            metric,
            memory_bytes: mib << 20,
            time_limit_ms: time_limit_ms.filter(|&t| t > 0.0),
            ..OptimizeOptions::default()
        };
        let clock = JsClock::new();
        let t0 = clock.now_ms();
        let mut opt = Optimizer::from_lurd(&level, lurd, options).map_err(optimize_error)?;
        // The setup (the analysis, the input's replay) counts towards the time limit.
        opt.count_from(t0);
        Ok(OptimizerTask { opt, clock, metric: name, memory_limit: mib << 20, sent_gains: None })
    }

    /// Work for about `slice_ms` milliseconds (0: the progress so far). Returns `{type:
    /// "progress", metric, startMoves, startPushes, startBoxLines, startBoxChanges, moves,
    /// pushes, boxLines, boxChanges, method, boxes, nearest,
    /// done, gains, placements, nodes, memoryBytes, memoryLimit, elapsedMs, lurd}` (`lurd`
    /// only when the best is new since the last message), or the final "finished" (nothing
    /// shorter near the best), "limit" (`limit`: "time" or "nodes") or "cancelled", each
    /// with the best `lurd`, `moves`, `pushes`, `memoryFull` and `optimal` (the global
    /// search proved the best optimal).
    pub fn step(&mut self, slice_ms: f64) -> JsValue {
        match self.opt.step(&self.clock, slice_ms) {
            Step::Running(p) => {
                let mut m = self.message("progress", &p);
                if self.sent_gains != Some(p.gains) {
                    self.sent_gains = Some(p.gains);
                    m.lurd = Some(self.best());
                }
                to_js(&m)
            }
            Step::Done(r) => to_js(&self.last(&r)),
        }
    }

    /// Stop; returns the final "cancelled" message with the best solution so far (or the
    /// ending already reached).
    pub fn cancel(&mut self) -> JsValue {
        let r = self.opt.cancel(&self.clock);
        to_js(&self.last(&r))
    }

    /// The best solution so far, as LURD (replayed by the rules engine).
    pub fn best(&self) -> String {
        sokoban_core::lurd::to_lurd(self.opt.best().0)
    }
}

impl OptimizerTask {
    fn message(&self, kind: &'static str, p: &Progress) -> OptMessage {
        let (method, boxes, nearest) = match p.method {
            Method::VicinityBuild { boxes, nearest } => {
                ("vicinity-build", Some(boxes), Some(nearest))
            }
            Method::VicinitySearch => ("vicinity-search", None, None),
            Method::Global => ("global", None, None),
        };
        OptMessage {
            r#type: kind,
            metric: self.metric,
            start_moves: p.start.moves,
            start_pushes: p.start.pushes,
            start_box_lines: p.start.box_lines,
            start_box_changes: p.start.box_changes,
            moves: p.best.moves,
            pushes: p.best.pushes,
            box_lines: p.best.box_lines,
            box_changes: p.best.box_changes,
            method,
            boxes,
            nearest,
            done: p.done.clamp(0.0, 1.0),
            gains: p.gains,
            placements: p.placements,
            nodes: p.nodes,
            memory_bytes: p.memory_bytes,
            memory_limit: self.memory_limit,
            elapsed_ms: p.elapsed_ms,
            lurd: None,
            limit: None,
            memory_full: None,
            optimal: None,
        }
    }

    /// The final message of a report.
    fn last(&self, r: &Report) -> OptMessage {
        let p = self.opt.progress(&self.clock);
        let kind = match r.status {
            Status::Finished => "finished",
            Status::Limit(_) => "limit",
            Status::Cancelled => "cancelled",
        };
        let mut m = self.message(kind, &p);
        let Counts { moves, pushes, box_lines, box_changes } = r.counts;
        (m.moves, m.pushes, m.box_lines, m.box_changes) = (moves, pushes, box_lines, box_changes);
        m.done = if r.status == Status::Finished { 1.0 } else { m.done };
        m.elapsed_ms = r.elapsed_ms;
        m.lurd = Some(r.lurd());
        m.limit = match r.status {
            Status::Limit(sokoban_optimize::Limit::Time) => Some("time"),
            Status::Limit(sokoban_optimize::Limit::Nodes) => Some("nodes"),
            _ => None,
        };
        m.memory_full = Some(r.memory_full);
        m.optimal = Some(r.optimal);
        m
    }
}
