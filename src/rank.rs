//! The perfect index: every board reachable from a goal maps one-to-one onto
//! `0 .. cells!/2`.
//!
//! The index of a board is
//!
//! ```text
//! blank cell × (m!/2) + ⌊lehmer(tiles) / 2⌋        (m = cells − 1 tiles)
//! ```
//!
//! where `lehmer(tiles)` is the Lehmer rank of the tiles in reading order,
//! blank left out. For a fixed blank cell the reachable boards are exactly
//! the tile orders of one parity (see [`Board::parity`]); the two orders
//! that differ only in their last two tiles have Lehmer ranks `2k` and
//! `2k + 1` and opposite parities, so halving the rank is one-to-one on
//! either parity. (Halving the Lehmer rank of all cells, blank included, is
//! not: it breaks when the blank sits in one of the last two cells.)
//!
//! A move of the blank along its row leaves the tile order unchanged, so it
//! changes the index by exactly ± m!/2; the searches use that.

use crate::board::{Board, MAX_CELLS, Shape};

/// A board's position in a table: `0 ..` [`Indexer::len`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Index(pub u64);

/// The most cells an [`Indexer`] covers: its index fits a `u64` and its
/// tiles four bits each. Boards of every size rank through [`board_rank`].
pub(crate) const MAX_INDEXED_CELLS: usize = 16;

/// Ranks and unranks the boards reachable from one goal (really: of one
/// shape and one [`parity`](Board::parity); the tile labels of the goal do
/// not matter), on boards of at most 16 cells: the
/// index of the full tables. [`board_rank`] and [`board_unrank`] give the
/// same index in a `u128` on boards of every size.
///
/// ```
/// use slidedb::{Board, Indexer};
/// let goal: Board = "1 2 3 4 5 6 7 8 0".parse().unwrap();
/// let indexer = Indexer::new(&goal);
/// assert_eq!(indexer.len(), 181_440);
/// let board: Board = "2 3 4 1 5 x 7 6 8".parse().unwrap();
/// let index = indexer.rank(&board).unwrap();
/// assert_eq!(indexer.unrank(index), Some(board));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Indexer {
    shape: Shape,
    parity: u8,
    /// m!/2: the boards per blank cell.
    per_blank: u64,
    /// `weight[i]` = (m − 1 − i)! / 2, for the Lehmer digits i < m − 2.
    weight: [u64; MAX_CELLS],
}

impl Indexer {
    /// The index of the boards that can reach `goal`.
    ///
    /// # Panics
    ///
    /// If the board has more than 16 cells.
    pub fn new(goal: &Board) -> Indexer {
        Indexer::for_class(goal.shape(), goal.parity())
    }

    /// The index of the boards of `shape` whose [`parity`](Board::parity)
    /// is `parity` (0 or 1).
    ///
    /// # Panics
    ///
    /// If `shape` has more than [`MAX_INDEXED_CELLS`] cells.
    pub(crate) fn for_class(shape: Shape, parity: u8) -> Indexer {
        assert!(
            shape.cells() <= MAX_INDEXED_CELLS,
            "an Indexer covers at most {MAX_INDEXED_CELLS} cells, not {shape}: rank larger boards with board_rank"
        );
        let m = shape.cells() - 1;
        let mut weight = [0u64; MAX_CELLS];
        let mut f = 1u64; // (m - 1 - i)!
        for i in (0..m).rev() {
            if i + 2 < m {
                weight[i] = f / 2;
            }
            f *= (m - i) as u64;
        }
        Indexer {
            shape,
            parity: parity & 1,
            per_blank: f / 2,
            weight,
        }
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// How many boards the index covers: cells! / 2.
    pub fn len(&self) -> u64 {
        self.per_blank * self.shape.cells() as u64
    }

    /// Never true: every index covers at least the 12 boards of 2×2.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Boards per blank cell, m!/2: moving the blank one cell along its row
    /// changes the index by exactly this much.
    pub fn per_blank(&self) -> u64 {
        self.per_blank
    }

    /// The index of `board`, or `None` if it is of another shape or parity
    /// (it cannot reach the goal).
    pub fn rank(&self, board: &Board) -> Option<Index> {
        if board.shape() != self.shape || board.parity() != self.parity {
            return None;
        }
        Some(self.rank_unchecked(board))
    }

    /// [`rank`](Indexer::rank) in one pass over the tiles: the parity is
    /// read off the Lehmer digits the rank adds up (their sum is the
    /// number of inversions), not counted again.
    #[inline]
    pub(crate) fn rank_in_one_pass(&self, board: &Board) -> Option<Index> {
        if board.shape() != self.shape {
            return None;
        }
        let b = board.blank();
        let packed = board.nibbles();
        let low = (1u64 << (4 * b)) - 1;
        let tiles = (packed & low) | ((packed >> 4) & !low);
        let (h, inversions) = match self.shape.cells() - 1 {
            8 => self.rank_and_inversions_of::<8>(tiles),
            11 => self.rank_and_inversions_of::<11>(tiles),
            _ => return self.rank(board),
        };
        let row = b / self.shape.cols();
        let parity = (inversions as usize + (self.shape.cols() - 1) * row) % 2;
        (parity as u8 == self.parity).then_some(Index(b as u64 * self.per_blank + h))
    }

    /// ⌊lehmer / 2⌋ of a tile order of `M` tiles and its inversions (the
    /// sum of all its Lehmer digits).
    #[inline(always)]
    fn rank_and_inversions_of<const M: usize>(&self, tiles: u64) -> (u64, u32) {
        let mut seen = 0u32;
        let mut h = 0u64;
        let mut inversions = 0;
        let mut i = 0;
        while i + 1 < M {
            let t = ((tiles >> (4 * i)) & 0xF) as u32;
            let digit = t - 1 - (seen & ((1 << t) - 1)).count_ones();
            h += digit as u64 * Weights::<M>::OF[i];
            inversions += digit;
            seen |= 1 << t;
            i += 1;
        }
        (h, inversions) // the last digit is always 0
    }

    /// The index of a board known to be of this index's shape and parity.
    /// O(cells) with no branches per cell and no allocation.
    #[inline]
    pub(crate) fn rank_unchecked(&self, board: &Board) -> Index {
        self.rank_nibbles(board.nibbles(), board.blank())
    }

    /// The index of the board whose cells are `nibbles` (four bits a cell,
    /// cell 0 in the lowest bits, as [`Board::nibbles`]) with the blank in
    /// `blank`, known to be of this index's shape and parity: what a walk
    /// that keeps its board in a `u64` ranks with.
    #[inline]
    pub(crate) fn rank_nibbles(&self, nibbles: u64, blank: usize) -> Index {
        // Remove the blank's nibble: the tiles in reading order.
        let low = (1u64 << (4 * blank)) - 1;
        let tiles = (nibbles & low) | ((nibbles >> 4) & !low);
        Index(blank as u64 * self.per_blank + self.tile_rank(tiles))
    }

    /// ⌊lehmer / 2⌋ of a tile order packed four bits a tile, first tile in
    /// the lowest bits: the index within one blank cell's block.
    #[inline]
    pub(crate) fn tile_rank(&self, tiles: u64) -> u64 {
        // One copy of the loop per tile count, fully unrolled (constant
        // shifts); the match is on a value fixed per table, so it predicts.
        match self.shape.cells() - 1 {
            3 => self.tile_rank_of::<3>(tiles),
            5 => self.tile_rank_of::<5>(tiles),
            7 => self.tile_rank_of::<7>(tiles),
            8 => self.tile_rank_of::<8>(tiles),
            9 => self.tile_rank_of::<9>(tiles),
            11 => self.tile_rank_of::<11>(tiles),
            13 => self.tile_rank_of::<13>(tiles),
            14 => self.tile_rank_of::<14>(tiles),
            15 => self.tile_rank_of::<15>(tiles),
            // Every shape has 4, 6, 8, 9, 10, 12, 14, 15 or 16 cells.
            m => unreachable!("no board shape has {} tiles", m),
        }
    }

    #[inline(always)]
    fn tile_rank_of<const M: usize>(&self, tiles: u64) -> u64 {
        let mut seen = 0u32;
        let mut h = 0u64;
        let mut i = 0;
        while i + 2 < M {
            let t = ((tiles >> (4 * i)) & 0xF) as u32;
            // smaller tiles not yet seen stand to the right
            let digit = t - 1 - (seen & ((1 << t) - 1)).count_ones();
            // The weights are constants of M: no load, a constant multiply.
            h += digit as u64 * Weights::<M>::OF[i];
            seen |= 1 << t;
            i += 1;
        }
        h
    }

    /// [`rank_nibbles`](Indexer::rank_nibbles) for boards of `M` tiles
    /// (`M + 1` cells, this index's), fully unrolled: what a walk that
    /// knows its board's size ranks with. `M` must be this index's.
    #[inline(always)]
    pub(crate) fn rank_nibbles_of<const M: usize>(&self, nibbles: u64, blank: usize) -> u64 {
        debug_assert_eq!(M + 1, self.shape.cells());
        let low = (1u64 << (4 * blank)) - 1;
        let tiles = (nibbles & low) | ((nibbles >> 4) & !low);
        blank as u64 * Weights::<M>::PER_BLANK + self.tile_rank_of::<M>(tiles)
    }

    /// The Lehmer digits of the tile orders whose halved rank is `h`, four
    /// bits a digit, digit `i` (how many smaller tiles stand to the right of
    /// the `i`-th tile) in bits `4i ..`; the last two digits are 0 (the last
    /// two tiles ascend). `h` is these digits in the mixed radix
    /// `m, m − 1, …, 3`.
    pub(crate) fn lehmer_digits(&self, h: u64) -> u64 {
        let m = self.shape.cells() - 1;
        let mut rest = h;
        let mut digits = 0u64;
        for (i, &weight) in self.weight.iter().enumerate().take(m - 2) {
            digits |= (rest / weight) << (4 * i);
            rest %= weight;
        }
        digits
    }

    /// The weight of each Lehmer digit in the halved rank: (m − 1 − i)!/2
    /// for the digits i < m − 2, and 0 for the last two.
    pub(crate) fn weights(&self) -> &[u64; MAX_CELLS] {
        &self.weight
    }

    /// The tile-order parity the boards with the blank in `cell` have.
    pub(crate) fn parity_at(&self, cell: usize) -> u8 {
        let row = cell / self.shape.cols();
        ((self.parity as usize + (self.shape.cols() - 1) * row) % 2) as u8
    }

    /// The board at `index`, or `None` past the end.
    pub fn unrank(&self, index: Index) -> Option<Board> {
        if index.0 >= self.len() {
            return None;
        }
        let n = self.shape.cells();
        let m = n - 1;
        let blank = (index.0 / self.per_blank) as usize;
        let mut h = index.0 % self.per_blank;
        let mut digits = [0u8; MAX_CELLS];
        let mut digit_sum = 0u32;
        let used = m.saturating_sub(2);
        for (digit, &weight) in digits.iter_mut().zip(&self.weight).take(used) {
            let d = h / weight;
            h %= weight;
            *digit = d as u8;
            digit_sum += d as u32;
        }
        Some(board_of_digits(
            self.shape,
            self.parity,
            blank,
            digits,
            digit_sum,
        ))
    }
}

/// The constants of the index of boards of `M` tiles.
struct Weights<const M: usize>;

impl<const M: usize> Weights<M> {
    /// `OF[i]` = (M − 1 − i)!/2, the weight of Lehmer digit `i < M − 2`
    /// ([`Indexer`]'s `weight`); 0 for the last two digits.
    const OF: [u64; MAX_CELLS] = {
        let mut weight = [0u64; MAX_CELLS];
        let mut f = 1u64; // (M - 1 - i)!
        let mut i = M;
        while i > 0 {
            i -= 1;
            if i + 2 < M {
                weight[i] = f / 2;
            }
            f *= (M - i) as u64;
        }
        weight
    };

    /// M!/2: the boards per blank cell.
    const PER_BLANK: u64 = {
        let mut f = 1u64;
        let mut k = 2;
        while k <= M {
            f *= k as u64;
            k += 1;
        }
        f / 2
    };
}

/// The board of `shape` and `parity` with the blank in `blank` and the
/// tiles whose Lehmer digits are `digits` but the last two, which add up
/// to `digit_sum`: the second-to-last digit fixes the parity (the last is
/// always 0), and digit `d` is the `d`-th smallest tile not yet placed.
fn board_of_digits(
    shape: Shape,
    parity: u8,
    blank: usize,
    mut digits: [u8; MAX_CELLS],
    digit_sum: u32,
) -> Board {
    let n = shape.cells();
    let row = blank / shape.cols();
    let parity_here = (parity as usize + (shape.cols() - 1) * row) % 2;
    digits[n - 3] = ((parity_here as u32 + digit_sum) % 2) as u8;
    let mut free: u32 = ((1u32 << n) - 1) & !1; // tiles 1 ..= n − 1
    let mut cells = [0u8; MAX_CELLS];
    let mut next = 0;
    for (cell, slot) in cells.iter_mut().enumerate().take(n) {
        if cell == blank {
            continue;
        }
        let mut f = free;
        for _ in 0..digits[next] {
            f &= f - 1;
        }
        let t = f.trailing_zeros();
        free &= !(1 << t);
        *slot = t as u8;
        next += 1;
    }
    Board::from_tiles(shape, &cells[..n]).expect("unrank builds a valid board")
}

/// The index of `board` among the boards of its shape and
/// [`parity`](Board::parity), on boards of every size: `blank cell × (m!/2)
/// + ⌊lehmer(tiles) / 2⌋`, the index [`Indexer::rank`] gives where it
/// applies, in `0 .. cells!/2` ([`Shape::states`]).
///
/// ```
/// use slidedb::{Board, Indexer, rank::{board_rank, board_unrank}};
/// let board: Board = "2 3 4 1 5 x 7 6 8".parse().unwrap();
/// assert_eq!(board_rank(&board), Indexer::new(&board).rank(&board).unwrap().0 as u128);
/// let big: Board = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24"
///     .parse()
///     .unwrap();
/// let rank = board_rank(&big);
/// assert!(rank < big.shape().states());
/// assert_eq!(board_unrank(big.shape(), big.parity(), rank), Some(big));
/// ```
pub fn board_rank(board: &Board) -> u128 {
    let shape = board.shape();
    let m = shape.cells() - 1;
    let mut seen = 0u32;
    let mut lehmer = 0u128;
    let mut i = 0;
    for cell in 0..shape.cells() {
        let t = board.tile(cell) as u32;
        if t == 0 {
            continue;
        }
        // Smaller tiles not yet seen stand to the right: digit i, radix m − i.
        let digit = t - 1 - (seen & ((1 << t) - 1)).count_ones();
        lehmer = lehmer * (m - i) as u128 + digit as u128;
        seen |= 1 << t;
        i += 1;
    }
    board.blank() as u128 * (shape.states() / shape.cells() as u128) + lehmer / 2
}

/// The board of `shape` and `parity` whose [`board_rank`] is `rank`, or
/// `None` if `rank` is not below [`Shape::states`].
///
/// ```
/// use slidedb::{Shape, rank::{board_rank, board_unrank}};
/// let shape = Shape::new(4, 5).unwrap();
/// let last = board_unrank(shape, 0, shape.states() - 1).unwrap();
/// assert_eq!(board_rank(&last), shape.states() - 1);
/// assert_eq!(board_unrank(shape, 0, shape.states()), None);
/// ```
pub fn board_unrank(shape: Shape, parity: u8, rank: u128) -> Option<Board> {
    if rank >= shape.states() {
        return None;
    }
    let n = shape.cells();
    let m = n - 1;
    let per_blank = shape.states() / n as u128;
    let blank = (rank / per_blank) as usize;
    let mut half = rank % per_blank;
    // The Lehmer digits but the last two, least significant last.
    let mut digits = [0u8; MAX_CELLS];
    let mut digit_sum = 0u32;
    for i in (0..m.saturating_sub(2)).rev() {
        let radix = (m - i) as u128;
        // Digit i has weight (m − 1 − i)!/2 in the halved rank: peel the
        // digits from the least significant, radix 3, 4, … m.
        digits[i] = (half % radix) as u8;
        half /= radix;
        digit_sum += digits[i] as u32;
    }
    Some(board_of_digits(shape, parity, blank, digits, digit_sum))
}

/// The number of ordered placements of `k` distinct tiles in `n` cells:
/// n! / (n − k)!, the entries of a pattern database (0 if `k > n`).
pub(crate) fn placement_count(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    (n - k + 1..=n).map(|x| x as u64).product()
}

/// The rank of an ordered placement of distinct `cells` among `n`, in
/// `0 ..` [`placement_count`]`(n, cells.len())`: the mixed-radix number
/// whose digit `i` is `cells[i]` less the earlier cells below it (radix
/// `n − i`, the first cell most significant).
#[inline]
pub(crate) fn placement_rank(cells: &[u8], n: usize) -> u64 {
    let mut used = 0u32;
    let mut r = 0u64;
    for (i, &c) in cells.iter().enumerate() {
        let below = (used & ((1u32 << c) - 1)).count_ones() as u64;
        r = r * (n - i) as u64 + (c as u64 - below);
        used |= 1 << c;
    }
    r
}

/// The placement of `cells.len()` tiles among `n` cells whose
/// [`placement_rank`] is `rank` (which must be below the count), written
/// into `cells`.
#[cfg(test)]
pub(crate) fn placement_unrank(mut rank: u64, n: usize, cells: &mut [u8]) {
    let k = cells.len();
    // Digits, least significant (last cell) first.
    let mut digits = [0u8; MAX_CELLS];
    for i in (0..k).rev() {
        let radix = (n - i) as u64;
        digits[i] = (rank % radix) as u8;
        rank /= radix;
    }
    let mut used = 0u32;
    for i in 0..k {
        // The digits[i]-th free cell, counting from 0.
        let mut free = !used;
        for _ in 0..digits[i] {
            free &= free - 1;
        }
        let c = free.trailing_zeros() as u8;
        cells[i] = c;
        used |= 1 << c;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every index unranks to a board of the right class that ranks back to
    /// it, and the boards are all distinct: a bijection, on every size of
    /// at most 9 cells and both parities.
    #[test]
    fn rank_and_unrank_are_inverse_on_every_small_size() {
        for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
            let shape = Shape::new(r, c).unwrap();
            for parity in [0, 1] {
                let ix = Indexer::for_class(shape, parity);
                assert_eq!(ix.len() as u128, shape.states());
                let mut boards = std::collections::HashSet::new();
                for i in 0..ix.len() {
                    let board = ix.unrank(Index(i)).unwrap();
                    assert_eq!(board.parity(), parity, "{shape} {i}");
                    assert_eq!(ix.rank(&board), Some(Index(i)), "{shape} {board}");
                    assert!(boards.insert(board.packed()));
                }
                assert_eq!(ix.unrank(Index(ix.len())), None);
            }
        }
    }

    /// The larger shapes, on a sample of indices (every shape of up to 16
    /// cells ranks without panicking).
    #[test]
    fn rank_and_unrank_are_inverse_on_samples_of_every_larger_size() {
        for (r, c) in [
            (2, 5),
            (5, 2),
            (2, 6),
            (6, 2),
            (3, 4),
            (4, 3),
            (2, 7),
            (7, 2),
            (3, 5),
            (5, 3),
            (4, 4),
            (2, 8),
            (8, 2),
        ] {
            let shape = Shape::new(r, c).unwrap();
            for parity in [0, 1] {
                let ix = Indexer::for_class(shape, parity);
                assert_eq!(ix.len() as u128, shape.states());
                let step = ix.len() / 5000 + 1;
                for i in (0..ix.len()).step_by(step as usize).chain([ix.len() - 1]) {
                    let board = ix.unrank(Index(i)).unwrap();
                    assert_eq!(ix.rank(&board), Some(Index(i)), "{shape} {i}");
                }
            }
        }
    }

    #[test]
    fn placement_counts_and_ranks_at_the_ends() {
        assert_eq!(placement_count(16, 8), 518_918_400);
        assert_eq!(placement_count(3, 4), 0);
        assert_eq!(placement_rank(&[0, 1, 2], 16), 0);
        assert_eq!(
            placement_rank(&[15, 14, 13], 16),
            placement_count(16, 3) - 1
        );
        let mut cells = [0u8; 3];
        placement_unrank(placement_rank(&[7, 2, 5], 9), 9, &mut cells);
        assert_eq!(cells, [7, 2, 5]);
    }

    #[test]
    fn placement_ranks_are_a_bijection() {
        for (n, k) in [(6, 3), (9, 4), (12, 2), (16, 1)] {
            let count = placement_count(n, k) as usize;
            let mut seen = vec![false; count];
            let mut cells = [0u8; 8];
            for r in 0..count as u64 {
                placement_unrank(r, n, &mut cells[..k]);
                let distinct = cells[..k].iter().fold(0u32, |m, &c| m | 1 << c);
                assert_eq!(distinct.count_ones() as usize, k);
                assert!(cells[..k].iter().all(|&c| (c as usize) < n));
                assert_eq!(placement_rank(&cells[..k], n), r);
                assert!(!std::mem::replace(&mut seen[r as usize], true));
            }
        }
    }

    /// The one-pass rank is the rank, and refuses what the rank refuses,
    /// on every board of 3×3 of both parities against either goal's index,
    /// on a sample of 3×4, and on a board of another shape.
    #[test]
    fn one_pass_ranks_are_the_ranks() {
        for (r, c) in [(3, 3), (3, 4)] {
            let shape = Shape::new(r, c).unwrap();
            for goal_parity in [0, 1] {
                let ix = Indexer::for_class(shape, goal_parity);
                for parity in [0, 1] {
                    let of = Indexer::for_class(shape, parity);
                    let step = (of.len() / 200_000).max(1);
                    for i in (0..of.len()).step_by(step as usize) {
                        let board = of.unrank(Index(i)).unwrap();
                        assert_eq!(ix.rank_in_one_pass(&board), ix.rank(&board), "{board}");
                    }
                }
            }
        }
        let ix = Indexer::new(&Board::solved(Shape::EIGHT));
        assert_eq!(
            ix.rank_in_one_pass(&Board::solved(Shape::new(2, 2).unwrap())),
            None
        );
    }

    /// The weights of each tile count as constants are the indexer's.
    #[test]
    fn constant_weights_are_the_indexers() {
        fn check<const M: usize>(rows: usize, cols: usize) {
            let shape = Shape::new(rows, cols).unwrap();
            assert_eq!(shape.cells(), M + 1);
            let ix = Indexer::for_class(shape, 0);
            assert_eq!(&Weights::<M>::OF, ix.weights(), "{M} tiles");
            assert_eq!(Weights::<M>::PER_BLANK, ix.per_blank(), "{M} tiles");
        }
        check::<3>(2, 2);
        check::<5>(2, 3);
        check::<7>(2, 4);
        check::<8>(3, 3);
        check::<9>(2, 5);
        check::<11>(3, 4);
        check::<13>(2, 7);
        check::<14>(3, 5);
        check::<15>(4, 4);
    }

    /// The walk's rank, of a board kept four bits a cell, is the board's,
    /// and the board comes back from its nibbles, on every board of 3×3
    /// and 2×4 and a sample of 4×4.
    #[test]
    fn ranks_of_nibbles_are_the_boards_ranks() {
        for (r, c) in [(3, 3), (2, 4), (4, 4)] {
            let shape = Shape::new(r, c).unwrap();
            for parity in [0, 1] {
                let ix = Indexer::for_class(shape, parity);
                let step = (ix.len() / 200_000).max(1);
                for i in (0..ix.len()).step_by(step as usize) {
                    let board = ix.unrank(Index(i)).unwrap();
                    let nibbles = board.nibbles();
                    assert_eq!(ix.rank_nibbles(nibbles, board.blank()), Index(i), "{board}");
                    let unrolled = match shape.cells() - 1 {
                        7 => ix.rank_nibbles_of::<7>(nibbles, board.blank()),
                        8 => ix.rank_nibbles_of::<8>(nibbles, board.blank()),
                        15 => ix.rank_nibbles_of::<15>(nibbles, board.blank()),
                        m => unreachable!("{m} tiles"),
                    };
                    assert_eq!(unrolled, i, "{board}");
                    assert_eq!(Board::from_nibbles(shape, nibbles), Ok(board));
                }
            }
        }
    }

    #[test]
    fn rank_rejects_other_classes() {
        let goal = Board::solved(Shape::EIGHT);
        let ix = Indexer::new(&goal);
        let swapped: Board = "2 1 3 4 5 6 7 8 0".parse().unwrap();
        assert_eq!(ix.rank(&swapped), None);
        let small = Board::solved(Shape::new(2, 2).unwrap());
        assert_eq!(ix.rank(&small), None);
    }

    #[test]
    fn moving_along_a_row_shifts_by_per_blank() {
        let ix = Indexer::new(&Board::solved(Shape::EIGHT));
        let b: Board = "1 2 3 4 0 5 6 7 8".parse().unwrap();
        let i = ix.rank(&b).unwrap().0;
        let left = b.apply(crate::Move::Left).unwrap();
        assert_eq!(ix.rank(&left).unwrap().0, i - ix.per_blank());
    }
}
