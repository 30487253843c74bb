//! `sokoban optimize`: the solution optimizer over a collection's solutions, read from the
//! level file itself (`Solution` sections, or LURD lines after each board) or from a CSV
//! such as `solve --csv` writes; levels in parallel, results in level order.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use clap::{Args, ValueEnum};
use sokoban_core::format::Collection;
use sokoban_core::lurd::{is_lurd, parse_lurd};
use sokoban_core::Level;
use sokoban_optimize::{Metric, OptimizeOptions, Status, StdClock};

use crate::{clip, io_err, parse_range, read_collection, read_input};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MetricArg {
    /// Fewest moves, then pushes, box lines, box changes
    Moves,
    /// Fewest pushes, then moves, box lines, box changes
    Pushes,
}

#[derive(Args)]
#[command(long_about = "\
Make solutions shorter: fewer moves (then pushes) or fewer pushes (then moves), never longer; \
ties are broken by fewer box lines (straight runs of one box's pushes), then fewer box changes. \
The solutions come from FILE itself (a 'Solution' section, or LURD lines, after each board) or \
from SOLUTIONS, a CSV with 'level' and 'lurd' columns such as 'solve --csv' writes. The method \
is a vicinity search: the box placements near the solution (one box on any of its K1 nearest \
squares, two on any of their K2, three on any of their K3) and the shortest way through them, \
repeated while it gains; then a global search (every placement, pruned by the best's length), \
which finds a shorter solution anywhere or, when it runs out of placements within its memory, \
proves the best optimal. Every result is replayed by the rules engine. One line per level, \
then a summary.")]
pub struct OptimizeArgs {
    /// Level file in any format ('-' for standard input)
    file: PathBuf,
    /// Solutions as CSV ('level' and 'lurd' columns, as 'solve --csv' writes them)
    solutions: Option<PathBuf>,
    /// What to make shorter first
    #[arg(long, value_enum, default_value = "moves")]
    metric: MetricArg,
    /// Levels: N or A-B (numbers in the collection, from 1)
    #[arg(long, value_name = "A-B", value_parser = parse_range)]
    levels: Option<(usize, usize)>,
    /// Time per level, in seconds
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    timeout: f64,
    /// K1,K2,K3: nearest squares for one, two, three boxes moved at once
    #[arg(long, value_name = "K1,K2,K3", default_value = "20,10,5", value_parser = parse_sizes)]
    vicinity: Sizes,
    /// Memory per level, in MiB
    #[arg(long, value_name = "MIB", default_value_t = sokoban_optimize::DEFAULT_MEMORY >> 20)]
    memory: usize,
    /// No global search after the vicinity search
    #[arg(long)]
    no_global: bool,
    /// Stop a level after N units of work (placements tried and search nodes), for runs
    /// that do not depend on the machine's speed
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Threads for one level: lanes with vicinities of their own and a share of the memory,
    /// which show one another their best (see `sokoban_optimize::lanes`)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    threads: u32,
    /// Levels optimized at once (default: the cores this process may use)
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    jobs: Option<u32>,
    /// CSV output: 'level,status,pushes,moves,nodes,ms,lurd,pushes_before,moves_before,
    /// box_lines,box_changes,box_lines_before,box_changes_before,optimal' (status: solved,
    /// error; optimal: the global search proved it);
    /// the summary goes to standard error
    #[arg(long)]
    csv: bool,
}

/// The vicinity's sizes, one argument (not a list of arguments to clap).
#[derive(Clone)]
pub struct Sizes(Vec<usize>);

/// `20,10,5`.
fn parse_sizes(s: &str) -> Result<Sizes, String> {
    s.split(',')
        .map(|k| k.trim().parse().map_err(|_| format!("'{s}' is not a list like 20,10,5")))
        .collect::<Result<_, _>>()
        .map(Sizes)
}

/// A level to optimize and its solution.
struct Job {
    number: usize,
    title: Option<String>,
    level: Level,
    lurd: String,
}

/// One level's result.
struct Outcome {
    number: usize,
    title: Option<String>,
    result: Result<sokoban_optimize::Report, String>,
}

/// The solution after each board of a text collection: the LURD lines after a `Solution`
/// line, or the first LURD lines after the board, until the next board.
fn solutions_in_text(text: &str, coll: &Collection) -> HashMap<usize, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = HashMap::new();
    let ends: Vec<Option<usize>> =
        coll.entries.iter().map(|e| e.grid.lines.last().copied().flatten()).collect();
    for (i, e) in coll.entries.iter().enumerate() {
        let Some(after) = ends[i] else { continue };
        let until = coll.entries.get(i + 1).and_then(|n| n.first_line).unwrap_or(lines.len() + 1);
        let mut lurd = String::new();
        for line in lines.iter().take(until - 1).skip(after) {
            let t = line.trim();
            let rest = t.get(..8).filter(|h| h.eq_ignore_ascii_case("solution")).map(|_| {
                // `Solution:`, `Solution (12/3): LURD`, or the moves on the next lines.
                t.split_once(':').map_or("", |(_, r)| r.trim())
            });
            match rest {
                Some(r) if lurd.is_empty() => lurd.push_str(r),
                Some(_) => break,
                None if is_lurd(t) => lurd.push_str(t),
                None if !lurd.is_empty() => break,
                None => {}
            }
        }
        if !lurd.is_empty() {
            out.insert(e.number, lurd);
        }
    }
    out
}

/// The solutions of a CSV file with a header naming the `level` and `lurd` columns.
fn solutions_in_csv(path: &std::path::Path) -> Result<HashMap<usize, String>, String> {
    let text = read_input(path)?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split(',').map(str::trim).collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .ok_or_else(|| format!("{}: the first line names no '{name}' column", path.display()))
    };
    let (level, lurd) = (col("level")?, col("lurd")?);
    Ok(lines
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').map(str::trim).collect();
            let moves = f.get(lurd).filter(|m| !m.is_empty())?;
            Some((f.get(level)?.parse().ok()?, moves.to_string()))
        })
        .collect())
}

pub fn optimize(a: OptimizeArgs) -> Result<ExitCode, String> {
    if a.timeout.is_nan() || a.timeout <= 0.0 {
        return Err(format!("--timeout: {} is not a positive number of seconds", a.timeout));
    }
    let coll = read_collection(&a.file)?;
    let solutions = match &a.solutions {
        Some(csv) => solutions_in_csv(csv)?,
        None => solutions_in_text(&read_input(&a.file)?, &coll),
    };
    let (lo, hi) = a.levels.unwrap_or((1, usize::MAX));
    let mut jobs = Vec::new();
    let mut bad = Vec::new();
    for e in coll.entries.iter().filter(|e| e.number >= lo && e.number <= hi) {
        let Some(lurd) = solutions.get(&e.number) else { continue };
        match e.level() {
            Ok(level) => jobs.push(Job {
                number: e.number,
                title: e.title.clone(),
                level,
                lurd: lurd.clone(),
            }),
            Err(err) => bad.push(Outcome {
                number: e.number,
                title: e.title.clone(),
                result: Err(err.message),
            }),
        }
    }
    let options = OptimizeOptions {
        metric: match a.metric {
            MetricArg::Moves => Metric::Moves,
            MetricArg::Pushes => Metric::Pushes,
        },
        vicinity: a.vicinity.0.clone(),
        memory_bytes: a.memory.max(1) << 20,
        time_limit_ms: Some(a.timeout * 1000.0),
        node_limit: a.nodes,
        global: !a.no_global,
        ..OptimizeOptions::default()
    };
    let lanes = a.threads as usize;
    let threads = a
        .jobs
        .map(|j| j as usize)
        .unwrap_or_else(|| {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            (cores / lanes).max(1)
        })
        .clamp(1, jobs.len().max(1));
    let mut out = std::io::stdout().lock();
    if a.csv {
        writeln!(
            out,
            "level,status,pushes,moves,nodes,ms,lurd,pushes_before,moves_before,\
             box_lines,box_changes,box_lines_before,box_changes_before,optimal"
        )
        .map_err(io_err)?;
    }
    let mut results: Vec<Outcome> = bad;
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Outcome>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (tx, jobs, next, options) = (tx.clone(), &jobs, &next, options.clone());
            scope.spawn(move || {
                while let Some(job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if tx.send(optimize_level(job, options.clone(), lanes)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        results.extend(rx.iter());
    });
    results.sort_by_key(|r| r.number);
    let (mut errors, mut gained, mut optimal, mut ms) = (0, 0, 0, 0.0);
    let (mut before, mut after) = ((0, 0), (0, 0));
    for r in &results {
        let line = match &r.result {
            Err(msg) => {
                errors += 1;
                if a.csv {
                    eprintln!("level {}: {msg}", r.number);
                    format!("{},error,,,,,,,,,,,,", r.number)
                } else {
                    format!("{:>4}  {:<24}  error: {msg}", r.number, title(r))
                }
            }
            Ok(rep) => {
                gained += (rep.counts != rep.start) as usize;
                optimal += rep.optimal as usize;
                ms += rep.elapsed_ms;
                before = (before.0 + rep.start.moves, before.1 + rep.start.pushes);
                after = (after.0 + rep.counts.moves, after.1 + rep.counts.pushes);
                if a.csv {
                    format!(
                        "{},solved,{},{},{},{:.0},{},{},{},{},{},{},{},{}",
                        r.number,
                        rep.counts.pushes,
                        rep.counts.moves,
                        rep.nodes,
                        rep.elapsed_ms,
                        rep.lurd(),
                        rep.start.pushes,
                        rep.start.moves,
                        rep.counts.box_lines,
                        rep.counts.box_changes,
                        rep.start.box_lines,
                        rep.start.box_changes,
                        rep.optimal
                    )
                } else {
                    let why = match rep.status {
                        Status::Finished if rep.optimal => "  (proved optimal)",
                        Status::Finished => "",
                        Status::Limit(_) => "  (time or node limit)",
                        Status::Cancelled => "  (cancelled)",
                    };
                    let (s, c) = (rep.start, rep.counts);
                    format!(
                        "{:>4}  {:<24}  moves {:>5} -> {:>5}  pushes {:>4} -> {:>4}  \
                         lines {:>4} -> {:>4}  changes {:>4} -> {:>4}  {:>8.0} ms{why}",
                        r.number,
                        title(r),
                        s.moves,
                        c.moves,
                        s.pushes,
                        c.pushes,
                        s.box_lines,
                        c.box_lines,
                        s.box_changes,
                        c.box_changes,
                        rep.elapsed_ms
                    )
                }
            }
        };
        writeln!(out, "{line}").map_err(io_err)?;
    }
    let summary = format!(
        "{} solutions, {gained} shorter, {optimal} proved optimal, {errors} errors; \
         moves {} -> {}, pushes {} -> {}; {:.1} s",
        results.len(),
        before.0,
        after.0,
        before.1,
        after.1,
        ms / 1000.0
    );
    if a.csv {
        eprintln!("{summary}");
    } else {
        writeln!(out, "{summary}").map_err(io_err)?;
    }
    Ok(if errors > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn title(r: &Outcome) -> String {
    clip(r.title.as_deref().unwrap_or(""), 24)
}

/// Optimize one level's solution with its own clock and limits.
fn optimize_level(job: &Job, options: OptimizeOptions, lanes: usize) -> Outcome {
    let clock = StdClock::new();
    let result = parse_lurd(&job.lurd).map_err(|e| e.message).and_then(|moves| {
        if lanes > 1 {
            sokoban_optimize::lanes::optimize_lanes(&job.level, &moves, options, lanes, &clock)
        } else {
            sokoban_optimize::optimize(&job.level, &moves, options, &clock, |_| true)
        }
        .map_err(|e| e.message)
    });
    Outcome { number: job.number, title: job.title.clone(), result }
}
