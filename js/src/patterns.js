// Kind 2, additive pattern databases (FORMAT.md, "Kind 2"; src/pdb/file.rs,
// src/pdb/mod.rs), and IDA* over them (src/pdb/ida.rs): the estimate is the
// largest of the groups' sums for the board and for each mirror of it (the
// symmetries that keep the goal's blank in place), and the blank's moves
// are tried up, left, right, down as seen toward the goal asked, and a
// move completing a redundant sequence is refused (duplicates.js), so that
// the tree, and the nodes counted, are the Rust search's on one thread.
//
// The search keeps the board, each view's group cells and values, and the
// sums in typed arrays updated in place by the one tile a move slides, with
// an explicit stack of children: nothing is allocated per node.

import { Board, DOWN, LEFT, MOVES, POPCOUNT16 as POPCOUNT, RIGHT, UP, cellsParity, formatBoard, parseWithShape, shapeName } from "./board.js";
import { SearchStoppedError, SlidedbFormatError, SolveError } from "./errors.js";
import { KIND_PATTERNS, asBytes, checkBody, layoutError, metadataError, readFrame } from "./format.js";
import { AskedGoals, goalsClass, metricName, otherClass, readGoals } from "./goals.js";
import { REFUSED, duplicateFilter } from "./duplicates.js";
import { placementCount, placementRank } from "./rank.js";
import { stepsOf } from "./table.js";
import { GoalClass, mirrors } from "./symmetry.js";

/** Entry encoding 2: one byte an entry. */
export const ENCODING_BYTE = 2;
/** The most tiles in one group. */
export const MAX_GROUP_TILES = 8;
/** The most entries one group may have (7 tiles on 25 cells, as `FORMAT.md` says). */
export const MAX_GROUP_ENTRIES = 2_422_728_000;
/** The deepest bound IDA* tries before it calls the databases damaged. */
export const MAX_BOUND = 1000;
/** How often (in nodes expanded) a search looks at its signal and reports progress. */
export const PROGRESS_EVERY = 1 << 16;

const NONE = 255;

/** Rust's `{:?}` of a `Vec<u8>`: `[1, 2, 3]`. */
const listText = (g) => `[${Array.from(g).join(", ")}]`;

/**
 * Opens pattern databases: one kind-2 file, or several (for instance the
 * files of several goal classes, or of several partitions), each checked as
 * the Rust library checks it on open (FORMAT.md "Kind 2"), then, unless
 * `verify: false`, its body's CRC-32 and each group's entries against its
 * layer counts. A query toward a goal is answered by the file serving the
 * goal's class, the largest if several do. Every fault throws a
 * {@link SlidedbFormatError} naming it.
 *
 * @example
 * const pdb = openPatterns([await fs.promises.readFile("4x4-...-pdb-5-5-5.slidedb")]);
 * pdb.solve("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", {goal: "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"}).distance; // 57
 * @param {ArrayBuffer | ArrayBufferView | Array<ArrayBuffer | ArrayBufferView>} files
 * @param {{verify?: boolean}} [options]
 * @returns {PatternDatabases}
 */
export function openPatterns(files, { verify = true } = {}) {
  const list = Array.isArray(files) ? files : [files];
  if (list.length === 0) throw new TypeError("openPatterns needs at least one file");
  return new PatternDatabases(list.map((f) => new PatternFile(asBytes(f), verify)));
}

function readMetadata(r, version) {
  const generator = r.string("generator");
  const goals = readGoals(r);
  const groups = r.seq("groups", (rr) => rr.bytes("a group"));
  const layers = r.seq("layers", (rr) => rr.seq("a group's layers", (r3) => r3.u64("a layer count")));
  const metric = version >= 3 ? r.u8("metric") : 0;
  return { generator, goals, groups, layers, metric };
}

/** One kind-2 file, checked, and the fixed part of its searches. */
class PatternFile {
  constructor(bytes, verify) {
    const frame = readFrame(bytes, KIND_PATTERNS, ENCODING_BYTE, readMetadata);
    const m = frame.metadata;
    metricName(m.metric);
    const cls = goalsClass(m.goals);
    const goal = cls.canonical;
    const n = goal.rows * goal.cols;
    const shape = shapeName(goal);
    for (const g of m.groups) {
      for (let i = 1; i < g.length; i++) {
        if (g[i - 1] >= g[i]) throw metadataError(`group ${listText(g)} is not ascending`);
      }
    }
    // The Rust Partition::new checks.
    const bad = (what) => metadataError(`groups: bad partition: ${what}`);
    if (m.groups.length === 0) throw bad("no groups");
    const used = new Uint8Array(32);
    for (const g of m.groups) {
      if (g.length === 0) throw bad("an empty group");
      if (g.length > MAX_GROUP_TILES || placementCount(n, g.length) > MAX_GROUP_ENTRIES) {
        throw metadataError(
          `groups: a group of ${g.length} tiles on ${shape} would have ${placementCount(n, g.length)} entries; groups have at most ${MAX_GROUP_TILES} tiles and ${MAX_GROUP_ENTRIES} entries: split it`,
        );
      }
      for (const t of g) {
        if (t === 0 || t >= n) throw bad(`tile ${t}: the tiles of ${shape} are 1 to ${n - 1}`);
        if (used[t]) throw bad(`tile ${t} is in two groups`);
        used[t] = 1;
      }
    }
    if (m.layers.length !== m.groups.length) {
      throw metadataError(`${m.groups.length} groups but ${m.layers.length} lists of layers`);
    }
    let total = 0;
    m.groups.forEach((group, g) => {
      const layers = m.layers[g];
      const entries = placementCount(n, group.length);
      if (layers.length > 256) {
        throw metadataError(
          `group ${listText(group)}: ${layers.length} layer counts, but entries are bytes (at most 256)`,
        );
      }
      if (layers[0] !== 1n) {
        throw metadataError(`group ${listText(group)}: the layer counts do not start with 1 (the goal's placement)`);
      }
      let sum = 0n;
      for (const c of layers) {
        sum += c;
        if (sum >= 1n << 64n) throw metadataError("layer counts overflow");
      }
      if (sum !== BigInt(entries)) {
        throw metadataError(`group ${listText(group)}: layer counts add up to ${sum}, not ${entries}`);
      }
      total += entries;
    });
    const bodyLen = frame.bodyEnd - frame.bodyStart;
    if (bodyLen !== total) throw layoutError(`body of ${bodyLen} bytes, but the groups have ${total} entries`);

    this.bytes = bytes;
    this.body = bytes.subarray(frame.bodyStart, frame.bodyEnd);
    this.bodyStart = frame.bodyStart;
    this.bodyEnd = frame.bodyEnd;
    this.bodyCrc = frame.bodyCrc;
    this.generator = m.generator;
    this.class = cls;
    this.goal = goal; // the canonical goal
    this.n = n;
    this.groups = m.groups; // named as in the canonical goal
    this.layers = m.layers.map((l) => l.map(Number));
    this.offsets = [];
    let at = 0;
    for (const g of m.groups) {
      this.offsets.push(at);
      at += placementCount(n, g.length);
    }
    // The goal's placement must read 0 in every group, or IDA* would never accept it.
    const cellOf = new Uint8Array(n);
    for (let c = 0; c < n; c++) cellOf[goal.cells[c]] = c;
    m.groups.forEach((group, g) => {
      const home = this.body[this.offsets[g] + placementRank(Array.from(group, (t) => cellOf[t]), n)];
      if (home !== 0) throw layoutError(`group ${g + 1}'s entry for the goal is ${home}, not 0`);
    });
    if (verify) this.verify();
    this.search = new Search(this);
  }

  /** The body's CRC-32, then each group's entries recounted against its layer counts. */
  verify() {
    checkBody(this.bytes, this.bodyStart, this.bodyEnd, this.bodyCrc);
    this.groups.forEach((group, g) => {
      const counts = new Float64Array(256);
      const start = this.offsets[g];
      const end = start + placementCount(this.n, group.length);
      const body = this.body;
      for (let i = start; i < end; i++) counts[body[i]]++;
      const layers = this.layers[g];
      let ok = true;
      for (let d = 0; d < 256; d++) if (counts[d] !== (d < layers.length ? layers[d] : 0)) ok = false;
      if (!ok) throw metadataError(`group ${g + 1}'s entries are not spread as its layer counts say`);
    });
  }
}

/**
 * Pattern databases opened by {@link openPatterns}: `shape`, `goal` and
 * `groups` are those of the first file (its goal is the default goal),
 * `databases` describes every file. Queries take a board as text (read
 * with the goal's size), an array of cells or a {@link Board}, and a
 * `goal` of any class a file serves.
 */
export class PatternDatabases {
  /** @param {PatternFile[]} files */
  constructor(files) {
    this._files = files;
    const first = files[0];
    const goal = first.class.goal;
    /** The first file's goal's size, `{rows, cols}`. */
    this.shape = { rows: goal.rows, cols: goal.cols };
    /** The goal the first file was built for: the default goal. */
    this.goal = formatBoard(goal);
    /** The first file's groups of tiles, named as in its goal, each ascending. */
    this.groups = groupsToward(first, first.class);
    /** Every file: its goal, groups (named as in its goal), generator and entries. */
    this.databases = files.map((f) => ({
      goal: formatBoard(f.class.goal),
      indexedGoal: formatBoard(f.goal),
      groups: groupsToward(f, f.class),
      generator: f.generator,
      entries: f.body.length,
    }));
    this._own = first.class;
    this._asked = new AskedGoals(this.shape, (cls, board) => {
      const file = this._fileFor(cls);
      if (!file) throw otherClass(board, this.goal);
      return { cls, file };
    });
  }

  /** Checks every file's body again (CRC-32 and layer counts). */
  verify() {
    for (const f of this._files) f.verify();
  }

  /** The goal asked's class and the file serving it (read once per goal). */
  _class(goal) {
    if (goal === undefined || goal === null) return { cls: this._own, file: this._fileFor(this._own) };
    return this._asked.get(goal);
  }

  /** The largest file serving `cls`, if any. */
  _fileFor(cls) {
    let best = null;
    for (const f of this._files) {
      if (cls.sameClass(f.class) && (best === null || f.body.length > best.body.length)) best = f;
    }
    return best;
  }

  /**
   * The estimate of `board`'s distance: the groups' sum (of the board
   * itself only, as the Rust `estimate`), never more than its distance.
   * @param {Board | string | ArrayLike<number>} board
   * @param {{goal?: Board | string | ArrayLike<number>}} [options]
   * @returns {number}
   */
  estimate(board, { goal } = {}) {
    const { cls, file } = this._class(goal);
    const b = checkedBoard(board, cls);
    const cells = cls.cellsToCanonical(b.cells, new Uint8Array(b.cells.length));
    const cellOf = new Uint8Array(file.n);
    for (let c = 0; c < file.n; c++) cellOf[cells[c]] = c;
    let sum = 0;
    file.groups.forEach((group, g) => {
      sum += file.body[file.offsets[g] + placementRank(Array.from(group, (t) => cellOf[t]), file.n)];
    });
    return sum;
  }

  /**
   * An optimal solution by IDA* over the databases: `{board, goal,
   * solvable, distance, moves, stats}`, the Rust `SolveRecord` (as
   * `slidedb solve --json` prints it) with `stats`: `{expanded,
   * generated, bound, elapsedMs}`, the nodes expanded (whose children
   * were looked at) and generated (children looked at, the move back
   * left out) over every iteration, as the Rust search counts them on one
   * thread, the last bound tried, and the time taken (`stats` is `null`
   * for a board that cannot reach the goal). `steps: true` adds the boards
   * along the way.
   *
   * A search can be stopped: by `signal` (an `AbortSignal`, looked at
   * every 65,536 nodes expanded: a {@link SearchStoppedError} named
   * `"AbortError"`) or by `maxNodes` (at most that many nodes expanded: a
   * {@link SearchStoppedError} named `"SearchBudgetError"`). `onProgress`
   * is called with the stats so far every 65,536 nodes expanded.
   *
   * @example
   * const r = pdb.solve("4 7 14 13 10 3 9 12 11 5 6 15 1 2 8 0", {goal: "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"});
   * r.distance; // 56
   * r.stats; // {expanded: ..., generated: ..., bound: 56, elapsedMs: ...}
   * @param {Board | string | ArrayLike<number>} board
   * @param {{goal?: Board | string | ArrayLike<number>, steps?: boolean, signal?: AbortSignal,
   *   maxNodes?: number, onProgress?: (stats: {expanded: number, generated: number, bound: number, elapsedMs: number}) => void}} [options]
   */
  solve(board, { goal, steps = false, signal, maxNodes, onProgress } = {}) {
    const { cls, file } = this._class(goal);
    const b = checkedBoard(board, cls);
    const record = {
      board: formatBoard(b),
      goal: formatBoard(cls.goal),
      solvable: false,
      distance: null,
      moves: null,
      stats: null,
    };
    const cells = cls.cellsToCanonical(b.cells, new Uint8Array(b.cells.length));
    if (cellsParity(cells, file.goal.cols) !== cellsParity(file.goal.cells, file.goal.cols)) return record;
    // The blank's moves up, left, right, down as seen toward the goal asked.
    const order = [UP, LEFT, RIGHT, DOWN].map((asked) => cls.moveTo[asked]);
    const found = file.search.solve(cells, order, signal, maxNodes ?? Infinity, onProgress);
    if (found === null) {
      throw new SolveError(
        "Damaged",
        `the file is damaged at ${record.board}: the pattern databases let no path through within ${MAX_BOUND} moves; rebuild it`,
        { board: record.board, why: `the pattern databases let no path through within ${MAX_BOUND} moves` },
      );
    }
    let moves = "";
    for (const m of found.moves) moves += MOVES[cls.moveBack[m]];
    record.solvable = true;
    record.distance = moves.length;
    record.moves = moves;
    record.stats = found.stats;
    if (steps) record.steps = stepsOf(b, moves);
    return record;
  }

  /**
   * The board's distance by {@link PatternDatabases#solve} (IDA*), or
   * `null` if it cannot reach the goal; stopped as `solve` is.
   * @param {Board | string | ArrayLike<number>} board
   * @param {{goal?: Board | string | ArrayLike<number>, signal?: AbortSignal, maxNodes?: number}} [options]
   * @returns {number | null}
   */
  distance(board, { goal, signal, maxNodes } = {}) {
    return this.solve(board, { goal, signal, maxNodes }).distance;
  }
}

/** A file's groups named as in `cls`'s goal, each ascending. */
function groupsToward(file, cls) {
  return file.groups.map((g) => Array.from(g, (t) => cls.unrename[t]).sort((a, b) => a - b));
}

function checkedBoard(board, cls) {
  const b = parseWithShape(board, cls.goal);
  if (b.rows !== cls.goal.rows || b.cols !== cls.goal.cols) {
    throw new SolveError("WrongShape", `the board is ${shapeName(b)} but the goal is ${shapeName(cls.goal)}`, {
      board: shapeName(b),
      goal: shapeName(cls.goal),
    });
  }
  return b;
}

/**
 * IDA* over one file's databases toward its canonical goal, with the
 * views (the identity and the mirrors), all in typed arrays.
 */
class Search {
  /** @param {PatternFile} file */
  constructor(file) {
    const goal = file.goal;
    const n = file.n;
    const G = file.groups.length;
    this.n = n;
    this.G = G;
    this.rows = goal.rows;
    this.cols = goal.cols;
    this.goalCells = goal.cells;
    this.body = file.body;
    this.offsets = Int32Array.from(file.offsets);
    this.sizes = Uint8Array.from(file.groups, (g) => g.length);
    // Rank weights: digit i of a group of k tiles weighs (n − i − 1)!/(n − k)!.
    this.weights = new Int32Array(G * 8);
    file.groups.forEach((g, gi) => {
      let w = 1;
      for (let i = g.length - 1; i >= 0; i--) {
        this.weights[gi * 8 + i] = w;
        w *= n - i;
      }
    });
    const groupOf = new Uint8Array(32).fill(NONE);
    const slotOf = new Uint8Array(32);
    file.groups.forEach((g, gi) => g.forEach((t, slot) => ((groupOf[t] = gi), (slotOf[t] = slot))));
    // The views: the symmetries that keep the goal's blank in place.
    const views = mirrors(goal);
    let V = 1;
    while (V < views.length) V *= 2;
    while (views.length < V) views.push(views[0]);
    this.V = V;
    this.vCell = new Uint8Array(V * n);
    this.vGroup = new Uint8Array(V * n).fill(NONE);
    this.vSlot = new Uint8Array(V * n);
    views.forEach((s, v) => {
      for (let c = 0; c < n; c++) {
        const to = s.cells[c];
        this.vCell[v * n + c] = to;
        const tile = goal.cells[c];
        const named = goal.cells[to];
        this.vGroup[v * n + tile] = groupOf[named];
        this.vSlot[v * n + tile] = slotOf[named];
      }
    });
    // The node, updated in place.
    this.board = new Uint8Array(n);
    this.blank = 0;
    this.cells = new Uint8Array(V * G * 8);
    this.value = new Uint8Array(V * G);
    this.sum = new Int32Array(V);
    // The stack: at depth d, up to four children.
    const D = MAX_BOUND + 2;
    this.fTarget = new Uint8Array(D * 4);
    this.fMove = new Uint8Array(D * 4);
    this.fF = new Int32Array(D * 4);
    this.fVals = new Uint8Array(D * 4 * V);
    this.fCount = new Uint8Array(D);
    this.fNext = new Uint8Array(D);
    this.fRepl = new Uint8Array(D * V);
    this.fHere = new Uint8Array(D);
    this.path = new Uint8Array(D);
    // The duplicate filter's state at each depth, and each child's.
    // (built on the first search, not when the file is opened).
    this.filter = null;
    this.fState = new Int32Array(D);
    this.fAfter = new Int32Array(D * 4);
    this.adjacency = new Map(); // by move order
  }

  /** For each cell, the moves in `order` that stay on the board and their cells. */
  _adjacency(order) {
    const key = order.join("");
    let adj = this.adjacency.get(key);
    if (!adj) {
      const { rows, cols, n } = this;
      const targets = new Int8Array(n * 4).fill(-1);
      const moves = new Uint8Array(n * 4);
      const counts = new Uint8Array(n);
      for (let c = 0; c < n; c++) {
        const r = Math.floor(c / cols);
        const k = c % cols;
        for (const mv of order) {
          let t = -1;
          if (mv === UP && r > 0) t = c - cols;
          else if (mv === DOWN && r + 1 < rows) t = c + cols;
          else if (mv === LEFT && k > 0) t = c - 1;
          else if (mv === RIGHT && k + 1 < cols) t = c + 1;
          if (t < 0) continue;
          targets[c * 4 + counts[c]] = t;
          moves[c * 4 + counts[c]] = mv;
          counts[c]++;
        }
      }
      adj = { targets, moves, counts };
      this.adjacency.set(key, adj);
    }
    return adj;
  }

  /** The rank of group `g`'s cells at `base` in `cells`. */
  _rank(base, g) {
    const cells = this.cells;
    const w = this.weights;
    const k = this.sizes[g];
    let used = 0;
    let r = 0;
    for (let i = 0; i < k; i++) {
      const c = cells[base + i];
      const below = used & ((1 << c) - 1);
      r += (c - POPCOUNT[below & 0xffff] - POPCOUNT[below >>> 16]) * w[g * 8 + i];
      used |= 1 << c;
    }
    return r;
  }

  /** Sets the node to the board of `cells`, every value computed in full. */
  _start(cells) {
    const { n, G, V, vCell, vGroup, vSlot } = this;
    this.board.set(cells);
    this.blank = cells.indexOf(0);
    for (let c = 0; c < n; c++) {
      const t = cells[c];
      for (let v = 0; v < V; v++) {
        const g = vGroup[v * n + t];
        if (g !== NONE) this.cells[(v * G + g) * 8 + vSlot[v * n + t]] = vCell[v * n + c];
      }
    }
    for (let v = 0; v < V; v++) {
      let sum = 0;
      for (let g = 0; g < G; g++) {
        const value = this.body[this.offsets[g] + this._rank((v * G + g) * 8, g)];
        this.value[v * G + g] = value;
        sum += value;
      }
      this.sum[v] = sum;
    }
  }

  /**
   * An optimal path (move codes toward the canonical goal) from `cells`
   * (which can reach the goal) and the work it took; null if the bound
   * passes MAX_BOUND. Throws a SearchStoppedError when stopped.
   */
  solve(cells, order, signal, maxNodes, onProgress) {
    const clock = now();
    const stats = { expanded: 0, generated: 0, bound: 0, elapsedMs: 0 };
    if (signal && signal.aborted) {
      throw new SearchStoppedError("AbortError", "the search was stopped before it started", stats, signal.reason);
    }
    if (!this.filter) this.filter = duplicateFilter(this.rows, this.cols).next;
    this._start(cells);
    const adj = this._adjacency(order);
    let bound = this._estimate();
    for (;;) {
      if (bound > MAX_BOUND) return null;
      stats.bound = bound;
      const next = this._pass(bound, adj, stats, signal, maxNodes, onProgress, clock);
      if (next < 0) {
        const length = -next - 1;
        stats.elapsedMs = now() - clock;
        return { moves: Array.from(this.path.subarray(0, length)), stats };
      }
      bound = next;
    }
  }

  _estimate() {
    let h = 0;
    for (let v = 0; v < this.V; v++) if (this.sum[v] > h) h = this.sum[v];
    return h;
  }

  /**
   * One depth-first pass within `bound`. Returns −(length + 1) when it
   * found the goal (the path in `this.path`), else the least f past the
   * bound (the next bound). Every variable of the walk is a local: the
   * children of a node are estimated when it is expanded (first view,
   * then the mirrors for the children the first view does not cut off),
   * then searched in order.
   */
  _pass(bound, adj, stats, signal, maxNodes, onProgress, clock) {
    const { n, G, V, vCell, vGroup, vSlot, body, offsets, weights, sizes } = this;
    const { board, cells, value, sum, goalCells } = this;
    const { fTarget, fMove, fF, fVals, fCount, fNext, fRepl, fHere, path } = this;
    const { filter, fState, fAfter } = this;
    const { targets, moves, counts } = adj;
    let expanded = stats.expanded;
    let generated = stats.generated;
    let nextBound = 0x7fffffff;
    let blank = this.blank;
    let d = 0;
    let previous = -1;
    fState[0] = blank;

    if (isGoal(sum, V, board, goalCells, n)) {
      this.blank = blank;
      return -1;
    }
    for (;;) {
      // Expand the node at depth d (path length d), reached from `previous`.
      if (expanded >= maxNodes || ((expanded + 1) & (PROGRESS_EVERY - 1)) === 0) {
        const budget = expanded >= maxNodes;
        if (!budget) expanded++;
        stats.expanded = expanded;
        stats.generated = generated;
        stats.elapsedMs = now() - clock;
        if (budget || (signal && signal.aborted)) {
          this._unwind(d, blank);
          throw new SearchStoppedError(
            budget ? "SearchBudgetError" : "AbortError",
            budget
              ? `the search stopped at its budget of ${maxNodes} nodes expanded, without reaching the goal`
              : `the search was stopped after ${expanded} nodes expanded, without reaching the goal`,
            { ...stats },
            budget ? undefined : signal.reason,
          );
        }
        if (onProgress) onProgress({ ...stats });
      } else {
        expanded++;
      }
      const g1 = d + 1;
      fHere[d] = blank;
      let count = 0;
      const first = blank * 4;
      const moveCount = counts[blank];
      const state = fState[d] * 4;
      for (let j = 0; j < moveCount; j++) {
        const target = targets[first + j];
        if (target === previous) continue;
        const mv = moves[first + j];
        const after = filter[state + mv];
        if (after === REFUSED) continue;
        const idx = d * 4 + count;
        fTarget[idx] = target;
        fMove[idx] = mv;
        fAfter[idx] = after;
        const tile = board[target];
        const gr = vGroup[tile];
        if (gr === NONE) {
          fVals[idx * V] = 0;
          fF[idx] = g1 + sum[0];
        } else {
          const val = groupValue(cells, gr * 8, sizes[gr], vSlot[tile], vCell[blank], weights, gr * 8, body, offsets[gr]);
          fVals[idx * V] = val;
          fF[idx] = g1 + sum[0] - value[gr] + val;
        }
        count++;
      }
      if (V > 1) {
        for (let i = 0; i < count; i++) {
          const idx = d * 4 + i;
          let f = fF[idx];
          if (f <= bound || f < nextBound) {
            const tile = board[fTarget[idx]];
            for (let v = 1; v < V; v++) {
              const gr = vGroup[v * n + tile];
              let s;
              if (gr === NONE) {
                fVals[idx * V + v] = 0;
                s = sum[v];
              } else {
                const val = groupValue(
                  cells,
                  (v * G + gr) * 8,
                  sizes[gr],
                  vSlot[v * n + tile],
                  vCell[v * n + blank],
                  weights,
                  gr * 8,
                  body,
                  offsets[gr],
                );
                fVals[idx * V + v] = val;
                s = sum[v] - value[v * G + gr] + val;
              }
              if (g1 + s > f) f = g1 + s;
            }
            fF[idx] = f;
          }
        }
      }
      fCount[d] = count;
      fNext[d] = 0;

      // Search the children in order, going down into the first within the
      // bound; back up when a node has none left.
      for (;;) {
        if (fNext[d] < fCount[d]) {
          const idx = d * 4 + fNext[d]++;
          generated++;
          const f = fF[idx];
          if (f <= bound) break;
          if (f < nextBound) nextBound = f;
        } else {
          if (d === 0) {
            stats.expanded = expanded;
            stats.generated = generated;
            this.blank = blank;
            return nextBound;
          }
          d--;
          // Undo the slide that moved the blank from fHere[d].
          const back = fHere[d];
          const from = blank;
          const tile = board[back];
          board[from] = tile;
          board[back] = 0;
          blank = back;
          for (let v = 0; v < V; v++) {
            const gr = vGroup[v * n + tile];
            if (gr === NONE) continue;
            cells[(v * G + gr) * 8 + vSlot[v * n + tile]] = vCell[v * n + from];
            const at = v * G + gr;
            sum[v] += fRepl[d * V + v] - value[at];
            value[at] = fRepl[d * V + v];
          }
        }
      }
      // Slide the tile in the child's cell into the blank, every view updated.
      const idx = d * 4 + fNext[d] - 1;
      const target = fTarget[idx];
      const from = blank;
      const tile = board[target];
      board[from] = tile;
      board[target] = 0;
      blank = target;
      for (let v = 0; v < V; v++) {
        const gr = vGroup[v * n + tile];
        if (gr === NONE) continue;
        cells[(v * G + gr) * 8 + vSlot[v * n + tile]] = vCell[v * n + from];
        const at = v * G + gr;
        const old = value[at];
        fRepl[d * V + v] = old;
        const nv = fVals[idx * V + v];
        sum[v] += nv - old;
        value[at] = nv;
      }
      path[d] = fMove[idx];
      fState[d + 1] = fAfter[idx];
      d++;
      previous = from;
      if (sum[0] === 0 && isGoal(sum, V, board, goalCells, n)) {
        stats.expanded = expanded;
        stats.generated = generated;
        this.blank = blank;
        return -(d + 1);
      }
    }
  }

  /** Undoes the slides of the path down to depth `d`, back to the root. */
  _unwind(d, blank) {
    const { n, G, V, vCell, vGroup, vSlot, board, cells, value, sum, fHere, fRepl } = this;
    while (d > 0) {
      d--;
      const back = fHere[d];
      const tile = board[back];
      board[blank] = tile;
      board[back] = 0;
      for (let v = 0; v < V; v++) {
        const gr = vGroup[v * n + tile];
        if (gr === NONE) continue;
        cells[(v * G + gr) * 8 + vSlot[v * n + tile]] = vCell[v * n + blank];
        const at = v * G + gr;
        sum[v] += fRepl[d * V + v] - value[at];
        value[at] = fRepl[d * V + v];
      }
      blank = back;
    }
    this.blank = blank;
  }
}

/**
 * A group's entry for its tiles' cells at `base` in `cells`, with slot
 * `slot` moved to cell `to`: the placement's rank, digit i weighing
 * weights[g·8 + i], looked up in the body at the group's offset.
 */
function groupValue(cells, base, k, slot, to, weights, wb, body, offset) {
  const old = cells[base + slot];
  cells[base + slot] = to;
  let used = 0;
  let r = 0;
  for (let i = 0; i < k; i++) {
    const c = cells[base + i];
    let x = used & ((1 << c) - 1);
    x = x - ((x >>> 1) & 0x55555555);
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    x = (x + (x >>> 4)) & 0x0f0f0f0f;
    r += (c - (Math.imul(x, 0x01010101) >>> 24)) * weights[wb + i];
    used |= 1 << c;
  }
  cells[base + slot] = old;
  return body[offset + r];
}

/** Whether the node is the goal: every view's sum 0 and the goal's board. */
function isGoal(sum, V, board, goalCells, n) {
  for (let v = 0; v < V; v++) if (sum[v] !== 0) return false;
  for (let c = 0; c < n; c++) if (board[c] !== goalCells[c]) return false;
  return true;
}

function now() {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}

