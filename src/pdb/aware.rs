//! Reading blank-aware entries: one for each placement of a group's tiles
//! and each cell the blank may be in, two bits each.
//!
//! A group's blank-aware distance is the fewest moves of its tiles that
//! bring them home with the blank where it is: the cells without a group
//! tile fall into connected regions, and the blank wanders through its own
//! at no cost. Stored is that distance modulo 3. A move changes it by at
//! most one (a group tile's slide costs one; any other slide costs nothing
//! and leaves the blank in its region), so from a board's distance and a
//! neighbour's code the neighbour's distance follows ([`step`]); a board
//! whose distance is not known is walked down to the goal ([`distance`]).
//!
//! Entry `rank × (n − k) + j` is the placement of rank `rank` (see
//! [`placement_rank`](crate::rank::placement_rank)) with the blank in its
//! `j`-th free cell, counted from cell 0; four entries a byte, the first in
//! the low bits.

/// The place of cell `blank` among the cells not in `used`, counted from
/// cell 0 (`blank` not in `used`).
#[inline(always)]
pub(crate) fn free_index(used: u32, blank: u32) -> usize {
    (blank - (used & ((1u32 << blank) - 1)).count_ones()) as usize
}

/// The code of entry `index` of a group's entries.
#[inline(always)]
pub(crate) fn code(entries: &[u8], index: usize) -> u8 {
    (entries[index >> 2] >> ((index & 3) * 2)) & 3
}

/// The distance of a neighbour whose code is `code`, from `parent`'s
/// distance: `parent − 1`, `parent` or `parent + 1`, whichever is `code`
/// modulo 3.
#[inline(always)]
pub(crate) fn step(parent: u8, code: u8) -> u8 {
    match (code + 3 - parent % 3) % 3 {
        0 => parent,
        1 => parent.wrapping_add(1),
        _ => parent.wrapping_sub(1),
    }
}

/// A group's place on one board shape: what [`distance`] needs.
pub(crate) struct Group<'a> {
    /// Its entries.
    pub entries: &'a [u8],
    /// Cells on the board.
    pub n: usize,
    /// The cells next to each cell, as masks.
    pub neighbours: &'a [u32],
    /// Its tiles' cells in the goal, in the tiles' order.
    pub home: &'a [u8],
    /// The goal's blank cell.
    pub goal_blank: u32,
}

impl Group<'_> {
    /// The entry of the group's tiles in `cells` (as many as it has) with
    /// the blank in `blank`.
    #[inline]
    fn code_at(&self, cells: &[u8], blank: u32) -> u8 {
        let used = cells.iter().fold(0u32, |m, &c| m | 1 << c);
        let rank = crate::rank::placement_rank(cells, self.n) as usize;
        code(
            self.entries,
            rank * (self.n - cells.len()) + free_index(used, blank),
        )
    }

    /// The free cells reachable from `blank` through free cells.
    fn region(&self, blank: u32, free: u32) -> u32 {
        let mut region = 1u32 << blank;
        loop {
            let mut grown = region;
            let mut rest = region;
            while rest != 0 {
                grown |= self.neighbours[rest.trailing_zeros() as usize] & free;
                rest &= rest - 1;
            }
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

/// The blank-aware distance of `group`'s tiles in `cells` (as many as the
/// group has) with the blank in `blank`: found by walking down, a group
/// tile at a time, to a neighbour whose code is one less modulo 3, until
/// the tiles are home with the blank in the goal blank's region. `None`
/// if no neighbour is one less, or the walk is longer than any distance a
/// byte holds: the entries are damaged.
pub(crate) fn distance(group: &Group, cells: &[u8], blank: u32) -> Option<u8> {
    let k = cells.len();
    let full = if group.n == 32 {
        u32::MAX
    } else {
        (1u32 << group.n) - 1
    };
    let mut cells: [u8; super::MAX_GROUP_TILES] = {
        let mut a = [0; super::MAX_GROUP_TILES];
        a[..k].copy_from_slice(cells);
        a
    };
    let mut blank = blank;
    let mut here = group.code_at(&cells[..k], blank);
    for walked in 0..=u8::MAX {
        let used = cells[..k].iter().fold(0u32, |m, &c| m | 1 << c);
        let region = group.region(blank, full & !used);
        if cells[..k] == *group.home && region >> group.goal_blank & 1 != 0 {
            return Some(walked);
        }
        let lower = (here + 2) % 3;
        let mut next = None;
        'tiles: for i in 0..k {
            let from = cells[i];
            let mut to = group.neighbours[from as usize] & region;
            while to != 0 {
                let mut moved = cells;
                moved[i] = to.trailing_zeros() as u8;
                to &= to - 1;
                if group.code_at(&moved[..k], from as u32) == lower {
                    next = Some((moved, from as u32));
                    break 'tiles;
                }
            }
        }
        (cells, blank) = next?;
        here = lower;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_reads_the_neighbour_within_one() {
        for parent in 1..=250u8 {
            for d in [parent - 1, parent, parent + 1] {
                assert_eq!(step(parent, d % 3), d);
            }
        }
        assert_eq!(step(0, 0), 0);
        assert_eq!(step(0, 1), 1);
    }

    #[test]
    fn entries_are_packed_four_a_byte_low_bits_first() {
        let entries = [0b11_10_01_00u8, 0b00_00_00_10];
        let codes: Vec<u8> = (0..5).map(|i| code(&entries, i)).collect();
        assert_eq!(codes, [0, 1, 2, 3, 2]);
        assert_eq!(free_index(0b1011, 2), 0);
        assert_eq!(free_index(0b1011, 5), 2);
    }
}
