//! The batches, `POST /api/v1/solve` and `POST /api/v1/probe`: one board
//! a line in the body, one JSON line out per line, in order, streamed.

use std::convert::Infallible;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

use axum::body::{Body, Bytes};
use axum::extract::State as Shared;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use slidedb::records::{InvalidRecord, ProbeRecord, SolveRecord};
use slidedb::request;
use slidedb::{Board, Engine, Shape, SolveError};

use super::answer::{engine, search_turn};
use super::error::{ApiError, past_budget_why};
use super::extract::{BodyBytes, Goal, toward};
use super::limits::{CHUNK_LINES, MAX_BATCH};
use super::state::State;

/// Which batch query a POST asks.
#[derive(Clone, Copy)]
enum Batch {
    Solve,
    Probe,
}

pub async fn solve_many(
    Shared(state): Shared<Arc<State>>,
    goal: Result<Goal, ApiError>,
    BodyBytes(body): BodyBytes,
) -> Result<Response, ApiError> {
    // The body's refusal first (a body too large, or too slow), then the
    // query's.
    batch(state, goal?, body, Batch::Solve).await
}

pub async fn probe_many(
    Shared(state): Shared<Arc<State>>,
    goal: Result<Goal, ApiError>,
    BodyBytes(body): BodyBytes,
) -> Result<Response, ApiError> {
    // The body's refusal first (a body too large, or too slow), then the
    // query's.
    batch(state, goal?, body, Batch::Probe).await
}

/// One line of a batch as the command line reads a line of stdin
/// ([`slidedb::request`]): its echo and the board, or why it is none.
fn read_line(bytes: &[u8], size: Option<Shape>) -> (String, Result<Board, String>) {
    let board = request::read_line(bytes, false, size).map_err(|e| e.to_string());
    (request::echo(bytes), board)
}

/// One board a line in, one JSON line out, in order, streamed in chunks
/// as they are answered. A line that is not a board (as the command line
/// reads it) gets `{"line","input","error"}`.
///
/// The searches of a batch (4x4 boards) share one budget, the request's:
/// a batch holds a search thread no longer than a single request may. The
/// line whose search is under way when it runs out gets "took longer than
/// this server allows"; the search lines after it are not begun, and get
/// "not tried", so that a client knows to send them again; so do all of
/// them when no search thread comes free within the budget. The lines
/// answered are kept, and table lookups are answered whatever is left of
/// the budget.
async fn batch(
    state: Arc<State>,
    Goal { size, goal, metric }: Goal,
    body: Bytes,
    kind: Batch,
) -> Result<Response, ApiError> {
    let lines = request::split_lines(&body);
    if lines.len() > MAX_BATCH {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "{} lines: a batch holds at most {MAX_BATCH} boards",
                lines.len()
            ),
        ));
    }
    // What answers each size, resolved before the answer starts; a size
    // that cannot be answered is each of its lines' error, as `solve`
    // makes it.
    let mut engines: Vec<(Shape, Result<Engine, String>)> = Vec::new();
    let mut parsed = Vec::with_capacity(lines.len());
    for line in &lines {
        let (input, read) = read_line(line, size);
        let read = read.and_then(|board| toward(&state, board, goal));
        if let Ok((_, goal)) = &read
            && !engines.iter().any(|(s, _)| *s == goal.shape())
        {
            let found = engine(&state, *goal, metric)
                .await
                .map_err(ApiError::into_message);
            engines.push((goal.shape(), found));
        }
        parsed.push((input, read));
    }
    let searching = engines
        .iter()
        .any(|(_, e)| e.as_ref().is_ok_and(|e| !e.is_lookup()));
    let budget = state.budget;
    // The budget counts from here, the wait for a turn included, as a
    // single request's does.
    let deadline = Instant::now() + budget;
    // No turn (every search thread busy for the whole budget, or the
    // server stopping): the lookups are answered all the same, and each
    // search line says it was not tried.
    let (permit, no_turn) = if searching {
        match search_turn(&state).await {
            Ok(permit) => (Some(permit), None),
            Err(_) if state.stopping.load(Relaxed) => {
                (None, Some("the server is stopping".to_string()))
            }
            Err(_) => (
                None,
                Some(format!(
                    "every search thread stayed busy for {} ms; send this line again",
                    budget.as_millis()
                )),
            ),
        }
    } else {
        (None, None)
    };
    let stopping = state.stopping.clone();
    // Unbounded, so that a client that reads slowly never holds a thread:
    // the whole answer is at most MAX_BATCH lines.
    let (send, receive) = tokio::sync::mpsc::unbounded_channel::<Result<Bytes, Infallible>>();
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let spent = || Instant::now() >= deadline;
        let stopped = || stopping.load(Relaxed);
        let mut chunk = String::new();
        for (i, (input, read)) in parsed.into_iter().enumerate() {
            let invalid = |error: String| {
                let record = InvalidRecord {
                    line: i + 1,
                    input: input.clone(),
                    error,
                };
                serde_json::to_string(&record).expect("json")
            };
            let text = match read {
                Err(e) => invalid(e),
                Ok((board, goal)) => {
                    let engine = &engines
                        .iter()
                        .find(|(s, _)| *s == board.shape())
                        .expect("resolved above")
                        .1;
                    match engine {
                        Err(e) => invalid(e.clone()),
                        Ok(engine) if !engine.is_lookup() && no_turn.is_some() => {
                            invalid(format!("not tried: {}", no_turn.as_deref().unwrap_or("")))
                        }
                        // Past the budget, the searches left are not begun.
                        Ok(engine) if !engine.is_lookup() && stopped() => {
                            invalid("not tried: the server is stopping".to_string())
                        }
                        Ok(engine) if !engine.is_lookup() && spent() => invalid(format!(
                            "not tried: the request's search budget ({} ms) was spent on earlier lines; send this line again",
                            budget.as_millis()
                        )),
                        Ok(engine) => {
                            let watch = |_: &slidedb::Stats| {
                                if spent() || stopped() {
                                    ControlFlow::Break(())
                                } else {
                                    ControlFlow::Continue(())
                                }
                            };
                            match answer_line(engine, kind, &board, &goal, watch) {
                                Ok(json) => json,
                                Err(SolveError::Stopped { .. }) if stopped() => {
                                    invalid("the search stopped: the server is stopping".into())
                                }
                                Err(SolveError::Stopped { .. }) => invalid(format!(
                                    "the search took longer than this server allows ({} ms for all the searches of a request); {}",
                                    budget.as_millis(),
                                    past_budget_why(engine)
                                )),
                                Err(e) => invalid(e.to_string()),
                            }
                        }
                    }
                }
            };
            chunk.push_str(&text);
            chunk.push('\n');
            if (i + 1) % CHUNK_LINES == 0 {
                let full = std::mem::take(&mut chunk);
                if send.send(Ok(Bytes::from(full))).is_err() {
                    return; // the client went away
                }
            }
        }
        if !chunk.is_empty() {
            let _ = send.send(Ok(Bytes::from(chunk)));
        }
    });
    let stream = futures_util::stream::unfold(receive, |mut receive| async move {
        receive.recv().await.map(|chunk| (chunk, receive))
    });
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(stream),
    )
        .into_response())
}

/// One line of a batch, answered by `engine` within `watch`.
fn answer_line(
    engine: &Engine,
    kind: Batch,
    board: &Board,
    goal: &Board,
    watch: impl FnMut(&slidedb::Stats) -> ControlFlow<()> + Send,
) -> Result<String, SolveError> {
    Ok(match kind {
        Batch::Solve => {
            let found = engine.solve_with_progress(board, watch)?;
            serde_json::to_string(&SolveRecord::new(
                board,
                goal,
                found.metric,
                found.moves.as_deref(),
                false,
            ))
        }
        Batch::Probe => {
            let probe = engine.probe_with_progress(board, watch)?;
            serde_json::to_string(&ProbeRecord::new(&probe, goal))
        }
    }
    .expect("json"))
}
