//! What answers toward a goal: the method asked for, a table or databases
//! toward a goal ([`Toward`]), the exact choice ([`ExactBy`]) and the
//! [`Engine`] that answers boards.

use crate::symmetry::BuiltFor;
use std::ops::{ControlFlow, RangeInclusive};
use std::path::PathBuf;
use std::sync::Arc;

use super::Source;
use crate::board::{Board, Metric, Move};
use crate::pdb::{PatternDb, Pruning};
use crate::random::SplitMix64;
use crate::search::Stats;
use crate::solution::{Solution, SolveError};
use crate::solver::{Algorithm, Heuristic, Solver};
use crate::store::Bytes;
use crate::symmetry::GoalClass;
use crate::table::{MoveOutcome, PathCount, Probe, RareLayers, Table};

/// How to answer a board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Method {
    /// The exact answer: the goal class's full table (boards of up to
    /// [`MAX_TABLE_CELLS`](crate::MAX_TABLE_CELLS) cells), or IDA* over its largest pattern
    /// databases (bigger boards, or boards whose databases were named), or
    /// on boards of up to [`MAX_FALLBACK_CELLS`](super::MAX_FALLBACK_CELLS)
    /// cells IDA* with Manhattan distance when there are none (optimal, but
    /// can take minutes a board; reported as
    /// [`Event::NoPatterns`](super::Event::NoPatterns)); on larger boards
    /// with none, [`DatabaseError::MissingPatterns`](super::DatabaseError::MissingPatterns).
    #[default]
    Exact,
    /// A classic search with a plain estimate.
    Search(Algorithm, Heuristic),
    /// A* or IDA* under the goal class's pattern databases.
    PatternSearch(Algorithm),
}

/// A table or pattern databases, and the goal asked for that it serves:
/// cheap to clone, shared between threads. Its queries answer toward the
/// goal asked for; [`get`](Toward::get) is the file itself, which answers
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
pub struct Toward<T> {
    pub(super) value: Arc<T>,
    pub(super) class: GoalClass,
    pub(super) source: Source,
}

impl<T> Clone for Toward<T> {
    fn clone(&self) -> Toward<T> {
        Toward {
            value: self.value.clone(),
            class: self.class,
            source: self.source.clone(),
        }
    }
}

impl<T: BuiltFor> Toward<T> {
    /// A table or pattern databases toward `goal`, another goal of the
    /// class they were built for: the one road to answers toward such a
    /// goal. A goal of another class or shape is
    /// [`SolveError::OtherClass`]. Its source is [`Source::Memory`].
    ///
    /// ```
    /// use slidedb::{Board, Shape, Toward, generate, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let korf: Board = "0 1 2 3 4 5 6 7 8".parse().unwrap();
    /// let board: Board = "7 2 4 5 0 6 8 3 1".parse().unwrap();
    ///
    /// let table = Toward::new(generate(&goal, |_| {}).unwrap(), &korf).unwrap();
    /// assert_eq!(table.distance(&board), Ok(Some(26)));
    ///
    /// let db = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
    /// let db = Toward::new(db, &korf).unwrap();
    /// assert_eq!(db.estimate(&korf), Ok(0));
    /// assert_eq!(db.solve(&board).unwrap().distance(), Some(26));
    /// ```
    pub fn new(value: T, goal: &Board) -> Result<Self, SolveError> {
        Toward::shared(Arc::new(value), goal)
    }

    /// Like [`new`](Toward::new), for a table or databases already shared:
    /// not copied.
    pub(crate) fn shared(value: Arc<T>, goal: &Board) -> Result<Self, SolveError> {
        if !value.serves(goal) {
            return Err(SolveError::OtherClass {
                goal: goal.to_string(),
                served: value.goal().to_string(),
            });
        }
        Ok(Toward {
            value,
            class: GoalClass::of(goal),
            source: Source::Memory,
        })
    }
}

impl<T> Toward<T> {
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

impl<D: AsRef<[u8]>> Toward<Table<D>> {
    /// [`Table::solve`] toward the goal asked for.
    pub fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
        let mut moves = Vec::new();
        let solvable = self.solve_into(board, &mut moves)?;
        Ok(Solution {
            moves: solvable.then_some(moves),
            metric: self.value.metric(),
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

    /// Like [`layer`](Toward::layer), calling `on_layer(depth, boards)` as
    /// each layer of the search from the goal is done, before the last
    /// one's boards are visited (for a progress display: on 2×7 the search
    /// takes minutes).
    pub(crate) fn layer_reporting(
        &self,
        distance: u32,
        visit: impl FnMut(Board) -> ControlFlow<()>,
        on_layer: impl FnMut(u32, u64),
    ) -> Result<(), SolveError> {
        self.value
            .layer_toward_reporting(&self.class, distance, visit, on_layer)
    }

    /// [`Table::random`] toward the goal asked for.
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

impl<D: AsRef<[u8]>> Toward<PatternDb<D>> {
    /// [`PatternDb::solve`] toward the goal asked for.
    pub fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
        self.value.solve_toward(&self.class, board)
    }

    /// [`PatternDb::estimate`] toward the goal asked for.
    pub fn estimate(&self, board: &Board) -> Result<u32, SolveError> {
        self.value.estimate_toward(&self.class, board)
    }

    /// [`PatternDb::solve`] toward the goal asked for, showing the work so
    /// far to `progress` every [`PROGRESS_EVERY`](crate::search::PROGRESS_EVERY)
    /// nodes expanded, and stopping with [`SolveError::Stopped`] when it
    /// breaks: to give a search a deadline.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use slidedb::{Board, Shape, SolveError, Toward, pdb};
    /// let goal = Board::solved(Shape::new(2, 4).unwrap());
    /// let db = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-3").unwrap(), |_| {}).unwrap();
    /// let db = Toward::new(db, &goal).unwrap();
    /// let board = Board::parse("0 7 6 5 4 3 2 1", Some(goal.shape())).unwrap();
    /// let mut calls = 0;
    /// let stopped = db.solve_with_progress(&board, |_| {
    ///     calls += 1;
    ///     ControlFlow::Break(())
    /// });
    /// // Stopped at the first report, if the search lasted that long.
    /// assert!(calls == 0 || matches!(stopped, Err(SolveError::Stopped { .. })));
    /// ```
    pub fn solve_with_progress(
        &self,
        board: &Board,
        progress: impl FnMut(&Stats) -> ControlFlow<()> + Send,
    ) -> Result<Solution, SolveError> {
        self.value
            .solve_toward_with_progress(&self.class, board, progress)
    }
}

/// What gives exact answers toward a goal, as [`Method::Exact`] chooses it
/// ([`Database::exact`](super::Database::exact)).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum ExactBy {
    /// The class's full table.
    Table(Toward<Table<Bytes>>),
    /// The class's pattern databases, searched by IDA*.
    Patterns(Toward<PatternDb<Bytes>>),
    /// In the multi-tile metric, a 4×4 goal with its blank in a corner:
    /// IDA* under the 4×4 coloured pattern database
    /// ([`Solver::solve_multi`]), which the first such search in a process
    /// builds in memory (38 MB, about half a minute on two cores).
    MultiSearch,
    /// Nothing: a board too big for a full table, with no pattern
    /// databases. [`Method::Exact`] then searches by IDA* with Manhattan
    /// distance.
    Nothing {
        /// Where the databases were looked for.
        dir: Option<PathBuf>,
    },
}

/// What answers boards toward one goal, resolved by
/// [`Database::engine`](super::Database::engine): cheap to clone, shared between threads.
#[derive(Clone, Debug)]
pub struct Engine {
    pub(super) class: GoalClass,
    pub(super) kind: EngineKind,
}

#[derive(Clone, Debug)]
pub(super) enum EngineKind {
    Table(Toward<Table<Bytes>>),
    Patterns {
        db: Toward<PatternDb<Bytes>>,
        /// The class's other sets: IDA* takes the maximum with them.
        others: super::Companions,
        algorithm: Algorithm,
        /// The move sequences IDA* leaves out.
        pruning: Pruning,
        solver: Arc<Solver>,
    },
    Search {
        solver: Arc<Solver>,
        algorithm: Algorithm,
        heuristic: Heuristic,
    },
    /// [`Solver::solve_multi`] on a goal it has the pattern database for.
    MultiSearch {
        solver: Arc<Solver>,
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

    /// The metric its answers count moves in.
    ///
    /// ```
    /// use slidedb::{Board, Database, Method, Metric, Shape};
    /// let db = Database::in_memory().open().unwrap();
    /// let goal = Board::solved(Shape::new(2, 3).unwrap());
    /// assert_eq!(db.engine(&goal, Method::Exact).unwrap().metric(), Metric::Single);
    /// ```
    pub fn metric(&self) -> Metric {
        match &self.kind {
            EngineKind::Table(table) => table.get().metric(),
            EngineKind::Patterns { db, .. } => db.get().metric(),
            EngineKind::Search { solver, .. } => solver.metric(),
            EngineKind::MultiSearch { .. } => Metric::Multi,
        }
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
    pub fn table(&self) -> Option<&Toward<Table<Bytes>>> {
        match &self.kind {
            EngineKind::Table(t) => Some(t),
            _ => None,
        }
    }

    /// The engine with IDA* under pattern databases leaving out the move
    /// sequences `pruning` says ([`Pruning::Duplicates`] unless set):
    /// [`Pruning::Parent`] searches the tree that published node counts
    /// are of. Other engines are unchanged.
    ///
    /// ```
    /// use slidedb::{Board, Database, Method, Shape, pdb::{self, Pruning}};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let built = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
    /// let db = Database::in_memory().patterns(built).open().unwrap();
    /// let engine = db.engine(&goal, Method::Exact).unwrap();
    /// let board: Board = "8 6 7 2 5 4 3 0 1".parse().unwrap(); // 31 moves, the most
    /// let fewer = engine.solve(&board).unwrap();
    /// let parent = engine.with_pruning(Pruning::Parent).solve(&board).unwrap();
    /// assert_eq!(fewer.distance(), parent.distance());
    /// assert!(fewer.stats.unwrap().generated < parent.stats.unwrap().generated);
    /// ```
    pub fn with_pruning(mut self, pruning: Pruning) -> Engine {
        if let EngineKind::Patterns { pruning: own, .. } = &mut self.kind {
            *own = pruning;
        }
        self
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
    pub fn patterns(&self) -> Option<&Toward<PatternDb<Bytes>>> {
        match &self.kind {
            EngineKind::Patterns { db, .. } => Some(db),
            _ => None,
        }
    }

    /// The search it runs, if it is not a lookup: the algorithm, and the
    /// plain estimate (`None` for pattern databases, the multi-tile 4×4's
    /// coloured one included).
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
            EngineKind::MultiSearch { .. } => Some((Algorithm::IdaStar, None)),
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
        progress: impl FnMut(&Stats) -> ControlFlow<()> + Send,
    ) -> Result<Solution, SolveError> {
        match &self.kind {
            EngineKind::Table(_) => {
                let mut moves = Vec::new();
                let solvable = self.solve_into(board, &mut moves)?;
                Ok(Solution {
                    moves: solvable.then_some(moves),
                    metric: self.metric(),
                    stats: None,
                })
            }
            EngineKind::Patterns {
                db,
                others,
                algorithm: Algorithm::IdaStar,
                pruning,
                ..
            } => {
                // The smallest set first: its lookups hit the cache most,
                // and the larger ones are read only for the children it
                // does not cut off.
                let mut sets: Vec<&PatternDb<Bytes>> = std::iter::once(&*db.value)
                    .chain(others.iter().map(|o| &**o))
                    .collect();
                sets.sort_by_key(|set| set.as_bytes().len());
                PatternDb::solve_sets_toward(&sets, &db.class, board, *pruning, progress)
            }
            EngineKind::Patterns {
                db,
                algorithm,
                solver,
                ..
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
            EngineKind::MultiSearch { solver } => solver.solve_multi(board, progress),
        }
    }

    /// The board's distance to the goal in moves, or `None` if it cannot
    /// reach it: a table lookup (no allocation), else the length of the
    /// search's optimal solution.
    ///
    /// ```
    /// use slidedb::{Board, Database, Method, Shape};
    /// let db = Database::in_memory().open().unwrap();
    /// let engine = db.engine(&Board::solved(Shape::EIGHT), Method::Exact).unwrap();
    /// assert_eq!(engine.distance(&"8 6 7 2 5 4 3 0 1".parse().unwrap()), Ok(Some(31)));
    /// assert_eq!(engine.distance(&"2 1 3 4 5 6 7 8 0".parse().unwrap()), Ok(None));
    /// ```
    pub fn distance(&self, board: &Board) -> Result<Option<u32>, SolveError> {
        match &self.kind {
            EngineKind::Table(table) => table.distance(board),
            _ => Ok(self.solve(board)?.distance()),
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
        mut progress: impl FnMut(&Stats) -> ControlFlow<()> + Send,
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
                metric: self.metric(),
            });
        };
        let metric = self.metric();
        let first = found.slides().and_then(|s| s.first().copied());
        let mut moves = Vec::with_capacity(4);
        for (slide, next) in board.slides(metric) {
            // The solution's first move is one closer. In the single-tile
            // metric the graph is bipartite: any other neighbour is one
            // closer or one farther; in the multi-tile metric it may also
            // be as far, so it is solved.
            let to = if first == Some(slide) {
                distance - 1
            } else {
                let found = self.solve_with_progress(&next, &mut progress)?.distance();
                match metric {
                    Metric::Single if distance > 0 && found == Some(distance - 1) => distance - 1,
                    Metric::Single => distance + 1,
                    Metric::Multi => found.unwrap_or(distance + 1),
                }
            };
            moves.push(MoveOutcome {
                mv: slide.mv,
                cells: slide.cells,
                board: next,
                distance: to,
                optimal: to + 1 == distance,
            });
        }
        Ok(Probe {
            board: *board,
            distance: Some(distance),
            moves,
            metric: self.metric(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::table::generate;
    use std::ops::ControlFlow;

    #[test]
    fn a_shared_table_answers_toward_goals_of_its_class_only() {
        let table = Arc::new(generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap());
        let korf: Board = "0 1 2 3 4 5 6 7 8".parse().unwrap();
        let toward = Toward::shared(table.clone(), &korf).unwrap();
        assert_eq!(
            toward.distance(&"7 2 4 5 0 6 8 3 1".parse().unwrap()),
            Ok(Some(26))
        );
        let centre: Board = "1 2 3 4 0 5 6 7 8".parse().unwrap();
        assert!(Toward::shared(table, &centre).is_err()); // another class
    }

    #[test]
    fn layer_reporting_reports_every_layer_listed() {
        let goal = Board::solved(Shape::EIGHT);
        let table = Toward::new(generate(&goal, |_| {}).unwrap(), &goal).unwrap();
        let (mut layers, mut boards) = (0, 0);
        table
            .layer_reporting(
                31,
                |_| {
                    boards += 1;
                    ControlFlow::Continue(())
                },
                |_, _| layers += 1,
            )
            .unwrap();
        assert_eq!((layers, boards), (32, 2));
    }
}
