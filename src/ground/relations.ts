import { LRUCache } from 'lru-cache';
import type { Executor, SelectResult } from '../core';
import { inDictionary, isStopword, itemAt, RDF_TYPE, relationWords } from '../core';
import { relatedWords, wordNearness, wordVectors, WORDNET_SCORES, type WordVectors } from './lexical';
import { bridgeQuery, classesQuery, degreesQuery, isAQuery, neighbourIrisQuery, neighbours1Query, neighbours2Query, takesQuery } from './queries';
import { fuzzySimilarity, jaccard } from './similarity';
import { iriLocalName } from '../core';
import type { RelationInfo } from './store-index';

export interface RelationHit {
  iri: string;
  name: string;
  score: number;
  /** The components of the score (phraseReading), for the trace. */
  reading?: PhraseReading;
}

/** A relation one hop from an entity to the values of another relation (RelationRetriever.bridges). */
export interface Bridge {
  iri: string;
  /** true: the entity is the subject of the bridge's triples ((R p) in the bridged form); false: its object. */
  inverse: boolean;
}

export interface RelationRetrieverOptions {
  /** Predicates never offered as relations (label / alias predicates; rdf:type is never offered either). */
  exclude?: string[];
  /** Neighbours sampled for the second hop. Default 50. */
  sample?: number;
  /** LIMIT of each neighbourhood query. Default 500. */
  limit?: number;
  timeoutMs?: number;
  /** Known labels of relation IRIs (scored besides the local name). */
  labels?: Map<string, string>;
  /** Most classes read from the store (classes()). Default 2000. */
  classLimit?: number;
}

/** Letters two words begin with alike. */
function sharedStart(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * Whether two names (as words) may be spellings of one another, so that string similarity is evidence: where a word
 * that is not in both is no dictionary word (a misspelling, an abbreviation, a code), or where each such word begins
 * like one of the other's (English word forms differ at the end: "nation" / "nationality", "directed" / "director";
 * the first min(3, half of the shorter) letters or more). Two different dictionary words that only end alike
 * ("occupation" / "location", "place of death" / "place of birth") are no spellings of one another: what relates
 * them is their meaning (WordNet, word vectors), not their letters.
 */
export function spellingNear(a: string, b: string): boolean {
  const aw = a.split(' ').filter(Boolean);
  const bw = b.split(' ').filter(Boolean);
  const onlyA = aw.filter((w) => !bw.includes(w));
  const onlyB = bw.filter((w) => !aw.includes(w));
  if (onlyA.length === 0 || onlyB.length === 0) return true;
  if (![...onlyA, ...onlyB].every((w) => inDictionary(w))) return true;
  const begins = (x: string, ys: string[]) => ys.some((y) => sharedStart(x, y) >= Math.max(3, Math.ceil(Math.min(x.length, y.length) / 2)));
  return onlyA.every((x) => begins(x, onlyB)) && onlyB.every((y) => begins(y, onlyA));
}

/**
 * Similarity of a generated relation name and a store relation, in [0, 1]: names as words
 * (underscores, dots, camelCase → spaces), the best of fuzzy string similarity (where the names may be spellings of
 * one another: spellingNear), word Jaccard and 0.9 × word containment,
 * against the local name and (when known) the label. Identical names score 1.
 */
export function relationSimilarity(generated: string, candidate: RelationInfo, label?: string): number {
  if (generated === candidate.name || generated === candidate.iri) return 1;
  const g = relationWords(iriLocalName(generated));
  let best = 0;
  for (const text of [candidate.name, label]) {
    if (!text) continue;
    const c = relationWords(text);
    if (c === g) return 1;
    const gw = new Set(g.split(' '));
    const cw = new Set(c.split(' '));
    const words = jaccard(gw, cw);
    // Containment (overlap coefficient) × 0.9: "film.film.directed_by" vs "directed_by" (domain prefixes).
    let inter = 0;
    for (const w of gw) if (cw.has(w)) inter++;
    const contained = (0.9 * inter) / Math.min(gw.size, cw.size);
    // (spellingNear only where the letters would decide: rankPhrase scores every relation for every phrase)
    const fuzzy = fuzzySimilarity(g, c);
    best = Math.max(best, words, contained);
    if (fuzzy > best && spellingNear(g, c)) best = fuzzy;
  }
  return best;
}

/** Content words of a name or phrase ("hasInstrument" → instrument; "based in" → based); all its words if none is content. */
export function contentWords(text: string): string[] {
  const all = relationWords(iriLocalName(text)).split(' ').filter(Boolean);
  const content = all.filter((w) => !isStopword(w) && !/^\p{N}+$/u.test(w));
  return content.length > 0 ? content : all;
}

/** How a relation or class phrase reads as one relation (or class) of the graph, with the components of its score. */
export interface PhraseReading {
  iri: string;
  name: string;
  /** The score ranked by: max(lexical, semantic) × the fit factor. */
  score: number;
  /** relationSimilarity: the names as strings and words. */
  lexical: number;
  /** WordNet only: mean of the phrase-side and name-side word coverage by WordNet links. */
  wordnet: number;
  /** GloVe only: the same coverage by word-vector cosines (relative to hubness, lexical.ts). */
  vectors: number;
  /** Both (each word pair at the better of the two). */
  semantic: number;
  /** 1: the topic entity has this relation; 0: it does not; undefined: not known. */
  fit?: number;
  /** The strongest word link ("old→age attribute", "cello→instrument hypernym"). */
  via?: string;
}

export interface PhraseContext {
  /** Labels of relation / class IRIs (scored besides the local name). */
  labels?: Map<string, string>;
  /** Relations the grounded topic entity actually has (domain/range fit); undefined: unknown. */
  around?: ReadonlySet<string>;
  /** Labels of the grounded entities of the phrase ("plays [the cello]"): their WordNet hypernyms count as phrase words. */
  objects?: readonly string[];
  vectors?: WordVectors;
}

/** The least semantic similarity that counts as evidence for a relation (below it, the lexical score alone). */
export const SEMANTIC_FLOOR = 0.3;

/** Weight of the phrase-side coverage (each phrase word's nearest name word) against the name side's. */
export const PHRASE_WEIGHT = 0.6;

/** Weight of a relation the topic entity does not have, against one it has. */
export const NO_FIT_FACTOR = 0.6;

/**
 * Phrase-level grounding: how well a relation (or class) phrase — a generated name, or words of the question —
 * reads as one relation of the graph. The best of the lexical similarity (relationSimilarity) and a semantic one:
 * each content word of the phrase is matched to its nearest word of the relation's name or label (wordNearness:
 * WordNet synonyms, derivations, adjective ↔ attribute links and hypernyms, GloVe cosine) and each word of the
 * name to its nearest phrase word (or a hypernym of an entity of the phrase: "plays the cello" → instrument); the
 * two coverages are weighed PHRASE_WEIGHT : 1 − PHRASE_WEIGHT. A relation the topic entity lacks (ctx.around) is weighed down (NO_FIT_FACTOR).
 */
export function phraseReading(phrase: string, candidate: RelationInfo, ctx: PhraseContext = {}): PhraseReading {
  const label = ctx.labels?.get(candidate.iri);
  const lexical = relationSimilarity(phrase, candidate, label);
  const vectors = ctx.vectors ?? wordVectors();
  const p = contentWords(phrase);
  const objectWords = new Map<string, string>(); // hypernym word → the object label word it came from
  for (const o of ctx.objects ?? []) {
    for (const w of contentWords(o)) {
      for (const [h, link] of relatedWords(w)) if (link.kind === 'hypernym' || link.kind === 'synonym') for (const hw of h.split(' ')) if (!objectWords.has(hw)) objectWords.set(hw, w);
    }
  }
  let best = { wordnet: 0, vectors: 0, semantic: 0, via: undefined as string | undefined };
  for (const text of [candidate.name, label]) {
    if (!text) continue;
    const r = contentWords(text);
    let via: { score: number; text: string } | undefined;
    const note = (a: string, b: string, score: number, how: string) => {
      if (!via || score > via.score) via = { score, text: `${a}→${b} ${how}` };
    };
    const near = (a: string, b: string) => {
      const n = wordNearness(a, b, vectors);
      note(a, b, n.score, n.via);
      return n;
    };
    const pairs = p.map((a) => r.map((b) => near(a, b)));
    const cover = (pick: (n: ReturnType<typeof near>) => number) => {
      const phraseSide = p.map((_, i) => Math.max(0, ...(pairs[i] ?? []).map(pick)));
      const nameSide = r.map((b, j) => {
        let m = Math.max(0, ...pairs.map((row) => pick(itemAt(row, j, 'word pairs'))));
        const from = objectWords.get(b);
        if (from !== undefined) {
          m = Math.max(m, WORDNET_SCORES.hypernym);
          note(from, b, WORDNET_SCORES.hypernym, 'hypernym of the entity');
        }
        return m;
      });
      const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
      // what the phrase says weighs more than every word of the name ("staff" for "employee count")
      return PHRASE_WEIGHT * mean(phraseSide) + (1 - PHRASE_WEIGHT) * mean(nameSide);
    };
    const wordnet = cover((n) => n.wordnet);
    const vec = cover((n) => n.vectors);
    const semantic = Math.max(wordnet, cover((n) => n.score), vec);
    if (semantic > best.semantic) best = { wordnet, vectors: vec, semantic, via: (via as { text: string } | undefined)?.text };
    else best = { ...best, wordnet: Math.max(best.wordnet, wordnet), vectors: Math.max(best.vectors, vec) };
  }
  const fit = ctx.around ? (ctx.around.has(candidate.iri) ? 1 : 0) : undefined;
  // a semantic match is evidence, not identity: it stays below an exact name (1); a weak one (below SEMANTIC_FLOOR:
  // GloVe puts most words of one domain 0.3–0.45 apart, "written" and "starred") is no evidence at all
  const raw = Math.max(lexical, best.semantic >= SEMANTIC_FLOOR ? 0.95 * best.semantic : 0);
  const score = fit === 0 ? raw * NO_FIT_FACTOR : raw;
  return {
    iri: candidate.iri,
    name: candidate.name,
    score,
    lexical,
    wordnet: best.wordnet,
    vectors: best.vectors,
    semantic: best.semantic,
    ...(fit !== undefined ? { fit } : {}),
    ...(best.via && best.semantic >= SEMANTIC_FLOOR && lexical < 0.95 * best.semantic ? { via: best.via } : {}),
  };
}

/** Every candidate ranked as a reading of the phrase (best first; ties by name). */
export function rankPhrase(phrase: string, candidates: readonly RelationInfo[], ctx: PhraseContext = {}): PhraseReading[] {
  let readings = candidates.map((c) => phraseReading(phrase, c, ctx));
  // a phrase the graph spells exactly is that relation: semantic neighbours of it ("directed" ~ "starred" in GloVe)
  // are other relations, not other readings of it — they keep only their lexical score
  if (readings.some((r) => r.lexical === 1)) readings = readings.map((r) => (r.lexical === 1 ? r : { ...r, score: r.fit === 0 ? r.lexical * NO_FIT_FACTOR : r.lexical, via: undefined }));
  return readings.sort((a, b) => b.score - a.score || b.lexical - a.lexical || a.name.localeCompare(b.name));
}

/** The reading's components in words, for a trace note. */
export function readingNote(r: PhraseReading): string {
  const f = (x: number) => x.toFixed(2);
  return `${r.name} ${f(r.score)} (lexical ${f(r.lexical)}, wordnet ${f(r.wordnet)}, vectors ${f(r.vectors)}${r.fit !== undefined ? `, fit ${r.fit}` : ''}${r.via ? `; ${r.via}` : ''})`;
}

/**
 * Relation retrieval: candidates are the predicates actually present around the grounded entities
 * (1 and 2 hops, asked of the store with LIMITs and cached per entity set), scored against the
 * generated relation name.
 */
export class RelationRetriever {
  private readonly cache = new LRUCache<string, RelationInfo[]>({ max: 2000 });
  private readonly degreeCache = new LRUCache<string, number>({ max: 20000 });
  private readonly exclude: Set<string>;

  constructor(
    private readonly executor: Executor,
    private readonly opts: RelationRetrieverOptions = {},
  ) {
    // never rdf:type: a form says a class with a class name ((AND Restaurant …)), and a relation name read as rdf:type
    // answers the graph's classes, which no relation phrase asks for
    this.exclude = new Set([RDF_TYPE, ...(opts.exclude ?? [])]);
  }

  /** Predicates within `hops` (1 or 2) of the entities (never rdf:type or an excluded predicate). */
  async neighbourhood(entities: string[], hops: 1 | 2 = 2): Promise<RelationInfo[]> {
    const ents = [...new Set(entities)].sort();
    if (ents.length === 0) return [];
    const key = `${hops}\u0000${ents.join('\u0000')}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const limit = this.opts.limit ?? 500;
    const t = { timeoutMs: this.opts.timeoutMs ?? 5000 };
    const found = new Map<string, RelationInfo>();
    const collect = (rows: { p?: { type: string; value: string } }[]) => {
      for (const r of rows) {
        if (r.p?.type !== 'uri' || this.exclude.has(r.p.value)) continue;
        found.set(r.p.value, { iri: r.p.value, name: iriLocalName(r.p.value) });
      }
    };
    collect((await this.executor.select(neighbours1Query(ents, limit), t)).rows);
    if (hops === 2) collect(await this.secondHop(ents, limit, t));
    const out = [...found.values()];
    this.cache.set(key, out);
    return out;
  }

  /**
   * Predicates around up to `sample` neighbours of the entities (neighbours2Query). When the entities have at most
   * `sample` IRI neighbours the sample is all of them, whatever order the store finds them in: their predicates are
   * the first hop's query on those neighbours (neighbours1Query, which Virtuoso answers by index; a full result,
   * fewer than `limit` rows, is the same set). Otherwise which neighbours are sampled is the store's choice, and
   * the query is the same as ever, so the readings never change with the shape.
   */
  private async secondHop(ents: string[], limit: number, t: { timeoutMs: number }): Promise<SelectResult['rows']> {
    const sample = this.opts.sample ?? 50;
    const near = await this.executor.select(neighbourIrisQuery(ents, sample + 1), t);
    if (near.rows.length <= sample) {
      const iris = near.rows.flatMap((r) => (r.m?.type === 'uri' ? [r.m.value] : []));
      if (iris.length === 0) return [];
      const split = await this.withClassesApart(iris, limit, t);
      if (split) return split;
      const all = await this.executor.select(neighbours1Query(iris, limit), t);
      if (all.rows.length < limit) return all.rows;
    }
    return (await this.executor.select(neighbours2Query(ents, sample, limit), t)).rows;
  }

  /**
   * The first hop's query on the neighbours with the store's classes among them asked apart, each once and kept
   * (`classPredicates`): a class is the neighbour of each of its members, and its predicates cost most of the query —
   * 0.45 of 0.5 s for a class of ~2M members on the 28M-triple Virtuoso, asked again by every question near a member.
   * The rows are the same set as the one query's when every part is complete and their union stays under `limit`;
   * otherwise (or with no class among the neighbours, or no class list) undefined: the one query is asked as before.
   */
  private async withClassesApart(iris: string[], limit: number, t: { timeoutMs: number }): Promise<SelectResult['rows'] | undefined> {
    if (this.noClassList) return undefined;
    let classes: Set<string>;
    try {
      classes = new Set((await this.classes()).map((c) => c.iri));
    } catch {
      this.noClassList = true; // a store that cannot list its classes in time is not asked again
      return undefined;
    }
    const apart = iris.filter((i) => classes.has(i));
    const rest = iris.filter((i) => !classes.has(i));
    if (apart.length === 0) return undefined;
    const parts: SelectResult['rows'][] = [];
    for (const c of apart) {
      let rows = this.classPredicates.get(c);
      if (!rows) {
        rows = (await this.executor.select(neighbours1Query([c], limit), t)).rows;
        this.classPredicates.set(c, rows);
      }
      parts.push(rows);
    }
    if (rest.length > 0) parts.push((await this.executor.select(neighbours1Query(rest, limit), t)).rows);
    if (parts.some((rows) => rows.length >= limit)) return undefined;
    const union = new Map<string, SelectResult['rows'][number]>();
    for (const rows of parts) for (const r of rows) if (r.p && !union.has(r.p.value)) union.set(r.p.value, r);
    return union.size < limit ? [...union.values()] : undefined;
  }

  private readonly classPredicates = new LRUCache<string, SelectResult['rows']>({ max: 1000 });
  private noClassList = false;

  /**
   * The store's classes (objects of rdf:type, at most `classLimit`, default 2000), asked once: the candidates a
   * class name the parser wrote but the graph lacks is read as (search.ts, the same phrase ranking as relations).
   */
  classes(): Promise<RelationInfo[]> {
    this.classList ??= this.executor.select(classesQuery(this.opts.classLimit ?? 2000), { timeoutMs: this.opts.timeoutMs ?? 5000 }).then(
      (res) => res.rows.flatMap((r) => (r.c?.type === 'uri' ? [{ iri: r.c.value, name: iriLocalName(r.c.value) }] : [])),
      (e: unknown) => {
        this.classList = undefined; // a failed query is asked again next time
        throw e;
      },
    );
    return this.classList;
  }

  private classList?: Promise<RelationInfo[]>;

  /**
   * The relations that bridge an entity to a relation it never takes: for (JOIN r X) (`reversed` false: X as r's
   * object) or (JOIN (R r) X) (X as r's subject) with no such triple, the relations p with a triple between X and
   * some value of r in that place — so (JOIN r (JOIN p X)) or (JOIN r (JOIN (R p) X)) holds where the form held
   * nothing ("shops in Norvale", a province: shops are in towns, towns in provinces). [] when X does take r,
   * or nothing links them; never rdf:type or an excluded (label) predicate. At most `limit` (default 8), in IRI order
   * (the store's order is not the answer's business). Cached.
   */
  async bridges(relation: string, reversed: boolean, entity: string, limit = 8): Promise<Bridge[]> {
    const key = `${relation}\u0000${String(reversed)}\u0000${entity}`;
    const hit = this.bridgeCache.get(key);
    if (hit) return hit;
    const t = { timeoutMs: this.opts.timeoutMs ?? 5000 };
    let out: Bridge[] = [];
    if (!(await this.takes(relation, entity, !reversed))) {
      const rows = (await this.executor.select(bridgeQuery(relation, entity, !reversed, this.opts.limit ?? 500), t)).rows;
      const seen = new Set<string>();
      for (const r of rows) {
        if (r.p?.type !== 'uri' || this.exclude.has(r.p.value) || r.p.value === relation) continue;
        const b = { iri: r.p.value, inverse: r.d?.value === '2' };
        const k = `${b.iri} ${String(b.inverse)}`;
        if (seen.has(k)) continue;
        seen.add(k);
        out.push(b);
      }
      out = out.sort((a, b) => (a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : Number(a.inverse) - Number(b.inverse))).slice(0, limit);
    }
    this.bridgeCache.set(key, out);
    return out;
  }

  private readonly bridgeCache = new LRUCache<string, Bridge[]>({ max: 2000 });

  /** Whether the entity is a value of the relation: its object (`asObject`), else its subject. Cached. */
  async takes(relation: string, entity: string, asObject: boolean): Promise<boolean> {
    return this.askCached(`takes\u0000${relation}\u0000${String(asObject)}\u0000${entity}`, () => takesQuery(relation, entity, asObject));
  }

  /** Whether the entity is a member of the class. Cached. */
  async isA(entity: string, cls: string): Promise<boolean> {
    return this.askCached(`isA\u0000${cls}\u0000${entity}`, () => isAQuery(entity, cls));
  }

  /** Whether a one-row query has its row, asked once per key. */
  private async askCached(key: string, query: () => string): Promise<boolean> {
    const hit = this.askCache.get(key);
    if (hit !== undefined) return hit;
    const yes = (await this.executor.select(query(), { timeoutMs: this.opts.timeoutMs ?? 5000 })).rows.length > 0;
    this.askCache.set(key, yes);
    return yes;
  }

  private readonly askCache = new LRUCache<string, boolean>({ max: 5000 });

  /** How many triples touch each entity (cached; an entity in no triple has 0). */
  async degrees(entities: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const missing = [...new Set(entities)].filter((e) => {
      const d = this.degreeCache.get(e);
      if (d !== undefined) out.set(e, d);
      return d === undefined;
    });
    if (missing.length > 0) {
      const res = await this.executor.select(degreesQuery(missing), { timeoutMs: this.opts.timeoutMs ?? 5000 });
      for (const e of missing) out.set(e, 0);
      for (const r of res.rows) if (r.e?.type === 'uri' && r.n) out.set(r.e.value, Number(r.n.value));
      for (const e of missing) this.degreeCache.set(e, out.get(e) ?? 0);
    }
    return out;
  }

  /** Top k relations for a generated name among the candidates, score ≥ threshold. */
  rank(generated: string, candidates: RelationInfo[], k = 3, threshold = 0.3): RelationHit[] {
    const ctx: PhraseContext = this.opts.labels ? { labels: this.opts.labels } : {};
    return rankPhrase(generated, candidates, ctx)
      .filter((r) => r.score >= threshold)
      .slice(0, k)
      .map((r) => ({ iri: r.iri, name: r.name, score: r.score, reading: r }));
  }
}
