//! `slidedb`: answers sliding-tile boards from a distance table, and
//! compares the classic searches with it.
//!
//! Exit status: 0 when every board is answered, 1 when some board is
//! unsolvable (and none invalid) or `verify` finds a mismatch, 2 on any
//! error.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[macro_use]
extern crate slidedb_cli;

use slidedb_cli::{console, manual};

mod alloc;
mod batch;
mod compare;
mod count;
mod data;
mod distance;
mod layer;
mod page;
mod probe;
mod random;
mod serve;
mod sizes;
mod solve;
mod stats;
mod ticker;
mod verify;

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

/// What every command's exit status and answer lines mean.
const AFTER_HELP: &str = "\
Answers (solve, probe, count): one line per board, in order: the blank's
moves (u d l r; empty for a solved board), the distance and each move's
(probe), or the number of optimal solutions (count); `unsolvable` for a
board that cannot reach the goal (it has the other parity), `invalid` for
a line that is not a board (the reason is on stderr).

Exit status: 0 when every board was answered; 1 when some board is
unsolvable and none invalid, or verify found a fault or a mismatch; 2 on
any error (an invalid line, bad arguments, a table that cannot be had, a
failed write).";

/// Exact, optimal answers for sliding-tile puzzles from a precomputed table.
#[derive(Parser)]
#[command(name = "slidedb", version, about, after_help = AFTER_HELP)]
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
    /// Probe boards: each one's distance and every move's outcome, one
    /// line per board, such as `19  u:18* d:18* l:18*` (a star marks a move
    /// one closer).
    Probe(probe::ProbeArgs),
    /// Count each board's optimal solutions exactly (needs the full
    /// table), one line per board.
    Count(count::CountArgs),
    /// Draw boards uniformly at random: at a distance (--distance, or
    /// --min and --max; needs the full table), or among all boards.
    #[command(override_usage = "slidedb random [--distance D | --min D --max D] [OPTIONS]")]
    Random(random::RandomArgs),
    /// List every board at one distance from the goal, in index order
    /// (needs the full table; `max` lists the farthest).
    Layer(layer::LayerArgs),
    /// Serve the tablebase over HTTP: a JSON API under /api/v1/ and a page
    /// to play any puzzle with exact hints at / (on 127.0.0.1:8080 unless
    /// --listen names another address).
    Serve(serve::ServeArgs),
    /// Write the page to play puzzles with exact hints as a static site
    /// (--out DIR): the page, the JavaScript package and the tables and
    /// 4x4 pattern databases it answers from, all in the browser, with no
    /// server.
    Page(page::PageArgs),
    /// Describe a table: size, goal, states, distances, hardest states.
    Stats(stats::StatsArgs),
    /// List every size the data folder answers exactly, how (from a full
    /// table, pattern databases or a search) and its default goal, as the
    /// server's /api/v1/sizes does.
    Sizes(sizes::SizesArgs),
    /// Run every algorithm on one board: moves, optimality, work, memory
    /// and time side by side, then each one's moves.
    Compare(compare::CompareArgs),
    /// Check a table completely, and check a search's answers against it.
    Verify(verify::VerifyArgs),
    /// Print a completion script for a shell: bash, zsh, fish, powershell
    /// or elvish (for example `slidedb completions bash >
    /// ~/.local/share/bash-completion/completions/slidedb`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), for example `slidedb man >
    /// ~/.local/share/man/man1/slidedb.1`; with --dir, write it and a page
    /// per command (slidedb-solve.1, ...) into a folder.
    Man {
        /// The folder to write every page into (made if missing, but not
        /// its parent); pages of slidedb there are replaced, any other
        /// file only with --force.
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
        /// With --dir: replace files of the pages' names that are not
        /// slidedb's manual pages.
        #[arg(long, requires = "dir")]
        force: bool,
    },
}

fn main() -> ExitCode {
    let cli = match console::parse::<Cli>("slidedb") {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let result = match &cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Probe(args) => probe::run(args),
        Command::Count(args) => count::run(args),
        Command::Random(args) => random::run(args),
        Command::Layer(args) => layer::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Page(args) => page::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Sizes(args) => sizes::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Completions { shell } => {
            manual::completions(<Cli as clap::CommandFactory>::command(), *shell).map(|()| 0)
        }
        Command::Man { dir, force } => manual::man(
            <Cli as clap::CommandFactory>::command(),
            dir.as_deref(),
            *force,
        )
        .map(|()| 0),
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
