//! Hostile inputs from fuzzing the two untrusted surfaces (`fuzz/`): table
//! files through `Table::new` and text through `Board::parse` and
//! `Shape::from_str`. Each must be an error (or a valid answer), never a
//! panic, a hang or a huge allocation.

use crate::common::{FORMAT_VERSION, HEADER_LEN, MAX_METADATA_LEN};
use slidedb::BuiltFor;
use slidedb::{Board, BoardError, FileError, Shape, Table};

/// bincode 2's standard variable-length integer.
fn varint(out: &mut Vec<u8>, v: u64) {
    if v < 251 {
        out.push(v as u8);
    } else if v <= u16::MAX as u64 {
        out.push(251);
        out.extend_from_slice(&(v as u16).to_le_bytes());
    } else if v <= u32::MAX as u64 {
        out.push(252);
        out.extend_from_slice(&(v as u32).to_le_bytes());
    } else {
        out.push(253);
        out.extend_from_slice(&v.to_le_bytes());
    }
}

fn bytes_field(out: &mut Vec<u8>, b: &[u8]) {
    varint(out, b.len() as u64);
    out.extend_from_slice(b);
}

/// The metadata section, encoded as FORMAT.md specifies, field by field
/// (the indexed goal is the goal: every goal here is its class's
/// canonical goal, or meant to be refused before that matters).
fn metadata(
    rows: u8,
    cols: u8,
    goal: &[u8],
    states: u64,
    layers: &[u64],
    hardest: &[&[u8]],
) -> Vec<u8> {
    metadata_indexed(rows, cols, goal, goal, states, layers, hardest)
}

/// [`metadata`] with an indexed goal of its own.
fn metadata_indexed(
    rows: u8,
    cols: u8,
    goal: &[u8],
    indexed: &[u8],
    states: u64,
    layers: &[u64],
    hardest: &[&[u8]],
) -> Vec<u8> {
    let mut m = Vec::new();
    bytes_field(&mut m, b"fuzz");
    m.push(rows);
    m.push(cols);
    bytes_field(&mut m, goal);
    m.push(rows);
    m.push(cols);
    bytes_field(&mut m, indexed);
    varint(&mut m, states);
    varint(&mut m, layers.len() as u64);
    for &l in layers {
        varint(&mut m, l);
    }
    varint(&mut m, layers.len() as u64 - 1);
    varint(&mut m, hardest.len() as u64);
    for h in hardest {
        bytes_field(&mut m, h);
    }
    m.push(0); // the metric: single-tile
    m
}

/// A 64-byte header with both its checksums right, whatever the fields.
fn header(meta: &[u8], metadata_len: u64, body_offset: u64, body_len: u64) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER_LEN);
    h.extend_from_slice(b"SLIDEDB\0");
    h.extend_from_slice(&0xFEFFu16.to_le_bytes());
    h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    h.extend_from_slice(&64u32.to_le_bytes());
    h.extend_from_slice(&1u16.to_le_bytes());
    h.extend_from_slice(&1u16.to_le_bytes());
    h.extend_from_slice(&crc32fast::hash(meta).to_le_bytes());
    h.extend_from_slice(&64u64.to_le_bytes());
    h.extend_from_slice(&metadata_len.to_le_bytes());
    h.extend_from_slice(&body_offset.to_le_bytes());
    h.extend_from_slice(&body_len.to_le_bytes());
    h.extend_from_slice(&0u32.to_le_bytes());
    let crc = crc32fast::hash(&h);
    h.extend_from_slice(&crc.to_le_bytes());
    h
}

fn body_offset(metadata_len: u64) -> u64 {
    (64 + metadata_len).next_multiple_of(64)
}

/// A whole file: header, metadata, zero padding, body.
fn file(meta: &[u8], body: &[u8]) -> Vec<u8> {
    let offset = body_offset(meta.len() as u64);
    let mut out = header(meta, meta.len() as u64, offset, body.len() as u64);
    out.extend_from_slice(meta);
    out.resize(offset as usize, 0);
    out.extend_from_slice(body);
    out
}

fn open(bytes: &[u8]) -> Result<(), FileError> {
    Table::new(bytes).map(|_| ())
}

/// The body of the real 2x2 table.
const TWO_BY_TWO_BODY: [u8; 3] = [0x4a, 0x98, 0x50];

/// The 2x2 metadata of a real table, for the tests to spoil.
fn two_by_two() -> Vec<u8> {
    metadata(
        2,
        2,
        &[1, 2, 3, 0],
        12,
        &[1, 2, 2, 2, 2, 2, 1],
        &[&[0, 3, 2, 1]],
    )
}

#[test]
fn a_metric_byte_other_than_0_or_1_is_refused() {
    let mut meta = two_by_two();
    *meta.last_mut().unwrap() = 7;
    let err = open(&file(&meta, &TWO_BY_TWO_BODY)).unwrap_err();
    assert!(err.to_string().contains("unknown metric 7"), "{err}");
    // 1 is the multi-tile metric: the 2x2 table's layers are then wrong
    // for no reason of the metric's (a 2x2 board has the same moves in
    // both), and it opens.
    *meta.last_mut().unwrap() = 1;
    let table = Table::new(file(&meta, &TWO_BY_TWO_BODY)).unwrap();
    assert_eq!(slidedb::BuiltFor::metric(&table), slidedb::Metric::Multi);
}

#[test]
fn the_hand_encoded_table_opens() {
    // Checks the helpers: a 2x2 table with the body slidedb-gen writes
    // opens and solves every board (only its body CRC, left 0, is wrong).
    let bytes = file(&two_by_two(), &TWO_BY_TWO_BODY);
    let table = Table::new(&bytes[..]).unwrap();
    assert_eq!(table.max_distance(), 6);
    assert!(table.verify().is_err());
    let goal = *table.goal();
    assert_eq!(table.solve(&goal).unwrap().moves, Some(Vec::new()));
    assert_eq!(table.distance(&table.hardest()[0]), Ok(Some(6)));
    for i in 0..table.states() {
        let board = table.indexer().unrank(slidedb::Index(i)).unwrap();
        let moves = table.solve(&board).unwrap().moves.unwrap();
        assert_eq!(board.apply_all(&moves), Some(goal));
    }
}

#[test]
fn huge_metadata_lengths_are_layout_errors() {
    let meta = two_by_two();
    for len in [MAX_METADATA_LEN + 1, u64::MAX / 2, u64::MAX - 63, u64::MAX] {
        let mut bytes = header(&meta, len, body_offset(meta.len() as u64), 3);
        bytes.extend_from_slice(&meta);
        assert!(
            matches!(open(&bytes), Err(FileError::Layout { .. })),
            "metadata length {len}: {:?}",
            open(&bytes)
        );
    }
}

#[test]
fn offsets_and_lengths_near_u64_max_are_errors() {
    let meta = two_by_two();
    let len = meta.len() as u64;
    let offset = body_offset(len);
    let cases = [
        (offset, u64::MAX),
        (offset, u64::MAX - offset),
        (offset, u64::MAX - offset + 1),
        (u64::MAX, 3),
        (u64::MAX - 63, 3),
        (0, 3),
    ];
    for (body_offset, body_len) in cases {
        let mut bytes = header(&meta, len, body_offset, body_len);
        bytes.extend_from_slice(&meta);
        bytes.resize(offset as usize + 3, 0);
        let got = open(&bytes);
        assert!(
            matches!(
                got,
                Err(FileError::Layout { .. } | FileError::Truncated { .. })
            ),
            "body at {body_offset}, {body_len} bytes: {got:?}"
        );
    }
}

#[test]
fn a_valid_header_over_garbage_metadata_is_a_metadata_error() {
    let garbage: [&[u8]; 6] = [
        &[0xFF; 40],
        &[0; 40],
        // A generator string claiming u64::MAX bytes.
        &[253, 255, 255, 255, 255, 255, 255, 255, 255],
        // A goal sequence claiming 2^60 cells.
        &[0, 2, 2, 253, 0, 0, 0, 0, 0, 0, 0, 16],
        // A layer list claiming u32::MAX entries.
        &[0, 2, 2, 4, 1, 2, 3, 0, 12, 252, 255, 255, 255, 255],
        // Valid UTF-8 lead byte, invalid string.
        &[2, 0xC3, 0x28, 2, 2],
    ];
    for meta in garbage {
        let got = open(&file(meta, &[0; 3]));
        assert!(
            matches!(got, Err(FileError::Metadata { .. })),
            "{meta:?}: {got:?}"
        );
    }
}

#[test]
fn metadata_that_contradicts_itself_is_an_error() {
    let cases = [
        // Trailing bytes after the metadata.
        {
            let mut m = two_by_two();
            m.push(0);
            m
        },
        // One-row and oversized boards.
        metadata(1, 4, &[1, 2, 3, 0], 12, &[1, 11], &[&[1, 2, 0, 3]]),
        metadata(5, 5, &[1, 2, 3, 0], 12, &[1, 11], &[&[1, 2, 0, 3]]),
        // A goal with two blanks, or a tile out of range.
        metadata(2, 2, &[1, 0, 3, 0], 12, &[1, 11], &[&[1, 2, 0, 3]]),
        metadata(2, 2, &[1, 2, 9, 0], 12, &[1, 11], &[&[1, 2, 0, 3]]),
        // The wrong state count, layers that do not add up or overflow.
        metadata(2, 2, &[1, 2, 3, 0], 13, &[1, 12], &[&[1, 2, 0, 3]]),
        metadata(2, 2, &[1, 2, 3, 0], 12, &[1, 10], &[&[1, 2, 0, 3]]),
        metadata(
            2,
            2,
            &[1, 2, 3, 0],
            12,
            &[1, u64::MAX, 12],
            &[&[1, 2, 0, 3]],
        ),
        metadata(2, 2, &[1, 2, 3, 0], 12, &[1, 0, 11], &[&[1, 2, 0, 3]]),
        metadata(2, 2, &[1, 2, 3, 0], 12, &[], &[&[1, 2, 0, 3]]),
        // No hardest state, more than the last layer, or an unreachable one.
        metadata(2, 2, &[1, 2, 3, 0], 12, &[1, 11], &[]),
        metadata(
            2,
            2,
            &[1, 2, 3, 0],
            12,
            &[1, 10, 1],
            &[&[1, 2, 0, 3], &[1, 0, 2, 3]],
        ),
        metadata(2, 2, &[1, 2, 3, 0], 12, &[1, 11], &[&[2, 1, 3, 0]]),
    ];
    for meta in cases {
        let got = open(&file(&meta, &[0; 3]));
        assert!(
            matches!(got, Err(FileError::Metadata { .. })),
            "{meta:?}: {got:?}"
        );
    }
}

/// A body of garbage under a valid header and metadata opens (its checksum
/// is only checked by `verify`), but no query panics or loops: each solve
/// either reaches the goal by legal moves or reports the damage.
#[test]
fn a_garbage_body_gives_damage_errors_not_panics() {
    let meta = two_by_two();
    for body in [
        [0u8; 3],
        [0xFF; 3],
        [0x55; 3],
        [0xAA; 3],
        [0x4a, 0x98, 0x00],
        [0x4a, 0x98, 0x51],
        [0x4b, 0x98, 0x50],
    ] {
        let bytes = file(&meta, &body);
        let table = Table::new(&bytes[..]).unwrap();
        assert!(table.verify().is_err());
        let goal = *table.goal();
        let indexer = table.indexer();
        for i in 0..indexer.len() {
            let board = indexer.unrank(slidedb::Index(i)).unwrap();
            if let Ok(slidedb::Solution {
                moves: Some(moves), ..
            }) = table.solve(&board)
            {
                assert_eq!(board.apply_all(&moves), Some(goal));
                assert!(moves.len() <= table.max_distance() as usize);
            }
        }
    }
}

#[test]
fn hostile_board_text_is_an_error() {
    let long_row = "1 ".repeat(1_000_000);
    let long_chars = "1".repeat(1_000_000);
    let cases: [&str; 11] = [
        &long_row,
        &long_chars,
        "1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/0",
        "999 1 2 0",
        "1 2 3 18446744073709551616",
        "×",
        "\u{3000}",
        "1,2,3,0 ,",
        "/",
        "0 0 0 0",
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15 16",
    ];
    for text in cases {
        assert!(Board::parse(text, None).is_err(), "{:.40?}", text);
        assert!(
            Board::parse(text, Some(Shape::new(2, 2).unwrap())).is_err(),
            "{:.40?}",
            text
        );
    }
    for text in [
        "1x1",
        "0x9",
        "9999x2",
        "2x",
        "x2",
        "2x2x2",
        "+2x2",
        "18446744073709551617x1",
        "",
    ] {
        assert!(
            matches!(
                text.parse::<Shape>(),
                Err(BoardError::BadSize { .. } | BoardError::UnsupportedSize { .. })
            ),
            "{text:?}"
        );
    }
}

/// A table of 2x7 (14 cells) had every check pass, but the index ranks no
/// board of 13 tiles: the first solve panicked (`unreachable!` in
/// `Indexer::tile_rank`). Its 10.9 GB body costs nothing as a sparse file.
/// Tables above `MAX_TABLE_CELLS` cells, which no slidedb writes, are now
/// refused on open; 2x7 tables are written now (`slidedb-gen --size
/// 2x7`), and this one, all zeros, opens and answers with an error.
#[test]
fn a_table_larger_than_any_slidedb_writes_is_refused() {
    use std::io::Write;
    for (rows, cols) in [(2u8, 7u8), (3, 5), (4, 4)] {
        let cells = rows as u64 * cols as u64;
        let states = (2..=cells).product::<u64>() / 2;
        let goal: Vec<u8> = (1..cells as u8).chain([0]).collect();
        let meta = metadata(rows, cols, &goal, states, &[1, states - 1], &[&goal]);
        let offset = body_offset(meta.len() as u64);
        let body_len = states.div_ceil(4);
        let mut bytes = header(&meta, meta.len() as u64, offset, body_len);
        bytes.extend_from_slice(&meta);
        bytes.resize(offset as usize, 0);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.slidedb");
        let mut f = std::fs::File::create(&path).unwrap();
        f.write_all(&bytes).unwrap();
        if f.set_len(offset + body_len).is_err() {
            eprintln!(
                "no sparse file of {} bytes here; skipped",
                offset + body_len
            );
            continue;
        }
        drop(f);
        match Table::open_path(&path) {
            Err(FileError::Metadata { .. }) if cells > 14 => {}
            Err(e) => panic!("{rows}x{cols}: {e}"),
            Ok(table) if cells == 14 => {
                // Every entry 0: from a board one move out, the descent
                // finds no closer neighbour.
                let mut near = goal.clone();
                near.swap(12, 13);
                let near = slidedb::Board::from_tiles(table.shape(), &near).unwrap();
                let answer = table.solve(&near);
                assert!(
                    matches!(answer, Err(slidedb::SolveError::Damaged { .. })),
                    "{answer:?}"
                );
            }
            Ok(table) => {
                // Before the fix this panicked for 2x7 and 3x5.
                let answer = table.solve(&table.hardest()[0]);
                panic!("{rows}x{cols} opened and answered {answer:?}");
            }
        }
    }
}

/// A file whose indexed goal is not the canonical goal of its goal would be
/// read by the wrong layout: refused on open, for both kinds of goal
/// mismatch (a valid board that is not canonical, and the canonical goal of
/// another class).
#[test]
fn an_indexed_goal_that_is_not_the_goals_canonical_goal_is_refused() {
    // The 2x2 goal 1 2 3 0 is canonical; its real body, with an indexed
    // goal of the same class but not canonical, or of the other parity.
    for indexed in [&[3u8, 2, 1, 0][..], &[2, 1, 3, 0][..], &[1, 2, 0, 3][..]] {
        let meta = metadata_indexed(
            2,
            2,
            &[1, 2, 3, 0],
            indexed,
            12,
            &[1, 2, 2, 2, 2, 2, 1],
            &[&[0, 3, 2, 1]],
        );
        match open(&file(&meta, &TWO_BY_TWO_BODY)) {
            Err(FileError::Metadata { what }) => {
                assert!(what.contains("indexed goal"), "{indexed:?}: {what}")
            }
            other => panic!("{indexed:?}: {other:?}"),
        }
    }
    // The same fields with the indexed goal equal to the goal open.
    let meta = two_by_two();
    assert!(open(&file(&meta, &TWO_BY_TWO_BODY)).is_ok());
}
