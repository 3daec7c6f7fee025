import type * as sparqljs from 'sparqljs';
import { localNameLabel, namedNode, variable, type QueryOptions, type SelectResult, type Term } from '../core';
import { generateSparql, isSafeIri } from '../sparql';

/** IRIs per label query: VALUES keeps it one query per batch on both Oxigraph and remote endpoints. */
const BATCH = 500;


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
  return generateSparql(query);
}

/** Labels of IRIs on a SPARQL endpoint: one batched VALUES query per 500 IRIs (see LabelPicker for ties). */
export async function lookupLabels(
  select: (query: string, opts?: QueryOptions) => Promise<SelectResult>,
  iris: string[],
  labelPredicates: string[],
  opts?: QueryOptions,
): Promise<Map<string, string>> {
  const wanted = [...new Set(iris.filter(isSafeIri))];
  const preds = labelPredicates.filter(isSafeIri);
  if (wanted.length === 0 || preds.length === 0) return new Map();
  const picker = new LabelPicker(preds);
  const deadline = opts?.timeoutMs !== undefined ? Date.now() + opts.timeoutMs : undefined;
  for (let i = 0; i < wanted.length; i += BATCH) {
    const timeoutMs = deadline !== undefined ? Math.max(1, deadline - Date.now()) : undefined;
    const res = await select(buildLabelQuery(wanted.slice(i, i + BATCH), preds), { timeoutMs });
    for (const row of res.rows) if (row.e && row.l) picker.offer(row.e.value, row.p?.value ?? '', row.l);
  }
  return picker.result();
}

/**
 * Of several labels of an IRI: the one of the earliest label predicate wins, then a label without
 * language or in English, then the first seen.
 */
export class LabelPicker {
  private rank = new Map<string, number>();
  private out = new Map<string, string>();
  constructor(private readonly predicates: string[]) {}
  offer(iri: string, predicate: string, label: Term): void {
    if (label.type !== 'literal') return;
    const r = Math.max(0, this.predicates.indexOf(predicate)) * 4 + (!label.lang ? 0 : /^en\b/i.test(label.lang) ? 1 : 2);
    const seen = this.rank.get(iri);
    if (seen === undefined || r < seen) {
      this.rank.set(iri, r);
      this.out.set(iri, label.value);
    }
  }
  result(): Map<string, string> {
    return this.out;
  }
}

/** Fills in, for IRIs without a label, their local name split into words (PackConfig.localNameLabels). */
export function withLocalNameLabels(iris: string[], found: Map<string, string>): Map<string, string> {
  for (const iri of iris) {
    if (found.has(iri)) continue;
    const l = localNameLabel(iri);
    if (l) found.set(iri, l);
  }
  return found;
}
