import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { RunningServer } from '../../src/serve';
import { createGateway, type Gateway } from '../../src/pipeline';
import { entity, getJson, postJson, recordedGateway, startTestServer, type RecordedGateway } from './serve-helpers';

function noStack(body: unknown): void {
  const s = JSON.stringify(body);
  assert.ok(!/\bat .+\(.+:\d+:\d+\)|node_modules|\.ts:\d+/.test(s), 'response leaks a stack: ' + s.slice(0, 300));
}

function assertError(r: Awaited<ReturnType<typeof getJson>>, status: number, code: string): void {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body?.error?.code, code, JSON.stringify(r.body));
  assert.equal(typeof r.body.error.message, 'string');
  noStack(r.body);
}

describe('serve: real server on 127.0.0.1 (real gateway: movies store, parser, grounding, compiler)', () => {
  let real: Gateway;
  let srv: RunningServer;
  let g: RecordedGateway;
  before(async function () {
    this.timeout(120_000);
    real = await createGateway();
    g = recordedGateway(real);
    srv = await startTestServer(g, { cache: { max: 100, ttlMs: 60_000 } });
  });
  after(async () => {
    await srv.close();
    await real.close();
  });

  it('GET /healthz answers ok with the store id and version', async () => {
    const r = await getJson(srv.url + '/healthz');
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'ok');
    // the store's name, never its filesystem path (issue 15)
    assert.equal(r.body.store, 'oxigraph:' + path.basename(g.executor.id.replace(/^oxigraph:/, '')));
    assert.ok(!String(r.body.store).includes('/'), 'no path in /healthz');
    // the version names store and model, never a filesystem path
    assert.equal(r.body.version, g.version.replace(/^oxigraph:[^+]*\//, 'oxigraph:'));
    assert.ok(r.headers.get('x-request-id'));
  });

  it('echoes a sane X-Request-Id and replaces an insane one', async () => {
    const a = await fetch(srv.url + '/healthz', { headers: { 'x-request-id': 'abc-123' } });
    assert.equal(a.headers.get('x-request-id'), 'abc-123');
    const b = await fetch(srv.url + '/healthz', { headers: { 'x-request-id': 'bad id\u0001'.replace('\u0001', '') + ' <script>' } });
    assert.notEqual(b.headers.get('x-request-id'), 'bad id <script>');
  });

  it('POST /v1/ask and GET /v1/ask return the same Answer JSON', async () => {
    const post = await postJson(srv.url + '/v1/ask', { question: 'who directed Forrest Gump', options: { noParser: false } });
    assert.equal(post.status, 200, JSON.stringify(post.body));
    assert.deepEqual(
      post.body.answers.map((a: { label: string | null }) => a.label),
      ['Robert Zemeckis'],
    );
    assert.equal(post.body.answers[0].value, entity('Robert Zemeckis'));
    for (const k of ['question', 'answers', 'form', 'groundedForm', 'sparql', 'source', 'confidence', 'beam', 'trace', 'timings']) assert.ok(k in post.body, k);
    const get = await getJson(srv.url + '/v1/ask?question=' + encodeURIComponent('who directed Forrest Gump') + '&noParser=false');
    assert.equal(get.status, 200);
    assert.deepEqual(get.body, post.body);
    // query parameters become the same options as the JSON body
    await getJson(srv.url + '/v1/ask?question=' + encodeURIComponent('who directed Heat') + '&beam=2&adaptiveBeam=false&fallback=paths,types&timeoutMs=5000');
    const last = g.askCalls[g.askCalls.length - 1]!.opts;
    assert.deepEqual({ beam: last.beam, adaptiveBeam: last.adaptiveBeam, fallback: last.fallback, timeoutMs: last.timeoutMs }, { beam: 2, adaptiveBeam: false, fallback: ['paths', 'types'], timeoutMs: 5000 });
  });

  it('GET /v1/ask?format=qald and GET /qald give QALD-JSON', async () => {
    for (const path of ['/v1/ask?format=qald&question=', '/qald?question=']) {
      const r = await getJson(srv.url + path + encodeURIComponent('who directed Heat'));
      assert.equal(r.status, 200, path);
      const q = r.body.questions[0];
      assert.deepEqual(q.question, [{ language: 'en', string: 'who directed Heat' }]);
      assert.match(q.query.sparql, /SELECT/);
      assert.deepEqual(q.answers[0].head.vars, ['uri']);
      // MetaQA has two films titled Heat
      assert.deepEqual(q.answers[0].results.bindings.map((b: { uri: { value: string } }) => b.uri.value).sort(), [entity('Michael Mann'), entity('Paul Morrissey')]);
    }
  });

  it('POST /qald with a whole QALD-JSON file answers every question, in order, with its ids and answertype; a question without English text carries its error', async () => {
    const file = {
      dataset: { id: 'askgraph-own-questions' },
      questions: [
        { id: '11', question: [{ language: 'de', string: 'Wer führte Regie bei Heat?' }, { language: 'en', string: 'who directed Heat' }] },
        { id: '12', question: [{ language: 'en', string: 'who directed Forrest Gump' }], answers: [] },
        { id: '13', question: [{ language: 'fr', string: 'qui a réalisé Heat' }] },
      ],
    };
    const r = await postJson(srv.url + '/qald', file);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 400));
    assert.deepEqual(r.body.dataset, { id: 'askgraph-own-questions' });
    assert.deepEqual(r.body.questions.map((q: { id: string }) => q.id), ['11', '12', '13']);
    const [heat, gump, french] = r.body.questions;
    assert.deepEqual(heat.answers[0].results.bindings.map((b: { uri: { value: string } }) => b.uri.value).sort(), [entity('Michael Mann'), entity('Paul Morrissey')]);
    assert.equal(heat.answertype, 'resource');
    assert.deepEqual(heat.question, [{ language: 'en', string: 'who directed Heat' }]);
    assert.deepEqual(gump.answers[0].results.bindings.map((b: { uri: { value: string } }) => b.uri.value), [entity('Robert Zemeckis')]);
    assert.equal(french.error.code, 'UNSUPPORTED');
    assert.deepEqual(french.answers, []);
    // one question alone still answers as before, now with answertype
    const one = await getJson(srv.url + '/qald?question=' + encodeURIComponent('who directed Heat'));
    assert.equal(one.body.questions[0].answertype, 'resource');
    assertError(await postJson(srv.url + '/qald', { questions: 'who directed Heat' }), 400, 'BAD_REQUEST');
  });

  it("GERBIL QA form POST (query=…&lang=en): urlencoded UTF-8, urlencoded latin1, multipart", async () => {
    const utf8 = await getJson(srv.url + '/gerbil', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'query=' + encodeURIComponent('who directed Beyoncé') + '&lang=en',
    });
    assert.equal(utf8.status, 200, JSON.stringify(utf8.body));
    assert.equal(utf8.body.questions[0].question[0].string, 'who directed Beyoncé');
    const latin1 = await getJson(srv.url + '/gerbil', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'query=who+directed+Beyonc%E9&lang=en', // é as a latin1 byte: invalid UTF-8
    });
    assert.equal(latin1.status, 200);
    assert.equal(latin1.body.questions[0].question[0].string, 'who directed Beyoncé');
    const fd = new FormData();
    fd.set('query', 'who directed Forrest Gump');
    fd.set('lang', 'en');
    const multi = await getJson(srv.url + '/gerbil', { method: 'POST', body: fd });
    assert.equal(multi.status, 200, JSON.stringify(multi.body));
    assert.equal(multi.body.questions[0].answers[0].results.bindings[0].uri.value, entity('Robert Zemeckis'));
    const other = await getJson(srv.url + '/qald', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'query=wer&lang=de' });
    assertError(other, 422, 'UNSUPPORTED');
    const none = await getJson(srv.url + '/qald', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'lang=en' });
    assertError(none, 400, 'BAD_REQUEST');
    const cut = await getJson(srv.url + '/gerbil', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=B' }, body: '--B\r\nContent-Disposition: form-data; name="query"\r\n\r\nwho' });
    assertError(cut, 400, 'BAD_REQUEST');
    const parts = Array.from({ length: 1001 }, (_, i) => `--B\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`).join('') + '--B--\r\n';
    assertError(await getJson(srv.url + '/gerbil', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=B' }, body: parts }), 413, 'INPUT_TOO_LARGE');
  });

  it('POST /v1/parse and /v1/compile pass the pipeline result through; compile errors are 400 with details', async () => {
    const p = await postJson(srv.url + '/v1/parse', { question: 'who directed Heat', beam: 3 });
    assert.equal(p.status, 200);
    assert.equal(p.body.beam, 3);
    assert.deepEqual(Object.keys(p.body), ['question', 'model', 'beam', 'timeMs', 'candidates']);
    assert.equal(p.body.candidates.length, 3);
    assert.deepEqual(p.body.candidates[0].form, '(JOIN (R directed_by) [ Heat ])');
    p.body.candidates.forEach((c: { rank: number; logProb: number }, i: number) => {
      assert.equal(c.rank, i);
      if (i > 0) assert.ok(p.body.candidates[i - 1].logProb >= c.logProb);
    });
    const c = await postJson(srv.url + '/v1/compile', { form: '(JOIN (R directed_by) [ Heat ])' });
    assert.equal(c.status, 200);
    assert.match(c.body.sparql, /SELECT DISTINCT \?x/);
    assert.deepEqual(Object.keys(c.body), ['sparql', 'kind', 'answerVar', 'topicEntities']);
    const bad = await postJson(srv.url + '/v1/compile', { form: '(JOIN' });
    assertError(bad, 400, 'FORM_SYNTAX');
    assert.equal(typeof bad.body.error.details.line, 'number');
    assert.equal(typeof bad.body.error.details.column, 'number');
  });

  describe('request validation and errors', () => {
    it('malformed JSON → 400 BAD_REQUEST without a stack', async () => {
      const r = await getJson(srv.url + '/v1/ask', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"question": "x",' });
      assertError(r, 400, 'BAD_REQUEST');
    });
    it('unknown routes and methods → 404 NOT_FOUND JSON', async () => {
      assertError(await getJson(srv.url + '/nope'), 404, 'NOT_FOUND');
      assertError(await getJson(srv.url + '/v1/ask', { method: 'PUT', body: '{}' }), 404, 'NOT_FOUND');
      assertError(await getJson(srv.url + '/../../etc/passwd'), 404, 'NOT_FOUND');
    });
    it('wrong types, unknown fields, missing question → 400 BAD_REQUEST naming the field', async () => {
      const a = await postJson(srv.url + '/v1/ask', { question: 42 });
      assertError(a, 400, 'BAD_REQUEST');
      assert.match(a.body.error.message, /question/);
      const b = await postJson(srv.url + '/v1/ask', { question: 'q', options: { beam: 1000 } });
      assertError(b, 400, 'BAD_REQUEST');
      assert.match(b.body.error.message, /options\.beam/);
      assertError(await postJson(srv.url + '/v1/ask', { question: 'q', evil: true }), 400, 'BAD_REQUEST');
      assertError(await postJson(srv.url + '/v1/ask', ['who']), 400, 'BAD_REQUEST');
      assertError(await getJson(srv.url + '/v1/ask'), 400, 'BAD_REQUEST');
      assertError(await getJson(srv.url + '/v1/ask?question=a&question=b'), 400, 'BAD_REQUEST');
      assertError(await getJson(srv.url + '/v1/ask?question=a&beam=x'), 400, 'BAD_REQUEST');
      assertError(await getJson(srv.url + '/v1/ask', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'who' }), 400, 'BAD_REQUEST');
    });
    it('empty question → 400 QUESTION_INVALID; question over 1,000 characters or body over 64 KB → 413 INPUT_TOO_LARGE', async () => {
      assertError(await postJson(srv.url + '/v1/ask', { question: '   ' }), 400, 'QUESTION_INVALID');
      const long = await postJson(srv.url + '/v1/ask', { question: 'a'.repeat(1001) });
      assertError(long, 413, 'INPUT_TOO_LARGE');
      assertError(await getJson(srv.url + '/v1/ask?question=' + 'a'.repeat(1001)), 413, 'INPUT_TOO_LARGE');
      assert.equal((await postJson(srv.url + '/v1/ask', { question: 'who directed ' + 'a'.repeat(980) })).status, 200);
      assertError(await postJson(srv.url + '/v1/ask', { question: 'a'.repeat(70 * 1024) }), 413, 'INPUT_TOO_LARGE');
      assertError(await postJson(srv.url + '/v1/compile', { form: 'a'.repeat(70 * 1024) }), 413, 'INPUT_TOO_LARGE');
      assertError(await getJson(srv.url + '/sparql', { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: '#'.repeat(70 * 1024) }), 413, 'INPUT_TOO_LARGE');
    });
  });

  describe('answer cache (LRU + TTL)', () => {
    it('a repeated question is a hit (X-Cache, /metrics, no second pipeline call); other options or text are misses', async () => {
      const q = 'who directed Cast Away';
      const before = g.askCalls.length;
      const a = await fetch(srv.url + '/v1/ask?question=' + encodeURIComponent(q));
      assert.equal(a.headers.get('x-cache'), 'miss');
      const b = await fetch(srv.url + '/v1/ask?question=' + encodeURIComponent(q));
      assert.equal(b.headers.get('x-cache'), 'hit');
      assert.deepEqual(await b.json(), await a.json());
      assert.equal(g.askCalls.length, before + 1);
      // different options → different entry
      const c = await postJson(srv.url + '/v1/ask', { question: q, options: { beam: 3 } });
      assert.equal(c.headers.get('x-cache'), 'miss');
      assert.equal(g.askCalls.length, before + 2);
      assert.equal(g.askCalls[g.askCalls.length - 1]!.opts.beam, 3);
      const d = await postJson(srv.url + '/v1/ask', { question: q, options: { beam: 3 } });
      assert.equal(d.headers.get('x-cache'), 'hit');
      const e = await postJson(srv.url + '/v1/ask', { question: q, options: { beam: 4 } });
      assert.equal(e.headers.get('x-cache'), 'miss');
      const f = await postJson(srv.url + '/v1/ask', { question: q + '?' });
      assert.equal(f.headers.get('x-cache'), 'miss');
      const m = await (await fetch(srv.url + '/metrics')).text();
      const hits = Number(/^askgraph_cache_hits_total (\d+)$/m.exec(m)?.[1]);
      assert.ok(hits >= 2, m);
    });
    it('a different gateway version (model or store) does not see the old entries', async () => {
      const g2 = recordedGateway(real);
      const s2 = await startTestServer(g2, { cache: { max: 10, ttlMs: 60_000 } });
      try {
        const q = '/v1/ask?question=' + encodeURIComponent('who directed Heat');
        assert.equal((await fetch(s2.url + q)).headers.get('x-cache'), 'miss');
        assert.equal((await fetch(s2.url + q)).headers.get('x-cache'), 'hit');
        g2.version = real.version + '+other-model';
        assert.equal((await fetch(s2.url + q)).headers.get('x-cache'), 'miss');
      } finally {
        await s2.close();
      }
    });
    it('identical concurrent asks share one pipeline run', async () => {
      const g4 = recordedGateway(real);
      g4.delayMs = 200; // a slow pipeline, so the five requests overlap
      const s4 = await startTestServer(g4, { cache: { max: 10, ttlMs: 60_000 } });
      try {
        const q = '/v1/ask?question=' + encodeURIComponent('who directed Heat');
        const rs = await Promise.all([1, 2, 3, 4, 5].map(() => fetch(s4.url + q)));
        assert.deepEqual(rs.map((r) => r.status), [200, 200, 200, 200, 200]);
        assert.deepEqual(rs.map((r) => r.headers.get('x-cache')).sort(), ['hit', 'hit', 'hit', 'hit', 'miss']);
        assert.equal(g4.askCalls.length, 1);
        const other = await postJson(s4.url + '/v1/ask', { question: 'who directed Heat', options: { beam: 2 } });
        assert.equal(other.headers.get('x-cache'), 'miss');
        assert.equal(g4.askCalls.length, 2);
      } finally {
        await s4.close();
      }
    });
    it('entries expire after the TTL', async () => {
      const g3 = recordedGateway(real);
      const s3 = await startTestServer(g3, { cache: { max: 10, ttlMs: 150 } });
      try {
        const q = '/v1/ask?question=' + encodeURIComponent('who directed Heat');
        await fetch(s3.url + q);
        assert.equal((await fetch(s3.url + q)).headers.get('x-cache'), 'hit');
        await new Promise((r) => setTimeout(r, 250));
        assert.equal((await fetch(s3.url + q)).headers.get('x-cache'), 'miss');
      } finally {
        await s3.close();
      }
    });
  });

  it('GET /metrics exposes requests by route/status, stage latencies, errors by code, cache and fallback rate', async () => {
    await getJson(srv.url + '/nope');
    const r = await fetch(srv.url + '/metrics');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const m = await r.text();
    assert.match(m, /^askgraph_http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+$/m);
    assert.match(m, /^askgraph_http_requests_total\{method="POST",route="\/v1\/ask",status="200"\} \d+$/m);
    assert.match(m, /^askgraph_stage_duration_seconds_bucket\{le="\+Inf",stage="execute"\} \d+$/m);
    assert.match(m, /^askgraph_errors_total\{code="NOT_FOUND"\} \d+$/m);
    assert.match(m, /^askgraph_errors_total\{code="BAD_REQUEST"\} \d+$/m);
    assert.match(m, /^askgraph_fallback_rate [0-9.]+$/m);
    assert.match(m, /^askgraph_answers_total\{source="parser"\} \d+$/m);
    // prom-client's default process and Node.js metrics; store restarts as a counter
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      assert.match(m, new RegExp(`^${name} [0-9.e+-]+$`, 'm'), name);
    }
    assert.match(m, /^# TYPE askgraph_store_restarts_total counter$/m);
    assert.match(m, /^askgraph_store_restarts_total \d+$/m);
    // every sample line is "name{labels} value"
    for (const line of m.split('\n').filter((l) => l && !l.startsWith('#'))) assert.match(line, /^[a-z_][a-z0-9_]*(\{[^}]*\})? ([0-9.e+-]+|\+Inf)$/, line);
  });

  it('GET /openapi.json is OpenAPI 3.1 and documents every route of the app', async () => {
    const r = await getJson(srv.url + '/openapi.json');
    assert.equal(r.status, 200);
    assert.equal(r.body.openapi, '3.1.0');
    const documented = new Set<string>();
    const paths: Record<string, Record<string, { operationId?: string }>> = r.body.paths;
    for (const [p, ops] of Object.entries(paths)) for (const m of Object.keys(ops)) documented.add(`${m.toUpperCase()} ${p}`);
    // the routes express actually has (routers included): its typings leave out what the walk reads at run time, a
    // route's `methods` and a mounted router's `stack` (on its handle function)
    const found: string[] = [];
    type ExpressLayer = RunningServer['app']['router']['stack'][number];
    type Layer = ExpressLayer & {
      route?: NonNullable<ExpressLayer['route']> & { methods: Record<string, boolean> };
      handle: ExpressLayer['handle'] & { stack?: Layer[] };
    };
    const walk = (stack: Layer[]) => {
      for (const layer of stack) {
        if (layer.route) for (const m of Object.keys(layer.route.methods)) found.push(`${m.toUpperCase()} ${layer.route.path}`);
        else if (layer.handle.stack) walk(layer.handle.stack);
      }
    };
    walk(srv.app.router.stack as Layer[]);
    assert.ok(found.length >= 12, found.join(', '));
    for (const route of found) assert.ok(documented.has(route), `undocumented route ${route}`);
    assert.ok(documented.has('GET /'));
    // every operation has an operationId, none twice
    const ids: string[] = [];
    for (const [p, ops] of Object.entries(paths)) for (const [m, op] of Object.entries(ops)) {
      const id = op.operationId ?? '';
      assert.match(id, /^[A-Za-z][A-Za-z0-9_]*$/, `${m} ${p}`);
      ids.push(id);
    }
    assert.equal(new Set(ids).size, ids.length, ids.join(', '));
    assert.equal(r.body.paths['/sparql'].post.operationId, 'sparqlQuery');
  });

  it('GET / serves the inspector HTML with a strict CSP (no inline script)', async () => {
    const r = await fetch(srv.url + '/');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /text\/html/);
    assert.match(r.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    const html = await r.text();
    assert.match(html, /<script src="app\.js"/);
    assert.ok(!/<script>[^<]/.test(html), 'no inline script');
    const js = await fetch(srv.url + '/app.js');
    assert.equal(js.status, 200);
    assert.ok(!(await js.text()).includes('innerHTML'), 'the inspector never uses innerHTML');
  });

  it('logs one JSON line per request with id, route, status, duration and question length — not the question text', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        cb();
      },
    });
    const s2 = await startTestServer(recordedGateway(real), {}, pino({ level: 'info' }, sink));
    try {
      await fetch(s2.url + '/v1/ask?question=' + encodeURIComponent('who directed Heat secret-token-42'), { headers: { 'x-request-id': 'req-log-1', 'x-api-key': 'not-logged-key' } });
      await new Promise((r) => setTimeout(r, 50));
      const entry = lines.map((l) => JSON.parse(l)).find((o) => o.reqId === 'req-log-1' && o.msg === 'request');
      assert.ok(entry, lines.join('\n'));
      assert.equal(entry.route, '/v1/ask');
      assert.equal(entry.status, 200);
      assert.equal(entry.questionLength, 'who directed Heat secret-token-42'.length);
      assert.equal(typeof entry.ms, 'number');
      assert.ok(!lines.join('\n').includes('secret-token-42'), 'question text is not logged at info');
      assert.ok(!lines.join('\n').includes('not-logged-key'), 'API keys are not logged');
    } finally {
      await s2.close();
    }
  });

  it('a request log line holds only the documented fields (no request or response object, URL or headers); errors add their code', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        cb();
      },
    });
    const s2 = await startTestServer(recordedGateway(real), {}, pino({ level: 'info', base: null, timestamp: false }, sink));
    try {
      await (await fetch(s2.url + '/v1/ask?question=' + encodeURIComponent('who directed Heat'), { headers: { 'x-request-id': 'fields-1' } })).text();
      await (await fetch(s2.url + '/no/such/route?q=hidden-query-text', { headers: { 'x-request-id': 'fields-2' } })).text();
      await new Promise((r) => setTimeout(r, 50));
      const entries = lines.map((l) => JSON.parse(l)).filter((o) => o.msg === 'request');
      const ok = entries.find((o) => o.reqId === 'fields-1');
      const bad = entries.find((o) => o.reqId === 'fields-2');
      assert.ok(ok && bad, lines.join('\n'));
      assert.deepEqual(Object.keys(ok).sort(), ['level', 'method', 'ms', 'msg', 'questionLength', 'reqId', 'route', 'status']);
      assert.deepEqual(Object.keys(bad).sort(), ['code', 'level', 'method', 'ms', 'msg', 'reqId', 'route', 'status']);
      assert.equal(bad.status, 404);
      assert.equal(bad.code, 'NOT_FOUND');
      assert.ok(!lines.join('\n').includes('hidden-query-text'), 'the query string is not logged');
    } finally {
      await s2.close();
    }
  });
});
