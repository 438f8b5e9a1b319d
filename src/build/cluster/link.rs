//! The connections between processes during the search, under timely:
//! framed, with heartbeats, and never failing in timely's eyes (see the
//! [module docs](super)'s Failures).

use std::any::Any;
use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::initialize::Hooks;
use timely::communication::logging::CommunicationEvent;
use timely::logging_core::Logger;

use super::DistributedError;
use super::stop::{Cause, Stop};

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
pub(super) struct Link {
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
pub(super) struct Heartbeat {
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
pub(super) struct NetStream {
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

/// Timely's allocators for a process's workers, and what must live as
/// long as they run (the guard of timely's communication threads).
pub(super) type Allocators = (Vec<AllocatorBuilder>, Box<dyn Any + Send>);

/// Timely's allocators over the connections `streams` (in process order,
/// `None` for this process), each wrapped in a [`Link`] with `timeout`
/// (the peer timeout, if any), and the heartbeat thread that writes to
/// them every `every` (it stops when the [`Heartbeat`] is dropped);
/// `(sent, received)` count the bytes of timely's messages.
pub(super) fn networked(
    streams: Vec<Option<TcpStream>>,
    every: Duration,
    (process, workers): (usize, usize),
    timeout: Option<Duration>,
    stop: &Arc<Stop>,
    (sent, received): (Arc<AtomicU64>, Arc<AtomicU64>),
) -> Result<(Allocators, Heartbeat), DistributedError> {
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
                    stop: Arc::clone(stop),
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
    let beating_stop = Arc::clone(stop);
    let thread = std::thread::Builder::new()
        .name("slidedb:heartbeat".into())
        .spawn(move || beat(beating, beating_stop, every))
        .map_err(|e| DistributedError::Start(e.to_string()))?;
    let heartbeat = Heartbeat {
        stop: Arc::clone(stop),
        thread: Some(thread),
    };
    let mut hooks = Hooks::default();
    let counters = (sent, received);
    hooks.log_fn = Arc::new(move |_setup| {
        let (sent, received) = (Arc::clone(&counters.0), Arc::clone(&counters.1));
        Some(Logger::new(
            Instant::now(),
            Duration::ZERO,
            move |_time: &Duration, events: &mut Option<Vec<(Duration, CommunicationEvent)>>| {
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
    let local =
        ProcessBuilder::new_typed_vector(workers, hooks.refill.clone(), hooks.spill.clone());
    let (builders, guard) =
        initialize_networking_from_sockets(local, streams, process, workers, hooks)
            .map_err(|e| DistributedError::Start(e.to_string()))?;
    let builders = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
    Ok(((builders, Box::new(guard)), heartbeat))
}

#[cfg(test)]
mod tests {
    use std::net::TcpStream;

    use super::*;
    use crate::board::{Board, Shape};
    use crate::build::cluster::network::tests::two_addresses;
    use crate::build::cluster::network::{HELLO_LEN, Hello, fingerprint};
    use crate::build::cluster::{Cluster, DistributedError, search_cluster};

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
}
