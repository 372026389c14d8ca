// Dou Dizhu in a real browser: headless Chromium against a real authority.
// From the lobby it creates a table of two deals with two bots, bids and
// plays both deals by clicking (the hints, the play and pass buttons) and
// with the keyboard (a rank's key, h, Enter), reloads the page mid-deal and
// checks that the deal goes on where it was, checks that the page shows no
// card of another seat, and that the scores shown are the server's record's
// (ExportGame). A spectator in a second tab must reach the same result.
//
//   AUTHORITY_BIN=/path/to/authority [CHROMIUM=/usr/bin/chromium] [SCREENSHOTS=dir] node --test test/ddz.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromiumPath, click, launch, repeatable, rpc, shots, sleep, startServer } from "./browser.mjs";

const seed = process.env.SEED ?? "02".repeat(32);
const service = "doudizhu.authority.v1.DoudizhuService";

/** finalScores reads the ranking of the match-over screen: seat -> score. */
const finalScores = (page) =>
  page.$$eval("#final .ranking tr[data-seat]", (rows) =>
    Object.fromEntries(rows.map((r) => [r.dataset.seat, Number(r.querySelector(".final-score").textContent)])),
  );

test("a Dou Dizhu match played by clicking in Chromium", { timeout: 300_000 }, async () => {
  assert.ok(existsSync(chromiumPath), `no browser at ${chromiumPath} (apt-get install chromium)`);
  const work = mkdtempSync(join(tmpdir(), "authority-ddz-"));
  const server = await startServer(work, { data: true });
  const ctx = await launch(work);
  try {
    await repeatable(ctx);
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(server.base + "/");

    // The lobby: Dou Dizhu, two deals, bid 1-3, two bots, quick timers, a fixed seed.
    await page.click("#games button[data-game=ddz]");
    await page.fill("#ddz-create input[name=name]", "tester");
    await page.selectOption("#ddz-create select[name=bidding]", "points");
    await page.fill("#ddz-create input[name=deals]", "2");
    await page.fill("#ddz-create input[name=bombcap]", "3");
    await page.click("#ddz-create details summary");
    await page.fill("#ddz-create input[name=turn]", "30");
    await page.fill("#ddz-create input[name=pause]", "1");
    await page.fill("#ddz-create input[name=delay]", "0.2");
    await page.click("#ddz-create details:nth-of-type(2) summary");
    await page.fill("#ddz-create input[name=seed]", seed);
    await page.click("#ddz-create button[type=submit]");
    await page.waitForSelector(".ddz-hand .card-face", { timeout: 30_000 });

    const session = () => page.evaluate(() => JSON.parse(sessionStorage.getItem("authority.session") ?? "null"));
    const s0 = await session();
    assert.equal(s0.game, "ddz");
    const tableId = s0.tableId;
    const me = s0.seat;

    const count = { bids: 0, passes: 0, plays: 0, hints: 0, keys: 0, rankKeys: 0, reloads: 0, crashes: 0, results: 0 };
    const deadline = Date.now() + 240_000;
    for (;;) {
      assert.ok(Date.now() < deadline, `the match did not end in time: ${JSON.stringify(count)}`);
      if (await page.$("#final")) break;
      if (await page.$("#result")) {
        count.results++;
        await page.keyboard.press("Escape");
        await sleep(100);
        continue;
      }
      if (count.plays >= 4 && count.reloads === 0 && (await page.$("#ddz-play"))) {
        // Mid-deal, this seat to play: a picture (a hint selected), then a
        // reload that must resume the stream.
        const first = await page.$(".hints .hint-play");
        if (first) await click(first);
        await sleep(400);
        if (shots) await page.screenshot({ path: join(shots, "ddz-table.png") });
        const before = await session();
        const hand = await page.$$eval(".ddz-hand .card-face", (els) => els.map((e) => e.dataset.card).join(""));
        await page.reload();
        count.reloads++;
        await page.waitForSelector(".ddz-hand .card-face", { timeout: 15_000 });
        const after = await session();
        assert.equal(after.tableId, before.tableId);
        assert.equal(after.model.number, before.model.number, "the same deal after the reload");
        assert.ok(BigInt(after.model.seq) >= BigInt(before.model.seq), "the stream resumed after its seq");
        const again = await page.$$eval(".ddz-hand .card-face", (els) => els.map((e) => e.dataset.card).join(""));
        if (after.model.seq === before.model.seq) assert.equal(again, hand, "the same hand after the reload");
        if (shots) {
          await page.setViewportSize({ width: 390, height: 844 });
          await sleep(200);
          await page.screenshot({ path: join(shots, "ddz-phone.png") });
          await page.setViewportSize({ width: 1280, height: 900 });
        }
      }
      if (count.plays >= 8 && count.crashes === 0 && (await page.$("#ddz-play"))) {
        // A dropped connection: the server killed and started again (its
        // tables are durable); the page must see it and come back by itself.
        const before = await session();
        await page.evaluate(() => {
          const seen = () => /connection lost/.test(document.querySelector(".status")?.textContent ?? "") && (window.lost = true);
          new MutationObserver(seen).observe(document.getElementById("app"), { childList: true, subtree: true, characterData: true });
        });
        await server.crash();
        count.crashes++;
        await page.waitForFunction(() => window.lost === true, null, { timeout: 20_000 });
        await page.waitForSelector("#ddz-play", { timeout: 20_000 });
        await page.waitForFunction(() => document.querySelector(".status")?.textContent === "connected", null, { timeout: 20_000 });
        const after = await session();
        assert.equal(after.model.number, before.model.number, "the same deal after the crash");
        assert.ok(BigInt(after.model.seq) >= BigInt(before.model.seq), "the stream resumed after its seq");
      }
      // Hidden information: another seat's panel shows card backs and its plays, never its hand.
      const shown = await page.$$eval(`.ddz-seat:not([data-seat="${me}"]) .left [data-card]`, (els) => els.length);
      assert.equal(shown, 0, "another seat's cards on the page");

      // What the offer allows, read at once (the page redraws on every event).
      const { kinds, deal } = await page.evaluate(() => ({
        kinds: [...document.querySelectorAll(".actions .act")].map((e) => e.className).join(" "),
        deal: JSON.parse(sessionStorage.getItem("authority.session")).model.number,
      }));
      // Bidding: the highest bid in the first deal (the landlord, 20 cards), no bid in the second.
      if (/act-(bid|call|rob)/.test(kinds)) {
        const bids = await page.$$(".actions .act-bid");
        const el = deal === 1 ? (bids.length ? bids[bids.length - 1] : await page.$(".actions .act-call, .actions .act-rob")) : await page.$(".actions .act-pass");
        if (el && (await click(el))) {
          count.bids++;
          await sleep(150);
        }
        continue;
      }
      const play = await page.$("#ddz-play");
      if (play) {
        const leading = await page.$(".hints .label");
        const leads = leading && (await leading.textContent()) === "leads:";
        if (leads && count.rankKeys === 0) {
          // The keyboard: the lowest card's rank key selects it, Enter plays it as a single.
          const low = await page.$eval(".ddz-hand .card-face:last-child", (e) => e.dataset.card);
          await page.keyboard.press(low === "T" ? "0" : low.toLowerCase());
          await page.waitForSelector("#ddz-play:not([disabled])", { timeout: 5000 });
          await page.keyboard.press("Enter");
          count.rankKeys++;
          count.plays++;
          await sleep(150);
          continue;
        }
        if (count.plays % 4 === 3) {
          // h selects the first hint, Enter plays it.
          await page.keyboard.press("h");
          await page.waitForSelector("#ddz-play:not([disabled])", { timeout: 5000 }).catch(() => null);
          await page.keyboard.press("Enter");
          count.keys++;
          count.plays++;
          await sleep(150);
          continue;
        }
        const hint = await page.$(".hints .hint-play");
        if (hint) {
          if (!(await click(hint))) continue;
          count.hints++;
          const ready = await page.waitForSelector("#ddz-play:not([disabled])", { timeout: 5000 }).catch(() => null);
          if (!ready || !(await click(ready))) continue;
          count.plays++;
          await sleep(150);
          continue;
        }
      }
      // Nothing beats the play on the table: pass.
      const pass = /act-pass/.test(kinds) && !/act-play/.test(kinds) ? await page.$(".actions .act-pass") : null;
      if (pass) {
        if (await click(pass)) count.passes++;
        await sleep(150);
        continue;
      }
      await sleep(100);
    }
    if (shots) await page.screenshot({ path: join(shots, "ddz-final.png") });

    // The scores shown are the server's record's.
    const shown = await finalScores(page);
    const rec = await rpc(server.base, service, "ExportGame", { table_id: tableId });
    assert.equal(rec.partial ?? false, false, "the match is over in the record");
    const record = JSON.parse(rec.record);
    assert.equal(record.over, true);
    assert.deepEqual([0, 1, 2].map((s) => shown[s]), record.scores, "final scores shown = the record's");
    const played = record.deals.filter((d) => !d.thrown_in);
    assert.equal(played.length, 2, "two deals played");
    // The last deal's result as shown: each seat's change.
    const deltas = await page.$$eval("#final .ddz-result tr[data-seat]", (rows) => rows.map((r) => Number(r.querySelector(".delta").textContent)));
    const prev = played.length > 1 ? played[played.length - 2].scores : [0, 0, 0];
    assert.deepEqual(deltas, record.scores.map((x, i) => x - prev[i]), "the last deal's payments shown = the record's");
    // The first deal: this seat bid 3 and was the landlord.
    assert.ok(played[0].moves.includes(`${me} bid 3`), "bid 3 by clicking");
    assert.ok(played[0].moves.some((m) => m.startsWith(`${me} play `)), "played by clicking");

    // A spectator in another tab sees the same match to its end.
    const watcher = await ctx.newPage();
    watcher.on("pageerror", (e) => errors.push(String(e)));
    await watcher.goto(server.base + "/");
    await watcher.click("#games button[data-game=ddz]");
    await watcher.fill("#ddz-join input[name=id]", tableId);
    await watcher.click("#ddz-join button[value=watch]");
    await watcher.waitForSelector("#final", { timeout: 60_000 });
    assert.deepEqual(await finalScores(watcher), shown, "the spectator's final scores");
    assert.equal(await watcher.$$eval(".ddz-hand", (els) => els.length), 0, "a spectator holds no hand");
    await watcher.close();

    assert.equal(count.reloads, 1, "the page was reloaded mid-deal");
    assert.equal(count.crashes, 1, "the connection dropped mid-deal");
    assert.ok(count.hints > 0 && count.keys > 0 && count.rankKeys > 0, `clicks and keys: ${JSON.stringify(count)}`);
    assert.deepEqual(errors, [], "no errors in the page");
    console.log(`played: ${JSON.stringify(count)} final ${JSON.stringify(record.scores)}`);
  } catch (err) {
    console.error("server log:\n" + server.log().slice(-4000));
    throw err;
  } finally {
    await ctx.close();
    server.proc.kill();
    rmSync(work, { recursive: true, force: true });
  }
});
