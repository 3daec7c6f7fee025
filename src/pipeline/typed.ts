/**
 * The kind of thing a question asks for, read off the graph's classes (`askedClass`: a class word; `kindAsked`: a value
 * that names a kind of one class's members, "which designers …"), and what follows from it:
 *  - `wrongClass` (a named check, code WRONG_CLASS): a reading whose answers the schema says are of another class than
 *    the one the question names ("which employees …" read as their departments), or whose conjunction joins two sets
 *    that share no member of any class (a city's restaurants read as the cities in a region) is set aside;
 *  - `typedReadings`: readings built from the schema instead of the parser's relations — the asked class joined to
 *    each entity the question names along the relation paths (one or two hops) that link the two classes in the
 *    schema, scored by the parser and ranked after its beam (choose.ts "retype");
 *  - `linkedNames`: the words outside a reading's mentions that name a condition on the asked class (checks.ts
 *    unusedWords: a reading must use them);
 *  - `answerFits`: whether a fallback chain's last hop ends on the asked class (src/fallback, the paths reader's order).
 * The classes, relations, domains and ranges are the pack's schema.json (written by `askgraph init`: declared
 * rdfs:domain / rdfs:range, else observed); a pack without classes (MetaQA, PathQuestion) gets neither. No word of any
 * graph is written here.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LRUCache } from 'lru-cache';
import { article, defined, endsNounPhrase, getOrAdd, isCopula, isStopword, isSuperlative, LEXICON_FILE, normalizeLabel, RDF_TYPE, readLexicon, readSchema, singularForms, inDictionary, words, type ArgOp, type Candidate, type Form, type Lexicon, type Ref, type Relation, type PropertyLexicon, type Schema } from '../core';
import { children } from '../form';
import { rankPhrase, type RelationInfo } from '../ground';
import { CLEAR_MARGIN, CLEAR_READING } from './abstain';
import { isWeakWord, questionParts, writtenAsCapitalised, type Verdict } from './checks';
import { relationName, type GatewayContext } from './context';
import { copiedTextsOf } from './labels';
import { MAX_REPAIRS, readingSet, scoredReadings, trimmedMention } from './repair';

/** What the typed steps read of the pack's schema: classes, and each relation's domain and range classes. */
export interface GraphTypes {
  typePredicate: string;
  classes: RelationInfo[];
  labels: Map<string, string>;
  /** The name the parser writes for a class IRI (pack.json `names`). */
  className: Map<string, string>;
  /** The class IRI of a name the parser writes. */
  classIri: Map<string, string>;
  relations: { iri: string; domain: readonly string[]; range: readonly string[] }[];
  domain: Map<string, readonly string[]>;
  range: Map<string, readonly string[]>;
  /** The relations whose values are literals. */
  literal: Set<string>;
  /**
   * The relations whose values are numbers, years or dates (literals): what a superlative ranks members of a class by.
   * Each with the name the parser writes, its label, and the superlatives the pack's lexicon says it by (lexicon.json
   * `most` and a scale's `best` rank highest first, `least` and `worst` lowest first: "top rated", "earliest"; none
   * without a lexicon).
   */
  ranking: { iri: string; name: string; label: string; domain: readonly string[]; max: string[]; min: string[] }[];
  /** The relations whose values are no numbers, years or dates (entities or text): nothing a ranking ranks by. */
  unranked: Set<string>;
  /** Whether two classes share a member (asked of the store once per pair: the pairs of the schema's classes). */
  overlap: Map<string, boolean>;
  /** The classes of an entity (asked of the store once per entity; the most recent TYPED_CACHE × 4). */
  entityClasses: LRUCache<string, readonly string[]>;
  /** The class each question word reads clearly as ('': none). */
  clearClass: LRUCache<string, string>;
  /** askedClass's answers by question and mentions ('': none). */
  asked: LRUCache<string, string>;
  /** linkedNames' answers by question and mentions. */
  linked: LRUCache<string, string[]>;
  /** kindAsked's answers by question and mentions (`kind` undefined: none). */
  kinds: LRUCache<string, { kind?: { cls: string; word: string } }>;
}

/** How many entities of one label, how many paths per entity and how many named entities the typed readings use. */
const ENTITIES_PER_LABEL = 3;
const PATHS_PER_LABEL = 4;
const MAX_LABELS = 2;
/** How many words, questions (and 4× entities) the typed steps keep what they read of per gateway: a server runs long. */
const TYPED_CACHE = 5000;

/** The pack's classes and relation types (schema.json), read once; undefined: the pack has no schema or no classes. */
export function graphTypes(gw: GatewayContext): GraphTypes | undefined {
  if (gw.types !== undefined) return gw.types ?? undefined;
  const file = path.join(gw.pack.dir, 'schema.json');
  let schema: Schema | undefined;
  try {
    schema = fs.existsSync(file) ? readSchema(file) : undefined;
  } catch {
    schema = undefined; // an unreadable schema.json types nothing: the checks and readings that need it stand aside
  }
  if (!schema || !Array.isArray(schema.classes) || schema.classes.length === 0 || !Array.isArray(schema.properties)) {
    gw.types = null;
    return undefined;
  }
  const names = new Map(Object.entries(gw.pack.config.names ?? {}).map(([n, iri]) => [iri, n] as const));
  const relations = schema.properties.filter((p) => p.objectKind === 'entity' && p.domain.length > 0 && p.range.length > 0 && relationName(gw, p.iri) !== undefined);
  const lexicon = packLexicon(gw);
  const ranking = schema.properties.filter((p) => p.objectKind === 'literal' && (p.valueKind === 'number' || p.valueKind === 'year' || p.valueKind === 'date') && p.domain.length > 0 && relationName(gw, p.iri) !== undefined);
  gw.types = {
    typePredicate: schema.typePredicate || RDF_TYPE, // (a schema.json written before the type predicate was recorded)
    classes: schema.classes.map((c) => ({ iri: c.iri, name: c.name })),
    labels: new Map(schema.classes.map((c) => [c.iri, c.label] as const)),
    className: new Map(schema.classes.map((c) => [c.iri, names.get(c.iri) ?? c.name] as const)),
    classIri: new Map(schema.classes.map((c) => [names.get(c.iri) ?? c.name, c.iri] as const)),
    relations: relations.map((p) => ({ iri: p.iri, domain: p.domain, range: p.range })),
    domain: new Map(schema.properties.filter((p) => p.domain.length > 0).map((p) => [p.iri, p.domain] as const)),
    range: new Map(schema.properties.filter((p) => p.objectKind === 'entity' && p.range.length > 0).map((p) => [p.iri, p.range] as const)),
    literal: new Set(schema.properties.filter((p) => p.objectKind === 'literal').map((p) => p.iri)),
    ranking: ranking.map((p) => ({ iri: p.iri, name: defined(relationName(gw, p.iri), 'a ranking relation name'), label: p.label, domain: p.domain, ...superlativesOf(lexicon?.properties?.[p.name]) })),
    unranked: new Set(schema.properties.filter((p) => p.valueKind !== 'number' && p.valueKind !== 'year' && p.valueKind !== 'date').map((p) => p.iri)),
    overlap: new Map(),
    entityClasses: new LRUCache({ max: 4 * TYPED_CACHE }),
    clearClass: new LRUCache({ max: TYPED_CACHE }),
    asked: new LRUCache({ max: TYPED_CACHE }),
    linked: new LRUCache({ max: TYPED_CACHE }),
    kinds: new LRUCache({ max: TYPED_CACHE }),
  };
  return gw.types;
}

/** The pack's lexicon.json (keyed by the schema's property names); undefined where it has none or it is unreadable. */
export function packLexicon(gw: GatewayContext): Partial<Lexicon> | undefined {
  const file = path.join(gw.pack.dir, LEXICON_FILE);
  try {
    return fs.existsSync(file) ? (readLexicon(file) as Partial<Lexicon>) : undefined;
  } catch {
    return undefined; // an unreadable lexicon says no superlatives: the typed readings rank by every relation
  }
}

/** The superlative phrases the lexicon says of a property, highest first and lowest first. */
function superlativesOf(p: Partial<PropertyLexicon> | undefined): { max: string[]; min: string[] } {
  const phrases = (xs: readonly string[] | undefined) => (xs ?? []).map(normalizeLabel).filter(Boolean);
  return { max: [...phrases(p?.most), ...phrases(p?.scale?.best)], min: [...phrases(p?.least), ...phrases(p?.scale?.worst)] };
}

/** The question's words in order, a null where a mention stands (a mention's words are a name, not the kind asked for). */
function wordsOutside(question: string, mentions: readonly string[]): (string | null)[] {
  return questionParts(question, mentions).flatMap((p, i) => (i === 0 ? words(p) : [null, ...words(p)]));
}

/** Words that open the phrase naming what a question asks for: "which products", "how many restaurants", "list the …". */
const ASKING = new Set(['which', 'what', 'many', 'list', 'name', 'show', 'give', 'find']);
/** The WordNet part of a class reading (relations.ts phraseReading) that a synonym gives: a word read so names the class. */
const SYNONYM = 0.9;
/** How many words (not counting function words) after such a word the class word may stand ("which networking products"). */
const ASKING_REACH = 4;

/**
 * The class the question asks for: in the phrase after "which", "what", "how many" or an imperative ("list", "give
 * me"), the first word outside the mentions that names one class of the graph — its name or label, or their plural
 * ("employees" → Employee), else a WordNet synonym read clearly (rankPhrase ≥ CLEAR_READING, CLEAR_MARGIN above the
 * next) — a class's own name first. The phrase ends at a verb, preposition or conjunction ("what is the budget of …" asks for no class);
 * a mention is a name in it, never its class word. Undefined when no word does.
 */
export function askedClass(types: GraphTypes, question: string, mentions: readonly string[]): string | undefined {
  // (one question's readings mostly share their mentions: read once per gateway and question)
  return known(getOrAdd(types.asked, questionKey(question, mentions), () => classAskedFor(types, question, mentions) ?? ''));
}

/** The key of a question read with these mentions (askedClass's and linkedNames' caches). */
function questionKey(question: string, mentions: readonly string[]): string {
  return `${question}\u0000${mentions.join('\u0001')}`;
}

/**
 * The words of the phrase that names what the question asks for: outside the mentions, after "which", "what", "how
 * many" or an imperative, up to a verb, preposition or conjunction, within reach (function words not counted). After a
 * copula ("what is the oldest shop in …", `copula`) only the phrase's last word, where the phrase ends within reach
 * ("what is the shop's address" asks for no shop). Undefined: no such opening word.
 */
export function askingPhrase(question: string, mentions: readonly string[]): { words: string[]; copula: boolean } | undefined {
  const ws = wordsOutside(question, mentions);
  const at = ws.findIndex((w) => w !== null && ASKING.has(w));
  if (at < 0) return undefined;
  const after = ws[at + 1];
  const copula = after !== null && after !== undefined && isCopula(after);
  const from = copula ? at + 2 : at + 1;
  // a verb, a preposition or a conjunction ends the phrase (so does the question's end)
  const ends = (w: string | null | undefined) => w === undefined || (w !== null && isStopword(w) && endsNounPhrase(w));
  const phrase: string[] = [];
  let ended = false;
  // (function words do not count towards the reach: "which is the one …")
  for (let i = from, reach = 0; reach <= ASKING_REACH && !ended; i++) {
    const w = ws[i];
    if (w === undefined || ends(w)) ended = true;
    else if (w === null) reach++; // a mention is a name in the phrase ("which [ Westmark ] shops"), never its class word
    else if (!isStopword(w)) {
      if (reach < ASKING_REACH && !isWeakWord(w) && /\p{L}/u.test(w)) phrase.push(w);
      reach++;
    }
  }
  if (!copula) return { words: phrase, copula };
  const head = phrase.at(-1);
  return { words: ended && head !== undefined ? [head] : [], copula };
}

function classAskedFor(types: GraphTypes, question: string, mentions: readonly string[]): string | undefined {
  const phrase = askingPhrase(question, mentions);
  if (!phrase) return undefined;
  if (phrase.copula) {
    const head = phrase.words[0];
    return head !== undefined ? clearClass(types, head) : undefined;
  }
  // a class's own name first ("pottery shops": shops, though WordNet reads pottery as a craft), then a clear reading
  for (const w of phrase.words) {
    const named = namedClass(types, w);
    if (named) return named;
  }
  for (const w of phrase.words) {
    const hit = clearClass(types, w);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * Where no word of the asking phrase names a class: a word of the language (WordNet's, written in lower case: no name)
 * that names a value of one class's relation, as a kind of its members ("which designers …", "how many analysts …":
 * the entity Designer is a value of the employees' role) —
 * that class, the word a condition on it. The value's class must be the range of relations of one other class only
 * (a city, where shops are in cities and cities in provinces, names no kind). Cached per question and mentions.
 */
export async function kindAsked(gw: GatewayContext, types: GraphTypes, question: string, mentions: readonly string[], timeoutMs: number): Promise<{ cls: string; word: string } | undefined> {
  const key = questionKey(question, mentions);
  const hit = types.kinds.get(key);
  if (hit) return hit.kind;
  let found: { cls: string; word: string } | undefined;
  if (!askedClass(types, question, mentions)) {
    // a kind is a word of the language written in lower case ("designers"), not a name ("Westmark", "westmark")
    const kinds = (askingPhrase(question, mentions)?.words ?? []).filter((w) => !writtenAsCapitalised(question, w) && inDictionary(w, ['n', 'a']));
    for (const word of kinds) {
      const ents = exactEntities(gw, word);
      if (ents.length === 0) continue;
      await classesOfEntities(gw, types, ents, timeoutMs);
      const own = new Set(ents.flatMap((e) => types.entityClasses.get(e) ?? []));
      const owners = new Set(types.relations.filter((r) => r.range.some((c) => own.has(c))).flatMap((r) => r.domain).filter((c) => !own.has(c)));
      if (owners.size === 1) {
        found = { cls: defined([...owners][0], 'the owning class'), word };
        break;
      }
    }
  }
  types.kinds.set(key, found ? { kind: found } : {});
  return found;
}

/** The class the question asks for: one it names (askedClass), else the one a value it names is a kind of (kindAsked). */
async function classAsked(gw: GatewayContext, types: GraphTypes, question: string, mentions: readonly string[], timeoutMs: number): Promise<string | undefined> {
  return askedClass(types, question, mentions) ?? (await kindAsked(gw, types, question, mentions, timeoutMs))?.cls;
}

/** The class a word names: its name or label, or their plural ("offices" → Office). */
function namedClass(types: GraphTypes, w: string): string | undefined {
  for (const form of [w, ...singularForms(w)]) {
    const same = types.classes.find((c) => normalizeLabel(types.labels.get(c.iri) ?? '') === form || c.name.toLowerCase() === form);
    if (same) return same.iri;
  }
  return undefined;
}

/** Whether a word names the class asked for (clearClass: its name, plural or synonym): never a label of a condition on it. */
function namesClass(types: GraphTypes, asked: string): (w: string) => boolean {
  return (w) => clearClass(types, w) === asked;
}

/** The class a word reads clearly as (cached), else undefined. */
function clearClass(types: GraphTypes, w: string): string | undefined {
  return known(getOrAdd(types.clearClass, w, () => {
    // the class's own name, or its plural, is that class ("offices" → Office, though WordNet puts an office near a role)
    const named = namedClass(types, w);
    if (named) return named;
    // else a WordNet synonym of it, read clearly ("eateries" → Restaurant, "nations" → Country): not a hypernym ("places"
    // is a kind of region, "movies" a kind of product) nor a spelling or word-vector likeness ("firms" ~ Film)
    const ranked = rankPhrase(w, types.classes, { labels: types.labels });
    const top = ranked[0];
    return top && top.wordnet >= SYNONYM && top.score >= CLEAR_READING && top.score - (ranked[1]?.score ?? 0) >= CLEAR_MARGIN ? top.iri : '';
  }));
}

/** A cached class: '' is none. */
function known(iri: string | undefined): string | undefined {
  return iri === '' ? undefined : iri;
}

/** The IRI a grounded ref names, if it is one. */
function iriOf(ref: Ref): string | undefined {
  return ref.kind === 'iri' ? ref.iri : undefined;
}

/**
 * What a relation (as written in a join) gives and takes: `out`, the classes of the join's members (its domain, or its
 * range read backwards); `arg`, the classes its argument must be of (the other end); `values`, read backwards its
 * members are literals.
 */
function joinClasses(types: GraphTypes, r: Relation): { out?: readonly string[]; arg?: readonly string[]; values?: boolean } {
  const reverse = r.kind === 'reverse';
  const rel = reverse ? r.of : r;
  const iri = rel.kind === 'rel' ? iriOf(rel.ref) : undefined;
  if (!iri) return {};
  const [out, arg] = reverse ? [types.range.get(iri), types.domain.get(iri)] : [types.domain.get(iri), types.range.get(iri)];
  return { ...(out ? { out } : {}), ...(arg ? { arg } : {}), ...(reverse && types.literal.has(iri) ? { values: true } : {}) };
}

/** Whether two sets of classes share a member (the same class, or a member typed as both: asked of the store). */
async function overlapping(gw: GatewayContext, types: GraphTypes, a: readonly string[], b: readonly string[], timeoutMs: number): Promise<boolean> {
  for (const x of a) {
    for (const y of b) {
      if (x === y) return true;
      const key = x < y ? `${x} ${y}` : `${y} ${x}`;
      let both = types.overlap.get(key);
      if (both === undefined) {
        const t = `<${types.typePredicate}>`;
        both = await gw.executor.ask(`ASK { ?x ${t} <${x}> . ?x ${t} <${y}> }`, { timeoutMs });
        types.overlap.set(key, both);
      }
      if (both) return true;
    }
  }
  return false;
}

/** What the schema says of a set a grounded form describes: its classes (undefined: unknown), values, or a clash in it. */
interface Typing {
  classes?: readonly string[];
  /** Its members are values (literals: a number, a name, a date), never members of a class. */
  values?: boolean;
  clash?: string;
}

/**
 * The classes of the members of a grounded form's set, by the schema: a class is itself; (JOIN r X) is r's domain,
 * (JOIN (R r) X) its range; a conjunction is what both parts allow. A clash: a join whose argument is of no class the
 * relation takes, or a conjunction of two sets no member of the graph is in both of.
 */
async function typing(gw: GatewayContext, types: GraphTypes, form: Form, timeoutMs: number): Promise<Typing> {
  const name = (iri: string) => types.labels.get(iri) ?? iri;
  const aName = (iri: string) => `${article(name(iri))} ${name(iri)}`;
  switch (form.kind) {
    case 'class': {
      const iri = form.ref.kind === 'name' ? types.classIri.get(form.ref.name) : iriOf(form.ref);
      return iri && types.labels.has(iri) ? { classes: [iri] } : {};
    }
    case 'join': {
      const arg = await typing(gw, types, form.arg, timeoutMs);
      if (arg.clash) return arg;
      const { out, arg: takes, values } = joinClasses(types, form.relation);
      if (arg.classes && takes && !(await overlapping(gw, types, arg.classes, takes, timeoutMs))) {
        return { clash: `a ${arg.classes.map(name).join(' or ')} is never what its relation links (${takes.map(name).join(', ')})` };
      }
      if (out) return { classes: out };
      return values ? { values } : {};
    }
    case 'and': {
      const [a, b] = await Promise.all(form.args.map((x) => typing(gw, types, x, timeoutMs)));
      if (a?.clash) return a;
      if (b?.clash) return b;
      if (a?.classes && b?.classes) {
        if (!(await overlapping(gw, types, a.classes, b.classes, timeoutMs))) return { clash: `nothing is both ${a.classes.map(aName).join(' or ')} and ${b.classes.map(aName).join(' or ')}` };
        const both = a.classes.filter((c) => b.classes?.includes(c));
        return { classes: both.length > 0 ? both : a.classes };
      }
      return a?.classes ? a : (b ?? {});
    }
    case 'or': {
      // a union is of the classes of both sides (an entity's own classes, asked of the store)
      const sides = await Promise.all(form.args.map((x) => (x.kind === 'entity' ? entityTyping(gw, types, x, timeoutMs) : typing(gw, types, x, timeoutMs))));
      const clash = sides.find((t) => t.clash);
      if (clash) return clash;
      return sides.every((t) => t.classes) ? { classes: [...new Set(sides.flatMap((t) => t.classes ?? []))] } : {};
    }
    case 'arg': {
      // (ARGMAX S r): r must give numbers, years or dates, and the members of S be what it ranks (its domain; a city
      // has no rating)
      const set = await typing(gw, types, form.arg, timeoutMs);
      const by = form.relation.kind === 'rel' ? iriOf(form.relation.ref) : undefined;
      if (!set.clash && by && types.unranked.has(by)) return { clash: `its ${relationLabel(gw, types, form.relation)} is no number or date to rank by` };
      const { out: ranked } = joinClasses(types, form.relation);
      if (!set.clash && set.classes && ranked && !(await overlapping(gw, types, set.classes, ranked, timeoutMs))) {
        return { clash: `${set.classes.map(aName).join(' or ')} has no ${relationLabel(gw, types, form.relation)} to rank by (${ranked.map(name).join(', ')} have)` };
      }
      return set;
    }
    case 'count':
    case 'ask':
      return typing(gw, types, form.arg, timeoutMs);
    default:
      return {};
  }
}

/**
 * WRONG_CLASS: a reading (its grounded form) the schema says cannot answer the question — its answers are of a class
 * other than the one the question asks for (and share no member with it), or a part of it joins sets that never meet.
 * Passes where the pack has no classes or the schema says nothing of the reading.
 */
export async function wrongClass(gw: GatewayContext, question: string, reading: { grounded: Form; mentions: readonly string[] }, timeoutMs: number): Promise<Verdict> {
  const pass: Verdict = { check: 'wrongClass', pass: true };
  const types = graphTypes(gw);
  if (!types) return pass;
  const t = await typing(gw, types, reading.grounded, timeoutMs);
  if (t.clash) return { check: 'wrongClass', pass: false, code: 'WRONG_CLASS', reason: `the reading cannot hold together in this graph: ${t.clash}` };
  // (the parser's mentions as names of the graph: "which [ supplier ] …" copied the class word, which names nothing)
  const asked = await classAsked(gw, types, question, namesOf(gw, types, reading.mentions), timeoutMs);
  // "a shop", "an employee"
  const label = (iri: string) => {
    const l = types.labels.get(iri) ?? iri;
    return `${article(l)} ${l}`;
  };
  if (asked && t.values) return { check: 'wrongClass', pass: false, code: 'WRONG_CLASS', reason: `the question asks for ${label(asked)}; the reading's answers are values` };
  if (!asked || !t.classes || (await overlapping(gw, types, [asked], t.classes, timeoutMs))) return pass;
  return { check: 'wrongClass', pass: false, code: 'WRONG_CLASS', reason: `the question asks for ${label(asked)}; the reading's answers are ${t.classes.map(label).join(' or ')}` };
}

/** The classes of a grounded entity (none known: unknown). */
async function entityTyping(gw: GatewayContext, types: GraphTypes, form: Form & { kind: 'entity' }, timeoutMs: number): Promise<Typing> {
  const iri = iriOf(form.ref);
  if (!iri) return {};
  await classesOfEntities(gw, types, [iri], timeoutMs);
  const classes = types.entityClasses.get(iri) ?? [];
  return classes.length > 0 ? { classes } : {};
}

/** A relation's words for a reason: its label where the schema has one, else its name. */
function relationLabel(gw: GatewayContext, types: GraphTypes, r: Relation): string {
  const rel = r.kind === 'reverse' ? r.of : r;
  const iri = rel.kind === 'rel' ? iriOf(rel.ref) : undefined;
  if (!iri) return 'value';
  return types.ranking.find((r) => r.iri === iri)?.label ?? relationName(gw, iri) ?? 'value';
}

/**
 * The class a form ranks: the members of (ARGMAX S r) / (ARGMIN S r) where r is a number, year or date relation of
 * one class only ("the best … in X" read as a ranking by a rating only restaurants have). By name or grounded IRI.
 */
function rankedClass(types: GraphTypes, form: Form): string | undefined {
  if (form.kind === 'arg' && form.relation.kind === 'rel') {
    const ref = form.relation.ref;
    const r = types.ranking.find((x) => (ref.kind === 'name' ? x.name === ref.name : ref.kind === 'iri' && x.iri === ref.iri));
    if (r?.domain.length === 1) return r.domain[0];
  }
  for (const c of children(form)) {
    const k = rankedClass(types, c);
    if (k) return k;
  }
  return undefined;
}

/**
 * The class a reading of the question is held to: the one the question asks for (classAsked: it names it, or a kind of
 * its members), else the one the reading ranks (rankedClass: "the best … in X" names no class, and ranks restaurants).
 */
async function heldClass(gw: GatewayContext, types: GraphTypes, question: string, mentions: readonly string[], timeoutMs: number, form?: Form): Promise<string | undefined> {
  return (await classAsked(gw, types, question, mentions, timeoutMs)) ?? (form ? rankedClass(types, form) : undefined);
}

/** A relation path from a class to an entity's class: each hop a relation IRI, read forwards or backwards. */
type Path = { iri: string; reverse: boolean }[];

/** The relation paths of one or two hops the schema has from members of `from` to members of `to`. */
function pathsBetween(types: GraphTypes, from: string, to: readonly string[]): Path[] {
  const steps = (c: string) =>
    types.relations.flatMap((r) => [
      ...(r.domain.includes(c) ? [{ hop: { iri: r.iri, reverse: false }, next: r.range }] : []),
      ...(r.range.includes(c) ? [{ hop: { iri: r.iri, reverse: true }, next: r.domain }] : []),
    ]);
  const out: Path[] = [];
  const first = steps(from);
  for (const s of first) if (s.next.some((c) => to.includes(c))) out.push([s.hop]);
  for (const s of first) {
    for (const mid of s.next) {
      for (const t of steps(mid)) {
        if (t.hop.iri === s.hop.iri) continue; // back along the same relation: the class's peers, not a path
        if (t.next.some((c) => to.includes(c))) out.push([s.hop, t.hop]);
      }
    }
  }
  return out;
}

/** The classes of the entities (one query for those not asked before). */
async function classesOfEntities(gw: GatewayContext, types: GraphTypes, iris: readonly string[], timeoutMs: number): Promise<void> {
  const fresh = iris.filter((i) => !types.entityClasses.has(i));
  if (fresh.length === 0) return;
  const rows = await gw.executor.select(`SELECT ?e ?c WHERE { VALUES ?e { ${fresh.map((i) => `<${i}>`).join(' ')} } ?e <${types.typePredicate}> ?c }`, { timeoutMs });
  const found = new Map<string, string[]>();
  for (const r of rows.rows) {
    const e = r.e?.value;
    const c = r.c?.value;
    if (e && c) getOrAdd(found, e, () => []).push(c);
  }
  for (const i of fresh) types.entityClasses.set(i, found.get(i) ?? []);
}

/** The entities a label names exactly (as the index reads it: a plural of a singular label too). */
function exactEntities(gw: GatewayContext, text: string, k = ENTITIES_PER_LABEL): string[] {
  return gw.index.spelt(text, k).map((h) => h.iri);
}

/**
 * The parser's mentions as names of the graph: one that names nothing of it is none ("which [ supplier ] …": the class
 * asked for), and a class word that ends one whose other words spell a label is the class's ("how many [ thai shops ]"
 * → "thai": the words before it name the condition).
 */
function namesOf(gw: GatewayContext, types: GraphTypes, mentions: readonly string[]): string[] {
  const out: string[] = [];
  for (const m of mentions) {
    const ws = words(m);
    const last = ws.at(-1);
    const rest = ws.slice(0, -1).join(' ');
    if (last && rest && namedClass(types, last) && exactEntities(gw, rest, 1).length > 0) out.push(rest);
    else if (labelOf(gw, m) !== undefined) out.push(m);
  }
  return out;
}

/**
 * The labels the parser's mentions name: a mention that spells a label, or the label it holds (repair.ts trimmedMention,
 * "[ Sales department ]" → Sales).
 */
function mentionLabels(gw: GatewayContext, mentions: readonly string[]): string[] {
  const out: string[] = [];
  for (const m of mentions) {
    const label = labelOf(gw, m);
    if (label !== undefined && !out.includes(label)) out.push(label);
  }
  return out;
}

/** The label a mention names: itself where it spells one, else the label it holds (trimmedMention); undefined: none. */
function labelOf(gw: GatewayContext, mention: string): string | undefined {
  return exactEntities(gw, mention, 1).length > 0 ? mention : trimmedMention(gw, mention);
}

/**
 * The longest spans of the question's words outside the mentions that spell a label of the graph, in order: never
 * function words and common adjectives alone, never across a mention, never the word that names the asked class.
 */
function spansOutside(gw: GatewayContext, question: string, mentions: readonly string[], classWord: (w: string) => boolean): string[] {
  const out: string[] = [];
  const rest = wordsOutside(question, mentions);
  for (let i = 0; i < rest.length; ) {
    let took = 0;
    for (let n = Math.min(4, rest.length - i); n >= 1 && took === 0; n--) {
      const cut = rest.slice(i, i + n);
      if (cut.includes(null)) continue; // never across a mention
      const span = cut.filter((w): w is string => w !== null);
      if (span.every((w) => isStopword(w) || isWeakWord(w) || !/\p{L}/u.test(w)) || span.some(classWord)) continue;
      const text = span.join(' ');
      if (exactEntities(gw, text, 1).length > 0) {
        out.push(text);
        took = n;
      }
    }
    i += took || 1;
  }
  return out;
}

/**
 * The labels (of those given) that name a condition on the asked class: their entities' classes are linked to it by a
 * schema path of one or two hops — and, unless `members` (the parser's mentions: "the people X knows" asks for X's
 * peers), are not that class itself (a word of the question that names a member of the class asked for is a name, not
 * a condition: "how many Denny's …"; of a label both have, the other entities count). Each label with those paths.
 */
async function linkedLabels(gw: GatewayContext, types: GraphTypes, asked: string, labels: readonly string[], timeoutMs: number, members: boolean): Promise<{ label: string; paths: Path[] }[]> {
  const hits = new Map(labels.map((l) => [l, exactEntities(gw, l)] as const));
  await classesOfEntities(gw, types, [...new Set([...hits.values()].flat())], timeoutMs);
  return labels.flatMap((label) => {
    // (a label some member of the asked class also has — a restaurant named after a cuisine — still names the others)
    const others = (hits.get(label) ?? []).map((i) => types.entityClasses.get(i) ?? []).filter((cs) => members || !cs.includes(asked));
    const to = [...new Set(others.flat())];
    if (to.length === 0) return [];
    const paths = pathsBetween(types, asked, to);
    return paths.length > 0 ? [{ label, paths }] : [];
  });
}

/**
 * The spans of the question outside a reading's mentions that name a condition on the class the question asks for
 * (linkedLabels: "how many **pottery** shops …"), or, where it names none, on the class the reading (`form`) ranks
 * (heldClass: "the best **thai** in X"): words a reading of that class must use (checks.ts unusedWords). None where
 * the pack has no classes or there is no such class.
 */
export async function linkedNames(gw: GatewayContext, question: string, parsed: readonly string[], timeoutMs: number, form?: Form): Promise<string[]> {
  const types = graphTypes(gw);
  if (!types) return [];
  const mentions = namesOf(gw, types, parsed);
  const asked = await heldClass(gw, types, question, mentions, timeoutMs, form);
  if (!asked) return [];
  // (one question's readings mostly share their mentions: read once per gateway, question and class)
  const key = `${questionKey(question, mentions)}\u0000${asked}`;
  const cached = types.linked.get(key);
  if (cached) return cached;
  const spans = spansOutside(gw, question, mentions, namesClass(types, asked));
  const found = spans.length === 0 ? [] : (await linkedLabels(gw, types, asked, spans, timeoutMs, false)).map((l) => l.label);
  types.linked.set(key, found);
  return found;
}

/** The form of a path ending at a mention: (JOIN r1 (JOIN r2 [ label ])), a backwards hop as (R r). */
function pathForm(gw: GatewayContext, p: Path, label: string): Form | undefined {
  let f: Form = { kind: 'entity', ref: { kind: 'label', label } };
  for (const hop of [...p].reverse()) {
    const name = relationName(gw, hop.iri);
    if (!name) return undefined;
    const rel: Relation = { kind: 'rel', ref: { kind: 'name', name } };
    f = { kind: 'join', relation: hop.reverse ? { kind: 'reverse', of: rel } : rel, arg: f };
  }
  return f;
}

/**
 * Readings built from the schema for a question that names the class it asks for: (AND C P) for each path P (one or
 * two hops, either way) the schema has from C to the class of an entity the question names — two such entities give
 * (AND C (AND P1 P2)) — counted when the wording asks how many. Scored by the parser and ranked after the beam; none
 * where the pack has no classes, the question names none or names no entity, or there is no scoring parser.
 */
export async function typedReadings(gw: GatewayContext, question: string, beam: readonly Candidate[], scores: Map<string, number>, opts: { count: boolean; timeoutMs: number }): Promise<{ candidates: Candidate[]; asked?: string; labels: string[] }> {
  const none = { candidates: [], labels: [] };
  const types = graphTypes(gw);
  const score = gw.generator?.score?.bind(gw.generator);
  const top = beam[0];
  if (!types || !score || !top) return none;
  const mentions = namesOf(gw, types, copiedTextsOf(top.form));
  const asked = await heldClass(gw, types, question, mentions, opts.timeoutMs, top.form);
  const className = asked ? types.className.get(asked) : undefined;
  if (!asked || !className) return none;
  const fromMentions = mentionLabels(gw, mentions);
  const spans = spansOutside(gw, question, mentions, namesClass(types, asked)).filter((l) => !fromMentions.includes(l));
  // per entity named (at most MAX_LABELS), the paths from the asked class to its class (shortest first)
  const linked = [...(await linkedLabels(gw, types, asked, fromMentions, opts.timeoutMs, true)), ...(await linkedLabels(gw, types, asked, spans, opts.timeoutMs, false))].slice(0, MAX_LABELS);
  const labels = linked.map((l) => l.label);
  const perLabel = linked.map((l) => l.paths.map((p) => pathForm(gw, p, l.label)).filter((f): f is Form => f !== undefined).slice(0, PATHS_PER_LABEL)).filter((fs) => fs.length > 0);
  // a superlative of the question ("the oldest …") ranks the members by a number or a date of theirs
  const ranks = opts.count ? [] : rankingsOf(types, asked, question, mentions);
  if (perLabel.length === 0 && ranks.length === 0) return none;
  const cls: Form = { kind: 'class', ref: { kind: 'name', name: className } };
  const sets: Form[] = [];
  const [first, second] = perLabel;
  for (const a of first ?? []) {
    if (!second) sets.push({ kind: 'and', args: [cls, a] });
    else for (const b of second) sets.push({ kind: 'and', args: [cls, { kind: 'and', args: [a, b] }] });
  }
  if (sets.length === 0) sets.push(cls); // "the oldest shop": the class's members, ranked
  const { add, forms } = readingSet(new Set(beam.map((c) => c.text)));
  if (ranks.length > 0) {
    // the ranked readings of the first sets (each ranking relation, each way it may be read: the parser's score says which)
    const per = ranks.reduce((n, r) => n + r.ops.length, 0);
    for (const set of sets.slice(0, Math.max(1, Math.floor(MAX_REPAIRS / per)))) {
      for (const r of ranks) for (const op of r.ops) add({ kind: 'arg', op, arg: set, relation: r.relation });
    }
  } else for (const set of sets) add(opts.count ? { kind: 'count', arg: set } : set);
  return { candidates: await scoredReadings(score, question, forms, scores, beam.length), asked, labels };
}

/** How many number or date relations a superlative's readings rank by (the nearest to its words first). */
const RANKINGS = 3;

/** A relation a superlative ranks by, and which ways (highest first, lowest first). */
interface Ranking {
  relation: Relation;
  ops: ArgOp[];
}

/**
 * The relations (as forms write them) a superlative of the question may rank members of the asked class by, and which
 * way: those whose superlatives in the pack's lexicon the question says ("top rated": highest first), else each number
 * and date relation of the class either way, the nearest to the question's superlative words first (rankPhrase:
 * "oldest" → a founding date). None when the question says neither outside its mentions.
 */
function rankingsOf(types: GraphTypes, asked: string, question: string, mentions: readonly string[]): Ranking[] {
  const outside = wordsOutside(question, mentions);
  const sups = outside.filter((w): w is string => w !== null && isSuperlative(w));
  const own = types.ranking.filter((r) => r.domain.includes(asked));
  if (own.length === 0) return [];
  const rel = (name: string): Relation => ({ kind: 'rel', ref: { kind: 'name', name } });
  // the lexicon's phrases, each within the question's words outside the mentions
  const text = ` ${outside.map((w) => w ?? '|').join(' ')} `;
  const says = (phrases: readonly string[]) => phrases.some((p) => text.includes(` ${p} `));
  const said = own.flatMap((r) => {
    const ops: ArgOp[] = [...(says(r.max) ? (['ARGMAX'] as const) : []), ...(says(r.min) ? (['ARGMIN'] as const) : [])];
    return ops.length > 0 ? [{ relation: rel(r.name), ops }] : [];
  });
  if (said.length > 0 || sups.length === 0) return said;
  const labels = new Map(own.map((r) => [r.iri, r.label] as const));
  const near = new Map<string, number>();
  for (const w of sups) for (const r of rankPhrase(w, own, { labels })) near.set(r.iri, Math.max(near.get(r.iri) ?? 0, r.score));
  return [...own]
    .sort((a, b) => (near.get(b.iri) ?? 0) - (near.get(a.iri) ?? 0) || a.name.localeCompare(b.name))
    .slice(0, RANKINGS)
    .map((r) => ({ relation: rel(r.name), ops: ['ARGMAX', 'ARGMIN'] }));
}

/** The trace note of typed readings: the class asked for, the entities named, how many readings. */
export function typedNote(gw: GatewayContext, t: { candidates: readonly Candidate[]; asked?: string; labels: readonly string[] }): string {
  const types = graphTypes(gw);
  const cls = t.asked ? (types?.labels.get(t.asked) ?? t.asked) : '?';
  return `typed readings: ${t.candidates.length} forms: ${article(cls)} ${cls} linked by the schema's paths to ${t.labels.map((l) => `[ ${normalizeLabel(l)} ]`).join(', ')}`;
}

/**
 * Whether a relation hop of the fallback's chains ends on the class the question asks for (src/fallback ReaderContext
 * answerFits): a hop forwards ends on the relation's range, backwards on its domain; a hop the schema says ends on other
 * classes only, on values, or along rdf:type does not fit; one it says nothing of does. Undefined where the pack has no classes or the
 * question names none.
 */
export async function answerFits(gw: GatewayContext, question: string, mentions: readonly string[], timeoutMs: number): Promise<((last: { p: string; dir: '>' | '<' }) => boolean) | undefined> {
  const types = graphTypes(gw);
  const asked = types ? await classAsked(gw, types, question, namesOf(gw, types, mentions), timeoutMs) : undefined;
  if (!types || !asked) return undefined;
  return ({ p, dir }) => {
    // a hop to values, or along rdf:type — to a class node, or from it to the peers of the node before — is no
    // reading of the class asked for
    if (p === types.typePredicate || (dir === '>' && types.literal.has(p))) return false;
    const ends = dir === '>' ? types.range.get(p) : types.domain.get(p);
    return !ends || ends.includes(asked);
  };
}
