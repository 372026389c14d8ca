// Drawing the table from the model: the seats around the centre (the
// viewer at the bottom), the viewer's hand and the buttons built from the
// server's offer, the win screen and the round and game results.

import { ActionType, MeldType, RoundEndKind } from "../../clients/ts/src/gen/mahjong/authority/v1/game_pb.js";
import type { ActionPlain, MeldState, RoundResult, TableModel, WinState } from "./model.js";
import { parse, tileEl, tilesEl } from "./tiles.js";

export const winds = ["", "East", "South", "West", "North"];
const windMarks = ["", "E", "S", "W", "N"];

/** What the table view can ask the page to do. */
export interface Handlers {
  act(a: ActionPlain): void;
  toggleRiichi(): void;
  leave(): void;
  dismiss(): void;
}

/** UI state that is the page's, not the table's. */
export interface UiState {
  riichiMode: boolean;
  busy: boolean;
  status: string; // "connected", "reconnecting ...", an error
  tableId: string;
  dismissed: string; // the seq whose result was closed
}

function h<K extends keyof HTMLElementTagNameMap>(tag: K, cls = "", text = ""): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text) el.textContent = text;
  return el;
}

/** seatWind is the seat's wind in this round (the dealer is east). */
export function seatWind(m: TableModel, seat: number): number {
  return ((seat - m.dealer + 4) % 4) + 1;
}

export function seatName(m: TableModel, seat: number): string {
  const s = m.seats[seat];
  // Bots share a name: the seat number tells them apart.
  const who = !s?.name || s.name === "bot" ? `${s?.bot || s?.name ? "bot" : "seat"} ${seat}` : s.name;
  return seat === m.seat ? `${who} (you)` : who;
}

const actionNames: Record<number, string> = {
  [ActionType.DISCARD]: "Discard",
  [ActionType.RIICHI]: "Riichi",
  [ActionType.CHI]: "Chi",
  [ActionType.PON]: "Pon",
  [ActionType.OPEN_KAN]: "Kan",
  [ActionType.CLOSED_KAN]: "Closed kan",
  [ActionType.ADDED_KAN]: "Added kan",
  [ActionType.TSUMO]: "Tsumo",
  [ActionType.RON]: "Ron",
  [ActionType.PASS]: "Pass",
  [ActionType.NINE_TERMINALS]: "Nine terminals",
};

/** The order of the buttons: wins first, pass last. */
const buttonOrder = [
  ActionType.TSUMO,
  ActionType.RON,
  ActionType.RIICHI,
  ActionType.CLOSED_KAN,
  ActionType.ADDED_KAN,
  ActionType.OPEN_KAN,
  ActionType.PON,
  ActionType.CHI,
  ActionType.NINE_TERMINALS,
  ActionType.PASS,
];

/** buttonsOf: the offer's options that are buttons (discards are tiles), one riichi button for all riichi discards. */
export function buttonsOf(options: ActionPlain[]): ActionPlain[] {
  const out: ActionPlain[] = [];
  for (const t of buttonOrder) {
    const of = options.filter((a) => a.type === t);
    if (t === ActionType.RIICHI) {
      if (of.length > 0) out.push(of[0]);
    } else {
      out.push(...of);
    }
  }
  return out;
}

/** tileKeys label the hand's tiles for the keyboard, left to right, the drawn tile last. */
export const tileKeys = "asdfghjklzxcvb";

/** discardFor is the offered action that discards hand tile t (the drawn one if drawn). */
export function discardFor(options: ActionPlain[], type: ActionType, t: string, drawn: boolean): ActionPlain | undefined {
  const of = options.filter((a) => a.type === type && a.tile === t);
  return of.find((a) => a.tsumogiri === drawn) ?? of[0];
}

function meldEl(m: MeldState): HTMLElement {
  const el = h("span", "meld");
  const closed = m.type === MeldType.CLOSED_KAN;
  m.tiles.forEach((t, i) => {
    const back = closed && (i === 0 || i === m.tiles.length - 1);
    const sideways = !closed && t === m.called && m.tiles.indexOf(t) === i;
    el.append(tileEl(back ? "?" : t, { cls: ["small", ...(sideways ? ["called-in"] : [])] }));
  });
  if (m.added) el.append(tileEl(m.added, { cls: ["small", "called-in"] }));
  return el;
}

function seatPanel(m: TableModel, seat: number, pos: string): HTMLElement {
  const s = m.seats[seat];
  const panel = h("section", `seat pos-${pos}`);
  panel.dataset.seat = String(seat);
  if (m.toAct === seat && !m.result) panel.classList.add("to-act");
  const head = h("header", "seat-head");
  head.append(h("span", "wind", windMarks[seatWind(m, seat)]));
  head.append(h("span", "name", seatName(m, seat)));
  if (s.bot) head.append(h("span", "badge bot", "bot"));
  if (seat === m.dealer) head.append(h("span", "badge dealer", "dealer"));
  if (s.riichi) head.append(h("span", "badge riichi", "riichi"));
  head.append(h("span", "score", s.score.toLocaleString("en")));
  panel.append(head);
  const pond = h("div", "pond");
  for (const d of s.pond) {
    const cls = ["small"];
    if (d.riichi) cls.push("riichi");
    if (d.called) cls.push("called");
    if (d.tsumogiri) cls.push("tsumogiri");
    pond.append(tileEl(d.tile, { cls }));
  }
  panel.append(pond);
  const melds = h("div", "melds");
  for (const ml of s.melds) melds.append(meldEl(ml));
  if (seat !== m.seat) {
    const backs = h("span", "backs");
    backs.textContent = `${s.handSize} tiles`;
    melds.prepend(backs);
  }
  panel.append(melds);
  // Room for other rule sets' seat state: Sichuan's void suit, flowers.
  const voidSuit = m.other.voids?.[seat];
  if (voidSuit) panel.append(h("div", "other", `void: ${voidSuit}`));
  const flowers = m.other.flowers?.[seat];
  if (flowers?.length) {
    const f = h("div", "other");
    f.append("flowers ", tilesEl(flowers, ["small"]));
    panel.append(f);
  }
  return panel;
}

function centre(m: TableModel, ui: UiState): HTMLElement {
  const c = h("section", "centre");
  const round = h("div", "round");
  round.append(h("b", "", `${winds[m.roundWind]} ${m.number}`));
  round.append(h("span", "", ` · ${m.honba} honba · ${m.sticks} riichi stick${m.sticks === 1 ? "" : "s"}`));
  c.append(round);
  const info = h("div", "info");
  const dora = h("span", "dora");
  dora.append("dora ", tilesEl(m.dora, ["small"]));
  info.append(dora, h("span", "wall", `wall ${m.wallLeft}`));
  c.append(info);
  const timer = h("div", "timer");
  timer.id = "timer";
  c.append(timer);
  c.append(h("div", "status", ui.status));
  return c;
}

/** timerText is the countdown of the viewer's offer. */
export function timerText(m: TableModel): string {
  if (!m.offer) {
    return m.seat >= 0 && m.started && !m.final ? `${seatName(m, m.toAct)} to play` : "";
  }
  const left = Math.max(0, Math.ceil((m.offer.deadline - Date.now()) / 1000));
  return `${m.offer.claim ? "claim" : "your turn"}: ${left}s`;
}

function actionLabel(a: ActionPlain): HTMLElement {
  const b = h("span", "label", actionNames[a.type] ?? "?");
  if (a.tiles || ((a.type === ActionType.CLOSED_KAN || a.type === ActionType.ADDED_KAN) && a.tile)) {
    b.append(" ", tilesEl(parse(a.tiles || a.tile), ["small"]));
  }
  return b;
}

function handArea(m: TableModel, ui: UiState, on: Handlers): HTMLElement {
  const area = h("section", "mine");
  const offer = m.offer;
  const discardType = ui.riichiMode ? ActionType.RIICHI : ActionType.DISCARD;
  const playable = offer && !offer.claim && !ui.busy ? offer.options : [];
  const hand = h("div", "hand");
  m.hand.forEach((t, i) => {
    const a = discardFor(playable, discardType, t, false);
    hand.append(
      tileEl(t, {
        onClick: a ? () => on.act(a) : undefined,
        cls: a ? ["playable", ...(ui.riichiMode ? ["riichi-choice"] : [])] : [],
        key: a ? tileKeys[i] : undefined,
      }),
    );
  });
  if (m.drawn) {
    const a = discardFor(playable, discardType, m.drawn, true);
    const drawn = tileEl(m.drawn, {
      onClick: a ? () => on.act(a) : undefined,
      cls: ["drawn", ...(a ? ["playable"] : []), ...(a && ui.riichiMode ? ["riichi-choice"] : [])],
      key: a ? tileKeys[m.hand.length] : undefined,
    });
    hand.append(drawn);
  }
  area.append(hand);
  const bar = h("div", "actions");
  if (offer && !ui.busy) {
    buttonsOf(offer.options).forEach((a, i) => {
      const b = h("button", `act act-${(actionNames[a.type] ?? "x").toLowerCase().replace(/ /g, "-")}`);
      b.type = "button";
      b.dataset.action = ActionType[a.type];
      const k = h("kbd", "", String(i + 1));
      b.append(k, actionLabel(a));
      if (a.type === ActionType.RIICHI) {
        if (ui.riichiMode) b.classList.add("on");
        b.addEventListener("click", () => on.toggleRiichi());
      } else {
        b.addEventListener("click", () => on.act(a));
      }
      bar.append(b);
    });
    if (!offer.claim) bar.append(h("span", "hint", ui.riichiMode ? "choose the riichi discard" : "click a tile to discard it (space: the drawn tile)"));
  }
  area.append(bar);
  if (m.shanten !== undefined) {
    const t = h("div", "tenpai");
    t.textContent = m.shanten === 0 ? `tenpai: waits ${m.waits}${m.furiten ? " (furiten)" : ""}` : `${m.shanten}-shanten`;
    area.append(t);
  }
  return area;
}

function winEl(m: TableModel, w: WinState): HTMLElement {
  const el = h("div", "win");
  el.append(h("h2", "", `${seatName(m, w.seat)} ${w.tsumo ? "tsumo" : `ron from ${seatName(m, w.from)}`}`));
  const hand = h("div", "win-hand");
  hand.append(tilesEl(w.hand));
  for (const ml of w.melds) hand.append(meldEl(ml));
  hand.append(tileEl(w.winTile, { cls: ["win-tile"] }));
  el.append(hand);
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

function payments(m: TableModel, deltas: number[]): HTMLElement {
  const t = h("table", "payments");
  deltas.forEach((d, i) => {
    const tr = h("tr");
    tr.append(h("td", "", seatName(m, i)), h("td", `num ${d > 0 ? "plus" : d < 0 ? "minus" : ""}`, d > 0 ? `+${d}` : String(d)));
    t.append(tr);
  });
  return t;
}

const endNames: Record<number, string> = {
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
function drawEl(m: TableModel, r: RoundResult): HTMLElement {
  const el = h("div", "win draw");
  el.append(h("h2", "", endNames[r.kind] ?? "Round over"));
  const t = h("table", "payments");
  r.deltas.forEach((d, i) => {
    const tr = h("tr");
    const td = h("td");
    if (r.hands[i]) td.append(tilesEl(parse(r.hands[i]), ["small"]));
    tr.append(h("td", "", seatName(m, i) + (r.tenpai[i] ? " · tenpai" : "")), td, h("td", `num ${d > 0 ? "plus" : d < 0 ? "minus" : ""}`, d > 0 ? `+${d}` : String(d)));
    t.append(tr);
  });
  el.append(t);
  return el;
}

function overlay(m: TableModel, ui: UiState, on: Handlers): HTMLElement | undefined {
  if (m.final) {
    const o = h("div", "overlay final");
    const box = h("div", "box");
    box.id = "final";
    box.append(h("h2", "", "Game over"));
    for (const w of m.result?.wins ?? []) box.append(winEl(m, w));
    if (m.result && m.result.kind !== RoundEndKind.WIN) box.append(drawEl(m, m.result));
    const t = h("table", "ranking");
    const order = [0, 1, 2, 3].sort((a, b) => m.final!.ranks[a] - m.final!.ranks[b]);
    for (const s of order) {
      const tr = h("tr");
      tr.dataset.seat = String(s);
      tr.append(h("td", "", `${m.final.ranks[s]}.`), h("td", "", seatName(m, s)), h("td", "num final-score", String(m.final.scores[s])));
      t.append(tr);
    }
    box.append(t);
    const b = h("button", "primary", "Back to the lobby");
    b.type = "button";
    b.addEventListener("click", () => on.leave());
    box.append(b);
    o.append(box);
    return o;
  }
  const r = m.result;
  const wins = r ? r.wins : m.wins;
  if ((!r && wins.length === 0) || ui.dismissed === m.seq) return undefined;
  const o = h("div", "overlay");
  const box = h("div", "box");
  box.id = "result";
  for (const w of wins) box.append(winEl(m, w));
  if (r && r.kind !== RoundEndKind.WIN) box.append(drawEl(m, r));
  if (r) {
    const sc = h("div", "scores");
    sc.textContent = "scores: " + r.scores.map((s, i) => `${seatName(m, i)} ${s}`).join(" · ");
    box.append(sc);
  }
  const b = h("button", "", "Close (Esc)");
  b.type = "button";
  b.addEventListener("click", () => on.dismiss());
  box.append(b);
  o.append(box);
  return o;
}

/** renderTable draws the whole table into root. */
export function renderTable(root: HTMLElement, m: TableModel, ui: UiState, on: Handlers): void {
  const me = m.seat >= 0 ? m.seat : 0;
  const board = h("main", "board");
  const top = h("div", "topbar");
  top.append(h("span", "table-id", `table ${ui.tableId}`));
  if (m.seat < 0) top.append(h("span", "badge", "spectating"));
  const leave = h("button", "", m.seat < 0 ? "Stop watching" : "Leave");
  leave.type = "button";
  leave.addEventListener("click", () => on.leave());
  top.append(leave);
  board.append(top);
  const grid = h("div", "grid");
  const positions = ["bottom", "right", "top", "left"];
  for (let i = 0; i < 4; i++) grid.append(seatPanel(m, (me + i) % 4, positions[i]));
  grid.append(centre(m, ui));
  board.append(grid);
  if (m.seat >= 0) board.append(handArea(m, ui, on));
  const o = overlay(m, ui, on);
  if (o) board.append(o);
  root.replaceChildren(board);
  const t = document.getElementById("timer");
  if (t) t.textContent = timerText(m);
}
