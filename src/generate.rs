//! The generator: one reverse breadth-first search from the goal over every
//! reachable board, in parallel layers.
//!
//! Boards are grouped by their tile order. The index of a board is
//! `blank × (m!/2) + h`, where `h` is the (halved) rank of the tile order,
//! so the boards that share `h` differ only in the blank's cell, and one
//! 16-bit mask per `h` holds a set of them: bit `b` for the blank in cell
//! `b`. A move of the blank along its row keeps the tile order, so all the
//! horizontal moves of a frontier mask are two shifts; only a vertical move
//! changes the tile order (a rotation of `cols` tiles) and needs a rank.
//!
//! Each layer runs in two parallel passes (rayon) with no lock per state:
//! 1. *expand*: every frontier mask sets the bits of its unvisited
//!    neighbours in `next` with an atomic `fetch_or` (setting a bit twice
//!    is harmless, so threads never need to agree who got there first);
//! 2. *commit*: each mask moves `next` into `frontier`, marks it visited and
//!    records its distance mod 3 in two bit planes.
//!
//! At the end the planes are laid out as the table's 2-bit entries.

use std::sync::atomic::{AtomicBool, AtomicU16, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::board::{Board, Shape};
use crate::rank::Indexer;
use crate::table::{Table, assemble};

/// The most cells a full table is built for (3×4: 239,500,800 states).
pub const MAX_TABLE_CELLS: usize = 12;

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
    let search = Search::new(&indexer);
    let per_blank = search.per_blank;
    let mut masks = vec![Masks::default(); per_blank];
    let next: Vec<AtomicU16> = (0..per_blank).map(|_| AtomicU16::new(0)).collect();

    let root = indexer.rank_unchecked(goal).0 as usize;
    let (root_blank, root_h) = (root / per_blank, root % per_blank);
    masks[root_h].visited = 1 << root_blank;
    masks[root_h].frontier = 1 << root_blank;
    let mut layers = vec![1u64];
    let mut total = 1u64;
    on_layer(&Layer {
        depth: 0,
        states: 1,
        total,
        elapsed: start.elapsed(),
    });
    loop {
        let parallel = *layers.last().expect("the root layer") >= PARALLEL_LAYER;
        let claimed = AtomicBool::new(false);
        let expand = |(c, chunk): (usize, &[Masks])| {
            if search.expand(c * CHUNK, chunk, &masks, &next) {
                claimed.store(true, Relaxed);
            }
        };
        if parallel {
            masks.par_chunks(CHUNK).enumerate().for_each(expand);
        } else {
            masks.chunks(CHUNK).enumerate().for_each(expand);
        }
        if !claimed.into_inner() {
            break; // `frontier` still holds the last layer
        }
        let depth = layers.len() as u32;
        let residue = (depth % 3) as u16;
        let states: u64 = if parallel {
            masks
                .par_chunks_mut(CHUNK)
                .zip(next.par_chunks(CHUNK))
                .map(|(m, n)| commit_shared(m, n, residue))
                .sum()
        } else {
            masks
                .chunks_mut(CHUNK)
                .zip(next.chunks(CHUNK))
                .map(|(m, n)| commit_shared(m, n, residue))
                .sum()
        };
        total += states;
        layers.push(states);
        on_layer(&Layer {
            depth,
            states,
            total,
            elapsed: start.elapsed(),
        });
    }
    debug_assert_eq!(total, indexer.len());
    let hardest = search.frontier_boards(&masks);
    let body = search.body(&masks);
    Ok(assemble(goal, layers, &hardest, &body))
}

/// Layers smaller than this are expanded on one thread.
const PARALLEL_LAYER: u64 = 2048;
/// Tile orders a rayon task takes at a time.
const CHUNK: usize = 1024;

/// The boards of one tile order, as masks over the blank's cell.
#[derive(Clone, Copy, Default)]
struct Masks {
    /// Reached at any depth so far.
    visited: u16,
    /// Reached at the depth being expanded.
    frontier: u16,
    /// Bit 0 of the distance mod 3.
    low: u16,
    /// Bit 1 of the distance mod 3.
    high: u16,
}

/// Moves `next` into the frontier, marks it visited and records its
/// residue; returns how many boards it held.
fn commit_shared(chunk: &mut [Masks], next: &[AtomicU16], residue: u16) -> u64 {
    let mut states = 0u64;
    for (m, n) in chunk.iter_mut().zip(next) {
        let fresh = n.swap(0, Relaxed);
        m.frontier = fresh;
        if fresh != 0 {
            m.visited |= fresh;
            if residue & 1 != 0 {
                m.low |= fresh;
            }
            if residue & 2 != 0 {
                m.high |= fresh;
            }
            states += fresh.count_ones() as u64;
        }
    }
    states
}

/// What the passes share: the shape's constants and every tile order.
struct Search<'a> {
    indexer: &'a Indexer,
    per_blank: usize,
    cells: usize,
    cols: usize,
    /// The tile order of each `h` with its last two tiles ascending, and
    /// that order's parity in bit 63.
    orders: Vec<u64>,
    /// Cells whose boards have an odd tile order.
    odd_cells: u16,
    /// Cells the blank can leave by moving left, right, up, down.
    can_left: u16,
    can_right: u16,
    can_up: u16,
    can_down: u16,
}

impl<'a> Search<'a> {
    fn new(indexer: &'a Indexer) -> Search<'a> {
        let shape = indexer.shape();
        let (cells, cols) = (shape.cells(), shape.cols());
        let per_blank = indexer.per_blank() as usize;
        let orders = (0..per_blank)
            .into_par_iter()
            .with_min_len(4096)
            .map(|h| {
                let order = indexer.tile_order(h as u64);
                order | (tile_parity(order, cells - 1) << 63)
            })
            .collect();
        let mask = |keep: &dyn Fn(usize) -> bool| -> u16 {
            (0..cells).filter(|&c| keep(c)).fold(0, |m, c| m | 1 << c)
        };
        Search {
            indexer,
            per_blank,
            cells,
            cols,
            orders,
            odd_cells: mask(&|c| indexer.parity_at(c) == 1),
            can_left: mask(&|c| c % cols != 0),
            can_right: mask(&|c| c % cols != cols - 1),
            can_up: mask(&|c| c >= cols),
            can_down: mask(&|c| c + cols < cells),
        }
    }

    /// The tile order of the boards at `h` with the blank in `cell`: the
    /// stored order, or that order with its last two tiles swapped.
    #[inline]
    fn tiles_at(&self, h: usize, cell: usize) -> u64 {
        let stored = self.orders[h];
        let order = stored & !(1 << 63);
        let want = (self.odd_cells >> cell) as u64 & 1;
        if stored >> 63 == want {
            order
        } else {
            let m = self.cells - 1;
            let a = (order >> (4 * (m - 2))) & 0xF;
            let c = (order >> (4 * (m - 1))) & 0xF;
            order ^ ((a ^ c) << (4 * (m - 2))) ^ ((a ^ c) << (4 * (m - 1)))
        }
    }

    /// Sets in `next` the unvisited neighbours of the frontier masks in
    /// `chunk` (the masks from `first` on); true if it set any.
    fn expand(&self, first: usize, chunk: &[Masks], all: &[Masks], next: &[AtomicU16]) -> bool {
        let cols = self.cols;
        let k = 4 * (cols - 1);
        let window = (1u64 << (k + 4)) - 1;
        let mut claimed = false;
        let mut claim = |h: usize, bits: u16| {
            let n = &next[h];
            if n.load(Relaxed) & bits != bits {
                n.fetch_or(bits, Relaxed);
            }
            claimed = true;
        };
        for (i, m) in chunk.iter().enumerate() {
            let f = m.frontier;
            if f == 0 {
                continue;
            }
            let h = first + i;
            let along = (((f & self.can_left) >> 1) | ((f & self.can_right) << 1)) & !m.visited;
            if along != 0 {
                claim(h, along);
            }
            // Up: the tile above the blank drops `cols - 1` places later
            // in the tile order; the window of `cols` tiles rotates.
            let mut up = f & self.can_up;
            while up != 0 {
                let b = up.trailing_zeros() as usize;
                up &= up - 1;
                let tiles = self.tiles_at(h, b);
                let s = 4 * (b - cols);
                let seg = (tiles >> s) & window;
                let seg = (seg >> 4) | ((seg & 0xF) << k);
                let moved = (tiles & !(window << s)) | (seg << s);
                let h2 = self.indexer.tile_rank(moved) as usize;
                let bit = 1u16 << (b - cols);
                if all[h2].visited & bit == 0 {
                    claim(h2, bit);
                }
            }
            // Down: the tile below comes `cols - 1` places earlier.
            let mut down = f & self.can_down;
            while down != 0 {
                let b = down.trailing_zeros() as usize;
                down &= down - 1;
                let tiles = self.tiles_at(h, b);
                let s = 4 * b;
                let seg = (tiles >> s) & window;
                let seg = ((seg << 4) & window) | (seg >> k);
                let moved = (tiles & !(window << s)) | (seg << s);
                let h2 = self.indexer.tile_rank(moved) as usize;
                let bit = 1u16 << (b + cols);
                if all[h2].visited & bit == 0 {
                    claim(h2, bit);
                }
            }
        }
        claimed
    }

    /// The board with tile order `tiles` and the blank in `cell`.
    fn board(&self, tiles: u64, cell: usize) -> Board {
        let low = (1u64 << (4 * cell)) - 1;
        let packed = (tiles & low) | ((tiles & !low) << 4);
        let cells: Vec<u8> = (0..self.cells)
            .map(|c| ((packed >> (4 * c)) & 0xF) as u8)
            .collect();
        Board::from_tiles(self.indexer.shape(), &cells)
            .expect("a tile order and a blank make a board")
    }

    /// The boards of the last frontier, in index order.
    fn frontier_boards(&self, masks: &[Masks]) -> Vec<Board> {
        let mut found = Vec::new();
        for cell in 0..self.cells {
            for (h, m) in masks.iter().enumerate() {
                if m.frontier >> cell & 1 != 0 {
                    found.push(self.board(self.tiles_at(h, cell), cell));
                }
            }
        }
        found
    }

    /// The 2-bit entries, index `cell × per_blank + h`, four to a byte;
    /// the unused entries of the last byte are 3.
    fn body(&self, masks: &[Masks]) -> Vec<u8> {
        let states = self.cells * self.per_blank;
        let mut body = vec![0u8; states.div_ceil(4)];
        let entry =
            |m: &Masks, cell: usize| ((m.low >> cell) & 1 | ((m.high >> cell) & 1) << 1) as u8;
        if self.per_blank.is_multiple_of(4) {
            // Each blank cell owns whole bytes: fill them in parallel.
            body.par_chunks_mut(self.per_blank / 4)
                .enumerate()
                .for_each(|(cell, bytes)| {
                    for (byte, quad) in bytes.iter_mut().zip(masks.chunks_exact(4)) {
                        *byte = quad
                            .iter()
                            .enumerate()
                            .fold(0, |acc, (q, m)| acc | entry(m, cell) << (2 * q));
                    }
                });
        } else {
            let mut i = 0;
            for cell in 0..self.cells {
                for m in masks {
                    body[i / 4] |= entry(m, cell) << (2 * (i % 4));
                    i += 1;
                }
            }
        }
        for i in states..body.len() * 4 {
            body[i / 4] |= 3 << (2 * (i % 4));
        }
        body
    }
}

/// The parity of a tile order of `m` tiles packed four bits a tile.
fn tile_parity(order: u64, m: usize) -> u64 {
    let mut inversions = 0u32;
    let mut seen = 0u32;
    for i in 0..m {
        let t = (order >> (4 * i)) & 0xF;
        inversions += (seen >> (t + 1)).count_ones();
        seen |= 1 << t;
    }
    (inversions & 1) as u64
}
