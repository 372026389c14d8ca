// The web client in a real browser: headless Chromium (the system's, never
// a downloaded one) against a real authority. It creates a table with
// three bots, plays a whole east-only game by clicking (discards, riichi,
// answers to claim offers, wins), reloads the page mid-round and checks
// that the game goes on where it was, and checks that the final scores
// shown are the server's record's (ExportGame).
//
//   AUTHORITY_BIN=/path/to/authority [CHROMIUM=/usr/bin/chromium] [SCREENSHOTS=dir] node --test test/browser.test.mjs
//
// Without AUTHORITY_BIN the test builds the server with `go build`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromiumPath, click, launch, repeatable, rpc as call, shots, sleep, startServer } from "./browser.mjs";
import { weakestTile } from "./mahjong.mjs";

// The default seed's game has hands this seat wins (SEED= tries another).
const seed = process.env.SEED ?? "01".repeat(32);

const rpc = (base, method, body) => call(base, "mahjong.authority.v1.TableService", method, body);

test("a whole east-only game played by clicking in Chromium", { timeout: 420_000 }, async () => {
  assert.ok(existsSync(chromiumPath), `no browser at ${chromiumPath} (apt-get install chromium)`);
  const work = mkdtempSync(join(tmpdir(), "authority-web-"));
  const server = await startServer(work);
  const ctx = await launch(work);
  try {
    // The walls derive from the table's seed and the players' entropy: a
    // fixed seed, and the page's randomness made repeatable, make the same
    // game every run (the bots and this player are deterministic too), one
    // in which this seat wins a hand.
    // Each load of the page in a tab draws another sequence (request ids
    // must not repeat after the reload); the first load's is always the same.
    await repeatable(ctx);
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(server.base + "/");

    // The lobby: a table of one player and three bots, east only, quick timers.
    await page.fill("#create input[name=name]", "tester");
    await page.selectOption("#create select[name=rules]", "tonpuu");
    await page.click("#create details summary");
    await page.fill("#create input[name=turn]", "30");
    await page.fill("#create input[name=claim]", "10");
    await page.fill("#create input[name=dwell]", "0");
    await page.fill("#create input[name=pause]", "1.5");
    await page.click("#create details:nth-of-type(2) summary");
    await page.fill("#create input[name=seed]", seed);
    await page.click("#create button[type=submit]");
    await page.waitForSelector(".board .hand .tile", { timeout: 30_000 });

    const session = () => page.evaluate(() => JSON.parse(sessionStorage.getItem("authority.session") ?? "null"));
    const tableId = (await session()).tableId;
    assert.ok(tableId, "the session holds the table id");

    const count = { discards: 0, keys: 0, riichi: 0, calls: 0, passes: 0, wins: 0, reloads: 0 };
    let winShot = false;
    const deadline = Date.now() + 360_000;
    for (;;) {
      assert.ok(Date.now() < deadline, `the game did not end in time: ${JSON.stringify(count)}`);
      if (await page.$("#final")) break;
      const result = await page.$("#result");
      if (result) {
        if (shots && !winShot && (await page.$("#result .win:not(.draw)"))) {
          await page.screenshot({ path: join(shots, "win.png") });
          winShot = true;
        }
        await page.keyboard.press("Escape");
        await sleep(50);
        continue;
      }
      const win = await page.$(".actions .act-tsumo, .actions .act-ron");
      if (win) {
        if (!(await click(win))) continue;
        count.wins++;
        await sleep(150);
        continue;
      }
      const riichi = await page.$(".actions .act-riichi");
      if (riichi) {
        if (!(await click(riichi))) continue;
        const choice = await page.waitForSelector(".hand .tile.riichi-choice", { timeout: 5000 }).catch(() => null);
        if (!choice || !(await click(choice))) continue;
        count.riichi++;
        await sleep(150);
        continue;
      }
      // A claim: call the first one offered (melds show on the table), pass the rest.
      const call = count.calls === 0 ? await page.$(".actions .act-pon, .actions .act-chi") : null;
      if (call) {
        if (!(await click(call))) continue;
        count.calls++;
        await sleep(150);
        continue;
      }
      const pass = await page.$(".actions .act-pass");
      if (pass) {
        if (!(await click(pass))) continue;
        count.passes++;
        await sleep(150);
        continue;
      }
      // Now and then the keyboard: space discards the drawn tile.
      if (count.discards % 5 === 4 && (await page.$(".hand .tile.drawn.playable"))) {
        await page.keyboard.press("Space");
        count.discards++;
        count.keys++;
        await sleep(150);
        continue;
      }
      const tile = await weakestTile(page);
      if (tile) {
        if (!(await click(tile))) continue;
        count.discards++;
        if (count.discards >= 6 && count.reloads === 0) {
          // Mid-round: a picture, then a reload that must resume the stream.
          await sleep(300);
          if (shots) await page.screenshot({ path: join(shots, "table.png") });
          const before = await session();
          const round = await page.textContent(".centre .round b");
          await page.reload();
          count.reloads++;
          await page.waitForSelector(".board .hand .tile", { timeout: 15_000 });
          const after = await session();
          assert.equal(after.tableId, before.tableId);
          assert.equal(await page.textContent(".centre .round b"), round, "the same round after the reload");
          assert.ok(BigInt(after.model.seq) >= BigInt(before.model.seq), "the stream resumed after its seq");
          if (shots) {
            await page.setViewportSize({ width: 390, height: 844 });
            await sleep(200);
            await page.screenshot({ path: join(shots, "phone.png"), fullPage: false });
            await page.setViewportSize({ width: 1280, height: 900 });
          }
        }
        await sleep(100);
        continue;
      }
      await sleep(100);
    }

    // The final result shown is the server's record.
    const shown = await page.$$eval("#final tr[data-seat]", (rows) =>
      Object.fromEntries(rows.map((r) => [r.dataset.seat, Number(r.querySelector(".final-score").textContent)])),
    );
    const rec = await rpc(server.base, "ExportGame", { table_id: tableId, format: "RECORD_FORMAT_NATIVE" });
    assert.equal(rec.partial ?? false, false, "the game is over in the record");
    const record = JSON.parse(rec.record);
    assert.deepEqual([0, 1, 2, 3].map((s) => shown[s]), record.final_scores, "final scores shown = the record's");
    if (shots) await page.screenshot({ path: join(shots, "final.png") });

    // A spectator in another tab sees the same game to its end.
    const watcher = await ctx.newPage();
    watcher.on("pageerror", (e) => errors.push(String(e)));
    await watcher.goto(server.base + "/");
    await watcher.fill("#join input[name=id]", tableId);
    await watcher.click("#join button[value=watch]");
    await watcher.waitForSelector("#final", { timeout: 60_000 });
    const watched = await watcher.$$eval("#final tr[data-seat]", (rows) =>
      Object.fromEntries(rows.map((r) => [r.dataset.seat, Number(r.querySelector(".final-score").textContent)])),
    );
    assert.deepEqual(watched, shown, "the spectator's final scores");
    await watcher.close();
    assert.equal(count.reloads, 1, "the page was reloaded mid-round");
    assert.ok(count.discards > count.keys, "discarded by clicking");
    assert.ok(count.keys > 0, "discarded with the keyboard");
    if (!process.env.SEED) assert.ok(count.wins > 0, "declared a win (the default seed's game has some for this seat)");
    assert.deepEqual(errors, [], "no errors in the page");
    console.log(`played: ${JSON.stringify(count)} final ${JSON.stringify(record.final_scores)}`);
  } catch (err) {
    console.error("server log:\n" + server.log().slice(-4000));
    throw err;
  } finally {
    await ctx.close();
    server.proc.kill();
    rmSync(work, { recursive: true, force: true });
  }
});
