//! One layer's expansion in the multi-tile metric, resident: the same
//! three bits a board as the single-tile search, kept apart without the
//! checkerboard's help.
//!
//! A slide of two cells keeps the blank's colour, so layer d + 1 can land
//! in any cell, beside layer d's boards in the same bitsets. A board's
//! frontier bit is therefore read together with its entry: the boards
//! expanded are those whose bit is set *and* whose entry is layer d's
//! residue. New boards get layer d + 1's residue and their bit at once, so
//! a pass never mistakes them for sources, whatever the order its tasks
//! run in; when the layer is done, the bits of layer d are cleared (the
//! only boards with a bit and layer d's residue), and the bitsets hold
//! layer d + 1 alone, as a checkpoint expects.
//!
//! - Along a row, a slide keeps the tile order `h`: a target cell's new
//!   boards are the other cells of its row's sources, a word of 64 tile
//!   orders at a time, as in the single-tile pass.
//! - Along a column, a slide of k cells is k vertical steps, each found
//!   from the one before by the index arithmetic; the chain goes on past
//!   boards already reached, since a farther one may be new. Targets are
//!   prefetched a batch at a time and claimed with atomics. On a board of
//!   two rows (2×7) every such slide is one step, and the single-tile
//!   pass's plans move it (`crate::bfs::vertical`: runs of tile orders
//!   moved whole, tables of targets), reading as sources only the bits
//!   whose entry is layer d's.
//! - The frontier's summary (which blocks of 64 words may hold bits)
//!   lets every pass skip the empty blocks of a sparse layer; the last
//!   pass, which clears layer d's bits, forgets the blocks it empties.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::TwoBit;
use super::layer::{Batch, CHUNK, claim};
use crate::bfs::moves::{Odometer, compact, prefetch, spread, unreached};
use crate::bfs::vertical::{BUSY_WORDS, Sources};

/// Entries `first .. first + 64` of `residues`, as two words of 32
/// entries (entries past the end read as 0).
#[inline]
fn entries(residues: &[AtomicU64], first: u64) -> (u64, u64) {
    let at = (first / 32) as usize;
    let word = |i: usize| residues.get(i).map_or(0, |w| w.load(Relaxed));
    let shift = 2 * (first % 32) as u32;
    let (a, b) = (word(at), word(at + 1));
    if shift == 0 {
        return (a, b);
    }
    let c = word(at + 2);
    (
        a >> shift | b << (64 - shift),
        b >> shift | c << (64 - shift),
    )
}

/// Bit j set where entry j of `(low, high)` (64 entries) is `stored`.
#[inline]
fn equal(low: u64, high: u64, stored: u64) -> u64 {
    let all = spread(0xFFFF_FFFF) * stored;
    compact(unreached(low ^ all)) | compact(unreached(high ^ all)) << 32
}

/// A source cell's boards of layer d, a word at a time (cells of whole
/// frontier words): the frontier bits whose entries are layer d's residue.
struct LayerBits<'s> {
    /// The cell's frontier bitset.
    frontier: &'s [AtomicU64],
    residues: &'s [AtomicU64],
    /// The cell's first index.
    base: u64,
    /// Layer d's entry, as stored.
    current: u64,
}

impl Sources for LayerBits<'_> {
    #[inline]
    fn word(&self, w: usize) -> u64 {
        let bits = self.frontier[w].load(Relaxed);
        if bits == 0 {
            return 0;
        }
        let at = ((self.base + 64 * w as u64) / 32) as usize;
        let (low, high) = (
            self.residues[at].load(Relaxed),
            self.residues[at + 1].load(Relaxed),
        );
        bits & equal(low, high, self.current)
    }
}

impl TwoBit<'_> {
    /// Expands the deepest layer in the multi-tile metric: whether it
    /// reached any new board (if not, the search is over and the bitsets
    /// still hold the deepest layer).
    pub(super) fn expand_multi(&mut self) -> bool {
        let (residues, frontier) = self
            .resident()
            .expect("a multi-tile two-bit search is resident");
        let depth = self.depth();
        // Stored as residue ^ 3.
        let current = 3 ^ (depth % 3) as u64;
        let stored = 3 ^ ((depth + 1) % 3) as u64;
        let (words, per_blank) = (self.words, self.per_blank);
        // Word `w` of `cell`'s sources: layer d's boards.
        let sources = |cell: usize, w: usize| {
            let bits = frontier[cell * words + w].load(Relaxed);
            if bits == 0 {
                return 0;
            }
            let (low, high) = entries(residues, cell as u64 * per_blank + (w * 64) as u64);
            bits & equal(low, high, current)
        };
        let mut found = 0;
        for row in 0..self.cells / self.cols {
            found += self.expand_row(row, residues, frontier, &sources, stored);
        }
        found += if self.plans.is_empty() {
            self.expand_columns(residues, frontier, &sources, stored)
        } else {
            self.expand_columns_planned(residues, frontier, current, stored)
        };
        if found == 0 {
            return false;
        }
        // Layer d's bits cleared: the bitsets hold layer d + 1.
        let clear = |cell: usize, w: usize| {
            let old = sources(cell, w);
            let word = &frontier[cell * words + w];
            if old != 0 {
                word.fetch_and(!old, Relaxed) & !old
            } else {
                word.load(Relaxed)
            }
        };
        match &self.busy {
            // Only the blocks that may hold bits; a block left empty is
            // forgotten, so that the next layer skips it.
            Some(busy) => (0..self.cells * busy.blocks())
                .into_par_iter()
                .with_min_len(1 << 8)
                .for_each(|k| {
                    let (cell, block) = (k / busy.blocks(), k % busy.blocks());
                    if !busy.is_busy(cell, block) {
                        return;
                    }
                    let end = ((block + 1) * BUSY_WORDS).min(words);
                    let left = (block * BUSY_WORDS..end).fold(0, |acc, w| acc | clear(cell, w));
                    if left == 0 {
                        busy.unmark(cell, block);
                    }
                }),
            None => (0..self.cells * words)
                .into_par_iter()
                .with_min_len(CHUNK)
                .for_each(|i| {
                    clear(i / words, i % words);
                }),
        }
        self.layers.push(found);
        true
    }

    /// The boards a slide along their row brings into `row`'s cells: each
    /// cell's new boards are the other cells' sources, a word of 64 tile
    /// orders at a time (each source word read once for the whole row).
    fn expand_row(
        &self,
        row: usize,
        residues: &[AtomicU64],
        frontier: &[AtomicU64],
        sources: &(impl Fn(usize, usize) -> u64 + Sync),
        stored: u64,
    ) -> u64 {
        let (cols, words, per_blank) = (self.cols, self.words, self.per_blank);
        let first = row * cols;
        let aligned = per_blank.is_multiple_of(64);
        let busy = self.busy.as_ref();
        let word = |w: usize| {
            let mut here = [0u64; crate::board::MAX_CELLS];
            let mut any = 0;
            for (i, bits) in here[..cols].iter_mut().enumerate() {
                *bits = sources(first + i, w);
                any |= *bits;
            }
            if any == 0 {
                return 0;
            }
            // Every other cell's sources: the ORs before and after.
            let mut after = [0u64; crate::board::MAX_CELLS];
            for i in (0..cols.saturating_sub(1)).rev() {
                after[i] = after[i + 1] | here[i + 1];
            }
            let mut before = 0;
            let mut found = 0;
            for i in 0..cols {
                let arriving = before | after[i];
                before |= here[i];
                if arriving == 0 {
                    continue;
                }
                let target = first + i;
                let base = target as u64 * per_blank;
                let into = &frontier[target * words + w];
                if !aligned {
                    let mut bits = arriving;
                    while bits != 0 {
                        let h = (w * 64) as u64 + bits.trailing_zeros() as u64;
                        bits &= bits - 1;
                        if claim(residues, base + h, stored) {
                            found += 1;
                            into.fetch_or(1 << (h % 64), Relaxed);
                        }
                    }
                    continue;
                }
                let at = ((base + (w * 64) as u64) / 32) as usize;
                let (low, high) = (residues[at].load(Relaxed), residues[at + 1].load(Relaxed));
                let open = compact(unreached(low)) | (compact(unreached(high)) << 32);
                let new = arriving & open;
                if new == 0 {
                    continue;
                }
                // This task alone writes these words in this pass; the
                // other tasks read them only for layer d's entries,
                // which it leaves as they are.
                residues[at].store(low | (spread(new & 0xFFFF_FFFF) * stored), Relaxed);
                residues[at + 1].store(high | (spread(new >> 32) * stored), Relaxed);
                into.fetch_or(new, Relaxed);
                if let Some(busy) = busy {
                    busy.mark(target, w);
                }
                found += new.count_ones() as u64;
            }
            found
        };
        match busy {
            // Only the blocks some cell of the row has bits in.
            Some(busy) => (0..busy.blocks())
                .into_par_iter()
                .with_min_len(1 << 6)
                .filter(|&b| (first..first + cols).any(|cell| busy.is_busy(cell, b)))
                .map(|b| {
                    let end = ((b + 1) * BUSY_WORDS).min(words);
                    (b * BUSY_WORDS..end).map(word).sum::<u64>()
                })
                .sum(),
            None => (0..words)
                .into_par_iter()
                .with_min_len(CHUNK)
                .map(word)
                .sum(),
        }
    }

    /// The boards a slide along its column reaches on a board of two rows
    /// (each such slide is one vertical step), by the single-tile pass's
    /// planned runs and tables, reading as sources only layer d's boards.
    fn expand_columns_planned(
        &self,
        residues: &[AtomicU64],
        frontier: &[AtomicU64],
        current: u64,
        stored: u64,
    ) -> u64 {
        let (words, per_blank) = (self.words, self.per_blank);
        self.expand_planned(0..self.cells, residues, frontier, stored, |cell| {
            LayerBits {
                frontier: &frontier[cell * words..(cell + 1) * words],
                residues,
                base: cell as u64 * per_blank,
                current,
            }
        })
    }

    /// The boards a slide along its column reaches, every source cell at
    /// once (one odometer for all), each chain of vertical steps walked to
    /// the column's end.
    fn expand_columns(
        &self,
        residues: &[AtomicU64],
        frontier: &[AtomicU64],
        sources: &(impl Fn(usize, usize) -> u64 + Sync),
        stored: u64,
    ) -> u64 {
        let search = &self.search;
        let (words, per_blank, cols, cells) = (self.words, self.per_blank, self.cols, self.cells);
        if cells == cols {
            return 0;
        }
        (0..words)
            .into_par_iter()
            .step_by(CHUNK)
            .map(|first| {
                let mut found = 0;
                let mut batch = Batch::default();
                let mut odometer = Odometer::new(search);
                let mut here = [0u64; crate::board::MAX_CELLS];
                for w in first..(first + CHUNK).min(words) {
                    let mut any = 0;
                    for (cell, bits) in here[..cells].iter_mut().enumerate() {
                        *bits = sources(cell, w);
                        any |= *bits;
                    }
                    while any != 0 {
                        let bit = any.trailing_zeros();
                        any &= any - 1;
                        let h = (w * 64) as u64 + bit as u64;
                        let digits = odometer.at(h);
                        for (cell, bits) in here[..cells].iter().enumerate() {
                            if bits >> bit & 1 == 0 {
                                continue;
                            }
                            for v in search.verticals(cell) {
                                let up = v.to < cell;
                                let (mut at, mut to_h) = (v.to, search.vertical(h, digits, v));
                                loop {
                                    let to = at as u64 * per_blank + to_h;
                                    prefetch(&residues[(to / 32) as usize]);
                                    batch.push(to);
                                    if batch.is_full() {
                                        found +=
                                            self.claim_all(&mut batch, residues, frontier, stored);
                                    }
                                    let next = if up { at >= cols } else { at + cols < cells };
                                    if !next {
                                        break;
                                    }
                                    let step = search
                                        .verticals(at)
                                        .find(|n| (n.to < at) == up)
                                        .expect("a cell inside the column has a step onward");
                                    let d = search.with_parity(search.digits_at(to_h));
                                    to_h = search.vertical(to_h, d, step);
                                    at = step.to;
                                }
                            }
                        }
                    }
                }
                found + self.claim_all(&mut batch, residues, frontier, stored)
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use crate::board::{Board, Metric, Shape};
    use crate::rank::Indexer;
    use crate::symmetry::GoalClass;

    use super::super::TwoBit;

    /// The two-bit search in the multi-tile metric builds the in-memory
    /// multi-tile search's layers and bytes, on shapes whose cells are and
    /// are not whole words, with one and several rows to slide along, by
    /// the planned vertical pass (2×5: two rows, whole words) and by
    /// chains of steps.
    #[test]
    fn the_two_bit_search_builds_the_in_memory_searchs_bytes() {
        for (rows, cols, goal) in [
            (2, 3, "1 2 3 4 5 0"),
            (3, 2, "1 2 0 3 4 5"),
            (2, 4, "1 2 3 4 5 6 7 0"),
            (3, 3, "1 2 3 4 5 6 7 8 0"),
            (3, 3, "1 2 3 4 0 5 6 7 8"),
            (3, 3, "0 1 2 3 4 5 6 7 8"),
            (2, 5, "1 2 3 4 5 6 7 8 9 0"),
            (5, 2, "1 2 3 4 0 5 6 7 8 9"),
            (4, 2, "1 2 3 4 5 6 7 0"),
        ] {
            same_as_in_memory(rows, cols, goal);
        }
    }

    /// The same on the 12-cell shapes (seconds each).
    #[test]
    #[ignore = "12-cell searches: cargo nextest run --run-ignored only"]
    fn the_two_bit_search_builds_the_in_memory_searchs_bytes_on_twelve_cells() {
        for (rows, cols, goal) in [
            (3, 4, "1 2 3 4 5 6 7 8 9 10 11 0"),
            (4, 3, "1 2 3 4 5 6 0 7 8 9 10 11"),
            // Two rows: the planned vertical pass (as 2×7's).
            (2, 6, "1 2 3 4 5 6 7 8 9 10 11 0"),
        ] {
            same_as_in_memory(rows, cols, goal);
        }
    }

    fn same_as_in_memory(rows: usize, cols: usize, goal: &str) {
        {
            let shape = Shape::new(rows, cols).unwrap();
            let goal = Board::parse(goal, Some(shape)).unwrap();
            let class = GoalClass::of(&goal);
            let found = crate::bfs::multi::search(&class, |_| {}, |_| ControlFlow::Continue(()));
            let (layers, hardest, body) = found.unwrap().unwrap();
            let indexer = Indexer::new(class.canonical());
            let mut search = TwoBit::new_in(&indexer, class.canonical(), Metric::Multi).unwrap();
            while search.expand().unwrap() {}
            let mut bytes = Vec::new();
            search.write_body(&mut bytes).unwrap();
            assert_eq!(search.layers(), &layers[..], "{shape} toward {goal}");
            assert!(bytes == body, "{shape} toward {goal}: the same bytes");
            assert_eq!(search.hardest().unwrap(), hardest, "{shape} toward {goal}");
        }
    }
}
