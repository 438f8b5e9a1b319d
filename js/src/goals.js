// The goals every file records after its generator (src/goals.rs): the
// goal it was built for and answers toward, and the goal its body is laid
// out by, which must be the canonical goal of the first one's class.

import { Board, boardFromTiles, checkShape, formatBoard, parseOther, shapeName } from "./board.js";
import { SolveError } from "./errors.js";
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

/** The most goals a reader keeps read. */
const GOALS_KEPT = 256;

/**
 * The goals a reader is asked toward, each read and classed once: `serve`
 * turns a goal's class (and the goal as read) into what the reader keeps
 * for it, or throws (a goal the reader does not serve is read again the
 * next time it is asked).
 * @template T
 */
export class AskedGoals {
  /**
   * @param {{rows: number, cols: number}} shape the reader's (a goal in text is read as one)
   * @param {(cls: GoalClass, goal: Board) => T} serve
   */
  constructor(shape, serve) {
    this._shape = shape;
    this._serve = serve;
    /** @type {Map<string, T>} */
    this._kept = new Map();
  }

  /** What `serve` gave for `goal` (text, a Board or cells). @returns {T} */
  get(goal) {
    let key;
    if (typeof goal === "string") key = goal;
    else if (goal instanceof Board) key = `${goal.rows}x${goal.cols}:${goal.cells.join(" ")}`;
    else key = `[${Array.from(goal).join(",")}]`;
    let kept = this._kept.get(key);
    if (kept === undefined) {
      const board = parseOther(goal, this._shape);
      kept = this._serve(new GoalClass(board), board);
      if (this._kept.size >= GOALS_KEPT) this._kept.clear();
      this._kept.set(key, kept);
    }
    return kept;
  }
}

/** The refusal of `goal`, of another class than the file's goal `served` (text). */
export function otherClass(goal, served) {
  return new SolveError(
    "OtherClass",
    `goal ${formatBoard(goal)} is not served by a file built for goal ${served} (another class of goals)`,
    { goal: formatBoard(goal), served },
  );
}

/**
 * The metric a metadata's last byte names (src/goals.rs `metric_of`):
 * `"single"` for 0, `"multi"` for 1 (a move slides the blank any number of
 * cells along its row or column); any other byte is a metadata fault.
 * @param {number} byte @returns {"single" | "multi"}
 */
export function metricName(byte) {
  if (byte === 0) return "single";
  if (byte === 1) return "multi";
  throw metadataError(`unknown metric ${byte} (0 is the single-tile metric, 1 the multi-tile metric)`);
}
