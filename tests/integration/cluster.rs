//! The distributed build: several local processes on 127.0.0.1 (ports the
//! test picks), their shards merged into the table a single-process build
//! writes; a process killed in the middle stops the others with an error.

use std::fs;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use slidedb::{Board, Shape, generate};

use crate::exe::{path_str, run, run_gen, tempdir};

const SLIDEDB_GEN: &str = env!("CARGO_BIN_EXE_slidedb-gen");

/// A hosts file of `n` free ports on 127.0.0.1 (free when picked; a
/// clash with another program in between would fail the test loudly).
fn hosts_file(dir: &Path, n: usize) -> PathBuf {
    let listeners: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").expect("a free port"))
        .collect();
    let text: String = listeners
        .iter()
        .map(|l| format!("127.0.0.1:{}\n", l.local_addr().unwrap().port()))
        .collect();
    let path = dir.join("hosts");
    fs::write(&path, format!("# three local processes\n{text}")).unwrap();
    path
}

/// Starts process `i` of a cluster build of `size` (with `extra`
/// arguments), its stderr to a file.
fn start(size: &str, hosts: &Path, i: usize, out: &Path, log: &Path, extra: &[&str]) -> Child {
    Command::new(SLIDEDB_GEN)
        .args(["--size", size, "--hosts", path_str(hosts)])
        .args(["--process", &i.to_string(), "--out", path_str(out)])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(fs::File::create(log).unwrap())
        .spawn()
        .expect("start slidedb-gen")
}

/// Waits for `child` at most `limit`; its exit code (None if killed).
fn wait(child: &mut Child, limit: Duration, what: &str) -> Option<i32> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{what} did not stop within {limit:?}");
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// Runs the three processes to the end (with `extra` arguments) and
/// merges their shards; the merged file's bytes. Their logs are
/// `dir/log0` to `log2`.
fn build_on_three(size: &str, dir: &Path, hosts: Option<&Path>, extra: &[&str]) -> Vec<u8> {
    let hosts = match hosts {
        Some(hosts) => hosts.to_path_buf(),
        None => hosts_file(dir, 3),
    };
    let mut children: Vec<(Child, PathBuf)> = (0..3)
        .map(|i| {
            let log = dir.join(format!("log{i}"));
            (
                start(size, &hosts, i, &dir.join(format!("out{i}")), &log, extra),
                log,
            )
        })
        .collect();
    for (i, (child, log)) in children.iter_mut().enumerate() {
        let code = wait(child, Duration::from_secs(300), "a cluster process");
        let err = fs::read_to_string(log).unwrap();
        assert_eq!(code, Some(0), "process {i}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(
            err.contains("to other workers"),
            "progress on each process: {err}"
        );
        assert!(err.contains("over the network"), "a summary: {err}");
    }
    // Every process writes its own shard and the manifest; together, in
    // one directory, they are the table.
    let all = dir.join("all");
    fs::create_dir_all(&all).unwrap();
    for i in 0..3 {
        for entry in fs::read_dir(dir.join(format!("out{i}"))).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            // The shards replace the checkpoints.
            assert!(
                name == "manifest.slidedb" || name.starts_with("shard-"),
                "process {i} left {name}"
            );
            fs::copy(entry.path(), all.join(entry.file_name())).unwrap();
        }
    }
    let merged = dir.join("merged.slidedb");
    let _ = fs::remove_file(&merged);
    let (code, out, err) = run_gen(&["merge", path_str(&all), "--out", path_str(&merged)], dir);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    // The directory answers as the merged file does.
    let (code, boards, err) = run(
        &["random", "--size", size, "--count", "300", "--seed", "5"],
        None,
        dir,
    );
    assert_eq!(code, 0, "{err}");
    for command in ["solve", "probe"] {
        let answer = |table: &Path| {
            let (code, out, err) = run(
                &[command, "--table", path_str(table), "--json"],
                Some(boards.as_bytes()),
                dir,
            );
            assert_eq!(code, 0, "{err}");
            out
        };
        let (sharded, single) = (answer(&all), answer(&merged));
        assert_eq!(sharded.lines().count(), 300);
        assert!(sharded == single, "{size} {command}: the answers differ");
    }
    fs::read(merged).unwrap()
}

/// Checkpoints at every layer.
const EVERY_LAYER: &[&str] = &["--checkpoint-every", "0"];

fn reference(rows: usize, cols: usize) -> Vec<u8> {
    let goal = Board::solved(Shape::new(rows, cols).unwrap());
    generate(&goal, |_| {}).unwrap().into_inner()
}

#[test]
fn three_processes_build_the_3x3_and_2x5_tables_byte_for_byte() {
    for (size, rows, cols) in [("3x3", 3, 3), ("2x5", 2, 5)] {
        let dir = tempdir();
        let merged = build_on_three(size, dir.path(), None, &[]);
        assert!(merged == reference(rows, cols), "{size}: the bytes differ");
    }
}

#[test]
#[ignore = "three processes build 3x4 (239.5 M states): about 20 s"]
fn three_processes_build_the_3x4_table_byte_for_byte() {
    let dir = tempdir();
    let merged = build_on_three("3x4", dir.path(), None, &[]);
    assert!(merged == reference(3, 4), "3x4: the bytes differ");
}

#[test]
fn workers_of_one_process_build_the_table() {
    let dir = tempdir();
    let shards = dir.path().join("shards");
    let (code, _, err) = run_gen(
        &[
            "--size",
            "3x3",
            "--workers",
            "3",
            "--out",
            path_str(&shards),
        ],
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    // The directory holds a table now: building into it again needs
    // --force.
    let (code, _, err) = run_gen(
        &[
            "--size",
            "3x3",
            "--workers",
            "3",
            "--out",
            path_str(&shards),
        ],
        dir.path(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("--force"), "{err}");
    let mut names: Vec<String> = fs::read_dir(&shards)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "manifest.slidedb",
            "shard-0-of-3.slidedb",
            "shard-1-of-3.slidedb",
            "shard-2-of-3.slidedb"
        ]
    );
    let merged = dir.path().join("t.slidedb");
    let (code, _, err) = run_gen(
        &["merge", path_str(&shards), "--out", path_str(&merged)],
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(fs::read(&merged).unwrap() == reference(3, 3));
    // The merged file exists now: merging again needs --force.
    let (code, _, err) = run_gen(
        &["merge", path_str(&shards), "--out", path_str(&merged)],
        dir.path(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("--force"), "{err}");
}

/// Shards of two runs do not merge: a shard of another build is refused
/// by its run, a damaged one by its checksum.
#[test]
fn a_shard_of_another_run_or_damaged_is_refused() {
    let dir = tempdir();
    let build = |name: &str| {
        let out = dir.path().join(name);
        let (code, _, err) = run_gen(
            &["--size", "2x4", "--workers", "2", "--out", path_str(&out)],
            dir.path(),
        );
        assert_eq!(code, 0, "{err}");
        out
    };
    let (first, second) = (build("a"), build("b"));
    fs::copy(
        first.join("shard-1-of-2.slidedb"),
        second.join("shard-1-of-2.slidedb"),
    )
    .unwrap();
    let merged = dir.path().join("m.slidedb");
    let (code, _, err) = run_gen(
        &["merge", path_str(&second), "--out", path_str(&merged)],
        dir.path(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("run") && err.contains("shard-1-of-2"), "{err}");
    assert!(!merged.exists());

    let third = build("c");
    let shard = third.join("shard-0-of-2.slidedb");
    let mut bytes = fs::read(&shard).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    fs::write(&shard, bytes).unwrap();
    let (code, _, err) = run_gen(
        &["merge", path_str(&third), "--out", path_str(&merged)],
        dir.path(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("checksum"), "{err}");
}

/// One of three processes killed in the middle: the other two stop with
/// a clear error within 30 s; the same three commands then go on from the
/// last layer they all checkpointed, and the table is the single-process
/// one.
#[test]
#[ignore = "three processes build 3x4 twice: about 40 s"]
fn a_killed_process_stops_the_others_and_the_build_goes_on_from_its_checkpoints() {
    let dir = tempdir();
    let hosts = hosts_file(dir.path(), 3);
    let logs: Vec<PathBuf> = (0..3).map(|i| dir.path().join(format!("log{i}"))).collect();
    let outs: Vec<PathBuf> = (0..3).map(|i| dir.path().join(format!("out{i}"))).collect();
    let mut children: Vec<Child> = (0..3)
        .map(|i| start("3x4", &hosts, i, &outs[i], &logs[i], EVERY_LAYER))
        .collect();
    // Kill process 1 once the search is under way.
    let deadline = Instant::now() + Duration::from_secs(120);
    while !fs::read_to_string(&logs[0]).unwrap().contains("depth  20:") {
        assert!(Instant::now() < deadline, "the build did not start");
        if children[0].try_wait().unwrap().is_some() {
            break;
        }
        thread::sleep(Duration::from_millis(5));
    }
    children[1].kill().unwrap();
    let killed = Instant::now();
    let _ = children[1].wait();
    let mut stopped = 0;
    for i in [0, 2] {
        let code = wait(
            &mut children[i],
            Duration::from_secs(30),
            "a surviving process",
        );
        let err = fs::read_to_string(&logs[i]).unwrap();
        if code == Some(0) {
            // It finished before the kill took effect: nothing to test
            // here but the rerun.
            continue;
        }
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains("error: a worker stopped") && err.contains("run the same command again"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        stopped += 1;
    }
    assert!(stopped > 0, "the kill came after the search");
    assert!(killed.elapsed() <= Duration::from_secs(30));
    let merged = build_on_three("3x4", dir.path(), Some(&hosts), EVERY_LAYER);
    assert!(merged == reference(3, 4), "the rerun's bytes differ");
    // Every process went on from the same layer, at least the one
    // process 0 had reported when process 1 was killed.
    let resumed: Vec<u32> = logs
        .iter()
        .map(|log| {
            let err = fs::read_to_string(log).unwrap();
            let (_, after) = err
                .split_once("going on from the checkpoints of layer ")
                .unwrap_or_else(|| panic!("the rerun went on from no checkpoint: {err}"));
            after.split(' ').next().unwrap().parse().unwrap()
        })
        .collect();
    assert!(
        resumed[0] >= 20 && resumed.iter().all(|&d| d == resumed[0]),
        "{resumed:?}"
    );
}

#[test]
fn a_process_not_in_the_hosts_list_is_an_error() {
    let dir = tempdir();
    let hosts = hosts_file(dir.path(), 2);
    let out = dir.path().join("out");
    let (code, _, err) = run_gen(
        &[
            "--size",
            "2x3",
            "--hosts",
            path_str(&hosts),
            "--process",
            "2",
            "--out",
            path_str(&out),
        ],
        dir.path(),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("--process 2") && err.contains("2 hosts"),
        "{err}"
    );
}
