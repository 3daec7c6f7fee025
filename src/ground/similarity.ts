/**
 * String similarities in [0, 1] on normalised text. They run only on a short candidate list
 * (the index's MiniSearch hits), never over the whole label set.
 * Edit distance is fastest-levenshtein's (the one Levenshtein of the code base, also src/pipeline/abstain.ts).
 */
import { itemAt } from '../core';
import { distance } from 'fastest-levenshtein';

/** Character n-grams of " text " (padded so short words and word boundaries count). */
function charNgrams(text: string, n = 3): Set<string> {
  const s = ` ${text} `;
  const out = new Set<string>();
  if (s.length <= n) {
    out.add(s);
    return out;
  }
  for (let i = 0; i + n <= s.length; i++) out.add(s.slice(i, i + n));
  return out;
}

export function jaccard<T>(a: Set<T>, b: Set<T>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

/** 1 − edit distance / longer length. */
export function editSimilarity(a: string, b: string): number {
  const len = Math.max(a.length, b.length);
  if (len === 0) return 1;
  return 1 - distance(a, b) / len;
}

/** The fuzzy similarity: the better of trigram Jaccard and edit similarity (typos vs. word order). */
export function fuzzySimilarity(a: string, b: string): number {
  if (a === b) return 1;
  return Math.max(jaccard(charNgrams(a), charNgrams(b)), editSimilarity(a, b));
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = itemAt(a, i);
    const y = itemAt(b, i);
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
