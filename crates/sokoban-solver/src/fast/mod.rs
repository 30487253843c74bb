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

pub mod board;
pub mod dead;
pub mod features;
pub mod fess;
pub mod plan;

use std::sync::Arc;

use board::Layout;
use fess::{Analysis, Config, Fess, FessEvent, FessStats};
use plan::Plan;
use sokoban_core::Board;

use crate::problem::Problem;

/// One strategy of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strategy {
    pub name: &'static str,
    pub config: Config,
}

/// The schedule: strategies tried one after another.
pub const STRATEGIES: [Strategy; 1] =
    [Strategy { name: "FESS", config: Config { alternate_best: true, advisors: true } }];

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
    /// Name of the strategy running, its number (1-based) and how many there are.
    pub strategy: &'static str,
    pub strategy_number: u32,
    pub strategies: u32,
    /// Positions stored, moves made, and those two for all strategies so far.
    pub positions: u64,
    pub generated: u64,
    pub total_generated: u64,
    /// Cells of the feature space in use.
    pub cells: usize,
    /// Most goals packed in plan order by a position found, and the goals.
    pub best_packed: u32,
    pub goals: u32,
    /// Bytes held by the search's store, and its budget.
    pub memory_bytes: usize,
    pub memory_limit: usize,
    /// Steps of the packing plan that had to be relaxed (no way out found).
    pub plan_relaxed: u32,
}

/// The fast search on one position, with its schedule.
pub struct FastSearch {
    analysis: Arc<Analysis>,
    player: u16,
    boxes: Vec<u16>,
    memory_limit: usize,
    current: usize,
    /// The strategy running (always there but while the next one is built).
    fess: Option<Fess>,
    /// Moves made by finished strategies.
    done_generated: u64,
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
    ) -> FastSearch {
        let p = Arc::new(p);
        let layout = Arc::new(Layout::new(board, &p));
        let mut plan = Plan::new(&p, &layout, boxes);
        let mut config = STRATEGIES[0].config;
        // Experiment switches (development only): FESS=cluster,noalt,noadv
        if let Ok(flags) = std::env::var("FESS") {
            for f in flags.split(',') {
                match f {
                    "cluster" => plan.per_cluster = true,
                    "noalt" => config.alternate_best = false,
                    "noadv" => config.advisors = false,
                    _ => {}
                }
            }
        }
        let plan = Arc::new(plan);
        let analysis = Arc::new(Analysis::new(p, layout, plan));
        let fess = Fess::new(Arc::clone(&analysis), config, player, boxes, memory_limit);
        FastSearch {
            analysis,
            player,
            boxes: boxes.to_vec(),
            memory_limit,
            current: 0,
            fess: Some(fess),
            done_generated: 0,
        }
    }

    /// The problem searched.
    pub fn problem(&self) -> &Problem {
        &self.analysis.p
    }

    /// The packing plan (goal numbers in packing order).
    pub fn plan(&self) -> &Plan {
        &self.analysis.plan
    }

    fn fess(&self) -> &Fess {
        self.fess.as_ref().expect("a strategy is running")
    }

    /// The position with the best features found by the strategy running, drawn on the
    /// board (for studying the search).
    pub fn best_picture(&self, board: &Board) -> Option<String> {
        let (boxes, player) = self.fess().best_position()?;
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
        rows[r][c] = '@';
        Some(rows.iter().map(|r| r.iter().collect::<String>() + "\n").collect())
    }

    /// Counters of the strategy running.
    pub fn stats(&self) -> FessStats {
        self.fess().stats
    }

    /// Search for up to `budget` moves.
    pub fn run(&mut self, budget: u64) -> FastEvent {
        let fess = self.fess.as_mut().expect("a strategy is running");
        match fess.run(budget) {
            FessEvent::Budget => FastEvent::Budget,
            FessEvent::Solved(pushes) => FastEvent::Solved(pushes),
            FessEvent::Exhausted => FastEvent::Unsolvable,
            FessEvent::MemoryFull => {
                if self.current + 1 < STRATEGIES.len() {
                    self.next_strategy();
                    FastEvent::Budget
                } else {
                    FastEvent::OutOfMemory
                }
            }
        }
    }

    fn next_strategy(&mut self) {
        self.done_generated += self.stats().generated;
        self.current += 1;
        let config = STRATEGIES[self.current].config;
        // The old store goes before the new one is built.
        self.fess = None;
        self.fess = Some(Fess::new(
            Arc::clone(&self.analysis),
            config,
            self.player,
            &self.boxes,
            self.memory_limit,
        ));
    }

    /// The progress so far.
    pub fn progress(&self) -> FastProgress {
        let st = self.stats();
        FastProgress {
            strategy: STRATEGIES[self.current].name,
            strategy_number: self.current as u32 + 1,
            strategies: STRATEGIES.len() as u32,
            positions: st.nodes,
            generated: st.generated,
            total_generated: self.done_generated + st.generated,
            cells: st.cells,
            best_packed: st.best_packed as u32,
            goals: self.analysis.p.goals.len() as u32,
            memory_bytes: self.fess().memory(),
            memory_limit: self.memory_limit,
            plan_relaxed: self.analysis.plan.relaxed as u32,
        }
    }
}

/// The packing plan of a level drawn on its board (XSB rows): each goal shows its place in
/// the packing order (`1`-`9`, then `a`-`z`, then `A`-`Z`, then `+`), so a person can see
/// which goals the fast search fills first.
pub fn plan_picture(level: &sokoban_core::Level) -> String {
    let board = &level.board;
    let p = Problem::new(board);
    let layout = Layout::new(board, &p);
    let boxes: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
    let plan = Plan::new(&p, &layout, &boxes);
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
        "{} goals in {} clusters, {} relaxed steps\n",
        plan.order.len(),
        plan.clusters.len(),
        plan.relaxed
    ));
    out
}
