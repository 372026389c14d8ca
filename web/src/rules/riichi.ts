// Riichi: the shared model's own fields (dora, honba, riichi sticks and
// declarations) and its win screen with yaku, han, fu and the payments.

import { RoundEndKind } from "../../../clients/ts/src/gen/mahjong/authority/v1/game_pb.js";
import { RulePreset, RuleSet } from "../../../clients/ts/src/gen/mahjong/authority/v1/table_service_pb.js";
import type { RoundResult, TableModel, WinState } from "../model.js";
import { parse, tilesEl } from "../tiles.js";
import { dealerWind, deltaCell, h, payments, scoresLine, seatName, winds, winHand } from "../view.js";
import type { RuleSetDef } from "./types.js";

function winEl(m: TableModel, w: WinState): HTMLElement {
  const el = h("div", "win");
  el.append(h("h2", "", `${seatName(m, w.seat)} ${w.tsumo ? "tsumo" : `ron from ${seatName(m, w.from)}`}`));
  el.append(winHand(w.hand, w.melds, w.winTile));
  const ind = h("div", "indicators");
  ind.append("dora ", tilesEl(m.dora, ["small"]));
  if (w.ura.length) ind.append(" ura ", tilesEl(w.ura, ["small"]));
  el.append(ind);
  const yaku = h("table", "yaku");
  for (const y of w.yaku) {
    const tr = h("tr");
    tr.append(h("td", "", y.name), h("td", "num", w.yakuman ? "yakuman" : `${y.han} han`));
    yaku.append(tr);
  }
  el.append(yaku);
  const total = w.yakuman ? `${w.yakuman > 1 ? w.yakuman + "x " : ""}yakuman` : `${w.han} han ${w.fu} fu`;
  el.append(h("div", "total", `${total}${w.limit && w.limit !== "none" ? " · " + w.limit : ""} · ${w.points.toLocaleString("en")} points`));
  el.append(payments(m, w.deltas));
  return el;
}

export const endNames: Record<number, string> = {
  [RoundEndKind.WIN]: "Win",
  [RoundEndKind.EXHAUSTIVE]: "Exhaustive draw",
  [RoundEndKind.NAGASHI]: "Nagashi mangan",
  [RoundEndKind.NINE_TERMINALS]: "Nine terminals abort",
  [RoundEndKind.FOUR_WINDS]: "Four winds abort",
  [RoundEndKind.FOUR_RIICHI]: "Four riichi abort",
  [RoundEndKind.FOUR_KANS]: "Four kans abort",
  [RoundEndKind.TRIPLE_RON]: "Triple ron abort",
};

/** drawEl is a round that ended without a win: how, who was tenpai (their hands shown), the payments. */
export function drawEl(m: TableModel, r: RoundResult): HTMLElement {
  const el = h("div", "win draw");
  el.append(h("h2", "", endNames[r.kind] ?? "Round over"));
  const t = h("table", "payments");
  r.deltas.forEach((d, i) => {
    const tr = h("tr");
    const td = h("td");
    if (r.hands[i]) td.append(tilesEl(parse(r.hands[i]), ["small"]));
    tr.append(h("td", "", seatName(m, i) + (r.tenpai[i] ? " · tenpai" : "")), td, deltaCell(d));
    t.append(tr);
  });
  el.append(t);
  return el;
}

export const riichi: RuleSetDef = {
  id: RuleSet.RIICHI,
  key: "riichi",
  name: "Riichi",
  fields: `
    <label>Length <select name="rules">
      <option value="tonpuu">East only (tonpuu)</option>
      <option value="hanchan">East-south (hanchan)</option>
    </select></label>`,
  settings: (f) => ({
    ruleSet: RuleSet.RIICHI,
    rules: f.get("rules") === "hanchan" ? RulePreset.TENHOU_HANCHAN : RulePreset.TENHOU_TONPUU,
  }),
  describe: (t) => (t.settings?.rules === RulePreset.TENHOU_HANCHAN ? "riichi, east-south" : "riichi, east only"),

  roundLine: (m) => `${winds[m.roundWind]} ${m.number}`,
  centre: (m) => {
    const sticks = h("span", "", `${m.honba} honba · ${m.sticks} riichi stick${m.sticks === 1 ? "" : "s"}`);
    const dora = h("span", "dora");
    dora.append("dora ", tilesEl(m.dora, ["small"]));
    return [sticks, dora];
  },
  seatWind: dealerWind,
  badges: () => [],
  seatLines: () => [],
  result: (m) => {
    const r = m.result;
    const out: HTMLElement[] = (r ? r.wins : m.wins).map((w) => winEl(m, w));
    if (r && r.kind !== RoundEndKind.WIN) out.push(drawEl(m, r));
    if (r) out.push(scoresLine(m, r.scores));
    return out;
  },
  finalExtra: (m) => {
    const r = m.result;
    const out: HTMLElement[] = (r?.wins ?? []).map((w) => winEl(m, w));
    if (r && r.kind !== RoundEndKind.WIN) out.push(drawEl(m, r));
    return out;
  },
};
