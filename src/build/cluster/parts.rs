//! The table the parts of a finished search make.

use crate::bfs::MAX_HARDEST;
use crate::board::{Board, Metric};
use crate::rank::{Index, Indexer};
use crate::symmetry::GoalClass;
use crate::table::{Table, assemble};

use super::Part;

/// The table the parts of a finished search make, byte for byte the one
/// [`generate`](crate::table::generate()) builds: `parts` are every worker's, in
/// any order.
pub(super) fn table_from_parts(goal: &Board, layers: &[u64], parts: &[Part]) -> Table<Vec<u8>> {
    let class = GoalClass::of(goal);
    let indexer = Indexer::new(class.canonical());
    let per_blank = indexer.per_blank();
    let cells = indexer.shape().cells();
    let mut body = vec![0u8; indexer.len().div_ceil(4) as usize];
    let mut hardest: Vec<Index> = Vec::new();
    for part in parts {
        let len = part.range.end - part.range.start;
        let run = len.div_ceil(4) as usize;
        for cell in 0..cells {
            let from = &part.entries[cell * run..(cell + 1) * run];
            let first = cell as u64 * per_blank + part.range.start;
            if first.is_multiple_of(4) && len.is_multiple_of(4) {
                let at = (first / 4) as usize;
                body[at..at + run].copy_from_slice(from);
            } else {
                for j in 0..len {
                    let r = (from[(j / 4) as usize] >> (2 * (j % 4))) & 3;
                    let i = first + j;
                    body[(i / 4) as usize] |= r << (2 * (i % 4));
                }
            }
        }
        hardest.extend(&part.hardest);
    }
    hardest.sort_unstable();
    hardest.truncate(MAX_HARDEST);
    let hardest: Vec<Board> = hardest
        .into_iter()
        .map(|i| indexer.unrank(i).expect("a part's board is in the index"))
        .collect();
    assemble(&class, Metric::Single, layers.to_vec(), &hardest, &body)
}
