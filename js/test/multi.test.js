// The multi-tile metric (a move slides the blank any number of cells along
// its row or column), against the Rust library through its command line:
// tables built by `slidedb-gen --metric multi`, every 2x3 board and a
// seeded sample of 3x3 boards toward goals of several classes; the JS
// solve, distance, probe and count give the very JSON lines `slidedb
// solve|probe|count --json` prints (with `metric` and `slides`), and the moves are legal and
// reach the goal in `distance` slides.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { SplitMix64, openTable, parseBoard } from "../src/index.js";
import { allBoards, buildTable, compare, dataDir, randomBoards, readBytes, runCli, seq, walk } from "../support/helpers.js";

const DIR = dataDir();

const CASES = [
  { size: "2x3", boards: () => allBoards(6), goals: [seq(6, 5), seq(6, 0), seq(6, 1), "5 3 1 4 0 2"] },
  { size: "3x2", boards: () => allBoards(6), goals: [seq(6, 5), seq(6, 2)] },
  { size: "3x3", boards: () => randomBoards(9, 5000, 37), goals: [seq(9, 8), seq(9, 4), seq(9, 1), seq(9, 0)] },
];

describe("a multi-tile table says its metric", () => {
  test("metric is multi, and a single-tile table's single", () => {
    assert.equal(openTable(readBytes(buildTable(DIR, "2x3", seq(6, 5), "multi"))).metric, "multi");
    assert.equal(openTable(readBytes(buildTable(DIR, "2x3", seq(6, 5)))).metric, "single");
  });
});

for (const c of CASES) {
  describe(`${c.size} in the multi-tile metric: the JS answers are the Rust library's`, () => {
    for (const goal of c.goals) {
      test(`toward ${goal}: solve, distance, probe and count`, async () => {
        const boards = c.boards();
        const file = buildTable(DIR, c.size, goal, "multi");
        const table = openTable(readBytes(file));
        assert.equal(table.metric, "multi");
        const base = ["--json", "--metric", "multi", "--table", file, "--size", c.size, "--goal", goal];
        const cli = Promise.all([
          runCli(DIR, ["solve", ...base, "--steps"], boards),
          runCli(DIR, ["probe", ...base], boards),
          runCli(DIR, ["count", ...base], boards),
        ]);
        const goalText = String(parseBoard(goal, { size: c.size }));
        const solves = boards.map((text) => table.solve(text, { goal, steps: true }));
        let slid = 0;
        for (let i = 0; i < boards.length; i++) {
          const r = solves[i];
          assert.equal(table.distance(boards[i], { goal }), r.distance, `distance of ${boards[i]}`);
          if (!r.solvable) continue;
          assert.equal(walk(parseBoard(boards[i], { size: c.size }), r.moves), goalText, `the moves of ${boards[i]}`);
          assert.equal(r.slides.length, r.distance);
          assert.equal(r.slides.join(""), r.moves);
          if (r.slides.some((s) => s.length > 1)) slid++;
        }
        assert.ok(slid > 0, "some solution slides more than one cell");
        const probes = boards.map((text) => table.probe(text, { goal }));
        const counts = boards.map((text) => table.count(text, { goal }));
        const [solveLines, probeLines, countLines] = await cli;
        compare("solve", boards, solves, solveLines);
        compare("probe", boards, probes, probeLines);
        compare("count", boards, counts, countLines);
      });
    }
  });
}

describe("3x3 in the multi-tile metric: layers, random boards and stats are the Rust library's", () => {
  for (const goal of [seq(9, 8), seq(9, 4)]) {
    test(`toward ${goal}`, async () => {
      const file = buildTable(DIR, "3x3", goal, "multi");
      const table = openTable(readBytes(file));
      const base = ["--json", "--metric", "multi", "--table", file, "--size", "3x3", "--goal", goal];
      for (const distance of [1, 3, 12, table.maxDistance]) {
        const lines = await runCli(DIR, ["layer", String(distance), ...base], []);
        assert.deepEqual(table.layer(distance, { goal }), lines.map((l) => JSON.parse(l).board), `layer ${distance}`);
        const seed = 2000 + distance;
        const drawn = await runCli(DIR, ["random", ...base, "--distance", String(distance), "--seed", String(seed), "--count", "10"], []);
        const rng = new SplitMix64(seed);
        for (const line of drawn) {
          const board = table.random({ distance, rng, goal });
          assert.equal(board, JSON.parse(line).board, `random --distance ${distance}`);
          assert.equal(table.distance(board, { goal }), distance);
        }
      }
      const [stats] = await runCli(DIR, ["stats", ...base], []);
      assert.equal(JSON.stringify(table.stats({ goal })), stats);
    });
  }
});
