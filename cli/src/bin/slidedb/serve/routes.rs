//! The routes: `/api/v1/…` answers with the records every front end
//! shares (`slidedb::records`), `/` and its assets are the page.
//!
//! Every answer to bad input is a 4xx with `{"error": "…"}` worded as the
//! command line words it; nothing a client sends names a file, and no
//! answer names one either (or a command of the operator's: those go to
//! the server's log on stderr); bodies, lines, batches and counts are
//! bounded; a panic is a 500.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State as Shared};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use slidedb::DatabaseError;
use slidedb::records::{
    BoardRecord, CountRecord, ProbeRecord, SizeRecord, SolveRecord, StatsRecord,
};
use slidedb::request::{self, RandomBoards};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutLayer};

use super::answer::{answer, engine};
use super::batch::{probe_many, solve_many};
use super::error::{ApiError, json_if_bare};
use super::extract::{Asked, Goal, MetricOnly, NoParams, RandomQuery};
use super::limits::{MAX_BODY, REQUEST_TIMEOUT};
use super::page;
use super::request_log::{LogLevel, log_requests};
use super::state::State;

/// The routes under their limits, with the request log `log` asks.
pub fn router(state: Arc<State>, log: LogLevel) -> Router {
    let client_timeout = state.client_timeout;
    let api = Router::new()
        .route("/solve", get(solve_one).post(solve_many))
        .route("/probe", get(probe_one).post(probe_many))
        .route("/count", get(count))
        .route("/random", get(random))
        .route("/stats", get(stats))
        .route("/sizes", get(sizes))
        .route("/openapi.json", get(|_: NoParams| page::openapi()));
    let routes = Router::new()
        .nest("/api/v1", api)
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/backend.js", get(page::backend))
        .route("/style.css", get(page::style))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such page or API route") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "this route takes another method: GET (and POST for batches of solve and probe)",
            )
        })
        .with_state(state);
    let routes = guarded(routes, client_timeout);
    // Outermost, so that it sees every answer's final status (a timeout,
    // a panic's 500).
    match log {
        LogLevel::Off => routes,
        level => routes.layer(axum::middleware::from_fn_with_state(level, log_requests)),
    }
}

/// The limits every route runs under: body size and time, request time,
/// and a panic turned into a 500.
fn guarded(routes: Router, client_timeout: Duration) -> Router {
    routes
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(refuse_declared_too_large))
        .layer(RequestBodyTimeoutLayer::new(client_timeout))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            REQUEST_TIMEOUT,
        ))
        // The layers' own answers (a timeout) carry no body: give them the
        // JSON every error has.
        .layer(axum::middleware::map_response(json_if_bare))
        .layer(CatchPanicLayer::custom(|_| ApiError::bug().into_response()))
}

/// A body declared (by `Content-Length`) larger than [`MAX_BODY`] is
/// refused at once, before a byte of it is read: 413, not a wait for a
/// body the server would refuse anyway.
async fn refuse_declared_too_large(request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return ApiError::too_large().into_response();
    }
    next.run(request).await
}

async fn solve_one(
    Shared(state): Shared<Arc<State>>,
    Asked {
        board,
        goal,
        metric,
    }: Asked,
) -> Result<Json<SolveRecord>, ApiError> {
    let engine = engine(&state, goal, metric).await?;
    let found = answer(&state, engine, move |engine, watch| {
        engine.solve_with_progress(&board, |_| watch())
    })
    .await?;
    Ok(Json(SolveRecord::new(
        &board,
        &goal,
        found.metric,
        found.moves.as_deref(),
        false,
    )))
}

async fn probe_one(
    Shared(state): Shared<Arc<State>>,
    Asked {
        board,
        goal,
        metric,
    }: Asked,
) -> Result<Json<ProbeRecord>, ApiError> {
    let engine = engine(&state, goal, metric).await?;
    let probe = answer(&state, engine, move |engine, watch| {
        engine.probe_with_progress(&board, |_| watch())
    })
    .await?;
    Ok(Json(ProbeRecord::new(&probe, &goal)))
}

async fn count(
    Shared(state): Shared<Arc<State>>,
    Asked {
        board,
        goal,
        metric,
    }: Asked,
) -> Result<Json<CountRecord>, ApiError> {
    let db = state.db(metric);
    let found = tokio::task::spawn_blocking(move || {
        let table = db.table_for("count", &goal)?;
        let count = table.count(&board)?;
        let distance = table.distance(&board)?;
        Ok::<_, DatabaseError>(distance.zip(count))
    })
    .await?
    .map_err(|e| ApiError::database(&state, e, &goal))?;
    Ok(Json(CountRecord::new(&board, &goal, found)))
}

/// Boards drawn uniformly, one JSON object a line (`slidedb random
/// --json`): at a distance, in a range, or among all boards.
async fn random(
    Shared(state): Shared<Arc<State>>,
    RandomQuery {
        goal,
        metric,
        distances,
        seed,
        count,
    }: RandomQuery,
) -> Result<Response, ApiError> {
    let seed = request::seed(seed);
    let shared = state.clone();
    let lines = tokio::task::spawn_blocking(move || -> Result<String, ApiError> {
        let failed = |e| ApiError::request(&shared, e, &goal);
        let db = shared.db(metric);
        let boards = RandomBoards::new(&db, &goal, &distances, seed, true).map_err(failed)?;
        let mut out = String::new();
        for drawn in boards.take(count as usize) {
            let (board, distance) = drawn.map_err(failed)?;
            let record = match distance {
                Some(d) => BoardRecord::new(&board, &goal, d),
                None => BoardRecord::unknown(&board, &goal),
            };
            out.push_str(&serde_json::to_string(&record).expect("json"));
            out.push('\n');
        }
        Ok(out)
    })
    .await??;
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], lines).into_response())
}

/// The full table's description toward a goal: its layer counts.
async fn stats(
    Shared(state): Shared<Arc<State>>,
    goal: Goal,
) -> Result<Json<StatsRecord>, ApiError> {
    let db = state.db(goal.metric);
    let goal = goal.or_default(&state);
    let table = tokio::task::spawn_blocking(move || db.table_for("stats", &goal))
        .await?
        .map_err(|e| ApiError::database(&state, e, &goal))?;
    Ok(Json(StatsRecord::new(&table)))
}

/// The sizes this server answers, how, and toward which goal when none is
/// asked: the library's [`Database::sizes`](slidedb::Database::sizes) as
/// `[{"size","exact","goal"}]` ([`SizeRecord`]).
async fn sizes(
    Shared(state): Shared<Arc<State>>,
    MetricOnly(metric): MetricOnly,
) -> Result<Response, ApiError> {
    let db = state.db(metric);
    let found = tokio::task::spawn_blocking(move || db.sizes())
        .await?
        .map_err(|e| {
            // The path is the operator's, for the log.
            state.log(format!("/sizes: {e}"));
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the server cannot read its data folder",
            )
        })?;
    let found: Vec<SizeRecord> = found.iter().map(SizeRecord::new).collect();
    Ok(Json(found).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use tower::ServiceExt;

    /// A handler that panics answers 500 with a JSON error, and the same
    /// service goes on answering.
    #[test]
    fn a_panic_in_a_handler_is_a_500_and_the_server_goes_on() {
        async fn boom() -> &'static str {
            panic!("a bug")
        }
        let routes = Router::new()
            .route("/boom", get(boom))
            .route("/fine", get(|| async { "fine" }));
        let service = guarded(routes, Duration::from_secs(1));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let ask = |path: &str| axum::http::Request::get(path).body(Body::empty()).unwrap();
            let boom = service.clone().oneshot(ask("/boom")).await.unwrap();
            assert_eq!(boom.status(), StatusCode::INTERNAL_SERVER_ERROR);
            let body = axum::body::to_bytes(boom.into_body(), 4096).await.unwrap();
            let json: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert!(json["error"].as_str().unwrap().contains("goes on serving"));
            let fine = service.oneshot(ask("/fine")).await.unwrap();
            assert_eq!(fine.status(), StatusCode::OK);
        });
    }
}
