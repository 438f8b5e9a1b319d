//! Whole searches, the ways the rest of the crate runs the two-bit
//! search: resident to a table's body, again to compare with a table, and
//! as a sweep of layers shown one at a time.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering::Relaxed;

use crate::board::{Board, Metric};
use crate::rank::{Index, Indexer};
use crate::symmetry::GoalClass;

use super::TwoBit;
use super::placement::resident_bytes;
use crate::bfs::memory::LayerBoards;
use crate::bfs::{Finished, GenerateError, Layer};

/// The whole resident two-bit search toward `class`'s canonical goal,
/// calling `on_layer` after each layer: what it found.
pub(crate) fn search_resident(
    class: &GoalClass,
    mut on_layer: impl FnMut(&Layer),
) -> Result<Finished, GenerateError> {
    let indexer = Indexer::new(class.canonical());
    let search = search_all(&indexer, class.canonical(), Metric::Single, &mut on_layer)?;
    let mut body = Vec::with_capacity(search.body_len() as usize);
    search
        .write_body(&mut body)
        .expect("writing to a Vec cannot fail");
    let hardest = search.hardest().expect("a resident search does no I/O");
    Ok((search.layers().to_vec(), hardest, body))
}

/// The whole resident two-bit search toward `goal` (the goal `indexer`
/// was made for) in `metric`, calling `on_layer` after each layer.
fn search_all<'a>(
    indexer: &'a Indexer,
    goal: &Board,
    metric: Metric,
    on_layer: &mut impl FnMut(&Layer),
) -> Result<TwoBit<'a>, GenerateError> {
    let mut search = TwoBit::new_in(indexer, goal, metric)?;
    on_layer(&search.last_layer());
    while search.expand().expect("a resident search does no I/O") {
        on_layer(&search.last_layer());
    }
    Ok(search)
}

/// Searches again toward `goal` in `metric` by the two-bit search,
/// calling `on_layer` after each layer, and compares what it finds with a
/// table's layer counts and body without building a second table: whether
/// both agree (`Err(what)` names the first that differs).
pub(crate) fn search_and_compare(
    goal: &Board,
    metric: Metric,
    layers: &[u64],
    body: &[u8],
    mut on_layer: impl FnMut(&Layer),
) -> Result<Result<(), &'static str>, GenerateError> {
    let class = GoalClass::of(goal);
    let indexer = Indexer::new(class.canonical());
    let search = search_all(&indexer, class.canonical(), metric, &mut on_layer)?;
    if search.layers() != layers {
        return Ok(Err("layer counts"));
    }
    /// A writer that compares what it is given with `expected`.
    struct Compare<'b> {
        expected: &'b [u8],
        same: bool,
    }
    impl Write for Compare<'_> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let n = buf.len().min(self.expected.len());
            self.same &= buf.len() == n && buf == &self.expected[..n];
            self.expected = &self.expected[n..];
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut compare = Compare {
        expected: body,
        same: body.len() as u64 == search.body_len(),
    };
    search
        .write_body(&mut compare)
        .expect("comparing cannot fail");
    Ok(if compare.same { Ok(()) } else { Err("entries") })
}

/// Runs the two-bit search toward `class`'s canonical goal (resident:
/// 3 bits a board, checked against the memory available) and shows each
/// layer, when complete, to `visit`, until it breaks.
pub(crate) fn sweep(
    class: &GoalClass,
    mut visit: impl FnMut(&dyn LayerBoards) -> ControlFlow<()>,
) -> Result<(), GenerateError> {
    let indexer = Indexer::new(class.canonical());
    let shape = indexer.shape();
    let (residues, frontier) = resident_bytes(shape.cells(), indexer.per_blank());
    if let Some(available) = crate::system::available_memory()
        && residues + frontier > available
    {
        return Err(GenerateError::Memory {
            bytes: residues + frontier,
            why: format!("{available} bytes are available"),
        });
    }
    let mut search = TwoBit::new(&indexer, class.canonical())?;
    loop {
        if visit(&search).is_break() {
            return Ok(());
        }
        if !search.expand().expect("a resident search does no I/O") {
            return Ok(());
        }
    }
}

impl LayerBoards for TwoBit<'_> {
    fn depth(&self) -> u32 {
        TwoBit::depth(self)
    }
    fn states(&self) -> u64 {
        *self.layers.last().expect("layer 0 is always done")
    }
    fn for_each(&self, f: &mut dyn FnMut(Index) -> ControlFlow<()>) -> ControlFlow<()> {
        let Some((_, frontier)) = self.resident() else {
            unreachable!("a sweep is resident")
        };
        for cell in self.cells_of_layer(TwoBit::depth(self)) {
            let bitset = &frontier[cell * self.words..(cell + 1) * self.words];
            for (w, word) in bitset.iter().enumerate() {
                let mut bits = word.load(Relaxed);
                while bits != 0 {
                    let h = (w * 64) as u64 + bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    f(Index(cell as u64 * self.per_blank + h))?;
                }
            }
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_search_finds_a_table_whole_and_a_changed_one_changed() {
        let goal = Board::solved(crate::board::Shape::EIGHT);
        let class = GoalClass::of(&goal);
        let found = crate::bfs::memory::search(&class, |_| {}, |_| ControlFlow::Continue(()));
        let (layers, _, body) = found.unwrap().unwrap();
        same_and_changed(&goal, Metric::Single, &layers, &body);
    }

    /// The same in the multi-tile metric, against the in-memory
    /// multi-tile search's table; and a single-tile table is not what the
    /// multi-tile search finds.
    #[test]
    fn a_fresh_multi_tile_search_finds_a_table_whole_and_a_changed_one_changed() {
        for goal in ["1 2 3 4 5 6 7 8 0", "1 2 3 4 0 5 6 7 8"] {
            let goal: Board = goal.parse().unwrap();
            let class = GoalClass::of(&goal);
            let found = crate::bfs::multi::search(&class, |_| {}, |_| ControlFlow::Continue(()));
            let (layers, _, body) = found.unwrap().unwrap();
            same_and_changed(class.canonical(), Metric::Multi, &layers, &body);
            let single = crate::bfs::memory::search(&class, |_| {}, |_| ControlFlow::Continue(()));
            let (layers, _, body) = single.unwrap().unwrap();
            assert_eq!(
                search_and_compare(class.canonical(), Metric::Multi, &layers, &body, |_| {}),
                Ok(Err("layer counts"))
            );
        }
    }

    /// `search_and_compare` in `metric` agrees with `layers` and `body`,
    /// and finds a changed entry, a shifted body and a changed count.
    fn same_and_changed(goal: &Board, metric: Metric, layers: &[u64], body: &[u8]) {
        let compare =
            |layers: &[u64], body: &[u8]| search_and_compare(goal, metric, layers, body, |_| {});
        assert_eq!(compare(layers, body), Ok(Ok(())));
        let mut changed = body.to_vec();
        changed[1000] ^= 0b01;
        assert_eq!(compare(layers, &changed), Ok(Err("entries")));
        assert_eq!(compare(layers, &body[1..]), Ok(Err("entries")));
        let mut counts = layers.to_vec();
        counts[3] += 1;
        assert_eq!(compare(&counts, body), Ok(Err("layer counts")));
    }
}
