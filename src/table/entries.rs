//! The entry check: every entry of a table against its neighbours'.
//!
//! Every distance table keeps these rules: each entry is a distance mod 3
//! (0, 1 or 2), the goal's is 0, every neighbour's differs from it by one
//! (mod 3), and every board but the goal has a neighbour one closer. (They
//! do not prove a table right on their own: on 2×2, whose boards form one
//! cycle of 12, other labellings keep them too; `verify` also compares
//! with a fresh search.) The check walks the body in its own order, blank cell by blank cell and
//! tile order by tile order, so it never unranks a board:
//!
//! - a horizontal move keeps the tile order, so the neighbour's entry is
//!   `per_blank` entries before or after, in memory read in order anyway;
//! - a vertical move's tile order comes from the generator's rank
//!   arithmetic ([`IndexMoves::vertical`](crate::bfs::index::IndexMoves::vertical)), its Lehmer digits carried along as
//!   an odometer. Those entries lie anywhere in the body, so a block of
//!   boards computes all of its targets and asks the cache for them before
//!   it reads any.
//!
//! On 2×7 (43.6 G entries in 10.9 GB) this reads the body about twice and
//! makes one random access a board.

use crate::symmetry::BuiltFor;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::rank::Index;

use super::Table;
use crate::bfs::index::{IndexMoves, Odometer, prefetch};

/// Tile orders a rayon task checks at a time (for one blank cell).
const TASK: u64 = 1 << 16;

/// Boards whose vertical targets are computed, then prefetched, before
/// any is read.
const BLOCK: usize = 32;

/// The most vertical moves from one cell (up and down).
const MAX_VERTICAL: usize = 2;

/// An entry that breaks the rules (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EntryFault {
    /// Where it is in the body.
    pub(crate) index: Index,
    /// The entry.
    pub(crate) residue: u8,
    /// What is wrong with it.
    pub(crate) what: &'static str,
}

/// A board of a block whose vertical neighbours are still to be read.
#[derive(Clone, Copy, Default)]
struct Pending {
    index: u64,
    residue: u8,
    /// A neighbour read so far is one closer.
    closer: bool,
    targets: [u64; MAX_VERTICAL],
    verticals: u8,
}

/// Checks every entry of `table` against its neighbours', in parallel,
/// calling `progress(done, total)` about a hundred times (from any
/// thread). The fault found first, if any; which one, when there are
/// several, depends on the threads.
pub(crate) fn check_entries<D: AsRef<[u8]> + Sync>(
    table: &Table<D>,
    progress: impl Fn(u64, u64) + Sync,
) -> Result<(), EntryFault> {
    let indexer = table.indexer();
    let body = table.body_bytes();
    let shape = indexer.shape();
    let (cells, cols) = (shape.cells(), shape.cols());
    let per_blank = indexer.per_blank();
    let goal = indexer.rank_unchecked(table.indexed_goal()).0;
    let search = IndexMoves::new(indexer, false);
    // A sharded table's entries are read through the table; a file's
    // straight from its body, with the vertical targets prefetched.
    let sharded = table.is_sharded();
    let entry = |i: u64| {
        if sharded {
            table.residue(Index(i))
        } else {
            (body[(i / 4) as usize] >> (2 * (i % 4))) & 3
        }
    };

    let total = indexer.len();
    let done = AtomicU64::new(0);
    let tasks = per_blank.div_ceil(TASK);
    progress(0, total);
    (0..cells as u64 * tasks)
        .into_par_iter()
        .try_for_each(|task| {
            let cell = (task / tasks) as usize;
            let first = (task % tasks) * TASK;
            let last = (first + TASK).min(per_blank);
            let base = cell as u64 * per_blank;
            // The cells a horizontal move reaches, as offsets in the body.
            let mut beside = [0u64; 2];
            let mut n_beside = 0;
            if !cell.is_multiple_of(cols) {
                beside[n_beside] = base - per_blank;
                n_beside += 1;
            }
            if cell % cols != cols - 1 {
                beside[n_beside] = base + per_blank;
                n_beside += 1;
            }
            let verticals: Vec<_> = search.verticals(cell).copied().collect();
            let mut odometer = Odometer::new(&search);
            let mut block = [Pending::default(); BLOCK];
            let mut h = first;
            while h < last {
                let len = ((last - h) as usize).min(BLOCK);
                // Pass 1: the entry, its horizontal neighbours, and the
                // vertical targets (prefetched).
                for (k, pending) in block[..len].iter_mut().enumerate() {
                    let h = h + k as u64;
                    let index = base + h;
                    let residue = entry(index);
                    let fault = |what| EntryFault {
                        index: Index(index),
                        residue,
                        what,
                    };
                    if residue > 2 {
                        return Err(fault("is not a distance mod 3"));
                    }
                    if index == goal && residue != 0 {
                        return Err(fault("is not 0 at the goal"));
                    }
                    let mut closer = false;
                    for &offset in &beside[..n_beside] {
                        match relation(residue, entry(offset + h)) {
                            Some(c) => closer |= c,
                            None => {
                                return Err(fault("differs from a neighbour's by other than one"));
                            }
                        }
                    }
                    *pending = Pending {
                        index,
                        residue,
                        closer,
                        targets: [0; MAX_VERTICAL],
                        verticals: verticals.len() as u8,
                    };
                    if !verticals.is_empty() {
                        let digits = odometer.at(h);
                        for (t, v) in pending.targets.iter_mut().zip(&verticals) {
                            *t = v.to as u64 * per_blank + search.vertical(h, digits, v);
                            if !sharded {
                                prefetch(&body[(*t / 4) as usize]);
                            }
                        }
                    }
                }
                // Pass 2: the vertical neighbours, by now on their way.
                for pending in &block[..len] {
                    let fault = |what| EntryFault {
                        index: Index(pending.index),
                        residue: pending.residue,
                        what,
                    };
                    let mut closer = pending.closer;
                    for &t in &pending.targets[..pending.verticals as usize] {
                        match relation(pending.residue, entry(t)) {
                            Some(c) => closer |= c,
                            None => {
                                return Err(fault("differs from a neighbour's by other than one"));
                            }
                        }
                    }
                    if !closer && pending.index != goal {
                        return Err(fault("has no neighbour one closer"));
                    }
                }
                h += len as u64;
            }
            let n = last - first;
            let before = done.fetch_add(n, Relaxed);
            if (before * 100 / total) != ((before + n) * 100 / total) {
                progress(before + n, total);
            }
            Ok(())
        })
}

/// How a neighbour's entry stands to a board's: `Some(true)` one closer,
/// `Some(false)` one farther, `None` neither (a fault).
#[inline]
fn relation(residue: u8, neighbour: u8) -> Option<bool> {
    if neighbour == (residue + 2) % 3 {
        Some(true)
    } else if neighbour == (residue + 1) % 3 {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Shape};
    use crate::table::generate;

    /// Correct tables pass; any changed entry is found, at that entry or
    /// at a neighbour of it (the rules are local: a wrong entry makes its
    /// neighbours' relations wrong too).
    #[test]
    fn a_table_passes_and_each_changed_entry_is_found_near_it() {
        for (rows, cols, goal) in [
            (2, 2, None),
            (2, 3, None),
            (3, 2, Some("1 2 / 3 0 / 4 5")),
            (2, 4, Some("1 2 3 4 / 5 0 6 7")),
            (3, 3, Some("0 1 2 / 3 4 5 / 6 7 8")),
        ] {
            let shape = Shape::new(rows, cols).unwrap();
            let goal: Board = match goal {
                Some(text) => text.parse().unwrap(),
                None => Board::solved(shape),
            };
            let table = generate(&goal, |_| {}).unwrap();
            let calls = AtomicU64::new(0);
            check_entries(&table, |done, total| {
                assert!(done <= total);
                calls.fetch_add(1, Relaxed);
            })
            .unwrap_or_else(|f| panic!("{shape}: {f:?}"));
            assert!(calls.into_inner() >= 2, "{shape}: progress is called");

            let indexer = table.indexer();
            let states = indexer.len();
            // A spread of entries, the goal among them, each changed to
            // each other value.
            let goal_index = indexer.rank(table.indexed_goal()).unwrap().0;
            let picks = (0..states)
                .step_by((states / 97).max(1) as usize)
                .chain([goal_index, states - 1]);
            for i in picks {
                let old = table.residue(Index(i));
                for new in (0..4u8).filter(|&r| r != old) {
                    let mut bytes = table.as_bytes().to_vec();
                    let at = bytes.len() - table.body_bytes().len() + (i / 4) as usize;
                    bytes[at] ^= (old ^ new) << (2 * (i % 4));
                    let changed = Table::new(bytes).unwrap();
                    let fault =
                        check_entries(&changed, |_, _| {}).expect_err("a changed entry is found");
                    let board = indexer.unrank(Index(i)).unwrap();
                    let near = fault.index.0 == i || {
                        let at = indexer.unrank(fault.index).unwrap();
                        crate::board::Adjacency::new(indexer.shape())
                            .from(at.blank())
                            .iter()
                            .any(|&(_, t)| at.slide_from(t as usize) == board)
                    };
                    assert!(near, "{shape}: entry {i} {old}->{new}: {fault:?}");
                    assert_eq!(fault.residue, changed.residue(fault.index));
                }
            }
        }
    }
}
