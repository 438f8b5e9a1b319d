// The board's eight symmetries, goal classes and their canonical goals,
// and moving boards and moves through a symmetry: how one file serves
// every goal of its class (FORMAT.md, "Goals and the indexed goal";
// src/symmetry.rs).

import { Board, DOWN, LEFT, RIGHT, UP, trustedBoard, shapeName } from "./board.js";

/**
 * A symmetry of an R×C board onto itself or onto its transpose: flip the
 * rows, flip the columns, then transpose, each or not. Symmetry `k` (0 to
 * 7) flips the rows if `k & 1`, the columns if `k & 2`, and transposes if
 * `k & 4`, the order the Rust `Symmetry::all` lists them in.
 */
export class Symmetry {
  /**
   * @param {{rows: number, cols: number}} from the shape it maps from
   * @param {number} k 0 to 7
   */
  constructor(from, k) {
    this.from = { rows: from.rows, cols: from.cols };
    this.k = k;
    this.flipRows = (k & 1) !== 0;
    this.flipCols = (k & 2) !== 0;
    this.transpose = (k & 4) !== 0;
    /** The shape it maps onto. */
    this.to = this.transpose ? { rows: from.cols, cols: from.rows } : { rows: from.rows, cols: from.cols };
    const n = from.rows * from.cols;
    /** `cells[c]`: where cell `c` goes. */
    this.cells = new Uint8Array(n);
    for (let c = 0; c < n; c++) this.cells[c] = this.cell(c);
  }

  /** Where `cell` of the first shape goes. @param {number} cell */
  cell(cell) {
    const { rows, cols } = this.from;
    let r = Math.floor(cell / cols);
    let c = cell % cols;
    if (this.flipRows) r = rows - 1 - r;
    if (this.flipCols) c = cols - 1 - c;
    return this.transpose ? c * rows + r : r * cols + c;
  }

  /** Whether it is the identity. */
  isIdentity() {
    return this.k === 0;
  }

  /**
   * The board with every tile moved to its cell's image.
   * @param {Board} board @returns {Board}
   */
  board(board) {
    const n = board.cells.length;
    const out = new Uint8Array(n);
    for (let c = 0; c < n; c++) out[this.cells[c]] = board.cells[c];
    return trustedBoard(this.to.rows, this.to.cols, out, this.cells[board.blank]);
  }

  /** The move (0 up, 1 down, 2 left, 3 right) that is the image of `move`. @param {number} move */
  move(move) {
    let m = move;
    if (this.flipRows && (m === UP || m === DOWN)) m ^= 1;
    if (this.flipCols && (m === LEFT || m === RIGHT)) m ^= 1;
    if (this.transpose) m = m === UP ? LEFT : m === LEFT ? UP : m === DOWN ? RIGHT : DOWN;
    return m;
  }

  /** The symmetry that undoes this one: the first of the target shape's eight that does. */
  inverse() {
    const n = this.from.rows * this.from.cols;
    for (const s of allSymmetries(this.to)) {
      let ok = true;
      for (let c = 0; c < n && ok; c++) ok = s.cells[this.cells[c]] === c;
      if (ok) return s;
    }
    throw new Error("every symmetry has an inverse");
  }
}

/**
 * The eight symmetries of `shape`, in the Rust order: four onto itself,
 * four onto its transpose.
 * @param {{rows: number, cols: number}} shape @returns {Symmetry[]}
 */
export function allSymmetries(shape) {
  const out = [];
  for (let k = 0; k < 8; k++) out.push(new Symmetry(shape, k));
  return out;
}

/**
 * How a goal maps onto its class's canonical goal: a symmetry, then a
 * renaming of the tiles (the Rust `GoalClass`). The canonical goal has the
 * tiles 1, 2, … in reading order on the shape among R×C and C×R with no
 * more rows than columns, the blank in the largest cell a symmetry carries
 * the goal's blank to. A file's body is laid out by its canonical goal;
 * every goal of the class is answered through its class.
 *
 * @example
 * const cls = goalClass(parseBoard("0 1 2 3 4 5 6 7 8"));
 * String(cls.canonical); // "1 2 3 4 5 6 7 8 0"
 */
export class GoalClass {
  /** @param {Board} goal */
  constructor(goal) {
    const shape = { rows: goal.rows, cols: goal.cols };
    // The last of the greatest keys, as Rust's `max_by_key` takes it:
    // (a shape with rows <= cols, the blank's image, the identity).
    let best = null;
    let bestKey = null;
    for (const s of allSymmetries(shape)) {
      const key = [s.to.rows <= s.to.cols ? 1 : 0, s.cells[goal.blank], s.isIdentity() ? 1 : 0];
      if (best === null || compareKeys(key, bestKey) >= 0) {
        best = s;
        bestKey = key;
      }
    }
    const to = best.to;
    const n = to.rows * to.cols;
    const blank = best.cells[goal.blank];
    const tiles = new Uint8Array(n);
    for (let c = 0, next = 1; c < n; c++) if (c !== blank) tiles[c] = next++;
    /** The goal asked for. */
    this.goal = goal;
    /** The class's canonical goal (a file's indexed goal). */
    this.canonical = trustedBoard(to.rows, to.cols, tiles, blank);
    /** The symmetry that carries the goal onto the canonical goal's shape. */
    this.symmetry = best;
    const moved = best.board(goal);
    /** `rename[t]`: the canonical tile of the goal's tile `t` (after the symmetry). */
    this.rename = new Uint8Array(n);
    for (let c = 0; c < n; c++) this.rename[moved.cells[c]] = tiles[c];
    /** `unrename[t]`: the goal's tile the canonical goal calls `t`. */
    this.unrename = new Uint8Array(n);
    for (let t = 0; t < n; t++) this.unrename[this.rename[t]] = t;
    const back = best.inverse();
    /** `backCells[c]`: where the canonical shape's cell `c` goes on the goal's shape. */
    this.backCells = back.cells;
    /** `moveBack[m]`: a move toward the canonical goal, seen toward the goal. */
    this.moveBack = Uint8Array.from([0, 1, 2, 3], (m) => back.move(m));
    /** `moveTo[m]`: a move toward the goal, seen toward the canonical goal. */
    this.moveTo = new Uint8Array(4);
    for (let m = 0; m < 4; m++) this.moveTo[this.moveBack[m]] = m;
    /** Whether the goal is its class's canonical goal (no mapping at all). */
    this.isCanonical = sameBoard(goal, this.canonical);
  }

  /** The goal's shape. */
  get shape() {
    return { rows: this.goal.rows, cols: this.goal.cols };
  }

  /**
   * Cells of a board toward the goal, as the cells of the board toward
   * the canonical goal at the same distance, written into `out`.
   * @param {ArrayLike<number>} cells @param {Uint8Array} out @returns {Uint8Array} out
   */
  cellsToCanonical(cells, out) {
    const map = this.symmetry.cells;
    const rename = this.rename;
    for (let c = 0; c < cells.length; c++) out[map[c]] = rename[cells[c]];
    return out;
  }

  /** A board toward the goal, as a board toward the canonical goal. @param {Board} board @returns {Board} */
  toCanonical(board) {
    const out = this.cellsToCanonical(board.cells, new Uint8Array(board.cells.length));
    return trustedBoard(this.canonical.rows, this.canonical.cols, out, this.symmetry.cells[board.blank]);
  }

  /**
   * Cells of a board toward the canonical goal, back as cells toward the
   * goal, written into `out`.
   * @param {ArrayLike<number>} cells @param {Uint8Array} out @returns {Uint8Array} out
   */
  cellsFromCanonical(cells, out) {
    const map = this.backCells;
    const unrename = this.unrename;
    for (let c = 0; c < cells.length; c++) out[map[c]] = unrename[cells[c]];
    return out;
  }

  /** A board toward the canonical goal, back as a board toward the goal. @param {Board} board @returns {Board} */
  fromCanonical(board) {
    const out = this.cellsFromCanonical(board.cells, new Uint8Array(board.cells.length));
    return trustedBoard(this.goal.rows, this.goal.cols, out, this.backCells[board.blank]);
  }

  /** Whether `other` is of the same class (the same canonical goal). @param {GoalClass} other */
  sameClass(other) {
    return sameBoard(this.canonical, other.canonical);
  }
}

/**
 * The class of `goal` (see {@link GoalClass}).
 * @param {Board} goal @returns {GoalClass}
 */
export function goalClass(goal) {
  return new GoalClass(goal);
}

/** Whether two boards are equal: shape and cells. @param {Board} a @param {Board} b */
export function sameBoard(a, b) {
  if (a.rows !== b.rows || a.cols !== b.cols) return false;
  for (let i = 0; i < a.cells.length; i++) if (a.cells[i] !== b.cells[i]) return false;
  return true;
}

function compareKeys(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/**
 * The symmetries of the goal's shape onto itself that keep its blank in
 * place, in the Rust order: the identity and the mirrors IDA* looks
 * through (src/pdb/ida.rs).
 * @param {Board} goal @returns {Symmetry[]}
 */
export function mirrors(goal) {
  return allSymmetries(goal).filter(
    (s) => s.to.rows === goal.rows && s.to.cols === goal.cols && s.cells[goal.blank] === goal.blank,
  );
}

export { shapeName };
