/**
 * Golden compiler cases, SPARQL.js style: every directory under fixtures/cases/ becomes a test —
 * its form compiles to exactly query.rq, and that query run on the embedded Oxigraph store over
 * fixtures/graphs/movies-small.ttl returns answers.json (see test/unit/compile/cases-lib.ts).
 */
import * as assert from 'node:assert/strict';
import { Parser } from 'sparqljs';
import { parseForm } from '../../src/form';
import { compileForm } from '../../src/compile';
import { openExecutor, runCompiled } from '../../src/execute';
import type { Executor } from '../../src/core';
import { outcomeStrings, fixtureGraph, loadCases } from './compile/cases-lib';

const cases = loadCases();

describe('golden compiler cases (fixtures/cases, embedded Oxigraph)', function () {
  this.timeout(60000);
  let executor: (Executor & { close(): Promise<void> }) | undefined;

  before(async () => {
    executor = await openExecutor(fixtureGraph());
  });
  after(async () => {
    await executor?.close();
  });

  it('cover every operator and both JOIN directions', () => {
    const all = cases.map((c) => c.form).join('\n');
    const v2 = ['(ASK ', '(DIFF ', '(OR ', '(AVG ', '(SUM ', '(MAX ', '(MIN ', '(RATIO ', '(PERCENT ', '(MOSTCOMMON ', '(LEASTCOMMON ', '(ARGMAXCOUNT ', '(ARGMINCOUNT ', '(HAS '];
    const v3 = ['(TABLE ', '(MINUS ', '(GROUPCOUNT ', '(GROUPAVG ', '(GROUPMIN ', '(HAVING ', '(ASC ', '(DESC ', '(LIMIT ', '(OFFSET ', '(MORE ', '(LESS ', '(CONTAINS '];
    for (const op of ['(JOIN (R ', '(JOIN ', '(AND ', '(COUNT ', '(ARGMAX ', '(ARGMIN ', '(GT ', '(GE ', '(LT ', '(LE ', '(TC ', ...v2, ...v3]) {
      assert.ok(all.includes(op), `no golden case uses ${op}`);
    }
    assert.ok(cases.some((c) => c.form.includes('(AND film ')), 'no class-constraint case');
    assert.ok(cases.some((c) => /\((GT|GE|LT|LE) [a-z_]+ [a-z_]+\)/.test(c.form)), 'no attribute-comparison case ([36])');
    assert.ok(cases.length >= 20);
  });

  for (const c of cases) {
    describe(c.name, () => {
      it('compiles to query.rq', () => {
        assert.ok(c.query !== undefined, `${c.dir}/query.rq is missing`);
        assert.equal(compileForm(parseForm(c.form), c.options).sparql.trim(), c.query);
      });

      it('query.rq is SPARQL that sparqljs parses', () => {
        const q = new Parser().parse(c.query ?? '');
        assert.equal(q.type, 'query');
      });

      it('returns answers.json', async () => {
        assert.ok(c.answers !== undefined, `${c.dir}/answers.json is missing`);
        const outcome = await runCompiled(executor!, compileForm(parseForm(c.form), c.options), { timeoutMs: 20000 });
        assert.ok(outcome.status === 'answers' || outcome.status === 'empty', `${outcome.status}: ${JSON.stringify(outcome.error)}`);
        assert.deepEqual(outcomeStrings(outcome), c.answers);
      });
    });
  }
});
