/**
 * Lexical knowledge for grounding words the graph does not spell: GloVe 100d word vectors (the compact int8 copy in
 * assets/lexical/, built by scripts/build-lexical-vectors.ts; read once, on first use, ~8 MB) and WordNet's links
 * (src/core/wordnet.ts `related`: synonyms, derivations, adjective ↔ attribute, hypernyms). `wordNearness` is the
 * one measure of how near two words are; relation and class phrases (relations.ts) and the pipeline's
 * "nothing in this graph is near …" check (src/pipeline/checks.ts) both use it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskgraphError, isStopword, itemAt, packageRoot, singularForms, verbBase, wordNet, type WnLink, type WnRelation } from '../core';

const MAGIC = 'AGV1';

/** The word-vector files of a folder (scripts/build-lexical-vectors.ts writes them; the trainer's --word-vectors reads them too). */
export const WORD_VECTOR_FILES = { vectors: 'glove-100d-int8.bin', vocabulary: 'glove-100d-vocab.txt' } as const;

/** The package's folder of word vectors (assets/lexical). */
export function lexicalDir(): string {
  return path.join(packageRoot(), 'assets', 'lexical');
}

/** Word vectors quantised to int8 with a per-vector scale; cosine is computed on the int8 values (the scale cancels). */
export class WordVectors {
  private readonly index = new Map<string, number>();
  private readonly norms: Float32Array;

  private constructor(
    readonly words: readonly string[],
    readonly dims: number,
    private readonly data: Int8Array,
    private readonly scales: Float32Array,
  ) {
    words.forEach((w, i) => this.index.set(w, i));
    this.norms = new Float32Array(words.length);
    for (let i = 0; i < words.length; i++) {
      let s = 0;
      const o = i * dims;
      for (let d = 0; d < dims; d++) s += itemAt(data, o + d, 'word vectors') * itemAt(data, o + d, 'word vectors');
      this.norms[i] = Math.sqrt(s);
    }
  }

  /** Reads `<dir>/glove-100d-int8.bin` and `<dir>/glove-100d-vocab.txt` (default: the package's assets/lexical). */
  static load(dir = lexicalDir()): WordVectors {
    const binFile = path.join(dir, WORD_VECTOR_FILES.vectors);
    const vocabFile = path.join(dir, WORD_VECTOR_FILES.vocabulary);
    if (!fs.existsSync(binFile) || !fs.existsSync(vocabFile)) throw new AskgraphError('NOT_FOUND', `word vectors not found in ${dir} (scripts/build-lexical-vectors.ts writes them)`);
    const buf = fs.readFileSync(binFile);
    const words = fs.readFileSync(vocabFile, 'utf8').split('\n').filter((w) => w !== '');
    const bad = (why: string) => new AskgraphError('DATA_FORMAT', `${binFile}: ${why}`, { details: { file: path.basename(binFile) } });
    if (buf.length < 12 || buf.toString('latin1', 0, 4) !== MAGIC) throw bad('not an askgraph vector file');
    const count = buf.readUInt32LE(4);
    const dims = buf.readUInt32LE(8);
    if (count !== words.length || dims === 0 || buf.length !== 12 + count * (4 + dims)) throw bad(`size does not match ${count} words × ${dims} dims and the vocabulary's ${words.length} words`);
    const data = new Int8Array(count * dims);
    const scales = new Float32Array(count);
    for (let i = 0; i < count; i++) {
      const off = 12 + i * (4 + dims);
      scales[i] = buf.readFloatLE(off);
      data.set(new Int8Array(buf.buffer, buf.byteOffset + off + 4, dims), i * dims);
    }
    return new WordVectors(words, dims, data, scales);
  }

  /** The row of a word: as written, else a singular form ("songs" when only "song" is kept). */
  private row(word: string): number | undefined {
    const w = word.toLowerCase();
    const i = this.index.get(w);
    if (i !== undefined) return i;
    const known = this.inflected.get(w);
    if (known !== undefined) return known < 0 ? undefined : known;
    let found = -1;
    for (const s of singularForms(w)) {
      const j = this.index.get(s);
      if (j !== undefined) {
        found = j;
        break;
      }
    }
    if (this.inflected.size > 50000) this.inflected.clear();
    this.inflected.set(w, found);
    return found < 0 ? undefined : found;
  }

  /** Rows of words found through a singular form (-1: none), so a miss costs one morphology call. */
  private readonly inflected = new Map<string, number>();

  /** A word's frequency rank (0 = the most frequent; the vector file keeps GloVe's order); undefined: not kept. */
  rank(word: string): number | undefined {
    return this.index.get(word.toLowerCase());
  }

  has(word: string): boolean {
    return this.row(word) !== undefined;
  }

  /** The dequantised vector of a word (undefined: not in the vocabulary). */
  vector(word: string): Float32Array | undefined {
    const i = this.row(word);
    if (i === undefined) return undefined;
    const out = new Float32Array(this.dims);
    const s = itemAt(this.scales, i, 'word vectors');
    for (let d = 0; d < this.dims; d++) out[d] = itemAt(this.data, i * this.dims + d, 'word vectors') * s;
    return out;
  }

  private hubVector?: Float32Array;
  private readonly hubCache = new Map<number, number>();

  /**
   * How near a word is to words in general: its mean cosine to the 2,000 most frequent words after the first 100
   * (= its unit vector · their mean unit vector). Frequent, vague words ("name", "place", "made") sit near
   * everything in GloVe; `relativeCosine` discounts it (hubness).
   */
  hubness(word: string): number | undefined {
    const i = this.row(word);
    if (i === undefined) return undefined;
    const hit = this.hubCache.get(i);
    if (hit !== undefined) return hit;
    if (!this.hubVector) {
      const hv = new Float32Array(this.dims);
      let n = 0;
      for (let j = 100; j < Math.min(this.words.length, 2100); j++) {
        const nrm = itemAt(this.norms, j, 'word vectors');
        if (nrm === 0) continue;
        for (let d = 0; d < this.dims; d++) hv[d] = itemAt(hv, d, 'word vectors') + itemAt(this.data, j * this.dims + d, 'word vectors') / nrm;
        n++;
      }
      for (let d = 0; d < this.dims; d++) hv[d] = itemAt(hv, d, 'word vectors') / Math.max(1, n);
      this.hubVector = hv;
    }
    const nrm = itemAt(this.norms, i, 'word vectors');
    let dot = 0;
    for (let d = 0; d < this.dims; d++) dot += itemAt(this.hubVector, d, 'word vectors') * itemAt(this.data, i * this.dims + d, 'word vectors');
    const h = nrm === 0 ? 0 : dot / nrm;
    this.hubCache.set(i, h);
    return h;
  }

  /**
   * The cosine of two words above what their hubness explains, rescaled so the same word is 1:
   * (cos − h) / (1 − h), h = the mean of the two words' hubness; at least 0. Undefined when either has no vector.
   */
  relativeCosine(a: string, b: string): number | undefined {
    const c = this.cosine(a, b);
    if (c === undefined) return undefined;
    if (c >= 1) return 1;
    const h = ((this.hubness(a) ?? 0) + (this.hubness(b) ?? 0)) / 2;
    return Math.max(0, (c - h) / (1 - h));
  }

  /** Cosine of two words' vectors; undefined when either is not in the vocabulary. */
  cosine(a: string, b: string): number | undefined {
    const i = this.row(a);
    const j = this.row(b);
    if (i === undefined || j === undefined) return undefined;
    if (i === j) return 1;
    const ni = itemAt(this.norms, i, 'word vectors');
    const nj = itemAt(this.norms, j, 'word vectors');
    if (ni === 0 || nj === 0) return 0;
    let dot = 0;
    const oi = i * this.dims;
    const oj = j * this.dims;
    for (let d = 0; d < this.dims; d++) dot += itemAt(this.data, oi + d, 'word vectors') * itemAt(this.data, oj + d, 'word vectors');
    return dot / (ni * nj);
  }

  /** Cosine of the mean vectors of two word lists (words without a vector left out); undefined if a side has none. */
  phraseCosine(a: readonly string[], b: readonly string[]): number | undefined {
    const mean = (ws: readonly string[]) => {
      const out = new Float32Array(this.dims);
      let n = 0;
      for (const w of ws) {
        const i = this.row(w);
        if (i === undefined || this.norms[i] === 0) continue;
        const nrm = itemAt(this.norms, i, 'word vectors');
        for (let d = 0; d < this.dims; d++) out[d] = itemAt(out, d, 'word vectors') + itemAt(this.data, i * this.dims + d, 'word vectors') / nrm;
        n++;
      }
      return n > 0 ? out : undefined;
    };
    const va = mean(a);
    const vb = mean(b);
    if (!va || !vb) return undefined;
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let d = 0; d < this.dims; d++) {
      dot += itemAt(va, d, 'word vectors') * itemAt(vb, d, 'word vectors');
      na += itemAt(va, d, 'word vectors') * itemAt(va, d, 'word vectors');
      nb += itemAt(vb, d, 'word vectors') * itemAt(vb, d, 'word vectors');
    }
    return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
  }
}

/** Reads the word vectors and WordNet's indexes now instead of on first use (a gateway that warms at open). */
export function warmLexical(): void {
  wordVectors();
  wordNet().warm();
}

let shared: WordVectors | undefined;
/** The package's word vectors, read on first use (one copy per process). */
export function wordVectors(): WordVectors {
  shared ??= WordVectors.load();
  return shared;
}

/** Scores of WordNet links between two words (a synonym is nearly the word; a hypernym only says "a kind of"). */
export const WORDNET_SCORES: Record<WordLink, number> = { synonym: 0.9, derived: 0.85, attribute: 0.85, hypernym: 0.7, 'lemma-word': 0.7, hyponym: 0.6 };

/**
 * A WordNet relation; 'lemma-word': one word is a word of a multi-word synonym or derived form of the other ("born" in
 * "be born", derived from "birth"; "married" in "married person", a synonym of "spouse"); 'hyponym': the other word is
 * one step a kind of this one, the general word asking for the specific ("offspring" for "child", "occupation" for
 * "profession"), weaker than the other way round.
 */
export type WordLink = WnRelation | 'lemma-word' | 'hyponym';

export interface Nearness {
  /** max of the WordNet and vector scores; 1 for the same word. */
  score: number;
  /** WordNet's link score (0: none). */
  wordnet: number;
  /** GloVe cosine relative to the words' hubness (WordVectors.relativeCosine; 0 when either word has no vector). */
  vectors: number;
  /** What made it near: 'same', a WordNet relation, or 'vectors'. */
  via: 'same' | WordLink | 'vectors' | 'none';
}

const relatedCache = new Map<string, Map<string, WnLink>>();
/** WordNet's related words of a word and of its verb base (cached; hypernyms of its first noun senses, 8 steps up). */
export function relatedWords(word: string): Map<string, WnLink> {
  const w = word.toLowerCase();
  let r = relatedCache.get(w);
  if (!r) {
    r = wordNet().related(w, { depth: 8 });
    // irregular verb forms WordNet's detachment rules do not undo ("made" → "make", "wrote" → "write")
    const base = /^\p{L}+$/u.test(w) ? verbBase(w) : undefined;
    if (base && base !== w && !r.has(base)) for (const [k, link] of wordNet().related(base, { depth: 8 })) if (!r.has(k)) r.set(k, link);
    if (relatedCache.size > 20000) relatedCache.clear();
    relatedCache.set(w, r);
  }
  return r;
}

/** The score of a WordNet link: WORDNET_SCORES, a hypernym less for each step past the first (0.7, 0.64, … ≥ 0.4). */
export function linkScore(link: WordLink, steps = 1): number {
  return link === 'hypernym' ? Math.max(0.4, WORDNET_SCORES.hypernym - 0.06 * Math.max(0, steps - 1)) : WORDNET_SCORES[link];
}

/** The link of two words in WordNet, either way round ("old" → attribute "age"; "age" → attribute "old"), with its score. */
export function wordnetLink(a: string, b: string): { link: WordLink; score: number } | undefined {
  // a word's related words are lemmas: the other word is looked up as written and as the singulars WordNet knows of it
  // ("parents" → parent; "children" → child, by compromise's irregular plurals: core singularForms)
  const singulars = (w: string) => (/s$|en$/.test(w) ? [...singularForms(w)].filter((x) => wordNet().has(x, 'n')) : []);
  // each word with its singulars, found once (compromise's morphology is the costly part)
  const sa = singulars(a);
  const sb = singulars(b);
  const lookup = (of: string, ofSingulars: string[], w: string, wSingulars: string[]): WnLink | undefined => {
    let best: WnLink | undefined;
    // the word's own related words, and its singulars' ("children": child's)
    for (const o of [of, ...ofSingulars]) {
      const related = relatedWords(o);
      for (const x of [w.toLowerCase(), ...wSingulars]) {
        const k = related.get(x);
        if (k && (!best || linkScore(k.kind, k.steps) > linkScore(best.kind, best.steps))) best = k;
      }
    }
    return best;
  };
  const x = lookup(a, sa, b, sb);
  const y = lookup(b, sb, a, sa);
  // hypernyms are one-way: "cello" is an "instrument", not the reverse, but a word one step above the other is a
  // general way of naming it ("offspring" for "child"): a hyponym, weaker
  const cands: { link: WordLink; score: number }[] = [x, y?.kind === 'hypernym' ? undefined : y]
    .filter((k): k is WnLink => k !== undefined)
    .map((k) => ({ link: k.kind, score: linkScore(k.kind, k.steps) }));
  if (y?.kind === 'hypernym' && y.steps === 1) cands.push({ link: 'hyponym', score: WORDNET_SCORES.hyponym });
  // a word of a multi-word synonym or derived form: "married" in "married person", "born" in "be born"
  if (cands.length === 0 && !isStopword(a) && !isStopword(b)) {
    const inLemma = (w: string, of: string) => [...relatedWords(of)].some(([l, k]) => (k.kind === 'synonym' || k.kind === 'derived') && l.includes(' ') && l.split(' ').includes(w));
    if (inLemma(a.toLowerCase(), b) || inLemma(b.toLowerCase(), a)) return { link: 'lemma-word', score: WORDNET_SCORES['lemma-word'] };
  }
  return cands.sort((p, q) => q.score - p.score)[0];
}

const nearCache = new Map<string, Nearness>();

/** How near two (lower-case) words are: the same word (or a base form of it), a WordNet link, or their GloVe cosine. */
export function wordNearness(a: string, b: string, vectors: WordVectors = wordVectors()): Nearness {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x === y) return { score: 1, wordnet: 1, vectors: 1, via: 'same' };
  const key = x < y ? `${x}\u0000${y}` : `${y}\u0000${x}`;
  const hit = nearCache.get(key);
  if (hit && vectors === shared) return hit;
  const link = wordnetLink(x, y);
  const wn = link?.score ?? 0;
  const vec = vectors.relativeCosine(x, y) ?? 0;
  const out: Nearness =
    link && wn >= vec ? { score: wn, wordnet: wn, vectors: vec, via: link.link } : vec > 0 ? { score: vec, wordnet: wn, vectors: vec, via: 'vectors' } : { score: 0, wordnet: 0, vectors: 0, via: 'none' };
  if (vectors === shared) {
    if (nearCache.size > 50000) nearCache.clear();
    nearCache.set(key, out);
  }
  return out;
}
