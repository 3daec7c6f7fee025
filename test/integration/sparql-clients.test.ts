/**
 * Real SPARQL clients, unmodified and with their default settings, against the REAL server on the
 * embedded movies store: Debian's SPARQLWrapper and rdflib (SPARQLStore) as Python subprocesses
 * (/usr/bin/python3, packages python3-sparqlwrapper and python3-rdflib), and Comunica in-process.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import * as path from 'node:path';
import { packageRoot } from '../../src/core';
import { openExecutor, type OxigraphExecutor } from '../../src/execute';
import type { RunningServer } from '../../src/serve';
import { entity, getJson, relation, standInGateway, startTestServer } from './serve-helpers';
import { closeAll } from '../helpers/close-all';

const GUMP = entity('Forrest Gump');
const ZEMECKIS = entity('Robert Zemeckis');

/** Runs a client script; what it printed, read as JSON (the tests check its shape). */
async function python(script: string, url: string, ...args: string[]) {
  const file = path.join(packageRoot(), 'test', 'integration', 'clients', script);
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile('/usr/bin/python3', [file, url, ...args], { timeout: 90_000 }, (err, out, stderr) => {
      if (err) reject(new Error(`${script} failed (${err.message}):\n${stderr}`));
      else resolve(out);
    });
  });
  return JSON.parse(stdout);
}

describe('real SPARQL clients with default settings: SPARQLWrapper, rdflib SPARQLStore, Comunica (REAL server, embedded movies store)', function () {
  this.timeout(120_000);
  let ex: OxigraphExecutor;
  let srv: RunningServer;
  let url: string;
  let gumpTriples: number;
  before(async () => {
    // the SPARQL endpoint needs no parser: a stand-in pipeline over the REAL movies store
    ex = (await openExecutor()) as OxigraphExecutor;
    srv = await startTestServer(standInGateway(ex));
    url = srv.url + '/sparql';
    gumpTriples = (await ex.construct(`CONSTRUCT { <${GUMP}> ?p ?o } WHERE { <${GUMP}> ?p ?o }`)).length;
    assert.ok(gumpTriples > 10);
  });
  after(async () => {
    await closeAll(srv, ex);
  });

  it('SPARQLWrapper: SELECT (XML default, JSON, POST), ASK (XML, JSON), CONSTRUCT as RDF/XML (its default) and Turtle', async () => {
    const out = await python('sparqlwrapper_defaults.py', url);
    assert.deepEqual(out.select_xml, [ZEMECKIS]);
    assert.deepEqual(out.select_json, [ZEMECKIS]);
    assert.deepEqual(out.select_json_post, [ZEMECKIS]);
    assert.equal(out.ask_xml, 'true');
    assert.equal(out.ask_json, true);
    assert.equal(out.construct_rdfxml.length, gumpTriples);
    assert.ok(out.construct_rdfxml.includes(`${relation('directed_by')} ${ZEMECKIS}`), JSON.stringify(out.construct_rdfxml));
    assert.ok(out.construct_rdfxml.includes('http://www.w3.org/2000/01/rdf-schema#label Forrest Gump'));
    assert.ok(out.construct_turtle_bytes > 100);
  });

  it('rdflib SPARQLStore: SELECT, ASK, CONSTRUCT and triples(); JSON-LD, N-Quads, TriG and Turtle read by rdflib', async () => {
    const out = await python('rdflib_sparqlstore.py', url);
    assert.deepEqual(out.select, [ZEMECKIS]);
    assert.equal(out.ask, true);
    assert.deepEqual(out.triples, [ZEMECKIS]);
    assert.equal(out.construct.length, gumpTriples);
    for (const fmt of ['json-ld', 'nquads', 'trig', 'turtle']) assert.deepEqual(out['construct_' + fmt], out.construct, fmt);
  });

  it('Comunica (SPARQL source = this endpoint): SELECT, ASK and CONSTRUCT', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { QueryEngine } = require('@comunica/query-sparql');
    const engine = new QueryEngine();
    const ctx = { sources: [{ type: 'sparql', value: url }] };
    const bindings = await (await engine.queryBindings(`SELECT ?d WHERE { <${GUMP}> <${relation('directed_by')}> ?d }`, ctx)).toArray();
    assert.deepEqual(bindings.map((b: { get(name: string): { value: string } }) => b.get('d').value), [ZEMECKIS]);
    assert.equal(await engine.queryBoolean(`ASK { <${GUMP}> <${relation('directed_by')}> <${ZEMECKIS}> }`, ctx), true);
    const quads = await (await engine.queryQuads(`CONSTRUCT { <${GUMP}> ?p ?o } WHERE { <${GUMP}> ?p ?o }`, ctx)).toArray();
    assert.equal(quads.length, gumpTriples);
  });

  it('SPARQLWrapper asking for TSV and RDF/XML sends format, output and results twice (name and media type): both answered', async () => {
    const out = await python('sparqlwrapper_formats.py', url);
    assert.equal(out.tsv, `?d\n<${ZEMECKIS}>\n`, JSON.stringify(out.tsv));
    assert.equal(out.rdfxml.length, gumpTriples, JSON.stringify(out.rdfxml).slice(0, 400));
    assert.ok(out.rdfxml.includes(`${relation('directed_by')} ${ZEMECKIS}`));
    // repeated values that name different formats are a clear 400, not a guess
    const q = url + '?query=' + encodeURIComponent(`SELECT * WHERE { <${GUMP}> ?p ?o } LIMIT 1`);
    const agree = await fetch(q + '&format=tsv&format=text%2Ftab-separated-values&output=tsv&output=text%2Ftab-separated-values');
    assert.equal(agree.status, 200);
    assert.match(agree.headers.get('content-type') ?? '', /^text\/tab-separated-values/);
    const byType = await fetch(q + '&format=json&format=text%2Fcsv');
    assert.match(byType.headers.get('content-type') ?? '', /^text\/csv/);
    const clash = await getJson(q + '&format=text%2Fcsv&format=application%2Fsparql-results%2Bjson');
    assert.equal(clash.status, 400);
    assert.equal(clash.body.error.code, 'BAD_REQUEST');
    assert.match(clash.body.error.message, /different result formats/);
  });

  it('SPARQL XML: a literal with a control character is 406 naming the formats that carry it (never XML that does not parse); a CR survives an XML parser', async () => {
    const out = await python('sparqlwrapper_formats.py', url);
    // SPARQLWrapper's default (XML, read by xml.dom.minidom) and xml.etree on the raw document
    assert.equal(out.control_char.status, 406, JSON.stringify(out.control_char));
    const err = JSON.parse(out.control_char.body).error;
    assert.equal(err.code, 'NOT_ACCEPTABLE');
    assert.match(err.message, /JSON/);
    assert.equal(out.carriage_return, 'a\rb');
    assert.equal(out.etree_crlf, 'a\r\nb');
    // the same literal in JSON is exact
    const j = await getJson(url + '?query=' + encodeURIComponent('SELECT ?x WHERE { BIND("a\\u0001b" AS ?x) }'));
    assert.equal(j.body.results.bindings[0].x.value, 'a\u0001b');
  });

  it('one analyst: SPARQLWrapper in 4 threads, 8 queries at once, all answered with the defaults (a client waits its turn); the limit is in serve --help', async () => {
    // a query that keeps the store busy for a while, so the 8 overlap
    const q = `SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?b ?q ?c . FILTER(?a != <http://example.org/#I>) }`;
    const out = await python('sparqlwrapper_threads.py', url, q);
    assert.equal(out.length, 8);
    assert.deepEqual(out, Array(8).fill({ rows: 1 }), JSON.stringify(out));
    const { stdout: help } = await promisify(execFile)(process.execPath, [path.join(packageRoot(), 'bin', 'askgraph.js'), 'serve', '--help'], { timeout: 60_000 });
    assert.match(help, /ASKGRAPH_SPARQL_PER_CLIENT \(queries of one client[^)]*default 4\)/);
    assert.match(help, /ASKGRAPH_SPARQL_PER_CLIENT_QUEUE \(more\s+that wait their turn; default 64; beyond: 429 with Retry-After\)/);
  });

  it('beyond the per-client queue: 429 with Retry-After (a server with 1 running, 0 waiting)', async () => {
    const tight = await startTestServer(standInGateway(ex), { sparql: { perClient: 1, perClientQueue: 0 } });
    try {
      const slow = `SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?b ?q ?c }`;
      const all = await Promise.all(Array.from({ length: 4 }, () => fetch(tight.url + '/sparql?query=' + encodeURIComponent(slow))));
      const refused = all.filter((r) => r.status === 429);
      assert.ok(refused.length >= 1, all.map((r) => r.status).join(','));
      for (const r of refused) {
        assert.equal(r.headers.get('retry-after'), '1');
        assert.equal((await r.json()).error.code, 'RATE_LIMITED');
      }
    } finally {
      await tight.close();
    }
  });

  it('Comunica: a join over two sources (two endpoints of this store) works 5 runs out of 5 with the defaults', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { QueryEngine } = require('@comunica/query-sparql');
    const second = await startTestServer(standInGateway(ex));
    try {
      const expected = (await ex.select(`SELECT ?m ?a WHERE { ?m <${relation('directed_by')}> <${ZEMECKIS}> . ?m <${relation('starred_actors')}> ?a }`)).rows.length;
      assert.ok(expected > 5);
      for (let run = 0; run < 5; run++) {
        const engine = new QueryEngine();
        const sources = [{ type: 'sparql', value: url }, { type: 'sparql', value: second.url + '/sparql' }];
        const rows = await (await engine.queryBindings(`SELECT ?m ?a WHERE { ?m <${relation('directed_by')}> <${ZEMECKIS}> . ?m <${relation('starred_actors')}> ?a }`, { sources })).toArray();
        // each source holds the whole store, so each solution comes once per pair of sources
        assert.equal(rows.length, expected * 4, `run ${run}`);
      }
    } finally {
      await second.close();
    }
  });

  it('Accept with a charset parameter is honoured; CONSTRUCT / DESCRIBE asked with SPARQL result types only (roqet, editors) get the triples as ?s ?p ?o solutions, not 406', async () => {
    const sel = url + '?query=' + encodeURIComponent(`SELECT ?d WHERE { <${GUMP}> <${relation('directed_by')}> ?d }`);
    const j = await fetch(sel, { headers: { accept: 'application/sparql-results+json;charset=utf-8' } });
    assert.equal(j.status, 200);
    assert.match(j.headers.get('content-type') ?? '', /^application\/sparql-results\+json/);
    assert.equal((await j.json()).results.bindings[0].d.value, ZEMECKIS);
    const x = await fetch(sel, { headers: { accept: 'application/sparql-results+xml; charset=UTF-8; q=0.9, text/csv;q=0.1' } });
    assert.match(x.headers.get('content-type') ?? '', /^application\/sparql-results\+xml/);
    for (const q of [`CONSTRUCT { <${GUMP}> ?p ?o } WHERE { <${GUMP}> ?p ?o }`, `DESCRIBE <${GUMP}>`]) {
      // the inspector's editor (results JSON, with or without a charset)
      for (const accept of ['application/sparql-results+json', 'application/sparql-results+json;charset=utf-8']) {
        const r = await fetch(url + '?query=' + encodeURIComponent(q), { headers: { accept } });
        assert.equal(r.status, 200, `${accept} ${q}`);
        assert.match(r.headers.get('content-type') ?? '', /^application\/sparql-results\+json/);
        const body = await r.json();
        assert.deepEqual(body.head.vars, ['s', 'p', 'o']);
        assert.equal(body.results.bindings.length, gumpTriples);
        assert.ok(body.results.bindings.some((b: { s: { value: string }; p: { value: string }; o: { value: string } }) => b.s.value === GUMP && b.p.value === relation('directed_by') && b.o.value === ZEMECKIS));
      }
      // roqet's Accept (results XML only), read by an XML parser
      const out = await python('sparql_xml_rows.py', url, q);
      assert.equal(out.contentType, 'application/sparql-results+xml');
      assert.deepEqual(out.vars, ['s', 'p', 'o']);
      assert.equal(out.rows.length, gumpTriples);
      assert.ok(out.rows.some((r: string[]) => r[0] === GUMP && r[1] === relation('directed_by') && r[2] === ZEMECKIS));
    }
    // an RDF syntax among the accepted ones still wins; nothing RDF-like and no SPARQL result type: 406
    const both = await fetch(url + '?query=' + encodeURIComponent(`DESCRIBE <${GUMP}>`), { headers: { accept: 'application/sparql-results+json, text/turtle;q=0.5' } });
    assert.match(both.headers.get('content-type') ?? '', /^text\/turtle/);
    const png = await getJson(url + '?query=' + encodeURIComponent(`DESCRIBE <${GUMP}>`), { headers: { accept: 'image/png' } });
    assert.equal(png.status, 406);
  });

  it('rdflib evaluating SERVICE <this endpoint> { ?s ?p ?o } with LIMIT 3 outside: the endpoint cuts at its row cap with X-SPARQL-MaxRows instead of refusing', async () => {
    const out = await python('rdflib_service.py', url);
    assert.ok(out.rows, JSON.stringify(out));
    assert.equal(out.rows.length, 3);
    for (const [s, p] of out.rows) {
      assert.match(s, /^http:\/\//);
      assert.match(p, /^http:\/\//);
    }
    // what rdflib sent: the whole pattern, no LIMIT; the answer is cut at the cap and says so
    const r = await fetch(url + '?query=' + encodeURIComponent('SELECT REDUCED * WHERE { ?s ?p ?o }'), { headers: { accept: 'application/sparql-results+json' } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('x-sparql-maxrows'), '10000');
    assert.equal((await r.json()).results.bindings.length, 10_000);
    const g = await fetch(url + '?query=' + encodeURIComponent('CONSTRUCT WHERE { ?s ?p ?o }'));
    assert.equal(g.headers.get('x-sparql-maxrows'), '10000');
    assert.equal((await g.text()).trim().split('\n').length, 10_000);
    // under the cap: no header
    const small = await fetch(url + '?query=' + encodeURIComponent(`SELECT * WHERE { <${GUMP}> ?p ?o }`));
    assert.equal(small.headers.get('x-sparql-maxrows'), null);
  });

  it('protocol edges the clients meet: service description, 405 with Allow, format= by kind', async () => {
    const sd = await fetch(url, { headers: { accept: 'text/turtle' } });
    assert.equal(sd.status, 200);
    assert.match(sd.headers.get('content-type') ?? '', /^text\/turtle/);
    assert.match(await sd.text(), /sparql-service-description#Service/);
    const put = await fetch(url, { method: 'PUT', body: 'x' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, HEAD, POST, OPTIONS');
    assert.equal((await put.json()).error.code, 'METHOD_NOT_ALLOWED');
    // "xml" means SPARQL results XML for SELECT and RDF/XML for a graph (as SPARQLWrapper sends it)
    const sel = await fetch(url + '?format=xml&query=' + encodeURIComponent(`SELECT * WHERE { <${GUMP}> ?p ?o } LIMIT 1`));
    assert.match(sel.headers.get('content-type') ?? '', /^application\/sparql-results\+xml/);
    const con = await fetch(url + '?output=xml&query=' + encodeURIComponent(`DESCRIBE <${GUMP}>`));
    assert.match(con.headers.get('content-type') ?? '', /^application\/rdf\+xml/);
    assert.match(await con.text(), /<rdf:RDF/);
    const jsonld = await fetch(url + '?format=json&query=' + encodeURIComponent(`DESCRIBE <${GUMP}>`));
    assert.match(jsonld.headers.get('content-type') ?? '', /^application\/ld\+json/);
    assert.equal((await jsonld.json())[0]['@id'], GUMP);
  });
});
