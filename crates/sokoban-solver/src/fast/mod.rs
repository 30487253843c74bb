//! The fast search: any solution, as quickly as possible, for levels far beyond the reach
//! of the push-optimal IDA* — a feature space search over macro moves after FESS
//! (Shoham & Schaeffer 2020), guided by a packing plan computed backwards from the solved
//! position.
//!
//! Parts: [`board`] (positions and macro moves, on `sokoban_path::BoxReach`), [`plan`] (the
//! packing order and out-of-plan zones), [`features`] (where a position lies in the feature
//! space), [`score`] (the scored strategy's child scores and advisors), [`stops`] (where a
//! macro move may leave its box), [`dead`] (the deadlock tests on each new position: the
//! shared analysis's and the matching), [`shared`] (what the strategies read and learn
//! together), [`fess`] (the feature space search), [`greedy`] (best-first by the matching
//! bound), [`back`] (the backward search, a perimeter the forward strategies meet) and
//! [`experiments`] (development switches as typed options). [`schedule`] decides, as data,
//! which strategies run on which plans; [`FastSearch`] runs that schedule in one thread and
//! stops at the first solution; the [`crate::Solver`] wraps it with limits, progress and the
//! rules engine's verification.

pub mod back;
pub mod board;
pub mod dead;
pub mod experiments;
pub mod features;
pub mod fess;
pub mod greedy;
pub mod plan;
pub mod schedule;
pub mod score;
pub mod shared;
pub mod stops;

use std::rc::Rc;
use std::sync::Arc;

use back::{BackEvent, Backward};
use board::Layout;
pub use experiments::{lane_experiments, Experiments, Only, StopRule};
use fess::{Config, Fess, FessEvent, FessStats};
use greedy::Greedy;
use plan::Plan;
pub use schedule::{
    analyse, analyse_both, analyse_until, followed_plan, packing_search_plan, strategy_names,
    supplied_packing_plan, Deadline, Packing, Schedule, Strategy, GREEDY, HF, OTHER_PLAN, SPRINT,
    STRATEGIES, STRATEGIES_PLAIN,
};
use shared::{Analysis, Learned};
use sokoban_core::Board;

use crate::analysis::problem::Problem;
use crate::work;

/// Pulls of the backward search before the HF search starts (XSokoban 69: not solved with
/// 300,000, solved with 400,000; bench/decisions.md, HF stage).
const HF_PULLS: u64 = 600_000;
/// Moves the strategies make, all together, before the HF stage begins. Measured on
/// XSokoban at 60 s a level (two jobs, 1 GiB each; with the HF
/// search's target ranked by floor areas first and its other settings here): with 400,000
/// instead of 1,000,000, 66 solved in 25 s (never before), 69 35 -> 20 s, 88 19 -> 23 s,
/// 90 41 -> 47 s, 16 and 28 4 -> 7 s and 6 -> 11 s; 332 s in all instead of 362. With
/// 300,000 Microban 153 (solved after 306,000 moves, 0.97 s) would pay the stage's start.
const HF_AFTER: u64 = 400_000;
/// Boxes from which a level searches as Festival's backward + HF strategies do, from the
/// start: the backward search at one call in three, its HF search after `MANY_PULLS` pulls,
/// counting the target in any order, areas first, with Festival's HF hotspots, going on
/// while it comes nearer (`manyN`, `nomany`). With many boxes a packing order is rarely
/// followed and every move scores every child, so `HF_AFTER` moves come too late
/// (Sasquatch VI 34, 56 boxes: 36 s); Festival's packing-order strategy solves none of
/// Sasquatch IV-VI's levels of 26 boxes or more, its backward + HF ones all ten
/// (bench/festival-strategies.md). From 24 boxes at first (Sasquatch III 23, V 29 35 41,
/// VI 33 34 solved at 250,000 moves, I 50 lost); from 20 since the HF search scores with
/// Festival's HF hotspots (III 48, IV 38, V 34, VI 30 solved, none lost; from 18, XSokoban
/// 66 and 69 are lost: the stage as before solves them after `HF_AFTER` moves;
/// bench/decisions.md).
const MANY_BOXES: Option<usize> = Some(20);
/// Such a level's pulls before its HF search (Festival gives its backward phase a third of
/// a strategy's time).
const MANY_PULLS: u64 = 100_000;
/// The moves without a rise of its count after which an HF search ends (Sasquatch V 35:
/// met the backward search after 18,587 HF moves, its count 36 of 37 since 12,000). On every
/// level: ending after 10,000 moves instead, the ordered HF search of few boxes left
/// Sasquatch I 26 and 30 unsolved (2 of 12 and 9 of 12, one thread 30 s); with it, 3.9 and
/// 4.3 s (bench/decisions.md).
const HF_STALL: u64 = 100_000;
/// Once the HF search runs, one call in this many is the backward search's, growing the
/// perimeter every strategy may meet (one in three: XSokoban 90 four seconds slower).
const HF_BACK_EVERY: u64 = 8;
/// Where the plan cannot be followed from the start ([`Plan::followable`]), the packed
/// count misleads the strategies: the HF stage's backward search then starts at once,
/// taking one call in this many until the strategies have made `HF_AFTER` moves, a
/// perimeter they meet (bench/decisions.md: perimeter where the plan misleads). Sasquatch
/// IV-VI: 10 levels Festival solves in 0-4 s solved within 250,000 moves (none before);
/// Microban's 72 such levels 0.95 -> 0.68 s; XSokoban's 19 no level lost (50 66 69 88
/// faster, 16 7.6 -> 11.7 s, 44 5.7 -> 11.1 s). One call in eight lost XSokoban 16.
const UNFOLLOWABLE_PULL_EVERY: u64 = 16;
/// Moves of the strategies without a rise of their best packed count after which the HF
/// stage begins, its backward search then at one call in `STALL_PULL_EVERY` until
/// `HF_AFTER`: where the packing stalls short of the end (Sasquatch VI 22: 15 of 16 goals
/// after 71k moves, then nothing) the end is what the backward search enumerates, a
/// perimeter to meet (bench/decisions.md: **stall trigger**). At 250k moves: Sasquatch V 6,
/// VI 14, 20, 22 solved (none before), none lost on the development suite; one call in
/// sixteen solves the same but costs Microban 153 1.4x its time, one in 32 not. With no
/// box packed yet there is no end to stall short of: the first goal is only far (XSokoban
/// 11 and 23, III 3, VI 14 and 16, Microban 153 pack none in 50k moves; waiting for a
/// packed box, each is solved in 0.76-0.90 of its moves; `stallzero` fires at 0 too).
const STALL_MOVES: u64 = 50_000;
const STALL_PULL_EVERY: u64 = 32;
/// A strategy whose store is full searches on with memory the others leave unused when
/// its part is at least this fraction of the whole ([`FastSearch::grant_memory`]).
const GRANT_PARTS: usize = 64;
/// HF searches the stage makes, each after a backward search of its own (the second's
/// pulls ordered otherwise: [`Backward::away`]; the third's ranked by open floor as well:
/// [`Backward::open`]). XSokoban 50 is solved by the second (never before), 66 and 69 by
/// the first; the third solves Sasquatch I 40, III 21, V 25 and VI 37 within 30 s, one
/// thread (the second ranked so instead loses XSokoban 50; bench/decisions.md). With
/// `bicon` (portfolio lane 1) the second ranks so already, and there is no third.
const HF_ATTEMPTS: u32 = 3;
/// Moves of the HF search in the attempt the HF stage begins with, the dragonfly search's
/// ([`Backward::dragonfly`], Festival's strategy H): where it helps, its perimeter is met
/// at once (Sasquatch V 25 1.0 s, VI 39 0.7 s, none solved in 30 s before) or its HF search
/// meets it within a few thousand moves (VI 41: 2,700, 6.6 s); in the usual first attempt's
/// place it lost IV 17 and 36, VI 31 and 34, which this costs 5 to 7 s. Its pulls are
/// `MANY_PULLS` on every level: 600,000 cost IV 30 10 s, most of them duplicates
/// (bench/decisions.md: **dragonfly first**).
const DRAGONFLY_MOVES: u64 = 20_000;
/// The attempt (counted from 1) from which the backward search ranks by open floor and the
/// HF search takes Festival's form on every level ([`FastSearch::attempt_mode`]).
const OPEN_ATTEMPT: u32 = 3;
/// A backward search the strategies meet: its new positions kept for
/// [`FastSearch::meet_fresh`] unless the switches say otherwise (`nomeetback`).
fn perimeter(mut back: Backward, exp: &Experiments) -> Backward {
    if !exp.no_meet_back {
        back.record_fresh();
    }
    back
}

/// For studying the HF stage (traced): the level with the HF search's goals (`$`, `*`
/// where a goal of the level too) and the level's other goals (`.`).
fn hf_target_picture(board: &Board, target: &Board) -> String {
    let mut out = String::new();
    for r in 0..board.height() {
        for c in 0..board.width() {
            let sq = board.square(r, c);
            out.push(match (board.is_floor(sq), target.is_goal(sq), board.is_goal(sq)) {
                (false, _, _) => '#',
                (true, true, true) => '*',
                (true, true, false) => '$',
                (true, false, true) => '.',
                _ => ' ',
            });
        }
        out.push('\n');
    }
    out
}

/// What [`FastSearch::run`] stopped for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FastEvent {
    /// The budget of this call is used up.
    Budget,
    /// A solution: pushes from the start (compact square the box leaves, direction).
    Solved(Vec<(u16, u8)>),
    /// Proved: no solution.
    Unsolvable,
    /// Every strategy ran out of memory without a solution.
    OutOfMemory,
}

/// Progress of the fast search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FastProgress {
    /// Name of the strategy that ran last, its number (1-based) and how many there are.
    pub strategy: &'static str,
    pub strategy_number: u32,
    pub strategies: u32,
    /// Positions stored and moves made, by all strategies.
    pub positions: u64,
    pub generated: u64,
    /// The same as `generated` (kept for callers that read it).
    pub total_generated: u64,
    /// Cells of the feature space in use, all strategies.
    pub cells: usize,
    /// Most goals packed in plan order by a position found, and the goals.
    pub best_packed: u32,
    pub goals: u32,
    /// Bytes held by the searches' stores, and their budget.
    pub memory_bytes: usize,
    pub memory_limit: usize,
    /// Steps of the packing plan that had to be relaxed (no way out found).
    pub plan_relaxed: u32,
    /// Positions stored by the backward search (its perimeter), and the fewest boxes it
    /// left on goals (0, 0 when it does not run).
    pub back_positions: u64,
    pub back_fewest_on_goals: u32,
    /// Pulls made by the backward searches the strategies meet (the HF stage's and the
    /// perimeter's; not the packing searches that make the plan before the search starts):
    /// work as a move is, so that a node budget counts both.
    pub pulls: u64,
}

/// One search of the schedule.
enum Engine {
    Fess(Box<Fess>),
    Greedy(Box<Greedy>),
}

impl Engine {
    fn run(&mut self, budget: u64, perimeter: Option<&Backward>) -> FessEvent {
        match self {
            Engine::Fess(f) => f.run(budget, perimeter),
            Engine::Greedy(g) => g.run(budget),
        }
    }

    /// True when the search cuts moves by the stop rule: running out of moves proves
    /// nothing then.
    fn cuts_moves(&self) -> bool {
        matches!(self, Engine::Fess(f) if f.stops)
    }

    fn stats(&self) -> FessStats {
        match self {
            Engine::Fess(f) => f.stats,
            Engine::Greedy(g) => g.stats,
        }
    }

    fn memory(&self) -> usize {
        match self {
            Engine::Fess(f) => f.memory(),
            Engine::Greedy(g) => g.memory(),
        }
    }

    fn memory_budget(&self) -> usize {
        match self {
            Engine::Fess(f) => f.memory_budget(),
            Engine::Greedy(g) => g.memory_budget(),
        }
    }

    /// Raise a scored search's budget (a probe's is never raised); true when it was.
    fn grant_memory(&mut self, bytes: usize) -> bool {
        match self {
            Engine::Fess(f) => {
                f.grant_memory(bytes);
                true
            }
            Engine::Greedy(_) => false,
        }
    }

    fn best_position(&self) -> Option<(Vec<u16>, u16)> {
        match self {
            Engine::Fess(f) => f.best_position(),
            Engine::Greedy(g) => g.best_position(),
        }
    }

    fn pushes_to(&mut self, id: u32) -> Vec<(u16, u8)> {
        match self {
            Engine::Fess(f) => f.pushes_to(id),
            Engine::Greedy(g) => g.pushes_to(id),
        }
    }
}

/// A strategy under way.
struct Running {
    strategy: Strategy,
    fess: Engine,
    /// Out of memory, or a probe out of moves: no more turns.
    full: bool,
    /// Goals its start position packs in plan order.
    start_packed: u16,
    /// Set for the HF search only: its watch on its best packed count, where it ends on a
    /// stall. Its goals are not the level's (its solutions are none, and running out of
    /// moves proves nothing).
    hf_stall: Option<Stall>,
}

impl Running {
    /// The HF search, not one of the level's strategies.
    fn hf(&self) -> bool {
        self.hf_stall.is_some()
    }

    /// True when running out of moves proves the level unsolvable: a search on the level's
    /// own goals with every move.
    fn proves_unsolvable(&self) -> bool {
        !self.hf() && !self.fess.cuts_moves()
    }
}

/// The fast search on one position, with its schedule.
pub struct FastSearch {
    analysis: Arc<Analysis>,
    memory_limit: usize,
    runs: Vec<Running>,
    /// The strategy whose turn it is.
    turn: usize,
    /// The backward search (its perimeter serves every strategy), and whether it still
    /// searches; off unless asked for (measured: no gain yet).
    back: Option<Backward>,
    back_active: bool,
    calls: u64,
    /// The HF stage (Festival's second strategy): once the strategies have made
    /// `HF_AFTER` moves without a solution, the backward search makes `HF_PULLS` pulls
    /// (one call in three), then a scored search starts toward its best position — the
    /// fewest floor areas, then the fewest boxes on goals (see [`HF`]) — and the backward
    /// search goes on growing (one call in `HF_BACK_EVERY`) as the perimeter every
    /// strategy meets, until the HF search has made its moves; then the next attempt
    /// (`HF_ATTEMPTS`), with a backward search of its own. A level of `MANY_BOXES` boxes
    /// or more has the stage from the start, in its Festival form ([`HfMode`]).
    hf: HfStage,
    /// The start (compact squares) and the memory of the backward search and of the HF
    /// search.
    player: u16,
    boxes: Vec<u16>,
    back_share: usize,
    hf_share: usize,
    /// When the HF stage begins (`HF_AFTER`) and the pulls before its search (`HF_PULLS`).
    hf_after: u64,
    hf_pulls: u64,
    /// How the HF search counts, ranks and ends.
    hf_mode: HfMode,
    /// The level has `MANY_BOXES` boxes or more.
    many: bool,
    /// HF searches started.
    hf_searches: u32,
    /// The HF search's best packed count the trace last reported ([`FastSearch::trace_meeting`]).
    traced_packed: u16,
    /// Why the HF search under way ended, for the trace.
    hf_end: &'static str,
    /// While the strategies have made fewer than `HF_AFTER` moves, the backward search's
    /// share of the calls in its pulling phase: one in this many (`None`: one in three).
    pull_every: Option<u64>,
    /// When the packing has stalled (`STALL_MOVES`; `None`: never asked).
    stall: Option<Stall>,
    /// What the schedule did, where the experiments ask for a trace.
    trace: Vec<String>,
    /// The strategy that found the solution.
    solved_by: Option<&'static str>,
    /// No plan can be followed and the supplied packing search has yet to look for one
    /// ([`Schedule::later`]): after this many moves (`SUPPLIED_AFTER`), from this start.
    supplied: Option<(u64, schedule::Start)>,
    /// Moves made by the searches this one replaced ([`FastSearch::take_supplied_plan`]).
    spent: u64,
    /// Pulls made by the backward searches the strategies meet ([`FastProgress::pulls`]).
    pulls: u64,
    /// Scratch: the backward search's new positions ([`FastSearch::meet_fresh`]).
    fresh: Vec<(u64, u32)>,
    /// Operations of this search's calls, by kind ([`FastSearch::op_counts`]).
    ops: [u64; work::OPS],
}

/// The stall trigger's watch on the best packed count.
#[derive(Clone, Copy, Debug)]
struct Stall {
    /// Moves without a rise after which the packing has stalled.
    after: u64,
    /// A count of 0 can stall too (`stallzero`).
    zero: bool,
    /// The best packed count seen, and the strategies' moves when it rose.
    best: u16,
    since: u64,
}

impl Stall {
    fn new(after: u64, zero: bool) -> Stall {
        Stall { after, zero, best: 0, since: 0 }
    }

    /// True when `best` (the strategies' best packed count after `moves` moves) has not
    /// risen for `after` moves since it last rose, and is above 0 (unless `zero`).
    fn stalled(&mut self, best: u16, moves: u64) -> bool {
        if best > self.best {
            (self.best, self.since) = (best, moves);
            return false;
        }
        (self.best > 0 || self.zero) && moves - self.since >= self.after
    }
}

/// How the HF search counts, ranks and ends (Festival's HF search: boxes on the target
/// squares in any order, fewer floor areas first; it goes on while it comes nearer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct HfMode {
    /// Boxes on target squares counted in any order ([`Plan::unordered`]), not in the order
    /// of a packing plan of the target.
    unordered: bool,
    /// Fewer floor areas ranked before more boxes on target ([`Config::regions_first`]).
    regions_first: bool,
    /// Festival's HF hotspots, no room links or out-of-plan boxes ([`Config::hf_hot`]).
    /// Where areas come first, the whole development suite at 250,000 moves: 355 -> 361
    /// (bench/decisions.md: HF hotspots).
    hot: bool,
    /// The search ends once its count has not risen for this many moves.
    stall: u64,
}

impl HfMode {
    /// Festival's form: the target in any order, areas first, its HF hotspots (unless
    /// `nohfhot`), ending on a stall (`HF_STALL` unless the switches say otherwise). With
    /// `hffew`, on a level of fewer than `MANY_BOXES` boxes, the target in its packing
    /// plan's order with the plain scores, ending on a stall: on Sasquatch I 26 (12 boxes
    /// between pillars) the unordered count fills target squares that shut others off
    /// (5 of 12 in 100,000 moves), the plan's order reaches and meets (portfolio lane 1:
    /// 20 -> 25 of the 47 few-box levels lane 0 misses at 250,000, bench/decisions.md).
    fn festival(exp: &Experiments, boxes: usize) -> HfMode {
        let stall = exp.hf_stall.unwrap_or(HF_STALL);
        if exp.hf_few && exp.hf_few_below.or(MANY_BOXES).is_some_and(|k| boxes < k) {
            return HfMode { unordered: false, regions_first: false, hot: false, stall };
        }
        HfMode { unordered: true, regions_first: true, hot: !exp.no_hf_hot, stall }
    }
}

/// Where the HF stage is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HfStage {
    Off,
    Waiting,
    /// The backward search runs; pulls still to make before the HF search starts.
    Pulling(u64),
    Running,
}

impl FastSearch {
    /// A search on `board` (boxes frozen on goals already made walls), its problem, from the
    /// player and boxes given as compact squares, with a memory budget in bytes.
    pub fn new(
        board: &Board,
        p: Problem,
        player: u16,
        boxes: &[u16],
        memory_limit: usize,
        exp: &Experiments,
    ) -> FastSearch {
        FastSearch::with_deadline(
            board,
            p,
            (player, boxes),
            memory_limit,
            None,
            Deadline::NONE,
            exp,
        )
    }

    /// [`FastSearch::new`] for a search with a time limit, which bounds the second packing
    /// search's pulls ([`Packing::again`]), the setup's packing searches stopped at
    /// `deadline` ([`crate::Solver::new_timed`]).
    pub fn with_deadline(
        board: &Board,
        p: Problem,
        (player, boxes): (u16, &[u16]),
        memory_limit: usize,
        time_limit_ms: Option<f64>,
        deadline: Deadline,
        exp: &Experiments,
    ) -> FastSearch {
        let again = Packing::again(memory_limit, time_limit_ms);
        let schedule = Schedule::build(board, p, player, boxes, exp, again, deadline);
        FastSearch::from_schedule(schedule, player, boxes, memory_limit)
    }

    /// A search that runs `schedule` from the player and boxes given as compact squares,
    /// with a memory budget in bytes.
    pub fn from_schedule(
        schedule: Schedule,
        player: u16,
        boxes: &[u16],
        memory_limit: usize,
    ) -> FastSearch {
        let Schedule { analysis, planned, followable, later, hf, use_back, trace } = schedule;
        let exp = Arc::clone(&analysis.exp);
        let back_share = if use_back { memory_limit / 3 } else { 0 };
        // Memory: a probe gets a sixteenth (its moves are few), the others share the rest.
        let total = memory_limit - back_share;
        let probes = planned.iter().filter(|(s, _)| s.limit > 0).count();
        let mains = planned.len() - probes;
        let probe_share = if mains > 0 { total / 16 } else { total / probes.max(1) };
        let share = (total - probes * probe_share) / mains.max(1);
        let back = use_back.then(|| {
            perimeter(Backward::new(Arc::clone(&analysis), player, boxes, back_share), &exp)
        });
        // Patterns learned by one strategy prune the others' positions too (but the
        // sprint's).
        let learned = Learned::new(&analysis.p);
        let runs = planned
            .into_iter()
            .map(|(strategy, a)| {
                let memory = if strategy.limit > 0 { probe_share } else { share };
                let fess = if strategy.greedy {
                    Engine::Greedy(Box::new(Greedy::new(
                        a,
                        player,
                        boxes,
                        memory,
                        Rc::clone(&learned),
                    )))
                } else {
                    let learned =
                        if strategy.apart { Learned::new(&a.p) } else { Rc::clone(&learned) };
                    Engine::Fess(Box::new(Fess::new(
                        a,
                        strategy.config,
                        player,
                        boxes,
                        memory,
                        learned,
                    )))
                };
                let start_packed = fess.stats().best_packed;
                Running { strategy, fess, full: false, start_packed, hf_stall: None }
            })
            .collect();
        let many = exp.many_boxes.unwrap_or(MANY_BOXES).is_some_and(|k| boxes.len() >= k);
        let hf_mode = if many {
            HfMode::festival(&exp, boxes.len())
        } else {
            HfMode {
                unordered: exp.hf_unordered,
                regions_first: exp.hf_regions,
                hot: exp.hf_regions && !exp.no_hf_hot,
                stall: exp.hf_stall.unwrap_or(HF_STALL),
            }
        };
        FastSearch {
            analysis,
            memory_limit,
            runs,
            turn: 0,
            back_active: back.is_some(),
            back,
            calls: 0,
            hf: if hf { HfStage::Waiting } else { HfStage::Off },
            player,
            boxes: boxes.to_vec(),
            back_share: 0,
            hf_share: 0,
            // Where the plan misleads, the backward search at once, at a small share.
            hf_after: exp.hf_after.unwrap_or(if followable && !many { HF_AFTER } else { 0 }),
            hf_mode,
            many,
            pull_every: exp
                .pull_every
                .or((!followable && !many).then_some(UNFOLLOWABLE_PULL_EVERY)),
            stall: (!exp.no_stall)
                .then(|| Stall::new(exp.stall.unwrap_or(STALL_MOVES), exp.stall_zero)),
            hf_pulls: exp.hf_pulls.unwrap_or(if many { MANY_PULLS } else { HF_PULLS }),
            hf_searches: 0,
            traced_packed: 0,
            hf_end: "no reason",
            trace,
            solved_by: None,
            supplied: later.map(|l| (exp.supplied_after.unwrap_or(schedule::SUPPLIED_AFTER), l)),
            spent: 0,
            pulls: 0,
            fresh: Vec::new(),
            ops: [0; work::OPS],
        }
    }

    /// The supplied packing search, put off until the search had made its moves: where it
    /// finds a plan that can be followed, the search starts again on it (the moves made so
    /// far still counted).
    fn take_supplied_plan(&mut self) {
        let Some((_, start)) = self.supplied.take() else { return };
        let (player, boxes, moves) = (self.player, self.boxes.clone(), self.moves());
        let Some(schedule) = Schedule::on_supplied_plan(start, player, &boxes) else {
            if self.tracing() {
                self.trace.push(format!("no supplied packing plan after {moves} moves"));
            }
            return;
        };
        let (spent, calls, pulls) = (self.spent + moves, self.calls, self.pulls);
        let mut trace = std::mem::take(&mut self.trace);
        if self.tracing() {
            trace.push(format!("after {moves} moves, a new start on the supplied packing plan"));
        }
        // The old stores go before the new are made: the memory budget holds one search.
        self.runs.clear();
        self.back = None;
        *self = FastSearch::from_schedule(schedule, player, &boxes, self.memory_limit);
        trace.append(&mut self.trace);
        self.trace = trace;
        self.spent = spent;
        self.calls = calls;
        self.pulls = pulls;
    }

    /// Tests and studies: begin the HF stage after `moves` moves of the strategies, with
    /// `pulls` pulls of the backward search before the HF search (where the level has the
    /// stage at all).
    pub fn set_hf_stage(&mut self, moves: u64, pulls: u64) {
        self.hf_after = moves;
        self.hf_pulls = pulls;
    }

    /// True once an HF search has started.
    pub fn hf_started(&self) -> bool {
        self.hf_searches > 0
    }

    /// The HF stage begins: up to a quarter of the memory for the backward and HF
    /// searches, taken from the main strategies' budgets (none below what it holds now),
    /// only what they give up, so that the whole stays within the budget, half of it for
    /// each (three quarters for the backward search: XSokoban 90 48 -> 54 s, its pulls,
    /// bounded by the memory, costing more; bench/decisions.md); then the backward
    /// search.
    fn begin_hf_stage(&mut self) {
        let take = self.memory_limit / 4;
        let mains = self.runs.iter().filter(|r| r.strategy.limit == 0).count().max(1);
        let mut freed = 0;
        for r in self.runs.iter_mut().filter(|r| r.strategy.limit == 0) {
            if let Engine::Fess(f) = &mut r.fess {
                let before = f.memory_budget();
                f.limit_memory(before.saturating_sub(take / mains));
                freed += before - f.memory_budget();
            }
        }
        self.back_share = freed / 2;
        self.hf_share = freed - freed / 2;
        self.begin_backward();
    }

    /// The backward search of the HF stage's next attempt. The stage begins with the
    /// dragonfly search's ([`Backward::dragonfly`]; not with `nodragonflyfirst`), then its
    /// usual attempts: the first orders its pulls toward the start squares, the second away
    /// from the goals ([`Backward::away`]), the other way round on a level of many boxes
    /// with `manyaway` (a portfolio lane's); the one away from the goals ranks by open floor
    /// with `bicon` ([`Backward::open`]), and so does any attempt after the second; with
    /// `dragonfly` the one toward the start squares is the dragonfly search. It makes
    /// `HF_PULLS` pulls (the dragonfly search's attempt at most `MANY_PULLS`), or fills its
    /// memory, before the HF search starts.
    fn begin_backward(&mut self) {
        let (a, player, boxes, share) =
            (Arc::clone(&self.analysis), self.player, &self.boxes, self.back_share);
        let exp = &self.analysis.exp;
        // `hf_searches` counts the HF searches begun: this attempt is the next.
        let attempt = self.attempt(self.hf_searches + 1);
        let (away, open) = match attempt {
            Some(k) => {
                let away = (k % 2 == 0) != (self.many && exp.many_away);
                (away, (away && exp.open_back) || k >= OPEN_ATTEMPT)
            }
            None => (false, false),
        };
        let dragonfly = attempt.is_none() || exp.dragonfly;
        let back = if open {
            Backward::open(a, player, boxes, share)
        } else if away {
            Backward::away(a, player, boxes, share)
        } else if dragonfly {
            Backward::dragonfly(a, player, boxes, share)
        } else if self.many && exp.many_near {
            Backward::near(a, player, boxes, share)
        } else {
            Backward::new(a, player, boxes, share)
        };
        self.back = Some(perimeter(back, exp));
        self.back_active = false;
        // The dragonfly search's attempt pulls as on a level of many boxes on every level.
        let pulls = match attempt {
            None => exp.df_pulls.unwrap_or(self.hf_pulls.min(MANY_PULLS)),
            Some(_) => self.hf_pulls,
        };
        self.hf = HfStage::Pulling(pulls);
        if self.tracing() {
            let way = match (open, away) {
                (true, _) => "away from the goals, ranked by open floor",
                (_, true) => "away from the goals",
                _ if dragonfly => "toward the start squares, best first",
                _ => "toward the start squares",
            };
            let which = attempt.map_or("first".to_string(), |k| k.to_string());
            self.trace.push(format!("the HF stage's backward search {which} begins, {way}"));
        }
    }

    /// The usual attempt the HF search numbered `search` (from 1) makes; `None` for the
    /// dragonfly search's, made first (unless `nodragonflyfirst`, or `dragonfly` puts it
    /// in the first usual attempt's place). Its HF search ends after `DRAGONFLY_MOVES`:
    /// where it helps, it helps at once.
    fn attempt(&self, search: u32) -> Option<u32> {
        match (self.dragonfly_first(), search) {
            (false, _) => Some(search),
            (true, 1) => None,
            (true, _) => Some(search - 1),
        }
    }

    /// The HF stage begins with the dragonfly search's attempt (see [`FastSearch::attempt`]).
    fn dragonfly_first(&self) -> bool {
        let exp = &self.analysis.exp;
        !(exp.no_dragonfly_first || exp.dragonfly)
    }

    /// The HF search has ended without meeting the backward search (it has made its moves,
    /// or its store is full): it is dropped, its memory free again, and the next attempt's
    /// backward search takes the place of this one's (whose positions are dropped too);
    /// after the last attempt the backward search stops growing, its positions kept for
    /// the strategies to meet.
    fn end_hf_search(&mut self) {
        if self.runs.last().is_some_and(Running::hf) {
            if self.tracing() {
                self.trace_meeting(true);
                let st = self.runs.last().map(|r| r.fess.stats());
                let why = self.hf_end;
                self.trace.push(format!("the HF search ends ({why}): {st:?}"));
            }
            self.runs.pop();
            self.turn %= self.runs.len();
        }
        // With `bicon` the open ranking has had its attempt already.
        let exp = &self.analysis.exp;
        let attempts = exp.hf_attempts.unwrap_or(if exp.open_back { 2 } else { HF_ATTEMPTS })
            + u32::from(self.dragonfly_first());
        if self.hf_searches < attempts {
            self.begin_backward();
        } else {
            self.hf = HfStage::Off;
            self.back_active = false;
        }
    }

    /// The backward search reached the start position (node `id`): its pulls, played
    /// backwards, are the solution.
    fn solved_backward(&mut self, id: u32) -> FastEvent {
        self.solved_by = Some("backward search");
        let back = self.back.as_mut().expect("the backward search");
        FastEvent::Solved(back.pushes_from(id))
    }

    /// The HF search's form in the attempt under way: the level's ([`HfMode`]) in the
    /// dragonfly search's and the first two usual ones; in the third, ranked by open floor,
    /// Festival's on every level (the target counted in any order, areas first, its HF
    /// hotspots, ending on a stall), as portfolio lane 1 searches: Sasquatch III 13 and VI
    /// 28 solved in 10–12 s, one thread (bench/decisions.md).
    fn attempt_mode(&self) -> HfMode {
        // Called once the attempt's HF search is counted: `hf_searches` is its number.
        let attempt = self.attempt(self.hf_searches).unwrap_or(1);
        if attempt < OPEN_ATTEMPT {
            self.hf_mode
        } else {
            HfMode::festival(&self.analysis.exp, self.boxes.len())
        }
    }

    /// The HF search: a scored search toward the backward search's position with the
    /// fewest floor areas, then boxes on goals — those squares as its goals, the level's
    /// walls and floor — that ends by meeting the backward search's positions (its own
    /// solutions reach those squares, not the level's goals, and are no solutions).
    fn start_hf(&mut self) {
        self.hf = HfStage::Running;
        self.back_active = true;
        self.hf_searches += 1;
        self.traced_packed = 0;
        self.hf_end = "no reason";
        let Some(back) = self.back.as_ref() else { return self.end_hf_search() };
        let Some(id) = back.best() else { return self.end_hf_search() };
        let (p, board) = (&self.analysis.p, &self.analysis.layout.board);
        let mut goals = vec![false; board.len()];
        for &b in back.position(id).0 {
            goals[p.board_sq[b as usize]] = true;
        }
        let b2 = Board::new(board.width(), board.height(), board.cells().to_vec(), goals);
        let p2 = Problem::new(&b2);
        if p2.n != p.n || p2.goals.len() != self.boxes.len() {
            return self.end_hf_search();
        }
        let l2 = Layout::new(&b2, &p2);
        let exp = &self.analysis.exp;
        let mode = self.attempt_mode();
        let a2 = if mode.unordered {
            let plan = Arc::new(Plan::unordered(&p2, &self.boxes));
            Arc::new(Analysis::new(Arc::new(p2), Arc::new(l2), plan, Arc::clone(exp)))
        } else {
            analyse(Arc::new(p2), Arc::new(l2), &self.boxes, exp, true)
        };
        let learned = Learned::new(&a2.p);
        let (regions_first, hf_hot) = (mode.regions_first, mode.hot);
        let config = Config { regions_first, hf_hot, ..HF.config };
        let fess = Engine::Fess(Box::new(Fess::new(
            a2,
            config,
            self.player,
            &self.boxes,
            self.hf_share,
            learned,
        )));
        let start_packed = fess.stats().best_packed;
        if self.tracing() {
            let picture = hf_target_picture(board, &b2);
            let depth = back.pulls_to(id).len();
            let stats = back.stats;
            let areas = self.back.as_mut().map_or(0, |b| b.areas_of(id));
            self.trace.push(format!(
                "the HF search starts, its target {depth} pulls deep, {areas} floor areas: \
                 {stats:?}\n{picture}"
            ));
        }
        // An HF search that packs nothing of its target ends too: its count can stall at 0.
        let hf_stall = Some(Stall::new(mode.stall, true));
        // Only the dragonfly search's attempt ends its HF search after some moves.
        let dragonfly_moves = self.analysis.exp.dragonfly_first.unwrap_or(DRAGONFLY_MOVES);
        let limit = self.attempt(self.hf_searches).map_or(dragonfly_moves, |_| 0);
        let strategy = Strategy { limit, ..HF };
        self.runs.push(Running { strategy, fess, full: false, start_packed, hf_stall });
    }

    /// The problem searched.
    pub fn problem(&self) -> &Problem {
        &self.analysis.p
    }

    /// The packing plan (goal numbers in packing order).
    pub fn plan(&self) -> &Plan {
        &self.analysis.plan
    }

    /// The position with the best features found by the strategy that ran last, drawn on
    /// the board (for studying the search).
    pub fn best_picture(&self, board: &Board) -> Option<String> {
        let (boxes, player) = self.runs[self.turn].fess.best_position()?;
        let p = &self.analysis.p;
        let mut rows: Vec<Vec<char>> = (0..board.height())
            .map(|r| {
                (0..board.width())
                    .map(|c| {
                        let s = board.square(r, c);
                        match (board.is_floor(s), board.is_goal(s)) {
                            (false, _) if p.compact[s] == crate::analysis::problem::NONE => '#',
                            (_, true) => '.',
                            _ => ' ',
                        }
                    })
                    .collect()
            })
            .collect();
        for &b in &boxes {
            let (r, c) = board.row_col(p.board_sq[b as usize]);
            rows[r][c] = if p.is_goal[b as usize] { '*' } else { '$' };
        }
        let (r, c) = board.row_col(p.board_sq[player as usize]);
        rows[r][c] = if rows[r][c] == '.' { '+' } else { '@' };
        Some(rows.iter().map(|r| r.iter().collect::<String>() + "\n").collect())
    }

    /// Counters of all strategies, added up (the best packed: the most).
    pub fn stats(&self) -> FessStats {
        let mut t = FessStats::default();
        for r in &self.runs {
            let s = r.fess.stats();
            t.nodes += s.nodes;
            t.generated += s.generated;
            t.duplicates += s.duplicates;
            t.deadlocks += s.deadlocks;
            t.cells += s.cells;
            t.best_packed = t.best_packed.max(s.best_packed);
            t.advised += s.advised;
            t.stuck_tests += s.stuck_tests;
            t.patterns += s.patterns;
            t.pattern_deadlocks += s.pattern_deadlocks;
            t.pruned += s.pruned;
            t.refills += s.refills;
            t.scored += s.scored;
            t.watch_len = t.watch_len.max(s.watch_len);
            if s.watch_deepest > t.watch_deepest {
                t.watch_weight = s.watch_weight;
            }
            t.watch_deepest = t.watch_deepest.max(s.watch_deepest);
            t.watch_dead = t.watch_dead.max(s.watch_dead);
            (t.watch_expanded, t.watch_expanded_moves) = (t.watch_expanded, t.watch_expanded_moves)
                .max((s.watch_expanded, s.watch_expanded_moves));
        }
        t
    }

    /// Search for up to about `budget` moves of the cheapest strategy (a turn of one
    /// strategy; while the backward search runs, one call in three is its turn).
    pub fn run(&mut self, budget: u64) -> FastEvent {
        let before = work::counts();
        let event = self.run_call(budget);
        let after = work::counts();
        for i in 0..work::OPS {
            self.ops[i] += after[i].wrapping_sub(before[i]);
        }
        event
    }

    fn run_call(&mut self, budget: u64) -> FastEvent {
        self.calls += 1;
        if self.supplied.as_ref().is_some_and(|(k, _)| self.calls % 8 == 0 && self.moves() >= *k) {
            self.take_supplied_plan();
        }
        if self.hf == HfStage::Running && self.runs.last().is_some_and(|r| r.hf() && r.full) {
            self.end_hf_search();
        }
        if self.hf == HfStage::Waiting && self.calls % 8 == 0 {
            let moves = self.moves();
            if moves >= self.hf_after {
                self.begin_hf_stage();
            } else if self.stall.is_some() {
                let best = self.runs.iter().map(|r| r.fess.stats().best_packed).max().unwrap_or(0);
                if self.stall.as_mut().is_some_and(|st| st.stalled(best, moves)) {
                    if self.tracing() {
                        self.trace.push(format!("stalled at {best} packed after {moves} moves"));
                    }
                    self.pull_every.get_or_insert(STALL_PULL_EVERY);
                    self.begin_hf_stage();
                }
            }
        }
        if let HfStage::Pulling(left) = self.hf {
            let every = match self.pull_every {
                Some(k) if self.moves() < HF_AFTER => k,
                _ => 3,
            };
            if self.calls % every == 0 {
                let pulls = (budget * 4).min(left);
                let event = match self.run_backward(pulls) {
                    Ok(event) => event,
                    Err(met) => return met,
                };
                match event {
                    BackEvent::Budget if pulls < left => self.hf = HfStage::Pulling(left - pulls),
                    BackEvent::Reached(id) => return self.solved_backward(id),
                    _ => self.start_hf(),
                }
                return FastEvent::Budget;
            }
        }
        // One call in this many is the backward search's while it grows the perimeter.
        let back_every = if self.hf_searches > 0 { HF_BACK_EVERY } else { 3 };
        if self.back_active && self.calls % back_every == 0 {
            let event = match self.run_backward(budget) {
                Ok(event) => event,
                Err(met) => return met,
            };
            match event {
                BackEvent::Budget => {}
                BackEvent::Reached(id) => return self.solved_backward(id),
                BackEvent::Exhausted | BackEvent::MemoryFull => self.back_active = false,
            }
            return FastEvent::Budget;
        }
        // The next strategy with room left.
        let n = self.runs.len();
        let Some(k) = (0..n).map(|i| (self.turn + 1 + i) % n).find(|&i| !self.runs[i].full) else {
            return FastEvent::OutOfMemory;
        };
        self.turn = k;
        let max_share = self.runs.iter().map(|r| r.strategy.share).max().unwrap_or(1);
        let run = &mut self.runs[k];
        let moves = (budget * run.strategy.share / max_share).max(1);
        let event = run.fess.run(moves, self.back.as_ref());
        let stats = run.fess.stats();
        if let Some(st) = run.hf_stall.as_mut() {
            if st.stalled(stats.best_packed, stats.generated) {
                run.full = true; // the HF search no longer comes nearer its target
                self.hf_end = "stalled";
            }
        }
        if run.strategy.limit > 0 && stats.generated >= run.strategy.limit {
            run.full = true; // a probe, or the first HF search, has had its moves
            if run.hf() {
                self.hf_end = "its moves made";
            }
        }
        if run.strategy.idle > 0
            && stats.generated >= run.strategy.idle
            && stats.best_packed == run.start_packed
        {
            run.full = true; // going nowhere
        }
        if matches!(event, FessEvent::MemoryFull) && !run.full && self.grant_memory(k) {
            return FastEvent::Budget;
        }
        let run = &mut self.runs[k];
        match event {
            FessEvent::Budget => {
                if self.runs.iter().all(|r| r.full) {
                    FastEvent::OutOfMemory
                } else {
                    FastEvent::Budget
                }
            }
            // The HF search's goals are not the level's: it ends only by meeting.
            FessEvent::Solved(_) if run.hf() => {
                run.full = true;
                self.hf_end = "its target reached, unmet";
                FastEvent::Budget
            }
            FessEvent::Solved(pushes) => {
                self.report_turns(k);
                FastEvent::Solved(pushes)
            }
            FessEvent::Met(node, back_node) => {
                let name = run.strategy.name;
                if self.tracing() {
                    self.trace.push(format!("{name} met the backward search"));
                }
                self.report_turns(k);
                let run = &mut self.runs[k];
                let mut pushes = run.fess.pushes_to(node);
                let back = self.back.as_mut().expect("a perimeter");
                pushes.extend(back.pushes_from(back_node));
                FastEvent::Solved(pushes)
            }
            // Every position reachable was stored or proved dead: no solution, whichever
            // strategy found it out — but the HF search (its goals are not the level's) or
            // one cutting moves by the stop rule (the scored strategies) proves nothing.
            FessEvent::Exhausted if run.proves_unsolvable() => FastEvent::Unsolvable,
            FessEvent::Exhausted | FessEvent::MemoryFull => {
                run.full = true;
                if run.hf() {
                    let full = matches!(event, FessEvent::MemoryFull);
                    self.hf_end = if full { "its memory full" } else { "exhausted" };
                }
                if self.runs.iter().all(|r| r.full) {
                    FastEvent::OutOfMemory
                } else {
                    FastEvent::Budget
                }
            }
        }
    }

    /// Memory the search has promised or holds: a strategy that still has turns its
    /// budget (or what it holds, where more), one that has stopped what it holds, the
    /// backward search likewise, and the HF search's part while its backward search pulls.
    fn committed(&self) -> usize {
        let runs: usize = self
            .runs
            .iter()
            .map(|r| {
                let held = r.fess.memory();
                if r.full {
                    held
                } else {
                    held.max(r.fess.memory_budget())
                }
            })
            .sum();
        let back = self.back.as_ref().map_or(0, |b| b.memory().max(b.memory_budget()));
        let hf = if matches!(self.hf, HfStage::Pulling(_)) { self.hf_share } else { 0 };
        runs + back + hf
    }

    /// Strategy `k`'s store is full: it gets its part of the memory the others leave
    /// unused (stopped strategies' budgets beyond what they hold), shared with the
    /// strategies that still have turns; true when that part is worth a turn (at least
    /// `1/GRANT_PARTS` of the whole), so that the search ends by memory only when the whole
    /// of it is used, not when the first strategy has used its share.
    fn grant_memory(&mut self, k: usize) -> bool {
        // A stopped strategy's budget shrinks to what it holds, so that the HF stage, which
        // takes its memory from the budgets, cannot count the part given away again.
        for r in self.runs.iter_mut().filter(|r| r.full) {
            if let Engine::Fess(f) = &mut r.fess {
                f.limit_memory(0);
            }
        }
        let spare = self.memory_limit.saturating_sub(self.committed());
        let living = self.runs.iter().filter(|r| !r.full).count().max(1);
        let part = spare / living;
        part >= self.memory_limit / GRANT_PARTS && self.runs[k].fess.grant_memory(part)
    }

    /// Which strategy solved the level; traced, each strategy's moves too.
    fn report_turns(&mut self, solver: usize) {
        self.solved_by = Some(self.runs[solver].strategy.name);
        if self.tracing() {
            let mut t = format!("solved by {}", self.runs[solver].strategy.name);
            for r in &self.runs {
                t += &format!("\n  {}: {} moves", r.strategy.name, r.fess.stats().generated);
            }
            self.trace.push(t);
        }
    }

    fn tracing(&self) -> bool {
        self.analysis.exp.trace
    }

    /// Moves made by all strategies.
    fn moves(&self) -> u64 {
        self.runs.iter().map(|r| r.fess.stats().generated).sum()
    }

    /// The operations of this search's calls so far, by kind ([`crate::work`]).
    pub fn op_counts(&self) -> [u64; work::OPS] {
        self.ops
    }

    /// The work done so far: the operations of its calls weighted by what each costs
    /// ([`crate::work`]), counted the same on every run, and on any level near the time
    /// taken (where moves or calls are not: a pull costs 0.08–1.24 of a scored move by the
    /// level); plus 1 a call, so that every call counts, and 1 (a proof made before any
    /// call must not tie with no work done).
    pub fn op_work(&self) -> u64 {
        1 + self.calls + work::weighted(&self.ops)
    }

    /// The work done so far, as a node budget counts it: every move made (the replaced
    /// searches' too) and every pull ([`FastProgress::pulls`]).
    pub fn units(&self) -> u64 {
        self.spent + self.moves() + self.pulls
    }

    /// Up to `pulls` pulls of the backward search, counted in [`FastSearch::pulls`]; the
    /// solution instead where one of its new positions meets a strategy's
    /// ([`FastSearch::meet_fresh`]).
    fn run_backward(&mut self, pulls: u64) -> Result<BackEvent, FastEvent> {
        let back = self.back.as_mut().expect("a backward search runs");
        let before = back.stats.generated;
        let event = back.run(pulls);
        self.pulls += back.stats.generated - before;
        self.meet_fresh().map_or(Ok(event), Err)
    }

    /// The backward search's new positions looked up in every forward search's store: a
    /// position the perimeter reaches after a strategy stored it joins their paths, which
    /// the strategy, meeting only with its own new positions, would miss.
    fn meet_fresh(&mut self) -> Option<FastEvent> {
        let back = self.back.as_mut()?;
        back.take_fresh(&mut self.fresh);
        for &(key, b) in &self.fresh {
            let (boxes, norm) = back.position(b);
            for k in 0..self.runs.len() {
                let Engine::Fess(f) = &self.runs[k].fess else { continue };
                let Some(node) = f.find(key, boxes, norm) else { continue };
                let name = self.runs[k].strategy.name;
                if self.tracing() {
                    self.trace.push(format!("the backward search met {name}'s positions"));
                }
                self.report_turns(k);
                let mut pushes = self.runs[k].fess.pushes_to(node);
                let back = self.back.as_mut().expect("a perimeter");
                pushes.extend(back.pushes_from(b));
                return Some(FastEvent::Solved(pushes));
            }
        }
        None
    }

    /// Turns taken so far: one a call of [`FastSearch::run`], each about as long as any
    /// other (a strategy's moves per turn go by its share), so the count measures the work
    /// done the same way on every run and machine.
    pub fn turns(&self) -> u64 {
        self.calls
    }

    /// For studying a meeting that does not happen: how many boxes the HF search's best
    /// position, and the start, share with the nearest backward positions: a line when the
    /// trace is read after its best packed count rose, and one as it ends (`ending`).
    fn trace_meeting(&mut self, ending: bool) {
        let (Some(run), Some(back)) = (self.runs.last().filter(|r| r.hf()), &self.back) else {
            return;
        };
        let packed = run.fess.stats().best_packed;
        if !ending && packed <= self.traced_packed {
            return;
        }
        self.traced_packed = packed;
        let Some((mut best, _)) = run.fess.best_position() else { return };
        best.sort_unstable();
        let mut start = self.boxes.clone();
        start.sort_unstable();
        let ((k, n), (ks, ns)) = (back.nearest_overlap(&best), back.nearest_overlap(&start));
        self.trace.push(format!(
            "the HF search's best: {packed} of {} packed, {k} boxes shared with the nearest of \
             {} backward positions ({n} as near); the start: {ks} shared ({ns})",
            best.len(),
            back.stats.nodes
        ));
    }

    /// The trace's lines so far ([`Experiments::trace`]), taken out of the search.
    pub fn take_trace(&mut self) -> Vec<String> {
        if self.tracing() {
            self.trace_meeting(false);
        }
        std::mem::take(&mut self.trace)
    }

    /// The strategy that found the solution, once one has.
    pub fn solved_by(&self) -> Option<&'static str> {
        self.solved_by
    }

    /// The progress so far.
    pub fn progress(&self) -> FastProgress {
        let st = self.stats();
        let run = &self.runs[self.turn];
        FastProgress {
            strategy: run.strategy.name,
            strategy_number: self.turn as u32 + 1,
            strategies: self.runs.len() as u32,
            positions: st.nodes,
            generated: st.generated,
            total_generated: self.spent + st.generated,
            cells: st.cells,
            best_packed: st.best_packed as u32,
            goals: self.analysis.p.goals.len() as u32,
            memory_bytes: self.runs.iter().map(|r| r.fess.memory()).sum::<usize>()
                + self.back.as_ref().map_or(0, |b| b.memory()),
            memory_limit: self.memory_limit,
            plan_relaxed: self.analysis.plan.relaxed as u32,
            back_positions: self.back.as_ref().map_or(0, |b| b.stats.nodes),
            back_fewest_on_goals: self.back.as_ref().map_or(0, |b| b.stats.fewest_on_goals as u32),
            pulls: self.pulls,
        }
    }
}

/// The packing plan of a level, as the fast search under the switches `exp` makes it, drawn
/// on its board (XSB rows): each goal shows its place in the packing order (`1`-`9`, then
/// `a`-`z`, then `A`-`Z`, then `+`), so a person can see which goals the fast search fills
/// first; below it, the counts, the steps in order when the plan parks boxes, and where the
/// order cannot be followed from the start (its first goals, filled first, leave the other
/// boxes unable to fill the rest: [`Plan::first_dead_prefix`]). `memory_limit`: the budget
/// of the search whose plan it is (its second packing search may take it all).
pub fn plan_picture(
    level: &sokoban_core::Level,
    exp: &Arc<Experiments>,
    memory_limit: usize,
) -> String {
    let board = &level.board;
    let p = Problem::new(board);
    let layout = Arc::new(Layout::new(board, &p));
    let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
    let player = p.compact[level.start.player];
    let packing = Packing::again(memory_limit, None).under(exp);
    let (analysis, greedy) = analyse_both(Arc::new(p), layout, &boxes, exp, packing);
    let (analysis, followable) = followed_plan(analysis, greedy, &boxes, player, &mut Vec::new());
    let (p, plan) = (&analysis.p, &analysis.plan);
    let mut out = draw_plan(level, p, plan);
    let dead = if followable { None } else { plan.first_dead_prefix(p, board, &boxes, player) };
    if let Some(k) = dead {
        let goals = if k == 1 { "goal is".to_string() } else { format!("{k} goals are") };
        out.push_str(&format!(
            "the order cannot be followed from the start: once its first {goals} filled, \
             the other boxes where they start can no longer fill the rest\n"
        ));
    }
    out
}

/// [`plan_picture`] of a given plan of `level` (whose problem is `p`). The steps are
/// listed as (row, column) from 0: a goal, or `park` with the parking square and the square
/// its box goes on to.
pub fn draw_plan(level: &sokoban_core::Level, p: &Problem, plan: &Plan) -> String {
    let board = &level.board;
    let mut rows: Vec<Vec<char>> =
        sokoban_core::format::to_xsb(level).lines().map(|l| l.chars().collect()).collect();
    const DIGITS: &[u8] = b"123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (k, &j) in plan.order.iter().enumerate() {
        let (r, c) = board.row_col(p.board_sq[p.goals[j as usize] as usize]);
        if let Some(ch) = rows.get_mut(r).and_then(|row| row.get_mut(c)) {
            *ch = DIGITS.get(k).map_or('+', |&d| d as char);
        }
    }
    let mut out: String = rows.iter().map(|r| r.iter().collect::<String>() + "\n").collect();
    out.push_str(&format!(
        "{} goals in {} clusters, {} relaxed steps, {} parking steps\n",
        plan.order.len(),
        plan.clusters.len(),
        plan.relaxed,
        plan.parking_steps()
    ));
    if plan.parking_steps() > 0 {
        let at = |s: u16| board.row_col(p.board_sq[s as usize]);
        let steps: Vec<String> = plan
            .steps
            .iter()
            .map(|st| match st.then {
                crate::analysis::problem::NONE => format!("{:?}", at(st.square)),
                then => format!("park {:?} then {:?}", at(st.square), at(then)),
            })
            .collect();
        out.push_str(&format!("steps: {}\n", steps.join(", ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::schedule::{RULES_IDLE, SPRINT_IDLE};
    use super::*;
    use crate::work::Op;

    /// A room of eight boxes and its goals behind a narrow door.
    pub(super) const ROOM: &str = "\
#########
#...#   #
#...  $ #
#.. # $ ##
## ## $  #
#  $ $ $ #
# $ @ $  #
#   #    #
#########";

    /// A generated level (`8x8-4-40`) whose plans, the packing search's and the greedy
    /// removals', both fill first a goal of the top row that, filled, leaves the boxes where
    /// they start unable to fill the rest: its plan cannot be followed ([`Plan::followable`]).
    const NOT_FOLLOWABLE: &str = "\
########
# .... #
#  ##  #
#  ##$ #
#    $ #
# $ $###
# @  ###
########";

    fn search() -> FastSearch {
        search_of(ROOM)
    }

    fn search_of(xsb: &str) -> FastSearch {
        let level = sokoban_core::format::parse_level(xsb).unwrap();
        let p = Problem::new(&level.board);
        let player = p.compact[level.start.player];
        let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
        FastSearch::new(&level.board, p, player, &boxes, 64 << 20, &Default::default())
    }

    /// A search's operations are those of its own calls: two searches taking turns on one
    /// thread count what each counts alone, and they grow with the work done.
    #[test]
    fn each_search_counts_the_operations_of_its_own_calls() {
        // Calls up to the first that does not end in its budget (a solution ends the search).
        let mut alone = search_of(ROOM);
        let mut grown = vec![alone.op_work()];
        while grown.len() <= 40 {
            let event = alone.run(1);
            grown.push(alone.op_work());
            if !matches!(event, FastEvent::Budget) {
                break;
            }
        }
        let calls = grown.len() - 1;
        assert!(calls >= 4, "a level of a few calls at least");
        assert!(grown.windows(2).all(|w| w[0] <= w[1]) && grown[0] < grown[calls]);
        let counts = alone.op_counts();
        for op in [Op::FloodRows, Op::BoxNodes, Op::Child, Op::Expand, Op::Prepare] {
            assert!(counts[op as usize] > 0, "{op:?} counted");
        }
        let (mut a, mut b) = (search_of(ROOM), search_of(NOT_FOLLOWABLE));
        let mut b_on = true;
        for _ in 0..calls {
            a.run(1);
            b_on = b_on && matches!(b.run(1), FastEvent::Budget);
        }
        assert_eq!(a.op_counts(), counts);
        assert_ne!(b.op_counts(), [0; crate::work::OPS]);
    }

    /// The rules strategy (and its twin on the plan without parking) stops when idle only
    /// where its plan can be followed; the other strategies keep their own settings.
    #[test]
    fn the_rules_strategy_idles_out_only_on_a_plan_it_can_follow() {
        for (xsb, followable) in [(ROOM, true), (NOT_FOLLOWABLE, false)] {
            let f = search_of(xsb);
            let level = sokoban_core::format::parse_level(xsb).unwrap();
            let p = f.problem();
            let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
            let player = p.compact[level.start.player];
            assert_eq!(f.plan().followable(p, &level.board, &boxes, player), followable);
            let idle = |name: &str| {
                f.runs.iter().find(|r| r.strategy.name == name).map(|r| r.strategy.idle)
            };
            let want = if followable { RULES_IDLE } else { 0 };
            assert_eq!(idle(STRATEGIES[0].name), Some(want), "{xsb}");
            assert_eq!(idle(STRATEGIES[1].name), Some(0));
            assert_eq!(idle(SPRINT.name), Some(SPRINT_IDLE));
            if let Some(twin) = idle(STRATEGIES_PLAIN[0].name) {
                assert_eq!(twin, want);
            }
        }
    }

    /// A strategy whose store is full gets the memory the stopped strategies leave unused,
    /// never more than the whole budget; while every strategy runs, there is none to give.
    #[test]
    fn a_full_store_searches_on_with_memory_the_stopped_strategies_leave() {
        let mut f = search();
        assert!(f.runs.len() >= 2);
        assert!(!f.grant_memory(0), "the budgets share out the whole");
        for r in &mut f.runs[1..] {
            r.full = true;
        }
        let before = f.runs[0].fess.memory_budget();
        assert!(f.grant_memory(0));
        let held: usize = f.runs[1..].iter().map(|r| r.fess.memory()).sum();
        assert_eq!(f.runs[0].fess.memory_budget(), f.memory_limit - held);
        assert!(f.runs[0].fess.memory_budget() > before);
        assert_eq!(f.committed(), f.memory_limit);
        assert!(!f.grant_memory(0), "nothing left");
    }

    /// The stall trigger fires once the best packed count has not risen for its moves; a
    /// rise starts the count again, a lower count is no rise; nothing packed is no stall
    /// unless `stallzero`.
    #[test]
    fn the_packing_stalls_after_moves_without_a_rise() {
        let mut st = Stall::new(100, false);
        assert!(!st.stalled(0, 50));
        assert!(!st.stalled(0, 1000), "nothing packed yet");
        assert!(!st.stalled(1, 1050));
        assert!(!st.stalled(1, 1149));
        assert!(st.stalled(1, 1150));
        let mut zero = Stall::new(100, true);
        assert!(!zero.stalled(0, 50));
        assert!(zero.stalled(0, 100));
        let mut st = Stall::new(100, false);
        assert!(!st.stalled(3, 90));
        assert!(!st.stalled(3, 189));
        assert!(st.stalled(3, 190));
        assert!(!st.stalled(4, 250));
        assert!(!st.stalled(2, 300));
        assert!(st.stalled(4, 350));
    }

    /// Followable levels watch for a stall unless it is switched off; `stallN` sets its moves.
    #[test]
    fn the_stall_trigger_is_on_by_default() {
        let on = search_of(ROOM);
        assert_eq!(on.stall.map(|s| s.after), Some(STALL_MOVES));
        let exp = Experiments::parse("stall7").unwrap();
        let level = sokoban_core::format::parse_level(ROOM).unwrap();
        let p = Problem::new(&level.board);
        let player = p.compact[level.start.player];
        let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
        let seven = FastSearch::new(&level.board, p, player, &boxes, 64 << 20, &exp);
        assert_eq!(seven.stall.map(|s| s.after), Some(7));
    }

    fn search_with(xsb: &str, exp: &str) -> FastSearch {
        let level = sokoban_core::format::parse_level(xsb).unwrap();
        let p = Problem::new(&level.board);
        let player = p.compact[level.start.player];
        let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
        let exp = Arc::new(Experiments::parse(exp).unwrap());
        FastSearch::new(&level.board, p, player, &boxes, 64 << 20, &exp)
    }

    /// The search of `xsb` with switches `exp`, run a move a call until it solves the level:
    /// its calls and trace; the solution replays.
    fn calls_to_solve(xsb: &str, exp: &str) -> (u64, Vec<String>) {
        let level = sokoban_core::format::parse_level(xsb).unwrap();
        let f = solved_replayed(&level, search_with(xsb, exp), 1);
        (f.calls, f.trace)
    }

    /// The backward search's new positions are looked up in the strategies' stores: on
    /// `NOT_FOLLOWABLE` (its perimeter from the start) the backward search reaches a
    /// position the scored strategy stored before, which joins their paths into a
    /// solution that replays, calls sooner than the strategies meet it themselves
    /// (`nomeetback`). The usual attempts only (`nodragonflyfirst`), here and below.
    #[test]
    fn the_backward_search_meets_positions_a_strategy_stored_before() {
        let (met, trace) = calls_to_solve(NOT_FOLLOWABLE, "trace,nodragonflyfirst");
        assert!(trace.iter().any(|t| t == "the backward search met FESS scored's positions"));
        let (before, trace) = calls_to_solve(NOT_FOLLOWABLE, "trace,nomeetback,nodragonflyfirst");
        assert!(!trace.iter().any(|t| t.starts_with("the backward search met")));
        assert!(met < before, "{met} calls against {before}");
    }

    /// With `dragonfly` the HF stage's first backward search is the dragonfly search; on
    /// `NOT_FOLLOWABLE` a strategy and it meet, and the solution replays.
    #[test]
    fn the_dragonfly_search_meets_the_strategies() {
        let (_, trace) = calls_to_solve(NOT_FOLLOWABLE, "trace,dragonfly,hfafter0");
        assert!(trace
            .iter()
            .any(|t| t.ends_with("1 begins, toward the start squares, best first")));
        assert!(trace.iter().any(|t| t.contains(" met ")), "{trace:?}");
    }

    /// With `dragonflyfirstN` the HF stage begins with the dragonfly search's attempt, whose
    /// HF search ends after its N moves; then the usual first attempt, toward the start
    /// squares, and the solution replays.
    #[test]
    fn the_dragonfly_attempt_comes_first_and_ends_after_its_moves() {
        let (_, trace) = calls_to_solve(NOT_FOLLOWABLE, "trace,dragonflyfirst1,hfafter0,hfpulls1");
        let at = |line: &str| trace.iter().position(|t| t.ends_with(line));
        let first = at("search first begins, toward the start squares, best first");
        let ended = trace.iter().position(|t| t.contains("HF search ends (its moves made)"));
        let usual = at("backward search 1 begins, toward the start squares");
        assert!(first.is_some() && first < ended && ended < usual, "{trace:#?}");
    }

    /// A scored strategy whose move generation finds a new child in the perimeter makes
    /// it at once (`Fess::ahead`): on `ROOM` with the perimeter from the start, sooner than
    /// when that child's turn comes (`nomeetahead`); the solution replays.
    #[test]
    fn a_child_in_the_perimeter_is_made_at_once() {
        let (ahead, trace) = calls_to_solve(ROOM, "trace,hfafter0,nodragonflyfirst");
        assert!(trace.iter().any(|t| t == "FESS scored met the backward search"));
        let (in_turn, trace) = calls_to_solve(ROOM, "trace,hfafter0,nomeetahead,nodragonflyfirst");
        assert!(trace.iter().any(|t| t == "FESS scored met the backward search"));
        assert!(ahead < in_turn, "{ahead} calls against {in_turn}");
    }

    /// A level with at least `MANY_BOXES` boxes searches as Festival's backward + HF
    /// strategies from the start (`manyN` sets the count): the backward search at once at
    /// one call in three, its HF search after `MANY_PULLS` pulls, counting the target in any
    /// order, areas first, ending on a stall; its solution replays. Fewer boxes: the stage
    /// as before.
    #[test]
    fn many_boxes_search_backward_and_hf_from_the_start() {
        let boxes = sokoban_core::format::parse_level(ROOM).unwrap().start.box_squares().len();
        let few = search_with(ROOM, &format!("many{}", boxes + 1));
        assert_eq!(few.hf_after, HF_AFTER);
        assert!(
            !few.hf_mode.unordered && !few.hf_mode.regions_first && few.hf_mode.stall == HF_STALL
        );
        let mut away = search_with(ROOM, &format!("many{boxes},manyaway,nodragonflyfirst,trace"));
        (0..8).for_each(|_| _ = away.run(1)); // the stage is looked at every eighth call
        assert!(away.trace.iter().any(|t| t.ends_with("1 begins, away from the goals")));
        let mut few_away = search_with(
            ROOM,
            &format!("many{},manyaway,nodragonflyfirst,hfafter0,trace", boxes + 1),
        );
        (0..8).for_each(|_| _ = few_away.run(1));
        assert!(few_away.trace.iter().any(|t| t.ends_with("1 begins, toward the start squares")));
        let mut many = search_with(ROOM, &format!("many{boxes},hfpulls50"));
        assert_eq!((many.hf_after, many.pull_every, many.hf_pulls), (0, None, 50));
        assert!(many.hf_mode.unordered && many.hf_mode.regions_first && many.hf_mode.hot);
        assert!(!few.hf_mode.hot);
        assert_eq!(many.hf_mode.stall, HF_STALL);
        let level = sokoban_core::format::parse_level(ROOM).unwrap();
        let pushes = loop {
            match many.run(1) {
                FastEvent::Budget => {}
                FastEvent::Solved(pushes) => break pushes,
                other => panic!("{other:?}"),
            }
            // The stage is looked at every eighth call.
            assert!(many.calls < 8 || many.hf != HfStage::Waiting, "the stage begins at once");
        };
        assert!(many.calls >= 8, "solved before the stage could begin: a larger level");
        // The pulls are work a node budget counts: every pull of the backward searches.
        let pulls = many.back.as_ref().map_or(0, |b| b.stats.generated);
        assert!(pulls > 0 && many.progress().pulls >= pulls);
        let solution = crate::build_solution(&level, many.problem(), &pushes).unwrap();
        assert_eq!(solution.pushes, pushes.len());
    }

    /// The HF stage's attempts: the dragonfly search's, then toward the start squares, away
    /// from the goals, then away ranked by open floor (`Backward::open`) with the HF search
    /// in Festival's form; with `bicon` the second ranks so already and there is no third.
    #[test]
    fn the_third_hf_attempt_ranks_by_open_floor() {
        let ends = |exp: &str| {
            let mut s = search_with(ROOM, exp);
            for k in 0..=4 {
                s.hf_searches = k;
                s.end_hf_search();
            }
            let begun: Vec<String> =
                s.trace.iter().filter(|t| t.contains(" begins, ")).cloned().collect();
            (begun, s.hf)
        };
        let usual = [
            "the HF stage's backward search 1 begins, toward the start squares",
            "the HF stage's backward search 2 begins, away from the goals",
            "the HF stage's backward search 3 begins, away from the goals, ranked by open floor",
        ];
        let (begun, stage) = ends("trace");
        let first =
            "the HF stage's backward search first begins, toward the start squares, best first";
        assert_eq!(begun[0], first);
        assert_eq!(begun[1..], usual);
        assert_eq!(stage, HfStage::Off);
        let (begun, stage) = ends("trace,nodragonflyfirst");
        assert_eq!(begun, usual);
        assert_eq!(stage, HfStage::Off);
        // The third attempt searches in Festival's form on a level of few boxes too.
        let mut s = search_with(ROOM, "");
        assert!(!s.hf_mode.unordered && !s.hf_mode.hot && s.hf_mode.stall == HF_STALL);
        // The dragonfly search's attempt is counted first.
        s.hf_searches = OPEN_ATTEMPT + 1;
        let third = s.attempt_mode();
        assert!(third.unordered && third.regions_first && third.hot);
        assert_eq!(third.stall, HF_STALL);
        // With `hffew`, a level of few boxes keeps the plan's order and the plain scores.
        let mut s = search_with(ROOM, "hffew");
        s.hf_searches = OPEN_ATTEMPT + 1;
        let few = s.attempt_mode();
        assert!(!few.unordered && !few.regions_first && !few.hot);
        assert_eq!(few.stall, HF_STALL);
        let lane = search_with(ROOM, "many0,hffew");
        assert_eq!(lane.hf_mode, few);
        let (begun, stage) = ends("trace,bicon");
        assert_eq!(begun.len(), 3);
        assert!(begun[2].ends_with("2 begins, away from the goals, ranked by open floor"));
        assert_eq!(stage, HfStage::Off);
    }

    /// A generated level (`9x9-5-23`) whose packing search's plan fills the goal at the top
    /// right first; with it filled, the boxes where they start can no longer fill the rest.
    /// The greedy removals' plan can be followed.
    const PACKING_PLAN_DEAD: &str = "\
#########
#    @  #
# $##$$$#
## ##   #
##      #
##   #. #
# $  #..#
# .  # .#
#########";

    /// Where the packing search's plan cannot be followed from the start and the greedy
    /// removals' can, the search follows the greedy removals' (`packingplan` keeps the
    /// other), and solves the level with it.
    #[test]
    fn the_greedy_removals_plan_is_followed_where_the_packing_searchs_cannot_be() {
        let (level, boxes, player, packing, kept) = analysed(PACKING_PLAN_DEAD);
        let (p, board) = (&packing.p, &level.board);
        assert!(!packing.plan.followable(p, board, &boxes, player));
        let mut trace = Vec::new();
        let (greedy, followable) =
            followed_plan(Arc::clone(&packing), kept, &boxes, player, &mut trace);
        assert!(followable && greedy.plan.order != packing.plan.order);
        assert!(greedy.plan.followable(p, board, &boxes, player));
        assert_eq!(trace.len(), 1);
        assert_eq!(search_with(PACKING_PLAN_DEAD, "packingplan").plan().order, packing.plan.order);
        let f = search_of(PACKING_PLAN_DEAD);
        assert_eq!(f.plan().order, greedy.plan.order);
        solves_and_replays(&level, f);
    }

    /// The level of `xsb`, its boxes and player (compact squares), its analysis by
    /// [`analyse_both`] and the greedy removals' plan that kept apart.
    #[allow(clippy::type_complexity)]
    pub(super) fn analysed(
        xsb: &str,
    ) -> (sokoban_core::Level, Vec<u16>, u16, Arc<Analysis>, Option<Arc<Plan>>) {
        let level = sokoban_core::format::parse_level(xsb).unwrap();
        let p = Problem::new(&level.board);
        let layout = Arc::new(Layout::new(&level.board, &p));
        let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
        let player = p.compact[level.start.player];
        let (packing, kept) =
            analyse_both(Arc::new(p), layout, &boxes, &Arc::default(), Packing::Once);
        (level, boxes, player, packing, kept)
    }

    /// The search runs until it solves the level, and its pushes replay.
    fn solves_and_replays(level: &sokoban_core::Level, f: FastSearch) {
        solved_replayed(level, f, 10_000);
    }

    /// The search run `budget` moves a call until it solves the level, its pushes replayed.
    fn solved_replayed(level: &sokoban_core::Level, mut f: FastSearch, budget: u64) -> FastSearch {
        let pushes = loop {
            match f.run(budget) {
                FastEvent::Budget => {}
                FastEvent::Solved(pushes) => break pushes,
                other => panic!("{other:?}"),
            }
        };
        let solution = crate::build_solution(level, f.problem(), &pushes).unwrap();
        assert_eq!(solution.pushes, pushes.len());
        f
    }

    /// A generated level (`9x9-5-49`) where the packing search's plan and the greedy
    /// removals' both fill goals first that leave the boxes where they start unable to fill
    /// the rest; the packing search with the supply check finds an order that can be
    /// followed.
    const SUPPLIED_PLAN: &str = "\
#########
# ....  #
#   .## #
# $###  #
##@## $ #
##$#    #
# $   $ #
#       #
#########";

    /// Where neither the packing search's plan nor the greedy removals' can be followed from
    /// the start, the search follows the supplied packing search's (`nosupplied` keeps the
    /// packing search's), which can, and solves the level with it.
    #[test]
    fn the_supplied_packing_searchs_plan_is_followed_where_no_other_can_be() {
        let (level, boxes, player, packing, kept) = analysed(SUPPLIED_PLAN);
        let (p, board) = (&packing.p, &level.board);
        assert!(!packing.plan.followable(p, board, &boxes, player));
        let greedy = kept.as_deref().unwrap_or(&packing.plan);
        assert!(!greedy.followable(p, board, &boxes, player));
        let supplied = supplied_packing_plan(&packing, &boxes, player).expect("a plan");
        assert!(supplied.followable(p, board, &boxes, player));
        assert_ne!(supplied.order, packing.plan.order);
        let mut trace = Vec::new();
        let (followed, followable) =
            followed_plan(Arc::clone(&packing), kept, &boxes, player, &mut trace);
        assert!(followable && followed.plan.order == supplied.order, "{trace:?}");
        assert!(trace[0].starts_with("the supplied packing search's plan"), "{trace:?}");
        assert_eq!(search_with(SUPPLIED_PLAN, "nosupplied").plan().order, packing.plan.order);
        let f = search_with(SUPPLIED_PLAN, "suppliedafter0");
        assert_eq!(f.plan().order, supplied.order);
        solves_and_replays(&level, f);
    }

    /// By default the supplied packing search is put off (`suppliedafterN`: until the
    /// search has made N moves); then the search starts again on its plan, the moves made
    /// before still counted, and solves the level.
    #[test]
    fn the_supplied_packing_search_put_off_starts_the_search_again_on_its_plan() {
        let (level, boxes, player, packing, _) = analysed(SUPPLIED_PLAN);
        let supplied = supplied_packing_plan(&packing, &boxes, player).expect("a plan");
        assert_eq!(search_of(SUPPLIED_PLAN).plan().order, packing.plan.order);
        let mut f = search_with(SUPPLIED_PLAN, "suppliedafter1");
        assert_eq!(f.plan().order, packing.plan.order);
        let mut before = 0;
        while f.plan().order != supplied.order {
            before = f.progress().total_generated;
            assert!(matches!(f.run(16), FastEvent::Budget), "solved before the new start");
        }
        assert!(before > 0 && f.progress().total_generated > before);
        solves_and_replays(&level, f);
    }

    /// Every order of `0..n`.
    fn orders(n: u16) -> Vec<Vec<u16>> {
        if n == 0 {
            return vec![Vec::new()];
        }
        let mut all = Vec::new();
        for shorter in orders(n - 1) {
            for at in 0..=shorter.len() {
                let mut o = shorter.clone();
                o.insert(at, n - 1);
                all.push(o);
            }
        }
        all
    }

    /// Where neither the packing search's plan nor the greedy removals' can be followed
    /// from the start, the greedy removals' is followed where its first dead prefix comes
    /// later, with no supplied packing search put off; `nofurthest` keeps the way before
    /// (the supplied packing search's plan, which can be followed).
    #[test]
    fn the_plan_dead_later_is_followed_where_none_can_be_followed() {
        let (level, boxes, player, packing, _) = analysed(SUPPLIED_PLAN);
        let (p, board) = (&packing.p, &level.board);
        let first = packing.plan.first_dead_prefix(p, board, &boxes, player).expect("dead");
        let later = orders(p.goals.len() as u16)
            .into_iter()
            .map(|o| Plan::from_order(p, o, 0))
            .find(|g| g.first_dead_prefix(p, board, &boxes, player).is_some_and(|k| k > first))
            .expect("an order dead later than the packing search's");
        let greedy = Some(Arc::new(later.clone()));
        let mut trace = Vec::new();
        let (followed, followable) =
            followed_plan(Arc::clone(&packing), greedy.clone(), &boxes, player, &mut trace);
        assert!(!followable && followed.plan.order == later.order, "{trace:?}");
        assert!(trace[0].starts_with("the greedy removals' plan: dead from"), "{trace:?}");
        let exp = Arc::new(Experiments::parse("nofurthest").unwrap());
        let layout = Arc::new(Layout::new(board, p));
        let (off, _) = analyse_both(Arc::clone(p), layout, &boxes, &exp, Packing::Once);
        assert_eq!(off.plan.order, packing.plan.order);
        let mut trace = Vec::new();
        let (followed, followable) = followed_plan(off, greedy, &boxes, player, &mut trace);
        assert!(followable && followed.plan.order != later.order, "{trace:?}");
        assert!(trace[0].starts_with("the supplied packing search's plan"), "{trace:?}");
    }

    /// The plan's picture says when its order cannot be followed from the start, and after
    /// how many goals.
    #[test]
    fn plan_picture_tells_an_order_that_cannot_be_followed() {
        let picture = |xsb: &str| {
            plan_picture(&sokoban_core::format::parse_level(xsb).unwrap(), &Arc::default(), 1 << 30)
        };
        let kept = picture(NOT_FOLLOWABLE);
        assert!(
            kept.ends_with(
                "the order cannot be followed from the start: once its first goal is filled, \
                 the other boxes where they start can no longer fill the rest\n"
            ),
            "{kept}"
        );
        let room = picture(ROOM);
        assert!(room.ends_with("0 parking steps\n") && !room.contains("cannot"), "{room}");
    }

    /// The strategies that learn apart (here the sprint) leave the others' searches as they
    /// would be without them, turn for turn; and a search takes the same turns every time.
    #[test]
    fn the_sprint_leaves_the_other_searches_as_they_are() {
        let (mut with, mut again, mut without) = (search(), search(), search());
        without.runs.retain(|r| !r.strategy.apart);
        assert_eq!(with.runs.len(), without.runs.len() + 1, "a sprint to leave out");
        let (mut compared, mut sprint_turns) = (0, 0);
        loop {
            // A move a turn.
            let (ev, ev_again) = (with.run(1), again.run(1));
            assert_eq!(
                (ev.clone(), with.turn, with.stats()),
                (ev_again, again.turn, again.stats())
            );
            if with.runs[with.turn].strategy.apart {
                sprint_turns += 1;
                if ev != FastEvent::Budget {
                    break; // the sprint solved it
                }
                continue;
            }
            let ev_without = without.run(1);
            assert_eq!(with.turn, without.turn, "the same strategy's turn");
            let k = with.turn;
            assert_eq!(with.runs[k].fess.stats(), without.runs[k].fess.stats(), "turn {compared}");
            assert_eq!(ev, ev_without);
            compared += 1;
            if ev != FastEvent::Budget {
                break;
            }
        }
        assert!(
            compared > 5 && sprint_turns > 0,
            "{compared} turns compared, {sprint_turns} sprints"
        );
    }
}
