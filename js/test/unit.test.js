// Unit tests: parsing every syntax and its faults, formatting, moves and
// parity, CRC-32, bincode varints, the ranks against brute force, the
// goal classes, and the duplicate-move filter.

import assert from "node:assert/strict";
import zlib from "node:zlib";
import { describe, test } from "node:test";

import {
  BincodeReader,
  Board,
  BoardError,
  Indexer,
  allSymmetries,
  applyMove,
  applyMoves,
  boardFromTiles,
  boardRank,
  boardUnrank,
  crc32,
  crc32Update,
  encodeVarint,
  formatBoard,
  goalClass,
  isSolvable,
  parity,
  parseBoard,
  parseShape,
  placementCount,
  placementRank,
  placementUnrank,
  shapeOf,
} from "../src/index.js";
import { REFUSED, buildFilter, duplicateFilter } from "../src/duplicates.js";
import { packedRankTables } from "../src/rank.js";
import { buildTable, dataDir, placements, runCli } from "../support/helpers.js";

const fails = (fn, code) => assert.throws(fn, (e) => e instanceof BoardError && e.code === code, code);

describe("parseBoard", () => {
  test("every written form reads the same", () => {
    const want = "2 3 4 1 5 0 7 6 8";
    for (const text of [
      "2 3 4 1 5 x 7 6 8",
      "23415x768",
      "2,3,4,1,5,_,7,6,8",
      "2, 3, 4, 1, 5, ., 7, 6, 8",
      "234/15X/768",
      "2 3 4 / 1 5 0 / 7 6 8",
      "  2 3 4 1 5 0 7 6 8\t",
      "\ufeff2 3 4 1 5 x 7 6 8",
      "\ufeff234/15x/768",
      "2\u30003 4 1 5 0 7 6 8",
    ]) {
      assert.equal(formatBoard(parseBoard(text)), want, JSON.stringify(text));
    }
    assert.equal(String(parseBoard([2, 3, 4, 1, 5, 0, 7, 6, 8])), want);
    assert.equal(String(parseBoard(Uint8Array.of(2, 3, 4, 1, 5, 0, 7, 6, 8))), want);
    assert.equal(String(parseBoard("7 2 4 / 5 0 6 / 8 3 1")), "7 2 4 5 0 6 8 3 1");
    assert.equal(String(parseBoard("724506831")), "7 2 4 5 0 6 8 3 1");
    assert.equal(String(parseBoard("1,2,3,4,5,6,7,8,0")), "1 2 3 4 5 6 7 8 0");
  });

  test("sizes come from the option, the rows or a square or single count", () => {
    assert.deepEqual(shapeOf("12/34/50"), { rows: 3, cols: 2 });
    assert.deepEqual(parseBoard("123450", { size: "2x3" }).shape, { rows: 2, cols: 3 });
    assert.deepEqual(parseBoard("123450", { shape: { rows: 3, cols: 2 } }).shape, { rows: 3, cols: 2 });
    assert.deepEqual(parseBoard([1, 2, 3, 0]).shape, { rows: 2, cols: 2 });
    assert.deepEqual(parseBoard("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0").shape, { rows: 4, cols: 4 });
    assert.deepEqual(parseBoard("1 2 3 4 5 6 7 8 9 0", { size: "2x5" }).shape, { rows: 2, cols: 5 });
    assert.deepEqual(parseBoard("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 0").shape, { rows: 5, cols: 5 });
    fails(() => parseBoard("1 2 3 4 5 6 7 8 9 10 11 12 13 0"), "AmbiguousSize");
    assert.equal(parseBoard("1 2 3 4 5 6 7 8 9 10 11 0", { size: "3x4" }).cells[10], 11);
    fails(() => parseBoard("123450"), "AmbiguousSize");
    fails(() => parseBoard("12345670"), "AmbiguousSize");
    fails(() => parseBoard([1, 2, 3, 4, 5, 0]), "AmbiguousSize");
    fails(() => parseBoard("12/34/50", { size: "2x3" }), "ShapeMismatch");
    fails(() => parseBoard("12340"), "NoShape");
    assert.throws(() => parseBoard("123450"), { message: "6 cells could be 2x3 or 3x2: give the size, or split the rows with /" });
    assert.throws(() => parseBoard("12340"), {
      message: "5 cells make no board (both sides at least 2, at most 25 cells): check the count, or give the size",
    });
    // One cell, one row of one: the singular, as the library says it.
    assert.throws(() => parseBoard("7"), {
      message: "1 cell makes no board (both sides at least 2, at most 25 cells): check the count, or give the size",
    });
    assert.throws(() => parseBoard("1/2 0"), { message: "rows of unequal length: row 1 has 1 cell, row 2 has 2" });
    assert.throws(() => parseBoard("7", { size: "2x2" }), { message: "1 cell given, but a 2x2 board has 4" });
  });

  test("invalid boards are named", () => {
    const cases = [
      ["", "Empty"],
      ["1 2 3 4 5 6 7 8", "AmbiguousSize"],
      ["1 2 3 4 5 6 7 8 8", "NoBlank"],
      ["1 2 3 4 5 6 7 8 0 9 10 11 12", "NoShape"],
      ["1 2 3 4 5 6 7 7 0", "DuplicateTile"],
      ["1 2 3 4 5 6 7 8 9", "TileOutOfRange"],
      ["1 2 3 4 5 6 7 0 0", "TooManyBlanks"],
      ["1 2 3 4 5 6 7 8 y", "BadCell"],
      ["1 2 3 4 5 6 7 8 00", "BadCell"],
      ["1 2 3 4 5 6 7 08 0", "BadCell"],
      ["1 2 3 4 5 6 7 +8 0", "BadCell"],
      ["1,,2,3,4,5,6,7,0", "EmptyCell"],
      ["12 3,4,5,6,7,8,0", "MixedSeparators"],
      ["123/45/678", "RaggedRows"],
      ["1 2 3 4 5 6 7 8 x x", "TooManyBlanks"],
      ["1 2 3 4 5 6 7 7 9 0", "DuplicateTile"],
      ["1/2/3/4", "UnsupportedSize"],
    ];
    for (const [text, code] of cases) fails(() => parseBoard(text), code);
    assert.throws(() => parseBoard("1 2 3 4 5 6 7 7 9 0"), { message: "tile 7 appears twice" });
    assert.throws(() => parseBoard("1 2 3 4 5 6 7 8 x x"), { message: "the board has 2 blanks; it needs exactly one" });
  });

  test("a number of any length is out of range as written, cut past 40 characters", () => {
    const range = "is out of range: a 3x3 board has tiles 1 to 8";
    for (const digits of [4, 19, 20, 26, 100]) {
      const number = "9".repeat(digits);
      const shown = digits > 40 ? `${"9".repeat(40)}…` : number;
      for (const text of [`${number} 1 2 3 4 5 6 7 0`, `1,2,3,4,5,6,7,${number},0`, `1 2 3 / 4 5 6 / 7 ${number} 0`]) {
        assert.throws(() => parseBoard(text), { code: "TileOutOfRange", message: `tile ${shown} ${range}` }, text);
      }
    }
    assert.throws(() => parseBoard("18446744073709551615 1 2 3 4 5 6 7 0"), { message: `tile 18446744073709551615 ${range}` });
    assert.throws(() => parseBoard("256 1 2 3 4 5 6 7 8 0", { size: "2x5" }), {
      message: "tile 256 is out of range: a 2x5 board has tiles 1 to 9",
    });
    assert.throws(() => parseBoard("1 2 3 4 5 6 7 12345 99999 0", { size: "2x5" }), { message: /^tile 12345 is/ });
    assert.throws(() => parseBoard(`${"y".repeat(100)} 1 2 3 4 5 6 7 0`), {
      message: `"${"y".repeat(40)}…" is not a tile: write tiles as numbers and the blank as 0, x, _ or .`,
    });
  });

  test("hostile text is an error, never a hang", () => {
    const cases = [
      "1 ".repeat(1_000_000),
      "1".repeat(1_000_000),
      "1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/0",
      "999 1 2 0",
      "1 2 3 18446744073709551616",
      "×",
      "\u3000",
      "1,2,3,0 ,",
      "/",
      "0 0 0 0",
      "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15 16",
    ];
    for (const text of cases) {
      assert.throws(() => parseBoard(text), BoardError, text.slice(0, 40));
      assert.throws(() => parseBoard(text, { size: "2x2" }), BoardError, text.slice(0, 40));
    }
    for (const text of ["1x1", "0x9", "9999x2", "2x", "x2", "2x2x2", "+2x2", "18446744073709551617x1", ""]) {
      assert.throws(() => parseShape(text), (e) => e.code === "BadSize" || e.code === "UnsupportedSize", text);
    }
    for (const [text, rows, cols] of [
      ["3x4", 3, 4],
      ["3×4", 3, 4],
      ["3X4", 3, 4],
      [" 2 x 6 ", 2, 6],
      ["5x5", 5, 5],
    ]) {
      assert.deepEqual(parseShape(text), { rows, cols });
    }
  });

  test("the faults are worded as the command line words them", async () => {
    const dir = dataDir();
    const file = buildTable(dir, "3x3");
    const lines = [
      "1 2 3 4 5 6 7 7 0",
      "12345670",
      "1 2 3 4 5 6 7 8 y",
      "123/45/678",
      "1 2 3 4 5 6 7 8 x x",
      "1 2 3 4 5 6 7 8 9",
      "1 2 3 4 5 6 7 0 0",
      "1 2 3 4 5 6 7 8 00",
      "1,,2,3,4,5,6,7,0",
      "12 3,4,5,6,7,8,0",
      "12/34/50",
      "1 2 3 4 5 6 7 8 8",
      "1 2 \"3\" 4",
      "abcdefghijklmnopqrstuvwxyz 1 2",
      "1/2/3/4/5/6/7/8/0",
      "1 2 3 4 5 6 7 8 999",
      "/",
      `${"9".repeat(20)} 1 2 3 4 5 6 7 0`,
      `${"9".repeat(26)} 1 2 3 4 5 6 7 0`,
      `1 2 3 4 5 6 7 8 ${"9".repeat(100)}`,
      `1 2 3 4 5 6 7 8 ${"q".repeat(100)}`,
    ];
    const out = await runCli(dir, ["solve", "--json", "--table", file, "--size", "3x3"], lines, {}, [2]);
    assert.equal(out.length, lines.length);
    lines.forEach((text, i) => {
      const record = JSON.parse(out[i]);
      assert.equal(record.input, text);
      assert.throws(() => parseBoard(text, { size: "3x3" }), { message: record.error }, text);
    });
  });

  test("formatBoard writes the Rust Display", () => {
    assert.equal(formatBoard(parseBoard("1 2 3 4 5 6 7 8 9 10 11 0", { size: "3x4" })), "1 2 3 4 5 6 7 8 9 10 11 0");
    assert.equal(formatBoard("123/456/78x"), "1 2 3 4 5 6 7 8 0");
    assert.equal(JSON.stringify({ b: parseBoard("2 0 1 3") }), '{"b":"2 0 1 3"}');
    assert.equal(new Board(2, 2, [1, 2, 3, 0]).blank, 3);
    assert.throws(() => new Board(2, 2, [1, 1, 3, 0]), { code: "DuplicateTile" });
    assert.throws(() => boardFromTiles({ rows: 1, cols: 4 }, [1, 2, 3, 0]), { code: "UnsupportedSize" });
  });
});

describe("moves and parity", () => {
  test("moves slide the blank", () => {
    const b = parseBoard("1 2 3 4 0 5 6 7 8");
    assert.equal(String(applyMove(b, "u")), "1 0 3 4 2 5 6 7 8");
    assert.equal(String(applyMove(b, "d")), "1 2 3 4 7 5 6 0 8");
    assert.equal(String(applyMove(b, "l")), "1 2 3 0 4 5 6 7 8");
    assert.equal(String(applyMove(b, "r")), "1 2 3 4 5 0 6 7 8");
    const corner = parseBoard("0 1 2 3 4 5 6 7 8");
    assert.equal(applyMove(corner, "u"), null);
    assert.equal(applyMove(corner, "l"), null);
    assert.equal(applyMove(corner, "x"), null);
    assert.equal(String(applyMove("1 2 3 4 5 6 7 8 0", "l")), "1 2 3 4 5 6 7 0 8");
    for (const m of "udlr") {
      const inverse = { u: "d", d: "u", l: "r", r: "l" }[m];
      assert.equal(String(applyMove(applyMove(b, m), inverse)), String(b));
    }
    assert.deepEqual(applyMoves("1 2 3 4 5 6 7 0 8", "r").map(String), ["1 2 3 4 5 6 7 0 8", "1 2 3 4 5 6 7 8 0"]);
    assert.equal(applyMoves("1 2 3 4 5 6 7 8 0", "rr"), null);
  });

  test("parity is kept by moves and splits the boards", () => {
    for (const size of ["2x2", "2x3", "2x4", "3x3", "4x4", "5x5"]) {
      const { rows, cols } = parseShape(size);
      const n = rows * cols;
      const goal = parseBoard([...Array.from({ length: n - 1 }, (_, i) => i + 1), 0], { size });
      let b = goal;
      for (let i = 0; i < 200; i++) {
        const next = applyMove(b, "udlr"[(i * 7 + Math.floor(i / 3)) % 4]);
        if (next) {
          assert.equal(parity(next), parity(goal), size);
          assert.ok(isSolvable(next, goal));
          b = next;
        }
      }
      const swapped = Array.from(goal.cells);
      [swapped[0], swapped[1]] = [swapped[1], swapped[0]];
      assert.ok(!isSolvable(parseBoard(swapped, { size }), goal), size);
    }
    assert.ok(isSolvable("2 3 4 1 5 x 7 6 8", "1 2 3 4 5 6 7 8 0"));
    assert.ok(!isSolvable("2 1 3 4 5 6 7 8 0", "1 2 3 4 5 6 7 8 0"));
    assert.ok(!isSolvable("1 2 3 0", "1 2 3 4 5 6 7 8 0"));
  });
});

describe("CRC-32", () => {
  const text = (s) => new TextEncoder().encode(s);
  test("known vectors", () => {
    assert.equal(crc32(text("")), 0);
    assert.equal(crc32(text("a")), 0xe8b7be43);
    assert.equal(crc32(text("123456789")), 0xcbf43926);
    assert.equal(crc32(text("The quick brown fox jumps over the lazy dog")), 0x414fa339);
    assert.equal(crc32(new Uint8Array(32)), 0x190a55ad);
  });

  // The definition, one bit at a time.
  const bitwise = (bytes) => {
    let c = 0xffffffff;
    for (const b of bytes) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    }
    return ~c >>> 0;
  };

  test("agrees with the bitwise definition (and zlib) on every length and split", () => {
    const bytes = new Uint8Array(5000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + (i >> 5)) & 0xff;
    const reference = typeof zlib.crc32 === "function" ? (b) => zlib.crc32(b) >>> 0 : bitwise;
    for (let len = 0; len < 70; len++) {
      assert.equal(crc32(bytes, 0, len), bitwise(bytes.subarray(0, len)), `${len}`);
      assert.equal(crc32(bytes, 0, len), reference(bytes.subarray(0, len)), `${len}`);
    }
    for (const [a, b] of [
      [0, 5000],
      [3, 4999],
      [17, 1000],
    ]) {
      assert.equal(crc32(bytes, a, b), bitwise(bytes.subarray(a, b)));
      const mid = (a + b) >> 1;
      assert.equal(crc32Update(crc32(bytes, a, mid), bytes, mid, b), crc32(bytes, a, b));
    }
  });
});

describe("bincode", () => {
  const reader = (bytes) => new BincodeReader(Uint8Array.from(bytes));
  test("varints", () => {
    const cases = [
      [0n, [0]],
      [250n, [250]],
      [251n, [251, 251, 0]],
      [65535n, [251, 255, 255]],
      [65536n, [252, 0, 0, 1, 0]],
      [4294967295n, [252, 255, 255, 255, 255]],
      [4294967296n, [253, 0, 0, 0, 0, 1, 0, 0, 0]],
      [(1n << 64n) - 1n, [253, 255, 255, 255, 255, 255, 255, 255, 255]],
    ];
    for (const [value, bytes] of cases) {
      assert.deepEqual(encodeVarint(value), bytes);
      const r = reader(bytes);
      assert.equal(r.u64("v"), value);
      assert.ok(r.atEnd());
    }
    assert.equal(reader([251, 5, 0]).u64("v"), 5n); // not minimal, still read (as bincode does)
    assert.equal(reader([252, 1, 0, 0, 0]).u32("v"), 1);
    assert.throws(() => reader([253, 0, 0, 0, 0, 0, 0, 0, 0]).u32("v"), /64-bit integer/);
    assert.throws(() => reader([254]).u64("v"), /128-bit/);
    assert.throws(() => reader([255]).u64("v"), /reserved/);
    assert.throws(() => reader([252, 1, 0]).u64("v"), /ends 2 bytes short/);
    assert.throws(() => reader([]).u8("v"), /short/);
  });

  test("strings and sequences", () => {
    const r = reader([3, 0x61, 0x62, 0x63, 2, 7, 9, 2, 1, 251, 0, 1]);
    assert.equal(r.string("s"), "abc");
    assert.deepEqual(r.bytes("b"), Uint8Array.of(7, 9));
    assert.deepEqual(r.seq("q", (x) => x.u64("e")), [1n, 256n]);
    assert.ok(r.atEnd());
    assert.throws(() => reader([2, 0xc3, 0x28]).string("s"), /not UTF-8/);
    assert.throws(() => reader([253, 255, 255, 255, 255, 255, 255, 255, 255]).string("s"), /more than/);
    assert.throws(() => reader([5, 1, 2]).bytes("b"), /more than/);
  });
});

describe("ranks", () => {
  // Brute force: the Lehmer rank of the tiles by counting, halved.
  const naiveIndex = (cells) => {
    const n = cells.length;
    const tiles = cells.filter((t) => t !== 0);
    const m = n - 1;
    let lehmer = 0;
    const fact = (k) => (k <= 1 ? 1 : k * fact(k - 1));
    for (let j = 0; j < m; j++) {
      let c = 0;
      for (let k = j + 1; k < m; k++) if (tiles[k] < tiles[j]) c++;
      lehmer += c * fact(m - 1 - j);
    }
    return cells.indexOf(0) * (fact(m) / 2) + Math.floor(lehmer / 2);
  };

  test("the table index is a bijection onto 0 .. cells!/2, as FORMAT.md computes it", () => {
    for (const size of ["2x2", "2x3", "3x2", "2x4", "4x2", "3x3"]) {
      const shape = parseShape(size);
      for (const p of [0, 1]) {
        const ix = new Indexer(shape, p);
        const packed = shape.rows * shape.cols <= 9 ? packedRankTables(ix) : null;
        const cells = new Uint8Array(shape.rows * shape.cols);
        const seen = new Set();
        for (let i = 0; i < ix.len; i++) {
          const blank = ix.unrankInto(i, cells);
          assert.equal(cells[blank], 0);
          assert.equal(parity(parseBoard(cells, { shape })), p);
          assert.equal(ix.rank(cells), i);
          if (i % 7 === 0) assert.equal(naiveIndex(Array.from(cells)), i);
          if (packed) {
            let order = 0;
            for (let c = 0, q = 0; c < cells.length; c++) if (cells[c]) order |= (cells[c] - 1) << (3 * q++);
            assert.equal(blank * ix.perBlank + packed.low[order & 4095] + packed.high[order >>> 12], i);
          }
          seen.add(cells.join(","));
        }
        assert.equal(seen.size, ix.len);
        assert.equal(ix.unrankInto(ix.len, cells), -1);
      }
    }
  });

  test("larger shapes rank and unrank on samples; boardRank covers every size", () => {
    for (const size of ["2x5", "3x4", "4x3", "2x6", "2x7", "3x5", "4x4", "2x8"]) {
      const shape = parseShape(size);
      for (const p of [0, 1]) {
        const ix = new Indexer(shape, p);
        const cells = new Uint8Array(shape.rows * shape.cols);
        const step = Math.floor(ix.len / 3000) + 1;
        for (let i = 0; i < ix.len; i += step) {
          ix.unrankInto(i, cells);
          assert.equal(ix.rank(cells), i, `${size} ${i}`);
          assert.equal(boardRank({ rows: shape.rows, cols: shape.cols, cells }), BigInt(i));
        }
        ix.unrankInto(ix.len - 1, cells);
        assert.equal(ix.rank(cells), ix.len - 1);
      }
    }
    const big = parseBoard("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24");
    const rank = boardRank(big);
    assert.deepEqual(Array.from(boardUnrank(big.shape, parity(big), rank)), Array.from(big.cells));
    const last = boardUnrank({ rows: 4, cols: 5 }, 0, 1216451004088320000n - 1n);
    assert.equal(boardRank({ rows: 4, cols: 5, cells: last }), 1216451004088320000n - 1n);
    assert.equal(boardUnrank({ rows: 4, cols: 5 }, 0, 1216451004088320000n), null);
  });

  test("placement ranks number the placements in lexicographic order", () => {
    assert.equal(placementCount(16, 8), 518918400);
    assert.equal(placementCount(3, 4), 0);
    for (const [n, k] of [
      [6, 3],
      [9, 4],
      [12, 2],
      [16, 1],
      [16, 3],
    ]) {
      let expected = 0;
      for (const cells of placements(n, k)) {
        assert.equal(placementRank(cells, n), expected);
        assert.deepEqual(Array.from(placementUnrank(expected, n, k)), cells);
        expected++;
      }
      assert.equal(expected, placementCount(n, k));
    }
    assert.equal(placementRank([15, 14, 13], 16), placementCount(16, 3) - 1);
  });
});

describe("symmetries and goal classes", () => {
  test("symmetries move moves with the blank", () => {
    for (const size of ["2x3", "3x3", "3x4"]) {
      const shape = parseShape(size);
      const n = shape.rows * shape.cols;
      const goal = parseBoard([...Array.from({ length: n - 1 }, (_, i) => i + 1), 0], { size });
      for (const s of allSymmetries(shape)) {
        const moved = s.board(goal);
        assert.equal(String(s.inverse().board(moved)), String(goal));
        for (let mv = 0; mv < 4; mv++) {
          const after = applyMove(goal, "udlr"[mv]);
          if (after) assert.equal(String(applyMove(moved, "udlr"[s.move(mv)])), String(s.board(after)));
        }
      }
    }
  });

  test("canonical goals", () => {
    assert.equal(String(goalClass(parseBoard("0 1 2 3 4 5 6 7 8")).canonical), "1 2 3 4 5 6 7 8 0");
    assert.equal(String(goalClass(parseBoard("8 7 6 5 0 4 3 2 1")).canonical), "1 2 3 4 0 5 6 7 8");
    assert.equal(String(goalClass(parseBoard("1 0 2 3 4 5 6 7 8")).canonical), "1 2 3 4 5 6 7 0 8");
    const korf = parseBoard("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15");
    assert.equal(String(goalClass(korf).canonical), "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0");
    const tall = goalClass(parseBoard("1 2 3 / 4 5 6 / 7 8 9 / 10 11 0"));
    assert.deepEqual(tall.canonical.shape, { rows: 3, cols: 4 });
    assert.ok(goalClass(parseBoard("1 2 3 4 5 6 7 8 9 10 11 0", { size: "3x4" })).isCanonical);
    const classes = new Set();
    for (let blank = 0; blank < 9; blank++) {
      const tiles = [1, 2, 3, 4, 5, 6, 7, 8];
      tiles.splice(blank, 0, 0);
      classes.add(String(goalClass(parseBoard(tiles)).canonical));
    }
    assert.equal(classes.size, 3);
    // Boards and moves through a class and back.
    const cls = goalClass(korf);
    const near = applyMove(cls.canonical, "l");
    const board = cls.fromCanonical(near);
    assert.equal(String(cls.toCanonical(board)), String(near));
    assert.equal(String(applyMove(board, "udlr"[cls.moveBack[3]])), String(korf));
  });
});

describe("the duplicate-move filter", () => {
  test("it has the Rust filter's states, refuses undos and walks round a square, and keeps a shortest path", () => {
    // src/duplicates.rs: 17,042 states on the 4x4.
    const filter = duplicateFilter(4, 4);
    assert.equal(filter.states, 17042);
    assert.equal(duplicateFilter(4, 4), filter);
    const run = (start, moves) => {
      let state = start;
      for (const letter of moves) {
        state = filter.next[state * 4 + "udlr".indexOf(letter)];
        if (state === REFUSED) return false;
      }
      return true;
    };
    assert.ok(!run(5, "ud") && !run(5, "lr") && !run(0, "u"));
    assert.ok(!run(5, "rdlurdlurdlu"), "three times round a square");
    assert.ok(run(5, "rdl") && run(0, "rrrddd"));
    // Every board within 10 moves of a 3x3 board is reached, by the moves
    // the filter lets through, in its fewest moves.
    const small = buildFilter(3, 3, 10);
    for (let start = 0; start < 9; start++) {
      const distance = new Map();
      let layer = [Array.from({ length: 9 }, (_, c) => c)];
      distance.set(String(layer[0]), 0);
      for (let d = 1; d <= 10; d++) {
        const next = [];
        for (const tiles of layer) {
          const blank = tiles.indexOf(start);
          for (const to of neighbours(blank)) {
            const after = tiles.slice();
            [after[blank], after[to]] = [after[to], after[blank]];
            if (!distance.has(String(after))) {
              distance.set(String(after), d);
              next.push(after);
            }
          }
        }
        layer = next;
      }
      const reached = new Map();
      const walk = (tiles, blank, state, d) => {
        const key = String(tiles);
        if (!reached.has(key) || reached.get(key) > d) reached.set(key, d);
        if (d === 10) return;
        for (let mv = 0; mv < 4; mv++) {
          const to = small.next[state * 4 + mv];
          if (to === REFUSED) continue;
          const cell = [blank - 3, blank + 3, blank - 1, blank + 1][mv];
          const after = tiles.slice();
          [after[blank], after[cell]] = [after[cell], after[blank]];
          walk(after, cell, to, d + 1);
        }
      };
      walk(Array.from({ length: 9 }, (_, c) => c), start, start, 0);
      assert.deepEqual([...reached].sort(), [...distance].sort(), `from ${start}`);
    }
  });
});

/** The cells next to `cell` on the 3x3 board. */
function neighbours(cell) {
  const out = [];
  if (cell >= 3) out.push(cell - 3);
  if (cell < 6) out.push(cell + 3);
  if (cell % 3 > 0) out.push(cell - 1);
  if (cell % 3 < 2) out.push(cell + 1);
  return out;
}
