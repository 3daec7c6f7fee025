/**
 * Real SPARQL clients, unmodified and with their default settings, against the REAL server on the
 * embedded movies store: Debian's SPARQLWrapper and rdflib (SPARQLStore) as Python subprocesses
 * (/usr/bin/python3, packages python3-sparqlwrapper and python3-rdflib), and Comunica in-process.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { packageRoot } from '../../src/core';
import { openExecutor, type OxigraphExecutor } from '../../src/execute';
import type { RunningServer } from '../../src/serve';
import { entity, relation, standInGateway, startTestServer } from './serve-helpers';

const GUMP = entity('Forrest Gump');
const ZEMECKIS = entity('Robert Zemeckis');

function python(script: string, url: string): Promise<any> {
  const file = path.join(packageRoot(), 'test', 'integration', 'clients', script);
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/python3', [file, url], { timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${script} failed (${err.message}):\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
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
    await srv?.close();
    await ex?.close();
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
    assert.deepEqual(bindings.map((b: any) => b.get('d').value), [ZEMECKIS]);
    assert.equal(await engine.queryBoolean(`ASK { <${GUMP}> <${relation('directed_by')}> <${ZEMECKIS}> }`, ctx), true);
    const quads = await (await engine.queryQuads(`CONSTRUCT { <${GUMP}> ?p ?o } WHERE { <${GUMP}> ?p ?o }`, ctx)).toArray();
    assert.equal(quads.length, gumpTriples);
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
