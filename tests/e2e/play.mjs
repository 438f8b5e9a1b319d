// The page of `slidedb serve`, played in real Chromium as a person plays
// it: a new 3x3 puzzle at distance 10, a move the page marks closer, a
// hint, the solve button, the AcWing board pasted, and a 4x4 puzzle over
// pattern databases; then the edges: the page's own wording, a bad board
// in a shared link, the histogram's scale, a board too hard for the
// server's time budget (still playable), and a server answering from one
// table file (its goal shown as the default). Each state is kept as a
// screenshot in target/e2e/ (look at them).
//
//   node tests/e2e/play.mjs   (SLIDEDB, SLIDEDB_GEN: the binaries;
//                              CHROMIUM: the browser, /usr/bin/chromium)

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

import {
  browserPath, check, failed, message, movesLeft, open, playByHints, settle, shots, sleep, slidedbGen, startServer,
  waitForLeft,
} from "./helpers.mjs";

/// The edges of issue 23, each on a page of its own.
async function edges(browser, url, data, servers) {
  // The page's own words, not the command line's.
  {
    const page = await open(browser, url);
    await settle(page, 9);
    await page.locator("#paste").fill("1 2 3 4 5 0");
    await page.locator("#paste-form button").click();
    await page.waitForFunction(() => document.getElementById("message").classList.contains("error"));
    const said = await message(page);
    check(!said.includes("--size") && said.includes("Size menu"), `an ambiguous paste says what to do on the page: ${said}`);

    // The histogram on a log scale: one board is a bar of its own, lower
    // than two boards', as high as the two farthest boards'.
    const heights = await page.evaluate(() =>
      [...document.querySelectorAll("#histogram rect")].map((r) => Number(r.getAttribute("height"))));
    check(heights.length === 32 && heights[0] >= 8 && heights[1] > heights[0] && heights[31] === heights[1]
      && heights.every((h) => h > 0),
      `every layer shows, on a log scale (heights ${heights.slice(0, 4).map((h) => h.toFixed(1)).join(", ")} … ${heights.slice(-2).map((h) => h.toFixed(1)).join(", ")})`);
    check((await page.locator("label[for=difficulty]").textContent()) === "Moves to solve", "on 3x3 the control is moves to solve");
    await page.screenshot({ path: join(shots, "8-log-histogram.png") });
    await page.close();
  }

  // A bad board in a shared link: said so, and a new puzzle instead.
  for (const [link, words] of [
    ["#size=3x3&board=1+1+2+3+4+5+6+7+0", "appears twice"],
    ["#size=3x3&board=banana", "not a tile"],
    ["#size=7x7&board=1+2+3", "7x7"],
  ]) {
    const page = await open(browser, url + link);
    // A bad board shown as it is never settles: the check below says so.
    await settle(page, 9).catch(() => {});
    const said = await message(page);
    check(said.includes(words) && (said.includes("link")), `a link with a bad board (${link}) says so: ${said}`);
    if (link.includes("banana")) await page.screenshot({ path: join(shots, "9-bad-link.png") });
    await page.close();
  }

  // A board too hard for the server's budget: the page says so in its
  // own words, and stays playable.
  {
    const strict = await startServer(data, ["--max-search", "20ms"]);
    servers.push(strict.child);
    // 63 moves from the goal: over a second of search with 5-5-5.
    const hard = "11 12 5 9 13 4 14 3 7 15 6 2 0 8 10 1";
    const page = await open(browser, strict.url + "#size=4x4&board=" + hard.replaceAll(" ", "+"));
    await page.waitForFunction(() => document.getElementById("message").textContent.includes("time limit"), null, { timeout: 20000 })
      .then(() => check(true, "a search past the budget is said in the page's words"),
        async () => check(false, `a search past the budget is said in the page's words: ${await message(page)}`));
    const said = await message(page);
    check(!said.includes("--max-search"), `no server option named: ${said}`);
    check((await page.locator("#board .cell").count()) === 16, "the board from the link is shown");
    const movable = page.locator(".tile.movable");
    check((await movable.count()) >= 2, "the tiles next to the gap can still be clicked");
    await page.screenshot({ path: join(shots, "10-past-the-budget.png") });
    await movable.first().click({ timeout: 3000 }).catch(() => {});
    await page.waitForFunction(() => document.getElementById("made").textContent === "1", null, { timeout: 5000 })
      .then(() => check(true, "a tile clicked after the budget passed moves"),
        () => check(false, "a tile clicked after the budget passed moves"));
    check(page.errors.length === 0, `no script errors${page.errors.length ? ": " + page.errors.join("; ") : ""}`);
    await page.close();
  }

  // A server answering from one table file: its goal is the default shown.
  {
    const file = join(data, "korf-3x3.slidedb");
    const built = spawnSync(slidedbGen, ["--goal", "0 1 2 3 4 5 6 7 8", "--out", file, "--quiet"]);
    check(built.status === 0, "slidedb-gen built a 3x3 table toward 0 1 2 3 4 5 6 7 8");
    const named = await startServer(data, ["--table", file]);
    servers.push(named.child);
    const page = await open(browser, named.url);
    await settle(page, 9);
    const placeholder = await page.locator("#goal").getAttribute("placeholder");
    check(placeholder.includes("0 1 2 3 4 5 6 7 8"), `the default goal shown is the table's: ${placeholder}`);
    await page.locator("#difficulty").fill("10");
    await page.locator("#new").click();
    await waitForLeft(page, 10, "a new puzzle toward the table's goal shows 10 moves left");
    await page.screenshot({ path: join(shots, "11-table-goal.png") });
    await page.close();
  }
}

/// The multi-tile metric (issue 37), from a link (?metric=multi): the
/// switch changes the moves left of the same board; then the 3x3 board
/// played to "Solved!" by its hints, a slide of several tiles one
/// move, in exactly as many moves as the page said were left (the
/// server's multi-tile distance).
async function multiTile(browser, url) {
  // The README's board: 19 single-tile moves, 14 multi-tile ones.
  const page = await open(browser, `${url}?metric=multi#size=3x3&board=2+3+4+1+5+x+7+6+8`);
  await page.waitForSelector(".tile");
  check((await page.locator("#metric").inputValue()) === "multi", "?metric=multi sets the metric switch to multi");
  await waitForLeft(page, 14, "the linked board shows 14 multi-tile moves left");
  await page.locator("#metric").selectOption("single");
  await waitForLeft(page, 19, "the switch to single shows the same board's 19 single-tile moves");
  check(!(await page.evaluate(() => location.hash)).includes("metric"), "in single the link names no metric");
  await page.locator("#metric").selectOption("multi");
  await waitForLeft(page, 14, "and back to multi, 14");
  await settle(page, 9);
  const left = Number(await movesLeft(page));
  const board = await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get("board"));
  const asked = await (await fetch(`${url}api/v1/probe?board=${encodeURIComponent(board)}&metric=multi`)).json();
  check(asked.metric === "multi" && asked.distance === left,
    `the page shows the multi-tile moves left (${left}), as the server's probe?metric=multi says (${asked.distance})`);
  check((await page.evaluate(() => location.hash)).includes("metric=multi"), "the page's link carries metric=multi");
  const { played, slides } = await playByHints(page, left, "multi-tile");
  check(slides > 0, `some hint was a slide of several tiles (${slides} of ${played})`);
  await page.screenshot({ path: join(shots, "4-multi-tile-solved.png") });
  check(page.errors.length === 0, `no script errors in the multi-tile metric${page.errors.length ? ": " + page.errors.join("; ") : ""}`);
  await page.close();
}

async function main() {
  const data = mkdtempSync(join(tmpdir(), "slidedb-e2e-"));
  // The 15-puzzle's databases (5-5-5: seconds), so that 4x4 is offered.
  const built = spawnSync(slidedbGen, ["--size", "4x4", "--pdb", "5-5-5", "--data", data, "--quiet"]);
  check(built.status === 0, "slidedb-gen built the 4x4 5-5-5 databases");
  const { child, url } = await startServer(data);
  const servers = [];
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
    check((await page.locator("#made-label").textContent()) === "move made", "1 move made, in the singular");
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
    check((await page.locator("#goal").inputValue()) === "1 2 3 4 0 5", "the refused goal stays in its field (Tab)");
    check((await page.locator("#goal").getAttribute("aria-invalid")) === "true", "the refused goal is marked");
    check((await page.locator("#goal-error").textContent()).includes("6 cells"), "the refusal is said beside the field");
    // A bad goal typed, then New puzzle clicked without Enter: refused as
    // with Enter, kept in the field with its message, and no puzzle dealt
    // toward a goal the user did not choose.
    await page.locator("#goal").fill("1 2 3 4 5 6 7 8");
    await page.locator("#new").click();
    await page.waitForFunction(() => document.getElementById("goal-error").textContent.includes("8 cells"));
    await sleep(1500);
    check((await page.locator("#goal").inputValue()) === "1 2 3 4 5 6 7 8", "a bad goal and New puzzle: the goal stays in its field");
    check((await page.locator("#goal-error").textContent()).includes("8 cells"), "a bad goal and New puzzle: its message stays");
    check((await message(page)).includes("8 cells"), `a bad goal and New puzzle: the message is the refusal (${await message(page)})`);
    check(new URLSearchParams(new URL(page.url()).hash.slice(1)).get("board") === boardBefore, "a bad goal and New puzzle: no new puzzle dealt");
    check(new URLSearchParams(new URL(page.url()).hash.slice(1)).get("goal") === "0 1 2/3 4 5/6 7 8", "a bad goal and New puzzle: the goal in use is the old one");
    // Another button (Hint) after it: the field and its message stay.
    await page.locator("#goal").fill("1 2 3 4 5 6 7 0");
    await page.locator("#hint").click();
    await page.waitForFunction(() => document.getElementById("goal-error").textContent.includes("8 cells")
      && document.getElementById("goal").value === "1 2 3 4 5 6 7 0");
    await sleep(1000);
    check((await page.locator("#goal").inputValue()) === "1 2 3 4 5 6 7 0", "a bad goal and Hint: the goal stays in its field");
    check((await page.locator("#goal-error").textContent()).includes("8 cells"), "a bad goal and Hint: its message stays");
    check(new URLSearchParams(new URL(page.url()).hash.slice(1)).get("board") === boardBefore, "a bad goal and Hint: the board is the same");
    // Enter: the same.
    await page.locator("#goal").fill("1 2 3 4 5 6 7 8");
    await page.locator("#goal").press("Enter");
    await sleep(1000);
    check((await page.locator("#goal").inputValue()) === "1 2 3 4 5 6 7 8", "a bad goal and Enter: the goal stays in its field");
    check((await page.locator("#goal-error").textContent()).includes("8 cells"), "a bad goal and Enter: its message stays");
    await page.screenshot({ path: join(shots, "5d-bad-goal-kept.png") });
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
    check((await page.locator("#left-label").textContent()) === "move left", "1 move left, in the singular");
    check((await page.locator("#goal-error").textContent()) === "", "the goal accepted: no refusal shown");
    check((await page.locator("#size").inputValue()) === "2x3", "the size selector switched to 2x3");
    check((await page.locator("#board .cell").count()) === 6, "the board has 6 cells");
    await page.screenshot({ path: join(shots, "5c-pasted-2x3.png") });

    // The 15-puzzle, over pattern databases.
    // Switching the size draws a puzzle of its own: let it land (16 tiles
    // and a distance) before asking for another, then let that one land.
    await page.locator("#size").selectOption("4x4");
    await settle(page, 16);
    // Without a full table, the control scrambles: it is named so.
    check((await page.locator("label[for=difficulty]").textContent()) === "Moves scrambled",
      `the 4x4 control is named for what it does (${await page.locator("label[for=difficulty]").textContent()})`);
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

    await multiTile(browser, url);

    await edges(browser, url, data, servers);
  } finally {
    await browser.close();
    child.kill("SIGTERM");
    for (const s of servers) s.kill("SIGTERM");
    rmSync(data, { recursive: true, force: true });
  }
  console.log(`${failed() === 0 ? "all passed" : failed() + " failed"}; screenshots in ${shots}`);
  process.exit(failed() === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
