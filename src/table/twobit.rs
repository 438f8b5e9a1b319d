//! The two-bit search: a generator whose memory is the finished table
//! itself plus one bit a board, the layout planned for tables past 12
//! cells (`docs/segmented-generator-plan.md`).
//!
//! The residues are kept where the table's body keeps them (index
//! `blank × per_blank + h`, 2 bits an entry), with entry 3 for a board
//! not reached yet, so no separate "reached" plane is needed. The frontier
//! is one bitset per blank cell: the graph is bipartite, so layer d has
//! every blank on one colour of the checkerboard and layer d + 1 on the
//! other, and each cell's bitset serves every other layer (expanded as
//! layer d, cleared, then filled again as layer d + 2). Memory: 2 bits
//! (residues) + 1 bit (frontier) a board; for 2×7, 10.9 GB + 5.4 GB.
//!
//! Each layer is one parallel pass over the frontier's set bits: a move
//! whose target entry still reads 3 claims it with one atomic `fetch_and`
//! (every thread writes the same residue, so the first one counts it) and
//! sets the target's frontier bit with a `fetch_or`. The pass walks the
//! tile orders `h` in increasing order, all source cells at once, and
//! carries the Lehmer digits of `h` along as an odometer (a fresh start
//! only after a gap), so vertical moves use the generator's incremental
//! rank arithmetic without its 8-byte table of digits per tile order.
//!
//! The table it builds is byte for byte the one [`generate`](super::generate())
//! builds.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use crate::board::{Adjacency, Board, Move};
use crate::rank::{Index, Indexer};
use crate::symmetry::GoalClass;

use super::generate::Search;
use super::{GenerateError, Layer, MAX_HARDEST, MAX_TABLE_CELLS, Table, assemble};

/// Frontier words (of every source cell at once) a rayon task takes at a
/// time.
const CHUNK: usize = 1 << 10;

/// Builds the full distance table for `goal` by the two-bit search,
/// calling `on_layer` after each layer: the same table as
/// [`generate`](super::generate()), in about 3 bits of memory a board.
///
/// ```
/// use slidedb::{Board, Shape, generate, table::generate_two_bit};
/// let goal = Board::solved(Shape::new(2, 3).unwrap());
/// let table = generate_two_bit(&goal, |_| {}).unwrap();
/// assert_eq!(table.as_bytes(), generate(&goal, |_| {}).unwrap().as_bytes());
/// ```
pub fn generate_two_bit(
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
    let class = GoalClass::of(goal);
    let canonical = *class.canonical();
    // The search runs toward the canonical goal, maybe of the transposed
    // shape.
    let shape = canonical.shape();
    let indexer = Indexer::new(&canonical);
    let adjacency = Adjacency::new(shape);
    // The rank arithmetic of vertical moves, without its table of digits.
    let search = Search::new(&indexer, false);
    let cells = shape.cells();
    let per_blank = indexer.per_blank();
    let states = indexer.len();
    // Every entry 3 (not reached), the spare ones of the last word too.
    let residues: Vec<AtomicU64> = (0..states.div_ceil(32))
        .map(|_| AtomicU64::new(u64::MAX))
        .collect();
    let words = per_blank.div_ceil(64) as usize;
    let frontier: Vec<Vec<AtomicU64>> = (0..cells)
        .map(|_| (0..words).map(|_| AtomicU64::new(0)).collect())
        .collect();
    let colour = |cell: usize| (cell / shape.cols() + cell % shape.cols()) % 2;
    let root = indexer.rank_unchecked(&canonical).0;
    claim(&residues, root, 0);
    let (root_cell, root_h) = ((root / per_blank) as usize, root % per_blank);
    frontier[root_cell][(root_h / 64) as usize].fetch_or(1 << (root_h % 64), Relaxed);
    let mut layers = vec![1u64];
    on_layer(&Layer {
        depth: 0,
        states: 1,
        total: 1,
        elapsed: start.elapsed(),
    });
    let mut total = 1;
    let mut depth = 0u32;
    loop {
        // Layer `depth` has its blank on `here`'s colour; the next layer's
        // bitsets (the other colour) held layer depth − 1: clear them.
        let here = colour(root_cell) ^ (depth as usize % 2);
        for cell in (0..cells).filter(|&c| colour(c) != here) {
            frontier[cell].par_iter().for_each(|w| w.store(0, Relaxed));
        }
        let next = (depth + 1) % 3;
        let sources: Vec<usize> = (0..cells).filter(|&c| colour(c) == here).collect();
        let found: u64 = (0..words)
            .into_par_iter()
            .step_by(CHUNK)
            .map(|first| {
                let mut found = 0;
                // The odometer: the digits of tile order `at`.
                let mut at = u64::MAX;
                let mut digits = 0;
                for w in first..(first + CHUNK).min(words) {
                    let any = sources
                        .iter()
                        .fold(0, |acc, &c| acc | frontier[c][w].load(Relaxed));
                    let mut bits = any;
                    while bits != 0 {
                        let h = (w * 64) as u64 + bits.trailing_zeros() as u64;
                        bits &= bits - 1;
                        // A short step forward is cheaper than a fresh start.
                        if at <= h && h - at <= 64 {
                            while at < h {
                                digits = search.advance(digits);
                                at += 1;
                            }
                        } else {
                            digits = search.digits_at(h);
                            at = h;
                        }
                        let stored = search.with_parity(digits);
                        for &cell in &sources {
                            if frontier[cell][w].load(Relaxed) >> (h % 64) & 1 == 0 {
                                continue;
                            }
                            let mut reach = |to_cell: usize, to_h: u64| {
                                let to = to_cell as u64 * per_blank + to_h;
                                if claim(&residues, to, next) {
                                    found += 1;
                                    frontier[to_cell][(to_h / 64) as usize]
                                        .fetch_or(1 << (to_h % 64), Relaxed);
                                }
                            };
                            for &(mv, target) in adjacency.from(cell) {
                                if matches!(mv, Move::Left | Move::Right) {
                                    reach(target as usize, h);
                                }
                            }
                            for v in search.verticals(cell) {
                                reach(v.to, search.vertical(h, stored, v));
                            }
                        }
                    }
                }
                found
            })
            .sum();
        if found == 0 {
            break;
        }
        depth += 1;
        total += found;
        layers.push(found);
        on_layer(&Layer {
            depth,
            states: found,
            total,
            elapsed: start.elapsed(),
        });
    }
    debug_assert_eq!(total, states);
    // The last layer, first in index order: as `generate` lists them.
    let last = colour(root_cell) ^ (depth as usize % 2);
    let mut hardest = Vec::new();
    'cells: for cell in (0..cells).filter(|&c| colour(c) == last) {
        for (w, word) in frontier[cell].iter().enumerate() {
            let mut bits = word.load(Relaxed);
            while bits != 0 {
                if hardest.len() == MAX_HARDEST {
                    break 'cells;
                }
                let h = (w * 64) as u64 + bits.trailing_zeros() as u64;
                bits &= bits - 1;
                let index = Index(cell as u64 * per_blank + h);
                hardest.push(indexer.unrank(index).expect("a frontier bit is a board"));
            }
        }
    }
    drop(frontier);
    let mut body: Vec<u8> = residues
        .into_iter()
        .flat_map(|w| w.into_inner().to_le_bytes())
        .collect();
    body.truncate(states.div_ceil(4) as usize);
    Ok(assemble(&class, layers, &hardest, &body))
}

/// Sets entry `index` to `residue` if it still reads 3 (not reached);
/// whether this call did (the first of racing threads).
#[inline]
fn claim(residues: &[AtomicU64], index: u64, residue: u32) -> bool {
    let word = &residues[(index / 32) as usize];
    let shift = 2 * (index % 32);
    if (word.load(Relaxed) >> shift) & 3 != 3 {
        return false;
    }
    // 3 is 0b11: clearing the bits `residue` lacks writes it.
    let clear = ((3 ^ residue as u64) & 3) << shift;
    let before = word.fetch_and(!clear, Relaxed);
    (before >> shift) & 3 == 3
}
