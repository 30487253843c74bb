//! Deadlocks made by boxes frozen on goals.
//!
//! A box frozen on a goal (it and every box it is frozen with can never move again, all on
//! goals) is a wall for the rest of the game. New walls can cut the other boxes off from
//! the goals still empty: the goals at the end of a dead-end corridor whose mouth is
//! filled, say. So when a push leaves boxes frozen on goals, check that the other boxes can
//! still be matched to the empty goals, each to one it can reach by pushes on the board
//! with the frozen boxes as walls. Reachability ignores the other boxes and asks only that
//! the square behind a push is floor (not that the player can get there), so it allows
//! more than the game does: when even that leaves some box or goal unmatched, no solution
//! exists.
//!
//! The reachability tables depend only on the set of frozen boxes; they are cached by its
//! hash.

use std::collections::HashMap;

use crate::analysis::deadlock::{freeze_status, frozen_on_goals};
use crate::analysis::goal_reach::GoalReach;
use crate::analysis::matching::Matcher;
use crate::analysis::problem::{Problem, INF_DIST, NONE};

/// Memory for cached tables (they take a bitset per square each); the cache is cleared
/// when the next table would not fit.
const CACHE_BYTES: usize = 16 << 20;

/// Scratch space and cache for the check (one per engine).
pub struct FixedGoals {
    words: usize,
    /// Frozen-set hash -> per square, a bitset (`words` words) of the goals a box there
    /// can reach.
    cache: HashMap<u64, Vec<u64>>,
    reach: GoalReach,
    /// Matching scratch: cost rows of the movable boxes (1: reachable), the matching.
    costs: Vec<u16>,
    matcher: Matcher,
    movable: Vec<u16>,
    /// Events checked and deadlocks found.
    pub checks: u64,
    pub deadlocks: u64,
}

impl FixedGoals {
    /// Scratch for a problem.
    pub fn new(p: &Problem) -> FixedGoals {
        let words = p.goals.len().div_ceil(64).max(1);
        FixedGoals {
            words,
            cache: HashMap::new(),
            reach: GoalReach::new(p),
            costs: Vec::new(),
            matcher: Matcher::default(),
            movable: Vec::new(),
            checks: 0,
            deadlocks: 0,
        }
    }

    /// True when the boxes frozen on goals leave the other boxes unable to fill the empty
    /// goals. `boxes` are the box squares, `box_at[s] != NONE` where a box stands.
    pub fn deadlocked(&mut self, p: &Problem, boxes: &[u16], box_at: &[u16]) -> bool {
        self.checks += 1;
        let fixed = frozen_on_goals(p, &|s| box_at[s as usize] != NONE);
        let key = fixed.iter().fold(0x9E37_79B9u64, |h, &s| h ^ p.z_box[s as usize]);
        if !self.cache.contains_key(&key) {
            let table_bytes = p.n * self.words * 8;
            if (self.cache.len() + 1) * table_bytes > CACHE_BYTES {
                self.cache.clear();
            }
            // Per square, the goals (not in `fixed`) a lone box there can be pushed to, with
            // the squares in `fixed` as walls.
            let table = self.reach.table(p, fixed.iter().copied(), |_| true);
            self.cache.insert(key, table);
        }
        let table = &self.cache[&key];
        // The boxes left to move: every box not frozen on a goal.
        self.movable.clear();
        for &b in boxes {
            if fixed.binary_search(&b).is_err() {
                self.movable.push(b);
            }
        }
        // Matching of movable boxes to reachable empty goals (a goal filled for good is
        // never reachable: the table has it as a wall).
        let (ng, words) = (p.goals.len(), self.words);
        self.costs.clear();
        self.costs.resize(self.movable.len() * ng, INF_DIST);
        for (i, &b) in self.movable.iter().enumerate() {
            let row = &table[b as usize * words..(b as usize + 1) * words];
            for j in 0..ng {
                if row[j / 64] >> (j % 64) & 1 != 0 {
                    self.costs[i * ng + j] = 1;
                }
            }
        }
        if !self.matcher.perfect(&self.costs, self.movable.len(), ng) {
            self.deadlocks += 1;
            return true;
        }
        false
    }
}

/// Most floor squares for which [`Reduced`] builds problems (a problem's component table
/// takes squares² bytes and as many steps to build).
pub const REDUCED_MAX_SQUARES: usize = 1024;
/// Most memory for cached reduced problems; the cache is cleared when the next would not
/// fit.
pub const REDUCED_CACHE_BYTES: usize = 32 << 20;

/// The problem of the board with a set of boxes frozen on goals made walls — what the
/// search starts from when the start position has such boxes (see `without_fixed_boxes` in
/// the crate root) — built when a position in the search first has that set, and cached by
/// it. Its push distances and side classes know the new walls: a box whose way to the
/// empty goals ran through a frozen box, or whose player can no longer get round it, is
/// seen to be cut off, which the tables of the empty board cannot see.
pub struct Reduced {
    board: sokoban_core::Board,
    cache: HashMap<u64, std::sync::Arc<Problem>>,
    bytes: usize,
    max_bytes: usize,
    /// Problems built.
    pub built: u64,
    /// Scratch: the boxes frozen on goals, freeze walls, cost rows, the matching.
    frozen: Vec<u16>,
    walls: Vec<u16>,
    costs: Vec<u16>,
    matcher: Matcher,
    /// Positions checked, and found dead.
    pub checks: u64,
    pub cuts: u64,
}

impl Reduced {
    /// For the board `board` (the one `p` was built from), its cache holding at most
    /// `max_bytes`; `None` on boards too large.
    pub fn new(board: &sokoban_core::Board, p: &Problem, max_bytes: usize) -> Option<Reduced> {
        (p.n <= REDUCED_MAX_SQUARES).then(|| Reduced {
            board: board.clone(),
            cache: HashMap::new(),
            bytes: 0,
            max_bytes,
            built: 0,
            frozen: Vec::new(),
            walls: Vec::new(),
            costs: Vec::new(),
            matcher: Matcher::default(),
            checks: 0,
            cuts: 0,
        })
    }

    /// Bytes held by the cached problems.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// False when the position (`boxes`, `has_box(s)` where a box stands, the player on
    /// `player`) has boxes frozen on goals and, with them as walls, the other boxes cannot
    /// each be matched to an empty goal of their own, reachable by pushes from the side the
    /// player can get to: then it has no solution.
    pub fn matchable(
        &mut self,
        p: &Problem,
        boxes: &[u16],
        has_box: &impl Fn(u16) -> bool,
        player: u16,
    ) -> bool {
        self.checks += 1;
        self.frozen.clear();
        for &b in boxes {
            if p.is_goal[b as usize]
                && freeze_status(p, &mut self.walls, has_box, b) == (true, false)
            {
                self.frozen.push(b);
            }
        }
        if self.frozen.is_empty() || self.frozen.len() == boxes.len() {
            return true;
        }
        let frozen = std::mem::take(&mut self.frozen);
        let r = self.get(p, &frozen);
        let ng = r.goals.len();
        self.costs.resize(boxes.len() * ng, 0);
        let rp = r.compact[p.board_sq[player as usize]];
        let mut i = 0;
        for &b in boxes {
            if frozen.contains(&b) {
                continue;
            }
            let rb = r.compact[p.board_sq[b as usize]];
            r.cost_row(rb, r.player_class(rb, rp), &mut self.costs[i * ng..(i + 1) * ng]);
            i += 1;
        }
        self.frozen = frozen;
        let ok = self.matcher.perfect(&self.costs, i, ng);
        self.cuts += !ok as u64;
        ok
    }

    /// The problem with the boxes on `fixed` (compact squares of `p`, each on a goal) as
    /// walls.
    pub fn get(&mut self, p: &Problem, fixed: &[u16]) -> std::sync::Arc<Problem> {
        let key = fixed.iter().fold(0x51ED_F1CEu64, |h, &s| h ^ p.z_box[s as usize]);
        if let Some(r) = self.cache.get(&key) {
            return std::sync::Arc::clone(r);
        }
        let board = walled(&self.board, p, fixed);
        let r = std::sync::Arc::new(Problem::new(&board));
        let bytes = r.comp.len() + (r.dist.len() + r.dist_class.len()) * 2 + r.n * 64;
        if self.bytes + bytes > self.max_bytes {
            self.cache.clear();
            self.bytes = 0;
        }
        self.bytes += bytes;
        self.built += 1;
        self.cache.insert(key, std::sync::Arc::clone(&r));
        r
    }
}

/// `board` (the one `p` was built from) with the squares `fixed` (compact squares of `p`)
/// made walls and no longer goals.
pub fn walled(board: &sokoban_core::Board, p: &Problem, fixed: &[u16]) -> sokoban_core::Board {
    let (mut cells, mut goals) = (board.cells().to_vec(), board.goals().to_vec());
    for &s in fixed {
        let sq = p.board_sq[s as usize];
        cells[sq] = sokoban_core::Cell::Wall;
        goals[sq] = false;
    }
    sokoban_core::Board::new(board.width(), board.height(), cells, goals)
}
