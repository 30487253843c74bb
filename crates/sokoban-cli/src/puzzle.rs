//! `sokoban puzzle`: sliding-tile puzzles solved optimally (the `tile-puzzle` crate).
//!
//! Input, from a file or standard input: the judge format (a count, then that many
//! positions, each as numbers in row-major order, 0 the blank) or, with a header line, a
//! CSV whose `tiles` column holds the positions (an `id` column names them; an
//! `optimal_moves` column is checked against the answers). Output: one line per position
//! with the fewest moves or -1; with `--csv`, `id,status,moves,nodes,ms,solution`.

use std::io::Write;
use std::process::ExitCode;

use tile_puzzle::{
    Board, Clock, DbCache, GoalKind, HeuristicKind, Limit, Options, Phase, Solver, Status,
    StdClock, Step,
};

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::read_input;

/// One position to solve.
struct Item {
    id: String,
    board: Board,
    expect: Option<usize>,
}

fn parse_items(text: &str, size: Option<(usize, usize)>) -> Result<Vec<Item>, String> {
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    if first.contains(',') && first.to_ascii_lowercase().contains("tiles") {
        return parse_csv(text, size);
    }
    let nums = tile_puzzle::board::parse_numbers(text).map_err(|e| e.0)?;
    let Some((&count, rest)) = nums.split_first() else {
        return Err("no input: expected a count, then the positions".into());
    };
    let count = count as usize;
    if count == 0 {
        return Ok(Vec::new());
    }
    if rest.len() % count != 0 {
        return Err(format!(
            "{} numbers after the count do not split into {count} positions",
            rest.len()
        ));
    }
    let cells = rest.len() / count;
    let size = match size {
        Some((w, h)) if w * h == cells => (w, h),
        Some((w, h)) => {
            return Err(format!(
                "positions have {cells} numbers, but a {w}x{h} board has {}",
                w * h
            ))
        }
        None => tile_puzzle::board::square_size(cells).ok_or_else(|| {
            format!("positions of {cells} numbers are not a square board: give --size WxH")
        })?,
    };
    rest.chunks(cells)
        .enumerate()
        .map(|(i, chunk)| {
            let tiles: Vec<u8> = chunk.iter().map(|&v| v.min(255) as u8).collect();
            let board = Board::new(size.0, size.1, tiles)
                .map_err(|e| format!("position {}: {e}", i + 1))?;
            Ok(Item { id: (i + 1).to_string(), board, expect: None })
        })
        .collect()
}

fn parse_csv(text: &str, size: Option<(usize, usize)>) -> Result<Vec<Item>, String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<String> =
        lines.next().unwrap_or("").split(',').map(|h| h.trim().to_ascii_lowercase()).collect();
    let col = |names: &[&str]| header.iter().position(|h| names.contains(&h.as_str()));
    let tiles_col = col(&["tiles"]).ok_or("the CSV has no 'tiles' column")?;
    let id_col = col(&["id", "instance"]);
    let expect_col = col(&["optimal_moves", "optimal", "moves"]);
    let mut out = Vec::new();
    for (i, line) in lines.enumerate() {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let tiles = fields.get(tiles_col).ok_or_else(|| format!("line {}: no tiles", i + 2))?;
        let board = Board::parse(tiles, size).map_err(|e| format!("line {}: {e}", i + 2))?;
        let id = id_col
            .and_then(|c| fields.get(c))
            .map(|s| s.to_string())
            .unwrap_or_else(|| (i + 1).to_string());
        let expect = expect_col.and_then(|c| fields.get(c)).and_then(|s| s.parse().ok());
        out.push(Item { id, board, expect });
    }
    Ok(out)
}

fn goal_for(spec: &str, board: &Board) -> Result<Board, String> {
    match GoalKind::parse(spec) {
        Some(kind) => Board::goal(board.width(), board.height(), kind).map_err(|e| e.0),
        None => {
            let g = Board::parse(spec, Some((board.width(), board.height())))
                .map_err(|e| format!("--goal: {e}"))?;
            Ok(g)
        }
    }
}

/// Goals and heuristics of `puzzle`, as clap reads them.
#[derive(Args)]
#[command(long_about = "\
Sliding-tile puzzles (2x2 to 5x5), fewest moves. Input: a count, then one position per line \
(numbers in row-major order, 0 the blank), or a CSV with a 'tiles' column (an 'id' column names \
the positions; an 'optimal_moves' column is checked: a difference fails the run). Prints each \
position's fewest moves, or -1 when the goal cannot be reached.")]
pub struct PuzzleArgs {
    /// Positions ('-' or nothing for standard input)
    file: Option<PathBuf>,
    /// The goal: blank-last (1 2 ... 0), blank-first (0 1 2 ...) or the goal's tiles
    #[arg(long, value_name = "blank-last|blank-first|TILES", default_value = "blank-last")]
    goal: String,
    /// Board size WxH (sides 2 to 5) when the positions are not square
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    size: Option<(usize, usize)>,
    /// CSV output: 'id,status,moves,nodes,ms,solution' (the blank's moves, U R D L)
    #[arg(long)]
    csv: bool,
    /// Lower bound of the search
    #[arg(long, value_enum, default_value = "auto")]
    heuristic: HeuristicArg,
    /// Time limit per position, in seconds (none by default)
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// No mirror lookup of the pattern databases across the diagonal
    #[arg(long)]
    no_mirror: bool,
    /// Print the database build and each finished IDA* iteration to standard error
    #[arg(long)]
    progress: bool,
}

/// `--heuristic` values.
#[derive(Clone, Copy, ValueEnum)]
pub enum HeuristicArg {
    /// Pattern databases where there are some for the board, else linear conflicts
    Auto,
    /// Additive pattern databases
    Pdb,
    /// Manhattan distance plus linear conflicts
    Lc,
    /// Manhattan distance
    Manhattan,
}

fn parse_size(s: &str) -> Result<(usize, usize), String> {
    tile_puzzle::parse_size(s).ok_or_else(|| format!("'{s}' is not WxH with sides 2 to 5"))
}

pub fn puzzle(a: PuzzleArgs) -> Result<ExitCode, String> {
    let path = a.file.clone().unwrap_or_else(|| PathBuf::from("-"));
    let size = a.size;
    let heuristic = HeuristicKind::parse(match a.heuristic {
        HeuristicArg::Auto => "auto",
        HeuristicArg::Pdb => "pdb",
        HeuristicArg::Lc => "lc",
        HeuristicArg::Manhattan => "manhattan",
    })
    .unwrap_or(HeuristicKind::Auto);
    let timeout = a.timeout;
    let goal_spec = a.goal.as_str();
    let csv = a.csv;
    let show_progress = a.progress;
    let items =
        parse_items(&read_input(&path)?, size).map_err(|e| format!("{}: {e}", path.display()))?;

    let cache = DbCache::new();
    let clock = StdClock::new();
    let mut out = std::io::stdout().lock();
    let w =
        |out: &mut std::io::StdoutLock, s: String| writeln!(out, "{s}").map_err(|e| e.to_string());
    if csv {
        w(&mut out, "id,status,moves,nodes,ms,solution".into())?;
    }
    let (mut solved, mut mismatches, mut ms_total, mut build_ms) = (0, 0, 0.0, 0.0);
    let mut unanswered = 0;
    let mut times = Vec::new();
    for item in &items {
        let goal = goal_for(goal_spec, &item.board)?;
        let options = Options {
            time_limit_ms: timeout.map(|s| s * 1000.0),
            heuristic,
            mirror: !a.no_mirror,
            ..Options::default()
        };
        let mut solver = Solver::new(&item.board, &goal, options, &cache)
            .map_err(|e| format!("{}: {e}", item.id))?;
        solver.count_from(clock.now_ms());
        let mut building = false;
        let report = loop {
            match solver.step(&clock, f64::INFINITY) {
                Step::Done(r) => break r,
                Step::Running(p) => {
                    if p.phase == Phase::Building && !building {
                        building = true;
                        if show_progress {
                            eprintln!("{}: building pattern databases {}", item.id, p.db.partition);
                        }
                    }
                    if p.phase == Phase::Searching && p.iteration_done && show_progress {
                        eprintln!(
                            "{}: iteration {} done, {} nodes; at least {} moves; {:.2} s, {:.1} M nodes/s",
                            item.id,
                            p.iteration,
                            p.nodes_iteration,
                            p.threshold,
                            p.elapsed_ms / 1000.0,
                            p.nodes_per_second / 1e6
                        );
                    }
                }
            }
        };
        let p = solver.progress(&clock);
        if building {
            build_ms += p.db.build_ms;
            let db_note = format!(
                "pattern databases {} ({} tables, {:.1} MiB{}) built in {:.2} s",
                p.db.partition,
                p.db.tables,
                p.db.bytes as f64 / (1 << 20) as f64,
                if p.db.mirrored { ", with the mirror lookup" } else { "" },
                p.db.build_ms / 1000.0
            );
            if show_progress || csv {
                eprintln!("{db_note}");
            }
        }
        // The time of the search alone (a database build is reported apart).
        let ms = report.elapsed_ms - if building { p.db.build_ms } else { 0.0 };
        ms_total += ms;
        times.push(ms);
        let moves = report.solution.as_ref().map(|s| s.moves.len());
        let mut note = String::new();
        if let (Some(m), Some(e)) = (moves, item.expect) {
            if m != e {
                mismatches += 1;
                note = format!("{}: MISMATCH: {m} moves, expected {e}", item.id);
            }
        }
        let status = match report.status {
            Status::Solved => {
                solved += 1;
                "solved"
            }
            Status::Unsolvable => "unsolvable",
            Status::Limit(Limit::Time) | Status::Cancelled | Status::Limit(Limit::Nodes) => {
                unanswered += 1;
                "limit"
            }
            Status::Error => {
                unanswered += 1;
                "error"
            }
        };
        if csv {
            let sol = report.solution.as_ref().map(|s| s.letters()).unwrap_or_default();
            let moves = moves.map(|m| m.to_string()).unwrap_or_default();
            w(&mut out, format!("{},{status},{moves},{},{ms:.1},{sol}", item.id, report.nodes))?;
        } else {
            let line = match report.status {
                Status::Solved => moves.unwrap_or(0).to_string(),
                Status::Unsolvable => "-1".to_string(),
                Status::Error => {
                    format!("error: {}", report.error.as_deref().unwrap_or("unknown"))
                }
                _ => format!("limit (at least {} moves)", report.threshold),
            };
            w(&mut out, line)?;
        }
        if !note.is_empty() {
            eprintln!("{note}");
        }
        out.flush().map_err(|e| e.to_string())?;
    }
    if csv {
        times.sort_by(f64::total_cmp);
        let median = if times.is_empty() { 0.0 } else { times[times.len() / 2] };
        eprintln!(
            "{solved} of {} solved in {:.2} s of search (median {:.1} ms){}{}",
            items.len(),
            ms_total / 1000.0,
            median,
            if build_ms > 0.0 {
                format!(", plus {:.2} s of database build", build_ms / 1000.0)
            } else {
                String::new()
            },
            if items.iter().any(|i| i.expect.is_some()) {
                format!(", {mismatches} length mismatches")
            } else {
                String::new()
            }
        );
    }
    Ok(if mismatches > 0 || unanswered > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
