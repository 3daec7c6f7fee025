import type { Request } from 'express';
import type { Logger } from 'pino';
import { AskgraphError, type Answer } from '../core';
import { failureOf, TRANSIENT_OUTCOMES } from '../pipeline';
import type { Admission } from './admission';
import { AnswerCache, answerCacheKey } from './cache';
import type { ServeConfig } from './config';
import type { ServeGateway } from './gateway';
import type { ServeMetrics } from './metrics';
import type { AskOptionsInput } from './schemas';
import { DEFAULT_ASK_TIMEOUT_MS, type QueryChecker } from './stages';

/** What every route handler shares: the gateway, config, metrics, cache and logger of one app. */
export interface ServeContext {
  gateway: ServeGateway;
  config: ServeConfig;
  metrics: ServeMetrics;
  cache: AnswerCache;
  log: Logger;
  /** Bounds concurrent pipeline work (ask, parse). */
  admission: Admission;
  /** Asks running now, by cache key: identical concurrent questions share one pipeline run. */
  inflight: Map<string, Promise<Answer>>;
  diff?: (a: string, b: string) => unknown;
  /** Parses and checks /sparql queries off the main thread. */
  checker: QueryChecker;
}

/** Rejects with `code` after `ms` unless `p` settles first (the timer never keeps the process alive). */
export function withDeadline<T>(p: Promise<T>, ms: number, code: 'QUERY_TIMEOUT' | 'REQUEST_TIMEOUT', what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AskgraphError(code, `${what} exceeded ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

function cacheable(a: Answer): boolean {
  // a partial answer (time ran out, the store was away) is the answer of this moment, not of the question
  return !a.partial && !a.trace.some((t) => t.outcome === 'timeout' || (t.error && TRANSIENT_OUTCOMES.has(t.error.code)));
}

/**
 * Answers a question through the cache: key = gateway version + store id + question + options.
 * Identical concurrent asks share one run (counted as hits). Records cache hits/misses, stage latencies
 * and the answer source in the metrics.
 */
export async function askCached(
  ctx: ServeContext,
  req: Request,
  question: string,
  options: AskOptionsInput,
  stillWanted: () => boolean = () => true,
): Promise<{ answer: Answer; cached: boolean }> {
  const key = answerCacheKey({ version: ctx.gateway.version, storeId: ctx.gateway.executor.id, question, options });
  const hit = ctx.cache.get(key);
  if (hit) {
    ctx.metrics.cacheHits.inc();
    return { answer: hit, cached: true };
  }
  const running = ctx.cache.enabled ? ctx.inflight.get(key) : undefined;
  if (running) {
    ctx.metrics.cacheHits.inc();
    return { answer: await running, cached: true };
  }
  if (ctx.cache.enabled) ctx.metrics.cacheMisses.inc();
  const work = ctx.admission.run(() => runAsk(ctx, req, key, question, options), stillWanted).then((a) => {
    // undefined: the request gave up (timed out) while waiting for a slot; nobody reads this
    if (!a) throw new AskgraphError('REQUEST_TIMEOUT', 'the request timed out while waiting for a free slot');
    return a;
  });
  if (ctx.cache.enabled) {
    ctx.inflight.set(key, work);
    const forget = () => ctx.inflight.delete(key);
    work.then(forget, forget);
  }
  return { answer: await work, cached: false };
}

async function runAsk(ctx: ServeContext, req: Request, key: string, question: string, options: AskOptionsInput): Promise<Answer> {
  // the CLI's budget unless the request asks for another, never more than the request timeout
  const budget = Math.min(options.timeoutMs ?? DEFAULT_ASK_TIMEOUT_MS, ctx.config.timeouts.requestMs);
  req.log.debug({ question }, 'ask');
  const answer = await withDeadline(ctx.gateway.ask(question, { ...options, timeoutMs: budget }), budget + 1000, 'REQUEST_TIMEOUT', 'answering the question');
  for (const [stage, ms] of Object.entries(answer.timings)) {
    if (typeof ms === 'number') ctx.metrics.stageSeconds.observe({ stage }, ms / 1000);
  }
  const source = answer.source === 'parser' ? 'parser' : answer.source.startsWith('fallback') ? 'fallback' : 'none';
  ctx.metrics.answers.inc({ source });
  const failure = failureOf(answer);
  if (failure) throw failure;
  if (cacheable(answer)) ctx.cache.set(key, answer);
  return answer;
}

// req.id and req.log (the request's child logger) are set by pino-http, whose types declare them on IncomingMessage.
export type {} from 'pino-http';
