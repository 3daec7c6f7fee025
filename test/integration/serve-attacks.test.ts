/**
 * The hostile /sparql requests of issue 15 against the REAL server, the real pipeline (shipped parser
 * model) and the real embedded movies store in its supervised store processes: crash, poison, freeze,
 * starvation, federation / dataset, bad encodings and headers. After each attack the process is alive
 * and /sparql and /v1/ask answer correctly.
 */
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import fc from 'fast-check';
import { createGateway, type Gateway } from '../../src/pipeline';
import { OxigraphExecutor } from '../../src/execute';
import type { RunningServer } from '../../src/serve';
import { entity, getJson, postJson, relation, startTestServer } from './serve-helpers';
import { closeAll } from '../helpers/close-all';

const GUMP_DIRECTOR = `SELECT ?d WHERE { <${entity('Forrest Gump')}> <${relation('directed_by')}> ?d }`;
const CARTESIAN = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f }';

function sparqlPost(url: string, query: string, headers: Record<string, string> = {}, search = '') {
  return getJson(url + '/sparql' + search, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: 'query=' + encodeURIComponent(query) });
}

/**
 * Asks with budgets no loaded machine spends (a store process restarting after an attack reloads its
 * snapshot first): these tests assert what is answered, not how fast.
 */
async function askLabels(url: string, question: string): Promise<{ status: number; labels: string[]; body: Awaited<ReturnType<typeof postJson>>['body']; ms: number }> {
  const t0 = Date.now();
  const r = await postJson(url + '/v1/ask', { question, options: { timeoutMs: 60_000, queryTimeoutMs: 30_000 } });
  return { status: r.status, labels: (r.body.answers ?? []).map((a: { label: string }) => a.label), body: r.body, ms: Date.now() - t0 };
}

/** The server answers /sparql and /v1/ask correctly (after an attack). */
async function assertServing(url: string): Promise<void> {
  const s = await sparqlPost(url, GUMP_DIRECTOR);
  assert.equal(s.status, 200, JSON.stringify(s.body));
  assert.deepEqual(
    s.body.results.bindings.map((b: { d: { value: string } }) => b.d.value),
    [entity('Robert Zemeckis')],
  );
  const a = await askLabels(url, 'who directed Forrest Gump');
  assert.equal(a.status, 200, JSON.stringify(a.body));
  assert.deepEqual(a.labels, ['Robert Zemeckis']);
}

/** Sends a raw HTTP request and returns the status line (or the socket error). */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    let data = '';
    sock.on('data', (d) => (data += d.toString('latin1')));
    sock.on('error', (e) => resolve('error: ' + String((e as NodeJS.ErrnoException).code)));
    sock.on('close', () => resolve(`${String(data.split('\r\n')[0])}\n${String(data.split('\r\n\r\n')[1])}`));
    sock.write(request);
  });
}

describe('serve under attack: crash, poison, freeze, starvation (REAL server, pipeline, parser and Oxigraph store processes)', function () {
  this.timeout(180_000);
  let g: Gateway;
  let srv: RunningServer;
  let ex: OxigraphExecutor;
  before(async () => {
    g = await createGateway();
    assert.ok(g.executor instanceof OxigraphExecutor, 'the gateway runs the embedded store in its worker');
    ex = g.executor;
    srv = await startTestServer(g, { timeouts: { requestMs: 60_000, queryMs: 10_000, maxQueryMs: 60_000 }, cache: { max: 0, ttlMs: 1, maxBytes: 1024 }, sparql: { perClient: 32 }, ask: { maxQueryTimeoutMs: 60_000 } });
    await assertServing(srv.url);
  });
  after(async () => {
    await closeAll(srv, g);
  });

  it('crash: CONSTRUCT of the whole graph as N-Triples is cut at the row cap (X-SPARQL-MaxRows), the process lives; a LIMITed one streams', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await sparqlPost(srv.url, 'CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }', { accept: 'application/n-triples' });
      assert.equal(r.status, 200, String(r.body).slice(0, 300));
      assert.equal(r.headers.get('x-sparql-maxrows'), '10000');
      assert.equal(String(r.body).trim().split('\n').length, 10_000);
    }
    const ok = await fetch(srv.url + '/sparql?query=' + encodeURIComponent('CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } LIMIT 5000'), { headers: { accept: 'application/n-triples' } });
    assert.equal(ok.status, 200);
    const lines = (await ok.text()).trim().split('\n');
    assert.equal(lines.length, 5000);
    for (const l of lines.slice(0, 50)) assert.match(l, /^<[^>]+> <[^>]+> (<[^>]+>|".*") \.$/);
    await assertServing(srv.url);
  });

  it('poison: 1,000 nested groups and 5,000 patterns are 400 QUERY_TOO_COMPLEX before any parser or store sees them', async () => {
    const gen = ex.userGeneration;
    const nested = 'SELECT * WHERE ' + '{'.repeat(1000) + ' ?s ?p ?o ' + '}'.repeat(1000);
    const r1 = await sparqlPost(srv.url, nested);
    assert.equal(r1.status, 400);
    assert.equal(r1.body.error.code, 'QUERY_TOO_COMPLEX');
    // 5,000 patterns in under the body limit (short variable names)
    const flat = 'SELECT * WHERE { ' + Array.from({ length: 5000 }, (_, i) => `?${(i % 26).toString(36)}${i} ?p ?o .`).join('') + ' }';
    const r2 = await sparqlPost(srv.url, flat);
    assert.ok([400, 413].includes(r2.status), JSON.stringify(r2.body));
    assert.ok(['QUERY_TOO_COMPLEX', 'INPUT_TOO_LARGE'].includes(r2.body.error.code));
    // 1,200 patterns in 12 KB: within the size limit, over the pattern limit (counted on the parsed query)
    const many = 'SELECT * WHERE { ' + Array.from({ length: 1200 }, (_, i) => `?v${i} ?p ?o.`).join('') + ' }';
    const r3 = await sparqlPost(srv.url, many);
    assert.equal(r3.status, 400);
    assert.equal(r3.body.error.code, 'QUERY_TOO_COMPLEX');
    assert.match(r3.body.error.message, /patterns/);
    assert.equal(ex.userGeneration, gen, 'nothing reached the store');
    await assertServing(srv.url);
  });

  it('poison hidden by escapes (issue 22): e:a\\# and other PN_LOCAL escapes, strings and \\r-ended comments before 300-1,000 levels are 400 QUERY_TOO_COMPLEX; no store restart', async () => {
    const gen = ex.userGeneration;
    const hiders = ['e:a\\#', "e:a\\' . ?s ?p e:b\\'", 'e:a\\#\\(\\[', '"x\\"#"', '?o # note\r'];
    for (const [i, levels] of [300, 600, 1000].entries()) {
      for (const h of hiders) {
        const q = `PREFIX e: <http://e/> SELECT * WHERE { ?s ?p ${h} ${'{'.repeat(levels)} ?s ?p ?o ${'}'.repeat(levels)} } LIMIT ${i + 1}`;
        const r = await sparqlPost(srv.url, q);
        assert.equal(r.status, 400, `${levels} levels after ${h}: ${JSON.stringify(r.body).slice(0, 300)}`);
        assert.equal(r.body.error.code, 'QUERY_TOO_COMPLEX');
      }
    }
    // random mixes of escaped names and strings before random nesting (fast-check), through the real route
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('e:a\\#', "e:a\\'", 'e:a\\(', 'e:a\\%', '"\\"("', "'''a''{'''", '<http://x/#[>'), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 60, max: 700 }),
        async (hs, levels) => {
          const q = `PREFIX e: <http://e/> SELECT * WHERE { ${hs.map((h) => `?s ?p ${h} .`).join(' ')} ${'{'.repeat(levels)} ?s ?p ?o ${'}'.repeat(levels)} }`;
          const r = await sparqlPost(srv.url, q);
          assert.equal(r.status, 400, JSON.stringify(r.body).slice(0, 300));
          assert.equal(r.body.error.code, 'QUERY_TOO_COMPLEX');
        },
      ),
      { numRuns: 12 },
    );
    assert.equal(ex.userGeneration, gen, 'no store process was restarted');
    const h = await getJson(srv.url + '/healthz');
    assert.equal(h.body.storeProcesses.user.restarts, gen - 1);
    await assertServing(srv.url);
  });

  it('poison that reaches the store: a wasm trap (out-of-bounds) restarts the store process; healthz says degraded, then ready', async () => {
    // The checker is bypassed on purpose: the REAL store gets the 1,000-level query the checker refuses.
    const gen = ex.userGeneration;
    const trap = 'SELECT * WHERE ' + '{'.repeat(1000) + ' ?s ?p ?o ' + '}'.repeat(1000) + ' LIMIT 1';
    await assert.rejects(ex.runChecked({ form: 'SELECT', run: trap, capped: false, service: false, functions: [], patterns: 1 }, { timeoutMs: 20_000 }), { code: 'STORE_UNAVAILABLE', message: /restarted/ });
    const h = await getJson(srv.url + '/healthz');
    assert.equal(h.status, 200);
    assert.equal(h.body.status, 'degraded');
    assert.equal(h.body.storeProcesses.user.state, 'restarting');
    assert.equal(h.body.storeProcesses.pipeline.state, 'ready');
    // queries wait for the fresh process and are answered
    await assertServing(srv.url);
    assert.equal(ex.userGeneration, gen + 1);
    const after = await getJson(srv.url + '/healthz');
    assert.equal(after.body.status, 'ok');
    const m = await (await fetch(srv.url + '/metrics')).text();
    assert.match(m, /^# TYPE askgraph_store_restarts_total counter$/m);
    assert.match(m, /^askgraph_store_restarts_total [1-9]\d*$/m);
    assert.match(m, /^askgraph_store_processes_not_ready 0$/m);
    assert.equal(after.body.storeProcesses.user.restarts, gen);
  });

  it('a store process that dies (SIGKILL, as a V8 fatal error would) is restarted by the supervisor; the pipeline keeps answering', async () => {
    const gen = ex.generation;
    ex.killStoreProcess('pipeline');
    await new Promise((r) => setTimeout(r, 200)); // the exit reaches the supervisor
    // the question waits for the restart (or fails with a 5xx, never a 200 without answers)
    const a = await askLabels(srv.url, 'who directed Forrest Gump');
    if (a.status === 200) assert.deepEqual(a.labels, ['Robert Zemeckis']);
    else assert.ok(a.status >= 500, JSON.stringify(a.body));
    await ex.whenReady();
    assert.equal(ex.generation, gen + 1);
    await assertServing(srv.url);
  });

  it('freeze: /healthz answers within 1 s while 16 deep, long queries are being checked', async () => {
    // just under the limits: depth 45, ~31 KB each
    const unit = '{'.repeat(45) + '?s ?p ?o' + '}'.repeat(45);
    let q = 'SELECT * WHERE { ';
    while (q.length < 31_000) q += unit + ' UNION ';
    q += unit + ' } LIMIT 1';
    const attacks = Array.from({ length: 16 }, () => getJson(srv.url + '/sparql', { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: q }));
    await new Promise((r) => setTimeout(r, 100));
    const health: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = Date.now();
      const h = await getJson(srv.url + '/healthz');
      health.push(Date.now() - t0);
      assert.equal(h.status, 200);
      await new Promise((r) => setTimeout(r, 100));
    }
    const results = await Promise.all(attacks);
    for (const r of results) assert.ok([200, 400, 503, 504].includes(r.status), JSON.stringify(r.body).slice(0, 200));
    assert.ok(results.some((r) => r.status === 400 && r.body.error.code === 'QUERY_TOO_COMPLEX'), 'the checker refused them');
    assert.ok(Math.max(...health) < 5000, `healthz took ${health.join(', ')} ms`);
    await assertServing(srv.url);
  });

  it('starvation: while a cartesian query runs on /sparql (timeout=30000), /v1/ask answers right', async () => {
    const t0 = Date.now();
    const cart = sparqlPost(srv.url, CARTESIAN, {}, '?timeout=30000').then((r) => ({ ...r, ms: Date.now() - t0 }));
    await new Promise((r) => setTimeout(r, 300));
    const answered: number[] = [];
    for (const [q, a] of [
      ['who directed Forrest Gump', 'Robert Zemeckis'],
      ['who directed Heat', 'Michael Mann'],
    ] as const) {
      const r = await askLabels(srv.url, q);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.ok(r.labels.includes(a), `${q}: ${r.labels.join(',')}`);
      answered.push(Date.now() - t0);
    }
    const c = await cart;
    assert.equal(c.status, 504, JSON.stringify(c.body));
    // the questions were answered while the cartesian query still ran (it ends only at its timeout)
    assert.ok(Math.max(...answered) <= c.ms, `answered at ${answered.join(', ')} ms, the cartesian query ended at ${c.ms} ms`);
    await assertServing(srv.url);
  });

  it('a per-client share and a pool: a second /sparql query of a client while its first runs is 429; another client is served by a second store process', async () => {
    await ex.openUserLane(2); // a second user store process
    const keys = { one: 'client-one-key', two: 'client-two-key' };
    const one = await startTestServer(g, { apiKeys: [keys.one, keys.two], sparql: { perClient: 1, perClientQueue: 0 }, timeouts: { requestMs: 12_000, queryMs: 3000, maxQueryMs: 3000 } });
    try {
      const cart = sparqlPost(one.url, CARTESIAN, { 'x-api-key': keys.one });
      await new Promise((r) => setTimeout(r, 300));
      const second = await sparqlPost(one.url, GUMP_DIRECTOR, { 'x-api-key': keys.one });
      assert.equal(second.status, 429);
      assert.equal(second.body.error.code, 'RATE_LIMITED');
      assert.equal(second.headers.get('retry-after'), '1');
      const other = await sparqlPost(one.url, GUMP_DIRECTOR, { 'x-api-key': keys.two });
      assert.equal(other.status, 200, JSON.stringify(other.body));
      assert.equal(other.body.results.bindings[0].d.value, entity('Robert Zemeckis'));
      const c = await cart;
      assert.equal(c.status, 504, JSON.stringify(c.body));
      assert.equal((await sparqlPost(one.url, GUMP_DIRECTOR, { 'x-api-key': keys.one })).status, 200);
      const h = await getJson(one.url + '/healthz');
      assert.ok(h.body.storeProcesses.user2, JSON.stringify(h.body));
    } finally {
      await one.close();
    }
  });

  it('errors are errors: a question that runs out of time is 504 QUERY_TIMEOUT with the failed steps, not 200 "no answer"', async () => {
    // a 1 ms budget: generation alone spends it, so no query can run
    const r = await postJson(srv.url + '/v1/ask', { question: 'who directed Forrest Gump', options: { timeoutMs: 1 } });
    assert.equal(r.status, 504, JSON.stringify(r.body).slice(0, 400));
    assert.equal(r.body.error.code, 'QUERY_TIMEOUT');
    assert.ok(r.body.error.details.trace.some((t: { stage: string; note?: string }) => t.stage === 'execute' && t.note === 'time budget spent'), JSON.stringify(r.body.error.details));
    // a store that fails during the question: 5xx with the store's code, never 200 without answers
    const gen = ex.generation;
    const asking = postJson(srv.url + '/v1/ask', { question: 'who starred in Forrest Gump', options: { fallback: 'off' } });
    ex.killStoreProcess('pipeline');
    const k = await asking;
    if (k.status === 200) assert.ok(k.body.answers.length > 0, JSON.stringify(k.body).slice(0, 400));
    else {
      assert.ok(k.status >= 500, JSON.stringify(k.body));
      assert.ok(['STORE_UNAVAILABLE', 'QUERY_TIMEOUT'].includes(k.body.error.code), JSON.stringify(k.body));
    }
    await new Promise((res) => setTimeout(res, 200));
    assert.ok(ex.generation > gen);
    await ex.whenReady();
    await assertServing(srv.url);
  });

  it('SERVICE is 403 FEDERATION_FORBIDDEN; FROM and the protocol dataset are honoured on the embedded store', async () => {
    const svc = await sparqlPost(srv.url, 'SELECT * WHERE { SERVICE <http://127.0.0.1:1/sparql> { ?s ?p ?o } }');
    assert.equal(svc.status, 403);
    assert.equal(svc.body.error.code, 'FEDERATION_FORBIDDEN');
    const nested = await sparqlPost(srv.url, 'SELECT * WHERE { { SELECT ?s WHERE { SERVICE <http://127.0.0.1:1/x> { ?s ?p ?o } } } }');
    assert.equal(nested.status, 403);
    // the movies data is in the default graph: a FROM of another graph sees nothing, FROM the default sees it
    const count = (b: { results: { bindings: { n: { value: string } }[] } }) => Number(b.results.bindings[0]!.n.value);
    const other = await sparqlPost(srv.url, 'SELECT (COUNT(*) AS ?n) FROM <http://example.org/nothing> WHERE { ?s ?p ?o }');
    assert.equal(other.status, 200);
    assert.equal(count(other.body), 0);
    const all = await sparqlPost(srv.url, 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }');
    assert.ok(count(all.body) > 100_000);
    const byParam = await getJson(srv.url + '/sparql?query=' + encodeURIComponent('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }') + '&default-graph-uri=' + encodeURIComponent('http://example.org/nothing'));
    assert.equal(byParam.status, 200);
    assert.equal(count(byParam.body), 0);
  });

  it('bad Content-Encoding is 400 / 415, a 100 KB header is 431, and no public response shows a path', async () => {
    const gz = await getJson(srv.url + '/sparql', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' }, body: 'query=ASK%7B%7D' });
    assert.equal(gz.status, 400);
    assert.equal(gz.body.error.code, 'BAD_REQUEST');
    const unknown = await getJson(srv.url + '/v1/ask', { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'x-custom' }, body: '{}' });
    assert.equal(unknown.status, 415);
    assert.equal(unknown.body.error.code, 'UNSUPPORTED_MEDIA_TYPE');
    const big = await rawRequest(srv.port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`);
    assert.match(big, /^HTTP\/1\.1 431 /);
    assert.match(big, /HEADERS_TOO_LARGE/);
    const h = await (await fetch(srv.url + '/healthz')).text();
    const packDir = (g.pack as { dir: string }).dir;
    assert.ok(!h.includes(packDir) && !h.includes(process.cwd()), h);
    assert.match(JSON.parse(h).store, /^oxigraph:movies$/);
    // /v1/overview names the store the same way (issue 22: it showed the pack's path)
    const o = await (await fetch(srv.url + '/v1/overview')).text();
    assert.ok(!o.includes(packDir) && !o.includes(process.cwd()), o.slice(0, 300));
    assert.equal(JSON.parse(o).store.id, 'oxigraph:movies');
    // JSON in a charset other than UTF-8 is 415, not 400 (issue 22)
    const latin1 = await getJson(srv.url + '/v1/ask', { method: 'POST', headers: { 'content-type': 'application/json; charset=iso-8859-1' }, body: '{"question":"who directed Forrest Gump"}' });
    assert.equal(latin1.status, 415, JSON.stringify(latin1.body));
    assert.equal(latin1.body.error.code, 'UNSUPPORTED_MEDIA_TYPE');
    assert.match(latin1.body.error.message, /charset/);
  });
});
