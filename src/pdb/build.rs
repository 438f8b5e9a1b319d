//! The breadth-first search that fills one group's pattern database.
//!
//! A state is a placement of the group's tiles together with the *region*
//! of the blank: the connected set of free cells (cells without a group
//! tile) it can wander through by moving only the other, unlabelled tiles,
//! which costs nothing. Each remaining edge (a group tile sliding into the
//! blank) costs exactly one move, and the search is a plain layered BFS
//! over these states.
//!
//! State `s = placement_rank << stride_log | slot`, where `slot` is the
//! region's place among the placement's regions in the order of their
//! lowest cells (almost always 0: most placements leave one region), and
//! `1 << stride_log` is the most regions any placement of `k` tiles leaves
//! on the board, rounded up to a power of two (8 for 7 tiles of 5×5, whose
//! placements leave at most 6), so a placement's states never straddle a
//! word. Each state has two bits in one array:
//! `00` unseen, `01` in the layer being expanded, `10` in the next layer,
//! `11` expanded earlier. Expanding a layer only ever turns `00` into `10`,
//! with a relaxed atomic OR, from any thread; between layers an exclusive
//! pass turns `01` into `11` and `10` into `01` and records the placements
//! seen for the first time. For 8 tiles on 16 cells that is 518,918,400
//! placements × 8 states × 2 bits ≈ 1.04 GB, plus 519 MB of distances;
//! for 7 tiles on 25 cells, 2,422,728,000 placements × 8 states × 2 bits
//! ≈ 4.85 GB, plus 2.42 GB of distances.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};

use rayon::prelude::*;

use crate::board::{Board, MAX_CELLS};
use crate::rank::placement_count;

/// The most cells for which the slot of every free-cell mask is tabled
/// (2^16 masks); larger boards flood-fill.
const SLOT_TABLE_CELLS: usize = 16;

/// The low bit of every two-bit state in a word.
const LOW: u64 = 0x5555_5555_5555_5555;

/// Words of the state array handed to a thread at a time (32 KiB).
const CHUNK: usize = 1 << 12;

/// `SELECT[byte][d]`: the position of the d-th (from 0) set bit of `byte`.
const SELECT: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut d) = (0, 0);
        while bit < 8 {
            if byte >> bit & 1 != 0 {
                table[byte][d] = bit as u8;
                d += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The cell of the d-th (from 0) set bit of a mask that has more than
/// `d`: a table look-up in the right byte, instead of a loop clearing `d`
/// bits.
#[inline]
fn select(mask: u32, d: u32) -> u32 {
    let mut d = d;
    let mut base = 0;
    let mut rest = mask;
    loop {
        let low = (rest & 0xFF).count_ones();
        if d < low {
            return base + SELECT[(rest & 0xFF) as usize][d as usize] as u32;
        }
        d -= low;
        rest >>= 8;
        base += 8;
    }
}

/// The distances of one group: entry `placement_rank(cells, n)` (the
/// group's tiles' cells, in ascending tile order) is the fewest moves of
/// the group's tiles that bring them home, with the blank anywhere.
/// `tiles` is ascending, without the blank, at most 8 tiles (checked by
/// [`super::Partition`]). `progress(depth, placements)` is called once per
/// depth, in order, with the placements first reached at that depth (for
/// display only).
pub(crate) fn group_distances(
    goal: &Board,
    tiles: &[u8],
    progress: &mut dyn FnMut(u32, u64),
) -> Vec<u8> {
    group_search(goal, tiles, progress, false).0
}

/// The blank-aware entries of one group (see [`super::aware`]): two bits
/// for each placement and free cell, the fewest moves of the group's tiles
/// that bring them home with the blank in that cell, modulo 3; and
/// `layers[d]`, how many of those entries are `d` moves away. The search is
/// [`group_distances`]'s, keeping a byte of distance for each state (a
/// placement and region): `2^⌈log2(r)⌉` bytes a placement more (8 for 6
/// tiles of 5×5: 1.02 GB), and the entries, `(n − k) / 4` bytes a
/// placement (606 MB).
pub(crate) fn blank_aware_entries(
    goal: &Board,
    tiles: &[u8],
    progress: &mut dyn FnMut(u32, u64),
) -> (Vec<u8>, Vec<u64>) {
    let (_, state_distance) = group_search(goal, tiles, progress, true);
    let space = Space::new(goal, tiles);
    let count = placement_count(space.n, space.k) as usize;
    let free = space.n - space.k;
    let mut entries = vec![0u8; (count * free).div_ceil(4)];
    // Placements a task: a multiple of 4, so that a task's entries fill
    // whole bytes.
    const SPAN: usize = 1 << 12;
    let layers = entries
        .par_chunks_mut(SPAN * free / 4)
        .enumerate()
        .map(|(chunk, bytes)| {
            let mut layers = vec![0u64; 256];
            let mut p = Placement::default();
            let first = chunk * SPAN;
            for i in 0..SPAN.min(count - first) {
                space.unrank(first + i, &mut p);
                // Each free cell's region: its slot, in order of lowest
                // cells, as the search numbers them.
                let mut slot_of = [0u8; MAX_CELLS];
                let (mut left, mut slot) = (p.free, 0u8);
                while left != 0 {
                    let region = space.region(left & left.wrapping_neg(), p.free);
                    left &= !region;
                    let mut r = region;
                    while r != 0 {
                        slot_of[r.trailing_zeros() as usize] = slot;
                        r &= r - 1;
                    }
                    slot += 1;
                }
                let (mut rest, mut j) = (p.free, i * free);
                while rest != 0 {
                    let cell = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let d =
                        state_distance[(first + i) << space.stride_log | slot_of[cell] as usize];
                    // (A state no move reaches, as when the group holds
                    // every tile and parity splits its placements, keeps
                    // `u8::MAX`, as a plain entry does.)
                    layers[d as usize] += 1;
                    bytes[j / 4] |= (d % 3) << (2 * (j % 4));
                    j += 1;
                }
            }
            layers
        })
        .reduce(
            || vec![0u64; 256],
            |mut a, b| {
                a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                a
            },
        );
    let last = layers.iter().rposition(|&c| c > 0).unwrap_or(0);
    (entries, layers[..=last].to_vec())
}

/// The layered search of [`group_distances`]: each placement's distance,
/// and, if `keep_states`, each state's (`u8::MAX` where none is).
fn group_search(
    goal: &Board,
    tiles: &[u8],
    progress: &mut dyn FnMut(u32, u64),
    keep_states: bool,
) -> (Vec<u8>, Vec<u8>) {
    let space = Space::new(goal, tiles);
    let count = placement_count(space.n, space.k) as usize;
    // Placements per word: 32 states a word, 1 << stride_log a placement.
    let per_word = 32 >> space.stride_log;
    let words = count.div_ceil(per_word);
    let mut states: Vec<AtomicU64> = (0..words)
        .into_par_iter()
        .map(|_| AtomicU64::new(0))
        .collect();
    let mut distance = vec![u8::MAX; count];
    let mut state_distance = if keep_states {
        vec![u8::MAX; words * 32]
    } else {
        Vec::new()
    };

    let mut home = [0u8; 8];
    for (h, &t) in home.iter_mut().zip(tiles) {
        *h = (0..space.n)
            .find(|&c| goal.tile(c) == t)
            .expect("the goal has every tile") as u8;
    }
    let occupied = home[..space.k].iter().fold(0u32, |m, &c| m | 1 << c);
    let start_rank = space.rank(&home);
    let start = start_rank << space.stride_log
        | space.slot(space.full & !occupied, goal.blank() as u32) as usize;
    *states[start / 32].get_mut() |= 1 << (2 * (start % 32));
    distance[start_rank] = 0;
    if keep_states {
        state_distance[start] = 0;
    }
    // Per chunk of the state array: whether it holds states of the layer
    // (`01`), and whether the expansion marked any of its states (`10`).
    // Chunks with neither are skipped by both passes, which spares most of
    // the scanning in the first and last layers.
    let chunks = words.div_ceil(CHUNK);
    let mut active = vec![false; chunks];
    active[start / 32 / CHUNK] = true;
    let mut touched: Vec<AtomicBool> = (0..chunks).map(|_| AtomicBool::new(false)).collect();

    let mut depth = 0u32;
    let mut reached = 1u64;
    loop {
        progress(depth, reached);
        // Expand the layer: `01` states, marking unseen successors `10`.
        let marks = Marks {
            states: &states,
            touched: &touched,
        };
        states
            .par_chunks(CHUNK)
            .zip(&active)
            .enumerate()
            .filter(|(_, (_, active))| **active)
            .for_each(|(c, (chunk, _))| space.expand_chunk(c * CHUNK, chunk, &marks));
        // Every placement first reached now gets this distance: BFS visits
        // states in order of depth, so the first state of a placement to be
        // reached is one of its nearest, whichever blank region it has.
        let next = u8::try_from(depth + 1)
            .ok()
            .filter(|&d| d != u8::MAX)
            .expect("pattern distances fit a byte");
        // Each chunk's states' distances, if kept (else empty slices).
        let mut kept: Vec<&mut [u8]> = if keep_states {
            state_distance.chunks_mut(CHUNK * 32).collect()
        } else {
            (0..chunks).map(|_| &mut [][..]).collect()
        };
        let (new_states, new_placements) = states
            .par_chunks_mut(CHUNK)
            .zip(distance.par_chunks_mut(CHUNK * per_word))
            .zip(active.par_iter_mut().zip(&mut touched))
            .zip(kept.par_iter_mut())
            .map(|(((s, d), (active, touched)), kept)| {
                if !*active && !*touched.get_mut() {
                    return (0, 0);
                }
                let (states, placements) = advance(s, d, kept, space.stride_log, next);
                *active = states != 0;
                *touched.get_mut() = false;
                (states, placements)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        drop(kept);
        if new_states == 0 {
            return (distance, state_distance);
        }
        depth += 1;
        reached = new_placements;
    }
}

/// The bytes [`group_distances`] holds for `tiles` toward `goal`: the
/// state array (two bits a state, `2^⌈log2(r)⌉` states a placement, where
/// `r` is the most regions a placement leaves) and a byte of distance a
/// placement. 7.27 GB for 7 tiles of 5×5.
pub(crate) fn search_bytes(goal: &Board, tiles: &[u8]) -> u64 {
    let space = Space::new(goal, tiles);
    let count = placement_count(space.n, space.k);
    let per_word = 32u64 >> space.stride_log;
    count.div_ceil(per_word) * 8 + count
}

/// The distances of group `tiles` derived from those of group `from`
/// (`entries`) by a symmetry of the board: `rename(t)` is the tile of
/// `from` that tile `t` of `tiles` becomes and `cell(c)` the cell cell `c`
/// becomes when the board is turned by a symmetry that keeps `goal` in
/// place (tiles renamed). A turned board is as far from the goal as the
/// board, so a placement's entry is the entry of its turned placement:
/// the same numbers the search finds, with no search.
pub(crate) fn mirrored_distances(
    goal: &Board,
    tiles: &[u8],
    from: &[u8],
    entries: &[u8],
    rename: impl Fn(u8) -> u8 + Sync,
    cell: impl Fn(u8) -> u8 + Sync,
) -> Vec<u8> {
    let space = Space::new(goal, tiles);
    let count = placement_count(space.n, space.k) as usize;
    assert_eq!(
        entries.len(),
        count,
        "{from:?} has as many tiles as {tiles:?}"
    );
    // Each tile of `tiles` lands in slot `slot[i]` of `from`'s placement.
    let slot: Vec<usize> = tiles
        .iter()
        .map(|&t| {
            from.iter()
                .position(|&f| f == rename(t))
                .expect("the groups are each other's images")
        })
        .collect();
    let cells: Vec<u8> = (0..space.n as u8).map(&cell).collect();
    let mut distance = vec![0u8; count];
    const SPAN: usize = 1 << 16;
    distance
        .par_chunks_mut(SPAN)
        .enumerate()
        .for_each(|(chunk, out)| {
            let mut p = Placement::default();
            let mut turned = [0u8; 8];
            for (i, d) in out.iter_mut().enumerate() {
                space.unrank(chunk * SPAN + i, &mut p);
                for (j, &s) in slot.iter().enumerate() {
                    turned[s] = cells[p.cells[j] as usize];
                }
                *d = entries[space.rank(&turned)];
            }
        });
    distance
}

/// Where an expansion marks the states it reaches.
struct Marks<'a> {
    /// The state array.
    states: &'a [AtomicU64],
    /// Per chunk of it: whether a state in it has been marked.
    touched: &'a [AtomicBool],
}

impl Marks<'_> {
    /// Puts state `s` in the next layer unless it has been seen.
    #[inline]
    fn mark(&self, s: usize) {
        let (word, shift) = (&self.states[s / 32], 2 * (s % 32));
        // Reading first skips the locked write for states already seen,
        // most of them late in the search.
        if word.load(Relaxed) >> shift & 3 == 0 {
            word.fetch_or(2 << shift, Relaxed);
            let touched = &self.touched[s / 32 / CHUNK];
            if !touched.load(Relaxed) {
                touched.store(true, Relaxed);
            }
        }
    }
}

/// Ends a layer on one chunk of the state array: `01` (expanded) becomes
/// `11`, `10` (just reached) becomes `01`, and each placement reached for
/// the first time gets distance `depth`, as does each state just reached
/// in `state_distance` if it is not empty (one byte a state of the chunk).
/// Returns the states and the placements just reached.
fn advance(
    states: &mut [AtomicU64],
    distance: &mut [u8],
    state_distance: &mut [u8],
    stride_log: u32,
    depth: u8,
) -> (u64, u64) {
    let per_word = 32 >> stride_log;
    // The two-bit fields of one placement's states.
    let group = u64::MAX >> (64 - (2 << stride_log));
    let (mut new_states, mut new_placements) = (0u64, 0u64);
    for (w, word) in states.iter_mut().enumerate() {
        let x = word.get_mut();
        if *x == 0 {
            continue;
        }
        let lo = *x & LOW;
        let hi = (*x >> 1) & LOW;
        let mut fresh = hi & !lo; // `10`, at the low bit of the field
        if fresh == 0 && lo & !hi == 0 {
            continue; // nothing to change: leave the cache line clean
        }
        // 01 → 11, 10 → 01, 11 → 11: low bit = lo | hi, high bit = lo.
        *x = lo | hi | lo << 1;
        new_states += fresh.count_ones() as u64;
        if !state_distance.is_empty() {
            let mut reached = fresh;
            while reached != 0 {
                state_distance[w * 32 + reached.trailing_zeros() as usize / 2] = depth;
                reached &= reached - 1;
            }
        }
        while fresh != 0 {
            let j = fresh.trailing_zeros() as usize >> (stride_log + 1);
            fresh &= !(group << (j << (stride_log + 1)));
            let d = &mut distance[w * per_word + j];
            if *d == u8::MAX {
                *d = depth;
                new_placements += 1;
            }
        }
    }
    (new_states, new_placements)
}

/// The board geometry and the group's size, with the tables the search
/// uses on every state.
struct Space {
    /// Cells.
    n: usize,
    /// Tiles in the group.
    k: usize,
    /// Columns: the shift between rows in a cell mask.
    cols: u32,
    /// Every cell.
    full: u32,
    /// The cells not in the first column (where a step right can land).
    not_first: u32,
    /// The cells not in the last column (where a step left can land).
    not_last: u32,
    /// The cells next to each cell.
    neighbours: [u32; MAX_CELLS],
    /// Placement-rank weight of each digit: `(n − i − 1)! / (n − k)!`.
    weight: [usize; 8],
    /// `⌈2^40 / (n − i)⌉`, to divide by digit i's radix.
    reciprocal: [u64; 8],
    /// log2 of the states per placement.
    stride_log: u32,
    /// On boards of at most [`SLOT_TABLE_CELLS`] cells, for each mask of
    /// `n − k` free cells: four bits per cell, the slot (the place of its
    /// region among the mask's, by lowest cell) of each free cell; entries
    /// for other masks are unused. Empty on larger boards, whose slots are
    /// found by flood fills.
    slots: Vec<u64>,
}

impl Space {
    fn new(goal: &Board, tiles: &[u8]) -> Space {
        let shape = goal.shape();
        let (n, k, cols) = (shape.cells(), tiles.len(), shape.cols());
        assert!((1..=8).contains(&k) && k < n && n <= MAX_CELLS);
        // The reciprocals divide exactly below 2^40 / 25 (see `unrank`);
        // ranks are u32 where the databases are read.
        assert!(placement_count(n, k) <= super::MAX_SEARCH_ENTRIES);
        let full = (1u32 << n) - 1;
        let column = |pick: usize| (0..n).filter(move |c| c % cols == pick);
        let not_first = column(0).fold(full, |m, c| m & !(1 << c));
        let not_last = column(cols - 1).fold(full, |m, c| m & !(1 << c));
        let mut neighbours = [0u32; MAX_CELLS];
        for (c, m) in neighbours.iter_mut().enumerate().take(n) {
            let bit = 1u32 << c;
            *m =
                ((bit << 1) & not_first | (bit >> 1) & not_last | bit << cols | bit >> cols) & full;
        }
        let mut weight = [0usize; 8];
        let mut w = 1usize;
        for i in (0..k).rev() {
            weight[i] = w;
            w *= n - i;
        }
        let mut space = Space {
            n,
            k,
            cols: cols as u32,
            full,
            not_first,
            not_last,
            neighbours,
            weight,
            reciprocal: std::array::from_fn(|i| {
                (1u64 << 40).div_ceil(n.saturating_sub(i).max(1) as u64)
            }),
            stride_log: 0,
            slots: if n <= SLOT_TABLE_CELLS {
                vec![0; 1 << n]
            } else {
                Vec::new()
            },
        };
        space.stride_log = space.most_regions().next_power_of_two().trailing_zeros();
        let mut slots = std::mem::take(&mut space.slots);
        // (Empty past SLOT_TABLE_CELLS: nothing to fill.)
        for (free, entry) in slots.iter_mut().enumerate() {
            let free = free as u32;
            if free.count_ones() as usize != n - k {
                continue;
            }
            // The regions come out in the order of their lowest cells.
            let mut rest = free;
            let mut slot = 0u64;
            while rest != 0 {
                let region = space.region(rest & rest.wrapping_neg(), free);
                rest &= !region;
                let mut r = region;
                while r != 0 {
                    *entry |= slot << (4 * r.trailing_zeros());
                    r &= r - 1;
                }
                slot += 1;
            }
        }
        space.slots = slots;
        space
    }

    /// The most regions the free cells of any placement of `k` tiles
    /// fall into: every set of `k` cells tried (at most 25 choose 8,
    /// about a million, in milliseconds).
    fn most_regions(&self) -> usize {
        let mut most = 1;
        // Gosper's hack: every mask of n bits with k set, in order.
        let mut taken: u32 = (1 << self.k) - 1;
        while taken <= self.full {
            let mut rest = self.full & !taken;
            let mut regions = 0;
            while rest != 0 {
                rest &= !self.region(rest & rest.wrapping_neg(), self.full & !taken);
                regions += 1;
            }
            most = most.max(regions);
            let low = taken & taken.wrapping_neg();
            let ripple = taken + low;
            taken = (((ripple ^ taken) >> 2) / low) | ripple;
        }
        most
    }

    /// The connected cells of `free` reachable from `seed` (a subset of
    /// it): a bit-parallel flood fill, one step in all four directions at
    /// a time.
    #[inline]
    fn region(&self, seed: u32, free: u32) -> u32 {
        let mut r = seed;
        loop {
            let grown = (r
                | (r << 1) & self.not_first
                | (r >> 1) & self.not_last
                | r << self.cols
                | r >> self.cols)
                & free;
            if grown == r {
                return r;
            }
            r = grown;
        }
    }

    /// The slot of the region holding `cell` when `free` is free: how
    /// many of `free`'s regions have a lower lowest cell than its.
    #[inline]
    fn slot(&self, free: u32, cell: u32) -> u32 {
        if self.n <= SLOT_TABLE_CELLS {
            return (self.slots[free as usize] >> (4 * cell)) as u32 & 15;
        }
        // With no free cell below `cell`, its region holds the lowest free
        // cell: slot 0 (the usual case, seen without a flood fill).
        if free & ((1 << cell) - 1) == 0 {
            return 0;
        }
        let region = self.region(1 << cell, free);
        // Each region with a lower lowest cell has a cell below this one's.
        let mut below = free & ((region & region.wrapping_neg()) - 1);
        let mut slot = 0;
        while below != 0 {
            below &= !self.region(below & below.wrapping_neg(), free);
            slot += 1;
        }
        slot
    }

    /// The region of slot `slot` when `free` is free ([`slot`](Space::slot)
    /// inverted).
    #[inline]
    fn region_of_slot(&self, free: u32, slot: u32) -> u32 {
        let mut rest = free;
        for _ in 0..slot {
            rest &= !self.region(rest & rest.wrapping_neg(), free);
        }
        self.region(rest & rest.wrapping_neg(), free)
    }

    /// The placement rank of `cells` (see [`crate::rank::placement_rank`]),
    /// with the digits' weights precomputed so the products are independent.
    #[inline]
    fn rank(&self, cells: &[u8; 8]) -> usize {
        let mut used = 0u32;
        let mut r = 0usize;
        for (&c, &weight) in cells.iter().zip(&self.weight).take(self.k) {
            let digit = c as u32 - (used & ((1 << c) - 1)).count_ones();
            r += digit as usize * weight;
            used |= 1 << c;
        }
        r
    }

    /// Unpacks placement `rank` into `p`. The digits come out by
    /// multiplying with reciprocals, not dividing: `⌈2^40 / d⌉` is `2^40/d`
    /// plus less than 1, so the product errs by less than `rank / 2^40`
    /// of 1, which leaves the quotient exact while `rank` < 2^40 / 25
    /// ([`super::MAX_SEARCH_ENTRIES`] is below that); the product is taken
    /// in 128 bits.
    #[inline]
    fn unrank(&self, rank: usize, p: &mut Placement) {
        debug_assert!((rank as u64) < (1 << 40) / 25);
        let mut digits = [0u32; 8];
        let mut rest = rank as u64;
        for i in (0..self.k).rev() {
            let quotient = ((rest as u128 * self.reciprocal[i] as u128) >> 40) as u64;
            digits[i] = (rest - quotient * (self.n - i) as u64) as u32;
            rest = quotient;
        }
        let mut used = 0u32;
        let mut prefix = 0usize;
        for (i, &digit) in digits.iter().enumerate().take(self.k) {
            // The digit-th cell not used yet.
            let c = select(self.full & !used, digit);
            p.cells[i] = c as u8;
            p.used[i] = used;
            p.prefix[i] = prefix;
            prefix += digit as usize * self.weight[i];
            used |= 1 << c;
        }
        p.prefix[self.k] = prefix;
        p.free = self.full & !used;
        p.rank = rank;
    }

    /// Expands the layer's states among `chunk` (which starts at word
    /// `first` of `states`).
    fn expand_chunk(&self, first: usize, chunk: &[AtomicU64], marks: &Marks) {
        let mut p = Placement {
            rank: usize::MAX,
            ..Placement::default()
        };
        for (i, word) in chunk.iter().enumerate() {
            let x = word.load(Relaxed);
            // `01` fields. Other threads only turn `00` into `10` meanwhile,
            // which leaves these alone.
            let mut current = x & !(x >> 1) & LOW;
            while current != 0 {
                let s = (first + i) * 32 + (current.trailing_zeros() / 2) as usize;
                current &= current - 1;
                // A placement's states are adjacent: unrank it once.
                if s >> self.stride_log != p.rank {
                    self.unrank(s >> self.stride_log, &mut p);
                }
                let slot = s & ((1 << self.stride_log) - 1);
                self.expand(&p, slot as u32, marks);
            }
        }
    }

    /// Marks the unseen successors of one state: each group tile next to
    /// the blank's region slides into each region cell beside it.
    #[inline]
    fn expand(&self, p: &Placement, slot: u32, marks: &Marks) {
        let region = self.region_of_slot(p.free, slot);
        for i in 0..self.k {
            let t = p.cells[i] as u32;
            let mut into = self.neighbours[t as usize] & region;
            if into == 0 {
                continue;
            }
            // Tile i moves from t to b. Digits before i stay; digit i is
            // recomputed; each later digit j counts the earlier cells below
            // cells[j], so it gains one if t was below and loses one if b
            // is: the change is later(t) − later(b), where later(x) weighs
            // the later tiles above x.
            // (A fixed eight terms, branch-free: weights past k are 0.)
            let later = |x: u32| {
                (0..8).fold(0usize, |sum, j| {
                    let counts = j > i && p.cells[j] as u32 > x;
                    sum + (self.weight[j] & (counts as usize).wrapping_neg())
                })
            };
            let base = p.prefix[i]
                .wrapping_add(p.rank - p.prefix[i + 1])
                .wrapping_add(later(t));
            while into != 0 {
                let b = into.trailing_zeros();
                into &= into - 1;
                let digit = b - (p.used[i] & ((1 << b) - 1)).count_ones();
                let rank = base
                    .wrapping_add(digit as usize * self.weight[i])
                    .wrapping_sub(later(b));
                // The blank ends up in t, now free, and b is taken.
                let after = p.free ^ (1 << t) ^ (1 << b);
                marks.mark(rank << self.stride_log | self.slot(after, t) as usize);
            }
        }
    }
}

/// One placement, unpacked for expanding its states.
#[derive(Default)]
struct Placement {
    /// Its rank.
    rank: usize,
    /// The cell of each tile.
    cells: [u8; 8],
    /// The cells not holding a group tile.
    free: u32,
    /// `used[i]`: the cells of tiles before i.
    used: [u32; 8],
    /// `prefix[i]`: the rank's first i digits times their weights.
    prefix: [usize; 9],
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use super::*;
    use crate::board::{Adjacency, Shape};
    use crate::rank::placement_rank;

    /// The original builder, kept as the oracle: a 0-1 BFS over (placement,
    /// blank cell) with queues.
    fn reference_distances(
        goal: &Board,
        tiles: &[u8],
        progress: &mut dyn FnMut(u32, u64),
    ) -> Vec<u8> {
        reference_search(goal, tiles, progress).0
    }

    /// The oracle's placements' distances, and each state's: entry
    /// `rank × n + blank` (`u8::MAX` where none is reached).
    fn reference_search(
        goal: &Board,
        tiles: &[u8],
        progress: &mut dyn FnMut(u32, u64),
    ) -> (Vec<u8>, Vec<u8>) {
        let shape = goal.shape();
        let n = shape.cells();
        let k = tiles.len();
        let adjacency = Adjacency::new(shape);
        let count = placement_count(n, k) as usize;
        let mut distance = vec![u8::MAX; count];
        // Visited (placement, blank) pairs, one bit each, and their
        // distances.
        let mut seen = vec![0u64; (count * n).div_ceil(64)];
        let mut states = vec![u8::MAX; count * n];
        let home: Vec<u8> = tiles
            .iter()
            .map(|&t| {
                (0..n)
                    .find(|&c| goal.tile(c) == t)
                    .expect("the goal has every tile") as u8
            })
            .collect();
        let mut start = [0u8; 8];
        start[..k].copy_from_slice(&home);
        let mut layer: VecDeque<([u8; 8], u8)> = VecDeque::from([(start, goal.blank() as u8)]);
        let mut next: Vec<([u8; 8], u8)> = Vec::new();
        let mut depth = 0u8;
        while !layer.is_empty() {
            let mut reached = 0u64;
            // Within a layer, moving another tile costs nothing: those states
            // join this layer; moving a group tile starts the next.
            while let Some((cells, blank)) = layer.pop_front() {
                let r = placement_rank(&cells[..k], n) as usize;
                let bit = r * n + blank as usize;
                if seen[bit / 64] >> (bit % 64) & 1 != 0 {
                    continue;
                }
                seen[bit / 64] |= 1 << (bit % 64);
                states[bit] = depth;
                if distance[r] == u8::MAX {
                    distance[r] = depth;
                    reached += 1;
                }
                for &(_, to) in adjacency.from(blank as usize) {
                    match cells[..k].iter().position(|&c| c == to) {
                        None => layer.push_back((cells, to)),
                        Some(i) => {
                            let mut moved = cells;
                            moved[i] = blank;
                            next.push((moved, to));
                        }
                    }
                }
            }
            progress(depth as u32, reached);
            depth = depth.checked_add(1).expect("pattern distances fit a byte");
            layer.extend(next.drain(..));
        }
        (distance, states)
    }

    /// The blank-aware entries and layer counts agree with the oracle's
    /// states, and walking down from every state finds its distance.
    fn check_blank_aware(goal: &Board, tiles: &[u8]) {
        let (_, states) = reference_search(goal, tiles, &mut |_, _| {});
        let (entries, layers) = blank_aware_entries(goal, tiles, &mut |_, _| {});
        let shape = goal.shape();
        let (n, k) = (shape.cells(), tiles.len());
        let count = placement_count(n, k) as usize;
        assert_eq!(
            entries.len(),
            (count * (n - k)).div_ceil(4),
            "{goal} {tiles:?}"
        );
        let space = Space::new(goal, tiles);
        let neighbours = crate::pdb::neighbour_masks(shape);
        let mut home = [0u8; 8];
        for (c, &t) in home.iter_mut().zip(tiles) {
            *c = (0..n).find(|&c| goal.tile(c) == t).unwrap() as u8;
        }
        let group = crate::pdb::aware::Group {
            entries: &entries,
            n,
            neighbours: &neighbours[..n],
            home: &home[..k],
            goal_blank: goal.blank() as u32,
        };
        let mut counted = vec![0u64; 256];
        let mut p = Placement::default();
        for rank in 0..count {
            space.unrank(rank, &mut p);
            let used = space.full & !p.free;
            for blank in (0..n as u32).filter(|b| p.free >> b & 1 != 0) {
                let d = states[rank * n + blank as usize];
                counted[d as usize] += 1;
                let index = rank * (n - k) + crate::pdb::aware::free_index(used, blank);
                let code = crate::pdb::aware::code(&entries, index);
                assert_eq!(
                    code,
                    d % 3,
                    "{goal} {tiles:?}: {:?} blank {blank}",
                    &p.cells[..k]
                );
                if d != u8::MAX {
                    let walked = crate::pdb::aware::distance(&group, &p.cells[..k], blank);
                    assert_eq!(
                        walked,
                        Some(d),
                        "{goal} {tiles:?}: {:?} blank {blank}",
                        &p.cells[..k]
                    );
                }
            }
        }
        let last = counted.iter().rposition(|&c| c > 0).unwrap();
        assert_eq!(layers, counted[..=last], "{goal} {tiles:?}");
        // Past the last entry, the bits of the last byte are 0.
        let bits = count * (n - k) * 2 % 8;
        if bits > 0 {
            assert_eq!(entries.last().unwrap() >> bits, 0, "{goal} {tiles:?}");
        }
    }

    #[test]
    fn blank_aware_entries_match_the_reference() {
        for text in [
            "1 2 3 4 5 6 7 8 0",
            "1 0 2 3 4 5 6 7 8",
            "8 6 7 2 5 4 3 0 1",
        ] {
            let goal = board(3, 3, text);
            for tiles in [&[1][..], &[1, 2], &[2, 5, 7], &[1, 2, 3, 4], &[5, 6, 7, 8]] {
                check_blank_aware(&goal, tiles);
            }
        }
        // Eight tiles: one free cell, parity leaves half the placements.
        check_blank_aware(&board(3, 3, "1 2 3 4 0 5 6 7 8"), &[1, 2, 3, 4, 5, 6, 7, 8]);
        check_blank_aware(&board(2, 2, "1 2 3 0"), &[1, 3]);
        check_blank_aware(&board(2, 4, "1 2 3 4 5 6 7 0"), &[1, 2, 3, 4, 5]);
        check_blank_aware(&board(3, 4, "0 1 2 3 4 5 6 7 8 9 10 11"), &[1, 2, 5, 6, 9]);
        check_blank_aware(
            &board(4, 4, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"),
            &[3, 13, 14],
        );
        // Past 16 cells; a corner walled off by two tiles.
        let cells = (1..25).map(|t| t.to_string()).collect::<Vec<_>>().join(" ") + " 0";
        check_blank_aware(&board(5, 5, &cells), &[19, 23]);
        check_blank_aware(&board(5, 5, &cells), &[7, 13, 19]);
    }

    fn board(rows: usize, cols: usize, text: &str) -> Board {
        Board::parse(text, Some(Shape::new(rows, cols).unwrap())).unwrap()
    }

    /// The fast search and the oracle agree on every entry and on every
    /// progress report but the oracle's last: it expands one more layer,
    /// of states all seen before, and reports it with 0 placements.
    fn check(goal: &Board, tiles: &[u8]) {
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        let got = group_distances(goal, tiles, &mut |d, p| fast.push((d, p)));
        let want = reference_distances(goal, tiles, &mut |d, p| slow.push((d, p)));
        assert!(got == want, "{goal} {tiles:?}: distances differ");
        assert_eq!(slow.pop(), Some((fast.len() as u32, 0)), "{goal} {tiles:?}");
        assert_eq!(fast, slow, "{goal} {tiles:?}: progress differs");
        // Every placement is reachable, but where the tiles fill all cells
        // but the blank (parity) or ride one 2×2 cycle (their cyclic order).
        let n = goal.shape().cells();
        if tiles.len() + 1 < n && n > 4 {
            assert!(got.iter().all(|&d| d != u8::MAX), "{goal} {tiles:?}");
        }
    }

    /// The search's own ranking and unranking agree with `crate::rank`.
    #[test]
    fn select_finds_each_set_bit() {
        // Every mask of 16 bits, and a spread of masks of 25 (5x5).
        let wide = (0..1u32 << 16).map(|m| m.wrapping_mul(0x9E37_79B9) & ((1 << 25) - 1));
        for mask in (0..1u32 << 16).chain(wide) {
            let mut rest = mask;
            for d in 0..mask.count_ones() {
                assert_eq!(select(mask, d), rest.trailing_zeros(), "{mask:#x} {d}");
                rest &= rest - 1;
            }
        }
    }

    #[test]
    fn ranks_agree_with_the_rank_module() {
        for (rows, cols, k) in [
            (2, 2, 1),
            (3, 3, 4),
            (3, 4, 6),
            (4, 4, 3),
            (4, 4, 8),
            (5, 5, 6),
        ] {
            let goal = Board::solved(Shape::new(rows, cols).unwrap());
            let tiles: Vec<u8> = (1..=k as u8).collect();
            let space = Space::new(&goal, &tiles);
            let n = rows * cols;
            let count = placement_count(n, k) as usize;
            let step = count / 100_000 + 1;
            let mut p = Placement::default();
            let mut cells = [0u8; 8];
            for r in (0..count).step_by(step).chain([count - 1]) {
                space.unrank(r, &mut p);
                crate::rank::placement_unrank(r as u64, n, &mut cells[..k]);
                assert_eq!(p.cells, cells, "{n} {k} {r}");
                assert_eq!(p.prefix[k], r);
                assert_eq!(space.rank(&cells), r);
            }
        }
    }

    #[test]
    fn matches_the_reference_on_three_by_three() {
        for text in [
            "1 2 3 4 5 6 7 8 0", // blank in a corner
            "1 0 2 3 4 5 6 7 8", // on an edge
            "1 2 3 4 0 5 6 7 8", // in the middle
            "8 6 7 2 5 4 3 0 1", // tiles shuffled
        ] {
            let goal = board(3, 3, text);
            for tiles in [
                &[1][..],
                &[5],
                &[1, 2],
                &[3, 8],
                &[2, 5, 7],
                &[1, 2, 3, 4],
                &[5, 6, 7, 8],
            ] {
                check(&goal, tiles);
            }
        }
        // Eight tiles: one free cell, one state per placement.
        check(&board(3, 3, "1 2 3 4 0 5 6 7 8"), &[1, 2, 3, 4, 5, 6, 7, 8]);
    }

    #[test]
    fn matches_the_reference_on_small_rectangles() {
        check(&board(2, 2, "1 2 3 0"), &[1]);
        check(&board(2, 2, "1 2 3 0"), &[1, 3]);
        check(&board(2, 2, "0 2 3 1"), &[1, 2, 3]);
        check(&board(2, 3, "1 2 3 4 5 0"), &[1, 2, 3]);
        check(&board(3, 2, "1 0 2 3 4 5"), &[2, 4]);
        for text in ["1 2 3 4 5 6 7 0", "1 2 0 3 4 5 6 7"] {
            let goal = board(2, 4, text);
            check(&goal, &[1, 2, 3]);
            check(&goal, &[4, 5, 6, 7]);
            check(&goal, &[1, 2, 3, 4, 5]);
        }
        check(&board(4, 2, "1 2 3 4 0 5 6 7"), &[1, 3, 5, 7]);
    }

    #[test]
    fn matches_the_reference_on_three_by_four_and_four_by_three() {
        for text in [
            "1 2 3 4 5 6 7 8 9 10 11 0",
            "0 1 2 3 4 5 6 7 8 9 10 11",
            "1 2 3 4 5 0 6 7 8 9 10 11",
        ] {
            let goal = board(3, 4, text);
            check(&goal, &[1, 2, 3]);
            check(&goal, &[5, 6, 7, 8]);
            check(&goal, &[1, 2, 5, 6, 9]);
        }
        check(&board(4, 3, "1 2 3 4 5 6 7 0 8 9 10 11"), &[4, 7, 10, 11]);
    }

    #[test]
    fn matches_the_reference_on_larger_boards() {
        for text in [
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
            "1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15",
            "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
        ] {
            let goal = board(4, 4, text);
            check(&goal, &[1, 2, 3]);
            check(&goal, &[3, 13, 14]);
            check(&goal, &[1, 2, 5, 6]);
        }
        check(
            &board(2, 8, "1 2 3 4 5 6 7 0 8 9 10 11 12 13 14 15"),
            &[1, 9, 15],
        );
        check(
            &board(3, 5, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0"),
            &[2, 7, 12, 13],
        );
    }

    /// The most regions a placement leaves, counted independently (by a
    /// plain flood fill over every set of cells, in Python): they size a
    /// placement's states.
    #[test]
    fn the_most_regions_of_a_placement_size_its_states() {
        let cells = |n: u8| (1..n).map(|t| t.to_string()).collect::<Vec<_>>().join(" ") + " 0";
        let fifteen = board(4, 4, &cells(16));
        let five = board(5, 5, &cells(25));
        for (goal, tiles, most, stride_log) in [
            (&fifteen, &[1, 2, 3, 4, 5, 6, 7, 8][..], 8, 3),
            (&fifteen, &[1, 2, 3, 4, 5, 6, 7][..], 7, 3),
            (&five, &[1, 2, 3, 4, 5, 6][..], 5, 3),
            (&five, &[1, 2, 3, 4, 5, 6, 7][..], 6, 3),
            (&board(3, 4, &cells(12)), &[1, 2, 3, 4, 5, 6][..], 6, 3),
            (&board(3, 3, &cells(9)), &[1, 2, 3, 4][..], 5, 3),
            (&board(3, 3, &cells(9)), &[1][..], 1, 0),
        ] {
            let space = Space::new(goal, tiles);
            assert_eq!(space.most_regions(), most, "{tiles:?} on {}", goal.shape());
            assert_eq!(space.stride_log, stride_log);
        }
    }

    /// A group's distances derived through each symmetry that keeps the
    /// goal's blank in place equal those its own search finds.
    #[test]
    fn mirrored_distances_equal_the_search() {
        use crate::symmetry::GoalSymmetry;
        let cells = |n: u8| (1..n).map(|t| t.to_string()).collect::<Vec<_>>().join(" ") + " 0";
        for (goal, tiles) in [
            (board(4, 4, &cells(16)), &[2, 3, 4, 8][..]),
            (board(4, 4, &cells(16)), &[1, 6, 7]),
            (board(3, 3, "1 2 3 4 0 5 6 7 8"), &[1, 2, 3]),
            (board(3, 3, "1 2 3 4 0 5 6 7 8"), &[2, 4, 5, 7]),
            (board(5, 5, &cells(25)), &[2, 3, 9]),
            (board(3, 3, &cells(9)), &[1, 2, 6]),
            (board(2, 3, "1 0 2 3 4 5"), &[1, 3]),
        ] {
            let own = group_distances(&goal, tiles, &mut |_, _| {});
            let mut tried = 0;
            for turn in GoalSymmetry::all(&goal) {
                let rename = |t: u8| turn.rename[t as usize];
                let mut from: Vec<u8> = tiles.iter().map(|&t| rename(t)).collect();
                from.sort_unstable();
                let theirs = group_distances(&goal, &from, &mut |_, _| {});
                let got = mirrored_distances(&goal, tiles, &from, &theirs, rename, |c| {
                    turn.cell[c as usize]
                });
                assert!(got == own, "{goal} {tiles:?} from {from:?}");
                tried += 1;
            }
            assert!(tried >= 2, "{goal}: a symmetry besides the identity");
        }
    }

    /// Past 16 cells the regions are found by a flood fill, not a table.
    #[test]
    fn matches_the_reference_past_sixteen_cells() {
        let cells = |n: u8| (1..n).map(|t| t.to_string()).collect::<Vec<_>>().join(" ") + " 0";
        let five = board(5, 5, &cells(25));
        check(&five, &[1, 2, 3]);
        check(&five, &[7, 13, 19]);
        // A corner walled off by two tiles: regions of one cell.
        check(&five, &[19, 23]);
        check(&board(4, 5, &cells(20)), &[1, 6, 12]);
        check(&board(2, 9, &cells(18)), &[4, 13, 14]);
    }

    /// Times groups and prints their histograms: the 15-puzzle's (the
    /// blank last) 6-6-3 by default; `SLIDEDB_GROUPS="1,2,3,4,5,6,7,8"`,
    /// several groups split by `/`, and `SLIDEDB_GOAL` another goal (such
    /// as the 24-puzzle's `0 1 2 … 24`).
    #[test]
    #[ignore = "a 15-puzzle group: seconds (6 tiles) to minutes (8 tiles) in release"]
    fn fifteen_puzzle_groups() {
        let groups = std::env::var("SLIDEDB_GROUPS")
            .unwrap_or_else(|_| "1,2,5,6,9,10/4,7,8,11,12,15/3,13,14".into());
        let goal: Board = std::env::var("SLIDEDB_GOAL")
            .unwrap_or_else(|_| "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0".into())
            .parse()
            .unwrap();
        for group in groups.split('/') {
            let tiles: Vec<u8> = group
                .split(',')
                .map(|t| t.trim().parse().unwrap())
                .collect();
            let clock = std::time::Instant::now();
            let mut layers = Vec::new();
            let distance = group_distances(&goal, &tiles, &mut |d, p| layers.push((d, p)));
            let elapsed = clock.elapsed();
            let mut histogram = [0u64; 256];
            for &d in &distance {
                histogram[d as usize] += 1;
            }
            assert_eq!(histogram[255], 0);
            let max = histogram.iter().rposition(|&c| c != 0).unwrap();
            let mean =
                distance.iter().map(|&d| d as u64).sum::<u64>() as f64 / distance.len() as f64;
            println!(
                "group {tiles:?}: {} placements in {elapsed:.2?}, max {max}, mean {mean:.3}, {} layers",
                distance.len(),
                layers.len()
            );
            for (d, &c) in histogram[..=max].iter().enumerate() {
                println!("  {d:3} {c:12}");
                assert_eq!(layers[d], (d as u32, c));
            }
        }
    }
}
