//! Reading a request: its query, the size, goal and board it names, and
//! its body, each refused as the command line refuses it, with the JSON
//! error every refusal has.
//!
//! A query is read as the command line reads its options ([`Params`]):
//! each parameter a route takes at most once, any other refused, and a
//! refusal is one sentence naming the parameter and what it takes, never
//! a parser's own words.

use std::ops::RangeInclusive;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use slidedb::request::{self, Distance, Distances, RequestError};
use slidedb::{Board, Metric, Shape};

use super::error::ApiError;
use super::limits::{MAX_LINE, MAX_RANDOM};
use super::state::State;

/// The most bytes of a parameter's name or value a refusal repeats.
const SHOWN: usize = 64;

/// `text` cut at [`SHOWN`] bytes (then `…`).
fn cut(text: &str) -> String {
    if text.len() <= SHOWN {
        text.to_string()
    } else {
        format!("{}…", &text[..text.floor_char_boundary(SHOWN)])
    }
}

/// `text` as a refusal repeats it: quoted, cut at [`SHOWN`] bytes.
fn shown(text: &str) -> String {
    if text.len() <= SHOWN {
        format!("{text:?}")
    } else {
        format!("{:?}…", &text[..text.floor_char_boundary(SHOWN)])
    }
}

/// `names` as a sentence lists them: `a, b and c`.
fn listed(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A query's parameters, decoded (`%20` and `+` as a space), each one the
/// route takes and each given at most once.
pub struct Params {
    pairs: Vec<(String, String)>,
}

impl Params {
    /// Reads `query` for a route that takes the parameters `takes`: a
    /// name it does not take, or one given twice, is 400 naming it.
    pub fn read(query: Option<&str>, takes: &[&str]) -> Result<Params, ApiError> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for (name, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
            if !takes.contains(&name.as_ref()) {
                let takes = if takes.is_empty() {
                    "this route takes no parameters".to_string()
                } else {
                    format!("this route takes {}", listed(takes))
                };
                return Err(ApiError::bad(format!(
                    "unknown parameter {}: {takes}",
                    shown(&name)
                )));
            }
            if pairs.iter().any(|(n, _)| *n == name) {
                return Err(ApiError::bad(format!(
                    "the parameter {name} is given more than once: give it once"
                )));
            }
            pairs.push((name.into_owned(), value.into_owned()));
        }
        Ok(Params { pairs })
    }

    /// The value of `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The whole number `name` gives, if any, within `range`: anything
    /// else is 400 saying the range (`what` says what to give, such as
    /// "how many boards to draw").
    pub fn number(
        &self,
        name: &str,
        range: RangeInclusive<u64>,
        what: &str,
    ) -> Result<Option<u64>, ApiError> {
        self.get(name)
            .map(|text| number(name, text, range, what))
            .transpose()
    }

    /// The metric `metric` names (single or multi, read by the library's
    /// [`Metric`] parser), or the server's own when none is given
    /// (single-tile unless the operator said otherwise): anything else is
    /// 400.
    pub fn metric(&self, state: &State) -> Result<Metric, ApiError> {
        match self.get("metric") {
            None => Ok(state.data.db.metric()),
            Some(text) => text.parse::<Metric>().map_err(|_| {
                ApiError::bad(format!(
                    "bad metric {}: give single (one tile a move) or multi (a slide of one or more tiles along a row or column a move)",
                    shown(text)
                ))
            }),
        }
    }

    /// The distance `name` gives, if any: a number of moves, or `max`.
    fn distance(&self, name: &str) -> Result<Option<Distance>, ApiError> {
        self.get(name)
            .map(|text| {
                text.parse::<Distance>().map_err(|_| {
                    ApiError::bad(format!(
                        "bad {name} {}: give a number of moves, or max",
                        shown(text)
                    ))
                })
            })
            .transpose()
    }
}

/// `text` as the number `name` within `range`. A number too large for
/// any range (past 2^64 - 1) or negative is out of range, as one too
/// large for this one is; what is no number says what the range is.
fn number(name: &str, text: &str, range: RangeInclusive<u64>, what: &str) -> Result<u64, ApiError> {
    let (least, most) = (*range.start(), *range.end());
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::bad(format!(
            "bad {name} {}: give {what}, a whole number from {least} to {most}",
            shown(text)
        )));
    }
    match text.parse::<u64>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(ApiError::bad(format!(
            "{name} {} is out of range: give {what}, from {least} to {most}",
            cut(text)
        ))),
    }
}

/// A route that takes no parameters: any given is 400 naming it.
pub struct NoParams;

impl<S: Send + Sync> FromRequestParts<S> for NoParams {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        Params::read(parts.uri.query(), &[])?;
        Ok(NoParams)
    }
}

/// `?metric=…`, optional, and nothing else (`sizes`).
pub struct MetricOnly(pub Metric);

impl FromRequestParts<Arc<State>> for MetricOnly {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<State>) -> Result<Self, ApiError> {
        let q = Params::read(parts.uri.query(), &["metric"])?;
        Ok(MetricOnly(q.metric(state)?))
    }
}

/// The body, whole (bounded by `MAX_BODY` and the client's time): too
/// large is 413, too slow 408. The client's time bounds the whole body,
/// not only each wait between its pieces (as the body's own layer does),
/// so that a body sent a byte at a time cannot hold a request open.
pub struct BodyBytes(pub Bytes);

impl FromRequest<Arc<State>> for BodyBytes {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &Arc<State>) -> Result<Self, ApiError> {
        let limit = state.client_timeout;
        match tokio::time::timeout(limit, Bytes::from_request(request, state)).await {
            Err(_) => Err(ApiError::slow_body(limit)),
            Ok(read) => read.map(BodyBytes).map_err(|e| body_refused(e, limit)),
        }
    }
}

/// Why a body could not be read, for the client: the server's own limits
/// in numbers, never its options.
fn body_refused(e: BytesRejection, client_timeout: Duration) -> ApiError {
    let text = e.body_text();
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::too_large()
    } else if text.contains("timeout") || text.contains("timed out") {
        ApiError::slow_body(client_timeout)
    } else {
        ApiError::bad(format!("cannot read the body: {text}"))
    }
}

/// A draw of random boards, as `slidedb random` takes it:
/// `?goal=…&size=…&distance=…|min=…&max=…&seed=…&count=…`, each
/// optional, read and checked.
pub struct RandomQuery {
    pub goal: Board,
    pub metric: Metric,
    pub distances: Distances,
    pub seed: Option<u64>,
    pub count: u64,
}

impl FromRequestParts<Arc<State>> for RandomQuery {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<State>) -> Result<Self, ApiError> {
        let q = Params::read(
            parts.uri.query(),
            &[
                "goal", "size", "metric", "distance", "min", "max", "seed", "count",
            ],
        )?;
        let metric = q.metric(state)?;
        let count = q
            .number(
                "count",
                1..=u64::from(MAX_RANDOM),
                "how many boards to draw",
            )?
            .unwrap_or(1);
        let seed = q.number("seed", 0..=u64::MAX, "a seed")?;
        let distances = Distances {
            exact: q.distance("distance")?,
            least: q.distance("min")?,
            greatest: q.distance("max")?,
        };
        distances
            .check()
            .map_err(|e: RequestError| ApiError::bad(e.to_string()))?;
        let goal = Goal::read(state, q.get("goal"), q.get("size"))?.or_default(state);
        Ok(RandomQuery {
            goal,
            metric,
            distances,
            seed,
            count,
        })
    }
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
    /// The metric asked (`?metric=`), the server's when none is.
    pub metric: Metric,
}

impl Goal {
    /// Reads the query's `goal` and `size`.
    pub fn read(state: &State, goal: Option<&str>, size: Option<&str>) -> Result<Goal, ApiError> {
        let size = parse_size(size)?;
        let goal = match goal {
            Some(text) if text.len() > MAX_LINE => {
                return Err(ApiError::bad(format!(
                    "the goal is longer than {MAX_LINE} bytes"
                )));
            }
            Some(text) => {
                Some(request::parse_goal(text, size).map_err(|e| ApiError::bad(e.to_string()))?)
            }
            None => size.map(|s| state.data.db.default_goal(s)),
        };
        Ok(Goal {
            size: goal.map(|g| g.shape()).or(size),
            goal,
            metric: state.data.db.metric(),
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

/// `?goal=…&size=…&metric=…`, each optional (`stats`, and the batches).
impl FromRequestParts<Arc<State>> for Goal {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<State>) -> Result<Self, ApiError> {
        let q = Params::read(parts.uri.query(), &["goal", "size", "metric"])?;
        let metric = q.metric(state)?;
        Ok(Goal {
            metric,
            ..Goal::read(state, q.get("goal"), q.get("size"))?
        })
    }
}

/// The board a query asks about, and the goal it asks toward:
/// `?board=…&goal=…&size=…&metric=…`.
pub struct Asked {
    pub board: Board,
    pub goal: Board,
    /// The metric asked, the server's when none is.
    pub metric: Metric,
}

impl FromRequestParts<Arc<State>> for Asked {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<State>) -> Result<Self, ApiError> {
        let q = Params::read(parts.uri.query(), &["board", "goal", "size", "metric"])?;
        let metric = q.metric(state)?;
        let Some(text) = q.get("board") else {
            return Err(ApiError::bad(
                "the parameter board is missing: give the board to answer, its tiles row by row and the blank as 0, x, _ or .",
            ));
        };
        let Goal { size, goal, .. } = Goal::read(state, q.get("goal"), q.get("size"))?;
        if text.len() > MAX_LINE {
            return Err(ApiError::bad(format!(
                "the board is longer than {MAX_LINE} bytes"
            )));
        }
        let board = Board::parse(text, size)
            .map_err(|e| ApiError::bad(format!("bad board {}: {e}", shown(text))))?;
        let (board, goal) = toward(state, board, goal).map_err(ApiError::bad)?;
        Ok(Asked {
            board,
            goal,
            metric,
        })
    }
}

/// `board` and the goal it is asked toward (the default for its size), as
/// a line of `solve` reads it.
pub fn toward(state: &State, board: Board, goal: Option<Board>) -> Result<(Board, Board), String> {
    let goal = request::goal_for(&state.data.db, board.shape(), goal).map_err(|e| e.to_string())?;
    Ok((board, goal))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(result: Result<Option<u64>, ApiError>) -> String {
        result.expect_err("refused").into_message()
    }

    #[test]
    fn a_number_is_read_within_its_range_and_refused_in_plain_words() {
        let q = |query: &str| Params::read(Some(query), &["seed", "count"]).unwrap();
        let seed = |query: &str| q(query).number("seed", 0..=u64::MAX, "a seed");
        let count = |query: &str| q(query).number("count", 1..=1000, "how many boards to draw");
        assert_eq!(seed("seed=18446744073709551615").unwrap(), Some(u64::MAX));
        assert_eq!(seed("count=3").unwrap(), None);
        assert_eq!(count("count=1000").unwrap(), Some(1000));
        assert_eq!(
            refused(seed("seed=18446744073709551616")),
            "seed 18446744073709551616 is out of range: give a seed, from 0 to 18446744073709551615"
        );
        assert_eq!(
            refused(count("count=-1")),
            "count -1 is out of range: give how many boards to draw, from 1 to 1000"
        );
        assert_eq!(
            refused(count("count=0")),
            "count 0 is out of range: give how many boards to draw, from 1 to 1000"
        );
        assert_eq!(
            refused(count("count=ten")),
            "bad count \"ten\": give how many boards to draw, a whole number from 1 to 1000"
        );
        let long = format!("count={}", "9".repeat(100));
        let message = refused(count(&long));
        assert!(message.contains("is out of range"), "{message}");
        assert!(message.len() < 150, "{message}");
    }

    #[test]
    fn a_query_names_each_parameter_once_and_only_those_the_route_takes() {
        let read = |query: &str| Params::read(Some(query), &["board", "goal", "size"]);
        let q = read("board=1+2%203&size=3x3").unwrap();
        assert_eq!(
            (q.get("board"), q.get("size"), q.get("goal")),
            (Some("1 2 3"), Some("3x3"), None)
        );
        assert_eq!(
            read("board=1&bored=2").err().unwrap().into_message(),
            "unknown parameter \"bored\": this route takes board, goal and size"
        );
        assert_eq!(
            read("size=3x3&size=4x4").err().unwrap().into_message(),
            "the parameter size is given more than once: give it once"
        );
        assert_eq!(
            Params::read(Some("x"), &[]).err().unwrap().into_message(),
            "unknown parameter \"x\": this route takes no parameters"
        );
        assert!(Params::read(None, &[]).is_ok());
    }
}
