/**
 * A bounded neighbourhood of the topic entities, fetched through the (budget-guarded) executor.
 * Hubs are sampled, not expanded whole: a node with more than `hubDegree` edges in one direction
 * contributes only the first `hubDegree` of them in MD5(str(neighbour)) order — a deterministic,
 * store-independent pseudo-random sample. Frontiers above `maxFrontier` nodes are cut the same way
 * (FNV-1a order of the node key), so the same question always sees the same subgraph.
 */
import { LRUCache } from 'lru-cache';
import type { Executor, SelectResult, Term } from '../core';
import { PROPERTY_SCHEMA_PREDICATES, RDFS_LABEL, bindingOf, fnv1a, getOrAdd, pushTo } from '../core';
import type { BudgetGuard, SharedResults } from './budget';
import { degreeQuery, edgesQuery, fromTerm, predicatesQuery, sampledEdgesQuery, type Direction } from './sparql';

export interface Edge {
  s: Term;
  p: string;
  o: Term;
}

export interface ExpandOptions {
  labelPredicates?: string[];
  hubDegree?: number;
  /** At most this many hubs are sampled per expansion (each costs a query); the rest are skipped. */
  maxHubs?: number;
  chunk?: number;
}

export function termKey(t: Term): string {
  return t.type === 'literal' ? `"${t.value}"^^${t.datatype ?? ''}@${t.lang ?? ''}` : t.value;
}

/** The predicates the walk never follows: the labels (the pack's, else rdfs:label) and those that describe properties. */
function unfollowed(lp?: string[]): string[] {
  return [...(lp?.length ? lp : [RDFS_LABEL]), ...PROPERTY_SCHEMA_PREDICATES];
}

/** Deterministic sample of at most n items (FNV-1a order of their keys). */
export function sample<T>(items: T[], n: number, key: (t: T) => string): T[] {
  if (items.length <= n) return items;
  return items
    .map((t) => ({ t, h: fnv1a(key(t)) }))
    .sort((a, b) => a.h - b.h || (key(a.t) < key(b.t) ? -1 : 1))
    .slice(0, n)
    .map((x) => x.t);
}

/**
 * Hub samples by store (the executor under the readers' guards), kept across questions: the sample of a hub is a
 * fact of the graph (the first `hubDegree` edges in MD5 order), and finding it means sorting all of the hub's edges
 * — 5 s for the ~2M members of a class on a 28M-triple Virtuoso, asked again by every question about one of them.
 * Like the entity index, it assumes the graph does not change under a running gateway.
 */
const hubSamples = new WeakMap<Executor, SharedResults>();
export function hubSamplesOf(store: Executor): SharedResults {
  return getOrAdd(hubSamples, store, () => new LRUCache<string, SelectResult>({ max: 1000 }));
}

function chunks<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/** All non-label edges of the nodes in both directions, hubs sampled. Literals are expanded backwards only. */
export async function expand(guard: BudgetGuard, nodes: Term[], opts: ExpandOptions = {}): Promise<{ edges: Edge[]; hubs: number; skippedHubs: number }> {
  const lp = unfollowed(opts.labelPredicates);
  const hubDegree = opts.hubDegree ?? 100;
  const maxHubs = opts.maxHubs ?? 24;
  const chunk = opts.chunk ?? 150;
  const edges: Edge[] = [];
  let hubs = 0;
  let skippedHubs = 0;
  for (const dir of ['>', '<'] as Direction[]) {
    const candidates = dir === '>' ? nodes.filter((n) => n.type !== 'literal') : nodes;
    for (const part of chunks(candidates, chunk)) {
      const terms = part.map(fromTerm);
      const deg = await guard.select(degreeQuery(terms, dir, lp));
      const degree = new Map<string, number>();
      for (const row of deg.rows) if (row.x && row.n) degree.set(termKey(row.x), Number(row.n.value));
      const small = part.filter((n) => (degree.get(termKey(n)) ?? 0) > 0 && (degree.get(termKey(n)) ?? 0) <= hubDegree);
      const big = part.filter((n) => (degree.get(termKey(n)) ?? 0) > hubDegree);
      if (small.length) {
        const res = await guard.select(edgesQuery(small.map(fromTerm), dir, lp));
        for (const row of res.rows) edges.push(toEdge(bindingOf(row, 'x'), bindingOf(row, 'p'), bindingOf(row, 'y'), dir));
      }
      const sampled = sample(big, maxHubs, termKey);
      skippedHubs += big.length - sampled.length;
      for (const h of sampled) {
        hubs++;
        const res = await guard.selectShared(sampledEdgesQuery(fromTerm(h), dir, lp, hubDegree), hubSamplesOf(guard.inner));
        for (const row of res.rows) edges.push(toEdge(bindingOf(row, 'x'), bindingOf(row, 'p'), bindingOf(row, 'y'), dir));
      }
    }
  }
  return { edges, hubs, skippedHubs };
}

function toEdge(x: Term, p: Term, y: Term, dir: Direction): Edge {
  return dir === '>' ? { s: x, p: p.value, o: y } : { s: y, p: p.value, o: x };
}

/** Distinct (node, predicate) pairs in both directions — cheap one-hop extension of chains. */
export async function predicatesOf(guard: BudgetGuard, nodes: Term[], opts: { labelPredicates?: string[]; chunk?: number; limit?: number } = {}): Promise<{ node: Term; p: string; dir: Direction }[]> {
  const lp = unfollowed(opts.labelPredicates);
  const out: { node: Term; p: string; dir: Direction }[] = [];
  for (const dir of ['>', '<'] as Direction[]) {
    const candidates = dir === '>' ? nodes.filter((n) => n.type !== 'literal') : nodes;
    for (const part of chunks(candidates, opts.chunk ?? 200)) {
      const res = await guard.select(predicatesQuery(part.map(fromTerm), dir, lp, opts.limit ?? 5000));
      for (const row of res.rows) out.push({ node: bindingOf(row, 'x'), p: bindingOf(row, 'p').value, dir });
    }
  }
  return out;
}

/** An in-memory view of fetched edges with adjacency in both directions. */
export class Subgraph {
  readonly nodes = new Map<string, Term>();
  readonly out = new Map<string, Edge[]>();
  readonly in = new Map<string, Edge[]>();
  readonly edges: Edge[] = [];
  private readonly seen = new Set<string>();

  add(edges: Edge[]): Edge[] {
    const added: Edge[] = [];
    for (const e of edges) {
      const k = `${termKey(e.s)} ${e.p} ${termKey(e.o)}`;
      if (this.seen.has(k)) continue;
      this.seen.add(k);
      this.edges.push(e);
      added.push(e);
      const sk = termKey(e.s);
      const ok = termKey(e.o);
      this.nodes.set(sk, e.s);
      this.nodes.set(ok, e.o);
      pushTo(this.out, sk, e);
      pushTo(this.in, ok, e);
    }
    return added;
  }
}

/**
 * Fetches the k-hop neighbourhood of the topics (both directions). Returns the subgraph and the
 * hop distance at which every node was first reached.
 */
export async function fetchNeighbourhood(
  guard: BudgetGuard,
  topics: Term[],
  opts: ExpandOptions & { hops: number; maxFrontier?: number },
): Promise<{ graph: Subgraph; distance: Map<string, number>; hubs: number; skippedHubs: number }> {
  const graph = new Subgraph();
  const distance = new Map<string, number>();
  for (const t of topics) distance.set(termKey(t), 0);
  let frontier = topics;
  let hubs = 0;
  let skippedHubs = 0;
  for (let d = 1; d <= opts.hops && frontier.length; d++) {
    const r = await expand(guard, frontier, opts);
    hubs += r.hubs;
    skippedHubs += r.skippedHubs;
    const next: Term[] = [];
    for (const e of graph.add(r.edges)) {
      for (const n of [e.s, e.o]) {
        const k = termKey(n);
        if (!distance.has(k)) {
          distance.set(k, d);
          next.push(n);
        }
      }
    }
    frontier = sample(next, opts.maxFrontier ?? 400, termKey);
  }
  return { graph, distance, hubs, skippedHubs };
}
