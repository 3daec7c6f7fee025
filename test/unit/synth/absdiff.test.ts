/**
 * Synthetic ABSDIFF questions: "how many years apart…", "how much higher is A's rating than B's". Sampled over
 * the museums fixture (decimal ratings, integer years and populations as literals) and the movies fixture; the
 * sampled answer is the executed one and equals |v(A) − v(B)| read from the graph; the phrasings that say which
 * is later / higher are true of the graph; the training form parses, is a number, and has the operand
 * mentioned first first.
 */
import { strict as assert } from 'node:assert';
import type { Executor } from '../../../src/core';
import { compileForm } from '../../../src/compile';
import { runCompiled } from '../../../src/execute';
import { answerTypeOf, formsEqual, parseForm } from '../../../src/form';
import { buildLexicon, orderByMentions, printSForm, renderQuestion, Rng, Sampler, SynthStore, type Schema, type SForm } from '../../../src/synth';

import { fixtureStores, LABEL, MOVIES, museumSchema, moviesSchema } from './schemas';

type AbsDiff = Extract<SForm, { op: 'absdiff' }>;

describe('synth: ABSDIFF questions', function () {
  this.timeout(120_000);
  const stores = fixtureStores();

  /** ABSDIFF forms the compare2 sampler produces (with their sampled answers). */
  const sampleAbsDiffs = async (ex: Executor, schema: Schema, seed: number, want: number, compile = {}) => {
    const sampler = new Sampler(new SynthStore(ex, schema, { compile }), new Rng(seed), buildLexicon(schema));
    const out: { form: AbsDiff; answer: number }[] = [];
    for (let i = 0; i < 400 && out.length < want; i++) {
      const s = await sampler.sample('compare2');
      if (s?.form.op !== 'absdiff') continue;
      assert.equal(s.operator, 'compare2');
      assert.equal(s.answer.type, 'num', printSForm(s.form));
      out.push({ form: s.form, answer: s.answer.value });
    }
    return out;
  };

  /** The one value of (JOIN (R r) X), read straight from the store (not through ABSDIFF). */
  const valueOf = async (ex: Executor, side: SForm, compile: object): Promise<number> => {
    const out = await runCompiled(ex, compileForm(parseForm(printSForm(side)), { labelPredicates: [LABEL], ...compile }));
    assert.equal(out.answers.length, 1, `${printSForm(side)} has one value`);
    return Number(out.answers[0]!.value);
  };

  it('sampled (compare2): the answer is the executed one and equals |v(A) − v(B)|, the larger value first', async () => {
    for (const [ex, schema, compile] of [
      [stores.museums(), museumSchema(), {}],
      [stores.movies(), moviesSchema(), { vocabularyNamespace: MOVIES }],
    ] as const) {
      const got = await sampleAbsDiffs(ex, schema, 7, 6, compile);
      assert.ok(got.length >= 3, `${got.length} ABSDIFF forms sampled`);
      for (const { form, answer } of got) {
        const text = printSForm(form);
        assert.ok(form.a.op === 'join' && form.a.rel.inv && form.b.op === 'join' && form.b.rel.prop === form.a.rel.prop, text);
        const va = await valueOf(ex, form.a, compile);
        const vb = await valueOf(ex, form.b, compile);
        assert.ok(va > vb, `the larger value first: ${text} (${va}, ${vb})`);
        assert.ok(Math.abs(answer - (va - vb)) < 1e-9, `${text}: ${answer} = ${va} − ${vb}`);
        const direct = await runCompiled(ex, compileForm(parseForm(text), { labelPredicates: [LABEL], ...compile }));
        assert.equal(direct.status, 'answers');
        assert.equal(Number(direct.answers[0]!.value), answer);
      }
    }
  });

  it('rendered: every question names both entities once, with words of a difference; the training form is a number', async () => {
    const schema = museumSchema();
    const lex = buildLexicon(schema);
    const got = await sampleAbsDiffs(stores.museums(), schema, 3, 8);
    assert.ok(got.length >= 4, `${got.length} ABSDIFF forms sampled`);
    const templates = new Set<string>();
    for (const { form } of got) {
      for (let seed = 1; seed <= 10; seed++) {
        const r = renderQuestion(form, lex, new Rng(seed));
        assert.ok(r, `a question for ${printSForm(form)}`);
        templates.add(r.template);
        assert.match(r.template, /^absdiff:(dated|number):\d+$/);
        const q = r.question.toLowerCase();
        assert.match(q, /how many years|how much|how far|difference|exceed/, r.question);
        const [ma, mb] = [form.a, form.b].map((s) => r.mentions.get((s as { arg: { iri: string } }).arg.iri)!.toLowerCase());
        assert.ok(ma && mb && q.includes(ma) && q.includes(mb), r.question);
        const ordered = orderByMentions(form, (iri) => q.indexOf((r.mentions.get(iri) ?? '').toLowerCase()));
        const target = parseForm(printSForm(ordered, r.mentions));
        assert.equal(answerTypeOf(target), 'number');
        assert.ok(target.kind === 'arith' && target.args[0].kind === 'join' && target.args[0].arg.kind === 'entity');
        // the operand mentioned first is first in the target; the form is the same up to the order
        const first = target.args[0].arg.ref.kind === 'label' ? target.args[0].arg.ref.label.toLowerCase() : '';
        assert.equal(first, q.indexOf(ma) < q.indexOf(mb) ? ma : mb, `${r.question} → ${printSForm(ordered, r.mentions)}`);
        assert.ok(formsEqual(parseForm(printSForm(ordered)), parseForm(printSForm(form))));
      }
    }
    assert.ok(templates.size >= 5, `${templates.size} templates`);
  });

  it('asymmetric phrasings are true of the graph: "after B did A", "older is B than A", "higher is A\'s … than B\'s"', () => {
    const lex = buildLexicon(moviesSchema());
    const ent = (label: string) => ({ op: 'ent' as const, iri: 'http://askgraph.dev/movies/entity/' + encodeURIComponent(label), label });
    const side = (label: string): SForm => ({ op: 'join', rel: { prop: 'release_year', iri: MOVIES + 'release_year', inv: true }, arg: ent(label) });
    const later = 'Blue Harbour';
    const earlier = 'Grey Mile';
    const form: SForm = { op: 'absdiff', a: side(later), b: side(earlier) };
    let asymmetric = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const r = renderQuestion(form, lex, new Rng(seed));
      assert.ok(r);
      const q = r.question.toLowerCase();
      const [L, E] = [r.mentions.get(ent(later).iri)!.toLowerCase(), r.mentions.get(ent(earlier).iri)!.toLowerCase()];
      if (q.includes(' after ')) {
        asymmetric++;
        assert.ok(q.indexOf(E) < q.indexOf(L), `after the earlier one: ${q}`);
      }
      if (q.includes(' before ')) {
        asymmetric++;
        assert.ok(q.indexOf(L) < q.indexOf(E) && q.indexOf(' before ') < q.indexOf(L), `before the later one: ${q}`);
      }
      if (q.includes('older')) {
        asymmetric++;
        assert.ok(q.indexOf(E) < q.indexOf(L), `the earlier one is older: ${q}`);
      }
    }
    assert.ok(asymmetric > 10, `${asymmetric} asymmetric phrasings`);
  });
});
