//! The answers every front end gives, as records with one JSON shape
//! (serde): a line of the command line's `--json` output, an answer of
//! the server, a dictionary of the Python package. Boards and goals are
//! written as [`Board`]'s `Display` writes them, cells in reading order.
//! (This module imports `board`, `table` and `database`.)
//!
//! ```
//! use slidedb::{Board, BuiltFor, Shape, generate, records::ProbeRecord};
//! let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
//! let probe = table.probe(&"1 2 3 4 5 6 7 0 8".parse().unwrap()).unwrap();
//! let record = ProbeRecord::new(&probe, table.goal());
//! let json = serde_json::to_string(&record).unwrap();
//! assert!(json.starts_with(r#"{"board":"1 2 3 4 5 6 7 0 8","goal":"1 2 3 4 5 6 7 8 0","solvable":true,"distance":1,"moves":[{"move":"u","#));
//! ```

use serde::{Serialize, Serializer};

use crate::board::{Board, Metric, Move};
use crate::database::{Size, Toward};
use crate::symmetry::BuiltFor;
use crate::table::{PathCount, Probe, Table};

/// A solved board: `{"board","goal","solvable","distance","moves"}`, and
/// `steps` when asked for; in the multi-tile metric also `"metric":"multi"`
/// and `slides`, the moves grouped (`["rrr","d","ll"]`), whose number is
/// the distance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SolveRecord {
    /// The board asked about.
    pub board: String,
    /// The goal it was solved toward.
    pub goal: String,
    /// Whether it can reach the goal.
    pub solvable: bool,
    /// Its distance (the number of moves in its metric), if solvable.
    pub distance: Option<usize>,
    /// The blank's path (`u d l r`, a letter a cell), if solvable.
    pub moves: Option<String>,
    /// The metric, when it is not the single-tile one: `multi`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<&'static str>,
    /// In the multi-tile metric, the moves: the path's runs of one letter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slides: Option<Vec<String>>,
    /// The boards along the way, the board first and the goal last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<String>>,
}

impl SolveRecord {
    /// The record of the path `moves` (`None`: unsolvable) from `board`
    /// to `goal`, counted in `metric`, with the boards along the way if
    /// `steps`.
    ///
    /// ```
    /// use slidedb::{Board, Metric, Move, records::SolveRecord};
    /// let board: Board = "1 2 3 4 5 6 0 7 8".parse().unwrap();
    /// let goal = Board::solved(board.shape());
    /// let path = [Move::Right, Move::Right];
    /// let record = SolveRecord::new(&board, &goal, Metric::Single, Some(&path), false);
    /// assert_eq!(record.moves.as_deref(), Some("rr"));
    /// assert_eq!(record.distance, Some(2));
    /// let multi = SolveRecord::new(&board, &goal, Metric::Multi, Some(&path), false);
    /// assert_eq!(
    ///     serde_json::to_string(&multi).unwrap(),
    ///     r#"{"board":"1 2 3 4 5 6 0 7 8","goal":"1 2 3 4 5 6 7 8 0","solvable":true,"distance":1,"moves":"rr","metric":"multi","slides":["rr"]}"#
    /// );
    /// ```
    pub fn new(
        board: &Board,
        goal: &Board,
        metric: Metric,
        moves: Option<&[Move]>,
        steps: bool,
    ) -> SolveRecord {
        let multi = metric == Metric::Multi;
        SolveRecord {
            board: board.to_string(),
            goal: goal.to_string(),
            solvable: moves.is_some(),
            distance: moves.map(|m| metric.moves_in(m)),
            moves: moves.map(|m| m.iter().map(|m| m.letter()).collect()),
            metric: multi.then_some(metric.name()),
            slides: moves
                .filter(|_| multi)
                .map(|m| metric.group(m).iter().map(|s| s.to_string()).collect()),
            steps: moves.filter(|_| steps).map(|moves| {
                let mut here = *board;
                std::iter::once(here.to_string())
                    .chain(moves.iter().map(|&mv| {
                        here = here.apply(mv).unwrap_or(here);
                        here.to_string()
                    }))
                    .collect()
            }),
        }
    }
}

/// One legal move of a probe: `{"move","board","distance","optimal"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveRecord {
    /// The move's letters: its direction, once a cell the blank travels
    /// (`uu` is one multi-tile move).
    #[serde(rename = "move")]
    pub letter: String,
    /// The board it leads to.
    pub board: String,
    /// That board's distance.
    pub distance: u32,
    /// Whether it leads one closer.
    pub optimal: bool,
}

/// A probe: `{"board","goal","solvable","distance","moves"}`, the moves in
/// the order `u d l r` (none for an unsolvable board); in the multi-tile
/// metric also `"metric":"multi"`, each direction's moves nearest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProbeRecord {
    /// The board probed.
    pub board: String,
    /// The goal.
    pub goal: String,
    /// Whether it can reach the goal.
    pub solvable: bool,
    /// Its distance, if solvable.
    pub distance: Option<u32>,
    /// Each legal move's outcome.
    pub moves: Vec<MoveRecord>,
    /// The metric, when it is not the single-tile one: `multi`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<&'static str>,
}

impl ProbeRecord {
    /// The record of `probe` toward `goal`.
    ///
    /// ```
    /// use slidedb::{Board, BuiltFor, Shape, generate, records::ProbeRecord};
    /// let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
    /// let probe = table.probe(table.goal()).unwrap();
    /// let record = ProbeRecord::new(&probe, table.goal());
    /// assert_eq!(record.distance, Some(0));
    /// assert_eq!(record.moves.len(), 2);
    /// ```
    pub fn new(probe: &Probe, goal: &Board) -> ProbeRecord {
        ProbeRecord {
            board: probe.board.to_string(),
            goal: goal.to_string(),
            solvable: probe.is_solvable(),
            distance: probe.distance,
            moves: probe
                .moves
                .iter()
                .map(|m| MoveRecord {
                    letter: m.slide().to_string(),
                    board: m.board.to_string(),
                    distance: m.distance,
                    optimal: m.optimal,
                })
                .collect(),
            metric: (probe.metric == Metric::Multi).then_some(probe.metric.name()),
        }
    }
}

/// A count of optimal solutions as JSON: a number up to 2^53 (what every
/// JSON reader holds exactly), a decimal string above.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountValue(pub PathCount);

/// The largest integer every JSON reader holds exactly.
const MAX_EXACT_JSON: u64 = 1 << 53;

impl Serialize for CountValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0.to_u64() {
            Some(n) if n <= MAX_EXACT_JSON => serializer.serialize_u64(n),
            _ => serializer.collect_str(&self.0),
        }
    }
}

/// A count: `{"board","goal","solvable","distance","count"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CountRecord {
    /// The board asked about.
    pub board: String,
    /// The goal.
    pub goal: String,
    /// Whether it can reach the goal.
    pub solvable: bool,
    /// Its distance, if solvable.
    pub distance: Option<u32>,
    /// The number of optimal solutions, if solvable.
    pub count: Option<CountValue>,
}

impl CountRecord {
    /// The record of `count` optimal solutions of `distance` moves
    /// (`None`: unsolvable).
    ///
    /// ```
    /// use slidedb::{Board, Shape, records::CountRecord, table::PathCount};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let record = CountRecord::new(&goal, &goal, Some((0, PathCount::from(1u64))));
    /// assert_eq!(serde_json::to_value(&record).unwrap()["count"], 1);
    /// let big = CountRecord::new(&goal, &goal, Some((0, PathCount::from(1u128 << 60))));
    /// assert_eq!(serde_json::to_value(&big).unwrap()["count"], "1152921504606846976");
    /// ```
    pub fn new(board: &Board, goal: &Board, found: Option<(u32, PathCount)>) -> CountRecord {
        CountRecord {
            board: board.to_string(),
            goal: goal.to_string(),
            solvable: found.is_some(),
            distance: found.map(|f| f.0),
            count: found.map(|f| CountValue(f.1)),
        }
    }
}

/// A board at a known distance (a random board, a board of a layer):
/// `{"board","goal","distance"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardRecord {
    /// The board.
    pub board: String,
    /// The goal.
    pub goal: String,
    /// Its distance to the goal; `null` where no table tells it (a
    /// random board of a size without one).
    pub distance: Option<u32>,
}

impl BoardRecord {
    /// The record of `board` at `distance` from `goal`.
    ///
    /// ```
    /// use slidedb::{Board, Shape, records::BoardRecord};
    /// let goal = Board::solved(Shape::EIGHT);
    /// assert_eq!(BoardRecord::new(&goal, &goal, 0).board, "1 2 3 4 5 6 7 8 0");
    /// ```
    pub fn new(board: &Board, goal: &Board, distance: u32) -> BoardRecord {
        BoardRecord {
            board: board.to_string(),
            goal: goal.to_string(),
            distance: Some(distance),
        }
    }

    /// The record of `board` toward `goal` at a distance no table tells.
    ///
    /// ```
    /// use slidedb::{Board, Shape, records::BoardRecord};
    /// let goal = Board::solved(Shape::new(4, 4).unwrap());
    /// let json = serde_json::to_string(&BoardRecord::unknown(&goal, &goal)).unwrap();
    /// assert!(json.ends_with(r#""distance":null}"#));
    /// ```
    pub fn unknown(board: &Board, goal: &Board) -> BoardRecord {
        BoardRecord {
            board: board.to_string(),
            goal: goal.to_string(),
            distance: None,
        }
    }
}

/// An input that is not a board: `{"line","input","error"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InvalidRecord {
    /// Its number among the inputs, from 1.
    pub line: usize,
    /// The input as given.
    pub input: String,
    /// What is wrong with it.
    pub error: String,
}

/// A full table described toward a goal: `{"size","goal","states",
/// "max_distance","mean_distance","layers","hardest","generator"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StatsRecord {
    /// The board size, such as `3x3`.
    pub size: String,
    /// The goal.
    pub goal: String,
    /// How many boards reach it.
    pub states: u64,
    /// The greatest distance.
    pub max_distance: u32,
    /// The mean distance, to four decimals.
    pub mean_distance: f64,
    /// `layers[d]`: how many boards are `d` moves away.
    pub layers: Vec<u64>,
    /// Boards at the greatest distance (up to 1,000), toward the goal.
    pub hardest: Vec<String>,
    /// The program that built the table.
    pub generator: String,
    /// The metric, when it is not the single-tile one: `multi`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<&'static str>,
}

impl StatsRecord {
    /// The record of `table` toward the goal asked for.
    ///
    /// ```
    /// use slidedb::{Database, records::StatsRecord};
    /// let db = Database::in_memory().open().unwrap();
    /// let table = db.table(&"0 1 2 3 4 5 6 7 8".parse().unwrap()).unwrap();
    /// let record = StatsRecord::new(&table);
    /// assert_eq!((record.max_distance, record.layers.len()), (31, 32));
    /// assert_eq!(record.goal, "0 1 2 3 4 5 6 7 8");
    /// ```
    pub fn new<D: AsRef<[u8]>>(table: &Toward<Table<D>>) -> StatsRecord {
        let goal = table.toward().goal();
        let t = table.get();
        StatsRecord {
            size: goal.shape().to_string(),
            goal: goal.to_string(),
            states: t.states(),
            max_distance: t.max_distance(),
            mean_distance: (t.mean_distance() * 1e4).round() / 1e4,
            layers: t.layers().to_vec(),
            hardest: table.hardest().iter().map(|b| b.to_string()).collect(),
            generator: t.generator().to_string(),
            metric: (t.metric() == Metric::Multi).then_some(t.metric().name()),
        }
    }
}

/// A size a database answers: `{"size","exact","goal"}`, `exact` being
/// `table`, `patterns` or `search` ([`AnsweredBy`](crate::database::AnsweredBy)),
/// `goal` the goal its boards are answered toward when none is asked for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SizeRecord {
    /// The size, such as `3x3`.
    pub size: String,
    /// How boards of the size are answered.
    pub exact: &'static str,
    /// The default goal of the size.
    pub goal: String,
}

impl SizeRecord {
    /// The record of `size`.
    ///
    /// ```
    /// use slidedb::{Database, records::SizeRecord};
    /// let db = Database::in_memory().open().unwrap();
    /// let sizes: Vec<SizeRecord> = db.sizes().unwrap().iter().map(SizeRecord::new).collect();
    /// let json = serde_json::to_string(&sizes[0]).unwrap();
    /// assert_eq!(json, r#"{"size":"2x2","exact":"table","goal":"1 2 3 0"}"#);
    /// ```
    pub fn new(size: &Size) -> SizeRecord {
        SizeRecord {
            size: size.shape.to_string(),
            exact: size.by.name(),
            goal: size.goal.to_string(),
        }
    }
}
