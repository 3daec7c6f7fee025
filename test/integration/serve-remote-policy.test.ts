/**
 * Remote-store mode: askgraph in front of a SPARQL endpoint must not relay SERVICE or FROM / FROM NAMED
 * (a federating upstream would fetch any URL for anyone). The upstream here is a REAL second askgraph
 * server on a REAL Oxigraph store; the front server reaches it through the real EndpointExecutor
 * over the SPARQL protocol. The upstream's metrics show whether a query reached it.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EndpointExecutor, openExecutor, type OxigraphExecutor } from '../../src/execute';
import type { RunningServer } from '../../src/serve';
import { entity, getJson, miniNTriples, relation, standInGateway, startTestServer } from './serve-helpers';
import { closeAll } from '../helpers/close-all';

const SELECT = `SELECT ?m WHERE { ?m <${relation('directed_by')}> <${entity('Robert Zemeckis')}> }`;

async function upstreamQueries(upstream: RunningServer): Promise<number> {
  const m = await (await fetch(upstream.url + '/metrics')).text();
  let n = 0;
  for (const [, v] of m.matchAll(/^askgraph_sparql_queries_total\{[^}]*\} (\d+)$/gm)) n += Number(v);
  return n;
}

function post(url: string, query: string) {
  return getJson(url + '/sparql', { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: query });
}

describe('serve with a remote store: SERVICE and FROM are not relayed unless allowed (REAL upstream askgraph + Oxigraph, REAL EndpointExecutor)', function () {
  this.timeout(60_000);
  let dir: string;
  let store: OxigraphExecutor;
  let upstream: RunningServer;
  let strict: RunningServer;
  let open: RunningServer;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-remote-'));
    fs.writeFileSync(path.join(dir, 'mini.nt'), miniNTriples());
    store = (await openExecutor(path.join(dir, 'mini.nt'))) as OxigraphExecutor;
    upstream = await startTestServer(standInGateway(store));
    strict = await startTestServer(standInGateway(new EndpointExecutor(upstream.url + '/sparql')));
    open = await startTestServer(standInGateway(new EndpointExecutor(upstream.url + '/sparql')), { sparql: { allowService: true, allowDataset: true } });
  });
  after(async () => {
    await Promise.all([closeAll(strict), closeAll(open)]);
    await closeAll(upstream, store);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a plain query is forwarded and answered', async () => {
    const r = await post(strict.url, SELECT);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.results.bindings.length, 3);
  });

  it('by default SERVICE is 403 FEDERATION_FORBIDDEN, FROM / FROM NAMED and graph parameters 400 DATASET_UNSUPPORTED; nothing reaches the upstream', async () => {
    const before = await upstreamQueries(upstream);
    const svc = await post(strict.url, 'SELECT * WHERE { SERVICE <http://169.254.169.254/latest/meta-data/> { ?s ?p ?o } }');
    assert.equal(svc.status, 403);
    assert.equal(svc.body.error.code, 'FEDERATION_FORBIDDEN');
    const from = await post(strict.url, 'SELECT * FROM <http://example.org/g> WHERE { ?s ?p ?o }');
    assert.equal(from.status, 400);
    assert.equal(from.body.error.code, 'DATASET_UNSUPPORTED');
    const named = await post(strict.url, 'SELECT * FROM NAMED <http://example.org/g> WHERE { GRAPH ?g { ?s ?p ?o } }');
    assert.equal(named.status, 400);
    const param = await getJson(strict.url + '/sparql?query=' + encodeURIComponent(SELECT) + '&named-graph-uri=' + encodeURIComponent('http://example.org/g'));
    assert.equal(param.status, 400);
    assert.equal(param.body.error.code, 'DATASET_UNSUPPORTED');
    assert.equal(await upstreamQueries(upstream), before, 'no refused query reached the upstream');
  });

  it('with sparql.allowService / allowDataset the clauses are forwarded to the upstream', async () => {
    const before = await upstreamQueries(upstream);
    // the upstream (embedded) honours FROM: another graph is empty
    const from = await post(open.url, `SELECT ?m FROM <http://example.org/nothing> WHERE { ?m <${relation('directed_by')}> ?d }`);
    assert.equal(from.status, 200, JSON.stringify(from.body));
    assert.equal(from.body.results.bindings.length, 0);
    // the upstream refuses SERVICE itself (403): the front reports the upstream's error
    const svc = await post(open.url, 'SELECT * WHERE { SERVICE <http://127.0.0.1:1/sparql> { ?s ?p ?o } }');
    assert.equal(svc.status, 502, JSON.stringify(svc.body));
    assert.equal(svc.body.error.code, 'ENDPOINT_ERROR');
    assert.match(svc.body.error.message, /403/);
    assert.ok((await upstreamQueries(upstream)) > before);
  });
});
