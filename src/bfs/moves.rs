//! Moves in index space: the arithmetic every complete search, the entry
//! check and the cluster share. A board's index is `blank × (m!/2) + h`,
//! `h` the halved rank of its tile order ([`Indexer`]); a move of the blank
//! along its row keeps `h`, and a vertical move rotates a window of `cols`
//! tiles, whose new rank [`IndexMoves`] finds from the old one by updating
//! the Lehmer digits of that window only: a lookup in a small table per
//! window position (or, for the widest windows, a few multiplies), from
//! digits precomputed per `h` or carried along by an [`Odometer`].
//!
//! Also here: the four-masks-to-a-word layout of the in-memory search
//! ([`LANES`]) and the bit tricks of the two-bit layout.

use rayon::prelude::*;

use crate::board::MAX_CELLS;
use crate::rank::Indexer;

/// Tile orders to a word of masks.
pub(crate) const LANES: usize = 4;
/// Each lane's bit 0.
pub(crate) const LANE_ONES: u64 = 0x0001_0001_0001_0001;

/// Where the mask of `h` sits in its word.
#[inline]
pub(crate) fn lane(h: usize) -> usize {
    16 * (h % LANES)
}

/// The most tiles a vertical move rotates: a row of 7 (2×7), and the
/// blank.
const MAX_WINDOW: usize = 7;

/// The change of the halved rank when a window of `K + 1` tiles rotates,
/// as a linear form in the window's Lehmer digits and its tile comparisons.
#[derive(Clone, Copy, Default)]
pub(crate) struct Rotation {
    /// Per digit of the window.
    digit: [u64; MAX_WINDOW],
    /// Per comparison.
    compare: [u64; MAX_WINDOW],
    /// The constant term.
    constant: u64,
}

/// A vertical move of the blank from one cell: where it lands and how to
/// find the new `h`.
#[derive(Clone, Copy, Default)]
pub(crate) struct Vertical {
    /// The blank's new cell.
    pub(crate) to: usize,
    /// Where the rotated window starts in the tile order.
    p: usize,
    /// Where its digits start: `width × p`.
    shift: u32,
    /// Xored into the stored digits: digit m − 2 is 1 for the boards here
    /// whose last two tiles descend, which is when the stored order's
    /// parity (kept in that digit) is not the one this cell wants.
    want: u64,
    /// Up (the window's first tile moves last) or down.
    up: bool,
    /// Where the window's table of rank changes starts in `IndexMoves::deltas`.
    table: usize,
}

/// The most entries of one window's table of rank changes; larger windows
/// (2×5, 2×6, 3×4) compute the change instead.
const MAX_TABLE: usize = 4096;

/// What the passes share: the shape's constants and every tile order.
pub(crate) struct IndexMoves<'a> {
    pub(crate) indexer: &'a Indexer,
    pub(crate) per_blank: usize,
    pub(crate) cells: usize,
    pub(crate) cols: usize,
    /// The Lehmer digits of each `h` (its tile order with the last two
    /// tiles ascending; [`Indexer::lehmer_digits`]), `width` bits each,
    /// with that order's parity in place of digit m − 2 (always 0).
    pub(crate) digits: Vec<u64>,
    /// Bits a digit: 3 up to 8 tiles, else 4.
    pub(crate) width: u32,
    /// The digits of a window (`cols` digits).
    pub(crate) window: u64,
    /// Cells the blank can leave by moving left, right, up, down, in every
    /// lane.
    pub(crate) can_left: u64,
    pub(crate) can_right: u64,
    pub(crate) can_up: u64,
    pub(crate) can_down: u64,
    /// The vertical moves from each cell.
    pub(crate) up: [Vertical; MAX_CELLS],
    pub(crate) down: [Vertical; MAX_CELLS],
    /// Rank changes of moving the blank up, per window start `p`, then down.
    pub(crate) rotate_up: [Rotation; MAX_CELLS],
    pub(crate) rotate_down: [Rotation; MAX_CELLS],
    /// Per window, the rank change for every value of its digits, when the
    /// windows are small enough (empty if not).
    pub(crate) deltas: Vec<i32>,
}

/// Tile orders a task of the digit precompute takes at a time.
const DIGIT_CHUNK: usize = 4096;

impl<'a> IndexMoves<'a> {
    /// The shape's constants, and the digits of every tile order (8
    /// bytes each) when `with_digits`; without them, [`IndexMoves::digits_at`]
    /// and [`IndexMoves::advance`] produce them as a walk goes.
    pub(crate) fn new(indexer: &'a Indexer, with_digits: bool) -> IndexMoves<'a> {
        let shape = indexer.shape();
        let (cells, cols) = (shape.cells(), shape.cols());
        let m = cells - 1;
        let per_blank = indexer.per_blank() as usize;
        let width: u32 = if m <= 8 { 3 } else { 4 };
        let field = (1u64 << width) - 1;
        let at = |i: usize| width as usize * i;
        // Digit i < m − 2 has radix m − i: counting h up is an odometer.
        let odd_digits: u64 = (0..m - 2).fold(0, |acc, i| acc | 1 << at(i));
        let mut digits = vec![0u64; if with_digits { per_blank } else { 0 }];
        digits
            .par_chunks_mut(DIGIT_CHUNK)
            .enumerate()
            .for_each(|(c, chunk)| {
                let nibbles = indexer.lehmer_digits((c * DIGIT_CHUNK) as u64);
                let mut d =
                    (0..m - 2).fold(0, |acc, i| acc | ((nibbles >> (4 * i)) & 0xF) << at(i));
                for slot in chunk {
                    *slot = d | ((d & odd_digits).count_ones() as u64 & 1) << at(m - 2);
                    let mut i = m - 3;
                    loop {
                        if ((d >> at(i)) & field) + 1 < (m - i) as u64 {
                            d += 1 << at(i);
                            break;
                        }
                        d &= !(field << at(i));
                        if i == 0 {
                            break;
                        }
                        i -= 1;
                    }
                }
            });
        let w = indexer.weights();
        let k = cols - 1;
        let mut rotate_up = [Rotation::default(); MAX_CELLS];
        let mut rotate_down = [Rotation::default(); MAX_CELLS];
        for p in 0..cells - cols {
            let (u, d) = (&mut rotate_up[p], &mut rotate_down[p]);
            // Up: t = tile p goes to p + k; tiles p + 1 ..= p + k shift
            // back, each gaining 1 if it is larger than t; t keeps its
            // digit less the k − (larger ones) tiles it passed.
            u.digit[0] = w[p + k].wrapping_sub(w[p]);
            for j in 1..=k {
                u.digit[j] = w[p + j - 1].wrapping_sub(w[p + j]);
                u.compare[j] = w[p + j - 1] + w[p + k];
            }
            u.constant = (k as u64 * w[p + k]).wrapping_neg();
            // Down: t = tile p + k goes to p; tiles p .. p + k shift on,
            // each losing 1 unless it is smaller than t; t gains the
            // smaller ones.
            for j in 0..k {
                d.digit[j] = w[p + j + 1].wrapping_sub(w[p + j]);
                d.compare[j] = w[p] + w[p + j + 1];
            }
            d.digit[k] = w[p].wrapping_sub(w[p + k]);
            d.constant = (1..=k).map(|i| w[p + i]).sum::<u64>().wrapping_neg();
        }
        let odd = |c: usize| (indexer.parity_at(c) as u64) << at(m - 2);
        let windows = 1usize << (width as usize * cols);
        // The tables hold the changes as i32: not for 14 cells (7x2), whose
        // tile orders pass 2^31.
        let tabled = windows <= MAX_TABLE && per_blank < 1 << 30;
        let mut up = [Vertical::default(); MAX_CELLS];
        let mut down = [Vertical::default(); MAX_CELLS];
        for p in 0..cells - cols {
            let table = |up: bool| {
                if tabled {
                    (2 * p + up as usize) * windows
                } else {
                    0
                }
            };
            up[p + cols] = Vertical {
                to: p,
                p,
                shift: width * p as u32,
                want: odd(p + cols),
                up: true,
                table: table(true),
            };
            down[p] = Vertical {
                to: p + cols,
                p,
                shift: width * p as u32,
                want: odd(p),
                up: false,
                table: table(false),
            };
        }
        let mask = |keep: &dyn Fn(usize) -> bool| -> u16 {
            (0..cells).filter(|&c| keep(c)).fold(0, |m, c| m | 1 << c)
        };
        let mut search = IndexMoves {
            indexer,
            per_blank,
            cells,
            cols,
            digits,
            width,
            window: (1 << (width as usize * cols)) - 1,
            can_left: mask(&|c| c % cols != 0) as u64 * LANE_ONES,
            can_right: mask(&|c| c % cols != cols - 1) as u64 * LANE_ONES,
            can_up: mask(&|c| c >= cols) as u64 * LANE_ONES,
            can_down: mask(&|c| c + cols < cells) as u64 * LANE_ONES,
            up,
            down,
            rotate_up,
            rotate_down,
            deltas: Vec::new(),
        };
        if tabled {
            let mut deltas = vec![0i32; 2 * (cells - cols) * windows];
            for (t, table) in deltas.chunks_mut(windows).enumerate() {
                let (p, up) = (t / 2, t % 2 == 1);
                for (window, delta) in table.iter_mut().enumerate() {
                    *delta = search.compute(window as u64, p, up) as i32;
                }
            }
            search.deltas = deltas;
        }
        search
    }

    /// The cells one move along a row from the cells of `f` (every lane).
    #[inline]
    pub(crate) fn along(&self, f: u64) -> u64 {
        ((f & self.can_left) >> 1) | ((f & self.can_right) << 1)
    }

    /// The change of `h` (wrapping) when a window of digits rotates.
    fn compute(&self, window: u64, p: usize, up: bool) -> u64 {
        match (self.cols, up) {
            (2, true) => self.up_delta::<1>(window, p),
            (3, true) => self.up_delta::<2>(window, p),
            (4, true) => self.up_delta::<3>(window, p),
            (5, true) => self.up_delta::<4>(window, p),
            (6, true) => self.up_delta::<5>(window, p),
            (2, false) => self.down_delta::<1>(window, p),
            (3, false) => self.down_delta::<2>(window, p),
            (4, false) => self.down_delta::<3>(window, p),
            (5, false) => self.down_delta::<4>(window, p),
            (6, false) => self.down_delta::<5>(window, p),
            (c, _) => unreachable!("no table has {c} columns"),
        }
    }

    /// The `h` of the board reached from the boards at `h` by the vertical
    /// move `v`.
    #[inline(always)]
    pub(crate) fn neighbour<const K: usize>(&self, h: usize, v: &Vertical) -> usize {
        self.neighbour_with::<K>(h, self.digits[h], v)
    }

    /// The odometer value of tile order `h`: its Lehmer digits but the last
    /// two, `width` bits each (see [`IndexMoves::advance`]).
    pub(crate) fn digits_at(&self, h: u64) -> u64 {
        let m = self.cells - 1;
        let nibbles = self.indexer.lehmer_digits(h);
        (0..m - 2).fold(0, |acc, i| {
            acc | ((nibbles >> (4 * i)) & 0xF) << (self.width as usize * i)
        })
    }

    /// The odometer value of the next tile order (`h + 1`).
    #[inline]
    pub(crate) fn advance(&self, d: u64) -> u64 {
        self.advance_digit(d, self.cells - 4)
    }

    /// The odometer value `weight(i)` tile orders on (digit `i` counted
    /// up, carrying into the digits before it): `h + 1` for the last
    /// digit, `m − 3`; the next block of [`IndexMoves::block`] tile
    /// orders for a window's last digit, when the digits after it are 0.
    #[inline]
    pub(crate) fn advance_digit(&self, mut d: u64, digit: usize) -> u64 {
        let m = self.cells - 1;
        let width = self.width as usize;
        let field = (1u64 << width) - 1;
        let mut i = digit;
        loop {
            if ((d >> (width * i)) & field) + 1 < (m - i) as u64 {
                return d + (1 << (width * i));
            }
            d &= !(field << (width * i));
            if i == 0 {
                return d;
            }
            i -= 1;
        }
    }

    /// The stored form of an odometer value: the tile order's parity in
    /// place of digit m − 2, as `digits` holds it.
    #[inline]
    pub(crate) fn with_parity(&self, d: u64) -> u64 {
        let m = self.cells - 1;
        let width = self.width as usize;
        let odd: u64 = (0..m - 2).fold(0, |acc, i| acc | 1 << (width * i));
        d | ((d & odd).count_ones() as u64 & 1) << (width * (m - 2))
    }

    /// The tile orders a vertical move carries together: runs of
    /// `block(v)` consecutive tile orders, starting at multiples of it,
    /// land on runs of consecutive tile orders, in order. A rotation
    /// changes only its window's digits; the digits after the window
    /// (worth less) keep their values and weights. 1 when the window
    /// reaches the last odometer digit.
    pub(crate) fn block(&self, v: &Vertical) -> u64 {
        let m = self.cells - 1;
        let last = v.p + self.cols - 1;
        if last < m - 3 {
            self.indexer.weights()[last]
        } else {
            1
        }
    }

    /// The tile orders a vertical move stays among: the run of `span(v)`
    /// tile orders (starting at a multiple of it) that share the digits
    /// before the window, which a rotation keeps.
    pub(crate) fn span(&self, v: &Vertical) -> u64 {
        if v.p == 0 {
            self.per_blank as u64
        } else {
            self.indexer.weights()[v.p - 1]
        }
    }

    /// The last digit of a vertical move's window (the digit
    /// [`IndexMoves::advance_digit`] counts a block at a time), and the
    /// first.
    pub(crate) fn window_digits(&self, v: &Vertical) -> (usize, usize) {
        (v.p, v.p + self.cols - 1)
    }

    /// Whether the stored digit `m − 2` (the order's parity) is in a
    /// vertical move's window: then its change depends on the parity of
    /// the digits before the window too.
    pub(crate) fn sees_parity(&self, v: &Vertical) -> bool {
        v.p + self.cols > self.cells - 3
    }

    /// The parity of the sum of the odometer digits before digit `p` (of
    /// an odometer value).
    #[inline]
    pub(crate) fn parity_before(&self, d: u64, p: usize) -> u64 {
        let width = self.width as usize;
        let odd: u64 = (0..p).fold(0, |acc, i| acc | 1 << (width * i));
        ((d & odd).count_ones() & 1) as u64
    }

    /// The vertical moves of the blank from `cell`: where it lands, and
    /// the move's rank arithmetic.
    pub(crate) fn verticals(&self, cell: usize) -> impl Iterator<Item = &Vertical> {
        let up = (cell >= self.cols).then(|| &self.up[cell]);
        let down = (cell + self.cols < self.cells).then(|| &self.down[cell]);
        up.into_iter().chain(down)
    }

    /// The tile order after vertical move `v` from tile order `h`, whose
    /// stored digits ([`IndexMoves::with_parity`]) are `digits`; the blank's
    /// new cell is `v.to`.
    #[inline]
    pub(crate) fn vertical(&self, h: u64, digits: u64, v: &Vertical) -> u64 {
        let h = h as usize;
        (match self.cols {
            2 => self.neighbour_with::<1>(h, digits, v),
            3 => self.neighbour_with::<2>(h, digits, v),
            4 => self.neighbour_with::<3>(h, digits, v),
            5 => self.neighbour_with::<4>(h, digits, v),
            6 => self.neighbour_with::<5>(h, digits, v),
            7 => self.neighbour_with::<6>(h, digits, v),
            c => unreachable!("no table has {c} columns"),
        }) as u64
    }

    #[inline]
    pub(crate) fn neighbour_with<const K: usize>(
        &self,
        h: usize,
        digits: u64,
        v: &Vertical,
    ) -> usize {
        let digits = digits ^ v.want;
        let window = (digits >> v.shift) & self.window;
        let delta = if self.deltas.is_empty() {
            if v.up {
                self.up_delta::<K>(window, v.p)
            } else {
                self.down_delta::<K>(window, v.p)
            }
        } else {
            self.deltas[v.table + window as usize] as i64 as u64
        };
        (h as u64).wrapping_add(delta) as usize
    }

    /// The `K + 1` digits of a window.
    #[inline(always)]
    fn split<const K: usize>(&self, window: u64) -> [u64; MAX_WINDOW] {
        let mut d = [0u64; MAX_WINDOW];
        let field = (1 << self.width) - 1;
        for (i, d) in d.iter_mut().enumerate().take(K + 1) {
            *d = (window >> (self.width as usize * i)) & field;
        }
        d
    }

    /// The change of `h` when the blank moves up to cell `p`.
    #[inline(always)]
    fn up_delta<const K: usize>(&self, window: u64, p: usize) -> u64 {
        let d = self.split::<K>(window);
        let r = &self.rotate_up[p];
        let mut delta = r.constant;
        for (&a, &d) in r.digit.iter().zip(&d).take(K + 1) {
            delta = delta.wrapping_add(a.wrapping_mul(d));
        }
        for j in 1..=K {
            // Tile l > tile j (l < j) iff d[l] > d[j] + #{l < i < j: tile
            // i < tile j}; walk l down from j − 1 to count those.
            let mut smaller = 0;
            for l in (1..j).rev() {
                smaller += (d[l] <= d[j] + smaller) as u64;
            }
            let larger = d[0] <= d[j] + smaller; // tile j > tile 0
            delta = delta.wrapping_add(r.compare[j] * larger as u64);
        }
        delta
    }

    /// The change of `h` when the blank moves down from cell `p`.
    #[inline(always)]
    fn down_delta<const K: usize>(&self, window: u64, p: usize) -> u64 {
        let d = self.split::<K>(window);
        let r = &self.rotate_down[p];
        let mut delta = r.constant;
        for (&a, &d) in r.digit.iter().zip(&d).take(K + 1) {
            delta = delta.wrapping_add(a.wrapping_mul(d));
        }
        let mut smaller = 0;
        for j in (0..K).rev() {
            let s = d[j] <= d[K] + smaller; // tile j < tile K
            delta = delta.wrapping_add(r.compare[j] * s as u64);
            smaller += s as u64;
        }
        delta
    }
}

/// The Lehmer digits of the tile orders a walk visits in increasing
/// order: a short step forward is cheaper than a fresh start.
pub(crate) struct Odometer<'s, 'a> {
    search: &'s IndexMoves<'a>,
    at: u64,
    digits: u64,
}

impl<'s, 'a> Odometer<'s, 'a> {
    pub(crate) fn new(search: &'s IndexMoves<'a>) -> Odometer<'s, 'a> {
        Odometer {
            search,
            at: u64::MAX,
            digits: 0,
        }
    }

    /// The stored digits ([`IndexMoves::with_parity`]) of tile order `h`.
    #[inline]
    pub(crate) fn at(&mut self, h: u64) -> u64 {
        if self.at <= h && h - self.at <= 64 {
            while self.at < h {
                self.digits = self.search.advance(self.digits);
                self.at += 1;
            }
        } else {
            self.digits = self.search.digits_at(h);
            self.at = h;
        }
        self.search.with_parity(self.digits)
    }
}

pub(crate) use crate::system::prefetch;

/// Bit 2j set where entry j of a word of entries is 0 (not reached).
#[inline]
pub(crate) fn unreached(word: u64) -> u64 {
    !(word | word >> 1) & 0x5555_5555_5555_5555
}

/// The even bits of `x`, packed into the low 32.
#[inline]
pub(crate) fn compact(mut x: u64) -> u64 {
    x &= 0x5555_5555_5555_5555;
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF;
    x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
    (x | x >> 16) & 0x0000_0000_FFFF_FFFF
}

/// The low 32 bits of `x`, spread to the even bits.
#[inline]
pub(crate) fn spread(mut x: u64) -> u64 {
    x &= 0xFFFF_FFFF;
    x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
    x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
    x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    (x | x << 1) & 0x5555_5555_5555_5555
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::board::Shape;
    use crate::rank::Index;

    impl IndexMoves<'_> {
        pub(crate) fn neighbour_of(&self, h: usize, v: &Vertical) -> usize {
            match self.cols {
                2 => self.neighbour::<1>(h, v),
                3 => self.neighbour::<2>(h, v),
                4 => self.neighbour::<3>(h, v),
                5 => self.neighbour::<4>(h, v),
                _ => self.neighbour::<5>(h, v),
            }
        }
    }

    #[test]
    fn compact_and_spread_are_inverse() {
        let x = 0x1234_5678_9ABC_DEF0u64 & 0xFFFF_FFFF;
        assert_eq!(compact(spread(x)), x);
        assert_eq!(spread(0b101), 0b1_0001);
        // Entries 0 and 2 of 0b11_00_01_00 are 0.
        assert_eq!(compact(unreached(0b1100_0100)) & 0xF, 0b0101);
    }

    /// The odometer walk of the two-bit search (digits computed afresh and
    /// advanced, no table of digits) lands every vertical step on the index
    /// of the moved board: on 2×7 and 7×2 (14 cells, 7-tile rotations),
    /// sampled, both parities, and on the 3×4 it shares with `generate`.
    #[test]
    fn odometer_vertical_steps_match_the_rank_of_the_moved_board() {
        for (r, c) in [(2, 7), (7, 2), (3, 4), (2, 6)] {
            let shape = Shape::new(r, c).unwrap();
            for parity in [0, 1] {
                let indexer = Indexer::for_class(shape, parity);
                let search = IndexMoves::new(&indexer, false);
                let pb = search.per_blank as u64;
                let stride = pb / 3000;
                for start in (0..pb).step_by(stride as usize).chain([pb - 70]) {
                    // A fresh start, then steps forward by the odometer.
                    let mut digits = search.digits_at(start);
                    for h in start..(start + 70).min(pb) {
                        if h > start {
                            digits = search.advance(digits);
                        }
                        assert_eq!(digits, search.digits_at(h), "{shape} h {h}");
                        let stored = search.with_parity(digits);
                        for b in 0..search.cells {
                            let board = indexer.unrank(Index(b as u64 * pb + h)).unwrap();
                            for v in search.verticals(b) {
                                let mv = if v.to < b { Move::Up } else { Move::Down };
                                let moved = board.apply(mv).unwrap();
                                let want = indexer.rank(&moved).unwrap().0;
                                let got = v.to as u64 * pb + search.vertical(h, stored, v);
                                assert_eq!(got, want, "{shape} parity {parity} {board} {mv:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// Every vertical step the search takes lands on the index of the moved
    /// board, on every shape a table is built for (sampled above 9 cells),
    /// both parities, with the tables of rank changes and without.
    #[test]
    fn vertical_steps_match_the_rank_of_the_moved_board() {
        for (r, c) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (2, 4),
            (4, 2),
            (3, 3),
            (2, 5),
            (5, 2),
            (2, 6),
            (6, 2),
            (3, 4),
            (4, 3),
        ] {
            let shape = Shape::new(r, c).unwrap();
            for parity in [0, 1] {
                let indexer = Indexer::for_class(shape, parity);
                let mut search = IndexMoves::new(&indexer, true);
                let pb = search.per_blank;
                let stride = (pb / 5000).max(1);
                for tabled in [true, false] {
                    if !tabled {
                        search.deltas.clear();
                    }
                    for h in (0..pb).step_by(stride).chain([pb - 1]) {
                        for b in 0..search.cells {
                            let board = indexer.unrank(Index((b * pb + h) as u64)).unwrap();
                            for (mv, v) in
                                [(Move::Up, &search.up[b]), (Move::Down, &search.down[b])]
                            {
                                let Some(moved) = board.apply(mv) else {
                                    continue;
                                };
                                let want = indexer.rank(&moved).unwrap().0 as usize;
                                let got = v.to * pb + search.neighbour_of(h, v);
                                assert_eq!(
                                    got, want,
                                    "{shape} parity {parity} {board} {mv:?} tabled {tabled}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
