// Drawing a Dou Dizhu table from its model: the two other seats left and
// right (the next seat to play on the right), the kitty, the stake and the
// play to beat in the centre, the viewer's cards and the buttons built from
// the server's offer at the bottom, and the deal's and the match's results.

import { Bidding, Phase, PlayType } from "../../../clients/ts/src/gen/doudizhu/authority/v1/doudizhu_pb.js";
import { cardEl, cardsEl } from "./cards.js";
import { answer, classify, legal, RANKS, type JPlay } from "./judge.js";
import { stake, type DdzModel, type OfferPlain, type PlayPlain } from "./model.js";

/** The table's settings the page shows. */
export interface TableInfo {
  tableId: string;
  bidding: Bidding;
  deals: number;
  bombCap: number;
  turnMs: number;
}

/** UI state that is the page's, not the table's. */
export interface DdzUi {
  /** the selected cards: indexes into the model's hand (sorted low to high) */
  selected: number[];
  /** the hint shown last, to step to the next */
  hint: number;
  busy: boolean;
  status: string;
  dismissed: string; // the seq whose deal result was closed
}

export interface DdzHandlers {
  toggle(i: number): void;
  select(cards: string): void;
  bid(n: number): void;
  call(): void;
  rob(): void;
  pass(): void;
  play(): void;
  hint(): void;
  leave(): void;
  dismiss(): void;
}

function h<K extends keyof HTMLElementTagNameMap>(tag: K, cls = "", text = ""): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text) el.textContent = text;
  return el;
}

function button(text: string, cls: string, onClick: () => void, key = ""): HTMLButtonElement {
  const b = h("button", cls);
  b.type = "button";
  if (key) b.append(h("kbd", "", key));
  b.append(text);
  b.addEventListener("click", onClick);
  return b;
}

export function seatName(m: DdzModel, seat: number): string {
  const s = m.names[seat];
  const who = !s?.name || s.name === "bot" ? `${s?.bot || s?.name ? "bot" : "seat"} ${seat}` : s.name;
  return seat === m.seat ? `${who} (you)` : who;
}

const typeNames: Record<number, string> = {
  [PlayType.SINGLE]: "single",
  [PlayType.PAIR]: "pair",
  [PlayType.TRIO]: "trio",
  [PlayType.BOMB]: "bomb",
  [PlayType.ROCKET]: "rocket",
  [PlayType.TRIO_SINGLE]: "trio with a single",
  [PlayType.TRIO_PAIR]: "trio with a pair",
  [PlayType.STRAIGHT]: "straight",
  [PlayType.PAIR_CHAIN]: "pair chain",
  [PlayType.AIRPLANE]: "airplane",
  [PlayType.AIRPLANE_SINGLE_WINGS]: "airplane with single wings",
  [PlayType.AIRPLANE_PAIR_WINGS]: "airplane with pair wings",
  [PlayType.FOUR_TWO_SINGLES]: "four with two singles",
  [PlayType.FOUR_TWO_PAIRS]: "four with two pairs",
};

export const typeName = (t: number) => typeNames[t] ?? "no play";

/**
 * toBeat is the play on the table as the server read it: cards that read
 * two ways (333444555666) are compared as the server's reading, not the
 * page's first one.
 */
export function toBeat(p: PlayPlain): JPlay {
  return { type: p.type, rank: Math.max(0, RANKS.indexOf(p.rank)), len: p.length || 1, cards: p.cards };
}

/** selection is the selected cards, sorted low to high. */
export function selection(m: DdzModel, ui: DdzUi): string {
  return [...ui.selected]
    .sort((a, b) => a - b)
    .map((i) => m.hand[i] ?? "")
    .join("");
}

/** reading is what the selection plays as against the offer: a play, or why not. */
export function reading(sel: string, offer: OfferPlain | undefined): { play?: JPlay; why: string } {
  if (!offer || !offer.play) return { why: "" };
  if (!sel) return { why: "select cards" };
  if (offer.mustLead || !offer.toBeat) {
    const p = classify(sel);
    return p.type ? { play: p, why: "" } : { why: "not a play" };
  }
  const p = answer(sel, toBeat(offer.toBeat));
  return p ? { play: p, why: "" } : { why: classify(sel).type ? `does not beat the ${typeName(offer.toBeat.type)}` : "not a play" };
}

/**
 * hints are the plays the client's judge finds: every answer to the play
 * to beat, or, leading, the lowest lead of each type.
 */
export function hints(m: DdzModel): JPlay[] {
  const o = m.offer;
  if (!o || !o.play || m.phase !== Phase.PLAYING) return [];
  // Every redraw asks; a hand rich in trios leads thousands of ways.
  const key = `${m.hand}|${o.mustLead || !o.toBeat ? "" : o.toBeat.cards}`;
  if (memo.key === key) return memo.plays;
  let plays: JPlay[];
  if (!o.mustLead && o.toBeat) plays = legal(m.hand, toBeat(o.toBeat));
  else {
    const seen = new Set<number>();
    plays = legal(m.hand)
      .sort((a, b) => a.type - b.type || a.rank - b.rank || b.cards.length - a.cards.length)
      .filter((p) => !seen.has(p.type) && seen.add(p.type));
  }
  memo.key = key;
  memo.plays = plays;
  return plays;
}

const memo: { key: string; plays: JPlay[] } = { key: "", plays: [] };

function playEl(p: PlayPlain | undefined): HTMLElement {
  const el = h("span", "play");
  if (p) el.append(cardsEl(p.cards), h("span", "play-type", typeName(p.type)));
  return el;
}

function roleBadges(m: DdzModel, seat: number, panel: HTMLElement) {
  const s = m.names[seat];
  if (s?.bot) panel.append(h("span", "badge bot", "bot"));
  if (m.hasLandlord) panel.append(h("span", `badge ${m.landlord === seat ? "landlord" : "farmer"}`, m.landlord === seat ? "landlord" : "farmer"));
  else if (m.phase === Phase.BIDDING && m.hasBid && m.bidder === seat) panel.append(h("span", "badge bidder", "high bid"));
}

/** moveEl is what the seat did last: its bid during the bidding, its move in the trick while playing. */
function moveEl(m: DdzModel, seat: number): HTMLElement {
  const el = h("div", "move");
  el.dataset.seat = String(seat);
  if (m.phase === Phase.BIDDING) {
    const said = m.said[seat];
    if (said) el.append(h("span", `said ${said === "pass" ? "pass" : ""}`, /^\d$/.test(said) ? `bid ${said}` : said));
  } else {
    const t = m.trick[seat];
    if (t === "pass") el.append(h("span", "said pass", "pass"));
    else if (t) el.append(cardsEl(t));
  }
  return el;
}

function seatPanel(m: DdzModel, seat: number, pos: string): HTMLElement {
  const panel = h("section", `seat ddz-seat pos-${pos}`);
  panel.dataset.seat = String(seat);
  if (m.toAct === seat && (m.phase === Phase.BIDDING || m.phase === Phase.PLAYING)) panel.classList.add("to-act");
  const head = h("header", "seat-head");
  head.append(h("span", "name", seatName(m, seat)));
  roleBadges(m, seat, head);
  head.append(h("span", "score", String(m.scores[seat])));
  panel.append(head);
  const left = h("div", "left");
  const n = m.left[seat];
  const backs = h("span", "backs");
  for (let i = 0; i < Math.min(n, 20); i++) backs.append(cardEl("?", { small: true }));
  left.append(backs, h("span", "count", `${n} card${n === 1 ? "" : "s"}`));
  if (seat !== m.seat || m.seat < 0) panel.append(left);
  panel.append(moveEl(m, seat));
  return panel;
}

function centre(m: DdzModel, info: TableInfo, ui: DdzUi): HTMLElement {
  const c = h("section", "centre ddz-centre");
  const kitty = h("div", "kitty");
  kitty.append(h("span", "label", "kitty "));
  if (m.kitty) kitty.append(cardsEl(m.kitty));
  else kitty.append(cardsEl("???"));
  c.append(kitty);
  const phase = h("div", "phase");
  if (m.phase === Phase.BIDDING) {
    phase.textContent = info.bidding === Bidding.CALL_ROB ? `Calling and robbing · base ${m.base || 1}` : `Bidding · ${m.hasBid ? `high bid ${m.base}` : "no bid yet"}`;
  } else if (m.hasLandlord) {
    phase.textContent = `Landlord: ${seatName(m, m.landlord)}`;
  } else if (m.phase === Phase.MATCH_OVER) phase.textContent = "Match over";
  c.append(phase);
  if (m.lastDeal && m.phase === Phase.BIDDING) {
    const r = m.lastDeal;
    const me = m.seat >= 0 ? m.seat : r.landlord;
    c.append(h("div", "note", `last deal: ${r.landlordWon ? "the landlord" : "the farmers"} won · stake ${r.stake} · ${seatName(m, me)} ${signed(r.deltas[me])}`));
  }
  if (m.thrownIn > 0 && m.phase === Phase.BIDDING) c.append(h("div", "note", `everyone passed: dealt again (${m.thrownIn})`));
  const mult = h("div", "stake");
  mult.id = "ddz-stake";
  if (m.hasLandlord || m.phase === Phase.PLAYING) {
    const cap = info.bombCap > 0 && m.bombs > info.bombCap ? ` (cap ${info.bombCap})` : "";
    mult.textContent = `base ${m.base} · bombs ${m.bombs}${cap} · stake ${stake(m, info.bombCap)}`;
  }
  c.append(mult);
  const last = h("div", "last");
  last.id = "ddz-last";
  if (m.last) {
    last.append(h("span", "by", `${seatName(m, m.lastBy)}: `), playEl(m.last));
  } else if (m.phase === Phase.PLAYING) {
    last.textContent = `${seatName(m, m.toAct)} leads`;
  }
  c.append(last);
  const timer = h("div", "timer");
  timer.id = "timer";
  c.append(timer, h("div", "status", ui.status));
  return c;
}

/** timerText is the countdown of the viewer's offer, or who is to act. */
export function timerText(m: DdzModel): string {
  if (m.phase !== Phase.BIDDING && m.phase !== Phase.PLAYING) return "";
  if (!m.offer) return `${seatName(m, m.toAct)} to ${m.phase === Phase.BIDDING ? "bid" : "play"}`;
  const left = Math.max(0, Math.ceil((m.offer.deadline - Date.now()) / 1000));
  return `your turn: ${left}s`;
}

function mine(m: DdzModel, ui: DdzUi, info: TableInfo, on: DdzHandlers): HTMLElement {
  const area = h("section", "mine ddz-mine");
  const head = h("header", "seat-head");
  head.append(h("span", "name", seatName(m, m.seat)));
  roleBadges(m, m.seat, head);
  head.append(h("span", "score", String(m.scores[m.seat])));
  area.append(head, moveEl(m, m.seat));
  const o = m.offer;
  const playing = !!o && o.play && !ui.busy && m.phase === Phase.PLAYING;
  const hand = h("div", "ddz-hand");
  const chosen = new Set(ui.selected);
  // Held high to low, left to right.
  for (let i = m.hand.length - 1; i >= 0; i--) {
    hand.append(cardEl(m.hand[i], { selected: chosen.has(i), onClick: () => on.toggle(i), index: i }));
  }
  area.append(hand);
  const bar = h("div", "actions");
  if (o && !ui.busy && m.phase === Phase.BIDDING) {
    for (const b of o.bids) {
      const el = button(`Bid ${b}`, "act act-bid", () => on.bid(b), String(b));
      el.dataset.bid = String(b);
      bar.append(el);
    }
    if (o.call) bar.append(button("Call landlord", "act act-call primary", () => on.call(), "c"));
    if (o.rob) bar.append(button("Rob", "act act-rob primary", () => on.rob(), "r"));
    if (o.pass) bar.append(button(info.bidding === Bidding.CALL_ROB ? (o.rob ? "Don't rob" : "Don't call") : "No bid", "act act-pass", () => on.pass(), "p"));
  }
  if (o && !ui.busy && m.phase === Phase.PLAYING) {
    const sel = selection(m, ui);
    const r = reading(sel, o);
    const play = button(r.play ? `Play ${typeName(r.play.type)}` : "Play", "act act-play primary", () => on.play(), "Enter");
    play.id = "ddz-play";
    play.disabled = !r.play;
    if (o.play) bar.append(play);
    if (o.pass) bar.append(button("Pass", "act act-pass", () => on.pass(), "p"));
    if (o.play) bar.append(button("Hint", "act act-hint", () => on.hint(), "h"));
    const note = !o.play ? "nothing beats it: pass" : r.why || (o.mustLead ? "you lead: any play" : "");
    if (note) bar.append(h("span", "hint", note));
  }
  area.append(bar);
  if (playing) {
    const list = hints(m);
    const el = h("div", "hints");
    el.append(h("span", "label", list.length ? (o!.mustLead ? "leads:" : "beats it:") : "no play beats it"));
    list.slice(0, 12).forEach((p) => {
      const b = h("button", "hint-play");
      b.type = "button";
      b.dataset.cards = p.cards;
      b.title = typeName(p.type);
      b.append(cardsEl(p.cards));
      b.addEventListener("click", () => on.select(p.cards));
      el.append(b);
    });
    if (list.length > 12) el.append(h("span", "more", `+${list.length - 12} more (h steps through all)`));
    area.append(el);
  }
  area.append(h("div", "keys", keyHelp));
  return area;
}

function scoreRows(m: DdzModel, head: string[], cols: (s: number) => (string | HTMLElement)[]): HTMLTableElement {
  const t = h("table", "payments");
  const hr = h("tr");
  head.forEach((c, i) => hr.append(h("th", i >= 2 ? "num" : "", c)));
  t.append(hr);
  for (const s of [0, 1, 2]) {
    const tr = h("tr");
    tr.dataset.seat = String(s);
    for (const c of cols(s)) {
      const td = h("td");
      td.append(c);
      tr.append(td);
    }
    t.append(tr);
  }
  return t;
}

const signed = (d: number) => (d > 0 ? `+${d}` : String(d));

function resultEl(m: DdzModel): HTMLElement {
  const r = m.result!;
  const el = h("div", "win ddz-result");
  el.append(h("h2", "", `${r.landlordWon ? "The landlord wins" : "The farmers win"}${r.spring ? " · spring" : r.antiSpring ? " · anti-spring" : ""}`));
  const parts = [`base ${r.base}`, `bombs and rockets ${r.bombs}`, `doublings ${r.doublings}`];
  if (r.spring || r.antiSpring) parts.push("spring x2");
  parts.push(`stake ${r.stake}`);
  el.append(h("div", "total", parts.join(" · ")));
  el.append(
    scoreRows(m, ["", "cards left", "deal", "total"], (s) => [
      seatName(m, s) + (s === r.landlord ? " · landlord" : ""),
      r.hands[s] ? cardsEl(r.hands[s]) : s === r.winner ? "out" : "",
      h("span", `num delta ${r.deltas[s] > 0 ? "plus" : r.deltas[s] < 0 ? "minus" : ""}`, signed(r.deltas[s])),
      h("span", "num total-score", String(r.scores[s])),
    ]),
  );
  return el;
}

function overlay(m: DdzModel, ui: DdzUi, info: TableInfo, on: DdzHandlers): HTMLElement | undefined {
  if (m.final) {
    const o = h("div", "overlay final");
    const box = h("div", "box");
    box.id = "final";
    box.append(h("h2", "", "Match over"));
    if (m.result) box.append(resultEl(m));
    const t = h("table", "ranking");
    const order = [0, 1, 2].sort((a, b) => m.final!.ranks[a] - m.final!.ranks[b]);
    for (const s of order) {
      const tr = h("tr");
      tr.dataset.seat = String(s);
      tr.append(h("td", "", `${m.final.ranks[s]}.`), h("td", "", seatName(m, s)), h("td", "num final-score", String(m.final.scores[s])));
      t.append(tr);
    }
    box.append(t, button("Back to the lobby", "primary", () => on.leave()));
    o.append(box);
    return o;
  }
  if (!m.result || ui.dismissed === m.seq) return undefined;
  const o = h("div", "overlay");
  const box = h("div", "box");
  box.id = "result";
  box.append(resultEl(m));
  box.append(h("div", "scores", `deal ${m.number} of ${info.deals}: the next deal starts by itself`));
  box.append(button("Close (Esc)", "", () => on.dismiss()));
  o.append(box);
  return o;
}

/** renderDdz draws the whole table into root. */
export function renderDdz(root: HTMLElement, m: DdzModel, ui: DdzUi, info: TableInfo, on: DdzHandlers): void {
  const me = m.seat >= 0 ? m.seat : 0;
  const board = h("main", "board ddz");
  const top = h("div", "topbar");
  top.append(h("span", "table-id", `table ${info.tableId}`));
  top.append(
    h(
      "span",
      "deal",
      `Dou Dizhu · ${info.bidding === Bidding.CALL_ROB ? "call and rob" : "bid 1-3"} · deal ${Math.max(m.number, 1)} of ${info.deals}${info.bombCap ? ` · bomb cap ${info.bombCap}` : ""}`,
    ),
  );
  if (m.seat < 0) top.append(h("span", "badge", "spectating"));
  top.append(button(m.seat < 0 ? "Stop watching" : "Leave", "", () => on.leave()));
  board.append(top);
  const grid = h("div", "ddz-grid");
  // Play goes to the next seat: on the viewer's right.
  grid.append(seatPanel(m, (me + 2) % 3, "left"), centre(m, info, ui), seatPanel(m, (me + 1) % 3, "right"));
  if (m.seat < 0) grid.append(seatPanel(m, me, "bottom"));
  board.append(grid);
  if (m.seat >= 0) board.append(mine(m, ui, info, on));
  const o = overlay(m, ui, info, on);
  if (o) board.append(o);
  root.replaceChildren(board);
  const t = document.getElementById("timer");
  if (t) t.textContent = timerText(m);
}

/** keyHelp is the keyboard's short help, shown under the hand. */
export const keyHelp = `keys: 3-9 0 J Q K A 2 X D select a card of that rank (again: another), Enter play, P pass, H hint, Esc clear; bidding: 1 2 3, C call, R rob, P pass`;
