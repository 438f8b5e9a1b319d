//! Reading a request: its query, the size, goal and board it names, and
//! its body, each refused as the command line refuses it, with the JSON
//! error every refusal has.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::request::Parts;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use slidedb::request;
use slidedb::{Board, Shape};

use super::error::ApiError;
use super::limits::MAX_LINE;
use super::state::State;

/// The query's fields, as `T` (unknown fields refused): a query that does
/// not read is 400 `bad query: …`.
pub struct Fields<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Fields<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Query(fields) = Query::<T>::from_request_parts(parts, state).await?;
        Ok(Fields(fields))
    }
}

/// The body, whole (bounded by `MAX_BODY` and the client's time): too
/// large is 413, too slow 408.
pub struct BodyBytes(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for BodyBytes {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        Ok(BodyBytes(Bytes::from_request(request, state).await?))
    }
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

/// A draw of random boards.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomQuery {
    pub goal: Option<String>,
    pub size: Option<String>,
    pub distance: Option<String>,
    pub min: Option<String>,
    pub max: Option<String>,
    pub seed: Option<u64>,
    pub count: Option<u32>,
}

fn parse_size(size: Option<&str>) -> Result<Option<Shape>, ApiError> {
    size.map(|s| request::parse_size(s).map_err(|e| ApiError::bad(e.to_string())))
        .transpose()
}

/// The goal a query names (or the default for the size), and the size in
/// force for reading boards: `?goal=…&size=…`, each optional.
pub struct Goal {
    pub size: Option<Shape>,
    pub goal: Option<Board>,
}

impl Goal {
    /// Reads the query's `goal` and `size`.
    pub fn read(state: &State, goal: Option<&str>, size: Option<&str>) -> Result<Goal, ApiError> {
        let size = parse_size(size)?;
        let goal = match goal {
            Some(text) if text.len() > MAX_LINE => {
                return Err(ApiError::bad("the goal is too long"));
            }
            Some(text) => {
                Some(request::parse_goal(text, size).map_err(|e| ApiError::bad(e.to_string()))?)
            }
            None => size.map(|s| state.data.db.default_goal(s)),
        };
        Ok(Goal {
            size: goal.map(|g| g.shape()).or(size),
            goal,
        })
    }

    /// The goal asked, or the default one of the size asked (3x3 when
    /// neither is).
    pub fn or_default(&self, state: &State) -> Board {
        self.goal.unwrap_or_else(|| {
            state
                .data
                .db
                .default_goal(self.size.unwrap_or(Shape::EIGHT))
        })
    }
}

impl FromRequestParts<Arc<State>> for Goal {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<State>) -> Result<Self, ApiError> {
        let Fields(q) = Fields::<GoalQuery>::from_request_parts(parts, state).await?;
        Goal::read(state, q.goal.as_deref(), q.size.as_deref())
    }
}

/// The board a query asks about, and the goal it asks toward:
/// `?board=…&goal=…&size=…`.
pub struct Asked {
    pub board: Board,
    pub goal: Board,
}

impl FromRequestParts<Arc<State>> for Asked {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<State>) -> Result<Self, ApiError> {
        let Fields(q) = Fields::<BoardQuery>::from_request_parts(parts, state).await?;
        let Goal { size, goal } = Goal::read(state, q.goal.as_deref(), q.size.as_deref())?;
        if q.board.len() > MAX_LINE {
            return Err(ApiError::bad(format!(
                "the board is longer than {MAX_LINE} bytes"
            )));
        }
        let board = Board::parse(&q.board, size).map_err(|e| ApiError::bad(e.to_string()))?;
        let (board, goal) = toward(state, board, goal).map_err(ApiError::bad)?;
        Ok(Asked { board, goal })
    }
}

/// `board` and the goal it is asked toward (the default for its size), as
/// a line of `solve` reads it.
pub fn toward(state: &State, board: Board, goal: Option<Board>) -> Result<(Board, Board), String> {
    let goal = request::goal_for(&state.data.db, board.shape(), goal).map_err(|e| e.to_string())?;
    Ok((board, goal))
}
