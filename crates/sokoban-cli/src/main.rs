//! `sokoban`: the command-line tool. Checks and converts level files in every format the
//! rules crate reads, and runs the solver on level collections (for benchmarks).

mod puzzle;

use std::io::{Read, Write};
use std::process::ExitCode;

use sokoban_core::format::{self, Collection, Input};
use sokoban_core::Level;
use sokoban_solver::{Clock, Limit, Mode, Options, Solver, Status, StdClock, Step};

const USAGE: &str = "\
usage:
  sokoban check FILE
      Validate every level: one line per level (number, title, size, boxes, ok or the
      error), then 'N levels, N valid'. Exit status 1 if any level is invalid.
  sokoban convert [--to FORMAT] [--level N] [--base URL] [FILE]
      Read levels in any format (FILE or standard input) and print them in FORMAT:
      xsb (default), rle, mf8, sokoplayer, soko, sokobanscript, base64, collection.
  sokoban solve FILE [--mode optimal|fast] [--levels A-B] [--timeout SECONDS]
                     [--memory MIB] [--nodes N] [--csv] [--expect PUSHES.csv] [--progress]
      Solve levels one after another (default timeout 10 s per level). --mode optimal
      (the default) finds push-optimal solutions (IDA*, table 256 MiB); --mode fast finds
      any solution as quickly as it can (feature space search, store 1024 MiB).
      With --csv: 'level,status,pushes,moves,nodes,ms,lurd'. With --expect, compare push
      counts with a 'level,pushes' file and exit 1 on a mismatch. --nodes stops a level
      after N nodes (fast search: moves made), for runs that do not depend on the machine's
      speed. --progress prints each
      finished IDA* iteration (or the fast search's read-out) to standard error.
  sokoban plan FILE [--levels A-B]
      Draw each level with the fast search's packing plan: every goal shows its place in
      the order the goals are to be filled (1-9, a-z, A-Z).
  sokoban puzzle [FILE] [--goal blank-last|blank-first|TILES] [--size WxH] [--csv]
                 [--heuristic auto|pdb|lc|manhattan] [--timeout SECONDS] [--no-mirror]
                 [--progress]
      Sliding-tile puzzles (2x2 to 5x5), fewest moves. Input: a count, then one position
      per line (numbers in row-major order, 0 the blank), or a CSV with a 'tiles' column.
      Prints each position's fewest moves, or -1 when the goal cannot be reached. --goal:
      blank-last (1 2 ... 0, the default), blank-first (0 1 2 ...) or the goal's tiles.
      --csv: 'id,status,moves,nodes,ms,solution' (the blank's moves, U R D L); a CSV
      input's 'optimal_moves' column is checked (exit 1 on a mismatch).
  FILE may be '-' for standard input.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("check") => check(&args[1..]),
        Some("convert") => convert(&args[1..]),
        Some("solve") => solve(&args[1..]),
        Some("plan") => plan(&args[1..]),
        Some("puzzle") => puzzle::puzzle(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        _ => Err(format!("expected a command\n{USAGE}")),
    };
    match result {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("sokoban: {msg}");
            ExitCode::from(2)
        }
    }
}

fn read_input(path: &str) -> Result<String, String> {
    if path == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map_err(|e| format!("standard input: {e}"))?;
        Ok(s)
    } else {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        // Level files are often Latin-1 or Windows-1252 in titles; keep going.
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}

fn read_collection(path: &str) -> Result<Collection, String> {
    let text = read_input(path)?;
    match format::parse_input(&text).map_err(|e| format!("{path}: {e}"))? {
        Input::Levels(c) => Ok(c),
        Input::Solution(_) => Err(format!("{path}: holds a solution (LURD), not levels")),
    }
}

/// Options of a subcommand: `--name value` pairs, flags, and positional arguments.
struct Args {
    positional: Vec<String>,
    named: Vec<(String, Option<String>)>,
}

impl Args {
    fn parse(args: &[String], with_value: &[&str], flags: &[&str]) -> Result<Args, String> {
        let mut out = Args { positional: Vec::new(), named: Vec::new() };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if let Some(name) = a.strip_prefix("--") {
                let (name, inline) = match name.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_string())),
                    None => (name, None),
                };
                if with_value.contains(&name) {
                    let v = match inline {
                        Some(v) => v,
                        None => it.next().ok_or_else(|| format!("--{name} needs a value"))?.clone(),
                    };
                    out.named.push((name.to_string(), Some(v)));
                } else if flags.contains(&name) {
                    out.named.push((name.to_string(), None));
                } else {
                    return Err(format!("unknown option --{name}\n{USAGE}"));
                }
            } else {
                out.positional.push(a.clone());
            }
        }
        Ok(out)
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.named.iter().rev().find(|(n, _)| n == name).and_then(|(_, v)| v.as_deref())
    }

    fn flag(&self, name: &str) -> bool {
        self.named.iter().any(|(n, _)| n == name)
    }
}

fn check(args: &[String]) -> Result<ExitCode, String> {
    let a = Args::parse(args, &[], &[])?;
    let [path] = a.positional.as_slice() else {
        return Err(format!("check needs one FILE\n{USAGE}"));
    };
    let coll = read_collection(path)?;
    let mut out = std::io::stdout().lock();
    let mut valid = 0;
    for e in &coll.entries {
        let title = e.title.as_deref().unwrap_or("");
        let line = match e.level() {
            Ok(l) => {
                valid += 1;
                format!(
                    "{:>4}  {:<32}  {:>3}x{:<3}  {:>3} boxes  ok",
                    e.number,
                    clip(title, 32),
                    l.board.width(),
                    l.board.height(),
                    l.box_count()
                )
            }
            Err(err) => {
                let w = e.grid.width();
                let h = e.grid.rows.len();
                let boxes = e.grid.rows.iter().flatten().filter(|t| t.is_box()).count();
                format!(
                    "{:>4}  {:<32}  {:>3}x{:<3}  {:>3} boxes  error: {}",
                    e.number,
                    clip(title, 32),
                    w,
                    h,
                    boxes,
                    err.message
                )
            }
        };
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    let n = coll.entries.len();
    writeln!(out, "{n} level{}, {valid} valid", if n == 1 { "" } else { "s" })
        .map_err(|e| e.to_string())?;
    Ok(if valid == n { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
    }
}

fn convert(args: &[String]) -> Result<ExitCode, String> {
    let a = Args::parse(args, &["to", "level", "base"], &[])?;
    let path = match a.positional.as_slice() {
        [] => "-",
        [p] => p.as_str(),
        _ => return Err(format!("convert takes at most one FILE\n{USAGE}")),
    };
    let coll = read_collection(path)?;
    let to = a.value("to").unwrap_or("xsb");
    let base = a.value("base").unwrap_or("http://sokoban.ws/sokoplayer/");
    let pick: Option<usize> = match a.value("level") {
        Some(v) => Some(v.parse().map_err(|_| format!("--level: '{v}' is not a number"))?),
        None => None,
    };
    let mut levels: Vec<Level> = Vec::new();
    for e in &coll.entries {
        if pick.is_some_and(|n| n != e.number) {
            continue;
        }
        levels.push(e.level().map_err(|err| err.message)?);
    }
    if levels.is_empty() {
        return Err(format!("no level {} in {path}", pick.unwrap_or(0)));
    }
    let one = |l: &Level| -> Result<String, String> {
        Ok(match to {
            "xsb" => format::to_xsb(l),
            "rle" => format::to_rle(l),
            "mf8" => format::to_mf8(l),
            "sokoplayer" => format::to_sokoplayer_url(l, base),
            "soko" => format::to_soko_wrapper(l),
            "sokobanscript" => format::to_sokobanscript_level_url(l, base),
            "base64" => format::to_sokobanscript_base64_url(l, base),
            other => return Err(format!("unknown format '{other}'\n{USAGE}")),
        })
    };
    let text = if to == "collection" {
        format::to_collection(&levels)
    } else {
        let mut parts = Vec::new();
        for l in &levels {
            parts.push(one(l)?);
        }
        let sep = if matches!(to, "xsb") { "\n\n" } else { "\n" };
        parts.join(sep)
    };
    println!("{}", text.trim_end());
    Ok(ExitCode::SUCCESS)
}

fn plan(args: &[String]) -> Result<ExitCode, String> {
    let a = Args::parse(args, &["levels"], &[])?;
    let [path] = a.positional.as_slice() else {
        return Err(format!("plan needs one FILE\n{USAGE}"));
    };
    let coll = read_collection(path)?;
    let (lo, hi) = match a.value("levels") {
        Some(r) => parse_range(r)?,
        None => (1, usize::MAX),
    };
    for e in coll.entries.iter().filter(|e| e.number >= lo && e.number <= hi) {
        match e.level() {
            Ok(level) => {
                println!("level {}", e.number);
                print!("{}", sokoban_solver::fast::plan_picture(&level));
            }
            Err(err) => println!("level {}: {}", e.number, err.message),
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn parse_range(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--levels: '{s}' is not N or A-B");
    match s.split_once('-') {
        Some((a, b)) => {
            Ok((a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?))
        }
        None => {
            let n = s.trim().parse().map_err(|_| bad())?;
            Ok((n, n))
        }
    }
}

fn solve(args: &[String]) -> Result<ExitCode, String> {
    let a = Args::parse(
        args,
        &["levels", "timeout", "memory", "expect", "mode", "nodes"],
        &["csv", "progress"],
    )?;
    let mode = match a.value("mode").unwrap_or("optimal") {
        "optimal" => Mode::Optimal,
        "fast" => Mode::Fast,
        other => return Err(format!("--mode: '{other}' is not optimal or fast\n{USAGE}")),
    };
    let [path] = a.positional.as_slice() else {
        return Err(format!("solve needs one FILE\n{USAGE}"));
    };
    let coll = read_collection(path)?;
    let (lo, hi) = match a.value("levels") {
        Some(r) => parse_range(r)?,
        None => (1, usize::MAX),
    };
    let timeout: f64 = match a.value("timeout") {
        Some(v) => v.parse().map_err(|_| format!("--timeout: '{v}' is not a number"))?,
        None => 10.0,
    };
    let memory: usize = match a.value("memory") {
        Some(v) => v.parse().map_err(|_| format!("--memory: '{v}' is not a number"))?,
        None if mode == Mode::Fast => 1024,
        None => 256,
    };
    let expect: Vec<(usize, usize)> = match a.value("expect") {
        Some(p) => read_input(p)?
            .lines()
            .filter_map(|l| {
                let (a, b) = l.split_once(',')?;
                Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
            })
            .collect(),
        None => Vec::new(),
    };
    let node_limit: Option<u64> = match a.value("nodes") {
        Some(v) => Some(v.parse().map_err(|_| format!("--nodes: '{v}' is not a number"))?),
        None => None,
    };
    let csv = a.flag("csv");
    let show_progress = a.flag("progress");
    let mut out = std::io::stdout().lock();
    if csv {
        writeln!(out, "level,status,pushes,moves,nodes,ms,lurd").map_err(|e| e.to_string())?;
    }
    let (mut solved, mut total, mut mismatches, mut ms_total) = (0, 0, 0, 0.0);
    for e in coll.entries.iter().filter(|e| e.number >= lo && e.number <= hi) {
        total += 1;
        let level = match e.level() {
            Ok(l) => l,
            Err(err) => {
                if csv {
                    writeln!(out, "{},error,,,,,", e.number).map_err(|e| e.to_string())?;
                } else {
                    writeln!(out, "{:>4}  error: {}", e.number, err.message)
                        .map_err(|e| e.to_string())?;
                }
                continue;
            }
        };
        let options = Options {
            time_limit_ms: Some(timeout * 1000.0),
            table_mib: memory,
            mode,
            node_limit,
            ..Options::default()
        };
        let clock = StdClock::new();
        let number = e.number;
        let t0 = clock.now_ms();
        let mut solver = Solver::new(&level, &level.start, options)
            .map_err(|err| format!("level {}: {err}", e.number))?;
        // The setup (push distances, groups) counts towards the time and its limit.
        solver.count_from(t0);
        let mut next_report = 0.0;
        let report = loop {
            match solver.step(&clock, f64::INFINITY) {
                Step::Done(r) => break r,
                Step::Running(p) if show_progress && p.fast.is_some() => {
                    if let Some(f) = &p.fast {
                        if p.elapsed_ms >= next_report {
                            next_report = p.elapsed_ms + 1000.0;
                            eprintln!(
                                "level {number}: {} {}/{}: {} positions, {} moves, {} cells, best packed {}/{}, {:.0} MiB, {:.1} s; backward {} positions, fewest on goals {}",
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
        ms_total += report.elapsed_ms;
        let status = match report.status {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Limit(_) | Status::Cancelled => "limit",
            Status::Error => "error",
        };
        let (pushes, moves, lurd) = match &report.solution {
            Some(s) => (s.pushes.to_string(), s.moves.len().to_string(), s.lurd()),
            None => (String::new(), String::new(), String::new()),
        };
        let mut note = String::new();
        if let (Some(s), Some(&(_, want))) =
            (&report.solution, expect.iter().find(|(n, _)| *n == e.number))
        {
            if s.pushes != want {
                mismatches += 1;
                note = format!("  MISMATCH: expected {want} pushes");
            }
        }
        if report.status == Status::Solved {
            solved += 1;
        }
        if csv {
            writeln!(
                out,
                "{},{status},{pushes},{moves},{},{:.0},{lurd}",
                e.number, report.nodes, report.elapsed_ms
            )
            .map_err(|e| e.to_string())?;
        } else {
            let why = match report.status {
                Status::Limit(Limit::Time) => " (time)".to_string(),
                Status::Limit(Limit::Nodes) => " (nodes)".to_string(),
                Status::Limit(Limit::Memory) => " (memory)".to_string(),
                Status::Error => format!(" ({})", report.error.as_deref().unwrap_or("")),
                _ => String::new(),
            };
            writeln!(
                out,
                "{:>4}  {:<24}  {status}{why}  pushes {pushes:>4}  moves {moves:>5}  nodes {:>10}  {:>8.0} ms{note}",
                e.number,
                clip(e.title.as_deref().unwrap_or(""), 24),
                report.nodes,
                report.elapsed_ms
            )
            .map_err(|e| e.to_string())?;
        }
        if csv && !note.is_empty() {
            eprintln!("level {}:{note}", e.number);
        }
        out.flush().map_err(|e| e.to_string())?;
    }
    let summary = format!(
        "{solved} of {total} solved in {:.1} s{}",
        ms_total / 1000.0,
        if expect.is_empty() {
            String::new()
        } else {
            format!(", {mismatches} push-count mismatches")
        }
    );
    if csv {
        eprintln!("{summary}");
    } else {
        writeln!(out, "{summary}").map_err(|e| e.to_string())?;
    }
    Ok(if mismatches > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
