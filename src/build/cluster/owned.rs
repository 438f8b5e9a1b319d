//! The boards one worker owns: their distances mod 3 and the frontier,
//! claimed, expanded and made into entries.

use std::ops::Range;

use crate::bfs::MAX_HARDEST;
use crate::bfs::moves::{IndexMoves, Odometer, compact, spread, unreached};
use crate::board::Board;
use crate::rank::{Index, Indexer};

/// What an expansion did.
pub(super) struct Expanded {
    /// Moves made (to any worker's boards).
    pub(super) moves: u64,
    /// New boards of its own it claimed.
    pub(super) claimed: u64,
}

/// The boards one worker owns: their distances mod 3 and the frontier.
pub(super) struct Owned<'s, 'a> {
    search: &'s IndexMoves<'a>,
    range: Range<u64>,
    per_blank: u64,
    cells: usize,
    cols: usize,
    /// Frontier words a cell (64 tile orders each).
    pub(super) words: usize,
    /// For each cell, `2 × words` words of entries (residue ^ 3; 0 is not
    /// reached), as in the two-bit search.
    pub(super) residues: Vec<u64>,
    /// For each cell, `words` words of frontier bits.
    pub(super) frontier: Vec<u64>,
    root: u64,
    root_colour: usize,
}

impl<'s, 'a> Owned<'s, 'a> {
    pub(super) fn new(
        search: &'s IndexMoves<'a>,
        indexer: &'a Indexer,
        goal: &Board,
        range: Range<u64>,
    ) -> Owned<'s, 'a> {
        let shape = indexer.shape();
        let (cells, cols) = (shape.cells(), shape.cols());
        let words = (range.end - range.start).div_ceil(64) as usize;
        let blank = goal.blank();
        Owned {
            search,
            per_blank: indexer.per_blank(),
            cells,
            cols,
            words,
            residues: vec![0; cells * 2 * words],
            frontier: vec![0; cells * words],
            root: indexer.rank_unchecked(goal).0,
            root_colour: (blank / cols + blank % cols) % 2,
            range,
        }
    }

    /// A worker's boards as a checkpoint saved them.
    pub(super) fn restore(
        search: &'s IndexMoves<'a>,
        indexer: &'a Indexer,
        goal: &Board,
        range: Range<u64>,
        residues: Vec<u64>,
        frontier: Vec<u64>,
    ) -> Owned<'s, 'a> {
        let mut own = Owned::new(search, indexer, goal, range);
        assert_eq!(
            (residues.len(), frontier.len()),
            (own.residues.len(), own.frontier.len()),
            "a checkpoint is read for the worker's range"
        );
        own.residues = residues;
        own.frontier = frontier;
        own
    }

    /// Claims the goal if this worker owns it: layer 0's count here.
    pub(super) fn root_count(&mut self) -> u64 {
        self.claim_all(0, &[self.root])
    }

    /// Whether a cell's blanks are in layer `depth`'s colour.
    fn in_layer(&self, cell: usize, depth: u32) -> bool {
        (cell / self.cols + cell % self.cols) % 2 == self.root_colour ^ (depth as usize % 2)
    }

    /// Claims boards (global indices this worker owns) as layer `depth`;
    /// how many were new.
    pub(super) fn claim_all(&mut self, depth: u32, indices: &[u64]) -> u64 {
        let stored = (depth % 3) as u64 ^ 3;
        let mut found = 0;
        for &index in indices {
            let (cell, h) = ((index / self.per_blank) as usize, index % self.per_blank);
            if self.range.contains(&h) {
                found += self.claim(cell, h - self.range.start, stored) as u64;
            }
        }
        found
    }

    #[inline]
    fn claim(&mut self, cell: usize, j: u64, stored: u64) -> bool {
        let word = &mut self.residues[cell * 2 * self.words + (j / 32) as usize];
        let shift = 2 * (j % 32);
        if (*word >> shift) & 3 != 0 {
            return false;
        }
        *word |= stored << shift;
        self.frontier[cell * self.words + (j / 64) as usize] |= 1 << (j % 64);
        true
    }

    /// The first [`MAX_HARDEST`] boards of layer `depth` here, in index
    /// order (before it is expanded).
    pub(super) fn first_boards(&self, depth: u32) -> Vec<Index> {
        let mut boards = Vec::new();
        for cell in (0..self.cells).filter(|&c| self.in_layer(c, depth)) {
            for w in 0..self.words {
                let mut bits = self.frontier[cell * self.words + w];
                while bits != 0 {
                    if boards.len() == MAX_HARDEST {
                        return boards;
                    }
                    let h = self.range.start + (w * 64) as u64 + bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    boards.push(Index(cell as u64 * self.per_blank + h));
                }
            }
        }
        boards
    }

    /// The blank cells of layer `depth`'s colour.
    pub(super) fn layer_cells(&self, depth: u32) -> Vec<usize> {
        (0..self.cells)
            .filter(|&c| self.in_layer(c, depth))
            .collect()
    }

    /// Expands the boards of layer `depth` with their blank in `cell`
    /// and their tile orders in frontier words `words`: claims its own new
    /// boards as layer `depth + 1`, and gives the others' (global indices)
    /// to `send`.
    ///
    /// Inline: the worker's loop (`worker.rs`, another codegen unit in
    /// the `ci` profile) takes it in, as it did when both were one module.
    #[inline]
    pub(super) fn expand(
        &mut self,
        depth: u32,
        cell: usize,
        words: Range<usize>,
        odometer: &mut Odometer,
        mut send: impl FnMut(u64),
    ) -> Expanded {
        let stored = ((depth + 1) % 3) as u64 ^ 3;
        let (all, per_blank, lo, hi) =
            (self.words, self.per_blank, self.range.start, self.range.end);
        let search = self.search;
        let mut done = Expanded {
            moves: 0,
            claimed: 0,
        };
        let row_start = cell - cell % self.cols;
        let mut beside = [0usize; 2];
        let mut sides = 0;
        for c in [cell.wrapping_sub(1), cell + 1] {
            if c >= row_start && c < row_start + self.cols {
                beside[sides] = c;
                sides += 1;
            }
        }
        // Per vertical move: its run length, and the run last moved (its
        // first tile order and that one's target).
        let mut runs = [(1u64, u64::MAX, 0u64); 2];
        for (run, v) in runs.iter_mut().zip(search.verticals(cell)) {
            run.0 = search.block(v);
        }
        for w in words {
            let f = std::mem::take(&mut self.frontier[cell * all + w]);
            if f == 0 {
                continue;
            }
            // Horizontal: the same tile orders, 64 at a time.
            for &to in &beside[..sides] {
                done.moves += f.count_ones() as u64;
                let at = to * 2 * all + 2 * w;
                let (low, high) = (self.residues[at], self.residues[at + 1]);
                let open = compact(unreached(low)) | (compact(unreached(high)) << 32);
                let new = f & open;
                self.residues[at] = low | (spread(new & 0xFFFF_FFFF) * stored);
                self.residues[at + 1] = high | (spread(new >> 32) * stored);
                self.frontier[to * all + w] |= new;
                done.claimed += new.count_ones() as u64;
            }
            // Vertical: by rank arithmetic, once a run of tile orders that
            // move together (`IndexMoves::block`), here or sent.
            let mut bits = f;
            while bits != 0 {
                let h = lo + (w * 64) as u64 + bits.trailing_zeros() as u64;
                bits &= bits - 1;
                for (i, v) in search.verticals(cell).enumerate() {
                    done.moves += 1;
                    let (run, start, target) = &mut runs[i];
                    if h < *start || h >= *start + *run {
                        *start = h - h % *run;
                        *target = search.vertical(*start, odometer.at(*start), v);
                    }
                    let to_h = *target + (h - *start);
                    if (lo..hi).contains(&to_h) {
                        done.claimed += self.claim(v.to, to_h - lo, stored) as u64;
                    } else {
                        send(v.to as u64 * per_blank + to_h);
                    }
                }
            }
        }
        done
    }

    /// The entries, as [`Part::entries`](super::Part::entries) lays them
    /// out. The boards' memory goes back to the system as the entries are
    /// made (the last cell first), so the two together are little more than
    /// either.
    pub(super) fn into_entries(mut self) -> Vec<u8> {
        self.frontier = Vec::new();
        let len = (self.range.end - self.range.start) as usize;
        let run = len.div_ceil(4);
        let per_cell = 2 * self.words;
        // Zeroed pages are taken from the system only when written.
        let mut out = vec![0u8; self.cells * run];
        for cell in (0..self.cells).rev() {
            let words = &self.residues[cell * per_cell..(cell + 1) * per_cell];
            let into = &mut out[cell * run..(cell + 1) * run];
            for (bytes, word) in into.chunks_mut(8).zip(words) {
                bytes.copy_from_slice(&(word ^ u64::MAX).to_le_bytes()[..bytes.len()]);
            }
            if !len.is_multiple_of(4) {
                into[run - 1] &= (1u8 << (2 * (len % 4))) - 1;
            }
            self.residues.truncate(cell * per_cell);
            self.residues.shrink_to_fit();
        }
        out
    }
}
