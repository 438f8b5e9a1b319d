//! The two-bit search: a generator whose memory is the finished table
//! itself plus one bit a board, the search that builds tables past 12
//! cells (2×7: 43.6 G boards) and, through [`build_file`](super::build_file),
//! resumably.
//!
//! # Memory
//!
//! Resident per board: 2 bits of distance and 1 bit of frontier; for
//! 2×7, 10.9 GB + 5.4 GB = 16.3 GB, and nothing per state beyond that.
//!
//! - The distances are kept where the table's body keeps them (index
//!   `blank × per_blank + h`, 2 bits an entry), but as `residue ^ 3`, so a
//!   zeroed page is "not reached yet" and the 10.9 GB need no first pass
//!   to fill them; the body is written out with the bits flipped back.
//! - The frontier is one bitset per blank cell (`per_blank` bits, 389 MB
//!   on 2×7). The graph is bipartite: layer d has every blank on one
//!   colour of the checkerboard and layer d + 1 on the other, so each
//!   cell's bitset serves every other layer (expanded as layer d, cleared,
//!   then filled again as layer d + 2).
//!
//! Both live in anonymous memory maps, with transparent huge pages asked
//! for: a board's vertical neighbour lies anywhere in the 10.9 GB, and
//! 4 KiB pages would make most of those visits a TLB miss as well.
//!
//! # A layer
//!
//! Expanding layer d is two passes, each parallel:
//!
//! 1. Horizontal moves keep the tile order `h`: a target cell's new
//!    boards are its neighbours' frontier words, masked by its own
//!    entries not yet reached, 64 boards at a time (word operations; each
//!    target word is written by one task, so no atomics are needed).
//! 2. Vertical moves change `h` by a rotation of a row's tiles. The pass
//!    walks the frontier's tile orders in increasing order, carries their
//!    Lehmer digits along as an odometer (the generator's incremental
//!    rank arithmetic without its 8-byte table of digits per tile order),
//!    and claims each target with an atomic `fetch_or` (the first claimer
//!    counts it). Targets are computed a batch at a time and prefetched
//!    before any is claimed, so a core waits for many cache misses at
//!    once instead of one after another.
//!
//! The table it builds is byte for byte the one [`generate`](super::generate())
//! builds: an entry is written once, by the layer that first reaches it.

use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use memmap2::MmapMut;
use rayon::prelude::*;

use crate::board::{Adjacency, Board, Move};
use crate::rank::{Index, Indexer};
use crate::symmetry::GoalClass;

use super::generate::Search;
use super::{GenerateError, Layer, MAX_HARDEST, MAX_IN_MEMORY_CELLS, Table, assemble};

/// Frontier words a rayon task takes at a time.
const CHUNK: usize = 1 << 10;

/// Vertical targets computed and prefetched before any is claimed.
const BATCH: usize = 32;

/// Builds the full distance table for `goal` by the two-bit search, in
/// memory, calling `on_layer` after each layer: the same table as
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
    if shape.cells() > MAX_IN_MEMORY_CELLS {
        return Err(GenerateError::TooLarge {
            shape,
            states: shape.states(),
        });
    }
    let class = GoalClass::of(goal);
    let indexer = Indexer::new(class.canonical());
    let mut search = TwoBit::new(&indexer, class.canonical())?;
    on_layer(&search.last_layer());
    while search.expand() {
        on_layer(&search.last_layer());
    }
    let mut body = Vec::with_capacity(search.body_len() as usize);
    search
        .write_body(&mut body)
        .expect("writing to a Vec cannot fail");
    Ok(assemble(
        &class,
        search.layers().to_vec(),
        &search.hardest(),
        &body,
    ))
}

/// The bytes the two-bit search keeps resident for a table of `states`
/// boards over `cells` blank cells: the distances (2 bits a board, in
/// whole words) and one frontier bitset per cell (1 bit a board).
pub(crate) fn resident_bytes(cells: usize, per_blank: u64) -> (u64, u64) {
    let states = cells as u64 * per_blank;
    let residues = states.div_ceil(32) * 8;
    let frontier = cells as u64 * per_blank.div_ceil(64) * 8;
    (residues, frontier)
}

/// Zeroed anonymous memory seen as 64-bit atomic words.
pub(crate) struct Words {
    map: MmapMut,
    len: usize,
}

impl Words {
    /// `len` zeroed words, backed by huge pages where the kernel gives them.
    pub(crate) fn zeroed(len: usize) -> io::Result<Words> {
        let bytes = len
            .max(1)
            .checked_mul(8)
            .ok_or(io::ErrorKind::OutOfMemory)?;
        let map = MmapMut::map_anon(bytes)?;
        #[cfg(target_os = "linux")]
        {
            // Only a hint: without huge pages the search is slower, not wrong.
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        Ok(Words { map, len })
    }

    /// The words, for concurrent use.
    #[inline]
    pub(crate) fn atomics(&self) -> &[AtomicU64] {
        // SAFETY: the map is page-aligned, at least `len * 8` bytes long
        // and lives as long as `self`; `AtomicU64` has the size and
        // alignment of `u64`, and every bit pattern is a valid value. The
        // only other view, `bytes_mut`, needs `&mut self`, so the two
        // never overlap in time.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<AtomicU64>(), self.len) }
    }

    /// The words' bytes (little-endian words on every machine this
    /// compiles for: see [`TwoBit::write_body`]).
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.map[..self.len * 8]
    }

    /// The words' bytes, to fill them.
    pub(crate) fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.map[..self.len * 8]
    }
}

/// The state of a two-bit search between layers.
pub(crate) struct TwoBit<'a> {
    search: Search<'a>,
    indexer: &'a Indexer,
    adjacency: Adjacency,
    /// `residue ^ 3` per board, 32 a word; 0 = not reached.
    residues: Words,
    /// One bitset per blank cell, `words` words each.
    frontier: Words,
    words: usize,
    per_blank: u64,
    cells: usize,
    cols: usize,
    /// The colour of the goal's blank cell: layer d's blanks have colour
    /// `root_colour ^ (d % 2)`.
    root_colour: usize,
    layers: Vec<u64>,
    start: Instant,
}

impl<'a> TwoBit<'a> {
    /// A search toward `goal` (the goal `indexer` was made for), with
    /// layer 0 (the goal) done.
    pub(crate) fn new(indexer: &'a Indexer, goal: &Board) -> Result<TwoBit<'a>, GenerateError> {
        let mut search = TwoBit::empty(indexer, goal)?;
        let root = indexer.rank_unchecked(goal).0;
        let (cell, h) = ((root / search.per_blank) as usize, root % search.per_blank);
        search.residues.atomics()[(root / 32) as usize].store(3 << (2 * (root % 32)), Relaxed);
        search.frontier.atomics()[cell * search.words + (h / 64) as usize]
            .store(1 << (h % 64), Relaxed);
        search.layers.push(1);
        Ok(search)
    }

    /// A search with nothing reached, to be filled by
    /// [`TwoBit::restore`].
    fn empty(indexer: &'a Indexer, goal: &Board) -> Result<TwoBit<'a>, GenerateError> {
        let shape = indexer.shape();
        let (cells, per_blank) = (shape.cells(), indexer.per_blank());
        let (residue_bytes, frontier_bytes) = resident_bytes(cells, per_blank);
        let memory = |e: io::Error| GenerateError::Memory {
            bytes: residue_bytes + frontier_bytes,
            why: e.to_string(),
        };
        let words = per_blank.div_ceil(64) as usize;
        let root_cell = goal.blank();
        Ok(TwoBit {
            search: Search::new(indexer, false),
            indexer,
            adjacency: Adjacency::new(shape),
            residues: Words::zeroed((residue_bytes / 8) as usize).map_err(memory)?,
            frontier: Words::zeroed((frontier_bytes / 8) as usize).map_err(memory)?,
            words,
            per_blank,
            cells,
            cols: shape.cols(),
            root_colour: (root_cell / shape.cols() + root_cell % shape.cols()) % 2,
            layers: Vec::new(),
            start: Instant::now(),
        })
    }

    /// A cell's colour on the checkerboard.
    #[inline]
    fn colour(&self, cell: usize) -> usize {
        (cell / self.cols + cell % self.cols) % 2
    }

    /// The cells whose blank layer `depth`'s boards have.
    fn cells_of_layer(&self, depth: u32) -> Vec<usize> {
        let want = self.root_colour ^ (depth as usize % 2);
        (0..self.cells)
            .filter(|&c| self.colour(c) == want)
            .collect()
    }

    /// The layer counts so far.
    pub(crate) fn layers(&self) -> &[u64] {
        &self.layers
    }

    /// The deepest layer done.
    pub(crate) fn depth(&self) -> u32 {
        self.layers.len() as u32 - 1
    }

    /// The deepest layer done, as an event.
    pub(crate) fn last_layer(&self) -> Layer {
        Layer {
            depth: self.depth(),
            states: *self.layers.last().expect("layer 0 is always done"),
            total: self.layers.iter().sum(),
            elapsed: self.start.elapsed(),
        }
    }

    /// The frontier bitset of `cell`.
    fn bitset(&self, cell: usize) -> &[AtomicU64] {
        &self.frontier.atomics()[cell * self.words..(cell + 1) * self.words]
    }

    /// Expands the deepest layer: whether it reached any new board (if
    /// not, the search is over and nothing changed).
    pub(crate) fn expand(&mut self) -> bool {
        let depth = self.depth();
        let sources = self.cells_of_layer(depth);
        let targets = self.cells_of_layer(depth + 1);
        // The targets' bitsets held layer depth − 1.
        for &cell in &targets {
            self.bitset(cell)
                .par_iter()
                .with_min_len(1 << 12)
                .for_each(|w| w.store(0, Relaxed));
        }
        // Stored as residue ^ 3.
        let stored = 3 ^ ((depth + 1) % 3) as u64;
        let found =
            self.expand_horizontal(&targets, stored) + self.expand_vertical(&sources, stored);
        if found == 0 {
            // The next layer's bitsets are empty: the layer stays whole.
            return false;
        }
        self.layers.push(found);
        true
    }

    /// Pass 1: the boards a horizontal move reaches, a word of 64 tile
    /// orders at a time per target cell.
    fn expand_horizontal(&self, targets: &[usize], stored: u64) -> u64 {
        let words = self.words;
        let chunks = words.div_ceil(CHUNK);
        let residues = self.residues.atomics();
        // Whole words of entries per cell: a cell's 64 tile orders are two
        // residue words.
        let aligned = self.per_blank.is_multiple_of(64);
        (0..targets.len() * chunks)
            .into_par_iter()
            .map(|task| {
                let target = targets[task / chunks];
                let first = (task % chunks) * CHUNK;
                let sources: Vec<&[AtomicU64]> = self
                    .adjacency
                    .from(target)
                    .iter()
                    .filter(|(mv, _)| matches!(mv, Move::Left | Move::Right))
                    .map(|&(_, from)| self.bitset(from as usize))
                    .collect();
                let into = self.bitset(target);
                let base = target as u64 * self.per_blank;
                let mut found = 0;
                for w in first..(first + CHUNK).min(words) {
                    let arriving = sources.iter().fold(0, |acc, s| acc | s[w].load(Relaxed));
                    if arriving == 0 {
                        continue;
                    }
                    if !aligned {
                        let mut bits = arriving;
                        while bits != 0 {
                            let h = (w * 64) as u64 + bits.trailing_zeros() as u64;
                            bits &= bits - 1;
                            if claim(residues, base + h, stored) {
                                found += 1;
                                into[w].fetch_or(1 << (h % 64), Relaxed);
                            }
                        }
                        continue;
                    }
                    let at = ((base + (w * 64) as u64) / 32) as usize;
                    let (low, high) = (residues[at].load(Relaxed), residues[at + 1].load(Relaxed));
                    let open = compact(unreached(low)) | compact(unreached(high)) << 32;
                    let new = arriving & open;
                    if new == 0 {
                        continue;
                    }
                    // This task alone writes these words in this pass.
                    residues[at].store(low | (spread(new & 0xFFFF_FFFF) * stored), Relaxed);
                    residues[at + 1].store(high | (spread(new >> 32) * stored), Relaxed);
                    into[w].store(new, Relaxed);
                    found += new.count_ones() as u64;
                }
                found
            })
            .sum()
    }

    /// Pass 2: the boards a vertical move reaches.
    fn expand_vertical(&self, sources: &[usize], stored: u64) -> u64 {
        let words = self.words;
        let residues = self.residues.atomics();
        let frontier = self.frontier.atomics();
        let search = &self.search;
        let per_blank = self.per_blank;
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
                // The odometer: the digits of tile order `at`.
                let mut at = u64::MAX;
                let mut digits = 0;
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
                        let with_parity = search.with_parity(digits);
                        for (i, &cell) in sources.iter().enumerate() {
                            if here[i] >> bit & 1 == 0 {
                                continue;
                            }
                            for v in search.verticals(cell) {
                                let to =
                                    v.to as u64 * per_blank + search.vertical(h, with_parity, v);
                                prefetch(&residues[(to / 32) as usize]);
                                batch.push(to);
                                if batch.len == BATCH {
                                    found += self.claim_all(&mut batch, stored);
                                }
                            }
                        }
                    }
                }
                found + self.claim_all(&mut batch, stored)
            })
            .sum()
    }

    /// Claims a batch of vertical targets (already prefetched), setting
    /// the frontier bits of those this thread reached first.
    #[inline]
    fn claim_all(&self, batch: &mut Batch, stored: u64) -> u64 {
        let residues = self.residues.atomics();
        let frontier = self.frontier.atomics();
        let mut found = 0;
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
            found += 1;
        }
        batch.len = 0;
        found
    }

    /// The first [`MAX_HARDEST`] boards of the deepest layer, in index
    /// order (as [`generate`](super::generate()) lists them).
    pub(crate) fn hardest(&self) -> Vec<Board> {
        let mut hardest = Vec::new();
        for cell in self.cells_of_layer(self.depth()) {
            for (w, word) in self.bitset(cell).iter().enumerate() {
                let mut bits = word.load(Relaxed);
                while bits != 0 {
                    if hardest.len() == MAX_HARDEST {
                        return hardest;
                    }
                    let h = (w * 64) as u64 + bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    let index = Index(cell as u64 * self.per_blank + h);
                    hardest.push(
                        self.indexer
                            .unrank(index)
                            .expect("a frontier bit is a board"),
                    );
                }
            }
        }
        hardest
    }

    /// The table's body length: 2 bits a board.
    pub(crate) fn body_len(&self) -> u64 {
        self.indexer.len().div_ceil(4)
    }

    /// Writes the table's body (entries `residue`, `3` for no board), in
    /// pieces of a few MB.
    pub(crate) fn write_body(&self, out: &mut impl Write) -> io::Result<()> {
        const PIECE: usize = 1 << 22;
        let mut left = self.body_len() as usize;
        let mut piece = vec![0u8; PIECE];
        for words in self.residues.bytes().chunks(PIECE) {
            let n = words.len().min(left);
            for (to, from) in piece[..n].iter_mut().zip(words) {
                *to = from ^ 0xFF;
            }
            out.write_all(&piece[..n])?;
            left -= n;
            if left == 0 {
                break;
            }
        }
        Ok(())
    }

    /// The pieces a checkpoint holds: the distances, and the bitsets of
    /// the deepest layer's cells, in cell order.
    pub(crate) fn checkpoint_pieces(&self) -> Vec<&[u8]> {
        let mut pieces = vec![self.residues.bytes()];
        let bytes = self.frontier.bytes();
        let len = self.words * 8;
        for cell in self.cells_of_layer(self.depth()) {
            pieces.push(&bytes[cell * len..(cell + 1) * len]);
        }
        pieces
    }

    /// The total length of [`TwoBit::checkpoint_pieces`] at layer `depth`
    /// of a search of `indexer` (each colour has its own count of cells)
    /// toward `goal`).
    pub(crate) fn checkpoint_len(indexer: &Indexer, goal: &Board, depth: u32) -> u64 {
        let shape = indexer.shape();
        let (residues, frontier) = resident_bytes(shape.cells(), indexer.per_blank());
        let per_cell = frontier / shape.cells() as u64;
        let root = goal.blank() as u64;
        let colour = |c: u64| (c as usize / shape.cols() + c as usize % shape.cols()) % 2;
        let want = colour(root) ^ (depth as usize % 2);
        let cells = (0..shape.cells() as u64)
            .filter(|&c| colour(c) == want)
            .count() as u64;
        residues + cells * per_cell
    }

    /// A search at layer `layers.len() − 1`, its pieces read by `fill`
    /// (in the order of [`TwoBit::checkpoint_pieces`]).
    pub(crate) fn restore(
        indexer: &'a Indexer,
        goal: &Board,
        layers: Vec<u64>,
        fill: impl FnOnce(Vec<&mut [u8]>) -> io::Result<()>,
    ) -> Result<io::Result<TwoBit<'a>>, GenerateError> {
        let mut search = TwoBit::empty(indexer, goal)?;
        search.layers = layers;
        let cells = search.cells_of_layer(search.depth());
        let len = search.words * 8;
        let mut pieces: Vec<&mut [u8]> = vec![search.residues.bytes_mut()];
        let mut rest = search.frontier.bytes_mut();
        let mut next = 0;
        for cell in cells {
            let (_, tail) = rest.split_at_mut((cell - next) * len);
            let (piece, tail) = tail.split_at_mut(len);
            pieces.push(piece);
            rest = tail;
            next = cell + 1;
        }
        Ok(fill(pieces).map(|()| search))
    }
}

/// A run of vertical targets, as indexes.
struct Batch {
    targets: [u64; BATCH],
    len: usize,
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
    fn push(&mut self, to: u64) {
        self.targets[self.len] = to;
        self.len += 1;
    }
}

/// Asks the cache for the line of `word`, which is about to be written.
#[inline(always)]
fn prefetch(word: &AtomicU64) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and cannot fault; the pointer is
    // valid anyway.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (word as *const AtomicU64).cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = word;
}

/// Bit 2j set where entry j of a word of entries is 0 (not reached).
#[inline]
fn unreached(word: u64) -> u64 {
    !(word | word >> 1) & 0x5555_5555_5555_5555
}

/// The even bits of `x`, packed into the low 32.
#[inline]
fn compact(mut x: u64) -> u64 {
    x &= 0x5555_5555_5555_5555;
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF;
    x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
    (x | x >> 16) & 0x0000_0000_FFFF_FFFF
}

/// The low 32 bits of `x`, spread to the even bits.
#[inline]
fn spread(mut x: u64) -> u64 {
    x &= 0xFFFF_FFFF;
    x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
    x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
    x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    (x | x << 1) & 0x5555_5555_5555_5555
}

/// Sets entry `index` to `stored` (a residue ^ 3, never 0) if it still
/// reads 0 (not reached); whether this call did (the first of racing
/// threads).
#[inline]
fn claim(residues: &[AtomicU64], index: u64, stored: u64) -> bool {
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
    use super::*;

    #[test]
    fn compact_and_spread_are_inverse() {
        let x = 0x1234_5678_9ABC_DEF0u64 & 0xFFFF_FFFF;
        assert_eq!(compact(spread(x)), x);
        assert_eq!(spread(0b101), 0b1_0001);
        // Entries 0 and 2 of 0b11_00_01_00 are 0.
        assert_eq!(compact(unreached(0b1100_0100)) & 0xF, 0b0101);
    }
}
