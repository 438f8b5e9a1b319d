//! IDA* in the multi-tile metric specialised for the 4×4 (issue 37 §4):
//! the board packed four bits a cell in a `u64`, and beside it the colour
//! of each cell in [`ColourPdb::four_by_four`]'s colouring, for the board
//! and for its transpose, both kept up to date at each step of the blank;
//! the estimate is the larger of the two abstract distances. Nothing is
//! allocated per node and no hash map is read; a node's up to six children
//! are ranked first and their two table entries prefetched before any is
//! read, so the cache misses of one node overlap.
//!
//! Each iteration of IDA* lists the nodes [`FRONTIER_DEPTH`] moves deep
//! that its bound keeps, in depth-first order, and searches below them as
//! rayon tasks, on every core. The solution kept is the one below the
//! first such node that has one, as one thread would find it: a task
//! stops when a node before its own has a solution, and goes on when only
//! one after it has. So the answer does not depend on the threads.
//!
//! Any goal with its blank in a corner is served: the board and goal are
//! first mirrored so the goal's blank is in the last cell, then their tiles
//! renamed so the goal is the default one (the colouring is of cells, so
//! a renaming changes nothing); the blank's path is mirrored back at the
//! end.

use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize};
use std::time::Instant;

use rayon::prelude::*;

use crate::board::{Board, Metric, Move};
use crate::multi_heuristic::ColourPdb;
use crate::search::{PROGRESS_EVERY, Stats};
use crate::solution::{Solution, SolveError};
use crate::system::prefetch;

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

/// How deep the frontier whose subtrees the workers share is: a few
/// hundred nodes on a hard board, enough for two or more cores to keep
/// busy, each a task for rayon.
const FRONTIER_DEPTH: u32 = 5;

/// What the workers of one search share: the iteration's outcome as it is
/// found, and the progress callback with the work told to it so far.
struct Shared<F> {
    /// The lowest index of a frontier node found in this iteration to
    /// have a solution below it (`usize::MAX`: none yet): the workers
    /// after it stop, those before it go on, so that the solution kept is
    /// the first in depth-first order, the one a single thread finds.
    found: AtomicUsize,
    /// Set when the callback says stop.
    stop: AtomicBool,
    /// The least bound past the iteration's, over every subtree.
    next_bound: AtomicU32,
    /// The callback, and the work done so far, as told to it.
    report: Mutex<(F, Stats)>,
    clock: Instant,
}

impl<F: FnMut(&Stats) -> ControlFlow<()>> Shared<F> {
    /// Adds a worker's work to the total, and shows the total to the
    /// callback if `show` (and it has not said stop: once is enough).
    fn tell(&self, expanded: u64, generated: u64, bound: u32, show: bool) {
        let mut report = self.report.lock().unwrap_or_else(|e| e.into_inner());
        let (progress, stats) = &mut *report;
        stats.expanded += expanded;
        stats.generated += generated;
        stats.bound = bound;
        if show && !self.stop.load(Relaxed) {
            stats.elapsed = self.clock.elapsed();
            if progress(stats).is_break() {
                self.stop.store(true, Relaxed);
            }
        }
    }
}

/// One worker's search below a node: the table, the colours of each tile
/// for the two probes, the iteration's bound, the path so far, and the
/// work not yet told.
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
    expanded: u64,
    generated: u64,
    /// The frontier node it searches below (its index), and what the
    /// workers share.
    index: usize,
    shared: &'a Shared<F>,
    /// Whether it stopped before its subtree was done: told to, or a
    /// frontier node before its own has a solution.
    quit: bool,
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

    /// The children of `n`, reached in `g` moves, the last along `axis`
    /// (0 vertical, 1 horizontal, 2 none) that the bound keeps, into
    /// `kids`, in the order they are searched: how many. The least `f`
    /// of those it cuts goes into `next_bound`.
    #[inline(always)]
    fn children(&mut self, n: &Node, g: u32, axis: u8, kids: &mut [Child; 6]) -> usize {
        // The children: ranked, and the board's entry of each asked for,
        // before any is read.
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
        self.generated += count as u64;
        // Those the board's entry keeps: their transpose's entry asked for.
        let mut alive = 0;
        for i in 0..count {
            let mut kid = kids[i];
            kid.node.h = next_distance(n.h, self.pdb.mod3(kid.index));
            let f = g + 1 + kid.node.h as u32;
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            kid.f = f;
            kid.index = self.pdb.index16(kid.node.colours_t);
            prefetch(self.pdb.mod3_byte(kid.index));
            kids[alive] = kid;
            alive += 1;
        }
        // Those both entries keep.
        let mut kept = 0;
        for i in 0..alive {
            let mut kid = kids[i];
            kid.node.h_t = next_distance(n.h_t, self.pdb.mod3(kid.index));
            let f = kid.f.max(g + 1 + kid.node.h_t as u32);
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            kids[kept] = kid;
            kept += 1;
        }
        kept
    }

    /// Depth-first below `n`, reached in `g` moves, the last along `axis`:
    /// whether the goal was found within the bound.
    fn dfs(&mut self, n: &Node, g: u32, axis: u8) -> bool {
        if n.tiles == GOAL {
            return true;
        }
        self.expanded += 1;
        if self.expanded & (PROGRESS_EVERY - 1) == 0 {
            self.shared
                .tell(self.expanded, self.generated, self.bound, true);
            (self.expanded, self.generated) = (0, 0);
        }
        // A relaxed load a node, of a line that changes a few times a
        // search.
        if self.shared.found.load(Relaxed) < self.index || self.shared.stop.load(Relaxed) {
            self.quit = true;
            return false;
        }
        let mut kids = [Child::default(); 6];
        let kept = self.children(n, g, axis, &mut kids);
        for kid in &kids[..kept] {
            self.path.push(kid.node.blank);
            if self.dfs(&kid.node, g + 1, kid.axis) {
                return true;
            }
            self.path.pop();
            if self.quit {
                return false;
            }
        }
        false
    }

    /// Depth-first below `n` as [`dfs`](Search::dfs), but only down to
    /// `depth` moves: the nodes there (each with its path and axis) go
    /// into `frontier`, in the order `dfs` would search them. The goal's
    /// path, if it is found on the way.
    fn frontier(
        &mut self,
        n: &Node,
        g: u32,
        axis: u8,
        depth: u32,
        frontier: &mut Vec<(Node, u8, Vec<u8>)>,
    ) -> Option<Vec<u8>> {
        if n.tiles == GOAL {
            return Some(self.path.clone());
        }
        if g == depth {
            frontier.push((*n, axis, self.path.clone()));
            return None;
        }
        self.expanded += 1;
        let mut kids = [Child::default(); 6];
        let kept = self.children(n, g, axis, &mut kids);
        for kid in &kids[..kept] {
            self.path.push(kid.node.blank);
            let found = self.frontier(&kid.node, g + 1, kid.axis, depth, frontier);
            self.path.pop();
            if found.is_some() {
                return found;
            }
        }
        None
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
    progress: impl FnMut(&Stats) -> ControlFlow<()> + Send,
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
    let shared = Shared {
        found: AtomicUsize::new(usize::MAX),
        stop: AtomicBool::new(false),
        next_bound: AtomicU32::new(u32::MAX),
        report: Mutex::new((progress, Stats::default())),
        clock: Instant::now(),
    };
    let worker = |index: usize, bound: u32, path: Vec<u8>| Search {
        pdb,
        colour,
        colour_t,
        bound,
        next_bound: u32::MAX,
        path,
        expanded: 0,
        generated: 0,
        index,
        shared: &shared,
        quit: false,
    };
    let mut bound = start.h.max(start.h_t) as u32;
    let path = loop {
        // The frontier, by one thread; the subtrees below it, by all.
        let mut frontier = Vec::new();
        let mut top = worker(0, bound, vec![start.blank]);
        let found = top.frontier(&start, 0, 2, FRONTIER_DEPTH, &mut frontier);
        shared.tell(top.expanded, top.generated, bound, false);
        if let Some(path) = found {
            break path;
        }
        shared.next_bound.store(top.next_bound, Relaxed);
        let paths: Vec<Option<Vec<u8>>> = frontier
            .into_par_iter()
            .enumerate()
            .map(|(index, (node, axis, path))| {
                if shared.found.load(Relaxed) < index || shared.stop.load(Relaxed) {
                    return None;
                }
                let mut search = worker(index, bound, path);
                search.path.reserve(MAX_MOVES as usize + 1);
                let found = search.dfs(&node, FRONTIER_DEPTH, axis);
                shared.tell(search.expanded, search.generated, bound, false);
                if found {
                    shared.found.fetch_min(index, Relaxed);
                    return Some(search.path);
                }
                shared.next_bound.fetch_min(search.next_bound, Relaxed);
                None
            })
            .collect();
        // The first subtree in depth-first order with a solution.
        if let Some(path) = paths.into_iter().flatten().next() {
            break path;
        }
        let stats = report_stats(&shared);
        if shared.stop.load(Relaxed) {
            return Err(SolveError::Stopped { stats });
        }
        bound = shared.next_bound.load(Relaxed);
        if bound > MAX_MOVES {
            return Err(SolveError::SearchLimit {
                what: format!("no path within {MAX_MOVES} moves"),
            });
        }
    };
    let mut stats = report_stats(&shared);
    stats.bound = bound;
    stats.peak_open = path.len() as u64;
    stats.peak_visited = stats.peak_open;
    // The blank's cells, mirrored back, become its letters.
    let cells: Vec<usize> = path.iter().map(|&c| c as usize ^ mirror).collect();
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
        stats: Some(stats),
    })
}

/// The work told so far, and the time since the search began.
fn report_stats<F>(shared: &Shared<F>) -> Stats {
    let report = shared.report.lock().unwrap_or_else(|e| e.into_inner());
    Stats {
        elapsed: shared.clock.elapsed(),
        ..report.1
    }
}
