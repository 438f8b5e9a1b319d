//! The entry check: every entry of a table against its neighbours'.
//!
//! Every distance table keeps these rules: each entry is a distance mod 3
//! (0, 1 or 2), the goal's is 0, every neighbour's differs from it by one
//! (mod 3), and every board but the goal has a neighbour one closer. (They
//! do not prove a table right on their own: on 2×2, whose boards form one
//! cycle of 12, other labellings keep them too; `verify` also compares
//! with a fresh search.) The check walks the body in its own order, blank cell by blank cell and
//! tile order by tile order, so it never unranks a board:
//!
//! - a horizontal move keeps the tile order, so the neighbour's entry is
//!   `per_blank` entries before or after, in memory read in order anyway;
//! - a vertical move's tile order comes from the generator's rank
//!   arithmetic ([`IndexMoves::vertical`](crate::bfs::moves::IndexMoves::vertical)), its Lehmer digits carried along as
//!   an odometer. Those entries lie anywhere in the body, so a block of
//!   boards computes all of its targets and asks the cache for them before
//!   it reads any.
//!
//! On 2×7 (43.6 G entries in 10.9 GB) this reads the body about twice and
//! makes one random access a board.
//!
//! A file's body whose cells are whole words of entries is checked 32
//! entries at a time instead: the rules hold as word operations on two
//! words of entries (a board's and a neighbour's), and a vertical move
//! carries runs of tile orders whole ([`Plan`]), so a run's entries are
//! compared with its targets' as bit strings, one rank computation a run.
//! A range where any rule fails is checked again board by board, to name
//! the board.

use crate::symmetry::BuiltFor;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::rank::Index;

use super::Table;
use crate::bfs::moves::{IndexMoves, Odometer, compact, prefetch};
use crate::bfs::vertical::{Plan, Policy, table_of};

/// Tile orders a rayon task checks at a time (for one blank cell).
const TASK: u64 = 1 << 16;

/// Boards whose vertical targets are computed, then prefetched, before
/// any is read.
const BLOCK: usize = 32;

/// The most vertical moves from one cell (up and down).
const MAX_VERTICAL: usize = 2;

/// An entry that breaks the rules (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EntryFault {
    /// Where it is in the body.
    pub(crate) index: Index,
    /// The entry.
    pub(crate) residue: u8,
    /// What is wrong with it.
    pub(crate) what: &'static str,
}

/// A board of a block whose vertical neighbours are still to be read.
#[derive(Clone, Copy, Default)]
struct Pending {
    index: u64,
    residue: u8,
    /// A neighbour read so far is one closer.
    closer: bool,
    targets: [u64; MAX_VERTICAL],
    verticals: u8,
}

/// [`check_entries`] for a table in the multi-tile metric, board by
/// board: each entry is a distance mod 3, the goal's is 0, and every other
/// board has a neighbour (a slide of the blank along its row or column)
/// one closer. Neighbours here may be as far as the board, so one closer,
/// as far and one farther are all the residues mod 3: the rule that holds
/// for every neighbour in the single-tile metric says nothing here, and
/// `verify`'s fresh search carries the rest.
pub(crate) fn check_entries_multi<D: AsRef<[u8]> + Sync>(
    table: &Table<D>,
    progress: impl Fn(u64, u64) + Sync,
) -> Result<(), EntryFault> {
    let indexer = table.indexer();
    let total = indexer.len();
    let goal = indexer.rank_unchecked(table.indexed_goal()).0;
    let done = AtomicU64::new(0);
    progress(0, total);
    (0..total.div_ceil(TASK))
        .into_par_iter()
        .try_for_each(|task| {
            let (first, last) = (task * TASK, ((task + 1) * TASK).min(total));
            for i in first..last {
                let residue = table.residue(Index(i));
                let fault = |what| EntryFault {
                    index: Index(i),
                    residue,
                    what,
                };
                if residue > 2 {
                    return Err(fault("an entry that holds no distance"));
                }
                if i == goal {
                    if residue != 0 {
                        return Err(fault("the goal's entry is not 0"));
                    }
                    continue;
                }
                let board = indexer.unrank(Index(i)).expect("an index below len");
                let closer = (residue + 2) % 3;
                let has_closer = board
                    .slides(crate::board::Metric::Multi)
                    .any(|(_, next)| table.residue(indexer.rank_unchecked(&next)) == closer);
                if !has_closer {
                    return Err(fault("no neighbour is one closer"));
                }
            }
            let n = last - first;
            let before = done.fetch_add(n, Relaxed);
            if (before * 100 / total) != ((before + n) * 100 / total) {
                progress(before + n, total);
            }
            Ok(())
        })
}

/// Checks every entry of `table` against its neighbours', in parallel,
/// calling `progress(done, total)` about a hundred times (from any
/// thread). The fault found first, if any; which one, when there are
/// several, depends on the threads.
pub(crate) fn check_entries<D: AsRef<[u8]> + Sync>(
    table: &Table<D>,
    progress: impl Fn(u64, u64) + Sync,
) -> Result<(), EntryFault> {
    let indexer = table.indexer();
    let body = table.body_bytes();
    let shape = indexer.shape();
    let (cells, cols) = (shape.cells(), shape.cols());
    let per_blank = indexer.per_blank();
    let goal = indexer.rank_unchecked(table.indexed_goal()).0;
    let search = IndexMoves::new(indexer, false);
    // A sharded table's entries are read through the table; a file's
    // straight from its body, with the vertical targets prefetched.
    let sharded = table.is_sharded();
    let entry = |i: u64| {
        if sharded {
            table.residue(Index(i))
        } else {
            (body[(i / 4) as usize] >> (2 * (i % 4))) & 3
        }
    };

    let total = indexer.len();
    let done = AtomicU64::new(0);
    let tasks = per_blank.div_ceil(TASK);
    // Whole words of entries a cell: 32 at a time, runs moved whole.
    let words = (!sharded && per_blank.is_multiple_of(64)).then(|| Words::new(body, &search, goal));
    progress(0, total);
    (0..cells as u64 * tasks)
        .into_par_iter()
        .try_for_each(|task| {
            let cell = (task / tasks) as usize;
            let first = (task % tasks) * TASK;
            let last = (first + TASK).min(per_blank);
            let base = cell as u64 * per_blank;
            if let Some(words) = &words
                && words.hold(cell, first, last)
            {
                let n = last - first;
                let before = done.fetch_add(n, Relaxed);
                if (before * 100 / total) != ((before + n) * 100 / total) {
                    progress(before + n, total);
                }
                return Ok(());
            }
            // The cells a horizontal move reaches, as offsets in the body.
            let mut beside = [0u64; 2];
            let mut n_beside = 0;
            if !cell.is_multiple_of(cols) {
                beside[n_beside] = base - per_blank;
                n_beside += 1;
            }
            if cell % cols != cols - 1 {
                beside[n_beside] = base + per_blank;
                n_beside += 1;
            }
            let verticals: Vec<_> = search.verticals(cell).copied().collect();
            let mut odometer = Odometer::new(&search);
            let mut block = [Pending::default(); BLOCK];
            let mut h = first;
            while h < last {
                let len = ((last - h) as usize).min(BLOCK);
                // Pass 1: the entry, its horizontal neighbours, and the
                // vertical targets (prefetched).
                for (k, pending) in block[..len].iter_mut().enumerate() {
                    let h = h + k as u64;
                    let index = base + h;
                    let residue = entry(index);
                    let fault = |what| EntryFault {
                        index: Index(index),
                        residue,
                        what,
                    };
                    if residue > 2 {
                        return Err(fault("is not a distance mod 3"));
                    }
                    if index == goal && residue != 0 {
                        return Err(fault("is not 0 at the goal"));
                    }
                    let mut closer = false;
                    for &offset in &beside[..n_beside] {
                        match relation(residue, entry(offset + h)) {
                            Some(c) => closer |= c,
                            None => {
                                return Err(fault("differs from a neighbour's by other than one"));
                            }
                        }
                    }
                    *pending = Pending {
                        index,
                        residue,
                        closer,
                        targets: [0; MAX_VERTICAL],
                        verticals: verticals.len() as u8,
                    };
                    if !verticals.is_empty() {
                        let digits = odometer.at(h);
                        for (t, v) in pending.targets.iter_mut().zip(&verticals) {
                            *t = v.to as u64 * per_blank + search.vertical(h, digits, v);
                            if !sharded {
                                prefetch(&body[(*t / 4) as usize]);
                            }
                        }
                    }
                }
                // Pass 2: the vertical neighbours, by now on their way.
                for pending in &block[..len] {
                    let fault = |what| EntryFault {
                        index: Index(pending.index),
                        residue: pending.residue,
                        what,
                    };
                    let mut closer = pending.closer;
                    for &t in &pending.targets[..pending.verticals as usize] {
                        match relation(pending.residue, entry(t)) {
                            Some(c) => closer |= c,
                            None => {
                                return Err(fault("differs from a neighbour's by other than one"));
                            }
                        }
                    }
                    if !closer && pending.index != goal {
                        return Err(fault("has no neighbour one closer"));
                    }
                }
                h += len as u64;
            }
            let n = last - first;
            let before = done.fetch_add(n, Relaxed);
            if (before * 100 / total) != ((before + n) * 100 / total) {
                progress(before + n, total);
            }
            Ok(())
        })
}

/// The entry check 32 entries at a time, for a file's body whose cells
/// are whole words of entries.
struct Words<'b, 's, 'a> {
    body: &'b [u8],
    search: &'s IndexMoves<'a>,
    per_blank: u64,
    cols: usize,
    goal: u64,
    /// Per cell, how each of its vertical moves is carried.
    plans: Vec<Vec<Plan>>,
}

/// The bit 0 of each entry of a word of entries.
const LOW: u64 = 0x5555_5555_5555_5555;

/// Of two words of 32 entries, a board's and a neighbour's, the entries
/// whose neighbour is one closer (bit 2j set for entry j), and those that
/// break the rules (the board's entry is not a distance mod 3, or the
/// neighbour's is not one more or one less).
#[inline]
fn relations(board: u64, neighbour: u64) -> (u64, u64) {
    let (a0, a1) = (board & LOW, (board >> 1) & LOW);
    let (b0, b1) = (neighbour & LOW, (neighbour >> 1) & LOW);
    let (a_0, a_1, a_2) = (!a1 & !a0 & LOW, !a1 & a0, a1 & !a0);
    let (b_0, b_1, b_2) = (!b1 & !b0 & LOW, !b1 & b0, b1 & !b0);
    let closer = (a_0 & b_2) | (a_1 & b_0) | (a_2 & b_1);
    let farther = (a_0 & b_1) | (a_1 & b_2) | (a_2 & b_0);
    (closer, LOW & !(closer | farther))
}

impl<'b, 's, 'a> Words<'b, 's, 'a> {
    /// The check of `body`, a body of `search`'s index toward the board
    /// at index `goal`.
    fn new(body: &'b [u8], search: &'s IndexMoves<'a>, goal: u64) -> Words<'b, 's, 'a> {
        Words {
            body,
            search,
            per_blank: search.per_blank as u64,
            cols: search.cols,
            goal,
            plans: Plan::for_cells(search, Policy::Fastest),
        }
    }

    /// The `n ≤ 32` entries from entry `index` on, in the low bits.
    #[inline]
    fn entries(&self, index: u64, n: u64) -> u64 {
        let byte = (index / 4) as usize;
        let shift = 2 * (index % 4);
        let bytes: [u8; 16] = match self.body.get(byte..byte + 16) {
            Some(bytes) => bytes.try_into().expect("16 bytes"),
            None => {
                let mut bytes = [0u8; 16];
                let end = (byte + 16).min(self.body.len());
                bytes[..end - byte].copy_from_slice(&self.body[byte..end]);
                bytes
            }
        };
        let all = (u128::from_le_bytes(bytes) >> shift) as u64;
        if n < 32 {
            all & ((1 << (2 * n)) - 1)
        } else {
            all
        }
    }

    /// Entry `index`.
    #[inline]
    fn entry(&self, index: u64) -> u64 {
        (self.body[(index / 4) as usize] >> (2 * (index % 4))) as u64 & 3
    }

    /// Whether every entry of `cell`'s tile orders `first..last` (a
    /// multiple of 64 of them, from a multiple of 64) keeps the rules.
    fn hold(&self, cell: usize, first: u64, last: u64) -> bool {
        let per_blank = self.per_blank;
        let base = cell as u64 * per_blank;
        let mut closer = [0u64; (TASK / 64) as usize];
        let n = last - first;
        // Horizontal moves keep the tile order: word against word.
        let mut beside = [0u64; 2];
        let mut n_beside = 0;
        if !cell.is_multiple_of(self.cols) {
            beside[n_beside] = base - per_blank;
            n_beside += 1;
        }
        if cell % self.cols != self.cols - 1 {
            beside[n_beside] = base + per_blank;
            n_beside += 1;
        }
        for j in 0..n / 32 {
            let h = first + 32 * j;
            let board = self.entries(base + h, 32);
            let mut near = 0;
            // An entry of 3 is no distance.
            let mut bad = board & (board >> 1) & LOW;
            for &other in &beside[..n_beside] {
                let (c, b) = relations(board, self.entries(other + h, 32));
                near |= c;
                bad |= b;
            }
            if bad != 0 {
                return false;
            }
            closer[(j / 2) as usize] |= compact(near) << (32 * (j % 2));
        }
        // Vertical moves: runs against runs, or board by board by table.
        for (v, plan) in self.search.verticals(cell).zip(&self.plans[cell]) {
            let to = v.to as u64 * per_blank;
            let ok = match plan {
                Plan::Runs { run, digit } => {
                    let (run, digit) = (*run, *digit);
                    let mut start = first - first % run;
                    let mut digits = self.search.digits_at(start);
                    let mut ok = true;
                    while start < last && ok {
                        let target =
                            self.search
                                .vertical(start, self.search.with_parity(digits), v);
                        let mut h = start.max(first);
                        let end = (start + run).min(last);
                        while h < end {
                            let k = (end - h).min(32);
                            let board = self.entries(base + h, k);
                            let (c, b) =
                                relations(board, self.entries(to + target + (h - start), k));
                            if b & ((1u128 << (2 * k)) - 1) as u64 != 0 {
                                ok = false;
                                break;
                            }
                            set_bits(&mut closer, h - first, compact(c), k);
                            h += k;
                        }
                        start += run;
                        digits = self.search.advance_digit(digits, digit);
                    }
                    ok
                }
                Plan::Table {
                    span,
                    first: window,
                    targets,
                } => {
                    let span = *span;
                    let mut start = first - first % span;
                    let mut ok = true;
                    while start < last && ok {
                        let table = table_of(targets, self.search, *window, || {
                            self.search.digits_at(start)
                        });
                        for h in start.max(first)..(start + span).min(last) {
                            let board = self.entry(base + h);
                            let target = start + table[(h - start) as usize] as u64;
                            let (c, b) = relations(board, self.entry(to + target));
                            if b & 1 != 0 {
                                ok = false;
                                break;
                            }
                            closer[((h - first) / 64) as usize] |= (c & 1) << ((h - first) % 64);
                        }
                        start += span;
                    }
                    ok
                }
            };
            if !ok {
                return false;
            }
        }
        // Every board but the goal has a neighbour one closer.
        let goal = (self.goal >= base + first && self.goal < base + last)
            .then(|| self.goal - base - first);
        closer[..(n / 64) as usize]
            .iter()
            .enumerate()
            .all(|(w, &bits)| {
                let wanted = match goal {
                    Some(g) if g / 64 == w as u64 => !(1u64 << (g % 64)),
                    _ => u64::MAX,
                };
                bits & wanted == wanted
            })
            && goal.is_none_or(|g| self.entries(base + first + g, 1) == 0)
    }
}

/// Ors the `n ≤ 32` low bits of `bits` into a bitmap from bit `at` on.
#[inline]
fn set_bits(bitmap: &mut [u64], at: u64, bits: u64, n: u64) {
    let bits = if n < 64 { bits & ((1 << n) - 1) } else { bits };
    let (word, shift) = ((at / 64) as usize, at % 64);
    bitmap[word] |= bits << shift;
    if shift + n > 64 {
        bitmap[word + 1] |= bits >> (64 - shift);
    }
}

/// How a neighbour's entry stands to a board's: `Some(true)` one closer,
/// `Some(false)` one farther, `None` neither (a fault).
#[inline]
fn relation(residue: u8, neighbour: u8) -> Option<bool> {
    if neighbour == (residue + 2) % 3 {
        Some(true)
    } else if neighbour == (residue + 1) % 3 {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Shape};
    use crate::table::generate;

    /// The word-at-a-time check passes every range of correct tables (a
    /// range it does not pass is checked again board by board, so the
    /// test above would not see it fail), and fails a range with a changed
    /// entry.
    #[test]
    fn whole_words_of_correct_entries_hold() {
        for (rows, cols, goal) in [
            (3, 3, None),
            (3, 3, Some("1 2 3 / 4 0 5 / 6 7 8")),
            (2, 5, None),
            (5, 2, Some("0 1 / 2 3 / 4 5 / 6 7 / 8 9")),
        ] {
            let shape = Shape::new(rows, cols).unwrap();
            let goal: Board = match goal {
                Some(text) => text.parse().unwrap(),
                None => Board::solved(shape),
            };
            let table = generate(&goal, |_| {}).unwrap();
            let indexer = table.indexer();
            let search = IndexMoves::new(indexer, false);
            let goal_index = indexer.rank(table.indexed_goal()).unwrap().0;
            let words = Words::new(table.body_bytes(), &search, goal_index);
            let per_blank = indexer.per_blank();
            for cell in 0..shape.cells() {
                for first in (0..per_blank).step_by(TASK as usize) {
                    let last = (first + TASK).min(per_blank);
                    assert!(
                        words.hold(cell, first, last),
                        "{shape} {goal} cell {cell} from {first}"
                    );
                }
            }
            let mut body = table.body_bytes().to_vec();
            let i = per_blank + 1000;
            body[(i / 4) as usize] ^= 1 << (2 * (i % 4));
            let changed = Words::new(&body, &search, goal_index);
            let first = 1000 - 1000 % TASK;
            assert!(
                !changed.hold(1, first, (first + TASK).min(per_blank)),
                "{shape}"
            );
        }
    }

    /// Correct tables pass; any changed entry is found, at that entry or
    /// at a neighbour of it (the rules are local: a wrong entry makes its
    /// neighbours' relations wrong too).
    #[test]
    fn a_table_passes_and_each_changed_entry_is_found_near_it() {
        for (rows, cols, goal) in [
            (2, 2, None),
            (2, 3, None),
            (3, 2, Some("1 2 / 3 0 / 4 5")),
            (2, 4, Some("1 2 3 4 / 5 0 6 7")),
            (3, 3, Some("0 1 2 / 3 4 5 / 6 7 8")),
            (2, 5, None),
            (5, 2, Some("1 2 / 3 4 / 5 0 / 6 7 / 8 9")),
        ] {
            let shape = Shape::new(rows, cols).unwrap();
            let goal: Board = match goal {
                Some(text) => text.parse().unwrap(),
                None => Board::solved(shape),
            };
            let table = generate(&goal, |_| {}).unwrap();
            let calls = AtomicU64::new(0);
            check_entries(&table, |done, total| {
                assert!(done <= total);
                calls.fetch_add(1, Relaxed);
            })
            .unwrap_or_else(|f| panic!("{shape}: {f:?}"));
            assert!(calls.into_inner() >= 2, "{shape}: progress is called");

            let indexer = table.indexer();
            let states = indexer.len();
            // A spread of entries, the goal among them, each changed to
            // each other value.
            let goal_index = indexer.rank(table.indexed_goal()).unwrap().0;
            let picks = (0..states)
                .step_by((states / 97).max(1) as usize)
                .chain([goal_index, states - 1]);
            for i in picks {
                let old = table.residue(Index(i));
                for new in (0..4u8).filter(|&r| r != old) {
                    let mut bytes = table.as_bytes().to_vec();
                    let at = bytes.len() - table.body_bytes().len() + (i / 4) as usize;
                    bytes[at] ^= (old ^ new) << (2 * (i % 4));
                    let changed = Table::new(bytes).unwrap();
                    let fault =
                        check_entries(&changed, |_, _| {}).expect_err("a changed entry is found");
                    let board = indexer.unrank(Index(i)).unwrap();
                    let near = fault.index.0 == i || {
                        let at = indexer.unrank(fault.index).unwrap();
                        crate::board::Adjacency::new(indexer.shape())
                            .from(at.blank())
                            .iter()
                            .any(|&(_, t)| at.slide_from(t as usize) == board)
                    };
                    assert!(near, "{shape}: entry {i} {old}->{new}: {fault:?}");
                    assert_eq!(fault.residue, changed.residue(fault.index));
                }
            }
        }
    }
}
