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
//! bytes, answers toward the goal it was built for, and is laid out by the
//! canonical goal of that goal's class, so that it serves every goal of the
//! class.
//!
//! ```
//! use slidedb::{Board, Shape, pdb};
//! let goal = Board::solved(Shape::EIGHT);
//! let partition = pdb::Partition::standard(&goal, "4-4").unwrap();
//! let db = pdb::build(&goal, &partition, |_| {}).unwrap();
//! let board: Board = "8 6 7 2 5 4 3 0 1".parse().unwrap();
//! assert!(db.estimate(&board).unwrap() <= 31);
//! let found = db.solve(&board).unwrap();
//! assert_eq!(found.moves.unwrap().len(), 31);
//! ```

mod aware;
mod build;
pub(crate) mod file;
mod ida;

pub(crate) use build::{group_distances, mirrored_distances, search_bytes};

use std::ops::ControlFlow;
use std::path::Path;

use crate::board::{Board, MAX_CELLS, Metric, Move, Shape};
use crate::format::FileError;
use crate::rank::{placement_count, placement_rank};
use crate::search::Stats;
use crate::solution::{Solution, SolveError, check_shape};
use crate::store::map_file;
use crate::symmetry::{BuiltFor, GoalClass};

/// The most tiles in one group (8 tiles on 16 cells: 16!/8! =
/// 518,918,400 one-byte entries).
pub(crate) const MAX_GROUP_TILES: usize = 8;

/// The most entries a group built in memory ([`build()`]) may have:
/// 518,918,400, the 8 tiles of 16 cells (on 25 cells, 6 tiles have
/// 127,512,000). Larger groups are built to a file, one group at a time
/// (`slidedb::build::build_patterns_file`). A group's search takes
/// `2^⌈log2(r)⌉ / 4 + 1` bytes an entry, where `r` is the most regions a
/// placement's free cells fall into: 3 for 8 tiles on 16 cells (r = 8),
/// for 6 tiles on 25 (r = 5) and for 7 on 25 (r = 6).
pub(crate) const MAX_GROUP_ENTRIES: u64 = 518_918_400;

/// The most placements a group may have: 2,422,728,000, the 7 tiles of
/// 25 cells (ranks fit a `u32` where databases are read; a search of
/// that size holds 7.27 GB).
pub(crate) const MAX_SEARCH_ENTRIES: u64 = 2_422_728_000;

/// Why a partition is not usable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PatternError {
    /// A tile outside the board, the blank, or a tile in two groups.
    #[error("bad partition: {0}")]
    Tiles(String),
    /// A group too big to hold.
    #[error(
        "a group of {tiles} tiles on {shape} would have {placements} entries; groups have at most {MAX_GROUP_TILES} tiles and {MAX_SEARCH_ENTRIES} entries: split it"
    )]
    TooLarge {
        /// The shape.
        shape: Shape,
        /// Tiles in the group.
        tiles: usize,
        /// Entries it would have.
        placements: u64,
    },
    /// A group too big to build in memory: it is built to a file.
    #[error(
        "a group of {tiles} tiles on {shape} has {placements} entries, more than a build in memory holds ({MAX_GROUP_ENTRIES}); build the databases to a file, one group at a time (build::build_patterns_file)"
    )]
    InMemory {
        /// The shape.
        shape: Shape,
        /// Tiles in the group.
        tiles: usize,
        /// Its entries.
        placements: u64,
    },
    /// Blank-aware entries of a group too big to build in memory, the
    /// only way they are built.
    #[error(
        "a group of {tiles} tiles on {shape} has {placements} placements, more than a build of blank-aware entries holds ({MAX_GROUP_ENTRIES}; they are built in memory only): use smaller groups, or plain entries"
    )]
    BlankAwareTooLarge {
        /// The shape.
        shape: Shape,
        /// Tiles in the group.
        tiles: usize,
        /// Its placements.
        placements: u64,
    },
    /// A partition of another board size than the goal's.
    #[error("the partition is of {partition} tiles, but the goal is {goal}")]
    Shape {
        /// The partition's board size.
        partition: Shape,
        /// The goal's.
        goal: Shape,
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
    shape: Shape,
    groups: Vec<Vec<u8>>,
}

impl Partition {
    /// Groups of tiles of `shape`: each non-empty, at most
    /// 8 tiles, no tile twice, no blank. They need not
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
            if g.len() > MAX_GROUP_TILES || placement_count(n, g.len()) > MAX_SEARCH_ENTRIES {
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
        Ok(Partition { shape, groups })
    }

    /// The partition named by its group sizes, such as `6-6-3`, `7-8` or
    /// `5-5-5` on 4×4: the sizes must add up to the tiles. The groups are
    /// laid on the cells of the canonical goal of `goal`'s class (see
    /// [`GoalClass`]) and named as in `goal`, so every goal of a class gets
    /// the same databases. On the 15-puzzle's corner class they are the
    /// published ones (Korf and Felner); elsewhere they take the canonical
    /// goal's tiles in reading order of their cells, the first group first.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb::Partition};
    /// let goal = Board::solved(Shape::new(4, 4).unwrap()); // 1 2 … 15 0
    /// let p = Partition::standard(&goal, "7-8").unwrap();
    /// assert_eq!(p.groups(), [vec![9, 10, 11, 12, 13, 14, 15], (1..=8).collect::<Vec<u8>>()]);
    /// assert!(Partition::standard(&goal, "6-6").is_err());
    /// ```
    pub fn standard(goal: &Board, spec: &str) -> Result<Partition, PatternError> {
        let class = GoalClass::of(goal);
        let canonical = Partition::standard_on(class.canonical(), spec)?;
        canonical.renamed(goal.shape(), |t| class.goal_tile(t))
    }

    /// The partition a written `spec` names, toward `goal`: `default` (see
    /// [`default_for`](Partition::default_for)), group sizes such as
    /// `6-6-6-6` (see [`standard`](Partition::standard)), or the groups'
    /// tiles as named in `goal`, tiles split by `,` and groups by `/`
    /// (`1,2,5,6/3,4,7,8`).
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb::Partition};
    /// let goal = Board::solved(Shape::new(3, 3).unwrap());
    /// let lists = Partition::parse(&goal, "1,2,4,5/3,6,7,8").unwrap();
    /// assert_eq!(lists.groups(), [vec![1, 2, 4, 5], vec![3, 6, 7, 8]]);
    /// assert_eq!(Partition::parse(&goal, "4-4"), Partition::standard(&goal, "4-4"));
    /// assert_eq!(Partition::parse(&goal, "default"), Ok(Partition::default_for(&goal)));
    /// assert!(Partition::parse(&goal, "1,2/2,3").is_err());
    /// ```
    pub fn parse(goal: &Board, spec: &str) -> Result<Partition, PatternError> {
        let spec = spec.trim();
        if spec.eq_ignore_ascii_case("default") {
            return Ok(Partition::default_for(goal));
        }
        if !spec.contains([',', '/']) {
            return Partition::standard(goal, spec);
        }
        let shape = goal.shape();
        let groups = spec
            .split('/')
            .map(|group| {
                group
                    .split(',')
                    .map(|t| {
                        let t = t.trim();
                        t.parse::<u8>()
                            .ok()
                            .filter(|_| !t.starts_with('+'))
                            .ok_or_else(|| PatternError::Sizes {
                                spec: spec.to_string(),
                                why: format!(
                                    "{t:?} is not a tile: write the groups' tiles like 1,2,5,6/3,4,7,8"
                                ),
                            })
                    })
                    .collect::<Result<Vec<u8>, _>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        Partition::new(shape, groups)
    }

    /// The partition used when none is named: on 4×4, 6-6-3; on 5×5,
    /// 6-6-6-6 (both as published, see [`standard`](Partition::standard));
    /// elsewhere the fewest groups of at most 6 tiles, their sizes as equal
    /// as they can be, larger first (14 tiles: 5-5-4; 19: 5-5-5-4; 23:
    /// 6-6-6-5; 8: 4-4; 5: 5).
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb::Partition};
    /// let size = |r, c| Board::solved(Shape::new(r, c).unwrap());
    /// assert_eq!(Partition::default_for(&size(4, 4)).sizes(), "6-6-3");
    /// assert_eq!(Partition::default_for(&size(5, 5)).sizes(), "6-6-6-6");
    /// assert_eq!(Partition::default_for(&size(4, 5)).sizes(), "5-5-5-4");
    /// assert_eq!(Partition::default_for(&size(3, 3)).sizes(), "4-4");
    /// ```
    pub fn default_for(goal: &Board) -> Partition {
        let shape = goal.shape();
        let tiles = shape.cells() - 1;
        let spec = match (shape.rows(), shape.cols()) {
            (4, 4) => "6-6-3".to_string(),
            _ => {
                let groups = tiles.div_ceil(6);
                let sizes: Vec<String> = (0..groups)
                    .map(|g| (tiles / groups + usize::from(g < tiles % groups)).to_string())
                    .collect();
                sizes.join("-")
            }
        };
        Partition::standard(goal, &spec).expect("groups of at most 6 tiles fit every board")
    }

    /// [`standard`](Partition::standard) on a canonical goal: the groups
    /// laid on its cells.
    fn standard_on(goal: &Board, spec: &str) -> Result<Partition, PatternError> {
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
            } else if shape.rows() == 5 && shape.cols() == 5 {
                published_24(goal, &normalized.join("-"))
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

    /// The same groups on `shape` with each tile renamed by `rename` (a
    /// bijection of the tiles), each group sorted again.
    pub(crate) fn renamed(
        &self,
        shape: Shape,
        rename: impl Fn(u8) -> Option<u8>,
    ) -> Result<Partition, PatternError> {
        let groups = self
            .groups
            .iter()
            .map(|g| {
                g.iter()
                    .map(|&t| {
                        rename(t).ok_or_else(|| {
                            PatternError::Tiles(format!("tile {t} is no tile of {shape}"))
                        })
                    })
                    .collect()
            })
            .collect::<Result<_, _>>()?;
        Partition::new(shape, groups)
    }

    /// The groups, each ascending.
    ///
    /// ```
    /// use slidedb::{Shape, pdb::Partition};
    /// let p = Partition::new(Shape::EIGHT, vec![vec![4, 3], vec![8]]).unwrap();
    /// assert_eq!(p.groups(), [vec![3, 4], vec![8]]);
    /// ```
    pub fn groups(&self) -> &[Vec<u8>] {
        &self.groups
    }

    /// Each group's placements: the ways its tiles can stand on the
    /// board's cells, one entry each in the group's database.
    ///
    /// ```
    /// use slidedb::{Shape, pdb::Partition};
    /// let p = Partition::new(Shape::EIGHT, vec![vec![1, 2, 3, 4], vec![8]]).unwrap();
    /// assert_eq!(p.placements(), [9 * 8 * 7 * 6, 9]);
    /// ```
    pub fn placements(&self) -> Vec<u64> {
        let n = self.shape.cells();
        self.groups
            .iter()
            .map(|g| placement_count(n, g.len()))
            .collect()
    }

    /// The partition's name in file names, toward `goal`: its sizes
    /// (`6-6-3`) when it is the [`standard`](Partition::standard) partition
    /// of those sizes, else its groups with the tiles named as in the
    /// canonical goal of `goal`'s class (the goal files are laid out by),
    /// tiles split by `.` and groups by `_`.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb::Partition};
    /// let goal = Board::solved(Shape::EIGHT);
    /// assert_eq!(Partition::standard(&goal, "4-4").unwrap().label(&goal), "4-4");
    /// let mine = Partition::parse(&goal, "1,2,4,5/3,6,7,8").unwrap();
    /// assert_eq!(mine.label(&goal), "1.2.4.5_3.6.7.8");
    /// ```
    pub fn label(&self, goal: &Board) -> String {
        let sizes = self.sizes();
        if Partition::standard(goal, &sizes).as_ref() == Ok(self) {
            return sizes;
        }
        let class = GoalClass::of(goal);
        let groups: Vec<String> = self
            .groups
            .iter()
            .map(|g| {
                let mut tiles: Vec<u8> = g
                    .iter()
                    .map(|&t| class.canonical_tile(t).unwrap_or(t))
                    .collect();
                tiles.sort_unstable();
                let tiles: Vec<String> = tiles.iter().map(u8::to_string).collect();
                tiles.join(".")
            })
            .collect();
        groups.join("_")
    }

    /// The board size whose tiles it groups.
    ///
    /// ```
    /// use slidedb::{Shape, pdb::Partition};
    /// let p = Partition::new(Shape::EIGHT, vec![vec![1, 2]]).unwrap();
    /// assert_eq!(p.shape(), Shape::EIGHT);
    /// ```
    pub fn shape(&self) -> Shape {
        self.shape
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

/// The 24-puzzle's partitions of `sizes` written for the goal with the
/// blank first (tile `t` in cell `t`), as cells of `goal`, the canonical
/// goal of a class; `None` unless it is that goal's class (a blank in a
/// corner) and `sizes` is one of them:
///
/// - 6-6-6-6, Korf and Felner's (2002);
/// - 7-7-7-3, ours: one 7-tile group on the diagonal's top left, mapped
///   onto itself by the reflection about the main diagonal, two 7-tile
///   groups each the other's reflection, and the 3 diagonal tiles left
///   over, so that the reflected board reads the same databases and only
///   one of the mirrored pair needs a search (`docs/24-puzzle.md` says
///   why this one).
fn published_24(goal: &Board, sizes: &str) -> Option<Vec<Vec<usize>>> {
    const KORF_FELNER: [&[u8]; 4] = [
        &[1, 2, 5, 6, 7, 12],
        &[3, 4, 8, 9, 13, 14],
        &[10, 11, 15, 16, 20, 21],
        &[17, 18, 19, 22, 23, 24],
    ];
    const SEVENS: [&[u8]; 4] = [
        &[1, 2, 5, 6, 7, 10, 11],
        &[3, 4, 8, 9, 13, 14, 19],
        &[15, 16, 17, 20, 21, 22, 23],
        &[12, 18, 24],
    ];
    let groups: [&[u8]; 4] = match sizes {
        "6-6-6-6" => KORF_FELNER,
        "7-7-7-3" => SEVENS,
        _ => return None,
    };
    let tiles: Vec<u8> = (0..25).collect();
    let blank_first = Board::from_tiles(goal.shape(), &tiles).expect("the 5x5 blank-first goal");
    let class = GoalClass::of(&blank_first);
    if class.canonical() != goal {
        return None;
    }
    let groups = groups
        .iter()
        .map(|group| {
            group
                .iter()
                .map(|&t| {
                    let tile = class.canonical_tile(t).expect("a tile of 5x5");
                    (0..25)
                        .find(|&c| goal.tile(c) == tile)
                        .expect("every tile is somewhere")
                })
                .collect()
        })
        .collect();
    Some(groups)
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

/// Builds the databases of every group of `partition` (tiles named as in
/// `goal`) toward `goal`, one group after another (each group's search runs
/// on every core), calling `progress` once per depth of each. The search
/// runs toward the canonical goal of `goal`'s class, so the databases serve
/// every goal of the class.
///
/// ```
/// use slidedb::{Board, Shape, pdb};
/// let goal = Board::solved(Shape::new(2, 4).unwrap());
/// let partition = pdb::Partition::standard(&goal, "4-3").unwrap();
/// let mut depths = 0;
/// let db = pdb::build(&goal, &partition, |_| depths += 1).unwrap();
/// assert_eq!(db.estimate(&goal), Ok(0));
/// assert!(depths > 2);
/// ```
pub fn build(
    goal: &Board,
    partition: &Partition,
    progress: impl FnMut(Progress),
) -> Result<PatternDb<Vec<u8>>, PatternError> {
    build_entries(goal, partition, EntryKind::Plain, progress)
}

/// Builds the [`EntryKind::BlankAware`] databases of `partition` toward
/// `goal` in memory, as [`build()`] builds plain ones: each group's search
/// holds a byte for each of its states (a placement and region of the
/// blank) besides [`build()`]'s, 1.02 GB for a 6-tile group of 5×5, whose
/// entries take 606 MB.
///
/// ```
/// use slidedb::{Board, Shape, pdb};
/// let goal = Board::solved(Shape::EIGHT);
/// let partition = pdb::Partition::standard(&goal, "4-4").unwrap();
/// let aware = pdb::build_blank_aware(&goal, &partition, |_| {}).unwrap();
/// let plain = pdb::build(&goal, &partition, |_| {}).unwrap();
/// let board: Board = "8 6 7 2 5 4 3 0 1".parse().unwrap();
/// assert!(aware.estimate(&board).unwrap() >= plain.estimate(&board).unwrap());
/// assert_eq!(aware.solve(&board).unwrap().distance(), Some(31));
/// ```
pub fn build_blank_aware(
    goal: &Board,
    partition: &Partition,
    progress: impl FnMut(Progress),
) -> Result<PatternDb<Vec<u8>>, PatternError> {
    build_entries(goal, partition, EntryKind::BlankAware, progress)
}

/// Refuses a partition with a group too big to build in memory.
fn check_in_memory(partition: &Partition, kind: EntryKind) -> Result<(), PatternError> {
    let shape = partition.shape;
    let n = shape.cells();
    let Some(g) = partition
        .groups
        .iter()
        .find(|g| placement_count(n, g.len()) > MAX_GROUP_ENTRIES)
    else {
        return Ok(());
    };
    let (tiles, placements) = (g.len(), placement_count(n, g.len()));
    Err(match kind {
        EntryKind::BlankAware => PatternError::BlankAwareTooLarge {
            shape,
            tiles,
            placements,
        },
        EntryKind::Plain => PatternError::InMemory {
            shape,
            tiles,
            placements,
        },
    })
}

fn build_entries(
    goal: &Board,
    partition: &Partition,
    kind: EntryKind,
    mut progress: impl FnMut(Progress),
) -> Result<PatternDb<Vec<u8>>, PatternError> {
    if partition.shape != goal.shape() {
        return Err(PatternError::Shape {
            partition: partition.shape,
            goal: goal.shape(),
        });
    }
    check_in_memory(partition, kind)?;
    let n = goal.shape().cells();
    let class = GoalClass::of(goal);
    let indexed = *class.canonical();
    let groups = partition
        .renamed(indexed.shape(), |t| class.canonical_tile(t))?
        .groups;
    let total: u64 = groups
        .iter()
        .map(|g| file::group_len(kind, n, g.len()).1)
        .sum();
    let mut body = Vec::with_capacity(total as usize);
    let mut layers = Vec::new();
    for (group, tiles) in groups.iter().enumerate() {
        let mut shown = |depth, placements| {
            progress(Progress {
                group,
                tiles: tiles.len(),
                depth,
                placements,
            })
        };
        match kind {
            EntryKind::Plain => {
                let distances = build::group_distances(&indexed, tiles, &mut shown);
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
            EntryKind::BlankAware => {
                let (entries, counts) = build::blank_aware_entries(&indexed, tiles, &mut shown);
                layers.push(counts);
                body.extend_from_slice(&entries);
            }
        }
    }
    let metadata = file::Metadata {
        generator: concat!("slidedb ", env!("CARGO_PKG_VERSION")).to_string(),
        goals: crate::goals::Goals::new(&class),
        groups,
        layers,
        metric: crate::goals::metric_byte(Metric::Single),
    };
    Ok(PatternDb::new(file::write(&metadata, kind, &body))
        .expect("built pattern databases are valid"))
}

/// What a group's entries hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EntryKind {
    /// One byte for each placement of the group's tiles: the fewest moves
    /// of those tiles that bring them home, with the blank anywhere (Korf
    /// and Felner's databases).
    #[default]
    Plain,
    /// Two bits for each placement of the group's tiles and each cell the
    /// blank may be in: the fewest moves of the tiles that bring them home
    /// with the blank there, modulo 3 (the blank wanders through the
    /// free cells it can reach at no cost, so each region of them has one
    /// distance, never below the plain entry and often above it). A move
    /// changes a group's distance by at most one, so the search reads a
    /// child's from its parent's; a board on its own is walked down to the
    /// goal. IDA* under blank-aware 6-6-6-6 expanded 0.62 of the nodes of
    /// plain 6-6-6-6 on the five cheapest of Korf and Felner's
    /// 24-puzzles, in 0.84 of the time, and 0.66 of the nodes in 0.96 of
    /// the time on #4 and #3 (`docs/24-puzzle.md`); the entries take
    /// `(n − k) / 4` bytes a placement rather than one.
    BlankAware,
}

impl EntryKind {
    /// What a set's name ends with when its entries are of this kind: `""`
    /// for [`Plain`](EntryKind::Plain), `-blank` for
    /// [`BlankAware`](EntryKind::BlankAware) (`6-6-6-6-blank`).
    ///
    /// ```
    /// use slidedb::pdb::EntryKind;
    /// assert_eq!(EntryKind::Plain.suffix(), "");
    /// assert_eq!(EntryKind::BlankAware.suffix(), "-blank");
    /// ```
    pub fn suffix(self) -> &'static str {
        match self {
            EntryKind::Plain => "",
            EntryKind::BlankAware => BLANK_AWARE_SUFFIX,
        }
    }
}

/// How the name of a set of [`EntryKind::BlankAware`] databases ends.
const BLANK_AWARE_SUFFIX: &str = "-blank";

/// A set of pattern databases as it is named: a [`Partition`] and the
/// [`EntryKind`] of its entries, written as the partition with `-blank`
/// after it for blank-aware entries (`6-6-6-6-blank`, `1,2,5,6/3,4,7,8-blank`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternSpec {
    partition: Partition,
    kind: EntryKind,
}

impl PatternSpec {
    /// The set of `partition`'s groups with entries of `kind`.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb::{EntryKind, Partition, PatternSpec}};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let spec = PatternSpec::new(Partition::standard(&goal, "4-4").unwrap(), EntryKind::BlankAware);
    /// assert_eq!(spec.label(&goal), "4-4-blank");
    /// ```
    pub fn new(partition: Partition, kind: EntryKind) -> PatternSpec {
        PatternSpec { partition, kind }
    }

    /// The set a written `spec` names, toward `goal`: a partition as
    /// [`Partition::parse`] reads it, with `-blank` after it (in any case)
    /// for blank-aware entries, whose groups must be small enough to build
    /// in memory (at most 518,918,400 placements: 6 tiles of 25 cells).
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb::{EntryKind, PatternSpec}};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let aware = PatternSpec::parse(&goal, "4-4-blank").unwrap();
    /// assert_eq!((aware.partition().sizes().as_str(), aware.kind()), ("4-4", EntryKind::BlankAware));
    /// assert_eq!(PatternSpec::parse(&goal, " default-BLANK ").unwrap(), aware);
    /// let lists = PatternSpec::parse(&goal, "1,2,4,5/3,6,7,8").unwrap();
    /// assert_eq!(lists.kind(), EntryKind::Plain);
    /// assert!(PatternSpec::parse(&goal, "4-4-blank-blank").is_err());
    /// assert!(PatternSpec::parse(&goal, "-blank").is_err());
    /// let korf = Board::solved(Shape::new(5, 5).unwrap());
    /// assert!(PatternSpec::parse(&korf, "7-7-7-3").is_ok());
    /// assert!(PatternSpec::parse(&korf, "7-7-7-3-blank").is_err()); // built in memory only
    /// ```
    pub fn parse(goal: &Board, spec: &str) -> Result<PatternSpec, PatternError> {
        let spec = spec.trim();
        let tail = spec.len().saturating_sub(BLANK_AWARE_SUFFIX.len());
        let (partition, kind) = match spec.get(tail..) {
            Some(suffix) if suffix.eq_ignore_ascii_case(BLANK_AWARE_SUFFIX) => {
                (&spec[..tail], EntryKind::BlankAware)
            }
            _ => (spec, EntryKind::Plain),
        };
        let partition = Partition::parse(goal, partition)?;
        if kind == EntryKind::BlankAware {
            check_in_memory(&partition, kind)?;
        }
        Ok(PatternSpec { partition, kind })
    }

    /// The bytes of the entries of every group: for
    /// [`Plain`](EntryKind::Plain) entries a byte a placement, for
    /// [`BlankAware`](EntryKind::BlankAware) ones two bits for each
    /// placement and free cell (the file holds these and a header of a
    /// few kilobytes).
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb::PatternSpec};
    /// let goal = Board::solved(Shape::new(5, 5).unwrap());
    /// assert_eq!(PatternSpec::parse(&goal, "6-6-6-6").unwrap().entry_bytes(), 510_048_000);
    /// assert_eq!(PatternSpec::parse(&goal, "6-6-6-6-blank").unwrap().entry_bytes(), 2_422_728_000);
    /// ```
    pub fn entry_bytes(&self) -> u64 {
        let n = self.partition.shape.cells();
        self.partition
            .groups
            .iter()
            .map(|g| file::group_len(self.kind, n, g.len()).1)
            .sum()
    }

    /// The partition.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb::PatternSpec};
    /// let goal = Board::solved(Shape::EIGHT);
    /// assert_eq!(PatternSpec::parse(&goal, "4-4-blank").unwrap().partition().groups().len(), 2);
    /// ```
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// The kind of the entries.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb::{EntryKind, PatternSpec}};
    /// let goal = Board::solved(Shape::EIGHT);
    /// assert_eq!(PatternSpec::parse(&goal, "4-4").unwrap().kind(), EntryKind::Plain);
    /// ```
    pub fn kind(&self) -> EntryKind {
        self.kind
    }

    /// The set's name in file names, toward `goal`: the partition's
    /// [`label`](Partition::label) and the kind's
    /// [`suffix`](EntryKind::suffix).
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb::PatternSpec};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let spec = PatternSpec::parse(&goal, "1,2,4,5/3,6,7,8-blank").unwrap();
    /// assert_eq!(spec.label(&goal), "1.2.4.5_3.6.7.8-blank");
    /// ```
    pub fn label(&self, goal: &Board) -> String {
        format!("{}{}", self.partition.label(goal), self.kind.suffix())
    }

    /// Builds the set toward `goal` in memory: [`build()`] or
    /// [`build_blank_aware`] by its kind.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb::{EntryKind, PatternSpec}};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let db = PatternSpec::parse(&goal, "4-4-blank").unwrap().build(&goal, |_| {}).unwrap();
    /// assert_eq!(db.entry_kind(), EntryKind::BlankAware);
    /// ```
    pub fn build(
        &self,
        goal: &Board,
        progress: impl FnMut(Progress),
    ) -> Result<PatternDb<Vec<u8>>, PatternError> {
        build_entries(goal, &self.partition, self.kind, progress)
    }
}

/// Which move sequences IDA* under pattern databases leaves out. Either
/// way it finds a shortest solution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Pruning {
    /// The move that undoes the last one, alone: the tree Korf's and Korf
    /// and Felner's published node counts are of.
    Parent,
    /// Every sequence of up to 12 moves that has an equivalent (the same
    /// tiles moved the same way from the same blank cell) shorter than it,
    /// or as short and first in `u d l r` order, and every sequence that
    /// holds one (Taylor and Korf's finite-state machine): on the 5×5
    /// board, the number of move sequences of a length grows by 2.2714 a
    /// move, not 2.3676 (on the 4×4, 2.0079, not 2.1304).
    #[default]
    Duplicates,
}

/// Additive pattern databases toward one goal: for each group of tiles,
/// one byte per placement of its tiles.
///
/// Generic over its bytes, like [`crate::Table`]: [`build()`] makes a
/// `PatternDb<Vec<u8>>`, [`PatternDb::open_path`] memory-maps a file.
pub struct PatternDb<D> {
    data: D,
    /// What its entries hold.
    kind: EntryKind,
    class: GoalClass,
    /// The metric of its entries.
    metric: Metric,
    /// The groups, tiles named as in the goal.
    partition: Partition,
    /// The groups, tiles named as in the indexed goal (the body's layout).
    indexed: Partition,
    metadata: file::Metadata,
    /// The body range of each group's entries.
    ranges: Vec<std::ops::Range<usize>>,
    body: std::ops::Range<usize>,
    body_crc: u32,
}

impl<D> std::fmt::Debug for PatternDb<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternDb")
            .field("goal", &self.class.goal().to_string())
            .field("indexed_goal", &self.class.canonical().to_string())
            .field("groups", &self.partition.groups)
            .field("kind", &self.kind)
            .field("generator", &self.metadata.generator)
            .finish_non_exhaustive()
    }
}

impl<D: AsRef<[u8]>> PatternDb<D> {
    /// Opens pattern databases from their bytes, checking everything but
    /// the body's checksum, in time independent of the body's size. Call
    /// [`verify`](PatternDb::verify) to check the body.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let built = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
    /// let copy = pdb::PatternDb::new(built.as_bytes().to_vec()).unwrap();
    /// assert_eq!(copy.partition(), built.partition());
    /// assert!(pdb::PatternDb::new(&b"not a table"[..]).is_err());
    /// ```
    pub fn new(data: D) -> Result<PatternDb<D>, FileError> {
        let layout = file::read(data.as_ref())?;
        let class = layout.class;
        let kind = layout.entries;
        let n = class.canonical().shape().cells();
        let mut at = layout.body.start;
        let ranges = layout
            .partition
            .groups
            .iter()
            .map(|g| {
                let len = file::group_len(kind, n, g.len()).1 as usize;
                at += len;
                at - len..at
            })
            .collect();
        let db = PatternDb {
            kind,
            partition: layout
                .partition
                .renamed(class.goal().shape(), |t| class.goal_tile(t))
                .map_err(|e| FileError::metadata(format!("groups: {e}")))?,
            indexed: layout.partition,
            class,
            metric: layout.metric,
            metadata: layout.metadata,
            ranges,
            body: layout.body,
            body_crc: layout.body_crc,
            data,
        };
        // The goal must read 0 in every group, or IDA* would never accept
        // it: one byte a group, checked on every open.
        for g in 0..db.indexed.groups.len() {
            let home = match kind {
                EntryKind::Plain => db.entries(g)[db.home_index(g)],
                EntryKind::BlankAware => aware::code(db.entries(g), db.home_index(g)),
            };
            if home != 0 {
                return Err(FileError::layout(format!(
                    "group {}'s entry for the goal is {home}, not 0",
                    g + 1
                )));
            }
        }
        Ok(db)
    }

    /// Group `g`'s tiles' cells in the indexed goal.
    fn home(&self, g: usize) -> [u8; MAX_GROUP_TILES] {
        let goal = self.class.canonical();
        let n = goal.shape().cells();
        let mut cells = [0u8; MAX_GROUP_TILES];
        for (slot, &t) in self.indexed.groups[g].iter().enumerate() {
            cells[slot] = (0..n).find(|&c| goal.tile(c) == t).expect("every tile") as u8;
        }
        cells
    }

    /// The index of group `g`'s entry for the indexed goal.
    fn home_index(&self, g: usize) -> usize {
        let goal = self.class.canonical();
        let n = goal.shape().cells();
        let k = self.indexed.groups[g].len();
        let home = self.home(g);
        let rank = placement_rank(&home[..k], n) as usize;
        match self.kind {
            EntryKind::Plain => rank,
            EntryKind::BlankAware => {
                let used = home[..k].iter().fold(0u32, |m, &c| m | 1 << c);
                rank * (n - k) + aware::free_index(used, goal.blank() as u32)
            }
        }
    }

    /// What its entries hold.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let partition = pdb::Partition::standard(&goal, "4-4").unwrap();
    /// let db = pdb::build_blank_aware(&goal, &partition, |_| {}).unwrap();
    /// assert_eq!(db.entry_kind(), pdb::EntryKind::BlankAware);
    /// ```
    pub fn entry_kind(&self) -> EntryKind {
        self.kind
    }

    /// Checks the body: its checksum, and that each group's entries are
    /// spread over the values as the metadata's layer counts say. O(body);
    /// [`PatternDb::new`] checks neither.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let built = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
    /// let mut bytes = built.as_bytes().to_vec();
    /// *bytes.last_mut().unwrap() ^= 1;
    /// assert!(pdb::PatternDb::new(bytes).unwrap().verify().is_err());
    /// ```
    pub fn verify(&self) -> Result<(), FileError> {
        self.verify_checksum()?;
        let n = self.class.canonical().shape().cells();
        for g in 0..self.indexed.groups.len() {
            let layers = self.layers(g);
            let spread = match self.kind {
                EntryKind::Plain => {
                    let mut counts = [0u64; 256];
                    for &d in self.entries(g) {
                        counts[d as usize] += 1;
                    }
                    counts[..layers.len()] == *layers
                        && counts[layers.len()..].iter().all(|&c| c == 0)
                }
                EntryKind::BlankAware => {
                    // The codes 0, 1, 2 as often as the distances of
                    // each residue, no code 3, and no bits past the last.
                    let (count, _) = file::group_len(self.kind, n, self.indexed.groups[g].len());
                    let entries = self.entries(g);
                    let whole = count as usize / 4;
                    let mut codes = [0u64; 4];
                    for &byte in &entries[..whole] {
                        for i in 0..4 {
                            codes[(byte >> (2 * i) & 3) as usize] += 1;
                        }
                    }
                    let rest = count as usize % 4;
                    let tail_clean = match entries.get(whole) {
                        Some(&last) => {
                            for i in 0..rest {
                                codes[(last >> (2 * i) & 3) as usize] += 1;
                            }
                            last >> (2 * rest) == 0
                        }
                        None => true,
                    };
                    let mut want = [0u64; 4];
                    for (d, &c) in layers.iter().enumerate() {
                        want[d % 3] += c;
                    }
                    tail_clean && codes == want
                }
            };
            if !spread {
                return Err(FileError::metadata(format!(
                    "group {}'s entries are not spread as its layer counts say",
                    g + 1
                )));
            }
        }
        Ok(())
    }

    /// Checks the body's checksum only: the part of
    /// [`verify`](PatternDb::verify) that finds damage, at the speed of
    /// reading the bytes (the recount finds a file sealed again after its
    /// entries were changed).
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let built = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
    /// let mut bytes = built.as_bytes().to_vec();
    /// *bytes.last_mut().unwrap() ^= 1;
    /// assert!(pdb::PatternDb::new(bytes).unwrap().verify_checksum().is_err());
    /// ```
    pub fn verify_checksum(&self) -> Result<(), FileError> {
        crate::format::check_body(&self.data.as_ref()[self.body.clone()], self.body_crc)
    }

    /// The whole file's bytes.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let db = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
    /// assert!(db.as_bytes().starts_with(b"SLIDEDB\0"));
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        self.data.as_ref()
    }

    /// The bytes it was opened from.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let db = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
    /// let len = db.as_bytes().len();
    /// assert_eq!(db.into_inner().len(), len);
    /// ```
    pub fn into_inner(self) -> D {
        self.data
    }

    /// The board size: the goal's.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let db = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
    /// assert_eq!(db.shape(), Shape::EIGHT);
    /// ```
    pub fn shape(&self) -> Shape {
        self.class.goal().shape()
    }

    /// The groups, tiles named as in the goal.
    ///
    /// ```
    /// use slidedb::{Board, pdb};
    /// let goal: Board = "0 1 2 3 4 5 6 7 8".parse().unwrap();
    /// let partition = pdb::Partition::standard(&goal, "4-4").unwrap();
    /// let db = pdb::build(&goal, &partition, |_| {}).unwrap();
    /// assert_eq!(db.partition(), &partition);
    /// ```
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// The groups, tiles named as in the indexed goal.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let db = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
    /// assert_eq!(db.indexed_partition(), db.partition()); // the goal is canonical
    /// ```
    pub fn indexed_partition(&self) -> &Partition {
        &self.indexed
    }

    /// The program that built it, such as `slidedb 0.1.0`.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let db = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
    /// assert!(db.generator().starts_with("slidedb "));
    /// ```
    pub fn generator(&self) -> &str {
        &self.metadata.generator
    }

    /// `layers(g)[d]`: entries of group `g` (below the partition's
    /// length) whose distance is `d`: placements for
    /// [`EntryKind::Plain`] entries, placements and blank cells for
    /// [`EntryKind::BlankAware`] ones.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let db = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
    /// assert_eq!(db.layers(0)[0], 1); // the goal's placement
    /// ```
    pub fn layers(&self, group: usize) -> &[u64] {
        &self.metadata.layers[group]
    }

    /// Group `group`'s entries (`group` below the partition's length),
    /// indexed by the rank of the placement of its tiles' cells (the
    /// mixed-radix number whose digit `i` is cell `i` less the earlier
    /// cells below it, radix `n − i`, the first most significant) toward the
    /// indexed goal (the tiles of
    /// [`indexed_partition`](PatternDb::indexed_partition), ascending).
    /// [`EntryKind::BlankAware`] entries are two bits each, four a byte
    /// from the low bits: entry `rank × (n − k) + j` is the placement's
    /// with the blank in its `j`-th free cell, counting from cell 0.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let partition = pdb::Partition::standard(&goal, "4-4").unwrap();
    /// let db = pdb::build(&goal, &partition, |_| {}).unwrap();
    /// assert_eq!(db.entries(0).len(), 9 * 8 * 7 * 6);
    /// let aware = pdb::build_blank_aware(&goal, &partition, |_| {}).unwrap();
    /// assert_eq!(aware.entries(0).len(), 9 * 8 * 7 * 6 * 5 / 4);
    /// ```
    #[inline]
    pub fn entries(&self, group: usize) -> &[u8] {
        &self.data.as_ref()[self.ranges[group].clone()]
    }

    /// The sum of the groups' distances for `board` toward the goal (for
    /// [`EntryKind::BlankAware`] entries, found by walking down to the
    /// goal): never more than its distance to the goal. An error if the
    /// board is of another size, or blank-aware entries do not lead down
    /// to the goal (a damaged body).
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let db = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
    /// let board: Board = "2 1 3 4 5 6 7 8 0".parse().unwrap();
    /// assert!(db.estimate(&board).unwrap() >= 2); // 1 and 2 must pass each other
    /// assert!(db.estimate(&Board::solved(slidedb::Shape::new(2, 2).unwrap())).is_err());
    /// ```
    pub fn estimate(&self, board: &Board) -> Result<u32, SolveError> {
        self.estimate_toward(&self.class, board)
    }

    /// Like [`estimate`](PatternDb::estimate), toward another goal of the
    /// databases' class: `class` is that goal's.
    pub(crate) fn estimate_toward(
        &self,
        class: &GoalClass,
        board: &Board,
    ) -> Result<u32, SolveError> {
        self.check_goal(class)?;
        check_shape(class.goal().shape(), board.shape())?;
        let indexed = if class.is_canonical() {
            *board
        } else {
            class.to_canonical(board)
        };
        self.estimate_indexed(&indexed, indexed.can_reach(class.canonical()))
            .ok_or_else(|| SolveError::Damaged {
                board: board.to_string(),
                why: "a blank-aware entry has no neighbour one move nearer the goal",
            })
    }

    /// The estimate of a board toward the indexed goal; `None` if
    /// blank-aware entries do not lead down to the goal (damaged). A group
    /// of every tile but one has blank-aware entries only for the boards
    /// that can reach the goal: on a board that cannot (`solvable` false)
    /// it counts 0.
    fn estimate_indexed(&self, board: &Board, solvable: bool) -> Option<u32> {
        let shape = board.shape();
        let n = shape.cells();
        let mut cell_of = [0u8; MAX_CELLS];
        for c in 0..n {
            cell_of[board.tile(c) as usize] = c as u8;
        }
        let neighbours = neighbour_masks(shape);
        let mut sum = 0;
        for (g, tiles) in self.indexed.groups.iter().enumerate() {
            let mut cells = [0u8; MAX_GROUP_TILES];
            for (slot, &t) in tiles.iter().enumerate() {
                cells[slot] = cell_of[t as usize];
            }
            let cells = &cells[..tiles.len()];
            sum += match self.kind {
                EntryKind::Plain => self.entries(g)[placement_rank(cells, n) as usize],
                EntryKind::BlankAware => {
                    let home = self.home(g);
                    let group = aware::Group {
                        entries: self.entries(g),
                        n,
                        neighbours: &neighbours[..n],
                        home: &home[..tiles.len()],
                        goal_blank: self.class.canonical().blank() as u32,
                    };
                    match aware::distance(&group, cells, board.blank() as u32) {
                        Some(d) => d,
                        None if !solvable => 0,
                        None => return None,
                    }
                }
            } as u32;
        }
        Some(sum)
    }

    fn check_goal(&self, class: &GoalClass) -> Result<(), SolveError> {
        if class.canonical() != self.class.canonical() {
            return Err(SolveError::OtherClass {
                goal: class.goal().to_string(),
                served: self.goal().to_string(),
            });
        }
        Ok(())
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
    /// let db = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
    /// let found = db.solve(&"2 3 4 1 5 x 7 6 8".parse().unwrap()).unwrap();
    /// assert_eq!(found.distance(), Some(19));
    /// assert_eq!(db.solve(&"2 1 3 4 5 6 7 8 0".parse().unwrap()).unwrap().moves, None);
    /// ```
    pub fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
        self.solve_toward(&self.class, board)
    }

    /// Like [`solve`](PatternDb::solve), toward another goal of the
    /// databases' class: `class` is that goal's.
    pub(crate) fn solve_toward(
        &self,
        class: &GoalClass,
        board: &Board,
    ) -> Result<Solution, SolveError> {
        self.solve_toward_with_progress(class, board, |_| ControlFlow::Continue(()))
    }

    /// Like `solve_toward`, showing the work so
    /// far to `progress` every [`PROGRESS_EVERY`](crate::search::PROGRESS_EVERY)
    /// nodes expanded, and stopping with [`SolveError::Stopped`] when it
    /// breaks: to give a search a deadline.
    pub(crate) fn solve_toward_with_progress(
        &self,
        class: &GoalClass,
        board: &Board,
        progress: impl FnMut(&Stats) -> ControlFlow<()> + Send,
    ) -> Result<Solution, SolveError> {
        PatternDb::solve_sets_toward(&[self], class, board, Pruning::default(), progress)
    }

    /// An optimal solution of `board` by IDA* under the maximum of these
    /// databases and `others` (each with its mirrors, as
    /// [`solve`](PatternDb::solve) reads them): a node's children are
    /// estimated by these first, and by each of `others` in turn only
    /// while they are not cut off, so the strongest set goes first. Every
    /// set must be toward the same class of goals. Sets past 32 groups in
    /// all, and mirrors past 8 sums, are left out (the estimate stays
    /// admissible).
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let build = |spec| pdb::build(&goal, &pdb::Partition::parse(&goal, spec).unwrap(), |_| {}).unwrap();
    /// let (rows, columns) = (build("1,2,3/4,5,6/7,8"), build("1,4,7/2,5,8/3,6"));
    /// let board: Board = "8 6 7 2 5 4 3 0 1".parse().unwrap();
    /// let alone = rows.solve(&board).unwrap();
    /// let both = rows.solve_with(&[&columns], &board).unwrap();
    /// assert_eq!((alone.distance(), both.distance()), (Some(31), Some(31)));
    /// assert!(both.stats.unwrap().expanded <= alone.stats.unwrap().expanded);
    /// ```
    pub fn solve_with(
        &self,
        others: &[&PatternDb<D>],
        board: &Board,
    ) -> Result<Solution, SolveError> {
        self.solve_pruned(others, board, Pruning::default())
    }

    /// Like [`solve_with`](PatternDb::solve_with), leaving out the move
    /// sequences `pruning` says: [`Pruning::Parent`] searches the tree
    /// that published node counts are of, [`Pruning::Duplicates`] (the
    /// default) a far smaller one. Both find a shortest solution.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb::{self, Pruning}};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let db = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
    /// let board: Board = "8 6 7 2 5 4 3 0 1".parse().unwrap(); // 31 moves, the most
    /// let parent = db.solve_pruned(&[], &board, Pruning::Parent).unwrap();
    /// let fewer = db.solve_pruned(&[], &board, Pruning::Duplicates).unwrap();
    /// assert_eq!((parent.distance(), fewer.distance()), (Some(31), Some(31)));
    /// assert!(fewer.stats.unwrap().generated < parent.stats.unwrap().generated);
    /// ```
    pub fn solve_pruned(
        &self,
        others: &[&PatternDb<D>],
        board: &Board,
        pruning: Pruning,
    ) -> Result<Solution, SolveError> {
        let sets: Vec<&PatternDb<D>> = std::iter::once(self)
            .chain(others.iter().copied())
            .collect();
        PatternDb::solve_sets_toward(&sets, &self.class, board, pruning, |_| {
            ControlFlow::Continue(())
        })
    }

    /// IDA* under the maximum of `sets` (the first read first) toward
    /// `class`'s goal, as [`solve_with`](PatternDb::solve_with), showing
    /// the work to `progress` as `solve_toward_with_progress` does.
    pub(crate) fn solve_sets_toward(
        sets: &[&PatternDb<D>],
        class: &GoalClass,
        board: &Board,
        pruning: Pruning,
        mut progress: impl FnMut(&Stats) -> ControlFlow<()> + Send,
    ) -> Result<Solution, SolveError> {
        for set in sets {
            set.check_goal(class)?;
        }
        check_shape(class.goal().shape(), board.shape())?;
        let goal = *class.canonical();
        let indexed = class.to_canonical(board);
        if !indexed.can_reach(&goal) {
            return Ok(Solution::unsolvable());
        }
        let groups: Vec<Vec<ida::Group>> = sets
            .iter()
            .map(|set| {
                set.indexed
                    .groups
                    .iter()
                    .enumerate()
                    .map(|(g, tiles)| ida::Group {
                        tiles,
                        entries: set.entries(g),
                        kind: set.kind,
                    })
                    .collect()
            })
            .collect();
        // The blank's moves in the order up, left, right, down as seen
        // toward the goal asked for (the cells it can go to in reading
        // order, as Korf's IDA* tries them): the same tree, node for node,
        // whichever goal of the class the databases were built for.
        let order = [Move::Up, Move::Left, Move::Right, Move::Down].map(|asked| {
            *Move::ALL
                .iter()
                .find(|&&m| {
                    let mut seen = [m];
                    class.moves_back(&mut seen);
                    seen[0] == asked
                })
                .expect("a symmetry maps the moves one to one")
        });
        let mut progress: ida::Progress = &mut progress;
        match ida::Search::new(&goal, &groups, order, pruning).solve(&indexed, &mut progress) {
            Err(stats) => Err(SolveError::Stopped { stats }),
            Ok(Some((mut moves, stats))) => {
                class.moves_back(&mut moves);
                Ok(Solution {
                    moves: Some(moves),
                    metric: Metric::Single,
                    stats: Some(stats),
                })
            }
            Ok(None) => Err(SolveError::Damaged {
                board: board.to_string(),
                why: "the pattern databases let no path through within 1000 moves, or a blank-aware entry leads nowhere",
            }),
        }
    }
}

/// The cells next to each cell of `shape`, as masks.
fn neighbour_masks(shape: Shape) -> [u32; MAX_CELLS] {
    let (n, cols) = (shape.cells(), shape.cols());
    let mut masks = [0u32; MAX_CELLS];
    for (c, mask) in masks.iter_mut().enumerate().take(n) {
        let (row, col) = (c / cols, c % cols);
        if row > 0 {
            *mask |= 1 << (c - cols);
        }
        if c + cols < n {
            *mask |= 1 << (c + cols);
        }
        if col > 0 {
            *mask |= 1 << (c - 1);
        }
        if col + 1 < cols {
            *mask |= 1 << (c + 1);
        }
    }
    masks
}

impl PatternDb<memmap2::Mmap> {
    /// Memory-maps a pattern database file and opens it with
    /// [`PatternDb::new`] (the body checksum is not checked; see
    /// [`PatternDb::verify`]). As for any map, a file changed in place by another program while it is mapped changes
    /// what the map reads, and one truncated in place makes reads past its
    /// new end fault (SIGBUS), the risk of every memory-mapped reader;
    /// slidedb itself only renames new files over old ones.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb, write_atomic};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let db = pdb::build(&goal, &pdb::Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("pdb.slidedb");
    /// write_atomic(&path, db.as_bytes(), false).unwrap();
    /// assert_eq!(pdb::PatternDb::open_path(&path).unwrap().partition(), db.partition());
    /// ```
    pub fn open_path(path: &Path) -> Result<PatternDb<memmap2::Mmap>, FileError> {
        PatternDb::new(map_file(path)?)
    }
}

impl<D: AsRef<[u8]>> BuiltFor for PatternDb<D> {
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
    use crate::generate;
    use crate::rank::{Index, Indexer};
    use crate::solver::Solver;

    /// On every 3x3 board the additive estimate never exceeds the true
    /// distance, is at least Manhattan's, and is exact somewhere far away.
    #[test]
    fn additive_estimates_are_admissible_on_every_eight_puzzle() {
        let goal = Board::solved(Shape::EIGHT);
        let table = generate(&goal, |_| {}).unwrap();
        let db = build(&goal, &Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
        let solver = Solver::new(&goal);
        let indexer = Indexer::new(&goal);
        let mut exact_far = 0;
        for i in 0..indexer.len() {
            let board = indexer.unrank(Index(i)).unwrap();
            let d = table.distance(&board).unwrap().unwrap();
            let h = db.estimate(&board).unwrap();
            assert!(h <= d, "{board:?}: estimate {h} > distance {d}");
            assert!(h >= solver.manhattan(&board), "{board:?}");
            if h == d && d >= 20 {
                exact_far += 1;
            }
        }
        assert!(exact_far > 0);
    }

    /// Blank-aware estimates on every 3×3 board toward two goals: never
    /// above the distance, never below the plain ones, above them on many
    /// boards; and IDA* under them finds every distance on a spread of
    /// boards, as under the plain ones, expanding no more nodes in all.
    #[test]
    fn blank_aware_estimates_are_admissible_and_solve_optimally() {
        // Groups of one size, and of two (the smaller padded in the
        // search's ranks).
        for (goal, spec) in [
            (Board::solved(Shape::EIGHT), "4-4"),
            ("1 2 3 4 0 5 6 7 8".parse().unwrap(), "4-4"),
            (Board::solved(Shape::EIGHT), "1,2,3/4,5,6,7,8"),
        ] {
            let table = generate(&goal, |_| {}).unwrap();
            let partition = Partition::parse(&goal, spec).unwrap();
            let plain = build(&goal, &partition, |_| {}).unwrap();
            let aware = build_blank_aware(&goal, &partition, |_| {}).unwrap();
            aware.verify().unwrap();
            let indexer = Indexer::new(&goal);
            let (mut above, mut nodes) = (0, [0u64; 2]);
            for i in 0..indexer.len() {
                let board = indexer.unrank(Index(i)).unwrap();
                let d = table.distance(&board).unwrap().unwrap();
                let (h, p) = (
                    aware.estimate(&board).unwrap(),
                    plain.estimate(&board).unwrap(),
                );
                assert!(
                    p <= h && h <= d,
                    "{goal} {board:?}: plain {p}, aware {h}, distance {d}"
                );
                above += usize::from(h > p);
                if i % 97 == 0 {
                    for (count, db) in nodes.iter_mut().zip([&plain, &aware]) {
                        let found = db.solve(&board).unwrap();
                        assert_eq!(found.distance(), Some(d), "{goal} {board:?}");
                        *count += found.stats.unwrap().expanded;
                    }
                }
            }
            assert!(
                above as u64 > indexer.len() / 20,
                "{goal} {spec}: above the plain estimate on {above} boards"
            );
            // (Not implied by the larger estimates alone, whose bounds go
            // up other ways; found so over these boards.)
            assert!(nodes[1] <= nodes[0], "{goal} {spec}: {nodes:?}");
        }
        // A group of every tile: entries only where the board can reach
        // the goal; a board that cannot is estimated, not called damaged.
        let goal = Board::solved(Shape::EIGHT);
        let all = Partition::parse(&goal, "1,2,3,4,5,6,7,8").unwrap();
        let aware = build_blank_aware(&goal, &all, |_| {}).unwrap();
        let table = generate(&goal, |_| {}).unwrap();
        for text in [
            "2 1 3 4 5 6 7 8 0",
            "1 2 3 4 5 6 8 7 0",
            "1 3 2 4 5 6 7 8 0",
        ] {
            let board: Board = text.parse().unwrap();
            assert!(!board.can_reach(&goal));
            assert_eq!(aware.estimate(&board), Ok(0), "{board}");
        }
        for text in ["8 6 7 2 5 4 3 0 1", "1 2 3 4 5 6 0 7 8"] {
            let board: Board = text.parse().unwrap();
            let d = table.distance(&board).unwrap().unwrap();
            assert_eq!(
                aware.estimate(&board),
                Ok(d),
                "{board}: one group of every tile is exact"
            );
        }
    }

    /// Blank-aware databases: a changed entry is found by the checksum, a
    /// changed entry sealed again by the recount, and the goal's entry
    /// not 0 on open.
    #[test]
    fn damaged_blank_aware_entries_are_refused() {
        let goal = Board::solved(Shape::new(2, 4).unwrap());
        let partition = Partition::standard(&goal, "4-3").unwrap();
        let db = build_blank_aware(&goal, &partition, |_| {}).unwrap();
        assert_eq!(db.entry_kind(), EntryKind::BlankAware);
        let copy = PatternDb::new(db.as_bytes().to_vec()).unwrap();
        assert_eq!(copy.entry_kind(), EntryKind::BlankAware);
        copy.verify().unwrap();
        let body = db.ranges[1].start;
        // A code changed and the checksum left: the checksum fails.
        let mut bytes = db.as_bytes().to_vec();
        bytes[body + 3] ^= 0b01;
        assert!(PatternDb::new(bytes.clone()).unwrap().verify().is_err());
        // Sealed again: the counts of the codes no longer match.
        let resealed = file::write(&db.metadata, EntryKind::BlankAware, &bytes[db.body.clone()]);
        let err = PatternDb::new(resealed).unwrap().verify().unwrap_err();
        assert!(err.to_string().contains("layer counts"), "{err}");
        // The goal's entry not 0: refused on open.
        let mut body_bytes = db.as_bytes()[db.body.clone()].to_vec();
        let home = db.home_index(0);
        body_bytes[home / 4] ^= 1 << (2 * (home % 4));
        let err = PatternDb::new(file::write(
            &db.metadata,
            EntryKind::BlankAware,
            &body_bytes,
        ))
        .unwrap_err();
        assert!(err.to_string().contains("not 0"), "{err}");
        // Plain bytes read as blank-aware ones: the layer counts add up to
        // the placements, not to the placements and blank cells.
        let plain = build(&goal, &partition, |_| {}).unwrap();
        let err = PatternDb::new(file::write(
            &plain.metadata,
            EntryKind::BlankAware,
            &plain.as_bytes()[plain.body.clone()],
        ))
        .unwrap_err();
        assert!(err.to_string().contains("layer counts"), "{err}");
        // Codes changed everywhere and sealed again: opened (the goal's
        // entries kept), estimates answered or refused as damaged, never
        // a panic.
        let mut body_bytes = db.as_bytes()[db.body.clone()].to_vec();
        for (i, byte) in body_bytes.iter_mut().enumerate() {
            *byte ^= 0b0110_0101 ^ (i as u8);
        }
        for g in 0..2 {
            let (at, home) = (db.ranges[g].start - db.body.start, db.home_index(g));
            body_bytes[at + home / 4] &= !(3 << (2 * (home % 4)));
        }
        let damaged = PatternDb::new(file::write(
            &db.metadata,
            EntryKind::BlankAware,
            &body_bytes,
        ))
        .unwrap();
        let indexer = Indexer::new(&goal);
        let mut refused = 0;
        for i in (0..indexer.len()).step_by(7) {
            let board = indexer.unrank(Index(i)).unwrap();
            match damaged.estimate(&board) {
                Ok(_) => {}
                Err(SolveError::Damaged { .. }) => refused += 1,
                Err(e) => panic!("{board}: {e}"),
            }
        }
        assert!(refused > 0);
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
