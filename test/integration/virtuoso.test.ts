/** EndpointExecutor against a real Virtuoso (started by the test setup if needed; see virtuoso-setup.ts). */
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { isAskgraphError } from '../../src/core';
import { EndpointExecutor, openExecutor, runCompiled, StoreExecutor } from '../../src/execute';
import { compileForm } from '../../src/compile';
import { parseForm } from '../../src/form';
import { main } from '../../src/cli/main';
import { fixtureGraph } from '../unit/compile/cases-lib';
import { ensureGraph, graphEndpoint } from './virtuoso-setup';
import { MOVIES_NAMESPACES } from '../helpers/movies';
import { getJson, standInGateway, startTestServer } from './serve-helpers';
import { closeAll } from '../helpers/close-all';

const GRAPH = 'http://askgraph.dev/test/movies-small';
const M = 'http://askgraph.dev/movies/';
const code = (c: string) => (e: unknown) => isAskgraphError(e) && e.code === c;

describe('Virtuoso: EndpointExecutor (real server)', function () {
  this.timeout(180_000);
  let ox: StoreExecutor;
  let vt: EndpointExecutor;
  let size: number;

  before(async () => {
    ox = await openExecutor(fixtureGraph());
    size = await ox.count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }');
    await ensureGraph(fixtureGraph(), GRAPH, size);
    vt = new EndpointExecutor(graphEndpoint(GRAPH));
  });
  after(async () => {
    await closeAll(ox);
  });

  it('select / ask / count / construct / labels', async () => {
    const res = await vt.select(`SELECT ?m WHERE { ?m <${M}relation/directed_by> <${M}entity/Ron%20Howard> } ORDER BY ?m`);
    assert.deepEqual(res.vars, ['m']);
    assert.ok(res.rows.length >= 2);
    assert.ok(res.rows.every((r) => r.m!.type === 'uri' && r.m!.value.startsWith(M + 'entity/')));
    assert.equal(await vt.ask(`ASK { <${M}entity/Big> <${M}relation/starred_actors> <${M}entity/Tom%20Hanks> }`), true);
    assert.equal(await vt.ask(`ASK { <${M}entity/Big> <${M}relation/starred_actors> <${M}entity/Nobody> }`), false);
    assert.equal(await vt.count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'), size);
    const triples = await vt.construct(`CONSTRUCT { ?m <http://ex.test/star> ?a } WHERE { ?m <${M}relation/starred_actors> ?a }`);
    assert.ok(triples.length > 5);
    const labels = await vt.labels([`${M}entity/Tom%20Hanks`, `${M}entity/Big`, `${M}entity/Nobody`]);
    assert.deepEqual([...labels.entries()].sort(), [[`${M}entity/Big`, 'Big'], [`${M}entity/Tom%20Hanks`, 'Tom Hanks']]);
  });

  it('typed literals come back with their datatypes, as on Oxigraph', async () => {
    const q = `SELECT ?y WHERE { <${M}entity/Forrest%20Gump> <${M}relation/release_year> ?y }`;
    assert.deepEqual((await vt.select(q)).rows, (await ox.select(q)).rows);
  });

  it('a compiled form through runCompiled: labels attached, topic excluded', async () => {
    const out = await runCompiled(vt, compileForm(parseForm('(JOIN (R starred_actors) (JOIN starred_actors [ Tom Hanks ]))'), MOVIES_NAMESPACES), { timeoutMs: 30000 });
    assert.equal(out.status, 'answers');
    const labels = out.answers.map((a) => a.label);
    assert.ok(labels.includes('Gary Sinise') && !labels.includes('Tom Hanks'));
  });

  it('updates are refused and the graph is unchanged', async () => {
    await assert.rejects(vt.query(`INSERT DATA { GRAPH <${GRAPH}> { <${M}entity/X> <${M}relation/r> <${M}entity/Y> } }`), code('UPDATE_FORBIDDEN'));
    await assert.rejects(vt.query(`CLEAR GRAPH <${GRAPH}>`), code('UPDATE_FORBIDDEN'));
    assert.equal(await vt.count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'), size);
  });

  it('a slow query is QUERY_TIMEOUT near its timeout, and the endpoint answers the next query', async () => {
    const slow = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i FILTER(STRLEN(STR(?c)) + STRLEN(STR(?f)) + STRLEN(STR(?i)) = 7) }';
    const t0 = Date.now();
    await assert.rejects(vt.count(slow, { timeoutMs: 500 }), code('QUERY_TIMEOUT'));
    const took = Date.now() - t0;
    assert.ok(took >= 490, `took ${took} ms`); // not before its timeout; a runaway query that was not stopped would hang the test
    assert.equal(await vt.ask('ASK { ?s ?p ?o }', { timeoutMs: 10000 }), true);
  });

  it('a query Virtuoso refuses is ENDPOINT_REFUSED (a call of a function it does not define: HTTP 500 SR185; a forbidden bif: HTTP 400)', async () => {
    await assert.rejects(vt.select('SELECT * WHERE { ?s ?p ?o FILTER(<http://example.org/noSuchFunction>(?s)) } LIMIT 1'), code('ENDPOINT_REFUSED'));
    await assert.rejects(vt.select('PREFIX bif: <bif:> SELECT ?s WHERE { ?s ?p ?o FILTER(bif:system("true")) } LIMIT 1'), code('ENDPOINT_REFUSED'));
    // in the projection too: the query goes to Virtuoso as written
    await assert.rejects(vt.select('PREFIX bif: <bif:> SELECT (bif:system("true") AS ?x) WHERE { }'), code('ENDPOINT_REFUSED'));
  });

  it('through the REAL server in remote mode, the upstream\'s extension functions are refused before they reach it (bif:http_get would fetch a URL: an SSRF relay)', async () => {
    // a loopback listener stands for the URL an attacker wants fetched: it must see no request
    let fetched = 0;
    const target = http.createServer((_req, res) => {
      fetched++;
      res.end('secret');
    });
    const port = await new Promise<number>((r) => target.listen(0, '127.0.0.1', () => r((target.address() as AddressInfo).port)));
    const srv = await startTestServer(standInGateway(new EndpointExecutor(graphEndpoint(GRAPH))));
    try {
      const post = (q: string) => getJson(srv.url + '/sparql', { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: q });
      for (const q of [
        `PREFIX bif: <bif:> SELECT (bif:http_get("http://127.0.0.1:${port}/") AS ?x) WHERE { }`,
        `PREFIX bif: <bif:> SELECT ?s WHERE { ?s ?p ?o FILTER(bif:http_get("http://127.0.0.1:${port}/")) } LIMIT 1`,
        `PREFIX bif: <bif:> ASK { ?s ?p ?o FILTER(STRLEN(bif:http_get("http://127.0.0.1:${port}/")) > 0) }`,
        'PREFIX bif: <bif:> SELECT ?s WHERE { ?s ?p ?o FILTER(bif:system("true")) } LIMIT 1',
        'PREFIX bif: <bif:> SELECT ?s WHERE { ?s ?p ?o FILTER(bif:file_to_string("/etc/hostname")) } LIMIT 1',
        'SELECT * WHERE { ?s ?p ?o FILTER(<http://example.org/noSuchFunction>(?s)) } LIMIT 1',
      ]) {
        const r = await post(q);
        assert.equal(r.status, 403, `${q}: ${JSON.stringify(r.body).slice(0, 300)}`);
        assert.equal(r.body.error.code, 'FUNCTION_FORBIDDEN');
      }
      assert.equal(fetched, 0, 'the upstream fetched the URL');
      // SPARQL's own functions and XSD casts still run; the endpoint still answers
      const ok = await post('PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> SELECT ?n WHERE { ?s ?p ?o BIND(xsd:string(STRLEN(STR(?s))) AS ?n) } LIMIT 1');
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
    } finally {
      await srv.close();
      await new Promise((r) => target.close(r));
    }
  });

  it('a stopped port is ENDPOINT_DOWN; a wrong path is ENDPOINT_ERROR', async () => {
    const probe = http.createServer();
    const port = await new Promise<number>((r) => probe.listen(0, '127.0.0.1', () => r((probe.address() as AddressInfo).port)));
    await new Promise((r) => probe.close(r));
    await assert.rejects(new EndpointExecutor(`http://127.0.0.1:${port}/sparql`).ask('ASK {}'), code('ENDPOINT_DOWN'));
    const wrong = new EndpointExecutor(graphEndpoint(GRAPH).replace('/sparql', '/no-such-service'));
    await assert.rejects(wrong.ask('ASK {}'), code('ENDPOINT_ERROR'));
  });

  it('askgraph run --store <endpoint URL>', async () => {
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (c: Buffer) => (out += c.toString()));
    const rc = await main(['run', '(JOIN (R directed_by) [ Apollo 13 ])', '--store', graphEndpoint(GRAPH)], { stdout, stderr: new PassThrough(), env: {} });
    assert.equal(rc, 0);
    assert.equal(out, `Ron Howard\t<${M}entity/Ron%20Howard>\n`);
  });
});
