// Pruning duplicate move sequences (src/duplicates.rs): an automaton over
// the blank's moves that refuses every move completing a sequence with an
// equivalent that comes first (shortest, then first in `u d l r` order),
// so that IDA* walks the very tree the Rust search walks.
//
// Two sequences of moves from the same blank cell are equivalent when they
// leave every tile in the same place. The redundant sequences of up to
// MAX_LENGTH moves whose every proper part is not redundant are found by a
// breadth-first search over sequences from each blank cell; an Aho–Corasick
// automaton recognises them as the moves go by. A state is the longest tail
// of the moves so far that begins a redundant sequence; state `c` (below
// the number of cells) is the start with the blank in cell `c`.

import { DOWN, LEFT, RIGHT, UP } from "./board.js";

/** The transition that refuses a move. */
export const REFUSED = -1;
/** The longest redundant sequences looked for, as the Rust search does. */
export const MAX_LENGTH = 12;

const ALL = [UP, DOWN, LEFT, RIGHT];

/** Filters built, by shape ("RxC"). */
const built = new Map();

/**
 * The filter of a `rows` × `cols` board: `next[state * 4 + move]` is the
 * state after the move, or REFUSED (also for a move off the board). Built
 * once a shape.
 */
export function duplicateFilter(rows, cols) {
  const key = `${rows}x${cols}`;
  let filter = built.get(key);
  if (!filter) {
    filter = buildFilter(rows, cols, MAX_LENGTH);
    built.set(key, filter);
  }
  return filter;
}

/** The cell the blank reaches from `cell` by `mv`, or −1 off the board. */
function neighbour(rows, cols, cell, mv) {
  const r = Math.floor(cell / cols);
  const c = cell % cols;
  if (mv === UP) return r > 0 ? cell - cols : -1;
  if (mv === DOWN) return r + 1 < rows ? cell + cols : -1;
  if (mv === LEFT) return c > 0 ? cell - 1 : -1;
  return c + 1 < cols ? cell + 1 : -1;
}

/** The filter of redundant sequences up to `maxLength` moves. */
export function buildFilter(rows, cols, maxLength) {
  if (maxLength > 15) throw new RangeError("a duplicate filter looks at most 15 moves back");
  const n = rows * cols;
  const step = (cell, mv) => neighbour(rows, cols, cell, mv);
  // The trie of the sequences, one root for each blank cell.
  const trie = [];
  const cellOf = [];
  const ends = [];
  for (let c = 0; c < n; c++) {
    trie.push([REFUSED, REFUSED, REFUSED, REFUSED]);
    cellOf.push(c);
    ends.push(false);
  }
  for (const [start, moves] of redundantSequences(n, maxLength, step)) {
    let state = start;
    let cell = start;
    for (const mv of moves) {
      cell = step(cell, mv);
      if (trie[state][mv] === REFUSED) {
        trie[state][mv] = trie.length;
        trie.push([REFUSED, REFUSED, REFUSED, REFUSED]);
        cellOf.push(cell);
        ends.push(false);
      }
      state = trie[state][mv];
    }
    ends[state] = true;
  }
  // Aho–Corasick, breadth first: a node's failure is the state of the
  // longest proper tail of its sequence (a root's for the empty tail).
  const next = trie.map((row) => row.slice());
  const fail = new Int32Array(trie.length);
  const queue = [];
  for (let root = 0; root < n; root++) {
    for (const mv of ALL) {
      const to = step(root, mv);
      if (to < 0) continue;
      const child = trie[root][mv];
      if (child === REFUSED) next[root][mv] = to;
      else {
        fail[child] = to;
        queue.push(child);
      }
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const u = queue[head];
    if (ends[fail[u]]) ends[u] = true;
    for (const mv of ALL) {
      if (step(cellOf[u], mv) < 0) continue;
      const viaFail = next[fail[u]][mv];
      const child = trie[u][mv];
      if (child === REFUSED) next[u][mv] = viaFail;
      else {
        fail[child] = viaFail;
        queue.push(child);
      }
    }
  }
  // A move into a state that ends a redundant sequence is refused.
  const flat = new Int32Array(next.length * 4);
  next.forEach((row, s) => {
    for (let mv = 0; mv < 4; mv++) {
      const to = row[mv];
      flat[s * 4 + mv] = to !== REFUSED && ends[to] ? REFUSED : to;
    }
  });
  return { states: next.length, next: flat };
}

/**
 * From each blank cell, the redundant sequences of up to `maxLength`
 * moves whose every proper part is not redundant, as [start, moves]: a
 * breadth-first search over sequences, shortest first and each length in
 * `u d l r` order, that extends only sequences not redundant; a sequence
 * reaching an arrangement met before is redundant (its prefix is not),
 * and is kept if its tail without the first move is not redundant either.
 */
function redundantSequences(n, maxLength, step) {
  // An arrangement: which cell's tile each cell holds, five bits a cell,
  // six cells a word.
  const W = Math.ceil(n / 6);
  const identity = new Array(W).fill(0);
  for (let c = 0; c < n; c++) identity[Math.floor(c / 6)] |= c << (5 * (c % 6));
  // A sequence is named by its moves, two bits each, and its length:
  // code * 16 + length.
  const first = [];
  const found = [];
  for (let start = 0; start < n; start++) {
    const seen = new ArrangementSet(W);
    seen.insert(identity);
    const firsts = new Set([0]);
    first.push(firsts);
    // The layer: each sequence's arrangement (W words), blank and code.
    let words = identity.slice();
    let blanks = [start];
    let codes = [0];
    for (let length = 1; length <= maxLength; length++) {
      const nextWords = [];
      const nextBlanks = [];
      const nextCodes = [];
      const after = new Array(W);
      for (let i = 0; i < blanks.length; i++) {
        const blank = blanks[i];
        for (const mv of ALL) {
          const to = step(blank, mv);
          if (to < 0) continue;
          for (let w = 0; w < W; w++) after[w] = words[i * W + w];
          // The tile in `to` slides into the blank's cell.
          const tw = Math.floor(to / 6);
          const ts = 5 * (to % 6);
          const bw = Math.floor(blank / 6);
          const bs = 5 * (blank % 6);
          const tile = (after[tw] >>> ts) & 31;
          after[tw] = (after[tw] & ~(31 << ts)) | (start << ts);
          after[bw] = (after[bw] & ~(31 << bs)) | (tile << bs);
          const longer = codes[i] * 4 + mv;
          if (seen.insert(after)) {
            firsts.add(longer * 16 + length);
            for (let w = 0; w < W; w++) nextWords.push(after[w]);
            nextBlanks.push(to);
            nextCodes.push(longer);
          } else {
            found.push([start, longer, length]);
          }
        }
      }
      words = nextWords;
      blanks = nextBlanks;
      codes = nextCodes;
    }
  }
  const out = [];
  // (MAX_LENGTH moves of two bits fit a 32-bit code.)
  for (const [start, code, length] of found) {
    const tailStart = step(start, (code >>> (2 * (length - 1))) & 3);
    const tail = (code & ((1 << (2 * (length - 1))) - 1)) * 16 + (length - 1);
    if (!first[tailStart].has(tail)) continue;
    const moves = [];
    for (let i = length - 1; i >= 0; i--) moves.push((code >>> (2 * i)) & 3);
    out.push([start, moves]);
  }
  return out;
}

/**
 * A set of arrangements of `W` words each (every word below 2^30), open
 * addressing in typed arrays: no allocation per arrangement.
 */
class ArrangementSet {
  constructor(W) {
    this.W = W;
    this.size = 0;
    this._allocate(1 << 12);
  }

  _allocate(capacity) {
    this.mask = capacity - 1;
    this.slots = new Int32Array(capacity * this.W).fill(-1);
  }

  _slot(words) {
    let h = 0x811c9dc5;
    for (let w = 0; w < this.W; w++) h = Math.imul(h ^ words[w], 0x01000193);
    h ^= h >>> 15;
    let i = h & this.mask;
    const { slots, W } = this;
    for (;;) {
      if (slots[i * W] === -1) return i;
      let same = true;
      for (let w = 0; w < W && same; w++) same = slots[i * W + w] === words[w];
      if (same) return -1 - i;
      i = (i + 1) & this.mask;
    }
  }

  /** Adds `words`; whether it was new. */
  insert(words) {
    let i = this._slot(words);
    if (i < 0) return false;
    if (2 * (this.size + 1) > this.mask + 1) {
      const { slots, W } = this;
      this._allocate(2 * (this.mask + 1));
      const one = new Array(W);
      for (let j = 0; j < slots.length; j += W) {
        if (slots[j] === -1) continue;
        for (let w = 0; w < W; w++) one[w] = slots[j + w];
        this.slots.set(one, this._slot(one) * W);
      }
      i = this._slot(words);
    }
    for (let w = 0; w < this.W; w++) this.slots[i * this.W + w] = words[w];
    this.size++;
    return true;
  }
}
