//! Coloured abstractions in the multi-tile metric: the goal's tiles are
//! painted in a few colours, tiles of one colour become indistinguishable,
//! and the exact multi-tile distance of every abstract state (where each
//! cell holds a colour, and one cell the blank) is found by a
//! breadth-first search over a dense index. The abstraction maps every
//! multi-tile move of a board to a multi-tile move of its abstract state,
//! so the abstract distance never exceeds the board's
//! (docs/multi-tile-heuristic.md).
//!
//! An abstract state is the colour each cell holds (the blank a fifth
//! symbol), four bits a cell in a `u64`. Its index is its rank among the
//! arrangements of those symbols in reading order (the first cell most
//! significant), each cell adding a number read from a table of a few
//! kilobytes by the symbols still to place: a move changes two cells, and
//! when they are late in reading order the index changes little, so a
//! search's lookups often fall near each other. Shapes of up to 16 cells.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;

use crate::board::{Board, Shape};

/// The most cells an abstraction's shape has: its colours fit a `u64`.
pub const MAX_COLOUR_CELLS: usize = 16;

/// The colours a tile may have.
pub const COLOURS: usize = 4;

/// An entry of no abstract state reached from the goal's.
const UNREACHED: u8 = u8::MAX;

/// The symbol of the blank in a colour word.
const BLANK: u64 = 4;

/// Symbols: the four colours and the blank.
const SYMBOLS: usize = COLOURS + 1;

/// The number of arrangements of `counts[s]` copies of each symbol `s`.
fn arrangements(counts: &[usize; SYMBOLS]) -> usize {
    let mut n = 0u128;
    let mut result = 1u128;
    for &c in counts {
        for i in 1..=c {
            n += 1;
            // Multiplying by n / i keeps every partial product a
            // multinomial coefficient, so the division is exact.
            result = result * n / i as u128;
        }
    }
    result as usize
}

/// The index arithmetic of one shape and colour counts: the rank of an
/// arrangement of the symbols in reading order. The symbols not yet
/// placed are a state, written in a mixed radix (`unit[s]` per copy of
/// `s`); `starting[state * 5 + s]` is how many arrangements of that state
/// begin with `s`, and `step` the sum of those for the symbols below `s`:
/// what a cell holding `s` adds to the rank.
#[derive(Clone, Debug)]
pub(crate) struct Ranker {
    cells: usize,
    unit: [usize; SYMBOLS],
    /// The state before the first cell: every symbol still to place.
    full: usize,
    starting: Vec<usize>,
    step: Vec<u32>,
    /// Two cells at once: `pair[byte]` numbers the two symbols of a byte
    /// of a colour word (`lo * 5 + hi`), and `step2[state * 25 + pair]`
    /// and `unit2[pair]` are what the two cells add to the rank and take
    /// from the state.
    pair: [u8; 256],
    step2: Vec<u32>,
    unit2: [u32; SYMBOLS * SYMBOLS],
    /// All arrangements.
    states: usize,
}

impl Ranker {
    /// For `cells` cells (at most 16) with `counts[c]` tiles of colour `c`
    /// (adding up to `cells - 1`) and the blank.
    fn new(cells: usize, counts: [usize; COLOURS]) -> Ranker {
        let mut all = [0usize; SYMBOLS];
        all[..COLOURS].copy_from_slice(&counts);
        all[BLANK as usize] = 1;
        let mut unit = [0usize; SYMBOLS];
        let mut radix = 1;
        for s in 0..SYMBOLS {
            unit[s] = radix;
            radix *= all[s] + 1;
        }
        let full: usize = (0..SYMBOLS).map(|s| all[s] * unit[s]).sum();
        let mut starting = vec![0usize; radix * SYMBOLS];
        let mut step = vec![0u32; radix * SYMBOLS];
        for state in 0..radix {
            let left: [usize; SYMBOLS] = std::array::from_fn(|s| state / unit[s] % (all[s] + 1));
            let mut below = 0;
            for s in 0..SYMBOLS {
                step[state * SYMBOLS + s] = below as u32;
                if left[s] > 0 {
                    let mut rest = left;
                    rest[s] -= 1;
                    starting[state * SYMBOLS + s] = arrangements(&rest);
                    below += starting[state * SYMBOLS + s];
                }
            }
        }
        let mut pair = [0u8; 256];
        let mut unit2 = [0u32; SYMBOLS * SYMBOLS];
        let mut step2 = vec![0u32; radix * SYMBOLS * SYMBOLS];
        for lo in 0..SYMBOLS {
            for hi in 0..SYMBOLS {
                let code = lo * SYMBOLS + hi;
                pair[hi << 4 | lo] = code as u8;
                unit2[code] = (unit[lo] + unit[hi]) as u32;
                for state in 0..radix {
                    // Only states holding the pair's symbols are ever read.
                    let has = |st: usize, s: usize| !(st / unit[s]).is_multiple_of(all[s] + 1);
                    if has(state, lo) && has(state - unit[lo], hi) {
                        step2[state * SYMBOLS * SYMBOLS + code] =
                            step[state * SYMBOLS + lo] + step[(state - unit[lo]) * SYMBOLS + hi];
                    }
                }
            }
        }
        Ranker {
            cells,
            unit,
            full,
            starting,
            step,
            pair,
            step2,
            unit2,
            states: arrangements(&all),
        }
    }

    /// The index of the arrangement `colours` (four bits a cell).
    #[inline(always)]
    fn index(&self, colours: u64) -> usize {
        let (mut state, mut rank) = (self.full, 0usize);
        for cell in 0..self.cells {
            let s = (colours >> (4 * cell) & 0xF) as usize;
            rank += self.step[state * SYMBOLS + s] as usize;
            state -= self.unit[s];
        }
        rank
    }

    /// [`index`](Ranker::index) for 16 cells, two cells a step.
    #[inline(always)]
    fn index16(&self, colours: u64) -> usize {
        debug_assert_eq!(self.cells, 16);
        let (mut state, mut rank) = (self.full as u32, 0u32);
        for byte in 0..8 {
            let code = self.pair[(colours >> (8 * byte) & 0xFF) as usize] as usize;
            rank += self.step2[state as usize * SYMBOLS * SYMBOLS + code];
            state -= self.unit2[code];
        }
        rank as usize
    }

    /// The arrangement at `index`.
    fn colours(&self, mut index: usize) -> u64 {
        let (mut state, mut colours) = (self.full, 0u64);
        for cell in 0..self.cells {
            for s in 0..SYMBOLS {
                let n = self.starting[state * SYMBOLS + s];
                if index < n {
                    colours |= (s as u64) << (4 * cell);
                    state -= self.unit[s];
                    break;
                }
                index -= n;
            }
        }
        colours
    }
}

/// [`ColourPdb::four_by_four`], once built.
static FOUR_BY_FOUR: OnceLock<ColourPdb> = OnceLock::new();

/// The exact multi-tile distances of one coloured abstraction of a shape:
/// which colour each goal cell's tile has, and where the goal's blank is.
/// One byte an abstract state (the 4×4 colouring of
/// [`ColourPdb::four_by_four`]: 151,351,200 states, 151 MB; that one is
/// then kept in two bits a state, 38 MB).
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
    /// The distance of every abstract state, by index, a byte each; empty
    /// once packed into `mod3`.
    distance: Vec<u8>,
    /// The distance mod 3 of every abstract state, two bits each (3 for a
    /// state not reached), four to a byte; empty unless packed.
    mod3: Vec<u8>,
    /// The greatest distance.
    max: u32,
    /// The goal's abstract state.
    goal: u64,
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
    #[error(
        "a coloured abstraction covers at most 16 cells, and {shape} has {cells}: use a shape of 16 cells or fewer"
    )]
    TooLarge {
        /// The shape asked for.
        shape: Shape,
        /// Its cells.
        cells: usize,
    },
    /// The colouring does not give one entry per cell, with one cell
    /// (the blank's) marked 255 and the others coloured 0 to 3.
    #[error(
        "a colouring gives each of the {cells} cells a colour 0 to 3 and the goal's blank cell 255; {got} does not"
    )]
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
        let mut start = 0u64;
        for (cell, &c) in colouring.iter().enumerate() {
            cell_colour[cell] = c;
            if c == BLANK_CELL {
                start |= BLANK << (4 * cell);
            } else {
                counts[c as usize] += 1;
                start |= (c as u64) << (4 * cell);
            }
        }
        let ranker = Ranker::new(cells, counts);
        let distance = search(shape, &ranker, start);
        let max = distance
            .iter()
            .filter(|&&d| d != UNREACHED)
            .max()
            .copied()
            .unwrap_or(0) as u32;
        Ok(ColourPdb {
            shape,
            cell_colour,
            home,
            ranker,
            distance,
            mod3: Vec::new(),
            max,
            goal: start,
        })
    }

    /// The same distances kept mod 3, two bits a state (a quarter of the
    /// memory, so more of it stays in the processor's caches). A search
    /// knows a child's distance from its parent's (they differ by at most
    /// one, and the three candidates differ mod 3); a distance from
    /// nothing is found by descending to the goal.
    fn packed(mut self) -> ColourPdb {
        let mut mod3 = huge_vec(self.distance.len().div_ceil(4), 0);
        for (i, &d) in self.distance.iter().enumerate() {
            let v = if d == UNREACHED { 3 } else { d % 3 };
            mod3[i >> 2] |= v << (2 * (i & 3));
        }
        self.mod3 = mod3;
        self.distance = Vec::new();
        self
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
    /// colouring, built once for the process (kept mod 3 in two bits a
    /// state, 38 MB, through a 151 MB byte table; tens of seconds on
    /// two cores) and shared.
    ///
    /// ```no_run
    /// use slidedb::multi_heuristic::ColourPdb;
    /// assert_eq!(ColourPdb::four_by_four().states(), 151_351_200);
    /// ```
    pub fn four_by_four() -> &'static ColourPdb {
        FOUR_BY_FOUR.get_or_init(|| {
            ColourPdb::new(Shape::new(4, 4).unwrap(), &ColourPdb::FOUR_BY_FOUR)
                .expect("the 4x4 colouring is valid")
                .packed()
        })
    }

    /// Whether [`four_by_four`](ColourPdb::four_by_four) is built already
    /// in this process (a call then returns at once).
    ///
    /// ```
    /// use slidedb::multi_heuristic::ColourPdb;
    /// ColourPdb::four_by_four();
    /// assert!(ColourPdb::four_by_four_is_built());
    /// ```
    pub fn four_by_four_is_built() -> bool {
        FOUR_BY_FOUR.get().is_some()
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
        let mut all = [0usize; SYMBOLS];
        all[..COLOURS].copy_from_slice(&counts);
        all[BLANK as usize] = 1;
        if arrangements(&all) > super::MAX_QUADRANT_STATES {
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
        self.max
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
    /// let board: Board = "123/045".parse().unwrap(); // "rr"
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
    pub(crate) fn distance_by(
        &self,
        colour_of_tile: &[u8; MAX_COLOUR_CELLS],
        board: &Board,
    ) -> u32 {
        let mut colours = 0u64;
        for cell in 0..self.shape.cells() {
            let c = match board.tile(cell) {
                0 => BLANK,
                t => colour_of_tile[t as usize] as u64,
            };
            colours |= c << (4 * cell);
        }
        self.exact(colours)
    }

    /// The distance of the abstract state `colours` (0 if not reached).
    pub(crate) fn exact(&self, colours: u64) -> u32 {
        if !self.distance.is_empty() {
            let d = self.distance[self.ranker.index(colours)];
            return if d == UNREACHED { 0 } else { d as u32 };
        }
        // Packed: down the table, one neighbour a step whose distance is
        // one less (the one of the three residues below this one).
        let (mut at, mut d) = (colours, 0);
        while at != self.goal {
            let v = self.mod3(self.ranker.index(at));
            if v == 3 || d > self.max {
                return 0;
            }
            let below = (v + 2) % 3;
            let mut next = None;
            neighbours(self.shape, &self.ranker, at, |j, c| {
                let found = self.mod3(j) == below;
                if found {
                    next = Some(c);
                }
                found
            });
            match next {
                Some(c) => at = c,
                None => return 0,
            }
            d += 1;
        }
        d
    }

    /// The distance mod 3 of the state at `index` (3: not reached), in a
    /// packed table.
    #[inline(always)]
    pub(crate) fn mod3(&self, index: usize) -> u32 {
        (self.mod3[index >> 2] >> (2 * (index & 3)) & 3) as u32
    }

    /// The byte of a packed table that holds `index`'s entry, to prefetch.
    #[inline(always)]
    pub(crate) fn mod3_byte(&self, index: usize) -> &u8 {
        &self.mod3[index >> 2]
    }

    /// The index of the abstract state of a 4×4 board whose cells hold
    /// `colours`, four bits a cell (4 for the blank).
    #[inline(always)]
    pub(crate) fn index16(&self, colours: u64) -> usize {
        self.ranker.index16(colours)
    }
}

/// Calls `f` with the index and colours of each abstract state one
/// multi-tile move from `colours`, until it answers `true` (then `true`).
#[inline]
fn neighbours(
    shape: Shape,
    ranker: &Ranker,
    colours: u64,
    mut f: impl FnMut(usize, u64) -> bool,
) -> bool {
    let (rows, cols) = (shape.rows(), shape.cols());
    let blank = (0..shape.cells())
        .find(|&cell| colours >> (4 * cell) & 0xF == BLANK)
        .expect("every state holds the blank");
    let (r, c) = (blank / cols, blank % cols);
    // (steps available, cell offset of one step)
    let directions = [
        (r, -(cols as isize)),
        (rows - 1 - r, cols as isize),
        (c, -1),
        (cols - 1 - c, 1),
    ];
    for (steps, delta) in directions {
        let (mut at, mut s) = (blank, colours);
        for _ in 0..steps {
            let next = (at as isize + delta) as usize;
            // The blank and the colour in `next` change places.
            let d = (s >> (4 * next) & 0xF) ^ BLANK;
            s ^= (d << (4 * next)) | (d << (4 * at));
            at = next;
            if f(ranker.index(s), s) {
                return true;
            }
        }
    }
    false
}

/// The breadth-first search of every abstract state from the goal's
/// (`start`): pushing each new layer from the last while it is smaller
/// than what is left, then pulling (each state left checks whether a
/// neighbour is in the last layer).
fn search(shape: Shape, ranker: &Ranker, start: u64) -> Vec<u8> {
    let states = ranker.states;
    let mut entries = huge_vec(states, UNREACHED);
    // SAFETY: an AtomicU8 has the size, alignment and bit validity of a
    // u8, and the bytes are borrowed only through this view until it ends.
    let distance: &[AtomicU8] =
        unsafe { &*(entries.as_mut_slice() as *mut [u8] as *const [AtomicU8]) };
    distance[ranker.index(start)].store(0, Relaxed);
    let (mut reached, mut last) = (1u64, 1u64);
    const CHUNK: usize = 1 << 14;
    let mut depth = 0u8;
    while last > 0 && depth < UNREACHED - 1 {
        let pull = last > states as u64 - reached;
        let found = AtomicU64::new(0);
        (0..states.div_ceil(CHUNK)).into_par_iter().for_each(|k| {
            let mut new = 0u64;
            for index in k * CHUNK..((k + 1) * CHUNK).min(states) {
                let d = distance[index].load(Relaxed);
                if pull {
                    if d != UNREACHED {
                        continue;
                    }
                    if neighbours(shape, ranker, ranker.colours(index), |j, _| {
                        distance[j].load(Relaxed) == depth
                    }) {
                        distance[index].store(depth + 1, Relaxed);
                        new += 1;
                    }
                } else {
                    if d != depth {
                        continue;
                    }
                    neighbours(shape, ranker, ranker.colours(index), |j, _| {
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
    entries
}

/// `len` bytes of `value`, in huge pages where the system gives them on
/// request (Linux's transparent huge pages in `madvise` mode): the 4×4
/// table is read at random, and with 4 KB pages nearly every read also
/// misses the address cache.
fn huge_vec(len: usize, value: u8) -> Vec<u8> {
    let mut v: Vec<u8> = Vec::with_capacity(len);
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = v.as_mut_ptr() as usize;
        let aligned = start.next_multiple_of(HUGE);
        let end = (start + len) / HUGE * HUGE;
        if end > aligned {
            // SAFETY: advice on pages of this allocation, not yet touched;
            // the call changes no byte, and a refusal is harmless.
            unsafe {
                libc::madvise(
                    aligned as *mut libc::c_void,
                    end - aligned,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    v.resize(len, value);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_table_answers_every_state_as_the_bytes_do() {
        let shape = Shape::new(3, 3).unwrap();
        let bytes = ColourPdb::new(shape, &[0, 0, 1, 2, 2, 1, 3, 3, BLANK_CELL]).unwrap();
        let packed = ColourPdb::new(shape, &[0, 0, 1, 2, 2, 1, 3, 3, BLANK_CELL])
            .unwrap()
            .packed();
        assert!(packed.distance.is_empty());
        assert_eq!(packed.max_distance(), bytes.max_distance());
        for index in 0..bytes.states() {
            let colours = bytes.ranker.colours(index);
            let d = bytes.exact(colours);
            assert_eq!(packed.exact(colours), d);
            assert_eq!(packed.mod3(index), d % 3);
        }
    }

    #[test]
    fn ranks_are_dense_and_inverse() {
        let ranker = Ranker::new(9, [2, 2, 2, 2]);
        assert_eq!(ranker.states, 9 * 28 * 15 * 6);
        let mut last = None;
        for index in 0..ranker.states {
            let colours = ranker.colours(index);
            assert_eq!(ranker.index(colours), index);
            let mut counts = [0; SYMBOLS];
            for cell in 0..9 {
                counts[(colours >> (4 * cell) & 0xF) as usize] += 1;
            }
            assert_eq!(counts, [2, 2, 2, 2, 1]);
            // Reading order: the first cell most significant.
            let reversed = (0..9).fold(0u64, |a, c| a << 4 | (colours >> (4 * c) & 0xF));
            assert!(last < Some(reversed));
            last = Some(reversed);
        }
        let sixteen = Ranker::new(16, [2, 4, 5, 4]);
        assert_eq!(sixteen.states, 151_351_200);
        let colours = sixteen.colours(123_456_789);
        assert_eq!(sixteen.index16(colours), 123_456_789);
    }
}
