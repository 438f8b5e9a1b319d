//! What every handler shares: the data, the pool of searches and its
//! budget, and the operator's log of messages said once.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use slidedb::{Database, Metric};
use tokio::sync::Semaphore;

use super::limits::MAX_LOGGED;
use crate::data::OpenDatabase;

/// What every handler shares.
pub struct State {
    pub data: OpenDatabase,
    /// Permits for searches running at once.
    pub searches: Arc<Semaphore>,
    /// The time a search may take.
    pub budget: Duration,
    /// The time a client may take to send a body.
    pub client_timeout: Duration,
    /// Set when the server stops: searches in flight end at once.
    pub stopping: Arc<AtomicBool>,
    /// The operator's messages already written to the log.
    logged: Mutex<HashSet<String>>,
}

impl State {
    pub fn new(
        data: OpenDatabase,
        searches: usize,
        budget: Duration,
        client_timeout: Duration,
    ) -> State {
        State {
            data,
            searches: Arc::new(Semaphore::new(searches)),
            budget,
            client_timeout,
            stopping: Arc::new(AtomicBool::new(false)),
            logged: Mutex::new(HashSet::new()),
        }
    }

    /// The database answering in `metric`: the one seam between a
    /// request's `?metric=` and the library's policy for it.
    pub fn db(&self, metric: Metric) -> Database {
        self.data.db.with_metric(metric)
    }

    /// Writes `message` for the operator on stderr, once (a client cannot
    /// flood the log by asking the same thing again).
    pub fn log(&self, message: String) {
        let mut logged = self.logged.lock().unwrap_or_else(|e| e.into_inner());
        if logged.len() < MAX_LOGGED && logged.insert(message.clone()) {
            say!("slidedb: {message}");
        }
    }
}
