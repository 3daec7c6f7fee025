import * as assert from 'node:assert/strict';
import { compileForm, sparqlToForm } from '../../../src/compile';
import { formsEqual, parseForm, printForm } from '../../../src/form';
import { AskgraphError } from '../../../src/core';
import { CWQ, GRAILQA } from './data-samples';

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

    const refused: [string, RegExp][] = [
      ['union', /UNION/],
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
      const form = sparqlToForm(q);
      assert.deepEqual(form, {
        kind: 'and',
        args: [
          { kind: 'class', ref: { kind: 'iri', iri: 'http://dbpedia.org/ontology/Book' } },
          { kind: 'join', relation: { kind: 'rel', ref: { kind: 'iri', iri: 'http://dbpedia.org/ontology/author' } }, arg: { kind: 'entity', ref: { kind: 'iri', iri: 'http://dbpedia.org/resource/Danielle_Steel' } } },
        ],
      });
      // The AST compiles back to the class constraint (printing a class IRI is a grammar gap of grammar/logical-form.ebnf).
      assert.match(compileForm(form).sparql, /\?x <http:\/\/www\.w3\.org\/1999\/02\/22-rdf-syntax-ns#type> <http:\/\/dbpedia\.org\/ontology\/Book>/);
    });

    it('COUNT(DISTINCT ?uri) with a label match becomes (COUNT … [ label ])', () => {
      const q = `SELECT (COUNT(DISTINCT ?uri) AS ?c) WHERE { ?uri <http://dbpedia.org/ontology/starring> ?a . ?a <http://www.w3.org/2000/01/rdf-schema#label> "Tom Hanks"@en }`;
      assert.equal(printForm(sparqlToForm(q)), '(COUNT (JOIN <http://dbpedia.org/ontology/starring> [ Tom Hanks ]))');
    });
  });

  describe('unsupported shapes are reported, not guessed', () => {
    const P = 'PREFIX : <http://ex.org/> ';
    const refused: [string, RegExp][] = [
      ['ASK { ?s ?p ?o }', /not a SELECT/],
      ['SELECT ?a ?b WHERE { ?a :p ?b }', /exactly one projected/],
      ['SELECT * WHERE { ?a :p ?b }', /SELECT \*/],
      ['SELECT ?x WHERE { ?x :p ?y . OPTIONAL { ?y :q ?z } }', /OPTIONAL/],
      ['SELECT ?x WHERE { ?x :p :a } LIMIT 5', /LIMIT without ORDER BY/],
      ['SELECT ?x WHERE { ?x :p ?v } ORDER BY ?v LIMIT 3', /ORDER BY without LIMIT 1/],
      ['SELECT ?x WHERE { ?x :p :a . ?y :q :b }', /not connected/],
      ['SELECT ?x WHERE { ?x :p ?y . ?y :q ?x }', /cycle/],
      ['SELECT ?x WHERE { ?x ?p :a }', /variable predicate/],
      ['SELECT ?x WHERE { ?x :p/:q :a }', /property path/],
      ['SELECT ?x WHERE { ?x :p ?y }', /unconstrained variable/],
      ['SELECT ?x WHERE { ?x :p :a . FILTER regex(str(?x), "a") }', /string matching/],
      ['SELECT ?x WHERE { ?x :p ?v . ?v :q :b . FILTER(?v > 3) }', /not a value of the answer tree/],
      ['SELECT (COUNT(?x) AS ?n) WHERE { ?x :p :a } GROUP BY ?x', /GROUP BY/],
      ['SELECT (SUM(?x) AS ?n) WHERE { ?x :p :a }', /aggregate/],
      ['DELETE WHERE { ?s ?p ?o }', /not a query/],
    ];
    for (const [q, reason] of refused) {
      it(q, () => assert.match(unsupportedReason(() => sparqlToForm(P + q)), reason));
    }

    it('syntax errors stay SPARQL_SYNTAX', () => {
      assert.throws(
        () => sparqlToForm('SELECT ?x WHERE {'),
        (e: unknown) => e instanceof AskgraphError && e.code === 'SPARQL_SYNTAX',
      );
    });
  });

  describe('round trip: sparqlToForm(compileForm(f)) equals f', () => {
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
        const back = sparqlToForm(compileForm(form).sparql);
        assert.ok(formsEqual(back, form), printForm(back));
      });
    }

    it('with Freebase namespaces, classes and ids', () => {
      const f = parseForm('(AND theater.play (JOIN theater.play.productions m.0yrlqjm))');
      const sparql = compileForm(f, { ...FB_OPTS, typePredicate: FB + 'type.object.type' }).sparql;
      assert.ok(formsEqual(sparqlToForm(sparql, FB_OPTS), f));
    });
  });
});
