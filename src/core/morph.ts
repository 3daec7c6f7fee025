/**
 * English morphology, from compromise (plurals, verb forms) and WordNet (base forms, checked against the
 * database, for forms compromise does not undo such as "directed"). Shared by the lexicon (src/synth) and
 * entity grounding (src/ground: a plural mention of a singular label). compromise takes ≈ 0.2 s to load,
 * so it is required on first use: a question that never needs morphology never pays for it.
 */
import type nlpType from 'compromise';
import { LRUCache } from 'lru-cache';
import { getOrAdd } from './checked';
import { DETACH, wordNet } from './wordnet';

interface CompromiseMethods {
  two: {
    transform: {
      noun: { toPlural(s: string, m: unknown): string; toSingular(s: string, m: unknown): string };
      verb: { conjugate(s: string, m: unknown): Record<string, string> | undefined; toInfinitive(s: string, m: unknown, tense: string): string };
    };
  };
}

let loaded: { nlp: typeof nlpType; methods: CompromiseMethods; model: unknown } | undefined;
function compromise(): { nlp: typeof nlpType; methods: CompromiseMethods; model: unknown } {
  if (!loaded) {
    const mod = require('compromise') as typeof nlpType & { default?: typeof nlpType };
    const nlp = mod.default ?? mod; // CommonJS build: the function itself
    loaded = { nlp, methods: nlp.methods() as unknown as CompromiseMethods, model: nlp.model() };
  }
  return loaded;
}

export interface VerbForms {
  lemma: string;
  past: string;
  participle: string;
  present: string; // third person singular
  gerund: string;
}

/** The indefinite article of a word, by its first letter ("an employee", "a shop"). */
export function article(word: string): 'a' | 'an' {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/** Plural of a noun phrase (the head, i.e. the last word, is inflected). */
export function plural(noun: string): string {
  const of = noun.indexOf(' of ');
  if (of > 0) return plural(noun.slice(0, of)) + noun.slice(of); // "cause of death" → "causes of death"
  const words = noun.split(' ');
  const head = words.pop() ?? ''; // split() gives at least one word
  const p = compromise().methods.two.transform.noun.toPlural(head, compromise().model) || head + 's';
  return [...words, p].join(' ');
}

export function singular(noun: string): string {
  const of = noun.indexOf(' of ');
  if (of > 0) return singular(noun.slice(0, of)) + noun.slice(of);
  const words = noun.split(' ');
  const head = words.pop() ?? '';
  // a WordNet noun lemma is already singular ("species", "news"); else compromise ("children" → "child")
  const s = wordNet().has(head, 'n') ? head : compromise().methods.two.transform.noun.toSingular(head, compromise().model) || head;
  return [...words, s].join(' ');
}

function doubles(lemma: string): boolean {
  // consonant-vowel-consonant one-syllable verbs double the last consonant: star → starred, plan → planned
  return /^[^aeiou]*[aeiou][bdgklmnprt]$/.test(lemma);
}

export function conjugate(lemma: string): VerbForms {
  const c = compromise().methods.two.transform.verb.conjugate(lemma, compromise().model) ?? {};
  const regularPast = doubles(lemma) ? lemma + lemma.slice(-1) + 'ed' : lemma.endsWith('e') ? lemma + 'd' : lemma + 'ed';
  let past = c.PastTense && c.PastTense !== lemma ? c.PastTense : regularPast;
  if (past === lemma) past = regularPast;
  const participle = c.Participle && c.Participle !== lemma ? c.Participle : past;
  const gerund = c.Gerund && c.Gerund !== lemma ? c.Gerund : lemma.replace(/e$/, '') + 'ing';
  const present = c.PresentTense && c.PresentTense !== lemma ? c.PresentTense : lemma + 's';
  return { lemma, past, participle, present, gerund };
}

/** The base form of a verb form ("directed" → "direct", "written" → "write", "plays" → "play"), or undefined. */
export function verbBase(word: string): string | undefined {
  const w = word.toLowerCase();
  const wn = wordNet();
  for (const tense of ['PastTense', 'Participle', 'PresentTense', 'Gerund']) {
    const b = compromise().methods.two.transform.verb.toInfinitive(w, compromise().model, tense);
    if (b && b !== w && wn.has(b, 'v')) {
      const forms = conjugate(b);
      if ([forms.past, forms.participle, forms.present, forms.gerund].includes(w)) return b;
    }
  }
  const bases = wn.baseForms(w, 'v').filter((b) => b !== w);
  for (const b of bases) {
    const forms = conjugate(b);
    if ([forms.past, forms.participle, forms.present, forms.gerund].includes(w)) return b;
  }
  if (wn.has(w, 'v')) return w;
  return undefined;
}

/** Is this word a past participle / past tense of a verb WordNet knows ("directed", "written", "located")? */
export function isParticiple(word: string): boolean {
  const b = verbBase(word);
  if (!b || b === word) return false;
  const f = conjugate(b);
  return f.participle === word.toLowerCase() || f.past === word.toLowerCase();
}

export function isPresent3(word: string): boolean {
  const b = verbBase(word);
  return !!b && b !== word && conjugate(b).present === word.toLowerCase();
}

/** Is this word a preposition (compromise's lexicon: in, through, across, near, …)? */
export function isPreposition(word: string): boolean {
  return compromise().nlp(word).has('#Preposition');
}

/**
 * Singular forms a plural noun may stand for, unchecked (the caller keeps the ones its own vocabulary, e.g.
 * a graph's labels, knows): first WordNet morphy's noun detachment rules, longest suffix first ("comedies"
 * → "comedy", "comedie"; no library load), then compromise's singular, which also undoes irregular plurals
 * ("children" → "child"). Lazy, so a caller that stops at the first known form may never load compromise.
 */
export function* singularForms(word: string): Generator<string> {
  const w = word.toLowerCase();
  const seen = new Set<string>([w]);
  const rules = [...DETACH.n].sort((a, b) => b[0].length - a[0].length);
  for (const [suffix, repl] of rules) {
    if (w.length <= suffix.length + 2 || !w.endsWith(suffix)) continue;
    const s = w.slice(0, w.length - suffix.length) + repl;
    if (!seen.has(s)) yield (seen.add(s), s);
  }
  const s = compromise().methods.two.transform.noun.toSingular(w, compromise().model);
  if (s && !seen.has(s)) yield s;
}

/**
 * Is this word a verb, preposition, conjunction or question word (compromise's lexicon)? Such a word ends the lead of
 * a noun phrase ("which shops **are** …", "list the towns **of** …"); a determiner, pronoun or adjective ("all", "me")
 * does not.
 */
export function endsNounPhrase(word: string): boolean {
  return compromise().nlp(word).has('(#Verb|#Preposition|#Conjunction|#QuestionWord)');
}

/** Is this word of a closed class (compromise's lexicon: a pronoun, determiner, preposition or conjunction — "her", "us", "every")? */
export function isFunctionWord(word: string): boolean {
  return compromise().nlp(word).has('(#Pronoun|#Determiner|#Preposition|#Conjunction)');
}

/** Is this word a form of "be" (compromise's #Copula: "is", "are", "was")? */
export function isCopula(word: string): boolean {
  return compromise().nlp(word).has('#Copula');
}

const superlatives = new LRUCache<string, boolean>({ max: 10000 });

/**
 * Is this word a superlative adjective: compromise's #Superlative ("largest", "oldest", "cheapest"), or an adjective
 * WordNet glosses as the superlative of another ("best", "worst", "most", "fewest")? Cached per word (bounded: a server
 * reads many questions).
 */
export function isSuperlative(word: string): boolean {
  const w = word.toLowerCase();
  return getOrAdd<string, boolean>(superlatives, w, () => /\p{L}/u.test(w) && (compromise().nlp(w).has('#Superlative') || wordNet().senses(w, 'a').some((s) => s.gloss.startsWith('(superlative of'))));
}
