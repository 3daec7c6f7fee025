import { strict as assert } from 'node:assert';
import type { RunningServer } from '../../src/serve';
import { entity, getJson, relation, standInGateway, startTestServer, type StandIn } from './serve-helpers';

const SELECT = `SELECT ?m WHERE { ?m <${relation('directed_by')}> <${entity('Robert Zemeckis')}> } ORDER BY ?m`;
const COUNT_ALL = 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }';

describe('serve: SPARQL 1.1 Protocol on /sparql (stand-in gateway, real Oxigraph store in-process)', () => {
  let srv: RunningServer;
  let g: StandIn;
  const url = () => srv.url + '/sparql';
  const storeSize = async () => (await g.executor.count(COUNT_ALL));
  before(async () => {
    g = standInGateway();
    srv = await startTestServer(g);
  });
  after(() => srv.close());

  it('GET ?query= → SPARQL JSON results', async () => {
    const r = await getJson(url() + '?query=' + encodeURIComponent(SELECT));
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^application\/sparql-results\+json/);
    assert.deepEqual(r.body.head.vars, ['m']);
    assert.deepEqual(
      r.body.results.bindings.map((b: { m: { value: string } }) => b.m.value),
      ['Back to the Future', 'Cast Away', 'Forrest Gump'].map(entity),
    );
  });

  it('form POST and application/sparql-query POST give the same results', async () => {
    const a = await getJson(url(), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'query=' + encodeURIComponent(SELECT) });
    const b = await getJson(url(), { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: SELECT });
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    assert.deepEqual(a.body, b.body);
    assert.equal(a.body.results.bindings.length, 3);
  });

  it('content negotiation: XML, CSV, TSV by Accept (and ?format=), 406 when nothing is acceptable', async () => {
    const q = url() + '?query=' + encodeURIComponent(SELECT);
    const xml = await fetch(q, { headers: { accept: 'application/sparql-results+xml' } });
    assert.match(xml.headers.get('content-type') ?? '', /^application\/sparql-results\+xml/);
    const xt = await xml.text();
    assert.match(xt, /<variable name="m"\/>/);
    assert.match(xt, new RegExp(`<uri>${entity('Cast Away').replace(/[.?]/g, '\\$&')}</uri>`));
    const csv = await fetch(q, { headers: { accept: 'text/csv' } });
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    assert.equal(await csv.text(), ['m', ...['Back to the Future', 'Cast Away', 'Forrest Gump'].map(entity)].join('\r\n') + '\r\n');
    const tsv = await fetch(q, { headers: { accept: 'text/tab-separated-values' } });
    assert.match(tsv.headers.get('content-type') ?? '', /^text\/tab-separated-values/);
    assert.equal((await tsv.text()).split('\n')[1], `<${entity('Back to the Future')}>`);
    const pref = await fetch(q, { headers: { accept: 'text/csv;q=0.5, application/sparql-results+xml;q=0.9' } });
    assert.match(pref.headers.get('content-type') ?? '', /xml/);
    assert.match((await fetch(q + '&format=tsv')).headers.get('content-type') ?? '', /^text\/tab-separated-values/);
    const none = await getJson(q, { headers: { accept: 'image/png' } });
    assert.equal(none.status, 406);
    assert.equal(none.body.error.code, 'NOT_ACCEPTABLE');
    const anyType = await fetch(q, { headers: { accept: '*/*' } });
    assert.match(anyType.headers.get('content-type') ?? '', /^application\/sparql-results\+json/);
  });

  it('ASK → boolean JSON / XML; CSV for ASK is 406; CONSTRUCT → N-Triples', async () => {
    const ask = `ASK { <${entity('Heat')}> <${relation('directed_by')}> <${entity('Michael Mann')}> }`;
    const j = await getJson(url() + '?query=' + encodeURIComponent(ask));
    assert.deepEqual(j.body, { head: {}, boolean: true });
    const x = await fetch(url() + '?query=' + encodeURIComponent(ask), { headers: { accept: 'application/sparql-results+xml' } });
    assert.match(await x.text(), /<boolean>true<\/boolean>/);
    assert.equal((await fetch(url() + '?query=' + encodeURIComponent(ask), { headers: { accept: 'text/csv' } })).status, 406);
    const c = await fetch(url() + '?query=' + encodeURIComponent(`CONSTRUCT WHERE { <${entity('Heat')}> ?p ?o }`));
    assert.equal(c.status, 200);
    assert.match(c.headers.get('content-type') ?? '', /^application\/n-triples/);
    const nt = await c.text();
    assert.ok(nt.includes(`<${entity('Heat')}> <${relation('directed_by')}> <${entity('Michael Mann')}> .`), nt);
  });

  it('literals with quotes, tabs and newlines are escaped in every format', async () => {
    const q = url() + '?query=' + encodeURIComponent('SELECT ?x WHERE { BIND("a \\"b\\",\\tc\\nd" AS ?x) }');
    const j = await getJson(q);
    assert.equal(j.body.results.bindings[0].x.value, 'a "b",\tc\nd');
    assert.equal((await (await fetch(q, { headers: { accept: 'text/csv' } })).text()).split('\r\n')[1], '"a ""b"",\tc\nd"');
    assert.equal((await (await fetch(q, { headers: { accept: 'text/tab-separated-values' } })).text()).split('\n')[1], '"a \\"b\\",\\tc\\nd"');
    assert.match(await (await fetch(q, { headers: { accept: 'application/sparql-results+xml' } })).text(), /<literal>a &quot;b&quot;,\tc\nd<\/literal>/);
  });

  describe('read-only: every update is refused with 403 UPDATE_FORBIDDEN and the store is unchanged', () => {
    const updates = [
      'DROP ALL',
      'CLEAR DEFAULT',
      `INSERT DATA { <${entity('x')}> <${relation('y')}> <${entity('z')}> }`,
      'DELETE WHERE { ?s ?p ?o }',
      `DELETE { ?s ?p ?o } INSERT { ?s ?p "pwned" } WHERE { ?s ?p ?o }`,
      'LOAD <http://example.org/evil.ttl>',
      'CREATE GRAPH <http://example.org/g>',
      `PREFIX x: <http://x/> SELECT * WHERE { ?s ?p ?o } ; DROP ALL`,
    ];
    let size0 = 0;
    before(async () => {
      size0 = await storeSize();
      assert.ok(size0 > 10);
    });
    for (const u of updates) {
      it(`refuses: ${u.slice(0, 50)}`, async () => {
        const asQuery = await getJson(url() + '?query=' + encodeURIComponent(u));
        if (u.includes('SELECT')) {
          // not a valid query nor a valid update: a syntax error, still nothing runs
          assert.ok([400, 403].includes(asQuery.status), JSON.stringify(asQuery.body));
        } else {
          assert.equal(asQuery.status, 403, JSON.stringify(asQuery.body));
          assert.equal(asQuery.body.error.code, 'UPDATE_FORBIDDEN');
          assert.match(asQuery.body.error.message, /read-only/);
        }
        const asForm = await getJson(url(), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'update=' + encodeURIComponent(u) });
        assert.equal(asForm.status, 403);
        assert.equal(asForm.body.error.code, 'UPDATE_FORBIDDEN');
        const asBody = await getJson(url(), { method: 'POST', headers: { 'content-type': 'application/sparql-update' }, body: u });
        assert.equal(asBody.status, 403);
        assert.equal(asBody.body.error.code, 'UPDATE_FORBIDDEN');
        const asGet = await getJson(url() + '?update=' + encodeURIComponent(u));
        assert.equal(asGet.status, 403);
        const asQueryBody = await getJson(url(), { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: u });
        assert.ok([400, 403].includes(asQueryBody.status));
        assert.equal(await storeSize(), size0);
      });
    }
    it('the data is still there, byte for byte', async () => {
      const r = await getJson(url() + '?query=' + encodeURIComponent(SELECT));
      assert.equal(r.body.results.bindings.length, 3);
      assert.equal(await storeSize(), size0);
    });
  });

  it('protocol errors: missing query, syntax error, both body and query=, unsupported media type, graph parameters', async () => {
    const missing = await getJson(url(), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'format=json' });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.code, 'BAD_REQUEST');
    const syntax = await getJson(url() + '?query=' + encodeURIComponent('SELECT WHERE {'));
    assert.equal(syntax.status, 400);
    assert.equal(syntax.body.error.code, 'SPARQL_SYNTAX');
    const both = await getJson(url() + '?query=' + encodeURIComponent(SELECT), { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: SELECT });
    assert.equal(both.status, 400);
    const media = await getJson(url(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: SELECT }) });
    assert.equal(media.status, 415);
    assert.equal(media.body.error.code, 'UNSUPPORTED_MEDIA_TYPE');
    // a store that is neither the embedded one nor an endpoint: the protocol's dataset is refused
    const graph = await getJson(url() + '?query=' + encodeURIComponent(SELECT) + '&default-graph-uri=' + encodeURIComponent('http://g'));
    assert.equal(graph.status, 400);
    assert.equal(graph.body.error.code, 'DATASET_UNSUPPORTED');
    const emptyGraph = await getJson(url() + '?query=' + encodeURIComponent(SELECT) + '&default-graph-uri=');
    assert.equal(emptyGraph.status, 200);
    // unknown parameters are ignored (SPARQL 1.1 Protocol; SPARQLWrapper sends output= and results=)
    const junk = await getJson(url() + '?query=' + encodeURIComponent(SELECT) + '&evil=1&output=json&results=json');
    assert.equal(junk.status, 200);
    assert.equal(junk.body.results.bindings.length, 3);
    const badTimeout = await getJson(url() + '?query=' + encodeURIComponent(SELECT) + '&timeout=-5');
    assert.equal(badTimeout.status, 400);
  });

  it('store down → 502 ENDPOINT_DOWN with a clear message; the server keeps serving and recovers', async () => {
    g.executor.down = true;
    try {
      const r = await getJson(url() + '?query=' + encodeURIComponent(SELECT));
      assert.equal(r.status, 502);
      assert.equal(r.body.error.code, 'ENDPOINT_DOWN');
      assert.match(r.body.error.message, /down/);
      assert.equal((await getJson(srv.url + '/healthz')).status, 200);
    } finally {
      g.executor.down = false;
    }
    assert.equal((await getJson(url() + '?query=' + encodeURIComponent(SELECT))).status, 200);
  });
});
