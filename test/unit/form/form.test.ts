import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { AskgraphError, Column, Form, Literal, Ref, Relation, XSD, packageRoot } from '../../../src/core';
import {
  parseForm,
  printForm,
  normalizeForm,
  formsEqual,
  skeleton,
  mapChildren,
  mapRefs,
  entityRefs,
  relationRefs,
  canonicalText,
  answerTypeOf,
  typeErrors,
  diffForms,
} from '../../../src/form';

function syntaxError(text: string): AskgraphError {
  try {
    parseForm(text);
  } catch (e) {
    assert.ok(e instanceof AskgraphError, 'expected an AskgraphError');
    return e;
  }
  assert.fail(`expected ${JSON.stringify(text)} not to parse`);
}

describe('form: parse and print', () => {
  it('parses a MetaQA 3-hop form into the expected AST', () => {
    const f = parseForm('(JOIN (R starred_actors) (JOIN directed_by (JOIN (R directed_by) [ Some Mother\'s Son ])))');
    assert.deepEqual(f, {
      kind: 'join',
      relation: { kind: 'reverse', of: { kind: 'rel', ref: { kind: 'name', name: 'starred_actors' } } },
      arg: {
        kind: 'join',
        relation: { kind: 'rel', ref: { kind: 'name', name: 'directed_by' } },
        arg: {
          kind: 'join',
          relation: { kind: 'reverse', of: { kind: 'rel', ref: { kind: 'name', name: 'directed_by' } } },
          arg: { kind: 'entity', ref: { kind: 'label', label: "Some Mother's Son" } },
        },
      },
    });
  });

  it('prints the canonical text and tolerates extra whitespace and newlines', () => {
    const f = parseForm('(JOIN\n  (R   directed_by)\n  [Forrest Gump])');
    assert.equal(printForm(f), '(JOIN (R directed_by) [ Forrest Gump ])');
  });

  it('reads entities as labels, IRIs and GrailQA ids; bare names in form position are classes', () => {
    const f = parseForm('(AND theater.play (AND (JOIN theater.play.productions m.0yrlqjm) (JOIN <http://x/r> <http://x/e>)))');
    assert.equal(f.kind, 'and');
    const ents = entityRefs(f);
    assert.deepEqual(ents, [{ kind: 'name', name: 'm.0yrlqjm' }, { kind: 'iri', iri: 'http://x/e' }]);
    assert.deepEqual(relationRefs(f), [{ kind: 'name', name: 'theater.play.productions' }, { kind: 'iri', iri: 'http://x/r' }]);
    assert.deepEqual(f.args[0], { kind: 'class', ref: { kind: 'name', name: 'theater.play' } });
  });

  it('reads typed literals: numbers, dates, GrailQA ^^ types, strings with escapes and language tags', () => {
    const lit = (t: string): Literal => {
      const f = parseForm(`(GT r ${t})`);
      assert.equal(f.kind, 'compare');
      return f.value;
    };
    assert.equal(lit('1994').datatype, XSD + 'integer');
    assert.equal(lit('-3.5').datatype, XSD + 'decimal');
    assert.equal(lit('1.2e3').datatype, XSD + 'double');
    assert.equal(lit('2008-05-08').datatype, XSD + 'date');
    assert.equal(lit('2008-05').datatype, XSD + 'gYearMonth');
    assert.equal(lit('2008-05-08T10:00:00Z').datatype, XSD + 'dateTime');
    assert.deepEqual(lit('20299592^^http://www.w3.org/2001/XMLSchema#integer'), { kind: 'literal', value: '20299592', datatype: XSD + 'integer' });
    assert.deepEqual(lit('1990^^<http://www.w3.org/2001/XMLSchema#gYear>'), { kind: 'literal', value: '1990', datatype: XSD + 'gYear' });
    assert.deepEqual(lit('"1990"^^xsd:gYear'), { kind: 'literal', value: '1990', datatype: XSD + 'gYear' });
    assert.equal(lit('"say \\"hi\\"\\n"').value, 'say "hi"\n');
    assert.equal(lit('"chat"@FR').lang, 'fr');
  });

  it('keeps labels with quotes, braces, parentheses and escaped brackets intact', () => {
    const label = 'Bob "x" } ; DROP ALL (part [2\\] )';
    const f = parseForm(`(JOIN (R directed_by) [ ${label} ])`);
    const ents = entityRefs(f);
    assert.deepEqual(ents, [{ kind: 'label', label: 'Bob "x" } ; DROP ALL (part [2] )' }]);
    assert.deepEqual(parseForm(printForm(f)), f);
  });

  it('reads names that look like operators as names where no operator can stand', () => {
    const f = parseForm('(ARGMAX (JOIN (R ge) [ ! ]) R)');
    assert.deepEqual(relationRefs(f), [{ kind: 'name', name: 'ge' }, { kind: 'name', name: 'R' }]);
    assert.deepEqual(parseForm(printForm(f)), f);
  });

  it('reads class IRIs and labels with the @ marker and round-trips them', () => {
    const f = parseForm('(AND @<http://dbpedia.org/ontology/Book> (AND @[ film ] (JOIN r <http://x/e>)))');
    assert.equal(f.kind, 'and');
    assert.deepEqual(f.args[0], { kind: 'class', ref: { kind: 'iri', iri: 'http://dbpedia.org/ontology/Book' } });
    assert.equal(printForm(f), '(AND @<http://dbpedia.org/ontology/Book> (AND @[ film ] (JOIN r <http://x/e>)))');
    assert.deepEqual(parseForm(printForm(f)), f);
    assert.equal(syntaxError('(AND @foo x)').details?.production, '[1] Form');
  });

  it('reads relation paths in ARGMAX and lowercase GrailQA comparison operators', () => {
    const f = parseForm('(ARGMAX (AND a.b (JOIN r m.01)) (JOIN (R x.y) x.z))');
    assert.equal(printForm(f), '(ARGMAX (AND a.b (JOIN r m.01)) (JOIN (R x.y) x.z))');
    const g = parseForm('(AND c (le r 2008-05-08^^http://www.w3.org/2001/XMLSchema#date))');
    assert.equal(printForm(g), '(AND c (LE r 2008-05-08))');
  });
});

describe('form: syntax errors', () => {
  it('gives line, column, a caret excerpt and the production that failed', () => {
    const e = syntaxError('(JOIN (R directed_by)\n  (FOO [ x ]))');
    assert.equal(e.code, 'FORM_SYNTAX');
    assert.equal(e.details?.line, 2);
    assert.equal(e.details.column, 4);
    assert.equal(e.details.production, '[2] Expression');
    assert.match(String(e.details.excerpt), /\(FOO \[ x \]\)\)\n {3}\^/);
  });

  it('rejects unbalanced, empty and trailing input with the right production', () => {
    assert.equal(syntaxError('(JOIN r [ x ]').details?.production, '[3] Join');
    assert.equal(syntaxError('(JOIN r [ x ]))').details?.production, '[1] Form');
    assert.equal(syntaxError('').details?.production, '[1] Form');
    assert.equal(syntaxError('(JOIN r [ ])').details?.production, '[12] Label');
    assert.equal(syntaxError('(JOIN r [ x').details?.production, '[12] Label');
    assert.equal(syntaxError('(JOIN (AND r) [ x ])').details?.production, '[10] Relation');
    assert.equal(syntaxError('(JOIN m.0abc [ x ])').details?.production, '[10] Relation');
    assert.equal(syntaxError('(GT r (COUNT x))').details?.production, '[10] Relation'); // a literal ([7]) or a second relation ([36]), never a form
    assert.equal(syntaxError('(HAVING (GROUPCOUNT c r) GT notaliteral)').details?.production, '[13] Literal');
    assert.equal(syntaxError('(R r)').details?.production, '[2] Expression');
    assert.equal(syntaxError('(JOIN r "open)').details?.production, '[16] String');
  });

  it('refuses huge inputs with INPUT_TOO_LARGE', () => {
    const e = syntaxError('(COUNT '.repeat(20000) + 'x' + ')'.repeat(20000));
    assert.equal(e.code, 'INPUT_TOO_LARGE');
    const deep = syntaxError('(COUNT '.repeat(5000) + '[ x ]' + ')'.repeat(5000));
    assert.equal(deep.code, 'FORM_SYNTAX');
    assert.match(deep.message, /nest at most/);
  });
});

describe('form: normal form and skeleton', () => {
  it('orders and flattens AND operands', () => {
    const a = parseForm('(AND (JOIN b [ y ]) (AND c (JOIN a [ x ])))');
    const b = parseForm('(AND (AND (JOIN a [ x ]) (JOIN b [ y ])) c)');
    assert.ok(formsEqual(a, b));
    assert.equal(canonicalText(a), '(AND (JOIN a [ x ]) (AND (JOIN b [ y ]) c))');
    assert.ok(!formsEqual(a, parseForm('(AND (JOIN b [ x ]) (AND c (JOIN a [ y ])))')));
  });

  it('replaces entities, relations, classes and literals by holes, keeping R and operators', () => {
    assert.equal(skeleton(parseForm('(JOIN (R directed_by) [ Forrest Gump ])')), '(JOIN (R []) [])');
    assert.equal(skeleton(parseForm('(AND c (GT r 5))')), skeleton(parseForm('(AND (GT q 7) d)')));
    assert.equal(skeleton(parseForm('(COUNT (AND c (GT r 5)))')), '(COUNT (AND (GT [] []) []))');
  });

  it('mapRefs rewrites label entities to IRIs (as grounding does)', () => {
    const f = parseForm('(JOIN (R directed_by) [ Forrest Gump ])');
    const g = mapRefs(f, {
      entity: (r) => (r.kind === 'label' ? { kind: 'iri', iri: 'http://e/' + encodeURIComponent(r.label) } : r),
      relation: (r) => (r.kind === 'name' ? { kind: 'iri', iri: 'http://r/' + r.name } : r),
    });
    assert.equal(printForm(g), '(JOIN (R <http://r/directed_by>) <http://e/Forrest%20Gump>)');
    assert.equal(printForm(f), '(JOIN (R directed_by) [ Forrest Gump ])', 'the original is unchanged');
  });

  it('mapChildren replaces the direct sub-forms left to right and keeps the operator, relation and leaves', () => {
    const seen: string[] = [];
    const wrap = (c: Form): Form => (seen.push(printForm(c)), { kind: 'count', arg: c });
    const f = parseForm('(AND (JOIN r [ A ]) (ARGMAX (JOIN q [ B ]) year))');
    assert.equal(printForm(mapChildren(f, wrap)), '(AND (COUNT (JOIN r [ A ])) (COUNT (ARGMAX (JOIN q [ B ]) year)))');
    assert.deepEqual(seen, ['(JOIN r [ A ])', '(ARGMAX (JOIN q [ B ]) year)']);
    assert.equal(printForm(mapChildren(parseForm('(ARGMAX (JOIN q [ B ]) year)'), wrap)), '(ARGMAX (COUNT (JOIN q [ B ])) year)');
    seen.length = 0;
    for (const leaf of ['[ A ]', '(GT year 1990)', '(HAS r)']) {
      const form = parseForm(leaf);
      assert.equal(mapChildren(form, wrap), form, leaf);
    }
    assert.deepEqual(seen, [], 'leaves have no sub-forms');
  });
});

describe('form: coverage of the data sets', () => {
  it('parses and round-trips all 1,000 GrailQA dev s_expressions', function () {
    const file = path.join(packageRoot(), 'fixtures', 'grailqa', 'grailqa_dev_sexpr.json');
    const forms: string[] = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(forms.length, 1000);
    for (const text of forms) {
      const f = parseForm(text);
      assert.deepEqual(parseForm(printForm(f)), f, text);
      assert.ok(formsEqual(parseForm(printForm(normalizeForm(f))), f), text);
    }
  });

  it('parses and round-trips every MetaQA validation form', () => {
    const file = path.join(packageRoot(), 'fixtures', 'metaqa', 'valid.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
    for (const line of lines) {
      const { form } = JSON.parse(line) as { form: string };
      assert.equal(printForm(parseForm(form)), form);
    }
  });
});

describe('form: property test', () => {
  const name = fc.stringMatching(/^[a-z][a-z0-9_.]{0,12}$/).filter((s) => !/^[mg]\./.test(s));
  const labelText = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() === s && s.length > 0);
  const ref: fc.Arbitrary<Ref> = fc.oneof(
    name.map((n): Ref => ({ kind: 'name', name: n })),
    labelText.map((l): Ref => ({ kind: 'label', label: l })),
    fc.webUrl().map((u): Ref => ({ kind: 'iri', iri: u })),
  );
  const literal: fc.Arbitrary<Literal> = fc.oneof(
    fc.integer().map((n): Literal => ({ kind: 'literal', value: String(n), datatype: XSD + 'integer' })),
    fc.string({ maxLength: 10 }).map((s): Literal => ({ kind: 'literal', value: s, datatype: XSD + 'string' })),
    fc.date({ min: new Date('1000-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }).map(
      (d): Literal => ({ kind: 'literal', value: d.toISOString().slice(0, 10), datatype: XSD + 'date' }),
    ),
  );
  const { relation } = fc.letrec<{ relation: Relation }>((tie) => ({
    relation: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      ref.map((r): Relation => ({ kind: 'rel', ref: r })),
      tie('relation').map((r): Relation => ({ kind: 'reverse', of: r })),
    ),
  }));
  const { form } = fc.letrec<{ form: Form }>((tie) => ({
    form: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      ref.filter((r) => r.kind !== 'name').map((r): Form => ({ kind: 'entity', ref: r })),
      literal,
      ref.map((r): Form => ({ kind: 'class', ref: r })),
      fc.record({ relation, arg: tie('form') }).map((x): Form => ({ kind: 'join', ...x })),
      fc.tuple(tie('form'), tie('form')).map(([a, b]): Form => ({ kind: 'and', args: [a, b] })),
      tie('form').map((arg): Form => ({ kind: 'count', arg })),
      fc.record({ op: fc.constantFrom('ARGMAX' as const, 'ARGMIN' as const), arg: tie('form'), relation }).map((x): Form => ({ kind: 'arg', ...x })),
      fc.record({ op: fc.constantFrom('GT' as const, 'GE' as const, 'LT' as const, 'LE' as const), relation, value: literal }).map(
        (x): Form => ({ kind: 'compare', ...x }),
      ),
      fc.tuple(tie('form'), tie('form')).map(([a, b]): Form => ({ kind: 'arith', op: 'ABSDIFF', args: [a, b] })),
      // form language v3 ([31]–[38])
      fc
        .record({ arg: tie('form'), columns: fc.array(fc.oneof(relation, fc.tuple(relation, relation).map(([a, b]): Column => ({ kind: 'minus', args: [a, b] }))), { minLength: 1, maxLength: 3 }) })
        .map((x): Form => ({ kind: 'table', ...x })),
      fc.record({ op: fc.constantFrom('GROUPCOUNT' as const), arg: tie('form'), by: relation }).map((x): Form => ({ kind: 'group', ...x })),
      fc.record({ op: fc.constantFrom('GROUPSUM' as const, 'GROUPAVG' as const, 'GROUPMAX' as const, 'GROUPMIN' as const), arg: tie('form'), by: relation, value: relation }).map((x): Form => ({ kind: 'group', ...x })),
      fc.record({ arg: tie('form'), op: fc.constantFrom('GT' as const, 'GE' as const, 'LT' as const, 'LE' as const), value: literal }).map((x): Form => ({ kind: 'having', ...x })),
      fc.record({ op: fc.constantFrom('ASC' as const, 'DESC' as const), arg: tie('form'), relation: fc.option(relation, { nil: undefined }) }).map(({ relation: r, ...x }): Form => ({ kind: 'order', ...x, ...(r ? { relation: r } : {}) })),
      fc.record({ op: fc.constantFrom('LIMIT' as const, 'OFFSET' as const), n: fc.nat({ max: 1000 }), arg: tie('form') }).map((x): Form => ({ kind: 'slice', ...x })),
      fc.record({ op: fc.constantFrom('GT' as const, 'GE' as const, 'LT' as const, 'LE' as const), relation, other: relation }).map((x): Form => ({ kind: 'attrcompare', ...x })),
      fc.record({ op: fc.constantFrom('MORE' as const, 'LESS' as const), args: fc.tuple(tie('form'), tie('form')) }).map((x): Form => ({ kind: 'more', ...x })),
      fc.record({ relation: fc.option(relation, { nil: undefined }), text: labelText }).map(({ relation: r, text }): Form => ({ kind: 'contains', text, ...(r ? { relation: r } : {}) })),
    ),
  }));

  it('parse(print(x)) equals x for random forms', () => {
    fc.assert(fc.property(form, (f) => assert.deepEqual(parseForm(printForm(f)), f)), { numRuns: 2000, seed: 20261122 });
  });

  it('normalisation is idempotent and keeps equality', () => {
    fc.assert(
      fc.property(form, (f) => {
        const n = normalizeForm(f);
        assert.deepEqual(normalizeForm(n), n);
        assert.ok(formsEqual(n, f));
      }),
      { numRuns: 1000, seed: 20261122 },
    );
  });
});

describe('form language v2: ASK, DIFF, OR, aggregates, RATIO, MOSTCOMMON, ARGMAXCOUNT', () => {
  const forms = [
    '(ASK (AND [ Jaws ] (JOIN directed_by [ Steven Spielberg ])))',
    '(DIFF (JOIN starred_actors [ Tom Hanks ]) (JOIN directed_by [ Ron Howard ]))',
    '(ARGMIN (OR [ Heat ] [ Casino ]) release_year)',
    '(AVG (JOIN (R rating) (AND Bakery (JOIN inTown [ harlow bend ]))))',
    '(SUM (JOIN (R runtime) (JOIN directed_by [ X ])))',
    '(MAX (JOIN (R release_year) (JOIN directed_by [ X ])))',
    '(MIN (JOIN (R release_year) (JOIN directed_by [ X ])))',
    '(RATIO (AND Dragon (JOIN alignment [ chaotic ])) Dragon)',
    '(PERCENT (AND Dragon (JOIN alignment [ chaotic ])) Dragon)',
    '(MOSTCOMMON (JOIN directed_by [ Alfred Hitchcock ]) has_genre)',
    '(LEASTCOMMON (JOIN directed_by [ Alfred Hitchcock ]) has_genre)',
    '(ARGMAXCOUNT State borders)',
    '(ARGMINCOUNT State (R borders))',
    '(AND Restaurant (HAS houseNumber))',
  ];
  for (const text of forms) {
    it(`parse ∘ print is the identity: ${text}`, () => {
      const f = parseForm(text);
      assert.equal(printForm(f), text);
      assert.deepEqual(parseForm(printForm(f)), f);
    });
  }

  it('parses each operator into its AST node', () => {
    assert.deepEqual(parseForm('(ASK [ A ])'), { kind: 'ask', arg: { kind: 'entity', ref: { kind: 'label', label: 'A' } } });
    assert.equal(parseForm('(OR [ A ] [ B ])').kind, 'or');
    assert.equal(parseForm('(DIFF [ A ] [ B ])').kind, 'diff');
    assert.deepEqual(parseForm('(SUM c)'), { kind: 'aggregate', op: 'SUM', arg: { kind: 'class', ref: { kind: 'name', name: 'c' } } });
    assert.deepEqual(parseForm('(PERCENT a b)').kind, 'ratio');
    const mc = parseForm('(MOSTCOMMON c (R r))');
    assert.ok(mc.kind === 'common' && mc.op === 'MOSTCOMMON' && mc.relation.kind === 'reverse');
    const ac = parseForm('(ARGMINCOUNT c r)');
    assert.ok(ac.kind === 'argcount' && ac.op === 'ARGMINCOUNT');
  });

  it('errors cite the production of the new operator', () => {
    assert.match(syntaxError('(MOSTCOMMON [ A ] 1990)').message, /production \[10\] Relation/);
    assert.match(syntaxError('(OR [ A ])').message, /\[1\] Form|\[24\] Or/);
    const e = syntaxError('(ASK [ A ] [ B ])');
    assert.equal(e.details?.production, '[22] Ask');
    assert.equal(syntaxError('(RATIO [ A ] [ B ] [ C ])').details?.production, '[26] Ratio');
    assert.match(syntaxError('(AVERAGE [ A ])').message, /unknown operator 'AVERAGE'.*ASK, DIFF, OR, AVG/);
  });

  it('answerTypeOf: boolean for ASK, number for COUNT / aggregates / ratios, entities otherwise', () => {
    const t = (s: string) => answerTypeOf(parseForm(s));
    assert.equal(t('(ASK [ A ])'), 'boolean');
    for (const s of ['(COUNT [ A ])', '(AVG [ A ])', '(SUM [ A ])', '(MAX [ A ])', '(MIN [ A ])', '(RATIO [ A ] [ B ])', '(PERCENT [ A ] [ B ])']) assert.equal(t(s), 'number', s);
    for (const s of ['[ A ]', '(OR [ A ] [ B ])', '(DIFF [ A ] [ B ])', '(MOSTCOMMON [ A ] r)', '(ARGMAXCOUNT [ A ] r)', '(JOIN r [ A ])']) assert.equal(t(s), 'entities', s);
  });

  it('typeErrors: a number or a boolean where a set is expected', () => {
    assert.deepEqual(typeErrors(parseForm('(ASK (AND [ A ] (JOIN r [ B ])))')), []);
    assert.match(typeErrors(parseForm('(AND (ASK [ A ]) [ B ])'))[0]!, /\(ASK \[ A \]\) is a boolean, but AND needs a set/);
    assert.match(typeErrors(parseForm('(COUNT (AVG [ A ]))'))[0]!, /is a number, but COUNT needs a set/);
  });

  it('OR is commutative and associative in the normal form; DIFF is not commutative', () => {
    assert.ok(formsEqual(parseForm('(OR [ A ] (OR [ B ] [ C ]))'), parseForm('(OR (OR [ C ] [ A ]) [ B ])')));
    assert.ok(!formsEqual(parseForm('(DIFF [ A ] [ B ])'), parseForm('(DIFF [ B ] [ A ])')));
    assert.ok(formsEqual(parseForm('(DIFF (AND [ A ] [ B ]) [ C ])'), parseForm('(DIFF (AND [ B ] [ A ]) [ C ])')));
    // one set, two spellings: a subtraction inside AND, and subtractions in either order
    assert.ok(formsEqual(parseForm('(AND [ A ] (DIFF [ B ] [ C ]))'), parseForm('(DIFF (AND [ B ] [ A ]) [ C ])')));
    assert.ok(formsEqual(parseForm('(DIFF (DIFF [ A ] [ B ]) [ C ])'), parseForm('(DIFF (DIFF [ A ] [ C ]) [ B ])')));
    assert.equal(skeleton(parseForm('(MOSTCOMMON (JOIN r [ A ]) (R s))')), '(MOSTCOMMON (JOIN [] []) (R []))');
    assert.equal(skeleton(parseForm('(OR [ B ] (JOIN r [ A ]))')), skeleton(parseForm('(OR (JOIN s [ C ]) [ D ])')));
  });

  it('mapRefs reaches entities, relations and classes inside every new operator', () => {
    const f = parseForm('(PERCENT (DIFF (OR [ a ] c) (JOIN r [ b ])) (MOSTCOMMON (ARGMAXCOUNT [ d ] s) t))');
    assert.deepEqual(entityRefs(f).map((r) => (r.kind === 'label' ? r.label : '')), ['a', 'b', 'd']);
    assert.deepEqual(relationRefs(f).map((r) => (r.kind === 'name' ? r.name : '')), ['r', 's', 't']);
    assert.equal(canonicalText(mapRefs(f, { cls: () => ({ kind: 'name', name: 'k' }) })), canonicalText(parseForm('(PERCENT (DIFF (OR [ a ] k) (JOIN r [ b ])) (MOSTCOMMON (ARGMAXCOUNT [ d ] s) t))')));
  });
});

describe('[30] Arith: ABSDIFF', () => {
  const A = '(JOIN (R release_year) [ Jaws ])';
  const B = '(JOIN (R release_year) (JOIN directed_by [ Michael Mann ]))';

  it('parse ∘ print is the identity, into an arith node with two operands', () => {
    const text = `(ABSDIFF ${A} ${B})`;
    const f = parseForm(text);
    assert.equal(printForm(f), text);
    assert.ok(f.kind === 'arith');
    assert.equal(f.op, 'ABSDIFF');
    assert.deepEqual(f.args, [parseForm(A), parseForm(B)]);
  });

  it('errors cite [30] Arith', () => {
    assert.equal(syntaxError(`(ABSDIFF ${A})`).details?.production, '[1] Form');
    assert.equal(syntaxError(`(ABSDIFF ${A} ${B} ${A})`).details?.production, '[30] Arith');
    assert.match(syntaxError('(ABSDIF [ A ] [ B ])').message, /unknown operator 'ABSDIF'.*ABSDIFF/);
  });

  it('is a number, stands only outermost, and needs set operands', () => {
    assert.equal(answerTypeOf(parseForm(`(ABSDIFF ${A} ${B})`)), 'number');
    assert.deepEqual(typeErrors(parseForm(`(ABSDIFF ${A} ${B})`)), []);
    assert.match(typeErrors(parseForm(`(COUNT (ABSDIFF ${A} ${B}))`))[0]!, /is a number, but COUNT needs a set/);
    assert.match(typeErrors(parseForm(`(ABSDIFF (COUNT ${A}) ${B})`))[0]!, /is a number, but ABSDIFF needs a set/);
  });

  it('is symmetric in the normal form and the skeleton (|a − b| = |b − a|)', () => {
    assert.ok(formsEqual(parseForm(`(ABSDIFF ${A} ${B})`), parseForm(`(ABSDIFF ${B} ${A})`)));
    assert.ok(!formsEqual(parseForm(`(ABSDIFF ${A} ${B})`), parseForm(`(ABSDIFF ${A} ${A})`)));
    assert.ok(!formsEqual(parseForm(`(ABSDIFF ${A} ${B})`), parseForm(`(RATIO ${A} ${B})`)));
    assert.equal(skeleton(parseForm(`(ABSDIFF ${A} ${B})`)), skeleton(parseForm(`(ABSDIFF ${B} ${A})`)));
    assert.equal(skeleton(parseForm(`(ABSDIFF ${A} ${A})`)), '(ABSDIFF (JOIN (R []) []) (JOIN (R []) []))');
  });

  it('diffForms: swapped operands are no change; another operand is one substitution under ABSDIFF', () => {
    const swapped = diffForms(parseForm(`(ABSDIFF ${A} ${B})`), parseForm(`(ABSDIFF ${B} ${A})`));
    assert.ok(!swapped.equal && swapped.equalNormalized);
    assert.deepEqual(swapped.changes, []);
    const other = diffForms(parseForm(`(ABSDIFF ${A} ${B})`), parseForm(`(ABSDIFF ${A} (JOIN (R release_year) [ Heat ]))`));
    assert.ok(!other.equalNormalized && !other.sameSkeleton);
    assert.ok(other.changes.length >= 1 && other.changes.every((c) => c.path.startsWith('/args[')), JSON.stringify(other.changes));
  });

  it('mapRefs and the ref lists reach both operands', () => {
    const f = parseForm(`(ABSDIFF ${A} ${B})`);
    assert.deepEqual(entityRefs(f).map((r) => (r.kind === 'label' ? r.label : '')), ['Jaws', 'Michael Mann']);
    assert.deepEqual(relationRefs(f).map((r) => (r.kind === 'name' ? r.name : '')), ['release_year', 'release_year', 'directed_by']);
    const mapped = mapRefs(f, { entity: (r) => (r.kind === 'label' ? { kind: 'iri', iri: `http://e/${r.label.replace(/ /g, '_')}` } : r) });
    assert.equal(printForm(mapped), '(ABSDIFF (JOIN (R release_year) <http://e/Jaws>) (JOIN (R release_year) (JOIN directed_by <http://e/Michael_Mann>)))');
  });
});
