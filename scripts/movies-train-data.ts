/**
 * The movies parser's training data: MetaQA's training split (less the never-used test slice,
 * fixtures/metaqa/test.jsonl) mixed with synthetic pairs that `askgraph synth` makes from the movies graph
 * and its pack lexicon. A held-out share of the synthetic pairs becomes validation data (reporting and
 * calibration only). The dev sets in ../shared are never read here.
 *
 *   node bin/askgraph.js synth --store store/movies --schema store/movies/schema.json --out synth.jsonl --count 50000 --seed 11
 *   npx tsx scripts/movies-train-data.ts --synth synth.jsonl --out DIR [--metaqa 20000] [--held-out 1500] [--seed 1]
 *
 * Writes DIR/train.jsonl, DIR/valid-synth.jsonl (held-out synthetic) and DIR/valid.jsonl (MetaQA validation
 * sample + held-out synthetic, for the trainer's report).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command } from 'commander';
import { itemAt, packageRoot, Rng } from '../src/core';

interface Line {
  id?: string;
  question: string;
  form: string;
  [k: string]: unknown;
}

function read(file: string): Line[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
}

function write(file: string, rows: Line[]): void {
  fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

/** core's seeded Rng, so the mix is reproducible. */
function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

function shuffle<T>(xs: T[], rand: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [itemAt(a, j, 'shuffled items'), itemAt(a, i, 'shuffled items')];
  }
  return a;
}

const o = new Command()
  .requiredOption('--synth <file>', 'synthetic pairs from askgraph synth')
  .requiredOption('--out <dir>', 'output folder')
  .option('--metaqa <n>', 'MetaQA training questions to mix in (seeded sample)', '20000')
  .option('--held-out <n>', 'synthetic pairs held out for validation and calibration', '1500')
  .option('--valid-metaqa <n>', 'MetaQA validation questions in valid.jsonl', '500')
  .option('--seed <s>', 'seed', '1')
  .option('--schema <file>', 'schema.json of the graph (value ranges)', path.join(packageRoot(), 'store', 'movies', 'schema.json'))
  .parse()
  .opts<{ schema: string; synth: string; out: string; metaqa: string; heldOut: string; validMetaqa: string; seed: string }>();

const root = packageRoot();
const rand = rng(Number(o.seed));
const testIds = new Set(read(path.join(root, 'fixtures', 'metaqa', 'test.jsonl')).map((l) => l.id));
const metaqa = shuffle(read(path.join(root, 'fixtures', 'metaqa', 'train.jsonl')).filter((l) => !testIds.has(l.id)), rand).slice(0, Number(o.metaqa));
const synth = shuffle(read(o.synth), rand);
/**
 * Comparison constants: the sampler picks round years (decades); people ask "before 1985" as often. A year
 * literal that the question spells exactly once (not as a decade, "1980s") is replaced, in question and form
 * together, by a year drawn from the graph's range (schema.json min..max of that property) in 60% of the pairs.
 */
function varyYears(rows: Line[], lo: number, hi: number): Line[] {
  return rows.map((l) => {
    const years = [...new Set(l.form.replace(/\[[^\]]*\]/g, ' ').match(/(?<![\w.])\d{4}(?![\w.])/g) ?? [])];
    const [y] = years;
    if (years.length !== 1 || y === undefined || rand() >= 0.6) return l;
    const inQuestion = l.question.split(y).length - 1;
    if (inQuestion !== 1 || new RegExp(`${y}'?s`).test(l.question)) return l;
    const n = String(lo + Math.floor(rand() * (hi - lo + 1)));
    return { ...l, question: l.question.replace(y, n), form: l.form.split(` ${y})`).join(` ${n})`) };
  });
}
const schema = JSON.parse(fs.readFileSync(o.schema, 'utf8')) as { properties: { valueKind?: string; min?: number; max?: number }[] };
const yearProp = schema.properties.find((p): p is { valueKind: string; min: number; max: number } => p.valueKind === 'year' && p.min !== undefined && p.max !== undefined);
if (yearProp) synth.splice(0, synth.length, ...varyYears(synth, yearProp.min, yearProp.max));
const heldOut = synth.slice(0, Number(o.heldOut));
const synthTrain = synth.slice(Number(o.heldOut));
const heldQuestions = new Set(heldOut.map((l) => l.question.toLowerCase()));
const train = shuffle([...metaqa, ...synthTrain.filter((l) => !heldQuestions.has(l.question.toLowerCase()))], rand).map((l) => ({ id: l.id, question: l.question, form: l.form }));
const validMeta = read(path.join(root, 'fixtures', 'metaqa', 'valid.jsonl'));
const stride = Math.max(1, Math.floor(validMeta.length / Number(o.validMetaqa)));
const valid = [...validMeta.filter((_, i) => i % stride === 0).slice(0, Number(o.validMetaqa)), ...heldOut].map((l) => ({ id: l.id, question: l.question, form: l.form }));
fs.mkdirSync(o.out, { recursive: true });
write(path.join(o.out, 'train.jsonl'), train);
write(path.join(o.out, 'valid-synth.jsonl'), heldOut);
write(path.join(o.out, 'valid.jsonl'), valid);
console.log(`train ${train.length} (MetaQA ${metaqa.length}, synthetic ${train.length - metaqa.length}); held-out synthetic ${heldOut.length}; valid ${valid.length}`);
