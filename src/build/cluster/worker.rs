//! One worker's search (see the [module docs](super)), and the run of
//! a process's workers under timely.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use std::rc::Rc;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use timely::WorkerConfig;
use timely::communication::allocator::AllocatorBuilder;
use timely::dataflow::channels::pact::Exchange as ExchangePact;
use timely::dataflow::operators::vec::{Broadcast, Input};
use timely::dataflow::operators::{Inspect, Operator, Probe};

use timely::dataflow::{InputHandleVec, ProbeHandle};
use timely::worker::Worker;

use crate::bfs::MAX_HARDEST;
use crate::bfs::moves::{IndexMoves, Odometer};
use crate::board::Board;
use crate::goals::Goals;
use crate::rank::{Index, Indexer};
use crate::symmetry::GoalClass;
use crate::table::shards::PartMetadata;

use super::checkpoint::{Saved, WorkerCheckpoint, checkpoint_name, write_checkpoint};
use super::owned::Owned;
use super::stop::{Cause, Stop};
use super::{
    Checkpoints, ClusterEvent, ClusterLayer, Distributed, DistributedError, Part, ShardSum,
    owned_ranges,
};

/// What the workers of a process share.
pub(super) struct Setup {
    pub(super) run: u64,
    /// This process.
    pub(super) process: usize,
    /// Workers a process.
    pub(super) workers: usize,
    pub(super) goals: Goals,
    pub(super) checkpoints: Option<Checkpoints>,
    /// Bytes this process sent and received over the network so far.
    pub(super) bytes: (Arc<AtomicU64>, Arc<AtomicU64>),
    /// Each of its workers' checkpoint to go on from (its slot and
    /// state), taken by the worker.
    pub(super) saved: Mutex<Vec<Option<(usize, Saved)>>>,
    /// The search's stop, if it stops early.
    pub(super) stop: Arc<Stop>,
}

/// Runs the search on the workers `builders` make; the shared part of the
/// one-process and the cluster runs.
pub(super) fn run_workers(
    goal: &Board,
    builders: Vec<AllocatorBuilder>,
    others: Box<dyn std::any::Any + Send>,
    setup: Setup,
    on_event: impl Fn(&ClusterEvent) + Send + Sync + 'static,
) -> Result<Distributed, DistributedError> {
    let class = GoalClass::of(goal);
    let canonical = *class.canonical();
    let on_event = Arc::new(on_event);
    let run = setup.run;
    let bytes = setup.bytes.clone();
    let setup = Arc::new(setup);
    let stop = Arc::clone(&setup.stop);
    let first_worker = setup.process * setup.workers;
    let guards =
        timely::execute::execute_from(builders, others, WorkerConfig::default(), move |worker| {
            let index = worker.index();
            let local = index % setup.workers;
            let saved = setup.saved.lock().ok().and_then(|mut s| s[local].take());
            let worked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                work(worker, &canonical, &setup, saved, &*on_event)
            }));
            worked.unwrap_or_else(|payload| {
                // The panic has been reported (by the panic hook); the
                // other workers, here and in the other processes, stop.
                let message = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "no message".into());
                setup.stop.stop(Cause::Panicked {
                    worker: index,
                    message,
                });
                leave(worker);
                Err(Stopped)
            })
        })
        .map_err(DistributedError::Start)?;
    // A thread of timely's that panics anyway is a bug; its panic has been
    // reported, and the search stops with an error rather than an abort.
    let lost = |message: &str| DistributedError::WorkerPanicked {
        worker: first_worker,
        message: message.into(),
    };
    let results = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| guards.join()))
        .map_err(|_| lost("a communication thread of timely panicked"))?;
    let mut finished = Vec::new();
    for result in results {
        match result {
            Ok(Ok(done)) => finished.push(done),
            Ok(Err(Stopped)) => return Err(stop.error().unwrap_or_else(|| lost("it stopped"))),
            Err(why) => return Err(stop.error().unwrap_or_else(|| lost(&why))),
        }
    }
    let first = finished.first().ok_or(DistributedError::NoWorkers)?;
    let (layers, moves, sent) = (first.layers.clone(), first.moves, first.sent);
    let (hardest, shards) = (first.hardest.clone(), first.shards.clone());
    Ok(Distributed {
        layers,
        moves,
        sent,
        hardest,
        shards,
        run,
        resumed: None,
        bytes_sent: bytes.0.load(Relaxed),
        bytes_received: bytes.1.load(Relaxed),
        parts: finished.into_iter().map(|f| f.part).collect(),
    })
}

/// What a worker returns.
struct Finished {
    layers: Vec<u64>,
    moves: u64,
    sent: u64,
    hardest: Vec<Index>,
    shards: Vec<ShardSum>,
    part: Part,
}

/// The global figures of one epoch, summed over the workers' reports.
#[derive(Clone, Copy, Default, serde::Serialize, serde::Deserialize)]
struct Totals {
    states: u64,
    moves: u64,
    sent: u64,
    /// Worker 0 asks for a checkpoint at the start of the next layer.
    checkpoint: u64,
}

/// Moves a worker sends between two steps of the dataflow.
const STEP_EVERY: u64 = 1 << 18;

/// Where a worker's loop stands at the start of a layer: what a
/// checkpoint holds besides the boards.
struct Standing {
    /// The layer to expand.
    epoch: u64,
    /// The counts of the layers before it.
    layers: Vec<u64>,
    /// Moves and moves sent, of the expansions every worker has counted.
    moves: u64,
    sent: u64,
    /// This worker's boards of layer `epoch`.
    count: u64,
    /// This worker's figures of the expansion of the layer before.
    last: Totals,
    /// Its first boards of the layer before.
    hardest: Vec<Index>,
}

/// The inputs a worker feeds its dataflow, stamped with their epoch (a
/// layer).
struct Inputs {
    /// The moves it sends to other workers' boards.
    targets: InputHandleVec<u64, u64>,
    /// Its figures of each epoch, for every worker.
    reports: InputHandleVec<u64, (u64, Totals)>,
    /// Its summary at the end, for every worker.
    summaries: InputHandleVec<u64, Summary>,
}

/// What a worker's dataflow delivers to it, and how far it has come.
struct Outputs {
    probe: ProbeHandle<u64>,
    /// The moves other workers sent to this one's boards, by the epoch
    /// they were sent in.
    arrived: Rc<RefCell<HashMap<u64, Vec<u64>>>>,
    /// Every worker's figures, summed by epoch.
    totals: Rc<RefCell<HashMap<u64, Totals>>>,
    /// Every worker's summary.
    summarised: Rc<RefCell<Vec<Summary>>>,
}

impl Outputs {
    /// Claims what has arrived so far, each move as a board of the layer
    /// after the one it was sent from.
    fn drain(&self, own: &mut Owned, claimed: &mut HashMap<u64, u64>) {
        // Drained, the batches go back to the system.
        for (epoch, moves) in self.arrived.borrow_mut().drain() {
            *claimed.entry(epoch).or_default() += own.claim_all(epoch as u32 + 1, &moves);
        }
    }
}

/// Builds a worker's dataflow: the moves exchanged to the worker `route`
/// names, the figures and the summaries broadcast to every worker.
fn dataflow(worker: &mut Worker, route: impl FnMut(&u64) -> u64 + 'static) -> (Inputs, Outputs) {
    let mut targets = InputHandleVec::<u64, u64>::new();
    let mut reports = InputHandleVec::<u64, (u64, Totals)>::new();
    let mut summaries = InputHandleVec::<u64, Summary>::new();
    let probe = ProbeHandle::<u64>::new();
    let arrived: Rc<RefCell<HashMap<u64, Vec<u64>>>> = Rc::default();
    let totals: Rc<RefCell<HashMap<u64, Totals>>> = Rc::default();
    let summarised: Rc<RefCell<Vec<Summary>>> = Rc::default();
    worker.dataflow::<u64, _, _>(|scope| {
        let arrived = Rc::clone(&arrived);
        scope
            .input_from(&mut targets)
            .unary::<timely::container::CapacityContainerBuilder<Vec<()>>, _, _, _>(
                ExchangePact::new(route),
                "Arrive",
                |_capability, _info| {
                    move |input, _output| {
                        input.for_each_stamp(|time, batches| {
                            let mut arrived = arrived.borrow_mut();
                            let epoch = *time.least().expect("a stamp has a time");
                            let into = arrived.entry(epoch).or_default();
                            for batch in batches {
                                into.append(batch);
                            }
                        });
                    }
                },
            )
            .probe_with(&probe);
        let totals = Rc::clone(&totals);
        scope
            .input_from(&mut reports)
            .broadcast()
            .inspect(move |&(epoch, report): &(u64, Totals)| {
                let mut totals = totals.borrow_mut();
                let sum = totals.entry(epoch).or_default();
                sum.states += report.states;
                sum.moves += report.moves;
                sum.sent += report.sent;
                sum.checkpoint += report.checkpoint;
            })
            .probe_with(&probe);
        let summarised = Rc::clone(&summarised);
        scope
            .input_from(&mut summaries)
            .broadcast()
            .inspect(move |summary: &Summary| summarised.borrow_mut().push(summary.clone()))
            .probe_with(&probe);
    });
    let inputs = Inputs {
        targets,
        reports,
        summaries,
    };
    let outputs = Outputs {
        probe,
        arrived,
        totals,
        summarised,
    };
    (inputs, outputs)
}

/// Where a worker starts: its boards, where its loop stands, the boards
/// it claimed early from received moves (by the epoch they were sent in)
/// and the slot its next checkpoint goes into (the older one) — from its
/// checkpoint `saved`, or else from the goal.
fn start<'s, 'a>(
    search: &'s IndexMoves<'a>,
    indexer: &'a Indexer,
    goal: &Board,
    range: &Range<u64>,
    saved: Option<(usize, Saved)>,
) -> (Owned<'s, 'a>, Standing, HashMap<u64, u64>, usize) {
    // Boards claimed from received moves, by the epoch they were sent in.
    let mut claimed: HashMap<u64, u64> = HashMap::new();
    // Which slot the next checkpoint goes into: the older one.
    let mut next_slot = 0;
    let (own, at) = match saved {
        Some((slot, saved)) => {
            let m = saved.metadata;
            next_slot = 1 - slot;
            claimed.insert(m.depth as u64, m.early);
            let own = Owned::restore(
                search,
                indexer,
                goal,
                range.clone(),
                saved.residues,
                saved.frontier,
            );
            let at = Standing {
                epoch: m.depth as u64,
                layers: m.layers,
                moves: m.moves,
                sent: m.sent,
                count: m.count,
                last: Totals {
                    moves: m.last_moves,
                    sent: m.last_sent,
                    ..Totals::default()
                },
                hardest: m.hardest.into_iter().map(Index).collect(),
            };
            (own, at)
        }
        None => {
            let mut own = Owned::new(search, indexer, goal, range.clone());
            let count = own.root_count();
            let at = Standing {
                epoch: 0,
                layers: Vec::new(),
                moves: 0,
                sent: 0,
                count,
                last: Totals::default(),
                hardest: Vec::new(),
            };
            (own, at)
        }
    };
    (own, at, claimed, next_slot)
}

impl Standing {
    /// The metadata of the checkpoint of the worker of `part` at the start
    /// of layer `epoch`, with `early` boards of the next layer claimed.
    fn checkpoint(&self, part: PartMetadata, early: u64) -> WorkerCheckpoint {
        WorkerCheckpoint {
            part,
            depth: self.epoch as u32,
            layers: self.layers.clone(),
            moves: self.moves,
            sent: self.sent,
            count: self.count,
            last_moves: self.last.moves,
            last_sent: self.last.sent,
            early,
            hardest: self.hardest.iter().map(|i| i.0).collect(),
        }
    }
}

/// Writes a worker's checkpoint into slot `slot` of `dir`, and says how
/// it went; whether it was written (the next one then goes into the other
/// slot).
fn save(
    dir: &Path,
    slot: usize,
    metadata: &WorkerCheckpoint,
    own: &Owned,
    on_event: &dyn Fn(&ClusterEvent),
) -> bool {
    let written = Instant::now();
    let (me, peers, depth) = (
        metadata.part.worker as usize,
        metadata.part.workers as usize,
        metadata.depth,
    );
    let path = dir.join(checkpoint_name(me, peers, slot));
    match write_checkpoint(&path, metadata, &own.residues, &own.frontier) {
        Ok(bytes) => {
            on_event(&ClusterEvent::Checkpointed {
                worker: me,
                depth,
                bytes,
                seconds: written.elapsed().as_secs_f64(),
            });
            true
        }
        // The older slot is as it was, and the newer one whole:
        // the next checkpoint tries the same slot again.
        Err(e) => {
            on_event(&ClusterEvent::CheckpointFailed {
                worker: me,
                depth,
                why: e.to_string(),
            });
            false
        }
    }
}

/// One worker's search (see the [module docs](super)): its dataflow built
/// once ([`dataflow`]), then driven layer by layer ([`Driver`]) until a
/// layer is empty, and one more epoch for every worker's summary.
fn work(
    worker: &mut Worker,
    goal: &Board,
    setup: &Setup,
    saved: Option<(usize, Saved)>,
    on_event: &dyn Fn(&ClusterEvent),
) -> Result<Finished, Stopped> {
    let started = Instant::now();
    let me = worker.index();
    let peers = worker.peers();
    let indexer = Indexer::new(goal);
    let per_blank = indexer.per_blank();
    let ranges = owned_ranges(per_blank, peers);
    let range = ranges[me].clone();
    let search = IndexMoves::new(&indexer, false);

    // The dataflow's shape, built once.
    let owners: Vec<u64> = ranges.iter().map(|r| r.end).collect();
    let route = move |index: &u64| owners.partition_point(|&end| end <= index % per_blank) as u64;
    let (inputs, outputs) = dataflow(worker, route);
    let flow = Flow {
        worker,
        inputs,
        outputs,
        stop: &setup.stop,
    };

    // The loop that drives it.
    let (own, at, claimed, next_slot) = start(&search, &indexer, goal, &range, saved);
    let mut driver = Driver {
        flow,
        setup,
        on_event,
        me,
        peers,
        range,
        own,
        at,
        claimed,
        next_slot,
        odometer: Odometer::new(&search),
        checkpoint_due: false,
        last_checkpoint: Instant::now(),
        started,
    };
    driver.flow.advance_to(driver.at.epoch);
    // Once the search has stopped (another process lost, or a worker
    // panicked), the worker leaves the dataflow and returns.
    match driver.layers() {
        Ok(()) => driver.summarise(&ranges),
        Err(Stopped) => Err(driver.flow.leave()),
    }
}

/// A worker's side of the dataflow [`dataflow`] built: the worker that
/// steps it, the inputs it feeds and the outputs it reads.
struct Flow<'w> {
    worker: &'w mut Worker,
    inputs: Inputs,
    outputs: Outputs,
    /// The search's stop, looked at whenever the dataflow has stepped.
    stop: &'w Stop,
}

impl Flow<'_> {
    /// Closes every epoch before `epoch` on all the inputs.
    fn advance_to(&mut self, epoch: u64) {
        self.inputs.targets.advance_to(epoch);
        self.inputs.reports.advance_to(epoch);
        self.inputs.summaries.advance_to(epoch);
    }

    /// Steps the dataflow once, then hands its outputs to `arrived`.
    fn step(&mut self, arrived: impl FnOnce(&Outputs)) -> Result<(), Stopped> {
        self.worker.step();
        arrived(&self.outputs);
        self.unless_stopped()
    }

    /// Steps the dataflow until every worker has closed the epochs
    /// before `end`, handing its outputs to `arrived` after each step.
    fn wait_for(&mut self, end: u64, mut arrived: impl FnMut(&Outputs)) -> Result<(), Stopped> {
        while self.outputs.probe.less_than(&end) {
            self.worker.step_or_park(Some(LOOK_EVERY));
            arrived(&self.outputs);
            self.unless_stopped()?;
        }
        Ok(())
    }

    /// `Err(Stopped)` once the search has stopped.
    fn unless_stopped(&self) -> Result<(), Stopped> {
        if self.stop.is_stopped() {
            return Err(Stopped);
        }
        Ok(())
    }

    /// Drops the inputs and leaves the dataflow.
    fn leave(self) -> Stopped {
        drop(self.inputs);
        leave(self.worker);
        Stopped
    }
}

/// A worker's loop over the layers: it feeds the dataflow its moves and
/// figures, claims what arrives, and keeps where it stands.
struct Driver<'w, 's, 'a> {
    flow: Flow<'w>,
    setup: &'w Setup,
    on_event: &'w dyn Fn(&ClusterEvent),
    /// This worker, of `peers` in the cluster.
    me: usize,
    peers: usize,
    /// The tile orders it owns.
    range: Range<u64>,
    own: Owned<'s, 'a>,
    at: Standing,
    /// Boards claimed from received moves, by the epoch they were sent in.
    claimed: HashMap<u64, u64>,
    /// The slot the next checkpoint goes into: the older one.
    next_slot: usize,
    odometer: Odometer<'s, 'a>,
    /// Whether every worker saw the request for a checkpoint at the start
    /// of this layer.
    checkpoint_due: bool,
    last_checkpoint: Instant,
    started: Instant,
}

impl Driver<'_, '_, '_> {
    /// Expands layer after layer, one epoch each, until one is empty.
    fn layers(&mut self) -> Result<(), Stopped> {
        loop {
            let epoch = self.at.epoch;
            self.setup.stop.reached(epoch);
            self.checkpoint_if_due();
            self.report();
            let layer_hardest = self.own.first_boards(epoch as u32);
            let (here, claimed_here) = self.expand()?;
            self.flow.advance_to(epoch + 1);
            let (own, claimed) = (&mut self.own, &mut self.claimed);
            self.flow
                .wait_for(epoch + 1, |outputs| outputs.drain(own, claimed))?;
            if !self.close(here, claimed_here, layer_hardest) {
                return Ok(());
            }
        }
    }

    /// Writes this worker's checkpoint at the start of the layer, if
    /// every worker saw the request for one.
    fn checkpoint_if_due(&mut self) {
        let setup = self.setup;
        if self.checkpoint_due
            && let Some(checkpoints) = &setup.checkpoints
        {
            let early = self.claimed.get(&self.at.epoch).copied().unwrap_or(0);
            let part = PartMetadata::new(
                setup.goals.clone(),
                setup.run,
                self.peers,
                self.me,
                self.range.clone(),
            );
            let metadata = self.at.checkpoint(part, early);
            if save(
                &checkpoints.dir,
                self.next_slot,
                &metadata,
                &self.own,
                self.on_event,
            ) {
                self.next_slot = 1 - self.next_slot;
            }
            self.last_checkpoint = Instant::now();
        }
    }

    /// Sends every worker this worker's figures: its boards of the layer,
    /// the moves of its expansion of the one before, and (worker 0)
    /// whether to checkpoint at the start of the next.
    fn report(&mut self) {
        let ask = self.me == 0
            && self
                .setup
                .checkpoints
                .as_ref()
                .is_some_and(|c| self.last_checkpoint.elapsed() >= c.every);
        self.flow.inputs.reports.send((
            self.at.epoch,
            Totals {
                states: self.at.count,
                checkpoint: ask as u64,
                ..self.at.last
            },
        ));
    }

    /// Expands this worker's part of the layer, sending the moves that
    /// land on other workers' boards and letting them flow now and then:
    /// its figures, and the boards it claimed itself.
    fn expand(&mut self) -> Result<(Totals, u64), Stopped> {
        let depth = self.at.epoch as u32;
        let mut here = Totals::default();
        let mut claimed_here = 0;
        let mut step_at = STEP_EVERY;
        let mut blocks = 0u64;
        for cell in self.own.layer_cells(depth) {
            for block in (0..self.own.words).step_by(BLOCK_WORDS) {
                blocks += 1;
                let words = block..(block + BLOCK_WORDS).min(self.own.words);
                let targets = &mut self.flow.inputs.targets;
                let found = self
                    .own
                    .expand(depth, cell, words, &mut self.odometer, |index| {
                        targets.send(index);
                        here.sent += 1;
                    });
                here.moves += found.moves;
                claimed_here += found.claimed;
                // Let the moves flow now and then, and claim what came:
                // after so many sent, or so many blocks, whichever first.
                if here.sent >= step_at || blocks.is_multiple_of(STEP_BLOCKS) {
                    step_at = here.sent + STEP_EVERY;
                    let (own, claimed) = (&mut self.own, &mut self.claimed);
                    self.flow.step(|outputs| outputs.drain(own, claimed))?;
                }
            }
        }
        Ok((here, claimed_here))
    }

    /// Closes the layer every worker has closed: adds up its figures,
    /// tells of it, and stands at the next, of this worker's `here` and
    /// `claimed_here` and `layer_hardest`; whether there is a next (no
    /// once a layer is empty).
    fn close(&mut self, here: Totals, claimed_here: u64, layer_hardest: Vec<Index>) -> bool {
        let epoch = self.at.epoch;
        let sum = self
            .flow
            .outputs
            .totals
            .borrow_mut()
            .remove(&epoch)
            .unwrap_or_default();
        if epoch > 0 {
            self.at.moves += sum.moves;
            self.at.sent += sum.sent;
        }
        if sum.states == 0 {
            return false;
        }
        self.at.layers.push(sum.states);
        self.at.hardest = layer_hardest;
        self.checkpoint_due = sum.checkpoint > 0;
        // Each process's first worker tells of it.
        if self.me.is_multiple_of(self.setup.workers) {
            (self.on_event)(&ClusterEvent::Layer(ClusterLayer {
                depth: epoch as u32,
                states: sum.states,
                moves: sum.moves,
                sent: sum.sent,
                seconds: self.started.elapsed().as_secs_f64(),
                bytes_sent: self.setup.bytes.0.load(Relaxed),
                bytes_received: self.setup.bytes.1.load(Relaxed),
            }));
        }
        self.at.count = claimed_here + self.claimed.remove(&epoch).unwrap_or(0);
        self.at.last = here;
        self.at.epoch += 1;
        true
    }

    /// One more epoch: every worker learns every part's length, checksum
    /// and hardest boards (for the manifest); then this worker leaves the
    /// dataflow with what it returns, of the cluster's `ranges`.
    fn summarise(self, ranges: &[Range<u64>]) -> Result<Finished, Stopped> {
        let Driver {
            mut flow,
            own,
            mut at,
            me,
            range,
            ..
        } = self;
        let epoch = at.epoch;
        let entries = own.into_entries();
        let crc = crate::format::crc32(&entries);
        let hardest = std::mem::take(&mut at.hardest);
        flow.inputs.summaries.send(Summary {
            worker: me as u64,
            len: entries.len() as u64,
            crc,
            hardest: hardest.iter().map(|i| i.0).collect(),
        });
        let end = epoch + 2;
        flow.advance_to(end);
        if flow.wait_for(end, |_| {}).is_err() {
            return Err(flow.leave());
        }
        // Every worker has every summary: nothing more is needed from the
        // dataflow (and a process lost now cannot hold this one up).
        let all = std::mem::take(&mut *flow.outputs.summarised.borrow_mut());
        flow.leave();
        let part = Part {
            worker: me,
            range,
            entries,
            hardest,
        };
        Ok(finish(all, ranges, at, part))
    }
}

/// What a worker returns, from every worker's summary `all`, the cluster's
/// `ranges`, where its loop stopped and its part.
fn finish(mut all: Vec<Summary>, ranges: &[Range<u64>], at: Standing, part: Part) -> Finished {
    all.sort_by_key(|s| s.worker);
    let mut everyone: Vec<Index> = all
        .iter()
        .flat_map(|s| s.hardest.iter().map(|&i| Index(i)))
        .collect();
    everyone.sort_unstable();
    everyone.truncate(MAX_HARDEST);
    Finished {
        layers: at.layers,
        moves: at.moves,
        sent: at.sent,
        hardest: everyone,
        shards: all
            .into_iter()
            .map(|s| ShardSum {
                worker: s.worker as usize,
                range: ranges[s.worker as usize].clone(),
                len: s.len,
                crc: s.crc,
            })
            .collect(),
        part,
    }
}

/// A worker left the search because it stopped (see [`Stop`]).
struct Stopped;

/// How often a waiting worker looks whether the search has stopped.
const LOOK_EVERY: Duration = Duration::from_millis(100);

/// Drops the worker's dataflows, so that timely does not wait for them
/// to finish when the worker returns.
fn leave(worker: &mut Worker) {
    for dataflow in worker.installed_dataflows() {
        worker.drop_dataflow(dataflow);
    }
}

/// What each worker tells every other at the end.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Summary {
    worker: u64,
    len: u64,
    crc: u32,
    hardest: Vec<u64>,
}

/// Blocks a worker expands, at most, between two steps of the dataflow
/// (about 10^7 tile orders: what other workers send meanwhile waits in
/// timely's queues).
const STEP_BLOCKS: u64 = 1 << 6;

/// Frontier words a worker expands between two looks at what arrived.
const BLOCK_WORDS: usize = 1 << 12;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::build::cluster::{search_distributed, table_from_parts};
    use crate::table::generate;

    #[test]
    fn any_number_of_workers_builds_the_generated_table() {
        for (rows, cols, goal) in [
            (2, 2, None),
            (2, 3, None),
            (3, 2, Some("1 2 / 3 0 / 4 5")),
            (3, 3, Some("0 1 2 / 3 4 5 / 6 7 8")),
            (2, 4, None),
        ] {
            let goal: Board = match goal {
                Some(text) => text.parse().unwrap(),
                None => Board::solved(Shape::new(rows, cols).unwrap()),
            };
            let expected = generate(&goal, |_| {}).unwrap();
            for workers in [1, 2, 3, 5] {
                let run = search_distributed(&goal, workers, |_| {}).unwrap();
                assert_eq!(run.layers, expected.layers(), "{goal} on {workers}");
                // One process: the parts of every worker.
                assert_eq!(run.parts.len(), workers, "{goal} on {workers}");
                let table = table_from_parts(&goal, &run.layers, &run.parts);
                assert!(
                    table.as_bytes() == expected.as_bytes(),
                    "{goal} on {workers} workers: the bytes differ"
                );
                assert!(run.sent <= run.moves);
                let per_blank = Indexer::new(&goal).per_blank();
                let owners = owned_ranges(per_blank, workers)
                    .iter()
                    .filter(|r| !r.is_empty())
                    .count();
                assert_eq!(run.sent == 0, owners == 1, "{goal} on {workers}");
            }
        }
    }
}
