// Conformance against the Rust library, through its command line (which
// prints the library's records): for 2x3, 3x2 and 2x4 every board, for 3x3
// and 3x4 100,000 random boards of both parities, toward several goals of
// every class the shape has, the JS solve, distance, probe and count give
// the very JSON lines `slidedb solve|probe|count --json` prints, and the
// moves are legal and reach the goal. Random boards, layers and stats too.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";

import { SplitMix64, goalClass, openTable, parseBoard } from "../src/index.js";
import { allBoards, buildTable, compare, dataDir, randomBoards, readBytes, runCli, seq, walk } from "../support/helpers.js";

const DIR = dataDir();

/** How many random boards for 3x3 and 3x4 (SLIDEDB_JS_BOARDS overrides). */
const RANDOM = Number(process.env.SLIDEDB_JS_BOARDS ?? 100_000);
/** How many of them are counted on 3x4, where a count walks a 60 MB table (SLIDEDB_JS_COUNTS overrides). */
const COUNTS_3X4 = Number(process.env.SLIDEDB_JS_COUNTS ?? 100_000);

const CASES = [
  // corner, corner blank first (through a symmetry), middle, middle with scrambled names
  { size: "2x3", boards: () => allBoards(6), goals: [seq(6, 5), seq(6, 0), seq(6, 1), "5 3 1 4 0 2"], steps: true },
  { size: "3x2", boards: () => allBoards(6), goals: [seq(6, 5), seq(6, 0), seq(6, 2), "5 1 4 0 3 2"], steps: true },
  { size: "2x4", boards: () => allBoards(8), goals: [seq(8, 7), seq(8, 0), seq(8, 1), seq(8, 6)], steps: true },
  // corner, centre, edge, corner blank first
  { size: "3x3", boards: () => randomBoards(9, RANDOM, 33), goals: [seq(9, 8), seq(9, 4), seq(9, 1), seq(9, 0)], steps: false },
  // corner, top edge, centre, corner blank first
  {
    size: "3x4",
    boards: () => randomBoards(12, RANDOM, 34),
    goals: [seq(12, 11), seq(12, 1), seq(12, 5), seq(12, 0)],
    steps: false,
    counts: COUNTS_3X4,
  },
];

/** The table for `goal`: one already built for a goal of its class, else one built for it. */
function tableFor(size, goal, tables) {
  const cls = goalClass(parseBoard(goal, { size }));
  for (const t of tables) if (t.cls.sameClass(cls)) return t;
  const file = buildTable(DIR, size, goal);
  const t = { cls, file, table: openTable(readBytes(file)) };
  tables.push(t);
  return t;
}

for (const c of CASES) {
  describe(`${c.size}: the JS answers are the Rust library's`, () => {
    const tables = [];
    let boards;
    before(() => {
      boards = c.boards();
      for (const goal of c.goals) tableFor(c.size, goal, tables);
    });

    for (const goal of c.goals) {
      test(`toward ${goal}: solve, distance, probe and count`, async () => {
        const { file, table } = tableFor(c.size, goal, tables);
        const base = ["--json", "--table", file, "--size", c.size, "--goal", goal];
        const counted = boards.slice(0, c.counts ?? boards.length);
        // The command line runs (writing to files) while the JS answers.
        const cli = Promise.all([
          runCli(DIR, ["solve", ...base, ...(c.steps ? ["--steps"] : [])], boards),
          runCli(DIR, ["probe", ...base], boards),
          runCli(DIR, ["count", ...base], counted),
        ]);
        const goalBoard = parseBoard(goal, { size: c.size });
        const goalText = String(goalBoard);
        const solves = [];
        let solvable = 0;
        for (const text of boards) {
          const r = table.solve(text, { goal, steps: c.steps });
          solves.push(r);
          const d = table.distance(text, { goal });
          assert.equal(d, r.distance, `distance of ${text}`);
          if (r.solvable) {
            solvable++;
            assert.equal(walk(parseBoard(text, { size: c.size }), r.moves), goalText, `the moves of ${text}`);
            assert.ok(r.distance <= table.maxDistance);
          }
        }
        assert.ok(solvable > boards.length * 0.45 && solvable < boards.length * 0.55, "both parities");
        const probes = boards.map((text) => table.probe(text, { goal }));
        const counts = counted.map((text) => table.count(text, { goal }));
        const [solveLines, probeLines, countLines] = await cli;
        compare("solve", boards, solves, solveLines);
        compare("probe", boards, probes, probeLines);
        compare("count", counted, counts, countLines);
        // Every probe agrees with the solve: distance, and its first move optimal.
        for (let i = 0; i < boards.length; i++) {
          const p = probes[i];
          if (!p.solvable || p.distance === 0) continue;
          const first = p.moves.find((m) => m.move === solves[i].moves[0]);
          assert.ok(first && first.optimal && first.distance === p.distance - 1, boards[i]);
        }
      });
    }
  });
}

describe("3x3: random boards, layers and stats are the Rust library's", () => {
  const goals = ["1 2 3 4 5 6 7 8 0", "0 1 2 3 4 5 6 7 8", "1 2 3 4 0 5 6 7 8"];
  const tables = [];
  before(() => goals.forEach((g) => tableFor("3x3", g, tables)));

  for (const goal of goals) {
    test(`toward ${goal}`, async () => {
      const { file, table } = tableFor("3x3", goal, tables);
      const base = ["--json", "--table", file, "--size", "3x3", "--goal", goal];
      for (const distance of [0, 1, 5, 20, 26, table.maxDistance]) {
        const seed = 1000 + distance;
        const lines = await runCli(DIR, ["random", ...base, "--distance", String(distance), "--seed", String(seed), "--count", "20"], []);
        const rng = new SplitMix64(seed);
        const js = [];
        for (let i = 0; i < 20; i++) {
          const board = table.random({ distance, rng, goal });
          js.push({ board, goal, distance });
          assert.equal(table.distance(board, { goal }), distance);
        }
        compare(`random --distance ${distance}`, js, js, lines);
      }
      // A range, and among all boards.
      const ranged = await runCli(DIR, ["random", ...base, "--min", "10", "--max", "12", "--seed", "5", "--count", "10"], []);
      const rng = new SplitMix64(5);
      ranged.forEach((line) => {
        const board = table.random({ min: 10, max: 12, rng, goal });
        assert.equal(JSON.parse(line).board, board);
      });
      const any = await runCli(DIR, ["random", ...base, "--seed", "6", "--count", "10"], []);
      const rng2 = new SplitMix64(6);
      any.forEach((line) => assert.equal(JSON.parse(line).board, table.random({ rng: rng2, goal })));
      // Whole layers, in index order.
      for (const distance of [3, 30, table.maxDistance]) {
        const lines = await runCli(DIR, ["layer", String(distance), ...base], []);
        assert.deepEqual(table.layer(distance, { goal }), lines.map((l) => JSON.parse(l).board));
      }
      const [stats] = await runCli(DIR, ["stats", ...base], []);
      assert.equal(JSON.stringify(table.stats({ goal })), stats);
    });
  }
});

describe("3x4: random boards are the Rust library's", () => {
  test("common distances, drawn by rejection", async () => {
    const goal = seq(12, 11);
    const file = buildTable(DIR, "3x4", goal);
    const table = openTable(readBytes(file));
    const base = ["--json", "--table", file, "--size", "3x4", "--goal", goal];
    for (const [distance, seed] of [
      [35, 7],
      [40, 8],
    ]) {
      const lines = await runCli(DIR, ["random", ...base, "--distance", String(distance), "--seed", String(seed), "--count", "5"], []);
      const rng = new SplitMix64(seed);
      lines.forEach((line) => {
        const board = table.random({ distance, rng });
        assert.equal(JSON.parse(line).board, board, `distance ${distance}`);
        assert.equal(table.distance(board), distance);
      });
    }
    // A rare shallow distance is drawn from its listed boards (the Rust
    // library lists every rare layer of 3x4 first, seconds of work: not
    // compared here; 3x3 compares the listed draws).
    const rng = new SplitMix64(3);
    for (let i = 0; i < 5; i++) assert.equal(table.distance(table.random({ distance: 12, rng })), 12);
    // A rare deep distance is beyond what this reader lists: an error, not a wrong board.
    assert.throws(() => table.random({ distance: table.maxDistance, seed: 1 }), { name: "SolveError", code: "TooRare" });
  });
});
