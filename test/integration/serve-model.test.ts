import { strict as assert } from 'node:assert';
import { Parser } from 'sparqljs';
import { createGateway, type Gateway } from '../../src/pipeline';
import type { RunningServer } from '../../src/serve';
import { entity, getJson, postJson, startTestServer } from './serve-helpers';
import { closeAll } from '../helpers/close-all';

const COUNT_ALL = 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }';

function assertReadQuery(sparql: string): void {
  const q = new Parser().parse(sparql) as { type: string; queryType?: string };
  assert.equal(q.type, 'query', sparql);
  assert.ok(['SELECT', 'ASK'].includes(q.queryType ?? ''), sparql);
}

describe('serve over the real pipeline with the shipped parser model (store/movies/model)', function () {
  this.timeout(180_000);
  let g: Gateway;
  let srv: RunningServer;
  let size0 = 0;
  before(async () => {
    g = await createGateway();
    srv = await startTestServer(g);
    size0 = await g.executor.count(COUNT_ALL);
  });
  after(async () => {
    await closeAll(srv, g);
  });

  it('/v1/ask answers 1-, 2- and 3-hop MetaQA questions with the parser', async () => {
    const cases: [string, string][] = [
      ['who directed Forrest Gump', 'Robert Zemeckis'],
      ['who are the directors of the films written by Laura Kerr', 'H.C. Potter'], // MetaQA valid, 2-hop
      ['what types are the movies directed by the director of Night Tide', 'Horror'], // MetaQA valid, 3-hop
    ];
    for (const [q, expected] of cases) {
      const r = await postJson(srv.url + '/v1/ask', { question: q });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.source, 'parser', `${q}: ${JSON.stringify(r.body.trace)}`);
      assert.ok(r.body.answers.some((a: { label: string }) => a.label === expected), `${q}: ${JSON.stringify(r.body.answers.map((a: { label: string }) => a.label))}`);
      assertReadQuery(r.body.sparql);
    }
  });

  it('/v1/parse gives the model beam like `askgraph parse --json`', async () => {
    const r = await postJson(srv.url + '/v1/parse', { question: 'who directed Forrest Gump', beam: 4 });
    assert.equal(r.status, 200);
    assert.equal(r.body.model, g.generator?.id);
    assert.equal(r.body.candidates[0].form, '(JOIN (R directed_by) [ Forrest Gump ])');
    assert.ok(r.body.candidates.length >= 2);
    assert.ok(r.body.candidates[0].logProb > r.body.candidates[1].logProb);
  });

  it('GERBIL QA form POST → QALD-JSON with the answer IRI', async () => {
    const r = await getJson(srv.url + '/gerbil', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'query=' + encodeURIComponent('who directed Forrest Gump') + '&lang=en',
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.questions[0].answers[0].results.bindings, [{ uri: { type: 'uri', value: entity('Robert Zemeckis') } }]);
  });

  it('questions carrying SPARQL/update syntax are answered read-only and leave the store unchanged', async () => {
    const hostile = [
      'who directed Forrest Gump" } ; DROP ALL ; #',
      "who directed Forrest Gump'; DELETE WHERE { ?s ?p ?o } #",
      'who directed {Forrest Gump}\nINSERT DATA { <a:b> <a:c> <a:d> }',
      'who directed Forrest Gump # ; CLEAR ALL',
    ];
    for (const q of hostile) {
      const r = await postJson(srv.url + '/v1/ask', { question: q, options: { adaptiveBeam: false } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      for (const t of r.body.trace) if (t.sparql) assertReadQuery(t.sparql);
    }
    assert.equal(await g.executor.count(COUNT_ALL), size0);
  });
});
