import { Generator } from 'sparqljs';
import type * as sparqljs from 'sparqljs';
import type { QueryOptions, SelectResult } from '../core';
import { isSafeIri } from './terms';

/** IRIs per label query: VALUES keeps it one query per batch on both Oxigraph and remote endpoints. */
const BATCH = 500;

const namedNode = (value: string) => ({ termType: 'NamedNode', value }) as unknown as sparqljs.IriTerm;
const variable = (value: string) => ({ termType: 'Variable', value }) as unknown as sparqljs.VariableTerm;

/** One label query for a batch of IRIs, built as a sparqljs AST (never by string concatenation). */
export function buildLabelQuery(iris: string[], labelPredicates: string[]): string {
  const e = variable('e');
  const p = variable('p');
  const l = variable('l');
  const query: sparqljs.SelectQuery = {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: [e, p, l],
    where: [
      { type: 'values', values: iris.map((iri) => ({ '?e': namedNode(iri) })) },
      { type: 'values', values: labelPredicates.map((iri) => ({ '?p': namedNode(iri) })) },
      { type: 'bgp', triples: [{ subject: e, predicate: p, object: l }] },
    ],
  };
  return new Generator().stringify(query);
}

/**
 * Labels of IRIs: one batched query per 500 IRIs. Of several labels the one of the earliest label
 * predicate wins, then a label without language or in English, then the first seen.
 */
export async function lookupLabels(
  select: (query: string, opts?: QueryOptions) => Promise<SelectResult>,
  iris: string[],
  labelPredicates: string[],
  opts?: QueryOptions,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const wanted = [...new Set(iris.filter(isSafeIri))];
  const preds = labelPredicates.filter(isSafeIri);
  if (wanted.length === 0 || preds.length === 0) return out;
  const rank = new Map<string, number>();
  const deadline = opts?.timeoutMs !== undefined ? Date.now() + opts.timeoutMs : undefined;
  for (let i = 0; i < wanted.length; i += BATCH) {
    const timeoutMs = deadline !== undefined ? Math.max(1, deadline - Date.now()) : undefined;
    const res = await select(buildLabelQuery(wanted.slice(i, i + BATCH), preds), { timeoutMs });
    for (const row of res.rows) {
      const e = row.e?.value;
      const l = row.l;
      if (!e || !l || l.type !== 'literal') continue;
      const r = Math.max(0, preds.indexOf(row.p?.value ?? '')) * 4 + (!l.lang ? 0 : /^en\b/i.test(l.lang) ? 1 : 2);
      if (!rank.has(e) || r < rank.get(e)!) {
        rank.set(e, r);
        out.set(e, l.value);
      }
    }
  }
  return out;
}
