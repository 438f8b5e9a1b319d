//! What every front end asks (`slidedb::request`), checked once here: the
//! order of the checks, their messages, and random draws. The command
//! line, the server and Python each test that they say the same.

use slidedb::request::{
    Distance, Distances, RandomBoards, RequestError, echo, goal_for, parse_goal, parse_size,
    read_line, split_lines,
};
use slidedb::{Board, Database, Shape};

fn eight() -> Board {
    Board::solved(Shape::EIGHT)
}

fn moves(d: u32) -> Option<Distance> {
    Some(Distance::Moves(d))
}

#[test]
fn distances_are_checked_in_one_order_with_one_message_each() {
    let goal = eight();
    let both = Distances {
        exact: moves(5),
        least: moves(3),
        greatest: None,
    };
    assert!(matches!(
        both.range(&goal, 31),
        Err(RequestError::DistanceAndRange)
    ));
    // An empty range is said before a distance past the farthest boards.
    let empty = Distances::between(moves(40), moves(35));
    assert_eq!(
        empty.range(&goal, 31).unwrap_err().to_string(),
        "the least distance 40 is more than the greatest 35: no distance lies between"
    );
    let far = Distances::between(moves(40), None);
    assert_eq!(
        far.range(&goal, 31).unwrap_err().to_string(),
        "no 3x3 board is 40 moves from goal 1 2 3 4 5 6 7 8 0: the farthest are 31 moves away"
    );
    let max_below = Distances::between(moves(32), Some(Distance::Max));
    assert!(matches!(
        max_below.range(&goal, 31),
        Err(RequestError::EmptyRange { .. })
    ));
    // A greatest end past the farthest boards is the farthest.
    let wide = Distances::between(moves(29), Some("99999999999".parse().unwrap()));
    assert_eq!(wide.range(&goal, 31).unwrap(), 29..=31);
    let beyond = Distances::exactly("4294967296".parse().unwrap());
    assert_eq!(
        beyond.range(&goal, 31).unwrap_err().to_string(),
        "no 3x3 board is 4294967296 moves from goal 1 2 3 4 5 6 7 8 0: the farthest are 31 moves away"
    );
    assert_eq!(
        Distances::exactly(Distance::Max).range(&goal, 31).unwrap(),
        31..=31
    );
    assert_eq!(
        "far".parse::<Distance>().unwrap_err().to_string(),
        "bad distance \"far\": a number of moves, or max"
    );
    assert!("-1".parse::<Distance>().is_err());
}

#[test]
fn sizes_goals_and_the_goal_a_board_is_asked_toward() {
    assert_eq!(parse_size("2x4").unwrap(), Shape::new(2, 4).unwrap());
    assert!(
        parse_size("2y4")
            .unwrap_err()
            .to_string()
            .starts_with("bad size")
    );
    let goal = parse_goal("0 1 2 3 4 5 6 7 8", None).unwrap();
    assert_eq!(goal.shape(), Shape::EIGHT);
    let error = parse_goal("1 2 3", Some(Shape::EIGHT)).unwrap_err();
    assert!(
        error.to_string().starts_with("bad goal \"1 2 3\": "),
        "{error}"
    );
    // The message says all; it has no source to repeat it.
    assert!(std::error::Error::source(&error).is_none());
    let db = Database::in_memory().open().unwrap();
    assert_eq!(goal_for(&db, Shape::EIGHT, Some(goal)).unwrap(), goal);
    assert_eq!(goal_for(&db, Shape::EIGHT, None).unwrap(), eight());
    assert_eq!(
        goal_for(&db, Shape::new(2, 3).unwrap(), Some(goal))
            .unwrap_err()
            .to_string(),
        "the board is 2x3 but the goal is 3x3"
    );
}

#[test]
fn random_boards_are_at_their_distances_and_the_same_for_a_seed() {
    let db = Database::in_memory().open().unwrap();
    let goal = eight();
    let table = db.table(&goal).unwrap();
    let range = Distances::between(moves(10), moves(12));
    let draw = |seed| -> Vec<(Board, Option<u32>)> {
        RandomBoards::new(&db, &goal, &range, seed, false)
            .unwrap()
            .take(20)
            .collect::<Result<_, _>>()
            .unwrap()
    };
    let boards = draw(1);
    assert_eq!(boards, draw(1));
    assert_ne!(boards, draw(2));
    for (board, distance) in &boards {
        let d = table.distance(board).unwrap().unwrap();
        assert!((10..=12).contains(&d));
        assert_eq!(*distance, Some(d));
    }
    // Among all boards: the distance only when asked for.
    let all = Distances::default();
    let with = RandomBoards::new(&db, &goal, &all, 3, true).unwrap();
    for drawn in with.take(10) {
        let (board, distance) = drawn.unwrap();
        assert_eq!(distance, table.distance(&board).unwrap());
    }
    let without = RandomBoards::new(&db, &goal, &all, 3, false).unwrap();
    assert!(without.take(10).all(|d| d.unwrap().1.is_none()));
    // A distance needs the full table; a 4x4 one cannot be had here.
    let fifteen = Board::solved(Shape::new(4, 4).unwrap());
    let error = RandomBoards::new(&db, &fifteen, &range, 1, false).unwrap_err();
    assert!(error.to_string().contains("needs a full table"), "{error}");
}

#[test]
fn the_lines_of_a_batch() {
    assert_eq!(split_lines(b"1\n2\r\n\n3").len(), 4);
    assert_eq!(split_lines(b"").len(), 0);
    let long = vec![b'1'; slidedb::request::MAX_LINE + 1];
    assert_eq!(
        read_line(&long, false, None).unwrap_err().to_string(),
        format!(
            "the line is longer than {} bytes",
            slidedb::request::MAX_LINE
        )
    );
    assert_eq!(echo(&long).len(), slidedb::request::PREVIEW);
    assert_eq!(
        read_line(b"\xff", false, None).unwrap_err().to_string(),
        "the line is not UTF-8 text"
    );
    assert_eq!(
        read_line(b"2 3 4 1 5 x 7 6 8\r", false, None).unwrap(),
        "2 3 4 1 5 0 7 6 8".parse::<Board>().unwrap()
    );
    assert!(read_line(b"1 2 3", true, None).is_err());
}

/// A line of one character a cell (split by single spaces or not at all)
/// is read by a shortcut: it answers as `Board::parse` does, board for
/// board and error for error, whatever the size in force.
#[test]
fn plain_lines_read_as_the_parser_reads_them() {
    let two_by_three = Shape::new(2, 3).unwrap();
    let mut lines: Vec<String> = Vec::new();
    // Every 3x3 board of a sample, in both plain forms and with each blank mark.
    let indexer = slidedb::Indexer::new(&eight());
    for i in (0..indexer.len()).step_by(997) {
        let board = indexer.unrank(slidedb::Index(i)).unwrap();
        let cells: Vec<String> = board.tiles().map(|t| t.to_string()).collect();
        lines.push(cells.join(" "));
        lines.push(cells.concat());
        for mark in ["x", "X", "_", "."] {
            lines.push(cells.join(" ").replace('0', mark));
        }
    }
    // Lines in those forms that are not boards, or not of the size.
    for text in [
        "1 2 3 4 5 6 7 8 9",
        "1 2 3 4 5 6 7 7 0",
        "1 2 3 4 5 6 7 8 8",
        "1 2 3 4 5 6 7 0 0",
        "1 2 3 4 5 6 7 8",
        "12345678",
        "1234567890",
        "123450",
        "1 2 3 4 5 0",
        "1230",
        "1 2 3 0",
        "0",
        "",
        "1 2 3 4 5 6 7 8 0 ",
        " 1 2 3 4 5 6 7 8 0",
        "1  2 3 4 5 6 7 8 0",
        "1 2 3 4 5 6 7 8 y",
        "1\t2 3 4 5 6 7 8 0",
        "x x 1 2 3 4 5 6 7",
        "1 2 3 4 5 6 7 8 0 1 2 3 4 5 6 7 8 0 1 2 3 4 5 6 7 8",
    ] {
        lines.push(text.to_string());
    }
    for line in &lines {
        for size in [None, Some(Shape::EIGHT), Some(two_by_three)] {
            let read = read_line(line.as_bytes(), false, size).map_err(|e| e.to_string());
            let parsed = Board::parse(line, size).map_err(|e| e.to_string());
            assert_eq!(read, parsed, "{line:?} at {size:?}");
        }
    }
}
