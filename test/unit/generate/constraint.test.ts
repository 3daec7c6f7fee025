import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { formsEqual, parseForm } from '../../../src/form';
import { GrammarConstraint, isLiteralSymbol, TargetVocabulary, tokensToFormText } from '../../../src/generate';

// A synthetic model config: 10 sentencepiece ids (0 unk, 1 bos, 2 eos, 3 pad), the form symbols, 3 relations.
const OPS = ['(', ')', '[', ']', 'JOIN', 'R', 'AND', 'COUNT', 'ARGMAX', 'ARGMIN', 'GT', 'GE', 'LT', 'LE', 'TC'];
const RELS = ['directed_by', 'release_year', 'starred_actors'];
const S = 10;
const vocab: TargetVocabulary = { pieces: S, symbols: [...OPS, ...RELS], relations: RELS, eos: 2, special: [1, 2, 3] };
const id = (sym: string, v: TargetVocabulary = vocab): number => {
  const i = v.symbols.indexOf(sym);
  assert.ok(i >= 0, sym);
  return v.pieces + i;
};
const names = (ids: number[], v: TargetVocabulary = vocab): string[] =>
  ids.map((t) => (t === v.eos ? '<eos>' : t >= v.pieces ? v.symbols[t - v.pieces]! : `p${t}`)).sort();
// source: piece ids 5 6 7 8 6 7 9 (6 7 occurs twice)
const SRC = [5, 6, 7, 8, 6, 7, 9];
const decode = (ids: number[]): string => ids.map((i) => `p${i}`).join(' ');
const toks = (c: GrammarConstraint, words: string): number[] =>
  words
    .split(' ')
    .filter(Boolean)
    .map((w) => (w === '<eos>' ? c.eos : /^p\d+$/.test(w) ? Number(w.slice(1)) : id(w, c.vocab)));

describe('generate/constraint: grammar automaton over target tokens', () => {
  const c = new GrammarConstraint(vocab, SRC);

  it('starts a form with [ or (, and offers only operators that can complete after (', () => {
    assert.deepEqual(names(c.allowed(c.initial())), ['(', '[']);
    // no literal symbols in this vocabulary → no TC; GT/GE/LT/LE only as comparisons of two relations ([36])
    assert.deepEqual(names(c.allowed(c.run(toks(c, '(')))), ['AND', 'ARGMAX', 'ARGMIN', 'COUNT', 'GE', 'GT', 'JOIN', 'LE', 'LT']);
    assert.deepEqual(names(c.allowed(c.run(toks(c, '( GT release_year')))), ['(', ...RELS].sort());
  });

  it('admits only relations (or "(" for R) in relation slots, only R after that "(", and no second R inside (R …)', () => {
    assert.deepEqual(names(c.allowed(c.run(toks(c, '( JOIN')))), ['(', ...RELS].sort());
    assert.deepEqual(names(c.allowed(c.run(toks(c, '( JOIN (')))), ['R']);
    // (R (R r)) is r itself: a beam that wandered into it once wrote (R (R (R … (R r)))) on a graph-restricted open model
    assert.deepEqual(names(c.allowed(c.run(toks(c, '( JOIN ( R')))), [...RELS].sort());
    assert.throws(() => c.run(toks(c, '( JOIN ( R (')));
    assert.deepEqual(names(c.allowed(c.run(toks(c, '( JOIN ( R directed_by')))), [')']);
    assert.deepEqual(names(c.allowed(c.run(toks(c, '( JOIN ( R directed_by )')))), ['(', '[']);
  });

  it('restricts relation slots to a caller-given set (intersected with the vocabulary)', () => {
    const r = new GrammarConstraint(vocab, SRC, { relations: ['directed_by', 'not_in_model'] });
    assert.deepEqual(names(r.allowed(r.run(toks(r, '( JOIN')))), ['(', 'directed_by']);
    assert.throws(() => r.run(toks(r, '( JOIN starred_actors')), /not allowed/);
    // no relation at all: JOIN/ARGMAX/ARGMIN disappear, AND/COUNT stay
    const none = new GrammarConstraint(vocab, SRC, { relations: [] });
    assert.deepEqual(names(none.allowed(none.run(toks(none, '(')))), ['AND', 'COUNT']);
  });

  it('copies only contiguous spans of the source pieces, tracking repeated pieces', () => {
    assert.deepEqual(names(c.allowed(c.run(toks(c, '[')))), ['p5', 'p6', 'p7', 'p8', 'p9']);
    assert.deepEqual(names(c.allowed(c.run(toks(c, '[ p6')))), [']', 'p7']);
    // p6 p7 occurs at 1-2 and 4-5: next may be p8 (pos 3) or p9 (pos 6)
    assert.deepEqual(names(c.allowed(c.run(toks(c, '[ p6 p7')))), [']', 'p8', 'p9']);
    assert.deepEqual(names(c.allowed(c.run(toks(c, '[ p6 p7 p9')))), [']']);
    assert.deepEqual(names(c.allowed(c.run(toks(c, '[ p9')))), [']']);
    assert.throws(() => c.run(toks(c, '[ p5 p7')), /not allowed/);
    assert.throws(() => c.run(toks(c, '[ ]')), /not allowed/);
  });

  it('never copies special ids, and a whitespace-only span cannot be closed', () => {
    const w = new GrammarConstraint(vocab, [2, 5, 4, 6, 1], { sourcePieces: ['</s>', '▁a', '▁', 'b', '<s>'] });
    assert.deepEqual(names(w.allowed(w.run(toks(w, '[')))), ['p4', 'p5', 'p6']);
    assert.deepEqual(names(w.allowed(w.run(toks(w, '[ p4')))), ['p6']); // "▁" alone has no text
    assert.deepEqual(names(w.allowed(w.run(toks(w, '[ p4 p6')))), [']']);
  });

  it('spans start and end at word boundaries when the source pieces are known', () => {
    // "▁Teres a ▁Savoy 's ?" → ids 5 6 7 8 9
    const pieces = ['▁Teres', 'a', '▁Savoy', "'s", '?'];
    const w = new GrammarConstraint(vocab, [5, 6, 7, 8, 9], { sourcePieces: pieces });
    assert.deepEqual(names(w.allowed(w.run(toks(w, '[')))), ['p5', 'p7', 'p8', 'p9']); // not "a" (mid-word)
    assert.deepEqual(names(w.allowed(w.run(toks(w, '[ p5')))), ['p6']); // "Teres" cannot close
    assert.deepEqual(names(w.allowed(w.run(toks(w, '[ p5 p6')))), [']', 'p7']);
    assert.deepEqual(names(w.allowed(w.run(toks(w, '[ p7')))), [']', 'p8']); // "Savoy" before "'s" may close
    // need counts the pieces up to the nearest end: '[' p5 → p6 ']' then eos = 3
    assert.equal(w.run(toks(w, '[ p5')).need, 3);
    const off = new GrammarConstraint(vocab, [5, 6, 7, 8, 9], { sourcePieces: pieces, wordBoundaries: false });
    assert.deepEqual(names(off.allowed(off.run(toks(off, '[ p5')))), [']', 'p6']);
  });

  it('a span filter (e.g. graph labels) restricts spans, and is ignored when no span passes it', () => {
    // only p6 p7 (positions 1-2 or 4-5) and p9 pass
    const ok = new Set(['1,2', '4,5', '6,6']);
    const f = new GrammarConstraint(vocab, SRC, { spanFilter: (a, e) => ok.has(`${a},${e}`) });
    assert.ok(f.filtered);
    assert.deepEqual(names(f.allowed(f.run(toks(f, '[')))), ['p6', 'p9']);
    assert.deepEqual(names(f.allowed(f.run(toks(f, '[ p6')))), ['p7']);
    assert.deepEqual(names(f.allowed(f.run(toks(f, '[ p6 p7')))), [']']);
    assert.equal(f.run(toks(f, '[ p6')).need, 3);
    const none = new GrammarConstraint(vocab, SRC, { spanFilter: () => false });
    assert.ok(!none.filtered);
    assert.deepEqual(names(none.allowed(none.run(toks(none, '[')))), ['p5', 'p6', 'p7', 'p8', 'p9']);
  });

  it('a soft span filter keeps every span but charges spanPenalty for closing one that fails it', () => {
    const ok = new Set(['1,2', '4,5']);
    const f = new GrammarConstraint(vocab, SRC, { spanFilter: (a, e) => ok.has(`${a},${e}`), spanPenalty: 8 });
    assert.deepEqual(names(f.allowed(f.run(toks(f, '[')))), ['p5', 'p6', 'p7', 'p8', 'p9']);
    assert.equal(f.tokenBonus(f.run(toks(f, '[ p6 p7')), id(']')), 0);
    assert.equal(f.tokenBonus(f.run(toks(f, '[ p6')), id(']')), -8);
    assert.equal(f.tokenBonus(f.run(toks(f, '[ p5 p6 p7')), id(']')), -8);
    assert.equal(f.tokenBonus(f.run(toks(f, '[ p6')), 7), 0);
  });

  it('allows eos only once the form is complete, and nothing after eos', () => {
    assert.ok(!c.allowed(c.run(toks(c, '( COUNT [ p5 ]'))).includes(c.eos));
    assert.deepEqual(names(c.allowed(c.run(toks(c, '( COUNT [ p5 ] )')))), ['<eos>']);
    const done = c.run(toks(c, '[ p5 ] <eos>'));
    assert.ok(c.isComplete(done));
    assert.deepEqual(c.allowed(done), []);
  });

  it('offers comparisons and TC only when literal symbols exist', () => {
    const lv: TargetVocabulary = { ...vocab, symbols: [...vocab.symbols, '1990', '2001-05-02'] };
    const l = new GrammarConstraint(lv, SRC);
    assert.deepEqual(names(l.allowed(l.run(toks(l, '('))), lv), ['AND', 'ARGMAX', 'ARGMIN', 'COUNT', 'GE', 'GT', 'JOIN', 'LE', 'LT', 'TC']);
    // a literal ([7]) or a second relation ([36])
    assert.deepEqual(names(l.allowed(l.run(toks(l, '( GT release_year'))), lv), ['(', '1990', '2001-05-02', ...RELS].sort());
    const text = tokensToFormText(toks(l, '( TC [ p5 ] release_year 1990 )'), lv, decode);
    assert.equal(text, '(TC [ p5 ] release_year 1990)');
    parseForm(text);
    assert.ok(isLiteralSymbol('1990') && isLiteralSymbol('"x"@en') && !isLiteralSymbol('directed_by'));
  });

  it('with a length budget, only starts what can still be completed', () => {
    // budget 4 = '[' piece ']' eos: a "(" form needs at least 6 (+ eos)
    assert.deepEqual(names(c.allowed(c.initial(), 4)), ['[']);
    assert.deepEqual(names(c.allowed(c.initial(), 7)), ['(', '[']);
    // after '( JOIN directed_by' with 5 left: must copy now ('[' p ']' ')' eos)
    const s = c.run(toks(c, '( JOIN directed_by'));
    assert.deepEqual(names(c.allowed(s, 5)), ['[']);
    assert.deepEqual(names(c.allowed(c.run(toks(c, '[ p6')), 2)), [']']);
  });

  it('prints token sequences as forms with decoded, escaped labels', () => {
    const t = toks(c, '( JOIN ( R directed_by ) [ p6 p7 ] )');
    const text = tokensToFormText(t, vocab, decode);
    assert.equal(text, '(JOIN (R directed_by) [ p6 p7 ])');
    assert.ok(formsEqual(parseForm(text), parseForm('(JOIN (R directed_by) [ p6 p7 ])')));
    const esc = tokensToFormText(toks(c, '[ p5 ]'), vocab, () => 'a ] b \\ c');
    assert.equal(parseForm(esc).kind, 'entity');
    assert.deepEqual((parseForm(esc) as { ref: unknown }).ref, { kind: 'label', label: 'a ] b \\ c' });
  });

  it('property: random walks over allowed tokens always end in a parseable form with copied spans', () => {
    const sourceText = decode(SRC);
    fc.assert(
      fc.property(
        fc.array(fc.nat(1000), { minLength: 40, maxLength: 40 }),
        fc.integer({ min: 4, max: 40 }),
        fc.boolean(),
        (choices, budget, restrict) => {
          const k = new GrammarConstraint(vocab, SRC, {
            ...(restrict ? { relations: ['release_year'] } : {}),
            sourcePieces: ['▁p5', 'p6', '▁', 'p8', '▁p6', 'p7', '▁p9'],
          });
          let s = k.initial();
          const out: number[] = [];
          for (let step = 0; step < budget; step++) {
            const allowed = k.allowed(s, budget - step);
            assert.ok(allowed.length > 0, 'dead end');
            const t = allowed[choices[step % choices.length]! % allowed.length]!;
            s = k.advance(s, t);
            if (t === k.eos) break;
            out.push(t);
          }
          assert.ok(s.done, 'form not finished within the budget');
          const text = tokensToFormText(out, vocab, decode);
          const form = parseForm(text);
          assert.ok(form);
          for (const m of text.matchAll(/\[ (.*?) \]/g)) assert.ok(sourceText.includes(m[1]!), `${m[1]!} not a source span`);
          if (restrict) for (const r of ['directed_by', 'starred_actors']) assert.ok(!text.includes(r));
        },
      ),
      { numRuns: 500, seed: 42 },
    );
  });

  describe('form language v2 symbols (data-driven: offered only when the model has them)', () => {
    const V2 = ['ASK', 'DIFF', 'OR', 'AVG', 'SUM', 'MAX', 'MIN', 'RATIO', 'PERCENT', 'MOSTCOMMON', 'LEASTCOMMON', 'ARGMAXCOUNT', 'ARGMINCOUNT', 'HAS', 'ABSDIFF'];
    const v2: TargetVocabulary = { ...vocab, symbols: [...vocab.symbols, ...V2, 'film', 'person', '1990'], classes: ['film', 'person'] };
    const k = new GrammarConstraint(v2, SRC);

    it('an old vocabulary (no new symbols) is offered exactly what it was', () => {
      assert.deepEqual(names(c.allowed(c.initial())), ['(', '[']);
      assert.deepEqual(names(c.allowed(c.run(toks(c, '( AND')))), ['(', '[']);
    });

    it('outermost: every operator, the boolean / number ones included; nested: only set operators', () => {
      const top = names(k.allowed(k.run(toks(k, '('))), v2);
      for (const o of [...V2, 'JOIN', 'AND', 'COUNT', 'GT', 'TC']) assert.ok(top.includes(o), o);
      const nested = names(k.allowed(k.run(toks(k, '( AND ('))), v2);
      for (const o of ['DIFF', 'OR', 'MOSTCOMMON', 'ARGMAXCOUNT', 'JOIN', 'COUNT']) assert.ok(nested.includes(o), o);
      for (const o of ['ASK', 'AVG', 'SUM', 'MAX', 'MIN', 'RATIO', 'PERCENT', 'ABSDIFF']) assert.ok(!nested.includes(o), o);
      assert.throws(() => k.run(toks(k, '( ASK ( ASK')), /not allowed/);
      assert.throws(() => k.run(toks(k, '( ABSDIFF ( ABSDIFF')), /not allowed/);
      assert.throws(() => k.run(toks(k, '( ABSDIFF ( JOIN ( R release_year ) [ p5 ] ) )')), /not allowed/);
    });

    it('class names stand where a form is expected (config.classes), not where a relation is', () => {
      assert.deepEqual(names(k.allowed(k.initial()), v2), ['(', '[', 'film', 'person']);
      assert.ok(names(k.allowed(k.run(toks(k, '( AND'))), v2).includes('film'));
      assert.ok(!names(k.allowed(k.run(toks(k, '( JOIN'))), v2).includes('film'));
      assert.ok(!names(k.allowed(k.run(toks(k, '( GT release_year'))), v2).includes('film'), 'a class is not a literal');
    });

    const accepted = [
      '( ASK ( AND [ p5 ] ( JOIN directed_by [ p8 ] ) ) )',
      '( DIFF ( JOIN starred_actors [ p5 ] ) ( JOIN directed_by [ p9 ] ) )',
      '( ARGMIN ( OR [ p5 ] [ p8 ] ) release_year )',
      '( AVG ( JOIN ( R release_year ) film ) )',
      '( PERCENT ( AND film ( JOIN directed_by [ p5 ] ) ) film )',
      '( MOSTCOMMON ( JOIN directed_by [ p6 p7 ] ) starred_actors )',
      '( ARGMAXCOUNT person ( R directed_by ) )',
      '( AND ( JOIN starred_actors [ p5 ] ) ( AND ( GE release_year 1990 ) ( LT release_year 1990 ) ) )',
      '( COUNT ( DIFF film ( JOIN directed_by [ p5 ] ) ) )',
      '( AND film ( HAS ( R directed_by ) ) )',
      '( ABSDIFF ( JOIN ( R release_year ) [ p5 ] ) ( JOIN ( R release_year ) [ p8 ] ) )',
    ];
    for (const words of accepted) {
      it(`accepts and prints a parseable form: ${words}`, () => {
        const t = toks(k, words);
        const s = k.run([...t, k.eos]);
        assert.ok(k.isComplete(s));
        const text = tokensToFormText(t, v2, decode);
        assert.ok(formsEqual(parseForm(text), parseForm(words.replace(/\( /g, '(').replace(/ \)/g, ')'))), text);
      });
    }

    it('the budget accounts for class names as the shortest form', () => {
      // '( ASK film )' + eos = 5 tokens
      assert.ok(names(k.allowed(k.initial(), 5), v2).includes('('));
      assert.deepEqual(names(k.allowed(k.run(toks(k, '( ASK')), 3), v2), ['film', 'person']);
    });
  });
});

describe('generate/constraint: form language v3 ([31]–[38])', () => {
  const V3 = ['ASK', 'AVG', 'SUM', 'MAX', 'MIN', 'RATIO', 'PERCENT', 'ABSDIFF', 'TABLE', 'MINUS', 'GROUPCOUNT', 'GROUPSUM', 'GROUPAVG', 'GROUPMAX', 'GROUPMIN', 'HAVING', 'ASC', 'DESC', 'LIMIT', 'OFFSET', 'MORE', 'LESS', 'CONTAINS'];
  const v: TargetVocabulary = { ...vocab, symbols: [...vocab.symbols, ...V3, '3', '10', '1990', '"war"'] };
  const c = new GrammarConstraint(v, SRC);
  const allowed = (prefix: string): string[] => names(c.allowed(c.run(toks(c, prefix))), v);

  it('offers the table operators and MORE / LESS only outermost; CONTAINS and comparisons also inside', () => {
    const top = allowed('(');
    for (const op of ['TABLE', 'GROUPCOUNT', 'GROUPAVG', 'HAVING', 'ASC', 'DESC', 'LIMIT', 'OFFSET', 'MORE', 'LESS', 'CONTAINS']) assert.ok(top.includes(op), op);
    assert.ok(!top.includes('MINUS'), 'MINUS is a column, not a form');
    const inner = allowed('( JOIN directed_by (');
    for (const op of ['TABLE', 'GROUPCOUNT', 'HAVING', 'ASC', 'LIMIT', 'MORE', 'LESS', 'MINUS', 'ASK']) assert.ok(!inner.includes(op), op);
    assert.ok(inner.includes('CONTAINS') && inner.includes('GT'));
  });

  it('TABLE takes one or more columns (a relation, (R r) or (MINUS r r)) and then closes', () => {
    assert.deepEqual(allowed('( TABLE [ p5 ]'), ['(', ...RELS].sort());
    assert.deepEqual(allowed('( TABLE [ p5 ] ('), ['MINUS', 'R']);
    assert.deepEqual(allowed('( TABLE [ p5 ] release_year'), ['(', ')', ...RELS].sort());
    assert.deepEqual(allowed('( TABLE [ p5 ] ( MINUS release_year directed_by ) starred_actors )'), ['<eos>']);
  });

  it('LIMIT / OFFSET take an integer and an ordered table; HAVING a group table, a comparison and a literal', () => {
    assert.deepEqual(allowed('( LIMIT'), ['10', '1990', '3']);
    assert.deepEqual(allowed('( LIMIT 3 ('), ['ASC', 'DESC', 'LIMIT', 'OFFSET']);
    assert.deepEqual(allowed('( HAVING ('), ['GROUPAVG', 'GROUPCOUNT', 'GROUPMAX', 'GROUPMIN', 'GROUPSUM', 'HAVING']);
    assert.deepEqual(allowed('( HAVING ( GROUPCOUNT [ p5 ] directed_by )'), ['GE', 'GT', 'LE', 'LT']);
    assert.deepEqual(allowed('( HAVING ( GROUPCOUNT [ p5 ] directed_by ) GT'), ['"war"', '10', '1990', '3']);
  });

  it('ASC / DESC: a set may be followed by a relation, a table may not', () => {
    assert.deepEqual(allowed('( DESC [ p5 ]'), ['(', ')', ...RELS].sort());
    assert.deepEqual(allowed('( DESC ( JOIN directed_by [ p5 ] )'), ['(', ')', ...RELS].sort());
    assert.deepEqual(allowed('( DESC ( GROUPCOUNT [ p5 ] directed_by )'), [')']);
    assert.ok(allowed('( DESC (').includes('TABLE') && allowed('( DESC (').includes('JOIN'));
  });

  it('MORE / LESS compare two number forms; CONTAINS takes an optional relation and a text copied from the question', () => {
    assert.deepEqual(allowed('( MORE'), ['(']);
    assert.deepEqual(allowed('( MORE ('), ['ABSDIFF', 'AVG', 'COUNT', 'MAX', 'MIN', 'PERCENT', 'RATIO', 'SUM']);
    assert.deepEqual(allowed('( CONTAINS'), ['(', '[', ...RELS].sort());
    assert.deepEqual(allowed('( CONTAINS release_year'), ['[']);
    assert.deepEqual(allowed('( CONTAINS release_year ['), ['p5', 'p6', 'p7', 'p8', 'p9']);
    assert.deepEqual(allowed('( CONTAINS release_year [ p6 p7'), [']', 'p8', 'p9']);
    assert.deepEqual(allowed('( CONTAINS release_year [ p6 p7 ]'), [')']);
  });

  it('CONTAINS copies a word that has no symbol of its own: any span at word boundaries, never shaped by the label filter or prior', () => {
    const P = 20;
    const vv: TargetVocabulary = { pieces: P, symbols: [...OPS, ...RELS, ...V3], relations: RELS, eos: 2, special: [1, 2, 3] };
    // "products with aero in the name": "aero" is no symbol and no label; pieces ▁a + ero make one word
    const pieces = ['▁products', '▁with', '▁a', 'ero', '▁in', '▁the', '▁name'];
    const src = [10, 11, 12, 13, 14, 15, 16];
    const dec = (ids: number[]): string => ids.map((i) => pieces[src.indexOf(i)] ?? '?').join('').replace(/▁/g, ' ').trim();
    const onlyProducts = (a: number, e: number): boolean => a === 0 && e === 0;
    const hard = new GrammarConstraint(vv, src, { sourcePieces: pieces, spanFilter: onlyProducts });
    const at = (k: GrammarConstraint, prefix: string): string[] => names(k.allowed(k.run(toks(k, prefix))), vv);
    assert.ok(hard.filtered);
    assert.deepEqual(at(hard, '['), ['p10'], 'an entity copies only the label span');
    assert.ok(at(hard, '(').includes('CONTAINS'), 'CONTAINS is offered though the vocabulary has no quoted string');
    assert.deepEqual(at(hard, '( AND [ p10 ] ( CONTAINS ['), ['p10', 'p11', 'p12', 'p14', 'p15', 'p16'], 'a text starts at any word, not inside one');
    assert.deepEqual(at(hard, '( AND [ p10 ] ( CONTAINS [ p12'), ['p13'], '"a" is not a word of its own here');
    assert.deepEqual(at(hard, '( AND [ p10 ] ( CONTAINS [ p12 p13'), [']', 'p14']);
    const form = toks(hard, '( AND [ p10 ] ( CONTAINS [ p12 p13 ] ) )');
    assert.ok(hard.isComplete(hard.run([...form, hard.eos])));
    const text = tokensToFormText(form, vv, dec);
    assert.equal(text, '(AND [ products ] (CONTAINS [ aero ]))');
    assert.deepEqual(parseForm(text), { kind: 'and', args: [{ kind: 'entity', ref: { kind: 'label', label: 'products' } }, { kind: 'contains', text: 'aero' }] });
    // the shortest completion after CONTAINS counts the copy: '[' piece ']' ')' ')' eos
    assert.deepEqual(at(hard, '( AND [ p10 ] ( CONTAINS'), ['(', '[', ...RELS].sort());
    assert.ok(hard.allowed(hard.run(toks(hard, '( AND [ p10 ] ( CONTAINS')), 6).includes(hard.lbrack));
    assert.ok(!hard.allowed(hard.run(toks(hard, '( AND [ p10 ] ( CONTAINS')), 5).includes(hard.lbrack));
    // soft label prior: closing a non-label entity costs the penalty, closing a text never does
    const soft = new GrammarConstraint(vv, src, { sourcePieces: pieces, spanFilter: onlyProducts, spanPenalty: 8 });
    assert.equal(soft.tokenBonus(soft.run(toks(soft, '( AND [ p11')), soft.rbrack), -8);
    assert.equal(soft.tokenBonus(soft.run(toks(soft, '( AND [ p10 ] ( CONTAINS [ p11')), soft.rbrack), 0);
    assert.equal(soft.tokenBonus(soft.run(toks(soft, '( AND [ p10')), soft.rbrack), 0);
  });

  it('every complete v3 form the automaton accepts parses, and the texts print back', () => {
    for (const form of [
      '( LIMIT 3 ( OFFSET 10 ( DESC ( HAVING ( GROUPAVG [ p5 ] directed_by release_year ) GT 1990 ) ) ) )',
      '( TABLE [ p6 p7 ] release_year ( MINUS release_year ( R directed_by ) ) )',
      '( ASC ( AND [ p5 ] ( CONTAINS [ p8 ] ) ) release_year )',
      '( AND [ p5 ] ( CONTAINS directed_by [ p6 p7 ] ) )',
      '( MORE ( COUNT [ p5 ] ) ( AVG ( JOIN ( R release_year ) [ p9 ] ) ) )',
      '( AND [ p5 ] ( GT release_year starred_actors ) )',
    ]) {
      const t = toks(c, form);
      const end = c.run([...t, c.eos]);
      assert.ok(c.isComplete(end), form);
      parseForm(tokensToFormText(t, v, decode));
    }
  });

  it('a budget never admits a v3 prefix that cannot complete in time', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 30 }), fc.integer({ min: 4, max: 30 }), (choices, budget) => {
        let s = c.initial();
        let left = budget;
        for (const ch of choices) {
          const opts = c.allowed(s, left);
          if (opts.length === 0) return;
          const t = opts[ch % opts.length]!;
          if (t === c.eos) return;
          s = c.advance(s, t);
          left--;
          assert.ok(s.need <= left, `need ${s.need} > left ${left}`);
        }
      }),
      { numRuns: 300, seed: 21 },
    );
  });
});
