// The page of `slidedb serve`, played in real Chromium as a person plays
// it: a new 3x3 puzzle at distance 10, a move the page marks closer, a
// hint, the solve button, the AcWing board pasted, and a 4x4 puzzle over
// pattern databases. Each state is kept as a screenshot in
// target/e2e/ (look at them).
//
//   node tests/e2e/play.mjs   (SLIDEDB, SLIDEDB_GEN: the binaries;
//                              CHROMIUM: the browser, /usr/bin/chromium)

import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const slidedb = process.env.SLIDEDB || join(root, "target/release/slidedb");
const slidedbGen = process.env.SLIDEDB_GEN || join(root, "target/release/slidedb-gen");
const browserPath = process.env.CHROMIUM || "/usr/bin/chromium";
const shots = join(root, "target/e2e");
mkdirSync(shots, { recursive: true });

let failures = 0;
function check(condition, what) {
  if (condition) {
    console.log(`ok   ${what}`);
  } else {
    failures += 1;
    console.log(`FAIL ${what}`);
  }
}

/// Starts the server on a free loopback port; resolves to its base URL.
function startServer(data) {
  return new Promise((resolveUrl, reject) => {
    const child = spawn(slidedb, ["serve", "--listen", "127.0.0.1:0", "--data", data], {
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

const movesLeft = (page) => page.locator("#left").textContent();

/// Waits until the page shows a board of `cells` cells with a distance,
/// and neither has changed for a second (no answer still on its way).
async function settle(page, cells) {
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

async function waitForLeft(page, expected, what) {
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

async function main() {
  const data = mkdtempSync(join(tmpdir(), "slidedb-e2e-"));
  // The 15-puzzle's databases (5-5-5: seconds), so that 4x4 is offered.
  const built = spawnSync(slidedbGen, ["--size", "4x4", "--pdb", "5-5-5", "--data", data, "--quiet"]);
  check(built.status === 0, "slidedb-gen built the 4x4 5-5-5 databases");
  const { child, url } = await startServer(data);
  const browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(url);
    await page.waitForSelector(".tile");

    // A new puzzle at distance 10.
    await page.locator("#difficulty").fill("10");
    await page.locator("#new").click();
    await waitForLeft(page, 10, "a new puzzle at distance 10 shows 10 moves left");
    await page.screenshot({ path: join(shots, "1-new-puzzle.png") });

    // A move the page marks closer takes one off.
    const closer = page.locator(".tile.closer").first();
    check((await closer.count()) === 1, "some tile is marked as bringing the board closer");
    await closer.click();
    await waitForLeft(page, 9, "playing a closer tile leaves 9 moves");
    check((await page.locator("#made").textContent()) === "1", "one move made");
    // A farther one adds one; undo takes it back.
    const farther = page.locator(".tile.farther").first();
    if ((await farther.count()) === 1) {
      await farther.click();
      await waitForLeft(page, 10, "playing a farther tile adds one");
      await page.locator("#undo").click();
      await waitForLeft(page, 9, "undo takes the move back");
    }
    await page.screenshot({ path: join(shots, "2-one-move-closer.png") });

    // The arrow keys play too: one of the four keys is an optimal move.
    // Hint marks an optimal tile; playing it takes one off.
    await page.locator("#hint").click();
    const hinted = page.locator(".tile.hinted");
    check((await hinted.count()) === 1, "hint marks one tile");
    check((await page.locator("#message").textContent()).startsWith("Hint: move tile"), "hint names the tile");
    await page.screenshot({ path: join(shots, "3-hint.png") });
    await hinted.click();
    await waitForLeft(page, 8, "the hinted tile leaves 8 moves");

    // Solve animates the rest.
    await page.locator("#solve").click();
    await waitForLeft(page, 0, "solve plays to the goal");
    await page.waitForFunction(() => document.getElementById("message").textContent === "Solved!");
    check(true, "the page says Solved!");
    await page.screenshot({ path: join(shots, "4-solved.png") });

    // The AcWing board, pasted as AcWing writes it.
    await page.locator("#paste").fill("2 3 4 1 5 x 7 6 8");
    await page.locator("#paste-form button").click();
    await waitForLeft(page, 19, "the AcWing board shows 19 moves left");
    check(page.url().includes("board=2+3+4+1+5+0+7+6+8"), "the board is in the address");
    check((await page.locator("#histogram rect.here").count()) === 1, "the histogram marks the board's layer");
    await page.screenshot({ path: join(shots, "5-acwing-board.png") });

    // Keyboard: an arrow slides a tile into the gap.
    const before = await page.locator("#made").textContent();
    await page.locator("body").press("ArrowDown");
    await page.waitForFunction((b) => document.getElementById("made").textContent !== b, before);
    check(true, "an arrow key plays a move");

    // Keyboard focus stays on the board after Enter plays a tile, and the
    // board is a group of labelled buttons and a labelled gap.
    check((await page.locator("#board[role=group]").count()) === 1, "the board is a group");
    check((await page.locator("#board .gap[role=img][aria-label^=gap]").count()) === 1, "the gap is labelled");
    {
      const madeBefore = await page.locator("#made").textContent();
      await page.locator(".tile.movable").first().focus();
      await page.keyboard.press("Enter");
      await page.waitForFunction((b) => document.getElementById("made").textContent !== b, madeBefore);
      const focused = await page.evaluate(() => document.activeElement.matches("#board .tile"));
      check(focused, "focus stays on a tile after Enter plays it");
    }

    // Solve holds the board: a tile clicked and an arrow pressed while it
    // plays change nothing, and it still ends on the goal.
    await page.locator("#solve").click();
    check(await page.locator("#new").isDisabled(), "New puzzle is off while Solve plays");
    check(await page.locator("#size").isDisabled(), "the size is off while Solve plays");
    await page.locator(".tile").first().click({ force: true, timeout: 3000 }).catch(() => {});
    await page.locator("body").press("ArrowDown");
    await page.locator("body").press("ArrowLeft");
    await waitForLeft(page, 0, "a tile clicked and arrows pressed during Solve: it still ends at 0");
    await page.waitForFunction(() => document.getElementById("message").textContent === "Solved!");
    check(true, "the page says Solved! after the interrupted solve");
    await page.waitForFunction(() => !document.getElementById("new").disabled, null, { timeout: 5000 })
      .then(() => check(true, "New puzzle is back on after Solve"), () => check(false, "New puzzle is back on after Solve"));

    // A goal in slash syntax, read by the server.
    await page.locator("#goal").fill("0 1 2/3 4 5/6 7 8");
    await page.locator("#goal").press("Tab");
    await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get("goal") === "0 1 2/3 4 5/6 7 8");
    await page.waitForFunction(() => /^\d+$/.test(document.getElementById("left").textContent));
    check((await page.locator("#board .cell").count()) === 9, "a slash-syntax goal keeps a 3x3 board");
    check(/^\d+$/.test(await movesLeft(page)), `moves left is a number toward the slash-syntax goal (${await movesLeft(page)})`);
    await page.screenshot({ path: join(shots, "5b-slash-goal.png") });
    // A goal of another size: the server's error, nothing else changes.
    const boardBefore = new URLSearchParams(new URL(page.url()).hash.slice(1)).get("board");
    await page.locator("#goal").fill("1 2 3 4 0 5");
    await page.locator("#goal").press("Tab");
    await page.waitForFunction(() => document.getElementById("message").classList.contains("error"));
    check((await page.locator("#message").textContent()).includes("6 cells"), "a 2x3 goal with 3x3 selected shows the server's error");
    check((await page.locator("#board .cell").count()) === 9, "the board stays 3x3");
    check(new URLSearchParams(new URL(page.url()).hash.slice(1)).get("board") === boardBefore, "the board is unchanged");
    check((await page.locator("#size").inputValue()) === "3x3", "the size stays 3x3");
    // Cleared: the standard goal again.
    await page.locator("#goal").fill("");
    await page.locator("#goal").press("Tab");
    await page.waitForFunction(() => !new URLSearchParams(location.hash.slice(1)).has("goal"));
    await page.waitForFunction(() => /^\d+$/.test(document.getElementById("left").textContent));
    check(true, "the goal cleared: a board toward the standard goal");

    // A board of another size pasted: the size follows it.
    check((await page.locator("#size").inputValue()) === "3x3", "3x3 selected before the 2x3 paste");
    await page.locator("#paste").fill("1 2 3/4 0 5");
    await page.locator("#paste-form button").click();
    await waitForLeft(page, 1, "the pasted 2x3 board shows 1 move left");
    check((await page.locator("#size").inputValue()) === "2x3", "the size selector switched to 2x3");
    check((await page.locator("#board .cell").count()) === 6, "the board has 6 cells");
    await page.screenshot({ path: join(shots, "5c-pasted-2x3.png") });

    // The 15-puzzle, over pattern databases.
    // Switching the size draws a puzzle of its own: let it land (16 tiles
    // and a distance) before asking for another, then let that one land.
    await page.locator("#size").selectOption("4x4");
    await settle(page, 16);
    await page.locator("#difficulty").fill("12");
    await page.locator("#new").click();
    await settle(page, 16);
    const left = Number(await movesLeft(page));
    check(left > 0 && left <= 12 && left % 2 === 0, `a 4x4 puzzle 12 moves scrambled is ${left} moves from the goal`);
    await page.locator(".tile.closer").first().click();
    await waitForLeft(page, left - 1, "a closer 4x4 move takes one off");
    await page.locator("#solve").click();
    await waitForLeft(page, 0, "solve plays the 4x4 puzzle to the goal");
    await page.screenshot({ path: join(shots, "6-fifteen-solved.png") });

    // A phone-sized window.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator("#size").selectOption("3x3");
    await page.waitForSelector(".tile");
    await page.screenshot({ path: join(shots, "7-phone.png"), fullPage: true });

    check(errors.length === 0, `no script errors${errors.length ? ": " + errors.join("; ") : ""}`);
  } finally {
    await browser.close();
    child.kill("SIGTERM");
    rmSync(data, { recursive: true, force: true });
  }
  console.log(`${failures === 0 ? "all passed" : failures + " failed"}; screenshots in ${shots}`);
  process.exit(failures === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
