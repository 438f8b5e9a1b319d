//! A layer of a segmented search: the passes of `layer` run a segment of
//! a target cell at a time, its distances and new frontier read from the
//! work files, its sources' frontiers read through, then written back.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::TwoBit;
use super::layer::{CHUNK, Segment, claim};
use super::placement::{Segmented, Store, stream_bytes};
use super::words::{load_all, read_words, write_words};
use crate::bfs::moves::Odometer;

impl TwoBit<'_> {
    /// A layer of a segmented search: each target cell a segment at a
    /// time, its distances and new frontier read in, its sources'
    /// frontiers read through, then written back.
    pub(super) fn expand_segmented(&self, targets: &[usize], stored: u64) -> io::Result<u64> {
        let Store::Segmented(files) = &self.store else {
            unreachable!("a segmented search")
        };
        let (per_blank, words) = (self.per_blank, self.words);
        let segment_words = (files.segment / 64) as usize;
        let mut found = 0;
        for &target in targets {
            let beside = self.beside(target);
            for first in (0..words).step_by(segment_words) {
                let range = first..(first + segment_words).min(words);
                // The segment's entries, in whole residue words.
                let lo = target as u64 * per_blank + (range.start * 64) as u64;
                let hi = target as u64 * per_blank + ((range.end * 64) as u64).min(per_blank);
                let (w0, w1) = ((lo / 32) as usize, hi.div_ceil(32) as usize);
                let residues = read_words(&files.residues, w0, w1 - w0)?;
                let into: Vec<AtomicU64> = range.clone().map(|_| AtomicU64::new(0)).collect();
                // The horizontal sources' words of the same tile orders.
                let mut beside_words = Vec::with_capacity(beside.len());
                for &s in &beside {
                    let at = s * words + range.start;
                    beside_words.push((s, read_words(&files.frontier, at, range.len())?));
                }
                let view = Segment {
                    cell: target,
                    words: range.clone(),
                    residues: &residues,
                    first_word: w0,
                    into: &into,
                    busy: None,
                };
                found += self.expand_horizontal(
                    &view,
                    |s, w| {
                        beside_words
                            .iter()
                            .find(|(cell, _)| *cell == s)
                            .map_or(0, |(_, ws)| ws[w - range.start].load(Relaxed))
                    },
                    stored,
                );
                found += self.expand_vertical_segment(&view, files, (lo, hi), stored)?;
                write_words(&files.residues, w0, &load_all(&residues))?;
                write_words(
                    &files.frontier,
                    target * words + range.start,
                    &load_all(&into),
                )?;
            }
        }
        Ok(found)
    }

    /// Pass 2 over a segment of a segmented search: each vertical source
    /// of the segment's cell read through whole, its moves that land in
    /// entries `lo..hi` claimed.
    fn expand_vertical_segment(
        &self,
        view: &Segment,
        files: &Segmented,
        (lo, hi): (u64, u64),
        stored: u64,
    ) -> io::Result<u64> {
        let search = &self.search;
        let (per_blank, words) = (self.per_blank, self.words);
        let stream = (stream_bytes(per_blank) / 8) as usize;
        let first = view.first_word as u64 * 32;
        let mut found = 0;
        for source in 0..self.cells {
            let Some(v) = search.verticals(source).find(|v| v.to == view.cell) else {
                continue;
            };
            for start in (0..words).step_by(stream) {
                let n = stream.min(words - start);
                let chunk = read_words(&files.frontier, source * words + start, n)?;
                found += (0..n)
                    .into_par_iter()
                    .step_by(CHUNK)
                    .map(|c| {
                        let mut found = 0;
                        let mut odometer = Odometer::new(search);
                        for (w, word) in chunk.iter().enumerate().take((c + CHUNK).min(n)).skip(c) {
                            let mut bits = word.load(Relaxed);
                            while bits != 0 {
                                let h = ((start + w) * 64) as u64 + bits.trailing_zeros() as u64;
                                bits &= bits - 1;
                                let to_h = search.vertical(h, odometer.at(h), v);
                                let to = view.cell as u64 * per_blank + to_h;
                                if to < lo || to >= hi {
                                    continue;
                                }
                                if claim(view.residues, to - first, stored) {
                                    found += 1;
                                    let word = (to_h / 64) as usize - view.words.start;
                                    view.into[word].fetch_or(1 << (to_h % 64), Relaxed);
                                }
                            }
                        }
                        found
                    })
                    .sum::<u64>();
            }
        }
        Ok(found)
    }
}
