//! Forming a cluster: the processes' addresses, the hello two processes
//! exchange when they connect (so that mismatched commands stop at once),
//! and the TCP connections' setup (keepalive, user timeout, and the
//! read and write timeouts the peer timeout ticks by).

use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use crate::board::Board;
use crate::symmetry::GoalClass;

use super::{Cluster, ConnectError};

/// What two processes tell each other when they connect: who they are,
/// what they were asked to build (so that mismatched commands stop at
/// once), which checkpoints all their workers hold, and how long they
/// wait for a word from the others. 72 bytes: the magic, then
/// little-endian u32 version, process, processes, workers, u64
/// fingerprint, u64 run, two checkpoints, each u32 depth and u64 run
/// (depth `u32::MAX`: none), and the u64 peer timeout in milliseconds (0:
/// none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Hello {
    pub(super) process: u32,
    pub(super) processes: u32,
    pub(super) workers: u32,
    pub(super) fingerprint: u64,
    pub(super) run: u64,
    pub(super) held: [Option<Held>; 2],
    pub(super) timeout_ms: u64,
}

/// A checkpoint: the layer it holds and its run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Held {
    pub(super) depth: u32,
    pub(super) run: u64,
}

const HELLO_MAGIC: &[u8; 8] = b"slidedbC";
/// What a peer whose hello lacks the magic is.
const NOT_SLIDEDB: &str = "is not a slidedb-gen process";
/// How long an accepted connection has to say hello.
const HELLO_WAIT: Duration = Duration::from_secs(5);
/// Version 3: the peer timeout in the hello, and the connections framed
/// with heartbeats (see [`Link`](super::link::Link)).
const HELLO_VERSION: u32 = 3;
pub(super) const HELLO_LEN: usize = 72;

impl Hello {
    pub(super) fn to_bytes(self) -> [u8; HELLO_LEN] {
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
pub(super) fn connect(
    cluster: &Cluster,
    fingerprint: u64,
    run: u64,
    held: [Option<Held>; 2],
) -> Result<Connected, ConnectError> {
    let mut meeting = Meeting::open(cluster, fingerprint, run, held)?;
    meeting.dial_earlier()?;
    meeting.accept_later()?;
    for (process, stream) in meeting.streams.iter().enumerate() {
        let Some(stream) = stream else { continue };
        tune(stream, cluster.peer_timeout).map_err(|source| ConnectError::Io {
            process,
            address: meeting.address(process),
            source,
        })?;
    }
    Ok(meeting.finish())
}

/// The processes meeting at start-up: this one's listener and hello, and
/// what it has heard from the others so far.
struct Meeting<'c> {
    cluster: &'c Cluster,
    /// This process, of `processes`.
    me: usize,
    processes: usize,
    listener: TcpListener,
    /// When the wait for the others ends.
    deadline: Instant,
    hello: Hello,
    /// The connections, in process order (`None` for this process and the
    /// ones not connected yet).
    streams: Vec<Option<TcpStream>>,
    /// The checkpoints each process holds.
    held: Vec<[Option<Held>; 2]>,
    /// Each process's peer timeout, in milliseconds (0: none).
    timeouts: Vec<u64>,
    /// The run: process 0's.
    run: u64,
}

impl<'c> Meeting<'c> {
    /// Listens on this process's address, its hello made.
    fn open(
        cluster: &'c Cluster,
        fingerprint: u64,
        run: u64,
        held: [Option<Held>; 2],
    ) -> Result<Meeting<'c>, ConnectError> {
        let processes = cluster.addresses.len();
        let me = cluster.process;
        if me >= processes {
            return Err(ConnectError::NoSuchProcess {
                process: me,
                processes,
            });
        }
        let address = &cluster.addresses[me];
        let listen = |source| ConnectError::Listen {
            address: address.clone(),
            line: me,
            source,
        };
        let listener = TcpListener::bind(address.as_str()).map_err(listen)?;
        listener.set_nonblocking(true).map_err(listen)?;
        let hello = Hello {
            process: me as u32,
            processes: processes as u32,
            workers: cluster.workers as u32,
            fingerprint,
            run,
            held,
            timeout_ms: cluster.peer_timeout.as_millis().min(u64::MAX as u128) as u64,
        };
        Ok(Meeting {
            cluster,
            me,
            processes,
            listener,
            deadline: Instant::now() + cluster.connect_timeout,
            hello,
            streams: (0..processes).map(|_| None).collect(),
            held: vec![held; processes],
            timeouts: vec![hello.timeout_ms; processes],
            run,
        })
    }

    /// Process `i`'s address.
    fn address(&self, i: usize) -> String {
        self.cluster.addresses[i].clone()
    }

    /// The error of a wait for `process` that ran out, with the last
    /// attempt to reach it if this process made one.
    fn timeout(&self, process: usize, last: Option<io::Error>) -> ConnectError {
        ConnectError::Timeout {
            process,
            address: self.address(process),
            seconds: self.cluster.connect_timeout.as_secs(),
            why: last.map_or(String::new(), |e| format!(" (last: {e})")),
        }
    }

    /// Connects to each process before this one, trying again until the
    /// deadline, and greets it.
    fn dial_earlier(&mut self) -> Result<(), ConnectError> {
        for process in 0..self.me {
            let mut stream = loop {
                match self.attempt(process) {
                    Ok(stream) => break stream,
                    Err(_) if Instant::now() < self.deadline => {
                        self.left()?;
                        std::thread::sleep(Duration::from_millis(100))
                    }
                    Err(e) => return Err(self.timeout(process, Some(e))),
                }
            };
            let theirs = self.greet(&mut stream, Some(process))?;
            if process == 0 {
                self.run = theirs.run;
            }
            self.keep(process, theirs, stream);
        }
        Ok(())
    }

    /// One attempt to reach `process`, bounded in time.
    fn attempt(&self, process: usize) -> io::Result<TcpStream> {
        use std::net::ToSocketAddrs;
        let left = self.deadline.saturating_duration_since(Instant::now());
        let limit = left.clamp(Duration::from_millis(100), Duration::from_secs(5));
        let mut last = io::Error::new(io::ErrorKind::NotFound, "the name resolves to no address");
        for addr in self.address(process).as_str().to_socket_addrs()? {
            match TcpStream::connect_timeout(&addr, limit) {
                Ok(stream) => return Ok(stream),
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    /// Accepts each process after this one until the deadline, and
    /// greets it.
    fn accept_later(&mut self) -> Result<(), ConnectError> {
        let mut waiting = self.processes - self.me - 1;
        while waiting > 0 {
            let mut stream = loop {
                match self.listener.accept() {
                    Ok((stream, _)) => break stream,
                    Err(e)
                        if e.kind() == io::ErrorKind::WouldBlock
                            && Instant::now() < self.deadline =>
                    {
                        self.left()?;
                        std::thread::sleep(Duration::from_millis(50))
                    }
                    Err(_) => {
                        let missing = (self.me + 1..self.processes)
                            .find(|&p| self.streams[p].is_none())
                            .expect("one is missing");
                        return Err(self.timeout(missing, None));
                    }
                }
            };
            // A connection that is not a slidedb-gen process (a port scan, a
            // stray client, one that says nothing) is dropped, and the wait
            // goes on; a slidedb-gen process with another command stops it.
            let theirs = match self.greet(&mut stream, None) {
                Ok(theirs) => theirs,
                Err(ConnectError::Io { .. }) => continue,
                Err(ConnectError::Mismatch { what, .. }) if what == NOT_SLIDEDB => continue,
                Err(e) => return Err(e),
            };
            let process = theirs.process as usize;
            if process < self.me || self.streams[process].is_some() {
                return Err(ConnectError::Mismatch {
                    process,
                    address: self.address(process),
                    what: "connected twice".into(),
                });
            }
            self.keep(process, theirs, stream);
            waiting -= 1;
        }
        Ok(())
    }

    /// Keeps `process`'s connection and what its hello said.
    fn keep(&mut self, process: usize, theirs: Hello, stream: TcpStream) {
        self.held[process] = theirs.held;
        self.timeouts[process] = theirs.timeout_ms;
        self.streams[process] = Some(stream);
    }

    /// A process already connected that has stopped since: the wait for
    /// the others ends at once, as a lost process ends the search.
    fn left(&self) -> Result<(), ConnectError> {
        match self
            .streams
            .iter()
            .position(|s| s.as_ref().is_some_and(closed))
        {
            Some(process) => Err(ConnectError::Left {
                process,
                address: self.address(process),
            }),
            None => Ok(()),
        }
    }

    /// Exchanges hellos on a fresh stream (with process `expect`, or with
    /// whoever connected): the other's, checked.
    fn greet(&self, stream: &mut TcpStream, expect: Option<usize>) -> Result<Hello, ConnectError> {
        let who = expect.unwrap_or(self.me);
        let io = |source| ConnectError::Io {
            process: who,
            address: self.address(who),
            source,
        };
        stream.set_nonblocking(false).map_err(io)?;
        let mut left = self
            .deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_secs(1));
        if expect.is_none() {
            // Whoever connected speaks first or is dropped.
            left = left.min(HELLO_WAIT);
        }
        stream.set_read_timeout(Some(left)).map_err(io)?;
        stream.write_all(&self.hello.to_bytes()).map_err(io)?;
        let mut bytes = [0u8; HELLO_LEN];
        stream.read_exact(&mut bytes).map_err(io)?;
        stream.set_read_timeout(None).map_err(io)?;
        let theirs = Hello::from_bytes(&bytes).map_err(|what| ConnectError::Mismatch {
            process: who,
            address: self.address(who),
            what,
        })?;
        self.check(&theirs, expect)?;
        Ok(theirs)
    }

    /// Whether the hello `theirs` (from process `expect`, if known) is of
    /// another process of the same build.
    fn check(&self, theirs: &Hello, expect: Option<usize>) -> Result<(), ConnectError> {
        let (me, processes) = (self.me, self.processes);
        let process = theirs.process as usize;
        let mismatch = |what: String| ConnectError::Mismatch {
            process,
            address: self.address(process.min(processes - 1)),
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
        if theirs.workers != self.hello.workers {
            let workers = |n: u32| format!("{n} worker{}", if n == 1 { "" } else { "s" });
            return Err(mismatch(format!(
                "has {}, not {}",
                workers(theirs.workers),
                workers(self.hello.workers)
            )));
        }
        if theirs.fingerprint != self.hello.fingerprint {
            return Err(mismatch("builds another table (size or goal)".into()));
        }
        Ok(())
    }

    /// The formed cluster, with how often every process must say
    /// something so that the one with the shortest timeout hears from it
    /// in time.
    fn finish(self) -> Connected {
        let shortest = self.timeouts.iter().filter(|&&ms| ms > 0).min().copied();
        let beat = shortest.map_or(MAX_HEARTBEAT, |ms| {
            (Duration::from_millis(ms) / 4).clamp(Duration::from_millis(10), MAX_HEARTBEAT)
        });
        Connected {
            streams: self.streams,
            run: self.run,
            held: self.held,
            beat,
        }
    }
}

/// Sets up a formed connection: no delay, TCP keepalive and user timeout
/// (so that TCP gives up a host that stops acknowledging within about a
/// minute), and read and write timeouts of a [`tick`] of `peer_timeout`.
fn tune(stream: &TcpStream, peer_timeout: Duration) -> io::Result<()> {
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
    let tick = Some(tick(peer_timeout));
    stream
        .set_nodelay(true)
        .and_then(|()| socket.set_tcp_keepalive(&keepalive))
        .and(user_timeout)
        .and_then(|()| stream.set_read_timeout(tick))
        .and_then(|()| stream.set_write_timeout(tick))
}

/// Whether the other end of `stream`, greeted and then silent while the
/// processes connect, has closed it or the connection has failed: a read
/// that would not block finds the end of the stream or an error.
fn closed(stream: &TcpStream) -> bool {
    if stream.set_nonblocking(true).is_err() {
        return true;
    }
    let mut byte = [0u8; 1];
    let gone = match stream.peek(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() != io::ErrorKind::WouldBlock,
    };
    gone || stream.set_nonblocking(false).is_err()
}

/// A formed cluster, as [`connect`] leaves it.
pub(super) struct Connected {
    pub(super) streams: Vec<Option<TcpStream>>,
    pub(super) run: u64,
    pub(super) held: Vec<[Option<Held>; 2]>,
    /// How often to send a heartbeat on a connection with nothing else to
    /// send.
    pub(super) beat: Duration,
}

/// The longest time between two heartbeats.
pub(super) const MAX_HEARTBEAT: Duration = Duration::from_secs(2);

/// How often a blocked read or write of a connection wakes to look at
/// the time and at the search's state.
pub(super) fn tick(peer_timeout: Duration) -> Duration {
    if peer_timeout.is_zero() {
        Duration::from_millis(500)
    } else {
        (peer_timeout / 8).clamp(Duration::from_millis(5), Duration::from_millis(500))
    }
}

// ---------------------------------------------------------------------
// The connections during the search.
// ---------------------------------------------------------------------

/// What every process of one build must agree on: the shape and the goal.
pub(super) fn fingerprint(goal: &Board) -> u64 {
    let class = GoalClass::of(goal);
    let canonical = class.canonical();
    let mut bytes = vec![
        canonical.shape().rows() as u8,
        canonical.shape().cols() as u8,
    ];
    bytes.extend(goal.tiles());
    crate::format::crc32(&bytes) as u64 | (bytes.len() as u64) << 32
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::build::cluster::{DistributedError, search_cluster, table_from_parts};
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
            text.contains("(last: ") && text.contains("with the same hosts list, as process 0"),
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
    pub(in crate::build::cluster) fn two_addresses() -> Vec<String> {
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
}
