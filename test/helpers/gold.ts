/** The gold answers of a test question: a SPARQL query over the fixture graph itself, read as labels. */
import type { Executor } from '../../src/core';

/** Labels of the IRIs (or the values of the literals) a SPARQL query returns in ?x, sorted. */
export async function goldLabels(store: Executor, query: string): Promise<string[]> {
  const res = await store.select(query);
  const terms = res.rows.flatMap((r) => (r.x ? [r.x] : []));
  const labels = await store.labels(terms.flatMap((t) => (t.type === 'uri' ? [t.value] : [])));
  return terms.map((t) => (t.type === 'uri' ? (labels.get(t.value) ?? t.value) : t.value)).sort();
}
