//! Errors: the library's messages, as the command line writes them.

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use slidedb::request::RequestError;
use slidedb::{BoardError, DatabaseError, SolveError};

create_exception!(
    slidedb,
    TableError,
    PyOSError,
    "A table or pattern databases file that is missing, unreadable or damaged, or a data folder that cannot be used (a subclass of OSError)."
);

/// The message of `e` and of each error under it, joined by `: ` (as
/// the command line writes an error).
pub(crate) fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// The metric named `name` (any of the command line's names: "single",
/// "multi", "stm", "mtm", ...); the single-tile metric if None.
pub(crate) fn parse_metric(name: Option<&str>) -> PyResult<slidedb::Metric> {
    name.map_or(Ok(slidedb::Metric::Single), |n| {
        n.parse().map_err(board_error)
    })
}

pub(crate) fn board_error(e: BoardError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

pub(crate) fn solve_error(e: SolveError) -> PyErr {
    let text = chain(&e);
    match e {
        SolveError::Damaged { .. } => TableError::new_err(text),
        SolveError::SearchLimit { .. } | SolveError::Stopped { .. } => {
            PyRuntimeError::new_err(text)
        }
        _ => PyValueError::new_err(text),
    }
}

pub(crate) fn database_error(e: DatabaseError) -> PyErr {
    let text = chain(&e);
    let kind = match &e {
        DatabaseError::NeedsTable { source, .. } => source.as_ref(),
        e => e,
    };
    match kind {
        DatabaseError::TooBig { .. }
        | DatabaseError::Method { .. }
        | DatabaseError::Unanswered { .. }
        | DatabaseError::Generate(_)
        | DatabaseError::Patterns(_) => PyValueError::new_err(text),
        DatabaseError::Solve(e) => solve_error(e.clone()),
        _ => TableError::new_err(text),
    }
}

/// A question the library's `request` module turned down: what was wrong
/// with it (a size, a goal, a distance, a range) is a ValueError with the
/// library's message; what the database or a table could not do is as
/// [`database_error`] and [`solve_error`] make it.
pub(crate) fn request_error(e: RequestError) -> PyErr {
    match e {
        RequestError::Database(e) => database_error(e),
        RequestError::Solve(e) => solve_error(e),
        e => PyValueError::new_err(e.to_string()),
    }
}
