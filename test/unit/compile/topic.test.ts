import { strict as assert } from 'node:assert';
import { compileForm } from '../../../src/compile';
import { parseForm } from '../../../src/form';
import { loadPack } from '../../../src/execute';
import { createGateway } from '../../../src/pipeline';

describe('compile: topic exclusion at every hop', () => {
  const form = parseForm('(JOIN (R has_genre) (JOIN directed_by (JOIN (R directed_by) [ Black Snake Moan ])))');

  it("'every-hop' excludes the topic from the answer and from every intermediate JOIN node", () => {
    const { sparql } = compileForm(form, { excludeTopic: 'every-hop' });
    assert.match(sparql, /FILTER\(\?x != \?e0\)/);
    assert.match(sparql, /FILTER\(\?y0 != \?e0\)/);
    assert.match(sparql, /FILTER\(\?y1 != \?e0\)/);
  });

  it('by default excludes it from the answer only, false keeps it', () => {
    const answerOnly = compileForm(form).sparql;
    assert.match(answerOnly, /FILTER\(\?x != \?e0\)/);
    assert.doesNotMatch(answerOnly, /FILTER\(\?y\d != /);
    assert.doesNotMatch(compileForm(form, { excludeTopic: false }).sparql, /FILTER/);
  });
});

describe('compile: the movies pack asks for every-hop topic exclusion', () => {
  it('pack.json keeps excludeTopic through loadPack, and the gateway compiles with it', async () => {
    const pack = await loadPack();
    assert.equal(pack.config.excludeTopic, 'every-hop');
    const gateway = await createGateway({});
    try {
      const compiled = gateway.compile('(JOIN (R has_genre) (JOIN directed_by (JOIN (R directed_by) [ Heat ])))');
      assert.match(compiled.sparql, /FILTER\(\?y0 != \?e0\)/);
    } finally {
      await gateway.close();
    }
  });
});
