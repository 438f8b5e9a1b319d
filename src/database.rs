//! The engine every front end calls: [`Database`] answers any board toward
//! any goal on any size from the files of a data folder.
//!
//! It holds the one rule for which engine answers a board
//! ([`Method::Exact`]): the full table of the goal's class for boards of up
//! to [`MAX_TABLE_CELLS`] cells (built and saved when missing and small),
//! IDA* over the largest pattern databases of the class beyond that, and
//! IDA* with Manhattan distance when there are none. Files are found by
//! name and checked by what they hold; open files are cached and shared
//! between threads and clones; what it does (opened, built, saved) is
//! reported to a callback, never printed.
//!
//! ```
//! use slidedb::{Board, Database, Method};
//! let dir = tempfile::tempdir().unwrap();
//! let db = Database::open(dir.path()).unwrap();
//! // Korf's goal for the 8-puzzle: the blank first.
//! let goal: Board = "0 1 2 3 4 5 6 7 8".parse().unwrap();
//! let engine = db.engine(&goal, Method::Exact).unwrap(); // builds and saves the corner table
//! let found = engine.solve(&"7 2 4 5 0 6 8 3 1".parse().unwrap()).unwrap();
//! assert_eq!(found.distance(), Some(26));
//! assert!(dir.path().join("3x3-1-2-3-4-5-6-7-8-0.slidedb").exists());
//! ```

use std::collections::HashMap;
use std::fmt;
use std::io;
use std::ops::{ControlFlow, RangeInclusive};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::board::{Board, Move, Shape};
use crate::format::{Kind, TableError};
use crate::pdb::PatternDb;
use crate::random::SplitMix64;
use crate::search::Stats;
use crate::solution::{Solution, SolveError};
use crate::solver::{Algorithm, Heuristic, Solver};
use crate::store::{self, Bytes};
use crate::symmetry::GoalClass;
use crate::table::{
    GenerateError, MAX_IN_MEMORY_CELLS, MAX_TABLE_CELLS, MoveOutcome, PathCount, Probe, RareLayers,
    Table, generate,
};

/// Tables of at least this many boards (3×4, 2×6 and up) keep their rare
/// layers in a file beside them, once listed.
pub const SAVED_RARE_LAYERS_STATES: u64 = 1 << 24;

/// Boards up to this many cells get their table built on first use, by
/// default (every table of up to 9 cells builds in milliseconds).
pub const DEFAULT_BUILD_CELLS: usize = 9;

/// Why the database could not answer toward a goal: the table or databases
/// it needs cannot be had. Each variant carries its facts; the message
/// says what to do in library terms.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DatabaseError {
    /// A file could not be read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// A directory is not a usable sharded table.
    #[error("{}", path.display())]
    Shards {
        /// The directory.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        source: crate::table::ShardError,
    },
    /// A file is not a usable table or databases file (damaged, another
    /// kind, another format version).
    #[error("{}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        source: TableError,
    },
    /// A file (or a table given in memory) holds a table or databases that
    /// do not serve the goal asked for (another size, or another class of
    /// goals).
    #[error(
        "{} is {kind} for {} goal {holds}, which does not serve {} goal {asked} (another class of goals): build one for goal {asked}",
        origin.name(), holds.shape(), asked.shape()
    )]
    WrongGoal {
        /// Where it came from.
        origin: Source,
        /// What it is.
        kind: Kind,
        /// The goal asked for.
        asked: Board,
        /// The goal the file was built for.
        holds: Board,
    },
    /// No full table of the goal's class is in the data folder (or there is
    /// no data folder), and it is too big to build on the fly.
    #[error(
        "no table for {} goal {goal} {} ({} states: too many to build on the fly): generate it and save it there",
        goal.shape(),
        match path {
            Some(path) => format!("at {}", path.display()),
            None => "in memory, and no data folder to find it in".to_string(),
        },
        goal.shape().states()
    )]
    MissingTable {
        /// The goal asked for.
        goal: Board,
        /// Where the table is looked for, if there is a data folder.
        path: Option<PathBuf>,
    },
    /// Boards of this size have no full table.
    #[error(
        "no full table can serve {shape}: full tables go up to {MAX_TABLE_CELLS} cells; {shape} boards are answered through pattern databases"
    )]
    TooBig {
        /// The board size.
        shape: Shape,
    },
    /// No pattern databases of the goal's class are in the data folder (or
    /// there is no data folder).
    #[error(
        "no pattern databases for {} goal {goal} {}: build them (any group sizes adding up to the tiles) and save them there",
        goal.shape(),
        match dir {
            Some(dir) => format!("in {}", dir.display()),
            None => "in memory, and no data folder to find them in".to_string(),
        }
    )]
    MissingPatterns {
        /// The goal asked for.
        goal: Board,
        /// Where they are looked for, if there is a data folder.
        dir: Option<PathBuf>,
    },
    /// The data folder could not be read or created.
    #[error("cannot use the data folder {}", path.display())]
    DataDir {
        /// The folder.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// A table could not be built.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// A method that cannot run: pattern databases as the estimate of a
    /// search that uses none.
    #[error("pattern databases are an estimate for A* and IDA*, not for {algorithm}")]
    Method {
        /// The algorithm asked for.
        algorithm: Algorithm,
    },
    /// The board could not be answered.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A query that only a full table answers (counts, layers, boards at a
    /// distance), asked where there is none: `source` says why.
    #[error("{query} needs a full table of every board's distance")]
    NeedsTable {
        /// The query, such as `count`.
        query: &'static str,
        /// Why there is no table.
        #[source]
        source: Box<DatabaseError>,
    },
}

/// How to answer a board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Method {
    /// The exact answer: the goal class's full table (boards of up to
    /// [`MAX_TABLE_CELLS`] cells), or IDA* over its largest pattern
    /// databases (bigger boards, or boards whose databases were named), or
    /// IDA* with Manhattan distance when there are none (optimal, but can
    /// take minutes a board; reported as [`Event::NoPatterns`]).
    #[default]
    Exact,
    /// A classic search with a plain estimate.
    Search(Algorithm, Heuristic),
    /// A* or IDA* under the goal class's pattern databases.
    PatternSearch(Algorithm),
}

/// Where a table or databases came from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source {
    /// Memory-mapped from this file.
    File(PathBuf),
    /// Built on first use; saved to this file if it could be.
    Built {
        /// Where it was saved.
        saved: Option<PathBuf>,
    },
    /// Given to the builder in memory.
    Memory,
}

impl Source {
    /// What to call it in a message: the file's path, or what it is.
    ///
    /// ```
    /// use slidedb::Source;
    /// assert_eq!(Source::Memory.name(), "the table given in memory");
    /// assert_eq!(Source::File("t.slidedb".into()).name(), "t.slidedb");
    /// ```
    pub fn name(&self) -> String {
        match self {
            Source::File(path) => path.display().to_string(),
            Source::Built { saved: Some(path) } => path.display().to_string(),
            Source::Built { saved: None } => "the table built in memory".to_string(),
            Source::Memory => "the table given in memory".to_string(),
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::File(path) => write!(f, "{}", path.display()),
            Source::Built { saved: Some(path) } => {
                write!(f, "built in memory, saved to {}", path.display())
            }
            Source::Built { saved: None } => f.write_str("built in memory"),
            Source::Memory => f.write_str("given in memory"),
        }
    }
}

/// What the database did, as it does it: for a front end to report.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Event {
    /// A file's body was checked in full against its checksum, the first
    /// time it was opened since it last changed.
    Verified {
        /// The file.
        path: PathBuf,
        /// Its length in bytes.
        bytes: u64,
        /// How long the check took.
        elapsed: Duration,
        /// Whether a stamp now records it ([`store::stamp`]), so that later
        /// opens skip the check until the file changes; `false` where the
        /// folder is not writable (the file is then checked on every open).
        stamped: bool,
    },
    /// A file was opened (mapped and checked).
    Opened {
        /// The file.
        path: PathBuf,
        /// What it is.
        kind: Kind,
    },
    /// A missing table was built in memory.
    Built {
        /// The goal it was built for.
        goal: Board,
        /// How long it took.
        elapsed: Duration,
    },
    /// The data folder did not exist and was created, to save a table in.
    CreatedDataDir {
        /// The folder.
        path: PathBuf,
    },
    /// A table just built was saved.
    Saved {
        /// The file.
        path: PathBuf,
    },
    /// A table just built could not be saved; it serves from memory.
    NotSaved {
        /// Where it was to go.
        path: PathBuf,
        /// Why it could not.
        error: String,
    },
    /// A search from the goal began, to find which boards lie at which
    /// distance (a table stores distances mod 3 only): it takes about as
    /// long as building the table, up to the deepest layer wanted.
    Searching {
        /// The goal it searches from.
        goal: Board,
        /// The deepest layer it goes to.
        upto: u32,
    },
    /// The rare layers kept beside a table could not be used (damaged, of
    /// another table, or listed not deep enough): they are listed again,
    /// and the file replaced.
    RareLayersUnusable {
        /// The file.
        path: PathBuf,
        /// Why it could not be used.
        why: String,
    },
    /// The rare layers of a table were listed ([`RareLayers`]).
    ListedRareLayers {
        /// The goal asked for.
        goal: Board,
        /// How many boards they hold.
        boards: u64,
        /// How long the listing took.
        elapsed: Duration,
        /// The file they were saved to beside the table, and the error if
        /// they could not be (`None`: not kept in a file, because the table
        /// has none or is small enough to list them again in milliseconds).
        saved: Option<(PathBuf, Option<String>)>,
    },
    /// No pattern databases for a board too big for a full table: answers
    /// come from IDA* with Manhattan distance, optimal but slow on hard
    /// boards. Reported once per class of goals and database.
    NoPatterns {
        /// The goal asked for.
        goal: Board,
        /// Where they were looked for.
        dir: Option<PathBuf>,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Verified {
                path,
                bytes,
                elapsed,
                stamped,
            } => write!(
                f,
                "checked {} ({:.1} MB) in {:.3} s{}",
                path.display(),
                *bytes as f64 / 1e6,
                elapsed.as_secs_f64(),
                if *stamped {
                    "; it is not checked again until it changes"
                } else {
                    "; could not record that beside it (is its folder writable?), so it is checked on every open"
                }
            ),
            Event::Opened { path, kind } => write!(f, "opened {kind} {}", path.display()),
            Event::Built { goal, elapsed } => write!(
                f,
                "built the {} table for goal {goal} in {:.3} s",
                goal.shape(),
                elapsed.as_secs_f64()
            ),
            Event::CreatedDataDir { path } => {
                write!(f, "created the data folder {}", path.display())
            }
            Event::Saved { path } => write!(f, "saved the table to {}", path.display()),
            Event::NotSaved { path, error } => write!(
                f,
                "could not save the table to {} ({error}); it serves from memory",
                path.display()
            ),
            Event::Searching { goal, upto } => write!(
                f,
                "searching the {} boards from goal {goal} out to distance {upto}, to list them by distance (about as long as building the table)",
                goal.shape()
            ),
            Event::RareLayersUnusable { path, why } => write!(
                f,
                "cannot use the rare layers kept in {}: {why}; listing them again",
                path.display()
            ),
            Event::ListedRareLayers {
                goal,
                boards,
                elapsed,
                saved,
            } => {
                write!(
                    f,
                    "listed the {boards} boards of the rare layers of {} goal {goal} in {:.1} s",
                    goal.shape(),
                    elapsed.as_secs_f64()
                )?;
                match saved {
                    Some((path, None)) => {
                        write!(f, "; saved to {} for next time", path.display())
                    }
                    Some((path, Some(error))) => write!(
                        f,
                        "; could not save them to {} ({error}), so they are listed again next time",
                        path.display()
                    ),
                    None => Ok(()),
                }
            }
            Event::NoPatterns { goal, dir } => write!(
                f,
                "no pattern databases for {} goal {goal}{}: solving by IDA* with Manhattan distance, which can take minutes a board",
                goal.shape(),
                dir.as_ref()
                    .map(|d| format!(" in {}", d.display()))
                    .unwrap_or_default()
            ),
        }
    }
}

/// A table or pattern databases, and the goal asked for that it serves:
/// cheap to clone, shared between threads. Its queries answer toward the
/// goal asked for; [`get`](ForGoal::get) is the file itself, which answers
/// toward the goal it was built for (another goal of the same class).
///
/// ```
/// use slidedb::{Board, Database};
/// let db = Database::in_memory().open().unwrap();
/// let korf: Board = "0 1 2 3 4 5 6 7 8".parse().unwrap();
/// let table = db.table(&korf).unwrap();
/// assert_eq!(table.toward().goal(), &korf);
/// let board: Board = "1 0 2 3 4 5 6 7 8".parse().unwrap();
/// assert_eq!(table.distance(&board), Ok(Some(1))); // toward Korf's goal
/// assert_eq!(table.get().max_distance(), 31); // the table itself
/// ```
#[derive(Debug)]
pub struct ForGoal<T> {
    value: Arc<T>,
    class: GoalClass,
    source: Source,
}

impl<T> Clone for ForGoal<T> {
    fn clone(&self) -> ForGoal<T> {
        ForGoal {
            value: self.value.clone(),
            class: self.class,
            source: self.source.clone(),
        }
    }
}

impl<T> ForGoal<T> {
    /// The goal asked for (`toward().goal()`), and how it maps onto the
    /// file's indexed goal.
    pub fn toward(&self) -> &GoalClass {
        &self.class
    }

    /// Where the table or databases came from.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The table or databases themselves: their own queries answer toward
    /// the goal they were built for.
    pub fn get(&self) -> &T {
        &self.value
    }
}

impl<D: AsRef<[u8]>> ForGoal<Table<D>> {
    /// [`Table::solve`] toward the goal asked for.
    pub fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
        let mut moves = Vec::new();
        let solvable = self.solve_into(board, &mut moves)?;
        Ok(Solution {
            moves: solvable.then_some(moves),
            stats: None,
        })
    }

    /// [`Table::solve_into`] toward the goal asked for.
    pub fn solve_into(&self, board: &Board, moves: &mut Vec<Move>) -> Result<bool, SolveError> {
        self.value.solve_toward_into(&self.class, board, moves)
    }

    /// [`Table::distance`] toward the goal asked for.
    pub fn distance(&self, board: &Board) -> Result<Option<u32>, SolveError> {
        self.value.distance_toward(&self.class, board)
    }

    /// [`Table::probe`] toward the goal asked for.
    ///
    /// ```
    /// use slidedb::{Board, Database};
    /// let db = Database::in_memory().open().unwrap();
    /// let table = db.table(&"0 1 2 3 4 5 6 7 8".parse().unwrap()).unwrap();
    /// let probe = table.probe(&"1 0 2 3 4 5 6 7 8".parse().unwrap()).unwrap();
    /// assert_eq!(probe.distance, Some(1));
    /// assert_eq!(probe.optimal_moves().count(), 1);
    /// ```
    pub fn probe(&self, board: &Board) -> Result<Probe, SolveError> {
        self.value.probe_toward(&self.class, board)
    }

    /// [`Table::count`] toward the goal asked for.
    ///
    /// ```
    /// use slidedb::{Board, Database};
    /// let db = Database::in_memory().open().unwrap();
    /// let table = db.table(&"0 1 2 3 4 5 6 7 8".parse().unwrap()).unwrap();
    /// let count = table.count(&"7 2 4 5 0 6 8 3 1".parse().unwrap()).unwrap();
    /// assert_eq!(count.unwrap().to_u64(), Some(3));
    /// ```
    pub fn count(&self, board: &Board) -> Result<Option<PathCount>, SolveError> {
        self.value.count_toward(&self.class, board)
    }

    /// [`Table::layer`] toward the goal asked for.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use slidedb::{Board, Database};
    /// let db = Database::in_memory().open().unwrap();
    /// let table = db.table(&"0 1 2 3 4 5 6 7 8".parse().unwrap()).unwrap();
    /// let mut boards = 0;
    /// table.layer(31, |_| { boards += 1; ControlFlow::Continue(()) }).unwrap();
    /// assert_eq!(boards, 2);
    /// ```
    pub fn layer(
        &self,
        distance: u32,
        visit: impl FnMut(Board) -> ControlFlow<()>,
    ) -> Result<(), SolveError> {
        self.value.layer_toward(&self.class, distance, visit)
    }

    /// [`Table::random_toward`] the goal asked for.
    ///
    /// ```
    /// use slidedb::{Board, Database, random::SplitMix64};
    /// let db = Database::in_memory().open().unwrap();
    /// let table = db.table(&"0 1 2 3 4 5 6 7 8".parse().unwrap()).unwrap();
    /// let mut rng = SplitMix64::new(3);
    /// let board = table.random(26..=26, None, &mut rng).unwrap().unwrap();
    /// assert_eq!(table.distance(&board), Ok(Some(26)));
    /// ```
    pub fn random(
        &self,
        distances: RangeInclusive<u32>,
        rare: Option<&RareLayers>,
        rng: &mut SplitMix64,
    ) -> Result<Option<Board>, SolveError> {
        self.value.random_toward(&self.class, distances, rare, rng)
    }

    /// [`Table::hardest`] as boards toward the goal asked for.
    pub fn hardest(&self) -> Vec<Board> {
        let own = self.value.class();
        self.value
            .hardest()
            .iter()
            .map(|b| self.class.from_canonical(&own.to_canonical(b)))
            .collect()
    }
}

impl<D: AsRef<[u8]>> ForGoal<PatternDb<D>> {
    /// [`PatternDb::solve`] toward the goal asked for.
    pub fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
        self.value.solve_toward(&self.class, board)
    }

    /// [`PatternDb::estimate`] toward the goal asked for.
    pub fn estimate(&self, board: &Board) -> Result<u32, SolveError> {
        self.value.estimate_toward(&self.class, board)
    }
}

/// What gives exact answers toward a goal, as [`Method::Exact`] chooses it
/// ([`Database::exact`]).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Exact {
    /// The class's full table.
    Table(ForGoal<Table<Bytes>>),
    /// The class's pattern databases, searched by IDA*.
    Patterns(ForGoal<PatternDb<Bytes>>),
    /// Nothing: a board too big for a full table, with no pattern
    /// databases. [`Method::Exact`] then searches by IDA* with Manhattan
    /// distance.
    Nothing {
        /// Where the databases were looked for.
        dir: Option<PathBuf>,
    },
}

/// What answers boards toward one goal, resolved by
/// [`Database::engine`]: cheap to clone, shared between threads.
#[derive(Clone, Debug)]
pub struct Engine {
    class: GoalClass,
    kind: EngineKind,
}

#[derive(Clone, Debug)]
enum EngineKind {
    Table(ForGoal<Table<Bytes>>),
    Patterns {
        db: ForGoal<PatternDb<Bytes>>,
        algorithm: Algorithm,
        solver: Arc<Solver>,
    },
    Search {
        solver: Arc<Solver>,
        algorithm: Algorithm,
        heuristic: Heuristic,
    },
}

impl Engine {
    /// The goal it answers toward.
    ///
    /// ```
    /// use slidedb::{Board, Database, Method, Shape};
    /// let dir = tempfile::tempdir().unwrap();
    /// let goal = Board::solved(Shape::new(2, 3).unwrap());
    /// let engine = Database::open(dir.path()).unwrap().engine(&goal, Method::Exact).unwrap();
    /// assert_eq!(engine.goal(), &goal);
    /// ```
    pub fn goal(&self) -> &Board {
        self.class.goal()
    }

    /// Whether it answers by a table lookup (microseconds a board), not a
    /// search.
    ///
    /// ```
    /// use slidedb::{Algorithm, Board, Database, Heuristic, Method, Shape};
    /// let dir = tempfile::tempdir().unwrap();
    /// let db = Database::open(dir.path()).unwrap();
    /// let goal = Board::solved(Shape::new(2, 3).unwrap());
    /// assert!(db.engine(&goal, Method::Exact).unwrap().is_lookup());
    /// let astar = Method::Search(Algorithm::AStar, Heuristic::Manhattan);
    /// assert!(!db.engine(&goal, astar).unwrap().is_lookup());
    /// ```
    pub fn is_lookup(&self) -> bool {
        matches!(self.kind, EngineKind::Table(_))
    }

    /// The table it answers from, if it is a lookup.
    ///
    /// ```
    /// use slidedb::{Board, Database, Method, Shape};
    /// let dir = tempfile::tempdir().unwrap();
    /// let goal = Board::solved(Shape::new(2, 3).unwrap());
    /// let engine = Database::open(dir.path()).unwrap().engine(&goal, Method::Exact).unwrap();
    /// assert_eq!(engine.table().unwrap().get().states(), 360);
    /// ```
    pub fn table(&self) -> Option<&ForGoal<Table<Bytes>>> {
        match &self.kind {
            EngineKind::Table(t) => Some(t),
            _ => None,
        }
    }

    /// The pattern databases it searches under, if any.
    ///
    /// ```
    /// use slidedb::{Board, Database, Method, Shape, pdb};
    /// let goal = Board::solved(Shape::new(2, 4).unwrap());
    /// let built = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-3").unwrap(), |_| {}).unwrap();
    /// let db = Database::in_memory().patterns(built).open().unwrap();
    /// let engine = db.engine(&goal, Method::Exact).unwrap();
    /// assert!(engine.patterns().is_some());
    /// ```
    pub fn patterns(&self) -> Option<&ForGoal<PatternDb<Bytes>>> {
        match &self.kind {
            EngineKind::Patterns { db, .. } => Some(db),
            _ => None,
        }
    }

    /// The search it runs, if it is not a lookup: the algorithm, and the
    /// plain estimate (`None` for pattern databases).
    ///
    /// ```
    /// use slidedb::{Algorithm, Board, Database, Heuristic, Method, Shape};
    /// let dir = tempfile::tempdir().unwrap();
    /// let db = Database::open(dir.path()).unwrap();
    /// let bfs = Method::Search(Algorithm::Bfs, Heuristic::Manhattan);
    /// let engine = db.engine(&Board::solved(Shape::EIGHT), bfs).unwrap();
    /// assert_eq!(engine.search(), Some((Algorithm::Bfs, Some(Heuristic::Manhattan))));
    /// ```
    pub fn search(&self) -> Option<(Algorithm, Option<Heuristic>)> {
        match &self.kind {
            EngineKind::Table(_) => None,
            EngineKind::Patterns { algorithm, .. } => Some((*algorithm, None)),
            EngineKind::Search {
                algorithm,
                heuristic,
                ..
            } => Some((*algorithm, Some(*heuristic))),
        }
    }

    /// Answers `board` toward the goal.
    ///
    /// ```
    /// use slidedb::{Board, Database, Method};
    /// let dir = tempfile::tempdir().unwrap();
    /// let db = Database::open(dir.path()).unwrap();
    /// let engine = db.engine(&Board::solved(slidedb::Shape::EIGHT), Method::Exact).unwrap();
    /// let found = engine.solve(&"2 3 4 1 5 x 7 6 8".parse().unwrap()).unwrap();
    /// assert_eq!(found.move_string().unwrap(), "ullddrurdllurdruldr");
    /// ```
    pub fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
        self.solve_with_progress(board, |_| ControlFlow::Continue(()))
    }

    /// Like [`solve`](Engine::solve), showing a search's work so far to
    /// `progress` every [`PROGRESS_EVERY`](crate::search::PROGRESS_EVERY)
    /// nodes expanded, and stopping it with [`SolveError::Stopped`] when
    /// `progress` breaks: a deadline for a search. A table lookup takes
    /// microseconds and shows nothing.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use slidedb::{Algorithm, Board, Database, Heuristic, Method, Shape, SolveError};
    /// let db = Database::in_memory().open().unwrap();
    /// let iddfs = Method::Search(Algorithm::Iddfs, Heuristic::Manhattan);
    /// let engine = db.engine(&Board::solved(Shape::EIGHT), iddfs).unwrap();
    /// let far: Board = "8 6 7 2 5 4 3 0 1".parse().unwrap();
    /// let stopped = engine.solve_with_progress(&far, |_| ControlFlow::Break(()));
    /// assert!(matches!(stopped, Err(SolveError::Stopped { .. })));
    /// ```
    pub fn solve_with_progress(
        &self,
        board: &Board,
        progress: impl FnMut(&Stats) -> ControlFlow<()>,
    ) -> Result<Solution, SolveError> {
        match &self.kind {
            EngineKind::Table(_) => {
                let mut moves = Vec::new();
                let solvable = self.solve_into(board, &mut moves)?;
                Ok(Solution {
                    moves: solvable.then_some(moves),
                    stats: None,
                })
            }
            EngineKind::Patterns {
                db,
                algorithm: Algorithm::IdaStar,
                ..
            } => db
                .get()
                .solve_toward_with_progress(db.toward(), board, progress),
            EngineKind::Patterns {
                db,
                algorithm,
                solver,
            } => {
                // The databases serve the goal (checked when the engine was
                // made), and the solver refuses a board of another shape
                // before it estimates: no estimate fails.
                solver.solve_estimated(board, *algorithm, |b| db.estimate(b).unwrap_or(0))
            }
            EngineKind::Search {
                solver,
                algorithm,
                heuristic,
            } => solver.solve_with_progress(board, *algorithm, *heuristic, progress),
        }
    }

    /// The board's distance and every legal move's outcome ([`Probe`]):
    /// from the table, or, without one, by solving the board and each
    /// neighbour (each exactly, so up to five searches).
    ///
    /// ```
    /// use slidedb::{Board, Database, Method, Move};
    /// let db = Database::in_memory().open().unwrap();
    /// let engine = db.engine(&Board::solved(slidedb::Shape::EIGHT), Method::Exact).unwrap();
    /// let probe = engine.probe(&"1 2 3 4 5 6 7 0 8".parse().unwrap()).unwrap();
    /// assert_eq!(probe.distance, Some(1));
    /// assert_eq!(probe.optimal_moves().collect::<Vec<_>>(), [Move::Right]);
    /// ```
    pub fn probe(&self, board: &Board) -> Result<Probe, SolveError> {
        self.probe_with_progress(board, |_| ControlFlow::Continue(()))
    }

    /// Like [`probe`](Engine::probe), with each search's progress shown
    /// to `progress` as in [`solve_with_progress`](Engine::solve_with_progress)
    /// (the first that breaks stops the probe with
    /// [`SolveError::Stopped`]).
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use slidedb::{Board, Database, Method, Shape};
    /// let db = Database::in_memory().open().unwrap();
    /// let engine = db.engine(&Board::solved(Shape::EIGHT), Method::Exact).unwrap();
    /// let probe = engine.probe_with_progress(&Board::solved(Shape::EIGHT), |_| ControlFlow::Break(()));
    /// assert_eq!(probe.unwrap().distance, Some(0)); // a lookup: nothing to stop
    /// ```
    pub fn probe_with_progress(
        &self,
        board: &Board,
        mut progress: impl FnMut(&Stats) -> ControlFlow<()>,
    ) -> Result<Probe, SolveError> {
        if let EngineKind::Table(table) = &self.kind {
            return table.probe(board);
        }
        let found = self.solve_with_progress(board, &mut progress)?;
        let Some(distance) = found.distance() else {
            return Ok(Probe {
                board: *board,
                distance: None,
                moves: Vec::new(),
            });
        };
        let first = found.moves.as_ref().and_then(|m| m.first().copied());
        let mut moves = Vec::with_capacity(4);
        for mv in Move::ALL {
            let Some(next) = board.apply(mv) else {
                continue;
            };
            // The graph is bipartite: a neighbour is one closer or one
            // farther, and the solution's first move is one closer.
            let optimal = first == Some(mv)
                || (distance > 0
                    && self.solve_with_progress(&next, &mut progress)?.distance()
                        == Some(distance - 1));
            moves.push(MoveOutcome {
                mv,
                board: next,
                distance: if optimal { distance - 1 } else { distance + 1 },
                optimal,
            });
        }
        Ok(Probe {
            board: *board,
            distance: Some(distance),
            moves,
        })
    }

    /// Like [`solve`](Engine::solve), but appends the moves to `moves`
    /// (a table lookup then allocates nothing once `moves` has grown) and
    /// returns whether the board can reach the goal. On an error `moves` is
    /// left as it was.
    ///
    /// ```
    /// use slidedb::{Board, Database, Method, Move};
    /// let dir = tempfile::tempdir().unwrap();
    /// let db = Database::open(dir.path()).unwrap();
    /// let engine = db.engine(&Board::solved(slidedb::Shape::EIGHT), Method::Exact).unwrap();
    /// let mut moves = Vec::new();
    /// assert_eq!(engine.solve_into(&"1 2 3 4 5 6 7 0 8".parse().unwrap(), &mut moves), Ok(true));
    /// assert_eq!(moves, [Move::Right]);
    /// ```
    pub fn solve_into(&self, board: &Board, moves: &mut Vec<Move>) -> Result<bool, SolveError> {
        match &self.kind {
            EngineKind::Table(table) => table.solve_into(board, moves),
            _ => {
                let found = self.solve(board)?;
                match found.moves {
                    Some(m) => {
                        moves.extend_from_slice(&m);
                        Ok(true)
                    }
                    None => Ok(false),
                }
            }
        }
    }
}

/// Who hears what the database does.
type Listener = Box<dyn Fn(&Event) + Send + Sync>;

/// A shared cache of what has been opened, by indexed goal.
type Cache<T> = Mutex<HashMap<Board, Option<(Arc<T>, Source)>>>;

struct Inner {
    dir: Option<PathBuf>,
    table_file: Option<(Arc<Table<Bytes>>, Source)>,
    patterns_file: Option<(Arc<PatternDb<Bytes>>, Source)>,
    build_cells: usize,
    verify: bool,
    search_memory: u64,
    tables: Cache<Table<Bytes>>,
    patterns: Cache<PatternDb<Bytes>>,
    /// The rare layers listed so far, by indexed goal.
    rare: Mutex<HashMap<Board, Arc<RareLayers>>>,
    /// The goal classes (by canonical goal) whose missing pattern
    /// databases were reported.
    told: Mutex<std::collections::HashSet<Board>>,
    on_event: Option<Listener>,
}

/// The engine over a data folder: answers any board toward any goal on any
/// size, from checked files it finds, builds or is given. Cheap to clone;
/// clones share what is open, across threads.
///
/// ```
/// use slidedb::{Board, Database, Shape};
/// let dir = tempfile::tempdir().unwrap();
/// let db = Database::open(dir.path()).unwrap();
/// let board: Board = "2 3 4 1 5 x 7 6 8".parse().unwrap();
/// let found = db.solve(&board, &Board::solved(Shape::EIGHT)).unwrap();
/// assert_eq!(found.move_string().unwrap(), "ullddrurdllurdruldr");
/// ```
#[derive(Clone)]
pub struct Database {
    inner: Arc<Inner>,
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Database")
            .field("dir", &self.inner.dir)
            .field("table_file", &self.inner.table_file.as_ref().map(|t| &t.1))
            .field(
                "patterns_file",
                &self.inner.patterns_file.as_ref().map(|p| &p.1),
            )
            .finish_non_exhaustive()
    }
}

/// Sets up a [`Database`]: its data folder, files it must use, how much it
/// builds and checks, and who hears what it does.
///
/// ```
/// use slidedb::{Board, Database, Shape};
/// let dir = tempfile::tempdir().unwrap();
/// let events = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
/// let heard = events.clone();
/// let db = Database::builder()
///     .data_dir(dir.path())
///     .on_event(move |e| heard.lock().unwrap().push(e.to_string()))
///     .open()
///     .unwrap();
/// db.table(&Board::solved(Shape::new(2, 3).unwrap())).unwrap();
/// assert!(events.lock().unwrap()[0].starts_with("built the 2x3 table"));
/// ```
pub struct DatabaseBuilder {
    dir: Option<PathBuf>,
    default_dir: bool,
    table_file: Option<PathBuf>,
    patterns_file: Option<PathBuf>,
    table: Option<Table<Vec<u8>>>,
    patterns: Option<PatternDb<Vec<u8>>>,
    build_cells: usize,
    verify: bool,
    search_memory: u64,
    on_event: Option<Listener>,
}

impl fmt::Debug for DatabaseBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DatabaseBuilder")
            .field("dir", &self.dir)
            .field("table_file", &self.table_file)
            .field("patterns_file", &self.patterns_file)
            .field("build_cells", &self.build_cells)
            .field("verify", &self.verify)
            .finish_non_exhaustive()
    }
}

impl DatabaseBuilder {
    /// The data folder to look for files in and save built tables to
    /// [default: [`store::default_data_dir`]].
    pub fn data_dir(mut self, dir: impl Into<PathBuf>) -> DatabaseBuilder {
        self.dir = Some(dir.into());
        self.default_dir = false;
        self
    }

    /// Answers from this table file only, for every board a full table
    /// answers: a goal it does not serve is an error, not a search of the
    /// data folder.
    pub fn table_file(mut self, path: impl Into<PathBuf>) -> DatabaseBuilder {
        self.table_file = Some(path.into());
        self
    }

    /// Uses this pattern databases file for the boards of its size (also
    /// boards that have a full table), and no other databases.
    pub fn patterns_file(mut self, path: impl Into<PathBuf>) -> DatabaseBuilder {
        self.patterns_file = Some(path.into());
        self
    }

    /// Like [`table_file`](DatabaseBuilder::table_file), with a table in
    /// memory.
    pub fn table(mut self, table: Table<Vec<u8>>) -> DatabaseBuilder {
        self.table = Some(table);
        self
    }

    /// Like [`patterns_file`](DatabaseBuilder::patterns_file), with
    /// databases in memory.
    pub fn patterns(mut self, patterns: PatternDb<Vec<u8>>) -> DatabaseBuilder {
        self.patterns = Some(patterns);
        self
    }

    /// Builds missing tables of boards up to `cells` cells (at most
    /// [`MAX_IN_MEMORY_CELLS`]), and saves them in the data folder [default:
    /// [`DEFAULT_BUILD_CELLS`]; 0 builds none].
    pub fn build_missing_up_to(mut self, cells: usize) -> DatabaseBuilder {
        self.build_cells = cells.min(MAX_IN_MEMORY_CELLS);
        self
    }

    /// Whether a file's body is checked in full against its checksum the
    /// first time it is opened since it last changed [default: `true`]. A stamp beside the
    /// file ([`store::stamp`]) records each check, keyed by the file's
    /// identity (device, inode, size, modification and change times), so a
    /// later open, in this process or another, skips it until the file
    /// changes: no answer comes from bytes not checked since. `false` skips
    /// every check (for a caller that checks, and reports, itself).
    pub fn verify_on_open(mut self, verify: bool) -> DatabaseBuilder {
        self.verify = verify;
        self
    }

    /// The memory each search may use for the boards it remembers (see
    /// [`Solver::with_memory`]) [default:
    /// [`default_search_memory`](crate::solver::default_search_memory)].
    pub fn search_memory(mut self, bytes: u64) -> DatabaseBuilder {
        self.search_memory = bytes;
        self
    }

    /// Calls `f` with each thing the database does (see [`Event`]), from
    /// whichever thread does it. Events of opening and building are
    /// reported while the database holds the lock of its cache (so that two
    /// threads never build one table twice): `f` must not call back into
    /// the same database.
    pub fn on_event(mut self, f: impl Fn(&Event) + Send + Sync + 'static) -> DatabaseBuilder {
        self.on_event = Some(Box::new(f));
        self
    }

    /// Opens the named files (checked now, so a bad one fails here) and
    /// makes the database. The data folder need not exist yet: it is
    /// created when a built table is first saved.
    pub fn open(self) -> Result<Database, DatabaseError> {
        let dir = match (self.dir, self.default_dir) {
            (Some(dir), _) => Some(dir),
            (None, true) => store::default_data_dir(),
            (None, false) => None,
        };
        let inner = Inner {
            dir,
            table_file: None,
            patterns_file: None,
            build_cells: self.build_cells,
            verify: self.verify,
            search_memory: self.search_memory,
            tables: Mutex::default(),
            patterns: Mutex::default(),
            rare: Mutex::default(),
            told: Mutex::default(),
            on_event: self.on_event,
        };
        let mut inner = inner;
        inner.table_file = match (self.table_file, self.table) {
            (Some(path), _) => Some((Arc::new(inner.open_table(&path)?), Source::File(path))),
            (None, Some(t)) => Some((Arc::new(own_table(t)), Source::Memory)),
            (None, None) => None,
        };
        inner.patterns_file = match (self.patterns_file, self.patterns) {
            (Some(path), _) => Some((Arc::new(inner.open_patterns(&path)?), Source::File(path))),
            (None, Some(p)) => Some((Arc::new(own_patterns(p)), Source::Memory)),
            (None, None) => None,
        };
        Ok(Database {
            inner: Arc::new(inner),
        })
    }
}

fn own_table(table: Table<Vec<u8>>) -> Table<Bytes> {
    Table::new(Bytes::Owned(table.into_inner())).expect("a table re-opens")
}

fn own_patterns(db: PatternDb<Vec<u8>>) -> PatternDb<Bytes> {
    PatternDb::new(Bytes::Owned(db.into_inner())).expect("databases re-open")
}

impl Database {
    /// A builder over the default data folder ([`store::default_data_dir`]).
    ///
    /// ```
    /// let db = slidedb::Database::builder().build_missing_up_to(0).open().unwrap();
    /// # let _ = db;
    /// ```
    pub fn builder() -> DatabaseBuilder {
        DatabaseBuilder {
            dir: None,
            default_dir: true,
            table_file: None,
            patterns_file: None,
            table: None,
            patterns: None,
            build_cells: DEFAULT_BUILD_CELLS,
            verify: true,
            search_memory: crate::solver::default_search_memory(),
            on_event: None,
        }
    }

    /// A builder with no data folder: tables are built in memory and never
    /// saved; files and in-memory tables can still be named.
    ///
    /// ```
    /// use slidedb::{Board, Database, Shape};
    /// let db = Database::in_memory().open().unwrap();
    /// let found = db.solve(&"1 2 3 4 5 6 7 0 8".parse().unwrap(), &Board::solved(Shape::EIGHT));
    /// assert_eq!(found.unwrap().distance(), Some(1));
    /// ```
    pub fn in_memory() -> DatabaseBuilder {
        DatabaseBuilder {
            default_dir: false,
            ..Database::builder()
        }
    }

    /// The database over `dir`, with the default settings.
    ///
    /// ```
    /// let dir = tempfile::tempdir().unwrap();
    /// let db = slidedb::Database::open(dir.path()).unwrap();
    /// assert_eq!(db.data_dir(), Some(dir.path()));
    /// ```
    pub fn open(dir: impl Into<PathBuf>) -> Result<Database, DatabaseError> {
        Database::builder().data_dir(dir).open()
    }

    /// The memory each search may use (see
    /// [`DatabaseBuilder::search_memory`]).
    ///
    /// ```
    /// let db = slidedb::Database::in_memory().search_memory(1 << 30).open().unwrap();
    /// assert_eq!(db.search_memory(), 1 << 30);
    /// ```
    pub fn search_memory(&self) -> u64 {
        self.inner.search_memory
    }

    /// The data folder, if it has one.
    ///
    /// ```
    /// assert_eq!(slidedb::Database::in_memory().open().unwrap().data_dir(), None);
    /// ```
    pub fn data_dir(&self) -> Option<&Path> {
        self.inner.dir.as_deref()
    }

    /// The table named to the builder, if any.
    ///
    /// ```
    /// use slidedb::{Board, Database, Shape, generate};
    /// let table = generate(&Board::solved(Shape::new(2, 3).unwrap()), |_| {}).unwrap();
    /// let db = Database::in_memory().table(table).open().unwrap();
    /// assert_eq!(db.named_table().unwrap().states(), 360);
    /// ```
    pub fn named_table(&self) -> Option<&Table<Bytes>> {
        self.inner.table_file.as_ref().map(|(t, _)| &**t)
    }

    /// The pattern databases named to the builder, if any.
    ///
    /// ```
    /// assert!(slidedb::Database::in_memory().open().unwrap().named_patterns().is_none());
    /// ```
    pub fn named_patterns(&self) -> Option<&PatternDb<Bytes>> {
        self.inner.patterns_file.as_ref().map(|(p, _)| &**p)
    }

    /// The goal boards of `shape` are answered toward when none is asked
    /// for: the goal of the named table (or databases) when it is of that
    /// shape, else the tiles in order with the blank last.
    ///
    /// ```
    /// use slidedb::{Board, Database, Shape, generate};
    /// let goal: Board = "0 1 2 3 4 5 6 7 8".parse().unwrap();
    /// let db = Database::in_memory().table(generate(&goal, |_| {}).unwrap()).open().unwrap();
    /// assert_eq!(db.default_goal(Shape::EIGHT), goal);
    /// assert_eq!(db.default_goal(Shape::new(2, 3).unwrap()).to_string(), "1 2 3 4 5 0");
    /// ```
    pub fn default_goal(&self, shape: Shape) -> Board {
        let named = [
            self.named_table().map(|t| *t.goal()),
            self.named_patterns().map(|p| *p.goal()),
        ];
        named
            .into_iter()
            .flatten()
            .find(|g| g.shape() == shape)
            .unwrap_or_else(|| Board::solved(shape))
    }

    /// What answers boards toward `goal` by `method`, opening, building or
    /// finding what it needs. An error means the table or databases it
    /// needs cannot be had; a board is only checked when it is solved.
    ///
    /// ```
    /// use slidedb::{Board, Database, Method, Shape};
    /// let db = Database::in_memory().open().unwrap();
    /// let engine = db.engine(&Board::solved(Shape::new(2, 3).unwrap()), Method::Exact).unwrap();
    /// assert!(engine.is_lookup());
    /// // Without a data folder, a 3x4 table cannot be found, and is too big to build here.
    /// assert!(db.engine(&Board::solved(Shape::new(3, 4).unwrap()), Method::Exact).is_err());
    /// ```
    pub fn engine(&self, goal: &Board, method: Method) -> Result<Engine, DatabaseError> {
        let class = GoalClass::of(goal);
        let kind = match method {
            Method::Exact => match self.exact(goal)? {
                Exact::Table(table) => EngineKind::Table(table),
                Exact::Patterns(db) => EngineKind::Patterns {
                    db,
                    algorithm: Algorithm::IdaStar,
                    solver: Arc::new(Solver::new(goal).with_memory(self.inner.search_memory)),
                },
                Exact::Nothing { dir } => {
                    // Once per class of goals (a bounded set): a server
                    // asked a thousand times says it once.
                    let mut told = self.inner.told.lock().unwrap_or_else(|e| e.into_inner());
                    if told.insert(*class.canonical()) {
                        self.inner.report(&Event::NoPatterns { goal: *goal, dir });
                    }
                    EngineKind::Search {
                        solver: Arc::new(Solver::new(goal).with_memory(self.inner.search_memory)),
                        algorithm: Algorithm::IdaStar,
                        heuristic: Heuristic::Manhattan,
                    }
                }
            },
            Method::Search(algorithm, heuristic) => EngineKind::Search {
                solver: Arc::new(Solver::new(goal).with_memory(self.inner.search_memory)),
                algorithm,
                heuristic,
            },
            Method::PatternSearch(algorithm) => {
                if !matches!(algorithm, Algorithm::AStar | Algorithm::IdaStar) {
                    return Err(DatabaseError::Method { algorithm });
                }
                EngineKind::Patterns {
                    db: self.require_patterns(goal)?,
                    algorithm,
                    solver: Arc::new(Solver::new(goal).with_memory(self.inner.search_memory)),
                }
            }
        };
        Ok(Engine { class, kind })
    }

    /// What [`Method::Exact`] answers toward `goal` from — the one rule:
    /// the pattern databases named to the builder for boards of their
    /// size; else, up to [`MAX_TABLE_CELLS`] cells, the class's full table
    /// (found, or built when small), or its pattern databases when the
    /// table is missing and too big to build; beyond, the class's largest
    /// pattern databases, or nothing. Reports no [`Event::NoPatterns`]
    /// (that is for an engine that then searches without them).
    ///
    /// ```
    /// use slidedb::{Board, Database, Exact, Shape};
    /// let db = Database::in_memory().open().unwrap();
    /// assert!(matches!(db.exact(&Board::solved(Shape::EIGHT)), Ok(Exact::Table(_))));
    /// let fifteen = Board::solved(Shape::new(4, 4).unwrap());
    /// assert!(matches!(db.exact(&fifteen), Ok(Exact::Nothing { .. })));
    /// ```
    pub fn exact(&self, goal: &Board) -> Result<Exact, DatabaseError> {
        let shape = goal.shape();
        let named = self.named_patterns().is_some_and(|p| p.shape() == shape);
        if shape.cells() <= MAX_TABLE_CELLS && !named {
            return match self.table(goal) {
                Ok(table) => Ok(Exact::Table(table)),
                Err(missing @ DatabaseError::MissingTable { .. }) => match self.patterns(goal)? {
                    Some(db) => Ok(Exact::Patterns(db)),
                    None => Err(missing),
                },
                Err(e) => Err(e),
            };
        }
        Ok(match self.patterns(goal)? {
            Some(db) => Exact::Patterns(db),
            None => Exact::Nothing {
                dir: self.inner.dir.clone(),
            },
        })
    }

    /// The exact answer for `board` toward `goal` ([`Method::Exact`]).
    ///
    /// ```
    /// use slidedb::{Board, Database};
    /// let db = Database::in_memory().open().unwrap();
    /// let goal: Board = "0 1 2 3 4 5 6 7 8".parse().unwrap();
    /// let found = db.solve(&"7 2 4 5 0 6 8 3 1".parse().unwrap(), &goal).unwrap();
    /// assert_eq!(found.distance(), Some(26));
    /// ```
    pub fn solve(&self, board: &Board, goal: &Board) -> Result<Solution, DatabaseError> {
        Ok(self.engine(goal, Method::Exact)?.solve(board)?)
    }

    /// The full table that serves `goal`: the named one, one already open,
    /// the class's file in the data folder (checked by what it holds), or,
    /// for small boards, one built now and saved there.
    ///
    /// ```
    /// use slidedb::{Board, Database, Shape};
    /// let db = Database::in_memory().open().unwrap();
    /// let table = db.table(&Board::solved(Shape::EIGHT)).unwrap();
    /// assert_eq!(table.get().layers().len(), 32);
    /// ```
    pub fn table(&self, goal: &Board) -> Result<ForGoal<Table<Bytes>>, DatabaseError> {
        let class = GoalClass::of(goal);
        let shape = goal.shape();
        if let Some((table, source)) = &self.inner.table_file {
            if !table.serves(goal) {
                return Err(DatabaseError::WrongGoal {
                    origin: source.clone(),
                    kind: Kind::FullTable,
                    asked: *goal,
                    holds: *table.goal(),
                });
            }
            return Ok(ForGoal {
                value: table.clone(),
                class,
                source: source.clone(),
            });
        }
        if shape.cells() > MAX_TABLE_CELLS {
            return Err(DatabaseError::TooBig { shape });
        }
        let mut cache = self.inner.tables.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(Some((table, source))) = cache.get(class.canonical()) {
            return Ok(ForGoal {
                value: table.clone(),
                class,
                source: source.clone(),
            });
        }
        let (table, source) = self.inner.find_or_build_table(&class)?;
        let table = Arc::new(table);
        cache.insert(*class.canonical(), Some((table.clone(), source.clone())));
        Ok(ForGoal {
            value: table,
            class,
            source,
        })
    }

    /// The pattern databases that serve `goal`: the named ones, or the
    /// largest file of the goal's class in the data folder (checked by what
    /// it holds); `None` if there are none.
    ///
    /// ```
    /// use slidedb::{Board, Database, Shape};
    /// let dir = tempfile::tempdir().unwrap();
    /// let db = Database::open(dir.path()).unwrap();
    /// assert!(db.patterns(&Board::solved(Shape::new(4, 4).unwrap())).unwrap().is_none());
    /// ```
    pub fn patterns(
        &self,
        goal: &Board,
    ) -> Result<Option<ForGoal<PatternDb<Bytes>>>, DatabaseError> {
        let class = GoalClass::of(goal);
        if let Some((db, source)) = &self.inner.patterns_file {
            if !db.serves(goal) {
                return Err(DatabaseError::WrongGoal {
                    origin: source.clone(),
                    kind: Kind::PatternDatabases,
                    asked: *goal,
                    holds: *db.goal(),
                });
            }
            return Ok(Some(ForGoal {
                value: db.clone(),
                class,
                source: source.clone(),
            }));
        }
        let mut cache = self
            .inner
            .patterns
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let found = match cache.get(class.canonical()) {
            Some(found) => found.clone(),
            None => {
                let found = match self.inner.find_patterns(class.canonical())? {
                    Some(path) => {
                        let db = self.inner.open_patterns(&path)?;
                        if db.indexed_goal() != class.canonical() {
                            return Err(DatabaseError::WrongGoal {
                                origin: Source::File(path),
                                kind: Kind::PatternDatabases,
                                asked: *goal,
                                holds: *db.goal(),
                            });
                        }
                        Some((Arc::new(db), Source::File(path)))
                    }
                    None => None,
                };
                cache.insert(*class.canonical(), found.clone());
                found
            }
        };
        Ok(found.map(|(value, source)| ForGoal {
            value,
            class,
            source,
        }))
    }

    /// The board's distance and every legal move's outcome toward `goal`,
    /// from the exact engine ([`Method::Exact`]): a table lookup, or
    /// searches over pattern databases for larger boards.
    ///
    /// ```
    /// use slidedb::{Board, Database, Shape};
    /// let db = Database::in_memory().open().unwrap();
    /// let probe = db.probe(&"2 3 4 1 5 x 7 6 8".parse().unwrap(), &Board::solved(Shape::EIGHT)).unwrap();
    /// assert_eq!(probe.distance, Some(19));
    /// assert_eq!(probe.optimal_moves().count(), 3); // u, d and l
    /// ```
    pub fn probe(&self, board: &Board, goal: &Board) -> Result<Probe, DatabaseError> {
        Ok(self.engine(goal, Method::Exact)?.probe(board)?)
    }

    /// The full table for a query that needs one: as
    /// [`table`](Database::table), but where there is none the error is
    /// [`DatabaseError::NeedsTable`], naming `query`.
    ///
    /// ```
    /// use slidedb::{Board, Database, DatabaseError, Shape};
    /// let db = Database::in_memory().open().unwrap();
    /// let fifteen = Board::solved(Shape::new(4, 4).unwrap());
    /// let error = db.table_for("layer", &fifteen).unwrap_err();
    /// assert_eq!(error.to_string(), "layer needs a full table of every board's distance");
    /// ```
    pub fn table_for(
        &self,
        query: &'static str,
        goal: &Board,
    ) -> Result<ForGoal<Table<Bytes>>, DatabaseError> {
        self.table(goal).map_err(|e| match e {
            e @ (DatabaseError::TooBig { .. } | DatabaseError::MissingTable { .. }) => {
                DatabaseError::NeedsTable {
                    query,
                    source: Box::new(e),
                }
            }
            e => e,
        })
    }

    /// The exact number of optimal solutions from `board` to `goal`
    /// ([`Table::count`]); `None` if the board cannot reach it. Needs the
    /// full table.
    ///
    /// ```
    /// use slidedb::{Board, Database, DatabaseError, Shape};
    /// let db = Database::in_memory().open().unwrap();
    /// let count = db.count(&"8 6 7 2 5 4 3 0 1".parse().unwrap(), &Board::solved(Shape::EIGHT));
    /// assert_eq!(count.unwrap().unwrap().to_u64(), Some(40));
    /// let fifteen = Board::solved(Shape::new(4, 4).unwrap());
    /// assert!(matches!(db.count(&fifteen, &fifteen), Err(DatabaseError::NeedsTable { .. })));
    /// ```
    pub fn count(&self, board: &Board, goal: &Board) -> Result<Option<PathCount>, DatabaseError> {
        Ok(self.table_for("count", goal)?.count(board)?)
    }

    /// Calls `visit` with every board at exactly `distance` moves from
    /// `goal`, in index order, until it breaks ([`Table::layer`]). Needs the
    /// full table; reports [`Event::Searching`] first.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use slidedb::{Board, Database, Shape};
    /// let db = Database::in_memory().open().unwrap();
    /// let mut found = Vec::new();
    /// db.layer(&Board::solved(Shape::EIGHT), 31, |b| { found.push(b); ControlFlow::Continue(()) }).unwrap();
    /// assert_eq!(found.len(), 2);
    /// ```
    pub fn layer(
        &self,
        goal: &Board,
        distance: u32,
        visit: impl FnMut(Board) -> ControlFlow<()>,
    ) -> Result<(), DatabaseError> {
        let table = self.table_for("layer", goal)?;
        if distance <= table.get().max_distance() {
            self.inner.report(&Event::Searching {
                goal: *goal,
                upto: distance,
            });
        }
        Ok(table.layer(distance, visit)?)
    }

    /// A board drawn uniformly at random among those whose distance to
    /// `goal` lies in `distances` ([`Table::random_toward`]), or `None` if
    /// there is none. Needs the full table. When the range is rare, the
    /// first call lists its layers ([`RareLayers`], reported as
    /// [`Event::Searching`]) and keeps them for the next.
    ///
    /// ```
    /// use slidedb::{Board, Database, Shape, random::SplitMix64};
    /// let db = Database::in_memory().open().unwrap();
    /// let goal = Board::solved(Shape::EIGHT);
    /// let mut rng = SplitMix64::new(9);
    /// let board = db.random(&goal, 31..=31, &mut rng).unwrap().unwrap();
    /// assert!(["8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"].contains(&board.to_string().as_str()));
    /// ```
    pub fn random(
        &self,
        goal: &Board,
        distances: RangeInclusive<u32>,
        rng: &mut SplitMix64,
    ) -> Result<Option<Board>, DatabaseError> {
        let table = self.table_for("a random board at a distance", goal)?;
        let rare = match table.get().rare_layers_needed(distances.clone()) {
            None => None,
            Some(upto) => Some(self.rare_layers(&table, upto)?),
        };
        Ok(table.random(distances, rare.as_deref(), rng)?)
    }

    /// The rare layers of `table`, listed at least up to `upto`: kept from
    /// an earlier call, or listed now (up to the deepest rare layer, so
    /// that one search serves every later call).
    fn rare_layers(
        &self,
        table: &ForGoal<Table<Bytes>>,
        upto: u32,
    ) -> Result<Arc<RareLayers>, DatabaseError> {
        let t = table.get();
        let key = *t.indexed_goal();
        let mut cache = self.inner.rare.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(rare) = cache.get(&key)
            && rare.covers(upto)
        {
            return Ok(rare.clone());
        }
        // Kept beside the table's file, if it has one and the listing takes
        // seconds (small tables list theirs in milliseconds).
        let side = match table.source() {
            _ if t.states() < SAVED_RARE_LAYERS_STATES => None,
            Source::File(path)
            | Source::Built {
                saved: Some(path), ..
            } => Some(store::rare_layers_path(path)),
            _ => None,
        };
        if let Some(path) = &side
            && let Ok(bytes) = std::fs::read(path)
        {
            // A stale or damaged file is listed again, and replaced: said,
            // since that takes as long as building the table.
            let why = match RareLayers::from_bytes(&bytes, t) {
                Ok(rare) if rare.covers(upto) => {
                    let rare = Arc::new(rare);
                    cache.insert(key, rare.clone());
                    return Ok(rare);
                }
                Ok(_) => format!("they go to a distance short of {upto}"),
                Err(e) => e.to_string(),
            };
            self.inner.report(&Event::RareLayersUnusable {
                path: path.clone(),
                why,
            });
        }
        let threshold = RareLayers::threshold(t.states());
        let deepest = (0..=t.max_distance())
            .rev()
            .find(|&d| t.layers()[d as usize] <= threshold)
            .unwrap_or(upto)
            .max(upto);
        self.inner.report(&Event::Searching {
            goal: *table.toward().goal(),
            upto: deepest,
        });
        let start = Instant::now();
        let rare = Arc::new(RareLayers::build(t, deepest)?);
        let saved = side.map(|path| {
            let written = store::write_atomic(&path, &rare.to_bytes(), true);
            (path, written.err().map(|e| e.to_string()))
        });
        self.inner.report(&Event::ListedRareLayers {
            goal: *table.toward().goal(),
            boards: rare.boards(),
            elapsed: start.elapsed(),
            saved,
        });
        cache.insert(key, rare.clone());
        Ok(rare)
    }

    /// The error for pattern databases that cannot be found for `goal`.
    fn missing_patterns(&self, goal: &Board) -> DatabaseError {
        DatabaseError::MissingPatterns {
            goal: *goal,
            dir: self.inner.dir.clone(),
        }
    }

    /// Like [`patterns`](Database::patterns), but none is an error.
    ///
    /// ```
    /// use slidedb::{Board, Database, Shape};
    /// let db = Database::in_memory().open().unwrap();
    /// assert!(db.require_patterns(&Board::solved(Shape::EIGHT)).is_err());
    /// ```
    pub fn require_patterns(
        &self,
        goal: &Board,
    ) -> Result<ForGoal<PatternDb<Bytes>>, DatabaseError> {
        self.patterns(goal)?
            .ok_or_else(|| self.missing_patterns(goal))
    }
}

/// What a file that could not be opened is: unreadable, or unusable.
fn file_error(path: &Path, e: TableError) -> DatabaseError {
    match e {
        TableError::Io { path, source } => DatabaseError::Read { path, source },
        source => DatabaseError::File {
            path: path.to_path_buf(),
            source,
        },
    }
}

impl Inner {
    fn report(&self, event: &Event) {
        if let Some(f) = &self.on_event {
            f(event);
        }
    }

    /// Maps and checks a table file: O(1) checks always, the body on the
    /// first open since it changed.
    fn open_table(&self, path: &Path) -> Result<Table<Bytes>, DatabaseError> {
        if path.is_dir() && path.join(crate::table::MANIFEST_NAME).exists() {
            return self.open_sharded(path);
        }
        let file = |e| file_error(path, e);
        let (map, identity) = store::map_file_identified(path).map_err(file)?;
        let table = Table::new(Bytes::Mapped(map)).map_err(file)?;
        let bytes = table.as_bytes().len() as u64;
        self.check_body(path, &identity, bytes, || table.verify())?;
        self.report(&Event::Opened {
            path: path.to_path_buf(),
            kind: Kind::FullTable,
        });
        Ok(table)
    }

    /// Opens a directory of shards: O(1) checks of each against the
    /// manifest always, and their bodies' checksums (each time: a
    /// directory has no stamp) unless checks are off.
    fn open_sharded(&self, path: &Path) -> Result<Table<Bytes>, DatabaseError> {
        let table = Table::open_sharded(path).map_err(|source| DatabaseError::Shards {
            path: path.to_path_buf(),
            source,
        })?;
        if self.verify
            && let Some(Err(source)) = table.verify_shards()
        {
            // The error names the shard that is damaged.
            return Err(DatabaseError::Shards {
                path: path.to_path_buf(),
                source,
            });
        }
        self.report(&Event::Opened {
            path: path.to_path_buf(),
            kind: Kind::FullTable,
        });
        Ok(table.map_data(Bytes::Owned))
    }

    /// Maps and checks a pattern databases file, as [`Inner::open_table`].
    fn open_patterns(&self, path: &Path) -> Result<PatternDb<Bytes>, DatabaseError> {
        let file = |e| file_error(path, e);
        let (map, identity) = store::map_file_identified(path).map_err(file)?;
        let db = PatternDb::new(Bytes::Mapped(map)).map_err(file)?;
        let bytes = db.as_bytes().len() as u64;
        self.check_body(path, &identity, bytes, || db.verify_checksum())?;
        self.report(&Event::Opened {
            path: path.to_path_buf(),
            kind: Kind::PatternDatabases,
        });
        Ok(db)
    }

    /// Runs `verify` on the file of `identity` at `path` unless checks are
    /// off or its stamp says it was checked since it last changed; stamps
    /// it after a check that passes.
    fn check_body(
        &self,
        path: &Path,
        identity: &store::FileIdentity,
        bytes: u64,
        verify: impl FnOnce() -> Result<(), TableError>,
    ) -> Result<(), DatabaseError> {
        if !self.verify || store::is_stamped(path, identity) {
            return Ok(());
        }
        let start = Instant::now();
        verify().map_err(|e| file_error(path, e))?;
        let elapsed = start.elapsed();
        let stamped = store::stamp(path, identity).is_ok();
        self.report(&Event::Verified {
            path: path.to_path_buf(),
            bytes,
            elapsed,
            stamped,
        });
        Ok(())
    }

    /// The class's table from the data folder, checked to be the class's;
    /// built (and saved) if missing and small.
    fn find_or_build_table(
        &self,
        class: &GoalClass,
    ) -> Result<(Table<Bytes>, Source), DatabaseError> {
        let goal = class.goal();
        let shape = goal.shape();
        let path = self
            .dir
            .as_ref()
            .map(|d| d.join(store::default_file_name(class.canonical())));
        if let Some(path) = &path
            && path.exists()
        {
            let table = self.open_table(path)?;
            if table.indexed_goal() != class.canonical() {
                return Err(DatabaseError::WrongGoal {
                    origin: Source::File(path.clone()),
                    kind: Kind::FullTable,
                    asked: *goal,
                    holds: *table.goal(),
                });
            }
            return Ok((table, Source::File(path.clone())));
        }
        if shape.cells() > self.build_cells {
            return Err(DatabaseError::MissingTable { goal: *goal, path });
        }
        // The class's file serves every goal of the class: it is built for
        // the class's own goal, whichever goal asked first.
        let start = Instant::now();
        let canonical = class.canonical();
        let table = generate(canonical, |_| {})?;
        self.report(&Event::Built {
            goal: *canonical,
            elapsed: start.elapsed(),
        });
        let saved = path.and_then(|path| self.save(&path, table.as_bytes()).then_some(path));
        Ok((own_table(table), Source::Built { saved }))
    }

    /// Saves a built table, creating the data folder if needed; reports
    /// what happened and returns whether it was saved.
    fn save(&self, path: &Path, bytes: &[u8]) -> bool {
        let dir = path.parent().expect("a file in the data folder");
        match store::create_data_dir(dir) {
            Ok(true) => self.report(&Event::CreatedDataDir {
                path: dir.to_path_buf(),
            }),
            Ok(false) => {}
            Err(e) => {
                self.report(&Event::NotSaved {
                    path: path.to_path_buf(),
                    error: e.to_string(),
                });
                return false;
            }
        }
        match store::write_atomic(path, bytes, false) {
            // Another process saved the same table meanwhile: as good.
            Ok(()) => {
                self.report(&Event::Saved {
                    path: path.to_path_buf(),
                });
                true
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => true,
            Err(e) => {
                self.report(&Event::NotSaved {
                    path: path.to_path_buf(),
                    error: e.to_string(),
                });
                false
            }
        }
    }

    /// The largest pattern databases file whose name is of `indexed`'s
    /// class in the data folder.
    fn find_patterns(&self, indexed: &Board) -> Result<Option<PathBuf>, DatabaseError> {
        let Some(dir) = &self.dir else {
            return Ok(None);
        };
        let prefix = store::pattern_file_prefix(indexed);
        let suffix = format!(".{}", store::EXTENSION);
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(DatabaseError::DataDir {
                    path: dir.clone(),
                    source,
                });
            }
        };
        let mut best: Option<(u64, PathBuf)> = None;
        for entry in entries.flatten() {
            let file = entry.file_name();
            let Some(file) = file.to_str() else { continue };
            if file.starts_with(&prefix) && file.ends_with(&suffix) {
                let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
                if best.as_ref().is_none_or(|(s, _)| size > *s) {
                    best = Some((size, entry.path()));
                }
            }
        }
        Ok(best.map(|(_, path)| path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync + Clone>() {}

    #[test]
    fn database_and_engines_are_shared_across_threads() {
        assert_send_sync::<Database>();
        assert_send_sync::<Engine>();
        assert_send_sync::<ForGoal<Table<Bytes>>>();
    }
}
