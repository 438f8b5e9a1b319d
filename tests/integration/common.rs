//! Helpers of the library's integration tests: tables built once,
//! scrambled boards, answers checked, and deadlines for searches. What the
//! programs' tests need too (the reference BFS, the published data, move
//! letters) is in `tests/support/shared.rs`, re-exported here.

pub use crate::shared::*;

use slidedb::BuiltFor;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use slidedb::{Board, Move, Shape};

/// The format version FORMAT.md's header table gives (offset 10): the
/// tests state the spec's numbers themselves, so a library that drifted
/// from the spec fails them.
pub const FORMAT_VERSION: u16 = 3;

/// The oldest version FORMAT.md's "Versioning" says a reader reads.
pub const OLDEST_VERSION: u16 = 2;

/// The header's length, FORMAT.md's "Header (64 bytes)".
pub const HEADER_LEN: usize = 64;

/// The most metadata a file may hold, FORMAT.md's "at most 1 MiB
/// (1,048,576)" (header offset 32).
pub const MAX_METADATA_LEN: u64 = 1 << 20;

/// Whether `moves` lead from `board` to `goal`.
pub fn leads_to(board: &Board, moves: &[Move], goal: &Board) -> bool {
    board.apply_all(moves) == Some(*goal)
}

/// The table of the default goal of `shape`, built once per test binary.
pub fn table(shape: Shape) -> &'static slidedb::Table<Vec<u8>> {
    use std::sync::{Mutex, OnceLock};
    type Tables = Mutex<HashMap<Shape, &'static slidedb::Table<Vec<u8>>>>;
    static TABLES: OnceLock<Tables> = OnceLock::new();
    let mut tables = TABLES.get_or_init(Default::default).lock().unwrap();
    tables.entry(shape).or_insert_with(|| {
        let table = slidedb::generate(&Board::solved(shape), |_| {}).unwrap();
        Box::leak(Box::new(table))
    })
}

/// `table` toward `goal`, another goal of its class, without copying it.
pub fn toward<'a>(
    table: &'a slidedb::Table<Vec<u8>>,
    goal: &Board,
) -> slidedb::Toward<slidedb::Table<&'a [u8]>> {
    let borrowed = slidedb::Table::new(table.as_bytes()).unwrap();
    slidedb::Toward::new(borrowed, goal).unwrap()
}

/// The board `walk` random-looking moves away from the default goal
/// (a walk may undo itself, so the distance is at most `walk`).
pub fn scrambled(shape: Shape, seed: u64, walk: usize) -> Board {
    let mut b = Board::solved(shape);
    let mut s = seed;
    for _ in 0..walk {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = Move::ALL[(s >> 62) as usize];
        if let Some(n) = b.apply(m) {
            b = n;
        }
    }
    b
}

/// Checks a search's answer for `board` against the table: `Some` path
/// of exactly the table's length (or, when `optimal` is false, any valid
/// path) for a solvable board, `None` for an unsolvable one.
pub fn check_answer(board: &Board, moves: Option<&[Move]>, optimal: bool) -> Result<(), String> {
    let table = table(board.shape());
    let want = table.distance(board).unwrap();
    match (moves, want) {
        (None, None) => Ok(()),
        (Some(m), Some(d)) => {
            if !leads_to(board, m, table.goal()) {
                return Err(format!("{board:?}: the path does not reach the goal"));
            }
            if optimal && m.len() as u32 != d {
                return Err(format!("{board:?}: {} moves, optimal is {d}", m.len()));
            }
            Ok(())
        }
        (got, want) => Err(format!("{board:?}: search {got:?}, table {want:?}")),
    }
}

/// Solves `board` toward the default goal of its shape with `algorithm`
/// and checks the answer against the table (see [`check_answer`]).
pub fn solve_and_check(
    board: &Board,
    algorithm: slidedb::Algorithm,
    heuristic: slidedb::Heuristic,
) -> Result<(), String> {
    let solver = slidedb::Solver::new(&Board::solved(board.shape()));
    let found = solver.solve(board, algorithm, heuristic).unwrap();
    check_answer(board, found.moves.as_deref(), algorithm.is_optimal())
}

/// A time limit for a test, set before its first search: a search run
/// through it stops once the limit has passed, and the test fails saying
/// so, instead of hanging (an IDA* or IDDFS toward a goal it cannot reach,
/// were the solvability rule wrong, would deepen to 1000 moves).
pub struct Deadline {
    start: Instant,
    limit: Duration,
}

impl Deadline {
    /// The time from now to `limit` from now.
    pub fn after(limit: Duration) -> Deadline {
        Deadline {
            start: Instant::now(),
            limit,
        }
    }

    /// A progress closure for the searches: stops them once the limit
    /// has passed.
    pub fn watch(&self) -> impl FnMut(&slidedb::Stats) -> ControlFlow<()> + '_ {
        |_| {
            if self.start.elapsed() < self.limit {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        }
    }

    /// `solver.solve(board, algorithm, heuristic)`, stopped at the limit:
    /// then, or on any other error, a message that says what happened.
    pub fn solve(
        &self,
        solver: &slidedb::Solver,
        board: &Board,
        algorithm: slidedb::Algorithm,
        heuristic: slidedb::Heuristic,
    ) -> Result<slidedb::Solution, String> {
        solver
            .solve_with_progress(board, algorithm, heuristic, self.watch())
            .map_err(|e| match e {
                slidedb::SolveError::Stopped { stats } => format!(
                    "{algorithm} on {board:?} was still searching when the test's time ({:?}) ran out, {} nodes expanded: a search that would not end (is the solvability rule right?)",
                    self.limit, stats.expanded
                ),
                e => format!("{algorithm} on {board:?}: {e}"),
            })
    }

    /// [`solve_and_check`], stopped at the limit.
    pub fn solve_and_check(
        &self,
        board: &Board,
        algorithm: slidedb::Algorithm,
        heuristic: slidedb::Heuristic,
    ) -> Result<(), String> {
        let solver = slidedb::Solver::new(&Board::solved(board.shape()));
        let found = self.solve(&solver, board, algorithm, heuristic)?;
        check_answer(board, found.moves.as_deref(), algorithm.is_optimal())
    }
}
