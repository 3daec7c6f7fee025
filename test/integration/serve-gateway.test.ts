import { strict as assert } from 'node:assert';
import { Parser, type Query } from 'sparqljs';
import type { Gateway } from '../../src/pipeline';
import type { RunningServer } from '../../src/serve';
import { entity, getJson, moviesGatewayWithMockGenerator, postJson, startTestServer } from './serve-helpers';
import { closeAll } from '../helpers/close-all';

const COUNT_ALL = 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }';

/** Every literal value anywhere in a sparqljs AST. */
function literals(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => literals(n, out));
  else if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if (o.termType === 'Literal') out.push(String(o.value));
    else for (const v of Object.values(o)) literals(v, out);
  }
  return out;
}

/** Parses a generated query; it must be exactly one read query (no update can hide in it). */
function assertReadQuery(sparql: string): Query {
  const q = new Parser().parse(sparql);
  assert.equal(q.type, 'query', sparql);
  assert.ok(['SELECT', 'ASK'].includes(q.queryType), sparql);
  return q;
}

const PAYLOADS = [
  'x" } ; DROP ALL ; #',
  "Forrest Gump' . ?s ?p ?o } #",
  'Forrest Gump"@en . } DELETE WHERE { ?s ?p ?o } #',
  'a\nDELETE WHERE { ?s ?p ?o }',
  '{ } ; INSERT DATA { <a:b> <a:c> <a:d> }',
  '\\" ) FILTER(true) #',
  '<http://askgraph.dev/movies/entity/Heat> } UNION { ?x ?y ?z',
  'DROP GRAPH <http://x> ; CLEAR ALL',
  '"""; LOAD <http://evil.example/x.ttl> ;',
];

describe('serve over the real pipeline (MOCK generator; real movies store, grounding, compiler, executor)', function () {
  this.timeout(120_000);
  let srv: RunningServer;
  let g: Gateway;
  let size0 = 0;
  before(async () => {
    g = await moviesGatewayWithMockGenerator();
    srv = await startTestServer(g, { cache: { max: 0, ttlMs: 1 } });
    size0 = await g.executor.count(COUNT_ALL);
    assert.ok(size0 > 100_000, `movies store has ${size0} triples`);
  });
  after(async () => {
    await closeAll(srv, g);
  });

  it('POST /v1/ask answers "who directed Forrest Gump" with Robert Zemeckis, with beam, trace and timings', async () => {
    const r = await postJson(srv.url + '/v1/ask', { question: 'who directed Forrest Gump', options: { adaptiveBeam: false } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.answers.map((a: { label: string | null }) => a.label), ['Robert Zemeckis']);
    assert.equal(r.body.answers[0].value, entity('Robert Zemeckis'));
    assert.equal(r.body.source, 'parser');
    assert.equal(r.body.form, '(JOIN (R directed_by) [ Forrest Gump ])');
    assert.ok(r.body.beam.length >= 2, 'the whole beam (adaptiveBeam off)');
    const greedy = await postJson(srv.url + '/v1/ask', { question: 'who directed Forrest Gump' });
    assert.deepEqual(greedy.body.answers, r.body.answers);
    assert.ok(r.body.trace.some((t: { stage: string; sparql?: string }) => t.stage === 'execute' && t.sparql));
    assert.equal(typeof r.body.timings.total, 'number');
    assertReadQuery(r.body.sparql);
  });

  it('POST /v1/parse returns the beam; /v1/compile the SPARQL of a form; /v1/diff the structural diff', async () => {
    const p = await postJson(srv.url + '/v1/parse', { question: 'who directed Heat', beam: 2 });
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.deepEqual(p.body.candidates.map((c: { form: string }) => c.form), ['(JOIN (R directed_by) [ Heat ])', '(JOIN (R written_by) [ Heat ])']);
    const c = await postJson(srv.url + '/v1/compile', { form: '(JOIN (R directed_by) [ Heat ])' });
    assert.equal(c.status, 200);
    assert.equal(c.body.kind, 'select');
    assert.deepEqual(literals(assertReadQuery(c.body.sparql)).filter((l) => l === 'Heat').length > 0, true);
    const bad = await postJson(srv.url + '/v1/compile', { form: '(JOIN (R directed_by) [ Heat )' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'FORM_SYNTAX');
    const d = await postJson(srv.url + '/v1/diff', { a: '(JOIN (R directed_by) [ Heat ])', b: '(JOIN (R written_by) [ Heat ])' });
    assert.equal(d.status, 200, JSON.stringify(d.body));
    assert.equal(d.body.equal, false);
    assert.equal(d.body.sameSkeleton, true);
    assert.ok(d.body.changes.some((ch: { kind: string; change: string }) => ch.kind === 'relation' && ch.change === 'substituted'), JSON.stringify(d.body.changes));
    const same = await postJson(srv.url + '/v1/diff', { a: '(AND [ a ] [ b ])', b: '(AND [ b ] [ a ])' });
    assert.equal(same.body.equalNormalized, true);
    const badDiff = await postJson(srv.url + '/v1/diff', { a: '(JOIN', b: '[ x ]' });
    assert.equal(badDiff.status, 400);
    assert.equal(badDiff.body.error.code, 'FORM_SYNTAX');
  });

  describe('injection: quotes, braces, #, newlines, ;, DROP, DELETE cannot change a generated query', () => {
    for (const payload of PAYLOADS) {
      it(`label ${JSON.stringify(payload)} compiles to one SELECT with the label as a single literal`, async () => {
        const form = `(JOIN (R directed_by) [ ${payload.replace(/\n/g, ' ')} ])`;
        const c = await postJson(srv.url + '/v1/compile', { form });
        assert.equal(c.status, 200, JSON.stringify(c.body));
        const q = assertReadQuery(c.body.sparql);
        assert.equal(q.queryType, 'SELECT');
        const lits = new Set(literals(q));
        assert.deepEqual([...lits], [payload.replace(/\n/g, ' ').replace(/\s+/g, ' ').trim()], c.body.sparql);
        // and it runs as a read query (no rows: no entity has that label)
        const run = await getJson(srv.url + '/sparql?query=' + encodeURIComponent(c.body.sparql));
        assert.equal(run.status, 200, JSON.stringify(run.body));
        assert.equal(run.body.results.bindings.length, 0);
      });
      it(`question "who directed ${JSON.stringify(payload)}" is answered without any update reaching the store`, async () => {
        const r = await postJson(srv.url + '/v1/ask', { question: 'who directed ' + payload, options: { timeoutMs: 20_000 } });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        for (const t of r.body.trace) if (t.sparql) assertReadQuery(t.sparql);
        if (r.body.sparql) assertReadQuery(r.body.sparql);
        assert.equal(await g.executor.count(COUNT_ALL), size0);
      });
    }
    it('a label that tries to close the bracket is a FORM_SYNTAX error, never compiled', async () => {
      const c = await postJson(srv.url + '/v1/compile', { form: '(JOIN (R directed_by) [ x ] ) (COUNT [ y ])' });
      assert.equal(c.status, 400);
      assert.equal(c.body.error.code, 'FORM_SYNTAX');
    });
    it('the store still holds every triple and the Forrest Gump answer', async () => {
      assert.equal(await g.executor.count(COUNT_ALL), size0);
      const r = await getJson(srv.url + '/v1/ask?question=' + encodeURIComponent('who directed Forrest Gump'));
      assert.deepEqual(r.body.answers.map((a: { label: string | null }) => a.label), ['Robert Zemeckis']);
    });
  });

  it('SPARQL updates against the real (worker) store are refused and change nothing', async () => {
    for (const u of ['DROP ALL', 'DELETE WHERE { ?s ?p ?o }', 'INSERT DATA { <a:b> <a:c> <a:d> }']) {
      const r = await getJson(srv.url + '/sparql', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'query=' + encodeURIComponent(u) });
      assert.equal(r.status, 403);
      assert.equal(r.body.error.code, 'UPDATE_FORBIDDEN');
    }
    assert.equal(await g.executor.count(COUNT_ALL), size0);
  });

  it('GERBIL QA form POST returns QALD-JSON with the answer IRIs', async () => {
    const r = await getJson(srv.url + '/gerbil', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'query=' + encodeURIComponent('who directed Forrest Gump') + '&lang=en',
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.questions[0].answers[0].results.bindings, [{ uri: { type: 'uri', value: entity('Robert Zemeckis') } }]);
    assertReadQuery(r.body.questions[0].query.sparql);
  });
});
