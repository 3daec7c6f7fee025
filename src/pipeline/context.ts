/**
 * What the steps of a question read of the opened pack (PipelineGateway's fields before): the pack, the store,
 * the parser, the entity index, the known words and the calibration (open.ts), and what is derived from them once
 * per gateway — the graph's relations, the relation retriever, the relation vocabulary, the graph prior.
 * The steps (generate-pass, attempt, judge, choose, answer, fallback-step) are functions of this context.
 */
import {
  type Executor,
  type PackConfig,
  nameInNamespace,
  PROPERTY_SCHEMA_PREDICATES,
  isStopword,
  singularForms,
} from '../core';
import { loadRelationVocabulary, type RelationVocabulary } from '../fallback';
import { heardAgainAs, NearGraph, type FarWord, type KnownWords } from './abstain';
import { type Calibration } from './calibration';
import { relationWordsOf, type RelationWord } from './checks';
import {
  RelationRetriever,
  type EntityIndex,
  type GroundContext,
  type RelationInfo,
  type Scorer,
} from '../ground';
import { GraphPrior } from './prior';
import { type GraphTypes } from './typed';
import { type ScoringGenerator } from './open';

export interface GatewayContext {
  readonly pack: { dir: string; config: PackConfig };
  readonly executor: Executor;
  readonly generator: ScoringGenerator | undefined;
  readonly index: EntityIndex;
  readonly entityScorer: Scorer | undefined;
  /** Words of the parser's training questions (abstain.ts); undefined = no abstention on unexplained words. */
  readonly knownWords: KnownWords | undefined;
  /** Calibrated confidence and the abstention threshold of the parser (calibration.ts); undefined = raw confidence. */
  readonly calibration: Calibration | undefined;
  readonly relations: RelationRetriever;
  readonly vocabulary: Set<string>;
  /** Question words ↔ relations mined from the pack's training data (fallback readers rank chains with it). */
  readonly relationVocabulary: RelationVocabulary | undefined;
  /** The graph prior on a reading's relation (prior.ts). */
  readonly prior: GraphPrior;
  /** relationWordSet's cache (judge.ts). */
  relationWordsCache?: Set<string>;
  /** The names the parser writes for the graph's relations (judge.ts groundedNames). */
  relationNamesCache?: Set<string>;
  /** nearGraph's cache. */
  near?: NearGraph;
  /** typed.ts graphTypes' cache (null: the pack has no classes). */
  types?: GraphTypes | null;
  /** kinds.ts: the relations (the names the parser writes) by the noun their names give their values; those of places. */
  kinds?: { byNoun: Map<string, string[]>; places: string[] };
  /** Whether anything of the graph gives places (kinds.ts givesPlaces), once known. */
  givesPlaces?: boolean;
}

/** What the graph has that question words may be near (abstain.ts): its parser's words and relations; built on first use. */
export function nearGraph(gw: GatewayContext): NearGraph {
  gw.near ??= new NearGraph({ words: gw.knownWords ?? [], relations: (gw.index.meta.relations as RelationInfo[] | undefined) ?? [], nameOf: (iri) => relationName(gw, iri) });
  return gw.near;
}

/** The question's words outside the given mentions that read clearly as one relation of this graph (checks.ts relationWordsOf). */
export function questionRelationWords(gw: GatewayContext, question: string, mentions: readonly { text: string; label?: string }[]): RelationWord[] {
  return relationWordsOf(question, mentions, (w) => nearGraph(gw).clearRelation(w));
}

/**
 * The question's words outside the given mentions that read clearly as no relation of the whole graph but as one of
 * the relations around the topics (two hops, RelationRetriever.neighbourhood): a large graph has several "teams"
 * relations, the person asked about is near one of them. The fallback's chains rank by them as by
 * questionRelationWords (src/fallback ReaderContext.relationWords).
 */
export async function nearbyRelationWords(gw: GatewayContext, question: string, mentions: readonly { text: string; label?: string }[], topics: readonly string[]): Promise<RelationWord[]> {
  const near = nearGraph(gw);
  const around = await gw.relations.neighbourhood([...topics], 2);
  if (around.length === 0) return [];
  return relationWordsOf(question, mentions, (w) => (near.clearRelation(w) ? undefined : near.clearAmong(w, around)));
}

/** Whether a word reads clearly as one relation of this graph (unexplainedWords' readsAsIs: such a word is no mishearing). */
export function readsAsRelation(gw: GatewayContext): (word: string) => boolean {
  return (w) => nearGraph(gw).clearRelation(w) !== undefined;
}

/** The words of those given that nothing of the graph is near (none asked for: no lexical work at all). */
export function farWords(gw: GatewayContext, words: readonly string[]): FarWord[] {
  return words.length === 0 ? [] : nearGraph(gw).far(words);
}

/** A word as the question writes it: letters, with inner apostrophes or hyphens. */
const WORD = /\p{L}+(?:['’-]\p{L}+)*/gu;

/**
 * The question with its typos and misheard words respelt, as the parser should read it. Each word written in lower
 * case (a capitalised word is a name), of three letters or more, that is no word of the parser's questions, of any
 * graph label (nor a plural of one) and no function word, is replaced:
 * - when it is no word of the language, by the word it is a typo of (NearGraph.typoFor: TYPO_LETTERS or more, or a
 *   short word one edit from a single word) — "which professional foootball team …" → "football";
 * - when it is a word of the language, by a word of the parser's that says a relation or is a function word and
 *   sounds like it (NearGraph.soundFor: a speech recogniser's "prints" for "parents").
 *
 * The parser copies an unknown word as a name otherwise, and grounding finds no such name. `respelt` lists each change
 * (empty: the question as asked). No lexical work for a question of known words.
 */
export function respelled(gw: GatewayContext, question: string): Respelt {
  const known = gw.knownWords;
  if (!known || known.size === 0) return { question, respelt: [] };
  return respellWords(question, (w) => {
    if (w.length < 3 || w !== w.toLowerCase() || !/^\p{L}+$/u.test(w) || known.has(w) || isStopword(w)) return undefined;
    if ([w, ...singularForms(w)].some((x) => gw.index.hasWord(x))) return undefined;
    return nearGraph(gw).typoFor(w) ?? nearGraph(gw).soundFor(w);
  });
}

/**
 * The question heard again, for a question refused for its words or that no reading of the parser's answered
 * (gateway.ts, checks.ts hearingAgain). Each word written in lower case outside an identifier ("elizabeth_de_burgh")
 * that reads as no relation clearly ("dad" is parents, not "did") is read as the word the parser's questions use far
 * more often that sounds like it (abstain.ts heardAgainAs: a speech recogniser's "they" for "the", "white" for
 * "what"); a word that has none, and is no function word, no word of the parser's nor of a label, and near nothing of
 * the graph, as the common word that sounds like it and is (NearGraph.nearSoundFor: "darlene" for "darling"). Unlike
 * `respelled`, this reads words the parser knows and words of labels too, which only the refusal or the parser's
 * failure says may be misheard. `respelt` lists each change (empty: nothing to hear again).
 */
export function reheard(gw: GatewayContext, question: string): Respelt {
  const known = gw.knownWords;
  if (!known || known.size === 0) return { question, respelt: [] };
  return respellWords(question, (w, at, all) => {
    const inIdentifier = /[\p{N}_]/u.test(all[at - 1] ?? '') || /[\p{N}_]/u.test(all[at + w.length] ?? '');
    if (inIdentifier || w !== w.toLowerCase() || !/^\p{L}+$/u.test(w)) return undefined;
    const commoner = heardAgainAs(w, known);
    if (commoner !== undefined) return nearGraph(gw).clearRelation(w) ? undefined : commoner;
    // (a word of a label that nothing of the graph is near is a name written in lower case, not a word misheard)
    return isStopword(w) || known.has(w) || gw.index.hasWord(w) ? undefined : nearGraph(gw).nearSoundFor(w);
  });
}

/** A question with some of its words read as others, and which (from → to). */
export interface Respelt {
  question: string;
  respelt: { from: string; to: string }[];
}

/** The changes in words, as the trace and the answer say them: "foootball" → "football", "they" → "the". */
export function respeltText(respelt: Respelt['respelt']): string {
  return respelt.map((r) => `"${r.from}" → "${r.to}"`).join(', ');
}

/** The question with each word (WORD) replaced by what `to` reads it as (undefined: as written), and the changes. */
function respellWords(question: string, to: (word: string, at: number, all: string) => string | undefined): Respelt {
  const respelt: { from: string; to: string }[] = [];
  const out = question.replace(WORD, (w: string, at: number, all: string) => {
    const t = to(w, at, all);
    if (t === undefined) return w;
    respelt.push({ from: w, to: t });
    return t;
  });
  return { question: out, respelt };
}

/** The context of an opened pack (what PipelineGateway's constructor derived from it). */
export function gatewayContext(
  pack: { dir: string; config: PackConfig },
  executor: Executor,
  generator: ScoringGenerator | undefined,
  index: EntityIndex,
  entityScorer: Scorer | undefined,
  knownWords: KnownWords | undefined,
  calibration: Calibration | undefined,
): GatewayContext {
  const rels = (index.meta.relations as RelationInfo[] | undefined) ?? [];
  const vocabulary = new Set(rels.map((r) => r.iri));
  const gw: GatewayContext = {
    pack,
    executor,
    generator,
    index,
    entityScorer,
    knownWords,
    calibration,
    vocabulary,
    relationVocabulary: loadRelationVocabulary(pack.dir),
    prior: new GraphPrior({ executor, index, vocabulary, generator, config: pack.config, relationName: (iri) => relationName(gw, iri) }),
    relations: new RelationRetriever(executor, { exclude: [...pack.config.labelPredicates, ...(pack.config.aliasPredicates ?? []), ...PROPERTY_SCHEMA_PREDICATES] }),
  };
  return gw;
}

/** What grounding reads: the entity index, the relation retriever, the graph's relations, the pack's names. */
export function groundContext(gw: GatewayContext, q: string): GroundContext {
  return {
    index: gw.index,
    relations: gw.relations,
    vocabulary: gw.vocabulary,
    vocabularyNamespace: gw.pack.config.vocabularyNamespace,
    ...(gw.pack.config.names ? { names: gw.pack.config.names } : {}),
    question: q,
    ...(gw.entityScorer ? { scorer: gw.entityScorer } : {}),
  };
}

/** The bare relation name the parser writes for a relation IRI (pack names, else the vocabulary namespace). */
export function relationName(gw: GatewayContext, iri: string): string | undefined {
  for (const [n, i] of Object.entries(gw.pack.config.names ?? {})) if (i === iri) return n;
  return nameInNamespace(iri, gw.pack.config.vocabularyNamespace);
}
