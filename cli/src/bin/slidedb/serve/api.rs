//! The routes: `/api/v1/…` answers with the records every front end
//! shares (`slidedb::records`), `/` and its assets are the page.
//!
//! Every answer to bad input is a 4xx with `{"error": "…"}` worded as the
//! command line words it; nothing a client sends names a file, and no
//! answer names one either (or a command of the operator's: those go to
//! the server's log on stderr); bodies, lines, batches and counts are
//! bounded; a panic is a 500.

use std::collections::HashSet;
use std::convert::Infallible;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Json;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Query, Request, State as Shared};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use slidedb::random::{SplitMix64, random_board};
use slidedb::records::{
    BoardRecord, CountRecord, InvalidRecord, ProbeRecord, SolveRecord, StatsRecord,
};
use slidedb::{Board, DatabaseError, Engine, Method, Shape, SolveError};
use tokio::sync::Semaphore;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutLayer};

use super::page;
use crate::data::Data;
use crate::distance::{Distance, parse_server_distance as parse_distance};

/// The largest request body (a batch of boards): 1 MiB.
pub const MAX_BODY: usize = 1 << 20;
/// The most boards in one batch.
pub const MAX_BATCH: usize = 10_000;
/// The longest board, or goal, in a query.
pub const MAX_LINE: usize = 1024;
/// The longest line of a batch, as of the command line's stdin (64 KiB):
/// a longer one is that line's error.
pub const MAX_BATCH_LINE: usize = 64 * 1024;
/// How much of an over-long batch line its error echoes, as the command
/// line does.
const PREVIEW: usize = 64;
/// The most distinct operator messages the log gets (each once).
const MAX_LOGGED: usize = 1000;
/// The most boards one `random` request draws.
pub const MAX_RANDOM: u32 = 1000;
/// The longest any request may take, searches and listings included
/// (`--max-search-ms` stays below it).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(120);
/// Lines a streamed batch answers per chunk.
const CHUNK_LINES: usize = 256;

/// What every handler shares.
pub struct State {
    data: Data,
    /// Permits for searches running at once.
    searches: Arc<Semaphore>,
    /// The time a search may take.
    budget: Duration,
    /// The time a client may take to send a body.
    client_timeout: Duration,
    /// Set when the server stops: searches in flight end at once.
    pub stopping: Arc<AtomicBool>,
    /// The operator's messages already written to the log.
    logged: Mutex<HashSet<String>>,
}

impl State {
    pub fn new(data: Data, searches: usize, budget: Duration, client_timeout: Duration) -> State {
        State {
            data,
            searches: Arc::new(Semaphore::new(searches)),
            budget,
            client_timeout,
            stopping: Arc::new(AtomicBool::new(false)),
            logged: Mutex::new(HashSet::new()),
        }
    }

    /// Writes `message` for the operator on stderr, once (a client cannot
    /// flood the log by asking the same thing again).
    fn log(&self, message: String) {
        let mut logged = self.logged.lock().unwrap_or_else(|e| e.into_inner());
        if logged.len() < MAX_LOGGED && logged.insert(message.clone()) {
            say!("slidedb: {message}");
        }
    }
}

/// An answer that is not one: a status and `{"error": "…"}`.
pub struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.1 });
        (self.0, Json(body)).into_response()
    }
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message.into())
}

/// A body over [`MAX_BODY`].
fn too_large() -> ApiError {
    ApiError(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "the body is larger than {MAX_BODY} bytes: send at most {MAX_BATCH} boards a request"
        ),
    )
}

impl From<BytesRejection> for ApiError {
    fn from(e: BytesRejection) -> ApiError {
        let text = e.body_text();
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            too_large()
        } else if text.contains("timeout") {
            ApiError(
                StatusCode::REQUEST_TIMEOUT,
                "the body did not arrive in time (--client-timeout-ms)".into(),
            )
        } else {
            bad(format!("cannot read the body: {text}"))
        }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(e: QueryRejection) -> ApiError {
        bad(format!("bad query: {}", e.body_text()))
    }
}

/// The answer to a database error: what is missing is 404, damage 500.
/// The client is told what it can act on ("no table for 3x4 goal … on
/// this server"); the operator's detail (the file, the command that
/// builds or fixes it) goes to the log.
fn database_error(state: &State, e: DatabaseError, goal: &Board) -> ApiError {
    let status = match &e {
        DatabaseError::MissingTable { .. }
        | DatabaseError::MissingPatterns { .. }
        | DatabaseError::TooBig { .. }
        | DatabaseError::NeedsTable { .. }
        | DatabaseError::WrongGoal { .. } => StatusCode::NOT_FOUND,
        DatabaseError::Solve(e) => return solve_error(state, e.clone()),
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    let told = for_client(&e, goal);
    let detail = format!("{:#}", state.data.explain(e, Some(goal)));
    if detail != told {
        state.log(format!(
            "a request for {} goal {goal}: {detail}",
            goal.shape()
        ));
    }
    ApiError(status, told)
}

/// What a client is told of a database error: no file, no command.
fn for_client(e: &DatabaseError, goal: &Board) -> String {
    let shape = goal.shape();
    match e {
        DatabaseError::MissingTable { goal, .. } => {
            format!("no table for {} goal {goal} on this server", goal.shape())
        }
        DatabaseError::MissingPatterns { goal, .. } => format!(
            "no pattern databases for {} goal {goal} on this server",
            goal.shape()
        ),
        DatabaseError::WrongGoal { asked, holds, .. } if holds.shape() == asked.shape() => format!(
            "no table for {} goal {asked} on this server: its {} table serves goal {holds} and the goals its symmetries reach",
            asked.shape(),
            holds.shape()
        ),
        DatabaseError::WrongGoal { asked, .. } => {
            format!("no table for {} goal {asked} on this server", asked.shape())
        }
        // Says what the size is answered by: no file in it.
        DatabaseError::TooBig { .. } | DatabaseError::Method { .. } => e.to_string(),
        DatabaseError::NeedsTable { query, source } => format!(
            "{query} needs a full table of every board's distance: {}",
            for_client(source, goal)
        ),
        DatabaseError::Solve(e) => e.to_string(),
        _ => format!(
            "this server cannot use its table or databases for {shape} goal {goal} (its log says why)"
        ),
    }
}

fn solve_error(state: &State, e: SolveError) -> ApiError {
    match e {
        SolveError::Stopped { stats } => ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the search took longer than this server allows ({} ms) after {} nodes; try again later or ask an easier board",
                state.budget.as_millis(),
                stats.expanded
            ),
        ),
        e @ (SolveError::WrongShape { .. } | SolveError::OtherClass { .. }) => bad(e.to_string()),
        e => ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

pub fn router(state: Arc<State>) -> Router {
    let client_timeout = state.client_timeout;
    let api = Router::new()
        .route("/solve", get(solve_one).post(solve_many))
        .route("/probe", get(probe_one).post(probe_many))
        .route("/count", get(count))
        .route("/random", get(random))
        .route("/stats", get(stats))
        .route("/sizes", get(sizes))
        .route("/openapi.json", get(page::openapi));
    let routes = Router::new()
        .nest("/api/v1", api)
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/style.css", get(page::style))
        .fallback(|| async { ApiError(StatusCode::NOT_FOUND, "no such page or API route".into()) })
        .method_not_allowed_fallback(|| async {
            ApiError(
                StatusCode::METHOD_NOT_ALLOWED,
                "this route takes another method: GET (and POST for batches of solve and probe)"
                    .into(),
            )
        })
        .with_state(state);
    guarded(routes, client_timeout)
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
        .layer(CatchPanicLayer::custom(|_| {
            ApiError(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the server failed on this request (a bug: please report it); it goes on serving"
                    .into(),
            )
            .into_response()
        }))
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
        return too_large().into_response();
    }
    next.run(request).await
}

/// A board, and optionally its goal and size.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardQuery {
    board: String,
    goal: Option<String>,
    size: Option<String>,
}

/// A goal and size, each optional.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GoalQuery {
    goal: Option<String>,
    size: Option<String>,
}

fn parse_size(size: Option<&str>) -> Result<Option<Shape>, ApiError> {
    size.map(|s| {
        s.parse::<Shape>().map_err(|e| {
            let e = e.to_string();
            // Some of the library's messages already say so.
            bad(if e.starts_with("bad size") {
                e
            } else {
                format!("bad size {s:?}: {e}")
            })
        })
    })
    .transpose()
}

/// The goal a query names (or the default for the size), and the size in
/// force for reading boards.
fn goal_of(state: &State, q: &GoalQuery) -> Result<(Option<Shape>, Option<Board>), ApiError> {
    let size = parse_size(q.size.as_deref())?;
    let goal = match &q.goal {
        Some(text) if text.len() > MAX_LINE => return Err(bad("the goal is too long")),
        Some(text) => {
            Some(Board::parse(text, size).map_err(|e| bad(format!("bad goal {text:?}: {e}")))?)
        }
        None => size.map(|s| state.data.db.default_goal(s)),
    };
    Ok((goal.map(|g| g.shape()).or(size), goal))
}

/// Reads a board toward a goal, as a line of `solve` reads it.
fn board_and_goal(
    state: &State,
    text: &str,
    size: Option<Shape>,
    goal: Option<Board>,
) -> Result<(Board, Board), String> {
    let board = Board::parse(text, size).map_err(|e| e.to_string())?;
    toward(state, board, goal)
}

/// `board` and the goal it is asked toward (the default for its size).
fn toward(state: &State, board: Board, goal: Option<Board>) -> Result<(Board, Board), String> {
    let goal = goal.unwrap_or_else(|| state.data.db.default_goal(board.shape()));
    if goal.shape() != board.shape() {
        return Err(format!(
            "the board is {} but the goal is {}",
            board.shape(),
            goal.shape()
        ));
    }
    Ok((board, goal))
}

/// The exact engine toward `goal` (opening or building what it needs off
/// the runtime's threads).
async fn engine(state: &Arc<State>, goal: Board) -> Result<Engine, ApiError> {
    let shared = state.clone();
    let found = tokio::task::spawn_blocking(move || shared.data.db.engine(&goal, Method::Exact))
        .await
        .map_err(failed)?;
    found.map_err(|e| database_error(state, e, &goal))
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
async fn answer<T: Send + 'static>(
    state: &Arc<State>,
    engine: Engine,
    work: impl FnOnce(&Engine, &mut dyn FnMut() -> ControlFlow<()>) -> Result<T, SolveError>
    + Send
    + 'static,
) -> Result<T, ApiError> {
    if engine.is_lookup() {
        return work(&engine, &mut || ControlFlow::Continue(())).map_err(|e| solve_error(state, e));
    }
    let deadline = Instant::now() + state.budget;
    let permit = tokio::time::timeout(state.budget, state.searches.clone().acquire_owned())
        .await
        .map_err(|_| {
            ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "every search thread stayed busy for {} ms; try again later",
                    state.budget.as_millis()
                ),
            )
        })?
        .map_err(|_| {
            ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is stopping".into(),
            )
        })?;
    // A client that goes away drops this future, and the guard tells the
    // search to stop; so does the server stopping.
    let guard = Abandoned::default();
    let abandoned = guard.0.clone();
    let stopping = state.stopping.clone();
    let done = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let mut watch = || {
            if Instant::now() >= deadline || abandoned.load(Relaxed) || stopping.load(Relaxed) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        work(&engine, &mut watch)
    })
    .await
    .map_err(failed)?;
    // Answered: the guard's flag no longer matters.
    drop(guard);
    done.map_err(|e| solve_error(state, e))
}

/// The board a query asks about, and the goal it asks toward.
fn asked(state: &State, q: BoardQuery) -> Result<(Board, Board), ApiError> {
    let goal_query = GoalQuery {
        goal: q.goal,
        size: q.size,
    };
    let (size, goal) = goal_of(state, &goal_query)?;
    if q.board.len() > MAX_LINE {
        return Err(bad(format!("the board is longer than {MAX_LINE} bytes")));
    }
    board_and_goal(state, &q.board, size, goal).map_err(bad)
}

/// The answer when a blocking task itself failed (a bug).
fn failed<E>(_: E) -> ApiError {
    ApiError(
        StatusCode::INTERNAL_SERVER_ERROR,
        "the server failed on this request (a bug: please report it); it goes on serving".into(),
    )
}

async fn solve_one(
    Shared(state): Shared<Arc<State>>,
    query: Result<Query<BoardQuery>, QueryRejection>,
) -> Result<Json<SolveRecord>, ApiError> {
    let (board, goal) = asked(&state, query?.0)?;
    let engine = engine(&state, goal).await?;
    let found = answer(&state, engine, move |engine, watch| {
        engine.solve_with_progress(&board, |_| watch())
    })
    .await?;
    Ok(Json(SolveRecord::new(
        &board,
        &goal,
        found.moves.as_deref(),
        false,
    )))
}

async fn probe_one(
    Shared(state): Shared<Arc<State>>,
    query: Result<Query<BoardQuery>, QueryRejection>,
) -> Result<Json<ProbeRecord>, ApiError> {
    let (board, goal) = asked(&state, query?.0)?;
    let engine = engine(&state, goal).await?;
    let probe = answer(&state, engine, move |engine, watch| {
        engine.probe_with_progress(&board, |_| watch())
    })
    .await?;
    Ok(Json(ProbeRecord::new(&probe, &goal)))
}

async fn count(
    Shared(state): Shared<Arc<State>>,
    query: Result<Query<BoardQuery>, QueryRejection>,
) -> Result<Json<CountRecord>, ApiError> {
    let (board, goal) = asked(&state, query?.0)?;
    let shared = state.clone();
    let found = tokio::task::spawn_blocking(move || {
        let table = shared.data.db.table_for("count", &goal)?;
        let count = table.count(&board)?;
        let distance = table.distance(&board)?;
        Ok::<_, DatabaseError>(distance.zip(count))
    })
    .await
    .map_err(failed)?
    .map_err(|e| database_error(&state, e, &goal))?;
    Ok(Json(CountRecord::new(&board, &goal, found)))
}

/// A random board where there is no table to tell its distance.
#[derive(serde::Serialize)]
struct UnknownDistance {
    board: String,
    goal: String,
    distance: Option<u32>,
}

/// A draw of random boards.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RandomQuery {
    goal: Option<String>,
    size: Option<String>,
    distance: Option<String>,
    min: Option<u32>,
    max: Option<String>,
    seed: Option<u64>,
    count: Option<u32>,
}

/// Boards drawn uniformly, one JSON object a line (`slidedb random
/// --json`): at a distance, in a range, or among all boards.
async fn random(
    Shared(state): Shared<Arc<State>>,
    query: Result<Query<RandomQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query?;
    let count = q.count.unwrap_or(1);
    if count == 0 || count > MAX_RANDOM {
        return Err(bad(format!("count must be 1 to {MAX_RANDOM}")));
    }
    if q.distance.is_some() && (q.min.is_some() || q.max.is_some()) {
        return Err(bad("give distance, or min and max, not both"));
    }
    let distance = |text: &Option<String>| -> Result<Option<Distance>, ApiError> {
        text.as_deref().map(parse_distance).transpose().map_err(bad)
    };
    let (exact, max) = (distance(&q.distance)?, distance(&q.max)?);
    let goal_query = GoalQuery {
        goal: q.goal,
        size: q.size,
    };
    let (size, goal) = goal_of(&state, &goal_query)?;
    let goal = goal.unwrap_or_else(|| state.data.db.default_goal(size.unwrap_or(Shape::EIGHT)));
    let seed = q.seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        now.as_nanos() as u64
    });
    let ranged = exact.is_some() || q.min.is_some() || max.is_some();
    let shared = state.clone();
    let lines = tokio::task::spawn_blocking(move || -> Result<String, ApiError> {
        let db = &shared.data.db;
        let mut rng = SplitMix64::new(seed);
        let mut out = String::new();
        let mut push = |board: &Board, distance: Option<u32>| {
            let line = match distance {
                Some(d) => serde_json::to_string(&BoardRecord::new(board, &goal, d)),
                // No table: the same keys, in the same order, as the CLI's.
                None => serde_json::to_string(&UnknownDistance {
                    board: board.to_string(),
                    goal: goal.to_string(),
                    distance: None,
                }),
            };
            out.push_str(&line.expect("json"));
            out.push('\n');
        };
        if !ranged {
            let table = if goal.shape().cells() <= slidedb::MAX_TABLE_CELLS {
                db.table_for("a distance", &goal).ok()
            } else {
                None
            };
            for _ in 0..count {
                let board = random_board(&goal, &mut rng);
                let distance = match &table {
                    Some(t) => t.distance(&board).map_err(|e| solve_error(&shared, e))?,
                    None => None,
                };
                push(&board, distance);
            }
            return Ok(out);
        }
        let table = db
            .table_for("a random board at a distance", &goal)
            .map_err(|e| database_error(&shared, e, &goal))?;
        let greatest = table.get().max_distance();
        let (lo, hi) = match exact {
            Some(d) => (d.resolve(greatest), d.resolve(greatest)),
            None => (q.min.unwrap_or(0), max.map_or(greatest, |m| m.resolve(greatest))),
        };
        if lo > hi {
            return Err(bad(format!("min {lo} is more than max {hi}")));
        }
        if lo > greatest {
            return Err(bad(format!(
                "no {} board is {lo} moves from goal {goal}: the farthest are {greatest} moves away",
                goal.shape()
            )));
        }
        for _ in 0..count {
            let board = db
                .random(&goal, lo..=hi, &mut rng)
                .map_err(|e| database_error(&shared, e, &goal))?
                .ok_or_else(|| bad("no board lies at that distance"))?;
            let distance = if lo == hi {
                lo
            } else {
                table
                    .distance(&board)
                    .map_err(|e| solve_error(&shared, e))?
                    .ok_or_else(|| {
                        ApiError(
                            StatusCode::INTERNAL_SERVER_ERROR,
                            "a drawn board cannot reach the goal".into(),
                        )
                    })?
            };
            push(&board, Some(distance));
        }
        Ok(out)
    })
    .await
    .map_err(failed)??;
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], lines).into_response())
}

/// The full table's description toward a goal: its layer counts.
async fn stats(
    Shared(state): Shared<Arc<State>>,
    query: Result<Query<GoalQuery>, QueryRejection>,
) -> Result<Json<StatsRecord>, ApiError> {
    let Query(q) = query?;
    let (size, goal) = goal_of(&state, &q)?;
    let goal = goal.unwrap_or_else(|| state.data.db.default_goal(size.unwrap_or(Shape::EIGHT)));
    let shared = state.clone();
    let table = tokio::task::spawn_blocking(move || shared.data.db.table_for("stats", &goal))
        .await
        .map_err(failed)?
        .map_err(|e| database_error(&state, e, &goal))?;
    Ok(Json(StatsRecord::new(&table)))
}

/// The sizes this server answers, how, and toward which goal when none is
/// asked: `[{"size","exact","goal"}]`, `exact` being `table` or
/// `patterns` (the goal is the one `--table` or `--pdb` was built for,
/// for its size, else the tiles in order, blank last).
async fn sizes(Shared(state): Shared<Arc<State>>) -> Result<Response, ApiError> {
    let shared = state.clone();
    let found = tokio::task::spawn_blocking(move || {
        let mut found = Vec::new();
        for (rows, cols) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (2, 4),
            (4, 2),
            (3, 3),
            (2, 5),
            (5, 2),
            (3, 4),
            (4, 3),
            (2, 6),
            (6, 2),
            (3, 5),
            (5, 3),
            (4, 4),
        ] {
            let shape = Shape::new(rows, cols).expect("a shape");
            let goal = shared.data.db.default_goal(shape);
            let exact = match shared.data.db.exact(&goal) {
                Ok(slidedb::Exact::Table(_)) => "table",
                Ok(slidedb::Exact::Patterns(_)) => "patterns",
                _ => continue,
            };
            found.push(serde_json::json!({
                "size": shape.to_string(),
                "exact": exact,
                "goal": goal.to_string(),
            }));
        }
        found
    })
    .await
    .map_err(failed)?;
    Ok(Json(found).into_response())
}

/// Which batch query a POST asks.
#[derive(Clone, Copy)]
enum Batch {
    Solve,
    Probe,
}

async fn solve_many(
    shared: Shared<Arc<State>>,
    query: Result<Query<GoalQuery>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body?;
    batch(shared, query, body, Batch::Solve).await
}

async fn probe_many(
    shared: Shared<Arc<State>>,
    query: Result<Query<GoalQuery>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body?;
    batch(shared, query, body, Batch::Probe).await
}

/// One line of a batch as the command line reads a line of stdin: its
/// echo (an over-long line shortened to [`PREVIEW`] bytes, as `solve`
/// echoes it) and the board, or why it is none (longer than
/// [`MAX_BATCH_LINE`], not UTF-8, a NUL byte, not a board).
fn read_line(bytes: &[u8], size: Option<Shape>) -> (String, Result<Board, String>) {
    let too_long = bytes.len() > MAX_BATCH_LINE;
    let shown = if too_long { &bytes[..PREVIEW] } else { bytes };
    let input = String::from_utf8_lossy(shown)
        .trim_end_matches('\r')
        .to_string();
    let read = if too_long {
        Err(format!("the line is longer than {MAX_BATCH_LINE} bytes"))
    } else {
        let line = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        match std::str::from_utf8(line) {
            Err(_) => Err("the line is not UTF-8 text".to_string()),
            Ok(text) if text.contains('\0') => Err("the line holds a NUL byte".to_string()),
            Ok(text) => Board::parse(text, size).map_err(|e| e.to_string()),
        }
    };
    (input, read)
}

/// The body's lines: split at each newline; a last piece after the last
/// newline is a line when it is not empty.
fn split_lines(body: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = body.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// One board a line in, one JSON line out, in order, streamed in chunks
/// as they are answered. A line that is not a board (as the command line
/// reads it) gets `{"line","input","error"}`.
///
/// The searches of a batch (4x4 boards) share one budget, the request's:
/// a batch holds a search thread no longer than a single request may. The
/// line whose search is under way when it runs out gets "took longer than
/// this server allows"; the search lines after it are not begun, and get
/// "not tried", so that a client knows to send them again. Table lookups
/// are answered whatever is left of the budget.
async fn batch(
    Shared(state): Shared<Arc<State>>,
    query: Result<Query<GoalQuery>, QueryRejection>,
    body: Bytes,
    kind: Batch,
) -> Result<Response, ApiError> {
    let Query(q) = query?;
    let (size, goal) = goal_of(&state, &q)?;
    let lines = split_lines(&body);
    if lines.len() > MAX_BATCH {
        return Err(ApiError(
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
            let found = engine(&state, *goal).await.map_err(|e| e.1);
            engines.push((goal.shape(), found));
        }
        parsed.push((input, read));
    }
    let searching = engines
        .iter()
        .any(|(_, e)| e.as_ref().is_ok_and(|e| !e.is_lookup()));
    let permit = if searching {
        let wait = tokio::time::timeout(state.budget, state.searches.clone().acquire_owned());
        Some(
            wait.await
                .map_err(|_| {
                    ApiError(
                        StatusCode::SERVICE_UNAVAILABLE,
                        format!(
                            "every search thread stayed busy for {} ms; try again later",
                            state.budget.as_millis()
                        ),
                    )
                })?
                .map_err(|_| {
                    ApiError(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "the server is stopping".into(),
                    )
                })?,
        )
    } else {
        None
    };
    let budget = state.budget;
    let stopping = state.stopping.clone();
    // Unbounded, so that a client that reads slowly never holds a thread:
    // the whole answer is at most MAX_BATCH lines.
    let (send, receive) = tokio::sync::mpsc::unbounded_channel::<Result<Bytes, Infallible>>();
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let deadline = Instant::now() + budget;
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
                                    "the search took longer than this server allows ({} ms for all the searches of a request)",
                                    budget.as_millis()
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
    watch: impl FnMut(&slidedb::Stats) -> ControlFlow<()>,
) -> Result<String, SolveError> {
    Ok(match kind {
        Batch::Solve => {
            let found = engine.solve_with_progress(board, watch)?;
            serde_json::to_string(&SolveRecord::new(
                board,
                goal,
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

/// An error answer without a body (from a layer, not a handler) gets
/// `{"error"}` saying what its status means.
async fn json_if_bare(response: Response) -> Response {
    let status = response.status();
    let bare = response
        .headers()
        .get(header::CONTENT_LENGTH)
        .is_some_and(|l| l == "0");
    if !(status.is_client_error() || status.is_server_error()) || !bare {
        return response;
    }
    let message = match status {
        StatusCode::SERVICE_UNAVAILABLE => format!(
            "the request took longer than this server allows ({} s)",
            REQUEST_TIMEOUT.as_secs()
        ),
        other => other
            .canonical_reason()
            .unwrap_or("the request failed")
            .to_string(),
    };
    ApiError(status, message).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
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
