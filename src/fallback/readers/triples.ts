/**
 * Triple-scoring reader (SubgraphRAG, paper 002), without the LLM and with a transparent rule in
 * place of the trained MLP:
 *
 * 1. Fetch every triple within `hops` of the topic entities (budgeted; hubs sampled, see graph.ts).
 * 2. Directional distance encoding (DDE) exactly as in the paper: s⁰ = one-hot "is a topic";
 *    forward rounds s^(l+1)(e) = MEAN{ s^(l)(e') : (e', ·, e) }, reverse rounds over (e, ·, e').
 * 3. Score all triples independently ("in parallel"):
 *      score(h,r,t) = sem(question, r, orientation) + entityWeight · overlap(question, far-end label)
 *                     + ddeWeight · DDE mass at the near end − distanceWeight · hop distance of the near end
 *    where sem is the vocabulary's log-likelihood ratio for r (best role) and the orientation says
 *    which end the topics reach first (forward when it is the subject).
 * 4. The top-K triples are the evidence subgraph.
 * 5. Answer rule (transparent, no trained reader): the entities connected to a topic inside the
 *    top-K subgraph are grouped by the relation sequence of their best path from the topic; the
 *    sequence the vocabulary likelihood prefers for the question wins; its entities are the answers,
 *    ranked by the summed triple scores of their paths.
 */
import type { Evidence, Term } from '../../core';
import { defined, getOrAdd, pushTo } from '../../core';
import type { BudgetGuard } from '../budget';
import { fetchNeighbourhood, termKey, type Edge } from '../graph';
import { questionContentTerms, questionTerms, terms as textTerms } from '../text';
import type { ReaderContext, ReaderResult, Topic } from '../types';
import { HopModel } from '../vocabulary';
import { evidenceTriple, item, labelsFor, relationName, topicBarred, topicTerms, GuardedReader } from './common';

export interface TripleReaderOptions {
  hops?: number;
  topK?: number;
  hubDegree?: number;
  maxFrontier?: number;
  maxTopics?: number;
  ddeWeight?: number;
  distanceWeight?: number;
  entityWeight?: number;
  priorWeight?: number;
  maxAnswers?: number;
  /** Entity labels fetched for the entity-overlap feature (largest neighbourhoods skip the rest). */
  maxLabelled?: number;
}

export interface ScoredEdge {
  edge: Edge;
  score: number;
  /** '>' when the topic reaches the triple at its subject, '<' at its object. */
  dir: '>' | '<';
  name: string;
}

export interface ScoredNeighbourhood {
  scored: ScoredEdge[];
  labels: Map<string, string>;
  topics: Topic[];
  graphSize: number;
}

const DEFAULTS: Required<TripleReaderOptions> = {
  hops: 2,
  topK: 100,
  hubDegree: 100,
  maxFrontier: 400,
  maxTopics: 2,
  ddeWeight: 1,
  distanceWeight: 0.25,
  entityWeight: 0.5,
  priorWeight: 0.6,
  maxAnswers: 200,
  maxLabelled: 4000,
};

/** Steps 1–4: the neighbourhood's triples, each scored, best first. Shared with the LLM reader. */
export async function scoreNeighbourhood(ctx: ReaderContext, guard: BudgetGuard, options: TripleReaderOptions = {}): Promise<ScoredNeighbourhood> {
  const o = { ...DEFAULTS, ...options };
  const topics = [...ctx.topics].sort((a, b) => b.score - a.score).slice(0, o.maxTopics);
  const topicIris = new Set(topics.map((t) => t.iri));
  const { graph, distance } = await fetchNeighbourhood(
    guard,
    topicTerms({ ...ctx, topics }),
    { hops: o.hops, hubDegree: o.hubDegree, maxFrontier: o.maxFrontier, labelPredicates: ctx.labelPredicates },
  );
  const preds = new Set(graph.edges.map((e) => e.p));
  const nodeIris = [...graph.nodes.values()].filter((t) => t.type === 'uri').slice(0, o.maxLabelled);
  const labels = await labelsFor(guard, [...preds, ...nodeIris]);
  guard.checkTime();

  // DDE: forward and reverse mean-propagation of the topic indicator.
  const keys = [...graph.nodes.keys()];
  const s0 = new Map(keys.map((k) => [k, topicIris.has(k) ? 1 : 0]));
  const fwd: Map<string, number>[] = [];
  const rev: Map<string, number>[] = [];
  let f = s0;
  let r = s0;
  for (let l = 0; l < o.hops; l++) {
    const nf = new Map<string, number>();
    const nr = new Map<string, number>();
    for (const k of keys) {
      const ins = graph.in.get(k) ?? [];
      const outs = graph.out.get(k) ?? [];
      nf.set(k, ins.length ? ins.reduce((s, e) => s + (f.get(termKey(e.s)) ?? 0), 0) / ins.length : 0);
      nr.set(k, outs.length ? outs.reduce((s, e) => s + (r.get(termKey(e.o)) ?? 0), 0) / outs.length : 0);
    }
    fwd.push(nf);
    rev.push(nr);
    f = nf;
    r = nr;
  }
  const massF = (k: string) => (s0.get(k) ?? 0) + fwd.reduce((s, m) => s + (m.get(k) ?? 0), 0);
  const massR = (k: string) => (s0.get(k) ?? 0) + rev.reduce((s, m) => s + (m.get(k) ?? 0), 0);

  const model = new HopModel(ctx.relationVocabulary);
  const qTerms = questionTerms(ctx.question, topics.map((t) => t.label));
  const qContent = new Set(questionContentTerms(ctx.question, topics.map((t) => t.label)));
  const semCache = new Map<string, number>();
  const sem = (name: string, dir: '>' | '<') => {
    const k = name + dir;
    let v = semCache.get(k);
    if (v === undefined) {
      v = model.scoreRelation(qTerms, name, dir);
      semCache.set(k, v);
    }
    return v;
  };
  const overlap = (t: Term) => {
    const label = t.type === 'literal' ? t.value : labels.get(t.value);
    if (!label) return 0;
    const lt = textTerms(label);
    return lt.length ? lt.filter((x) => qContent.has(x)).length / lt.length : 0;
  };
  // Orientation: the near end is the one the neighbourhood fetch reached first (hop distance);
  // the structural feature is the DDE mass at the near end (forward + reverse rounds) minus a small
  // distance term, since MetaQA-style paths mix directions, which pure DDE rounds do not reach.
  const scored: ScoredEdge[] = graph.edges.map((edge) => {
    const sk = termKey(edge.s);
    const ok = termKey(edge.o);
    const name = relationName(edge.p, labels);
    const ds = distance.get(sk) ?? o.hops;
    const dO = distance.get(ok) ?? o.hops;
    const dir: '>' | '<' = ds <= dO ? '>' : '<';
    const nk = dir === '>' ? sk : ok;
    const far = dir === '>' ? edge.o : edge.s;
    const structure = o.ddeWeight * (massF(nk) + massR(nk)) - o.distanceWeight * Math.min(ds, dO);
    const score = sem(name, dir) + o.entityWeight * overlap(far) + structure;
    return { edge, score, dir, name };
  });
  scored.sort((a, b) => b.score - a.score || (edgeKey(a.edge) < edgeKey(b.edge) ? -1 : 1));
  return { scored, labels, topics, graphSize: graph.edges.length };
}

function edgeKey(e: Edge): string {
  return `${termKey(e.s)} ${e.p} ${termKey(e.o)}`;
}

export class TripleReader extends GuardedReader {
  readonly name = 'triples';
  readonly opts: Required<TripleReaderOptions>;

  constructor(opts: TripleReaderOptions = {}) {
    super();
    this.opts = { ...DEFAULTS, ...opts };
  }

  protected override async run(ctx: ReaderContext, guard: BudgetGuard): Promise<ReaderResult> {
    const o = this.opts;
    const { scored, labels, topics, graphSize } = await scoreNeighbourhood(ctx, guard, o);
    if (!scored.length) return { reason: 'no triples around the topic entities' };
    const top = scored.slice(0, o.topK);
    const topicKeys = new Set(topics.map((t) => t.iri));

    // Connectivity inside the top-K subgraph: BFS from the topics, keeping the best-scoring path.
    const adj = new Map<string, ScoredEdge[]>();
    for (const se of top) {
      for (const k of [termKey(se.edge.s), termKey(se.edge.o)]) pushTo(adj, k, se);
    }
    const best = new Map<string, { score: number; path: ScoredEdge[] }>();
    let layer = [...topicKeys].filter((k) => adj.has(k));
    for (const k of layer) best.set(k, { score: 0, path: [] });
    for (let d = 0; d < o.hops && layer.length; d++) {
      const next: string[] = [];
      for (const k of layer) {
        const from = defined(best.get(k), 'path to a reached entity');
        for (const se of adj.get(k) ?? []) {
          const other = termKey(se.edge.s) === k ? termKey(se.edge.o) : termKey(se.edge.s);
          const cand = { score: from.score + se.score, path: [...from.path, se] };
          const prev = best.get(other);
          if (!prev) {
            best.set(other, cand);
            next.push(other);
          } else if (prev.path.length === cand.path.length && cand.score > prev.score) best.set(other, cand);
        }
      }
      layer = next;
    }

    // Answer rule: every entity the BFS reached inside the top-K subgraph is a candidate, grouped by
    // the relation sequence of its best path; the sequence that best explains the question (the
    // vocabulary likelihood with hop priors, as for relation chains) wins, and its entities are the
    // answers, ranked by the summed triple scores of their paths.
    const model = new HopModel(ctx.relationVocabulary);
    const qTerms = questionTerms(ctx.question, topics.map((t) => t.label));
    const groups = new Map<string, { hops: { name: string; dir: '>' | '<' }[]; members: { term: Term; score: number; path: ScoredEdge[] }[] }>();
    for (const [k, b] of best) {
      const last = b.path.at(-1);
      if (!last) continue;
      const term = termKey(last.edge.o) === k ? last.edge.o : last.edge.s;
      if (term.type === 'uri' && topicKeys.has(term.value) && topicBarred(ctx, b.path.map((se) => ({ p: se.edge.p, dir: se.dir })))) continue;
      const sig = b.path.map((se) => se.name + se.dir).join(' ');
      const g = getOrAdd(groups, sig, () => ({ hops: b.path.map((se) => ({ name: se.name, dir: se.dir })), members: [] }));
      g.members.push({ term, score: b.score, path: b.path });
    }
    const ranked = [...groups.entries()]
      .map(([sig, g]) => ({ sig, g, s: model.scoreChain(qTerms, g.hops, o.priorWeight) }))
      .sort((a, b) => b.s - a.s || (a.sig < b.sig ? -1 : 1));
    const first = ranked[0];
    if (first) {
      const { sig, g } = first;
      const members = g.members.sort((a, b) => b.score - a.score || (termKey(a.term) < termKey(b.term) ? -1 : 1)).slice(0, o.maxAnswers);
      const evidence: Evidence[] = members.map((c) => ({ triples: c.path.map((se) => evidenceTriple(se.edge, labels)), score: c.score, note: `path ${sig}` }));
      evidence.push({ triples: top.map((se) => evidenceTriple(se.edge, labels)), note: `top-${top.length} of ${graphSize} scored triples` });
      const z = ranked.slice(0, 10).reduce((acc, r) => acc + Math.exp(r.s - first.s), 0);
      return {
        answers: members.map((c) => item(c.term, labels)),
        evidence,
        confidence: 0.5 / z,
        stats: guard.stats(),
        note: `path ${sig}; ${top.length}/${graphSize} triples kept`,
      };
    }
    return { reason: `no entity of the top-${top.length} triples is connected to a topic entity` };
  }
}
