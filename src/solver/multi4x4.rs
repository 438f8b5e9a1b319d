//! IDA* in the multi-tile metric specialised for the 4×4 (issue 37 §4):
//! the board packed four bits a cell in a `u64`, and beside it the colour
//! of each cell in [`ColourPdb::four_by_four`]'s colouring, for the board
//! and for its transpose, both kept up to date at each step of the blank;
//! the estimate is the larger of the two abstract distances. Nothing is allocated per node and
//! no hash map is read; a node's up to six children are ranked first and
//! their two table entries prefetched before any is read, so the cache
//! misses of one node overlap.
//!
//! Any goal with its blank in a corner is served: the board and goal are
//! first mirrored so the goal's blank is in the last cell, then their tiles
//! renamed so the goal is the default one (the colouring is of cells, so
//! a renaming changes nothing); the blank's path is mirrored back at the
//! end.

use std::ops::ControlFlow;
use std::time::Instant;

use crate::board::{Board, Metric, Move};
use crate::multi_heuristic::ColourPdb;
use crate::search::{PROGRESS_EVERY, Stats};
use crate::solution::{Solution, SolveError};

/// The default goal, four bits a cell, cell 0 lowest: tile `c + 1` in
/// cell `c`, the blank in cell 15.
const GOAL: u64 = 0x0FED_CBA9_8765_4321;

/// The longest solution looked for (the 4×4's hardest board is 43 moves
/// in the single-tile metric; fewer here).
const MAX_MOVES: u32 = 80;

/// The cell of `cell` in the transposed board.
#[inline(always)]
const fn tr(cell: usize) -> usize {
    (cell % 4) * 4 + cell / 4
}

/// The colour word's symbol for the blank.
const BLANK: u64 = 4;

/// A board in the search: its tiles, its blank, and the colour of each
/// cell, four bits a cell (4 for the blank), on it (`colours`) and on its
/// transpose (`colours_t`, in the transpose's cells).
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    tiles: u64,
    colours: u64,
    colours_t: u64,
    blank: u8,
    /// The abstract distances of the board and of its transpose.
    h: u8,
    h_t: u8,
}

/// A child generated: the node, the index of the entry to read next (the
/// board's, then the transpose's), its bound so far, and its axis.
#[derive(Clone, Copy, Debug, Default)]
struct Child {
    node: Node,
    index: usize,
    f: u32,
    axis: u8,
}

/// One search: the table, the colours of each tile for the two probes,
/// the iteration's bound, the path so far, and the work done.
struct Search<'a, F> {
    pdb: &'a ColourPdb,
    /// The colour of each tile (by its default name), and the colour its
    /// image has in the transposed board.
    colour: [u8; 16],
    colour_t: [u8; 16],
    bound: u32,
    next_bound: u32,
    /// The blank's cell after each move so far.
    path: Vec<u8>,
    stats: Stats,
    clock: Instant,
    progress: F,
    stopped: bool,
}

impl<F: FnMut(&Stats) -> ControlFlow<()>> Search<'_, F> {
    /// The node after the blank steps from its cell to the adjacent `to`.
    #[inline(always)]
    fn step(&self, mut n: Node, to: usize) -> Node {
        let from = n.blank as usize;
        let t = (n.tiles >> (4 * to)) & 0xF;
        n.tiles ^= (t << (4 * to)) | (t << (4 * from));
        // The blank's symbol and the tile's colour change places.
        let d = self.colour[t as usize] as u64 ^ BLANK;
        n.colours ^= (d << (4 * to)) | (d << (4 * from));
        let d = self.colour_t[t as usize] as u64 ^ BLANK;
        n.colours_t ^= (d << (4 * tr(to))) | (d << (4 * tr(from)));
        n.blank = to as u8;
        n
    }

    /// Depth-first below `n`, reached in `g` moves, the last along `axis`
    /// (0 vertical, 1 horizontal, 2 none): whether the goal was found
    /// within the bound.
    fn dfs(&mut self, n: &Node, g: u32, axis: u8) -> bool {
        if n.tiles == GOAL {
            return true;
        }
        self.stats.expanded += 1;
        if self.stats.expanded & (PROGRESS_EVERY - 1) == 0 {
            self.stats.elapsed = self.clock.elapsed();
            if (self.progress)(&self.stats).is_break() {
                self.stopped = true;
                return false;
            }
        }
        // The children: ranked, and the board's entry of each asked for,
        // before any is read.
        let mut kids = [Child::default(); 6];
        let mut count = 0;
        let b = n.blank as usize;
        let (r, c) = (b / 4, b % 4);
        for (steps, delta, kid_axis) in
            [(r, -4isize, 0u8), (3 - r, 4, 0), (c, -1, 1), (3 - c, 1, 1)]
        {
            if kid_axis == axis {
                continue;
            }
            let mut node = *n;
            for _ in 0..steps {
                let to = (node.blank as isize + delta) as usize;
                node = self.step(node, to);
                let index = self.pdb.index16(node.colours);
                prefetch(self.pdb.mod3_byte(index));
                kids[count] = Child {
                    node,
                    index,
                    f: 0,
                    axis: kid_axis,
                };
                count += 1;
            }
        }
        self.stats.generated += count as u64;
        // Those the board's entry keeps: their transpose's entry asked for.
        let mut live = [0usize; 6];
        let mut alive = 0;
        for (i, kid) in kids[..count].iter_mut().enumerate() {
            kid.node.h = next_distance(n.h, self.pdb.mod3(kid.index));
            let f = g + 1 + kid.node.h as u32;
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            kid.f = f;
            kid.index = self.pdb.index16(kid.node.colours_t);
            prefetch(self.pdb.mod3_byte(kid.index));
            live[alive] = i;
            alive += 1;
        }
        // Those both entries keep.
        let mut kept = 0;
        for k in 0..alive {
            let i = live[k];
            let kid = &mut kids[i];
            kid.node.h_t = next_distance(n.h_t, self.pdb.mod3(kid.index));
            let f = kid.f.max(g + 1 + kid.node.h_t as u32);
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            live[kept] = i;
            kept += 1;
        }
        for &i in &live[..kept] {
            let kid = kids[i];
            self.path.push(kid.node.blank);
            if self.dfs(&kid.node, g + 1, kid.axis) {
                return true;
            }
            self.path.pop();
            if self.stopped {
                return false;
            }
        }
        false
    }
}

/// A child's abstract distance from its parent's, `h`, and its own mod 3,
/// `m`: one of `h - 1`, `h`, `h + 1`, which differ mod 3.
#[inline(always)]
fn next_distance(h: u8, m: u32) -> u8 {
    match (m + 3 - h as u32 % 3) % 3 {
        0 => h,
        1 => h + 1,
        _ => h - 1,
    }
}

/// Asks the processor to bring `at`'s cache line in (a hint; nothing on
/// other processors).
#[inline(always)]
fn prefetch(at: &u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and faults on no address; `at` is
    // a valid reference besides.
    #[allow(unused_unsafe)]
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((at as *const u8).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// Whether `goal` is one the 4×4 fast path serves: a 4×4 goal with its
/// blank in a corner.
pub(super) fn serves(goal: &Board) -> bool {
    goal.shape().rows() == 4 && goal.shape().cols() == 4 && [0, 3, 12, 15].contains(&goal.blank())
}

/// Solves `board` (solvable toward `goal`, both 4×4, [`serves`]`(goal)`)
/// optimally in the multi-tile metric; the first call in a process builds
/// the 38 MB table. `progress` as for the other searches.
pub(super) fn solve(
    goal: &Board,
    board: &Board,
    progress: impl FnMut(&Stats) -> ControlFlow<()>,
) -> Result<Solution, SolveError> {
    debug_assert!(serves(goal));
    // Mirror so the goal's blank is in cell 15: the map `c ^ mirror`
    // (its own inverse) takes corner `goal.blank()` to 15.
    let mirror = goal.blank() ^ 15;
    // The default name of each tile: one more than its mirrored goal cell.
    let mut name = [0u8; 16];
    for cell in 0..16 {
        let t = goal.tile(cell);
        if t != 0 {
            name[t as usize] = (cell ^ mirror) as u8 + 1;
        }
    }
    let pdb = ColourPdb::four_by_four();
    let mut colour = [0u8; 16];
    let mut colour_t = [0u8; 16];
    for t in 1..16 {
        colour[t] = pdb.colour(t - 1);
        colour_t[t] = pdb.colour(tr(t - 1));
    }
    let mut start = Node::default();
    for cell in 0..16 {
        let at = cell ^ mirror;
        let t = name[board.tile(cell) as usize] as usize;
        let (c, c_t) = if t == 0 {
            start.blank = at as u8;
            (BLANK, BLANK)
        } else {
            (colour[t] as u64, colour_t[t] as u64)
        };
        start.tiles |= (t as u64) << (4 * at);
        start.colours |= c << (4 * at);
        start.colours_t |= c_t << (4 * tr(at));
    }
    start.h = pdb.exact(start.colours) as u8;
    start.h_t = pdb.exact(start.colours_t) as u8;
    let mut search = Search {
        pdb,
        colour,
        colour_t,
        bound: 0,
        next_bound: 0,
        path: Vec::with_capacity(MAX_MOVES as usize + 1),
        stats: Stats::default(),
        clock: Instant::now(),
        progress,
        stopped: false,
    };
    search.bound = start.h.max(start.h_t) as u32;
    loop {
        search.stats.bound = search.bound;
        search.next_bound = u32::MAX;
        search.path.clear();
        search.path.push(start.blank);
        if search.dfs(&start, 0, 2) {
            break;
        }
        if search.stopped {
            search.stats.elapsed = search.clock.elapsed();
            return Err(SolveError::Stopped {
                stats: search.stats,
            });
        }
        if search.next_bound > MAX_MOVES {
            return Err(SolveError::SearchLimit {
                what: format!("no path within {MAX_MOVES} moves"),
            });
        }
        search.bound = search.next_bound;
    }
    search.stats.elapsed = search.clock.elapsed();
    search.stats.peak_open = search.path.len() as u64;
    search.stats.peak_visited = search.stats.peak_open;
    // The blank's cells, mirrored back, become its letters.
    let cells: Vec<usize> = search.path.iter().map(|&c| c as usize ^ mirror).collect();
    let mut moves = Vec::new();
    for w in cells.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (mv, n) = if a / 4 == b / 4 {
            (if b > a { Move::Right } else { Move::Left }, a.abs_diff(b))
        } else {
            (if b > a { Move::Down } else { Move::Up }, a.abs_diff(b) / 4)
        };
        moves.extend(std::iter::repeat_n(mv, n));
    }
    Ok(Solution {
        moves: Some(moves),
        metric: Metric::Multi,
        stats: Some(search.stats),
    })
}
