/**
 * Several gateways behind one load balancer (issue 25 item 5): two REAL askgraph servers, each with its
 * own REAL pipeline (grounding, compiler, EndpointExecutor, fallback; the MOCK generator of serve-helpers)
 * over one endpoint (a REAL askgraph + Oxigraph server standing for Virtuoso), behind the STAND-IN
 * round-robin balancer of test/helpers/round-robin.ts. Whatever a client holds from one reply (an answer's
 * IRIs, a request id, a page of a query) must work on the next request, which reaches the other replica;
 * and the two replicas answer alike.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openExecutor, type OxigraphExecutor } from '../../src/execute';
import { createGateway, type Gateway } from '../../src/pipeline';
import type { RunningServer } from '../../src/serve';
import { startRoundRobin, type RoundRobin } from '../helpers/round-robin';
import { answersOf, entity, getJson, miniNTriples, mockGenerator, postJson, standInGateway, startTestServer } from './serve-helpers';
import { closeAll } from '../helpers/close-all';

/** An answer without what may differ between two runs of the same question: timings and the cache flag. */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (/(^|[a-z])(ms|Ms|MS)$|^timings?$|^elapsed/.test(k)) continue;
      out[k] = comparable(v);
    }
    return out;
  }
  return value;
}

const QUESTIONS = ['who directed Forrest Gump', 'who directed Heat', 'who starred in Cast Away', 'who starred in Heat', 'who directed Back to the Future', 'who directed Nothing At All'];

describe('two gateways behind a round-robin balancer (REAL servers and pipelines, MOCK generator, STAND-IN balancer)', function () {
  this.timeout(180_000);
  let dir: string;
  let store: OxigraphExecutor;
  let endpoint: RunningServer;
  const gateways: Gateway[] = [];
  const replicas: RunningServer[] = [];
  let lb: RoundRobin;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-replicas-'));
    fs.writeFileSync(path.join(dir, 'mini.nt'), miniNTriples());
    store = (await openExecutor(path.join(dir, 'mini.nt'))) as OxigraphExecutor;
    endpoint = await startTestServer(standInGateway(store));
    for (let i = 0; i < 2; i++) {
      // each replica opens its own pipeline over the endpoint; they share the entity-index cache folder
      const g = await createGateway({ generator: mockGenerator(), store: endpoint.url + '/sparql', cacheDir: path.join(dir, 'cache') });
      gateways.push(g);
      replicas.push(await startTestServer(g, { trustProxy: ['loopback'] }));
    }
    lb = await startRoundRobin(replicas.map((r) => r.url));
  });
  after(async () => {
    await closeAll(lb);
    for (const r of replicas) await r.close();
    for (const g of gateways) await g.close();
    await closeAll(endpoint, store);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the same question gets the same answer from either replica (and from the cache of either)', async () => {
    let answered = 0;
    for (const question of QUESTIONS) {
      const bodies: unknown[] = [];
      const by: number[] = [];
      for (let k = 0; k < 4; k++) {
        const r = await postJson(lb.url + '/v1/ask', { question });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        bodies.push(comparable(r.body));
        by.push(lb.routed[lb.routed.length - 1] ?? -1);
      }
      assert.deepEqual([...new Set(by)].sort(), [0, 1], 'both replicas answered');
      for (const b of bodies.slice(1)) assert.deepEqual(b, bodies[0], question);
      if (((bodies[0] as { answers?: unknown[] }).answers ?? []).length > 0) answered++;
    }
    assert.ok(answered >= 4, `${answered} of ${QUESTIONS.length} questions answered`);
  });

  it("an answer's IRIs, a request id and a page of a query carry over to the other replica; nothing to hold (no ETag, cookie, session)", async () => {
    const a = await postJson(lb.url + '/v1/ask', { question: 'who directed Forrest Gump' }, { 'X-Request-Id': 'client-held-id-1' });
    assert.equal(a.headers.get('x-request-id'), 'client-held-id-1');
    const iris = (a.body.answers as { value: string }[]).map((x) => x.value);
    assert.deepEqual(iris, [entity('Robert Zemeckis')]);
    // the labels of those IRIs, asked of each replica in turn
    const labels = [];
    for (let k = 0; k < 2; k++) {
      const l = await postJson(lb.url + '/v1/labels', { iris }, { 'X-Request-Id': 'client-held-id-1' });
      assert.equal(l.status, 200);
      assert.equal(l.headers.get('x-request-id'), 'client-held-id-1');
      labels.push(l.body);
    }
    assert.deepEqual(labels[0], labels[1]);
    assert.equal(labels[0].labels[entity('Robert Zemeckis')], 'Robert Zemeckis');
    // paging a /sparql result: each page from the other replica, together the whole ordered result
    const q = (page: string) => `SELECT ?s ?o WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?o } ORDER BY ?s ?o ${page}`;
    const rows = (body: { results: { bindings: Record<string, { value: string } | undefined>[] } }) => body.results.bindings.map((b) => `${b.s?.value} ${b.o?.value}`);
    const whole = await getJson(lb.url + '/sparql?query=' + encodeURIComponent(q('')), { headers: { accept: 'application/sparql-results+json' } });
    assert.equal(whole.status, 200);
    const paged: string[] = [];
    const pagedBy = new Set<number>();
    for (let offset = 0; offset < rows(whole.body).length; offset += 3) {
      const p = await getJson(lb.url + '/sparql?query=' + encodeURIComponent(q(`LIMIT 3 OFFSET ${offset}`)), { headers: { accept: 'application/sparql-results+json' } });
      assert.equal(p.status, 200);
      pagedBy.add(lb.routed[lb.routed.length - 1] ?? -1);
      paged.push(...rows(p.body));
    }
    assert.equal(pagedBy.size, 2);
    assert.deepEqual(paged, rows(whole.body));
    // no per-replica token a client would send back
    for (const r of [a, whole]) {
      for (const h of ['etag', 'set-cookie', 'last-modified']) assert.equal(r.headers.get(h), null, h);
    }
  });

  it('behind the balancer each client is its own client (trustProxy): one client over its rate limit leaves another served', async () => {
    const limited: RunningServer[] = [];
    let lb2: RoundRobin | undefined;
    try {
      for (let i = 0; i < 2; i++) limited.push(await startTestServer(standInGateway(store), { trustProxy: ['loopback'], rateLimit: { perMinute: 1, burst: 2 } }));
      lb2 = await startRoundRobin(limited.map((r) => r.url));
      const asClient = (address: string) => postJson(lb2!.url + '/v1/ask', { question: 'who directed Heat' }, { 'X-Forwarded-For': address });
      const statuses: number[] = [];
      for (let k = 0; k < 6; k++) statuses.push((await asClient('203.0.113.7')).status);
      // burst 2 per replica: 2 replicas give a client 4 (docs/deployment.md: divide the rate, or limit at the balancer)
      assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
      const other = await asClient('198.51.100.9');
      assert.equal(other.status, 200, 'another client is not refused for the first one');
      assert.deepEqual(answersOf(other.body), [`${entity('Michael Mann')} Michael Mann`]);
    } finally {
      await closeAll(lb2);
      for (const r of limited) await r.close();
    }
  });
});
