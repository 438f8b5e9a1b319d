//! Additive pattern databases: the exact-table idea applied to groups of
//! tiles, for boards too big for a full table (the 15-puzzle).
//!
//! A pattern is a group of tiles. Its database stores, for every placement
//! of those tiles (the other tiles unlabelled), the fewest moves *of the
//! group's own tiles* that bring them home, with the blank anywhere: a
//! breadth-first search over (placement, blank cell) in which moving
//! another tile costs nothing. Because each move moves one tile, the
//! values of disjoint groups add up to an estimate that never exceeds the
//! true distance, for IDA*.

mod build;

use crate::board::{Board, MAX_CELLS, Shape};
use crate::rank::{placement_count as placements, placement_rank};

/// Why a pattern database could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// A tile outside the board, twice, or the blank.
    #[error("bad pattern: {0}")]
    Tiles(String),
    /// Too many placements to hold.
    #[error("a pattern of {tiles} tiles on {shape} has {placements} placements; at most 8 tiles")]
    TooLarge {
        /// The shape.
        shape: Shape,
        /// Tiles in the pattern.
        tiles: usize,
        /// Placements it would have.
        placements: u64,
    },
}

/// One group's database: a distance for every placement of its tiles.
#[derive(Clone, Debug)]
pub struct PatternDatabase {
    shape: Shape,
    /// The group's tiles, ascending.
    tiles: Vec<u8>,
    /// `distance[rank(placement)]`.
    distance: Vec<u8>,
}

impl PatternDatabase {
    /// Builds the database of `tiles` toward `goal` by a 0-1 breadth-first
    /// search over (placement, blank cell).
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb::PatternDatabase};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let pdb = PatternDatabase::build(&goal, &[1, 2, 3, 4]).unwrap();
    /// assert_eq!(pdb.estimate(&goal), 0);
    /// let board: Board = "2 1 3 4 5 6 7 8 0".parse().unwrap();
    /// assert!(pdb.estimate(&board) >= 2); // 1 and 2 must pass each other
    /// ```
    pub fn build(goal: &Board, tiles: &[u8]) -> Result<PatternDatabase, PatternError> {
        let shape = goal.shape();
        let n = shape.cells();
        let mut group: Vec<u8> = tiles.to_vec();
        group.sort_unstable();
        group.dedup();
        if group.len() != tiles.len() || group.iter().any(|&t| t == 0 || t as usize >= n) {
            return Err(PatternError::Tiles(format!(
                "{tiles:?}: each of 1 to {} at most once",
                n - 1
            )));
        }
        let k = group.len();
        if k == 0 || k > 8 {
            return Err(PatternError::TooLarge {
                shape,
                tiles: k,
                placements: placements(n, k),
            });
        }
        let distance = build::group_distances(goal, &group, &mut |_, _| {});
        Ok(PatternDatabase {
            shape,
            tiles: group,
            distance,
        })
    }

    /// The group's tiles.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The fewest moves of the group's tiles that bring them home from
    /// `board` (a board of this database's shape).
    pub fn estimate(&self, board: &Board) -> u32 {
        debug_assert_eq!(board.shape(), self.shape);
        let mut cells = [0u8; 8];
        let n = self.shape.cells();
        for c in 0..n {
            let t = board.tile(c);
            if let Ok(i) = self.tiles.binary_search(&t) {
                cells[i] = c as u8;
            }
        }
        self.distance[placement_rank(&cells[..self.tiles.len()], n) as usize] as u32
    }
}

/// Disjoint pattern databases whose estimates add up.
#[derive(Clone, Debug)]
pub struct AdditivePatterns {
    groups: Vec<PatternDatabase>,
}

impl AdditivePatterns {
    /// Builds one database per group toward `goal`; the groups must not
    /// share a tile.
    ///
    /// ```
    /// use slidedb::{Board, Shape, pdb::AdditivePatterns};
    /// let goal = Board::solved(Shape::EIGHT);
    /// let pdbs = AdditivePatterns::build(&goal, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]).unwrap();
    /// let hardest: Board = "8 6 7 2 5 4 3 0 1".parse().unwrap();
    /// assert!(pdbs.estimate(&hardest) <= 31);
    /// ```
    pub fn build(goal: &Board, groups: &[&[u8]]) -> Result<AdditivePatterns, PatternError> {
        let mut all = [false; MAX_CELLS];
        for g in groups {
            for &t in *g {
                if (t as usize) < MAX_CELLS && std::mem::replace(&mut all[t as usize], true) {
                    return Err(PatternError::Tiles(format!("tile {t} is in two groups")));
                }
            }
        }
        // The groups' searches are independent: one per core.
        use rayon::prelude::*;
        Ok(AdditivePatterns {
            groups: groups
                .par_iter()
                .map(|g| PatternDatabase::build(goal, g))
                .collect::<Result<_, _>>()?,
        })
    }

    /// The sum of the groups' estimates: never more than the distance.
    pub fn estimate(&self, board: &Board) -> u32 {
        self.groups.iter().map(|g| g.estimate(board)).sum()
    }

    /// The groups.
    pub fn groups(&self) -> &[PatternDatabase] {
        &self.groups
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::{Index, Indexer};
    use crate::{generate, solver::Solver};

    /// On every 3x3 board the additive estimate never exceeds the true
    /// distance, is at least Manhattan's, and is exact somewhere far away.
    #[test]
    fn additive_estimates_are_admissible_on_every_eight_puzzle() {
        let goal = Board::solved(Shape::EIGHT);
        let table = generate(&goal, |_| {}).unwrap();
        let pdbs = AdditivePatterns::build(&goal, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]).unwrap();
        let solver = Solver::new(&goal);
        let indexer = Indexer::new(&goal);
        let mut exact_far = 0;
        for i in 0..indexer.len() {
            let board = indexer.unrank(Index(i)).unwrap();
            let d = table.distance(&board).unwrap().unwrap();
            let h = pdbs.estimate(&board);
            assert!(h <= d, "{board:?}: estimate {h} > distance {d}");
            assert!(h >= solver.manhattan(&board), "{board:?}");
            if h == d && d >= 20 {
                exact_far += 1;
            }
        }
        assert!(exact_far > 0);
    }
}
