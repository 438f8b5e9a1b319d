// Benchmarks (figures printed, nothing asserted):
//   1. distance() on 1,000,000 random 3x3 boards (boards a second);
//   2. solve() of a 31-move 3x3 board (microseconds a solve, many runs);
//   3. Korf's 100 15-puzzles by IDA* through the 6-6-3 databases (total
//      time, nodes a second);
//   4. the duplicate-move filter's build (its states, and the time) for
//      4x4 and 5x5, which a page pays on its first pattern search.
// The files are built with slidedb-gen into a temporary folder (or read
// from SLIDEDB_BENCH_DATA if it holds them; set it to keep them between runs).
//
//   node bench/bench.mjs            # everything
//   node bench/bench.mjs 3x3        # the table figures only
//   node bench/bench.mjs korf [N]   # the first N of Korf's 100 only
//   node bench/bench.mjs filter     # the filter's build only

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { buildFilter, MAX_LENGTH } from "../src/duplicates.js";
import { SplitMix64, openPatterns, openTable, parseBoard, randomBoard } from "../src/index.js";

const JS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = process.env.SLIDEDB_BIN_DIR ?? path.join(JS_DIR, "..", "target", "release");
const keep = process.env.SLIDEDB_BENCH_DATA;
const DIR = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), "slidedb-js-bench-"));
if (!keep) process.on("exit", () => fs.rmSync(DIR, { recursive: true, force: true }));
fs.mkdirSync(DIR, { recursive: true });

function built(name, args) {
  const file = path.join(DIR, name);
  if (!fs.existsSync(file)) {
    const t0 = performance.now();
    const run = spawnSync(path.join(BIN, "slidedb-gen"), [...args, "--out", file, "--quiet"], {
      stdio: "inherit",
      env: { ...process.env, SLIDEDB_DATA: DIR },
    });
    if (run.status !== 0) throw new Error(`slidedb-gen ${args.join(" ")} failed`);
    console.log(`built ${name} in ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  }
  return new Uint8Array(fs.readFileSync(file));
}

const fmt = (n) => n.toLocaleString("en-US", { maximumFractionDigits: 2 });
const [which = "all", arg] = process.argv.slice(2);

console.log(`node ${process.version}, ${os.cpus()[0]?.model ?? "cpu"} (${os.availableParallelism()} threads)`);

if (which === "all" || which === "3x3") {
  const bytes = built("3x3.slidedb", ["--size", "3x3"]);
  let t0 = performance.now();
  const table = openTable(bytes);
  console.log(`open (checks and the body's CRC-32): ${fmt(performance.now() - t0)} ms`);

  // 1. distance on 1,000,000 random boards (drawn toward the goal, as the Rust `random_board`).
  const goal = parseBoard(table.goal);
  const rng = new SplitMix64(1);
  const N = 1_000_000;
  const boards = new Array(N);
  for (let i = 0; i < N; i++) boards[i] = randomBoard(goal, rng);
  for (let round = 1; round <= 3; round++) {
    t0 = performance.now();
    let sum = 0;
    for (let i = 0; i < N; i++) sum += table.distance(boards[i]);
    const s = (performance.now() - t0) / 1000;
    console.log(`distance, ${fmt(N)} random 3x3 boards (Board objects), round ${round}: ${fmt(s)} s, ${fmt(N / s)} boards/s (mean ${fmt(sum / N)} moves)`);
  }
  const texts = boards.slice(0, 200_000).map(String);
  t0 = performance.now();
  for (const text of texts) table.distance(text);
  let s = (performance.now() - t0) / 1000;
  console.log(`distance, ${fmt(texts.length)} boards as text (parsed each time): ${fmt(texts.length / s)} boards/s`);
  t0 = performance.now();
  for (let i = 0; i < 200_000; i++) table.distance(boards[i], { goal: "0 1 2 3 4 5 6 7 8" });
  s = (performance.now() - t0) / 1000;
  console.log(`distance toward another goal of the class (0 1 … 8): ${fmt(200_000 / s)} boards/s`);

  // 2. solve of a 31-move board.
  const hardest = parseBoard("8 6 7 2 5 4 3 0 1");
  const RUNS = 200_000;
  for (const [label, input] of [
    ["a Board", hardest],
    ["text", "8 6 7 2 5 4 3 0 1"],
  ]) {
    for (let i = 0; i < 10_000; i++) table.solve(input);
    t0 = performance.now();
    for (let i = 0; i < RUNS; i++) table.solve(input);
    const us = ((performance.now() - t0) * 1000) / RUNS;
    console.log(`solve of the 31-move board 8 6 7 2 5 4 3 0 1 (${label}), ${fmt(RUNS)} runs: ${fmt(us)} µs a solve`);
  }
  t0 = performance.now();
  for (let i = 0; i < 20_000; i++) table.count(hardest);
  console.log(`count of the same board (40 solutions): ${fmt(((performance.now() - t0) * 1000) / 20_000)} µs a count`);
}

if (which === "all" || which === "korf") {
  const bytes = built("4x4-pdb-6-6-3.slidedb", ["--size", "4x4", "--pdb", "6-6-3"]);
  let t0 = performance.now();
  const pdb = openPatterns([bytes]);
  console.log(`open 6-6-3 (checks, CRC-32 and layer recount of ${fmt(bytes.length / 1e6)} MB): ${fmt(performance.now() - t0)} ms`);
  const lines = fs.readFileSync(path.join(JS_DIR, "test", "data", "korf100.txt"), "utf8").trim().split("\n");
  const count = Number(arg ?? lines.length);
  const korfGoal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
  let expanded = 0;
  let generated = 0;
  let moves = 0;
  t0 = performance.now();
  for (const line of lines.slice(0, count)) {
    const f = line.trim().split(/\s+/);
    const r = pdb.solve(f.slice(1, 17).join(" "), { goal: korfGoal });
    if (r.distance !== Number(f[17])) throw new Error(`#${f[0]}: ${r.distance} moves, published ${f[17]}`);
    expanded += r.stats.expanded;
    generated += r.stats.generated;
    moves += r.distance;
  }
  const s = (performance.now() - t0) / 1000;
  console.log(
    `Korf's ${count} through 6-6-3 (toward 0 1 … 15): ${fmt(s)} s, ${fmt(moves)} moves in all (all optimal), ` +
      `${fmt(generated)} nodes generated (${fmt(generated / count)} an instance), ${fmt(expanded)} expanded; ` +
      `${fmt(generated / s / 1e6)} M generated/s, ${fmt(expanded / s / 1e6)} M expanded/s`,
  );
}

if (which === "all" || which === "filter") {
  // 4. The filter's build, one fresh build each (no cache).
  for (const [rows, cols] of [
    [4, 4],
    [5, 5],
  ]) {
    const t0 = performance.now();
    const filter = buildFilter(rows, cols, MAX_LENGTH);
    console.log(`duplicate filter, ${rows}x${cols}, sequences of up to ${MAX_LENGTH} moves: ${fmt(filter.states)} states in ${fmt(performance.now() - t0)} ms`);
  }
}
