//! `compare`'s progress on stderr. Once a row has run for [`AFTER`], a
//! spinner shows its nodes expanded and its time on a terminal; elsewhere
//! a plain line says the same at once and every [`EVERY`] after. A thread
//! of its own draws them, left out of the heap count
//! ([`crate::alloc::exempt_this_thread`]), and the search only stores its
//! count where that thread reads it: the rows' measures are unchanged.

use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use slidedb::Stats;
use slidedb_cli::progress::Progress;

/// How long a row runs before its progress shows.
const AFTER: Duration = Duration::from_secs(1);
/// How often a plain line is printed after the first.
const EVERY: Duration = Duration::from_secs(5);
/// How often the spinner is redrawn.
const TICK: Duration = Duration::from_millis(100);

/// The progress display of `compare`'s rows; nothing with `--quiet`.
pub struct Ticker {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

/// What the rows and the drawing thread share.
struct Shared {
    state: Mutex<State>,
    changed: Condvar,
    /// The running search's nodes expanded, as it last reported them.
    expanded: AtomicU64,
}

#[derive(Default)]
struct State {
    row: Option<Row>,
    /// The spinner of the running row, once shown (terminal only).
    bar: Option<Progress>,
    /// Whether the drawing thread has started, and is left out of the
    /// heap count.
    ready: bool,
    quit: bool,
}

/// The running row.
struct Row {
    name: &'static str,
    /// Whether it reports nodes expanded (a table lookup or the pattern
    /// databases' IDA* does not).
    counts: bool,
    start: Instant,
    /// When its last plain line was printed.
    printed: Option<Instant>,
}

impl Ticker {
    /// The display, drawing from a thread of its own (none if `quiet`).
    pub fn start(quiet: bool) -> Ticker {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
            expanded: AtomicU64::new(0),
        });
        let terminal = std::io::stderr().is_terminal();
        let thread = (!quiet).then(|| {
            let theirs = Arc::clone(&shared);
            let thread = std::thread::spawn(move || draw(&theirs, terminal));
            // The thread's start (which frees the spawn's memory) is over
            // before any row is measured.
            let mut state = shared.lock();
            while !state.ready {
                state = shared
                    .changed
                    .wait(state)
                    .unwrap_or_else(|e| e.into_inner());
            }
            thread
        });
        Ticker { shared, thread }
    }

    /// A row begins: `name`, which reports nodes expanded if `counts`.
    pub fn begin(&self, name: &'static str, counts: bool) {
        self.shared.expanded.store(0, Relaxed);
        let mut state = self.shared.lock();
        state.row = Some(Row {
            name,
            counts,
            start: Instant::now(),
            printed: None,
        });
        self.shared.changed.notify_all();
    }

    /// The running row's search reports here (nothing is allocated).
    pub fn watch(&self) -> impl FnMut(&Stats) -> ControlFlow<()> + '_ {
        |stats| {
            self.shared.expanded.store(stats.expanded, Relaxed);
            ControlFlow::Continue(())
        }
    }

    /// The row has ended: its spinner is gone when this returns.
    pub fn end(&self) {
        let mut state = self.shared.lock();
        state.row = None;
        if let Some(bar) = state.bar.take() {
            bar.finish();
        }
        self.shared.changed.notify_all();
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.end();
        self.shared.lock().quit = true;
        self.shared.changed.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The drawing thread: shows the running row's progress once it is due,
/// until told to quit.
fn draw(shared: &Shared, terminal: bool) {
    crate::alloc::exempt_this_thread();
    let mut state = shared.lock();
    state.ready = true;
    shared.changed.notify_all();
    while !state.quit {
        let State { row, bar, .. } = &mut *state;
        let Some(row) = row else {
            state = shared
                .changed
                .wait(state)
                .unwrap_or_else(|e| e.into_inner());
            continue;
        };
        let now = Instant::now();
        let elapsed = now - row.start;
        let wait = if elapsed < AFTER {
            AFTER - elapsed
        } else if terminal {
            let bar = bar.get_or_insert_with(|| Progress::spinner(false));
            bar.tick(message(row, shared, elapsed));
            TICK
        } else {
            match row.printed {
                Some(t) if now - t < EVERY => EVERY - (now - t),
                _ => {
                    say!("slidedb: compare: {}", message(row, shared, elapsed));
                    row.printed = Some(now);
                    EVERY
                }
            }
        };
        state = shared
            .changed
            .wait_timeout(state, wait)
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
}

/// `bfs: 12.3 M expanded, 4 s`.
fn message(row: &Row, shared: &Shared, elapsed: Duration) -> String {
    let secs = elapsed.as_secs();
    if row.counts {
        let expanded = slidedb_cli::units::count(shared.expanded.load(Relaxed));
        format!("{}: {expanded} expanded, {secs} s", row.name)
    } else {
        format!("{}: {secs} s", row.name)
    }
}
