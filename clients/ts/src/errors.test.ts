// Tests of the error decoding and the retry policy, on details encoded as
// the server encodes them (node --test).

import { test } from "node:test";
import assert from "node:assert/strict";
import { Code, ConnectError } from "@connectrpc/connect";
import { BinaryWriter } from "@bufbuild/protobuf/wire";
import { create } from "@bufbuild/protobuf";
import { decodeErrorInfo, decodeRetryInfo, failure, verdict } from "./errors.js";
import { choose } from "./choose.js";
import { ActionSchema, ActionType } from "./gen/mahjong/authority/v1/game_pb.js";

function errorInfo(reason: string, metadata: Record<string, string>): Uint8Array {
  const w = new BinaryWriter().tag(1, 2).string(reason).tag(2, 2).string("authority.mahjong");
  for (const [k, v] of Object.entries(metadata)) {
    w.tag(3, 2).fork().tag(1, 2).string(k).tag(2, 2).string(v).join();
  }
  return w.finish();
}

function retryInfo(seconds: number, nanos: number): Uint8Array {
  return new BinaryWriter().tag(1, 2).fork().tag(1, 0).int64(seconds).tag(2, 0).int32(nanos).join().finish();
}

test("decodeErrorInfo reads reason, domain and metadata", () => {
  const got = decodeErrorInfo(errorInfo("ERROR_REASON_STALE_SEQ", { newest_seq: "42", x: "y" }));
  assert.deepEqual(got, { reason: "ERROR_REASON_STALE_SEQ", domain: "authority.mahjong", metadata: { newest_seq: "42", x: "y" } });
});

test("decodeRetryInfo gives milliseconds", () => {
  assert.equal(decodeRetryInfo(retryInfo(1, 250_000_000)), 1250);
  assert.equal(decodeRetryInfo(retryInfo(0, 0)), 0);
});

test("RATE_LIMITED waits what RetryInfo says, then retry_after_ms, then backs off", () => {
  // As connect decodes them from the grpc-status-details-bin trailer.
  const err = new ConnectError("rate limited", Code.ResourceExhausted);
  err.details.push(
    { type: "google.rpc.ErrorInfo", value: errorInfo("ERROR_REASON_RATE_LIMITED", { retry_after_ms: "300" }) },
    { type: "google.rpc.RetryInfo", value: retryInfo(0, 120_000_000) },
  );
  const f = failure(err);
  assert.equal(f.reason, "ERROR_REASON_RATE_LIMITED");
  assert.deepEqual(verdict(f, 0), { kind: "retry", waitMs: 120 });
  assert.deepEqual(verdict({ ...f, retryDelayMs: undefined }, 0), { kind: "retry", waitMs: 300 });
  assert.deepEqual(verdict({ ...f, retryDelayMs: undefined, metadata: {} }, 2), { kind: "retry", waitMs: 200 });
});

test("verdicts by code", () => {
  const f = (code: Code, reason = "") => ({ code, reason, metadata: {}, message: "" });
  assert.equal(verdict(f(Code.Unavailable), 0).kind, "retry");
  assert.equal(verdict(f(Code.Aborted, "ERROR_REASON_STALE_SEQ"), 0).kind, "skip");
  assert.equal(verdict(f(Code.FailedPrecondition, "ERROR_REASON_NOT_YOUR_TURN"), 0).kind, "skip");
  assert.equal(verdict(f(Code.ResourceExhausted, "ERROR_REASON_TOO_MANY_STREAMS"), 0).kind, "fatal");
  assert.equal(verdict(f(Code.PermissionDenied, "ERROR_REASON_WRONG_TOKEN"), 0).kind, "fatal");
});

test("choose wins, discards the drawn tile, passes on claims", () => {
  const a = (type: ActionType, tile = "", tsumogiri = false) => create(ActionSchema, { type, tile, tsumogiri });
  const turn = [a(ActionType.DISCARD, "1m"), a(ActionType.DISCARD, "7z", true), a(ActionType.RIICHI, "7z", true)];
  assert.equal(choose(turn, false).tile, "7z");
  assert.equal(choose([...turn, a(ActionType.TSUMO)], false).type, ActionType.TSUMO);
  assert.equal(choose([a(ActionType.PON), a(ActionType.PASS)], true).type, ActionType.PASS);
  assert.equal(choose([a(ActionType.PON), a(ActionType.RON), a(ActionType.PASS)], true).type, ActionType.RON);
});
