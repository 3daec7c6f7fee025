/**
 * Honest abstention: does the question ask something the parser was ever shown how to ask about this graph?
 *
 * The parser is trained only on questions made from the graph (and, for the movies pack, MetaQA's), so its
 * training questions hold every word it knows how to map onto the graph's relations and operators
 * (<model>/words.json, written by the trainer: the words outside entity mentions). A question word that is
 * neither in that set, nor a one-letter typo of a word in it, nor inside an entity mention, is unexplained:
 * "what was Tom Hanks paid" — "paid"; "what is the population of Paris" — "population". The constrained decoder
 * still emits a form for such questions (it must), and that form may even execute; answering it would be a
 * confident wrong answer. So the pipeline says "no answer" and names the words it could not place.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { distance } from 'fastest-levenshtein';
import { AskgraphError, getOrAdd, inDictionary, isStopword, letterWords, pushTo, relationWords, singularForms, soundCodes, soundsAlike, swappedLetters, typoEdits, wordNet, type WnLink } from '../core';
import { linkScore, rankPhrase, relatedWords, wordnetLink, wordVectors, type RelationInfo, type WordVectors } from '../ground';


export type KnownWords = ReadonlySet<string>;

/** Words of the model's training questions with how many times the questions use each (words.json's counts). */
export class CountedWords extends Set<string> {
  constructor(private readonly counts: ReadonlyMap<string, number>) {
    super(counts.keys());
  }

  /** How many times the training questions use the word (0: never). */
  count(w: string): number {
    return this.counts.get(w) ?? 0;
  }
}

/** Words of the model's training questions (lower-cased), or undefined for a model without words.json. */
export function loadKnownWords(modelDir: string | undefined): KnownWords | undefined {
  if (!modelDir) return undefined;
  const file = path.join(modelDir, 'words.json');
  if (!fs.existsSync(file)) return undefined;
  let data: { words?: unknown } | null;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8')) as { words?: unknown } | null;
  } catch (e) {
    throw new AskgraphError('DATA_FORMAT', `${file}: not JSON (${(e as Error).message})`, { cause: e, details: { file: path.basename(file) } });
  }
  if (data === null || typeof data !== 'object' || data.words === null || typeof data.words !== 'object' || Array.isArray(data.words)) {
    throw new AskgraphError('DATA_FORMAT', `${file}: not a word list ({"words": {word: count}})`, { details: { file: path.basename(file) } });
  }
  // (a count that is no number counts once: older word lists kept only the words)
  return new CountedWords(new Map(Object.entries(data.words as Record<string, unknown>).map(([w, n]) => [w, typeof n === 'number' && n > 0 ? n : 1])));
}

/** Lower-cased words of a text (letters only: digits and punctuation never make a word unexplained), as words.json. */
export const wordsOf = letterWords;

/** A copied entity mention and the graph label it grounds to (undefined when it grounds to none). */
export interface Mention {
  text: string;
  label?: string;
}

/**
 * The question's words that no training question used. Words inside an entity mention count as explained
 * when the mention grounds to no label at all (grounding then says which names the graph lacks), else only
 * when they spell (up to a typo) a word of the label the mention grounds to: leftover words must not
 * hide inside a mention ("made Jaws" → Jaws leaves "made"; "Tom Hanks paid" → Tom Hanks leaves "paid").
 * A mention word beside a content word of its label that the mention does not spell is another name in the label's
 * place ("miles davis" grounded to Mick Davis): unexplained even when the parser knows the word.
 * A word within one edit of a known word of 6+ letters counts as known (typos of ordinary words are common;
 * shorter words are too close to each other: "tall" is one edit from "tell"), and so does a word that sounds like a
 * known one (misheardAs: a speech recogniser's "rider" for "writer") unless `readsAsIs` says it reads as something of
 * the graph as it is (the pipeline: a relation it reads clearly as, NearGraph.clearRelation).
 */
export function unexplainedWords(question: string, mentions: readonly Mention[], known: KnownWords, readsAsIs?: (word: string) => boolean): string[] {
  let rest = question.toLowerCase();
  const leftovers: string[] = [];
  const substituted = new Set<string>();
  for (const m of [...mentions].sort((a, b) => b.text.length - a.text.length)) {
    const t = m.text.trim().toLowerCase();
    if (!t || !rest.includes(t)) continue;
    rest = rest.split(t).join(' ');
    // A mention that grounds to no label is left to grounding, which says which names the graph lacks.
    if (!m.label) continue;
    const words = unspelled(t, m.label);
    leftovers.push(...words.left);
    for (const w of words.substituted) substituted.add(w);
  }
  const out: string[] = [];
  for (const w of [...wordsOf(rest), ...leftovers]) {
    if (out.includes(w)) continue;
    if (substituted.has(w)) {
      out.push(w);
      continue;
    }
    // function words carry no relation: "other films by …" is not out of scope for want of "other"
    if (known.has(w) || isStopword(w) || pluralOf(w, (x) => known.has(x))) continue;
    if (typoOf(w, known) !== undefined) continue;
    // (not a word that reads as something of the graph as it is: "mom" is parents, not a mishearing of "mam"; asked
    // second, as it reads the word against every relation)
    if (misheardAs(w, known) !== undefined && !readsAsIs?.(w)) continue;
    out.push(w);
  }
  return out;
}

/** A mention word that spells a word of its label: the same word, a typo of it, or its plural. */
function spellsLabelWord(w: string, label: string): boolean {
  return sameWord(w, label) || pluralOf(w, (x) => x === label);
}

/**
 * The content words of a mention that stand where its label has a content word the mention does not spell: another
 * name in the label's place ("miles" of "miles davis" grounded to Mick Davis), unless it sounds like a word of the label
 * (a speech recogniser's "iron" for "Aaron"). None for a mention that spells every
 * content word of its label (a known word after a whole name, "tom hanks movies"), for part of a name ("keanu" for
 * Keanu Reeves) and for a mention that grounds to no label.
 */
export function substitutedWords(m: Mention): string[] {
  return m.label ? unspelled(m.text, m.label).substituted : [];
}

/** The words of a mention its label does not spell (`left`), and of those the ones another name's (substitutedWords). */
function unspelled(mention: string, label: string): { left: string[]; substituted: string[] } {
  const own = wordsOf(mention);
  const labelWords = wordsOf(label);
  const left = own.filter((w) => !labelWords.some((l) => spellsLabelWord(w, l)));
  if (left.length === 0 || !labelWords.some((l) => !isStopword(l) && !own.some((w) => spellsLabelWord(w, l)))) return { left, substituted: [] };
  // (a word that sounds like a word of the label is that word misheard, core soundsAlike: "iron woodley" for Aaron Woodley)
  return { left, substituted: left.filter((w) => !isStopword(w) && !labelWords.some((l) => soundsAlike(w, l))) };
}

/**
 * The mentions of two or more content words that no single label spells (every content word of the mention a
 * word of that one label, up to typos and plurals): names the graph lacks, even when its pieces are entities.
 */
export function unmatchedNames(mentions: readonly string[], labels: readonly string[]): string[] {
  return mentions.filter((m) => wordsOf(m).filter((w) => !isStopword(w)).length >= 2 && !spelledByOne(m, labels));
}

/** Whether one of the labels spells every content word of the mention (up to typos and plurals: unexplainedWords). */
export function spelledByOne(mention: string, labels: readonly string[]): boolean {
  const none: KnownWords = new Set<string>();
  return labels.some((label) => unexplainedWords(mention, [{ text: mention, label }], none).length === 0);
}

/** A plural whose singular passes the test ("comedies" for the label "Comedy", "westerns" for a known "western"). */
function pluralOf(w: string, ok: (singular: string) => boolean): boolean {
  if (w.length < 4 || !w.endsWith('s')) return false;
  for (const s of singularForms(w)) if (ok(s)) return true;
  return false;
}

/** A mention word that spells a label word: equal, a typo of it, or its start ("spiel" is not; "hitchcok" is). */
function sameWord(w: string, label: string): boolean {
  if (w === label) return true;
  // by the longer spelling: "stephen" (7) for "steven" (6) is two edits, a common variant of one name
  const tolerance = typoEdits(Math.max(label.length, w.length));
  return tolerance > 0 && distance(w, label) <= tolerance;
}

const soundIndexes = new WeakMap<Iterable<string>, Map<string, string[]>>();

/** Words by their Double Metaphone codes, built once per word list (misheardAs, NearGraph.soundFor: the same known words). */
function soundIndex(words: Iterable<string>): Map<string, string[]> {
  return getOrAdd(soundIndexes, words, () => {
    const byCode = new Map<string, string[]>();
    for (const k of words) for (const c of soundCodes(k)) pushTo(byCode, c, k);
    return byCode;
  });
}

/**
 * The known word a question word may be a mishearing of (core soundsAlike: a Double Metaphone code in common, at most
 * two edits): a speech recogniser's "rider" for "writer", "white" for "what". Undefined: none.
 */
export function misheardAs(w: string, known: KnownWords): string | undefined {
  const index = soundIndex(known);
  for (const c of soundCodes(w)) for (const k of index.get(c) ?? []) if (soundsAlike(w, k)) return k;
  return undefined;
}

/** How many of GloVe's most frequent words a word nothing of the graph is near may be heard again as (NearGraph.nearSoundFor). */
export const HEARD_AGAIN_WORDS = 30000;

const commonWordLists = new WeakMap<WordVectors, string[]>();

/** How many times as often as the word heard the parser's questions must use the word it is heard again as (heardAgainAs). */
export const REHEAR_RATIO = 10;

/**
 * The word a question word is heard again as (context.ts reheard): the known word that sounds like it (core
 * soundsAlike, or a two-letter word heard as three: twoLetterHomophone) that the parser's training questions use most,
 * if they use it at least REHEAR_RATIO times as often as the word itself — a speech recogniser's "they" for "the",
 * "white" for "what". The word heard is a word of the language, often one of the parser's or of a label, so only the
 * question's refusal (or the parser's failure to read it) says it may be misheard. Undefined: none, or a word list
 * without counts.
 */
export function heardAgainAs(w: string, known: KnownWords): string | undefined {
  if (!(known instanceof CountedWords)) return undefined;
  const index = soundIndex(known);
  let best: { k: string; n: number } | undefined;
  for (const c of soundCodes(w)) {
    for (const k of index.get(c) ?? []) {
      const n = known.count(k);
      if ((!best || n > best.n) && (soundsAlike(w, k) || twoLetterHomophone(w, k))) best = { k, n };
    }
  }
  return best && best.n >= REHEAR_RATIO * Math.max(1, known.count(w)) ? best.k : undefined;
}

/**
 * A word of three letters heard for one of two, a letter off and with a Double Metaphone code in common: "buy" for
 * "by", "too" for "to", "inn" for "in". (core soundsAlike reads no word under three letters: too many sound alike.)
 */
function twoLetterHomophone(heard: string, word: string): boolean {
  if (heard.length !== 3 || word.length !== 2 || distance(heard, word) > 1) return false;
  const codes = soundCodes(word);
  return soundCodes(heard).some((c) => c !== '' && codes.includes(c));
}

/** Words shorter than this are read as no typo (short words are near each other: "tall" is one edit from "tell"). */
export const TYPO_LETTERS = 6;

/**
 * The known word of 6+ letters a word is a typo of (one letter more or less, within core typoEdits, two neighbouring
 * letters swapped counting as one edit; the fewest edits), if any.
 */
function typoOf(w: string, known: Iterable<string>): string | undefined {
  if (w.length < TYPO_LETTERS) return undefined;
  let best: { k: string; d: number } | undefined;
  for (const k of known) {
    if (Math.abs(k.length - w.length) > 1 || k.length < TYPO_LETTERS) continue;
    // (two neighbouring letters swapped are one slip: "spuose" is a typo of "spouse")
    const d = swappedLetters(k, w) ? 1 : distance(k, w);
    if (d <= typoEdits(Math.max(k.length, w.length)) && (!best || d < best.d)) best = { k, d };
    if (best?.d === 1) break; // (no other word is nearer: the word itself is not among them)
  }
  return best?.k;
}

/** A reason a person understands, for the no-answer. */
export function unexplainedReason(words: readonly string[]): string {
  const quoted = words.slice(0, 3).map((w) => `"${w}"`).join(', ');
  return `this graph has nothing askgraph can match to ${quoted}: no relation or question of this kind was learned for it`;
}

/** The reason for names the graph lacks, with the labels it has near them ("did you mean …"). */
export function namedNothingReason(names: readonly string[], near: readonly string[]): string {
  const quoted = names.slice(0, 3).map((n) => `"${n}"`).join(' or ');
  return `nothing in the graph is named ${quoted}${near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(', ')}?` : ''}`;
}

/**
 * How near a question word must come to something of the graph (wordNearness's scale: WordNet links 0.4–0.9, GloVe
 * cosine relative to hubness) not to be "nothing in this graph is near". Chosen by scripts/choose-near-threshold.ts on
 * the movies pack's held-out training words (in scope) against words of other graphs' relations and questions
 * (PathQuestion, WC2014, restaurants: out of scope) — never on a dev set.
 */
export const NEAR_THRESHOLD = 0.65;

/** How many of the most frequent English words are too general to be near (NearGraph). */
export const GENERIC_WORDS = 1000;

/** What a graph has that question words may be near: its parser's words, its relations (names and labels). */
export interface GraphVocabulary {
  /** Words of the parser's training questions and the lexicon (lower case). */
  words: Iterable<string>;
  /** The graph's relations (their words count as vocabulary; the closest one is named in the reason). */
  relations: readonly RelationInfo[];
  /** Relation labels by IRI. */
  labels?: Map<string, string>;
  /** The name the parser writes for a relation IRI (default: its local name). */
  nameOf?: (iri: string) => string | undefined;
}

/** A word reads clearly as a relation when its best reading scores at least this … */
export const CLEAR_READING = 0.55;
/** … and this much above the next relation's (checks.ts wordNotRead). */
export const CLEAR_MARGIN = 0.15;

/** The relation a word clearly reads as: the name the parser writes, the reading in words with its score, its IRI. */
export interface ClearReading {
  name: string;
  note: string;
  iri?: string;
}

/** A question word with nothing near it in the graph: its nearest word, that word's score, and the graph's closest relation. */
export interface FarWord {
  word: string;
  score: number;
  nearest?: string;
  /** The relation (in words) that reads the word best (relations.ts rankPhrase): "release year". */
  closest?: string;
}

/**
 * "Is anything of this graph near this word?" — the word's nearest vocabulary word by WordNet (the word's own links:
 * synonyms, derivations, attributes, hypernyms; both ways for the relations' words) and GloVe (relative cosine).
 * A word whose nearest score is below the threshold is far: the question asks about something the graph lacks.
 */
export class NearGraph {
  private readonly vocab: string[];
  private readonly vocabSet: ReadonlySet<string>;
  private lemmas: Map<string, string[]> | undefined;
  private readonly specific: ReadonlySet<string>;
  private readonly relationWordSet: Set<string>;
  private readonly cache = new Map<string, { word?: string; score: number }>();
  /** clearRelation's readings by word (null: none clearly): every judged reading and each repair asks again. */
  private readonly clear = new Map<string, (ClearReading & { iri: string }) | null>();

  constructor(
    private readonly graph: GraphVocabulary,
    readonly threshold = NEAR_THRESHOLD,
    private readonly vectors: WordVectors = wordVectors(),
  ) {
    this.relationWordSet = new Set(
      graph.relations.flatMap((r) => [r.name, graph.labels?.get(r.iri)].filter((t): t is string => !!t).flatMap((t) => relationWords(t).split(' '))).filter((w) => w.length > 1 && !isStopword(w)),
    );
    const words = new Set<string>(this.relationWordSet);
    for (const w of graph.words) if (/^\p{L}{2,}$/u.test(w) && !isStopword(w)) words.add(w.toLowerCase());
    this.vocabSet = words;
    // being near a word used everywhere ("part", "one", "people") by word vectors says nothing: the most frequent
    // English words (GloVe's first GENERIC_WORDS) are no targets of vector nearness, unless a relation's name has them
    // (only words with a vector, as spelt: the parser's words hold typos, which are near nothing)
    this.vocab = [...words].filter((w) => vectors.rank(w) !== undefined);
    this.specific = new Set(this.vocab.filter((w) => this.relationWordSet.has(w) || (vectors.rank(w) ?? 0) >= GENERIC_WORDS));
  }

  /** The vocabulary word nearest to `word`, with its score (1: the word itself or a plural of it). */
  nearest(word: string): { word?: string; score: number } {
    const w = word.toLowerCase();
    const hit = this.cache.get(w);
    if (hit) return hit;
    let best: { word?: string; score: number } = { score: 0 };
    const set = this.vocabSet;
    if (set.has(w) || [...singularForms(w)].some((x) => set.has(x))) best = { word: w, score: 1 };
    else {
      // a word of no dictionary that is a typo of a word of the graph is that word ("foootball"), as it is a known word
      // to the closed vocabulary (unexplainedWords)
      const typo = this.isNoWord(w) ? typoOf(w, set) : undefined;
      best = typo !== undefined ? { word: typo, score: 1 } : this.byMeaning(w);
    }
    if (this.cache.size > 5000) this.cache.clear();
    this.cache.set(w, best);
    return best;
  }

  /** A word of no dictionary: WordNet has no base form of it and GloVe no vector ("foootball"). */
  private isNoWord(w: string): boolean {
    return this.vectors.rank(w) === undefined && !inDictionary(w);
  }

  /**
   * The word a question word is a typo of, to read the question as meant: a word of no dictionary (no WordNet base form,
   * no GloVe vector) within core typoEdits of a vocabulary word that is a word of the language (has a vector: the
   * parser's words hold typos too) — "foootball" → "football". A shorter word of four or five letters is a typo only
   * of the one vocabulary word one edit from it, or of the one such word that keeps its first letter ("natin" →
   * "nation", not "latin"; short words have many neighbours, so two left are no reading). Undefined: the word is a
   * word, or a typo of none.
   */
  typoFor(word: string): string | undefined {
    const w = word.toLowerCase();
    if (this.vocabSet.has(w) || !this.isNoWord(w)) return undefined;
    if (w.length >= TYPO_LETTERS) return typoOf(w, this.vocab);
    if (w.length < 4) return undefined;
    const near = this.vocab.filter((k) => k.length >= 4 && Math.abs(k.length - w.length) <= 1 && (swappedLetters(k, w) || distance(k, w) === 1));
    // (of several, the one that keeps the first letter: a typist seldom gets the first letter wrong)
    const kept = near.length > 1 ? near.filter((k) => k.startsWith(w.charAt(0))) : near;
    return kept.length === 1 ? kept[0] : undefined;
  }

  /**
   * The word a question word may be a mishearing of, to read the question as meant: a word of the language that is no
   * word of the vocabulary (nor a plural of one) and reads as no relation clearly (as unexplainedWords counts such a
   * word as known: "mom" is parents, not a mishearing of "mam") and sounds like (core soundsAlike) a word of the
   * vocabulary or of the parser's questions that is a word of the language and says a relation of the graph (a word
   * of its names, or one that reads as a relation clearly) or is a function word ("howe" → "how") — "prints" →
   * "parents", "jeb" → "job". The fewest edits first, then the more frequent word (GloVe's order). Undefined: sounds
   * like none.
   */
  soundFor(word: string): string | undefined {
    const w = word.toLowerCase();
    if ([w, ...singularForms(w)].some((x) => this.vocabSet.has(x)) || this.isNoWord(w)) return undefined;
    // the parser's words (the sound index misheardAs reads too) and the relations' words, that are words of the language
    const alike = new Set<string>();
    for (const list of [this.graph.words, this.relationWordSet]) {
      for (const c of soundCodes(w)) {
        for (const k of soundIndex(list).get(c) ?? []) {
          const v = k.toLowerCase();
          if (/^\p{L}{2,}$/u.test(v) && this.vectors.rank(v) !== undefined && soundsAlike(w, v)) alike.add(v);
        }
      }
    }
    // (the word-by-relation readings last: most words sound like nothing the parser knows)
    if (alike.size === 0 || this.clearRelation(w)) return undefined;
    let best: { k: string; d: number; rank: number } | undefined;
    for (const k of alike) {
      // (a word that says a relation of the graph or a function word: the parser reads those; a name — "aaron" for
      // "earn" — is grounding's business)
      if (!(isStopword(k) || this.relationWordSet.has(k) || this.clearRelation(k))) continue;
      const d = distance(w, k);
      const rank = this.vectors.rank(k) ?? Infinity;
      if (!best || d < best.d || (d === best.d && rank < best.rank)) best = { k, d, rank };
    }
    return best?.k;
  }

  /**
   * The word of the language a word nothing of the graph is near may be a mishearing of, for a question heard again
   * (context.ts reheard): one of GloVe's HEARD_AGAIN_WORDS most frequent words that sounds like it (core soundsAlike)
   * and that the graph has something near (not `far`) — "darlene" heard for "darling" where the graph has spouses. The
   * fewest edits first, then the more frequent word. Undefined: the word is no word of the language, something of the
   * graph is near it, or near none of its sound-alikes.
   */
  nearSoundFor(word: string): string | undefined {
    const w = word.toLowerCase();
    if (this.vectors.rank(w) === undefined || this.isNear(w)) return undefined;
    const common = getOrAdd(commonWordLists, this.vectors, () => this.vectors.words.slice(0, HEARD_AGAIN_WORDS).filter((k) => /^\p{L}{3,}$/u.test(k)));
    const alike = new Set<string>();
    for (const c of soundCodes(w)) for (const k of soundIndex(common).get(c) ?? []) if (soundsAlike(w, k)) alike.add(k);
    const ranked = [...alike].map((k) => ({ k, d: distance(w, k), rank: this.vectors.rank(k) ?? Infinity })).sort((a, b) => a.d - b.d || a.rank - b.rank);
    return ranked.find((c) => this.isNear(c.k))?.k;
  }

  /** The vocabulary word nearest to `word` by its meaning (WordNet, GloVe), with its score. */
  private byMeaning(w: string): { word?: string; score: number } {
    let best: { word?: string; score: number } = { score: 0 };
    // WordNet's synonyms, derivations and attributes (a hypernym is too weak a link: "population" is "people")
    const related = relatedWords(w);
    this.lemmas ??= new Map(this.vocab.map((v) => [v, [v, ...new Set((['n', 'v', 'a'] as const).flatMap((p) => wordNet().baseForms(v, p)))]]));
    for (const v of this.vocab) {
      // the vocabulary word or one of its base forms ("created" → "create")
      let link: WnLink | undefined;
      for (const l of this.lemmas.get(v) ?? [v]) {
        const x = related.get(l);
        if (x && (!link || linkScore(x.kind, x.steps) > linkScore(link.kind, link.steps))) link = x;
      }
      const s = Math.max(link && link.kind !== 'hypernym' ? linkScore(link.kind, link.steps) : 0, this.specific.has(v) ? (this.vectors.relativeCosine(w, v) ?? 0) : 0);
      if (s > best.score) best = { word: v, score: s };
    }
    for (const r of this.relationWordSet) {
      const l = wordnetLink(w, r);
      if (l && l.link !== 'hypernym' && l.score > best.score) best = { word: r, score: l.score };
    }
    return best;
  }

  /** The relation a word clearly reads as (CLEAR_READING, CLEAR_MARGIN), by the parser's name, with the reading in words. */
  clearRelation(word: string): (ClearReading & { iri: string }) | undefined {
    const hit = this.clear.get(word);
    if (hit !== undefined) return hit ?? undefined;
    const reading = this.clearAmong(word, this.graph.relations) ?? null;
    if (this.clear.size > 5000) this.clear.clear();
    this.clear.set(word, reading);
    return reading ?? undefined;
  }

  /** The relation of these a word clearly reads as: clearRelation's rule (CLEAR_READING, CLEAR_MARGIN) on another list. */
  clearAmong(word: string, relations: readonly RelationInfo[]): (ClearReading & { iri: string }) | undefined {
    const ranked = rankPhrase(word, relations, this.graph.labels ? { labels: this.graph.labels } : {});
    const top = ranked[0];
    const clear = top && top.score >= CLEAR_READING && top.score - (ranked[1]?.score ?? 0) >= CLEAR_MARGIN ? top : undefined;
    return clear ? { name: this.graph.nameOf?.(clear.iri) ?? clear.name, iri: clear.iri, note: `${relationWords(this.graph.labels?.get(clear.iri) ?? clear.name)} (${clear.score.toFixed(2)})` } : undefined;
  }

  /** Whether something of the graph is near the word: its nearest word at the threshold, or a relation it reads as clearly. */
  private isNear(word: string): boolean {
    return this.nearest(word).score >= this.threshold || this.clearRelation(word) !== undefined;
  }

  /**
   * The words with nothing near them (nearest score below the threshold, and no relation they read as clearly:
   * "mom" is a kind of parent, WordNet's hypernym, too weak a link alone), each with the graph's closest relation.
   */
  far(words: readonly string[]): FarWord[] {
    const out: FarWord[] = [];
    for (const word of words) {
      if (this.isNear(word)) continue;
      const n = this.nearest(word);
      const top = this.graph.relations.length > 0 ? rankPhrase(word, this.graph.relations, this.graph.labels ? { labels: this.graph.labels } : {})[0] : undefined;
      const closest = top ? relationWords(this.graph.labels?.get(top.iri) ?? top.name) : undefined;
      out.push({ word, score: n.score, ...(n.word ? { nearest: n.word } : {}), ...(closest ? { closest } : {}) });
    }
    return out;
  }
}

/** The reason for words nothing in the graph is near: "nothing in this graph is near "born"; closest: release year". */
export function nothingNearReason(far: readonly FarWord[]): string {
  const quoted = far.slice(0, 3).map((f) => `"${f.word}"`).join(', ');
  const closest = far[0]?.closest;
  return `nothing in this graph is near ${quoted}${closest ? `; closest: ${closest}` : ''}`;
}
