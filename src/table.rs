//! The distance table: built once, then queried from any bytes — a `Vec`,
//! an embedded slice or a memory map.

use std::path::Path;

use crate::board::{Adjacency, Board, Move, Shape};
use crate::format::{self, Metadata, Section, TableError};
use crate::rank::{Index, Indexer};

/// Why a board could not be answered from a table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The board is not of the table's size.
    #[error("the board is {board} but the table is for {table}")]
    WrongShape {
        /// The table's shape.
        table: Shape,
        /// The board's shape.
        board: Shape,
    },
    /// The descent met an entry that cannot be right: the table's body is
    /// damaged (this cannot happen on a table whose checksum holds).
    #[error("the table is damaged at {board}: {why}; regenerate it with slidedb-gen --force")]
    Damaged {
        /// Where the descent stopped, cells in reading order.
        board: String,
        /// What was wrong there.
        why: &'static str,
    },
}

/// A distance table over every board that can reach one goal: for each
/// [`Index`], the board's distance to the goal mod 3, in 2 bits.
///
/// Neighbouring boards differ in distance by exactly one, so the residue
/// tells which neighbour is one move closer, and the greedy descent from any
/// board is an optimal solution.
///
/// `Table` is generic over its bytes: [`generate`](fn@crate::generate) builds a
/// `Table<Vec<u8>>`, and [`Table::open_path`] memory-maps a file.
///
/// ```
/// use slidedb::{Board, Shape, generate, moves_to_string};
/// let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
/// let board = Board::parse("2 3 4 1 5 x 7 6 8", None).unwrap();
/// let moves = table.solve(&board).unwrap().expect("solvable");
/// assert_eq!(moves.len(), 19);
/// assert_eq!(board.apply_all(&moves), Some(*table.goal()));
/// # let _ = moves_to_string(&moves);
/// ```
pub struct Table<D> {
    data: D,
    metadata: Metadata,
    goal: Board,
    indexer: Indexer,
    adjacency: Adjacency,
    body: std::ops::Range<usize>,
    body_crc: u32,
}

impl<D: AsRef<[u8]>> Table<D> {
    /// Opens a table from its bytes, checking everything but the body's
    /// checksum (magic, version, layout, metadata) in time independent of
    /// the body's size. Call [`verify`](Table::verify) to check the body.
    ///
    /// ```
    /// use slidedb::{Board, Shape, Table, generate};
    /// let built = generate(&Board::solved(Shape::new(2, 3).unwrap()), |_| {}).unwrap();
    /// let copy = Table::new(built.as_bytes().to_vec()).unwrap();
    /// assert_eq!(copy.layers(), built.layers());
    /// assert!(Table::new(&b"not a table"[..]).is_err());
    /// ```
    pub fn new(data: D) -> Result<Table<D>, TableError> {
        let layout = format::decode(data.as_ref())?;
        Ok(Table {
            indexer: Indexer::new(&layout.goal),
            adjacency: Adjacency::new(layout.goal.shape()),
            goal: layout.goal,
            metadata: layout.metadata,
            body: layout.body,
            body_crc: layout.header.body_crc,
            data,
        })
    }

    /// Checks the body's checksum: O(body). [`Table::new`] does not.
    ///
    /// ```
    /// use slidedb::{Board, Shape, Table, generate};
    /// let built = generate(&Board::solved(Shape::new(2, 3).unwrap()), |_| {}).unwrap();
    /// let mut bytes = built.as_bytes().to_vec();
    /// *bytes.last_mut().unwrap() ^= 1;
    /// let damaged = Table::new(bytes).unwrap();
    /// assert!(damaged.verify().is_err());
    /// ```
    pub fn verify(&self) -> Result<(), TableError> {
        let computed = crc32fast::hash(self.body_bytes());
        if computed != self.body_crc {
            return Err(TableError::Checksum {
                section: Section::Body,
                stored: self.body_crc,
                computed,
            });
        }
        Ok(())
    }

    /// The bytes the table was opened from.
    pub fn into_inner(self) -> D {
        self.data
    }

    /// The whole table as bytes: exactly the file's contents.
    pub fn as_bytes(&self) -> &[u8] {
        self.data.as_ref()
    }

    fn body_bytes(&self) -> &[u8] {
        &self.data.as_ref()[self.body.clone()]
    }

    /// The board size.
    pub fn shape(&self) -> Shape {
        self.goal.shape()
    }

    /// The goal every distance is measured to.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The number of states: cells! / 2.
    pub fn states(&self) -> u64 {
        self.metadata.states
    }

    /// `layers()[d]`: how many states lie `d` moves from the goal.
    pub fn layers(&self) -> &[u64] {
        &self.metadata.layers
    }

    /// The greatest distance of any state (God's number for this goal).
    pub fn max_distance(&self) -> u32 {
        self.metadata.max_distance
    }

    /// The mean distance over all states.
    pub fn mean_distance(&self) -> f64 {
        let total: f64 = self
            .layers()
            .iter()
            .enumerate()
            .map(|(d, &c)| d as f64 * c as f64)
            .sum();
        total / self.states() as f64
    }

    /// States at the greatest distance (at most 1000 of them), in index
    /// order.
    pub fn hardest(&self) -> Vec<Board> {
        self.metadata
            .hardest
            .iter()
            .map(|cells| Board::from_tiles(self.shape(), cells).expect("checked on open"))
            .collect()
    }

    /// The program that generated the table, such as `slidedb 0.1.0`.
    pub fn generator(&self) -> &str {
        &self.metadata.generator
    }

    /// The index this table is laid out by.
    pub fn indexer(&self) -> &Indexer {
        &self.indexer
    }

    /// The distance mod 3 stored for `index` (3 for an index past the end).
    #[inline]
    pub fn residue(&self, index: Index) -> u8 {
        match self.body_bytes().get((index.0 / 4) as usize) {
            Some(byte) => (byte >> (2 * (index.0 % 4))) & 3,
            None => 3,
        }
    }

    /// An optimal solution: the blank's moves from `board` to the goal, or
    /// `None` if the board cannot reach the goal.
    ///
    /// ```
    /// use slidedb::{Board, Shape, generate, moves_to_string};
    /// let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
    /// let solved = table.solve(table.goal()).unwrap().unwrap();
    /// assert!(solved.is_empty());
    /// let swapped: Board = "2 1 3 4 5 6 7 8 0".parse().unwrap();
    /// assert_eq!(table.solve(&swapped), Ok(None));
    /// ```
    pub fn solve(&self, board: &Board) -> Result<Option<Vec<Move>>, SolveError> {
        let mut moves = Vec::new();
        Ok(self.solve_into(board, &mut moves)?.then_some(moves))
    }

    /// Like [`solve`](Table::solve), but appends the moves to `moves` (no
    /// allocation once it has grown) and returns whether the board is
    /// solvable. On an error `moves` is left as it was.
    ///
    /// ```
    /// use slidedb::{Board, Shape, generate};
    /// let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
    /// let mut moves = Vec::new();
    /// let board: Board = "1 2 3 4 5 6 7 0 8".parse().unwrap();
    /// assert_eq!(table.solve_into(&board, &mut moves), Ok(true));
    /// assert_eq!(moves, [slidedb::Move::Right]);
    /// ```
    pub fn solve_into(&self, board: &Board, moves: &mut Vec<Move>) -> Result<bool, SolveError> {
        if board.shape() != self.shape() {
            return Err(SolveError::WrongShape {
                table: self.shape(),
                board: board.shape(),
            });
        }
        if !board.can_reach(&self.goal) {
            return Ok(false);
        }
        let start = moves.len();
        let damaged = |moves: &mut Vec<Move>, at: &Board, why: &'static str| {
            moves.truncate(start);
            Err(SolveError::Damaged {
                board: at.to_string(),
                why,
            })
        };
        let per_blank = self.indexer.per_blank();
        let mut here = *board;
        let mut index = self.indexer.rank_unchecked(&here);
        let mut residue = self.residue(index);
        let mut came_by: Option<Move> = None;
        while here != self.goal {
            if residue > 2 {
                return damaged(moves, &here, "its entry holds no distance");
            }
            if moves.len() - start >= self.max_distance() as usize {
                return damaged(
                    moves,
                    &here,
                    "the path grew longer than the greatest distance",
                );
            }
            let closer = (residue + 2) % 3;
            let step = self
                .adjacency
                .from(here.blank())
                .iter()
                .find_map(|&(mv, target)| {
                    if came_by == Some(mv.inverse()) {
                        return None; // that neighbour is one farther
                    }
                    let next = here.slide_from(target as usize);
                    let next_index = match mv {
                        Move::Left => Index(index.0 - per_blank),
                        Move::Right => Index(index.0 + per_blank),
                        Move::Up | Move::Down => self.indexer.rank_unchecked(&next),
                    };
                    (self.residue(next_index) == closer).then_some((mv, next, next_index))
                });
            let Some((mv, next, next_index)) = step else {
                return damaged(moves, &here, "no move leads one closer");
            };
            moves.push(mv);
            here = next;
            index = next_index;
            residue = closer;
            came_by = Some(mv);
        }
        Ok(true)
    }

    /// The distance from `board` to the goal, or `None` if it cannot reach
    /// it: the length of the greedy descent, O(distance).
    ///
    /// ```
    /// use slidedb::{Board, Shape, generate};
    /// let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
    /// let hardest: Board = "8 6 7 2 5 4 3 0 1".parse().unwrap();
    /// assert_eq!(table.distance(&hardest), Ok(Some(31)));
    /// ```
    pub fn distance(&self, board: &Board) -> Result<Option<u32>, SolveError> {
        let mut moves = Vec::with_capacity(self.max_distance() as usize);
        Ok(self
            .solve_into(board, &mut moves)?
            .then_some(moves.len() as u32))
    }
}

impl Table<memmap2::Mmap> {
    /// Memory-maps a table file and opens it with [`Table::new`] (the body
    /// checksum is not checked; see [`Table::verify`]).
    pub fn open_path(path: &Path) -> Result<Table<memmap2::Mmap>, TableError> {
        Table::new(map_file(path)?)
    }
}

/// Memory-maps a regular file read-only (a FIFO or directory is refused
/// before it is opened: opening a FIFO would block forever).
pub(crate) fn map_file(path: &Path) -> Result<memmap2::Mmap, TableError> {
    let io = |source| TableError::Io {
        path: path.to_path_buf(),
        source,
    };
    let kind = std::fs::metadata(path).map_err(io)?.file_type();
    if !kind.is_file() {
        let what = if kind.is_dir() {
            "is a directory"
        } else {
            "is not a regular file"
        };
        return Err(io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            what,
        )));
    }
    let file = std::fs::File::open(path).map_err(io)?;
    // SAFETY: the map is read-only, and slidedb replaces table files only
    // by renaming a new file over them, so a map keeps the old file's
    // bytes. A file truncated in place by another program could still
    // fault; that is the documented risk of memory-mapping.
    unsafe { memmap2::Mmap::map(&file) }.map_err(io)
}

/// Builds the table bytes from a finished search.
pub(crate) fn assemble(
    goal: &Board,
    layers: Vec<u64>,
    hardest: &[Board],
    body: &[u8],
) -> Table<Vec<u8>> {
    let metadata = Metadata {
        generator: concat!("slidedb ", env!("CARGO_PKG_VERSION")).to_string(),
        rows: goal.shape().rows() as u8,
        cols: goal.shape().cols() as u8,
        goal: goal.tiles().collect(),
        states: goal.shape().states(),
        max_distance: layers.len() as u32 - 1,
        layers,
        hardest: hardest
            .iter()
            .take(format::MAX_HARDEST)
            .map(|b| b.tiles().collect())
            .collect(),
    };
    Table::new(format::encode(&metadata, body)).expect("a generated table is valid")
}
