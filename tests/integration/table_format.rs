//! The file format: bytes round-trip, and every kind of damage is an error
//! on open (or on verify, for the body), never a panic or an answer.

use crate::common::{FORMAT_VERSION, HEADER_LEN};
use slidedb::BuiltFor;
use slidedb::Section;
use slidedb::{Board, FileError, Shape, Table, generate};

fn small() -> Vec<u8> {
    generate(&Board::solved(Shape::new(2, 3).unwrap()), |_| {})
        .unwrap()
        .into_inner()
}

#[test]
fn bytes_round_trip() {
    let built = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
    let copy = Table::new(built.as_bytes()).unwrap();
    copy.verify().unwrap();
    assert_eq!(copy.shape(), Shape::EIGHT);
    assert_eq!(copy.goal(), built.goal());
    assert_eq!(copy.layers(), built.layers());
    assert_eq!(copy.hardest(), built.hardest());
    assert_eq!(
        copy.generator(),
        concat!("slidedb ", env!("CARGO_PKG_VERSION"))
    );
    // 181,440 entries of 2 bits, after a 64-byte header and the metadata.
    let body = 181_440usize.div_ceil(4);
    assert!(built.as_bytes().len() > body + HEADER_LEN);
    assert!(built.as_bytes().len() < body + 1024);
    assert_eq!(&built.as_bytes()[..8], b"SLIDEDB\0");
}

/// The parallel search writes the same bytes whatever the threads: 3x3
/// layers are big enough to run in parallel.
#[test]
fn generation_is_deterministic() {
    let build = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            generate(&Board::solved(Shape::EIGHT), |_| {})
                .unwrap()
                .into_inner()
        })
    };
    let one = build(1);
    assert_eq!(one, build(2));
    assert_eq!(one, build(3));
    assert_eq!(small(), small());
}

/// Changing any single byte before the body is caught on open.
#[test]
fn every_header_and_metadata_byte_is_checked() {
    let bytes = small();
    let body_offset = u64::from_le_bytes(bytes[40..48].try_into().unwrap()) as usize;
    for at in 0..body_offset {
        for flip in [0x01u8, 0x80, 0xFF] {
            let mut damaged = bytes.clone();
            damaged[at] ^= flip;
            assert!(
                Table::new(&damaged[..]).is_err(),
                "byte {at} ^ {flip:#x} went unnoticed"
            );
        }
    }
}

/// Cutting the file at any length is an error.
#[test]
fn every_truncation_is_an_error() {
    let bytes = small();
    for len in 0..bytes.len() {
        match Table::new(&bytes[..len]) {
            Err(FileError::Truncated { .. } | FileError::BadMagic) => {}
            Err(e) => panic!("truncated to {len}: unexpected error {e}"),
            Ok(_) => panic!("truncated to {len}: opened"),
        }
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Table::new(&longer[..]),
        Err(FileError::TrailingBytes { .. })
    ));
}

/// A changed body byte passes the O(1) open but not `verify`.
#[test]
fn body_damage_is_caught_by_verify() {
    let bytes = small();
    let len = bytes.len();
    for at in [len - 1, len - 50, len - 90] {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x04;
        let table = Table::new(&damaged[..]).unwrap();
        assert!(matches!(
            table.verify(),
            Err(FileError::Checksum {
                section: Section::Body,
                ..
            })
        ));
    }
}

#[test]
fn other_files_and_versions_are_named() {
    assert!(matches!(
        Table::new(&b"hello, world, this is not a table at all....."[..]),
        Err(FileError::BadMagic)
    ));
    assert!(matches!(
        Table::new(&b""[..]),
        Err(FileError::Truncated { .. })
    ));
    let mut newer = small();
    newer[10..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    let err = Table::new(&newer[..]).err().unwrap();
    assert!(
        matches!(err, FileError::Version { expected, got } if expected == FORMAT_VERSION && got == FORMAT_VERSION + 1)
    );
    assert!(err.to_string().contains("newer slidedb"), "{err}");
    // Version 1 tables did not record the goal they were built for.
    let mut older = small();
    older[10..12].copy_from_slice(&1u16.to_le_bytes());
    let err = Table::new(&older[..]).err().unwrap();
    assert!(
        matches!(err, FileError::Version { expected, got: 1 } if expected == crate::common::OLDEST_VERSION),
        "{err}"
    );
    assert!(
        err.to_string().contains("older slidedb") && err.to_string().contains("rebuild"),
        "{err}"
    );
}

/// A damaged body that was not verified never yields an answer that is
/// not a path to the goal: the descent stops with `Damaged` and leaves the
/// caller's moves as they were.
#[test]
fn a_damaged_body_gives_an_error_not_a_path() {
    let bytes = small();
    let body_offset = u64::from_le_bytes(bytes[40..48].try_into().unwrap()) as usize;
    let board = Board::parse("4 5 0 1 2 3", Some(Shape::new(2, 3).unwrap())).unwrap();
    for fill in [0x00u8, 0xFF, 0x55] {
        let mut damaged = bytes.clone();
        damaged[body_offset..].fill(fill);
        let table = Table::new(&damaged[..]).unwrap();
        let mut moves = vec![slidedb::Move::Up];
        let got = table.solve_into(&board, &mut moves);
        assert!(
            matches!(got, Err(slidedb::SolveError::Damaged { .. })),
            "fill {fill:#x}: {got:?}"
        );
        assert_eq!(moves, [slidedb::Move::Up], "fill {fill:#x}");
    }
}

/// A damaged entry is named by the board the descent stood on: the start
/// itself when its own entry holds no distance, and a board along the way
/// when no move leads one closer.
#[test]
fn a_damaged_body_names_the_board_where_the_descent_stopped() {
    let bytes = small();
    let body_offset = u64::from_le_bytes(bytes[40..48].try_into().unwrap()) as usize;
    let shape = Shape::new(2, 3).unwrap();
    let board = Board::parse("4 5 0 1 2 3", Some(shape)).unwrap();
    let mut no_distance = bytes.clone();
    no_distance[body_offset..].fill(0xFF);
    let table = Table::new(&no_distance[..]).unwrap();
    match table.solve(&board) {
        Err(slidedb::SolveError::Damaged { board: at, why }) => {
            assert_eq!(at, "4 5 0 1 2 3");
            assert_eq!(why, "its entry holds no distance");
        }
        other => panic!("{other:?}"),
    }
    // Every entry 0: the start reads distance 0 mod 3 and every neighbour
    // 0 too, never the 2 one closer would be.
    let mut all_zero = bytes.clone();
    all_zero[body_offset..].fill(0);
    let table = Table::new(&all_zero[..]).unwrap();
    match table.solve(&board) {
        Err(slidedb::SolveError::Damaged { board: at, why }) => {
            assert_eq!(at, "4 5 0 1 2 3");
            assert_eq!(why, "no move leads one closer");
        }
        other => panic!("{other:?}"),
    }
}

/// The metadata's own checksum: every metadata byte changed, with the
/// header left whole, is refused as a metadata checksum mismatch, for
/// both kinds of file (before anything is decoded from it).
#[test]
fn every_metadata_byte_is_under_the_metadata_checksum() {
    use slidedb::pdb::{self, Partition, PatternDb};
    let goal = Board::solved(Shape::new(2, 3).unwrap());
    let table = small();
    let db = pdb::build(&goal, &Partition::standard(&goal, "3-2").unwrap(), |_| {})
        .unwrap()
        .into_inner();
    type Open = fn(&[u8]) -> Result<(), FileError>;
    let kinds: [(&[u8], Open); 2] = [
        (&table, |b| Table::new(b).map(|_| ())),
        (&db, |b| PatternDb::new(b).map(|_| ())),
    ];
    for (bytes, open) in kinds {
        let len = u64::from_le_bytes(bytes[32..40].try_into().unwrap()) as usize;
        assert!(len > 20);
        for at in HEADER_LEN..HEADER_LEN + len {
            let mut changed = bytes.to_vec();
            changed[at] ^= 0x20;
            match open(&changed) {
                Err(FileError::Checksum {
                    section: Section::Metadata,
                    ..
                }) => {}
                other => panic!("byte {at}: {other:?}"),
            }
        }
    }
}
