//! The schedule as data: the strategies one fast search runs side by side, each with the
//! plan it searches — decided once from the level and the experiments, before any search
//! starts ([`Schedule::build`]), then run by [`super::FastSearch::from_schedule`].

use std::sync::Arc;

use sokoban_core::Board;

use super::back::{BackEvent, Backward};
use super::board::Layout;
use super::experiments::HandStep;
use super::fess::Config;
use super::plan::{Plan, PrefixSupply, Step};
use super::shared::Analysis;
use super::{Experiments, Only};
use crate::analysis::matching::Matcher;
use crate::analysis::problem::{Problem, NONE};

/// What one fast search runs: the strategies with the analysis (and plan) each searches.
pub struct Schedule {
    /// The level's analysis with its chosen plan (the HF stage and the backward search
    /// read it).
    pub analysis: Arc<Analysis>,
    /// Each strategy with the analysis it searches, in turn order.
    pub planned: Vec<(Strategy, Arc<Analysis>)>,
    /// The plan can be followed from the start ([`Plan::followable`]).
    pub followable: bool,
    /// No plan can be followed and the supplied packing search's was put off
    /// (`Supplied::Later`): the schedule's start, from which the search looks for it after
    /// `SUPPLIED_AFTER` moves (`Schedule::on_supplied_plan`).
    pub later: Option<Start>,
    /// The HF stage runs (levels small enough for the scored strategy).
    pub hf: bool,
    /// The backward search runs from the start as a perimeter (an experiment).
    pub use_back: bool,
    /// What the schedule decided, where the experiments ask for a trace.
    pub trace: Vec<String>,
}

impl Schedule {
    /// The schedule for `board` (boxes frozen on goals already made walls), its problem,
    /// and the start given as compact squares.
    pub fn build(
        board: &Board,
        p: Problem,
        player: u16,
        boxes: &[u16],
        exp: &Experiments,
        again: Packing,
        deadline: Deadline,
    ) -> Schedule {
        let supplied = if exp.supplied_after == Some(0) { Supplied::Now } else { Supplied::Later };
        let start = Start::new(board, p, boxes, exp, again, deadline);
        Schedule::from_start(start, player, boxes, supplied)
    }

    /// The schedule of a search whose supplied packing search was put off, from its start
    /// ([`Schedule::later`]), on that search's plan; `None` where it finds none that can be
    /// followed.
    pub(super) fn on_supplied_plan(start: Start, player: u16, boxes: &[u16]) -> Option<Schedule> {
        let a = &start.analysis;
        let check = PrefixSupply::new(&a.p, &a.layout.board, boxes, player)?;
        let plan = followable_supplied(a, boxes, check)?;
        Some(Schedule::from_start(start, player, boxes, Supplied::Given(Box::new(plan))))
    }

    /// The schedule from its start, with the supplied packing search's plan looked for, put
    /// off or given as `supplied` says.
    fn from_start(start: Start, player: u16, boxes: &[u16], supplied: Supplied) -> Schedule {
        let Start { mut strategies, hf, use_back, analysis, greedy, mut trace } = start;
        let (p, exp) = (Arc::clone(&analysis.p), Arc::clone(&analysis.exp));
        let (analysis, followable, put_off) =
            follow(analysis, greedy.clone(), boxes, player, supplied, &mut trace);
        // Put off, the analysis is the start's as it was.
        let later = put_off.then(|| Start {
            strategies: strategies.clone(),
            hf,
            use_back,
            analysis: Arc::clone(&analysis),
            greedy: greedy.clone(),
            trace: Vec::new(),
        });
        let plan = &analysis.plan;
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
            let other = greedy.map_or_else(
                || Plan::with_supply(&p, &analysis.layout, boxes, !exp.no_supply),
                |g| (*g).clone(),
            );
            if other.order != analysis.plan.order {
                planned.push((OTHER_PLAN, Arc::new(analysis.with_plan(other))));
            }
        }
        Schedule { analysis, planned, followable, later, hf, use_back, trace }
    }
}

/// A schedule's start, before its plan is chosen: the strategies and stages the level
/// gets, its analysis (with the packing search's plan, or the plan the experiments set)
/// and the greedy removals' plan kept apart.
pub struct Start {
    strategies: Vec<Strategy>,
    hf: bool,
    use_back: bool,
    analysis: Arc<Analysis>,
    greedy: Option<Arc<Plan>>,
    trace: Vec<String>,
}

impl Start {
    /// The start for `board` (boxes frozen on goals already made walls), its problem, and
    /// the start boxes given as compact squares; `again`: the packing searches to run
    /// (the switches may leave out the second or both), stopped at `deadline`.
    fn new(
        board: &Board,
        p: Problem,
        boxes: &[u16],
        exp: &Experiments,
        again: Packing,
        deadline: Deadline,
    ) -> Start {
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
        let p = Arc::new(p);
        let exp = Arc::new(exp.clone());
        let packing = again.under(&exp);
        let (mut analysis, greedy) =
            analyse_until(Arc::clone(&p), layout, boxes, &exp, packing, deadline);
        if exp.plan_per_cluster {
            let mut plan = (*analysis.plan).clone();
            plan.per_cluster = true;
            analysis = Arc::new(analysis.with_plan(plan));
        }
        if exp.plan_no_parking {
            analysis = Arc::new(analysis.with_plan(analysis.plan.without_parking(&p)));
        }
        if let Some(steps) = exp.order.as_ref().and_then(|o| plan_by_hand(board, &p, o, &mut trace))
        {
            analysis = Arc::new(analysis.with_plan(Plan::from_steps(&p, steps, 0)));
        }
        Start { strategies, hf, use_back, analysis, greedy, trace }
    }
}

/// When the supplied packing search's plan is looked for, where no other plan can be
/// followed.
enum Supplied {
    /// Before the search starts.
    Now,
    /// Once the search has made some moves without a solution ([`Schedule::later`]).
    Later,
    /// Found already, and followable.
    Given(Box<Plan>),
}

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
    /// The greedy search by the matching bound ([`super::greedy`]) instead of the feature search
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
pub(super) const RULES_IDLE: u64 = 40_000;

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
        config: Config::RULES,
        share: 5,
        limit: 0,
        greedy: false,
        idle: RULES_IDLE,
        apart: false,
    },
    Strategy {
        name: "FESS scored",
        config: Config { scored: true, corral_moves: true, pocket_moves: true, ..Config::RULES },
        share: 10,
        limit: 0,
        greedy: false,
        idle: 0,
        apart: false,
    },
    Strategy {
        name: "FESS rules, no area joiner",
        config: Config { area_joiner: false, ..Config::RULES },
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

/// The greedy search by the matching bound ([`super::greedy`]), a probe beside the feature search.
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
pub(super) const SPRINT_IDLE: u64 = 16_000;

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
    analyse_both(p, layout, boxes, exp, if packing { Packing::Once } else { Packing::Off }).0
}

/// Which packing searches [`analyse_both`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Packing {
    /// None: the greedy removals' plan.
    Off,
    /// The packing search.
    Once,
    /// The packing search, and where it leaves boxes on the board (on every level with
    /// `every_level`), the packing search by Festival's rules with these bytes and pulls
    /// ([`packing_search_plan`]).
    Again { bytes: usize, pulls: u64, every_level: bool },
}

impl Packing {
    /// Both packing searches for a search with `memory_limit` bytes and `time_limit_ms`:
    /// the second may use the whole budget, which holds nothing yet when the plan is made
    /// (with half, two threads at 1 GiB lost Sasquatch I 34), and
    /// [`PACKING_AGAIN_MOVES`] pulls, or [`PACKING_AGAIN_PER_MS`] a millisecond of the
    /// time limit where that is fewer: the plan is made before the clock can stop the
    /// search, and a count of pulls keeps the moves the same on any machine.
    pub fn again(memory_limit: usize, time_limit_ms: Option<f64>) -> Packing {
        let by_time = time_limit_ms
            .map_or(u64::MAX, |ms| (ms.max(0.0) as u64).saturating_mul(PACKING_AGAIN_PER_MS));
        let pulls = PACKING_AGAIN_MOVES.min(by_time);
        Packing::Again { bytes: memory_limit, pulls, every_level: false }
    }

    /// These packing searches as the switches say (`nopacksearch`: neither, `nopackagain`:
    /// not the second, `packfestival`: the second on every level).
    pub fn under(self, exp: &Experiments) -> Packing {
        match self {
            _ if exp.no_packing_search => Packing::Off,
            Packing::Again { .. } if exp.no_pack_again => Packing::Once,
            Packing::Again { bytes, pulls, .. } => {
                Packing::Again { bytes, pulls, every_level: exp.pack_festival }
            }
            other => other,
        }
    }
}

/// When the searches of a search's setup (the packing searches, [`analyse_until`]) stop
/// early: a test of the caller's clock ([`crate::Solver::new_timed`]). Their budgets are
/// counts of pulls, so that the moves are the same on any machine; on a board where a pull
/// costs milliseconds (60 x 40 squares, 40 boxes: 417 s of setup before a 20 s limit) the
/// clock must stop them too.
#[derive(Clone, Copy)]
pub struct Deadline<'a>(Option<&'a dyn Fn() -> bool>);

impl<'a> Deadline<'a> {
    /// Never.
    pub const NONE: Deadline<'static> = Deadline(None);

    /// When `passed` says so.
    pub fn new(passed: &'a dyn Fn() -> bool) -> Deadline<'a> {
        Deadline(Some(passed))
    }

    fn passed(&self) -> bool {
        self.0.is_some_and(|f| f())
    }
}

/// [`analyse`], and the greedy removals' plan where the packing search's took its place
/// (`None`: the analysis holds it), so that [`followed_plan`] need not compute it again.
pub fn analyse_both(
    p: Arc<Problem>,
    layout: Arc<Layout>,
    boxes: &[u16],
    exp: &Arc<Experiments>,
    packing: Packing,
) -> (Arc<Analysis>, Option<Arc<Plan>>) {
    analyse_until(p, layout, boxes, exp, packing, Deadline::NONE)
}

/// True when the boxes cannot each have a goal of their own that they could reach on the
/// empty board from any side (a box on a dead square among them): the start is dead.
fn dead_by_reach(p: &Problem, boxes: &[u16]) -> bool {
    if boxes.iter().any(|&b| p.dead[b as usize]) {
        return true;
    }
    let ng = p.goals.len();
    let mut costs = vec![0; boxes.len() * ng];
    for (row, &b) in costs.chunks_exact_mut(ng.max(1)).zip(boxes) {
        p.cost_row(b, u8::MAX, row);
    }
    !Matcher::default().perfect(&costs, boxes.len(), ng)
}

/// [`analyse_both`] with the packing searches stopped at `deadline`. None runs where the
/// start is dead by the simplest tests (`dead_by_reach`): the search ends at once there,
/// unsolvable, where a packing search would pull in vain (a 60 x 40 board: 417 s).
pub fn analyse_until(
    p: Arc<Problem>,
    layout: Arc<Layout>,
    boxes: &[u16],
    exp: &Arc<Experiments>,
    packing: Packing,
    deadline: Deadline,
) -> (Arc<Analysis>, Option<Arc<Plan>>) {
    let dead_start = dead_by_reach(&p, boxes);
    let mut plan = Plan::with_supply(&p, &layout, boxes, !exp.no_supply);
    plan.until = !exp.no_until;
    let fits = plan.analysed;
    let analysis = Arc::new(Analysis::new(p, layout, Arc::new(plan), Arc::clone(exp)));
    if packing != Packing::Off && fits && !dead_start {
        if let Some(plan) = packing_plan_with(&analysis, boxes, packing, PACKING_MOVES, deadline) {
            // The plan with fewer relaxed steps is the better founded: the greedy
            // removals' where the packing search relaxes more (Sasquatch 18: 1 against 0).
            // Not the second search's: its relaxed steps are boxes it left on the board,
            // not removals made without a way out (on Sasquatch I 18, its plan, one box
            // left, is solved; the greedy removals', none relaxed, not).
            if plan.relaxed <= analysis.plan.relaxed || plan.festival {
                let greedy = Arc::clone(&analysis.plan);
                return (Arc::new(analysis.with_plan(plan)), Some(greedy));
            }
        }
    }
    (analysis, None)
}

/// The analysis with the plan a search from `player` and `boxes` follows, and whether it
/// can be followed from the start ([`Plan::followable`]): its own; where that cannot be
/// followed, the greedy removals', else the supplied packing search's
/// ([`supplied_packing_plan`]), whichever can. The packing search pulls the boxes out with
/// the start boxes off the board, so its order may fill goals that leave the boxes where
/// they start no way to the rest, which the dead-prefix test sees; the greedy removals
/// check each removal against the boxes there are, the supplied packing search each set of
/// goals it leaves filled. Measured (one thread, 30 s a level, the 38 development levels
/// where the greedy removals' plan is taken): Sasquatch III 2, IV 34, 35, VI 16 and
/// XSokoban 90 solved, III 48 and VI 39 lost. The supplied packing search's, where neither
/// can (55 levels), at 1,000,000 moves a level: Sasquatch I 25, 33 and VI 35 solved, I 46
/// lost; tried before the greedy removals', it loses XSokoban 90, III 2 and 38
/// (bench/decisions.md). The search itself puts the supplied packing search off until it
/// has made `SUPPLIED_AFTER` moves (`Supplied::Later`). Where the greedy removals' plan
/// cannot be followed either but its first dead prefix comes later than the packing
/// search's, it is followed, as far as it goes, with no supplied plan to start again on
/// (Sasquatch III 13: 15 of 17 goals against 8, solved at 310,000 moves, never within
/// 1,000,000 before). On the 37 development levels where it changes the plan, one thread,
/// 1,000,000 moves: III 13 won, III 39 lost, fewer moves on 14 of the 22 both solve; two
/// threads, 30 s: III 13 won (2.9 s; only Festival's before), none lost (`nofurthest`
/// leaves it out; bench/decisions.md).
/// `greedy` is the greedy removals' plan from [`analyse_both`]; a plan the experiments set
/// is kept.
pub fn followed_plan(
    analysis: Arc<Analysis>,
    greedy: Option<Arc<Plan>>,
    boxes: &[u16],
    player: u16,
    trace: &mut Vec<String>,
) -> (Arc<Analysis>, bool) {
    let (analysis, followable, _) = follow(analysis, greedy, boxes, player, Supplied::Now, trace);
    (analysis, followable)
}

/// [`followed_plan`], the supplied packing search's plan looked for as `supplied` says;
/// also whether it was put off.
fn follow(
    analysis: Arc<Analysis>,
    greedy: Option<Arc<Plan>>,
    boxes: &[u16],
    player: u16,
    supplied: Supplied,
    trace: &mut Vec<String>,
) -> (Arc<Analysis>, bool, bool) {
    let supplied_plan = "the supplied packing search's plan: no other can be followed";
    // Given: found once no other plan could be followed.
    if let Supplied::Given(plan) = supplied {
        trace.push(supplied_plan.into());
        return (Arc::new(analysis.with_plan(*plan)), true, false);
    }
    let (p, exp, board) = (&analysis.p, &analysis.exp, &analysis.layout.board);
    // One check for every plan tried: their walled problems are built once.
    let Some(mut check) = PrefixSupply::new(p, board, boxes, player) else {
        return (analysis, false, false);
    };
    // The first dead prefix of the plan, looked at once: followable, or how far it goes.
    let Some(own_dead) = analysis.plan.dead_prefix_with(p, &mut check) else {
        return (analysis, true, false);
    };
    let set = exp.order.is_some() || exp.plan_per_cluster || exp.plan_no_parking;
    if set || exp.packing_plan || analysis.plan.festival {
        return (analysis, false, false);
    }
    let greedy = greedy.filter(|g| g.order != analysis.plan.order);
    if let Some(g) = greedy {
        match g.dead_prefix_with(p, &mut check) {
            None => {
                trace.push(
                    "the greedy removals' plan: the packing search's cannot be followed".into(),
                );
                return (Arc::new(analysis.with_plan((*g).clone())), true, false);
            }
            // Neither can be followed: the greedy removals' where it dies later, followed
            // as far as it goes, with no supplied packing search to start again on.
            Some(k) if k > own_dead && !exp.no_furthest => {
                trace.push(format!(
                    "the greedy removals' plan: dead from {k} goals, the other sooner"
                ));
                return (Arc::new(analysis.with_plan((*g).clone())), false, false);
            }
            Some(_) => {}
        }
    }
    if !analysis.plan.analysed || exp.no_packing_search || exp.no_supplied_packing {
        return (analysis, false, false);
    }
    if let Supplied::Later = supplied {
        return (analysis, false, true);
    }
    let Some(plan) = followable_supplied(&analysis, boxes, check) else {
        return (analysis, false, false);
    };
    trace.push(supplied_plan.into());
    (Arc::new(analysis.with_plan(plan)), true, false)
}

/// The supplied packing search's plan, where it differs from the analysis's and can be
/// followed from the start (`check`: the start's dead-prefix check, its walled problems
/// kept for the plan's own check).
fn followable_supplied(a: &Arc<Analysis>, boxes: &[u16], check: PrefixSupply) -> Option<Plan> {
    let (supplied, mut check) = supplied_plan_with(a, boxes, check);
    supplied.filter(|s| s.order != a.plan.order && s.followable_with(&a.p, &mut check))
}

/// Moves and bytes the packing search may use.
const PACKING_MOVES: u64 = 200_000;
const PACKING_MEMORY: usize = 64 << 20;
/// Moves the packing search by Festival's rules may make, where the first leaves boxes on
/// the board (Sasquatch I 34 takes it 1.7M, 7.5 s, 450 MB).
pub const PACKING_AGAIN_MOVES: u64 = 2_000_000;
/// Its moves a millisecond of the time limit, at most: I 34 makes 220 a millisecond, so it
/// takes about a quarter of the limit there and gets its 1.7M at 30 s; I 18 makes 105, and
/// spends over half the limit without placing its last box. No count of boxes left tells
/// the two apart early: I 34 still has 13 on the board after 1.6M of its 1.66M pulls.
pub const PACKING_AGAIN_PER_MS: u64 = 60;
/// Moves the supplied packing search may make (a second plan, tried where the first cannot
/// be followed).
const SUPPLIED_MOVES: u64 = 50_000;
/// Moves the search makes on a plan that cannot be followed before the supplied packing
/// search looks for one that can: on the levels solved sooner, its cost (up to a second:
/// XSokoban 86, solved in 204 moves, 23 -> 162 ms) is saved; where it finds a plan, the
/// search starts again on it, these moves lost.
pub(super) const SUPPLIED_AFTER: u64 = 20_000;

/// The plan of the packing search (Festival's; see [`Backward::packing`]) from the pulls
/// to its best position; `None` when it stored no position. With [`Packing::Again`], where
/// it leaves boxes on the board (its plan relaxes steps), the packing search by Festival's
/// rules ([`Backward::packing_festival`]) runs too, and its plan is taken where it relaxes
/// no more, and followed even where the dead-prefix test fails it ([`Plan::festival`]).
/// Measured at 30 s a level, one thread, on the 17 development levels where the first
/// leaves boxes on the board: Sasquatch I 5, 18, 34 and V 26 solved, none lost
/// (bench/decisions.md). With `packfestival` (portfolio lane 1) the second search runs
/// on every level, so that two lanes follow two packing orders; where the first places
/// every box, with the first's moves.
pub fn packing_search_plan(a: &Arc<Analysis>, boxes: &[u16], packing: Packing) -> Option<Plan> {
    packing_plan_with(a, boxes, packing, PACKING_MOVES, Deadline::NONE)
}

/// [`packing_search_plan`], the first packing search given `moves` moves.
fn packing_plan_with(
    a: &Arc<Analysis>,
    boxes: &[u16],
    packing: Packing,
    moves: u64,
    deadline: Deadline,
) -> Option<Plan> {
    let plan = {
        let mut back = Backward::packing(Arc::clone(a), boxes, PACKING_MEMORY);
        run_packing(a, boxes, &mut back, moves, deadline)?
    };
    let Packing::Again { bytes, pulls, every_level } = packing else { return Some(plan) };
    if (plan.relaxed == 0 && !every_level) || pulls == 0 || deadline.passed() {
        return Some(plan);
    }
    // Where the first places every box the second offers another order, not a rescue: the
    // first's moves (at 2M, Sasquatch III 6's failing search took 10 s of lane 1's 30).
    let pulls = if plan.relaxed == 0 { pulls.min(moves) } else { pulls };
    let mut back = Backward::packing_festival(Arc::clone(a), boxes, bytes);
    match run_packing(a, boxes, &mut back, pulls, deadline) {
        Some(mut again) if again.relaxed <= plan.relaxed => {
            again.festival = true;
            Some(again)
        }
        _ => Some(plan),
    }
}

/// The plan of the packing search with the supply check ([`Backward::packing_supplied`]);
/// `None` on boards too large for it.
pub fn supplied_packing_plan(a: &Arc<Analysis>, boxes: &[u16], player: u16) -> Option<Plan> {
    let check = PrefixSupply::new(&a.p, &a.layout.board, boxes, player)?;
    supplied_plan_with(a, boxes, check).0
}

/// [`supplied_packing_plan`] with the check `check`, given back with its walled problems.
fn supplied_plan_with(
    a: &Arc<Analysis>,
    boxes: &[u16],
    check: PrefixSupply,
) -> (Option<Plan>, PrefixSupply) {
    let mut back = Backward::packing_supplied(Arc::clone(a), boxes, check, PACKING_MEMORY);
    let plan = run_packing(a, boxes, &mut back, SUPPLIED_MOVES, Deadline::NONE);
    (plan, back.take_supply().expect("the search holds its check"))
}

/// Run packing search `back` for up to `moves` moves, or until `deadline` (looked at every
/// thousand); the plan of the pulls to its best position.
fn run_packing(
    a: &Arc<Analysis>,
    boxes: &[u16],
    back: &mut Backward,
    moves: u64,
    deadline: Deadline,
) -> Option<Plan> {
    let mut left = moves;
    while left > 0 && !deadline.passed() {
        let step = left.min(1_000);
        left -= step;
        match back.run(step) {
            BackEvent::Budget => {}
            _ => break,
        }
    }
    let best = back.best()?;
    Some(Plan::from_pulls(&a.p, boxes, &back.pulls_to(best)))
}

/// The packing plan an experiment gives by hand ([`Experiments::order`]: squares of
/// `board` as (row, column)), as steps of `p`; `None` (and a line in `trace`) when its goal
/// steps do not fill every goal once, or a parking step's box does not move on to the
/// square of a later step.
pub fn plan_by_hand(
    board: &Board,
    p: &Problem,
    order: &[HandStep],
    trace: &mut Vec<String>,
) -> Option<Vec<Step>> {
    let square = |&(r, c): &(usize, usize)| {
        let sq = (r < board.height() && c < board.width()).then(|| board.square(r, c))?;
        p.compact.get(sq).copied().filter(|&x| x != NONE)
    };
    let mut steps = Vec::with_capacity(order.len());
    for (at, then) in order {
        let Some(at_sq) = square(at) else {
            trace.push(format!("the order names {at:?}, not a floor square: ignored"));
            return None;
        };
        let then_sq = match then {
            None => NONE,
            Some(t) => match square(t) {
                Some(x) => x,
                None => {
                    trace.push(format!(
                        "the order moves a box on to {t:?}, not a floor square: ignored"
                    ));
                    return None;
                }
            },
        };
        steps.push(Step { square: at_sq, then: then_sq });
    }
    let mut goals: Vec<u16> =
        steps.iter().filter(|st| st.then == NONE).map(|st| st.square).collect();
    let named = goals.len();
    goals.sort_unstable();
    goals.dedup();
    let onward = steps.iter().enumerate().all(|(k, st)| {
        st.then == NONE || steps[k + 1..].iter().any(|later| later.square == st.then)
    });
    if goals == p.goals && named == goals.len() && onward {
        return Some(steps);
    }
    trace.push(format!(
        "the order fills {} distinct of {} goals{}: ignored",
        goals.iter().filter(|g| p.goals.binary_search(g).is_ok()).count(),
        p.goals.len(),
        if onward { "" } else { ", or parks a box that moves on to no later step" }
    ));
    None
}

/// The names of every strategy a schedule may run (the progress reports one of them).
pub fn strategy_names() -> Vec<&'static str> {
    let main = STRATEGIES.iter().chain(&STRATEGIES_PLAIN).map(|s| s.name);
    main.chain(CLUSTER_FIRST).chain([GREEDY.name, SPRINT.name, OTHER_PLAN.name, HF.name]).collect()
}

/// The HF search: the scored strategy toward the backward search's best position,
/// learning apart (its goals are its own); it ends on a stall of its count
/// ([`super::FastSearch`]'s `HF_STALL`).
pub const HF: Strategy =
    Strategy { name: "HF toward the backward search", apart: true, ..STRATEGIES[1] };

#[cfg(test)]
mod tests {
    use super::*;
    use sokoban_core::format::parse_level;

    /// A plan by hand keeps its parking steps, moving on to the square of a later step; a
    /// parked box that moves on to no later step, or a goal left out, is refused.
    #[test]
    fn a_plan_by_hand_parks_and_fills_every_goal_once() {
        let level = parse_level("#######\n#@ $ .#\n#  $ .#\n#     #\n#######").unwrap();
        let board = &level.board;
        let p = Problem::new(board);
        let sq = |r, c| p.compact[board.square(r, c)];
        let mut trace = Vec::new();
        let parked = [((3, 2), Some((1, 5))), ((1, 5), None), ((2, 5), None)];
        let steps = plan_by_hand(board, &p, &parked, &mut trace).expect("a valid plan");
        assert_eq!(steps[0], Step { square: sq(3, 2), then: sq(1, 5) });
        assert_eq!(Plan::from_steps(&p, steps, 0).parking_steps(), 1);
        assert!(trace.is_empty());
        let stray = [((1, 5), None), ((2, 5), None), ((3, 2), Some((1, 5)))];
        let missing = [((1, 5), None)];
        for bad in [&stray[..], &missing[..], &[((0, 0), None)][..]] {
            assert!(plan_by_hand(board, &p, bad, &mut trace).is_none(), "{bad:?}");
            assert!(trace.pop().is_some_and(|t| t.ends_with("ignored")));
        }
    }

    /// The second packing search gets the whole memory, and pulls bounded by the time
    /// limit where one is set.
    #[test]
    fn the_second_packing_search_is_bounded_by_the_time_limit() {
        let pulls = |t| match Packing::again(1 << 20, t) {
            Packing::Again { bytes, pulls, .. } => {
                assert_eq!(bytes, 1 << 20);
                pulls
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(pulls(None), PACKING_AGAIN_MOVES);
        assert_eq!(pulls(Some(1000.0)), 1000 * PACKING_AGAIN_PER_MS);
        assert_eq!(pulls(Some(1e12)), PACKING_AGAIN_MOVES);
        assert_eq!(pulls(Some(-5.0)), 0);
    }

    /// The packing searches look at their deadline as they go: passed at once, the first
    /// makes no pull (its plan leaves every box on the board) and the second is not begun;
    /// never passed, the plan is the one without a deadline.
    #[test]
    fn the_packing_searches_stop_at_their_deadline() {
        let (_, boxes, _, a, _) = super::super::tests::analysed(super::super::tests::ROOM);
        let looks = std::cell::Cell::new(0);
        let passed = || {
            looks.set(looks.get() + 1);
            true
        };
        let again = Packing::again(16 << 20, None);
        let cut = packing_plan_with(&a, &boxes, again, PACKING_MOVES, Deadline::new(&passed));
        let cut = cut.expect("the plan of the root");
        assert!(cut.relaxed == boxes.len() && !cut.festival, "{}", cut.relaxed);
        assert_eq!(looks.get(), 2, "a look by the first search, one before the second");
        let never = || false;
        let full = packing_plan_with(&a, &boxes, again, PACKING_MOVES, Deadline::new(&never));
        let plain = packing_plan_with(&a, &boxes, again, PACKING_MOVES, Deadline::NONE);
        let (full, plain) = (full.expect("a plan"), plain.expect("a plan"));
        assert!(plain.relaxed == 0 && (full.order, full.relaxed) == (plain.order, plain.relaxed));
    }

    /// Where a goal can have no box (its only way in is pushed from a wall) or a box no
    /// goal, no packing search runs: it would pull in vain.
    #[test]
    fn a_start_dead_by_reach_runs_no_packing_search() {
        let run = |xsb: &str| {
            let level = parse_level(xsb).unwrap();
            let p = Problem::new(&level.board);
            let layout = Arc::new(Layout::new(&level.board, &p));
            let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
            let dead = dead_by_reach(&p, &boxes);
            let looks = std::cell::Cell::new(0);
            let never = || {
                looks.set(looks.get() + 1);
                false
            };
            let exp = Arc::default();
            analyse_until(Arc::new(p), layout, &boxes, &exp, Packing::Once, Deadline::new(&never));
            (dead, looks.get() > 0)
        };
        let niche = "########\n##.#   #\n#      #\n# #$ $@#\n#   .  #\n########";
        let cornered = "#######\n#$    #\n#  @  #\n#  .. #\n#   $ #\n#######";
        let live = "#######\n#     #\n# $@$ #\n#  .. #\n#     #\n#######";
        assert_eq!(run(niche), (true, false));
        assert_eq!(run(cornered), (true, false));
        assert_eq!(run(live), (false, true));
    }

    /// Where the packing search leaves boxes on the board (here: given 3 moves), the
    /// search by Festival's rules runs too and its plan, which places every box, is taken;
    /// without [`Packing::Again`] the first plan stands.
    #[test]
    fn a_packing_search_that_leaves_boxes_is_followed_by_festivals() {
        let (_, boxes, _, a, _) = super::super::tests::analysed(super::super::tests::ROOM);
        let short =
            packing_plan_with(&a, &boxes, Packing::Once, 3, Deadline::NONE).expect("a plan");
        assert!(short.relaxed > 0, "3 moves place not every box");
        let again =
            packing_plan_with(&a, &boxes, Packing::again(16 << 20, None), 3, Deadline::NONE)
                .expect("a plan");
        assert!(again.relaxed == 0 && again.festival && !short.festival);
        let mut back = Backward::packing_festival(Arc::clone(&a), &boxes, 16 << 20);
        let festival = run_packing(&a, &boxes, &mut back, PACKING_AGAIN_MOVES, Deadline::NONE)
            .expect("a plan");
        assert_eq!((&again.order, &again.steps), (&festival.order, &festival.steps));
        let full = packing_plan_with(
            &a,
            &boxes,
            Packing::again(16 << 20, None),
            PACKING_MOVES,
            Deadline::NONE,
        );
        assert_eq!(
            full.expect("a plan").order,
            a.plan.order,
            "no second search where none is needed"
        );
        // With `packfestival` it runs where the first places every box too, and its plan,
        // which places every box, is taken.
        let exp = Experiments { pack_festival: true, ..Experiments::default() };
        let always = Packing::again(16 << 20, None).under(&exp);
        let taken =
            packing_plan_with(&a, &boxes, always, PACKING_MOVES, Deadline::NONE).expect("a plan");
        assert!(taken.festival && taken.relaxed == 0);
        assert_eq!((&taken.order, &taken.steps), (&festival.order, &festival.steps));
        // Cut short too (a few pulls), its plan is taken where it relaxes no more.
        for pulls in 1..40 {
            let cut = Packing::Again { bytes: 16 << 20, pulls, every_level: false };
            let taken = packing_plan_with(&a, &boxes, cut, 3, Deadline::NONE).expect("a plan");
            let mut back = Backward::packing_festival(Arc::clone(&a), &boxes, 16 << 20);
            let second = run_packing(&a, &boxes, &mut back, pulls, Deadline::NONE).expect("a plan");
            assert_eq!(taken.festival, second.relaxed <= short.relaxed, "{pulls} pulls");
            let want = if taken.festival { &second } else { &short };
            assert_eq!((&taken.order, taken.relaxed), (&want.order, want.relaxed));
        }
    }
}
