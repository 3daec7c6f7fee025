import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot, type Answer } from '../../../src/core';
import { cli } from '../../helpers/cli';


describe('pipeline: askgraph ask (CLI in-process, tiny fixture model, small graph)', function () {
  this.timeout(120000);
  const root = packageRoot();
  const store = path.join(root, 'fixtures', 'graphs', 'movies-small.ttl');
  const model = path.join(root, 'fixtures', 'tiny-model');
  let saved: string | undefined;

  before(() => {
    saved = process.env.ASKGRAPH_CACHE_DIR;
    process.env.ASKGRAPH_CACHE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-ask-cli-'));
  });
  after(() => {
    if (saved === undefined) delete process.env.ASKGRAPH_CACHE_DIR;
    else process.env.ASKGRAPH_CACHE_DIR = saved;
  });

  it('--json prints one Answer object; every executed attempt has its SPARQL', async () => {
    const r = await cli(['ask', 'who directed Forrest Gump', '--store', store, '--model', model, '--json']);
    assert.equal(r.code, 0, r.err);
    const a = JSON.parse(r.out) as Answer;
    assert.equal(a.question, 'who directed Forrest Gump');
    assert.ok(a.source === 'parser' || a.source === 'none' || a.source.startsWith('fallback:'));
    for (const k of ['answers', 'form', 'groundedForm', 'sparql', 'confidence', 'trace', 'timings', 'beam']) assert.ok(k in a, k);
    for (const t of a.trace.filter((x) => x.stage === 'execute' && x.outcome !== 'skipped')) assert.ok(t.sparql, 'executed attempts carry their SPARQL');
    if (a.source === 'parser') assert.ok(a.sparql && a.form && a.answers.length > 0);
  });

  it('prints answers, source and the trace with --explain; an unknown entity ends in an honest no-answer', async () => {
    const r = await cli(['ask', 'who directed Qxzvwpt Jrkllmnq', '--store', store, '--model', model, '--explain', '--fallback', 'off']);
    assert.equal(r.code, 1, r.err); // no answer: exit 1
    assert.match(r.out, /^no answer/);
    assert.match(r.out, /source: +none/);
    assert.match(r.out, /trace:/);
    assert.match(r.out, /beam:/);
  });

  it('bad input fails fast with one line and exit code 2', async () => {
    // a store and a model that are not there: the question is refused before either is opened
    const r = await cli(['ask', '', '--store', store + '.missing.ttl', '--model', model + '-missing']);
    assert.equal(r.code, 2);
    assert.equal(r.err, 'askgraph: QUESTION_INVALID: the question is empty\n');
    const b = await cli(['ask', 'who directed Forrest Gump', '--beam', 'x', '--store', store, '--model', model]);
    assert.equal(b.code, 2);
    assert.match(b.err, /^askgraph: BAD_REQUEST: --beam/);
    const f = await cli(['ask', 'who directed Forrest Gump', '--fallback', 'nosuch', '--store', store, '--model', model, '--json']);
    assert.equal(f.code, 2);
    assert.equal(JSON.parse(f.out).error.code, 'BAD_REQUEST');
  });
});
