/**
 * Measures the synthesis engine on a store: examples/s, operator distribution, template count, distinct
 * question n-grams, noise. Usage:
 *   npx tsx scripts/bench-synth.ts --store store/movies --schema fixtures/synth/movies.schema.json [--lexicon F] [--count 2000] [--seed 1] [--show 30]
 * (schema: a discovered schema.json; until discovery is merged, the hand-written ones in fixtures/synth/.)
 */
import { AskgraphError } from '../src/core';
import { openExecutor } from '../src/execute';
import { buildLexicon, mergeLexicon, readLexicon, readSchema, synthesize } from '../src/synth';

function arg(name: string, def?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
}
function required(name: string): string {
  const value = arg(name);
  if (value === undefined) throw new AskgraphError('BAD_REQUEST', `--${name} is required`);
  return value;
}

function ngrams(qs: string[], n: number): number {
  const set = new Set<string>();
  for (const q of qs) {
    const w = q.toLowerCase().replace(/[?]/g, '').split(/\s+/);
    for (let i = 0; i + n <= w.length; i++) set.add(w.slice(i, i + n).join(' '));
  }
  return set.size;
}

async function main(): Promise<void> {
  const store = required('store');
  const schema = readSchema(required('schema'));
  const count = Number(arg('count', '2000'));
  const seed = Number(arg('seed', '1'));
  const show = Number(arg('show', '0'));
  const exclude = arg('exclude-topic');
  const executor = await openExecutor(store, { labelPredicates: schema.labelPredicates });
  const t0 = Date.now();
  let lexicon = buildLexicon(schema);
  const lexFile = arg('lexicon');
  if (lexFile) lexicon = mergeLexicon(lexicon, readLexicon(lexFile));
  const lexMs = Date.now() - t0;
  const { examples, stats } = await synthesize(executor, schema, lexicon, {
    count,
    seed,
    ...(exclude ? { compile: { excludeTopic: exclude === 'every-hop' ? 'every-hop' : exclude === 'true' } } : {}),
  });
  await executor.close();
  const qs = examples.map((e) => e.question);
  console.log(`store ${store}: ${stats.examples} examples from ${stats.forms} forms (${stats.attempts} attempts, ${stats.queries} queries) in ${(stats.timeMs / 1000).toFixed(1)} s = ${((stats.examples / stats.timeMs) * 1000).toFixed(1)} examples/s; lexicon ${lexMs} ms`);
  console.log(`templates ${stats.templates}; distinct questions ${new Set(qs).size}; distinct forms ${new Set(examples.map((e) => e.form)).size}; distinct n-grams 1/2/3: ${ngrams(qs, 1)} / ${ngrams(qs, 2)} / ${ngrams(qs, 3)}; mean length ${(qs.reduce((a, q) => a + q.split(' ').length, 0) / qs.length).toFixed(1)} words`);
  console.log('operator      examples  forms  attempts  failures');
  for (const [op, s] of Object.entries(stats.perOperator)) console.log(`${op.padEnd(13)} ${String(s.examples).padStart(8)} ${String(s.forms).padStart(6)} ${String(s.attempts).padStart(9)} ${String(s.failures).padStart(9)}`);
  console.log('noise', JSON.stringify(stats.noise));
  if (show > 0) {
    const byOp = new Map<string, typeof examples>();
    for (const e of examples) byOp.set(e.operator, [...(byOp.get(e.operator) ?? []), e]);
    for (const [op, es] of byOp) {
      console.log(`--- ${op}`);
      for (const e of es.slice(0, show)) console.log(`  ${e.question}\n      ${e.form}`);
    }
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
