import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { Parser, Generator } from 'sparqljs';
import type * as S from 'sparqljs';
import { compileForm, numValue, packCompileOptions, tcBounds, toRelation, type CompileOptions } from '../../../src/compile';
import { generateSparql } from '../../../src/sparql';
import { parseForm } from '../../../src/form';
import { AskgraphError, Form, RDFS_LABEL, RDF_TYPE, XSD } from '../../../src/core';
import { MOVIES_NAMESPACES, MOVIES_PACK_OPTIONS } from '../../helpers/movies';

const NS = 'http://askgraph.dev/movies/relation/';
const ENT = 'http://askgraph.dev/movies/entity/';

/** Compiles over the movies pack's namespaces (the compiler has none of its own); `opts` override them. */
function compile(text: string, opts: CompileOptions = {}) {
  return compileForm(parseForm(text), { ...MOVIES_NAMESPACES, ...opts });
}

function parse(sparql: string): S.SelectQuery {
  return new Parser().parse(sparql) as S.SelectQuery;
}

/** Every triple of the query, subqueries and EXISTS included, as "s p o" with full IRIs / ?vars / literal JSON. */
function triples(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => triples(n, out));
  else if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if (o.subject && o.predicate && o.object) {
      const t = (x: S.Term) => (x.termType === 'Variable' ? '?' + x.value : x.termType === 'Literal' ? JSON.stringify(x.value) : x.value);
      out.push(`${t(o.subject as S.Term)} ${t(o.predicate as S.Term)} ${t(o.object as S.Term)}`);
    } else Object.values(o).forEach((v) => triples(v, out));
  }
  return out;
}

function patternTypes(q: S.SelectQuery): string[] {
  return (q.where ?? []).map((p) => p.type);
}

function expectCode(fn: () => unknown, code: string): void {
  assert.throws(fn, (e: unknown) => e instanceof AskgraphError && e.code === code);
}

describe('compile: compileForm', () => {
  describe('operators (AST shape of the generated SPARQL)', () => {
    it('(JOIN r [label]): subject side — ?x r ?e, ?e labelled', () => {
      const c = compile('(JOIN directed_by [ Robert Zemeckis ])');
      assert.equal(c.kind, 'select');
      assert.equal(c.answerVar, 'x');
      const q = parse(c.sparql);
      assert.equal(q.distinct, true);
      assert.deepEqual(triples(q.where), [`?x ${NS}directed_by ?e0`, `?e0 ${RDFS_LABEL} ?l0`]);
      const values = q.where!.find((p) => p.type === 'values')!;
      assert.deepEqual(
        values.values.map((r) => [r['?l0']!.value, (r['?l0'] as S.LiteralTerm).language]),
        [
          ['Robert Zemeckis', ''],
          ['Robert Zemeckis', 'en'],
        ],
      );
    });

    it('(JOIN (R r) x): object side — ?e r ?x', () => {
      const q = parse(compile('(JOIN (R directed_by) [ Forrest Gump ])').sparql);
      assert.deepEqual(triples(q.where)[0], `?e0 ${NS}directed_by ?x`);
    });

    it('nested JOINs chain through fresh variables', () => {
      const q = parse(compile('(JOIN (R directed_by) (JOIN starred_actors [ Tom Hanks ]))').sparql);
      assert.deepEqual(triples(q.where).slice(0, 2), [`?y0 ${NS}directed_by ?x`, `?y0 ${NS}starred_actors ?e0`]);
    });

    it('a relation chain (JOIN r1 r2) in relation position is a two-step path', () => {
      const q = parse(compile('(ARGMAX [ A ] (JOIN (R directed_by) release_year))').sparql);
      const ts = triples(q.where);
      assert.ok(ts.includes(`?y0 ${NS}directed_by ?x`), ts.join('\n'));
      assert.ok(ts.includes(`?y0 ${NS}release_year ?o0`), ts.join('\n'));
    });

    it('names (a pack\'s bare name → IRI) resolve relations and classes before the namespaces; packCompileOptions carries them', () => {
      const names = { Restaurant: 'http://example.org/rest/Restaurant', inCity: 'http://example.org/rest/inCity' };
      const q = parse(compile('(AND Restaurant (JOIN inCity <http://example.org/rest/city/x>))', packCompileOptions({ vocabularyNamespace: 'http://v/', labelPredicates: [RDFS_LABEL], names })).sparql);
      assert.deepEqual(triples(q.where), [`?x ${RDF_TYPE} http://example.org/rest/Restaurant`, '?x http://example.org/rest/inCity http://example.org/rest/city/x']);
      // a name the pack does not list still mints from the namespace
      assert.ok(triples(parse(compile('(JOIN other [ A ])', { names }).sparql).where).includes(`?x ${NS}other ?e0`));
      assert.throws(() => compile('(JOIN inCity [ A ])', { names: { inCity: 'not an iri' } }), /not an absolute IRI/);
    });

    it('AND with a class: ?x rdf:type <class> plus the other operand', () => {
      const q = parse(compile('(AND film (JOIN directed_by [ Ron Howard ]))', { classNamespace: 'http://c/' }).sparql);
      assert.deepEqual(triples(q.where).slice(0, 2), [`?x ${RDF_TYPE} http://c/film`, `?x ${NS}directed_by ?e0`]);
    });

    it('the type predicate is configurable (Freebase type.object.type)', () => {
      const fb = 'http://rdf.freebase.com/ns/';
      const q = parse(compile('(AND theater.play (JOIN theater.play.productions m.0yrlqjm))', { vocabularyNamespace: fb, entityNamespace: fb, typePredicate: fb + 'type.object.type' }).sparql);
      assert.deepEqual(triples(q.where), [`?x ${fb}type.object.type ${fb}theater.play`, `?x ${fb}theater.play.productions ${fb}m.0yrlqjm`]);
    });

    it('COUNT → SELECT (COUNT(DISTINCT ?x) AS ?count), kind count', () => {
      const c = compile('(COUNT (JOIN directed_by [ Robert Zemeckis ]))');
      assert.equal(c.kind, 'count');
      assert.equal(c.answerVar, 'count');
      const q = parse(c.sparql);
      const v = q.variables[0] as S.VariableExpression;
      assert.equal(v.variable.value, 'count');
      const agg = v.expression as S.AggregateExpression;
      assert.equal(agg.aggregation, 'count');
      assert.equal(agg.distinct, true);
      assert.equal((agg.expression as S.VariableTerm).value, 'x');
      assert.match(c.sparql, /SELECT \(COUNT\(DISTINCT \?x\) AS \?count\)/);
    });

    it('COUNT below the top is refused (UNSUPPORTED)', () => {
      const inner: Form = { kind: 'join', relation: { kind: 'rel', ref: { kind: 'name', name: 'r' } }, arg: { kind: 'count', arg: { kind: 'entity', ref: { kind: 'label', label: 'a' } } } };
      expectCode(() => compileForm(inner, MOVIES_NAMESPACES), 'UNSUPPORTED');
    });

    for (const [op, agg] of [
      ['ARGMAX', 'max'],
      ['ARGMIN', 'min'],
    ] as const) {
      it(`${op} → MAX/MIN subquery joined on the value (ties kept, GrailQA style)`, () => {
        const q = parse(compile(`(${op} (JOIN starred_actors [ Tom Hanks ]) release_year)`).sparql);
        assert.equal(q.order, undefined);
        assert.equal(q.limit, undefined);
        const group = q.where!.find((p) => p.type === 'group')!;
        const sub = group.patterns[0] as S.SelectQuery;
        const proj = sub.variables[0] as S.VariableExpression;
        assert.equal((proj.expression as S.AggregateExpression).aggregation, agg);
        assert.equal(proj.variable.value, 'best0');
        assert.ok(triples(q.where).includes(`?x ${NS}release_year ?o0`));
        assert.ok(triples(sub.where).includes(`?z0 ${NS}release_year ?w0`));
        // the outer value's ordering key equals the best one: FILTER(COALESCE(…?ov0…) = ?best0)
        const eq = q.where!.find((p) => p.type === 'filter')!.expression as S.OperationExpression;
        assert.equal(eq.operator, '=');
        assert.equal((eq.args[1] as S.Term).value, 'best0');
        assert.match(new Generator().stringify(q), /COALESCE\(\?ol0, \?o0\) AS \?ov0/);
      });
    }

    for (const [op, sym] of [
      ['GT', '>'],
      ['GE', '>='],
      ['LT', '<'],
      ['LE', '<='],
    ] as const) {
      it(`${op} with a number: FILTER(?v ${sym} typed literal)`, () => {
        const q = parse(compile(`(${op} release_year 1995)`).sparql);
        const f = q.where!.find((p) => p.type === 'filter')!;
        const e = f.expression as S.OperationExpression;
        assert.equal(e.operator, sym);
        // the value (?ov0: the label of an entity object, else the literal) as a number
        const value = e.args[0] as S.OperationExpression;
        assert.equal(value.operator, 'if');
        assert.equal((value.args[1] as S.Term).value, 'ov0');
        assert.equal((e.args[1] as S.Term).value, '1995');
        assert.equal((e.args[1] as S.LiteralTerm).datatype.value, XSD + 'integer');
      });
    }

    it('a decimal / double keeps its datatype', () => {
      const q = parse(compile('(GT rating 7.5)').sparql);
      const e = q.where!.find((p) => p.type === 'filter')!.expression as S.OperationExpression;
      assert.equal((e.args[1] as S.LiteralTerm).datatype.value, XSD + 'decimal');
    });

    it('a date constant compares as xsd:dateTime, through a REGEX-guarded cast of the value', () => {
      const c = compile('(LE release_date 2008-05-08^^http://www.w3.org/2001/XMLSchema#date)');
      const q = parse(c.sparql);
      const e = q.where!.find((p) => p.type === 'filter')!.expression as S.OperationExpression;
      assert.equal(e.operator, '<=');
      const cast = e.args[0] as S.FunctionCallExpression;
      assert.equal((cast.function as S.IriTerm).value, XSD + 'dateTime');
      assert.equal((cast.args[0] as S.OperationExpression).operator, 'if');
      assert.deepEqual([(e.args[1] as S.Term).value, (e.args[1] as S.LiteralTerm).datatype.value], ['2008-05-08T00:00:00', XSD + 'dateTime']);
      assert.doesNotMatch(c.sparql, /bif:|sql:/i, 'no Virtuoso-only functions');
    });

    it('gYear / gYearMonth constants start at their first instant', () => {
      const q = parse(compile('(GE d "2011"^^<http://www.w3.org/2001/XMLSchema#gYear>)').sparql);
      const e = q.where!.find((p) => p.type === 'filter')!.expression as S.OperationExpression;
      assert.equal((e.args[1] as S.Term).value, '2011-01-01T00:00:00');
    });

    it('TC: NOT EXISTS / EXISTS bounds on the from and the paired to relation', () => {
      const c = compile('(TC (JOIN starred_actors [ Tom Hanks ]) in_theaters_from 1994-08-01)');
      const q = parse(c.sparql);
      const filters = q.where!.filter((p) => p.type === 'filter');
      const tc = filters.filter((f) => (f.expression as S.OperationExpression).operator === '||');
      assert.equal(tc.length, 2);
      const ts = triples(tc);
      assert.ok(ts.includes(`?x ${NS}in_theaters_from ?t0`));
      assert.ok(ts.includes(`?x ${NS}in_theaters_to ?t2`));
      assert.match(c.sparql, /<= "1994-08-01T00:00:00"/);
      assert.match(c.sparql, />= "1994-08-01T00:00:00"/);
    });

    it('TC with a year spans the whole year', () => {
      assert.deepEqual(tcBounds({ kind: 'literal', value: '2011', datatype: XSD + 'integer' }), { start: '2011-01-01T00:00:00', end: '2011-12-31T23:59:59' });
      assert.deepEqual(tcBounds({ kind: 'literal', value: '2011-05-03', datatype: XSD + 'date' }), { start: '2011-05-03T00:00:00', end: '2011-05-03T00:00:00' });
      expectCode(() => tcBounds({ kind: 'literal', value: 'soon', datatype: XSD + 'string' }), 'UNSUPPORTED');
    });

    it('TC relation pairing: from→to, from_date→to_date, start_date→end_date; others refused', () => {
      const name = (n: string) => ({ kind: 'rel' as const, ref: { kind: 'name' as const, name: n } });
      assert.deepEqual(toRelation(name('government.government_position_held.from')), name('government.government_position_held.to'));
      assert.deepEqual(toRelation(name('x.from_date')), name('x.to_date'));
      assert.deepEqual(toRelation(name('sports.start_date')), name('sports.end_date'));
      expectCode(() => toRelation(name('release_year')), 'UNSUPPORTED');
      expectCode(() => compile('(TC [ A ] release_year 1994)'), 'UNSUPPORTED');
    });
  });

  describe('entities, relations and namespaces', () => {
    it('bare relation names resolve against the vocabulary namespace (default and --ns)', () => {
      assert.ok(triples(parse(compile('(JOIN r [ a ])').sparql).where)[0]!.includes(NS + 'r'));
      assert.ok(triples(parse(compile('(JOIN r [ a ])', { vocabularyNamespace: 'http://ex.org/v#' }).sparql).where)[0]!.includes('http://ex.org/v#r'));
    });

    it('IRIs stay IRIs; GrailQA ids use the entity namespace', () => {
      const c = compile('(JOIN <http://ex.org/p> m.0abc)', { entityNamespace: 'http://rdf.freebase.com/ns/' });
      assert.deepEqual(triples(parse(c.sparql).where), ['?x http://ex.org/p http://rdf.freebase.com/ns/m.0abc']);
      assert.deepEqual(c.topicEntities, ['http://rdf.freebase.com/ns/m.0abc']);
      assert.deepEqual(compile('(JOIN r m.0abc)').topicEntities, [ENT + 'm.0abc']);
    });

    it('several label predicates: a VALUES over the predicates', () => {
      const q = parse(compile('(JOIN r [ a ])', { labelPredicates: ['http://p/1', 'http://p/2'] }).sparql);
      const values = q.where!.filter((p) => p.type === 'values');
      assert.deepEqual(values[0]!.values.map((r) => r['?p0']!.value), ['http://p/1', 'http://p/2']);
      assert.ok(triples(q.where).includes('?e0 ?p0 ?l0'));
    });

    it('labelLanguages [] matches the plain literal only, as a constant', () => {
      const q = parse(compile('(JOIN r [ a ])', { labelLanguages: [] }).sparql);
      assert.ok(triples(q.where).includes(`?e0 ${RDFS_LABEL} "a"`));
      assert.ok(!patternTypes(q).includes('values'));
    });

    it('the compiler has no namespace of its own: bare names need the pack\'s, IRIs need none', () => {
      const bare = parseForm('(JOIN directed_by [ Heat ])');
      assert.throws(
        () => compileForm(bare),
        (e: unknown) => e instanceof AskgraphError && e.code === 'BAD_REQUEST' && e.details?.name === 'directed_by' && e.message.includes('namespace'),
      );
      assert.throws(() => compileForm(parseForm('(AND film (JOIN <http://x/r> [ Heat ]))')), (e: unknown) => e instanceof AskgraphError && e.code === 'BAD_REQUEST' && e.details?.what === 'class');
      assert.throws(() => compileForm(parseForm('(JOIN <http://x/r> m.0abc)')), (e: unknown) => e instanceof AskgraphError && e.code === 'BAD_REQUEST' && e.details?.what === 'entity');
      const iris = parse(compileForm(parseForm('(JOIN <http://x/r> [ Heat ])')).sparql);
      assert.ok(triples(iris).includes('?x http://x/r ?e0'), 'a form written with IRIs compiles without options');
      // the pack's options give the IRIs the old compiler default gave (behaviour unchanged for the movies pack)
      assert.ok(triples(parse(compileForm(bare, MOVIES_NAMESPACES).sparql)).includes(`?x ${NS}directed_by ?e0`));
      assert.ok(triples(parse(compileForm(bare, MOVIES_PACK_OPTIONS).sparql)).includes(`?x ${NS}directed_by ?e0`));
      assert.equal(MOVIES_NAMESPACES.entityNamespace, ENT);
    });

    it('a relation given as a label is refused (must be grounded)', () => {
      expectCode(() => compile('(JOIN [ directed by ] [ a ])'), 'UNSUPPORTED');
    });

    it('IRIs that could break out of <…> are refused', () => {
      const bad: Form = { kind: 'join', relation: { kind: 'rel', ref: { kind: 'iri', iri: 'http://x> } DROP ALL { <http://y' } }, arg: { kind: 'entity', ref: { kind: 'label', label: 'a' } } };
      expectCode(() => compileForm(bad, MOVIES_NAMESPACES), 'BAD_REQUEST');
      expectCode(() => compile('(JOIN r [ a ])', { vocabularyNamespace: 'not an iri' }), 'BAD_REQUEST');
      expectCode(() => compile('(JOIN r [ a ])', { labelLanguages: ['en"'] }), 'BAD_REQUEST');
    });
  });

  describe('topic exclusion', () => {
    it('on by default: FILTER(?x != topic) for IRI and label topics', () => {
      const c = compile('(AND (JOIN r <http://ex.org/a>) (JOIN s [ b ]))');
      const q = parse(c.sparql);
      const fs = q.where!.filter((p) => p.type === 'filter').map((f) => f.expression as S.OperationExpression);
      assert.deepEqual(
        fs.map((e) => [e.operator, (e.args[0] as S.Term).value, (e.args[1] as S.Term).value]),
        [
          ['!=', 'x', 'http://ex.org/a'],
          ['!=', 'x', 'e0'],
        ],
      );
      assert.deepEqual(c.topicEntities, ['http://ex.org/a']);
    });

    it('off with excludeTopic: false (no filter, no topicEntities)', () => {
      const c = compile('(AND (JOIN r <http://ex.org/a>) (JOIN s [ b ]))', { excludeTopic: false });
      assert.ok(!patternTypes(parse(c.sparql)).includes('filter'));
      assert.deepEqual(c.topicEntities, []);
    });

    it('entities inside an ARGMAX subquery are not topics of the outer query twice', () => {
      const c = compile('(ARGMAX (JOIN r <http://ex.org/a>) y)');
      assert.deepEqual(c.topicEntities, ['http://ex.org/a']);
    });
  });

  describe('escaping: labels and literals cannot change the query', () => {
    const nasty = ['Bob "x" } ; DROP ALL', 'a\nb\r\nc', "it's # not a comment", '}} UNION { ?s ?p ?o } #', '\\"\\', 'tab\there', 'ünïcödé ✓', '"""', "'''"];

    function checkLabel(label: string): void {
      const form: Form = { kind: 'join', relation: { kind: 'reverse', of: { kind: 'rel', ref: { kind: 'name', name: 'directed_by' } } }, arg: { kind: 'entity', ref: { kind: 'label', label } } };
      const c = compileForm(form, MOVIES_NAMESPACES);
      const q = parse(c.sparql);
      // Same structure as for a harmless label …
      const plain = parse(compileForm({ ...form, arg: { kind: 'entity', ref: { kind: 'label', label: 'plain' } } }, MOVIES_NAMESPACES).sparql);
      assert.deepEqual(patternTypes(q), patternTypes(plain));
      assert.deepEqual(triples(q.where), triples(plain.where));
      // … and the label arrives as exactly one literal value.
      const values = q.where!.find((p) => p.type === 'values')!;
      assert.deepEqual(
        values.values.map((r) => r['?l0']!.value),
        [label, label],
      );
    }

    for (const label of nasty) it(`label ${JSON.stringify(label)}`, () => checkLabel(label));

    it('any label string (property, fast-check)', () => {
      fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (label) => checkLabel(label)), { numRuns: 300, seed: 20261122 });
    });

    it('string literals in comparisons are escaped too', () => {
      const form: Form = { kind: 'compare', op: 'GT', relation: { kind: 'rel', ref: { kind: 'name', name: 'r' } }, value: { kind: 'literal', value: '" ) } DROP ALL #', datatype: XSD + 'string' } };
      const q = parse(compileForm(form, MOVIES_NAMESPACES).sparql);
      const e = q.where!.find((p) => p.type === 'filter')!.expression as S.OperationExpression;
      assert.equal((e.args[1] as S.Term).value, '" ) } DROP ALL #');
      assert.equal(q.where!.length, 4); // triple, OPTIONAL label, BIND value, FILTER
    });
  });

  describe('ABSDIFF', () => {
    const text = '(ABSDIFF (JOIN (R release_year) [ Jaws ]) (JOIN (R release_year) [ Heat ]))';

    it('one number: ABS(?lo0 - ?lo1) over two MIN / COUNT(DISTINCT) subqueries, kept only when each side has one value', () => {
      const c = compile(text);
      assert.equal(c.kind, 'value');
      assert.equal(c.answerType, 'number');
      const q = parse(c.sparql);
      const proj = q.variables[0] as S.VariableExpression;
      assert.equal(proj.variable.value, c.answerVar);
      const abs = proj.expression as S.OperationExpression;
      assert.equal(abs.operator, 'abs');
      assert.equal((abs.args[0] as S.OperationExpression).operator, '-');
      assert.deepEqual(patternTypes(q), ['group', 'group', 'filter']);
      const subs = q.where!.slice(0, 2).map((g) => (g as S.GroupPattern).patterns[0] as S.SelectQuery);
      for (const sub of subs) {
        const aggs = sub.variables.map((v) => (v as S.VariableExpression).expression as S.AggregateExpression);
        assert.deepEqual(aggs.map((a) => a.aggregation), ['min', 'count']);
        assert.equal(aggs[1]!.distinct, true);
      }
      assert.deepEqual(triples(subs[0]).filter((t) => t.includes('release_year')), [`?e0 ${NS}release_year ?d0`]);
      const filterText = JSON.stringify((q.where![2] as S.FilterPattern).expression);
      // the one-value check compares each side's count with 1 (not MIN with MAX across the two subqueries, which
      // Virtuoso 7 cannot compile)
      for (const v of ['hi0', 'hi1']) assert.ok(filterText.includes(`"${v}"`), v);
      assert.ok(!filterText.includes('"lo0"') && !filterText.includes('"lo1"'), filterText);
    });

    it('reads each value the way AVG / SUM do (valueOf, then numValue — the one numeric cast)', () => {
      const sub = (parse(compile(text).sparql).where![0] as S.GroupPattern).patterns[0] as S.SelectQuery;
      const bind = sub.where!.filter((p): p is S.BindPattern => p.type === 'bind');
      assert.equal(bind.length, 2); // the value (label or term), the number
      const plain = (x: unknown) => JSON.parse(JSON.stringify(x));
      const number = plain(bind[1]!.expression);
      // numValue(?ov0) written out and read back, like the compiled query
      const own = generateSparql({ type: 'query', queryType: 'SELECT', prefixes: {}, variables: [{ expression: numValue(bind[0]!.variable), variable: bind[1]!.variable }], where: [] });
      assert.deepEqual(number.args[0], plain((parse(own).variables[0] as S.VariableExpression).expression));
      assert.equal(number.args[1].operator, 'year'); // a date: its year
    });

    it('stands only outermost', () => {
      expectCode(() => compile(`(COUNT ${text})`), 'UNSUPPORTED');
      expectCode(() => compile(`(ABSDIFF ${text} (JOIN (R release_year) [ Heat ]))`), 'UNSUPPORTED');
    });
  });

  describe('round trip: parse(generate(ast)) through sparqljs', () => {
    const forms = [
      '(JOIN (R directed_by) [ Forrest Gump ])',
      '(COUNT (AND film (JOIN directed_by [ Ron Howard ])))',
      '(ARGMIN (JOIN (R directed_by) (JOIN starred_actors [ Tom Hanks ])) (JOIN (R directed_by) release_year))',
      '(AND (JOIN starred_actors [ Tom Hanks ]) (AND (GE release_year 1990) (LT release_year 1999.5)))',
      '(TC (JOIN (R office_holder) [ Ohio ]) position.from 2011)',
      '(AND (LE release_date 2008-05-08) (GT score "7"^^<http://www.w3.org/2001/XMLSchema#double>))',
      '(JOIN <http://ex.org/p> "chaîne"@fr)',
      '(ABSDIFF (JOIN (R release_year) [ Jaws ]) (JOIN (R release_year) (JOIN directed_by [ Michael Mann ])))',
    ];
    for (const f of forms) {
      it(f, () => {
        const c = compile(f, { labelPredicates: [RDFS_LABEL, 'http://www.w3.org/2004/02/skos/core#prefLabel'] });
        const ast = new Parser().parse(c.sparql);
        const again = new Generator().stringify(ast);
        assert.equal(again, c.sparql);
        const plain = (x: unknown) => JSON.parse(JSON.stringify(x));
        assert.deepEqual(plain(new Parser().parse(again)), plain(ast));
      });
    }

    it('limit option adds LIMIT to SELECT, refuses nonsense', () => {
      assert.equal(parse(compile('(JOIN r [ a ])', { limit: 10 }).sparql).limit, 10);
      expectCode(() => compile('(JOIN r [ a ])', { limit: 0 }), 'BAD_REQUEST');
    });
  });

  describe('forms too large to compile (a half-trained parser nested 20 ARGMINCOUNTs: gigabytes of SPARQL)', () => {
    const nested = (op: string, n: number) => {
      let f = '(ARGMINCOUNT directed_by starred_actors)'.replace('ARGMINCOUNT', op);
      for (let i = 1; i < n; i++) f = `(${op} ${f} starred_actors)`;
      return parseForm(f);
    };
    it('nested operators that repeat their set are QUERY_TOO_COMPLEX before any SPARQL is written; a few levels compile', () => {
      expectCode(() => compileForm(nested('ARGMINCOUNT', 20), MOVIES_NAMESPACES), 'QUERY_TOO_COMPLEX');
      expectCode(() => compileForm(nested('ARGMAX', 12), MOVIES_NAMESPACES), 'QUERY_TOO_COMPLEX');
      assert.match(compileForm(nested('ARGMINCOUNT', 3), MOVIES_NAMESPACES).sparql, /SELECT/);
    });
    it('a form nested deeper than MAX_FORM_DEPTH is QUERY_TOO_COMPLEX, not a stack overflow', () => {
      let f = '[ Tom Hanks ]';
      for (let i = 0; i < 40; i++) f = `(JOIN starred_actors ${f})`;
      expectCode(() => compileForm(parseForm(f), MOVIES_NAMESPACES), 'QUERY_TOO_COMPLEX');
    });
  });
});
