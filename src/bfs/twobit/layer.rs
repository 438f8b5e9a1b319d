//! One layer's expansion: the cells of layer d + 1 cleared, then the
//! horizontal pass (a word of 64 tile orders at a time) and the vertical
//! pass (planned runs, or batches of prefetched targets claimed with
//! atomics) over the resident words. A segmented search runs the same
//! horizontal pass over its segments (`segmented`).

use std::io;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::board::Move;

use super::TwoBit;
use crate::bfs::moves::{Odometer, compact, prefetch, spread, unreached};
use crate::bfs::vertical::{self, BUSY_WORDS, Bitset, Busy, Claims, Sources};

/// Frontier words a rayon task takes at a time.
pub(super) const CHUNK: usize = 1 << 10;

/// Vertical targets computed and prefetched before any is claimed.
const BATCH: usize = 32;

impl TwoBit<'_> {
    /// Expands the deepest layer: whether it reached any new board (if
    /// not, the search is over and nothing changed). Fails only on a
    /// segmented search's work files.
    pub(crate) fn expand(&mut self) -> io::Result<bool> {
        if self.metric == crate::board::Metric::Multi {
            return Ok(self.expand_multi());
        }
        let depth = self.depth();
        let sources = self.cells_of_layer(depth);
        let targets = self.cells_of_layer(depth + 1);
        // Stored as residue ^ 3.
        let stored = 3 ^ ((depth + 1) % 3) as u64;
        let found = match self.resident() {
            Some((residues, frontier)) => {
                // The targets' bitsets held layer depth − 1.
                for &cell in &targets {
                    let bitset = &frontier[cell * self.words..(cell + 1) * self.words];
                    match &self.busy {
                        Some(busy) => {
                            (0..busy.blocks())
                                .into_par_iter()
                                .with_min_len(1 << 10)
                                .for_each(|b| {
                                    if busy.is_busy(cell, b) {
                                        let end = ((b + 1) * BUSY_WORDS).min(self.words);
                                        for w in &bitset[b * BUSY_WORDS..end] {
                                            w.store(0, Relaxed);
                                        }
                                    }
                                });
                            busy.clear(cell);
                        }
                        None => bitset
                            .par_iter()
                            .with_min_len(1 << 12)
                            .for_each(|w| w.store(0, Relaxed)),
                    }
                }
                let mut found = 0;
                for &target in &targets {
                    let view = Segment {
                        cell: target,
                        words: 0..self.words,
                        residues,
                        first_word: 0,
                        into: &frontier[target * self.words..(target + 1) * self.words],
                        busy: self.busy.as_ref(),
                    };
                    found += self.expand_horizontal(
                        &view,
                        |source, w| frontier[source * self.words + w].load(Relaxed),
                        stored,
                    );
                }
                found + self.expand_vertical_resident(&sources, residues, frontier, stored)
            }
            None => self.expand_segmented(&targets, stored)?,
        };
        if found == 0 {
            // The next layer's bitsets are empty: the layer stays whole.
            return Ok(false);
        }
        self.layers.push(found);
        Ok(true)
    }

    /// The horizontal sources of `target`: the cells beside it.
    pub(super) fn beside(&self, target: usize) -> Vec<usize> {
        self.adjacency
            .from(target)
            .iter()
            .filter(|(mv, _)| matches!(mv, Move::Left | Move::Right))
            .map(|&(_, from)| from as usize)
            .collect()
    }

    /// Pass 1 over a segment: the boards a horizontal move reaches, a word
    /// of 64 tile orders at a time; `source(cell, w)` is word `w` of a
    /// source cell's frontier.
    pub(super) fn expand_horizontal(
        &self,
        view: &Segment,
        source: impl Fn(usize, usize) -> u64 + Sync,
        stored: u64,
    ) -> u64 {
        let sources = self.beside(view.cell);
        let residues = view.residues;
        // Whole words of entries per cell: a cell's 64 tile orders are two
        // residue words.
        let aligned = self.per_blank.is_multiple_of(64);
        let base = view.cell as u64 * self.per_blank;
        let first = view.first_word as u64 * 32;
        let start = view.words.start;
        let word = |w: usize| {
            let arriving = sources.iter().fold(0, |acc, &s| acc | source(s, w));
            if arriving == 0 {
                return 0;
            }
            let into = &view.into[w - start];
            if !aligned {
                let mut found = 0;
                let mut bits = arriving;
                while bits != 0 {
                    let h = (w * 64) as u64 + bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    if claim(residues, base + h - first, stored) {
                        found += 1;
                        into.fetch_or(1 << (h % 64), Relaxed);
                    }
                }
                return found;
            }
            let at = ((base + (w * 64) as u64 - first) / 32) as usize;
            let (low, high) = (residues[at].load(Relaxed), residues[at + 1].load(Relaxed));
            let open = compact(unreached(low)) | (compact(unreached(high)) << 32);
            let new = arriving & open;
            if new == 0 {
                return 0;
            }
            // This task alone writes these words in this pass.
            residues[at].store(low | (spread(new & 0xFFFF_FFFF) * stored), Relaxed);
            residues[at + 1].store(high | (spread(new >> 32) * stored), Relaxed);
            into.fetch_or(new, Relaxed);
            if let Some(busy) = view.busy {
                busy.mark(view.cell, w);
            }
            new.count_ones() as u64
        };
        match view.busy {
            // Only the blocks some source has bits in.
            Some(busy) => (0..busy.blocks())
                .into_par_iter()
                .with_min_len(1 << 8)
                .filter(|&b| sources.iter().any(|&s| busy.is_busy(s, b)))
                .map(|b| {
                    let end = ((b + 1) * BUSY_WORDS).min(view.words.end);
                    (b * BUSY_WORDS..end).map(word).sum::<u64>()
                })
                .sum(),
            None => view
                .words
                .clone()
                .into_par_iter()
                .with_min_len(CHUNK)
                .map(word)
                .sum(),
        }
    }

    /// Pass 2, resident: the boards a vertical move reaches, every source
    /// cell at once (one odometer for all).
    fn expand_vertical_resident(
        &self,
        sources: &[usize],
        residues: &[AtomicU64],
        frontier: &[AtomicU64],
        stored: u64,
    ) -> u64 {
        let words = self.words;
        let search = &self.search;
        let per_blank = self.per_blank;
        if !self.plans.is_empty() {
            return self.expand_planned(
                sources.iter().copied(),
                residues,
                frontier,
                stored,
                |cell| Bitset(&frontier[cell * words..(cell + 1) * words]),
            );
        }
        let sources: Vec<usize> = sources
            .iter()
            .copied()
            .filter(|&c| search.verticals(c).next().is_some())
            .collect();
        if sources.is_empty() {
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
                    for (i, &cell) in sources.iter().enumerate() {
                        here[i] = frontier[cell * words + w].load(Relaxed);
                        any |= here[i];
                    }
                    while any != 0 {
                        let bit = any.trailing_zeros();
                        any &= any - 1;
                        let h = (w * 64) as u64 + bit as u64;
                        let digits = odometer.at(h);
                        for (i, &cell) in sources.iter().enumerate() {
                            if here[i] >> bit & 1 == 0 {
                                continue;
                            }
                            for v in search.verticals(cell) {
                                let to = v.to as u64 * per_blank + search.vertical(h, digits, v);
                                prefetch(&residues[(to / 32) as usize]);
                                batch.push(to);
                                if batch.len == BATCH {
                                    found += self.claim_all(&mut batch, residues, frontier, stored);
                                }
                            }
                        }
                    }
                }
                found + self.claim_all(&mut batch, residues, frontier, stored)
            })
            .sum()
    }

    /// The vertical pass by plans (resident searches whose cells are whole
    /// frontier words): every vertical move of each of `cells`, whose
    /// boards `source(cell)` reads.
    pub(super) fn expand_planned<S: Sources>(
        &self,
        cells: impl IntoIterator<Item = usize>,
        residues: &[AtomicU64],
        frontier: &[AtomicU64],
        stored: u64,
        source: impl Fn(usize) -> S,
    ) -> u64 {
        let claims = Claims {
            residues,
            frontier,
            words: self.words,
            per_blank: self.per_blank,
            stored,
            busy: self
                .busy
                .as_ref()
                .expect("a search with plans has a summary"),
        };
        let mut found = 0;
        for cell in cells {
            let source = source(cell);
            for (v, plan) in self.search.verticals(cell).zip(&self.plans[cell]) {
                found += vertical::expand(&self.search, v, plan, cell, &source, &claims);
            }
        }
        found
    }

    /// Claims a batch of vertical targets (already prefetched), setting
    /// the frontier bits of those this thread reached first.
    #[inline]
    pub(super) fn claim_all(
        &self,
        batch: &mut Batch,
        residues: &[AtomicU64],
        frontier: &[AtomicU64],
        stored: u64,
    ) -> u64 {
        let mut claimed = [0u64; BATCH];
        let mut n = 0;
        for &to in &batch.targets[..batch.len] {
            if claim(residues, to, stored) {
                let (cell, h) = (to / self.per_blank, to % self.per_blank);
                let word = cell as usize * self.words + (h / 64) as usize;
                prefetch(&frontier[word]);
                claimed[n] = to;
                n += 1;
            }
        }
        for &to in &claimed[..n] {
            let (cell, h) = (to / self.per_blank, to % self.per_blank);
            let word = cell as usize * self.words + (h / 64) as usize;
            frontier[word].fetch_or(1 << (h % 64), Relaxed);
            // (A multi-tile search keeps a summary without plans.)
            if let Some(busy) = &self.busy {
                busy.mark(cell as usize, (h / 64) as usize);
            }
        }
        batch.len = 0;
        n as u64
    }
}

/// One target cell's words a pass writes: all of them (resident), or a
/// segment's.
pub(super) struct Segment<'s> {
    /// The target cell.
    pub(super) cell: usize,
    /// The frontier words of the cell the segment covers.
    pub(super) words: std::ops::Range<usize>,
    /// Distances: every word (resident), or the segment's, from residue
    /// word `first_word` on.
    pub(super) residues: &'s [AtomicU64],
    pub(super) first_word: usize,
    /// The new frontier's words of `words`.
    pub(super) into: &'s [AtomicU64],
    /// The frontier's summary (resident searches with plans): the words
    /// of blocks no source has bits in are skipped.
    pub(super) busy: Option<&'s Busy>,
}

/// A run of vertical targets, as indexes.
pub(super) struct Batch {
    targets: [u64; BATCH],
    len: usize,
}

impl Batch {
    /// Whether the batch is full.
    #[inline]
    pub(super) fn is_full(&self) -> bool {
        self.len == BATCH
    }
}

impl Default for Batch {
    fn default() -> Batch {
        Batch {
            targets: [0; BATCH],
            len: 0,
        }
    }
}

impl Batch {
    #[inline]
    pub(super) fn push(&mut self, to: u64) {
        self.targets[self.len] = to;
        self.len += 1;
    }
}

/// Sets entry `index` to `stored` (a residue ^ 3, never 0) if it still
/// reads 0 (not reached); whether this call did (the first of racing
/// threads).
#[inline]
pub(super) fn claim(residues: &[AtomicU64], index: u64, stored: u64) -> bool {
    let word = &residues[(index / 32) as usize];
    let shift = 2 * (index % 32);
    if (word.load(Relaxed) >> shift) & 3 != 0 {
        return false;
    }
    let before = word.fetch_or(stored << shift, Relaxed);
    (before >> shift) & 3 == 0
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use crate::board::Board;
    use crate::rank::Indexer;
    use crate::symmetry::GoalClass;

    use super::*;
    use crate::bfs::vertical::{Plan, Policy};

    /// Every way of expanding a vertical move (runs moved whole, tables
    /// of targets, and the fastest mix of the two) builds the generator's
    /// bytes, on every window of shapes whose runs are 3 to 2520 tile
    /// orders long and whose spans see the parity digit or not.
    #[test]
    fn every_plan_of_vertical_moves_builds_the_same_bytes() {
        use crate::board::Shape;
        let policies = [Policy::Fastest, Policy::Runs, Policy::Tables];
        for (rows, cols, goal) in [
            (3, 3, "1 2 3 4 5 6 7 8 0"),
            (3, 3, "1 2 3 4 0 5 6 7 8"),
            (3, 3, "0 1 2 3 4 5 6 7 8"),
            (2, 5, "1 2 3 4 5 6 7 8 9 0"),
            (5, 2, "1 2 3 4 0 5 6 7 8 9"),
        ] {
            let shape = Shape::new(rows, cols).unwrap();
            let goal = Board::parse(goal, Some(shape)).unwrap();
            let class = GoalClass::of(&goal);
            let found = crate::bfs::memory::search(&class, |_| {}, |_| ControlFlow::Continue(()));
            let (layers, _, body) = found.unwrap().unwrap();
            let indexer = Indexer::new(class.canonical());
            for policy in policies {
                let mut search = TwoBit::new(&indexer, class.canonical()).unwrap();
                assert!(!search.plans.is_empty(), "{shape}: planned");
                search.plans = Plan::for_cells(&search.search, policy);
                while search.expand().unwrap() {}
                let mut bytes = Vec::new();
                search.write_body(&mut bytes).unwrap();
                assert_eq!(search.layers(), &layers[..], "{shape} {goal} {policy:?}");
                assert!(
                    bytes == body,
                    "{shape} toward {goal}, {policy:?}: the same bytes"
                );
            }
        }
    }
}
