import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AskgraphError, CompiledQuery, Executor, SelectResult } from '../../../src/core';
import { compileForm } from '../../../src/compile';
import { parseForm } from '../../../src/form';
import { mintEntity, openExecutor, runCompiled, StoreExecutor } from '../../../src/execute';
import { MOVIES_NAMESPACES } from '../../helpers/movies';

const BASE = 'http://askgraph.dev/movies/';
const E = (l: string) => mintEntity(BASE, l);

/** An executor that returns canned rows (a fake: it does not evaluate the query). */
class FakeExecutor implements Executor {
  readonly id = 'fake';
  labelCalls: string[][] = [];
  constructor(
    private rows: SelectResult,
    private failWith?: AskgraphError,
  ) {}
  select(): Promise<SelectResult> {
    if (this.failWith) return Promise.reject(this.failWith);
    return Promise.resolve(this.rows);
  }
  ask(): Promise<boolean> {
    return Promise.resolve(true);
  }
  count(): Promise<number> {
    return Promise.resolve(7);
  }
  construct() {
    return Promise.resolve([]);
  }
  labels(iris: string[]): Promise<Map<string, string>> {
    this.labelCalls.push(iris);
    return Promise.resolve(new Map(iris.filter((i) => i !== E('NoLabel')).map((i) => [i, decodeURIComponent(i.slice(i.lastIndexOf('/') + 1))])));
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

const uri = (value: string) => ({ type: 'uri' as const, value });

/** FAULT INJECTOR: the fake executor whose label lookup fails (times out, or the store goes away). */
class FailingLabels extends FakeExecutor {
  constructor(
    rows: SelectResult,
    private readonly labelError: AskgraphError,
  ) {
    super(rows);
  }
  override labels(): Promise<Map<string, string>> {
    return Promise.reject(this.labelError);
  }
}

describe('execute: runCompiled (fake executor)', () => {
  it('a label lookup that fails fails the outcome (timeout / error with its code), never answers with null labels', async () => {
    const rows: SelectResult = { vars: ['x'], rows: [{ x: uri(E('Tom Hanks')) }] };
    const compiled: CompiledQuery = { sparql: 'SELECT ?x WHERE {}', answerVar: 'x', kind: 'select', topicEntities: [] };
    const timedOut = await runCompiled(new FailingLabels(rows, new AskgraphError('QUERY_TIMEOUT', 'labels exceeded 5 ms')), compiled, { timeoutMs: 5 });
    assert.equal(timedOut.status, 'timeout');
    assert.deepEqual(timedOut.answers, []);
    assert.equal(timedOut.error?.code, 'QUERY_TIMEOUT');
    assert.match(timedOut.error.message, /label lookup/);
    const down = await runCompiled(new FailingLabels(rows, new AskgraphError('ENDPOINT_DOWN', 'connection refused')), compiled);
    assert.equal(down.status, 'error');
    assert.equal(down.error?.code, 'ENDPOINT_DOWN');
    assert.deepEqual(down.answers, []);
    // without labels asked for, the answers stand
    const bare = await runCompiled(new FailingLabels(rows, new AskgraphError('QUERY_TIMEOUT', 'x')), compiled, { labels: false });
    assert.equal(bare.status, 'answers');
  });

  it('drops topic IRIs, deduplicates, labels IRIs in one call, keeps literals', async () => {
    const fake = new FakeExecutor({
      vars: ['x'],
      rows: [{ x: uri(E('Tom Hanks')) }, { x: uri(E('Forrest Gump')) }, { x: uri(E('Tom Hanks')) }, { x: { type: 'literal', value: '1994', datatype: 'http://www.w3.org/2001/XMLSchema#gYear' } }, { x: uri(E('NoLabel')) }, {}],
    });
    const compiled: CompiledQuery = { sparql: 'SELECT ?x WHERE {}', answerVar: 'x', kind: 'select', topicEntities: [E('Forrest Gump')] };
    const out = await runCompiled(fake, compiled);
    assert.equal(out.status, 'answers');
    assert.deepEqual(out.answers, [
      { value: '1994', label: null, type: 'literal', datatype: 'http://www.w3.org/2001/XMLSchema#gYear' },
      { value: E('Tom Hanks'), label: 'Tom Hanks', type: 'uri' },
      { value: E('NoLabel'), label: null, type: 'uri' },
    ]);
    assert.equal(fake.labelCalls.length, 1);
  });

  it('the answers of a query without ORDER BY come in one fixed order, whatever order the store returns its rows in', async () => {
    const rows = ['Zelig', 'Annie Hall', 'Manhattan', 'Bananas'].map((l) => ({ x: uri(E(l)) }));
    const compiled: CompiledQuery = { sparql: 'SELECT ?x WHERE {}', answerVar: 'x', kind: 'select', topicEntities: [] };
    const a = await runCompiled(new FakeExecutor({ vars: ['x'], rows }), compiled);
    const b = await runCompiled(new FakeExecutor({ vars: ['x'], rows: [...rows].reverse() }), compiled);
    assert.deepEqual(a.answers.map((x) => x.label), ['Annie Hall', 'Bananas', 'Manhattan', 'Zelig']);
    assert.deepEqual(b.answers, a.answers);
  });

  it('count and ask kinds; empty; errors and timeouts become Outcome values', async () => {
    const fake = new FakeExecutor({ vars: ['x'], rows: [] });
    const count = await runCompiled(fake, { sparql: '', answerVar: 'count', kind: 'count', topicEntities: [] });
    assert.deepEqual(count.answers.map((a) => a.value), ['7']);
    const ask = await runCompiled(fake, { sparql: '', answerVar: 'x', kind: 'ask', topicEntities: [] });
    assert.deepEqual(ask.answers.map((a) => a.value), ['true']);
    const empty = await runCompiled(fake, { sparql: '', answerVar: 'x', kind: 'select', topicEntities: [] });
    assert.equal(empty.status, 'empty');
    const timeout = await runCompiled(new FakeExecutor({ vars: [], rows: [] }, new AskgraphError('QUERY_TIMEOUT', 'slow')), { sparql: '', answerVar: 'x', kind: 'select', topicEntities: [] });
    assert.equal(timeout.status, 'timeout');
    assert.equal(timeout.error?.code, 'QUERY_TIMEOUT');
    const down = await runCompiled(new FakeExecutor({ vars: [], rows: [] }, new AskgraphError('ENDPOINT_DOWN', 'gone')), { sparql: '', answerVar: 'x', kind: 'select', topicEntities: [] });
    assert.equal(down.status, 'error');
    assert.equal(down.error?.code, 'ENDPOINT_DOWN');
  });
});

describe('execute: runCompiled retries once when the store process died under the query', () => {
  it('STORE_UNAVAILABLE then rows → answers; twice STORE_UNAVAILABLE → the error; other errors are not retried', async () => {
    const compiled: CompiledQuery = { sparql: 'SELECT ?x WHERE {}', answerVar: 'x', kind: 'select', topicEntities: [] };
    const rows: SelectResult = { vars: ['x'], rows: [{ x: { type: 'uri', value: E('Robert Zemeckis') } }] };
    let calls = 0;
    const flaky = new FakeExecutor(rows);
    flaky.select = () => {
      if (calls++ === 0) return Promise.reject(new AskgraphError('STORE_UNAVAILABLE', 'the store process exited (SIGKILL); the store is being restarted'));
      return Promise.resolve(rows);
    };
    const out = await runCompiled(flaky, compiled, { timeoutMs: 5000 });
    assert.equal(out.status, 'answers');
    assert.equal(calls, 2);
    let downCalls = 0;
    const down = new FakeExecutor(rows);
    down.select = () => {
      downCalls++;
      return Promise.reject(new AskgraphError('STORE_UNAVAILABLE', 'closed'));
    };
    const d = await runCompiled(down, compiled);
    assert.equal(d.status, 'error');
    assert.equal(d.error?.code, 'STORE_UNAVAILABLE');
    assert.equal(downCalls, 2);
    let syntaxCalls = 0;
    const bad = new FakeExecutor(rows);
    bad.select = () => {
      syntaxCalls++;
      return Promise.reject(new AskgraphError('SPARQL_SYNTAX', 'x'));
    };
    assert.equal((await runCompiled(bad, compiled)).status, 'error');
    assert.equal(syntaxCalls, 1);
  });
});

describe('execute: runCompiled on Oxigraph with compiled forms', function () {
  this.timeout(60000);
  let ex: StoreExecutor | undefined;
  before(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-run-'));
    fs.writeFileSync(
      path.join(dir, 'kb.txt'),
      ['Forrest Gump|directed_by|Robert Zemeckis', 'Cast Away|directed_by|Robert Zemeckis', 'Cast Away|starred_actors|Tom Hanks', 'Forrest Gump|starred_actors|Tom Hanks', 'Big|starred_actors|Tom Hanks'].join('\n'),
    );
    ex = await openExecutor(path.join(dir, 'kb.txt'), { baseIri: BASE });
  });
  after(() => ex?.close());

  it('label-matched topic excluded: movies sharing a director with Forrest Gump', async () => {
    const form = parseForm('(JOIN directed_by (JOIN (R directed_by) [ Forrest Gump ]))');
    const out = await runCompiled(ex!, compileForm(form, MOVIES_NAMESPACES));
    assert.equal(out.status, 'answers');
    assert.deepEqual(out.answers.map((a) => a.label), ['Cast Away']);
    const kept = await runCompiled(ex!, compileForm(form, { ...MOVIES_NAMESPACES, excludeTopic: false }));
    assert.deepEqual(kept.answers.map((a) => a.label).sort(), ['Cast Away', 'Forrest Gump']);
  });

  it('IRI topic excluded through compiled.topicEntities; COUNT', async () => {
    const form = parseForm(`(JOIN starred_actors (JOIN (R starred_actors) <${E('Big')}>))`);
    const compiled = compileForm(form, MOVIES_NAMESPACES);
    assert.ok(compiled.topicEntities.includes(E('Big')));
    const out = await runCompiled(ex!, compiled);
    assert.deepEqual(out.answers.map((a) => a.label).sort(), ['Cast Away', 'Forrest Gump']);
    const count = await runCompiled(ex!, compileForm(parseForm('(COUNT (JOIN starred_actors [ Tom Hanks ]))'), MOVIES_NAMESPACES));
    assert.deepEqual(count.answers.map((a) => a.value), ['3']);
  });
});
