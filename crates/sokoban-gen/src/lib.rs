//! Sokoban level generator. Given a size, a number of boxes and a seed, it makes a level
//! that is solvable, proved by the solver, and as hard as the solver can measure among
//! many candidates:
//!
//! 1. a room layout: the inside of a walled rectangle, with wall pieces (single squares,
//!    bars, corners, blocks) dropped at random while the floor stays connected and no floor
//!    square becomes a dead end;
//! 2. goals side by side in clusters of up to [`CLUSTER`] (so that boxes must be packed in
//!    some order), the boxes on them, the player on a random free square;
//! 3. random reverse play: the player pulls boxes away from the goals (a pull is the
//!    inverse of a push, so every position reached can be pushed back: solvable by
//!    construction), preferring to keep pulling the same box the same way; the position
//!    along the walk with the most boxes off goals and the farthest from their goals is
//!    the candidate's start;
//! 4. the solver on each candidate: push-optimal IDA* for up to [`OPTIMAL_MAX_BOXES`]
//!    boxes, else the fast search, each within a node limit and all within a node budget
//!    ([`effort`]; never a time limit, so the result does not depend on the machine); the
//!    solution is replayed by the rules engine ([`sokoban_core::Game`]); a candidate not
//!    proved within its limit is dropped;
//! 5. after [`FRESH_PERCENT`] of the candidates, the others rework the hardest few so far
//!    ([`POOL`]): the same room and goals played further backwards from the start (a few
//!    more pulls), or again from the goals; a rework as hard as the best counts as harder,
//!    so the search can cross level ground;
//! 6. the candidate whose solution has the most pushes plus [`BOX_CHANGE_WEIGHT`] per box
//!    change (a turn from pushing one box to pushing another) is the level.
//!
//! Deterministic: the same [`Request`] gives the same level, on any machine (SplitMix64,
//! shared with the sliding-tile crate; no `rand`). [`Generator::step`] runs in slices,
//! like the solver, so a Web Worker can report progress and take a cancel between slices.

use sokoban_core::format::{self};
use sokoban_core::{Game, Level, Move, Square};
use sokoban_solver::{Clock, Mode, Options, Solution, Solver, Status, Step};

/// Smallest and largest width and height, walls included.
pub const MIN_SIZE: usize = 5;
pub const MAX_SIZE: usize = 30;
/// At most this many boxes in any level.
pub const MAX_BOXES: usize = 20;
/// Up to this many boxes the difficulty is the push-optimal solution's pushes.
pub const OPTIMAL_MAX_BOXES: usize = 4;
/// Candidates proved by the solver before the hardest is chosen, at most; fewer on big
/// levels with many boxes (see [`candidates`]).
pub const CANDIDATES: usize = 600;

/// Candidates to prove for a request: 150,000 / (boxes × inside squares), as each costs
/// the solver more, from 8 to [`CANDIDATES`] (585 on 10×10 with 4 boxes, 110 on 15×15 with
/// 8, 9 on 30×30 with 20). Three times as many may be built (some fail to be made or
/// proved within the limit); the solver's [`effort`] may end it sooner.
pub fn candidates(req: &Request) -> usize {
    let work = work(req);
    (150_000 / work).clamp(8, CANDIDATES)
}

/// The solver's effort for the reworks of a request, all together: push-optimal nodes up
/// to [`OPTIMAL_MAX_BOXES`] boxes, else fast-search moves, fewer as a move costs more on
/// bigger levels with more boxes. (Each fresh candidate has its own [`candidate_limit`].)
pub fn effort(req: &Request) -> u64 {
    if req.boxes <= OPTIMAL_MAX_BOXES {
        return OPTIMAL_EFFORT;
    }
    scaled(req, FAST_EFFORT)
}

/// The solver's limit for one candidate: [`OPTIMAL_NODES`], or [`FAST_NODES`] scaled as
/// [`effort`].
pub fn candidate_limit(req: &Request) -> u64 {
    if req.boxes <= OPTIMAL_MAX_BOXES {
        return OPTIMAL_NODES;
    }
    scaled(req, FAST_NODES)
}

/// Boxes times inside squares: how the work on a candidate grows with the request.
fn work(req: &Request) -> usize {
    req.boxes.max(1) * (req.width.saturating_sub(2) * req.height.saturating_sub(2)).max(1)
}

/// `moves` for 15×15 with 8 boxes, fewer for bigger requests (a move of the fast search
/// costs about [`work`]^1.5), never more.
fn scaled(req: &Request, moves: u64) -> u64 {
    let ratio = (13.0 * 13.0 * 8.0 / work(req) as f64).min(1.0);
    ((moves as f64 * ratio.powf(1.5)) as u64).max(FAST_NODES_MIN)
}

/// [`effort`] of the push-optimal search, nodes.
pub const OPTIMAL_EFFORT: u64 = 400_000;
/// [`effort`] of the fast search on 15×15 with 8 boxes, moves.
pub const FAST_EFFORT: u64 = 10_000;
/// The fast search's limits are at least this many moves.
pub const FAST_NODES_MIN: u64 = 200;
/// Node limit of the push-optimal search per candidate.
pub const OPTIMAL_NODES: u64 = 400_000;
/// Move limit of the fast search per candidate.
pub const FAST_NODES: u64 = 20_000;
/// Fresh candidates (new rooms), in percent of all those proved; the others rework the
/// hardest so far by playing them further backwards.
pub const FRESH_PERCENT: usize = 60;
/// Goals stand side by side in clusters of up to this many.
pub const CLUSTER: usize = 4;
/// The hardest candidates kept to be reworked.
pub const POOL: usize = 4;
/// A rework makes from 1 to this many pulls per box.
pub const VARIANT_PULLS: usize = 4;
/// Memory of each candidate's search, MiB.
pub const SEARCH_MIB: usize = 32;

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// Columns, walls included.
    pub width: usize,
    /// Rows, walls included.
    pub height: usize,
    pub boxes: usize,
    pub seed: u64,
}

/// Why a level could not be generated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenError(pub String);

impl std::fmt::Display for GenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GenError {}

/// The most boxes a `width x height` level takes: one box per six inside squares, at most
/// [`MAX_BOXES`] (0 when the size is out of range).
pub fn max_boxes(width: usize, height: usize) -> usize {
    if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
        return 0;
    }
    ((width - 2) * (height - 2) / 6).clamp(1, MAX_BOXES)
}

impl Request {
    /// Check the sizes and the number of boxes.
    pub fn check(&self) -> Result<(), GenError> {
        for (name, v) in [("width", self.width), ("height", self.height)] {
            if !(MIN_SIZE..=MAX_SIZE).contains(&v) {
                return Err(GenError(format!(
                    "the {name} must be from {MIN_SIZE} to {MAX_SIZE} squares (walls included), not {v}"
                )));
            }
        }
        let max = max_boxes(self.width, self.height);
        if self.boxes == 0 {
            return Err(GenError("a level needs at least 1 box".into()));
        }
        if self.boxes > max {
            return Err(GenError(format!(
                "{} boxes do not fit a {}×{} level: at most {max}",
                self.boxes, self.width, self.height
            )));
        }
        Ok(())
    }

    /// The request as the page's link parameter: `WxH-BOXES-SEED`.
    pub fn spec(&self) -> String {
        format!("{}x{}-{}-{}", self.width, self.height, self.boxes, self.seed)
    }
}

/// A seed from text: a decimal number is itself, any other text its 64-bit FNV-1a hash.
pub fn seed_from_text(text: &str) -> u64 {
    let t = text.trim();
    if let Ok(n) = t.parse::<u64>() {
        return n;
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in t.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Read `WxH-BOXES-SEED` (e.g. `10x10-4-7`; the seed may be any text). The numbers are
/// checked by [`Request::check`] too.
pub fn parse_spec(spec: &str) -> Result<Request, GenError> {
    let bad = || {
        GenError(format!(
            "'{spec}' is not a level request: write WIDTHxHEIGHT-BOXES-SEED, e.g. 10x10-4-7"
        ))
    };
    let mut parts = spec.trim().splitn(3, '-');
    let size = parts.next().ok_or_else(bad)?;
    let boxes = parts.next().ok_or_else(bad)?;
    let seed = parts.next().ok_or_else(bad)?;
    let (w, h) = size.split_once(['x', 'X', '×']).ok_or_else(bad)?;
    let num = |s: &str| s.trim().parse::<usize>().map_err(|_| bad());
    if seed.trim().is_empty() {
        return Err(bad());
    }
    let r =
        Request { width: num(w)?, height: num(h)?, boxes: num(boxes)?, seed: seed_from_text(seed) };
    r.check()?;
    Ok(r)
}

/// How hard the level is, as the solver measured it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Difficulty {
    /// Pushes of the solution (the fewest possible when `optimal`).
    pub pushes: usize,
    /// Moves of the solution.
    pub moves: usize,
    /// True when the push-optimal search found the solution.
    pub optimal: bool,
    /// The solver's effort: nodes (optimal) or moves made (fast search).
    pub nodes: u64,
    /// How often the solution turns from pushing one box to pushing another.
    pub box_changes: usize,
}

impl Difficulty {
    /// What the generator maximizes: pushes and box changes together, then moves.
    fn rank(&self) -> (usize, usize, usize) {
        (self.pushes + BOX_CHANGE_WEIGHT * self.box_changes, self.pushes, self.moves)
    }
}

/// A box change weighs as much as this many pushes in the generator's choice.
pub const BOX_CHANGE_WEIGHT: usize = 3;

/// A generated level, proved solvable.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    pub request: Request,
    pub level: Level,
    /// The level in XSB.
    pub xsb: String,
    /// A solution, replayed by the rules engine.
    pub solution: Solution,
    pub difficulty: Difficulty,
    /// Candidates built and proved.
    pub attempts: usize,
    pub proved: usize,
}

/// Where the generator is.
#[derive(Clone, Debug, PartialEq)]
pub struct GenProgress {
    /// Candidates built so far (the one being solved included).
    pub attempts: usize,
    /// Candidates proved solvable so far.
    pub proved: usize,
    /// Candidates to prove.
    pub wanted: usize,
    /// Pushes of the hardest candidate so far.
    pub best_pushes: Option<usize>,
    /// Solver nodes spent so far, all candidates.
    pub nodes: u64,
    pub elapsed_ms: f64,
}

/// What one [`Generator::step`] ended with.
// One value per slice of work: boxing the level would save nothing worth having.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum GenStep {
    Running(GenProgress),
    Done(Result<Generated, GenError>),
}

/// The random numbers: the sliding-tile crate's SplitMix64 ([`tile_puzzle::board::Rng`]),
/// with a uniform `0..n` and `[0, 1)`.
struct Rng(tile_puzzle::board::Rng);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(tile_puzzle::board::Rng::new(seed))
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A candidate being solved.
struct Current {
    candidate: Candidate,
    /// A rework of the best so far (else a fresh candidate).
    reworked: bool,
    level: Level,
    solver: Solver,
}

/// The generator, advanced by [`Generator::step`].
pub struct Generator {
    request: Request,
    rng: Rng,
    mode: Mode,
    /// Fresh candidates to prove before the hardest are reworked.
    fresh: usize,
    wanted: usize,
    attempts: usize,
    proved: usize,
    /// Solver nodes spent, all candidates.
    nodes: u64,
    /// Solver nodes the reworks may spend ([`effort`]), and have spent.
    effort: u64,
    rework_nodes: u64,
    current: Option<Current>,
    /// The hardest candidates so far, the hardest first (at most [`POOL`]).
    pool: Vec<(Generated, Candidate)>,
    done: Option<Result<Generated, GenError>>,
    t0: Option<f64>,
}

impl Generator {
    /// Check the request and prepare.
    pub fn new(request: Request) -> Result<Generator, GenError> {
        request.check()?;
        let mode = if request.boxes <= OPTIMAL_MAX_BOXES { Mode::Optimal } else { Mode::Fast };
        let wanted = candidates(&request);
        Ok(Generator {
            request,
            rng: Rng::new(request.seed ^ 0x5eed_50c0_ba11_0000),
            mode,
            fresh: (wanted * FRESH_PERCENT / 100).max(1),
            wanted,
            attempts: 0,
            proved: 0,
            nodes: 0,
            effort: effort(&request),
            rework_nodes: 0,
            current: None,
            pool: Vec::new(),
            done: None,
            t0: None,
        })
    }

    pub fn request(&self) -> Request {
        self.request
    }

    /// The current progress.
    pub fn progress(&self, clock: &dyn Clock) -> GenProgress {
        GenProgress {
            attempts: self.attempts,
            proved: self.proved,
            wanted: self.wanted,
            best_pushes: self.pool.first().map(|(g, _)| g.difficulty.pushes),
            nodes: self.nodes,
            elapsed_ms: self.t0.map_or(0.0, |t| clock.now_ms() - t),
        }
    }

    /// Work for about `slice_ms` milliseconds.
    pub fn step(&mut self, clock: &dyn Clock, slice_ms: f64) -> GenStep {
        if let Some(r) = &self.done {
            return GenStep::Done(r.clone());
        }
        let start = clock.now_ms();
        self.t0.get_or_insert(start);
        let end = start + slice_ms;
        loop {
            if self.current.is_none() {
                let spent = self.reworking() && self.effort_left() == 0;
                if spent || self.proved >= self.wanted || self.attempts >= 3 * self.wanted {
                    return GenStep::Done(self.finish());
                }
                self.next_candidate();
            } else if let Some(report) = self.solve_some(clock, end - clock.now_ms()) {
                let cur = self.current.take().expect("a candidate");
                self.nodes += report.nodes;
                if cur.reworked {
                    self.rework_nodes += report.nodes;
                }
                if report.status == Status::Solved {
                    if let Some(sol) = report.solution {
                        self.consider(cur, sol, report.nodes);
                    }
                }
            }
            if clock.now_ms() >= end {
                return GenStep::Running(self.progress(clock));
            }
        }
    }

    /// Run everything to the end.
    pub fn run(&mut self, clock: &dyn Clock) -> Result<Generated, GenError> {
        loop {
            if let GenStep::Done(r) = self.step(clock, 1000.0) {
                return r;
            }
        }
    }

    /// True once the next candidates are reworks: [`FRESH_PERCENT`] of the candidates
    /// are proved, and some.
    fn reworking(&self) -> bool {
        !self.pool.is_empty() && self.proved >= self.fresh
    }

    /// What is left of the reworks' [`effort`].
    fn effort_left(&self) -> u64 {
        self.effort.saturating_sub(self.rework_nodes)
    }

    /// Step the current candidate's solver; its report when it ends.
    fn solve_some(&mut self, clock: &dyn Clock, ms: f64) -> Option<sokoban_solver::Report> {
        let cur = self.current.as_mut()?;
        match cur.solver.step(clock, ms.max(0.0)) {
            Step::Running(_) => None,
            Step::Done(r) => Some(r),
        }
    }

    /// Build the next candidate and start its solver: a fresh one (a new room, goals and
    /// reverse play from them) until [`FRESH_PERCENT`] of the candidates are proved, then a
    /// rework of one of the hardest so far.
    fn next_candidate(&mut self) {
        self.attempts += 1;
        let reworked = self.reworking();
        let limit = match reworked {
            true => candidate_limit(&self.request).min(self.effort_left()),
            false => candidate_limit(&self.request),
        };
        let candidate = if reworked {
            let (_, parent) = &self.pool[self.rng.below(self.pool.len())];
            let pulls = 1 + self.rng.below(VARIANT_PULLS * self.request.boxes);
            parent.variant(&mut self.rng, pulls)
        } else {
            make_candidate(&mut self.rng, &self.request)
        };
        let Some(candidate) = candidate else { return };
        let Some(level) = candidate.level() else { return };
        let options = Options {
            time_limit_ms: None,
            node_limit: Some(limit),
            table_mib: SEARCH_MIB,
            progress_interval_ms: 100.0,
            mode: self.mode,
            ..Options::default()
        };
        if let Ok(solver) = Solver::new(&level, &level.start, options) {
            self.current = Some(Current { candidate, reworked, level, solver });
        }
    }

    /// A proved candidate: replay its solution once more and keep it if it is among the
    /// hardest [`POOL`] (not twice: a rework may give back a level kept already).
    fn consider(&mut self, cur: Current, solution: Solution, nodes: u64) {
        let level = cur.level;
        if replay(&level, &solution).is_err() {
            return;
        }
        self.proved += 1;
        let difficulty = Difficulty {
            pushes: solution.pushes,
            moves: solution.moves.len(),
            optimal: self.mode == Mode::Optimal,
            nodes,
            box_changes: box_changes(&level, &solution.moves),
        };
        // After those as hard or harder; a reworked one before those as hard, so the rework
        // can cross level ground.
        let rank = difficulty.rank();
        let at = self.pool.partition_point(|(g, _)| {
            let r = g.difficulty.rank();
            r > rank || (r == rank && !cur.reworked)
        });
        let xsb = format::to_xsb(&level);
        if at >= POOL || self.pool.iter().any(|(g, _)| g.xsb == xsb) {
            return;
        }
        let generated = Generated {
            request: self.request,
            xsb,
            level,
            solution,
            difficulty,
            attempts: 0,
            proved: 0,
        };
        self.pool.insert(at, (generated, cur.candidate));
        self.pool.truncate(POOL);
    }

    fn finish(&mut self) -> Result<Generated, GenError> {
        let r = match self.pool.drain(..).next() {
            Some((mut g, _)) => {
                g.attempts = self.attempts;
                g.proved = self.proved;
                Ok(g)
            }
            None => Err(GenError(format!(
                "no level could be proved solvable in {} attempts; try another seed or fewer boxes",
                self.attempts
            ))),
        };
        self.done = Some(r.clone());
        r
    }
}

/// Generate a level at once (native callers, tests, benchmarks).
pub fn generate(request: Request, clock: &dyn Clock) -> Result<Generated, GenError> {
    Generator::new(request)?.run(clock)
}

/// Replay a solution from the level's start with the rules engine: `Ok` when it solves it.
pub fn replay(level: &Level, solution: &Solution) -> Result<(), String> {
    let mut game = Game::new(level.clone());
    game.play(&solution.moves).map_err(|e| e.message)?;
    if game.is_solved() {
        Ok(())
    } else {
        Err("the solution does not solve the level".into())
    }
}

/// How often a move list turns from pushing one box to pushing another (0 when one box
/// does all the pushes).
pub fn box_changes(level: &Level, moves: &[Move]) -> usize {
    let board = &level.board;
    let mut pos = level.start.clone();
    // Where the box pushed last stands now.
    let mut last: Option<Square> = None;
    let mut changes = 0;
    for m in moves {
        let Some(from) = board.neighbor(pos.player, m.dir) else { break };
        if pos.apply(board, m.dir).is_none() {
            break;
        }
        if m.push {
            changes += usize::from(last.is_some_and(|l| l != from));
            last = board.neighbor(from, m.dir);
        }
    }
    changes
}

// ---------------------------------------------------------------------------------------
// Candidates

const DIRS: [(isize, isize); 4] = [(0, -1), (-1, 0), (0, 1), (1, 0)];

/// Wall pieces dropped into the room, as (row, column) offsets.
const PIECES: &[&[(usize, usize)]] = &[
    &[(0, 0)],
    &[(0, 0)],
    &[(0, 0), (0, 1)],
    &[(0, 0), (1, 0)],
    &[(0, 0), (0, 1), (0, 2)],
    &[(0, 0), (1, 0), (2, 0)],
    &[(0, 0), (0, 1), (1, 0)],
    &[(0, 0), (0, 1), (1, 1)],
    &[(0, 0), (1, 0), (1, 1)],
    &[(0, 1), (1, 0), (1, 1)],
    &[(0, 0), (0, 1), (1, 0), (1, 1)],
];

#[derive(Clone)]
struct Room {
    w: usize,
    h: usize,
    floor: Vec<bool>,
}

impl Room {
    fn neighbors(&self, s: usize) -> impl Iterator<Item = usize> + '_ {
        let (r, c) = ((s / self.w) as isize, (s % self.w) as isize);
        DIRS.iter().filter_map(move |&(dr, dc)| {
            let (nr, nc) = (r + dr, c + dc);
            (nr >= 0 && nc >= 0 && (nr as usize) < self.h && (nc as usize) < self.w)
                .then(|| nr as usize * self.w + nc as usize)
        })
    }

    /// The square one step from `s` in direction `d` (always on the grid for inside squares).
    fn step(&self, s: usize, d: usize) -> usize {
        let (dr, dc) = DIRS[d];
        ((s / self.w) as isize + dr) as usize * self.w + ((s % self.w) as isize + dc) as usize
    }

    fn floor_count(&self) -> usize {
        self.floor.iter().filter(|&&f| f).count()
    }

    /// Every floor square connected and none with three or four walls around it.
    fn good(&self) -> bool {
        let Some(first) = self.floor.iter().position(|&f| f) else { return false };
        let mut seen = vec![false; self.floor.len()];
        let mut stack = vec![first];
        seen[first] = true;
        let mut count = 1;
        while let Some(s) = stack.pop() {
            if self.neighbors(s).filter(|&n| self.floor[n]).count() < 2 {
                return false;
            }
            for n in self.neighbors(s) {
                if self.floor[n] && !seen[n] {
                    seen[n] = true;
                    count += 1;
                    stack.push(n);
                }
            }
        }
        count == self.floor_count()
    }
}

/// A room: the inside of a `w x h` rectangle with wall pieces dropped in.
fn make_room(rng: &mut Rng, w: usize, h: usize) -> Room {
    let mut floor = vec![false; w * h];
    for r in 1..h - 1 {
        for c in 1..w - 1 {
            floor[r * w + c] = true;
        }
    }
    let mut room = Room { w, h, floor };
    let inside = (w - 2) * (h - 2);
    let target = (inside as f64 * (0.17 + 0.2 * rng.unit())) as usize;
    let mut walls = 0;
    for _ in 0..inside * 3 {
        if walls >= target {
            break;
        }
        let piece = PIECES[rng.below(PIECES.len())];
        let (r0, c0) = (1 + rng.below(h - 2), 1 + rng.below(w - 2));
        let squares: Vec<usize> = piece
            .iter()
            .map(|&(dr, dc)| (r0 + dr, c0 + dc))
            .filter(|&(r, c)| r < h - 1 && c < w - 1)
            .map(|(r, c)| r * w + c)
            .collect();
        if squares.len() != piece.len() || squares.iter().any(|&s| !room.floor[s]) {
            continue;
        }
        for &s in &squares {
            room.floor[s] = false;
        }
        if room.good() {
            walls += squares.len();
        } else {
            for &s in &squares {
                room.floor[s] = true;
            }
        }
    }
    room
}

/// A position of reverse play: player and box squares.
#[derive(Clone)]
struct Pulled {
    player: usize,
    boxes: Vec<usize>,
}

/// Squares the player reaches from `from` (boxes block).
fn reach(room: &Room, has_box: &[bool], from: usize) -> Vec<bool> {
    let mut seen = vec![false; room.floor.len()];
    let mut stack = vec![from];
    seen[from] = true;
    while let Some(s) = stack.pop() {
        for n in room.neighbors(s) {
            if room.floor[n] && !has_box[n] && !seen[n] {
                seen[n] = true;
                stack.push(n);
            }
        }
    }
    seen
}

fn manhattan(w: usize, a: usize, b: usize) -> usize {
    (a / w).abs_diff(b / w) + (a % w).abs_diff(b % w)
}

/// Which position of a reverse walk is kept.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// The one with the most boxes off goals, then the largest sum of distances of each
    /// box from its goal.
    Farthest,
    /// Where the walk ends.
    Last,
}

/// Random reverse play of up to `steps` pulls from `from` (`goals[i]` is where box `i`
/// started): the position kept as `keep` says, `None` when nothing could be pulled.
fn pull_walk(
    rng: &mut Rng,
    room: &Room,
    goals: &[usize],
    from: &Pulled,
    steps: usize,
    keep: Keep,
) -> Option<Pulled> {
    let n = room.floor.len();
    let is_goal = {
        let mut g = vec![false; n];
        for &s in goals {
            g[s] = true;
        }
        g
    };
    let mut boxes = from.boxes.clone();
    let mut has_box = vec![false; n];
    for &b in &boxes {
        has_box[b] = true;
    }
    let mut player = from.player;
    let mut last: Option<(usize, usize)> = None;
    let mut best: Option<((usize, usize), Pulled)> = None;
    let mut made = 0;
    let mut pulls: Vec<(usize, usize)> = Vec::new();
    for _ in 0..steps {
        let seen = reach(room, &has_box, player);
        pulls.clear();
        for (i, &b) in boxes.iter().enumerate() {
            for d in 0..4 {
                let p = room.step(b, d);
                if !room.floor[p] || has_box[p] || !seen[p] {
                    continue;
                }
                let q = room.step(p, d);
                if room.floor[q] && !has_box[q] {
                    pulls.push((i, d));
                }
            }
        }
        if pulls.is_empty() {
            break;
        }
        let (i, d) = match last {
            Some(l) if pulls.contains(&l) && rng.unit() < 0.8 => l,
            _ => pulls[rng.below(pulls.len())],
        };
        let b = boxes[i];
        let p = room.step(b, d);
        has_box[b] = false;
        has_box[p] = true;
        boxes[i] = p;
        player = room.step(p, d);
        last = Some((i, d));
        made += 1;
        if keep == Keep::Farthest {
            let off = boxes.iter().filter(|&&s| !is_goal[s]).count();
            let dist = boxes.iter().zip(goals).map(|(&s, &g)| manhattan(room.w, s, g)).sum();
            if best.as_ref().is_none_or(|(k, _)| (off, dist) > *k) {
                best = Some(((off, dist), Pulled { player, boxes: boxes.clone() }));
            }
        }
    }
    match keep {
        Keep::Farthest => best.map(|(_, p)| p),
        Keep::Last => (made > 0).then_some(Pulled { player, boxes }),
    }
}

/// A candidate level before the solver: a room, its goals, and the start found by reverse
/// play from them.
#[derive(Clone)]
struct Candidate {
    room: Room,
    goals: Vec<usize>,
    start: Pulled,
}

impl Candidate {
    /// A rework: half the time the candidate played further backwards from its start
    /// (`pulls` random pulls), else (or when nothing can be pulled there) reverse play
    /// from the goals again, with the player somewhere else.
    fn variant(&self, rng: &mut Rng, pulls: usize) -> Option<Candidate> {
        let (room, goals) = (&self.room, &self.goals);
        let further = match rng.unit() < 0.5 {
            true => pull_walk(rng, room, goals, &self.start, pulls, Keep::Last),
            false => None,
        };
        let start = match further {
            Some(s) => s,
            None => from_goals(rng, room, goals)?,
        };
        Some(Candidate { start, ..self.clone() })
    }

    /// The level: walls, goals, boxes and player as XSB, read back by the rules engine.
    fn level(&self) -> Option<Level> {
        let room = &self.room;
        let mut text = String::with_capacity(room.floor.len() + room.h);
        for r in 0..room.h {
            for c in 0..room.w {
                let s = r * room.w + c;
                let boxed = self.start.boxes.contains(&s);
                let goal = self.goals.contains(&s);
                text.push(match (room.floor[s], goal, boxed, self.start.player == s) {
                    (false, ..) => '#',
                    (true, true, true, _) => '*',
                    (true, false, true, _) => '$',
                    (true, true, false, true) => '+',
                    (true, false, false, true) => '@',
                    (true, true, false, false) => '.',
                    (true, false, false, false) => '-',
                });
            }
            text.push('\n');
        }
        format::parse_level(&text).ok()
    }
}

/// `n` goals side by side, in clusters of up to [`CLUSTER`]: each grown from a random free
/// floor square by adding random floor neighbours, so that the boxes must be packed in some
/// order (`floor` has at least `n + 1` squares).
fn cluster_goals(rng: &mut Rng, room: &Room, floor: &[usize], n: usize) -> Vec<usize> {
    let mut goals: Vec<usize> = Vec::new();
    let mut cluster: Vec<usize> = Vec::new();
    while goals.len() < n {
        let mut around: Vec<usize> = cluster
            .iter()
            .flat_map(|&g| room.neighbors(g))
            .filter(|&s| room.floor[s] && !goals.contains(&s))
            .collect();
        around.sort_unstable();
        around.dedup();
        if around.is_empty() || cluster.len() >= CLUSTER {
            // A new cluster.
            let free: Vec<usize> = floor.iter().copied().filter(|s| !goals.contains(s)).collect();
            cluster.clear();
            around = free;
        }
        let g = around[rng.below(around.len())];
        cluster.push(g);
        goals.push(g);
    }
    goals
}

/// One fresh candidate: a room, goals, reverse play; `None` when the room has too little
/// floor or nothing could be pulled.
fn make_candidate(rng: &mut Rng, req: &Request) -> Option<Candidate> {
    let room = make_room(rng, req.width, req.height);
    let floor: Vec<usize> = (0..room.floor.len()).filter(|&s| room.floor[s]).collect();
    if floor.len() < req.boxes * 3 {
        return None;
    }
    let goals = cluster_goals(rng, &room, &floor, req.boxes);
    let start = from_goals(rng, &room, &goals)?;
    Some(Candidate { room, goals, start })
}

/// Reverse play from the boxes on the goals, the player starting on a random free square:
/// the position [`Keep::Farthest`] of a long walk.
fn from_goals(rng: &mut Rng, room: &Room, goals: &[usize]) -> Option<Pulled> {
    let free: Vec<usize> =
        (0..room.floor.len()).filter(|&s| room.floor[s] && !goals.contains(&s)).collect();
    let from = Pulled { player: free[rng.below(free.len())], boxes: goals.to_vec() };
    let steps = goals.len() * (room.w + room.h) * 8;
    pull_walk(rng, room, goals, &from, steps, Keep::Farthest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sokoban_solver::StdClock;

    fn req(width: usize, height: usize, boxes: usize, seed: u64) -> Request {
        Request { width, height, boxes, seed }
    }

    #[test]
    fn same_seed_same_level() {
        let clock = StdClock::new();
        let a = generate(req(8, 8, 3, 42), &clock).unwrap();
        let b = generate(req(8, 8, 3, 42), &clock).unwrap();
        assert_eq!(a.xsb, b.xsb);
        assert_eq!(a.solution, b.solution);
        assert_eq!(a.difficulty, b.difficulty);
        let c = generate(req(8, 8, 3, 43), &clock).unwrap();
        assert_ne!(a.xsb, c.xsb);
    }

    #[test]
    fn every_level_is_solved_and_replayed() {
        let clock = StdClock::new();
        for (w, h, boxes) in [(6, 6, 1), (7, 9, 2), (8, 8, 3), (10, 10, 4), (12, 10, 5)] {
            for seed in 0..2 {
                let g = generate(req(w, h, boxes, seed), &clock).unwrap();
                assert_eq!(g.level.box_count(), boxes);
                assert!(g.proved >= 1);
                replay(&g.level, &g.solution).unwrap();
                // The XSB reads back as the same level.
                let again = format::parse_level(&g.xsb).unwrap();
                assert_eq!(again.board, g.level.board);
                assert_eq!(g.difficulty.pushes, g.solution.pushes);
                assert!(g.difficulty.pushes >= 1);
                assert_eq!(g.difficulty.optimal, boxes <= OPTIMAL_MAX_BOXES);
            }
        }
    }

    #[test]
    fn bad_requests_are_refused() {
        let e = Generator::new(req(10, 10, 11, 1)).err().unwrap();
        assert_eq!(e.0, "11 boxes do not fit a 10×10 level: at most 10");
        assert!(Generator::new(req(4, 10, 1, 1))
            .err()
            .unwrap()
            .0
            .contains("width must be from 5 to 30"));
        assert!(Generator::new(req(10, 31, 1, 1)).err().unwrap().0.contains("height"));
        assert!(Generator::new(req(10, 10, 0, 1)).is_err());
        assert!(parse_spec("10x10-4").is_err());
        assert!(parse_spec("10x10-99-1").unwrap_err().0.contains("at most 10"));
        assert_eq!(parse_spec("10x10-4-7").unwrap(), req(10, 10, 4, 7));
        assert_eq!(parse_spec("9x12-2-hello").unwrap().seed, seed_from_text("hello"));
        assert_eq!(req(10, 10, 4, 7).spec(), "10x10-4-7");
        assert_eq!(candidates(&req(10, 10, 4, 1)), 585);
        assert_eq!(candidates(&req(15, 15, 8, 1)), 110);
        assert_eq!(candidates(&req(30, 30, 20, 1)), 9);
        assert_eq!(candidates(&req(6, 6, 1, 1)), CANDIDATES);
    }

    #[test]
    fn slices_give_the_same_level() {
        let clock = StdClock::new();
        let whole = generate(req(9, 9, 3, 5), &clock).unwrap();
        let mut g = Generator::new(req(9, 9, 3, 5)).unwrap();
        let mut slices = 0;
        let sliced = loop {
            slices += 1;
            if let GenStep::Done(r) = g.step(&clock, 1.0) {
                break r.unwrap();
            }
        };
        assert!(slices > 1);
        assert_eq!(whole.xsb, sliced.xsb);
    }

    #[test]
    fn box_changes_count_turns_to_another_box() {
        let level = format::parse_level("#######\n#@$ . #\n#  $  #\n#   . #\n#######").unwrap();
        let moves = |text: &str| sokoban_core::lurd::parse_lurd(text).unwrap();
        // The first box twice, then the second box, then the first again.
        assert_eq!(box_changes(&level, &moves("RR")), 0);
        assert_eq!(box_changes(&level, &moves("RRldR")), 1);
        assert_eq!(box_changes(&level, &moves("RRldRdrruuL")), 2);
        assert_eq!(box_changes(&level, &[]), 0);
    }

    #[test]
    fn goals_stand_in_clusters_side_by_side() {
        let mut rng = Rng::new(3);
        for _ in 0..50 {
            let room = make_room(&mut rng, 12, 12);
            let floor: Vec<usize> = (0..room.floor.len()).filter(|&s| room.floor[s]).collect();
            let goals = cluster_goals(&mut rng, &room, &floor, 9);
            let mut sorted = goals.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), 9, "distinct goals");
            assert!(goals.iter().all(|&g| room.floor[g]));
            // Every goal but the first of a cluster stands next to an earlier goal, at least
            // one in every CLUSTER is next to one.
            let joined = (1..goals.len())
                .filter(|&i| room.neighbors(goals[i]).any(|n| goals[..i].contains(&n)))
                .count();
            assert!(joined >= goals.len() - goals.len().div_ceil(CLUSTER) - 1, "{goals:?}");
        }
    }

    #[test]
    fn rng_is_uniform_enough() {
        let mut r = Rng::new(1);
        let mut counts = [0; 6];
        for _ in 0..6000 {
            counts[r.below(6)] += 1;
        }
        assert!(counts.iter().all(|&c| (800..1200).contains(&c)), "{counts:?}");
    }
}
