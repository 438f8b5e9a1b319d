//! The classic searches in the multi-tile metric (`Solver::with_metric`):
//! every algorithm's path reaches the goal, the optimal ones in exactly
//! the multi-tile table's distance under every heuristic, and the check
//! of a search against a table counts moves in the table's metric.

use slidedb::random::{SplitMix64, random_board};
use slidedb::table::generate_in;
use slidedb::verify::check_search_with;
use slidedb::{Algorithm, Board, BuiltFor, Heuristic, Metric, Move, Shape, SolveError, Solver};

use crate::common::leads_to;

/// Solves `board` with every algorithm and heuristic in the multi-tile
/// metric and checks each answer against `table`'s distance: the path
/// reaches the goal, no two of its moves in a row run along one axis
/// (each run of one letter is a move), and the optimal algorithms take
/// exactly the table's distance (DFS at least it).
fn check_every_search(table: &slidedb::Table<Vec<u8>>, solver: &Solver, board: &Board) {
    let want = table.distance(board).unwrap();
    for algorithm in Algorithm::ALL {
        let heuristics: &[Heuristic] = match algorithm {
            Algorithm::AStar | Algorithm::IdaStar => &Heuristic::ALL,
            _ => &[Heuristic::Manhattan],
        };
        for &heuristic in heuristics {
            let found = solver.solve(board, algorithm, heuristic).unwrap();
            let what = format!("{board} by {algorithm} with {heuristic}");
            assert_eq!(found.metric, Metric::Multi, "{what}");
            let Some(moves) = found.moves.as_deref() else {
                assert_eq!(want, None, "{what}: no path, the table has one");
                continue;
            };
            assert!(leads_to(board, moves, table.goal()), "{what}");
            let slides = found.slides().unwrap();
            assert_eq!(Some(slides.len() as u32), found.distance(), "{what}");
            let axis = |m: Move| matches!(m, Move::Up | Move::Down);
            assert!(
                slides.windows(2).all(|w| axis(w[0].mv) != axis(w[1].mv)),
                "{what}: two moves in a row along one axis: {slides:?}"
            );
            let want = want.expect("a path to a board the table says cannot reach the goal");
            if algorithm.is_optimal() {
                assert_eq!(found.distance(), Some(want), "{what}");
            } else {
                assert!(found.distance() >= Some(want), "{what}");
            }
        }
    }
}

/// Every board of 2x3, both parities, toward a goal with the blank last
/// and one with it in the middle of a long side.
#[test]
fn every_search_answers_every_two_by_three_board_at_the_multi_tile_distance() {
    let shape = Shape::new(2, 3).unwrap();
    for goal in ["1 2 3 4 5 0", "1 0 2 3 4 5"] {
        let goal = Board::parse(goal, Some(shape)).unwrap();
        let table = generate_in(&goal, Metric::Multi, |_| {}).unwrap();
        let solver = Solver::new(&goal).with_metric(Metric::Multi);
        let mut tiles: Vec<u8> = (0..6).collect();
        let mut boards = 0;
        loop {
            let board = Board::from_tiles(shape, &tiles).unwrap();
            check_every_search(&table, &solver, &board);
            boards += 1;
            if !next_permutation(&mut tiles) {
                break;
            }
        }
        assert_eq!(boards, 720);
    }
}

/// Seeded random boards of 3x3, 2x4 and 4x2 (long lines: slides of up to
/// three cells), toward the default goal and one with the blank inside
/// (few of 3x3, where IDDFS takes a fifth of a second a board).
#[test]
fn every_search_answers_seeded_boards_at_the_multi_tile_distance() {
    for (shape, goal, boards) in [
        ("3x3", "1 2 3 4 5 6 7 8 0", 10),
        ("3x3", "1 2 3 4 0 5 6 7 8", 10),
        ("2x4", "1 2 3 4 5 6 7 0", 40),
        ("4x2", "1 2 3 0 4 5 6 7", 40),
    ] {
        let shape: Shape = shape.parse().unwrap();
        let goal = Board::parse(goal, Some(shape)).unwrap();
        let table = generate_in(&goal, Metric::Multi, |_| {}).unwrap();
        let solver = Solver::new(&goal).with_metric(Metric::Multi);
        let mut rng = SplitMix64::new(37);
        for _ in 0..boards {
            check_every_search(&table, &solver, &random_board(&goal, &mut rng));
        }
    }
}

/// The README's board: 14 multi-tile moves, by every optimal search.
#[test]
fn the_readme_board_is_fourteen_multi_tile_moves_by_every_optimal_search() {
    let goal = Board::solved(Shape::EIGHT);
    let board: Board = "2 3 4 1 5 x 7 6 8".parse().unwrap();
    let solver = Solver::new(&goal).with_metric(Metric::Multi);
    for algorithm in Algorithm::ALL.into_iter().filter(|a| a.is_optimal()) {
        let found = solver
            .solve(&board, algorithm, Heuristic::default_in(Metric::Multi))
            .unwrap();
        assert_eq!(found.distance(), Some(14), "{algorithm}");
        assert!(found.stats.is_some_and(|s| s.expanded > 0), "{algorithm}");
    }
}

/// A board that cannot reach the goal is answered in the solver's
/// metric, with no search; a board of another shape is refused.
#[test]
fn an_unsolvable_board_is_answered_in_the_multi_tile_metric() {
    let goal = Board::solved(Shape::EIGHT);
    let solver = Solver::new(&goal).with_metric(Metric::Multi);
    let swapped: Board = "2 1 3 4 5 6 7 8 0".parse().unwrap();
    for algorithm in Algorithm::ALL {
        let found = solver
            .solve(&swapped, algorithm, Heuristic::Manhattan)
            .unwrap();
        assert_eq!(
            (found.moves, found.metric, found.stats),
            (None, Metric::Multi, None)
        );
    }
    let other: Board = "1 2 3 0".parse().unwrap();
    assert!(matches!(
        solver.solve(&other, Algorithm::Bfs, Heuristic::Manhattan),
        Err(SolveError::WrongShape { .. })
    ));
}

/// The memory limit and the progress closure stop a multi-tile search as
/// they stop a single-tile one.
#[test]
fn a_multi_tile_search_stops_at_its_limits() {
    let goal = Board::solved(Shape::new(3, 4).unwrap());
    let far = random_board(&goal, &mut SplitMix64::new(1));
    let solver = Solver::new(&goal)
        .with_metric(Metric::Multi)
        .with_memory(1 << 20);
    assert!(matches!(
        solver.solve(&far, Algorithm::Bfs, Heuristic::Manhattan),
        Err(SolveError::SearchLimit { .. })
    ));
    let stopped = solver.solve_with_progress(&far, Algorithm::Iddfs, Heuristic::Manhattan, |_| {
        std::ops::ControlFlow::Break(())
    });
    assert!(matches!(stopped, Err(SolveError::Stopped { stats }) if stats.expanded > 0));
}

/// `check_search_with` counts the table's metric: IDA* in the multi-tile
/// metric agrees with the multi-tile table toward the table's goal and
/// another of its class; the single-tile search's paths, valid but
/// counted in the other metric, are all mismatches.
#[test]
fn a_search_is_checked_in_the_tables_metric() {
    let goal = Board::solved(Shape::EIGHT);
    let table = generate_in(&goal, Metric::Multi, |_| {}).unwrap();
    for toward in ["1 2 3 4 5 6 7 8 0", "0 1 2 3 4 5 6 7 8"] {
        let toward: Board = toward.parse().unwrap();
        let multi = Solver::new(&toward).with_metric(Metric::Multi);
        let report = check_search_with(&table, &toward, 0..400, |b| {
            multi.solve(b, Algorithm::IdaStar, Heuristic::WalkingDistance)
        })
        .unwrap();
        assert_eq!(
            (report.checked, report.mismatches.len()),
            (400, 0),
            "{toward}"
        );
        assert!(report.expanded > 0);
    }
    let single = Solver::new(&goal);
    let report = check_search_with(&table, &goal, 1..101, |b| {
        single.solve(b, Algorithm::AStar, Heuristic::Manhattan)
    })
    .unwrap();
    assert_eq!(report.mismatches.len(), 100);
    assert!(report.mismatches.iter().all(|m| m.search.is_none()));
}

/// The walking distances, made for the multi-tile metric, never exceed
/// the single-tile distance either: A* and IDA* under them are optimal
/// in the single-tile metric on seeded 2x3 and 3x3 boards.
#[test]
fn the_walking_distance_is_optimal_in_the_single_tile_metric_too() {
    for (shape, boards) in [(Shape::new(2, 3).unwrap(), 360), (Shape::EIGHT, 100)] {
        let goal = Board::solved(shape);
        let table = slidedb::generate(&goal, |_| {}).unwrap();
        let solver = Solver::new(&goal);
        let mut rng = SplitMix64::new(5);
        for _ in 0..boards {
            let board = random_board(&goal, &mut rng);
            for algorithm in [Algorithm::AStar, Algorithm::IdaStar] {
                let found = solver
                    .solve(&board, algorithm, Heuristic::WalkingDistance)
                    .unwrap();
                assert_eq!(found.metric, Metric::Single);
                assert!(leads_to(&board, found.moves.as_deref().unwrap(), &goal));
                assert_eq!(found.distance(), table.distance(&board).unwrap(), "{board}");
            }
        }
    }
}

/// The next permutation of `xs` in lexicographic order, or false after
/// the last.
fn next_permutation(xs: &mut [u8]) -> bool {
    let Some(i) = (1..xs.len()).rev().find(|&i| xs[i - 1] < xs[i]) else {
        return false;
    };
    let j = (i..xs.len()).rev().find(|&j| xs[j] > xs[i - 1]).unwrap();
    xs.swap(i - 1, j);
    xs[i..].reverse();
    true
}
