// The errors the package throws. Every failure is an `Error` subclass whose
// message says what failed, worded as the Rust library words it, and whose
// `code` names the fault for programs (the Rust error's variant name).

/**
 * Text that is not a board or a size, or cells that make no board
 * (the Rust `BoardError`). `code` is the variant: `"Empty"`, `"BadSize"`,
 * `"UnsupportedSize"`, `"BadCell"`, `"EmptyCell"`, `"RaggedRows"`,
 * `"AmbiguousSize"`, `"NoShape"`, `"WrongCellCount"`, `"ShapeMismatch"`,
 * `"TileOutOfRange"`, `"DuplicateTile"`, `"TooManyBlanks"`, `"NoBlank"` or
 * `"MixedSeparators"`.
 *
 * @example
 * try { parseBoard("1 2 3 4 5 6 7 7 0"); } catch (e) { e.code; } // "DuplicateTile"
 */
export class BoardError extends Error {
  /**
   * @param {string} code the fault
   * @param {string} message what is wrong, in words
   */
  constructor(code, message) {
    super(message);
    this.name = "BoardError";
    this.code = code;
  }
}

/**
 * Bytes that are not a usable slidedb file of the kind asked for (the Rust
 * `FileError`). `code` is the variant: `"Truncated"`, `"TrailingBytes"`,
 * `"BadMagic"`, `"Endianness"`, `"Version"`, `"HeaderLength"`,
 * `"Checksum"` (with `section`: `"header"`, `"metadata"` or `"body"`),
 * `"Kind"`, `"WrongKind"`, `"Encoding"`, `"Layout"` or `"Metadata"`.
 *
 * @example
 * try { openTable(new Uint8Array(3)); } catch (e) { e.code; } // "BadMagic"
 */
export class SlidedbFormatError extends Error {
  /**
   * @param {string} code the fault
   * @param {string} message what is wrong and what to do
   * @param {object} [details] fields of the fault (such as `section`)
   */
  constructor(code, message, details) {
    super(message);
    this.name = "SlidedbFormatError";
    this.code = code;
    if (details) Object.assign(this, details);
  }
}

/**
 * A board that could not be answered (the Rust `SolveError`). `code` is
 * `"WrongShape"` (the board is not of the goal's size), `"OtherClass"` (a
 * goal the file does not serve), `"Damaged"` (an entry of the file that
 * cannot be right: a damaged body; `board` and `why` say where and what)
 * or `"TooRare"` (a random draw this reader does not list boards for).
 */
export class SolveError extends Error {
  /**
   * @param {string} code the fault
   * @param {string} message what is wrong
   * @param {object} [details] fields of the fault (such as `board`, `why`)
   */
  constructor(code, message, details) {
    super(message);
    this.name = "SolveError";
    this.code = code;
    if (details) Object.assign(this, details);
  }
}

/**
 * A search stopped before it reached the goal: by its `AbortSignal`
 * (`name` is `"AbortError"`, `cause` the signal's reason) or by its node
 * budget `maxNodes` (`name` is `"SearchBudgetError"`). `stats` is the work
 * done until then (`{expanded, generated, bound, elapsedMs}`).
 */
export class SearchStoppedError extends Error {
  /**
   * @param {string} name `"AbortError"` or `"SearchBudgetError"`
   * @param {string} message what stopped it
   * @param {{expanded: number, generated: number, bound: number, elapsedMs: number}} stats the work done
   * @param {unknown} [cause] the signal's reason
   */
  constructor(name, message, stats, cause) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = name;
    this.code = name === "AbortError" ? "Aborted" : "Budget";
    this.stats = stats;
  }
}

/** `"text"` as Rust's `{:?}` writes a string: quoted, escapes for quotes, backslashes and control characters. */
export function debugString(text) {
  let out = '"';
  for (const ch of text) {
    const c = ch.codePointAt(0);
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\0") out += "\\0";
    else if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0)) out += `\\u{${c.toString(16)}}`;
    else out += ch;
  }
  return out + '"';
}
