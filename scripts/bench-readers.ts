/**
 * Reader-only benchmark of the fallback readers (issue 6).
 *
 *   npx tsx scripts/bench-readers.ts --reader paths|triples|explore [--dataset fixtures/metaqa/valid.jsonl | pq2 | pq3] [--n N]
 *     [--vocab train|none] [--k HOPS] [--time MS]
 *     [--set reader.option=value] [--scorer model] [--write-vocabulary FILE] [--verbose]
 *
 * Topics come from entity linking on the question WITHOUT brackets (src/ground's linkEntities). Reports per hop:
 * Hits@1 (first answer gold, READS Appendix C), Hits (any answer gold, GSR's "Hits"), F1, answered
 * rate, the reader's latency p50/p95, and the number of answers that do not exist in the store.
 * The relation vocabulary is mined from the training split only (MetaQA train.jsonl; PathQuestion lines
 * with index % 20 != 7, evaluated on index % 20 == 7).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command } from 'commander';
import type { Executor } from '../src/core';
import { AskgraphError, defined, getOrAdd, packageRoot, percentile, pushTo, readTriples, words } from '../src/core';
import { parseJsonl } from '../src/eval';
import { loadParser } from '../src/generate';
import { parseForm } from '../src/form';
import {
  chainFromForm,
  DEFAULT_BUDGET,
  mineRelationVocabulary,
  questionTerms,
  readersByName,
  runChain,
  type ReaderContext,
  type RelationVocabulary,
  type Topic,
  type VocabExample,
} from '../src/fallback';
import { existsQuery, iri, lit } from '../src/fallback/sparql';
import { mintEntity, openExecutor, OxigraphExecutor } from '../src/execute';
import { EntityIndex, linkEntities } from '../src/ground';

interface Example {
  id: string;
  question: string;
  answers: string[];
  hop: number;
  topic?: string[];
}

/** A line of the MetaQA JSON Lines files. */
interface MetaqaLine {
  id: string;
  question: string;
  form: string;
  answers: string[];
  topic?: string[];
  meta?: { hop?: number };
}

const cli = new Command('bench-readers')
  .option('--reader <name>', 'paths | triples | explore', 'paths')
  .option('--dataset <file|pq2|pq3>', 'data set', 'fixtures/metaqa/valid.jsonl')
  .option('--n <n>', 'questions per hop (0 = all)', '0')
  .option('--vocab <train|none>', 'relation vocabulary mined from the training split, or none', 'train')
  .option('--k <hops>', 'hops (triples) / depth (explore)')
  .option('--time <ms>', 'time budget per question')
  .option('--set <reader.option=value>', 'reader option (repeatable)', (v: string, acc: string[]) => [...acc, v], [] as string[])
  .option('--scorer <model>', "'model': the parser scores chains as forms")
  .option('--write-vocabulary <file>', 'write the mined vocabulary')
  .option('--verbose', 'print every miss')
  .parse();
const cliOpts = cli.opts<Record<string, unknown> & { set: string[]; verbose?: boolean }>();
/** A commander option value by its flag name (e.g. 'write-vocabulary'). */
function arg(name: string): string | undefined;
function arg(name: string, dflt: string): string;
function arg(name: string, dflt?: string): string | undefined {
  const v = cliOpts[name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())];
  return typeof v === 'string' ? v : dflt;
}

/** Answers are compared as their words (src/core/text.ts). */
const norm = (s: string) => words(s).join(' ');

function readJsonl(file: string): MetaqaLine[] {
  return parseJsonl<MetaqaLine>(fs.readFileSync(file, 'utf8'), file);
}

/** PathQuestion line: question \t answer(alias/alias/) \t e#r#e#r#…#<end>#answer */
function readPq(file: string, hop: number): { ex: Example; hops: { name: string; dir: '>' }[]; topic: string }[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line, i) => {
      const [q, a, p] = line.split('\t');
      if (q === undefined || a === undefined || p === undefined) throw new AskgraphError('DATA_FORMAT', `${file}:${i + 1}: expected question, answer and path separated by tabs`);
      const m = /^(.*?)\((.*)\)$/.exec(a.trim());
      const answers = m ? [defined(m[1], 'answer'), ...defined(m[2], 'answer aliases').split('/').filter(Boolean)] : [a.trim()];
      const parts = p.split('#');
      const end = parts.indexOf('<end>');
      const chain = parts.slice(0, end);
      const hops = chain.filter((_, j) => j % 2 === 1).map((name) => ({ name, dir: '>' as const }));
      const topic = chain[0];
      if (topic === undefined) throw new AskgraphError('DATA_FORMAT', `${file}:${i + 1}: the path has no topic entity before <end>`);
      return { ex: { id: `pq${hop}-${i}`, question: q.trim(), answers: [...new Set(answers)], hop, topic: [topic] }, hops, topic };
    });
}

function pct(xs: number[], p: number): number {
  return percentile(xs, p) ?? NaN;
}

async function main(): Promise<void> {
  const root = packageRoot();
  const readerName = arg('reader', 'paths');
  const dataset = arg('dataset', 'fixtures/metaqa/valid.jsonl');
  const n = Number(arg('n', '0'));
  const vocabMode = arg('vocab', 'train');
  const budgetMs = Number(arg('time', String(DEFAULT_BUDGET.timeMs)));
  const k = arg('k');
  const log = (s: string) => process.stdout.write(s + '\n');

  let kbFile: string;
  let baseIri: string;
  let examples: Example[];
  let vocab: RelationVocabulary | undefined;
  let excludeTopics = true;
  if (dataset === 'pq2' || dataset === 'pq3') {
    const hop = dataset === 'pq2' ? 2 : 3;
    const dir = path.join(root, '..', 'shared', 'data', 'pathquestion');
    kbFile = path.join(dir, `${hop}H-kb.txt`);
    baseIri = `http://askgraph.dev/${dataset}/`;
    const all = readPq(path.join(dir, `PQ-${hop}H.txt`), hop);
    const train = all.filter((_, i) => i % 20 !== 7);
    examples = all.filter((_, i) => i % 20 === 7).map((x) => x.ex);
    excludeTopics = false; // PathQuestion answers may be the topic itself (x's child's parent)
    if (vocabMode === 'train') vocab = mineRelationVocabulary(train.map((x) => ({ terms: questionTerms(x.ex.question, [x.topic]), hops: x.hops })));
  } else {
    kbFile = path.join(root, 'store', 'movies', 'kb.txt');
    baseIri = 'http://askgraph.dev/movies/';
    examples = readJsonl(path.join(root, dataset)).map((d) => ({ id: d.id, question: d.question, answers: d.answers, hop: d.meta?.hop ?? 0, topic: d.topic }));
    if (vocabMode === 'train') {
      const train: VocabExample[] = [];
      for (const d of readJsonl(path.join(root, 'fixtures', 'metaqa', 'train.jsonl'))) {
        const c = chainFromForm(parseForm(d.form));
        if (c?.hops.length) train.push({ terms: questionTerms(d.question, [c.topic]), hops: c.hops });
      }
      vocab = mineRelationVocabulary(train);
    }
  }
  const writeVocab = arg('write-vocabulary');
  if (writeVocab && vocab) {
    fs.writeFileSync(writeVocab, JSON.stringify(vocab) + '\n');
    log(`# wrote the mined vocabulary to ${writeVocab}`);
  }
  if (n > 0) {
    const byHop = new Map<number, Example[]>();
    for (const e of examples) pushTo(byHop, e.hop, e);
    examples = [...byHop.values()].flatMap((xs) => xs.filter((_, i) => i % Math.max(1, Math.floor(xs.length / n)) === 0).slice(0, n));
  }

  const t0 = Date.now();
  // The real embedded executor (movies: the pack with its snapshot cache; PathQuestion: its KB file).
  const executor: Executor = dataset === 'pq2' || dataset === 'pq3' ? await OxigraphExecutor.open({ files: [kbFile], baseIri }) : await openExecutor();
  const executorNote = executor.id;
  // The entity index over every head and tail label of the KB (the minting rule gives the IRIs).
  const entries = new Map<string, { iri: string; label: string }>();
  for (const { triple } of readTriples(fs.readFileSync(kbFile, 'utf8'), path.basename(kbFile))) {
    for (const l of [triple[0], triple[2]]) entries.set(l, { iri: mintEntity(baseIri, l), label: l });
  }
  const index = EntityIndex.build(entries.values());
  const link = (q: string): Topic[] => linkEntities(q, index, { k: 3 }).map((h) => ({ iri: h.iri, label: h.label, score: h.score }));
  const linkNote = 'src/ground linkEntities (EntityIndex.build over the KB labels)';
  // --scorer model: the parser model scores chains as forms (paths reader), as in the pipeline.
  let scorer: ((q: string, forms: string[]) => Promise<number[]>) | undefined;
  if (arg('scorer') === 'model') {
    const parser = await loadParser();
    scorer = (q, forms) => parser.score(q, forms);
    log(`# scorer: parser model ${parser.id}`);
  }
  log(`# reader=${readerName} dataset=${dataset} n=${examples.length} vocab=${vocabMode} budget=${budgetMs}ms`);
  log(`# executor: ${executorNote}; setup ${Date.now() - t0} ms; linking: ${linkNote}`);

  const readerOpts: Record<string, Record<string, number>> = k ? { triples: { hops: Number(k) }, explore: { depth: Number(k) } } : {};
  // --set reader.option=value (tuning), e.g. --set paths.priorWeight=0.3
  for (const setting of cliOpts.set) {
    const m = /^(\w+)\.(\w+)=(.*)$/.exec(setting);
    if (!m) throw new Error(`--set ${setting}: expected reader.option=value`);
    (readerOpts[defined(m[1], '--set reader')] ??= {})[defined(m[2], '--set option')] = Number(m[3]);
  }
  const readers = readersByName([readerName], readerOpts);
  interface Acc {
    n: number;
    hits1: number;
    hits: number;
    f1: number;
    answered: number;
    ms: number[];
    linkOk: number;
  }
  const acc = new Map<string, Acc>();
  const answerValues = new Map<string, { type: string; value: string; datatype?: string }>();
  let dropped = 0;
  const failures = new Map<string, number>();
  for (const [i, ex] of examples.entries()) {
    const topics = link(ex.question);
    const ctx: ReaderContext = {
      question: ex.question,
      topics,
      executor,
      budget: { ...DEFAULT_BUDGET, timeMs: budgetMs },
      relationVocabulary: vocab,
      excludeTopics,
      ...(scorer ? { scorer } : {}),
    };
    const t = Date.now();
    const res = await runChain(readers, ctx);
    const ms = Date.now() - t;
    dropped += res.dropped;
    const gold = new Set(ex.answers.map(norm));
    const got = (res.result?.answers ?? []).map((a) => norm(a.label ?? a.value));
    for (const a of res.result?.answers ?? []) answerValues.set(`${a.type}|${a.value}`, a);
    const inter = new Set(got.filter((g) => gold.has(g))).size;
    const p = got.length ? inter / new Set(got).size : 0;
    const r = gold.size ? inter / gold.size : 0;
    const hit1 = got[0] !== undefined && gold.has(got[0]);
    const [topTopic] = topics;
    const [goldTopic] = ex.topic ?? [];
    for (const key of [`hop${ex.hop}`, 'all']) {
      const a = getOrAdd(acc, key, (): Acc => ({ n: 0, hits1: 0, hits: 0, f1: 0, answered: 0, ms: [], linkOk: 0 }));
      a.n++;
      a.hits1 += hit1 ? 1 : 0;
      a.hits += inter > 0 ? 1 : 0;
      a.f1 += p + r > 0 ? (2 * p * r) / (p + r) : 0;
      a.answered += got.length ? 1 : 0;
      a.ms.push(ms);
      a.linkOk += topTopic !== undefined && goldTopic !== undefined && norm(topTopic.label) === norm(goldTopic) ? 1 : 0;
    }
    if (!res.result) for (const f of res.failures) failures.set(f.reason.replace(/\d+/g, 'N'), (failures.get(f.reason.replace(/\d+/g, 'N')) ?? 0) + 1);
    if (cliOpts.verbose && !hit1) {
      log(`MISS ${ex.id} ${ex.question} | topics=${topics.map((t) => t.label).join(';')} | got=${got.slice(0, 3).join(';')} | gold=${ex.answers.slice(0, 3).join(';')} | ${res.result?.note ?? res.failures.map((f) => f.reason).join(';')}`);
    }
    if ((i + 1) % 200 === 0) process.stderr.write(`${i + 1}/${examples.length}\n`);
  }
  // Answers outside the store: every distinct answer value must occur in some triple.
  let outside = 0;
  for (const a of answerValues.values()) {
    const term = a.type === 'literal' ? lit(a.value, a.datatype) : iri(a.value);
    if (!(await executor.ask(existsQuery(term)))) outside++;
  }
  log('| split | n | Hits@1 | Hits | F1 | answered | top-topic = gold topic | p50 ms | p95 ms |');
  log('|---|---|---|---|---|---|---|---|---|');
  for (const [key, a] of [...acc].sort()) {
    const f = (x: number) => ((100 * x) / a.n).toFixed(2);
    log(`| ${key} | ${a.n} | ${f(a.hits1)} | ${f(a.hits)} | ${f(a.f1)} | ${f(a.answered)} | ${f(a.linkOk)} | ${pct(a.ms, 50)} | ${pct(a.ms, 95)} |`);
  }
  log(`answers outside the store: ${outside} (of ${answerValues.size} distinct answers); dropped by the grounding assertion: ${dropped}`);
  if (failures.size) log('failures: ' + [...failures].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([r, c]) => `${c}× ${r}`).join(' | '));
  await executor.close();
}


main().catch((e: unknown) => {
  process.stderr.write(`bench-readers: ${e instanceof Error && e.stack !== undefined ? e.stack : String(e)}\n`);
  process.exit(1);
});
