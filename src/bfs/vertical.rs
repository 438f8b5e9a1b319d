//! The vertical moves of a two-bit layer, a block of tile orders at a
//! time.
//!
//! A vertical move rotates a window of `cols` tiles in the tile order,
//! so it changes only the window's Lehmer digits. Two consequences make
//! most of its work whole-word work:
//!
//! - The digits after the window keep their values and weights, so a
//!   run of [`IndexMoves::block`] consecutive tile orders (starting at a
//!   multiple of it) lands on a run of consecutive tile orders: one rank
//!   computation moves the whole run, and its frontier bits move as
//!   bit strings onto the targets' entries (2×7's first column: runs of
//!   360, its second: 60). These are the moves whose targets lie
//!   anywhere in memory, so one visit now serves a run.
//! - The digits before the window keep their values, so a move never
//!   leaves the run of [`IndexMoves::span`] tile orders that share them.
//!   Where that span is small (the last columns, whose runs are single
//!   tile orders), a table maps each position in the span to its
//!   target's, and the targets are gathered in a small bitmap before
//!   they are claimed a word at a time.
//!
//! Claims are atomic `fetch_or`s on whole words of entries: within a
//! layer every claim writes the same value, so the first writer of an
//! entry is the one whose `fetch_or` found it unreached, and it alone
//! counts the board and sets its frontier bit.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::moves::{IndexMoves, Vertical, compact, prefetch, spread, unreached};

/// The largest span a table of targets covers (8 MiB of `u32` a parity):
/// 2×7's fourth column, runs of 3 in spans of 1,814,400, is faster by
/// table than a rank computation every 3 boards.
const MAX_TABLE_SPAN: u64 = 1 << 21;

/// The smallest run worth a rank computation of its own, where a table
/// would also serve.
const MIN_RUN: u64 = 8;

/// Tile orders a task takes at least.
const TASK: u64 = 1 << 16;

/// Runs whose targets are computed and prefetched before any is claimed.
const AHEAD: usize = 8;

/// How one vertical move of a source cell is expanded.
pub(crate) enum Plan {
    /// Runs of `run` tile orders move together, one rank computation a
    /// run; `digit` is the window's last digit, counted up a run at a time.
    Runs { run: u64, digit: usize },
    /// Each tile order's target within its span of `span`, by table:
    /// `targets[q][r]` for a tile order `r` into a span whose digits
    /// before the window have parity `q` (one table when the window
    /// does not see the parity digit).
    Table {
        span: u64,
        first: usize,
        targets: Vec<Vec<u32>>,
    },
}

/// Which plans a search may use: the fastest for each move, or (to test
/// each way on every window) one way wherever it applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Policy {
    Fastest,
    #[cfg(test)]
    Runs,
    #[cfg(test)]
    Tables,
}

impl Plan {
    /// The plans of every cell's vertical moves, as `policy` allows: per
    /// cell, one a move, in the order of [`IndexMoves::verticals`].
    pub(crate) fn for_cells(search: &IndexMoves, policy: Policy) -> Vec<Vec<Plan>> {
        (0..search.cells)
            .map(|cell| {
                search
                    .verticals(cell)
                    .map(|v| Plan::new(search, v, policy))
                    .collect()
            })
            .collect()
    }

    /// The plan for vertical move `v`, as `policy` allows.
    pub(crate) fn new(search: &IndexMoves, v: &Vertical, policy: Policy) -> Plan {
        let (first, last) = search.window_digits(v);
        let run = search.block(v);
        let span = search.span(v);
        let tabled = span <= MAX_TABLE_SPAN;
        let by_runs = match policy {
            Policy::Fastest => run >= MIN_RUN || !tabled,
            #[cfg(test)]
            Policy::Runs => true,
            #[cfg(test)]
            Policy::Tables => !tabled,
        };
        if by_runs {
            // A run of 1 is counted up by the last odometer digit.
            let digit = if run > 1 { last } else { search.cells - 4 };
            return Plan::Runs { run, digit };
        }
        // A span whose digits before the window are 0 (parity 0), and one
        // whose digit `first − 1` is 1 (parity 1).
        let parities = if search.sees_parity(v) && first > 0 {
            2
        } else {
            1
        };
        let targets = (0..parities)
            .map(|q| {
                let base = q as u64 * span;
                let mut digits = search.digits_at(base);
                (0..span)
                    .map(|r| {
                        if r > 0 {
                            digits = search.advance(digits);
                        }
                        let to = search.vertical(base + r, search.with_parity(digits), v);
                        debug_assert!(to >= base && to < base + span, "a move stays in its span");
                        (to - base) as u32
                    })
                    .collect()
            })
            .collect();
        Plan::Table {
            span,
            first,
            targets,
        }
    }
}

/// Frontier words a [`Busy`] bit stands for (4,096 tile orders): fine
/// enough that a layer of a million boards in 2×7's 43.6 G leaves most
/// blocks empty.
pub(crate) const BUSY_WORDS: usize = 1 << 6;

/// A summary of the frontier bitsets: a bit per [`BUSY_WORDS`] words of a
/// cell's bitset, set whenever a bit of those words may be set. The
/// passes skip what it says is empty, so a sparse layer (the first and
/// last few dozen of 2×7) costs its boards, not a scan of every bitset.
pub(crate) struct Busy {
    bits: Vec<AtomicU64>,
    /// Summary bits a cell.
    per_cell: usize,
}

impl Busy {
    /// Nothing busy, for `cells` bitsets of `words` words.
    pub(crate) fn new(cells: usize, words: usize) -> Busy {
        let per_cell = words.div_ceil(BUSY_WORDS);
        Busy {
            bits: (0..(cells * per_cell).div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
            per_cell,
        }
    }

    /// Blocks of [`BUSY_WORDS`] words a cell.
    pub(crate) fn blocks(&self) -> usize {
        self.per_cell
    }

    /// Marks word `word` of `cell`'s bitset as maybe holding bits.
    #[inline]
    pub(crate) fn mark(&self, cell: usize, word: usize) {
        let k = cell * self.per_cell + word / BUSY_WORDS;
        let (at, bit) = (&self.bits[k / 64], 1u64 << (k % 64));
        // Read first: in a dense layer the bit is set, and the line stays
        // shared between cores.
        if at.load(Relaxed) & bit == 0 {
            at.fetch_or(bit, Relaxed);
        }
    }

    /// Whether block `block` of `cell`'s bitset may hold bits.
    #[inline]
    pub(crate) fn is_busy(&self, cell: usize, block: usize) -> bool {
        let k = cell * self.per_cell + block;
        self.bits[k / 64].load(Relaxed) >> (k % 64) & 1 == 1
    }

    /// Whether any of `cell`'s words `words` may hold bits.
    pub(crate) fn any(&self, cell: usize, words: std::ops::Range<usize>) -> bool {
        if words.is_empty() {
            return false;
        }
        (words.start / BUSY_WORDS..=(words.end - 1) / BUSY_WORDS).any(|b| self.is_busy(cell, b))
    }

    /// Forgets block `block` of `cell`'s bitset (its words are all 0).
    #[inline]
    pub(crate) fn unmark(&self, cell: usize, block: usize) {
        let k = cell * self.per_cell + block;
        self.bits[k / 64].fetch_and(!(1u64 << (k % 64)), Relaxed);
    }

    /// Forgets `cell`'s marks (its bitset was cleared).
    pub(crate) fn clear(&self, cell: usize) {
        let (from, to) = (cell * self.per_cell, (cell + 1) * self.per_cell);
        for w in from / 64..to.div_ceil(64) {
            // The bits of this word that are the cell's.
            let lo = (from.max(w * 64) - w * 64) as u32;
            let hi = (to.min(w * 64 + 64) - w * 64) as u32;
            let mine = (u64::MAX >> (64 - (hi - lo))) << lo;
            self.bits[w].fetch_and(!mine, Relaxed);
        }
    }
}

/// Of a [`Plan::Table`]'s `targets`, the table of a span whose window
/// starts at digit `first` and whose first tile order has the odometer
/// value `digits()` (asked for only when the parity of the digits before
/// the window chooses).
#[inline]
pub(crate) fn table_of<'t>(
    targets: &'t [Vec<u32>],
    search: &IndexMoves,
    first: usize,
    digits: impl FnOnce() -> u64,
) -> &'t [u32] {
    match targets {
        [one] => one,
        _ => &targets[search.parity_before(digits(), first) as usize],
    }
}

/// What a vertical pass writes into: the distances, the frontier, and
/// the value this layer stores.
pub(crate) struct Claims<'s> {
    pub(crate) residues: &'s [AtomicU64],
    pub(crate) frontier: &'s [AtomicU64],
    /// Frontier words a cell.
    pub(crate) words: usize,
    pub(crate) per_blank: u64,
    /// `residue ^ 3` of the layer being found.
    pub(crate) stored: u64,
    /// The summary of the frontier.
    pub(crate) busy: &'s Busy,
}

impl Claims<'_> {
    /// Claims, of the 64 entries of `cell` from tile order `h` on, those
    /// whose bit is set in `bits` and which are not reached yet: how many
    /// this call reached first (their frontier bits set). Needs
    /// `per_blank` a multiple of 64.
    #[inline]
    fn claim_run(&self, cell: usize, h: u64, bits: u64) -> u64 {
        let index = cell as u64 * self.per_blank + h;
        let (word, shift) = ((index / 32) as usize, (index % 32) as u32);
        let wide = (bits as u128) << shift;
        let mut found = 0;
        for k in 0..3 {
            let part = (wide >> (32 * k)) as u64 & 0xFFFF_FFFF;
            if part == 0 {
                continue;
            }
            let at = &self.residues[word + k];
            let want = spread(part) & unreached(at.load(Relaxed));
            if want == 0 {
                continue;
            }
            let before = at.fetch_or(want * self.stored, Relaxed);
            let new = want & unreached(before);
            if new == 0 {
                continue;
            }
            found += new.count_ones() as u64;
            // Residue word `word + k` holds tile orders 32 (word + k) − cell
            // × per_blank on, half a frontier word.
            let first = 32 * (word + k) as u64 - cell as u64 * self.per_blank;
            let w = (first / 64) as usize;
            self.frontier[cell * self.words + w].fetch_or(compact(new) << (first % 64), Relaxed);
            self.busy.mark(cell, w);
        }
        found
    }

    /// Prefetches the words [`Claims::claim_run`] reads for the 64
    /// entries of `cell` from `h` on.
    #[inline]
    fn prefetch_run(&self, cell: usize, h: u64) {
        let index = cell as u64 * self.per_blank + h;
        let word = (index / 32) as usize;
        prefetch(&self.residues[word]);
        if let Some(next) = self.residues.get(word + 2) {
            prefetch(next);
        }
        prefetch(&self.frontier[cell * self.words + (h / 64) as usize]);
    }
}

/// The boards a vertical pass moves out of one source cell, a word of 64
/// tile orders at a time: its frontier bitset, or (in the multi-tile
/// metric, where layer d + 1 grows in the same bitsets while layer d is
/// expanded) the bits of the frontier whose entry is layer d's.
pub(crate) trait Sources: Sync {
    /// Bits `64 w .. 64 w + 64` of the source cell.
    fn word(&self, w: usize) -> u64;
}

/// A frontier bitset whose every bit is a source.
pub(crate) struct Bitset<'s>(pub(crate) &'s [AtomicU64]);

impl Sources for Bitset<'_> {
    #[inline]
    fn word(&self, w: usize) -> u64 {
        self.0[w].load(Relaxed)
    }
}

/// The `len ≤ 64` bits of `source` from bit `at` on, in the low bits.
#[inline]
fn bits_at(source: &impl Sources, at: u64, len: u64) -> u64 {
    let (word, shift) = ((at / 64) as usize, at % 64);
    let mut bits = source.word(word) >> shift;
    if shift > 0 && shift + len > 64 {
        bits |= source.word(word + 1) << (64 - shift);
    }
    if len < 64 {
        bits & ((1 << len) - 1)
    } else {
        bits
    }
}

/// The first set bit of `source` in `from..to`.
#[inline]
fn next_bit(source: &impl Sources, from: u64, to: u64) -> Option<u64> {
    if from >= to {
        return None;
    }
    let mut word = (from / 64) as usize;
    let mut bits = source.word(word) & (u64::MAX << (from % 64));
    loop {
        if bits != 0 {
            let at = word as u64 * 64 + bits.trailing_zeros() as u64;
            return (at < to).then_some(at);
        }
        word += 1;
        if word as u64 * 64 >= to {
            return None;
        }
        bits = source.word(word);
    }
}

/// The boards vertical move `v` reaches from source cell `cell`'s
/// `source` boards (`per_blank` tile orders, a multiple of 64), claimed
/// into `v.to`'s entries: how many were new.
pub(crate) fn expand(
    search: &IndexMoves,
    v: &Vertical,
    plan: &Plan,
    cell: usize,
    source: &impl Sources,
    claims: &Claims,
) -> u64 {
    let per_blank = claims.per_blank;
    match plan {
        Plan::Runs { run, digit } => {
            let (run, digit) = (*run, *digit);
            // Tasks of whole runs.
            let per_task = TASK.div_ceil(run).max(1) * run;
            (0..per_blank.div_ceil(per_task))
                .into_par_iter()
                .map(|t| {
                    let (from, to) = (t * per_task, ((t + 1) * per_task).min(per_blank));
                    if !claims
                        .busy
                        .any(cell, (from / 64) as usize..to.div_ceil(64) as usize)
                    {
                        return 0;
                    }
                    runs(search, v, source, claims, (from, to), run, digit)
                })
                .sum()
        }
        Plan::Table {
            span,
            first,
            targets,
        } => {
            let span = *span;
            let spans = per_blank / span;
            let per_task = TASK.div_ceil(span).max(1);
            (0..spans.div_ceil(per_task))
                .into_par_iter()
                .map(|t| {
                    let range = t * per_task..((t + 1) * per_task).min(spans);
                    let words = (range.start * span / 64) as usize
                        ..(range.end * span).div_ceil(64) as usize;
                    if !claims.busy.any(cell, words) {
                        return 0;
                    }
                    tabled(search, v, source, claims, range, span, *first, targets)
                })
                .sum()
        }
    }
}

/// The runs of `run` tile orders starting in `from..to` (multiples of
/// `run`): each run with a frontier bit, moved whole.
fn runs(
    search: &IndexMoves,
    v: &Vertical,
    source: &impl Sources,
    claims: &Claims,
    (from, to): (u64, u64),
    run: u64,
    digit: usize,
) -> u64 {
    let end = claims.per_blank;
    let mut found = 0;
    // The runs found and their targets, claimed AHEAD at a time after
    // their words are prefetched.
    let mut pending = [(0u64, 0u64); AHEAD];
    let mut n = 0;
    let mut at = from;
    // The odometer at run `odometer.0` (digits after the window 0).
    let mut odometer: Option<(u64, u64)> = None;
    while let Some(h) = next_bit(source, at, to) {
        let start = h - h % run;
        let digits = match odometer {
            Some((o, mut d)) if start >= o && start - o <= 4 * run => {
                let mut o = o;
                while o < start {
                    d = search.advance_digit(d, digit);
                    o += run;
                }
                d
            }
            _ => search.digits_at(start),
        };
        odometer = Some((start, digits));
        let target = search.vertical(start, search.with_parity(digits), v);
        claims.prefetch_run(v.to, target);
        pending[n] = (start, target);
        n += 1;
        if n == AHEAD {
            found += move_runs(&pending[..n], source, claims, v.to, run, end);
            n = 0;
        }
        at = start + run;
    }
    found + move_runs(&pending[..n], source, claims, v.to, run, end)
}

/// Moves each run `(start, target)` of `run` source bits onto the target
/// cell's entries from `target` on.
#[inline]
fn move_runs(
    pending: &[(u64, u64)],
    source: &impl Sources,
    claims: &Claims,
    cell: usize,
    run: u64,
    end: u64,
) -> u64 {
    let mut found = 0;
    for &(start, target) in pending {
        let mut offset = 0;
        while offset < run {
            let len = (run - offset).min(64).min(end - start - offset);
            let bits = bits_at(source, start + offset, len);
            if bits != 0 {
                found += claims.claim_run(cell, target + offset, bits);
            }
            offset += 64;
        }
    }
    found
}

/// The spans `spans` (of `span` tile orders each) by table: each span's
/// targets gathered in a bitmap, then claimed a word at a time.
#[allow(clippy::too_many_arguments)]
fn tabled(
    search: &IndexMoves,
    v: &Vertical,
    source: &impl Sources,
    claims: &Claims,
    spans: std::ops::Range<u64>,
    span: u64,
    first: usize,
    targets: &[Vec<u32>],
) -> u64 {
    let mut found = 0;
    let mut gathered = vec![0u64; span.div_ceil(64) as usize];
    // The digits of the span's first tile order (digits from the window
    // on are 0), counted up a span at a time.
    let mut digits = search.digits_at(spans.start * span);
    for s in spans {
        let base = s * span;
        let table = table_of(targets, search, first, || digits);
        let mut any = false;
        let mut at = base;
        while let Some(h) = next_bit(source, at, base + span) {
            // The rest of this word at once.
            let word = source.word((h / 64) as usize) >> (h % 64);
            let upto = (h - h % 64 + 64).min(base + span);
            let mut bits = if upto - h < 64 {
                word & ((1 << (upto - h)) - 1)
            } else {
                word
            };
            while bits != 0 {
                let r = h - base + bits.trailing_zeros() as u64;
                bits &= bits - 1;
                let t = table[r as usize];
                gathered[(t / 64) as usize] |= 1 << (t % 64);
            }
            any = true;
            at = upto;
        }
        if any {
            for (j, word) in gathered.iter_mut().enumerate() {
                if *word != 0 {
                    found += claims.claim_run(v.to, base + 64 * j as u64, *word);
                    *word = 0;
                }
            }
        }
        if first > 0 {
            digits = search.advance_digit(digits, first - 1);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cell's marks are its own: clearing one cell (whose summary bits
    /// share words with its neighbours') leaves the others'.
    #[test]
    fn a_summary_marks_and_clears_one_cell_alone() {
        let words = 100 * BUSY_WORDS + 5;
        let busy = Busy::new(3, words);
        assert_eq!(busy.blocks(), 101);
        for cell in 0..3 {
            busy.mark(cell, 0);
            busy.mark(cell, words - 1);
        }
        busy.clear(1);
        for cell in [0, 2] {
            assert!(busy.is_busy(cell, 0) && busy.is_busy(cell, 100));
            assert!(!busy.is_busy(cell, 50));
            assert!(busy.any(cell, 0..1) && !busy.any(cell, BUSY_WORDS..2 * BUSY_WORDS));
        }
        assert!(!busy.any(1, 0..words));
    }
}
