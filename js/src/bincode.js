// A reader of bincode 2's standard configuration (little-endian, variable
// length integers), the encoding of every slidedb file's metadata: a u8 is
// one byte; a u16, u32 or u64 is one byte below 251, else 251, 252 or 253
// followed by 2, 4 or 8 little-endian bytes (254, a u128, and 255 are not
// a u64); a string or a sequence is its length as such an integer followed
// by its elements. A u64 is read as a BigInt, since it can pass 2^53.

/** Why metadata bytes do not decode: thrown by {@link BincodeReader}. */
export class BincodeError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "BincodeError";
  }
}

const UTF8 = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Reads values one after another from bytes encoded by bincode 2 with
 * `bincode::config::standard()`. Every read checks that the bytes hold it
 * and throws a {@link BincodeError} naming `what` otherwise; no read
 * allocates more than the bytes could hold.
 *
 * @example
 * const r = new BincodeReader(new Uint8Array([251, 0x10, 0x27, 3, 1, 2, 3]));
 * r.u64("a"); // 10000n
 * r.bytes("b"); // Uint8Array [1, 2, 3]
 * r.atEnd(); // true
 */
export class BincodeReader {
  /**
   * @param {Uint8Array} bytes the encoded value
   * @param {number} [start=0] where it starts
   * @param {number} [end=bytes.length] where the bytes end
   */
  constructor(bytes, start = 0, end = bytes.length) {
    this.buf = bytes;
    this.pos = start;
    this.end = end;
  }

  /** Bytes not read yet. */
  remaining() {
    return this.end - this.pos;
  }

  /** Whether every byte has been read. */
  atEnd() {
    return this.pos === this.end;
  }

  /** @param {number} n @param {string} what */
  need(n, what) {
    if (this.end - this.pos < n) {
      throw new BincodeError(
        `the metadata ends ${n - (this.end - this.pos)} byte${n - (this.end - this.pos) === 1 ? "" : "s"} short while reading ${what}`,
      );
    }
  }

  /** A u8: one byte. @param {string} what the field, for the error */
  u8(what) {
    this.need(1, what);
    return this.buf[this.pos++];
  }

  /** @param {number} n @returns {bigint} n little-endian bytes */
  littleEndian(n) {
    let v = 0n;
    for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(this.buf[this.pos + i]);
    this.pos += n;
    return v;
  }

  /**
   * A variable-length integer of at most `bits` bits (16, 32 or 64), as a BigInt.
   * @param {number} bits @param {string} what @returns {bigint}
   */
  varint(bits, what) {
    this.need(1, what);
    const tag = this.buf[this.pos++];
    if (tag <= 250) return BigInt(tag);
    const width = tag === 251 ? 2 : tag === 252 ? 4 : tag === 253 ? 8 : tag === 254 ? 16 : 0;
    if (width === 0 || width * 8 > bits) {
      throw new BincodeError(
        `${what}: the integer tag ${tag} names ${width === 0 ? "no integer type (it is reserved)" : `a ${width * 8}-bit integer`}, but a ${bits}-bit one was expected`,
      );
    }
    this.need(width, what);
    return this.littleEndian(width);
  }

  /** A u32, as a number. @param {string} what */
  u32(what) {
    return Number(this.varint(32, what));
  }

  /** A u64, as a BigInt. @param {string} what @returns {bigint} */
  u64(what) {
    return this.varint(64, what);
  }

  /**
   * A sequence's length (a u64), checked against the bytes left, each
   * element taking at least `minBytes`.
   * @param {string} what @param {number} [minBytes=1] @returns {number}
   */
  length(what, minBytes = 1) {
    const len = this.u64(what);
    if (len * BigInt(minBytes) > BigInt(this.remaining())) {
      throw new BincodeError(
        `${what}: a length of ${len}, more than the ${this.remaining()} bytes of metadata left hold`,
      );
    }
    return Number(len);
  }

  /** A sequence of u8 (a length, then the bytes), as a copy. @param {string} what @returns {Uint8Array} */
  bytes(what) {
    const len = this.length(what);
    const out = this.buf.slice(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  /** A string: a length, then that many bytes of UTF-8. @param {string} what @returns {string} */
  string(what) {
    const raw = this.bytes(what);
    try {
      return UTF8.decode(raw);
    } catch {
      throw new BincodeError(`${what}: the string is not UTF-8`);
    }
  }

  /**
   * A sequence of values each read by `item`.
   * @template T
   * @param {string} what
   * @param {(reader: BincodeReader, i: number) => T} item
   * @returns {T[]}
   */
  seq(what, item) {
    const len = this.length(what);
    const out = [];
    for (let i = 0; i < len; i++) out.push(item(this, i));
    return out;
  }
}

/**
 * Encodes an unsigned integer as bincode 2's standard variable-length
 * integer (the inverse of {@link BincodeReader#u64}).
 *
 * @example
 * encodeVarint(250); // [250]
 * encodeVarint(251); // [251, 251, 0]
 * @param {number | bigint} value at most 2^64 - 1
 * @returns {number[]} the bytes
 */
export function encodeVarint(value) {
  const v = BigInt(value);
  if (v < 0n || v >= 1n << 64n) throw new RangeError(`${value} is not a u64`);
  if (v < 251n) return [Number(v)];
  const [tag, width] = v < 1n << 16n ? [251, 2] : v < 1n << 32n ? [252, 4] : [253, 8];
  const out = [tag];
  for (let i = 0; i < width; i++) out.push(Number((v >> BigInt(8 * i)) & 0xffn));
  return out;
}
