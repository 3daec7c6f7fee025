import { strict as assert } from 'node:assert';
import { percentile } from '../../../src/core';
import { percentile as evalPercentile } from '../../../src/eval';

/** One percentile (nearest rank) for the evaluation and the benchmark scripts. */
describe('percentile (nearest rank, one definition)', () => {
  it('is the smallest value with at least p% of the values at or below it', () => {
    assert.equal(percentile([], 50), null);
    assert.equal(percentile([7], 95), 7);
    // floor(p·n) would say 2 here (the upper value): nearest rank says 1 (half the values are ≤ 1)
    assert.equal(percentile([2, 1], 50), 1);
    const xs = Array.from({ length: 20 }, (_, i) => 20 - i); // 20 … 1, unsorted input
    assert.equal(percentile(xs, 95), 19);
    assert.equal(percentile(xs, 100), 20);
    assert.equal(percentile(xs, 0), 1);
  });

  it('the evaluation reports with the same function', () => {
    assert.equal(evalPercentile, percentile);
  });
});
