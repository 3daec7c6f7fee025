import { strict as assert } from 'node:assert';
import { Parser } from 'sparqljs';
import { cli } from '../../helpers/cli';


describe('compile: askgraph compile (CLI in-process)', () => {
  it('prints the SPARQL of a form, with the default vocabulary namespace, no store needed', async () => {
    const r = await cli(['compile', '(JOIN (R directed_by) [ Forrest Gump ])']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /<http:\/\/askgraph\.dev\/movies\/relation\/directed_by>/);
    assert.match(r.out, /FILTER\(\?x != \?e0\)/);
    assert.equal(new Parser().parse(r.out).type, 'query');
  });

  it('--json prints {sparql, kind, answerVar, topicEntities}', async () => {
    const r = await cli(['compile', '(COUNT (JOIN r m.0abc))', '--json', '--ns', 'http://ex.org/v/', '--entity-ns', 'http://ex.org/e/']);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.equal(j.kind, 'count');
    assert.equal(j.answerVar, 'count');
    assert.deepEqual(j.topicEntities, ['http://ex.org/e/m.0abc']);
    assert.match(j.sparql, /\?x <http:\/\/ex\.org\/v\/r> <http:\/\/ex\.org\/e\/m\.0abc>/);
  });

  it('--label-predicate (several), --label-language and --no-exclude-topic', async () => {
    const r = await cli(['compile', '(JOIN r [ a ])', '--label-predicate', 'http://p/1', 'http://p/2', '--label-language', 'de', '--no-exclude-topic']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /<http:\/\/p\/1>\s+<http:\/\/p\/2>/);
    assert.match(r.out, /"a"@de/);
    assert.doesNotMatch(r.out, /"a"@en/);
    assert.doesNotMatch(r.out, /FILTER/);
  });

  it('a bad form: exit ≠ 0, one line FORM_SYNTAX on stderr; --json prints {error}', async () => {
    const r = await cli(['compile', '(JOIN r [ a )']);
    assert.notEqual(r.code, 0);
    assert.match(r.err, /^askgraph: FORM_SYNTAX: /);
    assert.equal(r.err.trim().split('\n').length, 1);
    const j = await cli(['compile', '(JOIN r [ a )', '--json']);
    assert.equal(JSON.parse(j.out).error.code, 'FORM_SYNTAX');
  });

  it('a bad --ns is a BAD_REQUEST', async () => {
    const r = await cli(['compile', '(JOIN r [ a ])', '--ns', 'not an iri']);
    assert.notEqual(r.code, 0);
    assert.match(r.err, /BAD_REQUEST/);
  });
});
