// What the mahjong browser tests share beyond browser.mjs: a TCP proxy in
// front of the server whose connections a test can cut (a dropped
// connection, as a train going into a tunnel), the seat's own view read
// straight from the server, the after_seq of the page's stream requests,
// the player's choice of tile, and the final ranking shown.

import { createServer, connect } from "node:net";
import { freePort } from "./browser.mjs";

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

/** tilesOf splits an MPSZ string into tiles ("123m" -> 1m 2m 3m). */
export function tilesOf(s) {
  return (s.match(/\d+[mpszf]/g) ?? []).flatMap((g) => [...g.slice(0, -1)].map((d) => d + g.at(-1)));
}

/**
 * sameAsServer checks the page against the server's view of its seat
 * (a snapshot read now): the seat's tiles, and every seat's pond in order.
 * Call it on the seat's own turn, when nothing moves.
 */
export async function sameAsServer(page, base, tableId, seatToken) {
  const mine = await page.$$eval(".hand .tile", (els) => els.map((e) => e.dataset.tile).sort());
  const ponds = await page.$$eval(".seat", (els) =>
    Object.fromEntries(els.map((e) => [e.dataset.seat, [...e.querySelectorAll(".pond .tile")].map((t) => t.dataset.tile)])),
  );
  const snap = await snapshotOf(base, tableId, seatToken);
  const view = snap.view;
  return {
    tiles: [mine, [...tilesOf(view.hand ?? ""), ...tilesOf(view.drawn ?? "")].sort()],
    ponds: [[0, 1, 2, 3].map((s) => ponds[s]), (view.seats ?? []).map((s) => (s.discards ?? []).map((d) => d.tile))],
  };
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
