//! Recomputing a table file's checksums after a mutation, so that the
//! fuzzers reach the checks behind them (shared by the targets).

/// The bytes with the metadata CRC (bytes 20..24, over the metadata the
/// header delimits, when it lies within the bytes), with `body` also the
/// body CRC (bytes 56..60, over the bytes from the body offset to the
/// end, when that offset lies within them), and the header CRC (bytes
/// 60..64) recomputed; `None` if nothing changes.
pub fn with_checksums_fixed(data: &[u8], body: bool) -> Option<Vec<u8>> {
    if data.len() < 64 {
        return None;
    }
    let mut b = data.to_vec();
    let offset = u64::from_le_bytes(b[24..32].try_into().unwrap());
    let len = u64::from_le_bytes(b[32..40].try_into().unwrap());
    if let Some(end) = offset.checked_add(len).filter(|&e| e <= b.len() as u64) {
        let crc = crc32fast::hash(&b[offset as usize..end as usize]);
        b[20..24].copy_from_slice(&crc.to_le_bytes());
    }
    if body {
        let body_offset = u64::from_le_bytes(b[40..48].try_into().unwrap());
        if body_offset <= b.len() as u64 {
            let crc = crc32fast::hash(&b[body_offset as usize..]);
            b[56..60].copy_from_slice(&crc.to_le_bytes());
        }
    }
    let crc = crc32fast::hash(&b[..60]);
    b[60..64].copy_from_slice(&crc.to_le_bytes());
    (b != data).then_some(b)
}
