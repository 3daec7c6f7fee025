import * as assert from 'node:assert/strict';
import { AskgraphError, variable } from '../../../src/core';
import { checkIri, countAll, generateSparql, isSafeIri } from '../../../src/sparql';

describe('sparql: the one IRI check and the shared AST pieces', () => {
  it('isSafeIri: a scheme and none of the characters IRIREF forbids', () => {
    for (const ok of ['http://example.org/a', 'urn:x:1', 'https://ex.org/a%20b#c', 'mailto:someone@example.org', 'x-y.z+w:rest']) assert.ok(isSafeIri(ok), ok);
    for (const bad of ['', 'example.org/a', '1http://x', 'http://ex.org/a b', 'http://ex.org/a>b', 'http://ex.org/"', 'http://ex.org/{x}', 'http://ex.org/a|b', 'http://ex.org/a^b', 'http://ex.org/`', 'http://ex.org/a\\b', 'http://ex.org/\n']) {
      assert.ok(!isSafeIri(bad), JSON.stringify(bad));
    }
  });

  it('checkIri returns a safe IRI and refuses another with BAD_REQUEST', () => {
    assert.equal(checkIri('http://example.org/a'), 'http://example.org/a');
    assert.throws(
      () => checkIri('http://ex.org/a> . ?s ?p ?o <x'),
      (e: unknown) => e instanceof AskgraphError && e.code === 'BAD_REQUEST' && e.message.includes('not an absolute IRI'),
    );
  });

  it('countAll is (COUNT(*) AS ?name)', () => {
    const text = generateSparql({ type: 'query', queryType: 'SELECT', prefixes: {}, variables: [countAll('n')], where: [{ type: 'bgp', triples: [{ subject: variable('s'), predicate: variable('p'), object: variable('o') }] }] });
    assert.match(text, /SELECT \(COUNT\(\*\) AS \?n\) WHERE \{ \?s \?p \?o\. \}/);
  });
});
