// The page's Dou Dizhu judge (src/ddz/judge.ts) against the server's: the
// legal plays (leads and answers) and the readings of the recorded cases in
// testdata/ddz-judge.jsonl, which the server's judge answered (tablectl
// doudizhu; testdata/ddz-judge.gen.mjs writes the file).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import ts from "typescript";

const src = readFileSync(new URL("../src/ddz/judge.ts", import.meta.url), "utf8");
const js = ts.transpileModule(src, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
const judge = await import("data:text/javascript;base64," + Buffer.from(js).toString("base64"));

const names = ["invalid", "single", "pair", "trio", "bomb", "rocket", "trio_single", "trio_pair", "straight", "pair_chain",
  "airplane", "airplane_single_wings", "airplane_pair_wings", "four_two_singles", "four_two_pairs"];
const cases = readFileSync(new URL("testdata/ddz-judge.jsonl", import.meta.url), "utf8").trim().split("\n").map((l) => JSON.parse(l));

test("the page's judge lists the server judge's legal plays", () => {
  let n = 0;
  for (const { q, r } of cases) {
    if (q.kind !== "legal") continue;
    const prev = q.prev ? judge.classify(q.prev) : undefined;
    const got = judge.legal(q.hand, prev).map((p) => p.cards);
    assert.deepEqual(got, r.legal, `legal(${q.hand}, ${q.prev ?? "lead"})`);
    // Every answer listed reads as one that beats the play.
    if (prev) for (const p of got) assert.ok(judge.answer(p, prev), `${p} answers ${q.prev}`);
    n++;
  }
  assert.ok(n > 500, `${n} legal cases`);
});

test("the page's judge reads plays as the server's", () => {
  let n = 0;
  for (const { q, r } of cases) {
    if (q.kind !== "classify") continue;
    const p = judge.classify(q.play);
    assert.equal(names[p.type], r.type, `classify(${q.play})`);
    if (r.type !== "invalid") {
      assert.equal(p.len, r.len, `length of ${q.play}`);
      assert.equal(r.rank ?? "", r.type === "rocket" ? "" : judge.RANKS[p.rank], `rank of ${q.play}`);
    }
    n++;
  }
  assert.ok(n > 300, `${n} classify cases`);
});
