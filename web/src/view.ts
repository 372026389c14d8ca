// Drawing the table from the model, the same for every rule set: the seats
// around the centre (the viewer at the bottom), the viewer's hand and the
// buttons built from the server's offer, the hand's result and the game's.
// What a rule set shows of its own comes from its descriptor (src/rules/).

import { ActionType, MeldType } from "../../clients/ts/src/gen/mahjong/authority/v1/game_pb.js";
import type { ActionPlain, MeldState, TableModel } from "./model.js";
import type { Handlers, RuleSetDef, UiState } from "./rules/types.js";
import { parse, tileEl, tilesEl } from "./tiles.js";

export type { Handlers, UiState };

export const winds = ["", "East", "South", "West", "North"];
export const windMarks = ["", "E", "S", "W", "N"];

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, cls = "", text = ""): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text) el.textContent = text;
  return el;
}

/** dealerWind is the seat's wind counted from the dealer (east). */
export function dealerWind(m: TableModel, seat: number): number {
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
  [ActionType.CLASSICAL_FISH]: "Fishing",
};

/** The order of the buttons: wins first, pass last. */
const buttonOrder = [
  ActionType.TSUMO,
  ActionType.RON,
  ActionType.RIICHI,
  ActionType.CLASSICAL_FISH,
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

export function meldEl(m: MeldState): HTMLElement {
  const el = h("span", "meld");
  const closed = m.type === MeldType.CLOSED_KAN;
  // An added kan's fourth tile is drawn sideways on its pon, once.
  const tiles = m.added && m.tiles.length === 4 ? m.tiles.slice(0, 3) : m.tiles;
  tiles.forEach((t, i) => {
    const back = closed && (i === 0 || i === tiles.length - 1);
    const sideways = !closed && t === m.called && tiles.indexOf(t) === i;
    el.append(tileEl(back ? "?" : t, { cls: ["small", ...(sideways ? ["called-in"] : [])] }));
  });
  if (m.added) el.append(tileEl(m.added, { cls: ["small", "called-in"] }));
  return el;
}

function seatPanel(m: TableModel, def: RuleSetDef, seat: number, pos: string): HTMLElement {
  const s = m.seats[seat];
  const panel = h("section", `seat pos-${pos}`);
  panel.dataset.seat = String(seat);
  panel.classList.add(...(def.seatClasses?.(m, seat) ?? []));
  if (m.toAct === seat && !m.resultAt) panel.classList.add("to-act");
  const head = h("header", "seat-head");
  head.append(h("span", "wind", windMarks[def.seatWind(m, seat)] ?? ""));
  head.append(h("span", "name", seatName(m, seat)));
  if (s.bot) head.append(h("span", "badge bot", "bot"));
  if (seat === m.dealer) head.append(h("span", "badge dealer", "dealer"));
  if (s.riichi) head.append(h("span", "badge riichi", "riichi"));
  head.append(...def.badges(m, seat));
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
  panel.append(...def.seatLines(m, seat));
  return panel;
}

function centre(m: TableModel, def: RuleSetDef, ui: UiState): HTMLElement {
  const c = h("section", "centre");
  const round = h("div", "round");
  round.append(h("b", "", def.roundLine(m)));
  c.append(round);
  const info = h("div", "info");
  info.append(...def.centre(m), h("span", "wall", `wall ${m.wallLeft}`));
  c.append(info);
  const timer = h("div", "timer");
  timer.id = "timer";
  c.append(timer);
  const note = def.notice?.(m);
  if (note) c.append(note);
  c.append(h("div", "status", ui.status));
  return c;
}

/** timerText is the countdown of the viewer's offer. */
export function timerText(m: TableModel): string {
  if (!m.offer) {
    return m.seat >= 0 && m.started && !m.final && !m.resultAt ? `${seatName(m, m.toAct)} to play` : "";
  }
  const left = Math.max(0, Math.ceil((m.offer.deadline - Date.now()) / 1000));
  const what = m.offer.choice ?? (m.offer.claim ? "claim" : "your turn");
  return `${what}: ${left}s`;
}

/** runOf is the three tiles of a run from its lowest. */
function runOf(low: string): string[] {
  const n = Number(low[0] === "0" ? "5" : low[0]);
  return [0, 1, 2].map((d) => `${n + d}${low[1]}`);
}

/** The tiles a button shows: the call's own tiles, the run of a chi, the kind of a pon or kan. */
function actionTiles(a: ActionPlain): string[] {
  if (a.tiles) return parse(a.tiles);
  if (a.type === ActionType.CHI && (a.run || a.tile)) return runOf(a.run || a.tile);
  if (!a.tile) return [];
  if (a.type === ActionType.PON) return [a.tile, a.tile, a.tile];
  if (a.type === ActionType.OPEN_KAN || a.type === ActionType.CLOSED_KAN || a.type === ActionType.ADDED_KAN) return [a.tile];
  return [];
}

export function actionName(def: RuleSetDef, a: ActionPlain): string {
  return def.actionName?.(a) ?? actionNames[a.type] ?? "?";
}

function actionLabel(def: RuleSetDef, a: ActionPlain): HTMLElement {
  const b = h("span", "label", actionName(def, a));
  const ts = actionTiles(a);
  if (ts.length) b.append(" ", tilesEl(ts, ["small"]));
  return b;
}

/** actClass is the button's class: act-<the action type's name>, the same in every rule set. */
export function actClass(type: ActionType): string {
  return `act-${(ActionType[type] ?? "x").toLowerCase().replace(/_/g, "-")}`;
}

function handArea(m: TableModel, def: RuleSetDef, ui: UiState, on: Handlers): HTMLElement {
  const area = h("section", "mine");
  const offer = m.offer;
  const discardType = ui.riichiMode ? ActionType.RIICHI : ActionType.DISCARD;
  const playable = offer && !offer.claim && !offer.choice && !ui.busy ? offer.options : [];
  const hand = h("div", "hand");
  const tiles = m.drawn ? [...m.hand, m.drawn] : m.hand;
  tiles.forEach((t, i) => {
    const drawn = i === m.hand.length;
    const extra = [...(drawn ? ["drawn", ...(m.replacement ? ["replacement"] : [])] : []), ...(def.tileClasses?.(m, t) ?? [])];
    const own = offer?.choice && !ui.busy ? def.handTile?.(m, ui, on, i, t) : undefined;
    if (own) {
      hand.append(tileEl(t, { onClick: own.onClick, cls: [...extra, ...own.cls], key: own.key }));
      return;
    }
    const a = discardFor(playable, discardType, t, drawn);
    hand.append(
      tileEl(t, {
        onClick: a ? () => on.act(a) : undefined,
        cls: [...extra, ...(a ? ["playable", ...(ui.riichiMode ? ["riichi-choice"] : [])] : [])],
        key: a ? tileKeys[i] : undefined,
      }),
    );
  });
  area.append(hand);
  const bar = h("div", "actions");
  if (offer?.choice) {
    if (!ui.busy) bar.append(...(def.choice?.(m, ui, on) ?? []));
  } else if (offer && !ui.busy) {
    buttonsOf(offer.options).forEach((a, i) => {
      const b = h("button", `act ${actClass(a.type)}`);
      b.type = "button";
      b.dataset.action = ActionType[a.type];
      const k = h("kbd", "", String(i + 1));
      b.append(k, actionLabel(def, a));
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

/** signed is a score change as shown: +8, -8, 0. */
export function signed(d: number): string {
  return d > 0 ? `+${d}` : String(d);
}

export function deltaCell(d: number): HTMLTableCellElement {
  return h("td", `num ${d > 0 ? "plus" : d < 0 ? "minus" : ""}`, signed(d));
}

/** payments is a table of each seat's score change. */
export function payments(m: TableModel, deltas: number[]): HTMLElement {
  const t = h("table", "payments");
  deltas.forEach((d, i) => {
    const tr = h("tr");
    tr.append(h("td", "", seatName(m, i)), deltaCell(d));
    t.append(tr);
  });
  return t;
}

/** winHand is a winning hand: its concealed tiles, its melds, the winning tile apart. */
export function winHand(hand: string[], melds: MeldState[], winTile: string): HTMLElement {
  const el = h("div", "win-hand");
  el.append(tilesEl(hand));
  for (const ml of melds) el.append(meldEl(ml));
  el.append(tileEl(winTile, { cls: ["win-tile"] }));
  return el;
}

/** scoresLine is every seat's score after the hand. */
export function scoresLine(m: TableModel, scores: number[]): HTMLElement {
  return h("div", "scores", "scores: " + scores.map((s, i) => `${seatName(m, i)} ${s}`).join(" · "));
}

function overlay(m: TableModel, def: RuleSetDef, ui: UiState, on: Handlers): HTMLElement | undefined {
  if (m.final) {
    const o = h("div", "overlay final");
    const box = h("div", "box");
    box.id = "final";
    box.append(h("h2", "", "Game over"));
    box.append(...(def.finalExtra ?? def.result)(m));
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
  if (!m.resultAt || ui.dismissed === m.resultAt) return undefined;
  const o = h("div", "overlay");
  const box = h("div", "box");
  box.id = "result";
  box.append(...def.result(m));
  const b = h("button", "", "Close (Esc)");
  b.type = "button";
  b.addEventListener("click", () => on.dismiss());
  box.append(b);
  o.append(box);
  return o;
}

/** renderTable draws the whole table into root. */
export function renderTable(root: HTMLElement, m: TableModel, def: RuleSetDef, ui: UiState, on: Handlers): void {
  const me = m.seat >= 0 ? m.seat : 0;
  const board = h("main", `board rules-${def.key}`);
  const top = h("div", "topbar");
  top.append(h("span", "table-id", `${def.name} · table ${ui.tableId}`));
  if (m.seat < 0) top.append(h("span", "badge", "spectating"));
  const leave = h("button", "", m.seat < 0 ? "Stop watching" : "Leave");
  leave.type = "button";
  leave.addEventListener("click", () => on.leave());
  top.append(leave);
  board.append(top);
  const grid = h("div", "grid");
  const positions = ["bottom", "right", "top", "left"];
  for (let i = 0; i < 4; i++) grid.append(seatPanel(m, def, (me + i) % 4, positions[i]));
  grid.append(centre(m, def, ui));
  board.append(grid);
  if (m.seat >= 0) board.append(handArea(m, def, ui, on));
  const o = overlay(m, def, ui, on);
  if (o) board.append(o);
  root.replaceChildren(board);
  const t = document.getElementById("timer");
  if (t) t.textContent = timerText(m);
}
