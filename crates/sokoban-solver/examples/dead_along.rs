//! Replay a known solution of a level (a peer's) and look at each of its positions as the
//! fast search would: the deadlock tests and the stuck search (one that calls a position of
//! a solution dead is unsound), the features and hotspots (where the path climbs or waits in
//! our feature space, the position as the search's plan counts it), and, before each macro
//! move (one box moved, however far), the scored strategy's moves there: whether its
//! advisors nominate the peer's move, and where that move stands in the order it tries.
//!
//! `cargo run --release -p sokoban-solver --example dead_along -- LEVELS.xsb NUMBER LURD`
//! (with `EXP=...`: switches as `solve --experiments` takes them, e.g. `order=...`)

use std::sync::Arc;

use sokoban_core::{format, Dir, Position};
use sokoban_solver::analysis::deadlock::stuck::{StuckSearch, Verdict, SEARCH_LIMIT};
use sokoban_solver::analysis::problem::Problem;
use sokoban_solver::fast;
use sokoban_solver::fast::board::{Layout, State};
use sokoban_solver::fast::experiments::Experiments;
use sokoban_solver::fast::features::FeatureScratch;
use sokoban_solver::fast::fess::{Config, Fess};
use sokoban_solver::fast::score::Scorer;
use sokoban_solver::fast::shared::Learned;

/// One push of the solution: the position before it, the player's square then, the square
/// the box leaves and the one it reaches.
struct Push {
    before: Position,
    player: usize,
    from: usize,
    to: usize,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        return Err("usage: dead_along LEVELS NUMBER LURD".into());
    }
    let levels = format::parse_collection(&std::fs::read_to_string(&args[1])?)?;
    let n: usize = args[2].parse()?;
    let level = levels.entries.get(n - 1).ok_or("no such level")?.level()?;
    let b = &level.board;
    let p = Problem::new(b);
    let layout = Layout::new(b, &p);
    let start: Vec<u16> = level.start.box_squares().iter().map(|&s| p.compact[s]).collect();
    let exp = std::env::var("EXP").map_or(Ok(Default::default()), |e| Experiments::parse(&e))?;
    let (a, kept) = fast::analyse_both(
        Arc::new(p),
        Arc::new(layout),
        &start,
        &Arc::new(exp),
        fast::Packing::Once,
    );
    let player0 = a.p.compact[level.start.player];
    let mut trace = Vec::new();
    let (mut a, _) = fast::followed_plan(a, kept, &start, player0, &mut trace);
    let hand =
        a.exp.order.as_ref().and_then(|o| fast::schedule::plan_by_hand(b, &a.p, o, &mut trace));
    if let Some(steps) = hand {
        a = Arc::new(a.with_plan(fast::plan::Plan::from_steps(&a.p, steps, 0)));
    }
    let p = &a.p;

    // The solution's pushes.
    let mut pushes = Vec::new();
    let (mut pos, mut player) = (level.start.clone(), level.start.player);
    for ch in args[3].chars() {
        let d = Dir::from_lurd(ch).ok_or("not a LURD move")?;
        let next = b.floor_neighbor(player, d).ok_or("a move into a wall")?;
        if pos.has_box(next) {
            let to = b.floor_neighbor(next, d).ok_or("a push into a wall")?;
            if pos.has_box(to) {
                return Err("a push into a box".into());
            }
            let before = pos.clone();
            let mut boxes = pos.box_squares();
            boxes.retain(|&s| s != next);
            boxes.push(to);
            pos = Position::from_squares(b.len(), next, &boxes);
            pushes.push(Push { before, player, from: next, to });
        }
        player = next;
    }

    let mut tests = a.dead_tests(1 << 30);
    let mut stuck = StuckSearch::new(p);
    let mut scratch = FeatureScratch::new(p, &a.rooms);
    let mut scorer = Scorer::new(&a, false, false);
    let mut st = State::new(p, &a.layout);
    let scored = Config { scored: true, corral_moves: true, pocket_moves: true, ..Config::RULES };
    let compact = |squares: &[usize]| {
        let mut v: Vec<u16> = squares.iter().map(|&s| p.compact[s]).collect();
        v.sort_unstable();
        v
    };
    let (mut dead, mut macros, mut advised_macros) = (0, 0, 0);
    for (i, push) in pushes.iter().enumerate() {
        if i == 0 || pushes[i - 1].to != push.from {
            // A macro move begins: this box, pushed on until another box is.
            let mut end = i;
            while end + 1 < pushes.len() && pushes[end + 1].from == pushes[end].to {
                end += 1;
            }
            let dest = pushes[end].to;
            let boxes = compact(&push.before.box_squares());
            let f = Fess::new(
                Arc::clone(&a),
                scored,
                p.compact[push.player],
                &boxes,
                64 << 20,
                Learned::new(p),
            );
            let moves = f.root_moves();
            let at = moves
                .iter()
                .position(|&(fr, t, _)| (fr, t) == (p.compact[push.from], p.compact[dest]));
            let (r0, c0) = b.row_col(push.from);
            let (r1, c1) = b.row_col(dest);
            let nominated = moves.iter().filter(|m| m.2).count();
            let corral = if f.stats.corral_nodes > 0 { ", a PI-corral's moves only" } else { "" };
            macros += 1;
            advised_macros += at.is_some_and(|k| moves[k].2) as usize;
            println!(
                "macro {macros:3} ({r0:2},{c0:2}) -> ({r1:2},{c1:2}) after {i} pushes: {} ({nominated} advised{corral})",
                match at {
                    Some(k) if moves[k].2 => format!("ADVISED, move {} of ours", k + 1),
                    Some(k) => format!("not advised, move {} of ours", k + 1),
                    None => format!("not among our first {} moves", moves.len()),
                }
            );
            if !at.is_some_and(|k| moves[k].2) {
                let show = |&(fr, t, _): &(u16, u16, bool)| {
                    let (a0, a1) = b.row_col(p.board_sq[fr as usize]);
                    let (b0, b1) = b.row_col(p.board_sq[t as usize]);
                    format!("({a0},{a1})->({b0},{b1})")
                };
                let ours: Vec<String> = moves.iter().filter(|m| m.2).map(show).collect();
                println!("    ours advised: {}", ours.join(" "));
            }
        }
        let after = if i + 1 < pushes.len() { pushes[i + 1].before.clone() } else { pos.clone() };
        let cb = compact(&after.box_squares());
        st.set(p, &a.layout, &cb, p.compact[push.from]);
        let mut occupied = vec![false; p.n];
        for &s in &cb {
            occupied[s as usize] = true;
        }
        let f = scratch.features(p, &a.plan, &a.rooms, &cb, &occupied);
        let score = scorer.score_base(&a, &st);
        let is_dead = tests.after_move(p, &st, p.compact[push.to]);
        let is_stuck = stuck.run(p, &cb, p.compact[push.from], SEARCH_LIMIT) == Verdict::Stuck;
        dead += (is_dead || is_stuck) as usize;
        let (r, c) = b.row_col(push.to);
        println!(
            "  push {:4} to ({r:2},{c:2}): packed {:2} out-of-plan {} areas {:2} links {:2} hotspots {:2}{}{}",
            i + 1,
            f.packed,
            f.out_of_plan,
            f.regions,
            f.blocked_links,
            score.hotspots,
            if is_dead { "  DEAD by the tests" } else { "" },
            if is_stuck { "  STUCK by the stuck search" } else { "" },
        );
    }
    println!(
        "{} pushes, {macros} macro moves ({advised_macros} advised by ours), solved: {}, called dead: {dead}",
        pushes.len(),
        pos.is_solved(b)
    );
    Ok(())
}
