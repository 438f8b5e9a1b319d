//! A search's stop: why it stopped (the first cause any thread of this
//! process saw), and the error the search returns.

use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU32};
use std::sync::{Condvar, Mutex};

use super::DistributedError;

/// Why a search stopped before its end: the first cause any thread of
/// this process saw.
#[derive(Clone, Debug)]
pub(super) enum Cause {
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
pub(super) struct Stop {
    stopped: AtomicBool,
    /// The first cause, and the layer this process was on.
    cause: Mutex<Option<(Cause, u32)>>,
    /// The layer the workers of this process are on (the deepest).
    layer: AtomicU32,
    /// The processes' addresses, to name them.
    addresses: Vec<String>,
    /// Wakes the heartbeat thread: at a stop, or when the search is over
    /// (`true`).
    pub(super) wake: (Mutex<bool>, Condvar),
}

impl Stop {
    pub(super) fn new(addresses: Vec<String>) -> Stop {
        Stop {
            stopped: AtomicBool::new(false),
            cause: Mutex::new(None),
            layer: AtomicU32::new(0),
            addresses,
            wake: (Mutex::new(false), Condvar::new()),
        }
    }

    pub(super) fn is_stopped(&self) -> bool {
        self.stopped.load(Acquire)
    }

    /// Stops the search for `cause`, unless it is stopped already.
    pub(super) fn stop(&self, cause: Cause) {
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
    pub(super) fn reached(&self, layer: u64) {
        self.layer
            .fetch_max(layer.min(u32::MAX as u64) as u32, Relaxed);
    }

    fn address(&self, process: usize) -> String {
        self.addresses.get(process).cloned().unwrap_or_default()
    }

    /// What this process tells the others when it stops.
    pub(super) fn reason(&self) -> String {
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
    pub(super) fn error(&self) -> Option<DistributedError> {
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
