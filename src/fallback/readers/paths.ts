/**
 * Relation-path reader (GSR, paper 000): enumerate the relation chains of length ≤ maxHops that
 * exist from each topic entity (asked of the store hop by hop, hubs and frontiers sampled), rank
 * them against the question — by the parser model scoring the chain as a logical form when a scorer
 * is given, and by the mined relation vocabulary / relation-label words — then execute the best
 * chains exactly (SPARQL, LIMIT) and keep at most three executable ones, as in the paper.
 * The answers are the ends of the best chain (plus chains 2–3 when they score within a margin);
 * every answer carries the path that reaches it.
 */
import type { Evidence, Term } from '../../core';
import { bindingOf, getOrAdd, itemAt, pushTo } from '../../core';
import type { BudgetGuard } from '../budget';
import { expand, predicatesOf, sample, termKey } from '../graph';
import { chainQuery, iri } from '../sparql';
import { questionContentTerms, questionTerms } from '../text';
import type { Hop, ReaderContext, ReaderResult, Topic } from '../types';
import { chainToForm, HopModel } from '../vocabulary';
import { evidenceTriple, excludeTopics, labelsFor, relationName, item, topicBarred, GuardedReader } from './common';

export interface PathReaderOptions {
  maxHops?: number;
  /** Topics (best first) to start from. */
  maxTopics?: number;
  hubDegree?: number;
  maxFrontier?: number;
  /** Chains kept (executable), as in GSR. */
  keepChains?: number;
  /** Chains tried for execution before giving up. */
  maxExecute?: number;
  /** Chains sent to the model scorer (best lexical first); 8 keeps the reader within ~500 ms p95 on movies. */
  scoreTop?: number;
  /** Weight of the model log-probability relative to the lexical log-likelihood ratio. */
  modelWeight?: number;
  /** Weight of the hop prior of the vocabulary (see HopModel.scoreChain). */
  priorWeight?: number;
  /**
   * Cost (nats) of a hop that no content word of the question speaks for, × its shortfall of one expected
   * word (HopModel.unexplainedHops): an extra hop the question does not ask for ranks a chain below the
   * shorter one that explains the same words. The same cost for each relation the question names
   * (ctx.relationWords) that the chain has no hop of: a chain that leaves out "club" of "a club with a player from
   * X" ranks below the one through the players' clubs. 0 turns both off.
   */
  unexplainedHopCost?: number;
  /** Weight of log(topic score / best topic score). */
  topicWeight?: number;
  /** Chains 2..keep contribute answers when within this margin of the best score. */
  answerMargin?: number;
  maxRows?: number;
  maxAnswers?: number;
}

interface Candidate {
  topic: Topic;
  hops: Hop[];
  lex: number;
  model?: number;
  score: number;
  /** How many relations the question names (ctx.relationWords) the chain has no hop of. */
  unnamed: number;
  /** 1: the chain ends on something other than what the question asks for (ctx.answerFits), else 0. */
  misfit: number;
}

export class PathReader extends GuardedReader {
  readonly name = 'paths';
  readonly opts: Required<PathReaderOptions>;

  constructor(opts: PathReaderOptions = {}) {
    super();
    this.opts = {
      maxHops: 3,
      maxTopics: 2,
      hubDegree: 100,
      maxFrontier: 300,
      keepChains: 3,
      maxExecute: 8,
      scoreTop: 8,
      modelWeight: 1,
      priorWeight: 0.6,
      unexplainedHopCost: 2,
      topicWeight: 2,
      answerMargin: 0.5,
      maxRows: 3000,
      maxAnswers: 200,
      ...opts,
    };
  }

  /** Relation chains (with their hop names) that exist from one topic. */
  async enumerate(ctx: ReaderContext, guard: BudgetGuard, topic: Topic): Promise<Hop[][]> {
    const o = this.opts;
    const x: Term = { type: 'uri', value: topic.iri };
    const xo = { labelPredicates: ctx.labelPredicates, hubDegree: o.hubDegree };
    type Level = Map<string, { hops: { p: string; dir: '>' | '<' }[]; ends: Map<string, Term> }>;
    const extend = (level: Level, adj: Map<string, { p: string; dir: '>' | '<'; to?: Term }[]>, out: Level, allowed: Set<string>) => {
      for (const c of level.values()) {
        for (const [k] of c.ends) {
          if (!allowed.has(k)) continue;
          for (const a of adj.get(k) ?? []) {
            const hops = [...c.hops, { p: a.p, dir: a.dir }];
            const key = hops.map((h) => h.p + h.dir).join(' ');
            const entry = getOrAdd(out, key, () => ({ hops, ends: new Map<string, Term>() }));
            if (a.to) entry.ends.set(termKey(a.to), a.to);
          }
        }
      }
    };
    const adjacency = (edges: { s: Term; p: string; o: Term }[]) => {
      const adj = new Map<string, { p: string; dir: '>' | '<'; to: Term }[]>();
      for (const e of edges) {
        const sk = termKey(e.s);
        const ok = termKey(e.o);
        pushTo(adj, sk, { p: e.p, dir: '>', to: e.o });
        pushTo(adj, ok, { p: e.p, dir: '<', to: e.s });
      }
      return adj;
    };
    const start: Level = new Map([['', { hops: [], ends: new Map([[termKey(x), x]]) }]]);
    const levels: Level[] = [];
    let current = start;
    for (let d = 1; d <= o.maxHops; d++) {
      const frontierAll = new Map<string, Term>();
      for (const c of current.values()) for (const [k, t] of c.ends) frontierAll.set(k, t);
      const frontier = sample([...frontierAll.values()], o.maxFrontier, termKey);
      const allowed = new Set(frontier.map(termKey));
      const next: Level = new Map();
      if (d < o.maxHops) {
        const { edges } = await expand(guard, frontier, xo);
        extend(current, adjacency(edges), next, allowed);
      } else {
        // Last hop: only which predicates leave the frontier, not the edges themselves.
        const preds = await predicatesOf(guard, frontier, { labelPredicates: ctx.labelPredicates });
        const adj = new Map<string, { p: string; dir: '>' | '<' }[]>();
        for (const pr of preds) {
          const k = termKey(pr.node);
          pushTo(adj, k, { p: pr.p, dir: pr.dir });
        }
        extend(current, adj, next, allowed);
      }
      levels.push(next);
      current = next;
      guard.checkTime();
    }
    const chains: Hop[][] = [];
    for (const level of levels) for (const c of level.values()) chains.push(c.hops.map((h) => ({ ...h, name: h.p })));
    return chains;
  }

  protected override async run(ctx: ReaderContext, guard: BudgetGuard): Promise<ReaderResult> {
    const o = this.opts;
    const model = new HopModel(ctx.relationVocabulary);
    const topics = [...ctx.topics].sort((a, b) => b.score - a.score).slice(0, o.maxTopics);
    const maxTopicScore = Math.max(...topics.map((t) => t.score), 1e-9);
    let candidates: Candidate[] = [];
    const predicateIris = new Set<string>();
    for (const topic of topics) {
      const chains = await this.enumerate(ctx, guard, topic);
      for (const ch of chains) for (const h of ch) predicateIris.add(h.p);
      candidates.push(...chains.map((hops) => ({ topic, hops, lex: 0, score: 0, unnamed: 0, misfit: 0 })));
    }
    if (!candidates.length) return { reason: 'no relation chain leaves the topic entities' };
    const labels = await labelsFor(guard, predicateIris);
    const termsByTopic = new Map(topics.map((t) => [t.iri, questionTerms(ctx.question, [t.label])]));
    const contentByTopic = new Map(topics.map((t) => [t.iri, questionContentTerms(ctx.question, [t.label])]));
    const named = new Set((ctx.relationWords ?? []).map((r) => r.iri));
    for (const c of candidates) {
      for (const h of c.hops) h.name = relationName(h.p, labels);
      const topicPrior = o.topicWeight * Math.log(Math.max(c.topic.score, 1e-9) / maxTopicScore);
      // a relation the question names (ctx.relationWords) explains its hop; one that no hop of the chain is costs the same
      const unexplained = { contentTerms: contentByTopic.get(c.topic.iri) ?? [], cost: o.unexplainedHopCost, named: (i: number) => named.has(itemAt(c.hops, i).p) };
      c.unnamed = [...named].filter((p) => !c.hops.some((h) => h.p === p)).length;
      const last = c.hops[c.hops.length - 1];
      c.misfit = last && ctx.answerFits && !ctx.answerFits(last) ? 1 : 0;
      c.lex = model.scoreChain(termsByTopic.get(c.topic.iri) ?? [], c.hops, o.priorWeight, unexplained) + topicPrior - o.unexplainedHopCost * c.unnamed;
      c.score = c.lex;
    }
    candidates.sort(byScore);
    let modelNote = '';
    if (ctx.scorer) {
      const top = candidates.slice(0, o.scoreTop);
      const forms = top.map((c) => chainToForm(c.topic.label, c.hops));
      let lp: number[] | null = null;
      try {
        lp = await ctx.scorer(ctx.question, forms);
      } catch (e) {
        modelNote = ` (model scorer failed: ${(e as Error).message}; lexical ranking only)`;
      }
      if (lp) {
        // Forms the model cannot write (-Infinity) rank just below the worst form it can.
        const finite = lp.filter(Number.isFinite);
        const floor = finite.length ? Math.min(...finite) - 5 : 0;
        top.forEach((c, i) => {
          const model = lp[i];
          c.model = model !== undefined && Number.isFinite(model) ? model : floor;
          c.score = c.lex + o.modelWeight * c.model;
        });
        candidates = [...top.sort(byScore), ...candidates.slice(o.scoreTop).map((c) => ({ ...c, score: -Infinity }))];
      }
    }
    // Execute in rank order; keep the first `keepChains` executable chains.
    // the topics are kept out of the answers (true, 'every-hop'), or of the node a retraced pair of hops reaches
    const answersLeaveOut = excludeTopics(ctx);
    const exclude = ctx.topics.map((t) => iri(t.iri));
    const excludeAt = (hops: Hop[]) => (answersLeaveOut ? [hops.length] : topicBarred(ctx, hops.slice(0, 2)) ? [2] : []);
    const kept: { c: Candidate; rows: Term[][] }[] = [];
    for (const c of candidates.slice(0, o.maxExecute)) {
      if (kept.length >= o.keepChains) break;
      const res = await guard.select(chainQuery([iri(c.topic.iri)], c.hops, exclude, excludeAt(c.hops), o.maxRows));
      const rows = res.rows.map((r) => [bindingOf(r, 't'), ...c.hops.map((_, i) => bindingOf(r, `x${i + 1}`))]);
      if (rows.length) kept.push({ c, rows });
    }
    if (!kept.length) return { reason: `none of the ${Math.min(o.maxExecute, candidates.length)} best relation chains is executable` };
    const best = itemAt(kept, 0).c.score;
    // Support of an answer = paths of its chain that do not pass through a topic entity again
    // (a path back through the topic only restates the topic's own facts); answers rank by support.
    // Only when topics are excluded from the answers (else a path back to the topic may be the point).
    const topicKeys = new Set(answersLeaveOut ? ctx.topics.map((t) => t.iri) : []);
    const answerPaths = new Map<string, { path: Term[]; chain: number; support: number }>();
    const first = itemAt(kept, 0).c;
    kept.forEach(({ c, rows }, ci) => {
      if (ci > 0 && (c.score < best - o.answerMargin || c.unnamed > first.unnamed || c.misfit > first.misfit)) return;
      for (const r of rows) {
        const k = termKey(itemAt(r, -1, 'answer path'));
        const inner = r.slice(1, -1).some((t) => t.type === 'uri' && topicKeys.has(t.value)) ? 0 : 1;
        const a = answerPaths.get(k);
        if (a) {
          if (a.chain === ci) {
            a.support += inner;
            if (inner && a.support === 1) a.path = r;
          }
        } else answerPaths.set(k, { path: r, chain: ci, support: inner });
      }
    });
    // With topics excluded (MetaQA convention), an answer reached only back through a topic is not an
    // answer either ("films that share directors with X" are not X, nor X's genres).
    const supported = [...answerPaths.values()].filter((a) => a.support > 0);
    const pool = topicKeys.size && supported.length ? supported : [...answerPaths.values()];
    const ordered = pool
      .sort((a, b) => a.chain - b.chain || b.support - a.support || (termKey(itemAt(a.path, -1)) < termKey(itemAt(b.path, -1)) ? -1 : 1))
      .slice(0, o.maxAnswers);
    const nodeTerms: Term[] = ordered.flatMap((a) => a.path);
    const allLabels = await labelsFor(guard, nodeTerms, labels);
    const evidence: Evidence[] = ordered.map((a) => {
      const c = itemAt(kept, a.chain, 'kept chains').c;
      const triples = c.hops.map((h, i) => {
        const from = itemAt(a.path, i, 'answer path');
        const to = itemAt(a.path, i + 1, 'answer path');
        return evidenceTriple(h.dir === '>' ? { s: from, p: h.p, o: to } : { s: to, p: h.p, o: from }, allLabels);
      });
      return { triples, score: c.score, note: `chain ${chainToForm(c.topic.label, c.hops)}` };
    });
    const answers = ordered.map((a) => item(itemAt(a.path, -1, 'answer path'), allLabels));
    // Confidence: softmax weight of the chosen chain among the ten best, on the 0.6 fallback scale.
    const top = candidates.slice(0, 10).map((c) => c.score).filter(Number.isFinite);
    const z = top.reduce((s, x) => s + Math.exp(x - best), 0);
    const confidence = 0.6 * (z > 0 ? 1 / z : 0);
    return {
      answers,
      evidence,
      confidence,
      stats: guard.stats(),
      note: `chains: ${kept.map(({ c }) => `${chainToForm(c.topic.label, c.hops)} (${c.score.toFixed(2)})`).join('; ')}${modelNote}`,
    };
  }
}

/**
 * A chain that ends on what the question asks for (ctx.answerFits: the class it names) comes first, then one that holds
 * more of the relations the question names, as a reading that uses a named relation beats one that leaves it out
 * (src/pipeline checks.ts relationUnused); then the score.
 */
function byScore(a: Candidate, b: Candidate): number {
  return a.misfit - b.misfit || a.unnamed - b.unnamed || b.score - a.score || (a.hops.length - b.hops.length) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
}
function key(c: Candidate): string {
  return c.topic.iri + ' ' + c.hops.map((h) => h.p + h.dir).join(' ');
}
