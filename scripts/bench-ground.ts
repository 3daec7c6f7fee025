/**
 * Entity-index benchmark: N synthetic labels (default 1,000,000), build, then lookup latency p50/p95
 * for exact, misspelt, partial and accent/punctuation-variant queries.
 *   npx tsx scripts/bench-ground.ts [--n 1000000] [--queries 2000]
 */
import * as os from 'node:os';
import { itemAt, percentile } from '../src/core';
import { EntityIndex, type LabelEntry } from '../src/ground';
import { Command } from 'commander';

const cli = new Command('bench-ground')
  .option('--n <labels>', 'synthetic labels in the index', '1000000')
  .option('--queries <q>', 'queries timed', '2000')
  .parse();
const o = cli.opts<{ n: string; queries: string }>();

// Deterministic PRNG so runs are comparable.
let seed = 42;
function rand(): number {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
}
function pick<T>(xs: readonly T[], what: string): T {
  return itemAt(xs, Math.floor(rand() * xs.length), what);
}
const SYL = ['ka', 'lo', 'mi', 'ra', 'ten', 'bor', 'vic', 'an', 'el', 'son', 'ber', 'ger', 'ton', 'mar', 'li', 'sa', 'do', 'ré', 'zu', 'pha', 'qui', 'ny', 'st', 'ox', 'él'];
const COMMON = ['the', 'of', 'and', 'a', 'in', 'love', 'night', 'man', 'city', 'day', 'story', 'last', 'john', 'blue', 'war'];
function word(): string {
  const n = 2 + Math.floor(rand() * 3);
  let w = '';
  for (let i = 0; i < n; i++) w += pick(SYL, 'syllables');
  return w.charAt(0).toUpperCase() + w.slice(1);
}
function label(): string {
  const n = 1 + Math.floor(rand() * 4);
  const ws: string[] = [];
  for (let i = 0; i < n; i++) ws.push(rand() < 0.3 ? pick(COMMON, 'common words') : word());
  if (rand() < 0.1) ws.push(String(1900 + Math.floor(rand() * 120)));
  return ws.join(rand() < 0.1 ? ': ' : ' ');
}
function typo(s: string): string {
  const i = 1 + Math.floor(rand() * (s.length - 2));
  return s.slice(0, i) + s.slice(i + 1);
}

function pct(xs: number[], p: number): number {
  return percentile(xs, p) ?? NaN;
}

function main(): void {
  const n = Number(o.n);
  const q = Number(o.queries);
  const labels = Array.from({ length: n }, () => label());
  const entries: LabelEntry[] = labels.map((l, i) => ({ iri: `http://example.org/e/${i}`, label: l }));
  let t = performance.now();
  const index = EntityIndex.build(entries);
  const buildMs = performance.now() - t;
  const mem = process.memoryUsage().heapUsed / 2 ** 20;
  t = performance.now();
  index.warm(); // the vocabulary radix tree is built on first typo/prefix lookup
  const warmMs = performance.now() - t;
  for (let i = 0; i < 300; i++) index.search(typo(pick(labels, 'labels')), { k: 10, threshold: 0 }); // JIT warm-up
  const kinds: Record<string, (l: string) => string> = {
    exact: (l) => l,
    variant: (l) => l.toUpperCase().replace(/e/g, 'é').replace(/ /g, ' - '),
    typo: (l) => (l.length > 6 ? typo(l) : l),
    partial: (l) => l.split(' ').slice(0, Math.max(1, l.split(' ').length - 1)).join(' '),
  };
  console.log(`labels ${n}  build ${(buildMs / 1000).toFixed(1)} s (+ ${(warmMs / 1000).toFixed(1)} s typo tree)  heap ${mem.toFixed(0)} MiB  load average ${os.loadavg()[0]?.toFixed(1)}`);
  const all: number[] = [];
  const allCpu: number[] = [];
  for (const [kind, f] of Object.entries(kinds)) {
    const times: number[] = [];
    const cpu: number[] = [];
    let found = 0;
    for (let i = 0; i < q; i++) {
      const target = pick(labels, 'labels');
      const query = f(target);
      const c0 = process.cpuUsage();
      t = performance.now();
      const hits = index.search(query, { k: 10, threshold: 0 });
      times.push(performance.now() - t);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      if (hits.some((h) => h.label === target)) found++; // synthetic labels repeat: any entity with the target label counts
    }
    all.push(...times);
    allCpu.push(...cpu);
    console.log(
      `${kind.padEnd(8)} wall p50 ${pct(times, 50).toFixed(2)} ms  p95 ${pct(times, 95).toFixed(2)} ms  max ${pct(times, 100).toFixed(1)} ms | cpu p50 ${pct(cpu, 50).toFixed(2)} p95 ${pct(cpu, 95).toFixed(2)} ms | label@10 ${((100 * found) / q).toFixed(1)}%`,
    );
  }
  console.log(`all      wall p50 ${pct(all, 50).toFixed(2)} ms  p95 ${pct(all, 95).toFixed(2)} ms | cpu p50 ${pct(allCpu, 50).toFixed(2)} p95 ${pct(allCpu, 95).toFixed(2)} ms`);
  console.log('(cpu = process CPU time per lookup: the cost without time spent descheduled on a loaded machine)');
}

main();
