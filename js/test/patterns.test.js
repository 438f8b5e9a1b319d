// Pattern databases and IDA*: Korf's first 20 15-puzzles through the 5-5-5
// files reach their published optimal lengths by legal moves, with the
// very moves and node counts of the Rust search on one thread; every 4x4
// goal class, and small boards with one to eight views, answer as the
// command line does; a search stops at its budget or its signal.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";

import { SearchStoppedError, SolveError, applyMoves, openPatterns, parseBoard } from "../src/index.js";
import { KORF_GOAL, buildPatterns, dataDir, korf100, randomBoards, readBytes, runCli } from "../support/helpers.js";

const DIR = dataDir();
/** The Rust searches on one thread: the node counts of one thread, and the other core left to the JS. */
const ONE_THREAD = { RAYON_NUM_THREADS: "1" };

/** The Rust search's moves and nodes on one thread (`slidedb compare`). */
async function rustSearch(file, goal, size, board) {
  const lines = await runCli(DIR, ["compare", "--pdb", file, "--goal", goal, "--size", size, "--algos", "table", board], [], ONE_THREAD);
  const row = lines.find((l) => l.startsWith("table ") && /\d/.test(l.split(/\s+/)[1]) && l.split(/\s+/).length > 5);
  const [, length, , expanded, generated] = row.trim().split(/\s+/);
  const moves = lines.filter((l) => l.startsWith("table ")).pop().trim().split(/\s+/)[1];
  return { length: Number(length), expanded: Number(expanded), generated: Number(generated), moves };
}

/** The record without its stats, as `slidedb solve --json` prints it. */
const withoutStats = ({ stats, ...record }) => record;

/** A board `steps` random moves from `goal` (never undoing the last). */
function walkFrom(goal, size, steps, seed) {
  let state = seed;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 16) % 4;
  let board = parseBoard(goal, { size });
  let last = -1;
  let made = 0;
  while (made < steps) {
    const m = next();
    if (last >= 0 && (m ^ 1) === last) continue;
    const moved = applyMoves(board, "udlr"[m]);
    if (!moved) continue;
    board = moved[1];
    last = m;
    made++;
  }
  return String(board);
}

describe("the 15-puzzle through 5-5-5 databases", () => {
  let file;
  let pdb;
  before(() => {
    file = buildPatterns(DIR, "4x4", "5-5-5");
    pdb = openPatterns([readBytes(file)]);
  });

  test("Korf's first 20 at their published lengths, by the Rust search's moves and nodes", async () => {
    const instances = korf100().slice(0, 20);
    assert.equal(korf100().reduce((s, i) => s + i.length, 0), 5305);
    // The command line runs while the JS searches.
    const solved = runCli(
      DIR,
      ["solve", "--json", "--pdb", file, "--goal", KORF_GOAL, "--size", "4x4"],
      instances.map((i) => i.board),
      ONE_THREAD,
    );
    const nodes = (async () => {
      const out = [];
      for (const i of instances) out.push(await rustSearch(file, KORF_GOAL, "4x4", i.board));
      return out;
    })();
    const found = instances.map((i) => {
      const r = pdb.solve(i.board, { goal: KORF_GOAL });
      assert.equal(r.distance, i.length, `#${i.id}`);
      const path = applyMoves(parseBoard(i.board), r.moves);
      assert.ok(path, `#${i.id}: an illegal move`);
      assert.equal(String(path[path.length - 1]), KORF_GOAL, `#${i.id}`);
      assert.ok(pdb.estimate(i.board, { goal: KORF_GOAL }) <= i.length);
      assert.equal(r.stats.bound, i.length);
      return r;
    });
    const lines = await solved;
    found.forEach((r, k) => assert.equal(JSON.stringify(withoutStats(r)), lines[k], `#${instances[k].id}`));
    const rust = await nodes;
    found.forEach((r, k) => {
      assert.equal(r.moves, rust[k].moves, `#${instances[k].id}`);
      assert.deepEqual([r.stats.expanded, r.stats.generated], [rust[k].expanded, rust[k].generated], `#${instances[k].id}`);
    });
  });

  test("the goal itself, an unsolvable board, steps, and goals of another class", () => {
    const goal = pdb.solve(KORF_GOAL, { goal: KORF_GOAL });
    assert.deepEqual([goal.distance, goal.moves, goal.stats.expanded], [0, "", 0]);
    const swapped = "0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15";
    assert.deepEqual(pdb.solve(swapped, { goal: KORF_GOAL }), {
      board: swapped,
      goal: KORF_GOAL,
      solvable: false,
      distance: null,
      moves: null,
      stats: null,
    });
    assert.equal(pdb.distance(swapped, { goal: KORF_GOAL }), null);
    const r = pdb.solve("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", { steps: true });
    assert.deepEqual([r.moves, r.steps], ["r", ["1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", pdb.goal]]);
    assert.throws(() => pdb.solve(KORF_GOAL, { goal: "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15" }), {
      name: "SolveError",
      code: "OtherClass",
      message:
        "goal 1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 is not served by a file built for goal 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0 (another class of goals)",
    });
    assert.throws(() => pdb.solve("1 2 3 4 5 6 7 8 0", { goal: "1 2 3 4 5 6 7 8 0" }), {
      name: "SolveError",
      code: "OtherClass",
      message: /^goal 1 2 3 4 5 6 7 8 0 is not served by a file built for goal 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0/,
    });
    assert.ok(SolveError);
    assert.throws(() => pdb.solve(parseBoard("1 2 3 4 5 6 7 8 0")), { code: "WrongShape", message: "the board is 3x3 but the goal is 4x4" });
    assert.deepEqual(pdb.shape, { rows: 4, cols: 4 });
    assert.deepEqual(pdb.groups, [
      [1, 2, 5, 6, 9],
      [3, 4, 7, 8, 12],
      [10, 11, 13, 14, 15],
    ]);
  });

  test("a search stops at its node budget or its signal, and the next one is whole", () => {
    const hard = korf100()[2]; // #3: millions of nodes, past both stops below
    assert.throws(
      () => pdb.solve(hard.board, { goal: KORF_GOAL, maxNodes: 100_000 }),
      (e) => e instanceof SearchStoppedError && e.name === "SearchBudgetError" && e.stats.expanded === 100_000 && /budget/.test(e.message),
    );
    const controller = new AbortController();
    const seen = [];
    assert.throws(
      () =>
        pdb.solve(hard.board, {
          goal: KORF_GOAL,
          signal: controller.signal,
          onProgress: (stats) => {
            seen.push(stats.expanded);
            controller.abort();
          },
        }),
      (e) => e instanceof SearchStoppedError && e.name === "AbortError" && e.stats.expanded === 2 * 65536,
    );
    assert.deepEqual(seen, [65536]);
    assert.throws(() => pdb.distance(hard.board, { goal: KORF_GOAL, signal: controller.signal }), { name: "AbortError" });
    // The state the stopped searches left is whole: the same answer as before.
    const first = korf100()[0];
    const r = pdb.solve(first.board, { goal: KORF_GOAL, maxNodes: 5_000_000 });
    assert.equal(r.distance, first.length);
    assert.deepEqual([r.stats.expanded, r.stats.generated], [659619, 1245592]);
  });
});

describe("the 15-puzzle through 6-6-3 databases", () => {
  test("Korf's first 5: their lengths, and the Rust search's moves and nodes", async () => {
    const file = buildPatterns(DIR, "4x4", "6-6-3");
    const pdb = openPatterns(readBytes(file));
    assert.deepEqual(pdb.groups.map((g) => g.length), [6, 6, 3]);
    for (const i of korf100().slice(0, 5)) {
      const rust = rustSearch(file, KORF_GOAL, "4x4", i.board);
      const r = pdb.solve(i.board, { goal: KORF_GOAL });
      assert.equal(r.distance, i.length, `#${i.id}`);
      const want = await rust;
      assert.deepEqual([r.moves, r.stats.expanded, r.stats.generated], [want.moves, want.expanded, want.generated], `#${i.id}`);
    }
  });
});

describe("every 4x4 goal class, through its own databases", () => {
  const goals = {
    corner: KORF_GOAL,
    edge: "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
    centre: "1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15",
  };
  const files = {};
  before(() => {
    files.corner = buildPatterns(DIR, "4x4", "5-5-5");
    files.edge = buildPatterns(DIR, "4x4", "5-5-5", goals.edge);
    files.centre = buildPatterns(DIR, "4x4", "5-5-5", goals.centre);
  });

  test("boards 40 moves from each goal: the Rust search's answers, one set of files for all", async () => {
    const all = openPatterns([files.corner, files.edge, files.centre].map(readBytes));
    assert.equal(all.databases.length, 3);
    let seed = 1;
    for (const [name, goal] of Object.entries(goals)) {
      const boards = Array.from({ length: 6 }, () => walkFrom(goal, "4x4", 40, seed++));
      const lines = await runCli(DIR, ["solve", "--json", "--pdb", files[name], "--goal", goal, "--size", "4x4"], boards);
      boards.forEach((board, k) => {
        const r = all.solve(board, { goal });
        assert.ok(r.distance <= 40);
        assert.equal(JSON.stringify(withoutStats(r)), lines[k], `${name} ${board}`);
      });
      const rust = await rustSearch(files[name], goal, "4x4", boards[0]);
      const r = all.solve(boards[0], { goal });
      assert.deepEqual([r.stats.expanded, r.stats.generated], [rust.expanded, rust.generated], name);
    }
  });
});

describe("small boards: one view (2x4), two (3x3 corner) and eight (3x3 centre)", () => {
  for (const [size, sizes, goal] of [
    ["2x4", "4-3", "1 2 3 4 5 6 7 0"],
    ["3x3", "4-4", "0 1 2 3 4 5 6 7 8"],
    ["3x3", "4-4", "1 2 3 4 0 5 6 7 8"],
  ]) {
    test(`${size} toward ${goal}: the Rust search's answers and nodes`, async () => {
      const file = buildPatterns(DIR, size, sizes, goal);
      const pdb = openPatterns(readBytes(file));
      const n = parseBoard(goal, { size }).cells.length;
      const boards = randomBoards(n, 1000, 7);
      const lines = await runCli(DIR, ["solve", "--json", "--pdb", file, "--goal", goal, "--size", size], boards);
      boards.forEach((board, k) => {
        assert.equal(JSON.stringify(withoutStats(pdb.solve(board, { goal }))), lines[k], board);
      });
      for (const board of boards.filter((b, k) => JSON.parse(lines[k]).solvable).slice(0, 3)) {
        const rust = await rustSearch(file, goal, size, board);
        const r = pdb.solve(board, { goal });
        assert.deepEqual([r.moves, r.stats.expanded, r.stats.generated], [rust.moves, rust.expanded, rust.generated], board);
      }
    });
  }
});
