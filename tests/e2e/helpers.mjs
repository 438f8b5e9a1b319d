// Shared by the page's tests in Chromium (play.mjs: the page of `slidedb
// serve`; offline.mjs: the static site of `slidedb page`): the programs
// and the browser, the checks and their count, a server started on a free
// port, and playing the page as a person does (waiting for it to settle,
// following its hints to "Solved!").

import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's folder. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const slidedb = process.env.SLIDEDB || join(root, "target/release/slidedb");
export const slidedbGen = process.env.SLIDEDB_GEN || join(root, "target/release/slidedb-gen");
export const browserPath = process.env.CHROMIUM || "/usr/bin/chromium";
/** Where the screenshots go. */
export const shots = join(root, "target/e2e");
mkdirSync(shots, { recursive: true });

let failures = 0;

/** One check: printed, and counted when it fails. */
export function check(condition, what) {
  console.log(`${condition ? "ok  " : "FAIL"} ${what}`);
  if (!condition) failures += 1;
}

/** How many checks failed so far. */
export const failed = () => failures;

/// Starts `slidedb serve` over `data` on a free loopback port; resolves to
/// {child, url}.
export function startServer(data, extra = []) {
  return new Promise((resolveUrl, reject) => {
    const child = spawn(slidedb, ["serve", "--listen", "127.0.0.1:0", "--data", data, ...extra], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    const timer = setTimeout(() => reject(new Error("the server did not start in 30 s")), 30000);
    let seen = "";
    child.stderr.on("data", (chunk) => {
      seen += chunk;
      const m = seen.match(/serving on (http:\/\/[^/\s]+\/)/);
      if (m) {
        clearTimeout(timer);
        resolveUrl({ child, url: m[1] });
      }
    });
    child.on("exit", (code) => reject(new Error(`the server exited (${code}): ${seen}`)));
  });
}

export const movesLeft = (page) => page.locator("#left").textContent();
export const message = (page) => page.locator("#message").textContent();
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/// A fresh page (of a browser or a context) at `address`, its script
/// errors kept in `page.errors`.
export async function open(browser, address) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  await page.goto(address);
  return page;
}

/// Waits until the page shows a board of `cells` cells with a distance,
/// and neither has changed for a second (no answer still on its way).
export async function settle(page, cells) {
  const look = () =>
    page.evaluate(() => [
      document.querySelectorAll("#board .cell").length,
      document.getElementById("left").textContent,
      [...document.querySelectorAll("#board .tile")].map((t) => t.textContent).join(","),
    ].join("|"));
  const deadline = Date.now() + 20000;
  let last = "";
  let since = Date.now();
  while (Date.now() < deadline) {
    const now = await look();
    const [n, left] = now.split("|");
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Number(n) === cells && /^\d+$/.test(left) && Date.now() - since >= 1000) {
      return;
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`the page did not settle on a board of ${cells} cells: ${last}`);
}

/// Checks that the moves left come to `expected` within 15 s.
export async function waitForLeft(page, expected, what) {
  try {
    await page.waitForFunction(
      (e) => document.getElementById("left").textContent === String(e),
      expected,
      { timeout: 15000 },
    );
    check(true, what);
  } catch {
    check(false, `${what} (moves left shows ${await movesLeft(page)}, not ${expected})`);
  }
}

/// Plays the board on `page`, `left` moves from the goal, by its hints:
/// each hinted tile clicked (a slide of several tiles is one move in the
/// multi-tile metric) must take one off the moves left, and the last one
/// show "Solved!", in exactly `left` moves made. Resolves to {played,
/// slides}: the moves played, and how many of them slid several tiles.
export async function playByHints(page, left, what) {
  let played = 0, slides = 0;
  for (let expected = left; expected > 0; expected--) {
    await page.locator("#hint").click();
    await page.locator(".tile.hinted").waitFor({ timeout: 5000 });
    if ((await message(page)).includes("tiles, one move")) slides += 1;
    await page.locator(".tile.hinted").click();
    played += 1;
    try {
      await page.waitForFunction((e) => document.getElementById("left").textContent === String(e), expected - 1,
        { timeout: 15000 });
    } catch {
      check(false, `${what}: a hinted move leaves ${expected - 1} (shows ${await movesLeft(page)})`);
      break;
    }
  }
  await page.waitForFunction(() => document.getElementById("message").textContent === "Solved!", null,
    { timeout: 15000 }).catch(() => {});
  check((await message(page)) === "Solved!", `${what}: the hints lead to "Solved!" (${await message(page)})`);
  check(played === left && (await page.locator("#made").textContent()) === String(left),
    `${what}: solved in exactly the ${left} moves the page said were left (played ${played})`);
  return { played, slides };
}
