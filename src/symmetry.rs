//! Every goal from a few tables: renaming tiles, and the board's
//! symmetries.
//!
//! Renaming the tiles of a goal and of a board alike changes no move, so a
//! table for one goal answers every goal with the blank in the same cell.
//! A symmetry of the board (a reflection, a rotation of a square, or the
//! transposition that maps R×C onto C×R) carries blank cells onto each
//! other and moves onto moves. So the goals fall into a few classes, one
//! per orbit of blank cells, and one table per class serves them all:
//! three for the 3×3 board (corner, edge, centre), and the 3×4 tables
//! serve 4×3 too.

use crate::board::{Board, MAX_CELLS, Metric, Move, Shape};

/// A symmetry of a board shape onto itself or onto its transpose: flip the
/// rows, flip the columns, then transpose, each or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Symmetry {
    from: Shape,
    flip_rows: bool,
    flip_cols: bool,
    transpose: bool,
}

impl Symmetry {
    /// The eight maps from `shape`: four onto itself, four onto its
    /// transpose (the same shape when square).
    pub fn all(shape: Shape) -> impl Iterator<Item = Symmetry> {
        (0..8u8).map(move |k| Symmetry {
            from: shape,
            flip_rows: k & 1 != 0,
            flip_cols: k & 2 != 0,
            transpose: k & 4 != 0,
        })
    }

    /// The shape it maps onto.
    pub fn to(&self) -> Shape {
        if self.transpose {
            Shape::new(self.from.cols(), self.from.rows()).expect("a transposed shape is a shape")
        } else {
            self.from
        }
    }

    /// Where `cell` of the first shape goes.
    pub fn cell(&self, cell: usize) -> usize {
        let (rows, cols) = (self.from.rows(), self.from.cols());
        let (mut r, mut c) = (cell / cols, cell % cols);
        if self.flip_rows {
            r = rows - 1 - r;
        }
        if self.flip_cols {
            c = cols - 1 - c;
        }
        if self.transpose {
            c * rows + r
        } else {
            r * cols + c
        }
    }

    /// The board with every tile moved to its cell's image.
    pub fn board(&self, board: &Board) -> Board {
        let mut tiles = [0u8; MAX_CELLS];
        for cell in 0..self.from.cells() {
            tiles[self.cell(cell)] = board.tile(cell);
        }
        Board::from_tiles(self.to(), &tiles[..self.from.cells()]).expect("a moved board is a board")
    }

    /// The move that is the image of `mv`.
    pub fn moves(&self, mv: Move) -> Move {
        let mut m = mv;
        if self.flip_rows {
            m = match m {
                Move::Up => Move::Down,
                Move::Down => Move::Up,
                other => other,
            };
        }
        if self.flip_cols {
            m = match m {
                Move::Left => Move::Right,
                Move::Right => Move::Left,
                other => other,
            };
        }
        if self.transpose {
            m = match m {
                Move::Up => Move::Left,
                Move::Left => Move::Up,
                Move::Down => Move::Right,
                Move::Right => Move::Down,
            };
        }
        m
    }

    /// The symmetry that undoes this one.
    pub fn inverse(&self) -> Symmetry {
        Symmetry::all(self.to())
            .find(|s| (0..self.from.cells()).all(|c| s.cell(self.cell(c)) == c))
            .expect("every symmetry has an inverse")
    }
}

/// A symmetry of a goal: a symmetry of the board onto itself that keeps
/// the goal's blank in place, with the renaming of tiles that keeps the
/// goal (tile `t` becomes the tile whose goal cell is the image of `t`'s).
/// A board and its image under `cell` and `rename` are equally far from
/// the goal, and a pattern of tiles and its renamed image have the same
/// distances, read through `cell`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GoalSymmetry {
    /// `cell[c]`: the cell that cell `c` goes to.
    pub cell: [u8; MAX_CELLS],
    /// `rename[t]`: the name tile `t` takes in the image.
    pub rename: [u8; MAX_CELLS],
}

impl GoalSymmetry {
    /// Every symmetry of `goal`, the identity first: one to eight of them
    /// (two for a square board's corner blank, one for most blanks of a
    /// rectangle's).
    pub fn all(goal: &Board) -> impl Iterator<Item = GoalSymmetry> + '_ {
        let shape = goal.shape();
        let n = shape.cells();
        let mut home = [0usize; MAX_CELLS];
        for c in 0..n {
            home[goal.tile(c) as usize] = c;
        }
        Symmetry::all(shape)
            .filter(move |s| s.to() == shape && s.cell(goal.blank()) == goal.blank())
            .map(move |s| {
                // Cells and tiles past the board's stay as they are.
                let mut turn = GoalSymmetry {
                    cell: std::array::from_fn(|c| c as u8),
                    rename: std::array::from_fn(|t| t as u8),
                };
                for (c, to) in turn.cell[..n].iter_mut().enumerate() {
                    *to = s.cell(c) as u8;
                }
                for (name, &at) in turn.rename[..n].iter_mut().zip(&home[..n]) {
                    *name = goal.tile(s.cell(at));
                }
                turn
            })
    }

    /// Whether it moves no cell.
    pub fn is_identity(&self) -> bool {
        self.cell
            .iter()
            .enumerate()
            .all(|(c, &to)| c == to as usize)
    }
}

/// A file built for one goal that answers toward every goal of the goal's
/// class: a full [`Table`](crate::Table) or
/// [`PatternDb`](crate::pdb::PatternDb). One set of goal accessors for
/// both; bring it into scope to call them (`use slidedb::BuiltFor`).
///
/// ```
/// use slidedb::{Board, BuiltFor, Shape, generate, pdb};
/// let korf: Board = "0 1 2 3 4 5 6 7 8".parse().unwrap();
/// let table = generate(&korf, |_| {}).unwrap();
/// assert_eq!((table.shape(), table.goal()), (Shape::EIGHT, &korf));
/// // Laid out by its class's canonical goal, which the class maps onto.
/// assert_eq!(table.indexed_goal().to_string(), "1 2 3 4 5 6 7 8 0");
/// assert!(!table.class().is_canonical());
/// // Another corner goal is of the class; the centre is not.
/// assert!(table.serves(&Board::solved(Shape::EIGHT)));
/// assert!(!table.serves(&"1 2 3 4 0 5 6 7 8".parse().unwrap()));
/// // Pattern databases say the same of themselves.
/// let db = pdb::build(&korf, &pdb::Partition::standard(&korf, "4-4").unwrap(), |_| {}).unwrap();
/// assert_eq!(db.goal(), &korf);
/// assert!(db.serves(&Board::solved(Shape::EIGHT)));
/// ```
pub trait BuiltFor {
    /// How the goal it was built for maps onto its indexed goal.
    fn class(&self) -> &GoalClass;

    /// The board size: the goal's.
    fn shape(&self) -> Shape {
        self.class().goal().shape()
    }

    /// The goal it was built for: its own queries answer toward it.
    fn goal(&self) -> &Board {
        self.class().goal()
    }

    /// The goal its body is laid out by: the canonical goal of the goal's
    /// class. Indexes, placements and residues speak of boards toward it.
    fn indexed_goal(&self) -> &Board {
        self.class().canonical()
    }

    /// The metric its distances are in (the single-tile metric unless it
    /// says otherwise): a file built for one metric never answers in the
    /// other.
    fn metric(&self) -> Metric {
        Metric::Single
    }

    /// Whether it can answer toward `goal`: whether `goal` is of its class.
    fn serves(&self, goal: &Board) -> bool {
        GoalClass::of(goal).canonical() == self.class().canonical()
    }
}

/// How a goal maps onto its class's table: a symmetry, then a renaming of
/// the tiles, so that the goal becomes the class's canonical goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoalClass {
    goal: Board,
    canonical: Board,
    symmetry: Symmetry,
    /// `rename[t]`: the canonical tile of tile `t` (after the symmetry).
    rename: [u8; MAX_CELLS],
}

impl GoalClass {
    /// The class of `goal`. Its canonical goal has the tiles in order with
    /// the blank in one cell of the orbit, on the shape with no more rows
    /// than columns, the blank in the last cell of its orbit: for the
    /// default goals of 3×3 and 3×4 the canonical goal is the goal itself.
    ///
    /// ```
    /// use slidedb::{Board, symmetry::GoalClass};
    /// let class = GoalClass::of(&"0 1 2 3 4 5 6 7 8".parse().unwrap());
    /// assert_eq!(class.canonical().to_string(), "1 2 3 4 5 6 7 8 0");
    /// let centre = GoalClass::of(&"8 7 6 5 0 4 3 2 1".parse().unwrap());
    /// assert_eq!(centre.canonical().to_string(), "1 2 3 4 0 5 6 7 8");
    /// ```
    pub fn of(goal: &Board) -> GoalClass {
        let shape = goal.shape();
        let symmetry = Symmetry::all(shape)
            .max_by_key(|s| {
                let to = s.to();
                (
                    to.rows() <= to.cols(),
                    s.cell(goal.blank()),
                    s.is_identity(),
                )
            })
            .expect("there are eight symmetries");
        let to = symmetry.to();
        let blank = symmetry.cell(goal.blank());
        let mut tiles = [0u8; MAX_CELLS];
        let mut next = 1;
        for (cell, slot) in tiles.iter_mut().enumerate().take(to.cells()) {
            if cell != blank {
                *slot = next;
                next += 1;
            }
        }
        let canonical = Board::from_tiles(to, &tiles[..to.cells()]).expect("tiles in order");
        let moved = symmetry.board(goal);
        let mut rename = [0u8; MAX_CELLS];
        for cell in 0..to.cells() {
            rename[moved.tile(cell) as usize] = canonical.tile(cell);
        }
        GoalClass {
            goal: *goal,
            canonical,
            symmetry,
            rename,
        }
    }

    /// The goal this class was made for.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The goal of the class's table.
    pub fn canonical(&self) -> &Board {
        &self.canonical
    }

    /// Whether the goal is its class's canonical goal (no mapping at all).
    pub fn is_canonical(&self) -> bool {
        self.goal == self.canonical
    }

    /// `board` (toward the goal) as a board toward the canonical goal.
    ///
    /// ```
    /// use slidedb::{Board, symmetry::GoalClass};
    /// let class = GoalClass::of(&"0 1 2 3 4 5 6 7 8".parse().unwrap());
    /// assert_eq!(class.to_canonical(class.goal()), *class.canonical());
    /// ```
    pub fn to_canonical(&self, board: &Board) -> Board {
        let moved = self.symmetry.board(board);
        let to = moved.shape();
        let mut tiles = [0u8; MAX_CELLS];
        for (cell, slot) in tiles.iter_mut().enumerate().take(to.cells()) {
            *slot = self.rename[moved.tile(cell) as usize];
        }
        Board::from_tiles(to, &tiles[..to.cells()]).expect("a renamed board is a board")
    }

    /// A board toward the canonical goal, back as a board toward the goal.
    pub fn from_canonical(&self, board: &Board) -> Board {
        let mut back = [0u8; MAX_CELLS];
        for (t, &r) in self.rename.iter().enumerate().take(board.shape().cells()) {
            back[r as usize] = t as u8;
        }
        let to = board.shape();
        let mut tiles = [0u8; MAX_CELLS];
        for (cell, slot) in tiles.iter_mut().enumerate().take(to.cells()) {
            *slot = back[board.tile(cell) as usize];
        }
        let renamed =
            Board::from_tiles(to, &tiles[..to.cells()]).expect("a renamed board is a board");
        self.symmetry.inverse().board(&renamed)
    }

    /// What tile `tile` of the goal is called in the canonical goal (both
    /// sit in the same cell once the symmetry has moved the board); `None`
    /// for a number that is no tile of the board.
    pub(crate) fn canonical_tile(&self, tile: u8) -> Option<u8> {
        ((tile as usize) < self.goal.shape().cells()).then(|| self.rename[tile as usize])
    }

    /// The tile of the goal that the canonical goal calls `tile` (the
    /// canonical goal is the goal turned and its tiles renamed); `None` for
    /// a number that is no tile of the board.
    ///
    /// ```
    /// use slidedb::symmetry::GoalClass;
    /// let class = GoalClass::of(&"0 1 2 3 4 5 6 7 8".parse().unwrap());
    /// // Each tile of the canonical goal names one of the goal's; the
    /// // blank is the blank.
    /// let mut named: Vec<u8> = (0..9).map(|t| class.goal_tile(t).unwrap()).collect();
    /// assert_eq!(named[0], 0);
    /// named.sort();
    /// assert_eq!(named, (0..9).collect::<Vec<u8>>());
    /// assert_eq!(class.goal_tile(40), None);
    /// ```
    pub fn goal_tile(&self, tile: u8) -> Option<u8> {
        let n = self.goal.shape().cells();
        (0..n as u8).find(|&t| self.rename[t as usize] == tile)
    }

    /// Moves found toward the canonical goal, as moves toward the goal.
    pub(crate) fn moves_back(&self, moves: &mut [Move]) {
        let back = self.symmetry.inverse();
        for m in moves {
            *m = back.moves(*m);
        }
    }
}

impl Board {
    /// The canonical goal of this goal's class ([`GoalClass::canonical`]):
    /// the goal a class's files in the data folder are built for and named
    /// by, so that one file serves every goal of the class.
    ///
    /// ```
    /// use slidedb::Board;
    /// let blank_first: Board = "0 1 2 3 4 5 6 7 8".parse().unwrap();
    /// assert_eq!(blank_first.canonical_goal().to_string(), "1 2 3 4 5 6 7 8 0");
    /// let tall: Board = "1 2 / 3 4 / 5 0".parse().unwrap(); // 3x2
    /// assert_eq!(tall.canonical_goal().shape().to_string(), "2x3");
    /// ```
    pub fn canonical_goal(&self) -> Board {
        *GoalClass::of(self).canonical()
    }
}

impl Symmetry {
    fn is_identity(&self) -> bool {
        !self.flip_rows && !self.flip_cols && !self.transpose
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_symmetry_flips_both_then_transposes() {
        let turn = Symmetry::all(Shape::new(2, 3).unwrap()).last().unwrap();
        assert_eq!(turn.to().to_string(), "3x2");
        assert_eq!(turn.cell(0), 5); // top left to bottom right
    }

    #[test]
    fn canonical_tiles_and_moves_back() {
        let class = GoalClass::of(&"0 1 2 3 4 5 6 7 8".parse().unwrap());
        assert_eq!(class.canonical_tile(0), Some(0)); // the blank stays the blank
        assert_eq!(class.canonical_tile(9), None);
        let moved = class.to_canonical(class.goal()); // = the canonical goal
        assert_eq!(class.from_canonical(&moved), *class.goal());
        assert_ne!(class.canonical_tile(1), Some(1)); // renamed: the goal is turned
        for t in 0..9 {
            assert_eq!(class.goal_tile(class.canonical_tile(t).unwrap()), Some(t));
        }
        // A board one move from the canonical goal, and the same board
        // toward the goal: the move back is the move seen through the
        // symmetry.
        let near = class.canonical().apply(Move::Left).unwrap();
        let board = class.from_canonical(&near);
        let mut moves = [Move::Right];
        class.moves_back(&mut moves);
        assert_eq!(board.apply_all(&moves), Some(*class.goal()));
    }

    #[test]
    fn symmetries_move_moves_with_the_blank() {
        for shape in [
            Shape::new(2, 3).unwrap(),
            Shape::EIGHT,
            Shape::new(3, 4).unwrap(),
        ] {
            let goal = Board::solved(shape);
            for s in Symmetry::all(shape) {
                let moved = s.board(&goal);
                assert_eq!(s.inverse().board(&moved), goal);
                for mv in Move::ALL {
                    if let Some(after) = goal.apply(mv) {
                        assert_eq!(
                            moved.apply(s.moves(mv)),
                            Some(s.board(&after)),
                            "{s:?} {mv:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn goal_symmetries_keep_the_goal_and_its_blank() {
        let corner: Board = "0 1 2 3 4 5 6 7 8".parse().unwrap();
        let edge: Board = "1 0 2 3 4 5 6 7 8".parse().unwrap();
        let centre: Board = "1 2 3 4 0 5 6 7 8".parse().unwrap();
        let wide = Board::solved(Shape::new(3, 4).unwrap());
        for (goal, count) in [(corner, 2), (edge, 2), (centre, 8), (wide, 1)] {
            let turns: Vec<GoalSymmetry> = GoalSymmetry::all(&goal).collect();
            assert_eq!(turns.len(), count, "{goal}");
            assert!(turns[0].is_identity());
            assert!(turns[1..].iter().all(|t| !t.is_identity()));
            for turn in turns {
                let n = goal.shape().cells();
                // The goal moved and renamed is the goal.
                let mut image = [0u8; MAX_CELLS];
                for c in 0..n {
                    image[turn.cell[c] as usize] = turn.rename[goal.tile(c) as usize];
                }
                assert!(image[..n].iter().copied().eq(goal.tiles()), "{goal}");
            }
        }
    }

    #[test]
    fn three_by_three_has_three_classes_and_three_by_four_serves_four_by_three() {
        let mut canon = std::collections::HashSet::new();
        for blank in 0..9 {
            let mut tiles: Vec<u8> = (1..9).collect();
            tiles.insert(blank, 0);
            canon.insert(
                *GoalClass::of(&Board::from_tiles(Shape::EIGHT, &tiles).unwrap()).canonical(),
            );
        }
        assert_eq!(canon.len(), 3);
        let tall = GoalClass::of(&Board::solved(Shape::new(4, 3).unwrap()));
        assert_eq!(tall.canonical().shape(), Shape::new(3, 4).unwrap());
        assert!(GoalClass::of(&Board::solved(Shape::new(3, 4).unwrap())).is_canonical());
    }
}
