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
 * moves whose every proper part is not redundant, as [start, moves].
 */
function redundantSequences(n, maxLength, step) {
  // A sequence is named by its moves, two bits each, and its length:
  // code * 16 + length.
  const first = [];
  const found = [];
  const identity = Uint8Array.from({ length: n }, (_, c) => c);
  const keyOf = (tiles) => String.fromCharCode.apply(null, tiles);
  for (let start = 0; start < n; start++) {
    const seen = new Set([keyOf(identity)]);
    const firsts = new Set([0]);
    first.push(firsts);
    let layer = [[identity, start, 0]];
    for (let length = 1; length <= maxLength; length++) {
      const following = [];
      for (const [tiles, blank, code] of layer) {
        for (const mv of ALL) {
          const to = step(blank, mv);
          if (to < 0) continue;
          const after = tiles.slice();
          after[blank] = tiles[to];
          after[to] = tiles[blank];
          const longer = code * 4 + mv;
          const key = keyOf(after);
          if (!seen.has(key)) {
            seen.add(key);
            firsts.add(longer * 16 + length);
            following.push([after, to, longer]);
          } else {
            found.push([start, longer, length]);
          }
        }
      }
      layer = following;
    }
  }
  const out = [];
  for (const [start, code, length] of found) {
    const moves = [];
    for (let i = length - 1; i >= 0; i--) moves.push(Math.floor(code / 4 ** i) % 4);
    const tailStart = step(start, moves[0]);
    const tail = (code % 4 ** (length - 1)) * 16 + (length - 1);
    if (first[tailStart].has(tail)) out.push([start, moves]);
  }
  return out;
}
