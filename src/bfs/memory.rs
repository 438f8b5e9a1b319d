//! The in-memory search: one reverse breadth-first search from the goal
//! over every reachable board, in parallel layers (up to
//! [`MAX_IN_MEMORY_CELLS`] cells).
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
use std::time::Instant;

use rayon::prelude::*;

use crate::board::Board;
use crate::rank::{Index, Indexer};
use crate::symmetry::GoalClass;

use super::moves::{IndexMoves, LANE_ONES, LANES, lane};
use super::{Finished, GenerateError, Layer, MAX_HARDEST, MAX_IN_MEMORY_CELLS};

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
    search: &'a IndexMoves<'a>,
    words: &'a [AtomicU64],
    /// Its distance from the goal.
    pub depth: u32,
    /// How many boards it holds.
    pub states: u64,
}

impl<'a> Frontier<'a> {
    /// Layer `depth` of `states` boards, held in `words` as `search` lays
    /// them out.
    pub(super) fn new(
        search: &'a IndexMoves<'a>,
        words: &'a [AtomicU64],
        depth: u32,
        states: u64,
    ) -> Frontier<'a> {
        Frontier {
            search,
            words,
            depth,
            states,
        }
    }

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
/// when complete, to `visit`, until it breaks. Costs what [`generate`](crate::table::generate())
/// costs, up to the last layer visited; builds no table.
pub(crate) fn sweep(
    class: &GoalClass,
    visit: impl FnMut(&Frontier) -> ControlFlow<()>,
) -> Result<(), GenerateError> {
    search(class, |_| {}, visit).map(|_| ())
}

/// The search itself: `None` when `visit` stopped it.
pub(crate) fn search(
    class: &GoalClass,
    mut on_layer: impl FnMut(&Layer),
    mut visit: impl FnMut(&Frontier) -> ControlFlow<()>,
) -> Result<Option<Finished>, GenerateError> {
    let shape = class.goal().shape();
    if shape.cells() > MAX_IN_MEMORY_CELLS {
        return Err(GenerateError::TooLarge {
            shape,
            states: shape.table_states(),
        });
    }
    let start = Instant::now();
    let goal = class.canonical();
    let indexer = Indexer::new(goal);
    let search = IndexMoves::new(&indexer, true);
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

impl IndexMoves<'_> {
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

    /// [`IndexMoves::pass_k`] with the arrivals in per-thread buffers: layer d
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
    pub(super) fn boards(&self, layer: &[AtomicU64]) -> Vec<Board> {
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
    pub(super) fn body(&self, low: &[u64], high: &[u64]) -> Vec<u8> {
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
