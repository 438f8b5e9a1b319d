//! Answers: solutions, probes, statistics and the layers of a generation.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use slidedb::records::{ProbeRecord, SolveRecord, StatsRecord};
use slidedb::{Board, Metric, Move};

/// An optimal solution (or the lack of one): the blank's moves toward the
/// goal as a string of `u d l r`, their number, and whether the board can
/// reach the goal at all.
#[pyclass(frozen, module = "slidedb", name = "Solution")]
#[derive(Clone)]
pub(crate) struct PySolution {
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
    /// The metric its moves are counted in: "single" (a move slides one
    /// tile) or "multi" (a move slides the blank any number of cells
    /// along its row or column; a run of one letter is one move).
    #[pyo3(get)]
    metric: &'static str,
    /// In the multi-tile metric, the moves: the path's runs of one letter,
    /// such as ["rrr", "d", "ll"], whose number is the distance; None in
    /// the single-tile metric or if unsolvable.
    #[pyo3(get)]
    slides: Option<Vec<String>>,
}

impl PySolution {
    pub(crate) fn new(
        board: &Board,
        goal: &Board,
        metric: Metric,
        moves: Option<&[Move]>,
    ) -> PySolution {
        let record = SolveRecord::new(board, goal, metric, moves, false);
        PySolution {
            board: record.board,
            goal: record.goal,
            moves: record.moves,
            distance: record.distance,
            solvable: record.solvable,
            metric: metric.name(),
            slides: record.slides,
        }
    }
}

#[pymethods]
impl PySolution {
    /// The solution as the command line's `solve --json` writes it: a dict
    /// with the keys board, goal, solvable, distance and moves, and in the
    /// multi-tile metric also metric ("multi") and slides (when solvable).
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("board", &self.board)?;
        d.set_item("goal", &self.goal)?;
        d.set_item("solvable", self.solvable)?;
        d.set_item("distance", self.distance)?;
        d.set_item("moves", &self.moves)?;
        if self.metric == Metric::Multi.name() {
            d.set_item("metric", self.metric)?;
            if let Some(slides) = &self.slides {
                d.set_item("slides", slides)?;
            }
        }
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let metric = if self.metric == Metric::Multi.name() {
            ", metric='multi'"
        } else {
            ""
        };
        match (&self.moves, self.distance) {
            (Some(m), Some(d)) => {
                format!("Solution(moves='{m}', distance={d}, solvable=True{metric})")
            }
            _ => format!("Solution(moves=None, distance=None, solvable=False{metric})"),
        }
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.extract::<PySolution>().is_ok_and(|o| {
            (&o.board, &o.goal, &o.moves, o.metric)
                == (&self.board, &self.goal, &self.moves, self.metric)
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let mut h = DefaultHasher::new();
        (&self.board, &self.goal, &self.moves, self.metric).hash(&mut h);
        h.finish()
    }
}

/// One legal move of a probe: its letter, the board it leads to, that
/// board's distance, and whether it leads one move closer.
#[pyclass(frozen, module = "slidedb", name = "MoveOutcome")]
#[derive(Clone)]
pub(crate) struct PyMoveOutcome {
    /// The blank's move: "u", "d", "l" or "r"; in the multi-tile metric a
    /// slide, the letter repeated once a cell ("rr": two cells right).
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
pub(crate) struct PyProbe {
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
    /// The metric its distances are counted in: "single" or "multi".
    #[pyo3(get)]
    metric: &'static str,
    outcomes: Vec<PyMoveOutcome>,
}

#[pymethods]
impl PyProbe {
    /// Every legal move's outcome (none for an unsolvable board).
    #[getter]
    fn moves(&self) -> Vec<PyMoveOutcome> {
        self.outcomes.clone()
    }

    /// The letters of the moves that lead one closer, such as "ul" (in the
    /// multi-tile metric the slides joined, such as "uull"; read `moves`
    /// for each slide alone).
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
        if self.metric == Metric::Multi.name() {
            d.set_item("metric", self.metric)?;
        }
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

pub(crate) fn probe_record(probe: &slidedb::Probe, goal: &Board) -> PyProbe {
    let r = ProbeRecord::new(probe, goal);
    PyProbe {
        board: r.board,
        goal: r.goal,
        distance: r.distance,
        solvable: r.solvable,
        metric: probe.metric.name(),
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

pub(crate) fn stats_dict<'py>(py: Python<'py>, r: StatsRecord) -> PyResult<Bound<'py, PyDict>> {
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

/// One finished layer of a generation, as its progress callback gets it.
#[pyclass(frozen, module = "slidedb", name = "Layer")]
pub(crate) struct PyLayer {
    /// Its distance from the goal.
    #[pyo3(get)]
    pub(crate) depth: u32,
    /// The boards at that distance.
    #[pyo3(get)]
    pub(crate) states: u64,
    /// The boards at that distance or less.
    #[pyo3(get)]
    pub(crate) total: u64,
    /// Seconds since the generation began.
    #[pyo3(get)]
    pub(crate) elapsed: f64,
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
