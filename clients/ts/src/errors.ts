// What a client needs from an error of the authority: the gRPC code, the
// google.rpc.ErrorInfo reason and metadata, and the google.rpc.RetryInfo
// delay. The two details are decoded here from their wire form (a few
// fields each), so the example needs no generated google.rpc code.

import { Code, ConnectError } from "@connectrpc/connect";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";

export const errorDomain = "authority.mahjong";

/** The parts of an error a client acts on. */
export interface Failure {
  code: Code;
  /** The ErrorInfo reason as on the wire ("ERROR_REASON_RATE_LIMITED"), or "". */
  reason: string;
  /** ErrorInfo.metadata (for example newest_seq, retry_after_ms). */
  metadata: Record<string, string>;
  /** RetryInfo.retry_delay in milliseconds, when the server sent one. */
  retryDelayMs?: number;
  message: string;
}

/** failure reads an error thrown by a call. */
export function failure(err: unknown): Failure {
  const ce = ConnectError.from(err);
  const f: Failure = { code: ce.code, reason: "", metadata: {}, message: ce.rawMessage };
  for (const d of ce.details) {
    if (!("type" in d) || !(d.value instanceof Uint8Array)) {
      continue;
    }
    if (d.type === "google.rpc.ErrorInfo") {
      const info = decodeErrorInfo(d.value);
      if (info.domain === errorDomain || f.reason === "") {
        f.reason = info.reason;
        f.metadata = info.metadata;
      }
    } else if (d.type === "google.rpc.RetryInfo") {
      f.retryDelayMs = decodeRetryInfo(d.value);
    }
  }
  return f;
}

/** decodeErrorInfo decodes google.rpc.ErrorInfo {reason = 1; domain = 2; map<string,string> metadata = 3}. */
export function decodeErrorInfo(b: Uint8Array): { reason: string; domain: string; metadata: Record<string, string> } {
  const r = new BinaryReader(b);
  const out = { reason: "", domain: "", metadata: {} as Record<string, string> };
  while (r.pos < r.len) {
    const [field, wt] = r.tag();
    if (field === 1 && wt === WireType.LengthDelimited) {
      out.reason = r.string();
    } else if (field === 2 && wt === WireType.LengthDelimited) {
      out.domain = r.string();
    } else if (field === 3 && wt === WireType.LengthDelimited) {
      const e = new BinaryReader(r.bytes());
      let key = "";
      let value = "";
      while (e.pos < e.len) {
        const [f, w] = e.tag();
        if (f === 1 && w === WireType.LengthDelimited) {
          key = e.string();
        } else if (f === 2 && w === WireType.LengthDelimited) {
          value = e.string();
        } else {
          e.skip(w, f);
        }
      }
      out.metadata[key] = value;
    } else {
      r.skip(wt, field);
    }
  }
  return out;
}

/**
 * decodeRetryInfo decodes google.rpc.RetryInfo {google.protobuf.Duration
 * retry_delay = 1} to milliseconds (Duration {int64 seconds = 1; int32 nanos = 2}).
 */
export function decodeRetryInfo(b: Uint8Array): number {
  const r = new BinaryReader(b);
  let ms = 0;
  while (r.pos < r.len) {
    const [field, wt] = r.tag();
    if (field !== 1 || wt !== WireType.LengthDelimited) {
      r.skip(wt, field);
      continue;
    }
    const d = new BinaryReader(r.bytes());
    let seconds = 0;
    let nanos = 0;
    while (d.pos < d.len) {
      const [f, w] = d.tag();
      if (f === 1 && w === WireType.Varint) {
        seconds = Number(d.int64());
      } else if (f === 2 && w === WireType.Varint) {
        nanos = d.int32();
      } else {
        d.skip(w, f);
      }
    }
    ms = seconds * 1000 + nanos / 1e6;
  }
  return ms;
}

/** What to do about a failed call. */
export type Verdict =
  /** Send the same request again (same request id) after waitMs. */
  | { kind: "retry"; waitMs: number }
  /** The action was refused and changed nothing: wait for the next offer. */
  | { kind: "skip" }
  /** Nothing to do about it. */
  | { kind: "fatal" };

/**
 * verdict is the retry policy of the protocol guide (docs/protocol.md):
 * RATE_LIMITED waits the server's RetryInfo delay (or retry_after_ms, or a
 * backoff); UNAVAILABLE (a stopping server, a full disk, no connection)
 * retries with backoff and the same request id; a stale view or an action
 * the table no longer wants is dropped, since a newer offer follows.
 * attempt counts from 0.
 */
export function verdict(f: Failure, attempt: number): Verdict {
  const backoff = Math.min(2000, 50 * 2 ** attempt);
  switch (f.code) {
    case Code.ResourceExhausted:
      if (f.reason !== "ERROR_REASON_RATE_LIMITED") {
        return { kind: "fatal" };
      }
      if (f.retryDelayMs !== undefined) {
        return { kind: "retry", waitMs: f.retryDelayMs };
      }
      if (f.metadata["retry_after_ms"] !== undefined) {
        return { kind: "retry", waitMs: Number(f.metadata["retry_after_ms"]) };
      }
      return { kind: "retry", waitMs: backoff };
    case Code.Unavailable:
    case Code.DeadlineExceeded:
      return { kind: "retry", waitMs: backoff };
    case Code.Aborted: // STALE_SEQ: events arrived since the offer
    case Code.FailedPrecondition: // NOT_YOUR_TURN, CLAIM_WINDOW_CLOSED, ILLEGAL_ACTION, ...
      return { kind: "skip" };
    default:
      return { kind: "fatal" };
  }
}
