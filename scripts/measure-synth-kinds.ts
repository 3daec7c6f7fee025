/**
 * Per-kind accuracy of a pack's parser on held-out synthetic questions written by a SEPARATE seed (not the
 * pack's own held-out split): questions of the chosen operators are synthesised from the pack's store,
 * schema and lexicon; forms that the pack trained on are dropped; each question is asked through the real
 * pipeline (parser, grounding, compiler, Oxigraph) and compared with the same pipeline given the gold form.
 *
 *   npx tsx scripts/measure-synth-kinds.ts --pack /tmp/company-pack [--seed 101] [--per-kind 40]
 *       [--ops table,group,having,topk,attrcompare,countcompare,contains,percent] [--questions FILE] [--out report.json]
 *
 * --questions FILE: hand-written questions instead, JSON Lines {question, form, kind} (gold forms with the
 * pack's bare names and [ mentions ]).
 * --predictions FILE: forms another decoder wrote (e.g. the trainer's PyTorch probe rows), JSON Lines
 * {question, gold, pred, hop|kind}: each predicted form is grounded, compiled and run in place of the pack's parser.
 *
 * Per kind: n, form EM (normalised form equality), Hits@1 (the first answer — a table's first row key — is a gold
 * answer), answers exact (the same set of answers / row keys), rows exact (a table: the same rows, cell by cell,
 * in the same order when the gold is ordered; other answers: the answers exact), and how many the parser answered
 * at all. Prints numbers only.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command } from 'commander';
import type { Answer, Candidate, PackConfig } from '../src/core';
import { openExecutor } from '../src/execute';
import { formsEqual, parseForm } from '../src/form';
import { createGateway, type ScoringGenerator } from '../src/pipeline';
import { buildLexicon, mergeLexicon, readLexicon, readSchema, synthesize, type SynthOperator } from '../src/synth';

const program = new Command()
  .requiredOption('--pack <dir>', 'a pack written by askgraph init')
  .option('--seed <n>', 'seed of the held-out questions (not the pack’s)', '101')
  .option('--per-kind <n>', 'questions per kind', '40')
  .option('--ops <list>', 'operators', 'table,group,having,topk,attrcompare,countcompare,contains,percent')
  .option('--questions <file>', 'hand-written questions (JSON Lines {question, form, kind})')
  .option('--predictions <file>', 'predicted forms to run instead of the parser (JSON Lines {question, gold, pred, hop|kind})')
  .option('--out <file>', 'write per-question results as JSON')
  .parse();
const o = program.opts<{ pack: string; seed: string; perKind: string; ops: string; questions?: string; predictions?: string; out?: string }>();

interface Q {
  question: string;
  form: string;
  kind: string;
}

/** A generator that returns the given form of each question (the gold one, or another decoder's). */
function goldGenerator(gold: Map<string, string>): ScoringGenerator {
  return {
    id: 'given-forms',
    generate(question: string) {
      const text = gold.get(question);
      const candidates: Candidate[] = [];
      try {
        if (text) candidates.push({ form: parseForm(text), text, logProb: 0, rank: 0 });
      } catch {
        /* an unparsable prediction: no candidate */
      }
      return Promise.resolve({ candidates, dropped: 0, timeMs: 0 });
    },
  };
}

const rowKey = (row: ({ value: string } | null)[]) => JSON.stringify(row.map((c) => (c === null ? null : c.value)));

function compare(gold: Answer, got: Answer, goldOrdered: boolean) {
  const g = new Set(gold.answers.map((a) => a.value));
  const first = got.answers[0]?.value;
  const hits1 = first !== undefined && g.has(first) ? 1 : 0;
  const gotSet = new Set(got.answers.map((a) => a.value));
  const answersExact = got.answers.length > 0 && g.size === gotSet.size && [...g].every((x) => gotSet.has(x)) ? 1 : 0;
  let rowsExact = answersExact;
  if (gold.table) {
    if (!got.table) rowsExact = 0;
    else {
      const a = gold.table.rows.map(rowKey);
      const b = got.table.rows.map(rowKey);
      rowsExact = a.length === b.length && (goldOrdered ? a.every((x, i) => x === b[i]) : [...a].sort().join('\n') === [...b].sort().join('\n')) ? 1 : 0;
    }
  }
  return { hits1, answersExact, rowsExact };
}

async function main() {
  const pack = path.resolve(o.pack);
  const config = JSON.parse(fs.readFileSync(path.join(pack, 'pack.json'), 'utf8')) as PackConfig;
  const schema = readSchema(path.join(pack, 'schema.json'));
  const executor = await openExecutor(pack);
  let questions: Q[] = [];
  let dropped = 0;
  let predicted: Map<string, string> | undefined;
  if (o.predictions) {
    const rows = fs.readFileSync(o.predictions, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { question: string; gold: string; pred: string; hop?: string; kind?: string });
    questions = rows.map((r) => ({ question: r.question, form: r.gold, kind: r.kind ?? r.hop ?? '?' }));
    predicted = new Map(rows.map((r) => [r.question, r.pred]));
  } else if (o.questions) {
    questions = fs.readFileSync(o.questions, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Q);
  } else {
    const lexicon = mergeLexicon(buildLexicon(schema), readLexicon(path.join(pack, 'lexicon.json')));
    const ops = o.ops.split(',') as SynthOperator[];
    const weights = Object.fromEntries(ops.map((op) => [op, 1])) as Partial<Record<SynthOperator, number>>;
    const trained = new Set(fs.readFileSync(path.join(pack, 'data', 'train.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { form: string }).form));
    const compile = { vocabularyNamespace: config.vocabularyNamespace, labelPredicates: config.labelPredicates, names: config.names, excludeTopic: config.excludeTopic };
    const per = Number(o.perKind);
    // only the chosen operators; one question per form (paraphrases would repeat a form)
    const all = await synthesize(executor, schema, lexicon, {
      count: per * ops.length * 3,
      seed: Number(o.seed),
      compile,
      paraphrases: 1,
      weights: { join1: 0, join2: 0, join3: 0, class: 0, and: 0, count: 0, argmax: 0, argmin: 0, compare: 0, range: 0, ask: 0, diff: 0, aggregate: 0, ratio: 0, mostcommon: 0, argmaxcount: 0, compare2: 0, ...weights },
    });
    const byKind = new Map<string, Q[]>();
    for (const e of all.examples) {
      if (trained.has(e.form)) {
        dropped++;
        continue;
      }
      const list = byKind.get(e.operator) ?? [];
      if (list.length < per) list.push({ question: e.question, form: e.form, kind: e.operator });
      byKind.set(e.operator, list);
    }
    questions = [...byKind.values()].flat();
  }
  const gold = new Map(questions.map((q) => [q.question, q.form]));
  const goldGw = await createGateway({ store: pack, executor, generator: goldGenerator(gold) });
  const parser = await createGateway({ store: pack, executor, index: goldGw.index, ...(predicted ? { generator: goldGenerator(predicted) } : {}) });
  const results: (Q & { got: string | null; source: string; em: number; hits1: number; answersExact: number; rowsExact: number; goldAnswered: boolean })[] = [];
  for (const q of questions) {
    const g = await goldGw.ask(q.question, { fallback: 'off' });
    const goldAnswered = g.answers.length > 0;
    const a = await parser.ask(q.question);
    let em = 0;
    try {
      const text = predicted?.get(q.question) ?? a.form;
      em = text && formsEqual(parseForm(text), parseForm(q.form)) ? 1 : 0;
    } catch {
      em = 0;
    }
    const ordered = /^\((ASC|DESC|LIMIT|OFFSET) /.test(q.form);
    const c = goldAnswered ? compare(g, a, ordered) : { hits1: 0, answersExact: 0, rowsExact: 0 };
    results.push({ ...q, got: a.form ?? predicted?.get(q.question) ?? null, source: a.source, em, ...c, goldAnswered });
  }
  await parser.close();
  await goldGw.close();
  await executor.close();
  const kinds = [...new Set(results.map((r) => r.kind))].sort();
  const pct = (x: number, n: number) => (n ? ((100 * x) / n).toFixed(1) : '—');
  console.log(`${questions.length} questions${o.predictions ? ` with the forms of ${o.predictions}` : o.questions ? ` from ${o.questions}` : ` (seed ${o.seed}; ${dropped} sampled forms dropped because the pack trained on them)`}`);
  console.log('| kind | n | gold answered | parser answered | form EM | Hits@1 | answers exact | rows exact |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const k of [...kinds, 'all']) {
    const rs = results.filter((r) => k === 'all' || r.kind === k);
    const ok = rs.filter((r) => r.goldAnswered);
    const sum = (f: (r: (typeof rs)[number]) => number) => ok.reduce((s, r) => s + f(r), 0);
    console.log(
      `| ${k} | ${rs.length} | ${ok.length} | ${pct(rs.filter((r) => r.source === 'parser').length, rs.length)}% | ${pct(sum((r) => r.em), ok.length)} | ${pct(sum((r) => r.hits1), ok.length)} | ${pct(sum((r) => r.answersExact), ok.length)} | ${pct(sum((r) => r.rowsExact), ok.length)} |`,
    );
  }
  if (o.out) fs.writeFileSync(o.out, JSON.stringify(results, null, 1));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
