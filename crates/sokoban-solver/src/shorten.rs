//! Shortening a solution the fast search found, in a bounded pass: fewer pushes, and with
//! them fewer moves ([`shorten_solution`]).
//!
//! First the solution's macro moves (runs of pushes of one box) are merged and reordered
//! ([`merge_macros`]): a box pushed from `a` to `b` and later from `b` to `c` is tried
//! pushed from `a` to `c` at once, at the first move or at the second, and neighbouring
//! macro moves of different boxes are tried swapped; each candidate is played out by the
//! box-path search (the fewest pushes, then moves, for each macro move) and kept when the
//! whole solution gets shorter. Then shortcuts ([`shorten`]): the positions the solution
//! passes through (boxes, and the player's area) are keyed, a small breadth-first search
//! over single pushes from each of them looks for a later one reached in fewer pushes
//! than the solution takes, and the shortest way through those shortcuts is found by
//! dynamic programming over the solution's positions. Every result is replayed by the
//! rules engine; the original is kept when nothing shorter replays.

use std::collections::{HashMap, HashSet};

use sokoban_core::{Board, Game, Level, Move, Position, Square};
use sokoban_path::BoxSearch;

use crate::analysis::problem::{AreaFlood, Keyed, Problem, NONE};
use crate::{build_solution, Solution};

/// Deepest shortcut searched, in pushes.
pub const MAX_DEPTH: usize = 3;

/// A push: the compact square the box leaves and the direction (`Dir` index).
pub type Push = (u16, u8);

/// A shortcut: from position `from` of the solution to the later position `to`, by
/// `len` pushes (`pushes[..len]`).
#[derive(Clone, Copy, Debug)]
struct Shortcut {
    from: usize,
    to: usize,
    len: usize,
    pushes: [Push; MAX_DEPTH],
}

/// One position of the breadth-first search: its parent (index), the push from it, its
/// depth; boxes in `boxes[id * nb..]`, player square `player`.
#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    push: Push,
    depth: u8,
    player: u16,
}

/// The pass's scratch and counters.
struct Shortener<'a> {
    p: &'a Problem,
    nb: usize,
    flood: AreaFlood,
    occupied: Vec<bool>,
    nodes: Vec<Node>,
    boxes: Vec<u16>,
    seen: HashSet<u64, Keyed>,
    // Scratch: the position expanded, its pushes (box index, target, direction), a child.
    parent: Vec<u16>,
    pushes: Vec<(u16, u16, u8)>,
    child: Vec<u16>,
    /// Positions searched so far: every child made counts (each costs a flood).
    searched: u64,
    /// The search stops at this count.
    limit: u64,
}

impl<'a> Shortener<'a> {
    fn new(p: &'a Problem, nb: usize) -> Shortener<'a> {
        Shortener {
            p,
            nb,
            flood: AreaFlood::new(p.n),
            occupied: vec![false; p.n],
            nodes: Vec::new(),
            boxes: Vec::new(),
            seen: HashSet::default(),
            parent: Vec::with_capacity(nb),
            pushes: Vec::new(),
            child: Vec::with_capacity(nb),
            searched: 0,
            limit: 0,
        }
    }

    /// The key of the boxes in `occupied`'s position with the player on `player` (flooded
    /// here: the area's smallest square).
    fn key(&mut self, boxes: &[u16], player: u16) -> u64 {
        let norm = self.flood.flood(self.p, &self.occupied, player);
        boxes.iter().fold(self.p.z_player[norm as usize], |k, &b| k ^ self.p.z_box[b as usize])
    }

    /// The positions a solution passes through: after each push, the boxes and the
    /// player. `None` when a push is not legal (the caller then keeps the solution).
    fn replay(
        &mut self,
        player: u16,
        boxes: &[u16],
        pushes: &[Push],
    ) -> Option<Vec<(Vec<u16>, u16)>> {
        let p = self.p;
        let mut bx = boxes.to_vec();
        let mut out = Vec::with_capacity(pushes.len() + 1);
        out.push((bx.clone(), player));
        let mut pl = player;
        for &(from, dir) in pushes {
            self.set(&bx);
            let i = bx.iter().position(|&b| b == from)?;
            let stand = p.step(from, (dir as usize + 2) % 4);
            let to = p.step(from, dir as usize);
            if stand == NONE || to == NONE || self.occupied[to as usize] {
                return None;
            }
            self.flood.flood(p, &self.occupied, pl);
            if self.occupied[stand as usize] || !self.flood.reached(stand) {
                return None;
            }
            bx[i] = to;
            pl = from;
            out.push((bx.clone(), pl));
        }
        Some(out)
    }

    /// Mark `boxes` in `occupied` (cleared first).
    fn set(&mut self, boxes: &[u16]) {
        self.occupied.fill(false);
        for &b in boxes {
            self.occupied[b as usize] = true;
        }
    }

    /// The shortcuts from position `from` (boxes, player, its key) to later positions of the
    /// solution (`index`: key to the last position with it), by a breadth-first search
    /// of at most `max_nodes` positions.
    fn shortcuts_from(
        &mut self,
        from: usize,
        start: &(Vec<u16>, u16),
        start_key: u64,
        index: &HashMap<u64, usize, Keyed>,
        max_nodes: usize,
        out: &mut Vec<Shortcut>,
    ) {
        let (p, nb) = (self.p, self.nb);
        self.nodes.clear();
        self.boxes.clear();
        self.seen.clear();
        self.boxes.extend_from_slice(&start.0);
        self.nodes.push(Node { parent: u32::MAX, push: (0, 0), depth: 0, player: start.1 });
        self.seen.insert(start_key);
        let mut head = 0;
        while head < self.nodes.len() && self.nodes.len() < max_nodes && self.searched < self.limit
        {
            let node = self.nodes[head];
            let id = head;
            head += 1;
            if node.depth as usize >= MAX_DEPTH {
                break;
            }
            let at = id * nb;
            self.parent.clear();
            self.parent.extend_from_slice(&self.boxes[at..at + nb]);
            let parent = std::mem::take(&mut self.parent);
            self.set(&parent);
            self.flood.flood(p, &self.occupied, node.player);
            // The pushes of this position (the flood is overwritten by the keys below, so
            // they are listed first).
            self.pushes.clear();
            for (i, &b) in parent.iter().enumerate() {
                for d in 0..4u8 {
                    let stand = p.step(b, (d as usize + 2) % 4);
                    let to = p.step(b, d as usize);
                    if stand == NONE
                        || to == NONE
                        || self.occupied[to as usize]
                        || p.dead[to as usize]
                        || !self.flood.reached(stand)
                    {
                        continue;
                    }
                    self.pushes.push((i as u16, to, d));
                }
            }
            for k in 0..self.pushes.len() {
                let (i, to, d) = self.pushes[k];
                self.searched += 1;
                let b = parent[i as usize];
                self.occupied[b as usize] = false;
                self.occupied[to as usize] = true;
                self.child.clear();
                self.child.extend_from_slice(&parent);
                self.child[i as usize] = to;
                let child = std::mem::take(&mut self.child);
                let key = self.key(&child, b);
                self.occupied[to as usize] = false;
                self.occupied[b as usize] = true;
                if !self.seen.insert(key) {
                    self.child = child;
                    continue;
                }
                let depth = node.depth as usize + 1;
                let cid = self.nodes.len() as u32;
                self.nodes.push(Node {
                    parent: id as u32,
                    push: (b, d),
                    depth: depth as u8,
                    player: b,
                });
                self.boxes.extend_from_slice(&child);
                self.child = child;
                if let Some(&to_index) = index.get(&key) {
                    if to_index > from + depth {
                        let mut sc = Shortcut {
                            from,
                            to: to_index,
                            len: depth,
                            pushes: [(0, 0); MAX_DEPTH],
                        };
                        let mut n = cid as usize;
                        for slot in (0..depth).rev() {
                            sc.pushes[slot] = self.nodes[n].push;
                            n = self.nodes[n].parent as usize;
                        }
                        out.push(sc);
                    }
                }
            }
            self.parent = parent;
        }
    }

    /// One pass over the solution: returns the shortened pushes, or `None` when no
    /// shortcut was found (or the solution does not replay). Searches at most `budget`
    /// positions in all.
    fn pass(
        &mut self,
        player: u16,
        boxes: &[u16],
        pushes: &[Push],
        budget: u64,
    ) -> Option<Vec<Push>> {
        let positions = self.replay(player, boxes, pushes)?;
        let k = pushes.len();
        let keys: Vec<u64> = positions
            .iter()
            .map(|(bx, pl)| {
                self.set(bx);
                self.key(bx, *pl)
            })
            .collect();
        // The last position with each key: a position met again later is a shortcut of
        // no pushes, and the searches jump as far as they can.
        let index: HashMap<u64, usize, Keyed> =
            keys.iter().enumerate().map(|(i, &k)| (k, i)).collect();
        let mut shortcuts: Vec<Shortcut> = keys
            .iter()
            .enumerate()
            .filter(|&(i, key)| index[key] > i)
            .map(|(i, key)| Shortcut {
                from: i,
                to: index[key],
                len: 0,
                pushes: [(0, 0); MAX_DEPTH],
            })
            .collect();
        let per_position = ((budget / (k as u64 + 1)) as usize).clamp(16, 1 << 16);
        self.limit = self.searched + budget;
        for i in 0..k {
            if self.searched >= self.limit {
                break;
            }
            self.shortcuts_from(i, &positions[i], keys[i], &index, per_position, &mut shortcuts);
        }
        if shortcuts.is_empty() {
            return None;
        }
        // Fewest pushes to each position of the solution, through the shortcuts.
        let mut cost: Vec<usize> = (0..=k).collect();
        let mut via: Vec<Option<usize>> = vec![None; k + 1];
        shortcuts.sort_by_key(|s| s.to);
        let mut next = 0;
        for j in 1..=k {
            cost[j] = cost[j - 1] + 1;
            via[j] = None;
            while next < shortcuts.len() && shortcuts[next].to == j {
                let s = &shortcuts[next];
                if cost[s.from] + s.len < cost[j] {
                    cost[j] = cost[s.from] + s.len;
                    via[j] = Some(next);
                }
                next += 1;
            }
        }
        if cost[k] >= k {
            return None;
        }
        // Walk back from the end, then reverse.
        let mut out: Vec<Push> = Vec::with_capacity(cost[k]);
        let mut j = k;
        while j > 0 {
            match via[j] {
                None => {
                    out.push(pushes[j - 1]);
                    j -= 1;
                }
                Some(s) => {
                    let s = &shortcuts[s];
                    out.extend(s.pushes[..s.len].iter().rev());
                    j = s.from;
                }
            }
        }
        out.reverse();
        debug_assert_eq!(out.len(), cost[k]);
        Some(out)
    }
}

/// Shorten `pushes` (a solution from the player and boxes given, compact squares) by
/// passes of shortcuts until a pass gains nothing or `budget` positions have been
/// searched. Returns the pushes (the same when nothing was gained).
pub fn shorten(p: &Problem, player: u16, boxes: &[u16], pushes: &[Push], budget: u64) -> Vec<Push> {
    let mut s = Shortener::new(p, boxes.len());
    let mut best = pushes.to_vec();
    while s.searched < budget {
        let left = budget - s.searched;
        match s.pass(player, boxes, &best, left) {
            Some(shorter) if shorter.len() < best.len() => best = shorter,
            _ => break,
        }
    }
    best
}

/// A macro move: the box on `from` pushed to `to` (board squares).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Macro {
    from: Square,
    to: Square,
}

/// The solution's macro moves: each a run of pushes of one box (walks between them
/// included), in order.
fn macros_of(board: &Board, start: &Position, moves: &[Move]) -> Option<Vec<Macro>> {
    let mut pos = start.clone();
    let mut out: Vec<Macro> = Vec::new();
    for m in moves {
        if m.push {
            let b = board.neighbor(pos.player, m.dir)?;
            let to = board.neighbor(b, m.dir)?;
            match out.last_mut() {
                Some(last) if last.to == b => last.to = to,
                _ => out.push(Macro { from: b, to }),
            }
        }
        pos.apply(board, m.dir)?;
    }
    Some(out)
}

/// A change to the macro moves tried by [`merge_macros`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    Early,
    Late,
    Swap,
}

/// Macro moves played out with the box-path search (each the fewest pushes, then moves),
/// with the position before each one and the moves made before it.
struct Played {
    moves: Vec<Move>,
    pushes: usize,
    before: Vec<(Position, usize)>,
}

impl Played {
    fn cost(&self) -> (usize, usize) {
        (self.pushes, self.moves.len())
    }
}

/// Play `macros` from `start`, keeping `prefix` (the first macros, already played, whose
/// positions and moves are in `keep`). `None` when a macro move cannot be made or the
/// level is not solved at the end. Each box search counts one against `budget`.
fn play(
    board: &Board,
    start: &Position,
    macros: &[Macro],
    keep: Option<(&Played, usize)>,
    budget: &mut u64,
) -> Option<Played> {
    let (mut pos, mut moves, mut before, from) = match keep {
        Some((p, k)) => {
            let (pos, at) = p.before[k].clone();
            (pos, p.moves[..at].to_vec(), p.before[..k].to_vec(), k)
        }
        None => (start.clone(), Vec::new(), Vec::new(), 0),
    };
    for m in &macros[from..] {
        before.push((pos.clone(), moves.len()));
        if m.from == m.to {
            continue;
        }
        *budget = budget.checked_sub(1)?;
        let path = BoxSearch::new(board, &pos, m.from).path_to(m.to)?;
        for mv in &path {
            pos.apply(board, mv.dir)?;
        }
        moves.extend(path);
    }
    if !pos.is_solved(board) {
        return None;
    }
    let pushes = moves.iter().filter(|m| m.push).count();
    Some(Played { moves, pushes, before })
}

/// Shorten a solution (its `moves` from `start`) by merging the macro moves of each box:
/// a box pushed from `a` to `b` and, later, from `b` on to `c` is tried pushed from `a` to
/// `c` at once, either at the first move or at the second; a merge is kept when the
/// whole solution still plays out (each macro move by the box-path search: the fewest
/// pushes, then moves) with fewer pushes, or as many and fewer moves. Repeated until no
/// merge gains or `budget` box searches are spent. Returns the shorter moves, or `None`.
pub fn merge_macros(
    board: &Board,
    start: &Position,
    moves: &[Move],
    budget: u64,
) -> Option<Vec<Move>> {
    let mut budget = budget;
    let mut macros = macros_of(board, start, moves)?;
    macros.retain(|m| m.from != m.to);
    let mut best = play(board, start, &macros, None, &mut budget)?;
    let original = (moves.iter().filter(|m| m.push).count(), moves.len());
    let mut improved = true;
    while improved && budget > 0 {
        improved = false;
        let mut i = 0;
        while i < macros.len() && budget > 0 {
            let sq = macros[i].to;
            let next = (i + 1..macros.len()).find(|&k| macros[k].from == sq);
            let mut gained = false;
            // Merge with the box's next move, early or late; or swap with the next move
            // of another box (less walking, and merges it makes possible).
            for change in [Change::Early, Change::Late, Change::Swap] {
                let mut cand = macros.clone();
                match (change, next) {
                    (Change::Early, Some(k)) => {
                        cand[i].to = cand[k].to;
                        cand.remove(k);
                    }
                    (Change::Late, Some(k)) => {
                        cand[k].from = cand[i].from;
                        cand.remove(i);
                    }
                    (Change::Swap, _) if i + 1 < cand.len() && next != Some(i + 1) => {
                        cand.swap(i, i + 1);
                    }
                    _ => continue,
                }
                cand.retain(|m| m.from != m.to);
                let Some(p) = play(board, start, &cand, Some((&best, i)), &mut budget) else {
                    continue;
                };
                if p.cost() < best.cost() {
                    macros = cand;
                    best = p;
                    gained = true;
                    improved = true;
                    break;
                }
            }
            if !gained {
                i += 1;
            }
        }
    }
    (best.cost() < original).then_some(best.moves)
}

/// Positions the push shortcuts may search for each box search the macro merging may make:
/// the budget `effort` of [`shorten_solution`] counts box searches. A box search and a
/// position searched each cost about one flood of the board, so the pass's time grows
/// with the board's size.
const POSITIONS_PER_EFFORT: u64 = 20;

/// Shorten `sol`, a solution of `level` from its start (`p`: the level's problem, possibly
/// with boxes frozen on goals made walls), with an effort of `effort` box searches (and
/// `POSITIONS_PER_EFFORT` (20) times as many positions): merged macro moves
/// ([`merge_macros`]), then shortcuts between its positions ([`shorten`]) and, when they
/// gain, merged macro moves again. The shortest (pushes, then moves) is replayed by the
/// rules engine and returned with [`Solution::found`] set; `sol` when nothing shorter
/// replays.
pub fn shorten_solution(level: &Level, p: &Problem, sol: Solution, effort: u64) -> Solution {
    let cost = |s: &Solution| (s.pushes, s.moves.len());
    let searches = effort.max(1);
    let mut best = merged(level, &sol, searches).unwrap_or_else(|| sol.clone());
    if let Some((player, boxes, pushes)) = compact_pushes(level, p, &best.moves) {
        let short = shorten(p, player, &boxes, &pushes, effort * POSITIONS_PER_EFFORT);
        if short.len() < pushes.len() {
            if let Ok(s) = build_solution(level, p, &short) {
                let s = merged(level, &s, searches).unwrap_or(s);
                if cost(&s) < cost(&best) {
                    best = s;
                }
            }
        }
    }
    if cost(&best) < cost(&sol) {
        let mut game = Game::new(level.clone());
        if game.play(&best.moves).is_ok() && game.is_solved() {
            best.found = Some(cost(&sol));
            return best;
        }
    }
    sol
}

/// `sol` with its macro moves merged ([`merge_macros`]); `None` when nothing was gained.
fn merged(level: &Level, sol: &Solution, searches: u64) -> Option<Solution> {
    let moves = merge_macros(&level.board, &level.start, &sol.moves, searches)?;
    let pushes = moves.iter().filter(|m| m.push).count();
    Some(Solution { pushes, moves, found: None })
}

/// The player, the boxes that move (compact squares: boxes on walls of `p` are left out)
/// and the pushes of `moves` from the level's start. `None` when the moves do not play.
fn compact_pushes(
    level: &Level,
    p: &Problem,
    moves: &[Move],
) -> Option<(u16, Vec<u16>, Vec<Push>)> {
    let board = &level.board;
    let mut pos = level.start.clone();
    let player = p.compact[pos.player];
    let boxes: Vec<u16> =
        pos.box_squares().iter().map(|&b| p.compact[b]).filter(|&b| b != NONE).collect();
    let mut pushes = Vec::new();
    for m in moves {
        if m.push {
            let b = board.neighbor(pos.player, m.dir)?;
            let c = p.compact[b];
            if c == NONE {
                return None;
            }
            pushes.push((c, m.dir.index() as u8));
        }
        pos.apply(board, m.dir)?;
    }
    (player != NONE).then_some((player, boxes, pushes))
}
