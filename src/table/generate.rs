//! The generator: one reverse breadth-first search from the goal over every
//! reachable board, in parallel layers.
//!
//! Boards are grouped by their tile order. The index of a board is
//! `blank × (m!/2) + h`, where `h` is the (halved) rank of the tile order,
//! so the boards that share `h` differ only in the blank's cell, and one
//! 16-bit mask per `h` holds a set of them: bit `b` for the blank in cell
//! `b`. A move of the blank along its row keeps the tile order, so all the
//! horizontal moves of a frontier mask are two shifts; only a vertical move
//! changes the tile order (a rotation of `cols` tiles). Its new rank comes
//! from the old one by updating the Lehmer digits of the rotated window
//! only: a lookup in a small table per window position (or, for the widest
//! windows, a few multiplies), from digits precomputed per `h`.
//!
//! The masks are kept four `h` to a 64-bit word. The graph is bipartite, so
//! a neighbour of layer d lies in layer d − 1 or d + 1, and three residue
//! planes (distance mod 3) tell which. Each layer is one parallel pass
//! (rayon) with no lock per state: every word's owner completes its
//! frontier with the horizontal moves (plain stores), records its residue,
//! and sets the vertical neighbours in the next frontier with an atomic
//! `fetch_or` (setting a bit twice is harmless, so threads never need to
//! agree who got there first). Small tables (up to 2×5) instead give every
//! thread its own buffer of arrivals, written with plain stores and no test,
//! and each word's owner merges the buffers at the start of the next pass
//! (see `Arrivals`): no locked instruction and no unpredictable branch per
//! move.
//!
//! At the end the planes are laid out as the table's 2-bit entries.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::board::{Board, MAX_CELLS, Shape};
use crate::rank::{Index, Indexer};
use crate::symmetry::GoalClass;

use super::{MAX_HARDEST, MAX_IN_MEMORY_CELLS, MAX_TABLE_CELLS, Table, assemble};

/// Why a table could not be generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The board is too big for a full table built in memory.
    #[error(
        "a full table of {shape} would hold {states} states; full tables are built in memory up to {MAX_IN_MEMORY_CELLS} cells, and to a file (table::build_file, slidedb-gen) up to {MAX_TABLE_CELLS}"
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

/// Builds the full distance table for `goal` by reverse BFS, calling
/// `on_layer` after each layer. Runs on the current rayon pool (wrap it in
/// `ThreadPool::install` to choose the threads).
///
/// The table answers toward `goal`; its body is laid out by the canonical
/// goal of `goal`'s class (the search runs from there), so it also serves
/// every other goal of the class ([`Table::solve_toward_into`]).
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
    on_layer: impl FnMut(&Layer),
) -> Result<Table<Vec<u8>>, GenerateError> {
    let class = GoalClass::of(goal);
    let done = search(&class, on_layer, |_| ControlFlow::Continue(()))?;
    let (layers, hardest, body) = done.expect("the search ran to the end");
    Ok(assemble(&class, layers, &hardest, &body))
}

/// The boards of one finished layer of a search, as a sweep shows them.
pub(crate) trait LayerBoards {
    /// The layer's distance from the goal.
    fn depth(&self) -> u32;
    /// How many boards it holds.
    fn states(&self) -> u64;
    /// Calls `f` with the index of every board of the layer (toward the
    /// class's canonical goal), in increasing order, until it breaks.
    fn for_each(&self, f: &mut dyn FnMut(Index) -> ControlFlow<()>) -> ControlFlow<()>;
}

impl LayerBoards for Frontier<'_> {
    fn depth(&self) -> u32 {
        self.depth
    }
    fn states(&self) -> u64 {
        self.states
    }
    fn for_each(&self, f: &mut dyn FnMut(Index) -> ControlFlow<()>) -> ControlFlow<()> {
        Frontier::for_each(self, f)
    }
}

/// One finished layer's boards, as the search holds them (see
/// [`sweep`]).
pub(crate) struct Frontier<'a> {
    search: &'a Search<'a>,
    words: &'a [AtomicU64],
    /// Its distance from the goal.
    pub depth: u32,
    /// How many boards it holds.
    pub states: u64,
}

impl Frontier<'_> {
    /// Calls `f` with the index of every board of the layer (toward the
    /// class's canonical goal), in increasing order, until it breaks.
    pub fn for_each(&self, mut f: impl FnMut(Index) -> ControlFlow<()>) -> ControlFlow<()> {
        let per_blank = self.search.per_blank;
        // One pass finds the words that hold any board of the layer; each
        // blank cell then reads only those (a small layer: a few).
        let occupied: Vec<(usize, u64)> = self
            .words
            .iter()
            .enumerate()
            .map(|(w, word)| (w, word.load(Relaxed)))
            .filter(|&(_, word)| word != 0)
            .collect();
        for cell in 0..self.search.cells {
            let base = (cell * per_blank) as u64;
            for &(w, word) in &occupied {
                for lane_number in 0..LANES {
                    if word >> (16 * lane_number + cell) & 1 != 0 {
                        let h = w * LANES + lane_number;
                        f(Index(base + h as u64))?;
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// Runs the search toward `class`'s canonical goal and shows each layer,
/// when complete, to `visit`, until it breaks. Costs what [`generate`]
/// costs, up to the last layer visited; builds no table.
pub(crate) fn sweep(
    class: &GoalClass,
    visit: impl FnMut(&Frontier) -> ControlFlow<()>,
) -> Result<(), GenerateError> {
    search(class, |_| {}, visit).map(|_| ())
}

/// What a finished search leaves: the layer counts, the first hardest
/// boards, and the table's body.
type Finished = (Vec<u64>, Vec<Board>, Vec<u8>);

/// The search itself: `None` when `visit` stopped it.
fn search(
    class: &GoalClass,
    mut on_layer: impl FnMut(&Layer),
    mut visit: impl FnMut(&Frontier) -> ControlFlow<()>,
) -> Result<Option<Finished>, GenerateError> {
    let shape = class.goal().shape();
    if shape.cells() > MAX_IN_MEMORY_CELLS {
        return Err(GenerateError::TooLarge {
            shape,
            states: shape.states(),
        });
    }
    let start = Instant::now();
    let goal = class.canonical();
    let indexer = Indexer::new(goal);
    let search = Search::new(&indexer, true);
    let per_blank = search.per_blank;
    // Four tile orders to a word: the mask of `h` in bits 16 (h % 4) ...
    let words = per_blank.div_ceil(LANES);
    // reached[r]: the boards found at a distance ≡ r (mod 3).
    let mut reached: [Vec<u64>; 3] = std::array::from_fn(|_| vec![0u64; words]);
    // frontier[d % 3]: the boards at distance d (see `Search::pass`).
    let frontier: [Vec<AtomicU64>; 3] =
        std::array::from_fn(|_| (0..words).map(|_| AtomicU64::new(0)).collect());

    // Small tables: one arrival buffer per thread (see `Arrivals`).
    let arrivals = (words <= MAX_BUFFERED_WORDS).then(|| Arrivals::new(words));

    let root = indexer.rank_unchecked(goal).0 as usize;
    let (root_blank, root_h) = (root / per_blank, root % per_blank);
    let root_bit = 1 << (lane(root_h) + root_blank);
    match &arrivals {
        Some(arrivals) => arrivals.seed(root_h / LANES, root_bit),
        None => frontier[0][root_h / LANES].store(root_bit, Relaxed),
    }
    let mut layers: Vec<u64> = Vec::new();
    let mut total = 0u64;
    let mut depth = 0;
    loop {
        let parallel = layers.last().is_some_and(|&n| n >= PARALLEL_LAYER);
        let (own, prev, older) = split_reached(&mut reached, depth % 3);
        let step = Step {
            prev: &frontier[(depth + 2) % 3],
            cur: &frontier[depth % 3],
            next: &frontier[(depth + 1) % 3],
            reached_prev: prev,
            reached_older: older,
            arrivals: arrivals.as_ref(),
            parity: depth % 2,
        };
        let pass = |(c, own): (usize, &mut [u64])| search.pass(c * CHUNK, own, &step);
        let join = |a: (u64, bool), b: (u64, bool)| (a.0 + b.0, a.1 | b.1);
        let (states, more) = if parallel {
            own.par_chunks_mut(CHUNK)
                .enumerate()
                .map(pass)
                .reduce(|| (0, false), join)
        } else {
            own.chunks_mut(CHUNK)
                .enumerate()
                .map(pass)
                .fold((0, false), join)
        };
        if let Some(arrivals) = &arrivals {
            arrivals.clean(depth % 2);
        }
        if states == 0 {
            // (Buffered passes only: they cannot tell that a layer has no
            // successor before they look.)
            depth -= 1;
            break; // `frontier[depth % 3]` holds the last layer
        }
        total += states;
        layers.push(states);
        on_layer(&Layer {
            depth: depth as u32,
            states,
            total,
            elapsed: start.elapsed(),
        });
        let shown = Frontier {
            search: &search,
            words: &frontier[depth % 3],
            depth: depth as u32,
            states,
        };
        if visit(&shown).is_break() {
            return Ok(None);
        }
        if !more {
            break; // `frontier[depth % 3]` holds the last layer
        }
        depth += 1;
    }
    debug_assert_eq!(total, indexer.len());
    let hardest = search.boards(&frontier[depth % 3]);
    let body = search.body(&reached[1], &reached[2]);
    // Free the search (most of its memory) before the file's bytes are
    // laid out, so the two are never held at once.
    drop((frontier, reached, search));
    Ok(Some((layers, hardest, body)))
}

/// Layers smaller than this are expanded on one thread.
const PARALLEL_LAYER: u64 = 2048;
/// Words (of four tile orders) a rayon task takes at a time.
const CHUNK: usize = 256;
/// Tile orders to a word of masks.
const LANES: usize = 4;
/// Each lane's bit 0.
const LANE_ONES: u64 = 0x0001_0001_0001_0001;

/// Where the mask of `h` sits in its word.
#[inline]
fn lane(h: usize) -> usize {
    16 * (h % LANES)
}

/// `reached[i]` to write, and the two others to read: the previous layer's
/// residue (`i − 1`) and the one before it (`i − 2`).
fn split_reached(reached: &mut [Vec<u64>; 3], i: usize) -> (&mut [u64], &[u64], &[u64]) {
    let [a, b, c] = reached;
    match i {
        0 => (a, c, b),
        1 => (b, a, c),
        _ => (c, b, a),
    }
}

/// What one pass (the expansion of layer `d`) reads and writes besides the
/// residue plane it owns.
struct Step<'a> {
    /// Layer d − 1, complete; cleared as it is read.
    prev: &'a [AtomicU64],
    /// Layer d: its vertical arrivals, completed by the pass.
    cur: &'a [AtomicU64],
    /// Layer d + 1: the vertical arrivals, set by any thread.
    next: &'a [AtomicU64],
    /// The boards at distances ≡ d − 1 (mod 3).
    reached_prev: &'a [u64],
    /// The boards at distances ≡ d − 2 (mod 3).
    reached_older: &'a [u64],
    /// Small tables: the vertical arrivals go to per-thread buffers
    /// instead of `next`.
    arrivals: Option<&'a Arrivals>,
    /// d mod 2: which half of `arrivals` holds layer d's arrivals.
    parity: usize,
}

/// Tables of at most this many words collect their vertical arrivals in
/// per-thread buffers (3×3: 5,040 words; 2×5: 45,360); larger ones (3×4,
/// 2×6: 5 M words) share `next`, which costs no memory per thread.
const MAX_BUFFERED_WORDS: usize = 1 << 16;

/// Per-thread arrival buffers, two sets by layer parity: the expansion of
/// layer d − 1 writes every vertical neighbour into its thread's buffer of
/// parity d % 2, with plain (relaxed) loads and stores since no other
/// thread writes there, and no test: the owner of a word ORs the buffers
/// together at the start of pass d (clearing them), and drops the boards of
/// layer d − 2 then, in order, instead of at each move. Each buffer's
/// `dirty` bits (a region of words each) let the merge skip the regions it
/// never touched.
struct Arrivals {
    /// One per pool thread, and one for a caller outside the pool.
    buffers: usize,
    /// Words from one buffer to the next (the words, and a gap).
    stride: usize,
    /// A dirty bit covers the words `w` with the same `w >> shift`: at
    /// least a chunk, at most 64 regions.
    shift: u32,
    /// `[parity][buffer][word]`.
    masks: Vec<AtomicU64>,
    /// `[parity][buffer]`, `GAP / 8` words apart.
    dirty: Vec<AtomicU64>,
}

/// Bytes between two threads' buffers, so that no cache line holds two.
const GAP: usize = 128;

impl Arrivals {
    fn new(words: usize) -> Arrivals {
        let buffers = rayon::current_num_threads() + 1;
        let stride = words + GAP / 8;
        let mut shift = CHUNK.trailing_zeros();
        while words.div_ceil(1 << shift) > 64 {
            shift += 1;
        }
        Arrivals {
            buffers,
            stride,
            shift,
            masks: (0..2 * buffers * stride)
                .map(|_| AtomicU64::new(0))
                .collect(),
            dirty: (0..2 * buffers * GAP / 8)
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }

    fn buffer(&self, parity: usize, b: usize) -> (&[AtomicU64], &AtomicU64) {
        let i = parity * self.buffers + b;
        (
            &self.masks[i * self.stride..][..self.stride],
            &self.dirty[i * GAP / 8],
        )
    }

    /// Puts the root (board `bit` of word `w`) in layer 0.
    fn seed(&self, w: usize, bit: u64) {
        let (masks, dirty) = self.buffer(0, 0);
        masks[w].store(bit, Relaxed);
        dirty.store(1 << (w >> self.shift), Relaxed);
    }

    /// The calling thread's buffer of `parity`.
    fn mine(&self, parity: usize) -> Buffered<'_> {
        let outside = self.buffers - 1;
        let b = rayon::current_thread_index().map_or(outside, |i| {
            assert!(i < outside, "a thread of another pool");
            i
        });
        let (masks, dirty) = self.buffer(parity, b);
        Buffered {
            masks,
            dirty,
            shift: self.shift,
            marks: 0,
        }
    }

    /// ORs the arrivals of `parity` at the words from `first` on into
    /// `into`, and clears them.
    fn gather(&self, parity: usize, first: usize, into: &mut [u64]) {
        for b in 0..self.buffers {
            let (masks, dirty) = self.buffer(parity, b);
            if dirty.load(Relaxed) >> (first >> self.shift) & 1 == 0 {
                continue;
            }
            for (v, m) in into.iter_mut().zip(&masks[first..]) {
                *v |= m.load(Relaxed);
                m.store(0, Relaxed);
            }
        }
    }

    /// Forgets the dirty regions of `parity`, all merged.
    fn clean(&self, parity: usize) {
        for b in 0..self.buffers {
            self.buffer(parity, b).1.store(0, Relaxed);
        }
    }
}

/// One thread's arrival buffer, while it expands a chunk.
struct Buffered<'a> {
    masks: &'a [AtomicU64],
    dirty: &'a AtomicU64,
    shift: u32,
    /// The regions written, added to `dirty` when done.
    marks: u64,
}

impl Drop for Buffered<'_> {
    fn drop(&mut self) {
        self.dirty
            .store(self.dirty.load(Relaxed) | self.marks, Relaxed);
    }
}

/// The most tiles a vertical move rotates: a row of 7 (2×7), and the
/// blank.
const MAX_WINDOW: usize = 7;

/// The change of the halved rank when a window of `K + 1` tiles rotates,
/// as a linear form in the window's Lehmer digits and its tile comparisons.
#[derive(Clone, Copy, Default)]
struct Rotation {
    /// Per digit of the window.
    digit: [u64; MAX_WINDOW],
    /// Per comparison.
    compare: [u64; MAX_WINDOW],
    /// The constant term.
    constant: u64,
}

/// A vertical move of the blank from one cell: where it lands and how to
/// find the new `h`.
#[derive(Clone, Copy, Default)]
pub(super) struct Vertical {
    /// The blank's new cell.
    pub(super) to: usize,
    /// Where the rotated window starts in the tile order.
    p: usize,
    /// Where its digits start: `width × p`.
    shift: u32,
    /// Xored into the stored digits: digit m − 2 is 1 for the boards here
    /// whose last two tiles descend, which is when the stored order's
    /// parity (kept in that digit) is not the one this cell wants.
    want: u64,
    /// Up (the window's first tile moves last) or down.
    up: bool,
    /// Where the window's table of rank changes starts in `Search::deltas`.
    table: usize,
}

/// The most entries of one window's table of rank changes; larger windows
/// (2×5, 2×6, 3×4) compute the change instead.
const MAX_TABLE: usize = 4096;

/// What the passes share: the shape's constants and every tile order.
pub(super) struct Search<'a> {
    indexer: &'a Indexer,
    per_blank: usize,
    cells: usize,
    cols: usize,
    /// The Lehmer digits of each `h` (its tile order with the last two
    /// tiles ascending; [`Indexer::lehmer_digits`]), `width` bits each,
    /// with that order's parity in place of digit m − 2 (always 0).
    digits: Vec<u64>,
    /// Bits a digit: 3 up to 8 tiles, else 4.
    width: u32,
    /// The digits of a window (`cols` digits).
    window: u64,
    /// Cells the blank can leave by moving left, right, up, down, in every
    /// lane.
    can_left: u64,
    can_right: u64,
    can_up: u64,
    can_down: u64,
    /// The vertical moves from each cell.
    up: [Vertical; MAX_CELLS],
    down: [Vertical; MAX_CELLS],
    /// Rank changes of moving the blank up, per window start `p`, then down.
    rotate_up: [Rotation; MAX_CELLS],
    rotate_down: [Rotation; MAX_CELLS],
    /// Per window, the rank change for every value of its digits, when the
    /// windows are small enough (empty if not).
    deltas: Vec<i32>,
}

/// Tile orders a task of the digit precompute takes at a time.
const DIGIT_CHUNK: usize = 4096;

impl<'a> Search<'a> {
    /// The shape's constants, and the digits of every tile order (8
    /// bytes each) when `with_digits`; without them, [`Search::digits_at`]
    /// and [`Search::advance`] produce them as a walk goes.
    pub(super) fn new(indexer: &'a Indexer, with_digits: bool) -> Search<'a> {
        let shape = indexer.shape();
        let (cells, cols) = (shape.cells(), shape.cols());
        let m = cells - 1;
        let per_blank = indexer.per_blank() as usize;
        let width: u32 = if m <= 8 { 3 } else { 4 };
        let field = (1u64 << width) - 1;
        let at = |i: usize| width as usize * i;
        // Digit i < m − 2 has radix m − i: counting h up is an odometer.
        let odd_digits: u64 = (0..m - 2).fold(0, |acc, i| acc | 1 << at(i));
        let mut digits = vec![0u64; if with_digits { per_blank } else { 0 }];
        digits
            .par_chunks_mut(DIGIT_CHUNK)
            .enumerate()
            .for_each(|(c, chunk)| {
                let nibbles = indexer.lehmer_digits((c * DIGIT_CHUNK) as u64);
                let mut d =
                    (0..m - 2).fold(0, |acc, i| acc | ((nibbles >> (4 * i)) & 0xF) << at(i));
                for slot in chunk {
                    *slot = d | ((d & odd_digits).count_ones() as u64 & 1) << at(m - 2);
                    let mut i = m - 3;
                    loop {
                        if ((d >> at(i)) & field) + 1 < (m - i) as u64 {
                            d += 1 << at(i);
                            break;
                        }
                        d &= !(field << at(i));
                        if i == 0 {
                            break;
                        }
                        i -= 1;
                    }
                }
            });
        let w = indexer.weights();
        let k = cols - 1;
        let mut rotate_up = [Rotation::default(); MAX_CELLS];
        let mut rotate_down = [Rotation::default(); MAX_CELLS];
        for p in 0..cells - cols {
            let (u, d) = (&mut rotate_up[p], &mut rotate_down[p]);
            // Up: t = tile p goes to p + k; tiles p + 1 ..= p + k shift
            // back, each gaining 1 if it is larger than t; t keeps its
            // digit less the k − (larger ones) tiles it passed.
            u.digit[0] = w[p + k].wrapping_sub(w[p]);
            for j in 1..=k {
                u.digit[j] = w[p + j - 1].wrapping_sub(w[p + j]);
                u.compare[j] = w[p + j - 1] + w[p + k];
            }
            u.constant = (k as u64 * w[p + k]).wrapping_neg();
            // Down: t = tile p + k goes to p; tiles p .. p + k shift on,
            // each losing 1 unless it is smaller than t; t gains the
            // smaller ones.
            for j in 0..k {
                d.digit[j] = w[p + j + 1].wrapping_sub(w[p + j]);
                d.compare[j] = w[p] + w[p + j + 1];
            }
            d.digit[k] = w[p].wrapping_sub(w[p + k]);
            d.constant = (1..=k).map(|i| w[p + i]).sum::<u64>().wrapping_neg();
        }
        let odd = |c: usize| (indexer.parity_at(c) as u64) << at(m - 2);
        let windows = 1usize << (width as usize * cols);
        // The tables hold the changes as i32: not for 14 cells (7x2), whose
        // tile orders pass 2^31.
        let tabled = windows <= MAX_TABLE && per_blank < 1 << 30;
        let mut up = [Vertical::default(); MAX_CELLS];
        let mut down = [Vertical::default(); MAX_CELLS];
        for p in 0..cells - cols {
            let table = |up: bool| {
                if tabled {
                    (2 * p + up as usize) * windows
                } else {
                    0
                }
            };
            up[p + cols] = Vertical {
                to: p,
                p,
                shift: width * p as u32,
                want: odd(p + cols),
                up: true,
                table: table(true),
            };
            down[p] = Vertical {
                to: p + cols,
                p,
                shift: width * p as u32,
                want: odd(p),
                up: false,
                table: table(false),
            };
        }
        let mask = |keep: &dyn Fn(usize) -> bool| -> u16 {
            (0..cells).filter(|&c| keep(c)).fold(0, |m, c| m | 1 << c)
        };
        let mut search = Search {
            indexer,
            per_blank,
            cells,
            cols,
            digits,
            width,
            window: (1 << (width as usize * cols)) - 1,
            can_left: mask(&|c| c % cols != 0) as u64 * LANE_ONES,
            can_right: mask(&|c| c % cols != cols - 1) as u64 * LANE_ONES,
            can_up: mask(&|c| c >= cols) as u64 * LANE_ONES,
            can_down: mask(&|c| c + cols < cells) as u64 * LANE_ONES,
            up,
            down,
            rotate_up,
            rotate_down,
            deltas: Vec::new(),
        };
        if tabled {
            let mut deltas = vec![0i32; 2 * (cells - cols) * windows];
            for (t, table) in deltas.chunks_mut(windows).enumerate() {
                let (p, up) = (t / 2, t % 2 == 1);
                for (window, delta) in table.iter_mut().enumerate() {
                    *delta = search.compute(window as u64, p, up) as i32;
                }
            }
            search.deltas = deltas;
        }
        search
    }

    /// The cells one move along a row from the cells of `f` (every lane).
    #[inline]
    fn along(&self, f: u64) -> u64 {
        ((f & self.can_left) >> 1) | ((f & self.can_right) << 1)
    }

    /// The change of `h` (wrapping) when a window of digits rotates.
    fn compute(&self, window: u64, p: usize, up: bool) -> u64 {
        match (self.cols, up) {
            (2, true) => self.up_delta::<1>(window, p),
            (3, true) => self.up_delta::<2>(window, p),
            (4, true) => self.up_delta::<3>(window, p),
            (5, true) => self.up_delta::<4>(window, p),
            (6, true) => self.up_delta::<5>(window, p),
            (2, false) => self.down_delta::<1>(window, p),
            (3, false) => self.down_delta::<2>(window, p),
            (4, false) => self.down_delta::<3>(window, p),
            (5, false) => self.down_delta::<4>(window, p),
            (6, false) => self.down_delta::<5>(window, p),
            (c, _) => unreachable!("no table has {c} columns"),
        }
    }

    /// The `h` of the board reached from the boards at `h` by the vertical
    /// move `v`.
    #[inline(always)]
    fn neighbour<const K: usize>(&self, h: usize, v: &Vertical) -> usize {
        self.neighbour_with::<K>(h, self.digits[h], v)
    }

    /// The odometer value of tile order `h`: its Lehmer digits but the last
    /// two, `width` bits each (see [`Search::advance`]).
    pub(super) fn digits_at(&self, h: u64) -> u64 {
        let m = self.cells - 1;
        let nibbles = self.indexer.lehmer_digits(h);
        (0..m - 2).fold(0, |acc, i| {
            acc | ((nibbles >> (4 * i)) & 0xF) << (self.width as usize * i)
        })
    }

    /// The odometer value of the next tile order (`h + 1`).
    #[inline]
    pub(super) fn advance(&self, mut d: u64) -> u64 {
        let m = self.cells - 1;
        let width = self.width as usize;
        let field = (1u64 << width) - 1;
        let mut i = m - 3;
        loop {
            if ((d >> (width * i)) & field) + 1 < (m - i) as u64 {
                return d + (1 << (width * i));
            }
            d &= !(field << (width * i));
            if i == 0 {
                return d;
            }
            i -= 1;
        }
    }

    /// The stored form of an odometer value: the tile order's parity in
    /// place of digit m − 2, as `digits` holds it.
    #[inline]
    pub(super) fn with_parity(&self, d: u64) -> u64 {
        let m = self.cells - 1;
        let width = self.width as usize;
        let odd: u64 = (0..m - 2).fold(0, |acc, i| acc | 1 << (width * i));
        d | ((d & odd).count_ones() as u64 & 1) << (width * (m - 2))
    }

    /// The vertical moves of the blank from `cell`: where it lands, and
    /// the move's rank arithmetic.
    pub(super) fn verticals(&self, cell: usize) -> impl Iterator<Item = &Vertical> {
        let up = (cell >= self.cols).then(|| &self.up[cell]);
        let down = (cell + self.cols < self.cells).then(|| &self.down[cell]);
        up.into_iter().chain(down)
    }

    /// The tile order after vertical move `v` from tile order `h`, whose
    /// stored digits ([`Search::with_parity`]) are `digits`; the blank's
    /// new cell is `v.to`.
    #[inline]
    pub(super) fn vertical(&self, h: u64, digits: u64, v: &Vertical) -> u64 {
        let h = h as usize;
        (match self.cols {
            2 => self.neighbour_with::<1>(h, digits, v),
            3 => self.neighbour_with::<2>(h, digits, v),
            4 => self.neighbour_with::<3>(h, digits, v),
            5 => self.neighbour_with::<4>(h, digits, v),
            6 => self.neighbour_with::<5>(h, digits, v),
            7 => self.neighbour_with::<6>(h, digits, v),
            c => unreachable!("no table has {c} columns"),
        }) as u64
    }

    #[inline]
    fn neighbour_with<const K: usize>(&self, h: usize, digits: u64, v: &Vertical) -> usize {
        let digits = digits ^ v.want;
        let window = (digits >> v.shift) & self.window;
        let delta = if self.deltas.is_empty() {
            if v.up {
                self.up_delta::<K>(window, v.p)
            } else {
                self.down_delta::<K>(window, v.p)
            }
        } else {
            self.deltas[v.table + window as usize] as i64 as u64
        };
        (h as u64).wrapping_add(delta) as usize
    }

    /// The `K + 1` digits of a window.
    #[inline(always)]
    fn split<const K: usize>(&self, window: u64) -> [u64; MAX_WINDOW] {
        let mut d = [0u64; MAX_WINDOW];
        let field = (1 << self.width) - 1;
        for (i, d) in d.iter_mut().enumerate().take(K + 1) {
            *d = (window >> (self.width as usize * i)) & field;
        }
        d
    }

    /// The change of `h` when the blank moves up to cell `p`.
    #[inline(always)]
    fn up_delta<const K: usize>(&self, window: u64, p: usize) -> u64 {
        let d = self.split::<K>(window);
        let r = &self.rotate_up[p];
        let mut delta = r.constant;
        for (&a, &d) in r.digit.iter().zip(&d).take(K + 1) {
            delta = delta.wrapping_add(a.wrapping_mul(d));
        }
        for j in 1..=K {
            // Tile l > tile j (l < j) iff d[l] > d[j] + #{l < i < j: tile
            // i < tile j}; walk l down from j − 1 to count those.
            let mut smaller = 0;
            for l in (1..j).rev() {
                smaller += (d[l] <= d[j] + smaller) as u64;
            }
            let larger = d[0] <= d[j] + smaller; // tile j > tile 0
            delta = delta.wrapping_add(r.compare[j] * larger as u64);
        }
        delta
    }

    /// The change of `h` when the blank moves down from cell `p`.
    #[inline(always)]
    fn down_delta<const K: usize>(&self, window: u64, p: usize) -> u64 {
        let d = self.split::<K>(window);
        let r = &self.rotate_down[p];
        let mut delta = r.constant;
        for (&a, &d) in r.digit.iter().zip(&d).take(K + 1) {
            delta = delta.wrapping_add(a.wrapping_mul(d));
        }
        let mut smaller = 0;
        for j in (0..K).rev() {
            let s = d[j] <= d[K] + smaller; // tile j < tile K
            delta = delta.wrapping_add(r.compare[j] * s as u64);
            smaller += s as u64;
        }
        delta
    }

    /// Expands layer d over the tile orders from `first` on (`own` is
    /// their slice of `reached[d % 3]`); returns the boards in layer d
    /// there and whether any of them has a neighbour in layer d + 1.
    ///
    /// The graph is bipartite, so a neighbour of layer d is in layer d − 1
    /// or d + 1: it is new unless `reached_prev` has it. Only vertical moves
    /// change `h`; they set bits of `next` (an atomic `fetch_or`: setting a
    /// bit twice is harmless). The horizontal moves of layer d − 1 are
    /// added here, from `prev`, by the thread that owns `h`, so they need no
    /// atomic operation.
    fn pass(&self, first: usize, own: &mut [u64], step: &Step) -> (u64, bool) {
        match (self.cols, step.arrivals) {
            (2, None) => self.pass_k::<1>(first, own, step),
            (3, None) => self.pass_k::<2>(first, own, step),
            (4, None) => self.pass_k::<3>(first, own, step),
            (5, None) => self.pass_k::<4>(first, own, step),
            (6, None) => self.pass_k::<5>(first, own, step),
            (2, Some(a)) => self.pass_buffered_k::<1>(first, own, step, a),
            (3, Some(a)) => self.pass_buffered_k::<2>(first, own, step, a),
            (4, Some(a)) => self.pass_buffered_k::<3>(first, own, step, a),
            (5, Some(a)) => self.pass_buffered_k::<4>(first, own, step, a),
            (6, Some(a)) => self.pass_buffered_k::<5>(first, own, step, a),
            (c, _) => unreachable!("no table has {c} columns"),
        }
    }

    /// Calls `claim(h, cell)` for every vertical neighbour of the boards
    /// `f` of word `w`.
    #[inline(always)]
    fn expand<const K: usize>(&self, w: usize, f: u64, mut claim: impl FnMut(usize, usize)) {
        let word = w * LANES;
        let mut up = f & self.can_up;
        while up != 0 {
            let x = up.trailing_zeros() as usize;
            up &= up - 1;
            let v = &self.up[x % 16];
            claim(self.neighbour::<K>(word + x / 16, v), v.to);
        }
        let mut down = f & self.can_down;
        while down != 0 {
            let x = down.trailing_zeros() as usize;
            down &= down - 1;
            let v = &self.down[x % 16];
            claim(self.neighbour::<K>(word + x / 16, v), v.to);
        }
    }

    fn pass_k<const K: usize>(&self, first: usize, own: &mut [u64], step: &Step) -> (u64, bool) {
        let mut states = 0u64;
        let mut more = false;
        // Claims board (h2, cell) for layer d + 1 unless it is in layer d − 1.
        let mut claim = |h2: usize, cell: usize| {
            let bit = 1u64 << (lane(h2) + cell);
            if step.reached_prev[h2 / LANES] & bit == 0 {
                let n = &step.next[h2 / LANES];
                if n.load(Relaxed) & bit == 0 {
                    n.fetch_or(bit, Relaxed);
                }
                more = true;
            }
        };
        let range = first..first + own.len();
        let prev = &step.prev[range.clone()];
        let cur = &step.cur[range.clone()];
        let older = &step.reached_older[range.clone()];
        let reached_prev = &step.reached_prev[range];
        let mut grown = false;
        for (i, own) in own.iter_mut().enumerate() {
            let before = prev[i].load(Relaxed);
            let mut f = cur[i].load(Relaxed);
            if before | f == 0 {
                continue;
            }
            if before != 0 {
                prev[i].store(0, Relaxed);
                let along = self.along(before) & !older[i] & !f;
                if along != 0 {
                    f |= along;
                    cur[i].store(f, Relaxed);
                }
                if f == 0 {
                    continue;
                }
            }
            *own |= f;
            states += f.count_ones() as u64;
            grown |= self.along(f) & !reached_prev[i] != 0;
            self.expand::<K>(first + i, f, &mut claim);
        }
        (states, more | grown)
    }

    /// [`Search::pass_k`] with the arrivals in per-thread buffers: layer d
    /// is the vertical arrivals and the horizontal moves of layer d − 1
    /// (`prev`, kept whole), less layer d − 2; it is stored whole in `cur`
    /// (over whatever was there), and every vertical neighbour goes to this
    /// thread's buffer. Returns the boards found and whether there were
    /// any (the next pass tells whether they have successors).
    fn pass_buffered_k<const K: usize>(
        &self,
        first: usize,
        own: &mut [u64],
        step: &Step,
        arrivals: &Arrivals,
    ) -> (u64, bool) {
        let mut vertical = [0u64; CHUNK];
        let vertical = &mut vertical[..own.len()];
        arrivals.gather(step.parity, first, vertical);
        let mut sink = arrivals.mine(1 - step.parity);
        let (masks, shift, mut marks) = (sink.masks, sink.shift, 0u64);
        let range = first..first + own.len();
        let prev = &step.prev[range.clone()];
        let cur = &step.cur[range.clone()];
        let older = &step.reached_older[range];
        let mut states = 0u64;
        for (i, own) in own.iter_mut().enumerate() {
            let f = (vertical[i] | self.along(prev[i].load(Relaxed))) & !older[i];
            cur[i].store(f, Relaxed);
            if f == 0 {
                continue;
            }
            *own |= f;
            states += f.count_ones() as u64;
            self.expand::<K>(first + i, f, |h2, cell| {
                let w = h2 / LANES;
                let m = &masks[w];
                m.store(m.load(Relaxed) | 1 << (lane(h2) + cell), Relaxed);
                marks |= 1 << (w >> shift);
            });
        }
        sink.marks = marks;
        (states, states != 0)
    }

    /// The boards of a layer, in index order (at most as many as a table
    /// keeps).
    fn boards(&self, layer: &[AtomicU64]) -> Vec<Board> {
        let masks: Vec<(usize, u64)> = (0..self.per_blank)
            .map(|h| (h, layer[h / LANES].load(Relaxed) >> lane(h) & 0xFFFF))
            .filter(|&(_, m)| m != 0)
            .collect();
        let mut found = Vec::new();
        for cell in 0..self.cells {
            for &(h, m) in &masks {
                if m >> cell & 1 != 0 && found.len() < MAX_HARDEST {
                    let index = Index((cell * self.per_blank + h) as u64);
                    found.push(self.indexer.unrank(index).expect("an index below len"));
                }
            }
        }
        found
    }

    /// The 2-bit entries, index `cell × per_blank + h`, four to a byte,
    /// from the residue planes 1 (`low`) and 2 (`high`); the unused entries
    /// of the last byte are 3.
    fn body(&self, low: &[u64], high: &[u64]) -> Vec<u8> {
        let states = self.cells * self.per_blank;
        let mut body = vec![0u8; states.div_ceil(4)];
        // The four 2-bit entries of the words' lanes at `cell`, as a byte:
        // lane q at bit 16q is moved to bit 2q by a multiply.
        let byte = |l: u64, h: u64, cell: usize| {
            let z = (l >> cell) & LANE_ONES | ((h >> cell) & LANE_ONES) << 1;
            (z.wrapping_mul(1 | 1 << 14 | 1 << 28 | 1 << 42) >> 42) as u8
        };
        if self.per_blank.is_multiple_of(LANES) {
            // Each blank cell owns whole bytes: fill them in parallel.
            body.par_chunks_mut(self.per_blank / 4)
                .enumerate()
                .for_each(|(cell, bytes)| {
                    for (b, (&l, &h)) in bytes.iter_mut().zip(low.iter().zip(high)) {
                        *b = byte(l, h, cell);
                    }
                });
        } else {
            let mut i = 0;
            for cell in 0..self.cells {
                for h in 0..self.per_blank {
                    let (l, hi) = (low[h / LANES] >> lane(h), high[h / LANES] >> lane(h));
                    let entry = ((l >> cell) & 1 | ((hi >> cell) & 1) << 1) as u8;
                    body[i / 4] |= entry << (2 * (i % 4));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    impl Search<'_> {
        fn neighbour_of(&self, h: usize, v: &Vertical) -> usize {
            match self.cols {
                2 => self.neighbour::<1>(h, v),
                3 => self.neighbour::<2>(h, v),
                4 => self.neighbour::<3>(h, v),
                5 => self.neighbour::<4>(h, v),
                _ => self.neighbour::<5>(h, v),
            }
        }
    }

    /// The odometer walk of the two-bit search (digits computed afresh and
    /// advanced, no table of digits) lands every vertical step on the index
    /// of the moved board: on 2×7 and 7×2 (14 cells, 7-tile rotations),
    /// sampled, both parities, and on the 3×4 it shares with `generate`.
    #[test]
    fn odometer_vertical_steps_match_the_rank_of_the_moved_board() {
        for (r, c) in [(2, 7), (7, 2), (3, 4), (2, 6)] {
            let shape = Shape::new(r, c).unwrap();
            for parity in [0, 1] {
                let indexer = Indexer::for_class(shape, parity);
                let search = Search::new(&indexer, false);
                let pb = search.per_blank as u64;
                let stride = pb / 3000;
                for start in (0..pb).step_by(stride as usize).chain([pb - 70]) {
                    // A fresh start, then steps forward by the odometer.
                    let mut digits = search.digits_at(start);
                    for h in start..(start + 70).min(pb) {
                        if h > start {
                            digits = search.advance(digits);
                        }
                        assert_eq!(digits, search.digits_at(h), "{shape} h {h}");
                        let stored = search.with_parity(digits);
                        for b in 0..search.cells {
                            let board = indexer.unrank(Index(b as u64 * pb + h)).unwrap();
                            for v in search.verticals(b) {
                                let mv = if v.to < b { Move::Up } else { Move::Down };
                                let moved = board.apply(mv).unwrap();
                                let want = indexer.rank(&moved).unwrap().0;
                                let got = v.to as u64 * pb + search.vertical(h, stored, v);
                                assert_eq!(got, want, "{shape} parity {parity} {board} {mv:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// Every vertical step the search takes lands on the index of the moved
    /// board, on every shape a table is built for (sampled above 9 cells),
    /// both parities, with the tables of rank changes and without.
    #[test]
    fn vertical_steps_match_the_rank_of_the_moved_board() {
        for (r, c) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (2, 4),
            (4, 2),
            (3, 3),
            (2, 5),
            (5, 2),
            (2, 6),
            (6, 2),
            (3, 4),
            (4, 3),
        ] {
            let shape = Shape::new(r, c).unwrap();
            for parity in [0, 1] {
                let indexer = Indexer::for_class(shape, parity);
                let mut search = Search::new(&indexer, true);
                let pb = search.per_blank;
                let stride = (pb / 5000).max(1);
                for tabled in [true, false] {
                    if !tabled {
                        search.deltas.clear();
                    }
                    for h in (0..pb).step_by(stride).chain([pb - 1]) {
                        for b in 0..search.cells {
                            let board = indexer.unrank(Index((b * pb + h) as u64)).unwrap();
                            for (mv, v) in
                                [(Move::Up, &search.up[b]), (Move::Down, &search.down[b])]
                            {
                                let Some(moved) = board.apply(mv) else {
                                    continue;
                                };
                                let want = indexer.rank(&moved).unwrap().0 as usize;
                                let got = v.to * pb + search.neighbour_of(h, v);
                                assert_eq!(
                                    got, want,
                                    "{shape} parity {parity} {board} {mv:?} tabled {tabled}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
