// The page's backend on the static site `slidedb page` writes: every
// answer is worked out here, in the browser, by the slidedb package over
// the files beside the page (data/site.json lists them). Full tables are
// read on the page's own thread (a lookup takes microseconds); searches
// over pattern databases run in a Web Worker (worker.js), so that a long
// one never freezes the page, and are stopped when the page asks another
// question. `slidedbAsk(path, params, signal)` answers as the server's
// /api/v1/PATH would, in the same JSON shapes, and rejects with an Error
// carrying the message and the status the server would give. Every
// question but `sizes` may name a metric (`metric=multi`): it is answered
// from the tables of that metric, and a size the site does not answer in
// it is refused in the site's words (data/site.json keeps them).

import { formatBoard, openTable, parseBoard } from "./slidedb/index.js";

/// The site's sizes per metric: {metrics: {single: {sizes}, multi:
/// {sizes, refused}}}, each size {size, exact, goal, file} for a table or
/// {size, exact, goal, files} for pattern databases, and `refused` the
/// site's reason by size for the sizes not answered in that metric.
const site = fetch("data/site.json").then((response) => {
  if (!response.ok) throw new Error(`data/site.json: ${response.status} ${response.statusText}`);
  return response.json();
});

/// Opened tables, by file name (one file serves a size and its transpose).
const tables = new Map();

function table(file) {
  if (!tables.has(file)) {
    tables.set(file, fetch(file).then(async (response) => {
      if (!response.ok) throw new Error(`${file}: ${response.status} ${response.statusText}`);
      return openTable(new Uint8Array(await response.arrayBuffer()));
    }));
  }
  return tables.get(file);
}

/// An Error as the server words a refusal: its message and HTTP status.
function refusal(message, status = 400) {
  const error = new Error(message);
  error.status = status;
  return error;
}

/// The metric a question names, as the server reads it: single (the
/// default) or multi, by any name the library takes.
function metricOf(name) {
  if (name === undefined || name === null || name === "") return "single";
  const m = String(name).trim().toLowerCase();
  if (["single", "single-tile", "stm"].includes(m)) return "single";
  if (["multi", "multi-tile", "mtm"].includes(m)) return "multi";
  throw refusal(`bad metric ${JSON.stringify(String(name))}: give single (one tile a move) or multi (a slide of one or more tiles along a row or column a move)`);
}

/// The site's sizes and refusals in `metric`.
async function inMetric(metric) {
  const { metrics } = await site;
  return metrics[metric] || { sizes: [] };
}

/// The site's entry for `size` in `metric`, or for the size of `board`
/// (text) when no size is given.
async function entryFor(size, board, metric) {
  const { sizes, refused } = await inMetric(metric);
  if (!size && board) {
    let read;
    try {
      read = parseBoard(board);
    } catch (e) {
      throw refusal(e.message);
    }
    size = `${read.rows}x${read.cols}`;
  }
  const entry = sizes.find((s) => s.size === size);
  if (entry) return entry;
  if (refused && refused[size]) throw refusal(refused[size]);
  throw refusal(`this page has no table or databases for ${size} boards`, 404);
}

/// The goal asked for (a Board of the entry's size), or the size's
/// default.
function goalOf(entry, goal) {
  try {
    return parseBoard(goal || entry.goal, { size: entry.size });
  } catch (e) {
    throw refusal(e.message);
  }
}

function boardOf(entry, text) {
  try {
    return parseBoard(text, { size: entry.size });
  } catch (e) {
    throw refusal(e.message);
  }
}

// ---- searches in the worker ------------------------------------------

let worker = null;
let asked = 0;
const waiting = new Map();

function startWorker() {
  worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  worker.onmessage = ({ data }) => {
    const pending = waiting.get(data.id);
    if (!pending) return;
    waiting.delete(data.id);
    if (data.ok) pending.resolve(data.value);
    else pending.reject(refusal(data.error, data.status || 500));
  };
  worker.onerror = (event) => {
    const error = refusal(`the search stopped: ${event.message || "the worker failed"}`, 500);
    for (const pending of waiting.values()) pending.reject(error);
    waiting.clear();
    worker = null;
  };
}

/// A question for the worker; `signal` stops it (the worker is ended and
/// a new one starts with the next question: a search cannot be told to
/// stop from outside while it runs).
function search(question, signal) {
  if (signal && signal.aborted) return Promise.reject(new DOMException("aborted", "AbortError"));
  if (!worker) startWorker();
  const id = ++asked;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    if (signal) {
      signal.addEventListener("abort", () => {
        if (!waiting.has(id)) return;
        waiting.delete(id);
        worker.terminate();
        worker = null;
        for (const pending of waiting.values()) pending.reject(refusal("the search was stopped", 503));
        waiting.clear();
        reject(new DOMException("aborted", "AbortError"));
      }, { once: true });
    }
    worker.postMessage({ id, ...question });
  });
}

// ---- the questions ---------------------------------------------------

/// A solve or a probe (`path`): looked up in the size's table, or
/// searched in the worker over its pattern databases.
async function lookUpOrSearch(path, { board, goal, size, metric }, signal) {
  const entry = await entryFor(size, board, metricOf(metric));
  const toward = goalOf(entry, goal);
  const read = boardOf(entry, board);
  if (entry.exact === "table") {
    try {
      return (await table(entry.file))[path](read, { goal: toward });
    } catch (e) {
      throw refusal(e.message);
    }
  }
  const question = { path, size: entry.size, board: formatBoard(read), goal: formatBoard(toward) };
  return search({ ...question, files: entry.files }, signal);
}

const answers = {
  async sizes({ metric }) {
    const { sizes } = await inMetric(metricOf(metric));
    return sizes.map(({ size, exact, goal }) => ({ size, exact, goal }));
  },

  async stats({ size, goal, metric }) {
    const entry = await entryFor(size, undefined, metricOf(metric));
    if (entry.exact !== "table") throw refusal(`no full table for ${size} boards: stats needs one`);
    const t = await table(entry.file);
    try {
      return t.stats({ goal: goalOf(entry, goal) });
    } catch (e) {
      throw refusal(e.message);
    }
  },

  solve: (question, signal) => lookUpOrSearch("solve", question, signal),
  probe: (question, signal) => lookUpOrSearch("probe", question, signal),

  async random({ size, goal, distance, metric }) {
    const entry = await entryFor(size, undefined, metricOf(metric));
    if (entry.exact !== "table") throw refusal(`no full table for ${size} boards: a board at a distance needs one`);
    const toward = goalOf(entry, goal);
    const t = await table(entry.file);
    const d = Number(distance);
    try {
      return { board: t.random({ distance: d, goal: toward }), goal: formatBoard(toward), distance: d };
    } catch (e) {
      throw refusal(e.message);
    }
  },
};

globalThis.slidedbAsk = async function ask(path, params, signal) {
  const answer = answers[path];
  if (!answer) throw refusal(`this page answers no question "${path}"`, 404);
  return answer(params || {}, signal);
};
