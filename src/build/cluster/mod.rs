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
//! Timely's communication threads panic at any error of a connection,
//! and the panics cascade (into an abort, at worst), so the connections
//! handed to timely are [`NetStream`]s that never fail (see [`Link`]):
//! every write is a frame, a heartbeat thread sends a heartbeat when a
//! connection has nothing else to send, and the reading side hands timely
//! whole messages only. A connection that fails, that the other process
//! closes, or on which it is silent for [`Cluster::peer_timeout`] stops
//! the search ([`Stop`]): the workers leave the dataflow, each connection
//! ends timely's stream as a clean end would, the other processes are
//! told why, and [`search_cluster`] returns the error naming the process
//! and the layer.
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

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use timely::WorkerConfig;
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::initialize::Hooks;
use timely::communication::logging::CommunicationEvent;
use timely::dataflow::channels::pact::Exchange as ExchangePact;
use timely::dataflow::operators::vec::{Broadcast, Input};
use timely::dataflow::operators::{Inspect, Operator, Probe};
use timely::logging_core::Logger;

use timely::dataflow::{InputHandleVec, ProbeHandle};
use timely::worker::Worker;

use crate::board::Board;
use crate::goals::Goals;
use crate::rank::{Index, Indexer};
use crate::symmetry::GoalClass;

pub(crate) mod checkpoint;

use crate::bfs::MAX_HARDEST;
use crate::bfs::index::{IndexMoves, Odometer, compact, spread, unreached};
use crate::table::{MAX_TABLE_CELLS, Table, assemble};

use checkpoint::{
    Expect, Saved, WorkerCheckpoint, checkpoint_name, read_checkpoint, write_checkpoint,
};

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
    /// The run: a number process 0 chose, the same on every process.
    pub run: u64,
    /// The layer this search went on from, if it started from checkpoints.
    pub resumed: Option<u32>,
    /// The first [`MAX_HARDEST`] boards of the deepest layer, over all
    /// workers, in index order.
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
///
/// ```
/// use slidedb::{Board, Shape, generate};
/// use slidedb::build::search_distributed;
/// let goal = Board::solved(Shape::new(2, 3).unwrap());
/// let run = search_distributed(&goal, 3, |_| {}).unwrap();
/// assert_eq!(run.parts.len(), 3);
/// assert_eq!(run.layers, generate(&goal, |_| {}).unwrap().layers());
/// ```
pub fn search_distributed(
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
        "process {process} ({address}) did not connect within {seconds} s{why}: start it with the same hosts list and --process {process}"
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
        "process {process} ({address}) {what}: start every process with the same command but for --process"
    )]
    Mismatch {
        /// The other process.
        process: usize,
        /// Its address.
        address: String,
        /// What differs.
        what: String,
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

/// What two processes tell each other when they connect: who they are,
/// what they were asked to build (so that mismatched commands stop at
/// once), which checkpoints all their workers hold, and how long they
/// wait for a word from the others. 72 bytes: the magic, then
/// little-endian u32 version, process, processes, workers, u64
/// fingerprint, u64 run, two checkpoints, each u32 depth and u64 run
/// (depth `u32::MAX`: none), and the u64 peer timeout in milliseconds (0:
/// none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Hello {
    process: u32,
    processes: u32,
    workers: u32,
    fingerprint: u64,
    run: u64,
    held: [Option<Held>; 2],
    timeout_ms: u64,
}

/// A checkpoint: the layer it holds and its run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Held {
    depth: u32,
    run: u64,
}

const HELLO_MAGIC: &[u8; 8] = b"slidedbC";
/// What a peer whose hello lacks the magic is.
const NOT_SLIDEDB: &str = "is not a slidedb-gen process";
/// How long an accepted connection has to say hello.
const HELLO_WAIT: Duration = Duration::from_secs(5);
/// Version 3: the peer timeout in the hello, and the connections framed
/// with heartbeats (see [`Link`]).
const HELLO_VERSION: u32 = 3;
const HELLO_LEN: usize = 72;

impl Hello {
    fn to_bytes(self) -> [u8; HELLO_LEN] {
        let mut b = [0u8; HELLO_LEN];
        b[..8].copy_from_slice(HELLO_MAGIC);
        b[8..12].copy_from_slice(&HELLO_VERSION.to_le_bytes());
        b[12..16].copy_from_slice(&self.process.to_le_bytes());
        b[16..20].copy_from_slice(&self.processes.to_le_bytes());
        b[20..24].copy_from_slice(&self.workers.to_le_bytes());
        b[24..32].copy_from_slice(&self.fingerprint.to_le_bytes());
        b[32..40].copy_from_slice(&self.run.to_le_bytes());
        for (k, held) in self.held.iter().enumerate() {
            let at = 40 + 12 * k;
            let (depth, run) = held.map_or((u32::MAX, 0), |h| (h.depth, h.run));
            b[at..at + 4].copy_from_slice(&depth.to_le_bytes());
            b[at + 4..at + 12].copy_from_slice(&run.to_le_bytes());
        }
        b[64..72].copy_from_slice(&self.timeout_ms.to_le_bytes());
        b
    }

    fn from_bytes(b: &[u8; HELLO_LEN]) -> Result<Hello, String> {
        if &b[..8] != HELLO_MAGIC {
            return Err(NOT_SLIDEDB.into());
        }
        let u32_at = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"));
        let u64_at = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
        if u32_at(8) != HELLO_VERSION {
            return Err(format!(
                "speaks cluster protocol {} (this is {HELLO_VERSION})",
                u32_at(8)
            ));
        }
        let held = |at: usize| {
            (u32_at(at) != u32::MAX).then(|| Held {
                depth: u32_at(at),
                run: u64_at(at + 4),
            })
        };
        Ok(Hello {
            process: u32_at(12),
            processes: u32_at(16),
            workers: u32_at(20),
            fingerprint: u64_at(24),
            run: u64_at(32),
            held: [held(40), held(52)],
            timeout_ms: u64_at(64),
        })
    }
}

/// Connects this process with every other (it connects to the processes
/// before it and accepts the ones after), checks that they run the same
/// build, and sets TCP keepalive and user timeout so that TCP gives up a
/// host that stops acknowledging within about a minute, and the read and
/// write timeouts of [`tick`]. Returns the streams in process order
/// (`None` for this process), the run number of process 0, the
/// checkpoints each process holds (`held` for this one) and how often to
/// send heartbeats.
fn connect(
    cluster: &Cluster,
    fingerprint: u64,
    run: u64,
    held: [Option<Held>; 2],
) -> Result<Connected, ConnectError> {
    let processes = cluster.addresses.len();
    let me = cluster.process;
    if me >= processes {
        return Err(ConnectError::NoSuchProcess {
            process: me,
            processes,
        });
    }
    let address = |i: usize| cluster.addresses[i].clone();
    let listener =
        TcpListener::bind(address(me).as_str()).map_err(|source| ConnectError::Listen {
            address: address(me),
            line: me,
            source,
        })?;
    listener
        .set_nonblocking(true)
        .map_err(|source| ConnectError::Listen {
            address: address(me),
            line: me,
            source,
        })?;
    let deadline = Instant::now() + cluster.connect_timeout;
    let hello = Hello {
        process: me as u32,
        processes: processes as u32,
        workers: cluster.workers as u32,
        fingerprint,
        run,
        held,
        timeout_ms: cluster.peer_timeout.as_millis().min(u64::MAX as u128) as u64,
    };
    let mut streams: Vec<Option<TcpStream>> = (0..processes).map(|_| None).collect();
    let mut all_held = vec![held; processes];
    let mut timeouts = vec![hello.timeout_ms; processes];
    let mut run = run;
    let timeout = |process: usize, last: Option<io::Error>| ConnectError::Timeout {
        process,
        address: address(process),
        seconds: cluster.connect_timeout.as_secs(),
        why: last.map_or(String::new(), |e| format!(" (last: {e})")),
    };
    // One attempt to reach `process`, bounded in time.
    let attempt = |process: usize| -> io::Result<TcpStream> {
        use std::net::ToSocketAddrs;
        let left = deadline.saturating_duration_since(Instant::now());
        let limit = left.clamp(Duration::from_millis(100), Duration::from_secs(5));
        let mut last = io::Error::new(io::ErrorKind::NotFound, "the name resolves to no address");
        for addr in address(process).as_str().to_socket_addrs()? {
            match TcpStream::connect_timeout(&addr, limit) {
                Ok(stream) => return Ok(stream),
                Err(e) => last = e,
            }
        }
        Err(last)
    };
    // Exchanges hellos on a fresh stream; the other's, checked.
    let greet = |stream: &mut TcpStream, expect: Option<usize>| -> Result<Hello, ConnectError> {
        let io = |process: usize| {
            let address = address(process);
            move |source| ConnectError::Io {
                process,
                address,
                source,
            }
        };
        let who = expect.unwrap_or(me);
        stream.set_nonblocking(false).map_err(io(who))?;
        let mut left = deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_secs(1));
        if expect.is_none() {
            // Whoever connected speaks first or is dropped.
            left = left.min(HELLO_WAIT);
        }
        stream.set_read_timeout(Some(left)).map_err(io(who))?;
        stream.write_all(&hello.to_bytes()).map_err(io(who))?;
        let mut bytes = [0u8; HELLO_LEN];
        stream.read_exact(&mut bytes).map_err(io(who))?;
        stream.set_read_timeout(None).map_err(io(who))?;
        let theirs = Hello::from_bytes(&bytes).map_err(|what| ConnectError::Mismatch {
            process: who,
            address: address(who),
            what,
        })?;
        let process = theirs.process as usize;
        let mismatch = |what: String| ConnectError::Mismatch {
            process,
            address: address(process.min(processes - 1)),
            what,
        };
        if expect.is_some_and(|p| p != process) || process >= processes || process == me {
            return Err(mismatch(format!("says it is process {process}")));
        }
        if theirs.processes as usize != processes {
            return Err(mismatch(format!(
                "has {} hosts in its list, not {processes}",
                theirs.processes
            )));
        }
        if theirs.workers != hello.workers {
            let workers = |n: u32| format!("{n} worker{}", if n == 1 { "" } else { "s" });
            return Err(mismatch(format!(
                "has {}, not {}",
                workers(theirs.workers),
                workers(hello.workers)
            )));
        }
        if theirs.fingerprint != fingerprint {
            return Err(mismatch("builds another table (size or goal)".into()));
        }
        Ok(theirs)
    };
    for (process, slot) in streams.iter_mut().enumerate().take(me) {
        let mut stream = loop {
            match attempt(process) {
                Ok(stream) => break stream,
                Err(_) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(100))
                }
                Err(e) => return Err(timeout(process, Some(e))),
            }
        };
        let theirs = greet(&mut stream, Some(process))?;
        if process == 0 {
            run = theirs.run;
        }
        all_held[process] = theirs.held;
        timeouts[process] = theirs.timeout_ms;
        *slot = Some(stream);
    }
    let mut waiting = processes - me - 1;
    while waiting > 0 {
        let mut stream = loop {
            match listener.accept() {
                Ok((stream, _)) => break stream,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock && Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(50))
                }
                Err(_) => {
                    let missing = (me + 1..processes)
                        .find(|&p| streams[p].is_none())
                        .expect("one is missing");
                    return Err(timeout(missing, None));
                }
            }
        };
        // A connection that is not a slidedb-gen process (a port scan, a
        // stray client, one that says nothing) is dropped, and the wait
        // goes on; a slidedb-gen process with another command stops it.
        let theirs = match greet(&mut stream, None) {
            Ok(theirs) => theirs,
            Err(ConnectError::Io { .. }) => continue,
            Err(ConnectError::Mismatch { what, .. }) if what == NOT_SLIDEDB => continue,
            Err(e) => return Err(e),
        };
        let process = theirs.process as usize;
        if process < me || streams[process].is_some() {
            return Err(ConnectError::Mismatch {
                process,
                address: address(process),
                what: "connected twice".into(),
            });
        }
        all_held[process] = theirs.held;
        timeouts[process] = theirs.timeout_ms;
        streams[process] = Some(stream);
        waiting -= 1;
    }
    for (process, stream) in streams.iter().enumerate() {
        let Some(stream) = stream else { continue };
        let socket = socket2::SockRef::from(stream);
        let keepalive = socket2::TcpKeepalive::new()
            .with_time(Duration::from_secs(5))
            .with_interval(Duration::from_secs(2))
            .with_retries(5);
        // Unacknowledged data gives up after 60 s (Linux), long enough
        // for a paused VM, short enough that a lost host stops the others.
        #[cfg(any(target_os = "linux", target_os = "android", target_os = "fuchsia"))]
        let user_timeout = socket.set_tcp_user_timeout(Some(Duration::from_secs(60)));
        #[cfg(not(any(target_os = "linux", target_os = "android", target_os = "fuchsia")))]
        let user_timeout = Ok(());
        // Reads and writes wake every tick to see whether the search
        // has stopped or the other process has been silent too long.
        let tick = Some(tick(cluster.peer_timeout));
        stream
            .set_nodelay(true)
            .and_then(|()| socket.set_tcp_keepalive(&keepalive))
            .and(user_timeout)
            .and_then(|()| stream.set_read_timeout(tick))
            .and_then(|()| stream.set_write_timeout(tick))
            .map_err(|source| ConnectError::Io {
                process,
                address: address(process),
                source,
            })?;
    }
    // Every process says something at least this often, so that the one
    // with the shortest timeout hears from it in time.
    let shortest = timeouts.iter().filter(|&&ms| ms > 0).min().copied();
    let beat = shortest.map_or(MAX_HEARTBEAT, |ms| {
        (Duration::from_millis(ms) / 4).clamp(Duration::from_millis(10), MAX_HEARTBEAT)
    });
    Ok(Connected {
        streams,
        run,
        held: all_held,
        beat,
    })
}

/// A formed cluster, as [`connect`] leaves it.
struct Connected {
    streams: Vec<Option<TcpStream>>,
    run: u64,
    held: Vec<[Option<Held>; 2]>,
    /// How often to send a heartbeat on a connection with nothing else to
    /// send.
    beat: Duration,
}

/// The longest time between two heartbeats.
const MAX_HEARTBEAT: Duration = Duration::from_secs(2);

/// How often a blocked read or write of a connection wakes to look at
/// the time and at the search's state.
fn tick(peer_timeout: Duration) -> Duration {
    if peer_timeout.is_zero() {
        Duration::from_millis(500)
    } else {
        (peer_timeout / 8).clamp(Duration::from_millis(5), Duration::from_millis(500))
    }
}

// ---------------------------------------------------------------------
// The connections during the search.
// ---------------------------------------------------------------------

/// Why a search stopped before its end: the first cause any thread of
/// this process saw.
#[derive(Clone, Debug)]
enum Cause {
    /// The connection with `process` was lost.
    Lost { process: usize, why: String },
    /// `process` stopped the search and said why.
    Told { process: usize, why: String },
    /// A worker of this process panicked.
    Panicked { worker: usize, message: String },
}

/// A search's stop, shared by its workers, its connections and its
/// heartbeat thread: once set, the workers leave the dataflow, the
/// connections drop what timely sends and tell the other processes why,
/// and each connection ends its stream at a message boundary, so that
/// none of timely's threads ever sees an error (timely's communication
/// threads panic on one, and the panics cascade into an abort).
struct Stop {
    stopped: AtomicBool,
    /// The first cause, and the layer this process was on.
    cause: Mutex<Option<(Cause, u32)>>,
    /// The layer the workers of this process are on (the deepest).
    layer: AtomicU32,
    /// The processes' addresses, to name them.
    addresses: Vec<String>,
    /// Wakes the heartbeat thread: at a stop, or when the search is over
    /// (`true`).
    wake: (Mutex<bool>, Condvar),
}

impl Stop {
    fn new(addresses: Vec<String>) -> Stop {
        Stop {
            stopped: AtomicBool::new(false),
            cause: Mutex::new(None),
            layer: AtomicU32::new(0),
            addresses,
            wake: (Mutex::new(false), Condvar::new()),
        }
    }

    fn is_stopped(&self) -> bool {
        self.stopped.load(Acquire)
    }

    /// Stops the search for `cause`, unless it is stopped already.
    fn stop(&self, cause: Cause) {
        let mut first = self.cause.lock().unwrap_or_else(|e| e.into_inner());
        if first.is_none() {
            *first = Some((cause, self.layer.load(Relaxed)));
        }
        drop(first);
        self.stopped.store(true, Release);
        let _wait = self.wake.0.lock().unwrap_or_else(|e| e.into_inner());
        self.wake.1.notify_all();
    }

    /// A worker of this process is on `layer`.
    fn reached(&self, layer: u64) {
        self.layer
            .fetch_max(layer.min(u32::MAX as u64) as u32, Relaxed);
    }

    fn address(&self, process: usize) -> String {
        self.addresses.get(process).cloned().unwrap_or_default()
    }

    /// What this process tells the others when it stops.
    fn reason(&self) -> String {
        match self
            .cause
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            Some((Cause::Lost { process, why }, _)) => format!(
                "it lost process {process} ({}): {why}",
                self.address(*process)
            ),
            Some((Cause::Told { process, why }, _)) => format!(
                "process {process} ({}) stopped it: {why}",
                self.address(*process)
            ),
            Some((Cause::Panicked { worker, message }, _)) => {
                format!("its worker {worker} panicked ({message})")
            }
            None => "it stopped".into(),
        }
    }

    /// The error the search returns, if it stopped.
    fn error(&self) -> Option<DistributedError> {
        let cause = self.cause.lock().unwrap_or_else(|e| e.into_inner()).clone();
        cause.map(|(cause, layer)| match cause {
            Cause::Lost { process, why } => DistributedError::PeerLost {
                process,
                address: self.address(process),
                layer,
                why,
            },
            Cause::Told { process, why } => DistributedError::PeerStopped {
                process,
                address: self.address(process),
                layer,
                why,
            },
            Cause::Panicked { worker, message } => {
                DistributedError::WorkerPanicked { worker, message }
            }
        })
    }
}

/// A frame's first 4 bytes, little-endian: 0 is a heartbeat; with
/// [`ABORT`] set, the sender stopped the search, and the low bits are the
/// length of its reason (UTF-8) that follows; else the length of the bytes
/// of timely's stream that follow, at most [`MAX_FRAME`].
const ABORT: u32 = 1 << 31;
const MAX_FRAME: usize = 1 << 24;
const MAX_REASON: usize = 1 << 12;
/// Frames of timely's bytes up to this length are written in one call.
const SMALL_FRAME: usize = 1 << 16;

/// The connection with another process during the search, under timely:
/// timely's send and receive threads for that process read and write it
/// through [`NetStream`]s, and the heartbeat thread writes to it.
///
/// Every write is a frame (see [`ABORT`]), so that a heartbeat can go
/// between two writes of timely's; the reading side takes the frames
/// apart and hands timely only whole messages of its stream, so that it
/// can end that stream at any moment with the message timely takes for
/// its peer's clean end.
struct Link {
    /// The other process.
    process: usize,
    stream: TcpStream,
    /// Held while a frame is written; `true` once nothing more may be
    /// written (the stream was shut down, or the stop was sent).
    closed: Mutex<bool>,
    /// The connection is lost: reads and writes stop.
    lost: AtomicBool,
    /// A write failed, perhaps in the middle of a frame.
    broken: AtomicBool,
    stop: Arc<Stop>,
    /// How long the other process may be silent (none: forever).
    timeout: Option<Duration>,
}

impl Link {
    fn is_lost(&self) -> bool {
        self.lost.load(Acquire)
    }

    /// Gives the connection up, and stops the search, for `why`.
    fn lose(&self, why: String) {
        if !self.lost.swap(true, AcqRel) {
            self.stop.stop(Cause::Lost {
                process: self.process,
                why,
            });
        }
    }

    /// Gives the connection up for a failure `e` of reading or writing.
    fn failed(&self, e: &io::Error) {
        use io::ErrorKind::{BrokenPipe, ConnectionAborted, ConnectionReset};
        self.lose(match e.kind() {
            BrokenPipe | ConnectionAborted | ConnectionReset => {
                format!("it closed the connection (it stopped or was killed): {e}")
            }
            io::ErrorKind::TimedOut => {
                format!("its host stopped answering (it is down or cut off): {e}")
            }
            _ => format!("the connection failed: {e}"),
        });
    }

    fn silent(&self, what: &str) -> String {
        let seconds = self.timeout.unwrap_or_default().as_secs_f64();
        format!("it {what} for {seconds} s (the peer timeout): it is stopped, hung or cut off")
    }

    /// Writes all of `bytes`, waking every tick to give up if the
    /// connection is lost or the other process has taken nothing for the
    /// timeout. Err: the connection is lost.
    fn write_all(&self, bytes: &[u8]) -> Result<(), ()> {
        let written = self.write_all_ticking(bytes);
        if written.is_err() {
            self.broken.store(true, Release);
        }
        written
    }

    fn write_all_ticking(&self, mut bytes: &[u8]) -> Result<(), ()> {
        let mut moved = Instant::now();
        while !bytes.is_empty() {
            match (&self.stream).write(bytes) {
                Ok(0) => {
                    self.lose("it closed the connection".into());
                    return Err(());
                }
                Ok(n) => {
                    bytes = &bytes[n..];
                    moved = Instant::now();
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // The write timeout's tick (a timeout of TCP itself is
                // `TimedOut`, a failure).
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    if self.is_lost() {
                        return Err(());
                    }
                    if self.timeout.is_some_and(|t| moved.elapsed() >= t) {
                        self.lose(self.silent("took nothing this process sent"));
                        return Err(());
                    }
                }
                Err(e) => {
                    self.failed(&e);
                    return Err(());
                }
            }
        }
        Ok(())
    }

    /// Writes a frame of timely's bytes (a prefix of `data`); how many
    /// were taken. Once the search has stopped, or the connection is
    /// closed or lost, they are dropped: nobody needs them any more.
    fn send(&self, data: &[u8]) -> usize {
        let n = data.len().min(MAX_FRAME);
        if n == 0 {
            return 0;
        }
        let mut closed = self.closed.lock().unwrap_or_else(|e| e.into_inner());
        if *closed || self.is_lost() || self.stop.is_stopped() {
            return n;
        }
        let head = (n as u32).to_le_bytes();
        let written = if n <= SMALL_FRAME {
            let mut frame = Vec::with_capacity(4 + n);
            frame.extend_from_slice(&head);
            frame.extend_from_slice(&data[..n]);
            self.write_all(&frame)
        } else {
            self.write_all(&head)
                .and_then(|()| self.write_all(&data[..n]))
        };
        if written.is_err() {
            *closed = true;
        }
        n
    }

    /// Writes `frame` if the connection is free and open, without
    /// waiting for room (a full connection has data on its way); a frame
    /// begun is finished. Whether the connection is still open.
    fn send_now(&self, frame: &[u8]) -> bool {
        let Ok(mut closed) = self.closed.try_lock() else {
            return true;
        };
        if *closed || self.is_lost() {
            return false;
        }
        #[cfg(unix)]
        let flags = libc::MSG_DONTWAIT;
        #[cfg(not(unix))]
        let flags = 0;
        let sent = socket2::SockRef::from(&self.stream).send_with_flags(frame, flags);
        let rest = match sent {
            Ok(n) => &frame[n..],
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return true,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => frame,
            Err(e) => {
                self.failed(&e);
                *closed = true;
                return false;
            }
        };
        if self.write_all(rest).is_err() {
            *closed = true;
        }
        !*closed
    }

    /// Tells the other process that this one stopped the search, and
    /// why (when the connection is free, or after waiting for it with
    /// `wait`); after it, nothing more is written.
    fn send_stop(&self, why: &str, wait: bool) {
        let mut closed = match self.closed.try_lock() {
            Ok(closed) => closed,
            Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) if wait => {
                self.closed.lock().unwrap_or_else(|e| e.into_inner())
            }
            Err(std::sync::TryLockError::WouldBlock) => return,
        };
        if *closed {
            return;
        }
        let why = &why.as_bytes()[..why.floor_char_boundary(MAX_REASON)];
        let mut frame = (ABORT | why.len() as u32).to_le_bytes().to_vec();
        frame.extend_from_slice(why);
        if !self.is_lost() {
            let _ = self.write_all(&frame);
        } else if !self.broken.load(Acquire) {
            // A process lost for its silence may be stopped (SIGSTOP),
            // and read this when it goes on: one try, without waiting.
            #[cfg(unix)]
            let _ =
                socket2::SockRef::from(&self.stream).send_with_flags(&frame, libc::MSG_DONTWAIT);
        }
        let _ = self.stream.shutdown(std::net::Shutdown::Write);
        *closed = true;
    }
}

/// The heartbeat thread: a heartbeat on every open connection every
/// `every`, and the stop's reason on each once the search stops, until
/// the search is over.
fn beat(links: Vec<Arc<Link>>, stop: Arc<Stop>, every: Duration) {
    let (over, wake) = &stop.wake;
    let mut told = false;
    loop {
        // The lock is not held while writing: a write that fails stops
        // the search, which takes it.
        let guard = over.lock().unwrap_or_else(|e| e.into_inner());
        let (guard, _) = wake
            .wait_timeout_while(guard, every, |over| {
                // Wait out the beat, unless the search is over, or has
                // just stopped and the others are to be told at once.
                !*over && (told || !stop.is_stopped())
            })
            .unwrap_or_else(|e| e.into_inner());
        if *guard {
            return;
        }
        drop(guard);
        if stop.is_stopped() {
            // Again every beat, for a connection that was busy.
            let why = stop.reason();
            for link in &links {
                link.send_stop(&why, false);
            }
            told = true;
        } else {
            for link in &links {
                link.send_now(&[0; 4]);
            }
        }
    }
}

/// Ends the heartbeat thread when dropped.
struct Heartbeat {
    stop: Arc<Stop>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Heartbeat {
    fn drop(&mut self) {
        *self.stop.wake.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.stop.wake.1.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What the reading side of a connection has read and not yet handed
/// to timely.
struct Incoming {
    /// Timely's stream, taken out of its frames: `data[given..ready]` are
    /// whole messages not yet handed on, and what follows `ready` the
    /// start of the next.
    data: Vec<u8>,
    given: usize,
    ready: usize,
    /// The next frame's head as read so far.
    head: [u8; 4],
    have: usize,
    /// Bytes left of the frame being read, and whether it is a stop's
    /// reason (collected in `reason`).
    left: usize,
    stopping: bool,
    reason: Vec<u8>,
    /// The other process's reason, once its stop has been read whole.
    told: Option<String>,
    /// When the other process was last heard.
    heard: Instant,
    /// Its stream's last message (its clean end) has been read.
    finished: bool,
    /// The end this side makes up, still to hand on.
    end: Vec<u8>,
    /// Nothing more to hand on.
    ended: bool,
    raw: Vec<u8>,
}

impl Incoming {
    fn new() -> Incoming {
        Incoming {
            data: Vec::new(),
            given: 0,
            ready: 0,
            head: [0; 4],
            have: 0,
            left: 0,
            stopping: false,
            reason: Vec::new(),
            told: None,
            heard: Instant::now(),
            finished: false,
            end: Vec::new(),
            ended: false,
            raw: vec![0; 1 << 16],
        }
    }

    /// Takes `n` bytes read into `raw` out of their frames. Err: they are
    /// not frames.
    fn take(&mut self, n: usize) -> Result<(), String> {
        let mut at = 0;
        while at < n && self.told.is_none() {
            if self.left == 0 {
                let k = (4 - self.have).min(n - at);
                self.head[self.have..self.have + k].copy_from_slice(&self.raw[at..at + k]);
                self.have += k;
                at += k;
                if self.have < 4 {
                    break;
                }
                self.have = 0;
                let word = u32::from_le_bytes(self.head);
                let len = (word & !ABORT) as usize;
                self.stopping = word & ABORT != 0;
                if (self.stopping && len > MAX_REASON) || len > MAX_FRAME {
                    return Err("it sent something that is not the cluster protocol".into());
                }
                self.left = len;
                if self.stopping && len == 0 {
                    self.told = Some(String::new());
                }
                continue;
            }
            let k = self.left.min(n - at);
            let bytes = &self.raw[at..at + k];
            if self.stopping {
                self.reason.extend_from_slice(bytes);
            } else if !self.finished {
                self.data.extend_from_slice(bytes);
            }
            self.left -= k;
            at += k;
            if self.left == 0 && self.stopping {
                self.told = Some(String::from_utf8_lossy(&self.reason).into_owned());
            }
        }
        use timely::communication::networking::MessageHeader;
        while !self.finished {
            let Some(header) = MessageHeader::try_read(&self.data[self.ready..]) else {
                break;
            };
            self.ready += header.required_bytes();
            if header.length == 0 {
                // Timely's clean end: nothing may follow it.
                self.finished = true;
                self.data.truncate(self.ready);
            }
        }
        Ok(())
    }

    /// Ends the stream handed to timely: with timely's own clean end
    /// unless it has had it already.
    fn end(&mut self) {
        if self.finished {
            self.ended = true;
        } else if self.end.is_empty() && !self.ended {
            use timely::communication::networking::MessageHeader;
            let header = MessageHeader {
                channel: 0,
                source: 0,
                target_lower: 0,
                target_upper: 0,
                length: 0,
                seqno: 0,
            };
            header
                .write_to(&mut self.end)
                .expect("a header writes into a vector");
            self.finished = true;
        }
    }
}

/// A connection as timely's threads see it (they panic on any error, so
/// it gives them none: see [`Link`]).
struct NetStream {
    link: Arc<Link>,
    /// The reading side's state (only timely's receive thread reads).
    incoming: Option<Box<Incoming>>,
}

impl Read for NetStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let link = &self.link;
        let inc = self
            .incoming
            .get_or_insert_with(|| Box::new(Incoming::new()));
        loop {
            if inc.given < inc.ready {
                let n = (inc.ready - inc.given).min(buf.len());
                buf[..n].copy_from_slice(&inc.data[inc.given..inc.given + n]);
                inc.given += n;
                return Ok(n);
            }
            if !inc.end.is_empty() {
                let n = inc.end.len().min(buf.len());
                buf[..n].copy_from_slice(&inc.end[..n]);
                inc.end.drain(..n);
                inc.ended = inc.end.is_empty();
                return Ok(n);
            }
            if inc.ended {
                return Ok(0);
            }
            if let Some(why) = inc.told.take() {
                link.stop.stop(Cause::Told {
                    process: link.process,
                    why,
                });
                inc.end();
                continue;
            }
            if link.is_lost() {
                inc.end();
                continue;
            }
            if inc.given > 0 {
                inc.data.drain(..inc.given);
                inc.ready -= inc.given;
                inc.given = 0;
            }
            match (&link.stream).read(&mut inc.raw) {
                Ok(0) if inc.finished => inc.ended = true,
                Ok(0) => link.lose("it closed the connection (it stopped or was killed)".into()),
                Ok(n) => {
                    inc.heard = Instant::now();
                    if let Err(why) = inc.take(n) {
                        link.lose(why);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // The read timeout's tick (a timeout of TCP itself, its
                // keepalive or user timeout, is `TimedOut`, a failure).
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    if link.timeout.is_some_and(|t| inc.heard.elapsed() >= t) {
                        link.lose(link.silent("sent nothing"));
                    }
                }
                Err(e) => link.failed(&e),
            }
        }
    }
}

impl Write for NetStream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Ok(self.link.send(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl timely::communication::allocator::zero_copy::stream::Stream for NetStream {
    fn try_clone(&self) -> io::Result<NetStream> {
        Ok(NetStream {
            link: Arc::clone(&self.link),
            incoming: None,
        })
    }

    fn set_nonblocking(&self, nonblocking: bool) -> io::Result<()> {
        // The timeouts make reads and writes wake every tick.
        self.link.stream.set_nonblocking(nonblocking)
    }

    /// Timely's send thread shuts its side down after its last message:
    /// after a stop, the stop's reason goes instead.
    fn shutdown(&self, how: std::net::Shutdown) -> io::Result<()> {
        let link = &self.link;
        if link.stop.is_stopped() {
            link.send_stop(&link.stop.reason(), true);
            return Ok(());
        }
        let mut closed = link.closed.lock().unwrap_or_else(|e| e.into_inner());
        if !*closed {
            *closed = true;
            let _ = link.stream.shutdown(how);
        }
        Ok(())
    }
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
    let workers = cluster.workers;
    if workers == 0 {
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
    let class = GoalClass::of(goal);
    let indexer = Indexer::new(class.canonical());
    let ranges = owned_ranges(indexer.per_blank(), processes * workers);
    let local = process * workers..(process + 1) * workers;
    let goals = Goals::new(&class);
    let expect = |worker: usize| {
        let range = ranges[worker].clone();
        let words = (range.end - range.start).div_ceil(64) as usize;
        Expect {
            goals: &goals,
            workers: processes * workers,
            worker,
            range,
            words: (cells * 2 * words, cells * words),
        }
    };
    let slot_path = |dir: &Path, worker: usize, slot: usize| {
        dir.join(checkpoint_name(worker, processes * workers, slot))
    };

    // The checkpoints each of this process's workers holds whole.
    let mut slots: Vec<[Option<Held>; 2]> = vec![[None; 2]; workers];
    if let Some(checkpoints) = &cluster.checkpoints {
        for (worker, held) in local.clone().zip(&mut slots) {
            for (slot, held) in held.iter_mut().enumerate() {
                let path = slot_path(&checkpoints.dir, worker, slot);
                match read_checkpoint(&path, &expect(worker), false) {
                    Ok(None) => {}
                    Ok(Some(saved)) => {
                        *held = Some(Held {
                            depth: saved.metadata.depth,
                            run: saved.metadata.run,
                        })
                    }
                    Err(why) => on_event(&ClusterEvent::Ignored { path, why }),
                }
            }
        }
    }
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

    // Load the checkpoints to go on from, or clear the slots for a new run.
    let mut saved = Vec::with_capacity(workers);
    for (worker, held) in local.clone().zip(&slots) {
        let Some(checkpoints) = &cluster.checkpoints else {
            saved.push(None);
            continue;
        };
        match resume {
            Some(resume) => {
                let slot = held
                    .iter()
                    .position(|h| *h == Some(resume))
                    .expect("every worker holds the agreed checkpoint");
                let path = slot_path(&checkpoints.dir, worker, slot);
                let state = read_checkpoint(&path, &expect(worker), true)
                    .and_then(|s| s.ok_or_else(|| "it has gone".to_string()))
                    .map_err(|why| DistributedError::Checkpoint {
                        path: path.clone(),
                        why,
                    })?;
                saved.push(Some((slot, state)));
            }
            None => {
                for slot in 0..2 {
                    let path = slot_path(&checkpoints.dir, worker, slot);
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
        process,
        workers,
        goals: goals.clone(),
        checkpoints: cluster.checkpoints.clone(),
        bytes: (Arc::clone(&sent), Arc::clone(&received)),
        saved: Mutex::new(saved),
        stop: Arc::new(Stop::new(cluster.addresses.clone())),
    };
    let mut heartbeat = None;
    let (builders, others): (Vec<AllocatorBuilder>, Box<dyn std::any::Any + Send>) = match streams {
        None => {
            let hooks = Hooks::default();
            let builders = ProcessBuilder::new_typed_vector(workers, hooks.refill, hooks.spill)
                .into_iter()
                .map(AllocatorBuilder::Process)
                .collect();
            (builders, Box::new(()))
        }
        Some((streams, every)) => {
            let timeout = (!cluster.peer_timeout.is_zero()).then_some(cluster.peer_timeout);
            let links: Vec<Option<Arc<Link>>> = streams
                .into_iter()
                .enumerate()
                .map(|(process, stream)| {
                    stream.map(|stream| {
                        Arc::new(Link {
                            process,
                            stream,
                            closed: Mutex::new(false),
                            lost: AtomicBool::new(false),
                            broken: AtomicBool::new(false),
                            stop: Arc::clone(&setup.stop),
                            timeout,
                        })
                    })
                })
                .collect();
            let beating: Vec<Arc<Link>> = links.iter().flatten().cloned().collect();
            let streams: Vec<Option<NetStream>> = links
                .into_iter()
                .map(|link| {
                    link.map(|link| NetStream {
                        link,
                        incoming: None,
                    })
                })
                .collect();
            let stop = Arc::clone(&setup.stop);
            let thread = std::thread::Builder::new()
                .name("slidedb:heartbeat".into())
                .spawn(move || beat(beating, stop, every))
                .map_err(|e| DistributedError::Start(e.to_string()))?;
            heartbeat = Some(Heartbeat {
                stop: Arc::clone(&setup.stop),
                thread: Some(thread),
            });
            let mut hooks = Hooks::default();
            let counters = (sent, received);
            hooks.log_fn = Arc::new(move |_setup| {
                let (sent, received) = (Arc::clone(&counters.0), Arc::clone(&counters.1));
                Some(Logger::new(
                    Instant::now(),
                    Duration::ZERO,
                    move |_time: &Duration,
                          events: &mut Option<Vec<(Duration, CommunicationEvent)>>| {
                        for (_, event) in events.iter_mut().flat_map(|e| e.drain(..)) {
                            if let CommunicationEvent::Message(message) = event {
                                let bytes = message.header.required_bytes() as u64;
                                let counter = if message.is_send { &sent } else { &received };
                                counter.fetch_add(bytes, Relaxed);
                            }
                        }
                    },
                ))
            });
            let local = ProcessBuilder::new_typed_vector(
                workers,
                hooks.refill.clone(),
                hooks.spill.clone(),
            );
            let (builders, guard) =
                initialize_networking_from_sockets(local, streams, process, workers, hooks)
                    .map_err(|e| DistributedError::Start(e.to_string()))?;
            let builders = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
            (builders, Box::new(guard))
        }
    };
    let result = run_workers(goal, builders, others, setup, on_event);
    // Timely's threads have ended: the connections are done with.
    drop(heartbeat);
    let mut result = result?;
    result.resumed = resume.map(|h| h.depth);
    Ok(result)
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

/// What every process of one build must agree on: the shape and the goal.
fn fingerprint(goal: &Board) -> u64 {
    let class = GoalClass::of(goal);
    let canonical = class.canonical();
    let mut bytes = vec![
        canonical.shape().rows() as u8,
        canonical.shape().cols() as u8,
    ];
    bytes.extend(goal.tiles());
    crate::format::crc32(&bytes) as u64 | (bytes.len() as u64) << 32
}

/// What the workers of a process share.
struct Setup {
    run: u64,
    /// This process.
    process: usize,
    /// Workers a process.
    workers: usize,
    goals: Goals,
    checkpoints: Option<Checkpoints>,
    /// Bytes this process sent and received over the network so far.
    bytes: (Arc<AtomicU64>, Arc<AtomicU64>),
    /// Each of its workers' checkpoint to go on from (its slot and
    /// state), taken by the worker.
    saved: Mutex<Vec<Option<(usize, Saved)>>>,
    /// The search's stop, if it stops early.
    stop: Arc<Stop>,
}

/// Runs the search on the workers `builders` make; the shared part of the
/// one-process and the cluster runs.
fn run_workers(
    goal: &Board,
    builders: Vec<AllocatorBuilder>,
    others: Box<dyn std::any::Any + Send>,
    setup: Setup,
    on_event: impl Fn(&ClusterEvent) + Send + Sync + 'static,
) -> Result<Distributed, DistributedError> {
    let class = GoalClass::of(goal);
    let canonical = *class.canonical();
    let on_event = Arc::new(on_event);
    let run = setup.run;
    let bytes = setup.bytes.clone();
    let setup = Arc::new(setup);
    let stop = Arc::clone(&setup.stop);
    let first_worker = setup.process * setup.workers;
    let guards =
        timely::execute::execute_from(builders, others, WorkerConfig::default(), move |worker| {
            let index = worker.index();
            let local = index % setup.workers;
            let saved = setup.saved.lock().ok().and_then(|mut s| s[local].take());
            let worked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                work(worker, &canonical, &setup, saved, &*on_event)
            }));
            worked.unwrap_or_else(|payload| {
                // The panic has been reported (by the panic hook); the
                // other workers, here and in the other processes, stop.
                let message = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "no message".into());
                setup.stop.stop(Cause::Panicked {
                    worker: index,
                    message,
                });
                leave(worker);
                Err(Stopped)
            })
        })
        .map_err(DistributedError::Start)?;
    // A thread of timely's that panics anyway is a bug; its panic has been
    // reported, and the search stops with an error rather than an abort.
    let lost = |message: &str| DistributedError::WorkerPanicked {
        worker: first_worker,
        message: message.into(),
    };
    let results = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| guards.join()))
        .map_err(|_| lost("a communication thread of timely panicked"))?;
    let mut finished = Vec::new();
    for result in results {
        match result {
            Ok(Ok(done)) => finished.push(done),
            Ok(Err(Stopped)) => return Err(stop.error().unwrap_or_else(|| lost("it stopped"))),
            Err(why) => return Err(stop.error().unwrap_or_else(|| lost(&why))),
        }
    }
    let first = finished.first().ok_or(DistributedError::NoWorkers)?;
    let (layers, moves, sent) = (first.layers.clone(), first.moves, first.sent);
    let (hardest, shards) = (first.hardest.clone(), first.shards.clone());
    Ok(Distributed {
        layers,
        moves,
        sent,
        hardest,
        shards,
        run,
        resumed: None,
        bytes_sent: bytes.0.load(Relaxed),
        bytes_received: bytes.1.load(Relaxed),
        parts: finished.into_iter().map(|f| f.part).collect(),
    })
}

/// What a worker returns.
struct Finished {
    layers: Vec<u64>,
    moves: u64,
    sent: u64,
    hardest: Vec<Index>,
    shards: Vec<ShardSum>,
    part: Part,
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

/// The global figures of one epoch, summed over the workers' reports.
#[derive(Clone, Copy, Default, serde::Serialize, serde::Deserialize)]
struct Totals {
    states: u64,
    moves: u64,
    sent: u64,
    /// Worker 0 asks for a checkpoint at the start of the next layer.
    checkpoint: u64,
}

/// Moves a worker sends between two steps of the dataflow.
const STEP_EVERY: u64 = 1 << 18;

/// Where a worker's loop stands at the start of a layer: what a
/// checkpoint holds besides the boards.
struct Standing {
    /// The layer to expand.
    epoch: u64,
    /// The counts of the layers before it.
    layers: Vec<u64>,
    /// Moves and moves sent, of the expansions every worker has counted.
    moves: u64,
    sent: u64,
    /// This worker's boards of layer `epoch`.
    count: u64,
    /// This worker's figures of the expansion of the layer before.
    last: Totals,
    /// Its first boards of the layer before.
    hardest: Vec<Index>,
}

/// One worker's search (see the [module docs](self)).
fn work(
    worker: &mut Worker,
    goal: &Board,
    setup: &Setup,
    saved: Option<(usize, Saved)>,
    on_event: &dyn Fn(&ClusterEvent),
) -> Result<Finished, Stopped> {
    let start = Instant::now();
    let me = worker.index();
    let peers = worker.peers();
    let reporter = me.is_multiple_of(setup.workers);
    let indexer = Indexer::new(goal);
    let per_blank = indexer.per_blank();
    let ranges = owned_ranges(per_blank, peers);
    let range = ranges[me].clone();
    let search = IndexMoves::new(&indexer, false);

    let owners: Vec<u64> = ranges.iter().map(|r| r.end).collect();
    let route = move |index: &u64| owners.partition_point(|&end| end <= index % per_blank) as u64;

    let mut targets = InputHandleVec::<u64, u64>::new();
    let mut reports = InputHandleVec::<u64, (u64, Totals)>::new();
    let mut summaries = InputHandleVec::<u64, Summary>::new();
    let probe = ProbeHandle::<u64>::new();
    let arrived: Rc<RefCell<HashMap<u64, Vec<u64>>>> = Rc::default();
    let totals: Rc<RefCell<HashMap<u64, Totals>>> = Rc::default();
    let summarised: Rc<RefCell<Vec<Summary>>> = Rc::default();
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
                sum.checkpoint += report.checkpoint;
            })
            .probe_with(&probe);
        let summarised = Rc::clone(&summarised);
        scope
            .input_from(&mut summaries)
            .broadcast()
            .inspect(move |summary: &Summary| summarised.borrow_mut().push(summary.clone()))
            .probe_with(&probe);
    });

    // Boards claimed from received moves, by the epoch they were sent in.
    let mut claimed: HashMap<u64, u64> = HashMap::new();
    // Which slot the next checkpoint goes into: the older one.
    let mut next_slot = 0;
    let (mut own, mut at) = match saved {
        Some((slot, saved)) => {
            let m = saved.metadata;
            next_slot = 1 - slot;
            claimed.insert(m.depth as u64, m.early);
            let own = Owned::restore(
                &search,
                &indexer,
                goal,
                range.clone(),
                saved.residues,
                saved.frontier,
            );
            let at = Standing {
                epoch: m.depth as u64,
                layers: m.layers,
                moves: m.moves,
                sent: m.sent,
                count: m.count,
                last: Totals {
                    moves: m.last_moves,
                    sent: m.last_sent,
                    ..Totals::default()
                },
                hardest: m.hardest.into_iter().map(Index).collect(),
            };
            (own, at)
        }
        None => {
            let mut own = Owned::new(&search, &indexer, goal, range.clone());
            let count = own.root_count();
            let at = Standing {
                epoch: 0,
                layers: Vec::new(),
                moves: 0,
                sent: 0,
                count,
                last: Totals::default(),
                hardest: Vec::new(),
            };
            (own, at)
        }
    };
    targets.advance_to(at.epoch);
    reports.advance_to(at.epoch);
    summaries.advance_to(at.epoch);
    // Claims what has arrived so far, each move as a board of the layer
    // after the one it was sent from.
    let drain = |own: &mut Owned, claimed: &mut HashMap<u64, u64>| {
        // Drained, the batches go back to the system.
        for (epoch, moves) in arrived.borrow_mut().drain() {
            *claimed.entry(epoch).or_default() += own.claim_all(epoch as u32 + 1, &moves);
        }
    };
    let mut odometer = Odometer::new(&search);
    let mut checkpoint_due = false;
    let mut last_checkpoint = Instant::now();
    // Once the search has stopped (another process lost, or a worker
    // panicked), the worker leaves the dataflow and returns.
    macro_rules! unless_stopped {
        () => {
            if setup.stop.is_stopped() {
                drop((targets, reports, summaries));
                leave(worker);
                return Err(Stopped);
            }
        };
    }
    loop {
        let epoch = at.epoch;
        setup.stop.reached(epoch);
        if checkpoint_due && let Some(checkpoints) = &setup.checkpoints {
            let written = Instant::now();
            let path = checkpoints.dir.join(checkpoint_name(me, peers, next_slot));
            let metadata = WorkerCheckpoint {
                generator: crate::build::file::generator(),
                goals: setup.goals.clone(),
                run: setup.run,
                workers: peers as u32,
                worker: me as u32,
                start: range.start,
                end: range.end,
                depth: epoch as u32,
                layers: at.layers.clone(),
                moves: at.moves,
                sent: at.sent,
                count: at.count,
                last_moves: at.last.moves,
                last_sent: at.last.sent,
                early: claimed.get(&epoch).copied().unwrap_or(0),
                hardest: at.hardest.iter().map(|i| i.0).collect(),
            };
            match write_checkpoint(&path, &metadata, &own.residues, &own.frontier) {
                Ok(bytes) => {
                    next_slot = 1 - next_slot;
                    on_event(&ClusterEvent::Checkpointed {
                        worker: me,
                        depth: epoch as u32,
                        bytes,
                        seconds: written.elapsed().as_secs_f64(),
                    });
                }
                // The older slot is as it was, and the newer one whole:
                // the next checkpoint tries the same slot again.
                Err(e) => on_event(&ClusterEvent::CheckpointFailed {
                    worker: me,
                    depth: epoch as u32,
                    why: e.to_string(),
                }),
            }
            last_checkpoint = Instant::now();
        }
        let ask = me == 0
            && setup
                .checkpoints
                .as_ref()
                .is_some_and(|c| last_checkpoint.elapsed() >= c.every);
        reports.send((
            epoch,
            Totals {
                states: at.count,
                checkpoint: ask as u64,
                ..at.last
            },
        ));
        let layer_hardest = own.first_boards(epoch as u32);
        let mut here = Totals::default();
        let mut claimed_here = 0;
        let mut step_at = STEP_EVERY;
        let mut blocks = 0u64;
        for cell in own.layer_cells(epoch as u32) {
            for block in (0..own.words).step_by(BLOCK_WORDS) {
                blocks += 1;
                let words = block..(block + BLOCK_WORDS).min(own.words);
                let found = own.expand(epoch as u32, cell, words, &mut odometer, |index| {
                    targets.send(index);
                    here.sent += 1;
                });
                here.moves += found.moves;
                claimed_here += found.claimed;
                // Let the moves flow now and then, and claim what came:
                // after so many sent, or so many blocks, whichever first.
                if here.sent >= step_at || blocks.is_multiple_of(STEP_BLOCKS) {
                    step_at = here.sent + STEP_EVERY;
                    worker.step();
                    drain(&mut own, &mut claimed);
                    unless_stopped!();
                }
            }
        }
        targets.advance_to(epoch + 1);
        reports.advance_to(epoch + 1);
        summaries.advance_to(epoch + 1);
        while probe.less_than(&(epoch + 1)) {
            worker.step_or_park(Some(LOOK_EVERY));
            drain(&mut own, &mut claimed);
            unless_stopped!();
        }
        let sum = totals.borrow_mut().remove(&epoch).unwrap_or_default();
        if epoch > 0 {
            at.moves += sum.moves;
            at.sent += sum.sent;
        }
        if sum.states == 0 {
            break;
        }
        at.layers.push(sum.states);
        at.hardest = layer_hardest;
        checkpoint_due = sum.checkpoint > 0;
        if reporter {
            on_event(&ClusterEvent::Layer(ClusterLayer {
                depth: epoch as u32,
                states: sum.states,
                moves: sum.moves,
                sent: sum.sent,
                seconds: start.elapsed().as_secs_f64(),
                bytes_sent: setup.bytes.0.load(Relaxed),
                bytes_received: setup.bytes.1.load(Relaxed),
            }));
        }
        at.count = claimed_here + claimed.remove(&epoch).unwrap_or(0);
        at.last = here;
        at.epoch += 1;
    }
    // One more epoch: every worker learns every part's length, checksum
    // and hardest boards (for the manifest).
    let epoch = at.epoch;
    let entries = own.into_entries();
    let crc = crate::format::crc32(&entries);
    let hardest = at.hardest;
    summaries.send(Summary {
        worker: me as u64,
        len: entries.len() as u64,
        crc,
        hardest: hardest.iter().map(|i| i.0).collect(),
    });
    let end = epoch + 2;
    targets.advance_to(end);
    reports.advance_to(end);
    summaries.advance_to(end);
    while probe.less_than(&end) {
        worker.step_or_park(Some(LOOK_EVERY));
        unless_stopped!();
    }
    drop((targets, reports, summaries));
    // Every worker has every summary: nothing more is needed from the
    // dataflow (and a process lost now cannot hold this one up).
    leave(worker);
    let mut all = std::mem::take(&mut *summarised.borrow_mut());
    all.sort_by_key(|s| s.worker);
    let mut everyone: Vec<Index> = all
        .iter()
        .flat_map(|s| s.hardest.iter().map(|&i| Index(i)))
        .collect();
    everyone.sort_unstable();
    everyone.truncate(MAX_HARDEST);
    Ok(Finished {
        layers: at.layers,
        moves: at.moves,
        sent: at.sent,
        hardest: everyone,
        shards: all
            .into_iter()
            .map(|s| ShardSum {
                worker: s.worker as usize,
                range: ranges[s.worker as usize].clone(),
                len: s.len,
                crc: s.crc,
            })
            .collect(),
        part: Part {
            worker: me,
            range,
            entries,
            hardest,
        },
    })
}

/// A worker left the search because it stopped (see [`Stop`]).
struct Stopped;

/// How often a waiting worker looks whether the search has stopped.
const LOOK_EVERY: Duration = Duration::from_millis(100);

/// Drops the worker's dataflows, so that timely does not wait for them
/// to finish when the worker returns.
fn leave(worker: &mut Worker) {
    for dataflow in worker.installed_dataflows() {
        worker.drop_dataflow(dataflow);
    }
}

/// What each worker tells every other at the end.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Summary {
    worker: u64,
    len: u64,
    crc: u32,
    hardest: Vec<u64>,
}

/// Blocks a worker expands, at most, between two steps of the dataflow
/// (about 10^7 tile orders: what other workers send meanwhile waits in
/// timely's queues).
const STEP_BLOCKS: u64 = 1 << 6;

/// Frontier words a worker expands between two looks at what arrived.
const BLOCK_WORDS: usize = 1 << 12;

/// What an expansion did.
struct Expanded {
    /// Moves made (to any worker's boards).
    moves: u64,
    /// New boards of its own it claimed.
    claimed: u64,
}

/// The boards one worker owns: their distances mod 3 and the frontier.
struct Owned<'s, 'a> {
    search: &'s IndexMoves<'a>,
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
    fn restore(
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

    /// The blank cells of layer `depth`'s colour.
    fn layer_cells(&self, depth: u32) -> Vec<usize> {
        (0..self.cells)
            .filter(|&c| self.in_layer(c, depth))
            .collect()
    }

    /// Expands the boards of layer `depth` with their blank in `cell`
    /// and their tile orders in frontier words `words`: claims its own new
    /// boards as layer `depth + 1`, and gives the others' (global indices)
    /// to `send`.
    fn expand(
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
            // Vertical: by rank arithmetic, here or sent.
            let mut bits = f;
            while bits != 0 {
                let h = lo + (w * 64) as u64 + bits.trailing_zeros() as u64;
                bits &= bits - 1;
                let digits = odometer.at(h);
                for v in search.verticals(cell) {
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
        done
    }

    /// The entries, as [`Part::entries`] lays them out. The boards'
    /// memory goes back to the system as the entries are made (the last
    /// cell first), so the two together are little more than either.
    fn into_entries(mut self) -> Vec<u8> {
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

/// The table the parts of a finished search make, byte for byte the one
/// [`generate`](crate::table::generate()) builds: `parts` are every worker's, in
/// any order.
///
/// ```
/// use slidedb::{Board, Shape, generate};
/// use slidedb::build::{search_distributed, table_from_parts};
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

    /// A process whose peers never come stops at the timeout, saying
    /// which one is missing and why it could not be reached.
    #[test]
    fn a_missing_process_is_named_after_the_timeout() {
        let free = || {
            let l = TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().to_string()
        };
        let cluster = Cluster {
            addresses: vec![free(), free()],
            process: 1,
            workers: 1,
            connect_timeout: Duration::from_millis(500),
            peer_timeout: Duration::from_secs(60),
            checkpoints: None,
        };
        let goal = Board::solved(Shape::new(2, 3).unwrap());
        let error = search_cluster(&goal, &cluster, |_| {}).unwrap_err();
        let text = error.to_string();
        assert!(
            matches!(
                error,
                DistributedError::Connect(ConnectError::Timeout { process: 0, .. })
            ),
            "{text}"
        );
        assert!(
            text.contains("(last: ") && text.contains("--process 0"),
            "{text}"
        );
        // Process 0 waits for process 1 to connect to it, and names it.
        let cluster = Cluster {
            process: 0,
            ..cluster
        };
        let error = search_cluster(&goal, &cluster, |_| {}).unwrap_err();
        assert!(
            matches!(
                error,
                DistributedError::Connect(ConnectError::Timeout { process: 1, .. })
            ),
            "{error}"
        );
    }

    /// Panics of any thread of this process while `run` runs (the hook
    /// is the process's: under nextest every test has its own process).
    fn panics_during<T>(run: impl FnOnce() -> T) -> (T, usize) {
        use std::sync::atomic::AtomicUsize;
        static PANICS: AtomicUsize = AtomicUsize::new(0);
        let previous = Arc::new(std::panic::take_hook());
        let chained = Arc::clone(&previous);
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Relaxed);
            chained(info)
        }));
        let before = PANICS.load(Relaxed);
        let out = run();
        let panics = PANICS.load(Relaxed) - before;
        drop(std::panic::take_hook());
        if let Ok(previous) = Arc::try_unwrap(previous) {
            std::panic::set_hook(previous);
        }
        (out, panics)
    }

    /// Process 1 of two, played by this test: it connects to process 0
    /// and says hello as slidedb does, then does `then` with the stream.
    fn fake_process_one(
        goal: Board,
        address: String,
        then: impl FnOnce(TcpStream) + Send + 'static,
    ) -> std::thread::JoinHandle<()> {
        std::thread::spawn(move || {
            let mut stream = loop {
                match TcpStream::connect(&address) {
                    Ok(stream) => break stream,
                    Err(_) => std::thread::sleep(Duration::from_millis(20)),
                }
            };
            let hello = Hello {
                process: 1,
                processes: 2,
                workers: 1,
                fingerprint: fingerprint(&goal),
                run: 7,
                held: [None; 2],
                timeout_ms: 0,
            };
            stream.write_all(&hello.to_bytes()).unwrap();
            let mut theirs = [0u8; HELLO_LEN];
            stream.read_exact(&mut theirs).unwrap();
            then(stream)
        })
    }

    /// A process that loses another during the search returns the loss
    /// to its caller as an error naming the process and the layer: no
    /// thread panics (timely's own threads never see the failure), and
    /// nothing aborts. The other process closes its connection (it
    /// died), or says nothing for the peer timeout (it is stopped).
    #[test]
    fn a_lost_process_is_an_error_for_the_caller_not_a_panic() {
        let goal = Board::solved(Shape::new(3, 3).unwrap());
        for (silent, expect) in [
            (false, "it closed the connection"),
            (true, "it sent nothing for 0.4 s (the peer timeout)"),
        ] {
            let addresses = two_addresses();
            let cluster = Cluster {
                addresses: addresses.clone(),
                process: 0,
                workers: 1,
                connect_timeout: Duration::from_secs(30),
                peer_timeout: Duration::from_millis(400),
                checkpoints: None,
            };
            let (result, panics) = panics_during(|| {
                let fake = fake_process_one(goal, addresses[0].clone(), move |stream| {
                    if silent {
                        // Stopped: it reads nothing and says nothing.
                        std::thread::sleep(Duration::from_secs(3));
                    }
                    drop(stream);
                });
                let result = search_cluster(&goal, &cluster, |_| {});
                fake.join().unwrap();
                result
            });
            let error = result.unwrap_err();
            let text = error.to_string();
            assert!(
                matches!(
                    &error,
                    DistributedError::PeerLost {
                        process: 1,
                        layer: 0,
                        ..
                    }
                ),
                "{text}"
            );
            assert!(
                text.contains(&format!("lost process 1 ({})", addresses[1]))
                    && text.contains("during layer 0")
                    && text.contains(expect),
                "{text}"
            );
            assert_eq!(panics, 0, "a thread panicked ({text})");
        }
    }

    /// The same address twice in the list: every process refuses it at
    /// once, naming both lines, before it listens.
    #[test]
    fn a_repeated_address_is_refused_at_once() {
        let mut addresses = two_addresses();
        addresses.push(addresses[0].to_uppercase());
        let goal = Board::solved(Shape::new(2, 3).unwrap());
        for process in 0..3 {
            let cluster = Cluster {
                addresses: addresses.clone(),
                process,
                workers: 1,
                connect_timeout: Duration::from_secs(600),
                peer_timeout: Duration::from_secs(60),
                checkpoints: None,
            };
            let error = search_cluster(&goal, &cluster, |_| {}).unwrap_err();
            assert!(
                matches!(
                    &error,
                    DistributedError::Connect(ConnectError::Duplicate {
                        first: 0,
                        second: 2,
                        ..
                    })
                ),
                "{error}"
            );
        }
    }

    /// Two free local addresses.
    fn two_addresses() -> Vec<String> {
        let listeners: Vec<TcpListener> = (0..2)
            .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
            .collect();
        listeners
            .iter()
            .map(|l| l.local_addr().unwrap().to_string())
            .collect()
    }

    /// Process 0 of two drops connections that are not slidedb-gen
    /// processes (one sends garbage, one says nothing) and builds with
    /// process 1 when it comes.
    #[test]
    fn a_stray_connection_is_dropped_and_the_cluster_forms() {
        let goal = Board::solved(Shape::new(2, 3).unwrap());
        let addresses = two_addresses();
        let cluster = |process| Cluster {
            addresses: addresses.clone(),
            process,
            workers: 1,
            connect_timeout: Duration::from_secs(30),
            peer_timeout: Duration::from_secs(60),
            checkpoints: None,
        };
        let zero = cluster(0);
        let first = std::thread::spawn(move || search_cluster(&goal, &zero, |_| {}));
        let reach = |address: &str| loop {
            match TcpStream::connect(address) {
                Ok(stream) => break stream,
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        };
        let mut garbage = reach(&addresses[0]);
        garbage.write_all(&[0x47; HELLO_LEN]).unwrap();
        let _silent = reach(&addresses[0]);
        let second = search_cluster(&goal, &cluster(1), |_| {}).unwrap();
        let first = first.join().unwrap().unwrap();
        assert_eq!(first.layers, second.layers);
        assert_eq!(first.run, second.run);
        let mut parts = first.parts.clone();
        parts.extend(second.parts);
        let table = table_from_parts(&goal, &first.layers, &parts);
        assert!(table.as_bytes() == generate(&goal, |_| {}).unwrap().as_bytes());
    }

    /// Runs process 0 toward `goals.0` with `workers.0` workers beside
    /// process 1 toward `goals.1` with `workers.1`; both their errors.
    fn refused_pair(
        goals: (Board, Board),
        workers: (usize, usize),
    ) -> (DistributedError, DistributedError) {
        let addresses = two_addresses();
        let at = |process, workers| Cluster {
            addresses: addresses.clone(),
            process,
            workers,
            connect_timeout: Duration::from_secs(30),
            peer_timeout: Duration::from_secs(60),
            checkpoints: None,
        };
        let zero = at(0, workers.0);
        let first = std::thread::spawn(move || search_cluster(&goals.0, &zero, |_| {}));
        let second = search_cluster(&goals.1, &at(1, workers.1), |_| {}).unwrap_err();
        (first.join().unwrap().unwrap_err(), second)
    }

    /// Two processes asked for different tables (or worker counts) stop
    /// at once, each naming the other and what differs.
    #[test]
    fn processes_with_different_commands_refuse_each_other() {
        let goal = Board::solved(Shape::new(2, 3).unwrap());
        let other: Board = "1 2 3 / 4 0 5".parse().unwrap();
        let (first, second) = refused_pair((goal, other), (1, 1));
        for (error, peer) in [(first, 1), (second, 0)] {
            let text = error.to_string();
            assert!(
                matches!(&error, DistributedError::Connect(ConnectError::Mismatch { process, .. }) if *process == peer),
                "{text}"
            );
            assert!(text.contains("builds another table"), "{text}");
        }
        let (first, second) = refused_pair((goal, goal), (2, 1));
        assert!(
            second.to_string().contains("has 2 workers, not 1 worker"),
            "{second}"
        );
        assert!(
            first.to_string().contains("has 1 worker, not 2 workers"),
            "{first}"
        );
    }

    /// Copies the checkpoint slots of `from` into `to`.
    fn copy_checkpoints(from: &Path, to: &Path) {
        for entry in std::fs::read_dir(from).unwrap() {
            let name = entry.unwrap().file_name();
            let name = name.to_string_lossy();
            if name.starts_with("checkpoint-") && name.ends_with(".slidedb") {
                std::fs::copy(from.join(&*name), to.join(&*name)).unwrap();
            }
        }
    }

    /// A search stopped after any layer goes on from its checkpoints to
    /// the same result; a damaged slot is passed over for the other one.
    #[test]
    fn a_search_goes_on_from_its_checkpoints() {
        let goal: Board = "1 2 3 / 4 0 5 / 6 7 8".parse().unwrap();
        let expected = generate(&goal, |_| {}).unwrap();
        let (fresh, copies) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let cluster = |dir: &Path| Cluster {
            addresses: Vec::new(),
            process: 0,
            workers: 3,
            connect_timeout: Duration::ZERO,
            peer_timeout: Duration::from_secs(60),
            checkpoints: Some(Checkpoints {
                dir: dir.to_path_buf(),
                every: Duration::ZERO,
            }),
        };
        let stop_at = 9;
        let (from, to) = (fresh.path().to_path_buf(), copies.path().to_path_buf());
        let first = search_cluster(&goal, &cluster(fresh.path()), move |event| {
            // Every worker has written its checkpoint of this layer, and
            // worker 0 (reporting) none after it.
            if let ClusterEvent::Layer(layer) = event
                && layer.depth == stop_at
            {
                copy_checkpoints(&from, &to);
            }
        })
        .unwrap();
        assert_eq!(first.resumed, None);
        let table = table_from_parts(&goal, &first.layers, &first.parts);
        assert!(table.as_bytes() == expected.as_bytes());

        let events = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&events);
        let again = search_cluster(&goal, &cluster(copies.path()), move |e| {
            seen.lock().unwrap().push(e.clone())
        })
        .unwrap();
        assert_eq!(again.resumed, Some(stop_at));
        assert!(events.lock().unwrap().contains(&ClusterEvent::Resumed {
            depth: stop_at,
            run: first.run
        }));
        assert_eq!(
            (again.run, &again.layers, again.moves, again.sent),
            (first.run, &first.layers, first.moves, first.sent)
        );
        assert_eq!((&again.parts, &again.shards), (&first.parts, &first.shards));
        assert_eq!(again.hardest, first.hardest);

        // The finished search left the checkpoints of its last two
        // layers; damage one slot of worker 2's and it goes on from the
        // layer before, to the same result.
        let last = first.layers.len() as u32;
        let slot = (0..2)
            .map(|slot| fresh.path().join(checkpoint_name(2, 3, slot)))
            .find(|path| {
                let bytes = std::fs::read(path).unwrap();
                let frame = crate::format::read::<WorkerCheckpoint>(
                    &bytes,
                    crate::format::Kind::WorkerCheckpoint,
                    checkpoint::ENCODING_WORKER_CHECKPOINT,
                )
                .unwrap();
                frame.metadata.depth == last
            })
            .expect("a slot holds the last layer");
        let mut bytes = std::fs::read(&slot).unwrap();
        let at = bytes.len() - 3;
        bytes[at] ^= 0x10;
        std::fs::write(&slot, bytes).unwrap();
        let events = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&events);
        let third = search_cluster(&goal, &cluster(fresh.path()), move |e| {
            seen.lock().unwrap().push(e.clone())
        })
        .unwrap();
        assert_eq!(third.resumed, Some(last - 1));
        assert_eq!(&third.parts, &first.parts);
        let events = events.lock().unwrap();
        assert!(
            events.iter().any(|e| matches!(e,
                ClusterEvent::Ignored { path, why } if *path == slot && why.contains("damaged"))),
            "{events:?}"
        );
    }

    /// With no checkpoint every worker holds, a search starts a new run
    /// and clears the old slots.
    #[test]
    fn checkpoints_not_held_by_every_worker_start_a_new_run() {
        let goal = Board::solved(Shape::new(2, 4).unwrap());
        let dir = tempfile::tempdir().unwrap();
        let cluster = Cluster {
            addresses: Vec::new(),
            process: 0,
            workers: 2,
            connect_timeout: Duration::ZERO,
            peer_timeout: Duration::from_secs(60),
            checkpoints: Some(Checkpoints {
                dir: dir.path().to_path_buf(),
                every: Duration::ZERO,
            }),
        };
        let first = search_cluster(&goal, &cluster, |_| {}).unwrap();
        for slot in 0..2 {
            std::fs::remove_file(dir.path().join(checkpoint_name(1, 2, slot))).unwrap();
        }
        let again = search_cluster(&goal, &cluster, |_| {}).unwrap();
        assert_eq!(again.resumed, None);
        assert_ne!(again.run, first.run);
        assert_eq!(again.parts, first.parts);
    }

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
