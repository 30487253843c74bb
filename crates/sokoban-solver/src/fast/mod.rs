//! The fast search: any solution, as quickly as possible, for levels far beyond the reach
//! of the push-optimal IDA* — a feature space search over macro moves after FESS
//! (Shoham & Schaeffer 2020), guided by a packing plan computed backwards from the solved
//! position.
//!
//! Parts: [`board`] (positions and macro moves, on `sokoban_path::BoxReach`), [`plan`] (the
//! packing order and out-of-plan zones), [`features`] (how a position is scored), [`dead`]
//! (the deadlock tests: the optimal search's own — freeze, boxes frozen on goals, corrals —
//! and the matching: one analysis serves both), [`fess`] (the search). [`FastSearch`] runs a schedule of strategies in
//! one thread and stops at the first solution; the [`crate::Solver`] wraps it with limits,
//! progress and the rules engine's verification.

pub mod analysis;
pub mod back;
pub mod board;
pub mod dead;
pub mod experiments;
pub mod features;
pub mod fess;
pub mod greedy;
pub mod plan;
pub mod score;
pub mod stops;

use std::rc::Rc;
use std::sync::Arc;

use analysis::{Analysis, Learned};
use back::{BackEvent, Backward};
use board::Layout;
pub use experiments::{lane_experiments, Experiments, Only, StopRule};
use fess::{Config, Fess, FessEvent, FessStats};
use greedy::Greedy;
use plan::Plan;
use sokoban_core::Board;

use crate::problem::Problem;

/// One strategy of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strategy {
    pub name: &'static str,
    pub config: Config,
    /// Moves per turn, relative to the cheapest strategy's (so that each gets about the
    /// same time).
    pub share: u64,
    /// Moves after which the strategy stops (0: never), so that a probe for the levels it
    /// solves at once costs the others little.
    pub limit: u64,
    /// The greedy search by the matching bound ([`greedy`]) instead of the feature search
    /// (`config` is then not read).
    pub greedy: bool,
    /// Moves after which it stops when no position it found packs more goals in plan
    /// order than its start (0: never).
    pub idle: u64,
    /// It learns apart from the others (its own stuck patterns and verdicts), so that
    /// running it changes nothing in their searches.
    pub apart: bool,
}

/// Moves after which the rules strategy stops when no position it found packs more goals
/// in plan order than its start, where the plan can be followed from the start
/// ([`Plan::followable`]; elsewhere the packed count says nothing). Where it never gets
/// going its turns are lost to the strategy that solves the level (Microban 153: 109k moves
/// without a goal packed, 0.22 s of 0.95 s, before the scored strategy solves it).
/// Where the plan cannot be followed it may pack nothing for long and still
/// solve the level (XSokoban 16: no goal packed in its first 40k moves, solved after 152k;
/// with the stop, 3.4 -> 9.4 s).
const RULES_IDLE: u64 = 40_000;

/// Most work (boxes x squares x squares) for which the scored strategy runs.
const SCORED_MAX_WORK: usize = 100_000_000;

/// Moves a probe strategy makes before it stops. The level the probe without the area
/// joiner solved first (XSokoban 42) took it 11,712; 25,000 cost the
/// levels that last most of a second up to 0.03 s.
const PROBE_MOVES: u64 = 12_000;

/// The schedule: strategies run side by side, one turn each in rotation, each with an
/// equal part of the memory, until one solves the level. Their strengths differ (the
/// rules strategy is five times faster per position; the scored one, Festival's way,
/// judges its moves better), and the levels each solves alone overlap only in part. The
/// scored one makes twice the rules strategy's moves per turn, and tests the pocket beside
/// each move for stuck boxes before it stores the position (`pocket_moves`): measured on
/// XSokoban at 60 s, 84 levels instead of 83 (89 solved in 51 s; 39 9.6
/// -> 2.4 s, 28 14.9 -> 7.9 s; 44 1.6 -> 8.1 s, 14 1.4 -> 4.5 s; 77.8 s instead of 73.8 s
/// on the 83 both solve). The pocket test in every strategy loses 52, which the rules
/// strategy solves; with as many moves each, 89 is not solved in 60 s. (Earlier, as many
/// moves each had given 80 levels where a fifth of them gave 76.) The third, the rules
/// strategy without the area joiner, is a probe with a small share that stops after
/// `PROBE_MOVES` moves: alone it solves fewer levels, but some at once that the others
/// never do (XSokoban 42).
pub const STRATEGIES: [Strategy; 3] = [
    Strategy {
        name: "FESS rules",
        config: Config {
            alternate_best: true,
            advisors: true,
            scored: false,
            corral_moves: false,
            area_joiner: true,
            pocket_moves: false,
        },
        share: 5,
        limit: 0,
        greedy: false,
        idle: RULES_IDLE,
        apart: false,
    },
    Strategy {
        name: "FESS scored",
        config: Config {
            alternate_best: true,
            advisors: true,
            scored: true,
            corral_moves: true,
            area_joiner: true,
            pocket_moves: true,
        },
        share: 10,
        limit: 0,
        greedy: false,
        idle: 0,
        apart: false,
    },
    Strategy {
        name: "FESS rules, no area joiner",
        config: Config {
            alternate_best: true,
            advisors: true,
            scored: false,
            corral_moves: false,
            area_joiner: false,
            pocket_moves: false,
        },
        share: 1,
        limit: PROBE_MOVES,
        greedy: false,
        idle: 0,
        apart: false,
    },
];

/// The same strategies on the plan without its parking steps, run as well when the plan
/// parks boxes: parking first is right on some levels (XSokoban 44, 87: solved only with
/// it) and wrong on others (Microban 99, 111: many times more moves with it).
pub const STRATEGIES_PLAIN: [Strategy; 3] = [
    Strategy { name: "FESS rules, plan without parking", ..STRATEGIES[0] },
    Strategy { name: "FESS scored, plan without parking", ..STRATEGIES[1] },
    Strategy { name: "FESS rules, no area joiner, plan without parking", ..STRATEGIES[2] },
];

/// Moves the greedy probe makes before it stops. The levels it solved first (10 of
/// Microban, 1 of XSokoban, 4 of Sasquatch) took it at most 11k moves but
/// one (Sasquatch 46, 44k); 200k cost every level that lasts a few tenths of a second as
/// much (Microban 153 1.20 -> 1.06 s, the same solutions), 50k about 0.02 s.
const GREEDY_MOVES: u64 = 20_000;

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
/// Moves the HF search makes before it stops: where it works it meets the backward search
/// at once (XSokoban 66 after 3,292 moves, 69 after 2,612). When it stops without meeting,
/// the backward search stops growing too.
const HF_MOVES: u64 = 10_000;
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
/// HF searches the stage makes, each after a backward search of its own (the second's
/// pulls ordered otherwise: [`Backward::away`]). XSokoban 50 is solved by the second
/// (never before), 66 and 69 by the first.
const HF_ATTEMPTS: u32 = 2;
/// The HF search: the scored strategy toward the backward search's best position,
/// learning apart (its goals are its own).
pub const HF: Strategy = Strategy {
    name: "HF toward the backward search",
    apart: true,
    limit: HF_MOVES,
    ..STRATEGIES[1]
};

/// The greedy search by the matching bound ([`greedy`]), a probe beside the feature search.
pub const GREEDY: Strategy = Strategy {
    name: "Greedy by the matching bound",
    share: 20,
    limit: GREEDY_MOVES,
    greedy: true,
    idle: 0,
    ..STRATEGIES[0]
};

/// Moves the sprint makes before it stops, and after which it stops when no position it
/// found packs more goals in plan order than the start. It is for levels the rules
/// strategy solves, making its way goal by goal (Microban 144: 9 goals packed after 5,184
/// moves, solved after 62,743); a sprint that packs nothing at first is not getting there
/// (Microban 153, solved by the scored strategy: its sprint made 80,000 moves without a
/// goal packed, 0.19 s of its 1.03 s).
const SPRINT_MOVES: u64 = 80_000;
const SPRINT_IDLE: u64 = 16_000;

/// The sprint: the rules strategy once more, with four times its moves per turn until it
/// has made `SPRINT_MOVES`, learning apart from the others (its own stuck patterns and
/// verdicts). In the schedule the rules strategy has a small part of the time, and where
/// its moves are cheap and it alone finds the way that is slow (Microban 144: it solves
/// the level after 63k moves, when the scored strategy has made 127k moves that cost four
/// times as much: 1.4 s). Giving it a larger part instead upsets the other strategies: what
/// it learns reaches them sooner, and a search on the edge goes another way (XSokoban 88,
/// solved in 13 s by the scored strategy on the plan without parking, was not solved in
/// 60 s by any of seven schedules tried that shared the time otherwise). Apart, the
/// sprint changes nothing in the others' searches but their time (and, a probe, it takes
/// a sixteenth of the memory from them).
pub const SPRINT: Strategy = Strategy {
    name: "FESS rules, sprint apart",
    share: 20,
    limit: SPRINT_MOVES,
    idle: SPRINT_IDLE,
    apart: true,
    ..STRATEGIES[0]
};

/// Parking steps of the plan from which [`OTHER_PLAN`] runs too.
const OTHER_PLAN_PARKING: usize = 5;

/// The scored strategy on the greedy removals' plan (see [`analyse`]), apart from the
/// others, where the packing search's plan parks `OTHER_PLAN_PARKING` boxes or more: a
/// plan that parks many boxes is the boldest guess, and its variant without the parking
/// steps keeps its order. With twice the scored strategy's moves per turn: XSokoban 90
/// (8 parking steps) solved in 35 s, never within 60 s since the packing search's plan
/// came in (with the greedy removals' plan alone: 16 s); 18 (5) still 0.3 s; 50, 66 and 69
/// (8, 9, 20) still unsolved; no other XSokoban level's plan parks as many. Apart, it
/// changes nothing in the others' searches but their time and their part of the memory.
pub const OTHER_PLAN: Strategy = Strategy {
    name: "FESS scored, greedy removals' plan, apart",
    share: 20,
    apart: true,
    ..STRATEGIES[1]
};

/// Most goal clusters for which each gets a plan of its own that fills it first.
const CLUSTER_PLANS: usize = 3;

/// Names of the probes on the plans that fill one cluster first.
const CLUSTER_FIRST: [&str; CLUSTER_PLANS] = [
    "FESS rules, goal cluster 1 first",
    "FESS rules, goal cluster 2 first",
    "FESS rules, goal cluster 3 first",
];

/// The fast search's analysis of a level whose boxes start on `boxes`, with its plan: with
/// `packing`, the packing search's where the level is small enough for a backward analysis
/// ([`Plan::analysed`]) and it relaxes no more steps than the greedy removals', else the
/// greedy removals' (or, on large levels, the goals by distance). Measured on XSokoban at
/// 60 s a level against the greedy removals' plan: 77 solved (never before), 90 lost (45 s
/// before), 14, 18 and 35 four to seven times faster, 135 s in all instead of 243;
/// Microban 6.5 s -> 4.1 s.
pub fn analyse(
    p: Arc<Problem>,
    layout: Arc<Layout>,
    boxes: &[u16],
    exp: &Arc<Experiments>,
    packing: bool,
) -> Arc<Analysis> {
    let mut plan = Plan::with_supply(&p, &layout, boxes, !exp.no_supply);
    plan.until = !exp.no_until;
    let fits = plan.analysed;
    let analysis = Arc::new(Analysis::new(p, layout, Arc::new(plan), Arc::clone(exp)));
    if packing && fits {
        if let Some(plan) = packing_search_plan(&analysis, boxes) {
            // The plan with fewer relaxed steps is the better founded: the greedy
            // removals' where the packing search relaxes more (Sasquatch 18: 1 against 0).
            if plan.relaxed <= analysis.plan.relaxed {
                return Arc::new(analysis.with_plan(plan));
            }
        }
    }
    analysis
}

/// Moves and bytes the packing search may use.
const PACKING_MOVES: u64 = 200_000;
const PACKING_MEMORY: usize = 64 << 20;

/// The plan of the packing search (Festival's; see [`Backward::packing`]) from the pulls
/// to its best position; `None` when it stored no position.
pub fn packing_search_plan(a: &Arc<Analysis>, boxes: &[u16]) -> Option<Plan> {
    let mut back = Backward::packing(Arc::clone(a), boxes, PACKING_MEMORY);
    let mut left = PACKING_MOVES;
    while left > 0 {
        let step = left.min(10_000);
        left -= step;
        match back.run(step) {
            BackEvent::Budget => {}
            _ => break,
        }
    }
    let best = back.best()?;
    Some(Plan::from_pulls(&a.p, boxes, &back.pulls_to(best)))
}

/// The packing order an experiment gives by hand ([`Experiments::order`]: (row, column) of
/// every goal of `board` once), as goal numbers of `p`; `None` (and a line in `trace`) when
/// it does not name every goal once.
fn order_by_hand(
    board: &Board,
    p: &Problem,
    order: &[(usize, usize)],
    trace: &mut Vec<String>,
) -> Option<Vec<u16>> {
    let goal = |&(r, c): &(usize, usize)| {
        let sq = (r < board.height() && c < board.width()).then(|| board.square(r, c))?;
        let x = *p.compact.get(sq)?;
        p.goals.binary_search(&x).ok().map(|j| j as u16)
    };
    let goals: Vec<u16> = order.iter().filter_map(goal).collect();
    let mut distinct = goals.clone();
    distinct.sort_unstable();
    distinct.dedup();
    if goals.len() == p.goals.len() && distinct.len() == goals.len() {
        return Some(goals);
    }
    trace.push(format!(
        "the order names {} distinct of {} goals: ignored",
        distinct.len(),
        p.goals.len()
    ));
    None
}

/// The names of every strategy a schedule may run (the progress reports one of them).
pub fn strategy_names() -> Vec<&'static str> {
    let main = STRATEGIES.iter().chain(&STRATEGIES_PLAIN).map(|s| s.name);
    main.chain(CLUSTER_FIRST).chain([GREEDY.name, SPRINT.name, OTHER_PLAN.name, HF.name]).collect()
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
    /// The HF search: its goals are not the level's (its solutions are none, and running
    /// out of moves proves nothing).
    hf: bool,
}

impl Running {
    /// True when running out of moves proves the level unsolvable: a search on the level's
    /// own goals with every move.
    fn proves_unsolvable(&self) -> bool {
        !self.hf && !self.fess.cuts_moves()
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
    /// strategy meets, until the HF search has made its moves; then the second attempt
    /// (`HF_ATTEMPTS`), with a backward search of its own.
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
    /// HF searches started.
    hf_searches: u32,
    /// While the strategies have made fewer than `HF_AFTER` moves, the backward search's
    /// share of the calls in its pulling phase: one in this many (`None`: one in three).
    pull_every: Option<u64>,
    /// What the schedule did, where the experiments ask for a trace.
    trace: Vec<String>,
    /// The strategy that found the solution.
    solved_by: Option<&'static str>,
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
        let layout = Arc::new(Layout::new(board, &p));
        let mut strategies: Vec<Strategy> = STRATEGIES.to_vec();
        match exp.only {
            Some(Only::Rules) => strategies.retain(|s| s.name == STRATEGIES[0].name),
            Some(Only::Scored) => strategies.retain(|s| s.config.scored),
            None => {}
        }
        for s in &mut strategies {
            s.config.alternate_best &= !exp.no_alternate_best;
            s.config.advisors &= !exp.no_advisors;
            s.config.corral_moves &= !exp.no_corral_moves;
            if let Some(k) = exp.scored_share.filter(|_| s.config.scored) {
                s.share = k;
            }
        }
        let mut trace = Vec::new();
        // The scored strategy scores every move of a position, each with a count of the
        // player's areas: boxes x squares x squares work a position. On boards where that is
        // too much (60 x 60 with 100 boxes: 12 s for the first position) it is left out.
        if boxes.len() * p.n * p.n > SCORED_MAX_WORK {
            strategies.retain(|s| !s.config.scored);
            if strategies.is_empty() {
                strategies.push(STRATEGIES[0]);
            }
        }
        let use_back = exp.back_perimeter;
        // The HF stage where the scored strategy runs (levels small enough for it).
        let hf = !use_back && !exp.no_hf && boxes.len() * p.n * p.n <= SCORED_MAX_WORK;
        let back_share = if use_back { memory_limit / 3 } else { 0 };
        let p = Arc::new(p);
        let exp = Arc::new(exp.clone());
        let mut analysis = analyse(Arc::clone(&p), layout, boxes, &exp, !exp.no_packing_search);
        if exp.plan_per_cluster {
            let mut plan = (*analysis.plan).clone();
            plan.per_cluster = true;
            analysis = Arc::new(analysis.with_plan(plan));
        }
        if exp.plan_no_parking {
            analysis = Arc::new(analysis.with_plan(analysis.plan.without_parking(&p)));
        }
        if let Some(order) =
            exp.order.as_ref().and_then(|o| order_by_hand(board, &p, o, &mut trace))
        {
            analysis = Arc::new(analysis.with_plan(Plan::from_order(&p, order, 0)));
        }
        let plan = &analysis.plan;
        let followable = plan.followable(&p, &analysis.layout.board, boxes, player);
        // An idle stop only where the packed count can rise.
        if !followable {
            strategies.iter_mut().for_each(|s| s.idle = 0);
        }
        // A plan that parks boxes is one guess among others: the same strategies also run
        // on the plan without its parking steps (each pair gets half the time).
        let plain = (plan.parking_steps() > 0 && !exp.one_plan).then(|| plan.without_parking(&p));
        // Each strategy with the analysis (and plan) it searches.
        let mut planned: Vec<(Strategy, Arc<Analysis>)> =
            strategies.iter().map(|&s| (s, Arc::clone(&analysis))).collect();
        if let Some(plain) = plain {
            let plain = Arc::new(analysis.with_plan(plain));
            for &s in &strategies {
                let k = STRATEGIES.iter().position(|t| t.name == s.name).unwrap_or(0);
                let s = Strategy { name: STRATEGIES_PLAIN[k].name, ..s };
                planned.push((s, Arc::clone(&plain)));
            }
        }
        // Alternative plans, one goal cluster first, each searched by a probe: where the
        // plan's order mixes the clusters the right one may be to fill one room before the
        // others (XSokoban 72: solved in 456 moves with its left room first, never with the
        // plan's order).
        let clusters = analysis.plan.cluster_count();
        if (2..=CLUSTER_PLANS).contains(&clusters) && !exp.no_cluster_plans {
            for c in 0..clusters {
                let supply = !exp.no_supply;
                if let Some(plan) =
                    Plan::cluster_first(&p, &analysis.layout, boxes, c as u16, supply)
                {
                    let s = Strategy {
                        name: CLUSTER_FIRST[c],
                        share: 1,
                        limit: PROBE_MOVES,
                        idle: 0,
                        ..STRATEGIES[0]
                    };
                    planned.push((s, Arc::new(analysis.with_plan(plan))));
                }
            }
        }
        // The greedy search by the matching bound, a probe: its moves cost a twentieth of
        // the feature search's; it makes four times as many per turn as the rules strategy.
        if !exp.no_greedy {
            planned.push((GREEDY, Arc::clone(&analysis)));
        }
        // The sprint where the scored strategy runs (without it, the rules strategy has
        // most of the time already).
        let scored = strategies.iter().any(|s| s.config.scored);
        if scored && !exp.no_sprint {
            planned.push((SPRINT, Arc::clone(&analysis)));
        }
        // The scored strategy on a second plan where the first parks many boxes.
        if scored && analysis.plan.parking_steps() >= OTHER_PLAN_PARKING && !exp.no_other_plan {
            let other = Plan::with_supply(&p, &analysis.layout, boxes, !exp.no_supply);
            if other.order != analysis.plan.order {
                planned.push((OTHER_PLAN, Arc::new(analysis.with_plan(other))));
            }
        }
        // Memory: a probe gets a sixteenth (its moves are few), the others share the rest.
        let total = memory_limit - back_share;
        let probes = planned.iter().filter(|(s, _)| s.limit > 0).count();
        let mains = planned.len() - probes;
        let probe_share = if mains > 0 { total / 16 } else { total / probes.max(1) };
        let share = (total - probes * probe_share) / mains.max(1);
        let back =
            use_back.then(|| Backward::new(Arc::clone(&analysis), player, boxes, back_share));
        // Patterns learned by one strategy prune the others' positions too (but the
        // sprint's).
        let learned = Learned::new(&p);
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
                Running { strategy, fess, full: false, start_packed, hf: false }
            })
            .collect();
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
            hf_after: exp.hf_after.unwrap_or(if followable { HF_AFTER } else { 0 }),
            pull_every: exp.pull_every.or((!followable).then_some(UNFOLLOWABLE_PULL_EVERY)),
            hf_pulls: HF_PULLS,
            hf_searches: 0,
            trace,
            solved_by: None,
        }
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

    /// The backward search of the HF stage's next attempt: the first orders its pulls toward
    /// the start squares, the second away from the goals ([`Backward::away`]); it makes
    /// `HF_PULLS` pulls (or fills its memory) before the HF search starts.
    fn begin_backward(&mut self) {
        let (a, player, boxes, share) =
            (Arc::clone(&self.analysis), self.player, &self.boxes, self.back_share);
        self.back = Some(if self.hf_searches == 0 {
            Backward::new(a, player, boxes, share)
        } else {
            Backward::away(a, player, boxes, share)
        });
        self.back_active = false;
        self.hf = HfStage::Pulling(self.hf_pulls);
        if self.tracing() {
            self.trace
                .push(format!("the HF stage's backward search {} begins", self.hf_searches + 1));
        }
    }

    /// The HF search has ended without meeting the backward search (it has made its moves,
    /// or its store is full): it is dropped, its memory free again, and the next attempt's
    /// backward search takes the place of this one's (whose positions are dropped too);
    /// after the last attempt the backward search stops growing, its positions kept for
    /// the strategies to meet.
    fn end_hf_search(&mut self) {
        if self.runs.last().is_some_and(|r| r.hf) {
            if self.tracing() {
                let st = self.runs.last().map(|r| r.fess.stats());
                self.trace.push(format!("the HF search ends: {st:?}"));
            }
            self.runs.pop();
            self.turn %= self.runs.len();
        }
        if self.hf_searches < HF_ATTEMPTS {
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

    /// The HF search: a scored search toward the backward search's position with the
    /// fewest floor areas, then boxes on goals — those squares as its goals, the level's
    /// walls and floor — that ends by meeting the backward search's positions (its own
    /// solutions reach those squares, not the level's goals, and are no solutions).
    fn start_hf(&mut self) {
        self.hf = HfStage::Running;
        self.back_active = true;
        self.hf_searches += 1;
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
        let a2 = analyse(Arc::new(p2), Arc::new(l2), &self.boxes, &self.analysis.exp, true);
        let learned = Learned::new(&a2.p);
        let fess = Engine::Fess(Box::new(Fess::new(
            a2,
            HF.config,
            self.player,
            &self.boxes,
            self.hf_share,
            learned,
        )));
        let start_packed = fess.stats().best_packed;
        if self.tracing() {
            let picture = hf_target_picture(board, &b2);
            self.trace.push(format!("the HF search starts: {:?}\n{picture}", back.stats));
        }
        self.runs.push(Running { strategy: HF, fess, full: false, start_packed, hf: true });
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
                            (false, _) if p.compact[s] == crate::problem::NONE => '#',
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
        }
        t
    }

    /// Search for up to about `budget` moves of the cheapest strategy (a turn of one
    /// strategy; while the backward search runs, one call in three is its turn).
    pub fn run(&mut self, budget: u64) -> FastEvent {
        self.calls += 1;
        if self.hf == HfStage::Running && self.runs.last().is_some_and(|r| r.hf && r.full) {
            self.end_hf_search();
        }
        if self.hf == HfStage::Waiting && self.calls % 8 == 0 && self.moves() >= self.hf_after {
            self.begin_hf_stage();
        }
        if let HfStage::Pulling(left) = self.hf {
            let every = match self.pull_every {
                Some(k) if self.moves() < HF_AFTER => k,
                _ => 3,
            };
            if self.calls % every == 0 {
                let back = self.back.as_mut().expect("the HF stage's backward search");
                let pulls = (budget * 4).min(left);
                match back.run(pulls) {
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
            let back = self.back.as_mut().expect("active");
            match back.run(budget) {
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
        if run.strategy.limit > 0 && stats.generated >= run.strategy.limit {
            run.full = true; // a probe that has had its moves: no more turns
        }
        if run.strategy.idle > 0
            && stats.generated >= run.strategy.idle
            && stats.best_packed == run.start_packed
        {
            run.full = true; // going nowhere
        }
        match event {
            FessEvent::Budget => {
                if self.runs.iter().all(|r| r.full) {
                    FastEvent::OutOfMemory
                } else {
                    FastEvent::Budget
                }
            }
            // The HF search's goals are not the level's: it ends only by meeting.
            FessEvent::Solved(_) if run.hf => {
                run.full = true;
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
            // one cutting moves by the stop rule (a development switch) proves nothing.
            FessEvent::Exhausted if run.proves_unsolvable() => FastEvent::Unsolvable,
            FessEvent::Exhausted | FessEvent::MemoryFull => {
                run.full = true;
                if self.runs.iter().all(|r| r.full) {
                    FastEvent::OutOfMemory
                } else {
                    FastEvent::Budget
                }
            }
        }
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

    /// Turns taken so far: one a call of [`FastSearch::run`], each about as long as any
    /// other (a strategy's moves per turn go by its share), so the count measures the work
    /// done the same way on every run and machine.
    pub fn turns(&self) -> u64 {
        self.calls
    }

    /// The trace's lines so far ([`Experiments::trace`]), taken out of the search.
    pub fn take_trace(&mut self) -> Vec<String> {
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
            total_generated: st.generated,
            cells: st.cells,
            best_packed: st.best_packed as u32,
            goals: self.analysis.p.goals.len() as u32,
            memory_bytes: self.runs.iter().map(|r| r.fess.memory()).sum::<usize>()
                + self.back.as_ref().map_or(0, |b| b.memory()),
            memory_limit: self.memory_limit,
            plan_relaxed: self.analysis.plan.relaxed as u32,
            back_positions: self.back.as_ref().map_or(0, |b| b.stats.nodes),
            back_fewest_on_goals: self.back.as_ref().map_or(0, |b| b.stats.fewest_on_goals as u32),
        }
    }
}

/// The packing plan of a level drawn on its board (XSB rows): each goal shows its place in
/// the packing order (`1`-`9`, then `a`-`z`, then `A`-`Z`, then `+`), so a person can see
/// which goals the fast search fills first; below it, the counts, the steps in order when
/// the plan parks boxes, and where the order cannot be followed from the start (its first
/// goals, filled first, leave the other boxes unable to fill the rest:
/// [`Plan::first_dead_prefix`]).
pub fn plan_picture(level: &sokoban_core::Level) -> String {
    let board = &level.board;
    let p = Problem::new(board);
    let layout = Arc::new(Layout::new(board, &p));
    let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
    let player = p.compact[level.start.player];
    let analysis = analyse(Arc::new(p), layout, &boxes, &Arc::default(), true);
    let (p, plan) = (&analysis.p, &analysis.plan);
    let mut out = draw_plan(level, p, plan);
    if let Some(k) = plan.first_dead_prefix(p, board, &boxes, player) {
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
                crate::problem::NONE => format!("{:?}", at(st.square)),
                then => format!("park {:?} then {:?}", at(st.square), at(then)),
            })
            .collect();
        out.push_str(&format!("steps: {}\n", steps.join(", ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A room of eight boxes and its goals behind a narrow door.
    const ROOM: &str = "\
#########
#...#   #
#...  $ #
#.. # $ ##
## ## $  #
#  $ $ $ #
# $ @ $  #
#   #    #
#########";

    /// A generated level (`9x9-5-6`) whose plan keeps the box that starts on the goal at
    /// the left there first: with it as a wall the boxes above can never come down, so its
    /// plan cannot be followed ([`Plan::followable`]).
    const KEPT_IN_THE_WAY: &str = "\
#########
#   #####
# $ $ $ #
# *     #
#   #   #
#  #### #
#@$  ##.#
#    ...#
#########";

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

    /// The rules strategy (and its twin on the plan without parking) stops when idle only
    /// where its plan can be followed; the other strategies keep their own settings.
    #[test]
    fn the_rules_strategy_idles_out_only_on_a_plan_it_can_follow() {
        for (xsb, followable) in [(ROOM, true), (KEPT_IN_THE_WAY, false)] {
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

    /// The plan's picture says when its order cannot be followed from the start, and after
    /// how many goals.
    #[test]
    fn plan_picture_tells_an_order_that_cannot_be_followed() {
        let picture = |xsb: &str| plan_picture(&sokoban_core::format::parse_level(xsb).unwrap());
        let kept = picture(KEPT_IN_THE_WAY);
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
