// slidedb's page: play any board the server answers, with exact hints.
// Every distance shown comes from the API (/api/v1/probe, solve, random,
// stats); the page keeps only the board, the moves made and an undo stack.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  size: "3x3", rows: 3, cols: 3, goal: "", board: [], history: [],
  probe: null, layers: null, exact: {}, busy: false, solving: false,
};

function parseSize(size) {
  const [r, c] = size.split("x").map(Number);
  return { rows: r, cols: c };
}

async function api(path, params) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== undefined && v !== null && v !== "") query.set(k, v);
  }
  const response = await fetch(`/api/v1/${path}?${query}`);
  const text = await response.text();
  let body;
  try { body = JSON.parse(text.split("\n")[0]); } catch { body = { error: text }; }
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

function say(text, kind) {
  const m = $("message");
  m.textContent = text || "";
  m.className = "message" + (kind ? " " + kind : "");
}

function boardText(board) { return board.join(" "); }

function goalParams() {
  return { size: state.size, goal: state.goal || undefined };
}

// The cell the blank moves to for a move letter, or -1.
function target(blank, letter) {
  const { rows, cols } = state;
  const r = Math.floor(blank / cols), c = blank % cols;
  if (letter === "u" && r > 0) return blank - cols;
  if (letter === "d" && r < rows - 1) return blank + cols;
  if (letter === "l" && c > 0) return blank - 1;
  if (letter === "r" && c < cols - 1) return blank + 1;
  return -1;
}

function applyMove(board, letter) {
  const blank = board.indexOf(0);
  const to = target(blank, letter);
  if (to < 0) return null;
  const next = board.slice();
  next[blank] = next[to];
  next[to] = 0;
  return next;
}

function render() {
  const el = $("board");
  const { rows, cols } = state;
  const cell = Math.max(44, Math.min(84, Math.floor(360 / Math.max(rows, cols))));
  el.style.setProperty("--cell", cell + "px");
  el.style.setProperty("--cell-small", Math.floor(cell * 0.8) + "px");
  el.style.gridTemplateColumns = `repeat(${cols}, auto)`;
  el.replaceChildren();
  const blank = state.board.indexOf(0);
  const outcome = {};
  if (state.probe && state.probe.solvable) {
    for (const m of state.probe.moves) outcome[target(blank, m.move)] = m;
  }
  const goal = state.goalBoard || [];
  state.board.forEach((tile, i) => {
    const wrap = document.createElement("div");
    wrap.className = "cell";
    wrap.setAttribute("role", "gridcell");
    if (tile === 0) {
      const gap = document.createElement("div");
      gap.className = "gap";
      gap.setAttribute("aria-label", `gap, row ${Math.floor(i / cols) + 1}, column ${(i % cols) + 1}`);
      wrap.append(gap);
    } else {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "tile";
      b.textContent = tile;
      b.dataset.cell = i;
      let label = `tile ${tile}`;
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
  const p = state.probe;
  $("left").textContent = p ? (p.solvable ? p.distance : "∞") : "–";
  $("left-label").textContent = p && !p.solvable ? "unsolvable toward this goal" : "moves left";
  $("made").textContent = state.history.length;
  $("undo").disabled = state.history.length === 0 || state.solving;
  $("hint").disabled = !p || !p.solvable || p.distance === 0 || state.solving;
  $("solve").disabled = !p || !p.solvable || p.distance === 0 || state.solving;
  drawHistogram();
  const hash = new URLSearchParams({ size: state.size, board: boardText(state.board) });
  if (state.goal) hash.set("goal", state.goal);
  history.replaceState(null, "", "#" + hash);
}

async function probe() {
  try {
    state.probe = await api("probe", { board: boardText(state.board), ...goalParams() });
    if (state.probe.solvable && state.probe.distance === 0) say("Solved!", "solved");
    else if (!state.probe.solvable) say("This board cannot reach the goal: it has the other parity.", "error");
  } catch (e) {
    state.probe = null;
    say(e.message, "error");
  }
  render();
}

async function play(letter, keep) {
  if (state.busy) return;
  const next = applyMove(state.board, letter);
  if (!next) return;
  state.busy = true;
  if (!keep) say("");
  state.history.push(state.board);
  state.board = next;
  await probe();
  state.busy = false;
}

async function load(board) {
  state.board = board;
  state.history = [];
  say("");
  await probe();
}

async function newPuzzle() {
  const d = Number($("difficulty").value);
  try {
    if (state.exact[state.size] === "table") {
      const r = await api("random", { ...goalParams(), distance: d });
      await load(r.board.split(" ").map(Number));
    } else {
      // No full table (4x4): a random walk of d moves from the goal; the
      // probe then says exactly how far it landed.
      let board = state.goalBoard.slice();
      let last = "";
      const back = { u: "d", d: "u", l: "r", r: "l" };
      for (let i = 0; i < d; i++) {
        const options = ["u", "d", "l", "r"].filter((m) => m !== back[last] && applyMove(board, m));
        last = options[Math.floor(Math.random() * options.length)];
        board = applyMove(board, last);
      }
      await load(board);
    }
  } catch (e) {
    say(e.message, "error");
  }
}

function hint() {
  const p = state.probe;
  if (!p || !p.solvable || p.distance === 0) return;
  const best = p.moves.find((m) => m.optimal);
  const cell = target(state.board.indexOf(0), best.move);
  const tile = state.board[cell];
  const button = document.querySelector(`.tile[data-cell="${cell}"]`);
  if (button) button.classList.add("hinted");
  say(`Hint: move tile ${tile}.`);
}

async function solve() {
  if (state.solving) return;
  try {
    const s = await api("solve", { board: boardText(state.board), ...goalParams() });
    if (!s.solvable) return;
    state.solving = true;
    say(`Solving in ${s.distance} moves…`);
    for (const letter of s.moves) {
      await play(letter, true);
      await new Promise((r) => setTimeout(r, 220));
    }
  } catch (e) {
    say(e.message, "error");
  } finally {
    state.solving = false;
    render();
  }
}

async function undo() {
  if (!state.history.length || state.busy) return;
  state.board = state.history.pop();
  say("");
  await probe();
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
  layers.forEach((count, d) => {
    const h = count === 0 ? 0 : Math.max(2, (count / top) * height);
    const rect = document.createElementNS(ns, "rect");
    rect.setAttribute("x", d * w + 1);
    rect.setAttribute("y", height - h);
    rect.setAttribute("width", Math.max(1, w - 2));
    rect.setAttribute("height", h);
    if (d === here) rect.setAttribute("class", "here");
    const title = document.createElementNS(ns, "title");
    title.textContent = `${count.toLocaleString()} boards at distance ${d}`;
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
  $("histogram-note").textContent = here >= 0
    ? `This board is one of ${layers[here].toLocaleString()} at distance ${here}.`
    : "";
}

async function changeSize(size, board) {
  state.size = size;
  Object.assign(state, parseSize(size));
  state.layers = null;
  try {
    if (state.exact[size] === "table") {
      const s = await api("stats", goalParams());
      state.layers = s.layers;
      state.goalBoard = s.goal.split(" ").map(Number);
      $("difficulty").max = s.max_distance;
    } else {
      const cells = state.rows * state.cols;
      state.goalBoard = state.goal
        ? state.goal.split(/[\s,]+/).map((t) => (/^[x_.]$/i.test(t) ? 0 : Number(t)))
        : [...Array(cells - 1).keys()].map((i) => i + 1).concat([0]);
      $("difficulty").max = 60;
    }
  } catch (e) {
    say(e.message, "error");
  }
  const d = $("difficulty");
  if (Number(d.value) > Number(d.max)) d.value = d.max;
  $("difficulty-value").textContent = d.value;
  if (board) await load(board);
  else await newPuzzle();
}

function keyMove(event) {
  if (event.target.closest("input, select, textarea")) return;
  // An arrow slides the tile on that side of the gap toward it: the
  // blank moves the other way.
  const letter = { ArrowUp: "d", ArrowDown: "u", ArrowLeft: "r", ArrowRight: "l" }[event.key];
  if (!letter || state.solving) return;
  event.preventDefault();
  if (applyMove(state.board, letter)) play(letter);
}

async function start() {
  const sizes = await api("sizes");
  const select = $("size");
  for (const s of sizes) {
    state.exact[s.size] = s.exact;
    const o = document.createElement("option");
    o.value = s.size;
    o.textContent = s.size + (s.exact === "patterns" ? " (pattern databases)" : "");
    select.append(o);
  }
  const hash = new URLSearchParams(location.hash.slice(1));
  state.goal = hash.get("goal") || "";
  $("goal").value = state.goal;
  const size = hash.get("size") && state.exact[hash.get("size")] ? hash.get("size") : "3x3";
  select.value = size;
  const board = hash.get("board") ? hash.get("board").split(" ").map(Number) : null;
  select.addEventListener("change", () => changeSize(select.value));
  $("goal").addEventListener("change", () => { state.goal = $("goal").value.trim(); changeSize(state.size); });
  $("difficulty").addEventListener("input", () => { $("difficulty-value").textContent = $("difficulty").value; });
  $("new").addEventListener("click", newPuzzle);
  $("hint").addEventListener("click", hint);
  $("solve").addEventListener("click", solve);
  $("undo").addEventListener("click", undo);
  document.addEventListener("keydown", keyMove);
  $("paste-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = $("paste").value.trim();
    if (!text) return;
    try {
      // The server reads every syntax the command line reads; solve's
      // answer gives the board back, cells in reading order.
      const s = await api("solve", { board: text, ...goalParams() });
      await load(s.board.split(" ").map(Number));
    } catch (e) {
      say(e.message, "error");
    }
  });
  await changeSize(size, board);
}

start().catch((e) => say(e.message, "error"));
