//! The distributed search: the breadth-first search of the two-bit
//! generator, with the boards split among timely dataflow workers — threads
//! of one process, or of several processes on several hosts.
//!
//! # Who owns a board
//!
//! A worker owns a range of tile orders `h` (the index is
//! `blank × per_blank + h`) for every blank cell. A horizontal move keeps
//! `h`, so it never leaves its owner; a vertical move rotates the tiles of
//! one window of the tile order and keeps the Lehmer digits before it, so
//! with ranges of `h` (ordered by those digits) most vertical moves stay
//! too. Only moves that land in another worker's range are sent, through
//! timely's exchange, as the target's index (8 bytes).
//!
//! # A layer
//!
//! Layer d is one timely epoch. Every worker
//!
//! 1. sends its count of layer d on a broadcast stream;
//! 2. expands its part of layer d: horizontal moves 64 boards at a time in
//!    its own words, vertical moves by the generator's rank arithmetic,
//!    claimed at once when they are its own and sent when not;
//! 3. closes epoch d and steps the dataflow until every worker has closed
//!    it (timely's progress tracking), so every move of layer d has
//!    arrived, and every worker knows the size of layer d;
//! 4. stops if layer d is empty (all workers stop on the same epoch), else
//!    claims the boards it received as layer d + 1.
//!
//! A worker's memory is the two-bit search's, for its part: 2 bits of
//! distance mod 3 and 1 frontier bit a board it owns, plus the moves it
//! receives in a layer (8 bytes each).

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

use timely::WorkerConfig;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::initialize::Hooks;
use timely::dataflow::channels::pact::Exchange as ExchangePact;
use timely::dataflow::operators::vec::{Broadcast, Input};
use timely::dataflow::operators::{Inspect, Operator, Probe};

use timely::dataflow::{InputHandleVec, ProbeHandle};
use timely::worker::Worker;

use crate::board::Board;
use crate::rank::{Index, Indexer};
use crate::symmetry::GoalClass;

use super::generate::Search;
use super::twobit::{Odometer, compact, spread, unreached};
use super::{MAX_HARDEST, MAX_TABLE_CELLS, Table, assemble};

/// What went wrong in a distributed search.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DistributedError {
    /// The board is larger than any table.
    #[error("a {cells}-cell board is past the {MAX_TABLE_CELLS}-cell limit of tables")]
    TooLarge {
        /// Its cells.
        cells: usize,
    },
    /// No workers were asked for.
    #[error("a distributed search needs at least one worker")]
    NoWorkers,
    /// timely could not start its workers.
    #[error("the workers could not start: {0}")]
    Start(String),
    /// A worker stopped before the search finished: on a cluster, most
    /// often another process died or became unreachable.
    #[error(
        "a worker stopped before the search finished (another process died or its connection was lost); run the same command again on every host"
    )]
    WorkerLost,
}

/// One finished layer, as every worker sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct ClusterLayer {
    /// The layer: boards at this distance.
    pub depth: u32,
    /// Its boards, over all workers.
    pub states: u64,
    /// Moves of the expansion of the layer before it, over all workers.
    pub moves: u64,
    /// Of those, the moves sent to another worker.
    pub sent: u64,
    /// Seconds since the search started.
    pub seconds: f64,
}

/// The part of a finished search that one worker owns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The worker, of all the cluster's.
    pub worker: usize,
    /// The tile orders it owns, for every blank cell.
    pub range: Range<u64>,
    /// Its entries: for each blank cell in turn, the distance mod 3 of
    /// every tile order of `range`, 2 bits each (low bits first), each
    /// cell's run padded with zero bits to a whole byte.
    pub entries: Vec<u8>,
    /// The first [`MAX_HARDEST`] boards it owns of the deepest layer, in
    /// index order.
    pub hardest: Vec<Index>,
}

/// A finished distributed search: the layer counts and this process's
/// parts.
#[derive(Clone, Debug)]
pub struct Distributed {
    /// States at each distance.
    pub layers: Vec<u64>,
    /// The parts of this process's workers.
    pub parts: Vec<Part>,
    /// Moves over the whole search, over all workers.
    pub moves: u64,
    /// Of those, the moves sent to another worker.
    pub sent: u64,
}

/// The tile orders each of `workers` workers owns: ranges of whole words
/// (64 tile orders), in worker order, together `0 .. per_blank`.
///
/// ```
/// use slidedb::table::owned_ranges;
/// let ranges = owned_ranges(20_160, 3);
/// assert_eq!(ranges[0].start, 0);
/// assert_eq!(ranges[2].end, 20_160);
/// assert!(ranges.iter().all(|r| r.start % 64 == 0));
/// ```
pub fn owned_ranges(per_blank: u64, workers: usize) -> Vec<Range<u64>> {
    let bound = |k: usize| {
        if k == workers {
            per_blank
        } else {
            (per_blank * k as u64 / workers as u64) / 64 * 64
        }
    };
    (0..workers).map(|k| bound(k)..bound(k + 1)).collect()
}

/// Runs the search toward `goal`'s class on `workers` threads of this
/// process, calling `on_layer` (from the first worker) after each layer.
///
/// ```
/// use slidedb::{Board, Shape, generate};
/// use slidedb::table::search_distributed;
/// let goal = Board::solved(Shape::new(2, 3).unwrap());
/// let run = search_distributed(&goal, 3, |_| {}).unwrap();
/// assert_eq!(run.parts.len(), 3);
/// assert_eq!(run.layers, generate(&goal, |_| {}).unwrap().layers());
/// ```
pub fn search_distributed(
    goal: &Board,
    workers: usize,
    on_layer: impl Fn(&ClusterLayer) + Send + Sync + 'static,
) -> Result<Distributed, DistributedError> {
    if workers == 0 {
        return Err(DistributedError::NoWorkers);
    }
    let hooks = Hooks::default();
    let builders = ProcessBuilder::new_typed_vector(workers, hooks.refill, hooks.spill)
        .into_iter()
        .map(AllocatorBuilder::Process)
        .collect();
    run(goal, builders, Box::new(()), on_layer)
}

/// Runs the search on the workers `builders` make; the shared part of the
/// one-process and the cluster runs.
fn run(
    goal: &Board,
    builders: Vec<AllocatorBuilder>,
    others: Box<dyn std::any::Any + Send>,
    on_layer: impl Fn(&ClusterLayer) + Send + Sync + 'static,
) -> Result<Distributed, DistributedError> {
    let cells = goal.shape().cells();
    if cells > MAX_TABLE_CELLS {
        return Err(DistributedError::TooLarge { cells });
    }
    let class = GoalClass::of(goal);
    let canonical = *class.canonical();
    let on_layer = Arc::new(on_layer);
    let guards =
        timely::execute::execute_from(builders, others, WorkerConfig::default(), move |worker| {
            work(worker, &canonical, &*on_layer)
        })
        .map_err(DistributedError::Start)?;
    let results = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| guards.join()))
        .map_err(|_| DistributedError::WorkerLost)?;
    let mut finished = Vec::new();
    for result in results {
        finished.push(result.map_err(|_| DistributedError::WorkerLost)?);
    }
    let first = finished.first().ok_or(DistributedError::NoWorkers)?;
    let (layers, moves, sent) = (first.layers.clone(), first.moves, first.sent);
    Ok(Distributed {
        layers,
        moves,
        sent,
        parts: finished.into_iter().map(|f| f.part).collect(),
    })
}

/// What a worker returns.
struct Finished {
    layers: Vec<u64>,
    moves: u64,
    sent: u64,
    part: Part,
}

/// The global figures of one epoch, summed over the workers' reports.
#[derive(Clone, Copy, Default, serde::Serialize, serde::Deserialize)]
struct Totals {
    states: u64,
    moves: u64,
    sent: u64,
}

/// One worker's search (see the [module docs](self)).
fn work(worker: &mut Worker, goal: &Board, on_layer: &dyn Fn(&ClusterLayer)) -> Finished {
    let start = Instant::now();
    let me = worker.index();
    let peers = worker.peers();
    let indexer = Indexer::new(goal);
    let per_blank = indexer.per_blank();
    let ranges = owned_ranges(per_blank, peers);
    let range = ranges[me].clone();
    let search = Search::new(&indexer, false);
    let mut own = Owned::new(&search, &indexer, goal, range.clone());

    let owners: Vec<u64> = ranges.iter().map(|r| r.end).collect();
    let route = move |index: &u64| owners.partition_point(|&end| end <= index % per_blank) as u64;

    let mut targets = InputHandleVec::<u64, u64>::new();
    let mut reports = InputHandleVec::<u64, (u64, Totals)>::new();
    let probe = ProbeHandle::<u64>::new();
    let arrived: Rc<RefCell<HashMap<u64, Vec<u64>>>> = Rc::default();
    let totals: Rc<RefCell<HashMap<u64, Totals>>> = Rc::default();
    worker.dataflow::<u64, _, _>(|scope| {
        let arrived = Rc::clone(&arrived);
        scope
            .input_from(&mut targets)
            .unary::<timely::container::CapacityContainerBuilder<Vec<()>>, _, _, _>(
                ExchangePact::new(route),
                "Arrive",
                |_capability, _info| {
                    move |input, _output| {
                        input.for_each_stamp(|time, batches| {
                            let mut arrived = arrived.borrow_mut();
                            let epoch = *time.least().expect("a stamp has a time");
                            let into = arrived.entry(epoch).or_default();
                            for batch in batches {
                                into.append(batch);
                            }
                        });
                    }
                },
            )
            .probe_with(&probe);
        let totals = Rc::clone(&totals);
        scope
            .input_from(&mut reports)
            .broadcast()
            .inspect(move |&(epoch, report): &(u64, Totals)| {
                let mut totals = totals.borrow_mut();
                let sum = totals.entry(epoch).or_default();
                sum.states += report.states;
                sum.moves += report.moves;
                sum.sent += report.sent;
            })
            .probe_with(&probe);
    });
    let mut layers = Vec::new();
    let (mut moves, mut sent) = (0u64, 0u64);
    let mut hardest = Vec::new();
    let mut count = own.root_count();
    let mut last = Totals::default();
    let mut epoch = 0u64;
    loop {
        reports.send((
            epoch,
            Totals {
                states: count,
                moves: last.moves,
                sent: last.sent,
            },
        ));
        let layer_hardest = own.first_boards(epoch as u32);
        let mut here = Totals::default();
        let found = own.expand(epoch as u32, |index| {
            targets.send(index);
            here.sent += 1;
        });
        here.moves = found.moves;
        last = here;
        targets.advance_to(epoch + 1);
        reports.advance_to(epoch + 1);
        worker.step_or_park_while(None, || probe.less_than(&(epoch + 1)));
        let sum = totals.borrow_mut().remove(&epoch).unwrap_or_default();
        if epoch > 0 {
            moves += sum.moves;
            sent += sum.sent;
        }
        if sum.states == 0 {
            break;
        }
        layers.push(sum.states);
        hardest = layer_hardest;
        if me == 0 {
            on_layer(&ClusterLayer {
                depth: epoch as u32,
                states: sum.states,
                moves: sum.moves,
                sent: sum.sent,
                seconds: start.elapsed().as_secs_f64(),
            });
        }
        let received = arrived.borrow_mut().remove(&epoch).unwrap_or_default();
        count = found.claimed + own.claim_all(epoch as u32 + 1, &received);
        epoch += 1;
    }
    drop((targets, reports));
    Finished {
        layers,
        moves,
        sent,
        part: Part {
            worker: me,
            range,
            entries: own.entries(),
            hardest,
        },
    }
}

/// What an expansion did.
struct Expanded {
    /// Moves made (to any worker's boards).
    moves: u64,
    /// New boards of its own it claimed.
    claimed: u64,
}

/// The boards one worker owns: their distances mod 3 and the frontier.
struct Owned<'s, 'a> {
    search: &'s Search<'a>,
    range: Range<u64>,
    per_blank: u64,
    cells: usize,
    cols: usize,
    /// Frontier words a cell (64 tile orders each).
    words: usize,
    /// For each cell, `2 × words` words of entries (residue ^ 3; 0 is not
    /// reached), as in the two-bit search.
    residues: Vec<u64>,
    /// For each cell, `words` words of frontier bits.
    frontier: Vec<u64>,
    root: u64,
    root_colour: usize,
}

impl<'s, 'a> Owned<'s, 'a> {
    fn new(
        search: &'s Search<'a>,
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

    /// Claims the goal if this worker owns it: layer 0's count here.
    fn root_count(&mut self) -> u64 {
        self.claim_all(0, &[self.root])
    }

    /// Whether a cell's blanks are in layer `depth`'s colour.
    fn in_layer(&self, cell: usize, depth: u32) -> bool {
        (cell / self.cols + cell % self.cols) % 2 == self.root_colour ^ (depth as usize % 2)
    }

    /// Claims boards (global indices this worker owns) as layer `depth`;
    /// how many were new.
    fn claim_all(&mut self, depth: u32, indices: &[u64]) -> u64 {
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
    fn first_boards(&self, depth: u32) -> Vec<Index> {
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

    /// Expands layer `depth`: claims its own new boards as layer
    /// `depth + 1`, and gives the others' (global indices) to `send`.
    fn expand(&mut self, depth: u32, mut send: impl FnMut(u64)) -> Expanded {
        let stored = ((depth + 1) % 3) as u64 ^ 3;
        let (words, per_blank, lo, hi) =
            (self.words, self.per_blank, self.range.start, self.range.end);
        let search = self.search;
        let mut odometer = Odometer::new(search);
        let mut done = Expanded {
            moves: 0,
            claimed: 0,
        };
        let cells: Vec<usize> = (0..self.cells)
            .filter(|&c| self.in_layer(c, depth))
            .collect();
        for cell in cells {
            let row_start = cell - cell % self.cols;
            let beside = [cell.wrapping_sub(1), cell + 1];
            let beside: Vec<usize> = beside
                .into_iter()
                .filter(|&c| c >= row_start && c < row_start + self.cols)
                .collect();
            let verticals: Vec<_> = search.verticals(cell).copied().collect();
            for w in 0..words {
                let f = std::mem::take(&mut self.frontier[cell * words + w]);
                if f == 0 {
                    continue;
                }
                // Horizontal: the same tile orders, 64 at a time.
                for &to in &beside {
                    done.moves += f.count_ones() as u64;
                    let at = to * 2 * words + 2 * w;
                    let (low, high) = (self.residues[at], self.residues[at + 1]);
                    let open = compact(unreached(low)) | (compact(unreached(high)) << 32);
                    let new = f & open;
                    self.residues[at] = low | (spread(new & 0xFFFF_FFFF) * stored);
                    self.residues[at + 1] = high | (spread(new >> 32) * stored);
                    self.frontier[to * words + w] |= new;
                    done.claimed += new.count_ones() as u64;
                }
                // Vertical: by rank arithmetic, here or sent.
                let mut bits = f;
                while bits != 0 {
                    let h = lo + (w * 64) as u64 + bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    let digits = odometer.at(h);
                    for v in &verticals {
                        done.moves += 1;
                        let to_h = search.vertical(h, digits, v);
                        if (lo..hi).contains(&to_h) {
                            done.claimed += self.claim(v.to, to_h - lo, stored) as u64;
                        } else {
                            send(v.to as u64 * per_blank + to_h);
                        }
                    }
                }
            }
        }
        done
    }

    /// The entries, as [`Part::entries`] lays them out.
    fn entries(&self) -> Vec<u8> {
        let len = (self.range.end - self.range.start) as usize;
        let run = len.div_ceil(4);
        let mut out = Vec::with_capacity(self.cells * run);
        for cell in 0..self.cells {
            let words = &self.residues[cell * 2 * self.words..(cell + 1) * 2 * self.words];
            let bytes = words.iter().flat_map(|w| (w ^ u64::MAX).to_le_bytes());
            out.extend(bytes.take(run));
            if !len.is_multiple_of(4) {
                let last = out.last_mut().expect("a run of a partial byte");
                *last &= (1u8 << (2 * (len % 4))) - 1;
            }
        }
        out
    }
}

/// The table the parts of a finished search make, byte for byte the one
/// [`generate`](super::generate()) builds: `parts` are every worker's, in
/// any order.
///
/// ```
/// use slidedb::{Board, Shape, generate};
/// use slidedb::table::{search_distributed, table_from_parts};
/// let goal = Board::solved(Shape::new(2, 3).unwrap());
/// let run = search_distributed(&goal, 2, |_| {}).unwrap();
/// let table = table_from_parts(&goal, &run.layers, &run.parts);
/// assert_eq!(table.as_bytes(), generate(&goal, |_| {}).unwrap().as_bytes());
/// ```
pub fn table_from_parts(goal: &Board, layers: &[u64], parts: &[Part]) -> Table<Vec<u8>> {
    let class = GoalClass::of(goal);
    let indexer = Indexer::new(class.canonical());
    let per_blank = indexer.per_blank();
    let cells = indexer.shape().cells();
    let mut body = vec![0u8; indexer.len().div_ceil(4) as usize];
    let mut hardest: Vec<Index> = Vec::new();
    for part in parts {
        let len = part.range.end - part.range.start;
        let run = len.div_ceil(4) as usize;
        for cell in 0..cells {
            let from = &part.entries[cell * run..(cell + 1) * run];
            let first = cell as u64 * per_blank + part.range.start;
            if first.is_multiple_of(4) && len.is_multiple_of(4) {
                let at = (first / 4) as usize;
                body[at..at + run].copy_from_slice(from);
            } else {
                for j in 0..len {
                    let r = (from[(j / 4) as usize] >> (2 * (j % 4))) & 3;
                    let i = first + j;
                    body[(i / 4) as usize] |= r << (2 * (i % 4));
                }
            }
        }
        hardest.extend(&part.hardest);
    }
    hardest.sort_unstable();
    hardest.truncate(MAX_HARDEST);
    let hardest: Vec<Board> = hardest
        .into_iter()
        .map(|i| indexer.unrank(i).expect("a part's board is in the index"))
        .collect();
    assemble(&class, layers.to_vec(), &hardest, &body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::table::generate;

    #[test]
    fn any_number_of_workers_builds_the_generated_table() {
        for (rows, cols, goal) in [
            (2, 2, None),
            (2, 3, None),
            (3, 2, Some("1 2 / 3 0 / 4 5")),
            (3, 3, Some("0 1 2 / 3 4 5 / 6 7 8")),
            (2, 4, None),
        ] {
            let goal: Board = match goal {
                Some(text) => text.parse().unwrap(),
                None => Board::solved(Shape::new(rows, cols).unwrap()),
            };
            let expected = generate(&goal, |_| {}).unwrap();
            for workers in [1, 2, 3, 5] {
                let run = search_distributed(&goal, workers, |_| {}).unwrap();
                assert_eq!(run.layers, expected.layers(), "{goal} on {workers}");
                let table = table_from_parts(&goal, &run.layers, &run.parts);
                assert!(
                    table.as_bytes() == expected.as_bytes(),
                    "{goal} on {workers} workers: the bytes differ"
                );
                assert!(run.sent <= run.moves);
                let per_blank = Indexer::new(&goal).per_blank();
                let owners = owned_ranges(per_blank, workers)
                    .iter()
                    .filter(|r| !r.is_empty())
                    .count();
                assert_eq!(run.sent == 0, owners == 1, "{goal} on {workers}");
            }
        }
    }
}
