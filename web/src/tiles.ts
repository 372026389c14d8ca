// Tiles in MPSZ notation (docs/tiles.md): "123m" is three tiles, "0p" the
// red five of pins, "1z".."7z" the winds and dragons. Drawn as styled text.

/** parse splits an MPSZ string into one string per tile ("1m", "0p"). */
export function parse(s: string): string[] {
  const out: string[] = [];
  let digits: string[] = [];
  for (const c of s.replace(/\s+/g, "")) {
    if (c >= "0" && c <= "9") {
      digits.push(c);
    } else {
      for (const d of digits) out.push(d + c);
      digits = [];
    }
  }
  return out;
}

/** rank orders tiles as a hand is sorted: suit, then number (red five as a five). */
export function rank(t: string): number {
  const suit = "mpszf".indexOf(t[1]);
  const n = t[0] === "0" ? 5.5 : Number(t[0]);
  return suit * 10 + n;
}

export function sortTiles(ts: string[]): string[] {
  return [...ts].sort((a, b) => rank(a) - rank(b));
}

/** same: the same tile kind, a red five counting as a five. */
export function same(a: string, b: string): boolean {
  const n = (t: string) => (t[0] === "0" ? "5" : t[0]) + t[1];
  return n(a) === n(b);
}

// Latin faces, so that no CJK font is needed: winds by their initial,
// the white dragon a blank frame, green F (fa), red C (chun).
const honors = ["", "E", "S", "W", "N", "", "F", "C"];
const honorNames = ["", "east", "south", "west", "north", "white", "green", "red"];
const suitMark: Record<string, string> = { m: "man", p: "pin", s: "sou" };
// Flowers 1f-4f, seasons 5f-8f (docs/tiles.md), each with its number.

/** label is the tile's face: a number and its suit, or an honor. */
export function label(t: string): { big: string; small: string } {
  if (t[1] === "z") return { big: honors[Number(t[0])] ?? "?", small: honorNames[Number(t[0])] ?? "" };
  if (t[1] === "f") return { big: String(((Number(t[0]) - 1) % 4) + 1), small: Number(t[0]) <= 4 ? "flower" : "season" };
  return { big: t[0] === "0" ? "5" : t[0], small: suitMark[t[1]] ?? t[1] };
}

export interface TileOpts {
  /** the tile is playable: clicking it acts */
  onClick?: () => void;
  /** extra classes: "called", "riichi", "drawn", "selected", "small", "back" */
  cls?: string[];
  key?: string;
}

/** tileEl draws one tile; "?" or "" draws its back. */
export function tileEl(t: string, o: TileOpts = {}): HTMLElement {
  const el = document.createElement(o.onClick ? "button" : "span");
  el.className = ["tile", ...(o.cls ?? [])].join(" ");
  if (!t || t === "?") {
    el.classList.add("back");
    return el;
  }
  const { big, small } = label(t);
  el.classList.add("s-" + t[1]);
  if (t[1] === "z") el.classList.add("z" + t[0]);
  if (t[0] === "0") el.classList.add("red");
  el.dataset.tile = t;
  el.title = t;
  el.innerHTML = `<b>${big}</b>${small ? `<i>${small}</i>` : ""}`;
  if (o.key) {
    const k = document.createElement("kbd");
    k.textContent = o.key;
    el.append(k);
  }
  if (o.onClick) {
    (el as HTMLButtonElement).type = "button";
    el.addEventListener("click", o.onClick);
  }
  return el;
}

/** tilesEl draws a row of tiles. */
export function tilesEl(ts: string[], cls: string[] = []): HTMLElement {
  const row = document.createElement("span");
  row.className = "tiles";
  for (const t of ts) row.append(tileEl(t, { cls }));
  return row;
}
