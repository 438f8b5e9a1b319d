//! Coloured abstractions in the multi-tile metric: the goal's tiles are
//! painted in a few colours, tiles of one colour become indistinguishable,
//! and the exact multi-tile distance of every abstract state (where each
//! cell holds a colour, and one cell the blank) is found by a
//! breadth-first search over a dense index. The abstraction maps every
//! multi-tile move of a board to a multi-tile move of its abstract state,
//! so the abstract distance never exceeds the board's
//! (docs/multi-tile-heuristic.md).
//!
//! An abstract state is the blank's cell and one cell set (a 16-bit mask)
//! per colour. Its index is the blank's cell, then the rank of colour 0's
//! cells among the cells the blank leaves, then colour 1's among those
//! left, then colour 2's; colour 3 takes the rest. A set's rank among the
//! cells left is its combinatorial (colex) rank after squeezing out the
//! cells not left, both read from small tables. Shapes of up to 16 cells.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::board::{Board, Shape};

/// The most cells an abstraction's shape has: its cell sets are `u16`.
pub const MAX_COLOUR_CELLS: usize = 16;

/// The colours a tile may have.
pub const COLOURS: usize = 4;

/// An entry of no abstract state reached from the goal's.
const UNREACHED: u8 = u8::MAX;

/// The tables every abstraction reads: the colex rank of each 16-bit set
/// among the sets of its size, the sets of each size in rank order, and
/// squeezing (and spreading) a byte of a set by a byte of the cells left.
struct Tables {
    /// `rank[mask]`: how many sets of `mask`'s size are below it.
    rank: Vec<u16>,
    /// `sets[k]`: the sets of `k` cells, in rank order.
    sets: Vec<Vec<u16>>,
    /// `squeeze[left << 8 | mask]`: `mask`'s bits at the set bits of
    /// `left`, packed low (`mask` within `left`).
    squeeze: Vec<u8>,
    /// `spread[left << 8 | packed]`: the inverse: the low bits of
    /// `packed` placed at the set bits of `left`, in order.
    spread: Vec<u8>,
}

impl Tables {
    /// The tables, made once for the process (about 320 KB).
    fn get() -> &'static Tables {
        static TABLES: OnceLock<Tables> = OnceLock::new();
        TABLES.get_or_init(|| {
            let mut rank = vec![0u16; 1 << 16];
            let mut sets = vec![Vec::new(); 17];
            for mask in 0..=u16::MAX {
                let k = mask.count_ones() as usize;
                rank[mask as usize] = sets[k].len() as u16;
                sets[k].push(mask);
            }
            let mut squeeze = vec![0u8; 1 << 16];
            let mut spread = vec![0u8; 1 << 16];
            for left in 0..256usize {
                for mask in 0..256usize {
                    let (mut packed, mut placed, mut j) = (0usize, 0usize, 0);
                    for bit in 0..8 {
                        if left >> bit & 1 == 1 {
                            packed |= (mask >> bit & 1) << j;
                            placed |= (mask >> j & 1) << bit;
                            j += 1;
                        }
                    }
                    squeeze[left << 8 | mask] = packed as u8;
                    spread[left << 8 | mask] = placed as u8;
                }
            }
            Tables {
                rank,
                sets,
                squeeze,
                spread,
            }
        })
    }

    /// `mask`'s cells packed low by the cells of `left` (`mask` within
    /// `left`): its set among the cells left.
    #[inline(always)]
    fn squeeze(&self, mask: u16, left: u16) -> u16 {
        let (lo, hi) = ((left & 0xFF) as usize, (left >> 8) as usize);
        let low = self.squeeze[lo << 8 | (mask & 0xFF) as usize] as u16;
        let high = self.squeeze[hi << 8 | (mask >> 8) as usize] as u16;
        low | high << lo.count_ones()
    }

    /// The inverse of [`squeeze`](Tables::squeeze).
    #[inline]
    fn spread(&self, packed: u16, left: u16) -> u16 {
        let (lo, hi) = ((left & 0xFF) as usize, (left >> 8) as usize);
        let n = lo.count_ones();
        let low = self.spread[lo << 8 | (packed & ((1 << n) - 1)) as usize] as u16;
        let high = self.spread[hi << 8 | (packed >> n) as usize & 0xFF] as u16;
        low | high << 8
    }
}

/// `n` choose `k`, for small `n`.
fn choose(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// The index arithmetic of one shape and colour counts: ranks abstract
/// states (the blank's cell and the cell sets of colours 0 to 2) densely.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ranker {
    /// Every cell of the shape.
    full: u16,
    /// How many ranks each of colours 0, 1, 2 has.
    radix: [usize; 3],
    /// Tiles of colours 0, 1, 2.
    counts: [usize; 3],
    /// All states: cells × the radixes.
    states: usize,
}

impl Ranker {
    /// For `cells` cells (at most 16) with `counts[c]` tiles of colour `c`
    /// (adding up to `cells - 1`).
    fn new(cells: usize, counts: [usize; COLOURS]) -> Ranker {
        let mut left = cells - 1;
        let mut radix = [0; 3];
        for c in 0..3 {
            radix[c] = choose(left, counts[c]);
            left -= counts[c];
        }
        Ranker {
            full: ((1u32 << cells) - 1) as u16,
            radix,
            counts: [counts[0], counts[1], counts[2]],
            states: cells * radix.iter().product::<usize>(),
        }
    }

    /// The index of the state with the blank in `blank` and colours 0, 1
    /// and 2 on `sets`.
    #[inline(always)]
    fn index(&self, t: &Tables, blank: usize, sets: &[u16; COLOURS]) -> usize {
        let mut left = self.full & !(1 << blank);
        let mut index = blank;
        for c in 0..3 {
            let r = t.rank[t.squeeze(sets[c], left) as usize] as usize;
            index = index * self.radix[c] + r;
            left &= !sets[c];
        }
        index
    }

    /// The state at `index`: the blank's cell and the four colours' sets.
    fn state(&self, t: &Tables, mut index: usize) -> (usize, [u16; COLOURS]) {
        let mut ranks = [0usize; 3];
        for c in (0..3).rev() {
            ranks[c] = index % self.radix[c];
            index /= self.radix[c];
        }
        let blank = index;
        let mut left = self.full & !(1 << blank);
        let mut sets = [0u16; COLOURS];
        for c in 0..3 {
            sets[c] = t.spread(t.sets[self.counts[c]][ranks[c]], left);
            left &= !sets[c];
        }
        sets[3] = left;
        (blank, sets)
    }
}

/// The exact multi-tile distances of one coloured abstraction of a shape:
/// which colour each goal cell's tile has, and where the goal's blank is.
/// One byte an abstract state (the 4×4 colouring of
/// [`ColourPdb::four_by_four`]: 151,351,200 states, 151 MB).
///
/// ```
/// use slidedb::{Board, Shape};
/// use slidedb::multi_heuristic::ColourPdb;
/// let shape = Shape::new(3, 3).unwrap();
/// let pdb = ColourPdb::new(shape, &[0, 0, 1, 2, 2, 1, 3, 3, 255]).unwrap();
/// let goal = Board::solved(shape);
/// assert_eq!(pdb.distance(&goal, &goal), 0);
/// let board: Board = "1 2 3 4 5 6 0 7 8".parse().unwrap(); // "rr"
/// assert_eq!(pdb.distance(&goal, &board), 1);
/// ```
pub struct ColourPdb {
    shape: Shape,
    /// The colour of each goal cell's tile (the blank's cell: its own).
    cell_colour: [u8; MAX_COLOUR_CELLS],
    /// The goal's blank cell.
    home: usize,
    ranker: Ranker,
    /// The distance of every abstract state, by index.
    distance: Vec<u8>,
}

impl std::fmt::Debug for ColourPdb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ColourPdb")
            .field("shape", &self.shape)
            .field("colouring", &&self.cell_colour[..self.shape.cells()])
            .field("states", &self.ranker.states)
            .finish_non_exhaustive()
    }
}

/// Why a colouring cannot be made into a [`ColourPdb`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ColourError {
    /// The shape has more cells than a cell set holds.
    #[error("a coloured abstraction covers at most 16 cells, and {shape} has {cells}: use a shape of 16 cells or fewer")]
    TooLarge {
        /// The shape asked for.
        shape: Shape,
        /// Its cells.
        cells: usize,
    },
    /// The colouring does not give one entry per cell, with one cell
    /// (the blank's) marked 255 and the others coloured 0 to 3.
    #[error("a colouring gives each of the {cells} cells a colour 0 to 3 and the goal's blank cell 255; {got} does not")]
    BadColouring {
        /// Cells of the shape.
        cells: usize,
        /// The colouring given, written out.
        got: String,
    },
}

/// The mark of the goal's blank cell in a colouring.
pub const BLANK_CELL: u8 = u8::MAX;

impl ColourPdb {
    /// The abstraction of `shape` whose goal has the tile of colour
    /// `colouring[cell]` in each cell and the blank in the one cell marked
    /// [`BLANK_CELL`] (255), with every abstract state's distance found by
    /// a breadth-first search in the multi-tile metric (on every core;
    /// the 4×4 colouring of [`four_by_four`](ColourPdb::four_by_four) in
    /// tens of seconds).
    ///
    /// ```
    /// use slidedb::Shape;
    /// use slidedb::multi_heuristic::ColourPdb;
    /// let pdb = ColourPdb::new(Shape::new(2, 3).unwrap(), &[0, 1, 1, 0, 2, 255]).unwrap();
    /// assert_eq!(pdb.states(), 6 * 10 * 3);
    /// assert!(ColourPdb::new(Shape::new(2, 3).unwrap(), &[0, 1]).is_err());
    /// ```
    pub fn new(shape: Shape, colouring: &[u8]) -> Result<ColourPdb, ColourError> {
        let cells = shape.cells();
        if cells > MAX_COLOUR_CELLS {
            return Err(ColourError::TooLarge { shape, cells });
        }
        let bad = || ColourError::BadColouring {
            cells,
            got: format!("{colouring:?}"),
        };
        if colouring.len() != cells
            || colouring.iter().filter(|&&c| c == BLANK_CELL).count() != 1
            || colouring
                .iter()
                .any(|&c| c != BLANK_CELL && c as usize >= COLOURS)
        {
            return Err(bad());
        }
        let home = colouring.iter().position(|&c| c == BLANK_CELL).unwrap();
        let mut counts = [0usize; COLOURS];
        let mut cell_colour = [BLANK_CELL; MAX_COLOUR_CELLS];
        let mut start = [0u16; COLOURS];
        for (cell, &c) in colouring.iter().enumerate() {
            cell_colour[cell] = c;
            if c != BLANK_CELL {
                counts[c as usize] += 1;
                start[c as usize] |= 1 << cell;
            }
        }
        let ranker = Ranker::new(cells, counts);
        let distance = search(shape, &ranker, home, &start);
        Ok(ColourPdb {
            shape,
            cell_colour,
            home,
            ranker,
            distance,
        })
    }

    /// The colouring of the 4×4 with the blank home in the last cell that
    /// [`four_by_four`](ColourPdb::four_by_four) uses (Tomas Rokicki's, as
    /// slidy uses it): tiles 1 2 | 3 4 7 8 | 5 6 9 10 13 | 11 12 14 15,
    /// in the default goal's cells.
    ///
    /// ```
    /// use slidedb::multi_heuristic::ColourPdb;
    /// assert_eq!(ColourPdb::FOUR_BY_FOUR[0..4], [0, 0, 1, 1]);
    /// ```
    pub const FOUR_BY_FOUR: [u8; 16] = [0, 0, 1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 2, 3, 3, BLANK_CELL];

    /// The 4×4 abstraction with [`FOUR_BY_FOUR`](ColourPdb::FOUR_BY_FOUR)'s
    /// colouring, built once for the process (151 MB; tens of seconds on
    /// two cores) and shared.
    ///
    /// ```no_run
    /// use slidedb::multi_heuristic::ColourPdb;
    /// assert_eq!(ColourPdb::four_by_four().states(), 151_351_200);
    /// ```
    pub fn four_by_four() -> &'static ColourPdb {
        static PDB: OnceLock<ColourPdb> = OnceLock::new();
        PDB.get_or_init(|| {
            ColourPdb::new(Shape::new(4, 4).unwrap(), &ColourPdb::FOUR_BY_FOUR)
                .expect("the 4x4 colouring is valid")
        })
    }

    /// The abstraction of `goal`'s shape that paints the tiles of each
    /// quarter of the goal (top or bottom half of the rows, left or right
    /// half of the columns, a middle row or column going with the
    /// first half) in their own colour, if its shape has at most 16 cells
    /// and its table at most 2^24 states; built once for the process for
    /// each shape and blank cell, and shared.
    ///
    /// ```
    /// use slidedb::{Board, Shape};
    /// use slidedb::multi_heuristic::ColourPdb;
    /// let goal = Board::solved(Shape::new(2, 6).unwrap());
    /// let pdb = ColourPdb::quadrants(&goal).unwrap();
    /// assert_eq!(pdb.states(), 12 * 165 * 56 * 10);
    /// assert!(ColourPdb::quadrants(&Board::solved(Shape::new(4, 4).unwrap())).is_none());
    /// ```
    pub fn quadrants(goal: &Board) -> Option<Arc<ColourPdb>> {
        type Cache = Mutex<HashMap<(Shape, usize), Arc<ColourPdb>>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let shape = goal.shape();
        let (rows, cols, cells) = (shape.rows(), shape.cols(), shape.cells());
        if cells > MAX_COLOUR_CELLS {
            return None;
        }
        let colouring: Vec<u8> = (0..cells)
            .map(|cell| {
                if cell == goal.blank() {
                    BLANK_CELL
                } else {
                    (2 * (cell / cols) / rows * 2 + 2 * (cell % cols) / cols) as u8
                }
            })
            .collect();
        let mut counts = [0usize; COLOURS];
        for &c in colouring.iter().filter(|&&c| c != BLANK_CELL) {
            counts[c as usize] += 1;
        }
        if Ranker::new(cells, counts).states > super::MAX_QUADRANT_STATES {
            return None;
        }
        let cache = CACHE.get_or_init(Cache::default);
        let key = (shape, goal.blank());
        if let Some(pdb) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Some(Arc::clone(pdb));
        }
        // Built outside the lock: two threads may both build it once.
        let built = Arc::new(ColourPdb::new(shape, &colouring).expect("a valid colouring"));
        let mut held = cache.lock().unwrap_or_else(|e| e.into_inner());
        Some(Arc::clone(held.entry(key).or_insert(built)))
    }

    /// How many abstract states it indexes (some may be unreachable).
    ///
    /// ```
    /// use slidedb::Shape;
    /// use slidedb::multi_heuristic::ColourPdb;
    /// let pdb = ColourPdb::new(Shape::new(2, 2).unwrap(), &[0, 1, 1, 255]).unwrap();
    /// assert_eq!(pdb.states(), 4 * 3);
    /// ```
    pub fn states(&self) -> usize {
        self.ranker.states
    }

    /// The greatest distance of an abstract state.
    ///
    /// ```
    /// use slidedb::Shape;
    /// use slidedb::multi_heuristic::ColourPdb;
    /// let pdb = ColourPdb::new(Shape::new(2, 2).unwrap(), &[0, 1, 2, 255]).unwrap();
    /// assert_eq!(pdb.max_distance(), 6); // the 3-puzzle's 12 boards, a cycle
    /// ```
    pub fn max_distance(&self) -> u32 {
        self.distance
            .iter()
            .filter(|&&d| d != UNREACHED)
            .max()
            .copied()
            .unwrap_or(0) as u32
    }

    /// The shape it abstracts.
    ///
    /// ```
    /// use slidedb::Shape;
    /// use slidedb::multi_heuristic::ColourPdb;
    /// let pdb = ColourPdb::new(Shape::new(2, 2).unwrap(), &[0, 1, 1, 255]).unwrap();
    /// assert_eq!(pdb.shape(), Shape::new(2, 2).unwrap());
    /// ```
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The goal's blank cell the colouring has.
    ///
    /// ```
    /// use slidedb::Shape;
    /// use slidedb::multi_heuristic::ColourPdb;
    /// let pdb = ColourPdb::new(Shape::new(2, 2).unwrap(), &[0, 255, 1, 1]).unwrap();
    /// assert_eq!(pdb.home(), 1);
    /// ```
    pub fn home(&self) -> usize {
        self.home
    }

    /// The colour the tile of goal cell `cell` has (255 for the blank's).
    ///
    /// ```
    /// use slidedb::multi_heuristic::ColourPdb;
    /// let pdb = ColourPdb::new(slidedb::Shape::new(2, 2).unwrap(), &[0, 255, 1, 1]).unwrap();
    /// assert_eq!(pdb.colour(2), 1);
    /// ```
    pub fn colour(&self, cell: usize) -> u8 {
        self.cell_colour[cell]
    }

    /// The abstract distance of `board` toward `goal`, the goal of this
    /// shape with its blank in [`home`](ColourPdb::home) (each tile takes
    /// the colour of its goal cell): at most the board's multi-tile
    /// distance. A board that cannot reach `goal` may read 0.
    ///
    /// # Panics
    ///
    /// If `goal` or `board` is of another shape, or `goal`'s blank is not
    /// in [`home`](ColourPdb::home).
    ///
    /// ```
    /// use slidedb::{Board, Shape};
    /// use slidedb::multi_heuristic::ColourPdb;
    /// let shape = Shape::new(2, 3).unwrap();
    /// let pdb = ColourPdb::new(shape, &[0, 1, 1, 0, 2, 255]).unwrap();
    /// let goal = Board::solved(shape);
    /// let board: Board = "1 2 3 0 4 5".parse().unwrap(); // "rr"
    /// assert_eq!(pdb.distance(&goal, &board), 1);
    /// ```
    pub fn distance(&self, goal: &Board, board: &Board) -> u32 {
        assert_eq!(goal.shape(), self.shape, "the goal's shape");
        assert_eq!(board.shape(), self.shape, "the board's shape");
        assert_eq!(goal.blank(), self.home, "the goal's blank cell");
        let mut colour_of_tile = [0u8; MAX_COLOUR_CELLS];
        for cell in 0..self.shape.cells() {
            colour_of_tile[goal.tile(cell) as usize] = self.cell_colour[cell];
        }
        self.distance_by(&colour_of_tile, board)
    }

    /// [`distance`](ColourPdb::distance) with each tile's colour given.
    pub(crate) fn distance_by(&self, colour_of_tile: &[u8; MAX_COLOUR_CELLS], board: &Board) -> u32 {
        let mut sets = [0u16; COLOURS];
        for cell in 0..self.shape.cells() {
            let t = board.tile(cell);
            if t != 0 {
                sets[colour_of_tile[t as usize] as usize] |= 1 << cell;
            }
        }
        let d = self.lookup(self.index(board.blank(), &sets));
        if d == UNREACHED { 0 } else { d as u32 }
    }

    /// The index of an abstract state: the blank's cell and the cell set
    /// of each colour (colour 3's is not read).
    #[inline(always)]
    pub(crate) fn index(&self, blank: usize, sets: &[u16; COLOURS]) -> usize {
        self.ranker.index(Tables::get(), blank, sets)
    }

    /// The entry at `index` (255 for a state not reached).
    #[inline(always)]
    pub(crate) fn lookup(&self, index: usize) -> u8 {
        self.distance[index]
    }

    /// The entries, by index.
    #[inline(always)]
    pub(crate) fn entries(&self) -> &[u8] {
        &self.distance
    }
}

/// Calls `f` with each abstract state one multi-tile move from the state
/// with the blank in `blank` and colours on `sets`, by its index.
#[inline]
fn neighbours(
    shape: Shape,
    ranker: &Ranker,
    t: &Tables,
    blank: usize,
    sets: &[u16; COLOURS],
    mut f: impl FnMut(usize) -> bool,
) -> bool {
    let (rows, cols) = (shape.rows(), shape.cols());
    let (r, c) = (blank / cols, blank % cols);
    // (steps available, cell offset of one step)
    let directions = [
        (r, -(cols as isize)),
        (rows - 1 - r, cols as isize),
        (c, -1),
        (cols - 1 - c, 1),
    ];
    for (steps, delta) in directions {
        let mut at = blank;
        let mut s = *sets;
        for _ in 0..steps {
            let next = (at as isize + delta) as usize;
            // The tile in `next` moves into `at`.
            for set in s.iter_mut() {
                if *set >> next & 1 == 1 {
                    *set ^= (1 << next) | (1 << at);
                    break;
                }
            }
            at = next;
            if f(ranker.index(t, at, &s)) {
                return true;
            }
        }
    }
    false
}

/// The breadth-first search of every abstract state from the goal's (the
/// blank in `home`, colour `c` on `start[c]`): pushing each new layer
/// from the last while it is smaller than what is left, then pulling
/// (each state left checks whether a neighbour is in the last layer).
fn search(shape: Shape, ranker: &Ranker, home: usize, start: &[u16; COLOURS]) -> Vec<u8> {
    let t = Tables::get();
    let states = ranker.states;
    let distance: Vec<AtomicU8> = (0..states).map(|_| AtomicU8::new(UNREACHED)).collect();
    distance[ranker.index(t, home, start)].store(0, Relaxed);
    let (mut reached, mut last) = (1u64, 1u64);
    let chunk = ranker.radix[1] * ranker.radix[2];
    let chunks = states / chunk;
    let mut depth = 0u8;
    while last > 0 && depth < UNREACHED - 1 {
        let pull = last > states as u64 - reached;
        let found = AtomicU64::new(0);
        (0..chunks).into_par_iter().for_each(|k| {
            let mut new = 0u64;
            for index in k * chunk..(k + 1) * chunk {
                let d = distance[index].load(Relaxed);
                if pull {
                    if d != UNREACHED {
                        continue;
                    }
                    let (blank, sets) = ranker.state(t, index);
                    if neighbours(shape, ranker, t, blank, &sets, |j| {
                        distance[j].load(Relaxed) == depth
                    }) {
                        distance[index].store(depth + 1, Relaxed);
                        new += 1;
                    }
                } else {
                    if d != depth {
                        continue;
                    }
                    let (blank, sets) = ranker.state(t, index);
                    neighbours(shape, ranker, t, blank, &sets, |j| {
                        if distance[j].load(Relaxed) == UNREACHED {
                            distance[j].store(depth + 1, Relaxed);
                            new += 1;
                        }
                        false
                    });
                }
            }
            found.fetch_add(new, Relaxed);
        });
        depth += 1;
        // Pushing may count a state twice when two threads reach it at
        // once: recount the layer exactly.
        last = if pull {
            found.into_inner()
        } else {
            distance
                .par_iter()
                .filter(|d| d.load(Relaxed) == depth)
                .count() as u64
        };
        reached += last;
    }
    // An AtomicU8 has the size, alignment and bit validity of a u8.
    let mut distance = std::mem::ManuallyDrop::new(distance);
    let (ptr, len, cap) = (distance.as_mut_ptr(), distance.len(), distance.capacity());
    // SAFETY: the same allocation, reinterpreted element for element as
    // the type of the same layout; the original is not dropped.
    unsafe { Vec::from_raw_parts(ptr as *mut u8, len, cap) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squeeze_and_spread_are_inverse() {
        let t = Tables::get();
        for (mask, left) in [(0b1010u16, 0b1110u16), (0x8001, 0xFFFF), (0x0300, 0x0F0F)] {
            let packed = t.squeeze(mask, left);
            assert_eq!(t.spread(packed, left), mask);
        }
        assert_eq!(t.squeeze(0b1000, 0b1010), 0b10);
    }

    #[test]
    fn ranks_are_dense_and_inverse() {
        let t = Tables::get();
        let ranker = Ranker::new(9, [2, 2, 2, 2]);
        assert_eq!(ranker.states, 9 * 28 * 15 * 6);
        for index in 0..ranker.states {
            let (blank, sets) = ranker.state(t, index);
            assert_eq!(ranker.index(t, blank, &sets), index);
            assert_eq!(sets.iter().fold(1u16 << blank, |a, s| a | s), 0x1FF);
        }
    }
}
