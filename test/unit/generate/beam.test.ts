import { strict as assert } from 'node:assert';
import { parseForm } from '../../../src/form';
import { beamSearch, float32Tensor, gatherBatch, GrammarConstraint, StepDecoder, TargetVocabulary, teacherForce, tokensToFormText } from '../../../src/generate';

// Synthetic vocabulary: 10 pieces (1 bos, 2 eos), the form symbols, two relations.
const OPS = ['(', ')', '[', ']', 'JOIN', 'R', 'AND', 'COUNT', 'ARGMAX', 'ARGMIN', 'GT', 'GE', 'LT', 'LE', 'TC'];
const vocab: TargetVocabulary = { pieces: 10, symbols: [...OPS, 'directed_by', 'starred_actors'], relations: ['directed_by', 'starred_actors'], eos: 2, special: [1, 2, 3] };
const V = vocab.pieces + vocab.symbols.length;
const sym = (s: string): number => vocab.pieces + vocab.symbols.indexOf(s);
const SRC = [5, 6, 7];
const decode = (ids: number[]): string => ids.map((i) => `w${i}`).join(' ');

/**
 * A mock decoder: log-probs are a function of the token prefix (kept per beam), so the search can be
 * checked against hand-computed scores; it records the reorders it is asked for.
 */
class MockDecoder implements StepDecoder {
  readonly vocabSize = V;
  prefixes: number[][] = [[]];
  reorders: number[][] = [];
  steps = 0;
  constructor(private readonly table: (prefix: number[]) => Map<number, number>) {}
  step(tokens: readonly number[], position: number): Promise<Float32Array> {
    this.steps++;
    if (position === 0) this.prefixes = tokens.map(() => []);
    else this.prefixes = this.prefixes.map((p, b) => [...p, tokens[b]!]);
    assert.equal(this.prefixes.length, tokens.length);
    const out = new Float32Array(tokens.length * V).fill(-30);
    this.prefixes.forEach((p, b) => {
      for (const [t, lp] of this.table(p)) out[b * V + t] = lp;
    });
    return Promise.resolve(out);
  }
  reorder(order: readonly number[]): void {
    this.reorders.push([...order]);
    this.prefixes = order.map((o) => this.prefixes[o]!);
  }
}

const key = (p: number[]): string => p.join(',');

describe('generate/beam: constrained beam search (mock decoder)', () => {
  // Greedy prefers "(" first, but then every continuation is poor; "[ w5 ]" wins overall.
  const table = (p: number[]): Map<number, number> => {
    const k = key(p);
    if (k === '') return new Map([[sym('('), -0.1], [sym('['), -0.5]]);
    if (k === key([sym('(')])) return new Map([[sym('COUNT'), -3], [sym('JOIN'), -3.2]]);
    if (k === key([sym('[')])) return new Map([[5, -0.05], [6, -0.4], [sym(']'), -0.01]]);
    if (k === key([sym('['), 5])) return new Map([[sym(']'), -0.01], [6, -1]]);
    if (k === key([sym('['), 6])) return new Map([[sym(']'), -0.02]]);
    if (k.endsWith(String(sym(']')))) return new Map([[2, -0.01]]);
    return new Map([[sym(']'), -0.5], [sym(')'), -0.5], [5, -0.5], [2, -0.5]]);
  };

  it('(mock decoder) beam finds the best complete form that greedy misses; greedy = beam 1', async () => {
    const c = new GrammarConstraint(vocab, SRC);
    const greedy = await beamSearch(new MockDecoder(table), c, { beam: 1, maxLength: 12, bos: 1, eos: 2 });
    assert.equal(greedy.length, 1);
    assert.equal(greedy[0]?.tokens[0], sym('('));
    const beam = await beamSearch(new MockDecoder(table), c, { beam: 3, maxLength: 12, bos: 1, eos: 2 });
    assert.equal(tokensToFormText(beam[0]!.tokens, vocab, decode), '[ w5 ]');
    assert.ok(Math.abs(beam[0]!.logProb - (-0.5 - 0.05 - 0.01 - 0.01)) < 1e-5);
    assert.ok(beam[0]!.logProb > greedy[0].logProb);
  });

  it('(mock decoder) returns distinct hypotheses sorted by score, all parseable, and masks "[ ]"', async () => {
    const c = new GrammarConstraint(vocab, SRC);
    const hyps = await beamSearch(new MockDecoder(table), c, { beam: 4, maxLength: 12, bos: 1, eos: 2 });
    assert.ok(hyps.length >= 3);
    const texts = hyps.map((h) => tokensToFormText(h.tokens, vocab, decode));
    assert.equal(new Set(texts).size, texts.length);
    for (let i = 1; i < hyps.length; i++) assert.ok(hyps[i - 1]!.score >= hyps[i]!.score);
    for (const t of texts) parseForm(t);
    // "]" right after "[" had the best raw log-prob (-0.01) but is not allowed by the grammar
    assert.ok(!texts.some((t) => t.includes('[ ]')));
  });

  it('(mock decoder) reorders the cache by parent beam and stops early once k forms are final', async () => {
    const c = new GrammarConstraint(vocab, SRC);
    const d = new MockDecoder(table);
    await beamSearch(d, c, { beam: 2, maxLength: 40, bos: 1, eos: 2 });
    // step 0 has one parent: both new beams come from beam 0
    assert.deepEqual(d.reorders[0], [0, 0]);
    assert.ok(d.steps < 40, `ran ${d.steps} steps`);
  });

  it('(mock decoder) never returns an unfinished form when the length limit is tight', async () => {
    const c = new GrammarConstraint(vocab, SRC);
    const hyps = await beamSearch(new MockDecoder(() => new Map([[sym('('), -0.01], [sym('COUNT'), -0.01], [sym('JOIN'), -0.01]])), c, {
      beam: 4,
      maxLength: 9,
      bos: 1,
      eos: 2,
    });
    assert.ok(hyps.length > 0);
    for (const h of hyps) {
      assert.ok(h.tokens.length + 1 <= 9);
      assert.ok(c.isComplete(c.run(h.tokens)), tokensToFormText(h.tokens, vocab, decode));
    }
  });

  it('(mock decoder) length normalisation ranks by logProb / length^alpha', async () => {
    const c = new GrammarConstraint(vocab, SRC);
    const hyps = await beamSearch(new MockDecoder(table), c, { beam: 4, maxLength: 12, bos: 1, eos: 2, lengthPenalty: 1 });
    for (const h of hyps) assert.ok(Math.abs(h.score - h.logProb / (h.tokens.length + 1)) < 1e-9);
  });

  it('(mock decoder) renormalised scores: forced tokens cost nothing, sums equal renormalised teacher forcing', async () => {
    const c = new GrammarConstraint(vocab, SRC);
    const hyps = await beamSearch(new MockDecoder(table), c, { beam: 3, maxLength: 12, bos: 1, eos: 2, renormalize: true });
    const best = hyps[0]!;
    assert.equal(tokensToFormText(best.tokens, vocab, decode), '[ w5 ]');
    // step 0: allowed {'(' -0.1, '[' -0.5}; step 1: allowed pieces {5,6,7}; step 2: {']', 6}; step 3: eos only → 0
    const lse = (xs: number[]) => Math.log(xs.reduce((a, x) => a + Math.exp(x), 0));
    const want = -0.5 - lse([-0.1, -0.5]) + (-0.05 - lse([-0.05, -0.4, -30])) + (-0.01 - lse([-0.01, -1]));
    assert.ok(Math.abs(best.logProb - want) < 1e-4, `${best.logProb} vs ${want}`);
  });

  it('(mock decoder) teacher forcing sums the log-probs of each sequence plus eos', async () => {
    const seqs = [[sym('['), 5, sym(']')], [sym('['), 6, sym(']')]];
    const scores = await teacherForce(new MockDecoder(table), seqs, 1, 2);
    assert.ok(Math.abs(scores[0]! - (-0.5 - 0.05 - 0.01 - 0.01)) < 1e-5);
    assert.ok(Math.abs(scores[1]! - (-0.5 - 0.4 - 0.02 - 0.01)) < 1e-5);
  });

  it('gatherBatch gathers cache blocks along the batch axis', () => {
    // [L=2, B=3, H=1, T=1, Dh=2]
    const data = Float32Array.from({ length: 12 }, (_, i) => i);
    const g = gatherBatch(float32Tensor(data, [2, 3, 1, 1, 2]), [2, 0]);
    assert.deepEqual(g.dims, [2, 2, 1, 1, 2]);
    assert.deepEqual(Array.from(g.data as Float32Array), [4, 5, 0, 1, 10, 11, 6, 7]);
  });
});
