//! `slidedb-gen --workers N` and `--hosts FILE --process I`: the
//! distributed build to a directory of shards, and `slidedb-gen merge`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use slidedb::Board;
use slidedb::build::{
    Checkpoints, Cluster, ClusterEvent, ConnectError, DistributedError, MANIFEST_NAME, ShardError,
    merge_shards, search_cluster, write_shards,
};

/// The `host:port` lines of a hosts file (blank lines and `#` comments
/// skipped). A line repeated is an error naming both lines, found by
/// every process before it listens.
pub fn read_hosts(path: &Path) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the hosts list {}", path.display()))?;
    // Each host with its line in the file (from 1).
    let hosts: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty())
        .map(|(i, l)| (i, l.to_string()))
        .collect();
    for (k, (line, host)) in hosts.iter().enumerate() {
        if !host.contains(':') {
            bail!(
                "{}: line {line} ({host:?}) is not host:port",
                path.display()
            );
        }
        if let Some((first, _)) = hosts[..k]
            .iter()
            .find(|(_, other)| other.eq_ignore_ascii_case(host))
        {
            bail!(
                "{}: lines {first} and {line} are both {host}: give every process its own host:port",
                path.display()
            );
        }
    }
    if hosts.is_empty() {
        bail!("{}: no host:port lines", path.display());
    }
    Ok(hosts.into_iter().map(|(_, host)| host).collect())
}

/// What the distributed build was asked.
pub struct Request<'a> {
    pub goal: &'a Board,
    pub force: bool,
    pub workers: usize,
    pub hosts: Option<(Vec<String>, usize)>,
    pub dir: PathBuf,
    /// How often to checkpoint (none: never).
    pub checkpoint_every: Option<Duration>,
    /// How long another process may be silent (zero: forever).
    pub peer_timeout: Duration,
    /// `--connect-timeout`: how long to wait for the others at start-up.
    pub connect_timeout: Duration,
    pub quiet: bool,
}

/// Runs the distributed build and writes this process's shards and the
/// manifest into the directory.
pub fn build(request: Request) -> Result<()> {
    let Request {
        goal,
        force,
        workers,
        hosts,
        dir,
        checkpoint_every,
        peer_timeout,
        connect_timeout,
        quiet,
    } = request;
    if dir.join(MANIFEST_NAME).exists() && !force {
        bail!(
            "{} holds a sharded table: pass --force to replace it",
            dir.display()
        );
    }
    // As every other --out: the folder it goes into must exist (a
    // mistyped path makes no folders), and must be writable.
    match std::fs::metadata(&dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => bail!(
            "{} is a file: --workers and --hosts write a directory of shards, so name a directory",
            dir.display()
        ),
        Err(_) => {
            slidedb::output::check_writable(&dir)
                .with_context(|| format!("cannot create the directory {}", dir.display()))?;
            // Processes that share the folder (on one machine, or on a
            // shared filesystem) may create it at the same moment: one
            // that another has just made is theirs too.
            match std::fs::create_dir(&dir) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => {}
                Err(e) => {
                    return Err(e)
                        .with_context(|| format!("cannot create the directory {}", dir.display()));
                }
            }
        }
    }
    let start = Instant::now();
    let (process, processes) = match &hosts {
        Some((list, process)) => (*process, list.len()),
        None => (0, 1),
    };
    let who = if processes > 1 {
        format!("process {process} of {processes}, ")
    } else {
        String::new()
    };
    if !quiet {
        say!(
            "slidedb-gen: {} goal {goal} ({} states), {who}{workers} worker{} a process, {} in all; shards to {}",
            goal.shape(),
            goal.shape().states(),
            if workers == 1 { "" } else { "s" },
            workers * processes,
            dir.display()
        );
    }
    let on_event = move |event: &ClusterEvent| match event {
        ClusterEvent::Resumed { depth, run } => {
            say!("slidedb-gen: going on from the checkpoints of layer {depth} (run {run:016x})")
        }
        ClusterEvent::Ignored { path, why } => {
            say!("slidedb-gen: not using {}: {why}", path.display())
        }
        ClusterEvent::CheckpointFailed { worker, depth, why } => say!(
            "slidedb-gen: warning: worker {worker} could not write its checkpoint of layer {depth} ({why}); its previous checkpoint stands"
        ),
        _ if quiet => {}
        ClusterEvent::Layer(layer) => say!(
            "depth {:>3}: {:>12} states; moves {:>12}, to other workers {:>11}; this process sent {} B, received {} B; {:.2} s",
            layer.depth,
            layer.states,
            layer.moves,
            layer.sent,
            layer.bytes_sent,
            layer.bytes_received,
            layer.seconds
        ),
        ClusterEvent::Checkpointed {
            worker,
            depth,
            bytes,
            seconds,
        } => say!(
            "slidedb-gen: worker {worker}: checkpoint of layer {depth}, {bytes} bytes in {seconds:.2} s"
        ),
        _ => {}
    };
    let (addresses, process) = hosts.unwrap_or((Vec::new(), 0));
    let cluster = Cluster {
        addresses,
        process,
        workers,
        connect_timeout,
        peer_timeout,
        checkpoints: checkpoint_every.map(|every| Checkpoints {
            dir: dir.clone(),
            every,
        }),
    };
    let finished = search_cluster(goal, &cluster, on_event).map_err(with_flags)?;
    let written = write_shards(&dir, goal, &finished)
        .with_context(|| format!("cannot write the shards into {}", dir.display()))?;
    if !quiet {
        let states: u64 = finished.layers.iter().sum();
        say!(
            "slidedb-gen: {states} states, max distance {}, {:.2} s{}; moves {}, {:.2}% to other workers; this process sent {} B and received {} B over the network; wrote {} files into {}",
            finished.layers.len() - 1,
            start.elapsed().as_secs_f64(),
            match finished.resumed {
                Some(depth) => format!(" (this run, from the checkpoints of layer {depth})"),
                None => String::new(),
            },
            finished.moves,
            100.0 * finished.sent as f64 / finished.moves.max(1) as f64,
            finished.bytes_sent,
            finished.bytes_received,
            written.len(),
            dir.display()
        );
    }
    Ok(())
}

/// The library's error with the flags of its fix: the library names a
/// process by its number in the hosts list, the command line by the flag
/// that gives it.
fn with_flags(e: DistributedError) -> anyhow::Error {
    let flags = match &e {
        DistributedError::Connect(ConnectError::Timeout { process, .. }) => {
            format!("--process {process}")
        }
        DistributedError::Connect(ConnectError::Mismatch { .. }) => {
            "the same command but for --process".to_string()
        }
        _ => return e.into(),
    };
    anyhow!("{e} ({flags})")
}

/// `slidedb-gen merge DIR --out FILE`.
pub fn merge(dir: &Path, out: &Path, force: bool, quiet: bool) -> Result<()> {
    if let Err(e) = slidedb::output::check_target(out, force) {
        match e.kind() {
            std::io::ErrorKind::AlreadyExists => {
                bail!("{} exists: pass --force to replace it", out.display())
            }
            _ => return Err(e.into()),
        }
    }
    // As every --out: its folder must exist (a mistyped path is an error
    // naming the folder), found before the work.
    slidedb::output::check_writable(out)
        .with_context(|| format!("cannot write {}", out.display()))?;
    let start = Instant::now();
    let bytes = match merge_shards(dir, out) {
        Ok(bytes) => bytes,
        Err(e) => {
            let hint = rebuild(&e, dir);
            let e = anyhow::Error::new(e)
                .context(format!("cannot merge the shards of {}", dir.display()));
            return Err(match hint {
                Some(hint) => anyhow!("{e:#}, {hint}"),
                None => e,
            });
        }
    };
    if !quiet {
        say!(
            "slidedb-gen: merged {} into {} ({bytes} bytes) in {:.2} s",
            dir.display(),
            out.display(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// For a damaged shard of `dir`, the command that builds the directory
/// again, as its manifest says it was built.
fn rebuild(e: &ShardError, dir: &Path) -> Option<String> {
    let ShardError::Damaged { goal, workers, .. } = e else {
        return None;
    };
    Some(slidedb_cli::rebuild::sharded_table(goal, *workers, dir))
}
