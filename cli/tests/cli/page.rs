//! `slidedb page --out DIR`: the static site, its files and what they
//! hold. (Played in Chromium with no server by `tests/e2e/offline.mjs`.)

use crate::exe;

use serde_json::Value;
use slidedb::pdb::PatternDb;
use slidedb::{Board, BuiltFor, Metric, Shape, Table};

#[test]
fn page_writes_a_site_that_needs_no_server() {
    let data = exe::tempdir();
    let out = exe::tempdir();
    let site = out.path().join("site");
    let (code, stdout, stderr) =
        exe::run(&["page", "--out", exe::path_str(&site)], None, data.path());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "", "the report goes to stderr");
    assert!(stderr.contains("wrote the page"), "{stderr}");
    // The page, its script and backend, the worker and the package.
    for file in [
        "index.html",
        "app.js",
        "backend.js",
        "worker.js",
        "style.css",
        "slidedb/index.js",
    ] {
        assert!(site.join(file).is_file(), "{file} missing");
    }
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        index.contains("no server") && !index.contains("{{about}}"),
        "{index}"
    );
    assert!(
        !index.contains("src=\"/"),
        "paths are relative, for any static host"
    );
    let backend = std::fs::read_to_string(site.join("backend.js")).unwrap();
    assert!(
        backend.contains("./slidedb/index.js") && backend.contains("new Worker"),
        "the backend is the package's, in the page"
    );
    // Every size the site lists, in each metric, has its files, of that
    // metric, and they answer toward the size's default goal; 4x4 is
    // refused in the multi-tile metric in the library's words.
    let listed: Value =
        serde_json::from_slice(&std::fs::read(site.join("data/site.json")).unwrap()).unwrap();
    for (metric, expected) in [
        (
            Metric::Single,
            &["3x3", "2x3", "3x2", "2x4", "4x2", "4x4"][..],
        ),
        (Metric::Multi, &["3x3", "2x3", "3x2", "2x4", "4x2"][..]),
    ] {
        let entries = listed["metrics"][metric.name()]["sizes"]
            .as_array()
            .unwrap();
        let sizes: Vec<&str> = entries
            .iter()
            .map(|s| s["size"].as_str().unwrap())
            .collect();
        assert_eq!(sizes, expected, "{metric:?}");
        for entry in entries {
            let shape: Shape = entry["size"].as_str().unwrap().parse().unwrap();
            let goal = Board::parse(entry["goal"].as_str().unwrap(), Some(shape)).unwrap();
            if entry["exact"] == "table" {
                let bytes = std::fs::read(site.join(entry["file"].as_str().unwrap())).unwrap();
                let table = Table::new(bytes).unwrap();
                table.verify().unwrap();
                assert!(table.serves(&goal), "{entry}");
                assert_eq!(table.metric(), metric, "{entry}");
            } else {
                assert_eq!(entry["exact"], "patterns");
                assert_eq!(metric, Metric::Single);
                let files = entry["files"].as_array().unwrap();
                assert_eq!(files.len(), 1);
                let bytes = std::fs::read(site.join(files[0].as_str().unwrap())).unwrap();
                let db = PatternDb::new(bytes).unwrap();
                db.verify().unwrap();
                assert!(db.serves(&goal));
                assert_eq!(db.partition().sizes(), "5-5-5");
            }
        }
    }
    let refused = &listed["metrics"]["multi"]["refused"]["4x4"];
    assert!(
        refused
            .as_str()
            .unwrap()
            .starts_with("4x4 boards are not answered in the multi-tile metric"),
        "{refused}"
    );
    assert!(listed["metrics"]["single"].get("refused").is_none());
    // The databases built for the page are kept in the data folder: a
    // second site takes them from there.
    let again = out.path().join("again");
    let (code, _, stderr) = exe::run(&["page", "--out", exe::path_str(&again)], None, data.path());
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("building"), "{stderr}");
    assert_eq!(
        std::fs::read(site.join("data/site.json")).unwrap(),
        std::fs::read(again.join("data/site.json")).unwrap()
    );
}

/// `page --out` writes into a new or empty folder, or over a site it
/// wrote itself (listed in its `.slidedb-page`, unchanged since); any other
/// file it would replace is refused, named, unless --force, and nothing is
/// written. Files that are not the site's are never touched.
#[test]
fn page_replaces_only_its_own_files_without_force() {
    let data = exe::tempdir();
    let out = exe::tempdir();
    let site = out.path().join("mysite");
    std::fs::create_dir(&site).unwrap();
    std::fs::write(site.join("index.html"), "my page").unwrap();
    std::fs::write(site.join("notes.txt"), "mine").unwrap();
    let page = |force: bool| {
        let mut args = vec!["page", "--out", exe::path_str(&site)];
        if force {
            args.push("--force");
        }
        exe::run(&args, None, data.path())
    };
    let (code, _, err) = page(false);
    assert_eq!(code, 2, "{err}");
    let named = format!("{} exists: pass --force", site.join("index.html").display());
    assert!(err.contains(&named), "{err}");
    assert_eq!(
        std::fs::read_to_string(site.join("index.html")).unwrap(),
        "my page"
    );
    assert!(!site.join("app.js").exists(), "a file was written: {err}");
    // With --force: replaced, and the rest of the folder left alone.
    let (code, _, err) = page(true);
    assert_eq!(code, 0, "{err}");
    assert!(
        std::fs::read_to_string(site.join("index.html"))
            .unwrap()
            .contains("slidedb")
    );
    assert_eq!(
        std::fs::read_to_string(site.join("notes.txt")).unwrap(),
        "mine"
    );
    // Its own site, again: no --force needed.
    let (code, _, err) = page(false);
    assert_eq!(code, 0, "{err}");
    // A file of the site changed since is the user's now.
    let app = site.join("app.js");
    let mut edited = std::fs::read_to_string(&app).unwrap();
    edited.push_str("// my change\n");
    std::fs::write(&app, &edited).unwrap();
    let (code, _, err) = page(false);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("{} was changed since", app.display())) && err.contains("--force"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&app).unwrap(), edited);
    // A file under the list's name that is not a list is not taken as one.
    let list = site.join(".slidedb-page");
    std::fs::write(&list, "my list\n").unwrap();
    let (code, _, err) = page(false);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("{}", list.display())), "{err}");
    assert_eq!(std::fs::read_to_string(&list).unwrap(), "my list\n");
    // An empty folder is written into.
    let empty = out.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let (code, _, err) = exe::run(&["page", "--out", exe::path_str(&empty)], None, data.path());
    assert_eq!(code, 0, "{err}");
    assert!(empty.join("index.html").is_file());
}
