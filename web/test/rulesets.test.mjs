// The web client's other rule sets in a real browser: a Sichuan hand (the
// exchange of three, the void suit, discards, claims and wins when offered),
// an MCR one-hand game and a classical one-round game, each played by
// clicking against three bots to its end, the result shown checked against
// the server's record (ExportGame). The MCR game's connection is cut in the
// middle of the hand: the page must reconnect by itself, resume after the
// seq it had (the StreamEvents request it sends says so), and hold the same
// tiles as the server's view of its seat.
//
// Each game has a seed (the same game every run: this seat wins the Sichuan
// and the MCR hand, and announces fishing in the classical game);
// SEED_SICHUAN=, SEED_MCR=, SEED_CLASSICAL= (64 hex digits) play others
// without those checks.
//
//   AUTHORITY_BIN=/path/to/authority [CHROMIUM=/usr/bin/chromium] [SCREENSHOTS=dir] node --test test/

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromiumPath, click, launch, repeatable, rpc as call, shots, sleep, startServer } from "./browser.mjs";
import { afterSeqOf, sameAsServer, shownRanking, startProxy, weakestTile } from "./mahjong.mjs";

const rpc = (base, method, body) => call(base, "mahjong.authority.v1.TableService", method, body);

let work, server, proxy, ctx;

before(async () => {
  assert.ok(existsSync(chromiumPath), `no browser at ${chromiumPath} (apt-get install chromium)`);
  work = mkdtempSync(join(tmpdir(), "authority-web-rules-"));
  server = await startServer(work);
  proxy = await startProxy(Number(new URL(server.base).port));
  ctx = await launch(work);
  // A seed in the form and the page's randomness made repeatable (a
  // sequence of its own for each load of a tab) make the same games every
  // run: the walls derive from the seed and the players' entropy, and the
  // bots and this player are deterministic.
  await repeatable(ctx, 0x2545f491);
});

after(async () => {
  await ctx?.close();
  await proxy?.close();
  server?.proc.kill();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** openTable fills the lobby's form for ruleset with its own fields, quick timers, a seed and bots, and sits down. */
async function openTable(ruleset, fields, seed) {
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(proxy.base + "/");
  await page.fill("#create input[name=name]", "tester");
  await page.selectOption("#create select[name=ruleset]", ruleset);
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "boolean") await page.setChecked(`#create [name=${name}]`, value);
    else await page.fill(`#create [name=${name}]`, String(value));
  }
  await page.click("#create details summary");
  await page.fill("#create input[name=turn]", "30");
  await page.fill("#create input[name=claim]", "10");
  await page.fill("#create input[name=dwell]", "0");
  await page.fill("#create input[name=pause]", "0.5");
  await page.click("#create details:nth-of-type(2) summary");
  await page.fill("#create input[name=seed]", process.env[`SEED_${ruleset.toUpperCase()}`] ?? seed);
  await page.click("#create button[type=submit]");
  await page.waitForSelector(".board .hand .tile", { timeout: 30_000 });
  const session = () => page.evaluate(() => JSON.parse(sessionStorage.getItem("authority.session") ?? "null"));
  return { page, errors, session, tableId: (await session()).tableId };
}

/**
 * play answers every offer by clicking until the game is over: a win when
 * offered, fishing when offered, the first call of the game, pass on the
 * others, else the weakest tile; Sichuan's exchange (three tiles of one
 * suit, then Enter) and void choice (the suit it holds least of). onTurn
 * runs before each discard with the discards so far.
 */
async function play(page, rules, onTurn = async () => {}) {
  const count = { rules, discards: 0, wins: 0, calls: 0, passes: 0, fish: 0, fishShown: 0, exchanges: 0, voids: 0, results: [] };
  const deadline = Date.now() + 240_000;
  for (;;) {
    assert.ok(Date.now() < deadline, `the game did not end in time: ${JSON.stringify(count)}`);
    if (await page.$("#final")) break;
    const result = await page.$("#result");
    if (result) {
      const text = await result.textContent().catch(() => "");
      if (text && count.results.at(-1) !== text) count.results.push(text);
      if (shots && (await page.$("#result .win:not(.draw)")) && !count.winShot) {
        await page.screenshot({ path: join(shots, `win-${count.rules}.png`) });
        count.winShot = true;
      }
      await page.keyboard.press("Escape");
      await sleep(50);
      continue;
    }
    const give = await page.$(".actions .act-sichuan-exchange");
    if (give) {
      // Three tiles of one suit: after the first, only its suit stays markable.
      for (let k = 0; k < 3; k++) {
        const t = await page.$(".hand .tile.selectable:not(.selected)");
        if (t) await click(t);
      }
      if ((await page.$$(".hand .tile.selected")).length === 3) {
        await page.keyboard.press("Enter");
        count.exchanges++;
      }
      await sleep(150);
      continue;
    }
    const voids = await page.$$(".actions .act-sichuan-void");
    if (voids.length) {
      const held = await Promise.all(voids.map(async (b) => Number(/(\d+) held/.exec((await b.textContent()) ?? "")?.[1] ?? 99)));
      if (await click(voids[held.indexOf(Math.min(...held))])) count.voids++;
      await sleep(150);
      continue;
    }
    const win = await page.$(".actions .act-tsumo, .actions .act-ron");
    if (win) {
      if (await click(win)) count.wins++;
      await sleep(150);
      continue;
    }
    const fish = await page.$(".actions .act-classical-fish");
    if (fish) {
      if (await click(fish)) {
        count.fish++;
        // The announcement comes back to every seat: this one is marked.
        if (await page.waitForSelector(".seat.pos-bottom .badge.fishing", { timeout: 5000 }).catch(() => null)) count.fishShown++;
      }
      await sleep(150);
      continue;
    }
    const call = count.calls === 0 ? await page.$(".actions .act-pon, .actions .act-chi") : null;
    if (call) {
      if (await click(call)) count.calls++;
      await sleep(150);
      continue;
    }
    const pass = await page.$(".actions .act-pass");
    if (pass) {
      if (await click(pass)) count.passes++;
      await sleep(150);
      continue;
    }
    const tile = await weakestTile(page);
    if (tile) {
      await onTurn(count.discards);
      // onTurn may have redrawn the page: look again.
      const again = await weakestTile(page);
      if (again && (await click(again))) count.discards++;
      await sleep(100);
      continue;
    }
    await sleep(100);
  }
  return count;
}

/** checkFinal: the ranking shown is the record's final scores, and the page threw nothing. */
async function checkFinal(g, rules) {
  if (shots) await g.page.screenshot({ path: join(shots, `final-${rules}.png`) });
  const shown = await shownRanking(g.page);
  const rec = await rpc(server.base, "ExportGame", { table_id: g.tableId, format: "RECORD_FORMAT_NATIVE" });
  assert.equal(rec.partial ?? false, false, "the game is over in the record");
  const record = JSON.parse(rec.record);
  assert.deepEqual([0, 1, 2, 3].map((s) => shown[s]), record.final_scores, "final scores shown = the record's");
  assert.deepEqual(g.errors, [], "no errors in the page");
  return record;
}

test("a Sichuan hand: exchange, void suit, play to the settlement", { timeout: 300_000 }, async () => {
  const g = await openTable("sichuan", { "sichuan-hands": 1 }, "06".repeat(32));
  // The lobby's list names each table's rule set.
  const other = await ctx.newPage();
  await other.goto(proxy.base + "/");
  const row = await other.waitForSelector(`#tables .table-row:has(code:text-is("${g.tableId}"))`, { timeout: 15_000 });
  assert.match((await row.textContent()) ?? "", /Sichuan, 1 hand/, "the table list shows the rule set");
  await other.close();
  const seen = { voids: 0, direction: "", gotTiles: 0 };
  const count = await play(g.page, "sichuan", async (discards) => {
    if (discards === 0 || discards === 8) {
      // The page's tiles (after the exchange) and ponds are the server's.
      const same = await sameAsServer(g.page, server.base, g.tableId, (await g.session()).token);
      assert.deepEqual(...same.tiles, `the page's tiles are the server's (discard ${discards})`);
      assert.deepEqual(...same.ponds, `the ponds are the server's (discard ${discards})`);
    }
    if (discards === 0) {
      // After the exchange and the voids: every seat's void suit is shown,
      // the direction the tiles went, and what this seat got.
      seen.voids = (await g.page.$$(".seat .badge.void")).length;
      seen.direction = (await g.page.textContent(".centre .direction").catch(() => "")) ?? "";
      seen.gotTiles = (await g.page.$$(".centre .exchange .tile")).length;
    }
    if (discards === 4 && shots) {
      await g.page.screenshot({ path: join(shots, "sichuan.png") });
      await g.page.setViewportSize({ width: 390, height: 844 });
      await sleep(200);
      await g.page.screenshot({ path: join(shots, "sichuan-phone.png") });
      await g.page.setViewportSize({ width: 1280, height: 900 });
    }
  });
  assert.equal(count.exchanges, 1, "gave three tiles");
  assert.equal(count.voids, 1, "chose a void suit");
  assert.equal(seen.voids, 4, "every seat's void suit shown once revealed");
  assert.match(seen.direction, /tiles went/);
  assert.equal(seen.gotTiles, 6, "the three tiles given and the three received");
  assert.ok(count.discards > 0, "discarded by clicking");
  if (!process.env.SEED_SICHUAN) assert.ok(count.wins > 0, "declared a win (the default seed's hand has one for this seat)");
  // The hand's end: its settlement (or the wins that ended it) is shown with the final ranking.
  const last = (await g.page.textContent("#final")) ?? "";
  assert.match(last, /settlement|Three seats won/, "the hand's settlement shown");
  const record = await checkFinal(g, "sichuan");
  // The settlement shown is the record's: each seat's hand total, and its wins.
  const hand = record.rounds.at(-1).result;
  const totals = await g.page.$$eval("#final .settlement tr[data-seat]", (rows) => rows.map((r) => Number(r.lastElementChild.textContent)));
  assert.deepEqual(totals, hand.deltas, "the hand's totals shown = the record's");
  const wins = await g.page.$$eval("#final .win:not(.settlement) .total", (els) => els.map((e) => e.textContent));
  assert.deepEqual(wins, (hand.wins ?? []).map((w) => `${w.fan} fan · ${w.value} unit${w.value === 1 ? "" : "s"} from each payer`), "the wins shown = the record's");
  console.log(`sichuan: ${JSON.stringify({ ...count, results: count.results.length, end: hand.end, recordWins: (hand.wins ?? []).map((w) => w.seat) })}`);
  await g.page.close();
});

test("an MCR one-hand game, its connection cut mid-hand", { timeout: 300_000 }, async () => {
  const g = await openTable("mcr", { "mcr-hands": 1 }, "05".repeat(32));
  const streams = [];
  g.page.on("request", (r) => {
    if (r.url().endsWith(".TableService/StreamEvents")) streams.push(afterSeqOf(r.postDataBuffer()));
  });
  let cut;
  const count = await play(g.page, "mcr", async (discards) => {
    if (discards === 2 && shots) await g.page.screenshot({ path: join(shots, "mcr.png") });
    if (discards !== 3 || cut) return;
    const before = await g.session();
    const n = proxy.cut();
    cut = { seq: BigInt(before.model.seq), sockets: n, requests: streams.length };
    // The page notices, waits, reconnects and resumes after its seq.
    await g.page.waitForFunction(() => /connection lost/.test(document.querySelector(".status")?.textContent ?? ""), null, { timeout: 10_000 }).catch(() => {});
    await g.page.waitForFunction(() => document.querySelector(".status")?.textContent === "connected", null, { timeout: 20_000 });
    await sleep(300);
    // Its turn stands, so nothing moves: its tiles and the ponds are the server's.
    const same = await sameAsServer(g.page, server.base, g.tableId, before.token);
    assert.deepEqual(...same.tiles, "the page's tiles are the server's after the reconnect");
    assert.deepEqual(...same.ponds, "the ponds are the server's after the reconnect");
  });
  assert.ok(cut, "the connection was cut mid-hand");
  if (!process.env.SEED_MCR) assert.ok(count.wins > 0, "declared a win (the default seed's hand is this seat's)");
  assert.ok(cut.sockets > 0, "there were connections to cut");
  const resumed = streams.slice(cut.requests);
  assert.ok(resumed.length > 0, "the page opened its stream again");
  assert.ok(resumed[0] >= cut.seq && resumed[0] > 0n, `resumed after its seq ${cut.seq}, not from a snapshot: ${resumed[0]}`);
  assert.match((await g.page.textContent("#final")) ?? "", /wins|Draw/, "the hand's result shown with the ranking");
  const record = await checkFinal(g, "mcr");
  // The win shown is the record's: every fan with its points, the total.
  const hand = record.hands.at(-1).result;
  const fans = await g.page.$$eval("#final .fans tr", (rows) => rows.map((r) => [...r.children].map((c) => c.textContent).join(" | ")));
  assert.deepEqual(
    fans,
    (hand.fans ?? []).map((f) => `${f.name.replace(/_/g, " ")}${f.count > 1 ? ` ×${f.count}` : ""} | ${f.points} pt`),
    `the fans shown = the record's (${hand.kind})`,
  );
  const tablePoints = await g.page.$$eval("#final .table-points td.num", (tds) => tds.map((t) => Number(t.textContent)));
  assert.deepEqual(tablePoints, record.table_points, "the table points shown = the record's");
  // A spectator in another tab reaches the same end (Spectate, without the seat's private events).
  const watcher = await ctx.newPage();
  watcher.on("pageerror", (e) => g.errors.push(String(e)));
  await watcher.goto(proxy.base + "/");
  await watcher.fill("#join input[name=id]", g.tableId);
  await watcher.click("#join button[value=watch]");
  await watcher.waitForSelector("#final", { timeout: 60_000 });
  assert.deepEqual(await shownRanking(watcher), await shownRanking(g.page), "the spectator's final scores");
  assert.match((await watcher.textContent("#final")) ?? "", /wins/, "the spectator sees the win");
  await watcher.close();
  assert.deepEqual(g.errors, [], "no errors in the pages");
  console.log(`mcr: ${JSON.stringify({ ...count, results: count.results.length, resumedAfter: String(resumed[0]), end: hand.kind, fans: fans.length })}`);
  await g.page.close();
});

test("a classical game of one wind round", { timeout: 300_000 }, async () => {
  const g = await openTable("classical", { "classical-rounds": 1 }, "05".repeat(32));
  let checked = 0;
  const count = await play(g.page, "classical", async (discards) => {
    if (discards % 10 !== 5) return;
    // The page's tiles (flowers set aside, kongs replaced) and ponds are the server's.
    const same = await sameAsServer(g.page, server.base, g.tableId, (await g.session()).token);
    assert.deepEqual(...same.tiles, `the page's tiles are the server's (discard ${discards})`);
    assert.deepEqual(...same.ponds, `the ponds are the server's (discard ${discards})`);
    if (shots && checked === 1) await g.page.screenshot({ path: join(shots, "classical.png") });
    checked++;
  });
  assert.ok(checked > 0, "the page was checked against the server's view");
  assert.equal(count.fishShown, count.fish, "every fishing announcement shown on the seat");
  if (!process.env.SEED_CLASSICAL) assert.ok(count.fish > 0, "announced fishing (the default seed's game lets this seat)");
  // Every hand's end is shown (the loop closes those it sees in the round pause); the last one with the ranking.
  const last = (await g.page.textContent("#final")) ?? "";
  for (const t of [...count.results, last]) assert.match(t, /points.*doubles.*score/, "a hand's result has its score lines");
  const record = await checkFinal(g, "classical");
  // The last hand's score lines shown are the record's: points, doubles, score and payment by seat.
  const hand = record.rounds.at(-1).result;
  const lines = await g.page.$$eval("#final .score-lines tr[data-seat]", (rows) =>
    rows.map((r) => [...r.children].slice(2).map((c) => Number(c.textContent))),
  );
  assert.deepEqual(
    lines,
    hand.deltas.map((d, i) => {
      const l = hand.lines?.[i] ?? {};
      return [l.points ?? 0, l.doubles ?? 0, l.score ?? 0, d];
    }),
    `the score lines shown = the record's (${hand.end})`,
  );
  console.log(`classical: ${JSON.stringify({ ...count, results: count.results.length, end: hand.end, special: hand.lines?.[hand.winner]?.special ?? "" })}`);
  await g.page.close();
});
