//! The programs' surface: help, usage, completion scripts, manual pages,
//! versions, and options that would do nothing.

use crate::exe::*;

use std::fs;

/// Completions for every shell clap knows and a manual page, generated
/// from the command definitions; `--help` says what the answers and the
/// exit codes mean.
#[test]
fn completions_man_page_and_help() {
    let data = tempdir();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let (code, out, err) = run(&["completions", shell], None, data.path());
        assert_eq!(code, 0, "{shell}: {err}");
        for word in ["slidedb", "solve", "compare", "search-memory"] {
            assert!(out.contains(word), "{shell} lacks {word}");
        }
    }
    let (code, _, err) = run(&["completions", "tcsh"], None, data.path());
    assert_eq!(code, 2, "{err}");
    let (code, out, _) = run(&["man"], None, data.path());
    assert_eq!(code, 0);
    assert!(
        out.contains(".TH slidedb 1") && out.contains("slidedb\\-solve"),
        "{out}"
    );
    let pages = tempdir();
    let (code, _, err) = run(&["man", "--dir", path_str(pages.path())], None, data.path());
    assert_eq!(code, 0, "{err}");
    for page in [
        "slidedb.1",
        "slidedb-solve.1",
        "slidedb-stats.1",
        "slidedb-compare.1",
        "slidedb-verify.1",
    ] {
        let text = fs::read_to_string(pages.path().join(page)).unwrap();
        assert!(text.starts_with(".ie"), "{page}");
    }
    let (_, help, _) = run(&["--help"], None, data.path());
    for words in ["unsolvable", "invalid", "Exit status: 0", "1 when", "2 on"] {
        assert!(help.contains(words), "--help lacks {words:?}:\n{help}");
    }
}

/// The manual lists only pages it writes (no `slidedb-help(1)`: `--help`
/// is in each page), a usage error of `random` shows its real usage, and
/// `slidedb-gen` describes itself, not the query tool.
#[test]
fn the_manual_usage_and_descriptions_say_what_is_true() {
    let data = tempdir();
    let pages = tempdir();
    let (code, _, err) = run(&["man", "--dir", path_str(pages.path())], None, data.path());
    assert_eq!(code, 0, "{err}");
    let written: Vec<String> = fs::read_dir(pages.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    let main = fs::read_to_string(pages.path().join("slidedb.1")).unwrap();
    let listed: Vec<&str> = main
        .lines()
        .filter_map(|l| l.strip_suffix("(1)"))
        .map(|l| l.trim_start_matches("\\fB"))
        .collect();
    assert!(!listed.is_empty(), "{main}");
    for page in &listed {
        let file = format!("{}.1", page.replace("\\-", "-"));
        assert!(
            written.contains(&file),
            "{page}(1) listed, {file} not written: {written:?}"
        );
    }
    assert!(!main.contains("help(1)"), "{main}");
    let (code, _, err) = run(
        &["random", "--distance", "5", "--min", "3", "--max", "6"],
        None,
        data.path(),
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("Usage: slidedb random [--distance D | --min D --max D] [OPTIONS]"),
        "{err}"
    );
    let (_, query, _) = run(&["--help"], None, data.path());
    let (_, build, _) = run_gen(&["--help"], data.path());
    let first = |help: &str| help.lines().next().unwrap_or("").to_string();
    assert_ne!(first(&query), first(&build));
    assert!(
        first(&build).starts_with("Build the exact distance table"),
        "{build}"
    );
}

/// `slidedb-gen` too: `--completions SHELL` and `--man [DIR]`, generated
/// from its flags, and nothing built; each only alone.
#[test]
fn slidedb_gen_completions_and_man_page() {
    let data = tempdir();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let (code, out, err) = run_gen(&["--completions", shell], data.path());
        assert_eq!(code, 0, "{shell}: {err}");
        for word in ["slidedb-gen", "pdb", "threads", "completions"] {
            assert!(out.contains(word), "{shell} lacks {word}");
        }
    }
    let (code, out, _) = run_gen(&["--man"], data.path());
    assert_eq!(code, 0);
    assert!(
        out.contains(".TH slidedb-gen 1") && out.contains("\\-\\-pdb"),
        "{out}"
    );
    let pages = tempdir();
    let (code, out, err) = run_gen(&["--man", path_str(pages.path())], data.path());
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let mut names: Vec<_> = fs::read_dir(pages.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    // A page for the program and one for its subcommand.
    assert_eq!(names, ["slidedb-gen-merge.1", "slidedb-gen.1"]);
    let text = fs::read_to_string(pages.path().join("slidedb-gen.1")).unwrap();
    assert!(text.starts_with(".ie") && text.contains(".TH slidedb-gen 1"));
    // Nothing was built, nor a data folder made.
    assert_eq!(fs::read_dir(data.path()).unwrap().count(), 0);
    // Usage errors: an unknown shell, a missing folder, another flag.
    for args in [
        &["--completions", "tcsh"][..],
        &["--man", "/nonexistent/slidedb-man"],
        &["--completions", "bash", "--quiet"],
        &["--man", "--size", "2x3"],
    ] {
        let (code, out, err) = run_gen(args, data.path());
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert!(err.contains("error"), "{args:?}: {err}");
    }
    assert_eq!(fs::read_dir(data.path()).unwrap().count(), 0);
}

/// Options that nothing would use are refused, not ignored; `--json` and
/// `--steps` work together.
#[test]
fn options_that_do_nothing_are_refused() {
    let data = tempdir();
    let board = "1 2 3 4 5 6 0 7 8";
    for args in [
        &[
            "solve",
            "--heuristic",
            "linear-conflict",
            "--algo",
            "bfs",
            board,
        ][..],
        &["solve", "--heuristic", "manhattan", "--algo", "dfs", board][..],
        &["solve", "--heuristic", "pdb", board][..],
        &["solve", "--heuristic", "manhattan", board][..],
        &["solve", "--heuristic", "pdb", "--algo", "iddfs", board][..],
    ] {
        let (code, out, err) = run(args, None, data.path());
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert!(err.contains("takes none"), "{args:?}: {err}");
    }
    let (code, out, err) = run(
        &[
            "solve",
            "--algo",
            "astar",
            "--heuristic",
            "linear-conflict",
            board,
        ],
        None,
        data.path(),
    );
    assert_eq!((code, out.as_str()), (0, "rr\n"), "{err}");
    let (code, out, err) = run(&["solve", "--json", "--steps", board], None, data.path());
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["moves"], "rr");
    assert_eq!(
        v["steps"],
        serde_json::json!([
            "1 2 3 4 5 6 0 7 8",
            "1 2 3 4 5 6 7 0 8",
            "1 2 3 4 5 6 7 8 0"
        ])
    );
    // Without --steps the object has no steps.
    let (_, out, _) = run(&["solve", "--json", board], None, data.path());
    assert!(!out.contains("steps"), "{out}");
}

/// `slidedb-gen --version` names itself.
#[test]
fn gen_version_names_itself() {
    let data = tempdir();
    let (code, out, _) = run_gen(&["--version"], data.path());
    assert_eq!(
        (code, out.trim()),
        (0, concat!("slidedb-gen ", env!("CARGO_PKG_VERSION")))
    );
}

/// `man --dir` and `slidedb-gen --man DIR` replace the programs' own
/// manual pages (an older version's) but no other file of a page's name
/// without --force: refused, named, and nothing written.
#[test]
fn manual_pages_replace_only_manual_pages_without_force() {
    let data = tempdir();
    let pages = tempdir();
    let dir = path_str(pages.path());
    let (code, _, err) = run(&["man", "--dir", dir], None, data.path());
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&["man", "--dir", dir], None, data.path());
    assert_eq!(code, 0, "its own pages are replaced: {err}");
    let stats = pages.path().join("slidedb-stats.1");
    let solve = pages.path().join("slidedb-solve.1");
    fs::write(&stats, "my notes").unwrap();
    fs::remove_file(&solve).unwrap();
    let (code, _, err) = run(&["man", "--dir", dir], None, data.path());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("{} exists", stats.display())) && err.contains("--force"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&stats).unwrap(), "my notes");
    assert!(!solve.exists(), "a page was written: {err}");
    let (code, _, err) = run(&["man", "--dir", dir, "--force"], None, data.path());
    assert_eq!(code, 0, "{err}");
    assert!(
        fs::read_to_string(&stats)
            .unwrap()
            .contains(".TH slidedb-stats 1")
    );

    let gen_page = pages.path().join("slidedb-gen.1");
    fs::write(&gen_page, "mine").unwrap();
    let (code, _, err) = run_gen(&["--man", dir], data.path());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("{} exists", gen_page.display())),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&gen_page).unwrap(), "mine");
    let (code, _, err) = run_gen(&["--man", dir, "--force"], data.path());
    assert_eq!(code, 0, "{err}");
    assert!(
        fs::read_to_string(&gen_page)
            .unwrap()
            .contains(".TH slidedb-gen 1")
    );
    let (code, _, err) = run_gen(&["--man", dir], data.path());
    assert_eq!(code, 0, "its own pages are replaced: {err}");
}
