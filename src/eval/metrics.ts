/**
 * Answer and speed metrics, defined as in the papers:
 * - F1 (ChatKBQA §5.1): per question, harmonic mean of precision and recall of the predicted answer set
 *   against the gold set; the data-set F1 is the macro average over questions.
 * - Hits@1 (READS, Appendix C, eq. 11): the FIRST-ranked predicted answer is in the gold set.
 * - Hit: ANY predicted answer is in the gold set (READS eq. 12 — what several papers report as "Hits@1";
 *   reported separately and named honestly).
 * - Acc (ChatKBQA): the predicted set equals the gold set exactly.
 * Answers are compared by label, NFKC-, case- and whitespace-normalised; duplicates after normalisation count once.
 *
 * Conventions for empty sets (documented in the report):
 * - gold empty and prediction empty: the system correctly says "no answer" → F1 = Hits@1 = Hit = Acc = 1.
 * - exactly one of them empty: all four are 0 (precision of an empty prediction is taken as 0).
 */
import { foldCase, percentile, type AnswerItem } from '../core';

const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * foldCase (src/core/text.ts: NFKC, lower case, one space). Numbers compare by value ("18", "18.0" and "1.8E1" are one answer; a
 * count or an aggregate is scored exactly), booleans as "true" / "false" ("1" / "0" of SPARQL's
 * boolean lexical space are not numbers here: only true / false are written by the pipeline and QALD).
 */
export function normalizeAnswer(s: string): string {
  const t = foldCase(s);
  if (NUMBER_RE.test(t)) {
    const n = Number(t);
    if (Number.isFinite(n)) return String(Number(n.toPrecision(12)));
  }
  return t;
}

const IRI_RE = /^(https?|urn|ftp):/i;

/**
 * The comparison keys of predicted answers, in rank order: the label (or the value when there is no label),
 * or the IRI itself when the gold answers are IRIs.
 */
export function answerKeys(items: readonly AnswerItem[], gold: readonly string[]): string[] {
  const goldIsIri = gold.length > 0 && gold.every((g) => IRI_RE.test(g.trim()));
  return items.map((a) => (goldIsIri ? a.value : (a.label ?? a.value)));
}

/**
 * The comparison key of one table cell: an IRI by itself when the gold cells hold that IRI, else its label (a gold
 * set written with names); a literal by its value; an empty cell is null.
 */
export function cellKey(cell: AnswerItem | null, gold: ReadonlySet<string>): string | null {
  if (cell === null) return null;
  if (cell.type === 'uri' && (gold.has(normalizeAnswer(cell.value)) || cell.label === null)) return cell.value;
  return cell.label ?? cell.value;
}

/**
 * Exact row match of a table answer: the predicted rows, as a set, equal the gold rows — each row compared as the
 * multiset of its normalised non-empty cells (so the column order of the two queries does not matter).
 */
export function rowsMatch(predicted: readonly (readonly (string | null)[])[], gold: readonly (readonly (string | null)[])[]): boolean {
  const key = (row: readonly (string | null)[]): string =>
    JSON.stringify(
      row
        .filter((c): c is string => c !== null)
        .map(normalizeAnswer)
        .sort(),
    );
  const p = new Set(predicted.map(key));
  const g = new Set(gold.map(key));
  return p.size === g.size && [...p].every((k) => g.has(k));
}

export interface AnswerScores {
  precision: number;
  recall: number;
  f1: number;
  hits1: number;
  hit: number;
  acc: number;
}

/** Scores one question. `predicted` is in rank order (Hits@1 looks at predicted[0]). */
export function scoreAnswers(predicted: readonly string[], gold: readonly string[]): AnswerScores {
  const g = new Set(gold.map(normalizeAnswer));
  const ranked = dedupe(predicted.map(normalizeAnswer));
  const p = new Set(ranked);
  if (g.size === 0 && p.size === 0) return { precision: 1, recall: 1, f1: 1, hits1: 1, hit: 1, acc: 1 };
  if (g.size === 0 || p.size === 0) return { precision: 0, recall: 0, f1: 0, hits1: 0, hit: 0, acc: 0 };
  let common = 0;
  for (const x of p) if (g.has(x)) common++;
  const precision = common / p.size;
  const recall = common / g.size;
  const f1 = common === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return {
    precision,
    recall,
    f1,
    hits1: ranked[0] !== undefined && g.has(ranked[0]) ? 1 : 0,
    hit: common > 0 ? 1 : 0,
    acc: common === p.size && common === g.size ? 1 : 0,
  };
}

function dedupe(xs: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const x of xs) {
    if (seen.has(x)) continue;
    seen.add(x);
    out.push(x);
  }
  return out;
}

/** Mean of the values; null for an empty list (a metric that does not apply). */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

/** Mean of booleans/0-1 values ignoring nulls (questions where the metric does not apply); null if none apply. */
export function rate(values: readonly (boolean | number | null | undefined)[]): number | null {
  const xs = values.filter((v): v is boolean | number => v !== null && v !== undefined).map((v) => (v === true ? 1 : v === false ? 0 : v));
  return mean(xs);
}

/** Nearest-rank percentile: core's (src/core/stats.ts). */
export { percentile };

export interface LatencySummary {
  p50: number | null;
  p95: number | null;
  max: number | null;
}

/** Milliseconds rounded to 0.01 (timer noise below that is not information). */
export function roundMs(x: number | null): number | null {
  return x === null ? null : Math.round(x * 100) / 100;
}

export function latencySummary(ms: readonly number[]): LatencySummary {
  return {
    p50: roundMs(percentile(ms, 50)),
    p95: roundMs(percentile(ms, 95)),
    max: ms.length ? roundMs(ms.reduce((a, b) => (b > a ? b : a), -Infinity)) : null,
  };
}
