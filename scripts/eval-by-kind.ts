/**
 * Hits@1 / F1 of an `askgraph eval --out FILE` report by answer kind (boolean, number, entities — told
 * from the gold answers) and by answer source (parser / fallback reader / none). Prints numbers only
 * (no questions), so a development set can be measured without reading it.
 *   npx tsx scripts/eval-by-kind.ts /tmp/eval.json
 */
import { percentile } from '../src/core';
import * as fs from 'node:fs';

interface Row {
  gold: string[];
  source: string;
  latencyMs: number;
  scores: { hits1?: number; f1?: number };
}

const file = process.argv[2];
if (!file) {
  console.error('usage: eval-by-kind.ts <eval --out report.json>');
  process.exit(2);
}
const rows = (JSON.parse(fs.readFileSync(file, 'utf8')) as { examples: Row[] }).examples;
const kindOf = (gold: string[]) => {
  const only = gold.length === 1 ? gold[0] : undefined;
  return only !== undefined && /^(true|false)$/i.test(only) ? 'boolean' : only !== undefined && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(only) ? 'number' : 'entities';
};
const groups = new Map<string, Row[]>();
const add = (k: string, r: Row) => groups.set(k, [...(groups.get(k) ?? []), r]);
for (const r of rows) {
  add('all', r);
  add('kind:' + kindOf(r.gold), r);
  add('source:' + (r.source.startsWith('fallback:') ? 'fallback' : r.source), r);
}
const pct = (x: number) => (100 * x).toFixed(1);
const pctl = (xs: number[], p: number) => percentile(xs, p) ?? NaN;
console.log('group            n   Hits@1   F1     p50 ms  p95 ms');
for (const [k, rs] of groups) {
  const h = rs.reduce((s, r) => s + (r.scores.hits1 ?? 0), 0) / rs.length;
  const f = rs.reduce((s, r) => s + (r.scores.f1 ?? 0), 0) / rs.length;
  const lat = rs.map((r) => r.latencyMs);
  console.log(`${k.padEnd(15)} ${String(rs.length).padStart(3)}  ${pct(h).padStart(6)}  ${pct(f).padStart(6)}  ${pctl(lat, 50).toFixed(1).padStart(7)} ${pctl(lat, 95).toFixed(1).padStart(7)}`);
}
