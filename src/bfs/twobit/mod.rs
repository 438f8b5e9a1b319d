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
//!
//! # Files
//!
//! A search placed [`Placement::Segmented`] keeps its distances and
//! frontier in two work files at the paths the builder gives it, and
//! any search streams its state out and back in for the builder's
//! checkpoints ([`TwoBit::write_checkpoint_body`], [`TwoBit::restore`]).
//! It knows no file's name, frame or place in the data folder: the
//! builder ([`crate::build`]) chooses the paths, frames a checkpoint and
//! renames it into place.
//!
//! # Rooms
//!
//! - this file: the search's state between layers ([`TwoBit`]), made
//!   fresh and asked where it stands;
//! - `placement`: where the distances and the frontier live (resident or
//!   in work files), and the bytes each way costs;
//! - `words`: 64-bit words in anonymous memory, and read from and written
//!   to a work file;
//! - `layer`: one layer's expansion, the horizontal and vertical passes
//!   over resident words;
//! - `segmented`: the same passes a segment at a time over the work
//!   files;
//! - `output`: what the finished search hands on: the hardest boards and
//!   the table's body;
//! - `checkpoint`: the state streamed out and back in;
//! - `run`: whole searches (a table's body, a comparison with a table,
//!   a sweep of layers), the ways the rest of the crate calls it.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use crate::board::{Adjacency, Board, Metric};
use crate::rank::Indexer;

use crate::bfs::moves::IndexMoves;
use crate::bfs::vertical::{Busy, Plan, Policy};
use crate::bfs::{GenerateError, Layer};

mod checkpoint;
mod layer;
mod multi;
mod output;
mod placement;
mod run;
mod segmented;
mod words;

pub(crate) use placement::{Placement, SEGMENT_BITS_PER_BOARD, resident_bytes, stream_bytes};
pub(crate) use run::{search_and_compare, search_resident, sweep};

use placement::{Segmented, Store};
use words::{Words, write_words};

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
    /// Which blocks of the frontier may hold bits (resident searches
    /// whose cells are whole frontier words).
    busy: Option<Busy>,
    /// What a move is: one cell (the graph is bipartite, and each cell's
    /// bitset serves every other layer) or a slide of any length (every
    /// cell's bitset holds the deepest layer; see `multi`).
    metric: Metric,
}

impl<'a> TwoBit<'a> {
    /// A search toward `goal` (the goal `indexer` was made for), with
    /// layer 0 (the goal) done.
    pub(crate) fn new(indexer: &'a Indexer, goal: &Board) -> Result<TwoBit<'a>, GenerateError> {
        TwoBit::new_in(indexer, goal, Metric::Single)
    }

    /// Like [`TwoBit::new`], in `metric`.
    pub(crate) fn new_in(
        indexer: &'a Indexer,
        goal: &Board,
        metric: Metric,
    ) -> Result<TwoBit<'a>, GenerateError> {
        let mut search = TwoBit::placed(indexer, goal, &Placement::Resident)
            .map(|s| s.expect("a resident search opens no file"))?;
        search.set_metric(metric);
        Ok(search)
    }

    /// Makes a fresh search (layer 0 alone) one in `metric`. In the
    /// multi-tile metric the vertical plans move single steps, so they
    /// serve only boards of two rows (where every slide along a column is
    /// one step: 2×7); the frontier's summary serves every shape.
    pub(crate) fn set_metric(&mut self, metric: Metric) {
        self.metric = metric;
        if metric == Metric::Multi && self.cells / self.cols != 2 {
            self.plans = Vec::new();
        }
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
                    let f = crate::output::create_file(|| {
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
            metric: Metric::Single,
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
        if self.metric == Metric::Multi {
            return (0..self.cells).collect();
        }
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
}
