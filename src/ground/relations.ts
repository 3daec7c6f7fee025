import { LRUCache } from 'lru-cache';
import type { Executor } from '../core';
import { relationWords } from '../core/text';
import { degreesQuery, neighbours1Query, neighbours2Query } from './queries';
import { fuzzySimilarity, jaccard } from './similarity';
import { iriLocalName } from '../core';
import type { RelationInfo } from './store-index';

export interface RelationHit {
  iri: string;
  name: string;
  score: number;
}

export interface RelationRetrieverOptions {
  /** Predicates never offered as relations (label / alias predicates). */
  exclude?: string[];
  /** Neighbours sampled for the second hop. Default 50. */
  sample?: number;
  /** LIMIT of each neighbourhood query. Default 500. */
  limit?: number;
  timeoutMs?: number;
  /** Known labels of relation IRIs (scored besides the local name). */
  labels?: Map<string, string>;
}

/**
 * Similarity of a generated relation name and a store relation, in [0, 1]: names as words
 * (underscores, dots, camelCase → spaces), the best of fuzzy string similarity, word Jaccard and
 * 0.9 × word containment,
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
    best = Math.max(best, fuzzySimilarity(g, c), words, contained);
  }
  return best;
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
    this.exclude = new Set(opts.exclude ?? []);
  }

  /** Predicates within `hops` (1 or 2) of the entities. */
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
    if (hops === 2) collect((await this.executor.select(neighbours2Query(ents, this.opts.sample ?? 50, limit), t)).rows);
    const out = [...found.values()];
    this.cache.set(key, out);
    return out;
  }

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
    return candidates
      .map((c) => ({ iri: c.iri, name: c.name, score: relationSimilarity(generated, c, this.opts.labels?.get(c.iri)) }))
      .filter((h) => h.score >= threshold)
      .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
      .slice(0, k);
  }
}
