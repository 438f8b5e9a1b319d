// The goals every file records after its generator (src/goals.rs): the
// goal it was built for and answers toward, and the goal its body is laid
// out by, which must be the canonical goal of the first one's class.

import { boardFromTiles, checkShape, formatBoard, shapeName } from "./board.js";
import { metadataError } from "./format.js";
import { GoalClass, sameBoard } from "./symmetry.js";

/**
 * Reads the metadata fields `rows` to `indexed_goal`.
 * @param {import("./bincode.js").BincodeReader} r
 */
export function readGoals(r) {
  const rows = r.u8("rows");
  const cols = r.u8("cols");
  const goal = r.bytes("goal");
  const indexedRows = r.u8("indexed_rows");
  const indexedCols = r.u8("indexed_cols");
  const indexedGoal = r.bytes("indexed_goal");
  return { rows, cols, goal, indexedRows, indexedCols, indexedGoal };
}

/** The board of `rows` × `cols` with `cells`, or a metadata error naming `what`. */
export function boardOf(rows, cols, cells, what) {
  try {
    checkShape(rows, cols);
  } catch (e) {
    throw metadataError(`${what}: size: ${e.message}`);
  }
  try {
    return boardFromTiles({ rows, cols }, cells);
  } catch (e) {
    throw metadataError(`${what}: ${e.message}`);
  }
}

/**
 * The goal's class, checked: both goals are boards, and the indexed goal is
 * the canonical goal of the goal's class.
 * @param {ReturnType<typeof readGoals>} g @returns {GoalClass}
 */
export function goalsClass(g) {
  const goal = boardOf(g.rows, g.cols, g.goal, "goal");
  const indexed = boardOf(g.indexedRows, g.indexedCols, g.indexedGoal, "indexed goal");
  const cls = new GoalClass(goal);
  if (!sameBoard(cls.canonical, indexed)) {
    throw metadataError(
      `the indexed goal ${formatBoard(indexed)} (${shapeName(indexed)}) is not the canonical goal ${formatBoard(cls.canonical)} of goal ${formatBoard(goal)}`,
    );
  }
  return cls;
}
