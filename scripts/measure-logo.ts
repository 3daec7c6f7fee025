/**
 * Leave-one-graph-out (issue 20): for a graph the base parser was not trained on, build a pack with
 * `askgraph init` (--minutes M; 0 = zero-shot, the base model as it is) and measure it with `askgraph eval` on a
 * seeded sample of the graph's questions: Hits@1 (src/eval's metric), and the share of answerable questions
 * (gold answers non-empty) that got no answer. Each step is the askgraph CLI in a child process, printed as the
 * command that reproduces it.
 *
 *   npx tsx scripts/measure-logo.ts [--graph wc2014 --graph pathquestion --graph restaurants] [--minutes 10]
 *       [--questions 200] [--seed 1] [--base-model DIR | --no-base-model] [--size tiny] [--count N] [--epochs N]
 *       [--threads 2] [--work /tmp/askgraph-logo] [--data ../shared/data] [--out-of-scope N] [--reuse-packs] [--json]
 *
 * Graphs (../shared/data): wc2014 (WC-P2 questions over WC2014.txt, `_inverse` triples dropped as
 * `askgraph import wc2014 --kb` does), pathquestion (= pq-2h), pq-3h, pql-2h, pql-3h (PathQuestion questions over
 * their KB files), restaurants (restaurants.nt and its 60 QALD questions: a development set, only ever measured
 * here — nothing of it is trained on but the graph's own synthetic questions, as for every graph).
 * The questions are converted by the existing importers (`askgraph import`, src/eval/importers); init reads the
 * converted triple file (kb.txt, `head|relation|tail`) or the N-Triples file.
 *
 * Out of scope (`--out-of-scope N`): each pack is also asked a seeded N questions that it cannot answer — questions
 * of the other graphs (WC2014's and PathQuestion's, converted as above, and the movie questions of
 * fixtures/metaqa/valid.jsonl), about entities and relations this graph does not have — with no gold answer; the
 * share it refuses is "out of scope refused". A graph never gets its own family's questions as out of scope (the
 * PathQuestion sets share people and relations).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command } from 'commander';
import { Rng } from '../src/core';
import { loadDataset, PATH_DATASETS } from '../src/eval';
import type { EvalSummary, ExampleResult } from '../src/eval';

const ROOT = path.resolve(__dirname, fs.existsSync(path.resolve(__dirname, '../package.json')) ? '..' : '../..');
const BIN = path.join(ROOT, 'bin', 'askgraph.js');

interface Opts {
  graph?: string[];
  minutes: string;
  questions: string;
  seed: string;
  baseModel?: string | false;
  size?: string;
  count?: string;
  epochs?: string;
  threads?: string;
  work: string;
  data?: string;
  json?: boolean;
  outOfScope: string;
  reusePacks?: boolean;
}

const cli = new Command('measure-logo')
  .option('--graph <name>', 'wc2014 | pathquestion | pq-3h | pql-2h | pql-3h | restaurants (repeatable; default wc2014, pathquestion, restaurants)', (v: string, acc: string[] | undefined) => [...(acc ?? []), v])
  .option('--minutes <m>', "init's --minutes (0 = zero-shot: the base model as it is)", '10')
  .option('--questions <n>', 'a seeded sample of n questions per graph (eval --sample)', '200')
  .option('--seed <s>', 'seed of the question sample and of init', '1')
  .option('--base-model <dir>', "init's base model (default: init's own default)")
  .option('--no-base-model', 'init trains from scratch')
  .option('--size <size>', "init's --size (from-scratch runs only)")
  .option('--count <n>', "init's --count (synthetic questions)")
  .option('--epochs <n>', "init's --epochs (instead of filling the budget)")
  .option('--threads <n>', "init's --threads")
  .option('--work <dir>', 'where converted data and packs go', '/tmp/askgraph-logo')
  .option('--data <dir>', 'the shared data folder')
  .option('--out-of-scope <n>', "also ask each pack n seeded questions of the other graphs (no gold answer): the share refused", '0')
  .option('--reuse-packs', 'measure a pack that is already in --work as it is (no init)')
  .option('--json', 'print the results as JSON')
  .parse();
const o = cli.opts<Opts>();

function dataDir(): string {
  if (o.data) return o.data;
  for (const c of [path.resolve(ROOT, '../shared/data'), path.resolve(ROOT, '../../shared/data'), '/work/shared/data']) {
    if (fs.existsSync(path.join(c, 'wc2014'))) return c;
  }
  throw new Error('cannot find shared/data; pass --data DIR');
}

/** A graph to measure: how to make its init source and its eval data set. */
interface GraphSpec {
  name: string;
  /** Commands that convert the graph's files (the importers), run before init. */
  prepare: string[][];
  /** init's sources. */
  sources: string[];
  dataset: string;
  format?: string;
}

/** The PATH_DATASETS key of a graph name (wc2014 is WC-P2, pathquestion is PQ-2H). */
function datasetKey(name: string): string {
  return name === 'wc2014' ? 'wc-p2' : name === 'pathquestion' ? 'pq-2h' : name;
}

function graphSpec(name: string, data: string, work: string): GraphSpec {
  const key = datasetKey(name);
  if (name === 'restaurants') {
    return {
      name,
      prepare: [],
      sources: [path.join(data, 'restaurants', 'restaurants.nt')],
      dataset: path.join(data, 'restaurants', 'restaurants-qald.json'),
      format: 'qald',
    };
  }
  const spec = PATH_DATASETS[key];
  if (!spec) throw new Error(`unknown graph ${name} (wc2014, pathquestion, ${Object.keys(PATH_DATASETS).filter((k) => k !== 'wc-p2').join(', ')}, restaurants)`);
  const dir = path.join(work, 'data', name);
  const questions = path.join(dir, 'questions.jsonl');
  const kbDir = path.join(dir, 'kb');
  return {
    name,
    prepare: [['import', spec.kind === 'wc' ? 'wc2014' : 'pathquestion', path.join(data, spec.questions), '--out', questions, '--kb', path.join(data, spec.kb), '--pack', kbDir, '--name', name]],
    sources: [path.join(kbDir, 'kb.txt')],
    dataset: questions,
  };
}

const show = (args: string[]) => ['askgraph', ...args.map((a) => (/^[\w./:=@+-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`))].join(' ');

/** Runs the CLI; its stderr (progress) passes through, its stdout is returned. */
function askgraph(args: string[]): Promise<string> {
  process.stderr.write(`\n$ ${show(args)}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${show(args)} exited with ${String(code)}\n${out}`))));
  });
}

interface Row {
  graph: string;
  questions: number;
  hits1: number | null;
  /** Answerable questions (gold answers non-empty) answered with nothing. */
  answerableRefused: number | null;
  answerable: number;
  /** Questions whose gold is empty (out of scope) that got no answer: the data set's own, then the other graphs'. */
  outOfScopeRefused: number | null;
  outOfScope: number;
  otherGraphsRefused: number | null;
  otherGraphs: number;
  /** null: the pack was there already (--reuse-packs). */
  initSeconds: number | null;
  init: string;
  eval: string;
}

const rate = (k: number, n: number) => (n ? k / n : null);

/** The graphs whose questions are another graph's out-of-scope questions (besides MetaQA's movie questions). */
const OTHER_GRAPHS = ['wc2014', 'pathquestion'];

/** The data family of a graph: the PathQuestion sets share people and relations, so none is another's out of scope. */
function family(name: string): string {
  return PATH_DATASETS[datasetKey(name)]?.kind ?? name;
}

/**
 * A JSON Lines data set of the questions of every graph but `name` (OTHER_GRAPHS, converted when they are not yet,
 * and fixtures/metaqa/valid.jsonl), each with no gold answer; eval --sample draws from it.
 */
async function otherGraphsQuestions(name: string, data: string, work: string): Promise<string> {
  const files: string[] = [path.join(ROOT, 'fixtures', 'metaqa', 'valid.jsonl')];
  for (const other of OTHER_GRAPHS.filter((x) => family(x) !== family(name))) {
    const spec = graphSpec(other, data, work);
    if (!fs.existsSync(spec.dataset)) {
      fs.mkdirSync(path.join(work, 'data', other), { recursive: true });
      for (const args of spec.prepare) await askgraph(args);
    }
    files.push(spec.dataset);
  }
  const questions = [...new Set(files.flatMap((f) => loadDataset(f).map((e) => e.question)))];
  new Rng(Number(o.seed)).shuffle(questions); // the sources interleaved, so that any sample draws from each
  const out = path.join(work, 'data', `out-of-scope-for-${name}.jsonl`);
  fs.writeFileSync(out, questions.map((q, i) => JSON.stringify({ id: `oos-${i}`, question: q, answers: [] })).join('\n') + '\n');
  return out;
}

async function measure(g: GraphSpec, data: string, work: string): Promise<Row> {
  fs.mkdirSync(path.join(work, 'data', g.name), { recursive: true }); // (import writes into an existing folder)
  for (const args of g.prepare) await askgraph(args);
  const base = o.baseModel === false ? 'scratch' : o.baseModel ? 'base' : 'default';
  const pack = path.join(work, 'packs', `${g.name}-m${o.minutes}-${base}-s${o.seed}`);
  const initArgs = ['init', ...g.sources, '--out', pack, '--name', g.name, '--minutes', o.minutes, '--seed', o.seed, '--no-progress'];
  if (o.baseModel === false) initArgs.push('--no-base-model');
  else if (o.baseModel) initArgs.push('--base-model', path.resolve(o.baseModel));
  for (const [flag, v] of [['--size', o.size], ['--count', o.count], ['--epochs', o.epochs], ['--threads', o.threads]] as const) if (v !== undefined) initArgs.push(flag, v);
  const t0 = Date.now();
  const reuse = o.reusePacks && fs.existsSync(path.join(pack, 'pack.json'));
  if (!reuse) await askgraph(initArgs);
  const initSeconds = reuse ? null : (Date.now() - t0) / 1000;
  const report = path.join(work, 'reports', `${path.basename(pack)}-q${o.questions}.json`);
  fs.mkdirSync(path.dirname(report), { recursive: true });
  const evalArgs = ['eval', '--dataset', g.dataset, ...(g.format ? ['--format', g.format] : []), '--store', pack, '--sample', o.questions, '--seed', o.seed, '--json', '--out', report];
  await askgraph(evalArgs);
  const { summary, examples } = JSON.parse(fs.readFileSync(report, 'utf8')) as { summary: EvalSummary; examples: ExampleResult[] };
  const answerable = examples.filter((e) => e.gold.length > 0);
  const outOfScope = examples.filter((e) => e.gold.length === 0);
  let others: ExampleResult[] = [];
  if (Number(o.outOfScope) > 0) {
    const file = await otherGraphsQuestions(g.name, data, work);
    const oosReport = report.replace(/\.json$/, `-oos${o.outOfScope}.json`);
    await askgraph(['eval', '--dataset', file, '--store', pack, '--sample', o.outOfScope, '--seed', o.seed, '--json', '--out', oosReport]);
    others = (JSON.parse(fs.readFileSync(oosReport, 'utf8')) as { examples: ExampleResult[] }).examples;
  }
  return {
    graph: g.name,
    questions: summary.count,
    hits1: summary.hits1,
    answerable: answerable.length,
    answerableRefused: rate(answerable.filter((e) => e.noAnswer).length, answerable.length),
    outOfScope: outOfScope.length,
    outOfScopeRefused: rate(outOfScope.filter((e) => e.noAnswer).length, outOfScope.length),
    otherGraphs: others.length,
    otherGraphsRefused: rate(others.filter((e) => e.noAnswer).length, others.length),
    initSeconds,
    init: show(initArgs),
    eval: show(evalArgs),
  };
}

async function main(): Promise<void> {
  const data = dataDir();
  const work = path.resolve(o.work);
  const graphs = o.graph ?? ['wc2014', 'pathquestion', 'restaurants'];
  const specs = graphs.map((g) => graphSpec(g, data, work)); // unknown names fail before any work
  const rows: Row[] = [];
  for (const g of specs) rows.push(await measure(g, data, work));
  if (o.json) {
    process.stdout.write(JSON.stringify({ minutes: Number(o.minutes), questions: Number(o.questions), seed: Number(o.seed), baseModel: o.baseModel ?? 'default', rows }, null, 2) + '\n');
    return;
  }
  const pct = (x: number | null) => (x === null ? '—' : (100 * x).toFixed(1) + '%');
  const L = [
    `Leave-one-graph-out, init --minutes ${o.minutes}${o.minutes === '0' ? ' (zero-shot)' : ''}, base model: ${o.baseModel === false ? 'none (from scratch)' : (o.baseModel ?? "init's default")}; a seeded sample of ${o.questions} questions (seed ${o.seed})`,
    '',
    '| graph | questions | Hits@1 | answerable refused | out of scope refused | other graphs\' questions refused | init wall |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.graph} | ${r.questions} | ${pct(r.hits1)} | ${pct(r.answerableRefused)} (of ${r.answerable}) | ${r.outOfScope ? `${pct(r.outOfScopeRefused)} (of ${r.outOfScope})` : '—'} | ${r.otherGraphs ? `${pct(r.otherGraphsRefused)} (of ${r.otherGraphs})` : '—'} | ${r.initSeconds === null ? 'pack reused' : `${r.initSeconds.toFixed(0)} s`} |`),
    '',
    'Commands:',
    ...rows.flatMap((r) => [`- ${r.graph}: \`${r.init}\``, `  then \`${r.eval}\``]),
  ];
  process.stdout.write(L.join('\n') + '\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`measure-logo: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
