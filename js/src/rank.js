// The two ranks of slidedb's files (FORMAT.md, "The index" and "Kind 2";
// src/rank.rs): the full table's index of a board, and the pattern
// database's rank of a placement of a group's tiles.

import { POPCOUNT16 } from "./board.js";

/** n!, exact while it is below 2^53 (n ≤ 18). @param {number} n */
export function factorial(n) {
  let f = 1;
  for (let i = 2; i <= n; i++) f *= i;
  return f;
}

/** n! as a BigInt. @param {number} n @returns {bigint} */
export function factorialBig(n) {
  let f = 1n;
  for (let i = 2n; i <= BigInt(n); i++) f *= i;
  return f;
}

/**
 * The index of the boards of one shape and one parity (the boards that
 * can reach one goal) onto `0 .. cells!/2`:
 *
 *     index = blank × (m!/2) + ⌊lehmer(tiles) / 2⌋      (m = cells − 1 tiles)
 *
 * where `lehmer` is the Lehmer rank of the tiles in reading order, blank
 * left out. For boards of at most 16 cells (the index stays below 2^53).
 *
 * @example
 * const ix = new Indexer({rows: 3, cols: 3}, 0);
 * ix.len; // 181440
 * ix.rank(parseBoard("2 3 4 1 5 x 7 6 8").cells); // its index
 */
export class Indexer {
  /**
   * @param {{rows: number, cols: number}} shape
   * @param {number} parity the boards' parity, 0 or 1
   */
  constructor(shape, parity) {
    const n = shape.rows * shape.cols;
    if (n > 16) throw new RangeError(`an Indexer covers at most 16 cells, not ${shape.rows}x${shape.cols}`);
    const m = n - 1;
    this.rows = shape.rows;
    this.cols = shape.cols;
    this.n = n;
    this.m = m;
    this.parity = parity & 1;
    /** `weight[i]` = (m − 1 − i)! / 2 for the Lehmer digits i < m − 2; 0 for the last two. */
    this.weight = new Float64Array(n);
    let f = 1;
    for (let i = m - 1; i >= 0; i--) {
      if (i + 2 < m) this.weight[i] = f / 2;
      f *= m - i;
    }
    /** Boards per blank cell, m!/2: a move along a row changes the index by exactly this. */
    this.perBlank = f / 2;
    /** How many boards the index covers: cells!/2. */
    this.len = this.perBlank * n;
    this.digits = new Uint8Array(n);
  }

  /**
   * The index of the board whose cells are `cells` (of this shape and
   * parity; not checked). O(cells), no allocation.
   * @param {ArrayLike<number>} cells @returns {number}
   */
  rank(cells) {
    const m = this.m;
    const w = this.weight;
    let seen = 0;
    let h = 0;
    let i = 0;
    let blank = 0;
    for (let c = 0; c <= m; c++) {
      const t = cells[c];
      if (t === 0) {
        blank = c;
        continue;
      }
      if (i + 2 < m) h += (t - 1 - POPCOUNT16[seen & ((1 << t) - 1)]) * w[i];
      seen |= 1 << t;
      i++;
    }
    return blank * this.perBlank + h;
  }

  /**
   * The cells of the board at `index`, written into `out` (a Uint8Array of
   * the board's cells); returns the blank's cell, or -1 past the end.
   * @param {number} index @param {Uint8Array} out @returns {number}
   */
  unrankInto(index, out) {
    if (!(index >= 0 && index < this.len) || !Number.isInteger(index)) return -1;
    const m = this.m;
    const blank = Math.floor(index / this.perBlank);
    let h = index - blank * this.perBlank;
    const digits = this.digits;
    let sum = 0;
    for (let i = 0; i + 2 < m; i++) {
      const d = Math.floor(h / this.weight[i]);
      h -= d * this.weight[i];
      digits[i] = d;
      sum += d;
    }
    fillFromDigits(out, this.cols, this.parity, blank, digits, sum);
    return blank;
  }
}

/**
 * The board with the blank in `blank` and the tiles whose Lehmer digits
 * are `digits` but the last two, which add up to `sum`: the second to last
 * digit fixes the parity (the last is always 0).
 */
function fillFromDigits(out, cols, parity, blank, digits, sum) {
  const n = out.length;
  const row = Math.floor(blank / cols);
  const parityHere = (parity + (cols - 1) * row) % 2;
  digits[n - 3] = (parityHere + sum) % 2;
  digits[n - 2] = 0;
  let free = ((2 ** n - 1) & ~1) >>> 0; // tiles 1 ..= n − 1 (n ≤ 25)
  let next = 0;
  for (let c = 0; c < n; c++) {
    if (c === blank) {
      out[c] = 0;
      continue;
    }
    let f = free;
    for (let k = 0; k < digits[next]; k++) f &= f - 1;
    const t = 31 - Math.clz32(f & -f);
    free &= ~(1 << t);
    out[c] = t;
    next++;
  }
}

/**
 * The index of a board among the boards of its shape and parity, on boards
 * of every size, as a BigInt (the Rust `board_rank`): the {@link Indexer}
 * index where that applies.
 * @param {{rows: number, cols: number, cells: ArrayLike<number>}} board @returns {bigint}
 */
export function boardRank(board) {
  const n = board.rows * board.cols;
  const m = n - 1;
  let seen = 0;
  let lehmer = 0n;
  let i = 0;
  let blank = 0;
  for (let c = 0; c < n; c++) {
    const t = board.cells[c];
    if (t === 0) {
      blank = c;
      continue;
    }
    const below = seen & ((1 << t) - 1);
    const digit = t - 1 - (POPCOUNT16[below & 0xffff] + POPCOUNT16[below >>> 16]);
    lehmer = lehmer * BigInt(m - i) + BigInt(digit);
    seen |= 1 << t;
    i++;
  }
  const states = factorialBig(n) / 2n;
  return BigInt(blank) * (states / BigInt(n)) + lehmer / 2n;
}

/**
 * The cells of the board of `shape` and `parity` whose {@link boardRank}
 * is `rank`, or `null` if `rank` is not below cells!/2 (the Rust
 * `board_unrank`).
 * @param {{rows: number, cols: number}} shape @param {number} parity @param {bigint} rank
 * @returns {Uint8Array | null}
 */
export function boardUnrank(shape, parity, rank) {
  const n = shape.rows * shape.cols;
  const m = n - 1;
  const states = factorialBig(n) / 2n;
  if (rank < 0n || rank >= states) return null;
  const perBlank = states / BigInt(n);
  const blank = Number(rank / perBlank);
  let half = rank % perBlank;
  const digits = new Uint8Array(n);
  let sum = 0;
  for (let i = m - 3; i >= 0; i--) {
    const radix = BigInt(m - i);
    digits[i] = Number(half % radix);
    half /= radix;
    sum += digits[i];
  }
  const out = new Uint8Array(n);
  fillFromDigits(out, shape.cols, parity & 1, blank, digits, sum);
  return out;
}

/**
 * The number of ordered placements of `k` distinct tiles in `n` cells,
 * n!/(n − k)!: a pattern database group's entries (0 if k > n).
 *
 * @example
 * placementCount(16, 8); // 518918400
 * @param {number} n @param {number} k
 */
export function placementCount(n, k) {
  if (k > n) return 0;
  let p = 1;
  for (let x = n - k + 1; x <= n; x++) p *= x;
  return p;
}

/**
 * The rank of an ordered placement of distinct `cells` among `n` cells:
 * the mixed-radix number whose digit `i` is `cells[i]` less the earlier
 * cells below it, with radix `n − i`, the first most significant.
 *
 * @example
 * placementRank([0, 1, 2], 16); // 0
 * placementRank([15, 14, 13], 16); // placementCount(16, 3) - 1
 * @param {ArrayLike<number>} cells @param {number} n
 */
export function placementRank(cells, n) {
  let used = 0;
  let r = 0;
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    const below = used & ((1 << c) - 1);
    r = r * (n - i) + (c - (POPCOUNT16[below & 0xffff] + POPCOUNT16[below >>> 16]));
    used |= 1 << c;
  }
  return r;
}

/**
 * The placement of `k` tiles among `n` cells whose {@link placementRank}
 * is `rank` (below the count).
 * @param {number} rank @param {number} n @param {number} k @returns {Uint8Array} the cells
 */
export function placementUnrank(rank, n, k) {
  const digits = new Uint8Array(k);
  for (let i = k - 1; i >= 0; i--) {
    const radix = n - i;
    digits[i] = rank % radix;
    rank = Math.floor(rank / radix);
  }
  const cells = new Uint8Array(k);
  let used = 0;
  for (let i = 0; i < k; i++) {
    let free = ~used;
    for (let j = 0; j < digits[i]; j++) free &= free - 1;
    const c = 31 - Math.clz32(free & -free);
    cells[i] = c;
    used |= 1 << c;
  }
  return cells;
}

/**
 * For boards of at most 9 cells (8 tiles): the table index from the tile
 * order packed three bits a tile (tile − 1, the first tile in the lowest
 * bits) by two lookups, `low[order & 0xfff] + high[order >>> 12]`: the
 * Lehmer digits of the first four tiles depend on those four alone, those
 * of the last four on those alone.
 * @param {Indexer} indexer @returns {{low: Float64Array, high: Float64Array}}
 */
export function packedRankTables(indexer) {
  const m = indexer.m;
  if (m > 8) throw new RangeError("packed ranks cover at most 8 tiles");
  const w = indexer.weight;
  const low = new Float64Array(4096);
  const high = new Float64Array(4096);
  const t = new Int32Array(4);
  for (let p = 0; p < 4096; p++) {
    for (let j = 0; j < 4; j++) t[j] = ((p >>> (3 * j)) & 7) + 1;
    let a = 0;
    for (let j = 0; j < 4 && j < m; j++) {
      if (j + 2 >= m) continue;
      let before = 0;
      for (let k = 0; k < j; k++) if (t[k] < t[j]) before++;
      a += (t[j] - 1 - before) * w[j];
    }
    low[p] = a;
    let b = 0;
    for (let j = 4; j < m; j++) {
      if (j + 2 >= m) continue;
      let after = 0;
      for (let k = j + 1; k < m; k++) if (t[k - 4] < t[j - 4]) after++;
      b += after * w[j];
    }
    high[p] = b;
  }
  return { low, high };
}
