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
mod ticker;
mod verify;

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

/// What every command's exit status and answer lines mean.
const AFTER_HELP: &str = "\
Answers: one line per board, in order: the blank's moves (u d l r; empty
for a solved board), `unsolvable` for a board that cannot reach the goal
(it has the other parity), `invalid` for a line that is not a board (the
reason is on stderr).

Exit status: 0 when every board was answered; 1 when some board is
unsolvable and none invalid, or verify found a fault or a mismatch; 2 on
any error (an invalid line, bad arguments, a table that cannot be had, a
failed write).";

/// Exact, optimal answers for sliding-tile puzzles from a precomputed table.
#[derive(Parser)]
#[command(version, about, after_help = AFTER_HELP)]
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
        /// The folder to write every page into (it must exist).
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
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
        Command::Completions { shell } => completions(*shell),
        Command::Man { dir } => man(dir.as_deref()),
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

/// Writes the completion script of `shell`, generated from the command
/// definitions.
fn completions(shell: clap_complete::Shell) -> anyhow::Result<u8> {
    use std::io::Write as _;
    let mut out = output();
    let mut command = <Cli as clap::CommandFactory>::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "slidedb", &mut script);
    out.write_all(&script)?;
    out.flush()?;
    Ok(0)
}

/// Writes the manual page, generated from the command definitions, to
/// stdout; or, into `dir`, it and a page per command.
fn man(dir: Option<&std::path::Path>) -> anyhow::Result<u8> {
    use anyhow::Context as _;
    use std::io::Write as _;
    let command = <Cli as clap::CommandFactory>::command();
    let page = |command: clap::Command| -> anyhow::Result<Vec<u8>> {
        let mut page = Vec::new();
        clap_mangen::Man::new(command).render(&mut page)?;
        Ok(page)
    };
    let Some(dir) = dir else {
        let mut out = output();
        out.write_all(&page(command)?)?;
        out.flush()?;
        return Ok(0);
    };
    let mut pages = vec![("slidedb.1".to_string(), page(command.clone())?)];
    for sub in command.get_subcommands() {
        // A page's name is a command's: `slidedb-solve`.
        let name: &'static str = Box::leak(format!("slidedb-{}", sub.get_name()).into_boxed_str());
        pages.push((format!("{name}.1"), page(sub.clone().name(name))?));
    }
    for (file, bytes) in pages {
        let path = dir.join(&file);
        slidedb::write_atomic(&path, &bytes, true)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(0)
}
