/**
 * End-to-end benchmark of `askgraph ask` on MetaQA validation questions (brackets removed: the topic
 * entity is NOT given): Hits@1 by hop and latency p50/p95 per question, on the embedded movies pack.
 *
 *   npx tsx scripts/bench-ask.ts [--n N] [--beam K] [--no-entity-retrieval] [--no-relation-retrieval] [--no-bridges]
 *                                [--no-adaptive] [--no-parser] [--free-copy] [--model DIR] [--fallback off|names] [--out FILE.json] [--failures K]
 *
 * --n N takes the first ⌈N/3⌉ questions of each hop in file order (default: all 1,958).
 * Hits@1: the first returned answer (its label, or the literal value) is a gold answer.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Command } from 'commander';
import { packageRoot, percentile } from '../src/core';
import { parseJsonl } from '../src/eval';
import { loadParser } from '../src/generate';
import { createGateway, type AskOptions } from '../src/pipeline';

interface Example {
  id: string;
  question: string;
  form: string;
  answers: string[];
  meta: { hop: number; qtype: string };
}

const cli = new Command('bench-ask')
  .option('--data <file>', 'MetaQA-style JSON Lines (default fixtures/metaqa/valid.jsonl; fixtures/metaqa/test.jsonl is the slice never used to choose settings)')
  .option('--n <n>', 'the first ⌈N/3⌉ questions of each hop (default: all)')
  .option('--beam <k>', 'beam width')
  .option('--no-entity-retrieval', 'ablation: no entity retrieval')
  .option('--no-relation-retrieval', 'ablation: no relation retrieval')
  .option('--no-bridges', 'ablation: no bridging hop between an entity and a relation it never takes')
  .option('--no-adaptive', 'decode the whole beam first')
  .option('--no-parser', 'the fallback readers alone (topics from entity linking)')
  .option('--free-copy', 'the parser may copy any question span (no restriction to graph labels)')
  .option('--model <dir>', 'parser model folder')
  .option('--fallback <readers>', "'off' or reader names, comma-separated")
  .option('--out <file>', 'write every row as JSON')
  .option('--failures <k>', 'misses to print', '10')
  .parse();
const o = cli.opts<{ data?: string; n?: string; beam?: string; entityRetrieval: boolean; relationRetrieval: boolean; bridges: boolean; adaptive: boolean; parser: boolean; freeCopy?: boolean; model?: string; fallback?: string; out?: string; failures: string }>();
function pct(xs: number[], p: number): number {
  return percentile(xs, p) ?? NaN;
}

async function main(): Promise<void> {
  const file = o.data ?? path.join(packageRoot(), 'fixtures', 'metaqa', 'valid.jsonl');
  const all = parseJsonl<Example>(fs.readFileSync(file, 'utf8'), file);
  const n = o.n ? Number(o.n) : undefined;
  const byHop = new Map<number, Example[]>();
  for (const ex of all) byHop.set(ex.meta.hop, [...(byHop.get(ex.meta.hop) ?? []), ex]);
  const examples = n === undefined ? all : [...byHop.values()].flatMap((xs) => xs.slice(0, Math.ceil(n / byHop.size)));

  const opts: AskOptions = {};
  if (o.beam) opts.beam = Number(o.beam);
  if (!o.entityRetrieval) opts.entityRetrieval = false;
  if (!o.relationRetrieval) opts.relationRetrieval = false;
  if (!o.bridges) opts.bridges = false;
  if (!o.adaptive) opts.adaptiveBeam = false;
  if (!o.parser) opts.noParser = true; // the fallback readers alone (topics from entity linking)
  const fb = o.fallback;
  if (fb) opts.fallback = fb === 'off' ? 'off' : fb.split(',');

  const t0 = Date.now();
  // --free-copy: the parser may copy any question span into [ … ] (no restriction to graph labels), which
  // is what entity retrieval has to repair; shows what grounding adds over an unconstrained copy.
  const freeCopy = o.freeCopy === true;
  const generator = freeCopy ? await loadParser(o.model ?? path.join(packageRoot(), 'store', 'movies', 'model'), { labels: 'none' }) : undefined;
  const gateway = await createGateway({ model: o.model, progress: process.stderr, ...(generator ? { generator } : {}) });
  const setupMs = Date.now() - t0;
  gateway.index.warm();
  for (const ex of examples.slice(0, 5)) await gateway.ask(ex.question, opts); // warm-up (JIT, worker, sessions)

  const stage = { generate: [] as number[], ground: [] as number[], execute: [] as number[], fallback: [] as number[] };
  const rows: { hop: number; hit: boolean; exactSet: boolean; ms: number; source: string; id: string; question: string; got: string[]; gold: string[]; form: string | null; gold_form: string }[] = [];
  for (const ex of examples) {
    const t = performance.now();
    const a = await gateway.ask(ex.question, opts);
    const ms = performance.now() - t;
    for (const k of ['generate', 'ground', 'execute', 'fallback'] as const) stage[k].push(a.timings[k]);
    const got = a.answers.map((x) => x.label ?? x.value);
    const gold = new Set(ex.answers);
    rows.push({
      hop: ex.meta.hop,
      hit: got[0] !== undefined && gold.has(got[0]),
      exactSet: got.length === gold.size && got.every((g) => gold.has(g)),
      ms,
      source: a.source,
      id: ex.id,
      question: ex.question,
      got: got.slice(0, 5),
      gold: ex.answers.slice(0, 5),
      form: a.form,
      gold_form: ex.form,
    });
  }
  await gateway.close();

  const label = [`beam ${opts.beam ?? 'default(4)'}`, opts.entityRetrieval === false ? 'no entity retrieval' : '', opts.relationRetrieval === false ? 'no relation retrieval' : '', opts.bridges === false ? 'no bridges' : '', opts.adaptiveBeam === false ? 'no adaptive beam' : '', opts.noParser ? 'no parser (fallback only)' : '', freeCopy ? 'free copy (no label-constrained decoding)' : '', fb ? `fallback ${fb}` : ''].filter(Boolean).join(', ');
  console.log(`bench-ask: ${examples.length} MetaQA validation questions (brackets removed), ${label}; model ${gateway.version}; setup ${(setupMs / 1000).toFixed(1)} s; load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores`);
  console.log('hop    n   Hits@1   exact-set   p50 ms   p95 ms');
  const hops = [...new Set(rows.map((r) => r.hop))].sort();
  for (const h of [...hops, 0]) {
    const rs = h === 0 ? rows : rows.filter((r) => r.hop === h);
    const hits = rs.filter((r) => r.hit).length;
    const ex = rs.filter((r) => r.exactSet).length;
    const ms = rs.map((r) => r.ms);
    console.log(
      `${(h === 0 ? 'all' : `${h}-hop`).padEnd(5)} ${String(rs.length).padStart(4)}   ${((100 * hits) / rs.length).toFixed(2).padStart(6)}%   ${((100 * ex) / rs.length).toFixed(2).padStart(7)}%   ${pct(ms, 50).toFixed(1).padStart(6)}   ${pct(ms, 95).toFixed(1).padStart(6)}`,
    );
  }
  const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / Math.max(1, xs.length);
  console.log(
    `stage ms (mean / p95): ${(['generate', 'ground', 'execute', 'fallback'] as const).map((k) => `${k} ${mean(stage[k]).toFixed(1)} / ${pct(stage[k], 95).toFixed(1)}`).join(', ')}`,
  );
  const sources = new Map<string, number>();
  for (const r of rows) sources.set(r.source, (sources.get(r.source) ?? 0) + 1);
  console.log('sources: ' + [...sources].map(([s, c]) => `${s} ${c}`).join(', '));
  const k = Number(o.failures);
  const misses = rows.filter((r) => !r.hit);
  if (k > 0 && misses.length) {
    console.log(`first ${Math.min(k, misses.length)} of ${misses.length} misses:`);
    for (const r of misses.slice(0, k)) console.log(`  ${r.id} [${r.source}] ${r.question}\n     form ${r.form}\n     gold ${r.gold_form}\n     got ${JSON.stringify(r.got)} gold ${JSON.stringify(r.gold)}`);
  }
  const out = o.out;
  if (out) fs.writeFileSync(out, JSON.stringify({ options: opts, version: gateway.version, rows }, null, 1));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
