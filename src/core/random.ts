import { itemAt } from './checked';
/**
 * The one seeded random source (mulberry32): the same seed gives the same synthetic data, the same eval sample
 * (src/eval sampleExamples) and the same training mix (scripts/movies-train-data.ts). Seed 0 is taken as 0x9e3779b9.
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Error('pick from an empty list');
    return itemAt(xs, this.int(xs.length));
  }

  /** Picks by weight (weights ≥ 0, not all 0). */
  weighted<T>(xs: readonly T[], weight: (x: T) => number): T {
    const ws = xs.map(weight);
    const total = ws.reduce((a, b) => a + b, 0);
    let r = this.next() * total;
    for (const [i, x] of xs.entries()) {
      r -= itemAt(ws, i);
      if (r < 0) return x;
    }
    return itemAt(xs, -1, 'weighted pick');
  }

  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [xs[i], xs[j]] = [itemAt(xs, j), itemAt(xs, i)];
    }
    return xs;
  }
}
