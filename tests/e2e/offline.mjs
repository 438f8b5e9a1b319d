// The static site of `slidedb page --out DIR`, played in real Chromium
// with no slidedb server: a plain file server serves the folder, and
// every request to anything else is blocked (and counted). A 3x3 puzzle
// is played to "Solved!" by following the page's hints, and a 4x4 board
// gets a hint from IDA* in the page's Web Worker. Prints how long the page
// took from opening to its first exact hint on each. Screenshots in
// target/e2e/.
//
//   node tests/e2e/offline.mjs   (SLIDEDB: the binary; CHROMIUM: the
//                                 browser, /usr/bin/chromium)

import { spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const slidedb = process.env.SLIDEDB || join(root, "target/release/slidedb");
const browserPath = process.env.CHROMIUM || "/usr/bin/chromium";
const shots = join(root, "target/e2e");
mkdirSync(shots, { recursive: true });

let failures = 0;
function check(condition, what) {
  console.log(`${condition ? "ok  " : "FAIL"} ${what}`);
  if (!condition) failures += 1;
}

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

const left = (page) => page.locator("#left").textContent();
const message = (page) => page.locator("#message").textContent();

async function main() {
  const site = mkdtempSync(join(tmpdir(), "slidedb-site-"));
  const data = mkdtempSync(join(tmpdir(), "slidedb-site-data-"));
  const wrote = spawnSync(slidedb, ["page", "--out", site, "--data", data], { encoding: "utf8" });
  check(wrote.status === 0, `slidedb page wrote the site${wrote.status ? ": " + wrote.stderr : ""}`);
  const { server, url } = await serveFolder(site);
  const browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox"] });
  const blocked = [];
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
    const opened = Date.now();
    await page.goto(url);
    await page.waitForFunction(() => /^\d+$/.test(document.getElementById("left").textContent)
      && !document.getElementById("hint").disabled, null, { timeout: 20000 });
    await page.locator("#hint").click();
    await page.locator(".tile.hinted").waitFor({ timeout: 5000 });
    const firstHint3 = Date.now() - opened;
    check((await page.locator("#board .cell").count()) === 9, "the site opens on a 3x3 puzzle");
    const start = Number(await left(page));
    check(start > 0, `the puzzle is ${start} moves from the goal`);
    await page.screenshot({ path: join(shots, "offline-1-hint.png") });
    for (let moves = 0; moves < start; moves++) {
      const before = Number(await left(page));
      if (moves > 0) {
        await page.locator("#hint").click();
        await page.locator(".tile.hinted").waitFor({ timeout: 5000 });
      }
      await page.locator(".tile.hinted").click();
      await page.waitForFunction((b) => document.getElementById("left").textContent === String(b - 1), before,
        { timeout: 5000 });
    }
    await page.waitForFunction(() => document.getElementById("message").textContent === "Solved!", null,
      { timeout: 5000 }).catch(() => {});
    check((await message(page)) === "Solved!", `following ${start} hints solves it: ${await message(page)}`);
    check((await page.locator("#made").textContent()) === String(start), "in exactly as many moves as it was away");
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
    const opened4 = Date.now();
    await page.goto(url + "#size=4x4&board=" + "5 1 3 4 2 0 7 8 9 6 10 12 13 14 11 15".replaceAll(" ", "+"));
    await page.waitForFunction(() => /^\d+$/.test(document.getElementById("left").textContent)
      && !document.getElementById("hint").disabled, null, { timeout: 60000 });
    await page.locator("#hint").click();
    await page.locator(".tile.hinted").waitFor({ timeout: 5000 });
    const firstHint4 = Date.now() - opened4;
    check((await page.locator("#board .cell").count()) === 16, "a 4x4 board from a link is shown");
    check((await left(page)) === "8", `its moves left are exact: ${await left(page)} (8)`);
    check(/^Hint: move tile \d+\.$/.test(await message(page)), `a 4x4 hint: ${await message(page)}`);
    await page.screenshot({ path: join(shots, "offline-3-4x4-hint.png") });

    check(blocked.length === 0, `no request left the site${blocked.length ? ": " + blocked.join(", ") : ""}`);
    check(errors.length === 0, `no script errors${errors.length ? ": " + errors.join("; ") : ""}`);
    console.log(`first exact hint after opening: 3x3 ${firstHint3} ms, 4x4 ${firstHint4} ms`);
  } finally {
    await browser.close();
    server.close();
    rmSync(site, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
  if (failures) {
    console.log(`${failures} check(s) failed`);
    process.exit(1);
  }
  console.log("the static site plays with no server");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
