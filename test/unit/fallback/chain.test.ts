import * as assert from 'node:assert/strict';
import { AskgraphError, type AnswerItem, type Evidence, type Executor } from '../../../src/core';
import {
  BudgetExhausted,
  BudgetGuard,
  chainTrace,
  defaultReaders,
  readersByName,
  runChain,
  type Reader,
  type ReaderContext,
  type ReaderResult,
} from '../../../src/fallback';
import { ctx, MOVIES, moviesStore, topic } from './helpers';

const A = (v: string): AnswerItem => ({ value: MOVIES + 'entity/' + v, label: v, type: 'uri' });
const ev = (...nodes: string[]): Evidence[] => [{ triples: nodes.map((n) => ({ s: A('X'), p: { value: MOVIES + 'relation/r', label: 'r', type: 'uri' }, o: A(n) })) }];

/** A scripted reader (mock: it does not touch the store). */
function scripted(name: string, result: ReaderResult | Error, applicable: true | { reason: string } = true): Reader & { calls: number } {
  return {
    name,
    calls: 0,
    test() {
      return Promise.resolve(applicable);
    },
    read(this: { calls: number }) {
      this.calls++;
      if (result instanceof Error) return Promise.reject(result);
      return Promise.resolve(result);
    },
  };
}
const stats = { queries: 0, triples: 0, timeMs: 0 };

describe('runChain (mock readers)', () => {
  const c = (): ReaderContext => ctx('who directed Cast Away', [topic(MOVIES, 'Cast Away')]);

  it('tries readers in order, collects failures as values, stops at the first answer', async () => {
    const r1 = scripted('one', { reason: 'nothing found' });
    const r2 = scripted('two', { reason: 'skipped by test' }, { reason: 'cannot handle' });
    const r3 = scripted('three', new Error('boom'));
    const r4 = scripted('four', { answers: [A('B')], evidence: ev('B'), confidence: 0.5, stats });
    const r5 = scripted('five', { answers: [A('C')], evidence: ev('C'), confidence: 0.5, stats });
    const res = await runChain([r1, r2, r3, r4, r5], c());
    assert.equal(res.reader, 'four');
    assert.deepEqual(res.result?.answers.map((a) => a.label), ['B']);
    assert.deepEqual(
      res.failures.map((f) => [f.reader, f.reason, f.skipped ?? false]),
      [
        ['one', 'nothing found', false],
        ['two', 'cannot handle', true],
        ['three', 'internal error: boom', false],
      ],
    );
    assert.equal(r2.calls, 0, 'a reader whose test fails is not read');
    assert.equal(r5.calls, 0, 'readers after the first answer are not tried');
    const trace = chainTrace(res);
    assert.deepEqual(trace.map((t) => [t.reader, t.outcome]), [['one', 'empty'], ['two', 'skipped'], ['three', 'error'], ['four', 'answers']]);
    assert.ok(trace.every((t) => t.stage === 'fallback'));
  });

  it('a reader out of time (or meeting the store away) stops the chain: the next reader never answers in its place', async () => {
    for (const [failure, code] of [
      [{ reason: 'budget exhausted: time budget of 50 ms used up', exhausted: 'time' as const, stats }, 'QUERY_TIMEOUT'],
      [{ reason: 'QUERY_TIMEOUT: the query exceeded 50 ms', code: 'QUERY_TIMEOUT', exhausted: 'time' as const, stats }, 'QUERY_TIMEOUT'],
      [{ reason: 'STORE_UNAVAILABLE: the store is being restarted', code: 'STORE_UNAVAILABLE', stats }, 'STORE_UNAVAILABLE'],
    ] as const) {
      const slow = scripted('slow', failure);
      const next = scripted('next', { answers: [A('B')], evidence: ev('B'), confidence: 0.5, stats });
      const res = await runChain([slow, next], c());
      assert.equal(next.calls, 0, `${code}: the next reader is not tried`);
      assert.equal(res.result, undefined);
      assert.equal(res.stopped?.code, code);
      const trace = chainTrace(res);
      assert.deepEqual(trace.map((t) => t.reader), ['slow']);
      assert.equal(trace[0]?.outcome, code === 'QUERY_TIMEOUT' ? 'timeout' : 'error');
    }
    // a reader that spent its query or row budget (a work bound, the same on any machine) hands over as before
    const bounded = scripted('bounded', { reason: 'budget exhausted: query budget of 200 queries used up', exhausted: 'queries', stats });
    const next = scripted('next', { answers: [A('B')], evidence: ev('B'), confidence: 0.5, stats });
    const res = await runChain([bounded, next], c());
    assert.equal(res.reader, 'next');
    assert.equal(res.stopped, undefined);
  });

  it('grounding assertion: answers absent from the reader evidence are dropped and counted', async () => {
    const liar = scripted('liar', { answers: [A('B'), A('Invented Person')], evidence: ev('B'), confidence: 0.5, stats });
    const res = await runChain([liar], c());
    assert.deepEqual(res.result?.answers.map((a) => a.label), ['B']);
    assert.equal(res.dropped, 1);
  });

  it('a reader whose answers are all ungrounded fails and the chain moves on', async () => {
    const liar = scripted('liar', { answers: [A('Nobody')], evidence: ev('B'), confidence: 0.5, stats });
    const honest = scripted('honest', { answers: [A('B')], evidence: ev('B'), confidence: 0.5, stats });
    const res = await runChain([liar, honest], c());
    assert.equal(res.reader, 'honest');
    assert.equal(res.dropped, 1);
    assert.match(res.failures[0]!.reason, /outside the reader's evidence/);
  });

  it('caps the confidence below a parsed answer (fallback scale)', async () => {
    const r = scripted('paths', { answers: [A('B')], evidence: ev('B'), confidence: 0.99, stats });
    const res = await runChain([r], c());
    assert.equal(res.result?.confidence, 0.6);
    const r2 = scripted('explore', { answers: [A('B')], evidence: ev('B'), confidence: 0.99, stats });
    assert.equal((await runChain([r2], c())).result?.confidence, 0.4);
  });

  it('gives each reader its own budget guard', async () => {
    const seen: unknown[] = [];
    const probe: Reader = {
      name: 'probe',
      test: () => Promise.resolve(true),
      read: (x) => {
        seen.push(x.executor);
        return Promise.resolve({ reason: 'probe' });
      },
    };
    await runChain([probe, probe], c());
    assert.ok(seen[0] instanceof BudgetGuard && seen[1] instanceof BudgetGuard);
    assert.notEqual(seen[0], seen[1]);
  });
});

describe('readersByName / defaultReaders', () => {
  it('builds readers by name in the given order', () => {
    assert.deepEqual(readersByName(['explore', 'paths']).map((r) => r.name), ['explore', 'paths']);
  });
  it('rejects unknown names with BAD_REQUEST', () => {
    assert.throws(() => readersByName(['nope']), (e: unknown) => e instanceof AskgraphError && e.code === 'BAD_REQUEST');
  });
  it('includes the LLM reader only when configured', () => {
    assert.deepEqual(defaultReaders({ env: {} }).map((r) => r.name), ['paths', 'triples', 'explore']);
    assert.deepEqual(defaultReaders({ env: { ASKGRAPH_LLM_URL: 'http://127.0.0.1:9/v1' } }).map((r) => r.name), ['paths', 'triples', 'explore', 'llm']);
  });
});

describe('BudgetGuard (real Oxigraph store)', () => {
  const q = 'SELECT ?s WHERE { ?s ?p ?o } LIMIT 7';
  it('counts queries and result rows', async () => {
    const g = new BudgetGuard(moviesStore(), { timeMs: 5000, maxQueries: 10, maxTriples: 1000 });
    await g.select(q);
    await g.select(q);
    assert.equal(g.stats().queries, 2);
    assert.equal(g.stats().triples, 14);
  });
  it('refuses queries beyond the query budget', async () => {
    const g = new BudgetGuard(moviesStore(), { timeMs: 5000, maxQueries: 1, maxTriples: 1000 });
    await g.select(q);
    await assert.rejects(g.select(q), (e: unknown) => e instanceof BudgetExhausted && e.kind === 'queries');
  });
  it('refuses queries once the row budget is used up', async () => {
    const g = new BudgetGuard(moviesStore(), { timeMs: 5000, maxQueries: 10, maxTriples: 5 });
    await g.select(q);
    await assert.rejects(g.select(q), (e: unknown) => e instanceof BudgetExhausted && e.kind === 'triples');
  });
  it('stops a call that outlives the deadline even if the executor ignores its timeout', async () => {
    // stand-in executor whose every call hangs (the fault under test)
    const hanging = new Promise<never>(() => undefined);
    const never: Executor = { id: 'hang', select: () => hanging, ask: () => hanging, count: () => hanging, construct: () => hanging, labels: () => hanging, close: () => Promise.resolve() };
    const g = new BudgetGuard(never, { timeMs: 40, maxQueries: 10, maxTriples: 100 });
    const t = Date.now();
    await assert.rejects(g.select(q), (e: unknown) => e instanceof BudgetExhausted && e.kind === 'time');
    assert.ok(Date.now() - t < 5000); // the 40 ms budget ended it, not the (never) answer
  });
});
