//! The error answer: a status and `{"error": "…"}`, worded for the client
//! (no file, no command: those go to the operator's log).
//!
//! Handlers return [`ApiError`] and meet the library's errors with `?`: a
//! failed blocking task, a [`SolveError`] (a query and a body are refused
//! where they are read, in `extract`). The one conversion that needs the server, a
//! [`DatabaseError`] (its detail goes to the operator's log), is
//! [`ApiError::database`]; a search past its budget, worded with the
//! budget, is [`ApiError::past_budget`].

use std::time::Duration;

use axum::Json;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use slidedb::request::RequestError;
use slidedb::{Board, DatabaseError, Engine, SolveError};
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

    /// 408: a body that did not arrive within `client_timeout`.
    pub fn slow_body(client_timeout: Duration) -> ApiError {
        ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the body did not arrive within the {} ms this server waits for it: send it at once, or in smaller batches",
                client_timeout.as_millis()
            ),
        )
    }

    /// 503: a search by `engine` stopped at its budget after `expanded`
    /// nodes. Where the engine has no pattern databases (IDA* with
    /// Manhattan distance), asking again cannot help, and the answer says
    /// why instead ([`past_budget_why`]).
    pub fn past_budget(budget: Duration, expanded: u64, engine: &Engine) -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the search took longer than this server allows ({} ms) after {expanded} nodes; {}",
                budget.as_millis(),
                past_budget_why(engine)
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
            | DatabaseError::Misnamed { .. }
            | DatabaseError::WrongGoal { .. }
            | DatabaseError::OtherMetric { .. } => StatusCode::NOT_FOUND,
            // A metric asked of boards it is not answered for here.
            DatabaseError::Unanswered { .. } => StatusCode::BAD_REQUEST,
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

/// What a search past its budget leaves the client to do: with pattern
/// databases, try again later (the server may have been busy) or ask an
/// easier board; without, the board may be too hard for this server at
/// all, which no second try changes (the operator's log says how to build
/// them).
pub fn past_budget_why(engine: &Engine) -> String {
    if engine.patterns().is_some() {
        "try again later or ask an easier board".to_string()
    } else {
        let goal = engine.goal();
        format!(
            "this server has no pattern databases for {} goal {goal}, and without them the board may be too hard for it: ask an easier board",
            goal.shape()
        )
    }
}

/// What a client is told of a database error: no file, no command.
fn for_client(e: &DatabaseError, goal: &Board) -> String {
    let shape = goal.shape();
    match e {
        DatabaseError::MissingTable { goal, .. } => {
            format!("no table for {} goal {goal} on this server", goal.shape())
        }
        DatabaseError::Misnamed { .. } => {
            format!("no table for {shape} goal {goal} on this server")
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
        DatabaseError::TooBig { .. }
        | DatabaseError::Method { .. }
        | DatabaseError::Unanswered { .. } => e.to_string(),
        DatabaseError::OtherMetric { asked, .. } => format!(
            "no table for {shape} goal {goal} in the {} metric on this server",
            asked.adjective()
        ),
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

#[cfg(test)]
mod tests {
    use super::*;
    use slidedb::{Database, Method, Shape, pdb};

    /// Past its budget, a search with pattern databases may be asked
    /// again; one without says that the server has none for the size and
    /// that the board may be too hard for it, and no more "try again".
    #[test]
    fn past_the_budget_without_pattern_databases_says_so() {
        let goal = Board::solved(Shape::new(4, 4).unwrap());
        let db = Database::in_memory().open().unwrap();
        let plain = db.engine(&goal, Method::Exact).unwrap();
        assert!(plain.patterns().is_none() && !plain.is_lookup());
        let message = ApiError::past_budget(Duration::from_millis(300), 7, &plain).into_message();
        assert_eq!(
            message,
            "the search took longer than this server allows (300 ms) after 7 nodes; this server has no pattern databases for 4x4 goal 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0, and without them the board may be too hard for it: ask an easier board"
        );
        let small = Board::solved(Shape::new(2, 4).unwrap());
        let partition = pdb::Partition::standard(&small, "4-3").unwrap();
        let built = pdb::build(&small, &partition, |_| {}).unwrap();
        let db = Database::in_memory().patterns(built).open().unwrap();
        let searched = db.engine(&small, Method::Exact).unwrap();
        assert!(searched.patterns().is_some());
        let message =
            ApiError::past_budget(Duration::from_millis(300), 7, &searched).into_message();
        assert!(
            message.ends_with("try again later or ask an easier board"),
            "{message}"
        );
        assert!(!message.contains("no pattern databases"), "{message}");
    }
}
