import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EndpointExecutor } from '../../../src/execute';
import { parseNTriples } from '../../../src/execute/terms';
import { isAskgraphError } from '../../../src/core';

function code(c: string) {
  return (e: unknown) => isAskgraphError(e) && e.code === c;
}

/** A stub SPARQL endpoint (not a real store): fixed JSON answers, a 500, a hang, and request recording. */
function stubServer(): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      requests.push(`${req.method} ${req.url} ${body}`);
      if (req.url!.startsWith('/error')) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('Virtuoso 37000 Error SP030: something broke');
      } else if (req.url!.startsWith('/anytime')) {
        // what Virtuoso sends when a query reaches its MaxQueryExecutionTime: HTTP 200, the rows found so far, and a header
        res.writeHead(200, { 'content-type': 'application/sparql-results+json', 'x-sql-state': 'S1TAT', 'x-sql-message': 'RC...: Returning incomplete results, query interrupted by result timeout.' });
        res.end(JSON.stringify({ head: { vars: ['x'] }, results: { bindings: [{ x: { type: 'uri', value: 'http://ex.test/a' } }] } }));
      } else if (req.url!.startsWith('/hang')) {
        // never answers
      } else {
        res.writeHead(200, { 'content-type': 'application/sparql-results+json' });
        res.end(JSON.stringify({ head: { vars: ['x'] }, results: { bindings: [{ x: { type: 'uri', value: 'http://ex.test/a' } }, { x: { type: 'literal', value: 'b', 'xml:lang': 'en' } }] } }));
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
      });
    }),
  );
}

describe('execute: EndpointExecutor (stub HTTP server)', function () {
  this.timeout(30000);
  let stub: Awaited<ReturnType<typeof stubServer>>;
  before(async () => {
    stub = await stubServer();
  });
  after(() => stub.close());

  it('select over the SPARQL protocol, with default-graph-uri taken from the URL and sent on every request', async () => {
    const ex = new EndpointExecutor(`${stub.url}/sparql?default-graph-uri=${encodeURIComponent('http://g.test/1')}`);
    const res = await ex.select('SELECT ?x WHERE { ?x ?p ?o }');
    assert.deepEqual(res.rows.map((r) => r.x), [{ type: 'uri', value: 'http://ex.test/a' }, { type: 'literal', value: 'b', lang: 'en' }]);
    assert.ok(stub.requests.some((r) => r.includes('default-graph-uri=http%3A%2F%2Fg.test%2F1')), stub.requests.join('\n'));
  });

  it('updates are refused before any request is sent', async () => {
    const n = stub.requests.length;
    const ex = new EndpointExecutor(`${stub.url}/sparql`);
    await assert.rejects(ex.query('INSERT DATA { <http://a.test/s> <http://a.test/p> 1 }'), code('UPDATE_FORBIDDEN'));
    await assert.rejects(ex.select('SELECT WHERE'), code('SPARQL_SYNTAX'));
    assert.equal(stub.requests.length, n);
  });

  it('HTTP errors are ENDPOINT_ERROR with the status', async () => {
    const ex = new EndpointExecutor(`${stub.url}/error`);
    await assert.rejects(ex.select('SELECT ?x WHERE { ?x ?p ?o }'), (e: unknown) => isAskgraphError(e) && e.code === 'ENDPOINT_ERROR' && e.details?.status === 500);
  });

  it('an incomplete result (Virtuoso\'s anytime answer at its own time limit) is QUERY_TIMEOUT, never fewer rows', async () => {
    const ex = new EndpointExecutor(`${stub.url}/anytime`);
    await assert.rejects(ex.select('SELECT ?x WHERE { ?x ?p ?o } LIMIT 50000'), (e: unknown) => isAskgraphError(e) && e.code === 'QUERY_TIMEOUT' && e.message.includes('incomplete'));
  });

  it('a hanging endpoint is QUERY_TIMEOUT near the timeout', async () => {
    const ex = new EndpointExecutor(`${stub.url}/hang`);
    const t0 = Date.now();
    await assert.rejects(ex.select('SELECT ?x WHERE { ?x ?p ?o }', { timeoutMs: 400 }), code('QUERY_TIMEOUT'));
    const took = Date.now() - t0;
    assert.ok(took >= 390, `took ${took} ms`); // not before its timeout; the stand-in never answers, so only the timeout ends it
  });

  it('a closed port is ENDPOINT_DOWN', async () => {
    const probe = http.createServer();
    const port = await new Promise<number>((r) => probe.listen(0, '127.0.0.1', () => r((probe.address() as AddressInfo).port)));
    await new Promise((r) => probe.close(r));
    const ex = new EndpointExecutor(`http://127.0.0.1:${port}/sparql`);
    await assert.rejects(ex.ask('ASK { ?s ?p ?o }', { timeoutMs: 5000 }), code('ENDPOINT_DOWN'));
  });
});

describe('execute: parseNTriples (CONSTRUCT / DESCRIBE bodies of endpoints)', () => {
  it('IRIs, blank nodes, plain / language / typed literals with escapes', () => {
    const text = [
      '<http://ex.test/a> <http://ex.test/p> "say \\"hi\\"\\n\\u00e9t\\U0001F600" .',
      '_:b1 <http://ex.test/p> "chat"@fr .',
      '# a comment',
      '',
      '<http://ex.test/a> <http://ex.test/n> "7"^^<http://www.w3.org/2001/XMLSchema#integer> .',
      '<http://ex.test/a> <http://ex.test/s> "plain"^^<http://www.w3.org/2001/XMLSchema#string> .',
    ].join('\n');
    assert.deepEqual(parseNTriples(text), [
      { s: { type: 'uri', value: 'http://ex.test/a' }, p: { type: 'uri', value: 'http://ex.test/p' }, o: { type: 'literal', value: 'say "hi"\nét\u{1F600}' } },
      { s: { type: 'bnode', value: 'b1' }, p: { type: 'uri', value: 'http://ex.test/p' }, o: { type: 'literal', value: 'chat', lang: 'fr' } },
      { s: { type: 'uri', value: 'http://ex.test/a' }, p: { type: 'uri', value: 'http://ex.test/n' }, o: { type: 'literal', value: '7', datatype: 'http://www.w3.org/2001/XMLSchema#integer' } },
      { s: { type: 'uri', value: 'http://ex.test/a' }, p: { type: 'uri', value: 'http://ex.test/s' }, o: { type: 'literal', value: 'plain' } },
    ]);
  });
  it('a line cut short is an error, not fewer triples', () => {
    assert.throws(() => parseNTriples('<http://ex.test/a> <http://ex.test/p> <http://ex.test/b> .\n<http://ex.test/a> <http://ex.test/p> "cut'));
    assert.throws(() => parseNTriples('<http://ex.test/a> <http://ex.test/p> <http://ex.test/b>'));
  });
});
