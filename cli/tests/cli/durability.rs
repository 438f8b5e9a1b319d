//! Durability of table files: what a killed generator, a full or read-only
//! folder, and a table replaced under running queries leave behind.
//!
//! The binaries run as child processes, each with its own temporary table
//! folder (`SLIDEDB_DATA`) and working directory. The tests that need a
//! full or read-only folder mount a small tmpfs, and skip themselves (with
//! a note on stderr) where mounting is not permitted.

use crate::common;
use crate::exe::DEFAULT_3X3;
use slidedb::BuiltFor;

use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use slidedb::symmetry::GoalClass;
use slidedb::{Board, Shape, Table, generate, write_atomic};

const SLIDEDB: &str = env!("CARGO_BIN_EXE_slidedb");
const SLIDEDB_GEN: &str = env!("CARGO_BIN_EXE_slidedb-gen");

/// How long any one child may take before the test gives up on it: far
/// more than a loaded machine needs for the small tables used here.
const CHILD_TIMEOUT: Duration = Duration::from_secs(60);

/// Boards of the 8-puzzle with their distance to the usual goal: both
/// hardest boards, the README's board and the goal itself.
const BOARDS_3X3: [(&str, usize); 4] = [
    ("8 6 7 2 5 4 3 0 1", 31),
    ("6 4 7 8 5 0 3 2 1", 31),
    ("2 3 4 1 5 0 7 6 8", 19),
    ("1 2 3 4 5 6 7 8 0", 0),
];

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temp path")
}

/// The exact bytes `slidedb-gen` writes for the solved goal of `shape`
/// (generation is deterministic), built once per test binary.
fn reference(shape: Shape) -> &'static [u8] {
    static S3X3: OnceLock<Vec<u8>> = OnceLock::new();
    static S2X5: OnceLock<Vec<u8>> = OnceLock::new();
    let cell = match (shape.rows(), shape.cols()) {
        (3, 3) => &S3X3,
        (2, 5) => &S2X5,
        _ => panic!("no reference table for {shape}"),
    };
    cell.get_or_init(|| {
        generate(&Board::solved(shape), |_| {})
            .expect("generate")
            .into_inner()
    })
}

fn shape(rows: usize, cols: usize) -> Shape {
    Shape::new(rows, cols).expect("a valid shape")
}

/// A `Command` for `exe` with its own table folder `data` and working
/// directory `cwd`.
fn command(exe: &str, args: &[&str], data: &Path, cwd: &Path) -> Command {
    let mut cmd = Command::new(exe);
    cmd.args(args)
        .env("SLIDEDB_DATA", data)
        .current_dir(cwd)
        .stdin(Stdio::null());
    cmd
}

/// Waits for `child` for at most [`CHILD_TIMEOUT`], killing it and failing
/// the test if it takes longer.
fn wait_bounded(child: &mut Child, what: &str) -> ExitStatus {
    let deadline = Instant::now() + CHILD_TIMEOUT;
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not finish within {CHILD_TIMEOUT:?}");
        }
        thread::sleep(Duration::from_millis(2));
    }
}

/// Runs `exe` to completion (bounded by [`CHILD_TIMEOUT`]); returns its
/// exit code, stdout and stderr. Fails the test if it died by a signal or
/// panicked.
fn run_exe(exe: &str, args: &[&str], data: &Path) -> (i32, String, String) {
    let cwd = tempdir();
    let mut child = command(exe, args, data, cwd.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {exe}: {e}"));
    // Drain both pipes on threads so neither can fill and block the child.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        let mut pipe = pipe.expect("piped");
        thread::spawn(move || {
            let mut text = String::new();
            pipe.read_to_string(&mut text).expect("UTF-8 output");
            text
        })
    };
    let out = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let err = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let status = wait_bounded(&mut child, &format!("{exe} {args:?}"));
    let (stdout, stderr) = (out.join().expect("stdout"), err.join().expect("stderr"));
    let code = status
        .code()
        .unwrap_or_else(|| panic!("{exe} {args:?} was killed by a signal; stderr:\n{stderr}"));
    assert!(
        !stderr.contains("panicked"),
        "{exe} {args:?} panicked; stderr:\n{stderr}"
    );
    let left = names(cwd.path());
    assert!(
        left.is_empty(),
        "{exe} {args:?} wrote into its working directory: {left:?}"
    );
    (code, stdout, stderr)
}

fn run_gen(args: &[&str], data: &Path) -> (i32, String, String) {
    run_exe(SLIDEDB_GEN, args, data)
}

fn run_solve(args: &[&str], data: &Path) -> (i32, String, String) {
    run_exe(SLIDEDB, args, data)
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| {
            e.expect("entry")
                .file_name()
                .into_string()
                .expect("UTF-8 name")
        })
        // The stamps of checked tables (`.NAME.verified`) are no leftover.
        .filter(|name| !name.ends_with(".verified"))
        .collect();
    names.sort();
    names
}

/// Whether `name` is one of `write_atomic`'s temporary files.
fn is_temp_name(name: &str) -> bool {
    name.starts_with(".slidedb-") && name.ends_with(".tmp")
}

/// The temporary files in `dir`.
fn temp_names(dir: &Path) -> Vec<String> {
    names(dir).into_iter().filter(|n| is_temp_name(n)).collect()
}

/// Fails the test unless `dir` holds nothing but `table` (if given) and
/// temporary files named like `write_atomic`'s. Returns the temporary
/// files.
fn assert_only_table_and_temps(dir: &Path, table: Option<&str>) -> Vec<String> {
    let all = names(dir);
    let stray: Vec<&String> = all
        .iter()
        .filter(|n| Some(n.as_str()) != table && !is_temp_name(n))
        .collect();
    assert!(
        stray.is_empty(),
        "unexpected files in {}: {stray:?}",
        dir.display()
    );
    all.into_iter().filter(|n| is_temp_name(n)).collect()
}

/// Parses `text` as a board of the usual 3x3 puzzle.
fn board(text: &str) -> Board {
    Board::parse(text, Some(Shape::EIGHT)).expect("a valid board")
}

/// The cells of `board`, blank as 0.
fn cells(board: &Board) -> Vec<u8> {
    board.tiles().collect()
}

/// Applies `moves` (letters: where the blank goes) to `cells`, `cols`
/// wide; fails the test on an illegal move or letter.
fn apply(cells: &[u8], cols: usize, moves: &str) -> Vec<u8> {
    common::apply_letters(cells, cols, moves)
}

/// Checks `slidedb solve` output for [`BOARDS_3X3`]: one line per board,
/// each an optimal solution that reaches the usual goal.
fn check_3x3_answers(stdout: &str) {
    let goal = cells(&Board::solved(Shape::EIGHT));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), BOARDS_3X3.len(), "stdout: {stdout:?}");
    for ((text, distance), moves) in BOARDS_3X3.iter().zip(lines) {
        assert_eq!(moves.len(), *distance, "{text}: {moves:?}");
        assert_eq!(apply(&cells(&board(text)), 3, moves), goal, "{text}");
    }
}

/// Checks a table's answers for [`BOARDS_3X3`] in the library.
fn check_3x3_table<D: AsRef<[u8]>>(table: &Table<D>) {
    for (text, distance) in BOARDS_3X3 {
        let b = board(text);
        let moves = table
            .solve(&b)
            .expect("a 3x3 table")
            .moves
            .expect("solvable");
        assert_eq!(moves.len(), distance, "{text}");
        assert_eq!(b.apply_all(&moves), Some(*table.goal()), "{text}");
    }
}

// ---------------------------------------------------------------------
// 1. A generator killed at any moment.
// ---------------------------------------------------------------------

/// When to send SIGKILL to the generator.
#[derive(Clone, Copy, Debug)]
enum Moment {
    /// Right after spawning it: before it starts, or while it starts.
    AtSpawn,
    /// Right after it printed a stderr line starting with this.
    AfterLine(&'static str),
    /// After the last depth line, as soon as its temporary file appears
    /// in the folder: during the write (or, if it is quicker than us,
    /// just after).
    WhileWriting,
}

/// The last depth line of the 2x5 search.
const LAST_DEPTH_2X5: &str = "depth  55:";

/// What a kill left at the output path.
#[derive(Debug, Default)]
struct Tally {
    old: usize,
    new: usize,
    /// Kills whose writer had its temporary file in the folder.
    caught_writing: usize,
    /// Temporary files left behind.
    temps_left: usize,
    /// The smallest and largest of them, in bytes.
    temp_sizes: Option<(usize, usize)>,
}

/// Starts `slidedb-gen --size 2x5 --out out --force` and kills it at
/// `moment`. Returns whether the temporary file was seen at the kill.
fn kill_gen_2x5(out: &Path, data: &Path, moment: Moment) -> bool {
    let cwd = tempdir();
    let dir = out.parent().expect("a folder");
    // Stale temporary files of earlier kills are not this writer's.
    let stale = temp_names(dir);
    let args = ["--size", "2x5", "--out", path_str(out), "--force"];
    let mut child = command(SLIDEDB_GEN, &args, data, cwd.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start slidedb-gen");
    // Read stderr on a thread so the test can wait with a timeout.
    let (send, lines) = mpsc::channel::<String>();
    let stderr = child.stderr.take().expect("piped stderr");
    let reader = thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    let mut wait_for = |prefix: &str| {
        loop {
            match lines.recv_timeout(CHILD_TIMEOUT) {
                Ok(line) => {
                    let hit = line.starts_with(prefix);
                    seen.push(line);
                    if hit {
                        return;
                    }
                }
                Err(e) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!("no line {prefix:?} on stderr ({e}); stderr:\n{seen:#?}");
                }
            }
        }
    };
    let mut caught_writing = false;
    match moment {
        Moment::AtSpawn => {}
        Moment::AfterLine(prefix) => wait_for(prefix),
        Moment::WhileWriting => {
            wait_for(LAST_DEPTH_2X5);
            let deadline = Instant::now() + CHILD_TIMEOUT;
            while Instant::now() < deadline {
                if temp_names(dir).iter().any(|n| !stale.contains(n)) {
                    caught_writing = true;
                    break;
                }
                if child.try_wait().expect("try_wait").is_some() {
                    break;
                }
                thread::yield_now();
            }
        }
    }
    // SIGKILL; harmless if the child has already exited.
    child.kill().expect("kill slidedb-gen");
    let status = wait_bounded(&mut child, "killed slidedb-gen");
    drop(lines);
    reader.join().expect("stderr reader");
    // It either died by the signal or had finished successfully.
    assert!(
        status.code().is_none() || status.success(),
        "{moment:?}: slidedb-gen failed: {status}; stderr:\n{seen:#?}"
    );
    assert!(names(cwd.path()).is_empty(), "wrote into its cwd");
    caught_writing
}

/// Whatever moment the generator is killed at, the output path holds the
/// previous table byte for byte or the complete new one, never a part;
/// the folder holds nothing else but hidden `.slidedb-*.tmp` files (a
/// SIGKILL cannot be cleaned up after).
#[test]
fn killed_generator_leaves_the_old_table_or_the_new_one() {
    let data = tempdir();
    let dir = tempdir();
    let out = dir.path().join("table.slidedb");
    let (code, _, stderr) = run_gen(&["--quiet", "--out", path_str(&out)], data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    let old = fs::read(&out).expect("read the 3x3 table");
    assert_eq!(old, reference(Shape::EIGHT));
    let new = reference(shape(2, 5));

    let plan: [(Moment, usize); 7] = [
        (Moment::AtSpawn, 3),
        (Moment::AfterLine("slidedb-gen: 2x5 goal"), 3),
        (Moment::AfterLine("depth   0:"), 3),
        (Moment::AfterLine("depth  30:"), 3),
        (Moment::AfterLine("depth  50:"), 3),
        (Moment::AfterLine(LAST_DEPTH_2X5), 10),
        (Moment::WhileWriting, 20),
    ];
    let mut report = Vec::new();
    for (moment, times) in plan {
        let mut tally = Tally::default();
        for _ in 0..times {
            let temps_before = temp_names(dir.path());
            tally.caught_writing += usize::from(kill_gen_2x5(&out, data.path(), moment));
            let temps = assert_only_table_and_temps(dir.path(), Some("table.slidedb"));
            for name in temps.iter().filter(|n| !temps_before.contains(n)) {
                tally.temps_left += 1;
                let len = fs::metadata(dir.path().join(name)).expect("stat").len() as usize;
                let (lo, hi) = tally.temp_sizes.unwrap_or((len, len));
                tally.temp_sizes = Some((lo.min(len), hi.max(len)));
            }
            // A temporary file holds a prefix of the new table, never more.
            for name in &temps {
                let bytes = fs::read(dir.path().join(name)).expect("read a temp file");
                assert!(
                    new.starts_with(&bytes),
                    "{moment:?}: {name} ({} bytes) is not a prefix of the new table",
                    bytes.len()
                );
            }
            let now = fs::read(&out).expect("the output path still exists");
            if now == old {
                tally.old += 1;
            } else {
                // Not the old table: it must be the whole new one.
                let table = Table::new(&now[..]).unwrap_or_else(|e| {
                    panic!("{moment:?}: a partial table ({} bytes): {e}", now.len())
                });
                table.verify().expect("a complete body");
                assert_eq!(table.shape(), shape(2, 5));
                assert_eq!(now, new, "{moment:?}: the new table, byte for byte");
                tally.new += 1;
                // Put the old table back for the next attempt.
                write_atomic(&out, &old, true).expect("restore the old table");
            }
        }
        report.push(format!("{moment:?} x{times}: {tally:?}"));
    }
    let stale = temp_names(dir.path());
    eprintln!(
        "kill outcomes:\n  {}\nstale temporary files left: {}",
        report.join("\n  "),
        stale.len()
    );

    // A run that is not killed replaces the table, leaves no temporary
    // file of its own, and leaves the stale ones of killed runs alone.
    let (code, _, stderr) = run_gen(
        &[
            "--quiet",
            "--size",
            "2x5",
            "--out",
            path_str(&out),
            "--force",
        ],
        data.path(),
    );
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(fs::read(&out).expect("read"), new);
    assert_eq!(temp_names(dir.path()), stale);
}

// ---------------------------------------------------------------------
// 2. A full or read-only folder.
// ---------------------------------------------------------------------

/// A tmpfs mounted on a folder; unmounted on drop (the cluster's tests
/// use it too).
pub(crate) struct Tmpfs {
    pub(crate) dir: PathBuf,
}

impl Tmpfs {
    /// Mounts a tmpfs with `options` on `dir`, or returns `None` (after a
    /// note on stderr) where that is not permitted.
    pub(crate) fn mount(dir: &Path, options: &str, test: &str) -> Option<Tmpfs> {
        let result = Command::new("mount")
            .args(["-t", "tmpfs", "-o", options, "tmpfs", path_str(dir)])
            .stdin(Stdio::null())
            .output();
        match result {
            Ok(out) if out.status.success() => Some(Tmpfs {
                dir: dir.to_path_buf(),
            }),
            Ok(out) => {
                eprintln!(
                    "note: {test} skipped: cannot mount a tmpfs ({}): {}",
                    out.status,
                    String::from_utf8_lossy(&out.stderr).trim()
                );
                None
            }
            Err(e) => {
                eprintln!("note: {test} skipped: cannot run mount: {e}");
                None
            }
        }
    }

    /// Makes the mount read-only.
    fn remount_read_only(&self) {
        let status = Command::new("mount")
            .args(["-o", "remount,ro", path_str(&self.dir)])
            .stdin(Stdio::null())
            .status()
            .expect("run mount");
        assert!(status.success(), "remount read-only: {status}");
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let umount = |args: &[&str]| {
            Command::new("umount")
                .args(args)
                .arg(&self.dir)
                .stdin(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        };
        // A lazy unmount if something still holds the mount.
        if !umount(&[]) && !umount(&["-l"]) {
            eprintln!("warning: could not unmount {}", self.dir.display());
        }
    }
}

/// Runs `slidedb-gen args` and checks that it fails cleanly because of
/// `reason`: exit code 2, one error naming `out` and the reason, and the
/// folder as it was (`before`, the previous table if any, untouched).
fn assert_write_fails(args: &[&str], out: &Path, reason: &str, before: Option<&[u8]>, data: &Path) {
    let dir = out.parent().expect("a folder");
    let listing = names(dir);
    let (code, stdout, stderr) = run_gen(args, data);
    assert_eq!(code, 2, "{args:?}: stderr: {stderr}");
    assert_eq!(stdout, "");
    let error: Vec<&str> = stderr.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(error.len(), 1, "{args:?}: stderr: {stderr}");
    assert!(
        error[0].starts_with("slidedb-gen: error: "),
        "stderr: {stderr}"
    );
    assert!(error[0].contains(path_str(out)), "no path: {stderr}");
    assert!(error[0].contains(reason), "no {reason:?}: {stderr}");
    assert_eq!(names(dir), listing, "{args:?}: the folder changed");
    assert!(temp_names(dir).is_empty(), "a temporary file was left");
    let name = out.file_name().expect("a name").to_str().expect("UTF-8");
    match before {
        Some(bytes) => assert_eq!(fs::read(out).expect("read"), bytes, "{args:?}"),
        None => assert!(!names(dir).iter().any(|n| n == name), "{args:?}"),
    }
}

/// A table bigger than the free space: exit code 2 with the path and the
/// space it needs, found before the search (no layer is reported), the
/// previous table untouched, no temporary file left.
#[test]
fn full_disk_fails_cleanly_and_keeps_the_old_table() {
    let data = tempdir();
    let dir = tempdir();
    // 64 KiB: room for the 3x3 table (45 KB) but not the 2x5 (454 KB).
    let Some(mount) = Tmpfs::mount(dir.path(), "size=64k,mode=700", "full_disk") else {
        return;
    };
    let out = mount.dir.join("table.slidedb");
    let out_s = path_str(&out);
    let (code, _, stderr) = run_gen(&["--quiet", "--out", out_s], data.path());
    assert_eq!(code, 0, "the 3x3 table should fit; stderr: {stderr}");
    let old = fs::read(&out).expect("read");

    let needs = "the build needs 468256 bytes more disk in";
    let args = ["--size", "2x5", "--out", out_s, "--force"];
    assert_write_fails(&args, &out, needs, Some(&old), data.path());
    let (_, _, stderr) = run_gen(&args, data.path());
    assert!(!stderr.contains("depth"), "searched first: {stderr}");
    // Without a previous table: nothing at all is left.
    let other = mount.dir.join("other.slidedb");
    let args = ["--quiet", "--size", "2x5", "--out", path_str(&other)];
    assert_write_fails(&args, &other, needs, None, data.path());
    // The old table still answers.
    let (code, stdout, stderr) = run_solve(
        &["solve", "--table", out_s, BOARDS_3X3[0].0, BOARDS_3X3[1].0],
        data.path(),
    );
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(stdout.lines().map(str::len).collect::<Vec<_>>(), [31, 31]);
}

/// A read-only folder: exit code 2 with the path and "Read-only file
/// system", found before the search is spent, the previous table
/// untouched and still usable.
#[test]
fn read_only_folder_fails_before_the_search_and_keeps_the_old_table() {
    let data = tempdir();
    let dir = tempdir();
    let Some(mount) = Tmpfs::mount(dir.path(), "size=4m,mode=700", "read_only") else {
        return;
    };
    let out = mount.dir.join("table.slidedb");
    let out_s = path_str(&out);
    let (code, _, stderr) = run_gen(&["--quiet", "--out", out_s], data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    let old = fs::read(&out).expect("read");
    mount.remount_read_only();

    for args in [
        vec!["--size", "2x5", "--out", out_s, "--force"],
        vec!["--quiet", "--out", out_s, "--force"],
    ] {
        assert_write_fails(
            &args,
            &out,
            "Read-only file system",
            Some(&old),
            data.path(),
        );
    }
    let other = mount.dir.join("other.slidedb");
    let args = ["--size", "2x5", "--out", path_str(&other)];
    assert_write_fails(&args, &other, "Read-only file system", None, data.path());
    // The folder is found unwritable before the search: no depth line.
    let (_, _, stderr) = run_gen(&["--size", "2x5", "--out", out_s, "--force"], data.path());
    assert!(!stderr.contains("depth"), "searched first: {stderr}");

    // Queries need no write access.
    let mut args = vec!["solve", "--table", out_s];
    args.extend(BOARDS_3X3.iter().map(|(b, _)| *b));
    let (code, stdout, stderr) = run_solve(&args, data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    check_3x3_answers(&stdout);
}

/// `slidedb solve` builds a missing small table and saves it in the data
/// folder; a full or read-only data folder only costs the saving: the
/// answers are right, the reason is named, and nothing is left there.
#[test]
fn query_answers_when_its_data_folder_is_full_or_read_only() {
    let full = tempdir();
    // 16 KiB: too small for the 3x3 table.
    let Some(full_mount) = Tmpfs::mount(full.path(), "size=16k,mode=700", "query_full") else {
        return;
    };
    let read_only = tempdir();
    let Some(ro_mount) = Tmpfs::mount(read_only.path(), "ro,mode=700", "query_read_only") else {
        return;
    };
    let mut args = vec!["solve"];
    args.extend(BOARDS_3X3.iter().map(|(b, _)| *b));
    for (mount, reason) in [
        (&full_mount, "No space left on device"),
        (&ro_mount, "Read-only file system"),
    ] {
        let (code, stdout, stderr) = run_solve(&args, &mount.dir);
        assert_eq!(code, 0, "stderr: {stderr}");
        check_3x3_answers(&stdout);
        assert!(stderr.contains("could not save"), "stderr: {stderr}");
        assert!(stderr.contains(reason), "stderr: {stderr}");
        assert_eq!(names(&mount.dir), Vec::<String>::new());
    }
}

// ---------------------------------------------------------------------
// 3. Queries while the table is replaced.
// ---------------------------------------------------------------------

/// Regenerating a table with `--force` over and over while 50 `slidedb
/// solve --table` processes query it: every query opens a complete table
/// (its body checksum is checked on open) and answers right.
#[test]
fn queries_during_regeneration_always_see_a_whole_table() {
    const MIN_REGENERATIONS: usize = 20;
    const MAX_REGENERATIONS: usize = 2000;
    const QUERY_THREADS: usize = 5;
    const QUERIES_PER_THREAD: usize = 10;

    let data = Arc::new(tempdir());
    let dir = tempdir();
    let out = dir.path().join("table.slidedb");
    let out_s = path_str(&out).to_string();
    let (code, _, stderr) = run_gen(&["--quiet", "--out", &out_s], data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(fs::read(&out).expect("read"), reference(Shape::EIGHT));

    let queries_done = Arc::new(AtomicBool::new(false));
    let during = Arc::new(AtomicUsize::new(0));
    let regenerate = {
        let (data, out_s) = (data.clone(), out_s.clone());
        let (queries_done, during) = (queries_done.clone(), during.clone());
        thread::spawn(move || {
            let mut n = 0;
            while n < MAX_REGENERATIONS {
                let done = queries_done.load(Ordering::SeqCst);
                if done && n >= MIN_REGENERATIONS {
                    break;
                }
                let args = ["--quiet", "--force", "--out", &out_s];
                let (code, _, stderr) = run_gen(&args, data.path());
                assert_eq!(code, 0, "regeneration {n}: {stderr}");
                n += 1;
                if !done {
                    during.fetch_add(1, Ordering::SeqCst);
                }
            }
            n
        })
    };
    let queriers: Vec<_> = (0..QUERY_THREADS)
        .map(|_| {
            let (data, out_s, during) = (data.clone(), out_s.clone(), during.clone());
            thread::spawn(move || {
                let mut last = usize::MAX;
                for _ in 0..QUERIES_PER_THREAD {
                    // Spread the queries over the regenerations: at least
                    // one between two queries of a thread.
                    let deadline = Instant::now() + CHILD_TIMEOUT;
                    while during.load(Ordering::SeqCst) == last {
                        assert!(Instant::now() < deadline, "no regeneration");
                        thread::sleep(Duration::from_millis(1));
                    }
                    last = during.load(Ordering::SeqCst);
                    let mut args = vec!["solve", "--table", &out_s];
                    args.extend(BOARDS_3X3.iter().map(|(b, _)| *b));
                    let (code, stdout, stderr) = run_solve(&args, data.path());
                    assert_eq!(code, 0, "stderr: {stderr}");
                    assert_eq!(stderr, "");
                    check_3x3_answers(&stdout);
                }
            })
        })
        .collect();
    let mut failed = None;
    for q in queriers {
        if let Err(e) = q.join() {
            failed.get_or_insert(e);
        }
    }
    queries_done.store(true, Ordering::SeqCst);
    let regenerations = regenerate.join().expect("the regeneration loop");
    if let Some(e) = failed {
        std::panic::resume_unwind(e);
    }
    eprintln!(
        "{} queries; {regenerations} regenerations, {} of them while querying",
        QUERY_THREADS * QUERIES_PER_THREAD,
        during.load(Ordering::SeqCst)
    );
    assert!(regenerations >= MIN_REGENERATIONS);
    assert_eq!(fs::read(&out).expect("read"), reference(Shape::EIGHT));
    assert_eq!(names(dir.path()), ["table.slidedb"]);
}

/// A memory-mapped table keeps answering from the file it opened while
/// `write_atomic` replaces the path with other tables: each map holds its
/// own file, and a new open sees the newest.
#[test]
fn a_mapped_table_survives_replacement_of_its_file() {
    let dir = tempdir();
    let path = dir.path().join("table.slidedb");
    let first = reference(Shape::EIGHT);
    write_atomic(&path, first, false).expect("write the first table");
    let mapped = Table::open_path(&path).expect("map the first table");
    mapped.verify().expect("verify");
    check_3x3_table(&mapped);

    // Other tables, all different from the first: the 3x3 class of goals
    // with the blank in the centre, and the 2x3 puzzle.
    let centre = *GoalClass::of(&board("1 2 3 4 0 5 6 7 8")).canonical();
    let others = [
        generate(&centre, |_| {}).expect("generate").into_inner(),
        generate(&Board::solved(shape(2, 3)), |_| {})
            .expect("generate")
            .into_inner(),
    ];
    assert!(others.iter().all(|o| o.as_slice() != first));
    let mut maps = Vec::new();
    for round in 0..6 {
        let bytes = &others[round % others.len()];
        write_atomic(&path, bytes, true).expect("replace the table");
        let map = Table::open_path(&path).expect("map the replacement");
        assert_eq!(map.as_bytes(), bytes.as_slice(), "round {round}");
        maps.push((round, map));
        // The first map still holds the first file, whole.
        assert_eq!(mapped.as_bytes(), first, "round {round}");
        mapped.verify().expect("the first map's body");
        check_3x3_table(&mapped);
    }
    for (round, map) in &maps {
        assert_eq!(map.as_bytes(), others[round % others.len()].as_slice());
        map.verify().expect("an older map's body");
    }
    assert_eq!(names(dir.path()), ["table.slidedb"]);
}

/// A table written by `write_atomic` gets the permissions any new file
/// gets (here: like `fs::write`'s, under the same umask), also when it
/// replaces one, not the owner-only mode of a temporary file.
#[cfg(unix)]
#[test]
fn a_written_table_has_the_mode_of_an_ordinary_new_file() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| fs::metadata(p).expect("metadata").permissions().mode() & 0o777;
    let dir = tempdir();
    let plain = dir.path().join("plain");
    fs::write(&plain, b"x").expect("write a plain file");
    let path = dir.path().join("table.slidedb");
    write_atomic(&path, reference(Shape::EIGHT), false).expect("write");
    assert_eq!(mode(&path), mode(&plain), "a new table");
    write_atomic(&path, reference(Shape::EIGHT), true).expect("replace");
    assert_eq!(mode(&path), mode(&plain), "a replaced table");
}

// ---------------------------------------------------------------------
// 3. Resumable builds (the two-bit search to a file: `--checkpoint-every`,
//    `--memory`, and every build over 12 cells).
// ---------------------------------------------------------------------

/// The bytes `generate` builds for `shape`'s solved goal, for the shapes
/// the resumable tests build.
fn planes_table(shape: Shape) -> Vec<u8> {
    match (shape.rows(), shape.cols()) {
        (3, 3) | (2, 5) => reference(shape).to_vec(),
        _ => generate(&Board::solved(shape), |_| {})
            .expect("generate")
            .into_inner(),
    }
}

/// Starts `slidedb-gen args` in a working directory of its own (returned,
/// to outlive it), with its stderr read to the end on a thread.
fn spawn_gen(args: &[&str], data: &Path) -> (tempfile::TempDir, Child, thread::JoinHandle<String>) {
    let cwd = tempdir();
    let mut child = command(SLIDEDB_GEN, args, data, cwd.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start slidedb-gen");
    let stderr = child.stderr.take().expect("piped");
    let reader = thread::spawn(move || {
        let mut text = String::new();
        let _ = BufReader::new(stderr).read_to_string(&mut text);
        text
    });
    (cwd, child, reader)
}

/// A small generator of kill moments, seeded so a failure can be rerun.
struct Moments(u64);

impl Moments {
    fn next_below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

/// Builds `shape` with a checkpoint after every layer, killing the build
/// (SIGKILL) at random moments and starting it again with the same
/// command, until a run finishes: the table is byte for byte the
/// uninterrupted one, the work files are gone, and some run went on from
/// a checkpoint. The moments fall in the first 90% of an uninterrupted
/// run's time, timed first on this machine; a run that finishes before any
/// kill came after a checkpoint starts the experiment over.
fn kill_and_resume(shape: Shape, seed: u64, more: &[&str]) {
    kill_and_resume_to(shape, seed, more, &planes_table(shape));
}

/// [`kill_and_resume`], ending with `expected`'s bytes.
fn kill_and_resume_to(shape: Shape, seed: u64, more: &[&str], expected: &[u8]) {
    let data = tempdir();
    let dir = tempdir();
    let out = dir.path().join("table.slidedb");
    let size = shape.to_string();
    let mut args = vec![
        "--size",
        &size,
        "--out",
        path_str(&out),
        "--checkpoint-every",
        "0",
    ];
    args.extend(more);
    let checkpoint = dir.path().join("table.slidedb.checkpoint");
    let started = Instant::now();
    let (code, _, stderr) = run_gen(&args, data.path());
    assert_eq!(code, 0, "{stderr}");
    let window = started.elapsed().mul_f64(0.9);
    fs::remove_file(&out).expect("remove the uninterrupted table");
    let mut moments = Moments(seed);
    let mut killed_after_a_checkpoint = 0;
    let mut resumed = 0;
    for attempt in 0.. {
        assert!(attempt < 200, "seed {seed}: no run finished in 200 tries");
        let (_cwd, mut child, reader) = spawn_gen(&args, data.path());
        let delay = Duration::from_micros(moments.next_below(window.as_micros() as u64));
        let deadline = Instant::now() + delay;
        while Instant::now() < deadline && child.try_wait().expect("try_wait").is_none() {
            thread::sleep(Duration::from_millis(1));
        }
        let _ = child.kill();
        let status = wait_bounded(&mut child, "slidedb-gen");
        let text = reader.join().expect("stderr");
        assert!(
            status.code().is_none() || status.success(),
            "seed {seed}: slidedb-gen failed: {status}; stderr:\n{text}"
        );
        assert!(!text.contains("panicked"), "seed {seed}: {text}");
        resumed += text.contains("going on from the checkpoint of layer") as usize;
        // A kill after the table took its name (and its checkpoint was
        // gone) came after the build's work was done: the table is whole.
        let finished = status.success() || (out.exists() && !checkpoint.exists());
        if finished {
            if resumed > 0 {
                break;
            }
            // Finished before any kill landed after a checkpoint (a loaded
            // machine times runs unevenly): start the experiment over.
            assert!(fs::read(&out).expect("read") == expected, "seed {seed}");
            fs::remove_file(&out).expect("remove the table");
            killed_after_a_checkpoint = 0;
            continue;
        }
        killed_after_a_checkpoint += checkpoint.exists() as usize;
    }
    assert!(
        killed_after_a_checkpoint > 0 && resumed > 0,
        "seed {seed}: no kill came after a checkpoint ({killed_after_a_checkpoint}) or no run resumed ({resumed})"
    );
    assert!(
        fs::read(&out).expect("read the table") == expected,
        "seed {seed}: {shape}: the resumed build's bytes differ"
    );
    assert_eq!(
        names(dir.path()),
        ["table.slidedb"],
        "seed {seed}: work files left"
    );
}

/// A 2x5 build killed again and again at random moments ends with the
/// uninterrupted table's bytes.
#[test]
fn a_killed_build_goes_on_from_its_checkpoint_to_the_same_bytes() {
    for seed in [1, 2, 3] {
        kill_and_resume(shape(2, 5), seed, &[]);
    }
}

/// The same in segments (a memory limit below the resident search's),
/// with the distances and the frontier in work files that a kill leaves
/// half-written: the checkpoint is what the next run goes on from.
#[test]
fn a_killed_segmented_build_goes_on_to_the_same_bytes() {
    // 40 kB: segments of 29,248 boards, 7 a cell.
    for seed in [4, 5] {
        let more = ["--memory", "40K"];
        kill_and_resume(shape(2, 5), seed, &more);
    }
}

/// The same in the multi-tile metric: its checkpoints hold every cell's
/// bitset, and the resumed build's bytes are the in-memory multi-tile
/// build's.
#[test]
fn a_killed_multi_tile_build_goes_on_to_the_same_bytes() {
    let expected =
        slidedb::generate_in(&Board::solved(shape(2, 5)), slidedb::Metric::Multi, |_| {})
            .expect("generate")
            .into_inner();
    for seed in [8, 9] {
        kill_and_resume_to(shape(2, 5), seed, &["--metric", "multi"], &expected);
    }
}

/// The same on 3x4 (seconds a run): kills land in the middle layers.
#[test]
#[ignore = "12 cells: a minute in release"]
fn a_killed_twelve_cell_build_goes_on_to_the_same_bytes() {
    kill_and_resume(shape(3, 4), 7, &[]);
}

/// With a memory limit and checkpoints, the two-bit build writes every
/// small table toward several goals byte for byte as `generate` does
/// (through the command line, as a user runs it).
#[test]
fn a_build_within_a_memory_limit_is_the_generated_table() {
    let data = tempdir();
    let dir = tempdir();
    // (size, goal, memory, the boards a segment covers when it does not
    // all fit)
    for (size, goal, memory, segment) in [
        ("2x2", "1 2 3 0", "1K", None),
        ("3x2", "0 1 2 3 4 5", "1K", None),
        ("2x4", "1 2 3 4 5 6 7 0", "800", Some(768)),
        ("3x3", "1 2 3 4 5 6 7 8 0", "10K", Some(12352)),
        ("3x3", "1 2 3 4 0 5 6 7 8", "10K", Some(12352)),
        ("3x3", "8 7 6 5 4 3 2 1 0", "4K", Some(2496)),
        ("2x5", "1 2 3 4 5 6 7 8 9 0", "40K", Some(29248)),
    ] {
        let out = dir.path().join(format!("{size}.slidedb"));
        let args = [
            "--size",
            size,
            "--goal",
            goal,
            "--out",
            path_str(&out),
            "--memory",
            memory,
            "--checkpoint-every",
            "0",
            "--force",
        ];
        let (code, _, stderr) = run_gen(&args, data.path());
        assert_eq!(code, 0, "{size} {goal}: {stderr}");
        match segment {
            Some(boards) => assert!(
                stderr.contains(&format!("(segments of {boards} boards;")),
                "{size} {memory}: {stderr}"
            ),
            None => assert!(stderr.contains(", resident)"), "{size} {memory}: {stderr}"),
        }
        let goal = Board::parse(goal, Some(size.parse().unwrap())).unwrap();
        let expected = generate(&goal, |_| {}).unwrap();
        assert!(
            fs::read(&out).unwrap() == expected.as_bytes(),
            "{size} {goal}: the same bytes"
        );
    }
    let made = ["2x2", "2x4", "2x5", "3x2", "3x3"].map(|s| format!("{s}.slidedb"));
    assert_eq!(names(dir.path()), made, "only the tables are left");
}

/// The 12-cell tables, as the small ones, in segments (their resident
/// search keeps 90 MB).
#[test]
#[ignore = "12 cells: a minute in release"]
fn a_twelve_cell_build_within_a_memory_limit_is_the_generated_table() {
    let data = tempdir();
    let dir = tempdir();
    for (shape, memory) in [(shape(3, 4), "16M"), (shape(2, 6), "8M")] {
        let out = dir.path().join("t.slidedb");
        let size = shape.to_string();
        let args = [
            "--size",
            &size,
            "--out",
            path_str(&out),
            "--memory",
            memory,
            "--force",
        ];
        let (code, _, stderr) = run_gen(&args, data.path());
        assert_eq!(code, 0, "{shape}: {stderr}");
        assert!(fs::read(&out).unwrap() == planes_table(shape), "{shape}");
    }
}

/// A memory limit below what the search keeps resident refuses before
/// any work, saying how much it needs.
#[test]
fn a_build_that_does_not_fit_the_memory_limit_is_refused() {
    let data = tempdir();
    let dir = tempdir();
    let out = dir.path().join("t.slidedb");
    let args = ["--size", "3x4", "--out", path_str(&out), "--memory", "100K"];
    let (code, stdout, stderr) = run_gen(&args, data.path());
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(
        stderr.contains("needs 262184 bytes at the least")
            && stderr.contains("89812800 to keep")
            && stderr.contains("more than the memory limit (102400 bytes)"),
        "{stderr}"
    );
    assert!(names(dir.path()).is_empty(), "nothing written");
    // A size it cannot read is refused by the parser.
    let args = ["--size", "3x3", "--out", path_str(&out), "--memory", "lots"];
    let (code, _, stderr) = run_gen(&args, data.path());
    assert_eq!(code, 2);
    assert!(stderr.contains("write a size like 512M"), "{stderr}");
}

/// A checkpoint of another goal's build, or a damaged one, is refused
/// with what is wrong and how to start over; nothing is lost.
#[test]
fn a_checkpoint_of_another_build_or_damaged_is_refused() {
    let data = tempdir();
    let dir = tempdir();
    let out = dir.path().join("t.slidedb");
    let checkpoint = dir.path().join("t.slidedb.checkpoint");
    // A build toward a goal with the blank mid-row, killed once its
    // first checkpoint is there.
    let goal_text = "1 2 0 3 4 5 6 7 8 9";
    let other = ["--size", "2x5", "--goal", goal_text];
    let mut args = other.to_vec();
    args.extend(["--out", path_str(&out), "--checkpoint-every", "0"]);
    let mut copy = None;
    for _ in 0..20 {
        let _ = fs::remove_file(&out);
        let cwd = tempdir();
        let mut child = command(SLIDEDB_GEN, &args, data.path(), cwd.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start");
        while !checkpoint.exists() && child.try_wait().expect("try_wait").is_none() {
            thread::yield_now();
        }
        let _ = child.kill();
        wait_bounded(&mut child, "slidedb-gen");
        if let Ok(bytes) = fs::read(&checkpoint) {
            copy = Some(bytes);
            break;
        }
    }
    let copy = copy.expect("a checkpoint seen in 20 builds");
    let _ = fs::remove_file(&out);
    // The corner goal's build is another build.
    let args = ["--size", "2x5", "--out", path_str(&out)];
    let (code, _, stderr) = run_gen(&args, data.path());
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("is not a checkpoint this build can go on from")
            && stderr.contains("toward the 2x5 goal 1 2 0 3 4 5 6 7 8 9")
            && stderr.contains("remove it to start over"),
        "{stderr}"
    );
    // Damaged: one bit of its body flipped.
    let mut damaged = copy.clone();
    *damaged.last_mut().unwrap() ^= 1;
    fs::write(&checkpoint, &damaged).unwrap();
    let mut args = other.to_vec();
    args.extend(["--out", path_str(&out)]);
    let (code, _, stderr) = run_gen(&args, data.path());
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("(damaged)"), "{stderr}");
    // Whole again: the build goes on from it.
    fs::write(&checkpoint, &copy).unwrap();
    let (code, _, stderr) = run_gen(&args, data.path());
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("going on from the checkpoint of layer"),
        "{stderr}"
    );
    let goal = Board::parse(goal_text, Some(shape(2, 5))).unwrap();
    assert!(fs::read(&out).unwrap() == generate(&goal, |_| {}).unwrap().as_bytes());
    assert_eq!(names(dir.path()), ["t.slidedb"]);
}

/// A disk that fills up during a build (another program takes the
/// space) stops it with "the disk is full" and where it will go on from;
/// the checkpoint is left whole, and once there is space the same
/// command finishes with the uninterrupted bytes.
#[test]
#[ignore = "12 cells: seconds; mounts a tmpfs"]
fn a_full_disk_stops_a_build_and_leaves_its_checkpoint_usable() {
    let data = tempdir();
    let dir = tempdir();
    // The 3x4 build plans 150 MB at its peak.
    let Some(mount) = Tmpfs::mount(dir.path(), "size=160m,mode=700", "full_disk_build") else {
        return;
    };
    let out = mount.dir.join("t.slidedb");
    let checkpoint = mount.dir.join("t.slidedb.checkpoint");
    let filler = mount.dir.join("filler");
    let args = [
        "--size",
        "3x4",
        "--out",
        path_str(&out),
        "--checkpoint-every",
        "0",
    ];
    let (_cwd, mut child, reader) = spawn_gen(&args, data.path());
    // Once the first checkpoint is there, take all but 1 MB of the space.
    let deadline = Instant::now() + CHILD_TIMEOUT;
    while !checkpoint.exists() {
        assert!(Instant::now() < deadline, "no checkpoint appeared");
        thread::sleep(Duration::from_millis(5));
    }
    let mut f = fs::File::create(&filler).unwrap();
    let chunk = vec![1u8; 1 << 20];
    while std::io::Write::write_all(&mut f, &chunk).is_ok() {}
    drop(f);
    let len = fs::metadata(&filler).unwrap().len();
    fs::File::options()
        .write(true)
        .open(&filler)
        .unwrap()
        .set_len(len.saturating_sub(1 << 20))
        .unwrap();
    let status = wait_bounded(&mut child, "slidedb-gen");
    let text = reader.join().unwrap();
    assert_eq!(status.code(), Some(2), "{text}");
    assert!(
        text.contains("the disk is full") && text.contains("goes on from the checkpoint of layer"),
        "{text}"
    );
    let mut left = names(&mount.dir);
    left.sort();
    assert_eq!(left, ["filler", "t.slidedb.checkpoint"], "{text}");
    fs::remove_file(&filler).unwrap();
    let (code, _, stderr) = run_gen(&args, data.path());
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("going on from the checkpoint of layer"),
        "{stderr}"
    );
    assert!(fs::read(&out).unwrap() == planes_table(shape(3, 4)));
    assert_eq!(names(&mount.dir), ["t.slidedb"]);
}

/// Waits until `path` exists while `child` runs; `false` if the child
/// ended first.
fn wait_for_file(child: &mut Child, path: &Path) -> bool {
    let deadline = Instant::now() + CHILD_TIMEOUT;
    while !path.exists() {
        if child.try_wait().expect("try_wait").is_some() {
            return false;
        }
        assert!(
            Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        thread::sleep(Duration::from_micros(200));
    }
    true
}

/// Sends `signal` to a running child: stopped first (SIGSTOP), so that the
/// signal lands while the build is in the moment the test chose, then
/// continued. `false` if the child had already ended.
fn signal_while_running(child: &mut Child, signal: i32) -> bool {
    let pid = child.id() as i32;
    // SAFETY: kill(2) with the pid of our own child.
    unsafe { libc::kill(pid, libc::SIGSTOP) };
    if child.try_wait().expect("try_wait").is_some() {
        return false;
    }
    // SAFETY: as above.
    unsafe {
        libc::kill(pid, signal);
        libc::kill(pid, libc::SIGCONT);
    }
    true
}

/// A segmented build killed after a checkpoint leaves its work files; the
/// same command without `--memory` (resident) finishes the table and
/// removes them.
#[test]
fn a_resident_build_after_a_killed_segmented_one_removes_its_work_files() {
    let data = tempdir();
    let dir = tempdir();
    let out = dir.path().join("table.slidedb");
    let files = slidedb::build::work_files(&out);
    let base = [
        "--size",
        "2x5",
        "--out",
        path_str(&out),
        "--checkpoint-every",
        "0",
    ];
    let segmented: Vec<&str> = base.iter().copied().chain(["--memory", "40K"]).collect();
    let mut killed = false;
    for _ in 0..20 {
        let (_cwd, mut child, reader) = spawn_gen(&segmented, data.path());
        let running = wait_for_file(&mut child, &files.checkpoint)
            && wait_for_file(&mut child, &files.distances);
        let _ = child.kill();
        wait_bounded(&mut child, "slidedb-gen");
        let _ = reader.join();
        if running && files.distances.exists() {
            killed = true;
            break;
        }
        let _ = fs::remove_file(&out);
        let _ = fs::remove_file(&files.checkpoint);
    }
    assert!(killed, "no run was killed after a checkpoint in 20 tries");
    assert!(
        files.frontier.exists(),
        "the kill left no frontier work file"
    );
    let (code, _, stderr) = run_gen(&base, data.path());
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("going on from the checkpoint"), "{stderr}");
    assert!(fs::read(&out).expect("read") == planes_table(shape(2, 5)));
    assert_eq!(names(dir.path()), ["table.slidedb"], "{stderr}");
}

/// A two-bit build stopped by SIGTERM, SIGHUP or Ctrl-C (SIGINT) exits with 128 +
/// the signal's number and removes its work files: before its first
/// checkpoint nothing is left, after one only the checkpoint, from which
/// the same command goes on.
#[test]
fn a_stopped_build_removes_its_work_files_and_keeps_its_checkpoint() {
    for (signal, name) in [
        (libc::SIGTERM, "SIGTERM"),
        (libc::SIGINT, "SIGINT"),
        (libc::SIGHUP, "SIGHUP"),
    ] {
        for after_a_checkpoint in [false, true] {
            let data = tempdir();
            let dir = tempdir();
            let out = dir.path().join("table.slidedb");
            let files = slidedb::build::work_files(&out);
            let every = if after_a_checkpoint { "0" } else { "1h" };
            let args = [
                "--size",
                "2x5",
                "--out",
                path_str(&out),
                "--memory",
                "40K",
                "--checkpoint-every",
                every,
            ];
            let wait_for = match after_a_checkpoint {
                true => &files.checkpoint,
                false => &files.distances,
            };
            let mut stopped = None;
            for _ in 0..20 {
                let (_cwd, mut child, reader) = spawn_gen(&args, data.path());
                let sent =
                    wait_for_file(&mut child, wait_for) && signal_while_running(&mut child, signal);
                let status = wait_bounded(&mut child, "slidedb-gen");
                let text = reader.join().expect("stderr");
                if sent {
                    stopped = Some((status, text));
                    break;
                }
                // It finished first: try again.
                let _ = fs::remove_file(&out);
            }
            let (status, text) = stopped.expect("no run could be stopped in 20 tries");
            assert_eq!(status.code(), Some(128 + signal), "{name}: {text}");
            assert!(
                text.contains(&format!("stopped by {name}; removed"))
                    && text.contains("distances.work"),
                "{name}: {text}"
            );
            let left = names(dir.path());
            if after_a_checkpoint {
                assert_eq!(left, ["table.slidedb.checkpoint"], "{name}: {text}");
                let (code, _, stderr) = run_gen(&args, data.path());
                assert_eq!(code, 0, "{stderr}");
                assert!(stderr.contains("going on from the checkpoint"), "{stderr}");
                assert_eq!(names(dir.path()), ["table.slidedb"]);
            } else {
                assert!(left.is_empty(), "{name}: {left:?} left; {text}");
            }
        }
    }
}

/// `slidedb-gen --out X --force` onto anything but a regular file is
/// refused, leaves X as it was, and does not suggest `--force`.
#[test]
fn force_replaces_only_a_regular_file() {
    let data = tempdir();
    let dir = data.path();
    fs::write(dir.join("target"), b"kept").unwrap();
    std::os::unix::fs::symlink("target", dir.join("link")).unwrap();
    fs::create_dir(dir.join("folder")).unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(dir.join("socket")).unwrap();
    let mut cases = vec!["link", "folder", "socket"];
    if Command::new("mkfifo")
        .arg(dir.join("fifo"))
        .status()
        .is_ok_and(|s| s.success())
    {
        cases.push("fifo");
    } else {
        eprintln!("no mkfifo here: the FIFO case is skipped");
    }
    // A character device (the case) needs root.
    let device = Command::new("mknod")
        .arg(dir.join("device"))
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if device {
        cases.push("device");
    } else {
        eprintln!("mknod is not allowed here (not root?): the device case is skipped");
    }
    for name in cases {
        let path = dir.join(name);
        let before = fs::symlink_metadata(&path).unwrap().file_type();
        for force in [true, false] {
            let mut args = vec!["--size", "2x3", "--quiet", "--out", path_str(&path)];
            if force {
                args.push("--force");
            }
            let (code, _, err) = run_gen(&args, dir);
            assert_eq!(code, 2, "{name}: {err}");
            assert!(!err.contains("--force"), "{name}: {err}");
            assert_eq!(err.lines().count(), 1, "{name}: {err}");
            let after = fs::symlink_metadata(&path).unwrap().file_type();
            assert_eq!(before, after, "{name} was replaced");
        }
    }
    assert_eq!(fs::read(dir.join("target")).unwrap(), b"kept");
    if device {
        assert!(
            fs::symlink_metadata(dir.join("device"))
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }
    // A regular file is replaced with --force, and only then.
    let file = dir.join("old.slidedb");
    fs::write(&file, b"old").unwrap();
    let (code, _, err) = run_gen(&["--size", "2x3", "--quiet", "--out", path_str(&file)], dir);
    assert_eq!(code, 2);
    assert!(err.contains("pass --force"), "{err}");
    let (code, _, err) = run_gen(
        &[
            "--size",
            "2x3",
            "--quiet",
            "--out",
            path_str(&file),
            "--force",
        ],
        dir,
    );
    assert_eq!(code, 0, "{err}");
    assert!(fs::read(&file).unwrap().starts_with(b"SLIDEDB\0"));
}

/// Several `solve` processes that each build the same missing table at
/// once all answer, and none tells the user to pass `--force` (which
/// `solve` does not have) or reports an error.
#[test]
fn concurrent_builds_of_one_table_all_answer() {
    let data = tempdir();
    let children: Vec<_> = (0..6)
        .map(|_| {
            Command::new(SLIDEDB)
                .args(["solve", "2 3 4 1 5 x 7 6 8"])
                .env("SLIDEDB_DATA", data.path())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{err}");
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            "ullddrurdllurdruldr\n"
        );
        assert!(!err.contains("--force") && !err.contains("error"), "{err}");
    }
    assert!(data.path().join(DEFAULT_3X3).is_file());
}
