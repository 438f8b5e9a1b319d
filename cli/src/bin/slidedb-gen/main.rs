//! `slidedb-gen`: builds a distance table by reverse BFS and writes it, or
//! (with `--pdb`) the additive pattern databases of a board too big for a
//! full table.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Parser;
use slidedb::build::{
    self, BuildEvent, BuildOptions, EntryKind, Partition, PatternEvent, PatternSpec, build_file,
};
use slidedb::{
    Board, Metric, Shape, default_data_dir, generate_in, pattern_file_name, table_file_name,
    write_atomic,
};
use slidedb_cli::units::parse_duration;

/// Build the exact distance table of a sliding-tile puzzle: one reverse
/// breadth-first search from the goal over every reachable board.
#[derive(Parser)]
#[command(name = "slidedb-gen", version, args_conflicts_with_subcommands = true)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Board size as ROWSxCOLS [default: from --goal, else 3x3].
    #[arg(long, value_name = "RxC")]
    size: Option<Shape>,
    /// The goal board [default: the tiles in order, blank last]. The table
    /// answers toward it, and also serves every goal of its class (the
    /// blank in a cell the board's symmetries reach, tiles renamed).
    #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
    goal: Option<String>,
    /// Where to write the table; its folder must exist [default: in the
    /// data folder, named by size and the class's goal].
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
    /// The data folder [default: $SLIDEDB_DATA, else the user's data
    /// directory, such as ~/.local/share/slidedb]; created if missing.
    #[arg(long, value_name = "DIR", conflicts_with = "out")]
    data: Option<PathBuf>,
    /// Worker threads, 1 to 256 [default: one per core].
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    threads: Option<usize>,
    /// Build additive pattern databases instead of a full table (any board
    /// up to 25 cells): with group sizes adding up to the tiles (7-8, 6-6-3
    /// or 5-5-5 for 4x4, 6-6-6-6 for 5x5), the groups' tiles (1,2,5,6/3,4,7,8),
    /// or alone for the size's default (6-6-3 on 4x4, 6-6-6-6 on 5x5,
    /// elsewhere equal groups of at most 6 tiles); with -blank after them
    /// (6-6-6-6-blank), blank-aware entries (two bits for each placement
    /// and cell of the blank, a stronger estimate), built in memory.
    #[arg(long, value_name = "SIZES", num_args = 0..=1, default_missing_value = "default")]
    pdb: Option<String>,
    /// The metric the table's distances count moves in: single (a move
    /// slides one tile one cell) or multi (a move slides the blank any
    /// distance along its row or column, as speed solvers count; full
    /// tables of up to 14 cells; over 12 cells, or with --memory or
    /// checkpoints, by the two-bit search, kept resident) [default: single].
    #[arg(long, value_name = "METRIC", default_value = "single")]
    metric: Metric,
    /// Build within this much memory (like 512M, 16G or 16GiB), by the
    /// two-bit search to a file, resumably; it refuses before it starts
    /// when the table needs more [default for boards over 12 cells: the
    /// memory available].
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    memory: Option<u64>,
    /// With the two-bit search (--memory, or boards over 12 cells) or the
    /// distributed one (--workers, --hosts), write a checkpoint at the end
    /// of the first layer this long after the last (like 90s, 5m, or 0 for
    /// every layer); a build stopped at any moment goes on from it when
    /// the same command runs again [default: 5m].
    #[arg(long, value_name = "TIME", value_parser = parse_duration)]
    checkpoint_every: Option<std::time::Duration>,
    /// With the two-bit or the distributed search: write no checkpoints
    /// (faster, but a stopped build starts over).
    #[arg(long, conflicts_with = "checkpoint_every")]
    no_checkpoints: bool,
    /// Build with the distributed search, on N timely dataflow workers in
    /// this process (with --hosts: in each process), writing a directory of
    /// shards and a manifest to --out DIR (see `slidedb-gen merge`).
    #[arg(long, value_name = "N", value_parser = parse_workers)]
    workers: Option<usize>,
    /// Build on several processes, perhaps on several hosts: FILE lists one
    /// host:port per line, process I listens on line I (from 0), and every
    /// process is started with the same FILE and its own --process.
    #[arg(long, value_name = "FILE", requires = "process")]
    hosts: Option<PathBuf>,
    /// This process's line in --hosts, from 0.
    #[arg(long, value_name = "I", requires = "hosts")]
    process: Option<usize>,
    /// With --hosts: stop with an error naming the process when another
    /// process has sent nothing for this long (like 90s or 5m; 0 waits
    /// forever); each sends something at least every 2 s, whatever it
    /// is doing [default: 60s].
    #[arg(long, value_name = "TIME", value_parser = parse_duration, requires = "hosts")]
    peer_timeout: Option<std::time::Duration>,
    /// With --hosts: how long each process waits, at start-up, for the
    /// others to start and connect (like 30s or 10m) before it stops with
    /// an error naming the first missing one; a process that connected and
    /// then stopped ends the wait at once [default: 2m].
    #[arg(long, value_name = "TIME", value_parser = parse_duration, requires = "hosts")]
    connect_timeout: Option<std::time::Duration>,
    /// Replace the output file if it exists (with --man DIR: files of the
    /// pages' names that are not manual pages of slidedb-gen).
    #[arg(long)]
    force: bool,
    /// Print nothing but errors.
    #[arg(long)]
    quiet: bool,
    /// Print a completion script for a shell (bash, zsh, fish, powershell
    /// or elvish) and build nothing, for example `slidedb-gen
    /// --completions bash >
    /// ~/.local/share/bash-completion/completions/slidedb-gen`.
    #[arg(long, value_name = "SHELL", exclusive = true)]
    completions: Option<clap_complete::Shell>,
    /// Print the manual page (roff) and build nothing, for example
    /// `slidedb-gen --man > ~/.local/share/man/man1/slidedb-gen.1`; with
    /// DIR (made if missing, but not its parent), write it there as
    /// slidedb-gen.1 and slidedb-gen-merge.1, replacing older pages of
    /// slidedb-gen, and any other file of those names only with --force.
    #[arg(long, value_name = "DIR", num_args = 0..=1, conflicts_with_all = [
        "size", "goal", "out", "data", "threads", "pdb", "memory", "checkpoint_every",
        "no_checkpoints", "workers", "hosts", "process", "peer_timeout", "quiet", "completions",
    ])]
    man: Option<Option<PathBuf>>,
}

/// What `slidedb-gen` does besides building.
#[derive(clap::Subcommand)]
enum Command {
    /// Merge the shards of a distributed build (a directory with a
    /// manifest) into one table file, byte for byte the one a
    /// single-process build writes.
    Merge {
        /// The directory of shards.
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        /// The table file to write.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Replace the output file if it exists.
        #[arg(long)]
        force: bool,
        /// Print nothing but errors.
        #[arg(long)]
        quiet: bool,
    },
}

#[macro_use]
extern crate slidedb_cli;

use slidedb_cli::progress::{BAR, Progress};
use slidedb_cli::units;
use slidedb_cli::{console, manual};

mod cluster;
mod stop;

/// The most worker threads `--threads` takes: far more than any machine
/// this runs on has cores, far fewer than would exhaust its memory.
const MAX_THREADS: usize = 256;

/// `--threads N`, bounded.
fn parse_threads(text: &str) -> Result<usize, String> {
    parse_per_core(text, "threads")
}

/// `--workers N`, bounded as threads are: each worker is a thread.
fn parse_workers(text: &str) -> Result<usize, String> {
    parse_per_core(text, "workers")
}

/// A count of `what` that runs one a core at best: 1 to [`MAX_THREADS`].
fn parse_per_core(text: &str, what: &str) -> Result<usize, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match text.parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "use 1 to {MAX_THREADS} {what} (this machine has {cores} cores)"
        )),
    }
}

/// `--memory SIZE`: a size in bytes ([`slidedb_cli::units`]), at least
/// one.
fn parse_memory(text: &str) -> Result<u64, String> {
    match slidedb_cli::units::parse_bytes(text)? {
        0 => Err(format!("{text:?}: the size must be at least 1 byte")),
        n => Ok(n),
    }
}

fn main() -> ExitCode {
    // Before any other thread starts: a stop removes what a build
    // registered (see `stop`).
    stop::install();
    let args = match console::parse::<Args>("slidedb-gen") {
        Ok(args) => args,
        Err(code) => return code,
    };
    let command = || <Args as clap::CommandFactory>::command();
    let result = match (&args.completions, &args.man) {
        (Some(shell), _) => manual::completions(command(), *shell),
        (None, Some(None)) if args.force => Err(anyhow::anyhow!(
            "--force with --man replaces files in its folder: give the folder, --man DIR"
        )),
        (None, Some(dir)) => manual::man(command(), dir.as_deref(), args.force),
        (None, None) => run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed stdout (`slidedb-gen --man | head`) ends it quietly.
        Err(e) if console::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            say!("slidedb-gen: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Builds what the arguments ask for (or merges shards): picks the goal,
/// then the build (distributed, pattern databases, two-bit to a file, or
/// in memory), checks all it can before the search, and runs it.
fn run(args: &Args) -> Result<()> {
    if let Some(Command::Merge {
        dir,
        out,
        force,
        quiet,
    }) = &args.command
    {
        return cluster::merge(dir, out, *force, *quiet);
    }
    let (goal, canonical) = goals(args)?;
    if args.metric == Metric::Multi {
        anyhow::ensure!(
            args.pdb.is_none() && args.workers.is_none() && args.hosts.is_none(),
            "--metric multi builds a full table on this machine: leave out --pdb, --workers and --hosts"
        );
    }
    if args.workers.is_some() || args.hosts.is_some() {
        return build_distributed(args, &goal);
    }
    let patterns = patterns(args, &goal)?;
    let out = output_path(args, &canonical, patterns.as_ref())?;
    check_output(&out, args.force)?;
    let pool = thread_pool(args.threads)?;
    match patterns {
        Some(spec) if spec.kind() == EntryKind::Plain => {
            return build_patterns(args, &pool, &goal, spec.partition(), &out);
        }
        Some(spec) => {
            anyhow::ensure!(
                args.memory.is_none() && args.checkpoint_every.is_none() && !args.no_checkpoints,
                "blank-aware databases ({}) are built in memory, in one go: leave out --memory, --checkpoint-every and --no-checkpoints",
                spec.label(&canonical)
            );
            return build_patterns_in_memory(args, &pool, &goal, &spec, &out);
        }
        None => {}
    }
    // A build stopped before goes on by the same command, flags or not.
    let stopped = build::work_files(&out).checkpoint.exists();
    let two_bit = goal.shape().cells() > slidedb::MAX_IN_MEMORY_CELLS
        || args.memory.is_some()
        || args.checkpoint_every.is_some()
        || args.no_checkpoints
        || stopped;
    if two_bit {
        return build_to_file(args, &pool, &goal, &out);
    }
    build_in_memory(args, &pool, &goal, &out)
}

/// The goal to build toward, and its class's canonical goal: `--goal` (or
/// the solved board of `--size`), for a file of `--out`; the canonical
/// one for a file of the data folder. Says on stderr (unless quiet) how a
/// goal that is not canonical is served.
fn goals(args: &Args) -> Result<(Board, Board)> {
    let asked = match &args.goal {
        Some(text) => {
            Board::parse(text, args.size).with_context(|| format!("bad goal {text:?}"))?
        }
        None => Board::solved(args.size.unwrap_or(Shape::EIGHT)),
    };
    // One file serves a whole class of goals: it is laid out by, and
    // named after, the class's canonical goal.
    // A file of the data folder serves its whole class, so it is built
    // for the class's own goal; a file of --out records the goal asked for.
    let canonical = asked.canonical_goal();
    let goal = if args.out.is_some() { asked } else { canonical };
    if asked != canonical && !args.quiet {
        say_class(args, &asked, &canonical);
    }
    Ok((goal, canonical))
}

/// Says how goal `asked`, not its class's `canonical` one, is served: by
/// the file of `--out`, or by the class's file in the data folder.
fn say_class(args: &Args, asked: &Board, canonical: &Board) {
    let (what, answers, serves) = if args.pdb.is_some() {
        ("pattern databases", "answer", "serve")
    } else {
        ("table", "answers", "serves")
    };
    if args.out.is_some() {
        say!(
            "slidedb-gen: {} goal {asked}: the {what} {answers} toward it, and {serves} every goal of its class",
            asked.shape()
        );
    } else {
        say!(
            "slidedb-gen: {} goal {asked} is served by the {what} of its class in the data folder, built for goal {canonical} ({}); --out FILE writes a file that answers toward {asked} by default",
            asked.shape(),
            canonical.shape()
        );
    }
}

/// `--workers`, `--hosts`: checks the arguments and the board, and builds
/// the table's shards with the distributed search into `--out DIR`.
fn build_distributed(args: &Args, goal: &Board) -> Result<()> {
    anyhow::ensure!(
        args.pdb.is_none() && args.memory.is_none(),
        "--workers and --hosts build a full table in memory: leave out --pdb and --memory"
    );
    let dir = args
        .out
        .clone()
        .context("--workers and --hosts write a directory of shards: pass --out DIR")?;
    let hosts = hosts(args)?;
    anyhow::ensure!(
        goal.shape().cells() <= slidedb::MAX_TABLE_CELLS,
        "full tables go up to {} cells, and {} has {}: build pattern databases instead, with --pdb",
        slidedb::MAX_TABLE_CELLS,
        goal.shape(),
        goal.shape().cells()
    );
    anyhow::ensure!(
        goal.shape().cells() <= slidedb::MAX_IN_MEMORY_CELLS || hosts.is_some(),
        "{} has {} cells: on one machine, build it with the two-bit search (without --workers)",
        goal.shape(),
        goal.shape().cells()
    );
    cluster::build(cluster::Request {
        goal,
        force: args.force,
        workers: args.workers.unwrap_or(1),
        hosts,
        dir,
        checkpoint_every: match args.no_checkpoints {
            true => None,
            false => Some(args.checkpoint_every.unwrap_or(Duration::from_secs(300))),
        },
        peer_timeout: args.peer_timeout.unwrap_or(Duration::from_secs(60)),
        connect_timeout: args.connect_timeout.unwrap_or(Duration::from_secs(120)),
        quiet: args.quiet,
    })
}

/// `--hosts FILE --process I`: the hosts listed, and this process's line
/// among them; `None` without `--hosts`.
fn hosts(args: &Args) -> Result<Option<(Vec<String>, usize)>> {
    Ok(match (&args.hosts, args.process) {
        (Some(file), Some(process)) => {
            let list = cluster::read_hosts(file)?;
            anyhow::ensure!(
                process < list.len(),
                "--process {process}: {} lists {} hosts, numbered from 0",
                file.display(),
                list.len()
            );
            Some((list, process))
        }
        _ => None,
    })
}

/// `--pdb`'s partition of the tiles and kind of entries; `None` for a
/// full table, which the board must then be small enough for.
fn patterns(args: &Args, goal: &Board) -> Result<Option<PatternSpec>> {
    Ok(match &args.pdb {
        Some(spec) => Some(PatternSpec::parse(goal, spec)?),
        None if goal.shape().cells() > slidedb::MAX_TABLE_CELLS => anyhow::bail!(
            "full tables go up to {} cells, and {} has {}: build pattern databases instead, with --pdb (alone for the default, {}; or other group sizes adding up to the tiles{})",
            slidedb::MAX_TABLE_CELLS,
            goal.shape(),
            goal.shape().cells(),
            Partition::default_for(goal).sizes(),
            if goal.shape().cells() == 16 {
                ", such as 7-8 or 5-5-5"
            } else {
                ""
            }
        ),
        None => None,
    })
}

/// The file to write: `--out`, or in the data folder (created if missing,
/// and said so) the file named by the class's `canonical` goal and the
/// pattern databases' name.
fn output_path(args: &Args, canonical: &Board, patterns: Option<&PatternSpec>) -> Result<PathBuf> {
    if let Some(out) = &args.out {
        return Ok(out.clone());
    }
    let dir = match &args.data {
        Some(dir) => dir.clone(),
        None => default_data_dir()
            .context("no data folder: set SLIDEDB_DATA, or pass --data DIR or --out PATH")?,
    };
    // The data folder may be created on first use, and says where.
    let created = slidedb::output::create_data_dir(&dir)
        .with_context(|| format!("cannot create the data folder {}", dir.display()))?;
    if created && !args.quiet {
        say!("slidedb-gen: created the data folder {}", dir.display());
    }
    // Without --out, the goal built toward is the canonical one.
    Ok(dir.join(match patterns {
        Some(spec) => pattern_file_name(canonical, &spec.label(canonical)),
        None => table_file_name(canonical, args.metric),
    }))
}

/// Everything about `out` that can be checked before the search: that it
/// may be replaced (`--force` replaces a regular file and nothing else),
/// and that its folder is writable.
fn check_output(out: &Path, force: bool) -> Result<()> {
    if let Err(e) = slidedb::output::check_target(out, force) {
        match e.kind() {
            std::io::ErrorKind::AlreadyExists => {
                anyhow::bail!("{} exists: pass --force to replace it", out.display())
            }
            _ => return Err(e.into()),
        }
    }
    // A read-only or forbidden folder fails now, not after the search.
    slidedb::output::check_writable(out)
        .with_context(|| format!("cannot write {}", out.display()))?;
    Ok(())
}

/// The worker threads: `--threads`, else one per core.
fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        anyhow::ensure!(n > 0, "--threads must be at least 1");
        pool = pool.num_threads(n);
    }
    pool.build().context("cannot start the worker threads")
}

/// Builds the table in memory by the reverse BFS and writes it to `out`:
/// one line per depth.
fn build_in_memory(args: &Args, pool: &rayon::ThreadPool, goal: &Board, out: &Path) -> Result<()> {
    // A full disk is found now, not after the search.
    build::check_disk_for_table(goal, out)
        .with_context(|| format!("cannot write {}", out.display()))?;
    let start = Instant::now();
    if !args.quiet {
        say!(
            "slidedb-gen: {} goal {} ({} states) on {} threads",
            goal.shape(),
            goal,
            goal.shape().states(),
            pool.current_num_threads()
        );
    }
    let quiet = args.quiet;
    let states = u64::try_from(goal.shape().states()).unwrap_or(u64::MAX);
    let progress = steps(quiet, states, "states, depth");
    let table = pool.install(|| {
        generate_in(goal, args.metric, |layer| {
            if quiet {
                return;
            }
            let line = format!(
                "depth {:>3}: {:>12} states {:>12} total {:>9.3} ms",
                layer.depth,
                layer.states,
                layer.total,
                layer.elapsed.as_secs_f64() * 1e3
            );
            progress.report(line, layer.total, layer.depth.to_string());
        })
    });
    progress.finish();
    let table = table?;
    let searched = start.elapsed();
    write_atomic(out, table.as_bytes(), args.force)
        .with_context(|| format!("cannot write {}", out.display()))?;
    if !args.quiet {
        say!(
            "slidedb-gen: {} states, max distance {}, search {:.3} ms, total {:.3} ms; wrote {} ({} bytes)",
            table.states(),
            table.max_distance(),
            searched.as_secs_f64() * 1e3,
            start.elapsed().as_secs_f64() * 1e3,
            out.display(),
            table.as_bytes().len()
        );
    }
    Ok(())
}

/// Builds the table by the two-bit search straight to `out`, resumably.
fn build_to_file(args: &Args, pool: &rayon::ThreadPool, goal: &Board, out: &Path) -> Result<()> {
    let start = Instant::now();
    let options = BuildOptions::default()
        .with_metric(args.metric)
        .with_memory(args.memory)
        .with_checkpoint_every(if args.no_checkpoints {
            None
        } else {
            Some(
                args.checkpoint_every
                    .unwrap_or(std::time::Duration::from_secs(300)),
            )
        });
    let quiet = args.quiet;
    let states = u64::try_from(goal.shape().states()).unwrap_or(u64::MAX);
    let progress = Progress::bar(
        quiet,
        states,
        &format!(
            "{BAR} {{human_pos}}/{{human_len}} states {{per_sec}} {{msg}} [{{elapsed}}, {{eta}} left]"
        ),
    );
    let view = FileBuildView {
        progress: &progress,
        goal,
        states,
        threads: pool.current_num_threads(),
        start,
    };
    // A stop at any moment leaves at most the last checkpoint.
    let files = build::work_files(out);
    let _stop = stop::on_stop(move || files.remove_scratch_before_exit());
    let report = pool.install(|| {
        build_file(goal, out, &options, |event| {
            if !quiet {
                view.show(event);
            }
        })
    });
    progress.finish();
    let report = report.with_context(|| format!("cannot build {}", out.display()))?;
    if !args.quiet {
        say!(
            "slidedb-gen: {} states, max distance {}, total {:.1} s{}; wrote {} ({} bytes)",
            report.layers.iter().sum::<u64>(),
            report.layers.len() - 1,
            start.elapsed().as_secs_f64(),
            match report.resumed_from {
                Some(d) => format!(" (this run, from the checkpoint of layer {d})"),
                None => String::new(),
            },
            out.display(),
            report.bytes
        );
    }
    Ok(())
}

/// What a two-bit build shows as it goes ([`build_to_file`]).
struct FileBuildView<'a> {
    progress: &'a Progress,
    goal: &'a Board,
    /// The boards of the goal's size.
    states: u64,
    threads: usize,
    /// When the build started.
    start: Instant,
}

impl FileBuildView<'_> {
    /// Shows one event of the build: its plan, a checkpoint read or
    /// written, a layer done, the table being written.
    fn show(&self, event: BuildEvent) {
        let progress = self.progress;
        match event {
            BuildEvent::Planned(plan) => {
                let limit = match plan.memory_limit {
                    Some((limit, what)) => format!(" (within {what}, {})", units::bytes(limit)),
                    None => String::new(),
                };
                let free = match plan.disk_free {
                    Some(free) => format!(", {} free", units::bytes(free)),
                    None => String::new(),
                };
                let memory = resident(plan.memory, plan.distances, plan.frontier, plan.segment);
                progress.say(format!(
                    "slidedb-gen: {} goal {} ({} states) on {} threads, two-bit search: {memory}{limit}; disk {} at the peak, {} more now{free}; the table {}",
                    self.goal.shape(),
                    self.goal,
                    self.states,
                    self.threads,
                    units::bytes(plan.disk_peak),
                    units::bytes(plan.disk_needed),
                    units::bytes(plan.file_len),
                ));
                if let Some(depth) = plan.resume_from {
                    progress.say(format!(
                        "slidedb-gen: going on from the checkpoint of layer {depth}: {}",
                        plan.checkpoint.display()
                    ));
                }
            }
            BuildEvent::Resumed { depth, total, took } => {
                progress.say(format!(
                    "slidedb-gen: read the checkpoint of layer {depth} ({total} states) in {:.1} s",
                    took.as_secs_f64()
                ));
                progress.restart_at(total);
            }
            BuildEvent::Layer(layer) => {
                let line = format!(
                    "depth {:>3}: {:>12} states {:>12} total {:>9.3} s",
                    layer.depth,
                    layer.states,
                    layer.total,
                    layer.elapsed.as_secs_f64()
                );
                progress.report(line, layer.total, format!("depth {}", layer.depth));
            }
            BuildEvent::Checkpointed { depth, bytes, took } => progress.say(format!(
                "slidedb-gen: checkpoint of layer {depth}: {} in {:.1} s",
                units::bytes(bytes),
                took.as_secs_f64()
            )),
            BuildEvent::Writing { bytes } => progress.say(format!(
                "slidedb-gen: searched in {:.1} s; writing the table ({})",
                self.start.elapsed().as_secs_f64(),
                units::bytes(bytes)
            )),
            _ => {}
        }
    }
}

/// The memory a two-bit build's plan takes, in words: `memory` bytes in
/// all, of `distances` and `frontier`, resident or (with a `segment`)
/// segment by segment.
fn resident(memory: u64, distances: u64, frontier: u64, segment: Option<u64>) -> String {
    match segment {
        None => format!(
            "memory {} ({} distances + {} frontier, resident)",
            units::bytes(memory),
            units::bytes(distances),
            units::bytes(frontier)
        ),
        Some(segment) => format!(
            "memory {} (segments of {segment} boards; the {} of distances and {} of frontier wait in work files beside the table)",
            units::bytes(memory),
            units::bytes(distances),
            units::bytes(frontier)
        ),
    }
}

/// Builds the pattern databases of `partition` toward `goal` into `out`,
/// one group at a time (each group's work file kept beside `out` until
/// the end, so a stopped build goes on by the same command): one line per
/// depth of each group.
fn build_patterns(
    args: &Args,
    pool: &rayon::ThreadPool,
    goal: &Board,
    partition: &Partition,
    out: &Path,
) -> Result<()> {
    let entries = partition.placements();
    let start = Instant::now();
    if !args.quiet {
        say_groups(goal, partition, &entries, pool.current_num_threads());
    }
    let quiet = args.quiet;
    let progress = steps(quiet, entries.iter().sum(), "placements,");
    let mut group_start = Instant::now();
    let mut done = 0u64;
    let options = BuildOptions::default().with_memory(args.memory);
    let scratch = (out.to_path_buf(), partition.groups().len());
    let _stop = stop::on_stop(move || {
        let mut removed = Vec::new();
        for file in build::pattern_scratch_files(&scratch.0, scratch.1) {
            if std::fs::remove_file(&file).is_ok() {
                removed.push(file);
            }
        }
        removed
    });
    let report = pool.install(|| {
        build::build_patterns_file(goal, partition, out, &options, |event| match event {
            PatternEvent::Planned(plan) if !quiet => say!(
                "slidedb-gen: at most {} of memory (one group's search); {} to write",
                units::bytes(plan.memory),
                units::bytes(plan.bytes)
            ),
            PatternEvent::Kept { group } => {
                done += entries[group];
                group_start = Instant::now();
                progress.set(done, format!("group {} kept", group + 1));
                progress.say(format!(
                    "group {}: kept from a stopped build ({})",
                    group + 1,
                    build::group_file(out, group).display()
                ));
            }
            PatternEvent::Discarded { group, why } => progress.say(format!(
                "group {}: the work file of a stopped build is not usable ({why}): building it again",
                group + 1
            )),
            PatternEvent::Mirrored { group, of } => {
                group_start = Instant::now();
                done += entries[group];
                progress.set(done, format!("group {} mirrored", group + 1));
                progress.say(format!(
                    "group {}: the mirror image of group {}: its entries read through the symmetry",
                    group + 1,
                    of + 1
                ));
            }
            PatternEvent::Depth(p) => {
                if p.depth == 0 {
                    group_start = Instant::now();
                }
                // A depth can reach new states of the group but no new
                // placement: nothing to show.
                if quiet || p.placements == 0 {
                    return;
                }
                done += p.placements;
                let line = format!(
                    "group {} depth {:>3}: {:>11} placements {:>9.3} s",
                    p.group + 1,
                    p.depth,
                    p.placements,
                    group_start.elapsed().as_secs_f64()
                );
                let message = format!("group {} depth {}", p.group + 1, p.depth);
                progress.report(line, done, message);
            }
            PatternEvent::Saved { group, largest, took } => {
                progress.say(format!(
                    "group {}: largest entry {largest}, {:.3} s; saved to {}",
                    group + 1,
                    took.as_secs_f64(),
                    build::group_file(out, group).display()
                ));
            }
            PatternEvent::Writing { bytes } => progress.say(format!(
                "writing {} ({})",
                out.display(),
                units::bytes(bytes)
            )),
            _ => {}
        })
    });
    progress.finish();
    let report = report.with_context(|| format!("cannot build {}", out.display()))?;
    if !args.quiet {
        let maxima: Vec<String> = report
            .layers
            .iter()
            .map(|l| (l.len() - 1).to_string())
            .collect();
        say!(
            "slidedb-gen: largest entries {}, total {:.3} s; wrote {} ({} bytes)",
            maxima.join(", "),
            start.elapsed().as_secs_f64(),
            out.display(),
            report.bytes
        );
    }
    Ok(())
}

/// Builds the pattern databases of `spec` toward `goal` in memory, one
/// group after another, and writes them to `out`: one line per depth of
/// each group. Unlike [`build_patterns`], a stopped build starts again.
fn build_patterns_in_memory(
    args: &Args,
    pool: &rayon::ThreadPool,
    goal: &Board,
    spec: &PatternSpec,
    out: &Path,
) -> Result<()> {
    // A full disk is found now, not after the build.
    build::check_disk_for_patterns(spec, out)
        .with_context(|| format!("cannot write {}", out.display()))?;
    let partition = spec.partition();
    let entries = partition.placements();
    let start = Instant::now();
    let quiet = args.quiet;
    if !quiet {
        say_groups(goal, partition, &entries, pool.current_num_threads());
        say!(
            "slidedb-gen: blank-aware entries ({}), built in memory: {} to write",
            spec.label(goal),
            units::bytes(spec.entry_bytes())
        );
    }
    let progress = steps(quiet, entries.iter().sum(), "placements,");
    let mut group_start = Instant::now();
    let mut done = 0u64;
    let built = pool.install(|| {
        spec.build(goal, |p| {
            if p.depth == 0 {
                group_start = Instant::now();
            }
            if quiet || p.placements == 0 {
                return;
            }
            done += p.placements;
            let line = format!(
                "group {} depth {:>3}: {:>11} placements {:>9.3} s",
                p.group + 1,
                p.depth,
                p.placements,
                group_start.elapsed().as_secs_f64()
            );
            progress.report(
                line,
                done,
                format!("group {} depth {}", p.group + 1, p.depth),
            );
        })
    });
    progress.finish();
    let built = built.with_context(|| format!("cannot build {}", out.display()))?;
    let bytes = built.as_bytes();
    slidedb::write_atomic(out, bytes, args.force)
        .with_context(|| format!("cannot write {}", out.display()))?;
    if !args.quiet {
        say!(
            "slidedb-gen: total {:.3} s; wrote {} ({} bytes)",
            start.elapsed().as_secs_f64(),
            out.display(),
            bytes.len()
        );
    }
    Ok(())
}

/// Says what a pattern-database build will search: the partition, its
/// entries in all, and each group's tiles and placements (`entries`).
fn say_groups(goal: &Board, partition: &Partition, entries: &[u64], threads: usize) {
    say!(
        "slidedb-gen: {} goal {}: pattern databases {} ({} entries) on {} threads",
        goal.shape(),
        goal,
        partition.sizes(),
        entries.iter().sum::<u64>(),
        threads
    );
    if goal.shape().cells() == 16 && goal.canonical_goal().blank() != 15 {
        say!(
            "slidedb-gen: the published partitions are for corner goals; for this goal the groups are its tiles in reading order"
        );
    }
    for (i, (g, e)) in partition.groups().iter().zip(entries).enumerate() {
        let tiles: Vec<String> = g.iter().map(u8::to_string).collect();
        say!(
            "group {}: tiles {} ({e} placements)",
            i + 1,
            tiles.join(" ")
        );
    }
}

/// Progress over `len` steps counted in `unit`: a bar on a terminal, the
/// callers' lines elsewhere.
fn steps(quiet: bool, len: u64, unit: &str) -> Progress {
    Progress::bar(
        quiet,
        len,
        &format!("{BAR} {{pos}}/{{len}} {unit} {{msg}} [{{elapsed}}]"),
    )
}
