import * as assert from 'node:assert/strict';
import { assertReadOnly, parseSparql, queryKind } from '../../../src/sparql';
import { AskgraphError } from '../../../src/core';

function codeOf(fn: () => unknown): AskgraphError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof AskgraphError, String(e));
    return e;
  }
  assert.fail('expected an error');
}

describe('compile: parseSparql / assertReadOnly / queryKind', () => {
  it('parses a query', () => {
    const q = parseSparql('SELECT ?s WHERE { ?s ?p ?o }');
    assert.equal(q.type, 'query');
  });

  it('syntax errors: SPARQL_SYNTAX with line and column', () => {
    const e = codeOf(() => parseSparql('SELECT ?s WHERE {\n  ?s ?p ?o .\n  FILTER( }'));
    assert.equal(e.code, 'SPARQL_SYNTAX');
    assert.equal(e.details?.line, 3);
    assert.equal(e.details.column, 11);
    assert.match(e.message, /line 3, column 11/);
    assert.equal(e.message.includes('\n'), false, 'one-line message');
  });

  it('empty input is a syntax error', () => {
    assert.equal(codeOf(() => parseSparql('  ')).code, 'SPARQL_SYNTAX');
  });

  it('undeclared xsd: is an error unless implicit prefixes are asked for (CWQ data)', () => {
    const text = 'SELECT ?x WHERE { ?x <http://p> ?v } ORDER BY xsd:integer(?v)';
    assert.equal(codeOf(() => parseSparql(text)).code, 'SPARQL_SYNTAX');
    assert.equal(parseSparql(text, { implicitPrefixes: true }).type, 'query');
  });

  const updates = [
    'INSERT DATA { <http://a> <http://b> <http://c> }',
    'DELETE DATA { <http://a> <http://b> <http://c> }',
    'DELETE WHERE { ?s ?p ?o }',
    'DELETE { ?s ?p ?o } INSERT { ?s ?p 1 } WHERE { ?s ?p ?o }',
    'WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }',
    'LOAD <http://example.org/data.ttl>',
    'LOAD SILENT <http://example.org/data.ttl> INTO GRAPH <http://g>',
    'CLEAR ALL',
    'CLEAR DEFAULT',
    'CLEAR GRAPH <http://g>',
    'DROP ALL',
    'DROP SILENT GRAPH <http://g>',
    'CREATE GRAPH <http://g>',
    'ADD <http://a> TO <http://b>',
    'MOVE <http://a> TO <http://b>',
    'COPY DEFAULT TO <http://b>',
    'PREFIX : <http://x/> INSERT DATA { :a :b :c } ; DROP ALL',
  ];
  for (const u of updates) {
    it(`assertReadOnly refuses: ${u}`, () => {
      const e = codeOf(() => assertReadOnly(u));
      assert.equal(e.code, 'UPDATE_FORBIDDEN');
      assert.equal(e.status, 403);
      assert.equal(queryKind(u), 'update');
    });
  }

  it('assertReadOnly accepts SELECT / ASK / CONSTRUCT / DESCRIBE and reports their kind', () => {
    const cases: [string, string][] = [
      ['SELECT * WHERE { ?s ?p ?o }', 'select'],
      ['ASK { ?s ?p ?o }', 'ask'],
      ['CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }', 'construct'],
      ['DESCRIBE <http://a>', 'describe'],
    ];
    for (const [q, kind] of cases) {
      assertReadOnly(q);
      assert.equal(queryKind(q), kind);
    }
  });

  it('a query with "DROP ALL" inside a string literal is still a query', () => {
    assertReadOnly('SELECT ?s WHERE { ?s ?p "DROP ALL" }');
  });

  it('assertReadOnly on garbage is a syntax error, not a pass', () => {
    assert.equal(codeOf(() => assertReadOnly('DROP EVERYTHING NOW')).code, 'SPARQL_SYNTAX');
  });
});
