import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { AskgraphError, type Answer, type SelectResult } from '../../../src/core';
import { Admission } from '../../../src/serve/admission';
import { AnswerCache, answerCacheKey, canonicalJson } from '../../../src/serve/cache';
import { configFromEnv, ENV_VARS, loadServeConfig, parseServeConfig, ServeConfigSchema } from '../../../src/serve/config';
import { decodeText, MULTIPART_MAX_PARTS, parseFormBody, parseMultipart, parseUrlEncoded } from '../../../src/serve/form-body';
import { toHttpError } from '../../../src/serve/http-errors';
import { PROMETHEUS_CONTENT_TYPE, ServeMetrics } from '../../../src/serve/metrics';
import { qaldQuestions, toQald } from '../../../src/serve/qald';
import { TokenBucketStore, TokenBuckets } from '../../../src/serve/rate-limit';
import { checkQuestion } from '../../../src/serve/schemas';
import { acceptWithoutParams, mediaForFormats, ntTerm, selectToCsv, selectToJson, selectToTsv, selectToXml } from '../../../src/serve/sparql-results';

describe('serve units', () => {
  describe('config', () => {
    it('defaults are loopback, 8080, 64 KB bodies, 1,000-character questions, cache and rate limit on, no keys, no CORS', () => {
      const c = parseServeConfig({});
      assert.equal(c.host, '127.0.0.1');
      assert.equal(c.port, 8080);
      assert.equal(c.limits.bodyBytes, 65536);
      assert.equal(c.limits.questionChars, 1000);
      assert.deepEqual(c.apiKeys, []);
      assert.deepEqual(c.cors.origins, []);
      assert.ok(c.cache.max > 0 && c.rateLimit.perMinute > 0);
    });
    it('precedence: file < environment < flags; nested objects merge', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-cfg-'));
      const file = path.join(dir, 'c.json');
      fs.writeFileSync(file, JSON.stringify({ port: 1111, host: '0.0.0.0', cache: { max: 5 }, apiKeys: ['file-key-123'] }));
      try {
        const c = loadServeConfig({ config: file, port: '3333' }, { ASKGRAPH_PORT: '2222', ASKGRAPH_HOST: '127.0.0.2', ASKGRAPH_CACHE_TTL_MS: '99', ASKGRAPH_CORS_ORIGINS: 'https://a.example, https://b.example' });
        assert.equal(c.port, 3333);
        assert.equal(c.host, '127.0.0.2');
        assert.deepEqual(c.cache, { max: 5, ttlMs: 99, maxBytes: 64 * 1024 * 1024 });
        assert.deepEqual(c.apiKeys, ['file-key-123']);
        assert.deepEqual(c.cors.origins, ['https://a.example', 'https://b.example']);
        const viaEnv = loadServeConfig({}, { ASKGRAPH_CONFIG: file });
        assert.equal(viaEnv.port, 1111);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
    it('invalid values fail naming the key', () => {
      assert.throws(() => parseServeConfig({ port: 70000 }), (e: AskgraphError) => e.code === 'BAD_REQUEST' && e.message.includes('port'));
      assert.throws(() => parseServeConfig({ apiKeys: ['short'] }), /apiKeys\.0/);
      assert.throws(() => parseServeConfig({ limits: { bodyBytes: 10 } }), /limits\.bodyBytes/);
      assert.throws(() => parseServeConfig({ typo: 1 }), /typo|Unrecognized/);
      assert.throws(() => configFromEnv({ ASKGRAPH_PORT: 'eighty' }), /ASKGRAPH_PORT/);
      assert.throws(() => loadServeConfig({ config: '/nonexistent/askgraph.json' }, {}), /cannot read config file/);
    });
  });

  describe('environment table', () => {
    /** Every leaf key of the config schema, e.g. "sparql.maxRows" (optional and defaulted wrappers unwrapped). */
    function leafKeys(schema: z.core.$ZodType, prefix: string[] = []): string[] {
      let s = schema;
      while (s instanceof z.ZodOptional || s instanceof z.ZodDefault) s = s.unwrap();
      if (!(s instanceof z.ZodObject)) return [prefix.join('.')];
      return Object.entries(s.shape).flatMap(([k, v]) => leafKeys(v, [...prefix, k]));
    }
    it('every config key has exactly one ASKGRAPH_* variable in the one table, and names are unique', () => {
      const keys = leafKeys(ServeConfigSchema);
      assert.ok(keys.includes('sparql.maxRows') && keys.includes('generator.url'), keys.join(', '));
      const byPath = ENV_VARS.filter((v) => v.path).map((v) => v.path!.join('.'));
      assert.deepEqual([...byPath].sort(), [...keys].sort());
      const names = ENV_VARS.map((v) => v.name);
      assert.equal(new Set(names).size, names.length);
      for (const n of names) assert.match(n, /^ASKGRAPH_[A-Z_]+$/);
    });
    it('each variable of the table lands at its key, typed and validated by the schema', () => {
      const sample = { number: '7', boolean: 'yes', list: 'https://a.example, https://b.example', string: 'x' } as const;
      for (const v of ENV_VARS.filter((x) => x.path)) {
        const raw = v.name === 'ASKGRAPH_LOG_LEVEL' ? 'debug' : v.name === 'ASKGRAPH_GENERATOR' ? 'http://127.0.0.1:1/v1' : sample[v.kind];
        const got = v.path!.reduce<unknown>((o, k) => (typeof o === 'object' && o !== null ? Reflect.get(o, k) : undefined), configFromEnv({ [v.name]: raw }));
        const want = v.kind === 'number' ? 7 : v.kind === 'boolean' ? true : v.kind === 'list' ? ['https://a.example', 'https://b.example'] : raw;
        assert.deepEqual(got, want, v.name);
      }
      assert.equal(loadServeConfig({}, { ASKGRAPH_SPARQL_MAX_DEPTH: '100', ASKGRAPH_SPARQL_ALLOW_SERVICE: 'off' }).sparql.maxDepth, 100);
      assert.throws(() => configFromEnv({ ASKGRAPH_SPARQL_ISOLATE: 'maybe' }), /ASKGRAPH_SPARQL_ISOLATE must be true or false, got "maybe"/);
      assert.throws(() => loadServeConfig({}, { ASKGRAPH_SPARQL_MAX_DEPTH: '2' }), /sparql\.maxDepth/);
      assert.deepEqual(configFromEnv({ ASKGRAPH_PORT: '' }), {}, 'an empty value counts as unset');
    });
  });

  describe('answer cache', () => {
    const answer = { question: 'q' } as Answer;
    it('the key is canonical in option order and differs by question, options, version and store', () => {
      const k = (o: object, v = 'v1', s = 'store', q = 'who directed Heat') => answerCacheKey({ version: v, storeId: s, question: q, options: o });
      assert.equal(k({ beam: 3, noParser: true }), k({ noParser: true, beam: 3 }));
      assert.equal(k({ beam: undefined }), k({}));
      const keys = [k({}), k({ beam: 3 }), k({ beam: 4 }), k({ fallback: 'off' }), k({ fallback: ['a'] }), k({}, 'v2'), k({}, 'v1', 'other'), k({}, 'v1', 'store', 'who directed heat')];
      assert.equal(new Set(keys).size, keys.length);
      assert.equal(canonicalJson({ b: [1, { d: 1, c: 2 }], a: null }), '{"a":null,"b":[1,{"c":2,"d":1}]}');
    });
    it('LRU evicts the least recently used entry; max 0 disables it', () => {
      const c = new AnswerCache({ max: 2, ttlMs: 60_000 });
      c.set('a', answer);
      c.set('b', answer);
      c.get('a');
      c.set('c', answer);
      assert.ok(c.get('a') && c.get('c'));
      assert.equal(c.get('b'), undefined);
      const small = new AnswerCache({ max: 100, ttlMs: 60_000, maxBytes: 2048 });
      const big = { question: 'x'.repeat(900) } as Answer;
      small.set('a', big);
      small.set('b', big);
      small.set('c', big);
      assert.equal(small.get('a'), undefined, 'evicted by size');
      assert.ok(small.get('b') && small.get('c'));
      const off = new AnswerCache({ max: 0, ttlMs: 1 });
      off.set('a', answer);
      assert.equal(off.get('a'), undefined);
      assert.equal(off.enabled, false);
    });
  });

  describe('admission control', () => {
    it('runs at most `concurrency` at once, in FIFO order, and refuses beyond the queue with SERVER_BUSY', async () => {
      const adm = new Admission({ concurrency: 2, queue: 2 });
      const order: string[] = [];
      const gates: Record<string, () => void> = {};
      const job = (name: string) => () =>
        new Promise<string>((resolve) => {
          order.push('start ' + name);
          gates[name] = () => resolve(name);
        });
      const a = adm.run(job('a'));
      const b = adm.run(job('b'));
      const c = adm.run(job('c'));
      const d = adm.run(job('d'));
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(order, ['start a', 'start b']);
      assert.equal(adm.active, 2);
      assert.equal(adm.queued, 2);
      await assert.rejects(adm.run(job('e')), (e: AskgraphError) => e.code === 'SERVER_BUSY' && e.status === 503);
      gates.b!();
      assert.equal(await b, 'b');
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(order, ['start a', 'start b', 'start c']);
      gates.a!();
      gates.c!();
      await new Promise((r) => setImmediate(r));
      gates.d!();
      assert.deepEqual(await Promise.all([a, c, d]), ['a', 'c', 'd']);
      assert.equal(adm.active, 0);
      assert.equal(adm.queued, 0);
    });
    it('skips work nobody wants any more and frees the slot when work throws', async () => {
      const adm = new Admission({ concurrency: 1, queue: 5 });
      let ran = 0;
      assert.equal(await adm.run(() => Promise.resolve(++ran), () => false), undefined);
      await assert.rejects(adm.run(() => Promise.reject(new Error('boom'))));
      assert.equal(await adm.run(() => Promise.resolve(++ran)), 1);
      assert.equal(adm.active, 0);
    });
  });

  describe('token bucket', () => {
    it('allows a burst, then refills at perMinute/60 per second, per key', () => {
      let now = 0;
      const b = new TokenBuckets({ perMinute: 60, burst: 2 }, () => now);
      assert.equal(b.take('k'), 0);
      assert.equal(b.take('k'), 0);
      const wait = b.take('k');
      assert.ok(wait > 0 && wait <= 1000, String(wait));
      assert.equal(b.take('other'), 0);
      now += 1000;
      assert.equal(b.take('k'), 0);
      assert.ok(b.take('k') > 0);
      now += 60_000;
      assert.equal(b.take('k'), 0);
      assert.equal(b.take('k'), 0);
      assert.ok(b.take('k') > 0, 'never more than the burst');
    });
    it('as express-rate-limit\'s store: hits within the burst, then burst + 1 with the time of the next token', () => {
      const now = 0;
      const store = new TokenBucketStore(new TokenBuckets({ perMinute: 60, burst: 2 }, () => now), 2, () => now);
      assert.equal(store.increment('k').totalHits, 1);
      assert.equal(store.increment('k').totalHits, 2);
      const over = store.increment('k');
      assert.equal(over.totalHits, 3);
      assert.equal(over.resetTime?.getTime(), 1000);
      store.resetKey('k');
      assert.equal(store.increment('k').totalHits, 1);
    });
    it('perMinute 0 turns it off', () => {
      const b = new TokenBuckets({ perMinute: 0, burst: 1 });
      for (let i = 0; i < 100; i++) assert.equal(b.take('k'), 0);
    });
  });

  describe('lenient form bodies (GERBIL QA)', () => {
    it('urlencoded: + and %XX, UTF-8 when valid, latin1 otherwise, declared charset honoured', () => {
      assert.deepEqual(parseUrlEncoded(Buffer.from('query=who+directed+Beyonc%C3%A9%3F&lang=en')), { query: 'who directed Beyoncé?', lang: 'en' });
      assert.deepEqual(parseUrlEncoded(Buffer.from('query=Beyonc%E9')), { query: 'Beyoncé' });
      assert.deepEqual(parseUrlEncoded(Buffer.from([0x71, 0x3d, 0x42, 0xe9])), { q: 'Bé' }); // raw latin1 byte
      assert.deepEqual(parseUrlEncoded(Buffer.from('q=%E9'), 'iso-8859-1'), { q: 'é' });
      assert.deepEqual(parseUrlEncoded(Buffer.from('a=1&a=2&b&=x')), { a: '1', b: '', '': 'x' });
      assert.equal(decodeText(Buffer.from('é', 'utf8')), 'é');
    });
    it('multipart/form-data (busboy): per-part charset, latin1 fallback, first value wins, file parts as fields', async () => {
      const body = Buffer.concat([
        Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="query"\r\n\r\nwho directed Beyonc'),
        Buffer.from([0xe9]),
        Buffer.from('\r\n--XyZ\r\nContent-Disposition: form-data; name="lang"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nen\r\n'),
        Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="lang"\r\n\r\nde\r\n'),
        Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="greek"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\u03a9 Beyonc\u00e9\r\n', 'utf8'),
        Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="utf8"\r\n\r\nBeyonc\u00e9\r\n', 'utf8'),
        Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="f"; filename="q.txt"\r\nContent-Type: application/octet-stream\r\n\r\nfrom a file\r\n'),
        Buffer.from('--XyZ--\r\n'),
      ]);
      const want = { query: 'who directed Beyoncé', lang: 'en', greek: 'Ω Beyoncé', utf8: 'Beyoncé', f: 'from a file' };
      assert.deepEqual(await parseMultipart(body, 'multipart/form-data; boundary=XyZ'), want);
      assert.deepEqual(await parseFormBody(body, 'multipart/form-data; boundary="XyZ"'), want);
    });
    it('multipart/form-data: malformed bodies are BAD_REQUEST, too many parts INPUT_TOO_LARGE, never a crash', async () => {
      const code = (c: string) => (e: AskgraphError) => e instanceof AskgraphError && e.code === c;
      await assert.rejects(parseMultipart(Buffer.from('garbage'), 'multipart/form-data; boundary=XyZ'), code('BAD_REQUEST'));
      await assert.rejects(parseFormBody(Buffer.from('x'), 'multipart/form-data'), code('BAD_REQUEST'));
      await assert.rejects(parseFormBody(Buffer.from('x'), 'multipart/form-data; boundary=' + 'b'.repeat(201)), code('BAD_REQUEST'));
      // no closing boundary
      await assert.rejects(parseMultipart(Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="q"\r\n\r\nwho'), 'multipart/form-data; boundary=XyZ'), code('BAD_REQUEST'));
      // a part header without its blank line
      await assert.rejects(parseMultipart(Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="q"\r\nwho\r\n--XyZ--\r\n'), 'multipart/form-data; boundary=XyZ'), code('BAD_REQUEST'));
      const many = Buffer.from(Array.from({ length: MULTIPART_MAX_PARTS + 1 }, (_, i) => `--B\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`).join('') + '--B--\r\n');
      await assert.rejects(parseMultipart(many, 'multipart/form-data; boundary=B'), code('INPUT_TOO_LARGE'));
      const enough = Buffer.from(Array.from({ length: 3 }, (_, i) => `--B\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`).join('') + '--B--\r\n');
      assert.deepEqual(await parseMultipart(enough, 'multipart/form-data; boundary=B'), { f0: 'x', f1: 'x', f2: 'x' });
    });
    it('JSON bodies: string fields only; malformed JSON is BAD_REQUEST', async () => {
      assert.deepEqual(await parseFormBody(Buffer.from('{"query":"q","n":1}'), 'application/json'), { query: 'q' });
      await assert.rejects(parseFormBody(Buffer.from('{'), 'application/json'), (e: AskgraphError) => e.code === 'BAD_REQUEST');
    });
  });

  describe('SPARQL result formats', () => {
    const r: SelectResult = {
      vars: ['s', 'o'],
      rows: [
        { s: { type: 'uri', value: 'http://x/a b' }, o: { type: 'literal', value: 'say "hi",\nok', lang: 'en' } },
        { s: { type: 'bnode', value: 'b0' }, o: { type: 'literal', value: '7', datatype: 'http://www.w3.org/2001/XMLSchema#integer' } },
        { s: { type: 'uri', value: 'http://x/c' } },
      ],
    };
    it('JSON: W3C shape, xml:lang, datatype, unbound variables omitted', () => {
      const j = JSON.parse(selectToJson(r));
      assert.deepEqual(j.head.vars, ['s', 'o']);
      assert.deepEqual(j.results.bindings[0].o, { type: 'literal', value: 'say "hi",\nok', 'xml:lang': 'en' });
      assert.deepEqual(j.results.bindings[1].o, { type: 'literal', value: '7', datatype: 'http://www.w3.org/2001/XMLSchema#integer' });
      assert.deepEqual(Object.keys(j.results.bindings[2]), ['s']);
    });
    it('XML escapes markup; CSV quotes; TSV uses N-Triples terms', () => {
      const x = selectToXml({ vars: ['v'], rows: [{ v: { type: 'literal', value: '</literal><evil/>&' } }] });
      assert.ok(x.includes('<literal>&lt;/literal&gt;&lt;evil/&gt;&amp;</literal>'));
      assert.equal(selectToCsv(r), 's,o\r\nhttp://x/a b,"say ""hi"",\nok"\r\n_:b0,7\r\nhttp://x/c,\r\n');
      assert.equal(selectToTsv(r), '?s\t?o\n<http://x/a\\u0020b>\t"say \\"hi\\",\\nok"@en\n_:b0\t"7"^^<http://www.w3.org/2001/XMLSchema#integer>\n<http://x/c>\t\n');
      assert.equal(ntTerm({ type: 'uri', value: 'http://x/<>' }), '<http://x/\\u003C\\u003E>');
    });
  });

  it('QALD-JSON: uri / literal / boolean answers', () => {
    const base = { question: 'q', form: null, groundedForm: null, sparql: 'SELECT …', source: 'parser', confidence: 1, beam: [], trace: [], timings: { generate: 0, ground: 0, execute: 0, fallback: 0, total: 0 } } as unknown as Answer;
    const u = toQald({ ...base, answers: [{ value: 'http://x/a', label: 'A', type: 'uri' }] });
    assert.deepEqual(u.questions[0]!.answers[0], { head: { vars: ['uri'] }, results: { bindings: [{ uri: { type: 'uri', value: 'http://x/a' } }] } });
    assert.deepEqual(u.questions[0]!.query, { sparql: 'SELECT …' });
    const l = toQald({ ...base, answers: [{ value: '3', label: null, type: 'literal', datatype: 'http://www.w3.org/2001/XMLSchema#integer' }] }, { id: '7' });
    assert.equal(l.questions[0]!.id, '7');
    assert.deepEqual(l.questions[0]!.answers[0], { head: { vars: ['literal'] }, results: { bindings: [{ literal: { type: 'literal', value: '3', datatype: 'http://www.w3.org/2001/XMLSchema#integer' } }] } });
    const b = toQald({ ...base, sparql: null, answers: [{ value: 'true', label: null, type: 'literal', datatype: 'http://www.w3.org/2001/XMLSchema#boolean' }] });
    assert.deepEqual(b.questions[0]!.answers[0], { head: {}, boolean: true });
    assert.deepEqual(b.questions[0]!.query, {});
    const none = toQald({ ...base, answers: [] });
    assert.deepEqual(none.questions[0]!.answers[0], { head: { vars: ['uri'] }, results: { bindings: [] } });
    // answertype, as the QALD files write it
    const XSD = 'http://www.w3.org/2001/XMLSchema#';
    assert.equal(u.questions[0]!.answertype, 'resource');
    assert.equal(l.questions[0]!.answertype, 'number');
    assert.equal(b.questions[0]!.answertype, 'boolean');
    assert.equal(none.questions[0]!.answertype, 'resource');
    assert.equal(toQald({ ...base, answerType: 'number', answers: [{ value: '0', label: null, type: 'literal' }] }).questions[0]!.answertype, 'number');
    assert.equal(toQald({ ...base, answers: [{ value: '1994-07-06', label: null, type: 'literal', datatype: XSD + 'date' }] }).questions[0]!.answertype, 'date');
    assert.equal(toQald({ ...base, answers: [{ value: 'Drama', label: null, type: 'literal' }] }).questions[0]!.answertype, 'string');
  });

  it('QALD file: questions with their ids and English text; not a document or too many questions is an error', () => {
    const doc = { dataset: { id: 'mine' }, questions: [{ id: 3, question: [{ language: 'de', string: 'wer' }, { language: 'en', string: 'who' }] }, { question: [{ language: 'fr', string: 'qui' }] }] };
    assert.deepEqual(qaldQuestions(doc, 10), { dataset: { id: 'mine' }, questions: [{ id: '3', text: 'who' }, { id: '2', text: undefined }] });
    assert.throws(() => qaldQuestions({ question: 'x' }, 10), (e: AskgraphError) => e.code === 'BAD_REQUEST');
    assert.throws(() => qaldQuestions(doc, 1), (e: AskgraphError) => e.code === 'INPUT_TOO_LARGE');
  });

  it('SPARQL XML: characters XML 1.0 cannot carry are 406 (never XML that does not parse); CR as a reference', () => {
    assert.throws(() => selectToXml({ vars: ['v'], rows: [{ v: { type: 'literal', value: 'a\u0001b' } }] }), (e: AskgraphError) => e.code === 'NOT_ACCEPTABLE' && e.message.includes('JSON'));
    assert.ok(selectToXml({ vars: ['v'], rows: [{ v: { type: 'literal', value: 'a\rb' } }] }).includes('<literal>a&#13;b</literal>'));
  });

  it('format parameters: repeated values that agree, a media type over a name, a clash is 400; Accept parameters other than q dropped', () => {
    assert.equal(mediaForFormats(['tsv', 'text/tab-separated-values', 'tsv', 'text/tab-separated-values'], 'select'), 'text/tab-separated-values');
    assert.equal(mediaForFormats(['rdf+xml', 'application/rdf+xml'], 'graph'), 'application/rdf+xml');
    assert.equal(mediaForFormats(['xml', 'text/csv'], 'select'), 'text/csv');
    assert.equal(mediaForFormats(['nonsense', ''], 'select'), undefined);
    assert.throws(() => mediaForFormats(['text/csv', 'application/sparql-results+json'], 'select'), (e: AskgraphError) => e.code === 'BAD_REQUEST');
    assert.equal(acceptWithoutParams('application/sparql-results+json;charset=utf-8, text/csv; q=0.5;charset=x'), 'application/sparql-results+json, text/csv;q=0.5');
  });

  it('errors → HTTP: AskgraphError keeps code/status, body-parser errors are mapped, unknown errors hide their message', () => {
    const a = toHttpError(new AskgraphError('UPDATE_FORBIDDEN', 'no'));
    assert.equal(a.status, 403);
    assert.deepEqual(a.body, { error: { code: 'UPDATE_FORBIDDEN', message: 'no' } });
    const big = toHttpError(Object.assign(new Error('request entity too large'), { type: 'entity.too.large', status: 413 }));
    assert.equal(big.status, 413);
    assert.equal(big.body.error.code, 'INPUT_TOO_LARGE');
    const json = toHttpError(Object.assign(new SyntaxError('Unexpected token'), { type: 'entity.parse.failed' }));
    assert.equal(json.status, 400);
    const boom = toHttpError(new TypeError('secret internals at /srv/x.js:1:2'));
    assert.equal(boom.status, 500);
    assert.deepEqual(boom.body, { error: { code: 'INTERNAL', message: 'internal server error' } });
    assert.equal(boom.internal, true);
  });

  it('question checks: trimmed, non-empty, length limit with 413', () => {
    assert.equal(checkQuestion('  who?  ', 10), 'who?');
    assert.throws(() => checkQuestion(' \n ', 10), (e: AskgraphError) => e.code === 'QUESTION_INVALID');
    assert.throws(() => checkQuestion('x'.repeat(11), 10), (e: AskgraphError) => e.code === 'INPUT_TOO_LARGE' && e.status === 413);
  });

  it('metrics: Prometheus text with escaped labels, cumulative buckets, fallback rate, scrape-time gauges', async () => {
    const m = new ServeMetrics();
    m.requests.inc({ method: 'GET', route: '/v1/ask', status: '200' });
    m.requests.inc({ method: 'GET', route: '/v1/ask', status: '200' });
    m.errors.inc({ code: 'a"b\\c\nd' });
    m.answers.inc({ source: 'parser' }, 3);
    m.answers.inc({ source: 'fallback' });
    m.stageSeconds.observe({ stage: 'total' }, 0.004);
    m.stageSeconds.observe({ stage: 'total' }, 0.5);
    m.stageSeconds.observe({ stage: 'total' }, 50);
    let queued = 7;
    m.gauge('askgraph_asks_queued', 'queued', () => queued);
    const text = await m.expose();
    assert.match(text, /^askgraph_http_requests_total\{method="GET",route="\/v1\/ask",status="200"\} 2$/m);
    assert.match(text, /^askgraph_errors_total\{code="a\\"b\\\\c\\nd"\} 1$/m);
    assert.match(text, /^askgraph_fallback_rate 0\.25$/m);
    assert.match(text, /^askgraph_cache_hits_total 0$/m);
    assert.match(text, /^# TYPE askgraph_http_request_duration_seconds histogram$/m);
    assert.match(text, /^askgraph_stage_duration_seconds_bucket\{le="0\.005",stage="total"\} 1$/m);
    assert.match(text, /^askgraph_stage_duration_seconds_bucket\{le="1",stage="total"\} 2$/m);
    assert.match(text, /^askgraph_stage_duration_seconds_bucket\{le="\+Inf",stage="total"\} 3$/m);
    assert.match(text, /^askgraph_stage_duration_seconds_count\{stage="total"\} 3$/m);
    assert.match(text, /^askgraph_asks_queued 7$/m);
    queued = 2;
    assert.match(await m.expose(), /^askgraph_asks_queued 2$/m, 'gauges are read at scrape time');
    assert.match(PROMETHEUS_CONTENT_TYPE, /^text\/plain; version=0\.0\.4; charset=utf-8$/);
  });

  it('metrics: each ServeMetrics has its own registry (several apps in one process)', async () => {
    const a = new ServeMetrics();
    const b = new ServeMetrics();
    a.cacheHits.inc();
    a.gauge('askgraph_asks_running', 'running', () => 1);
    b.gauge('askgraph_asks_running', 'running', () => 0); // the same name in another app is no conflict
    assert.match(await a.expose(), /^askgraph_cache_hits_total 1$/m);
    assert.match(await b.expose(), /^askgraph_cache_hits_total 0$/m);
    assert.match(await b.expose(), /^askgraph_asks_running 0$/m);
  });
});
