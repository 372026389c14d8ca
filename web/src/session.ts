// What every game's table page shares: the session kept in sessionStorage
// (table id, seat, seat token, the game's model with the seq it has seen),
// and the loop that follows a table's stream and resumes it after a reload
// or a dropped connection.

import { Code, ConnectError } from "@connectrpc/connect";
import { describe, sleep } from "./api.js";

/** What sessionStorage keeps for the table this tab plays or watches. */
export interface Session {
  /** the game: absent for mahjong (sessions saved before there were others), "ddz" for Dou Dizhu */
  game?: "ddz";
  tableId: string;
  seat: number; // -1: spectating
  token: string;
  ownerToken?: string;
  /** the game's model, plain data with its seq as text */
  model?: unknown;
}

const sessionKey = "authority.session";

export function loadSession(): Session | undefined {
  try {
    const s = sessionStorage.getItem(sessionKey);
    return s ? (JSON.parse(s) as Session) : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(s: Session | undefined) {
  if (s) sessionStorage.setItem(sessionKey, JSON.stringify(s));
  else sessionStorage.removeItem(sessionKey);
}

/** A table page as resume drives it. */
export interface Resumable {
  /** readTable reads the table; true while it waits for its players. */
  readTable(): Promise<boolean>;
  /** waiting draws the waiting room. */
  waiting(): void;
  /** follow reads the stream after the model's seq until it ends; connected is called on every message. */
  follow(connected: () => void): Promise<void>;
  /** over: the game is over, nothing more will come. */
  over(): boolean;
  /** restart forgets the model: the next stream starts from a snapshot. */
  restart(): void;
  /** lost shows that the connection dropped and is being retried. */
  lost(message: string): void;
  /** gone leaves for the lobby: the table or the seat is not there. */
  gone(message: string): void;
}

/**
 * resume follows a table until its game ends: it waits while the table
 * waits for players, then reads the stream, and after a drop resumes it
 * after the last seq seen, with backoff. NOT_FOUND and a wrong token go
 * back to the lobby; a seq the server does not know starts again from a
 * snapshot.
 */
export async function resume(signal: AbortSignal, r: Resumable): Promise<void> {
  for (let attempt = 0; !signal.aborted; attempt++) {
    try {
      if (await r.readTable()) {
        r.waiting();
        await sleep(1000);
        attempt = -1;
        continue;
      }
      await r.follow(() => (attempt = 0));
      if (r.over()) return;
    } catch (err) {
      if (signal.aborted) return;
      const ce = ConnectError.from(err);
      if (ce.code === Code.NotFound || ce.code === Code.PermissionDenied || ce.code === Code.Unauthenticated) {
        r.gone(describe(err));
        return;
      }
      if (ce.code === Code.OutOfRange || ce.code === Code.InvalidArgument) r.restart();
      r.lost(`connection lost (${describe(err)}); reconnecting`);
    }
    if (r.over()) return;
    await sleep(Math.min(5000, 250 * 2 ** Math.min(attempt, 5)));
  }
}

/** A standing offer: one a snapshot listed, with its deadline from the snapshot's time_left. */
export interface Standing {
  deadline: number;
  /** The seq of the event that sends the same offer again, right after the snapshot. */
  standingSeq?: number;
}

/**
 * offerDeadline is when an offer event's time runs out: the full time from
 * now, or, for the standing offer a snapshot listed (sent again as the
 * next event), the snapshot's deadline.
 */
export function offerDeadline(standing: Standing | undefined, seq: bigint, fullMs: number): number {
  return standing?.standingSeq === Number(seq) ? standing.deadline : Date.now() + fullMs;
}
