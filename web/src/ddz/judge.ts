// The play judge on the page: what a set of cards is as a play, and every
// play of a hand that beats the play on the table (or every lead). It is
// the server's judge (docs/doudizhu.md) written again for the page, so that
// the table can list hints and say what the selected cards are before they
// are sent; the server still decides. web/test/ddz-judge.test.mjs holds
// its legal plays against the server's on recorded hands.
//
// No imports: the test loads this file on its own.

/** The ranks, low to high: one letter a card, X the black joker, D the red. */
export const RANKS = "3456789TJQKA2XD";
const ACE = 11;
const TWO = 12;
const BLACK = 13;
const RED = 14;
const N = 15;

/** Play types, numbered as the API's PlayType. */
export const T = {
  Invalid: 0,
  Single: 1,
  Pair: 2,
  Trio: 3,
  Bomb: 4,
  Rocket: 5,
  TrioSingle: 6,
  TrioPair: 7,
  Straight: 8,
  PairChain: 9,
  Airplane: 10,
  AirplaneSingleWings: 11,
  AirplanePairWings: 12,
  FourTwoSingles: 13,
  FourTwoPairs: 14,
} as const;

export type Counts = number[];

/** A play: its type, the rank that decides comparisons, its chain length, its cards. */
export interface JPlay {
  type: number;
  rank: number;
  len: number;
  cards: string;
}

/** counts reads cards ("33344") into counts by rank; unknown letters are skipped. */
export function counts(s: string): Counts {
  const c = new Array<number>(N).fill(0);
  for (const ch of s) {
    const r = RANKS.indexOf(ch);
    if (r >= 0) c[r]++;
  }
  return c;
}

/** cardsOf writes counts as cards, low to high. */
export function cardsOf(c: Counts): string {
  let s = "";
  for (let r = 0; r < N; r++) s += RANKS[r].repeat(c[r]);
  return s;
}

/** sortCards sorts cards low to high. */
export const sortCards = (s: string) => cardsOf(counts(s));

function consecutive(c: Counts, k: number, l: number, only3 = false): number {
  let lo = 0;
  while (lo < N && (only3 ? c[lo] !== 3 : c[lo] === 0)) lo++;
  if (lo + l - 1 > ACE) return -1;
  for (let r = lo; r < lo + l; r++) if (c[r] !== k) return -1;
  return lo;
}

function highestWindow(c: Counts, l: number): number {
  let run = 0;
  for (let r = ACE; r >= 0; r--) {
    if (c[r] === 3) {
      if (++run === l) return r;
    } else run = 0;
  }
  return -1;
}

/** classify reads cards as a play, as the server's judge does (the longest chain, then the highest rank). */
export function classify(s: string): JPlay {
  const c = counts(s);
  const p: JPlay = { type: T.Invalid, rank: 0, len: 1, cards: cardsOf(c) };
  let n = 0;
  const mult = [0, 0, 0, 0, 0];
  const some = [0, 0, 0, 0, 0];
  for (let r = 0; r < N; r++) {
    const k = c[r];
    if (k > 0) {
      n += k;
      mult[k]++;
      some[k] = r;
    }
  }
  const set = (t: number, r: number, len = 1) => ({ ...p, type: t, rank: r, len });
  if (n === 0) return p;
  if (n === 1) return set(T.Single, some[1]);
  if (n === 2 && c[BLACK] === 1 && c[RED] === 1) return set(T.Rocket, 0);
  if (n === 2 && mult[2] === 1) return set(T.Pair, some[2]);
  if (n === 3 && mult[3] === 1) return set(T.Trio, some[3]);
  if (n === 4 && mult[4] === 1) return set(T.Bomb, some[4]);
  if (n === 4 && mult[3] === 1) return set(T.TrioSingle, some[3]);
  if (n === 5 && mult[3] === 1 && mult[2] === 1) return set(T.TrioPair, some[3]);
  if (n === 6 && mult[4] === 1) return set(T.FourTwoSingles, some[4]);
  if (n === 8 && mult[4] === 1 && mult[2] === 2) return set(T.FourTwoPairs, some[4]);
  let lo: number;
  if (n >= 5 && mult[1] === n && (lo = consecutive(c, 1, n)) >= 0) return set(T.Straight, lo, n);
  if (n >= 6 && 2 * mult[2] === n && (lo = consecutive(c, 2, n / 2)) >= 0) return set(T.PairChain, lo, n / 2);
  if (n >= 6 && 3 * mult[3] === n && (lo = consecutive(c, 3, n / 3)) >= 0) return set(T.Airplane, lo, n / 3);
  if (n >= 8 && n % 4 === 0 && (lo = highestWindow(c, n / 4)) >= 0) return set(T.AirplaneSingleWings, lo, n / 4);
  if (n >= 10 && n % 5 === 0 && mult[3] === n / 5 && mult[2] === n / 5 && (lo = consecutive(c, 3, n / 5, true)) >= 0)
    return set(T.AirplanePairWings, lo, n / 5);
  return p;
}

/** beats: p, read as it is, beats prev. */
export function beats(p: JPlay, prev: JPlay): boolean {
  if (p.type === T.Invalid || prev.type === T.Rocket) return false;
  if (p.type === T.Rocket) return true;
  if (p.type === T.Bomb) return prev.type !== T.Bomb || p.rank > prev.rank;
  return p.type === prev.type && p.len === prev.len && p.rank > prev.rank;
}

/** answer reads cards as an answer to prev: the reading that beats it, if any. */
export function answer(s: string, prev: JPlay): JPlay | undefined {
  const p = classify(s);
  if (beats(p, prev)) return p;
  const c = counts(s);
  if (prev.type === T.AirplaneSingleWings && p.type !== T.Bomb && p.type !== T.Rocket && p.cards.length === 4 * prev.len) {
    const lo = highestWindow(c, prev.len);
    if (lo >= 0 && lo > prev.rank) return { type: T.AirplaneSingleWings, rank: lo, len: prev.len, cards: p.cards };
  }
  return undefined;
}

/**
 * legal lists every distinct play of hand: every lead when prev is
 * undefined, else every play that beats prev; sorted as the server's
 * judge sorts them (fewer cards first, then low cards first).
 */
export function legal(hand: string, prev?: JPlay): JPlay[] {
  const g = new Gen(counts(hand), prev === undefined);
  if (prev === undefined) g.lead();
  else g.answer(prev);
  const cmp = (a: Counts, b: Counts) => {
    for (let r = 0; r < N; r++) if (a[r] !== b[r]) return a[r] > b[r] ? -1 : 1;
    return 0;
  };
  return g.out
    .map((p) => ({ p, c: counts(p.cards) }))
    .sort((a, b) => a.p.cards.length - b.p.cards.length || cmp(a.c, b.c))
    .map((x) => x.p);
}

class Gen {
  out: JPlay[] = [];
  after: number[] = new Array<number>(N + 1).fill(0);
  // the airplane or quad whose wings are being chosen
  lo = 0;
  hi = -1;
  cur: Counts = [];
  type = 0;
  rank = 0;
  len = 1;

  constructor(
    private h: Counts,
    private leading: boolean,
  ) {
    for (let r = N - 1; r >= 0; r--) this.after[r] = this.after[r + 1] + h[r];
  }

  private emit(type: number, rank: number, len: number, c: Counts) {
    this.out.push({ type, rank, len, cards: cardsOf(c) });
  }

  private one(r: number, k: number): Counts {
    const c = new Array<number>(N).fill(0);
    c[r] = k;
    return c;
  }

  lead() {
    const h = this.h;
    for (let r = 0; r < N; r++) {
      if (h[r] === 0) continue;
      [T.Single, T.Pair, T.Trio, T.Bomb].forEach((t, k) => {
        if (h[r] > k && !(k === 1 && r >= BLACK)) this.emit(t, r, 1, this.one(r, k + 1));
      });
    }
    this.rocket();
    this.trioKicker(T.TrioSingle, -1);
    this.trioKicker(T.TrioPair, -1);
    this.chains(T.Straight, 1, 5, -1);
    this.chains(T.PairChain, 2, 3, -1);
    this.chains(T.Airplane, 3, 2, -1);
    for (let l = 2; 4 * l <= this.after[0]; l++) this.singleWings(l, -1);
    for (let l = 2; 5 * l <= this.after[0]; l++) this.pairWings(l, -1);
    this.fourTwo(T.FourTwoSingles, -1);
    this.fourTwo(T.FourTwoPairs, -1);
  }

  answer(prev: JPlay) {
    if (prev.type === T.Rocket) return;
    const h = this.h;
    const above = prev.rank;
    switch (prev.type) {
      case T.Single:
      case T.Pair:
      case T.Trio: {
        const k = prev.cards.length;
        for (let r = above + 1; r < N; r++) if (h[r] >= k && !(k === 2 && r >= BLACK)) this.emit(prev.type, r, 1, this.one(r, k));
        break;
      }
      case T.TrioSingle:
      case T.TrioPair:
        this.trioKicker(prev.type, above);
        break;
      case T.Straight:
        this.chain(T.Straight, 1, prev.len, above);
        break;
      case T.PairChain:
        this.chain(T.PairChain, 2, prev.len, above);
        break;
      case T.Airplane:
        this.chain(T.Airplane, 3, prev.len, above);
        break;
      case T.AirplaneSingleWings:
        this.singleWings(prev.len, above);
        break;
      case T.AirplanePairWings:
        this.pairWings(prev.len, above);
        break;
      case T.FourTwoSingles:
      case T.FourTwoPairs:
        this.fourTwo(prev.type, above);
        break;
    }
    const from = prev.type === T.Bomb ? prev.rank + 1 : 0;
    for (let r = from; r <= TWO; r++) if (h[r] === 4) this.emit(T.Bomb, r, 1, this.one(r, 4));
    this.rocket();
  }

  private rocket() {
    if (this.h[BLACK] === 1 && this.h[RED] === 1) {
      const c = this.one(BLACK, 1);
      c[RED] = 1;
      this.emit(T.Rocket, 0, 1, c);
    }
  }

  private trioKicker(t: number, above: number) {
    const h = this.h;
    const k = t === T.TrioPair ? 2 : 1;
    for (let r = above + 1; r <= TWO; r++) {
      if (h[r] < 3) continue;
      for (let x = 0; x < N; x++) {
        if (x === r || h[x] < k || (k === 2 && x >= BLACK)) continue;
        const c = this.one(r, 3);
        c[x] = k;
        this.emit(t, r, 1, c);
      }
    }
  }

  private chains(t: number, k: number, min: number, above: number) {
    const h = this.h;
    for (let s = above + 1; s + min - 1 <= ACE; s++) {
      if (h[s] < k) continue;
      const c = new Array<number>(N).fill(0);
      for (let e = s; e <= ACE && h[e] >= k; e++) {
        c[e] = k;
        const l = e - s + 1;
        if (l >= min) this.emit(t, s, l, c);
      }
    }
  }

  private chain(t: number, k: number, l: number, above: number) {
    const h = this.h;
    let run = 0;
    for (let e = 0; e <= ACE; e++) {
      if (h[e] < k) {
        run = 0;
        continue;
      }
      run++;
      const s = e - l + 1;
      if (run >= l && s > above) {
        const c = new Array<number>(N).fill(0);
        for (let r = s; r <= e; r++) c[r] = k;
        this.emit(t, s, l, c);
      }
    }
  }

  private window(l: number, above: number, each: (s: number, e: number) => void) {
    let run = 0;
    for (let e = 0; e <= ACE; e++) {
      if (this.h[e] < 3) {
        run = 0;
        continue;
      }
      run++;
      const s = e - l + 1;
      if (run < l || s <= above) continue;
      each(s, e);
    }
  }

  private start(type: number, lo: number, hi: number, len: number, k: number) {
    this.type = type;
    this.rank = lo;
    this.len = len;
    this.lo = lo;
    this.hi = hi;
    this.cur = new Array<number>(N).fill(0);
    for (let r = lo; r <= hi; r++) this.cur[r] = k;
  }

  private singleWings(l: number, above: number) {
    this.window(l, above, (s, e) => {
      this.start(T.AirplaneSingleWings, s, e, l, 3);
      let free = this.after[0];
      for (let r = s; r <= e; r++) free -= this.h[r];
      if (free >= l) this.singles(0, l);
    });
  }

  private free(r: number): number {
    return r >= this.lo && r <= this.hi ? 0 : this.h[r];
  }

  private singles(r: number, left: number) {
    if (left === 0) {
      this.emitSingles();
      return;
    }
    for (; r < N; r++) {
      const f = this.free(r);
      if (f === 0) continue;
      if (this.after[r] < left) return;
      for (let k = Math.min(f, left); k >= 1; k--) {
        this.cur[r] = k;
        this.singles(r + 1, left - k);
      }
      this.cur[r] = 0;
    }
  }

  // The same cards listed once: not when a higher window reads them, nor
  // (leading) when they are a longer pure airplane.
  private emitSingles() {
    const c = this.cur;
    if (this.hi < ACE && c[this.hi + 1] === 3) return;
    if (this.leading && this.len % 3 === 0) {
      const l = this.len;
      if (consecutive(c, 3, l + l / 3) >= 0 && c.every((k) => k === 0 || k === 3)) return;
    }
    this.emit(this.type, this.rank, this.len, c);
  }

  private pairWings(l: number, above: number) {
    this.window(l, above, (s, e) => {
      this.start(T.AirplanePairWings, s, e, l, 3);
      this.pairs(0, l);
    });
  }

  private pairs(r: number, left: number) {
    if (left === 0) {
      this.emit(this.type, this.rank, this.len, this.cur);
      return;
    }
    for (; r + left - 1 <= TWO; r++) {
      if (this.free(r) < 2) continue;
      this.cur[r] = 2;
      this.pairs(r + 1, left - 1);
      this.cur[r] = 0;
    }
  }

  private fourTwo(t: number, above: number) {
    for (let q = above + 1; q <= TWO; q++) {
      if (this.h[q] !== 4) continue;
      this.start(t, q, q, 1, 4);
      if (t === T.FourTwoSingles) {
        if (this.after[0] - 4 >= 2) this.kickers(0, 2);
      } else this.pairs(0, 2);
    }
  }

  private kickers(r: number, left: number) {
    if (left === 0) {
      this.emit(this.type, this.rank, this.len, this.cur);
      return;
    }
    for (; r < N; r++) {
      const f = this.free(r);
      if (f === 0) continue;
      for (let k = Math.min(f, left); k >= 1; k--) {
        this.cur[r] = k;
        this.kickers(r + 1, left - k);
      }
      this.cur[r] = 0;
    }
  }
}
