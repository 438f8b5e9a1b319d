//! The estimates of [`Solver`]: Manhattan distance and linear conflict.
//! Both are checked against the exact distance of every board of 3x3 and
//! 2x4 (never above it, linear conflict never below Manhattan, both exact
//! somewhere); the column conflicts have hand-counted values; and
//! transposing a board and its goal together (rows become columns) changes
//! neither estimate.

use crate::common;
use slidedb::BuiltFor;

use slidedb::random::{SplitMix64, random_board};
use slidedb::{Board, Index, Indexer, Shape, Solver};

/// What the exhaustive pass over one shape saw.
#[derive(Debug, Default)]
struct Seen {
    boards: u64,
    max_distance: u32,
    /// Boards at distance 10 or more where Manhattan is exact.
    manhattan_exact_far: u64,
    /// Boards at distance 10 or more where linear conflict is exact.
    conflict_exact_far: u64,
    /// Boards where linear conflict is strictly above Manhattan.
    conflict_above: u64,
}

/// Checks both estimates on every board that reaches `goal`, against the
/// exact distances of the table: `manhattan <= linear_conflict <= d`.
fn check_every_board(goal: &Board) -> Seen {
    let table = common::table(goal.shape());
    assert_eq!(table.goal(), goal);
    // The indexer speaks of boards toward the indexed goal: the same goal
    // here, so its boards are boards toward `goal`.
    assert_eq!(table.indexed_goal(), goal);
    let indexer = table.indexer();
    let solver = Solver::new(goal);
    let mut seen = Seen::default();
    for i in 0..indexer.len() {
        let b = indexer.unrank(Index(i)).unwrap();
        // Distinct boards: every index is visited once and ranks back.
        assert_eq!(indexer.rank(&b), Some(Index(i)));
        let d = table
            .distance(&b)
            .unwrap()
            .unwrap_or_else(|| panic!("{b}: every indexed board reaches the goal"));
        let md = solver.manhattan(&b);
        let lc = solver.linear_conflict(&b);
        assert!(md <= d, "{b}: Manhattan {md} above the distance {d}");
        assert!(lc <= d, "{b}: linear conflict {lc} above the distance {d}");
        assert!(lc >= md, "{b}: linear conflict {lc} below Manhattan {md}");
        seen.boards += 1;
        seen.max_distance = seen.max_distance.max(d);
        if d >= 10 {
            seen.manhattan_exact_far += (md == d) as u64;
            seen.conflict_exact_far += (lc == d) as u64;
        }
        seen.conflict_above += (lc > md) as u64;
    }
    seen
}

/// The checks that make the exhaustive pass mean something: every board
/// seen, the farthest among them, both estimates exact on some board 10
/// or more moves away, linear conflict above Manhattan on some board.
fn assert_not_vacuous(goal: &Board, seen: &Seen, states: u64, god: u32) {
    assert_eq!(seen.boards, states, "{goal}: boards seen");
    assert_eq!(seen.max_distance, god, "{goal}: greatest distance");
    assert!(seen.manhattan_exact_far > 0, "{goal}: {seen:?}");
    assert!(seen.conflict_exact_far > 0, "{goal}: {seen:?}");
    assert!(seen.conflict_above > 0, "{goal}: {seen:?}");
}

#[test]
fn both_estimates_are_admissible_on_every_eight_puzzle_board() {
    let goal: Board = "1 2 3 4 5 6 7 8 0".parse().unwrap();
    assert_eq!(goal, Board::solved(Shape::EIGHT));
    let seen = check_every_board(&goal);
    assert_not_vacuous(&goal, &seen, 181_440, 31);
}

#[test]
fn both_estimates_are_admissible_on_every_two_by_four_board() {
    let goal = Board::solved(Shape::new(2, 4).unwrap());
    let seen = check_every_board(&goal);
    assert_not_vacuous(&goal, &seen, 20_160, 36);
}

/// `(manhattan, linear_conflict)` of `board` toward `goal`.
fn estimates(goal: &str, board: &str) -> (u32, u32) {
    let goal: Board = goal.parse().unwrap();
    let board: Board = board.parse().unwrap();
    assert_eq!(goal.shape(), board.shape());
    let solver = Solver::new(&goal);
    (solver.manhattan(&board), solver.linear_conflict(&board))
}

/// Goal of the hand-made boards below:
///
/// ```text
/// 1 2 3
/// 4 5 6
/// 7 8 .
/// ```
const EIGHT: &str = "1 2 3 4 5 6 7 8 0";

#[test]
fn two_tiles_reversed_in_their_goal_column_cost_two_more() {
    // 4 2 3      Tiles 1 and 4 swapped in column 0: each one row from
    // 1 5 6      home, Manhattan 1 + 1 = 2. Both belong to column 0 and
    // 7 8 .      sit there in reverse order (goal rows 1, 0, then 7's 2):
    // one must leave the column and come back, 2 more moves. Rows: 2 3,
    // 5 6 and 7 8 are in order, 4 and 1 are in other goal rows: nothing.
    // (One swap of two tiles: this board cannot reach the goal, but the
    // estimate is defined all the same.)
    assert_eq!(estimates(EIGHT, "4 2 3 1 5 6 7 8 0"), (2, 2 + 2));
    // 4 5 3      Also 2 and 5 swapped in column 1 (two swaps: this one
    // 1 2 6      is solvable): Manhattan 4, two columns each with one
    // 7 8 .      tile to step aside, 4 + 2 + 2.
    assert_eq!(estimates(EIGHT, "4 5 3 1 2 6 7 8 0"), (4, 4 + 2 + 2));
    // 1 2 3      Tiles 4 and 7 reversed at the bottom of column 0: 7
    // 7 5 6      one row up, 4 one down, Manhattan 2; the column holds
    // 4 8 .      goal rows 0, 2, 1: one tile steps aside, +2.
    assert_eq!(estimates(EIGHT, "1 2 3 7 5 6 4 8 0"), (2, 2 + 2));
}

#[test]
fn three_tiles_reversed_in_their_goal_column_cost_four_more() {
    // 7 2 3      Column 0 holds 7, 4, 1: goal rows 2, 1, 0, reversed.
    // 4 5 6      The longest run in goal order is one tile, so two of
    // 1 8 .      the three must leave (2 × 2 moves), not one per
    // reversed pair (that would be three pairs, 6). Manhattan: 7 and 1
    // two rows from home each, 4 at home: 4. Rows: 2 3 in order, 4 5 6
    // at home, 8 alone in its goal row: nothing.
    assert_eq!(estimates(EIGHT, "7 2 3 4 5 6 1 8 0"), (4, 4 + 4));
    // The same with four tiles on the 15-puzzle: 13, 9, 5, 1 in column 0,
    // goal rows 3, 2, 1, 0. Three must leave: 2 × 3. Manhattan
    // 3 + 1 + 1 + 3 = 8; every row is in goal order.
    assert_eq!(
        estimates(
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
            "13 2 3 4 9 6 7 8 5 10 11 12 1 14 15 0"
        ),
        (8, 8 + 6)
    );
}

#[test]
fn row_and_column_conflicts_add_up() {
    // 2 1 3      Row 0: 2 and 1 reversed, +2. Column 0: 2 belongs to
    // 7 5 6      column 1 and is left out; 7 and 4 hold goal rows 2, 1,
    // 4 8 .      reversed, +2. Manhattan: 2, 1, 7, 4 one step each: 4.
    // (Two swaps: solvable.)
    assert_eq!(estimates(EIGHT, "2 1 3 7 5 6 4 8 0"), (4, 4 + 2 + 2));
    // 7 3 2      Row 0: 3 and 2 reversed (7 belongs to row 2), +2.
    // 4 5 6      Column 0: 7, 4, 1 reversed, +4. Manhattan: 7 and 1 two
    // 1 8 .      each, 3 and 2 one each: 6. Total 6 + 2 + 4.
    assert_eq!(estimates(EIGHT, "7 3 2 4 5 6 1 8 0"), (6, 6 + 2 + 4));
    // 2 x 4: only two rows, so a column conflict is a vertical swap.
    // 5 2 3 4    1 and 5 swapped in column 0: Manhattan 2, +2; row 0 has
    // 1 6 7 .    2 3 4 in order, row 1 has 6 7 in order.
    assert_eq!(
        estimates("1 2 3 4 / 5 6 7 0", "5 2 3 4 / 1 6 7 0"),
        (2, 2 + 2)
    );
}

#[test]
fn only_a_line_s_own_tiles_out_of_goal_order_cost_more() {
    // 0 1 2      The blank walked up the right column and along the top:
    // 4 5 3      every displaced tile is one step from home and no line
    // 7 8 6      holds two of its own tiles out of order, so linear
    // conflict adds nothing, and both equal the distance, 4.
    assert_eq!(estimates(EIGHT, "0 1 2 4 5 3 7 8 6"), (4, 4));
    // 1 2 3      4 and 5 both in row 1 but 5 is in column 0 and 4 in
    // 5 4 6      column 1: reversed in their row (+2), while column 0
    // 7 8 .      holds 1, 5, 7 of which 5 is a stranger: 1 and 7 in order.
    assert_eq!(estimates(EIGHT, "1 2 3 5 4 6 7 8 0"), (2, 2 + 2));
    assert_eq!(estimates(EIGHT, EIGHT), (0, 0));
}

/// `board` transposed: the tile of cell (r, c) moves to cell (c, r) of
/// the C×R shape.
fn transposed(board: &Board) -> Board {
    let shape = board.shape();
    let (rows, cols) = (shape.rows(), shape.cols());
    let mut tiles = vec![0u8; shape.cells()];
    for cell in 0..shape.cells() {
        tiles[cell % cols * rows + cell / cols] = board.tile(cell);
    }
    Board::from_tiles(Shape::new(cols, rows).unwrap(), &tiles).unwrap()
}

/// Estimates toward `goal`, and toward its transpose of the transposed
/// board, for `boards`: equal for both heuristics. Returns how many boards
/// had a transpose different from themselves and an estimate raised by
/// linear conflict, so the caller knows the check bit.
fn check_transposed(goal: &Board, boards: impl Iterator<Item = Board>) -> u64 {
    let turned_goal = transposed(goal);
    assert_ne!(&turned_goal, goal);
    let solver = Solver::new(goal);
    let turned = Solver::new(&turned_goal);
    let mut telling = 0;
    for b in boards {
        let tb = transposed(&b);
        let (md, lc) = (solver.manhattan(&b), solver.linear_conflict(&b));
        assert_eq!(turned.manhattan(&tb), md, "{b}: Manhattan, transposed {tb}");
        assert_eq!(
            turned.linear_conflict(&tb),
            lc,
            "{b}: linear conflict, transposed {tb}"
        );
        telling += (tb != b && lc > md) as u64;
    }
    telling
}

#[test]
fn transposing_board_and_goal_keeps_both_estimates_on_every_eight_puzzle_board() {
    let goal: Board = "1 2 3 4 5 6 7 8 0".parse().unwrap();
    // The transposed goal: 1 4 7 / 2 5 8 / 3 6 .
    assert_eq!(transposed(&goal).to_string(), "1 4 7 2 5 8 3 6 0");
    let indexer = Indexer::new(&goal);
    let boards = (0..indexer.len()).map(|i| indexer.unrank(Index(i)).unwrap());
    assert!(check_transposed(&goal, boards) > 0);
}

#[test]
fn transposing_board_and_goal_keeps_both_estimates_on_two_by_four_boards() {
    // 2x4 onto 4x2: the rows of two cells become columns of two.
    let goal = Board::solved(Shape::new(2, 4).unwrap());
    let indexer = Indexer::new(&goal);
    let boards = (0..indexer.len()).map(|i| indexer.unrank(Index(i)).unwrap());
    assert!(check_transposed(&goal, boards) > 0);
}

#[test]
fn transposing_board_and_goal_keeps_both_estimates_on_random_fifteen_puzzle_boards() {
    let goal = Board::solved(Shape::new(4, 4).unwrap());
    let mut rng = SplitMix64::new(15);
    let mut boards: Vec<Board> = (0..500).map(|_| random_board(&goal, &mut rng)).collect();
    // And the hand-made column of four reversed tiles (whose transpose is
    // a row of four reversed tiles).
    boards.push("13 2 3 4 9 6 7 8 5 10 11 12 1 14 15 0".parse().unwrap());
    assert!(check_transposed(&goal, boards.into_iter()) > 0);
}
