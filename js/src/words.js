// Messages in correct English (Rust `slidedb::words`).

/**
 * `n` and `one` when `n` is 1, else `n` and `many`: "1 cell makes",
 * "3 cells make".
 * @param {number | bigint} n @param {string} one @param {string} many
 * @returns {string}
 */
export function counted(n, one, many) {
  return `${n} ${Number(n) === 1 ? one : many}`;
}
