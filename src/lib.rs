//! # slidedb
//!
//! An exact lookup database for sliding-tile puzzles. One reverse
//! breadth-first search from the goal stores every reachable board's
//! distance (mod 3, in 2 bits) at its [`Index`]; any board is then solved
//! optimally by stepping to the neighbour one move closer, in microseconds.
//! Boards too big for a full table (the 15-puzzle) are solved optimally by
//! IDA* over pattern databases built the same way.
//!
//! [`Database`] is the engine every front end calls: it answers any board
//! toward any goal from the files of a data folder, building small tables
//! when they are missing.
//!
//! ```
//! use slidedb::{Board, Database, Method};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let db = Database::open(dir.path()).unwrap();
//!
//! // The course project's board and goal: the blank first.
//! let goal: Board = "0 1 2 / 3 4 5 / 6 7 8".parse().unwrap();
//! let board: Board = "7 2 4 / 5 0 6 / 8 3 1".parse().unwrap();
//! let engine = db.engine(&goal, Method::Exact).unwrap(); // builds and saves the 3x3 table
//! let found = engine.solve(&board).unwrap();
//! assert_eq!(found.distance(), Some(26));
//! assert_eq!(board.apply_all(&found.moves.unwrap()), Some(goal));
//!
//! // Boards of the other parity cannot reach the goal.
//! let swapped: Board = "2 1 3 4 5 6 7 8 0".parse().unwrap();
//! assert!(!engine.solve(&swapped).unwrap().is_solvable());
//! ```
//!
//! Beyond one solution, a full table answers as a chess endgame tablebase
//! does: every move's outcome ([`Database::probe`]), the exact number of
//! optimal solutions ([`Database::count`]), boards drawn uniformly at a
//! chosen distance ([`Database::random`]) and whole layers
//! ([`Database::layer`]).
//!
//! ```
//! use slidedb::{Board, Database, Move, Shape, random::SplitMix64};
//!
//! let db = Database::in_memory().open().unwrap();
//! let goal = Board::solved(Shape::EIGHT);
//! let board: Board = "1 2 3 4 5 6 7 0 8".parse().unwrap();
//!
//! // One move from the goal: `r` is optimal, `u` and `l` lead farther.
//! let probe = db.probe(&board, &goal).unwrap();
//! let outcomes: Vec<(char, u32, bool)> =
//!     probe.moves.iter().map(|m| (m.mv.letter(), m.distance, m.optimal)).collect();
//! assert_eq!(outcomes, [('u', 2, false), ('l', 2, false), ('r', 0, true)]);
//!
//! // The hardest 8-puzzles have 40 optimal solutions of 31 moves each.
//! let hardest: Board = "8 6 7 2 5 4 3 0 1".parse().unwrap();
//! assert_eq!(db.count(&hardest, &goal).unwrap().unwrap().to_string(), "40");
//!
//! // A puzzle that takes exactly 20 moves, the same for the same seed.
//! let mut rng = SplitMix64::new(2026);
//! let puzzle = db.random(&goal, 20..=20, &mut rng).unwrap().unwrap();
//! assert_eq!(db.solve(&puzzle, &goal).unwrap().distance(), Some(20));
//! ```
//!
//! Underneath, a [`Table`] is built by [`generate()`], written to a file
//! ([`write_atomic`]) and memory-mapped back ([`Table::open_path`]);
//! `FORMAT.md` specifies its bytes. One table serves every goal of its
//! class ([`symmetry::GoalClass`]), and the classic searches ([`Solver`])
//! run beside it to check and compare.
//!
//! ```
//! use slidedb::{Board, Shape, generate};
//!
//! // The 8-puzzle's table in memory (181,440 states, milliseconds).
//! let table = generate(&Board::solved(Shape::EIGHT), |_layer| {}).unwrap();
//! assert_eq!(table.max_distance(), 31);
//! let found = table.solve(&"2 3 4 1 5 x 7 6 8".parse().unwrap()).unwrap();
//! assert_eq!(found.move_string().unwrap(), "ullddrurdllurdruldr");
//! ```
//!
//! ## Layers
//!
//! One module per concern; each imports only from the modules listed
//! before it:
//! - [`board`]: shapes, boards, moves, parsing, solvability (imports
//!   nothing of the crate).
//! - [`search`]: A*, IDA*, BFS, DFS and IDDFS over successor closures
//!   (nothing).
//! - [`rank`], [`symmetry`], [`random`]: the index of the boards that reach
//!   a goal; every goal served by the table of its class; reproducible
//!   random boards (`board`).
//! - `system` (private): what the machine says: memory available, the address
//!   space limit, free disk (nothing).
//! - [`solution`]: the answer every engine gives, and its error (`board`,
//!   `search`).
//! - [`solver`]: the searches applied to boards, with their heuristics
//!   (`board`, `search`, `solution`).
//! - `format` (private): the frame every file shares: magic, version,
//!   sections, checksums, checked sizes (nothing).
//! - [`output`]: how a file or folder a user named is written: the atomic
//!   and the framed writes, what `--force` may replace, the folders made
//!   (nothing).
//! - `store` (private): the data folder, file names, memory maps, the stamps of
//!   files checked (`board`, `format`, `output`).
//! - `goals` (private): the goals every file records, and their checks
//!   (`board`, `symmetry`, `format`).
//! - `bfs` (private): complete searches from a goal, in memory and in two bits a
//!   board, and the move arithmetic in index space they share; they return
//!   what they found, never a table's file (`board`, `rank`, `symmetry`, `store`).
//! - [`table`]: the read side of a full table: its bytes, its file, the
//!   sharded reader, and what it answers beyond one solution: every move's
//!   outcome, counts of optimal solutions, whole layers, random boards at a
//!   distance; [`generate()`] makes a search's result a table (all of the
//!   above but `solver`).
//! - [`pdb`]: additive pattern databases, their bytes, their builder and
//!   IDA* over them (all of the above but `solver`, `bfs`, `table`).
//! - [`build`]: the builders above the tables: the resumable file build,
//!   the cluster's build (feature `cluster`), shards and their merge
//!   (`bfs`, `table` and below).
//! - [`verify`]: full checks of a table, and of the searches against it
//!   (`bfs`, `table`, `solver`).
//! - [`database`]: the engine over a data folder (everything but `verify`).
//! - [`records`]: the answers as every front end writes them, one JSON
//!   shape each (`board`, `table`, `database`).
//! - [`request`]: what every front end asks, read one way: size, goal,
//!   distances, random draws, the lines of a batch (`board`, `random`,
//!   `table`, `database`).

#![warn(missing_docs, missing_debug_implementations)]

mod bfs;
pub mod board;
pub mod build;
pub mod database;
mod duplicates;
mod format;
mod goals;
pub mod multi_heuristic;
pub mod output;
pub mod pdb;
pub mod random;
pub mod rank;
pub mod records;
pub mod request;
pub mod search;
pub mod solution;
pub mod solver;
mod store;
pub mod symmetry;
mod system;
pub mod table;
pub mod verify;
pub mod words;

pub use board::{
    Board, BoardError, MAX_CELLS, Metric, Move, Shape, Slide, Slides, moves_to_string,
};
pub use database::{
    Database, DatabaseBuilder, DatabaseError, Engine, Event, ExactBy, MAX_FALLBACK_CELLS, Method,
    Source, Toward,
};
pub use format::{FileError, FileFault, Section};
pub use output::write_atomic;
pub use pdb::{Partition, PatternDb, PatternSpec};
pub use rank::{Index, Indexer};
pub use search::{Outcome, Stats};
pub use solution::{Solution, SolveError};
pub use solver::{Algorithm, Heuristic, Solver};
pub use store::{default_data_dir, default_file_name, pattern_file_name, table_file_name};
pub use symmetry::BuiltFor;
pub use table::{
    GenerateError, Layer, MAX_IN_MEMORY_CELLS, MAX_TABLE_CELLS, MoveOutcome, PathCount, Probe,
    RareLayers, Table, generate, generate_in,
};
