//! Fuzz targets for the Sokoban crates: every entry point that reads outside input or that
//! the page calls with squares and move strings it got from the user.
//!
//! - [`formats`]: format detection, every parser, level validation, every writer (a valid
//!   level must read back as itself from each), LURD and run-length LURD (both must read
//!   back as the same moves).
//! - [`session`]: what the page's wasm `Session` does, on the Rust types it wraps: steps,
//!   undo, redo, restart, groups, walks to any square, box reach and box paths from and to
//!   any square, deadlock marks, replay of arbitrary LURD text, restore from history. After
//!   every call the position must still be a position of the level, and undoing everything
//!   must lead back to where the line started.
//! - [`solver`]: both searches ([`Mode::Optimal`], [`Mode::Fast`]) on tiny levels made from
//!   the bytes, from the start or from a position a few moves in, with tiny budgets. Every
//!   solution must replay with the rules engine and solve the level; the two searches must
//!   not contradict each other (one proves no solution, the other finds one; the fast one
//!   finds fewer pushes than the optimal one).
//!
//! Each target panics on a broken rule, so libFuzzer (`fuzz/`, `cargo fuzz run`) and the
//! smoke test (`tests/smoke.rs`, plain `cargo test`) both catch it. [`all`] dispatches on
//! the first byte so one run covers the three.

use sokoban_core::format::{self, Input};
use sokoban_core::{lurd, Dir, Game, Grid, Level, Move, Position, Tile};
use sokoban_path::BoxSearch;
use sokoban_solver::{Mode, Options, Status, StdClock};

/// Levels written for this project (the page's built-in levels and test levels), used as
/// seeds and by the session target.
pub const LEVELS: &[&str] = &[
    "#######\n#@ $ .#\n#######",
    "#######\n#.  $ #\n# #@  #\n#  $. #\n#######",
    "  #####\n###   #\n#  $# #\n# .@  #\n#  $. #\n##   ##\n #####",
    " #######\n #  .  #\n##$##$ #\n#  @ . #\n# .# $ #\n#     ##\n#######",
    "#########\n#       #\n#  .$.  #\n#  $@$  #\n#  .$.  #\n#       #\n#########",
    "   ####\n####  ###\n#   $   #\n# #.#.# #\n#  $@$  #\n# #.#.# #\n#   $   #\n###   ###\n  #####",
    "########\n#  .   #\n# $$ @ #\n#  .#  #\n# $  . #\n########",
    "  #####\n###   #\n#.@$  #\n### $.#\n#.##$ #\n# # . ##\n#$ *$$.#\n#   .  #\n########",
    "#####\n#@$.#\n#####",
    "######\n#    #\n# #@ #\n# $* #\n# .* #\n#    #\n######",
];

/// Other inputs the page reads: the same levels in other formats, collections, solutions.
pub const TEXTS: &[&str] = &[
    "7#|#.2-$-#|#-#@2-#|#2-$.-#|7#",
    "http://sokoban.ws/sokoplayer/?w=4&h=9&lvl=HHHH|H__H|H__H|H__H|H__H|HH$H|_HaH|_H.H|_HHH",
    "[soko=4,3]HHHH|Ha$.|HHHH[/soko]",
    "https://example.org/?level=%23%23%23%23%23%0A%23%40%24.%23%0A%23%23%23%23%23",
    "https://example.org/?base64=IyMjIyMKI0AkLiMKIyMjIyM",
    "; 1\nTitle: A\n#####\n#@$.#\n#####\n\n; 2\n#####\n#.$@#\n#####\n",
    "Title line\n#####\n#@$.#\n#####\n\nSecond\n######\n#@ $.#\n######\n",
    "uurrDDl2(lu)3R",
    "3l2U\nR2(lu)",
    "lURD",
    "4(#-)|#@$.#|5#",
];

/// Reads bytes one at a time; zeros once they run out.
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, at: 0 }
    }

    /// The next byte (0 past the end).
    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    /// A number in `0..n` from two bytes (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        let v = (self.byte() as usize) << 8 | self.byte() as usize;
        v % n.max(1)
    }

    pub fn is_empty(&self) -> bool {
        self.at >= self.data.len()
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        &self.data[self.at.min(self.data.len())..]
    }

    /// Up to `n` next bytes.
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let start = self.at.min(self.data.len());
        let end = (start + n).min(self.data.len());
        self.at = end;
        &self.data[start..end]
    }
}

/// A tiny level drawn from the bytes: inside a wall border, up to `max_side` by `max_side`
/// squares, about a quarter of them walls, 1 to `max_boxes` boxes and as many goals.
/// `None` when the drawing is not a valid level (the player shut in, too few squares...).
#[allow(clippy::needless_range_loop)] // rows and columns of a drawing
pub fn tiny_level(b: &mut Bytes, max_side: usize, max_boxes: usize) -> Option<Level> {
    let w = 1 + b.byte() as usize % max_side;
    let h = 1 + b.byte() as usize % max_side;
    let mut rows = vec![vec!['#'; w + 2]; h + 2];
    let mut floor = Vec::new();
    let mut bits = 0u32;
    let mut left = 0;
    for r in 1..=h {
        for c in 1..=w {
            if left == 0 {
                bits = b.byte() as u32;
                left = 4;
            }
            // Two bits per square: one in four is a wall.
            if bits & 3 != 0 {
                rows[r][c] = ' ';
                floor.push((r, c));
            }
            bits >>= 2;
            left -= 1;
        }
    }
    let boxes = 1 + b.byte() as usize % max_boxes.max(1);
    if floor.len() < boxes + 1 {
        return None;
    }
    // Player and boxes on distinct squares, goals anywhere on the floor.
    for i in 0..=boxes {
        let j = i + b.below(floor.len() - i);
        floor.swap(i, j);
    }
    let (pr, pc) = floor[0];
    rows[pr][pc] = '@';
    for &(r, c) in &floor[1..=boxes] {
        rows[r][c] = '$';
    }
    let mut goals = 0;
    let mut tries = 0;
    while goals < boxes && tries < 64 {
        tries += 1;
        let (r, c) = floor[b.below(floor.len())];
        let t = match rows[r][c] {
            ' ' => '.',
            '$' => '*',
            '@' => '+',
            _ => continue,
        };
        rows[r][c] = t;
        goals += 1;
    }
    let text: String = rows.iter().map(|row| row.iter().collect::<String>() + "\n").collect();
    level_from_xsb(&text)
}

/// A level from plain XSB rows, or `None` when it is not valid.
pub fn level_from_xsb(text: &str) -> Option<Level> {
    let rows: Option<Vec<Vec<Tile>>> =
        text.lines().map(|l| l.chars().map(Tile::from_xsb).collect()).collect();
    let rows = rows?;
    let n = rows.len();
    Grid { rows, title: None, lines: vec![None; n] }.validate().ok()
}

/// Check that `level` reads back as itself from every format the writers make.
pub fn check_round_trips(level: &Level) {
    let same = |what: &str, text: &str| {
        let back = format::parse_level(text)
            .unwrap_or_else(|e| panic!("{what} of a valid level does not read back: {e}\n{text}"));
        assert_eq!(back.board, level.board, "{what} changed the board:\n{text}");
        assert_eq!(back.start, level.start, "{what} changed the start:\n{text}");
    };
    same("XSB", &format::to_xsb(level));
    same("run-length", &format::to_rle(level));
    same("MF8", &format::to_mf8(level));
    same("SokoPlayer link", &format::to_sokoplayer_url(level, "http://sokoban.ws/sokoplayer/"));
    same("[soko] wrapper", &format::to_soko_wrapper(level));
    same("SokobanScript link", &format::to_sokobanscript_level_url(level, "https://x.org/"));
    same("base64 link", &format::to_sokobanscript_base64_url(level, "https://x.org/"));
    same("collection", &format::to_collection(std::slice::from_ref(level)));
    // A position of the level prints and reads back as a level with that start.
    let _ = format::position_to_xsb(level, &level.start);
    let _ = format::position_to_rle(level, &level.start);
}

/// Longest move list whose round trips the targets check (longer ones, up to the parser's
/// 16 Mi budget, are parsed but not printed back: that would only slow the run down).
pub const ROUND_TRIP_MOVES: usize = 100_000;

/// Check that moves print and read back as themselves, plain and run-length.
pub fn check_lurd_round_trip(moves: &[Move]) {
    if moves.len() > ROUND_TRIP_MOVES {
        return;
    }
    let plain = lurd::to_lurd(moves);
    assert_eq!(plain.chars().count(), moves.len());
    assert_eq!(lurd::parse_lurd(&plain).expect("plain LURD reads back"), moves, "{plain}");
    let rle = lurd::to_rle_lurd(moves);
    assert!(rle.len() <= plain.len().max(1), "run-length is longer: {rle}");
    assert_eq!(lurd::parse_lurd(&rle).expect("run-length LURD reads back"), moves, "{rle}");
}

/// Target: format detection, every parser, validation, writers, LURD.
pub fn formats(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = format::detect(&text);
    match format::parse_input(&text) {
        Ok(Input::Levels(c)) => {
            for e in &c.entries {
                match e.level() {
                    Ok(level) => check_round_trips(&level),
                    Err(err) => assert!(!err.message.is_empty(), "an error without a message"),
                }
            }
        }
        Ok(Input::Solution(m)) => check_lurd_round_trip(&m),
        Err(err) => assert!(!err.message.is_empty(), "an error without a message: {text:?}"),
    }
    match format::parse_level(&text) {
        Ok(level) => check_round_trips(&level),
        Err(err) => assert!(!err.message.is_empty()),
    }
    if let Ok(m) = lurd::parse_lurd(&text) {
        check_lurd_round_trip(&m);
    }
    let _ = lurd::is_lurd(&text);
}

/// The level a session input starts with: a tiny drawn level, a project level, or text in
/// any format (up to a 0xFF byte).
fn session_level(b: &mut Bytes) -> Option<Level> {
    match b.byte() % 4 {
        0 | 1 => tiny_level(b, 8, 4),
        2 => {
            let i = b.byte() as usize % LEVELS.len();
            format::parse_level(LEVELS[i]).ok()
        }
        _ => {
            let rest = b.rest();
            let end = rest.iter().position(|&x| x == 0xFF).unwrap_or(rest.len());
            let text = String::from_utf8_lossy(b.take(end)).into_owned();
            b.take(1);
            format::parse_level(&text).ok()
        }
    }
}

/// The page's `parse_moves`: LURD letters with the push flags of what actually happens.
fn moves_from_here(game: &Game, text: &str) -> Option<Vec<Move>> {
    let moves = lurd::parse_lurd(text).ok()?;
    let board = &game.level().board;
    let mut p = game.position().clone();
    let mut out = Vec::with_capacity(moves.len());
    for m in &moves {
        out.push(p.apply(board, m.dir)?);
    }
    Some(out)
}

/// The position is one of the level: player on a free floor square, boxes on floor, as many
/// boxes as at the start.
fn check_position(level: &Level, pos: &Position) {
    let board = &level.board;
    assert_eq!(pos.boxes.len(), board.len());
    assert!(board.is_floor(pos.player) && !pos.boxes[pos.player], "player off the floor");
    let boxes = pos.box_squares();
    assert!(boxes.iter().all(|&s| board.is_floor(s)), "a box off the floor");
    assert_eq!(boxes.len(), level.start.box_count(), "the number of boxes changed");
}

/// A square: mostly one of the board, now and then one past its end.
fn any_square(b: &mut Bytes, len: usize) -> usize {
    b.below(len + 4)
}

/// Target: the page's Session calls on the Rust types it wraps.
pub fn session(data: &[u8]) {
    let mut b = Bytes::new(data);
    let Some(level) = session_level(&mut b) else { return };
    let board = level.board.clone();
    let mut game = Game::new(level.clone());
    let mut drag: Option<BoxSearch> = None;
    let mut deadlocks: Option<sokoban_solver::Deadlocks> = None;
    let mut ops = 0;
    while !b.is_empty() && ops < 200 {
        ops += 1;
        match b.byte() % 18 {
            d @ 0..=3 => {
                let before = game.position().clone();
                if let Some(m) = game.step(Dir::from_index(d as usize)) {
                    assert_ne!(game.position(), &before);
                    assert_eq!(m.dir.index(), d as usize);
                }
                drag = None;
            }
            4 => {
                game.undo();
                drag = None;
            }
            5 => {
                game.redo();
                drag = None;
            }
            6 => {
                game.restart();
                drag = None;
            }
            7 => {
                game.undo_all();
                drag = None;
            }
            8 => {
                game.redo_all();
                drag = None;
            }
            9 => game.begin_group(),
            10 => game.end_group(),
            11 => {
                // walkTo: the path is a walk that ends on the square.
                let t = any_square(&mut b, board.len());
                if t < board.len() {
                    if let Some(path) = sokoban_path::walk_path(&board, game.position(), t) {
                        let mut p = game.position().clone();
                        for d in &path {
                            let m = p.apply(&board, *d).expect("a walk step is legal");
                            assert!(!m.push, "a walk pushed a box");
                        }
                        assert_eq!(p.player, t);
                        if b.byte() & 1 == 0 {
                            game.begin_group();
                            for d in path {
                                game.step(d).expect("walk replays");
                            }
                            game.end_group();
                            drag = None;
                        }
                    }
                }
            }
            12 => {
                // boxReach on any square.
                let s = any_square(&mut b, board.len());
                if s < board.len() && game.position().has_box(s) {
                    let search = BoxSearch::new(&board, game.position(), s);
                    let reach = search.reachable();
                    assert!(reach.contains(&s), "a box can stay where it is");
                    for &t in &reach {
                        assert!(board.is_floor(t));
                        assert!(search.can_reach(t));
                    }
                    drag = Some(search);
                }
            }
            13 => {
                // boxPath from a box (or any square) to any square, then play it.
                let boxes = game.position().box_squares();
                let from = if b.byte() & 3 == 0 {
                    any_square(&mut b, board.len())
                } else {
                    boxes[b.below(boxes.len())]
                };
                let to = any_square(&mut b, board.len());
                if from < board.len() && to < board.len() && game.position().has_box(from) {
                    let reuse = drag.as_ref().is_some_and(|s| s.box_square() == from);
                    if !reuse {
                        drag = Some(BoxSearch::new(&board, game.position(), from));
                    }
                    let search = drag.as_ref().unwrap();
                    let path = search.path_to(to);
                    assert_eq!(path.is_some(), search.can_reach(to), "path and reach agree");
                    if let Some(moves) = path {
                        let pushes = moves.iter().filter(|m| m.push).count();
                        assert_eq!(Some(pushes), search.pushes_to(to));
                        game.check_moves(&moves).expect("a box path is legal");
                        game.begin_group();
                        game.play(&moves).expect("a box path plays");
                        game.end_group();
                        assert!(game.position().has_box(to), "the box ends on the target");
                        drag = None;
                    }
                }
            }
            14 => {
                // playLurd / checkLurd on arbitrary text.
                let n = b.byte() as usize % 48;
                let text = String::from_utf8_lossy(b.take(n)).into_owned();
                let parsed = lurd::parse_lurd(&text);
                if parsed.as_ref().is_ok_and(|m| m.len() > ROUND_TRIP_MOVES) {
                    // A huge list (up to 16 Mi moves) is checked, not kept in the history.
                    let m = parsed.unwrap();
                    let _ = game.check_moves(&m);
                } else if let Some(moves) = moves_from_here(&game, &text) {
                    game.check_moves(&moves).expect("moves made from here check");
                    let before = game.moves();
                    game.play(&moves).expect("moves made from here play");
                    assert_eq!(game.moves(), before + moves.len());
                    drag = None;
                } else if let Ok(moves) = parsed {
                    // Not playable from here: play must refuse it and change nothing.
                    let before = game.position().clone();
                    let (m, p) = (game.moves(), game.pushes());
                    assert!(game.play(&moves).is_err(), "blocked moves played");
                    assert_eq!((game.position(), game.moves(), game.pushes()), (&before, m, p));
                }
            }
            15 => {
                // deadlocks(): marks only boxes.
                let checker =
                    deadlocks.get_or_insert_with(|| sokoban_solver::Deadlocks::new(&level));
                for (s, _) in checker.check(game.position()) {
                    assert!(game.position().has_box(s), "a deadlock mark off a box");
                }
            }
            16 => {
                // restore from the saved history: the same position, the same redo list.
                let line = lurd::to_lurd(game.line());
                let redo = lurd::to_lurd(&game.redo_moves());
                let l = lurd::parse_lurd(&line).expect("history reads back");
                let r = lurd::parse_lurd(&redo).expect("redo list reads back");
                let g = Game::restore(level.clone(), &l, &r).expect("history restores");
                assert_eq!(g.position(), game.position());
                assert_eq!((g.moves(), g.pushes()), (game.moves(), game.pushes()));
            }
            _ => {
                // walkTo on a square off the board or a wall: nothing.
                let t = any_square(&mut b, board.len());
                if t >= board.len() || !board.is_floor(t) {
                    assert!(sokoban_path::walk_path(&board, game.position(), t).is_none());
                }
            }
        }
        check_position(&level, game.position());
        let solved = game.position().is_solved(&board);
        assert_eq!(game.is_solved(), solved);
    }
    // Undoing the whole line leads back to where it started; redo all returns here.
    let end = game.position().clone();
    let (m, p) = (game.moves(), game.pushes());
    let undone = game.undo_all();
    assert_eq!(undone, m);
    let line_start = game.position().clone();
    assert_eq!(game.moves(), 0);
    assert_eq!(game.pushes(), 0);
    // The line of a game always starts at the level's start (a restart starts a new one).
    assert_eq!(line_start, level.start);
    game.redo_all();
    if game.moves() == m {
        assert_eq!((game.position(), game.pushes()), (&end, p));
    }
}

/// Options of a tiny search.
fn tiny_options(mode: Mode, nodes: u64) -> Options {
    Options {
        time_limit_ms: Some(2000.0),
        node_limit: Some(nodes),
        table_mib: 1,
        progress_interval_ms: 1e9,
        mode,
        ..Options::default()
    }
}

/// Run one search; check a solution with the rules engine. Returns the status and pushes.
fn run_search(level: &Level, pos: &Position, options: Options) -> Option<(Status, usize)> {
    let clock = StdClock::new();
    let report = sokoban_solver::solve(level, pos, options, &clock, |_| true).ok()?;
    assert_ne!(report.status, Status::Error, "a solution failed replay: {:?}", report.error);
    let pushes = match (&report.status, &report.solution) {
        (Status::Solved, Some(s)) => {
            let mut start = level.clone();
            start.start = pos.clone();
            let mut game = Game::new(start);
            game.play(&s.moves).expect("a solution replays");
            assert!(game.is_solved(), "a solution does not solve the level");
            assert_eq!(game.pushes(), s.pushes, "push count of a solution");
            s.pushes
        }
        (Status::Solved, None) => panic!("solved without a solution"),
        (_, Some(_)) => panic!("a solution with status {:?}", report.status),
        _ => 0,
    };
    Some((report.status, pushes))
}

/// Target: both searches on a tiny level with tiny budgets.
pub fn solver(data: &[u8]) {
    let mut b = Bytes::new(data);
    let Some(level) = tiny_level(&mut b, 5, 3) else { return };
    // From the start, or from a position a few moves in (the page solves from where the
    // player is).
    let mut pos = level.start.clone();
    for _ in 0..b.byte() % 8 {
        pos.apply(&level.board, Dir::from_index(b.byte() as usize));
    }
    let opt_nodes = 50 + b.below(1_000) as u64;
    let fast_nodes = 5 + b.below(40) as u64;
    let opt = run_search(&level, &pos, tiny_options(Mode::Optimal, opt_nodes));
    let fast = run_search(&level, &pos, tiny_options(Mode::Fast, fast_nodes));
    if let (Some((os, op)), Some((fs, fp))) = (opt, fast) {
        match (os, fs) {
            (Status::Unsolvable, Status::Solved) | (Status::Solved, Status::Unsolvable) => {
                panic!(
                    "the searches disagree: optimal {os:?}, fast {fs:?}\n{}",
                    format::position_to_xsb(&level, &pos)
                )
            }
            (Status::Solved, Status::Solved) => assert!(
                fp >= op,
                "the fast search found {fp} pushes, the optimal one {op}\n{}",
                format::position_to_xsb(&level, &pos)
            ),
            _ => {}
        }
    }
}

/// Which target of [`all`] a first byte picks: 0 formats, 1 session, 2 solver. The solver
/// gets a quarter of the inputs (an input costs it about 20 times more than the others).
pub fn target_of(first: u8) -> usize {
    match first % 8 {
        0 | 3 | 6 => 0,
        1 | 4 | 7 => 1,
        _ => 2,
    }
}

/// All three targets: the first byte picks one ([`target_of`]).
pub fn all(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else { return };
    match target_of(which) {
        0 => formats(rest),
        1 => session(rest),
        _ => solver(rest),
    }
}

/// The seed corpus: inputs for [`all`] (first byte: the target) made from project-written
/// levels in every format, solutions, and byte strings that draw tiny levels.
pub fn seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let with = |t: u8, body: &[u8]| [&[t][..], body].concat();
    for text in LEVELS {
        out.push(with(0, text.as_bytes()));
        if let Ok(level) = format::parse_level(text) {
            for s in [
                format::to_rle(&level),
                format::to_mf8(&level),
                format::to_sokoplayer_url(&level, "http://sokoban.ws/sokoplayer/"),
                format::to_soko_wrapper(&level),
                format::to_sokobanscript_base64_url(&level, "https://x.org/"),
            ] {
                out.push(with(0, s.as_bytes()));
            }
        }
    }
    for text in TEXTS {
        out.push(with(0, text.as_bytes()));
    }
    // Sessions: each project level with a mix of calls.
    for i in 0..LEVELS.len() as u8 {
        out.push(with(
            1,
            &[
                2, i, 0, 1, 2, 3, 4, 5, 12, 0, 20, 13, 1, 0, 0, 30, 14, 6, b'u', b'l', b'R', b'D',
                b'2', b'L', 16, 6, 4, 7, 8,
            ],
        ));
    }
    // Sessions on drawn levels and on text.
    for k in 0..16u8 {
        let mut v = vec![0, 5, 5];
        v.extend((0..12u8).map(|j| k.wrapping_mul(37).wrapping_add(j.wrapping_mul(11))));
        v.extend([0, 1, 2, 3, 11, 0, 9, 0, 13, 1, 0, 0, 14, 15, 16, 4, 4]);
        out.push(with(1, &v));
    }
    out.push(with(1, b"\x03#####\n#@$.#\n#####\xff\x01\x01\x04\x05"));
    // Solver inputs: drawn levels of different sizes and box counts.
    for k in 0..24u8 {
        let mut v = vec![k % 6, (k / 2) % 6];
        v.extend((0..12u8).map(|j| k.wrapping_mul(53).wrapping_add(j.wrapping_mul(29)) | 0x55));
        v.extend([k % 3, k, k.wrapping_mul(7), k, 3, 2, k, 0, 40, 0, 100]);
        out.push(with(2, &v));
    }
    out
}

/// A mutation of `input` for the smoke run (xorshift `state`): byte flips, inserts,
/// removals, copies of a slice, splices of characters that matter to the formats.
pub fn mutate(input: &[u8], state: &mut u64) -> Vec<u8> {
    const DICT: &[u8] = b"#@+$*. -_|Hax0123456789()\n;:=&?%lurdLURD[]/soko,";
    let mut next = || {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    };
    let mut v = input.to_vec();
    for _ in 0..1 + next() % 4 {
        let i = if v.is_empty() { 0 } else { (next() % (v.len() as u64 + 1)) as usize };
        match next() % 5 {
            0 if i < v.len() => {
                v.remove(i);
            }
            1 => v.insert(i, DICT[(next() % DICT.len() as u64) as usize]),
            2 if i < v.len() => v[i] = next() as u8,
            3 if i < v.len() => v[i] ^= 1 << (next() % 8),
            4 if !v.is_empty() => {
                let a = (next() % v.len() as u64) as usize;
                let n = (next() % 8) as usize;
                let piece: Vec<u8> = v[a..(a + n).min(v.len())].to_vec();
                let at = i.min(v.len());
                v.splice(at..at, piece);
            }
            _ => v.push(next() as u8),
        }
    }
    v
}

/// A plain mutation run (no coverage guidance): `n` inputs, each a mutation of a seed or of
/// an earlier input, through `target`. `strip` drops the seeds' first byte (the target
/// number of [`all`]) for a single target. Panics on an input that takes over a second.
/// Returns the slowest input's time and the total time.
pub fn mutation_run(
    target: fn(&[u8]),
    strip: bool,
    n: u64,
    seed: u64,
) -> (std::time::Duration, std::time::Duration) {
    let mut pool: Vec<Vec<u8>> =
        seeds().into_iter().map(|s| if strip { s[1..].to_vec() } else { s }).collect();
    let base = pool.len();
    let mut state = seed | 1;
    let t0 = std::time::Instant::now();
    let mut slowest = std::time::Duration::ZERO;
    for i in 0..n {
        let k = (i as usize * 7919 + (state as usize >> 3)) % pool.len();
        let input = mutate(&pool[k], &mut state);
        let t = std::time::Instant::now();
        target(&input);
        let took = t.elapsed();
        assert!(took.as_secs_f64() < 1.0, "input took {took:?}: {input:?}");
        slowest = slowest.max(took);
        // Keep some mutants to mutate further; the seeds stay.
        if i % 16 == 0 {
            if pool.len() < base + 512 {
                pool.push(input);
            } else {
                let j = base + (state as usize % 512);
                pool[j] = input;
            }
        }
    }
    (slowest, t0.elapsed())
}
