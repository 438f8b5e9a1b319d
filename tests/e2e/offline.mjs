// The static site of `slidedb page --out DIR`, played in real Chromium
// with no slidedb server: a plain file server serves the folder, and
// every request to anything else is blocked (and counted). A 3x3 puzzle
// is played to "Solved!" by following the page's hints, and a 4x4 board
// gets a hint from IDA* in the page's Web Worker. In the multi-tile
// metric (the site's own multi-tile tables): 4x4 refused in the site's
// words, the README board played to "Solved!" by the hints in exactly the
// moves the page said were left, and the site's answers beside those of
// `slidedb serve` over the same data folder, to the letter. Prints how
// long the page took from opening to its first exact hint on 3x3 and
// 4x4. Screenshots in target/e2e/.
//
//   node tests/e2e/offline.mjs   (SLIDEDB: the binary; CHROMIUM: the
//                                 browser, /usr/bin/chromium)

import { spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join, normalize, sep } from "node:path";
import { chromium } from "playwright-core";

import {
  browserPath, check, failed, message, movesLeft as left, open, playByHints, settle, shots, slidedb, startServer,
  waitForLeft,
} from "./helpers.mjs";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".slidedb": "application/octet-stream",
};

/// A static file server for `dir` on a free loopback port (any static
/// host does); resolves to its base URL.
function serveFolder(dir) {
  const server = createServer((request, response) => {
    const path = normalize(join(dir, decodeURIComponent(new URL(request.url, "http://x").pathname)));
    let file = path.endsWith(sep) ? join(path, "index.html") : path;
    try {
      if (!file.startsWith(dir) || !statSync(file).isFile()) throw new Error("not a file");
    } catch {
      try {
        if (statSync(join(file, "index.html")).isFile()) file = join(file, "index.html");
        else throw new Error();
      } catch {
        response.writeHead(404).end("not found");
        return;
      }
    }
    response.writeHead(200, { "content-type": TYPES[extname(file)] || "application/octet-stream" });
    response.end(readFileSync(file));
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => {
    done({ server, url: `http://127.0.0.1:${server.address().port}/` });
  }));
}


/// The answer to /api/v1/PATH?PARAMS of the server at `base`, as
/// {ok, value} or {ok: false, error, status}: what the static page's
/// slidedbAsk gives (see `askPage`).
async function ask(base, path, params) {
  const response = await fetch(`${base}api/v1/${path}?${new URLSearchParams(params)}`);
  const body = JSON.parse((await response.text()).split("\n")[0]);
  return response.ok ? { ok: true, value: body } : { ok: false, error: body.error, status: response.status };
}

/// The static page's own answer to the same question (its backend.js).
function askPage(page, path, params) {
  return page.evaluate(async ([path, params]) => {
    try {
      return { ok: true, value: await globalThis.slidedbAsk(path, params) };
    } catch (e) {
      return { ok: false, error: e.message, status: e.status };
    }
  }, [path, params]);
}

/// The multi-tile metric on the static site, from its multi-tile tables:
/// the README's board from a link (?metric=multi), its moves left the
/// server's, the size menu without 4x4, the board played to "Solved!" by
/// the hints in exactly the moves it said were left; then the site's
/// answers beside the server's, in the same JSON text.
async function multiTile(context, url, serverUrl, watch) {
  const page = await open(context, `${url}?metric=multi#size=3x3&board=2+3+4+1+5+x+7+6+8`);
  watch(page);
  check((await page.locator("#metric").inputValue()) === "multi", "?metric=multi sets the static page's switch to multi");
  await waitForLeft(page, 14, "the README board shows its 14 multi-tile moves left on the static page");
  const four = page.locator("#size option[value='4x4']");
  check((await four.count()) === 1 && (await four.isDisabled()) && (await four.textContent()).includes("not in the multi-tile metric"),
    `in multi the size menu shows 4x4 off: ${await four.textContent()}`);
  check(!(await page.locator("#size option[value='3x3']").isDisabled()), "in multi 3x3 is on the menu");
  await settle(page, 9);
  const moves = Number(await left(page));
  const board = await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get("board"));
  const served = await ask(serverUrl, "probe", { board, metric: "multi" });
  check(served.value.metric === "multi" && served.value.distance === moves,
    `the static page's multi-tile moves left (${moves}) are the server's (${served.value.distance})`);
  const { played, slides } = await playByHints(page, moves, "multi-tile, on the static page");
  check(slides > 0, `some hint on the static page was a slide of several tiles (${slides} of ${played})`);
  await page.screenshot({ path: join(shots, "offline-5-multi-tile-solved.png") });

  // The site's answers are the server's, to the letter (refusals too).
  const readme = "2 3 4 1 5 x 7 6 8";
  const questions = [
    ["solve", { board: readme, metric: "multi" }],
    ["probe", { board: readme, metric: "multi" }],
    ["solve", { board: readme }],
    ["solve", { board: "1 2 3 4 5 6 8 7 0", metric: "multi" }],
    ["probe", { board: "0 1 2 3 4 5 6 7 8", goal: "0 1 2 3 4 5 6 7 8", metric: "multi" }],
    ["solve", { board: "0 1 2 3 4 5 6 7 8", metric: "multi" }],
    ["probe", { board: "1 2 3 4 0 5", size: "3x2", metric: "multi" }],
    ["solve", { board: "0 1 2 3 4 5 6 7", size: "4x2", metric: "multi" }],
    ["solve", { board: "5 1 3 4 2 0 7 6", size: "2x4", metric: "multi" }],
    ["stats", { size: "3x3", metric: "multi" }],
    ["stats", { size: "2x3", metric: "multi" }],
    ["solve", { board: readme, metric: "sideways" }],
  ];
  for (const [path, params] of questions) {
    const [mine, theirs] = await Promise.all([askPage(page, path, params), ask(serverUrl, path, params)]);
    check(JSON.stringify(mine) === JSON.stringify(theirs),
      `${path} ${new URLSearchParams(params)}: the site answers as the server${JSON.stringify(mine) === JSON.stringify(theirs) ? "" : `\n  site:   ${JSON.stringify(mine)}\n  server: ${JSON.stringify(theirs)}`}`);
  }
  // 4x4 in multi: the server answers it (a search under a table it builds
  // in memory), the site refuses it in its own words.
  const board4 = { board: "5 1 3 4 2 0 7 8 9 6 10 12 13 14 11 15", metric: "multi" };
  const [mine4, theirs4] = await Promise.all([askPage(page, "solve", board4), ask(serverUrl, "solve", board4)]);
  check(!mine4.ok && /not answered in the multi-tile metric on this page/.test(mine4.error),
    `the site refuses 4x4 in multi: ${JSON.stringify(mine4)}`);
  check(theirs4.ok && theirs4.value.metric === "multi" && theirs4.value.distance === theirs4.value.slides.length,
    `the server answers 4x4 in multi: ${JSON.stringify(theirs4)}`);
  // Its sizes in multi are the server's records of those sizes; a board
  // drawn at a distance is that far in the server's multi-tile count.
  const sizes = (await askPage(page, "sizes", { metric: "multi" })).value;
  const servedSizes = (await ask(serverUrl, "sizes", { metric: "multi" })).value;
  check(sizes.map((s) => s.size).join(" ") === "3x3 2x3 3x2 2x4 4x2"
    && sizes.every((s) => JSON.stringify(servedSizes.find((t) => t.size === s.size)) === JSON.stringify(s)),
    `the site's multi-tile sizes (${sizes.map((s) => s.size).join(" ")}) are listed by the server as it lists them`);
  for (const size of ["3x3", "2x4"]) {
    const drawn = await askPage(page, "random", { size, distance: 9, metric: "multi" });
    const far = drawn.ok && await ask(serverUrl, "probe", { board: drawn.value.board, size, metric: "multi" });
    check(drawn.ok && Object.keys(drawn.value).join() === "board,goal,distance" && far.value.distance === 9,
      `a ${size} board drawn 9 multi-tile moves away is 9 away by the server's count: ${JSON.stringify(drawn.value)}`);
  }
  await page.close();
}

/// Opens `address` on `page` and asks for a hint as soon as the page
/// shows the moves left: the milliseconds from opening to the hinted tile.
async function firstHint(page, address, timeout) {
  const opened = Date.now();
  await page.goto(address);
  await page.waitForFunction(() => /^\d+$/.test(document.getElementById("left").textContent)
    && !document.getElementById("hint").disabled, null, { timeout });
  await page.locator("#hint").click();
  await page.locator(".tile.hinted").waitFor({ timeout: 5000 });
  return Date.now() - opened;
}

async function main() {
  const site = mkdtempSync(join(tmpdir(), "slidedb-site-"));
  const data = mkdtempSync(join(tmpdir(), "slidedb-site-data-"));
  const wrote = spawnSync(slidedb, ["page", "--out", site, "--data", data], { encoding: "utf8" });
  check(wrote.status === 0, `slidedb page wrote the site${wrote.status ? ": " + wrote.stderr : ""}`);
  const { server, url } = await serveFolder(site);
  const browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox"] });
  const blocked = [];
  const servers = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    // Only the site's own files: anything else is refused.
    await context.route("**/*", (route) => {
      const asked = route.request().url();
      if (asked.startsWith(url)) return route.continue();
      blocked.push(asked);
      return route.abort();
    });
    const errors = [];
    const watch = (p) => {
      p.on("pageerror", (e) => errors.push(e.message));
      p.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    };
    let page = await context.newPage();
    watch(page);

    // 3x3: the first exact hint, then hints followed to the goal.
    const firstHint3 = await firstHint(page, url, 20000);
    check((await page.locator("#board .cell").count()) === 9, "the site opens on a 3x3 puzzle");
    const start = Number(await left(page));
    check(start > 0, `the puzzle is ${start} moves from the goal`);
    await page.screenshot({ path: join(shots, "offline-1-hint.png") });
    await playByHints(page, start, "single-tile, by the hints");
    await page.screenshot({ path: join(shots, "offline-2-solved.png") });

    // A bad goal typed, then New puzzle clicked without Enter: the
    // package's refusal stays with the goal in its field, and no puzzle is
    // dealt toward a goal the user did not choose.
    {
      const hash = () => new URLSearchParams(new URL(page.url()).hash.slice(1));
      const board = hash().get("board");
      await page.locator("#goal").fill("1 2 3 4 5 6 7 8");
      await page.locator("#new").click();
      await page.waitForFunction(() => document.getElementById("goal-error").textContent.includes("8 cells"),
        null, { timeout: 5000 }).catch(() => {});
      await new Promise((r) => setTimeout(r, 1500));
      check((await page.locator("#goal").inputValue()) === "1 2 3 4 5 6 7 8", "a bad goal and New puzzle: the goal stays in its field");
      check((await page.locator("#goal-error").textContent()).includes("8 cells given"),
        `a bad goal and New puzzle: its message stays (${await page.locator("#goal-error").textContent()})`);
      check(hash().get("board") === board && !hash().has("goal"), "a bad goal and New puzzle: no new puzzle dealt");
    }

    // 4x4 over pattern databases, searched in the page's worker.
    // A fresh page, opened on a link to a 4x4 board (8 moves away).
    await page.close();
    page = await context.newPage();
    watch(page);
    const board4 = "5 1 3 4 2 0 7 8 9 6 10 12 13 14 11 15";
    const firstHint4 = await firstHint(page, url + "#size=4x4&board=" + board4.replaceAll(" ", "+"), 60000);
    check((await page.locator("#board .cell").count()) === 16, "a 4x4 board from a link is shown");
    check((await left(page)) === "8", `its moves left are exact: ${await left(page)} (8)`);
    check(/^Hint: move tile \d+\.$/.test(await message(page)), `a 4x4 hint: ${await message(page)}`);
    await page.screenshot({ path: join(shots, "offline-3-4x4-hint.png") });

    // The 4x4 board in the multi-tile metric: the server answers it (by a
    // search under a table it builds in memory), the static site refuses
    // it in its own words (data/site.json), and the board and the metric
    // stay as they were.
    const served = await startServer(data);
    servers.push(served.child);
    const listed = JSON.parse(readFileSync(join(site, "data", "site.json"), "utf8"));
    const refusal4 = listed.metrics.multi.refused["4x4"];
    check(/4x4 boards are not answered in the multi-tile metric on this page/.test(refusal4 || ""), `the site refuses 4x4 in multi: ${refusal4}`);
    await page.locator("#metric").selectOption("multi");
    await page.waitForFunction(() => document.getElementById("message").classList.contains("error"), null,
      { timeout: 5000 }).catch(() => {});
    check((await message(page)) === refusal4, `the switch to multi on 4x4 is refused in the site's words: ${await message(page)}`);
    check((await page.locator("#metric").inputValue()) === "single", "the metric stays single-tile");
    check((await page.locator("#board .cell").count()) === 16 && (await left(page)) === "8", "the 4x4 board stays, 8 moves left");
    await page.screenshot({ path: join(shots, "offline-4-4x4-multi-refused.png") });

    await multiTile(context, url, served.url, watch);

    check(blocked.length === 0, `no request left the site${blocked.length ? ": " + blocked.join(", ") : ""}`);
    check(errors.length === 0, `no script errors${errors.length ? ": " + errors.join("; ") : ""}`);
    console.log(`first exact hint after opening: 3x3 ${firstHint3} ms, 4x4 ${firstHint4} ms`);
  } finally {
    await browser.close();
    server.close();
    for (const child of servers) child.kill("SIGTERM");
    rmSync(site, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
  if (failed()) {
    console.log(`${failed()} check(s) failed`);
    process.exit(1);
  }
  console.log("the static site plays with no server");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
