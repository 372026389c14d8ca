// The API from the page: the Connect protocol (binary) over fetch, on the
// page's own origin, so the server needs no CORS for its own page.

import { createClient, type Client } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { TableService } from "../../clients/ts/src/gen/mahjong/authority/v1/table_service_pb.js";
import { failure, verdict } from "../../clients/ts/src/errors.js";

export type Tables = Client<typeof TableService>;

export const tables: Tables = createClient(
  TableService,
  createConnectTransport({ baseUrl: location.origin, useBinaryFormat: true }),
);

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** requestId is a fresh id for Act (crypto.randomUUID needs a secure context). */
/** durationMs is a protobuf Duration in milliseconds; undefined when unset. */
export function durationMs(d: { seconds: bigint; nanos: number } | undefined): number | undefined {
  return d ? Number(d.seconds) * 1000 + d.nanos / 1e6 : undefined;
}

export function requestId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** describe is an error as a person reads it: the reason, then the message. */
export function describe(err: unknown): string {
  const f = failure(err);
  return f.reason ? `${f.reason.replace(/^ERROR_REASON_/, "").toLowerCase().replaceAll("_", " ")}: ${f.message}` : f.message;
}

/**
 * retrying runs a call again while the server says to (RATE_LIMITED after
 * its delay, UNAVAILABLE with backoff), at most a few times. Only for
 * calls that are safe to repeat (Act is, through its request id).
 */
export async function retrying<T>(f: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await f();
    } catch (err) {
      const v = verdict(failure(err), attempt);
      if (v.kind !== "retry" || attempt >= 5) throw err;
      await sleep(v.waitMs);
    }
  }
}
