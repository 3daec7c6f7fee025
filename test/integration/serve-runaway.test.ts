import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openExecutor, type OxigraphExecutor } from '../../src/execute';
import type { RunningServer } from '../../src/serve';
import { entity, getJson, miniNTriples, relation, standInGateway, startTestServer } from './serve-helpers';
import { closeAll } from '../helpers/close-all';

const NORMAL = `SELECT ?m WHERE { ?m <${relation('directed_by')}> <${entity('Robert Zemeckis')}> }`;
// a cross product over 3,000 filler triples: 2.7e10 rows, never finishes on its own
const RUNAWAY = `SELECT (COUNT(*) AS ?n) WHERE { ?a <${relation('filler')}> ?b . ?c <${relation('filler')}> ?d . ?e <${relation('filler')}> ?f }`;

describe('serve: a runaway /sparql query is killed while other requests are served (stand-in pipeline, REAL Oxigraph worker executor)', function () {
  this.timeout(60_000);
  let srv: RunningServer;
  let ex: OxigraphExecutor;
  let dir: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-serve-'));
    const file = path.join(dir, 'mini.nt');
    fs.writeFileSync(file, miniNTriples(3000));
    ex = (await openExecutor(file)) as OxigraphExecutor;
    srv = await startTestServer(standInGateway(ex), { timeouts: { requestMs: 30_000, queryMs: 15_000, maxQueryMs: 20_000 } });
  });
  after(async () => {
    await closeAll(srv, ex);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runaway query with ?timeout=800 → 504 QUERY_TIMEOUT; concurrent /healthz and a normal query succeed', async () => {
    const generation0 = ex.userGeneration;
    const pipelineGeneration0 = ex.generation;
    const t0 = Date.now();
    const runaway = getJson(srv.url + '/sparql?timeout=800&query=' + encodeURIComponent(RUNAWAY)).then((r) => ({ ...r, ms: Date.now() - t0 }));
    await new Promise((r) => setTimeout(r, 150)); // the runaway is running in the worker now
    const health = await getJson(srv.url + '/healthz');
    const healthMs = Date.now() - t0;
    assert.equal(health.status, 200);
    assert.ok(healthMs < 700, `health answered after ${healthMs} ms, while the runaway query ran`);
    const normal = getJson(srv.url + '/sparql?query=' + encodeURIComponent(NORMAL)).then((r) => ({ ...r, ms: Date.now() - t0 }));
    const ask = getJson(srv.url + '/v1/ask?question=' + encodeURIComponent('who directed Heat'));
    const [r, n, a] = await Promise.all([runaway, normal, ask]);
    assert.equal(r.status, 504, JSON.stringify(r.body));
    assert.equal(r.body.error.code, 'QUERY_TIMEOUT');
    assert.ok(r.ms < 5000, `the runaway query was stopped after ${r.ms} ms`);
    assert.equal(n.status, 200, JSON.stringify(n.body));
    assert.equal(n.body.results.bindings.length, 3);
    assert.equal(a.status, 200);
    assert.deepEqual(a.body.answers.map((x: { label: string | null }) => x.label), ['Michael Mann']);
    assert.ok(ex.userGeneration > generation0, 'the executor killed the user store process and started a new one');
    assert.equal(ex.generation, pipelineGeneration0, 'the pipeline store process was not touched');
    // and the server keeps serving queries afterwards
    const again = await getJson(srv.url + '/sparql?query=' + encodeURIComponent(NORMAL));
    assert.equal(again.status, 200);
    const m = await (await fetch(srv.url + '/metrics')).text();
    assert.match(m, /^askgraph_errors_total\{code="QUERY_TIMEOUT"\} 1$/m);
  });

  it('CONSTRUCT and DESCRIBE through the worker executor give N-Triples (Turtle on request)', async () => {
    const c = await fetch(srv.url + '/sparql?query=' + encodeURIComponent(`DESCRIBE <${entity('Heat')}>`));
    assert.equal(c.status, 200);
    assert.match(c.headers.get('content-type') ?? '', /^application\/n-triples/);
    const nt = await c.text();
    assert.ok(nt.includes(`<${entity('Heat')}> <${relation('directed_by')}> <${entity('Michael Mann')}> .`), nt);
    const t = await fetch(srv.url + '/sparql?query=' + encodeURIComponent(`CONSTRUCT WHERE { <${entity('Heat')}> ?p ?o }`), { headers: { accept: 'text/turtle' } });
    assert.match(t.headers.get('content-type') ?? '', /^text\/turtle/);
    assert.equal((await t.text()).trim().split('\n').length, 3);
    // SPARQL results JSON only (an editor): the triples as ?s ?p ?o solutions (issue 23; was 406)
    const asRows = await fetch(srv.url + '/sparql?query=' + encodeURIComponent(`CONSTRUCT WHERE { <${entity('Heat')}> ?p ?o }`), { headers: { accept: 'application/sparql-results+json' } });
    assert.equal(asRows.status, 200);
    const rows = await asRows.json();
    assert.deepEqual(rows.head.vars, ['s', 'p', 'o']);
    assert.equal(rows.results.bindings.length, 3);
    const bad = await fetch(srv.url + '/sparql?query=' + encodeURIComponent(`CONSTRUCT WHERE { ?s ?p ?o }`), { headers: { accept: 'image/png' } });
    assert.equal(bad.status, 406);
  });

  it('a timeout above the configured maximum is capped (the query still runs with the cap)', async () => {
    const r = await getJson(srv.url + '/sparql?timeout=999999999&query=' + encodeURIComponent(NORMAL));
    assert.equal(r.status, 200);
  });
});
