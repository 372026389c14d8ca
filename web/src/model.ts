// The table as the page shows it: a seat's view (or a spectator's), kept
// up to date from the snapshot and then every event, as docs/protocol.md
// says a client does. Plain data, so that it survives a reload in
// sessionStorage and the stream resumes after its seq.
//
// This is riichi's state. Another rule set adds its own part beside it
// (see RuleSetState) and its own reducer cases: Sichuan's void suits,
// the classical game's flowers and fishing, Dou Dizhu's cards.

import type { Action, Meld, View, Won } from "../../clients/ts/src/gen/mahjong/authority/v1/game_pb.js";
import { ActionType, MeldType, RoundEndKind } from "../../clients/ts/src/gen/mahjong/authority/v1/game_pb.js";
import type { Event } from "../../clients/ts/src/gen/mahjong/authority/v1/table_service_pb.js";
import { parse, same, sortTiles } from "./tiles.js";

export interface PondTile {
  tile: string;
  riichi: boolean;
  called: boolean;
  tsumogiri: boolean;
}

export interface MeldState {
  type: MeldType;
  tiles: string[];
  from: number;
  called: string;
  added: string;
}

export interface SeatState {
  name: string;
  bot: boolean;
  pond: PondTile[];
  melds: MeldState[];
  handSize: number;
  riichi: boolean;
  score: number;
}

/** An offer the seat may answer, with when it runs out (ms since epoch). */
export interface Offer {
  claim: boolean;
  options: ActionPlain[];
  deadline: number;
}

/** Action as plain data. */
export interface ActionPlain {
  type: ActionType;
  tile: string;
  tiles: string;
  tsumogiri: boolean;
}

export interface WinState {
  seat: number;
  from: number;
  tsumo: boolean;
  hand: string[];
  melds: MeldState[];
  winTile: string;
  ura: string[];
  han: number;
  fu: number;
  yakuman: number;
  yaku: { name: string; han: number }[];
  limit: string;
  points: number;
  deltas: number[];
}

export interface RoundResult {
  kind: RoundEndKind;
  deltas: number[];
  scores: number[];
  tenpai: boolean[];
  hands: string[];
  wins: WinState[];
}

/** Room for the state of rule sets other than riichi, as they land. */
export interface RuleSetState {
  /** Sichuan: each seat's void suit ("m", "p", "s"), once chosen. */
  voids?: string[];
  /** The classical game: each seat's flowers. */
  flowers?: string[][];
}

export interface TableModel {
  /** The viewer's seat; -1 for a spectator. */
  seat: number;
  seq: string; // bigint as text: JSON has no bigints
  roundWind: number; // 1 east .. 4 north
  number: number;
  dealer: number;
  honba: number;
  sticks: number;
  dora: string[];
  wallLeft: number;
  toAct: number;
  hand: string[];
  drawn: string;
  seats: SeatState[];
  offer?: Offer;
  /** The wins of the round that just ended, shown until the next round. */
  wins: WinState[];
  result?: RoundResult;
  final?: { scores: number[]; ranks: number[] };
  /** Shanten and waits of the viewer's hand (the Fishing event). */
  shanten?: number;
  waits?: string;
  furiten?: boolean;
  started: boolean;
  other: RuleSetState;
}

export function emptyModel(seat: number): TableModel {
  return {
    seat,
    seq: "0",
    roundWind: 1,
    number: 1,
    dealer: 0,
    honba: 0,
    sticks: 0,
    dora: [],
    wallLeft: 0,
    toAct: 0,
    hand: [],
    drawn: "",
    seats: [0, 1, 2, 3].map(() => ({ name: "", bot: false, pond: [], melds: [], handSize: 0, riichi: false, score: 0 })),
    wins: [],
    started: false,
    other: {},
  };
}

export function plainAction(a: Action): ActionPlain {
  return { type: a.type, tile: a.tile, tiles: a.tiles, tsumogiri: a.tsumogiri };
}

function meldState(m: Meld | undefined): MeldState {
  return {
    type: m?.type ?? MeldType.UNSPECIFIED,
    tiles: parse(m?.tiles ?? ""),
    from: m?.fromSeat ?? 0,
    called: m?.calledTile ?? "",
    added: m?.addedTile ?? "",
  };
}

/** fromView makes the model from a snapshot's view. */
export function fromView(v: View, seq: bigint, names: SeatState[] | undefined, timers: Timers): TableModel {
  const m = emptyModel(v.seat);
  m.seq = seq.toString();
  m.roundWind = v.roundWind;
  m.number = v.number;
  m.dealer = v.dealer;
  m.honba = v.honba;
  m.sticks = v.riichiSticks;
  m.dora = parse(v.dora);
  m.wallLeft = v.wallLeft;
  m.toAct = v.toAct;
  m.hand = sortTiles(parse(v.hand));
  m.drawn = v.drawn;
  m.started = true;
  v.seats.forEach((s, i) => {
    m.seats[i] = {
      name: names?.[i]?.name ?? "",
      bot: names?.[i]?.bot ?? false,
      pond: s.discards.map((d) => ({ tile: d.tile, riichi: d.riichi, called: d.called, tsumogiri: d.tsumogiri })),
      melds: s.melds.map(meldState),
      handSize: s.handSize,
      riichi: s.riichi,
      score: s.score,
    };
  });
  if (v.legal.length > 0) {
    // The standing offer; the server sends it again as the next event.
    const claim = v.legal.some((a) => a.type === ActionType.PASS);
    m.offer = { claim, options: v.legal.map(plainAction), deadline: Date.now() + (claim ? timers.claimMs : timers.turnMs) };
  }
  return m;
}

export interface Timers {
  turnMs: number;
  claimMs: number;
}

function removeTile(hand: string[], t: string): string[] {
  const i = hand.indexOf(t);
  if (i >= 0) return [...hand.slice(0, i), ...hand.slice(i + 1)];
  const j = hand.findIndex((h) => same(h, t));
  return j >= 0 ? [...hand.slice(0, j), ...hand.slice(j + 1)] : hand;
}

/** apply folds one event into the model (a new model; m is not changed). */
export function apply(prev: TableModel, ev: Event, timers: Timers): TableModel {
  const m: TableModel = structuredClone(prev);
  m.seq = ev.seq.toString();
  const b = ev.body;
  const me = m.seat;
  switch (b.case) {
    case "roundStarted": {
      const r = b.value;
      m.started = true;
      m.roundWind = r.roundWind;
      m.number = r.number;
      m.dealer = r.dealer;
      m.honba = r.honba;
      m.sticks = r.riichiSticks;
      m.dora = parse(r.dora);
      m.wallLeft = r.wallLeft;
      m.toAct = r.dealer;
      m.hand = [];
      m.drawn = "";
      m.wins = [];
      m.result = undefined;
      m.offer = undefined;
      m.shanten = undefined;
      m.waits = undefined;
      m.seats.forEach((s, i) => {
        s.pond = [];
        s.melds = [];
        s.riichi = false;
        s.handSize = 13;
        s.score = r.scores[i] ?? s.score;
      });
      break;
    }
    case "dealt":
      if (b.value.seat === me) m.hand = sortTiles(parse(b.value.hand));
      m.seats[b.value.seat].handSize = 13;
      break;
    case "drew": {
      const d = b.value;
      m.wallLeft = d.wallLeft;
      m.toAct = d.seat;
      m.seats[d.seat].handSize++;
      if (d.seat === me) m.drawn = d.tile;
      break;
    }
    case "discarded": {
      const d = b.value;
      const s = m.seats[d.seat];
      s.pond.push({ tile: d.tile, riichi: d.riichi, called: false, tsumogiri: d.tsumogiri });
      s.handSize--;
      if (d.seat === me) {
        if (d.tsumogiri && m.drawn) {
          m.drawn = "";
        } else {
          m.hand = removeTile(m.hand, d.tile);
          if (m.drawn) m.hand = sortTiles([...m.hand, m.drawn]);
          m.drawn = "";
        }
        m.offer = undefined;
      }
      break;
    }
    case "riichiAccepted": {
      const r = b.value;
      m.seats[r.seat].riichi = true;
      r.scores.forEach((x, i) => (m.seats[i].score = x));
      m.sticks = r.riichiSticks;
      break;
    }
    case "called": {
      const c = b.value;
      const meld = meldState(c.meld);
      const s = m.seats[c.seat];
      m.toAct = c.seat;
      c.scores.forEach((x, i) => (m.seats[i].score = x));
      if (meld.type === MeldType.ADDED_KAN) {
        const k = s.melds.findIndex((x) => x.type === MeldType.PON && same(x.tiles[0], meld.added || meld.tiles[0]));
        if (k >= 0) s.melds[k] = meld;
        else s.melds.push(meld);
        s.handSize--;
        if (c.seat === me) {
          m.hand = removeTile(sortTiles(m.drawn ? [...m.hand, m.drawn] : m.hand), meld.added);
          m.drawn = "";
        }
      } else if (meld.type === MeldType.CLOSED_KAN) {
        s.melds.push(meld);
        s.handSize -= 4;
        if (c.seat === me) {
          let h = m.drawn ? [...m.hand, m.drawn] : m.hand;
          for (const t of meld.tiles) h = removeTile(h, t);
          m.hand = sortTiles(h);
          m.drawn = "";
        }
      } else {
        s.melds.push(meld);
        // The called tile leaves its discarder's pond (marked, not removed).
        const from = m.seats[meld.from].pond;
        if (from.length > 0) from[from.length - 1].called = true;
        s.handSize -= meld.tiles.length - 1;
        if (c.seat === me) {
          let h = m.hand;
          let calledLeft = true;
          for (const t of meld.tiles) {
            if (calledLeft && t === meld.called) {
              calledLeft = false;
              continue;
            }
            h = removeTile(h, t);
          }
          m.hand = h;
        }
      }
      if (c.seat === me) m.offer = undefined;
      break;
    }
    case "doraRevealed":
      m.dora.push(...parse(b.value.indicator));
      break;
    case "fishing":
      if (b.value.seat === me) {
        m.shanten = b.value.shanten;
        m.waits = b.value.waits;
        m.furiten = b.value.furiten;
      }
      break;
    case "claimOffer":
      if (b.value.seat === me) {
        m.offer = { claim: true, options: b.value.options.map(plainAction), deadline: Date.now() + timers.claimMs };
      }
      break;
    case "turnOffer":
      if (b.value.seat === me) {
        m.toAct = me;
        m.offer = { claim: false, options: b.value.options.map(plainAction), deadline: Date.now() + timers.turnMs };
      }
      break;
    case "won":
      m.wins.push(winState(b.value));
      m.offer = undefined;
      break;
    case "roundEnded": {
      const r = b.value;
      r.scores.forEach((x, i) => (m.seats[i].score = x));
      m.result = { kind: r.kind, deltas: [...r.deltas], scores: [...r.scores], tenpai: [...r.tenpai], hands: [...r.hands], wins: m.wins };
      m.offer = undefined;
      break;
    }
    case "gameEnded":
      m.final = { scores: [...b.value.scores], ranks: [...b.value.ranks] };
      m.offer = undefined;
      break;
    case "seatNotice": {
      const n = b.value;
      if (n.name) m.seats[n.seat].name = n.name;
      // KIND_BOT_TOOK_OVER = 3, KIND_PLAYER_RETURNED = 4
      if (n.kind === 3) m.seats[n.seat].bot = true;
      if (n.kind === 4) m.seats[n.seat].bot = false;
      break;
    }
    default:
      // An event of another rule set's: nothing of riichi's changes.
      break;
  }
  return m;
}

function winState(w: Won): WinState {
  return {
    seat: w.seat,
    from: w.fromSeat,
    tsumo: w.tsumo,
    hand: sortTiles(parse(w.hand)),
    melds: w.melds.map(meldState),
    winTile: w.winTile,
    ura: parse(w.ura),
    han: w.han,
    fu: w.fu,
    yakuman: w.yakuman,
    yaku: w.yaku.map((y) => ({ name: y.name, han: y.han })),
    limit: w.limit,
    points: w.points,
    deltas: [...w.deltas],
  };
}
