//! `slidedb-gen --workers N` and `--hosts FILE --process I`: the
//! distributed build to a directory of shards, and `slidedb-gen merge`.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use slidedb::Board;
use slidedb::table::{
    Checkpoints, Cluster, ClusterEvent, DistributedError, merge_shards, search_cluster,
    write_shards,
};

/// How long a process waits for the others to start and connect.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(120);

/// The first panic of any thread, recorded instead of printed: when a
/// process of the cluster dies, timely's threads in the others panic; the
/// first panic's cause goes into one error message, and the process exits
/// with status 2 at once.
static FIRST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Records panics (see [`FIRST_PANIC`]) until the guard is dropped, which
/// puts the previous hook back.
fn record_panics() -> impl Drop {
    type Hook = Box<dyn Fn(&std::panic::PanicHookInfo<'_>) + Sync + Send + 'static>;
    struct Restore(Option<Hook>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(previous) = self.0.take() {
                std::panic::set_hook(previous);
            }
        }
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a worker thread stopped".into());
        if let Ok(mut first) = FIRST_PANIC.lock()
            && first.is_none()
        {
            // A worker that stops leaves the search unable to finish:
            // say so and exit now, before timely's other threads, unwinding
            // beside it, can panic again and abort the process.
            eprintln!(
                "slidedb-gen: error: {} ({message})",
                DistributedError::WorkerLost
            );
            *first = Some(message);
            std::process::exit(2);
        }
    }));
    Restore(Some(previous))
}

/// The `host:port` lines of a hosts file (blank lines and `#` comments
/// skipped).
pub fn read_hosts(path: &Path) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the hosts list {}", path.display()))?;
    let hosts: Vec<String> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    for (i, host) in hosts.iter().enumerate() {
        if !host.contains(':') {
            bail!(
                "{}: line {} ({host:?}) is not host:port",
                path.display(),
                i + 1
            );
        }
    }
    if hosts.is_empty() {
        bail!("{}: no host:port lines", path.display());
    }
    Ok(hosts)
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
        quiet,
    } = request;
    if dir.join(slidedb::table::MANIFEST_NAME).exists() && !force {
        bail!(
            "{} holds a sharded table: pass --force to replace it",
            dir.display()
        );
    }
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create the directory {}", dir.display()))?;
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
        connect_timeout: CONNECT_TIMEOUT,
        checkpoints: checkpoint_every.map(|every| Checkpoints {
            dir: dir.clone(),
            every,
        }),
    };
    let recording = record_panics();
    let result = search_cluster(goal, &cluster, on_event);
    let finished = match result {
        Ok(finished) => finished,
        Err(e @ DistributedError::WorkerLost) => {
            let cause = FIRST_PANIC.lock().ok().and_then(|p| p.clone());
            match cause {
                Some(cause) => bail!("{e} ({cause})"),
                None => bail!("{e}"),
            }
        }
        Err(e) => return Err(e.into()),
    };
    drop(recording);
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

/// `slidedb-gen merge DIR --out FILE`.
pub fn merge(dir: &Path, out: &Path, force: bool, quiet: bool) -> Result<()> {
    if let Err(e) = slidedb::store::check_target(out, force) {
        match e.kind() {
            std::io::ErrorKind::AlreadyExists => {
                bail!("{} exists: pass --force to replace it", out.display())
            }
            _ => return Err(e.into()),
        }
    }
    let start = Instant::now();
    let bytes = merge_shards(dir, out)
        .with_context(|| format!("cannot merge the shards of {}", dir.display()))?;
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
