// The frame every slidedb file shares (FORMAT.md; src/format.rs): a
// 64-byte header, the metadata, zero padding, the body. `readFrame` checks
// it in the order FORMAT.md's "What a reader checks" lists, in time
// independent of the body's size, and throws a SlidedbFormatError worded
// from the table of faults (faults.js, the Rust library's `FileFault`).

import { BincodeReader, BincodeError } from "./bincode.js";
import { crc32 } from "./crc32.js";
import { SlidedbFormatError } from "./errors.js";
import { FAULTS } from "./faults.js";
import { counted } from "./words.js";

/** The first eight bytes of every file: `SLIDEDB\0`. */
export const MAGIC = Uint8Array.from([0x53, 0x4c, 0x49, 0x44, 0x45, 0x44, 0x42, 0x00]);
/** The endianness mark, stored little-endian: bytes `FF FE`. */
export const ENDIAN_MARK = 0xfeff;
/** The newest format version this package reads (version 3 ends every kind's metadata with its metric). */
export const FORMAT_VERSION = 3;
/** The oldest format version this package reads (read as version 3 with the metric 0, single-tile). */
export const OLDEST_VERSION = 2;
/** The fixed header's length. */
export const HEADER_LEN = 64;
/** The body starts at a multiple of this. */
export const BODY_ALIGN = 64;
/** The most metadata bytes a reader accepts (1 MiB). */
export const MAX_METADATA_LEN = 1 << 20;

/** The kinds of file, by header code, as the Rust `Kind` displays them. */
export const KINDS = Object.freeze({
  1: "a full distance table",
  2: "a pattern databases file",
  3: "a list of a table's rare layers",
  4: "a checkpoint of a table's build",
  5: "a shard of a table",
  6: "a sharded table's manifest",
  7: "a checkpoint of a distributed build's worker",
});

/** Kind 1: a full distance table. */
export const KIND_TABLE = 1;
/** Kind 2: pattern databases. */
export const KIND_PATTERNS = 2;

const hex = (v, digits) => "0x" + v.toString(16).padStart(digits, "0");

/** A field of a fault's sentence written in its style (see faults.js). */
function styled(value, style) {
  switch (style) {
    case "bytes":
      return counted(value, "byte", "bytes");
    case "hex4":
      return hex(value, 4);
    case "hex8":
      return hex(value, 8);
    default:
      return String(value);
  }
}

/**
 * The error of the fault `name` of the table (faults.js): its sentence
 * with `fields` filled in, the joiner, the advice. The error carries
 * `details` (by default the fields).
 * @param {string} name a key of FAULTS @param {object} [fields] @param {object} [details]
 * @returns {SlidedbFormatError}
 */
export function faultError(name, fields = {}, details = fields) {
  const fault = FAULTS[name];
  const sentence = fault.sentence.replace(/\{(\w+)(?::(\w+))?\}/g, (_, field, style) => {
    if (!(field in fields)) throw new Error(`the fault ${name} needs the field ${field}`);
    return styled(fields[field], style);
  });
  return new SlidedbFormatError(fault.code, `${sentence}${fault.joiner}${fault.advice}`, details);
}

/** A Layout fault: "bad layout: WHAT: the file is damaged; rebuild it". @param {string} what */
export function layoutError(what) {
  return faultError("Layout", { what });
}

/** A Metadata fault: "bad metadata: WHAT: the file is damaged; rebuild it". @param {string} what */
export function metadataError(what) {
  return faultError("Metadata", { what });
}

function truncated(expected, got) {
  return faultError("Truncated", { expected, got });
}

function checksumError(section, stored, computed) {
  return faultError("Checksum", { section, stored, computed });
}

/**
 * Checks a body against its stored CRC-32 (O(body)).
 * @param {Uint8Array} bytes the file @param {number} start @param {number} end @param {number} stored
 */
export function checkBody(bytes, start, end, stored) {
  const computed = crc32(bytes, start, end);
  if (computed !== stored) throw checksumError("body", stored, computed);
}

/**
 * The bytes of an ArrayBuffer, a typed array or a DataView, as a Uint8Array
 * over the same memory (no copy).
 * @param {ArrayBuffer | ArrayBufferView} data @returns {Uint8Array}
 */
export function asBytes(data) {
  // A plain Uint8Array over the same memory (also for a Node Buffer, so
  // that the hot loops see one kind of array).
  if (data instanceof Uint8Array) {
    return data.constructor === Uint8Array ? data : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }
  if (data instanceof ArrayBuffer || (typeof SharedArrayBuffer !== "undefined" && data instanceof SharedArrayBuffer)) {
    return new Uint8Array(data);
  }
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new TypeError("a slidedb file is given as an ArrayBuffer or a Uint8Array");
}

/**
 * Checks the frame of a file of `kind` with entry `encoding`: magic,
 * endianness, version, header checksum, header length, kind, encoding,
 * layout (with 64-bit arithmetic), exact length, metadata checksum, zero
 * padding; then decodes the metadata with `decode`, which must read it
 * all. The body's checksum is not checked here (see {@link checkBody}).
 *
 * @template M
 * @param {Uint8Array} bytes the whole file
 * @param {number} kind the kind wanted
 * @param {number} encoding the entry encoding wanted
 * @param {(reader: BincodeReader, version: number) => M} decode reads the metadata of `version`
 * @returns {{metadata: M, bodyStart: number, bodyEnd: number, bodyCrc: number}}
 */
export function readFrame(bytes, kind, encoding, decode) {
  const got = bytes.length;
  if (got < 12) {
    for (let i = 0; i < Math.min(got, 8); i++) {
      if (bytes[i] !== MAGIC[i]) throw badMagic();
    }
    throw truncated(HEADER_LEN, got);
  }
  for (let i = 0; i < 8; i++) if (bytes[i] !== MAGIC[i]) throw badMagic();
  const view = new DataView(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, HEADER_LEN));
  const mark = view.getUint16(8, true);
  if (mark !== ENDIAN_MARK) {
    throw faultError("Endianness", { expected: ENDIAN_MARK, got: mark }, { got: mark });
  }
  const version = view.getUint16(10, true);
  if (version < OLDEST_VERSION) throw versionError(OLDEST_VERSION, version);
  if (version > FORMAT_VERSION) throw versionError(FORMAT_VERSION, version);
  if (got < HEADER_LEN) throw truncated(HEADER_LEN, got);
  const storedHeader = view.getUint32(60, true);
  const computedHeader = crc32(bytes, 0, 60);
  if (storedHeader !== computedHeader) throw checksumError("header", storedHeader, computedHeader);
  const headerLen = view.getUint32(12, true);
  if (headerLen !== HEADER_LEN) {
    throw faultError("HeaderLength", { expected: HEADER_LEN, got: headerLen }, { got: headerLen });
  }
  const kindCode = view.getUint16(16, true);
  if (kindCode !== kind) {
    if (KINDS[kindCode]) {
      throw faultError(
        "WrongKind",
        { expected: KINDS[kind], got: KINDS[kindCode] },
        { expected: kind, got: kindCode },
      );
    }
    throw faultError("UnknownKind", { got: kindCode });
  }
  const storedEncoding = view.getUint16(18, true);
  if (storedEncoding !== encoding) {
    throw faultError("UnknownEncoding", { got: storedEncoding });
  }
  const metadataCrc = view.getUint32(20, true);
  const metadataOffset = view.getBigUint64(24, true);
  const metadataLen = view.getBigUint64(32, true);
  const bodyOffset = view.getBigUint64(40, true);
  const bodyLen = view.getBigUint64(48, true);
  const bodyCrc = view.getUint32(56, true);
  if (metadataOffset !== BigInt(HEADER_LEN)) {
    throw layoutError(`metadata offset ${metadataOffset} (must be ${HEADER_LEN})`);
  }
  if (metadataLen > BigInt(MAX_METADATA_LEN)) {
    throw layoutError(`metadata length ${metadataLen} (at most ${MAX_METADATA_LEN})`);
  }
  const metadataEnd = HEADER_LEN + Number(metadataLen); // both small
  const aligned = Math.ceil(metadataEnd / BODY_ALIGN) * BODY_ALIGN;
  if (bodyOffset !== BigInt(aligned)) {
    throw layoutError(
      `body offset ${bodyOffset} (must be ${aligned}, the end of the metadata rounded up to ${BODY_ALIGN})`,
    );
  }
  const end = bodyOffset + bodyLen;
  if (end >= 1n << 64n) throw layoutError("body length overflows");
  if (BigInt(got) < end) throw truncated(end, got);
  if (BigInt(got) > end) {
    throw faultError("TrailingBytes", { expected: end, got });
  }
  // From here every offset is within the bytes, and below 2^53.
  const bodyStart = aligned;
  const computedMetadata = crc32(bytes, HEADER_LEN, metadataEnd);
  if (computedMetadata !== metadataCrc) throw checksumError("metadata", metadataCrc, computedMetadata);
  for (let i = metadataEnd; i < bodyStart; i++) {
    if (bytes[i] !== 0) throw layoutError("padding before the body is not zero");
  }
  const reader = new BincodeReader(bytes, HEADER_LEN, metadataEnd);
  let metadata;
  try {
    metadata = decode(reader, version);
  } catch (e) {
    if (e instanceof BincodeError) throw metadataError(e.message);
    throw e;
  }
  if (!reader.atEnd()) throw metadataError(`${reader.remaining()} bytes after the metadata`);
  return { metadata, bodyStart, bodyEnd: got, bodyCrc };
}

function badMagic() {
  return faultError("BadMagic");
}

function versionError(expected, got) {
  return faultError(got < expected ? "OlderVersion" : "NewerVersion", { expected, got });
}
