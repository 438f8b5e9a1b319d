// The static site's searcher: IDA* over pattern databases, off the page's
// thread. Each message {id, path, board, goal, files} is a solve or a
// probe; the answer {id, ok, value} has the server's JSON shape, or
// {id, ok: false, error, status}. The databases are fetched and opened
// once, on the first question.

import { applyMove, formatBoard, openPatterns, parseBoard } from "./slidedb/index.js";

let opened = null;

function patterns(files) {
  if (!opened) {
    opened = Promise.all(files.map(async (file) => {
      const response = await fetch(file);
      if (!response.ok) throw new Error(`${file}: ${response.status} ${response.statusText}`);
      return new Uint8Array(await response.arrayBuffer());
    })).then((bytes) => openPatterns(bytes));
  }
  return opened;
}

/// Every legal move's outcome, in the order u d l r, as the server's
/// probe gives it: a move is one closer exactly when the board it leads
/// to is `distance − 1` away (else it is one farther).
function probe(db, board, goal) {
  const solved = db.solve(board, { goal });
  const text = formatBoard(board);
  if (!solved.solvable) return { board: text, goal: formatBoard(goal), solvable: false, distance: null, moves: [] };
  const distance = solved.distance;
  const moves = [];
  for (const letter of ["u", "d", "l", "r"]) {
    const next = applyMove(board, letter);
    if (!next) continue;
    const optimal = distance > 0 && solved.moves[0] === letter
      ? true
      : distance > 0 && db.distance(next, { goal }) === distance - 1;
    moves.push({
      move: letter,
      board: formatBoard(next),
      distance: optimal ? distance - 1 : distance + 1,
      optimal,
    });
  }
  return { board: text, goal: formatBoard(goal), solvable: true, distance, moves };
}

self.onmessage = async ({ data }) => {
  const { id, path, size, files } = data;
  try {
    const db = await patterns(files);
    const board = parseBoard(data.board, { size });
    const goal = parseBoard(data.goal, { size });
    let value;
    if (path === "solve") {
      value = db.solve(board, { goal });
    } else {
      value = probe(db, board, goal);
    }
    delete value.stats; // the server's answer has none
    self.postMessage({ id, ok: true, value });
  } catch (e) {
    self.postMessage({ id, ok: false, error: e.message, status: 400 });
  }
};
