//! The tablebase queries of the library (probe, count, layer, random)
//! against independent references: the textbook BFS of `common`, a
//! top-down count of shortest paths over its distances, the published
//! distributions, and a chi-square test of uniformity.

use crate::common;
use slidedb::BuiltFor;

use std::collections::HashMap;
use std::ops::ControlFlow;

use proptest::prelude::*;
use slidedb::random::SplitMix64;
use slidedb::symmetry::GoalClass;
use slidedb::table::RareLayers;
use slidedb::{Board, Move, Shape, Table, generate};

/// Goals of every class of 3x3 (blank in a corner, on an edge, in the
/// centre), and of 2x3 and 2x4, some of them transposed or relabelled.
fn goals() -> Vec<Board> {
    [
        ("3x3", "1 2 3 4 5 6 7 8 0"),
        ("3x3", "0 1 2 3 4 5 6 7 8"),
        ("3x3", "1 2 3 4 0 5 6 7 8"),
        ("3x3", "1 0 2 3 4 5 6 7 8"),
        ("3x3", "8 7 6 5 4 3 2 1 0"),
        ("2x3", "1 2 3 4 5 0"),
        ("2x4", "0 1 2 3 4 5 6 7"),
        ("4x2", "1 2 3 4 5 6 7 0"),
    ]
    .iter()
    .map(|(size, t)| Board::parse(t, Some(size.parse().unwrap())).unwrap())
    .collect()
}

/// The table that serves `goal`, and its class.
fn table_for(goal: &Board) -> (Table<Vec<u8>>, GoalClass) {
    (generate(goal, |_| {}).unwrap(), GoalClass::of(goal))
}

/// The number of shortest paths from `board` to the goal, top-down over
/// the reference distances (memoised): a different method from the
/// library's layered walk over 2-bit entries.
fn reference_count(
    board: &Board,
    dist: &HashMap<Board, u32>,
    memo: &mut HashMap<Board, u128>,
) -> u128 {
    if let Some(&n) = memo.get(board) {
        return n;
    }
    let d = dist[board];
    let n = if d == 0 {
        1
    } else {
        Move::ALL
            .iter()
            .filter_map(|&m| board.apply(m))
            .filter(|next| dist[next] + 1 == d)
            .map(|next| reference_count(&next, dist, memo))
            .sum()
    };
    memo.insert(*board, n);
    n
}

#[test]
fn probes_match_the_reference_bfs_on_every_small_board() {
    for goal in goals() {
        let (table, class) = table_for(&goal);
        let dist = common::reference_bfs(&goal);
        // 3x3 has 181,440 boards: every one on 2x3 and 2x4, a sample on 3x3.
        let step = if goal.shape().cells() == 9 { 37 } else { 1 };
        for (board, &d) in dist.iter().step_by(step) {
            let probe = common::toward(&table, class.goal()).probe(board).unwrap();
            assert_eq!(probe.board, *board);
            assert_eq!(probe.distance, Some(d), "{board} toward {goal}");
            let legal: Vec<Move> = Move::ALL
                .into_iter()
                .filter(|&m| board.apply(m).is_some())
                .collect();
            let moves: Vec<Move> = probe.moves.iter().map(|m| m.mv).collect();
            assert_eq!(
                moves, legal,
                "{board}: every legal move, in the order u d l r"
            );
            for m in &probe.moves {
                let next = board.apply(m.mv).unwrap();
                assert_eq!(m.board, next, "{board} {:?}", m.mv);
                assert_eq!(m.distance, dist[&next], "{board} {:?} toward {goal}", m.mv);
                assert_eq!(m.optimal, dist[&next] + 1 == d, "{board} {:?}", m.mv);
            }
        }
    }
}

#[test]
fn boards_of_the_other_parity_probe_and_count_as_unsolvable() {
    let goal = Board::solved(Shape::EIGHT);
    let (table, class) = table_for(&goal);
    let swapped: Board = "2 1 3 4 5 6 7 8 0".parse().unwrap();
    let probe = common::toward(&table, class.goal())
        .probe(&swapped)
        .unwrap();
    assert_eq!(probe.distance, None);
    assert!(probe.moves.is_empty());
    assert_eq!(
        common::toward(&table, class.goal()).count(&swapped),
        Ok(None)
    );
    // A board of another size is an error, not an answer.
    let small = Board::solved(Shape::new(2, 3).unwrap());
    assert!(table.probe(&small).is_err());
    assert!(table.count(&small).is_err());
    // So is a goal of another class.
    let centre = GoalClass::of(&"1 2 3 4 0 5 6 7 8".parse().unwrap());
    assert!(slidedb::Toward::new(Table::new(table.as_bytes()).unwrap(), centre.goal()).is_err());
}

#[test]
fn counts_match_a_top_down_count_of_shortest_paths() {
    for goal in goals() {
        let (table, class) = table_for(&goal);
        let dist = common::reference_bfs(&goal);
        let mut memo = HashMap::new();
        let step = if goal.shape().cells() == 9 { 101 } else { 1 };
        for board in dist.keys().step_by(step) {
            let expected = reference_count(board, &dist, &mut memo);
            let count = common::toward(&table, class.goal())
                .count(board)
                .unwrap()
                .unwrap();
            assert_eq!(count.to_u128(), Some(expected), "{board} toward {goal}");
        }
    }
}

#[test]
fn hardest_boards_have_the_counts_a_reference_finds() {
    // Every antipode of every 3x3 goal class, counted both ways.
    for goal in [
        "1 2 3 4 5 6 7 8 0",
        "1 2 3 4 0 5 6 7 8",
        "1 0 2 3 4 5 6 7 8",
    ] {
        let goal: Board = goal.parse().unwrap();
        let (table, class) = table_for(&goal);
        let dist = common::reference_bfs(&goal);
        let mut memo = HashMap::new();
        let max = *dist.values().max().unwrap();
        for (board, _) in dist.iter().filter(|(_, d)| **d == max) {
            let count = common::toward(&table, class.goal())
                .count(board)
                .unwrap()
                .unwrap();
            assert_eq!(
                count.to_u128(),
                Some(reference_count(board, &dist, &mut memo))
            );
            assert!(count.to_u128().unwrap() >= 1);
        }
    }
}

#[test]
fn every_layer_matches_the_published_distribution() {
    for name in [
        "3x3-blank-corner.txt",
        "3x3-blank-edge.txt",
        "3x3-blank-centre.txt",
        "2x4-blank-corner.txt",
    ] {
        let published = common::distribution(name);
        let (table, class) = table_for(&published.goal);
        let mut seen = 0u64;
        for (d, &count) in published.layers.iter().enumerate() {
            let mut boards = Vec::new();
            common::toward(&table, class.goal())
                .layer(d as u32, |b| {
                    boards.push(b);
                    ControlFlow::Continue(())
                })
                .unwrap();
            assert_eq!(boards.len() as u64, count, "{name}: layer {d}");
            for b in boards.iter().step_by(7) {
                assert_eq!(
                    common::toward(&table, class.goal()).distance(b),
                    Ok(Some(d as u32)),
                    "{name} {b}"
                );
            }
            // In index order: strictly increasing ranks, so no repeats.
            let ranks: Vec<u64> = boards
                .iter()
                .map(|b| table.indexer().rank(&class.to_canonical(b)).unwrap().0)
                .collect();
            assert!(
                ranks.windows(2).all(|w| w[0] < w[1]),
                "{name}: layer {d} in index order"
            );
            seen += boards.len() as u64;
        }
        assert_eq!(seen, table.states(), "{name}");
        // Past the greatest distance: nothing, and no error.
        let mut any = false;
        common::toward(&table, class.goal())
            .layer(published.layers.len() as u32, |_| {
                any = true;
                ControlFlow::Continue(())
            })
            .unwrap();
        assert!(!any);
    }
}

#[test]
fn the_corner_goals_farthest_layer_is_its_two_antipodes() {
    let table = common::table(Shape::EIGHT);
    let mut found = Vec::new();
    table
        .layer(31, |b| {
            found.push(b.to_string());
            ControlFlow::Continue(())
        })
        .unwrap();
    found.sort();
    assert_eq!(found, ["6 4 7 8 5 0 3 2 1", "8 6 7 2 5 4 3 0 1"]);
    // A visitor that breaks stops the listing.
    let mut first = 0;
    table
        .layer(20, |_| {
            first += 1;
            ControlFlow::Break(())
        })
        .unwrap();
    assert_eq!(first, 1);
}

/// Pearson's chi-square statistic of `counts` against equal expectations.
fn chi_square(counts: &HashMap<Board, u64>, categories: usize, draws: u64) -> f64 {
    let expected = draws as f64 / categories as f64;
    let seen: f64 = counts
        .values()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    // The categories never drawn count too.
    seen + (categories - counts.len()) as f64 * expected
}

/// Draws `draws` boards of `distances` and returns how often each came.
fn draw(
    table: &Table<Vec<u8>>,
    class: &GoalClass,
    distances: std::ops::RangeInclusive<u32>,
    rare: Option<&RareLayers>,
    draws: u64,
    seed: u64,
) -> HashMap<Board, u64> {
    let mut rng = SplitMix64::new(seed);
    let mut counts = HashMap::new();
    let table = common::toward(table, class.goal());
    for _ in 0..draws {
        let b = table
            .random(distances.clone(), rare, &mut rng)
            .unwrap()
            .unwrap();
        *counts.entry(b).or_insert(0) += 1;
    }
    counts
}

/// The chi-square bound for `df` degrees of freedom that a uniform
/// sampler passes with probability about 1 − 10⁻⁶ (Wilson–Hilferty), and
/// a sampler biased by a few percent fails at these sample sizes.
fn chi_square_bound(df: usize) -> f64 {
    let k = df as f64;
    let z = 4.75; // one-sided 10⁻⁶
    k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
}

#[test]
fn random_boards_are_uniform_over_a_layer_listed_or_not() {
    // From the list: 3x3 toward the corner goal at distance 8 (116 boards).
    // By rejection (no list given): the largest layer of 2x3.
    let eight = Board::solved(Shape::EIGHT);
    let six = Board::solved(Shape::new(2, 3).unwrap());
    for (goal, listed, seed) in [(eight, true, 11), (six, false, 12)] {
        let (table, class) = table_for(&goal);
        let layers = table.layers();
        let d = if listed {
            8
        } else {
            (0..layers.len()).max_by_key(|&d| layers[d]).unwrap() as u32
        };
        let layer = layers[d as usize] as usize;
        let rare = RareLayers::build(&table, d).unwrap();
        assert!(rare.covers(d));
        let draws = 200 * layer as u64;
        let counts = draw(&table, &class, d..=d, listed.then_some(&rare), draws, seed);
        assert_eq!(
            counts.len(),
            layer,
            "every board of layer {d} of {goal} is drawn"
        );
        for b in counts.keys() {
            assert_eq!(table.distance(b), Ok(Some(d)));
        }
        let chi = chi_square(&counts, layer, draws);
        let bound = chi_square_bound(layer - 1);
        assert!(
            chi < bound,
            "chi-square {chi:.1} over {layer} boards, bound {bound:.1}"
        );
    }
}

#[test]
fn the_chi_square_test_fails_a_biased_sampler() {
    // The test above must be able to fail: a sampler that favours the
    // first half of the layer by 10% is caught.
    let table = common::table(Shape::EIGHT);
    let mut layer = Vec::new();
    table
        .layer(8, |b| {
            layer.push(b);
            ControlFlow::Continue(())
        })
        .unwrap();
    let mut rng = SplitMix64::new(5);
    let draws = 200 * layer.len() as u64;
    let mut counts = HashMap::new();
    for _ in 0..draws {
        let mut i = rng.below(layer.len() as u64) as usize;
        if i >= layer.len() / 2 && rng.below(10) == 0 {
            i -= layer.len() / 2;
        }
        *counts.entry(layer[i]).or_insert(0) += 1;
    }
    let chi = chi_square(&counts, layer.len(), draws);
    assert!(
        chi > chi_square_bound(layer.len() - 1),
        "chi-square {chi:.1}"
    );
}

#[test]
fn random_boards_are_uniform_over_a_range_of_layers() {
    // 2x3 toward its corner goal, distances 19 to 21: layers of different
    // sizes, every board equally likely.
    let goal = Board::solved(Shape::new(2, 3).unwrap());
    let (table, class) = table_for(&goal);
    let dist = common::reference_bfs(&goal);
    let boards = dist.values().filter(|d| (19..=21).contains(*d)).count();
    assert!(boards > 10);
    let draws = 400 * boards as u64;
    let rare = RareLayers::build(&table, 21).unwrap();
    for (rare, seed) in [(Some(&rare), 1), (None, 2)] {
        let counts = draw(&table, &class, 19..=21, rare, draws, seed);
        assert_eq!(counts.len(), boards);
        let chi = chi_square(&counts, boards, draws);
        assert!(chi < chi_square_bound(boards - 1), "chi-square {chi:.1}");
    }
}

#[test]
fn random_boards_toward_other_goals_lie_at_the_distance_asked() {
    for goal in goals() {
        let (table, class) = table_for(&goal);
        let rare = RareLayers::build(&table, table.max_distance()).unwrap();
        let mut rng = SplitMix64::new(99);
        for d in 0..=table.max_distance() {
            for _ in 0..3 {
                let b = common::toward(&table, class.goal())
                    .random(d..=d, Some(&rare), &mut rng)
                    .unwrap()
                    .unwrap();
                assert_eq!(
                    common::toward(&table, class.goal()).distance(&b),
                    Ok(Some(d)),
                    "{b} toward {goal}"
                );
            }
        }
        let past = table.max_distance() + 1;
        assert_eq!(
            common::toward(&table, class.goal()).random(past..=past + 5, None, &mut rng),
            Ok(None)
        );
    }
}

#[test]
fn the_same_seed_draws_the_same_boards() {
    let table = common::table(Shape::EIGHT);
    let rare = RareLayers::build(table, 31).unwrap();
    let run = |seed| {
        let mut rng = SplitMix64::new(seed);
        (0..20)
            .map(|i| {
                table
                    .random(i..=i + 3, Some(&rare), &mut rng)
                    .unwrap()
                    .unwrap()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(run(42), run(42));
    assert_ne!(run(42), run(43));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Probe and count agree with each other and with solve on random 2x4
    /// and 4x2 boards toward random goals.
    #[test]
    fn probe_count_and_solve_agree(cells in Just((0u8..8).collect::<Vec<_>>()).prop_shuffle(),
                                  goal_cells in Just((0u8..8).collect::<Vec<_>>()).prop_shuffle(),
                                  tall: bool) {
        let shape = if tall { Shape::new(4, 2).unwrap() } else { Shape::new(2, 4).unwrap() };
        let board = Board::from_tiles(shape, &cells).unwrap();
        let goal = Board::from_tiles(shape, &goal_cells).unwrap();
        let table = common::table(shape);
        let class = GoalClass::of(&goal);
        prop_assume!(table.class().canonical() == class.canonical());
        let probe = common::toward(table, class.goal()).probe(&board).unwrap();
        let mut moves = Vec::new();
        let solvable = common::toward(table, class.goal()).solve_into(&board, &mut moves).unwrap();
        prop_assert_eq!(probe.distance.is_some(), solvable);
        if let Some(d) = probe.distance {
            prop_assert_eq!(d as usize, moves.len());
            // The solution's first move is one the probe calls optimal.
            if let Some(first) = moves.first() {
                prop_assert!(probe.optimal_moves().any(|m| m == *first));
            }
            // The count is the sum of the counts after each optimal move.
            let count = common::toward(table, class.goal()).count(&board).unwrap().unwrap().to_u128().unwrap();
            let sum: u128 = probe.moves.iter().filter(|m| m.optimal)
                .map(|m| common::toward(table, class.goal()).count(&m.board).unwrap().unwrap().to_u128().unwrap())
                .sum();
            prop_assert_eq!(count, if d == 0 { 1 } else { sum });
        }
    }
}

/// The 3x4 table in memory (7 s, 450 MB to build): its hardest boards'
/// counts, its rarest layer drawn and listed, and probes against solve.
#[test]
#[ignore = "12 cells: seconds and ~0.5 GB in release"]
fn three_by_four_queries() {
    let shape = Shape::new(3, 4).unwrap();
    let published = common::distribution("3x4-blank-corner.txt");
    let table = generate(&Board::solved(shape), |_| {}).unwrap();
    let mut farthest = Vec::new();
    table
        .layer(53, |b| {
            farthest.push(b);
            ControlFlow::Continue(())
        })
        .unwrap();
    assert_eq!(farthest.len(), 18);
    for b in &published.antipodes {
        assert!(farthest.contains(b), "{b}");
        let count = table.count(b).unwrap().unwrap();
        assert!(count.to_u128().unwrap() >= 1);
        let probe = table.probe(b).unwrap();
        assert_eq!(probe.distance, Some(53));
        assert!(
            probe.moves.iter().all(|m| m.optimal && m.distance == 52),
            "{b}: every move closer"
        );
    }
    let rare = RareLayers::build(&table, 53).unwrap();
    let mut rng = SplitMix64::new(3);
    for d in [0, 1, 30, 36, 52, 53] {
        let b = table.random(d..=d, Some(&rare), &mut rng).unwrap().unwrap();
        assert_eq!(table.distance(&b), Ok(Some(d)));
    }
    // Through a database over a data folder: the first rare draw lists the
    // layers and saves them beside the table; the next process reads them.
    let dir = tempfile::tempdir().unwrap();
    let path = dir
        .path()
        .join(slidedb::default_file_name(&Board::solved(shape)));
    slidedb::write_atomic(&path, table.as_bytes(), false).unwrap();
    // FORMAT.md names the side file: `NAME.rare-layers.slidedb` beside the
    // table `NAME.slidedb`.
    let side = dir.path().join(format!(
        "{}.rare-layers.slidedb",
        path.file_stem().unwrap().to_str().unwrap()
    ));
    let searches = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let open = || {
        let searches = searches.clone();
        slidedb::Database::builder()
            .data_dir(dir.path())
            .on_event(move |e| {
                if matches!(e, slidedb::Event::Searching { .. }) {
                    searches.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            })
            .open()
            .unwrap()
    };
    let goal = Board::solved(shape);
    let b = open().random(&goal, 53..=53, &mut rng).unwrap().unwrap();
    assert!(farthest.contains(&b));
    assert!(side.is_file());
    assert_eq!(
        RareLayers::from_bytes(&std::fs::read(&side).unwrap(), &table).unwrap(),
        rare
    );
    let b = open().random(&goal, 52..=52, &mut rng).unwrap().unwrap();
    assert_eq!(table.distance(&b), Ok(Some(52)));
    assert_eq!(
        searches.load(std::sync::atomic::Ordering::Relaxed),
        1,
        "listed once"
    );
    // A damaged side file is said (it takes as long as a build to list the
    // layers again), listed again and replaced.
    let mut bytes = std::fs::read(&side).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&side, &bytes).unwrap();
    let said = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let db = {
        let said = said.clone();
        slidedb::Database::builder()
            .data_dir(dir.path())
            .on_event(move |e| {
                if matches!(e, slidedb::Event::RareLayersUnusable { .. }) {
                    said.lock().unwrap().push(e.to_string());
                }
            })
            .open()
            .unwrap()
    };
    let b = db.random(&goal, 53..=53, &mut rng).unwrap().unwrap();
    assert!(farthest.contains(&b));
    let said = said.lock().unwrap().clone();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].contains(&side.display().to_string())
            && said[0].contains("checksum")
            && said[0].ends_with("listing them again")
            // What slidedb does about it, not what the user should do.
            && !said[0].contains("rebuild"),
        "{said:?}"
    );
    assert_eq!(
        RareLayers::from_bytes(&std::fs::read(&side).unwrap(), &table).unwrap(),
        rare
    );
    // 4x3 goals are served by the transposed table.
    let tall = Board::solved(Shape::new(4, 3).unwrap());
    let class = GoalClass::of(&tall);
    assert_eq!(
        class.canonical(),
        table.class().canonical(),
        "4x3 goals are served by the 3x4 table"
    );
    {
        let b = common::toward(&table, class.goal())
            .random(53..=53, Some(&rare), &mut rng)
            .unwrap()
            .unwrap();
        assert_eq!(b.shape(), Shape::new(4, 3).unwrap());
        assert_eq!(
            common::toward(&table, class.goal()).distance(&b),
            Ok(Some(53))
        );
        assert_eq!(
            common::toward(&table, class.goal())
                .probe(&b)
                .unwrap()
                .distance,
            Some(53)
        );
    }
}

#[test]
fn rare_layers_read_back_only_for_their_own_table() {
    let shape = Shape::new(2, 4).unwrap();
    let table = common::table(shape);
    let rare = RareLayers::build(table, table.max_distance()).unwrap();
    let bytes = rare.to_bytes();
    assert_eq!(RareLayers::from_bytes(&bytes, table).unwrap(), rare);
    // Another class's table (the blank elsewhere) is refused.
    let other = generate(
        &Board::parse("1 2 3 4 5 0 6 7", Some(shape)).unwrap(),
        |_| {},
    )
    .unwrap();
    assert_ne!(other.indexed_goal(), table.indexed_goal());
    assert!(RareLayers::from_bytes(&bytes, &other).is_err());
    // Any damaged body byte, and any truncation, is refused.
    let body_start = bytes.len() - rare.boards() as usize * 4;
    for at in [body_start, body_start + 7, bytes.len() - 1] {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x10;
        assert!(
            RareLayers::from_bytes(&damaged, table).is_err(),
            "byte {at}"
        );
    }
    assert!(RareLayers::from_bytes(&bytes[..bytes.len() - 4], table).is_err());
    // A table's own bytes are not rare layers.
    assert!(RareLayers::from_bytes(table.as_bytes(), table).is_err());
}
