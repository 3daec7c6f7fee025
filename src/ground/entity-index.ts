import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskgraphError, itemAt, isStopword, NORMALIZATION_VERSION, normalizeLabel, singularForms, wordNet } from '../core';
import { defaultScorer, type Scorer } from './scorers';
import { TokenIndex } from './token-index';

export interface LabelEntry {
  iri: string;
  label: string;
}

export interface EntityHit {
  iri: string;
  label: string;
  score: number;
  /** The normalised query equals the normalised label (up to inflection: "westerns" → Western). */
  exact: boolean;
  /**
   * How the hit was found: the label itself, an inflected form of it (a plural mention of a singular label),
   * one word of a longer name (a first name or surname alone), or a fuzzy match. Absent = 'exact' or 'fuzzy' per `exact`.
   */
  match?: 'exact' | 'inflected' | 'partial' | 'fuzzy';
}

/** One entity label (normalised) a one-word mention names partially, with its entities. */
export interface PartialName {
  norm: string;
  hits: EntityHit[];
}

/**
 * Scores of the matches that are not the label itself (read as replacement probabilities by Algorithm 1,
 * so they lower the answer's confidence): a plural of a singular label costs little; a partial name that is
 * the only label with that word at its start or end is a likely reading, but a reading.
 */
export const INFLECTED_SCORE = 0.97;
export const PARTIAL_UNIQUE_SCORE = 0.8;

/** A partial name is a word at the start or end of a 2–3 word label (person-like names: first name, surname). */
const PARTIAL_MAX_WORDS = 3;
/** A partial name read through a one-edit typo costs this much more (two edits: its square). */
const PARTIAL_TYPO_FACTOR = 0.9;
/** A word at the start or end of more labels than this names none of them partially. */
const PARTIAL_MAX_LABELS = 20;

/**
 * Is a word a common noun rather than part of a name? WordNet lists it as a noun and none of its senses is a
 * person ("weather", "tomorrow", "heat"): such a word alone is no partial name ("kurosawa", "ford" have
 * person senses; "keanu" is not in WordNet at all).
 */
export function commonNoun(word: string): boolean {
  const senses = wordNet().senses(word, 'n');
  return senses.length > 0 && !senses.some((s) => s.lexFile === 'noun.person');
}

export interface EntitySearchOptions {
  /** Top k (k_e). Default 5. */
  k?: number;
  /** Minimum score (t_e). Default 0.6. */
  threshold?: number;
  /** How many token-index hits are re-scored. Default 50. */
  candidates?: number;
  /** Similarity used to re-score candidates. Default 0.7 fuzzy + 0.3 BM25. */
  scorer?: Scorer;
  /** Also run the fuzzy/BM25 search when an exact hit exists (default false: exact hits are returned alone). */
  always?: boolean;
}

const FORMAT = 'askgraph-entity-index/1';

/**
 * Singular forms a plural mention may stand for, inflecting its last word (src/core/morph.ts: WordNet
 * morphy's detachment rules, then compromise for irregular plurals); lazy, unchecked.
 */
export function* singularCandidates(text: string): Generator<string> {
  const m = /^(.*?)(\p{L}+)$/u.exec(text.trim());
  if (!m) return;
  const [, head = '', last = ''] = m;
  for (const s of singularForms(last)) yield head + s;
}

interface SavedIndex {
  format: string;
  normalization?: number;
  meta?: Record<string, unknown>; // absent in a file written without it
  iris: string[];
  /** [iri index, label] per document. */
  docs: [number, string][];
  /** Normalised label per document (saves normalising on load; recomputed if absent). */
  norms?: string[];
}

/**
 * The entity index of one store: every label (rdfs:label and alias predicates) of every entity,
 * normalised. An exact hash map gives exact hits in O(1); a token inverted index (TokenIndex, with
 * typo and prefix expansion through MiniSearch's radix tree) generates candidates sublinearly; a
 * pluggable scorer re-ranks the short candidate list. Only iris and labels are saved; the
 * structures are rebuilt on load (≈ 0.1 s for the movies graph), the token index on its first search.
 */
export class EntityIndex {
  private constructor(
    /** Built on the first token search when loaded from a file: exact lookups (most questions) never need it. */
    private tokenIndex: TokenIndex | undefined,
    private readonly iris: string[],
    private readonly docIri: Int32Array,
    private readonly docLabel: string[],
    private readonly norms: string[],
    private readonly exactMap: Map<string, number[]>,
    readonly meta: Record<string, unknown>,
  ) {}

  private iriMap: Map<string, number> | undefined;

  private get tokens(): TokenIndex {
    return (this.tokenIndex ??= new TokenIndex(this.norms));
  }

  get size(): number {
    return this.docLabel.length;
  }

  get entityCount(): number {
    return this.iris.length;
  }

  static build(entries: Iterable<LabelEntry>, opts: { meta?: Record<string, unknown>; onProgress?: (done: number) => void } = {}): EntityIndex {
    const iriIndex = new Map<string, number>();
    const iris: string[] = [];
    const docIri: number[] = [];
    const docLabel: string[] = [];
    const seen = new Set<string>();
    for (const { iri, label } of entries) {
      const key = iri + '\u0000' + label;
      if (seen.has(key)) continue;
      seen.add(key);
      let ix = iriIndex.get(iri);
      if (ix === undefined) {
        ix = iris.length;
        iris.push(iri);
        iriIndex.set(iri, ix);
      }
      docIri.push(ix);
      docLabel.push(label);
    }
    const docs = docLabel.map((label, i) => [docIri[i], label] as [number, string]);
    return EntityIndex.fromDocs(iris, docs, opts.meta ?? {}, opts.onProgress);
  }

  private static fromDocs(
    iris: string[],
    docs: [number, string][],
    meta: Record<string, unknown>,
    onProgress?: (done: number) => void,
    savedNorms?: string[],
  ): EntityIndex {
    const docIri = new Int32Array(docs.length);
    const docLabel = new Array<string>(docs.length);
    const exactMap = new Map<string, number[]>();
    const norms = new Array<string>(docs.length);
    for (const [i, [iri, label]] of docs.entries()) {
      docIri[i] = iri;
      docLabel[i] = label;
      const n = savedNorms?.[i] ?? normalizeLabel(label);
      norms[i] = n;
      const list = exactMap.get(n);
      if (list) list.push(i);
      else exactMap.set(n, [i]);
    }
    // a fresh build makes the token index now (with progress); a loaded one when first searched
    const tokens = savedNorms ? undefined : new TokenIndex(norms, onProgress);
    onProgress?.(norms.length);
    return new EntityIndex(tokens, iris, docIri, docLabel, norms, exactMap, meta);
  }

  /**
   * Entities whose normalised label equals the normalised text: score 1 when the label is identical,
   * 0.99 when equal only after normalisation (MetaQA has "Tom Hanks" and "tom hanks" as two entities;
   * the one spelt like the mention comes first).
   */
  exact(text: string, limit = 1000): EntityHit[] {
    const key = normalizeLabel(text);
    const docs = key === '' ? undefined : this.exactMap.get(key); // "-" or "!!!" name nothing
    if (!docs) return [];
    const best = new Map<number, EntityHit>();
    const trimmed = text.trim();
    // A label shared by thousands of entities (synthetic sets, "Untitled") is cut at `limit` documents.
    for (const d of docs.slice(0, limit)) {
      const { ix, iri, label } = this.docAt(d);
      const score = label === trimmed ? 1 : 0.99;
      const prev = best.get(ix);
      if (!prev || prev.score < score) best.set(ix, { iri, label, score, exact: true });
    }
    return [...best.values()].sort((a, b) => b.score - a.score);
  }

  /** Every indexed label (one per document; an entity with aliases has several). */
  allLabels(): readonly string[] {
    return this.docLabel;
  }

  /**
   * Builds the lazily built structures now (for a flat first-query latency: a long-running gateway warms at open):
   * the token index and its radix tree, and the lookup of an entity's labels by IRI (labelsOf). On the 5.0M labels
   * of the 28M-triple graph they took 3.7 s and 4.9 s on the first questions that needed them.
   */
  warm(): void {
    this.tokens.warm();
    this.docsOfIris();
    this.iriMapOf();
  }

  /** Which lazily built structures exist (warm() builds them all). */
  get built(): { tokens: boolean; iris: boolean } {
    return { tokens: this.tokenIndex?.warmed === true, iris: this.iriMap !== undefined && this.byIri !== undefined };
  }

  /** Words of this graph that are never the topic alone (pack.json `nonTopicWords`); entity linking skips spans made only of them. */
  nonTopicWords: ReadonlySet<string> = new Set();

  /** Sets the pack's non-topic words (configuration, not saved with the index). */
  setNonTopicWords(words: Iterable<string>): void {
    this.nonTopicWords = new Set([...words].map((w) => w.toLowerCase()));
  }

  /** Does the normalised text name some entity exactly? (cheap; used by entity linking) */
  hasExact(normalized: string): boolean {
    return normalized !== '' && this.exactMap.has(normalized);
  }

  /**
   * The entities whose label the text spells (exact), else those of a singular form of it: a plural mention of a
   * singular label ("westerns", "comedies" → Western, Comedy; WordNet's morphy detachment rules on the last word, each
   * candidate checked against the labels themselves), scored INFLECTED_SCORE. search()'s first step, without its fuzzy
   * one: for a caller that asks only whether a span of the question names something.
   */
  spelt(text: string, limit = 1000): EntityHit[] {
    const exact = this.exact(text, limit);
    if (exact.length > 0) return exact;
    for (const singular of singularCandidates(text)) {
      const hits = this.exact(singular, limit).map((h) => ({ ...h, score: INFLECTED_SCORE * h.score, match: 'inflected' as const }));
      if (hits.length > 0) return hits;
    }
    return [];
  }

  /** Top k entities for a text, best first, score ≥ threshold. Exact normalised matches score 1. */
  search(text: string, opts: EntitySearchOptions = {}): EntityHit[] {
    const k = opts.k ?? 5;
    const threshold = opts.threshold ?? 0.6;
    const query = normalizeLabel(text);
    if (query === '') return [];
    let exact = this.spelt(text, Math.max(64, 8 * k));
    if (exact.length > 0 && !opts.always) return exact.slice(0, k);
    // Function words alone ("every", "all the") name only a label that spells them ("It", "Us"): no near matches.
    if (exact.length === 0 && query.split(' ').every(isStopword)) return [];
    // A one-word mention that no label spells: the one label (2–3 words) with that word first or last is a
    // reading, ranked with the fuzzy hits (a typo of a one-word label must still find that label).
    const partial = exact.length === 0 ? this.partialNames(text) : [];
    if (partial.length === 1) exact = itemAt(partial, 0).hits.map((h) => ({ ...h, score: PARTIAL_UNIQUE_SCORE * h.score }));
    const scorer = opts.scorer ?? defaultScorer;
    const results = this.tokens.search(query, opts.candidates ?? 50);
    const best = new Map<number, EntityHit>();
    for (const e of exact) best.set(this.iriIndex(e.iri), e);
    for (const r of results) {
      const { ix, iri, label, norm } = this.docAt(r.doc);
      if (best.get(ix)?.exact || best.get(ix)?.match === 'partial') continue;
      const score = scorer.score({ query, label: norm, bm25: r.score });
      const prev = best.get(ix);
      if (!prev || prev.score < score) best.set(ix, { iri, label, score, exact: false, match: 'fuzzy' });
    }
    return [...best.values()]
      .filter((h) => h.score >= threshold)
      .sort((a, b) => b.score - a.score || a.label.length - b.label.length)
      .slice(0, k);
  }

  /**
   * The labels a one-word mention may name partially: labels of 2–3 words whose first or last word it is
   * ("keanu" → Keanu Reeves, "kurosawa" → Akira Kurosawa, Kiyoshi Kurosawa) — or, when no label has the word,
   * whose first or last word is a typo correction of it ("hitchcok" → Alfred Hitchcock, score × 0.9) — one
   * entry per normalised label with its entities (score 1 when the word keeps the label's case, else 0.99).
   * None when the mention is not one word, is spelt by some label itself (unless `spelt`: the caller weighs
   * that label against the names), is a common noun (WordNet: a noun with no person sense), or starts or ends
   * more than 20 labels (a common first name names no one).
   */
  partialNames(text: string, spelt = false): PartialName[] {
    const word = normalizeLabel(text);
    if (word.length < 3 || word.includes(' ') || /^\d+$/.test(word) || isStopword(word) || (!spelt && this.exactMap.has(word))) return [];
    // The word as typed, else its typo corrections in the labels' vocabulary ("hitchcok" → hitchcock), discounted.
    const typed = this.tokens.docsWith(word).length > 0;
    const readings = typed ? [{ word, factor: 1 }] : this.tokens.typoNeighbours(word, 3).map((n) => ({ word: n.word, factor: n.distance === 1 ? PARTIAL_TYPO_FACTOR : PARTIAL_TYPO_FACTOR ** 2 }));
    const groups = new Map<string, Map<number, EntityHit>>();
    for (const r of readings) {
      if (commonNoun(r.word)) continue;
      for (const d of this.tokens.docsWith(r.word)) {
        const { ix, iri, label, norm } = this.docAt(d);
        const words = norm.split(' ');
        if (words.length < 2 || words.length > PARTIAL_MAX_WORDS || (words[0] !== r.word && words[words.length - 1] !== r.word)) continue;
        let group = groups.get(norm);
        if (!group) {
          if (groups.size >= PARTIAL_MAX_LABELS) return [];
          groups.set(norm, (group = new Map<number, EntityHit>()));
        }
        const score = r.factor * (label.split(/\s+/).includes(text.trim()) ? 1 : 0.99);
        if ((group.get(ix)?.score ?? 0) < score) group.set(ix, { iri, label, score, exact: false, match: 'partial' });
      }
    }
    return [...groups].map(([norm, g]) => ({ norm, hits: [...g.values()].sort((a, b) => b.score - a.score) }));
  }

  /** Document d's entity number, IRI, label and normalised label (d comes from this index's own lists). */
  private docAt(d: number): { ix: number; iri: string; label: string; norm: string } {
    const ix = this.docIri[d];
    const label = this.docLabel[d];
    const norm = this.norms[d];
    const iri = ix === undefined ? undefined : this.iris[ix];
    if (ix === undefined || iri === undefined || label === undefined || norm === undefined) throw new AskgraphError('INTERNAL', `entity index: no document ${d}`);
    return { ix, iri, label, norm };
  }

  private iriIndex(iri: string): number {
    return this.iriMapOf().get(iri) ?? -1;
  }

  /** The entity number of each IRI, built on first use (warm() builds it at open). */
  private iriMapOf(): Map<string, number> {
    if (!this.iriMap) {
      // filled in place: mapping to [iri, i] pairs first (or iterating entries()) allocates a pair per entity, 4.8M on the 28M graph
      const map = new Map<string, number>();
      this.iris.forEach((x, i) => map.set(x, i));
      this.iriMap = map;
    }
    return this.iriMap;
  }

  /** Whether some label has this (normalised) word among its words: a name part the graph has ("lucas"). */
  hasWord(word: string): boolean {
    const w = normalizeLabel(word);
    return w !== '' && !w.includes(' ') && this.tokens.docsWith(w).length > 0;
  }

  /** All labels of an IRI in the index (first is the preferred one), in document order. */
  labelsOf(iri: string): string[] {
    const ix = this.iriIndex(iri);
    if (ix < 0) return [];
    const { start, docs } = this.docsOfIris();
    const out: string[] = [];
    for (let k = start[ix] ?? 0, end = start[ix + 1] ?? 0; k < end; k++) out.push(itemAt(this.docLabel, itemAt(docs, k), 'labels'));
    return out;
  }

  /** The documents of each entity (counting sort by entity, document order kept): docs[start[ix] … start[ix+1]). */
  private byIri: { start: Int32Array; docs: Int32Array } | undefined;

  private docsOfIris(): { start: Int32Array; docs: Int32Array } {
    return (this.byIri ??= this.docsByIri());
  }

  private docsByIri(): { start: Int32Array; docs: Int32Array } {
    const start = new Int32Array(this.iris.length + 1);
    for (const ix of this.docIri) start[ix + 1] = (start[ix + 1] ?? 0) + 1;
    for (let i = 0; i < this.iris.length; i++) start[i + 1] = (start[i + 1] ?? 0) + (start[i] ?? 0);
    const next = start.slice(0, this.iris.length);
    const docs = new Int32Array(this.docIri.length);
    for (const [d, ix] of this.docIri.entries()) {
      const at = next[ix] ?? 0;
      docs[at] = d;
      next[ix] = at + 1;
    }
    return { start, docs };
  }

  save(file: string): void {
    const saved: SavedIndex = {
      format: FORMAT,
      normalization: NORMALIZATION_VERSION,
      meta: this.meta,
      iris: this.iris,
      docs: this.docLabel.map((l, i) => [itemAt(this.docIri, i), l]),
      norms: this.norms,
    };
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(saved));
    fs.renameSync(tmp, file);
  }

  static load(file: string): EntityIndex {
    let saved: SavedIndex;
    try {
      saved = JSON.parse(fs.readFileSync(file, 'utf8')) as SavedIndex;
    } catch (e) {
      throw new AskgraphError('DATA_FORMAT', `cannot read entity index ${file}: ${(e as Error).message}`, { cause: e });
    }
    if (saved.format !== FORMAT) throw new AskgraphError('DATA_FORMAT', `${file}: not an ${FORMAT} file`);
    if (saved.normalization !== NORMALIZATION_VERSION) {
      throw new AskgraphError('DATA_FORMAT', `${file}: built with label normalisation v${saved.normalization ?? 1}, this is v${NORMALIZATION_VERSION}`);
    }
    const norms = Array.isArray(saved.norms) && saved.norms.length === saved.docs.length ? saved.norms : undefined;
    return EntityIndex.fromDocs(saved.iris, saved.docs, saved.meta ?? {}, undefined, norms);
  }
}
