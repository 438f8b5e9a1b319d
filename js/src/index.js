// slidedb for JavaScript: a reader of slidedb's files (full distance
// tables and pattern databases) with no dependencies, for Node and
// browsers. See README.md and FORMAT.md in the repository.

export {
  Board,
  MOVES,
  applyMove,
  applyMoves,
  boardFromTiles,
  formatBoard,
  isSolvable,
  parity,
  parseBoard,
  parseShape,
  shapeOf,
} from "./board.js";
export { BincodeError, BincodeReader, encodeVarint } from "./bincode.js";
export { crc32, crc32Update } from "./crc32.js";
export { BoardError, SearchStoppedError, SlidedbFormatError, SolveError } from "./errors.js";
export { FAULTS } from "./faults.js";
export { FORMAT_VERSION, HEADER_LEN, KINDS, MAGIC, MAX_METADATA_LEN, OLDEST_VERSION } from "./format.js";
export { PatternDatabases, openPatterns } from "./patterns.js";
export { SplitMix64, randomBoard } from "./random.js";
export {
  Indexer,
  boardRank,
  boardUnrank,
  placementCount,
  placementRank,
  placementUnrank,
} from "./rank.js";
export { GoalClass, Symmetry, allSymmetries, goalClass, mirrors } from "./symmetry.js";
export { MAX_TABLE_CELLS, Table, openTable } from "./table.js";
