import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { AskgraphError } from '../../../src/core';
import { analyseQuery, checkTokenDepth, DEFAULT_USER_QUERY_LIMITS, precheckQuery, QueryChecker } from '../../../src/execute';

const L = DEFAULT_USER_QUERY_LIMITS;
const code = (c: string) => (e: unknown) => e instanceof AskgraphError && e.code === c;

describe('execute: user query checks (precheck on the main thread, one parse in the checker)', () => {
  it('precheck: size in UTF-8 bytes and bracket depth; brackets in strings, IRIs and comments do not count', () => {
    assert.throws(() => precheckQuery('ASK {' + ' '.repeat(L.maxQueryBytes) + '}', L), code('QUERY_TOO_COMPLEX'));
    assert.throws(() => precheckQuery('SELECT * WHERE ' + '{'.repeat(L.maxDepth + 1) + '}'.repeat(L.maxDepth + 1), L), code('QUERY_TOO_COMPLEX'));
    precheckQuery('SELECT * WHERE ' + '{'.repeat(L.maxDepth) + '?s ?p ?o' + '}'.repeat(L.maxDepth), L);
    const deep = '{'.repeat(200);
    precheckQuery(`SELECT * WHERE { ?s ?p "${deep}" . ?s ?p '''${deep}''' . ?s ?p <http://x/${'('.repeat(5)}> } # ${deep}\n`, L);
    // < as an operator does not swallow the rest of the query
    assert.throws(() => precheckQuery('SELECT * WHERE { ?s ?p ?o FILTER(?o < 3) ' + '{'.repeat(L.maxDepth + 1), L), code('QUERY_TOO_COMPLEX'));
    // escaped quotes stay inside the string
    assert.throws(() => precheckQuery('SELECT * WHERE { ?s ?p "a\\"b" ' + '{'.repeat(L.maxDepth + 1), L), code('QUERY_TOO_COMPLEX'));
  });

  it('escapes cannot hide brackets: e:a\\# is a name, not a comment; a comment ends at \\r too (issue 22)', () => {
    const deep = (k: number) => '{'.repeat(k) + ' ?s ?p ?o ' + '}'.repeat(k);
    const hidden = [`?s ?p e:a\\# ${deep(L.maxDepth + 1)}`, `?s ?p e:a\\' ${deep(L.maxDepth + 1)} . ?s ?p e:b\\'`, `?s ?p ?o # note\r${deep(L.maxDepth + 1)}`];
    for (const h of hidden) {
      const q = `PREFIX e: <http://e/> SELECT * WHERE { ${h} }`;
      assert.throws(() => precheckQuery(q, L), code('QUERY_TOO_COMPLEX'), q.slice(0, 60));
      assert.throws(() => checkTokenDepth(q, L), code('QUERY_TOO_COMPLEX'), q.slice(0, 60));
      assert.throws(() => analyseQuery(q, L), code('QUERY_TOO_COMPLEX'), q.slice(0, 60));
    }
    // the same names at an allowed depth parse
    analyseQuery(`PREFIX e: <http://e/> SELECT * WHERE { ?s ?p e:a\\# . ?s ?p e:b\\' . ?s ?p e:c\\( ${deep(L.maxDepth - 2)} }`, L);
    // the token count agrees with the parser: brackets inside strings, IRIs, names and comments do not count
    checkTokenDepth(`PREFIX e: <http://e/> SELECT * WHERE { ?s ?p "${'{'.repeat(99)}" . ?s ?p e:a\\(\\(\\( . ?s ?p <http://x/${'('.repeat(99)}> } # ${'['.repeat(99)}`, L);
  });

  it('property: whatever valid terms (escaped names, strings, IRIs, comments) come before it, nesting past the limit is QUERY_TOO_COMPLEX', () => {
    const hider = fc.constantFrom(
      'e:a\\#', "e:a\\'", 'e:a\\%', 'e:a\\(', 'e:a\\)', 'e:a\\~', 'e:a\\.b', 'e:a%7B', 'e:a\\#\\(\\(',
      '"x\\"{"', "'it\\'s ('", '"""a""("""', "'''a''['''", '<http://x/#(>', '"\\u0028"', '?o # {\r', '?o # (\n', '[]', '"()"',
    );
    fc.assert(
      fc.property(fc.array(hider, { minLength: 1, maxLength: 6 }), fc.integer({ min: L.maxDepth + 1, max: L.maxDepth + 80 }), fc.constantFrom('{', '('), (hs, k, br) => {
        const terms = hs.map((h) => `?s ?p ${h} .`).join(' ');
        const nest = br === '{' ? '{'.repeat(k) + ' ?s ?p ?o ' + '}'.repeat(k) : 'FILTER(' + '('.repeat(k) + '?o' + ')'.repeat(k) + ')';
        const q = `PREFIX e: <http://e/> SELECT * WHERE { ${terms} ${nest} }`;
        assert.throws(() => analyseQuery(q, L), code('QUERY_TOO_COMPLEX'), q);
        // and the same query at an allowed depth is valid SPARQL (the hiders are real terms)
        const ok = br === '{' ? '{ ?s ?p ?o }' : 'FILTER((?o))';
        analyseQuery(`PREFIX e: <http://e/> SELECT * WHERE { ${terms} ${ok} }`, L);
      }),
      { numRuns: 200 },
    );
  });

  it('the row cap becomes a LIMIT: appended when there is none, rewritten when larger, kept when smaller', () => {
    const a = analyseQuery('SELECT * WHERE { ?s ?p ?o } # trailing comment', L);
    assert.equal(a.form, 'SELECT');
    assert.equal(a.capped, true);
    assert.match(a.run, new RegExp(`\\nLIMIT ${L.maxRows + 1}$`));
    const b = analyseQuery('SELECT * WHERE { ?s ?p ?o } LIMIT 99999999', L);
    assert.equal(b.capped, true);
    assert.match(b.run, new RegExp(`LIMIT ${L.maxRows + 1}`));
    assert.doesNotMatch(b.run, /99999999/);
    const c = analyseQuery('SELECT * WHERE { ?s ?p ?o } LIMIT 10', L);
    assert.equal(c.capped, false);
    assert.equal(c.run, 'SELECT * WHERE { ?s ?p ?o } LIMIT 10');
    // a trailing VALUES block: the LIMIT goes before it (the query is regenerated from its AST)
    const d = analyseQuery('SELECT * WHERE { ?s ?p ?o } VALUES ?s { <http://x/a> }', L);
    assert.match(d.run, /LIMIT \d+\s*VALUES/);
    const e = analyseQuery('ASK { ?s ?p ?o }', L);
    assert.equal(e.capped, false);
    const f = analyseQuery('CONSTRUCT WHERE { ?s ?p ?o }', L);
    assert.equal(f.form, 'CONSTRUCT');
    assert.equal(f.capped, true);
  });

  it('SERVICE anywhere, FROM / FROM NAMED, updates and the pattern count', () => {
    assert.equal(analyseQuery('SELECT * WHERE { ?s ?p ?o }', L).service, false);
    assert.equal(analyseQuery('SELECT * WHERE { { SELECT ?s WHERE { SERVICE <http://e/> { ?s ?p ?o } } } }', L).service, true);
    assert.equal(analyseQuery('SELECT * WHERE { OPTIONAL { SERVICE SILENT <http://e/> { ?s ?p ?o } } }', L).service, true);
    assert.deepEqual(analyseQuery('SELECT * FROM <http://g/1> FROM NAMED <http://g/2> WHERE { ?s ?p ?o }', L).dataset, { default: ['http://g/1'], named: ['http://g/2'] });
    assert.equal(analyseQuery('SELECT * WHERE { ?s ?p ?o }', L).dataset, undefined);
    assert.throws(() => analyseQuery('DELETE WHERE { ?s ?p ?o }', L), code('UPDATE_FORBIDDEN'));
    assert.throws(() => analyseQuery('SELECT WHERE {', L), code('SPARQL_SYNTAX'));
    const many = 'SELECT * WHERE { ' + Array.from({ length: L.maxPatterns + 1 }, (_, i) => `?v${i} ?p ?o .`).join(' ') + ' }';
    assert.throws(() => analyseQuery(many, L), code('QUERY_TOO_COMPLEX'));
    assert.ok(analyseQuery('SELECT * WHERE { ?a ?b ?c . ?d ?e ?f }', L).patterns >= 2);
  });

  it('QueryChecker: parses in a worker thread; a parse over its time budget is QUERY_TOO_COMPLEX and the checker goes on', async () => {
    const checker = new QueryChecker({ timeoutMs: 1, maxQueue: 4 });
    try {
      // 1 ms: a ~30 KB query cannot be parsed in time
      const big = 'SELECT * WHERE { ' + Array.from({ length: 900 }, (_, i) => `{ ?v${i} ?p ?o }`).join(' UNION ') + ' }';
      await assert.rejects(checker.check(big, { ...L, maxPatterns: 100_000 }), code('QUERY_TOO_COMPLEX'));
    } finally {
      await checker.close();
    }
    const ok = new QueryChecker({ timeoutMs: 5000, maxQueue: 4 });
    try {
      assert.equal((await ok.check('ASK { ?s ?p ?o }', L)).form, 'ASK');
      await assert.rejects(ok.check('SELECT WHERE {', L), code('SPARQL_SYNTAX'));
      await assert.rejects(ok.check('SELECT * WHERE ' + '{'.repeat(100) + '}'.repeat(100), L), code('QUERY_TOO_COMPLEX'));
      assert.equal((await ok.check('SELECT * WHERE { ?s ?p ?o }', L)).capped, true);
    } finally {
      await ok.close();
    }
  });
});
