import { strict as assert } from 'node:assert';
import { Rng } from '../../../src/core';
import { sampleExamples } from '../../../src/eval';
import { Rng as SynthRng } from '../../../src/synth';

/** One seeded generator (core Rng, mulberry32) for synthesis, eval samples and the training mix. */
describe('seeded random source (one for every stage)', () => {
  it('gives the streams it gave before it moved to core (same seed, same synthetic data and samples)', () => {
    const r = new Rng(7);
    assert.equal(r.next(), 0.011704753153026104);
    assert.equal(r.next(), 0.06195825757458806);
    const xs = Array.from({ length: 20 }, (_, i) => i);
    assert.deepEqual(sampleExamples(xs, 5, 7), [4, 5, 7, 9, 19]);
    assert.deepEqual(sampleExamples(xs, 5, 123456), [0, 8, 9, 10, 13]);
  });

  it('the eval sample is the Rng shuffle, and synth uses the same class', () => {
    const xs = Array.from({ length: 30 }, (_, i) => i);
    const expected = new Rng(42).shuffle([...xs]).slice(0, 8).sort((a, b) => a - b);
    assert.deepEqual(sampleExamples(xs, 8, 42), expected);
    assert.equal(SynthRng, Rng);
  });
});
