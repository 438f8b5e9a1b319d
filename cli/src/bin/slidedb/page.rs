//! The page to play puzzles with exact hints: its shared parts (the page,
//! its script and style, used by `slidedb serve` too), and `slidedb page
//! --out DIR`, which writes it as a static site that answers everything in
//! the browser through the JavaScript package (`js/`), from the tables and
//! pattern databases it ships beside the page: in the single-tile metric
//! and in the multi-tile one (its own tables), listed per metric in
//! `data/site.json`.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use slidedb::database::AnsweredBy;
use slidedb::records::SizeRecord;
use slidedb::{BuiltFor, output, pattern_file_name, table_file_name};
use slidedb::{Database, Metric, Shape, write_atomic};

/// The page; `{{about}}` says where its answers come from.
pub const INDEX: &str = include_str!("page/index.html");
/// The page's script: the same for the server and the static site.
pub const APP: &str = include_str!("page/app.js");
pub const STYLE: &str = include_str!("page/style.css");
/// The static site's backend and its searcher.
const LOCAL: &str = include_str!("page/local.js");
const WORKER: &str = include_str!("page/worker.js");

include!(concat!(env!("OUT_DIR"), "/package.rs"));

/// The sizes the static site offers from full tables (each also answers
/// its transpose), and the size it offers through pattern databases.
const TABLE_SIZES: [(usize, usize); 3] = [(3, 3), (2, 3), (2, 4)];
const PATTERN_SIZE: (usize, usize) = (4, 4);
/// The databases it ships for 4x4: 1.6 MB, a few seconds to build.
const PATTERN_PARTITION: &str = "5-5-5";

/// The list of the files `slidedb page` wrote into a folder, with what
/// each held, in the folder itself: the next `slidedb page --out` replaces
/// those (unchanged since) and nothing else without --force.
const MANIFEST: &str = ".slidedb-page";
/// The first line of [`MANIFEST`].
const MANIFEST_HEAD: &str = "slidedb page 1: the files slidedb page wrote here, each with its FNV-1a hash and length; it replaces them, unchanged, and nothing else without --force";

#[derive(ClapArgs)]
pub struct PageArgs {
    /// The folder to write the site into: a new folder (made if missing,
    /// but not its parent), an empty one, or one that holds a site
    /// `slidedb page` wrote, whose files it replaces. A file of any other
    /// (or one changed since) is replaced only with --force.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Replace files in --out that `slidedb page` did not write, or that
    /// were changed since.
    #[arg(long)]
    pub force: bool,
    /// The data folder the tables and databases come from, built there if
    /// missing [default: $SLIDEDB_DATA, else the user's data directory].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
}

/// Writes the site; 0 when written.
pub fn run(args: &PageArgs) -> Result<u8> {
    let mut builder = Database::builder();
    if let Some(dir) = &args.data {
        builder = builder.data_dir(dir);
    }
    let out = &args.out;
    // Before any work: the folder is there, or can be made.
    check_out(out)?;
    let db = builder.open().context("cannot open the data folder")?;
    // Every file of the site, by its path under `out`, and per metric the
    // sizes it answers (the library's records, with the files that answer
    // each) and the sizes it refuses, with why.
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut metrics = serde_json::Map::new();
    for metric in [Metric::Single, Metric::Multi] {
        let (sizes, refused) = ship(&db.with_metric(metric), &mut files)?;
        let mut entry = serde_json::json!({ "sizes": sizes });
        if !refused.is_empty() {
            entry["refused"] = serde_json::Value::Object(refused);
        }
        metrics.insert(metric.name().to_string(), entry);
    }
    let site = serde_json::to_string_pretty(&serde_json::json!({ "metrics": metrics }))? + "\n";
    let index = INDEX.replace(
        "{{about}}",
        "Every answer on this page is worked out in your browser by the slidedb \
         JavaScript package, from the tables and pattern databases beside it: no server.",
    );
    for (name, text) in [
        ("index.html", index.as_str()),
        ("app.js", APP),
        ("style.css", STYLE),
        ("backend.js", LOCAL),
        ("worker.js", WORKER),
        ("data/site.json", site.as_str()),
    ] {
        files.push((name.to_string(), text.as_bytes().to_vec()));
    }
    files.extend(
        PACKAGE
            .iter()
            .map(|(name, source)| (format!("slidedb/{name}"), source.as_bytes().to_vec())),
    );
    let shipped = write_site(out, &files, args.force)?;
    say!(
        "slidedb: wrote the page into {} ({} bytes in all); serve the folder from any static host, or open it through one such as `python3 -m http.server -d {}`",
        out.display(),
        shipped,
        out.display()
    );
    Ok(0)
}

/// Why the site does not answer 4x4 boards in the multi-tile metric, in
/// its words.
const MULTI_4X4_REFUSAL: &str = "4x4 boards are not answered in the multi-tile metric on this page: their search needs a 38 MB table that slidedb builds in memory; slidedb serve answers them";

/// The sizes the site answers in `db`'s metric, as the records every
/// front gives (`{size, exact, goal}`) with the files that answer each
/// (`file` for a full table, `files` for pattern databases), whose bytes
/// go into `files`; and the sizes it refuses in that metric, each with the
/// reason (in the multi-tile metric, 4x4).
fn ship(
    db: &Database,
    files: &mut Vec<(String, Vec<u8>)>,
) -> Result<(
    Vec<serde_json::Value>,
    serde_json::Map<String, serde_json::Value>,
)> {
    let metric = db.metric();
    let mut shipped: Vec<(Shape, AnsweredBy, String)> = Vec::new();
    for (rows, cols) in TABLE_SIZES {
        let shape = Shape::new(rows, cols).expect("a shape");
        let goal = db.default_goal(shape);
        let table = db
            .table(&goal)
            .with_context(|| format!("no {} table for {shape}", metric.adjective()))?;
        let file = format!(
            "data/{}",
            table_file_name(table.get().indexed_goal(), metric)
        );
        files.push((file.clone(), table.get().as_bytes().to_vec()));
        // One file serves the size and its transpose.
        for shape in [shape, Shape::new(cols, rows).expect("a shape")] {
            if table.get().serves(&db.default_goal(shape)) {
                shipped.push((shape, AnsweredBy::Table, file.clone()));
            }
        }
    }
    let mut refused = serde_json::Map::new();
    let shape = Shape::new(PATTERN_SIZE.0, PATTERN_SIZE.1).expect("a shape");
    let goal = db.default_goal(shape);
    match metric {
        Metric::Single => {
            say!("slidedb: the 4x4 pattern databases ({PATTERN_PARTITION}) for the page…");
            let patterns = db
                .patterns_of_sizes(&goal, PATTERN_PARTITION)
                .context("cannot have the 4x4 pattern databases")?;
            let file = format!(
                "data/{}",
                pattern_file_name(patterns.get().indexed_goal(), PATTERN_PARTITION)
            );
            files.push((file.clone(), patterns.get().as_bytes().to_vec()));
            shipped.push((shape, AnsweredBy::Patterns, file));
        }
        // The library answers 4x4 in the multi-tile metric by a search
        // under a table it builds in memory; the page has no such search,
        // and says where the answers are.
        Metric::Multi => {
            refused.insert(shape.to_string(), MULTI_4X4_REFUSAL.into());
        }
    }
    let mut sizes = Vec::new();
    for (shape, by, file) in shipped {
        let record = SizeRecord {
            size: shape.to_string(),
            exact: by.name(),
            goal: db.default_goal(shape).to_string(),
        };
        let mut entry = serde_json::to_value(record)?;
        match by {
            AnsweredBy::Patterns => entry["files"] = serde_json::json!([file]),
            _ => entry["file"] = serde_json::json!(file),
        }
        if !sizes.contains(&entry) {
            sizes.push(entry);
        }
    }
    Ok((sizes, refused))
}

/// Checks, before any work, that `out` is a folder or can be made: it is
/// missing and its parent exists (as every `--out`, a mistyped path makes
/// no folders).
fn check_out(out: &Path) -> Result<()> {
    match fs::metadata(out) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => anyhow::bail!(
            "{} is a file: --out names the folder to write the site into",
            out.display()
        ),
        Err(_) => output::check_writable(out)
            .with_context(|| format!("cannot create the folder {}", out.display())),
    }
}

/// The 64-bit FNV-1a hash of `bytes`: enough to tell a file the page wrote
/// from one changed since (not a defence against anyone).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// One line of the manifest: a file's hash, length and path.
fn manifest_line(name: &str, bytes: &[u8]) -> String {
    format!("{:016x} {} {name}\n", fnv1a(bytes), bytes.len())
}

/// The files the manifest in `out` lists, as (hash, length, path); `None`
/// when there is none. A file of that name that is not a manifest is an
/// error unless `force` (it is someone else's, and would be replaced).
fn read_manifest(out: &Path, force: bool) -> Result<Option<Vec<(u64, u64, String)>>> {
    let path = out.join(MANIFEST);
    let text = match fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(_) if force => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let parsed = String::from_utf8(text).ok().and_then(|text| {
        let mut lines = text.lines();
        (lines.next()? == MANIFEST_HEAD).then_some(())?;
        lines
            .map(|line| {
                let mut parts = line.splitn(3, ' ');
                let hash = u64::from_str_radix(parts.next()?, 16).ok()?;
                let len = parts.next()?.parse().ok()?;
                Some((hash, len, parts.next()?.to_string()))
            })
            .collect::<Option<Vec<_>>>()
    });
    match parsed {
        Some(listed) => Ok(Some(listed)),
        None if force => Ok(None),
        None => anyhow::bail!(
            "{} exists and is not the list of files slidedb page keeps: pass --force to replace it, or name a new or empty folder",
            path.display()
        ),
    }
}

/// The first of `files` (paths under `out`) that exists and is not one
/// the manifest lists as it is now (same length and hash): someone
/// else's file, or one changed since; with why it is refused.
fn first_foreign(
    out: &Path,
    files: &[(String, Vec<u8>)],
    listed: &[(u64, u64, String)],
) -> Result<Option<(PathBuf, &'static str)>> {
    for (name, _) in files {
        let path = out.join(name);
        let meta = match fs::symlink_metadata(&path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        let mine: Vec<_> = listed.iter().filter(|(_, _, n)| n == name).collect();
        if mine.is_empty() || !meta.file_type().is_file() {
            return Ok(Some((path, "exists")));
        }
        let unchanged = mine.iter().any(|(_, len, _)| *len == meta.len()) && {
            let bytes =
                fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
            let hash = fnv1a(&bytes);
            mine.iter()
                .any(|(h, len, _)| *h == hash && *len == bytes.len() as u64)
        };
        if !unchanged {
            return Ok(Some((path, "was changed since slidedb page wrote it")));
        }
    }
    Ok(None)
}

/// Writes the site's `files` into `out` (made if missing, not its
/// parent), each atomically: refused, naming the first file it would
/// replace, when one is not the page's own (see [`first_foreign`]) unless
/// `force`. The manifest lists the old files and the new ones while they
/// are written (a stop part-way leaves every file listed), then the new
/// ones alone. Their bytes in all.
fn write_site(out: &Path, files: &[(String, Vec<u8>)], force: bool) -> Result<u64> {
    let listed = read_manifest(out, force)?.unwrap_or_default();
    if !force && let Some((path, why)) = first_foreign(out, files, &listed)? {
        anyhow::bail!(
            "{} {why}: pass --force to replace it (slidedb page writes into a new or empty folder, or over a site it wrote), or name another folder",
            path.display()
        );
    }
    output::create_out_dir(out)
        .with_context(|| format!("cannot create the folder {}", out.display()))?;
    for name in files
        .iter()
        .filter_map(|(name, _)| Path::new(name).parent())
    {
        let dir = out.join(name);
        if !name.as_os_str().is_empty() && !dir.is_dir() {
            fs::create_dir(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
    }
    let new: String = files
        .iter()
        .map(|(name, bytes)| manifest_line(name, bytes))
        .collect();
    let old: String = listed
        .iter()
        .map(|(hash, len, name)| format!("{hash:016x} {len} {name}\n"))
        .collect();
    let manifest = |lines: &str| -> Result<()> {
        let path = out.join(MANIFEST);
        write_atomic(&path, format!("{MANIFEST_HEAD}\n{lines}").as_bytes(), true)
            .with_context(|| format!("cannot write {}", path.display()))
    };
    manifest(&(old + &new))?;
    let mut shipped = 0;
    for (name, bytes) in files {
        let path = out.join(name);
        write_atomic(&path, bytes, true)
            .with_context(|| format!("cannot write {}", path.display()))?;
        shipped += bytes.len() as u64;
    }
    manifest(&new)?;
    Ok(shipped)
}
