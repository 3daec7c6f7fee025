/**
 * Form language v3 through the compiler and back: compileForm's SPARQL for the table productions ([31]–[38]), and
 * sparqlToForm reading the ways people write such queries (several projected variables with OPTIONAL, GROUP BY …
 * HAVING, ORDER BY DESC(COUNT(…)) LIMIT k, OFFSET, sub-selects, IF(… > …, true, false), regex / CONTAINS, ?a > ?b).
 */
import * as assert from 'node:assert/strict';
import { Parser } from 'sparqljs';
import { compileForm, sparqlToForm } from '../../../src/compile';
import { canonicalText, parseForm, printForm } from '../../../src/form';
import { AskgraphError } from '../../../src/core';
import { MOVIES_NAMESPACES } from '../../helpers/movies';

const P = 'PREFIX m: <http://askgraph.dev/movies/relation/>\nPREFIX e: <http://askgraph.dev/movies/entity/>\nPREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n';

function reads(sparql: string, form: string): void {
  const got = sparqlToForm(P + sparql, MOVIES_NAMESPACES);
  assert.equal(canonicalText(got), canonicalText(parseForm(form)), `read as ${printForm(got)}`);
}

function refused(sparql: string): string {
  try {
    sparqlToForm(P + sparql, MOVIES_NAMESPACES);
  } catch (e) {
    assert.ok(e instanceof AskgraphError && e.code === 'CONVERSION_UNSUPPORTED', String(e));
    return String((e.details as { reason?: string } | undefined)?.reason);
  }
  return assert.fail('converted');
}

describe('compile: form language v3 SPARQL', () => {
  const sparql = (f: string) => compileForm(parseForm(f), MOVIES_NAMESPACES);

  it('[31] TABLE: one OPTIONAL per column (a missing value is an unbound cell, not a dropped row), columns in order, kind table', () => {
    const c = sparql('(TABLE (JOIN directed_by [ X ]) release_year written_by)');
    assert.equal(c.kind, 'table');
    assert.equal(c.answerType, 'table');
    assert.deepEqual(c.columns?.map((x) => x.name), ['x', 'c1', 'c2']);
    assert.deepEqual(c.columns.map((x) => x.label), ['answer', 'release year', 'written by']);
    assert.equal(c.ordered, false);
    const q = new Parser().parse(c.sparql) as { where: { type: string }[]; variables: { value: string }[] };
    assert.equal(q.where.filter((p) => p.type === 'optional').length, 2);
    assert.deepEqual(q.variables.map((v) => v.value), ['x', 'c1', 'c2']);
  });

  it('[32]/[33] GROUP and HAVING: GROUP BY the key, the aggregate over distinct members, HAVING on the aggregate', () => {
    const c = sparql('(HAVING (GROUPCOUNT (HAS directed_by) directed_by) GT 10)');
    assert.match(c.sparql, /COUNT\(DISTINCT \?m\) AS \?n/);
    assert.match(c.sparql, /GROUP BY \?g/);
    assert.match(c.sparql, /HAVING \(\(COUNT\(DISTINCT \?m\)\) > 10 ?\)/);
    assert.deepEqual(c.columns?.map((x) => x.label), ['directed by', 'count']);
    const avg = sparql('(GROUPAVG (HAS has_genre) has_genre release_year)');
    assert.match(avg.sparql, /SELECT DISTINCT \?g \?m \?o0/, 'each (group, member, value) once');
    assert.deepEqual(avg.columns?.map((x) => x.label), ['has genre', 'average release year']);
  });

  it('[34]/[35] ORDER BY the value then the row key, LIMIT / OFFSET; the compiled query says it is ordered', () => {
    const c = sparql('(LIMIT 5 (OFFSET 5 (DESC (JOIN directed_by [ X ]) release_year)))');
    assert.equal(c.ordered, true);
    assert.match(c.sparql, /ORDER BY DESC \(\?k0\) \(\?x\)|ORDER BY DESC\(\?k0\) \?x/);
    assert.match(c.sparql, /OFFSET 5/);
    assert.match(c.sparql, /LIMIT 5/);
    assert.match(sparql('(OFFSET 2 (LIMIT 5 (ASC c)))').sparql, /LIMIT 3[\s\S]*OFFSET 2|OFFSET 2[\s\S]*LIMIT 3/);
    const g = sparql('(LIMIT 3 (DESC (GROUPCOUNT (JOIN starred_actors [ T ]) starred_actors)))');
    assert.match(g.sparql, /FILTER\(\?g != \?e0\)/, 'the topic is not its own co-star');
  });

  it('[36] attribute comparison and [38] CONTAINS: a FILTER on two values; a substring test, never a regular expression', () => {
    assert.match(sparql('(GT r1 r2)').sparql, /FILTER\(\(COALESCE\([\s\S]*\) > \(COALESCE/);
    const c = sparql('(CONTAINS [ a.*( ])');
    assert.match(c.sparql, /CONTAINS\(LCASE\(STR\(\?l0\)\), "a\.\*\("\)/);
    assert.doesNotMatch(c.sparql, /REGEX/i);
    assert.match(sparql('(CONTAINS [ ÉCOLE ])').sparql, /"école"/, 'the text is lower-cased once, here');
    // hostile text copied from a question stays one string literal: quotes, braces and a bracket escaped in the form
    const h = sparql('(CONTAINS [ x") } ; DROP ALL ; SELECT * { ?s ?p "\\] ])');
    assert.match(h.sparql, /CONTAINS\(LCASE\(STR\(\?l0\)\), "x\\"\) \} ; drop all ; select \* \{ \?s \?p \\"\]"\)/);
    assert.doesNotMatch(h.sparql, /DROP/);
  });

  it('[37] MORE / LESS: an ASK over two number sub-selects; refused as an operand', () => {
    const c = sparql('(MORE (COUNT (JOIN directed_by [ A ])) (AVG (JOIN (R release_year) [ B ])))');
    assert.equal(c.kind, 'ask');
    assert.equal(c.answerType, 'boolean');
    assert.match(c.sparql, /FILTER\(\?a > \?b\)/);
    assert.match(sparql('(LESS (COUNT a) (COUNT b))').sparql, /FILTER\(\?a < \?b\)/);
    assert.throws(() => sparql('(ASK (TABLE x r))'), /not well typed/);
  });
});

describe('sparqlToForm: tables as people write them', () => {
  it('several projected variables; OPTIONAL values are optional columns, required ones restrict the rows (HAS)', () => {
    reads('SELECT ?title ?year ?writer WHERE { ?f m:directed_by ?d . ?d rdfs:label "K" . ?f rdfs:label ?title . OPTIONAL { ?f m:release_year ?y . ?y rdfs:label ?year } OPTIONAL { ?f m:written_by ?w . ?w rdfs:label ?writer } }', '(TABLE (JOIN directed_by [ K ]) release_year written_by)');
    reads('SELECT ?film ?dir WHERE { ?film m:starred_actors e:A . ?film m:directed_by ?dir }', '(TABLE (AND (JOIN starred_actors e:A) (HAS directed_by)) directed_by)'.replace('e:A', '<http://askgraph.dev/movies/entity/A>'));
    reads('SELECT ?r (?a - ?b AS ?d) WHERE { ?r m:starred_actors e:A ; m:x ?a ; m:y ?b }', '(TABLE (AND (JOIN starred_actors <http://askgraph.dev/movies/entity/A>) (AND (HAS x) (HAS y))) (MINUS x y))');
  });

  it('GROUP BY with COUNT / AVG / MIN, HAVING (also a range as two tests), the key as a label', () => {
    reads('SELECT ?g (COUNT(?f) AS ?n) WHERE { ?f m:has_genre ?g } GROUP BY ?g', '(GROUPCOUNT (HAS has_genre) has_genre)');
    reads('SELECT ?d WHERE { ?f m:directed_by ?d } GROUP BY ?d HAVING(COUNT(?f) >= 15)', '(HAVING (GROUPCOUNT (HAS directed_by) directed_by) GE 15)');
    reads('SELECT ?d (COUNT(?f) AS ?n) WHERE { ?f m:directed_by ?d } GROUP BY ?d HAVING (COUNT(?f) >= 10 && COUNT(?f) <= 30)', '(HAVING (HAVING (GROUPCOUNT (HAS directed_by) directed_by) GE 10) LE 30)');
    reads('SELECT ?g (AVG(xsd:integer(?yl)) AS ?a) WHERE { ?f m:has_genre ?g ; m:release_year ?y . ?y rdfs:label ?yl } GROUP BY ?g', '(GROUPAVG (HAS has_genre) has_genre release_year)');
    reads('SELECT ?name (COUNT(?f) AS ?n) WHERE { ?f m:starred_actors ?a . ?a rdfs:label "T" . ?f m:directed_by ?d . ?d rdfs:label ?name } GROUP BY ?name', '(GROUPCOUNT (JOIN starred_actors [ T ]) directed_by)');
    assert.match(refused('SELECT ?d (COUNT(?f) AS ?n) (AVG(?y) AS ?a) WHERE { ?f m:directed_by ?d ; m:release_year ?y } GROUP BY ?d'), /several aggregates/);
  });

  it('ORDER BY DESC(COUNT(…)) LIMIT k, a sub-select with the filter / order outside, OFFSET', () => {
    reads('SELECT ?a (COUNT(?f) AS ?n) WHERE { ?t rdfs:label "T" . ?f m:starred_actors ?t , ?a . FILTER(?a != ?t) } GROUP BY ?a ORDER BY DESC(?n) LIMIT 3', '(LIMIT 3 (DESC (GROUPCOUNT (JOIN starred_actors [ T ]) starred_actors)))');
    reads('SELECT ?c WHERE { ?r m:in ?c } GROUP BY ?c ORDER BY DESC(COUNT(?r)) LIMIT 5', '(LIMIT 5 (DESC (GROUPCOUNT (HAS in) in)))');
    reads('SELECT ?l ?n WHERE { { SELECT ?l (COUNT(DISTINCT ?f) AS ?n) WHERE { ?f m:in_language ?l } GROUP BY ?l } FILTER(?n > 300) } ORDER BY DESC(?n) LIMIT 2', '(LIMIT 2 (DESC (HAVING (GROUPCOUNT (HAS in_language) in_language) GT 300)))');
    reads('SELECT ?f ?yl WHERE { ?f m:directed_by ?s . ?s rdfs:label "S" . ?f m:release_year ?y . ?y rdfs:label ?yl } ORDER BY DESC(?yl) LIMIT 5 OFFSET 4', '(LIMIT 5 (OFFSET 4 (DESC (JOIN directed_by [ S ]) release_year)))');
    reads('SELECT ?f WHERE { ?f m:directed_by e:A ; m:release_year ?y } ORDER BY xsd:integer(?y) LIMIT 2', '(LIMIT 2 (ASC (JOIN directed_by <http://askgraph.dev/movies/entity/A>) release_year))');
    reads('SELECT ?name ?food ?rating WHERE { ?r m:in e:C ; rdfs:label ?name ; m:food ?food ; m:rating ?rating } ORDER BY DESC(?rating) LIMIT 4', '(LIMIT 4 (DESC (TABLE (AND (JOIN in <http://askgraph.dev/movies/entity/C>) (AND (HAS food) (HAS rating))) food rating)))');
    assert.match(refused('SELECT ?f WHERE { ?f m:directed_by e:A } LIMIT 3'), /LIMIT/);
    // LIMIT 1 on the key alone stays the group-count superlative (ties kept)
    reads('SELECT ?d WHERE { VALUES ?d { e:A e:B } ?f m:directed_by ?d } GROUP BY ?d ORDER BY DESC(COUNT(?f)) LIMIT 1', '(ARGMAXCOUNT (OR <http://askgraph.dev/movies/entity/A> <http://askgraph.dev/movies/entity/B>) (R directed_by))');
  });

  it('two numbers compared: ASK with a FILTER, SELECT (IF(…, true, false) AS ?r), BIND(IF(…))', () => {
    const side = (v: string, name: string) => `{ SELECT (COUNT(?f${v}) AS ?${v}) WHERE { ?f${v} m:directed_by ?d${v} . ?d${v} rdfs:label "${name}" } }`;
    reads(`ASK { ${side('a', 'A')} ${side('b', 'B')} FILTER(?a > ?b) }`, '(MORE (COUNT (JOIN directed_by [ A ])) (COUNT (JOIN directed_by [ B ])))');
    reads(`SELECT (IF(?a < ?b, true, false) AS ?r) WHERE { ${side('a', 'A')} ${side('b', 'B')} }`, '(LESS (COUNT (JOIN directed_by [ A ])) (COUNT (JOIN directed_by [ B ])))');
    reads(`SELECT ?r WHERE { ${side('a', 'A')} ${side('b', 'B')} BIND(IF(?a > ?b, true, false) AS ?r) }`, '(MORE (COUNT (JOIN directed_by [ A ])) (COUNT (JOIN directed_by [ B ])))');
    assert.match(refused(`ASK { ${side('a', 'A')} ${side('b', 'B')} FILTER(?a >= ?b) }`), />= \/ <=/);
  });

  it('text containment: CONTAINS(LCASE(…)), regex(str(…), "…", "i") of a plain text; a real pattern is refused', () => {
    reads('SELECT ?f WHERE { ?f m:directed_by e:A ; rdfs:label ?t FILTER(CONTAINS(LCASE(?t), "war")) }', '(AND (JOIN directed_by <http://askgraph.dev/movies/entity/A>) (CONTAINS [ war ]))');
    reads('SELECT ?f WHERE { ?f m:directed_by e:A ; rdfs:label ?t FILTER regex(str(?t), "st\\\\.", "i") }', '(AND (JOIN directed_by <http://askgraph.dev/movies/entity/A>) (CONTAINS [ st. ]))');
    reads('SELECT ?r WHERE { ?r m:in e:C ; m:street ?s FILTER regex(?s, "main", "i") }', '(AND (JOIN in <http://askgraph.dev/movies/entity/C>) (CONTAINS street [ main ]))');
    assert.match(refused('SELECT ?f WHERE { ?f m:directed_by e:A ; rdfs:label ?t FILTER regex(?t, "^the", "i") }'), /string matching/);
    assert.match(refused('SELECT ?f WHERE { ?f m:directed_by e:A ; rdfs:label ?t FILTER regex(?t, "a.*b") }'), /string matching/);
    // the form writes the text as a trimmed span of the question: spaces at its ends cannot be said
    assert.throws(() => sparqlToForm(P + 'SELECT ?f WHERE { ?f m:directed_by e:A ; rdfs:label ?t FILTER(CONTAINS(LCASE(?t), " war")) }', MOVIES_NAMESPACES), (e: unknown) => e instanceof AskgraphError && e.code === 'CONVERSION_UNSUPPORTED' && e.message.includes('spaces at its start or end'));
  });

  it('FILTER(?a > ?b) on two values of one node is an attribute comparison; of two nodes it is refused', () => {
    reads('SELECT ?r WHERE { ?r m:in e:C ; m:rating ?a ; m:number ?b FILTER(?a > ?b) }', '(AND (JOIN in <http://askgraph.dev/movies/entity/C>) (GT rating number))');
    // through a plain hop the second value is still the row's own: (GT rating (JOIN in number))
    reads('SELECT ?r WHERE { ?r m:in ?c ; m:rating ?a . ?c m:number ?b FILTER(?a > ?b) }', '(GT rating (JOIN in number))');
    assert.match(refused('SELECT ?r WHERE { ?r m:in ?c ; m:rating ?a . ?c m:number ?b ; rdfs:label "X" FILTER(?a > ?b) }'), /two variables/);
  });

  it('reads back every table shape compileForm writes', () => {
    for (const f of [
      '(TABLE (JOIN directed_by [ K ]) release_year (MINUS a b) written_by)',
      '(LIMIT 2 (DESC (TABLE (JOIN directed_by [ X ]) written_by release_year)))',
      '(DESC (HAVING (GROUPSUM (JOIN in [ c ]) food rating) GE 3))',
      '(GROUPMAX (JOIN in [ X ]) food rating)',
      '(ASC (JOIN directed_by [ X ]))',
      '(LESS (COUNT [ A ]) (AVG (JOIN (R rating) [ B ])))',
      '(AND c (CONTAINS street [ a.*( ]))',
      '(CONTAINS [ x\\] "y" ])',
    ]) {
      const back = sparqlToForm(compileForm(parseForm(f), MOVIES_NAMESPACES).sparql, MOVIES_NAMESPACES);
      assert.equal(canonicalText(back), canonicalText(parseForm(f)));
    }
  });
});
