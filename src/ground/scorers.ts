import { itemAt } from '../core';
import * as fs from 'node:fs';
import { cosine, fuzzySimilarity } from './similarity';

/**
 * Pluggable similarity between a (normalised) query and a (normalised) candidate label, in [0, 1].
 * `bm25` is the token index's BM25-style score of the candidate, already in [0, 1] and absolute
 * (not relative to the best hit, so a poor best hit stays poor): ½ × IDF-weighted share of the
 * query words found (typo/prefix matches discounted) + ½ × share of the label's words matched.
 */
export interface ScoreInput {
  query: string;
  label: string;
  bm25: number;
}

export interface Scorer {
  readonly name: string;
  score(input: ScoreInput): number;
}

const bm25Scorer: Scorer = { name: 'bm25', score: (x) => x.bm25 };
export const fuzzyScorer: Scorer = { name: 'fuzzy', score: (x) => fuzzySimilarity(x.query, x.label) };

/** Something that embeds a text into a vector (averaged word vectors, or a user's ONNX sentence encoder). */
export interface TextEncoder {
  embed(text: string): Float32Array | null;
}

/**
 * Averaged word vectors from a whitespace-separated text file (GloVe / word2vec text format:
 * `word v1 v2 …` per line). Words without a vector are skipped; a text with none gives null.
 */
export class AveragedWordVectors implements TextEncoder {
  constructor(private readonly vectors: Map<string, Float32Array>, readonly dim: number) {}

  static fromFile(file: string): AveragedWordVectors {
    const vectors = new Map<string, Float32Array>();
    let dim = 0;
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      const parts = line.trim().split(/\s+/);
      if (parts.length < 3) continue;
      const v = Float32Array.from(parts.slice(1), Number);
      if (dim === 0) dim = v.length;
      if (v.length === dim) vectors.set(itemAt(parts, 0).toLowerCase(), v);
    }
    return new AveragedWordVectors(vectors, dim);
  }

  embed(text: string): Float32Array | null {
    const out = new Float32Array(this.dim);
    let n = 0;
    for (const w of text.split(' ')) {
      const v = this.vectors.get(w);
      if (!v) continue;
      for (const [i, x] of v.entries()) out[i] = itemAt(out, i) + x;
      n++;
    }
    if (n === 0) return null;
    for (const [i, x] of out.entries()) out[i] = x / n;
    return out;
  }
}

/** Dense similarity (cosine mapped to [0, 1]); texts without an embedding score 0. */
export function denseScorer(encoder: TextEncoder): Scorer {
  return {
    name: 'dense',
    score: (x) => {
      const a = encoder.embed(x.query);
      const b = encoder.embed(x.label);
      return a && b ? Math.max(0, cosine(a, b)) : 0;
    },
  };
}

/** A weighted mean of scorers; the default is 0.7 fuzzy + 0.3 BM25. */
export function combineScorers(parts: { scorer: Scorer; weight: number }[]): Scorer {
  const total = parts.reduce((s, p) => s + p.weight, 0) || 1;
  return {
    name: parts.map((p) => `${p.scorer.name}*${p.weight}`).join('+'),
    score: (x) => parts.reduce((s, p) => s + p.weight * p.scorer.score(x), 0) / total,
  };
}

export const defaultScorer: Scorer = combineScorers([
  { scorer: fuzzyScorer, weight: 0.7 },
  { scorer: bm25Scorer, weight: 0.3 },
]);
