/**
 * Form language v3 (grammar/logical-form.ebnf [31]–[38]): parser, printer, answer types, type errors, normal form,
 * skeleton and diff of the table productions.
 */
import { strict as assert } from 'node:assert';
import { answerTypeOf, canonicalText, diffForms, formsEqual, normalizeForm, parseForm, printForm, skeleton, typeErrors } from '../../../src/form';
import { isAskgraphError } from '../../../src/core';

/** One example per production, as the grammar file documents it. */
const EXAMPLES: [string, string, 'table' | 'boolean' | 'entities'][] = [
  ['[31] Table', '(TABLE (JOIN directed_by [ Stanley Kubrick ]) release_year written_by)', 'table'],
  ['[31] Column MINUS', '(TABLE Restaurant (MINUS rating houseNumber))', 'table'],
  ['[32] GROUPCOUNT', '(GROUPCOUNT (HAS directed_by) directed_by)', 'table'],
  ['[32] GROUPAVG', '(GROUPAVG Restaurant inCity rating)', 'table'],
  ['[32] GROUPSUM', '(GROUPSUM Restaurant foodType rating)', 'table'],
  ['[32] GROUPMAX', '(GROUPMAX Restaurant inCity rating)', 'table'],
  ['[32] GROUPMIN', '(GROUPMIN (HAS has_genre) has_genre release_year)', 'table'],
  ['[33] Having', '(HAVING (GROUPCOUNT (HAS directed_by) directed_by) GT 10)', 'table'],
  ['[34] Order with a relation', '(DESC (JOIN directed_by [ Steven Spielberg ]) release_year)', 'table'],
  ['[34] Order of a set', '(ASC (JOIN directed_by [ Stanley Kubrick ]))', 'table'],
  ['[34] Order of a table', '(ASC (TABLE (JOIN directed_by [ X ]) release_year))', 'table'],
  ['[35] Slice', '(LIMIT 3 (DESC (GROUPCOUNT (JOIN starred_actors [ Tom Hanks ]) starred_actors)))', 'table'],
  ['[35] Slice with OFFSET', '(LIMIT 5 (OFFSET 5 (DESC Restaurant rating)))', 'table'],
  ['[36] AttrCompare', '(AND Restaurant (GT rating houseNumber))', 'entities'],
  ['[37] More', '(MORE (COUNT (JOIN directed_by [ Steven Spielberg ])) (COUNT (JOIN directed_by [ Stanley Kubrick ])))', 'boolean'],
  ['[37] Less', '(LESS (AVG (JOIN (R rating) (JOIN inCity [ a ]))) (AVG (JOIN (R rating) (JOIN inCity [ b ]))))', 'boolean'],
  ['[38] Contains', '(AND Restaurant (CONTAINS [ pizza ]))', 'entities'],
  ['[38] Contains on a relation', '(AND Restaurant (CONTAINS streetName [ main ]))', 'entities'],
  ['[38] Contains on a relation named by a label', '(AND Restaurant (CONTAINS [ street name ] [ main st ]))', 'entities'],
  ['[38] Contains of an escaped text', '(CONTAINS [ a\\]b\\\\c ])', 'entities'],
];

describe('form language v3: tables, order, windows, value comparisons, text containment', () => {
  for (const [production, text, type] of EXAMPLES) {
    it(`${production}: parse ∘ print is the identity, answer type ${type}, well typed — ${text}`, () => {
      const f = parseForm(text);
      assert.equal(printForm(f), text);
      assert.deepEqual(parseForm(printForm(f)), f);
      assert.equal(answerTypeOf(f), type);
      assert.deepEqual(typeErrors(f), []);
    });
  }

  it('parses each production into its AST node', () => {
    assert.deepEqual(parseForm('(TABLE c r1 (MINUS r2 r3))'), {
      kind: 'table',
      arg: { kind: 'class', ref: { kind: 'name', name: 'c' } },
      columns: [
        { kind: 'rel', ref: { kind: 'name', name: 'r1' } },
        { kind: 'minus', args: [{ kind: 'rel', ref: { kind: 'name', name: 'r2' } }, { kind: 'rel', ref: { kind: 'name', name: 'r3' } }] },
      ],
    });
    const g = parseForm('(GROUPAVG c (R by) v)');
    assert.ok(g.kind === 'group' && g.op === 'GROUPAVG' && g.by.kind === 'reverse' && g.value?.kind === 'rel');
    const gc = parseForm('(GROUPCOUNT c by)');
    assert.ok(gc.kind === 'group' && gc.value === undefined);
    const h = parseForm('(HAVING (GROUPCOUNT c r) le 3)');
    assert.ok(h.kind === 'having' && h.op === 'LE' && h.value.value === '3');
    const o = parseForm('(DESC c)');
    assert.ok(o.kind === 'order' && o.op === 'DESC' && o.relation === undefined);
    const s = parseForm('(OFFSET 0 (ASC c))');
    assert.ok(s.kind === 'slice' && s.op === 'OFFSET' && s.n === 0);
    // a second relation where [7] has its literal is [36]; a literal stays [7]
    assert.equal(parseForm('(GT r1 r2)').kind, 'attrcompare');
    assert.equal(parseForm('(GT r1 1990)').kind, 'compare');
    assert.equal(parseForm('(GE r1 "x")').kind, 'compare');
    assert.equal(parseForm('(LT r1 (R r2))').kind, 'attrcompare');
    const c = parseForm('(CONTAINS [ a.*( ])');
    assert.deepEqual(c, { kind: 'contains', text: 'a.*(' });
    // the text is never an entity: the bracket after CONTAINS is its text, a bracket before it a relation label
    assert.deepEqual(parseForm('(CONTAINS name [ new york ])'), { kind: 'contains', relation: { kind: 'rel', ref: { kind: 'name', name: 'name' } }, text: 'new york' });
    assert.deepEqual(parseForm('(CONTAINS [ street ] [ main ])'), { kind: 'contains', relation: { kind: 'rel', ref: { kind: 'label', label: 'street' } }, text: 'main' });
    assert.equal(parseForm('(MORE (COUNT a) (COUNT b))').kind, 'more');
  });

  it('refuses malformed v3 forms with FORM_SYNTAX naming the production', () => {
    const bad: [string, RegExp][] = [
      ['(TABLE c)', /\[10\] Relation|\[31\]/],
      ['(LIMIT -1 (ASC c))', /\[35\] Slice/],
      ['(LIMIT 2.5 (ASC c))', /\[35\] Slice/],
      ['(LIMIT x (ASC c))', /\[35\] Slice/],
      ['(HAVING (GROUPCOUNT c r) EQ 3)', /\[33\] Having/],
      ['(HAVING (GROUPCOUNT c r) GT r)', /\[13\] Literal/],
      ['(CONTAINS 12)', /\[38\] Contains/],
      ['(CONTAINS r)', /bracketed span.*\[38\] Contains/],
      ['(CONTAINS [ x ] r)', /bracketed span.*\[38\] Contains/],
      // one way to write the text: the quoted string of the first v3 forms is refused, naming the bracket form
      ['(CONTAINS "pizza")', /write \(CONTAINS \[ pizza \]\) \(production \[38\] Contains\)/],
      ['(CONTAINS name "a]b")', /write \(CONTAINS … \[ a\\\]b \]\)/],
      ['(CONTAINS [ ])', /empty label/],
      ['(GROUPAVG c r)', /\[10\] Relation|\[32\]/],
      ['(TABLE c (MINUS r))', /\[10\] Relation|\[31\]/],
    ];
    for (const [text, production] of bad) {
      try {
        parseForm(text);
        assert.fail(`${text} parsed`);
      } catch (e) {
        assert.ok(isAskgraphError(e) && e.code === 'FORM_SYNTAX', `${text}: ${String(e)}`);
        assert.match(e.message, production, text);
      }
    }
  });

  it('type errors: tables and booleans stand only outermost or where an operator takes them', () => {
    const errs = (t: string) => typeErrors(parseForm(t));
    assert.match(errs('(JOIN r (TABLE c r))')[0] ?? '', /is a table, but JOIN needs a set/);
    assert.match(errs('(COUNT (GROUPCOUNT c r))')[0] ?? '', /is a table/);
    assert.match(errs('(AND c (MORE (COUNT a) (COUNT b)))')[0] ?? '', /is a boolean/);
    assert.match(errs('(HAVING (DESC c r) GT 1)')[0] ?? '', /not a GROUP table/);
    assert.match(errs('(HAVING (TABLE c r) GT 1)')[0] ?? '', /not a GROUP table/);
    assert.match(errs('(LIMIT 3 (GROUPCOUNT c r))')[0] ?? '', /not ordered/);
    assert.match(errs('(LIMIT 3 c)')[0] ?? '', /not ordered/);
    assert.match(errs('(MORE c d)')[0] ?? '', /is a set, but MORE needs a number/);
    assert.match(errs('(ASC (ASC c))')[0] ?? '', /needs a set or a TABLE/);
    assert.match(errs('(DESC (GROUPCOUNT c r) r)').join(' '), /drop the relation/);
    assert.deepEqual(errs('(LIMIT 1 (OFFSET 2 (ASC (HAVING (GROUPCOUNT c r) GT 1))))'), []);
    assert.deepEqual(errs('(MORE (RATIO a b) (ABSDIFF c d))'), []);
  });

  it('normal form: LESS is MORE with its operands swapped, a window is LIMIT over OFFSET, HAVING tests in one order', () => {
    assert.ok(formsEqual(parseForm('(LESS (COUNT a) (COUNT b))'), parseForm('(MORE (COUNT b) (COUNT a))')));
    assert.ok(!formsEqual(parseForm('(MORE (COUNT a) (COUNT b))'), parseForm('(MORE (COUNT b) (COUNT a))')));
    assert.equal(canonicalText(parseForm('(OFFSET 2 (LIMIT 5 (DESC c r)))')), '(LIMIT 3 (OFFSET 2 (DESC c r)))');
    assert.ok(formsEqual(parseForm('(HAVING (HAVING (GROUPCOUNT c r) GE 10) LE 30)'), parseForm('(HAVING (HAVING (GROUPCOUNT c r) LE 30) GE 10)')));
    assert.ok(formsEqual(parseForm('(TABLE (AND a b) r)'), parseForm('(TABLE (AND b a) r)')));
    const f = parseForm('(LIMIT 2 (DESC (HAVING (GROUPAVG (AND b a) r v) GT 1)))');
    assert.deepEqual(normalizeForm(normalizeForm(f)), normalizeForm(f));
  });

  it('skeletons keep operators and relation shapes, not names or numbers', () => {
    assert.equal(skeleton(parseForm('(LIMIT 3 (DESC (GROUPCOUNT (JOIN a [ X ]) (R b))))')), '(LIMIT [] (DESC (GROUPCOUNT (JOIN [] []) (R []))))');
    assert.equal(skeleton(parseForm('(TABLE c r (MINUS a b))')), '(TABLE [] [] (MINUS [] []))');
    assert.equal(skeleton(parseForm('(LESS (COUNT a) (AVG b))')), skeleton(parseForm('(MORE (AVG b) (COUNT a))')));
    assert.equal(skeleton(parseForm('(CONTAINS r [ x ])')), '(CONTAINS [] [])');
    assert.equal(skeleton(parseForm('(HAVING (GROUPCOUNT c r) GT 3)')), '(HAVING (GROUPCOUNT [] []) GT [])');
  });

  it('diff: a changed LIMIT, column relation or CONTAINS text is a literal / relation change', () => {
    const d1 = diffForms(parseForm('(LIMIT 3 (DESC c r))'), parseForm('(LIMIT 5 (DESC c r))'));
    assert.ok(d1.sameSkeleton && d1.changes.some((c) => c.kind === 'literal' && c.a === '3' && c.b === '5'), JSON.stringify(d1.changes));
    const d2 = diffForms(parseForm('(TABLE c r1 r2)'), parseForm('(TABLE c r1 r3)'));
    assert.ok(d2.changes.some((c) => c.kind === 'relation' && c.a === 'r2' && c.b === 'r3'), JSON.stringify(d2.changes));
    const d3 = diffForms(parseForm('(CONTAINS [ a ])'), parseForm('(CONTAINS [ b ])'));
    assert.ok(d3.changes.some((c) => c.kind === 'literal' && c.a === '[ a ]' && c.b === '[ b ]'), JSON.stringify(d3.changes));
    assert.ok(diffForms(parseForm('(LESS (COUNT a) (COUNT b))'), parseForm('(MORE (COUNT b) (COUNT a))')).equalNormalized);
  });
});
