//! Boards, shapes and moves: parsing, validation, solvability, display.
//!
//! A [`Board`] is a compact `Copy` value: the tiles packed five bits a cell
//! into a `u128`, row by row, with `0` for the blank. Every board of up to
//! [`MAX_CELLS`] cells fits, so the same type serves the 8-puzzle, the 3×4
//! board, the 15-puzzle and the 24-puzzle.

use std::fmt;
use std::str::FromStr;

/// The most cells a [`Board`] can hold (5×5).
pub const MAX_CELLS: usize = 25;

/// The most characters of one written cell that a message repeats: a
/// longer one is cut there and ends in `…` ([`shown_token`]).
pub(crate) const MAX_SHOWN_TOKEN: usize = 40;

/// A written cell as messages show it: whole up to 40
/// characters, else its first 40 and `…`.
///
/// ```
/// use slidedb::board::shown_token;
/// assert_eq!(shown_token("99999999999999999999999999"), "99999999999999999999999999");
/// let long = "7".repeat(100);
/// assert_eq!(shown_token(&long), format!("{}…", "7".repeat(40)));
/// ```
pub fn shown_token(token: &str) -> String {
    match token.char_indices().nth(MAX_SHOWN_TOKEN) {
        Some((cut, _)) => format!("{}…", &token[..cut]),
        None => token.to_string(),
    }
}

/// Bits a cell takes in [`Board::packed`].
const CELL_BITS: usize = 5;

/// One cell's bits.
const CELL_MASK: u128 = (1 << CELL_BITS) - 1;

/// Why a board, a goal or a size could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardError {
    /// The text held no cells at all.
    #[error("the board is empty")]
    Empty,
    /// A size such as `3x3` could not be read.
    #[error("bad size {text:?}: write it as ROWSxCOLS, for example 3x3")]
    BadSize {
        /// The text that was given.
        text: String,
    },
    /// A size with a side under 2 or more than [`MAX_CELLS`] cells.
    #[error(
        "no board of {rows}x{cols}: both sides must be at least 2 and the board at most {MAX_CELLS} cells"
    )]
    UnsupportedSize {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// A cell that is neither a tile number nor a blank mark.
    #[error("{token:?} is not a tile: write tiles as numbers and the blank as 0, x, _ or .")]
    BadCell {
        /// The offending text, as [`shown_token`] shows it.
        token: String,
    },
    /// Two separators with nothing between them, or one at an end.
    #[error("empty cell: two separators with nothing between them (or one at the start or end)")]
    EmptyCell,
    /// Rows split by `/` that are not all the same length.
    #[error(
        "rows of unequal length: row 1 has {}, row {row} has {len}",
        crate::words::counted(*.first as u64, "cell", "cells")
    )]
    RaggedRows {
        /// Cells in the first row.
        first: usize,
        /// The 1-based row that differs.
        row: usize,
        /// Cells in that row.
        len: usize,
    },
    /// The cell count fits several shapes and nothing said which.
    #[error("{cells} cells could be {options}: give the size, or split the rows with /")]
    AmbiguousSize {
        /// Cells counted.
        cells: usize,
        /// The shapes it could be, such as `2x3 or 3x2`.
        options: String,
    },
    /// The cell count fits no board shape.
    #[error(
        "{} no board (both sides at least 2, at most {MAX_CELLS} cells): {hint}",
        crate::words::counted(*.cells as u64, "cell makes", "cells make")
    )]
    NoShape {
        /// Cells counted.
        cells: usize,
        /// What would fix it.
        hint: &'static str,
    },
    /// The cell count disagrees with the size that was asked for.
    #[error(
        "{} given, but a {shape} board has {expected}",
        crate::words::counted(*.got as u64, "cell", "cells")
    )]
    WrongCellCount {
        /// The size in force.
        shape: Shape,
        /// Cells it needs.
        expected: usize,
        /// Cells given.
        got: usize,
    },
    /// The rows split by `/` contradict the size asked for.
    #[error("the rows make a {got} board, but the size is {expected}")]
    ShapeMismatch {
        /// The size in force.
        expected: Shape,
        /// The shape the rows spell.
        got: Shape,
    },
    /// A tile number outside `1 ..= cells - 1`, of any number of digits.
    #[error("tile {tile} is out of range: a {shape} board has tiles 1 to {max}")]
    TileOutOfRange {
        /// The number as it was written, as [`shown_token`] shows it.
        tile: String,
        /// The board's shape.
        shape: Shape,
        /// The largest tile.
        max: usize,
    },
    /// A tile written twice.
    #[error("tile {tile} appears twice")]
    DuplicateTile {
        /// The repeated tile.
        tile: u8,
    },
    /// More than one blank.
    #[error("the board has {count} blanks; it needs exactly one")]
    TooManyBlanks {
        /// Blanks counted.
        count: usize,
    },
    /// No blank at all.
    #[error("the board has no blank: mark it with 0, x, _ or .")]
    NoBlank,
    /// Separators given, but only some cells split by them, e.g. `12 3,4`.
    #[error("mixed separators: split cells by spaces or by commas, not both")]
    MixedSeparators,
    /// A metric that is neither `single` nor `multi`.
    #[error(
        "no metric {text:?}: write single (a move slides one tile one cell) or multi (a move slides the blank any distance along its row or column)"
    )]
    UnknownMetric {
        /// The text given, as [`shown_token`] shows it.
        text: String,
    },
}

/// The size of a board: rows and columns, each at least 2, at most
/// [`MAX_CELLS`] cells in all.
///
/// ```
/// use slidedb::Shape;
/// let shape: Shape = "3x4".parse().unwrap();
/// assert_eq!((shape.rows(), shape.cols(), shape.cells()), (3, 4, 12));
/// assert_eq!(shape.to_string(), "3x4");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    rows: u8,
    cols: u8,
}

impl Shape {
    /// The 3×3 board of the 8-puzzle.
    pub const EIGHT: Shape = Shape { rows: 3, cols: 3 };

    /// A shape of `rows` × `cols`; both at least 2, at most [`MAX_CELLS`] cells.
    ///
    /// ```
    /// use slidedb::Shape;
    /// assert!(Shape::new(2, 3).is_ok());
    /// assert!(Shape::new(1, 9).is_err());
    /// ```
    pub fn new(rows: usize, cols: usize) -> Result<Shape, BoardError> {
        if rows < 2 || cols < 2 || rows.saturating_mul(cols) > MAX_CELLS {
            return Err(BoardError::UnsupportedSize { rows, cols });
        }
        Ok(Shape {
            rows: rows as u8,
            cols: cols as u8,
        })
    }

    /// Rows.
    pub fn rows(self) -> usize {
        self.rows as usize
    }

    /// Columns.
    pub fn cols(self) -> usize {
        self.cols as usize
    }

    /// Cells: rows × columns.
    pub fn cells(self) -> usize {
        self.rows() * self.cols()
    }

    /// The number of boards reachable from any one goal: cells! / 2.
    /// Exact for every shape (25!/2 is about 7.8 × 10^24); the shapes
    /// that have full tables count theirs in a `u64`
    /// ([`Indexer::len`](crate::Indexer::len)).
    ///
    /// ```
    /// use slidedb::Shape;
    /// assert_eq!(Shape::EIGHT.states(), 181_440);
    /// assert_eq!(Shape::new(5, 5).unwrap().states(), 7_755_605_021_665_492_992_000_000);
    /// ```
    pub fn states(self) -> u128 {
        (2..=self.cells() as u128).product::<u128>() / 2
    }

    /// [`states`](Shape::states) as the tables count it, in a `u64`: exact
    /// up to 20 cells (every shape a table has), `u64::MAX` past them.
    pub(crate) fn table_states(self) -> u64 {
        u64::try_from(self.states()).unwrap_or(u64::MAX)
    }

    /// The shapes with exactly `cells` cells, rows ascending.
    fn with_cells(cells: usize) -> Vec<Shape> {
        (2..=cells)
            .filter(|&r| cells.is_multiple_of(r))
            .filter_map(|r| Shape::new(r, cells / r).ok())
            .collect()
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Shape {
    type Err = BoardError;

    /// Reads `RxC` (also `R×C` or `RXC`), such as `3x3` or `2x6`.
    fn from_str(text: &str) -> Result<Shape, BoardError> {
        let bad = || BoardError::BadSize {
            text: text.to_string(),
        };
        let t = text.trim();
        let (r, c) = t.split_once(['x', 'X', '×']).ok_or_else(bad)?;
        let side = |s: &str| -> Result<usize, BoardError> {
            let s = s.trim();
            if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            s.parse().map_err(|_| bad())
        };
        let (rows, cols) = (side(r)?, side(c)?);
        Shape::new(rows, cols)
    }
}

/// A move, named by the direction **the blank** travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// The blank moves up (the tile above it comes down).
    Up,
    /// The blank moves down.
    Down,
    /// The blank moves left.
    Left,
    /// The blank moves right.
    Right,
}

impl Move {
    /// All four moves, in the fixed order the solvers try them: `u d l r`.
    pub const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

    /// The move's letter: `u`, `d`, `l` or `r`.
    ///
    /// ```
    /// assert_eq!(slidedb::Move::Left.letter(), 'l');
    /// ```
    pub fn letter(self) -> char {
        match self {
            Move::Up => 'u',
            Move::Down => 'd',
            Move::Left => 'l',
            Move::Right => 'r',
        }
    }

    /// The move that undoes this one.
    ///
    /// ```
    /// assert_eq!(slidedb::Move::Up.inverse(), slidedb::Move::Down);
    /// ```
    pub fn inverse(self) -> Move {
        match self {
            Move::Up => Move::Down,
            Move::Down => Move::Up,
            Move::Left => Move::Right,
            Move::Right => Move::Left,
        }
    }

    /// The move a letter names, if any.
    ///
    /// ```
    /// assert_eq!(slidedb::Move::from_letter('d'), Some(slidedb::Move::Down));
    /// ```
    pub fn from_letter(letter: char) -> Option<Move> {
        match letter {
            'u' => Some(Move::Up),
            'd' => Some(Move::Down),
            'l' => Some(Move::Left),
            'r' => Some(Move::Right),
            _ => None,
        }
    }
}

/// Writes moves as their letters, such as `ullddr`.
///
/// ```
/// use slidedb::{Move, moves_to_string};
/// assert_eq!(moves_to_string(&[Move::Up, Move::Left]), "ul");
/// ```
pub fn moves_to_string(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// How moves are counted: the metric every distance is in.
///
/// In the single-tile metric (the default) a move slides one tile one
/// cell: the blank travels one cell. In the multi-tile metric, the one
/// that people who race these puzzles count beside it, a move slides the
/// blank any number of cells along its row or its column, shifting every
/// tile in between by one: `rrr` is three moves in one and one in the
/// other. A path of the blank is written the same way in both (one letter
/// a cell); [`Metric::moves_in`] counts its moves, and
/// [`Metric::group`] splits it into the metric's moves.
///
/// ```
/// use slidedb::Metric;
/// let multi: Metric = "multi".parse().unwrap();
/// assert_eq!(multi, Metric::Multi);
/// assert_eq!(Metric::default(), Metric::Single);
/// assert_eq!("mtm".parse::<Metric>().unwrap(), Metric::Multi);
/// assert_eq!(multi.to_string(), "multi");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Metric {
    /// A move slides one tile one cell.
    #[default]
    Single,
    /// A move slides the blank any number of cells along its row or
    /// column.
    Multi,
}

impl Metric {
    /// Both metrics, the default first.
    pub const ALL: [Metric; 2] = [Metric::Single, Metric::Multi];

    /// The metric's name as every front end writes it: `single` or
    /// `multi`.
    ///
    /// ```
    /// assert_eq!(slidedb::Metric::Multi.name(), "multi");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Metric::Single => "single",
            Metric::Multi => "multi",
        }
    }

    /// Its name in a sentence: `single-tile` or `multi-tile`.
    ///
    /// ```
    /// assert_eq!(slidedb::Metric::Multi.adjective(), "multi-tile");
    /// ```
    pub fn adjective(self) -> &'static str {
        match self {
            Metric::Single => "single-tile",
            Metric::Multi => "multi-tile",
        }
    }

    /// The number of moves the blank's path `moves` counts in this metric:
    /// one a letter in the single-tile metric, one a run of equal letters
    /// in the multi-tile metric (the fewest moves that play the path).
    ///
    /// ```
    /// use slidedb::{Metric, Move};
    /// let path: Vec<Move> = "rrrdll".chars().map(|c| Move::from_letter(c).unwrap()).collect();
    /// assert_eq!(Metric::Single.moves_in(&path), 6);
    /// assert_eq!(Metric::Multi.moves_in(&path), 3);
    /// ```
    pub fn moves_in(self, moves: &[Move]) -> usize {
        match self {
            Metric::Single => moves.len(),
            Metric::Multi => {
                moves.len() - moves.windows(2).filter(|pair| pair[0] == pair[1]).count()
            }
        }
    }

    /// The blank's path `moves` as this metric's moves, in order: one
    /// [`Slide`] a letter in the single-tile metric, one a run of equal
    /// letters in the multi-tile metric.
    ///
    /// ```
    /// use slidedb::{Metric, Move};
    /// let path: Vec<Move> = "rrrdll".chars().map(|c| Move::from_letter(c).unwrap()).collect();
    /// let moves: Vec<String> = Metric::Multi.group(&path).iter().map(|s| s.to_string()).collect();
    /// assert_eq!(moves, ["rrr", "d", "ll"]);
    /// ```
    pub fn group(self, moves: &[Move]) -> Vec<Slide> {
        let mut slides: Vec<Slide> = Vec::new();
        for &mv in moves {
            match slides.last_mut() {
                Some(last) if self == Metric::Multi && last.mv == mv => last.cells += 1,
                _ => slides.push(Slide { mv, cells: 1 }),
            }
        }
        slides
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Metric {
    type Err = BoardError;

    /// `single` or `multi`; also `single-tile` and `multi-tile`, and the
    /// racers' `stm` and `mtm`, in any case.
    fn from_str(text: &str) -> Result<Metric, BoardError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "single" | "single-tile" | "stm" => Ok(Metric::Single),
            "multi" | "multi-tile" | "mtm" => Ok(Metric::Multi),
            _ => Err(BoardError::UnknownMetric {
                text: shown_token(text),
            }),
        }
    }
}

/// One move in a metric: the blank travels `cells` cells toward `mv`
/// (always one in the single-tile metric). It is written as its path, the
/// letter repeated: `rrr`.
///
/// ```
/// use slidedb::{Move, Slide};
/// let slide = Slide { mv: Move::Right, cells: 3 };
/// assert_eq!(slide.to_string(), "rrr");
/// assert_eq!(slide.steps().count(), 3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slide {
    /// The direction the blank travels.
    pub mv: Move,
    /// How many cells it travels, at least one.
    pub cells: u8,
}

impl Slide {
    /// The blank's path, one cell a step.
    ///
    /// ```
    /// use slidedb::{Move, Slide};
    /// let steps: Vec<Move> = Slide { mv: Move::Up, cells: 2 }.steps().collect();
    /// assert_eq!(steps, [Move::Up, Move::Up]);
    /// ```
    pub fn steps(self) -> impl Iterator<Item = Move> {
        std::iter::repeat_n(self.mv, self.cells as usize)
    }
}

impl fmt::Display for Slide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for mv in self.steps() {
            write!(f, "{}", mv.letter())?;
        }
        Ok(())
    }
}

/// The moves of one metric from a board, and the boards they lead to
/// ([`Board::slides`]).
#[derive(Clone, Debug)]
pub struct Slides {
    metric: Metric,
    /// The board the moves start from.
    from: Board,
    /// The board the last move led to, and how far it went.
    at: Board,
    cells: u8,
    /// The direction being walked, as an index into [`Move::ALL`].
    direction: usize,
}

impl Iterator for Slides {
    type Item = (Slide, Board);

    fn next(&mut self) -> Option<(Slide, Board)> {
        while self.direction < Move::ALL.len() {
            let mv = Move::ALL[self.direction];
            let farther = if self.cells == 0 || self.metric == Metric::Multi {
                self.at.apply(mv)
            } else {
                None
            };
            match farther {
                Some(board) => {
                    self.at = board;
                    self.cells += 1;
                    return Some((
                        Slide {
                            mv,
                            cells: self.cells,
                        },
                        board,
                    ));
                }
                None => {
                    self.direction += 1;
                    self.at = self.from;
                    self.cells = 0;
                }
            }
        }
        None
    }
}

/// For each blank cell, the moves that keep the blank on the board and the
/// cell each one takes it to, in [`Move::ALL`] order: computed once per
/// shape, so the hot loops do no division.
#[derive(Clone, Debug)]
pub(crate) struct Adjacency {
    steps: [[(Move, u8); 4]; MAX_CELLS],
    len: [u8; MAX_CELLS],
}

impl Adjacency {
    pub(crate) fn new(shape: Shape) -> Adjacency {
        Adjacency::ordered(shape, Move::ALL)
    }

    /// The same moves, each cell's in the order of `order` (a permutation
    /// of [`Move::ALL`]).
    pub(crate) fn ordered(shape: Shape, order: [Move; 4]) -> Adjacency {
        let mut adjacency = Adjacency {
            steps: [[(Move::Up, 0); 4]; MAX_CELLS],
            len: [0; MAX_CELLS],
        };
        let (rows, cols) = (shape.rows(), shape.cols());
        for cell in 0..shape.cells() {
            let (r, c) = (cell / cols, cell % cols);
            for mv in order {
                let target = match mv {
                    Move::Up if r > 0 => cell - cols,
                    Move::Down if r + 1 < rows => cell + cols,
                    Move::Left if c > 0 => cell - 1,
                    Move::Right if c + 1 < cols => cell + 1,
                    _ => continue,
                };
                let n = &mut adjacency.len[cell];
                adjacency.steps[cell][*n as usize] = (mv, target as u8);
                *n += 1;
            }
        }
        adjacency
    }

    /// The moves from a blank in `cell`, each with the blank's new cell.
    #[inline]
    pub(crate) fn from(&self, cell: usize) -> &[(Move, u8)] {
        &self.steps[cell][..self.len[cell] as usize]
    }
}

/// A board: a shape and a tile in every cell, `0` for the blank.
///
/// It is `Copy` and 24 bytes; moves cost a few instructions.
///
/// ```
/// use slidedb::Board;
/// let board: Board = "2 3 4 1 5 x 7 6 8".parse().unwrap();
/// assert_eq!(board.to_string(), "2 3 4 1 5 0 7 6 8");
/// assert_eq!(board.blank(), 5);
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
// Aligned as a u64, not a u128: 24 bytes, not 32, in every list of boards.
#[repr(C, packed(8))]
pub struct Board {
    packed: u128,
    shape: Shape,
    blank: u8,
}

impl Board {
    /// The tiles in order with the blank last: the default goal.
    ///
    /// ```
    /// let goal = slidedb::Board::solved(slidedb::Shape::EIGHT);
    /// assert_eq!(goal.to_string(), "1 2 3 4 5 6 7 8 0");
    /// ```
    pub fn solved(shape: Shape) -> Board {
        let n = shape.cells();
        let tiles: Vec<u8> = (1..n as u8).chain([0]).collect();
        Board::from_tiles(shape, &tiles).expect("the ordered board is valid")
    }

    /// A board from its cells in reading order, `0` for the blank; checks
    /// that each tile `1 ..= cells - 1` appears once and there is one blank.
    ///
    /// ```
    /// use slidedb::{Board, Shape};
    /// let board = Board::from_tiles(Shape::new(2, 2).unwrap(), &[1, 2, 0, 3]).unwrap();
    /// assert_eq!(board.tile(3), 3);
    /// assert!(Board::from_tiles(Shape::new(2, 2).unwrap(), &[1, 1, 0, 3]).is_err());
    /// ```
    pub fn from_tiles(shape: Shape, tiles: &[u8]) -> Result<Board, BoardError> {
        let n = shape.cells();
        if tiles.len() != n {
            return Err(BoardError::WrongCellCount {
                shape,
                expected: n,
                got: tiles.len(),
            });
        }
        // The usual case in one pass: every tile below n, and all n of
        // them there (so each once). Anything else is named below.
        let (mut seen, mut out_of_range, mut blank, mut packed) = (0u32, false, 0, 0u128);
        for (cell, &t) in tiles.iter().enumerate().rev() {
            out_of_range |= t as usize >= n;
            seen |= 1 << (t & 31);
            if t == 0 {
                blank = cell;
            }
            // From the last cell down: a constant shift a cell.
            packed = packed << CELL_BITS | t as u128;
        }
        if !out_of_range && seen == (1u32 << n) - 1 {
            return Ok(Board {
                packed,
                shape,
                blank: blank as u8,
            });
        }
        if let Some(&t) = tiles.iter().find(|&&t| t as usize >= n) {
            return Err(BoardError::TileOutOfRange {
                tile: t.to_string(),
                shape,
                max: n - 1,
            });
        }
        match tiles.iter().filter(|&&t| t == 0).count() {
            0 => return Err(BoardError::NoBlank),
            1 => {}
            count => return Err(BoardError::TooManyBlanks { count }),
        }
        let mut seen = 0u32;
        for &t in tiles {
            if t != 0 && seen & (1 << t) != 0 {
                return Err(BoardError::DuplicateTile { tile: t });
            }
            seen |= 1 << t;
        }
        // Not reached (n tiles below n, one blank, none twice are every
        // tile once), but the board read above is the board.
        Ok(Board {
            packed,
            shape,
            blank: blank as u8,
        })
    }

    /// Reads a board written row by row, with an optional size.
    ///
    /// Cells are split by spaces or commas, or written one character each
    /// (`724506831`); rows may be split by `/` (`123/456/78x`). The blank is
    /// `0`, `x`, `X`, `_` or `.`. The size is `shape` when given, else the
    /// `/`-split rows, else a square cell count; 6 or 8 cells with neither
    /// is ambiguous and an error.
    ///
    /// ```
    /// use slidedb::{Board, Shape};
    /// let a = Board::parse("123/456/78x", None).unwrap();
    /// let b = Board::parse("1,2,3,4,5,6,7,8,0", None).unwrap();
    /// assert_eq!(a, b);
    /// let wide = Board::parse("1 2 3 4 5 0", Some(Shape::new(2, 3).unwrap())).unwrap();
    /// assert_eq!(wide.shape().to_string(), "2x3");
    /// assert!(Board::parse("1 2 3 4 5 0", None).is_err());
    /// ```
    pub fn parse(text: &str, shape: Option<Shape>) -> Result<Board, BoardError> {
        // A byte-order mark (as some editors start a file) is no cell.
        let text = text.trim().trim_start_matches('\u{feff}').trim();
        if text.is_empty() {
            return Err(BoardError::Empty);
        }
        let mut cells = Cells::default();
        let mut first_len = 0;
        let mut row_count = 0;
        for (r, row) in text.split('/').enumerate() {
            let before = cells.len;
            parse_row(row, &mut cells)?;
            let len = cells.len - before;
            if r == 0 {
                first_len = len;
            } else if len != first_len {
                return Err(BoardError::RaggedRows {
                    first: first_len,
                    row: r + 1,
                    len,
                });
            }
            row_count = r + 1;
        }
        let mut row_shape = None;
        if row_count > 1 {
            row_shape = Some(Shape::new(row_count, first_len)?);
        }
        let count = cells.len;
        let shape = match (shape, row_shape) {
            (Some(s), Some(r)) if s != r => {
                return Err(BoardError::ShapeMismatch {
                    expected: s,
                    got: r,
                });
            }
            (Some(s), _) | (None, Some(s)) => s,
            // Two blanks or a tile written twice are faults whatever the
            // size: say so rather than ask which size was meant.
            (None, None) => infer_shape(count).map_err(|e| cells.fault().unwrap_or(e))?,
        };
        if count != shape.cells() {
            return Err(BoardError::WrongCellCount {
                shape,
                expected: shape.cells(),
                got: count,
            });
        }
        let mut tiles = [0u8; MAX_CELLS];
        for (slot, &value) in tiles.iter_mut().zip(&cells.values) {
            if value >= count as u64 {
                return Err(BoardError::TileOutOfRange {
                    tile: match (value, &cells.long) {
                        (LONG_NUMBER, Some(written)) => written.clone(),
                        _ => value.to_string(),
                    },
                    shape,
                    max: count - 1,
                });
            }
            *slot = value as u8;
        }
        Board::from_tiles(shape, &tiles[..count])
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The blank's cell, counted in reading order from 0.
    pub fn blank(&self) -> usize {
        self.blank as usize
    }

    /// The tile in `cell` (0 for the blank).
    pub fn tile(&self, cell: usize) -> u8 {
        ((self.packed >> (CELL_BITS * cell)) & CELL_MASK) as u8
    }

    /// The cells in reading order, `0` for the blank.
    pub fn tiles(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.shape.cells()).map(|c| self.tile(c))
    }

    /// The tiles packed five bits a cell, cell 0 in the lowest bits.
    ///
    /// ```
    /// let board: slidedb::Board = "2 0 1 3".parse().unwrap();
    /// assert_eq!(board.packed(), 2 | 1 << 10 | 3 << 15);
    /// ```
    pub fn packed(&self) -> u128 {
        self.packed
    }

    /// The tiles packed four bits a cell, cell 0 in the lowest bits: the
    /// form the table index reads. Only boards of at most 16 cells fit.
    #[inline]
    pub(crate) fn nibbles(&self) -> u64 {
        debug_assert!(self.shape.cells() <= 16);
        let mut nibbles = 0u64;
        let mut rest = self.packed;
        for cell in 0..self.shape.cells() {
            nibbles |= (rest as u64 & 0xF) << (4 * cell);
            rest >>= CELL_BITS;
        }
        nibbles
    }

    /// The board of `shape` whose cells are `nibbles`, four bits a cell
    /// (the form [`nibbles`](Board::nibbles) gives), if it is one.
    pub(crate) fn from_nibbles(shape: Shape, nibbles: u64) -> Result<Board, BoardError> {
        let mut tiles = [0u8; MAX_CELLS];
        for (cell, slot) in tiles.iter_mut().enumerate().take(shape.cells().min(16)) {
            *slot = ((nibbles >> (4 * cell)) & 0xF) as u8;
        }
        Board::from_tiles(shape, &tiles[..shape.cells()])
    }

    /// The board after `mv`, or `None` if the blank would leave the board.
    ///
    /// ```
    /// use slidedb::{Board, Move};
    /// let goal: Board = "1 2 3 4 5 6 7 8 0".parse().unwrap();
    /// assert_eq!(goal.apply(Move::Left).unwrap().to_string(), "1 2 3 4 5 6 7 0 8");
    /// assert!(goal.apply(Move::Right).is_none());
    /// ```
    #[inline]
    pub fn apply(&self, mv: Move) -> Option<Board> {
        let cols = self.shape.cols as usize;
        let b = self.blank as usize;
        let target = match mv {
            Move::Up if b >= cols => b - cols,
            Move::Down if b + cols < self.shape.cells() => b + cols,
            Move::Left if !b.is_multiple_of(cols) => b - 1,
            Move::Right if b % cols != cols - 1 => b + 1,
            _ => return None,
        };
        Some(self.slide_from(target))
    }

    /// The board after moving the tile in `target` (a neighbour of the
    /// blank) into the blank's cell.
    #[inline]
    pub(crate) fn slide_from(&self, target: usize) -> Board {
        let tile = (self.packed >> (CELL_BITS * target)) & CELL_MASK;
        Board {
            packed: self.packed
                ^ (tile << (CELL_BITS * target))
                ^ (tile << (CELL_BITS * self.blank as usize)),
            shape: self.shape,
            blank: target as u8,
        }
    }

    /// Every move of `metric` from this board, with the board it leads
    /// to: for each direction in the order `u d l r`, the nearest first.
    /// A board has up to four moves in the single-tile metric and
    /// (rows − 1) + (cols − 1) in the multi-tile metric.
    ///
    /// ```
    /// use slidedb::{Board, Metric};
    /// let goal: Board = "1 2 3 4 5 6 7 8 0".parse().unwrap();
    /// let moves: Vec<String> = goal.slides(Metric::Multi).map(|(s, _)| s.to_string()).collect();
    /// assert_eq!(moves, ["u", "uu", "l", "ll"]);
    /// let (_, far) = goal.slides(Metric::Multi).nth(1).unwrap();
    /// assert_eq!(far.to_string(), "1 2 0 4 5 3 7 8 6");
    /// assert_eq!(goal.slides(Metric::Single).count(), 2);
    /// ```
    pub fn slides(&self, metric: Metric) -> Slides {
        Slides {
            metric,
            from: *self,
            at: *self,
            cells: 0,
            direction: 0,
        }
    }

    /// Applies moves in turn; `None` if one leaves the board.
    ///
    /// ```
    /// use slidedb::{Board, Move};
    /// let goal: Board = "1 2 3 4 5 6 7 8 0".parse().unwrap();
    /// let back = goal.apply_all(&[Move::Up, Move::Down]).unwrap();
    /// assert_eq!(back, goal);
    /// ```
    pub fn apply_all(&self, moves: &[Move]) -> Option<Board> {
        moves.iter().try_fold(*self, |b, &m| b.apply(m))
    }

    /// The solvability invariant: the parity of the tiles in reading order
    /// (blank left out) plus (columns − 1) × the blank's row, mod 2. Every
    /// move keeps it; two boards of one shape reach each other exactly when
    /// it is equal.
    pub fn parity(&self) -> u8 {
        let mut inversions = 0u32;
        let mut seen = 0u32;
        let mut rest = self.packed;
        for _ in 0..self.shape.cells() {
            let t = (rest & CELL_MASK) as u32;
            rest >>= CELL_BITS;
            if t != 0 {
                // tiles greater than t already seen stand before it
                inversions += (seen >> (t + 1)).count_ones();
                seen |= 1 << t;
            }
        }
        let row = self.blank() / self.shape.cols();
        ((inversions as usize + (self.shape.cols() - 1) * row) % 2) as u8
    }

    /// Whether `goal` can be reached from this board (same shape, same
    /// [`parity`](Board::parity)). Decided in O(cells), before any search.
    ///
    /// ```
    /// use slidedb::Board;
    /// let goal: Board = "1 2 3 4 5 6 7 8 0".parse().unwrap();
    /// assert!("2 3 4 1 5 x 7 6 8".parse::<Board>().unwrap().can_reach(&goal));
    /// assert!(!"2 1 3 4 5 6 7 8 0".parse::<Board>().unwrap().can_reach(&goal));
    /// ```
    pub fn can_reach(&self, goal: &Board) -> bool {
        self.shape == goal.shape && self.parity() == goal.parity()
    }

    /// The board as a grid, one row a line, the blank as `.`, right-aligned
    /// columns.
    ///
    /// ```
    /// let board: slidedb::Board = "1 2 3 4 5 6 7 8 0".parse().unwrap();
    /// assert_eq!(board.grid(), "1 2 3\n4 5 6\n7 8 .\n");
    /// ```
    pub fn grid(&self) -> String {
        let width = if self.shape.cells() > 10 { 2 } else { 1 };
        let mut out = String::new();
        for r in 0..self.shape.rows() {
            for c in 0..self.shape.cols() {
                if c > 0 {
                    out.push(' ');
                }
                let t = self.tile(r * self.shape.cols() + c);
                if t == 0 {
                    out.push_str(&format!("{:>width$}", "."));
                } else {
                    out.push_str(&format!("{t:>width$}"));
                }
            }
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Board {
    /// The cells in reading order split by spaces, blank as `0`; reads back
    /// with [`Board::parse`] given the shape.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for cell in 0..self.shape.cells() {
            if cell > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}", self.tile(cell))?;
        }
        Ok(())
    }
}

impl std::hash::Hash for Board {
    /// Hashes the packed tiles alone: one word, which already tells apart
    /// any two boards of one shape.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u128(self.packed);
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({} {})", self.shape, self)
    }
}

impl FromStr for Board {
    type Err = BoardError;

    /// [`Board::parse`] with the size taken from the text.
    fn from_str(text: &str) -> Result<Board, BoardError> {
        Board::parse(text, None)
    }
}

/// The value [`parse_cell`] gives a number of more digits than any tile
/// has (out of range on every board): the number itself, as written, is
/// [`Cells::long`].
const LONG_NUMBER: u64 = u64::MAX;

/// Cell values read so far: the first [`MAX_CELLS`] kept, the rest only
/// counted, so that no input, however long, allocates more than the first
/// long number's text, cut as messages show it.
#[derive(Default)]
struct Cells {
    values: [u64; MAX_CELLS],
    len: usize,
    /// The first [`LONG_NUMBER`], as [`shown_token`] shows it.
    long: Option<String>,
}

impl Cells {
    /// Two blanks, or a tile written twice, among the cells kept.
    fn fault(&self) -> Option<BoardError> {
        let values = &self.values[..self.len.min(MAX_CELLS)];
        let blanks = values.iter().filter(|&&v| v == 0).count();
        if blanks > 1 {
            return Some(BoardError::TooManyBlanks { count: blanks });
        }
        values.iter().enumerate().find_map(|(i, &v)| {
            (v != 0 && v <= u8::MAX as u64 && values[..i].contains(&v))
                .then_some(BoardError::DuplicateTile { tile: v as u8 })
        })
    }

    /// Reads one written cell and keeps its value.
    fn push_token(&mut self, token: &str) -> Result<(), BoardError> {
        let value = parse_cell(token)?;
        if value == LONG_NUMBER && self.long.is_none() && self.len < MAX_CELLS {
            self.long = Some(shown_token(token));
        }
        if let Some(slot) = self.values.get_mut(self.len) {
            *slot = value;
        }
        self.len += 1;
        Ok(())
    }
}

/// Splits one row into cell values (blank as 0), appending to `cells`.
fn parse_row(row: &str, cells: &mut Cells) -> Result<(), BoardError> {
    let row = row.trim();
    if row.is_empty() {
        return Err(BoardError::EmptyCell);
    }
    let has_comma = row.contains(',');
    let has_space = row.contains(char::is_whitespace);
    if has_comma {
        for token in row.split(',') {
            let token = token.trim();
            if token.is_empty() {
                return Err(BoardError::EmptyCell);
            }
            if token.contains(char::is_whitespace) {
                return Err(BoardError::MixedSeparators);
            }
            cells.push_token(token)?;
        }
    } else if has_space {
        for token in row.split_whitespace() {
            cells.push_token(token)?;
        }
    } else {
        for ch in row.chars() {
            let mut buf = [0u8; 4];
            cells.push_token(ch.encode_utf8(&mut buf))?;
        }
    }
    Ok(())
}

/// One cell: a number, or a blank mark (as 0); a number of more than
/// three digits (past every tile, however long) is [`LONG_NUMBER`].
fn parse_cell(token: &str) -> Result<u64, BoardError> {
    match token {
        "x" | "X" | "_" | "." => Ok(0),
        // Plain numbers only: no sign, no leading zero (`0` is the blank).
        _ if !token.is_empty()
            && token.bytes().all(|b| b.is_ascii_digit())
            && (token == "0" || !token.starts_with('0')) =>
        {
            Ok(if token.len() <= 3 {
                token.parse().expect("checked digits")
            } else {
                LONG_NUMBER
            })
        }
        _ => Err(BoardError::BadCell {
            token: shown_token(token),
        }),
    }
}

/// The shape of a board of `cells` cells written without a size.
fn infer_shape(cells: usize) -> Result<Shape, BoardError> {
    let shapes = Shape::with_cells(cells);
    if let Some(&square) = shapes.iter().find(|s| s.rows() == s.cols()) {
        return Ok(square);
    }
    match shapes.as_slice() {
        [] if cells == 0 => Err(BoardError::Empty),
        [] => Err(BoardError::NoShape {
            cells,
            hint: if cells > MAX_CELLS {
                "too many cells"
            } else {
                "check the count, or give the size"
            },
        }),
        [one] => Ok(*one),
        many => Err(BoardError::AmbiguousSize {
            cells,
            options: many
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" or "),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A count of one is said in the singular: "1 cell makes", not
    /// "1 cells make".
    #[test]
    fn one_cell_is_said_in_the_singular() {
        let said = |text: &str, shape| Board::parse(text, shape).unwrap_err().to_string();
        assert_eq!(
            said("7", None),
            format!(
                "1 cell makes no board (both sides at least 2, at most {MAX_CELLS} cells): check the count, or give the size"
            )
        );
        assert!(said("1 2 3", None).starts_with("3 cells make no board"));
        assert_eq!(
            said("1/2 0", None),
            "rows of unequal length: row 1 has 1 cell, row 2 has 2"
        );
        assert_eq!(
            said("7", Some(Shape::new(2, 2).unwrap())),
            "1 cell given, but a 2x2 board has 4"
        );
    }

    fn eight(text: &str) -> Board {
        Board::parse(text, None).unwrap()
    }

    #[test]
    fn every_written_form_reads_the_same() {
        let want = eight("2 3 4 1 5 0 7 6 8");
        for text in [
            "2 3 4 1 5 x 7 6 8",
            "23415x768",
            "2,3,4,1,5,_,7,6,8",
            "2, 3, 4, 1, 5, ., 7, 6, 8",
            "234/15X/768",
            "2 3 4 / 1 5 0 / 7 6 8",
            "  2 3 4 1 5 0 7 6 8\t",
        ] {
            assert_eq!(Board::parse(text, None), Ok(want), "{text:?}");
        }
    }

    #[test]
    fn sizes_come_from_flag_rows_or_square_count() {
        let s23 = Shape::new(2, 3).unwrap();
        assert_eq!(
            Board::parse("12/34/50", None).unwrap().shape(),
            Shape::new(3, 2).unwrap()
        );
        assert_eq!(Board::parse("123450", Some(s23)).unwrap().shape(), s23);
        assert!(matches!(
            Board::parse("123450", None),
            Err(BoardError::AmbiguousSize { cells: 6, .. })
        ));
        assert!(matches!(
            Board::parse("12345670", None),
            Err(BoardError::AmbiguousSize { cells: 8, .. })
        ));
        assert!(matches!(
            Board::parse("12/34/50", Some(s23)),
            Err(BoardError::ShapeMismatch { .. })
        ));
        assert_eq!(
            Board::parse("1 2 3 4 5 6 7 8 9 10 11 0", Some(Shape::new(3, 4).unwrap()))
                .unwrap()
                .tile(10),
            11
        );
        assert!(matches!(
            Board::parse("12340", None),
            Err(BoardError::NoShape { .. })
        ));
    }

    #[test]
    fn a_byte_order_mark_is_no_cell() {
        assert_eq!(
            eight("\u{feff}2 3 4 1 5 x 7 6 8"),
            eight("2 3 4 1 5 x 7 6 8")
        );
        assert_eq!(eight("\u{feff}123/456/78x"), eight("123/456/78x"));
    }

    #[test]
    fn a_number_of_any_length_is_out_of_range_as_written() {
        for digits in [4, 19, 20, 26, 100] {
            let number = "9".repeat(digits);
            let shown = shown_token(&number);
            for text in [
                format!("{number} 1 2 3 4 5 6 7 0"),
                format!("1,2,3,4,5,6,7,{number},0"),
                format!("1 2 3 / 4 5 6 / 7 {number} 0"),
            ] {
                let e = Board::parse(&text, None).unwrap_err();
                assert_eq!(
                    e.to_string(),
                    format!("tile {shown} is out of range: a 3x3 board has tiles 1 to 8"),
                    "{text}"
                );
            }
        }
        // Cut only past the stated length, always at the same place.
        let hundred = "1".repeat(100);
        let e = Board::parse(&format!("{hundred} 1 2 3 4 5 6 7 0"), None).unwrap_err();
        assert!(e.to_string().starts_with(&format!(
            "tile {}… is out of range",
            "1".repeat(MAX_SHOWN_TOKEN)
        )));
        let exact = "1".repeat(MAX_SHOWN_TOKEN);
        assert_eq!(shown_token(&exact), exact);
        let e = Board::parse("18446744073709551615 1 2 3 4 5 6 7 0", None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "tile 18446744073709551615 is out of range: a 3x3 board has tiles 1 to 8"
        );
        let e = Board::parse("256 1 2 3 4 5 6 7 8 0", Some(Shape::new(2, 5).unwrap()));
        assert_eq!(
            e.unwrap_err().to_string(),
            "tile 256 is out of range: a 2x5 board has tiles 1 to 9"
        );
        // The first number past the range, in reading order, is the one named.
        let e = Board::parse(
            "1 2 3 4 5 6 7 12345 99999 0",
            Some(Shape::new(2, 5).unwrap()),
        );
        assert!(e.unwrap_err().to_string().starts_with("tile 12345 is"));
        // Leading zeros and signs stay no tile; a long non-number is cut the same way.
        let e = Board::parse(&format!("{} 1 2 3 4 5 6 7 0", "y".repeat(100)), None);
        assert_eq!(
            e.unwrap_err().to_string(),
            format!(
                "{:?} is not a tile: write tiles as numbers and the blank as 0, x, _ or .",
                shown_token(&"y".repeat(100))
            )
        );
    }

    #[test]
    fn invalid_boards_are_named() {
        use BoardError::*;
        type Check = fn(&BoardError) -> bool;
        let cases: &[(&str, Check)] = &[
            ("", |e| matches!(e, Empty)),
            ("1 2 3 4 5 6 7 8", |e| {
                matches!(e, NoShape { .. } | AmbiguousSize { .. })
            }),
            ("1 2 3 4 5 6 7 8 8", |e| matches!(e, NoBlank)),
            ("1 2 3 4 5 6 7 8 0 9 10 11 12", |e| {
                matches!(e, NoShape { cells: 13, .. })
            }),
            ("1 2 3 4 5 6 7 7 0", |e| {
                matches!(e, DuplicateTile { tile: 7 })
            }),
            (
                "1 2 3 4 5 6 7 8 9",
                |e| matches!(e, TileOutOfRange { tile, .. } if tile == "9"),
            ),
            ("1 2 3 4 5 6 7 0 0", |e| {
                matches!(e, TooManyBlanks { count: 2 })
            }),
            ("1 2 3 4 5 6 7 8 y", |e| matches!(e, BadCell { .. })),
            ("1 2 3 4 5 6 7 8 00", |e| matches!(e, BadCell { .. })),
            ("1 2 3 4 5 6 7 08 0", |e| matches!(e, BadCell { .. })),
            ("1 2 3 4 5 6 7 +8 0", |e| matches!(e, BadCell { .. })),
            ("1,,2,3,4,5,6,7,0", |e| matches!(e, EmptyCell)),
            ("12 3,4,5,6,7,8,0", |e| matches!(e, MixedSeparators)),
            ("123/45/678", |e| matches!(e, RaggedRows { row: 2, .. })),
            // Two blanks or a twice-written tile, whatever the size: not
            // "10 cells could be 2x5 or 5x2".
            ("1 2 3 4 5 6 7 8 x x", |e| {
                matches!(e, TooManyBlanks { count: 2 })
            }),
            ("1 2 3 4 5 6 7 7 9 0", |e| {
                matches!(e, DuplicateTile { tile: 7 })
            }),
        ];
        for (text, check) in cases {
            let err = Board::parse(text, None).unwrap_err();
            assert!(check(&err), "{text:?} gave {err:?}");
        }
    }

    /// Cells read in one pass are checked as the careful path checks them:
    /// a tile past the end whose five low bits name a missing tile (32 for
    /// the blank, 33 for tile 1) is still out of range, and each fault is
    /// named as before.
    #[test]
    fn from_tiles_refuses_what_the_one_pass_could_miss() {
        let s = Shape::new(2, 2).unwrap();
        use BoardError::*;
        let t = |tiles: &[u8]| Board::from_tiles(s, tiles);
        assert!(matches!(
            t(&[32, 1, 2, 3]),
            Err(TileOutOfRange { ref tile, .. }) if tile == "32"
        ));
        assert!(matches!(
            t(&[0, 33, 2, 3]),
            Err(TileOutOfRange { ref tile, .. }) if tile == "33"
        ));
        assert!(matches!(
            t(&[0, 1, 2, 4]),
            Err(TileOutOfRange { ref tile, .. }) if tile == "4"
        ));
        assert!(matches!(t(&[0, 0, 2, 3]), Err(TooManyBlanks { count: 2 })));
        assert!(matches!(t(&[1, 1, 2, 3]), Err(NoBlank)));
        assert!(matches!(t(&[0, 2, 2, 3]), Err(DuplicateTile { tile: 2 })));
        assert!(matches!(t(&[0, 1, 2]), Err(WrongCellCount { got: 3, .. })));
        let board = t(&[3, 0, 1, 2]).unwrap();
        assert_eq!(
            (board.blank(), board.to_string()),
            (1, "3 0 1 2".to_string())
        );
    }

    #[test]
    fn moves_slide_the_blank() {
        let b = eight("1 2 3 4 0 5 6 7 8");
        assert_eq!(b.apply(Move::Up).unwrap(), eight("1 0 3 4 2 5 6 7 8"));
        assert_eq!(b.apply(Move::Down).unwrap(), eight("1 2 3 4 7 5 6 0 8"));
        assert_eq!(b.apply(Move::Left).unwrap(), eight("1 2 3 0 4 5 6 7 8"));
        assert_eq!(b.apply(Move::Right).unwrap(), eight("1 2 3 4 5 0 6 7 8"));
        let corner = eight("0 1 2 3 4 5 6 7 8");
        assert!(corner.apply(Move::Up).is_none() && corner.apply(Move::Left).is_none());
        for m in Move::ALL {
            if let Some(n) = b.apply(m) {
                assert_eq!(n.apply(m.inverse()), Some(b));
            }
        }
    }

    #[test]
    fn parity_is_kept_by_moves_and_splits_the_boards() {
        for shape in [
            Shape::new(2, 2).unwrap(),
            Shape::new(2, 3).unwrap(),
            Shape::new(2, 4).unwrap(),
            Shape::EIGHT,
        ] {
            let goal = Board::solved(shape);
            let mut b = goal;
            for i in 0..200 {
                let m = Move::ALL[(i * 7 + i / 3) % 4];
                if let Some(n) = b.apply(m) {
                    assert_eq!(n.parity(), goal.parity(), "{shape}");
                    b = n;
                }
            }
            // swapping two tiles flips it
            let mut tiles: Vec<u8> = goal.tiles().collect();
            tiles.swap(0, 1);
            let swapped = Board::from_tiles(shape, &tiles).unwrap();
            assert!(!swapped.can_reach(&goal));
        }
    }

    #[test]
    fn display_reads_back() {
        let s = Shape::new(3, 4).unwrap();
        let b = Board::solved(s);
        assert_eq!(Board::parse(&b.to_string(), Some(s)), Ok(b));
        assert_eq!(b.grid(), " 1  2  3  4\n 5  6  7  8\n 9 10 11  .\n");
    }
}
