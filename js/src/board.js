// Boards, shapes and moves: parsing every syntax slidedb's command line
// reads, formatting as the Rust `Display` writes, moves of the blank,
// parity and solvability. The rules and the faults are those of the Rust
// `Board::parse`, `Board::from_tiles` and `Shape::from_str` (src/board.rs).

import { BoardError, debugString } from "./errors.js";
import { counted } from "./words.js";

/** The most cells a board holds (5×5). */
export const MAX_CELLS = 25;

/** The move letters in the order the solvers try them: the blank goes up, down, left, right. */
export const MOVES = "udlr";

// Move codes: 0 up, 1 down, 2 left, 3 right; `m ^ 1` is the inverse.
export const UP = 0;
export const DOWN = 1;
export const LEFT = 2;
export const RIGHT = 3;

// Unicode White_Space, what Rust's `char::is_whitespace` and `str::trim` take.
const WS = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const TRIM = new RegExp(`^[${WS}]+|[${WS}]+$`, "g");
const HAS_WS = new RegExp(`[${WS}]`);
const SPLIT_WS = new RegExp(`[${WS}]+`);

/** @param {string} s */
function rustTrim(s) {
  return s.replace(TRIM, "");
}

/**
 * A board: a shape and a tile in every cell, `0` for the blank, cells in
 * reading order. Made by {@link parseBoard} (or {@link applyMove}); its
 * `cells` must not be changed. `String(board)` is {@link formatBoard}.
 *
 * @example
 * const b = parseBoard("2 3 4 1 5 x 7 6 8");
 * b.rows; b.cols; b.blank; // 3 3 5
 * String(b); // "2 3 4 1 5 0 7 6 8"
 */
export class Board {
  /**
   * A checked board (see {@link boardFromTiles}): every tile 1 to
   * cells − 1 once and one blank.
   * @param {number} rows
   * @param {number} cols
   * @param {ArrayLike<number>} cells
   */
  constructor(rows, cols, cells) {
    const board = boardFromTiles({ rows, cols }, cells);
    this.rows = board.rows;
    this.cols = board.cols;
    this.cells = board.cells;
    this.blank = board.blank;
  }

  /** The board's size, `{rows, cols}`. */
  get shape() {
    return { rows: this.rows, cols: this.cols };
  }

  /** The cells split by single spaces, blank `0`, as the Rust `Display` writes them. */
  toString() {
    return formatBoard(this);
  }

  /** As JSON, the board's string. */
  toJSON() {
    return formatBoard(this);
  }
}

/**
 * A board from checked parts, with no checks (the library's own boards).
 * @param {number} rows @param {number} cols @param {Uint8Array} cells @param {number} blank
 * @returns {Board}
 */
export function trustedBoard(rows, cols, cells, blank) {
  const b = Object.create(Board.prototype);
  b.rows = rows;
  b.cols = cols;
  b.cells = cells;
  b.blank = blank;
  return b;
}

/** `RxC`. @param {{rows: number, cols: number}} shape */
export function shapeName(shape) {
  return `${shape.rows}x${shape.cols}`;
}

/**
 * Checks a shape: both sides at least 2, at most 25 cells (Rust `Shape::new`).
 * @param {number} rows @param {number} cols
 * @returns {{rows: number, cols: number}}
 */
export function checkShape(rows, cols) {
  if (!(Number.isInteger(rows) && Number.isInteger(cols)) || rows < 2 || cols < 2 || rows * cols > MAX_CELLS) {
    throw new BoardError(
      "UnsupportedSize",
      `no board of ${rows}x${cols}: both sides must be at least 2 and the board at most ${MAX_CELLS} cells`,
    );
  }
  return { rows, cols };
}

/**
 * Reads a size: `"RxC"` (also `R×C` or `RXC`), such as `"3x3"` or
 * `"2x6"`, or an object `{rows, cols}`; checks it as the Rust `Shape` does.
 *
 * @example
 * parseShape("3x4"); // {rows: 3, cols: 4}
 * parseShape("1x9"); // throws BoardError "no board of 1x9: ..."
 * @param {string | {rows: number, cols: number}} size
 * @returns {{rows: number, cols: number}}
 */
export function parseShape(size) {
  if (typeof size === "object" && size !== null) return checkShape(size.rows, size.cols);
  const text = String(size);
  const bad = () =>
    new BoardError("BadSize", `bad size ${debugString(text)}: write it as ROWSxCOLS, for example 3x3`);
  const t = rustTrim(text);
  const at = t.search(/[xX×]/);
  if (at < 0) throw bad();
  const side = (s) => {
    s = rustTrim(s);
    if (!/^[0-9]{1,3}$/.test(s)) throw bad();
    return Number(s);
  };
  const rows = side(t.slice(0, at));
  const cols = side(t.slice(at + 1));
  return checkShape(rows, cols);
}

/** The shapes with exactly `cells` cells, rows ascending. */
function shapesWith(cells) {
  const out = [];
  for (let r = 2; r <= cells; r++) {
    if (cells % r === 0 && cells / r >= 2 && cells <= MAX_CELLS) out.push({ rows: r, cols: cells / r });
  }
  return out;
}

/** The shape of a board of `cells` cells given without a size (Rust `infer_shape`). */
function inferShape(cells) {
  const shapes = shapesWith(cells);
  const square = shapes.find((s) => s.rows === s.cols);
  if (square) return square;
  if (shapes.length === 0) {
    if (cells === 0) throw new BoardError("Empty", "the board is empty");
    const hint = cells > MAX_CELLS ? "too many cells" : "check the count, or give the size";
    throw new BoardError(
      "NoShape",
      `${counted(cells, "cell makes", "cells make")} no board (both sides at least 2, at most ${MAX_CELLS} cells): ${hint}`,
    );
  }
  if (shapes.length === 1) return shapes[0];
  throw new BoardError(
    "AmbiguousSize",
    `${cells} cells could be ${shapes.map(shapeName).join(" or ")}: give the size, or split the rows with /`,
  );
}

/** Two blanks, or a tile written twice, among the first 25 values (Rust `Cells::fault`). */
function fault(values) {
  const kept = values.slice(0, MAX_CELLS);
  const blanks = kept.filter((v) => v === 0).length;
  if (blanks > 1) return tooManyBlanks(blanks);
  for (let i = 0; i < kept.length; i++) {
    const v = kept[i];
    if (v !== 0 && v <= 255 && kept.slice(0, i).includes(v)) return duplicate(v);
  }
  return null;
}

const tooManyBlanks = (count) =>
  new BoardError("TooManyBlanks", `the board has ${count} blanks; it needs exactly one`);
const duplicate = (tile) => new BoardError("DuplicateTile", `tile ${tile} appears twice`);
/** The most characters of one written cell that a message repeats (Rust `MAX_SHOWN_TOKEN`). */
export const MAX_SHOWN_TOKEN = 40;

/**
 * A written cell as messages show it: whole up to {@link MAX_SHOWN_TOKEN}
 * characters, else its first {@link MAX_SHOWN_TOKEN} and `…` (Rust `shown_token`).
 *
 * @example
 * shownToken("7".repeat(100)); // "7777777777777777777777777777777777777777…"
 * @param {string} token
 * @returns {string}
 */
export function shownToken(token) {
  const chars = Array.from(token);
  return chars.length > MAX_SHOWN_TOKEN ? chars.slice(0, MAX_SHOWN_TOKEN).join("") + "…" : token;
}

/** The value `parseCell` gives a number of more digits than any tile has: `Cells.long` holds it as written. */
const LONG_NUMBER = Number.POSITIVE_INFINITY;

const outOfRange = (tile, shape, max) =>
  new BoardError("TileOutOfRange", `tile ${tile} is out of range: a ${shapeName(shape)} board has tiles 1 to ${max}`);

/**
 * A board of `shape` from its cells in reading order, `0` for the blank:
 * checks that each tile 1 to cells − 1 appears once and there is one
 * blank (the Rust `Board::from_tiles`, with its faults in its order).
 *
 * @example
 * boardFromTiles({rows: 2, cols: 2}, [1, 2, 0, 3]).blank; // 2
 * @param {{rows: number, cols: number}} shape
 * @param {ArrayLike<number>} tiles
 * @returns {Board}
 */
export function boardFromTiles(shape, tiles) {
  const { rows, cols } = checkShape(shape.rows, shape.cols);
  const n = rows * cols;
  if (tiles.length !== n) {
    throw new BoardError(
      "WrongCellCount",
      `${counted(tiles.length, "cell", "cells")} given, but a ${shapeName(shape)} board has ${n}`,
    );
  }
  for (let i = 0; i < n; i++) {
    const t = tiles[i];
    if (typeof t !== "number" || !Number.isInteger(t) || t < 0) {
      throw new BoardError(
        "BadCell",
        `${debugString(String(t))} is not a tile: write tiles as numbers and the blank as 0, x, _ or .`,
      );
    }
    if (t >= n) throw outOfRange(t, shape, n - 1);
  }
  let blanks = 0;
  for (let i = 0; i < n; i++) if (tiles[i] === 0) blanks++;
  if (blanks === 0) throw new BoardError("NoBlank", "the board has no blank: mark it with 0, x, _ or .");
  if (blanks > 1) throw tooManyBlanks(blanks);
  const cells = new Uint8Array(n);
  let seen = 0;
  let blank = 0;
  for (let i = 0; i < n; i++) {
    const t = tiles[i];
    if (t === 0) blank = i;
    else if (seen & (1 << t)) throw duplicate(t);
    seen |= 1 << t;
    cells[i] = t;
  }
  return trustedBoard(rows, cols, cells, blank);
}

/** One cell: a number, or a blank mark (as 0) (Rust `parse_cell`). */
function parseCell(token) {
  if (token === "x" || token === "X" || token === "_" || token === ".") return 0;
  if (/^[0-9]+$/.test(token) && (token === "0" || token[0] !== "0")) {
    return token.length <= 3 ? Number(token) : LONG_NUMBER;
  }
  throw new BoardError(
    "BadCell",
    `${debugString(shownToken(token))} is not a tile: write tiles as numbers and the blank as 0, x, _ or .`,
  );
}

const emptyCell = () =>
  new BoardError(
    "EmptyCell",
    "empty cell: two separators with nothing between them (or one at the start or end)",
  );

/** Splits one row into cell values, appending to `cells` (Rust `parse_row`). */
function parseRow(row, cells) {
  row = rustTrim(row);
  if (row === "") throw emptyCell();
  if (row.includes(",")) {
    for (let token of row.split(",")) {
      token = rustTrim(token);
      if (token === "") throw emptyCell();
      if (HAS_WS.test(token)) {
        throw new BoardError("MixedSeparators", "mixed separators: split cells by spaces or by commas, not both");
      }
      cells.pushToken(token);
    }
  } else if (HAS_WS.test(row)) {
    for (const token of row.split(SPLIT_WS)) cells.pushToken(token);
  } else {
    for (const ch of row) cells.pushToken(ch);
  }
}

/** Cell values read so far: the first 25 kept, the rest only counted; the first long number as written. */
class Cells {
  constructor() {
    this.values = [];
    this.len = 0;
    this.long = null;
  }
  pushToken(token) {
    const v = parseCell(token);
    if (v === LONG_NUMBER && this.long === null && this.values.length < MAX_CELLS) this.long = shownToken(token);
    if (this.values.length < MAX_CELLS) this.values.push(v);
    this.len++;
  }
}

/**
 * Reads a board: text in every syntax the command line reads, or an
 * array of numbers (cells in reading order, `0` the blank).
 *
 * Cells are split by spaces or by commas, or written one character each
 * (`724506831`, single digits only); rows may be split by `/`
 * (`7 2 4 / 5 0 6 / 8 3 1`, `123/456/78x`). The blank is `0`, `x`, `X`,
 * `_` or `.`. Tiles of 10 and over need separators. The size is
 * `size`/`shape` when given, else the `/`-split rows, else the cell count
 * when it fits one shape or a square (6, 8, 10, 12, … cells without rows
 * or a size are ambiguous: an error). Faults throw a {@link BoardError}
 * (its `code` and message as the Rust `BoardError`'s).
 *
 * @example
 * parseBoard("2 3 4 1 5 x 7 6 8");
 * parseBoard("724506831");
 * parseBoard("1,2,3,4,5,6,7,8,0");
 * parseBoard("7 2 4 / 5 0 6 / 8 3 1");
 * parseBoard("1 2 3 4 5 0", {size: "2x3"});
 * parseBoard([1, 2, 3, 0], {shape: {rows: 2, cols: 2}});
 *
 * @param {string | ArrayLike<number> | Board} input
 * @param {{size?: string, shape?: string | {rows: number, cols: number}}} [options]
 * @returns {Board}
 */
export function parseBoard(input, options = {}) {
  const given = options.size ?? options.shape;
  const shape = given === undefined || given === null ? null : parseShape(given);
  if (input instanceof Board) {
    if (shape && (shape.rows !== input.rows || shape.cols !== input.cols)) {
      throw new BoardError(
        "ShapeMismatch",
        `the rows make a ${shapeName(input)} board, but the size is ${shapeName(shape)}`,
      );
    }
    return input;
  }
  if (typeof input !== "string") {
    if (input === null || typeof input !== "object" || typeof input.length !== "number") {
      throw new TypeError("a board is a string, an array of numbers or a Board");
    }
    const values = Array.from(input);
    const target = shape ?? inferOrFault(values, values.length);
    return boardFromTiles(target, values);
  }
  const text = rustTrim(rustTrim(input).replace(/^\ufeff+/, ""));
  if (text === "") throw new BoardError("Empty", "the board is empty");
  const cells = new Cells();
  let firstLen = 0;
  let rowCount = 0;
  const rows = text.split("/");
  for (let r = 0; r < rows.length; r++) {
    const before = cells.len;
    parseRow(rows[r], cells);
    const len = cells.len - before;
    if (r === 0) firstLen = len;
    else if (len !== firstLen) {
      throw new BoardError(
        "RaggedRows",
        `rows of unequal length: row 1 has ${counted(firstLen, "cell", "cells")}, row ${r + 1} has ${len}`,
      );
    }
    rowCount = r + 1;
  }
  const rowShape = rowCount > 1 ? checkShape(rowCount, firstLen) : null;
  let target;
  if (shape && rowShape) {
    if (shape.rows !== rowShape.rows || shape.cols !== rowShape.cols) {
      throw new BoardError(
        "ShapeMismatch",
        `the rows make a ${shapeName(rowShape)} board, but the size is ${shapeName(shape)}`,
      );
    }
    target = shape;
  } else {
    target = shape ?? rowShape ?? inferOrFault(cells.values, cells.len);
  }
  const count = cells.len;
  const n = target.rows * target.cols;
  if (count !== n) {
    throw new BoardError("WrongCellCount", `${counted(count, "cell", "cells")} given, but a ${shapeName(target)} board has ${n}`);
  }
  for (const v of cells.values) {
    if (v >= count) throw outOfRange(v === LONG_NUMBER ? cells.long : v, target, count - 1);
  }
  return boardFromTiles(target, cells.values);
}

function inferOrFault(values, count) {
  try {
    return inferShape(count);
  } catch (e) {
    throw fault(values) ?? e;
  }
}

/**
 * A board as the Rust `Display` writes it: the cells in reading order
 * split by single spaces, the blank `0`.
 *
 * @example
 * formatBoard(parseBoard("123/456/78x")); // "1 2 3 4 5 6 7 8 0"
 * @param {Board | string | ArrayLike<number>} board
 * @returns {string}
 */
export function formatBoard(board) {
  const cells = (board instanceof Board ? board : parseBoard(board)).cells;
  let out = String(cells[0]);
  for (let i = 1; i < cells.length; i++) out += " " + cells[i];
  return out;
}

/**
 * The size of a board, `{rows, cols}` (text read as {@link parseBoard}
 * reads it without a size).
 *
 * @example
 * shapeOf("1 2 / 3 4 / 5 0"); // {rows: 3, cols: 2}
 * @param {Board | string | ArrayLike<number>} board
 */
export function shapeOf(board) {
  const b = parseBoard(board);
  return { rows: b.rows, cols: b.cols };
}

/** The cell the blank reaches by `move` from `blank`, or -1 off the board. */
export function target(move, blank, rows, cols) {
  switch (move) {
    case UP:
      return blank >= cols ? blank - cols : -1;
    case DOWN:
      return blank + cols < rows * cols ? blank + cols : -1;
    case LEFT:
      return blank % cols !== 0 ? blank - 1 : -1;
    case RIGHT:
      return blank % cols !== cols - 1 ? blank + 1 : -1;
    default:
      return -1;
  }
}

/**
 * The board after the blank moves `letter` (`u`, `d`, `l` or `r`: the
 * direction the blank travels), or `null` if the blank would leave the
 * board (or the letter is none of those).
 *
 * @example
 * String(applyMove("1 2 3 4 5 6 7 8 0", "l")); // "1 2 3 4 5 6 7 0 8"
 * applyMove("1 2 3 4 5 6 7 8 0", "r"); // null
 * @param {Board | string | ArrayLike<number>} board
 * @param {string} letter
 * @returns {Board | null}
 */
export function applyMove(board, letter) {
  const b = parseBoard(board);
  const move = MOVES.indexOf(letter);
  if (letter.length !== 1 || move < 0) return null;
  const to = target(move, b.blank, b.rows, b.cols);
  if (to < 0) return null;
  const cells = b.cells.slice();
  cells[b.blank] = cells[to];
  cells[to] = 0;
  return trustedBoard(b.rows, b.cols, cells, to);
}

/**
 * Applies moves in turn: the boards along the way, `board` first; `null`
 * if a move leaves the board.
 * @param {Board | string | ArrayLike<number>} board
 * @param {string} moves letters `u d l r`
 * @returns {Board[] | null}
 */
export function applyMoves(board, moves) {
  let here = parseBoard(board);
  const out = [here];
  for (const letter of moves) {
    here = applyMove(here, letter);
    if (here === null) return null;
    out.push(here);
  }
  return out;
}

// popcount of 16 bits.
export const POPCOUNT16 = /* @__PURE__ */ (() => {
  const t = new Uint8Array(1 << 16);
  for (let i = 1; i < 1 << 16; i++) t[i] = t[i >> 1] + (i & 1);
  return t;
})();

/**
 * The solvability invariant of cells (`0` the blank): the parity of the
 * tiles' inversions in reading order plus (cols − 1) × the blank's row,
 * mod 2. Every move keeps it.
 * @param {ArrayLike<number>} cells @param {number} cols @returns {number} 0 or 1
 */
export function cellsParity(cells, cols) {
  let inversions = 0;
  let seen = 0;
  let blank = 0;
  for (let c = 0; c < cells.length; c++) {
    const t = cells[c];
    if (t === 0) {
      blank = c;
      continue;
    }
    const above = seen >>> (t + 1);
    inversions += POPCOUNT16[above & 0xffff] + POPCOUNT16[above >>> 16];
    seen |= 1 << t;
  }
  return (inversions + (cols - 1) * ((blank / cols) | 0)) & 1;
}

/**
 * The board's parity (0 or 1): two boards of one size reach each other
 * exactly when their parities are equal.
 * @param {Board | string | ArrayLike<number>} board
 */
export function parity(board) {
  const b = parseBoard(board);
  return cellsParity(b.cells, b.cols);
}

/**
 * Whether `board` can reach `goal`: the same size and the same parity
 * (decided in O(cells), before any search). Text is read with the other
 * board's size when it has no `/` rows.
 *
 * @example
 * isSolvable("2 3 4 1 5 x 7 6 8", "1 2 3 4 5 6 7 8 0"); // true
 * isSolvable("2 1 3 4 5 6 7 8 0", "1 2 3 4 5 6 7 8 0"); // false
 * @param {Board | string | ArrayLike<number>} board
 * @param {Board | string | ArrayLike<number>} goal
 * @returns {boolean}
 */
export function isSolvable(board, goal) {
  let g;
  let b;
  if (goal instanceof Board || !(board instanceof Board)) {
    g = parseBoard(goal);
    b = parseOther(board, g);
  } else {
    b = board;
    g = parseOther(goal, b);
  }
  return b.rows === g.rows && b.cols === g.cols && cellsParity(b.cells, b.cols) === cellsParity(g.cells, g.cols);
}

/**
 * `input` read with `other`'s size, or with its own if it has another
 * count of cells (a board or goal of another size, which the caller then
 * refuses by its shape).
 * @param {Board | string | ArrayLike<number>} input
 * @param {{rows: number, cols: number}} other
 * @returns {Board}
 */
export function parseOther(input, other) {
  try {
    return parseWithShape(input, other);
  } catch (e) {
    if (e instanceof BoardError && e.code === "WrongCellCount") return parseBoard(input);
    throw e;
  }
}

/**
 * Reads `input` as a board of `shape`'s size unless it is a Board or text
 * whose `/` rows give its own size.
 * @param {Board | string | ArrayLike<number>} input
 * @param {{rows: number, cols: number}} shape
 * @returns {Board}
 */
export function parseWithShape(input, shape) {
  if (input instanceof Board) return input;
  if (typeof input === "string" && input.includes("/")) return parseBoard(input);
  return parseBoard(input, { shape: { rows: shape.rows, cols: shape.cols } });
}
