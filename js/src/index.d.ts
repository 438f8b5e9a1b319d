// Type declarations of the slidedb package (hand-written; the code is
// plain ES modules in this folder).

/** A board size. */
export interface Shape {
  rows: number;
  cols: number;
}

/** A board as the queries take it: text, cells in reading order (0 the blank), or a Board. */
export type BoardInput = string | ArrayLike<number> | Board;

/** The move letters, the direction the blank travels: up, down, left, right. */
export type MoveLetter = "u" | "d" | "l" | "r";

/** The move letters in the order the solvers try them: `"udlr"`. */
export const MOVES: "udlr";

/** A checked board: every tile 1 to cells − 1 once and one blank (0). Do not change `cells`. */
export class Board {
  /** A checked board; throws a BoardError if the cells make none. */
  constructor(rows: number, cols: number, cells: ArrayLike<number>);
  readonly rows: number;
  readonly cols: number;
  /** The cells in reading order, 0 for the blank. */
  readonly cells: Uint8Array;
  /** The blank's cell, in reading order from 0. */
  readonly blank: number;
  /** `{rows, cols}`. */
  readonly shape: Shape;
  /** The cells split by single spaces, blank 0 (the Rust Display). */
  toString(): string;
  toJSON(): string;
}

/** Options naming a board's size: `size` ("RxC") or `shape` ("RxC" or {rows, cols}). */
export interface SizeOptions {
  size?: string | Shape;
  shape?: string | Shape;
}

/**
 * Reads a board in every syntax the command line reads (`2 3 4 1 5 x 7 6 8`,
 * `724506831`, `1,2,3,4,5,6,7,8,0`, `7 2 4 / 5 0 6 / 8 3 1`; blank 0, x, _ or .),
 * or an array of cells. Throws a BoardError.
 */
export function parseBoard(input: BoardInput, options?: SizeOptions): Board;
/** Reads a size, "RxC" (also R×C, RXC) or {rows, cols}. Throws a BoardError. */
export function parseShape(size: string | Shape): Shape;
/** A board of `shape` from its cells (the Rust `Board::from_tiles`). */
export function boardFromTiles(shape: Shape, tiles: ArrayLike<number>): Board;
/** The Rust Display of a board: cells split by single spaces, blank 0. */
export function formatBoard(board: BoardInput): string;
/** A board's size. */
export function shapeOf(board: BoardInput): Shape;
/** The board after the blank moves `letter`, or null if it would leave the board. */
export function applyMove(board: BoardInput, letter: MoveLetter | string): Board | null;
/** The boards along `moves` from `board` (board first), or null at an illegal move. */
export function applyMoves(board: BoardInput, moves: string): Board[] | null;
/** The solvability invariant: 0 or 1. */
export function parity(board: BoardInput): number;
/** Whether `board` can reach `goal`: same size, same parity. */
export function isSolvable(board: BoardInput, goal: BoardInput): boolean;

// ---- errors ------------------------------------------------------------

/** Text or cells that make no board or size (the Rust BoardError); `code` is the variant. */
export class BoardError extends Error {
  readonly name: "BoardError";
  readonly code:
    | "Empty"
    | "BadSize"
    | "UnsupportedSize"
    | "BadCell"
    | "EmptyCell"
    | "RaggedRows"
    | "AmbiguousSize"
    | "NoShape"
    | "WrongCellCount"
    | "ShapeMismatch"
    | "TileOutOfRange"
    | "DuplicateTile"
    | "TooManyBlanks"
    | "NoBlank"
    | "MixedSeparators";
}

/** Bytes that are not a usable file of the kind asked for (the Rust FileError). */
export class SlidedbFormatError extends Error {
  readonly name: "SlidedbFormatError";
  readonly code:
    | "Truncated"
    | "TrailingBytes"
    | "BadMagic"
    | "Endianness"
    | "Version"
    | "HeaderLength"
    | "Checksum"
    | "Kind"
    | "WrongKind"
    | "Encoding"
    | "Layout"
    | "Metadata";
  /** For `Checksum`: the part whose checksum differs. */
  readonly section?: "header" | "metadata" | "body";
}

/** A board that could not be answered (the Rust SolveError). */
export class SolveError extends Error {
  readonly name: "SolveError";
  readonly code: "WrongShape" | "OtherClass" | "Damaged" | "TooRare";
  /** For `Damaged`: where the file was found damaged, and what was wrong. */
  readonly board?: string;
  readonly why?: string;
}

/** The work a search did. */
export interface SearchStats {
  /** Nodes whose children were looked at, over every iteration. */
  expanded: number;
  /** Children looked at (the move back left out), over every iteration. */
  generated: number;
  /** The last bound tried: the distance, once found. */
  bound: number;
  /** Milliseconds the search took. */
  elapsedMs: number;
}

/** A search stopped by its AbortSignal (`name` "AbortError") or its budget (`name` "SearchBudgetError"). */
export class SearchStoppedError extends Error {
  readonly name: "AbortError" | "SearchBudgetError";
  readonly code: "Aborted" | "Budget";
  readonly stats: SearchStats;
}

// ---- records -------------------------------------------------------------

/** The Rust SolveRecord: `slidedb solve --json`. */
export interface SolveRecord {
  board: string;
  goal: string;
  solvable: boolean;
  /** The number of moves (in a multi-tile table, slides); null when the board cannot reach the goal. */
  distance: number | null;
  /** The blank's moves (u d l r, one letter a cell), "" for the goal itself; null when unsolvable. */
  moves: string | null;
  /** From a multi-tile table only: `"multi"`. */
  metric?: "multi";
  /** From a multi-tile table and a solvable board: the moves, the path's runs of one letter (`["rrr", "d", "ll"]`). */
  slides?: string[];
  /** With `steps: true` and a solvable board: every board along the way, the board first and the goal last. */
  steps?: string[];
}

/** One legal move of a probe. */
export interface MoveRecord {
  /** The blank's move; from a multi-tile table a slide, the letter once a cell (`"rr"`). */
  move: MoveLetter | string;
  board: string;
  distance: number;
  /** Whether the move leads one closer. */
  optimal: boolean;
}

/** The Rust ProbeRecord: `slidedb probe --json`. */
export interface ProbeRecord {
  board: string;
  goal: string;
  solvable: boolean;
  distance: number | null;
  /** Each legal move in the order u d l r (in a multi-tile table each direction's slides nearest first); none when the board cannot reach the goal. */
  moves: MoveRecord[];
  /** From a multi-tile table only: `"multi"`. */
  metric?: "multi";
}

/** The Rust CountRecord: `slidedb count --json`. */
export interface CountRecord {
  board: string;
  goal: string;
  solvable: boolean;
  distance: number | null;
  /** The number of optimal solutions: a number up to 2^53, its decimal string above; null when unsolvable. */
  count: number | string | null;
}

/** The Rust StatsRecord: `slidedb stats --json`. */
export interface StatsRecord {
  size: string;
  goal: string;
  states: number;
  max_distance: number;
  mean_distance: number;
  layers: number[];
  hardest: string[];
  generator: string;
  /** From a multi-tile table only: `"multi"`. */
  metric?: "multi";
}

/** A goal option: any goal of the class the file serves (default: the goal it was built for). */
export interface GoalOption {
  goal?: BoardInput;
}

// ---- full tables -------------------------------------------------------------

/**
 * Opens a kind-1 file (a full distance table), checking it as the Rust library
 * does, then (unless `verify: false`) its body's CRC-32. Throws a SlidedbFormatError.
 */
export function openTable(data: ArrayBuffer | ArrayBufferView, options?: { verify?: boolean }): Table;

/** The most cells a full table has. */
export const MAX_TABLE_CELLS: 14;

/** A full distance table. */
export class Table {
  private constructor();
  /** The size of the goal it was built for. */
  readonly shape: Shape;
  /** The goal it was built for, and answers toward by default. */
  readonly goal: string;
  /** The goal its body is laid out by (its class's canonical goal). */
  readonly indexedGoal: string;
  /** The number of boards, cells!/2. */
  readonly states: number;
  /** `layers[d]`: boards at distance d. */
  readonly layers: number[];
  /** The greatest distance. */
  readonly maxDistance: number;
  /** The mean distance. */
  readonly meanDistance: number;
  /** Boards at the greatest distance (at most 1000), toward the table's goal. */
  readonly hardest: string[];
  /** The program that wrote the file. */
  readonly generator: string;
  /** The metric its distances count moves in: `"multi"` when a move slides the blank any number of cells along its row or column. */
  readonly metric: "single" | "multi";
  /** The body's CRC-32 as stored. */
  readonly bodyCrc: number;
  /** Checks the body's CRC-32; throws a SlidedbFormatError if it differs. */
  verify(): void;
  /** The entry (distance mod 3, or 3) of an index toward the indexed goal. */
  residue(index: number): number;
  /** The distance, or null when the board cannot reach the goal. */
  distance(board: BoardInput, options?: GoalOption): number | null;
  /** An optimal solution. */
  solve(board: BoardInput, options?: GoalOption & { steps?: boolean }): SolveRecord;
  /** The distance and every legal move's outcome. */
  probe(board: BoardInput, options?: GoalOption): ProbeRecord;
  /** The exact number of optimal solutions. */
  count(board: BoardInput, options?: GoalOption): CountRecord;
  /** Every board exactly `distance` moves away, in index order (tables whose layers up to it hold at most 8,388,608 boards). */
  layer(distance: number, options?: GoalOption): string[];
  /**
   * A board drawn uniformly at `distance` (or `min` to `max`; without them, among all
   * boards), as the Rust library draws it for the same seed; null when none is that far.
   */
  random(
    options?: GoalOption & {
      distance?: number | "max";
      min?: number;
      max?: number | "max";
      seed?: number | bigint;
      rng?: SplitMix64;
    },
  ): string | null;
  /** The table described toward a goal. */
  stats(options?: GoalOption): StatsRecord;
}

// ---- pattern databases ----------------------------------------------------------

/**
 * Opens kind-2 files (pattern databases): one, or several (of several goal classes or
 * partitions). Checks each as the Rust library does, then (unless `verify: false`) its
 * body's CRC-32 and layer counts. Throws a SlidedbFormatError.
 */
export function openPatterns(
  files: ArrayBuffer | ArrayBufferView | Array<ArrayBuffer | ArrayBufferView>,
  options?: { verify?: boolean },
): PatternDatabases;

/** A solve by IDA*: the SolveRecord and the work it took (null stats for an unsolvable board). */
export interface SearchRecord extends SolveRecord {
  stats: SearchStats | null;
}

/** Options of a search. */
export interface SearchOptions extends GoalOption {
  /** Looked at every 65,536 nodes expanded (and before the search): an AbortError when aborted. */
  signal?: AbortSignal;
  /** At most this many nodes expanded: a SearchBudgetError past it. */
  maxNodes?: number;
  /** Called with the work so far every 65,536 nodes expanded. */
  onProgress?: (stats: SearchStats) => void;
}

/** Pattern databases: IDA* over them. */
export class PatternDatabases {
  private constructor();
  /** The first file's goal's size. */
  readonly shape: Shape;
  /** The first file's goal: the default goal. */
  readonly goal: string;
  /** The first file's groups, named as in its goal, each ascending. */
  readonly groups: number[][];
  /** Every file. */
  readonly databases: Array<{ goal: string; indexedGoal: string; groups: number[][]; generator: string; entries: number }>;
  /** Checks every file's body again. */
  verify(): void;
  /** The groups' sum for the board (a lower bound of its distance). */
  estimate(board: BoardInput, options?: GoalOption): number;
  /** An optimal solution by IDA*, with its stats. */
  solve(board: BoardInput, options?: SearchOptions & { steps?: boolean }): SearchRecord;
  /** The distance by IDA*, or null when the board cannot reach the goal. */
  distance(board: BoardInput, options?: Omit<SearchOptions, "onProgress">): number | null;
}

// ---- the parts ---------------------------------------------------------------------

/** The splitmix64 generator: the Rust SplitMix64's numbers for the same seed. */
export class SplitMix64 {
  constructor(seed: number | bigint);
  state: bigint;
  nextU64(): bigint;
  below(n: number): number;
  below(n: bigint): bigint;
}

/** A board drawn uniformly among those that can reach `goal` (the Rust random_board). */
export function randomBoard(goal: Board, rng: SplitMix64): Board;

/** CRC-32 (IEEE) of bytes[start..end]. */
export function crc32(bytes: Uint8Array, start?: number, end?: number): number;
/** Continues a CRC-32. */
export function crc32Update(crc: number, bytes: Uint8Array, start?: number, end?: number): number;

/** Why metadata bytes do not decode. */
export class BincodeError extends Error {}

/** Reads bincode 2 (standard configuration) values in turn. */
export class BincodeReader {
  constructor(bytes: Uint8Array, start?: number, end?: number);
  pos: number;
  remaining(): number;
  atEnd(): boolean;
  u8(what: string): number;
  u32(what: string): number;
  u64(what: string): bigint;
  varint(bits: number, what: string): bigint;
  length(what: string, minBytes?: number): number;
  bytes(what: string): Uint8Array;
  string(what: string): string;
  seq<T>(what: string, item: (reader: BincodeReader, i: number) => T): T[];
}

/** Encodes bincode 2's variable-length integer. */
export function encodeVarint(value: number | bigint): number[];

/** The header's constants. */
export const MAGIC: Uint8Array;
export const FORMAT_VERSION: 3;
export const OLDEST_VERSION: 2;
export const HEADER_LEN: 64;
export const MAX_METADATA_LEN: 1048576;
/** The kinds of file by header code, as the Rust library names them. */
export const KINDS: Readonly<Record<number, string>>;
/**
 * The table of file faults (the Rust library's `FileFault`), by name: the
 * error's `code`, the `sentence` (a template of the fault's fields), the
 * `joiner` and the `advice`. Every SlidedbFormatError's message is one of
 * these: sentence, joiner, advice.
 */
export const FAULTS: Readonly<
  Record<string, Readonly<{ code: SlidedbFormatError["code"]; sentence: string; joiner: string; advice: string }>>
>;

/** The table index of the boards of one shape and parity (at most 16 cells). */
export class Indexer {
  constructor(shape: Shape, parity: number);
  readonly rows: number;
  readonly cols: number;
  readonly n: number;
  readonly m: number;
  readonly parity: number;
  readonly weight: Float64Array;
  readonly perBlank: number;
  readonly len: number;
  rank(cells: ArrayLike<number>): number;
  /** Writes the board at `index` into `out`; its blank's cell, or -1 past the end. */
  unrankInto(index: number, out: Uint8Array): number;
}

/** The table index of a board of any size, as a BigInt. */
export function boardRank(board: { rows: number; cols: number; cells: ArrayLike<number> }): bigint;
/** The cells of the board whose boardRank is `rank`, or null past the end. */
export function boardUnrank(shape: Shape, parity: number, rank: bigint): Uint8Array | null;
/** n!/(n − k)!. */
export function placementCount(n: number, k: number): number;
/** The pattern database rank of a placement. */
export function placementRank(cells: ArrayLike<number>, n: number): number;
/** The placement of k tiles with that rank. */
export function placementUnrank(rank: number, n: number, k: number): Uint8Array;

/** A symmetry of a shape: flip rows (k & 1), flip columns (k & 2), transpose (k & 4). */
export class Symmetry {
  constructor(from: Shape, k: number);
  readonly from: Shape;
  readonly to: Shape;
  readonly k: number;
  readonly flipRows: boolean;
  readonly flipCols: boolean;
  readonly transpose: boolean;
  /** `cells[c]`: where cell c goes. */
  readonly cells: Uint8Array;
  cell(cell: number): number;
  isIdentity(): boolean;
  board(board: Board): Board;
  /** The image of a move code (0 up, 1 down, 2 left, 3 right). */
  move(move: number): number;
  inverse(): Symmetry;
}

/** The eight symmetries of a shape, in the Rust order. */
export function allSymmetries(shape: Shape): Symmetry[];
/** The symmetries that keep the goal's blank in place (the views IDA* looks through). */
export function mirrors(goal: Board): Symmetry[];

/** How a goal maps onto its class's canonical goal. */
export class GoalClass {
  constructor(goal: Board);
  readonly goal: Board;
  readonly canonical: Board;
  readonly symmetry: Symmetry;
  readonly rename: Uint8Array;
  readonly unrename: Uint8Array;
  readonly backCells: Uint8Array;
  /** A move code toward the canonical goal, seen toward the goal. */
  readonly moveBack: Uint8Array;
  /** A move code toward the goal, seen toward the canonical goal. */
  readonly moveTo: Uint8Array;
  readonly isCanonical: boolean;
  readonly shape: Shape;
  toCanonical(board: Board): Board;
  fromCanonical(board: Board): Board;
  cellsToCanonical(cells: ArrayLike<number>, out: Uint8Array): Uint8Array;
  cellsFromCanonical(cells: ArrayLike<number>, out: Uint8Array): Uint8Array;
  sameClass(other: GoalClass): boolean;
}

/** The class of a goal. */
export function goalClass(goal: Board): GoalClass;
