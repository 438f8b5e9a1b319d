//! Checks of a table against itself, against a fresh search, and of the
//! searches against the table.

use crate::symmetry::BuiltFor;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::bfs::search_and_compare;
use crate::board::Board;
use crate::board::Metric;
use crate::format::FileError;
use crate::rank::Index;
use crate::solution::{Solution, SolveError};
use crate::symmetry::GoalClass;
use crate::table::{GenerateError, Table, check_entries, check_entries_multi, generate_in};

/// Something wrong with a table.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Fault {
    /// The bytes are damaged (for example the body checksum).
    #[error(transparent)]
    Bytes(#[from] FileError),
    /// A board's entry disagrees with its neighbours'.
    #[error("the entry of {board} ({residue}) {what}")]
    Entry {
        /// The board.
        board: Board,
        /// Its entry.
        residue: u8,
        /// What is wrong with it.
        what: &'static str,
    },
    /// The table is not what a fresh breadth-first search gives.
    #[error("a fresh search gives other {what}: rebuild the table")]
    Differs {
        /// `layer counts` or `entries`.
        what: &'static str,
    },
    /// A sharded table past 12 cells is not compared with a fresh search.
    #[error(
        "a sharded table of more than 12 cells is compared with a fresh search once merged: merge it into one file (build::merge_shards) and verify that"
    )]
    ShardedTooLarge,
    /// The fresh search could not be run.
    #[error(transparent)]
    Generate(#[from] GenerateError),
}

/// Checks a table completely: its body checksum; every entry against its
/// neighbours' in the table's metric (in the single-tile metric each
/// neighbour one more or one less mod 3, and a neighbour one less unless
/// it is the goal), in parallel; and its layer counts and entries against
/// a fresh breadth-first search in its metric (past 12 cells the two-bit
/// search, compared as it writes).
///
/// ```
/// use slidedb::{Board, Metric, Shape, generate, table::generate_in, verify::check_table};
/// let goal = Board::solved(Shape::new(2, 3).unwrap());
/// assert!(check_table(&generate(&goal, |_| {}).unwrap()).is_ok());
/// assert!(check_table(&generate_in(&goal, Metric::Multi, |_| {}).unwrap()).is_ok());
/// ```
pub fn check_table<D: AsRef<[u8]> + Sync>(table: &Table<D>) -> Result<(), Fault> {
    check_table_with(table, |_| {})
}

/// How far [`check_table_with`] has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Progress {
    /// The body checksum is being checked.
    Checksum,
    /// `done` of `total` entries checked against their neighbours.
    Entries {
        /// Entries checked so far.
        done: u64,
        /// Entries in all.
        total: u64,
    },
    /// The fresh search has finished layer `depth` of `max_depth`.
    FreshSearch {
        /// The layer just finished.
        depth: u32,
        /// The table's greatest distance.
        max_depth: u32,
    },
}

/// [`check_table`], calling `progress` as it goes (from any thread, about
/// a hundred times over the entries).
///
/// ```
/// use slidedb::{Board, Shape, generate, verify::{Progress, check_table_with}};
/// let table = generate(&Board::solved(Shape::new(2, 3).unwrap()), |_| {}).unwrap();
/// let calls = std::sync::atomic::AtomicU32::new(0);
/// check_table_with(&table, |_: Progress| { calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed); }).unwrap();
/// assert!(calls.into_inner() >= 3);
/// ```
pub fn check_table_with<D: AsRef<[u8]> + Sync>(
    table: &Table<D>,
    progress: impl Fn(Progress) + Sync,
) -> Result<(), Fault> {
    if table.is_sharded() && table.shape().cells() > crate::table::MAX_IN_MEMORY_CELLS {
        return Err(Fault::ShardedTooLarge);
    }
    progress(Progress::Checksum);
    table.verify()?;
    // Every check runs on the body's own terms: boards toward the indexed
    // goal.
    let goal = *table.indexed_goal();
    let metric = table.metric();
    let entries = |done, total| progress(Progress::Entries { done, total });
    match metric {
        Metric::Single => check_entries(table, entries),
        Metric::Multi => check_entries_multi(table, entries),
    }
    .map_err(|fault| Fault::Entry {
        board: table
            .indexer()
            .unrank(fault.index)
            .expect("a fault is at an index of the body"),
        residue: fault.residue,
        what: fault.what,
    })?;
    // Past 12 cells the search runs in 3 bits a board and compares as it
    // writes, holding no second table.
    let two_bit = goal.shape().cells() > crate::table::MAX_IN_MEMORY_CELLS;
    check_fresh(table, two_bit, &progress)
}

/// Compares `table` with a fresh search in its metric toward its indexed
/// goal: the two-bit search, compared as it writes, if `two_bit`; else
/// the in-memory search's table.
fn check_fresh<D: AsRef<[u8]> + Sync>(
    table: &Table<D>,
    two_bit: bool,
    progress: &(impl Fn(Progress) + Sync),
) -> Result<(), Fault> {
    let goal = *table.indexed_goal();
    let metric = table.metric();
    let max_depth = table.max_distance();
    if two_bit {
        let layer = |layer: &crate::table::Layer| {
            progress(Progress::FreshSearch {
                depth: layer.depth,
                max_depth,
            })
        };
        let compared =
            search_and_compare(&goal, metric, table.layers(), table.body_bytes(), layer)?;
        return compared.map_err(|what| Fault::Differs { what });
    }
    let fresh = generate_in(&goal, metric, |layer| {
        progress(Progress::FreshSearch {
            depth: layer.depth,
            max_depth,
        })
    })?;
    if fresh.layers() != table.layers() {
        return Err(Fault::Differs {
            what: "layer counts",
        });
    }
    let same = if table.is_sharded() {
        (0..table.states())
            .into_par_iter()
            .all(|i| fresh.residue(Index(i)) == table.residue(Index(i)))
    } else {
        fresh.body_bytes() == table.body_bytes()
    };
    if !same {
        return Err(Fault::Differs { what: "entries" });
    }
    Ok(())
}

/// A board where a search disagreed with the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The board.
    pub board: Board,
    /// Its distance by the table, in the table's metric (`None` where the
    /// table could not answer: its body is damaged).
    pub table: Option<u32>,
    /// The length of the search's path in that metric (`None` if it found
    /// none, its path does not lead to the goal, or it counts another
    /// metric).
    pub search: Option<u32>,
}

/// The outcome of [`check_search_with`].
#[derive(Clone, Debug, Default)]
pub struct SearchReport {
    /// Boards checked.
    pub checked: u64,
    /// Boards where the search's path was invalid or not of the table's
    /// length, or where the table could not answer, in index order.
    pub mismatches: Vec<Mismatch>,
    /// Nodes the searches expanded, in all.
    pub expanded: u64,
}

/// Solves the boards at `indices` (of the table's [index](Table::indexer),
/// seen toward the table's goal) with `solve` (in parallel) and checks
/// each path: it must lead to `goal` in exactly the table's distance
/// toward it, counted in the table's metric (a solution in another metric
/// is a mismatch). Any solver, toward the table's own goal or another of
/// its class, such as IDA* over pattern databases: `solve`
/// answers toward `goal`. A goal of another class is
/// [`SolveError::OtherClass`].
///
/// ```
/// use slidedb::{Algorithm, Board, Heuristic, Shape, Solver, generate, pdb};
/// use slidedb::verify::check_search_with;
/// let goal = Board::solved(Shape::new(2, 4).unwrap());
/// let table = generate(&goal, |_| {}).unwrap();
/// let db = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-3").unwrap(), |_| {}).unwrap();
/// let report = check_search_with(&table, &goal, 0..table.states(), |b| db.solve(b)).unwrap();
/// assert_eq!((report.checked, report.mismatches.len()), (20_160, 0));
///
/// // Toward another goal of the class: the blank first.
/// let other = Board::parse("0 1 2 3 / 4 5 6 7", None).unwrap();
/// let solver = Solver::new(&other);
/// let report = check_search_with(&table, &other, 0..500, |b| {
///     solver.solve(b, Algorithm::AStar, Heuristic::Manhattan)
/// })
/// .unwrap();
/// assert_eq!((report.checked, report.mismatches.len()), (500, 0));
///
/// // In the multi-tile metric: its table, and the searches in it.
/// use slidedb::{Metric, table::generate_in};
/// let table = generate_in(&goal, Metric::Multi, |_| {}).unwrap();
/// let solver = Solver::new(&goal).with_metric(Metric::Multi);
/// let report = check_search_with(&table, &goal, 0..500, |b| {
///     solver.solve(b, Algorithm::IdaStar, Heuristic::WalkingDistance)
/// })
/// .unwrap();
/// assert_eq!((report.checked, report.mismatches.len()), (500, 0));
/// ```
pub fn check_search_with<D: AsRef<[u8]> + Sync>(
    table: &Table<D>,
    goal: &Board,
    indices: impl IntoParallelIterator<Item = u64>,
    solve: impl Fn(&Board) -> Result<Solution, SolveError> + Sync,
) -> Result<SearchReport, SolveError> {
    if !table.serves(goal) {
        return Err(SolveError::OtherClass {
            goal: goal.to_string(),
            served: table.goal().to_string(),
        });
    }
    let class = &GoalClass::of(goal);
    let indexer = table.indexer();
    let metric = table.metric();
    let checked = AtomicU64::new(0);
    let expanded = AtomicU64::new(0);
    let mut mismatches: Vec<(u64, Mismatch)> = indices
        .into_par_iter()
        .filter_map(|i| {
            let board = class.from_canonical(&indexer.unrank(Index(i))?);
            checked.fetch_add(1, Relaxed);
            let mut moves = Vec::new();
            let want = match table.solve_toward_into(class, &board, &mut moves) {
                Ok(true) => Some(metric.moves_in(&moves) as u32),
                // A damaged body: no yardstick for this board.
                Ok(false) | Err(_) => None,
            };
            // A search that fails (damaged databases) found no path.
            let got = solve(&board).ok().and_then(|found| {
                expanded.fetch_add(found.stats.map_or(0, |s| s.expanded), Relaxed);
                let reaches = found
                    .moves
                    .as_ref()
                    .is_some_and(|m| board.apply_all(m) == Some(*class.goal()));
                // Counted in its own metric: another one's is no yardstick.
                (reaches && found.metric == metric)
                    .then(|| found.distance())
                    .flatten()
            });
            (want.is_none() || got != want).then_some((
                i,
                Mismatch {
                    board,
                    table: want,
                    search: got,
                },
            ))
        })
        .collect();
    mismatches.sort_by_key(|&(i, _)| i);
    Ok(SearchReport {
        checked: checked.into_inner(),
        mismatches: mismatches.into_iter().map(|(_, m)| m).collect(),
        expanded: expanded.into_inner(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::solver::{Algorithm, Heuristic, Solver};
    use crate::table::generate;

    #[test]
    fn a_star_agrees_with_the_table_on_every_board() {
        let table = generate(&Board::solved(Shape::new(2, 3).unwrap()), |_| {}).unwrap();
        let solver = Solver::new(table.goal());
        let report = check_search_with(&table, table.goal(), 0..table.states(), |board| {
            solver.solve(board, Algorithm::AStar, Heuristic::Manhattan)
        })
        .unwrap();
        assert_eq!((report.checked, report.mismatches.len()), (360, 0));
    }

    /// The fresh search past 12 cells (the two-bit search, compared as it
    /// writes), run here on tables small enough to build: a multi-tile
    /// table agrees, toward goals whose blank is in a corner and not, its
    /// progress reaching the deepest layer; the same table with one entry
    /// changed does not.
    #[test]
    fn the_two_bit_fresh_search_checks_a_multi_tile_table() {
        for goal in [
            "1 2 3 / 4 5 6 / 7 8 0",
            "1 2 3 / 4 0 5 / 6 7 8",
            "1 2 3 4 / 5 6 7 0",
        ] {
            let goal = Board::parse(goal, None).unwrap();
            let table = generate_in(&goal, Metric::Multi, |_| {}).unwrap();
            let deepest = std::sync::atomic::AtomicU32::new(0);
            let progress = |p: Progress| {
                if let Progress::FreshSearch { depth, .. } = p {
                    deepest.fetch_max(depth, Relaxed);
                }
            };
            assert!(check_fresh(&table, true, &progress).is_ok(), "{goal}");
            assert_eq!(deepest.into_inner(), table.max_distance(), "{goal}");
            let mut bytes = table.as_bytes().to_vec();
            *bytes.last_mut().unwrap() ^= 0b01;
            let damaged = Table::new(bytes).unwrap();
            assert!(
                matches!(
                    check_fresh(&damaged, true, &|_| {}),
                    Err(Fault::Differs { what: "entries" })
                ),
                "{goal}"
            );
        }
    }
}
