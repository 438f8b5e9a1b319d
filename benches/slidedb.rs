//! Criterion benchmarks: building tables, the index, solving, and the
//! tablebase queries.
//!
//! ```text
//! cargo bench                      # everything, about a minute
//! cargo bench -- solve/            # one group
//! ```
//!
//! All tables are built in memory (no file, no map); `scripts/bench.sh`
//! times the binaries end to end.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use slidedb::random::SplitMix64;
use slidedb::table::RareLayers;
use slidedb::{Algorithm, Board, Heuristic, Index, Indexer, Shape, Solver, Table, generate};

/// Boards in the rank/unrank sets.
const INDEX_SET: usize = 1024;
/// Boards in `solve/batch`.
const BATCH: usize = 10_000;

/// `count` uniformly random boards that can reach the default goal of
/// `shape`: random indices, unranked.
fn random_boards(shape: Shape, count: usize, seed: u64) -> Vec<Board> {
    let indexer = Indexer::new(&Board::solved(shape));
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            indexer
                .unrank(Index(rng.below(indexer.len())))
                .expect("an index below len")
        })
        .collect()
}

fn eight_table() -> Table<Vec<u8>> {
    generate(&Board::solved(Shape::EIGHT), |_| {}).expect("3x3 builds")
}

fn bench_generate(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(5));
    for shape in [Shape::EIGHT, Shape::new(2, 4).expect("2x4")] {
        let goal = Board::solved(shape);
        group.throughput(Throughput::Elements(shape.states() as u64));
        group.bench_function(shape.to_string(), |b| {
            b.iter(|| generate(black_box(&goal), |_| {}).expect("builds"))
        });
    }
    group.finish();
}

fn bench_index(c: &mut Criterion) {
    let goal = Board::solved(Shape::EIGHT);
    let indexer = Indexer::new(&goal);
    let boards = random_boards(Shape::EIGHT, INDEX_SET, 1);
    let indices: Vec<Index> = boards
        .iter()
        .map(|b| indexer.rank(b).expect("reachable"))
        .collect();

    let mut group = c.benchmark_group("rank");
    group.throughput(Throughput::Elements(INDEX_SET as u64));
    group.bench_function("3x3", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for board in black_box(&boards) {
                sum = sum.wrapping_add(indexer.rank(board).expect("reachable").0);
            }
            sum
        })
    });
    group.finish();

    let mut group = c.benchmark_group("unrank");
    group.throughput(Throughput::Elements(INDEX_SET as u64));
    group.bench_function("3x3", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for &index in black_box(&indices) {
                sum = sum.wrapping_add(indexer.unrank(index).expect("in range").packed() as u64);
            }
            sum
        })
    });
    group.finish();
}

fn bench_solve(c: &mut Criterion) {
    let table = eight_table();
    let mut group = c.benchmark_group("solve");

    // One board at a time, reusing the move buffer.
    for (name, text, distance) in [
        ("one/d19", "2 3 4 1 5 x 7 6 8", 19),
        ("one/d31", "8 6 7 2 5 4 3 0 1", 31),
    ] {
        let board: Board = text.parse().expect("a 3x3 board");
        let mut moves = Vec::with_capacity(table.max_distance() as usize);
        assert_eq!(table.distance(&board), Ok(Some(distance)), "{text}");
        group.throughput(Throughput::Elements(1));
        group.bench_function(name, |b| {
            b.iter(|| {
                moves.clear();
                let solvable = table
                    .solve_into(black_box(&board), &mut moves)
                    .expect("not damaged");
                black_box(solvable);
                moves.len()
            })
        });
    }

    // The same through the library's engine (what every front end calls),
    // toward the canonical goal and toward Korf's (mapped by symmetry).
    let db = slidedb::Database::in_memory().open().expect("a database");
    for (name, goal) in [
        ("engine/d31", "1 2 3 4 5 6 7 8 0"),
        ("engine-mapped/d31", "0 1 2 3 4 5 6 7 8"),
    ] {
        let goal: Board = goal.parse().expect("a goal");
        let engine = db
            .engine(&goal, slidedb::Method::Exact)
            .expect("the 3x3 table");
        let board = engine
            .table()
            .expect("a lookup")
            .toward()
            .from_canonical(&"8 6 7 2 5 4 3 0 1".parse().expect("a board"));
        let mut moves = Vec::with_capacity(32);
        assert_eq!(engine.solve_into(&board, &mut moves), Ok(true));
        assert_eq!(moves.len(), 31, "{name}");
        group.throughput(Throughput::Elements(1));
        group.bench_function(name, |b| {
            b.iter(|| {
                moves.clear();
                engine
                    .solve_into(black_box(&board), &mut moves)
                    .expect("not damaged")
            })
        });
    }

    // A batch of random boards on one thread: the cost per board
    // (mean distance about 22) that `slidedb solve` spreads over cores.
    let boards = random_boards(Shape::EIGHT, BATCH, 2);
    let mut moves = Vec::with_capacity(table.max_distance() as usize);
    group.throughput(Throughput::Elements(BATCH as u64));
    group.sample_size(30);
    group.measurement_time(Duration::from_secs(4));
    group.bench_function("batch", |b| {
        b.iter(|| {
            let mut total = 0usize;
            for board in black_box(&boards) {
                moves.clear();
                let solvable = table.solve_into(board, &mut moves).expect("not damaged");
                debug_assert!(solvable);
                total += moves.len();
            }
            total
        })
    });
    group.finish();
}

/// Every algorithm on the course project's board and the two 31-move
/// boards: `algorithms/<board>/<algorithm>`, the table first, so the ratios
/// come from one run (`scripts/ratios.py` prints them).
fn bench_algorithms(c: &mut Criterion) {
    let cases = [
        ("course", "7 2 4 5 0 6 8 3 1", "0 1 2 3 4 5 6 7 8"),
        ("hardest-a", "8 6 7 2 5 4 3 0 1", "1 2 3 4 5 6 7 8 0"),
        ("hardest-b", "6 4 7 8 5 0 3 2 1", "1 2 3 4 5 6 7 8 0"),
    ];
    for (name, board, goal) in cases {
        let board: Board = board.parse().unwrap();
        let goal: Board = goal.parse().unwrap();
        let table = generate(&goal, |_| {}).unwrap();
        let solver = Solver::new(&goal);
        let mut group = c.benchmark_group(format!("algorithms/{name}"));
        let mut moves = Vec::with_capacity(64);
        group.bench_function("table", |b| {
            b.iter(|| {
                moves.clear();
                table.solve_into(black_box(&board), &mut moves).unwrap()
            })
        });
        for algorithm in Algorithm::ALL {
            if algorithm == Algorithm::Iddfs
                || algorithm == Algorithm::Bfs
                || algorithm == Algorithm::Dfs
            {
                // Milliseconds to seconds an iteration: the fewest samples.
                group
                    .sample_size(10)
                    .measurement_time(Duration::from_secs(1));
            }
            group.bench_function(algorithm.name(), |b| {
                b.iter(|| {
                    solver
                        .solve(black_box(&board), algorithm, Heuristic::Manhattan)
                        .unwrap()
                })
            });
        }
        group.bench_function("astar-linear-conflict", |b| {
            b.iter(|| {
                solver
                    .solve(
                        black_box(&board),
                        Algorithm::AStar,
                        Heuristic::LinearConflict,
                    )
                    .unwrap()
            })
        });
        group.finish();
    }
}

/// The 15-puzzle: building the 5-5-5 databases, and IDA* over them on
/// Korf's instances 9 (46 moves) and 6 (52 moves), toward `0 1 … 15`,
/// through the library's engine (the databases of the goal's class).
fn bench_patterns(c: &mut Criterion) {
    use slidedb::pdb::{self, Partition};
    use slidedb::{Database, Method};
    let shape = Shape::new(4, 4).unwrap();
    let korf = Board::parse("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", Some(shape)).unwrap();
    let partition = Partition::standard(&korf, "5-5-5").unwrap();
    let mut group = c.benchmark_group("pdb");
    group.sample_size(10);
    group.bench_function("build/5-5-5", |b| {
        b.iter(|| pdb::build(&korf, &partition, |_| {}).unwrap())
    });
    let built = pdb::build(&korf, &partition, |_| {}).unwrap();
    let db = Database::in_memory().patterns(built).open().unwrap();
    let engine = db.engine(&korf, Method::Exact).unwrap();
    for (name, board) in [
        ("idastar/korf9", "3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0"),
        ("idastar/korf6", "14 7 1 9 12 3 6 15 8 11 2 5 10 0 4 13"),
    ] {
        let board = Board::parse(board, Some(shape)).unwrap();
        group.bench_function(name, |b| {
            b.iter(|| engine.solve(black_box(&board)).unwrap())
        });
    }
    group.finish();
}

/// The tablebase queries: probe and count per board, random boards per
/// layer (3x3, and the 3x4 table built in memory: 7 s and 450 MB first).
fn bench_queries(c: &mut Criterion) {
    let mut group = c.benchmark_group("queries");
    let eight = eight_table();
    let boards = random_boards(Shape::EIGHT, INDEX_SET, 3);
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("probe/3x3", |b| {
        b.iter(|| {
            for board in &boards {
                black_box(eight.probe(black_box(board)).unwrap());
            }
        })
    });
    group.throughput(Throughput::Elements(1));
    let hardest: Board = "8 6 7 2 5 4 3 0 1".parse().unwrap();
    group.bench_function("count/3x3-hardest", |b| {
        b.iter(|| eight.count(black_box(&hardest)).unwrap())
    });
    let rare = RareLayers::build(&eight, eight.max_distance()).unwrap();
    for d in [10, 20, 31] {
        let mut rng = SplitMix64::new(d as u64);
        group.bench_function(format!("random/3x3/{d}"), |b| {
            b.iter(|| eight.random(d..=d, Some(&rare), &mut rng).unwrap())
        });
    }
    let shape = Shape::new(3, 4).expect("3x4");
    let twelve = generate(&Board::solved(shape), |_| {}).expect("3x4 builds");
    let boards = random_boards(shape, INDEX_SET, 4);
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("probe/3x4", |b| {
        b.iter(|| {
            for board in &boards {
                black_box(twelve.probe(black_box(board)).unwrap());
            }
        })
    });
    group.throughput(Throughput::Elements(1));
    // The most optimal solutions among the 18 hardest boards.
    let hardest = Board::parse("4 3 2 1 11 7 6 5 0 8 10 9", Some(shape)).unwrap();
    group.bench_function("count/3x4-hardest", |b| {
        b.iter(|| twelve.count(black_box(&hardest)).unwrap())
    });
    // Random boards: the mean over a set (some have wide layers of
    // optimal solutions).
    let sample = &boards[..64];
    group.throughput(Throughput::Elements(sample.len() as u64));
    group.bench_function("count/3x4-random", |b| {
        b.iter(|| {
            for board in sample {
                black_box(twelve.count(black_box(board)).unwrap());
            }
        })
    });
    group.throughput(Throughput::Elements(1));
    let rare = RareLayers::build(&twelve, twelve.max_distance()).unwrap();
    for d in [24, 36, 53] {
        let mut rng = SplitMix64::new(d as u64);
        group.bench_function(format!("random/3x4/{d}"), |b| {
            b.iter(|| twelve.random(d..=d, Some(&rare), &mut rng).unwrap())
        });
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50)
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_generate, bench_index, bench_solve, bench_algorithms, bench_patterns, bench_queries
}
criterion_main!(benches);
