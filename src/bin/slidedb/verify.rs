//! `slidedb verify`: a table checked completely, and a search's answers
//! checked against it.

use std::time::Instant;

use anyhow::Result;
use clap::{Args as ClapArgs, ValueEnum};
use slidedb::Algorithm;
use slidedb::random::SplitMix64;
use slidedb::verify::{check_search, check_table};

use crate::solve::HeuristicArg;
use crate::tables::{TableChoice, Tables};

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
    choice: TableChoice,
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

pub fn run(args: &VerifyArgs) -> Result<u8> {
    let mut tables = Tables::opening(&args.choice, false)?;
    let found = tables.get(tables.shape())?;
    if !found.class.is_canonical() {
        println!(
            "goal {} is served by the table of goal {} ({}): checking that table",
            found.class.goal(),
            found.class.canonical(),
            found.class.canonical().shape()
        );
    }
    let table = found.table;
    let start = Instant::now();
    let mut failed = false;
    match check_table(&*table) {
        Ok(()) => println!(
            "table: {} states; checksum, every entry against its neighbours, and a fresh search agree ({:.3} s)",
            table.states(),
            start.elapsed().as_secs_f64()
        ),
        Err(fault) => {
            println!("table: FAULT: {fault}");
            failed = true;
        }
    }
    let algorithm = match args.algo {
        VerifyAlgo::Astar => Algorithm::AStar,
        VerifyAlgo::Idastar => Algorithm::IdaStar,
    };
    let start = Instant::now();
    let states = table.states();
    let report = if args.all {
        check_search(&*table, algorithm, args.heuristic.into(), 0..states)
    } else {
        let n = args.sample.unwrap_or(1000).min(states);
        let mut rng = SplitMix64::new(args.seed);
        let picks: Vec<u64> = (0..n).map(|_| rng.below(states)).collect();
        check_search(&*table, algorithm, args.heuristic.into(), picks)
    };
    for m in &report.mismatches {
        let got = m
            .search
            .map_or("no valid path".to_string(), |l| format!("{l} moves"));
        println!(
            "mismatch: {}: table {} moves, {} {got}",
            m.board,
            m.table,
            algorithm.name()
        );
    }
    println!(
        "{}: {} states checked, {} mismatches, {} nodes expanded, {:.3} s",
        algorithm.name(),
        report.checked,
        report.mismatches.len(),
        report.expanded,
        start.elapsed().as_secs_f64()
    );
    failed |= !report.mismatches.is_empty();
    Ok(if failed { 1 } else { 0 })
}
