//! What a full table knows beyond one solution: every move's outcome (a
//! probe), and the exact number of optimal solutions.
//!
//! Both come from the 2-bit residues alone. The graph is bipartite, so a
//! neighbour of a board at distance `d` is at `d − 1` or `d + 1`, and the
//! two differ mod 3: one entry read tells which.

use std::fmt;

use crate::board::{Board, Metric, Move};
use crate::rank::Index;
use crate::solution::SolveError;
use crate::symmetry::BuiltFor;
use crate::symmetry::GoalClass;

use super::Table;

/// One legal move of the blank in the table's metric, and where it leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveOutcome {
    /// The move (the direction the blank travels).
    pub mv: Move,
    /// How many cells the blank travels: 1 in the single-tile metric, 1 or
    /// more in the multi-tile metric (written as the letter repeated).
    pub cells: u8,
    /// The board it leads to.
    pub board: Board,
    /// That board's distance to the goal: one less or one more (in the
    /// multi-tile metric also the same).
    pub distance: u32,
    /// Whether the move starts an optimal solution (it leads one closer).
    pub optimal: bool,
}

/// A board's distance and every legal move's outcome, as a chess
/// tablebase gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The board probed.
    pub board: Board,
    /// Its distance to the goal, or `None` if it cannot reach the goal.
    pub distance: Option<u32>,
    /// Each legal move of the blank, in the order `u d l r` (in the
    /// multi-tile metric each direction's nearest first); empty when the
    /// board cannot reach the goal.
    pub moves: Vec<MoveOutcome>,
    /// The metric of the distances and moves.
    pub metric: Metric,
}

impl MoveOutcome {
    /// The move as a [`Slide`](crate::Slide): its direction and cells.
    ///
    /// ```
    /// use slidedb::{Board, Metric, Shape, table::generate_in};
    /// let table = generate_in(&Board::solved(Shape::EIGHT), Metric::Multi, |_| {}).unwrap();
    /// let probe = table.probe(&"1 2 3 4 5 6 0 7 8".parse().unwrap()).unwrap();
    /// let moves: Vec<String> = probe.moves.iter().map(|m| m.slide().to_string()).collect();
    /// assert_eq!(moves, ["u", "uu", "r", "rr"]);
    /// let best: Vec<String> =
    ///     probe.moves.iter().filter(|m| m.optimal).map(|m| m.slide().to_string()).collect();
    /// assert_eq!(best, ["rr"]);
    /// ```
    pub fn slide(&self) -> crate::Slide {
        crate::Slide {
            mv: self.mv,
            cells: self.cells,
        }
    }
}

impl Probe {
    /// Whether the board can reach the goal.
    ///
    /// ```
    /// use slidedb::{Board, BuiltFor, Shape, generate};
    /// let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
    /// assert!(table.probe(table.goal()).unwrap().is_solvable());
    /// ```
    pub fn is_solvable(&self) -> bool {
        self.distance.is_some()
    }

    /// The directions of the moves that lead one closer (none on the goal
    /// itself); see [`MoveOutcome::slide`] for how far each goes in the
    /// multi-tile metric.
    ///
    /// ```
    /// use slidedb::{Board, Move, Shape, generate};
    /// let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
    /// let probe = table.probe(&"1 2 3 4 5 6 7 0 8".parse().unwrap()).unwrap();
    /// assert_eq!(probe.optimal_moves().collect::<Vec<_>>(), [Move::Right]);
    /// ```
    pub fn optimal_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves.iter().filter(|m| m.optimal).map(|m| m.mv)
    }
}

/// An exact count of optimal solutions: an unsigned integer of up to 512
/// bits, far more than any table needs (a board at distance `d` has at
/// most `4 · 3^(d−1)` optimal solutions, below 2^512 for every `d` up to
/// 323; the deepest full tables are 53 moves, 3×4, and 80, 4×4).
///
/// ```
/// use slidedb::table::PathCount;
/// let n = PathCount::from(12u64);
/// assert_eq!(n.to_string(), "12");
/// assert_eq!(n.to_u128(), Some(12));
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct PathCount {
    /// Base 2^64 digits, least significant first.
    limbs: [u64; LIMBS],
}

/// 64-bit digits of a [`PathCount`].
const LIMBS: usize = 8;

impl PathCount {
    /// The count as a `u128`, if it fits.
    ///
    /// ```
    /// use slidedb::table::PathCount;
    /// assert_eq!(PathCount::from(u128::MAX).to_u128(), Some(u128::MAX));
    /// ```
    pub fn to_u128(&self) -> Option<u128> {
        self.limbs[2..]
            .iter()
            .all(|&l| l == 0)
            .then(|| self.limbs[0] as u128 | (self.limbs[1] as u128) << 64)
    }

    /// The count as a `u64`, if it fits.
    ///
    /// ```
    /// use slidedb::table::PathCount;
    /// assert_eq!(PathCount::from(7u64).to_u64(), Some(7));
    /// assert_eq!(PathCount::from(u64::MAX as u128 + 1).to_u64(), None);
    /// ```
    pub fn to_u64(&self) -> Option<u64> {
        self.to_u128().and_then(|n| u64::try_from(n).ok())
    }

    /// Adds `other` (no count a table gives comes near the limit).
    fn add(&mut self, other: &PathCount) {
        let mut carry = 0u64;
        for (a, &b) in self.limbs.iter_mut().zip(&other.limbs) {
            let (s1, c1) = a.overflowing_add(b);
            let (s2, c2) = s1.overflowing_add(carry);
            *a = s2;
            carry = (c1 | c2) as u64;
        }
        debug_assert_eq!(carry, 0, "a path count past 512 bits");
    }

    /// Divides by `d` in place, returning the remainder.
    fn div_rem(&mut self, d: u64) -> u64 {
        let mut rem = 0u128;
        for limb in self.limbs.iter_mut().rev() {
            let cur = rem << 64 | *limb as u128;
            *limb = (cur / d as u128) as u64;
            rem = cur % d as u128;
        }
        rem as u64
    }
}

impl From<u64> for PathCount {
    fn from(n: u64) -> PathCount {
        PathCount::from(n as u128)
    }
}

impl From<u128> for PathCount {
    fn from(n: u128) -> PathCount {
        let mut limbs = [0; LIMBS];
        limbs[0] = n as u64;
        limbs[1] = (n >> 64) as u64;
        PathCount { limbs }
    }
}

impl PartialOrd for PathCount {
    fn partial_cmp(&self, other: &PathCount) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PathCount {
    fn cmp(&self, other: &PathCount) -> std::cmp::Ordering {
        self.limbs.iter().rev().cmp(other.limbs.iter().rev())
    }
}

impl fmt::Display for PathCount {
    /// In full, in decimal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const CHUNK: u64 = 10_000_000_000_000_000_000; // 10^19
        let mut n = *self;
        let mut chunks = Vec::new();
        loop {
            chunks.push(n.div_rem(CHUNK));
            if n.limbs.iter().all(|&l| l == 0) {
                break;
            }
        }
        let mut text = chunks.pop().expect("one chunk").to_string();
        for chunk in chunks.iter().rev() {
            text.push_str(&format!("{chunk:019}"));
        }
        f.pad_integral(true, "", &text)
    }
}

impl fmt::Debug for PathCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// What the counting walk adds up: a `u128` while the count must fit
/// (distance up to 80), a [`PathCount`] beyond.
trait Tally: Copy {
    const ONE: Self;
    fn add(&mut self, other: &Self);
    fn count(self) -> PathCount;
}

impl Tally for u128 {
    const ONE: u128 = 1;
    fn add(&mut self, other: &u128) {
        *self += other;
    }
    fn count(self) -> PathCount {
        PathCount::from(self)
    }
}

impl Tally for PathCount {
    const ONE: PathCount = PathCount {
        limbs: [1, 0, 0, 0, 0, 0, 0, 0],
    };
    fn add(&mut self, other: &PathCount) {
        PathCount::add(self, other);
    }
    fn count(self) -> PathCount {
        self
    }
}

/// The deepest distance whose counts fit a `u128` in the single-tile
/// metric: 4 · 3^79 < 2^128.
const MAX_U128_DISTANCE: u32 = 80;

/// The same in the multi-tile metric, for boards of up to 14 cells: a
/// board has at most 7 moves (2×7), and an optimal solution never takes
/// the move back, so at most 7 · 6^48 < 2^128.
const MAX_U128_DISTANCE_MULTI: u32 = 49;

impl<D: AsRef<[u8]>> Table<D> {
    /// The deepest distance whose counts this table adds up in a `u128`.
    fn max_u128_distance(&self) -> u32 {
        match self.metric() {
            Metric::Single => MAX_U128_DISTANCE,
            Metric::Multi => MAX_U128_DISTANCE_MULTI,
        }
    }
}

impl<D: AsRef<[u8]>> Table<D> {
    /// The board's distance, and every legal move's: see [`Probe`].
    ///
    /// ```
    /// use slidedb::{Board, Move, Shape, generate};
    /// let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
    /// let probe = table.probe(&"2 3 4 1 5 x 7 6 8".parse().unwrap()).unwrap();
    /// assert_eq!(probe.distance, Some(19));
    /// let outcomes: Vec<(Move, u32)> = probe.moves.iter().map(|m| (m.mv, m.distance)).collect();
    /// assert_eq!(outcomes, [(Move::Up, 18), (Move::Down, 18), (Move::Left, 18)]); // all optimal
    /// ```
    pub fn probe(&self, board: &Board) -> Result<Probe, SolveError> {
        self.probe_toward(&self.class, board)
    }

    /// Like [`probe`](Table::probe), toward another goal of the table's
    /// class: `class` is that goal's ([`GoalClass::of`]).
    pub(crate) fn probe_toward(
        &self,
        class: &GoalClass,
        board: &Board,
    ) -> Result<Probe, SolveError> {
        let indexed = self.to_indexed(class, board)?;
        let Some(distance) = self.descend(&indexed, |_| {})? else {
            return Ok(Probe {
                board: *board,
                distance: None,
                moves: Vec::new(),
                metric: self.metric(),
            });
        };
        let (closer, same, farther) = ((distance + 2) % 3, distance % 3, (distance + 1) % 3);
        let multi = self.metric() == Metric::Multi;
        let mut moves = Vec::with_capacity(4);
        for (slide, next) in indexed.slides(self.metric()) {
            let residue = self.residue(self.indexer.rank_unchecked(&next)) as u32;
            let (optimal, distance) = if distance > 0 && residue == closer {
                (true, distance - 1)
            } else if residue == farther {
                (false, distance + 1)
            } else if multi && residue == same {
                (false, distance)
            } else {
                return Err(SolveError::Damaged {
                    board: next.to_string(),
                    why: "a neighbour's entry is neither one closer nor one farther",
                });
            };
            let mut seen = [slide.mv];
            class.moves_back(&mut seen);
            moves.push(MoveOutcome {
                mv: seen[0],
                cells: slide.cells,
                board: class.from_canonical(&next),
                distance,
                optimal,
            });
        }
        moves.sort_by_key(|m| (Move::ALL.iter().position(|&a| a == m.mv), m.cells));
        Ok(Probe {
            board: *board,
            distance: Some(distance),
            moves,
            metric: self.metric(),
        })
    }

    /// The exact number of distinct optimal solutions (move sequences of
    /// the board's distance that reach the goal), or `None` if the board
    /// cannot reach the goal. The goal itself has one, the empty one.
    ///
    /// Computed by a walk from the board, one layer of distance at a time:
    /// it keeps the boards one step further along some optimal solution
    /// (the neighbours whose entry says one closer), each with the number
    /// of optimal paths from the board that reach it, merging the paths
    /// that meet on one board. The count at the goal is the answer. Time
    /// and memory grow with the widest layer of optimal solutions, not
    /// with their number (tens of thousands of boards for the hardest
    /// 3×4 boards).
    ///
    /// ```
    /// use slidedb::{Board, Shape, generate};
    /// let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
    /// let count = |text: &str| table.count(&text.parse().unwrap()).unwrap().map(|n| n.to_string());
    /// assert_eq!(count("1 2 3 4 5 6 7 8 0"), Some("1".into())); // the goal: the empty solution
    /// assert_eq!(count("2 3 4 1 5 x 7 6 8"), Some("4".into())); // 19 moves
    /// assert_eq!(count("8 6 7 2 5 4 3 0 1"), Some("40".into())); // 31 moves
    /// assert_eq!(count("2 1 3 4 5 6 7 8 0"), None);
    /// ```
    pub fn count(&self, board: &Board) -> Result<Option<PathCount>, SolveError> {
        self.count_toward(&self.class, board)
    }

    /// Like [`count`](Table::count), toward another goal of the table's
    /// class: `class` is that goal's ([`GoalClass::of`]). Counts do not
    /// change under the symmetry that maps one goal onto another.
    pub(crate) fn count_toward(
        &self,
        class: &GoalClass,
        board: &Board,
    ) -> Result<Option<PathCount>, SolveError> {
        let indexed = self.to_indexed(class, board)?;
        let Some(distance) = self.descend(&indexed, |_| {})? else {
            return Ok(None);
        };
        if distance <= self.max_u128_distance() {
            self.count_paths::<u128>(&indexed, distance).map(Some)
        } else {
            self.count_paths::<PathCount>(&indexed, distance).map(Some)
        }
    }

    /// The layered walk of `count_toward`, from a
    /// board toward the indexed goal at `distance`.
    fn count_paths<T: Tally>(&self, start: &Board, distance: u32) -> Result<PathCount, SolveError> {
        let damaged = |index: u64, why: &'static str| {
            let board = self.indexer.unrank(Index(index));
            SolveError::Damaged {
                board: board.map_or_else(|| format!("index {index}"), |b| b.to_string()),
                why,
            }
        };
        // (index, paths from the start to it), sorted by index.
        let mut layer: Vec<(u64, T)> = vec![(self.indexer.rank_unchecked(start).0, T::ONE)];
        let mut arrivals: Vec<(u64, T)> = Vec::new();
        let multi = self.metric() == Metric::Multi;
        for walked in 0..distance {
            let left = distance - walked; // the layer's distance to the goal
            let (closer, same, farther) = ((left + 2) % 3, left % 3, (left + 1) % 3);
            arrivals.clear();
            for &(index, paths) in &layer {
                let here = self
                    .indexer
                    .unrank(Index(index))
                    .ok_or_else(|| damaged(index, "an index past the end"))?;
                if !multi {
                    for &(_, target) in self.adjacency.from(here.blank()) {
                        let next = self
                            .indexer
                            .rank_unchecked(&here.slide_from(target as usize));
                        match self.residue(next) as u32 {
                            r if r == closer => arrivals.push((next.0, paths)),
                            r if r == farther => {}
                            _ => return Err(damaged(next.0, "its entry holds no distance")),
                        }
                    }
                    continue;
                }
                for (_, board) in here.slides(Metric::Multi) {
                    let next = self.indexer.rank_unchecked(&board);
                    match self.residue(next) as u32 {
                        r if r == closer => arrivals.push((next.0, paths)),
                        r if r == farther || r == same => {}
                        _ => return Err(damaged(next.0, "its entry holds no distance")),
                    }
                }
            }
            if arrivals.is_empty() {
                return Err(damaged(layer[0].0, "no move leads one closer"));
            }
            arrivals.sort_unstable_by_key(|&(index, _)| index);
            layer.clear();
            for &(index, paths) in &arrivals {
                match layer.last_mut() {
                    Some((last, sum)) if *last == index => sum.add(&paths),
                    _ => layer.push((index, paths)),
                }
            }
        }
        let goal = self.indexer.rank_unchecked(self.class.canonical()).0;
        match layer.as_slice() {
            [(index, paths)] if *index == goal => Ok(paths.count()),
            _ => Err(damaged(
                layer[0].0,
                "distance 0 at a board that is not the goal",
            )),
        }
    }
}
