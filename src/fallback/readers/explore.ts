/**
 * Exploration reader (Think-on-Graph with lightweight exploration, paper 003): beam search over the
 * graph from the topic entities, where the pruning that ToG asks of a language model is done by a
 * retriever — BM25 between the question and each candidate relation's "passage" (its label words plus
 * its strongest mined vocabulary words), then BM25 between the question and entity labels.
 *
 * Each beam holds a relation path and the set of entities it reached (≤ entitiesPerRelation). At every
 * depth: (1) relation exploration — the relations leaving the beam's entities, ranked by BM25 against
 * the question words not yet consumed, the best `width` (beam, relation) pairs kept; (2) entity
 * exploration — the entities reached, ranked by BM25 of their labels (ties in a fixed hash order),
 * pruned to `entitiesPerRelation`. The words of the chosen relation's passage are consumed; a beam
 * stops when no question word is left, when no relation matches what is left, or at `depth`. Every
 * explored path (of any length) is an answer candidate; the candidates are then
 * ranked by the vocabulary likelihood of the question given their relation chain; the answers are the
 * frontier entities of the best one.
 */
import type { Evidence, Term } from '../../core';
import { fnv1a, getOrAdd, itemAt, pushTo } from '../../core';
import type { BudgetGuard } from '../budget';
import { expand, termKey, type Edge } from '../graph';
import { Bm25, questionContentTerms, questionTerms, terms as textTerms } from '../text';
import type { ReaderContext, ReaderResult } from '../types';
import { HopModel } from '../vocabulary';
import { evidenceTriple, item, labelsFor, relationName, topicBarred, GuardedReader } from './common';

export interface ExploreReaderOptions {
  width?: number;
  depth?: number;
  entitiesPerRelation?: number;
  hubDegree?: number;
  maxTopics?: number;
  /** Minimum BM25 score for a relation to be followed. */
  minRelationScore?: number;
  /** Share of BM25 against the whole question (not only the unconsumed words). */
  bridgeWeight?: number;
  /** Weight of the vocabulary's hop prior in the final path ranking. */
  priorWeight?: number;
  maxAnswers?: number;
}

interface Beam {
  hops: { p: string; name: string; dir: '>' | '<' }[];
  /** Entities reached, each with the edges that led to it from a topic. */
  nodes: Map<string, { term: Term; path: Edge[] }>;
  remaining: string[];
  score: number;
}

export class ExploreReader extends GuardedReader {
  readonly name = 'explore';
  readonly opts: Required<ExploreReaderOptions>;

  constructor(opts: ExploreReaderOptions = {}) {
    super();
    this.opts = { width: 4, depth: 3, entitiesPerRelation: 40, hubDegree: 100, maxTopics: 2, minRelationScore: 0.05, bridgeWeight: 0.3, priorWeight: 0.6, maxAnswers: 200, ...opts };
  }

  protected override async run(ctx: ReaderContext, guard: BudgetGuard): Promise<ReaderResult> {
    const o = this.opts;
    const model = new HopModel(ctx.relationVocabulary);
    const topics = [...ctx.topics].sort((a, b) => b.score - a.score).slice(0, o.maxTopics);
    let beams: Beam[] = topics.map((t) => ({
      hops: [],
      nodes: new Map([[t.iri, { term: { type: 'uri', value: t.iri }, path: [] }]]),
      remaining: questionContentTerms(ctx.question, [t.label]),
      score: Math.log(Math.max(t.score, 1e-9)),
    }));
    let labels = new Map<string, string>();
    const allTerms = questionContentTerms(ctx.question, topics.map((t) => t.label));
    /** Words that belong to some relation's passage (seen so far): exploration goes on while any is left. */
    const relationWords = new Set<string>();
    const finished = new Set<Beam>();
    const topicIris = new Set(ctx.topics.map((t) => t.iri));
    const docCache = new Map<string, string[]>();
    const doc = (name: string, dir: '>' | '<') => getOrAdd(docCache, name + dir, () => model.relationDocument(name, dir));
    for (const k of Object.keys(ctx.relationVocabulary?.keys ?? {})) for (const w of doc(k.slice(0, -2), k[k.length - 2] as '>' | '<')) relationWords.add(w);
    for (let d = 0; d < o.depth; d++) {
      const frontier = new Map<string, Term>();
      for (const b of beams) for (const [k, n] of b.nodes) frontier.set(k, n.term);
      const { edges } = await expand(guard, [...frontier.values()], { hubDegree: o.hubDegree, labelPredicates: ctx.labelPredicates });
      labels = await labelsFor(guard, new Set(edges.map((e) => e.p)), labels);
      const adj = new Map<string, { p: string; dir: '>' | '<'; edge: Edge; to: Term }[]>();
      for (const e of edges) {
        const sk = termKey(e.s);
        const ok = termKey(e.o);
        pushTo(adj, sk, { p: e.p, dir: '>', edge: e, to: e.o });
        pushTo(adj, ok, { p: e.p, dir: '<', edge: e, to: e.s });
      }
      // Relation exploration: BM25 against the words not consumed yet, plus a smaller share against
      // the whole question (so a bridge hop such as "movies of that director" can reuse a word).
      const options: { beam: Beam; p: string; name: string; dir: '>' | '<'; score: number }[] = [];
      for (const beam of beams) {
        const rels = new Map<string, { p: string; dir: '>' | '<' }>();
        for (const [k] of beam.nodes) for (const a of adj.get(k) ?? []) rels.set(a.p + a.dir, { p: a.p, dir: a.dir });
        const list = [...rels.values()].map((r) => ({ ...r, name: relationName(r.p, labels) }));
        for (const r of list) for (const w of doc(r.name, r.dir)) relationWords.add(w);
        // Every explored path is an answer candidate; it is explored further while words are left.
        if (beam.hops.length) finished.add(beam);
        if (!list.length || !beam.remaining.length) continue;
        const bm = new Bm25(list.map((r) => doc(r.name, r.dir)));
        const direct = bm.score(beam.remaining);
        const whole = bm.score(allTerms);
        list.forEach((r, i) => {
          const own = itemAt(direct, i, 'relation score');
          const score = own + o.bridgeWeight * itemAt(whole, i, 'relation score');
          if (own >= o.minRelationScore || (d > 0 && score >= o.minRelationScore)) options.push({ beam, ...r, score });
        });
      }
      if (!options.length) break; // the question's relation words are exhausted
      options.sort((a, b) => b.score - a.score || b.beam.score - a.beam.score || (a.p + a.dir < b.p + b.dir ? -1 : 1));
      const next: Beam[] = [];
      for (const opt of options.slice(0, o.width)) {
        // Entity exploration: entities reached through this relation, pruned by BM25 of their labels.
        const reached = new Map<string, { term: Term; path: Edge[] }>();
        for (const [k, n] of opt.beam.nodes) {
          // Paths do not go on through a topic entity reached again where it may not be an answer there either.
          if (topicIris.has(k) && topicBarred(ctx, opt.beam.hops)) continue;
          for (const a of adj.get(k) ?? []) {
            if (a.p !== opt.p || a.dir !== opt.dir) continue;
            const tk = termKey(a.to);
            if (!reached.has(tk)) reached.set(tk, { term: a.to, path: [...n.path, a.edge] });
          }
        }
        const list = [...reached.entries()];
        labels = await labelsFor(guard, list.map(([, n]) => n.term).filter((t) => t.type === 'uri').slice(0, 2000), labels);
        const eScores = new Bm25(list.map(([, n]) => textTerms(n.term.type === 'literal' ? n.term.value : labels.get(n.term.value) ?? ''))).score(opt.beam.remaining);
        const kept = list
          .map(([k, n], i) => ({ k, n, s: itemAt(eScores, i, 'entity score'), h: fnv1a(k) }))
          .sort((a, b) => b.s - a.s || a.h - b.h)
          .slice(0, o.entitiesPerRelation);
        const consumed = new Set(doc(opt.name, opt.dir));
        next.push({
          hops: [...opt.beam.hops, { p: opt.p, name: opt.name, dir: opt.dir }],
          nodes: new Map(kept.map((x) => [x.k, x.n])),
          remaining: opt.beam.remaining.filter((w) => !consumed.has(w)),
          score: opt.beam.score + opt.score,
        });
      }
      beams = next;
      guard.checkTime();
    }
    // Answer selection among the explored paths (ToG's final reasoning step, without a language
    // model): each path is scored by the vocabulary's likelihood of the question given its relation
    // chain (HopModel.scoreChain, as in the paths reader), minus one nat per relation word left.
    const qTerms = questionTerms(ctx.question, topics.map((t) => t.label));
    const left = (b: Beam) => b.remaining.filter((w) => relationWords.has(w)).length;
    const final = (b: Beam) => model.scoreChain(qTerms, b.hops, o.priorWeight) - left(b);
    const ranked = [...new Set([...finished, ...beams])]
      .filter((b) => b.hops.length)
      .map((b) => ({ b, s: final(b) }))
      .sort((a, b) => b.s - a.s || b.b.score - a.b.score)
      .map((x) => x.b);
    for (const beam of ranked) {
      const barred = topicBarred(ctx, beam.hops);
      const answers = [...beam.nodes.values()].filter((n) => !(barred && n.term.type === 'uri' && topicIris.has(n.term.value))).slice(0, o.maxAnswers);
      if (!answers.length) continue;
      labels = await labelsFor(guard, answers.flatMap((a) => a.path.flatMap((e) => [e.s, e.o])), labels);
      const chain = beam.hops.map((h) => h.name + h.dir).join(' ');
      const evidence: Evidence[] = answers.map((a) => ({ triples: a.path.map((e) => evidenceTriple(e, labels)), score: beam.score, note: `explored ${chain}` }));
      return {
        answers: answers.map((a) => item(a.term, labels)),
        evidence,
        confidence: 0.4 * (beam.remaining.length === 0 ? 1 : 0.5),
        stats: guard.stats(),
        note: `beam ${chain} (score ${beam.score.toFixed(2)}, unmatched words: ${beam.remaining.join(' ') || 'none'})`,
      };
    }
    return { reason: 'exploration found no relation matching the question' };
  }
}
