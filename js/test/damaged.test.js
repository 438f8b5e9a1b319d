// Damaged and truncated files: the same damage the Rust tests refuse
// (tests/integration/table_format.rs, fuzz_regressions.rs, pdb.rs), made
// by changing bytes of files slidedb-gen built, or by encoding files by
// hand: each is refused with an error naming the fault, never an answer.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";

import { SlidedbFormatError, SolveError, crc32, encodeVarint, openPatterns, openTable, parseBoard } from "../src/index.js";
import { allBoards, buildPatterns, buildTable, dataDir, readBytes } from "../support/helpers.js";

const DIR = dataDir();

const u64At = (bytes, at) => Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(at, true));
const refused = (fn, code, message) =>
  assert.throws(
    fn,
    (e) => {
      assert.ok(e instanceof SlidedbFormatError, `${e}`);
      if (code) assert.equal(e.code, code, e.message);
      if (message) assert.match(e.message, message);
      return true;
    },
    code,
  );

// ---- files encoded by hand, as FORMAT.md specifies ----------------------

const bytesField = (b) => [...encodeVarint(b.length), ...b];

/** Kind-1 metadata, field by field (the indexed goal given or the goal). */
function metadata(rows, cols, goal, states, layers, hardest, indexed = goal) {
  return Uint8Array.from([
    ...bytesField([..."fuzz"].map((c) => c.charCodeAt(0))),
    rows,
    cols,
    ...bytesField(goal),
    rows,
    cols,
    ...bytesField(indexed),
    ...encodeVarint(states),
    ...encodeVarint(layers.length),
    ...layers.flatMap((l) => encodeVarint(l)),
    ...encodeVarint(Math.max(layers.length - 1, 0)),
    ...encodeVarint(hardest.length),
    ...hardest.flatMap((h) => bytesField(h)),
  ]);
}

/** A 64-byte header with both its checksums right, whatever the fields. */
function header(meta, metadataLen, bodyOffset, bodyLen, { kind = 1, encoding = 1, version = 2 } = {}) {
  const h = new Uint8Array(64);
  const v = new DataView(h.buffer);
  h.set([0x53, 0x4c, 0x49, 0x44, 0x45, 0x44, 0x42, 0]);
  v.setUint16(8, 0xfeff, true);
  v.setUint16(10, version, true);
  v.setUint32(12, 64, true);
  v.setUint16(16, kind, true);
  v.setUint16(18, encoding, true);
  v.setUint32(20, crc32(meta), true);
  v.setBigUint64(24, 64n, true);
  v.setBigUint64(32, BigInt(metadataLen), true);
  v.setBigUint64(40, BigInt(bodyOffset), true);
  v.setBigUint64(48, BigInt(bodyLen), true);
  v.setUint32(56, 0, true);
  v.setUint32(60, crc32(h, 0, 60), true);
  return h;
}

const bodyOffset = (metadataLen) => Math.ceil((64 + metadataLen) / 64) * 64;

/** A whole file: header, metadata, zero padding, body. */
function file(meta, body) {
  const offset = bodyOffset(meta.length);
  const out = new Uint8Array(offset + body.length);
  out.set(header(meta, meta.length, offset, body.length));
  out.set(meta, 64);
  out.set(body, offset);
  return out;
}

/** Recomputes the body, metadata and header checksums after a change. */
function reseal(bytes) {
  const v = new DataView(bytes.buffer, bytes.byteOffset);
  const body = u64At(bytes, 40);
  const metaLen = u64At(bytes, 32);
  v.setUint32(56, crc32(bytes, body), true);
  v.setUint32(20, crc32(bytes, 64, 64 + metaLen), true);
  v.setUint32(60, crc32(bytes, 0, 60), true);
  return bytes;
}

const TWO_BY_TWO_BODY = [0x4a, 0x98, 0x50];
const twoByTwo = () => metadata(2, 2, [1, 2, 3, 0], 12, [1, 2, 2, 2, 2, 2, 1], [[0, 3, 2, 1]]);

describe("damaged table files are refused", () => {
  let small; // a 2x3 table slidedb-gen wrote
  let pdb; // 2x3 pattern databases, 3-2
  before(() => {
    small = readBytes(buildTable(DIR, "2x3"));
    pdb = readBytes(buildPatterns(DIR, "2x3", "3-2"));
  });

  test("the built files open and answer", () => {
    const table = openTable(small);
    assert.equal(table.maxDistance, 21);
    assert.equal(openPatterns(pdb).solve("4 5 0 1 2 3").distance, table.distance("4 5 0 1 2 3"));
  });

  test("every header and metadata byte changed is refused on open", () => {
    const body = u64At(small, 40);
    for (let at = 0; at < body; at++) {
      for (const flip of [0x01, 0x80, 0xff]) {
        const damaged = small.slice();
        damaged[at] ^= flip;
        assert.throws(() => openTable(damaged, { verify: false }), SlidedbFormatError, `byte ${at} ^ ${flip}`);
      }
    }
  });

  test("every truncation is refused, and a trailing byte", () => {
    for (let len = 0; len < small.length; len++) {
      assert.throws(
        () => openTable(small.subarray(0, len)),
        (e) => e instanceof SlidedbFormatError && (e.code === "Truncated" || e.code === "BadMagic"),
        `${len}`,
      );
    }
    refused(() => openTable(small.subarray(0, 70)), "Truncated", /the file is truncated: 70 bytes, but \d+ are needed; rebuild it/);
    const longer = new Uint8Array(small.length + 1);
    longer.set(small);
    refused(() => openTable(longer), "TrailingBytes", /header accounts for/);
  });

  test("a changed body byte passes the open without verify, not with it", () => {
    const len = small.length;
    for (const at of [len - 1, len - 50, len - 90]) {
      const damaged = small.slice();
      damaged[at] ^= 0x04;
      openTable(damaged, { verify: false });
      refused(() => openTable(damaged), "Checksum", /^the body checksum does not match \(stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8}\): the file is damaged; rebuild it$/);
      const table = openTable(damaged, { verify: false });
      assert.throws(() => table.verify(), { code: "Checksum", section: "body" });
    }
  });

  test("other files and versions are named", () => {
    refused(() => openTable(new TextEncoder().encode("hello, world, this is not a table at all.....")), "BadMagic", /not a slidedb file/);
    refused(() => openTable(new Uint8Array(0)), "Truncated");
    refused(() => openTable(new ArrayBuffer(0)), "Truncated");
    const newer = small.slice();
    new DataView(newer.buffer).setUint16(10, 4, true);
    refused(() => openTable(newer), "Version", /^format version 4, written by a newer slidedb \(this one reads version 3\): use that slidedb, or rebuild it$/);
    const older = small.slice();
    new DataView(older.buffer).setUint16(10, 1, true);
    refused(() => openTable(older), "Version", /older slidedb.*rebuild it/);
    const mark = small.slice();
    mark[8] = 0xfe;
    mark[9] = 0xff;
    refused(() => openTable(mark), "Endianness", /bad endianness mark 0xfffe \(expected 0xfeff\)/);
    // A file of another kind says what it is.
    refused(() => openTable(pdb), "WrongKind", /^this file is a pattern databases file, not a full distance table: check the path$/);
    refused(() => openPatterns([small]), "WrongKind", /^this file is a full distance table, not a pattern databases file: check the path$/);
    const unknown = reseal(small.slice());
    new DataView(unknown.buffer).setUint16(16, 9, true);
    reseal(unknown);
    refused(() => openTable(unknown), "Kind", /unknown file kind 9/);
    const encoding = small.slice();
    new DataView(encoding.buffer).setUint16(18, 2, true);
    reseal(encoding);
    refused(() => openTable(encoding), "Encoding", /unknown entry encoding 2/);
  });

  test("every metadata byte is under the metadata checksum, for both kinds", () => {
    for (const [bytes, open] of [
      [small, (b) => openTable(b)],
      [pdb, (b) => openPatterns(b)],
    ]) {
      const len = u64At(bytes, 32);
      assert.ok(len > 20);
      for (let at = 64; at < 64 + len; at++) {
        const changed = bytes.slice();
        changed[at] ^= 0x20;
        assert.throws(() => open(changed), { code: "Checksum", section: "metadata" }, `byte ${at}`);
      }
    }
  });

  test("a damaged body that was not verified gives an error, not a path", () => {
    const body = u64At(small, 40);
    for (const fill of [0x00, 0xff, 0x55]) {
      const damaged = small.slice();
      damaged.fill(fill, body);
      const table = openTable(damaged, { verify: false });
      assert.throws(() => table.solve("4 5 0 1 2 3"), (e) => e instanceof SolveError && e.code === "Damaged", `fill ${fill}`);
      assert.throws(() => table.distance("4 5 0 1 2 3"), { code: "Damaged" });
      assert.throws(() => table.count("4 5 0 1 2 3"), { code: "Damaged" });
      assert.throws(() => table.probe("4 5 0 1 2 3"), { code: "Damaged" });
      assert.throws(() => table.solve("4 5 0 1 2 3"), { message: /^the file is damaged at [0-9 ]+: .+; rebuild it$/ });
    }
  });

  test("any damaged body byte never yields a path that is not one to the goal", () => {
    const body = u64At(small, 40);
    const boards = allBoards(6);
    for (let at = body; at < small.length; at += 3) {
      const damaged = small.slice();
      damaged[at] ^= 0x1b;
      const table = openTable(damaged, { verify: false });
      for (const text of boards) {
        let r;
        try {
          r = table.solve(text);
        } catch (e) {
          assert.equal(e.code, "Damaged");
          continue;
        }
        if (!r.solvable) continue;
        let b = parseBoard(text, { size: "2x3" });
        for (const m of r.moves) {
          const cells = Array.from(b.cells);
          const z = b.blank;
          const t = { u: z - 3, d: z + 3, l: z % 3 ? z - 1 : -1, r: z % 3 !== 2 ? z + 1 : -1 }[m];
          assert.ok(t >= 0 && t < 6, `an illegal move in ${r.moves}`);
          cells[z] = cells[t];
          cells[t] = 0;
          b = parseBoard(cells, { size: "2x3" });
        }
        assert.equal(String(b), table.goal);
        assert.ok(r.distance <= table.maxDistance);
      }
    }
  });
});

describe("files encoded by hand", () => {
  test("the hand-encoded 2x2 table opens and solves every board", () => {
    const bytes = file(twoByTwo(), TWO_BY_TWO_BODY);
    refused(() => openTable(bytes), "Checksum"); // its body CRC is left 0
    const table = openTable(bytes, { verify: false });
    assert.equal(table.maxDistance, 6);
    assert.equal(table.solve(table.goal).moves, "");
    assert.equal(table.distance(table.hardest[0]), 6);
    for (const text of allBoards(4)) {
      const r = table.solve(text, { steps: true });
      if (r.solvable) assert.equal(r.steps[r.steps.length - 1], table.goal);
      else assert.equal(r.steps, undefined);
    }
  });

  test("huge metadata lengths are layout errors", () => {
    const meta = twoByTwo();
    for (const len of [(1n << 20n) + 1n, (1n << 63n) - 1n, (1n << 64n) - 64n, (1n << 64n) - 1n]) {
      const h = header(meta, 0, bodyOffset(meta.length), 3);
      new DataView(h.buffer).setBigUint64(32, len, true);
      new DataView(h.buffer).setUint32(60, crc32(h, 0, 60), true);
      const bytes = new Uint8Array(64 + meta.length);
      bytes.set(h);
      bytes.set(meta, 64);
      refused(() => openTable(bytes), "Layout", /metadata length/);
    }
  });

  test("offsets and lengths near 2^64 are errors", () => {
    const meta = twoByTwo();
    const offset = BigInt(bodyOffset(meta.length));
    const max = (1n << 64n) - 1n;
    for (const [at, len] of [
      [offset, max],
      [offset, max - offset],
      [offset, max - offset + 1n],
      [max, 3n],
      [max - 63n, 3n],
      [0n, 3n],
    ]) {
      const h = header(meta, meta.length, 0, 0);
      const v = new DataView(h.buffer);
      v.setBigUint64(40, at, true);
      v.setBigUint64(48, len, true);
      v.setUint32(60, crc32(h, 0, 60), true);
      const bytes = new Uint8Array(Number(offset) + 3);
      bytes.set(h);
      bytes.set(meta, 64);
      assert.throws(
        () => openTable(bytes),
        (e) => e instanceof SlidedbFormatError && (e.code === "Layout" || e.code === "Truncated"),
        `${at} ${len}`,
      );
    }
  });

  test("a valid header over garbage metadata is a metadata error", () => {
    for (const meta of [
      new Array(40).fill(0xff),
      new Array(40).fill(0),
      [253, 255, 255, 255, 255, 255, 255, 255, 255],
      [0, 2, 2, 253, 0, 0, 0, 0, 0, 0, 0, 16],
      [0, 2, 2, 4, 1, 2, 3, 0, 12, 252, 255, 255, 255, 255],
      [2, 0xc3, 0x28, 2, 2],
    ]) {
      refused(() => openTable(file(Uint8Array.from(meta), [0, 0, 0])), "Metadata", /^bad metadata: .*: the file is damaged; rebuild it$/);
    }
  });

  test("metadata that contradicts itself is an error", () => {
    const withTrailing = Uint8Array.from([...twoByTwo(), 0]);
    const cases = [
      [withTrailing, /1 bytes after the metadata/],
      [metadata(1, 4, [1, 2, 3, 0], 12, [1, 11], [[1, 2, 0, 3]]), /goal: size: no board of 1x4/],
      [metadata(5, 5, [1, 2, 3, 0], 12, [1, 11], [[1, 2, 0, 3]]), /full tables go up to 14 cells/],
      [metadata(2, 2, [1, 0, 3, 0], 12, [1, 11], [[1, 2, 0, 3]]), /goal: the board has 2 blanks/],
      [metadata(2, 2, [1, 2, 9, 0], 12, [1, 11], [[1, 2, 0, 3]]), /goal: tile 9 is out of range/],
      [metadata(2, 2, [1, 2, 3, 0], 13, [1, 12], [[1, 2, 0, 3]]), /13 states, but a 2x2 board has 12/],
      [metadata(2, 2, [1, 2, 3, 0], 12, [1, 10], [[1, 2, 0, 3]]), /layer counts add up to 11, not 12/],
      [metadata(2, 2, [1, 2, 3, 0], 12, [1, (1n << 64n) - 1n, 12], [[1, 2, 0, 3]]), /layer counts overflow/],
      [metadata(2, 2, [1, 2, 3, 0], 12, [1, 0, 11], [[1, 2, 0, 3]]), /or a layer is empty/],
      [metadata(2, 2, [1, 2, 3, 0], 12, [], [[1, 2, 0, 3]]), /layer counts add up to 0/],
      [metadata(2, 2, [1, 2, 3, 0], 12, [1, 11], []), /0 hardest states listed/],
      [metadata(2, 2, [1, 2, 3, 0], 12, [1, 10, 1], [[1, 2, 0, 3], [1, 0, 2, 3]]), /2 hardest states listed, for a last layer of 1/],
      [metadata(2, 2, [1, 2, 3, 0], 12, [1, 11], [[2, 1, 3, 0]]), /a hardest state cannot reach the goal/],
      [metadata(2, 2, [1, 2, 3, 0], 12, [1, 11], [[2, 1, 3]]), /hardest state: 3 cells given/],
      // Indexed goals that are not the goal's canonical goal.
      [metadata(2, 2, [1, 2, 3, 0], 12, [1, 2, 2, 2, 2, 2, 1], [[0, 3, 2, 1]], [3, 2, 1, 0]), /the indexed goal 3 2 1 0 \(2x2\) is not the canonical goal 1 2 3 0 of goal 1 2 3 0/],
      [metadata(2, 2, [1, 2, 3, 0], 12, [1, 2, 2, 2, 2, 2, 1], [[0, 3, 2, 1]], [2, 1, 3, 0]), /indexed goal/],
      [metadata(2, 2, [1, 2, 3, 0], 12, [1, 2, 2, 2, 2, 2, 1], [[0, 3, 2, 1]], [1, 2, 0, 3]), /indexed goal/],
    ];
    for (const [meta, message] of cases) refused(() => openTable(file(meta, [0, 0, 0])), "Metadata", message);
    // A body of the wrong length for the states.
    refused(() => openTable(file(twoByTwo(), [0, 0])), "Layout", /body of 2 bytes, but 12 states need 3/);
    // Larger than any table slidedb writes: refused before the body matters.
    const goal15 = [...Array.from({ length: 15 }, (_, i) => i + 1), 0];
    refused(() => openTable(file(metadata(4, 4, goal15, 10461394944000n, [1, 10461394943999n], [goal15]), [0, 0, 0])), "Metadata", /size 4x4: full tables go up to 14 cells/);
  });

  test("a garbage body gives damage errors, never a wrong path", () => {
    for (const body of [
      [0, 0, 0],
      [0xff, 0xff, 0xff],
      [0x55, 0x55, 0x55],
      [0xaa, 0xaa, 0xaa],
      [0x4a, 0x98, 0x00],
      [0x4a, 0x98, 0x51],
      [0x4b, 0x98, 0x50],
    ]) {
      const table = openTable(file(twoByTwo(), body), { verify: false });
      for (const text of allBoards(4)) {
        for (const query of ["solve", "probe", "count"]) {
          let r;
          try {
            r = table[query](text);
          } catch (e) {
            assert.equal(e.code, "Damaged", `${e}`);
            continue;
          }
          if (query === "solve" && r.solvable) {
            let b = parseBoard(text);
            for (const m of r.moves) {
              const z = b.blank;
              const t = { u: z - 2, d: z + 2, l: z % 2 ? z - 1 : -1, r: z % 2 ? -1 : z + 1 }[m];
              assert.ok(t >= 0 && t < 4);
              const cells = Array.from(b.cells);
              cells[z] = cells[t];
              cells[t] = 0;
              b = parseBoard(cells);
            }
            assert.equal(String(b), table.goal);
            assert.ok(r.distance <= table.maxDistance);
          }
        }
      }
    }
  });
});

describe("damaged pattern database files are refused", () => {
  let bytes;
  before(() => {
    bytes = readBytes(buildPatterns(DIR, "2x4", "4-3"));
  });

  test("truncations, and a flipped body byte by verify", () => {
    for (let len = 0; len < bytes.length; len += 97) {
      assert.throws(() => openPatterns(bytes.subarray(0, len)), SlidedbFormatError, `${len}`);
    }
    const damaged = bytes.slice();
    damaged[damaged.length - 1] ^= 0x40;
    openPatterns(damaged, { verify: false });
    refused(() => openPatterns(damaged), "Checksum", /body checksum/);
  });

  test("sealed but wrong files: the goal's entry, the layer counts, groups out of order", () => {
    const body = u64At(bytes, 40);
    // Group 1 is tiles 1 2 3 4, home in cells 0 1 2 3: rank 0.
    const home = bytes.slice();
    home[body] = 1;
    reseal(home);
    refused(() => openPatterns(home), "Layout", /group 1's entry for the goal is 1, not 0/);
    const other = bytes.slice();
    other[body + 100] ^= 4;
    reseal(other);
    openPatterns(other, { verify: false });
    refused(() => openPatterns(other), "Metadata", /entries are not spread as its layer counts say/);
    const metaLen = u64At(bytes, 32);
    const meta = bytes.subarray(64, 64 + metaLen);
    let at = -1;
    for (let i = 0; i + 5 <= meta.length; i++) {
      if ([4, 1, 2, 3, 4].every((b, k) => meta[i + k] === b)) {
        at = i;
        break;
      }
    }
    assert.ok(at >= 0, "the first group's bytes: its length, then its tiles");
    const swapped = bytes.slice();
    swapped[64 + at + 1] = 2;
    swapped[64 + at + 2] = 1;
    reseal(swapped);
    refused(() => openPatterns(swapped), "Metadata", /group \[2, 1, 3, 4\] is not ascending/);
  });
});
