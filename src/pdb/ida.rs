//! IDA* under additive pattern databases, specialised for speed: the
//! board, each group's tile cells and each group's value are kept in place
//! and updated by the one tile a move slides, then put back on the way up.
//! Nothing is allocated per node. A node's children are estimated before
//! any of them is searched or even moved to: their lookups are
//! independent, so the memory serves them together, and a child cut off
//! costs its lookups alone.
//!
//! Once an iteration has a million nodes or more, the next ones run on
//! every thread of the rayon pool: the tree is cut a few moves below the
//! root into subtrees (at least 64 a thread), which the threads take in
//! the order a single thread would search them. A thread that finds the
//! goal in subtree `i` stops those after `i` and lets those before it
//! finish, so the moves found are the ones a single thread finds; only
//! the nodes counted in the last iteration differ: the other threads'
//! work on subtrees after `i`, done beside the search of `i`.
//!
//! The estimate is the largest of several admissible sums, the *views*:
//! for each set of databases (several partitions may be searched under at
//! once), its groups' sum for the board itself, and for each *mirror* of
//! it. A mirror is a symmetry of the board that keeps the goal's blank
//! cell in place (the diagonal through a corner or centre blank on a
//! square board, the flip across the middle row or column the blank lies
//! on) followed by the renaming that maps the goal onto itself: the
//! mirrored board is exactly as far from the goal, so its sum is another
//! admissible estimate, often the larger. A mirror that maps each group of
//! a set onto a group of the same set reads the same sum (a group's entry
//! for a board is its image's entry for the mirrored board), so it is
//! left out. A child's views are read in order, the first set's first,
//! and the rest only while the child is not cut off.
//!
//! Which moves are searched: never the one that undoes the last, and with
//! [`Pruning::Duplicates`] none that completes a redundant move sequence
//! (a [`DuplicateFilter`] state rides in each node, stepped by the moves
//! as they are made, in the goal's canonical frame where the search runs,
//! and put back with them; a parallel iteration's subtree replays its
//! prefix's moves from the root's state).

use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

use crate::board::{Adjacency, Board, MAX_CELLS, Move};
use crate::duplicates::{DuplicateFilter, REFUSED};

use crate::search::{PROGRESS_EVERY, Stats};
use crate::symmetry::GoalSymmetry;

use super::{EntryKind, MAX_GROUP_TILES, Pruning, aware};

/// One group of a set of databases, as the search reads it.
pub(super) struct Group<'a> {
    /// Its tiles, ascending.
    pub tiles: &'a [u8],
    /// Its entries.
    pub entries: &'a [u8],
    /// What they hold.
    pub kind: EntryKind,
}

/// No group: a tile no group covers.
const NONE: u8 = u8::MAX;
/// The most views: each set and its mirrors (those past it are left out).
const MAX_VIEWS: usize = 8;
/// The most groups of all sets together (a set whose groups would pass it
/// is left out).
const MAX_GROUPS: usize = 32;
/// The deepest bound tried.
const MAX_BOUND: u32 = 1000;
/// The fewest nodes an iteration expands for the next to run on every
/// thread: below it, an iteration takes a few milliseconds.
const PARALLEL_AFTER: u64 = 1 << 20;
/// The fewest subtrees a thread gets, on average, in a parallel iteration:
/// enough that one deep subtree does not leave the other threads idle.
const SUBTREES_PER_THREAD: usize = 64;

/// The caller's progress callback.
pub(super) type Progress<'p> = &'p mut (dyn FnMut(&Stats) -> ControlFlow<()> + Send);

/// What a depth-first pass asks every [`PROGRESS_EVERY`] nodes: whether
/// to stop.
trait Watch {
    /// Shows `stats` (the pass's own count); whether to stop.
    fn says_stop(&mut self, stats: &Stats) -> bool;
}

/// A single thread's watch: the caller's callback, and whether it said
/// to stop.
struct Alone<'p, 'q> {
    progress: &'q mut Progress<'p>,
    /// When the search began.
    clock: Instant,
    stopped: bool,
}

impl Watch for Alone<'_, '_> {
    #[cold]
    #[inline(never)]
    fn says_stop(&mut self, stats: &Stats) -> bool {
        let so_far = Stats {
            elapsed: self.clock.elapsed(),
            ..*stats
        };
        self.stopped = (self.progress)(&so_far).is_break();
        self.stopped
    }
}

/// What the threads of one parallel iteration share.
struct Shared<'p, 'q> {
    /// The caller's callback (called by one thread at a time; a thread
    /// that finds it busy skips its report).
    progress: Mutex<&'q mut Progress<'p>>,
    /// The work before this iteration, and the time the search began.
    before: Stats,
    clock: Instant,
    /// Nodes expanded and generated in this iteration so far, as reported.
    expanded: AtomicU64,
    generated: AtomicU64,
    /// The caller said to stop.
    stopped: AtomicBool,
    /// The first subtree, in order, found to hold the goal (`usize::MAX`
    /// while none has).
    found: AtomicUsize,
}

/// One thread's watch in a parallel iteration.
struct Worker<'s, 'p, 'q> {
    shared: &'s Shared<'p, 'q>,
    /// The subtree it is searching.
    subtree: usize,
    /// Its counts as last added to the shared ones.
    reported: (u64, u64),
    /// Whether its pass was told to stop (rather than finding the goal).
    stopped: bool,
}

impl Watch for Worker<'_, '_, '_> {
    #[cold]
    #[inline(never)]
    fn says_stop(&mut self, stats: &Stats) -> bool {
        let shared = self.shared;
        shared
            .expanded
            .fetch_add(stats.expanded - self.reported.0, Relaxed);
        shared
            .generated
            .fetch_add(stats.generated - self.reported.1, Relaxed);
        self.reported = (stats.expanded, stats.generated);
        if let Ok(mut progress) = shared.progress.try_lock() {
            let so_far = Stats {
                expanded: shared.before.expanded + shared.expanded.load(Relaxed),
                generated: shared.before.generated + shared.generated.load(Relaxed),
                peak_open: shared.before.peak_open.max(stats.peak_open),
                peak_visited: 0,
                elapsed: shared.clock.elapsed(),
                bound: shared.before.bound,
            };
            if (progress)(&so_far).is_break() {
                shared.stopped.store(true, Relaxed);
            }
        }
        self.stopped = shared.stopped.load(Relaxed) || shared.found.load(Relaxed) < self.subtree;
        self.stopped
    }
}

/// How one iteration ended.
enum Pass {
    /// The goal, by this path.
    Found,
    /// No path within the bound; the least estimate past it.
    Beyond(u32),
    /// The caller said to stop.
    Stopped,
}

/// A way of looking at the board: cells and tiles relabelled by a
/// symmetry that keeps the goal in place, and read by one set's groups.
#[derive(Clone, Copy)]
struct View {
    /// The set's groups: `groups.0..groups.1` of all sets' groups.
    groups: (u8, u8),
    /// `cell[c]`: where cell `c` goes.
    cell: [u8; MAX_CELLS],
    /// `group[t]`, `slot[t]`: the group (among all sets') of what tile `t`
    /// is called in this view ([`NONE`] if none of its set's groups has
    /// it) and its place in the group.
    group: [u8; MAX_CELLS],
    slot: [u8; MAX_CELLS],
}

/// The fixed part of a search: the databases and how tiles map to them.
pub(super) struct Search<'a> {
    n: usize,
    goal: Board,
    adjacency: Adjacency,
    /// Each group's entries, the groups of every set one after another.
    entries: Vec<&'a [u8]>,
    /// The most tiles a group has.
    width: usize,
    /// Each group's rank weights: digit `i` weighs `(n − i − 1)! / (n − k)!`
    /// (see [`placement_rank`](crate::rank::placement_rank)), so the digits' products are independent.
    weights: Vec<[u32; MAX_GROUP_TILES]>,
    views: Vec<View>,
    /// The automaton refusing redundant move sequences, if they are
    /// pruned ([`Pruning::Duplicates`]).
    filter: Option<std::sync::Arc<DuplicateFilter>>,
    /// Each group's free cells (`n − k`) if its entries are blank-aware,
    /// else 0.
    free: [usize; MAX_GROUPS],
    /// Each group's tiles' cells in the goal.
    home: [[u8; MAX_GROUP_TILES]; MAX_GROUPS],
    /// Each group's size.
    sizes: [usize; MAX_GROUPS],
    /// The cells next to each cell, as masks.
    neighbours: [u32; MAX_CELLS],
}

/// What changes along the path.
#[derive(Clone)]
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
    /// The filter's state after the moves so far (0 without a filter).
    state: u32,
}

/// A value for each view: that of the group of the tile a slide moves,
/// after it (found before the slide) or before it (to put back when the
/// slide is undone).
type Values = [u8; MAX_VIEWS];

impl<'a> Search<'a> {
    /// A search toward `goal` under the maximum of `sets`, each a set of
    /// disjoint [`Group`]s (tiles ascending, entries of their kind) whose
    /// distances add up,
    /// trying the blank's moves in `order` (a permutation of
    /// [`Move::ALL`]). The first set is read first; sets past
    /// [`MAX_GROUPS`] groups in all, and views past [`MAX_VIEWS`], are
    /// left out.
    pub(super) fn new(
        goal: &Board,
        sets: &[Vec<Group<'a>>],
        order: [Move; 4],
        pruning: Pruning,
    ) -> Search<'a> {
        let shape = goal.shape();
        let n = shape.cells();
        let mut groups: Vec<&Group<'a>> = Vec::new();
        let mut views: Vec<View> = Vec::new();
        for set in sets {
            if groups.len() + set.len() > MAX_GROUPS {
                continue;
            }
            let first = groups.len();
            let mut group_of = [NONE; MAX_CELLS];
            let mut slot_of = [0u8; MAX_CELLS];
            for (g, group) in set.iter().enumerate() {
                for (slot, &t) in group.tiles.iter().enumerate() {
                    group_of[t as usize] = (first + g) as u8;
                    slot_of[t as usize] = slot as u8;
                }
            }
            groups.extend(set);
            let range = (first as u8, groups.len() as u8);
            // The board's symmetries that keep the goal's blank in place:
            // the identity first, then the mirrors that read another sum.
            for turn in GoalSymmetry::all(goal) {
                let mut view = View {
                    groups: range,
                    cell: turn.cell,
                    group: [NONE; MAX_CELLS],
                    slot: [0; MAX_CELLS],
                };
                let identity = turn.is_identity();
                for t in 0..n {
                    let named = turn.rename[t] as usize;
                    view.group[t] = group_of[named];
                    view.slot[t] = slot_of[named];
                }
                // Each group's tiles named, in this view, as the tiles of
                // one group: the mirror reads the identity's sum.
                let same_sum = set.iter().all(|group| {
                    let g = view.group[group.tiles[0] as usize];
                    g != NONE && group.tiles.iter().all(|&t| view.group[t as usize] == g)
                });
                if (identity || !same_sum) && views.len() < MAX_VIEWS {
                    if identity {
                        // The identity leads its set's views.
                        let at = views
                            .iter()
                            .position(|v| v.groups == range)
                            .unwrap_or(views.len());
                        views.insert(at, view);
                    } else {
                        views.push(view);
                    }
                }
            }
        }
        // The counts the search has a copy for: 1 to 4, and 8 (a repeated
        // view rounds the others up and changes no maximum).
        if views.len() > 4 {
            views.resize(MAX_VIEWS, views[0]);
        }
        Search {
            n,
            goal: *goal,
            adjacency: Adjacency::ordered(shape, order),
            entries: groups.iter().map(|group| group.entries).collect(),
            width: groups
                .iter()
                .map(|group| group.tiles.len())
                .max()
                .unwrap_or(0),
            weights: groups
                .iter()
                .map(|group| {
                    let k = group.tiles.len();
                    let mut weight = [0u32; MAX_GROUP_TILES];
                    let mut w = 1u64;
                    for i in (0..k).rev() {
                        weight[i] = w as u32;
                        w *= (n - i) as u64;
                    }
                    weight
                })
                .collect(),
            views,
            filter: match pruning {
                Pruning::Parent => None,
                Pruning::Duplicates => Some(DuplicateFilter::of(shape)),
            },
            // (At most MAX_GROUPS groups: sets past it were left out.)
            free: std::array::from_fn(|g| match groups.get(g) {
                Some(group) if group.kind == EntryKind::BlankAware => n - group.tiles.len(),
                _ => 0,
            }),
            home: std::array::from_fn(|g| {
                let mut home = [0u8; MAX_GROUP_TILES];
                if let Some(group) = groups.get(g) {
                    for (cell, &t) in home.iter_mut().zip(group.tiles) {
                        *cell = (0..n).find(|&c| goal.tile(c) == t).expect("every tile") as u8;
                    }
                }
                home
            }),
            sizes: std::array::from_fn(|g| groups.get(g).map_or(0, |group| group.tiles.len())),
            neighbours: super::neighbour_masks(shape),
        }
    }

    /// The node of `board`, every value computed in full; `None` if a
    /// group's blank-aware entries do not lead down to the goal (damaged).
    fn node(&self, board: &Board) -> Option<Node> {
        let mut node = Node {
            board: [0; MAX_CELLS],
            blank: board.blank(),
            cells: [[[0; MAX_GROUP_TILES]; MAX_GROUPS]; MAX_VIEWS],
            value: [[0; MAX_GROUPS]; MAX_VIEWS],
            sum: [0; MAX_VIEWS],
            state: self.filter.as_ref().map_or(0, |f| f.start(board.blank())),
        };
        for c in 0..self.n {
            let t = board.tile(c);
            node.board[c] = t;
            for (v, view) in self.views.iter().enumerate() {
                let g = view.group[t as usize];
                if g != NONE {
                    node.cells[v][g as usize][view.slot[t as usize] as usize] = view.cell[c];
                }
            }
        }
        for (v, view) in self.views.iter().enumerate() {
            for g in view.groups.0 as usize..view.groups.1 as usize {
                let value = if self.free[g] == 0 {
                    self.lookup::<MAX_GROUP_TILES>(&node.cells[v][g], g)
                } else {
                    let group = aware::Group {
                        entries: self.entries[g],
                        n: self.n,
                        neighbours: &self.neighbours[..self.n],
                        home: &self.home[g][..self.sizes[g]],
                        goal_blank: self.goal.blank() as u32,
                    };
                    let blank = view.cell[board.blank()] as u32;
                    aware::distance(&group, &node.cells[v][g][..self.sizes[g]], blank)?
                };
                node.value[v][g] = value;
                node.sum[v] += value as u32;
            }
        }
        Some(node)
    }

    /// Group `g`'s entry for its tiles in `cells`, ranked over the first
    /// `K` slots: `K` is at least the group's size (the slots past it are
    /// 0, as are their weights, so they add nothing).
    #[inline(always)]
    fn lookup<const K: usize>(&self, cells: &[u8; MAX_GROUP_TILES], g: usize) -> u8 {
        self.entries[g][rank_of::<K>(cells, &self.weights[g])]
    }

    #[inline]
    fn estimate(&self, node: &Node) -> u32 {
        node.sum[..self.views.len()]
            .iter()
            .copied()
            .max()
            .unwrap_or(0)
    }

    /// View `v`'s estimate of the board after the tile in `target` slides
    /// into the blank, and the value its group takes (0 if no group has
    /// the tile: nothing changes).
    #[inline(always)]
    fn child_sum<const K: usize>(&self, node: &Node, v: usize, target: usize) -> (u32, u8) {
        let view = &self.views[v];
        let tile = node.board[target] as usize;
        let g = view.group[tile];
        if g == NONE {
            return (node.sum[v], 0);
        }
        let g = g as usize;
        let mut cells = node.cells[v][g];
        cells[view.slot[tile] as usize] = view.cell[node.blank];
        let value = if self.free[g] == 0 {
            self.lookup::<K>(&cells, g)
        } else {
            let (rank, used) = rank_and_cells::<K>(&cells, &self.weights[g]);
            let index = rank * self.free[g] + aware::free_index(used, view.cell[target] as u32);
            aware::step(node.value[v][g], aware::code(self.entries[g], index))
        };
        (node.sum[v] - node.value[v][g] as u32 + value as u32, value)
    }

    /// Slides the tile in `target` into the blank, updating every view:
    /// its cells, its group's value (to `values[v]`, found beforehand by
    /// [`child_sum`](Search::child_sum)) and the sums. Returns the values
    /// it replaced, for [`undo`](Search::undo).
    #[inline(always)]
    fn apply(&self, node: &mut Node, target: usize, values: &Values, views: usize) -> Values {
        let mut replaced = [0; MAX_VIEWS];
        let from = node.blank;
        let tile = node.board[target];
        node.board[from] = tile;
        node.board[target] = 0;
        node.blank = target;
        for (v, view) in self.views[..views].iter().enumerate() {
            let g = view.group[tile as usize];
            if g == NONE {
                continue;
            }
            let g = g as usize;
            node.cells[v][g][view.slot[tile as usize] as usize] = view.cell[from];
            replaced[v] = node.value[v][g];
            node.sum[v] = node.sum[v] + values[v] as u32 - replaced[v] as u32;
            node.value[v][g] = values[v];
        }
        replaced
    }

    /// The filter's state after `mv` to `target`, or [`REFUSED`] if the
    /// move is not searched: it undoes the last (the blank came from
    /// `previous`) or completes a redundant sequence.
    #[inline(always)]
    fn state_after(&self, node: &Node, mv: Move, target: usize, previous: usize) -> u32 {
        if target == previous {
            return REFUSED;
        }
        match &self.filter {
            Some(filter) => filter.step(node.state, mv),
            None => 0,
        }
    }

    /// Slides the tile in `target` into the blank, looking up every view.
    fn slide(&self, node: &mut Node, target: usize) -> Values {
        let mut values = [0; MAX_VIEWS];
        for (v, value) in values.iter_mut().enumerate().take(self.views.len()) {
            *value = self.child_sum::<MAX_GROUP_TILES>(node, v, target).1;
        }
        self.apply(node, target, &values, self.views.len())
    }

    /// Undoes the slide that moved the blank from `back`: the tile
    /// returns, and every view's value from `replaced`.
    #[inline(always)]
    fn undo(&self, node: &mut Node, back: usize, replaced: &Values, views: usize) {
        let from = node.blank;
        let tile = node.board[back];
        node.board[from] = tile;
        node.board[back] = 0;
        node.blank = back;
        for (v, view) in self.views[..views].iter().enumerate() {
            let g = view.group[tile as usize];
            if g == NONE {
                continue;
            }
            let g = g as usize;
            node.cells[v][g][view.slot[tile as usize] as usize] = view.cell[from];
            let value = node.value[v][g];
            node.sum[v] = node.sum[v] + replaced[v] as u32 - value as u32;
            node.value[v][g] = replaced[v];
        }
    }

    /// An optimal path from `board` (which can reach the goal) and the
    /// work it took; `None` if the databases are damaged: the bound
    /// passes [`MAX_BOUND`] (every board up to 25 cells is far closer), or
    /// a group's blank-aware entries lead nowhere.
    ///
    /// `progress` sees the work so far every [`PROGRESS_EVERY`] nodes
    /// expanded (by a thread); when it breaks, the search stops: `Err`
    /// with the work done.
    pub(super) fn solve(
        &self,
        board: &Board,
        progress: &mut Progress,
    ) -> Result<Option<(Vec<Move>, Stats)>, Stats> {
        let clock = Instant::now();
        let mut stats = Stats::default();
        let Some(root) = self.node(board) else {
            return Ok(None);
        };
        let goal: [u8; MAX_CELLS] =
            std::array::from_fn(|c| if c < self.n { self.goal.tile(c) } else { 0 });
        let threads = rayon::current_num_threads();
        // One path, grown and shrunk in place.
        let mut path = Vec::with_capacity(256);
        let mut bound = self.estimate(&root);
        let mut last = 0u64;
        let pass = loop {
            if bound > MAX_BOUND {
                return Ok(None);
            }
            let before = stats.expanded;
            stats.bound = bound;
            let pass = if threads > 1 && last >= PARALLEL_AFTER {
                self.parallel(
                    &root, &goal, bound, threads, &mut path, &mut stats, progress, clock,
                )
            } else {
                let mut node = root.clone();
                let mut next_bound = u32::MAX;
                let mut watch = Alone {
                    progress: &mut *progress,
                    clock,
                    stopped: false,
                };
                let found = self.pass(
                    &mut node,
                    &goal,
                    bound,
                    usize::MAX,
                    &mut path,
                    &mut next_bound,
                    &mut stats,
                    &mut watch,
                );
                match (found, watch.stopped) {
                    (_, true) => Pass::Stopped,
                    (true, false) => Pass::Found,
                    (false, false) => Pass::Beyond(next_bound),
                }
            };
            last = stats.expanded - before;
            match pass {
                Pass::Beyond(next) => bound = next,
                done => break done,
            }
        };
        // As the generic IDA* counts: the longest path expanded.
        stats.peak_visited = stats.peak_open;
        stats.elapsed = clock.elapsed();
        match pass {
            Pass::Found => Ok(Some((path, stats))),
            _ => Err(stats),
        }
    }

    /// One iteration on `threads` threads: cuts the tree at the shallowest
    /// depth with enough subtrees and searches them in parallel. On
    /// [`Pass::Found`], `path` is the path a single thread finds.
    #[allow(clippy::too_many_arguments)]
    fn parallel(
        &self,
        root: &Node,
        goal: &[u8; MAX_CELLS],
        bound: u32,
        threads: usize,
        path: &mut Vec<Move>,
        stats: &mut Stats,
        progress: &mut Progress,
        clock: Instant,
    ) -> Pass {
        // The subtrees: each the targets of its first `depth` slides.
        let mut cut = Cut::at(0);
        for depth in 1..=(bound as usize).clamp(1, 64) {
            cut = Cut::at(depth);
            let mut node = root.clone();
            let mut prefix = Vec::with_capacity(depth);
            if self.cut(&mut node, goal, bound, usize::MAX, &mut prefix, &mut cut) {
                // The goal lies above the cut (it is at most `depth` moves
                // away): the first path to it, as one thread finds it.
                stats.expanded += cut.stats.expanded;
                stats.generated += cut.stats.generated;
                stats.peak_open = stats.peak_open.max(cut.stats.peak_open);
                path.clear();
                path.extend(self.moves(root, &prefix));
                return Pass::Found;
            }
            if cut.subtrees.len() >= threads * SUBTREES_PER_THREAD * depth {
                break;
            }
        }
        stats.expanded += cut.stats.expanded;
        stats.generated += cut.stats.generated;
        stats.peak_open = stats.peak_open.max(cut.stats.peak_open);
        let depth = cut.depth;
        let count = cut.subtrees.len() / depth.max(1);
        let shared = Shared {
            progress: Mutex::new(progress),
            before: *stats,
            clock,
            expanded: AtomicU64::new(0),
            generated: AtomicU64::new(0),
            stopped: AtomicBool::new(false),
            found: AtomicUsize::new(usize::MAX),
        };
        let next = AtomicUsize::new(0);
        // Per thread: its counts, its least estimate past the bound, and
        // the path of the first subtree it found the goal in.
        let results = Mutex::new(Vec::with_capacity(threads));
        rayon::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|_| {
                    let mut local = Stats::default();
                    let mut next_bound = u32::MAX;
                    let mut found: Option<(usize, Vec<Move>)> = None;
                    let mut path = Vec::with_capacity(256);
                    let mut watch = Worker {
                        shared: &shared,
                        subtree: 0,
                        reported: (0, 0),
                        stopped: false,
                    };
                    loop {
                        let i = next.fetch_add(1, Relaxed);
                        if i >= count
                            || i > shared.found.load(Relaxed)
                            || shared.stopped.load(Relaxed)
                        {
                            break;
                        }
                        let prefix = &cut.subtrees[i * depth..(i + 1) * depth];
                        let mut node = root.clone();
                        path.clear();
                        path.extend(self.moves(root, prefix));
                        let mut previous = usize::MAX;
                        for (mv, &target) in self.moves(root, prefix).zip(prefix) {
                            let after = self.state_after(&node, mv, target as usize, previous);
                            previous = node.blank;
                            self.slide(&mut node, target as usize);
                            node.state = after;
                        }
                        watch.subtree = i;
                        watch.stopped = false;
                        let ended = self.pass(
                            &mut node,
                            goal,
                            bound,
                            previous,
                            &mut path,
                            &mut next_bound,
                            &mut local,
                            &mut watch,
                        );
                        if ended && !watch.stopped {
                            shared.found.fetch_min(i, Relaxed);
                            found = Some((i, path.clone()));
                            break; // every later subtree is no longer needed
                        }
                    }
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((local, next_bound, found));
                });
            }
        });
        let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
        let mut next_bound = cut.next_bound;
        let mut first: Option<(usize, Vec<Move>)> = None;
        for (local, bound, found) in results {
            stats.expanded += local.expanded;
            stats.generated += local.generated;
            stats.peak_open = stats.peak_open.max(local.peak_open);
            next_bound = next_bound.min(bound);
            if let Some((i, moves)) = found
                && first.as_ref().is_none_or(|(j, _)| i < *j)
            {
                first = Some((i, moves));
            }
        }
        match first {
            Some((_, moves)) => {
                *path = moves;
                Pass::Found
            }
            None if shared.stopped.load(Relaxed) => Pass::Stopped,
            None => Pass::Beyond(next_bound),
        }
    }

    /// The moves of the slides of `targets` from `root`.
    fn moves<'t>(&'t self, root: &Node, targets: &'t [u8]) -> impl Iterator<Item = Move> + 't {
        let mut blank = root.blank;
        targets.iter().map(move |&target| {
            let (mv, _) = *self
                .adjacency
                .from(blank)
                .iter()
                .find(|&&(_, t)| t == target)
                .expect("each target is next to the blank");
            blank = target as usize;
            mv
        })
    }

    /// The first `cut.depth` levels of one depth-first pass below `node`,
    /// in the order [`bounded`](Search::bounded) goes: each node at depth
    /// `cut.depth` within the bound is a subtree (its targets appended to
    /// `cut.subtrees`), each above it is expanded and counted. True if the
    /// goal is above the cut, `prefix` the path to it.
    fn cut(
        &self,
        node: &mut Node,
        goal: &[u8; MAX_CELLS],
        bound: u32,
        previous: usize,
        prefix: &mut Vec<u8>,
        cut: &mut Cut,
    ) -> bool {
        if prefix.len() == cut.depth {
            cut.subtrees.extend_from_slice(prefix);
            return false;
        }
        let h = self.estimate(node);
        if h == 0 && node.board == *goal {
            return true;
        }
        cut.stats.expanded += 1;
        cut.stats.peak_open = cut.stats.peak_open.max(prefix.len() as u64 + 1);
        let g = prefix.len() as u32 + 1;
        let here = node.blank;
        let state = node.state;
        for &(mv, target) in self.adjacency.from(here) {
            let target = target as usize;
            let after = self.state_after(node, mv, target, previous);
            if after == REFUSED {
                continue;
            }
            cut.stats.generated += 1;
            let replaced = self.slide(node, target);
            node.state = after;
            let f = g + self.estimate(node);
            if f <= bound {
                prefix.push(target as u8);
                if self.cut(node, goal, bound, here, prefix, cut) {
                    return true;
                }
                prefix.pop();
            } else if f < cut.next_bound {
                cut.next_bound = f;
            }
            self.undo(node, here, &replaced, self.views.len());
            node.state = state;
        }
        false
    }

    /// One depth-first pass below `node` (reached by `path`, whose
    /// estimate is within `bound`), never undoing the last move. True when
    /// it found the goal or `watch` said to stop.
    #[allow(clippy::too_many_arguments)]
    fn pass<W: Watch>(
        &self,
        node: &mut Node,
        goal: &[u8; MAX_CELLS],
        bound: u32,
        previous: usize,
        path: &mut Vec<Move>,
        next_bound: &mut u32,
        stats: &mut Stats,
        watch: &mut W,
    ) -> bool {
        // One copy of the pass per rank width and number of views: the
        // ranks and the loops over the views unrolled, with no branch on a
        // group's size.
        macro_rules! by_views {
            ($k:expr) => {
                match self.views.len() {
                    1 => Self::bounded::<$k, 1, W>,
                    2 => Self::bounded::<$k, 2, W>,
                    3 => Self::bounded::<$k, 3, W>,
                    4 => Self::bounded::<$k, 4, W>,
                    _ => Self::bounded::<$k, 8, W>,
                }
            };
        }
        let pass = match self.width {
            0..=4 => by_views!(4),
            5 => by_views!(5),
            6 => by_views!(6),
            7 => by_views!(7),
            _ => by_views!(MAX_GROUP_TILES),
        };
        pass(
            self, node, goal, bound, previous, path, next_bound, stats, watch,
        )
    }

    /// [`pass`](Search::pass) with ranks over `K` slots, at least the
    /// largest group's size.
    #[allow(clippy::too_many_arguments)]
    fn bounded<const K: usize, const V: usize, W: Watch>(
        &self,
        node: &mut Node,
        goal: &[u8; MAX_CELLS],
        bound: u32,
        previous: usize,
        path: &mut Vec<Move>,
        next_bound: &mut u32,
        stats: &mut Stats,
        watch: &mut W,
    ) -> bool {
        let h = node.sum[..V].iter().copied().max().unwrap_or(0);
        if h == 0 && node.board == *goal {
            return true;
        }
        stats.expanded += 1;
        if stats.expanded & (PROGRESS_EVERY - 1) == 0 && watch.says_stop(stats) {
            return true; // unwinds; the watch tells a stop from a find
        }
        stats.peak_open = stats.peak_open.max(path.len() as u64 + 1);
        let g = path.len() as u32 + 1;
        let here = node.blank;
        let moves = self.adjacency.from(here);
        // Every child's estimate before any is searched, so that the
        // memory serves their lookups together: first the first view's;
        // then each other view's, in order, for each child the views
        // before it do not cut off, that is, whose largest sum so far is
        // within the bound or below the least f past it so far. (That
        // least f only falls while the children are searched, so a child
        // cut off now stays cut off; one that is cut off later was looked
        // up for nothing, and the tree, its counts and the next bound are
        // the same either way.)
        let mut values = [[0u8; MAX_VIEWS]; 4];
        let mut f = [0u32; 4];
        let mut after = [REFUSED; 4];
        for (i, &(mv, target)) in moves.iter().enumerate() {
            after[i] = self.state_after(node, mv, target as usize, previous);
            if after[i] != REFUSED {
                let (sum, value) = self.child_sum::<K>(node, 0, target as usize);
                values[i][0] = value;
                f[i] = g + sum;
            }
        }
        for (i, &(_, target)) in moves.iter().enumerate() {
            if after[i] != REFUSED {
                for (v, value) in values[i].iter_mut().enumerate().take(V).skip(1) {
                    if f[i] > bound && f[i] >= *next_bound {
                        break;
                    }
                    let (sum, looked_up) = self.child_sum::<K>(node, v, target as usize);
                    *value = looked_up;
                    f[i] = f[i].max(g + sum);
                }
            }
        }
        let state = node.state;
        for (i, &(mv, target)) in moves.iter().enumerate() {
            let target = target as usize;
            if after[i] == REFUSED {
                continue;
            }
            stats.generated += 1;
            if f[i] <= bound {
                let replaced = self.apply(node, target, &values[i], V);
                node.state = after[i];
                path.push(mv);
                if self.bounded::<K, V, W>(node, goal, bound, here, path, next_bound, stats, watch)
                {
                    return true;
                }
                path.pop();
                self.undo(node, here, &replaced, V);
                node.state = state;
            } else if f[i] < *next_bound {
                *next_bound = f[i];
            }
        }
        false
    }
}

/// The rank of the placement of `K` tiles in `cells` (see
/// [`placement_rank`](crate::rank::placement_rank)), with its digits' `weight`s.
#[inline(always)]
fn rank_of<const K: usize>(
    cells: &[u8; MAX_GROUP_TILES],
    weight: &[u32; MAX_GROUP_TILES],
) -> usize {
    let mut used = 0u32;
    let mut rank = 0usize;
    for i in 0..K {
        let c = cells[i] as u32;
        let digit = c - (used & ((1 << c) - 1)).count_ones();
        rank += digit as usize * weight[i] as usize;
        used |= 1 << c;
    }
    rank
}

/// [`rank_of`], and the cells of the slots with a weight (the group's
/// tiles) as a mask.
#[inline(always)]
fn rank_and_cells<const K: usize>(
    cells: &[u8; MAX_GROUP_TILES],
    weight: &[u32; MAX_GROUP_TILES],
) -> (usize, u32) {
    let mut used = 0u32;
    let mut rank = 0usize;
    for i in 0..K {
        let c = cells[i] as u32;
        let digit = c - (used & ((1 << c) - 1)).count_ones();
        rank += digit as usize * weight[i] as usize;
        used |= u32::from(weight[i] != 0) << c;
    }
    (rank, used)
}

/// The subtrees of a parallel iteration, and the work of finding them.
struct Cut {
    /// Moves from the root to each subtree.
    depth: usize,
    /// Each subtree's `depth` targets, one after another.
    subtrees: Vec<u8>,
    /// The least estimate past the bound among the nodes above the cut.
    next_bound: u32,
    /// The nodes above the cut expanded and generated.
    stats: Stats,
}

impl Cut {
    /// No subtrees yet, at `depth` moves from the root.
    fn at(depth: usize) -> Cut {
        Cut {
            depth,
            subtrees: Vec::new(),
            next_bound: u32::MAX,
            stats: Stats::default(),
        }
    }
}
