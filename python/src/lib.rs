//! `slidedb._slidedb`: the Python extension of slidedb (PyO3). The
//! Python package `slidedb` re-exports what is here; its documentation
//! (docstrings, type stubs) is the package's.
//!
//! Every call that does real work (opening and checking files, building
//! tables, solving, batches, counts, random boards, layers) runs with the
//! GIL released; batches run on every core (rayon).

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::{SystemTime, UNIX_EPOCH};

use numpy::{PyArray1, PyReadonlyArray2};
use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyBool, PyDict, PyInt, PyList, PyString};
use rayon::prelude::*;

use slidedb::build::merge_shards;
use slidedb::random::{SplitMix64, random_board};
use slidedb::records::{ProbeRecord, SolveRecord, StatsRecord};
use slidedb::store::{self, Bytes};
use slidedb::table::MANIFEST_NAME;
use slidedb::{
    Board, BoardError, Database, DatabaseError, ForGoal, MAX_IN_MEMORY_CELLS, MAX_TABLE_CELLS,
    Method, Move, PathCount, Shape, SolveError, Source, Table, moves_to_string,
};

create_exception!(
    slidedb,
    TableError,
    PyOSError,
    "A table or pattern databases file that is missing, unreadable or damaged, or a data folder that cannot be used (a subclass of OSError)."
);

// ---------------------------------------------------------------------
// Errors: the library's messages, as the command line writes them.

/// The message of `e` and of each error under it, joined by `: ` (as
/// the command line writes an error).
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

fn board_error(e: BoardError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn solve_error(e: SolveError) -> PyErr {
    let text = chain(&e);
    match e {
        SolveError::Damaged { .. } => TableError::new_err(text),
        SolveError::SearchLimit { .. } | SolveError::Stopped { .. } => {
            PyRuntimeError::new_err(text)
        }
        _ => PyValueError::new_err(text),
    }
}

fn database_error(e: DatabaseError) -> PyErr {
    let text = chain(&e);
    let kind = match &e {
        DatabaseError::NeedsTable { source, .. } => source.as_ref(),
        e => e,
    };
    match kind {
        DatabaseError::TooBig { .. }
        | DatabaseError::Method { .. }
        | DatabaseError::Generate(_) => PyValueError::new_err(text),
        DatabaseError::Solve(e) => solve_error(e.clone()),
        _ => TableError::new_err(text),
    }
}

// ---------------------------------------------------------------------
// Numbers from Python values.

/// An integer from Python: an `int`, or anything with `__index__` (a
/// NumPy integer), never a bool. Its value when it fits a u64; else its
/// digits, as Python writes them (of any size).
enum Int {
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
fn integer(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Int> {
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
/// one past `max` is out of range.
fn cell_error(cell: &Int, shape: Shape, max: usize) -> String {
    match cell {
        Int::Negative(token) => BoardError::BadCell {
            token: token.clone(),
        }
        .to_string(),
        Int::Fits(tile) => BoardError::TileOutOfRange {
            tile: *tile,
            shape,
            max,
        }
        .to_string(),
        // Past a u64: the library's words, with the number given.
        Int::Huge(text) => BoardError::TileOutOfRange {
            tile: u64::MAX,
            shape,
            max,
        }
        .to_string()
        .replacen(&u64::MAX.to_string(), text, 1),
    }
}

/// The most threads `generate` takes, as the command line's `--threads`:
/// far more than any machine has cores.
const MAX_THREADS: usize = 256;

/// A thread count: 1 to [`MAX_THREADS`], as `slidedb-gen --threads`.
fn parse_threads(threads: &Bound<'_, PyAny>) -> PyResult<usize> {
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
fn parse_seed(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    const WHAT: &str = "seed must be an integer from 0 to 2**64-1";
    match integer(seed, WHAT)? {
        Int::Fits(n) => Ok(n),
        n => Err(PyValueError::new_err(format!("{WHAT}, not {}", n.text()))),
    }
}

/// A number of boards: 0 to 2**64-1.
fn parse_count(count: &Bound<'_, PyAny>) -> PyResult<u64> {
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

// ---------------------------------------------------------------------
// Boards and sizes from Python values.

/// A board from Python as the text the library parses. A cell given as
/// an integer that the text cannot carry as it is (the library reads
/// tiles of up to 3 digits, without a sign) is written as `999` (1,000
/// or more: out of range, as it is) or `-1` (negative: not a tile, as it
/// is), and an error about such a cell names its value as given.
struct BoardText {
    /// What the library parses.
    text: String,
    /// The board as given, for messages.
    shown: String,
    /// The cells given as integers, in reading order (none for a string).
    cells: Vec<Int>,
}

impl BoardText {
    fn parse(&self, shape: Option<Shape>) -> Result<Board, String> {
        Board::parse(&self.text, shape).map_err(|e| self.message(e))
    }

    /// The message of `e`, naming the cell it is about as given.
    fn message(&self, e: BoardError) -> String {
        match e {
            // The first cell past the largest tile, in reading order.
            BoardError::TileOutOfRange {
                tile: 999,
                shape,
                max,
            } => self
                .cells
                .iter()
                .find(|c| match c {
                    Int::Fits(n) => *n > max as u64,
                    Int::Huge(_) => true,
                    Int::Negative(_) => false,
                })
                .map(|cell| cell_error(cell, shape, max)),
            // The first negative cell: the only cells that are not tiles
            // (whose message names no shape).
            BoardError::BadCell { ref token } if token == "-1" => self
                .cells
                .iter()
                .find(|c| matches!(c, Int::Negative(_)))
                .map(|cell| cell_error(cell, Shape::EIGHT, 0)),
            _ => None,
        }
        .unwrap_or_else(|| e.to_string())
    }
}

/// A cell given as an integer.
fn cell(item: &Bound<'_, PyAny>) -> PyResult<Int> {
    integer(item, "board cells must be integers")
}

/// A board as the text the library parses: a string as it is; a sequence
/// of integers as its cells; a sequence of rows (nested lists, a 2-D NumPy
/// array) as rows split by `/`.
fn board_text(board: &Bound<'_, PyAny>) -> PyResult<BoardText> {
    if let Ok(text) = board.cast::<PyString>() {
        let text = text.to_cow()?.into_owned();
        return Ok(BoardText {
            shown: text.clone(),
            text,
            cells: Vec::new(),
        });
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
    let join = |cell: fn(&Int) -> String| {
        rows.iter()
            .map(|row| row.iter().map(cell).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join(" / ")
    };
    Ok(BoardText {
        text: join(|c| match c {
            Int::Fits(n) if *n < 1000 => n.to_string(),
            Int::Fits(_) | Int::Huge(_) => "999".to_string(),
            Int::Negative(_) => "-1".to_string(),
        }),
        shown: join(Int::text),
        cells: rows.into_iter().flatten().collect(),
    })
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

fn parse_board(board: &Bound<'_, PyAny>, shape: Option<Shape>) -> PyResult<Board> {
    board_text(board)?
        .parse(shape)
        .map_err(PyValueError::new_err)
}

fn parse_goal(goal: &Bound<'_, PyAny>, shape: Option<Shape>) -> PyResult<Board> {
    let text = board_text(goal)?;
    text.parse(shape)
        .map_err(|e| PyValueError::new_err(format!("bad goal {:?}: {e}", text.shown)))
}

/// A size: `"3x3"` or `(3, 3)`.
fn parse_shape(size: &Bound<'_, PyAny>) -> PyResult<Shape> {
    if let Ok(text) = size.cast::<PyString>() {
        return text.to_cow()?.parse().map_err(board_error);
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

fn parse_size(size: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Shape>> {
    size.map(parse_shape).transpose()
}

/// The board and goal a call names, read as the command line reads them:
/// the goal (read with the size, if given) sets the size the board is
/// read with; without a goal, the database's default goal of the board's
/// size.
fn board_and_goal(
    db: &Database,
    board: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    size: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Board, Board)> {
    let shape = parse_size(size)?;
    match goal {
        Some(goal) => {
            let goal = parse_goal(goal, shape)?;
            let board = parse_board(board, Some(goal.shape()))?;
            Ok((board, goal))
        }
        None => {
            let board = parse_board(board, shape)?;
            Ok((board, db.default_goal(board.shape())))
        }
    }
}

/// The goal a call on whole tables names: `goal`, else the default goal
/// of `size` (3x3 when neither is given).
fn goal_of(
    db: &Database,
    size: Option<&Bound<'_, PyAny>>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<Board> {
    let shape = parse_size(size)?;
    match goal {
        Some(goal) => parse_goal(goal, shape),
        None => Ok(db.default_goal(shape.unwrap_or(Shape::EIGHT))),
    }
}

fn big_int(py: Python<'_>, count: &PathCount) -> PyResult<Py<PyAny>> {
    Ok(py.get_type::<PyInt>().call1((count.to_string(),))?.unbind())
}

// ---------------------------------------------------------------------
// Answers.

/// An optimal solution (or the lack of one): the blank's moves toward the
/// goal as a string of `u d l r`, their number, and whether the board can
/// reach the goal at all.
#[pyclass(frozen, module = "slidedb", name = "Solution")]
#[derive(Clone)]
struct PySolution {
    /// The board asked about, cells in reading order ("1 2 3 4 5 6 7 0 8").
    #[pyo3(get)]
    board: String,
    /// The goal it was solved toward.
    #[pyo3(get)]
    goal: String,
    /// The blank's moves, such as "ullddrurdllurdruldr" ("" for a solved
    /// board); None if the board cannot reach the goal.
    #[pyo3(get)]
    moves: Option<String>,
    /// The number of moves of an optimal solution; None if unsolvable.
    #[pyo3(get)]
    distance: Option<usize>,
    /// Whether the board can reach the goal.
    #[pyo3(get)]
    solvable: bool,
}

impl PySolution {
    fn new(board: &Board, goal: &Board, moves: Option<&[Move]>) -> PySolution {
        let record = SolveRecord::new(board, goal, moves, false);
        PySolution {
            board: record.board,
            goal: record.goal,
            moves: record.moves,
            distance: record.distance,
            solvable: record.solvable,
        }
    }
}

#[pymethods]
impl PySolution {
    /// The solution as the command line's `solve --json` writes it: a dict
    /// with the keys board, goal, solvable, distance and moves.
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("board", &self.board)?;
        d.set_item("goal", &self.goal)?;
        d.set_item("solvable", self.solvable)?;
        d.set_item("distance", self.distance)?;
        d.set_item("moves", &self.moves)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        match &self.moves {
            Some(m) => format!("Solution(moves='{m}', distance={}, solvable=True)", m.len()),
            None => "Solution(moves=None, distance=None, solvable=False)".to_string(),
        }
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PySolution>()
            .is_ok_and(|o| (&o.board, &o.goal, &o.moves) == (&self.board, &self.goal, &self.moves))
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let mut h = DefaultHasher::new();
        (&self.board, &self.goal, &self.moves).hash(&mut h);
        h.finish()
    }
}

/// One legal move of a probe: its letter, the board it leads to, that
/// board's distance, and whether it leads one move closer.
#[pyclass(frozen, module = "slidedb", name = "MoveOutcome")]
#[derive(Clone)]
struct PyMoveOutcome {
    /// The blank's move: "u", "d", "l" or "r".
    #[pyo3(get, name = "move")]
    letter: String,
    /// The board it leads to.
    #[pyo3(get)]
    board: String,
    /// That board's distance to the goal.
    #[pyo3(get)]
    distance: u32,
    /// Whether it leads one move closer (is the first move of an optimal
    /// solution).
    #[pyo3(get)]
    optimal: bool,
}

#[pymethods]
impl PyMoveOutcome {
    /// The move as the command line's `probe --json` writes it: a dict with
    /// the keys move, board, distance and optimal.
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("move", &self.letter)?;
        d.set_item("board", &self.board)?;
        d.set_item("distance", self.distance)?;
        d.set_item("optimal", self.optimal)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "MoveOutcome(move='{}', board='{}', distance={}, optimal={})",
            self.letter,
            self.board,
            self.distance,
            if self.optimal { "True" } else { "False" }
        )
    }
}

/// A probe of a board, as a chess endgame tablebase answers: its distance,
/// and the outcome of every legal move (in the order u, d, l, r).
#[pyclass(frozen, module = "slidedb", name = "Probe")]
struct PyProbe {
    /// The board probed.
    #[pyo3(get)]
    board: String,
    /// The goal.
    #[pyo3(get)]
    goal: String,
    /// The board's distance; None if it cannot reach the goal.
    #[pyo3(get)]
    distance: Option<u32>,
    /// Whether the board can reach the goal.
    #[pyo3(get)]
    solvable: bool,
    outcomes: Vec<PyMoveOutcome>,
}

#[pymethods]
impl PyProbe {
    /// Every legal move's outcome (none for an unsolvable board).
    #[getter]
    fn moves(&self) -> Vec<PyMoveOutcome> {
        self.outcomes.clone()
    }

    /// The letters of the moves that lead one closer, such as "ul".
    #[getter]
    fn optimal_moves(&self) -> String {
        self.outcomes
            .iter()
            .filter(|m| m.optimal)
            .map(|m| m.letter.as_str())
            .collect()
    }

    /// The probe as the command line's `probe --json` writes it: a dict
    /// with the keys board, goal, solvable, distance and moves (a list of
    /// dicts).
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("board", &self.board)?;
        d.set_item("goal", &self.goal)?;
        d.set_item("solvable", self.solvable)?;
        d.set_item("distance", self.distance)?;
        let moves = PyList::empty(py);
        for m in &self.outcomes {
            moves.append(m.as_dict(py)?)?;
        }
        d.set_item("moves", moves)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let moves: Vec<String> = self
            .outcomes
            .iter()
            .map(|m| {
                format!(
                    "{}:{}{}",
                    m.letter,
                    m.distance,
                    if m.optimal { "*" } else { "" }
                )
            })
            .collect();
        format!(
            "Probe(board='{}', distance={}, moves=[{}])",
            self.board,
            self.distance.map_or("None".to_string(), |d| d.to_string()),
            moves.join(" ")
        )
    }
}

fn probe_record(probe: &slidedb::Probe, goal: &Board) -> PyProbe {
    let r = ProbeRecord::new(probe, goal);
    PyProbe {
        board: r.board,
        goal: r.goal,
        distance: r.distance,
        solvable: r.solvable,
        outcomes: r
            .moves
            .into_iter()
            .map(|m| PyMoveOutcome {
                letter: m.letter,
                board: m.board,
                distance: m.distance,
                optimal: m.optimal,
            })
            .collect(),
    }
}

fn stats_dict<'py>(py: Python<'py>, r: StatsRecord) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("size", r.size)?;
    d.set_item("goal", r.goal)?;
    d.set_item("states", r.states)?;
    d.set_item("max_distance", r.max_distance)?;
    d.set_item("mean_distance", r.mean_distance)?;
    d.set_item("layers", r.layers)?;
    d.set_item("hardest", r.hardest)?;
    d.set_item("generator", r.generator)?;
    Ok(d)
}

/// A distance argument: a number of moves, or "max" (the farthest).
#[derive(Clone)]
enum Distance {
    Moves(u32),
    Max,
    /// More moves than a u32 holds (farther than any board), as given.
    Beyond(String),
}

fn parse_distance(d: &Bound<'_, PyAny>) -> PyResult<Distance> {
    if let Ok(text) = d.cast::<PyString>() {
        let text = text.to_cow()?;
        if text == "max" {
            return Ok(Distance::Max);
        }
        return Err(PyValueError::new_err(format!(
            "bad distance {text:?}: a number of moves, or \"max\""
        )));
    }
    match integer(d, "a distance is an integer or \"max\"")? {
        Int::Fits(n) => Ok(u32::try_from(n)
            .map(Distance::Moves)
            .unwrap_or_else(|_| Distance::Beyond(n.to_string()))),
        Int::Huge(t) => Ok(Distance::Beyond(t)),
        Int::Negative(t) => Err(PyValueError::new_err(format!(
            "bad distance {t}: distances are 0 or more"
        ))),
    }
}

impl Distance {
    /// The number of moves, `greatest` for "max"; a distance past a u32
    /// as the most a u32 holds (as far, for every table: no board).
    fn resolve(&self, greatest: u32) -> u32 {
        self.moves(greatest).unwrap_or(u32::MAX)
    }

    /// The number of moves; `Err` (the number as given) past a u32.
    fn moves(&self, greatest: u32) -> Result<u32, &str> {
        match self {
            Distance::Moves(d) => Ok(*d),
            Distance::Max => Ok(greatest),
            Distance::Beyond(text) => Err(text),
        }
    }

    /// The number of moves as given ("max" as `greatest`).
    fn text(&self, greatest: u32) -> String {
        match self.moves(greatest) {
            Ok(d) => d.to_string(),
            Err(text) => text.to_string(),
        }
    }

    /// Whether it is farther than `other`.
    fn beyond(&self, other: &Distance, greatest: u32) -> bool {
        match (self.moves(greatest), other.moves(greatest)) {
            (Ok(a), Ok(b)) => a > b,
            (Err(_), Ok(_)) => true,
            (Ok(_), Err(_)) => false,
            // Two numbers of any size, without leading zeros.
            (Err(a), Err(b)) => (a.len(), a) > (b.len(), b),
        }
    }
}

// ---------------------------------------------------------------------
// The database.

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
struct PyDatabase {
    db: Database,
}

#[pymethods]
impl PyDatabase {
    #[new]
    #[pyo3(signature = (data_dir=None))]
    fn new(py: Python<'_>, data_dir: Option<PathBuf>) -> PyResult<PyDatabase> {
        let mut builder = Database::builder();
        if let Some(dir) = data_dir {
            builder = builder.data_dir(dir);
        }
        let db = py.detach(|| builder.open()).map_err(database_error)?;
        Ok(PyDatabase { db })
    }

    /// A database with no data folder: tables of up to 9 cells are built
    /// in memory when first needed, and never saved.
    #[staticmethod]
    fn in_memory(py: Python<'_>) -> PyResult<PyDatabase> {
        let db = py
            .detach(|| Database::in_memory().open())
            .map_err(database_error)?;
        Ok(PyDatabase { db })
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
        Ok(PySolution::new(&board, &goal, found.moves.as_deref()))
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
        let seed = seed.map(parse_seed).transpose()?;
        let range = match distance {
            None => None,
            Some(d) => Some(match d.extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>() {
                Ok((lo, hi)) if !d.is_instance_of::<PyString>() => {
                    (parse_distance(&lo)?, parse_distance(&hi)?)
                }
                _ => {
                    let d = parse_distance(d)?;
                    (d.clone(), d)
                }
            }),
        };
        let seed = seed.unwrap_or_else(|| {
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default();
            now.as_nanos() as u64 ^ (std::process::id() as u64) << 32
        });
        let mut rng = SplitMix64::new(seed);
        let Some((lo, hi)) = range else {
            return Ok(py.detach(|| {
                (0..count)
                    .map(|_| random_board(&goal, &mut rng).to_string())
                    .collect()
            }));
        };
        py.detach(|| {
            let shape = goal.shape();
            let table = self
                .db
                .table_for("a random board at a distance", &goal)
                .map_err(database_error)?;
            let greatest = table.get().max_distance();
            if lo.beyond(&hi, greatest) {
                return Err(PyValueError::new_err(format!(
                    "the least distance {} is more than the greatest {}: no distance lies between",
                    lo.text(greatest),
                    hi.text(greatest)
                )));
            }
            let lo = match lo.moves(greatest) {
                Ok(lo) if lo <= greatest => lo,
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "no {shape} board is {} moves from goal {goal}: the farthest are {greatest} moves away",
                        lo.text(greatest)
                    )));
                }
            };
            let hi = hi.resolve(greatest);
            let mut boards = Vec::with_capacity(count.min(1 << 20) as usize);
            for _ in 0..count {
                let board = self
                    .db
                    .random(&goal, lo..=hi, &mut rng)
                    .map_err(database_error)?
                    .ok_or_else(|| {
                        PyValueError::new_err(format!(
                            "no {shape} board lies {lo} to {hi} moves from goal {goal}"
                        ))
                    })?;
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
        let greatest = table.get().max_distance();
        let distance = match distance.moves(greatest) {
            Ok(d) if d <= greatest => d,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "no {} board is {} moves from goal {goal}: the farthest are {greatest} moves away",
                    goal.shape(),
                    distance.text(greatest)
                )));
            }
        };
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
struct PyLayerIter {
    rx: Option<Mutex<Receiver<Chunk>>>,
    chunk: std::vec::IntoIter<Board>,
    left: u64,
}

impl PyLayerIter {
    fn start(table: ForGoal<Table<Bytes>>, distance: u32) -> PyLayerIter {
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

// ---------------------------------------------------------------------
// Tables and batches.

/// One full distance table: every board of its size that can reach its
/// goal, at its distance. Made by `slidedb.generate` (in memory),
/// `Table.open` (a file, memory-mapped) or `Database.table`; it answers
/// toward its goal.
///
/// Its NumPy batches, `distances` and `solve_many`, take an (n, cells)
/// integer array (cells in reading order, 0 for the blank; an (n, rows,
/// cols) array is read as rows) and run on every core without the GIL.
#[pyclass(frozen, module = "slidedb", name = "Table")]
struct PyTable {
    table: ForGoal<Table<Bytes>>,
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
        Ok(PySolution::new(&board, &goal, found.moves.as_deref()))
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
        let written = if !table.is_sharded() {
            py.detach(|| store::write_atomic(&path, table.as_bytes(), overwrite))
                .map_err(|e| e.to_string())
        } else if let Source::File(dir) = self.table.source() {
            py.detach(|| save_sharded(dir, table.as_bytes(), &path, overwrite))
        } else {
            Err("a sharded table is saved from its directory, and this one's is not known".into())
        };
        written.map_err(|e| TableError::new_err(format!("cannot write {}: {e}", path.display())))
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

/// Writes the sharded table in `dir`, opened when its manifest was
/// `manifest`, to `path` as one table file: the bytes of `slidedb-gen
/// merge` (the library's [`merge_shards`], which checks every shard
/// against the manifest), merged into a new folder beside `path` and then
/// moved into place, so that `path` never holds a part. An existing file
/// is replaced only if `overwrite`; a directory whose manifest changed
/// since (another build) is refused rather than saved.
fn save_sharded(dir: &Path, manifest: &[u8], path: &Path, overwrite: bool) -> Result<(), String> {
    store::check_target(path, overwrite).map_err(|e| e.to_string())?;
    store::check_writable(path).map_err(|e| e.to_string())?;
    let unchanged = || {
        let listed = dir.join(MANIFEST_NAME);
        match std::fs::read(&listed) {
            Ok(now) if now == manifest => Ok(()),
            Ok(_) => Err(format!(
                "the shards in {} changed since the table was opened (another build wrote them): open it again",
                dir.display()
            )),
            Err(e) => Err(format!("cannot read {}: {e}", listed.display())),
        }
    };
    unchanged()?;
    let folder = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let work = WorkFolder::new(folder).map_err(|e| e.to_string())?;
    let merged = work.0.join("table.slidedb");
    merge_shards(dir, &merged).map_err(|e| chain(&e))?;
    // The shards merged are the manifest's (merge_shards checks each
    // one's CRC-32 against it): the table's, if the manifest still is.
    unchanged()?;
    let exists = || format!("{} exists", path.display());
    let placed = if overwrite {
        std::fs::rename(&merged, path)
    } else {
        // A link fails on an existing file, where a rename would replace it.
        match std::fs::hard_link(&merged, path) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Err(exists()),
            Err(_) if std::fs::symlink_metadata(path).is_ok() => return Err(exists()),
            // A file system without hard links.
            Err(_) => std::fs::rename(&merged, path),
            Ok(()) => Ok(()),
        }
    };
    placed.map_err(|e| e.to_string())?;
    if let Ok(d) = std::fs::File::open(folder) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// A new hidden folder, removed with everything in it when dropped.
struct WorkFolder(PathBuf);

impl WorkFolder {
    fn new(beside: &Path) -> std::io::Result<WorkFolder> {
        let stamp = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        let mut attempt = 0;
        loop {
            let path = beside.join(format!(
                ".slidedb-save-{}-{stamp:x}-{attempt}",
                std::process::id()
            ));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(WorkFolder(path)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => {
                    attempt += 1;
                }
                Err(e) => return Err(e),
            }
        }
    }
}

impl Drop for WorkFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One finished layer of a generation, as its progress callback gets it.
#[pyclass(frozen, module = "slidedb", name = "Layer")]
struct PyLayer {
    /// Its distance from the goal.
    #[pyo3(get)]
    depth: u32,
    /// The boards at that distance.
    #[pyo3(get)]
    states: u64,
    /// The boards at that distance or less.
    #[pyo3(get)]
    total: u64,
    /// Seconds since the generation began.
    #[pyo3(get)]
    elapsed: f64,
}

#[pymethods]
impl PyLayer {
    fn __repr__(&self) -> String {
        format!(
            "Layer(depth={}, states={}, total={}, elapsed={:.3})",
            self.depth, self.states, self.total, self.elapsed
        )
    }
}

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
fn generate(
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
    if goal.shape().cells() > MAX_IN_MEMORY_CELLS {
        return Err(PyValueError::new_err(
            slidedb::GenerateError::TooLarge {
                shape: goal.shape(),
                states: goal.shape().states(),
            }
            .to_string(),
        ));
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
fn as_list(board: &Bound<'_, PyAny>, size: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<u32>> {
    // (Not `Vec<u8>`, which would be `bytes`.)
    let board = parse_board(board, parse_size(size)?)?;
    Ok(board.tiles().map(u32::from).collect())
}

/// Any board as a list of rows: `as_grid("123456780") == [[1, 2, 3], [4,
/// 5, 6], [7, 8, 0]]`.
#[pyfunction]
#[pyo3(signature = (board, size=None))]
fn as_grid(board: &Bound<'_, PyAny>, size: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Vec<u32>>> {
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
fn format_board(board: &Bound<'_, PyAny>, size: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
    Ok(parse_board(board, parse_size(size)?)?.to_string())
}

#[pymodule]
fn _slidedb(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("TableError", py.get_type::<TableError>())?;
    m.add_class::<PyDatabase>()?;
    m.add_class::<PyTable>()?;
    m.add_class::<PySolution>()?;
    m.add_class::<PyProbe>()?;
    m.add_class::<PyMoveOutcome>()?;
    m.add_class::<PyLayer>()?;
    m.add_class::<PyLayerIter>()?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(as_list, m)?)?;
    m.add_function(wrap_pyfunction!(as_grid, m)?)?;
    m.add_function(wrap_pyfunction!(format_board, m)?)?;
    m.add("MAX_TABLE_CELLS", MAX_TABLE_CELLS)?;
    m.add("MAX_IN_MEMORY_CELLS", MAX_IN_MEMORY_CELLS)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
