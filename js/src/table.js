// Kind 1, the full distance table (FORMAT.md; src/table/file.rs,
// src/table/mod.rs, src/table/query.rs, src/table/layers.rs): every board's
// distance to the goal mod 3, two bits a board, and what follows from it:
// the greedy descent (an optimal solution, the exact distance), probes,
// exact counts of optimal solutions, whole layers and uniform random boards.
//
// Everything is answered on the indexed goal's boards: a board toward the
// goal asked is moved and renamed by its class's symmetry, the moves found
// are carried back. The descent tries the blank's moves up, down, left,
// right (as seen toward the indexed goal) and takes the first that is one
// closer, as the Rust descent does, so the moves are the same letters.

import {
  Board,
  DOWN,
  LEFT,
  MOVES,
  RIGHT,
  UP,
  cellsParity,
  checkShape,
  formatBoard,
  parseWithShape,
  POPCOUNT16 as POPCOUNT,
  shapeName,
  target as neighbour,
  trustedBoard,
} from "./board.js";
import { SlidedbFormatError, SolveError } from "./errors.js";
import { KIND_TABLE, asBytes, checkBody, layoutError, metadataError, readFrame } from "./format.js";
import { AskedGoals, boardOf, goalsClass, metricName, otherClass, readGoals } from "./goals.js";
import { Indexer, factorialBig, packedRankTables } from "./rank.js";
import { SplitMix64, freshSeed, randomBoard } from "./random.js";
import { GoalClass } from "./symmetry.js";

/** Entry encoding 1: 2 bits an entry, the distance mod 3. */
export const ENCODING_MOD3 = 1;
/** The most cells a full table has (2×7). */
export const MAX_TABLE_CELLS = 14;
/** The most hardest boards the metadata lists. */
export const MAX_HARDEST = 1000;
/** The most boards this reader lists to draw from rare layers (or to list a layer). */
export const MAX_LISTED_BOARDS = 1 << 23;
/** The largest count that is a JSON number (2^53); larger counts are decimal strings. */
export const MAX_EXACT_JSON = 2 ** 53;

/**
 * Opens a full table (a kind-1 file) from its bytes, checking it as the
 * Rust library does on open, in FORMAT.md's "What a reader checks" order,
 * then (unless `verify: false`) the body's CRC-32. Every fault throws a
 * {@link SlidedbFormatError} whose message names it. The bytes are not
 * copied: do not change them while the table is in use.
 *
 * @example
 * // Node
 * const table = openTable(await fs.promises.readFile("3x3-1-2-3-4-5-6-7-8-0.slidedb"));
 * table.solve("8 6 7 2 5 4 3 0 1").distance; // 31
 * // A browser
 * const bytes = await (await fetch("3x3.slidedb")).arrayBuffer();
 * openTable(bytes).distance("7 2 4 / 5 0 6 / 8 3 1"); // 26
 *
 * @param {ArrayBuffer | ArrayBufferView} data the file's bytes
 * @param {{verify?: boolean}} [options] `verify`: check the body's CRC-32 (default true)
 * @returns {Table}
 */
export function openTable(data, { verify = true } = {}) {
  return new Table(asBytes(data), verify);
}

/**
 * Reads the kind-1 metadata of format `version` (version 2 has no metric:
 * the single-tile metric, 0).
 * @param {import("./bincode.js").BincodeReader} r @param {number} version
 */
function readMetadata(r, version) {
  const generator = r.string("generator");
  const goals = readGoals(r);
  const states = r.u64("states");
  const layers = r.seq("layers", (rr) => rr.u64("a layer count"));
  const maxDistance = r.u32("max_distance");
  const hardest = r.seq("hardest", (rr) => rr.bytes("a hardest board"));
  const metric = version >= 3 ? r.u8("metric") : 0;
  return { generator, goals, states, layers, maxDistance, hardest, metric };
}

/**
 * The metadata agrees with itself and with the body's length (Rust
 * `table::file::check`); returns the goal's class.
 */
function checkMetadata(m, bodyBytes) {
  let shape;
  try {
    shape = checkShape(m.goals.rows, m.goals.cols);
  } catch (e) {
    throw metadataError(`goal: size: ${e.message}`);
  }
  const cells = shape.rows * shape.cols;
  if (cells > MAX_TABLE_CELLS) {
    throw metadataError(`size ${shapeName(shape)}: full tables go up to ${MAX_TABLE_CELLS} cells`);
  }
  const cls = goalsClass(m.goals);
  const indexed = cls.canonical;
  const states = factorialBig(cells) / 2n;
  if (m.states !== states) {
    throw metadataError(`${m.states} states, but a ${shapeName(shape)} board has ${states}`);
  }
  const need = (states + 3n) / 4n;
  if (BigInt(bodyBytes) !== need) {
    throw layoutError(`body of ${bodyBytes} bytes, but ${m.states} states need ${need}`);
  }
  let sum = 0n;
  for (const c of m.layers) {
    sum += c;
    if (sum >= 1n << 64n) throw metadataError("layer counts overflow");
  }
  if (sum !== m.states || m.layers.length === 0 || m.layers[0] !== 1n || m.layers.includes(0n)) {
    throw metadataError(`layer counts add up to ${sum}, not ${m.states} (or a layer is empty)`);
  }
  if (m.maxDistance + 1 !== m.layers.length) {
    throw metadataError(`max distance ${m.maxDistance} but ${m.layers.length} layers`);
  }
  const last = m.layers[m.layers.length - 1];
  if (m.hardest.length === 0 || BigInt(m.hardest.length) > last || m.hardest.length > MAX_HARDEST) {
    throw metadataError(`${m.hardest.length} hardest states listed, for a last layer of ${last}`);
  }
  const goalParity = cellsParity(indexed.cells, indexed.cols);
  for (const h of m.hardest) {
    const board = boardOf(indexed.rows, indexed.cols, h, "hardest state");
    if (cellsParity(board.cells, board.cols) !== goalParity) {
      throw metadataError("a hardest state cannot reach the goal");
    }
  }
  return cls;
}

/**
 * A full distance table, opened by {@link openTable}. Its queries take a
 * board as text (read with the goal's size), an array of cells or a
 * {@link Board}, and a `goal` option: any goal of the table's class (the
 * goals whose blank a symmetry of the board carries onto the recorded
 * goal's), by default the goal the table was built for. A goal given as
 * text without `/` rows, or as an array, is read with the table's size; a
 * goal of the transposed shape (a 3×4 table serves 4×3 goals) is given
 * with its rows (`"1 2 3 / 4 5 6 / 7 8 9 / 10 11 0"`) or as a Board. A goal of another
 * class or size throws a {@link SolveError} (`code` `"OtherClass"`); a board
 * of another size than the goal's, `"WrongShape"`. A damaged body never
 * gives a wrong answer silently: the descent stops with a `"Damaged"`
 * SolveError when no neighbour is one closer or the path grows past the
 * greatest distance.
 */
export class Table {
  /** @param {Uint8Array} bytes @param {boolean} verify */
  constructor(bytes, verify) {
    const frame = readFrame(bytes, KIND_TABLE, ENCODING_MOD3, readMetadata);
    const m = frame.metadata;
    const cls = checkMetadata(m, frame.bodyEnd - frame.bodyStart);
    /**
     * The metric its distances count moves in: `"single"`, or `"multi"`
     * (a move slides the blank any number of cells along its row or
     * column; answers carry `metric: "multi"`, and solutions `slides`).
     */
    this.metric = metricName(m.metric);
    this._bytes = bytes;
    this._bodyStart = frame.bodyStart;
    this._bodyEnd = frame.bodyEnd;
    /** The body's CRC-32, as the header stores it. */
    this.bodyCrc = frame.bodyCrc;
    if (verify) this.verify();
    const goal = cls.goal;
    const indexed = cls.canonical;
    /** The board size of the goal it was built for, `{rows, cols}`. */
    this.shape = { rows: goal.rows, cols: goal.cols };
    /** The goal it was built for and answers toward by default (cells split by spaces). */
    this.goal = formatBoard(goal);
    /** The goal its body is laid out by: the canonical goal of the goal's class. */
    this.indexedGoal = formatBoard(indexed);
    /** The number of boards: cells!/2. */
    this.states = Number(m.states);
    /** `layers[d]`: how many boards are `d` moves from the goal (any goal of the class). */
    this.layers = m.layers.map(Number);
    /** The greatest distance of any board. */
    this.maxDistance = m.maxDistance;
    /** The program that wrote the file, such as `slidedb 0.1.0`. */
    this.generator = m.generator;
    let total = 0;
    this.layers.forEach((c, d) => (total += d * c));
    /** The mean distance over all boards. */
    this.meanDistance = total / this.states;
    this._own = cls;
    this._asked = new AskedGoals(this.shape, (cls, board) => {
      if (!cls.sameClass(this._own)) throw otherClass(board, this.goal);
      return cls;
    });
    /** The boards at the greatest distance (at most 1000), toward the table's goal, in index order. */
    this.hardest = m.hardest.map((h) =>
      formatBoard(cls.fromCanonical(trustedBoard(indexed.rows, indexed.cols, h, h.indexOf(0)))),
    );
    this._hardest = m.hardest;

    // The engine, on the indexed goal's boards.
    const n = indexed.rows * indexed.cols;
    this._n = n;
    this._rows = indexed.rows;
    this._cols = indexed.cols;
    this._body = bytes.subarray(frame.bodyStart, frame.bodyEnd);
    this._ix = new Indexer(indexed, cellsParity(indexed.cells, indexed.cols));
    this._parity = this._ix.parity;
    this._perBlank = this._ix.perBlank;
    this._goalIndex = this._ix.rank(indexed.cells);
    this._indexedGoal = indexed;
    this._moves = new Uint8Array(this.maxDistance + 1);
    this._scratch = new Uint8Array(n);
    this._order = new Uint8Array(n);
    this._cells = new Uint8Array(n);
    if (n <= 9) {
      const { low, high } = packedRankTables(this._ix);
      this._low = low;
      this._high = high;
      this._descend = this._descendPacked;
    } else {
      this._descend = this._descendGeneric;
    }
    this._lists = []; // listed layers (sorted indexes), from the goal outward
    if (this.metric === "multi") {
      this._descend = this._descendMulti;
      this._path = [];
    }
  }

  /**
   * Checks the body's CRC-32 (O(body)); {@link openTable} does unless
   * `verify: false`. Throws a {@link SlidedbFormatError} if it differs.
   */
  verify() {
    checkBody(this._bytes, this._bodyStart, this._bodyEnd, this.bodyCrc);
  }

  /** The entry of `index`: its distance mod 3 (3 for no distance). */
  residue(index) {
    const q = Math.floor(index / 4);
    const b = this._body[q];
    return b === undefined ? 3 : (b >>> ((index - 4 * q) << 1)) & 3;
  }

  // ---- goals and boards ----------------------------------------------

  /** The class of the goal asked (read once per goal). @returns {GoalClass} */
  _class(goal) {
    if (goal === undefined || goal === null) return this._own;
    return this._asked.get(goal);
  }

  /** The board asked, toward `cls`'s goal, checked. @returns {Board} */
  _board(board, cls) {
    const b = parseWithShape(board, cls.goal);
    if (b.rows !== cls.goal.rows || b.cols !== cls.goal.cols) {
      throw new SolveError(
        "WrongShape",
        `the board is ${shapeName(b)} but the goal is ${shapeName(cls.goal)}`,
        { board: shapeName(b), goal: shapeName(cls.goal) },
      );
    }
    return b;
  }

  /** The cells of `board` toward the indexed goal (a scratch array or the board's own). */
  _indexedCells(b, cls) {
    return cls.isCanonical ? b.cells : cls.cellsToCanonical(b.cells, this._scratch);
  }

  /** Whether indexed cells can reach the indexed goal. */
  _reaches(cells) {
    return cellsParity(cells, this._cols) === this._parity;
  }

  _damaged(cells, why) {
    const board = formatBoard(trustedBoard(this._rows, this._cols, cells, cells.indexOf(0)));
    return new SolveError("Damaged", `the file is damaged at ${board}: ${why}; rebuild it`, { board, why });
  }

  // ---- the descent ----------------------------------------------------

  /**
   * The greedy descent from indexed `cells` (which can reach the goal):
   * its length; the moves (codes, toward the indexed goal) in `_moves`
   * when `record`. Boards of at most 9 cells: the tile order packed three
   * bits a tile, ranked by two lookups. Allocates nothing.
   */
  _descendPacked(cells, record) {
    const n = this._n;
    const cols = this._cols;
    const per = this._perBlank;
    const low = this._low;
    const high = this._high;
    const body = this._body;
    const moves = this._moves;
    const goalIndex = this._goalIndex;
    const max = this.maxDistance;
    const wmask = (1 << (3 * cols)) - 1;
    const back = 3 * (cols - 1);
    let order = 0;
    let b = 0;
    for (let c = 0, p = 0; c < n; c++) {
      const t = cells[c];
      if (t === 0) b = c;
      else order |= (t - 1) << (3 * p++);
    }
    let index = b * per + low[order & 4095] + high[order >>> 12];
    let residue = (body[index >>> 2] >>> ((index & 3) << 1)) & 3;
    let came = -1;
    let distance = 0;
    while (index !== goalIndex) {
      if (residue > 2) throw this._packedDamage(b, order, "its entry holds no distance");
      if (distance >= max) throw this._packedDamage(b, order, "the path grew longer than the greatest distance");
      const closer = residue === 0 ? 2 : residue - 1;
      let found = -1;
      let nb = 0;
      let nOrder = order;
      let nIndex = 0;
      if (came !== DOWN && b >= cols) {
        const t = b - cols;
        const s = 3 * t;
        const w = (order >>> s) & wmask;
        const o = (order & ~(wmask << s)) | (((w >>> 3) | ((w & 7) << back)) << s);
        const i = t * per + low[o & 4095] + high[o >>> 12];
        if (((body[i >>> 2] >>> ((i & 3) << 1)) & 3) === closer) {
          found = UP;
          nb = t;
          nOrder = o;
          nIndex = i;
        }
      }
      if (found < 0 && came !== UP && b + cols < n) {
        const s = 3 * b;
        const w = (order >>> s) & wmask;
        const o = (order & ~(wmask << s)) | ((((w << 3) & wmask) | (w >>> back)) << s);
        const t = b + cols;
        const i = t * per + low[o & 4095] + high[o >>> 12];
        if (((body[i >>> 2] >>> ((i & 3) << 1)) & 3) === closer) {
          found = DOWN;
          nb = t;
          nOrder = o;
          nIndex = i;
        }
      }
      if (found < 0 && came !== RIGHT && b % cols !== 0) {
        const i = index - per;
        if (((body[i >>> 2] >>> ((i & 3) << 1)) & 3) === closer) {
          found = LEFT;
          nb = b - 1;
          nIndex = i;
        }
      }
      if (found < 0 && came !== LEFT && b % cols !== cols - 1) {
        const i = index + per;
        if (((body[i >>> 2] >>> ((i & 3) << 1)) & 3) === closer) {
          found = RIGHT;
          nb = b + 1;
          nIndex = i;
        }
      }
      if (found < 0) throw this._packedDamage(b, order, "no move leads one closer");
      if (record) moves[distance] = found;
      distance++;
      b = nb;
      order = nOrder;
      index = nIndex;
      residue = closer;
      came = found;
    }
    return distance;
  }

  _packedDamage(blank, order, why) {
    const cells = new Uint8Array(this._n);
    for (let c = 0, p = 0; c < this._n; c++) {
      if (c !== blank) cells[c] = ((order >>> (3 * p++)) & 7) + 1;
    }
    return this._damaged(cells, why);
  }

  /**
   * The descent on boards of 10 to 16 cells: the tile order in an array,
   * rotated in place for a vertical move and ranked in full.
   */
  _descendGeneric(cells, record) {
    const n = this._n;
    const m = n - 1;
    const cols = this._cols;
    const per = this._perBlank;
    const w = this._ix.weight;
    const body = this._body;
    const moves = this._moves;
    const goalIndex = this._goalIndex;
    const max = this.maxDistance;
    const ord = this._order;
    const pc = POPCOUNT;
    let b = 0;
    for (let c = 0, p = 0; c < n; c++) {
      if (cells[c] === 0) b = c;
      else ord[p++] = cells[c];
    }
    const rankOrder = () => {
      let seen = 0;
      let h = 0;
      for (let i = 0; i + 2 < m; i++) {
        const t = ord[i];
        h += (t - 1 - pc[seen & ((1 << t) - 1)]) * w[i];
        seen |= 1 << t;
      }
      return h;
    };
    const residueAt = (i) => {
      const q = Math.floor(i / 4);
      return (body[q] >>> ((i - 4 * q) << 1)) & 3;
    };
    let index = b * per + rankOrder();
    let residue = residueAt(index);
    let came = -1;
    let distance = 0;
    const damage = (why) => {
      const out = new Uint8Array(n);
      for (let c = 0, p = 0; c < n; c++) if (c !== b) out[c] = ord[p++];
      return this._damaged(out, why);
    };
    while (index !== goalIndex) {
      if (residue > 2) throw damage("its entry holds no distance");
      if (distance >= max) throw damage("the path grew longer than the greatest distance");
      const closer = residue === 0 ? 2 : residue - 1;
      let found = -1;
      let nb = 0;
      let nIndex = 0;
      if (came !== DOWN && b >= cols) {
        // The tile above (position b − cols) goes to position b − 1.
        const t = b - cols;
        const x = ord[t];
        for (let p = t; p < b - 1; p++) ord[p] = ord[p + 1];
        ord[b - 1] = x;
        const i = t * per + rankOrder();
        if (residueAt(i) === closer) {
          found = UP;
          nb = t;
          nIndex = i;
        } else {
          for (let p = b - 1; p > t; p--) ord[p] = ord[p - 1];
          ord[t] = x;
        }
      }
      if (found < 0 && came !== UP && b + cols < n) {
        // The tile below (position b + cols − 1) goes to position b.
        const t = b + cols;
        const x = ord[t - 1];
        for (let p = t - 1; p > b; p--) ord[p] = ord[p - 1];
        ord[b] = x;
        const i = t * per + rankOrder();
        if (residueAt(i) === closer) {
          found = DOWN;
          nb = t;
          nIndex = i;
        } else {
          for (let p = b; p < t - 1; p++) ord[p] = ord[p + 1];
          ord[t - 1] = x;
        }
      }
      if (found < 0 && came !== RIGHT && b % cols !== 0) {
        const i = index - per;
        if (residueAt(i) === closer) {
          found = LEFT;
          nb = b - 1;
          nIndex = i;
        }
      }
      if (found < 0 && came !== LEFT && b % cols !== cols - 1) {
        const i = index + per;
        if (residueAt(i) === closer) {
          found = RIGHT;
          nb = b + 1;
          nIndex = i;
        }
      }
      if (found < 0) throw damage("no move leads one closer");
      if (record) moves[distance] = found;
      distance++;
      b = nb;
      index = nIndex;
      residue = closer;
      came = found;
    }
    return distance;
  }

  /**
   * Every slide of the blank from indexed `cells` (blank at `blank`), as
   * the Rust `Board::slides`: in the multi-tile metric the directions in
   * the order u d l r, each nearest first (1..k cells); in the single-tile
   * metric one cell each. Calls `visit(mv, k, next)` with `next` a scratch
   * array (copy it to keep it); stops when `visit` returns true.
   */
  _slides(cells, blank, visit) {
    const rows = this._rows;
    const cols = this._cols;
    const next = this._slideScratch ?? (this._slideScratch = new Uint8Array(this._n));
    const most = this.metric === "multi" ? Math.max(rows, cols) : 1;
    for (let mv = 0; mv < 4; mv++) {
      next.set(cells);
      let at = blank;
      for (let k = 1; k <= most; k++) {
        const t = neighbour(mv, at, rows, cols);
        if (t < 0) break;
        next[at] = next[t];
        next[t] = 0;
        at = t;
        if (visit(mv, k, next, at)) return true;
      }
    }
    return false;
  }

  /**
   * The greedy descent in the multi-tile metric (the Rust `descend_multi`):
   * from each board the first slide, in the order of {@link _slides},
   * whose entry is one closer. Returns the number of slides; the blank's
   * path (move codes, one a cell, toward the indexed goal) in `_path`
   * when `record`.
   */
  _descendMulti(cells, record) {
    const here = Uint8Array.from(cells);
    const path = this._path;
    path.length = 0;
    let index = this._ix.rank(here);
    let residue = this.residue(index);
    let distance = 0;
    while (index !== this._goalIndex) {
      if (residue > 2) throw this._damaged(here, "its entry holds no distance");
      if (distance >= this.maxDistance) throw this._damaged(here, "the path grew longer than the greatest distance");
      const closer = (residue + 2) % 3;
      let found = -1;
      let cellsMoved = 0;
      let nIndex = 0;
      this._slides(here, here.indexOf(0), (mv, k, next) => {
        const i = this._ix.rank(next);
        if (this.residue(i) !== closer) return false;
        found = mv;
        cellsMoved = k;
        nIndex = i;
        here.set(next);
        return true;
      });
      if (found < 0) throw this._damaged(here, "no move leads one closer");
      if (record) for (let k = 0; k < cellsMoved; k++) path.push(found);
      distance++;
      index = nIndex;
      residue = closer;
    }
    return distance;
  }

  // ---- queries ---------------------------------------------------------

  /**
   * The board's distance to the goal (the number of moves of an optimal
   * solution), or `null` if it cannot reach the goal. Fast: no allocation
   * for a {@link Board} or a goal asked before.
   *
   * @example
   * table.distance("8 6 7 2 5 4 3 0 1"); // 31
   * table.distance("7 2 4 5 0 6 8 3 1", {goal: "0 1 2 3 4 5 6 7 8"}); // 26
   * @param {Board | string | ArrayLike<number>} board
   * @param {{goal?: Board | string | ArrayLike<number>}} [options]
   * @returns {number | null}
   */
  distance(board, options) {
    const cls = options === undefined || options.goal === undefined ? this._own : this._class(options.goal);
    let cells;
    if (board instanceof Board && board.rows === cls.goal.rows && board.cols === cls.goal.cols) cells = board.cells;
    else cells = this._board(board, cls).cells;
    if (!cls.isCanonical) cells = cls.cellsToCanonical(cells, this._scratch);
    if (cellsParity(cells, this._cols) !== this._parity) return null;
    return this._descend(cells, false);
  }

  /**
   * An optimal solution: `{board, goal, solvable, distance, moves}` as the
   * Rust `SolveRecord` (and `slidedb solve --json`): `moves` the blank's
   * moves as letters `u d l r` (`""` for the goal itself), `distance` their
   * number; both `null` when the board cannot reach the goal. With
   * `steps: true`, also `steps`: every board along the way, the board
   * first and the goal last (not for an unsolvable board).
   *
   * @example
   * table.solve("1 2 3 4 5 6 7 0 8");
   * // {board: "1 2 3 4 5 6 7 0 8", goal: "1 2 3 4 5 6 7 8 0", solvable: true, distance: 1, moves: "r"}
   * @param {Board | string | ArrayLike<number>} board
   * @param {{goal?: Board | string | ArrayLike<number>, steps?: boolean}} [options]
   */
  solve(board, { goal, steps = false } = {}) {
    const cls = this._class(goal);
    const b = this._board(board, cls);
    const cells = this._indexedCells(b, cls);
    const record = { board: formatBoard(b), goal: formatBoard(cls.goal), solvable: false, distance: null, moves: null };
    if (!this._reaches(cells)) {
      if (this.metric === "multi") record.metric = "multi";
      return record;
    }
    const d = this._descend(cells, true);
    let moves = "";
    if (this.metric === "multi") {
      for (const mv of this._path) moves += MOVES[cls.moveBack[mv]];
    } else {
      for (let i = 0; i < d; i++) moves += MOVES[cls.moveBack[this._moves[i]]];
    }
    record.solvable = true;
    record.distance = d;
    record.moves = moves;
    if (this.metric === "multi") {
      record.metric = "multi";
      record.slides = moves.match(/u+|d+|l+|r+/g) ?? [];
    }
    if (steps) record.steps = stepsOf(b, moves);
    return record;
  }

  /**
   * The board's distance and every legal move's outcome, as a chess
   * tablebase gives them: `{board, goal, solvable, distance, moves}` as the
   * Rust `ProbeRecord`, `moves` a list of `{move, board, distance,
   * optimal}` in the order `u d l r` (legal moves only; none for a board
   * that cannot reach the goal), `optimal` when the move leads one closer.
   *
   * @example
   * table.probe("2 3 4 1 5 x 7 6 8").moves.map((m) => `${m.move}:${m.distance}`); // ["u:18", "d:18", "l:18"]
   * @param {Board | string | ArrayLike<number>} board
   * @param {{goal?: Board | string | ArrayLike<number>}} [options]
   */
  probe(board, { goal } = {}) {
    const cls = this._class(goal);
    const b = this._board(board, cls);
    const cells = Uint8Array.from(this._indexedCells(b, cls));
    const record = { board: formatBoard(b), goal: formatBoard(cls.goal), solvable: false, distance: null, moves: [] };
    const multi = this.metric === "multi";
    if (!this._reaches(cells)) {
      if (multi) record.metric = "multi";
      return record;
    }
    const distance = this._descend(cells, false);
    const closer = (distance + 2) % 3;
    const same = distance % 3;
    const farther = (distance + 1) % 3;
    const outcomes = [];
    this._slides(cells, cells.indexOf(0), (mv, k, next, t) => {
      const residue = this.residue(this._ix.rank(next));
      let optimal;
      let d;
      if (distance > 0 && residue === closer) [optimal, d] = [true, distance - 1];
      else if (residue === farther) [optimal, d] = [false, distance + 1];
      else if (multi && residue === same) [optimal, d] = [false, distance];
      else throw this._damaged(next, "a neighbour's entry is neither one closer nor one farther");
      const shown = cls.fromCanonical(trustedBoard(this._rows, this._cols, next.slice(), t));
      outcomes.push({ move: MOVES[cls.moveBack[mv]].repeat(k), board: formatBoard(shown), distance: d, optimal });
      return false;
    });
    outcomes.sort((a, c) => MOVES.indexOf(a.move[0]) - MOVES.indexOf(c.move[0]) || a.move.length - c.move.length);
    record.solvable = true;
    record.distance = distance;
    record.moves = outcomes;
    if (multi) record.metric = "multi";
    return record;
  }

  /**
   * The exact number of distinct optimal solutions: `{board, goal,
   * solvable, distance, count}` as the Rust `CountRecord`: `count` a number
   * when at most 2^53, else its decimal string (`null` when the board
   * cannot reach the goal; 1 for the goal itself). Computed as the Rust
   * library does, one layer of distance at a time from the board, the
   * boards one step further along some optimal solution with their number
   * of paths, merged where paths meet; exact (BigInt past 2^53).
   *
   * @example
   * table.count("8 6 7 2 5 4 3 0 1").count; // 40
   * @param {Board | string | ArrayLike<number>} board
   * @param {{goal?: Board | string | ArrayLike<number>}} [options]
   */
  count(board, { goal } = {}) {
    const cls = this._class(goal);
    const b = this._board(board, cls);
    const cells = Uint8Array.from(this._indexedCells(b, cls));
    const record = { board: formatBoard(b), goal: formatBoard(cls.goal), solvable: false, distance: null, count: null };
    if (!this._reaches(cells)) return record;
    const distance = this._descend(cells, false);
    const start = this._ix.rank(cells);
    let paths = this._countPaths(start, distance, false);
    if (paths === null) paths = this._countPaths(start, distance, true);
    record.solvable = true;
    record.distance = distance;
    record.count = typeof paths === "bigint" ? (paths <= BigInt(MAX_EXACT_JSON) ? Number(paths) : paths.toString()) : paths;
    return record;
  }

  /**
   * The layered count of optimal paths from index `start` at `distance`
   * (the Rust `count_paths`): each layer's boards in index order with
   * their numbers of paths, the next layer the neighbours one closer, the
   * paths that meet on a board added up. In numbers, kept in an open
   * addressing table of typed arrays (null if a count passes 2^53), or in
   * BigInts.
   */
  _countPaths(start, distance, big) {
    const ix = this._ix;
    const n = this._n;
    const rows = this._rows;
    const cols = this._cols;
    const here = this._cells;
    const next = new Uint8Array(n);
    const damaged = (index, why) => {
      const cells = new Uint8Array(n);
      if (ix.unrankInto(index, cells) < 0) {
        return new SolveError("Damaged", `the file is damaged at index ${index}: ${why}; rebuild it`, {
          board: `index ${index}`,
          why,
        });
      }
      return this._damaged(cells, why);
    };
    let keys = Float64Array.of(start);
    let vals = big ? [1n] : Float64Array.of(1);
    const hash = big ? null : this._hash ?? (this._hash = new CountHash());
    const multi = this.metric === "multi";
    for (let walked = 0; walked < distance; walked++) {
      const left = distance - walked;
      const closer = (left + 2) % 3;
      const same = left % 3;
      const farther = (left + 1) % 3;
      const arrivals = big ? new Map() : null;
      if (!big) hash.reserve(keys.length * 4);
      for (let k = 0; k < keys.length; k++) {
        const index = keys[k];
        const paths = vals[k];
        const blank = ix.unrankInto(index, here);
        if (blank < 0) throw damaged(index, "an index past the end");
        if (!multi) {
          for (let mv = 0; mv < 4; mv++) {
            const t = neighbour(mv, blank, rows, cols);
            if (t < 0) continue;
            next.set(here);
            next[blank] = next[t];
            next[t] = 0;
            const to = ix.rank(next);
            const r = this.residue(to);
            if (r === closer) {
              if (big) arrivals.set(to, (arrivals.get(to) ?? 0n) + paths);
              else if (hash.add(to, paths) > MAX_EXACT_JSON) {
                hash.clear();
                return null;
              }
            } else if (r !== farther) {
              if (!big) hash.clear();
              throw damaged(to, "its entry holds no distance");
            }
          }
          continue;
        }
        // In the multi-tile metric each slide one closer carries the paths
        // on; a slide may also lead to a board at the same distance.
        let overflow = false;
        this._slides(here, blank, (_mv, _k, next) => {
          const to = ix.rank(next);
          const r = this.residue(to);
          if (r === closer) {
            if (big) arrivals.set(to, (arrivals.get(to) ?? 0n) + paths);
            else if (hash.add(to, paths) > MAX_EXACT_JSON) {
              overflow = true;
              return true;
            }
          } else if (r !== farther && !(multi && r === same)) {
            if (!big) hash.clear();
            throw damaged(to, "its entry holds no distance");
          }
          return false;
        });
        if (overflow) {
          hash.clear();
          return null;
        }
      }
      if (big) {
        if (arrivals.size === 0) throw damaged(keys[0], "no move leads one closer");
        keys = Float64Array.from(arrivals.keys()).sort();
        vals = Array.from(keys, (i) => arrivals.get(i));
      } else {
        if (hash.size === 0) throw damaged(keys[0], "no move leads one closer");
        [keys, vals] = hash.drainSorted();
      }
    }
    if (keys.length !== 1 || keys[0] !== this._goalIndex) {
      throw damaged(keys[0], "distance 0 at a board that is not the goal");
    }
    return vals[0];
  }

  // ---- layers and random boards ------------------------------------------

  /**
   * The sorted indexes of layer `d` (toward the indexed goal), listing the
   * layers from the goal outward the first time: each layer's boards are
   * the neighbours of the last layer's whose entry is one farther, and its
   * count must be the one the metadata records. At most
   * {@link MAX_LISTED_BOARDS} boards in all.
   */
  _layerList(d) {
    const lists = this._lists;
    if (lists.length > d) return lists[d];
    let total = 0;
    for (let k = 0; k <= d; k++) total += this.layers[k];
    if (total > MAX_LISTED_BOARDS) {
      throw new SolveError(
        "TooRare",
        `listing the boards up to ${d} moves from the goal takes ${total} boards, more than this reader lists (${MAX_LISTED_BOARDS}): draw or list them with slidedb (slidedb random, slidedb layer)`,
      );
    }
    if (lists.length === 0) lists.push(Float64Array.of(this._goalIndex));
    const ix = this._ix;
    const here = this._cells;
    const multi = this.metric === "multi";
    while (lists.length <= d) {
      const depth = lists.length - 1;
      const layer = lists[depth];
      const farther = (depth + 1) % 3;
      const closer = (depth + 2) % 3;
      let arrivals = new Float64Array(Math.max(16, layer.length * 2));
      let len = 0;
      // Each neighbour (each slide, in the multi-tile metric, where one
      // may also be at the same distance) one farther is in the next layer.
      const same = multi ? depth % 3 : -1;
      for (let k = 0; k < layer.length; k++) {
        const blank = ix.unrankInto(layer[k], here);
        this._slides(here, blank, (_mv, _k, next) => {
          const to = ix.rank(next);
          const r = this.residue(to);
          if (r === farther) {
            if (len === arrivals.length) {
              const grown = new Float64Array(arrivals.length * 2);
              grown.set(arrivals);
              arrivals = grown;
            }
            arrivals[len++] = to;
          } else if (r === same) {
            if (depth === 0) throw this._damaged(next, "its entry holds no distance");
          } else if (r !== closer || depth === 0) {
            throw this._damaged(next, "its entry holds no distance");
          }
          return false;
        });
      }
      const sorted = arrivals.subarray(0, len).sort();
      let unique = 0;
      for (let k = 0; k < len; k++) if (k === 0 || sorted[k] !== sorted[k - 1]) sorted[unique++] = sorted[k];
      if (unique !== this.layers[depth + 1]) {
        throw new SolveError(
          "Damaged",
          `the file is damaged: layer ${depth + 1} has ${unique} boards by a search from the goal, but the table counts ${this.layers[depth + 1]}; rebuild it`,
          { board: this.indexedGoal, why: "its layer counts are not what a new search from the goal finds" },
        );
      }
      lists.push(sorted.slice(0, unique));
    }
    return lists[d];
  }

  /**
   * Every board exactly `distance` moves from the goal, in the table's
   * index order (as `slidedb layer` lists them), as strings toward the goal
   * asked. Lists the layers from the goal outward: for tables whose layers
   * up to `distance` hold at most 8,388,608 boards (every 3×3, 2×4 and 2×5
   * layer), else a {@link SolveError} `"TooRare"`.
   *
   * @example
   * table.layer(31); // ["6 4 7 8 5 0 3 2 1", "8 6 7 2 5 4 3 0 1"] for 3x3
   * @param {number} distance
   * @param {{goal?: Board | string | ArrayLike<number>}} [options]
   * @returns {string[]}
   */
  layer(distance, { goal } = {}) {
    const cls = this._class(goal);
    if (!Number.isInteger(distance) || distance < 0 || distance > this.maxDistance) return [];
    const list = this._layerList(distance);
    const cells = new Uint8Array(this._n);
    const out = [];
    for (const index of list) {
      const blank = this._ix.unrankInto(index, cells);
      out.push(formatBoard(cls.fromCanonical(trustedBoard(this._rows, this._cols, cells, blank))));
    }
    return out;
  }

  /**
   * A board drawn uniformly at random among the boards exactly `distance`
   * moves from the goal asked (or `min` to `max` moves), as a string, or
   * `null` if no board is that far. Without `distance`, `min` or `max`:
   * among all boards that can reach the goal. Drawn exactly as the Rust
   * library draws (`slidedb random`): the same `seed` gives the same
   * board, and `rng` (a {@link SplitMix64}) continues one sequence, as
   * `slidedb random --count N --seed S` does. A range holding at least
   * 1/256 of the boards (at least 65,536) is drawn by rejection; a rarer
   * one from its listed boards, which this reader lists from the goal
   * outward for tables whose layers up to it hold at most 8,388,608 boards
   * (every 3×3, 2×4 and 2×5 distance; on 3×4, rare distances up to about
   * 23 moves), else a {@link SolveError} `"TooRare"`.
   *
   * @example
   * table.random({distance: 31, seed: 1}); // one of the two boards 31 moves away on 3x3
   * @param {{distance?: number | "max", min?: number, max?: number | "max", seed?: number | bigint, rng?: SplitMix64,
   *   goal?: Board | string | ArrayLike<number>}} [options]
   * @returns {string | null}
   */
  random({ distance, min, max, seed, rng, goal } = {}) {
    const cls = this._class(goal);
    const gen = rng ?? new SplitMix64(seed ?? freshSeed());
    if (distance === undefined && min === undefined && max === undefined) {
      return formatBoard(randomBoard(cls.goal, gen));
    }
    let lo;
    let hi;
    if (distance !== undefined) lo = hi = distance === "max" ? this.maxDistance : distance;
    else {
      lo = min ?? 0;
      hi = max === undefined || max === "max" ? this.maxDistance : max;
    }
    hi = Math.min(hi, this.maxDistance);
    if (!(lo <= hi)) return null;
    const states = this.states;
    let total = 0;
    for (let d = lo; d <= hi; d++) total += this.layers[d];
    const threshold = Math.min(Math.max(Math.floor(states / 256), 1 << 16), 1 << 24);
    const cells = new Uint8Array(this._n);
    let blank;
    if (total <= threshold) {
      // A rare range: the layer by its share, then one of its boards.
      let pick = gen.below(total);
      let d = lo;
      for (let k = lo; k <= hi; k++) {
        if (pick < this.layers[k]) break;
        pick -= this.layers[k];
        d++;
      }
      const list = this._layerList(d);
      blank = this._ix.unrankInto(list[gen.below(list.length)], cells);
    } else {
      for (;;) {
        blank = this._ix.unrankInto(gen.below(states), cells);
        const d = this._descend(cells, false);
        if (d >= lo && d <= hi) break;
      }
    }
    return formatBoard(cls.fromCanonical(trustedBoard(this._rows, this._cols, cells, blank)));
  }

  /**
   * The table described toward a goal, as the Rust `StatsRecord` (and
   * `slidedb stats --json`): `{size, goal, states, max_distance,
   * mean_distance, layers, hardest, generator}`.
   * @param {{goal?: Board | string | ArrayLike<number>}} [options]
   */
  stats({ goal } = {}) {
    const cls = this._class(goal);
    const ix = this._indexedGoal;
    return {
      size: shapeName(cls.goal),
      goal: formatBoard(cls.goal),
      states: this.states,
      max_distance: this.maxDistance,
      mean_distance: Math.round(this.meanDistance * 1e4) / 1e4,
      layers: this.layers.slice(),
      hardest: this._hardest.map((h) => formatBoard(cls.fromCanonical(trustedBoard(ix.rows, ix.cols, h, h.indexOf(0))))),
      generator: this.generator,
      ...(this.metric === "multi" ? { metric: "multi" } : {}),
    };
  }
}

/** The boards along `moves` from `board`, the board first. */
export function stepsOf(board, moves) {
  const out = [formatBoard(board)];
  const cells = board.cells.slice();
  let blank = board.blank;
  for (const letter of moves) {
    const t = neighbour(MOVES.indexOf(letter), blank, board.rows, board.cols);
    if (t >= 0) {
      cells[blank] = cells[t];
      cells[t] = 0;
      blank = t;
    }
    out.push(formatBoard(trustedBoard(board.rows, board.cols, cells, blank)));
  }
  return out;
}

/**
 * Counts by index, in typed arrays with open addressing: the arrivals of
 * one layer of a count, drained in index order.
 */
class CountHash {
  constructor() {
    this.grow(1 << 10);
    this.size = 0;
  }

  grow(capacity) {
    this.keys = new Float64Array(capacity).fill(-1);
    this.vals = new Float64Array(capacity);
    this.used = new Int32Array(capacity);
    this.mask = capacity - 1;
    this.size = 0;
  }

  /** Room for `count` more keys at a load of at most a half. */
  reserve(count) {
    if (this.size !== 0) throw new Error("reserve on a table in use");
    if (count * 2 > this.keys.length) {
      let capacity = this.keys.length;
      while (count * 2 > capacity) capacity *= 2;
      this.grow(capacity);
    }
  }

  /** Adds `value` to `key`'s count; returns the new count. */
  add(key, value) {
    const keys = this.keys;
    const mask = this.mask;
    let h = Math.imul((key >>> 0) ^ Math.floor(key / 4294967296), 0x9e3779b1) >>> 0;
    h = (h ^ (h >>> 15)) & mask;
    for (;;) {
      const k = keys[h];
      if (k === key) return (this.vals[h] += value);
      if (k === -1) {
        keys[h] = key;
        this.vals[h] = value;
        this.used[this.size++] = h;
        return value;
      }
      h = (h + 1) & mask;
    }
  }

  /** The keys in increasing order and their counts; empties the table. */
  drainSorted() {
    const size = this.size;
    const order = new Float64Array(size);
    for (let i = 0; i < size; i++) order[i] = this.used[i];
    const keys = this.keys;
    order.sort((a, b) => keys[a] - keys[b]);
    const outKeys = new Float64Array(size);
    const outVals = new Float64Array(size);
    for (let i = 0; i < size; i++) {
      const slot = order[i];
      outKeys[i] = keys[slot];
      outVals[i] = this.vals[slot];
      keys[slot] = -1;
    }
    this.size = 0;
    return [outKeys, outVals];
  }

  /** Empties the table. */
  clear() {
    for (let i = 0; i < this.size; i++) this.keys[this.used[i]] = -1;
    this.size = 0;
  }
}
