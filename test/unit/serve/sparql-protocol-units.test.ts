import { strict as assert } from 'node:assert';
import { gzipSync } from 'node:zlib';
import express from 'express';
import { AskgraphError, type Answer, type Triple } from '../../../src/core';
import { failureOf } from '../../../src/pipeline';
import { redactPaths, toHttpError } from '../../../src/serve/http-errors';
import { mediaForFormat, triplesToJsonLd, triplesToRdfXml } from '../../../src/serve/sparql-results';

const uri = (value: string) => ({ type: 'uri' as const, value });
const T: Triple[] = [
  { s: uri('http://x/a'), p: uri('http://x/rel/name'), o: { type: 'literal', value: 'A & <b>', lang: 'en' } },
  { s: uri('http://x/a'), p: uri('http://x/rel/has%20genre'), o: uri('http://x/b?c=1&d=2') },
  { s: { type: 'bnode', value: 'n1' }, p: uri('http://x/rel/n'), o: { type: 'literal', value: '3', datatype: 'http://www.w3.org/2001/XMLSchema#integer' } },
];

function answer(trace: Answer['trace'], answers: Answer['answers'] = []): Answer {
  return { question: 'q', answers, form: null, groundedForm: null, sparql: null, source: 'none', confidence: 0, beam: [], trace, timings: { generate: 0, ground: 0, execute: 0, fallback: 0, total: 0 } };
}

describe('serve: SPARQL protocol units', () => {
  it('RDF/XML: subjects grouped, QNames split at the NCName suffix, text escaped; an unsplittable predicate is 406', () => {
    const x = triplesToRdfXml(T);
    assert.match(x, /<rdf:Description rdf:about="http:\/\/x\/a">/);
    assert.match(x, /<p:name xmlns:p="http:\/\/x\/rel\/" xml:lang="en">A &amp; &lt;b&gt;<\/p:name>/);
    assert.match(x, /<p:genre xmlns:p="http:\/\/x\/rel\/has%20" rdf:resource="http:\/\/x\/b\?c=1&amp;d=2"\/>/);
    assert.match(x, /rdf:nodeID="bn1"/);
    assert.match(x, /rdf:datatype="http:\/\/www.w3.org\/2001\/XMLSchema#integer">3</);
    assert.throws(() => triplesToRdfXml([{ s: uri('http://x/a'), p: uri('http://x/rel/123'), o: uri('http://x/b') }]), (e: unknown) => e instanceof AskgraphError && e.code === 'NOT_ACCEPTABLE');
    assert.throws(() => triplesToRdfXml([{ s: uri('http://x/a'), p: uri('http://x/p'), o: { type: 'literal', value: 'bell \u0007' } }]), (e: unknown) => e instanceof AskgraphError && e.code === 'NOT_ACCEPTABLE');
  });

  it('JSON-LD: expanded node objects with @id, @value, @language, @type', () => {
    const j = JSON.parse(triplesToJsonLd(T));
    assert.equal(j.length, 2);
    assert.deepEqual(j[0]['http://x/rel/name'], [{ '@value': 'A & <b>', '@language': 'en' }]);
    assert.deepEqual(j[0]['http://x/rel/has%20genre'], [{ '@id': 'http://x/b?c=1&d=2' }]);
    assert.equal(j[1]['@id'], '_:bn1');
  });

  it('format names by result kind: "xml" and "json" mean SPARQL results for SELECT / ASK, RDF/XML and JSON-LD for graphs', () => {
    assert.equal(mediaForFormat('xml', 'select'), 'application/sparql-results+xml');
    assert.equal(mediaForFormat('XML', 'graph'), 'application/rdf+xml');
    assert.equal(mediaForFormat('json', 'ask'), 'application/sparql-results+json');
    assert.equal(mediaForFormat('json', 'graph'), 'application/ld+json');
    assert.equal(mediaForFormat('turtle', 'graph'), 'text/turtle');
    assert.equal(mediaForFormat('csv', 'graph'), undefined);
    assert.equal(mediaForFormat('text/csv', 'select'), 'text/csv');
    assert.equal(mediaForFormat('nonsense', 'select'), undefined);
  });

  it('redactPaths: absolute paths keep their last segment; URLs and IRIs stay', () => {
    assert.equal(redactPaths('oxigraph:/srv/data/movies+model-1'), 'oxigraph:movies+model-1');
    assert.equal(redactPaths('cannot open /home/u/x.nq (ENOENT)'), 'cannot open x.nq (ENOENT)');
    assert.equal(redactPaths('sparql:http://host:8890/sparql'), 'sparql:http://host:8890/sparql');
    assert.equal(redactPaths('<http://askgraph.dev/movies/entity/Heat>'), '<http://askgraph.dev/movies/entity/Heat>');
  });

  it('a body that is not what its Content-Encoding says is 400, an unknown encoding 415 (body-parser errors)', async () => {
    const app = express();
    app.post('/x', express.json(), (_req, res) => {
      res.json({ ok: true });
    });
    app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      const h = toHttpError(err);
      res.status(h.status).json(h.body);
    });
    const srv = app.listen(0, '127.0.0.1');
    await new Promise((r) => srv.once('listening', r));
    const url = `http://127.0.0.1:${(srv.address() as { port: number }).port}/x`;
    try {
      const bad = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: '{"a":1}' });
      assert.equal(bad.status, 400);
      assert.equal((await bad.json()).error.code, 'BAD_REQUEST');
      const unknown = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'x-zip' }, body: '{"a":1}' });
      assert.equal(unknown.status, 415);
      const good = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync('{"a":1}') });
      assert.equal(good.status, 200);
    } finally {
      srv.close();
    }
  });

  it('failureOf: no answers + a timed-out or failed step is an error with its status; an honest empty result is not', () => {
    const t = failureOf(answer([{ stage: 'execute', outcome: 'timeout', error: { code: 'QUERY_TIMEOUT', message: 'x' }, timeMs: 3000 }]));
    assert.equal(t?.code, 'QUERY_TIMEOUT');
    assert.equal(t.status, 504);
    assert.equal((t.details?.trace as unknown[]).length, 1);
    assert.equal(failureOf(answer([{ stage: 'ground', outcome: 'error', error: { code: 'STORE_UNAVAILABLE', message: 'down' }, timeMs: 1 }]))?.status, 503);
    assert.equal(failureOf(answer([{ stage: 'execute', outcome: 'error', error: { code: 'ENDPOINT_DOWN', message: 'down' }, timeMs: 1 }]))?.status, 502);
    assert.equal(failureOf(answer([{ stage: 'execute', outcome: 'skipped', note: 'time budget spent', timeMs: 0 }]))?.code, 'QUERY_TIMEOUT');
    // an empty result, a compile error of one candidate, a fallback reader that spent its exploration budget: "no answer"
    assert.equal(failureOf(answer([{ stage: 'execute', outcome: 'empty', timeMs: 1 }])), undefined);
    assert.equal(failureOf(answer([{ stage: 'execute', outcome: 'error', error: { code: 'UNSUPPORTED', message: 'op' }, timeMs: 1 }])), undefined);
    assert.equal(failureOf(answer([{ stage: 'fallback', outcome: 'timeout', timeMs: 1 }])), undefined);
    // answers win over failed steps
    assert.equal(failureOf(answer([{ stage: 'execute', outcome: 'timeout', timeMs: 1 }], [{ value: 'x', label: 'x', type: 'uri' }])), undefined);
  });
});
