//! Bindings of the sliding-tile puzzles (the `tile-puzzle` crate) for the page's second
//! mode: [`PuzzleSession`] (a position being played, with undo and redo, scrambles, pasted
//! positions) and [`PuzzleTask`] (the optimal solver, run in slices in the worker). The
//! pattern databases live in a cache of this module, so they are built once per worker and
//! kept between solves ([`puzzle_cache_bytes`] says how much they hold).

use serde::Serialize;
use wasm_bindgen::prelude::*;

use sokoban_solver::Clock as _;
use tile_puzzle::{
    Board, DbCache, Dir, Game, GoalKind, HeuristicKind, Limit, Options, Phase, Rng, Solver, Status,
    Step,
};

use crate::{js_error, to_js, JsClock};

thread_local! {
    static CACHE: DbCache = DbCache::new();
}

fn cache() -> DbCache {
    CACHE.with(|c| c.clone())
}

/// Bytes of pattern databases this worker (or page) holds.
#[wasm_bindgen(js_name = puzzleCacheBytes)]
pub fn puzzle_cache_bytes() -> f64 {
    cache().bytes() as f64
}

/// Read a size: `width` x `height`, or 0 x 0 to take it from the number of tiles.
fn size(width: usize, height: usize) -> Option<(usize, usize)> {
    (width > 0 && height > 0).then_some((width, height))
}

/// The goal: `blank-first`, `blank-last` or tiles.
fn goal_of(spec: &str, w: usize, h: usize) -> Result<Board, JsValue> {
    match GoalKind::parse(spec) {
        Some(k) => Board::goal(w, h, k),
        None => Board::parse(spec, Some((w, h))),
    }
    .map_err(|e| js_error(format!("goal: {e}")))
}

fn position(tiles: &str, width: usize, height: usize) -> Result<Board, JsValue> {
    Board::parse(tiles, size(width, height)).map_err(|e| js_error(e.0))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PuzzleView {
    width: usize,
    height: usize,
    tiles: Vec<u8>,
    goal: Vec<u8>,
    blank: usize,
    moves: usize,
    /// Tiles on their goal cells.
    in_place: usize,
    solved: bool,
    /// Whether the goal can be reached from here.
    solvable: bool,
    can_undo: bool,
    can_redo: bool,
}

/// A position being played.
#[wasm_bindgen]
pub struct PuzzleSession {
    game: Game,
}

#[wasm_bindgen]
impl PuzzleSession {
    /// Start from `tiles` (numbers in row-major order, 0 the blank; `width` and `height` 0
    /// for a square board sized by the count) towards `goal` ("blank-first", "blank-last"
    /// or tiles). Throws a message saying what is wrong.
    #[wasm_bindgen(constructor)]
    pub fn new(
        tiles: &str,
        width: usize,
        height: usize,
        goal: &str,
    ) -> Result<PuzzleSession, JsValue> {
        let start = position(tiles, width, height)?;
        let goal = goal_of(goal, start.width(), start.height())?;
        Ok(PuzzleSession { game: Game::new(start, goal).map_err(|e| js_error(e.0))? })
    }

    /// A random position of the size that reaches the goal: drawn uniformly when `moves`
    /// is 0, else `moves` random moves from the goal. `seed`: any number.
    pub fn scramble(
        width: usize,
        height: usize,
        goal: &str,
        moves: usize,
        seed: f64,
    ) -> Result<PuzzleSession, JsValue> {
        tile_puzzle::board::check_size(width, height).map_err(|e| js_error(e.0))?;
        let goal = goal_of(goal, width, height)?;
        let mut rng = Rng::new(seed.to_bits());
        let start = if moves == 0 {
            Board::random(&goal, &mut rng)
        } else {
            Board::random_walk(&goal, moves, &mut rng)
        };
        Ok(PuzzleSession { game: Game::new(start, goal).map_err(|e| js_error(e.0))? })
    }

    /// Rebuild a session: start position, goal, the moves made and the redo list.
    pub fn restore(
        tiles: &str,
        width: usize,
        height: usize,
        goal: &str,
        line: &str,
        redo: &str,
    ) -> Result<PuzzleSession, JsValue> {
        let mut s = PuzzleSession::new(tiles, width, height, goal)?;
        let line = tile_puzzle::parse_moves(line).map_err(|e| js_error(e.0))?;
        let redo = tile_puzzle::parse_moves(redo).map_err(|e| js_error(e.0))?;
        s.game.play(&line).map_err(|e| js_error(e.0))?;
        // The redo list as one group that redo makes again.
        if !redo.is_empty() {
            s.game.play(&redo).map_err(|e| js_error(e.0))?;
            s.game.undo();
        }
        Ok(s)
    }

    pub fn view(&self) -> JsValue {
        let b = self.game.board();
        let g = self.game.goal();
        to_js(&PuzzleView {
            width: b.width(),
            height: b.height(),
            tiles: b.tiles().to_vec(),
            goal: g.tiles().to_vec(),
            blank: b.blank(),
            moves: self.game.moves(),
            in_place: b.tiles().iter().zip(g.tiles()).filter(|(&a, &z)| a != 0 && a == z).count(),
            solved: self.game.is_solved(),
            solvable: self.game.solvable(),
            can_undo: self.game.can_undo(),
            can_redo: self.game.can_redo(),
        })
    }

    /// Move the blank (0 up, 1 right, 2 down, 3 left): the tile on that side slides into
    /// it. Returns the move's letter, or `undefined` at the edge.
    pub fn step(&mut self, dir: u8) -> Option<String> {
        let d = Dir::from_index(dir as usize);
        self.game.step(d).map(|_| d.letter().to_string())
    }

    /// Slide the tile on `cell` towards the blank (with the tiles between), as one undo
    /// group. Returns the blank's moves, or `undefined` when the cell is not in the blank's
    /// row or column.
    #[wasm_bindgen(js_name = slideTo)]
    pub fn slide_to(&mut self, cell: usize) -> Option<String> {
        let moves = self.game.board().moves_to(cell);
        if moves.is_empty() {
            return None;
        }
        self.game.play(&moves).ok()?;
        Some(tile_puzzle::letters(&moves))
    }

    #[wasm_bindgen(js_name = beginGroup)]
    pub fn begin_group(&mut self) {
        self.game.begin_group();
    }

    #[wasm_bindgen(js_name = endGroup)]
    pub fn end_group(&mut self) {
        self.game.end_group();
    }

    pub fn undo(&mut self) -> bool {
        self.game.undo()
    }

    pub fn redo(&mut self) -> bool {
        self.game.redo()
    }

    /// Back to the start, as one undoable group; false at the start already.
    pub fn restart(&mut self) -> bool {
        let line = self.game.line();
        if line.is_empty() {
            return false;
        }
        let back: Vec<Dir> = line.iter().rev().map(|d| d.opposite()).collect();
        self.game.play(&back).is_ok()
    }

    #[wasm_bindgen(js_name = undoAll)]
    pub fn undo_all(&mut self) -> usize {
        self.game.undo_all()
    }

    #[wasm_bindgen(js_name = redoAll)]
    pub fn redo_all(&mut self) -> usize {
        self.game.redo_all()
    }

    /// Check moves (letters U R D L, the blank's) from the current position without
    /// playing them; returns them normalized, throws naming the first bad move.
    #[wasm_bindgen(js_name = checkMoves)]
    pub fn check_moves(&self, text: &str) -> Result<String, JsValue> {
        let moves = tile_puzzle::parse_moves(text).map_err(|e| js_error(e.0))?;
        let mut b = self.game.board().clone();
        b.play(&moves).map_err(|e| js_error(e.0))?;
        Ok(tile_puzzle::letters(&moves))
    }

    /// Play moves from here as one undo group, all or nothing.
    #[wasm_bindgen(js_name = playMoves)]
    pub fn play_moves(&mut self, text: &str) -> Result<(), JsValue> {
        let moves = tile_puzzle::parse_moves(text).map_err(|e| js_error(e.0))?;
        self.game.play(&moves).map_err(|e| js_error(e.0))
    }

    /// The current position as numbers.
    #[wasm_bindgen(js_name = tilesText)]
    pub fn tiles_text(&self) -> String {
        self.game.board().to_text()
    }

    /// The start position as numbers.
    #[wasm_bindgen(js_name = startText)]
    pub fn start_text(&self) -> String {
        self.game.start().to_text()
    }

    /// The goal as numbers.
    #[wasm_bindgen(js_name = goalText)]
    pub fn goal_text(&self) -> String {
        self.game.goal().to_text()
    }

    /// The moves from the start to here.
    #[wasm_bindgen(js_name = historyMoves)]
    pub fn history_moves(&self) -> String {
        tile_puzzle::letters(&self.game.line())
    }

    /// The moves redo would make.
    #[wasm_bindgen(js_name = redoMoves)]
    pub fn redo_moves(&self) -> String {
        tile_puzzle::letters(&self.game.redo_moves())
    }
}

/// Solver options from JavaScript: `{timeLimitMs, nodeLimit, heuristic, mirror}`.
fn options(v: JsValue) -> Result<Options, String> {
    let mut o = Options::default();
    if v.is_undefined() || v.is_null() {
        return Ok(o);
    }
    if !v.is_object() || js_sys::Array::is_array(&v) {
        return Err("bad solver options: expected an object".into());
    }
    let obj: &js_sys::Object = v.unchecked_ref();
    for key in js_sys::Object::keys(obj).iter() {
        let k = key.as_string().unwrap_or_default();
        let value = js_sys::Reflect::get(obj, &key).unwrap_or(JsValue::UNDEFINED);
        if value.is_undefined() || value.is_null() {
            continue;
        }
        let number = || match value.as_f64() {
            Some(x) if !x.is_nan() => Ok(x),
            _ => Err(format!("bad solver options: '{k}' must be a number")),
        };
        match k.as_str() {
            "timeLimitMs" => o.time_limit_ms = Some(number()?),
            "nodeLimit" => o.node_limit = Some(number()?.max(0.0) as u64),
            "heuristic" => {
                o.heuristic = value.as_string().as_deref().and_then(HeuristicKind::parse).ok_or(
                    "bad solver options: 'heuristic' must be \"auto\", \"pdb\", \"lc\" or \"manhattan\"",
                )?
            }
            "mirror" => {
                o.mirror = value.as_bool().ok_or("bad solver options: 'mirror' must be true or false")?
            }
            other => {
                return Err(format!(
                    "unknown solver option '{other}' (known: timeLimitMs, nodeLimit, heuristic, mirror)"
                ))
            }
        }
    }
    Ok(o)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PuzzleMessage {
    /// "progress", "solved", "unsolvable", "limit", "cancelled" or "error".
    r#type: &'static str,
    /// Always "puzzle" (the Sokoban solver's messages say "optimal" or "fast").
    mode: &'static str,
    /// "building" (pattern databases) or "searching".
    phase: &'static str,
    algorithm: &'static str,
    heuristic: &'static str,
    iteration: u32,
    threshold: u32,
    root_bound: u32,
    nodes_iteration: u64,
    nodes: u64,
    elapsed_ms: f64,
    nodes_per_second: f64,
    iteration_done: bool,
    db_tables: usize,
    db_ready: usize,
    db_cached: usize,
    db_building: f64,
    db_bytes: usize,
    db_build_ms: f64,
    db_partition: String,
    db_mirrored: bool,
    /// The blank's moves of the solution (U R D L) and their count.
    solution: Option<String>,
    length: Option<usize>,
    limit: Option<&'static str>,
    message: Option<String>,
}

fn message(kind: &'static str, p: &tile_puzzle::Progress) -> PuzzleMessage {
    PuzzleMessage {
        r#type: kind,
        mode: "puzzle",
        phase: if p.phase == Phase::Building { "building" } else { "searching" },
        algorithm: p.algorithm,
        heuristic: p.heuristic,
        iteration: p.iteration,
        threshold: p.threshold,
        root_bound: p.root_bound,
        nodes_iteration: p.nodes_iteration,
        nodes: p.nodes,
        elapsed_ms: p.elapsed_ms,
        nodes_per_second: p.nodes_per_second,
        iteration_done: p.iteration_done,
        db_tables: p.db.tables,
        db_ready: p.db.ready,
        db_cached: p.db.cached,
        db_building: p.db.building,
        db_bytes: p.db.bytes,
        db_build_ms: p.db.build_ms,
        db_partition: p.db.partition.clone(),
        db_mirrored: p.db.mirrored,
        solution: None,
        length: None,
        limit: None,
        message: None,
    }
}

/// The optimal solver on a position, advanced by the worker in slices.
#[wasm_bindgen]
pub struct PuzzleTask {
    solver: Solver,
    clock: JsClock,
}

#[wasm_bindgen]
impl PuzzleTask {
    /// Prepare a search from `tiles` (as for [`PuzzleSession::new`]) to `goal`. `options`:
    /// `{timeLimitMs, nodeLimit, heuristic: "auto" | "pdb" | "lc" | "manhattan", mirror}`,
    /// all optional.
    #[wasm_bindgen(constructor)]
    pub fn new(
        tiles: &str,
        width: usize,
        height: usize,
        goal: &str,
        options_js: JsValue,
    ) -> Result<PuzzleTask, JsValue> {
        let start = position(tiles, width, height)?;
        let goal = goal_of(goal, start.width(), start.height())?;
        let opts = options(options_js).map_err(js_error)?;
        let clock = JsClock::new();
        let t0 = clock.now_ms();
        let mut solver = Solver::new(&start, &goal, opts, &cache()).map_err(|e| js_error(e.0))?;
        solver.count_from(t0);
        Ok(PuzzleTask { solver, clock })
    }

    /// Search (or build the databases) for about `slice_ms` milliseconds. Returns a
    /// message: `type` "progress" (with `phase` "building" or "searching"), or the final
    /// "solved" (`solution`: the blank's moves, `length`), "unsolvable" (the parity says
    /// the goal cannot be reached; no search), "limit" (`limit`: "time" or "nodes") or
    /// "error" (`message`). Every message carries the IDA* read-out (`iteration`,
    /// `threshold`, `nodes`, `nodesPerSecond`, `elapsedMs`, `iterationDone`, ...) and the
    /// databases' (`dbTables`, `dbReady`, `dbCached`, `dbBuilding`, `dbBytes`,
    /// `dbBuildMs`, `dbPartition`, `dbMirrored`).
    pub fn step(&mut self, slice_ms: f64) -> JsValue {
        let clock = || self.clock.now_ms();
        match self.solver.step(&clock, slice_ms) {
            Step::Running(p) => to_js(&message("progress", &p)),
            Step::Done(r) => {
                let p = self.solver.progress(&clock);
                let kind = match r.status {
                    Status::Solved => "solved",
                    Status::Unsolvable => "unsolvable",
                    Status::Limit(_) => "limit",
                    Status::Cancelled => "cancelled",
                    Status::Error => "error",
                };
                let mut m = message(kind, &p);
                m.solution = r.solution.as_ref().map(|s| s.letters());
                m.length = r.solution.as_ref().map(|s| s.moves.len());
                m.limit = match r.status {
                    Status::Limit(Limit::Time) => Some("time"),
                    Status::Limit(Limit::Nodes) => Some("nodes"),
                    _ => None,
                };
                m.message = r.error;
                to_js(&m)
            }
        }
    }

    /// Stop; returns the final "cancelled" message.
    pub fn cancel(&mut self) -> JsValue {
        let clock = || self.clock.now_ms();
        self.solver.cancel(&clock);
        to_js(&message("cancelled", &self.solver.progress(&clock)))
    }
}
