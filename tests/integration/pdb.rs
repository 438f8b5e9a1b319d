//! Pattern databases never overestimate (checked against exact tables),
//! survive their file format, and make IDA* solve 15-puzzles optimally.

use crate::common;
use slidedb::BuiltFor;

use slidedb::pdb::{self, Partition, PatternDb, Pruning};
use slidedb::random::{SplitMix64, random_board};
use slidedb::{Board, Database, FileError, Move, Shape};

/// Every 2x4 board, with a 4-3 partition: admissible, and IDA* under it
/// is optimal on every board.
#[test]
fn admissible_and_optimal_on_every_two_by_four_board() {
    let shape = Shape::new(2, 4).unwrap();
    let goal = Board::solved(shape);
    let db = pdb::build(&goal, &Partition::standard(&goal, "4-3").unwrap(), |_| {}).unwrap();
    let mut exact = 0;
    for (board, &d) in &common::reference_bfs(&goal) {
        let h = db.estimate(board).unwrap();
        assert!(h <= d, "{board:?}: estimate {h} > distance {d}");
        exact += (h == d) as u32;
        let moves = db.solve(board).unwrap().moves.unwrap();
        assert_eq!(moves.len() as u32, d, "{board:?}");
        assert!(common::leads_to(board, &moves, &goal));
    }
    assert!(exact > 1);
}

/// Every 3x3 board toward the centre goal, whose seven mirrors all keep
/// the blank in place: IDA* under the largest sum stays optimal.
#[test]
fn optimal_on_every_board_toward_a_centre_goal() {
    let goal: Board = "1 2 3 4 0 5 6 7 8".parse().unwrap();
    let db = pdb::build(&goal, &Partition::standard(&goal, "4-4").unwrap(), |_| {}).unwrap();
    for (board, &d) in &common::reference_bfs(&goal) {
        let found = db.solve(board).unwrap();
        let moves = found.moves.unwrap();
        assert_eq!(moves.len() as u32, d, "{board:?}");
        assert!(common::leads_to(board, &moves, &goal));
    }
}

/// Large samples of 3x4 and 2x6 boards against their exact tables, with
/// 6-5 partitions (each table takes seconds and ~450 MB to build: run
/// with `cargo test --release -- --ignored`, as CI does).
#[test]
#[ignore = "builds the 3x4 and 2x6 tables: seconds and ~450 MB each in release"]
fn admissible_and_exact_on_large_samples_of_twelve_cell_boards() {
    // The least mean estimate, in tenths of the mean distance.
    for (rows, cols, tenths) in [(3, 4, 7), (2, 6, 6)] {
        let shape = Shape::new(rows, cols).unwrap();
        let goal = Board::solved(shape);
        let table = slidedb::generate(&goal, |_| {}).unwrap();
        let db = pdb::build(&goal, &Partition::standard(&goal, "6-5").unwrap(), |_| {}).unwrap();
        let mut rng = SplitMix64::new(34);
        let (mut sum_h, mut sum_d) = (0u64, 0u64);
        for _ in 0..200_000 {
            let board = random_board(&goal, &mut rng);
            let d = table.distance(&board).unwrap().unwrap();
            let h = db.estimate(&board).unwrap();
            assert!(h <= d, "{board:?}: estimate {h} > distance {d}");
            sum_h += h as u64;
            sum_d += d as u64;
        }
        // A useful estimate, not merely an admissible one.
        assert!(
            sum_h * 10 > sum_d * tenths,
            "{shape}: mean estimate {sum_h} vs distance {sum_d}"
        );
        // What `slidedb verify --algo idastar --heuristic pdb` runs: IDA*
        // over the databases against the table, on a sample of indices.
        let picks: Vec<u64> = (0..500).map(|_| rng.below(table.states())).collect();
        let report =
            slidedb::verify::check_search_with(&table, table.goal(), picks, |b| db.solve(b))
                .unwrap();
        assert_eq!(report.checked, 500, "{shape}");
        assert_eq!(report.mismatches, [], "{shape}");
    }
}

/// A small 5x5 partition (4-4-4-4-4-4, built in a second) answers boards
/// a few dozen moves from the goal with the length IDA* under linear
/// conflicts finds (an independent search: no pattern database), toward
/// the default goal and toward Korf's (blank first, the same class).
#[test]
fn five_by_five_boards_are_solved_optimally_with_small_databases() {
    let shape = Shape::new(5, 5).unwrap();
    let goal = Board::solved(shape);
    let partition = Partition::standard(&goal, "4-4-4-4-4-4").unwrap();
    let db = pdb::build(&goal, &partition, |_| {}).unwrap();
    let korf = Board::parse(
        &(0..25).map(|t| t.to_string()).collect::<Vec<_>>().join(" "),
        None,
    )
    .unwrap();
    let korf_class = slidedb::symmetry::GoalClass::of(&korf);
    let mut rng = SplitMix64::new(24);
    let mut lengths = Vec::new();
    for (target, class) in [(goal, *db.class()), (korf, korf_class)] {
        let reference = slidedb::Solver::new(&target);
        for _ in 0..4 {
            // A walk of 40 moves that never undoes the last.
            let mut board = target;
            let mut last: Option<Move> = None;
            let mut steps = 0;
            while steps < 40 {
                let mv = Move::ALL[rng.below(4) as usize];
                if last == Some(mv.inverse()) {
                    continue;
                }
                if let Some(next) = board.apply(mv) {
                    board = next;
                    last = Some(mv);
                    steps += 1;
                }
            }
            let found = toward(&db, class.goal())
                .solve(&board)
                .unwrap()
                .moves
                .unwrap();
            assert!(common::leads_to(&board, &found, &target), "{board}");
            let want = reference
                .solve(
                    &board,
                    slidedb::Algorithm::IdaStar,
                    slidedb::Heuristic::LinearConflict,
                )
                .unwrap()
                .moves
                .unwrap();
            assert_eq!(found.len(), want.len(), "{board} toward {target}");
            lengths.push(found.len());
        }
    }
    // Boards a few dozen moves away, not a handful.
    assert!(lengths.iter().all(|&l| l >= 20), "{lengths:?}");
}

/// The two cheapest of Korf and Felner's 50 24-puzzle instances (#38, 96
/// moves; #40, 82 moves), solved optimally through the 6-6-6-6 databases
/// built in memory (about two minutes on two cores and 1.5 GB). On one
/// thread, pruning only the undo of the last move as they did, IDA*
/// generates exactly the nodes Korf and Felner's did (the same estimate,
/// the same order of moves); on two, the same moves; pruning redundant
/// sequences, fewer nodes.
#[test]
#[ignore = "builds the 5x5 6-6-6-6 databases: minutes and 1.5 GB in release"]
fn solves_korf_and_felner_38_and_40_optimally() {
    let shape = Shape::new(5, 5).unwrap();
    let text = include_str!("../data/korf50-24.txt");
    let korf = Board::parse(
        &(0..25).map(|t| t.to_string()).collect::<Vec<_>>().join(" "),
        None,
    )
    .unwrap();
    let partition = Partition::standard(&korf, "6-6-6-6").unwrap();
    assert_eq!(
        partition.groups(),
        [
            vec![1, 2, 5, 6, 7, 12],
            vec![3, 4, 8, 9, 13, 14],
            vec![10, 11, 15, 16, 20, 21],
            vec![17, 18, 19, 22, 23, 24]
        ]
    );
    let db = pdb::build(&korf, &partition, |_| {}).unwrap();
    let threads = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    for id in ["38", "40"] {
        let f: Vec<&str> = text
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .find(|f| f[0] == id)
            .unwrap();
        let board = Board::parse(&f[1..26].join(" "), Some(shape)).unwrap();
        let length: usize = f[26].parse().unwrap();
        let published: u64 = f[27].parse().unwrap();
        let one = threads(1).install(|| db.solve_pruned(&[], &board, Pruning::Parent).unwrap());
        let moves = one.moves.clone().unwrap();
        assert_eq!(moves.len(), length, "#{id}");
        assert!(common::leads_to(&board, &moves, &korf), "#{id}");
        assert_eq!(one.stats.unwrap().generated, published, "#{id}");
        let two = threads(2).install(|| db.solve_pruned(&[], &board, Pruning::Parent).unwrap());
        assert_eq!(two.moves, one.moves, "#{id}");
        // Without redundant move sequences: as short, and fewer nodes.
        let fewer = db.solve(&board).unwrap();
        assert_eq!(fewer.distance(), Some(length as u32), "#{id}");
        assert!(fewer.stats.unwrap().generated < published, "#{id}");
    }
}

/// IDA* on every thread of the pool finds the moves one thread finds, and
/// counts at least its nodes (the same iterations; in the last, the other
/// threads' work beside the find), on the 15-puzzles of Korf's 100 whose
/// iterations pass the million nodes after which the search splits: with
/// either pruning (the threads' subtrees start from the state the moves
/// above them leave the filter of redundant sequences in).
#[test]
fn the_parallel_search_finds_the_moves_of_one_thread() {
    let shape = Shape::new(4, 4).unwrap();
    let korf_goal = Board::parse("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", Some(shape)).unwrap();
    let class = slidedb::symmetry::GoalClass::of(&korf_goal);
    let db = fifteen_555(class.canonical());
    let threads = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    // Instances of 5 to 17 million nodes expanded with these databases.
    for (pruning, picks) in [
        (Pruning::Parent, [3, 15, 17, 32, 88]),
        (Pruning::Duplicates, [3, 15, 17, 82, 88]),
    ] {
        for (id, board, length) in korf100().into_iter().filter(|i| picks.contains(&i.0)) {
            let board = class.to_canonical(&board);
            let solve = || db.solve_pruned(&[], &board, pruning).unwrap();
            let one = threads(1).install(solve);
            let stats = one.stats.unwrap();
            // Some iteration passed the million nodes after which it splits.
            assert!(stats.expanded > 4 << 20, "#{id} {pruning:?}: {stats:?}");
            for n in [2, 3] {
                let many = threads(n).install(solve);
                assert_eq!(many.moves, one.moves, "#{id} {pruning:?} on {n} threads");
                assert!(many.stats.unwrap().generated >= stats.generated, "#{id}");
            }
            let moves = one.moves.unwrap();
            assert_eq!(moves.len() as u32, length, "#{id} {pruning:?}");
            assert!(common::leads_to(&board, &moves, class.canonical()), "#{id}");
        }
    }
}

/// The 5-5-5 databases of a 4x4 goal class's canonical goal, built once
/// per test run for each class.
/// `db` toward `goal`, another goal of its class, without copying it.
fn toward<'a>(db: &'a PatternDb<Vec<u8>>, goal: &Board) -> slidedb::Toward<PatternDb<&'a [u8]>> {
    slidedb::Toward::new(PatternDb::new(db.as_bytes()).unwrap(), goal).unwrap()
}

fn fifteen_555(canonical: &Board) -> &'static PatternDb<Vec<u8>> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    type Built = Mutex<HashMap<Board, &'static PatternDb<Vec<u8>>>>;
    static BUILT: OnceLock<Built> = OnceLock::new();
    let mut built = BUILT.get_or_init(Default::default).lock().unwrap();
    built.entry(*canonical).or_insert_with(|| {
        let partition = Partition::standard(canonical, "5-5-5").unwrap();
        Box::leak(Box::new(pdb::build(canonical, &partition, |_| {}).unwrap()))
    })
}

/// Korf's 100 instances: (number, board, optimal length), goal `0 1 … 15`.
fn korf100() -> Vec<(u32, Board, u32)> {
    let shape = Shape::new(4, 4).unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/korf100.txt"
    ))
    .unwrap();
    text.lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let board = Board::parse(&f[1..17].join(" "), Some(shape)).unwrap();
            (f[0].parse().unwrap(), board, f[17].parse().unwrap())
        })
        .collect()
}

/// The easiest of Korf's 100 15-puzzle instances, solved optimally by IDA*
/// with additive 5-5-5 pattern databases of the canonical goal
/// `1 2 … 15 0`, toward Korf's goal `0 1 … 15` (its 180° turn).
#[test]
fn solves_the_easiest_korf_instances_optimally() {
    let shape = Shape::new(4, 4).unwrap();
    let korf_goal = Board::parse("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", Some(shape)).unwrap();
    let class = slidedb::symmetry::GoalClass::of(&korf_goal);
    assert_eq!(*class.canonical(), Board::solved(shape));
    let db = toward(fifteen_555(class.canonical()), class.goal());
    let mut instances = korf100();
    assert_eq!(instances.len(), 100);
    assert_eq!(instances.iter().map(|i| i.2).sum::<u32>(), 5305);
    instances.sort_by_key(|i| i.2);
    for (id, board, length) in instances.iter().take(4) {
        assert!(db.estimate(board).unwrap() <= *length, "#{id}");
        let found = db.solve(board).unwrap();
        let moves = found.moves.unwrap();
        assert_eq!(moves.len() as u32, *length, "#{id}");
        assert!(common::leads_to(board, &moves, &korf_goal), "#{id}");
    }
}

/// The file round-trips, and the two kinds are not mistaken for each
/// other.
#[test]
fn pattern_files_open_and_are_not_tables() {
    let goal = Board::solved(Shape::new(2, 4).unwrap());
    let db = pdb::build(&goal, &Partition::standard(&goal, "4-3").unwrap(), |_| {}).unwrap();
    let copy = PatternDb::new(db.as_bytes().to_vec()).unwrap();
    copy.verify().unwrap();
    assert_eq!(copy.partition(), db.partition());
    assert_eq!(copy.goal(), &goal);
    for g in 0..2 {
        assert_eq!(copy.entries(g), db.entries(g));
        assert_eq!(
            copy.layers(g).iter().sum::<u64>(),
            copy.entries(g).len() as u64
        );
    }
    assert!(matches!(
        slidedb::Table::new(db.as_bytes()),
        Err(FileError::WrongKind { .. })
    ));
    let table = common::table(goal.shape());
    assert!(matches!(
        PatternDb::new(table.as_bytes()),
        Err(FileError::WrongKind { .. })
    ));
    // Every truncation is refused; a flipped body byte fails verify.
    let bytes = db.as_bytes();
    for len in (0..bytes.len()).step_by(97) {
        assert!(PatternDb::new(&bytes[..len]).is_err(), "{len}");
    }
    let mut damaged = bytes.to_vec();
    *damaged.last_mut().unwrap() ^= 0x40;
    assert!(PatternDb::new(&damaged[..]).unwrap().verify().is_err());
}

/// Goals of every 4x4 class (blank in a corner, on an edge, in the
/// middle), each through its own class's databases: on boards a few dozen
/// random moves from the goal, IDA* over them finds paths exactly as long
/// as IDA* with Manhattan distance (both optimal), leading to the goal.
#[test]
fn every_fifteen_puzzle_goal_class_is_solved_optimally() {
    use slidedb::symmetry::GoalClass;
    use slidedb::{Algorithm, Heuristic, Move, Solver};
    let shape = Shape::new(4, 4).unwrap();
    for goal in [
        "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
        "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
        "1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15",
    ] {
        let goal = Board::parse(goal, Some(shape)).unwrap();
        let class = GoalClass::of(&goal);
        let db = toward(fifteen_555(class.canonical()), class.goal());
        let solver = Solver::new(&goal);
        let mut rng = SplitMix64::new(15);
        for _ in 0..6 {
            let mut board = goal;
            for _ in 0..40 {
                let mv = Move::ALL[rng.below(4) as usize];
                board = board.apply(mv).unwrap_or(board);
            }
            let found = db.solve(&board).unwrap();
            let moves = found.moves.unwrap();
            assert!(common::leads_to(&board, &moves, &goal), "{board:?}");
            let manhattan = solver
                .solve(&board, Algorithm::IdaStar, Heuristic::Manhattan)
                .unwrap()
                .moves
                .unwrap();
            assert_eq!(moves.len(), manhattan.len(), "{board:?} toward {goal:?}");
        }
    }
}

/// Mirrors on boards that are not square: the flip across the middle
/// column keeps a 2x3 goal's blank in place (cell 4), the flip across the
/// middle row a 3x2 goal's (cell 3). IDA* over the larger sum is optimal
/// on every board, also with groups that leave tiles out.
#[test]
fn mirrors_of_non_square_boards_keep_idastar_optimal() {
    for (goal, groups) in [
        ("1 2 3 / 4 0 5", vec![vec![1, 2, 3], vec![4, 5]]),
        ("1 2 / 3 4 / 5 0", vec![vec![1, 3, 5], vec![2]]),
        ("1 2 / 3 0 / 4 5", vec![vec![1, 2, 4], vec![5]]),
        ("1 2 3 / 4 0 5", vec![vec![2, 5]]),
    ] {
        let goal: Board = goal.parse().unwrap();
        let db = pdb::build(
            &goal,
            &Partition::new(goal.shape(), groups).unwrap(),
            |_| {},
        )
        .unwrap();
        for (board, &d) in &common::reference_bfs(&goal) {
            let moves = db.solve(board).unwrap().moves.unwrap();
            assert_eq!(moves.len() as u32, d, "{board:?} toward {goal:?}");
            assert!(common::leads_to(board, &moves, &goal));
        }
    }
}

/// Recomputes the body and header checksums of a pattern file after its
/// bytes were changed (FORMAT.md: body CRC at 56, header CRC at 60).
fn reseal(bytes: &mut [u8]) {
    let body = u64::from_le_bytes(bytes[40..48].try_into().unwrap()) as usize;
    let metadata_len = u64::from_le_bytes(bytes[32..40].try_into().unwrap()) as usize;
    let crc = crc32fast::hash(&bytes[body..]);
    bytes[56..60].copy_from_slice(&crc.to_le_bytes());
    let crc = crc32fast::hash(&bytes[64..64 + metadata_len]);
    bytes[20..24].copy_from_slice(&crc.to_le_bytes());
    let crc = crc32fast::hash(&bytes[..60]);
    bytes[60..64].copy_from_slice(&crc.to_le_bytes());
}

/// Files whose checksums hold but whose contents cannot be right are
/// refused: a goal placement that does not read 0 (IDA* would never
/// accept the goal) on open, entries that contradict the layer counts by
/// `verify`, groups out of order (the body would be read by another
/// layout) on open.
#[test]
fn sealed_but_wrong_pattern_files_are_refused() {
    let goal = Board::solved(Shape::new(2, 4).unwrap());
    let db = pdb::build(&goal, &Partition::standard(&goal, "4-3").unwrap(), |_| {}).unwrap();
    let bytes = db.as_bytes().to_vec();
    let body = u64::from_le_bytes(bytes[40..48].try_into().unwrap()) as usize;
    // Group 1 is tiles 1 2 3 4, home in cells 0 1 2 3: rank 0.
    let mut home = bytes.clone();
    home[body] = 1;
    reseal(&mut home);
    let err = PatternDb::new(&home[..]).expect_err("refused");
    assert!(err.to_string().contains("entry for the goal is 1"), "{err}");
    // Some other entry changed: opens (O(1) checks), fails verify.
    let mut other = bytes.clone();
    other[body + 100] ^= 4;
    reseal(&mut other);
    let opened = PatternDb::new(&other[..]).unwrap();
    let err = opened.verify().expect_err("refused");
    assert!(err.to_string().contains("layer counts"), "{err}");
    // Tiles 1 2 of group 1 swapped in the metadata: same length, resealed.
    let metadata_len = u64::from_le_bytes(bytes[32..40].try_into().unwrap()) as usize;
    let meta = &bytes[64..64 + metadata_len];
    let at = meta
        .windows(5)
        .position(|w| w == [4, 1, 2, 3, 4])
        .expect("the first group's bytes: its length, then its tiles");
    let mut swapped = bytes.clone();
    swapped[64 + at + 1] = 2;
    swapped[64 + at + 2] = 1;
    reseal(&mut swapped);
    let err = PatternDb::new(&swapped[..]).expect_err("refused");
    assert!(err.to_string().contains("not ascending"), "{err}");
}

/// The 24-puzzle's 7-7-7-3 in small, on the 15-puzzle (the partition of
/// the same kind the issue allows for a test CI runs): toward Korf's goal
/// (blank first), the tiles above the main diagonal, their mirror images
/// below it, and the diagonal. Built to a file one group at a time, the
/// second group read through the reflection from the first (no search),
/// to the bytes of the build in memory; then the easiest of Korf's 100
/// are solved optimally under the maximum of it and the published 6-6-3,
/// by the library call and by a database that finds both files in its
/// folder, with fewer nodes in all than under either set alone.
#[test]
fn a_mirrored_partition_built_to_a_file_solves_beside_another_set() {
    use slidedb::build::{BuildOptions, PatternEvent, build_patterns_file};
    let shape = Shape::new(4, 4).unwrap();
    let korf_goal = Board::parse("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", Some(shape)).unwrap();
    let canonical = korf_goal.canonical_goal();
    let dir = tempfile::tempdir().unwrap();
    let mirrored = Partition::parse(&korf_goal, "1,2,3,6,7,11/4,8,9,12,13,14/5,10,15").unwrap();
    let published = Partition::standard(&korf_goal, "6-6-3").unwrap();
    let mut paths = Vec::new();
    for partition in [&mirrored, &published] {
        let name = slidedb::pattern_file_name(&canonical, &partition.label(&korf_goal));
        let path = dir.path().join(name);
        let mut derived = Vec::new();
        build_patterns_file(
            &korf_goal,
            partition,
            &path,
            &BuildOptions::default(),
            |e| {
                if let PatternEvent::Mirrored { group, of } = e {
                    derived.push((group, of));
                }
            },
        )
        .unwrap();
        let in_memory = pdb::build(&korf_goal, partition, |_| {}).unwrap();
        assert!(std::fs::read(&path).unwrap() == in_memory.as_bytes());
        let want: &[(usize, usize)] = if partition == &mirrored {
            &[(1, 0)]
        } else {
            &[]
        };
        assert_eq!(derived, want);
        paths.push(path);
    }
    let sets: Vec<PatternDb<_>> = paths
        .iter()
        .map(|p| PatternDb::open_path(p).unwrap())
        .collect();
    let folder = slidedb::Database::open(dir.path()).unwrap();
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut instances = korf100();
    instances.sort_by_key(|i| i.2);
    let (mut both, mut first, mut second) = (0, 0, 0);
    for (id, board, length) in instances.iter().take(6) {
        let solved = one.install(|| sets[0].solve_with(&[&sets[1]], board).unwrap());
        let moves = solved.moves.unwrap();
        assert_eq!(moves.len() as u32, *length, "#{id}");
        assert!(common::leads_to(board, &moves, &korf_goal), "#{id}");
        both += solved.stats.unwrap().expanded;
        first += one.install(|| sets[0].solve(board).unwrap().stats.unwrap().expanded);
        second += one.install(|| sets[1].solve(board).unwrap().stats.unwrap().expanded);
        let answer = folder.solve(board, &korf_goal).unwrap();
        assert_eq!(answer.distance(), Some(*length), "#{id}");
        assert!(
            common::leads_to(board, &answer.moves.unwrap(), &korf_goal),
            "#{id}"
        );
    }
    assert_eq!(folder.other_patterns(&korf_goal).len(), 1);
    assert!(both < first.min(second), "{both} vs {first} and {second}");
}

/// A data folder with plain and blank-aware databases of the same groups
/// searches the blank-aware ones alone (they are never weaker), and a set
/// of other groups beside them; each is found under the name
/// `PatternSpec::label` gives it.
#[test]
fn blank_aware_twin_replaces_the_plain_set_in_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let goal = Board::solved(Shape::new(2, 4).unwrap());
    for spec in ["4-3", "4-3-blank", "1,5/2,6/3,7/4"] {
        let db = Database::open(dir.path()).unwrap();
        let built = db.patterns_of_sizes(&goal, spec).unwrap();
        let spec = slidedb::PatternSpec::parse(&goal, spec).unwrap();
        assert_eq!(built.get().entry_kind(), spec.kind());
        let name = slidedb::pattern_file_name(&goal, &spec.label(&goal));
        assert!(dir.path().join(&name).is_file(), "{name}");
    }
    // No table is built: the boards are answered through the databases.
    let db = Database::builder()
        .data_dir(dir.path())
        .build_missing_up_to(0)
        .open()
        .unwrap();
    assert!(matches!(db.exact(&goal), Ok(slidedb::ExactBy::Patterns(_))));
    let first = db.patterns(&goal).unwrap().unwrap();
    assert_eq!(first.get().entry_kind(), pdb::EntryKind::BlankAware);
    let others = db.other_patterns(&goal);
    assert_eq!(others.len(), 1);
    assert_eq!(others[0].partition().groups().len(), 4);
    assert_eq!(others[0].entry_kind(), pdb::EntryKind::Plain);
    // Every board of the class is answered optimally through them.
    for (board, &d) in common::reference_bfs(&goal).iter().step_by(97) {
        let solution = db.solve(board, &goal).unwrap();
        assert_eq!(solution.distance(), Some(d), "{board:?}");
    }
}
