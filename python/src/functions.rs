//! The module's functions: generate, and the board conversions.

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use slidedb::BuiltFor;

use slidedb::{Board, Database, MAX_IN_MEMORY_CELLS, MAX_TABLE_CELLS};

use crate::answers::PyLayer;
use crate::convert::{parse_board, parse_goal, parse_size, parse_threads};
use crate::errors::database_error;
use crate::table::PyTable;

/// Builds the full table of `size` ("3x3" or (3, 3)) toward `goal`
/// (default: the tiles in order, blank last) in memory, by a parallel
/// breadth-first search, and returns it as a `Table` (save it with
/// `Table.save`). Runs without the GIL on `threads` threads (1 to 256, as
/// `slidedb-gen --threads`) [default: every core]; `progress`, if given,
/// is called with each finished `Layer`.
/// Sizes go up to 12 cells: 3x3 takes milliseconds, 3x4 and 2x6 about 10
/// seconds on two cores and 450 MB.
#[pyfunction]
#[pyo3(signature = (size=None, goal=None, threads=None, progress=None))]
pub(crate) fn generate(
    py: Python<'_>,
    size: Option<&Bound<'_, PyAny>>,
    goal: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    progress: Option<Py<PyAny>>,
) -> PyResult<PyTable> {
    let shape = parse_size(size)?;
    let goal = match (goal, shape) {
        (Some(goal), shape) => parse_goal(goal, shape)?,
        (None, Some(shape)) => Board::solved(shape),
        (None, None) => {
            return Err(PyTypeError::new_err(
                "generate() needs a size, a goal, or both",
            ));
        }
    };
    // The library's message names its own functions: this one names what
    // builds a table from Python (generate) and what builds a bigger one.
    if goal.shape().cells() > MAX_IN_MEMORY_CELLS {
        return Err(PyValueError::new_err(format!(
            "a full table of {} would hold {} states; full tables are built in memory up to {MAX_IN_MEMORY_CELLS} cells (generate), and to a file up to {MAX_TABLE_CELLS} (slidedb-gen)",
            goal.shape(),
            goal.shape().states()
        )));
    }
    let threads = threads.map(parse_threads).transpose()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let mut failed: Option<PyErr> = None;
    let built = py.detach(|| {
        pool.install(|| {
            slidedb::generate(&goal, |layer| {
                if failed.is_some() {
                    return;
                }
                Python::attach(|py| {
                    let result = py.check_signals().and_then(|()| match &progress {
                        Some(callback) => callback
                            .call1(
                                py,
                                (PyLayer {
                                    depth: layer.depth,
                                    states: layer.states,
                                    total: layer.total,
                                    elapsed: layer.elapsed.as_secs_f64(),
                                },),
                            )
                            .map(drop),
                        None => Ok(()),
                    });
                    failed = result.err();
                });
            })
        })
    });
    if let Some(e) = failed {
        return Err(e);
    }
    let table = built.map_err(|e| PyValueError::new_err(e.to_string()))?;
    let goal = *table.goal();
    let db = Database::in_memory()
        .table(table)
        .open()
        .map_err(database_error)?;
    let table = db.table(&goal).map_err(database_error)?;
    Ok(PyTable { table })
}

/// Any board (a string in any syntax of the command line, a sequence of
/// integers, rows) as a list of its cells in reading order, 0 for the
/// blank: `as_list("123/456/78x") == [1, 2, 3, 4, 5, 6, 7, 8, 0]`.
#[pyfunction]
#[pyo3(signature = (board, size=None))]
pub(crate) fn as_list(
    board: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<u32>> {
    // (Not `Vec<u8>`, which would be `bytes`.)
    let board = parse_board(board, parse_size(size)?)?;
    Ok(board.tiles().map(u32::from).collect())
}

/// Any board as a list of rows: `as_grid("123456780") == [[1, 2, 3], [4,
/// 5, 6], [7, 8, 0]]`.
#[pyfunction]
#[pyo3(signature = (board, size=None))]
pub(crate) fn as_grid(
    board: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Vec<u32>>> {
    let board = parse_board(board, parse_size(size)?)?;
    let tiles: Vec<u32> = board.tiles().map(u32::from).collect();
    Ok(tiles
        .chunks(board.shape().cols())
        .map(<[u32]>::to_vec)
        .collect())
}

/// Any board in the command line's format, cells in reading order
/// separated by spaces: `format_board([[1, 2], [3, 0]]) == "1 2 3 0"`.
#[pyfunction]
#[pyo3(signature = (board, size=None))]
pub(crate) fn format_board(
    board: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    Ok(parse_board(board, parse_size(size)?)?.to_string())
}
