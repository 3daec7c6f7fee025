import { strict as assert } from 'node:assert';
import { createGateway, type Gateway } from '../../src/pipeline';
import { getJson, postJson, recordedGateway, startTestServer } from './serve-helpers';

const ASK = '/v1/ask?question=' + encodeURIComponent('who directed Heat');

describe('serve: API keys, rate limiting, CORS, request timeout (real gateway; latency injected where a test needs a slow pipeline)', () => {
  let real: Gateway;
  before(async function () {
    this.timeout(120_000);
    real = await createGateway();
  });
  after(() => real.close());
  it('API keys: API routes need a configured X-API-Key; health, metrics, OpenAPI and the page stay open', async () => {
    const srv = await startTestServer(recordedGateway(real), { apiKeys: ['key-alpha-123', 'key-beta-4567'] });
    try {
      const missing = await getJson(srv.url + ASK);
      assert.equal(missing.status, 401);
      assert.equal(missing.body.error.code, 'UNAUTHORIZED');
      assert.match(missing.body.error.message, /missing API key/);
      const wrong = await getJson(srv.url + ASK, { headers: { 'x-api-key': 'key-alpha-124' } });
      assert.equal(wrong.status, 401);
      assert.match(wrong.body.error.message, /invalid API key/);
      assert.equal((await getJson(srv.url + ASK, { headers: { 'x-api-key': 'key-alpha-123' } })).status, 200);
      assert.equal((await getJson(srv.url + ASK, { headers: { 'x-api-key': 'key-beta-4567' } })).status, 200);
      assert.equal((await getJson(srv.url + '/sparql?query=ASK{}')).status, 401);
      assert.equal((await getJson(srv.url + '/sparql?query=ASK{}', { headers: { 'x-api-key': 'key-beta-4567' } })).status, 200);
      assert.equal((await postJson(srv.url + '/v1/compile', { form: 'x' })).status, 401);
      assert.equal((await getJson(srv.url + '/qald?question=x')).status, 401);
      // routing is case-insensitive and tolerates a trailing slash: the key check must be too
      for (const p of ['/SPARQL?query=ASK{}', '/sparql/?query=ASK{}', '/V1/ask?question=x', '/v1//ask?question=x', '/nope']) {
        assert.equal((await getJson(srv.url + p)).status, 401, p);
      }
      for (const open of ['/healthz', '/metrics', '/openapi.json', '/']) assert.equal((await fetch(srv.url + open)).status, 200, open);
      const doc = await getJson(srv.url + '/openapi.json');
      assert.deepEqual(doc.body.paths['/v1/ask'].post.security, [{ apiKey: [] }]);
    } finally {
      await srv.close();
    }
  });

  it('rate limiting: a token bucket per key gives 429 RATE_LIMITED with Retry-After; other keys are unaffected', async () => {
    const srv = await startTestServer(recordedGateway(real), { apiKeys: ['key-alpha-123', 'key-beta-4567'], rateLimit: { perMinute: 6, burst: 3 } });
    try {
      const h = { 'x-api-key': 'key-alpha-123' };
      for (let i = 0; i < 3; i++) assert.equal((await getJson(srv.url + ASK, { headers: h })).status, 200, `request ${i}`);
      const limited = await getJson(srv.url + ASK, { headers: h });
      assert.equal(limited.status, 429);
      assert.equal(limited.body.error.code, 'RATE_LIMITED');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      assert.equal((await getJson(srv.url + ASK, { headers: { 'x-api-key': 'key-beta-4567' } })).status, 200);
      assert.equal((await getJson(srv.url + '/healthz')).status, 200, 'health is not rate limited');
      const m = await (await fetch(srv.url + '/metrics')).text();
      assert.match(m, /^askgraph_errors_total\{code="RATE_LIMITED"\} 1$/m);
    } finally {
      await srv.close();
    }
  });

  it('rate limiting without keys is per client address', async () => {
    const srv = await startTestServer(recordedGateway(real), { rateLimit: { perMinute: 1, burst: 2 } });
    try {
      assert.equal((await getJson(srv.url + ASK)).status, 200);
      assert.equal((await getJson(srv.url + ASK)).status, 200);
      assert.equal((await getJson(srv.url + ASK)).status, 429);
    } finally {
      await srv.close();
    }
  });

  it('rate limiting: a forged X-Forwarded-For or Forwarded header gets no fresh bucket; Retry-After is the wait for the next token', async () => {
    const srv = await startTestServer(recordedGateway(real), { rateLimit: { perMinute: 6, burst: 2 } });
    try {
      const codes: number[] = [];
      let last: Awaited<ReturnType<typeof getJson>> | undefined;
      for (let i = 0; i < 4; i++) {
        last = await getJson(srv.url + ASK, { headers: { 'x-forwarded-for': `10.0.0.${i}`, forwarded: `for=10.0.1.${i}` } });
        codes.push(last.status);
      }
      assert.deepEqual(codes, [200, 200, 429, 429]);
      assert.deepEqual(Object.keys(last!.body), ['error']);
      assert.equal(last!.body.error.code, 'RATE_LIMITED');
      const after = Number(last!.headers.get('retry-after'));
      assert.ok(Number.isInteger(after) && after >= 1 && after <= 10, String(after)); // one token per 10 s
      assert.match(last!.body.error.message, new RegExp(`retry in ${after} s`));
      assert.equal(last!.headers.get('ratelimit'), null, 'no draft RateLimit headers');
      assert.equal((await getJson(srv.url + '/healthz')).status, 200, 'open routes are not limited');
    } finally {
      await srv.close();
    }
  });

  it('security headers: exactly nosniff, no-referrer, DENY and the CSP, on API answers, errors and the page (none of helmet\'s other defaults)', async () => {
    const srv = await startTestServer(recordedGateway(real));
    try {
      for (const p of [ASK, '/', '/no/such/route']) {
        const r = await fetch(srv.url + p);
        await r.arrayBuffer();
        assert.equal(r.headers.get('x-content-type-options'), 'nosniff', p);
        assert.equal(r.headers.get('referrer-policy'), 'no-referrer', p);
        assert.equal(r.headers.get('x-frame-options'), 'DENY', p);
        const csp = (r.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim()).filter(Boolean).sort();
        assert.deepEqual(csp, ["base-uri 'none'", "default-src 'self'", "form-action 'self'", "frame-ancestors 'none'", "img-src 'self' data:"], p);
        for (const h of ['strict-transport-security', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection', 'x-powered-by']) {
          assert.equal(r.headers.get(h), null, `${p}: ${h}`);
        }
      }
    } finally {
      await srv.close();
    }
  });

  it('CORS: configured origins get Access-Control-Allow-Origin and preflights; others get none', async () => {
    const srv = await startTestServer(recordedGateway(real), { cors: { origins: ['https://qa.example.org'] } });
    try {
      const ok = await fetch(srv.url + ASK, { headers: { origin: 'https://qa.example.org' } });
      assert.equal(ok.headers.get('access-control-allow-origin'), 'https://qa.example.org');
      assert.match(ok.headers.get('vary') ?? '', /Origin/);
      const other = await fetch(srv.url + ASK, { headers: { origin: 'https://evil.example.com' } });
      assert.equal(other.headers.get('access-control-allow-origin'), null);
      const pre = await fetch(srv.url + '/v1/ask', {
        method: 'OPTIONS',
        headers: { origin: 'https://qa.example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-api-key' },
      });
      assert.equal(pre.status, 204);
      assert.match(pre.headers.get('access-control-allow-methods') ?? '', /POST/);
      assert.match(pre.headers.get('access-control-allow-headers') ?? '', /X-API-Key/);
      const badPre = await fetch(srv.url + '/v1/ask', { method: 'OPTIONS', headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'POST' } });
      assert.equal(badPre.headers.get('access-control-allow-origin'), null);
    } finally {
      await srv.close();
    }
    const none = await startTestServer(recordedGateway(real));
    try {
      const r = await fetch(none.url + ASK, { headers: { origin: 'https://qa.example.org' } });
      assert.equal(r.headers.get('access-control-allow-origin'), null, 'no CORS unless configured');
    } finally {
      await none.close();
    }
    const star = await startTestServer(recordedGateway(real), { cors: { origins: ['*'] } });
    try {
      const r = await fetch(star.url + ASK, { headers: { origin: 'https://anything.example' } });
      assert.equal(r.headers.get('access-control-allow-origin'), '*');
    } finally {
      await star.close();
    }
  });

  it('admission control: beyond running + queued questions → 503 SERVER_BUSY with Retry-After; the others are answered', async () => {
    const g = recordedGateway(real);
    g.delayMs = 400;
    const srv = await startTestServer(g, { concurrency: { asks: 1, queue: 1 }, cache: { max: 0, ttlMs: 1 } });
    try {
      const qs = ['who directed Heat', 'who directed Cast Away', 'who directed Forrest Gump'];
      const rs = await Promise.all(qs.map((q, i) => new Promise((r) => setTimeout(r, 30 * i)).then(() => getJson(srv.url + '/v1/ask?question=' + encodeURIComponent(q)))));
      assert.deepEqual(rs.map((r) => r.status), [200, 200, 503]);
      assert.equal(rs[2]!.body.error.code, 'SERVER_BUSY');
      assert.equal(rs[2]!.headers.get('retry-after'), '1');
      assert.deepEqual(rs[1]!.body.answers.map((a: { label: string }) => a.label), ['Robert Zemeckis']);
      assert.equal(g.askCalls.length, 2);
      const m = await (await fetch(srv.url + '/metrics')).text();
      assert.match(m, /^askgraph_asks_running 0$/m);
      assert.match(m, /^askgraph_asks_queued 0$/m);
    } finally {
      await srv.close();
    }
  });

  it('a request that times out while queued never runs the pipeline', async () => {
    const g = recordedGateway(real);
    g.delayMs = 500;
    const srv = await startTestServer(g, { concurrency: { asks: 1, queue: 10 }, cache: { max: 0, ttlMs: 1 }, timeouts: { requestMs: 300, queryMs: 200, maxQueryMs: 300 } });
    try {
      const rs = await Promise.all(['who directed Heat', 'who directed Cast Away'].map((q) => getJson(srv.url + '/v1/ask?question=' + encodeURIComponent(q))));
      assert.deepEqual(rs.map((r) => r.body.error?.code), ['REQUEST_TIMEOUT', 'REQUEST_TIMEOUT']);
      await new Promise((r) => setTimeout(r, 700));
      assert.equal(g.askCalls.length, 1, 'the queued one was dropped when its slot came');
    } finally {
      await srv.close();
    }
  });

  it('per-request timeout: a slow pipeline gives 504 REQUEST_TIMEOUT while /healthz keeps answering', async () => {
    const g = recordedGateway(real);
    g.delayMs = 3000;
    const srv = await startTestServer(g, { timeouts: { requestMs: 300, queryMs: 1000, maxQueryMs: 2000 } });
    try {
      let slowDone = false;
      const slow = getJson(srv.url + ASK).finally(() => (slowDone = true));
      const health = await getJson(srv.url + '/healthz');
      assert.equal(health.status, 200);
      assert.equal(slowDone, false, 'health answered while the ask is pending');
      const r = await slow;
      assert.equal(r.status, 504);
      assert.equal(r.body.error.code, 'REQUEST_TIMEOUT');
      assert.equal(g.finished, 0, 'the timeout fired before the pipeline finished');
      // the late pipeline result must not crash the server or be sent twice
      const finished = (): number => g.finished; // read afresh: the late pipeline ends while we wait
      while (finished() === 0) await new Promise((res) => setTimeout(res, 100));
      assert.equal((await getJson(srv.url + '/healthz')).status, 200);
    } finally {
      await srv.close();
    }
  });
});
