// A Dou Dizhu table as the page shows it: a seat's view (or a spectator's)
// from the snapshot, then folded event by event as docs/doudizhu.md says a
// client does (the Go client's tracker does the same). Plain data, saved to
// sessionStorage after every event so that a reload resumes after its seq.
// It holds only what the server sent this seat: its own cards, the kitty
// once shown, every play and count, the hands at a deal's end.

import {
  ActionType,
  Phase,
  type DealStarted,
  type Event,
  type Offer,
  type Play,
  type View,
} from "../../../clients/ts/src/gen/doudizhu/authority/v1/doudizhu_pb.js";
import { counts, cardsOf, sortCards } from "./judge.js";
import { offerDeadline } from "../session.js";

export interface PlayPlain {
  type: number; // PlayType
  rank: string;
  length: number;
  cards: string;
}

/** The seat's offer, with when it runs out (ms since the epoch). */
export interface OfferPlain {
  bids: number[];
  call: boolean;
  rob: boolean;
  pass: boolean;
  play: boolean;
  mustLead: boolean;
  toBeat?: PlayPlain;
  deadline: number;
  /**
   * standingSeq: for the offer a snapshot listed, its deadline from the
   * snapshot's time_left, the seq of the event that sends it again (the
   * next one), which keeps that deadline.
   */
  standingSeq?: number;
}

export interface DealResult {
  winner: number;
  landlord: number;
  landlordWon: boolean;
  base: number;
  bombs: number;
  doublings: number;
  spring: boolean;
  antiSpring: boolean;
  stake: number;
  deltas: number[];
  scores: number[];
  hands: string[];
  matchOver: boolean;
}

export interface SeatName {
  name: string;
  bot: boolean;
}

export interface DdzModel {
  seat: number; // -1: a spectator
  seq: string;
  started: boolean;
  phase: Phase;
  index: number;
  number: number; // the scored deal, from 1
  thrownIn: number; // deals thrown in since the last scored one began
  scores: number[];
  hand: string; // sorted, low to high
  left: number[];
  first: number;
  toAct: number;
  base: number;
  hasBid: boolean;
  bidder: number;
  robs: number;
  /** what each seat said in this deal's bidding: "", "pass", "1".."3", "call", "rob" */
  said: string[];
  hasLandlord: boolean;
  landlord: number;
  kitty: string;
  last?: PlayPlain;
  lastBy: number;
  mustLead: boolean;
  bombs: number;
  played: string;
  /** each seat's move in the current trick: its cards, "pass", or "" */
  trick: string[];
  offer?: OfferPlain;
  result?: DealResult;
  /** the last deal's result, once the next deal has begun */
  lastDeal?: DealResult;
  final?: { scores: number[]; ranks: number[] };
  names: SeatName[];
}

export function emptyModel(seat: number): DdzModel {
  return {
    seat,
    seq: "0",
    started: false,
    phase: Phase.BETWEEN_DEALS,
    index: -1,
    number: 0,
    thrownIn: 0,
    scores: [0, 0, 0],
    hand: "",
    left: [0, 0, 0],
    first: 0,
    toAct: 0,
    base: 0,
    hasBid: false,
    bidder: 0,
    robs: 0,
    said: ["", "", ""],
    hasLandlord: false,
    landlord: 0,
    kitty: "",
    lastBy: 0,
    mustLead: false,
    bombs: 0,
    played: "",
    trick: ["", "", ""],
    names: [0, 1, 2].map(() => ({ name: "", bot: false })),
  };
}

export function playPlain(p: Play): PlayPlain {
  return { type: p.type, rank: p.rank, length: p.length, cards: p.cards };
}

function offerPlain(o: Offer, turnMs: number, standing?: OfferPlain, seq?: bigint): OfferPlain {
  return {
    bids: [...o.bids],
    call: o.call,
    rob: o.rob,
    pass: o.pass,
    play: o.play,
    mustLead: o.mustLead,
    toBeat: o.toBeat ? playPlain(o.toBeat) : undefined,
    deadline: seq === undefined ? Date.now() + turnMs : offerDeadline(standing, seq, turnMs),
  };
}

const n3 = (v: bigint[] | number[]) => [0, 1, 2].map((i) => Number(v[i] ?? 0));

/** fromView is the model of a snapshot. */
export function fromView(v: View, seq: bigint, names: SeatName[], turnMs: number, timeLeftMs?: number): DdzModel {
  const m = emptyModel(v.seat);
  m.seq = String(seq);
  m.names = names;
  m.started = v.phase !== Phase.BETWEEN_DEALS || v.index >= 0;
  m.phase = v.phase;
  m.index = v.index;
  m.number = v.number;
  m.scores = n3(v.scores);
  m.hand = sortCards(v.hand);
  m.left = n3(v.left);
  m.first = v.first;
  m.toAct = v.toAct;
  m.base = v.base;
  m.hasBid = v.hasBid;
  m.bidder = v.bidder;
  m.robs = v.robs;
  m.said = [0, 1, 2].map((i) => {
    const b = v.bids[i] ?? -1;
    return b < 0 ? "" : b === 0 ? "pass" : String(b);
  });
  if (v.hasBid && m.said[v.bidder] === "") m.said[v.bidder] = v.robs > 0 ? "rob" : "call";
  m.hasLandlord = v.hasLandlord;
  m.landlord = v.landlord;
  m.kitty = sortCards(v.kitty);
  if (v.last && !v.mustLead) {
    m.last = playPlain(v.last);
    m.lastBy = v.lastBy;
    m.trick[v.lastBy] = m.last.cards;
  }
  m.mustLead = v.mustLead;
  m.bombs = v.bombs;
  m.played = sortCards(v.played);
  if (v.offer && v.offer.seat === v.seat) {
    m.offer = offerPlain(v.offer, timeLeftMs ?? turnMs);
    if (timeLeftMs !== undefined) m.offer.standingSeq = Number(seq) + 1;
  }
  if (v.phase === Phase.MATCH_OVER) {
    // A snapshot of a finished match: the ranks are the scores' order.
    m.final = { scores: m.scores, ranks: m.scores.map((x) => 1 + m.scores.filter((y) => y > x).length) };
  }
  return m;
}

const next = (s: number) => (s + 1) % 3;

function dealStarted(m: DdzModel, d: DealStarted): DdzModel {
  m.started = true;
  m.phase = Phase.BIDDING;
  m.index = d.index;
  m.number = d.number;
  m.first = d.first;
  m.toAct = d.first;
  m.scores = n3(d.scores);
  m.left = [17, 17, 17];
  return m;
}

/** apply folds one event into the model (a copy: the old model is left as it was). */
export function apply(prev: DdzModel, ev: Event, turnMs: number): DdzModel {
  const m: DdzModel = structuredClone(prev);
  m.seq = String(ev.seq);
  const b = ev.body;
  switch (b.case) {
    case "dealStarted": {
      const d = b.value;
      // A new deal: nothing of the last one stays but the names.
      const fresh = emptyModel(m.seat);
      fresh.seq = m.seq;
      fresh.names = m.names;
      fresh.lastDeal = m.result ?? m.lastDeal;
      fresh.thrownIn = d.number === m.number && m.index >= 0 ? m.thrownIn + 1 : 0;
      return dealStarted(fresh, d);
    }
    case "dealt":

      if (b.value.seat === m.seat) m.hand = sortCards(b.value.hand);
      break;
    case "bidMade": {
      const x = b.value;
      const s = x.seat;
      switch (x.type) {
        case ActionType.PASS:
          m.said[s] = "pass";
          break;
        case ActionType.BID:
          m.said[s] = String(x.bid);
          m.hasBid = true;
          m.bidder = s;
          break;
        case ActionType.CALL:
          m.said[s] = "call";
          m.hasBid = true;
          m.bidder = s;
          break;
        case ActionType.ROB:
          m.said[s] = "rob";
          m.hasBid = true;
          m.bidder = s;
          m.robs++;
          break;
      }
      m.base = x.base;
      m.toAct = next(s);
      m.offer = undefined;
      break;
    }
    case "thrownIn":
      m.phase = Phase.BETWEEN_DEALS;
      m.offer = undefined;
      break;
    case "landlordChosen": {
      const l = b.value;
      m.phase = Phase.PLAYING;
      m.hasLandlord = true;
      m.landlord = l.seat;
      m.kitty = sortCards(l.kitty);
      m.base = l.base;
      m.left[l.seat] += l.kitty.length;
      if (l.seat === m.seat) m.hand = sortCards(m.hand + l.kitty);
      m.toAct = l.seat;
      m.mustLead = true;
      m.last = undefined;
      m.trick = ["", "", ""];
      m.offer = undefined;
      break;
    }
    case "played": {
      const p = b.value;
      const play = playPlain(p.play!);
      if (p.seat === m.seat) {
        const h = counts(m.hand);
        for (const c of play.cards) h["3456789TJQKA2XD".indexOf(c)]--;
        m.hand = cardsOf(h.map((k) => Math.max(0, k)));
      }
      // A new trick: the other seats' moves of the last one are cleared.
      if (m.mustLead) m.trick = ["", "", ""];
      m.last = play;
      m.lastBy = p.seat;
      m.mustLead = false;
      m.left[p.seat] = p.left;
      m.bombs = p.bombs;
      m.played = sortCards(m.played + play.cards);
      m.trick[p.seat] = play.cards;
      m.toAct = next(p.seat);
      m.offer = undefined;
      break;
    }
    case "passed": {
      const p = b.value;
      m.trick[p.seat] = "pass";
      m.toAct = next(p.seat);
      if (p.lead) {
        m.last = undefined;
        m.mustLead = true;
        m.toAct = m.lastBy;
      }
      m.offer = undefined;
      break;
    }
    case "dealEnded": {
      const d = b.value;
      m.result = {
        winner: d.winner,
        landlord: d.landlord,
        landlordWon: d.landlordWon,
        base: d.base,
        bombs: d.bombs,
        doublings: d.doublings,
        spring: d.spring,
        antiSpring: d.antiSpring,
        stake: Number(d.stake),
        deltas: n3(d.deltas),
        scores: n3(d.scores),
        hands: [0, 1, 2].map((i) => sortCards(d.hands[i] ?? "")),
        matchOver: d.matchOver,
      };
      m.scores = n3(d.scores);
      m.phase = d.matchOver ? Phase.MATCH_OVER : Phase.BETWEEN_DEALS;
      m.offer = undefined;
      break;
    }
    case "matchEnded":
      m.phase = Phase.MATCH_OVER;
      m.scores = n3(b.value.scores);
      m.final = { scores: n3(b.value.scores), ranks: n3(b.value.ranks) };
      m.offer = undefined;
      break;
    case "offer": {
      const o = b.value;
      m.toAct = o.seat;
      if (o.seat === m.seat) {
        m.offer = offerPlain(o, turnMs, prev.offer, ev.seq);
        if (m.phase === Phase.PLAYING) m.mustLead = o.mustLead;
      }
      break;
    }
    case "seatNotice": {
      const n = b.value;
      const s = m.names[n.seat];
      if (!s) break;
      if (n.name) s.name = n.name;
      // KIND_BOT_TOOK_OVER = 3, KIND_PLAYER_RETURNED = 4
      if (n.kind === 3) s.bot = true;
      if (n.kind === 4) s.bot = false;
      break;
    }
  }
  return m;
}

/** stake is the deal's stake so far: the base doubled by every bomb and rocket, up to the cap (0: none). */
export function stake(m: DdzModel, bombCap: number): number {
  const d = bombCap > 0 ? Math.min(m.bombs, bombCap) : m.bombs;
  return m.base * 2 ** d;
}
