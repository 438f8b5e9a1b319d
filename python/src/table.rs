//! Tables and batches.

use slidedb::BuiltFor;
use std::path::PathBuf;

use numpy::{PyArray1, PyReadonlyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyDict};
use rayon::prelude::*;

use slidedb::database::Bytes;
use slidedb::records::StatsRecord;
use slidedb::{Board, BoardError, Database, Shape, SolveError, Table, Toward, moves_to_string};

use crate::answers::{PyProbe, PySolution, probe_record, stats_dict};
use crate::convert::{Int, big_int, cell_error, integer, parse_board};
use crate::errors::{TableError, board_error, chain, database_error, solve_error};

/// One full distance table: every board of its size that can reach its
/// goal, at its distance. Made by `slidedb.generate` (in memory),
/// `Table.open` (a file, memory-mapped) or `Database.table`; it answers
/// toward its goal.
///
/// Its NumPy batches, `distances` and `solve_many`, take an (n, cells)
/// integer array (cells in reading order, 0 for the blank; an (n, rows,
/// cols) array is read as rows) and run on every core without the GIL.
#[pyclass(frozen, module = "slidedb", name = "Table")]
pub(crate) struct PyTable {
    pub(crate) table: Toward<Table<Bytes>>,
}

impl PyTable {
    fn shape(&self) -> Shape {
        self.table.toward().goal().shape()
    }

    /// The boards of an (n, cells) or (n, rows, cols) integer array,
    /// copied into one byte a cell: their number and the bytes. A cell
    /// that is not a tile of the table's boards (of any value, at any
    /// integer dtype) is an error naming its row.
    fn boards(&self, boards: &Bound<'_, PyAny>) -> PyResult<(usize, Vec<u8>)> {
        let py = boards.py();
        let shape = self.shape();
        let cells = shape.cells();
        let numpy = py.import("numpy")?;
        let given_array = boards.is_instance(&numpy.getattr("ndarray")?)?;
        let mut array = numpy.getattr("asarray")?.call1((boards,))?;
        let dims: Vec<usize> = array.getattr("shape")?.extract()?;
        let dtype = array.getattr("dtype")?.str()?.to_string();
        let mut kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
        let not_integers =
            || PyTypeError::new_err(format!("boards must be an integer array, not {dtype}"));
        if !matches!(kind.as_str(), "i" | "u" | "O") {
            if given_array {
                return Err(not_integers());
            }
            // Lists that NumPy reads as floats (integers past int64 with
            // others) or objects (past 64 bits) are read cell by cell.
            array = numpy
                .getattr("asarray")?
                .call((boards,), Some(&[("dtype", "object")].into_py_dict(py)?))?;
            kind = "O".to_string();
        }
        match *dims.as_slice() {
            [_, c] if c == cells => {}
            [n, r, c] if (r, c) == (shape.rows(), shape.cols()) => {
                array = array.call_method1("reshape", ((n, cells),))?;
            }
            [_, c] => {
                return Err(PyValueError::new_err(
                    BoardError::WrongCellCount {
                        shape,
                        expected: cells,
                        got: c,
                    }
                    .to_string(),
                ));
            }
            [_, r, c] => {
                return Err(PyValueError::new_err(format!(
                    "boards of {r}x{c} given, but the table is of {shape} boards"
                )));
            }
            _ => {
                return Err(PyValueError::new_err(format!(
                    "boards must be an (n, {cells}) array, one board a row, not of shape {dims:?}"
                )));
            }
        }
        let n = dims[0];
        // Cell `i` of the copy, not a tile: the error naming its board.
        let bad = |i: usize, cell: Int| {
            PyValueError::new_err(format!(
                "board {}: {}",
                i / cells,
                cell_error(&cell, shape, cells - 1)
            ))
        };
        let itemsize: usize = array.getattr("dtype")?.getattr("itemsize")?.extract()?;
        let contiguous = |dtype: &str| {
            // One board a row, contiguous (no copy when it is already so).
            numpy
                .getattr("ascontiguousarray")?
                .call((&array,), Some(&[("dtype", dtype)].into_py_dict(py)?))
        };
        let bytes = match kind.as_str() {
            "u" if itemsize == 1 => {
                let a: PyReadonlyArray2<'_, u8> = contiguous("uint8")?.extract()?;
                let bytes = a.as_slice()?.to_vec();
                if let Some(i) = bytes.iter().position(|&v| v as usize >= cells) {
                    return Err(bad(i, Int::Fits(bytes[i].into())));
                }
                bytes
            }
            "u" => {
                // Every unsigned dtype as uint64: no value changes.
                let a: PyReadonlyArray2<'_, u64> = contiguous("uint64")?.extract()?;
                let values = a.as_slice()?;
                if let Some(i) = values.iter().position(|&v| v >= cells as u64) {
                    return Err(bad(i, Int::Fits(values[i])));
                }
                values.iter().map(|&v| v as u8).collect()
            }
            "i" => {
                let a: PyReadonlyArray2<'_, i64> = contiguous("int64")?.extract()?;
                let values = a.as_slice()?;
                if let Some(i) = values
                    .iter()
                    .position(|&v| v < 0 || v as u64 >= cells as u64)
                {
                    let v = values[i];
                    return Err(bad(
                        i,
                        match u64::try_from(v) {
                            Ok(v) => Int::Fits(v),
                            Err(_) => Int::Negative(v.to_string()),
                        },
                    ));
                }
                values.iter().map(|&v| v as u8).collect()
            }
            _ => {
                // Objects: Python integers of any size, one by one.
                let flat = array
                    .call_method1("reshape", (-1,))?
                    .call_method0("tolist")?;
                let mut bytes = Vec::with_capacity(n * cells);
                for (i, item) in flat.try_iter()?.enumerate() {
                    let Ok(cell) = integer(&item?, "") else {
                        return Err(not_integers());
                    };
                    match cell {
                        Int::Fits(v) if v < cells as u64 => bytes.push(v as u8),
                        cell => return Err(bad(i, cell)),
                    }
                }
                bytes
            }
        };
        Ok((n, bytes))
    }

    /// The first row of `bytes` that is not a board, as an error.
    fn first_bad(&self, bytes: &[u8]) -> PyErr {
        let shape = self.shape();
        for (i, row) in bytes.chunks(shape.cells()).enumerate() {
            if let Err(e) = Board::from_tiles(shape, row) {
                return PyValueError::new_err(format!("board {i}: {e}"));
            }
        }
        PyValueError::new_err("a board is not valid")
    }
}

/// Rows of a batch per rayon task.
const MIN_ROWS_PER_TASK: usize = 2048;

#[pymethods]
impl PyTable {
    /// Opens a table file (memory-mapped): its header, layout and metadata
    /// are checked, and, unless `verify` is False, its body against its
    /// checksum (about a second a gigabyte) the first time it is opened
    /// since it last changed (a stamp beside it records the check, as the
    /// command line does). `path` may also be a sharded table: the
    /// directory of shards and a manifest that `slidedb-gen --workers`
    /// writes (its shards' checksums checked at every open unless `verify`
    /// is False). A missing, unreadable or damaged file is a
    /// `slidedb.TableError`.
    #[staticmethod]
    #[pyo3(signature = (path, verify=true))]
    fn open(py: Python<'_>, path: PathBuf, verify: bool) -> PyResult<PyTable> {
        py.detach(|| {
            let db = Database::in_memory()
                .verify_on_open(verify)
                .table_file(&path)
                .open()
                .map_err(database_error)?;
            let goal = *db.named_table().expect("a table was named").goal();
            let table = db.table(&goal).map_err(database_error)?;
            Ok(PyTable { table })
        })
    }

    /// The board size, such as "3x3".
    #[getter]
    fn size(&self) -> String {
        self.shape().to_string()
    }

    /// The goal its answers are toward.
    #[getter]
    fn goal(&self) -> String {
        self.table.toward().goal().to_string()
    }

    /// How many boards can reach the goal.
    #[getter]
    fn states(&self) -> u64 {
        self.table.get().states()
    }

    /// The metric its distances are counted in: "single" or "multi".
    #[getter]
    fn metric(&self) -> &'static str {
        self.table.get().metric().name()
    }

    /// The greatest distance.
    #[getter]
    fn max_distance(&self) -> u32 {
        self.table.get().max_distance()
    }

    /// `layers[d]`: how many boards are d moves from the goal.
    #[getter]
    fn layers(&self) -> Vec<u64> {
        self.table.get().layers().to_vec()
    }

    /// What the table holds, as `Database.stats` gives it.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        stats_dict(py, StatsRecord::new(&self.table))
    }

    /// An optimal solution of `board` (`Solution`).
    fn solve(&self, py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<PySolution> {
        let goal = *self.table.toward().goal();
        let board = parse_board(board, Some(goal.shape()))?;
        let found = py
            .detach(|| self.table.solve(&board))
            .map_err(solve_error)?;
        Ok(PySolution::new(
            &board,
            &goal,
            found.metric,
            found.moves.as_deref(),
        ))
    }

    /// `board`'s distance; None if it cannot reach the goal.
    fn distance(&self, py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
        let board = parse_board(board, Some(self.shape()))?;
        py.detach(|| self.table.distance(&board))
            .map_err(solve_error)
    }

    /// `board`'s distance and every legal move's outcome (`Probe`).
    fn probe(&self, py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<PyProbe> {
        let goal = *self.table.toward().goal();
        let board = parse_board(board, Some(goal.shape()))?;
        let probe = py
            .detach(|| self.table.probe(&board))
            .map_err(solve_error)?;
        Ok(probe_record(&probe, &goal))
    }

    /// The exact number of optimal solutions of `board`; None if it cannot
    /// reach the goal.
    fn count(&self, py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<Option<Py<PyAny>>> {
        let board = parse_board(board, Some(self.shape()))?;
        let count = py
            .detach(|| self.table.count(&board))
            .map_err(solve_error)?;
        count.map(|c| big_int(py, &c)).transpose()
    }

    /// The distance of every board of `boards`, an (n, cells) integer
    /// array (one board a row, cells in reading order, 0 for the blank),
    /// as an (n,) int64 array: -1 for a board that cannot reach the goal.
    /// A row that is not a board is a ValueError naming it. Runs on every
    /// core, without the GIL.
    fn distances<'py>(
        &self,
        py: Python<'py>,
        boards: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let (_, bytes) = self.boards(boards)?;
        let shape = self.shape();
        let table = &self.table;
        // -2: not a board; -3: the table's error.
        let out: Vec<i64> = py.detach(|| {
            bytes
                .par_chunks(shape.cells())
                .with_min_len(MIN_ROWS_PER_TASK)
                .map(|row| match Board::from_tiles(shape, row) {
                    Err(_) => -2,
                    Ok(board) => match table.distance(&board) {
                        Ok(Some(d)) => d as i64,
                        Ok(None) => -1,
                        Err(_) => -3,
                    },
                })
                .collect()
        });
        if let Some(i) = out.iter().position(|&d| d < -1) {
            if out[i] == -2 {
                return Err(self.first_bad(&bytes));
            }
            let cells = shape.cells();
            let board = Board::from_tiles(shape, &bytes[i * cells..(i + 1) * cells])
                .map_err(board_error)?;
            return Err(solve_error(
                self.table.distance(&board).expect_err("it failed before"),
            ));
        }
        Ok(PyArray1::from_vec(py, out))
    }

    /// An optimal solution of every board of `boards` (an (n, cells)
    /// integer array, as for `distances`), as a list of move strings: None
    /// for a board that cannot reach the goal. Runs on every core, without
    /// the GIL.
    fn solve_many(
        &self,
        py: Python<'_>,
        boards: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<Option<String>>> {
        let (_, bytes) = self.boards(boards)?;
        let shape = self.shape();
        let table = &self.table;
        let out: Vec<Result<Option<String>, Option<SolveError>>> = py.detach(|| {
            bytes
                .par_chunks(shape.cells())
                .with_min_len(MIN_ROWS_PER_TASK / 4)
                .map_init(Vec::new, |moves, row| {
                    let board = Board::from_tiles(shape, row).map_err(|_| None)?;
                    moves.clear();
                    match table.solve_into(&board, moves) {
                        Ok(true) => Ok(Some(moves_to_string(moves))),
                        Ok(false) => Ok(None),
                        Err(e) => Err(Some(e)),
                    }
                })
                .collect()
        });
        out.into_iter()
            .map(|r| match r {
                Ok(moves) => Ok(moves),
                Err(None) => Err(self.first_bad(&bytes)),
                Err(Some(e)) => Err(solve_error(e)),
            })
            .collect()
    }

    /// Writes the table to `path` as one table file (atomically: a
    /// temporary file renamed into place). An existing file is replaced
    /// only if `overwrite`. A sharded table (a directory of shards, as
    /// `slidedb-gen --workers` writes) is merged from its directory into
    /// the file `slidedb-gen merge` writes, byte for byte; if the
    /// directory changed since the table was opened, that is an error.
    #[pyo3(signature = (path, overwrite=false))]
    fn save(&self, py: Python<'_>, path: PathBuf, overwrite: bool) -> PyResult<()> {
        let table = self.table.get();
        py.detach(|| table.save(&path, overwrite))
            .map(drop)
            .map_err(|e| TableError::new_err(chain(&e)))
    }

    fn __repr__(&self) -> String {
        format!(
            "Table(size='{}', goal='{}', states={}, max_distance={})",
            self.size(),
            self.goal(),
            self.states(),
            self.max_distance()
        )
    }
}
