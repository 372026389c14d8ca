// The table as the page shows it: a seat's view (or a spectator's), kept
// up to date from the snapshot and then every event, as docs/protocol.md
// says a client does. Plain data, so that it survives a reload in
// sessionStorage and the stream resumes after its seq.
//
// The fields here are what every mahjong rule set shares (hands, ponds,
// melds, scores, offers) plus riichi's few (dora, honba, sticks, riichi).
// Each other rule set keeps its own part in `other` and folds its own
// events through its hooks (src/rules/), which the reducer calls before and
// after its shared cases.

import type { Action, Meld, View, Won } from "../../clients/ts/src/gen/mahjong/authority/v1/game_pb.js";
import { ActionType, MeldType, RoundEndKind } from "../../clients/ts/src/gen/mahjong/authority/v1/game_pb.js";
import type { Event, TableSettings } from "../../clients/ts/src/gen/mahjong/authority/v1/table_service_pb.js";
import { parse, same, sortTiles } from "./tiles.js";
import { offerDeadline } from "./session.js";

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
  /**
   * A choice the rule set lists itself instead of the server's options
   * (Sichuan's exchange and void suit: the server sends no offer event for
   * them); its hooks draw it.
   */
  choice?: string;
  /**
   * standingSeq: for the offer a snapshot listed, its deadline from the
   * snapshot's time_left, the seq of the event that sends the same offer
   * again (the next one), which keeps that deadline.
   */
  standingSeq?: number;
}

/** Action as plain data. */
export interface ActionPlain {
  type: ActionType;
  tile: string;
  tiles: string;
  tsumogiri: boolean;
  /** Sichuan's void suit (SichuanSuit). */
  suit?: number;
  /** MCR's chi: the run's lowest tile. */
  run?: string;
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

/**
 * The state of rule sets other than riichi, each under its own key, owned
 * by its hooks (src/rules/<name>.ts); plain data like the rest.
 */
export interface RuleSetState {
  [ruleSet: string]: unknown;
}

export interface TableModel {
  /** The viewer's seat; -1 for a spectator. */
  seat: number;
  /** The table's RuleSet (0 and 1: riichi). */
  ruleSet: number;
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
  /** The drawn tile is a replacement (after a kan, or a flower set aside). */
  replacement?: boolean;
  seats: SeatState[];
  offer?: Offer;
  /** The wins of the round that just ended, shown until the next round. */
  wins: WinState[];
  result?: RoundResult;
  final?: { scores: number[]; ranks: number[] };
  /** The seq of the event that ended the hand (its result is shown until closed); "" in play. */
  resultAt: string;
  /** Shanten and waits of the viewer's hand (the Fishing event). */
  shanten?: number;
  waits?: string;
  furiten?: boolean;
  started: boolean;
  other: RuleSetState;
}

export function emptyModel(seat: number, ruleSet = 0): TableModel {
  return {
    seat,
    ruleSet,
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
    resultAt: "",
    started: false,
    other: {},
  };
}

export function plainAction(a: Action): ActionPlain {
  const p: ActionPlain = { type: a.type, tile: a.tile, tiles: a.tiles, tsumogiri: a.tsumogiri };
  if (a.suit) p.suit = a.suit;
  if (a.run) p.run = a.run;
  return p;
}

/** isFlower: a flower or a season ("1f".."8f"), set aside, never held. */
export const isFlower = (t: string) => t[1] === "f";

export function meldState(m: Meld | undefined): MeldState {
  return {
    type: m?.type ?? MeldType.UNSPECIFIED,
    tiles: parse(m?.tiles ?? ""),
    from: m?.fromSeat ?? 0,
    called: m?.calledTile ?? "",
    added: m?.addedTile ?? "",
  };
}

/** fromView makes the model from a snapshot's view. */
export function fromView(v: View, seq: bigint, names: SeatState[] | undefined, ctx: Ctx, timeLeftMs?: number): TableModel {
  const timers = ctx;
  const m = emptyModel(v.seat, ctx.ruleSet);
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
    const left = timeLeftMs ?? (claim ? timers.claimMs : timers.turnMs);
    m.offer = { claim, options: v.legal.map(plainAction), deadline: Date.now() + left };
    if (timeLeftMs !== undefined) m.offer.standingSeq = Number(seq) + 1;
  }
  ctx.hooks.fromView?.(m, v, ctx);
  return m;
}

export interface Timers {
  turnMs: number;
  claimMs: number;
}

/** What the reducer needs besides the events: the table's timers, rule set and options. */
export interface Ctx extends Timers {
  ruleSet: number;
  /** The table's settings as GetTable reports them (every option filled in). */
  settings?: TableSettings;
  hooks: ModelHooks;
}

/** A rule set's part of the reducer (src/rules/). */
export interface ModelHooks {
  /** Its part of a snapshot's view, after the shared fields are read. */
  fromView?(m: TableModel, v: View, ctx: Ctx): void;
  /** Before the shared cases; true: the event is the rule set's alone, the shared cases skip it. */
  before?(m: TableModel, ev: Event, ctx: Ctx): boolean;
  /** After the shared cases. */
  after?(m: TableModel, ev: Event, ctx: Ctx): void;
}

function removeTile(hand: string[], t: string): string[] {
  const i = hand.indexOf(t);
  if (i >= 0) return [...hand.slice(0, i), ...hand.slice(i + 1)];
  const j = hand.findIndex((h) => same(h, t));
  return j >= 0 ? [...hand.slice(0, j), ...hand.slice(j + 1)] : hand;
}

/** removeHandTile takes tile t out of the viewer's tiles: the drawn one if it is t, else one in the hand (the drawn one joins the hand). */

export function removeHandTile(m: TableModel, t: string) {
  if (m.drawn && m.drawn === t) {
    m.drawn = "";
    return;
  }
  m.hand = removeTile(m.hand, t);
  if (m.drawn) m.hand = sortTiles([...m.hand, m.drawn]);
  m.drawn = "";
}

/** newHand clears the table for a new deal (the dealer is dealt dealerTiles: riichi's draws its fourteenth). */
export function newHand(
  m: TableModel,
  r: { roundWind: number; number: number; dealer: number; honba?: number; sticks?: number; dora?: string[]; wallLeft: number; scores: number[] },
  dealerTiles = 13,
) {
  m.started = true;
  m.roundWind = r.roundWind;
  m.number = r.number;
  m.dealer = r.dealer;
  m.honba = r.honba ?? 0;
  m.sticks = r.sticks ?? 0;
  m.dora = r.dora ?? [];
  m.wallLeft = r.wallLeft;
  m.toAct = r.dealer;
  m.hand = [];
  m.drawn = "";
  m.wins = [];
  m.result = undefined;
  m.resultAt = "";
  m.offer = undefined;
  m.shanten = undefined;
  m.waits = undefined;
  m.seats.forEach((s, i) => {
    s.pond = [];
    s.melds = [];
    s.riichi = false;
    s.handSize = i === r.dealer ? dealerTiles : 13;
    s.score = r.scores[i] ?? s.score;
  });
}

/** apply folds one event into the model (a new model; prev is not changed). */
export function apply(prev: TableModel, ev: Event, ctx: Ctx): TableModel {
  const m: TableModel = structuredClone(prev);
  m.seq = ev.seq.toString();
  if (ctx.hooks.before?.(m, ev, ctx)) return m;
  const b = ev.body;
  const me = m.seat;
  switch (b.case) {
    case "roundStarted": {
      const r = b.value;
      newHand(m, { ...r, sticks: r.riichiSticks, dora: parse(r.dora) });
      break;
    }
    case "dealt":
      if (b.value.seat === me) m.hand = sortTiles(parse(b.value.hand));
      break;
    case "drew": {
      const d = b.value;
      m.wallLeft = d.wallLeft;
      m.toAct = d.seat;
      // The drawer gets its own copy with the tile and may get the public
      // one too: its count moves with its own copy only.
      if (d.seat !== me || d.tile) m.seats[d.seat].handSize++;
      if (d.seat === me && d.tile && !isFlower(d.tile)) {
        if (m.drawn) m.hand = sortTiles([...m.hand, m.drawn]);
        m.drawn = d.tile;
        m.replacement = d.rinshan;
      }
      break;
    }
    case "discarded": {
      const d = b.value;
      const s = m.seats[d.seat];
      s.pond.push({ tile: d.tile, riichi: d.riichi, called: false, tsumogiri: d.tsumogiri });
      s.handSize--;
      if (d.seat === me) {
        if (d.tsumogiri && m.drawn) m.drawn = "";
        else removeHandTile(m, d.tile);
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
    case "called":
      called(m, b.value.seat, meldState(b.value.meld));
      b.value.scores.forEach((x, i) => (m.seats[i].score = x));
      break;
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
        m.offer = { claim: true, options: b.value.options.map(plainAction), deadline: offerDeadline(prev.offer?.claim ? prev.offer : undefined, ev.seq, ctx.claimMs) };
      }
      break;
    case "turnOffer":
      if (b.value.seat === me) {
        m.toAct = me;
        m.offer = { claim: false, options: b.value.options.map(plainAction), deadline: offerDeadline(prev.offer?.claim === false ? prev.offer : undefined, ev.seq, ctx.turnMs) };
      }
      break;
    case "won":
      m.wins.push(winState(b.value));
      m.offer = undefined;
      m.resultAt = m.seq;
      break;
    case "roundEnded": {
      const r = b.value;
      r.scores.forEach((x, i) => (m.seats[i].score = x));
      m.result = { kind: r.kind, deltas: [...r.deltas], scores: [...r.scores], tenpai: [...r.tenpai], hands: [...r.hands], wins: m.wins };
      m.offer = undefined;
      m.resultAt = m.seq;
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
      // Another rule set's event: its hooks fold it.
      break;
  }
  ctx.hooks.after?.(m, ev, ctx);
  return m;
}

/** robbed turns seat's added kan of tile back into a pon: a win robbed it. */
export function robbed(m: TableModel, seat: number, t: string) {
  for (const ml of m.seats[seat].melds) {
    if (ml.type === MeldType.ADDED_KAN && ml.tiles.length > 0 && same(ml.tiles[0], t)) {
      ml.type = MeldType.PON;
      ml.tiles = ml.tiles.slice(0, 3);
      ml.added = "";
    }
  }
}

/**
 * called folds a call or a kan of seat into the model, for every rule set:
 * the meld's called tile is named by the meld or, where a rule set leaves
 * it out, is the discarder's last discard; an open kan onto the seat's own
 * pon is an added kan (the classical game names both kongs alike); a
 * concealed kan without tiles is face down (MCR), and the owner's own copy
 * with its tiles follows and takes its place.
 */
export function called(m: TableModel, seat: number, meld: MeldState) {
  const me = m.seat;
  const s = m.seats[seat];
  m.toAct = seat;
  const ponOf = (t: string) => s.melds.findIndex((x) => x.type === MeldType.PON && x.tiles.length > 0 && same(x.tiles[0], t));
  const kind = meld.added || meld.tiles[0] || "";
  if (meld.type === MeldType.ADDED_KAN || (meld.type === MeldType.OPEN_KAN && kind && ponOf(kind) >= 0)) {
    const k = ponOf(kind);
    const kan = { ...meld, type: MeldType.ADDED_KAN, added: meld.added || kind };
    if (k >= 0) s.melds[k] = kan;
    else s.melds.push(kan);
    s.handSize--;
    if (seat === me) removeHandTile(m, kan.added);
  } else if (meld.type === MeldType.CLOSED_KAN) {
    const last = s.melds[s.melds.length - 1];
    if (meld.tiles.length === 0) {
      s.melds.push({ ...meld, tiles: ["?", "?", "?", "?"] });
      s.handSize -= 4;
    } else {
      if (last && last.type === MeldType.CLOSED_KAN && last.tiles[0] === "?") s.melds[s.melds.length - 1] = meld;
      else {
        s.melds.push(meld);
        s.handSize -= 4;
      }
      if (seat === me) {
        for (const t of meld.tiles) removeHandTile(m, t);
      }
    }
  } else {
    // The called tile leaves its discarder's pond (marked, not removed).
    const from = m.seats[meld.from].pond;
    const last = from[from.length - 1];
    if (!meld.called && last) meld = { ...meld, called: last.tile };
    if (last) last.called = true;
    s.melds.push(meld);
    s.handSize -= meld.tiles.length - 1;
    if (seat === me) {
      let skip = meld.tiles.indexOf(meld.called);
      if (skip < 0) skip = meld.tiles.findIndex((t) => same(t, meld.called));
      meld.tiles.forEach((t, i) => i !== skip && removeHandTile(m, t));
    }
  }
  if (seat === me) m.offer = undefined;
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
