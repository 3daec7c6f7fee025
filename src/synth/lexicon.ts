/**
 * The lexicon: how a graph's classes and properties are said in English, built from the Schema alone
 * (labels / local names, WordNet, compromise) and saved as `<pack>/lexicon.json`, a file the user can
 * edit — an edited file is read back and merged over the generated one (the user's entries win).
 *
 * Per property (s p o) it holds the nouns for the subject and the object roles, the verb (with the
 * role that acts), and phrase templates with slots:
 *   {x}  the entity (or a nested noun phrase) the set is built from    {a} {b}  subject / object entity (yes/no)
 *   {S} {s}  plural / singular subject noun                             {O} {o}  plural / singular object noun
 *   {wh}  who / what / where / when for the object                      {swh}    the same for the subject
 *   subjects   noun phrases for { s : (s p x) }          "{S} directed by {x}", "{x}'s {S}"
 *   subjectQ   questions whose answer is { s : (s p x) } "what did {x} direct"
 *   objects    noun phrases for { o : (x p o) }          "{O} of {x}", "{x}'s {O}"
 *   objectQ    questions whose answer is { o : (x p o) } "who directed {x}"
 *   ask        yes/no questions for (a p b)              "did {b} direct {a}"
 * Graph-agnostic: nothing here knows any data set's relations; a pack's lexicon.json carries what the
 * graph alone cannot say (e.g. that the subjects of an untyped graph are "movies").
 */
import {
  defined,
  itemAt,
  conjugate,
  isParticiple,
  isPreposition,
  isPresent3,
  plural,
  relationWords,
  namesPlace,
  singular,
  stem,
  verbBase,
  wordNet,
  type WnSynset,
} from '../core';

const PREPS = { has: (w: string | undefined) => w !== undefined && isPreposition(w) };
import type { Schema, SchemaProperty } from './types';
import { checkLexicon, isObject, LEXICON_FORMAT, type ClassLexicon, type Lexicon, type NounEntry, type PropertyLexicon, type Wh } from '../core';

export { LEXICON_FILE, LEXICON_FORMAT, readLexicon, writeLexicon, type ClassLexicon, type Lexicon, type NounEntry, type PropertyLexicon, type Wh } from '../core';

export interface LexiconOptions {
  /** Use WordNet synonyms (default true). */
  synonyms?: boolean;
  /** Max synonyms per noun (default 2). */
  maxSynonyms?: number;
}

const COPULA = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'has', 'have', 'had', 'having']);

/** Words of the whole schema: the context for choosing WordNet senses (simplified Lesk). */
function schemaContext(schema: Schema): Set<string> {
  const ctx = new Set<string>();
  for (const c of schema.classes) for (const w of relationWords(c.label || c.name).split(' ')) if (w.length > 2) ctx.add(stem(w));
  for (const p of schema.properties) for (const w of relationWords(p.label || p.name).split(' ')) if (w.length > 2) ctx.add(stem(w));
  return ctx;
}

/** The sense of `lemma` whose gloss and lemmas overlap most with the schema's words; ties go to the more frequent sense. */
function bestSense(lemma: string, pos: 'n' | 'v', ctx: Set<string>, filter?: (s: WnSynset) => boolean, minScore = 0): WnSynset | undefined {
  const senses = wordNet().senses(lemma, pos).filter((s) => !filter || filter(s));
  let best: WnSynset | undefined;
  let bestScore = -1;
  const own = stem(lemma);
  for (const s of senses) {
    const words = (s.gloss + ' ' + s.words.join(' ')).toLowerCase().split(/[^a-z]+/).filter((w) => w.length > 2);
    const score = new Set(words.map(stem).filter((w) => w !== own && ctx.has(w))).size;
    if (score > bestScore) {
      best = s;
      bestScore = score;
    }
  }
  return bestScore >= minScore ? best : undefined;
}

function synonymsOf(sense: WnSynset | undefined, word: string, max: number): string[] {
  if (!sense || max <= 0) return [];
  return sense.words
    .filter((w) => w.toLowerCase() === w && w !== word && !w.includes('-') && w.split(' ').length <= 2 && !w.includes(word))
    .filter((w) => wordNet().isTaggedSense(w, sense) && wordNet().senses(w, sense.pos)[0]?.offset === sense.offset)
    .slice(0, max);
}

function whOfNoun(noun: string | undefined, ctx: Set<string>): Wh {
  if (!noun) return 'what';
  const head = itemAt(noun.split(' '), -1, 'words of a noun');
  if (!/^\p{L}{3,}$/u.test(head)) return 'what';
  const base = wordNet().baseForms(head, 'n')[0] ?? head;
  const sense = bestSense(base, 'n', ctx);
  if (!sense) return 'what';
  if (sense.lexFile === 'noun.person') return 'who';
  if (sense.lexFile === 'noun.time') return 'when';
  // a place in its chosen sense or in one of its two commonest (core namesPlace)
  return sense.lexFile === 'noun.location' || namesPlace(base) ? 'where' : 'what';
}

function nounEntry(nouns: string[], ctx?: Set<string>): NounEntry {
  const sing = [...new Set(nouns.map((n) => singular(n.toLowerCase())))];
  const entry: NounEntry = { singular: sing, plural: sing.map(plural) };
  const [first] = sing;
  if (ctx && first !== undefined) {
    const head = itemAt(first.split(' '), -1, 'words of a noun');
    const sense = bestSense(wordNet().baseForms(head, 'n')[0] ?? head, 'n', ctx);
    if (sense && (sense.lexFile === 'noun.artifact' || sense.lexFile === 'noun.location')) {
      entry.place = true;
      // people call establishments "places" ("good places for thai food"): one time in three; not cities and
      // regions, where "how many places" would name several classes at once
      if (sense.lexFile === 'noun.artifact' && !sing.includes('place')) {
        const firstPlural = itemAt(entry.plural, 0, 'plurals');
        entry.singular = [first, first, ...sing.slice(1), 'place'];
        entry.plural = [firstPlural, firstPlural, ...entry.plural.slice(1), 'places'];
      }
    }
  }
  return entry;
}

function withSynonyms(noun: string, ctx: Set<string>, opts: Required<LexiconOptions>): string[] {
  const out = [noun];
  if (!opts.synonyms || noun.includes(' ') || !/^\p{L}{3,}$/u.test(noun)) return out;
  const base = wordNet().baseForms(noun, 'n')[0];
  if (!base) return out;
  // only a sense whose gloss shares words with the graph's vocabulary: no "valuation" for a restaurant rating
  const sense = bestSense(base, 'n', ctx, undefined, 1);
  for (const s of synonymsOf(sense, base, opts.maxSynonyms)) if (!out.includes(s)) out.push(s);
  return out;
}

/** The person noun derived from a verb ("direct" → "director", "write" → "writer") in the sense that fits the schema. */
function agentNoun(lemma: string, ctx: Set<string>, common = false): string | undefined {
  const wn = wordNet();
  const sense = bestSense(lemma, 'v', ctx);
  const senses = sense ? [sense, ...wn.senses(lemma, 'v').filter((s) => s !== sense)] : wn.senses(lemma, 'v');
  const cands = wn
    .derived(lemma, 'v', senses)
    .filter((d) => d.pos === 'n' && d.synset.lexFile === 'noun.person' && !d.word.includes(' ') && (!common || wn.tagCount(d.word, d.synset) >= 3))
    .map((d) => d.word.toLowerCase());
  const prefix = lemma.slice(0, Math.min(4, lemma.length - 1));
  return cands.find((w) => w.startsWith(prefix) && /(er|or|ist|ant|ent)$/.test(w)) ?? cands.find((w) => w.startsWith(prefix));
}

function valueWords(p: SchemaProperty, noun: string): Pick<PropertyLexicon, 'more' | 'less' | 'most' | 'least'> {
  if (p.valueKind === 'year' || p.valueKind === 'date') {
    return { more: ['after', 'later than', 'since'], less: ['before', 'earlier than'], most: ['latest', 'most recent', 'newest', 'last'], least: ['earliest', 'oldest', 'first'] };
  }
  if (p.valueKind === 'number') {
    return {
      more: ['more than', 'above', 'over', 'greater than', 'higher than'],
      less: ['less than', 'below', 'under', 'lower than'],
      most: [`highest ${noun}`, `largest ${noun}`, `top ${noun}`, `maximum ${noun}`],
      least: [`lowest ${noun}`, `smallest ${noun}`, `least ${noun}`],
    };
  }
  return {};
}

/**
 * A decimal value on a small bounded range (1.3–4.5, 0–10) reads as a rating: "good" is above the middle of the
 * observed range (rounded to a half). The middle is the choice that assumes nothing about a graph's scale.
 */
export function ratingThreshold(p: SchemaProperty): number | undefined {
  if (p.valueKind !== 'number' || p.min === undefined || p.max === undefined) return undefined;
  if (p.min < 0 || p.max > 10 || p.max <= p.min) return undefined;
  const decimal = /(decimal|double|float)$/.test(p.datatype ?? '') || !Number.isInteger(p.min) || !Number.isInteger(p.max);
  if (!decimal) return undefined;
  return Math.round((p.min + (p.max - p.min) * 0.5) * 2) / 2;
}

function scaleWords(p: SchemaProperty, noun: string): PropertyLexicon['scale'] {
  const threshold = ratingThreshold(p);
  if (threshold === undefined) return undefined;
  const head = itemAt(noun.split(' '), -1, 'words of a noun');
  const base = verbBase(head);
  const part = base && base !== head ? conjugate(base).participle : undefined; // rating → rated
  return {
    threshold,
    good: ['good', 'decent', ...(part ? [`highly ${part}`, `well ${part}`] : [])],
    bad: ['bad', 'poor', ...(part ? [`poorly ${part}`, `low ${part}`] : [])],
    best: ['best', 'top', ...(part ? [`highest ${part}`, `top ${part}`, `best ${part}`] : [])],
    worst: ['worst', ...(part ? [`lowest ${part}`, `worst ${part}`] : [])],
  };
}

/** "type", "kind", "sort", "category": nouns that name a kind of something (WordNet: "kind" or a direct hyponym of it). */
function isKindNoun(word: string): boolean {
  const wn = wordNet();
  const kind = wn.senses('kind', 'n')[0];
  if (!kind) return false;
  return wn.senses(singular(word), 'n').slice(0, 2).some((s) => s.offset === kind.offset || s.pointers.some((q) => q.symbol === '@' && q.offset === kind.offset));
}

/** "parents" is a noun, "borders" / "contains" are verbs: the reading the tagged corpus sees at least twice as often. */
function nounFirst(word: string): boolean {
  const wn = wordNet();
  const n = singular(word);
  const v = verbBase(word);
  if (!wn.has(n, 'n')) return false;
  if (!v) return true;
  return wn.lemmaTagCount(n, 'n') >= 2 * wn.lemmaTagCount(v, 'v');
}

const SWAP: Record<string, string> = { S: 'O', O: 'S', s: 'o', o: 's', wh: 'swh', swh: 'wh', a: 'b', b: 'a' };

/**
 * A property labelled as the inverse of another ("plays in club inverse", "inverse of located in"): the
 * phrasing of the base label with the subject and object roles exchanged.
 */
function inverseBase(label: string): string | undefined {
  const w = relationWords(label);
  const m = /^(.*\S) inverse$/.exec(w) ?? /^inverse (?:of )?(\S.*)$/.exec(w);
  const base = m?.[1];
  return base !== undefined && /\p{L}{3,}/u.test(base) && !base.split(' ').every((w) => PREPS.has(w)) ? base : undefined;
}

function propertyLexicon(schema: Schema, p: SchemaProperty, ctx: Set<string>, opts: Required<LexiconOptions>): PropertyLexicon {
  const base = inverseBase(p.label || p.name);
  if (!base) return directLexicon(schema, p, ctx, opts);
  const d = directLexicon(schema, { ...p, label: base, domain: p.range, range: p.domain, valueKind: undefined }, ctx, opts);
  const sw = (ts: string[]) => ts.map((t) => t.replace(/\{(S|O|s|o|wh|swh|a|b)\}/g, (_m, k: string) => `{${SWAP[k]}}`));
  return {
    ...d,
    label: p.label || p.name,
    subject: d.object,
    object: d.subject,
    wh: d.swh,
    swh: d.wh,
    ...(p.functional ? { functional: true } : { functional: undefined }),
    ...(p.valueKind ? { valueKind: p.valueKind } : {}),
    ...(d.verb ? { verb: { ...d.verb, agent: d.verb.agent === 'subject' ? 'object' : 'subject' } } : {}),
    subjects: sw(d.objects),
    objects: sw(d.subjects),
    subjectQ: sw(d.objectQ),
    objectQ: sw(d.subjectQ),
    ask: sw(d.ask),
  };
}

function directLexicon(schema: Schema, p: SchemaProperty, ctx: Set<string>, opts: Required<LexiconOptions>): PropertyLexicon {
  const classLabel = (iris: string[]): string[] =>
    iris.map((iri) => schema.classes.find((c) => c.iri === iri)).filter((c): c is NonNullable<typeof c> => !!c).map((c) => c.label.toLowerCase());
  // a namespaced name ("people.person.nationality") is said by its last segment
  const said = p.label || p.name;
  const lastSegment = said.split('.').at(-1) ?? '';
  const spoken = said.includes('.') && !/\s/.test(said) ? (lastSegment === '' ? p.name : lastSegment) : said;
  let words = relationWords(spoken).split(' ').filter((w) => w !== '');
  // "has genre", "is aged", "is in country": the copula/possession says nothing by itself
  let possessive = false;
  for (let w = words[0]; words.length > 1 && w !== undefined && COPULA.has(w); w = words[0]) {
    if (w.startsWith('ha')) possessive = true;
    words = words.slice(1);
  }
  const subjNouns = classLabel(p.domain);
  let shape: PropertyLexicon['shape'] = 'noun';
  let verb: PropertyLexicon['verb'];
  let prep: string | undefined;
  let objNoun: string | undefined;
  let ofNoun: string | undefined;
  const first = words[0];
  const last = words.at(-1);
  const beforeLast = words.at(-2);
  if (last !== undefined && beforeLast !== undefined && PREPS.has(last) && isParticiple(beforeLast)) {
    // "directed by", "located in", "written by"
    const lemma = defined(verbBase(beforeLast), 'verb base of a participle');
    if (last === 'by') {
      shape = 'passive';
      verb = { ...conjugate(lemma), agent: 'object' };
      objNoun = agentNoun(lemma, ctx);
    } else {
      shape = 'prep';
      prep = last;
      verb = { ...conjugate(lemma), agent: 'subject', particle: last };
    }
  } else if (words.length >= 2 && last === 'of' && wordNet().has(singular(words.slice(0, -1).join(' ')), 'n')) {
    // "capital of", "member of", "author of": the subject is the X of the object
    shape = 'nounOf';
    prep = 'of';
    ofNoun = singular(words.slice(0, -1).join(' '));
  } else if (first !== undefined && PREPS.has(first) && words.length >= 2) {
    // "in city", "in language"
    shape = 'prep';
    prep = first;
    objNoun = words.slice(1).join(' ');
  } else if (first !== undefined && !possessive && words.length >= 2 && (isPresent3(first) || isParticiple(first)) && !wordNet().has(words.join(' '), 'n')) {
    // "plays in club", "wears number", "starred actors"
    const lemma = defined(verbBase(first), 'verb base of a verb form');
    const rest = words.slice(1);
    const particle = PREPS.has(rest[0]) ? rest[0] : undefined;
    const noun = rest.slice(particle ? 1 : 0).join(' ');
    shape = 'verb';
    verb = { ...conjugate(lemma), agent: isPresent3(first) ? 'subject' : 'object', ...(particle ? { particle } : {}) };
    objNoun = noun || undefined;
  } else if (first !== undefined && !possessive && words.length === 1 && !COPULA.has(first) && isPresent3(first) && !nounFirst(first)) {
    // "borders", "contains"
    shape = 'verb';
    verb = { ...conjugate(defined(verbBase(first), 'verb base of a verb form')), agent: 'subject' };
  } else if (first !== undefined && words.length === 1 && isParticiple(first) && wordNet().has(defined(verbBase(first), 'verb base of a participle'), 'n')) {
    // "is aged" → the value is an "age"
    objNoun = defined(verbBase(first), 'verb base of a participle');
  } else {
    objNoun = words.join(' ');
  }
  const rangeNouns = classLabel(p.range);
  const objNouns: string[] = [];
  if (objNoun) objNouns.push(...withSynonyms(singular(objNoun), ctx, opts));
  // "release year" → also "year", "imdb rating" → "rating": valued properties are often named by their head noun
  const head = objNoun?.split(' ').pop();
  // (not a vague head: "number" of "house number" has a dozen senses and reads as a count)
  if (objNoun && head && head !== objNoun && p.valueKind && p.valueKind !== 'string' && wordNet().senses(singular(head), 'n').length <= 8) {
    objNouns.push(singular(head));
  }
  for (const r of rangeNouns) if (!objNouns.includes(r)) objNouns.push(r);
  if (objNouns.length === 0 && verb) {
    const agent = verb.agent === 'object' ? agentNoun(verb.lemma, ctx) : undefined;
    if (agent) objNouns.push(agent);
  }
  if (objNouns.length === 0 && shape !== 'nounOf' && shape !== 'verb') objNouns.push(words.join(' '));
  const object = nounEntry(objNouns, ctx);
  if (!subjNouns.length && verb?.agent === 'subject') {
    // "plays in club": its subjects are players (the verb's agent noun, when it is a common word)
    const agent = agentNoun(verb.lemma, ctx, true);
    if (agent) subjNouns.push(agent);
  }
  // "capital of": its subjects are capitals (the class, "city", would lose what the relation says)
  const subject = ofNoun ? nounEntry([ofNoun], ctx) : nounEntry(subjNouns.flatMap((n) => withSynonyms(n, ctx, opts)), ctx);
  let wh: Wh = p.valueKind === 'year' || p.valueKind === 'date' ? 'when' : whOfNoun(object.singular[0], ctx);
  if (wh === 'when' && p.valueKind === 'number') wh = 'what'; // an age is not a time
  if (p.objectKind === 'literal' && p.valueKind === 'number') wh = 'what';
  const swh: Wh = subject.singular.length ? whOfNoun(subject.singular[0], ctx) : 'what';
  const lex: PropertyLexicon = {
    label: p.label || p.name,
    shape,
    subject,
    object,
    wh,
    swh,
    ...(verb ? { verb } : {}),
    ...(prep ? { prep } : {}),
    ...(p.functional ? { functional: true } : {}),
    ...(p.valueKind ? { valueKind: p.valueKind } : {}),
    ...valueWords(p, object.singular[0] ?? relationWords(spoken)),
    ...(scaleWords(p, object.singular[0] ?? relationWords(spoken)) ? { scale: scaleWords(p, object.singular[0] ?? relationWords(spoken)) } : {}),
    subjects: [],
    subjectQ: [],
    objects: ['{O} of {x}', "{x}'s {O}", '{x} {O}'],
    objectQ: ['what is the {o} of {x}', "what is {x}'s {o}", '{wh} is the {o} of {x}', '{o} of {x}'],
    ask: [],
  };
  const v = verb;
  switch (shape) {
    case 'passive': {
      const V = defined(v, 'verb of a passive phrase');
      lex.subjects = [`{S} ${V.participle} by {x}`, '{S} by {x}', "{x}'s {S}", '{x} {S}'];
      lex.subjectQ = [`what did {x} ${V.lemma}`, `which {S} did {x} ${V.lemma}`, `what was ${V.participle} by {x}`, `what has {x} ${V.participle}`, `{S} ${V.participle} by {x}`];
      lex.objectQ = [`{wh} ${V.past} {x}`, `{wh} ${V.past} the {s} {x}`, `{x} was ${V.participle} by {wh}`, '{wh} is the {o} of {x}', "{x}'s {o}", '{o} of {x}'];
      // the agent by the role noun too: "was X a writer on Y", "is X among the writers of Y"
      lex.ask = [`did {b} ${V.lemma} {a}`, `was {a} ${V.participle} by {b}`, 'is {b} the {o} of {a}', `is {a} ${V.participle} by {b}`, 'was {b} a {o} on {a}', 'is {b} among the {O} of {a}', 'did {b} work on {a} as a {o}'];
      break;
    }
    case 'verb': {
      const V = defined(v, 'verb of a verb phrase');
      const prt = V.particle ? ' ' + V.particle : '';
      if (V.agent === 'subject') {
        lex.subjects = [`{S} that ${V.lemma}${prt} {x}`, `{S} ${V.gerund}${prt} {x}`];
        lex.subjectQ = [`{swh} ${V.present}${prt} {x}`, `which {S} ${V.lemma}${prt} {x}`, `{swh} ${V.past}${prt} {x}`, `{S} ${V.gerund}${prt} {x}`];
        lex.objectQ.push(`which {o} does {x} ${V.lemma}${prt}`, `what {o} does {x} ${V.lemma}${prt}`, `{wh} does {x} ${V.lemma}${prt}`);
        lex.ask = [`does {a} ${V.lemma}${prt} {b}`, `is {b} the {o} of {a}`, `did {a} ${V.lemma}${prt} {b}`];
      } else {
        lex.subjects = [`{S} with {x}`, `{S} ${V.gerund} {x}`, "{x}'s {S}", `{S} that {x} ${V.past} in`];
        lex.subjectQ = [`what did {x} ${V.lemma} in`, `which {S} did {x} ${V.lemma} in`, `{S} with {x}`, `{S} ${V.gerund} {x}`];
        lex.objectQ.push(`{wh} ${V.past} in {x}`, `{O} in {x}`, `{wh} was in {x}`);
        lex.ask = [`did {b} ${V.lemma} in {a}`, `is {b} in {a}`, `was {b} in {a}`];
      }
      break;
    }
    case 'prep': {
      const P = defined(prep, 'preposition of a prepositional phrase');
      const part = v ? `${v.participle} ` : '';
      lex.subjects = [`{S} ${part}${P} {x}`, `{S} ${P} {x}`, '{x} {S}'];
      lex.subjectQ = [`what is ${part}${P} {x}`, `which {S} are ${part}${P} {x}`, `{S} ${P} {x}`];
      lex.objectQ.push(`what {o} is {x} ${part}${P}`, `which {o} is {x} ${P}`);
      if (lex.wh === 'where') lex.objectQ.push('where is {x}', part ? `where is {x} ${part}`.trim() : 'where is {x} located', 'where can i find {x}');
      lex.ask = [`is {a} ${part}${P} {b}`, `is {a} ${P} {b}`];
      break;
    }
    case 'nounOf': {
      lex.subjects = ['{S} of {x}', "{x}'s {S}", '{x} {S}'];
      lex.subjectQ = ['{swh} is the {s} of {x}', 'what is the {s} of {x}', "{x}'s {s}", '{s} of {x}', '{S} of {x}'];
      lex.objects = ['{O} whose {s} is {x}', '{O} with {s} {x}', '{O} that have {x} as {s}'];
      lex.objectQ = ['what is {x} the {s} of', '{wh} is {x} the {s} of', 'which {o} has {x} as {s}', '{x} is the {s} of what'];
      lex.ask = ['is {a} the {s} of {b}', "is {a} {b}'s {s}", 'is {a} a {s} of {b}'];
      break;
    }
    case 'noun': {
      const dated = p.valueKind === 'year' || p.valueKind === 'date';
      const objectWords = itemAt(object.singular, 0, 'object nouns').split(' ');
      const deverbal = dated && objectWords.length > 1 ? verbBase(itemAt(objectWords, 0, 'object noun words')) : undefined;
      lex.subjects = ['{S} with {o} {x}', '{x} {S}', '{S} whose {o} is {x}'];
      lex.subjectQ = ['which {S} have {o} {x}', 'what has {o} {x}', '{S} with {o} {x}'];
      lex.ask = ['is the {o} of {a} {b}', "is {a}'s {o} {b}", 'does {a} have {o} {b}'];
      if (deverbal && wordNet().has(deverbal, 'v') && wordNet().lemmaTagCount(deverbal, 'v') >= 3) {
        const f = conjugate(deverbal);
        lex.subjects.push(`{S} ${f.participle} in {x}`);
        lex.subjectQ.push(`what was ${f.participle} in {x}`);
        lex.objectQ.push(`when was {x} ${f.participle}`, `what year was {x} ${f.participle}`.replace('year', objectWords.slice(1).join(' ') || 'year'));
        lex.ask.push(`was {a} ${f.participle} in {b}`);
      } else {
        lex.objectQ.push('what {o} is {x}', '{x} {o}');
        // "food type": a kind of something — "arabic food", "what kind of food is X"
        const [a, kind, ...more] = objectWords;
        if (a !== undefined && kind !== undefined && more.length === 0 && isKindNoun(kind)) {
          lex.subjects.push(`{S} with {x} ${a}`, `{S} for {x} ${a}`);
          lex.subjectQ.push(`{S} with {x} ${a}`, ...(subject.place ? [`where can i get {x} ${a}`, `where is there {x} ${a}`] : []));
          lex.objectQ.push(`what kind of ${a} is {x}`, `what kind of ${a} does {x} have`, `what type of ${a} is {x}`);
          lex.ask.push(`does {a} have {b} ${a}`, `is {a} a {b} place`.replace(' place', ' {s}'));
        }
        // "is Heat a thriller": only when the values are categories (few, shared by many subjects)
        if (p.objects * 5 <= p.subjects && lex.wh === 'what') lex.ask.push('is {a} {b}', 'is {a} a {b}');
      }
      break;
    }
  }
  return lex;
}

/** Verbalises a Schema: nouns for classes and properties, verbs, phrase templates. Deterministic. */
export function buildLexicon(schema: Schema, options: LexiconOptions = {}): Lexicon {
  const opts: Required<LexiconOptions> = { synonyms: options.synonyms ?? true, maxSynonyms: options.maxSynonyms ?? 2 };
  const ctx = schemaContext(schema);
  const classes: Record<string, ClassLexicon> = {};
  for (const c of schema.classes) {
    const label = (c.label || relationWords(c.name)).toLowerCase();
    const entry = nounEntry(withSynonyms(singular(label), ctx, opts), ctx);
    classes[c.name] = { label, ...entry, wh: whOfNoun(entry.singular[0], ctx) };
  }
  const properties: Record<string, PropertyLexicon> = {};
  for (const p of schema.properties) properties[p.name] = propertyLexicon(schema, p, ctx, opts);
  return { format: LEXICON_FORMAT, thing: { singular: ['thing'], plural: ['things'] }, classes, properties };
}

function deepMerge<T>(base: T, over: unknown): T {
  if (!isObject(base) || !isObject(over)) return (over === undefined ? base : over) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = k in out ? deepMerge(out[k], v) : v;
  return out as T;
}

/** The generated lexicon with a user's (partial) lexicon over it: user entries win, arrays are replaced. */
export function mergeLexicon(generated: Lexicon, user: unknown): Lexicon {
  const merged = deepMerge(generated, user);
  // a class renamed by the user renames the property roles that were named after it (unless those were edited too)
  const u = (isObject(user) ? user : {}) as { classes?: Record<string, Partial<NounEntry> | null>; properties?: Record<string, Partial<PropertyLexicon>> };
  for (const [name, c] of Object.entries(u.classes ?? {})) {
    const before = generated.classes[name];
    const after = merged.classes[name];
    if (!before || !after || !Array.isArray(c?.singular)) continue;
    for (const [pname, p] of Object.entries(merged.properties)) {
      const gp = generated.properties[pname];
      const edited = u.properties?.[pname];
      for (const role of ['subject', 'object'] as const) {
        if (edited?.[role] || !gp || gp[role].singular[0] !== before.singular[0]) continue;
        p[role] = { singular: [...after.singular], plural: [...after.plural] };
      }
    }
  }
  checkLexicon(merged, 'merged lexicon');
  return merged;
}

