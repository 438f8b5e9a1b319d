// CRC-32 (IEEE 802.3: reflected polynomial 0xEDB88320, initial value and
// final XOR 0xFFFFFFFF), the checksum of every slidedb header, metadata
// and body; the value zlib and Rust's crc32fast give. Eight bytes a step
// (slicing by eight), so a 60 MB table body checks in a fraction of a second.

const TABLES = /* @__PURE__ */ makeTables();

function makeTables() {
  const t = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n];
    for (let k = 1; k < 8; k++) {
      c = t[c & 0xff] ^ (c >>> 8);
      t[k * 256 + n] = c;
    }
  }
  return t;
}

/**
 * Continues a CRC-32 over more bytes: `crc32Update(crc32Update(0, a), b)`
 * equals `crc32(a ++ b)`.
 *
 * @param {number} crc the CRC-32 of the bytes before (0 to start)
 * @param {Uint8Array} bytes the next bytes
 * @param {number} [start=0] first byte of `bytes` to include
 * @param {number} [end=bytes.length] one past the last
 * @returns {number} the CRC-32 so far, as an unsigned 32-bit number
 */
export function crc32Update(crc, bytes, start = 0, end = bytes.length) {
  const t = TABLES;
  let c = ~crc;
  let i = start;
  // Byte by byte up to a multiple of 8 from `start`, then 8 at a time.
  const fast = end - ((end - i) & 7);
  while (i < fast) {
    const a = c ^ (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24));
    c =
      t[1792 + (a & 0xff)] ^
      t[1536 + ((a >>> 8) & 0xff)] ^
      t[1280 + ((a >>> 16) & 0xff)] ^
      t[1024 + (a >>> 24)] ^
      t[768 + bytes[i + 4]] ^
      t[512 + bytes[i + 5]] ^
      t[256 + bytes[i + 6]] ^
      t[bytes[i + 7]];
    i += 8;
  }
  while (i < end) c = t[(c ^ bytes[i++]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/**
 * The CRC-32 of `bytes[start..end]`.
 *
 * @example
 * crc32(new TextEncoder().encode("123456789")); // 0xcbf43926
 *
 * @param {Uint8Array} bytes
 * @param {number} [start=0]
 * @param {number} [end=bytes.length]
 * @returns {number} an unsigned 32-bit number
 */
export function crc32(bytes, start = 0, end = bytes.length) {
  return crc32Update(0, bytes, start, end);
}
