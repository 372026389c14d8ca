// What the browser tests share: a built authority on a free loopback port,
// a TCP proxy in front of it whose connections the test can cut (a dropped
// connection, as a train going into a tunnel), Debian's Chromium through
// playwright-core, the API called as any HTTP client can (Connect JSON),
// and the seat's own view read straight from the server.

import { spawn, execFileSync } from "node:child_process";
import { createServer, connect } from "node:net";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

export const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
    s.on("error", rej);
  });
}

/** startServer runs AUTHORITY_BIN (else a fresh `go build`) on a free port. */
export async function startServer(work) {
  let bin = process.env.AUTHORITY_BIN;
  if (!bin) {
    bin = join(work, "authority");
    execFileSync("go", ["build", "-o", bin, "./cmd/authority"], { cwd: resolve(import.meta.dirname, "../.."), stdio: "inherit" });
  }
  const port = await freePort();
  const proc = spawn(bin, ["--listen", `127.0.0.1:${port}`], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  proc.stderr.on("data", (b) => (log = (log + b).slice(-20000)));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(base + "/")).ok) break;
    } catch {
      if (i > 100) throw new Error("the server did not start: " + log);
      await sleep(100);
    }
  }
  return { base, port, proc, log: () => log };
}

/**
 * startProxy forwards a free port to target. cut() closes every open
 * connection at once, both ways, as a network that drops them; new ones
 * are taken again at once.
 */
export async function startProxy(targetPort) {
  const sockets = new Set();
  const server = createServer((client) => {
    const upstream = connect(targetPort, "127.0.0.1");
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ]) {
      sockets.add(a);
      a.on("close", () => {
        sockets.delete(a);
        b.destroy();
      });
      a.on("error", () => b.destroy());
      a.pipe(b);
    }
  });
  const port = await freePort();
  await new Promise((r) => server.listen(port, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${port}`,
    cut() {
      const n = sockets.size;
      for (const s of sockets) s.destroy();
      return n;
    },
    close: () => new Promise((r) => server.close(r)),
  };
}

/** rpc calls the API as any HTTP client can: Connect's JSON protocol. */
export async function rpc(base, method, body) {
  const res = await fetch(`${base}/mahjong.authority.v1.TableService/${method}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Connect-Protocol-Version": "1" },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * snapshotOf opens a stream of the seat with Connect JSON and returns its
 * first message, the seat's view as the server holds it.
 */
export async function snapshotOf(base, tableId, seatToken) {
  const body = Buffer.from(JSON.stringify({ table_id: tableId, seat_token: seatToken }));
  const env = Buffer.alloc(5 + body.length);
  env.writeUInt32BE(body.length, 1);
  body.copy(env, 5);
  const ac = new AbortController();
  const res = await fetch(`${base}/mahjong.authority.v1.TableService/StreamEvents`, {
    method: "POST",
    headers: { "Content-Type": "application/connect+json", "Connect-Protocol-Version": "1" },
    body: env,
    signal: ac.signal,
  });
  let buf = Buffer.alloc(0);
  try {
    for await (const chunk of res.body) {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length >= 5 && buf.length >= 5 + buf.readUInt32BE(1)) {
        return JSON.parse(buf.subarray(5, 5 + buf.readUInt32BE(1)).toString()).snapshot;
      }
    }
  } finally {
    ac.abort();
  }
  throw new Error("the stream ended before its snapshot");
}

/** afterSeqOf reads after_seq (field 3) from a StreamEvents request of Connect's binary protocol. */
export function afterSeqOf(body) {
  let i = 5; // the envelope: a flag byte and the length
  const varint = () => {
    let x = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const b = body[i++];
      x |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return x;
    }
  };
  while (i < body.length) {
    const key = Number(varint());
    if ((key & 7) === 2) {
      const n = Number(varint());
      i += n;
    } else if ((key & 7) === 0) {
      const v = varint();
      if (key >> 3 === 3) return v;
    } else throw new Error(`wire type ${key & 7}`);
  }
  return 0n;
}

/**
 * repeatableRandom makes the pages' crypto.getRandomValues repeatable from
 * salt: a sequence of its own for each load of a tab (request ids must
 * not repeat after a reload), the first load's always the same. With a
 * table seed this makes the same game every run: the walls derive from
 * the seed and the players' entropy.
 */
export function repeatableRandom(ctx, salt) {
  return ctx.addInitScript((salt) => {
    const loads = Number(sessionStorage.getItem("test.loads") ?? "0");
    sessionStorage.setItem("test.loads", String(loads + 1));
    let x = (salt ^ (loads * 0x85ebca6b)) | 1;
    crypto.getRandomValues = (a) => {
      const b = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      for (let i = 0; i < b.length; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        b[i] = x & 0xff;
      }
      return a;
    };
  }, salt);
}

/** launch starts headless Chromium with a fresh profile in dir. */
export function launch(dir) {
  return chromium.launchPersistentContext(dir, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1280, height: 900 },
  });
}

/**
 * click clicks an element found a moment ago; false if the page was drawn
 * again meanwhile (every event redraws it) and the element is gone: the
 * loop then looks again.
 */
export async function click(el) {
  try {
    await el.click({ timeout: 2000 });
    return true;
  } catch (err) {
    if (/not attached|detached|Timeout|not enabled|disabled/i.test(String(err))) return false;
    throw err;
  }
}

/**
 * weakestTile is the playable tile that helps the hand least: the fewest
 * copies and neighbours in the hand (honors and terminals first on a
 * tie).
 */
export async function weakestTile(page) {
  const tiles = await page.$$(".hand .tile.playable");
  if (tiles.length === 0) return null;
  const faces = await page.$$eval(".hand .tile", (els) => els.map((e) => e.dataset.tile ?? ""));
  const norm = (t) => (t[0] === "0" ? "5" : t[0]) + t[1];
  const hand = faces.map(norm);
  let best = null;
  let bestScore = Infinity;
  for (const el of tiles) {
    const t = norm((await el.getAttribute("data-tile")) ?? "");
    const n = Number(t[0]);
    let score = 3 * (hand.filter((x) => x === t).length - 1);
    if (t[1] !== "z") {
      for (const [d, w] of [
        [-2, 1],
        [-1, 2],
        [1, 2],
        [2, 1],
      ]) {
        if (hand.includes(`${n + d}${t[1]}`)) score += w;
      }
      if (n === 1 || n === 9) score -= 0.5;
    } else {
      score -= 1;
    }
    if (score < bestScore) {
      best = el;
      bestScore = score;
    }
  }
  return best;
}

/** shownRanking is the final box's scores by seat. */
export function shownRanking(page) {
  return page.$$eval("#final .ranking tr[data-seat]", (rows) =>
    Object.fromEntries(rows.map((r) => [r.dataset.seat, Number(r.querySelector(".final-score").textContent)])),
  );
}
