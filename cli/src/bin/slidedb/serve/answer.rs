//! Answering a question: the engine toward a goal, and a lookup inline or
//! a search on the bounded pool within its budget.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

use slidedb::{Board, Engine, Method, Metric, SolveError};
use tokio::sync::OwnedSemaphorePermit;

use super::error::ApiError;
use super::state::State;

/// The exact engine toward `goal` in `metric`: on the runtime's thread when its table
/// is open already, else opening or building what it needs on a blocking
/// thread.
pub async fn engine(state: &Arc<State>, goal: Board, metric: Metric) -> Result<Engine, ApiError> {
    let db = state.db(metric);
    if let Some(engine) = db.ready_engine(&goal) {
        return Ok(engine);
    }
    let found = tokio::task::spawn_blocking(move || db.engine(&goal, Method::Exact)).await?;
    found.map_err(|e| ApiError::database(state, e, &goal))
}

/// A turn on the bounded pool of searches, waited for within the search
/// budget (503 past it, or when the server stops); the search holds it
/// until it ends. A request waits for one for its search, a batch for one
/// for all of its searches.
pub async fn search_turn(state: &State) -> Result<OwnedSemaphorePermit, ApiError> {
    let wait = tokio::time::timeout(state.budget, state.searches.clone().acquire_owned());
    match wait.await {
        Err(_) => Err(ApiError::busy(state.budget)),
        Ok(Err(_)) => Err(ApiError::stopping()),
        Ok(Ok(permit)) => Ok(permit),
    }
}

/// Set when dropped: the request's future went away before its search
/// ended (the client left), so the search may stop.
#[derive(Default)]
struct Abandoned(Arc<AtomicBool>);

impl Drop for Abandoned {
    fn drop(&mut self) {
        self.0.store(true, Relaxed);
    }
}

/// Runs `work` with a deadline: inline for a lookup, else on the bounded
/// pool of searches, waiting for a turn within the same budget.
pub async fn answer<T: Send + 'static>(
    state: &Arc<State>,
    engine: Engine,
    work: impl FnOnce(&Engine, &mut (dyn FnMut() -> ControlFlow<()> + Send)) -> Result<T, SolveError>
    + Send
    + 'static,
) -> Result<T, ApiError> {
    if engine.is_lookup() {
        return Ok(work(&engine, &mut || ControlFlow::Continue(()))?);
    }
    let deadline = Instant::now() + state.budget;
    let permit = search_turn(state).await?;
    // A client that goes away drops this future, and the guard tells the
    // search to stop; so does the server stopping.
    let guard = Abandoned::default();
    let abandoned = guard.0.clone();
    let stopping = state.stopping.clone();
    let searcher = engine.clone();
    let done = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let mut watch = || {
            if Instant::now() >= deadline || abandoned.load(Relaxed) || stopping.load(Relaxed) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        work(&searcher, &mut watch)
    })
    .await?;
    // Answered: the guard's flag no longer matters.
    drop(guard);
    match done {
        Ok(answer) => Ok(answer),
        // Stopped by the watch: past the budget (or the server stopping).
        Err(SolveError::Stopped { stats }) => {
            Err(ApiError::past_budget(state.budget, stats.expanded, &engine))
        }
        Err(e) => Err(e.into()),
    }
}
