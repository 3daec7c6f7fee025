/**
 * Questions with speech-recognition noise (issue 20: "a misheard word or two are answered, not refused"): a seeded
 * sample of a question set, asked as written and with k words misheard, each replaced by a word that sounds the same
 * (the same Double Metaphone code, talisman) and is spelt close to it (edit distance ≤ 2): the most frequent such word
 * of GloVe's vocabulary (assets/lexical), never the word itself or one of its inflections. Words of the topic entity's
 * name are left as they are with `--words relation` (the default: what a speech front end with a name list would
 * give), or are the only ones misheard with `--words name`. Both sets are measured with `askgraph eval` in a child
 * process (the commands are printed); the script prints Hits@1 and the share of answerable questions refused, clean
 * and noisy, and how many questions had no sound-alike to put in (left out of both).
 *
 * With `--noise typo` each such word is mistyped instead — one letter doubled, dropped, or swapped with the next (a
 * word of 6+ letters, the letters changed never the first) — as a person types in haste ("foootball", "emplyoees").
 *
 *   npx tsx scripts/measure-noise.ts --dataset fixtures/metaqa/valid.jsonl [--store DIR] [--questions 300] [--seed 1]
 *       [--misheard 1] [--noise sound|typo] [--words relation|name] [--work /tmp/askgraph-noise] [--json]
 *
 * The dataset is JSON Lines in the fixtures format ({id, question, answers, topic?}): MetaQA, or what
 * scripts/measure-logo.ts converted (its <work>/data/<graph>/questions.jsonl).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command } from 'commander';
import { packageRoot, pushTo, Rng, soundCodes, soundsAlike } from '../src/core';
import type { EvalSummary } from '../src/eval';

const ROOT = packageRoot();
const BIN = path.join(ROOT, 'bin', 'askgraph.js');

const o = new Command('measure-noise')
  .requiredOption('--dataset <file>', 'questions (JSON Lines: id, question, answers, topic)')
  .option('--store <dir>', 'the pack to ask (default: the embedded movies pack)')
  .option('--questions <n>', 'a seeded sample of n questions', '300')
  .option('--seed <s>', 'seed of the sample and of the words misheard', '1')
  .option('--misheard <k>', 'words misheard per question', '1')
  .option('--noise <kind>', 'sound: a word that sounds the same; typo: a letter doubled, dropped or swapped', 'sound')
  .option('--words <which>', "relation: words outside the topic's name; name: words of it", 'relation')
  .option('--work <dir>', 'where the two question files and reports go', '/tmp/askgraph-noise')
  .option('--json', 'print the results as JSON')
  .parse()
  .opts<{ dataset: string; store?: string; questions: string; seed: string; misheard: string; noise: string; words: string; work: string; json?: boolean }>();
if (o.noise !== 'sound' && o.noise !== 'typo') throw new Error(`--noise is sound or typo, not ${o.noise}`);

interface Row {
  id: string;
  question: string;
  answers: unknown[];
  topic?: string[];
}

/** GloVe's words by frequency (the vector file keeps GloVe's order), grouped by Double Metaphone code. */
function soundAlikes(): Map<string, string[]> {
  const words = fs.readFileSync(path.join(ROOT, 'assets', 'lexical', 'glove-100d-vocab.txt'), 'utf8').split('\n');
  const byCode = new Map<string, string[]>();
  for (const w of words) {
    if (!/^[a-z]{2,}$/.test(w)) continue;
    for (const code of soundCodes(w)) pushTo(byCode, code, w);
  }
  return byCode;
}

/** The most frequent word that sounds like `w` (core soundsAlike), not a plural or suffixed form of it. */
function misheard(w: string, byCode: Map<string, string[]>): string | undefined {
  const lw = w.toLowerCase();
  const stem = (x: string) => x.replace(/(es|s|ed|ing|er)$/, '');
  for (const code of soundCodes(lw)) {
    for (const c of byCode.get(code) ?? []) if (stem(c) !== stem(lw) && soundsAlike(c, lw)) return c;
  }
  return undefined;
}

/** How short a word a typo is put in: a person mistypes long words; short ones typed wrong are other words. */
const TYPO_LETTERS = 6;

/** `w` mistyped once, seeded: a letter doubled, dropped, or swapped with the next (never the first letter). */
function mistyped(w: string, rng: Rng): string | undefined {
  if (w.length < TYPO_LETTERS) return undefined;
  const i = 1 + rng.int(w.length - 2);
  const kind = rng.int(3);
  const out = kind === 0 ? w.slice(0, i + 1) + w.slice(i) : kind === 1 ? w.slice(0, i) + w.slice(i + 1) : w.slice(0, i) + (w[i + 1] ?? '') + (w[i] ?? '') + w.slice(i + 2);
  return out === w ? undefined : out;
}

function run(args: string[]): Promise<void> {
  console.error(`$ askgraph ${args.join(' ')}`);
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 || code === 1 ? resolve() : reject(new Error(`askgraph ${args[0]} exited ${code}`))));
  });
}

async function main(): Promise<void> {
  const n = Number(o.questions);
  const k = Number(o.misheard);
  const rng = new Rng(Number(o.seed));
  const rows = fs.readFileSync(o.dataset, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Row);
  // a seeded shuffle, then the first n that have k words to mishear
  const order = rng.shuffle([...rows]);
  const byCode = soundAlikes();
  const clean: Row[] = [];
  const noisy: Row[] = [];
  let without = 0;
  for (const r of order) {
    if (clean.length >= n) break;
    const nameWords = new Set((r.topic ?? []).flatMap((t) => t.toLowerCase().split(/[^a-z]+/)));
    const tokens = r.question.split(/(\s+)/);
    const slots = tokens.flatMap((t, i) => {
      const w = t.toLowerCase();
      if (!/^[a-z]{3,}$/.test(w)) return [];
      const inName = nameWords.has(w);
      if ((o.words === 'name') !== inName) return [];
      const m = o.noise === 'typo' ? mistyped(w, rng) : misheard(w, byCode);
      return m ? [{ i, m }] : [];
    });
    if (slots.length < k) {
      without++;
      continue;
    }
    const picked = rng.shuffle(slots).slice(0, k);
    const out = [...tokens];
    for (const p of picked) out[p.i] = p.m;
    clean.push(r);
    noisy.push({ ...r, question: out.join('') });
  }
  fs.mkdirSync(o.work, { recursive: true });
  const results: Record<string, { hits1: number; answerableRefused: number; count: number }> = {};
  for (const [name, set] of [['clean', clean], ['noisy', noisy]] as const) {
    const file = path.join(o.work, `${name}.jsonl`);
    fs.writeFileSync(file, set.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const report = path.join(o.work, `${name}-report.json`);
    await run(['eval', '--dataset', file, ...(o.store ? ['--store', o.store] : []), '--json', '--out', report]);
    const rep = JSON.parse(fs.readFileSync(report, 'utf8')) as { summary: EvalSummary; examples: { gold?: unknown[]; noAnswer?: boolean }[] };
    const answerable = rep.examples.filter((e) => (e.gold ?? []).length > 0);
    results[name] = { hits1: rep.summary.hits1 ?? 0, answerableRefused: answerable.filter((e) => e.noAnswer).length / Math.max(1, answerable.length), count: rep.examples.length };
  }
  const examples = noisy.slice(0, 5).map((r, i) => `${clean[i]?.question ?? ''}  →  ${r.question}`);
  if (o.json) {
    console.log(JSON.stringify({ dataset: o.dataset, store: o.store ?? 'movies', noise: o.noise, misheard: k, words: o.words, seed: Number(o.seed), withoutSoundAlike: without, ...results, examples }, null, 2));
    return;
  }
  console.log(`measure-noise: ${clean.length} questions of ${o.dataset} (${without} skipped: fewer than ${k} ${o.words} words with ${o.noise === 'typo' ? `${TYPO_LETTERS}+ letters` : 'a sound-alike'}), ${k} ${o.noise === 'typo' ? 'mistyped' : 'misheard'} each (${o.words} words), seed ${o.seed}`);
  for (const [name, r] of Object.entries(results)) console.log(`${name.padEnd(6)} Hits@1 ${(100 * r.hits1).toFixed(1)}%  answerable refused ${(100 * r.answerableRefused).toFixed(1)}%  (${r.count} questions)`);
  console.log('examples:');
  for (const e of examples) console.log(`  ${e}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 2;
});
