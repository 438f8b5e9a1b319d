//! The multi-tile metric: one move slides the blank any number of cells
//! along its row or column. The library's tables in this metric are
//! checked against a breadth-first search written here, over plain cell
//! arrays (not the library's boards, moves or searches), whose neighbour
//! rule is itself checked against the published 4×4 distribution (OEIS
//! A389728) by a depth-limited enumeration.

use std::collections::{HashMap, VecDeque};

use slidedb::{Board, BuiltFor, Metric, Move, Shape, Table, table::generate_in};

/// A board as its cells in reading order, 0 for the blank.
type Cells = Vec<u8>;

/// Every board one multi-tile move from `cells` on a board of `cols`
/// columns: the blank moved to each other cell of its row or column, the
/// tiles between shifting one cell toward where it was.
fn neighbours(cells: &[u8], cols: usize) -> Vec<Cells> {
    let rows = cells.len() / cols;
    let blank = cells.iter().position(|&c| c == 0).unwrap();
    let (r, c) = (blank / cols, blank % cols);
    let mut found = Vec::new();
    let mut walk = |step: isize, count: usize| {
        let mut next = cells.to_vec();
        let mut at = blank as isize;
        for _ in 0..count {
            let to = at + step;
            next.swap(at as usize, to as usize);
            at = to;
            found.push(next.clone());
        }
    };
    walk(-(cols as isize), r);
    walk(cols as isize, rows - 1 - r);
    walk(-1, c);
    walk(1, cols - 1 - c);
    found
}

/// Distances from `goal` by a breadth-first search over cell arrays, up
/// to `depth` moves.
fn bfs(goal: &[u8], cols: usize, depth: u32) -> HashMap<Cells, u32> {
    let mut seen = HashMap::from([(goal.to_vec(), 0)]);
    let mut queue = VecDeque::from([goal.to_vec()]);
    while let Some(cells) = queue.pop_front() {
        let d = seen[&cells];
        if d == depth {
            continue;
        }
        for next in neighbours(&cells, cols) {
            if !seen.contains_key(&next) {
                seen.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    seen
}

/// The number of optimal multi-tile solutions of every board, from the
/// distances: the goal has one; a board has the sum of its neighbours'
/// one closer.
fn counts(distances: &HashMap<Cells, u32>, cols: usize) -> HashMap<Cells, u128> {
    let mut by_distance: Vec<&Cells> = distances.keys().collect();
    by_distance.sort_by_key(|c| distances[*c]);
    let mut counts: HashMap<Cells, u128> = HashMap::new();
    for cells in by_distance {
        let d = distances[cells];
        let n = if d == 0 {
            1
        } else {
            neighbours(cells, cols)
                .iter()
                .filter(|n| distances[*n] + 1 == d)
                .map(|n| counts[n])
                .sum()
        };
        counts.insert(cells.clone(), n);
    }
    counts
}

fn board(shape: Shape, cells: &[u8]) -> Board {
    Board::from_tiles(shape, cells).unwrap()
}

/// The terms of OEIS A389728 kept in `tests/data`.
fn published_4x4_layers() -> Vec<u64> {
    let path =
        super::shared::data_dir().join("distributions/4x4-multi-tile-blank-corner-prefix.txt");
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect()
}

#[test]
fn the_tests_own_search_finds_the_published_4x4_distribution() {
    // Layers 0..=10 (157,933 boards) of OEIS A389728, from a corner blank.
    let published = published_4x4_layers();
    let goal: Vec<u8> = (1..16).chain([0]).collect();
    let depth = 10;
    let found = bfs(&goal, 4, depth);
    let mut layers = vec![0u64; depth as usize + 1];
    for d in found.values() {
        layers[*d as usize] += 1;
    }
    assert_eq!(layers, published[..=depth as usize]);
    // The library's moves are the same: a board's slides are the
    // neighbours the test's rule finds, in the same number.
    let shape = Shape::new(4, 4).unwrap();
    for cells in found.keys().take(2000) {
        let mut mine: Vec<Cells> = neighbours(cells, 4);
        let mut theirs: Vec<Cells> = board(shape, cells)
            .slides(Metric::Multi)
            .map(|(_, b)| b.tiles().collect())
            .collect();
        mine.sort();
        theirs.sort();
        assert_eq!(mine, theirs);
    }
}

/// Checks every board of `table` (built for `goal` in the multi-tile
/// metric) against the test's own search, and every fourth board's
/// solution, probe and count.
fn check_whole_table(table: &Table<Vec<u8>>, goal: &Board) {
    let shape = goal.shape();
    let cols = shape.cols();
    let goal_cells: Cells = goal.tiles().collect();
    let distances = bfs(&goal_cells, cols, u32::MAX);
    let counted = counts(&distances, cols);
    assert_eq!(distances.len() as u64, table.states());
    let max = *distances.values().max().unwrap();
    assert_eq!(table.max_distance(), max, "{shape} toward {goal}");
    for (i, (cells, &d)) in distances.iter().enumerate() {
        let b = board(shape, cells);
        assert_eq!(table.distance(&b), Ok(Some(d)), "{b} toward {goal}");
        if i % 4 != 0 {
            continue;
        }
        let found = table.solve(&b).unwrap();
        let moves = found.moves.clone().unwrap();
        assert_eq!(b.apply_all(&moves), Some(*goal), "{b}");
        assert_eq!(found.metric, Metric::Multi);
        assert_eq!(found.distance(), Some(d), "{b}");
        assert_eq!(Metric::Multi.moves_in(&moves), d as usize, "{b}");
        assert_eq!(found.slides().unwrap().len(), d as usize, "{b}");
        let probe = table.probe(&b).unwrap();
        assert_eq!(probe.distance, Some(d));
        let expected: Vec<u32> = neighbours(cells, cols)
            .iter()
            .map(|n| distances[n])
            .collect();
        let mut got: Vec<u32> = probe.moves.iter().map(|m| m.distance).collect();
        let mut want = expected.clone();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{b}");
        for outcome in &probe.moves {
            let steps: Vec<Move> = outcome.slide().steps().collect();
            assert_eq!(b.apply_all(&steps), Some(outcome.board), "{b}");
            assert_eq!(outcome.optimal, outcome.distance + 1 == d, "{b}");
        }
        assert_eq!(
            table.count(&b).unwrap().unwrap().to_u128(),
            Some(counted[cells]),
            "{b}"
        );
    }
}

#[test]
fn every_board_of_small_shapes_toward_several_goals() {
    for (shape, goals) in [
        ("2x3", vec!["1 2 3 4 5 0", "0 1 2 3 4 5", "1 0 2 3 4 5"]),
        ("3x2", vec!["1 2 3 4 5 0", "1 2 0 3 4 5"]),
        (
            "2x4",
            vec!["1 2 3 4 5 6 7 0", "1 2 0 3 4 5 6 7", "7 6 5 4 3 2 1 0"],
        ),
    ] {
        let shape: Shape = shape.parse().unwrap();
        for goal in goals {
            let goal = Board::parse(goal, Some(shape)).unwrap();
            let table = generate_in(&goal, Metric::Multi, |_| {}).unwrap();
            assert_eq!(table.metric(), Metric::Multi);
            check_whole_table(&table, &goal);
        }
    }
}

/// A seeded sample of boards that reach `goal`.
fn sample(goal: &Board, n: usize, seed: u64) -> Vec<Board> {
    let mut rng = slidedb::random::SplitMix64::new(seed);
    (0..n)
        .map(|_| slidedb::random::random_board(goal, &mut rng))
        .collect()
}

#[test]
fn seeded_3x3_boards_toward_three_goals() {
    let shape = Shape::EIGHT;
    for goal in [
        "1 2 3 4 5 6 7 8 0",
        "1 0 2 3 4 5 6 7 8",
        "1 2 3 4 0 5 6 7 8",
    ] {
        let goal = Board::parse(goal, Some(shape)).unwrap();
        let table = generate_in(&goal, Metric::Multi, |_| {}).unwrap();
        let goal_cells: Cells = goal.tiles().collect();
        let distances = bfs(&goal_cells, 3, u32::MAX);
        assert_eq!(distances.len() as u64, table.states());
        for b in sample(&goal, 300, 37) {
            let cells: Cells = b.tiles().collect();
            let d = distances[&cells];
            let found = table.solve(&b).unwrap();
            assert_eq!(found.distance(), Some(d), "{b} toward {goal}");
            assert_eq!(b.apply_all(found.moves.as_ref().unwrap()), Some(goal));
        }
    }
}

/// Distances by a search from both ends that meet: the test's own rule,
/// for boards too big for a whole search here (3×4).
fn meet_in_the_middle(start: &[u8], goal: &[u8], cols: usize) -> u32 {
    let mut sides = [
        HashMap::from([(start.to_vec(), 0u32)]),
        HashMap::from([(goal.to_vec(), 0u32)]),
    ];
    let mut fronts = [vec![start.to_vec()], vec![goal.to_vec()]];
    if start == goal {
        return 0;
    }
    let mut depth = [0u32; 2];
    loop {
        let s = if fronts[0].len() <= fronts[1].len() {
            0
        } else {
            1
        };
        let mut next = Vec::new();
        let mut best = u32::MAX;
        for cells in &fronts[s] {
            for n in neighbours(cells, cols) {
                if let Some(&there) = sides[1 - s].get(&n) {
                    best = best.min(depth[s] + 1 + there);
                }
                if !sides[s].contains_key(&n) {
                    sides[s].insert(n.clone(), depth[s] + 1);
                    next.push(n);
                }
            }
        }
        if best != u32::MAX {
            return best;
        }
        depth[s] += 1;
        fronts[s] = next;
    }
}

#[test]
#[ignore = "builds the 3x4 multi-tile table (about 7 s) and searches from both ends; CI runs it under nextest"]
fn seeded_3x4_boards() {
    let shape = Shape::new(3, 4).unwrap();
    let goal = Board::solved(shape);
    let table = generate_in(&goal, Metric::Multi, |_| {}).unwrap();
    assert_eq!(table.max_distance(), 33);
    let goal_cells: Cells = goal.tiles().collect();
    for b in sample(&goal, 12, 2026) {
        let cells: Cells = b.tiles().collect();
        let d = meet_in_the_middle(&cells, &goal_cells, 4);
        let found = table.solve(&b).unwrap();
        assert_eq!(found.distance(), Some(d), "{b}");
        assert_eq!(b.apply_all(found.moves.as_ref().unwrap()), Some(goal));
    }
}

#[test]
fn a_multi_tile_table_keeps_its_metric_through_its_file() {
    let goal = Board::solved(Shape::new(2, 3).unwrap());
    let table = generate_in(&goal, Metric::Multi, |_| {}).unwrap();
    let reopened = Table::new(table.as_bytes().to_vec()).unwrap();
    assert_eq!(reopened.metric(), Metric::Multi);
    assert_eq!(reopened.layers(), table.layers());
    let single = slidedb::generate(&goal, |_| {}).unwrap();
    assert_eq!(single.metric(), Metric::Single);
    assert_ne!(single.layers(), table.layers());
    slidedb::verify::check_table(&reopened).unwrap();
}

#[test]
fn a_file_of_format_version_2_opens_and_answers_in_the_single_tile_metric() {
    let dir = super::shared::data_dir().join("version-2");
    let table = Table::open_path(&dir.join("2x3-1-2-3-4-5-0.slidedb")).unwrap();
    assert_eq!(table.metric(), Metric::Single);
    table.verify().unwrap();
    let fresh = slidedb::generate(table.goal(), |_| {}).unwrap();
    assert_eq!(table.layers(), fresh.layers());
    let board = Board::parse("4 1 2 5 0 3", Some(table.shape())).unwrap();
    assert_eq!(table.distance(&board), fresh.distance(&board));
    let patterns = slidedb::PatternDb::open_path(&dir.join("3x3-pdb-4-4.slidedb")).unwrap();
    assert_eq!(patterns.metric(), Metric::Single);
    let hardest: Board = "8 6 7 2 5 4 3 0 1".parse().unwrap();
    assert_eq!(patterns.solve(&hardest).unwrap().distance(), Some(31));
}
