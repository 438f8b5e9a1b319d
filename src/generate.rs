//! The generator: one reverse breadth-first search from the goal over every
//! reachable board, in parallel layers.
//!
//! The table itself is the visited set. Each entry starts as `3` (no
//! distance yet); a layer is expanded in parallel (rayon), and a thread
//! claims a newly reached board with one atomic `fetch_and` that writes its
//! distance mod 3. Only the thread that sees `3` come back keeps the board
//! for the next layer, so every board is expanded exactly once and no lock
//! is taken per state.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::board::{Board, Move, Shape};
use crate::rank::{Index, Indexer};
use crate::table::{Table, assemble};

/// The most cells a full table is built for (3×4: 239,500,800 states).
pub const MAX_TABLE_CELLS: usize = 12;

/// Layers smaller than this are expanded on one thread.
const PARALLEL_LAYER: usize = 4096;
/// States a rayon task expands at a time.
const CHUNK: usize = 2048;

/// Why a table could not be generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The board is too big for a full table.
    #[error(
        "a full table of {shape} would hold {states} states; full tables go up to {MAX_TABLE_CELLS} cells"
    )]
    TooLarge {
        /// The shape asked for.
        shape: Shape,
        /// Its state count.
        states: u64,
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

/// A board in the frontier, with its index.
#[derive(Clone, Copy)]
struct Node {
    board: Board,
    index: Index,
}

/// Builds the full distance table for `goal` by reverse BFS, calling
/// `on_layer` after each layer. Runs on the current rayon pool (wrap it in
/// `ThreadPool::install` to choose the threads).
///
/// ```
/// use slidedb::{Board, Shape, generate};
/// let mut depths = 0;
/// let table = generate(&Board::solved(Shape::EIGHT), |_layer| depths += 1).unwrap();
/// assert_eq!(table.states(), 181_440);
/// assert_eq!(table.max_distance(), 31);
/// assert_eq!(depths, 32);
/// ```
pub fn generate(
    goal: &Board,
    mut on_layer: impl FnMut(&Layer),
) -> Result<Table<Vec<u8>>, GenerateError> {
    let shape = goal.shape();
    if shape.cells() > MAX_TABLE_CELLS {
        return Err(GenerateError::TooLarge {
            shape,
            states: shape.states(),
        });
    }
    let start = Instant::now();
    let indexer = Indexer::new(goal);
    let entries = Entries::new(indexer.len());
    let root = Node {
        board: *goal,
        index: indexer.rank_unchecked(goal),
    };
    entries.claim(root.index, 0);
    let mut frontier = vec![root];
    let mut layers = vec![1u64];
    let mut total = 1u64;
    on_layer(&Layer {
        depth: 0,
        states: 1,
        total,
        elapsed: start.elapsed(),
    });
    loop {
        let depth = layers.len() as u32;
        let residue = (depth % 3) as u64;
        let next: Vec<Node> = if frontier.len() < PARALLEL_LAYER {
            let mut out = Vec::new();
            for node in &frontier {
                expand(node, residue, &indexer, &entries, &mut out);
            }
            out
        } else {
            let parts: Vec<Vec<Node>> = frontier
                .par_chunks(CHUNK)
                .map(|chunk| {
                    let mut out = Vec::with_capacity(chunk.len() * 2);
                    for node in chunk {
                        expand(node, residue, &indexer, &entries, &mut out);
                    }
                    out
                })
                .collect();
            parts.concat()
        };
        if next.is_empty() {
            break;
        }
        total += next.len() as u64;
        layers.push(next.len() as u64);
        on_layer(&Layer {
            depth,
            states: next.len() as u64,
            total,
            elapsed: start.elapsed(),
        });
        frontier = next;
    }
    debug_assert_eq!(total, indexer.len());
    let mut hardest: Vec<Node> = frontier;
    hardest.sort_unstable_by_key(|n| n.index);
    let hardest: Vec<Board> = hardest.iter().map(|n| n.board).collect();
    let body = entries.into_bytes();
    Ok(assemble(goal, layers, &hardest, &body))
}

/// Claims each unvisited neighbour of `node` for the next layer.
#[inline]
fn expand(node: &Node, residue: u64, indexer: &Indexer, entries: &Entries, out: &mut Vec<Node>) {
    let per_blank = indexer.per_blank();
    for mv in Move::ALL {
        let Some(next) = node.board.apply(mv) else {
            continue;
        };
        let index = match mv {
            Move::Left => Index(node.index.0 - per_blank),
            Move::Right => Index(node.index.0 + per_blank),
            Move::Up | Move::Down => indexer.rank_unchecked(&next),
        };
        if entries.claim(index, residue) {
            out.push(Node { board: next, index });
        }
    }
}

/// The 2-bit entries, 32 to an atomic word, all `3` until claimed.
struct Entries {
    words: Vec<AtomicU64>,
    len: u64,
}

impl Entries {
    fn new(len: u64) -> Entries {
        Entries {
            words: (0..len.div_ceil(32)).map(|_| AtomicU64::new(!0)).collect(),
            len,
        }
    }

    /// Writes `residue` at `index` if it holds no distance yet; true for
    /// the one caller that did.
    #[inline]
    fn claim(&self, index: Index, residue: u64) -> bool {
        let word = &self.words[(index.0 / 32) as usize];
        let shift = 2 * (index.0 % 32);
        if (word.load(Relaxed) >> shift) & 3 != 3 {
            return false; // seen before: the common case, no write
        }
        // Another thread may claim it between the load and here, but only
        // for the same layer, so with the same residue: the AND is
        // idempotent and only one caller sees the 3.
        let before = word.fetch_and(!((3 ^ residue) << shift), Relaxed);
        (before >> shift) & 3 == 3
    }

    /// The entries as the file stores them: little-endian, 4 to a byte.
    fn into_bytes(self) -> Vec<u8> {
        let len = crate::format::body_len(self.len) as usize;
        let mut bytes = Vec::with_capacity(self.words.len() * 8);
        for word in self.words {
            bytes.extend_from_slice(&word.into_inner().to_le_bytes());
        }
        bytes.truncate(len);
        bytes
    }
}
