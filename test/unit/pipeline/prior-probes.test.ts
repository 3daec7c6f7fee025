import { strict as assert } from 'node:assert';
import { AskgraphError, type Executor, type PackConfig } from '../../../src/core';
import { parseForm } from '../../../src/form';
import type { EntityIndex, GroundAttempt } from '../../../src/ground';
import { GraphPrior } from '../../../src/pipeline/prior';
import { subtracted, vacuousJoin } from '../../../src/pipeline/probes';
import type { AttemptRun, Winner } from '../../../src/pipeline/run';

// The graph prior (prior.ts) and the vacuous-join probes (probes.ts) alone. A step of theirs that fails without
// stopping the question leaves a trace row (outcome error, the error's code); it used to be swallowed.

const NS = 'http://example.org/rel/';
const ENT = 'http://example.org/ent/';
const config = { name: 'paintings', vocabularyNamespace: NS, labelPredicates: ['http://www.w3.org/2000/01/rdf-schema#label'] } as unknown as PackConfig;

function newRun(): AttemptRun {
  const o = { beam: 4, timeoutMs: 60000, bestOf: 1, maxAttempts: 8, queryTimeoutMs: 30000 };
  return { n: 0, winners: [], vacuous: [], seen: new Set(), trace: [], timings: { generate: 0, ground: 0, execute: 0, fallback: 0, total: 0 }, t0: performance.now(), deadline: performance.now() + 60000, left: () => 60000, expected: undefined, yesNo: true, o };
}

/** A stand-in store that fails every query with a code of the caller's choosing (the fault injected). */
function failingStore(code: string): Executor & { queries: string[] } {
  const queries: string[] = [];
  const fail = (q: string): Promise<never> => {
    queries.push(q);
    return Promise.reject(new AskgraphError(code as never, `injected ${code}`));
  };
  return { id: 'failing-store', queries, select: fail, ask: fail, count: fail, construct: fail, labels: () => fail('labels'), close: () => Promise.resolve() };
}

/** A store answering ASK with a fixed truth value, and counting the questions asked. */
function askStore(answer: boolean): Executor & { asked: string[] } {
  const asked: string[] = [];
  const none = (): Promise<never> => Promise.reject(new Error('not used'));
  const ask = (q: string): Promise<boolean> => {
    asked.push(q);
    return Promise.resolve(answer);
  };
  return { id: 'ask-store', asked, ask, select: none, count: none, construct: none, labels: none, close: () => Promise.resolve() };
}

function winner(form: string): Winner {
  const grounded = form.replace('[ Blue Hour ]', `<${ENT}Blue_Hour>`).replace('painted_by', `<${NS}painted_by>`);
  const attempt = { candidate: { form: parseForm(form), text: form, logProb: -1, rank: 0 }, form: parseForm(grounded), text: grounded, score: 1, entityScores: [1], relationScores: [1], phase: 'exact' } as unknown as GroundAttempt;
  return { attempt, compiled: { sparql: 'SELECT 1', kind: 'select', answerVar: 'x', topicEntities: [] } as never, answers: [] };
}

describe('pipeline probes (probes.ts) and graph prior (prior.ts), alone', () => {
  it('vacuousJoin: a join whose entity never takes the relation (ASK false) is vacuous; one that does is not', async () => {
    const form = parseForm(`(COUNT (JOIN <${NS}painted_by> <${ENT}Blue_Hour>))`);
    assert.equal(await vacuousJoin(askStore(false), config, form, newRun()), true);
    const yes = askStore(true);
    assert.equal(await vacuousJoin(yes, config, form, newRun()), false);
    assert.equal(yes.asked.length, 1);
  });

  it('vacuousJoin: a join that cannot be checked is kept (not vacuous) and the trace says why, with the code', async () => {
    const run = newRun();
    // a bare relation name with a pack of no namespace does not compile
    const vacuous = await vacuousJoin(askStore(false), { ...config, vocabularyNamespace: '' }, parseForm('(COUNT (JOIN painted_by <http://example.org/ent/Blue_Hour>))'), run);
    assert.equal(vacuous, false);
    const row = run.trace.find((t) => t.outcome === 'error');
    assert.ok(row, JSON.stringify(run.trace));
    assert.equal(row.stage, 'execute');
    assert.equal(row.error?.code, 'BAD_REQUEST');
    assert.match(row.note ?? '', /checking a join/);
    assert.equal(run.stopped, undefined, 'not a reason to stop the question');
  });

  it('subtracted: the subtracted sides of DIFFs', () => {
    assert.equal(subtracted(parseForm('(DIFF (JOIN painted_by [ A ]) (JOIN has_style [ B ]))')).length, 1);
    assert.equal(subtracted(parseForm('(JOIN painted_by [ A ])')).length, 0);
  });

  it('graph prior: a relation count the store refuses (not transient) keeps the reading, with a trace row and its code', async () => {
    const store = failingStore('QUERY_INVALID');
    const index = { labelsOf: () => ['Blue Hour'], search: () => [] } as unknown as EntityIndex;
    const generator = { id: 'scorer', generate: () => Promise.resolve({ candidates: [], dropped: 0, timeMs: 0 }), score: (_q: string, forms: string[]) => Promise.resolve(forms.map(() => -1)) };
    const prior = new GraphPrior({ executor: store, index, vocabulary: new Set([`${NS}painted_by`]), generator, config, relationName: (iri) => iri.slice(NS.length) });
    const run = newRun();
    const win = winner('(JOIN painted_by [ Blue Hour ])');
    assert.equal(await prior.relationPrior('Blue Hour paintings', win, run), win);
    assert.equal(store.queries.length, 1);
    const row = run.trace.find((t) => t.outcome === 'error');
    assert.ok(row, JSON.stringify(run.trace));
    assert.deepEqual([row.stage, row.error?.code], ['ground', 'QUERY_INVALID']);
    assert.match(row.note ?? '', /graph prior/);
    assert.equal(run.stopped, undefined);
  });

  it('graph prior: a count that times out stops the question instead (the next reading would win by the load)', async () => {
    const store = failingStore('QUERY_TIMEOUT');
    const index = { labelsOf: () => ['Blue Hour'], search: () => [] } as unknown as EntityIndex;
    const generator = { id: 'scorer', generate: () => Promise.resolve({ candidates: [], dropped: 0, timeMs: 0 }), score: (_q: string, forms: string[]) => Promise.resolve(forms.map(() => -1)) };
    const prior = new GraphPrior({ executor: store, index, vocabulary: new Set([`${NS}painted_by`]), generator, config, relationName: (iri) => iri.slice(NS.length) });
    const run = newRun();
    await prior.relationPrior('Blue Hour paintings', winner('(JOIN painted_by [ Blue Hour ])'), run);
    assert.equal(run.stopped?.code, 'QUERY_TIMEOUT');
    assert.equal(run.trace.filter((t) => t.outcome === 'error').length, 0, 'the stop is traced once, by the orchestration');
  });
});
