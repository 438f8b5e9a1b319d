//! `slidedb`: answers sliding-tile boards from a distance table, and
//! compares the classic searches with it.
//!
//! Exit status: 0 when every board is answered, 1 when some board is
//! unsolvable (and none invalid) or `verify` finds a mismatch, 2 on any
//! error.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[macro_use]
mod console;

mod alloc;
mod compare;
mod data;
mod solve;
mod stats;
mod verify;

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

/// Exact, optimal answers for sliding-tile puzzles from a precomputed table.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve boards: print the blank's moves (u d l r), one line per board.
    ///
    /// Boards come from the arguments, or from stdin one per line when
    /// there are none (or one is `-`). A line is the optimal move string
    /// (empty for a solved board) or `unsolvable`.
    Solve(solve::SolveArgs),
    /// Describe a table: size, goal, states, distances, hardest states.
    Stats(stats::StatsArgs),
    /// Run every algorithm on one board: moves, optimality, work, memory
    /// and time side by side, then each one's moves.
    Compare(compare::CompareArgs),
    /// Check a table completely, and check a search's answers against it.
    Verify(verify::VerifyArgs),
}

fn main() -> ExitCode {
    let cli = match console::parse::<Cli>("slidedb") {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let result = match &cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Verify(args) => verify::run(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        // A closed stdout (`slidedb solve < boards | head -1`) ends the
        // program quietly.
        Err(e) if console::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            say!("slidedb: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

pub use console::output;
