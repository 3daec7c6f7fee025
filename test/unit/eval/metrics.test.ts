import { strict as assert } from 'node:assert';
import { answerKeys, latencySummary, mean, normalizeAnswer, percentile, rate, scoreAnswers } from '../../../src/eval/metrics';

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} != ${b}`);

describe('eval metrics: answers', () => {
  it('booleans and numbers are scored exactly; "no answer" is wrong when the gold is false or 0', () => {
    assert.equal(scoreAnswers([], ['false']).acc, 0);
    assert.equal(scoreAnswers([], ['0']).acc, 0);
    assert.equal(scoreAnswers(['true'], ['false']).acc, 0);
    assert.equal(scoreAnswers(['false'], ['false']).acc, 1);
    assert.equal(scoreAnswers(['0'], ['0']).acc, 1);
    assert.equal(scoreAnswers(['18.0'], ['18']).acc, 1, 'numbers compare by value');
    assert.equal(scoreAnswers(['1.8E1'], ['18']).acc, 1);
    assert.equal(scoreAnswers(['53.3333333333'], ['53.333333333333336']).acc, 1, 'an aggregate\'s last digits are noise');
    assert.equal(scoreAnswers(['53.3'], ['53.333333333333336']).acc, 0);
    assert.equal(normalizeAnswer('1994'), '1994');
  });

  it('normalises case, whitespace and compatibility characters', () => {
    assert.equal(normalizeAnswer('  Forrest   GUMP\t'), 'forrest gump');
    assert.equal(normalizeAnswer('Ｆｏｏ'), 'foo');
  });

  it('perfect prediction scores 1 everywhere', () => {
    assert.deepEqual(scoreAnswers(['Tom Hanks', 'Robin Wright'], ['robin wright', 'tom  hanks']), {
      precision: 1, recall: 1, f1: 1, hits1: 1, hit: 1, acc: 1,
    });
  });

  it('Hits@1 looks only at the first-ranked answer (READS App. C example)', () => {
    // gold "apple", model answers "pear, apple, banana": Hits@1 = 0, Hit = 1
    const s = scoreAnswers(['pear', 'apple', 'banana'], ['apple']);
    assert.equal(s.hits1, 0);
    assert.equal(s.hit, 1);
    assert.equal(s.acc, 0);
    close(s.precision, 1 / 3);
    close(s.recall, 1);
    close(s.f1, 0.5); // 2 * (1/3) * 1 / (4/3)
  });

  it('partial overlap: hand-computed F1', () => {
    // pred {a,b,c,d}, gold {b,d,e}: common 2, P = 2/4, R = 2/3, F1 = 2*(1/2)(2/3)/(7/6) = 4/7
    const s = scoreAnswers(['b', 'a', 'c', 'd'], ['b', 'd', 'e']);
    close(s.f1, 4 / 7);
    assert.equal(s.hits1, 1);
    assert.equal(s.hit, 1);
    assert.equal(s.acc, 0);
  });

  it('duplicates after normalisation count once', () => {
    const s = scoreAnswers(['X', 'x ', 'Y'], ['x', 'y']);
    assert.equal(s.acc, 1);
    close(s.precision, 1);
  });

  it('no overlap scores 0', () => {
    assert.deepEqual(scoreAnswers(['a'], ['b']), { precision: 0, recall: 0, f1: 0, hits1: 0, hit: 0, acc: 0 });
  });

  it('empty prediction, non-empty gold: all 0', () => {
    assert.deepEqual(scoreAnswers([], ['a']), { precision: 0, recall: 0, f1: 0, hits1: 0, hit: 0, acc: 0 });
  });

  it('non-empty prediction, empty gold: all 0', () => {
    assert.deepEqual(scoreAnswers(['a'], []), { precision: 0, recall: 0, f1: 0, hits1: 0, hit: 0, acc: 0 });
  });

  it('both empty: the convention is a correct "no answer" (all 1)', () => {
    assert.deepEqual(scoreAnswers([], []), { precision: 1, recall: 1, f1: 1, hits1: 1, hit: 1, acc: 1 });
  });

  it('answer keys use labels, or IRIs when the gold answers are IRIs', () => {
    const items = [
      { value: 'http://x/e/1', label: 'One', type: 'uri' as const },
      { value: '1999', label: null, type: 'literal' as const },
    ];
    assert.deepEqual(answerKeys(items, ['one']), ['One', '1999']);
    assert.deepEqual(answerKeys(items, ['http://x/e/1']), ['http://x/e/1', '1999']);
  });
});

describe('eval metrics: aggregates', () => {
  it('macro average and rates ignore non-applicable values', () => {
    close(mean([1, 0, 0.5])!, 0.5);
    assert.equal(mean([]), null);
    close(rate([true, false, null, true])!, 2 / 3);
    assert.equal(rate([null, undefined]), null);
  });

  it('nearest-rank percentiles', () => {
    const xs = [15, 20, 35, 40, 50];
    assert.equal(percentile(xs, 50), 35);
    assert.equal(percentile(xs, 95), 50);
    assert.equal(percentile(xs, 0), 15);
    assert.equal(percentile([], 50), null);
    const ten = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
    assert.equal(percentile(ten, 50), 5);
    assert.equal(percentile(ten, 95), 10);
    assert.deepEqual(latencySummary(ten), { p50: 5, p95: 10, max: 10 });
    assert.deepEqual(latencySummary([]), { p50: null, p95: null, max: null });
  });
});
