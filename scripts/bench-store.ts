/**
 * Store benchmark for the movies graph (store/movies/kb.txt):
 *   1. load into Oxigraph from kb.txt (parse + mint + load) and from the N-Quads snapshot: time, RSS before/after
 *      (each in a fresh child process, so RSS is not polluted by the other);
 *   2. the pack through OxigraphExecutor (worker thread): time to ready, process RSS, and query latency
 *      p50/p95 of compiled MetaQA validation forms (1-hop = the "simple query"; 2- and 3-hop too).
 * Run: npx tsx scripts/bench-store.ts [--queries N] [--json]
 */
import { execFileSync } from 'node:child_process';
import { Command } from 'commander';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as oxigraph from 'oxigraph';
import { defaultPackDir, itemAt, packageRoot, percentile } from '../src/core';
import { compileForm, packCompileOptions } from '../src/compile';
import { parseForm } from '../src/form';
import { buildStore, loadPack, loadSnapshot, openExecutor, runCompiled, saveSnapshot } from '../src/execute';

const MB = 1024 * 1024;
const rssMb = () => Math.round((process.memoryUsage().rss / MB) * 10) / 10;

function child(mode: string, file: string): void {
  if (global.gc) global.gc();
  const before = rssMb();
  const t0 = process.hrtime.bigint();
  let size: number;
  if (mode === 'kb') {
    size = buildStore({ files: [file], baseIri: 'http://askgraph.dev/movies/' }).store.size;
  } else {
    const store = new oxigraph.Store();
    loadSnapshot(store, file);
    size = store.size;
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  process.stdout.write(JSON.stringify({ mode, triples: size, loadMs: Math.round(ms), rssBeforeMb: before, rssAfterMb: rssMb() }) + '\n');
}

function runChild(mode: string, file: string): Record<string, number | string> {
  const out = execFileSync(process.execPath, [...process.execArgv, __filename, '--child', mode, file], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(itemAt(out.trim().split('\n'), -1, 'child output lines')) as Record<string, number | string>;
}

function pct(xs: number[], p: number): number {
  return Math.round((percentile(xs, p) ?? NaN) * 10) / 10;
}

async function main(): Promise<void> {
  const o = new Command('bench-store')
    .option('--queries <n>', 'queries timed per store', '300')
    .option('--child <mode>', '(internal) load one store in this process: kb | snapshot')
    .argument('[file]', '(internal) the file the child loads')
    .parse();
  const opts = o.opts<{ queries: string; child?: string }>();
  if (opts.child) {
    child(opts.child, itemAt(o.args, 0, 'the file argument of --child'));
    return;
  }
  const nQueries = Number(opts.queries) || 300;
  const kb = path.join(defaultPackDir(), 'kb.txt');
  const snap = path.join(os.tmpdir(), `askgraph-bench-snapshot-${process.pid}.nq`);
  saveSnapshot(buildStore({ files: [kb], baseIri: 'http://askgraph.dev/movies/' }).store, snap);
  const results: Record<string, unknown> = { machine: { cpus: os.cpus().length, loadavg: os.loadavg().map((x) => Math.round(x * 10) / 10), node: process.version } };
  const runs = 3;
  const kbRuns = [];
  const snapRuns = [];
  for (let i = 0; i < runs; i++) {
    kbRuns.push(runChild('kb', kb));
    snapRuns.push(runChild('snapshot', snap));
  }
  results.loadFromKbTxt = kbRuns;
  results.loadFromSnapshot = snapRuns;
  results.snapshotMb = Math.round((fs.statSync(snap).size / MB) * 10) / 10;
  fs.rmSync(snap, { force: true });

  // the pack through the worker (its snapshot cache is created on first use)
  const rss0 = rssMb();
  const t0 = Date.now();
  const ex = await openExecutor();
  const readyMs = Date.now() - t0;
  results.executor = { readyMs, from: 'info' in ex ? ex.info?.from : undefined, workerLoadMs: 'info' in ex ? ex.info?.loadMs : undefined, rssBeforeMb: rss0, rssAfterMb: rssMb() };

  const valid = fs.readFileSync(path.join(packageRoot(), 'fixtures', 'metaqa', 'valid.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { form: string; meta: { hop: number } });
  const latency: Record<string, unknown> = {};
  const compileOptions = packCompileOptions((await loadPack()).config);
  for (const hop of [1, 2, 3]) {
    const forms = valid.filter((v) => v.meta.hop === hop).slice(0, hop === 1 ? nQueries : Math.ceil(nQueries / 3));
    const ms: number[] = [];
    const withLabels: number[] = [];
    let answers = 0;
    for (const f of forms) {
      const compiled = compileForm(parseForm(f.form), compileOptions);
      let t = process.hrtime.bigint();
      await ex.select(compiled.sparql, { timeoutMs: 30000 });
      ms.push(Number(process.hrtime.bigint() - t) / 1e6);
      t = process.hrtime.bigint();
      answers += (await runCompiled(ex, compiled, { timeoutMs: 30000 })).answers.length;
      withLabels.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    latency[`${hop}-hop`] = { n: ms.length, meanAnswers: Math.round((answers / forms.length) * 10) / 10, selectP50Ms: pct(ms, 50), selectP95Ms: pct(ms, 95), runCompiledWithLabelsP50Ms: pct(withLabels, 50), runCompiledWithLabelsP95Ms: pct(withLabels, 95) };
  }
  results.queryLatency = latency;
  results.rssAfterQueriesMb = rssMb();
  await ex.close();
  results.machine = { ...(results.machine as object), loadavgAfter: os.loadavg().map((x) => Math.round(x * 10) / 10) };
  process.stdout.write(JSON.stringify(results, null, 2) + '\n');
}

main().catch((e: unknown) => {
  process.stderr.write(String(e instanceof Error ? e.stack : e) + '\n');
  process.exitCode = 1;
});
