//! Additive pattern databases: the exact-table idea applied to groups of
//! tiles, for boards too big for a full table (the 15-puzzle).
//!
//! A pattern is a group of tiles. Its database stores, for every placement
//! of those tiles (the other tiles unlabelled), the fewest moves *of the
//! group's own tiles* that bring them home, with the blank anywhere: a
//! breadth-first search in which moving another tile costs nothing.
//! Because each move moves one tile, the values of disjoint groups add up
//! to an estimate that never exceeds the true distance, and IDA* under it
//! finds optimal solutions ([`PatternDb::solve`]).
//!
//! A [`PatternDb`] is built once ([`build()`]), written in the table file
//! family (kind 2 in `FORMAT.md`), and memory-mapped back
//! ([`PatternDb::open_path`]); like [`crate::Table`] it is generic over its
//! bytes.
//!
//! ```
//! use slidedb::{Board, Shape, pdb};
//! let goal = Board::solved(Shape::EIGHT);
//! let partition = pdb::Partition::standard(&goal, "4-4").unwrap();
//! let db = pdb::build(&goal, &partition, |_| {});
//! let board: Board = "8 6 7 2 5 4 3 0 1".parse().unwrap();
//! assert!(db.estimate(&board) <= 31);
//! let found = db.solve(&board).unwrap();
//! assert_eq!(found.moves.unwrap().len(), 31);
//! ```

mod build;
mod ida;

use std::path::Path;

use crate::board::{Board, MAX_CELLS, Shape};
use crate::format::{self, PatternMetadata, Section, TableError};
use crate::rank::{placement_count, placement_rank};
use crate::solver::Solution;
use crate::table::SolveError;

/// The most tiles in one group: 16!/8! = 518,918,400 one-byte entries.
pub const MAX_GROUP_TILES: usize = 8;

/// Why a partition is not usable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// A tile outside the board, the blank, or a tile in two groups.
    #[error("bad partition: {0}")]
    Tiles(String),
    /// A group too big to hold.
    #[error(
        "a group of {tiles} tiles on {shape} would have {placements} entries; groups have at most {MAX_GROUP_TILES} tiles"
    )]
    TooLarge {
        /// The shape.
        shape: Shape,
        /// Tiles in the group.
        tiles: usize,
        /// Entries it would have.
        placements: u64,
    },
    /// A partition written as group sizes that do not fit the board.
    #[error("bad partition {spec:?}: {why}")]
    Sizes {
        /// What was written.
        spec: String,
        /// What is wrong with it.
        why: String,
    },
}

/// Disjoint groups of tiles, named by the goal they are built toward.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    groups: Vec<Vec<u8>>,
}

impl Partition {
    /// Groups of tiles of `shape`: each non-empty, at most
    /// [`MAX_GROUP_TILES`] tiles, no tile twice, no blank. They need not
    /// cover every tile (the rest count nothing). Each group is sorted.
    ///
    /// ```
    /// use slidedb::{Shape, pdb::Partition};
    /// assert!(Partition::new(Shape::EIGHT, vec![vec![1, 2, 3, 4], vec![8, 7, 6, 5]]).is_ok());
    /// assert!(Partition::new(Shape::EIGHT, vec![vec![1, 2], vec![2, 3]]).is_err());
    /// ```
    pub fn new(shape: Shape, mut groups: Vec<Vec<u8>>) -> Result<Partition, PatternError> {
        let n = shape.cells();
        let mut used = [false; MAX_CELLS];
        if groups.is_empty() {
            return Err(PatternError::Tiles("no groups".into()));
        }
        for g in &mut groups {
            g.sort_unstable();
            if g.is_empty() {
                return Err(PatternError::Tiles("an empty group".into()));
            }
            if g.len() > MAX_GROUP_TILES {
                return Err(PatternError::TooLarge {
                    shape,
                    tiles: g.len(),
                    placements: placement_count(n, g.len()),
                });
            }
            for &t in g.iter() {
                if t == 0 || t as usize >= n {
                    return Err(PatternError::Tiles(format!(
                        "tile {t}: the tiles of {shape} are 1 to {}",
                        n - 1
                    )));
                }
                if std::mem::replace(&mut used[t as usize], true) {
                    return Err(PatternError::Tiles(format!("tile {t} is in two groups")));
                }
            }
        }
        Ok(Partition { groups })
    }

    /// The partition named by its group sizes, such as `6-6-3`, `7-8` or
    /// `5-5-5` on 4×4: the sizes must add up to the tiles. The 15-puzzle's
    /// are the published ones (Korf and Felner), laid on the goal's cells;
    /// other boards and goals take the goal's tiles in reading order of
    /// their cells, the first group first.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb::Partition};
    /// let goal = Board::solved(Shape::new(4, 4).unwrap()); // 1 2 … 15 0
    /// let p = Partition::standard(&goal, "7-8").unwrap();
    /// assert_eq!(p.groups(), [vec![9, 10, 11, 12, 13, 14, 15], (1..=8).collect::<Vec<u8>>()]);
    /// assert!(Partition::standard(&goal, "6-6").is_err());
    /// ```
    pub fn standard(goal: &Board, spec: &str) -> Result<Partition, PatternError> {
        let shape = goal.shape();
        let n = shape.cells();
        let bad = |why: String| PatternError::Sizes {
            spec: spec.to_string(),
            why,
        };
        let sizes: Vec<usize> = spec
            .split('-')
            .map(|s| {
                s.parse::<usize>()
                    .ok()
                    .filter(|&k| (1..=MAX_GROUP_TILES).contains(&k) && !s.starts_with('+'))
                    .ok_or_else(|| {
                        bad(format!(
                            "{s:?} is not a group size (1 to {MAX_GROUP_TILES}); write sizes like 6-6-3"
                        ))
                    })
            })
            .collect::<Result<_, _>>()?;
        let total: usize = sizes.iter().sum();
        if total != n - 1 {
            return Err(bad(format!(
                "the sizes add up to {total}, but {shape} has {} tiles",
                n - 1
            )));
        }
        // The published 15-puzzle partitions, as cells of the goal with
        // the blank at the bottom right (the canonical corner goal).
        let normalized: Vec<String> = sizes.iter().map(usize::to_string).collect();
        let cells: Option<Vec<Vec<usize>>> =
            if shape.rows() == 4 && shape.cols() == 4 && goal.blank() == 15 {
                match normalized.join("-").as_str() {
                    "7-8" => Some(vec![(8..15).collect(), (0..8).collect()]),
                    "8-7" => Some(vec![(0..8).collect(), (8..15).collect()]),
                    "6-6-3" => Some(vec![
                        vec![0, 1, 4, 5, 8, 9],
                        vec![3, 6, 7, 10, 11, 14],
                        vec![2, 12, 13],
                    ]),
                    "5-5-5" => Some(vec![
                        vec![0, 1, 4, 5, 8],
                        vec![2, 3, 6, 7, 11],
                        vec![9, 10, 12, 13, 14],
                    ]),
                    _ => None,
                }
            } else {
                None
            };
        let cells = cells.unwrap_or_else(|| {
            let order: Vec<usize> = (0..n).filter(|&c| c != goal.blank()).collect();
            let mut at = 0;
            sizes
                .iter()
                .map(|&k| {
                    at += k;
                    order[at - k..at].to_vec()
                })
                .collect()
        });
        let groups = cells
            .iter()
            .map(|g| g.iter().map(|&c| goal.tile(c)).collect())
            .collect();
        Partition::new(shape, groups)
    }

    /// The groups, each ascending.
    pub fn groups(&self) -> &[Vec<u8>] {
        &self.groups
    }

    /// The group sizes joined by `-`, such as `6-6-3`.
    ///
    /// ```
    /// use slidedb::{Shape, pdb::Partition};
    /// let p = Partition::new(Shape::EIGHT, vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]]).unwrap();
    /// assert_eq!(p.sizes(), "4-4");
    /// ```
    pub fn sizes(&self) -> String {
        let sizes: Vec<String> = self.groups.iter().map(|g| g.len().to_string()).collect();
        sizes.join("-")
    }
}

/// One step of a build, for progress lines: the placements of group
/// `group` first reached at `depth` moves of its tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The group, as numbered in the partition.
    pub group: usize,
    /// Its tiles.
    pub tiles: usize,
    /// The depth just finished.
    pub depth: u32,
    /// Placements first reached at that depth.
    pub placements: u64,
}

/// Builds the databases of every group of `partition` toward `goal`, one
/// group after another (each group's search runs on every core), calling
/// `progress` once per depth of each.
///
/// ```
/// use slidedb::{Board, Shape, pdb};
/// let goal = Board::solved(Shape::new(2, 4).unwrap());
/// let partition = pdb::Partition::standard(&goal, "4-3").unwrap();
/// let mut depths = 0;
/// let db = pdb::build(&goal, &partition, |_| depths += 1);
/// assert_eq!(db.estimate(&goal), 0);
/// assert!(depths > 2);
/// ```
pub fn build(
    goal: &Board,
    partition: &Partition,
    mut progress: impl FnMut(Progress),
) -> PatternDb<Vec<u8>> {
    let n = goal.shape().cells();
    let total: u64 = partition
        .groups
        .iter()
        .map(|g| placement_count(n, g.len()))
        .sum();
    let mut body = Vec::with_capacity(total as usize);
    let mut layers = Vec::new();
    for (group, tiles) in partition.groups.iter().enumerate() {
        let distances = build::group_distances(goal, tiles, &mut |depth, placements| {
            progress(Progress {
                group,
                tiles: tiles.len(),
                depth,
                placements,
            })
        });
        let mut counts = Vec::new();
        for &d in &distances {
            if counts.len() <= d as usize {
                counts.resize(d as usize + 1, 0u64);
            }
            counts[d as usize] += 1;
        }
        layers.push(counts);
        body.extend_from_slice(&distances);
    }
    let metadata = PatternMetadata {
        generator: concat!("slidedb ", env!("CARGO_PKG_VERSION")).to_string(),
        rows: goal.shape().rows() as u8,
        cols: goal.shape().cols() as u8,
        goal: goal.tiles().collect(),
        groups: partition.groups.clone(),
        layers,
    };
    PatternDb::new(format::encode_pattern(&metadata, &body))
        .expect("a built pattern database is valid")
}

/// Additive pattern databases toward one goal: for each group of tiles,
/// one byte per placement of its tiles.
///
/// Generic over its bytes, like [`crate::Table`]: [`build()`] makes a
/// `PatternDb<Vec<u8>>`, [`PatternDb::open_path`] memory-maps a file.
pub struct PatternDb<D> {
    data: D,
    goal: Board,
    partition: Partition,
    metadata: PatternMetadata,
    /// The body range of each group's entries.
    ranges: Vec<std::ops::Range<usize>>,
    body: std::ops::Range<usize>,
    body_crc: u32,
}

impl<D: AsRef<[u8]>> PatternDb<D> {
    /// Opens pattern databases from their bytes, checking everything but
    /// the body's checksum, in time independent of the body's size. Call
    /// [`verify`](PatternDb::verify) to check the body.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let built = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {});
    /// let copy = pdb::PatternDb::new(built.as_bytes().to_vec()).unwrap();
    /// assert_eq!(copy.partition(), built.partition());
    /// assert!(pdb::PatternDb::new(&b"not a table"[..]).is_err());
    /// ```
    pub fn new(data: D) -> Result<PatternDb<D>, TableError> {
        let layout = format::decode_pattern(data.as_ref())?;
        let n = layout.goal.shape().cells();
        let partition = Partition::new(layout.goal.shape(), layout.metadata.groups.clone())
            .map_err(|e| TableError::Metadata {
                what: e.to_string(),
            })?;
        let mut at = layout.body.start;
        let ranges = partition
            .groups
            .iter()
            .map(|g| {
                let len = placement_count(n, g.len()) as usize;
                at += len;
                at - len..at
            })
            .collect();
        let db = PatternDb {
            goal: layout.goal,
            partition,
            metadata: layout.metadata,
            ranges,
            body: layout.body,
            body_crc: layout.header.body_crc,
            data,
        };
        // The goal must read 0 in every group, or IDA* would never accept
        // it: one byte a group, checked on every open.
        for g in 0..db.partition.groups.len() {
            let home = db.entries(g)[db.home_rank(g)];
            if home != 0 {
                return Err(TableError::Layout {
                    what: format!("group {}'s entry for the goal is {home}, not 0", g + 1),
                });
            }
        }
        Ok(db)
    }

    /// The rank of group `g`'s placement in the goal.
    fn home_rank(&self, g: usize) -> usize {
        let n = self.shape().cells();
        let mut cells = [0u8; MAX_GROUP_TILES];
        for (slot, &t) in self.partition.groups[g].iter().enumerate() {
            cells[slot] = (0..n)
                .find(|&c| self.goal.tile(c) == t)
                .expect("every tile") as u8;
        }
        placement_rank(&cells[..self.partition.groups[g].len()], n) as usize
    }

    /// Checks the body: its checksum, and that each group's entries are
    /// spread over the values as the metadata's layer counts say. O(body);
    /// [`PatternDb::new`] checks neither.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let built = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {});
    /// let mut bytes = built.as_bytes().to_vec();
    /// *bytes.last_mut().unwrap() ^= 1;
    /// assert!(pdb::PatternDb::new(bytes).unwrap().verify().is_err());
    /// ```
    pub fn verify(&self) -> Result<(), TableError> {
        let computed = crc32fast::hash(&self.data.as_ref()[self.body.clone()]);
        if computed != self.body_crc {
            return Err(TableError::Checksum {
                section: Section::Body,
                stored: self.body_crc,
                computed,
            });
        }
        for g in 0..self.partition.groups.len() {
            let mut counts = [0u64; 256];
            for &d in self.entries(g) {
                counts[d as usize] += 1;
            }
            let layers = self.layers(g);
            if counts[..layers.len()] != *layers || counts[layers.len()..].iter().any(|&c| c > 0) {
                return Err(TableError::Metadata {
                    what: format!(
                        "group {}'s entries are not spread as its layer counts say",
                        g + 1
                    ),
                });
            }
        }
        Ok(())
    }

    /// The whole file's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.data.as_ref()
    }

    /// The bytes it was opened from.
    pub fn into_inner(self) -> D {
        self.data
    }

    /// The board size.
    pub fn shape(&self) -> Shape {
        self.goal.shape()
    }

    /// The goal every estimate is toward.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The groups.
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// The program that built it, such as `slidedb 0.1.0`.
    pub fn generator(&self) -> &str {
        &self.metadata.generator
    }

    /// `layers(g)[d]`: placements of group `g` (below the partition's
    /// length) whose entry is `d`.
    pub fn layers(&self, group: usize) -> &[u64] {
        &self.metadata.layers[group]
    }

    /// Group `group`'s entries (`group` below the partition's length),
    /// indexed by
    /// [`placement_rank`] of its tiles' cells
    /// (in ascending tile order).
    #[inline]
    pub fn entries(&self, group: usize) -> &[u8] {
        &self.data.as_ref()[self.ranges[group].clone()]
    }

    /// The sum of the groups' entries for `board`: never more than its
    /// distance to the goal.
    ///
    /// # Panics
    ///
    /// If `board` is not of this shape.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let db = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {});
    /// let board: Board = "2 1 3 4 5 6 7 8 0".parse().unwrap();
    /// assert!(db.estimate(&board) >= 2); // 1 and 2 must pass each other
    /// ```
    pub fn estimate(&self, board: &Board) -> u32 {
        assert_eq!(
            board.shape(),
            self.shape(),
            "a board of the databases' shape"
        );
        let n = self.shape().cells();
        let mut cell_of = [0u8; MAX_CELLS];
        for c in 0..n {
            cell_of[board.tile(c) as usize] = c as u8;
        }
        self.partition
            .groups
            .iter()
            .enumerate()
            .map(|(g, tiles)| {
                let mut cells = [0u8; MAX_GROUP_TILES];
                for (slot, &t) in tiles.iter().enumerate() {
                    cells[slot] = cell_of[t as usize];
                }
                self.entries(g)[placement_rank(&cells[..tiles.len()], n) as usize] as u32
            })
            .sum()
    }

    /// An optimal solution of `board` by IDA*, under the larger of the
    /// groups' sum and the same sum over the board's mirror images (the
    /// symmetries that keep the goal's blank in place, such as the
    /// diagonal through a corner or centre blank on a square). Allocates
    /// nothing per node. A board that cannot reach the goal is answered at
    /// once from its parity; an error means the databases are damaged
    /// (they let no path through within 1000 moves).
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let db = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {});
    /// let found = db.solve(&"2 3 4 1 5 x 7 6 8".parse().unwrap()).unwrap();
    /// assert_eq!(found.moves.unwrap().len(), 19);
    /// assert_eq!(db.solve(&"2 1 3 4 5 6 7 8 0".parse().unwrap()).unwrap().moves, None);
    /// ```
    pub fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
        if board.shape() != self.shape() {
            return Err(SolveError::WrongShape {
                table: self.shape(),
                board: board.shape(),
            });
        }
        if !board.can_reach(&self.goal) {
            return Ok(Solution {
                moves: None,
                stats: Default::default(),
            });
        }
        let groups: Vec<(&[u8], &[u8])> = self
            .partition
            .groups
            .iter()
            .enumerate()
            .map(|(g, tiles)| (tiles.as_slice(), self.entries(g)))
            .collect();
        match ida::Search::new(&self.goal, &groups).solve(board) {
            Some((moves, stats)) => Ok(Solution {
                moves: Some(moves),
                stats,
            }),
            None => Err(SolveError::Damaged {
                board: board.to_string(),
                why: "the pattern databases let no path through within 1000 moves",
            }),
        }
    }
}

impl PatternDb<memmap2::Mmap> {
    /// Memory-maps a pattern database file and opens it with
    /// [`PatternDb::new`] (the body checksum is not checked; see
    /// [`PatternDb::verify`]).
    pub fn open_path(path: &Path) -> Result<PatternDb<memmap2::Mmap>, TableError> {
        PatternDb::new(crate::table::map_file(path)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate;
    use crate::rank::{Index, Indexer};
    use crate::solver::Solver;

    /// On every 3x3 board the additive estimate never exceeds the true
    /// distance, is at least Manhattan's, and is exact somewhere far away.
    #[test]
    fn additive_estimates_are_admissible_on_every_eight_puzzle() {
        let goal = Board::solved(Shape::EIGHT);
        let table = generate(&goal, |_| {}).unwrap();
        let db = build(&goal, &Partition::standard(&goal, "4-4").unwrap(), |_| {});
        let solver = Solver::new(&goal);
        let indexer = Indexer::new(&goal);
        let mut exact_far = 0;
        for i in 0..indexer.len() {
            let board = indexer.unrank(Index(i)).unwrap();
            let d = table.distance(&board).unwrap().unwrap();
            let h = db.estimate(&board);
            assert!(h <= d, "{board:?}: estimate {h} > distance {d}");
            assert!(h >= solver.manhattan(&board), "{board:?}");
            if h == d && d >= 20 {
                exact_far += 1;
            }
        }
        assert!(exact_far > 0);
    }

    #[test]
    fn standard_partitions_cover_every_tile_once() {
        let four = Shape::new(4, 4).unwrap();
        for goal in [
            Board::solved(four),
            Board::parse("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", Some(four)).unwrap(),
        ] {
            for spec in ["7-8", "8-7", "6-6-3", "5-5-5", "4-4-4-3"] {
                let p = Partition::standard(&goal, spec).unwrap();
                let mut all: Vec<u8> = p.groups().concat();
                all.sort_unstable();
                assert_eq!(all, (1..=15).collect::<Vec<u8>>(), "{spec}");
                assert_eq!(p.sizes(), spec);
            }
        }
        let goal = Board::solved(Shape::EIGHT);
        for bad in ["4-5", "9", "4-4-0", "a-b", "", "+4-4", "4--4"] {
            assert!(Partition::standard(&goal, bad).is_err(), "{bad}");
        }
    }
}
