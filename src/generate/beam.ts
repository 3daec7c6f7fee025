/**
 * Grammar-constrained beam search over a one-step decoder with a key/value cache. Written here because
 * transformers.js (the usual JS choice) has no beam search, and because the grammar/copy constraint must
 * sit inside the search: at every step a beam may only extend with the tokens its constraint state
 * allows (the model's log-probabilities of all other tokens are masked to -Infinity), and forms that
 * cannot be completed within the length limit are never started.
 *
 * The search is model-agnostic: a StepDecoder runs one step for the live beams and reorders its cache.
 * Scores are the sums of the model's own log-probabilities of the chosen tokens (eos included).
 */
import { itemAt } from '../core';
import type { ConstraintState, GrammarConstraint } from './constraint';

export interface StepDecoder {
  /** Target vocabulary size V (row length of the returned log-probabilities). */
  readonly vocabSize: number;
  /** One decoder step for B = tokens.length beams at `position`; returns log-probs [B * V]. */
  step(tokens: readonly number[], position: number): Promise<Float32Array>;
  /** Reorders the cache so that new beam i continues old beam order[i] (gather along the batch axis). */
  reorder(order: readonly number[]): void;
}

export interface BeamOptions {
  /** Beam size k (1 = greedy). */
  beam: number;
  /** Most target tokens to generate, eos included. */
  maxLength: number;
  /** Decoder start token (fed at position 0). */
  bos: number;
  eos: number;
  /**
   * Length normalisation exponent alpha: hypotheses are ranked by logProb / length^alpha (0 = off,
   * raw sums). With alpha = 0 the search stops exactly when no live beam can beat the k-th finished one.
   */
  lengthPenalty?: number;
  /**
   * Score with the constrained distribution: each step's log-probs renormalised over the allowed
   * tokens (log p(t) - log sum_allowed p), so tokens the grammar forces cost nothing (measured on a
   * weak tiny model: it removes the bias towards cut-short entity spans that raw sums have).
   */
  renormalize?: boolean;
  /**
   * Drop live beams more than this many nats below the best hypothesis so far (live or finished), so
   * fewer beams run through the decoder. Off when undefined. Hypotheses that far behind can still
   * matter for a long k-list, so it trades beam recall for speed.
   */
  prune?: number;
}

export interface Hypothesis {
  /** Target tokens, eos excluded. */
  tokens: number[];
  /** Sum of log-probabilities, eos included. */
  logProb: number;
  /** The ranking score (logProb, length-normalised if asked). */
  score: number;
}

interface Cand {
  b: number;
  t: number;
  logProb: number;
  score: number;
}

interface Live {
  tokens: number[];
  logProb: number;
  state: ConstraintState;
}

/**
 * Runs the constrained beam search and returns up to `beam` finished hypotheses (more if asked via
 * `keep`, to leave room for de-duplication by the caller), best first.
 */
export async function beamSearch(
  decoder: StepDecoder,
  constraint: GrammarConstraint,
  opts: BeamOptions,
  keep = opts.beam,
): Promise<Hypothesis[]> {
  const k = Math.max(1, Math.floor(opts.beam));
  const alpha = opts.lengthPenalty ?? 0;
  const V = decoder.vocabSize;
  const rank = (logProb: number, len: number): number => (alpha ? logProb / Math.pow(len, alpha) : logProb);
  const finished: Hypothesis[] = [];
  let live: Live[] = [{ tokens: [], logProb: 0, state: constraint.initial() }];
  let last = [opts.bos];

  for (let step = 0; step < opts.maxLength && live.length > 0; step++) {
    const logp = await decoder.step(last, step);
    const budget = opts.maxLength - step;
    const cands: Cand[] = [];
    // Per beam only its k + 1 best extensions can be taken (k live ones and its eos), so each beam keeps those
    // (ties in allowed order, as the stable sort below has them): an open-name model allows thousands of pieces.
    const K = k + 1;
    for (const [b, beam] of live.entries()) {
      const row = b * V;
      const allowed = constraint.allowed(beam.state, budget);
      const norm = opts.renormalize ? logMass(logp, row, allowed) : 0;
      const top: Cand[] = [];
      for (const t of allowed) {
        const lp = (logp[row + t] ?? NaN) - norm + constraint.tokenBonus(beam.state, t);
        if (!(lp > -Infinity)) continue; // NaN or -Infinity
        const logProb = beam.logProb + lp;
        const score = rank(logProb, beam.tokens.length + 1);
        if (top.length === K && !(score > (top[K - 1]?.score ?? -Infinity))) continue;
        let i = top.length;
        while (i > 0 && (top[i - 1]?.score ?? Infinity) < score) i--;
        top.splice(i, 0, { b, t, logProb, score });
        if (top.length > K) top.pop();
      }
      for (const c of top) cands.push(c);
    }
    cands.sort((x, y) => y.score - x.score);
    const next: Live[] = [];
    const order: number[] = [];
    for (const c of cands) {
      if (next.length >= k) break;
      const parent = itemAt(live, c.b, 'beam parent');
      if (c.t === opts.eos) {
        finished.push({ tokens: parent.tokens, logProb: c.logProb, score: c.score });
        continue;
      }
      next.push({ tokens: [...parent.tokens, c.t], logProb: c.logProb, state: constraint.advance(parent.state, c.t) });
      order.push(c.b);
    }
    live = next;
    const prune = opts.prune;
    if (prune !== undefined && live.length > 1) {
      let best = -Infinity;
      for (const l of live) best = Math.max(best, l.logProb);
      for (const f of finished) best = Math.max(best, f.logProb);
      const keepIdx = live.map((l, i) => (l.logProb >= best - prune ? i : -1)).filter((i) => i >= 0);
      if (keepIdx.length < live.length) {
        live = keepIdx.map((i) => itemAt(live, i, 'pruned beam'));
        const o = keepIdx.map((i) => itemAt(order, i, 'beam order'));
        order.length = 0;
        order.push(...o);
      }
    }
    if (live.length === 0) break;
    if (finished.length >= keep) {
      finished.sort((x, y) => y.score - x.score);
      const kth = itemAt(finished, keep - 1, 'finished beams').score;
      // Raw sums only decrease, so a live beam below the k-th finished one can never overtake it.
      if (alpha === 0 ? live.every((l) => l.logProb <= kth) : true) break;
    }
    decoder.reorder(order);
    last = live.map((l) => itemAt(l.tokens, -1, 'beam tokens'));
  }
  finished.sort((x, y) => y.score - x.score);
  return finished.slice(0, keep);
}

/**
 * Teacher-forced log-probabilities of target sequences (eos appended) for one source: runs all
 * sequences as one batch through the step decoder. Sequences must be non-empty. `normalizer(b, step,
 * logp, offset)` may return a log-normaliser subtracted from that step's log-prob (e.g. the log of the
 * probability mass of the grammar-allowed tokens, to score with the constrained distribution).
 */
export async function teacherForce(
  decoder: StepDecoder,
  sequences: readonly (readonly number[])[],
  bos: number,
  eos: number,
  normalizer?: (b: number, step: number, logp: Float32Array, offset: number) => number,
): Promise<number[]> {
  const V = decoder.vocabSize;
  const seqs = sequences.map((s) => [...s, eos]);
  const n = seqs.length;
  const total = new Array<number>(n).fill(0);
  const maxLen = Math.max(...seqs.map((s) => s.length));
  let last = new Array<number>(n).fill(bos);
  for (let step = 0; step < maxLen; step++) {
    const logp = await decoder.step(last, step);
    for (const [b, seq] of seqs.entries()) {
      const t = seq[step];
      if (t !== undefined) total[b] = itemAt(total, b) + (logp[b * V + t] ?? NaN) - (normalizer ? normalizer(b, step, logp, b * V) : 0);
    }
    // Sequences that ended keep feeding eos; their further outputs are ignored.
    last = seqs.map((s) => s[step] ?? eos);
  }
  return total;
}

/** log sum_{t in allowed} exp(logp[offset + t]) (0 if nothing is allowed). */
export function logMass(logp: Float32Array, offset: number, allowed: readonly number[]): number {
  let m = -Infinity;
  for (const t of allowed) {
    const x = logp[offset + t] ?? NaN;
    if (x > m) m = x;
  }
  if (m === -Infinity) return 0;
  let sum = 0;
  for (const t of allowed) sum += Math.exp((logp[offset + t] ?? NaN) - m);
  return m + Math.log(sum);
}
