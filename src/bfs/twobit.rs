//! The two-bit search: a generator whose memory is the finished table
//! itself plus one bit a board, the search that builds tables past 12
//! cells (2×7: 43.6 G boards) and, through [`build_file`](crate::build::build_file),
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
//! The table it builds is byte for byte the one [`generate`](crate::table::generate())
//! builds: an entry is written once, by the layer that first reaches it.

use std::io::{self, Read, Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use memmap2::MmapMut;
use rayon::prelude::*;

use crate::board::{Adjacency, Board, Move};
use crate::rank::{Index, Indexer};
use crate::symmetry::GoalClass;

use super::index::{IndexMoves, Odometer, compact, prefetch, spread, unreached};
use super::memory::LayerBoards;
use super::vertical::{self, BUSY_WORDS, Busy, Claims, Plan, Policy};
use super::{Finished, GenerateError, Layer, MAX_HARDEST};
use std::ops::ControlFlow;

/// Frontier words a rayon task takes at a time.
const CHUNK: usize = 1 << 10;

/// Vertical targets computed and prefetched before any is claimed.
const BATCH: usize = 32;

/// The whole resident two-bit search toward `class`'s canonical goal,
/// calling `on_layer` after each layer: what it found.
pub(crate) fn search_resident(
    class: &GoalClass,
    mut on_layer: impl FnMut(&Layer),
) -> Result<Finished, GenerateError> {
    let indexer = Indexer::new(class.canonical());
    let search = search_all(&indexer, class.canonical(), &mut on_layer)?;
    let mut body = Vec::with_capacity(search.body_len() as usize);
    search
        .write_body(&mut body)
        .expect("writing to a Vec cannot fail");
    let hardest = search.hardest().expect("a resident search does no I/O");
    Ok((search.layers().to_vec(), hardest, body))
}

/// The whole resident two-bit search toward `goal` (the goal `indexer`
/// was made for), calling `on_layer` after each layer.
fn search_all<'a>(
    indexer: &'a Indexer,
    goal: &Board,
    on_layer: &mut impl FnMut(&Layer),
) -> Result<TwoBit<'a>, GenerateError> {
    let mut search = TwoBit::new(indexer, goal)?;
    on_layer(&search.last_layer());
    while search.expand().expect("a resident search does no I/O") {
        on_layer(&search.last_layer());
    }
    Ok(search)
}

/// Searches again toward `goal` by the two-bit search, calling
/// `on_layer` after each layer, and compares what it finds with a table's
/// layer counts and body without building a second table: whether both
/// agree (`Err(what)` names the first that differs).
pub(crate) fn search_and_compare(
    goal: &Board,
    layers: &[u64],
    body: &[u8],
    mut on_layer: impl FnMut(&Layer),
) -> Result<Result<(), &'static str>, GenerateError> {
    let class = GoalClass::of(goal);
    let indexer = Indexer::new(class.canonical());
    let search = search_all(&indexer, class.canonical(), &mut on_layer)?;
    if search.layers() != layers {
        return Ok(Err("layer counts"));
    }
    /// A writer that compares what it is given with `expected`.
    struct Compare<'b> {
        expected: &'b [u8],
        same: bool,
    }
    impl Write for Compare<'_> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let n = buf.len().min(self.expected.len());
            self.same &= buf.len() == n && buf == &self.expected[..n];
            self.expected = &self.expected[n..];
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut compare = Compare {
        expected: body,
        same: body.len() as u64 == search.body_len(),
    };
    search
        .write_body(&mut compare)
        .expect("comparing cannot fail");
    Ok(if compare.same { Ok(()) } else { Err("entries") })
}

/// Runs the two-bit search toward `class`'s canonical goal (resident:
/// 3 bits a board, checked against the memory available) and shows each
/// layer, when complete, to `visit`, until it breaks.
pub(crate) fn sweep(
    class: &GoalClass,
    mut visit: impl FnMut(&dyn LayerBoards) -> ControlFlow<()>,
) -> Result<(), GenerateError> {
    let indexer = Indexer::new(class.canonical());
    let shape = indexer.shape();
    let (residues, frontier) = resident_bytes(shape.cells(), indexer.per_blank());
    if let Some(available) = crate::system::available_memory()
        && residues + frontier > available
    {
        return Err(GenerateError::Memory {
            bytes: residues + frontier,
            why: format!("{available} bytes are available"),
        });
    }
    let mut search = TwoBit::new(&indexer, class.canonical())?;
    loop {
        if visit(&search).is_break() {
            return Ok(());
        }
        if !search.expand().expect("a resident search does no I/O") {
            return Ok(());
        }
    }
}

impl LayerBoards for TwoBit<'_> {
    fn depth(&self) -> u32 {
        TwoBit::depth(self)
    }
    fn states(&self) -> u64 {
        *self.layers.last().expect("layer 0 is always done")
    }
    fn for_each(&self, f: &mut dyn FnMut(Index) -> ControlFlow<()>) -> ControlFlow<()> {
        let Some((_, frontier)) = self.resident() else {
            unreachable!("a sweep is resident")
        };
        for cell in self.cells_of_layer(TwoBit::depth(self)) {
            let bitset = &frontier[cell * self.words..(cell + 1) * self.words];
            for (w, word) in bitset.iter().enumerate() {
                let mut bits = word.load(Relaxed);
                while bits != 0 {
                    let h = (w * 64) as u64 + bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    f(Index(cell as u64 * self.per_blank + h))?;
                }
            }
        }
        ControlFlow::Continue(())
    }
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

/// Where a two-bit search keeps its distances and frontier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    /// All of it resident: the fast way, 3 bits a board.
    Resident,
    /// In two work files, a segment of `segment` tile orders of one blank
    /// cell resident at a time (a multiple of 64): for a memory limit
    /// below the resident search's.
    Segmented {
        /// The distances' work file.
        distances: std::path::PathBuf,
        /// The frontier's work file.
        frontier: std::path::PathBuf,
        /// Tile orders a segment covers.
        segment: u64,
    },
}

/// The most bytes a segmented search keeps resident besides its segment:
/// the buffer a vertical source's frontier is read through.
const STREAM_BYTES: u64 = 1 << 18;

/// The buffer a segmented search reads a vertical source's frontier
/// through, for `per_blank` tile orders a cell: [`STREAM_BYTES`], or a
/// whole cell's bitset if smaller.
pub(crate) fn stream_bytes(per_blank: u64) -> u64 {
    STREAM_BYTES.min(per_blank.div_ceil(64) * 8)
}

/// Bytes a segmented search keeps resident per tile order of its
/// segment, in eighths of a byte: 2 bits of distance, 1 of the new
/// frontier, and 2 of the horizontal sources' frontier.
pub(crate) const SEGMENT_BITS_PER_BOARD: u64 = 5;

/// The distances and the frontier.
enum Store {
    Resident {
        /// `residue ^ 3` per board, 32 a word; 0 = not reached.
        residues: Words,
        /// One bitset per blank cell, `words` words each.
        frontier: Words,
    },
    Segmented(Segmented),
}

/// The work files of a segmented search, and its segment buffers.
struct Segmented {
    /// The distances, laid out as `Store::Resident`'s.
    residues: std::fs::File,
    /// The frontier bitsets, laid out as `Store::Resident`'s.
    frontier: std::fs::File,
    paths: [std::path::PathBuf; 2],
    /// Tile orders a segment covers: a multiple of 64.
    segment: u64,
}

/// The state of a two-bit search between layers.
pub(crate) struct TwoBit<'a> {
    search: IndexMoves<'a>,
    indexer: &'a Indexer,
    adjacency: Adjacency,
    store: Store,
    words: usize,
    per_blank: u64,
    cells: usize,
    cols: usize,
    /// The colour of the goal's blank cell: layer d's blanks have colour
    /// `root_colour ^ (d % 2)`.
    root_colour: usize,
    layers: Vec<u64>,
    start: Instant,
    /// Per source cell, its vertical moves and how each is expanded
    /// (resident searches whose cells are whole frontier words; empty
    /// otherwise, and each board is moved alone).
    plans: Vec<Vec<Plan>>,
    /// Which blocks of the frontier may hold bits, where there are plans.
    busy: Option<Busy>,
}

impl<'a> TwoBit<'a> {
    /// A search toward `goal` (the goal `indexer` was made for), with
    /// layer 0 (the goal) done.
    pub(crate) fn new(indexer: &'a Indexer, goal: &Board) -> Result<TwoBit<'a>, GenerateError> {
        TwoBit::placed(indexer, goal, &Placement::Resident)
            .map(|s| s.expect("a resident search opens no file"))
    }

    /// Like [`TwoBit::new`], placed as `placement` says (a segmented
    /// search creates its work files: the I/O error if it cannot).
    pub(crate) fn placed(
        indexer: &'a Indexer,
        goal: &Board,
        placement: &Placement,
    ) -> Result<io::Result<TwoBit<'a>>, GenerateError> {
        let mut search = match TwoBit::empty(indexer, goal, placement)? {
            Ok(search) => search,
            Err(e) => return Ok(Err(e)),
        };
        let root = indexer.rank_unchecked(goal).0;
        let (cell, h) = ((root / search.per_blank) as usize, root % search.per_blank);
        let residue_word = (root / 32) as usize;
        let frontier_word = cell * search.words + (h / 64) as usize;
        let (residue, bit) = (3u64 << (2 * (root % 32)), 1u64 << (h % 64));
        match &mut search.store {
            Store::Resident { residues, frontier } => {
                residues.atomics()[residue_word].store(residue, Relaxed);
                frontier.atomics()[frontier_word].store(bit, Relaxed);
                if let Some(busy) = &search.busy {
                    busy.mark(cell, (h / 64) as usize);
                }
            }
            Store::Segmented(files) => {
                let written = write_words(&files.residues, residue_word, &[residue])
                    .and_then(|()| write_words(&files.frontier, frontier_word, &[bit]));
                if let Err(e) = written {
                    return Ok(Err(e));
                }
            }
        }
        search.layers.push(1);
        Ok(Ok(search))
    }

    /// A search with nothing reached, to be filled by
    /// [`TwoBit::restore`].
    fn empty(
        indexer: &'a Indexer,
        goal: &Board,
        placement: &Placement,
    ) -> Result<io::Result<TwoBit<'a>>, GenerateError> {
        let shape = indexer.shape();
        let (cells, per_blank) = (shape.cells(), indexer.per_blank());
        let (residue_bytes, frontier_bytes) = resident_bytes(cells, per_blank);
        let words = per_blank.div_ceil(64) as usize;
        let root_cell = goal.blank();
        let store = match placement {
            Placement::Resident => {
                let memory = |e: io::Error| GenerateError::Memory {
                    bytes: residue_bytes + frontier_bytes,
                    why: e.to_string(),
                };
                Store::Resident {
                    residues: Words::zeroed((residue_bytes / 8) as usize).map_err(memory)?,
                    frontier: Words::zeroed((frontier_bytes / 8) as usize).map_err(memory)?,
                }
            }
            Placement::Segmented {
                distances,
                frontier,
                segment,
            } => {
                // Fresh files of zeros (sparse until written).
                let create = |path: &std::path::Path, len: u64| {
                    let f = crate::store::create_file(|| {
                        std::fs::File::options()
                            .read(true)
                            .write(true)
                            .create(true)
                            .truncate(true)
                            .open(path)
                    })?;
                    f.set_len(len)?;
                    Ok::<_, io::Error>(f)
                };
                let files = create(distances, residue_bytes)
                    .and_then(|r| Ok((r, create(frontier, frontier_bytes)?)));
                let (residues, frontier_file) = match files {
                    Ok(files) => files,
                    Err(e) => return Ok(Err(e)),
                };
                assert!(
                    segment % 64 == 0 && *segment > 0,
                    "a segment is whole words"
                );
                Store::Segmented(Segmented {
                    residues,
                    frontier: frontier_file,
                    paths: [distances.clone(), frontier.clone()],
                    segment: *segment,
                })
            }
        };
        let search = IndexMoves::new(indexer, false);
        let plans = match placement {
            Placement::Resident if per_blank.is_multiple_of(64) => {
                Plan::for_cells(&search, Policy::Fastest)
            }
            _ => Vec::new(),
        };
        let busy = (!plans.is_empty()).then(|| Busy::new(cells, words));
        Ok(Ok(TwoBit {
            search,
            plans,
            busy,
            indexer,
            adjacency: Adjacency::new(shape),
            store,
            words,
            per_blank,
            cells,
            cols: shape.cols(),
            root_colour: (root_cell / shape.cols() + root_cell % shape.cols()) % 2,
            layers: Vec::new(),
            start: Instant::now(),
        }))
    }

    /// Removes a segmented search's work files (best effort).
    pub(crate) fn remove_work_files(self) {
        if let Store::Segmented(files) = self.store {
            let Segmented {
                residues,
                frontier,
                paths,
                ..
            } = files;
            drop((residues, frontier));
            for path in paths {
                let _ = std::fs::remove_file(path);
            }
        }
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

    /// The index the search is over.
    pub(crate) fn indexer(&self) -> &'a Indexer {
        self.indexer
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

    /// The resident store's words.
    fn resident(&self) -> Option<(&[AtomicU64], &[AtomicU64])> {
        match &self.store {
            Store::Resident { residues, frontier } => {
                Some((residues.atomics(), frontier.atomics()))
            }
            Store::Segmented(_) => None,
        }
    }

    /// Expands the deepest layer: whether it reached any new board (if
    /// not, the search is over and nothing changed). Fails only on a
    /// segmented search's work files.
    pub(crate) fn expand(&mut self) -> io::Result<bool> {
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
    fn beside(&self, target: usize) -> Vec<usize> {
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
    fn expand_horizontal(
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
            let claims = Claims {
                residues,
                frontier,
                words,
                per_blank,
                stored,
                busy: self
                    .busy
                    .as_ref()
                    .expect("a search with plans has a summary"),
            };
            let mut found = 0;
            for &cell in sources {
                for (v, plan) in search.verticals(cell).zip(&self.plans[cell]) {
                    found += vertical::expand(search, v, plan, cell, &claims);
                }
            }
            return found;
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

    /// Claims a batch of vertical targets (already prefetched), setting
    /// the frontier bits of those this thread reached first.
    #[inline]
    fn claim_all(
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
        }
        batch.len = 0;
        n as u64
    }

    /// A layer of a segmented search: each target cell a segment at a
    /// time, its distances and new frontier read in, its sources'
    /// frontiers read through, then written back.
    fn expand_segmented(&self, targets: &[usize], stored: u64) -> io::Result<u64> {
        let Store::Segmented(files) = &self.store else {
            unreachable!("a segmented search")
        };
        let (per_blank, words) = (self.per_blank, self.words);
        let segment_words = (files.segment / 64) as usize;
        let mut found = 0;
        for &target in targets {
            let beside = self.beside(target);
            for first in (0..words).step_by(segment_words) {
                let range = first..(first + segment_words).min(words);
                // The segment's entries, in whole residue words.
                let lo = target as u64 * per_blank + (range.start * 64) as u64;
                let hi = target as u64 * per_blank + ((range.end * 64) as u64).min(per_blank);
                let (w0, w1) = ((lo / 32) as usize, hi.div_ceil(32) as usize);
                let residues = read_words(&files.residues, w0, w1 - w0)?;
                let into: Vec<AtomicU64> = range.clone().map(|_| AtomicU64::new(0)).collect();
                // The horizontal sources' words of the same tile orders.
                let mut beside_words = Vec::with_capacity(beside.len());
                for &s in &beside {
                    let at = s * words + range.start;
                    beside_words.push((s, read_words(&files.frontier, at, range.len())?));
                }
                let view = Segment {
                    cell: target,
                    words: range.clone(),
                    residues: &residues,
                    first_word: w0,
                    into: &into,
                    busy: None,
                };
                found += self.expand_horizontal(
                    &view,
                    |s, w| {
                        beside_words
                            .iter()
                            .find(|(cell, _)| *cell == s)
                            .map_or(0, |(_, ws)| ws[w - range.start].load(Relaxed))
                    },
                    stored,
                );
                found += self.expand_vertical_segment(&view, files, (lo, hi), stored)?;
                write_words(&files.residues, w0, &load_all(&residues))?;
                write_words(
                    &files.frontier,
                    target * words + range.start,
                    &load_all(&into),
                )?;
            }
        }
        Ok(found)
    }

    /// Pass 2 over a segment of a segmented search: each vertical source
    /// of the segment's cell read through whole, its moves that land in
    /// entries `lo..hi` claimed.
    fn expand_vertical_segment(
        &self,
        view: &Segment,
        files: &Segmented,
        (lo, hi): (u64, u64),
        stored: u64,
    ) -> io::Result<u64> {
        let search = &self.search;
        let (per_blank, words) = (self.per_blank, self.words);
        let stream = (stream_bytes(per_blank) / 8) as usize;
        let first = view.first_word as u64 * 32;
        let mut found = 0;
        for source in 0..self.cells {
            let Some(v) = search.verticals(source).find(|v| v.to == view.cell) else {
                continue;
            };
            for start in (0..words).step_by(stream) {
                let n = stream.min(words - start);
                let chunk = read_words(&files.frontier, source * words + start, n)?;
                found += (0..n)
                    .into_par_iter()
                    .step_by(CHUNK)
                    .map(|c| {
                        let mut found = 0;
                        let mut odometer = Odometer::new(search);
                        for (w, word) in chunk.iter().enumerate().take((c + CHUNK).min(n)).skip(c) {
                            let mut bits = word.load(Relaxed);
                            while bits != 0 {
                                let h = ((start + w) * 64) as u64 + bits.trailing_zeros() as u64;
                                bits &= bits - 1;
                                let to_h = search.vertical(h, odometer.at(h), v);
                                let to = view.cell as u64 * per_blank + to_h;
                                if to < lo || to >= hi {
                                    continue;
                                }
                                if claim(view.residues, to - first, stored) {
                                    found += 1;
                                    let word = (to_h / 64) as usize - view.words.start;
                                    view.into[word].fetch_or(1 << (to_h % 64), Relaxed);
                                }
                            }
                        }
                        found
                    })
                    .sum::<u64>();
            }
        }
        Ok(found)
    }

    /// Calls `f` with the words of each cell of layer `depth` in turn,
    /// in pieces (cell, first word, words).
    fn for_each_frontier_piece(
        &self,
        depth: u32,
        mut f: impl FnMut(usize, usize, &[u64]) -> io::Result<ControlFlow<()>>,
    ) -> io::Result<()> {
        let piece = (STREAM_BYTES / 8) as usize;
        for cell in self.cells_of_layer(depth) {
            for start in (0..self.words).step_by(piece) {
                let n = piece.min(self.words - start);
                let words = match &self.store {
                    Store::Resident { frontier, .. } => {
                        load_all(&frontier.atomics()[cell * self.words + start..][..n])
                    }
                    Store::Segmented(files) => {
                        load_all(&read_words(&files.frontier, cell * self.words + start, n)?)
                    }
                };
                if f(cell, start, &words)?.is_break() {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// Calls `f` with the distances' bytes (as stored: residue ^ 3), in
    /// pieces.
    fn for_each_distance_piece(
        &self,
        mut f: impl FnMut(&[u8]) -> io::Result<()>,
    ) -> io::Result<()> {
        const PIECE: usize = 1 << 22;
        match &self.store {
            Store::Resident { residues, .. } => {
                for piece in residues.bytes().chunks(PIECE) {
                    f(piece)?;
                }
            }
            Store::Segmented(files) => {
                let len = files.residues.metadata()?.len();
                let mut buffer = vec![0u8; PIECE];
                let mut file = &files.residues;
                file.seek(SeekFrom::Start(0))?;
                let mut left = len;
                while left > 0 {
                    let n = (PIECE as u64).min(left) as usize;
                    file.read_exact(&mut buffer[..n])?;
                    f(&buffer[..n])?;
                    left -= n as u64;
                }
            }
        }
        Ok(())
    }

    /// The first [`MAX_HARDEST`] boards of the deepest layer, in index
    /// order (as [`generate`](crate::table::generate()) lists them).
    pub(crate) fn hardest(&self) -> io::Result<Vec<Board>> {
        let mut hardest = Vec::new();
        self.for_each_frontier_piece(self.depth(), |cell, start, words| {
            for (w, &word) in words.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    if hardest.len() == MAX_HARDEST {
                        return Ok(ControlFlow::Break(()));
                    }
                    let h = ((start + w) * 64) as u64 + bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    let index = Index(cell as u64 * self.per_blank + h);
                    hardest.push(
                        self.indexer
                            .unrank(index)
                            .expect("a frontier bit is a board"),
                    );
                }
            }
            Ok(ControlFlow::Continue(()))
        })?;
        Ok(hardest)
    }

    /// The table's body length: 2 bits a board.
    pub(crate) fn body_len(&self) -> u64 {
        self.indexer.len().div_ceil(4)
    }

    /// Writes the table's body (entries `residue`, `3` for no board).
    pub(crate) fn write_body(&self, out: &mut impl Write) -> io::Result<()> {
        let mut left = self.body_len() as usize;
        let mut flipped = Vec::new();
        self.for_each_distance_piece(|piece| {
            let n = piece.len().min(left);
            flipped.clear();
            flipped.extend(piece[..n].iter().map(|b| b ^ 0xFF));
            out.write_all(&flipped)?;
            left -= n;
            Ok(())
        })
    }

    /// Writes what a checkpoint's body holds: the distances (as stored),
    /// then the bitsets of the deepest layer's cells, in cell order.
    pub(crate) fn write_checkpoint_body(&self, out: &mut impl Write) -> io::Result<()> {
        self.for_each_distance_piece(|piece| out.write_all(piece))?;
        let mut bytes = Vec::new();
        self.for_each_frontier_piece(self.depth(), |_, _, words| {
            bytes.clear();
            bytes.extend(words.iter().flat_map(|w| w.to_le_bytes()));
            out.write_all(&bytes)?;
            Ok(ControlFlow::Continue(()))
        })
    }

    /// The length of [`TwoBit::write_checkpoint_body`]'s bytes at layer
    /// `depth` of a search of `indexer` toward `goal` (each colour has its
    /// own count of cells).
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

    /// A search at layer `layers.len() − 1`, placed as `placement` says,
    /// its state read from `from` (as [`TwoBit::write_checkpoint_body`]
    /// wrote it).
    pub(crate) fn restore(
        indexer: &'a Indexer,
        goal: &Board,
        placement: &Placement,
        layers: Vec<u64>,
        from: &mut impl Read,
    ) -> Result<io::Result<TwoBit<'a>>, GenerateError> {
        let mut search = match TwoBit::empty(indexer, goal, placement)? {
            Ok(search) => search,
            Err(e) => return Ok(Err(e)),
        };
        search.layers = layers;
        let cells = search.cells_of_layer(search.depth());
        let len = search.words * 8;
        let read = (|| {
            match &mut search.store {
                Store::Resident { residues, frontier } => {
                    from.read_exact(residues.bytes_mut())?;
                    let bytes = frontier.bytes_mut();
                    for &cell in &cells {
                        from.read_exact(&mut bytes[cell * len..(cell + 1) * len])?;
                    }
                }
                Store::Segmented(files) => {
                    let copy = |file: &std::fs::File, at: u64, n: u64, from: &mut dyn Read| {
                        let mut file = file;
                        file.seek(SeekFrom::Start(at))?;
                        let copied = io::copy(&mut from.take(n), &mut file)?;
                        if copied != n {
                            return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
                        }
                        Ok::<_, io::Error>(())
                    };
                    let distances = files.residues.metadata()?.len();
                    copy(&files.residues, 0, distances, from)?;
                    for &cell in &cells {
                        copy(&files.frontier, (cell * len) as u64, len as u64, from)?;
                    }
                }
            }
            Ok::<_, io::Error>(())
        })();
        if let (Ok(()), Some(busy), Store::Resident { frontier, .. }) =
            (&read, &search.busy, &search.store)
        {
            let words = frontier.atomics();
            for &cell in &cells {
                let bitset = &words[cell * search.words..(cell + 1) * search.words];
                for (w, word) in bitset.iter().enumerate() {
                    if word.load(Relaxed) != 0 {
                        busy.mark(cell, w);
                    }
                }
            }
        }
        Ok(read.map(|()| search))
    }
}

/// One target cell's words a pass writes: all of them (resident), or a
/// segment's.
struct Segment<'s> {
    /// The target cell.
    cell: usize,
    /// The frontier words of the cell the segment covers.
    words: std::ops::Range<usize>,
    /// Distances: every word (resident), or the segment's, from residue
    /// word `first_word` on.
    residues: &'s [AtomicU64],
    first_word: usize,
    /// The new frontier's words of `words`.
    into: &'s [AtomicU64],
    /// The frontier's summary (resident searches with plans): the words
    /// of blocks no source has bits in are skipped.
    busy: Option<&'s Busy>,
}

/// Reads `n` words from word `at` of `file`.
fn read_words(file: &std::fs::File, at: usize, n: usize) -> io::Result<Vec<AtomicU64>> {
    let mut bytes = vec![0u8; n * 8];
    let mut f = file;
    f.seek(SeekFrom::Start(at as u64 * 8))?;
    f.read_exact(&mut bytes)?;
    Ok(bytes
        .chunks_exact(8)
        .map(|b| AtomicU64::new(u64::from_le_bytes(b.try_into().expect("8 bytes"))))
        .collect())
}

/// Writes `words` at word `at` of `file`.
fn write_words(file: &std::fs::File, at: usize, words: &[u64]) -> io::Result<()> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut f = file;
    f.seek(SeekFrom::Start(at as u64 * 8))?;
    f.write_all(&bytes)
}

/// The values of `words`.
fn load_all(words: &[AtomicU64]) -> Vec<u64> {
    words.iter().map(|w| w.load(Relaxed)).collect()
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
            let found = super::super::memory::search(&class, |_| {}, |_| ControlFlow::Continue(()));
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

    #[test]
    fn a_fresh_search_finds_a_table_whole_and_a_changed_one_changed() {
        let goal = Board::solved(crate::board::Shape::EIGHT);
        let class = GoalClass::of(&goal);
        let found = super::super::memory::search(&class, |_| {}, |_| ControlFlow::Continue(()));
        let (layers, _, body) = found.unwrap().unwrap();
        let (layers, body) = (&layers[..], &body[..]);
        assert_eq!(search_and_compare(&goal, layers, body, |_| {}), Ok(Ok(())));
        let mut changed = body.to_vec();
        changed[1000] ^= 0b01;
        assert_eq!(
            search_and_compare(&goal, layers, &changed, |_| {}),
            Ok(Err("entries"))
        );
        assert_eq!(
            search_and_compare(&goal, layers, &body[1..], |_| {}),
            Ok(Err("entries"))
        );
        let mut counts = layers.to_vec();
        counts[3] += 1;
        assert_eq!(
            search_and_compare(&goal, &counts, body, |_| {}),
            Ok(Err("layer counts"))
        );
    }
}
