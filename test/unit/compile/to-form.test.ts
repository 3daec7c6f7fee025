import * as assert from 'node:assert/strict';
import { compileForm, sparqlToForm } from '../../../src/compile';
import fc from 'fast-check';
import { formsEqual, parseForm, printForm, printRelation } from '../../../src/form';
import { AskgraphError, XSD, type Form, type Relation } from '../../../src/core';
import { CWQ, GRAILQA } from './data-samples';
import { MOVIES_NAMESPACES } from '../../helpers/movies';

const FB = 'http://rdf.freebase.com/ns/';
const FB_OPTS = { vocabularyNamespace: FB, entityNamespace: FB };

function unsupportedReason(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof AskgraphError, String(e));
    assert.equal(e.code, 'CONVERSION_UNSUPPORTED');
    return String(e.details?.reason);
  }
  return assert.fail('expected CONVERSION_UNSUPPORTED');
}

describe('compile: sparqlToForm', () => {
  describe('GrailQA dev queries → their s_expression', () => {
    for (const { sExpression, sparql } of GRAILQA) {
      it(sExpression, () => {
        // GrailQA types every node in SPARQL but only the answer in s_expression: compare with innerClasses 'drop'.
        const form = sparqlToForm(sparql, { ...FB_OPTS, innerClasses: 'drop' });
        const gold = parseForm(sExpression);
        const tzless = (t: string) => t.replace(/"(\d{4}-\d{2}-\d{2})-08:00"\^\^<http:\/\/www.w3.org\/2001\/XMLSchema#date>/, '$1');
        assert.equal(tzless(printForm(form)) === printForm(gold) || formsEqual(form, gold) || formsEqual(parseForm(tzless(printForm(form))), gold), true, `${printForm(form)}\n!= ${sExpression}`);
      });
    }

    it('keeps intermediate class constraints by default (innerClasses keep)', () => {
      const cvg = GRAILQA.find((g) => g.sExpression.includes('cvg.musical_game_song'))!;
      assert.match(printForm(sparqlToForm(cvg.sparql, FB_OPTS)), /\(AND cvg\.musical_game_song_relationship /);
    });

    it('COUNT wrapper → (COUNT …)', () => {
      const count = GRAILQA.find((g) => g.sExpression.startsWith('(COUNT'))!;
      assert.equal(sparqlToForm(count.sparql, FB_OPTS).kind, 'count');
    });
  });

  describe('CWQ queries', () => {
    const cases: [string, string][] = [
      ['composition', '(JOIN (R location.country.form_of_government) (JOIN location.country.administrative_divisions m.01vz6b))'],
      ['superlative', '(ARGMAX (JOIN (R sports.sports_team.championships) (JOIN sports.sports_team.team_mascot m.03_dwn)) time.event.start_date)'],
      [
        'superlative-chain',
        '(ARGMIN (AND (JOIN (R education.education.institution) (JOIN (R people.person.education) m.030bdd)) (JOIN common.topic.notable_types m.01y2hnl)) (JOIN education.university.number_of_postgraduates measurement_unit.dated_integer.number))',
      ],
      [
        'tc',
        '(JOIN (R government.government_position_held.office_holder) (TC (AND (JOIN (R government.governmental_jurisdiction.governing_officials) (JOIN location.country.national_anthem (JOIN government.national_anthem_of_a_country.anthem m.0gg95zf))) (JOIN government.government_position_held.office_position_or_title m.0j5wjnc)) government.government_position_held.from 2015-08-10))',
      ],
      [
        'tc-and-compare',
        '(AND (JOIN (R government.government_position_held.office_holder) (TC (AND (JOIN (R government.governmental_jurisdiction.governing_officials) m.0vmt) (JOIN government.government_position_held.basic_title m.0fkvn)) government.government_position_held.from 2009)) (LT (JOIN government.politician.government_positions_held government.government_position_held.from) "1998"^^<http://www.w3.org/2001/XMLSchema#dateTime>))',
      ],
    ];
    for (const [name, expected] of cases) {
      it(name, () => {
        const form = sparqlToForm(CWQ[name]!, FB_OPTS);
        assert.ok(formsEqual(form, parseForm(expected)), printForm(form));
      });
    }

    it('UNION of two paths → OR', () => {
      const form = sparqlToForm(CWQ.union!, FB_OPTS);
      assert.equal(form.kind, 'and', printForm(form));
      assert.match(printForm(form), /^\(AND \(OR \(JOIN \(R location\.imports_and_exports\.exported_to\)/);
    });

    const refused: [string, RegExp][] = [
      ['var-var', /two variables/],
      ['str-equality', /equality filter/],
    ];
    for (const [name, reason] of refused) {
      it(`refuses ${name} with the reason`, () => {
        assert.match(unsupportedReason(() => sparqlToForm(CWQ[name]!, FB_OPTS)), reason);
      });
    }
  });

  describe('QALD-style (DBpedia) queries: IRIs outside the namespaces stay IRIs', () => {
    it('class IRI + relation IRI + resource IRI', () => {
      const q = `PREFIX dbo: <http://dbpedia.org/ontology/> PREFIX res: <http://dbpedia.org/resource/>
        PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
        SELECT DISTINCT ?uri WHERE { ?uri rdf:type dbo:Book . ?uri dbo:author res:Danielle_Steel . }`;
      const form = sparqlToForm(q, MOVIES_NAMESPACES);
      assert.deepEqual(form, {
        kind: 'and',
        args: [
          { kind: 'class', ref: { kind: 'iri', iri: 'http://dbpedia.org/ontology/Book' } },
          { kind: 'join', relation: { kind: 'rel', ref: { kind: 'iri', iri: 'http://dbpedia.org/ontology/author' } }, arg: { kind: 'entity', ref: { kind: 'iri', iri: 'http://dbpedia.org/resource/Danielle_Steel' } } },
        ],
      });
      // The AST compiles back to the class constraint (printing a class IRI is a grammar gap of grammar/logical-form.ebnf).
      assert.match(compileForm(form, MOVIES_NAMESPACES).sparql, /\?x <http:\/\/www\.w3\.org\/1999\/02\/22-rdf-syntax-ns#type> <http:\/\/dbpedia\.org\/ontology\/Book>/);
    });

    it('COUNT(DISTINCT ?uri) with a label match becomes (COUNT … [ label ])', () => {
      const q = `SELECT (COUNT(DISTINCT ?uri) AS ?c) WHERE { ?uri <http://dbpedia.org/ontology/starring> ?a . ?a <http://www.w3.org/2000/01/rdf-schema#label> "Tom Hanks"@en }`;
      assert.equal(printForm(sparqlToForm(q, MOVIES_NAMESPACES)), '(COUNT (JOIN <http://dbpedia.org/ontology/starring> [ Tom Hanks ]))');
    });
  });

  describe('unsupported shapes are reported, not guessed', () => {
    const P = 'PREFIX : <http://ex.org/> ';
    const refused: [string, RegExp][] = [
      ['ASK { ?s ?p ?o }', /variable predicate/],
      ['CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }', /not a SELECT or ASK/],
      ['SELECT ?a ?b WHERE { ?a :p ?b . ?b :q ?a }', /cycle|not connected|not a value/], // (two projected variables are a table now: form language v3)
      ['SELECT * WHERE { ?a :p ?b }', /SELECT \*/],
      ['SELECT ?x WHERE { ?x :p ?y . OPTIONAL { ?y :q ?z } }', /OPTIONAL/],
      ['SELECT ?x WHERE { ?x :p :a } LIMIT 5', /LIMIT without ORDER BY/],
      ['SELECT ?x WHERE { ?x :p ?v } LIMIT 3', /LIMIT/], // (ORDER BY … LIMIT k is a window now: form language v3)
      ['SELECT ?x WHERE { ?x :p :a . ?y :q :b }', /not connected/],
      ['SELECT ?x WHERE { ?x :p ?y . ?y :q ?x }', /cycle/],
      ['SELECT ?x WHERE { ?x ?p :a }', /variable predicate/],
      ['SELECT ?x WHERE { ?x :p* :a }', /property path/],
      ['SELECT ?x WHERE { ?x :p ?c . ?c :s :a . ?x :q ?v . ?c :r ?w . FILTER(?v > ?w) }', /two variables/], // (on one node it is [36])
      ['SELECT ?x WHERE { ?x :p :a { ?x :q :b } UNION { ?y :q :c } }', /UNION that does not share/],
      ['SELECT ((?a - ?b) AS ?d) WHERE { ?x :p ?a . ?x :q ?b }', /arithmetic projection/],
      ['SELECT ?x WHERE { ?z :p :a . FILTER(?x != :a) }', /unconstrained variable|not connected/],
      ['SELECT ?x WHERE { ?x :p :a . FILTER regex(str(?x), "a") }', /string matching|not a value of the answer tree/],
      ['SELECT ?x WHERE { ?x :p :a ; :q ?t . FILTER regex(str(?t), "^a") }', /string matching/],
      ['SELECT ?x WHERE { ?x :p ?v . ?v :q :b . FILTER(?v > 3) }', /not a value of the answer tree/],
      ['SELECT (COUNT(?x) AS ?n) WHERE { ?x :p :a } GROUP BY ?x', /GROUP BY|group key/],
      ['SELECT (SUM(STRLEN(?x)) AS ?n) WHERE { ?x :p :a }', /aggregate of an expression/],
      ['DELETE WHERE { ?s ?p ?o }', /not a query/],
    ];
    for (const [q, reason] of refused) {
      it(q, () => assert.match(unsupportedReason(() => sparqlToForm(P + q, MOVIES_NAMESPACES)), reason));
    }

    it('without a namespace IRIs stay IRIs (no graph is assumed); with the pack\'s they become bare names', () => {
      const q = 'SELECT ?x WHERE { ?x <http://askgraph.dev/movies/relation/directed_by> <http://askgraph.dev/movies/entity/Heat> }';
      assert.equal(printForm(sparqlToForm(q)), '(JOIN <http://askgraph.dev/movies/relation/directed_by> <http://askgraph.dev/movies/entity/Heat>)');
      assert.equal(printForm(sparqlToForm(q, MOVIES_NAMESPACES)), '(JOIN directed_by <http://askgraph.dev/movies/entity/Heat>)');
    });

    it('syntax errors stay SPARQL_SYNTAX', () => {
      assert.throws(
        () => sparqlToForm('SELECT ?x WHERE {', MOVIES_NAMESPACES),
        (e: unknown) => e instanceof AskgraphError && e.code === 'SPARQL_SYNTAX',
      );
    });
  });

  describe('round trip: sparqlToForm(compileForm(f)) equals f (movies namespaces)', () => {
    const forms = [
      '(JOIN (R directed_by) [ Forrest Gump ])',
      '(JOIN directed_by [ Robert Zemeckis ])',
      '(JOIN (R directed_by) (JOIN starred_actors [ Tom Hanks ]))',
      '(AND (JOIN directed_by [ Robert Zemeckis ]) (JOIN starred_actors [ Tom Hanks ]))',
      '(COUNT (JOIN (R directed_by) (JOIN starred_actors [ Tom Hanks ])))',
      '(ARGMAX (JOIN starred_actors [ Tom Hanks ]) release_year)',
      '(ARGMIN (JOIN (R directed_by) (JOIN starred_actors [ Tom Hanks ])) (JOIN (R directed_by) release_year))',
      '(AND (JOIN starred_actors [ Tom Hanks ]) (GT release_year 1995))',
      '(AND (JOIN starred_actors [ Tom Hanks ]) (AND (GE release_year 1990) (LE release_year 1999)))',
      '(LT in_theaters_from 1994-01-01)',
      '(TC (JOIN starred_actors [ Tom Hanks ]) in_theaters_from 1994-08-01)',
      '(TC (JOIN starred_actors [ Tom Hanks ]) in_theaters_from 1995)',
      '(JOIN (R directed_by) <http://askgraph.dev/movies/entity/Forrest%20Gump>)',
      '(JOIN release_year 1988)',
      '(JOIN (R directed_by) [ Bob "x" } ; DROP ALL ])',
    ];
    for (const f of forms) {
      it(f, () => {
        const form = parseForm(f);
        const back = sparqlToForm(compileForm(form, MOVIES_NAMESPACES).sparql, MOVIES_NAMESPACES);
        assert.ok(formsEqual(back, form), printForm(back));
      });
    }

    it('with Freebase namespaces, classes and ids', () => {
      const f = parseForm('(AND theater.play (JOIN theater.play.productions m.0yrlqjm))');
      const sparql = compileForm(f, { ...FB_OPTS, typePredicate: FB + 'type.object.type' }).sparql;
      assert.ok(formsEqual(sparqlToForm(sparql, FB_OPTS), f));
    });
  });

  describe('form language v2', () => {
    const roundTrips = [
      '(ASK (AND [ Jaws ] (JOIN directed_by [ Steven Spielberg ])))',
      '(ASK (AND <http://askgraph.dev/movies/entity/Jaws> (JOIN directed_by [ Steven Spielberg ])))',
      '(ASK (JOIN (R directed_by) [ Jaws ]))',
      '(ARGMIN (OR [ Heat ] [ Casino ]) release_year)',
      '(ARGMAX (OR <http://e/Heat> <http://e/Casino>) release_year)',
      '(AND (JOIN starred_actors [ Tom Hanks ]) (AND (GE release_year 1990) (LT release_year 1995)))',
      '(DIFF (JOIN starred_actors [ Tom Hanks ]) (JOIN directed_by [ Ron Howard ]))',
      '(COUNT (DIFF (JOIN directed_by [ Woody Allen ]) (JOIN starred_actors [ Woody Allen ])))',
      '(OR (JOIN directed_by [ A ]) (JOIN starred_actors [ B ]))',
      '(AND (JOIN r [ X ]) (OR [ A ] [ B ]))',
      '(AVG (JOIN (R release_year) (JOIN directed_by [ Alfred Hitchcock ])))',
      '(SUM (JOIN (R rating) (AND Restaurant (JOIN inCity [ x ]))))',
      '(MAX (JOIN (R release_year) (JOIN directed_by [ Alfred Hitchcock ])))',
      '(MIN (JOIN (R release_year) (OR [ Heat ] [ Casino ])))',
      '(RATIO (JOIN directed_by [ A ]) (JOIN directed_by [ B ]))',
      '(PERCENT (AND Dragon (JOIN alignment [ chaotic ])) Dragon)',
      '(MOSTCOMMON (JOIN directed_by [ Alfred Hitchcock ]) has_genre)',
      '(LEASTCOMMON (JOIN directed_by [ Alfred Hitchcock ]) (JOIN has_genre (R x)))',
      '(ARGMAXCOUNT State borders)',
      '(ARGMINCOUNT (JOIN directed_by [ A ]) starred_actors)',
      '(ARGMAX (JOIN (R directed_by) (JOIN starred_actors [ Tom Hanks ])) (JOIN (R directed_by) release_year))',
      '(AND (JOIN directed_by [ A ]) (HAS written_by))',
      '(COUNT (AND Restaurant (HAS (R foodType))))',
      '(ABSDIFF (JOIN (R release_year) [ Jaws ]) (JOIN (R release_year) [ Heat ]))',
      '(ABSDIFF (JOIN (R rating) (AND (JOIN directed_by [ A ]) (JOIN starred_actors [ B ]))) (JOIN (R rating) <http://askgraph.dev/movies/entity/C>))',
    ];
    for (const text of roundTrips) {
      it(`compileForm → sparqlToForm: ${text}`, () => {
        const back = sparqlToForm(compileForm(parseForm(text), MOVIES_NAMESPACES).sparql, MOVIES_NAMESPACES);
        assert.ok(formsEqual(back, parseForm(text)), printForm(back));
      });
    }

    const R = 'PREFIX r: <http://askgraph.dev/movies/relation/> PREFIX e: <http://askgraph.dev/movies/entity/> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ';
    const handWritten: [string, string][] = [
      ['ASK { e:Alien r:directed_by e:Ridley_Scott }', '(ASK (AND <http://askgraph.dev/movies/entity/Alien> (JOIN directed_by <http://askgraph.dev/movies/entity/Ridley_Scott>)))'],
      ['ASK { e:Alien r:release_year/rdfs:label ?l FILTER(xsd:integer(?l) > 1970) }', '(ASK (AND <http://askgraph.dev/movies/entity/Alien> (GT release_year 1970)))'],
      ['ASK { e:A r:release_year/rdfs:label ?a . e:B r:release_year/rdfs:label ?b FILTER(xsd:integer(?a) < xsd:integer(?b)) }', '(ASK (DIFF <http://askgraph.dev/movies/entity/A> (ARGMAX (OR <http://askgraph.dev/movies/entity/A> <http://askgraph.dev/movies/entity/B>) release_year)))'],
      ['SELECT ?x WHERE { VALUES ?x { e:A e:B } ?x r:release_year/rdfs:label ?l } ORDER BY DESC(xsd:integer(?l)) LIMIT 1', '(ARGMAX (OR <http://askgraph.dev/movies/entity/A> <http://askgraph.dev/movies/entity/B>) release_year)'],
      ['SELECT DISTINCT ?x WHERE { ?x r:directed_by e:D . ?x r:release_year/rdfs:label ?l . FILTER(xsd:integer(?l) >= 1960 && xsd:integer(?l) <= 1969) }', '(AND (JOIN directed_by <http://askgraph.dev/movies/entity/D>) (AND (GE release_year 1960) (LE release_year 1969)))'],
      ['SELECT DISTINCT ?x WHERE { ?x r:directed_by e:D ; r:release_year/rdfs:label ?l . { SELECT (MIN(xsd:integer(?l2)) AS ?m) WHERE { ?f r:directed_by e:D ; r:release_year/rdfs:label ?l2 } } FILTER(xsd:integer(?l) = ?m) }', '(ARGMIN (JOIN directed_by <http://askgraph.dev/movies/entity/D>) release_year)'],
      ['SELECT DISTINCT ?x WHERE { ?x r:directed_by e:D . MINUS { ?x r:has_genre e:Drama } }', '(DIFF (JOIN directed_by <http://askgraph.dev/movies/entity/D>) (JOIN has_genre <http://askgraph.dev/movies/entity/Drama>))'],
      ['SELECT ?g WHERE { ?f r:directed_by e:D ; r:has_genre ?g } GROUP BY ?g ORDER BY DESC(COUNT(DISTINCT ?f)) LIMIT 1', '(MOSTCOMMON (JOIN directed_by <http://askgraph.dev/movies/entity/D>) has_genre)'],
      ['SELECT ?f (COUNT(?a) AS ?n) WHERE { ?f r:directed_by e:D ; r:starred_actors ?a } GROUP BY ?f ORDER BY ?n LIMIT 1', '(ARGMINCOUNT (JOIN directed_by <http://askgraph.dev/movies/entity/D>) starred_actors)'],
      ['SELECT ?x WHERE { ?x r:directed_by e:D ; r:written_by ?w }', '(AND (JOIN directed_by <http://askgraph.dev/movies/entity/D>) (HAS written_by))'],
      ['SELECT ?x WHERE { ?x r:directed_by ?d . ?d r:born_in ?p }', '(HAS (JOIN directed_by born_in))'],
      ['SELECT (AVG(xsd:integer(?l)) AS ?avg) WHERE { ?f r:directed_by e:D ; r:release_year/rdfs:label ?l }', '(AVG (JOIN (R release_year) (JOIN directed_by <http://askgraph.dev/movies/entity/D>)))'],
      ['SELECT ((100 * ?a / ?b) AS ?p) WHERE { { SELECT (COUNT(DISTINCT ?x) AS ?a) WHERE { ?x r:directed_by e:D ; r:has_genre e:Drama } } { SELECT (COUNT(DISTINCT ?y) AS ?b) WHERE { ?y r:directed_by e:D } } }', '(PERCENT (AND (JOIN directed_by <http://askgraph.dev/movies/entity/D>) (JOIN has_genre <http://askgraph.dev/movies/entity/Drama>)) (JOIN directed_by <http://askgraph.dev/movies/entity/D>))'],
    ];
    for (const [q, expected] of handWritten) {
      it(`hand-written SPARQL → ${expected}`, () => {
        const form = sparqlToForm(R + q, MOVIES_NAMESPACES);
        assert.ok(formsEqual(form, parseForm(expected)), printForm(form));
      });
    }

    it('names of the pack map IRIs outside the namespace back to bare names', () => {
      const f = sparqlToForm('SELECT ?x WHERE { ?x a <http://ex.org/Restaurant> ; <http://ex.org/inCity> <http://ex.org/city/x> }', { ...MOVIES_NAMESPACES, names: { Restaurant: 'http://ex.org/Restaurant', inCity: 'http://ex.org/inCity' } });
      assert.equal(printForm(f), '(AND Restaurant (JOIN inCity <http://ex.org/city/x>))');
    });

    it('refuses what the language cannot say, with a reason', () => {
      assert.match(unsupportedReason(() => sparqlToForm(R + 'SELECT (ABS(xsd:integer(?b) - xsd:integer(?a)) AS ?d) WHERE { e:A r:release_year/rdfs:label ?a . e:B r:release_year/rdfs:label ?b }', MOVIES_NAMESPACES)), /arithmetic projection/);
      // ABSDIFF is |a − b| of ONE value per side: MIN / COUNT(DISTINCT) subqueries without the count = 1 check are a different query
      const side = (n: number, film: string) => `{ SELECT (MIN(?n${n}) AS ?lo${n}) (COUNT(DISTINCT ?n${n}) AS ?hi${n}) WHERE { e:${film} r:release_year ?y${n} . BIND(xsd:integer(?y${n}) AS ?n${n}) } }`;
      assert.match(unsupportedReason(() => sparqlToForm(R + `SELECT (ABS(?lo0 - ?lo1) AS ?d) WHERE { ${side(0, 'A')} ${side(1, 'B')} }`, MOVIES_NAMESPACES)), /arithmetic projection/);
      assert.match(unsupportedReason(() => sparqlToForm(R + `SELECT (ABS(?lo0 - ?lo1) AS ?d) WHERE { ${side(0, 'A')} ${side(1, 'B')} FILTER(?hi0 = 1) }`, MOVIES_NAMESPACES)), /arithmetic projection/);
      assert.match(unsupportedReason(() => sparqlToForm(R + `SELECT (ABS(?lo0 - ?lo1) AS ?d) WHERE { ${side(0, 'A')} ${side(1, 'B')} FILTER(?hi0 = 2 && ?hi1 = 1) }`, MOVIES_NAMESPACES)), /arithmetic projection/);
      const back = sparqlToForm(R + `SELECT (ABS(?lo0 - ?lo1) AS ?d) WHERE { ${side(0, 'A')} ${side(1, 'B')} FILTER(?hi0 = 1 && ?hi1 = 1) }`, MOVIES_NAMESPACES);
      assert.equal(printForm(back), '(ABSDIFF (JOIN (R release_year) <http://askgraph.dev/movies/entity/A>) (JOIN (R release_year) <http://askgraph.dev/movies/entity/B>))');
      assert.match(unsupportedReason(() => sparqlToForm(R + 'ASK { e:A r:release_year ?a . e:B r:directed_by ?b FILTER(?a < ?b) }', MOVIES_NAMESPACES)), /two different relations|two variables/);
    });
  });

  /** Tops of form language v3 over the generator's sets: tables, groups, orders, windows, MORE / LESS, CONTAINS, [36]. */
  function v3(set: fc.Arbitrary<Form>, rel: fc.Arbitrary<Relation>, entity: fc.Arbitrary<Form>): fc.Arbitrary<Form>[] {
    const value = fc.constantFrom('release_year', 'written_by', 'has_imdb_rating').map((name): Relation => ({ kind: 'rel', ref: { kind: 'name', name } }));
    const joined = fc.record({ relation: rel, arg: entity }).map((x): Form => ({ kind: 'join', ...x }));
    const group = fc.oneof(
      fc.record({ arg: set, by: rel }).map((x): Form => ({ kind: 'group', op: 'GROUPCOUNT', ...x })),
      fc.record({ op: fc.constantFrom('GROUPSUM' as const, 'GROUPAVG' as const, 'GROUPMAX' as const, 'GROUPMIN' as const), arg: set, by: rel, value }).map((x): Form => ({ kind: 'group', ...x })),
    );
    const having = fc.record({ arg: group, op: fc.constantFrom('GT' as const, 'LE' as const), n: fc.integer({ min: 0, max: 20 }) }).map(({ arg, op, n }): Form => ({ kind: 'having', arg, op, value: { kind: 'literal', value: String(n), datatype: XSD + 'integer' } }));
    const table = fc.record({ arg: set, columns: fc.uniqueArray(value, { minLength: 1, maxLength: 2, selector: (r) => printRelation(r) }) }).map((x): Form => ({ kind: 'table', ...x }));
    const dir = fc.constantFrom('ASC' as const, 'DESC' as const);
    const ordered = fc.oneof(
      fc.record({ op: dir, arg: set, relation: value }).map((x): Form => ({ kind: 'order', ...x })),
      fc.record({ op: dir, arg: set }).map((x): Form => ({ kind: 'order', ...x })),
      fc.record({ op: dir, arg: fc.oneof(group, having, table) }).map((x): Form => ({ kind: 'order', ...x })),
    );
    const windowed = fc.record({ arg: ordered, limit: fc.integer({ min: 1, max: 10 }), offset: fc.integer({ min: 0, max: 5 }) }).map(({ arg, limit, offset }): Form => {
      const inner: Form = offset > 0 ? { kind: 'slice', op: 'OFFSET', n: offset, arg } : arg;
      return { kind: 'slice', op: 'LIMIT', n: limit, arg: inner };
    });
    return [
      table,
      group,
      having,
      ordered,
      windowed,
      fc.record({ op: fc.constantFrom('MORE' as const, 'LESS' as const), a: set, b: set }).map(({ op, a, b }): Form => ({ kind: 'more', op, args: [{ kind: 'count', arg: a }, { kind: 'count', arg: b }] })),
      fc.record({ a: joined, text: fc.constantFrom('war', 'a.*(', 'st.', 'x] "y"', 'new york') }).map(({ a, text }): Form => ({ kind: 'and', args: [a, { kind: 'contains', relation: { kind: 'rel', ref: { kind: 'name', name: 'written_by' } }, text }] })),
      fc.record({ a: joined, op: fc.constantFrom('GT' as const, 'LE' as const) }).map(({ a, op }): Form => ({ kind: 'and', args: [a, { kind: 'attrcompare', op, relation: { kind: 'rel', ref: { kind: 'name', name: 'release_year' } }, other: { kind: 'rel', ref: { kind: 'name', name: 'has_imdb_rating' } } }] })),
    ];
  }

  describe('property: form → SPARQL → form for the v2 and v3 productions (fast-check, fixed seed)', () => {
    const rel: fc.Arbitrary<Relation> = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('directed_by', 'starred_actors', 'has_genre').map((name): Relation => ({ kind: 'rel', ref: { kind: 'name', name } })) },
      { weight: 1, arbitrary: fc.constantFrom('directed_by', 'written_by').map((name): Relation => ({ kind: 'reverse', of: { kind: 'rel', ref: { kind: 'name', name } } })) },
    );
    const entity: fc.Arbitrary<Form> = fc.oneof(
      fc.constantFrom('A', 'B', 'C').map((x): Form => ({ kind: 'entity', ref: { kind: 'iri', iri: `http://askgraph.dev/movies/entity/${x}` } })),
      fc.constantFrom('Heat', 'Jaws').map((label): Form => ({ kind: 'entity', ref: { kind: 'label', label } })),
    );
    const cmp: fc.Arbitrary<Form> = fc
      .record({ op: fc.constantFrom('GT' as const, 'LE' as const), value: fc.integer({ min: 1900, max: 2020 }) })
      .map(({ op, value }): Form => ({ kind: 'compare', op, relation: { kind: 'rel', ref: { kind: 'name', name: 'release_year' } }, value: { kind: 'literal', value: String(value), datatype: XSD + 'integer' } }));
    // sets whose every node is a variable with one role (what sparqlToForm reads back): JOIN, AND with
    // at most one label per node, OR, DIFF below the root, comparisons
    const { set } = fc.letrec<{ set: Form }>((tie) => ({
      set: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        entity,
        fc.record({ relation: rel, arg: tie('set') }).map((x): Form => ({ kind: 'join', ...x })),
        fc.tuple(fc.record({ relation: rel, arg: entity }).map((x): Form => ({ kind: 'join', ...x })), fc.oneof(cmp, tie('set'))).map(([a, b]): Form => ({ kind: 'and', args: [a, b] })),
        fc.tuple(tie('set'), tie('set')).map(([a, b]): Form => ({ kind: 'or', args: [a, b] })),
        fc.tuple(fc.record({ relation: rel, arg: entity }).map((x): Form => ({ kind: 'join', ...x })), tie('set')).map(([a, b]): Form => ({ kind: 'diff', args: [a, b] })),
      ),
    }));
    const top: fc.Arbitrary<Form> = fc.oneof(
      set,
      set.map((arg): Form => ({ kind: 'ask', arg })),
      set.map((arg): Form => ({ kind: 'count', arg })),
      fc.record({ op: fc.constantFrom('ARGMAX' as const, 'ARGMIN' as const), arg: set }).map(({ op, arg }): Form => ({ kind: 'arg', op, arg, relation: { kind: 'rel', ref: { kind: 'name', name: 'release_year' } } })),
      fc.record({ op: fc.constantFrom('AVG' as const, 'SUM' as const, 'MAX' as const, 'MIN' as const), arg: set }).map(({ op, arg }): Form => ({ kind: 'aggregate', op, arg: { kind: 'join', relation: { kind: 'reverse', of: { kind: 'rel', ref: { kind: 'name', name: 'release_year' } } }, arg } })),
      fc.record({ op: fc.constantFrom('RATIO' as const, 'PERCENT' as const), a: set, b: set }).map(({ op, a, b }): Form => ({ kind: 'ratio', op, args: [a, b] })),
      fc.tuple(set, set).map(([a, b]): Form => {
        const value = (arg: Form): Form => ({ kind: 'join', relation: { kind: 'reverse', of: { kind: 'rel', ref: { kind: 'name', name: 'release_year' } } }, arg });
        return { kind: 'arith', op: 'ABSDIFF', args: [value(a), value(b)] };
      }),
      fc.record({ op: fc.constantFrom('MOSTCOMMON' as const, 'LEASTCOMMON' as const), arg: set, relation: rel }).map((x): Form => ({ kind: 'common', ...x })),
      fc.record({ op: fc.constantFrom('ARGMAXCOUNT' as const, 'ARGMINCOUNT' as const), arg: set, relation: rel }).map((x): Form => ({ kind: 'argcount', ...x })),
      // form language v3 ([31]–[38])
      ...v3(set, rel, entity),
    );
    /** Two label matches on one node are one constraint sparqlToForm refuses (an entity is one label). */
    const labelsPerNode = (f: Form): boolean => {
      const own = (g: Form): number => (g.kind === 'entity' && g.ref.kind === 'label' ? 1 : g.kind === 'and' ? own(g.args[0]) + own(g.args[1]) : 0);
      const kids = (g: Form): Form[] => ('args' in g ? [...g.args] : 'arg' in g ? [g.arg] : []); // (the v3 nodes too)
      return own(f) <= 1 && kids(f).every(labelsPerNode);
    };
    it('round trips', () => {
      fc.assert(
        fc.property(top.filter(labelsPerNode), (f) => {
          const sparql = compileForm(f, MOVIES_NAMESPACES).sparql;
          const back = sparqlToForm(sparql, MOVIES_NAMESPACES);
          assert.ok(formsEqual(back, f), `${printForm(f)}\n→ ${printForm(back)}\n${sparql}`);
        }),
        { numRuns: 400, seed: 20261123 },
      );
    });
  });
});
