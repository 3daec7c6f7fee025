/**
 * askgraph-base's training corpus: the real questions of the shared data folder (Freebase, DBpedia, Wikidata,
 * MetaQA, PathQuestion, WC2014) as pairs {id, source, graph, question, form, original} whose forms name relations
 * and classes by words and entities by spans of the question (src/eval/importers/base-corpus.ts says how;
 * base-sources.ts lists the files read). movies-real and restaurants are development sets: refused in code.
 *
 *   npx tsx scripts/build-base-corpus.ts --out <dir> [--data ../shared/data] [--hold-out wc2014,pathquestion | none]
 *
 * Writes OUT/train.jsonl, OUT/valid.jsonl, OUT/heldout.jsonl (the pairs of the held-out graphs / sources /
 * groups, default the leave-one-graph-out graphs WC2014 and PathQuestion) and OUT/manifest.json (per-source
 * counts and rejects by reason, the hold-out, the groups a run can leave out), and prints the per-source table
 * (train/README.md records it). OUT is derived data: never committed (train/data/ is gitignored).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command } from 'commander';
import { AskgraphError, packageRoot } from '../src/core';
import { type BaseCorpus, type BasePair, buildBaseCorpus, DEFAULT_HOLD_OUT, GROUPS, parseJsonl, readText } from '../src/eval';

const o = new Command()
  .option('--data <dir>', 'the shared data folder (default ../shared/data beside the repository)')
  .option('--out <dir>', 'output folder', path.join(packageRoot(), 'train', 'data', 'base'))
  .option('--hold-out <names>', `graphs, sources or groups held out, comma-separated, or "none"`, DEFAULT_HOLD_OUT.join(','))
  .option('--sources <names>', 'only these sources, comma-separated (default all present)')
  .parse()
  .opts<{ data?: string; out: string; holdOut: string; sources?: string }>();

/** ../shared/data beside the repository; a worktree under <root>/wt/<name> finds <root>/shared/data. */
function defaultData(): string {
  const root = packageRoot();
  const near = path.join(root, '..', 'shared', 'data');
  const far = path.join(root, '..', '..', 'shared', 'data');
  return fs.existsSync(near) || !fs.existsSync(far) ? near : far;
}

const data = o.data ?? defaultData();
const list = (s: string | undefined): string[] | undefined => (s === undefined ? undefined : s.split(',').map((x) => x.trim()).filter((x) => x !== '' && x !== 'none'));
const testSlice = path.join(packageRoot(), 'fixtures', 'metaqa', 'test.jsonl');
const metaqaTestIds = new Set(
  fs.existsSync(testSlice)
    ? parseJsonl<{ id?: unknown }>(readText(testSlice), testSlice).flatMap((r) => (typeof r.id === 'string' ? [r.id] : []))
    : [],
);
const holdOut = list(o.holdOut) ?? [];
const sources = list(o.sources);
function build(): BaseCorpus {
  try {
    return buildBaseCorpus(data, { holdOut, metaqaTestIds, ...(sources ? { sources } : {}) });
  } catch (e) {
    if (!(e instanceof AskgraphError)) throw e;
    console.error(`build-base-corpus: ${e.code}: ${e.message}`);
    process.exit(2);
  }
}
const corpus = build();

fs.mkdirSync(o.out, { recursive: true });
const jsonl = (rows: BasePair[]): string => rows.map((r) => JSON.stringify(r) + '\n').join('');
fs.writeFileSync(path.join(o.out, 'train.jsonl'), jsonl(corpus.train));
fs.writeFileSync(path.join(o.out, 'valid.jsonl'), jsonl(corpus.valid));
fs.writeFileSync(path.join(o.out, 'heldout.jsonl'), jsonl(corpus.heldOut));
const manifest = {
  about:
    'askgraph-base corpus (scripts/build-base-corpus.ts). heldout.jsonl holds the pairs of holdOut (graphs, sources or groups), which train/valid never contain: a base trained on train.jsonl has not seen them (leave one graph out). groups list pair ids a run may also leave out.',
  command: `npx tsx scripts/build-base-corpus.ts ${process.argv.slice(2).join(' ')}`.trim(),
  files: { train: 'train.jsonl', valid: 'valid.jsonl', heldOut: 'heldout.jsonl' },
  holdOut,
  counts: { train: corpus.train.length, valid: corpus.valid.length, heldOut: corpus.heldOut.length, relations: corpus.relations, classes: corpus.classes },
  sources: corpus.stats,
  absent: corpus.absent,
  wikidataLabels: corpus.wikidataLabels,
  metaqaTestSlice: metaqaTestIds.size,
  groups: Object.fromEntries(Object.entries(corpus.groups).map(([g, ids]) => [g, { why: GROUPS[g as keyof typeof GROUPS], ids }])),
};
fs.writeFileSync(path.join(o.out, 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n');

const fmt = (d: Record<string, number>): string =>
  Object.entries(d)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join('; ');
console.log('| source | graph | read | converted | train / valid / held out | rejected (by reason) | relation names | class names |');
console.log('|---|---|---:|---:|---|---|---:|---:|');
for (const s of corpus.stats) console.log(`| ${s.source} | ${s.graph} | ${s.read} | ${s.converted} | ${s.train} / ${s.valid} / ${s.heldOut} | ${fmt(s.rejected) || '—'} | ${s.relations} | ${s.classes} |`);
const read = corpus.stats.reduce((a, s) => a + s.read, 0);
const conv = corpus.stats.reduce((a, s) => a + s.converted, 0);
console.log(`| **total** | | ${read} | **${conv}** | ${corpus.train.length} / ${corpus.valid.length} / ${corpus.heldOut.length} | ${read - conv} | ${corpus.relations} | ${corpus.classes} |`);
for (const [s, f] of Object.entries(corpus.absent)) console.log(`absent: ${s} (${f})`);
console.log(`Wikidata ids with a label from LC-QuAD 2.0's brace questions: ${corpus.wikidataLabels}. Held out: ${holdOut.join(', ') || 'nothing'}. Written to ${o.out}.`);
