//! `slidedb verify`: a table checked completely, and a search's answers
//! checked against it.

use slidedb::BuiltFor;
use std::io::{self, Write};
use std::time::Instant;

use anyhow::Result;
use clap::{Args as ClapArgs, ValueEnum};
use slidedb::PatternDb;
use slidedb::database::Bytes;
use slidedb::random::SplitMix64;
use slidedb::verify::{Progress as VerifyProgress, check_search_with, check_table_with};
use slidedb::{Algorithm, Board, Heuristic, Method, Solver};
use slidedb_cli::progress::{BAR, Progress};

use crate::data::DataArgs;
use crate::solve::HeuristicArg;

/// The optimal searches whose answers `verify` checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VerifyAlgo {
    /// A*.
    Astar,
    /// IDA*.
    Idastar,
}

#[derive(ClapArgs)]
pub struct VerifyArgs {
    #[command(flatten)]
    data: DataArgs,
    /// Check the search on every state (in parallel).
    #[arg(long, conflicts_with = "sample")]
    all: bool,
    /// Check the search on N random states [default: 1000; 0 past 12
    /// cells, where one A* search can take minutes].
    #[arg(long, value_name = "N")]
    sample: Option<u64>,
    /// Seed of the random sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The search to check.
    #[arg(long, value_enum, default_value_t = VerifyAlgo::Astar)]
    algo: VerifyAlgo,
    /// The estimate it uses [default: manhattan; with --metric multi,
    /// walking-distance]. In the multi-tile metric, manhattan and
    /// linear-conflict are divided by the longest side less one, so that
    /// they never overestimate; pdb is single-tile only.
    #[arg(long, value_enum)]
    heuristic: Option<HeuristicArg>,
    /// No progress on stderr (a bar on a terminal, else a line per tenth).
    #[arg(long)]
    quiet: bool,
}

/// Progress of the table's check on stderr, for tables that take seconds
/// (over [`LONG_CHECK`] states): a bar on a terminal, else a line at each
/// stage and each tenth of it; nothing with --quiet.
const LONG_CHECK: u64 = 10_000_000;

struct Report {
    shown: Progress,
    /// The last stage and tenth printed as a line.
    printed: std::sync::Mutex<(u8, u64)>,
}

impl Report {
    fn new(quiet: bool, states: u64) -> Report {
        let quiet = quiet || states <= LONG_CHECK;
        Report {
            shown: Progress::bar(quiet, 100, &format!("{BAR} {{msg}} [{{elapsed}}]")),
            printed: std::sync::Mutex::new((u8::MAX, u64::MAX)),
        }
    }

    fn progress(&self, p: VerifyProgress) {
        if self.shown.is_quiet() {
            return;
        }
        let (stage, what, fraction) = match p {
            VerifyProgress::Checksum => (0, "the checksum".to_string(), 0.0),
            VerifyProgress::Entries { done, total } => (
                1,
                "each entry against its neighbours".to_string(),
                done as f64 / total.max(1) as f64,
            ),
            VerifyProgress::FreshSearch { depth, max_depth } => (
                2,
                "against a fresh search".to_string(),
                depth as f64 / max_depth.max(1) as f64,
            ),
            _ => return,
        };
        if self.shown.is_drawn() {
            self.shown.set((fraction * 100.0) as u64, what);
        } else {
            let tenth = (fraction * 10.0) as u64;
            let mut printed = self.printed.lock().unwrap_or_else(|e| e.into_inner());
            if *printed != (stage, tenth) {
                *printed = (stage, tenth);
                say!("slidedb: verify: {what}: {}%", tenth * 10);
            }
        }
    }

    fn finish(&self) {
        self.shown.finish();
    }
}

/// Checks pattern databases' bytes: checksum, layer counts; prints the
/// outcome and returns whether they are sound.
fn check_patterns(out: &mut impl Write, db: &PatternDb<Bytes>) -> io::Result<bool> {
    let start = Instant::now();
    match db.verify() {
        Ok(()) => {
            writeln!(
                out,
                "pattern databases {} for goal {}: checksum and layer counts agree ({:.3} s)",
                db.partition().sizes(),
                db.goal(),
                start.elapsed().as_secs_f64()
            )?;
            Ok(true)
        }
        Err(e) => {
            writeln!(
                out,
                "pattern databases {} for goal {}: FAULT: {e}",
                db.partition().sizes(),
                db.goal()
            )?;
            Ok(false)
        }
    }
}

pub fn run(args: &VerifyArgs) -> Result<u8> {
    let mut out = crate::output();
    let code = verify(args, &mut out)?;
    out.flush()?;
    Ok(code)
}

fn verify(args: &VerifyArgs, mut out: &mut impl Write) -> Result<u8> {
    let data = args.data.open(false)?;
    let shape = data.shape();
    // Beyond full tables there is nothing exact to check a search
    // against: the databases' own bytes are checked.
    if shape.cells() > slidedb::MAX_TABLE_CELLS {
        let found = data.require_patterns(shape)?;
        return Ok(if check_patterns(&mut out, found.get())? {
            0
        } else {
            1
        });
    }
    let algorithm = match args.algo {
        VerifyAlgo::Astar => Algorithm::AStar,
        VerifyAlgo::Idastar => Algorithm::IdaStar,
    };
    // The search counts moves in the table's metric, with an estimate
    // admissible there: a plain heuristic (by default the metric's), or
    // the goal class's pattern databases where the metric has them
    // (refused at once, saying why, where it has none).
    let metric = data.db.metric();
    let heuristic = args
        .heuristic
        .map_or(Some(Heuristic::default_in(metric)), |h| h.plain());
    if heuristic.is_none() {
        data.engine(shape, Method::PatternSearch(algorithm))?;
    }
    let table = data.table(shape)?;
    let class = *table.toward();
    if !class.is_canonical() {
        writeln!(
            out,
            "goal {} is served by the table of goal {} ({}): checking that table",
            class.goal(),
            class.canonical(),
            class.canonical().shape()
        )?;
    }
    let start = Instant::now();
    let report = Report::new(args.quiet, table.get().states());
    let checked = check_table_with(table.get(), |p| report.progress(p));
    report.finish();
    match checked {
        Ok(()) => writeln!(
            out,
            "table: {} states; checksum, every entry against its neighbours, and a fresh search agree ({:.3} s)",
            table.get().states(),
            start.elapsed().as_secs_f64()
        )?,
        Err(fault) => {
            // A search checked against a damaged table proves nothing.
            let how = match (&fault, &args.data.table) {
                (slidedb::verify::Fault::ShardedTooLarge, Some(dir)) => {
                    format!(", with slidedb-gen merge {} --out FILE", dir.display())
                }
                _ => String::new(),
            };
            writeln!(out, "table: FAULT: {fault}{how}")?;
            writeln!(out, "the search is not checked against a damaged table")?;
            return Ok(1);
        }
    }
    let patterns = match heuristic {
        Some(_) => None,
        None => {
            let found = data.require_patterns(shape)?;
            if !check_patterns(&mut out, found.get())? {
                return Ok(1);
            }
            Some(found)
        }
    };
    // The search runs toward the goal asked for (the table's own, when
    // none is asked for and the table was named).
    let toward = class;
    let solver = Solver::new(class.goal())
        .with_memory(data.db.search_memory())
        .with_metric(metric);
    let solve = |board: &Board| match (&patterns, heuristic) {
        (Some(db), _) if algorithm == Algorithm::IdaStar => db.solve(board),
        // The databases serve the goal, and the boards are of its shape.
        (Some(db), _) => solver.solve_estimated(board, algorithm, |b| db.estimate(b).unwrap_or(0)),
        (None, heuristic) => solver.solve(board, algorithm, heuristic.unwrap_or_default()),
    };
    let start = Instant::now();
    let states = table.get().states();
    // Past 12 cells a plain A* from a random board can run for minutes:
    // the search is sampled only when asked.
    let default_sample = if shape.cells() > slidedb::MAX_IN_MEMORY_CELLS {
        0
    } else {
        1000
    };
    if !args.all && args.sample.unwrap_or(default_sample) == 0 {
        writeln!(
            out,
            "{}: not sampled (pass --sample N to check N random states)",
            algorithm.name()
        )?;
        return Ok(0);
    }
    let report = if args.all {
        check_search_with(table.get(), toward.goal(), 0..states, solve)?
    } else {
        let n = args.sample.unwrap_or(default_sample).min(states);
        let mut rng = SplitMix64::new(args.seed);
        let picks: Vec<u64> = (0..n).map(|_| rng.below(states)).collect();
        check_search_with(table.get(), toward.goal(), picks, solve)?
    };
    for m in &report.mismatches {
        let got = m.search.map_or("no valid path".to_string(), |l| {
            slidedb::words::counted(u64::from(l), "move", "moves")
        });
        let want = m.table.map_or("damaged".to_string(), |l| {
            slidedb::words::counted(u64::from(l), "move", "moves")
        });
        writeln!(
            out,
            "mismatch: {}: table {want}, {} {got}",
            m.board,
            algorithm.name()
        )?;
    }
    writeln!(
        out,
        "{}: {} states checked, {} mismatches, {} nodes expanded, {:.3} s",
        algorithm.name(),
        report.checked,
        report.mismatches.len(),
        report.expanded,
        start.elapsed().as_secs_f64()
    )?;
    Ok(if report.mismatches.is_empty() { 0 } else { 1 })
}
