import { itemAt } from './checked';
/**
 * Nearest-rank percentile (p in 0..100): the smallest value with at least p% of the values ≤ it; null when empty.
 * The one definition for the evaluation's latencies (src/eval) and every benchmark script's p50 / p95.
 */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return itemAt(sorted, Math.min(rank, sorted.length) - 1);
}
