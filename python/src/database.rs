//! The database, and the iterator over a layer's boards.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use pyo3::prelude::*;
use pyo3::types::PyDict;

use slidedb::database::Bytes;
use slidedb::records::{SizeRecord, StatsRecord};
use slidedb::request::{self, RandomBoards};
use slidedb::{Board, Database, Method, SolveError, Table, Toward};

use crate::answers::{PyProbe, PySolution, probe_record, stats_dict};
use crate::convert::{
    big_int, board_and_goal, goal_of, parse_count, parse_distance, parse_distances, parse_seed,
};
use crate::errors::{database_error, parse_metric, request_error, solve_error};
use crate::table::PyTable;

/// The engine over a data folder: answers any board toward any goal from
/// the files there, building and saving the tables of boards of up to 9
/// cells on first use (milliseconds), and answering bigger boards from the
/// tables and pattern databases built with `slidedb-gen` (or `generate`
/// and `Table.save`).
///
/// `data_dir` is the folder [default: as the command line's: $SLIDEDB_DATA,
/// else the user's data directory, such as ~/.local/share/slidedb].
///
/// Boards are strings in any syntax of the command line ("2 3 4 1 5 x 7 6
/// 8", "724506831", "1,2,3,4,5,6,7,8,0", "123/456/780"), sequences of
/// integers (0 for the blank), or rows (nested lists, 2-D NumPy arrays).
/// Sizes are "3x3" or (3, 3); a size is needed only for boards of 6 or 8
/// cells written without rows. The goal is by default the tiles in order,
/// blank last. Boards are returned as strings in the command line's format,
/// cells in reading order ("1 2 3 4 5 6 7 8 0"); `slidedb.as_list` turns
/// any board into a list of integers.
///
/// Every method releases the GIL while it works; a Database can be shared
/// between threads.
#[pyclass(frozen, module = "slidedb", name = "Database")]
pub(crate) struct PyDatabase {
    db: Database,
}

#[pymethods]
impl PyDatabase {
    #[new]
    #[pyo3(signature = (data_dir=None, metric=None))]
    fn new(
        py: Python<'_>,
        data_dir: Option<PathBuf>,
        metric: Option<&str>,
    ) -> PyResult<PyDatabase> {
        let metric = parse_metric(metric)?;
        let mut builder = Database::builder();
        if let Some(dir) = data_dir {
            builder = builder.data_dir(dir);
        }
        let db = py.detach(|| builder.open()).map_err(database_error)?;
        Ok(PyDatabase {
            db: db.with_metric(metric),
        })
    }

    /// A database with no data folder: tables of up to 9 cells are built
    /// in memory when first needed, and never saved. `metric` as for
    /// `Database`.
    #[staticmethod]
    #[pyo3(signature = (metric=None))]
    fn in_memory(py: Python<'_>, metric: Option<&str>) -> PyResult<PyDatabase> {
        let metric = parse_metric(metric)?;
        let db = py
            .detach(|| Database::in_memory().open())
            .map_err(database_error)?;
        Ok(PyDatabase {
            db: db.with_metric(metric),
        })
    }

    /// The same database (the same folder, the same tables in memory)
    /// answering in `metric`: "single" (a move slides one tile) or
    /// "multi" (a move slides the blank any number of cells along its row
    /// or column; also "stm", "mtm" and the command line's other names).
    ///
    /// >>> db.with_metric("multi").solve("1 2 3 4 5 6 0 7 8").slides
    /// ['rr']
    fn with_metric(&self, metric: &str) -> PyResult<PyDatabase> {
        let metric = parse_metric(Some(metric))?;
        Ok(PyDatabase {
            db: self.db.with_metric(metric),
        })
    }

    /// The metric it answers in: "single" or "multi".
    #[getter]
    fn metric(&self) -> &'static str {
        self.db.metric().name()
    }

    /// The data folder, or None for a database in memory.
    #[getter]
    fn data_dir(&self) -> Option<PathBuf> {
        self.db.data_dir().map(PathBuf::from)
    }

    /// An optimal solution of `board` toward `goal` (default: the tiles in
    /// order, blank last), read with `size` ("3x3" or (3, 3)) if given.
    ///
    /// >>> db.solve("2 3 4 1 5 x 7 6 8")
    /// Solution(moves='ullddrurdllurdruldr', distance=19, solvable=True)
    #[pyo3(signature = (board, goal=None, size=None))]
    fn solve(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
        size: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PySolution> {
        let (board, goal) = board_and_goal(&self.db, board, goal, size)?;
        let found = py
            .detach(|| self.db.solve(&board, &goal))
            .map_err(database_error)?;
        Ok(PySolution::new(
            &board,
            &goal,
            found.metric,
            found.moves.as_deref(),
        ))
    }

    /// The number of moves of an optimal solution of `board` toward
    /// `goal`; None if it cannot reach the goal.
    #[pyo3(signature = (board, goal=None, size=None))]
    fn distance(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
        size: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<u32>> {
        let (board, goal) = board_and_goal(&self.db, board, goal, size)?;
        py.detach(|| {
            let engine = self
                .db
                .engine(&goal, Method::Exact)
                .map_err(database_error)?;
            match engine.table() {
                Some(table) => table.distance(&board).map_err(solve_error),
                None => Ok(engine.solve(&board).map_err(solve_error)?.distance()),
            }
        })
    }

    /// `board`'s distance and every legal move's outcome (`Probe`).
    #[pyo3(signature = (board, goal=None, size=None))]
    fn probe(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
        size: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyProbe> {
        let (board, goal) = board_and_goal(&self.db, board, goal, size)?;
        let probe = py
            .detach(|| self.db.probe(&board, &goal))
            .map_err(database_error)?;
        Ok(probe_record(&probe, &goal))
    }

    /// The exact number of optimal solutions of `board` (a Python int, of
    /// any size); None if it cannot reach the goal. Needs the full table.
    #[pyo3(signature = (board, goal=None, size=None))]
    fn count(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
        size: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let (board, goal) = board_and_goal(&self.db, board, goal, size)?;
        let count = py
            .detach(|| self.db.count(&board, &goal))
            .map_err(database_error)?;
        count.map(|c| big_int(py, &c)).transpose()
    }

    /// `count` boards drawn uniformly at random, each independently, as a
    /// list of strings: among the boards exactly `distance` moves from the
    /// goal (a number, "max", or a (min, max) pair; needs the full table),
    /// or, with no distance, among all boards that can reach the goal. The
    /// same `seed` draws the same boards on every machine (as the command
    /// line's `random --seed`; an integer from 0 to 2**64-1) [default: from
    /// the clock].
    #[pyo3(
        signature = (size=None, distance=None, count=None, seed=None, goal=None),
        text_signature = "($self, size=None, distance=None, count=1, seed=None, goal=None)"
    )]
    fn random(
        &self,
        py: Python<'_>,
        size: Option<&Bound<'_, PyAny>>,
        distance: Option<&Bound<'_, PyAny>>,
        count: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        goal: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<String>> {
        let goal = goal_of(&self.db, size, goal)?;
        let count = count.map(parse_count).transpose()?.unwrap_or(1);
        let seed = request::seed(seed.map(parse_seed).transpose()?);
        let distances = parse_distances(distance)?;
        // The library's draw, as the command line's `random`: the same
        // checks in the same order, the same boards from the same seed.
        py.detach(|| {
            let drawn = RandomBoards::new(&self.db, &goal, &distances, seed, false)
                .map_err(request_error)?;
            let mut boards = Vec::with_capacity(count.min(1 << 20) as usize);
            for board in drawn.take(usize::try_from(count).unwrap_or(usize::MAX)) {
                let (board, _) = board.map_err(request_error)?;
                boards.push(board.to_string());
            }
            Ok(boards)
        })
    }

    /// An iterator over every board exactly `distance` moves (a number, or
    /// "max") from the goal, as strings, in the table's index order. Needs
    /// the full table. The boards are listed in chunks by a thread of its
    /// own, without the GIL, as the iterator is read; dropping the iterator
    /// stops it.
    #[pyo3(signature = (distance, size=None, goal=None))]
    fn layer(
        &self,
        py: Python<'_>,
        distance: &Bound<'_, PyAny>,
        size: Option<&Bound<'_, PyAny>>,
        goal: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyLayerIter> {
        let distance = parse_distance(distance)?;
        let goal = goal_of(&self.db, size, goal)?;
        let table = py
            .detach(|| self.db.table_for("layer", &goal))
            .map_err(database_error)?;
        // Past the farthest boards is an error, as for `random`.
        let distance = distance
            .within(&goal, table.get().max_distance())
            .map_err(request_error)?;
        Ok(PyLayerIter::start(table, distance))
    }

    /// What the full table toward `goal` (default: of `size`, default
    /// 3x3) holds, as the command line's `stats --json` writes it: a dict
    /// with the keys size, goal, states, max_distance, mean_distance,
    /// layers (boards at each distance), hardest (up to 1,000 boards at the
    /// greatest distance) and generator.
    #[pyo3(signature = (size=None, goal=None))]
    fn stats<'py>(
        &self,
        py: Python<'py>,
        size: Option<&Bound<'py, PyAny>>,
        goal: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let goal = goal_of(&self.db, size, goal)?;
        let record = py
            .detach(|| {
                self.db
                    .table_for("stats", &goal)
                    .map(|t| StatsRecord::new(&t))
            })
            .map_err(database_error)?;
        stats_dict(py, record)
    }

    /// The full table toward `goal` (default: of `size`, default 3x3), as
    /// a `Table` for NumPy batches (`distances`, `solve_many`). Its answers
    /// are toward the goal asked for.
    #[pyo3(signature = (size=None, goal=None))]
    fn table(
        &self,
        py: Python<'_>,
        size: Option<&Bound<'_, PyAny>>,
        goal: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTable> {
        let goal = goal_of(&self.db, size, goal)?;
        let table = py
            .detach(|| self.db.table_for("a table", &goal))
            .map_err(database_error)?;
        Ok(PyTable { table })
    }

    /// Every size this database answers exactly, smallest first, as the
    /// command line's `sizes --json` and the server's /api/v1/sizes give
    /// them: a list of dicts with the keys size ("3x3"), exact ("table",
    /// "patterns" or "search": how its boards are answered) and goal (the
    /// goal its boards are answered toward when none is given). Nothing is
    /// opened or built.
    ///
    /// >>> Database.in_memory().sizes()[0]
    /// {'size': '2x2', 'exact': 'table', 'goal': '1 2 3 0'}
    fn sizes<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let sizes = py.detach(|| self.db.sizes()).map_err(database_error)?;
        sizes
            .iter()
            .map(|size| {
                let record = SizeRecord::new(size);
                let d = PyDict::new(py);
                d.set_item("size", record.size)?;
                d.set_item("exact", record.exact)?;
                d.set_item("goal", record.goal)?;
                Ok(d)
            })
            .collect()
    }

    fn __repr__(&self) -> String {
        match self.db.data_dir() {
            Some(dir) => format!("Database({:?})", dir.display().to_string()).replace('"', "'"),
            None => "Database.in_memory()".to_string(),
        }
    }
}

/// Boards of a layer sent at a time from the thread that lists them.
const LAYER_CHUNK: usize = 4096;

/// Boards of a layer, or the error that stopped the listing.
type Chunk = Result<Vec<Board>, SolveError>;

/// An iterator over the boards of one layer, as strings (see
/// `Database.layer`).
#[pyclass(module = "slidedb", name = "LayerIterator")]
pub(crate) struct PyLayerIter {
    rx: Option<Mutex<Receiver<Chunk>>>,
    chunk: std::vec::IntoIter<Board>,
    left: u64,
}

impl PyLayerIter {
    fn start(table: Toward<Table<Bytes>>, distance: u32) -> PyLayerIter {
        let left = table
            .get()
            .layers()
            .get(distance as usize)
            .copied()
            .unwrap_or(0);
        let (tx, rx): (SyncSender<_>, _) = sync_channel(2);
        std::thread::spawn(move || {
            let mut chunk = Vec::with_capacity(LAYER_CHUNK);
            let done = table.layer(distance, |board| {
                chunk.push(board);
                if chunk.len() == LAYER_CHUNK {
                    let full = std::mem::replace(&mut chunk, Vec::with_capacity(LAYER_CHUNK));
                    if tx.send(Ok(full)).is_err() {
                        return ControlFlow::Break(()); // the iterator is gone
                    }
                }
                ControlFlow::Continue(())
            });
            let _ = match done {
                Ok(()) if !chunk.is_empty() => tx.send(Ok(chunk)),
                Ok(()) => Ok(()),
                Err(e) => tx.send(Err(e)),
            };
        });
        PyLayerIter {
            rx: Some(Mutex::new(rx)),
            chunk: Vec::new().into_iter(),
            left,
        }
    }
}

#[pymethods]
impl PyLayerIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<String>> {
        loop {
            if let Some(board) = self.chunk.next() {
                self.left = self.left.saturating_sub(1);
                return Ok(Some(board.to_string()));
            }
            let Some(rx) = &self.rx else {
                return Ok(None);
            };
            match py.detach(|| rx.lock().unwrap_or_else(|e| e.into_inner()).recv()) {
                Ok(Ok(chunk)) => self.chunk = chunk.into_iter(),
                Ok(Err(e)) => {
                    self.rx = None;
                    return Err(solve_error(e));
                }
                Err(_) => {
                    self.rx = None;
                    return Ok(None);
                }
            }
        }
    }

    /// How many boards are left.
    fn __length_hint__(&self) -> u64 {
        self.left
    }
}
