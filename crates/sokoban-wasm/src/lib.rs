//! wasm-bindgen bindings for the web page: a thin layer that exposes the rules engine
//! ([`Session`]), the format parsers ([`parse`]), the box-path search, the solver
//! ([`SolverTask`], run in slices inside a Web Worker) and the solution optimizer
//! ([`OptimizerTask`], the same way) to JavaScript. No game logic lives
//! here: every call converts arguments, calls a Rust crate, and converts the result.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use sokoban_core::format::{self, Input};
use sokoban_core::{lurd, Dir, Game, Level, Move, Position};
use sokoban_path::BoxSearch;
use sokoban_solver::{Clock, Limit, Mode, Options, Status, Step};

mod gen;
mod optimize;
mod play;
mod pull;
mod puzzle;
pub use gen::GeneratorTask;
pub use optimize::{OptimizerTask, DEFAULT_OPTIMIZE_MIB};
pub use pull::PullSession;
pub use puzzle::{puzzle_cache_bytes, PuzzleSession, PuzzleTask};

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// The crate version (a smoke test of the binding).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

fn to_js<T: Serialize>(v: &T) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap_or(JsValue::NULL)
}

/// A JavaScript `Error` with a message.
fn js_error(msg: impl AsRef<str>) -> JsValue {
    js_sys::Error::new(msg.as_ref()).into()
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LevelInfo {
    number: usize,
    title: Option<String>,
    /// Canonical XSB of the level when valid.
    xsb: Option<String>,
    /// The level's key (hash of its normalized form) when valid: the same level in any
    /// format has the same key.
    key: Option<String>,
    /// What is wrong with the level, when invalid.
    error: Option<String>,
    width: usize,
    height: usize,
    boxes: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Parsed {
    kind: &'static str,
    format: String,
    title: Option<String>,
    levels: Vec<LevelInfo>,
    lurd: Option<String>,
}

/// Read any supported input (level in any format, a collection, or a LURD solution).
///
/// Returns `{kind: "levels", format, title, levels: [{number, title, xsb, error, width,
/// height, boxes}]}` or `{kind: "solution", format, lurd}`; throws an `Error` with a
/// message saying what is wrong and where.
#[wasm_bindgen]
pub fn parse(text: &str) -> Result<JsValue, JsValue> {
    let fmt = format::detect(text);
    match format::parse_input(text).map_err(|e| js_error(e.message))? {
        Input::Solution(moves) => Ok(to_js(&Parsed {
            kind: "solution",
            format: fmt.name().to_string(),
            title: None,
            levels: Vec::new(),
            lurd: Some(lurd::to_lurd(&moves)),
        })),
        Input::Levels(c) => {
            let levels = c
                .entries
                .iter()
                .map(|e| match e.level() {
                    Ok(l) => LevelInfo {
                        number: e.number,
                        title: e.title.clone(),
                        xsb: Some(format::to_xsb(&l)),
                        key: Some(sokoban_core::level_key(&l)),
                        error: None,
                        width: l.board.width(),
                        height: l.board.height(),
                        boxes: l.box_count(),
                    },
                    Err(err) => LevelInfo {
                        number: e.number,
                        title: e.title.clone(),
                        xsb: None,
                        key: None,
                        error: Some(err.message),
                        width: e.grid.width(),
                        height: e.grid.rows.len(),
                        boxes: e.grid.rows.iter().flatten().filter(|t| t.is_box()).count(),
                    },
                })
                .collect();
            Ok(to_js(&Parsed {
                kind: "levels",
                format: c.format.name().to_string(),
                title: c.title,
                levels,
                lurd: None,
            }))
        }
    }
}

/// The key of a level given in any level format (the first level of a collection): 32 hex
/// digits, the same for every way of writing the level. Throws when it is not a valid level.
#[wasm_bindgen(js_name = levelKey)]
pub fn level_key(text: &str) -> Result<String, JsValue> {
    let level = format::parse_level(text).map_err(|e| js_error(e.message))?;
    Ok(sokoban_core::level_key(&level))
}

#[derive(Serialize)]
struct Checked {
    key: String,
    lurd: String,
    moves: usize,
    pushes: usize,
}

/// Check that a LURD move list (plain or run-length) solves a level from its start.
/// Returns `{key, lurd, moves, pushes}` (the level's key, the moves with their push flags
/// as played); throws a message when the level or the moves are bad, when a move is
/// blocked, or when the moves end before the level is solved.
#[wasm_bindgen(js_name = checkSolution)]
pub fn check_solution(level: &str, moves: &str) -> Result<JsValue, JsValue> {
    let level = format::parse_level(level).map_err(|e| js_error(e.message))?;
    let key = sokoban_core::level_key(&level);
    let list = lurd::parse_lurd(moves).map_err(|e| js_error(e.message))?;
    let mut game = Game::new(level);
    for (i, m) in list.iter().enumerate() {
        if game.is_solved() {
            return Err(js_error(format!("the level is solved after {i} moves, before the end")));
        }
        if game.step(m.dir).is_none() {
            return Err(js_error(format!(
                "move {} ('{}') is blocked: a wall or two boxes in a row",
                i + 1,
                m.lurd()
            )));
        }
    }
    if !game.is_solved() {
        return Err(js_error(format!(
            "the moves end with {} of {} boxes on goals: not a solution",
            game.boxes_on_goals(),
            game.level().box_count()
        )));
    }
    Ok(to_js(&Checked {
        key,
        lurd: letters(game.line()),
        moves: game.moves(),
        pushes: game.pushes(),
    }))
}

/// A level (any format; the first of a collection) written in another format: `"xsb"`,
/// `"rle"` (run-length) or `"link"` (a SokoPlayer link on `base`). Throws when the level
/// is not valid or the format unknown.
#[wasm_bindgen(js_name = formatLevel)]
pub fn format_level(text: &str, to: &str, base: &str) -> Result<String, JsValue> {
    let level = format::parse_level(text).map_err(|e| js_error(e.message))?;
    match to {
        "xsb" => Ok(format::to_xsb(&level)),
        "rle" => Ok(format::to_rle(&level)),
        "link" => Ok(format::to_sokoplayer_url(&level, base)),
        other => Err(js_error(format!("unknown level format '{other}' (known: xsb, rle, link)"))),
    }
}

/// Parse a LURD solution (plain or run-length) to plain LURD; throws on a malformed one.
#[wasm_bindgen(js_name = normalizeLurd)]
pub fn normalize_lurd(text: &str) -> Result<String, JsValue> {
    lurd::parse_lurd(text).map(|m| lurd::to_lurd(&m)).map_err(|e| js_error(e.message))
}

/// Run-length form of a LURD string (`lllU` → `3lU`); throws on a malformed one.
#[wasm_bindgen(js_name = rleLurd)]
pub fn rle_lurd(text: &str) -> Result<String, JsValue> {
    lurd::parse_lurd(text).map(|m| lurd::to_rle_lurd(&m)).map_err(|e| js_error(e.message))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Deadlock {
    square: usize,
    kind: &'static str,
}

/// A position a move list passes through (see [`Session::push_points`]).
#[derive(Serialize)]
struct PushPoint {
    at: usize,
    player: usize,
    boxes: Vec<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stand: Option<usize>,
}

/// A level being played: the rules engine with its history, plus path queries.
#[wasm_bindgen]
pub struct Session {
    game: Game,
    drag: Option<BoxSearch>,
    /// Deadlock tables, built on first use (once per level).
    deadlocks: Option<sokoban_solver::Deadlocks>,
}

fn letters(moves: &[Move]) -> String {
    lurd::to_lurd(moves)
}

#[wasm_bindgen]
impl Session {
    /// Start a level given in any level format (the first level if there are several).
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str) -> Result<Session, JsValue> {
        let level = format::parse_level(text).map_err(|e| js_error(e.message))?;
        Ok(Session { game: Game::new(level), drag: None, deadlocks: None })
    }

    /// Rebuild a session from saved history: moves from the start and the redo list (LURD).
    pub fn restore(text: &str, line: &str, redo: &str) -> Result<Session, JsValue> {
        let level = format::parse_level(text).map_err(|e| js_error(e.message))?;
        let line = lurd::parse_lurd(line).map_err(|e| js_error(e.message))?;
        let redo = lurd::parse_lurd(redo).map_err(|e| js_error(e.message))?;
        let game = Game::restore(level, &line, &redo).map_err(|e| js_error(e.message))?;
        Ok(Session { game, drag: None, deadlocks: None })
    }

    fn level(&self) -> &Level {
        self.game.level()
    }

    /// Everything needed to draw the board and the counters (see `play::view`).
    pub fn view(&self) -> JsValue {
        let g = &self.game;
        play::view(g, g.level().board.goals(), g.boxes_on_goals(), g.is_solved())
    }

    /// Step in a direction (0 up, 1 right, 2 down, 3 left). Returns the LURD letter of the
    /// move made (uppercase for a push), or `undefined` when blocked.
    pub fn step(&mut self, dir: u8) -> Option<String> {
        let m = self.game.step(Dir::from_index(dir as usize))?;
        self.drag = None;
        Some(m.lurd().to_string())
    }

    /// Check a LURD move list against the current position without playing it; throws a
    /// message naming the first bad move.
    #[wasm_bindgen(js_name = checkLurd)]
    pub fn check_lurd(&self, text: &str) -> Result<String, JsValue> {
        let moves = self.parse_moves(text)?;
        self.game.check_moves(&moves).map_err(|e| js_error(e.message))?;
        Ok(letters(&moves))
    }

    /// Play a LURD move list from here, all or nothing, as one undo group; throws when a
    /// move is illegal.
    #[wasm_bindgen(js_name = playLurd)]
    pub fn play_lurd(&mut self, text: &str) -> Result<(), JsValue> {
        let moves = self.parse_moves(text)?;
        self.drag = None;
        self.game.play(&moves).map_err(|e| js_error(e.message))
    }

    /// Parse LURD; the push flags written are replaced by what actually happens when the
    /// letters are played from here (so a solution typed all in lowercase still works).
    fn parse_moves(&self, text: &str) -> Result<Vec<Move>, JsValue> {
        let moves = lurd::parse_lurd(text).map_err(|e| js_error(e.message))?;
        let board = &self.level().board;
        let mut p = self.game.position().clone();
        let mut out = Vec::with_capacity(moves.len());
        for (i, m) in moves.iter().enumerate() {
            match p.apply(board, m.dir) {
                Some(actual) => out.push(actual),
                None => {
                    return Err(js_error(format!(
                        "move {} ('{}') is blocked: a wall or two boxes in a row",
                        i + 1,
                        m.lurd()
                    )))
                }
            }
        }
        Ok(out)
    }

    /// The positions a move list passes through from here, without playing it: this one,
    /// then the one after each push, as `[{at, player, boxes, stand}]`: `at` the moves made
    /// to get there, `player` and `boxes` (ascending) its squares, `stand` the square the
    /// player makes the next push from (absent on the last). The page's Hint follows a kept
    /// solution by them. Throws, as `checkLurd` does, when a move is blocked.
    #[wasm_bindgen(js_name = pushPoints)]
    pub fn push_points(&self, text: &str) -> Result<JsValue, JsValue> {
        let moves = self.parse_moves(text)?;
        let board = &self.level().board;
        let mut p = self.game.position().clone();
        let point = |p: &Position, at| PushPoint {
            at,
            player: p.player,
            boxes: p.box_squares(),
            stand: None,
        };
        let mut points = vec![point(&p, 0)];
        for (i, m) in moves.iter().enumerate() {
            let stand = p.player;
            p.apply(board, m.dir);
            if m.push {
                points.last_mut().expect("the first point").stand = Some(stand);
                points.push(point(&p, i + 1));
            }
        }
        Ok(to_js(&points))
    }

    /// Boxes in a deadlock: `[{square, kind: "dead-square" | "frozen"}]`.
    pub fn deadlocks(&mut self) -> JsValue {
        let checker =
            self.deadlocks.get_or_insert_with(|| sokoban_solver::Deadlocks::new(self.game.level()));
        let list: Vec<Deadlock> = checker
            .check(self.game.position())
            .into_iter()
            .map(|(square, k)| Deadlock {
                square,
                kind: match k {
                    sokoban_solver::DeadlockKind::DeadSquare => "dead-square",
                    sokoban_solver::DeadlockKind::Frozen => "frozen",
                },
            })
            .collect();
        to_js(&list)
    }

    /// The level's key (see [`level_key`]).
    #[wasm_bindgen(js_name = levelKey)]
    pub fn level_key(&self) -> String {
        sokoban_core::level_key(self.level())
    }

    /// The current position as XSB.
    #[wasm_bindgen(js_name = positionXsb)]
    pub fn position_xsb(&self) -> String {
        format::position_to_xsb(self.level(), self.game.position())
    }

    /// The level's title, if any.
    pub fn title(&self) -> Option<String> {
        self.level().title.clone()
    }

    /// The level as MF8 rows joined by `|` (the `lvl` parameter of a share link).
    pub fn mf8(&self) -> String {
        format::to_mf8(self.level())
    }

    /// A SokoPlayer-style link to this level: `{base}?w=..&h=..&lvl=...`.
    #[wasm_bindgen(js_name = shareUrl)]
    pub fn share_url(&self, base: &str) -> String {
        format::to_sokoplayer_url(self.level(), base)
    }
}

play::game_calls!(Session);

/// `performance.now()` where available (window or worker), else `Date.now()`.
pub(crate) struct JsClock {
    perf: Option<web_sys::Performance>,
}

impl JsClock {
    pub(crate) fn new() -> JsClock {
        let global = js_sys::global();
        let perf = js_sys::Reflect::get(&global, &JsValue::from_str("performance"))
            .ok()
            .and_then(|p| p.dyn_into::<web_sys::Performance>().ok());
        JsClock { perf }
    }
}

impl Clock for JsClock {
    fn now_ms(&self) -> f64 {
        match &self.perf {
            Some(p) => p.now(),
            None => js_sys::Date::now(),
        }
    }
}

/// Solver options from JavaScript: `{mode, timeLimitMs, nodeLimit, tableMiB, memoryMiB,
/// lane}`, all optional.
#[derive(Default)]
struct JsOptions {
    fast: bool,
    time_limit_ms: Option<f64>,
    node_limit: Option<f64>,
    table_mib: Option<f64>,
    memory_mib: Option<f64>,
    /// The fast search's portfolio lane (`fast::lane_experiments`): the page runs lane k in
    /// its k-th worker.
    lane: Option<f64>,
}

const KNOWN_OPTIONS: &str = "mode, timeLimitMs, nodeLimit, tableMiB, memoryMiB, lane";

impl JsOptions {
    /// Read the options; a name it does not know is an error (a misspelt option would
    /// otherwise be silently ignored), and so is a value of the wrong kind.
    fn from_js(v: JsValue) -> Result<JsOptions, String> {
        if v.is_undefined() || v.is_null() {
            return Ok(JsOptions::default());
        }
        if !v.is_object() || js_sys::Array::is_array(&v) {
            return Err("bad solver options: expected an object".into());
        }
        let obj: &js_sys::Object = v.unchecked_ref();
        let mut o = JsOptions::default();
        for key in js_sys::Object::keys(obj).iter() {
            let k = key.as_string().unwrap_or_default();
            let value = js_sys::Reflect::get(obj, &key).unwrap_or(JsValue::UNDEFINED);
            let absent = value.is_undefined() || value.is_null();
            let number = || -> Result<Option<f64>, String> {
                if absent {
                    return Ok(None);
                }
                match value.as_f64() {
                    Some(x) if !x.is_nan() => Ok(Some(x)),
                    _ => Err(format!("bad solver options: '{k}' must be a number")),
                }
            };
            match k.as_str() {
                "mode" => {
                    o.fast = match value.as_string().as_deref() {
                        _ if absent => false,
                        Some("fast") => true,
                        Some("optimal") => false,
                        _ => {
                            return Err(
                                "bad solver options: 'mode' must be \"fast\" or \"optimal\"".into(),
                            )
                        }
                    }
                }
                "timeLimitMs" => o.time_limit_ms = number()?,
                "nodeLimit" => o.node_limit = number()?,
                "tableMiB" => o.table_mib = number()?,
                "memoryMiB" => o.memory_mib = number()?,
                "lane" => o.lane = number()?,
                other => {
                    return Err(format!("unknown solver option '{other}' (known: {KNOWN_OPTIONS})"))
                }
            }
        }
        Ok(o)
    }

    /// The memory budget in MiB: for the fast search `memoryMiB` (default 512); for the
    /// optimal search's table `tableMiB`, else `memoryMiB` (default 64). Kept within
    /// 1..=[`MAX_MIB`] (a wasm32 address space has 4 GiB in all).
    fn mib(&self) -> usize {
        let mib = if self.fast {
            self.memory_mib.unwrap_or(DEFAULT_FAST_MIB as f64)
        } else {
            self.table_mib.or(self.memory_mib).unwrap_or(DEFAULT_TABLE_MIB as f64)
        };
        mib.clamp(1.0, MAX_MIB as f64) as usize
    }
}

/// The fast search's own read-out in a message (absent for the optimal search).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FastFields {
    strategy: &'static str,
    strategy_number: u32,
    strategies: u32,
    /// Positions stored.
    positions: u64,
    /// Moves made by the running strategy (`nodes` counts them for all strategies).
    generated: u64,
    /// Feature-space cells in use.
    cells: usize,
    /// Most goals packed in plan order by any position found, of `goals`.
    best_packed: u32,
    goals: u32,
    memory_bytes: usize,
    memory_limit: usize,
    plan_relaxed: u32,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Message {
    /// "progress", "solved", "unsolvable", "limit", "cancelled" or "error".
    r#type: &'static str,
    /// "optimal" or "fast".
    mode: &'static str,
    /// IDA* iteration; for the fast search, the strategy's number.
    iteration: u32,
    threshold: u32,
    root_bound: u32,
    nodes_iteration: u64,
    /// Nodes generated; for the fast search, moves made and pulls of its backward searches.
    nodes: u64,
    elapsed_ms: f64,
    nodes_per_second: f64,
    table_used: usize,
    table_capacity: usize,
    iteration_done: bool,
    lurd: Option<String>,
    pushes: Option<usize>,
    moves: Option<usize>,
    /// Pushes and moves of the fast search's solution as found, when the shortening pass
    /// made it shorter.
    found_pushes: Option<usize>,
    found_moves: Option<usize>,
    limit: Option<&'static str>,
    message: Option<String>,
    /// The fast search's strategy that found the solution.
    solved_by: Option<&'static str>,
    #[serde(flatten)]
    fast: Option<FastFields>,
}

/// Default memory for the optimal solver's table in the browser (MiB).
pub const DEFAULT_TABLE_MIB: usize = sokoban_solver::memory::PAGE_OPTIMAL_MIB;

/// Default memory budget of the fast search in the browser (MiB).
pub const DEFAULT_FAST_MIB: usize = sokoban_solver::memory::PAGE_FAST_MIB;

#[derive(Serialize)]
struct PageMemory {
    #[serde(rename = "fastMiB")]
    fast_mib: usize,
    #[serde(rename = "tableMiB")]
    table_mib: usize,
}

/// The page's default memory budgets in MiB, `{fastMiB, tableMiB}`: the fast search's
/// (shared by the portfolio's workers) and the optimal search's table, from
/// `sokoban_solver::memory`, which the CLI and `Options` read too.
#[wasm_bindgen(js_name = pageMemory)]
pub fn page_memory() -> JsValue {
    to_js(&PageMemory { fast_mib: DEFAULT_FAST_MIB, table_mib: DEFAULT_TABLE_MIB })
}

/// The most memory an option may ask for (MiB); larger values are lowered to it.
pub const MAX_MIB: usize = 3072;

/// A solver run from a position, advanced in slices by the worker.
#[wasm_bindgen]
pub struct SolverTask {
    solver: sokoban_solver::Solver,
    clock: JsClock,
}

#[wasm_bindgen]
impl SolverTask {
    /// Prepare a search. `level` in any level format; `player` and `boxes` are square
    /// indices of the position to solve from (row * width + column); `options` is
    /// `{mode, timeLimitMs, nodeLimit, tableMiB, memoryMiB, lane}`, all optional: `mode`
    /// "optimal" (the default: push-optimal IDA*, table `tableMiB` or else `memoryMiB`,
    /// default 64 MiB) or "fast" (any solution, quickly: the feature space search, its
    /// store within `memoryMiB`, default 512 MiB; `lane` k, the schedule of the portfolio's
    /// k-th lane, 0 by default). A solved fast search names its strategy in `solvedBy`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        level: &str,
        player: usize,
        boxes: Vec<u32>,
        options: JsValue,
    ) -> Result<SolverTask, JsValue> {
        let level = format::parse_level(level).map_err(|e| js_error(e.message))?;
        let opts = JsOptions::from_js(options).map_err(js_error)?;
        let n = level.board.len();
        if player >= n || boxes.iter().any(|&b| b as usize >= n) {
            return Err(js_error("the position does not fit the level"));
        }
        let boxes: Vec<usize> = boxes.iter().map(|&b| b as usize).collect();
        let pos = Position::from_squares(n, player, &boxes);
        let options = Options {
            time_limit_ms: opts.time_limit_ms,
            node_limit: opts.node_limit.map(|x| x.max(0.0) as u64),
            table_mib: opts.mib(),
            mode: if opts.fast { Mode::Fast } else { Mode::Optimal },
            experiments: sokoban_solver::fast::lane_experiments(
                opts.lane.map_or(0, |k| k.clamp(0.0, 64.0) as usize),
                &Default::default(),
            ),
            ..Options::default()
        };
        let clock = JsClock::new();
        // The setup counts towards the elapsed time and the time limit.
        let solver =
            sokoban_solver::Solver::new_timed(&level, &pos, options, &clock, clock.now_ms())
                .map_err(|e| js_error(e.to_string()))?;
        Ok(SolverTask { solver, clock })
    }

    /// Search for about `slice_ms` milliseconds. Returns a message object with `type`
    /// "progress" (search goes on), or the final "solved" (with `lurd`, `pushes`, `moves`),
    /// "unsolvable", "limit" (with `limit`: "time", "nodes" or "memory") or "error" (with
    /// `message`). `mode` says which search runs. A progress message of the optimal search
    /// with `iterationDone` reports the iteration that just ended (`iteration`,
    /// `nodesIteration`) and the threshold of the next one. Messages of the fast search
    /// carry its read-out: `strategy`, `strategyNumber`, `strategies`, `positions`,
    /// `generated`, `cells`, `bestPacked`, `goals`, `memoryBytes`, `memoryLimit`,
    /// `planRelaxed` (and `nodes` counts the moves made).
    pub fn step(&mut self, slice_ms: f64) -> JsValue {
        match self.solver.step(&self.clock, slice_ms) {
            Step::Running(p) => to_js(&message("progress", &p, None)),
            Step::Done(r) => {
                let p = self.solver.progress(&self.clock);
                let kind = match r.status {
                    Status::Solved => "solved",
                    Status::Unsolvable => "unsolvable",
                    Status::Limit(_) => "limit",
                    Status::Cancelled => "cancelled",
                    Status::Error => "error",
                };
                let mut m = message(kind, &p, r.solution.as_ref());
                m.limit = match r.status {
                    Status::Limit(Limit::Time) => Some("time"),
                    Status::Limit(Limit::Nodes) => Some("nodes"),
                    Status::Limit(Limit::Memory) => Some("memory"),
                    _ => None,
                };
                m.message = r.error;
                m.solved_by = self.solver.solved_by();
                to_js(&m)
            }
        }
    }

    /// Stop the search; returns the final "cancelled" message.
    pub fn cancel(&mut self) -> JsValue {
        self.solver.cancel(&self.clock);
        let p = self.solver.progress(&self.clock);
        to_js(&message("cancelled", &p, None))
    }
}

fn message(
    kind: &'static str,
    p: &sokoban_solver::Progress,
    sol: Option<&sokoban_solver::Solution>,
) -> Message {
    Message {
        r#type: kind,
        iteration: p.iteration,
        threshold: p.threshold,
        root_bound: p.root_bound,
        nodes_iteration: p.nodes_iteration,
        nodes: p.nodes,
        elapsed_ms: p.elapsed_ms,
        nodes_per_second: p.nodes_per_second,
        table_used: p.table_used,
        table_capacity: p.table_capacity,
        iteration_done: p.iteration_done,
        lurd: sol.map(|s| s.lurd()),
        pushes: sol.map(|s| s.pushes),
        moves: sol.map(|s| s.moves.len()),
        found_pushes: sol.and_then(|s| s.found).map(|f| f.0),
        found_moves: sol.and_then(|s| s.found).map(|f| f.1),
        limit: None,
        message: None,
        solved_by: None,
        mode: if p.fast.is_some() { "fast" } else { "optimal" },
        fast: p.fast.as_ref().map(|f| FastFields {
            strategy: f.strategy,
            strategy_number: f.strategy_number,
            strategies: f.strategies,
            positions: f.positions,
            generated: f.generated,
            cells: f.cells,
            best_packed: f.best_packed,
            goals: f.goals,
            memory_bytes: f.memory_bytes,
            memory_limit: f.memory_limit,
            plan_relaxed: f.plan_relaxed,
        }),
    }
}
