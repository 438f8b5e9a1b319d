//! Tables in memory: a complete search ([`crate::bfs`]) made into a
//! [`Table`].

use std::ops::ControlFlow;

use crate::bfs::{self, GenerateError, Layer, MAX_IN_MEMORY_CELLS};
use crate::board::{Board, Metric};
use crate::symmetry::GoalClass;

use super::{Table, assemble};

/// Builds the full distance table for `goal` by reverse BFS, calling
/// `on_layer` after each layer. Runs on the current rayon pool (wrap it in
/// `ThreadPool::install` to choose the threads).
///
/// The table answers toward `goal`; its body is laid out by the canonical
/// goal of `goal`'s class (the search runs from there), so it also serves
/// every other goal of the class ([`Toward`](crate::Toward)).
///
/// ```
/// use slidedb::{Board, Shape, generate};
/// let mut depths = 0;
/// let table = generate(&Board::solved(Shape::EIGHT), |_layer| depths += 1).unwrap();
/// assert_eq!(table.states(), 181_440);
/// assert_eq!(table.max_distance(), 31);
/// assert_eq!(depths, 32);
/// ```
pub fn generate(
    goal: &Board,
    on_layer: impl FnMut(&Layer),
) -> Result<Table<Vec<u8>>, GenerateError> {
    let class = GoalClass::of(goal);
    let done = bfs::memory::search(&class, on_layer, |_| ControlFlow::Continue(()))?;
    let (layers, hardest, body) = done.expect("the search ran to the end");
    Ok(assemble(&class, Metric::Single, layers, &hardest, &body))
}

/// Builds the full distance table for `goal` in `metric` by reverse BFS,
/// calling `on_layer` after each layer: in the single-tile metric the
/// table of [`generate`](crate::table::generate()); in the multi-tile
/// metric, where one move slides the blank any distance along its row or
/// column, a table of the same layout whose entries and answers count
/// those moves. Up to [`MAX_IN_MEMORY_CELLS`] cells.
///
/// ```
/// use slidedb::{Board, BuiltFor, Metric, Shape, table::generate_in};
/// let table = generate_in(&Board::solved(Shape::EIGHT), Metric::Multi, |_| {}).unwrap();
/// assert_eq!(table.metric(), Metric::Multi);
/// assert_eq!(table.max_distance(), 24);
/// let found = table.solve(&"2 3 4 1 5 x 7 6 8".parse().unwrap()).unwrap();
/// assert_eq!(found.distance(), Some(14));
/// ```
pub fn generate_in(
    goal: &Board,
    metric: Metric,
    on_layer: impl FnMut(&Layer),
) -> Result<Table<Vec<u8>>, GenerateError> {
    match metric {
        Metric::Single => generate(goal, on_layer),
        Metric::Multi => {
            let class = GoalClass::of(goal);
            let done = bfs::multi::search(&class, on_layer, |_| ControlFlow::Continue(()))?;
            let (layers, hardest, body) = done.expect("the search ran to the end");
            Ok(assemble(&class, Metric::Multi, layers, &hardest, &body))
        }
    }
}

/// Builds the full distance table for `goal` by the two-bit search, in
/// memory, calling `on_layer` after each layer: the same table as
/// [`generate`](crate::table::generate()), in about 3 bits of memory a board.
///
/// ```
/// use slidedb::{Board, Shape, generate, table::generate_two_bit};
/// let goal = Board::solved(Shape::new(2, 3).unwrap());
/// let table = generate_two_bit(&goal, |_| {}).unwrap();
/// assert_eq!(table.as_bytes(), generate(&goal, |_| {}).unwrap().as_bytes());
/// ```
pub fn generate_two_bit(
    goal: &Board,
    mut on_layer: impl FnMut(&Layer),
) -> Result<Table<Vec<u8>>, GenerateError> {
    let shape = goal.shape();
    if shape.cells() > MAX_IN_MEMORY_CELLS {
        return Err(GenerateError::TooLarge {
            shape,
            states: shape.table_states(),
        });
    }
    let class = GoalClass::of(goal);
    let (layers, hardest, body) = bfs::twobit::search_resident(&class, &mut on_layer)?;
    Ok(assemble(&class, Metric::Single, layers, &hardest, &body))
}
