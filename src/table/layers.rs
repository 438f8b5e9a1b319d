//! Whole layers of a full table, and boards drawn uniformly at random at
//! a chosen distance.
//!
//! A 2-bit table knows each board's distance only mod 3 (its exact
//! distance costs a descent), so which boards make up a layer is found
//! again by the generator's search from the goal, which holds each layer
//! whole as it completes: listing layer `d` costs what building the table
//! costs up to layer `d` (seconds for 3×4), and checks the layer counts
//! against the table's on the way.
//!
//! Drawing a board uniformly at distance `d` (or in a range of distances):
//! when the range holds at least 1/256 of all boards, a uniformly random
//! board is drawn until its distance (by descent) falls in the range,
//! under 256 draws on average. Rarer ranges draw from a list of their
//! boards ([`RareLayers`], built once by the same search), choosing the
//! layer in proportion to its count: every board of the range is then
//! equally likely.

use crate::symmetry::BuiltFor;
use std::ops::{ControlFlow, RangeInclusive};

use serde::{Deserialize, Serialize};

use crate::board::{Board, Metric};
use crate::format::{self, FileError, Frame, Kind};
use crate::random::SplitMix64;
use crate::rank::Index;
use crate::solution::SolveError;
use crate::symmetry::GoalClass;

use super::Table;
use crate::bfs::MAX_IN_MEMORY_CELLS;
use crate::bfs::{LayerBoards, sweep};

/// The boards of a table's rare layers, as indexes, to draw from them
/// directly: a layer is rare when it holds at most 1/256 of the table's
/// boards, or 65,536 if that is more, or 16,777,216 if that is less. Built once per table (the search of
/// [`Table::layer`], up to the deepest rare layer wanted); 8 bytes a board
/// listed (3×3: every layer, 1.5 MB; 3×4: the layers up to 23 moves and
/// from 47, about 2.6 M boards, 21 MB).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RareLayers {
    /// The indexed goal of the table it was built from.
    indexed_goal: Board,
    /// That table's layer counts.
    layers: Vec<u64>,
    /// That table's body checksum.
    table_crc: u32,
    /// That table's metric.
    metric: Metric,
    /// `lists[d]`: the indexes of layer `d`, in increasing order, for the
    /// rare layers up to the deepest one built.
    lists: Vec<Option<Vec<u64>>>,
}

impl RareLayers {
    /// The most boards a rare layer (or range of layers) holds, for a
    /// table of `states` boards: 1/256 of them, at least 65,536 and at
    /// most 2^24 (on 2×7 the rare layers then hold 88 M boards, a 0.7 GB
    /// list; the layers above it are drawn from by rejection, at least 1
    /// board in 2,600 of them).
    pub(crate) fn threshold(states: u64) -> u64 {
        (states / 256).clamp(1 << 16, 1 << 24)
    }

    /// Lists the rare layers of `table` up to distance `upto` (all of
    /// them if `upto` is its greatest distance or more).
    ///
    /// ```
    /// use slidedb::{Board, Shape, generate, table::RareLayers};
    /// let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
    /// let rare = RareLayers::build(&table, 31).unwrap();
    /// assert!(rare.covers(31));
    /// assert_eq!(rare.boards(), 181_440); // every 8-puzzle layer is rare
    /// ```
    pub fn build<D: AsRef<[u8]>>(table: &Table<D>, upto: u32) -> Result<RareLayers, SolveError> {
        RareLayers::build_reporting(table, upto, |_, _| {})
    }

    /// Like [`build`](RareLayers::build), calling `on_layer(depth, boards)`
    /// as each layer of the search from the goal is done (for a progress
    /// display: on 2×7 the search takes minutes).
    pub(crate) fn build_reporting<D: AsRef<[u8]>>(
        table: &Table<D>,
        upto: u32,
        mut on_layer: impl FnMut(u32, u64),
    ) -> Result<RareLayers, SolveError> {
        let layers = table.layers().to_vec();
        let threshold = RareLayers::threshold(table.states());
        let upto = upto.min(table.max_distance());
        let mut lists: Vec<Option<Vec<u64>>> = vec![None; upto as usize + 1];
        table.sweep(upto, |depth, frontier| {
            on_layer(depth, frontier.states());
            if layers[depth as usize] <= threshold {
                let mut list = Vec::with_capacity(layers[depth as usize] as usize);
                let _ = frontier.for_each(&mut |index| {
                    list.push(index.0);
                    ControlFlow::Continue(())
                });
                lists[depth as usize] = Some(list);
            }
            ControlFlow::Continue(())
        })?;
        Ok(RareLayers {
            indexed_goal: *table.indexed_goal(),
            layers,
            table_crc: table.body_crc(),
            metric: table.metric(),
            lists,
        })
    }

    /// The file's bytes (kind 3; `FORMAT.md`): the indexes of each listed
    /// layer, 4 bytes each (8 for tables of 2^32 boards or more).
    ///
    /// ```
    /// use slidedb::{Board, Shape, generate, table::RareLayers};
    /// let table = generate(&Board::solved(Shape::new(2, 3).unwrap()), |_| {}).unwrap();
    /// let rare = RareLayers::build(&table, 21).unwrap();
    /// let bytes = rare.to_bytes();
    /// assert_eq!(RareLayers::from_bytes(&bytes, &table).unwrap(), rare);
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let wide = self.layers.iter().sum::<u64>() > u32::MAX as u64;
        let mut body = Vec::with_capacity(self.boards() as usize * if wide { 8 } else { 4 });
        let mut listed = Vec::new();
        for (d, list) in self.lists.iter().enumerate() {
            let Some(list) = list else { continue };
            listed.push(d as u32);
            for &index in list {
                if wide {
                    body.extend_from_slice(&index.to_le_bytes());
                } else {
                    body.extend_from_slice(&(index as u32).to_le_bytes());
                }
            }
        }
        let metadata = RareMetadata {
            generator: concat!("slidedb ", env!("CARGO_PKG_VERSION")).to_string(),
            rows: self.indexed_goal.shape().rows() as u8,
            cols: self.indexed_goal.shape().cols() as u8,
            indexed_goal: self.indexed_goal.tiles().collect(),
            layers: self.layers.clone(),
            table_crc: self.table_crc,
            upto: self.lists.len() as u32 - 1,
            listed,
            metric: crate::goals::metric_byte(self.metric),
        };
        format::write(Kind::RareLayers, encoding(wide), &metadata, &body)
    }

    /// Reads the bytes [`to_bytes`](RareLayers::to_bytes) wrote, for
    /// `table`: checks the frame, the body's checksum, that they were made
    /// from this very table (its indexed goal, layer counts and body
    /// checksum), and every list (each rare layer up to the deepest one
    /// searched, complete, in increasing order, within the table).
    pub fn from_bytes<D: AsRef<[u8]>>(
        bytes: &[u8],
        table: &Table<D>,
    ) -> Result<RareLayers, FileError> {
        let wide = table.states() > u32::MAX as u64;
        let Frame {
            metadata: m,
            body,
            body_crc,
        } = format::read::<RareMetadata>(bytes, Kind::RareLayers, encoding(wide))?;
        let body = &bytes[body];
        format::check_body(body, body_crc)?;
        let indexed: Vec<u8> = table.indexed_goal().tiles().collect();
        let shape = table.shape();
        if (m.rows as usize, m.cols as usize) != (shape.rows(), shape.cols())
            || m.indexed_goal != indexed
            || m.layers != table.layers()
            || m.table_crc != table.body_crc()
            || crate::goals::metric_of(m.metric)? != table.metric()
        {
            return Err(FileError::metadata(
                "the rare layers of another table (its goal, layer counts, checksum or metric differ)",
            ));
        }
        let threshold = RareLayers::threshold(table.states());
        if m.upto > table.max_distance() {
            return Err(FileError::metadata("listed past the greatest distance"));
        }
        let rare: Vec<u32> = (0..=m.upto)
            .filter(|&d| m.layers[d as usize] <= threshold)
            .collect();
        if m.listed != rare {
            return Err(FileError::metadata(
                "the layers listed are not the rare ones",
            ));
        }
        let width = if wide { 8 } else { 4 };
        let expected = rare.iter().map(|&d| m.layers[d as usize]).sum::<u64>() * width;
        if body.len() as u64 != expected {
            return Err(FileError::layout(format!(
                "body of {} bytes, but the listed layers need {expected}",
                body.len()
            )));
        }
        let mut lists: Vec<Option<Vec<u64>>> = vec![None; m.upto as usize + 1];
        let mut entries = body
            .chunks_exact(width as usize)
            .map(|b| match b.try_into() {
                Ok(eight) => u64::from_le_bytes(eight),
                Err(_) => u32::from_le_bytes(b.try_into().expect("4 bytes")) as u64,
            });
        for &d in &rare {
            let list: Vec<u64> = entries
                .by_ref()
                .take(m.layers[d as usize] as usize)
                .collect();
            let ordered = list.windows(2).all(|w| w[0] < w[1]);
            if !ordered || list.last().is_some_and(|&i| i >= table.states()) {
                return Err(FileError::metadata(format!(
                    "layer {d}'s list is out of order or past the table"
                )));
            }
            lists[d as usize] = Some(list);
        }
        Ok(RareLayers {
            indexed_goal: *table.indexed_goal(),
            layers: m.layers,
            table_crc: m.table_crc,
            metric: table.metric(),
            lists,
        })
    }

    /// Whether layer `distance` is listed.
    pub fn covers(&self, distance: u32) -> bool {
        matches!(self.lists.get(distance as usize), Some(Some(_)))
    }

    /// How many boards are listed.
    pub fn boards(&self) -> u64 {
        self.lists.iter().flatten().map(|l| l.len() as u64).sum()
    }

    /// Whether it was built from this table (its indexed goal, counts and
    /// checksum).
    fn fits<D: AsRef<[u8]>>(&self, table: &Table<D>) -> bool {
        self.indexed_goal == *table.indexed_goal()
            && self.layers == table.layers()
            && self.table_crc == table.body_crc()
    }
}

/// Entry encoding 3: an index as 4 bytes, little-endian; 4: as 8 bytes.
fn encoding(wide: bool) -> u16 {
    if wide { 4 } else { 3 }
}

/// What a rare-layers file's metadata holds (bincode 2, standard
/// configuration); `FORMAT.md` lists the fields.
#[derive(Serialize, Deserialize)]
struct RareMetadata {
    /// The program that wrote the file.
    generator: String,
    /// The table's shape.
    rows: u8,
    cols: u8,
    /// The table's indexed goal, cells in reading order.
    indexed_goal: Vec<u8>,
    /// The table's layer counts.
    layers: Vec<u64>,
    /// The table's body checksum.
    table_crc: u32,
    /// The deepest layer searched.
    upto: u32,
    /// The layers listed, in increasing order: every rare one up to `upto`.
    listed: Vec<u32>,
    /// The table's metric ([`crate::goals::metric_byte`]).
    metric: u8,
}

impl<D: AsRef<[u8]>> Table<D> {
    /// Runs the generator's search up to `upto` (at most the greatest
    /// distance), showing each layer to `visit`, and checks each layer's
    /// count against the table's.
    fn sweep(
        &self,
        upto: u32,
        mut visit: impl FnMut(u32, &dyn LayerBoards) -> ControlFlow<()>,
    ) -> Result<(), SolveError> {
        let mut outcome = Ok(());
        let layers = self.layers();
        let mut check = |frontier: &dyn LayerBoards| {
            let depth = frontier.depth();
            if layers.get(depth as usize) != Some(&frontier.states()) {
                outcome = Err(SolveError::Damaged {
                    board: self.indexed_goal().to_string(),
                    why: "its layer counts are not what a new search from the goal finds",
                });
                return ControlFlow::Break(());
            }
            visit(depth, frontier)?;
            if depth >= upto {
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        };
        // Past 12 cells the search runs in 3 bits a board.
        let searched = if self.metric() == Metric::Multi {
            crate::bfs::multi::sweep(&self.class, |frontier| check(frontier))
        } else if self.shape().cells() > MAX_IN_MEMORY_CELLS {
            crate::bfs::twobit::sweep(&self.class, &mut check)
        } else {
            sweep(&self.class, |frontier| check(frontier))
        };
        if let Err(e) = searched {
            return Err(SolveError::SearchLimit {
                what: format!("the search of the layers: {e}"),
            });
        }
        outcome
    }

    /// Calls `visit` with every board at exactly `distance` moves from the
    /// goal, in index order, until it breaks (nothing when no board is that
    /// far). A table knows distances mod 3 only, so this runs the
    /// generator's search from the goal up to layer `distance` (what
    /// building the table costs up to there: seconds on 3×4), checking
    /// each layer's count against the table's.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use slidedb::{Board, Shape, generate};
    /// let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
    /// let mut hardest = Vec::new();
    /// table.layer(31, |board| {
    ///     hardest.push(board.to_string());
    ///     ControlFlow::Continue(())
    /// }).unwrap();
    /// assert_eq!(hardest, ["6 4 7 8 5 0 3 2 1", "8 6 7 2 5 4 3 0 1"]);
    /// ```
    pub fn layer(
        &self,
        distance: u32,
        visit: impl FnMut(Board) -> ControlFlow<()>,
    ) -> Result<(), SolveError> {
        self.layer_toward(&self.class, distance, visit)
    }

    /// Like [`layer`](Table::layer), toward another goal of the table's
    /// class: `class` is that goal's ([`GoalClass::of`]). The order is the
    /// table's index order.
    pub(crate) fn layer_toward(
        &self,
        class: &GoalClass,
        distance: u32,
        visit: impl FnMut(Board) -> ControlFlow<()>,
    ) -> Result<(), SolveError> {
        self.layer_toward_reporting(class, distance, visit, |_, _| {})
    }

    /// Like `layer_toward`, calling
    /// `on_layer(depth, boards)` as each layer of the search from the goal
    /// is done, before the last one's boards are visited (for a progress
    /// display: on 2×7 the search takes minutes).
    pub(crate) fn layer_toward_reporting(
        &self,
        class: &GoalClass,
        distance: u32,
        mut visit: impl FnMut(Board) -> ControlFlow<()>,
        mut on_layer: impl FnMut(u32, u64),
    ) -> Result<(), SolveError> {
        self.to_indexed(class, class.goal())?;
        if distance > self.max_distance() {
            return Ok(());
        }
        let indexer = &self.indexer;
        self.sweep(distance, |depth, frontier| {
            on_layer(depth, frontier.states());
            if depth < distance {
                return ControlFlow::Continue(());
            }
            frontier.for_each(&mut |index| {
                let board = indexer.unrank(index).expect("an index of the layer");
                visit(if class.is_canonical() {
                    board
                } else {
                    class.from_canonical(&board)
                })
            })
        })
    }

    /// Whether drawing from `distances` needs [`RareLayers`] (built up to
    /// the returned distance) to be fast: `Some(deepest)` when the range
    /// holds fewer boards than [`RareLayers::threshold`], and some at all.
    pub(crate) fn rare_layers_needed(&self, distances: RangeInclusive<u32>) -> Option<u32> {
        let (lo, hi) = self.clamp(&distances)?;
        let total = self.layers()[lo as usize..=hi as usize].iter().sum::<u64>();
        (total <= RareLayers::threshold(self.states())).then_some(hi)
    }

    /// The range within the table's distances, if any of it is.
    fn clamp(&self, distances: &RangeInclusive<u32>) -> Option<(u32, u32)> {
        let (lo, hi) = (
            *distances.start(),
            (*distances.end()).min(self.max_distance()),
        );
        (lo <= hi).then_some((lo, hi))
    }

    /// A board drawn uniformly at random among all boards whose distance
    /// to `class`'s goal lies in `distances`, or `None` if there is none.
    /// The same `rng` state gives the same board on every machine.
    ///
    /// `rare` makes ranges that reach only rare layers fast;
    /// without it they are still drawn, uniformly, by drawing boards until
    /// one falls in the range, which can take millions of draws.
    pub(crate) fn random_toward(
        &self,
        class: &GoalClass,
        distances: RangeInclusive<u32>,
        rare: Option<&RareLayers>,
        rng: &mut SplitMix64,
    ) -> Result<Option<Board>, SolveError> {
        self.to_indexed(class, class.goal())?;
        let Some((lo, hi)) = self.clamp(&distances) else {
            return Ok(None);
        };
        let layers = &self.layers()[lo as usize..=hi as usize];
        let (lo, hi, board) = if self.rare_layers_needed(lo..=hi).is_none() {
            (lo, hi, None)
        } else {
            // Choose the layer by its share of the range, then a board of it.
            let mut pick = rng.below(layers.iter().sum());
            let mut distance = lo;
            for &count in layers {
                if pick < count {
                    break;
                }
                pick -= count;
                distance += 1;
            }
            let listed = rare
                .filter(|r| r.fits(self))
                .and_then(|r| r.lists.get(distance as usize))
                .and_then(Option::as_ref);
            let board = listed.map(|list| {
                let index = list[rng.below(list.len() as u64) as usize];
                self.indexer
                    .unrank(Index(index))
                    .expect("a listed index is below len")
            });
            (distance, distance, board)
        };
        let board = match board {
            Some(board) => board,
            None => loop {
                let index = Index(rng.below(self.states()));
                let board = self.indexer.unrank(index).expect("an index below len");
                if let Some(d) = self.descend(&board, |_| {})?
                    && (lo..=hi).contains(&d)
                {
                    break board;
                }
            },
        };
        Ok(Some(if class.is_canonical() {
            board
        } else {
            class.from_canonical(&board)
        }))
    }

    /// A board drawn uniformly at random among all boards whose distance
    /// to the table's goal lies in `distances`, or `None` if there is
    /// none; the same `rng` state gives the same board on every machine.
    /// `rare` makes ranges that reach only rare layers fast;
    /// without it they are still drawn, uniformly, by drawing boards until
    /// one falls in the range, which can take millions of draws. Toward
    /// another goal of the class: [`Toward::random`](crate::Toward::random).
    ///
    /// ```
    /// use slidedb::{Board, Shape, generate, random::SplitMix64, table::RareLayers};
    /// let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
    /// let rare = RareLayers::build(&table, 31).unwrap();
    /// let mut rng = SplitMix64::new(1);
    /// let board = table.random(31..=31, Some(&rare), &mut rng).unwrap().unwrap();
    /// assert_eq!(table.distance(&board), Ok(Some(31)));
    /// ```
    pub fn random(
        &self,
        distances: RangeInclusive<u32>,
        rare: Option<&RareLayers>,
        rng: &mut SplitMix64,
    ) -> Result<Option<Board>, SolveError> {
        self.random_toward(&self.class, distances, rare, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Shape};
    use crate::table::generate;

    #[test]
    fn build_reporting_reports_each_layer_listed() {
        let table = generate(&Board::solved(Shape::new(2, 3).unwrap()), |_| {}).unwrap();
        let mut seen = Vec::new();
        RareLayers::build_reporting(&table, 3, |depth, boards| seen.push((depth, boards))).unwrap();
        assert_eq!(seen, [(0, 1), (1, 2), (2, 3), (3, 5)]);
    }

    #[test]
    fn thresholds_by_states() {
        assert_eq!(RareLayers::threshold(239_500_800), 935_550);
        assert_eq!(RareLayers::threshold(181_440), 65_536);
        assert_eq!(RareLayers::threshold(43_589_145_600), 16_777_216);
    }

    #[test]
    fn rare_layers_are_needed_for_the_rare_distances_only() {
        let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
        assert_eq!(table.rare_layers_needed(31..=40), Some(31));
        assert_eq!(table.rare_layers_needed(0..=31), None);
        assert_eq!(table.rare_layers_needed(32..=40), None); // no board there
    }
}
