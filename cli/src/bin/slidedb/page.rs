//! The page to play puzzles with exact hints: its shared parts (the page,
//! its script and style, used by `slidedb serve` too), and `slidedb page
//! --out DIR`, which writes it as a static site that answers everything in
//! the browser through the JavaScript package (`js/`), from the tables and
//! pattern databases it ships beside the page.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use slidedb::pdb::{self, Partition, PatternDb};
use slidedb::store::pattern_file_name;
use slidedb::symmetry::GoalClass;
use slidedb::{Database, Shape, write_atomic};

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

#[derive(ClapArgs)]
pub struct PageArgs {
    /// The folder to write the site into (created if missing; the site's
    /// own files in it are replaced).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
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
    let db = builder.open().context("cannot open the data folder")?;
    let out = &args.out;
    fs::create_dir_all(out.join("data"))
        .with_context(|| format!("cannot create {}", out.join("data").display()))?;
    fs::create_dir_all(out.join("slidedb"))
        .with_context(|| format!("cannot create {}", out.join("slidedb").display()))?;
    let mut sizes = Vec::new();
    let mut shipped = 0u64;
    for (rows, cols) in TABLE_SIZES {
        let shape = Shape::new(rows, cols).expect("a shape");
        let goal = db.default_goal(shape);
        let table = db
            .table(&goal)
            .with_context(|| format!("no table for {shape}"))?;
        let file = format!(
            "data/{}",
            slidedb::default_file_name(GoalClass::of(&goal).canonical())
        );
        shipped += write(out, &file, table.get().as_bytes())?;
        for shape in [shape, Shape::new(cols, rows).expect("a shape")] {
            if sizes
                .iter()
                .any(|s: &serde_json::Value| s["size"] == shape.to_string())
            {
                continue;
            }
            sizes.push(serde_json::json!({
                "size": shape.to_string(),
                "exact": "table",
                "goal": db.default_goal(shape).to_string(),
                "file": file,
            }));
        }
    }
    let shape = Shape::new(PATTERN_SIZE.0, PATTERN_SIZE.1).expect("a shape");
    let goal = db.default_goal(shape);
    let patterns = patterns(&db, args.data.as_deref(), &goal)?;
    let file = format!(
        "data/{}",
        pattern_file_name(GoalClass::of(&goal).canonical(), PATTERN_PARTITION)
    );
    shipped += write(out, &file, patterns.as_bytes())?;
    sizes.push(serde_json::json!({
        "size": shape.to_string(),
        "exact": "patterns",
        "goal": goal.to_string(),
        "files": [file],
    }));
    let site = serde_json::to_string_pretty(&serde_json::json!({ "sizes": sizes }))? + "\n";
    let index = INDEX.replace(
        "{{about}}",
        "Every answer on this page is worked out in your browser by the slidedb \
         JavaScript package, from the tables and pattern databases beside it: no server.",
    );
    let mut files = vec![
        ("index.html", index.as_str()),
        ("app.js", APP),
        ("style.css", STYLE),
        ("backend.js", LOCAL),
        ("worker.js", WORKER),
        ("data/site.json", site.as_str()),
    ];
    let package: Vec<(String, &str)> = PACKAGE
        .iter()
        .map(|(name, source)| (format!("slidedb/{name}"), *source))
        .collect();
    files.extend(
        package
            .iter()
            .map(|(name, source)| (name.as_str(), *source)),
    );
    for (name, text) in files {
        shipped += write(out, name, text.as_bytes())?;
    }
    say!(
        "slidedb: wrote the page into {} ({} bytes in all); serve the folder from any static host, or open it through one such as `python3 -m http.server -d {}`",
        out.display(),
        shipped,
        out.display()
    );
    Ok(0)
}

/// The 4x4 databases the site ships: the data folder's file, else built
/// (a few seconds) and saved there.
fn patterns(
    db: &Database,
    data: Option<&Path>,
    goal: &slidedb::Board,
) -> Result<PatternDb<Vec<u8>>> {
    let canonical = *GoalClass::of(goal).canonical();
    let name = pattern_file_name(&canonical, PATTERN_PARTITION);
    let dir = match data {
        Some(dir) => Some(dir.to_path_buf()),
        None => db.data_dir().map(Path::to_path_buf),
    };
    if let Some(path) = dir.as_ref().map(|d| d.join(&name))
        && path.exists()
    {
        let bytes = fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let db = PatternDb::new(bytes).with_context(|| format!("{}", path.display()))?;
        db.verify().with_context(|| format!("{}", path.display()))?;
        return Ok(db);
    }
    say!("slidedb: building the 4x4 pattern databases ({PATTERN_PARTITION}) for the page…");
    let partition = Partition::standard(&canonical, PATTERN_PARTITION)?;
    let built = pdb::build(&canonical, &partition, |_| {})?;
    if let Some(dir) = dir {
        let path = dir.join(&name);
        if let Err(e) = slidedb::store::create_data_dir(&dir)
            .map_err(anyhow::Error::from)
            .and_then(|_| write_atomic(&path, built.as_bytes(), false).map_err(Into::into))
        {
            say!(
                "slidedb: could not keep {} ({e}); the page has them",
                path.display()
            );
        }
    }
    Ok(built)
}

/// Writes `bytes` to `name` under `out`, replacing it; their length.
fn write(out: &Path, name: &str, bytes: &[u8]) -> Result<u64> {
    let path = out.join(name);
    write_atomic(&path, bytes, true).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(bytes.len() as u64)
}
