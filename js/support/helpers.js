// Shared by the tests: the Rust binaries (built once if missing), a data
// folder of this test file's own under the system's temporary folder,
// tables and pattern databases built there once per run, the command
// line run once over a whole batch of boards, and the checks of the JS
// answers against its lines (boards, moves played, records compared).

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The package's folder (js/). */
export const JS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The Rust project's folder. */
export const REPO_DIR = path.resolve(JS_DIR, "..");

/** The folder of the `slidedb` and `slidedb-gen` binaries. */
export function binDir() {
  return process.env.SLIDEDB_BIN_DIR
    ? path.resolve(process.env.SLIDEDB_BIN_DIR)
    : path.join(REPO_DIR, "target", "release");
}

let checked = false;

/** The path of a binary, building the binaries once if they are missing. */
export function bin(name) {
  const dir = binDir();
  const file = path.join(dir, name);
  if (!checked) {
    const missing = ["slidedb", "slidedb-gen"].some((b) => !fs.existsSync(path.join(dir, b)));
    if (missing) {
      if (process.env.SLIDEDB_BIN_DIR) throw new Error(`no ${name} in SLIDEDB_BIN_DIR ${dir}`);
      const built = spawnSync("cargo", ["build", "--release", "--bins"], { cwd: REPO_DIR, stdio: "inherit" });
      if (built.status !== 0) throw new Error("cargo build --release --bins failed");
    }
    checked = true;
  }
  return file;
}

/**
 * A data folder of this test file's own under the system's temporary
 * folder, removed when the process exits.
 */
export function dataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "slidedb-js-test-"));
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const built = new Map();

function slug(text) {
  return text.trim().split(/[\s,/]+/).join("-");
}

/**
 * Builds (once per run) a full table of `size` toward `goal` (the default
 * goal when none) with `slidedb-gen --size S [--goal G] --out FILE`, and
 * returns the file's path.
 */
export function buildTable(dir, size, goal, metric = "single") {
  const tail = metric === "single" ? "" : `-${metric}`;
  const file = path.join(dir, `${size}${goal ? "-" + slug(goal) : ""}${tail}.slidedb`);
  if (!built.has(file)) {
    const args = ["--size", size, "--out", file, "--quiet"];
    if (goal) args.push("--goal", goal);
    if (metric !== "single") args.push("--metric", metric);
    const run = spawnSync(bin("slidedb-gen"), args, { encoding: "utf8", env: cliEnv(dir) });
    if (run.status !== 0) throw new Error(`slidedb-gen ${args.join(" ")} failed: ${run.stderr}`);
    built.set(file, true);
  }
  return file;
}

/** Builds (once per run) pattern databases with `slidedb-gen --size S --pdb SIZES`. */
export function buildPatterns(dir, size, sizes, goal) {
  const file = path.join(dir, `${size}${goal ? "-" + slug(goal) : ""}-pdb-${sizes}.slidedb`);
  if (!built.has(file)) {
    const args = ["--size", size, "--pdb", sizes, "--out", file, "--quiet"];
    if (goal) args.push("--goal", goal);
    const run = spawnSync(bin("slidedb-gen"), args, { encoding: "utf8", env: cliEnv(dir) });
    if (run.status !== 0) throw new Error(`slidedb-gen ${args.join(" ")} failed: ${run.stderr}`);
    built.set(file, true);
  }
  return file;
}

function cliEnv(dir) {
  return { ...process.env, SLIDEDB_DATA: dir };
}

/**
 * Starts `slidedb ARGS` with `lines` on stdin (one board a line), its
 * stdout going to a file (so that it runs on while this process computes),
 * and resolves to its stdout's lines. Exit status 0 or 1 (some board
 * unsolvable) is an answer; any other fails.
 */
export function runCli(dir, args, lines, extraEnv = {}, alsoOk = []) {
  return new Promise((resolve, reject) => {
    const stem = path.join(dir, `cli-${process.pid}-${Math.random().toString(36).slice(2)}`);
    fs.writeFileSync(`${stem}.in`, lines.length ? lines.join("\n") + "\n" : "");
    const input = fs.openSync(`${stem}.in`, "r");
    const output = fs.openSync(`${stem}.out`, "w");
    const env = { ...process.env, SLIDEDB_DATA: dir, ...extraEnv };
    const child = spawn(bin("slidedb"), [...args, "--data", dir], { stdio: [input, output, "pipe"], env });
    const err = [];
    child.stderr.on("data", (b) => err.push(b));
    child.on("error", reject);
    child.on("close", (code) => {
      fs.closeSync(input);
      fs.closeSync(output);
      const text = fs.readFileSync(`${stem}.out`, "utf8");
      fs.rmSync(`${stem}.in`, { force: true });
      fs.rmSync(`${stem}.out`, { force: true });
      if (code !== 0 && code !== 1 && !alsoOk.includes(code)) {
        reject(new Error(`slidedb ${args.join(" ")} exited ${code}: ${Buffer.concat(err).toString().slice(0, 2000)}`));
        return;
      }
      const result = text.split("\n");
      if (result[result.length - 1] === "") result.pop();
      resolve(result);
    });
  });
}

/** The bytes of a file, as a Uint8Array over an ArrayBuffer of its own. */
export function readBytes(file) {
  return new Uint8Array(fs.readFileSync(file));
}

/** Every placement of k distinct cells among 0 .. n−1 (arrays), in lexicographic order. */
export function* placements(n, k) {
  const cur = [];
  const used = new Array(n).fill(false);
  function* walk() {
    if (cur.length === k) {
      yield cur.slice();
      return;
    }
    for (let c = 0; c < n; c++) {
      if (used[c]) continue;
      used[c] = true;
      cur.push(c);
      yield* walk();
      cur.pop();
      used[c] = false;
    }
  }
  yield* walk();
}

/** Every arrangement of the cells 0 .. n−1 (both parities), in lexicographic order. */
export function allBoards(n) {
  return Array.from(placements(n, n), (cells) => cells.join(" "));
}

/** `count` uniformly random arrangements of n cells (both parities), from `seed` (a 32-bit generator, for speed). */
export function randomBoards(n, count, seed) {
  let state = seed >>> 0;
  const rng = {
    // mulberry32
    below(k) {
      state = (state + 0x6d2b79f5) >>> 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 15), z | 1);
      z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
      return Math.floor((((z ^ (z >>> 14)) >>> 0) / 4294967296) * k);
    },
  };
  const out = [];
  const cells = new Array(n);
  for (let k = 0; k < count; k++) {
    for (let i = 0; i < n; i++) cells[i] = i;
    for (let i = n - 1; i >= 1; i--) {
      const j = rng.below(i + 1);
      const t = cells[i];
      cells[i] = cells[j];
      cells[j] = t;
    }
    out.push(cells.join(" "));
  }
  return out;
}

/** Korf's 100 instances: {id, board, length}, goal `0 1 … 15`. */
export function korf100() {
  return fs
    .readFileSync(path.join(JS_DIR, "test", "data", "korf100.txt"), "utf8")
    .trim()
    .split("\n")
    .map((line) => {
      const f = line.trim().split(/\s+/);
      return { id: Number(f[0]), board: f.slice(1, 17).join(" "), length: Number(f[17]) };
    });
}

/** Korf's goal for the 15-puzzle, blank first. */
export const KORF_GOAL = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";

/** The `n` cells' board with the tiles 1 .. n−1 in order and the blank at `blankAt` (text). */
export function seq(n, blankAt) {
  const cells = Array.from({ length: n - 1 }, (_, i) => i + 1);
  cells.splice(blankAt, 0, 0);
  return cells.join(" ");
}

/**
 * Plays the blank's letters on a board (as `parseBoard` reads it): its
 * cells after, as text, or null at an illegal move. In the multi-tile
 * metric a slide is its letters, one a cell.
 */
export function walk(board, moves) {
  const cells = Array.from(board.cells);
  let b = board.blank;
  const cols = board.cols;
  for (const m of moves) {
    let t = -1;
    if (m === "u" && b >= cols) t = b - cols;
    else if (m === "d" && b + cols < cells.length) t = b + cols;
    else if (m === "l" && b % cols !== 0) t = b - 1;
    else if (m === "r" && b % cols !== cols - 1) t = b + 1;
    if (t < 0) return null;
    cells[b] = cells[t];
    cells[t] = 0;
    b = t;
  }
  return cells.join(" ");
}

/**
 * Asserts that the JS records `js` are, one by one, the JSON lines the
 * command line printed for `boards`, to the letter; a mismatch names how
 * many differ and shows the first whole.
 */
export function compare(what, boards, js, lines) {
  assert.equal(lines.length, boards.length, `${what}: the CLI answered ${lines.length} of ${boards.length} boards`);
  const bad = [];
  for (let i = 0; i < boards.length; i++) {
    if (JSON.stringify(js[i]) !== lines[i]) bad.push(i);
  }
  if (bad.length) {
    const i = bad[0];
    assert.deepEqual(js[i], JSON.parse(lines[i]), `${what}: ${bad.length} boards differ, the first ${boards[i]}`);
    assert.fail(`${what}: ${bad.length} boards differ in their JSON text, the first ${boards[i]}:\n${JSON.stringify(js[i])}\n${lines[i]}`);
  }
}
