//! Shared by the solver's test files: a brute-force solver, project-written levels and
//! random level generators.

#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};

use sokoban_core::{Dir, Game, Grid, Level, Move, Position, Tile};

/// Fewest pushes by BFS over (sorted boxes, normalized player square); `None` if unsolvable.
pub fn brute_force(level: &Level) -> Option<usize> {
    let b = &level.board;
    let norm = |p: &Position| -> (Vec<usize>, usize) {
        let reach = p.reachable(b);
        let min = (0..b.len()).find(|&s| reach[s]).unwrap();
        (p.box_squares(), min)
    };
    let start = level.start.clone();
    let mut seen: HashMap<(Vec<usize>, usize), usize> = HashMap::new();
    let mut queue = VecDeque::new();
    seen.insert(norm(&start), 0);
    queue.push_back(start);
    while let Some(p) = queue.pop_front() {
        let d = seen[&norm(&p)];
        if p.is_solved(b) {
            return Some(d);
        }
        let reach = p.reachable(b);
        for s in 0..b.len() {
            if !p.boxes[s] {
                continue;
            }
            for dir in Dir::ALL {
                let (Some(behind), Some(to)) =
                    (b.floor_neighbor(s, dir.opposite()), b.floor_neighbor(s, dir))
                else {
                    continue;
                };
                if !reach[behind] || p.boxes[to] {
                    continue;
                }
                let mut q = p.clone();
                q.boxes[s] = false;
                q.boxes[to] = true;
                q.player = s;
                if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(norm(&q)) {
                    e.insert(d + 1);
                    queue.push_back(q);
                }
            }
        }
    }
    None
}

/// Project-written levels (small, with known structure).
pub const LEVELS: &[&str] = &[
    // A corridor push.
    "#######\n#@ $ .#\n#######",
    // Two boxes, goals around a pillar.
    "#######\n#.  $ #\n# #@  #\n#  $. #\n#######",
    // Needs the player to walk around a box to change push direction.
    "  #####\n###   #\n#  $# #\n# #  .#\n#  @  #\n#######",
    // Three boxes in a room.
    "########\n#  .   #\n# $$ @ #\n#  .#  #\n# $  . #\n########",
    // Box in a tunnel with the goal at the end.
    "#########\n#@$    .#\n#### ####\n   #  #\n   ####",
    // Boxes that must be pushed in the right order into a dead end.
    "#######\n#..$$@#\n#  #  #\n#     #\n#######",
    // Unsolvable: the box starts against a wall away from the goal row.
    "######\n#$   #\n#  . #\n# @  #\n######",
    // Unsolvable: two boxes frozen together off goals.
    "#######\n#  $$ #\n#  .. #\n#  @  #\n#######\n",
    // A player on a goal and a box on a goal.
    "######\n#+$ *#\n# $. #\n#    #\n######",
    // A block of boxes on goals that can never move (it becomes walls): the free box must
    // go round it.
    "########\n#      #\n# **   #\n# **$ .#\n#@     #\n########",
    // Every box fixed on a goal: solved with no push.
    "######\n#@ **#\n#  **#\n######",
    // Fixed boxes on goals that wall off a dead end: the box must not go there.
    "#######\n#**   #\n#**$ .#\n#  @  #\n#######",
];

pub struct XorShift(pub u64);
impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random small level: a walled room with random inner walls (`wall_pct` percent of the
/// inner squares: many walls give corridors and doorways), boxes, goals and player.
pub fn random_level(rng: &mut XorShift, wall_pct: usize, max_boxes: usize) -> Option<Level> {
    let w = 5 + rng.below(3) + max_boxes / 4;
    let h = 5 + rng.below(3) + max_boxes / 4;
    let mut rows = vec![vec![Tile::Wall; w]; h];
    let mut free = Vec::new();
    for (r, row) in rows.iter_mut().enumerate().take(h - 1).skip(1) {
        for (c, t) in row.iter_mut().enumerate().take(w - 1).skip(1) {
            if rng.below(100) < wall_pct {
                continue;
            }
            *t = Tile::Floor;
            free.push((r, c));
        }
    }
    let nboxes = 1 + rng.below(max_boxes);
    if free.len() < 2 * nboxes + 1 {
        return None;
    }
    // Pick distinct squares: boxes, goals (may coincide with boxes), player.
    let mut pick = |rng: &mut XorShift| free.swap_remove(rng.below(free.len()));
    let boxes: Vec<_> = (0..nboxes).map(|_| pick(rng)).collect();
    let player = pick(rng);
    let mut goals = Vec::new();
    for _ in 0..nboxes {
        if rng.below(5) == 0 {
            // A goal under a box not yet used as a goal.
            if let Some(&b) = boxes.iter().find(|b| !goals.contains(*b)) {
                goals.push(b);
                continue;
            }
        }
        goals.push(pick(rng));
    }
    for &(r, c) in &boxes {
        rows[r][c] = Tile::Box;
    }
    for &(r, c) in &goals {
        rows[r][c] = if rows[r][c] == Tile::Box { Tile::BoxOnGoal } else { Tile::Goal };
    }
    rows[player.0][player.1] = Tile::Player;
    let n = rows.len();
    Grid { rows, title: None, lines: vec![None; n] }.validate().ok()
}

/// A random level solvable by construction: boxes start on the goals of a random room and
/// the player walks and pulls them away at random (a pull is a push played backwards).
/// Crowded rooms give corrals that close for good and boxes frozen on goals that wall off
/// other goals, where the corral deadlock search and the frozen-goal check prune.
pub fn random_pulled_level(rng: &mut XorShift, two_rooms: bool) -> Option<Level> {
    let (w, h) = if two_rooms {
        (11 + rng.below(3), 6 + rng.below(2))
    } else {
        (7 + rng.below(3), 7 + rng.below(3))
    };
    // Two rooms: a wall down the middle with one door, two goals on each side.
    let (mid, door) = if two_rooms { (w / 2, 1 + rng.below(h - 2)) } else { (0, 0) };
    let wall_pct = if two_rooms { 10 } else { 20 };
    let mut floor = vec![vec![false; w]; h];
    let mut free = Vec::new();
    for (r, row) in floor.iter_mut().enumerate().take(h - 1).skip(1) {
        for (c, f) in row.iter_mut().enumerate().take(w - 1).skip(1) {
            let open = if two_rooms && c == mid { r == door } else { rng.below(100) >= wall_pct };
            if open {
                *f = true;
                free.push((r, c));
            }
        }
    }
    let nboxes = if two_rooms { 4 } else { 3 + rng.below(4) };
    if free.len() < nboxes + 4 {
        return None;
    }
    let goals: Vec<(usize, usize)> = if two_rooms {
        let mut side = |left: bool, rng: &mut XorShift| {
            let cands: Vec<usize> = (0..free.len())
                .filter(|&i| (free[i].1 < mid) == left && free[i].1 != mid)
                .collect();
            let i = cands[rng.below(cands.len())];
            free.swap_remove(i)
        };
        vec![side(true, rng), side(true, rng), side(false, rng), side(false, rng)]
    } else {
        (0..nboxes).map(|_| free.swap_remove(rng.below(free.len()))).collect()
    };
    let mut boxes = goals.clone();
    let mut player = free[rng.below(free.len())];
    let open =
        |(r, c): (usize, usize), boxes: &[(usize, usize)]| floor[r][c] && !boxes.contains(&(r, c));
    for _ in 0..100 + rng.below(200) {
        let (dr, dc) = [(-1isize, 0isize), (0, 1), (1, 0), (0, -1)][rng.below(4)];
        let to = ((player.0 as isize + dr) as usize, (player.1 as isize + dc) as usize);
        if !open(to, &boxes) {
            continue;
        }
        let behind = ((player.0 as isize - dr) as usize, (player.1 as isize - dc) as usize);
        if rng.below(2) == 0 {
            if let Some(b) = boxes.iter_mut().find(|b| **b == behind) {
                *b = player;
            }
        }
        player = to;
    }
    if boxes.iter().all(|b| goals.contains(b)) {
        return None;
    }
    let mut rows = vec![vec![Tile::Wall; w]; h];
    for (r, row) in rows.iter_mut().enumerate() {
        for (c, t) in row.iter_mut().enumerate() {
            if floor[r][c] {
                *t = Tile::Floor;
            }
        }
    }
    for &(r, c) in &goals {
        rows[r][c] = Tile::Goal;
    }
    for &(r, c) in &boxes {
        rows[r][c] = if rows[r][c] == Tile::Goal { Tile::BoxOnGoal } else { Tile::Box };
    }
    rows[player.0][player.1] =
        if rows[player.0][player.1] == Tile::Goal { Tile::PlayerOnGoal } else { Tile::Player };
    let n = rows.len();
    Grid { rows, title: None, lines: vec![None; n] }.validate().ok()
}

/// Replay a solution with the rules engine: it must be legal and solve the level. Returns
/// its pushes.
pub fn replays(level: &Level, moves: &[Move], name: &str) -> usize {
    let mut g = Game::new(level.clone());
    g.play(moves).unwrap_or_else(|e| panic!("{name}: the solution does not replay: {e}"));
    assert!(g.is_solved(), "{name}: the solution does not solve");
    g.pushes()
}

/// Every project level, parsed.
pub fn project_levels() -> impl Iterator<Item = (usize, Level)> {
    LEVELS.iter().enumerate().map(|(i, text)| {
        let level = sokoban_core::format::parse_level(text)
            .unwrap_or_else(|e| panic!("project level {i}: {e}"));
        (i, level)
    })
}

/// A goal room and eight boxes.
pub const ROOM: &str = "\
##########
#....    #
#....  # #
###  ##  #
#  $ $ $ #
# $ $  $ #
#  $@ $  #
#        #
##########";
