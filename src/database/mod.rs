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

use crate::symmetry::BuiltFor;
use std::fmt;
use std::ops::{ControlFlow, RangeInclusive};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

mod engine;
mod error;
mod event;
mod files;
mod folder;
mod slots;

/// What a file holds, as errors name it.
pub use crate::format::Kind;
/// The bytes of an open table or databases: a memory map, or a copy.
pub use crate::store::Bytes;
/// A sharded table's fault, as [`DatabaseError::Shards`] holds it.
pub use crate::table::ShardError;
use engine::EngineKind;
pub use engine::{Engine, ExactBy, Method, Toward};
pub use error::DatabaseError;
pub use event::{Event, Source};
pub use folder::{AnsweredBy, DataFile, Holds, Size};
use slots::{FolderMark, Looked, Slots, lock};

use crate::board::{Board, Metric, Shape};
use crate::multi_heuristic::ColourPdb;
use crate::output;
use crate::pdb::{PatternDb, Pruning};
use crate::random::SplitMix64;
use crate::solution::Solution;
use crate::solver::{Algorithm, Heuristic, Solver};
use crate::store;
use crate::symmetry::GoalClass;
use crate::table::{MAX_IN_MEMORY_CELLS, MAX_TABLE_CELLS, PathCount, Probe, RareLayers, Table};

/// The most cells for which an exact answer with no pattern databases
/// falls back to IDA* with Manhattan distance (minutes a board on 4×4);
/// past it (a 5×5 board could take days) the answer is
/// [`DatabaseError::MissingPatterns`] unless a search is named.
pub const MAX_FALLBACK_CELLS: usize = 16;
/// The most cells answered from full tables in the multi-tile metric: up
/// to 14 cells (2×7), as in the single-tile metric (those over 12 cells
/// from a file built beforehand). Past them, 4×4 boards toward a goal
/// with the blank in a corner are solved by IDA* ([`ExactBy::MultiSearch`]);
/// other bigger boards in that metric are refused
/// ([`DatabaseError::Unanswered`]).
pub const MAX_MULTI_CELLS: usize = MAX_TABLE_CELLS;
/// Tables of at least this many boards (3×4, 2×6 and up) keep their rare
/// layers in a file beside them, once listed.
pub(crate) const SAVED_RARE_LAYERS_STATES: u64 = 1 << 24;

/// Boards up to this many cells get their table built on first use, by
/// default (every table of up to 9 cells builds in milliseconds).
pub const DEFAULT_BUILD_CELLS: usize = 9;

/// The other sets of pattern databases beside a class's first, largest
/// first.
pub(crate) type Companions = Arc<[Arc<PatternDb<Bytes>>]>;

/// Who hears what the database does.
type Listener = Box<dyn Fn(&Event) + Send + Sync>;

struct Inner {
    dir: Option<PathBuf>,
    table_file: Option<(Arc<Table<Bytes>>, Source)>,
    patterns_file: Option<(Arc<PatternDb<Bytes>>, Source)>,
    /// Beside each class's pattern databases (by canonical goal), the
    /// other sets found for it, largest first: IDA* takes the maximum.
    companions: std::sync::Mutex<std::collections::HashMap<Board, Companions>>,
    build_cells: usize,
    verify: bool,
    /// Whether pattern databases are copied into huge pages when opened.
    huge_pages: bool,
    search_memory: u64,
    /// The tables open, a slot a class.
    tables: Slots<Option<(Arc<Table<Bytes>>, Source)>>,
    /// The pattern databases open, or looked for and missing, a slot a
    /// class.
    patterns: Slots<Looked<PatternDb<Bytes>>>,
    /// The rare layers listed so far, a slot a class.
    rare: Slots<Option<Arc<RareLayers>>>,
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
    /// The metric it answers in ([`Database::with_metric`]).
    metric: Metric,
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
    patterns_files: Vec<PathBuf>,
    table: Option<Table<Vec<u8>>>,
    patterns: Option<PatternDb<Vec<u8>>>,
    build_cells: usize,
    verify: bool,
    huge_pages: bool,
    search_memory: u64,
    on_event: Option<Listener>,
}

impl fmt::Debug for DatabaseBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DatabaseBuilder")
            .field("dir", &self.dir)
            .field("table_file", &self.table_file)
            .field("patterns_files", &self.patterns_files)
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
    /// boards that have a full table), and no other databases. Named more
    /// than once, every file named is used, all toward the same class of
    /// goals: IDA* takes the maximum of their estimates, reading the
    /// smallest set first.
    pub fn patterns_file(mut self, path: impl Into<PathBuf>) -> DatabaseBuilder {
        self.patterns_files.push(path.into());
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
    /// file (`.NAME.verified`) records each check, keyed by the file's
    /// identity (device, inode, size, modification and change times), so a
    /// later open, in this process or another, skips it until the file
    /// changes: no answer comes from bytes not checked since. `false` skips
    /// every check (for a caller that checks, and reports, itself).
    pub fn verify_on_open(mut self, verify: bool) -> DatabaseBuilder {
        self.verify = verify;
        self
    }

    /// Whether pattern databases files are copied into memory backed by
    /// huge pages (2 MB on x86-64, where the system gives them) when they
    /// are opened, rather than memory-mapped [default: `false`]. IDA* reads
    /// its entries at random across gigabytes, and with huge pages misses
    /// the processor's address cache far less: 0.91 of the time on four
    /// of Korf and Felner's 24-puzzles with blank-aware 6-6-6-6
    /// (`docs/24-puzzle.md`). The copy
    /// takes the file's size in memory of this process, and a second or
    /// two a gigabyte to open.
    ///
    /// ```
    /// use slidedb::{Board, Database, Shape, pdb};
    /// let dir = tempfile::tempdir().unwrap();
    /// let goal = Board::solved(Shape::new(2, 4).unwrap());
    /// let built = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-3").unwrap(), |_| {}).unwrap();
    /// let path = dir.path().join("p.slidedb");
    /// std::fs::write(&path, built.as_bytes()).unwrap();
    /// let db = Database::builder().patterns_file(&path).patterns_in_huge_pages(true).open().unwrap();
    /// assert_eq!(db.named_patterns().unwrap().as_bytes(), built.as_bytes());
    /// let board = Board::parse("5 1 2 3 0 6 7 4", Some(goal.shape())).unwrap();
    /// assert_eq!(db.solve(&board, &goal).unwrap().distance(), Some(5));
    /// ```
    pub fn patterns_in_huge_pages(mut self, huge_pages: bool) -> DatabaseBuilder {
        self.huge_pages = huge_pages;
        self
    }

    /// The memory each search may use for the boards it remembers (see
    /// [`Solver::with_memory`]) [default:
    /// half the memory available, less under an address-space limit].
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
            companions: Default::default(),
            build_cells: self.build_cells,
            verify: self.verify,
            huge_pages: self.huge_pages,
            search_memory: self.search_memory,
            tables: Slots::default(),
            patterns: Slots::default(),
            rare: Slots::default(),
            told: Mutex::default(),
            on_event: self.on_event,
        };
        let mut inner = inner;
        inner.table_file = match (self.table_file, self.table) {
            (Some(path), _) => Some((Arc::new(inner.open_table(&path)?), Source::File(path))),
            (None, Some(t)) => Some((Arc::new(own_table(t)), Source::Memory)),
            (None, None) => None,
        };
        let mut named = self.patterns_files.into_iter();
        inner.patterns_file = match (named.next(), self.patterns) {
            (Some(path), _) => Some((Arc::new(inner.open_patterns(&path)?), Source::File(path))),
            (None, Some(p)) => Some((Arc::new(own_patterns(p)), Source::Memory)),
            (None, None) => None,
        };
        if let Some((first, _)) = &inner.patterns_file {
            let mut more = Vec::new();
            for path in named {
                let db = inner.open_patterns(&path)?;
                if db.indexed_goal() != first.indexed_goal() {
                    return Err(DatabaseError::WrongGoal {
                        origin: Source::File(path),
                        kind: Kind::PatternDatabases,
                        asked: *first.goal(),
                        holds: *db.goal(),
                    });
                }
                more.push(Arc::new(db));
            }
            let key = *first.indexed_goal();
            inner
                .companions
                .get_mut()
                .unwrap_or_else(|e| e.into_inner())
                .insert(key, more.into());
        }
        Ok(Database {
            inner: Arc::new(inner),
            metric: Metric::Single,
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
    /// The same database answering in `metric`: distances, solutions,
    /// probes, counts, layers and random boards counted in that metric,
    /// from the files built for it (a file of the data folder is kept per
    /// class and metric). Cheap: the clone shares what is open.
    ///
    /// ```
    /// use slidedb::{Board, Database, Metric, Shape};
    /// let db = Database::in_memory().open().unwrap();
    /// let goal = Board::solved(Shape::EIGHT);
    /// let board: Board = "2 3 4 1 5 x 7 6 8".parse().unwrap();
    /// assert_eq!(db.distance(&board, &goal).unwrap(), Some(19));
    /// let multi = db.with_metric(Metric::Multi);
    /// assert_eq!(multi.distance(&board, &goal).unwrap(), Some(14));
    /// let found = multi.solve(&board, &goal).unwrap();
    /// assert_eq!(found.metric, Metric::Multi);
    /// assert_eq!(found.slides().unwrap().len(), 14);
    /// ```
    pub fn with_metric(&self, metric: Metric) -> Database {
        Database {
            inner: self.inner.clone(),
            metric,
        }
    }

    /// The metric it answers in: the single-tile metric unless
    /// [`with_metric`](Database::with_metric) said otherwise.
    ///
    /// ```
    /// use slidedb::{Database, Metric};
    /// let db = Database::in_memory().open().unwrap();
    /// assert_eq!(db.metric(), Metric::Single);
    /// assert_eq!(db.with_metric(Metric::Multi).metric(), Metric::Multi);
    /// ```
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Refuses what the metric does not answer toward `goal`: in the
    /// multi-tile metric, boards of more than [`MAX_MULTI_CELLS`] cells
    /// but the 4×4 toward a goal with its blank in a corner (searched under
    /// the coloured pattern database, [`Solver::multi_patterns_serve`]),
    /// and every method but the exact one and a named classic search.
    fn check_metric(&self, goal: &Board, method: Method) -> Result<(), DatabaseError> {
        // A classic search named by the caller runs in either metric.
        if self.metric == Metric::Single || matches!(method, Method::Search(..)) {
            return Ok(());
        }
        let shape = goal.shape();
        if shape.cells() > MAX_MULTI_CELLS && !Solver::multi_patterns_serve(goal) {
            return Err(DatabaseError::Unanswered {
                metric: self.metric,
                shape,
                why: "full tables in this metric go up to 14 cells (2x7), and past them only 4x4 boards toward a goal with the blank in a corner are searched",
            });
        }
        if method != Method::Exact {
            return Err(DatabaseError::Unanswered {
                metric: self.metric,
                shape,
                why: "the pattern databases count single-tile moves; the exact answer or a classic search answers",
            });
        }
        Ok(())
    }

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
            patterns_files: Vec::new(),
            table: None,
            patterns: None,
            build_cells: DEFAULT_BUILD_CELLS,
            verify: true,
            huge_pages: false,
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
        self.check_metric(goal, method)?;
        let class = GoalClass::of(goal);
        let kind = match method {
            Method::Exact => match self.exact(goal)? {
                ExactBy::Table(table) => EngineKind::Table(table),
                ExactBy::MultiSearch => {
                    // Built here, where a caller expects to wait, and said:
                    // not inside the first search's deadline.
                    if !ColourPdb::four_by_four_is_built() {
                        self.inner.report(&Event::BuildingMultiPatterns);
                        let began = Instant::now();
                        ColourPdb::four_by_four();
                        self.inner.report(&Event::BuiltMultiPatterns {
                            elapsed: began.elapsed(),
                        });
                    }
                    EngineKind::MultiSearch {
                        solver: Arc::new(Solver::new(goal).with_metric(Metric::Multi)),
                    }
                }
                ExactBy::Patterns(db) => EngineKind::Patterns {
                    db,
                    others: self.companions(goal),
                    algorithm: Algorithm::IdaStar,
                    pruning: Pruning::default(),
                    solver: Arc::new(Solver::new(goal).with_memory(self.inner.search_memory)),
                },
                ExactBy::Nothing { dir } if goal.shape().cells() > MAX_FALLBACK_CELLS => {
                    return Err(DatabaseError::MissingPatterns { goal: *goal, dir });
                }
                ExactBy::Nothing { dir } => {
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
                solver: Arc::new(
                    Solver::new(goal)
                        .with_memory(self.inner.search_memory)
                        .with_metric(self.metric),
                ),
                algorithm,
                heuristic,
            },
            Method::PatternSearch(algorithm) => {
                if !matches!(algorithm, Algorithm::AStar | Algorithm::IdaStar) {
                    return Err(DatabaseError::Method { algorithm });
                }
                EngineKind::Patterns {
                    db: self.require_patterns(goal)?,
                    others: self.companions(goal),
                    algorithm,
                    pruning: Pruning::default(),
                    solver: Arc::new(Solver::new(goal).with_memory(self.inner.search_memory)),
                }
            }
        };
        Ok(Engine { class, kind })
    }

    /// The exact engine toward `goal` ([`Method::Exact`]) if it can be had
    /// at once: a full table that is open already (named to the builder,
    /// or opened by an earlier call for the goal's class). `None` when
    /// getting the engine may block, to open, check, build or find a file,
    /// or while another thread does that for the goal's class: then call
    /// [`engine`](Database::engine) where blocking is fine. For an async
    /// front end: a lookup in an open table needs no blocking thread.
    ///
    /// ```
    /// use slidedb::{Board, Database, Method, Shape};
    /// let db = Database::in_memory().open().unwrap();
    /// let goal = Board::solved(Shape::EIGHT);
    /// assert!(db.ready_engine(&goal).is_none()); // not built yet
    /// db.engine(&goal, Method::Exact).unwrap();
    /// assert!(db.ready_engine(&goal).unwrap().is_lookup());
    /// ```
    pub fn ready_engine(&self, goal: &Board) -> Option<Engine> {
        let shape = goal.shape();
        let named = self.named_patterns().is_some_and(|p| p.shape() == shape);
        if shape.cells() > MAX_TABLE_CELLS
            || named
            || self.check_metric(goal, Method::Exact).is_err()
        {
            return None;
        }
        let class = GoalClass::of(goal);
        let (value, source) = match &self.inner.table_file {
            Some((table, source)) if table.serves(goal) && table.metric() == self.metric => {
                (table.clone(), source.clone())
            }
            // The error is for `engine` to say.
            Some(_) => return None,
            None => {
                let slot = self.inner.tables.slot(class.canonical(), self.metric);
                let held = slot.try_lock().ok()?;
                let (table, source) = held.as_ref()?;
                (table.clone(), source.clone())
            }
        };
        Some(Engine {
            class,
            kind: EngineKind::Table(Toward {
                value,
                class,
                source,
            }),
        })
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
    /// use slidedb::{Board, Database, ExactBy, Shape};
    /// let db = Database::in_memory().open().unwrap();
    /// assert!(matches!(db.exact(&Board::solved(Shape::EIGHT)), Ok(ExactBy::Table(_))));
    /// let fifteen = Board::solved(Shape::new(4, 4).unwrap());
    /// assert!(matches!(db.exact(&fifteen), Ok(ExactBy::Nothing { .. })));
    /// ```
    pub fn exact(&self, goal: &Board) -> Result<ExactBy, DatabaseError> {
        let shape = goal.shape();
        self.check_metric(goal, Method::Exact)?;
        if self.metric == Metric::Multi {
            if shape.cells() > MAX_MULTI_CELLS {
                return Ok(ExactBy::MultiSearch);
            }
            return Ok(ExactBy::Table(self.table(goal)?));
        }
        let named = self.named_patterns().is_some_and(|p| p.shape() == shape);
        if shape.cells() <= MAX_TABLE_CELLS && !named {
            return match self.table(goal) {
                Ok(table) => Ok(ExactBy::Table(table)),
                Err(missing @ DatabaseError::MissingTable { .. }) => match self.patterns(goal)? {
                    Some(db) => Ok(ExactBy::Patterns(db)),
                    None => Err(missing),
                },
                Err(e) => Err(e),
            };
        }
        Ok(match self.patterns(goal)? {
            Some(db) => ExactBy::Patterns(db),
            None => ExactBy::Nothing {
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

    /// The exact distance from `board` to `goal` in moves
    /// ([`Method::Exact`]), or `None` if the board cannot reach it.
    ///
    /// ```
    /// use slidedb::{Board, Database};
    /// let db = Database::in_memory().open().unwrap();
    /// let goal: Board = "0 1 2 3 4 5 6 7 8".parse().unwrap();
    /// assert_eq!(db.distance(&"7 2 4 5 0 6 8 3 1".parse().unwrap(), &goal).unwrap(), Some(26));
    /// ```
    pub fn distance(&self, board: &Board, goal: &Board) -> Result<Option<u32>, DatabaseError> {
        Ok(self.engine(goal, Method::Exact)?.distance(board)?)
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
    pub fn table(&self, goal: &Board) -> Result<Toward<Table<Bytes>>, DatabaseError> {
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
            if table.metric() != self.metric {
                return Err(DatabaseError::OtherMetric {
                    origin: source.clone(),
                    kind: Kind::FullTable,
                    asked: self.metric,
                    holds: table.metric(),
                });
            }
            return Ok(Toward {
                value: table.clone(),
                class,
                source: source.clone(),
            });
        }
        if shape.cells() > MAX_TABLE_CELLS {
            // In the multi-tile metric, said as the other answers say it.
            self.check_metric(goal, Method::Exact)?;
            return Err(DatabaseError::TooBig {
                shape,
                metric: self.metric,
            });
        }
        // The class's slot is held while its file is opened or built:
        // other classes go on meanwhile.
        let slot = self.inner.tables.slot(class.canonical(), self.metric);
        let mut held = lock(&slot);
        if let Some((table, source)) = &*held {
            return Ok(Toward {
                value: table.clone(),
                class,
                source: source.clone(),
            });
        }
        let (table, source) = self.inner.find_or_build_table(&class, self.metric)?;
        let table = Arc::new(table);
        *held = Some((table.clone(), source.clone()));
        Ok(Toward {
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
    ) -> Result<Option<Toward<PatternDb<Bytes>>>, DatabaseError> {
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
            return Ok(Some(Toward {
                value: db.clone(),
                class,
                source: source.clone(),
            }));
        }
        let slot = self.inner.patterns.slot(class.canonical(), Metric::Single);
        let mut held = lock(&slot);
        let dir = self.inner.dir.as_deref();
        let found = match &*held {
            Looked::Found(db, source) => Some((db.clone(), source.clone())),
            Looked::Missing(mark) if !mark.is_stale(dir) => None,
            // Not looked for, or missing when last looked: look now (a
            // server started before the databases were built finds them).
            Looked::Not | Looked::Missing(_) => {
                let mark = FolderMark::now(dir);
                // A file of the class's name that holds another class's
                // databases is refused, not used.
                let open = |path: &PathBuf| {
                    let db = self.inner.open_patterns(path)?;
                    if db.indexed_goal() != class.canonical() {
                        return Err(DatabaseError::WrongGoal {
                            origin: Source::File(path.clone()),
                            kind: Kind::PatternDatabases,
                            asked: *goal,
                            holds: *db.goal(),
                        });
                    }
                    Ok(db)
                };
                let mut paths = self.inner.find_all_patterns(class.canonical())?.into_iter();
                match paths.next() {
                    Some(path) => {
                        let db = open(&path)?;
                        // The other sets of the class, searched beside it.
                        let more = paths
                            .map(|other| open(&other).map(Arc::new))
                            .collect::<Result<Vec<_>, _>>()?;
                        lock(&self.inner.companions).insert(*class.canonical(), more.into());
                        let db = Arc::new(db);
                        *held = Looked::Found(db.clone(), Source::File(path.clone()));
                        Some((db, Source::File(path)))
                    }
                    None => {
                        *held = Looked::Missing(mark);
                        None
                    }
                }
            }
        };
        Ok(found.map(|(value, source)| Toward {
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
    ) -> Result<Toward<Table<Bytes>>, DatabaseError> {
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
        let start = Instant::now();
        let on_layer = |depth, boards| {
            self.inner.report(&Event::SearchedLayer {
                goal: *goal,
                depth,
                upto: distance,
                boards,
                elapsed: start.elapsed(),
            })
        };
        Ok(table.layer_reporting(distance, visit, on_layer)?)
    }

    /// A board drawn uniformly at random among those whose distance to
    /// `goal` lies in `distances` ([`Toward::random`]), or `None` if
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
        table: &Toward<Table<Bytes>>,
        upto: u32,
    ) -> Result<Arc<RareLayers>, DatabaseError> {
        let t = table.get();
        let key = *t.indexed_goal();
        let slot = self.inner.rare.slot(&key, t.metric());
        let mut held = lock(&slot);
        if let Some(rare) = &*held
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
                    *held = Some(rare.clone());
                    return Ok(rare);
                }
                Ok(_) => format!("they go to a distance short of {upto}"),
                // What is wrong, not what to do: slidedb lists them again.
                Err(e) => e.fault().to_string(),
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
        let on_layer = |depth, boards| {
            self.inner.report(&Event::SearchedLayer {
                goal: *table.toward().goal(),
                depth,
                upto: deepest,
                boards,
                elapsed: start.elapsed(),
            })
        };
        let rare = Arc::new(RareLayers::build_reporting(t, deepest, on_layer)?);
        let saved = side.map(|path| {
            let written = output::write_atomic(&path, &rare.to_bytes(), true);
            (path, written.err().map(|e| e.to_string()))
        });
        self.inner.report(&Event::ListedRareLayers {
            goal: *table.toward().goal(),
            boards: rare.boards(),
            elapsed: start.elapsed(),
            saved,
        });
        *held = Some(rare.clone());
        Ok(rare)
    }

    /// The sets of pattern databases found beside the class's first (see
    /// [`patterns`](Database::patterns)) for the class of `goal`, largest
    /// first: exact searches take the maximum of all (empty until the
    /// first is looked for, and when there is one set).
    ///
    /// ```
    /// use slidedb::{Board, Database, Shape, pdb};
    /// let dir = tempfile::tempdir().unwrap();
    /// let goal = Board::solved(Shape::new(2, 4).unwrap());
    /// for spec in ["4-3", "1,5/2,6/3,7/4"] {
    ///     let partition = pdb::Partition::parse(&goal, spec).unwrap();
    ///     let name = slidedb::pattern_file_name(&goal, &partition.label(&goal));
    ///     let built = pdb::build(&goal, &partition, |_| {}).unwrap();
    ///     std::fs::write(dir.path().join(name), built.as_bytes()).unwrap();
    /// }
    /// let db = Database::open(dir.path()).unwrap();
    /// let first = db.patterns(&goal).unwrap().unwrap();
    /// assert_eq!(first.get().partition().sizes(), "4-3");
    /// assert_eq!(db.other_patterns(&goal).len(), 1);
    /// ```
    pub fn other_patterns(&self, goal: &Board) -> Vec<Arc<PatternDb<Bytes>>> {
        self.companions(goal).to_vec()
    }

    /// [`other_patterns`](Database::other_patterns), shared.
    pub(crate) fn companions(&self, goal: &Board) -> Companions {
        let canonical = goal.canonical_goal();
        lock(&self.inner.companions)
            .get(&canonical)
            .cloned()
            .unwrap_or_else(|| Arc::from(Vec::new()))
    }

    /// The error for pattern databases that cannot be found for `goal`.
    fn missing_patterns(&self, goal: &Board) -> DatabaseError {
        DatabaseError::MissingPatterns {
            goal: *goal,
            dir: self.inner.dir.clone(),
        }
    }

    /// The pattern databases of `goal`'s class that `spec` names (such as
    /// `5-5-5`, or `6-6-6-6-blank` for blank-aware entries, as
    /// [`PatternSpec::parse`](crate::pdb::PatternSpec::parse) reads them
    /// toward the class's canonical goal): the data folder's file of that
    /// name, checked in full, or else built now (seconds for groups of up
    /// to 5 tiles, minutes past 6) and saved there when it can be
    /// (reported as events).
    ///
    /// ```
    /// use slidedb::{Board, Database, Shape};
    /// let dir = tempfile::tempdir().unwrap();
    /// let db = Database::open(dir.path()).unwrap();
    /// let goal = Board::solved(Shape::new(2, 4).unwrap());
    /// let built = db.patterns_of_sizes(&goal, "4-3").unwrap();
    /// assert_eq!(built.get().partition().sizes(), "4-3");
    /// assert_eq!(db.files().unwrap().len(), 1); // saved, and found the next time
    /// let found = db.patterns_of_sizes(&goal, "4-3").unwrap();
    /// assert_eq!(found.get().as_bytes(), built.get().as_bytes());
    /// ```
    pub fn patterns_of_sizes(
        &self,
        goal: &Board,
        spec: &str,
    ) -> Result<Toward<PatternDb<Bytes>>, DatabaseError> {
        let class = GoalClass::of(goal);
        let canonical = class.canonical();
        let spec = crate::pdb::PatternSpec::parse(canonical, spec)?;
        let path = self
            .inner
            .dir
            .as_ref()
            .map(|d| d.join(store::pattern_file_name(canonical, &spec.label(canonical))));
        if let Some(path) = path.as_ref().filter(|p| p.exists()) {
            let db = self.inner.open_patterns(path)?;
            db.verify().map_err(|e| files::file_error(path, e))?;
            return Toward::shared(Arc::new(db), goal)
                .map(|t| Toward {
                    source: Source::File(path.clone()),
                    ..t
                })
                .map_err(DatabaseError::Solve);
        }
        let start = Instant::now();
        let built = spec.build(canonical, |_| {})?;
        self.inner.report(&Event::Built {
            goal: *canonical,
            elapsed: start.elapsed(),
        });
        let saved = path.filter(|p| self.inner.save(p, built.as_bytes()));
        Ok(Toward {
            value: Arc::new(own_patterns(built)),
            class,
            source: Source::Built { saved },
        })
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
    ) -> Result<Toward<PatternDb<Bytes>>, DatabaseError> {
        self.patterns(goal)?
            .ok_or_else(|| self.missing_patterns(goal))
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
        assert_send_sync::<Toward<Table<Bytes>>>();
    }
}
