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
//! A worker claims the moves it receives as they arrive, between blocks
//! of its own expansion, so its memory is the two-bit search's for its
//! part: 2 bits of distance mod 3 and 1 frontier bit a board it owns,
//! plus the moves in flight (bounded by how often it steps the dataflow).
//! Claiming early is safe because the board graph is bipartite by the
//! blank's colour: the moves of layer d land on boards of the other
//! colour from layer d's, which layer d's own expansion only adds to.
//!
//! # Failures
//!
//! Timely's communication threads panic at any error of a connection, and
//! the panics cascade (into an abort, at worst), so the connections handed
//! to timely are [`NetStream`](link::NetStream)s that never fail (see
//! [`Link`](link::Link)): every write is a frame, a heartbeat thread sends
//! a heartbeat when a connection has nothing else to send, and the reading
//! side hands timely whole messages only. A connection that fails, that the
//! other process closes, or on which it is silent for
//! [`Cluster::peer_timeout`] stops the search ([`Stop`]): the workers
//! leave the dataflow, each connection ends timely's stream as a clean end
//! would, the other processes are told why, and [`search_cluster`] returns
//! the error naming the process and the layer.
//!
//! # Checkpoints
//!
//! With [`Cluster::checkpoints`], worker 0 asks, in its count of a layer,
//! for a checkpoint once the interval has passed; every worker sees the
//! request with the counts, so all of them write their state at the start
//! of the same next layer (file kind 7, `FORMAT.md`), each into the older
//! of its two slots. A process that starts tells the others which
//! checkpoints all its workers hold whole, in its hello; the cluster goes
//! on from the deepest one every worker holds, in that run, or starts a
//! new run when there is none.

use std::io;
use std::net::TcpStream;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::initialize::Hooks;

use crate::board::Board;
use crate::goals::Goals;
use crate::rank::{Index, Indexer};
use crate::symmetry::GoalClass;

pub(crate) mod checkpoint;
mod link;
mod network;
mod owned;
#[cfg(test)]
mod parts;
mod stop;
mod worker;

use crate::table::MAX_TABLE_CELLS;

use checkpoint::{Expect, Saved, checkpoint_name, read_checkpoint};
use link::{Allocators, Heartbeat, networked};
use network::{Held, connect, fingerprint};
#[cfg(test)]
use parts::table_from_parts;
use stop::Stop;
use worker::{Setup, run_workers};

/// What went wrong in a distributed search.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DistributedError {
    /// The board is larger than any table.
    #[error(
        "a {cells}-cell board is past the {MAX_TABLE_CELLS}-cell limit of tables: build pattern databases for it instead"
    )]
    TooLarge {
        /// Its cells.
        cells: usize,
    },
    /// No workers were asked for.
    #[error("a distributed search needs at least one worker")]
    NoWorkers,
    /// The cluster could not be formed.
    #[error(transparent)]
    Connect(#[from] ConnectError),
    /// timely could not start its workers.
    #[error("the workers could not start: {0}")]
    Start(String),
    /// A checkpoint this process agreed to go on from could not be read.
    #[error("{path} cannot be read to go on from: {why}; remove it to start over")]
    Checkpoint {
        /// The checkpoint.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// This process lost another one during the search: it closed the
    /// connection (it died), the connection failed, or it sent nothing
    /// for [`Cluster::peer_timeout`] (stopped, hung or cut off).
    #[error(
        "lost process {process} ({address}) during layer {layer}: {why}; start the search again on every process, and it goes on from the last checkpoints"
    )]
    PeerLost {
        /// The other process.
        process: usize,
        /// Its address.
        address: String,
        /// The layer this process was on.
        layer: u32,
        /// What happened to it.
        why: String,
    },
    /// Another process stopped the search and said why (most often it
    /// lost a third one).
    #[error(
        "process {process} ({address}) stopped the search during layer {layer}: {why}; start the search again on every process, and it goes on from the last checkpoints"
    )]
    PeerStopped {
        /// The process that stopped.
        process: usize,
        /// Its address.
        address: String,
        /// The layer this process was on.
        layer: u32,
        /// Its reason.
        why: String,
    },
    /// A worker thread of this process panicked: a bug.
    #[error(
        "worker {worker} stopped the search: it panicked ({message}); this is a bug in slidedb, please report it"
    )]
    WorkerPanicked {
        /// The worker, of all the cluster's.
        worker: usize,
        /// What it said.
        message: String,
    },
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
    /// Bytes this process has sent to other processes so far, on the
    /// wire (0 in one process).
    pub bytes_sent: u64,
    /// Bytes it has received from them so far.
    pub bytes_received: u64,
}

/// What a search reports while it runs.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ClusterEvent {
    /// The search goes on from its workers' checkpoints at the start of
    /// layer `depth`, in run `run` (before any layer).
    Resumed {
        /// The layer the checkpoints hold.
        depth: u32,
        /// Their run.
        run: u64,
    },
    /// A checkpoint slot of this process's was not used (damaged, of
    /// another build, or not held by every worker): what it is and why.
    Ignored {
        /// The slot's file.
        path: PathBuf,
        /// Why it was not used.
        why: String,
    },
    /// A layer finished (reported by each process's first worker).
    Layer(ClusterLayer),
    /// A worker of this process could not write its checkpoint at the
    /// start of layer `depth` (it goes on; its older checkpoint is as it
    /// was).
    CheckpointFailed {
        /// The worker, of all the cluster's.
        worker: usize,
        /// The layer.
        depth: u32,
        /// What went wrong.
        why: String,
    },
    /// A worker of this process wrote its checkpoint at the start of
    /// layer `depth`.
    Checkpointed {
        /// The worker, of all the cluster's.
        worker: usize,
        /// The layer.
        depth: u32,
        /// The file's bytes.
        bytes: u64,
        /// Seconds the writing took.
        seconds: f64,
    },
}

/// Where a distributed search keeps its checkpoints, and how often it
/// writes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoints {
    /// The directory (each worker's two slots, `FORMAT.md` kind 7).
    pub dir: PathBuf,
    /// The interval: a checkpoint at the start of the second layer after
    /// this has passed since the last (or the start); zero checkpoints
    /// every layer.
    pub every: Duration,
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
    /// The first 1,000 boards it owns
    /// of the deepest layer, in index order.
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
    /// The run: a number process 0 chose, the same on every process.
    pub run: u64,
    /// The layer this search went on from, if it started from checkpoints.
    pub resumed: Option<u32>,
    /// The first 1,000 boards of the
    /// deepest layer, over all workers, in index order.
    pub hardest: Vec<Index>,
    /// Every worker's part, in worker order (this process's and the
    /// others').
    pub shards: Vec<ShardSum>,
    /// Bytes this process sent to the others (headers and timely's
    /// progress messages included; 0 in one process).
    pub bytes_sent: u64,
    /// Bytes it received from them.
    pub bytes_received: u64,
}

/// The tile orders each of `workers` workers owns: ranges of whole words
/// (64 tile orders), in worker order, together `0 .. per_blank`.
///
/// ```
/// use slidedb::build::owned_ranges;
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
/// process, calling `on_event` as it goes; no checkpoints (see
/// [`search_cluster`] with no addresses for those).
#[cfg(test)]
pub(crate) fn search_distributed(
    goal: &Board,
    workers: usize,
    on_event: impl Fn(&ClusterEvent) + Send + Sync + 'static,
) -> Result<Distributed, DistributedError> {
    let alone = Cluster {
        addresses: Vec::new(),
        process: 0,
        workers,
        connect_timeout: Duration::ZERO,
        peer_timeout: Duration::ZERO,
        checkpoints: None,
    };
    search_cluster(goal, &alone, on_event)
}

/// A number for a new run, to tell its files from another run's: the
/// clock, the process id and where this stack lies, mixed.
fn new_run() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let here = 0u8;
    let place = &here as *const u8 as u64;
    let mut x = nanos ^ (std::process::id() as u64).rotate_left(32) ^ place.rotate_left(17);
    // splitmix64's finaliser spreads the bits.
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (x ^ (x >> 31)).max(1)
}

/// Where this process stands in a cluster: every process is given the
/// same `addresses` (process `i` listens on `addresses[i]`) and its own
/// `process`. No addresses: this process alone, with no network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// `host:port` of each process, in process order (none: one process).
    pub addresses: Vec<String>,
    /// This process: an index into `addresses`.
    pub process: usize,
    /// Worker threads in each process (the same on every process).
    pub workers: usize,
    /// How long to wait for the other processes to connect.
    pub connect_timeout: Duration,
    /// How long a process may send nothing during the search before the
    /// others give it up as lost (stopped, hung, or its host cut off) and
    /// stop with [`DistributedError::PeerLost`]. Every process says
    /// something at least every 2 s, whatever it is doing (a layer, a
    /// checkpoint), so a minute is plenty; zero waits forever (a host
    /// that becomes unreachable is still noticed by TCP, within about a
    /// minute).
    pub peer_timeout: Duration,
    /// Where to keep checkpoints and go on from them (none: start anew
    /// and write none).
    pub checkpoints: Option<Checkpoints>,
}

/// Why a cluster could not be formed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConnectError {
    /// `process` is not an index into the addresses.
    #[error(
        "process {process} is not one of the {processes} lines of the hosts list (they count from 0)"
    )]
    NoSuchProcess {
        /// The process asked for.
        process: usize,
        /// Lines in the list.
        processes: usize,
    },
    /// Two processes were given the same address.
    #[error(
        "processes {first} and {second} both have the address {address} in the hosts list: give every process its own host:port"
    )]
    Duplicate {
        /// The address.
        address: String,
        /// The first process (line, from 0) with it.
        first: usize,
        /// The second.
        second: usize,
    },
    /// An address could not be resolved or listened on.
    #[error("cannot listen on {address} (line {line} of the hosts list): {source}")]
    Listen {
        /// The address.
        address: String,
        /// Its line, counting from 0 (the process number).
        line: usize,
        /// The cause.
        source: io::Error,
    },
    /// A process did not connect in time.
    #[error(
        "process {process} ({address}) did not connect within {seconds} s{why}: start it with the same hosts list, as process {process}"
    )]
    Timeout {
        /// The missing process.
        process: usize,
        /// Its address.
        address: String,
        /// The time waited.
        seconds: u64,
        /// What the last attempt to reach it said, if this process was
        /// the one to connect (as `" (last: …)"`), else empty.
        why: String,
    },
    /// Another process runs a different command.
    #[error(
        "process {process} ({address}) {what}: start every process on the same build (size, goal, hosts list and workers), each as its own process number"
    )]
    Mismatch {
        /// The other process.
        process: usize,
        /// Its address.
        address: String,
        /// What differs.
        what: String,
    },
    /// A process that had connected stopped (its connection closed or
    /// failed) while this one waited for the others.
    #[error(
        "process {process} ({address}) stopped while the processes were connecting: start every process again"
    )]
    Left {
        /// The process that stopped.
        process: usize,
        /// Its address.
        address: String,
    },
    /// A connection failed while it was being set up.
    #[error("the connection with process {process} ({address}) failed: {source}")]
    Io {
        /// The other process.
        process: usize,
        /// Its address.
        address: String,
        /// The cause.
        source: io::Error,
    },
}

/// Runs the search as process `cluster.process` of a cluster: it reads
/// its workers' checkpoints, waits for the others (up to
/// `cluster.connect_timeout`), then searches with them, from the deepest
/// checkpoint every worker holds or from the start, calling `on_event` as
/// it goes. The result holds this process's parts. Every process takes
/// the run number of the checkpoints it goes on from, or else process
/// 0's ([`Distributed::run`]). With no addresses, this process searches
/// alone.
///
/// ```
/// use std::time::Duration;
/// use slidedb::{Board, Shape, generate};
/// use slidedb::build::{Checkpoints, Cluster, ClusterEvent, search_cluster};
/// let dir = tempfile::tempdir().unwrap();
/// let alone = Cluster {
///     addresses: vec![], // or one "host:port" a process, the same list on each
///     process: 0,
///     workers: 2,
///     connect_timeout: Duration::from_secs(60),
///     peer_timeout: Duration::from_secs(60),
///     checkpoints: Some(Checkpoints { dir: dir.path().into(), every: Duration::ZERO }),
/// };
/// let goal = Board::solved(Shape::new(2, 3).unwrap());
/// let first = search_cluster(&goal, &alone, |_| {}).unwrap();
/// assert_eq!(first.resumed, None);
/// // The same command again goes on from the last checkpoints.
/// let again = search_cluster(&goal, &alone, |_| {}).unwrap();
/// assert_eq!(again.resumed, Some(first.layers.len() as u32)); // the empty layer
/// assert_eq!((again.run, &again.parts), (first.run, &first.parts));
/// ```
pub fn search_cluster(
    goal: &Board,
    cluster: &Cluster,
    on_event: impl Fn(&ClusterEvent) + Send + Sync + 'static,
) -> Result<Distributed, DistributedError> {
    check(goal, cluster)?;
    let layout = Layout::new(goal, cluster);
    let checkpoints = cluster.checkpoints.as_ref();
    let slots = layout.held(checkpoints, &on_event);

    // Agree with the other processes on the run and the checkpoints to go
    // on from: the deepest every worker holds.
    let held = common(&slots);
    let (streams, run, all_held) = if cluster.addresses.is_empty() {
        (None, new_run(), vec![held])
    } else {
        let connected = connect(cluster, fingerprint(goal), new_run(), held)?;
        (
            Some((connected.streams, connected.beat)),
            connected.run,
            connected.held,
        )
    };
    let resume = common(&all_held)
        .into_iter()
        .flatten()
        .max_by_key(|h| h.depth);
    let saved = layout.saved(checkpoints, &slots, resume)?;
    let run = resume.map_or(run, |h| h.run);
    if let Some(resume) = resume {
        on_event(&ClusterEvent::Resumed {
            depth: resume.depth,
            run,
        });
    }

    let sent = Arc::new(AtomicU64::new(0));
    let received = Arc::new(AtomicU64::new(0));
    let setup = Setup {
        run,
        process: cluster.process,
        workers: cluster.workers,
        goals: layout.goals.clone(),
        checkpoints: cluster.checkpoints.clone(),
        bytes: (Arc::clone(&sent), Arc::clone(&received)),
        saved: Mutex::new(saved),
        stop: Arc::new(Stop::new(cluster.addresses.clone())),
    };
    let ((builders, others), heartbeat) =
        allocators(cluster, streams, &setup.stop, (sent, received))?;
    let result = run_workers(goal, builders, others, setup, on_event);
    // Timely's threads have ended: the connections are done with.
    drop(heartbeat);
    let mut result = result?;
    result.resumed = resume.map(|h| h.depth);
    Ok(result)
}

/// Refuses what no cluster can search: no workers, a board past the
/// tables' limit, a process not in the list, two processes at one
/// address.
fn check(goal: &Board, cluster: &Cluster) -> Result<(), DistributedError> {
    if cluster.workers == 0 {
        return Err(DistributedError::NoWorkers);
    }
    let cells = goal.shape().cells();
    if cells > MAX_TABLE_CELLS {
        return Err(DistributedError::TooLarge { cells });
    }
    let processes = cluster.addresses.len().max(1);
    let process = cluster.process;
    if process >= processes {
        return Err(ConnectError::NoSuchProcess {
            process,
            processes: cluster.addresses.len(),
        }
        .into());
    }
    // Every process is given the same list: each finds a repeated
    // address at once, before it listens.
    let key = |address: &String| address.trim().to_ascii_lowercase();
    for (second, address) in cluster.addresses.iter().enumerate() {
        if let Some(first) = cluster.addresses[..second]
            .iter()
            .position(|other| key(other) == key(address))
        {
            return Err(ConnectError::Duplicate {
                address: address.clone(),
                first,
                second,
            }
            .into());
        }
    }
    Ok(())
}

/// Where this process's workers stand among the cluster's: what each
/// owns, and what its checkpoints must hold.
struct Layout {
    /// The goals every file of the build records.
    goals: Goals,
    /// The board's cells.
    cells: usize,
    /// Every worker's tile orders, in worker order.
    ranges: Vec<Range<u64>>,
    /// This process's workers, of the cluster's.
    local: Range<usize>,
}

impl Layout {
    /// The layout of `cluster`'s search toward `goal`'s class.
    fn new(goal: &Board, cluster: &Cluster) -> Layout {
        let class = GoalClass::of(goal);
        let indexer = Indexer::new(class.canonical());
        let (process, workers) = (cluster.process, cluster.workers);
        let processes = cluster.addresses.len().max(1);
        Layout {
            goals: Goals::new(&class),
            cells: goal.shape().cells(),
            ranges: owned_ranges(indexer.per_blank(), processes * workers),
            local: process * workers..(process + 1) * workers,
        }
    }

    /// What worker `worker`'s checkpoints must hold.
    fn expect(&self, worker: usize) -> Expect<'_> {
        let range = self.ranges[worker].clone();
        let words = (range.end - range.start).div_ceil(64) as usize;
        Expect {
            goals: &self.goals,
            workers: self.ranges.len(),
            worker,
            range,
            words: (self.cells * 2 * words, self.cells * words),
        }
    }

    /// Worker `worker`'s checkpoint slot `slot` in `dir`.
    fn slot_path(&self, dir: &Path, worker: usize, slot: usize) -> PathBuf {
        dir.join(checkpoint_name(worker, self.ranges.len(), slot))
    }

    /// The checkpoints each of this process's workers holds whole, in
    /// its two slots (none without `checkpoints`); a slot that is there
    /// but not whole is told to `on_event`.
    fn held(
        &self,
        checkpoints: Option<&Checkpoints>,
        on_event: &dyn Fn(&ClusterEvent),
    ) -> Vec<[Option<Held>; 2]> {
        let mut slots: Vec<[Option<Held>; 2]> = vec![[None; 2]; self.local.len()];
        let Some(checkpoints) = checkpoints else {
            return slots;
        };
        for (worker, held) in self.local.clone().zip(&mut slots) {
            for (slot, held) in held.iter_mut().enumerate() {
                let path = self.slot_path(&checkpoints.dir, worker, slot);
                match read_checkpoint(&path, &self.expect(worker), false) {
                    Ok(None) => {}
                    Ok(Some(saved)) => {
                        *held = Some(Held {
                            depth: saved.metadata.depth,
                            run: saved.metadata.part.run,
                        })
                    }
                    Err(why) => on_event(&ClusterEvent::Ignored { path, why }),
                }
            }
        }
        slots
    }

    /// Each of this process's workers' checkpoint to go on from (its
    /// slot, of those `slots` says it holds, and its state) when the
    /// cluster agreed to `resume`; else its slots cleared for a new run.
    fn saved(
        &self,
        checkpoints: Option<&Checkpoints>,
        slots: &[[Option<Held>; 2]],
        resume: Option<Held>,
    ) -> Result<Vec<Option<(usize, Saved)>>, DistributedError> {
        let mut saved = Vec::with_capacity(self.local.len());
        for (worker, held) in self.local.clone().zip(slots) {
            let Some(checkpoints) = checkpoints else {
                saved.push(None);
                continue;
            };
            match resume {
                Some(resume) => {
                    let slot = held
                        .iter()
                        .position(|h| *h == Some(resume))
                        .expect("every worker holds the agreed checkpoint");
                    let path = self.slot_path(&checkpoints.dir, worker, slot);
                    let state = read_checkpoint(&path, &self.expect(worker), true)
                        .and_then(|s| s.ok_or_else(|| "it has gone".to_string()))
                        .map_err(|why| DistributedError::Checkpoint {
                            path: path.clone(),
                            why,
                        })?;
                    saved.push(Some((slot, state)));
                }
                None => {
                    for slot in 0..2 {
                        let path = self.slot_path(&checkpoints.dir, worker, slot);
                        match std::fs::remove_file(&path) {
                            Err(e) if e.kind() != io::ErrorKind::NotFound => {
                                return Err(DistributedError::Checkpoint {
                                    path,
                                    why: format!("cannot remove it to start a new run: {e}"),
                                });
                            }
                            _ => {}
                        }
                    }
                    saved.push(None);
                }
            }
        }
        Ok(saved)
    }
}

/// Timely's allocators for `cluster`'s workers: of this process alone, or
/// over the connections `streams` with their heartbeat every so often
/// (the heartbeat's thread, to drop once timely's threads have ended).
fn allocators(
    cluster: &Cluster,
    streams: Option<(Vec<Option<TcpStream>>, Duration)>,
    stop: &Arc<Stop>,
    bytes: (Arc<AtomicU64>, Arc<AtomicU64>),
) -> Result<(Allocators, Option<Heartbeat>), DistributedError> {
    match streams {
        None => {
            let hooks = Hooks::default();
            let builders =
                ProcessBuilder::new_typed_vector(cluster.workers, hooks.refill, hooks.spill)
                    .into_iter()
                    .map(AllocatorBuilder::Process)
                    .collect();
            Ok(((builders, Box::new(())), None))
        }
        Some((streams, every)) => {
            let timeout = (!cluster.peer_timeout.is_zero()).then_some(cluster.peer_timeout);
            let (allocators, beating) = networked(
                streams,
                every,
                (cluster.process, cluster.workers),
                timeout,
                stop,
                bytes,
            )?;
            Ok((allocators, Some(beating)))
        }
    }
}

/// The checkpoints every one of `sets` holds.
fn common(sets: &[[Option<Held>; 2]]) -> [Option<Held>; 2] {
    let Some(first) = sets.first() else {
        return [None; 2];
    };
    let mut out = [None; 2];
    for (k, held) in first.iter().enumerate() {
        if held.is_some() && sets.iter().all(|set| set.contains(held)) && !out[..k].contains(held) {
            out[k] = *held;
        }
    }
    out
}

/// One worker's part as every worker knows it at the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardSum {
    /// The worker.
    pub worker: usize,
    /// Its tile orders.
    pub range: Range<u64>,
    /// The length of its [`Part::entries`].
    pub len: u64,
    /// Their CRC-32.
    pub crc: u32,
}
