//! Arbitrary text through `Board::parse` (with no size and with several)
//! and `Shape::from_str`; every board read must be a valid one that reads
//! back the same.

#![no_main]

use libfuzzer_sys::fuzz_target;
use slidedb::{Board, Indexer, MAX_TABLE_CELLS, Move, Shape};

const SHAPES: [(usize, usize); 7] = [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 4), (3, 5)];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(board) = Board::parse(text, None) {
        check_board(&board);
    }
    for (rows, cols) in SHAPES {
        let shape = Shape::new(rows, cols).expect("a valid shape");
        if let Ok(board) = Board::parse(text, Some(shape)) {
            assert_eq!(board.shape(), shape, "{text:?}");
            check_board(&board);
        }
    }
    if let Ok(shape) = text.parse::<Shape>() {
        assert!(shape.rows() >= 2 && shape.cols() >= 2, "{text:?}");
        assert!(shape.cells() <= slidedb::MAX_CELLS, "{text:?}");
        assert_eq!(shape.to_string().parse::<Shape>(), Ok(shape));
        assert_eq!(Shape::new(shape.rows(), shape.cols()), Ok(shape));
    }
});

fn check_board(board: &Board) {
    let shape = board.shape();
    let n = shape.cells();
    let tiles: Vec<u8> = board.tiles().collect();
    assert_eq!(tiles.len(), n);
    assert_eq!(tiles.iter().filter(|&&t| t == 0).count(), 1, "{board:?}");
    let mut seen = vec![false; n];
    for &t in &tiles {
        assert!((t as usize) < n, "{board:?}");
        assert!(!seen[t as usize], "{board:?}");
        seen[t as usize] = true;
    }
    assert_eq!(board.tile(board.blank()), 0);
    assert_eq!(Board::from_tiles(shape, &tiles), Ok(*board));
    // Display and grid both read back given the shape.
    assert_eq!(Board::parse(&board.to_string(), Some(shape)), Ok(*board));
    let grid = board.grid().replace('.', "0");
    assert_eq!(Board::parse(&grid, Some(shape)), Ok(*board), "{grid:?}");
    // Moves keep the parity and undo.
    for mv in Move::ALL {
        if let Some(next) = board.apply(mv) {
            assert_eq!(next.parity(), board.parity());
            assert_eq!(next.apply(mv.inverse()), Some(*board));
        }
    }
    // The index of the table sizes is a bijection.
    if n <= MAX_TABLE_CELLS {
        let indexer = Indexer::new(board);
        let index = indexer.rank(board).expect("a board ranks in its own class");
        assert!(index.0 < indexer.len());
        assert_eq!(indexer.unrank(index), Some(*board));
    }
}
