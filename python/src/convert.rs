//! Numbers, boards, sizes and goals from Python values.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

use slidedb::request::{self, Distance, Distances};
use slidedb::{Board, BoardError, Database, PathCount, Shape};

use crate::errors::{board_error, request_error};

// Numbers from Python values.

/// An integer from Python: an `int`, or anything with `__index__` (a
/// NumPy integer), never a bool. Its value when it fits a u64; else its
/// digits, as Python writes them (of any size).
pub(crate) enum Int {
    Fits(u64),
    Negative(String),
    Huge(String),
}

impl Int {
    /// The number as Python writes it.
    fn text(&self) -> String {
        match self {
            Int::Fits(n) => n.to_string(),
            Int::Negative(t) | Int::Huge(t) => t.clone(),
        }
    }
}

/// `value` as an integer; anything else is a TypeError `"{what}, not
/// {its type}"`.
pub(crate) fn integer(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Int> {
    if value.is_instance_of::<PyBool>() || !has_index(value)? {
        return Err(PyTypeError::new_err(format!(
            "{what}, not {}",
            value.get_type().name()?
        )));
    }
    // (An int subclass as its int: its own `str` may be another text.)
    let int = if value.is_exact_instance_of::<PyInt>() {
        value.clone()
    } else {
        let operator = value.py().import("operator")?;
        operator.getattr("index")?.call1((value,))?
    };
    if let Ok(n) = int.extract::<u64>() {
        return Ok(Int::Fits(n));
    }
    let text = int.str()?.to_string();
    Ok(if text.starts_with('-') {
        Int::Negative(text)
    } else {
        Int::Huge(text)
    })
}

fn has_index(item: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(item.is_instance_of::<PyInt>() || item.get_type().hasattr("__index__")?)
}

/// The library's message for a cell that is not a tile of `shape`
/// (`max`: its largest tile), of any size: a negative one is not a tile,
/// one past `max` is out of range, named as Python writes it.
pub(crate) fn cell_error(cell: &Int, shape: Shape, max: usize) -> String {
    let written = slidedb::board::shown_token(&cell.text());
    match cell {
        Int::Negative(_) => BoardError::BadCell { token: written },
        Int::Fits(_) | Int::Huge(_) => BoardError::TileOutOfRange {
            tile: written,
            shape,
            max,
        },
    }
    .to_string()
}

/// The most threads `generate` takes, as the command line's `--threads`:
/// far more than any machine has cores.
const MAX_THREADS: usize = 256;

/// A thread count: 1 to [`MAX_THREADS`], as `slidedb-gen --threads`.
pub(crate) fn parse_threads(threads: &Bound<'_, PyAny>) -> PyResult<usize> {
    let what = format!("threads must be an integer from 1 to {MAX_THREADS}");
    match integer(threads, &what)? {
        Int::Fits(n) if (1..=MAX_THREADS as u64).contains(&n) => Ok(n as usize),
        n => {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            Err(PyValueError::new_err(format!(
                "bad thread count {}: use 1 to {MAX_THREADS} threads (this machine has {cores} cores)",
                n.text()
            )))
        }
    }
}

/// A seed: 0 to 2**64-1, as the command line's `random --seed`.
pub(crate) fn parse_seed(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    const WHAT: &str = "seed must be an integer from 0 to 2**64-1";
    match integer(seed, WHAT)? {
        Int::Fits(n) => Ok(n),
        n => Err(PyValueError::new_err(format!("{WHAT}, not {}", n.text()))),
    }
}

/// A number of boards: 0 to 2**64-1.
pub(crate) fn parse_count(count: &Bound<'_, PyAny>) -> PyResult<u64> {
    match integer(count, "count must be an integer")? {
        Int::Fits(n) => Ok(n),
        Int::Negative(t) => Err(PyValueError::new_err(format!(
            "bad count {t}: a number of boards, 0 or more"
        ))),
        Int::Huge(t) => Err(PyValueError::new_err(format!(
            "bad count {t}: a number of boards, at most 2**64-1"
        ))),
    }
}

// Boards and sizes from Python values.

/// A cell given as an integer.
fn cell(item: &Bound<'_, PyAny>) -> PyResult<Int> {
    integer(item, "board cells must be integers")
}

/// A board as the text the library parses: a string as it is; a sequence
/// of integers as its cells, each as Python writes it (of any size or
/// sign: the library names a refused cell as given); a sequence of rows (nested lists, a 2-D NumPy
/// array) as rows split by `/`.
fn board_text(board: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = board.cast::<PyString>() {
        let text = text.to_cow()?.into_owned();
        return Ok(text);
    }
    if board.is_instance_of::<pyo3::types::PyBytes>() {
        return Err(board_type_error(board));
    }
    // A NumPy array as nested lists (of Python ints: exact at any dtype).
    let board = if board.hasattr("tolist")? {
        board.call_method0("tolist")?
    } else {
        board.clone()
    };
    if has_index(&board)? {
        return Err(board_type_error(&board));
    }
    let Ok(items) = board.try_iter() else {
        return Err(board_type_error(&board));
    };
    let mut cells = Vec::new();
    let mut rows = Vec::new();
    for item in items {
        let item = item?;
        if item.is_instance_of::<PyString>() || has_index(&item)? {
            cells.push(cell(&item)?);
        } else {
            let Ok(row) = item.try_iter() else {
                return Err(PyTypeError::new_err(format!(
                    "board cells must be integers, not {}",
                    item.get_type().name()?
                )));
            };
            let row: Vec<Int> = row
                .map(|c| c.and_then(|c| cell(&c)))
                .collect::<PyResult<_>>()?;
            rows.push(row);
        }
    }
    let rows = match (cells.is_empty(), rows.is_empty()) {
        (_, true) => vec![cells],
        (true, false) => rows,
        (false, false) => {
            return Err(PyTypeError::new_err(
                "a board is a sequence of integers or a sequence of rows, not a mix of both",
            ));
        }
    };
    let text = rows
        .iter()
        .map(|row| row.iter().map(Int::text).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join(" / ");
    Ok(text)
}

fn board_type_error(board: &Bound<'_, PyAny>) -> PyErr {
    let name = board
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    PyTypeError::new_err(format!(
        "a board is a string, a sequence of integers or a sequence of rows, not {name}"
    ))
}

pub(crate) fn parse_board(board: &Bound<'_, PyAny>, shape: Option<Shape>) -> PyResult<Board> {
    Board::parse(&board_text(board)?, shape).map_err(|e| PyValueError::new_err(e.to_string()))
}

pub(crate) fn parse_goal(goal: &Bound<'_, PyAny>, shape: Option<Shape>) -> PyResult<Board> {
    let text = board_text(goal)?;
    Board::parse(&text, shape).map_err(|e| PyValueError::new_err(format!("bad goal {text:?}: {e}")))
}

/// A size: `"3x3"` or `(3, 3)`.
fn parse_shape(size: &Bound<'_, PyAny>) -> PyResult<Shape> {
    if let Ok(text) = size.cast::<PyString>() {
        return request::parse_size(&text.to_cow()?).map_err(request_error);
    }
    let pair = size
        .extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>()
        .or_else(|_| size.extract::<[Bound<'_, PyAny>; 2]>().map(|[a, b]| (a, b)));
    if let Ok(pair) = pair
        && let (Ok(rows), Ok(cols)) = (integer(&pair.0, "a side"), integer(&pair.1, "a side"))
    {
        let side = |n: &Int| match n {
            Int::Fits(n) => usize::try_from(*n).ok(),
            _ => None,
        };
        return match (side(&rows), side(&cols)) {
            _ if matches!(rows, Int::Negative(_)) || matches!(cols, Int::Negative(_)) => {
                Err(PyValueError::new_err(format!(
                    "bad size ({}, {}): sides are positive",
                    rows.text(),
                    cols.text()
                )))
            }
            (Some(r), Some(c)) => Shape::new(r, c).map_err(board_error),
            // A side past any number of cells: the library's words, with
            // the numbers given.
            _ => Err(PyValueError::new_err(
                BoardError::UnsupportedSize { rows: 0, cols: 0 }
                    .to_string()
                    .replacen("0x0", &format!("{}x{}", rows.text(), cols.text()), 1),
            )),
        };
    }
    Err(PyTypeError::new_err(format!(
        "a size is a string such as \"3x3\" or a pair (rows, cols), not {}",
        size.get_type().name()?
    )))
}

pub(crate) fn parse_size(size: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Shape>> {
    size.map(parse_shape).transpose()
}

/// The board and goal a call names, read as the command line reads them:
/// the goal (read with the size, if given) sets the size the board is
/// read with; without a goal, the database's default goal of the board's
/// size.
pub(crate) fn board_and_goal(
    db: &Database,
    board: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    size: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Board, Board)> {
    let shape = parse_size(size)?;
    let goal = goal.map(|g| parse_goal(g, shape)).transpose()?;
    let board = parse_board(board, goal.map(|g| g.shape()).or(shape))?;
    let goal = request::goal_for(db, board.shape(), goal).map_err(request_error)?;
    Ok((board, goal))
}

/// The goal a call on whole tables names: `goal`, else the default goal
/// of `size` (3x3 when neither is given).
pub(crate) fn goal_of(
    db: &Database,
    size: Option<&Bound<'_, PyAny>>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<Board> {
    let shape = parse_size(size)?;
    let goal = goal.map(|g| parse_goal(g, shape)).transpose()?;
    let shape = goal.map_or(shape.unwrap_or(Shape::EIGHT), |g| g.shape());
    request::goal_for(db, shape, goal).map_err(request_error)
}

pub(crate) fn big_int(py: Python<'_>, count: &PathCount) -> PyResult<Py<PyAny>> {
    Ok(py.get_type::<PyInt>().call1((count.to_string(),))?.unbind())
}

/// A distance: an integer (a number of moves), or text the library reads
/// as the command line does ("max" for the farthest boards). A negative
/// integer is no distance; one past any distance is kept, for the library
/// to say no board is that far.
pub(crate) fn parse_distance(d: &Bound<'_, PyAny>) -> PyResult<Distance> {
    if let Ok(text) = d.cast::<PyString>() {
        return text.to_cow()?.parse().map_err(request_error);
    }
    match integer(d, "a distance is an integer or \"max\"")? {
        Int::Fits(n) => Ok(Distance::from_moves(n)),
        // Digits past a u64: the library keeps them as given.
        Int::Huge(t) => t.parse().map_err(request_error),
        Int::Negative(t) => Err(PyValueError::new_err(format!(
            "bad distance {t}: distances are 0 or more"
        ))),
    }
}

/// The distances of a draw: none (every board), one distance, or a
/// (least, greatest) pair.
pub(crate) fn parse_distances(d: Option<&Bound<'_, PyAny>>) -> PyResult<Distances> {
    let Some(d) = d else {
        return Ok(Distances::default());
    };
    match d.extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>() {
        Ok((least, greatest)) if !d.is_instance_of::<PyString>() => Ok(Distances::between(
            Some(parse_distance(&least)?),
            Some(parse_distance(&greatest)?),
        )),
        _ => Ok(Distances::exactly(parse_distance(d)?)),
    }
}
