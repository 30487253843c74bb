//! `sokoban`: the command-line tool. Checks and converts level files in every format the
//! rules crate reads, runs the solvers on level collections (for benchmarks) and solves
//! sliding-tile puzzles.

mod optimize;
mod puzzle;
mod solve;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use serde::Serialize;
use sokoban_core::format::{self, Collection, Input};
use sokoban_core::Level;

/// The exit status rule, shown at the end of `--help`.
const EXIT_CODES: &str = "\
Exit status:
  0  all good: every level valid (check), solved (solve) or answered (puzzle)
  1  some level invalid, not solved within its limits, proved unsolvable or failed, or a
     count differs from the expected one (--expect, optimal_moves)
  2  usage error (bad argument, unreadable or unparsable input)";

#[derive(Parser)]
#[command(
    name = "sokoban",
    version,
    about = "Check, convert and solve Sokoban levels in every common format; solve sliding-tile puzzles",
    after_help = EXIT_CODES,
    args_override_self = true,
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate every level: one line per level (number, title, size, boxes, ok or the
    /// error), then 'N levels, N valid'
    #[command(after_help = EXIT_CODES, args_override_self = true)]
    Check(CheckArgs),
    /// Read levels in any format and print them in another
    #[command(after_help = EXIT_CODES, args_override_self = true)]
    Convert(ConvertArgs),
    /// Solve levels: push-optimal (IDA*) or any solution fast (feature space search), on
    /// all cores
    #[command(after_help = EXIT_CODES, args_override_self = true)]
    Solve(solve::SolveArgs),
    /// Make solutions shorter (fewer moves or fewer pushes): a vicinity search around each
    /// solution, the results replayed
    #[command(after_help = EXIT_CODES, args_override_self = true)]
    Optimize(optimize::OptimizeArgs),
    /// Draw each level with the fast search's packing plan: every goal shows its place in
    /// the order the goals are to be filled (1-9, a-z, A-Z); a plan that parks boxes also
    /// lists its steps as (row, column) from 0
    #[command(after_help = EXIT_CODES, args_override_self = true)]
    Plan(PlanArgs),
    /// Sliding-tile puzzles (2x2 to 5x5): the fewest moves of each position
    #[command(after_help = EXIT_CODES, args_override_self = true)]
    Puzzle(puzzle::PuzzleArgs),
}

#[derive(Args)]
struct CheckArgs {
    /// Level file in any format ('-' for standard input)
    file: PathBuf,
    /// One JSON object per level and line ({level, title, width, height, boxes, valid,
    /// error}); the count goes to standard error
    #[arg(long)]
    json: bool,
}

/// Output formats of `convert`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum To {
    /// XSB board (the default)
    Xsb,
    /// Run-length XSB, rows split by '|'
    Rle,
    /// MF8 rows ('H' walls, '_' floor) split by '|'
    Mf8,
    /// SokoPlayer link (--base)
    Sokoplayer,
    /// [soko=W,H]...[/soko] wrapper
    Soko,
    /// SokobanScript link with ?level= (URL-encoded XSB; --base)
    Sokobanscript,
    /// SokobanScript link with ?base64= (--base)
    Base64,
    /// A collection with titles
    Collection,
}

#[derive(Args)]
struct ConvertArgs {
    /// Level file in any format ('-' or nothing for standard input)
    file: Option<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value = "xsb", value_name = "FORMAT")]
    to: To,
    /// Only level N of a collection
    #[arg(long, value_name = "N")]
    level: Option<usize>,
    /// Base address of links (sokoplayer, sokobanscript, base64)
    #[arg(long, value_name = "URL", default_value = "http://sokoban.ws/sokoplayer/")]
    base: String,
}

#[derive(Args)]
struct PlanArgs {
    /// Level file in any format ('-' for standard input)
    file: PathBuf,
    /// Levels to draw: N or A-B (numbers in the collection, from 1)
    #[arg(long, value_name = "A-B", value_parser = parse_range)]
    levels: Option<(usize, usize)>,
    /// Development switches of the fast search, as `solve --experiments` takes them
    #[arg(long, value_name = "LIST")]
    experiments: Option<String>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(a) => check(a),
        Command::Convert(a) => convert(a),
        Command::Solve(a) => solve::solve(a),
        Command::Optimize(a) => optimize::optimize(a),
        Command::Plan(a) => plan(a),
        Command::Puzzle(a) => puzzle::puzzle(a),
    };
    match result {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("sokoban: {msg}");
            ExitCode::from(2)
        }
    }
}

/// The text of a file, or of standard input for '-'.
pub(crate) fn read_input(path: &std::path::Path) -> Result<String, String> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map_err(|e| format!("standard input: {e}"))?;
        Ok(s)
    } else {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        // Level files are often Latin-1 or Windows-1252 in titles; keep going.
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}

pub(crate) fn read_collection(path: &std::path::Path) -> Result<Collection, String> {
    let text = read_input(path)?;
    let name = path.display();
    match format::parse_input(&text).map_err(|e| format!("{name}: {e}"))? {
        Input::Levels(c) => Ok(c),
        Input::Solution(_) => Err(format!("{name}: holds a solution (LURD), not levels")),
    }
}

/// `N` or `A-B`.
pub(crate) fn parse_range(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{s}' is not N or A-B");
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

pub(crate) fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
    }
}

pub(crate) fn io_err(e: std::io::Error) -> String {
    e.to_string()
}

/// One level of `check --json`.
#[derive(Serialize)]
struct CheckLine<'a> {
    level: usize,
    title: Option<&'a str>,
    width: usize,
    height: usize,
    boxes: usize,
    valid: bool,
    error: Option<String>,
}

fn check(a: CheckArgs) -> Result<ExitCode, String> {
    let coll = read_collection(&a.file)?;
    let mut out = std::io::stdout().lock();
    let mut valid = 0;
    for e in &coll.entries {
        let title = e.title.as_deref().unwrap_or("");
        let line = match e.level() {
            Ok(l) => {
                valid += 1;
                CheckLine {
                    level: e.number,
                    title: e.title.as_deref(),
                    width: l.board.width(),
                    height: l.board.height(),
                    boxes: l.box_count(),
                    valid: true,
                    error: None,
                }
            }
            Err(err) => CheckLine {
                level: e.number,
                title: e.title.as_deref(),
                width: e.grid.width(),
                height: e.grid.rows.len(),
                boxes: e.grid.rows.iter().flatten().filter(|t| t.is_box()).count(),
                valid: false,
                error: Some(err.message),
            },
        };
        let text = if a.json {
            serde_json::to_string(&line).map_err(|e| e.to_string())?
        } else {
            format!(
                "{:>4}  {:<32}  {:>3}x{:<3}  {:>3} boxes  {}",
                line.level,
                clip(title, 32),
                line.width,
                line.height,
                line.boxes,
                match &line.error {
                    None => "ok".to_string(),
                    Some(m) => format!("error: {m}"),
                }
            )
        };
        writeln!(out, "{text}").map_err(io_err)?;
    }
    let n = coll.entries.len();
    let summary = format!("{n} level{}, {valid} valid", if n == 1 { "" } else { "s" });
    if a.json {
        eprintln!("{summary}");
    } else {
        writeln!(out, "{summary}").map_err(io_err)?;
    }
    Ok(if valid == n { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn convert(a: ConvertArgs) -> Result<ExitCode, String> {
    let path = a.file.unwrap_or_else(|| PathBuf::from("-"));
    let coll = read_collection(&path)?;
    let mut levels: Vec<Level> = Vec::new();
    for e in &coll.entries {
        if a.level.is_some_and(|n| n != e.number) {
            continue;
        }
        levels.push(e.level().map_err(|err| err.message)?);
    }
    if levels.is_empty() {
        return Err(format!("no level {} in {}", a.level.unwrap_or(0), path.display()));
    }
    let base = a.base.as_str();
    let one = |l: &Level| -> String {
        match a.to {
            To::Xsb | To::Collection => format::to_xsb(l),
            To::Rle => format::to_rle(l),
            To::Mf8 => format::to_mf8(l),
            To::Sokoplayer => format::to_sokoplayer_url(l, base),
            To::Soko => format::to_soko_wrapper(l),
            To::Sokobanscript => format::to_sokobanscript_level_url(l, base),
            To::Base64 => format::to_sokobanscript_base64_url(l, base),
        }
    };
    let text = if a.to == To::Collection {
        format::to_collection(&levels)
    } else {
        let parts: Vec<String> = levels.iter().map(one).collect();
        let sep = if a.to == To::Xsb { "\n\n" } else { "\n" };
        parts.join(sep)
    };
    println!("{}", text.trim_end());
    Ok(ExitCode::SUCCESS)
}

fn plan(a: PlanArgs) -> Result<ExitCode, String> {
    let coll = read_collection(&a.file)?;
    let (lo, hi) = a.levels.unwrap_or((1, usize::MAX));
    let exp = sokoban_solver::fast::Experiments::parse(a.experiments.as_deref().unwrap_or(""))
        .map_err(|e| format!("--experiments: {e}"))?;
    let exp = std::sync::Arc::new(exp);
    let mut all_valid = true;
    for e in coll.entries.iter().filter(|e| e.number >= lo && e.number <= hi) {
        match e.level() {
            Ok(level) => {
                println!("level {}", e.number);
                let memory = sokoban_solver::memory::FAST_MIB << 20;
                print!("{}", sokoban_solver::fast::plan_picture(&level, &exp, memory));
            }
            Err(err) => {
                all_valid = false;
                println!("level {}: {}", e.number, err.message);
            }
        }
    }
    Ok(if all_valid { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
