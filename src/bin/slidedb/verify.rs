//! `slidedb verify`: a table checked completely, and a search's answers
//! checked against it.

use std::io::{self, Write};
use std::time::Instant;

use anyhow::Result;
use clap::{Args as ClapArgs, ValueEnum};
use slidedb::pdb::PatternDb;
use slidedb::random::SplitMix64;
use slidedb::store::Bytes;
use slidedb::verify::{check_search_toward, check_table};
use slidedb::{Algorithm, Board, Solver};

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
    /// Check the search on N random states [default: 1000].
    #[arg(long, value_name = "N")]
    sample: Option<u64>,
    /// Seed of the random sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The search to check.
    #[arg(long, value_enum, default_value_t = VerifyAlgo::Astar)]
    algo: VerifyAlgo,
    /// The estimate it uses.
    #[arg(long, value_enum, default_value_t = HeuristicArg::Manhattan)]
    heuristic: HeuristicArg,
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
    match check_table(table.get()) {
        Ok(()) => writeln!(
            out,
            "table: {} states; checksum, every entry against its neighbours, and a fresh search agree ({:.3} s)",
            table.get().states(),
            start.elapsed().as_secs_f64()
        )?,
        Err(fault) => {
            // A search checked against a damaged table proves nothing.
            writeln!(out, "table: FAULT: {fault}")?;
            writeln!(out, "the search is not checked against a damaged table")?;
            return Ok(1);
        }
    }
    let algorithm = match args.algo {
        VerifyAlgo::Astar => Algorithm::AStar,
        VerifyAlgo::Idastar => Algorithm::IdaStar,
    };
    // The estimate: a plain heuristic, or the goal class's pattern
    // databases.
    let patterns = match args.heuristic.plain() {
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
    let solver = Solver::new(class.goal()).with_memory(data.db.search_memory());
    let solve = |board: &Board| match (&patterns, args.heuristic.plain()) {
        (Some(db), _) if algorithm == Algorithm::IdaStar => db.solve(board),
        // The databases serve the goal, and the boards are of its shape.
        (Some(db), _) => solver.solve_estimated(board, algorithm, |b| db.estimate(b).unwrap_or(0)),
        (None, heuristic) => solver.solve(board, algorithm, heuristic.unwrap_or_default()),
    };
    let start = Instant::now();
    let states = table.get().states();
    let report = if args.all {
        check_search_toward(table.get(), &toward, 0..states, solve)?
    } else {
        let n = args.sample.unwrap_or(1000).min(states);
        let mut rng = SplitMix64::new(args.seed);
        let picks: Vec<u64> = (0..n).map(|_| rng.below(states)).collect();
        check_search_toward(table.get(), &toward, picks, solve)?
    };
    for m in &report.mismatches {
        let got = m
            .search
            .map_or("no valid path".to_string(), |l| format!("{l} moves"));
        let want = m
            .table
            .map_or("damaged".to_string(), |l| format!("{l} moves"));
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
