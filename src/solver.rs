//! The searches of [`crate::search`] applied to boards: heuristics, and
//! one entry point for every algorithm, so they can be compared with each
//! other and with the table.

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;

use crate::board::{Adjacency, Board, MAX_CELLS, Metric, Move, Shape};
use crate::multi_heuristic::MultiEstimate;
use crate::search::{self, Limits, Stats};
use crate::solution::{Solution, SolveError, check_shape};
use crate::system;

mod multi4x4;

/// A search algorithm for boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// A* with a binary heap: optimal.
    AStar,
    /// Iterative-deepening A*: optimal, memory for one path.
    IdaStar,
    /// Breadth-first from the board: optimal, remembers every state.
    Bfs,
    /// Depth-first with a visited set: a path, usually far from optimal.
    Dfs,
    /// Iterative-deepening depth-first: optimal, memory for one path, slow.
    Iddfs,
}

impl Algorithm {
    /// Every algorithm, in the order `compare` shows them.
    pub const ALL: [Algorithm; 5] = [
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::Bfs,
        Algorithm::Dfs,
        Algorithm::Iddfs,
    ];

    /// The name used on the command line: `astar`, `idastar`, `bfs`,
    /// `dfs`, `iddfs`.
    ///
    /// ```
    /// assert_eq!(slidedb::Algorithm::IdaStar.name(), "idastar");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AStar => "astar",
            Algorithm::IdaStar => "idastar",
            Algorithm::Bfs => "bfs",
            Algorithm::Dfs => "dfs",
            Algorithm::Iddfs => "iddfs",
        }
    }

    /// Whether its paths are always shortest.
    ///
    /// ```
    /// assert!(!slidedb::Algorithm::Dfs.is_optimal());
    /// ```
    pub fn is_optimal(self) -> bool {
        self != Algorithm::Dfs
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Algorithm, String> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| {
                format!("unknown algorithm {s:?}: use astar, idastar, bfs, dfs or iddfs")
            })
    }
}

/// The estimate of the distance to the goal used by A* and IDA*.
///
/// Each is admissible (never more than the distance) in both metrics. In
/// the multi-tile metric one move slides up to `L − 1` tiles, `L` the
/// longest side, so a single-tile path is at most `L − 1` times as long
/// as a multi-tile one: Manhattan and linear conflict, which never exceed
/// the single-tile distance, are divided by `L − 1` there (rounded up),
/// and the walking distances, made for that metric, are taken as they
/// are ([`Heuristic::default_in`] picks them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Heuristic {
    /// The sum over tiles of their row and column distances to their goal
    /// cells.
    #[default]
    Manhattan,
    /// Manhattan plus 2 for every tile that must leave its row or column
    /// to let others in that line pass (Hansson, Mayer and Yung): fewer
    /// nodes, a little more work per node.
    LinearConflict,
    /// The rows' and the columns' walking distances in the multi-tile
    /// metric, added, or where it is larger and its table small (at most
    /// 2^24 abstract boards), the exact distance of the board with the tiles of
    /// each quarter of the goal painted alike ([`MultiEstimate`]): the
    /// estimate for that metric. Admissible in the single-tile metric too
    /// (a multi-tile path is never longer in moves), but weaker there than
    /// Manhattan.
    WalkingDistance,
}

impl Heuristic {
    /// Every heuristic, in the order the command line lists them.
    pub const ALL: [Heuristic; 3] = [
        Heuristic::Manhattan,
        Heuristic::LinearConflict,
        Heuristic::WalkingDistance,
    ];

    /// The name used on the command line: `manhattan`, `linear-conflict`,
    /// `walking-distance`.
    ///
    /// ```
    /// assert_eq!(slidedb::Heuristic::WalkingDistance.name(), "walking-distance");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Manhattan => "manhattan",
            Heuristic::LinearConflict => "linear-conflict",
            Heuristic::WalkingDistance => "walking-distance",
        }
    }

    /// The estimate A* and IDA* use in `metric` when none is named: the
    /// strongest cheap one there, Manhattan in the single-tile metric and
    /// the walking distances in the multi-tile one.
    ///
    /// ```
    /// use slidedb::{Heuristic, Metric};
    /// assert_eq!(Heuristic::default_in(Metric::Single), Heuristic::Manhattan);
    /// assert_eq!(Heuristic::default_in(Metric::Multi), Heuristic::WalkingDistance);
    /// ```
    pub fn default_in(metric: Metric) -> Heuristic {
        match metric {
            Metric::Single => Heuristic::Manhattan,
            Metric::Multi => Heuristic::WalkingDistance,
        }
    }
}

impl fmt::Display for Heuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Solves boards toward one goal by search.
///
/// ```
/// use slidedb::{Algorithm, Board, Heuristic, Solver};
/// let goal: Board = "0 1 2 3 4 5 6 7 8".parse().unwrap();
/// let solver = Solver::new(&goal);
/// let board: Board = "7 2 4 5 0 6 8 3 1".parse().unwrap();
/// let found = solver.solve(&board, Algorithm::AStar, Heuristic::Manhattan).unwrap();
/// assert_eq!(found.moves.unwrap().len(), 26);
/// ```
#[derive(Clone, Debug)]
pub struct Solver {
    goal: Board,
    adjacency: Adjacency,
    /// `distance[tile][cell]`: Manhattan distance from `cell` to the tile's
    /// goal cell (0 for the blank).
    distance: [[u8; MAX_CELLS]; MAX_CELLS],
    /// The goal row and column of each tile.
    goal_row: [u8; MAX_CELLS],
    goal_col: [u8; MAX_CELLS],
    /// The bytes a search may use for the boards it remembers.
    memory: u64,
    /// What a move is ([`Solver::with_metric`]).
    metric: Metric,
}

/// What one board a search remembers can cost it, at most: the board and
/// its parent in a list, its entry in a hash table (at 7/8 load), an entry
/// in the open list, and room for each table to double when it grows.
pub(crate) const STORED_BYTES: u64 = 160;

/// The memory a search may use by default: half of what the system says
/// is available now (`MemAvailable` in `/proc/meminfo`), less if the
/// process's address space is limited (`ulimit -v`); 4 GiB where neither
/// can be read.
pub(crate) fn default_search_memory() -> u64 {
    let available = system::available_memory();
    let address_space = system::address_space_limit();
    let room = match (available, address_space) {
        (Some(a), Some(b)) => a.min(b),
        (Some(a), None) => a,
        (None, Some(b)) => b,
        (None, None) => 8 << 30,
    };
    room / 2
}

/// The deepest IDA* and IDDFS go: beyond every God's number up to 4×4.
const MAX_DEPTH: u32 = 1000;

impl Solver {
    /// A solver for boards of `goal`'s shape.
    pub fn new(goal: &Board) -> Solver {
        let shape = goal.shape();
        let cols = shape.cols();
        let mut goal_row = [0u8; MAX_CELLS];
        let mut goal_col = [0u8; MAX_CELLS];
        let mut distance = [[0u8; MAX_CELLS]; MAX_CELLS];
        for cell in 0..shape.cells() {
            let t = goal.tile(cell) as usize;
            goal_row[t] = (cell / cols) as u8;
            goal_col[t] = (cell % cols) as u8;
        }
        for (t, row) in distance.iter_mut().enumerate().take(shape.cells()).skip(1) {
            for (cell, d) in row.iter_mut().enumerate().take(shape.cells()) {
                let (r, c) = (cell / cols, cell % cols);
                *d = (r.abs_diff(goal_row[t] as usize) + c.abs_diff(goal_col[t] as usize)) as u8;
            }
        }
        Solver {
            goal: *goal,
            adjacency: Adjacency::new(shape),
            distance,
            goal_row,
            goal_col,
            memory: u64::MAX,
            metric: Metric::Single,
        }
    }

    /// The same solver, its searches counting moves in `metric`: every
    /// algorithm's moves are that metric's (in the multi-tile metric the
    /// blank slides any distance along its row or column, and a second
    /// move along the same axis is never tried: it is one move or none),
    /// its solutions are in it ([`Solution::metric`]; the moves are still
    /// the blank's letters, a cell each), and A* and IDA* take each
    /// [`Heuristic`] in its form admissible there. Single-tile by default.
    ///
    /// ```
    /// use slidedb::{Algorithm, Board, Heuristic, Metric, Shape, Solver};
    /// let solver = Solver::new(&Board::solved(Shape::EIGHT)).with_metric(Metric::Multi);
    /// assert_eq!(solver.metric(), Metric::Multi);
    /// let board: Board = "2 3 4 1 5 x 7 6 8".parse().unwrap();
    /// for algorithm in [Algorithm::AStar, Algorithm::IdaStar, Algorithm::Bfs, Algorithm::Iddfs] {
    ///     let found = solver.solve(&board, algorithm, Heuristic::WalkingDistance).unwrap();
    ///     assert_eq!(found.metric, Metric::Multi);
    ///     assert_eq!(found.distance(), Some(14), "{algorithm}");
    ///     assert_eq!(found.slides().unwrap().len(), 14);
    /// }
    /// ```
    pub fn with_metric(mut self, metric: Metric) -> Solver {
        self.metric = metric;
        self
    }

    /// The metric its searches count moves in.
    ///
    /// ```
    /// use slidedb::{Board, Metric, Shape, Solver};
    /// assert_eq!(Solver::new(&Board::solved(Shape::EIGHT)).metric(), Metric::Single);
    /// ```
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The same solver, its searches limited to `bytes` for the boards they
    /// remember (at 160 bytes a board): BFS, DFS and A* stop there
    /// with [`SolveError::SearchLimit`] instead of failing to allocate.
    /// Unlimited by default.
    ///
    /// ```
    /// use slidedb::{Algorithm, Board, Heuristic, Shape, SolveError, Solver};
    /// let solver = Solver::new(&Board::solved(Shape::EIGHT)).with_memory(1 << 20);
    /// let far: Board = "8 6 7 2 5 4 3 0 1".parse().unwrap();
    /// let found = solver.solve(&far, Algorithm::Bfs, Heuristic::Manhattan);
    /// assert!(matches!(found, Err(SolveError::SearchLimit { .. })));
    /// ```
    pub fn with_memory(mut self, bytes: u64) -> Solver {
        self.memory = bytes;
        self
    }

    /// The memory `algorithm` can need on this solver's boards, at most:
    /// every reachable board remembered for BFS, DFS and A*, one path for
    /// IDA* and IDDFS.
    ///
    /// ```
    /// use slidedb::{Algorithm, Board, Shape, Solver};
    /// let solver = Solver::new(&Board::solved(Shape::new(3, 4).unwrap()));
    /// assert!(solver.memory_needed(Algorithm::Bfs) > 30_000_000_000);
    /// assert!(solver.memory_needed(Algorithm::IdaStar) < 1 << 20);
    /// ```
    pub fn memory_needed(&self, algorithm: Algorithm) -> u128 {
        match algorithm {
            Algorithm::Bfs | Algorithm::Dfs | Algorithm::AStar => {
                self.goal.shape().states() * STORED_BYTES as u128
            }
            Algorithm::IdaStar | Algorithm::Iddfs => MAX_DEPTH as u128 * 64,
        }
    }

    /// The memory this solver's searches may use.
    ///
    /// ```
    /// use slidedb::{Board, Shape, Solver};
    /// assert_eq!(Solver::new(&Board::solved(Shape::EIGHT)).with_memory(5).memory(), 5);
    /// ```
    pub fn memory(&self) -> u64 {
        self.memory
    }

    /// The most boards a search may remember.
    fn max_stored(&self) -> usize {
        (self.memory / STORED_BYTES).min(usize::MAX as u64) as usize
    }

    /// The answer of a search, or the limit it stopped at.
    fn answer(
        &self,
        outcome: search::Outcome<Board>,
        board: &Board,
        metric: Metric,
    ) -> Result<Solution, SolveError> {
        match outcome.path {
            Some(path) => Ok(Solution {
                moves: Some(match metric {
                    Metric::Single => path_moves(&path, board.shape()),
                    Metric::Multi => slide_path_moves(&path, board.shape()),
                }),
                metric,
                stats: Some(outcome.stats),
            }),
            None if outcome.gave_up => Err(SolveError::SearchLimit {
                what: format!(
                    "{} boards remembered, the most its memory ({} MB) holds",
                    outcome.stats.peak_visited.max(self.max_stored() as u64),
                    self.memory / 1_000_000
                ),
            }),
            None => Err(SolveError::SearchLimit {
                what: format!("no path within {MAX_DEPTH} moves"),
            }),
        }
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The Manhattan distance of `board` to the goal.
    ///
    /// ```
    /// use slidedb::{Board, Solver};
    /// let solver = Solver::new(&"1 2 3 4 5 6 7 8 0".parse().unwrap());
    /// assert_eq!(solver.manhattan(&"1 2 3 4 5 6 0 7 8".parse().unwrap()), 2);
    /// ```
    pub fn manhattan(&self, board: &Board) -> u32 {
        (0..board.shape().cells())
            .map(|cell| self.distance[board.tile(cell) as usize][cell] as u32)
            .sum()
    }

    /// Manhattan distance plus the linear conflicts: for each row and each
    /// column, 2 × the fewest of its tiles (among those whose goal is in
    /// that line) that must leave it so the rest are in goal order.
    ///
    /// ```
    /// use slidedb::{Board, Solver};
    /// let solver = Solver::new(&"1 2 3 4 5 6 7 8 0".parse().unwrap());
    /// // 2 and 1 are in their goal row but swapped: one must step aside.
    /// assert_eq!(solver.linear_conflict(&"2 1 3 4 5 6 0 7 8".parse().unwrap()), 2 + 2 + 2);
    /// ```
    pub fn linear_conflict(&self, board: &Board) -> u32 {
        let shape = board.shape();
        let (rows, cols) = (shape.rows(), shape.cols());
        // The tiles of one line whose goal is in that line, as their goal
        // positions along it, in board order: those not in the longest
        // increasing run must step out.
        let line_extra = |cells: &mut dyn Iterator<Item = usize>,
                          home: &[u8; MAX_CELLS],
                          along: &[u8; MAX_CELLS],
                          line: usize| {
            let mut order = [0u8; MAX_CELLS];
            let mut k = 0;
            for cell in cells {
                let t = board.tile(cell) as usize;
                if t != 0 && home[t] as usize == line {
                    order[k] = along[t];
                    k += 1;
                }
            }
            k - longest_increasing(&order[..k])
        };
        let mut extra = 0;
        for r in 0..rows {
            extra += line_extra(
                &mut (0..cols).map(|c| r * cols + c),
                &self.goal_row,
                &self.goal_col,
                r,
            );
        }
        for c in 0..cols {
            extra += line_extra(
                &mut (0..rows).map(|r| r * cols + c),
                &self.goal_col,
                &self.goal_row,
                c,
            );
        }
        self.manhattan(board) + 2 * extra as u32
    }

    /// Solves `board` with `algorithm` in the solver's
    /// [metric](Solver::with_metric) (`heuristic` is used by A* and IDA*).
    /// A board that cannot reach the goal is answered at once from its
    /// parity, with no search.
    ///
    /// ```
    /// use slidedb::{Algorithm, Board, Heuristic, Metric, Shape, Solver};
    /// let solver = Solver::new(&Board::solved(Shape::EIGHT));
    /// let board: Board = "1 2 3 4 5 6 0 7 8".parse().unwrap();
    /// let found = solver.solve(&board, Algorithm::Bfs, Heuristic::Manhattan).unwrap();
    /// assert_eq!((found.move_string().as_deref(), found.distance()), (Some("rr"), Some(2)));
    /// let multi = solver.with_metric(Metric::Multi);
    /// let found = multi.solve(&board, Algorithm::AStar, Heuristic::Manhattan).unwrap();
    /// assert_eq!((found.move_string().as_deref(), found.distance()), (Some("rr"), Some(1)));
    /// ```
    pub fn solve(
        &self,
        board: &Board,
        algorithm: Algorithm,
        heuristic: Heuristic,
    ) -> Result<Solution, SolveError> {
        self.solve_with_progress(board, algorithm, heuristic, |_| ControlFlow::Continue(()))
    }

    /// [`solve`](Solver::solve) that calls `progress` with the search's
    /// work so far every [`search::PROGRESS_EVERY`] nodes expanded (from
    /// the searching thread; nothing is allocated for it), and stops with
    /// [`SolveError::Stopped`] when it answers [`ControlFlow::Break`]: to
    /// show a long search's progress, or to give it a deadline.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use slidedb::{Algorithm, Board, Heuristic, Shape, SolveError, Solver};
    /// let solver = Solver::new(&Board::solved(Shape::EIGHT));
    /// let far: Board = "8 6 7 2 5 4 3 0 1".parse().unwrap(); // 31 moves
    /// let mut calls = 0;
    /// let found = solver
    ///     .solve_with_progress(&far, Algorithm::Bfs, Heuristic::Manhattan, |stats| {
    ///         calls += 1;
    ///         assert!(stats.expanded > 0);
    ///         ControlFlow::Continue(())
    ///     })
    ///     .unwrap();
    /// assert_eq!(found.distance(), Some(31));
    /// assert!(calls > 0);
    /// // A callback that says stop ends the search.
    /// let stopped = solver.solve_with_progress(&far, Algorithm::Iddfs, Heuristic::Manhattan, |_| {
    ///     ControlFlow::Break(())
    /// });
    /// assert!(matches!(stopped, Err(SolveError::Stopped { stats }) if stats.expanded > 0));
    /// ```
    pub fn solve_with_progress(
        &self,
        board: &Board,
        algorithm: Algorithm,
        heuristic: Heuristic,
        mut progress: impl FnMut(&Stats) -> ControlFlow<()>,
    ) -> Result<Solution, SolveError> {
        check_shape(self.goal.shape(), board.shape())?;
        if !board.can_reach(&self.goal) {
            return Ok(self.unsolvable());
        }
        if self.metric == Metric::Multi {
            let estimate = MultiForm::new(self, heuristic);
            return self.slide_search(board, algorithm, |b| estimate.of(self, b), progress);
        }
        let adjacency = &self.adjacency;
        let goal = self.goal;
        // Whether the caller said to stop (and not a limit).
        let mut stopped = false;
        let watch = |stats: &Stats| {
            let said = progress(stats);
            stopped = said.is_break();
            said
        };
        let outcome = match algorithm {
            Algorithm::AStar | Algorithm::IdaStar => {
                // Nodes carry their estimate: a move changes the Manhattan
                // distance of one tile only, so it is updated, not redone.
                let walking = (heuristic == Heuristic::WalkingDistance)
                    .then(|| MultiEstimate::new(&self.goal));
                let whole = |b: &Board| match (&walking, heuristic) {
                    (Some(walking), _) => walking.estimate(b),
                    (None, Heuristic::LinearConflict) => self.linear_conflict(b),
                    (None, _) => self.manhattan(b),
                };
                self.informed(
                    board,
                    algorithm,
                    whole(board),
                    |n, target, next| match heuristic {
                        Heuristic::Manhattan => {
                            let tile = n.board.tile(target) as usize;
                            n.h + self.distance[tile][n.board.blank()] as u32
                                - self.distance[tile][target] as u32
                        }
                        _ => whole(next),
                    },
                    watch,
                )
            }
            Algorithm::Bfs | Algorithm::Dfs | Algorithm::Iddfs => {
                let successors = |b: &Board| {
                    let b = *b;
                    adjacency
                        .from(b.blank())
                        .iter()
                        .map(move |&(_, target)| b.slide_from(target as usize))
                };
                let success = |b: &Board| *b == goal;
                let limits = Limits::none().max_stored(self.max_stored()).progress(watch);
                match algorithm {
                    Algorithm::Bfs => search::bfs(*board, successors, success, limits),
                    Algorithm::Dfs => search::dfs(*board, successors, success, limits),
                    _ => search::iddfs(*board, successors, success, MAX_DEPTH, limits),
                }
            }
        };
        if stopped {
            return Err(SolveError::Stopped {
                stats: outcome.stats,
            });
        }
        self.answer(outcome, board, self.metric)
    }

    /// Solves `board` with A* or IDA* under any estimate that never
    /// overestimates in the solver's metric, such as an additive pattern
    /// database in the single-tile metric (the other algorithms use no
    /// estimate and are run as by [`solve`](Solver::solve)).
    ///
    /// ```
    /// use slidedb::{Algorithm, Board, Shape, Solver, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let db = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
    /// let board: Board = "8 6 7 2 5 4 3 0 1".parse().unwrap();
    /// let found = Solver::new(&goal)
    ///     .solve_estimated(&board, Algorithm::AStar, |b| db.estimate(b).unwrap())
    ///     .unwrap();
    /// assert_eq!(found.moves.unwrap().len(), 31);
    /// ```
    pub fn solve_estimated(
        &self,
        board: &Board,
        algorithm: Algorithm,
        estimate: impl Fn(&Board) -> u32,
    ) -> Result<Solution, SolveError> {
        if !matches!(algorithm, Algorithm::AStar | Algorithm::IdaStar) {
            return self.solve(board, algorithm, Heuristic::Manhattan);
        }
        check_shape(self.goal.shape(), board.shape())?;
        if !board.can_reach(&self.goal) {
            return Ok(self.unsolvable());
        }
        if self.metric == Metric::Multi {
            let go_on = |_: &Stats| ControlFlow::Continue(());
            return self.slide_search(board, algorithm, estimate, go_on);
        }
        let outcome = self.informed(
            board,
            algorithm,
            estimate(board),
            |_, _, next| estimate(next),
            |_| ControlFlow::Continue(()),
        );
        self.answer(outcome, board, self.metric)
    }

    /// A* or IDA* from `board`, each node carrying its estimate: `start`
    /// for the board, `next(node, target, board)` for the board reached by
    /// moving the blank of `node` to `target`; `progress` as for
    /// [`search::Limits::progress`].
    fn informed(
        &self,
        board: &Board,
        algorithm: Algorithm,
        start: u32,
        next: impl Fn(&Scored, usize, &Board) -> u32,
        progress: impl FnMut(&Stats) -> ControlFlow<()>,
    ) -> search::Outcome<Board> {
        let adjacency = &self.adjacency;
        let goal = self.goal;
        let successors = |n: &Scored| {
            let n = *n;
            let next = &next;
            adjacency
                .from(n.board.blank())
                .iter()
                .map(move |&(_, target)| {
                    let board = n.board.slide_from(target as usize);
                    Scored {
                        board,
                        h: next(&n, target as usize, &board),
                    }
                })
        };
        let start = Scored {
            board: *board,
            h: start,
        };
        let success = |n: &Scored| n.board == goal;
        let outcome = if algorithm == Algorithm::AStar {
            let limits = Limits::none()
                .max_stored(self.max_stored())
                .progress(progress);
            search::astar(start, successors, |n| n.h, success, limits)
        } else {
            let limits = Limits::none().progress(progress);
            search::idastar(start, successors, |n| n.h, success, MAX_DEPTH, limits)
        };
        search::Outcome {
            path: outcome
                .path
                .map(|p| p.into_iter().map(|n| n.board).collect()),
            stats: outcome.stats,
            gave_up: outcome.gave_up,
        }
    }
}

/// The axis a move runs along: 0 for up and down, 1 for left and right.
fn axis(mv: Move) -> u8 {
    match mv {
        Move::Up | Move::Down => 0,
        Move::Left | Move::Right => 1,
    }
}

impl Solver {
    /// Whether [`solve_multi`](Solver::solve_multi) toward `goal` searches
    /// under the 4×4 coloured pattern database (a 4×4 goal with its blank
    /// in a corner): a fraction of a second a random board, where the
    /// general multi-tile search on 4×4 may take hours.
    ///
    /// ```
    /// use slidedb::{Board, Shape, Solver};
    /// let fifteen = Board::solved(Shape::new(4, 4).unwrap());
    /// assert!(Solver::multi_patterns_serve(&fifteen));
    /// let centre: Board = "1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15".parse().unwrap();
    /// assert!(!Solver::multi_patterns_serve(&centre));
    /// assert!(!Solver::multi_patterns_serve(&Board::solved(Shape::EIGHT)));
    /// ```
    pub fn multi_patterns_serve(goal: &Board) -> bool {
        multi4x4::serves(goal)
    }

    /// Solves `board` optimally in the multi-tile metric (one move slides
    /// the blank any distance along its row or column) by IDA*. Two moves
    /// in a row along one axis are never tried: they are one move, or
    /// none. Memory for one path beside the estimate's tables.
    ///
    /// A 4×4 goal with its blank in a corner has its own search: a packed
    /// board and the larger of two lookups (the board's and its
    /// transpose's) in [`ColourPdb::four_by_four`], a 38 MB table the first
    /// such call in a process builds (tens of seconds on two cores); each
    /// iteration's subtrees are searched on every core (rayon), and the
    /// answer is the one a single thread finds. A random 4×4 board then
    /// takes 0.04 s on average on two cores, and under half a second for
    /// the slowest of 100 seeded boards (docs/multi-tile-heuristic.md). Every other goal uses
    /// [`MultiEstimate`] (walking distances, and a coloured abstraction
    /// on shapes whose table is small): milliseconds up to 12 cells, but
    /// far too slow on a random 4×4 board toward a goal whose blank is not
    /// in a corner. `progress` as for
    /// [`solve_with_progress`](Solver::solve_with_progress).
    ///
    /// [`ColourPdb::four_by_four`]: crate::multi_heuristic::ColourPdb::four_by_four
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use slidedb::{Board, Metric, Shape, Solver};
    /// let goal = Board::solved(Shape::EIGHT);
    /// // From the goal, the blank went "ll" then "uu".
    /// let board: Board = "0 2 3 1 5 6 4 7 8".parse().unwrap();
    /// let found = Solver::new(&goal)
    ///     .solve_multi(&board, |_| ControlFlow::Continue(()))
    ///     .unwrap();
    /// assert_eq!(found.metric, Metric::Multi);
    /// assert_eq!(found.move_string().as_deref(), Some("ddrr"));
    /// assert_eq!(board.apply_all(found.moves.as_ref().unwrap()), Some(goal));
    /// ```
    pub fn solve_multi(
        &self,
        board: &Board,
        progress: impl FnMut(&Stats) -> ControlFlow<()> + Send,
    ) -> Result<Solution, SolveError> {
        check_shape(self.goal.shape(), board.shape())?;
        if !board.can_reach(&self.goal) {
            return Ok(Solution {
                metric: Metric::Multi,
                ..Solution::unsolvable()
            });
        }
        if multi4x4::serves(&self.goal) {
            return multi4x4::solve(&self.goal, board, progress);
        }
        let estimate = MultiEstimate::new(&self.goal);
        self.slide_search(
            board,
            Algorithm::IdaStar,
            |b| estimate.estimate(b),
            progress,
        )
    }
}

/// The blank's path, one letter a cell, along a path of boards each one
/// multi-tile move from the last.
fn slide_path_moves(path: &[Board], shape: Shape) -> Vec<Move> {
    let cols = shape.cols();
    let mut moves = Vec::new();
    for w in path.windows(2) {
        let (a, b) = (w[0].blank(), w[1].blank());
        let (mv, cells) = if a / cols == b / cols {
            (if b > a { Move::Right } else { Move::Left }, a.abs_diff(b))
        } else {
            (
                if b > a { Move::Down } else { Move::Up },
                a.abs_diff(b) / cols,
            )
        };
        moves.extend(std::iter::repeat_n(mv, cells));
    }
    moves
}

/// A heuristic made ready for the multi-tile metric's searches: a
/// single-tile estimate divided by the most tiles one move slides, or the
/// walking distances.
enum MultiForm {
    /// Manhattan or linear conflict, divided by `L − 1` rounded up.
    Divided(Heuristic, u32),
    /// The walking distances, as they are.
    Walking(MultiEstimate),
}

impl MultiForm {
    /// `heuristic` in its multi-tile form, toward `solver`'s goal.
    fn new(solver: &Solver, heuristic: Heuristic) -> MultiForm {
        let shape = solver.goal.shape();
        match heuristic {
            Heuristic::WalkingDistance => MultiForm::Walking(MultiEstimate::new(&solver.goal)),
            h => MultiForm::Divided(h, (shape.rows().max(shape.cols()) - 1).max(1) as u32),
        }
    }

    /// The estimate of `board`.
    #[inline]
    fn of(&self, solver: &Solver, board: &Board) -> u32 {
        match self {
            MultiForm::Walking(estimate) => estimate.estimate(board),
            MultiForm::Divided(Heuristic::LinearConflict, most) => {
                solver.linear_conflict(board).div_ceil(*most)
            }
            MultiForm::Divided(_, most) => solver.manhattan(board).div_ceil(*most),
        }
    }
}

/// A board in the multi-tile classic searches: its estimate, and the axis
/// of the move that reached it ([`NO_AXIS`] for the start); equal and
/// hashed as the board.
#[derive(Clone, Copy, Debug)]
struct Axial {
    board: Board,
    h: u32,
    axis: u8,
}

/// The axis of no move: the start's.
const NO_AXIS: u8 = 2;

impl PartialEq for Axial {
    fn eq(&self, other: &Axial) -> bool {
        self.board == other.board
    }
}

impl Eq for Axial {}

impl std::hash::Hash for Axial {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.board.hash(state);
    }
}

impl Solver {
    /// The answer for a board that cannot reach the goal, in the solver's
    /// metric.
    fn unsolvable(&self) -> Solution {
        Solution {
            metric: self.metric,
            ..Solution::unsolvable()
        }
    }

    /// `algorithm` from `board` (which can reach the goal) in the
    /// multi-tile metric: successors are the board's slides, but none along
    /// the axis of the move that reached it (one move with it, or none: no
    /// shortest path has two in a row, and every board a pruned slide
    /// reaches is one slide from the board before, which tried it). A* and
    /// IDA* use `estimate`; `progress` as for
    /// [`solve_with_progress`](Solver::solve_with_progress).
    fn slide_search(
        &self,
        board: &Board,
        algorithm: Algorithm,
        estimate: impl Fn(&Board) -> u32,
        mut progress: impl FnMut(&Stats) -> ControlFlow<()>,
    ) -> Result<Solution, SolveError> {
        let goal = self.goal;
        let informed = matches!(algorithm, Algorithm::AStar | Algorithm::IdaStar);
        let h = |b: &Board| if informed { estimate(b) } else { 0 };
        let successors = |n: &Axial| {
            let (last, h) = (n.axis, &h);
            n.board
                .slides(Metric::Multi)
                .filter(move |(slide, _)| axis(slide.mv) != last)
                .map(move |(slide, board)| Axial {
                    board,
                    h: h(&board),
                    axis: axis(slide.mv),
                })
        };
        let start = Axial {
            board: *board,
            h: h(board),
            axis: NO_AXIS,
        };
        let success = |n: &Axial| n.board == goal;
        // Whether the caller said to stop (and not a limit).
        let mut stopped = false;
        let watch = |stats: &Stats| {
            let said = progress(stats);
            stopped = said.is_break();
            said
        };
        // A*, BFS and DFS remember boards, up to the solver's memory; IDA*
        // and IDDFS their path.
        let stored = Limits::none().max_stored(self.max_stored());
        let outcome = match algorithm {
            Algorithm::AStar => {
                search::astar(start, successors, |n| n.h, success, stored.progress(watch))
            }
            Algorithm::Bfs => search::bfs(start, successors, success, stored.progress(watch)),
            Algorithm::Dfs => search::dfs(start, successors, success, stored.progress(watch)),
            Algorithm::IdaStar => {
                let limits = Limits::none().progress(watch);
                search::idastar(start, successors, |n| n.h, success, MAX_DEPTH, limits)
            }
            Algorithm::Iddfs => {
                let limits = Limits::none().progress(watch);
                search::iddfs(start, successors, success, MAX_DEPTH, limits)
            }
        };
        if stopped {
            return Err(SolveError::Stopped {
                stats: outcome.stats,
            });
        }
        let outcome = search::Outcome {
            path: outcome
                .path
                .map(|p| p.into_iter().map(|n| n.board).collect()),
            stats: outcome.stats,
            gave_up: outcome.gave_up,
        };
        self.answer(outcome, board, Metric::Multi)
    }
}

/// A board with its heuristic estimate; equal and hashed as the board.
#[derive(Clone, Copy, Debug)]
struct Scored {
    board: Board,
    h: u32,
}

impl PartialEq for Scored {
    fn eq(&self, other: &Scored) -> bool {
        self.board == other.board
    }
}

impl Eq for Scored {}

impl std::hash::Hash for Scored {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.board.hash(state);
    }
}

/// The blank's moves along a path of boards.
fn path_moves(path: &[Board], shape: Shape) -> Vec<Move> {
    let cols = shape.cols() as isize;
    path.windows(2)
        .map(|w| match w[1].blank() as isize - w[0].blank() as isize {
            d if d == -cols => Move::Up,
            d if d == cols => Move::Down,
            -1 => Move::Left,
            _ => Move::Right,
        })
        .collect()
}

/// The length of the longest strictly increasing subsequence of `xs`
/// (a handful of values: quadratic is fastest).
fn longest_increasing(xs: &[u8]) -> usize {
    let mut best = [0u8; MAX_CELLS];
    let mut longest = 0;
    for i in 0..xs.len() {
        best[i] = 1
            + (0..i)
                .filter(|&j| xs[j] < xs[i])
                .map(|j| best[j])
                .max()
                .unwrap_or(0);
        longest = longest.max(best[i] as usize);
    }
    longest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_have_memory_by_default() {
        assert!(default_search_memory() > 0);
    }

    #[test]
    fn linear_conflict_counts_the_tiles_to_move_not_the_pairs() {
        let solver = Solver::new(&Board::solved(Shape::EIGHT));
        // 3 2 1 in the top row: two must leave, not three pairs.
        let b: Board = "3 2 1 4 5 6 7 8 0".parse().unwrap();
        assert_eq!(solver.manhattan(&b), 4);
        assert_eq!(solver.linear_conflict(&b), 4 + 4);
        assert_eq!(longest_increasing(&[2, 1, 0]), 1);
        assert_eq!(longest_increasing(&[0, 2, 1, 3]), 3);
    }
}
