import type { IncrementResponse, Store } from 'express-rate-limit';

/**
 * Token bucket per client key: `burst` tokens, refilled at perMinute/60 per second. One request
 * costs one token. Buckets idle long enough to be full again are dropped so the map stays small.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    private readonly opts: { perMinute: number; burst: number },
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = opts.perMinute / 60_000;
  }

  get enabled(): boolean {
    return this.opts.perMinute > 0;
  }

  /** Takes a token for `key`; returns 0 when allowed, else the milliseconds until a token is there. */
  take(key: string): number {
    if (!this.enabled) return 0;
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.opts.burst, at: t };
    b.tokens = Math.min(this.opts.burst, b.tokens + (t - b.at) * this.perMs);
    b.at = t;
    this.buckets.set(key, b);
    if (this.buckets.size > 10_000) this.sweep(t);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - b.tokens) / this.perMs);
  }

  /** Tokens left for `key` (burst for a key not seen). */
  tokens(key: string): number {
    return this.buckets.get(key)?.tokens ?? this.opts.burst;
  }

  reset(key: string): void {
    this.buckets.delete(key);
  }

  private sweep(t: number): void {
    for (const [k, b] of this.buckets) {
      if (b.tokens + (t - b.at) * this.perMs >= this.opts.burst) this.buckets.delete(k);
    }
  }
}

/**
 * express-rate-limit's Store over the token buckets: the library runs the middleware (key, skip, handler),
 * the bucket decides. A request counts as hit number burst − tokens left (so `limit: burst`); with no token
 * it reports burst + 1 and resetTime = when the next token is there.
 */
export class TokenBucketStore implements Store {
  readonly localKeys = true;
  constructor(
    private readonly buckets: TokenBuckets,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {}

  increment(key: string): IncrementResponse {
    const t = this.now();
    const wait = this.buckets.take(key);
    if (wait > 0) return { totalHits: this.burst + 1, resetTime: new Date(t + wait) };
    return { totalHits: this.burst - Math.floor(this.buckets.tokens(key)), resetTime: undefined };
  }

  decrement(): void {
    // a request is never given back its token (express-rate-limit calls this only with skip*Requests, unused)
  }

  resetKey(key: string): void {
    this.buckets.reset(key);
  }
}
