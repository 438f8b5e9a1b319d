// The damaged files of tests/data/damaged/ (made by the Rust test
// tests/integration/damaged.rs), each refused with the exact message its
// manifest gives: the words of the one table of faults (src/faults.js, the
// Rust library's `FileFault`), the same in every front end.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";

import { FAULTS, SlidedbFormatError, openPatterns, openTable } from "../src/index.js";

const FOLDER = fileURLToPath(new URL("../../tests/data/damaged/", import.meta.url));
const manifest = JSON.parse(readFileSync(FOLDER + "manifest.json", "utf8"));

describe("the damaged files are refused in the library's words", () => {
  test("the manifest lists a file for every fault of the table", () => {
    const faults = new Set(manifest.files.map((f) => f.fault));
    assert.deepEqual([...faults].sort(), Object.keys(FAULTS).sort());
  });

  for (const row of manifest.files) {
    test(`${row.file}: ${row.fault}`, () => {
      const bytes = readFileSync(FOLDER + row.file);
      const open = row.opens === "table" ? () => openTable(bytes) : () => openPatterns(bytes);
      assert.throws(open, (e) => {
        assert.ok(e instanceof SlidedbFormatError, `${e}`);
        assert.equal(e.message, row.message);
        assert.equal(e.code, row.code);
        assert.equal(e.code, FAULTS[row.fault].code);
        assert.ok(e.message.endsWith(FAULTS[row.fault].joiner + FAULTS[row.fault].advice), e.message);
        return true;
      });
    });
  }
});
