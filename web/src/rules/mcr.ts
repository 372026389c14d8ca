// Chinese Official (MCR, docs/rules/mcr.md): the hand's number of 16 and
// the prevalent wind, each seat's own wind (seats move between rounds),
// flowers set aside with their replacements from the back of the wall,
// and the win screen with every fan, its points and the payments. The
// game ends with table points (McrGameEnded) instead of riichi's
// GameEnded.

import { ActionType, RoundEndKind, type View } from "../../../clients/ts/src/gen/mahjong/authority/v1/game_pb.js";
import { RulePreset, RuleSet } from "../../../clients/ts/src/gen/mahjong/authority/v1/table_service_pb.js";
import type { Event } from "../../../clients/ts/src/gen/mahjong/authority/v1/table_service_pb.js";
import { meldState, newHand, robbed, type Ctx, type MeldState, type TableModel } from "../model.js";
import { parse, sortTiles, tilesEl } from "../tiles.js";
import { h, payments, scoresLine, seatName, winds, winHand } from "../view.js";
import type { RuleSetDef } from "./types.js";

interface McrWin {
  seat: number;
  from: number;
  tsumo: boolean;
  robbedKong: boolean;
  hand: string[];
  melds: MeldState[];
  winTile: string;
  flowers: number;
  fans: { name: string; count: number; points: number }[];
  total: number;
  deltas: number[];
}

export interface McrState {
  /** The hand's place in the game, 0..15. */
  index: number;
  hands: number;
  /** Each seat's wind (1 east .. 4 north). */
  winds: number[];
  flowers: string[][];
  /** The deal's flower replacements are running: they join the hand, not the drawn place. */
  dealing: boolean;
  win?: McrWin;
  tablePoints?: number[];
}

function fresh(hands: number): McrState {
  return { index: 0, hands, winds: [1, 2, 3, 4], flowers: [[], [], [], []], dealing: false };
}

export function stateOf(m: TableModel): McrState {
  return (m.other.mcr as McrState | undefined) ?? fresh(0);
}

const handsOf = (ctx: Ctx) => (ctx.settings?.options.case === "mcr" ? ctx.settings.options.value.hands : 0);

function fromView(m: TableModel, v: View, ctx: Ctx) {
  const st = fresh(handsOf(ctx));
  st.index = v.number;
  if (v.mcr) {
    st.winds = v.mcr.winds.length === 4 ? [...v.mcr.winds] : st.winds;
    st.flowers = [0, 1, 2, 3].map((i) => parse(v.mcr!.flowers[i] ?? ""));
  }
  m.other.mcr = st;
}

function before(m: TableModel, ev: Event, ctx: Ctx): boolean {
  const b = ev.body;
  const st = stateOf(m);
  m.other.mcr = st;
  const me = m.seat;
  switch (b.case) {
    case "mcrHandStarted": {
      const r = b.value;
      newHand(m, { roundWind: r.roundWind, number: r.index, dealer: r.dealer, wallLeft: r.wallLeft, scores: r.scores }, 14);
      const next = fresh(handsOf(ctx));
      next.index = r.index;
      next.winds = [...r.winds];
      next.dealing = true;
      m.other.mcr = next;
      return true;
    }
    case "drew": {
      // A replacement for a flower of the deal goes into the hand; the
      // dealer's turn is still to come.
      const d = b.value;
      if (!st.dealing) return false;
      m.wallLeft = d.wallLeft;
      if (d.seat !== me || d.tile) m.seats[d.seat].handSize++;
      if (d.seat === me && d.tile && d.tile[1] !== "f") m.hand = sortTiles([...m.hand, d.tile]);
      return true;
    }
    case "mcrFlowerSetAside": {
      const f = b.value;
      st.flowers[f.seat].push(f.flower);
      m.seats[f.seat].handSize--;
      const i = f.seat === me ? m.hand.indexOf(f.flower) : -1;
      if (i >= 0) m.hand = [...m.hand.slice(0, i), ...m.hand.slice(i + 1)];
      return true;
    }
    case "mcrWon": {
      const w = b.value;
      st.dealing = false;
      w.scores.forEach((x, i) => (m.seats[i].score = x));
      st.win = {
        seat: w.seat,
        from: w.fromSeat,
        tsumo: w.tsumo,
        robbedKong: w.robbedKong,
        hand: sortTiles(parse(w.hand)),
        melds: w.melds.map(meldState),
        winTile: w.winTile,
        flowers: w.flowers,
        fans: w.fans.map((f) => ({ name: f.name, count: f.count, points: f.points })),
        total: w.total,
        deltas: [...w.deltas],
      };
      if (w.robbedKong) robbed(m, w.fromSeat, w.winTile);
      else if (!w.tsumo) {
        const pond = m.seats[w.fromSeat].pond;
        if (pond.length) pond[pond.length - 1].called = true;
      }
      m.offer = undefined;
      m.resultAt = m.seq;
      return true;
    }
    case "mcrGameEnded": {
      const g = b.value;
      st.tablePoints = [...g.tablePoints];
      // Ranks by score, ties by seat order, as GameEnded's.
      const order = [0, 1, 2, 3].sort((a, c) => g.scores[c] - g.scores[a] || a - c);
      const ranks = [0, 0, 0, 0];
      order.forEach((s, i) => (ranks[s] = i + 1));
      g.scores.forEach((x, i) => (m.seats[i].score = x));
      m.final = { scores: [...g.scores], ranks };
      m.offer = undefined;
      return true;
    }
    case "discarded":
    case "called":
      st.dealing = false;
      return false;
  }
  return false;
}

const nice = (name: string) => name.replace(/_/g, " ");

function winEl(m: TableModel, w: McrWin): HTMLElement {
  const el = h("div", "win");
  const how = w.tsumo ? "self-drawn" : w.robbedKong ? `robbing ${seatName(m, w.from)}'s kong` : `on ${seatName(m, w.from)}'s discard`;
  el.append(h("h2", "", `${seatName(m, w.seat)} wins ${how}`));
  el.append(winHand(w.hand, w.melds, w.winTile));
  const fans = h("table", "yaku fans");
  for (const f of w.fans) {
    const tr = h("tr");
    tr.append(h("td", "", nice(f.name) + (f.count > 1 ? ` ×${f.count}` : "")), h("td", "num", `${f.points} pt`));
    fans.append(tr);
  }
  el.append(fans);
  el.append(h("div", "total", `${w.total} points${w.flowers ? ` (${w.flowers} for flowers)` : ""}`));
  el.append(payments(m, w.deltas));
  return el;
}

function result(m: TableModel): HTMLElement[] {
  const st = stateOf(m);
  const out: HTMLElement[] = [];
  if (st.win) out.push(winEl(m, st.win));
  const r = m.result;
  if (r && r.kind !== RoundEndKind.WIN) {
    const el = h("div", "win draw");
    el.append(h("h2", "", "Draw: the wall is empty"), payments(m, r.deltas));
    out.push(el);
  }
  if (r) out.push(scoresLine(m, r.scores));
  return out;
}

export const mcr: RuleSetDef = {
  id: RuleSet.MCR,
  key: "mcr",
  name: "Chinese Official (MCR)",
  fields: `
    <label>Hands <input name="mcr-hands" type="number" min="1" max="16" value="16"> (1: one hand, for a quick game)</label>`,
  settings: (f) => ({
    ruleSet: RuleSet.MCR,
    rules: RulePreset.MCR,
    options: { case: "mcr", value: { $typeName: "mahjong.authority.v1.McrOptions", hands: Number(f.get("mcr-hands") || 0) } },
  }),
  describe: (t) => {
    const n = t.settings?.options.case === "mcr" ? t.settings.options.value.hands : 16;
    return `MCR, ${n} hand${n === 1 ? "" : "s"}`;
  },

  fromView,
  before,

  roundLine: (m) => {
    const st = stateOf(m);
    return `${winds[m.roundWind] ?? ""} round · hand ${st.index + 1} of ${st.hands || 16}`;
  },
  centre: () => [h("span", "", "8 points to win")],
  seatWind: (m, seat) => stateOf(m).winds[seat] ?? 0,
  badges: () => [],
  seatLines: (m, seat) => {
    const fl = stateOf(m).flowers[seat];
    if (!fl?.length) return [];
    const el = h("div", "other flowers");
    el.append("flowers ", tilesEl(fl, ["small"]));
    return [el];
  },
  actionName: (a) =>
    a.type === ActionType.TSUMO ? "Hu (self-drawn)" : a.type === ActionType.RON ? "Hu" : a.type === ActionType.OPEN_KAN ? "Kong" : undefined,
  result,
  finalExtra: (m) => {
    const st = stateOf(m);
    const out = result(m).filter((e) => !e.classList.contains("scores"));
    if (st.tablePoints) {
      const t = h("table", "payments table-points");
      const head = h("tr");
      head.append(h("th", "", "table points"), h("th"));
      t.append(head);
      st.tablePoints.forEach((p, i) => {
        const tr = h("tr");
        tr.append(h("td", "", seatName(m, i)), h("td", "num", String(p)));
        t.append(tr);
      });
      out.push(t);
    }
    return out;
  },
};
