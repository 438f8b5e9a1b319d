//! Arbitrary bytes opened as a pattern-database file (kind 2). Whatever
//! opens must answer `verify`, `layers`, `entries`, `partition` and
//! `estimate` without panicking, estimate the goal at 0 and solve it with
//! no moves, and solve the boards one and two moves from the goal with a
//! legal path to the goal or a `Damaged` error.
//!
//! Each input is tried three times: as it is; with its header and
//! metadata checksums recomputed, so that mutations get past the CRCs into
//! the layout and metadata checks; and with the body checksum recomputed
//! as well, so that mutated entries pass `verify`'s checksum too.
//!
//! Only boards near the goal are solved, and only when the search is sure
//! to be short: a damaged body can make IDA* take exponential time
//! (documented, not a bug), on a far board and on a near one too. IDA*
//! stops at the latest once its bound covers a path to the goal, so a
//! board is solved when the largest `moves so far + estimate` along its
//! known path to the goal (the estimate as IDA* takes it: the largest over
//! the board and its mirrors) is at most [`MAX_BOUND`]; the answer is then
//! no longer than that. A board estimated above 1000 is solved too: IDA*
//! gives up on it at once.

#![no_main]

#[path = "checksums.rs"]
mod checksums;

use checksums::with_checksums_fixed;
use libfuzzer_sys::fuzz_target;
use slidedb::BuiltFor;
use slidedb::pdb::{Partition, PatternDb};
use slidedb::{Board, MAX_CELLS, Move, Shape, SolveError};

/// The largest IDA* bound a near board is solved under.
const MAX_BOUND: u32 = 12;
/// Above this estimate IDA* gives up at once (`MAX_BOUND` in src/pdb/ida.rs).
const IDA_GIVES_UP: u32 = 1000;

fuzz_target!(|data: &[u8]| {
    exercise(data);
    let fixed = with_checksums_fixed(data, false);
    if let Some(fixed) = &fixed {
        exercise(fixed);
    }
    if let Some(body_fixed) = with_checksums_fixed(data, true)
        && Some(&body_fixed) != fixed.as_ref()
    {
        exercise(&body_fixed);
    }
});

fn exercise(bytes: &[u8]) {
    let Ok(db) = PatternDb::new(bytes) else {
        return;
    };
    let _ = db.verify();
    let _ = db.generator();
    let shape = db.shape();
    let goal = *db.goal();
    assert_eq!(goal.shape(), shape);
    let n = shape.cells();

    let groups = db.partition().groups();
    assert!(!groups.is_empty());
    assert_eq!(
        Partition::new(shape, groups.to_vec()).as_ref(),
        Ok(db.partition())
    );
    for (g, tiles) in groups.iter().enumerate() {
        let layers = db.layers(g);
        let entries = db.entries(g);
        assert_eq!(layers.first(), Some(&1));
        // n! / (n - k)! placements of the group's k tiles on n cells.
        let placements: u64 = (n - tiles.len() + 1..=n).map(|x| x as u64).product();
        assert_eq!(entries.len() as u64, placements);
        assert_eq!(layers.iter().sum::<u64>(), entries.len() as u64);
    }

    assert_eq!(db.estimate(&goal), Ok(0));
    let _ = db.estimate(&Board::solved(shape));
    let found = db.solve(&goal).expect("the goal solves");
    assert_eq!(found.moves, Some(Vec::new()));

    // The boards one and two moves from the goal, each with its distance
    // (two moves that do not undo each other never lead back to the goal,
    // and the distance keeps the parity of the moves), its estimate as
    // IDA* takes it, and the bound IDA* needs at most: the largest
    // `moves so far + estimate` along the path back through `one`.
    let mut near: Vec<(Board, usize, u32, u32)> = Vec::new();
    for mv in Move::ALL {
        let Some(one) = goal.apply(mv) else { continue };
        let h_one = search_estimate(&db, &one);
        near.push((one, 1, h_one, h_one.max(1)));
        for mv2 in Move::ALL {
            if let Some(two) = one.apply(mv2)
                && two != goal
                && !near.iter().any(|(b, ..)| *b == two)
            {
                let h_two = search_estimate(&db, &two);
                near.push((two, 2, h_two, h_two.max(1 + h_one).max(2)));
            }
        }
    }
    for (board, distance, start, bound) in &near {
        let _ = db.estimate(board);
        if *bound <= MAX_BOUND || *start > IDA_GIVES_UP {
            check_solve(&db, board, *distance, *bound);
        }
    }
}

/// `solve` on `board`, `distance` moves from the goal, whose IDA* bound
/// cannot pass `bound`.
fn check_solve(db: &PatternDb<&[u8]>, board: &Board, distance: usize, bound: u32) {
    let goal = *db.goal();
    match db.solve(board) {
        Ok(solution) => {
            let moves = solution
                .moves
                .unwrap_or_else(|| panic!("{board:?} can reach the goal but got no moves"));
            assert_eq!(board.apply_all(&moves), Some(goal), "{board:?}: {moves:?}");
            assert!(moves.len() >= distance, "{board:?}: {moves:?}");
            assert!(moves.len() as u32 <= bound, "{board:?}: {moves:?}");
        }
        Err(SolveError::Damaged { .. }) => {}
        Err(e) => panic!("{e}"),
    }
}

/// The mirrors of `shape` onto itself, each as the cell every cell goes
/// to: flip the rows, flip the columns, each or not, and for a square
/// transpose too (the identity first).
fn mirrors(shape: Shape) -> Vec<Vec<usize>> {
    let (rows, cols) = (shape.rows(), shape.cols());
    (0..8u8)
        .filter(|k| k & 4 == 0 || rows == cols)
        .map(|k| {
            (0..shape.cells())
                .map(|cell| {
                    let (mut r, mut c) = (cell / cols, cell % cols);
                    if k & 1 != 0 {
                        r = rows - 1 - r;
                    }
                    if k & 2 != 0 {
                        c = cols - 1 - c;
                    }
                    if k & 4 != 0 { c * rows + r } else { r * cols + c }
                })
                .collect()
        })
        .collect()
}

/// The estimate IDA* searches under (src/pdb/ida.rs): the largest of the
/// groups' sums for `board` and for each mirror of it, a symmetry that
/// keeps the goal's blank in place followed by the renaming that maps the
/// goal onto itself.
fn search_estimate(db: &PatternDb<&[u8]>, board: &Board) -> u32 {
    let goal = db.goal();
    let shape = db.shape();
    let n = shape.cells();
    mirrors(shape)
        .into_iter()
        .filter(|s| s[goal.blank()] == goal.blank())
        .map(|s| {
            let mut rename = [0u8; MAX_CELLS];
            for c in 0..n {
                rename[goal.tile(c) as usize] = goal.tile(s[c]);
            }
            let mut tiles = [0u8; MAX_CELLS];
            for c in 0..n {
                tiles[s[c]] = rename[board.tile(c) as usize];
            }
            db.estimate(&Board::from_tiles(shape, &tiles[..n]).expect("a mirrored board"))
                .expect("a board of the databases' shape")
        })
        .max()
        .expect("the identity")
}
