// Sichuan bloody battle (docs/rules/sichuan.md): the exchange of three
// (pick three tiles of one suit, then see what came back), the void-suit
// choice, every seat's void once revealed, winners who leave with their
// winning tiles while play goes on, kan money, and the hand's settlement
// (查大叫 hands not ready, 花猪 void suits still held, 退税 kan money
// given back; named in pinyin on the page). The server sends no offer for
// the exchange and the void choice: this file lists them itself, as the
// Go client's tracker does.

import { ActionType, Phase, SichuanDirection, SichuanHandEndKind, SichuanSuit, type View } from "../../../clients/ts/src/gen/mahjong/authority/v1/game_pb.js";
import { RulePreset, RuleSet } from "../../../clients/ts/src/gen/mahjong/authority/v1/table_service_pb.js";
import type { Event } from "../../../clients/ts/src/gen/mahjong/authority/v1/table_service_pb.js";
import { meldState, newHand, removeHandTile, robbed, type Ctx, type MeldState, type TableModel } from "../model.js";
import { parse, sortTiles, tilesEl } from "../tiles.js";
import { dealerWind, deltaCell, h, payments, scoresLine, seatName, signed, tileKeys, winHand } from "../view.js";
import type { Handlers, HandTile, RuleSetDef, UiState } from "./types.js";

interface SichuanWin {
  seat: number;
  from: number;
  tsumo: boolean;
  chankan: boolean;
  hand: string[];
  melds: MeldState[];
  winTile: string;
  fan: number;
  fans: { name: string; fan: number }[];
  value: number;
  deltas: number[];
}

interface SichuanEnd {
  kind: SichuanHandEndKind;
  huaZhu: boolean[];
  ready: boolean[];
  huaZhuPay: number[];
  readyPay: number[];
  refunds: number[];
  deltas: number[];
  scores: number[];
  hands: string[];
}

export interface SichuanState {
  index: number;
  hands: number;
  stage: "exchange" | "void" | "play" | "over";
  direction: SichuanDirection;
  gave: string[];
  got: string[];
  gotFrom: number;
  /** The viewer's void suit (SichuanSuit), once chosen. */
  myVoid: SichuanSuit;
  /** Every seat's void suit, once revealed. */
  voids: SichuanSuit[];
  /** Seats that chose (their exchange, then their void). */
  chose: boolean[];
  won: string[][];
  left: boolean[];
  kanMoney: number[];
  wins: SichuanWin[];
  end?: SichuanEnd;
}

const suitLetter = ["", "m", "p", "s"];
const suitNames = ["", "man (characters)", "pin (circles)", "sou (bamboo)"];
const directionNames: Record<number, string> = {
  [SichuanDirection.TO_NEXT]: "to the next seat",
  [SichuanDirection.TO_PREVIOUS]: "to the previous seat",
  [SichuanDirection.ACROSS]: "across",
};

const four = <T>(x: T): T[] => [x, x, x, x];

function fresh(index: number, hands: number): SichuanState {
  return {
    index,
    hands,
    stage: "play",
    direction: SichuanDirection.UNSPECIFIED,
    gave: [],
    got: [],
    gotFrom: 0,
    myVoid: SichuanSuit.UNSPECIFIED,
    voids: four(SichuanSuit.UNSPECIFIED),
    chose: four(false),
    won: [[], [], [], []],
    left: four(false),
    kanMoney: four(0),
    wins: [],
  };
}

export function stateOf(m: TableModel): SichuanState {
  return (m.other.sichuan as SichuanState | undefined) ?? fresh(0, 0);
}

const handsOf = (ctx: Ctx) => (ctx.settings?.options.case === "sichuan" ? ctx.settings.options.value.hands : 0);
const exchangeOn = (ctx: Ctx) => ctx.settings?.options.case !== "sichuan" || ctx.settings.options.value.exchangeThree !== false;

/** offerChoice: the viewer is to choose (its exchange or void), with the turn's time. */
function offerChoice(m: TableModel, choice: "exchange" | "void", ctx: Ctx) {
  if (m.seat < 0) return;
  m.offer = { claim: false, options: [], deadline: Date.now() + ctx.turnMs, choice };
}

function fromView(m: TableModel, v: View, ctx: Ctx) {
  const sv = v.sichuan;
  const st = fresh(sv?.index ?? 0, handsOf(ctx));
  m.roundWind = 0;
  m.number = st.index + 1;
  if (sv) {
    st.direction = sv.direction;
    st.gave = parse(sv.gave);
    st.got = parse(sv.got);
    st.myVoid = sv.void;
    sv.seats.forEach((s, i) => {
      st.won[i] = parse(s.won);
      st.left[i] = s.left;
      st.voids[i] = sv.revealed ? s.void : SichuanSuit.UNSPECIFIED;
      st.kanMoney[i] = s.kanMoney;
    });
  }
  st.stage =
    v.phase === Phase.SICHUAN_EXCHANGING ? "exchange" : v.phase === Phase.SICHUAN_CHOOSING_VOID ? "void" : v.phase === Phase.GAME_OVER ? "over" : "play";
  m.other.sichuan = st;
  if (m.offer && (st.stage === "exchange" || st.stage === "void")) m.offer.choice = st.stage;
}

/** before folds Sichuan's own events (the shared cases never see them). */
function before(m: TableModel, ev: Event, ctx: Ctx): boolean {
  const b = ev.body;
  const st = stateOf(m);
  m.other.sichuan = st;
  const me = m.seat;
  switch (b.case) {
    case "roundStarted": {
      const r = b.value;
      newHand(m, { roundWind: 0, number: r.index + 1, dealer: r.dealer, wallLeft: r.wallLeft, scores: r.scores }, 14);
      const next = fresh(r.index, handsOf(ctx));
      next.stage = exchangeOn(ctx) ? "exchange" : "void";
      m.other.sichuan = next;
      return true;
    }
    case "sichuanExchangeChosen":
      st.chose[b.value.seat] = true;
      if (b.value.tiles) st.gave = parse(b.value.tiles);
      if (b.value.seat === me && b.value.tiles) m.offer = undefined;
      return true;
    case "sichuanExchanged":
      st.direction = b.value.direction;
      st.stage = "void";
      st.chose = four(false);
      return true;
    case "sichuanExchangeReceived": {
      const r = b.value;
      if (r.seat === me) {
        for (const t of parse(r.gave)) removeHandTile(m, t);
        m.hand = sortTiles([...m.hand, ...parse(r.got)]);
      }
      st.gave = parse(r.gave);
      st.got = parse(r.got);
      st.gotFrom = r.fromSeat;
      // The void choice opens once the seat holds what it got: one
      // decided before would be refused as stale (docs/protocol.md,
      // "Choices made at once").
      if (r.seat === me) offerChoice(m, "void", ctx);
      return true;
    }
    case "sichuanVoidChosen":
      st.chose[b.value.seat] = true;
      if (b.value.suit) st.myVoid = b.value.suit;
      if (b.value.seat === me && b.value.suit) m.offer = undefined;
      return true;
    case "sichuanVoidsRevealed":
      st.voids = [...b.value.voids];
      st.stage = "play";
      m.toAct = m.dealer;
      return true;
    case "sichuanKanPaid":
      b.value.scores.forEach((x, i) => (m.seats[i].score = x));
      st.kanMoney[b.value.seat] += b.value.deltas[b.value.seat] ?? 0;
      return true;
    case "sichuanKanTransferred":
      b.value.scores.forEach((x, i) => (m.seats[i].score = x));
      st.kanMoney[b.value.seat] -= b.value.units;
      return true;
    case "sichuanWon": {
      const w = b.value;
      w.scores.forEach((x, i) => (m.seats[i].score = x));
      st.won[w.seat].push(w.winTile);
      st.left[w.seat] = w.left;
      st.wins.push({
        seat: w.seat,
        from: w.fromSeat,
        tsumo: w.tsumo,
        chankan: w.chankan,
        hand: sortTiles(parse(w.hand)),
        melds: w.melds.map(meldState),
        winTile: w.winTile,
        fan: w.fan,
        fans: w.fans.map((f) => ({ name: f.name, fan: f.fan })),
        value: w.value,
        deltas: [...w.deltas],
      });
      if (w.tsumo) {
        m.seats[w.seat].handSize--;
        if (w.seat === me) removeHandTile(m, w.winTile);
      } else if (w.chankan) {
        // The robbed kan is a pon again.
        robbed(m, w.fromSeat, w.winTile);
      } else {
        const pond = m.seats[w.fromSeat].pond;
        if (pond.length) pond[pond.length - 1].called = true;
      }
      if (w.seat === me) m.offer = undefined;
      return true;
    }
    case "sichuanHandEnded": {
      const e = b.value;
      e.scores.forEach((x, i) => (m.seats[i].score = x));
      st.end = {
        kind: e.kind,
        huaZhu: [...e.huaZhu],
        ready: [...e.ready],
        huaZhuPay: [...e.huaZhuPay],
        readyPay: [...e.readyPay],
        refunds: [...e.refunds],
        deltas: [...e.deltas],
        scores: [...e.scores],
        hands: [...e.hands],
      };
      st.stage = "over";
      m.offer = undefined;
      m.resultAt = m.seq;
      return true;
    }
  }
  return false;
}

/** after: the viewer's dealt hand opens its exchange (or its void choice without one). */
function after(m: TableModel, ev: Event, ctx: Ctx) {
  const st = stateOf(m);
  if (ev.body.case === "dealt" && ev.body.value.seat === m.seat) {
    if (st.stage === "exchange" || st.stage === "void") offerChoice(m, st.stage, ctx);
  }
}

/** The viewer's tiles, the drawn one last (the hand's indices). */
const allTiles = (m: TableModel) => (m.drawn ? [...m.hand, m.drawn] : m.hand);

/** markedTiles are the tiles marked for the exchange. */
function markedTiles(m: TableModel, ui: UiState): string[] {
  const ts = allTiles(m);
  return ui.selected.map((i) => ts[i]).filter(Boolean);
}

/** exchangeAction gives the marked tiles: three of one suit, else undefined. */
function exchangeAction(m: TableModel, ui: UiState) {
  const ts = markedTiles(m, ui);
  if (ts.length !== 3 || ts.some((t) => t[1] !== ts[0][1])) return undefined;
  return { type: ActionType.SICHUAN_EXCHANGE, tile: "", tiles: sortTiles(ts).map((t) => t[0]).join("") + ts[0][1], tsumogiri: false };
}

function voidActions(m: TableModel) {
  const counts = [0, 0, 0, 0];
  for (const t of allTiles(m)) counts[suitLetter.indexOf(t[1])]++;
  return [SichuanSuit.MAN, SichuanSuit.PIN, SichuanSuit.SOU].map((suit) => ({
    action: { type: ActionType.SICHUAN_VOID, tile: "", tiles: "", tsumogiri: false, suit },
    count: counts[suit],
  }));
}

function handTile(m: TableModel, ui: UiState, on: Handlers, i: number, t: string): HandTile {
  if (m.offer?.choice !== "exchange") return { cls: [] };
  const ts = allTiles(m);
  const marked = markedTiles(m, ui);
  const ofSuit = ts.filter((x) => x[1] === t[1]).length;
  const ok = ofSuit >= 3 && (marked.length === 0 || marked[0][1] === t[1]);
  const selected = ui.selected.includes(i);
  if (!ok && !selected) return { cls: [] };
  return { onClick: () => on.select(i), cls: ["playable", "selectable", ...(selected ? ["selected"] : [])], key: tileKeys[i] };
}

function button(cls: string, key: string, label: string, onClick: () => void, disabled = false): HTMLButtonElement {
  const b = h("button", `act ${cls}`);
  b.type = "button";
  b.disabled = disabled;
  b.append(h("kbd", "", key), label);
  b.addEventListener("click", onClick);
  return b;
}

function choice(m: TableModel, ui: UiState, on: Handlers): HTMLElement[] {
  if (m.offer?.choice === "exchange") {
    const a = exchangeAction(m, ui);
    const give = button("act-sichuan-exchange", "Enter", " Give these three", () => a && on.act(a), !a);
    return [give, h("span", "hint", "exchange: mark three tiles of one suit (click or their letter), then give them")];
  }
  if (m.offer?.choice === "void") {
    const out: HTMLElement[] = voidActions(m).map(({ action, count }, i) =>
      button(`act-sichuan-void void-${suitLetter[action.suit!]}`, String(i + 1), ` Void: ${suitNames[action.suit!]} · ${count} held`, () => on.act(action)),
    );
    out.push(h("span", "hint", "choose the suit you will not keep (its tiles go first)"));
    return out;
  }
  return [];
}

function choiceKey(m: TableModel, ui: UiState, on: Handlers, e: KeyboardEvent): boolean {
  if (m.offer?.choice === "exchange") {
    if (e.key === "Enter") {
      const a = exchangeAction(m, ui);
      if (a) on.act(a);
      return true;
    }
    const i = tileKeys.indexOf(e.key);
    if (i >= 0 && handTile(m, ui, on, i, allTiles(m)[i] ?? "").onClick) on.select(i);
    return i >= 0;
  }
  if (m.offer?.choice === "void") {
    const n = Number(e.key);
    const vs = voidActions(m);
    if (n >= 1 && n <= vs.length) {
      on.act(vs[n - 1].action);
      return true;
    }
  }
  return false;
}

const nice = (name: string) => name.replace(/_/g, " ");

function winEl(m: TableModel, w: SichuanWin): HTMLElement {
  const el = h("div", "win");
  const how = w.tsumo ? "self-drawn" : w.chankan ? `robbing ${seatName(m, w.from)}'s kan` : `on ${seatName(m, w.from)}'s discard`;
  el.append(h("h2", "", `${seatName(m, w.seat)} wins ${how}`));
  el.append(winHand(w.hand, w.melds, w.winTile));
  const fans = h("table", "yaku");
  for (const f of w.fans) {
    const tr = h("tr");
    tr.append(h("td", "", nice(f.name)), h("td", "num", `${f.fan} fan`));
    fans.append(tr);
  }
  el.append(fans);
  el.append(h("div", "total", `${w.fan} fan · ${w.value} unit${w.value === 1 ? "" : "s"} from each payer`));
  el.append(payments(m, w.deltas));
  return el;
}

function settlement(m: TableModel, e: SichuanEnd): HTMLElement {
  const el = h("div", "win settlement");
  el.append(h("h2", "", e.kind === SichuanHandEndKind.WALL_EMPTY ? "Wall empty: the settlement" : "Three seats won"));
  const t = h("table", "payments");
  const head = h("tr");
  // Latin names (no CJK font is needed): 花猪, 查大叫, 退税.
  for (const c of ["", "hand", "hua zhu: void held", "cha da jiao: not ready", "tui shui: kan back", "hand total"]) head.append(h("th", "", c));
  t.append(head);
  e.deltas.forEach((d, i) => {
    const tr = h("tr");
    tr.dataset.seat = String(i);
    const hand = h("td");
    if (e.hands[i]) hand.append(tilesEl(parse(e.hands[i]), ["small"]));
    const flags = [e.huaZhu[i] ? "hua zhu" : "", e.ready[i] ? "ready" : ""].filter(Boolean).join(", ");
    tr.append(
      h("td", "", seatName(m, i) + (flags ? ` · ${flags}` : "")),
      hand,
      deltaCell(e.huaZhuPay[i] ?? 0),
      deltaCell(e.readyPay[i] ?? 0),
      deltaCell(e.refunds[i] ?? 0),
      deltaCell(d),
    );
    t.append(tr);
  });
  el.append(t);
  return el;
}

function result(m: TableModel): HTMLElement[] {
  const st = stateOf(m);
  const out = st.wins.map((w) => winEl(m, w));
  if (st.end) {
    out.push(settlement(m, st.end), scoresLine(m, st.end.scores));
  }
  return out;
}

export const sichuan: RuleSetDef = {
  id: RuleSet.SICHUAN,
  key: "sichuan",
  name: "Sichuan bloody battle",
  fields: `
    <label>Hands <input name="sichuan-hands" type="number" min="1" max="64" value="8"></label>
    <label><input type="checkbox" name="sichuan-exchange" checked> Exchange three tiles before play</label>
    <label><input type="checkbox" name="sichuan-river"> Bloody river (winners stay in play)</label>
    <label>Fan cap <select name="sichuan-cap"><option>3</option><option>4</option><option>5</option></select></label>`,
  settings: (f) => ({
    ruleSet: RuleSet.SICHUAN,
    rules: RulePreset.SICHUAN_BLOODY_BATTLE,
    options: {
      case: "sichuan",
      value: {
        $typeName: "mahjong.authority.v1.SichuanOptions",
        hands: Number(f.get("sichuan-hands") || 0),
        exchangeThree: f.get("sichuan-exchange") === "on",
        bloodyRiver: f.get("sichuan-river") === "on",
        fanCap: Number(f.get("sichuan-cap") || 0),
      },
    },
  }),
  describe: (t) => {
    const o = t.settings?.options.case === "sichuan" ? t.settings.options.value : undefined;
    return `Sichuan, ${o?.hands ?? "?"} hand${o?.hands === 1 ? "" : "s"}${o?.bloodyRiver ? ", bloody river" : ""}`;
  },

  fromView,
  before,
  after,

  roundLine: (m) => {
    const st = stateOf(m);
    return `Hand ${st.index + 1}${st.hands ? ` of ${st.hands}` : ""}`;
  },
  centre: (m) => {
    const st = stateOf(m);
    const out: HTMLElement[] = [];
    if (st.stage === "exchange") out.push(h("span", "stage", `exchange of three: ${st.chose.filter(Boolean).length}/4 chosen`));
    if (st.stage === "void") out.push(h("span", "stage", `void suits: ${st.chose.filter(Boolean).length}/4 chosen`));
    if (st.direction) out.push(h("span", "direction", `tiles went ${directionNames[st.direction] ?? ""}`));
    if (m.seat >= 0 && st.got.length) {
      const x = h("span", "exchange");
      x.append("gave ", tilesEl(st.gave, ["small"]), " got ", tilesEl(st.got, ["small"]));
      out.push(x);
    }
    out.push(h("span", "units", "scores in units"));
    return out;
  },
  seatWind: dealerWind,
  badges: (m, seat) => {
    const st = stateOf(m);
    const out: HTMLElement[] = [];
    const v = st.voids[seat] || (seat === m.seat ? st.myVoid : SichuanSuit.UNSPECIFIED);
    if (v) out.push(h("span", `badge void void-${suitLetter[v]}`, `void ${suitLetter[v]}`));
    else if ((st.stage === "exchange" || st.stage === "void") && st.chose[seat]) out.push(h("span", "badge", "chosen"));
    if (st.won[seat].length) out.push(h("span", "badge won", st.left[seat] ? "won · out" : "won"));
    return out;
  },
  seatLines: (m, seat) => {
    const st = stateOf(m);
    const out: HTMLElement[] = [];
    if (st.won[seat].length) {
      const w = h("div", "other won-tiles");
      w.append("won on ", tilesEl(st.won[seat], ["small"]));
      out.push(w);
    }
    if (st.kanMoney[seat]) out.push(h("div", "other", `kan money ${signed(st.kanMoney[seat])}`));
    return out;
  },
  seatClasses: (m, seat) => (stateOf(m).left[seat] ? ["left"] : []),
  handTile,
  tileClasses: (m, t) => {
    const st = stateOf(m);
    return st.myVoid && t[1] === suitLetter[st.myVoid] ? ["void-tile"] : [];
  },
  choice,
  choiceKey,
  result,
  notice: (m) => {
    const st = stateOf(m);
    const w = st.wins[st.wins.length - 1];
    if (!w || st.end) return undefined;
    const el = h("div", "notice");
    el.append(`${seatName(m, w.seat)} won on `, tilesEl([w.winTile], ["small"]), ` · ${w.fan} fan${w.tsumo ? ", self-drawn" : ""}`);
    return el;
  },
};
