//! 64-bit words: zeroed anonymous memory seen as atomics (the resident
//! search's distances and frontier), and runs of words read from and
//! written to a segmented search's work files.

use std::io::{self, Read, Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use memmap2::MmapMut;

/// Zeroed anonymous memory seen as 64-bit atomic words.
pub(crate) struct Words {
    map: MmapMut,
    len: usize,
}

impl Words {
    /// `len` zeroed words, backed by huge pages where the kernel gives them.
    pub(crate) fn zeroed(len: usize) -> io::Result<Words> {
        let bytes = len
            .max(1)
            .checked_mul(8)
            .ok_or(io::ErrorKind::OutOfMemory)?;
        let map = MmapMut::map_anon(bytes)?;
        #[cfg(target_os = "linux")]
        {
            // Only a hint: without huge pages the search is slower, not wrong.
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        Ok(Words { map, len })
    }

    /// The words, for concurrent use.
    #[inline]
    pub(crate) fn atomics(&self) -> &[AtomicU64] {
        // SAFETY: the map is page-aligned, at least `len * 8` bytes long
        // and lives as long as `self`; `AtomicU64` has the size and
        // alignment of `u64`, and every bit pattern is a valid value. The
        // only other view, `bytes_mut`, needs `&mut self`, so the two
        // never overlap in time.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<AtomicU64>(), self.len) }
    }

    /// The words' bytes (little-endian words on every machine this
    /// compiles for: see [`TwoBit::write_body`](super::TwoBit::write_body)).
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.map[..self.len * 8]
    }

    /// The words' bytes, to fill them.
    pub(crate) fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.map[..self.len * 8]
    }
}

/// Reads `n` words from word `at` of `file`.
pub(super) fn read_words(file: &std::fs::File, at: usize, n: usize) -> io::Result<Vec<AtomicU64>> {
    let mut bytes = vec![0u8; n * 8];
    let mut f = file;
    f.seek(SeekFrom::Start(at as u64 * 8))?;
    f.read_exact(&mut bytes)?;
    Ok(bytes
        .chunks_exact(8)
        .map(|b| AtomicU64::new(u64::from_le_bytes(b.try_into().expect("8 bytes"))))
        .collect())
}

/// Writes `words` at word `at` of `file`.
pub(super) fn write_words(file: &std::fs::File, at: usize, words: &[u64]) -> io::Result<()> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut f = file;
    f.seek(SeekFrom::Start(at as u64 * 8))?;
    f.write_all(&bytes)
}

/// The values of `words`.
pub(super) fn load_all(words: &[AtomicU64]) -> Vec<u64> {
    words.iter().map(|w| w.load(Relaxed)).collect()
}
