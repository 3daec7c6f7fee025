/**
 * Remote mode under faults: a REAL server, the REAL pipeline (MOCK generator: the parser model is trained
 * separately) over a REAL Virtuoso holding the movies graph, reached through a FAULT-INJECTING loopback
 * proxy (test/helpers/fault-proxy.ts) that hangs or truncates responses on demand.
 *  - one timed-out /sparql query (a cartesian count) or one hung endpoint request must not make later
 *    questions and queries time out (issue 22, item 2: Comunica's process-wide per-host rate limiter
 *    spaced every later request ~the timeout apart); /healthz says "degraded" with the reason;
 *  - remote results are capped by sparql.maxResultBytes (422 RESULT_TOO_LARGE, the rest of the body not
 *    read), and a truncated upstream body is 502 ENDPOINT_ERROR, never a 200 with fewer or no answers
 *    (item 7).
 */
import { strict as assert } from 'node:assert';
import type { Gateway } from '../../src/pipeline';
import { createGateway } from '../../src/pipeline';
import type { RunningServer } from '../../src/serve';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { answersOf, getJson, mockGenerator, postJson, startTestServer } from './serve-helpers';
import { ensureGraph, graphEndpoint, moviesNTriples } from './virtuoso-setup';
import { openExecutor } from '../../src/execute';
import { closeAll } from '../helpers/close-all';

const GRAPH = 'http://askgraph.dev/test/movies';
const QUESTIONS = ['who directed Jaws', 'who starred in Big', 'who directed Alien'];
const CARTESIAN = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';

function sparql(url: string, query: string, extra = '') {
  return getJson(url + '/sparql?query=' + encodeURIComponent(query) + extra, { headers: { accept: 'application/sparql-results+json' } });
}

describe('serve in remote mode over REAL Virtuoso through a FAULT-INJECTING proxy (REAL pipeline, MOCK generator)', function () {
  this.timeout(180_000);
  let proxy: FaultProxy;
  let gateway: Gateway;
  let server: RunningServer;
  const quiet = new Map<string, string[]>();

  before(async () => {
    const ox = await openExecutor();
    const size = await ox.count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }', { timeoutMs: 60_000 });
    await ox.close();
    await ensureGraph(moviesNTriples(), GRAPH, size);
    proxy = await startFaultProxy(graphEndpoint(GRAPH));
    // the entity index of the embedded movies store (same IRIs as the Virtuoso copy): not rebuilt per proxy port
    const embedded = await createGateway({ generator: mockGenerator() });
    const index = embedded.index;
    await embedded.close();
    gateway = await createGateway({ generator: mockGenerator(), store: proxy.url, index });
    server = await startTestServer(gateway, { cache: { max: 0 }, sparql: { maxResultBytes: 256 * 1024 } });
    for (const q of QUESTIONS) {
      const r = await postJson(server.url + '/v1/ask', { question: q });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.ok(r.body.answers.length > 0, q);
      quiet.set(q, answersOf(r.body));
    }
  });
  after(async () => {
    await closeAll(server, gateway, proxy);
  });

  async function sameAnswersAsQuiet(): Promise<void> {
    for (const q of QUESTIONS) {
      const r = await postJson(server.url + '/v1/ask', { question: q });
      assert.equal(r.status, 200, `${q}: ${JSON.stringify(r.body).slice(0, 400)}`);
      assert.deepEqual(answersOf(r.body), quiet.get(q), q);
    }
    const s = await sparql(server.url, `SELECT ?x WHERE { ?x <http://askgraph.dev/movies/relation/directed_by> <http://askgraph.dev/movies/entity/Steven%20Spielberg> }`);
    assert.equal(s.status, 200, JSON.stringify(s.body).slice(0, 400));
    assert.ok(s.body.results.bindings.length > 5);
  }

  it('a /sparql cartesian count that times out (504) leaves later questions and queries answered as before; /healthz says degraded', async () => {
    const r = await sparql(server.url, CARTESIAN);
    assert.equal(r.status, 504, JSON.stringify(r.body));
    assert.equal(r.body.error.code, 'QUERY_TIMEOUT');
    const h = await getJson(server.url + '/healthz');
    assert.equal(h.status, 200);
    assert.equal(h.body.status, 'degraded');
    assert.equal(h.body.endpoint.state, 'degraded');
    assert.ok(h.body.endpoint.failures.timeout >= 1, JSON.stringify(h.body));
    assert.match(h.body.endpoint.reason, /QUERY_TIMEOUT/);
    await sameAnswersAsQuiet();
  });

  it('an endpoint request that hangs until its timeout leaves later questions answered as before', async () => {
    proxy.hang(1);
    const r = await sparql(server.url, 'ASK { ?s ?p ?o }');
    assert.equal(r.status, 504, JSON.stringify(r.body));
    await sameAnswersAsQuiet();
  });

  it('a result over sparql.maxResultBytes is 422 RESULT_TOO_LARGE and the rest of the body is not read', async () => {
    const copies = Array.from({ length: 40 }, () => 'STR(?s)').join(', ');
    const bloated = `SELECT ?s (CONCAT(${copies}) AS ?big) WHERE { ?s ?p ?o } LIMIT 1000`;
    const before = proxy.bytesDown;
    const r = await sparql(server.url, bloated);
    assert.equal(r.status, 422, JSON.stringify(r.body).slice(0, 300));
    assert.equal(r.body.error.code, 'RESULT_TOO_LARGE');
    // the full body is 1000 rows of > 40 × 30 characters (> 1.2 MB); far less of it went through the proxy
    assert.ok(proxy.bytesDown - before < 1_200_000, `${proxy.bytesDown - before} bytes forwarded`);
  });

  for (const framing of ['length', 'close'] as const) {
    it(`a truncated upstream body (${framing === 'length' ? 'connection closed short of its framing' : 'close-delimited, ended cleanly'}) is 502 ENDPOINT_ERROR for /sparql and /v1/ask, never a 200`, async () => {
      try {
        proxy.truncate({ afterBytes: 120, framing });
        const s = await sparql(server.url, `SELECT ?x WHERE { ?x <http://askgraph.dev/movies/relation/directed_by> <http://askgraph.dev/movies/entity/Steven%20Spielberg> }`);
        assert.equal(s.status, 502, JSON.stringify(s.body).slice(0, 300));
        assert.equal(s.body.error.code, 'ENDPOINT_ERROR');
        const a = await postJson(server.url + '/v1/ask', { question: 'who directed Jaws' });
        assert.equal(a.status, 502, JSON.stringify(a.body).slice(0, 300));
        assert.equal(a.body.error.code, 'ENDPOINT_ERROR');
      } finally {
        proxy.reset();
      }
      await sameAnswersAsQuiet();
    });
  }
});
