import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot, type Answer } from '../../src/core';
import { parseSparql } from '../../src/sparql';
import { cli } from '../helpers/cli';


/**
 * `askgraph ask` end to end on the embedded movies pack with the real trained model
 * (store/movies/model). No stand-ins: a missing model fails this suite, it does not skip it.
 */
describe('integration: askgraph ask on the embedded movies pack (real model)', function () {
  this.timeout(180000);

  before(() => {
    const config = path.join(packageRoot(), 'store', 'movies', 'model', 'config.json');
    assert.ok(fs.existsSync(config), `the movies parser model is missing (${config}); train it or restore store/movies/model`);
  });

  it('"who directed Forrest Gump" → Robert Zemeckis (the README\'s first command)', async () => {
    const r = await cli(['ask', 'who directed Forrest Gump']);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out.split('\n')[0], 'Robert Zemeckis');
    assert.match(r.out, /form: +\(JOIN \(R directed_by\) \[ Forrest Gump \]\)/);
    assert.match(r.out, /SELECT/);
  });

  it('--json prints one Answer object with IRIs, form, SPARQL, trace and timings; --explain prints the trace', async () => {
    const r = await cli(['ask', 'who directed Forrest Gump', '--json']);
    assert.equal(r.code, 0, r.err);
    const a = JSON.parse(r.out) as Answer;
    assert.equal(a.source, 'parser');
    assert.deepEqual(a.answers.map((x) => [x.value, x.label]), [['http://askgraph.dev/movies/entity/Robert%20Zemeckis', 'Robert Zemeckis']]);
    assert.equal(a.form, '(JOIN (R directed_by) [ Forrest Gump ])');
    assert.ok(a.sparql && a.groundedForm);
    assert.ok(a.confidence > 0.6 && a.confidence <= 1);
    assert.ok(a.trace.some((t) => t.stage === 'execute' && t.outcome === 'answers'));
    for (const k of ['generate', 'ground', 'execute', 'fallback', 'total'] as const) assert.equal(typeof a.timings[k], 'number');
    const e = await cli(['ask', 'what genre is Forrest Gump', '--explain']);
    assert.equal(e.code, 0, e.err);
    assert.match(e.out, /^Drama$/m);
    assert.match(e.out, /trace:/);
    assert.match(e.out, /beam form: +\(JOIN \(R has_genre\) \[ Forrest Gump \]\)/);
  });

  it('answers multi-hop questions without brackets', async () => {
    const r = await cli(['ask', 'who are the directors of the films written by Laura Kerr', '--json']);
    assert.equal(r.code, 0, r.err);
    const a = JSON.parse(r.out) as Answer;
    assert.deepEqual(a.answers.map((x) => x.label), ['H.C. Potter']);
  });

  it('honest no-answer: an entity that is nowhere in the graph gives source "none" and no answers', async () => {
    const r = await cli(['ask', 'who directed Qxzvwpt Jrkllmnq', '--json']);
    assert.equal(r.code, 1, r.err); // no answer: exit 1
    const a = JSON.parse(r.out) as Answer;
    assert.equal(a.source, 'none');
    assert.deepEqual(a.answers, []);
    assert.equal(a.confidence, 0);
    assert.ok(a.trace.length > 0);
  });

  it('quotes and braces in the question cannot change the query', async () => {
    const r = await cli(['ask', 'who directed Forrest Gump" } UNION { ?s ?p ?o } #', '--json', '--fallback', 'off']);
    assert.ok(r.code === 0 || r.code === 1, r.err); // answered or no answer, never an error
    const a = JSON.parse(r.out) as Answer;
    const queries = a.trace.map((t) => t.sparql).filter((s): s is string => !!s);
    for (const q of queries) {
      parseSparql(q); // still one well-formed query
      assert.ok(!/UNION|\?s \?p \?o/.test(q), q);
    }
    assert.ok(a.answers.length <= 1, `at most the director, got ${a.answers.length} answers`);
    if (a.answers.length) assert.equal(a.answers[0]!.label, 'Robert Zemeckis');
    assert.equal(r.code, a.answers.length ? 0 : 1);
  });

  it('rejects an empty or too long question with a one-line error', async () => {
    const empty = await cli(['ask', '   ']);
    assert.equal(empty.code, 2);
    assert.match(empty.err, /^askgraph: QUESTION_INVALID: /);
    const long = await cli(['ask', 'x'.repeat(1001), '--json']);
    assert.equal(long.code, 2);
    assert.equal(JSON.parse(long.out).error.code, 'INPUT_TOO_LARGE');
  });

  it('a reading set aside does not end the search: "fellini films" (a tag spelt "fellini" is too uncertain) → Federico Fellini\'s films', async () => {
    const r = await cli(['ask', 'fellini films', '--json']);
    assert.equal(r.code, 0, r.err);
    const a = JSON.parse(r.out) as Answer;
    assert.equal(a.source, 'parser');
    assert.match(a.groundedForm ?? '', /directed_by> <http:\/\/askgraph\.dev\/movies\/entity\/Federico%20Fellini>/);
    assert.ok(a.answers.some((x) => x.label === 'La Dolce Vita'));
    assert.ok(a.trace.some((t) => t.outcome === 'skipped' && /withheld|set aside|abstained/.test(t.note ?? '')), 'an earlier reading was set aside first');
  });

  it('no yes/no reading for a question not worded as one ("tom hanks comedies")', async () => {
    const r = await cli(['ask', 'tom hanks comedies', '--json']);
    assert.equal(r.code, 0, r.err);
    const a = JSON.parse(r.out) as Answer;
    assert.notEqual(a.answerType, 'boolean');
    assert.ok(!(a.form ?? '').startsWith('(ASK'), a.form ?? '');
  });

  it('a count the graph can answer is kept when every other reading is set aside; a fact it lacks is no answer', async () => {
    const pitt = JSON.parse((await cli(['ask', 'how many films did Brad Pitt direct', '--json'])).out) as Answer;
    assert.deepEqual(pitt.answers.map((x) => x.value), ['0'], 'he directed none of the graph\'s films');
    const matrix = JSON.parse((await cli(['ask', 'how many directors did The Matrix have', '--json'])).out) as Answer;
    assert.equal(matrix.source, 'none');
    assert.match(matrix.reason ?? '', /records no directed by for "The Matrix"/);
  });
});
