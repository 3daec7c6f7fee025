import type { Candidate, Form, GroundedCandidate, Ref, Relation } from '../core';
import { iriLocalName, isAskgraphError, isFunctionWord, isStopword, itemAt, TRANSIENT_CODES, wordNet } from '../core';
import { classRefs, entityRefs, mapChildren, mapRefs, printForm, relationRefs } from '../form';
import type { EntityHit, EntityIndex, PartialName } from './entity-index';
import { linkEntities, type EntityLink } from './link';
import { labelTokens as tokens, normalizeLabel } from '../core';
import { fuzzySimilarity } from './similarity';
import { readingNote, type Bridge, type RelationHit, type RelationRetriever } from './relations';
import type { Scorer } from './scorers';
import type { RelationInfo } from './store-index';

/**
 * Options of the unsupervised retrieval (ChatKBQA Algorithm 1). Defaults, chosen for the movies pack
 * and documented in the README of src/ground:
 *   kE 5, tE 0.6   entities kept per entity position (similarity in [0, 1]; below 0.6 fuzzy hits are mostly
 *                  unrelated labels that share one word — an honest no-answer beats them)
 *   k1 10, t1 0.3  entity-grounded forms kept per beam form; t1 bounds the product of its entity similarities
 *   kR 3, tR 0.3   relations kept per relation position
 *   k2 10, t2 0.2  relation-grounded forms kept per form; t2 bounds the product of all its similarities
 */
export interface GroundOptions {
  kE?: number;
  tE?: number;
  kR?: number;
  tR?: number;
  k1?: number;
  t1?: number;
  k2?: number;
  t2?: number;
  /** Replace generated entity labels by index hits (false: labels are compiled as exact label matches). */
  entityRetrieval?: boolean;
  /** Replace generated relations by neighbourhood relations when nothing else executes. */
  relationRetrieval?: boolean;
  /** Neighbourhood radius for relation retrieval (1 or 2). Default 2. */
  hops?: 1 | 2;
  /** Only the first phase (exact short-cut, or the beam forms as generated without entity retrieval). */
  exactOnly?: boolean;
  /**
   * Bridge an entity to a relation it never takes by one hop, or read the join the other way round where the entity
   * takes the relation that way (with phase 3; default true). Only with relationRetrieval's store.
   */
  bridges?: boolean;
}

export const GROUND_DEFAULTS = { kE: 5, tE: 0.6, kR: 3, tR: 0.3, k1: 10, t1: 0.3, k2: 10, t2: 0.2, hops: 2 as 1 | 2 };

export type GroundPhase = 'exact' | 'beam' | 'entity' | 'relation' | 'bridge' | 'flip';

export interface GroundAttempt extends GroundedCandidate {
  phase: GroundPhase;
  /** How each entity position was matched ('partial': one word of a longer name; 'inflected': a plural of the label). */
  entityMatches?: NonNullable<EntityHit['match']>[];
  /** Phase 'relation': each relation position's reading with the components of its score (relations.ts readingNote). */
  relationReadings?: string[];
  /** Class names the graph lacks, each with the store class it was read as (relations.ts readingNote). */
  classReadings?: string[];
  /** Phase 'bridge': each hop added between an entity and a relation it never takes ("in_town ← in_province"). */
  bridges?: string[];
  /** Phase 'flip': each join read the other way round ("budget of department_Legal", "without the class Department"). */
  flips?: string[];
}

/**
 * Bridges (with phase 3): the best BRIDGED_FORMS grounded forms each have their joins (JOIN r X) whose entity never takes r
 * (and (JOIN (R r) X) whose entity has no r, where the question names r: `namedBridges`)
 * bridged by one hop (RelationRetriever.bridges); each bridged reading costs ln(BRIDGE_SCORE / n), n the bridges of
 * that join, on the form's combined score.
 */
export const BRIDGED_FORMS = 3;
export const BRIDGE_SCORE = 0.5;
/**
 * Flips (with phase 3, beside the bridges): a form (JOIN r X) whose X is no object of r but a subject of it, read as
 * (JOIN (R r) X); each flipped reading costs ln FLIP_SCORE on its form's combined score — what one bridge costs (a flip
 * changes the parser's reading no more than one added hop does).
 */
export const FLIP_SCORE = BRIDGE_SCORE;
/** How well a question word must read as r to bridge "X's r" (rankPhrase; a clear reading is 0.55). */
export const BRIDGE_WORD = 0.4;

/**
 * A one-word mention that starts or ends several labels ("reeves", "kurosawa") names the one whose entities
 * touch at least DOMINANCE times as many triples as any other's (and at least MIN_DEGREE): a famous name
 * against namesakes. Its score is below a unique partial name's.
 */
const DOMINANCE = 3;
const MIN_DEGREE = 5;
export const PARTIAL_DOMINANT_SCORE = 0.7;

export interface GroundContext {
  index?: EntityIndex;
  relations?: RelationRetriever;
  /** Relation vocabulary of the store (IRI set); empty = unknown, every name is accepted. */
  vocabulary?: Set<string>;
  vocabularyNamespace: string;
  /** The pack's bare names → IRIs (pack.json `names`), resolved before vocabularyNamespace. */
  names?: Record<string, string>;
  /**
   * The question: a generated label that is a (possibly cut) copy of a question span also gets the
   * entities linked in the question around that span — the usual copy errors of a seq2seq parser are
   * cut-off or over-long names ("Forre" for "Forrest Gump").
   */
  question?: string;
  /** Entity similarity (default 0.7 fuzzy + 0.3 BM25; e.g. combineScorers with denseScorer). */
  scorer?: Scorer;
}

/** Every token span of a copied label in the question; the first/last label token may be a cut piece of a question token. */
function locateAllInQuestion(label: string, question: string): { start: number; end: number }[] {
  const q = tokens(question);
  const l = tokens(label);
  const out: { start: number; end: number }[] = [];
  if (l.length === 0 || l.length > q.length) return out;
  for (let i = 0; i + l.length <= q.length; i++) {
    let ok = true;
    for (let j = 0; j < l.length && ok; j++) {
      const a = itemAt(q, i + j);
      const b = itemAt(l, j);
      if (a === b) continue;
      if (l.length === 1) ok = a.includes(b) && b.length >= 3;
      else if (j === 0) ok = a.endsWith(b);
      else if (j === l.length - 1) ok = a.startsWith(b);
      else ok = false;
    }
    if (ok) out.push({ start: i, end: i + l.length });
  }
  return out;
}

/** The first token span of a copied label in the question (see locateAllInQuestion). */
export function locateInQuestion(label: string, question: string): { start: number; end: number } | undefined {
  return locateAllInQuestion(label, question)[0];
}

/**
 * Combined score of a grounded form (higher is better):
 *   score = logP(beam form) + Σ_entities ln(s_e) + Σ_relations ln(s_r)
 * i.e. the log of P(form) × Π similarities, the similarities read as probabilities of the
 * replacement. An exact match (s = 1) costs nothing; a 0.8 fuzzy match costs ln 0.8 ≈ −0.22.
 */
function combinedScore(logProb: number, entityScores: number[], relationScores: number[]): number {
  let s = logProb;
  for (const x of entityScores) s += Math.log(Math.max(x, 1e-9));
  for (const x of relationScores) s += Math.log(Math.max(x, 1e-9));
  return s;
}

function product(xs: number[]): number {
  return xs.reduce((a, b) => a * b, 1);
}

/** The cartesian product of per-position choices, best products first, at most `k` (beam pruning). */
export function permute<T extends { score: number }>(lists: T[][], k: number): { picks: T[]; score: number }[] {
  let acc: { picks: T[]; score: number }[] = [{ picks: [], score: 1 }];
  for (const list of lists) {
    const next: { picks: T[]; score: number }[] = [];
    for (const a of acc) for (const x of list) next.push({ picks: [...a.picks, x], score: a.score * x.score });
    next.sort((a, b) => b.score - a.score);
    acc = next.slice(0, Math.max(1, k));
  }
  return lists.length === 0 ? acc : acc.filter((a) => a.picks.length === lists.length);
}

function relationIri(ref: Ref, ns: string, names?: Record<string, string>): string | undefined {
  if (ref.kind === 'iri') return ref.iri;
  if (ref.kind === 'name') return (names && Object.prototype.hasOwnProperty.call(names, ref.name) ? names[ref.name] : undefined) ?? ns + encodeURIComponent(ref.name);
  return undefined;
}

function refName(ref: Ref): string {
  return ref.kind === 'name' ? ref.name : ref.kind === 'iri' ? ref.iri : ref.label;
}

/** Puts entity IRIs (by position; undefined = keep), relation IRIs and class IRIs (by position) into a form. */
function groundForm(form: Form, entities: (string | undefined)[], relations: (string | undefined)[], classes: readonly (string | undefined)[] = []): Form {
  let ei = 0;
  let ri = 0;
  let ci = 0;
  return mapRefs(form, {
    cls: (ref) => {
      const iri = classes[ci++];
      return iri === undefined ? ref : { kind: 'iri', iri };
    },
    entity: (ref) => {
      const iri = entities[ei++];
      return iri === undefined ? ref : { kind: 'iri', iri };
    },
    relation: (ref) => {
      const iri = relations[ri++];
      return iri === undefined ? ref : { kind: 'iri', iri };
    },
  });
}

function matchesOf(hits: EntityHit[]): NonNullable<EntityHit['match']>[] {
  return hits.map((h) => h.match ?? (h.exact ? 'exact' : 'fuzzy'));
}

function entityIrisOf(form: Form): string[] {
  return entityRefs(form).flatMap((r) => (r.kind === 'iri' ? [r.iri] : []));
}

/**
 * Algorithm 1 of ChatKBQA as a lazy sequence of attempts, in the order they should be executed:
 *   1. exact   — each beam form (beam order) whose label entities all match a label exactly (after
 *                normalisation) and whose relations are in the vocabulary; ambiguous labels permuted;
 *                a longer exact mention in the question around a copied span goes first (cut copies).
 *   1'. beam   — with entity retrieval off: the beam forms as generated (labels compile to label matches).
 *   2. entity  — PermuteByEntity: every beam form with its top-kE entity hits per position (≥ tE),
 *                top k1 per beam form (entity-similarity product ≥ t1); all of them ordered by the
 *                combined score.
 *   3. relation — PermuteByRelation: for each phase-2 form (in order), relations present around its
 *                entities (1–2 hops), top kR per position (≥ tR), top k2 per form (product ≥ t2);
 *                ordered by combined score. Computed only if the earlier phases did not succeed.
 *   bridge   — with phase 3: the best phase-2 and phase-3 forms with each join (JOIN r X) whose X never takes r (or
 *                (JOIN (R r) X), X without r, when the question names r and one more word: `namedBridges`)
 *                bridged by the one hop that links X to r's values (`bridged`); ordered with phase 3's by combined score.
 *   flip     — with the bridges, from the same phase-2 forms (not phase 3's: its relations are not the parser's): a
 *                form (JOIN r X) or (AND C (JOIN r X)) whose X is no object of r but a subject of it, read as
 *                (JOIN (R r) X) (`flipped`); a flip goes before a bridge of the same score.
 * A grounded form is yielded once (first occurrence).
 */
export async function* groundCandidates(candidates: Candidate[], ctx: GroundContext, options: GroundOptions = {}): AsyncGenerator<GroundAttempt> {
  const run = new GroundRun(ctx, options);
  const o = run.o;
  await run.groundClasses(candidates); // class names the graph lacks, read as its classes (in every phase)
  if (!o.entityRetrieval || !ctx.index) {
    yield* run.asGenerated(candidates); // 1'. ablation / no index
    if (!o.relationRetrieval || !ctx.relations || o.exactOnly) return;
  }
  const index = o.entityRetrieval ? ctx.index : undefined;
  if (index) yield* run.exact(candidates, index); // 1.
  if (o.exactOnly) return;
  const byEntity = await run.byEntity(candidates, index); // 2.
  yield* byEntity.fresh;
  if (!o.relationRetrieval || !ctx.relations) return;
  // 3. store queries: only reached when nothing before answered. The relation readings and the bridged readings of the
  // best entity and relation readings, in one order by their combined scores
  const byRelation = (await run.byRelation(byEntity.all, ctx.relations)).sort((a, b) => b.score - a.score);
  const toBridge = o.bridges ? [...bridgeable(byEntity.all), ...bridgeable(byRelation)] : [];
  // a bridged reading scores at most its form's score + ln BRIDGE_SCORE: the relation readings above every such bound
  // come first, and the bridge queries are asked only when none of them answered
  const bound = Math.max(...toBridge.map((g) => g.score)) + Math.log(BRIDGE_SCORE);
  const first = byRelation.findIndex((g) => g.score < bound);
  const above = first < 0 ? byRelation.length : first;
  yield* run.fresh(byRelation.slice(0, above));
  if (toBridge.length === 0) return;
  // (a flip turns the parser's own relation round: not one phase 3 put in its place — two guesses for one reading)
  const flipped = await run.flipped(bridgeable(byEntity.all), ctx.relations);
  const bridged = await run.bridged(toBridge, ctx.relations);
  yield* run.fresh([...byRelation.slice(above), ...flipped, ...bridged].sort((a, b) => b.score - a.score));
}

/** The state of one groundCandidates call: options, the forms already yielded, and the question's entity links. */
class GroundRun {
  readonly o: Required<Omit<GroundOptions, 'exactOnly'>> & Pick<GroundOptions, 'exactOnly'>;
  private readonly seen = new Set<string>();
  private readonly vocab: Set<string>;
  private exactLinks?: EntityLink[];
  private links?: EntityLink[];
  /** Per beam form: the store class each class position reads as (undefined: as written) and its similarity. */
  /** The store's relations (the vocabulary) as ranking candidates, for forms without an entity. */
  private storeRelations?: RelationInfo[];
  private readonly classReadings = new Map<Candidate, { iris: (string | undefined)[]; scores: number[]; notes: string[] }>();

  constructor(
    private readonly ctx: GroundContext,
    options: GroundOptions,
  ) {
    this.o = { ...GROUND_DEFAULTS, entityRetrieval: true, relationRetrieval: true, bridges: true, ...stripUndefined(options) };
    this.vocab = ctx.vocabulary ?? new Set<string>();
  }

  private inVocab(ref: Ref): boolean {
    const iri = relationIri(ref, this.ctx.vocabularyNamespace, this.ctx.names);
    return iri !== undefined && (this.vocab.size === 0 || this.vocab.has(iri));
  }

  /**
   * A class name the graph lacks (not a pack name, not a class of the store under the vocabulary namespace: an
   * open-name model writes `writer` where the graph says Author) is read as the store class its phrase ranks
   * best (relations.ts rankPhrase ≥ tR, as a relation is in phase 3); its similarity counts in the combined score
   * like a relation's. A name no class reads as stays as written.
   */
  async groundClasses(candidates: Candidate[]): Promise<void> {
    const relations = this.ctx.relations;
    const names = this.ctx.names;
    const listed = (ref: Ref): boolean => ref.kind !== 'name' || (names !== undefined && Object.prototype.hasOwnProperty.call(names, ref.name));
    if (!relations || !candidates.some((c) => classRefs(c.form).some((r) => !listed(r)))) return;
    let classes: RelationInfo[];
    try {
      classes = await relations.classes();
    } catch (e) {
      if (isAskgraphError(e) && TRANSIENT_CODES.has(e.code)) throw e; // as a neighbourhood query: it would decide the reading
      return;
    }
    const known = new Set(classes.map((c) => c.iri));
    for (const c of candidates) {
      const readings = classRefs(c.form).map((r) => {
        if (listed(r) || r.kind !== 'name' || known.has(this.ctx.vocabularyNamespace + encodeURIComponent(r.name))) return undefined;
        return relations.rank(r.name, classes, 1, this.o.tR)[0];
      });
      const read = readings.flatMap((h) => (h ? [h] : []));
      if (read.length) this.classReadings.set(c, { iris: readings.map((h) => h?.iri), scores: read.map((h) => h.score), notes: read.map((h) => (h.reading ? readingNote(h.reading) : `${h.name} ${h.score.toFixed(2)}`)) });
    }
  }

  private classesOf(c: Candidate): { iris: (string | undefined)[]; scores: number[]; notes: string[] } {
    return this.classReadings.get(c) ?? { iris: [], scores: [], notes: [] };
  }

  /** The combined score of a grounded beam form (its class readings included). */
  private scoreOf(c: Candidate, es: number[], rs: number[]): number {
    return combinedScore(c.logProb, es, [...rs, ...this.classesOf(c).scores]);
  }

  /** A new attempt, or undefined when the same grounded form was yielded before. */
  private make(c: Candidate, form: Form, es: number[], rs: number[], phase: GroundPhase, matches?: GroundAttempt['entityMatches']): GroundAttempt | undefined {
    const text = printForm(form);
    if (this.seen.has(text)) return undefined;
    this.seen.add(text);
    const notes = this.classesOf(c).notes;
    return { candidate: c, form, text, score: this.scoreOf(c, es, rs), entityScores: es, relationScores: rs, phase, ...(matches ? { entityMatches: matches } : {}), ...(notes.length ? { classReadings: notes } : {}) };
  }

  private generatedRelations(form: Form): (string | undefined)[] {
    return relationRefs(form).map((r) => (this.inVocab(r) ? relationIri(r, this.ctx.vocabularyNamespace, this.ctx.names) : undefined));
  }

  /** 1'. The beam forms as generated (labels compile to label matches). */
  *asGenerated(candidates: Candidate[]): Generator<GroundAttempt> {
    for (const c of candidates) {
      const a = this.make(c, groundForm(c.form, [], this.generatedRelations(c.form), this.classesOf(c).iris), [], [], 'beam');
      if (a) yield a;
    }
  }

  /**
   * Exact index hits of a copied label. A copy cut short can itself be a label ("The Godfather" for "The
   * Godfather Part II"): when the question holds a longer exact mention around the copied span, that entity
   * is tried first (score 1, the cut copy's own hits × 0.9). Every occurrence counts: a copied "What" may be
   * the question word or the start of "What's Eating Gilbert Grape".
   */
  private exactHits(label: string, index: EntityIndex): EntityHit[] {
    const hits = index.exact(label).slice(0, this.o.kE);
    const question = this.ctx.question;
    if (hits.length === 0 || !question) return hits;
    const spans = locateAllInQuestion(label, question);
    if (spans.length === 0) return hits;
    this.exactLinks ??= linkEntities(question, index, { k: 20, maxFuzzySearches: 0 });
    const longer = this.exactLinks.filter((l) => l.exact && spans.some((at) => l.span.start <= at.start && l.span.end >= at.end && l.span.end - l.span.start > at.end - at.start));
    if (longer.length === 0) return hits;
    const seenIri = new Set(longer.map((l) => l.iri));
    return [...longer.map((l) => ({ iri: l.iri, label: l.label, score: 1, exact: true })), ...hits.filter((h) => !seenIri.has(h.iri)).map((h) => ({ ...h, score: 0.9 * h.score }))].slice(0, this.o.kE);
  }

  /** 1. The exact short-cut: beam forms whose labels all match exactly and whose relations are in the vocabulary. */
  *exact(candidates: Candidate[], index: EntityIndex): Generator<GroundAttempt> {
    for (const c of candidates) {
      const refs = entityRefs(c.form);
      const rels = relationRefs(c.form);
      if (!rels.every((r) => this.inVocab(r))) continue;
      const lists: EntityHit[][] = refs.map((r) => (r.kind === 'label' ? this.exactHits(r.label, index) : [{ iri: '', label: '', score: 1, exact: true }]));
      if (lists.some((l) => l.length === 0)) continue;
      for (const p of permute(lists, this.o.k1)) {
        const form = groundForm(c.form, p.picks.map((h) => h.iri || undefined), this.generatedRelations(c.form), this.classesOf(c).iris);
        const a = this.make(c, form, p.picks.map((h) => h.score), rels.map(() => 1), 'exact', matchesOf(p.picks));
        if (a) yield a;
      }
    }
  }

  /**
   * Index hits of a copied label, plus entities linked in the question: around the copied span (0.9 × link
   * score), or — when the copy is garbled and cannot be located — any link, weighted by its similarity to the copy.
   */
  private async entityHits(label: string, index: EntityIndex): Promise<EntityHit[]> {
    const o = this.o;
    const question = this.ctx.question;
    let hits = index.search(label, { k: o.kE, threshold: o.tE, always: true, ...(this.ctx.scorer ? { scorer: this.ctx.scorer } : {}) });
    hits = await this.partialByDegree(label, index, hits);
    if (!question) return hits;
    const spans = locateAllInQuestion(label, question);
    this.links ??= linkEntities(question, index, { k: 10 });
    const best = new Map(hits.map((h) => [h.iri, h]));
    const norm = normalizeLabel(label);
    for (const l of this.links) {
      let score: number;
      if (spans.length > 0) {
        if (!spans.some((at) => l.span.end > at.start && l.span.start < at.end)) continue;
        score = 0.9 * l.score;
      } else {
        score = l.score * (0.5 + 0.5 * fuzzySimilarity(norm, normalizeLabel(l.label)));
      }
      if ((best.get(l.iri)?.score ?? -1) < score) best.set(l.iri, { iri: l.iri, label: l.label, score, exact: false, match: l.exact ? 'exact' : 'fuzzy' });
    }
    return [...best.values()].filter((h) => h.score >= o.tE).sort((a, b) => b.score - a.score).slice(0, o.kE);
  }

  /**
   * Partial names weighed by the graph: a one-word mention that starts or ends several labels gets the
   * dominant one (see DOMINANCE), and the entities of a unique partial name are tried most connected first
   * (a person before a tag spelt alike); when no name stands out, none of them is kept. Without a store (no
   * relation retriever) the hits stay as the index scored them.
   */
  private async partialByDegree(label: string, index: EntityIndex, hits: EntityHit[]): Promise<EntityHit[]> {
    const relations = this.ctx.relations;
    if (!relations) return hits;
    const spelt = hits.filter((h) => h.exact);
    const names: PartialName[] = index.partialNames(label, spelt.length > 0);
    if (names.length === 0) return hits;
    let degree: Map<string, number>;
    try {
      degree = await relations.degrees([...names.flatMap((n) => n.hits.map((h) => h.iri)), ...spelt.map((h) => h.iri)]);
    } catch (e) {
      // a degree query that could not be finished (timed out, store away) stops the question: it would decide
      // which name is meant; any other failure leaves the partial names as the index scored them
      if (isAskgraphError(e) && TRANSIENT_CODES.has(e.code)) throw e;
      return hits;
    }
    const deg = (h: EntityHit) => degree.get(h.iri) ?? 0;
    const ranked = names
      .map((n) => ({ hits: [...n.hits].sort((a, b) => deg(b) - deg(a)), degree: Math.max(...n.hits.map(deg)) }))
      .sort((a, b) => b.degree - a.degree);
    const [top, second] = ranked;
    if (!top) return hits;
    if (spelt.length > 0) {
      // A word some label spells ("kubrick", a tag) may still be a surname: the dominant name ("Stanley Kubrick",
      // with DOMINANCE× the triples of the spelt entities and of any other name) is a second reading, after it.
      const dominant = top.degree >= MIN_DEGREE && top.degree >= DOMINANCE * Math.max(...spelt.map(deg)) && (!second || top.degree >= DOMINANCE * second.degree);
      if (!dominant) return hits;
      const ids = new Set(hits.map((h) => h.iri));
      const second_ = top.hits.filter((h) => !ids.has(h.iri)).map((h) => ({ ...h, score: PARTIAL_DOMINANT_SCORE * h.score }));
      return [...hits, ...second_].slice(0, Math.max(this.o.kE, hits.length + 1));
    }
    let chosen: EntityHit[];
    if (!second) chosen = top.hits.map((h) => ({ ...h, score: hits.find((x) => x.iri === h.iri)?.score ?? h.score }));
    else if (top.degree >= MIN_DEGREE && top.degree >= DOMINANCE * second.degree) chosen = top.hits.map((h) => ({ ...h, score: PARTIAL_DOMINANT_SCORE * h.score }));
    else {
      // No name stands out: a fuzzy hit that is one of these names ("quentin" ~ Quentin Crisp) is a guess, not a reading.
      const named = new Set(names.flatMap((n) => n.hits.map((h) => h.iri)));
      return hits.filter((h) => !named.has(h.iri));
    }
    const ids = new Set(chosen.map((h) => h.iri));
    return [...chosen, ...hits.filter((h) => !ids.has(h.iri))].sort((a, b) => b.score - a.score).slice(0, this.o.kE);
  }

  /**
   * 2. PermuteByEntity: `fresh` are the new forms to yield (best first); `all` every entity-grounded form,
   * already yielded ones included (phase 3 re-grounds their relations).
   */
  async byEntity(candidates: Candidate[], index: EntityIndex | undefined): Promise<{ fresh: GroundAttempt[]; all: GroundAttempt[] }> {
    const entityForms: GroundAttempt[] = [];
    const all: GroundAttempt[] = [];
    const cache = new Map<string, EntityHit[]>(); // beam forms share mentions
    const hitsOf = async (label: string, index: EntityIndex) => {
      let h = cache.get(label);
      if (!h) cache.set(label, (h = await this.entityHits(label, index)));
      return h;
    };
    for (const c of candidates) {
      const refs = entityRefs(c.form);
      const lists: EntityHit[][] = [];
      for (const r of refs) lists.push(r.kind === 'label' && index ? await hitsOf(r.label, index) : [{ iri: '', label: '', score: 1, exact: true }]);
      if (lists.some((l) => l.length === 0)) continue;
      const perms = permute(lists, this.o.k1).filter((p) => p.score >= this.o.t1);
      for (const p of perms) {
        const form = groundForm(c.form, p.picks.map((h) => h.iri || undefined), this.generatedRelations(c.form), this.classesOf(c).iris);
        const es = p.picks.map((h) => h.score);
        const text = printForm(form);
        const item: GroundAttempt = { candidate: c, form, text, score: this.scoreOf(c, es, []), entityScores: es, relationScores: [], phase: 'entity', entityMatches: matchesOf(p.picks) };
        all.push(item);
        if (!this.seen.has(text)) entityForms.push(item);
      }
    }
    entityForms.sort((a, b) => b.score - a.score);
    const fresh: GroundAttempt[] = [];
    for (const g of entityForms) {
      const a = this.make(g.candidate, g.form, g.entityScores, relationRefs(g.form).map(() => 1), 'entity', g.entityMatches);
      if (a) fresh.push(a);
    }
    return { fresh, all };
  }

  /** 3. PermuteByRelation: for the best entity-grounded forms, the relations around their entities (1–2 hops). */
  async byRelation(entityForms: GroundAttempt[], relations: RelationRetriever): Promise<GroundAttempt[]> {
    const o = this.o;
    const sorted = [...entityForms].sort((a, b) => b.score - a.score);
    const relForms: GroundAttempt[] = [];
    for (const g of sorted.slice(0, o.k1)) {
      const ents = entityIrisOf(g.form);
      const rels = relationRefs(g.candidate.form);
      let lists: RelationHit[][];
      if (ents.length === 0) {
        // no entity to look around (`(GT number_of_pages 300)`): a relation the graph lacks (an open-name model's
        // words) is read among all the store's relations; one the graph has stays
        if (rels.every((r) => this.inVocab(r)) || this.vocab.size === 0) continue;
        this.storeRelations ??= [...this.vocab].map((iri) => ({ iri, name: iriLocalName(iri) }));
        const all = this.storeRelations;
        lists = rels.map((r) => {
          const iri = this.inVocab(r) ? relationIri(r, this.ctx.vocabularyNamespace, this.ctx.names) : undefined;
          return iri !== undefined ? [{ iri, name: refName(r), score: 1 }] : relations.rank(refName(r), all, o.kR, o.tR);
        });
      } else {
        let around: RelationInfo[];
        try {
          around = await relations.neighbourhood(ents, o.hops);
        } catch (e) {
          // a neighbourhood query that could not be finished (timed out, store away) stops the question (the
          // variants it would add could win); any other failure only removes this form's relation variants
          if (isAskgraphError(e) && TRANSIENT_CODES.has(e.code)) throw e;
          continue;
        }
        lists = rels.map((r) => relations.rank(refName(r), around, o.kR, o.tR));
      }
      if (lists.some((l) => l.length === 0)) continue;
      for (const p of permute(lists, o.k2).filter((p) => product(g.entityScores) * p.score >= o.t2)) {
        const ents2 = entityRefs(g.form).map((r) => (r.kind === 'iri' ? r.iri : undefined));
        const form = groundForm(g.candidate.form, ents2, p.picks.map((h) => h.iri), this.classesOf(g.candidate).iris);
        const rs = p.picks.map((h) => h.score);
        const readings = p.picks.map((h) => (h.reading ? readingNote(h.reading) : `${h.name} ${h.score.toFixed(2)}`));
        relForms.push({ candidate: g.candidate, form, text: printForm(form), score: this.scoreOf(g.candidate, g.entityScores, rs), entityScores: g.entityScores, relationScores: rs, phase: 'relation', relationReadings: readings, ...(g.entityMatches ? { entityMatches: g.entityMatches } : {}) });
      }
    }
    return relForms;
  }

  /**
   * Bridges (with phase 3): for each form (`bridgeable`), each join (JOIN r X) whose X never takes r (or (JOIN (R r) X)
   * whose X has no r, where `namedBridges` lets it), read with the
   * hop that links X to r's values in its place (RelationRetriever.bridges) — the
   * parser named the relation and the place, not the step between them ("shops in Norvale" read as
   * (JOIN in_town [ Norvale ]), a province). Each bridge is a reading of its own (`fresh` drops those yielded before).
   */
  async bridged(forms: GroundAttempt[], relations: RelationRetriever): Promise<GroundAttempt[]> {
    const out: GroundAttempt[] = [];
    for (const g of forms) {
      for (const [k, j] of iriJoins(g.form).entries()) {
        // (a question that cannot pass namedBridges whatever the bridges are asks the store nothing)
        if (j.reversed && !this.mayName(j.relation, relations, g.form, g.candidate.form)) continue;
        let found: Bridge[];
        try {
          found = await relations.bridges(j.relation, j.reversed, j.entity);
        } catch (e) {
          // as a neighbourhood query: one that could not be finished stops the question (its readings could win)
          if (isAskgraphError(e) && TRANSIENT_CODES.has(e.code)) throw e;
          continue;
        }
        // "X's r" ((JOIN (R r) X)) with X lacking r is mostly a fact the graph lacks: the r of X's neighbours answers
        // another question (a person's missing attribute read as the tags of the person's films) unless the
        // question names r and one more thing (`namedBridges`)
        if (j.reversed) found = this.namedBridges(found, relations, j.relation, g.form, g.candidate.form);
        for (const b of found) {
          const form = withBridge(g.form, k, b);
          const note = `${iriLocalName(j.relation)} ← ${b.inverse ? '(R ' : ''}${iriLocalName(b.iri)}${b.inverse ? ')' : ''} → ${iriLocalName(j.entity)}`;
          out.push({ ...g, form, text: printForm(form), score: g.score + Math.log(BRIDGE_SCORE / found.length), phase: 'bridge', bridges: [note] });
        }
      }
    }
    return out;
  }

  /**
   * Flips (with the bridges): each form (`bridgeable`) that asks for "what has r X" — (JOIN r X), or a class and it,
   * (AND C (JOIN r X)) — where X is no object of r but a subject of it, read as "X's r", (JOIN (R r) X): the parser named
   * the relation and the entity and wrote the direction backwards ("the budget of the Legal department" as (JOIN budget
   * [ Legal department ]): the departments whose budget is Legal). A class of which X itself is a member goes too
   * ((AND Department (JOIN budget X)) with X a department is X's budget: the parser wrote X's class as the answer's).
   * Only the whole answer is turned round: inside a ranking, a count or a chain the parser's set is another one
   * ("the earliest hired in Sales" as (ARGMIN (JOIN headedBy [ Sales ]) hireDate): Sales's head is no ranking). Never
   * "X's r" into "what has r X": X lacking r is mostly a fact the graph lacks (as for the bridges, `namedBridges`).
   */
  async flipped(forms: GroundAttempt[], relations: RelationRetriever): Promise<GroundAttempt[]> {
    const out: GroundAttempt[] = [];
    for (const g of forms) {
      const top = askedJoin(g.form);
      if (!top) continue;
      const { join, j } = top;
      let form: Form;
      let note = `${iriLocalName(j.relation)} of ${iriLocalName(j.entity)} read the other way round`;
      try {
        // X takes r as the form writes it (r's object), or is no r's subject either: nothing to flip
        if ((await relations.takes(j.relation, j.entity, true)) || !(await relations.takes(j.relation, j.entity, false))) continue;
        const cls = top.cls && relationIri(top.cls, this.ctx.vocabularyNamespace, this.ctx.names);
        const own = cls !== undefined && (await relations.isA(j.entity, cls));
        if (own) note += `, without its own class ${iriLocalName(cls)}`;
        form = top.cls && !own ? { kind: 'and', args: [{ kind: 'class', ref: top.cls }, flipJoin(join)] } : flipJoin(join);
      } catch (e) {
        // as a bridge query: one that could not be finished stops the question (its readings could win)
        if (isAskgraphError(e) && TRANSIENT_CODES.has(e.code)) throw e;
        continue;
      }
      out.push({ ...g, form, text: printForm(form), score: g.score + Math.log(FLIP_SCORE), phase: 'flip', flips: [note] });
    }
    return out;
  }

  /**
   * The bridges of "X's r" ((JOIN (R r) X), X lacking r): all of them when the question names r — a content word (no
   * stop or function word, no word of a mention) reads best as r among the bridges and the form's relations, at
   * BRIDGE_WORD or more (relations.ts rankPhrase, WordNet and GloVe) — and holds another one that is mostly a noun,
   * the hop ("the gender of X's darling"); else none: the question asks for r of X itself, which the graph lacks ("how
   * tall is X" read as X's tags; "how many directors did X have").
   */
  namedBridges(found: Bridge[], relations: RelationRetriever, relation: string, form: Form, generated: Form): Bridge[] {
    if (found.length === 0) return [];
    const words = this.contentWords(generated);
    const naming = namingWords(words, [...found.map((b) => b.iri), ...ownRelations(form)], relation, relations);
    return naming.length > 0 && words.some((w) => !naming.includes(w) && mostlyNoun(w)) ? found : [];
  }

  /**
   * Whether namedBridges could pass, asked before the store: among the form's own relations alone some word reads
   * best as r, and another word is mostly a noun. (More candidates only take words from r, so this is necessary.)
   */
  mayName(relation: string, relations: RelationRetriever, form: Form, generated: Form): boolean {
    const words = this.contentWords(generated);
    const naming = namingWords(words, ownRelations(form), relation, relations);
    return words.some((w) => mostlyNoun(w) && naming.some((n) => n !== w));
  }

  /** The question's content words: no stop or function word, no word of the parser's mentions ([] without the question). */
  private contentWords(generated: Form): string[] {
    const question = this.ctx.question;
    if (!question) return [];
    const mentions = new Set(entityRefs(generated).flatMap((r) => (r.kind === 'label' ? tokens(r.label) : [])));
    return [...new Set(tokens(question))].filter((w) => /\p{L}{3,}/u.test(w) && !isStopword(w) && !isFunctionWord(w) && !mentions.has(w));
  }

  /** The forms not yielded before (phases 3 and bridge), in their order, with their class readings. */
  fresh(forms: GroundAttempt[]): GroundAttempt[] {
    const out: GroundAttempt[] = [];
    for (const g of forms) {
      if (this.seen.has(g.text)) continue;
      this.seen.add(g.text);
      const notes = this.classesOf(g.candidate).notes;
      out.push(notes.length ? { ...g, classReadings: notes } : g);
    }
    return out;
  }
}

/** Where (JOIN r X) holds in a form: r's IRI, whether it is written (R r), X's IRI. */
interface EntityJoin {
  relation: string;
  reversed: boolean;
  entity: string;
}

/** The node as a join of a relation IRI (or its reverse) with an entity IRI; undefined when it is none. */
function iriJoin(f: Form): EntityJoin | undefined {
  if (f.kind !== 'join' || f.arg.kind !== 'entity' || f.arg.ref.kind !== 'iri') return undefined;
  const rel = f.relation.kind === 'reverse' ? f.relation.of : f.relation;
  return rel.kind === 'rel' && rel.ref.kind === 'iri' ? { relation: rel.ref.iri, reversed: f.relation.kind === 'reverse', entity: f.arg.ref.iri } : undefined;
}

/** The form's iriJoin nodes, in the order mapChildren visits them. */
function iriJoins(form: Form): EntityJoin[] {
  const out: EntityJoin[] = [];
  const visit = (f: Form): Form => {
    const j = iriJoin(f);
    if (j) out.push(j);
    return mapChildren(f, visit);
  };
  visit(form);
  return out;
}

/**
 * The forms grounding bridges (with phase 3): the best BRIDGED_FORMS whose relations are all the store's and that hold
 * an iriJoin (in either direction).
 */
function bridgeable(forms: GroundAttempt[]): GroundAttempt[] {
  return [...forms].sort((a, b) => b.score - a.score).filter((g) => relationRefs(g.form).every((r) => r.kind === 'iri') && iriJoins(g.form).length > 0).slice(0, BRIDGED_FORMS);
}

/** The form with the k-th of its iriJoins' entities replaced by (JOIN p X) or (JOIN (R p) X). */
function withBridge(form: Form, k: number, bridge: Bridge): Form {
  let seen = -1;
  const put = (f: Form): Form => {
    if (f.kind === 'join' && iriJoin(f) && ++seen === k) {
      const rel: Relation = { kind: 'rel', ref: { kind: 'iri', iri: bridge.iri } };
      return { ...f, arg: { kind: 'join', relation: bridge.inverse ? { kind: 'reverse', of: rel } : rel, arg: f.arg } };
    }
    return mapChildren(f, put);
  };
  return put(form);
}

/** "What has r X" as a whole form: (JOIN r X), or (AND C (JOIN r X)) either way round, with the class's ref. */
function askedJoin(form: Form): { join: Form & { kind: 'join' }; j: EntityJoin; cls?: Ref } | undefined {
  const plain = (f: Form) => (f.kind === 'join' && f.relation.kind !== 'reverse' ? iriJoin(f) : undefined);
  const j = plain(form);
  if (j && form.kind === 'join') return { join: form, j };
  if (form.kind !== 'and') return undefined;
  const [a, b] = form.args;
  for (const [c, f] of [[a, b], [b, a]] as const) {
    const fj = plain(f);
    if (c.kind === 'class' && fj && f.kind === 'join') return { join: f, j: fj, cls: c.ref };
  }
  return undefined;
}

/** (JOIN r X) read the other way round: (JOIN (R r) X). */
function flipJoin(f: Form & { kind: 'join' }): Form {
  return { ...f, relation: { kind: 'reverse', of: f.relation } };
}

/** The relation IRIs a grounded form holds. */
function ownRelations(form: Form): string[] {
  return relationRefs(form).flatMap((r) => (r.kind === 'iri' ? [r.iri] : []));
}

/** The words that read best as `relation` among the candidate relations, at BRIDGE_WORD or more (relations.ts rankPhrase). */
function namingWords(words: string[], candidates: string[], relation: string, relations: RelationRetriever): string[] {
  const infos = [...new Set(candidates)].map((iri) => ({ iri, name: iriLocalName(iri) }));
  return words.filter((w) => relations.rank(w, infos, 1, BRIDGE_WORD)[0]?.iri === relation);
}

/** A word WordNet knows as a noun at least as often as an adjective ("darling", "heir"; not "tall", "many"). */
function mostlyNoun(word: string): boolean {
  const wn = wordNet();
  const nouns = wn.senses(wn.baseForms(word, 'n')[0] ?? word, 'n').length;
  return nouns > 0 && nouns >= wn.senses(word, 'a').length;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
