//! The in-memory search in the multi-tile metric: one move slides the
//! blank any number of cells along its row or its column, so a board's
//! neighbours are every board with the blank elsewhere in its row (the
//! same tile order) and every board along its column (a chain of vertical
//! steps, each a rotation of the tile order).
//!
//! The boards and their index are the single-tile search's ([`super::memory`]):
//! `blank × (m!/2) + h`, four 16-bit masks of blank cells to a word. A
//! slide along a row keeps `h`, so a layer's row moves are its masks
//! spread over their rows (a few shifts). A slide of `k` cells along a
//! column is `k` vertical steps, each found from the one before by the
//! index arithmetic of [`IndexMoves`]; the chain goes on past boards
//! already reached, since a farther board on it may be new.
//!
//! The graph is not bipartite here (a slide of two cells keeps the blank's
//! colour), so a neighbour of layer d can be in layer d − 1, d or d + 1:
//! the search keeps every board reached in one plane, and the distances
//! mod 3 in two more for the table's 2-bit entries. Each layer is one
//! parallel pass (rayon) over the frontier's words; the boards it finds
//! are set in the next frontier with an atomic `fetch_or`.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use crate::rank::Indexer;
use crate::symmetry::GoalClass;

use super::memory::Frontier;
use super::moves::{IndexMoves, LANES, lane};
use super::{Finished, GenerateError, Layer, MAX_IN_MEMORY_CELLS};

/// Words (of four tile orders) a rayon task takes at a time.
const CHUNK: usize = 256;

/// Layers smaller than this are expanded on one thread.
const PARALLEL_LAYER: u64 = 2048;

/// Runs the multi-tile search toward `class`'s canonical goal and shows
/// each layer, when complete, to `visit`, until it breaks; builds no
/// table.
pub(crate) fn sweep(
    class: &GoalClass,
    visit: impl FnMut(&Frontier) -> ControlFlow<()>,
) -> Result<(), GenerateError> {
    search(class, |_| {}, visit).map(|_| ())
}

/// Runs the multi-tile search toward `class`'s canonical goal, showing
/// each finished layer to `on_layer` and to `visit` (which may stop it):
/// the layer counts, the first hardest boards and the 2-bit body of a
/// table, or `None` when `visit` stopped it.
pub(crate) fn search(
    class: &GoalClass,
    mut on_layer: impl FnMut(&Layer),
    mut visit: impl FnMut(&Frontier) -> ControlFlow<()>,
) -> Result<Option<Finished>, GenerateError> {
    let shape = class.goal().shape();
    if shape.cells() > MAX_IN_MEMORY_CELLS {
        return Err(GenerateError::TooLarge {
            shape,
            states: shape.table_states(),
        });
    }
    let start = Instant::now();
    let goal = class.canonical();
    let indexer = Indexer::new(goal);
    let search = IndexMoves::new(&indexer, true);
    let words = search.per_blank.div_ceil(LANES);
    let atomic = || (0..words).map(|_| AtomicU64::new(0)).collect::<Vec<_>>();
    // Every board reached, and the distances ≡ 1 and ≡ 2 (mod 3).
    let mut reached = vec![0u64; words];
    let mut low = vec![0u64; words];
    let mut high = vec![0u64; words];
    let mut cur = atomic();
    let mut next = atomic();

    let root = indexer.rank_unchecked(goal).0 as usize;
    let (root_blank, root_h) = (root / search.per_blank, root % search.per_blank);
    let root_bit = 1u64 << (lane(root_h) + root_blank);
    cur[root_h / LANES].store(root_bit, Relaxed);
    reached[root_h / LANES] = root_bit;
    let mut layers = vec![1u64];
    let mut total = 1u64;
    on_layer(&Layer {
        depth: 0,
        states: 1,
        total,
        elapsed: start.elapsed(),
    });
    if visit(&Frontier::new(&search, &cur, 0, 1)).is_break() {
        return Ok(None);
    }
    loop {
        let depth = layers.len();
        let parallel = layers.last().is_some_and(|&n| n >= PARALLEL_LAYER);
        let expand = |(c, cur): (usize, &[AtomicU64])| {
            search.expand_multi(c * CHUNK, cur, &reached, &next);
        };
        if parallel {
            cur.par_chunks(CHUNK).enumerate().for_each(expand);
        } else {
            cur.chunks(CHUNK).enumerate().for_each(expand);
        }
        // The boards found are layer `depth`: add them to what is reached
        // and to the plane of their residue, and make them the frontier.
        let plane = match depth % 3 {
            1 => Some(&mut low),
            2 => Some(&mut high),
            _ => None,
        };
        let settle = |reached: &mut [u64], plane: Option<&mut [u64]>, next: &[AtomicU64]| {
            let mut states = 0u64;
            match plane {
                Some(plane) => {
                    for ((r, p), n) in reached.iter_mut().zip(plane.iter_mut()).zip(next) {
                        let n = n.load(Relaxed);
                        *r |= n;
                        *p |= n;
                        states += n.count_ones() as u64;
                    }
                }
                None => {
                    for (r, n) in reached.iter_mut().zip(next) {
                        let n = n.load(Relaxed);
                        *r |= n;
                        states += n.count_ones() as u64;
                    }
                }
            }
            states
        };
        let states = if parallel {
            let plane_chunks: Option<Vec<&mut [u64]>> =
                plane.map(|p| p.chunks_mut(CHUNK).collect());
            match plane_chunks {
                Some(planes) => reached
                    .par_chunks_mut(CHUNK)
                    .zip(planes)
                    .zip(next.par_chunks(CHUNK))
                    .map(|((r, p), n)| settle(r, Some(p), n))
                    .sum(),
                None => reached
                    .par_chunks_mut(CHUNK)
                    .zip(next.par_chunks(CHUNK))
                    .map(|(r, n)| settle(r, None, n))
                    .sum(),
            }
        } else {
            settle(&mut reached, plane.map(|p| &mut p[..]), &next)
        };
        if states == 0 {
            break;
        }
        total += states;
        layers.push(states);
        on_layer(&Layer {
            depth: depth as u32,
            states,
            total,
            elapsed: start.elapsed(),
        });
        if visit(&Frontier::new(&search, &next, depth as u32, states)).is_break() {
            return Ok(None);
        }
        std::mem::swap(&mut cur, &mut next);
        let clear = |w: &AtomicU64| w.store(0, Relaxed);
        if parallel {
            next.par_iter().for_each(clear);
        } else {
            next.iter().for_each(clear);
        }
    }
    debug_assert_eq!(total, indexer.len());
    // `cur` holds the last layer.
    let hardest = search.boards(&cur);
    let body = search.body(&low, &high);
    drop((cur, next, reached, search));
    Ok(Some((layers, hardest, body)))
}

impl IndexMoves<'_> {
    /// Sets in `next` every board one multi-tile move from the boards of
    /// `cur` (the frontier's words from `first` on) that `reached` does
    /// not hold.
    fn expand_multi(&self, first: usize, cur: &[AtomicU64], reached: &[u64], next: &[AtomicU64]) {
        match self.cols {
            2 => self.expand_multi_k::<1>(first, cur, reached, next),
            3 => self.expand_multi_k::<2>(first, cur, reached, next),
            4 => self.expand_multi_k::<3>(first, cur, reached, next),
            5 => self.expand_multi_k::<4>(first, cur, reached, next),
            6 => self.expand_multi_k::<5>(first, cur, reached, next),
            c => unreachable!("no table has {c} columns"),
        }
    }

    fn expand_multi_k<const K: usize>(
        &self,
        first: usize,
        cur: &[AtomicU64],
        reached: &[u64],
        next: &[AtomicU64],
    ) {
        let claim = |h: usize, cell: usize| {
            let w = h / LANES;
            let bit = 1u64 << (lane(h) + cell);
            if reached[w] & bit == 0 {
                let n = &next[w];
                if n.load(Relaxed) & bit == 0 {
                    n.fetch_or(bit, Relaxed);
                }
            }
        };
        for (i, word) in cur.iter().enumerate() {
            let f = word.load(Relaxed);
            if f == 0 {
                continue;
            }
            let w = first + i;
            // Along the rows: every cell of a row that holds a blank.
            let mut row = f;
            for _ in 0..K {
                row |= self.along(row);
            }
            let new = row & !reached[w];
            if new != 0 {
                next[w].fetch_or(new, Relaxed);
            }
            // Along the columns: a chain of vertical steps each way.
            let mut up = f & self.can_up;
            while up != 0 {
                let x = up.trailing_zeros() as usize;
                up &= up - 1;
                let (mut h, mut cell) = (w * LANES + x / 16, x % 16);
                while self.can_up >> cell & 1 != 0 {
                    let v = &self.up[cell];
                    h = self.neighbour::<K>(h, v);
                    cell = v.to;
                    claim(h, cell);
                }
            }
            let mut down = f & self.can_down;
            while down != 0 {
                let x = down.trailing_zeros() as usize;
                down &= down - 1;
                let (mut h, mut cell) = (w * LANES + x / 16, x % 16);
                while self.can_down >> cell & 1 != 0 {
                    let v = &self.down[cell];
                    h = self.neighbour::<K>(h, v);
                    cell = v.to;
                    claim(h, cell);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, VecDeque};

    use crate::board::{Board, Move, Shape};
    use crate::rank::Indexer;
    use crate::symmetry::GoalClass;

    /// Every board one multi-tile move from `board`: the blank walked one
    /// cell at a time in each direction, each board on the way a neighbour.
    fn slides(board: &Board) -> Vec<Board> {
        let mut found = Vec::new();
        for mv in Move::ALL {
            let mut at = *board;
            while let Some(next) = at.apply(mv) {
                found.push(next);
                at = next;
            }
        }
        found
    }

    /// Distances by a plain breadth-first search over boards.
    fn distances(goal: &Board) -> HashMap<Board, u32> {
        let mut seen = HashMap::from([(*goal, 0)]);
        let mut queue = VecDeque::from([*goal]);
        while let Some(b) = queue.pop_front() {
            let d = seen[&b];
            for n in slides(&b) {
                seen.entry(n).or_insert_with(|| {
                    queue.push_back(n);
                    d + 1
                });
            }
        }
        seen
    }

    #[test]
    fn the_search_finds_a_plain_searchs_distances() {
        for (shape, goals) in [
            ("2x2", vec!["1 2 3 0", "0 1 2 3"]),
            ("2x3", vec!["1 2 3 4 5 0", "1 0 2 3 4 5"]),
            ("2x4", vec!["1 2 3 4 5 6 7 0", "1 2 0 3 4 5 6 7"]),
            (
                "3x3",
                vec![
                    "1 2 3 4 5 6 7 8 0",
                    "1 0 2 3 4 5 6 7 8",
                    "1 2 3 4 0 5 6 7 8",
                ],
            ),
            ("2x5", vec!["1 2 3 4 5 6 7 8 9 0"]),
        ] {
            let shape: Shape = shape.parse().unwrap();
            for goal in goals {
                let goal = Board::parse(goal, Some(shape)).unwrap();
                let class = GoalClass::of(&goal);
                let (layers, hardest, body) =
                    super::search(&class, |_| {}, |_| std::ops::ControlFlow::Continue(()))
                        .unwrap()
                        .unwrap();
                let canonical = class.canonical();
                let expected = distances(canonical);
                let mut counts = vec![0u64; layers.len()];
                for d in expected.values() {
                    counts[*d as usize] += 1;
                }
                assert_eq!(layers, counts, "{shape} toward {canonical}");
                let indexer = Indexer::new(canonical);
                for (board, d) in &expected {
                    let i = indexer.rank_unchecked(board).0 as usize;
                    let entry = (body[i / 4] >> (2 * (i % 4))) & 3;
                    assert_eq!(entry as u32, d % 3, "{board} toward {canonical}");
                }
                let max = layers.len() as u32 - 1;
                for board in &hardest {
                    assert_eq!(expected[board], max, "{board}");
                }
                assert_eq!(hardest.len() as u64, layers[max as usize].min(1000));
            }
        }
    }
}
