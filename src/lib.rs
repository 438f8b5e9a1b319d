//! # slidedb
//!
//! An exact lookup database for sliding-tile puzzles. One reverse
//! breadth-first search from the goal stores every reachable board's
//! distance (mod 3, in 2 bits) at its [`Index`]; any board is then solved
//! optimally by stepping to the neighbour one move closer, in microseconds.
//!
//! ```
//! use slidedb::{Board, Shape, generate, moves_to_string};
//!
//! // Build the 8-puzzle's table in memory (181,440 states, milliseconds).
//! let table = generate(&Board::solved(Shape::EIGHT), |_layer| {}).unwrap();
//! assert_eq!(table.max_distance(), 31);
//!
//! // Solve a board: the blank's moves, optimal.
//! let board = Board::parse("2 3 4 1 5 x 7 6 8", None).unwrap();
//! let moves = table.solve(&board).unwrap().expect("solvable");
//! assert_eq!(moves_to_string(&moves), "ullddrurdllurdruldr");
//!
//! // Boards of the other parity cannot reach the goal.
//! let swapped = Board::parse("2 1 3 4 5 6 7 8 0", None).unwrap();
//! assert_eq!(table.solve(&swapped).unwrap(), None);
//! ```
//!
//! The same bytes can be written to a file ([`write_atomic`]) and
//! memory-mapped back ([`Table::open_path`]); `FORMAT.md` specifies them.
//! One table serves every goal of its class ([`symmetry::GoalClass`]), and
//! the classic searches ([`Solver`]) run beside it to check and compare.
//!
//! Modules, one concern each:
//! - [`board`]: shapes, boards, moves, parsing, solvability.
//! - [`rank`]: the perfect index of the boards that reach a goal.
//! - [`table`]: the table type and its queries.
//! - [`format`](mod@format): the file's bytes, checked on open.
//! - [`generate`](mod@generate): the parallel BFS that builds a table.
//! - [`search`]: A*, IDA*, BFS, DFS and IDDFS over successor closures.
//! - [`solver`]: those searches applied to boards, with their heuristics.
//! - [`pdb`]: additive pattern databases, for boards beyond full tables.
//! - [`random`]: reproducible random boards, for samples and benchmarks.
//! - [`store`]: file names and the atomic write.
//! - [`symmetry`]: every goal answered from one table per class of blank
//!   cells, by renaming tiles and the board's symmetries.
//! - [`verify`]: full checks of a table, and of the searches against it.

#![warn(missing_docs)]

pub mod board;
pub mod format;
pub mod generate;
pub mod pdb;
pub mod random;
pub mod rank;
pub mod search;
pub mod solver;
pub mod store;
pub mod symmetry;
pub mod table;
pub mod verify;

pub use board::{Board, BoardError, MAX_CELLS, Move, Shape, moves_to_string};
pub use format::TableError;
pub use generate::{GenerateError, Layer, MAX_TABLE_CELLS, generate};
pub use rank::{Index, Indexer};
pub use search::{Outcome, Stats};
pub use solver::{Algorithm, Heuristic, Solution, Solver};
pub use store::{data_dir, default_file_name, write_atomic};
pub use table::{SolveError, Table};
