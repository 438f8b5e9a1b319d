// Reproducible randomness (src/random.rs): the splitmix64 generator, the
// same sequence for the same seed as the Rust library (and so as
// `slidedb random --seed S`), and uniformly random boards.

import { cellsParity, trustedBoard } from "./board.js";

const MASK = (1n << 64n) - 1n;

/**
 * The splitmix64 generator (Steele, Lea and Flood): the same 64-bit
 * numbers for the same seed as the Rust `SplitMix64`. Not for secrets.
 *
 * @example
 * const rng = new SplitMix64(7);
 * rng.nextU64(); // a BigInt
 * rng.below(10); // 0 to 9
 */
export class SplitMix64 {
  /** @param {number | bigint} seed taken mod 2^64 */
  constructor(seed) {
    this.state = BigInt.asUintN(64, BigInt(seed));
  }

  /** The next 64 random bits. @returns {bigint} */
  nextU64() {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & MASK;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  }

  /**
   * A number in `0 .. n`, every one equally likely (`n > 0`): the high
   * half of a 128-bit product, with Lemire's rejection, as the Rust `below`.
   * @param {number | bigint} n @returns {any} a number, or a BigInt if `n` is one
   */
  below(n) {
    const big = typeof n === "bigint";
    const m = BigInt(n);
    let product = this.nextU64() * m;
    if ((product & MASK) < m) {
      const threshold = ((1n << 64n) - m) % m;
      while ((product & MASK) < threshold) product = this.nextU64() * m;
    }
    const r = product >> 64n;
    return big ? r : Number(r);
  }
}

/** A seed from the platform's randomness, for a draw without one. @returns {bigint} */
export function freshSeed() {
  const words = new Uint32Array(2);
  if (globalThis.crypto && typeof globalThis.crypto.getRandomValues === "function") {
    globalThis.crypto.getRandomValues(words);
  } else {
    words[0] = Math.random() * 2 ** 32;
    words[1] = Math.random() * 2 ** 32;
  }
  return (BigInt(words[1]) << 32n) | BigInt(words[0]);
}

/**
 * A board drawn uniformly from those that can reach `goal` (the Rust
 * `random_board`): a uniform shuffle of the cells, with the first two
 * tiles swapped when it lands on the other parity.
 * @param {import("./board.js").Board} goal @param {SplitMix64} rng
 * @returns {import("./board.js").Board}
 */
export function randomBoard(goal, rng) {
  const n = goal.cells.length;
  const cells = new Uint8Array(n);
  for (let i = 0; i < n; i++) cells[i] = i;
  for (let i = n - 1; i >= 1; i--) {
    const j = rng.below(i + 1);
    const t = cells[i];
    cells[i] = cells[j];
    cells[j] = t;
  }
  if (cellsParity(cells, goal.cols) !== cellsParity(goal.cells, goal.cols)) {
    const at = [];
    for (let i = 0; i < n && at.length < 2; i++) if (cells[i] !== 0) at.push(i);
    const t = cells[at[0]];
    cells[at[0]] = cells[at[1]];
    cells[at[1]] = t;
  }
  return trustedBoard(goal.rows, goal.cols, cells, cells.indexOf(0));
}
