/**
 * PathQuestion (PQ-2H/3H), PathQuestion-Large (PQL-2H/3H) and WorldCup2014 (WC-P2) → examples, and their KB files → packs.
 *
 * Gold relation paths `e0#r1#e1#r2#e2[#<end>#answer]` become forms in the direction of the triples:
 * each hop (e_i r e_i+1) is a KB triple, so from the topic e0 the answer set is
 * (JOIN (R r2) (JOIN (R r1) [ e0 ])).
 *
 * WC2014 `_inverse` relations: the KB lists every `x r_inverse y` together with its base triple `y r x`
 * (measured on WC2014.txt: 2,505 `_inverse` triples, none without its base triple). So a hop `x#r_inverse#y`
 * is written with the base relation in the other direction, (JOIN r x), and the `_inverse` triples are left
 * out of the pack: one name per relation for the parser, and the store says each fact once.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskgraphError, Form, RDFS_LABEL, Relation, itemAt, readTriples, type TripleFields } from '../../core';
import { printForm } from '../../form';
import { readText, splitLines } from '../jsonl';
import type { Example } from '../types';

export const INVERSE_SUFFIX = '_inverse';

export interface PathStep {
  relation: string;
  reverse: boolean; // true: the hop walks the triple backwards (object → subject)
}

/** Splits a gold path into topic, steps (with `_inverse` resolved when asked) and the end entity. */
export function parseGoldPath(gold: string, resolveInverse: boolean): { topic: string; steps: PathStep[]; end: string } {
  let parts = gold.trim().split('#');
  const endAt = parts.indexOf('<end>');
  if (endAt >= 0) parts = parts.slice(0, endAt);
  if (parts.length < 3 || parts.length % 2 === 0) throw new AskgraphError('DATA_FORMAT', `bad gold path: ${gold}`);
  const steps: PathStep[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const r = itemAt(parts, i, 'gold path parts');
    if (resolveInverse && r.endsWith(INVERSE_SUFFIX) && r.length > INVERSE_SUFFIX.length) {
      steps.push({ relation: r.slice(0, -INVERSE_SUFFIX.length), reverse: true });
    } else steps.push({ relation: r, reverse: false });
  }
  return { topic: itemAt(parts, 0, 'gold path parts'), steps, end: itemAt(parts, -1, 'gold path parts') };
}

/** Form of a path from its topic: forward hop (s r o) from s is (JOIN (R r) x); a reversed hop is (JOIN r x). */
export function pathForm(topic: string, steps: readonly PathStep[]): string {
  let form: Form = { kind: 'entity', ref: { kind: 'label', label: topic } };
  for (const s of steps) {
    const rel: Relation = { kind: 'rel', ref: { kind: 'name', name: s.relation } };
    form = { kind: 'join', relation: s.reverse ? rel : { kind: 'reverse', of: rel }, arg: form };
  }
  return printForm(form); // the printer escapes labels (e.g. `\` and `]`)
}

/** `head(a/b/)` → the answer set [a, b]; names may contain parentheses, so the split is where head ∈ set. */
export function parseAnswerField(field: string): string[] {
  const f = field.trim();
  if (f.endsWith(')')) {
    for (let k = f.indexOf('('); k > 0; k = f.indexOf('(', k + 1)) {
      const head = f.slice(0, k);
      const set = f.slice(k + 1, -1).split('/').filter((x) => x !== '');
      if (set.includes(head)) return set;
    }
    const k = f.lastIndexOf('(');
    if (k > 0) return f.slice(k + 1, -1).split('/').filter((x) => x !== '');
  }
  return f.split('/').filter((x) => x !== '');
}

/** A data set name used in example ids: pq-2h, pq-3h, pql-2h, pql-3h, wc-p2 or another. */
export type PathDataset = string;

/** PQ / PQL: `question<TAB>answer(set/)<TAB>path`. */
export function importPathQuestion(text: string, dataset: PathDataset): Example[] {
  return splitLines(text)
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => l.trim() !== '')
    .map(({ l, i }) => {
      const [question, answers, gold] = l.split('\t');
      if (question === undefined || answers === undefined || gold === undefined) throw new AskgraphError('DATA_FORMAT', `${dataset} line ${i + 1}: expected question<TAB>answers<TAB>path`);
      const p = parseGoldPath(gold, false);
      return pathExample(`${dataset}-${i}`, question, parseAnswerField(answers), p, dataset);
    });
}

/** WC-P2: `question<TAB>answer<TAB>path<TAB>a/b/<TAB>subgraph`; `_inverse` hops become reversed base relations. */
export function importWc2014(text: string, dataset: PathDataset = 'wc-p2'): Example[] {
  return splitLines(text)
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => l.trim() !== '')
    .map(({ l, i }) => {
      const [question, , gold, answers] = l.split('\t');
      if (question === undefined || gold === undefined || answers === undefined) throw new AskgraphError('DATA_FORMAT', `${dataset} line ${i + 1}: expected question<TAB>answer<TAB>path<TAB>answers`);
      const p = parseGoldPath(gold, true);
      return pathExample(`${dataset}-${i}`, question, answers.split('/').filter((x) => x !== ''), p, dataset);
    });
}

function pathExample(id: string, question: string, answers: string[], p: ReturnType<typeof parseGoldPath>, dataset: string): Example {
  return {
    id,
    question: question.trim().replace(/\s+/g, ' '),
    form: pathForm(p.topic, p.steps),
    answers,
    topic: [p.topic],
    meta: {
      dataset,
      hop: p.steps.length,
      qtype: p.steps.map((s) => (s.reverse ? `~${s.relation}` : s.relation)).join('>'),
    },
  };
}

/** Which data file and KB belong together in ../shared/data. */
export const PATH_DATASETS: Record<string, { questions: string; kb: string; kind: 'pq' | 'wc' }> = {
  'pq-2h': { questions: 'pathquestion/PQ-2H.txt', kb: 'pathquestion/2H-kb.txt', kind: 'pq' },
  'pq-3h': { questions: 'pathquestion/PQ-3H.txt', kb: 'pathquestion/3H-kb.txt', kind: 'pq' },
  'pql-2h': { questions: 'pathquestion/PQL-2H.txt', kb: 'pathquestion/PQL2-KB.txt', kind: 'pq' },
  'pql-3h': { questions: 'pathquestion/PQL-3H.txt', kb: 'pathquestion/PQL3-KB.txt', kind: 'pq' },
  'wc-p2': { questions: 'wc2014/WC-P2.txt', kb: 'wc2014/WC2014.txt', kind: 'wc' },
};

/** The triples of a KB file (read by src/core/triples.ts), dropping `_inverse` triples when asked; duplicates removed. */
export function readKbTriples(text: string, dropInverse: boolean, name = 'kb'): TripleFields[] {
  const seen = new Set<string>();
  const out: TripleFields[] = [];
  for (const { triple } of readTriples(text, name)) {
    if (dropInverse && triple[1].endsWith(INVERSE_SUFFIX)) continue;
    const key = triple.join('\t');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(triple);
  }
  return out;
}

export interface PackWriteOptions {
  name: string;
  baseIri?: string;
  dropInverse?: boolean;
}

/**
 * Writes a knowledge pack for a triple file: `<dir>/kb.txt` (`head|relation|tail`, the MetaQA triple-file format
 * the execute stage loads with the minting rule of src/core/README.md) and `<dir>/pack.json`.
 */
export function writeTriplePack(kbText: string, dir: string, opts: PackWriteOptions): { triples: number } {
  const triples = readKbTriples(kbText, opts.dropInverse ?? false);
  for (const t of triples) {
    if (t.some((x) => x.includes('|'))) throw new AskgraphError('DATA_FORMAT', `KB term contains "|": ${t.join(' ')}`);
  }
  const baseIri = opts.baseIri ?? `http://askgraph.dev/${opts.name}/`;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'kb.txt'), triples.map((t) => t.join('|') + '\n').join(''), 'utf8');
  const pack = {
    name: opts.name,
    data: ['kb.txt'],
    baseIri,
    vocabularyNamespace: baseIri + 'relation/',
    labelPredicates: [RDFS_LABEL],
  };
  fs.writeFileSync(path.join(dir, 'pack.json'), JSON.stringify(pack, null, 2) + '\n', 'utf8');
  return { triples: triples.length };
}

export function importPathDataset(sharedData: string, name: string): Example[] {
  const spec = PATH_DATASETS[name];
  if (!spec) throw new AskgraphError('BAD_REQUEST', `unknown path data set ${name} (one of ${Object.keys(PATH_DATASETS).join(', ')})`);
  const text = readText(path.join(sharedData, spec.questions));
  return spec.kind === 'wc' ? importWc2014(text, name) : importPathQuestion(text, name);
}
