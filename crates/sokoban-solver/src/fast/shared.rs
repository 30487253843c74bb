//! What the strategies of one fast search share: the static analysis they read (the
//! problem, the layout, the packing plan, rooms, hotspots, the two-box deadlock table) and
//! what they learn about dead positions as they go (the stuck search with its verdicts,
//! the stuck patterns, and each new position's test verdicts).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use super::board::Layout;
use super::dead::DeadTests;
use super::experiments::{Experiments, StopRule};
use super::features::{Hotspots, Rooms};
use super::plan::Plan;
use super::stops::Stops;
use crate::analysis::deadlock::pairs::PairTable;
use crate::analysis::deadlock::stuck::{Patterns, StuckSearch};
use crate::analysis::problem::{Keyed, Problem, INF_DIST, NONE};

/// The static analysis the search reads, shared by strategies.
pub struct Analysis {
    pub p: Arc<Problem>,
    pub layout: Arc<Layout>,
    pub plan: Arc<Plan>,
    pub rooms: Arc<Rooms>,
    /// Fewest pushes from each square to its nearest goal.
    pub nearest: Vec<u16>,
    /// Goal number of each square, `NONE` off the goals.
    pub goal_no: Vec<u16>,
    /// Which boxes block which (the scored strategy's hotspots); `None` on boards too
    /// large.
    pub hotspots: Option<Hotspots>,
    /// The two-box deadlock table (`None` on boards too large for it).
    pub pairs: Option<Arc<PairTable>>,
    /// Where a macro move may leave its box (Festival's inefficient stops), where an
    /// experiment asks for the rule.
    pub stops: Option<Stops>,
    /// The development switches the search runs with.
    pub exp: Arc<Experiments>,
}

impl Analysis {
    pub fn new(
        p: Arc<Problem>,
        layout: Arc<Layout>,
        plan: Arc<Plan>,
        exp: Arc<Experiments>,
    ) -> Analysis {
        let n = p.n;
        let nearest = (0..n)
            .map(|s| (0..p.goals.len()).map(|j| p.dist[j * n + s]).min().unwrap_or(INF_DIST))
            .collect();
        let mut goal_no = vec![NONE; n];
        for (j, &g) in p.goals.iter().enumerate() {
            goal_no[g as usize] = j as u16;
        }
        let rooms = Arc::new(Rooms::new(&p));
        let hotspots = Hotspots::new(&p);
        let pairs = if exp.no_pairs { None } else { PairTable::new(&p).map(Arc::new) };
        let stops = Self::stops_of(&p, &layout, &plan, &exp);
        Analysis { p, layout, plan, rooms, nearest, goal_no, hotspots, pairs, stops, exp }
    }

    fn stops_of(p: &Problem, layout: &Layout, plan: &Plan, exp: &Experiments) -> Option<Stops> {
        match exp.stops {
            StopRule::Off => None,
            StopRule::Tunnels => Some(Stops::new(p, &layout.board, plan).tunnels_only()),
            StopRule::All | StopRule::Scored => Some(Stops::new(p, &layout.board, plan)),
        }
    }

    /// The deadlock tests of a search with a memory budget of `memory_limit` bytes: the
    /// reduced problems may take an eighth of it, 32 MiB at most.
    pub fn dead_tests(&self, memory_limit: usize) -> DeadTests {
        let cache = (memory_limit / 8).min(crate::analysis::fixed::REDUCED_CACHE_BYTES);
        let cache = if self.exp.no_reduced { None } else { Some(cache) };
        let mut tests = DeadTests::new(&self.p, &self.layout.board, self.pairs.clone(), cache);
        tests.merge_corrals(self.exp.merge);
        tests
    }

    /// The same analysis with another plan (the plan's `until` as the experiments say).
    pub fn with_plan(&self, mut plan: Plan) -> Analysis {
        plan.until = !self.exp.no_until;
        let plan = Arc::new(plan);
        Analysis {
            stops: Self::stops_of(&self.p, &self.layout, &plan, &self.exp),
            exp: Arc::clone(&self.exp),
            p: Arc::clone(&self.p),
            layout: Arc::clone(&self.layout),
            plan,
            rooms: Arc::clone(&self.rooms),
            nearest: self.nearest.clone(),
            goal_no: self.goal_no.clone(),
            hotspots: self.hotspots.clone(),
            pairs: self.pairs.clone(),
        }
    }
}

/// What the strategies of one search learn about dead positions and share: the stuck
/// search with its verdicts, the stuck patterns, and the verdicts of the tests of each
/// new position (`Tested`).
pub struct Learned {
    pub stuck: StuckSearch,
    pub patterns: Patterns,
    /// Per position and the square its last push filled, what its tests found.
    tested: HashMap<u64, Tested, Keyed>,
}

impl Learned {
    pub fn new(p: &Problem) -> Rc<RefCell<Learned>> {
        Rc::new(RefCell::new(Learned {
            stuck: StuckSearch::new(p),
            patterns: Patterns::new(p),
            tested: HashMap::default(),
        }))
    }

    pub(super) fn tested(&self, key: u64) -> Tested {
        self.tested.get(&key).copied().unwrap_or_default()
    }

    pub(super) fn note(&mut self, key: u64, add: Tested) {
        if self.tested.len() >= TESTED_LIMIT {
            self.tested.clear(); // full: start again (a verdict lost is only found again)
        }
        let t = self.tested.entry(key).or_default();
        t.0 |= add.0;
    }
}

/// Most positions whose test verdicts [`Learned`] keeps (its table 36 MB at most).
const TESTED_LIMIT: usize = 1 << 20;

/// The verdicts of a new position's tests, shared by the strategies: the strategies meet
/// the same positions (Microban 153: half of the rules strategy's are the scored one's
/// too), and the tests (the move's deadlock tests and local stuck test; the scored
/// strategy's pocket test) take a quarter of a move's time. A verdict depends on the
/// position and the square the last push filled (the tests look round it), so it is kept
/// under both: a strategy that meets them again gets the verdict its own tests would give
/// (but where the stuck search's cache or the corral search's sampling, which depend on
/// what was tested before, would have made them see more or less; every verdict is sound).
/// Measured: every move the same on Microban and on XSokoban 88, 153 0.91 -> 0.87 s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Tested(u8);

impl Tested {
    pub(super) const MOVE_DEAD: Tested = Tested(1);
    pub(super) const MOVE_ALIVE: Tested = Tested(2);
    pub(super) const POCKET_DEAD: Tested = Tested(4);
    pub(super) const POCKET_ALIVE: Tested = Tested(8);

    /// The verdict kept for the test of `dead` and `alive`, if any.
    pub(super) fn verdict(self, dead: Tested, alive: Tested) -> Option<bool> {
        if self.0 & dead.0 != 0 {
            Some(true)
        } else if self.0 & alive.0 != 0 {
            Some(false)
        } else {
            None
        }
    }
}
