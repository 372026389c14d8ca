// Classical mahjong (BMJA, docs/rules/classical.md): flowers and seasons
// set aside, fishing (the announcement that a hand is one tile from Mah
// Jong: a button of its own, then a badge on the seat for everyone), and
// the hand's end as the server scores it: every seat's score line (points,
// doubles, special hand, a loser's fishing value), the payments with
// East's doubled, every hand shown.

import { ActionType, ClassicalHandEndKind, type View } from "../../../clients/ts/src/gen/mahjong/authority/v1/game_pb.js";
import { RulePreset, RuleSet } from "../../../clients/ts/src/gen/mahjong/authority/v1/table_service_pb.js";
import type { Event } from "../../../clients/ts/src/gen/mahjong/authority/v1/table_service_pb.js";
import { meldState, newHand, robbed, type Ctx, type MeldState, type TableModel } from "../model.js";
import { parse, same, sortTiles, tilesEl } from "../tiles.js";
import { dealerWind, deltaCell, h, scoresLine, seatName, winds, winHand } from "../view.js";
import type { RuleSetDef } from "./types.js";

interface ClassicalWin {
  seat: number;
  from: number;
  selfDrawn: boolean;
  robbedKong: boolean;
  /** Concealed tiles without the winning tile. */
  hand: string[];
  melds: MeldState[];
  winTile: string;
}

interface ClassicalLine {
  score: number;
  points: number;
  doubles: number;
  special: string;
  fishing: boolean;
}

interface ClassicalEnd {
  kind: ClassicalHandEndKind;
  winner: number;
  lines: ClassicalLine[];
  deltas: number[];
  scores: number[];
  hands: string[];
  gameOver: boolean;
}

export interface ClassicalState {
  index: number;
  rounds: number;
  bonus: string[][];
  fishing: boolean[];
  original: boolean[];
  win?: ClassicalWin;
  end?: ClassicalEnd;
}

function fresh(index: number, rounds: number): ClassicalState {
  return { index, rounds, bonus: [[], [], [], []], fishing: [false, false, false, false], original: [false, false, false, false] };
}

export function stateOf(m: TableModel): ClassicalState {
  return (m.other.classical as ClassicalState | undefined) ?? fresh(0, 0);
}

const roundsOf = (ctx: Ctx) => (ctx.settings?.options.case === "classical" ? ctx.settings.options.value.rounds : 0);

function fromView(m: TableModel, v: View, ctx: Ctx) {
  const st = fresh(v.classical?.index ?? 0, roundsOf(ctx));
  v.classical?.seats.forEach((s, i) => {
    st.bonus[i] = parse(s.bonus);
    st.fishing[i] = s.fishing;
  });
  m.other.classical = st;
}

function before(m: TableModel, ev: Event, ctx: Ctx): boolean {
  const b = ev.body;
  const st = stateOf(m);
  m.other.classical = st;
  switch (b.case) {
    case "roundStarted": {
      const r = b.value;
      newHand(m, { roundWind: r.roundWind, number: r.number, dealer: r.dealer, wallLeft: r.wallLeft, scores: r.scores }, 14);
      m.other.classical = fresh(r.index, roundsOf(ctx));
      return true;
    }
    case "classicalBonusSetAside":
      st.bonus[b.value.seat].push(b.value.tile);
      m.wallLeft = Math.max(0, m.wallLeft - 1);
      return true;
    case "classicalFishing":
      st.fishing[b.value.seat] = true;
      st.original[b.value.seat] = b.value.originalCall;
      return true;
    case "classicalWon": {
      const w = b.value;
      // The hand holds the winning tile: shown apart.
      const hand = sortTiles(parse(w.hand));
      const i = hand.findIndex((t) => same(t, w.winTile));
      if (i >= 0) hand.splice(i, 1);
      st.win = {
        seat: w.seat,
        from: w.fromSeat,
        selfDrawn: w.selfDrawn,
        robbedKong: w.robbedKong,
        hand,
        melds: w.melds.map(meldState),
        winTile: w.winTile,
      };
      if (w.robbedKong) robbed(m, w.fromSeat, w.winTile);
      else if (!w.selfDrawn) {
        const pond = m.seats[w.fromSeat].pond;
        if (pond.length) pond[pond.length - 1].called = true;
      }
      m.offer = undefined;
      return true;
    }
    case "classicalHandEnded": {
      const e = b.value;
      e.scores.forEach((x, i) => (m.seats[i].score = x));
      st.end = {
        kind: e.kind,
        winner: e.winner,
        lines: e.lines.map((l) => ({ score: l.score, points: l.points, doubles: l.doubles, special: l.special, fishing: l.fishing })),
        deltas: [...e.deltas],
        scores: [...e.scores],
        hands: [...e.hands],
        gameOver: e.gameOver,
      };
      m.offer = undefined;
      m.resultAt = m.seq;
      return true;
    }
  }
  return false;
}

const nice = (name: string) => name.replace(/_/g, " ");

function result(m: TableModel): HTMLElement[] {
  const st = stateOf(m);
  const e = st.end;
  const out: HTMLElement[] = [];
  const w = st.win;
  if (e && e.kind === ClassicalHandEndKind.MAH_JONG && w) {
    const el = h("div", "win");
    const how = w.selfDrawn ? "self-drawn" : w.robbedKong ? `robbing ${seatName(m, w.from)}'s kong` : `on ${seatName(m, w.from)}'s discard`;
    el.append(h("h2", "", `${seatName(m, w.seat)}: Mah Jong ${how}`));
    const special = e.lines[w.seat]?.special;
    if (special) el.append(h("div", "special", `special hand: ${nice(special)}`));
    el.append(winHand(w.hand, w.melds, w.winTile));
    out.push(el);
  } else if (e) {
    out.push(h("h2", "", "Wash: the wall ran out, nobody pays"));
  }
  if (!e) return out;
  const t = h("table", "payments score-lines");
  const head = h("tr");
  for (const c of ["", "hand", "points", "doubles", "score", "paid"]) head.append(h("th", "", c));
  t.append(head);
  e.deltas.forEach((d, i) => {
    const l = e.lines[i] ?? { score: 0, points: 0, doubles: 0, special: "", fishing: false };
    const tr = h("tr");
    tr.dataset.seat = String(i);
    const hand = h("td");
    if (e.hands[i] && i !== e.winner) hand.append(tilesEl(parse(e.hands[i]), ["small"]));
    const notes = [
      i === e.winner && e.kind === ClassicalHandEndKind.MAH_JONG ? "Mah Jong" : "",
      i === m.dealer ? "East" : "",
      l.fishing && l.special ? `fishing for ${nice(l.special)}` : "",
      st.fishing[i] ? (st.original[i] ? "fishing (original call)" : "fishing") : "",
    ].filter(Boolean);
    tr.append(
      h("td", "", seatName(m, i) + (notes.length ? ` · ${notes.join(", ")}` : "")),
      hand,
      h("td", "num", String(l.points)),
      h("td", "num", String(l.doubles)),
      h("td", "num", String(l.score)),
      deltaCell(d),
    );
    t.append(tr);
  });
  out.push(t, scoresLine(m, e.scores));
  return out;
}

const classicalNames: Partial<Record<ActionType, string>> = {
  [ActionType.TSUMO]: "Mah Jong",
  [ActionType.RON]: "Mah Jong",
  [ActionType.CHI]: "Chow",
  [ActionType.PON]: "Pung",
  [ActionType.OPEN_KAN]: "Kong",
  [ActionType.CLOSED_KAN]: "Concealed kong",
  [ActionType.ADDED_KAN]: "Add to pung",
  [ActionType.CLASSICAL_FISH]: "Fishing",
};

export const classical: RuleSetDef = {
  id: RuleSet.CLASSICAL,
  key: "classical",
  name: "Classical (BMJA)",
  fields: `
    <label>Wind rounds <input name="classical-rounds" type="number" min="1" max="4" value="4"></label>
    <label>Limit <select name="classical-limit"><option>1000</option><option>500</option><option>1500</option><option>2000</option></select></label>
    <label><input type="checkbox" name="classical-fishing" checked> Mah Jong on a discard needs fishing first</label>`,
  settings: (f) => ({
    ruleSet: RuleSet.CLASSICAL,
    rules: RulePreset.CLASSICAL_BMJA,
    options: {
      case: "classical",
      value: {
        $typeName: "mahjong.authority.v1.ClassicalOptions",
        rounds: Number(f.get("classical-rounds") || 0),
        limit: Number(f.get("classical-limit") || 0),
        fishingBeforeMahJong: f.get("classical-fishing") === "on",
      },
    },
  }),
  describe: (t) => {
    const n = t.settings?.options.case === "classical" ? t.settings.options.value.rounds : 4;
    return `classical, ${n} wind round${n === 1 ? "" : "s"}`;
  },

  fromView,
  before,

  roundLine: (m) => {
    const st = stateOf(m);
    return `${winds[m.roundWind] ?? ""} round · hand ${st.index + 1}`;
  },
  centre: (m) => [h("span", "", `${seatName(m, m.dealer)} is East`)],
  seatWind: dealerWind,
  badges: (m, seat) => {
    const st = stateOf(m);
    return st.fishing[seat] ? [h("span", "badge fishing", st.original[seat] ? "fishing · original call" : "fishing")] : [];
  },
  seatLines: (m, seat) => {
    const b = stateOf(m).bonus[seat];
    if (!b?.length) return [];
    const el = h("div", "other flowers");
    el.append("flowers and seasons ", tilesEl(b, ["small"]));
    return [el];
  },
  actionName: (a) => classicalNames[a.type],
  result,
};
