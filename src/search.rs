//! Searches over successor closures: A*, IDA*, breadth-first,
//! depth-first and iterative-deepening depth-first.
//!
//! Each works on any node type and any graph whose moves all cost one: it
//! is given the start, a closure listing a node's neighbours, a test for
//! the goal, for the informed searches a heuristic, and its [`Limits`]:
//! how many nodes it may remember, and a closure that hears its progress
//! every [`PROGRESS_EVERY`] nodes expanded and stops it by answering
//! [`ControlFlow::Break`] (for a display, a deadline or cancellation). Each
//! returns the path it found (start first, goal last) and its [`Stats`].
//! [`crate::solver`] applies them to boards.

use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// What a search did: the work and the space it took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes whose neighbours were listed.
    pub expanded: u64,
    /// Neighbours listed.
    pub generated: u64,
    /// The most nodes waiting at once: the open list, queue or stack (for
    /// IDA* and IDDFS, the deepest path).
    pub peak_open: u64,
    /// The most nodes remembered at once (for IDA* and IDDFS, which
    /// remember only their path, the same as `peak_open`).
    pub peak_visited: u64,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
    /// For IDA* and IDDFS, the bound of the iteration under way (at the
    /// end, of the last): the longest `depth + estimate` (for IDDFS, the
    /// depth) it goes to. 0 for the other searches.
    pub bound: u32,
}

/// A search's answer: the path, if one was found, and what it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome<N> {
    /// Start first, goal last; `None` if no goal was reached.
    pub path: Option<Vec<N>>,
    /// The work done.
    pub stats: Stats,
    /// Whether the search stopped before it reached a goal or ran out of
    /// nodes: at its bound on remembered nodes (see [`Limits::max_stored`]), or
    /// because its progress closure said so (see [`Limits::progress`]).
    pub gave_up: bool,
}

/// How often a search calls its [`Limits::progress`] closure: every
/// 65,536 nodes expanded (a few milliseconds of the fastest search), so
/// that the call costs nothing measurable.
pub const PROGRESS_EVERY: u64 = 1 << 16;

/// Whether `expanded` nodes is a time to report progress.
#[inline(always)]
fn report_due(expanded: u64) -> bool {
    expanded & (PROGRESS_EVERY - 1) == 0
}

/// Calls `progress` with `stats` brought up to date: time so far, and
/// `stored` nodes remembered now (the peak so far, at least).
#[cold]
#[inline(never)]
fn report(
    progress: &mut impl FnMut(&Stats) -> ControlFlow<()>,
    stats: &mut Stats,
    clock: Instant,
    stored: u64,
) -> ControlFlow<()> {
    stats.elapsed = clock.elapsed();
    stats.peak_visited = stats.peak_visited.max(stored);
    progress(stats)
}

/// The progress closure of the searches without one: never stops.
fn no_progress(_: &Stats) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// What bounds a search, and who hears its progress: the most nodes it
/// may remember at once, and a closure called with the work so far every
/// [`PROGRESS_EVERY`] nodes expanded that stops the search (`gave_up`, no
/// path) by answering [`ControlFlow::Break`]. [`Limits::none`] bounds
/// nothing.
///
/// ```
/// use std::ops::ControlFlow;
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use slidedb::search::{Limits, PROGRESS_EVERY, bfs};
/// // Memory: at most 100 nodes remembered.
/// let far = bfs(0i64, |&n| [n - 1, n + 1], |&n| n == 1000, Limits::none().max_stored(100));
/// assert!(far.gave_up && far.path.is_none());
/// // Cancellation: a flag another thread may set, looked at on each report.
/// let cancel = AtomicBool::new(true);
/// let limits = Limits::none().progress(|_| match cancel.load(Ordering::Relaxed) {
///     true => ControlFlow::Break(()),
///     false => ControlFlow::Continue(()),
/// });
/// let stopped = bfs(0i64, |&n| [n - 1, n + 1], |_| false, limits);
/// assert!(stopped.gave_up);
/// assert_eq!(stopped.stats.expanded, PROGRESS_EVERY);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Limits<P = fn(&Stats) -> ControlFlow<()>> {
    max_stored: usize,
    progress: P,
}

impl Limits {
    /// No bound on memory, and no one to tell: the search runs until it
    /// reaches a goal or runs out of nodes.
    ///
    /// ```
    /// use slidedb::search::{Limits, bfs};
    /// let out = bfs(0i32, |&n| [n - 1, n + 1, n - 3, n + 3], |&n| n == 10, Limits::none());
    /// assert_eq!(out.path.unwrap().len() - 1, 4);
    /// ```
    pub fn none() -> Limits {
        Limits {
            max_stored: usize::MAX,
            progress: no_progress,
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::none()
    }
}

impl<P: FnMut(&Stats) -> ControlFlow<()>> Limits<P> {
    /// Remembers at most `nodes` nodes at once (A*, breadth- and
    /// depth-first: the nodes seen and waiting; IDA* and IDDFS: the
    /// path): past that the search stops (`gave_up`), so that a search too
    /// big for the memory it may use ends with an answer, not with an
    /// allocation failure.
    ///
    /// ```
    /// use slidedb::search::{Limits, astar};
    /// let far = astar(0i64, |&n| [n - 1, n + 1], |_| 0, |&n| n == 1000, Limits::none().max_stored(100));
    /// assert!(far.gave_up && far.path.is_none());
    /// ```
    pub fn max_stored(self, nodes: usize) -> Limits<P> {
        Limits {
            max_stored: nodes,
            ..self
        }
    }

    /// Calls `progress` with the work so far every [`PROGRESS_EVERY`]
    /// nodes expanded; the search stops (`gave_up`, no path) when it
    /// answers [`ControlFlow::Break`].
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use slidedb::search::{Limits, PROGRESS_EVERY, astar};
    /// // No estimate: A* expands every integer nearer than 50,000 first.
    /// let mut calls = 0;
    /// let limits = Limits::none().progress(|s| {
    ///     calls += 1;
    ///     assert!(s.expanded > 0 && s.generated >= s.expanded);
    ///     ControlFlow::Continue(())
    /// });
    /// let out = astar(0i64, |&n| [n - 1, n + 1], |_| 0, |&n| n == 50_000, limits);
    /// assert_eq!(out.path.unwrap().len(), 50_001);
    /// assert_eq!(calls, 1); // at 65,536 of about 100,000 nodes
    /// // Stopped at the first call:
    /// let limits = Limits::none().progress(|_| ControlFlow::Break(()));
    /// let out = astar(0i64, |&n| [n - 1, n + 1], |_| 0, |&n| n == 50_000, limits);
    /// assert!(out.gave_up && out.path.is_none());
    /// assert_eq!(out.stats.expanded, PROGRESS_EVERY);
    /// ```
    pub fn progress<Q: FnMut(&Stats) -> ControlFlow<()>>(self, progress: Q) -> Limits<Q> {
        Limits {
            max_stored: self.max_stored,
            progress,
        }
    }
}

/// A fast hash for small keys (the multiply-rotate hash of Firefox and
/// rustc): boards are a few machine words, and SipHash's resistance to
/// flooding buys nothing for a search's own states. The same hash as the
/// `rustc-hash` crate's 1.x `FxHasher`, kept here and private: a dozen
/// lines are cheaper than a dependency for every user of the library.
#[derive(Debug, Default, Clone, Copy)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64);
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    #[inline]
    fn write_u128(&mut self, n: u128) {
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

type Map<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;
type Set<K> = HashSet<K, BuildHasherDefault<WordHasher>>;

/// Follows parent links from `last` back to the root of `nodes`.
fn trace<N: Clone>(nodes: &[(N, u32)], last: u32) -> Vec<N> {
    let mut path = Vec::new();
    let mut at = last;
    loop {
        let (node, parent) = &nodes[at as usize];
        path.push(node.clone());
        if *parent == at {
            break;
        }
        at = *parent;
    }
    path.reverse();
    path
}

/// A* with a binary heap: an optimal path when `heuristic` never
/// overestimates. Among equal estimates it prefers the deeper node, which
/// reaches the goal sooner. States are kept once each, in a hash map (a
/// state reached again by a shorter path is kept as that path reached it,
/// for a node equal to another may carry more than its state); the open
/// list may hold a state more than once, and [`Limits::max_stored`]
/// counts those too.
///
/// ```
/// use slidedb::search::{Limits, astar};
/// // Walk from 0 to 10 on the integers, steps of ±1 and ±3.
/// let h = |&n: &i32| (10 - n).unsigned_abs().div_ceil(3);
/// let out = astar(0i32, |&n| [n - 1, n + 1, n - 3, n + 3], h, |&n| n == 10, Limits::none());
/// assert_eq!(out.path.unwrap().len() - 1, 4); // 3 + 3 + 3 + 1
/// ```
pub fn astar<N, I, P>(
    start: N,
    mut successors: impl FnMut(&N) -> I,
    mut heuristic: impl FnMut(&N) -> u32,
    mut success: impl FnMut(&N) -> bool,
    limits: Limits<P>,
) -> Outcome<N>
where
    N: Clone + Eq + Hash,
    I: IntoIterator<Item = N>,
    P: FnMut(&Stats) -> ControlFlow<()>,
{
    let Limits {
        max_stored,
        mut progress,
    } = limits;
    let mut gave_up = false;
    let clock = Instant::now();
    let mut stats = Stats::default();
    // Every state seen: (state, parent), and its best depth so far.
    // Room for a hard 3x3 search without growing (growth copies).
    const RESERVE: usize = 16 << 10;
    let mut nodes: Vec<(N, u32)> = Vec::with_capacity(RESERVE);
    nodes.push((start.clone(), 0));
    let mut depth: Vec<u32> = Vec::with_capacity(RESERVE);
    depth.push(0);
    let mut index: Map<N, u32> = Map::with_capacity_and_hasher(RESERVE, Default::default());
    index.insert(start.clone(), 0);
    // Keys order by f, then by greater depth, then by age (depths and
    // estimates below 65,536; node numbers below 2^32).
    let key = |f: u32, g: u32, i: u32| -> u64 {
        ((f.min(0xFFFF) as u64) << 48) | (((0xFFFF - g.min(0xFFFF)) as u64) << 32) | i as u64
    };
    let mut open = BinaryHeap::with_capacity(RESERVE);
    open.push(std::cmp::Reverse(key(heuristic(&start), 0, 0)));
    stats.peak_open = 1;
    while let Some(std::cmp::Reverse(k)) = open.pop() {
        // The open list can hold a node more than once: count it too.
        if nodes.len().saturating_add(open.len()) >= max_stored {
            gave_up = true;
            break;
        }
        let i = k as u32;
        let g = 0xFFFF - ((k >> 32) & 0xFFFF) as u32;
        if g != depth[i as usize] {
            continue; // a stale entry: this state was reached shorter since
        }
        let node = nodes[i as usize].0.clone();
        if success(&node) {
            stats.peak_visited = nodes.len() as u64;
            stats.elapsed = clock.elapsed();
            return Outcome {
                path: Some(trace(&nodes, i)),
                stats,
                gave_up: false,
            };
        }
        stats.expanded += 1;
        if report_due(stats.expanded)
            && report(&mut progress, &mut stats, clock, nodes.len() as u64).is_break()
        {
            gave_up = true;
            break;
        }
        for next in successors(&node) {
            stats.generated += 1;
            let g2 = g + 1;
            let j = match index.get(&next) {
                Some(&j) if depth[j as usize] <= g2 => continue,
                Some(&j) => {
                    // Kept as reached by the shorter path: a node may
                    // carry what its path says (the multi-tile searches'
                    // last axis), which its successors depend on.
                    depth[j as usize] = g2;
                    nodes[j as usize] = (next.clone(), i);
                    j
                }
                None => {
                    let j = nodes.len() as u32;
                    index.insert(next.clone(), j);
                    nodes.push((next.clone(), i));
                    depth.push(g2);
                    j
                }
            };
            open.push(std::cmp::Reverse(key(g2 + heuristic(&next), g2, j)));
        }
        stats.peak_open = stats.peak_open.max(open.len() as u64);
    }
    stats.peak_visited = nodes.len() as u64;
    stats.elapsed = clock.elapsed();
    Outcome {
        path: None,
        stats,
        gave_up,
    }
}

/// IDA*: depth-first searches bounded by `depth + heuristic`, the bound
/// raised to the smallest excess each round. Optimal when `heuristic`
/// never overestimates; memory is the current path only, and nothing is
/// allocated per node once the path has grown. Never steps straight back
/// to the node it came from. Gives up (`path: None`, not `gave_up`) past
/// `max_depth`; a search toward a goal it cannot reach, which would deepen
/// to `max_depth` for ages, can be given a deadline by its
/// [`Limits::progress`].
///
/// ```
/// use std::ops::ControlFlow;
/// use std::time::{Duration, Instant};
/// use slidedb::search::{Limits, PROGRESS_EVERY, idastar};
/// let h = |&n: &i32| (10 - n).unsigned_abs().div_ceil(3);
/// let out = idastar(0i32, |&n| [n - 1, n + 1, n - 3, n + 3], h, |&n| n == 10, 20, Limits::none());
/// assert_eq!(out.path.unwrap().len() - 1, 4);
/// // A binary tree without the goal: without a stop this would deepen
/// // to depth 1000, its last rounds each longer than the universe's age.
/// let deadline = Instant::now() + Duration::from_millis(50);
/// let mut calls = 0;
/// let limits = Limits::none().progress(|s| {
///     calls += 1;
///     assert_eq!(s.expanded, calls * PROGRESS_EVERY);
///     if Instant::now() < deadline { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
/// });
/// let children = |&n: &u64| [n.wrapping_mul(2), n.wrapping_mul(2) | 1];
/// let out = idastar(1u64, children, |_| 0, |_| false, 1000, limits);
/// assert!(out.gave_up && out.path.is_none());
/// assert!(calls >= 1);
/// ```
pub fn idastar<N, I, P>(
    start: N,
    mut successors: impl FnMut(&N) -> I,
    mut heuristic: impl FnMut(&N) -> u32,
    mut success: impl FnMut(&N) -> bool,
    max_depth: u32,
    limits: Limits<P>,
) -> Outcome<N>
where
    N: Clone + Eq,
    I: IntoIterator<Item = N>,
    P: FnMut(&Stats) -> ControlFlow<()>,
{
    let mut work = Work {
        stats: Stats::default(),
        clock: Instant::now(),
        progress: limits.progress,
        max_stored: limits.max_stored,
        stopped: false,
    };
    let mut path = vec![start];
    let mut bound = heuristic(&path[0]);
    loop {
        work.stats.bound = bound;
        let mut next_bound = u32::MAX;
        let found = bounded(
            &mut path,
            0,
            bound,
            &mut next_bound,
            &mut successors,
            &mut heuristic,
            &mut success,
            &mut work,
        );
        if found && !work.stopped {
            break;
        }
        if work.stopped || next_bound == u32::MAX || next_bound > max_depth {
            path.clear();
            break;
        }
        bound = next_bound;
    }
    let mut stats = work.stats;
    stats.peak_visited = stats.peak_open;
    stats.elapsed = work.clock.elapsed();
    Outcome {
        path: (!path.is_empty()).then_some(path),
        stats,
        gave_up: work.stopped,
    }
}

/// The work of an IDA* search, and whom to tell about it.
struct Work<P> {
    stats: Stats,
    clock: Instant,
    progress: P,
    /// The longest path it may keep.
    max_stored: usize,
    /// Whether `progress` said to stop, or the path grew too long.
    stopped: bool,
}

impl<P: FnMut(&Stats) -> ControlFlow<()>> Work<P> {
    /// Calls `progress`; whether it said to stop.
    #[cold]
    #[inline(never)]
    fn report(&mut self) -> bool {
        let open = self.stats.peak_open;
        self.stopped = report(&mut self.progress, &mut self.stats, self.clock, open).is_break();
        self.stopped
    }
}

/// One bounded depth-first pass of IDA* (and, with a zero heuristic, of
/// IDDFS) below the last node of `path`: whether it reached a goal, or was
/// stopped (`work.stopped`).
#[allow(clippy::too_many_arguments)]
fn bounded<N, I, P>(
    path: &mut Vec<N>,
    g: u32,
    bound: u32,
    next_bound: &mut u32,
    successors: &mut impl FnMut(&N) -> I,
    heuristic: &mut impl FnMut(&N) -> u32,
    success: &mut impl FnMut(&N) -> bool,
    work: &mut Work<P>,
) -> bool
where
    N: Clone + Eq,
    I: IntoIterator<Item = N>,
    P: FnMut(&Stats) -> ControlFlow<()>,
{
    let node = path.last().expect("the path holds the start").clone();
    let f = g + heuristic(&node);
    if f > bound {
        *next_bound = (*next_bound).min(f);
        return false;
    }
    if success(&node) {
        return true;
    }
    work.stats.expanded += 1;
    work.stats.peak_open = work.stats.peak_open.max(path.len() as u64);
    if path.len() >= work.max_stored {
        work.stopped = true;
        return true;
    }
    if report_due(work.stats.expanded) && work.report() {
        return true;
    }
    for next in successors(&node) {
        work.stats.generated += 1;
        if path.len() >= 2 && path[path.len() - 2] == next {
            continue;
        }
        path.push(next);
        if bounded(
            path,
            g + 1,
            bound,
            next_bound,
            successors,
            heuristic,
            success,
            work,
        ) {
            return true;
        }
        path.pop();
    }
    false
}

/// Iterative-deepening depth-first search: depth-first searches to depth
/// Iterative-deepening depth-first search: depth-first searches to depth
/// 0, 1, 2, … until one reaches a goal. Optimal, with memory for one path,
/// at the price of repeating the shallow levels. Gives up past `max_depth`.
///
/// ```
/// use std::ops::ControlFlow;
/// use slidedb::search::{Limits, PROGRESS_EVERY, iddfs};
/// let out = iddfs(0i32, |&n| [n - 1, n + 1, n - 3, n + 3], |&n| n == 10, 20, Limits::none());
/// assert_eq!(out.path.unwrap().len() - 1, 4);
/// let mut seen = Vec::new();
/// let limits = Limits::none().progress(|s| {
///     seen.push(s.expanded);
///     ControlFlow::Continue(())
/// });
/// let out = iddfs(0i32, |&n| [n - 1, n + 1, n - 3, n + 3], |&n| n == 30, 40, limits);
/// assert_eq!(out.path.unwrap().len() - 1, 10);
/// assert!(!seen.is_empty() && seen.windows(2).all(|w| w[1] == w[0] + PROGRESS_EVERY));
/// ```
pub fn iddfs<N, I, P>(
    start: N,
    successors: impl FnMut(&N) -> I,
    success: impl FnMut(&N) -> bool,
    max_depth: u32,
    limits: Limits<P>,
) -> Outcome<N>
where
    N: Clone + Eq,
    I: IntoIterator<Item = N>,
    P: FnMut(&Stats) -> ControlFlow<()>,
{
    idastar(start, successors, |_| 0, success, max_depth, limits)
}

/// Breadth-first search: an optimal path, remembering every state seen.
///
/// ```
/// use slidedb::search::{Limits, bfs};
/// let out = bfs(0i32, |&n| [n - 1, n + 1, n - 3, n + 3], |&n| n == 10, Limits::none());
/// assert_eq!(out.path.unwrap().len() - 1, 4);
/// let far = bfs(0i64, |&n| [n - 1, n + 1], |&n| n == 1000, Limits::none().max_stored(100));
/// assert!(far.gave_up && far.path.is_none());
/// ```
pub fn bfs<N, I, P>(
    start: N,
    successors: impl FnMut(&N) -> I,
    success: impl FnMut(&N) -> bool,
    limits: Limits<P>,
) -> Outcome<N>
where
    N: Clone + Eq + Hash,
    I: IntoIterator<Item = N>,
    P: FnMut(&Stats) -> ControlFlow<()>,
{
    blind(VecDeque::new(), start, successors, success, limits)
}

/// Depth-first search with an explicit stack and a visited set: a path,
/// found quickly in memory but usually far from the shortest.
///
/// ```
/// use slidedb::search::{Limits, dfs};
/// let next = |&n: &i32| [n + 1, n + 3].into_iter().filter(|&m| m <= 10);
/// let out = dfs(0i32, next, |&n| n == 10, Limits::none());
/// let path = out.path.unwrap();
/// assert_eq!((path[0], *path.last().unwrap()), (0, 10));
/// let far = dfs(0i64, |&n| [n - 1, n + 1], |&n| n == 1000, Limits::none().max_stored(100));
/// assert!(far.gave_up && far.path.is_none());
/// ```
pub fn dfs<N, I, P>(
    start: N,
    successors: impl FnMut(&N) -> I,
    success: impl FnMut(&N) -> bool,
    limits: Limits<P>,
) -> Outcome<N>
where
    N: Clone + Eq + Hash,
    I: IntoIterator<Item = N>,
    P: FnMut(&Stats) -> ControlFlow<()>,
{
    blind(Vec::new(), start, successors, success, limits)
}

/// The nodes waiting to be expanded: first in, first out makes a
/// breadth-first search; last in, first out a depth-first one.
trait Waiting {
    fn put(&mut self, node: u32);
    fn take(&mut self) -> Option<u32>;
    fn count(&self) -> usize;
}

impl Waiting for VecDeque<u32> {
    fn put(&mut self, node: u32) {
        self.push_back(node);
    }
    fn take(&mut self) -> Option<u32> {
        self.pop_front()
    }
    fn count(&self) -> usize {
        self.len()
    }
}

impl Waiting for Vec<u32> {
    fn put(&mut self, node: u32) {
        self.push(node);
    }
    fn take(&mut self) -> Option<u32> {
        self.pop()
    }
    fn count(&self) -> usize {
        self.len()
    }
}

/// An uninformed search with a visited set; `waiting` sets the order.
fn blind<N, I>(
    mut waiting: impl Waiting,
    start: N,
    mut successors: impl FnMut(&N) -> I,
    mut success: impl FnMut(&N) -> bool,
    limits: Limits<impl FnMut(&Stats) -> ControlFlow<()>>,
) -> Outcome<N>
where
    N: Clone + Eq + Hash,
    I: IntoIterator<Item = N>,
{
    let Limits {
        max_stored,
        mut progress,
    } = limits;
    let clock = Instant::now();
    let mut stats = Stats::default();
    let mut gave_up = false;
    let mut nodes: Vec<(N, u32)> = vec![(start.clone(), 0)];
    let mut seen: Set<N> = Set::default();
    seen.insert(start);
    waiting.put(0);
    let mut found = None;
    while let Some(i) = waiting.take() {
        let node = nodes[i as usize].0.clone();
        if success(&node) {
            found = Some(i);
            break;
        }
        if nodes.len() >= max_stored {
            gave_up = true;
            break;
        }
        stats.expanded += 1;
        if report_due(stats.expanded)
            && report(&mut progress, &mut stats, clock, seen.len() as u64).is_break()
        {
            gave_up = true;
            break;
        }
        for next in successors(&node) {
            stats.generated += 1;
            if seen.insert(next.clone()) {
                waiting.put(nodes.len() as u32);
                nodes.push((next, i));
            }
        }
        stats.peak_open = stats.peak_open.max(waiting.count() as u64);
    }
    stats.peak_visited = seen.len() as u64;
    stats.elapsed = clock.elapsed();
    Outcome {
        path: found.map(|i| trace(&nodes, i)),
        stats,
        gave_up,
    }
}
