// slidedb's page: play any board, with exact hints. Every distance shown
// comes from the backend loaded before this script (backend.js): the
// server's JSON API under `slidedb serve`, or the slidedb package in the
// page itself on the static site `slidedb page` writes. Both answer the
// same questions (sizes, probe, solve, random, stats) in the same JSON
// shapes; the page keeps only the board, the moves made and an undo stack.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  // metric: "single" (one tile a move) or "multi" (a slide of one or
  // more tiles along the gap's row or column is one move).
  metric: "single", size: "3x3", rows: 3, cols: 3, goal: "", goalBoard: [], board: [], history: [],
  probe: null, layers: null, exact: {}, defaults: {}, busy: false, solving: false,
  // boardVersion: bumped on every change of the board (a probe's answer
  // counts only for the version it was asked for); action: bumped by
  // every action that replaces the board (new puzzle, size, goal, load),
  // so that an older action's late answer is dropped.
  boardVersion: 0, action: 0, probeAbort: null, setups: new Map(),
  // sizesBy[metric]: the backend's sizes in that metric ([{size, exact,
  // goal}]); exact and defaults above are those of the metric in use.
  sizesBy: {},
};

const METRICS = ["single", "multi"];
const adjective = (metric) => (metric === "multi" ? "multi-tile" : "single-tile");

function parseSize(size) {
  const [r, c] = size.split("x").map(Number);
  return { rows: r, cols: c };
}

const cells = (text) => text.split(" ").map(Number);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The backend's answer to a question: the JSON of /api/v1/PATH, or an
// Error with the message (and the HTTP status) the server would give.
// Every question is asked in the metric in use (the sizes too: which
// sizes are answered, and how, depends on it).
function api(path, params, signal, metric = state.metric) {
  const asked = { ...(params || {}) };
  if (metric !== "single") asked.metric = metric;
  return globalThis.slidedbAsk(path, asked, signal);
}

// The sizes the backend answers in every metric, asked once each.
async function loadSizes() {
  for (const metric of METRICS) {
    if (!state.sizesBy[metric]) state.sizesBy[metric] = await api("sizes", {}, undefined, metric);
  }
}

// The size menu for the metric in use: every size of any metric, in the
// backend's order; those the metric does not answer are shown, off, and
// say so (the multi-tile metric has no 4x4).
function useSizes() {
  const here = state.sizesBy[state.metric] || [];
  state.exact = {};
  state.defaults = {};
  for (const s of here) {
    state.exact[s.size] = s.exact;
    state.defaults[s.size] = s.goal;
  }
  const select = $("size");
  const listed = [];
  for (const metric of METRICS) {
    for (const s of state.sizesBy[metric] || []) if (!listed.includes(s.size)) listed.push(s.size);
  }
  select.replaceChildren(...listed.map((size) => {
    const o = document.createElement("option");
    o.value = size;
    const exact = state.exact[size];
    o.disabled = !exact;
    o.textContent = size + (exact
      ? { patterns: " (pattern databases)", search: " (searched: can be slow)" }[exact] || ""
      : ` (not in the ${adjective(state.metric)} metric)`);
    return o;
  }));
  select.value = state.size;
}

// A size of another metric's list, in the metric in use: the backend's
// refusal of its standard goal (the server's words), else a plain note.
async function whyNot(size) {
  const other = METRICS.map((m) => (state.sizesBy[m] || []).find((s) => s.size === size)).find(Boolean);
  try {
    await api("probe", { board: other ? other.goal : "", size });
  } catch (e) {
    return forPage(e.message);
  }
  return `${size} boards are not offered in the ${adjective(state.metric)} metric here`;
}

// The server words its refusals as the library does ("give the size");
// the page says the same in its own terms.
function forPage(message) {
  const m = String(message || "");
  const seconds = (ms) => {
    const s = Number(ms) / 1000;
    return s >= 1 ? `${+s.toFixed(1)} s` : `${ms} ms`;
  };
  let t = m.match(/^the search took longer than this server allows \((\d+) ms/);
  if (t) {
    return `This board is too hard for the server to answer within its time limit (${seconds(t[1])}). ` +
      "You can still play it: click a tile next to the gap, or use the arrow keys; the moves left show again once an answer comes in time.";
  }
  t = m.match(/^every search thread stayed busy for (\d+) ms/);
  if (t) return "The server is busy with other searches. You can still play; ask again in a moment.";
  return m
    .replace(/: give the size, or split the rows with \/$/,
      ": choose the size in the Size menu first, or split the rows with / (as in 1 2 3/4 5 0)")
    .replace(/: check the count, or give the size$/, ": check the count")
    .replace(/^bad query: /, "");
}

function say(text, kind) {
  const m = $("message");
  m.textContent = text || "";
  m.className = "message" + (kind ? " " + kind : "");
}

function boardText(board) { return board.join(" "); }

// "1 move", "2 moves": a count with its noun in correct English.
const counted = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// The goal the user chose: what the Goal field holds. Every action that
// deals a board (New puzzle, a size, a board loaded) deals it toward this
// goal, never toward another the field does not show.
const chosenGoal = () => $("goal").value.trim();

// A goal refused stays in its field, marked, with the reason beside it,
// until a goal is accepted (whatever the user does meanwhile).
function goalRefused(reason) {
  const input = $("goal");
  if (reason) {
    input.setAttribute("aria-invalid", "true");
    $("goal-error").textContent = `Goal not used: ${reason}`;
  } else {
    input.removeAttribute("aria-invalid");
    $("goal-error").textContent = "";
  }
}

function goalParams() {
  return { size: state.size, goal: state.goal || undefined };
}

// The cell the blank moves to for a move letter, or -1.
function target(blank, letter, rows = state.rows, cols = state.cols) {
  const r = Math.floor(blank / cols), c = blank % cols;
  if (letter === "u" && r > 0) return blank - cols;
  if (letter === "d" && r < rows - 1) return blank + cols;
  if (letter === "l" && c > 0) return blank - 1;
  if (letter === "r" && c < cols - 1) return blank + 1;
  return -1;
}

// The cell the blank ends on after a move: one letter, or in the
// multi-tile metric a run of one letter (a slide, "rrr"); -1 if off the
// board.
function slideTarget(blank, move, rows = state.rows, cols = state.cols) {
  let at = blank;
  for (const letter of move) {
    at = target(at, letter, rows, cols);
    if (at < 0) return -1;
  }
  return at;
}

// The board after a move (a letter, or a slide "rrr"), or null.
function applyMove(board, move, rows = state.rows, cols = state.cols) {
  let next = board;
  for (const letter of move) {
    const blank = next.indexOf(0);
    const to = target(blank, letter, rows, cols);
    if (to < 0) return null;
    next = next.slice();
    next[blank] = next[to];
    next[to] = 0;
  }
  return next;
}

// The only way the board changes: a probe asked for an older version
// is ignored when it answers.
function setBoard(board) {
  state.board = board;
  state.boardVersion += 1;
  state.probe = null;
}

function render() {
  const el = $("board");
  const { rows, cols } = state;
  // Keep keyboard focus across the rebuild: on the same tile (it has
  // moved into the gap), else on whatever now fills the focused cell.
  const active = document.activeElement;
  const focused = active && el.contains(active) && active.dataset.cell !== undefined
    ? { tile: active.dataset.tile, cell: active.dataset.cell } : null;
  const cell = Math.max(44, Math.min(84, Math.floor(360 / Math.max(rows, cols))));
  el.style.setProperty("--cell", cell + "px");
  el.style.setProperty("--cell-small", Math.floor(cell * 0.8) + "px");
  el.style.gridTemplateColumns = `repeat(${cols}, auto)`;
  el.setAttribute("aria-label", `Board, ${rows} by ${cols}`);
  el.setAttribute("aria-busy", state.solving ? "true" : "false");
  el.replaceChildren();
  const blank = state.board.indexOf(0);
  // Every tile next to the gap moves; the probe, when it has answered,
  // says whether each move brings the board closer or farther.
  // In the multi-tile metric, every tile in the gap's row and column:
  // clicking one slides it and those between it and the gap, one move.
  const movable = {};
  for (const letter of ["u", "d", "l", "r"]) {
    let move = letter;
    for (let cell = target(blank, letter); cell >= 0; cell = target(cell, letter)) {
      movable[cell] = move;
      if (state.metric === "single") break;
      move += letter;
    }
  }
  const outcome = {};
  if (state.probe && state.probe.solvable) {
    for (const m of state.probe.moves) outcome[slideTarget(blank, m.move)] = m;
  }
  const goal = state.goalBoard || [];
  state.board.forEach((tile, i) => {
    const wrap = document.createElement("div");
    wrap.className = "cell";
    const where = `row ${Math.floor(i / cols) + 1}, column ${(i % cols) + 1}`;
    if (tile === 0) {
      const gap = document.createElement("div");
      gap.className = "gap";
      gap.dataset.cell = i;
      gap.setAttribute("role", "img");
      gap.setAttribute("aria-label", `gap, ${where}`);
      wrap.append(gap);
    } else {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "tile";
      b.textContent = tile;
      b.dataset.cell = i;
      b.dataset.tile = tile;
      let label = `tile ${tile}, ${where}`;
      const m = outcome[i];
      if (m) {
        b.classList.add("movable", m.optimal ? "closer" : "farther");
        const badge = document.createElement("span");
        badge.className = "badge";
        badge.setAttribute("aria-hidden", "true");
        badge.textContent = m.optimal ? "−1" : "+1";
        b.append(badge);
        label += m.optimal ? ", moving it brings the board one move closer" : ", moving it takes the board one move farther";
        b.addEventListener("click", () => play(m.move));
      } else if (movable[i] !== undefined) {
        const letter = movable[i];
        b.classList.add("movable");
        label += ", it can move into the gap";
        b.addEventListener("click", () => play(letter));
      } else {
        b.tabIndex = -1;
        b.setAttribute("aria-disabled", "true");
      }
      if (goal[i] === tile) b.classList.add("home");
      b.setAttribute("aria-label", label);
      wrap.append(b);
    }
    el.append(wrap);
  });
  if (focused) {
    const again = el.querySelector(`.tile[data-tile="${focused.tile}"]`)
      || el.querySelector(`.tile[data-cell="${focused.cell}"]`);
    if (again) again.focus();
  }
  const p = state.probe;
  $("left").textContent = p ? (p.solvable ? p.distance : "∞") : "–";
  $("left-label").textContent = p && !p.solvable ? "unsolvable toward this goal"
    : p && p.distance === 1 ? "move left" : "moves left";
  $("made").textContent = state.history.length;
  $("made-label").textContent = state.history.length === 1 ? "move made" : "moves made";
  $("undo").disabled = state.history.length === 0 || state.solving;
  $("hint").disabled = !p || !p.solvable || p.distance === 0 || state.solving;
  $("solve").disabled = !p || !p.solvable || p.distance === 0 || state.solving;
  drawHistogram();
  const hash = new URLSearchParams({ size: state.size, board: boardText(state.board) });
  if (state.goal) hash.set("goal", state.goal);
  if (state.metric !== "single") hash.set("metric", state.metric);
  // The hash says it all from here: a ?metric= the page was opened
  // with gives way to it, so that the link follows the switch.
  history.replaceState(null, "", location.pathname + "#" + hash);
}

// Probes the current board; an answer that comes after the board changed
// (a slow probe of a board since replaced) is dropped.
async function probe() {
  const version = state.boardVersion;
  if (state.probeAbort) state.probeAbort.abort();
  const abort = new AbortController();
  state.probeAbort = abort;
  let answer = null, error = null;
  try {
    answer = await api("probe", { board: boardText(state.board), ...goalParams() }, abort.signal);
  } catch (e) {
    error = e;
  }
  if (version !== state.boardVersion || abort.signal.aborted) return;
  state.probeAbort = null;
  state.probe = answer;
  if (error) say(forPage(error.message), "error");
  else if (answer.solvable && answer.distance === 0) say("Solved!", "solved");
  else if (!answer.solvable) say("This board cannot reach the goal: it has the other parity.", "error");
  render();
}

// A move by the player: none while a move is under way or Solve plays.
function play(letter) {
  if (state.busy || state.solving) return;
  return step(letter, false);
}

async function step(letter, keep) {
  const next = applyMove(state.board, letter);
  if (!next) return false;
  state.busy = true;
  if (!keep) say("");
  state.history.push(state.board);
  setBoard(next);
  try {
    await probe();
  } finally {
    state.busy = false;
  }
  return true;
}

// Everything a size and goal fix: the goal board as the server reads it
// (any syntax it takes), and for table sizes the layers.
async function setup(size, goal) {
  const key = size + "|" + goal + "|" + state.metric;
  if (state.setups.has(key)) return state.setups.get(key);
  const { rows, cols } = parseSize(size);
  const s = { size, rows, cols, goal, layers: null, maxDistance: 60 };
  if (!state.exact[size]) throw new Error(await whyNot(size));
  if (state.exact[size] === "table") {
    const st = await api("stats", { size, goal: goal || undefined });
    s.layers = st.layers;
    s.goalBoard = cells(st.goal);
    s.maxDistance = st.max_distance;
  } else if (goal) {
    const st = await api("solve", { board: goal, goal, size });
    s.goalBoard = cells(st.goal);
  } else if (state.defaults[size]) {
    s.goalBoard = cells(state.defaults[size]);
  } else {
    s.goalBoard = [...Array(rows * cols - 1).keys()].map((i) => i + 1).concat([0]);
  }
  if (s.goalBoard.length !== rows * cols) throw new Error(`the goal is not a ${size} board`);
  state.setups.set(key, s);
  return s;
}

// A board at the chosen difficulty for a setup: with a full table, drawn
// uniformly among the boards exactly that many moves from the goal.
async function draw(s) {
  const d = Math.min(Number($("difficulty").value), s.maxDistance);
  if (state.exact[s.size] === "table") {
    const r = await api("random", { size: s.size, goal: s.goal || undefined, distance: d });
    return cells(r.board);
  }
  // No full table (4x4): a random walk of d moves from the goal, and the
  // control says so ("Moves scrambled"); the probe then says exactly how
  // far it landed (at most d, of the same parity). Drawing a board at
  // exactly d would take a search a draw, most of them failing.
  let board = s.goalBoard.slice();
  let last = "";
  const back = { u: "d", d: "u", l: "r", r: "l" };
  for (let i = 0; i < d; i++) {
    const options = ["u", "d", "l", "r"].filter((m) => m !== back[last] && applyMove(board, m, s.rows, s.cols));
    last = options[Math.floor(Math.random() * options.length)];
    board = applyMove(board, last, s.rows, s.cols);
  }
  return board;
}

// The settings shown for the size in use: the real default goal, and
// what the difficulty control does for this size.
function showSetup() {
  $("size").value = state.size;
  const d = $("difficulty");
  d.max = state.maxDistance || 60;
  if (Number(d.value) > Number(d.max)) d.value = d.max;
  $("difficulty-value").textContent = d.value;
  const goal = state.defaults[state.size];
  $("goal").placeholder = goal ? `default: ${goal}` : "";
  const table = state.exact[state.size] === "table";
  $("difficulty-label").textContent = table ? "Moves to solve" : "Moves scrambled";
  $("difficulty-note").textContent = table
    ? "a board drawn at random among those exactly this many moves from the goal"
    : "a random walk of this many moves from the goal; the moves left shown are exact (at most this many)";
}

// Replaces the board (and maybe the size and goal). Nothing changes until
// every answer is in, and then all at once, so rows, cols, goal and board
// always agree; a failure leaves the old state as it was.
// Resolves to true when the new board is in place.
async function replace(size, goal, board, dropGoal, told) {
  if (state.solving) return false;
  const my = ++state.action;
  const stale = () => my !== state.action;
  const fail = (e, ofGoal) => {
    if (stale()) return false;
    say(forPage(e.message), "error");
    // A goal the user typed, refused: it stays in the field, marked.
    if (ofGoal && goal !== state.goal && goal === chosenGoal()) goalRefused(forPage(e.message));
    showSetup();
    return false;
  };
  let s, note = told || "";
  try {
    s = await setup(size, goal);
  } catch (e) {
    if (stale()) return false;
    if (!(dropGoal && goal)) return fail(e, true);
    try {
      s = await setup(size, "");
    } catch (e2) {
      return fail(e2);
    }
    note = `${note ? note + " " : ""}The goal does not fit ${size} (${forPage(e.message)}): back to the standard goal.`;
  }
  if (stale()) return false;
  if (!board || board.length !== s.rows * s.cols) {
    try {
      board = await draw(s);
    } catch (e) {
      return fail(e);
    }
    if (stale()) return false;
  }
  Object.assign(state, {
    size: s.size, rows: s.rows, cols: s.cols, goal: s.goal,
    goalBoard: s.goalBoard, layers: s.layers, maxDistance: s.maxDistance,
  });
  $("goal").value = state.goal;
  goalRefused(null);
  showSetup();
  state.history = [];
  setBoard(board);
  say(note, note ? "error" : "");
  await probe();
  return true;
}

function newPuzzle() {
  return replace(state.size, chosenGoal(), null);
}

function hint() {
  const p = state.probe;
  if (state.solving || !p || !p.solvable || p.distance === 0) return;
  const best = p.moves.find((m) => m.optimal);
  const cell = slideTarget(state.board.indexOf(0), best.move);
  const tile = state.board[cell];
  const button = document.querySelector(`.tile[data-cell="${cell}"]`);
  if (button) button.classList.add("hinted");
  say(best.move.length > 1
    ? `Hint: slide tile ${tile} toward the gap (${best.move.length} tiles, one move).`
    : `Hint: move tile ${tile}.`);
}

// While Solve plays, every input that could change the board is off.
function lock(on) {
  for (const id of ["size", "metric", "goal", "difficulty", "new", "paste", "load", "hint", "solve", "undo"]) {
    $(id).disabled = on;
  }
  $("board").setAttribute("aria-busy", on ? "true" : "false");
}

async function solve() {
  const p = state.probe;
  if (state.solving || state.busy || !p || !p.solvable || p.distance === 0) return;
  state.solving = true;
  lock(true);
  let version = state.boardVersion;
  const changed = () => version !== state.boardVersion;
  try {
    const s = await api("solve", { board: boardText(state.board), ...goalParams() });
    if (changed()) throw new Error("Solve stopped: the board changed.");
    if (!s.solvable) return;
    say(`Solving in ${counted(s.distance, "move", "moves")}…`);
    // In the multi-tile metric a slide of several cells is one move.
    for (const letter of s.slides || s.moves) {
      const moved = step(letter, true);
      version = state.boardVersion;
      if (!(await moved)) throw new Error("Solve stopped: the board changed.");
      await sleep(220);
      if (changed()) throw new Error("Solve stopped: the board changed.");
    }
  } catch (e) {
    say(forPage(e.message), "error");
  } finally {
    state.solving = false;
    lock(false);
    render();
  }
}

async function undo() {
  if (!state.history.length || state.busy || state.solving) return;
  state.busy = true;
  const previous = state.history.pop();
  setBoard(previous);
  say("");
  try {
    await probe();
  } finally {
    state.busy = false;
  }
}

function drawHistogram() {
  const svg = $("histogram");
  const layers = state.layers;
  svg.replaceChildren();
  svg.style.display = layers ? "" : "none";
  if (!layers) {
    $("histogram-note").textContent = state.exact[state.size] === "patterns"
      ? "No full table for this size: distances come from IDA* over pattern databases."
      : "";
    return;
  }
  const ns = "http://www.w3.org/2000/svg";
  const width = 600, height = 220, pad = 18;
  svg.setAttribute("viewBox", `0 0 ${width} ${height + pad}`);
  const top = Math.max(...layers);
  const w = width / layers.length;
  const here = state.probe && state.probe.solvable ? state.probe.distance : -1;
  // A log scale, so that the layers near the goal and the farthest ones
  // (a few boards beside tens of thousands) show: one board is the
  // lowest bar, never none.
  const lowest = 8;
  const barHeight = (count) => count === 0 ? 0
    : top <= 1 ? height
    : lowest + (height - lowest) * Math.log(count) / Math.log(top);
  layers.forEach((count, d) => {
    const h = barHeight(count);
    const rect = document.createElementNS(ns, "rect");
    rect.setAttribute("x", d * w + 1);
    rect.setAttribute("y", height - h);
    rect.setAttribute("width", Math.max(1, w - 2));
    rect.setAttribute("height", h);
    if (d === here) rect.setAttribute("class", "here");
    const title = document.createElementNS(ns, "title");
    title.textContent = `${count === 1 ? "1 board" : count.toLocaleString() + " boards"} at distance ${d}`;
    rect.append(title);
    svg.append(rect);
    if (d % 5 === 0) {
      const t = document.createElementNS(ns, "text");
      t.setAttribute("x", d * w + w / 2);
      t.setAttribute("y", height + 13);
      t.setAttribute("text-anchor", "middle");
      t.textContent = d;
      svg.append(t);
    }
  });
  $("histogram-note").textContent = (here < 0 ? ""
    : layers[here] === 1 ? `This board is the only one at distance ${here}. `
    : `This board is one of ${layers[here].toLocaleString()} at distance ${here}. `) + "Heights on a log scale.";
}

// The size of a board the server read: rows split by "/" say it; else
// the only size with that many cells (the server asked for a size when
// there were two).
function inferSize(text, n) {
  if (text.includes("/")) {
    const rows = text.split("/").filter((r) => r.trim()).length;
    if (rows > 0 && n % rows === 0) return `${rows}x${n / rows}`;
  }
  const fits = Object.keys(state.exact).filter((size) => {
    const { rows, cols } = parseSize(size);
    return rows * cols === n;
  });
  if (fits.length === 1) return fits[0];
  if (fits.includes(state.size)) return state.size;
  const r = Math.round(Math.sqrt(n));
  return r * r === n ? `${r}x${r}` : null;
}

// The cells of board `text` as the server reads it (every syntax the
// command line reads), as a board of `size` (or the size it spells)
// toward `goal`. A search past the server's budget does not stop it:
// the board is read again toward itself, which needs no search.
async function readBoard(text, size, goal) {
  try {
    return cells((await api("solve", { board: text, goal: goal || undefined, size })).board);
  } catch (e) {
    if (e.status !== 503) throw e;
    return cells((await api("solve", { board: text, goal: text, size })).board);
  }
}

async function paste(text) {
  if (state.solving) return;
  const my = ++state.action;
  const goal = chosenGoal();
  let board, size = null;
  try {
    board = await readBoard(text, undefined, goal);
  } catch (first) {
    if (my !== state.action) return;
    if (text.includes("/") || first.status !== 400) { say(forPage(first.message), "error"); return; }
    // 6 or 8 cells in no rows could be either shape: the selected size.
    try {
      board = await readBoard(text, state.size, goal);
      size = state.size;
    } catch {
      if (my === state.action) say(forPage(first.message), "error");
      return;
    }
  }
  if (my !== state.action) return;
  size = size || inferSize(text, board.length);
  if (!size || !state.exact[size]) {
    say(`This server has no table or databases for ${size ? "a " + size : "a " + board.length + "-cell"} board.`, "error");
    return;
  }
  await replace(size, goal, board);
}

function keyMove(event) {
  if (event.target.closest("input, select, textarea")) return;
  // An arrow slides the tile on that side of the gap toward it: the
  // blank moves the other way.
  const letter = { ArrowUp: "d", ArrowDown: "u", ArrowLeft: "r", ArrowRight: "l" }[event.key];
  if (!letter) return;
  event.preventDefault();
  if (state.solving || state.busy) return;
  if (applyMove(state.board, letter)) play(letter);
}

async function start() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const goal = (hash.get("goal") || "").trim();
  // The metric from the link: #…&metric=multi, or ?metric=multi.
  const linkedMetric = hash.get("metric") || new URLSearchParams(location.search).get("metric");
  if (linkedMetric && /^(multi|multi-tile|mtm)$/i.test(linkedMetric.trim())) state.metric = "multi";
  $("metric").value = state.metric;
  $("goal").value = goal;
  await loadSizes();
  useSizes();
  const sizes = state.sizesBy[state.metric];
  // 3x3 unless the link says otherwise, or the server has none (it
  // answers from one table named with --table).
  const first = state.exact["3x3"] ? "3x3" : sizes.length ? sizes[0].size : "3x3";
  const select = $("size");
  const linked = hash.get("size");
  let size = first, note = "";
  const elsewhere = linked && METRICS.some((m) => (state.sizesBy[m] || []).some((s) => s.size === linked));
  if (linked && state.exact[linked]) size = linked;
  else if (elsewhere) note = `${(await whyNot(linked)).replace(/\.$/, "")}. Here is a new ${first} puzzle instead.`;
  else if (linked) note = `This server has no table or databases for ${linked} boards, the size in the link: here is a new ${first} puzzle instead.`;
  select.value = size;
  // The board in the link, read by the server; one it cannot read (or
  // cannot play as that size and goal) is said so, and replaced.
  const text = (hash.get("board") || "").trim();
  let board = null;
  if (text && !note) {
    try {
      board = await readBoard(text, size);
    } catch (e) {
      note = `The board in the link (“${text.length > 80 ? text.slice(0, 80) + "…" : text}”) cannot be played: ${forPage(e.message).replace(/\.$/, "")}. Here is a new puzzle instead.`;
    }
  }
  // A goal in use that does not fit the new size gives way to the
  // standard goal, said so; a goal typed and not yet accepted does not:
  // refused, it stays, and so does the size.
  select.addEventListener("change", () => {
    const goal = chosenGoal();
    replace(select.value, goal, null, goal === state.goal);
  });
  // Enter, Tab or a click elsewhere: the goal typed is tried. One the
  // server refuses stays in the field, marked, to be fixed; the board,
  // size and goal in use are the old ones.
  $("goal").addEventListener("change", () => replace(state.size, chosenGoal(), null));
  // Another metric: the same board, its moves left and hints in it.
  // The size menu follows: sizes the metric does not answer are off; a
  // switch the size in use cannot follow is refused, in the backend's
  // words, and the metric stays.
  $("metric").addEventListener("change", () => {
    const before = state.metric;
    state.metric = $("metric").value === "multi" ? "multi" : "single";
    useSizes();
    replace(state.size, state.goal, state.board).then((done) => {
      if (done) return;
      state.metric = before;
      $("metric").value = before;
      useSizes();
    });
  });
  $("difficulty").addEventListener("input", () => { $("difficulty-value").textContent = $("difficulty").value; });
  $("new").addEventListener("click", newPuzzle);
  $("hint").addEventListener("click", hint);
  $("solve").addEventListener("click", solve);
  $("undo").addEventListener("click", undo);
  document.addEventListener("keydown", keyMove);
  $("paste-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("paste").value.trim();
    if (text) paste(text);
  });
  await replace(size, goal, board, true, note);
}

start().catch((e) => say(forPage(e.message), "error"));
