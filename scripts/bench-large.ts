/**
 * Benchmarks on the large graph of scripts/build-large-graph.ts (issue 25).
 *
 *   npx tsx scripts/bench-large.ts index [--scale 1] [--seed 1] [--queries 1000] [--save /tmp/idx.json]
 *       the in-memory entity index (src/ground EntityIndex) over every label of the graph (rdfs:label,
 *       skos:altLabel, the @de/@fr/@ja labels) — made by the generator, no endpoint needed: build time,
 *       RSS, lookup p50/p95 (exact, typo, partial, variant), disk of its cache file.
 *   npx tsx scripts/bench-large.ts fulltext --endpoint URL [--graph IRI] [--queries 300]
 *       the same lookups delegated to Virtuoso's free-text index (bif:contains; scripts/virtuoso.sh
 *       bulkload --fulltext): p50/p95 and whether the target is among the hits.
 *   npx tsx scripts/bench-large.ts ask --pack DIR [--questions 200] [--seed 1]
 *       `ask` through the pack (an endpoint pack made by `askgraph init URL`): 200 seeded questions of
 *       several kinds with gold answers from the generator; p50/p95 latency, accuracy, RSS.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import { percentile } from '../src/core';
import { EndpointExecutor } from '../src/execute';
import { EntityIndex, type LabelEntry } from '../src/ground';
import { createGateway } from '../src/pipeline';
import { questions, sameAnswers, World } from './build-large-graph';

const argv = process.argv.slice(2);
const mode = argv[0];
function arg(name: string, dflt?: string): string | undefined {
  const k = argv.indexOf(name);
  return k >= 0 ? argv[k + 1] : dflt;
}
const pct = (xs: number[], p: number) => (percentile(xs, p) ?? NaN).toFixed(2);
const rssMiB = () => Math.round(process.memoryUsage().rss / 2 ** 20);
const peakMiB = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** Every (IRI, label) the graph has, in the generator's order (the labels the index holds). */
function* labelsOf(world: World): Generator<LabelEntry> {
  for (const c of world.classes) {
    for (let i = 0; i < c.count; i++) {
      const iri = world.iri(c.key, i);
      const l = world.label(c.key, i);
      yield { iri, label: l.label };
      for (const [v] of l.extra ?? []) yield { iri, label: v };
      if (l.alt) yield { iri, label: l.alt };
    }
  }
}

/** Seeded picks of labelled entities (persons, films, companies, …) for lookups. */
function targets(world: World, n: number, seed: number): { iri: string; label: string }[] {
  let s = seed >>> 0 || 1;
  const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const classes = ['Person', 'Film', 'Book', 'Company', 'City', 'Song', 'Product'];
  const out: { iri: string; label: string }[] = [];
  for (let k = 0; k < n; k++) {
    const cls = classes[k % classes.length] ?? 'Person';
    const i = Math.floor(rand() * world.count(cls));
    out.push({ iri: world.iri(cls, i), label: world.label(cls, i).label });
  }
  return out;
}

function typo(s: string, k: number): string {
  if (s.length < 7) return s;
  const i = 1 + (k % (s.length - 2));
  return s.slice(0, i) + s.slice(i + 1);
}

const KINDS: Record<string, (l: string, k: number) => string> = {
  exact: (l) => l,
  variant: (l) => l.toUpperCase(),
  typo,
  partial: (l) => l.split(' ').slice(-1)[0] ?? l,
};

function benchIndex(): void {
  const world = new World(Number(arg('--scale', '1')), Number(arg('--seed', '1')));
  const q = Number(arg('--queries', '1000'));
  const rss0 = rssMiB();
  let t = performance.now();
  const entries = [...labelsOf(world)];
  const genMs = performance.now() - t;
  t = performance.now();
  const index = EntityIndex.build(entries);
  const buildMs = performance.now() - t;
  entries.length = 0;
  if (global.gc) global.gc();
  t = performance.now();
  index.warm();
  const warmMs = performance.now() - t;
  console.log(
    `labels ${index.size.toLocaleString('en-US')} of ${index.entityCount.toLocaleString('en-US')} entities: labels made in ${(genMs / 1000).toFixed(1)} s, index built in ${(buildMs / 1000).toFixed(1)} s (+ ${(warmMs / 1000).toFixed(1)} s token index); RSS ${rssMiB()} MiB (was ${rss0}), peak ${peakMiB()} MiB; load average ${os.loadavg()[0]?.toFixed(1)}`,
  );
  const picks = targets(world, q, 7);
  for (const p of picks.slice(0, 100)) index.search(p.label, { k: 10 }); // warm-up
  const all: number[] = [];
  for (const [kind, f] of Object.entries(KINDS)) {
    const times: number[] = [];
    let found = 0;
    picks.forEach((p, k) => {
      const query = f(p.label, k);
      const t0 = performance.now();
      const hits = index.search(query, { k: 10, threshold: 0 });
      times.push(performance.now() - t0);
      if (hits.some((h) => h.iri === p.iri || h.label === p.label)) found++;
    });
    all.push(...times);
    console.log(`${kind.padEnd(8)} p50 ${pct(times, 50)} ms  p95 ${pct(times, 95)} ms  max ${pct(times, 100)} ms | label among 10 hits ${((100 * found) / picks.length).toFixed(1)}%`);
  }
  console.log(`all      p50 ${pct(all, 50)} ms  p95 ${pct(all, 95)} ms`);
  const save = arg('--save');
  if (save) {
    t = performance.now();
    index.save(save);
    const saveMs = performance.now() - t;
    const bytes = fs.statSync(save).size;
    t = performance.now();
    const loaded = EntityIndex.load(save);
    console.log(`cache file ${(bytes / 2 ** 20).toFixed(0)} MiB, saved in ${(saveMs / 1000).toFixed(1)} s, loaded in ${((performance.now() - t) / 1000).toFixed(1)} s (${loaded.size.toLocaleString('en-US')} labels); peak RSS ${peakMiB()} MiB`);
  }
}

const RDFS_LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const SKOS_ALT = 'http://www.w3.org/2004/02/skos/core#altLabel';

/** The free-text query of a label lookup: every word of the mention (Virtuoso's bif:contains syntax). */
function fulltextQuery(text: string, limit: number): string | undefined {
  const words = text.normalize('NFC').split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 2);
  if (words.length === 0) return undefined;
  const expr = words.map((w) => `'${w}'`).join(' AND ');
  return `PREFIX bif: <bif:> SELECT ?s ?l WHERE { ?s ?p ?l . ?l bif:contains "${expr}" . FILTER(?p IN (<${RDFS_LABEL}>, <${SKOS_ALT}>)) } LIMIT ${limit}`;
}

async function benchFulltext(): Promise<void> {
  const endpoint = arg('--endpoint');
  if (!endpoint) throw new Error('fulltext needs --endpoint URL');
  const world = new World(Number(arg('--scale', '1')), Number(arg('--seed', '1')));
  const ex = new EndpointExecutor(endpoint);
  const picks = targets(world, Number(arg('--queries', '300')), 7);
  for (const [kind, f] of Object.entries({ exact: KINDS.exact, partial: KINDS.partial })) {
    if (!f) continue;
    const times: number[] = [];
    let found = 0;
    let failed = 0;
    for (const [k, p] of picks.entries()) {
      const q = fulltextQuery(f(p.label, k), 50);
      if (!q) continue;
      const t0 = performance.now();
      try {
        const res = await ex.select(q, { timeoutMs: 30_000 });
        times.push(performance.now() - t0);
        if (res.rows.some((r) => r.s?.value === p.iri || r.l?.value === p.label)) found++;
      } catch {
        failed++;
      }
    }
    console.log(`bif:contains ${kind.padEnd(8)} p50 ${pct(times, 50)} ms  p95 ${pct(times, 95)} ms  max ${pct(times, 100)} ms | label among 50 hits ${((100 * found) / picks.length).toFixed(1)}% | failed ${failed}`);
  }
  await ex.close();
}

async function benchAsk(): Promise<void> {
  const pack = arg('--pack');
  if (!pack) throw new Error('ask needs --pack DIR (made by askgraph init ENDPOINT)');
  const packJson = JSON.parse(fs.readFileSync(`${pack}/pack.json`, 'utf8')) as { endpoint?: string };
  if (!packJson.endpoint) throw new Error(`${pack} is not an endpoint pack`);
  const world = new World(Number(arg('--scale', '1')), Number(arg('--seed', '1')));
  const ex = new EndpointExecutor(packJson.endpoint);
  const n = Number(arg('--questions', '200'));
  let t = performance.now();
  const qs = await questions(world, ex, n, Number(arg('--qseed', '11')));
  console.log(`${qs.length} questions of ${new Set(qs.map((q) => q.kind)).size} kinds made in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  // warmed at open like `askgraph serve`'s gateway (GatewayOptions.warm): the questions measure a running gateway
  const gw = await createGateway({ store: pack, warm: true });
  const warmMs = gw.startup?.find((p) => p.phase === 'warm')?.wallMs ?? 0;
  console.log(`gateway open in ${((performance.now() - t) / 1000).toFixed(1)} s (entity index ${gw.index.size.toLocaleString('en-US')} labels; warm ${(warmMs / 1000).toFixed(1)} s), RSS ${rssMiB()} MiB`);
  const times: number[] = [];
  const byKind = new Map<string, { n: number; ok: number; answered: number }>();
  try {
    for (const q of qs) {
      const t0 = performance.now();
      const a = await gw.ask(q.question);
      times.push(performance.now() - t0);
      const got = new Set(a.answers.map((x) => x.value));
      const ok = sameAnswers(got, q.answers);
      const k = byKind.get(q.kind) ?? { n: 0, ok: 0, answered: 0 };
      k.n++;
      if (ok) k.ok++;
      if (got.size > 0) k.answered++;
      byKind.set(q.kind, k);
      if (argv.includes('--verbose')) console.log(`${ok ? 'ok ' : 'NO '} ${(times[times.length - 1] ?? 0).toFixed(0)} ms  ${q.question} → ${[...got].slice(0, 3).join(', ')} (gold ${[...q.answers].slice(0, 3).join(', ')})`);
    }
  } finally {
    await gw.close();
    await ex.close();
  }
  for (const [kind, k] of byKind) console.log(`${kind.padEnd(15)} ${k.ok}/${k.n} right, ${k.answered} answered`);
  const ok = [...byKind.values()].reduce((a, k) => a + k.ok, 0);
  console.log(`ask: ${times.length} questions  p50 ${pct(times, 50)} ms  p95 ${pct(times, 95)} ms  accuracy ${((100 * ok) / Math.max(1, times.length)).toFixed(1)}%  RSS ${rssMiB()} MiB, peak ${peakMiB()} MiB; load average ${os.loadavg()[0]?.toFixed(1)}`);
}

async function main(): Promise<void> {
  if (mode === 'index') {
    benchIndex();
    return;
  }
  if (mode === 'fulltext') return benchFulltext();
  if (mode === 'ask') return benchAsk();
  console.error('usage: bench-large index|fulltext|ask …');
  process.exit(2);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
