//! Reproducible randomness for samples, benchmarks and tests: the
//! splitmix64 generator, and uniformly random boards that reach a goal.

use crate::board::{Board, MAX_CELLS};

/// The splitmix64 generator (Steele, Lea and Flood): tiny, fast, and the
/// same sequence for the same seed on every machine. Not for secrets.
///
/// ```
/// use slidedb::random::SplitMix64;
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started at `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0 .. n`, every one equally likely (`n > 0`): the
    /// high half of a 128-bit product, with Lemire's rejection of the few
    /// draws that would bias it. A rejection happens with probability
    /// below n / 2^64, so the sequence is in practice the multiply-shift's.
    pub fn below(&mut self, n: u64) -> u64 {
        let mut product = self.next_u64() as u128 * n as u128;
        if (product as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (product as u64) < threshold {
                product = self.next_u64() as u128 * n as u128;
            }
        }
        (product >> 64) as u64
    }
}

/// A board drawn uniformly from those that can reach `goal`: a uniform
/// shuffle of the cells, with the first two tiles swapped when it lands
/// on the other parity (a bijection between the two halves).
///
/// ```
/// use slidedb::{Board, Shape, random::{SplitMix64, random_board}};
/// let goal = Board::solved(Shape::EIGHT);
/// let mut rng = SplitMix64::new(1);
/// assert!(random_board(&goal, &mut rng).can_reach(&goal));
/// ```
pub fn random_board(goal: &Board, rng: &mut SplitMix64) -> Board {
    let shape = goal.shape();
    let n = shape.cells();
    let mut cells = [0u8; MAX_CELLS];
    for (i, c) in cells.iter_mut().enumerate().take(n) {
        *c = i as u8;
    }
    for i in (1..n).rev() {
        cells.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let board = Board::from_tiles(shape, &cells[..n]).expect("a shuffle is a board");
    if board.can_reach(goal) {
        return board;
    }
    let mut tiles = [0usize; 2];
    let mut found = 0;
    for (i, &c) in cells.iter().enumerate().take(n) {
        if c != 0 && found < 2 {
            tiles[found] = i;
            found += 1;
        }
    }
    cells.swap(tiles[0], tiles[1]);
    Board::from_tiles(shape, &cells[..n]).expect("a swap is a board")
}
