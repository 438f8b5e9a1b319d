//! An admissible estimate of a board's distance to its goal in the
//! multi-tile metric (issue 37): the sum of two walking distances, one
//! over rows and one over columns, each the exact distance in its
//! abstraction where one move is a run of abstract steps in one direction;
//! and, where its table is small, the exact distance of a coloured
//! abstraction ([`ColourPdb`]: tiles of one colour alike). The estimate is
//! the larger of the two. Why neither overestimates is in
//! `docs/multi-tile-heuristic.md`.
//!
//! The vertical abstraction of a board says, for each row, how many of its
//! tiles belong to each goal row, and which row holds the blank; the
//! horizontal one says the same of columns. A vertical slide of the blank
//! over `k` cells changes only the vertical abstraction, by `k` abstract
//! steps one way; a horizontal slide changes only the horizontal one. Each
//! abstraction's distances are found once per shape and goal by a
//! breadth-first search (a few thousand states for 4×4) and kept for the
//! process.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

use crate::board::{Board, MAX_CELLS};

mod colour;

pub use colour::{BLANK_CELL, COLOURS, ColourError, ColourPdb, MAX_COLOUR_CELLS};

/// The most states a coloured abstraction [`MultiEstimate`] builds by
/// itself has (16 MB; the 4×4's is built only by its own solver).
const MAX_QUADRANT_STATES: usize = 1 << 24;

/// The symbol of the blank in an abstract state: above every line number.
const BLANK: u8 = 31;

/// Bits a symbol takes in a packed abstract state (25 cells fit in 125).
const BITS: u32 = 5;

/// One abstraction (rows or columns): how a cell and a tile map to lines,
/// and every reachable abstract state's exact distance to the goal's.
#[derive(Debug)]
struct Walk {
    /// Lines (rows for the vertical abstraction, columns for the other).
    lines: usize,
    /// Cells in each line.
    per_line: usize,
    /// The cells of each line, `per_line` each, line after line.
    cells: Vec<u8>,
    /// The goal line of each tile (unused for the blank).
    goal_line: [u8; MAX_CELLS],
    /// The distance of each abstract state reachable from the goal's.
    distance: HashMap<u128, u8>,
}

impl Walk {
    /// The abstraction of `goal`'s shape over its rows (`vertical`) or
    /// its columns, with its distances.
    fn new(goal: &Board, vertical: bool) -> Walk {
        let shape = goal.shape();
        let (rows, cols) = (shape.rows(), shape.cols());
        let (lines, per_line) = if vertical { (rows, cols) } else { (cols, rows) };
        let mut cells = Vec::with_capacity(shape.cells());
        for line in 0..lines {
            for k in 0..per_line {
                cells.push(if vertical {
                    line * cols + k
                } else {
                    k * cols + line
                } as u8);
            }
        }
        let mut goal_line = [0u8; MAX_CELLS];
        for cell in 0..shape.cells() {
            let line = if vertical { cell / cols } else { cell % cols };
            goal_line[goal.tile(cell) as usize] = line as u8;
        }
        let mut walk = Walk {
            lines,
            per_line,
            cells,
            goal_line,
            distance: HashMap::new(),
        };
        let start = walk.key(goal);
        walk.distance = walk.search(start);
        walk
    }

    /// The abstract state of `board`: each line's symbols (the goal line
    /// of each tile, [`BLANK`] for the blank) sorted, packed five bits a
    /// symbol.
    #[inline]
    fn key(&self, board: &Board) -> u128 {
        let mut symbols = [0u8; MAX_CELLS];
        for (i, &cell) in self.cells.iter().enumerate() {
            let t = board.tile(cell as usize);
            symbols[i] = if t == 0 {
                BLANK
            } else {
                self.goal_line[t as usize]
            };
        }
        self.pack(&mut symbols)
    }

    /// `symbols`, each line sorted, packed.
    #[inline]
    fn pack(&self, symbols: &mut [u8; MAX_CELLS]) -> u128 {
        let mut key = 0u128;
        for line in symbols[..self.lines * self.per_line].chunks_mut(self.per_line) {
            line.sort_unstable();
            for &s in line.iter() {
                key = key << BITS | s as u128;
            }
        }
        key
    }

    /// The symbols of a packed state, line after line.
    fn unpack(&self, mut key: u128) -> [u8; MAX_CELLS] {
        let n = self.lines * self.per_line;
        let mut symbols = [0u8; MAX_CELLS];
        for i in (0..n).rev() {
            symbols[i] = (key & ((1 << BITS) - 1)) as u8;
            key >>= BITS;
        }
        symbols
    }

    /// The states one abstract step from `symbols` with the blank moving
    /// from its line to `to`: one for each kind of tile in `to`.
    fn steps(&self, symbols: &[u8; MAX_CELLS], to: usize, out: &mut Vec<u128>) {
        let n = self.lines * self.per_line;
        let blank = symbols[..n]
            .iter()
            .position(|&s| s == BLANK)
            .expect("every state holds the blank");
        let span = to * self.per_line..(to + 1) * self.per_line;
        let mut last = None;
        for i in span {
            let s = symbols[i];
            if last == Some(s) {
                continue; // the line is sorted: the same kind of tile
            }
            last = Some(s);
            let mut next = *symbols;
            next[blank] = s;
            next[i] = BLANK;
            out.push(self.pack(&mut next));
        }
    }

    /// Breadth-first from the goal's state, a move being one to
    /// `lines - 1` abstract steps of the blank in one direction.
    fn search(&self, start: u128) -> HashMap<u128, u8> {
        let mut distance = HashMap::new();
        distance.insert(start, 0u8);
        let mut queue = VecDeque::from([start]);
        let (mut front, mut next) = (Vec::new(), Vec::new());
        while let Some(state) = queue.pop_front() {
            let d = distance[&state];
            let symbols = self.unpack(state);
            let n = self.lines * self.per_line;
            let at = symbols[..n].iter().position(|&s| s == BLANK).unwrap() / self.per_line;
            for up in [false, true] {
                front.clear();
                front.push(state);
                let mut line = at;
                while (up && line > 0) || (!up && line + 1 < self.lines) {
                    line = if up { line - 1 } else { line + 1 };
                    next.clear();
                    for &s in &front {
                        self.steps(&self.unpack(s), line, &mut next);
                    }
                    next.sort_unstable();
                    next.dedup();
                    for &s in &next {
                        distance.entry(s).or_insert_with(|| {
                            queue.push_back(s);
                            d + 1
                        });
                    }
                    std::mem::swap(&mut front, &mut next);
                }
            }
        }
        distance
    }

    /// The exact abstract distance of `board` (0 if its state cannot be
    /// reached from the goal's, which only a board of the other parity
    /// can have).
    #[inline]
    fn estimate(&self, board: &Board) -> u32 {
        self.distance.get(&self.key(board)).copied().unwrap_or(0) as u32
    }
}

/// The multi-tile estimate toward one goal: never more than the fewest
/// multi-tile moves, and changed by at most one by any move (consistent):
/// the larger of the walking distances' sum and, on shapes of up to 16
/// cells whose table has at most 2^24 states, the coloured abstraction
/// that paints each quarter of the goal its own colour
/// ([`ColourPdb::quadrants`]). Cheap to clone; the tables behind it are
/// built on first use for each shape and goal and kept for the process.
///
/// ```
/// use slidedb::{Board, Shape};
/// use slidedb::multi_heuristic::MultiEstimate;
/// let goal = Board::solved(Shape::new(4, 4).unwrap());
/// let estimate = MultiEstimate::new(&goal);
/// assert_eq!(estimate.estimate(&goal), 0);
/// // The blank three cells from home along its row: one move.
/// let board: Board = "1 2 3 4 5 6 7 8 9 10 11 12 0 13 14 15".parse().unwrap();
/// assert_eq!(estimate.estimate(&board), 1);
/// ```
#[derive(Clone, Debug)]
pub struct MultiEstimate {
    vertical: Arc<Walk>,
    horizontal: Arc<Walk>,
    /// The coloured abstraction, and the colour of each tile.
    colour: Option<(Arc<ColourPdb>, [u8; MAX_COLOUR_CELLS])>,
}

/// The abstractions built so far, by shape, goal lines and direction.
type Cache = Mutex<HashMap<(usize, usize, [u8; MAX_CELLS], bool), Arc<Walk>>>;

impl MultiEstimate {
    /// The estimate toward `goal` (any shape; only which row and column
    /// each tile's goal cell is in matters).
    ///
    /// ```
    /// use slidedb::{Board, Shape};
    /// use slidedb::multi_heuristic::MultiEstimate;
    /// let goal = Board::solved(Shape::new(2, 6).unwrap());
    /// assert_eq!(MultiEstimate::new(&goal).estimate(&goal), 0);
    /// ```
    pub fn new(goal: &Board) -> MultiEstimate {
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let cache = CACHE.get_or_init(Cache::default);
        let shape = goal.shape();
        let walk = |vertical: bool| {
            let cols = shape.cols();
            let mut lines = [0u8; MAX_CELLS];
            for cell in 0..shape.cells() {
                let line = if vertical { cell / cols } else { cell % cols };
                lines[goal.tile(cell) as usize] = line as u8;
            }
            let key = (shape.rows(), cols, lines, vertical);
            if let Some(w) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
                return Arc::clone(w);
            }
            // Built outside the lock: two threads may both build it once.
            let built = Arc::new(Walk::new(goal, vertical));
            let mut held = cache.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(held.entry(key).or_insert(built))
        };
        let colour = ColourPdb::quadrants(goal).map(|pdb| {
            let mut of_tile = [0u8; MAX_COLOUR_CELLS];
            for cell in 0..shape.cells() {
                of_tile[goal.tile(cell) as usize] = pdb.colour(cell);
            }
            (pdb, of_tile)
        });
        MultiEstimate {
            vertical: walk(true),
            horizontal: walk(false),
            colour,
        }
    }

    /// The estimate of `board`'s multi-tile distance to the goal: the
    /// exact distances of its row and column abstractions, added, or the
    /// coloured abstraction's distance if larger.
    ///
    /// ```
    /// use slidedb::{Board, Shape};
    /// use slidedb::multi_heuristic::MultiEstimate;
    /// let goal = Board::solved(Shape::EIGHT);
    /// let board: Board = "1 2 3 4 5 6 0 7 8".parse().unwrap(); // "rr"
    /// assert_eq!(MultiEstimate::new(&goal).estimate(&board), 1);
    /// ```
    #[inline]
    pub fn estimate(&self, board: &Board) -> u32 {
        let walking = self.walking(board);
        match &self.colour {
            Some((pdb, of_tile)) => walking.max(pdb.distance_by(of_tile, board)),
            None => walking,
        }
    }

    /// The walking distances alone: the rows' and the columns', added.
    ///
    /// ```
    /// use slidedb::{Board, Shape};
    /// use slidedb::multi_heuristic::MultiEstimate;
    /// let goal = Board::solved(Shape::EIGHT);
    /// let board: Board = "1 2 3 4 5 6 0 7 8".parse().unwrap(); // "rr"
    /// assert_eq!(MultiEstimate::new(&goal).walking(&board), 1);
    /// ```
    #[inline]
    pub fn walking(&self, board: &Board) -> u32 {
        self.vertical.estimate(board) + self.horizontal.estimate(board)
    }

    /// The coloured abstraction it reads beside the walking distances, if
    /// any.
    ///
    /// ```
    /// use slidedb::{Board, Shape};
    /// use slidedb::multi_heuristic::MultiEstimate;
    /// let e = MultiEstimate::new(&Board::solved(Shape::new(3, 4).unwrap()));
    /// assert!(e.colour().is_some());
    /// // The 4x4's quarters would make 252 M states: left to its solver.
    /// let e = MultiEstimate::new(&Board::solved(Shape::new(4, 4).unwrap()));
    /// assert!(e.colour().is_none());
    /// ```
    pub fn colour(&self) -> Option<&ColourPdb> {
        self.colour.as_ref().map(|(pdb, _)| &**pdb)
    }

    /// The number of abstract states in its two tables, rows' then
    /// columns': what it holds in memory.
    ///
    /// ```
    /// use slidedb::{Board, Shape};
    /// use slidedb::multi_heuristic::MultiEstimate;
    /// let e = MultiEstimate::new(&Board::solved(Shape::new(4, 4).unwrap()));
    /// assert_eq!(e.states(), (24964, 24964));
    /// ```
    pub fn states(&self) -> (usize, usize) {
        (self.vertical.distance.len(), self.horizontal.distance.len())
    }
}
