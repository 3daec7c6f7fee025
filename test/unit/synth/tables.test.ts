/**
 * Synthesis of the table shapes (issue 21) on a real Oxigraph store of fixtures/graphs/company.ttl (an invented
 * company: optional e-mail / phone, several numeric attributes per class, departments of very different sizes,
 * product names that share words), with the schema discovery writes for it. Per shape: sampled forms execute
 * with a non-empty answer, checked again through src/compile + src/execute and against values read from the
 * store one by one; the questions name the relations with the lexicon's words; the training forms parse with
 * the type the shape has.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { packageRoot, type AnswerItem } from '../../../src/core';
import { compileForm } from '../../../src/compile';
import { openExecutor, runCompiled, type StoreExecutor } from '../../../src/execute';
import { answerTypeOf, parseForm, typeErrors } from '../../../src/form';
import { discoverSchema } from '../../../src/synth/discover';
import {
  buildLexicon,
  orderByMentions,
  printSForm,
  renderQuestion,
  Rng,
  Sampler,
  synthesize,
  SynthStore,
  type Lexicon,
  type Schema,
  type SForm,
  type SRel,
  type SynthOperator,
} from '../../../src/synth';

const C = 'http://askgraph.dev/company/';
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';

describe('synth: table shapes on the company fixture (Oxigraph)', function () {
  this.timeout(180_000);
  let ex: StoreExecutor | undefined;
  let schema: Schema;
  let lex: Lexicon;

  before(async () => {
    ex = await openExecutor(path.join(packageRoot(), 'fixtures', 'graphs', 'company.ttl'));
    schema = await discoverSchema(ex);
    lex = buildLexicon(schema);
  });
  after(() => ex?.close());

  /** Up to `want` forms of one operator from a seeded sampler. */
  async function sample(op: SynthOperator, want: number, seed = 3, tries = 250): Promise<SForm[]> {
    const sampler = new Sampler(new SynthStore(ex!, schema), new Rng(seed), lex);
    const out: SForm[] = [];
    for (let i = 0; i < tries && out.length < want; i++) {
      const s = await sampler.sample(op);
      if (s) out.push(s.form);
    }
    return out;
  }

  /** Runs a form straight through the compiler and the executor (no synth store, no cache). */
  async function run(f: SForm) {
    const out = await runCompiled(ex!, compileForm(parseForm(printSForm(f)), { labelPredicates: [LABEL] }));
    assert.equal(out.status, 'answers', `${printSForm(f)}: ${out.status} ${out.error?.message ?? ''}`);
    return out;
  }

  /** The one-valued r-value of an entity, read with its own query. */
  async function valueOf(iri: string, r: SRel): Promise<number | undefined> {
    const res = await ex!.select(`SELECT ?v WHERE { <${iri}> <${r.iri}> ?v }`);
    const v = res.rows[0]?.v?.value;
    return v === undefined ? undefined : Number(/^\d{4}-/.test(v) ? v.slice(0, 4) : v);
  }

  /** The question for a form (seeded) and its training form, which must parse and have the shape's answer type. */
  function rendered(f: SForm, seed: number) {
    const r = renderQuestion(f, lex, new Rng(seed));
    assert.ok(r, `a question for ${printSForm(f)}`);
    const q = r.question.toLowerCase();
    const out = printSForm(orderByMentions(f, (iri) => q.indexOf((r.mentions.get(iri) ?? '').toLowerCase())), r.mentions);
    const form = parseForm(out);
    assert.deepEqual(typeErrors(form), [], out);
    for (const m of r.mentions.values()) assert.ok(q.includes(m.toLowerCase()), `mention "${m}" in "${r.question}"`);
    return { q, question: r.question, form, out, template: r.template };
  }

  /** The lexicon's words for the value of r (its object nouns and its label), any of which a question may use. */
  const valueWords = (r: SRel): string[] => {
    const p = lex.properties[r.prop]!;
    const e = r.inv ? p.subject : p.object;
    return [...e.singular, ...e.plural, p.label].map((w) => w.toLowerCase()).filter((w) => w.length > 2);
  };
  const saysOne = (q: string, words: string[]) => words.some((w) => q.includes(w));
  const cell = (c: AnswerItem | null) => (c === null ? null : Number(c.value));

  it('TABLE: 1–4 attributes the members mostly have; optional ones give empty cells, never dropped rows', async () => {
    const forms = await sample('table', 14);
    assert.ok(forms.length >= 10, `${forms.length} TABLE forms`);
    let emptyCells = 0;
    for (const f of forms) {
      assert.equal(f.op, 'table');
      const out = await run(f);
      const members = await run(f.arg);
      assert.ok(out.table && out.table.rows.length > 0, printSForm(f));
      assert.equal(out.table.columns.length, f.cols.length + 1, 'the row key and a column per attribute');
      // a row per member: a member without an optional value is still a row
      assert.deepEqual(new Set(out.table.rows.map((r) => r[0]?.value)), new Set(members.answers.map((a) => a.value)), printSForm(f));
      for (let c = 1; c <= f.cols.length; c++) {
        const filled = out.table.rows.filter((r) => r[c] !== null).length;
        assert.ok(filled >= 0.4 * out.table.rows.length, `column ${c} of ${printSForm(f)} mostly filled`);
        emptyCells += out.table.rows.length - filled;
      }
      for (let seed = 1; seed <= 4; seed++) {
        const { q, form } = rendered(f, seed);
        assert.equal(answerTypeOf(form), 'table');
        for (const col of f.cols) if (!('minus' in col)) assert.ok(saysOne(q, valueWords(col)), `"${q}" names ${col.prop}`);
      }
    }
    assert.ok(emptyCells > 0, 'some sampled table has an empty cell (optional e-mail, phone, manager, weight)');
  });

  it('GROUP: a row per group of a category-like relation, a count or an aggregate per group, at least two groups', async () => {
    const forms = await sample('group', 12);
    assert.ok(forms.length >= 8, `${forms.length} GROUP forms`);
    const fns = new Set<string>();
    for (const f of forms) {
      assert.equal(f.op, 'group');
      fns.add(f.fn);
      const out = await run(f);
      assert.ok(out.table && out.table.rows.length >= 2, printSForm(f));
      if (f.fn === 'COUNT') {
        // the counts add up to the members that have a group
        const members = await run({ op: 'table', arg: f.arg, cols: [f.by] });
        const total = out.table.rows.reduce((s, r) => s + (cell(r[1] ?? null) ?? 0), 0);
        assert.equal(total, members.table!.rows.filter((r) => r[1] !== null).length, printSForm(f));
      }
      for (let seed = 1; seed <= 4; seed++) {
        const { q, form } = rendered(f, seed);
        assert.equal(answerTypeOf(form), 'table');
        assert.ok(saysOne(q, valueWords(f.by)), `"${q}" names the group (${f.by.prop})`);
        if (f.value) assert.ok(saysOne(q, valueWords(f.value)), `"${q}" names the value (${f.value.prop})`);
      }
    }
    assert.ok(fns.has('COUNT') && fns.size >= 2, [...fns].join(' '));
  });

  it('HAVING: a threshold from the group sizes, so that some groups pass and some do not', async () => {
    const forms = await sample('having', 10);
    assert.ok(forms.length >= 6, `${forms.length} HAVING forms`);
    for (const f of forms) {
      assert.ok(f.op === 'having' && f.arg.op === 'group', printSForm(f));
      const all = await run(f.arg);
      const some = await run(f);
      const t = Number(f.value.value);
      const pass = (v: number) => ({ GT: v > t, GE: v >= t, LT: v < t, LE: v <= t })[f.cmp];
      const expected = all.table!.rows.filter((r) => pass(cell(r[r.length - 1] ?? null)!)).map((r) => r[0]?.value);
      assert.ok(expected.length > 0 && expected.length < all.table!.rows.length, `${printSForm(f)}: ${expected.length} of ${all.table!.rows.length} groups`);
      assert.deepEqual(new Set(some.table!.rows.map((r) => r[0]?.value)), new Set(expected));
      const { q } = rendered(f, 2);
      assert.ok(q.includes(f.value.value) || q.includes(Number(f.value.value).toLocaleString('en-US')), `"${q}" says ${f.value.value}`);
      assert.ok(saysOne(q, valueWords(f.arg.by)), q);
    }
  });

  it('top-k: LIMIT k of an ordered list has k rows in order; OFFSET windows are the ordered rows from there; the count top-k ranks groups', async () => {
    const forms = await sample('topk', 16, 5);
    assert.ok(forms.length >= 10, `${forms.length} top-k forms`);
    const kinds = new Set<string>();
    for (const f of forms) {
      let g: SForm = f;
      let limit: number | undefined;
      let offset = 0;
      if (g.op === 'slice' && !g.offset) [limit, g] = [g.n, g.arg];
      if (g.op === 'slice' && g.offset) [offset, g] = [g.n, g.arg];
      assert.equal(g.op, 'order', printSForm(f));
      kinds.add(g.arg.op === 'group' ? 'group' : offset ? 'offset' : limit ? 'limit' : 'order');
      const whole = await run(g);
      const out = await run(f);
      const rows = whole.table!.rows;
      assert.deepEqual(out.table!.rows.map((r) => r[0]?.value), rows.slice(offset, limit === undefined ? undefined : offset + limit).map((r) => r[0]?.value), printSForm(f));
      if (limit !== undefined) assert.equal(out.table!.rows.length, limit, `${printSForm(f)}: k rows`);
      // numbers by value, dates by their ISO text
      const vals = rows.map((r) => r[r.length - 1]?.value ?? '');
      const cmp = (a: string, b: string) => (/^-?[\d.]+$/.test(a) && /^-?[\d.]+$/.test(b) ? Number(a) - Number(b) : a.localeCompare(b));
      for (let i = 1; i < vals.length; i++) assert.ok((g.desc ? -1 : 1) * cmp(vals[i]!, vals[i - 1]!) >= 0, `${printSForm(g)} in order: ${vals[i - 1]} then ${vals[i]}`);
      for (let seed = 1; seed <= 3; seed++) {
        const { q } = rendered(f, seed);
        if (g.rel) assert.ok(saysOne(q, valueWords(g.rel)) || /latest|earliest|recent|newest|oldest/.test(q), `"${q}" names ${g.rel.prop}`);
        if (limit !== undefined && !offset) assert.ok(q.includes(String(limit)) || q.includes(['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'][limit] ?? '?'), `"${q}" says ${limit}`);
        if (offset) assert.ok(q.includes(String(offset + 1)) || q.includes(String(offset)), `"${q}" says where the window starts`);
      }
    }
    assert.ok(kinds.has('limit') && kinds.has('group'), [...kinds].join(' '));
  });

  it('attribute comparisons: (GT a b) members compare by their own two values; MINUS cells are the differences', async () => {
    const forms = await sample('attrcompare', 12);
    assert.ok(forms.length >= 8, `${forms.length} forms`);
    for (const f of forms) {
      if (f.op === 'table') {
        const col = f.cols[0];
        assert.ok(col && 'minus' in col, printSForm(f));
        const out = await run(f);
        for (const r of out.table!.rows.slice(0, 5)) {
          const [a, b] = [await valueOf(r[0]!.value, col.minus[0]), await valueOf(r[0]!.value, col.minus[1])];
          assert.ok(Math.abs(cell(r[1] ?? null)! - (a! - b!)) < 1e-6, `${printSForm(f)}: ${r[0]!.value}`);
        }
        const { q } = rendered(f, 1);
        assert.ok(saysOne(q, valueWords(col.minus[0])) && saysOne(q, valueWords(col.minus[1])), q);
        continue;
      }
      assert.ok(f.op === 'and' && f.b.op === 'attrcmp', printSForm(f));
      const cmp = f.b;
      // the two attributes are of one kind on one scale (never width against price)
      const pair = [cmp.rel.prop, cmp.other.prop].sort().join(' ');
      assert.ok(['height width', 'price unitCost'].includes(pair), pair);
      const out = await run(f);
      for (const a of out.answers) {
        const [x, y] = [await valueOf(a.value, cmp.rel), await valueOf(a.value, cmp.other)];
        assert.ok(x !== undefined && y !== undefined && { GT: x > y, GE: x >= y, LT: x < y, LE: x <= y }[cmp.cmp], `${a.value}: ${x} ${cmp.cmp} ${y}`);
      }
      const { q } = rendered(f, 3);
      assert.ok((saysOne(q, valueWords(cmp.rel)) && saysOne(q, valueWords(cmp.other))) || / than (tall|wide)/.test(q), q);
    }
    // "wider than tall": the comparative of a measure against the other's positive
    const product = schema.classes.find((c) => c.name === 'Product')!;
    const r = (n: string): SRel => ({ prop: n, iri: C + n, inv: false });
    const wider: SForm = { op: 'and', a: { op: 'cls', name: 'Product', iri: product.iri }, b: { op: 'attrcmp', cmp: 'GT', rel: r('width'), other: r('height') } };
    const qs = Array.from({ length: 40 }, (_, i) => rendered(wider, i + 1).q);
    assert.ok(qs.some((q) => q.includes('wider than tall') || q.includes('wider than they are tall')), qs.join(' | '));
  });

  it('MORE / LESS: the boolean is the comparison of the two numbers, each run on its own; true and false both occur', async () => {
    const sampler = new Sampler(new SynthStore(ex!, schema), new Rng(9), lex);
    const truth = new Set<boolean>();
    let n = 0;
    for (let i = 0; i < 200 && n < 12; i++) {
      const s = await sampler.sample('countcompare');
      if (!s) continue;
      const f = s.form;
      assert.equal(f.op, 'more', printSForm(f));
      n++;
      const [a, b] = [Number((await run(f.a)).answers[0]!.value), Number((await run(f.b)).answers[0]!.value)];
      const out = await run(f);
      const want = f.less ? a < b : a > b;
      assert.equal(out.answers[0]?.value, String(want), `${printSForm(f)}: ${a} vs ${b}`);
      assert.deepEqual(s.answer, { type: 'bool', value: want });
      truth.add(want);
      const { q, form } = rendered(f, i);
      assert.equal(answerTypeOf(form), 'boolean');
      assert.match(q, f.less ? /fewer|less|lower|smaller/ : /more|greater|higher|outnumber/, q);
    }
    assert.ok(n >= 8, `${n} MORE/LESS forms`);
    assert.deepEqual([...truth].sort(), [false, true]);
  });

  it('CONTAINS: every member has the word in its name; the question carries the word exactly as the form does', async () => {
    const forms = await sample('contains', 12);
    assert.ok(forms.length >= 8, `${forms.length} CONTAINS forms`);
    for (const f of forms) {
      assert.ok(f.op === 'and' && f.b.op === 'contains', printSForm(f));
      const word = f.b.text;
      const out = await run(f);
      const labels = await ex!.labels(out.answers.map((a) => a.value));
      for (const a of out.answers) assert.ok((labels.get(a.value) ?? '').toLowerCase().includes(word), `${labels.get(a.value)} contains ${word}`);
      // the word in a form of its own, exactly as the question writes it, at word boundaries: the decoder copies
      // a span of the question's words ([38]), so the question must carry the very text the form names
      const bounded = new RegExp(`(^|[^\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}\\p{N}])`, 'u');
      for (let seed = 1; seed <= 6; seed++) {
        // noise (typos, dropped words, capitals) never touches the word
        const { question, out: text } = rendered(f, seed);
        assert.match(question, bounded, `"${question}" has the word "${word}"`);
        assert.ok(text.includes(`(CONTAINS [ ${word} ])`), text);
        assert.ok(printSForm(f).includes(`(CONTAINS [ ${word} ])`), printSForm(f));
      }
    }
  });

  it('PERCENT of a class or set under a condition: the number is 100 × part / whole, counted on their own', async () => {
    const forms = await sample('percent', 10);
    assert.ok(forms.length >= 6, `${forms.length} PERCENT forms`);
    for (const f of forms) {
      assert.ok(f.op === 'ratio' && f.pct && f.a.op === 'and', printSForm(f));
      const [part, whole] = [(await run(f.a)).answers.length, (await run(f.b)).answers.length];
      const pct = Number((await run(f)).answers[0]!.value);
      assert.ok(Math.abs(pct - (100 * part) / whole) < 1e-6, `${printSForm(f)}: ${pct} = 100 × ${part} / ${whole}`);
      assert.ok(part > 0 && part < whole);
      const { q } = rendered(f, 4);
      assert.match(q, /percent|%|share|how many of/, q);
    }
  });

  it('synthesize: the default mix has every table shape next to the old operators; forms parse; mentions are in the questions', async () => {
    const { examples, stats } = await synthesize(ex!, schema, lex, { count: 600, seed: 4 });
    assert.equal(examples.length, 600);
    const ops = new Map<string, number>();
    for (const e of examples) ops.set(e.operator, (ops.get(e.operator) ?? 0) + 1);
    for (const op of ['table', 'group', 'having', 'topk', 'attrcompare', 'countcompare', 'contains', 'percent', 'join1', 'and', 'count', 'compare2']) assert.ok((ops.get(op) ?? 0) > 0, `${op} in the mix: ${JSON.stringify([...ops])}`);
    const tableShare = ['table', 'group', 'having', 'topk', 'attrcompare', 'countcompare', 'contains', 'percent'].reduce((s, op) => s + (ops.get(op) ?? 0), 0) / examples.length;
    assert.ok(tableShare > 0.1 && tableShare < 0.4, `the new shapes are ${(100 * tableShare).toFixed(0)}% of the mix`);
    for (const e of examples) {
      parseForm(e.form);
      for (const m of e.form.matchAll(/\[ ((?:[^\]\\]|\\.)*) \]/g)) assert.ok(e.question.toLowerCase().includes(m[1]!.replace(/\\(.)/g, '$1').toLowerCase()), `${e.question} / ${e.form}`);
    }
    assert.ok(stats.templates > 100);
  });
});
