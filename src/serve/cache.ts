import { LRUCache } from 'lru-cache';
import type { Answer } from '../core';

/** Canonical JSON (sorted keys) so {a,b} and {b,a} give the same key. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return '[' + value.map(canonicalJson).join(',') + ']';
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return '{' + entries.map(([k, v]) => JSON.stringify(k) + ':' + canonicalJson(v)).join(',') + '}';
  }
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify gives undefined for undefined, a function or a symbol; lib.d.ts types it string
  return JSON.stringify(value) ?? 'null';
}

/**
 * The answer cache key: gateway version (store id + model id), executor id, the question exactly as
 * asked (after trimming) and the canonical options. Any difference in any of them is a different entry.
 */
export function answerCacheKey(parts: { version: string; storeId: string; question: string; options: unknown }): string {
  return canonicalJson([parts.version, parts.storeId, parts.question, parts.options ?? {}]);
}

/**
 * LRU + TTL cache of answers, bounded by entries and by bytes (answers with long traces or evidence
 * are large; size = length of their JSON). max 0 disables it (get always misses, set is a no-op).
 */
export class AnswerCache {
  private readonly lru?: LRUCache<string, Answer>;
  constructor(opts: { max: number; ttlMs: number; maxBytes?: number }) {
    if (opts.max > 0) {
      this.lru = new LRUCache<string, Answer>({
        max: opts.max,
        ttl: opts.ttlMs,
        maxSize: opts.maxBytes ?? 64 * 1024 * 1024,
        sizeCalculation: (a) => Math.max(1, JSON.stringify(a).length),
      });
    }
  }
  get enabled(): boolean {
    return this.lru !== undefined;
  }
  get size(): number {
    return this.lru?.size ?? 0;
  }
  get(key: string): Answer | undefined {
    return this.lru?.get(key);
  }
  set(key: string, value: Answer): void {
    this.lru?.set(key, value);
  }
  clear(): void {
    this.lru?.clear();
  }
}
