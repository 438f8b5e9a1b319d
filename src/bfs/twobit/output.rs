//! What a search hands on: the first hardest boards and the table's body
//! (its distances with the bits flipped back), read out in pieces
//! whether the words are resident or in work files.

use std::io::{self, Read, Seek, SeekFrom, Write};
use std::ops::ControlFlow;

use crate::board::Board;
use crate::rank::Index;

use super::TwoBit;
use super::placement::{STREAM_BYTES, Store};
use super::words::{load_all, read_words};
use crate::bfs::MAX_HARDEST;

impl TwoBit<'_> {
    /// Calls `f` with the words of each cell of layer `depth` in turn,
    /// in pieces (cell, first word, words).
    pub(super) fn for_each_frontier_piece(
        &self,
        depth: u32,
        mut f: impl FnMut(usize, usize, &[u64]) -> io::Result<ControlFlow<()>>,
    ) -> io::Result<()> {
        let piece = (STREAM_BYTES / 8) as usize;
        for cell in self.cells_of_layer(depth) {
            for start in (0..self.words).step_by(piece) {
                let n = piece.min(self.words - start);
                let words = match &self.store {
                    Store::Resident { frontier, .. } => {
                        load_all(&frontier.atomics()[cell * self.words + start..][..n])
                    }
                    Store::Segmented(files) => {
                        load_all(&read_words(&files.frontier, cell * self.words + start, n)?)
                    }
                };
                if f(cell, start, &words)?.is_break() {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// Calls `f` with the distances' bytes (as stored: residue ^ 3), in
    /// pieces.
    pub(super) fn for_each_distance_piece(
        &self,
        mut f: impl FnMut(&[u8]) -> io::Result<()>,
    ) -> io::Result<()> {
        const PIECE: usize = 1 << 22;
        match &self.store {
            Store::Resident { residues, .. } => {
                for piece in residues.bytes().chunks(PIECE) {
                    f(piece)?;
                }
            }
            Store::Segmented(files) => {
                let len = files.residues.metadata()?.len();
                let mut buffer = vec![0u8; PIECE];
                let mut file = &files.residues;
                file.seek(SeekFrom::Start(0))?;
                let mut left = len;
                while left > 0 {
                    let n = (PIECE as u64).min(left) as usize;
                    file.read_exact(&mut buffer[..n])?;
                    f(&buffer[..n])?;
                    left -= n as u64;
                }
            }
        }
        Ok(())
    }

    /// The first [`MAX_HARDEST`] boards of the deepest layer, in index
    /// order (as [`generate`](crate::table::generate()) lists them).
    pub(crate) fn hardest(&self) -> io::Result<Vec<Board>> {
        let mut hardest = Vec::new();
        self.for_each_frontier_piece(self.depth(), |cell, start, words| {
            for (w, &word) in words.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    if hardest.len() == MAX_HARDEST {
                        return Ok(ControlFlow::Break(()));
                    }
                    let h = ((start + w) * 64) as u64 + bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    let index = Index(cell as u64 * self.per_blank + h);
                    hardest.push(
                        self.indexer
                            .unrank(index)
                            .expect("a frontier bit is a board"),
                    );
                }
            }
            Ok(ControlFlow::Continue(()))
        })?;
        Ok(hardest)
    }

    /// The table's body length: 2 bits a board.
    pub(crate) fn body_len(&self) -> u64 {
        self.indexer.len().div_ceil(4)
    }

    /// Writes the table's body (entries `residue`, `3` for no board).
    pub(crate) fn write_body(&self, out: &mut impl Write) -> io::Result<()> {
        let mut left = self.body_len() as usize;
        let mut flipped = Vec::new();
        self.for_each_distance_piece(|piece| {
            let n = piece.len().min(left);
            flipped.clear();
            flipped.extend(piece[..n].iter().map(|b| b ^ 0xFF));
            out.write_all(&flipped)?;
            left -= n;
            Ok(())
        })
    }
}
