// Cards drawn as text. The server writes a card as its rank alone
// ("3456789TJQKA2XD"): suits play no part in Dou Dizhu and the API does
// not carry them, so a card shows its rank (10 for T) and the jokers show
// JOKER, black for the small one (X), red for the big one (D).

import { RANKS } from "./judge.js";

/** face is what a card shows. */
export function face(c: string): string {
  return c === "T" ? "10" : c === "X" || c === "D" ? "JOKER" : c;
}

/** keyOf is the key that selects a card of rank c: its face, 0 or t for 10, x and d the jokers. */
export function keyOf(c: string): string {
  return c === "T" ? "0" : c.toLowerCase();
}

/** rankOfKey is the rank a key selects, or "". */
export function rankOfKey(key: string): string {
  const k = key.toUpperCase();
  if (k === "0") return "T";
  return k.length === 1 && RANKS.includes(k) ? k : "";
}

export interface CardOpts {
  small?: boolean;
  selected?: boolean;
  onClick?: () => void;
  index?: number;
}

/** cardEl draws one card; "?" its back. */
export function cardEl(c: string, o: CardOpts = {}): HTMLElement {
  const el = document.createElement(o.onClick ? "button" : "span");
  el.className = "card-face";
  if (o.small) el.classList.add("small");
  if (c === "?") {
    el.classList.add("back");
    return el;
  }
  if (c === "X") el.classList.add("joker", "black");
  if (c === "D") el.classList.add("joker", "red");
  if (o.selected) el.classList.add("selected");
  el.dataset.card = c;
  if (o.index !== undefined) el.dataset.index = String(o.index);
  el.title = c === "X" ? "small joker" : c === "D" ? "big joker" : face(c);
  const f = face(c);
  if (c === "T") el.classList.add("ten");
  // A joker: JOKER down a big card, JK on a small one.
  el.innerHTML = c === "X" || c === "D" ? `<b class="j">${f}</b><b class="jk">JK</b>` : `<b>${f}</b><i>${f}</i>`;
  if (o.onClick) {
    (el as HTMLButtonElement).type = "button";
    el.addEventListener("click", o.onClick);
  }
  return el;
}

/** cardsEl draws cards (high to low, as a hand is held); "" draws nothing. */
export function cardsEl(cards: string, small = true): HTMLElement {
  const row = document.createElement("span");
  row.className = "cards";
  row.dataset.cards = cards;
  for (const c of [...cards].reverse()) row.append(cardEl(c, { small }));
  return row;
}
