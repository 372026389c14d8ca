// play: one seat of a game against the authority's bots, over gRPC, from
// a client that knows nothing but the protocol guide (docs/protocol.md).
//
// It creates a table whose empty seats bots fill, takes one seat, starts
// the table, follows the seat's event stream and answers every offer (win
// when it can, else discard the drawn tile, pass on claims). It exits 0
// when the game ends, after printing the final scores; 1 on an error or
// when --timeout passes.
//
//   node dist/play.js --addr 127.0.0.1:7400 [--rules tonpuu|hanchan] [--timeout 300]

import { randomBytes, randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { type Action, ActionType, SeatNotice_Kind, type View } from "./gen/mahjong/authority/v1/game_pb.js";
import { RulePreset, TableService, type StreamEventsResponse } from "./gen/mahjong/authority/v1/table_service_pb.js";
import { choose } from "./choose.js";
import { failure, verdict } from "./errors.js";

type Tables = Client<typeof TableService>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * call runs an RPC, retrying it while the server says to (RATE_LIMITED
 * after the delay it gives, UNAVAILABLE with backoff) until deadline.
 * A call that is not idempotent (CreateTable, JoinTable: a lost answer may
 * hide a table created or a seat taken) is retried only after RATE_LIMITED,
 * a refusal that changed nothing; Act is idempotent through its request id.
 */
async function call<T>(
  what: string,
  deadline: number,
  f: () => Promise<T>,
  idempotent = true,
): Promise<T | undefined> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await f();
    } catch (err) {
      const fl = failure(err);
      const v = verdict(fl, attempt);
      const again = idempotent || fl.reason === "ERROR_REASON_RATE_LIMITED";
      if (v.kind === "retry" && again && Date.now() + v.waitMs < deadline) {
        stats.retries++;
        if (fl.reason === "ERROR_REASON_RATE_LIMITED") {
          stats.throttled++;
        }
        await sleep(v.waitMs);
        continue;
      }
      if (v.kind === "skip") {
        console.error(`${what}: refused (${fl.reason || fl.code}): ${fl.message}`);
        stats.refused++;
        return undefined;
      }
      throw new Error(`${what}: ${fl.reason || "code " + fl.code}: ${fl.message}`);
    }
  }
}

// How long an offer seen only in a snapshot waits for its event.
const standingWaitMs = 500;

const stats = { actions: 0, retries: 0, throttled: 0, refused: 0, reconnects: 0 };

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      addr: { type: "string", default: "127.0.0.1:7400" },
      rules: { type: "string", default: "tonpuu" },
      timeout: { type: "string", default: "300" },
      name: { type: "string", default: "ts-example" },
    },
  });
  const deadline = Date.now() + Number(values.timeout) * 1000;
  const rules = values.rules === "hanchan" ? RulePreset.TENHOU_HANCHAN : RulePreset.TENHOU_TONPUU;

  // The server speaks gRPC over HTTP/2 without TLS (h2c) on loopback.
  const transport = createGrpcTransport({ baseUrl: `http://${values.addr}` });
  const tables: Tables = createClient(TableService, transport);

  // A table of one player and three bots. An explicit claim dwell of 0 and
  // a short round pause keep the game short; a real client leaves them to
  // the server's defaults.
  // Wait for the server with a call that is safe to repeat: it may still
  // be starting (CI starts it just before this client).
  await call("ListTables", deadline, () => tables.listTables({ pageSize: 1 }));

  const created = await call("CreateTable", deadline, () =>
    tables.createTable({
      settings: {
        rules,
        fillWithBots: true,
        claimDwell: { seconds: 0n, nanos: 0 },
        roundPause: { seconds: 0n, nanos: 100_000_000 },
      },
    }),
    false,
  );
  if (!created?.table) {
    throw new Error("CreateTable was refused");
  }
  const tableId = created.table.tableId;
  const joined = await call("JoinTable", deadline, () =>
    tables.joinTable({ tableId, name: values.name, entropy: randomBytes(32) }),
    false,
  );
  if (!joined) {
    throw new Error("JoinTable was refused");
  }
  const { seat, seatToken } = joined;
  // A refusal (ALREADY_STARTED: a lost answer's first try started it) is
  // as good as a start.
  await call("StartTable", deadline, () => tables.startTable({ tableId, token: created.ownerToken }));
  console.error(`table ${tableId}: seat ${seat}`);

  let lastSeq = 0n; // the newest event (or snapshot) seen: last_seq and after_seq
  let actedAt = -1n; // lastSeq when we last acted: an offer at or before it is answered
  let scores: number[] | undefined;

  const act = async (action: Action) => {
    actedAt = lastSeq;
    // One request id per decision: a retry of it is applied at most once.
    const requestId = randomUUID();
    const res = await call(`Act ${ActionType[action.type]} ${action.tile}${action.tiles}`, deadline, () =>
      tables.act({ tableId, seatToken, lastSeq, requestId, action }),
    );
    if (res) {
      stats.actions++;
    }
  };

  // A snapshot's view.legal is the seat's standing offer, if it has one.
  // The server sends that offer again as the event right after the
  // snapshot; a server from before that change does not, so an offer seen
  // only in the snapshot is answered when nothing follows it at once.
  let standing: View | undefined;

  const handle = async (m: StreamEventsResponse) => {
    const item = m.item;
    if (item.case === "snapshot") {
      // The first message of a fresh stream: the seat's view as of seq.
      lastSeq = item.value.seq;
      const view = item.value.view;
      standing = view && view.legal.length > 0 ? view : undefined;
      return;
    }
    if (item.case !== "event") {
      return;
    }
    const ev = item.value;
    if (ev.seq > lastSeq) {
      lastSeq = ev.seq;
    }
    const body = ev.body;
    switch (body.case) {
      case "turnOffer":
      case "claimOffer":
        standing = undefined;
        // Each offer is answered once: an offer at or before the seq we
        // last acted at was answered already (from a snapshot).
        if (ev.seq > actedAt) {
          await act(choose(body.value.options, body.case === "claimOffer"));
        }
        break;
      case "won":
        console.error(`seat ${body.value.seat} won: ${body.value.han} han ${body.value.fu} fu, ${body.value.points} points`);
        break;
      case "roundEnded":
        console.error(`round over: scores ${body.value.scores.join(" ")}`);
        break;
      case "seatNotice":
        if (body.value.kind === SeatNotice_Kind.TIMED_OUT && body.value.seat === seat) {
          console.error("our seat timed out and was played automatically");
        }
        break;
      case "gameEnded":
        scores = body.value.scores;
        console.log(
          JSON.stringify({ table: tableId, seat, scores: body.value.scores, ranks: body.value.ranks, ...stats }),
        );
        break;
    }
  };

  // Follow the seat until the game's end; reopen a dropped stream after the
  // last event seen (after_seq), so that nothing is missed or repeated.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), Math.max(0, deadline - Date.now()));
  try {
    for (let attempt = 0; scores === undefined; attempt++) {
      try {
        const stream = tables.streamEvents({ tableId, seatToken, afterSeq: lastSeq }, { signal: abort.signal });
        const it = stream[Symbol.asyncIterator]();
        for (;;) {
          const next = it.next();
          if (standing) {
            const first = await Promise.race([next, sleep(standingWaitMs).then(() => undefined)]);
            if (first === undefined && standing) {
              const view = standing;
              standing = undefined;
              await act(choose(view.legal, view.legal.some((a) => a.type === ActionType.PASS)));
            }
          }
          const r = await next;
          if (r.done) {
            break;
          }
          attempt = 0;
          await handle(r.value);
        }
        if (scores === undefined) {
          throw new Error("the stream ended before the game did");
        }
      } catch (err) {
        if (abort.signal.aborted) {
          throw new Error(`the game did not end within ${values.timeout}s`);
        }
        const v = verdict(failure(err), attempt);
        if (v.kind !== "retry") {
          throw err;
        }
        stats.reconnects++;
        await sleep(v.waitMs);
      }
    }
  } finally {
    clearTimeout(timer);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`play: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  },
);
