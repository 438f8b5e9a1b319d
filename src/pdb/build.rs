//! The breadth-first search that fills one group's pattern database.

use std::collections::VecDeque;

use crate::board::{Adjacency, Board};
use crate::rank::{placement_count, placement_rank};

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
    let shape = goal.shape();
    let n = shape.cells();
    let k = tiles.len();
    let adjacency = Adjacency::new(shape);
    let count = placement_count(n, k) as usize;
    let mut distance = vec![u8::MAX; count];
    // Visited (placement, blank) pairs, one bit each.
    let mut seen = vec![0u64; (count * n).div_ceil(64)];
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
    distance
}
