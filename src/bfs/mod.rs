//! Complete searches from a goal: every board that reaches it, by reverse
//! breadth-first search, layer by layer. Nothing here knows of tables or
//! of the files a table lives in: a search returns what it found (the
//! layer counts, the first hardest boards, the 2-bit body a table stores),
//! and the tables ([`crate::table`]) and the builders ([`crate::build`])
//! above make files of it. The one use of files here is the two-bit
//! search's own state: over segments it keeps its distances and frontier
//! in two work files at the paths the builder gives it, and it streams
//! its state out and back in for the builder's checkpoints, which the
//! builder frames, names and places.
//!
//! - `moves`: moves in index space (`IndexMoves`),
//!   the arithmetic every search, the entry check and the cluster share.
//! - `memory`: the in-memory parallel search (up to
//!   [`MAX_IN_MEMORY_CELLS`] cells), the fastest.
//! - `twobit/`: the two-bit search, 3 bits a board, resident or over
//!   segments in work files (up to [`MAX_SEARCH_CELLS`] cells), split by
//!   role: its state, where it lives, a layer's passes resident and by
//!   segments, what it hands on, its checkpoint state, whole searches.
//! - `vertical`: the two-bit search's vertical moves, a run of tile
//!   orders at a time.

use std::time::Duration;

use crate::board::{Board, Shape};

pub(crate) mod memory;
pub(crate) mod moves;
pub(crate) mod multi;
pub(crate) mod twobit;
pub(crate) mod vertical;

pub(crate) use memory::{LayerBoards, sweep};
pub(crate) use twobit::search_and_compare;

/// The most cells a complete search covers (2×7: 43,589,145,600 boards),
/// by the two-bit search over segments in files.
pub const MAX_SEARCH_CELLS: usize = 14;

/// The most cells searched in memory (3×4: 239,500,800 boards).
pub const MAX_IN_MEMORY_CELLS: usize = 12;

/// The most boards of the deepest layer a search keeps (the hardest
/// boards a table records).
pub const MAX_HARDEST: usize = 1000;

/// What a finished search leaves: the layer counts, the first hardest
/// boards, and the 2-bit body of a table.
pub(crate) type Finished = (Vec<u64>, Vec<Board>, Vec<u8>);

/// Why a search could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The board is too big for a full table built in memory.
    #[error(
        "a full table of {shape} would hold {states} states; complete searches run in memory up to {MAX_IN_MEMORY_CELLS} cells, and over files (build::build_file) up to {MAX_SEARCH_CELLS}"
    )]
    TooLarge {
        /// The shape asked for.
        shape: Shape,
        /// Its state count.
        states: u64,
    },
    /// The search's memory could not be had.
    #[error(
        "cannot reserve {bytes} bytes for the search: {why}; free memory, or build a smaller table"
    )]
    Memory {
        /// The bytes asked for.
        bytes: u64,
        /// What the system said.
        why: String,
    },
}

/// One finished layer of the search, reported as it completes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layer {
    /// Distance from the goal.
    pub depth: u32,
    /// States at this distance.
    pub states: u64,
    /// States at this distance or less.
    pub total: u64,
    /// Time since the search began.
    pub elapsed: Duration,
}
