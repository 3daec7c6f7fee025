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
import { AskgraphError, isStopword, letterWords, typoEdits } from '../core';
import { singularForms } from '../core/morph';


export type KnownWords = ReadonlySet<string>;

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
  return new Set(Object.keys(data.words));
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
 * A word within one edit of a known word of 6+ letters counts as known (typos of ordinary words are common;
 * shorter words are too close to each other: "tall" is one edit from "tell").
 */
export function unexplainedWords(question: string, mentions: readonly Mention[], known: KnownWords): string[] {
  let rest = question.toLowerCase();
  const leftovers: string[] = [];
  for (const m of [...mentions].sort((a, b) => b.text.length - a.text.length)) {
    const t = m.text.trim().toLowerCase();
    if (!t || !rest.includes(t)) continue;
    rest = rest.split(t).join(' ');
    // A mention that grounds to no label is left to grounding, which says which names the graph lacks.
    if (!m.label) continue;
    const labelWords = wordsOf(m.label);
    for (const w of wordsOf(t)) if (!labelWords.some((l) => sameWord(w, l) || pluralOf(w, (x) => x === l))) leftovers.push(w);
  }
  const out: string[] = [];
  for (const w of [...wordsOf(rest), ...leftovers]) {
    // function words carry no relation: "other films by …" is not out of scope for want of "other"
    if (known.has(w) || isStopword(w) || out.includes(w) || pluralOf(w, (x) => known.has(x))) continue;
    if (w.length >= 6 && nearKnown(w, known)) continue;
    out.push(w);
  }
  return out;
}

/**
 * The mentions of two or more content words that no single label spells (every content word of the mention a
 * word of that one label, up to typos and plurals): names the graph lacks, even when its pieces are entities.
 */
export function unmatchedNames(mentions: readonly string[], labels: readonly string[]): string[] {
  const none: KnownWords = new Set<string>();
  return mentions.filter((m) => {
    if (wordsOf(m).filter((w) => !isStopword(w)).length < 2) return false;
    return !labels.some((label) => unexplainedWords(m, [{ text: m, label }], none).length === 0);
  });
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

function nearKnown(w: string, known: Iterable<string>): boolean {
  for (const k of known) {
    if (Math.abs(k.length - w.length) <= 1 && k.length >= 6 && distance(k, w) <= typoEdits(Math.max(k.length, w.length))) return true;
  }
  return false;
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

export type ExpectedAnswer = 'number' | 'boolean';

/**
 * A question opening with an auxiliary verb, negated or not ("is …", "did …", "didn't …", "should …", "can't …"):
 * worded for yes or no. The one yes/no opening of yesNoWording and expectedAnswer.
 */
const OPENS_WITH_AUXILIARY = /^(?:(?:is|are|was|were|do|does|did|has|have|had|could|would|should)(?:n['’]t)?|can(?:['’]t)?|will|won['’]t)\b/;

/**
 * Whether the wording can ask yes or no: it opens with an auxiliary verb ("is …", "did …", "do you know if …") or
 * asks "if" / "whether". A yes/no reading of anything else ("tom hanks comedies") answers a question nobody asked.
 */
export function yesNoWording(question: string): boolean {
  const q = question.trim().toLowerCase();
  return OPENS_WITH_AUXILIARY.test(q) || /\b(if|whether)\b/.test(q);
}

/**
 * What shape of answer the question's wording asks for, when it says so plainly: "how many …" / "number of …" /
 * "how far apart …" / "by how much …" / "difference in …" a number; a question opening with an auxiliary verb ("did …", "is …", "are there …") yes or no. Undefined
 * when the wording does not commit (wh-questions, noun phrases), and for "X or Y" alternatives, which name
 * their answer ("is Heat or Casino older" → one of them).
 */
export function expectedAnswer(question: string): ExpectedAnswer | undefined {
  const q = question.trim().toLowerCase();
  if (/^(how\s+(many|much)\b|(the\s+|what\s+is\s+the\s+)?(number|count|total|average|percentage|share)\s+of\b)/.test(q)) return 'number';
  // differences (ABSDIFF): "how far apart were …", "by how much does …", "what is the difference in rating between …"
  if (/^(how\s+far\s+apart\b|by\s+how\s+(much|many)\b|(the\s+|what\s+is\s+the\s+|what's\s+the\s+)?difference\s+in\b)/.test(q)) return 'number';
  // "can you name …", "do you know which …" are requests, not yes/no questions
  if (/^(can|could|would|will|do)\s+you\b/.test(q)) return undefined;
  if (OPENS_WITH_AUXILIARY.test(q) && !/\bor\b/.test(q)) return 'boolean';
  return undefined;
}
