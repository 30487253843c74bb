//! `sokoban solve`: the solvers over a collection, levels in parallel (one search per
//! thread, each with its own limits), results printed in level order.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use sokoban_core::Level;
use sokoban_solver::fast::Experiments;
use sokoban_solver::{
    portfolio, Clock, Limit, Mode, Options, Report, Solver, Status, StdClock, Step,
};

use crate::{clip, io_err, parse_range, read_collection, read_input};

/// Which search.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// Push-optimal IDA* (table 256 MiB by default)
    Optimal,
    /// Any solution as quickly as possible: feature space search (store 1024 MiB by default)
    Fast,
}

#[derive(Args)]
#[command(long_about = "\
Solve levels. --mode optimal (the default) finds push-optimal solutions (IDA*); --mode fast \
finds any solution as quickly as it can (feature space search). Levels run in parallel, one \
per core (--jobs), each with its own time limit; the memory (--memory) is shared out between \
the jobs so that the total stays what it says. Results come in level order: one line per \
level, then 'N of M solved in S s' (the sum of the levels' times).

On a terminal, a progress bar shows the levels done, solved so far, the elapsed time and the \
levels running; nothing extra is printed when the output is piped or with --csv or --json.")]
pub struct SolveArgs {
    /// Level file in any format ('-' for standard input)
    file: PathBuf,
    /// Which search
    #[arg(long, value_enum, default_value = "optimal")]
    mode: ModeArg,
    /// Levels to solve: N or A-B (numbers in the collection, from 1)
    #[arg(long, value_name = "A-B", value_parser = parse_range)]
    levels: Option<(usize, usize)>,
    /// Time limit per level, in seconds (the setup counts too)
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    timeout: f64,
    /// Memory in MiB for all jobs together: the IDA* tables (default 256) or the fast
    /// search's stores (default 1024), divided between the jobs
    #[arg(long, value_name = "MIB")]
    memory: Option<usize>,
    /// Stop a level after N nodes (fast search: moves made and the pulls of its backward
    /// searches), for runs that do not depend on the machine's speed
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Fast search: effort of the pass that shortens a solution found, in box searches
    /// (0: give the solution as found)
    #[arg(long, value_name = "N", default_value_t = sokoban_solver::DEFAULT_SHORTEN)]
    shorten: u64,
    /// Levels solved at once (default: the cores this process may use, divided by
    /// --threads; with neither option the fast search runs one level at a time on every core)
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    jobs: Option<u32>,
    /// Fast search: threads per level, a portfolio of schedules side by side, the first
    /// solution in the order of work wins (the same moves on every run for a given N;
    /// default: the cores divided by --jobs)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    threads: Option<u32>,
    /// Fast search: lanes of the portfolio per level (default: --threads); more lanes than
    /// threads take turns on them, as Festival shares one core between its strategies
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    lanes: Option<u32>,
    /// CSV output: 'level,status,pushes,moves,nodes,ms,lurd,lane,strategy' (status: solved,
    /// limit, unsolvable, error; lane and strategy: the fast search's that solved it); the
    /// summary goes to standard error
    #[arg(long, conflicts_with = "json")]
    csv: bool,
    /// JSON output: one object per level and line ({level, title, status, limit, pushes,
    /// moves, nodes, ms, lurd, error, expected_pushes, and where they apply found_pushes,
    /// found_moves, strategy, lane}); the summary goes to standard error
    #[arg(long)]
    json: bool,
    /// Compare push counts with a 'level,pushes' CSV file; a difference fails the run
    #[arg(long, value_name = "PUSHES.csv")]
    expect: Option<PathBuf>,
    /// Print each finished IDA* iteration (or the fast search's read-out) to standard error
    #[arg(long)]
    progress: bool,
    /// Fast search: development switches, comma separated (e.g. 'rules,noadv', 'trace';
    /// the list is in sokoban-solver's fast::Experiments). Without it, the FESS
    /// environment variable is read
    #[arg(long, value_name = "NAMES")]
    experiments: Option<String>,
}

/// One level's result.
#[derive(Serialize)]
struct LevelResult {
    level: usize,
    title: Option<String>,
    /// solved, limit, unsolvable or error.
    status: &'static str,
    /// For a limit: time, nodes or memory.
    limit: Option<&'static str>,
    pushes: Option<usize>,
    moves: Option<usize>,
    nodes: u64,
    ms: f64,
    lurd: Option<String>,
    /// What went wrong: an invalid level, a setup error, a failed verification.
    error: Option<String>,
    expected_pushes: Option<usize>,
    /// Pushes and moves of the solution as the fast search found it, when the shortening
    /// pass made it shorter.
    #[serde(skip_serializing_if = "Option::is_none")]
    found_pushes: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    found_moves: Option<usize>,
    /// The fast search's strategy that found the solution, and its lane with --threads.
    #[serde(skip_serializing_if = "Option::is_none")]
    strategy: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lane: Option<usize>,
}

impl LevelResult {
    fn failed(number: usize, title: Option<String>, message: String) -> Self {
        LevelResult {
            level: number,
            title,
            status: "error",
            limit: None,
            pushes: None,
            moves: None,
            nodes: 0,
            ms: 0.0,
            lurd: None,
            error: Some(message),
            expected_pushes: None,
            found_pushes: None,
            found_moves: None,
            strategy: None,
            lane: None,
        }
    }

    fn mismatch(&self) -> bool {
        matches!((self.pushes, self.expected_pushes), (Some(p), Some(w)) if p != w)
    }
}

/// A level to solve, or the reason it cannot be.
struct Job {
    number: usize,
    title: Option<String>,
    level: Result<Level, String>,
}

fn read_expect(path: &std::path::Path) -> Result<Vec<(usize, usize)>, String> {
    Ok(read_input(path)?
        .lines()
        .filter_map(|l| {
            let (a, b) = l.split_once(',')?;
            Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
        })
        .collect())
}

pub fn solve(a: SolveArgs) -> Result<ExitCode, String> {
    let mode = match a.mode {
        ModeArg::Optimal => Mode::Optimal,
        ModeArg::Fast => Mode::Fast,
    };
    if a.timeout.is_nan() || a.timeout <= 0.0 {
        return Err(format!("--timeout: {} is not a positive number of seconds", a.timeout));
    }
    let coll = read_collection(&a.file)?;
    let (lo, hi) = a.levels.unwrap_or((1, usize::MAX));
    let expect = match &a.expect {
        Some(p) => read_expect(p)?,
        None => Vec::new(),
    };
    let jobs: Vec<Job> = coll
        .entries
        .iter()
        .filter(|e| e.number >= lo && e.number <= hi)
        .map(|e| Job {
            number: e.number,
            title: e.title.clone(),
            level: e.level().map_err(|err| err.message),
        })
        .collect();
    let memory = a.memory.unwrap_or(match mode {
        Mode::Fast => sokoban_solver::memory::FAST_MIB,
        Mode::Optimal => sokoban_solver::memory::OPTIMAL_MIB,
    });
    let to_solve = jobs.iter().filter(|j| j.level.is_ok()).count();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (level_jobs, per_level) = match (a.jobs.map(|j| j as usize), a.threads.map(|t| t as usize))
    {
        _ if mode == Mode::Optimal => (a.jobs.map_or(cores, |j| j as usize), 1),
        (Some(j), Some(t)) => (j, t),
        (Some(j), None) => (j, (cores / j).max(1)),
        (None, Some(t)) => ((cores / t).max(1), t),
        (None, None) => (1, cores),
    };
    let threads = level_jobs.min(to_solve).max(1);
    let lanes = match mode {
        Mode::Fast => a.lanes.map_or(per_level, |l| l as usize),
        Mode::Optimal => 1,
    };
    let experiments = a.experiments.clone().or_else(|| std::env::var("FESS").ok());
    let experiments = Experiments::parse(experiments.as_deref().unwrap_or(""))
        .map_err(|e| format!("--experiments: {e}"))?;
    let options = Options {
        time_limit_ms: Some(a.timeout * 1000.0),
        table_mib: (memory / threads).max(1),
        mode,
        node_limit: a.nodes,
        shorten: a.shorten,
        experiments,
        ..Options::default()
    };

    let mut out = std::io::stdout().lock();
    if a.csv {
        writeln!(out, "level,status,pushes,moves,nodes,ms,lurd,lane,strategy").map_err(io_err)?;
    }
    let bar = progress_bar(&a, jobs.len());

    let wall = Instant::now();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, LevelResult)>();
    let (mut solved, mut mismatches, mut ms_total, mut failed) = (0, 0, 0.0, 0);
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..threads {
            let tx = tx.clone();
            let (jobs, next, options) = (&jobs, &next, options.clone());
            let (show_progress, bar) = (a.progress, bar.clone());
            let solve_level = move |job: &Job, level: &Level, options: Options, show: bool| {
                if lanes > 1 {
                    solve_level_portfolio(job, level, options, lanes, per_level, show)
                } else {
                    solve_level(job, level, options, show)
                }
            };
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(i) else { break };
                let Ok(level) = &job.level else { continue };
                if let Some(b) = &bar {
                    b.running(job.number, true);
                }
                let r = solve_level(job, level, options.clone(), show_progress);
                if let Some(b) = &bar {
                    b.running(job.number, false);
                }
                if tx.send((i, r)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Invalid levels are answered at once; solved ones as they come, printed in order.
        let mut done: BTreeMap<usize, LevelResult> = BTreeMap::new();
        for (i, job) in jobs.iter().enumerate() {
            if let Err(msg) = &job.level {
                done.insert(i, LevelResult::failed(job.number, job.title.clone(), msg.clone()));
            }
        }
        let mut printed = 0;
        loop {
            while let Some(mut r) = done.remove(&printed) {
                r.expected_pushes = expect.iter().find(|(n, _)| *n == r.level).map(|&(_, p)| p);
                if r.status == "solved" {
                    solved += 1;
                } else {
                    failed += 1;
                }
                if r.mismatch() {
                    mismatches += 1;
                }
                ms_total += r.ms;
                let line = format_line(&r, &a)?;
                match &bar {
                    Some(b) => {
                        b.done(r.status == "solved");
                        b.bar.suspend(|| writeln!(out, "{line}").and_then(|_| out.flush()))
                    }
                    None => writeln!(out, "{line}").and_then(|_| out.flush()),
                }
                .map_err(io_err)?;
                if (a.csv || a.json) && r.mismatch() {
                    eprintln!(
                        "level {}:  MISMATCH: expected {} pushes",
                        r.level,
                        r.expected_pushes.unwrap_or(0)
                    );
                }
                printed += 1;
            }
            if printed == jobs.len() {
                break;
            }
            match rx.recv() {
                Ok((i, r)) => {
                    done.insert(i, r);
                }
                Err(_) => return Err("a solver thread stopped".into()),
            }
        }
        Ok(())
    })?;
    if let Some(b) = &bar {
        b.bar.finish_and_clear();
    }
    let mut summary = format!(
        "{solved} of {} solved in {:.1} s{}",
        jobs.len(),
        ms_total / 1000.0,
        if expect.is_empty() {
            String::new()
        } else {
            format!(", {mismatches} push-count mismatches")
        }
    );
    if threads > 1 || lanes > 1 {
        let each = match (lanes, per_level.min(lanes)) {
            (1, _) => String::new(),
            (l, t) if l == t => format!(", {t} threads each"),
            (l, t) => format!(", {l} lanes on {t} threads each"),
        };
        summary += &format!(
            " ({threads} jobs{each}, {} MiB each; wall time {:.1} s)",
            options.table_mib,
            wall.elapsed().as_secs_f64()
        );
    }
    if a.csv || a.json {
        eprintln!("{summary}");
    } else {
        writeln!(out, "{summary}").map_err(io_err)?;
    }
    Ok(if mismatches > 0 || failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The line printed for a level: CSV, JSON or the table.
fn format_line(r: &LevelResult, a: &SolveArgs) -> Result<String, String> {
    let opt = |v: Option<usize>| v.map(|x| x.to_string()).unwrap_or_default();
    if a.json {
        return serde_json::to_string(r).map_err(|e| e.to_string());
    }
    let lurd = r.lurd.as_deref().unwrap_or("");
    if a.csv {
        if r.status == "error" && r.nodes == 0 && r.lurd.is_none() && r.ms == 0.0 {
            // An invalid level (or one the solver could not set up): no figures.
            return Ok(format!("{},error,,,,,,,", r.level));
        }
        return Ok(format!(
            "{},{},{},{},{},{:.0},{lurd},{},{}",
            r.level,
            r.status,
            opt(r.pushes),
            opt(r.moves),
            r.nodes,
            r.ms,
            opt(r.lane),
            csv_field(r.strategy.unwrap_or(""))
        ));
    }
    if r.status == "error" && r.nodes == 0 && r.ms == 0.0 {
        return Ok(format!("{:>4}  error: {}", r.level, r.error.as_deref().unwrap_or("")));
    }
    let why = match (r.status, r.limit) {
        ("limit", Some(l)) => format!(" ({l})"),
        ("error", _) => format!(" ({})", r.error.as_deref().unwrap_or("")),
        _ => String::new(),
    };
    let mut note = if r.mismatch() {
        format!("  MISMATCH: expected {} pushes", r.expected_pushes.unwrap_or(0))
    } else if let (Some(p), Some(m)) = (r.found_pushes, r.found_moves) {
        format!("  (shortened from {p} pushes, {m} moves)")
    } else {
        String::new()
    };
    if let Some(s) = r.strategy {
        let lane = r.lane.map(|l| format!("lane {l}: ")).unwrap_or_default();
        note.push_str(&format!("  [{lane}{s}]"));
    }
    Ok(format!(
        "{:>4}  {:<24}  {}{why}  pushes {:>4}  moves {:>5}  nodes {:>10}  {:>8.0} ms{note}",
        r.level,
        clip(r.title.as_deref().unwrap_or(""), 24),
        r.status,
        opt(r.pushes),
        opt(r.moves),
        r.nodes,
        r.ms
    ))
}

/// A CSV field, quoted where it holds a comma or a quote (strategy names do).
fn csv_field(s: &str) -> String {
    if s.contains([',', '"']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Solve one level with its own clock and limits.
fn solve_level(job: &Job, level: &Level, options: Options, show_progress: bool) -> LevelResult {
    let clock = StdClock::new();
    let number = job.number;
    let t0 = clock.now_ms();
    // The setup (push distances, groups, packing searches) counts towards the time limit.
    let mut solver = match Solver::new_timed(level, &level.start, options, &clock, t0) {
        Ok(s) => s,
        Err(err) => return LevelResult::failed(number, job.title.clone(), err.to_string()),
    };
    let mut next_report = 0.0;
    let report = loop {
        let step = solver.step(&clock, f64::INFINITY);
        for line in solver.take_trace() {
            eprintln!("level {number}: {line}");
        }
        match step {
            Step::Done(r) => break r,
            Step::Running(p) if show_progress && p.fast.is_some() => {
                if let Some(f) = &p.fast {
                    if p.elapsed_ms >= next_report {
                        next_report = p.elapsed_ms + 1000.0;
                        eprintln!(
                            "level {number}: {} {}/{}: {} positions, {} moves, {} cells, best packed {}/{}, {:.0} MiB, {:.1} s; backward {} positions, {} pulls, fewest on goals {}",
                            f.strategy,
                            f.strategy_number,
                            f.strategies,
                            f.positions,
                            f.generated,
                            f.cells,
                            f.best_packed,
                            f.goals,
                            f.memory_bytes as f64 / (1 << 20) as f64,
                            p.elapsed_ms / 1000.0,
                            f.back_positions,
                            f.pulls,
                            f.back_fewest_on_goals
                        );
                    }
                }
            }
            Step::Running(p) if show_progress && p.iteration_done => eprintln!(
                "level {number}: iteration {} done, {} nodes; at least {} pushes; {:.1} s, {:.2} M nodes/s",
                p.iteration,
                p.nodes_iteration,
                p.threshold,
                p.elapsed_ms / 1000.0,
                p.nodes_per_second / 1e6
            ),
            Step::Running(_) => {}
        }
    };
    if let (true, Some(f)) = (show_progress, solver.fast_stats()) {
        if report.status != Status::Solved {
            if let Some(pic) = solver.fast_best_picture() {
                eprintln!("level {number}: the best position found:\n{pic}");
            }
        }
        eprintln!(
            "level {number}: {} positions, {} moves ({} duplicates, {} dead, {} held a learned pattern), {} cells, {} advised; stuck tests {}, patterns {}, stored positions found dead {}",
            f.nodes, f.generated, f.duplicates, f.deadlocks, f.pattern_deadlocks, f.cells, f.advised, f.stuck_tests, f.patterns, f.pruned
        );
        if f.watch_len > 0 {
            eprintln!(
                "level {number}: the watched solution's {} pushes: the deepest position stored after {} of them (weight {}), expanded after {} ({} of its moves made); called dead: {}",
                f.watch_len,
                f.watch_deepest,
                f.watch_weight,
                f.watch_expanded,
                f.watch_expanded_moves,
                if f.watch_dead > 0 { format!("after {} pushes (an unsound test)", f.watch_dead) } else { "none".into() }
            );
        }
    } else if show_progress {
        let st = solver.stats();
        let c = st.corral_tests;
        eprintln!(
            "level {number}: PI-corral prunes {}, corral deadlock tests {} ({} nodes, {} cached, {} skipped, {} deadlocks), forced pushes {} ({} pushed on in runs), frozen-on-goal checks {} ({} deadlocks), group searches {} ({} nodes)",
            st.corral_prunes,
            c.searches,
            c.nodes,
            c.cache_hits,
            c.skipped,
            c.deadlocks,
            st.forced,
            st.chained,
            st.fixed_checks,
            st.fixed_deadlocks,
            st.group_searches,
            st.group_nodes
        );
    }
    let mut r = level_result(job, &report);
    r.strategy = solver.solved_by();
    r
}

/// Solve one level with the portfolio of `lanes` lanes on `threads` threads.
fn solve_level_portfolio(
    job: &Job,
    level: &Level,
    options: Options,
    lanes: usize,
    threads: usize,
    show_progress: bool,
) -> LevelResult {
    let clock = StdClock::new();
    let number = job.number;
    let next_report = std::sync::Mutex::new(vec![0.0; lanes]);
    let on_progress = |lane: usize, p: &sokoban_solver::Progress| {
        let mut next = next_report.lock().unwrap_or_else(|e| e.into_inner());
        if let (true, Some(f)) = (show_progress && p.elapsed_ms >= next[lane], &p.fast) {
            next[lane] = p.elapsed_ms + 1000.0;
            eprintln!(
                "level {number} lane {lane}: {}: {} moves, best packed {}/{}, {:.0} MiB, {:.1} s",
                f.strategy,
                f.generated,
                f.best_packed,
                f.goals,
                f.memory_bytes as f64 / (1 << 20) as f64,
                p.elapsed_ms / 1000.0
            );
        }
        true
    };
    match portfolio::solve_portfolio(
        level,
        &level.start,
        options,
        lanes,
        threads,
        &clock,
        &on_progress,
    ) {
        Ok(pr) => {
            if show_progress {
                let ms: Vec<u64> = pr.lane_ms.iter().map(|&t| t.round() as u64).collect();
                eprintln!(
                    "level {number}: moves per lane {:?}, each ended at {ms:?} ms",
                    pr.lane_nodes
                );
            }
            let mut r = level_result(job, &pr.report);
            r.strategy = pr.strategy;
            r.lane = pr.lane;
            r
        }
        Err(err) => LevelResult::failed(number, job.title.clone(), err.to_string()),
    }
}

/// A level's result from its search's report.
fn level_result(job: &Job, report: &Report) -> LevelResult {
    let number = job.number;
    let (status, limit) = match report.status {
        Status::Solved => ("solved", None),
        Status::Unsolvable => ("unsolvable", None),
        Status::Limit(Limit::Time) => ("limit", Some("time")),
        Status::Limit(Limit::Nodes) => ("limit", Some("nodes")),
        Status::Limit(Limit::Memory) => ("limit", Some("memory")),
        Status::Cancelled => ("limit", None),
        Status::Error => ("error", None),
    };
    let s = report.solution.as_ref();
    LevelResult {
        level: number,
        title: job.title.clone(),
        status,
        limit,
        pushes: s.map(|s| s.pushes),
        moves: s.map(|s| s.moves.len()),
        nodes: report.nodes,
        ms: report.elapsed_ms,
        lurd: s.map(|s| s.lurd()),
        error: report.error.clone(),
        expected_pushes: None,
        found_pushes: s.and_then(|s| s.found).map(|f| f.0),
        found_moves: s.and_then(|s| s.found).map(|f| f.1),
        strategy: None,
        lane: None,
    }
}

/// The terminal progress bar of a collection run, shared by the solver threads.
#[derive(Clone)]
struct Bar {
    bar: ProgressBar,
    state: std::sync::Arc<std::sync::Mutex<(Vec<usize>, usize)>>,
}

impl Bar {
    /// A level starts (`true`) or ends running.
    fn running(&self, number: usize, on: bool) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if on {
            st.0.push(number);
        } else {
            st.0.retain(|&n| n != number);
        }
        self.bar.set_message(Self::message(&st));
    }

    /// A level's result is out.
    fn done(&self, solved: bool) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.1 += solved as usize;
        self.bar.inc(1);
        self.bar.set_message(Self::message(&st));
    }

    fn message(st: &(Vec<usize>, usize)) -> String {
        let mut running: Vec<usize> = st.0.clone();
        running.sort_unstable();
        let list: Vec<String> = running.iter().take(8).map(|n| n.to_string()).collect();
        let more = if running.len() > 8 { ", ..." } else { "" };
        format!("{} solved; running {}{more}", st.1, list.join(", "))
    }
}

/// A progress bar on standard error when both outputs are a terminal, several levels run
/// and the output is the table (not CSV, JSON or --progress read-outs).
fn progress_bar(a: &SolveArgs, levels: usize) -> Option<Bar> {
    let tty = std::io::stdout().is_terminal() && std::io::stderr().is_terminal();
    if !tty || a.csv || a.json || a.progress || levels < 2 {
        return None;
    }
    let bar = ProgressBar::with_draw_target(Some(levels as u64), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{elapsed_precise} [{bar:30.cyan/blue}] {pos}/{len} levels, {msg}",
    )
    .ok()?
    .progress_chars("=> ");
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(Bar { bar, state: Default::default() })
}
