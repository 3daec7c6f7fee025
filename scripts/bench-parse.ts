/**
 * Parser benchmark: loads the model once, parses N validation questions (brackets removed) and prints
 * latency p50/p95/max, top-1 exact match, gold-in-beam, parse rate, and the split of questions whose
 * entity never occurs as a topic in the training data.
 *
 *   npx tsx scripts/bench-parse.ts [--model DIR] [--beam 4 | --beam 1,4,8] [--n 300 | --n all] [--threads 1]
 *                                  [--data fixtures/metaqa/valid.jsonl] [--train fixtures/metaqa/train.jsonl]
 *                                  [--labels pack|none|FILE] [--label-mode soft|hard] [--label-penalty 8]
 *                                  [--renorm 1|0] [--length-penalty A] [--prune NATS] [--errors FILE] [--json]
 *
 * --labels: restrict copied entity spans to graph labels: 'pack' (default: the triple files of the pack
 * the model folder is in, if any), 'none', or a file (triples `head|relation|tail`, or one label a line).
 *
 * N questions are taken at an even stride over the file (so every hop is represented), deterministically.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Command } from 'commander';
import { itemAt, packageRoot, percentile } from '../src/core';
import { formsEqual, parseForm } from '../src/form';
import { loadParser, readLabelsFile } from '../src/generate';

interface Example {
  id: string;
  question: string;
  form: string;
  topic?: string[];
  meta?: { hop?: number };
}

const cli = new Command('bench-parse')
  .option('--model <dir>', 'model folder (default: the movies model)')
  .option('--beam <k>', 'beam widths, comma-separated', '4')
  .option('--n <n>', "questions (or 'all')", '300')
  .option('--threads <t>', 'onnxruntime threads')
  .option('--data <file>', 'validation JSON Lines')
  .option('--train <file>', 'training JSON Lines (for the unseen-entity split)')
  .option('--labels <src>', "'pack', 'none' or a labels / triple file", 'pack')
  .option('--label-mode <mode>', 'soft | hard')
  .option('--label-penalty <nats>', 'soft-mode penalty of a non-label span')
  .option('--renorm <1|0>', 'renormalise each step over the allowed tokens')
  .option('--length-penalty <a>', 'length normalisation exponent')
  .option('--prune <nats>', 'drop live beams this far below the best')
  .option('--errors <file>', 'write the misses')
  .option('--json', 'print JSON')
  .parse();
const cliOpts = cli.opts<Record<string, string | boolean | undefined>>();
/** A commander option value by its flag name (e.g. 'label-mode'). */
function arg(name: string): string | undefined;
function arg(name: string, fallback: string): string;
function arg(name: string, fallback?: string): string | undefined {
  const v = cliOpts[name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())];
  return typeof v === 'string' ? v : fallback;
}

function readJsonl(file: string): Example[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Example);
}

const pct = (x: number, n: number): string => (n ? ((100 * x) / n).toFixed(2) + '%' : 'n/a');
const quantile = (xs: number[], q: number): number => percentile(xs, 100 * q) ?? NaN;

async function main(): Promise<void> {
  const root = packageRoot();
  const modelDir = arg('model');
  const beams = arg('beam', '4').split(',').map((b) => Number(b));
  const nArg = arg('n', '300');
  const threads = arg('threads') ? Number(arg('threads')) : undefined;
  const data = readJsonl(arg('data', path.join(root, 'fixtures/metaqa/valid.jsonl')));
  const train = readJsonl(arg('train', path.join(root, 'fixtures/metaqa/train.jsonl')));
  const seenTopics = new Set(train.flatMap((e) => e.topic ?? []));
  const n = nArg === 'all' ? data.length : Math.min(data.length, Number(nArg));
  const stride = data.length / n;
  const sample = Array.from({ length: n }, (_, i) => itemAt(data, Math.floor(i * stride), 'questions'));

  const tLoad = performance.now();
  const labelsArg = arg('labels', 'pack');
  const labels = labelsArg === 'pack' || labelsArg === 'none' ? labelsArg : readLabelsFile(labelsArg);
  const labelMode = arg('label-mode') as 'soft' | 'hard' | undefined;
  const labelPenalty = arg('label-penalty') ? Number(arg('label-penalty')) : undefined;
  // The decoding options of ParserOptions (defaults: renormalised beams, no length penalty, no pruning).
  const renormalize = arg('renorm') === undefined ? undefined : arg('renorm') !== '0';
  const lengthPenalty = arg('length-penalty') ? Number(arg('length-penalty')) : undefined;
  const prune = arg('prune') ? Number(arg('prune')) : undefined;
  const parser = await loadParser(modelDir, { threads, labels, labelMode, labelPenalty, renormalize, lengthPenalty, prune });
  const loadMs = performance.now() - tLoad;
  console.log(
    `model ${parser.id} (${parser.dir}) loaded in ${loadMs.toFixed(0)} ms; ${n} of ${data.length} questions; threads ${threads ?? 1}` +
      `; ${parser.labelCount} graph labels (--labels ${labelsArg}, ${labelMode ?? 'soft'}${labelMode === 'hard' ? '' : `, penalty ${labelPenalty ?? 8}`})`,
  );
  for (let i = 0; i < 5; i++) await parser.generate(itemAt(sample, i % n, 'sampled questions').question, { beam: beams[0] }); // warm-up

  const results: Record<string, unknown>[] = [];
  for (const beam of beams) {
    const times: number[] = [];
    const cpu: number[] = [];
    let em = 0;
    let inBeam = 0;
    let parsed = 0;
    let nonEmpty = 0;
    let dropped = 0;
    const split = { seen: { n: 0, em: 0, inBeam: 0 }, unseen: { n: 0, em: 0, inBeam: 0 } };
    const hops = new Map<number, { n: number; em: number }>();
    const errors: string[] = [];
    for (const ex of sample) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const r = await parser.generate(ex.question, { beam });
      times.push(performance.now() - t0);
      const c1 = process.cpuUsage(c0);
      cpu.push((c1.user + c1.system) / 1000);
      const gold = parseForm(ex.form);
      const c = r.candidates;
      dropped += r.dropped;
      if (c.length) nonEmpty++;
      let allParse = c.length > 0 && r.dropped === 0;
      for (const cand of c) {
        try {
          if (!formsEqual(parseForm(cand.text), cand.form)) allParse = false;
        } catch {
          allParse = false;
        }
      }
      if (allParse) parsed++;
      const first = c[0];
      const top = first !== undefined && formsEqual(first.form, gold);
      const hit = c.some((x) => formsEqual(x.form, gold));
      if (top) em++;
      if (hit) inBeam++;
      const unseen = (ex.topic ?? []).some((t) => !seenTopics.has(t));
      const s = unseen ? split.unseen : split.seen;
      s.n++;
      if (top) s.em++;
      if (hit) s.inBeam++;
      const hop = ex.meta?.hop ?? 0;
      const h = hops.get(hop) ?? { n: 0, em: 0 };
      h.n++;
      if (top) h.em++;
      hops.set(hop, h);
      if (!top) errors.push(`${ex.id}\t${ex.question}\tgold: ${ex.form}\tgot: ${c[0]?.text ?? '(none)'}\tin beam: ${hit}`);
    }
    times.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    console.log(`\nbeam ${beam}: ${n} questions`);
    console.log(
      `  latency ms: p50 ${quantile(times, 0.5).toFixed(1)}  p95 ${quantile(times, 0.95).toFixed(1)}  max ${itemAt(times, -1, 'latencies').toFixed(1)}  mean ${mean.toFixed(1)}`,
    );
    // CPU time of this process per parse: what the wall time would be on an otherwise idle machine
    // (1 intra-op thread, all work in this process); shown because other jobs share the 2 cores.
    console.log(`  cpu ms:     p50 ${quantile(cpu, 0.5).toFixed(1)}  p95 ${quantile(cpu, 0.95).toFixed(1)}  max ${itemAt(cpu, -1, 'cpu times').toFixed(1)}   (load average ${os.loadavg()[0]?.toFixed(1)})`);
    console.log(`  top-1 EM ${pct(em, n)} (${em}/${n})   gold in beam ${pct(inBeam, n)} (${inBeam}/${n})`);
    console.log(`  beams that parse ${pct(parsed, n)} (${parsed}/${n}; ${n - nonEmpty} empty, ${dropped} dropped)`);
    console.log(
      `  unseen entities: n ${split.unseen.n}  EM ${pct(split.unseen.em, split.unseen.n)}  in beam ${pct(split.unseen.inBeam, split.unseen.n)}` +
        `   seen: n ${split.seen.n}  EM ${pct(split.seen.em, split.seen.n)}`,
    );
    console.log(`  per hop: ${[...hops.entries()].sort().map(([h, v]) => `${h}-hop ${pct(v.em, v.n)} (n ${v.n})`).join('  ')}`);
    for (const e of errors.slice(0, 10)) console.log('  x ' + e);
    const errFile = arg('errors');
    if (errFile) fs.writeFileSync(beams.length > 1 ? `${errFile}.beam${beam}` : errFile, errors.join('\n') + '\n');
    results.push({
      beam,
      n,
      p50: quantile(times, 0.5),
      cpuP50: quantile(cpu, 0.5),
      cpuP95: quantile(cpu, 0.95),
      p95: quantile(times, 0.95),
      max: times[times.length - 1],
      em: em / n,
      inBeam: inBeam / n,
      parseRate: parsed / n,
      unseen: { n: split.unseen.n, em: split.unseen.em / (split.unseen.n || 1), inBeam: split.unseen.inBeam / (split.unseen.n || 1) },
    });
  }
  if (cliOpts.json) console.log(JSON.stringify({ model: parser.id, results }));
  await parser.close();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
