//! IDA* under additive pattern databases, specialised for speed: the
//! board, each group's tile cells and each group's value are kept in place
//! and updated by the one tile a move slides, then put back on the way up.
//! Nothing is allocated per node.
//!
//! The estimate is the largest of several admissible sums: the groups'
//! sum for the board itself, and for each *mirror* of it. A mirror is a
//! symmetry of the board that keeps the goal's blank cell in place (the
//! diagonal through a corner or centre blank on a square board, the flip
//! across the middle row or column the blank lies on) followed
//! by the renaming that maps the goal onto itself: the mirrored board is
//! exactly as far from the goal, so its sum is a second admissible
//! estimate, often the larger.

use std::ops::ControlFlow;
use std::time::Instant;

use crate::board::{Adjacency, Board, MAX_CELLS, Move};
use crate::rank::placement_rank;
use crate::search::{PROGRESS_EVERY, Stats};
use crate::symmetry::Symmetry;

use super::MAX_GROUP_TILES;

/// No group: a tile no group covers.
const NONE: u8 = u8::MAX;
/// The board itself and at most seven mirrors.
const MAX_VIEWS: usize = 8;
/// Every group has a tile.
const MAX_GROUPS: usize = MAX_CELLS - 1;
/// The deepest bound tried.
const MAX_BOUND: u32 = 1000;

/// The caller's progress callback, and whether it said to stop.
struct Watch<'p> {
    progress: &'p mut dyn FnMut(&Stats) -> ControlFlow<()>,
    stopped: bool,
}

impl Watch<'_> {
    /// Shows `stats`; whether to stop.
    #[cold]
    #[inline(never)]
    fn says_stop(&mut self, stats: &Stats) -> bool {
        self.stopped = (self.progress)(stats).is_break();
        self.stopped
    }
}

/// A way of looking at the board: cells and tiles relabelled by a
/// symmetry that keeps the goal in place.
#[derive(Clone, Copy)]
struct View {
    /// `cell[c]`: where cell `c` goes.
    cell: [u8; MAX_CELLS],
    /// `tile[t]`: what tile `t` is called.
    tile: [u8; MAX_CELLS],
}

/// The fixed part of a search: the databases and how tiles map to them.
pub(super) struct Search<'a> {
    n: usize,
    goal: Board,
    adjacency: Adjacency,
    /// Each group's entries and its number of tiles.
    entries: Vec<&'a [u8]>,
    sizes: Vec<usize>,
    /// For each tile, its group ([`NONE`] if none) and its place in it.
    group_of: [u8; MAX_CELLS],
    slot_of: [u8; MAX_CELLS],
    views: Vec<View>,
}

/// What changes along the path.
struct Node {
    /// The tile in each cell.
    board: [u8; MAX_CELLS],
    blank: usize,
    /// `cells[v][g]`: the cells of group `g`'s tiles in view `v`.
    cells: [[[u8; MAX_GROUP_TILES]; MAX_GROUPS]; MAX_VIEWS],
    /// `value[v][g]`: group `g`'s entry in view `v`.
    value: [[u8; MAX_GROUPS]; MAX_VIEWS],
    /// `sum[v]`: the sum of `value[v]`.
    sum: [u32; MAX_VIEWS],
}

impl<'a> Search<'a> {
    /// A search toward `goal` under `groups`: (tiles ascending, entries).
    pub(super) fn new(goal: &Board, groups: &[(&[u8], &'a [u8])]) -> Search<'a> {
        let shape = goal.shape();
        let n = shape.cells();
        let mut group_of = [NONE; MAX_CELLS];
        let mut slot_of = [0u8; MAX_CELLS];
        for (g, (tiles, _)) in groups.iter().enumerate() {
            for (slot, &t) in tiles.iter().enumerate() {
                group_of[t as usize] = g as u8;
                slot_of[t as usize] = slot as u8;
            }
        }
        // The board's symmetries that keep the goal's blank in place: the
        // identity, and the mirrors (at most the eight symmetries there
        // are, so within MAX_VIEWS; their order is immaterial to a max).
        let views: Vec<View> = Symmetry::all(shape)
            .filter(|s| s.to() == shape && s.cell(goal.blank()) == goal.blank())
            .map(|s| {
                let mut view = View {
                    cell: [0; MAX_CELLS],
                    tile: [0; MAX_CELLS],
                };
                for c in 0..n {
                    let to = s.cell(c);
                    view.cell[c] = to as u8;
                    view.tile[goal.tile(c) as usize] = goal.tile(to);
                }
                view
            })
            .collect();
        debug_assert!((1..=MAX_VIEWS).contains(&views.len()));
        Search {
            n,
            goal: *goal,
            adjacency: Adjacency::new(shape),
            entries: groups.iter().map(|(_, e)| *e).collect(),
            sizes: groups.iter().map(|(t, _)| t.len()).collect(),
            group_of,
            slot_of,
            views,
        }
    }

    /// The node of `board`, every value computed in full.
    fn node(&self, board: &Board) -> Node {
        let mut node = Node {
            board: [0; MAX_CELLS],
            blank: board.blank(),
            cells: [[[0; MAX_GROUP_TILES]; MAX_GROUPS]; MAX_VIEWS],
            value: [[0; MAX_GROUPS]; MAX_VIEWS],
            sum: [0; MAX_VIEWS],
        };
        for c in 0..self.n {
            let t = board.tile(c);
            node.board[c] = t;
            for (v, view) in self.views.iter().enumerate() {
                let named = view.tile[t as usize] as usize;
                let g = self.group_of[named];
                if g != NONE {
                    node.cells[v][g as usize][self.slot_of[named] as usize] = view.cell[c];
                }
            }
        }
        for v in 0..self.views.len() {
            for g in 0..self.entries.len() {
                let value = self.lookup(&node.cells[v][g], g);
                node.value[v][g] = value;
                node.sum[v] += value as u32;
            }
        }
        node
    }

    #[inline]
    fn lookup(&self, cells: &[u8; MAX_GROUP_TILES], g: usize) -> u8 {
        self.entries[g][placement_rank(&cells[..self.sizes[g]], self.n) as usize]
    }

    #[inline]
    fn estimate(&self, node: &Node) -> u32 {
        node.sum[..self.views.len()]
            .iter()
            .copied()
            .max()
            .unwrap_or(0)
    }

    /// Slides the tile in `target` into the blank, updating every view:
    /// its cells, and with `LOOKUP` its group's value and the sums (a
    /// slide back restores the values from a copy instead).
    #[inline]
    fn slide<const LOOKUP: bool>(&self, node: &mut Node, target: usize) {
        let from = node.blank;
        let tile = node.board[target];
        node.board[from] = tile;
        node.board[target] = 0;
        node.blank = target;
        for (v, view) in self.views.iter().enumerate() {
            let named = view.tile[tile as usize] as usize;
            let g = self.group_of[named];
            if g == NONE {
                continue;
            }
            let g = g as usize;
            node.cells[v][g][self.slot_of[named] as usize] = view.cell[from];
            if LOOKUP {
                let value = self.lookup(&node.cells[v][g], g);
                node.sum[v] = node.sum[v] + value as u32 - node.value[v][g] as u32;
                node.value[v][g] = value;
            }
        }
    }

    /// An optimal path from `board` (which can reach the goal) and the
    /// work it took; `None` if the bound passes [`MAX_BOUND`] (damaged
    /// databases: every board up to 16 cells is far closer).
    ///
    /// `progress` sees the work so far every [`PROGRESS_EVERY`] nodes
    /// expanded; when it breaks, the search stops: `Err` with the work done.
    pub(super) fn solve(
        &self,
        board: &Board,
        progress: &mut dyn FnMut(&Stats) -> ControlFlow<()>,
    ) -> Result<Option<(Vec<Move>, Stats)>, Stats> {
        let clock = Instant::now();
        let mut stats = Stats::default();
        let mut watch = Watch {
            progress,
            stopped: false,
        };
        let mut node = self.node(board);
        let goal: [u8; MAX_CELLS] =
            std::array::from_fn(|c| if c < self.n { self.goal.tile(c) } else { 0 });
        // One path, grown and shrunk in place.
        let mut path = Vec::with_capacity(256);
        let mut bound = self.estimate(&node);
        if bound > MAX_BOUND {
            return Ok(None);
        }
        loop {
            let mut next_bound = u32::MAX;
            if self.bounded(
                &mut node,
                &goal,
                bound,
                usize::MAX,
                &mut path,
                &mut next_bound,
                &mut stats,
                &mut watch,
            ) {
                break;
            }
            if next_bound > MAX_BOUND {
                return Ok(None);
            }
            bound = next_bound;
        }
        // As the generic IDA* counts: the longest path expanded.
        stats.peak_visited = stats.peak_open;
        stats.elapsed = clock.elapsed();
        if watch.stopped {
            return Err(stats);
        }
        Ok(Some((path, stats)))
    }

    /// One depth-first pass below `node` (reached by `path`, whose
    /// estimate is within `bound`), never undoing the last move.
    #[allow(clippy::too_many_arguments)]
    fn bounded(
        &self,
        node: &mut Node,
        goal: &[u8; MAX_CELLS],
        bound: u32,
        previous: usize,
        path: &mut Vec<Move>,
        next_bound: &mut u32,
        stats: &mut Stats,
        watch: &mut Watch,
    ) -> bool {
        let h = self.estimate(node);
        if h == 0 && node.board == *goal {
            return true;
        }
        stats.expanded += 1;
        if stats.expanded & (PROGRESS_EVERY - 1) == 0 && watch.says_stop(stats) {
            return true; // unwinds; `solve` tells a stop from a find
        }
        stats.peak_open = stats.peak_open.max(path.len() as u64 + 1);
        let g = path.len() as u32 + 1;
        let here = node.blank;
        let saved_value = node.value;
        let saved_sum = node.sum;
        for &(mv, target) in self.adjacency.from(here) {
            let target = target as usize;
            if target == previous {
                continue;
            }
            stats.generated += 1;
            self.slide::<true>(node, target);
            let f = g + self.estimate(node);
            if f <= bound {
                path.push(mv);
                if self.bounded(node, goal, bound, here, path, next_bound, stats, watch) {
                    return true;
                }
                path.pop();
            } else if f < *next_bound {
                *next_bound = f;
            }
            // Slide back: the cells return by the reverse slide, the
            // values from the copy (no second lookup).
            self.slide::<false>(node, here);
            node.value = saved_value;
            node.sum = saved_sum;
        }
        false
    }
}
