import { AskgraphError } from '../core';
import type { GroundOptions } from '../ground';

/**
 * Options of one question (CONTRACTS: AskOptions). Defaults:
 *   beam 4          beam width of the parser (bench: beam 1 vs 8 ablation)
 *   fallback        reader chain after the parser: 'off' or reader names (default: the default chain)
 *   timeoutMs 10000 budget of the whole question (generation, grounding, execution, fallback)
 *   kE/tE/kR/tR/k1/t1/k2/t2  Algorithm 1 (see GROUND_DEFAULTS in src/ground/search.ts)
 *   noParser        skip the parser: straight to the fallback chain
 *   strategy        'first-nonempty' (default, ChatKBQA) or 'best-of-n': execute until `bestOf`
 *                   forms gave answers and keep the best-scored one
 *   maxAttempts 24  grounded forms executed at most
 *   adaptiveBeam    greedy form first (exact grounding only); the full beam only when it does not answer
 */
export interface AskOptions extends Pick<GroundOptions, 'kE' | 'tE' | 'kR' | 'tR' | 'k1' | 't1' | 'k2' | 't2' | 'entityRetrieval' | 'relationRetrieval' | 'hops'> {
  beam?: number;
  fallback?: 'off' | string[];
  timeoutMs?: number;
  noParser?: boolean;
  strategy?: 'first-nonempty' | 'best-of-n';
  bestOf?: number;
  maxAttempts?: number;
  /**
   * Greedy form first (exact grounding only), the full beam and Algorithm 1 only if it does not
   * answer. Default true; false always decodes the whole beam first.
   */
  adaptiveBeam?: boolean;
  /** Per-query timeout for each executed form. Default 3000 ms (bounded by what is left of timeoutMs). */
  queryTimeoutMs?: number;
  /**
   * Answer even when the question has words the parser was never shown or the calibrated confidence is
   * below the model's threshold (src/pipeline/abstain.ts, calibration.ts). For calibration and ablations.
   */
  noAbstain?: boolean;
}

export const ASK_DEFAULTS = {
  beam: 4,
  timeoutMs: 10000,
  strategy: 'first-nonempty' as 'first-nonempty' | 'best-of-n',
  bestOf: 3,
  maxAttempts: 24,
  queryTimeoutMs: 3000,
  adaptiveBeam: true,
};

export const MAX_QUESTION_LENGTH = 1000;

// C0/C1 controls except tab, line feed and carriage return (those are folded into spaces).
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Checks and tidies a question: QUESTION_INVALID (empty, not text, control characters), INPUT_TOO_LARGE (> 1,000 characters). */
export function validateQuestion(question: unknown): string {
  if (typeof question !== 'string') throw new AskgraphError('QUESTION_INVALID', 'the question must be a string');
  if (question.length > MAX_QUESTION_LENGTH) {
    throw new AskgraphError('INPUT_TOO_LARGE', `the question has ${question.length} characters; at most ${MAX_QUESTION_LENGTH} are accepted`, {
      details: { length: question.length, max: MAX_QUESTION_LENGTH },
    });
  }
  if (CONTROL.test(question)) throw new AskgraphError('QUESTION_INVALID', 'the question contains control characters');
  const q = question.replace(/[\t\r\n]+/g, ' ').trim();
  if (q === '') throw new AskgraphError('QUESTION_INVALID', 'the question is empty');
  return q;
}

function positiveInt(name: string, v: unknown, max: number): void {
  if (v === undefined) return;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max) throw new AskgraphError('BAD_REQUEST', `${name} must be an integer in 1..${max}, got ${String(v)}`);
}

function unit(name: string, v: unknown): void {
  if (v === undefined) return;
  if (typeof v !== 'number' || !(v >= 0 && v <= 1)) throw new AskgraphError('BAD_REQUEST', `${name} must be a number in [0, 1], got ${String(v)}`);
}

/** BAD_REQUEST for out-of-range options (they come from HTTP bodies and CLI flags). */
export function checkAskOptions(o: AskOptions): void {
  positiveInt('beam', o.beam, 32);
  positiveInt('kE', o.kE, 100);
  positiveInt('kR', o.kR, 100);
  positiveInt('k1', o.k1, 1000);
  positiveInt('k2', o.k2, 10000);
  positiveInt('bestOf', o.bestOf, 100);
  positiveInt('maxAttempts', o.maxAttempts, 1000);
  positiveInt('timeoutMs', o.timeoutMs, 600000);
  positiveInt('queryTimeoutMs', o.queryTimeoutMs, 600000);
  for (const k of ['tE', 'tR', 't1', 't2'] as const) unit(k, o[k]);
  if (o.fallback !== undefined && o.fallback !== 'off' && !(Array.isArray(o.fallback) && o.fallback.every((x) => typeof x === 'string'))) {
    throw new AskgraphError('BAD_REQUEST', "fallback must be 'off' or a list of reader names");
  }
  if (o.strategy !== undefined && o.strategy !== 'first-nonempty' && o.strategy !== 'best-of-n') {
    throw new AskgraphError('BAD_REQUEST', "strategy must be 'first-nonempty' or 'best-of-n'");
  }
}
