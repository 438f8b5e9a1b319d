//! `slidedb solve`: one output line per board.

use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::time::Duration;

use anyhow::Result;
use clap::{Args as ClapArgs, ValueEnum};
use slidedb::records::SolveRecord;
use slidedb::{Algorithm, Board, Engine, Heuristic, Method, Move, Shape, SolveError};

use slidedb_cli::progress::Progress;

use crate::batch::{self, Query};
use crate::data::{DataArgs, OpenDatabase};

/// How `solve` answers: from the table, or by a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Algo {
    /// Greedy descent on the distance table (optimal, microseconds); for
    /// boards over 14 cells, IDA* over pattern databases (optimal).
    Table,
    /// A* (optimal).
    Astar,
    /// IDA* (optimal, memory for one path).
    Idastar,
    /// Breadth-first search (optimal, remembers every state).
    Bfs,
    /// Depth-first search (a path, usually far from optimal).
    Dfs,
    /// Iterative-deepening depth-first search (optimal, slow).
    Iddfs,
}

impl Algo {
    /// The library's algorithm, or `None` for the table.
    pub fn search(self) -> Option<Algorithm> {
        match self {
            Algo::Table => None,
            Algo::Astar => Some(Algorithm::AStar),
            Algo::Idastar => Some(Algorithm::IdaStar),
            Algo::Bfs => Some(Algorithm::Bfs),
            Algo::Dfs => Some(Algorithm::Dfs),
            Algo::Iddfs => Some(Algorithm::Iddfs),
        }
    }
}

/// The estimate A* and IDA* use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum HeuristicArg {
    /// Manhattan distance.
    #[default]
    Manhattan,
    /// Manhattan distance plus linear conflicts.
    LinearConflict,
    /// The rows' and columns' walking distances in the multi-tile metric,
    /// or where larger a coloured abstraction's (its default there;
    /// admissible but weak in the single-tile one).
    WalkingDistance,
    /// Additive pattern databases (see --pdb), and for IDA* their mirror.
    Pdb,
}

impl HeuristicArg {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicArg::Manhattan => "manhattan",
            HeuristicArg::LinearConflict => "linear-conflict",
            HeuristicArg::WalkingDistance => "walking-distance",
            HeuristicArg::Pdb => "pdb",
        }
    }

    /// The library's heuristic, or `None` for pattern databases.
    pub fn plain(self) -> Option<Heuristic> {
        match self {
            HeuristicArg::Manhattan => Some(Heuristic::Manhattan),
            HeuristicArg::LinearConflict => Some(Heuristic::LinearConflict),
            HeuristicArg::WalkingDistance => Some(Heuristic::WalkingDistance),
            HeuristicArg::Pdb => None,
        }
    }
}

#[derive(ClapArgs)]
pub struct SolveArgs {
    /// Boards, each one argument, such as "2 3 4 1 5 x 7 6 8" or 123/456/78x.
    #[arg(value_name = "BOARD")]
    boards: Vec<String>,
    #[command(flatten)]
    data: DataArgs,
    /// One JSON object per line.
    #[arg(long)]
    json: bool,
    /// After the moves, print every board along the way (as grids; with
    /// --json, as a list of boards in the object, `steps`).
    #[arg(long)]
    steps: bool,
    /// How to answer: the table, or a search (same output).
    #[arg(long, value_enum, default_value_t = Algo::Table)]
    algo: Algo,
    /// The estimate used by astar and idastar [default: manhattan]; no
    /// other answer takes one.
    #[arg(long, value_enum)]
    heuristic: Option<HeuristicArg>,
    /// No progress on stderr (on a terminal, a search that runs over a
    /// second shows its bound, nodes and time).
    #[arg(long)]
    quiet: bool,
}

/// The library's method for an algorithm and heuristic of the command
/// line. A heuristic that nothing would use is refused, not ignored.
pub fn method(algo: Algo, heuristic: Option<HeuristicArg>) -> Result<Method> {
    Ok(match (algo.search(), heuristic) {
        (None, None) => Method::Exact,
        (None, Some(h)) => anyhow::bail!(
            "--heuristic {} is for --algo astar and idastar; the table takes none",
            h.name()
        ),
        (Some(a @ (Algorithm::AStar | Algorithm::IdaStar)), Some(HeuristicArg::Pdb)) => {
            Method::PatternSearch(a)
        }
        (Some(a @ (Algorithm::AStar | Algorithm::IdaStar)), h) => {
            Method::Search(a, h.unwrap_or_default().plain().unwrap_or_default())
        }
        (Some(a), None) => Method::Search(a, Heuristic::Manhattan),
        (Some(a), Some(h)) => anyhow::bail!(
            "--heuristic {} is for --algo astar and idastar; {a} takes none",
            h.name()
        ),
    })
}

/// `solve` as a batch query.
struct Solve<'a> {
    args: &'a SolveArgs,
    method: Method,
    /// The spinner of searches that run over [`SHOW_AFTER`] (a terminal
    /// only, and not `--quiet`).
    display: Progress,
}

/// How long a search runs before its progress shows.
const SHOW_AFTER: Duration = Duration::from_secs(1);

pub fn run(args: &SolveArgs) -> Result<u8> {
    let method = method(args.algo, args.heuristic)?;
    let data = args.data.open(true)?;
    let solve = Solve {
        args,
        method,
        display: Progress::spinner(args.quiet),
    };
    let code = batch::run(&solve, &args.boards, data);
    solve.display.finish();
    code
}

impl Solve<'_> {
    /// Solves `board` by a search, showing its progress once it has run
    /// for [`SHOW_AFTER`].
    fn search(
        &self,
        engine: &Engine,
        board: &Board,
        moves: &mut Vec<Move>,
    ) -> Result<bool, SolveError> {
        let display = &self.display;
        let found = engine.solve_with_progress(board, |stats| {
            if stats.elapsed >= SHOW_AFTER {
                let bound = match stats.bound {
                    0 => String::new(),
                    b => format!("bound {b}, "),
                };
                display.tick(format!(
                    "searching {board}: {bound}{} nodes expanded, {} s",
                    slidedb_cli::units::count(stats.expanded),
                    stats.elapsed.as_secs()
                ));
            }
            ControlFlow::Continue(())
        })?;
        match found.moves {
            Some(m) => {
                moves.extend_from_slice(&m);
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

impl Query for Solve<'_> {
    type Answerer = Engine;

    fn answerer(&self, data: &OpenDatabase, shape: Shape) -> Result<Engine> {
        let engine = data.engine(shape, self.method)?;
        warn_of_memory(&engine, data.db.search_memory());
        Ok(engine)
    }

    fn is_lookup(&self, engine: &Engine) -> bool {
        engine.is_lookup()
    }

    fn json(&self) -> bool {
        self.args.json
    }

    fn answer(
        &self,
        engine: &Engine,
        board: &Board,
        moves: &mut Vec<Move>,
        out: &mut String,
    ) -> Result<bool, SolveError> {
        moves.clear();
        let solvable = if engine.is_lookup() || !self.display.is_drawn() {
            engine.solve_into(board, moves)?
        } else {
            self.search(engine, board, moves)?
        };
        let found = solvable.then_some(moves.as_slice());
        if self.args.json {
            let record = SolveRecord::new(
                board,
                engine.goal(),
                engine.metric(),
                found,
                self.args.steps,
            );
            out.push_str(&serde_json::to_string(&record).expect("json"));
            out.push('\n');
            return Ok(solvable);
        }
        let Some(moves) = found else {
            out.push_str("unsolvable\n");
            return Ok(false);
        };
        push_letters(out, moves);
        out.push('\n');
        if self.args.steps {
            let mut here = *board;
            let _ = write!(out, "\nstep 0 of {}\n{}", moves.len(), here.grid());
            for (i, &mv) in moves.iter().enumerate() {
                here = here.apply(mv).unwrap_or(here);
                let _ = write!(
                    out,
                    "\nstep {} of {}: {}\n{}",
                    i + 1,
                    moves.len(),
                    mv.letter(),
                    here.grid()
                );
            }
            out.push('\n');
        }
        Ok(true)
    }
}

/// Appends the moves' letters to `out`, four at a time: each run of four
/// is a slice of [`FOURS`], not four characters pushed one by one.
fn push_letters(out: &mut String, moves: &[Move]) {
    let code = |mv: &Move| match mv {
        Move::Up => 0,
        Move::Down => 1,
        Move::Left => 2,
        Move::Right => 3,
    };
    let mut fours = moves.chunks_exact(4);
    for four in &mut fours {
        let at = 4 * four.iter().fold(0, |n, mv| 4 * n + code(mv));
        out.push_str(&FOURS[at..at + 4]);
    }
    for mv in fours.remainder() {
        out.push(mv.letter());
    }
}

/// Every run of four moves' letters, run `n` at `4n` (the moves the
/// base-4 digits of `n`, first move most significant: `u d l r` = 0 to 3).
const FOURS: &str = {
    const BYTES: [u8; 1024] = {
        let letters = *b"udlr";
        let mut bytes = [0u8; 1024];
        let mut n = 0;
        while n < 256 {
            let mut k = 0;
            while k < 4 {
                bytes[4 * n + k] = letters[(n >> (2 * (3 - k))) & 3];
                k += 1;
            }
            n += 1;
        }
        bytes
    };
    match std::str::from_utf8(&BYTES) {
        Ok(text) => text,
        Err(_) => panic!("the letters are ASCII"),
    }
};

/// Warns, once per engine, when its search can need more memory than it
/// may use: it then stops there with an error for the boards that would.
fn warn_of_memory(engine: &Engine, budget: u64) {
    let Some((algorithm, _)) = engine.search() else {
        return;
    };
    let shape = engine.goal().shape();
    let needed = slidedb::Solver::new(engine.goal()).memory_needed(algorithm);
    if needed > u128::from(budget) {
        say!(
            "slidedb: {algorithm} can remember all {} boards of {shape} ({}), more than the {} a search may use here (--search-memory): a board that needs more is an error",
            shape.states(),
            slidedb_cli::units::bytes(needed),
            slidedb_cli::units::bytes(budget)
        );
    }
}
