//! The full distance table: built once by [`generate()`], then queried from
//! any bytes — a `Vec`, an embedded slice or a memory map.
//!
//! A table is built for one goal and answers toward it. Its body is laid
//! out by the canonical goal of that goal's class (see
//! [`GoalClass`]), so one table serves, and one file in a data folder
//! holds, every goal of the class: [`Toward`](crate::Toward) answers
//! toward any of them (`Toward::new(table, &goal)`).

mod entries;
pub(crate) mod file;
mod generate;
mod layers;
mod query;
mod save;
pub(crate) mod shards;

use std::path::Path;

pub(crate) use crate::bfs::MAX_HARDEST;
pub use crate::bfs::{GenerateError, Layer, MAX_IN_MEMORY_CELLS};
pub(crate) use entries::{check_entries, check_entries_multi};
pub use generate::{generate, generate_in, generate_two_bit};
pub use layers::RareLayers;
pub use query::{MoveOutcome, PathCount, Probe};
pub use save::{SaveError, merge_shards};
pub use shards::{MANIFEST_NAME, ShardError};

use crate::board::{Adjacency, Board, Metric, Move};
use crate::format::FileError;
use crate::rank::{Index, Indexer};
use crate::solution::{Solution, SolveError, check_shape};
use crate::store::map_file;
use crate::symmetry::{BuiltFor, GoalClass};

/// The most cells a full table has (2×7: 43,589,145,600 states, a
/// 10.9 GB file), built to a file by [`crate::build::build_file`]: the
/// most a complete search covers.
pub const MAX_TABLE_CELLS: usize = crate::bfs::MAX_SEARCH_CELLS;

/// A distance table over every board that can reach one goal: for each
/// [`Index`], the board's distance to the goal mod 3, in 2 bits.
///
/// Neighbouring boards differ in distance by exactly one, so the residue
/// tells which neighbour is one move closer, and the greedy descent from any
/// board is an optimal solution.
///
/// `Table` is generic over its bytes: [`generate()`] builds a
/// `Table<Vec<u8>>`, and [`Table::open_path`] memory-maps a file.
///
/// ```
/// use slidedb::{Board, BuiltFor, Shape, generate, moves_to_string};
/// let goal: Board = "0 1 2 3 4 5 6 7 8".parse().unwrap();
/// let table = generate(&goal, |_| {}).unwrap();
/// assert_eq!(table.goal(), &goal); // it answers toward the goal it was built for
/// let board = Board::parse("7 2 4 5 0 6 8 3 1", None).unwrap();
/// let moves = table.solve(&board).unwrap().moves.expect("solvable");
/// assert_eq!(moves.len(), 26);
/// assert_eq!(board.apply_all(&moves), Some(goal));
/// ```
pub struct Table<D> {
    data: D,
    metadata: file::Metadata,
    class: GoalClass,
    /// The metric of its distances.
    metric: Metric,
    indexer: Indexer,
    adjacency: Adjacency,
    walk: Walk,
    body: std::ops::Range<usize>,
    body_crc: u32,
    /// A sharded table's bodies (then `data` is the manifest, and `body`
    /// its empty body).
    shards: Option<std::sync::Arc<shards::ShardBodies>>,
}

impl<D> std::fmt::Debug for Table<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("goal", &self.class.goal().to_string())
            .field("indexed_goal", &self.class.canonical().to_string())
            .field("states", &self.metadata.states)
            .field("max_distance", &self.metadata.max_distance)
            .field("generator", &self.metadata.generator)
            .finish_non_exhaustive()
    }
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
    pub fn new(data: D) -> Result<Table<D>, FileError> {
        let layout = file::read(data.as_ref())?;
        let indexed = *layout.class.canonical();
        let indexer = Indexer::new(&indexed);
        Ok(Table {
            walk: Walk::new(&indexer, &indexed),
            indexer,
            adjacency: Adjacency::new(indexed.shape()),
            class: layout.class,
            metric: layout.metric,
            metadata: layout.metadata,
            body: layout.body,
            body_crc: layout.body_crc,
            shards: None,
            data,
        })
    }

    /// The same table over other bytes (`data` made from this table's
    /// own, such as a copy).
    pub(crate) fn map_data<E>(self, f: impl FnOnce(D) -> E) -> Table<E> {
        Table {
            data: f(self.data),
            metadata: self.metadata,
            class: self.class,
            metric: self.metric,
            indexer: self.indexer,
            adjacency: self.adjacency,
            walk: self.walk,
            body: self.body,
            body_crc: self.body_crc,
            shards: self.shards,
        }
    }

    /// Whether the table is a directory of shards
    /// ([`Table::open_sharded`]).
    pub(crate) fn is_sharded(&self) -> bool {
        self.shards.is_some()
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
    pub fn verify(&self) -> Result<(), FileError> {
        match &self.shards {
            Some(shards) => shards.verify(),
            None => crate::format::check_body(self.body_bytes(), self.body_crc),
        }
    }

    /// The body's CRC-32, as the header stores it.
    pub(crate) fn body_crc(&self) -> u32 {
        self.body_crc
    }

    /// The bytes the table was opened from (of a sharded table, its
    /// manifest's).
    ///
    /// ```
    /// use slidedb::{Board, Shape, generate};
    /// let table = generate(&Board::solved(Shape::new(2, 2).unwrap()), |_| {}).unwrap();
    /// let len = table.as_bytes().len();
    /// assert_eq!(table.into_inner().len(), len);
    /// ```
    pub fn into_inner(self) -> D {
        self.data
    }

    /// The whole table as bytes: exactly the file's contents (of a sharded
    /// table, its manifest's).
    ///
    /// ```
    /// use slidedb::{Board, Shape, generate};
    /// let table = generate(&Board::solved(Shape::new(2, 2).unwrap()), |_| {}).unwrap();
    /// assert!(table.as_bytes().starts_with(b"SLIDEDB\0"));
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        self.data.as_ref()
    }

    /// The body: the entries (empty for a sharded table: read those by
    /// [`residue`](Table::residue)).
    pub(crate) fn body_bytes(&self) -> &[u8] {
        &self.data.as_ref()[self.body.clone()]
    }

    /// The number of states: cells! / 2.
    ///
    /// ```
    /// use slidedb::{Board, Shape, generate};
    /// assert_eq!(generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap().states(), 181_440);
    /// ```
    pub fn states(&self) -> u64 {
        self.metadata.states
    }

    /// `layers()[d]`: how many states lie `d` moves from the goal (the same
    /// for every goal of the class).
    ///
    /// ```
    /// use slidedb::{Board, Shape, generate};
    /// let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
    /// assert_eq!(table.layers()[..3], [1, 2, 4]);
    /// ```
    pub fn layers(&self) -> &[u64] {
        &self.metadata.layers
    }

    /// The greatest distance of any state (God's number for this goal).
    ///
    /// ```
    /// use slidedb::{Board, Shape, generate};
    /// assert_eq!(generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap().max_distance(), 31);
    /// ```
    pub fn max_distance(&self) -> u32 {
        self.metadata.max_distance
    }

    /// The mean distance over all states.
    ///
    /// ```
    /// use slidedb::{Board, Shape, generate};
    /// let mean = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap().mean_distance();
    /// assert!((mean - 21.97).abs() < 0.01);
    /// ```
    pub fn mean_distance(&self) -> f64 {
        let total: f64 = self
            .layers()
            .iter()
            .enumerate()
            .map(|(d, &c)| d as f64 * c as f64)
            .sum();
        total / self.states() as f64
    }

    /// States at the greatest distance (at most 1000 of them), as boards
    /// toward the goal, in the order of their index.
    ///
    /// ```
    /// use slidedb::{Board, Shape, generate};
    /// let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
    /// let hardest = table.hardest();
    /// assert_eq!(hardest.len(), 2);
    /// assert_eq!(table.distance(&hardest[0]), Ok(Some(31)));
    /// ```
    pub fn hardest(&self) -> Vec<Board> {
        let indexed = self.indexed_goal().shape();
        self.metadata
            .hardest
            .iter()
            .map(|cells| {
                let b = Board::from_tiles(indexed, cells).expect("checked on open");
                self.class.from_canonical(&b)
            })
            .collect()
    }

    /// The program that generated the table, such as `slidedb 0.1.0`.
    ///
    /// ```
    /// use slidedb::{Board, Shape, generate};
    /// let table = generate(&Board::solved(Shape::new(2, 2).unwrap()), |_| {}).unwrap();
    /// assert!(table.generator().starts_with("slidedb "));
    /// ```
    pub fn generator(&self) -> &str {
        &self.metadata.generator
    }

    /// The index the body is laid out by: of the boards toward the
    /// [indexed goal](Table::indexed_goal).
    ///
    /// ```
    /// use slidedb::{Board, Shape, generate};
    /// let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
    /// assert_eq!(table.indexer().len(), table.states());
    /// ```
    pub fn indexer(&self) -> &Indexer {
        &self.indexer
    }

    /// The distance mod 3 stored for `index` (3 for an index past the
    /// end): the entry of the board toward the indexed goal that
    /// [`indexer`](Table::indexer) ranks there.
    #[inline]
    pub(crate) fn residue(&self, index: Index) -> u8 {
        match &self.shards {
            Some(shards) => shards.residue(index.0),
            None => residue_in(self.body_bytes(), index.0),
        }
    }

    /// An optimal solution: the blank's moves from `board` to the goal
    /// (`moves: None` if the board cannot reach the goal).
    ///
    /// ```
    /// use slidedb::{Board, BuiltFor, Shape, generate};
    /// let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
    /// let solved = table.solve(table.goal()).unwrap();
    /// assert_eq!(solved.moves, Some(vec![]));
    /// let swapped: Board = "2 1 3 4 5 6 7 8 0".parse().unwrap();
    /// assert!(!table.solve(&swapped).unwrap().is_solvable());
    /// ```
    pub fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
        let mut moves = Vec::with_capacity(self.max_distance() as usize);
        let solvable = self.solve_into(board, &mut moves)?;
        Ok(Solution {
            moves: solvable.then_some(moves),
            metric: self.metric(),
            stats: None,
        })
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
        self.solve_toward_into(&self.class, board, moves)
    }

    /// Like [`solve_into`](Table::solve_into), toward another goal of the
    /// table's class: `class` is that goal's ([`GoalClass::of`]).
    pub(crate) fn solve_toward_into(
        &self,
        class: &GoalClass,
        board: &Board,
        moves: &mut Vec<Move>,
    ) -> Result<bool, SolveError> {
        let indexed = self.to_indexed(class, board)?;
        let start = moves.len();
        let solvable = self.descend_into(&indexed, moves)?;
        if !class.is_canonical() {
            class.moves_back(&mut moves[start..]);
        }
        Ok(solvable)
    }

    /// The greedy descent from `board`, a board toward the indexed goal:
    /// appends the moves, or leaves `moves` as it was on an error.
    fn descend_into(&self, board: &Board, moves: &mut Vec<Move>) -> Result<bool, SolveError> {
        let start = moves.len();
        let descended = self.descend(board, |mv| moves.push(mv));
        if descended.is_err() {
            moves.truncate(start);
        }
        Ok(descended?.is_some())
    }

    /// The greedy descent from `board`, a board toward the indexed goal:
    /// calls `step` with each move, and returns the distance (`None` when
    /// the board cannot reach the goal). Allocates nothing.
    pub(crate) fn descend(
        &self,
        board: &Board,
        step: impl FnMut(Move),
    ) -> Result<Option<u32>, SolveError> {
        // Of the goal's shape and parity, or it cannot reach the goal.
        let Some(start) = self.indexer.rank_in_one_pass(board) else {
            return Ok(None);
        };
        if self.metric == Metric::Multi {
            return self.descend_multi(board, start, step);
        }
        let ix = &self.indexer;
        let Some(shards) = &self.shards else {
            // One copy of the walk per common size, its rank unrolled.
            let body = self.body_bytes();
            let residue = |index| residue_in(body, index);
            return match ix.shape().cells() - 1 {
                8 => self.descend_by(board, start, step, residue, |n, b| {
                    ix.rank_nibbles_of::<8>(n, b)
                }),
                11 => self.descend_by(board, start, step, residue, |n, b| {
                    ix.rank_nibbles_of::<11>(n, b)
                }),
                _ => self.descend_by(board, start, step, residue, |n, b| ix.rank_nibbles(n, b).0),
            };
        };
        self.descend_by(
            board,
            start,
            step,
            |index| shards.residue(index),
            |n, b| ix.rank_nibbles(n, b).0,
        )
    }

    /// [`descend`](Table::descend) from a board that can reach the goal,
    /// whose index is `start`, reading each entry with `residue` and
    /// ranking with `rank` (of a board's nibbles and blank cell).
    ///
    /// The board walks as a `u64` of four bits a cell ([`Board::nibbles`])
    /// and is known by its index (the goal by its own): a step slides one
    /// nibble, and ranks the board only for a vertical move (a horizontal
    /// one moves the index by ± m!/2). The moves are tried in the order
    /// `u d l r`, the move back left out; the first one closer is taken
    /// (weighing all four at once, with no branch on the entries, ranks
    /// both vertical neighbours every step, and is slower).
    #[inline(always)]
    fn descend_by(
        &self,
        board: &Board,
        start: Index,
        mut step: impl FnMut(Move),
        residue: impl Fn(u64) -> u8,
        rank: impl Fn(u64, usize) -> u64,
    ) -> Result<Option<u32>, SolveError> {
        let shape = board.shape();
        let damaged = |nibbles: u64, why: &'static str| {
            let board = Board::from_nibbles(shape, nibbles)
                .map_or_else(|_| format!("{nibbles:#x}"), |b| b.to_string());
            Err(SolveError::Damaged { board, why })
        };
        let goal = self.walk.goal;
        let per_blank = self.indexer.per_blank();
        let max_distance = self.max_distance();
        let mut here = board.nibbles();
        let mut blank = board.blank();
        let mut index = start.0;
        let mut entry = residue(index);
        let mut came_by: Option<Move> = None;
        let mut distance = 0;
        while index != goal {
            if entry > 2 {
                return damaged(here, "its entry holds no distance");
            }
            if distance >= max_distance {
                return damaged(here, "the path grew longer than the greatest distance");
            }
            let closer = (entry + 2) % 3;
            let found = self.adjacency.from(blank).iter().find_map(|&(mv, target)| {
                if came_by == Some(mv.inverse()) {
                    return None; // that neighbour is one farther
                }
                let target = target as usize;
                let tile = (here >> (4 * target)) & 0xF;
                let next = here ^ (tile << (4 * target)) ^ (tile << (4 * blank));
                let next_index = match mv {
                    Move::Left => index - per_blank,
                    Move::Right => index + per_blank,
                    Move::Up | Move::Down => rank(next, target),
                };
                (residue(next_index) == closer).then_some((mv, next, target, next_index))
            });
            let Some((mv, next, target, next_index)) = found else {
                return damaged(here, "no move leads one closer");
            };
            step(mv);
            distance += 1;
            here = next;
            blank = target;
            index = next_index;
            entry = closer;
            came_by = Some(mv);
        }
        Ok(Some(distance))
    }

    /// [`descend`](Table::descend) in the multi-tile metric, from a board
    /// that can reach the goal, whose index is `start`: each step takes the
    /// first slide (in the order `u d l r`, nearest first) whose board's
    /// entry says one closer, and shows its cells one by one. A neighbour
    /// here is one closer, as far, or one farther, three residues mod 3.
    fn descend_multi(
        &self,
        board: &Board,
        start: Index,
        mut step: impl FnMut(Move),
    ) -> Result<Option<u32>, SolveError> {
        let damaged = |board: &Board, why: &'static str| {
            Err(SolveError::Damaged {
                board: board.to_string(),
                why,
            })
        };
        let mut here = *board;
        let mut index = start;
        let mut entry = self.residue(index);
        let mut distance = 0;
        while index.0 != self.walk.goal {
            if entry > 2 {
                return damaged(&here, "its entry holds no distance");
            }
            if distance >= self.max_distance() {
                return damaged(&here, "the path grew longer than the greatest distance");
            }
            let closer = (entry + 2) % 3;
            let found = here.slides(Metric::Multi).find_map(|(slide, next)| {
                let next_index = self.indexer.rank_unchecked(&next);
                (self.residue(next_index) == closer).then_some((slide, next, next_index))
            });
            let Some((slide, next, next_index)) = found else {
                return damaged(&here, "no move leads one closer");
            };
            slide.steps().for_each(&mut step);
            distance += 1;
            here = next;
            index = next_index;
            entry = closer;
        }
        Ok(Some(distance))
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
        self.distance_toward(&self.class, board)
    }

    /// Like [`distance`](Table::distance), toward another goal of the
    /// table's class: `class` is that goal's ([`GoalClass::of`]).
    /// Allocates nothing.
    pub(crate) fn distance_toward(
        &self,
        class: &GoalClass,
        board: &Board,
    ) -> Result<Option<u32>, SolveError> {
        let board = self.to_indexed(class, board)?;
        self.descend(&board, |_| {})
    }

    /// `board`, a board toward `class`'s goal, as the board toward the
    /// indexed goal at the same distance; refuses another class or shape.
    pub(crate) fn to_indexed(&self, class: &GoalClass, board: &Board) -> Result<Board, SolveError> {
        if class.canonical() != self.class.canonical() {
            return Err(SolveError::OtherClass {
                goal: class.goal().to_string(),
                served: self.goal().to_string(),
            });
        }
        check_shape(class.goal().shape(), board.shape())?;
        Ok(if class.is_canonical() {
            *board
        } else {
            class.to_canonical(board)
        })
    }
}

impl Table<Vec<u8>> {
    /// Opens a sharded table: the directory a distributed build wrote
    /// (its shards brought together), with `manifest.slidedb` and a shard
    /// file per worker. It checks the manifest and each shard against it
    /// (run, range, length and CRC-32 as listed) in time independent of
    /// the bodies' size, and memory-maps the shards; [`Table::verify`]
    /// checks the bodies. It answers as the merged table does.
    pub(crate) fn open_sharded(dir: &Path) -> Result<Table<Vec<u8>>, ShardError> {
        let (manifest, bodies, bytes) = shards::open_shards(dir, false)?;
        let class = manifest.goals.class().expect("a checked manifest");
        let indexed = *class.canonical();
        let metric = crate::goals::metric_of(manifest.metric).expect("a checked manifest");
        let metadata = metadata(
            &class,
            metric,
            manifest.layers.clone(),
            &shards::hardest_boards(&manifest),
        );
        let end = bytes.len();
        let indexer = Indexer::new(&indexed);
        Ok(Table {
            walk: Walk::new(&indexer, &indexed),
            indexer,
            adjacency: Adjacency::new(indexed.shape()),
            class,
            metric,
            metadata,
            body: end..end,
            body_crc: bodies.crc(),
            shards: Some(std::sync::Arc::new(bodies)),
            data: bytes,
        })
    }
}

impl Table<memmap2::Mmap> {
    /// Memory-maps a table file and opens it with [`Table::new`] (the body
    /// checksum is not checked; see [`Table::verify`]). As for any map, a file changed in place by another program while it is mapped changes
    /// what the map reads, and one truncated in place makes reads past its
    /// new end fault (SIGBUS), the risk of every memory-mapped reader;
    /// slidedb itself only renames new files over old ones.
    ///
    /// ```
    /// use slidedb::{Board, Shape, Table, generate, write_atomic};
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("2x3.slidedb");
    /// let built = generate(&Board::solved(Shape::new(2, 3).unwrap()), |_| {}).unwrap();
    /// write_atomic(&path, built.as_bytes(), false).unwrap();
    /// let mapped = Table::open_path(&path).unwrap();
    /// assert_eq!(mapped.max_distance(), 21);
    /// ```
    pub fn open_path(path: &Path) -> Result<Table<memmap2::Mmap>, FileError> {
        Table::new(map_file(path)?)
    }
}

/// What the table's descent knows of its goal, made once per table.
#[derive(Clone, Debug)]
struct Walk {
    /// The indexed goal's index: the descent ends there.
    goal: u64,
}

impl Walk {
    fn new(indexer: &Indexer, goal: &Board) -> Walk {
        Walk {
            goal: indexer.rank_unchecked(goal).0,
        }
    }
}

/// The entry for `index` in a body of 2-bit entries, four a byte (3 past
/// the end).
#[inline(always)]
fn residue_in(body: &[u8], index: u64) -> u8 {
    match body.get((index / 4) as usize) {
        Some(byte) => (byte >> (2 * (index % 4))) & 3,
        None => 3,
    }
}

/// Builds the table bytes from a finished search toward `class`'s
/// canonical goal; the table answers toward `class`'s goal.
pub(crate) fn assemble(
    class: &GoalClass,
    metric: Metric,
    layers: Vec<u64>,
    hardest: &[Board],
    body: &[u8],
) -> Table<Vec<u8>> {
    let metadata = metadata(class, metric, layers, hardest);
    Table::new(file::write(&metadata, body)).expect("a generated table is valid")
}

/// The metadata of a finished search in `metric` toward `class`'s
/// canonical goal.
pub(crate) fn metadata(
    class: &GoalClass,
    metric: Metric,
    layers: Vec<u64>,
    hardest: &[Board],
) -> file::Metadata {
    file::Metadata {
        generator: concat!("slidedb ", env!("CARGO_PKG_VERSION")).to_string(),
        goals: crate::goals::Goals::new(class),
        states: class.goal().shape().table_states(),
        max_distance: layers.len() as u32 - 1,
        layers,
        hardest: hardest
            .iter()
            .take(MAX_HARDEST)
            .map(|b| b.tiles().collect())
            .collect(),
        metric: crate::goals::metric_byte(metric),
    }
}

impl<D: AsRef<[u8]>> BuiltFor for Table<D> {
    fn class(&self) -> &GoalClass {
        &self.class
    }

    fn metric(&self) -> Metric {
        self.metric
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;

    #[test]
    fn a_generated_table_is_not_sharded() {
        let table = generate(&Board::solved(Shape::new(2, 3).unwrap()), |_| {}).unwrap();
        assert!(!table.is_sharded());
    }

    #[test]
    fn the_goal_is_at_residue_zero() {
        let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
        let at_goal = table.indexer().rank(table.indexed_goal()).unwrap();
        assert_eq!(table.residue(at_goal), 0);
    }

    #[test]
    #[cfg(feature = "cluster")]
    fn a_sharded_table_reads_as_the_table() {
        use crate::build::{search_distributed, write_shards};
        let dir = tempfile::tempdir().unwrap();
        let goal = Board::solved(Shape::new(3, 3).unwrap());
        write_shards(
            dir.path(),
            &goal,
            &search_distributed(&goal, 3, |_| {}).unwrap(),
        )
        .unwrap();
        let sharded = Table::open_sharded(dir.path()).unwrap();
        sharded.verify().unwrap();
        let board: Board = "8 6 7 2 5 4 3 0 1".parse().unwrap();
        assert_eq!(sharded.distance(&board).unwrap(), Some(31));
    }
}
