/**
 * Calibrated confidence of a parser answer: P(answer correct | signals), a logistic regression over a few
 * signals of the winning attempt, fitted on held-out data of the model's own kind (held-out synthetic
 * questions and the validation split — never the dev sets) by scripts/calibrate.ts, and shipped with the
 * model as calibration.json. Below the fitted threshold the pipeline does not answer from the parser.
 *
 * Two signals (SIGNALS), so the fit is a few lines of gradient descent rather than a dependency: the model's
 * log-probability of the form and the margin to the next beam form.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskgraphError, itemAt } from '../core';

export interface Signals {
  /** Log-probability of the winning form under the parser. */
  logProb: number;
  /** log of the product of the entity and relation grounding similarities (0 = all exact). */
  grounding: number;
  /** logProb(winner) − logProb(next beam form), capped at 10 (10 when the beam has one form). */
  margin: number;
}

/**
 * The signals the fit uses. Grounding similarity is reported but not fitted: on held-out synthetic questions the
 * typo'd mentions are copied right and then grounded fuzzily, so the fit learned "fuzzy grounding = correct" —
 * a property of how the held-out labels are made (form match), not of answers.
 */
export const SIGNALS: readonly (keyof Signals)[] = ['logProb', 'margin'];

export interface Calibration {
  signals: (keyof Signals)[];
  weights: number[];
  bias: number;
  /** Below this calibrated probability the parser's answer is withheld. */
  threshold: number;
  /** What it was fitted on and how well it fits (for the report). */
  fittedOn?: string;
  examples?: number;
  ece?: number;
}

export function loadCalibration(modelDir: string | undefined): Calibration | undefined {
  if (!modelDir) return undefined;
  const file = path.join(modelDir, 'calibration.json');
  if (!fs.existsSync(file)) return undefined;
  let c: Partial<Calibration> | null;
  try {
    c = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Calibration> | null;
  } catch (e) {
    throw new AskgraphError('DATA_FORMAT', `${file}: not JSON (${(e as Error).message})`, { cause: e, details: { file: path.basename(file) } });
  }
  const ok =
    c !== null && typeof c === 'object' && Array.isArray(c.signals) && c.signals.every((k) => SIGNALS.includes(k)) && Array.isArray(c.weights) &&
    c.weights.length === c.signals.length && c.weights.every(Number.isFinite) && Number.isFinite(c.bias) && Number.isFinite(c.threshold);
  if (!ok) throw new AskgraphError('DATA_FORMAT', `${file}: not a calibration (signals, weights of the same length, bias, threshold)`, { details: { file: path.basename(file) } });
  return c as Calibration;
}

export function signalsOf(logProb: number, scores: readonly number[], nextLogProb: number | undefined): Signals {
  const grounding = scores.reduce((a, s) => a + Math.log(Math.max(1e-6, s)), 0);
  const margin = nextLogProb === undefined ? 10 : Math.min(10, logProb - nextLogProb);
  return { logProb, grounding, margin };
}

function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

export function calibratedProbability(c: Calibration, s: Signals): number {
  let z = c.bias;
  c.signals.forEach((k, i) => (z += itemAt(c.weights, i) * s[k]));
  return sigmoid(z);
}

export interface LabelledSignals {
  signals: Signals;
  correct: boolean;
}

/** Logistic regression (full-batch gradient descent on standardised signals, L2 1e-3). */
export function fitCalibration(rows: readonly LabelledSignals[], opts: { iterations?: number; rate?: number } = {}): Omit<Calibration, 'threshold'> {
  const keys = [...SIGNALS];
  const X = rows.map((r) => keys.map((k) => r.signals[k]));
  const y = rows.map((r) => (r.correct ? 1 : 0));
  const n = X.length;
  const mean = keys.map((_, j) => X.reduce((a, x) => a + itemAt(x, j), 0) / Math.max(1, n));
  const sd = keys.map((_, j) => Math.sqrt(X.reduce((a, x) => a + (itemAt(x, j) - itemAt(mean, j)) ** 2, 0) / Math.max(1, n)) || 1);
  const Z = X.map((x) => x.map((v, j) => (v - itemAt(mean, j)) / itemAt(sd, j)));
  const w = keys.map(() => 0);
  let b = 0;
  const iterations = opts.iterations ?? 2000;
  const rate = opts.rate ?? 0.5;
  for (let it = 0; it < iterations; it++) {
    const gw = keys.map(() => 0);
    let gb = 0;
    for (let i = 0; i < n; i++) {
      const p = sigmoid(b + itemAt(Z, i).reduce((a, v, j) => a + v * itemAt(w, j), 0));
      const e = p - itemAt(y, i);
      gb += e;
      itemAt(Z, i).forEach((v, j) => (gw[j] = itemAt(gw, j) + e * v));
    }
    b -= (rate * gb) / Math.max(1, n);
    w.forEach((v, j) => (w[j] = v - rate * (itemAt(gw, j) / Math.max(1, n) + 1e-3 * v)));
  }
  // Back to raw signals: w·(x−μ)/σ + b = (w/σ)·x + (b − Σ wμ/σ).
  const weights = w.map((v, j) => v / itemAt(sd, j));
  const bias = b - w.reduce((a, v, j) => a + (v * itemAt(mean, j)) / itemAt(sd, j), 0);
  return { signals: keys, weights, bias, examples: n };
}

export interface ReliabilityBin {
  from: number;
  to: number;
  count: number;
  meanConfidence: number;
  accuracy: number;
}

/** Reliability diagram in equal-width bins and the expected calibration error. */
export function reliability(probs: readonly number[], correct: readonly boolean[], bins = 10): { bins: ReliabilityBin[]; ece: number } {
  const out: ReliabilityBin[] = [];
  let ece = 0;
  for (let i = 0; i < bins; i++) {
    const from = i / bins;
    const to = (i + 1) / bins;
    const idx = probs.map((p, k) => (p >= from && (p < to || (i === bins - 1 && p <= to)) ? k : -1)).filter((k) => k >= 0);
    if (idx.length === 0) continue;
    const meanConfidence = idx.reduce((a, k) => a + itemAt(probs, k), 0) / idx.length;
    const accuracy = idx.filter((k) => correct[k]).length / idx.length;
    ece += (idx.length / probs.length) * Math.abs(meanConfidence - accuracy);
    out.push({ from, to, count: idx.length, meanConfidence, accuracy });
  }
  return { bins: out, ece };
}

/** Accuracy of the answered questions when only those at or above each threshold are answered. */
export function coverageCurve(probs: readonly number[], correct: readonly boolean[], thresholds: readonly number[]): { threshold: number; coverage: number; accuracy: number }[] {
  return thresholds.map((t) => {
    const kept = probs.map((p, k) => (p >= t ? k : -1)).filter((k) => k >= 0);
    return { threshold: t, coverage: kept.length / Math.max(1, probs.length), accuracy: kept.length ? kept.filter((k) => correct[k]).length / kept.length : 1 };
  });
}
