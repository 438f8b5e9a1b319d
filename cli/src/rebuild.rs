//! The commands that build a damaged file again, as both programs name
//! them after the library's advice.

use std::path::Path;

use slidedb::Board;

/// The distributed build of a sharded table of `goal` on `workers`
/// workers into `dir`, as the manifest says it was built: one command on
/// this machine for a table that fits its memory, else one per host.
///
/// ```
/// use slidedb::{Board, Shape};
/// let goal = Board::solved(Shape::new(2, 3).unwrap());
/// let with = slidedb_cli::rebuild::sharded_table(&goal, 2, "m".as_ref());
/// assert_eq!(with, "with\n    slidedb-gen --size 2x3 --workers 2 --out m --force");
/// ```
pub fn sharded_table(goal: &Board, workers: usize, dir: &Path) -> String {
    let shape = goal.shape();
    let mut command = format!("slidedb-gen --size {shape}");
    if *goal != Board::solved(shape) {
        command.push_str(&format!(" --goal \"{goal}\""));
    }
    if shape.cells() <= slidedb::MAX_IN_MEMORY_CELLS {
        format!(
            "with\n    {command} --workers {workers} --out {} --force",
            dir.display()
        )
    } else {
        format!(
            "with {command} --hosts FILE --process I --out DIR --force on each host ({workers} workers in all), then copy the shards into {}",
            dir.display()
        )
    }
}
