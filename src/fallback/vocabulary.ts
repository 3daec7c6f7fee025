/**
 * Relation vocabulary: which question words go with which relation, per direction and per role
 * (the last hop — the question's focus — versus an inner hop). Mined from (question, relation chain)
 * pairs with a few EM rounds of an IBM-Model-1-style alignment (each question word is produced by one
 * hop of the chain or by a background distribution), then used to score candidate chains:
 *
 *   log P(q | chain) − log P(q | background) = Σ_w log(β + (1−β) · mean_i P(w | hop_i) / P_bg(w))
 *
 * Without a mined vocabulary, P(w | hop) comes from the relation label's own words, so the readers
 * still work on a new graph (weaker). The vocabulary is plain JSON; a pack can ship it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Form } from '../core';
import { AskgraphError, itemAt } from '../core';
import type { Hop } from './types';
import { questionTerms, relationTerms } from './text';

export interface RelationVocabulary {
  format: 'askgraph-relvocab/1';
  /** Key `${relationName}${dir}${role}` (e.g. "directed_by>L") → term → expected count. */
  keys: Record<string, Record<string, number>>;
  /** Background term counts over all questions. */
  background: Record<string, number>;
  /** How many training chains used each key (the hop prior). */
  keyCounts?: Record<string, number>;
}

export interface VocabExample {
  /** Question terms with the topic mention removed (see questionTerms). */
  terms: string[];
  /** The gold chain, seen from the topic entity. */
  hops: { name: string; dir: '>' | '<' }[];
}

export function hopKey(name: string, dir: '>' | '<', last: boolean): string {
  return `${name}${dir}${last ? 'L' : 'M'}`;
}

const BETA = 0.3; // mass of the background in the word mixture
const MU = 5; // Dirichlet smoothing strength (key → relation → label)

/** Mines a vocabulary from examples (EM over word-to-hop alignments). */
export function mineRelationVocabulary(examples: VocabExample[], opts: { iterations?: number } = {}): RelationVocabulary {
  const iterations = opts.iterations ?? 5;
  const background: Record<string, number> = {};
  const keyCounts: Record<string, number> = {};
  for (const ex of examples) {
    for (const t of ex.terms) background[t] = (background[t] ?? 0) + 1;
    ex.hops.forEach((h, i) => {
      const k = hopKey(h.name, h.dir, i === ex.hops.length - 1);
      keyCounts[k] = (keyCounts[k] ?? 0) + 1;
    });
  }
  let keys: Record<string, Record<string, number>> = {};
  // Round 0: each word is shared evenly by the hops of its chain.
  for (const ex of examples) {
    const ks = ex.hops.map((h, i) => hopKey(h.name, h.dir, i === ex.hops.length - 1));
    for (const t of ex.terms) for (const k of ks) add(keys, k, t, 1 / ks.length);
  }
  for (let it = 0; it < iterations; it++) {
    const model = new HopModel({ format: 'askgraph-relvocab/1', keys, background });
    const next: Record<string, Record<string, number>> = {};
    for (const ex of examples) {
      const hops = ex.hops.map((h, i) => ({ name: h.name, dir: h.dir, last: i === ex.hops.length - 1 }));
      for (const t of ex.terms) {
        const ps = hops.map((h) => ((1 - BETA) / hops.length) * model.pHop(h.name, h.dir, h.last, t));
        const pb = BETA * model.pBackground(t);
        const z = ps.reduce((a, b) => a + b, pb);
        hops.forEach((h, i) => add(next, hopKey(h.name, h.dir, h.last), t, itemAt(ps, i) / z));
      }
    }
    keys = next;
  }
  // Drop negligible counts to keep the JSON small.
  for (const [k, counts] of Object.entries(keys)) keys[k] = Object.fromEntries(Object.entries(counts).filter(([, c]) => c >= 0.2));
  return { format: 'askgraph-relvocab/1', keys, background, keyCounts };
}

function add(m: Record<string, Record<string, number>>, k: string, t: string, c: number): void {
  const row = (m[k] ??= {});
  row[t] = (row[t] ?? 0) + c;
}

/** P(word | hop) with back-off key → relation (any direction/role) → relation label words. */
export class HopModel {
  private readonly keyTotals = new Map<string, number>();
  private readonly relCounts = new Map<string, Map<string, number>>();
  private readonly relTotals = new Map<string, number>();
  private readonly bgTotal: number;
  private readonly bgVocab: number;
  private readonly labelCache = new Map<string, string[]>();

  constructor(readonly vocab?: RelationVocabulary) {
    let total = 0;
    for (const c of Object.values(vocab?.background ?? {})) total += c;
    this.bgTotal = total;
    this.bgVocab = Object.keys(vocab?.background ?? {}).length;
    for (const [k, row] of Object.entries(vocab?.keys ?? {})) {
      const name = k.slice(0, -2);
      let kt = 0;
      const rc = this.relCounts.get(name) ?? new Map<string, number>();
      for (const [t, c] of Object.entries(row)) {
        kt += c;
        rc.set(t, (rc.get(t) ?? 0) + c);
      }
      this.relCounts.set(name, rc);
      this.keyTotals.set(k, kt);
      this.relTotals.set(name, (this.relTotals.get(name) ?? 0) + kt);
    }
  }

  labelTerms(name: string): string[] {
    let t = this.labelCache.get(name);
    if (!t) {
      t = relationTerms(name);
      this.labelCache.set(name, t);
    }
    return t;
  }

  pLabel(name: string, term: string): number {
    const lt = this.labelTerms(name);
    if (lt.length === 0) return 0;
    let n = 0;
    for (const x of lt) if (x === term) n++;
    return n / lt.length;
  }

  pRelation(name: string, term: string): number {
    const total = this.relTotals.get(name) ?? 0;
    const c = this.relCounts.get(name)?.get(term) ?? 0;
    return (c + MU * this.pLabel(name, term)) / (total + MU);
  }

  pHop(name: string, dir: '>' | '<', last: boolean, term: string): number {
    const k = hopKey(name, dir, last);
    const total = this.keyTotals.get(k) ?? 0;
    const c = this.vocab?.keys[k]?.[term] ?? 0;
    return (c + MU * this.pRelation(name, term)) / (total + MU);
  }

  /**
   * Log prior of a hop key: how often training chains used it (add-one smoothed), relative to the
   * most used key — so common hops cost ~0 and hops never seen in that role cost the most. 0 without counts.
   */
  logKeyPrior(name: string, dir: '>' | '<', last: boolean): number {
    const counts = this.vocab?.keyCounts;
    if (!counts) return 0;
    this.maxKeyCount ??= Math.max(1, ...Object.values(counts));
    return Math.log(((counts[hopKey(name, dir, last)] ?? 0) + 1) / (this.maxKeyCount + 1));
  }
  private maxKeyCount: number | undefined;

  pBackground(term: string): number {
    if (!this.vocab) return 1 / 2000; // no statistics: a flat notional vocabulary
    return ((this.vocab.background[term] ?? 0) + 0.5) / (this.bgTotal + 0.5 * (this.bgVocab + 1));
  }

  /**
   * Log-likelihood ratio of the question terms under the chain versus the background, plus
   * priorWeight × the hops' log priors (penalises hops in roles never seen, and length), minus
   * `unexplained.cost` × the chain's unexplainedHops over the question's content terms: so a chain with
   * an extra hop that no question word asks for ranks below the shorter chain that explains the same words.
   */
  scoreChain(terms: string[], hops: Pick<Hop, 'name' | 'dir'>[], priorWeight = 0.5, unexplained?: { contentTerms: string[]; cost: number; named?: (hop: number) => boolean }): number {
    if (hops.length === 0) return 0;
    let s = 0;
    hops.forEach((h, i) => (s += priorWeight * this.logKeyPrior(h.name, h.dir, i === hops.length - 1)));
    for (const t of terms) {
      let m = 0;
      hops.forEach((h, i) => (m += this.pHop(h.name, h.dir, i === hops.length - 1, t)));
      m /= hops.length;
      s += Math.log(BETA + ((1 - BETA) * m) / this.pBackground(t));
    }
    if (unexplained && unexplained.cost > 0) s -= unexplained.cost * this.unexplainedHops(unexplained.contentTerms, hops, unexplained.named);
    return s;
  }

  /**
   * How many hops of the chain have no question word of their own: the hops minus the largest matching of hops to
   * distinct word occurrences, where a hop may take a word it explains better than the background
   * (P(w | hop) > P_bg(w)). GSR reads a relation path as the question's relations, each answering to some of its
   * words; a hop with no word left for it is one the question does not ask for — an acquaintance's hop in a
   * question about a birthplace, or a third hop through the birthplace's other natives over its two words. A word
   * written twice can stand for two hops ("films directed by the director of X"). Content terms only: with a few
   * hundred mined questions, "what is the … of" lends any relation some likelihood, which is no evidence that the
   * question asks for it.
   */
  unexplainedHops(contentTerms: string[], hops: Pick<Hop, 'name' | 'dir'>[], named?: (hop: number) => boolean): number {
    const words = hops.map((h, i) => contentTerms.flatMap((t, j) => (this.pHop(h.name, h.dir, i === hops.length - 1, t) > this.pBackground(t) ? [j] : [])));
    const owner = new Map<number, number>(); // word occurrence → the hop it stands for
    // Kuhn's augmenting paths: ≤ maxHops hops over a handful of words.
    const claim = (hop: number, seen: Set<number>): boolean => {
      for (const j of itemAt(words, hop)) {
        if (seen.has(j)) continue;
        seen.add(j);
        const other = owner.get(j);
        if (other === undefined || claim(other, seen)) {
          owner.set(j, hop);
          return true;
        }
      }
      return false;
    };
    let matched = 0;
    // a hop the question names by a word of its own (the pipeline's lexical reading: ReaderContext.relationWords) has it
    for (let i = 0; i < hops.length; i++) if (named?.(i) || claim(i, new Set())) matched++;
    return hops.length - matched;
  }

  /** How much the question talks about one relation (any role, this direction): best single-hop LLR. */
  scoreRelation(terms: string[], name: string, dir: '>' | '<', last?: boolean): number {
    const roles = last === undefined ? [true, false] : [last];
    let best = -Infinity;
    for (const l of roles) {
      let s = 0;
      for (const t of terms) s += Math.log(BETA + ((1 - BETA) * this.pHop(name, dir, l, t)) / this.pBackground(t));
      best = Math.max(best, s);
    }
    return best;
  }

  /** Terms that speak for a relation: its label words plus the strongest mined words (for BM25 documents). */
  relationDocument(name: string, dir?: '>' | '<', max = 12): string[] {
    const doc = [...this.labelTerms(name)];
    const rows = Object.entries(this.vocab?.keys ?? {}).filter(([k]) => k.slice(0, -2) === name && (!dir || k[k.length - 2] === dir));
    const score = new Map<string, number>();
    for (const [, row] of rows) {
      for (const [t, c] of Object.entries(row)) {
        const ratio = this.pRelation(name, t) / this.pBackground(t);
        if (c >= 2 && ratio > 2) score.set(t, Math.max(score.get(t) ?? 0, ratio));
      }
    }
    for (const [t] of [...score].sort((a, b) => b[1] - a[1]).slice(0, max)) if (!doc.includes(t)) doc.push(t);
    return doc;
  }
}

/**
 * The relation chain of a JOIN-chain form, seen from its topic entity:
 * (JOIN (R r) x) is a forward hop from x, (JOIN r x) a backward hop. Null for other shapes.
 */
export function chainFromForm(form: Form): { topic: string; hops: { name: string; dir: '>' | '<' }[] } | null {
  if (form.kind === 'entity') {
    const r = form.ref;
    return { topic: r.kind === 'label' ? r.label : r.kind === 'name' ? r.name : r.iri, hops: [] };
  }
  if (form.kind !== 'join') return null;
  const inner = chainFromForm(form.arg);
  if (!inner) return null;
  const rel = form.relation;
  let name: string | null = null;
  let dir: '>' | '<' = '<';
  if (rel.kind === 'rel') name = refName(rel.ref);
  else if (rel.kind === 'reverse' && rel.of.kind === 'rel') {
    name = refName(rel.of.ref);
    dir = '>';
  }
  if (name === null) return null;
  return { topic: inner.topic, hops: [...inner.hops, { name, dir }] };
}

function refName(ref: { kind: string; name?: string; label?: string; iri?: string }): string {
  return ref.name ?? ref.label ?? ref.iri ?? '';
}

/** The chain as a logical form over the topic label, for the parser model's scorer. */
export function chainToForm(topicLabel: string, hops: Pick<Hop, 'name' | 'dir'>[]): string {
  let f = `[ ${topicLabel} ]`;
  for (const h of hops) f = h.dir === '>' ? `(JOIN (R ${h.name}) ${f})` : `(JOIN ${h.name} ${f})`;
  return f;
}

/**
 * Mines a vocabulary from training examples in the fixtures format ({question, form}); forms that
 * are not JOIN chains are skipped. The topic mention is removed from each question first.
 */
export function vocabularyFromExamples(examples: { question: string; form: string }[], parse: (text: string) => Form, opts: { iterations?: number } = {}): RelationVocabulary {
  const out: VocabExample[] = [];
  for (const ex of examples) {
    let c: ReturnType<typeof chainFromForm> = null;
    try {
      c = chainFromForm(parse(ex.form));
    } catch {
      continue; // unparsable form: not training material for the vocabulary
    }
    if (c?.hops.length) out.push({ terms: questionTerms(ex.question, [c.topic]), hops: c.hops });
  }
  return mineRelationVocabulary(out, opts);
}

/** The file name a pack may ship its mined vocabulary under (next to pack.json). */
export const VOCABULARY_FILE = 'relation-vocabulary.json';

/**
 * Reads <packDir>/relation-vocabulary.json when the pack has one (undefined otherwise: the readers
 * then score relations by their label words alone). A malformed file is a DATA_FORMAT error.
 */
export function loadRelationVocabulary(packDir: string): RelationVocabulary | undefined {
  const file = path.join(packDir, VOCABULARY_FILE);
  if (!fs.existsSync(file)) return undefined;
  let v: Partial<RelationVocabulary> | null;
  try {
    v = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<RelationVocabulary> | null;
  } catch (e) {
    throw new AskgraphError('DATA_FORMAT', `${file}: ${(e as Error).message}`, { cause: e });
  }
  if (v?.format !== 'askgraph-relvocab/1' || typeof v.keys !== 'object' || typeof v.background !== 'object') {
    throw new AskgraphError('DATA_FORMAT', `${file}: not an askgraph-relvocab/1 vocabulary`);
  }
  return v as RelationVocabulary;
}
