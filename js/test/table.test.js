// The table's API: its properties, the answers the Rust documentation
// gives, the forms a goal and a board may take, the faults of a goal or a
// board that does not fit, and goals of the transposed shape.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";

import { Board, SolveError, goalClass, openTable, parseBoard } from "../src/index.js";
import { allBoards, buildTable, dataDir, readBytes, runCli } from "../support/helpers.js";

const DIR = dataDir();
const KORF9 = "0 1 2 3 4 5 6 7 8";

describe("a 3x3 table", () => {
  let table;
  before(() => {
    table = openTable(readBytes(buildTable(DIR, "3x3")).buffer);
  });

  test("its properties", () => {
    assert.deepEqual(table.shape, { rows: 3, cols: 3 });
    assert.equal(table.goal, "1 2 3 4 5 6 7 8 0");
    assert.equal(table.indexedGoal, "1 2 3 4 5 6 7 8 0");
    assert.equal(table.states, 181440);
    assert.equal(table.maxDistance, 31);
    assert.deepEqual(table.layers.slice(0, 3), [1, 2, 4]);
    assert.equal(table.layers.reduce((a, b) => a + b), 181440);
    assert.deepEqual(table.hardest, ["6 4 7 8 5 0 3 2 1", "8 6 7 2 5 4 3 0 1"]);
    assert.match(table.generator, /^slidedb /);
    assert.ok(Math.abs(table.meanDistance - 21.97) < 0.01);
  });

  test("the answers the Rust documentation gives", () => {
    assert.equal(table.distance("8 6 7 2 5 4 3 0 1"), 31);
    assert.equal(table.distance("2 1 3 4 5 6 7 8 0"), null);
    assert.deepEqual(table.solve("1 2 3 4 5 6 7 0 8"), {
      board: "1 2 3 4 5 6 7 0 8",
      goal: "1 2 3 4 5 6 7 8 0",
      solvable: true,
      distance: 1,
      moves: "r",
    });
    assert.deepEqual(table.solve("2 1 3 4 5 6 7 8 0", { steps: true }), {
      board: "2 1 3 4 5 6 7 8 0",
      goal: "1 2 3 4 5 6 7 8 0",
      solvable: false,
      distance: null,
      moves: null,
    });
    assert.equal(table.solve(table.goal).moves, "");
    const probe = table.probe("2 3 4 1 5 x 7 6 8");
    assert.equal(probe.distance, 19);
    assert.deepEqual(
      probe.moves.map((m) => [m.move, m.distance, m.optimal]),
      [
        ["u", 18, true],
        ["d", 18, true],
        ["l", 18, true],
      ],
    );
    const atGoal = table.probe(KORF9, { goal: KORF9 });
    assert.equal(atGoal.distance, 0);
    assert.ok(atGoal.moves.every((m) => m.distance === 1 && !m.optimal));
    assert.equal(table.count("1 2 3 4 5 6 7 8 0").count, 1);
    assert.equal(table.count("2 3 4 1 5 x 7 6 8").count, 4);
    assert.equal(table.count("8 6 7 2 5 4 3 0 1").count, 40);
    assert.equal(table.count("2 1 3 4 5 6 7 8 0").count, null);
    assert.equal(table.count("7 2 4 5 0 6 8 3 1", { goal: KORF9 }).count, 3);
    assert.equal(table.distance("7 2 4 5 0 6 8 3 1", { goal: KORF9 }), 26);
    assert.equal(table.solve("1 0 2 3 4 5 6 7 8", { goal: KORF9 }).moves, "l");
    assert.deepEqual(table.layer(31), ["6 4 7 8 5 0 3 2 1", "8 6 7 2 5 4 3 0 1"]);
    assert.deepEqual(table.layer(1, { goal: KORF9 }).sort(), ["1 0 2 3 4 5 6 7 8", "3 1 2 0 4 5 6 7 8"]);
    assert.deepEqual(table.layer(32), []);
    assert.equal(table.random({ distance: 32, seed: 1 }), null);
    const drawn = table.random({ distance: 20, seed: 7, goal: KORF9 });
    assert.equal(table.distance(drawn, { goal: KORF9 }), 20);
    assert.ok(["8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"].includes(table.random({ distance: "max", seed: 9 })));
  });

  test("the count is exact in numbers and in BigInts alike", () => {
    for (const text of ["8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1", "2 3 4 1 5 x 7 6 8"]) {
      const board = parseBoard(text);
      const d = table.distance(board);
      const index = table._ix.rank(board.cells);
      assert.equal(BigInt(table._countPaths(index, d, false)), table._countPaths(index, d, true));
    }
  });

  test("goals and boards in every form", () => {
    const board = "7 2 4 5 0 6 8 3 1";
    const want = table.solve(board, { goal: KORF9 });
    for (const goal of [KORF9, "0,1,2/3,4,5/6,7,8", [0, 1, 2, 3, 4, 5, 6, 7, 8], parseBoard(KORF9), "_12345678"]) {
      assert.deepEqual(table.solve(board, { goal }), want, String(goal));
      assert.deepEqual(table.solve(parseBoard(board), { goal }), want);
      assert.deepEqual(table.solve([7, 2, 4, 5, 0, 6, 8, 3, 1], { goal }), want);
      assert.equal(table.distance(board, { goal }), 26);
    }
  });

  test("goals of another class or size, boards of another size", () => {
    assert.throws(() => table.solve("1 2 3 4 5 6 7 8 0", { goal: "1 2 3 4 0 5 6 7 8" }), {
      name: "SolveError",
      code: "OtherClass",
      message: "goal 1 2 3 4 0 5 6 7 8 is not served by a file built for goal 1 2 3 4 5 6 7 8 0 (another class of goals)",
    });
    assert.throws(() => table.distance("1 2 3 0", { goal: "1 2 3 0" }), { code: "OtherClass" });
    assert.throws(() => table.distance(parseBoard("1 2 3 0")), (e) => e instanceof SolveError && e.code === "WrongShape" && e.message === "the board is 2x2 but the goal is 3x3");
    assert.throws(() => table.distance("1 2 3 0"), { name: "BoardError", code: "WrongCellCount" });
    assert.throws(() => table.distance(new Board(2, 2, [1, 2, 3, 0]), { goal: KORF9 }), { code: "WrongShape" });
  });
});

describe("a 2x3 table serves the goals of 3x2 (its transpose)", () => {
  test("every 3x2 board toward two 3x2 goals, as the command line answers", async () => {
    const file = buildTable(DIR, "2x3");
    const table = openTable(readBytes(file));
    const boards = allBoards(6).map((b) => b.split(" ").reduce((rows, t, i) => rows + (i && i % 2 === 0 ? " / " : " ") + t, "").trim());
    for (const goal of ["1 2 / 3 4 / 5 0", "0 1 / 2 3 / 4 5"]) {
      assert.ok(goalClass(parseBoard(goal)).sameClass(goalClass(parseBoard("1 2 3 / 4 5 0"))));
      for (const command of ["solve", "probe", "count"]) {
        const lines = await runCli(DIR, [command, "--json", "--table", file, "--goal", goal], boards);
        boards.forEach((board, k) => {
          assert.equal(JSON.stringify(table[command](board, { goal })), lines[k], `${command} ${board} toward ${goal}`);
        });
      }
    }
  });
});
