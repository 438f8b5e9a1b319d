//! The error answer: a status and `{"error": "…"}`, worded for the client
//! (no file, no command: those go to the operator's log).
//!
//! Handlers return [`ApiError`] and meet the library's and axum's errors
//! with `?`: a rejected query or body, a failed blocking task, a
//! [`SolveError`]. The one conversion that needs the server, a
//! [`DatabaseError`] (its detail goes to the operator's log), is
//! [`ApiError::database`]; a search past its budget, worded with the
//! budget, is [`ApiError::past_budget`].

use std::time::Duration;

use axum::Json;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use slidedb::request::RequestError;
use slidedb::{Board, DatabaseError, SolveError};
use tokio::task::JoinError;

use super::limits::{MAX_BATCH, MAX_BODY, REQUEST_TIMEOUT};
use super::state::State;

/// An answer that is not one: a status and `{"error": "…"}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, Json(body)).into_response()
    }
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// 400: the request is wrong.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 413: a body over [`MAX_BODY`].
    pub fn too_large() -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the body is larger than {MAX_BODY} bytes: send at most {MAX_BATCH} boards a request"
            ),
        )
    }

    /// 500: the server itself failed (a panic, a blocking task lost).
    pub fn bug() -> ApiError {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the server failed on this request (a bug: please report it); it goes on serving",
        )
    }

    /// 503: no search thread came free within the budget.
    pub fn busy(budget: Duration) -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "every search thread stayed busy for {} ms; try again later",
                budget.as_millis()
            ),
        )
    }

    /// 503: the server stops, and begins no more searches.
    pub fn stopping() -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping")
    }

    /// 503: a search stopped at its budget after `expanded` nodes.
    pub fn past_budget(budget: Duration, expanded: u64) -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the search took longer than this server allows ({} ms) after {expanded} nodes; try again later or ask an easier board",
                budget.as_millis()
            ),
        )
    }

    /// What the client is told, without the status (a batch line's error).
    pub fn into_message(self) -> String {
        self.message
    }

    /// The answer to a database error: what is missing is 404, damage
    /// 500. The client is told what it can act on ("no table for 3x4 goal
    /// … on this server"); the operator's detail (the file, the command
    /// that builds or fixes it) goes to the log, once.
    pub fn database(state: &State, e: DatabaseError, goal: &Board) -> ApiError {
        let status = match e {
            DatabaseError::Solve(e) => return e.into(),
            DatabaseError::MissingTable { .. }
            | DatabaseError::MissingPatterns { .. }
            | DatabaseError::TooBig { .. }
            | DatabaseError::NeedsTable { .. }
            | DatabaseError::WrongGoal { .. } => StatusCode::NOT_FOUND,
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
        ApiError::new(status, told)
    }
}

impl From<BytesRejection> for ApiError {
    fn from(e: BytesRejection) -> ApiError {
        let text = e.body_text();
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::too_large()
        } else if text.contains("timeout") {
            ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "the body did not arrive in time (--client-timeout-ms)",
            )
        } else {
            ApiError::bad(format!("cannot read the body: {text}"))
        }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(e: QueryRejection) -> ApiError {
        ApiError::bad(format!("bad query: {}", e.body_text()))
    }
}

/// A blocking task that panicked (a bug) or was cancelled.
impl From<JoinError> for ApiError {
    fn from(_: JoinError) -> ApiError {
        ApiError::bug()
    }
}

/// A board of another size than its goal, or a goal of another class, is
/// the request's fault (400); damage is 500. A search stopped by its
/// budget is worded with the budget where it runs ([`ApiError::past_budget`]);
/// one that reaches here is 503 in the library's words.
impl ApiError {
    /// A question that cannot be asked: 400 for what the client got
    /// wrong; the database's and the table's errors as
    /// [`ApiError::database`] and `From<SolveError>` say.
    pub fn request(state: &State, e: RequestError, goal: &Board) -> ApiError {
        match e {
            RequestError::Database(e) => ApiError::database(state, e, goal),
            RequestError::Solve(e) => e.into(),
            e => ApiError::bad(e.to_string()),
        }
    }
}

impl From<SolveError> for ApiError {
    fn from(e: SolveError) -> ApiError {
        let status = match e {
            SolveError::WrongShape { .. } | SolveError::OtherClass { .. } => {
                StatusCode::BAD_REQUEST
            }
            SolveError::Stopped { .. } => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::new(status, e.to_string())
    }
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

/// An error answer without a body (from a layer, not a handler) gets
/// `{"error"}` saying what its status means.
pub async fn json_if_bare(response: Response) -> Response {
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
    ApiError::new(status, message).into_response()
}
