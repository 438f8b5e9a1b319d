//! The damaged files of `tests/data/damaged/`, refused with the words of
//! the one table of faults ([`FileFault`]). They are made here, from a
//! 2x3 table and 3x5 pattern databases the library builds, one fault
//! each; their manifest (`manifest.json`) gives each file's fault and the
//! exact message. The JavaScript (`js/test/faults.test.js`) and Python
//! (`python/tests/test_damaged_files.py`) tests open the same files and
//! expect the same messages; `js/src/faults.js` is the table itself, for
//! the JavaScript reader.
//!
//! `SLIDEDB_BLESS=1 cargo test --test integration damaged` writes the
//! files, the manifest and `js/src/faults.js` again (after a change of the
//! table, of the format, or of the version the files record).

use std::path::{Path, PathBuf};

use crate::common::HEADER_LEN;
use serde_json::{Value, json};
use slidedb::pdb::{self, Partition, PatternDb};
use slidedb::{Board, Shape, Table, generate};
use slidedb::{FileError, FileFault};

/// The folder of the damaged files.
fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/damaged")
}

/// Whether to write the files instead of checking them.
fn bless() -> bool {
    std::env::var_os("SLIDEDB_BLESS").is_some_and(|v| v == "1")
}

/// The partition of the 3x5 pattern databases: seven groups of two tiles,
/// small files (1,470 entries).
const PARTITION: &str = "2-2-2-2-2-2-2";

/// The name the 3x5 pattern databases have in a data folder.
const PATTERNS_NAME: &str = "3x5-1-2-3-4-5-6-7-8-9-10-11-12-13-14-0-pdb-2-2-2-2-2-2-2.slidedb";

/// A board of 3x5 one move from the goal, which a data folder answers
/// through its pattern databases.
const PATTERNS_BOARD: &str = "1 2 3 4 5 / 6 7 8 9 10 / 11 12 13 0 14";

/// What a damaged file is read as.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Opens {
    Table,
    Patterns,
}

impl Opens {
    fn name(self) -> &'static str {
        match self {
            Opens::Table => "table",
            Opens::Patterns => "patterns",
        }
    }

    /// Opens `bytes` as this kind and checks its body, as every front end
    /// does by default.
    fn open(self, bytes: &[u8]) -> Result<(), FileError> {
        match self {
            Opens::Table => Table::new(bytes)?.verify(),
            Opens::Patterns => PatternDb::new(bytes)?.verify(),
        }
    }

    /// Which check finds the fault in `bytes`: `"open"` for those a data
    /// folder runs on opening (the frame, the metadata, the body's
    /// checksum), `"recount"` for a file sealed again after its entries
    /// were changed, which only the recount of pattern databases finds
    /// ([`PatternDb::verify`], and `slidedb verify`).
    fn found_by(self, bytes: &[u8]) -> &'static str {
        match self {
            Opens::Patterns
                if PatternDb::new(bytes)
                    .and_then(|p| p.verify_checksum())
                    .is_ok() =>
            {
                "recount"
            }
            _ => "open",
        }
    }
}

/// One damaged file: its name, how it is read, the fault it is made to
/// have, and its bytes.
struct Damaged {
    file: &'static str,
    opens: Opens,
    fault: FileFault,
    bytes: Vec<u8>,
}

fn table() -> Vec<u8> {
    generate(&Board::solved(Shape::new(2, 3).unwrap()), |_| {})
        .unwrap()
        .into_inner()
}

fn patterns() -> Vec<u8> {
    let goal = Board::solved(Shape::new(3, 5).unwrap());
    let partition = Partition::parse(&goal, PARTITION).unwrap();
    pdb::build(&goal, &partition, |_| {})
        .unwrap()
        .as_bytes()
        .to_vec()
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
}

fn set_u16(bytes: &mut [u8], at: usize, v: u16) {
    bytes[at..at + 2].copy_from_slice(&v.to_le_bytes());
}

fn set_u32(bytes: &mut [u8], at: usize, v: u32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn set_u64(bytes: &mut [u8], at: usize, v: u64) {
    bytes[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

/// Where the body starts.
fn body(bytes: &[u8]) -> usize {
    u64_at(bytes, 40) as usize
}

/// Seals the header and metadata again after a change (their checksums
/// right, so that the change itself is what a reader finds).
fn reseal(mut bytes: Vec<u8>) -> Vec<u8> {
    let meta_len = u64_at(&bytes, 32) as usize;
    let meta_crc = crc32fast::hash(&bytes[HEADER_LEN..HEADER_LEN + meta_len]);
    set_u32(&mut bytes, 20, meta_crc);
    let header_crc = crc32fast::hash(&bytes[..60]);
    set_u32(&mut bytes, 60, header_crc);
    bytes
}

/// `bytes` changed by `change`, then resealed.
fn sealed(bytes: &[u8], change: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    change(&mut bytes);
    reseal(bytes)
}

/// `bytes` changed by `change`, checksums left as they were.
fn changed(bytes: &[u8], change: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    change(&mut bytes);
    bytes
}

/// Every damaged file, made from a table and pattern databases.
fn damaged_files() -> Vec<Damaged> {
    use FileFault::*;
    use Opens::{Patterns as P, Table as T};
    let t = table();
    let p = patterns();
    let tb = body(&t);
    let pb = body(&p);
    // The metadata's states, 360: bincode's varint 251 then 360 as a u16.
    let states = t
        .windows(3)
        .position(|w| w == [251, 0x68, 0x01])
        .expect("the states field");
    let d = |file, opens, fault, bytes| Damaged {
        file,
        opens,
        fault,
        bytes,
    };
    vec![
        d(
            "table-bad-magic.slidedb",
            T,
            BadMagic,
            changed(&t, |b| b[0] = b'Z'),
        ),
        d(
            "table-truncated-header.slidedb",
            T,
            Truncated,
            t[..40].to_vec(),
        ),
        d(
            "table-truncated-body.slidedb",
            T,
            Truncated,
            t[..t.len() - 20].to_vec(),
        ),
        d(
            "table-trailing-byte.slidedb",
            T,
            TrailingBytes,
            changed(&t, |b| b.push(0)),
        ),
        d(
            "table-endianness.slidedb",
            T,
            Endianness,
            changed(&t, |b| b[8..10].copy_from_slice(&[0xfe, 0xff])),
        ),
        d(
            "table-older-version.slidedb",
            T,
            OlderVersion,
            changed(&t, |b| set_u16(b, 10, 1)),
        ),
        d(
            "table-newer-version.slidedb",
            T,
            NewerVersion,
            changed(&t, |b| set_u16(b, 10, 4)),
        ),
        d(
            "table-header-checksum.slidedb",
            T,
            Checksum,
            changed(&t, |b| b[56] ^= 0x01),
        ),
        d(
            "table-metadata-checksum.slidedb",
            T,
            Checksum,
            changed(&t, |b| b[HEADER_LEN + 2] ^= 0x20),
        ),
        d(
            "table-body-checksum.slidedb",
            T,
            Checksum,
            changed(&t, |b| b[tb + 10] ^= 0x04),
        ),
        d(
            "table-header-length.slidedb",
            T,
            HeaderLength,
            sealed(&t, |b| set_u32(b, 12, 65)),
        ),
        d(
            "table-unknown-kind.slidedb",
            T,
            UnknownKind,
            sealed(&t, |b| set_u16(b, 16, 9)),
        ),
        d(
            "table-unknown-encoding.slidedb",
            T,
            UnknownEncoding,
            sealed(&t, |b| set_u16(b, 18, 2)),
        ),
        d(
            "table-body-offset.slidedb",
            T,
            Layout,
            sealed(&t, |b| set_u64(b, 40, tb as u64 + 64)),
        ),
        d(
            "table-body-short.slidedb",
            T,
            Layout,
            sealed(&t, |b| {
                b.truncate(b.len() - 1);
                let len = (b.len() - tb) as u64;
                set_u64(b, 48, len);
                let crc = crc32fast::hash(&b[tb..]);
                set_u32(b, 56, crc);
            }),
        ),
        d(
            "table-wrong-states.slidedb",
            T,
            Metadata,
            sealed(&t, |b| b[states + 1] = 0x69),
        ),
        d("table-opened-as-patterns.slidedb", P, WrongKind, t.clone()),
        d("patterns-opened-as-table.slidedb", T, WrongKind, p.clone()),
        d(
            "patterns-truncated.slidedb",
            P,
            Truncated,
            p[..p.len() - 100].to_vec(),
        ),
        d(
            "patterns-newer-version.slidedb",
            P,
            NewerVersion,
            changed(&p, |b| set_u16(b, 10, 4)),
        ),
        d(
            "patterns-body-checksum.slidedb",
            P,
            Checksum,
            changed(&p, |b| b[pb + 300] ^= 0x04),
        ),
        d(
            "patterns-goal-entry.slidedb",
            P,
            Layout,
            sealed(&p, |b| {
                b[pb] = 1;
                let crc = crc32fast::hash(&b[pb..]);
                set_u32(b, 56, crc);
            }),
        ),
        d(
            "patterns-entries-spread.slidedb",
            P,
            Metadata,
            sealed(&p, |b| {
                b[pb + 300] ^= 0x04;
                let crc = crc32fast::hash(&b[pb..]);
                set_u32(b, 56, crc);
            }),
        ),
    ]
}

/// The manifest of `files`: each file, how it opens, its fault and its
/// message, as the library words it.
fn manifest(files: &[Damaged]) -> String {
    let rows: Vec<Value> = files
        .iter()
        .map(|f| {
            let e = f.opens.open(&f.bytes).expect_err(f.file);
            json!({
                "file": f.file,
                "opens": f.opens.name(),
                "fault": e.fault_kind().expect("a fault of the table").name(),
                "code": e.fault_kind().unwrap().code(),
                "message": e.to_string(),
                "found_by": f.opens.found_by(&f.bytes),
            })
        })
        .collect();
    let manifest = json!({
        "about": "Damaged and wrong slidedb files, one fault each, and the message every reader refuses each with (written by tests/integration/damaged.rs). A table file opens as a full table; a patterns file as pattern databases, which a data folder finds under patterns_name and answers patterns_board of 3x5 with. found_by: open for faults found on opening (frame, metadata, the body's checksum), recount for pattern databases sealed again after their entries changed, found only by their recount (slidedb verify; the JavaScript reader's open).",
        "patterns_name": PATTERNS_NAME,
        "patterns_board": PATTERNS_BOARD,
        "files": rows,
    });
    serde_json::to_string_pretty(&manifest).unwrap() + "\n"
}

/// The JavaScript copy of the table of faults.
fn faults_js() -> String {
    let mut out = String::from(
        "// The table of file faults: what can be wrong with a file's bytes, and the\n\
         // words for each. Generated from the Rust library's table\n\
         // (`slidedb::FileFault::ALL`, src/format/faults.rs) by\n\
         // `SLIDEDB_BLESS=1 cargo test --test integration damaged`, whose test fails\n\
         // while this file differs from it: do not edit it by hand.\n\
         //\n\
         // A sentence is a template: `{name}` a field written plainly, `{name:bytes}`\n\
         // a count of bytes (\"1 byte\", \"10 bytes\"), `{name:hex4}` and `{name:hex8}`\n\
         // a number in hexadecimal with 0x and 4 or 8 digits. A message is the\n\
         // sentence, the joiner, the advice.\n\n\
         /** The faults by name: the error's `code`, `sentence`, `joiner` and `advice`. */\n\
         export const FAULTS = Object.freeze({\n",
    );
    for fault in FileFault::ALL {
        let field = |s: &str| serde_json::to_string(s).unwrap();
        out.push_str(&format!(
            "  {}: Object.freeze({{\n    code: {},\n    sentence: {},\n    joiner: {},\n    advice: {},\n  }}),\n",
            fault.name(),
            field(fault.code()),
            field(fault.sentence()),
            field(fault.joiner()),
            field(fault.advice()),
        ));
    }
    out.push_str("});\n");
    out
}

/// `expected` is the text of `path`, or (blessing) is written there.
fn check_or_write(path: &Path, expected: &[u8]) {
    if bless() {
        std::fs::write(path, expected).unwrap();
        return;
    }
    let committed = std::fs::read(path)
        .unwrap_or_else(|e| panic!("{}: {e}; write it with SLIDEDB_BLESS=1", path.display()));
    assert!(
        committed == expected,
        "{} is not what the library makes now: write it again with SLIDEDB_BLESS=1 cargo test --test integration damaged",
        path.display()
    );
}

/// Each damaged file has the fault it was made to have, every fault of
/// the table is among them, and the committed files and manifest are the
/// ones made here.
#[test]
fn the_damaged_files_are_made_with_one_fault_each() {
    let files = damaged_files();
    for f in &files {
        let e = f.opens.open(&f.bytes).expect_err(f.file);
        assert_eq!(e.fault_kind(), Some(f.fault), "{}: {e}", f.file);
    }
    for fault in FileFault::ALL {
        assert!(
            files.iter().any(|f| f.fault == fault),
            "no damaged file has the fault {fault}"
        );
    }
    if bless() {
        std::fs::create_dir_all(folder()).unwrap();
    }
    for f in &files {
        check_or_write(&folder().join(f.file), &f.bytes);
    }
    check_or_write(&folder().join("manifest.json"), manifest(&files).as_bytes());
}

/// Every committed damaged file is refused with its manifest's fault and
/// message, word for word.
#[test]
fn each_damaged_file_is_refused_with_its_manifest_message() {
    let text = std::fs::read_to_string(folder().join("manifest.json")).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    let files = manifest["files"].as_array().unwrap();
    assert!(files.len() >= FileFault::ALL.len());
    for row in files {
        let file = row["file"].as_str().unwrap();
        let bytes = std::fs::read(folder().join(file)).unwrap();
        let opens = match row["opens"].as_str().unwrap() {
            "table" => Opens::Table,
            "patterns" => Opens::Patterns,
            other => panic!("{file}: opens as {other}"),
        };
        let e = opens.open(&bytes).expect_err(file);
        let fault = FileFault::from_name(row["fault"].as_str().unwrap()).unwrap();
        assert_eq!(e.fault_kind(), Some(fault), "{file}");
        assert_eq!(fault.code(), row["code"].as_str().unwrap(), "{file}");
        assert_eq!(e.to_string(), row["message"].as_str().unwrap(), "{file}");
        assert_eq!(
            opens.found_by(&bytes),
            row["found_by"].as_str().unwrap(),
            "{file}"
        );
        // The message is the table's: the fault's sentence, joiner, advice.
        assert!(
            e.to_string()
                .ends_with(&format!("{}{}", fault.joiner(), fault.advice())),
            "{file}: {e}"
        );
    }
}

/// The JavaScript reader's table of faults is the library's.
#[test]
fn the_javascript_table_of_faults_is_the_librarys() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("js/src/faults.js");
    check_or_write(&path, faults_js().as_bytes());
}
