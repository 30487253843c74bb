//! Print the fast search's packing plan of levels: the board with each goal marked by its
//! place in the order (base 36: 0-9 then a-z), and the plan's steps, for studying the levels
//! the search misses; with each plan, the first prefix of its goals that leaves the start
//! boxes unable to fill the rest ([`Plan::first_dead_prefix`]).
//!
//! `cargo run --release -p sokoban-solver --example plan -- LEVELS.xsb [NUMBER]`
//! (with `GREEDY=1`: the greedy removals' plan instead of the packing search's; with
//! `EXP=order=...`: that plan by hand)

use std::sync::Arc;

use sokoban_core::format;
use sokoban_solver::analysis::problem::{Problem, NONE};
use sokoban_solver::fast;
use sokoban_solver::fast::board::Layout;
use sokoban_solver::fast::experiments::Experiments;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 2 {
        return Err("usage: plan LEVELS [NUMBER]".into());
    }
    let levels = format::parse_collection(&std::fs::read_to_string(&args[1])?)?;
    let only: Option<usize> = args.get(2).map(|s| s.parse()).transpose()?;
    for (i, entry) in levels.entries.iter().enumerate() {
        if only.is_some_and(|n| n != i + 1) {
            continue;
        }
        let level = entry.level()?;
        let p = Problem::new(&level.board);
        let layout = Layout::new(&level.board, &p);
        let start: Vec<u16> = level.start.box_squares().iter().map(|&b| p.compact[b]).collect();
        // The fast search's plan; with GREEDY set, the greedy removals' plan.
        let greedy = std::env::var_os("GREEDY").is_some();
        let t = std::time::Instant::now();
        // With EXP set, the experiments it names (as `solve --experiments`).
        let exp =
            std::env::var("EXP").map_or(Ok(Default::default()), |e| Experiments::parse(&e))?;
        let packing = if greedy {
            fast::Packing::Off
        } else {
            fast::Packing::again(sokoban_solver::memory::FAST_MIB << 20, None).under(&exp)
        };
        let (a, kept) =
            fast::analyse_both(Arc::new(p), Arc::new(layout), &start, &Arc::new(exp), packing);
        let player = a.p.compact[level.start.player];
        let mut trace = Vec::new();
        let (mut a, _) = fast::followed_plan(a, kept, &start, player, &mut trace);
        // A plan by hand (`EXP=order=...`) in place of the search's, as `solve` takes it.
        let hand = a
            .exp
            .order
            .as_ref()
            .and_then(|o| fast::schedule::plan_by_hand(&level.board, &a.p, o, &mut trace));
        if let Some(steps) = hand {
            a = Arc::new(a.with_plan(fast::plan::Plan::from_steps(&a.p, steps, 0)));
        }
        eprintln!("plan: {:?} {}", t.elapsed(), trace.join("; "));
        let (p, plan) = (&a.p, &a.plan);
        let b = &level.board;
        let mut rows: Vec<Vec<char>> = (0..b.height())
            .map(|r| {
                (0..b.width())
                    .map(|c| {
                        let sq = b.square(r, c);
                        if !b.is_floor(sq) {
                            '#'
                        } else if level.start.player == sq {
                            '@'
                        } else if level.start.has_box(sq) {
                            '$'
                        } else {
                            ' '
                        }
                    })
                    .collect()
            })
            .collect();
        let digit = |k: usize| std::char::from_digit((k % 36) as u32, 36).unwrap_or('?');
        for (k, &g) in plan.order.iter().enumerate() {
            let (r, c) = b.row_col(p.board_sq[p.goals[g as usize] as usize]);
            let mark = digit(k);
            rows[r][c] =
                if level.start.has_box(b.square(r, c)) { mark.to_ascii_uppercase() } else { mark };
        }
        let dead = plan.first_dead_prefix(p, &level.board, &start, player);
        println!(
            "level {} ({} goals, {} relaxed, {} parking steps, first dead prefix {})",
            i + 1,
            plan.order.len(),
            plan.relaxed,
            plan.parking_steps(),
            dead.map_or("none".to_string(), |k| format!(
                "{k} goal{}",
                if k == 1 { "" } else { "s" }
            ))
        );
        for r in rows {
            println!("{}", r.into_iter().collect::<String>());
        }
        let rc = |s: u16| b.row_col(p.board_sq[s as usize]);
        let steps: Vec<String> = plan
            .steps
            .iter()
            .map(|s| {
                if s.then == NONE {
                    format!("{:?}", rc(s.square))
                } else {
                    format!("{:?}->{:?}", rc(s.square), rc(s.then))
                }
            })
            .collect();
        println!("steps: {}\n", steps.join(" "));
    }
    Ok(())
}
