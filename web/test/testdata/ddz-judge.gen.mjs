// Writes ddz-judge.jsonl: random Dou Dizhu hands and plays, each with the
// server judge's answer (tablectl doudizhu), which ddz-judge.test.mjs holds
// the page's judge (src/ddz/judge.ts) against. Run from web/:
//
//   go build -o /tmp/tablectl ./cmd/tablectl   (from the repository root)
//   node test/testdata/ddz-judge.gen.mjs /tmp/tablectl > test/testdata/ddz-judge.jsonl

import { execFileSync } from "node:child_process";

const bin = process.argv[2];
const RANKS = "3456789TJQKA2XD";
let x = 0x2545f491;
const rnd = (n) => {
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  return (x >>> 0) % n;
};
const deck = () => {
  const d = [];
  for (const r of RANKS.slice(0, 13)) d.push(r, r, r, r);
  d.push("X", "D");
  for (let i = d.length - 1; i > 0; i--) {
    const j = rnd(i + 1);
    [d[i], d[j]] = [d[j], d[i]];
  }
  return d;
};
const sorted = (cs) => [...cs].sort((a, b) => RANKS.indexOf(a) - RANKS.indexOf(b)).join("");
const judge = (lines) =>
  execFileSync(bin, ["doudizhu"], { input: lines.map((l) => JSON.stringify(l)).join("\n") + "\n", maxBuffer: 1 << 28 })
    .toString()
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

// Hands rich in trios and quads too, so that airplanes, wings and four-two plays come up.
const cases = [];
for (let i = 0; i < 150; i++) {
  let d = deck();
  if (i % 3 === 0) {
    // Move most of four ranks' cards to the front.
    const rich = "3456789TJQ".slice(rnd(4), 5 + rnd(4));
    d = [...d.filter((c, j) => rich.includes(c) && j % 5 !== 0), ...d.filter((c, j) => !(rich.includes(c) && j % 5 !== 0))];
  }
  const n = i % 2 ? 17 : 20;
  cases.push({ hand: sorted(d.slice(0, n)), other: sorted(d.slice(n, n + 17)), opp: sorted(d.slice(n + 17, n + 34)) });
}
// The other hands' leads give plays to beat, of every type.
const leads = judge(cases.map((c, i) => ({ id: i, kind: "legal", hand: c.other })));
const asks = [];
cases.forEach((c, i) => {
  const l = leads[i].legal;
  asks.push({ id: `lead${i}`, kind: "legal", hand: c.hand });
  for (let k = 0; k < 4; k++) asks.push({ id: `ans${i}.${k}`, kind: "legal", hand: c.hand, prev: l[rnd(l.length)] });
  // Longer plays, of the rarer types, to beat.
  const long = l.filter((p) => p.length >= 6);
  if (long.length) asks.push({ id: `long${i}`, kind: "legal", hand: c.hand, prev: long[rnd(long.length)] });
  // Plays, and plays with a card more or less, to classify.
  for (let k = 0; k < 4; k++) {
    const p = long.length && k % 2 ? long[rnd(long.length)] : l[rnd(l.length)];
    const more = c.opp[rnd(c.opp.length)];
    const play = k === 2 ? sorted(p + more) : k === 3 && p.length > 1 ? p.slice(1) : p;
    asks.push({ id: `cls${i}.${k}`, kind: "classify", play });
  }
});
const answers = judge(asks);
asks.forEach((a, i) => {
  const { id, ...q } = a;
  const { id: _, ...r } = answers[i];
  console.log(JSON.stringify({ q, r }));
});
