//! A search's state streamed out and back in: the distances (as stored)
//! and the deepest layer's frontier bitsets. The builder's checkpoint
//! holds these bytes; it frames, names and renames the file
//! ([`crate::build`]), this only writes to and reads from a stream.

use std::io::{self, Read, Seek, SeekFrom, Write};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering::Relaxed;

use crate::board::{Board, Metric};
use crate::rank::Indexer;

use super::TwoBit;
use super::placement::{Placement, Store, resident_bytes};
use crate::bfs::GenerateError;

impl<'a> TwoBit<'a> {
    /// Writes what a checkpoint's body holds: the distances (as stored),
    /// then the bitsets of the deepest layer's cells, in cell order.
    pub(crate) fn write_checkpoint_body(&self, out: &mut impl Write) -> io::Result<()> {
        self.for_each_distance_piece(|piece| out.write_all(piece))?;
        let mut bytes = Vec::new();
        self.for_each_frontier_piece(self.depth(), |_, _, words| {
            bytes.clear();
            bytes.extend(words.iter().flat_map(|w| w.to_le_bytes()));
            out.write_all(&bytes)?;
            Ok(ControlFlow::Continue(()))
        })
    }

    /// The length of [`TwoBit::write_checkpoint_body`]'s bytes at layer
    /// `depth` of a search of `indexer` toward `goal` in `metric` (in the
    /// single-tile metric each colour has its own count of cells; in the
    /// multi-tile metric every cell's bitset is written).
    pub(crate) fn checkpoint_len(
        indexer: &Indexer,
        goal: &Board,
        depth: u32,
        metric: Metric,
    ) -> u64 {
        let shape = indexer.shape();
        let (residues, frontier) = resident_bytes(shape.cells(), indexer.per_blank());
        if metric == Metric::Multi {
            return residues + frontier;
        }
        let per_cell = frontier / shape.cells() as u64;
        let root = goal.blank() as u64;
        let colour = |c: u64| (c as usize / shape.cols() + c as usize % shape.cols()) % 2;
        let want = colour(root) ^ (depth as usize % 2);
        let cells = (0..shape.cells() as u64)
            .filter(|&c| colour(c) == want)
            .count() as u64;
        residues + cells * per_cell
    }

    /// A search at layer `layers.len() − 1`, placed as `placement` says,
    /// its state read from `from` (as [`TwoBit::write_checkpoint_body`]
    /// wrote it).
    pub(crate) fn restore(
        indexer: &'a Indexer,
        goal: &Board,
        placement: &Placement,
        metric: Metric,
        layers: Vec<u64>,
        from: &mut impl Read,
    ) -> Result<io::Result<TwoBit<'a>>, GenerateError> {
        let mut search = match TwoBit::empty(indexer, goal, placement)? {
            Ok(search) => search,
            Err(e) => return Ok(Err(e)),
        };
        search.set_metric(metric);
        search.layers = layers;
        let cells = search.cells_of_layer(search.depth());
        let len = search.words * 8;
        let read = (|| {
            match &mut search.store {
                Store::Resident { residues, frontier } => {
                    from.read_exact(residues.bytes_mut())?;
                    let bytes = frontier.bytes_mut();
                    for &cell in &cells {
                        from.read_exact(&mut bytes[cell * len..(cell + 1) * len])?;
                    }
                }
                Store::Segmented(files) => {
                    let copy = |file: &std::fs::File, at: u64, n: u64, from: &mut dyn Read| {
                        let mut file = file;
                        file.seek(SeekFrom::Start(at))?;
                        let copied = io::copy(&mut from.take(n), &mut file)?;
                        if copied != n {
                            return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
                        }
                        Ok::<_, io::Error>(())
                    };
                    let distances = files.residues.metadata()?.len();
                    copy(&files.residues, 0, distances, from)?;
                    for &cell in &cells {
                        copy(&files.frontier, (cell * len) as u64, len as u64, from)?;
                    }
                }
            }
            Ok::<_, io::Error>(())
        })();
        if let (Ok(()), Some(busy), Store::Resident { frontier, .. }) =
            (&read, &search.busy, &search.store)
        {
            let words = frontier.atomics();
            for &cell in &cells {
                let bitset = &words[cell * search.words..(cell + 1) * search.words];
                for (w, word) in bitset.iter().enumerate() {
                    if word.load(Relaxed) != 0 {
                        busy.mark(cell, w);
                    }
                }
            }
        }
        Ok(read.map(|()| search))
    }
}
