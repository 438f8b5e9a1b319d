//! Searches over successor closures: A*, IDA*, breadth-first,
//! depth-first and iterative-deepening depth-first.
//!
//! Each works on any node type and any graph whose moves all cost one: it
//! is given the start, a closure listing a node's neighbours, a test for
//! the goal and, for the informed searches, a heuristic. Each returns the
//! path it found (start first, goal last) and its [`Stats`].
//! [`crate::solver`] applies them to boards.

use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};
use std::hash::{BuildHasherDefault, Hash, Hasher};
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
}

/// A search's answer: the path, if one was found, and what it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome<N> {
    /// Start first, goal last; `None` if no goal was reached.
    pub path: Option<Vec<N>>,
    /// The work done.
    pub stats: Stats,
    /// Whether the search stopped at its bound on remembered nodes (see
    /// [`bfs_within`]) before it reached a goal or ran out of nodes.
    pub gave_up: bool,
}

/// A fast hash for small keys (the multiply-rotate hash of Firefox and
/// rustc): boards are a few machine words, and SipHash's resistance to
/// flooding buys nothing for a search's own states.
#[derive(Debug, Default, Clone, Copy)]
pub struct WordHasher(u64);

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
/// reaches the goal sooner. States are kept once each, in a hash map.
///
/// ```
/// use slidedb::search::astar;
/// // Walk from 0 to 10 on the integers, steps of ±1 and ±3.
/// let out = astar(0i32, |&n| [n - 1, n + 1, n - 3, n + 3], |&n| (10 - n).unsigned_abs().div_ceil(3), |&n| n == 10);
/// assert_eq!(out.path.unwrap().len() - 1, 4); // 3 + 3 + 3 + 1
/// ```
pub fn astar<N, I>(
    start: N,
    successors: impl FnMut(&N) -> I,
    heuristic: impl FnMut(&N) -> u32,
    success: impl FnMut(&N) -> bool,
) -> Outcome<N>
where
    N: Clone + Eq + Hash,
    I: IntoIterator<Item = N>,
{
    astar_within(start, successors, heuristic, success, usize::MAX)
}

/// [`astar`] that remembers at most `max_stored` nodes: past that it
/// stops (`gave_up`), so that a search too big for the memory it may use
/// ends with an answer, not with an allocation failure.
///
/// ```
/// use slidedb::search::astar_within;
/// let far = astar_within(0i64, |&n| [n - 1, n + 1], |_| 0, |&n| n == 1000, 100);
/// assert!(far.gave_up && far.path.is_none());
/// ```
pub fn astar_within<N, I>(
    start: N,
    mut successors: impl FnMut(&N) -> I,
    mut heuristic: impl FnMut(&N) -> u32,
    mut success: impl FnMut(&N) -> bool,
    max_stored: usize,
) -> Outcome<N>
where
    N: Clone + Eq + Hash,
    I: IntoIterator<Item = N>,
{
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
        for next in successors(&node) {
            stats.generated += 1;
            let g2 = g + 1;
            let j = match index.get(&next) {
                Some(&j) if depth[j as usize] <= g2 => continue,
                Some(&j) => {
                    depth[j as usize] = g2;
                    nodes[j as usize].1 = i;
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
/// to the node it came from. Gives up (`path: None`) past `max_depth`.
///
/// ```
/// use slidedb::search::idastar;
/// let out = idastar(0i32, |&n| [n - 1, n + 1, n - 3, n + 3], |&n| (10 - n).unsigned_abs().div_ceil(3), |&n| n == 10, 20);
/// assert_eq!(out.path.unwrap().len() - 1, 4);
/// ```
pub fn idastar<N, I>(
    start: N,
    mut successors: impl FnMut(&N) -> I,
    mut heuristic: impl FnMut(&N) -> u32,
    mut success: impl FnMut(&N) -> bool,
    max_depth: u32,
) -> Outcome<N>
where
    N: Clone + Eq,
    I: IntoIterator<Item = N>,
{
    let clock = Instant::now();
    let mut stats = Stats::default();
    let mut path = vec![start];
    let mut bound = heuristic(&path[0]);
    loop {
        let mut next_bound = u32::MAX;
        let found = bounded(
            &mut path,
            0,
            bound,
            &mut next_bound,
            &mut successors,
            &mut heuristic,
            &mut success,
            &mut stats,
        );
        if found {
            break;
        }
        if next_bound == u32::MAX || next_bound > max_depth {
            path.clear();
            break;
        }
        bound = next_bound;
    }
    stats.peak_visited = stats.peak_open;
    stats.elapsed = clock.elapsed();
    Outcome {
        path: (!path.is_empty()).then_some(path),
        stats,
        gave_up: false,
    }
}

/// One bounded depth-first pass of IDA* (and, with a zero heuristic, of
/// IDDFS) below the last node of `path`.
#[allow(clippy::too_many_arguments)]
fn bounded<N, I>(
    path: &mut Vec<N>,
    g: u32,
    bound: u32,
    next_bound: &mut u32,
    successors: &mut impl FnMut(&N) -> I,
    heuristic: &mut impl FnMut(&N) -> u32,
    success: &mut impl FnMut(&N) -> bool,
    stats: &mut Stats,
) -> bool
where
    N: Clone + Eq,
    I: IntoIterator<Item = N>,
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
    stats.expanded += 1;
    stats.peak_open = stats.peak_open.max(path.len() as u64);
    for next in successors(&node) {
        stats.generated += 1;
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
            stats,
        ) {
            return true;
        }
        path.pop();
    }
    false
}

/// Iterative-deepening depth-first search: depth-first searches to depth
/// 0, 1, 2, … until one reaches a goal. Optimal, with memory for one path,
/// at the price of repeating the shallow levels. Gives up past `max_depth`.
///
/// ```
/// use slidedb::search::iddfs;
/// let out = iddfs(0i32, |&n| [n - 1, n + 1, n - 3, n + 3], |&n| n == 10, 20);
/// assert_eq!(out.path.unwrap().len() - 1, 4);
/// ```
pub fn iddfs<N, I>(
    start: N,
    successors: impl FnMut(&N) -> I,
    success: impl FnMut(&N) -> bool,
    max_depth: u32,
) -> Outcome<N>
where
    N: Clone + Eq,
    I: IntoIterator<Item = N>,
{
    idastar(start, successors, |_| 0, success, max_depth)
}

/// Breadth-first search: an optimal path, remembering every state seen.
///
/// ```
/// use slidedb::search::bfs;
/// let out = bfs(0i32, |&n| [n - 1, n + 1, n - 3, n + 3], |&n| n == 10);
/// assert_eq!(out.path.unwrap().len() - 1, 4);
/// ```
pub fn bfs<N, I>(
    start: N,
    successors: impl FnMut(&N) -> I,
    success: impl FnMut(&N) -> bool,
) -> Outcome<N>
where
    N: Clone + Eq + Hash,
    I: IntoIterator<Item = N>,
{
    blind(VecDeque::new(), start, successors, success, usize::MAX)
}

/// [`bfs`] that remembers at most `max_stored` nodes: past that it stops
/// (`gave_up`), so that a search too big for the memory it may use ends
/// with an answer, not with an allocation failure.
///
/// ```
/// use slidedb::search::bfs_within;
/// let near = bfs_within(0i32, |&n| [n - 1, n + 1], |&n| n == 3, 100);
/// assert_eq!(near.path.unwrap().len(), 4);
/// let far = bfs_within(0i64, |&n| [n - 1, n + 1], |&n| n == 1000, 100);
/// assert!(far.gave_up && far.path.is_none());
/// ```
pub fn bfs_within<N, I>(
    start: N,
    successors: impl FnMut(&N) -> I,
    success: impl FnMut(&N) -> bool,
    max_stored: usize,
) -> Outcome<N>
where
    N: Clone + Eq + Hash,
    I: IntoIterator<Item = N>,
{
    blind(VecDeque::new(), start, successors, success, max_stored)
}

/// Depth-first search with an explicit stack and a visited set: a path,
/// found quickly in memory but usually far from the shortest.
///
/// ```
/// use slidedb::search::dfs;
/// let out = dfs(0i32, |&n| [n + 1, n + 3].into_iter().filter(|&m| m <= 10), |&n| n == 10);
/// let path = out.path.unwrap();
/// assert_eq!((path[0], *path.last().unwrap()), (0, 10));
/// ```
pub fn dfs<N, I>(
    start: N,
    successors: impl FnMut(&N) -> I,
    success: impl FnMut(&N) -> bool,
) -> Outcome<N>
where
    N: Clone + Eq + Hash,
    I: IntoIterator<Item = N>,
{
    blind(Vec::new(), start, successors, success, usize::MAX)
}

/// [`dfs`] that remembers at most `max_stored` nodes (see [`bfs_within`]).
///
/// ```
/// use slidedb::search::dfs_within;
/// let far = dfs_within(0i64, |&n| [n + 1], |&n| n == 1000, 100);
/// assert!(far.gave_up && far.path.is_none());
/// ```
pub fn dfs_within<N, I>(
    start: N,
    successors: impl FnMut(&N) -> I,
    success: impl FnMut(&N) -> bool,
    max_stored: usize,
) -> Outcome<N>
where
    N: Clone + Eq + Hash,
    I: IntoIterator<Item = N>,
{
    blind(Vec::new(), start, successors, success, max_stored)
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
    max_stored: usize,
) -> Outcome<N>
where
    N: Clone + Eq + Hash,
    I: IntoIterator<Item = N>,
{
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
