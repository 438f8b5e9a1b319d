//! Boards of 17 to 25 cells (5x5, 4x5, 3x6 … 2x12 and their transposes)
//! parse in every written form, tell reachable from unreachable, move and
//! rank like the smaller ones: each checked against a plain reference on
//! a `Vec` of cells that shares no code with `Board`.

use slidedb::random::SplitMix64;
use slidedb::rank::{board_rank, board_unrank};
use slidedb::{Board, Indexer, MAX_CELLS, Move, Shape};

/// Every shape with both sides at least 2 and 17 to 25 cells.
fn large_shapes() -> Vec<Shape> {
    let mut shapes = Vec::new();
    for rows in 2..=12 {
        for cols in 2..=12 {
            if (17..=MAX_CELLS).contains(&(rows * cols)) {
                shapes.push(Shape::new(rows, cols).unwrap());
            }
        }
    }
    shapes
}

/// A uniformly shuffled arrangement of `0 .. cells`.
fn shuffled(cells: usize, rng: &mut SplitMix64) -> Vec<u8> {
    let mut v: Vec<u8> = (0..cells as u8).collect();
    for i in (1..cells).rev() {
        v.swap(i, rng.below(i as u64 + 1) as usize);
    }
    v
}

/// The reference solvability test: two arrangements reach each other
/// exactly when the permutation taking one to the other (blank included)
/// has the parity of the blank's taxicab distance between them.
fn reference_reachable(a: &[u8], b: &[u8], cols: usize) -> bool {
    let n = a.len();
    // The permutation: the cell in `b` of the value in each cell of `a`.
    let mut at = vec![0usize; n];
    for (cell, &v) in b.iter().enumerate() {
        at[v as usize] = cell;
    }
    let perm: Vec<usize> = a.iter().map(|&v| at[v as usize]).collect();
    let mut seen = vec![false; n];
    let mut transpositions = 0;
    for start in 0..n {
        let mut len = 0;
        let mut i = start;
        while !seen[i] {
            seen[i] = true;
            i = perm[i];
            len += 1;
        }
        transpositions += len.max(1) - 1;
    }
    let blank = |v: &[u8]| v.iter().position(|&t| t == 0).unwrap();
    let (p, q) = (blank(a), blank(b));
    let taxicab = (p / cols).abs_diff(q / cols) + (p % cols).abs_diff(q % cols);
    transpositions % 2 == taxicab % 2
}

/// The reference move: the blank steps `mv` if it stays on the board.
fn reference_move(cells: &mut [u8], rows: usize, cols: usize, mv: Move) -> bool {
    let b = cells.iter().position(|&t| t == 0).unwrap();
    let (r, c) = (b / cols, b % cols);
    let to = match mv {
        Move::Up if r > 0 => b - cols,
        Move::Down if r + 1 < rows => b + cols,
        Move::Left if c > 0 => b - 1,
        Move::Right if c + 1 < cols => b + 1,
        _ => return false,
    };
    cells.swap(b, to);
    true
}

/// The written forms of an arrangement: spaces, commas, rows split by
/// `/`, and the blank as each of its marks.
fn written(cells: &[u8], cols: usize) -> Vec<(String, bool)> {
    let word = |t: u8, blank: &str| {
        if t == 0 {
            blank.to_string()
        } else {
            t.to_string()
        }
    };
    let mut forms = Vec::new();
    for blank in ["0", "x", "_", "."] {
        let words: Vec<String> = cells.iter().map(|&t| word(t, blank)).collect();
        forms.push((words.join(" "), false));
        forms.push((words.join(","), false));
        let rows: Vec<String> = words.chunks(cols).map(|row| row.join(" ")).collect();
        // Rows split by `/` say the shape themselves.
        forms.push((rows.join(" / "), true));
    }
    forms
}

#[test]
fn every_large_shape_parses_in_every_form_and_prints_back() {
    let mut rng = SplitMix64::new(25);
    for shape in large_shapes() {
        let (rows, cols) = (shape.rows(), shape.cols());
        for _ in 0..20 {
            let cells = shuffled(rows * cols, &mut rng);
            for (text, self_sized) in written(&cells, cols) {
                let board = Board::parse(&text, Some(shape)).unwrap();
                assert_eq!(board.tiles().collect::<Vec<u8>>(), cells, "{text}");
                assert_eq!(board.shape(), shape);
                assert_eq!(board.blank(), cells.iter().position(|&t| t == 0).unwrap());
                if self_sized || rows == cols {
                    assert_eq!(Board::parse(&text, None).unwrap(), board, "{text}");
                }
                // What it prints reads back, as text and as a grid.
                assert_eq!(Board::parse(&board.to_string(), Some(shape)), Ok(board));
                let grid = board.grid().replace('\n', " / ");
                let grid = grid.trim_end_matches(" / ");
                assert_eq!(Board::parse(grid, None), Ok(board), "{grid}");
            }
        }
    }
    // 25 cells without a size is 5x5; 20 could be 4x5 or 5x4 (or 2x10…).
    let cells: Vec<String> = (1..25).map(|t| t.to_string()).chain(["0".into()]).collect();
    assert_eq!(
        Board::parse(&cells.join(" "), None).unwrap().shape(),
        Shape::new(5, 5).unwrap()
    );
    let twenty: Vec<String> = (0..20).map(|t| t.to_string()).collect();
    assert!(Board::parse(&twenty.join(" "), None).is_err());
    // 26 cells make no board; a 6x5 is refused by name.
    let many: Vec<String> = (0..26).map(|t| t.to_string()).collect();
    assert!(Board::parse(&many.join(" "), None).is_err());
    assert!(Shape::new(6, 5).is_err());
    assert!("5x6".parse::<Shape>().is_err());
}

#[test]
fn reachability_agrees_with_the_permutation_rule() {
    let mut rng = SplitMix64::new(17);
    for shape in large_shapes() {
        let n = shape.cells();
        let (mut yes, mut no) = (0, 0);
        for _ in 0..400 {
            let a = shuffled(n, &mut rng);
            let b = shuffled(n, &mut rng);
            let want = reference_reachable(&a, &b, shape.cols());
            let (x, y) = (
                Board::from_tiles(shape, &a).unwrap(),
                Board::from_tiles(shape, &b).unwrap(),
            );
            assert_eq!(x.can_reach(&y), want, "{shape}: {x} → {y}");
            if want { yes += 1 } else { no += 1 }
        }
        // Both answers come up: the test can fail either way.
        assert!(yes > 100 && no > 100, "{shape}: {yes} reachable, {no} not");
    }
}

#[test]
fn moves_agree_with_the_reference_along_long_walks() {
    let mut rng = SplitMix64::new(5);
    for shape in large_shapes() {
        let (rows, cols) = (shape.rows(), shape.cols());
        let mut cells = shuffled(rows * cols, &mut rng);
        let mut board = Board::from_tiles(shape, &cells).unwrap();
        let parity = board.parity();
        for _ in 0..2000 {
            let mv = Move::ALL[rng.below(4) as usize];
            let moved = reference_move(&mut cells, rows, cols, mv);
            match board.apply(mv) {
                Some(next) => {
                    assert!(moved, "{shape}: {board} moved {mv:?} off the board");
                    board = next;
                }
                None => assert!(!moved, "{shape}: {board} refused {mv:?}"),
            }
            assert_eq!(board.tiles().collect::<Vec<u8>>(), cells);
            assert_eq!(board.parity(), parity, "moves keep the parity");
        }
    }
}

#[test]
fn ranks_of_every_size_are_one_to_one_and_agree_with_the_index() {
    let mut rng = SplitMix64::new(3);
    for shape in large_shapes() {
        let n = shape.cells();
        for _ in 0..500 {
            let board = Board::from_tiles(shape, &shuffled(n, &mut rng)).unwrap();
            let rank = board_rank(&board);
            assert!(rank < shape.states(), "{board}");
            assert_eq!(board_unrank(shape, board.parity(), rank), Some(board));
            // And from ranks: any rank below the count is a board.
            let r = (rng.next_u64() as u128) << 64 | rng.next_u64() as u128;
            let r = r % shape.states();
            let b = board_unrank(shape, board.parity(), r).unwrap();
            assert_eq!((board_rank(&b), b.parity()), (r, board.parity()));
        }
        assert_eq!(board_unrank(shape, 0, shape.states()), None);
    }
    // Where the table's index applies, the two are the same number.
    for (rows, cols) in [(2, 2), (3, 3), (2, 5), (3, 4), (4, 4), (2, 8)] {
        let shape = Shape::new(rows, cols).unwrap();
        for parity in 0..2 {
            // Any board of the parity names its class: the first by rank.
            let indexer = Indexer::new(&board_unrank(shape, parity, 0).unwrap());
            for _ in 0..500 {
                let i = rng.below(indexer.len());
                let board = indexer.unrank(slidedb::Index(i)).unwrap();
                assert_eq!(board_rank(&board), i as u128, "{board}");
            }
        }
    }
}
