/**
 * The kind of thing a question asks for on a graph without classes (`askedKind`): a noun of the asking phrase ("which
 * **country** …", "name a soccer **club** …", typed.ts askingPhrase) that relations' names give their values —
 * "plays_in_club" gives clubs, "is_in_country" countries, "place_of_birth" places (`valueNoun`). checks.ts wrongKind
 * sets aside a reading whose answers are the values of other relations; choose.ts extends it by the hop of each
 * relation of that kind (repair.ts kindHops). A graph with classes has typed.ts for this (wrongClass). No word of any
 * graph is written here: the nouns are its relations' names.
 */
import { endsNounPhrase, inDictionary, isStopword, namesPlace, relationWords, singular, words, type ClassLexicon, type PropertyLexicon } from '../core';
import { relationName, type GatewayContext } from './context';
import { questionParts } from './checks';
import { askingPhrase, graphTypes, packLexicon } from './typed';

/** What a question asks for: the word that says it, and the relations (the names the parser writes) whose values are of that kind. */
export interface AskedKind {
  word: string;
  relations: readonly string[];
  /** The name the parser writes for a relation IRI of the graph (undefined: none of its relations). */
  nameOf: (iri: string) => string | undefined;
}

/**
 * The noun a relation's name gives its values, in the singular: its last word, or the word before "of" ("place of
 * birth" → place); undefined where that is no noun of WordNet or a function word ("directed by", "is aged").
 */
export function valueNoun(name: string): string | undefined {
  const ws = relationWords(name).split(' ').filter(Boolean);
  const of = ws.indexOf('of');
  const w = of > 0 ? ws[of - 1] : ws.at(-1);
  if (w === undefined || isStopword(w) || !inDictionary(w, ['n'])) return undefined;
  return singular(w);
}

/** The graph's relations by the noun their names give their values, and those whose nouns name places (cached per gateway). */
function relationsByNoun(gw: GatewayContext): { byNoun: Map<string, string[]>; places: string[] } {
  if (gw.kinds) return gw.kinds;
  const byNoun = new Map<string, string[]>();
  for (const iri of gw.vocabulary) {
    const name = relationName(gw, iri);
    const noun = name === undefined ? undefined : valueNoun(name);
    if (name !== undefined && noun !== undefined) byNoun.set(noun, [...(byNoun.get(noun) ?? []), name]);
  }
  gw.kinds = { byNoun, places: [...byNoun].filter(([n]) => namesPlace(n)).flatMap(([, rs]) => rs) };
  return gw.kinds;
}

/**
 * The kind the question asks for, on a graph without classes: the first word of its asking phrase (outside the
 * mentions) that is, in the singular, the noun some relations' names give their values; for "where is the N …" of an
 * N that relations give and that is no place, the places (`word` "where"). Undefined: a graph with classes (typed.ts
 * judges those), no asking phrase, or no such word.
 */
export function askedKind(gw: GatewayContext, question: string, mentions: readonly string[]): AskedKind | undefined {
  if (graphTypes(gw)) return undefined;
  const { byNoun, places } = relationsByNoun(gw);
  const nameOf = (iri: string) => (gw.vocabulary.has(iri) ? relationName(gw, iri) : undefined);
  // "where is the club that …": the place of a thing that is no place — the values of the relations whose names give
  // places (core namesPlace: "is_in_country"), where relations give such things ("plays_in_club")
  const thing = whereThing(question, mentions);
  if (thing !== undefined) {
    const noun = singular(thing);
    return byNoun.has(noun) && !namesPlace(noun) && places.length > 0 ? { word: 'where', relations: places, nameOf } : undefined;
  }
  const phrase = askingPhrase(question, mentions);
  for (const w of phrase?.words ?? []) {
    const relations = byNoun.get(singular(w)) ?? byNoun.get(w);
    if (relations && relations.length > 0) return { word: w, relations, nameOf };
  }
  return undefined;
}

/**
 * The thing a question asks the place of: "where is the football **club** that X plays for" — the last word of the
 * noun phrase after "where is / was / are / were", which ends at a mention, a verb, a preposition or a conjunction.
 * Undefined: the question asks no such thing ("where was X born": a mention follows).
 */
function whereThing(question: string, mentions: readonly string[]): string | undefined {
  // (the question up to its first mention: checks.ts questionParts)
  const m = /^\s*where\s+(?:is|was|are|were)\s+(.*)$/u.exec(questionParts(question, mentions)[0] ?? '');
  if (!m?.[1]) return undefined;
  const phrase: string[] = [];
  for (const w of words(m[1])) {
    if (isStopword(w) && endsNounPhrase(w)) break;
    if (!isStopword(w)) phrase.push(w);
  }
  return phrase.at(-1);
}

/**
 * Whether anything of the graph gives places (cached per gateway): a relation whose name's value noun names one
 * (`relationsByNoun`: "is_in_country"), a property or class the pack's lexicon asks with "where" or calls a place
 * (synth's lexicon: "headquartered in" a city), or a class whose name names a place (core namesPlace: "City").
 */
export function givesPlaces(gw: GatewayContext): boolean {
  if (gw.givesPlaces !== undefined) return gw.givesPlaces;
  const byLexicon = () => {
    const lexicon = packLexicon(gw);
    // (a lexicon a person edited may leave out any field of an entry)
    const properties = Object.values(lexicon?.properties ?? {}) as Partial<PropertyLexicon>[];
    const classes = Object.values(lexicon?.classes ?? {}) as Partial<ClassLexicon>[];
    return properties.some((p) => p.wh === 'where' || p.swh === 'where' || p.object?.place === true || p.subject?.place === true) || classes.some((c) => c.wh === 'where' || c.place === true);
  };
  const byClass = () => (graphTypes(gw)?.classes ?? []).some((c) => namesPlace(singular(relationWords(c.name).split(' ').at(-1) ?? '')));
  // (cheapest first: the relations' nouns are known to the gateway already)
  gw.givesPlaces = relationsByNoun(gw).places.length > 0 || byLexicon() || byClass();
  return gw.givesPlaces;
}
