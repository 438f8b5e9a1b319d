//! Where a two-bit search keeps its distances and frontier: all of it
//! resident (3 bits a board), or in two work files a segment at a time;
//! and the bytes each way keeps in memory.

use super::words::Words;

/// The bytes the two-bit search keeps resident for a table of `states`
/// boards over `cells` blank cells: the distances (2 bits a board, in
/// whole words) and one frontier bitset per cell (1 bit a board).
pub(crate) fn resident_bytes(cells: usize, per_blank: u64) -> (u64, u64) {
    let states = cells as u64 * per_blank;
    let residues = states.div_ceil(32) * 8;
    let frontier = cells as u64 * per_blank.div_ceil(64) * 8;
    (residues, frontier)
}

/// Where a two-bit search keeps its distances and frontier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    /// All of it resident: the fast way, 3 bits a board.
    Resident,
    /// In two work files, a segment of `segment` tile orders of one blank
    /// cell resident at a time (a multiple of 64): for a memory limit
    /// below the resident search's.
    Segmented {
        /// The distances' work file.
        distances: std::path::PathBuf,
        /// The frontier's work file.
        frontier: std::path::PathBuf,
        /// Tile orders a segment covers.
        segment: u64,
    },
}

/// The most bytes a segmented search keeps resident besides its segment:
/// the buffer a vertical source's frontier is read through.
pub(super) const STREAM_BYTES: u64 = 1 << 18;

/// The buffer a segmented search reads a vertical source's frontier
/// through, for `per_blank` tile orders a cell: [`STREAM_BYTES`], or a
/// whole cell's bitset if smaller.
pub(crate) fn stream_bytes(per_blank: u64) -> u64 {
    STREAM_BYTES.min(per_blank.div_ceil(64) * 8)
}

/// Bytes a segmented search keeps resident per tile order of its
/// segment, in eighths of a byte: 2 bits of distance, 1 of the new
/// frontier, and 2 of the horizontal sources' frontier.
pub(crate) const SEGMENT_BITS_PER_BOARD: u64 = 5;

/// The distances and the frontier.
pub(super) enum Store {
    Resident {
        /// `residue ^ 3` per board, 32 a word; 0 = not reached.
        residues: Words,
        /// One bitset per blank cell, `words` words each.
        frontier: Words,
    },
    Segmented(Segmented),
}

/// The work files of a segmented search, and its segment buffers.
pub(super) struct Segmented {
    /// The distances, laid out as `Store::Resident`'s.
    pub(super) residues: std::fs::File,
    /// The frontier bitsets, laid out as `Store::Resident`'s.
    pub(super) frontier: std::fs::File,
    pub(super) paths: [std::path::PathBuf; 2],
    /// Tile orders a segment covers: a multiple of 64.
    pub(super) segment: u64,
}
