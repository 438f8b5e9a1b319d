//! What every front end asks, read one way: the command line, the server
//! and the Python package take a question's parts as text or numbers and
//! hand them here, so that the same question gets the same answer, the
//! same checks in the same order and the same error everywhere.
//!
//! - A size and a goal from text ([`parse_size`], [`parse_goal`]), and the
//!   goal a board is answered toward ([`goal_for`]).
//! - A distance as a number of moves or `max` ([`Distance`]), and the
//!   distances a draw takes: one, a range, or none ([`Distances`]).
//! - Random boards, with a seed or from the clock ([`seed`],
//!   [`RandomBoards`]).
//! - The batch contract: one board a line, lines of at most [`MAX_LINE`]
//!   bytes, an over-long line echoed as its first [`PREVIEW`] bytes
//!   ([`read_line`], [`echo`], [`split_lines`]).
//!
//! Messages name no command-line option or command: each front end adds
//! its own way to fix what went wrong.
//!
//! ```
//! use slidedb::Database;
//! use slidedb::request::{Distances, RandomBoards, goal_for, parse_size};
//!
//! let db = Database::in_memory().open().unwrap();
//! let shape = parse_size("3x3").unwrap();
//! let goal = goal_for(&db, shape, None).unwrap();
//! let distances = Distances::exactly("max".parse().unwrap());
//! let boards = RandomBoards::new(&db, &goal, &distances, 7, true).unwrap();
//! for drawn in boards.take(2) {
//!     let (_board, distance) = drawn.unwrap();
//!     assert_eq!(distance, Some(31));
//! }
//! ```

use std::ops::RangeInclusive;
use std::str::FromStr;

use crate::board::{Board, BoardError, MAX_CELLS, Shape};
use crate::database::{Database, DatabaseError, Toward};
use crate::random::{SplitMix64, random_board};
use crate::solution::SolveError;
use crate::store::Bytes;
use crate::table::{MAX_TABLE_CELLS, Table};

/// The longest line of a batch (stdin, a request body): a longer one is
/// answered as invalid.
pub const MAX_LINE: usize = 64 * 1024;

/// How much of an over-long line is kept, to show in answers and messages.
pub const PREVIEW: usize = 64;

/// Why a question cannot be asked: what was wrong with it, or what the
/// database could not do.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RequestError {
    /// A size that is not `ROWSxCOLS` of a size slidedb knows.
    #[error("{}", bad_size(text, why))]
    BadSize {
        /// The text given.
        text: String,
        /// Why it is no size (part of this message, so not its source).
        why: BoardError,
    },
    /// A goal that is not a board.
    #[error("bad goal {text:?}: {why}")]
    BadGoal {
        /// The text given.
        text: String,
        /// Why it is no board (part of this message, so not its source).
        why: BoardError,
    },
    /// A distance that is neither a number nor `max`.
    #[error("bad distance {text:?}: a number of moves, or max")]
    BadDistance {
        /// The text given.
        text: String,
    },
    /// A board and a goal of different sizes.
    #[error("the board is {board} but the goal is {goal}")]
    ShapeMismatch {
        /// The board's size.
        board: Shape,
        /// The goal's size.
        goal: Shape,
    },
    /// One distance and a range, both given.
    #[error("give one distance, or a least and a greatest distance, not both")]
    DistanceAndRange,
    /// A least distance above the greatest.
    #[error(
        "the least distance {least} is more than the greatest {greatest}: no distance lies between"
    )]
    EmptyRange {
        /// The least distance, as given.
        least: String,
        /// The greatest, as given (`max` as the farthest).
        greatest: String,
    },
    /// A distance past the farthest boards.
    #[error(
        "no {} board is {distance} moves from goal {goal}: the farthest are {farthest} moves away",
        goal.shape()
    )]
    TooFar {
        /// The distance asked for, as given.
        distance: String,
        /// The goal.
        goal: Board,
        /// The farthest boards' distance.
        farthest: u32,
    },
    /// No board at the distances asked for (a range between layers).
    #[error("no {} board lies {least} to {greatest} moves from goal {goal}", goal.shape())]
    NoBoard {
        /// The least distance.
        least: u32,
        /// The greatest.
        greatest: u32,
        /// The goal.
        goal: Board,
    },
    /// What the database could not do.
    #[error(transparent)]
    Database(#[from] DatabaseError),
    /// A table that failed while answering.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// The message of a bad size: the board module's, which names the text.
fn bad_size(text: &str, why: &BoardError) -> String {
    let message = why.to_string();
    if message.starts_with("bad size") {
        message
    } else {
        format!("bad size {text:?}: {message}")
    }
}

/// Reads a size, `ROWSxCOLS`.
///
/// ```
/// use slidedb::request::parse_size;
/// assert_eq!(parse_size("4x4").unwrap().cells(), 16);
/// assert!(parse_size("4 by 4").unwrap_err().to_string().starts_with("bad size"));
/// ```
pub fn parse_size(text: &str) -> Result<Shape, RequestError> {
    text.parse().map_err(|why| RequestError::BadSize {
        text: text.to_string(),
        why,
    })
}

/// Reads a goal, as a board of `size` when one is in force.
///
/// ```
/// use slidedb::request::parse_goal;
/// assert_eq!(parse_goal("0 1 2 / 3 4 5 / 6 7 8", None).unwrap().to_string(), "0 1 2 3 4 5 6 7 8");
/// assert!(parse_goal("1 2 3", None).unwrap_err().to_string().starts_with("bad goal \"1 2 3\""));
/// ```
pub fn parse_goal(text: &str, size: Option<Shape>) -> Result<Board, RequestError> {
    Board::parse(text, size).map_err(|why| RequestError::BadGoal {
        text: text.to_string(),
        why,
    })
}

/// The goal boards of `shape` are answered toward: `goal` if one was asked
/// for (it must be of that shape), else the database's default for the
/// shape ([`Database::default_goal`]).
///
/// ```
/// use slidedb::{Board, Database, Shape};
/// use slidedb::request::goal_for;
/// let db = Database::in_memory().open().unwrap();
/// assert_eq!(goal_for(&db, Shape::EIGHT, None).unwrap(), Board::solved(Shape::EIGHT));
/// let error = goal_for(&db, Shape::new(2, 3).unwrap(), Some(Board::solved(Shape::EIGHT)));
/// assert_eq!(error.unwrap_err().to_string(), "the board is 2x3 but the goal is 3x3");
/// ```
pub fn goal_for(db: &Database, shape: Shape, goal: Option<Board>) -> Result<Board, RequestError> {
    match goal {
        Some(goal) if goal.shape() != shape => Err(RequestError::ShapeMismatch {
            board: shape,
            goal: goal.shape(),
        }),
        Some(goal) => Ok(goal),
        None => Ok(db.default_goal(shape)),
    }
}

/// A distance as a user gives it: a number of moves, or `max` for the
/// farthest boards.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Distance {
    /// This many moves.
    Moves(u32),
    /// The farthest boards' distance.
    Max,
    /// A number past any distance (more than `u32::MAX`), kept as written
    /// for messages: no board is that far.
    Beyond(String),
}

impl FromStr for Distance {
    type Err = RequestError;

    /// Reads `31`, `max` (in any case), or a number too big for a distance.
    ///
    /// ```
    /// use slidedb::request::Distance;
    /// assert_eq!("31".parse::<Distance>().unwrap(), Distance::Moves(31));
    /// assert_eq!("MAX".parse::<Distance>().unwrap(), Distance::Max);
    /// assert!(matches!("99999999999".parse::<Distance>().unwrap(), Distance::Beyond(_)));
    /// assert!("far".parse::<Distance>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<Distance, RequestError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("max") {
            return Ok(Distance::Max);
        }
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(RequestError::BadDistance {
                text: text.to_string(),
            });
        }
        Ok(match t.parse::<u32>() {
            Ok(d) => Distance::Moves(d),
            Err(_) => Distance::Beyond(t.trim_start_matches('0').to_string()),
        })
    }
}

impl Distance {
    /// A distance of `moves` (any number: past `u32::MAX` it is
    /// [`Distance::Beyond`]).
    ///
    /// ```
    /// use slidedb::request::Distance;
    /// assert_eq!(Distance::from_moves(20), Distance::Moves(20));
    /// assert_eq!(Distance::from_moves(1 << 40), Distance::Beyond((1u64 << 40).to_string()));
    /// ```
    pub fn from_moves(moves: u64) -> Distance {
        match u32::try_from(moves) {
            Ok(d) => Distance::Moves(d),
            Err(_) => Distance::Beyond(moves.to_string()),
        }
    }

    /// The number of moves, `max` being `farthest`; `None` past any
    /// distance.
    pub(crate) fn moves(&self, farthest: u32) -> Option<u32> {
        match self {
            Distance::Moves(d) => Some(*d),
            Distance::Max => Some(farthest),
            Distance::Beyond(_) => None,
        }
    }

    /// The distance as messages write it: the number (`max` as
    /// `farthest`).
    ///
    /// ```
    /// use slidedb::request::Distance;
    /// assert_eq!(Distance::Max.text(31), "31");
    /// ```
    pub fn text(&self, farthest: u32) -> String {
        match self {
            Distance::Beyond(text) => text.clone(),
            d => d.moves(farthest).unwrap_or(farthest).to_string(),
        }
    }

    /// The number of moves toward `goal`, whose farthest boards are
    /// `farthest` away; past them is an error.
    ///
    /// ```
    /// use slidedb::{Board, Shape};
    /// use slidedb::request::Distance;
    /// let goal = Board::solved(Shape::EIGHT);
    /// assert_eq!(Distance::Max.within(&goal, 31).unwrap(), 31);
    /// let error = Distance::Moves(32).within(&goal, 31).unwrap_err();
    /// assert!(error.to_string().ends_with("the farthest are 31 moves away"));
    /// ```
    pub fn within(&self, goal: &Board, farthest: u32) -> Result<u32, RequestError> {
        match self.moves(farthest) {
            Some(d) if d <= farthest => Ok(d),
            _ => Err(RequestError::TooFar {
                distance: self.text(farthest),
                goal: *goal,
                farthest,
            }),
        }
    }
}

/// The distances a draw takes: exactly one, a range (either end may be
/// left open), or, with none given, every board that reaches the goal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Distances {
    /// Exactly this distance.
    pub exact: Option<Distance>,
    /// At least this far (0 if open).
    pub least: Option<Distance>,
    /// At most this far (the farthest if open).
    pub greatest: Option<Distance>,
}

impl Distances {
    /// Exactly `distance`.
    ///
    /// ```
    /// use slidedb::request::{Distance, Distances};
    /// assert_eq!(Distances::exactly(Distance::Max).exact, Some(Distance::Max));
    /// ```
    pub fn exactly(distance: Distance) -> Distances {
        Distances {
            exact: Some(distance),
            ..Distances::default()
        }
    }

    /// From `least` to `greatest` (either end open).
    ///
    /// ```
    /// use slidedb::{Board, Shape, request::{Distance, Distances}};
    /// let d = Distances::between(Some(Distance::Moves(3)), None);
    /// assert_eq!(d.range(&Board::solved(Shape::EIGHT), 31).unwrap(), 3..=31);
    /// ```
    pub fn between(least: Option<Distance>, greatest: Option<Distance>) -> Distances {
        Distances {
            exact: None,
            least,
            greatest,
        }
    }

    /// Whether any distance is given (a draw then needs the full table).
    pub(crate) fn is_ranged(&self) -> bool {
        self.exact.is_some() || self.least.is_some() || self.greatest.is_some()
    }

    /// Checks what was given without a table: one distance and a range
    /// are not both given.
    ///
    /// ```
    /// use slidedb::request::{Distance, Distances};
    /// let both = Distances { exact: Some(Distance::Moves(5)), least: Some(Distance::Moves(3)), greatest: None };
    /// assert!(both.check().is_err());
    /// ```
    pub fn check(&self) -> Result<(), RequestError> {
        if self.exact.is_some() && (self.least.is_some() || self.greatest.is_some()) {
            return Err(RequestError::DistanceAndRange);
        }
        Ok(())
    }

    /// The range of distances toward `goal`, whose farthest boards are
    /// `farthest` away. In this order: one distance and a range are not
    /// both given; a least distance above a greatest one given is an empty
    /// range; a least (or exact) distance past the farthest boards is too
    /// far. An open greatest end is the farthest.
    ///
    /// ```
    /// use slidedb::{Board, Shape};
    /// use slidedb::request::{Distance, Distances};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let open = Distances::between(Some(Distance::Moves(30)), None);
    /// assert_eq!(open.range(&goal, 31).unwrap(), 30..=31);
    /// let empty = Distances::between(Some(Distance::Moves(9)), Some(Distance::Moves(3)));
    /// assert!(empty.range(&goal, 31).unwrap_err().to_string().starts_with("the least distance 9"));
    /// ```
    pub fn range(&self, goal: &Board, farthest: u32) -> Result<RangeInclusive<u32>, RequestError> {
        self.check()?;
        let (least, greatest) = match &self.exact {
            Some(d) => (d, Some(d)),
            None => (
                self.least.as_ref().unwrap_or(&Distance::Moves(0)),
                self.greatest.as_ref(),
            ),
        };
        if let Some(greatest) = greatest
            && self.exact.is_none()
        {
            let beyond = match (least.moves(farthest), greatest.moves(farthest)) {
                (Some(lo), Some(hi)) => lo > hi,
                (None, Some(_)) => true,
                // Past any distance: the greatest end is no bound.
                (_, None) => false,
            };
            if beyond {
                return Err(RequestError::EmptyRange {
                    least: least.text(farthest),
                    greatest: greatest.text(farthest),
                });
            }
        }
        let lo = least.within(goal, farthest)?;
        let hi = greatest
            .and_then(|g| g.moves(farthest))
            .map_or(farthest, |hi| hi.min(farthest));
        Ok(lo..=hi)
    }
}

/// The seed of a draw: the one given, else one from the clock and the
/// process (two draws a moment apart differ).
///
/// ```
/// assert_eq!(slidedb::request::seed(Some(5)), 5);
/// ```
pub fn seed(given: Option<u64>) -> u64 {
    given.unwrap_or_else(|| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        now.as_nanos() as u64 ^ (std::process::id() as u64) << 32
    })
}

/// Boards drawn uniformly at random toward a goal, each independently:
/// at the [`Distances`] asked for (from the full table), or among every
/// board that reaches the goal (a shuffle, which needs no table). Each
/// comes with its distance when it is known: always at a distance, and
/// among all boards when asked for and the goal's table can be had.
///
/// ```
/// use slidedb::{Board, Database, Shape};
/// use slidedb::request::{Distances, RandomBoards};
/// let db = Database::in_memory().open().unwrap();
/// let goal = Board::solved(Shape::new(4, 4).unwrap());
/// // Among all 15-puzzles: no table, no distance.
/// let drawn: Vec<_> = RandomBoards::new(&db, &goal, &Distances::default(), 1, true)
///     .unwrap()
///     .take(3)
///     .collect::<Result<_, _>>()
///     .unwrap();
/// assert!(drawn.iter().all(|(board, distance)| board.shape() == goal.shape() && distance.is_none()));
/// ```
#[derive(Debug)]
pub struct RandomBoards {
    db: Database,
    goal: Board,
    rng: SplitMix64,
    /// The distances drawn among, or none for every board.
    range: Option<RangeInclusive<u32>>,
    /// The table that tells each board's distance, if one is looked up.
    table: Option<Toward<Table<Bytes>>>,
}

impl RandomBoards {
    /// Draws toward `goal` at `distances`, from `seed` ([`seed`]);
    /// `with_distance` asks for each board's distance where no distance is
    /// given. Fails before any board when the distances cannot be had.
    ///
    /// ```
    /// use slidedb::{Board, Database, Shape};
    /// use slidedb::request::{Distance, Distances, RandomBoards};
    /// let db = Database::in_memory().open().unwrap();
    /// let goal = Board::solved(Shape::EIGHT);
    /// let far = Distances::exactly(Distance::Moves(32));
    /// assert!(RandomBoards::new(&db, &goal, &far, 1, false).is_err());
    /// ```
    pub fn new(
        db: &Database,
        goal: &Board,
        distances: &Distances,
        seed: u64,
        with_distance: bool,
    ) -> Result<RandomBoards, RequestError> {
        distances.check()?;
        let (range, table) = if distances.is_ranged() {
            let table = db.table_for("a random board at a distance", goal)?;
            let range = distances.range(goal, table.get().max_distance())?;
            (Some(range), Some(table))
        } else if with_distance && goal.shape().cells() <= MAX_TABLE_CELLS {
            (None, db.table_for("a distance", goal).ok())
        } else {
            (None, None)
        };
        Ok(RandomBoards {
            db: db.clone(),
            goal: *goal,
            rng: SplitMix64::new(seed),
            range,
            table,
        })
    }

    /// The next board and its distance, if known.
    fn draw(&mut self) -> Result<(Board, Option<u32>), RequestError> {
        let Some(range) = self.range.clone() else {
            let board = random_board(&self.goal, &mut self.rng);
            let distance = match &self.table {
                Some(table) => table.distance(&board)?,
                None => None,
            };
            return Ok((board, distance));
        };
        let board = self
            .db
            .random(&self.goal, range.clone(), &mut self.rng)?
            .ok_or(RequestError::NoBoard {
                least: *range.start(),
                greatest: *range.end(),
                goal: self.goal,
            })?;
        let distance = if range.start() == range.end() {
            Some(*range.start())
        } else {
            match &self.table {
                Some(table) => table.distance(&board)?,
                None => None,
            }
        };
        Ok((board, distance))
    }
}

impl Iterator for RandomBoards {
    type Item = Result<(Board, Option<u32>), RequestError>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(self.draw())
    }
}

/// Why a line of a batch is not a board.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LineError {
    /// Longer than [`MAX_LINE`].
    #[error("the line is longer than {MAX_LINE} bytes")]
    TooLong,
    /// Not UTF-8.
    #[error("the line is not UTF-8 text")]
    NotText,
    /// A NUL byte.
    #[error("the line holds a NUL byte")]
    Nul,
    /// Text, but no board.
    #[error(transparent)]
    Board(#[from] BoardError),
}

/// Reads one line of a batch as a board of `size` (when one is in force):
/// a line ending `\r\n` is read without the `\r`; `too_long` says the line
/// was cut (a reader that keeps only a preview of over-long lines).
///
/// ```
/// use slidedb::request::read_line;
/// assert_eq!(read_line(b"1 2 3 4 5 6 7 8 0\r", false, None).unwrap().to_string(), "1 2 3 4 5 6 7 8 0");
/// assert_eq!(read_line(b"1 2 \0", false, None).unwrap_err().to_string(), "the line holds a NUL byte");
/// ```
pub fn read_line(bytes: &[u8], too_long: bool, size: Option<Shape>) -> Result<Board, LineError> {
    if too_long || bytes.len() > MAX_LINE {
        return Err(LineError::TooLong);
    }
    let line = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    if let Some(board) = read_plain(line, size) {
        return Ok(board);
    }
    let text = std::str::from_utf8(line).map_err(|_| LineError::NotText)?;
    if text.contains('\0') {
        return Err(LineError::Nul);
    }
    Ok(Board::parse(text, size)?)
}

/// The board of a line in the commonest form, one character a cell split
/// by single spaces (`2 3 4 1 5 x 7 6 8`) or not split at all
/// (`23415x768`), read without the general parser; `None` for any other
/// line, and for a line in that form that is not a board (the general
/// parser then reads it, and names what is wrong). Where it answers, it
/// answers as [`Board::parse`] does: the size in force, else a square
/// count (4 or 9 cells).
fn read_plain(line: &[u8], size: Option<Shape>) -> Option<Board> {
    let spaced = line.get(1) == Some(&b' ');
    let count = if spaced {
        line.len().div_ceil(2)
    } else {
        line.len()
    };
    if count > MAX_CELLS || (spaced && line.len().is_multiple_of(2)) {
        return None;
    }
    let mut tiles = [0u8; MAX_CELLS];
    for (i, &byte) in line.iter().enumerate() {
        if spaced && i % 2 == 1 {
            if byte != b' ' {
                return None;
            }
            continue;
        }
        tiles[if spaced { i / 2 } else { i }] = match byte {
            b'0'..=b'9' => byte - b'0',
            b'x' | b'X' | b'_' | b'.' => 0,
            _ => return None,
        };
    }
    let shape = match (size, count) {
        (Some(shape), _) => shape,
        (None, 4) => Shape::new(2, 2).ok()?,
        (None, 9) => Shape::EIGHT,
        _ => return None,
    };
    if count != shape.cells() {
        return None;
    }
    Board::from_tiles(shape, &tiles[..count]).ok()
}

/// A line as an answer echoes it: as text (bytes that are not UTF-8
/// replaced), without a final `\r`, and an over-long one cut to its first
/// [`PREVIEW`] bytes.
///
/// ```
/// use slidedb::request::echo;
/// assert_eq!(echo(b"1 2 3\r"), "1 2 3");
/// assert_eq!(echo(&vec![b'7'; 100_000]).len(), 64);
/// ```
pub fn echo(bytes: &[u8]) -> String {
    let shown = if bytes.len() > MAX_LINE {
        &bytes[..PREVIEW]
    } else {
        bytes
    };
    String::from_utf8_lossy(shown)
        .trim_end_matches('\r')
        .to_string()
}

/// A batch's lines: split at each newline; a last piece after the last
/// newline is a line when it is not empty.
///
/// ```
/// use slidedb::request::split_lines;
/// assert_eq!(split_lines(b"a\nb\n").len(), 2);
/// assert_eq!(split_lines(b"a\n\nb").len(), 3);
/// ```
pub fn split_lines(body: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = body.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_distance_in_moves() {
        assert_eq!(Distance::Max.moves(31), Some(31));
        assert_eq!(Distance::Moves(5).moves(31), Some(5));
    }

    #[test]
    fn no_distances_is_no_range() {
        assert!(!Distances::default().is_ranged());
        assert!(Distances::between(Some(Distance::Moves(3)), None).is_ranged());
    }
}
