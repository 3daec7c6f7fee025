import * as assert from 'node:assert/strict';
import type { Executor, QueryOptions, SelectResult } from '../../../src/core';
import { BudgetGuard } from '../../../src/fallback';
import { predicatesOf } from '../../../src/fallback/graph';
import { MOVIES, moviesStore, topic } from './helpers';

/** The real store, with every query it is asked recorded (to see the query shape; the rows are the store's). */
class Recording implements Executor {
  readonly id = 'recording';
  readonly queries: string[] = [];
  constructor(private readonly inner: Executor) {}
  select(q: string, o?: QueryOptions): Promise<SelectResult> {
    this.queries.push(q);
    return this.inner.select(q, o);
  }
  ask(q: string, o?: QueryOptions) {
    return this.inner.ask(q, o);
  }
  count(q: string, o?: QueryOptions) {
    return this.inner.count(q, o);
  }
  construct(q: string, o?: QueryOptions) {
    return this.inner.construct(q, o);
  }
  labels(iris: string[], o?: QueryOptions) {
    return this.inner.labels(iris, o);
  }
  close() {
    return Promise.resolve();
  }
}

const LABEL = '"Forrest Gump"';
const key = (r: { node: { value: string }; p: string; dir: string }) => `${r.dir} ${r.node.value} ${r.p}`;

describe('fallback graph: predicates of a frontier (the paths reader\'s last hop)', () => {
  it('backwards, each IRI is its own UNION branch (Virtuoso scanned the graph for one VALUES block holding a class): the same pairs as one VALUES block, one query per direction', async () => {
    const nodes = ['Tom Hanks', 'Robert Zemeckis', 'Forrest Gump', '1994', 'Drama', 'English'].map((l) => ({ type: 'uri' as const, value: topic(MOVIES, l).iri }));
    // a literal too (this graph's only literals are labels: with no label predicate left out, rdfs:label points at it)
    const label = { type: 'literal' as const, value: 'Forrest Gump' };
    const rec = new Recording(moviesStore());
    const guard = new BudgetGuard(rec, { timeMs: 20_000, maxQueries: 10, maxTriples: 100_000 });
    const got = await predicatesOf(guard, [...nodes, label], { labelPredicates: ['http://example.org/no-label'] });
    assert.equal(guard.stats().queries, 2, 'one query per direction, as before');
    const backward = rec.queries[1] ?? '';
    assert.equal(backward.match(/UNION/g)?.length, nodes.length, `one branch per IRI and one for the literal: ${backward}`);
    // the reference: one VALUES block per direction, as the query was written before
    const values = [...nodes.map((n) => `<${n.value}>`), LABEL].join(' ');
    const want = new Set<string>();
    for (const [dir, pattern, vals] of [['>', '?x ?p ?y', nodes.map((n) => `<${n.value}>`).join(' ')], ['<', '?y ?p ?x', values]] as const) {
      const res = await moviesStore().select(`SELECT DISTINCT ?x ?p WHERE { VALUES ?x { ${vals} } ${pattern} }`);
      for (const r of res.rows) want.add(`${dir} ${r.x?.value ?? ''} ${r.p?.value ?? ''}`);
    }
    assert.ok([...want].some((k) => k.startsWith('< Forrest Gump ')), 'the literal has predicates pointing at it');
    assert.ok(want.size > 10);
    assert.deepEqual(new Set(got.map(key)), want);
  });
});
