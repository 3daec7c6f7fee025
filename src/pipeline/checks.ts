/**
 * Named checks that judge a reading of the question (a grounded beam form with answers) before it may be the
 * answer. Each is `(reading, context) → Verdict`: a pass, or a set-aside with a reason code and a reason in
 * words. The gateway's judge runs weakTitle first and unusedWords last and writes each failing verdict into
 * the trace row of the reading (`check: {name, code}`); the no-answer reason is read off those rows
 * (noAnswerReason), so the two cannot disagree. Listed in src/pipeline/README.md.
 *
 * The word classes come from the lexical resources of src/core: the stop list (text.ts), WordNet's
 * lexicographer files (wordnet.ts: a word with an adj.all / adv.all sense is a common adjective or adverb —
 * "best", "more", "big"; "French" is adj.pert and is not) and compromise's closed classes (morph.ts: "her",
 * "us"). No word of any graph is written here.
 */
import { getOrAdd, isFunctionWord, isStopword, isSuperlative, labelTokens, letterWords, normalizeLabel, relationWords, singularForms, stem, wordNet, type Answer, type AnswerType, type Form, type Relation, type TraceEntry } from '../core';
import { namedNothingReason, nothingNearReason, substitutedWords, unexplainedReason, unexplainedWords, wordsOf, type ClearReading, type FarWord, type KnownWords } from './abstain';
import type { ExpectedAnswer } from './wording';
import type { AskedKind } from './kinds';
import { children, classRefs, printForm, printRelation, relationRefs } from '../form';
import { calibratedProbability, type Calibration, type Signals } from './calibration';

/** One entity mention of a reading: the words the parser copied and the graph label it grounded to. */
export interface ReadingMention {
  text: string;
  /** The label of the entity it grounded to (undefined: a mention compiled as a label match). */
  label?: string;
  /** How the mention matched the label ('exact' when absent in the attempt). */
  match: 'exact' | 'inflected' | 'partial' | 'fuzzy';
}

/** A reading to judge: the parser's form as text and its mentions as grounded. */
export interface Reading {
  /** The parser's beam form (mentions as copied). */
  form: string;
  mentions: readonly ReadingMention[];
  /** The form parsed: the beam form (ownValueMissing), or the grounded form where it is judged before it runs (rankable). */
  tree?: Form;
  /** Whether an entity of the reading never takes its relation (probes.ts vacuousJoin). */
  vacuous?: boolean;
  /** The answer shape of the grounded form (answerShape). */
  answerType?: AnswerType;
  /** Its calibration signals (tooUncertain). */
  signals?: Signals;
  /** The relation IRIs its grounded form uses (grounding may read a name the graph lacks as one it has). */
  relationIris?: readonly string[];
  /** The grounded form that ran (IRIs): what the reading's answers are (wrongKind). */
  grounded?: Form;
}

export interface CheckContext {
  question: string;
  /** The parser's other readings: their beam forms and the mentions they copy. */
  beam: readonly { form: string; mentions: readonly string[] }[];
  /** Whether a word is a word of some graph label (a name the graph has); undefined: unknown. */
  graphWord?: (word: string) => boolean;
  /** Words of the graph's relation names and the pack's non-topic words: never content left unused. */
  relationWord?: (word: string) => boolean;
  /** Words of the parser's training questions (abstain.ts); undefined or empty: unexplainedMentionWords passes. */
  knownWords?: KnownWords;
  /**
   * The words of those given that nothing of the graph is near (abstain.ts NearGraph.far); undefined: every word
   * the parser was never shown counts as far (the closed-vocabulary rule, UNEXPLAINED_WORDS).
   */
  farWords?: (words: string[]) => FarWord[];
  /**
   * The relation (the name the parser writes) a word clearly reads as (relations.ts rankPhrase: score ≥
   * CLEAR_READING, CLEAR_MARGIN above the next), with that reading in words; undefined: none clearly.
   */
  clearRelation?: (word: string) => ClearReading | undefined;
  /** Labels of the graph near names it lacks ("did you mean …"). */
  near?: (names: string[]) => string[];
  /**
   * On a graph without classes, the kind the question asks for, read outside these mentions (kinds.ts askedKind:
   * "which country …" — the values of the relations whose names end in country); undefined: wrongKind passes.
   */
  askedKind?: (mentions: readonly string[]) => AskedKind | undefined;
  /** Whether anything of the graph gives places (kinds.ts givesPlaces); undefined: placeAsked passes. */
  givesPlaces?: () => boolean;
  /** The parser's calibration (calibration.ts); undefined: tooUncertain passes. */
  calibration?: Calibration;
  /** The answer shape the question's wording asks for (abstain.ts expectedAnswer). */
  expected?: ExpectedAnswer;
  /** Whether the wording can ask yes or no (abstain.ts yesNoWording); undefined: it can. */
  yesNo?: boolean;
  /** Spans outside the reading's mentions that name a condition on the class the question asks for (typed.ts linkedNames). */
  linkedNames?: readonly string[];
}

export type CheckCode = 'WEAK_TITLE' | 'UNUSED_WORDS' | 'RELATION_UNUSED' | 'NO_OWN_VALUES' | 'UNEXPLAINED_WORDS' | 'NAMED_NOTHING' | 'NOTHING_NEAR' | 'WORD_NOT_READ' | 'TOO_UNCERTAIN' | 'WRONG_SHAPE' | 'NOT_YES_NO' | 'UNRANKABLE' | 'WRONG_CLASS' | 'WRONG_KIND' | 'NO_PLACES' | 'NOTHING_ASKED';

export interface Verdict {
  /** The check's name (its export here). */
  check: string;
  pass: boolean;
  code?: CheckCode;
  /** Why, in words a person understands (the no-answer reason when no other reading passes). */
  reason?: string;
  /** The question words the verdict is about. */
  words?: string[];
  /** wordNotRead: the relation the word reads as, when the reading does not use it (undefined: the word reads as none). */
  relation?: string;
  /** wrongKind: the relations (the names the parser writes) whose values the question asks for. */
  relations?: readonly string[];
  /** tooUncertain: the calibrated confidence it judged. */
  confidence?: number;
}

export type Check = (reading: Reading, ctx: CheckContext) => Verdict;

const weakCache = new Map<string, boolean>();

/**
 * A word that is no name by itself: a function word (the stop list, or a pronoun / determiner / preposition /
 * conjunction for compromise), or a common adjective or adverb (a WordNet sense in adj.all, adj.ppl or adv.all).
 * Digits are values, not weak words.
 */
export function isWeakWord(word: string): boolean {
  const w = word.toLowerCase();
  if (/^\p{N}+$/u.test(w)) return false;
  let weak = weakCache.get(w);
  if (weak === undefined) {
    const wn = wordNet();
    weak =
      isStopword(w) ||
      isFunctionWord(w) ||
      [...wn.senses(w, 'a'), ...wn.senses(w, 'r')].some((s) => s.lexFile === 'adj.all' || s.lexFile === 'adj.ppl' || s.lexFile === 'adv.all');
    if (weakCache.size > 10000) weakCache.clear();
    weakCache.set(w, weak);
  }
  return weak;
}

/** Whether the question writes `text` as a name: the label's own spelling (case kept), capitalised past the first word, or quoted. */
function writtenAsName(question: string, text: string, label: string | undefined): boolean {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (label && new RegExp(`(^|[^\\p{L}\\p{N}])${esc(label)}($|[^\\p{L}\\p{N}])`, 'u').test(question)) return true;
  const at = question.toLowerCase().indexOf(text.toLowerCase());
  if (at < 0) return false;
  const surface = question.slice(at, at + text.length);
  if (/["“'‘]\s*$/.test(question.slice(0, at)) && /^\s*["”'’]/.test(question.slice(at + text.length))) return true;
  const firstWordOfQuestion = question.slice(0, at).trim() === '';
  const content = surface.split(/\s+/).filter((w) => !isStopword(w.toLowerCase()));
  return !firstWordOfQuestion && content.length > 0 && content.every((w) => /^\p{Lu}/u.test(w));
}

/**
 * WEAK_TITLE: a mention whose evidence for its entity is only function words and common adjectives ("the best"
 * read as the film "The Best Man", "more" in "more than 40 films" read as the film "More") needs more evidence
 * than a name: it must spell the label (not a fuzzy match) and the question must write it as a name (the label's
 * own spelling, capitals, or quotes). For a fuzzy match the evidence is the mention's words the label shares.
 */
export const weakTitle: Check = (reading, ctx) => {
  for (const m of reading.mentions) {
    if (!m.label) continue;
    const words = labelTokens(m.text);
    // numbers are values: whether the reading keeps them is unusedWords' business
    if (words.some((w) => /^\p{N}+$/u.test(w))) continue;
    const labelWords = new Set(labelTokens(m.label).map(stem));
    // a fuzzy match rests on the words it shares with the label; one that shares none (typos: "Jurrasic Parc") on its own words
    const shared = m.match === 'fuzzy' ? words.filter((w) => labelWords.has(stem(w))) : [];
    const evidence = shared.length > 0 ? shared : words;
    if (words.length === 0 || !evidence.every(isWeakWord)) continue;
    if (m.match !== 'fuzzy' && writtenAsName(ctx.question, m.text, m.label)) continue;
    const how = m.match === 'fuzzy' ? 'resembles' : m.match === 'partial' ? 'is part of' : 'spells';
    return {
      check: 'weakTitle',
      pass: false,
      code: 'WEAK_TITLE',
      words: [m.text],
      reason: `"${m.text}" ${how} the name "${m.label}" only by common words; the question does not write it as that name`,
    };
  }
  return { check: 'weakTitle', pass: true };
};

/** The numbers of a text ("2015", "8.7"). */
export function numbersOf(text: string): string[] {
  return text.match(/(?<![\p{L}\p{N}.])\p{N}+(?:\.\p{N}+)?(?![\p{L}\p{N}])/gu) ?? [];
}

/**
 * UNUSED_WORDS: a part of the question the reading drops. A number of the question that the form does not
 * contain ("after 2015" read with 2020), a word the parser copies into a mention of another of its readings but
 * not into any of this one's ("how many X films are documentaries" read as all of X's films), or a name of the
 * graph (capitalised, a word of some label) outside every mention of this reading ("Spielberg and Lucas" read as
 * Spielberg alone), or, on a graph with classes, the name of a condition on the class the question asks for in any
 * case (`linkedNames`: "how many pottery shops …" read as all the shops), or a superlative no ranking, aggregate or
 * comparison of the reading reads ("the oldest shop in X" read as all of them). A reading that uses the word should win;
 * if none does, the answer says what it left out.
 */
export const unusedWords: Check = (reading, ctx) => {
  const used = new Set(reading.mentions.flatMap((m) => labelTokens(m.text)));
  // the numbers the reading asks about: outside its mentions, and those of the labels its mentions grounded to
  let bare = reading.form;
  for (const m of reading.mentions) bare = bare.split(`[ ${m.text} ]`).join(' ');
  const formNumbers = new Set([...numbersOf(bare), ...reading.mentions.flatMap((m) => numbersOf(m.label ?? m.text))]);
  const out: string[] = [];
  const readAs: string[] = [];
  for (const n of numbersOf(ctx.question)) {
    if (formNumbers.has(n) || out.includes(n)) continue;
    out.push(n);
    const m = reading.mentions.find((x) => numbersOf(x.text).includes(n) && x.label);
    if (m) readAs.push(`"${n}" is read as "${m.label}"`);
  }
  // (a word that reads clearly as a relation the reading uses is used: "wife" in a reading with the spouse hop)
  // (and a word the reading writes as a class name: "restaurants" in a reading of the class Restaurant)
  // (and a superlative in a reading that ranks: "oldest" in (ARGMIN … founded))
  const classWord = classWordsOf(reading);
  const ranked = reading.tree !== undefined && ranks(reading.tree);
  const content = (w: string) => !used.has(w) && !isStopword(w) && !(ctx.relationWord?.(w) ?? false) && !out.includes(w) && !readsAsUsedRelation(reading, ctx, w) && !classWord(w) && !(ranked && isSuperlative(w));
  const elsewhere = new Set(ctx.beam.filter((b) => b.form !== reading.form).flatMap((b) => b.mentions.flatMap(labelTokens)));
  for (const w of labelTokens(ctx.question)) if (elsewhere.has(w) && !isWeakWord(w) && content(w)) out.push(w);
  // names of the graph: written with a capital past the first word of the question
  const surface = ctx.question.split(/[^\p{L}\p{N}'’]+/u).filter(Boolean);
  for (const word of surface.slice(1)) {
    const w = normalizeLabel(word);
    if (/^\p{Lu}/u.test(word) && w && content(w) && !isWeakWord(w) && (ctx.graphWord?.(w) ?? false)) out.push(w);
  }
  // names of a condition on the class the question asks for, written in any case ("how many pottery shops …")
  for (const span of ctx.linkedNames ?? []) for (const w of labelTokens(span)) if (content(w) && !isWeakWord(w)) out.push(w);
  // a superlative ("the oldest …", "the most …") read by no ranking, aggregate or comparison of the reading
  if (reading.tree && !ranked) for (const w of labelTokens(ctx.question)) if (!used.has(w) && !out.includes(w) && isSuperlative(w)) out.push(w);
  if (out.length === 0) return { check: 'unusedWords', pass: true };
  return {
    check: 'unusedWords',
    pass: false,
    code: 'UNUSED_WORDS',
    words: out,
    reason: `the reading ${reading.form} leaves out ${out.map((w) => `"${w}"`).join(', ')} of the question${readAs.length ? ` (${readAs.join(', ')})` : ''}`,
  };
};

/** The kinds of form that read a superlative: a ranking, an aggregate, an order or a window, a comparison. */
const RANKING = new Set<Form['kind']>(['arg', 'aggregate', 'order', 'slice', 'group', 'having', 'compare', 'attrcompare', 'more']);

/** Whether a form ranks, aggregates or compares anywhere in it (what a superlative of the question asks for). */
function ranks(form: Form): boolean {
  return RANKING.has(form.kind) || children(form).some(ranks);
}

/** The words of names of the graph (typed.ts linkedNames' spans): never words the graph lacks. */
export function wordsOfNames(names: readonly string[]): Set<string> {
  return new Set(names.flatMap((n) => labelTokens(n)));
}

/** A question word and the relation (the name the parser writes) it clearly reads as. */
export interface RelationWord {
  word: string;
  relation: string;
  /** The reading in words, with its score ("spouse (0.92)"). */
  note: string;
  /** The relation's IRI, when the reading knows it. */
  iri?: string;
  /** How many separate phrases of the question name the relation ("X's father's father": 2); at least 1. */
  times: number;
}

/**
 * The question (lower case) cut at its mentions, longest mention first: the pieces between them, in order — a mention
 * ends a phrase (relationPhrases, typed.ts askedClass).
 */
export function questionParts(question: string, mentions: readonly string[]): string[] {
  let parts = [question.toLowerCase()];
  for (const m of [...mentions].sort((a, b) => b.length - a.length)) {
    const t = m.trim().toLowerCase();
    if (t) parts = parts.flatMap((p) => p.split(t));
  }
  return parts;
}

/**
 * How many separate phrases of the question, outside the mentions, name each relation: each word that reads clearly as
 * it (`clearRelation`) is one, except that different words next to each other ("football club") or of the relation's
 * own name in one run (only function words between: "cause of death", "birth place") are one phrase. A word repeated or a synonym of the whole relation is a
 * hop of its own: "X's father's father", "the son of the daughter of X" name one relation twice. A mention or a word
 * of no relation ends the run.
 */
export function relationPhrases(question: string, mentions: readonly { text: string }[], clearRelation: (word: string) => ClearReading | undefined): Map<string, number> {
  const parts = questionParts(question, mentions.map((m) => m.text));
  const names = new Map<string, Set<string>>();
  const nameWords = (name: string) => getOrAdd(names, name, () => new Set(relationWords(name).split(' ').map(stem)));
  const counts = new Map<string, number>();
  for (const part of parts) {
    // the phrase being read: its relation, and its words (all of the relation's name, or it takes no more)
    let run: { relation: string; words: Set<string>; named: boolean; at: number } | undefined;
    wordsOf(part).forEach((w, at) => {
      if (isStopword(w) || isWeakWord(w)) return;
      const r = clearRelation(w)?.name;
      const word = stem(w);
      const named = r !== undefined && nameWords(r).has(word);
      // one noun phrase ("football club": next to each other), or the relation's name spelt out ("cause of death")
      if (r !== undefined && run?.relation === r && !run.words.has(word) && (run.at === at - 1 || (run.named && named))) {
        run.words.add(word);
        run.at = at;
        return;
      }
      if (r !== undefined) counts.set(r, (counts.get(r) ?? 0) + 1);
      run = r === undefined ? undefined : { relation: r, words: new Set([word]), named, at };
    });
  }
  return counts;
}

/**
 * The question's words outside the given mentions (a mention word its label does not spell counts as outside:
 * abstain.ts unexplainedWords) that read clearly as one relation of the graph (`clearRelation`); function words
 * and common adjectives never do. One word per relation, in the question's order.
 */
export function relationWordsOf(question: string, mentions: readonly { text: string; label?: string }[], clearRelation: (word: string) => ClearReading | undefined): RelationWord[] {
  const out: RelationWord[] = [];
  let phrases: Map<string, number> | undefined;
  for (const word of unexplainedWords(question, mentions, new Set<string>())) {
    if (isStopword(word) || isWeakWord(word)) continue;
    const r = clearRelation(word);
    if (!r || out.some((x) => x.relation === r.name)) continue;
    phrases ??= relationPhrases(question, mentions, clearRelation);
    out.push({ word, relation: r.name, note: r.note, ...(r.iri ? { iri: r.iri } : {}), times: Math.max(1, phrases.get(r.name) ?? 1) });
  }
  return out;
}

/**
 * How many times a form uses a relation of this name (the name the parser writes), in either direction, along one
 * path from its answer to an entity: the hops of a chain, not the two sides of a conjunction ((AND A A) is one use).
 */
export function timesUsed(form: Form, name: string): number {
  const count = (f: Form) => relationRefs(f).filter((r) => r.kind === 'name' && r.name === name).length;
  const kids = children(form);
  const own = count(form) - kids.reduce((n, k) => n + count(k), 0);
  return own + Math.max(0, ...kids.map((k) => timesUsed(k, name)));
}

/** Whether a form uses a relation word's relation as many times as the question names it. */
export function usesFully(form: Form, w: RelationWord): boolean {
  return timesUsed(form, w.relation) >= w.times;
}

/**
 * Whether a reading uses a relation: by the name the parser wrote, or by the relation grounding read a name the graph
 * lacks as ("director" → directed_by: Reading.relationIris).
 */
function readingUses(reading: Reading, name: string, iri: string | undefined, times = 1): boolean {
  const byName = reading.tree ? timesUsed(reading.tree, name) : 0;
  const byIri = iri === undefined ? 0 : (reading.relationIris ?? []).filter((x) => x === iri).length;
  return byName + byIri >= times;
}

/** Whether a word reads clearly as a relation the reading uses. */
function readsAsUsedRelation(reading: Reading, ctx: CheckContext, w: string): boolean {
  const r = reading.tree ? ctx.clearRelation?.(w) : undefined;
  return r !== undefined && readingUses(reading, r.name, r.iri);
}

/** Whether a word is one the reading writes as a class name, or its plural ("suppliers" for the class Supplier). */
function classWordsOf(reading: Reading): (word: string) => boolean {
  const names = new Set(reading.tree ? classRefs(reading.tree).flatMap((r) => (r.kind === 'name' ? relationWords(r.name).split(' ') : [])) : []);
  return (w) => names.size > 0 && (names.has(w) || [...singularForms(w)].some((s) => names.has(s)));
}

/**
 * RELATION_UNUSED: a question word outside the reading's names reads clearly as one relation of the graph
 * (`clearRelation`: relations.ts rankPhrase, WordNet and GloVe) and the reading does not use that relation — "the
 * nationality of X's spouse" read as X's nationality drops "spouse". Like unusedWords, a reading that uses it should
 * win (repair.ts adds readings with the hop); if none answers, this one answers and says what it left out.
 */
export const relationUnused: Check = (reading, ctx) => {
  if (!ctx.clearRelation || !reading.tree) return { check: 'relationUnused', pass: true };
  // a word the reading writes as a class name is read as that class ("writer" → the class Author; "suppliers" → the
  // class Supplier), not left out
  const classWord = classWordsOf(reading);
  const words = relationWordsOf(ctx.question, reading.mentions.map((m) => ({ text: m.text, label: m.label ?? m.text })), ctx.clearRelation);
  const unused = words.filter((r) => !readingUses(reading, r.relation, r.iri, r.times) && !classWord(r.word));
  if (unused.length === 0) return { check: 'relationUnused', pass: true };
  // a relation the question names in two phrases and the reading uses once leaves one of them out
  const named = (r: RelationWord) => (r.times > 1 && readingUses(reading, r.relation, r.iri) ? `, named ${r.times} times, used fewer` : '');
  return {
    check: 'relationUnused',
    pass: false,
    code: 'RELATION_UNUSED',
    words: unused.map((r) => r.word),
    relation: unused.map((r) => r.relation).join(', '),
    reason: `the reading ${reading.form} leaves out ${unused.map((r) => `"${r.word}" (read as ${r.note}${named(r)})`).join(', ')}`,
  };
};

/**
 * The relations whose values a grounded form's answers are (the names the parser writes for them): (JOIN (R r) X)
 * gives r's values, a conjunction what both sides give; undefined where the form says nothing of it — a forward join
 * (its answers are subjects, which a name does not say the kind of), a class, a count — or uses a relation none of the
 * graph's (`nameOf` undefined).
 */
function valuesOf(form: Form, nameOf: (iri: string) => string | undefined): string[] | undefined {
  if (form.kind === 'join') {
    const r = form.relation;
    const name = r.kind === 'reverse' && r.of.kind === 'rel' && r.of.ref.kind === 'iri' ? nameOf(r.of.ref.iri) : undefined;
    return name === undefined ? undefined : [name];
  }
  if (form.kind !== 'and') return undefined;
  const a = valuesOf(form.args[0], nameOf);
  const b = valuesOf(form.args[1], nameOf);
  return a && b ? [...a, ...b] : undefined;
}

/**
 * WRONG_KIND: on a graph without classes, the question asks for the values of some relations (CheckContext.askedKind:
 * "which **country** does X play in" — the values of is_in_country and plays_for_country) and the reading's answers are
 * the values of others ((JOIN (R plays_in_club) X): clubs). Set aside like relationUnused, and extended by the hop of
 * each relation of the kind asked for (choose.ts); if no such reading answers, this one answers with the caveat.
 */
export const wrongKind: Check = (reading, ctx) => {
  const pass: Verdict = { check: 'wrongKind', pass: true };
  const kind = reading.grounded ? ctx.askedKind?.(reading.mentions.map((m) => m.text)) : undefined;
  const gives = kind && reading.grounded ? valuesOf(reading.grounded, kind.nameOf) : undefined;
  if (!kind || !gives || !reading.tree || gives.some((r) => kind.relations.includes(r))) return pass;
  const said = (rs: readonly string[]) => [...new Set(rs)].map(relationWords).join(' or ');
  return {
    check: 'wrongKind',
    pass: false,
    code: 'WRONG_KIND',
    words: [kind.word],
    relations: kind.relations,
    reason: `the reading ${printForm(reading.tree)} answers with values of ${said(gives)}; "${kind.word}" asks for values of ${said(kind.relations)}`,
  };
};

/**
 * NO_PLACES: the question asks where ("where was X born", "where is X from") and nothing of the graph gives places — no
 * relation whose name's value is a place, no property the pack's lexicon asks with "where", no class of places
 * (kinds.ts givesPlaces): no reading can answer it, and the evidence around X (its films, its years) answers another
 * question. Abstained, before the readings and before the fallback.
 */
export const placeAsked = (question: string, ctx: Pick<CheckContext, 'givesPlaces'>): Verdict => {
  if (!asksWhere(question) || !ctx.givesPlaces || ctx.givesPlaces()) return { check: 'placeAsked', pass: true };
  return { check: 'placeAsked', pass: false, code: 'NO_PLACES', words: ['where'], reason: '"where" asks for a place, and nothing in this graph is a place' };
};

/**
 * NOTHING_ASKED: outside its names the question is only "who" or "what" and a form of "be" ("who is X", "what was X"),
 * or "what did X do": it asks what X is, which no relation of a graph says — a reading that answers with one relation
 * of X (X's films) answers another question. Abstained, before the readings and before the fallback. `names`: the
 * question's names (a reading's mentions, the fallback's topics); with a name not written as such, the check passes.
 */
export const nothingAsked = (question: string, names: readonly string[]): Verdict => {
  const rest = questionParts(question, names).flatMap((p) => letterWords(p)).join(' ');
  if (!/^(?:(?:who|what)\s+(?:is|was|are|were|s)(?:\s+(?:the|a|an))?|what\s+(?:did|does|do)\s+do)$/u.test(rest)) return { check: 'nothingAsked', pass: true };
  const named = [...new Map(names.filter((n) => question.toLowerCase().includes(n.trim().toLowerCase())).map((n) => [n.trim().toLowerCase(), n.trim()] as const)).values()];
  return { check: 'nothingAsked', pass: false, code: 'NOTHING_ASKED', reason: `the question asks what ${named.map((n) => `"${n}"`).join(' and ')} is, which no relation of this graph says` };
};

/** Whether the question asks where: its first word ("where was …", "where's …"), or after a preposition ("from where …"). */
export function asksWhere(question: string): boolean {
  return /^\s*(?:(?:from|to|in)\s+)?where(?:\b|'s)/iu.test(question);
}

/**
 * What a reading leaves out of the question, the caveat checks in order: unusedWords (a number or a name), then
 * relationUnused, then wrongKind. A reading that fails one is set aside for a reading that uses the part, else answers with a caveat
 * (choose.ts).
 */
export function leavesOut(reading: Reading, ctx: CheckContext): Verdict {
  const words = unusedWords(reading, ctx);
  if (!words.pass) return words;
  const relation = relationUnused(reading, ctx);
  return relation.pass ? wrongKind(reading, ctx) : relation;
}

/**
 * WRONG_SHAPE / NOT_YES_NO: the reading answers in another shape than the question's wording asks for — a set
 * or a yes/no where "how many …" asks for a number, anything but yes/no where "did …" asks for it (`expected`);
 * or yes/no where the wording cannot ask it ("tom hanks comedies"). Judged before the reading is run.
 */
export const answerShape: Check = (reading, ctx) => {
  const shape = reading.answerType;
  if (shape && ctx.expected && shape !== ctx.expected) return { check: 'answerShape', pass: false, code: 'WRONG_SHAPE', reason: `answers ${shape}, the question asks for a ${ctx.expected}` };
  if (shape === 'boolean' && ctx.yesNo === false) return { check: 'answerShape', pass: false, code: 'NOT_YES_NO', reason: 'answers yes or no, the question is not worded as a yes/no question' };
  return { check: 'answerShape', pass: true };
};

/**
 * Whether a relation path's values are the subjects of its last triple — the path ends read backwards: (R r), a
 * path (JOIN a (R b)), or (R (JOIN a b)), whose last step is (R a). A subject is an IRI or a blank node, never a
 * literal: no number, year or date.
 */
export function endsBackwards(r: Relation, backwards = false): boolean {
  switch (r.kind) {
    case 'rel':
      return backwards;
    case 'reverse':
      return endsBackwards(r.of, !backwards);
    case 'chain':
      return backwards ? endsBackwards(r.first, true) : endsBackwards(r.then, false);
  }
}

/** The relations whose values a form compares or ranks: (ARGMAX x r), (GT r v), (TC x r t), (GT r1 r2), (GROUPAVG x r v). */
function comparedRelations(form: Form): Relation[] {
  switch (form.kind) {
    case 'arg':
    case 'compare':
    case 'tc':
      return [form.relation];
    case 'attrcompare':
      return [form.relation, form.other];
    case 'group':
      return form.value ? [form.value] : [];
    default:
      return [];
  }
}

/**
 * UNRANKABLE: a reading that ranks or compares members by a relation read backwards ("(ARGMAX S (R city))": the
 * members ranked by what has them as its city). Its values are subjects of the graph's triples, entities and never
 * numbers, years or dates, so the ranking is by nothing the question can mean, on any graph. Judged on the form
 * before it is run, with answerShape.
 */
export const rankable: Check = (reading) => {
  const pass: Verdict = { check: 'rankable', pass: true };
  if (!reading.tree) return pass;
  const walk = (f: Form): Relation | undefined => comparedRelations(f).find((r) => endsBackwards(r)) ?? children(f).map(walk).find((r) => r !== undefined);
  const by = walk(reading.tree);
  if (!by) return pass;
  return { check: 'rankable', pass: false, code: 'UNRANKABLE', reason: `ranks or compares by ${printRelation(by)} read backwards: its values are entities, no number, year or date` };
};

/** The checks of a form alone, before it runs: answerShape, then rankable. */
export const formFits: Check = (reading, ctx) => {
  const shape = answerShape(reading, ctx);
  return shape.pass ? rankable(reading, ctx) : shape;
};

/**
 * "(COUNT (JOIN (R r) X))" over an entity: how many r-values X has. When X has none at all, the graph lacks
 * the fact ("how many directors did The Matrix have" with no director recorded): the relation and the
 * entity's words, for the reason; undefined for any other form.
 */
function ownValueCount(form: Form): { relation: string; entity: string } | undefined {
  if (form.kind !== 'count' || form.arg.kind !== 'join' || form.arg.relation.kind !== 'reverse' || form.arg.arg.kind !== 'entity') return undefined;
  const rel = form.arg.relation.of;
  const ref = form.arg.arg.ref;
  if (rel.kind !== 'rel' || rel.ref.kind !== 'name') return undefined;
  return { relation: rel.ref.name.replace(/_/g, ' '), entity: ref.kind === 'label' ? ref.label : ref.kind === 'name' ? ref.name : ref.iri };
}

/**
 * NO_OWN_VALUES: a vacuous count of an entity's own values ("how many directors did X have", X with no director
 * recorded): "0" would say X has none; the graph only lacks the fact, so the question is abstained from.
 */
export const ownValueMissing: Check = (reading) => {
  const own = reading.vacuous && reading.tree ? ownValueCount(reading.tree) : undefined;
  if (!own) return { check: 'ownValueMissing', pass: true };
  return { check: 'ownValueMissing', pass: false, code: 'NO_OWN_VALUES', reason: `the graph records no ${own.relation} for "${own.entity}"` };
};

/**
 * UNEXPLAINED_WORDS / NAMED_NOTHING: a question word the parser was never shown (abstain.ts) outside the
 * reading's mentions, or a mention word its entity does not spell ("[ the budget of Titanic ]" grounded to
 * Titanic leaves "budget"). Written as a name inside a mention ("Ugly Duckling Sunrise" grounded to "Ugly"),
 * the graph lacks that name (NAMED_NOTHING, with the labels near it); else the question asks something the
 * graph cannot answer (UNEXPLAINED_WORDS). A graph name outside every mention is unusedWords' business.
 */
export const unexplainedMentionWords: Check = (reading, ctx) => {
  const known = ctx.knownWords;
  if (!known || known.size === 0) return { check: 'unexplainedMentionWords', pass: true };
  const q = ctx.question;
  const words = unexplainedWords(q, reading.mentions.map((m) => ({ text: m.text, label: m.label ?? m.text })), known, (w) => ctx.clearRelation?.(w) !== undefined);
  const inMentions = new Set(reading.mentions.flatMap((m) => wordsOf(m.text)));
  const names = graphNames(q, words.filter((w) => !inMentions.has(w)), ctx.graphWord ?? (() => false));
  // (a word of a name of a condition on the class asked for is a name of the graph in any case: typed.ts linkedNames)
  const linked = wordsOfNames(ctx.linkedNames ?? []);
  const leftovers = words.filter((w) => !names.includes(w) && !linked.has(w));
  if (leftovers.length === 0) return { check: 'unexplainedMentionWords', pass: true };
  const named = reading.mentions.filter((m) => wordsOf(m.text).some((w) => leftovers.includes(w))).map((m) => m.text);
  // written as a name, or another name in the place of a word of the entity's label (abstain.ts substitutedWords)
  const substituted = new Set(reading.mentions.flatMap((m) => substitutedWords(m)));
  const inNames = named.length > 0 && leftovers.every((w) => substituted.has(w) || (named.some((n) => wordsOf(n).includes(w)) && writtenAsCapitalised(q, w)));
  return inNames
    ? { check: 'unexplainedMentionWords', pass: false, code: 'NAMED_NOTHING', words: leftovers, reason: namedNothingReason(named, ctx.near?.(named) ?? []) }
    : { check: 'unexplainedMentionWords', pass: false, code: 'UNEXPLAINED_WORDS', words: leftovers, reason: unexplainedReason(leftovers) };
};

/**
 * NOTHING_NEAR: a question word outside the reading's names (or a mention word its entity does not spell) that
 * nothing of the graph is near — no word of its relations, lexicon or parser's questions within NEAR_THRESHOLD by
 * WordNet or GloVe (abstain.ts NearGraph): the question asks about something the graph lacks, and the reason names
 * the word and the graph's closest relation ("nothing in this graph is near "born"; closest: release year"). A word
 * the parser was never shown but that is near something of the graph ("helmed" near "directed") is no reason to
 * refuse: the reading is judged on its calibrated confidence (tooUncertain). Names the graph lacks stay NAMED_NOTHING
 * (unexplainedMentionWords). Without `farWords` it is unexplainedMentionWords.
 */
export const nothingNear: Check = (reading, ctx) => {
  const v = unexplainedMentionWords(reading, ctx);
  if (v.pass || v.code === 'NAMED_NOTHING' || !ctx.farWords) return v;
  const far = ctx.farWords(v.words ?? []);
  if (far.length === 0) return { check: 'nothingNear', pass: true };
  return { check: 'nothingNear', pass: false, code: 'NOTHING_NEAR', words: far.map((f) => f.word), reason: nothingNearReason(far) };
};

/**
 * WORD_NOT_READ: a question word the parser was never shown, near the graph (nothingNear passed), is accepted only
 * with positive evidence that the reading means it: the word clearly reads as one relation of the graph
 * ("performers" → starred actors, "dialect" → in language: ctx.clearRelation, relations.ts rankPhrase) and the
 * reading uses that relation. A word that reads as no relation clearly ("shot", near "film") keeps the old rule
 * (the parser never saw it, and its confidence says nothing about it: abstained, `relation` undefined); a reading
 * that does not use the word's relation is set aside (`relation` names it) and the next readings are tried.
 */
export const wordNotRead: Check = (reading, ctx) => {
  if (!ctx.clearRelation || !ctx.knownWords || ctx.knownWords.size === 0) return { check: 'wordNotRead', pass: true };
  const unseen = unexplainedMentionWords(reading, ctx);
  const far = new Set(ctx.farWords?.(unseen.words ?? []).map((f) => f.word) ?? []);
  const esc = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const w of unseen.words ?? []) {
    if (far.has(w)) continue;
    const r = ctx.clearRelation(w);
    if (!r) return { check: 'wordNotRead', pass: false, code: 'WORD_NOT_READ', words: [w], reason: `"${w}" was never asked of this graph and reads as none of its relations clearly` };
    if (new RegExp(`(^|[\\s(])${esc(r.name)}($|[\\s)])`).test(reading.form)) continue;
    return { check: 'wordNotRead', pass: false, code: 'WORD_NOT_READ', words: [w], relation: r.name, reason: `"${w}" reads as ${r.note}, which the reading ${reading.form} does not use` };
  }
  return { check: 'wordNotRead', pass: true };
};

/**
 * TOO_UNCERTAIN: with a calibration, the reading's calibrated confidence (calibration.ts, from its signals) is
 * below the fitted threshold: the parser's answer is withheld (the caller first tries the graph prior's support).
 */
export const tooUncertain: Check = (reading, ctx) => {
  const cal = ctx.calibration;
  if (!cal || !reading.signals) return { check: 'tooUncertain', pass: true };
  const p = calibratedProbability(cal, reading.signals);
  if (p >= cal.threshold) return { check: 'tooUncertain', pass: true, confidence: p };
  return {
    check: 'tooUncertain',
    pass: false,
    code: 'TOO_UNCERTAIN',
    confidence: p,
    reason: `the parser's best reading, ${reading.form}, is too uncertain (confidence ${p.toFixed(2)} < ${cal.threshold.toFixed(2)})`,
  };
};

/** The trace row of a reading a named check set aside: the check, its code and its reason (checks.ts). */
export function setAsideRow(trace: TraceEntry[], groundedForm: string | undefined, v: Verdict, stage: TraceEntry['stage'] = 'execute'): void {
  trace.push({ stage, ...(groundedForm ? { groundedForm } : {}), outcome: 'skipped', note: `set aside (${v.code}): ${v.reason}`, check: { name: v.check, code: v.code ?? '' }, timeMs: 0 });
}

/**
 * The parts of the question an answer's evidence does not hold (for readers without a form: the fallback): its
 * numbers, and the names of the graph it writes (graphNames: capitalised or in an identifier, a word of some label) that
 * no word of the evidence spells.
 */
export function leftOut(question: string, held: string, graphWord: (word: string) => boolean): string[] {
  const heldWords = new Set(labelTokens(held));
  const heldNumbers = new Set(numbersOf(held));
  const out = numbersOf(question).filter((n) => !heldNumbers.has(n));
  const names = graphNames(question, letterWords(question), graphWord);
  for (const w of names) if (!heldWords.has(normalizeLabel(w)) && !out.includes(w)) out.push(w);
  return out;
}

/**
 * The words of `words` that the question writes as names of the graph: capitalised past its first word or in an
 * identifier ("ann_lark"), and a word of some graph label ("Lucas" in "what did Spielberg and Lucas make"). Such a
 * word is no evidence that the question asks about something the graph lacks; whether a reading uses it is
 * unusedWords' business.
 */
export function graphNames(question: string, words: readonly string[], graphWord: (word: string) => boolean): string[] {
  return words.filter((w) => (writtenAsCapitalised(question, w) || inIdentifier(question, w)) && !isWeakWord(w) && graphWord(w));
}

/** Whether the question writes the (lower-case) word with a capital past its first word: as a name. */
export function writtenAsCapitalised(question: string, word: string): boolean {
  const surface = question.split(/[^\p{L}\p{N}'’]+/u).filter(Boolean).slice(1);
  return surface.some((w) => /^\p{Lu}/u.test(w) && letterWords(w).includes(word));
}

/**
 * Whether the (lower-case) word is a word of an identifier the question writes, words joined by underscores
 * ("who directed star_wars": a name as the graph writes it — or a relation's name, so only graphNames reads it as a
 * name, and only for a word of some label).
 */
export function inIdentifier(question: string, word: string): boolean {
  return (question.match(/[\p{L}\p{N}]+(?:_[\p{L}\p{N}]+)+/gu) ?? []).some((id) => letterWords(id).includes(word));
}

/**
 * The names of beam forms that grounding found nothing for, from the trace's "no grounding" rows — less those another
 * reading grounded and ran ("[ the Legal department ]" beside a reading of "[ Legal department ]" that ran): a form
 * fails to ground for its relations too, and the graph does name that.
 */
export function ungroundedNames(trace: readonly TraceEntry[]): string[] {
  const namesIn = (form: string) => [...form.matchAll(/\[ ([^\]]+?) \]/g)].map(([, name = '']) => name);
  const key = (name: string) => labelTokens(name).filter((w) => !isStopword(w)).join(' ');
  const grounded = new Set(trace.filter((t) => t.stage === 'execute' && t.groundedForm && t.beamForm).flatMap((t) => namesIn(t.beamForm ?? '').map(key)));
  const out: string[] = [];
  for (const t of trace) {
    if (t.stage !== 'ground' || t.outcome !== 'empty' || !t.beamForm) continue;
    for (const name of namesIn(t.beamForm)) if (!out.includes(name) && !grounded.has(key(name))) out.push(name);
  }
  return out;
}

/** The codes of a refusal that blames the question's words: a word nothing of the graph is near, a name the graph lacks. */
const WORD_REFUSALS: ReadonlySet<string> = new Set(['NOTHING_NEAR', 'NAMED_NOTHING', 'UNEXPLAINED_WORDS', 'UNCERTAIN_WORDS']);

/**
 * Whether a no-answer blames the question's words rather than the graph's facts (gateway.ts hears such a question
 * again): the last abstention of the trace is one of WORD_REFUSALS, or, with none, a reading was set aside for one or
 * a name of the beam grounded to nothing. "the graph records no height for X" (NO_OWN_VALUES) read the question and
 * found the fact missing: a misheard word is not why.
 */
export function refusedForWords(trace: readonly TraceEntry[]): boolean {
  const abstained = trace.filter((t) => t.check && t.outcome === 'skipped' && t.note?.startsWith('abstained:'));
  const last = abstained[abstained.length - 1];
  if (last?.check) return WORD_REFUSALS.has(last.check.code);
  return trace.some((t) => t.check && t.outcome === 'skipped' && WORD_REFUSALS.has(t.check.code)) || ungroundedNames(trace).length > 0;
}

/**
 * Why an answer is heard again (gateway.ts, context.ts reheard): 'refused' — no answer, for its words
 * (refusedForWords); 'unread' — no reading of the parser's answered and the fallback's evidence did. Undefined: the
 * answer stands (a reading answered, the refusal is for a fact the graph lacks, or the work was stopped).
 */
export function hearingAgain(first: Answer): 'refused' | 'unread' | undefined {
  if (first.partial) return undefined;
  if (first.answers.length === 0) return refusedForWords(first.trace) ? 'refused' : undefined;
  return first.source.startsWith('fallback:') ? 'unread' : undefined;
}

/**
 * Whether the question heard again answers in the first one's place: it answers at all, where the first was refused;
 * a reading of the parser's answers, where the first was the fallback's. A second hearing the time budget or the store
 * stopped always does: the answer is "timed out", never the first answer instead.
 */
export function secondHearingAnswers(why: 'refused' | 'unread', second: Answer): boolean {
  if (second.partial) return true;
  return why === 'refused' ? second.answers.length > 0 : second.source === 'parser';
}

/**
 * Why there is no answer, from the trace rows alone (so the two cannot disagree): the readings the named checks
 * set aside, else the names nothing in the graph spells (with `near` labels: "did you mean …"), else what the
 * executed readings found.
 */
export function noAnswerReason(trace: readonly TraceEntry[], near: (names: string[]) => string[]): string | undefined {
  // values and comparisons the parser copied as names ("above 8.7") are no names to suggest others for
  const names = ungroundedNames(trace).filter((n) => !labelTokens(n).every((w) => /^\p{N}+$/u.test(w) || isWeakWord(w)));
  const ran = trace.filter((t) => t.stage === 'execute' && (t.outcome === 'answers' || t.outcome === 'empty') && t.sparql !== undefined);
  if (names.length > 0 && !ran.some((t) => t.outcome === 'answers')) {
    const hints = near(names);
    return `nothing in the graph is named ${names.slice(0, 3).map((n) => `"${n}"`).join(' or ')}${hints.length ? `; did you mean ${hints.map((h) => `"${h}"`).join(', ')}?` : ''}`;
  }
  const checked = [...new Set(trace.filter((t) => t.check && t.outcome === 'skipped' && t.note?.startsWith('set aside (')).map((t) => (t.note ?? '').replace(/^set aside \([A-Z_]+\): /, '')))];
  if (checked.length > 0) return checked.slice(0, 2).join('; ');
  if (ran.length === 0) return undefined;
  const withAnswers = ran.filter((t) => t.outcome === 'answers').length;
  const empty = ran.length - withAnswers;
  const parts = [`${empty} found nothing in the graph`, ...(withAnswers ? [`${withAnswers} found answers that were set aside (see the trace)`] : [])];
  return `of ${ran.length} readings of the question run on the graph, ${parts.join(' and ')}`;
}
