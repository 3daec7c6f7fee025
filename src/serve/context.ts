import type { Request } from 'express';
import type { Logger } from 'pino';
import { AskgraphError, type Answer } from '../core';
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

/** Outcomes that say the answer is transient (store down, timed out) and must not be cached. */
const TRANSIENT = new Set(['QUERY_TIMEOUT', 'REQUEST_TIMEOUT', 'ENDPOINT_DOWN', 'ENDPOINT_ERROR', 'STORE_UNAVAILABLE', 'MODEL_UNAVAILABLE']);

function cacheable(a: Answer): boolean {
  // a partial answer (time ran out, the store was away) is the answer of this moment, not of the question
  return !a.partial && !a.trace.some((t) => t.outcome === 'timeout' || (t.error && TRANSIENT.has(String(t.error.code))));
}

/** Failures of the service itself (not of one candidate form): with no answer they make the request fail. */
const FAILURES = new Set([...TRANSIENT, 'MODEL_ERROR', 'INTERNAL']);

/**
 * Errors are errors: a question without answers whose trace shows a timed-out query, a store or
 * upstream failure or a broken parser is answered with that error's status (504 / 503 / 502 / 500),
 * never a 200 "no answer"; details.trace lists the failed steps. (A fallback reader that spent its
 * own exploration budget is not a failure: that is an honest "no answer".)
 */
export function failureOf(a: Answer): AskgraphError | undefined {
  if (a.answers.length > 0) return undefined;
  const outOfTime = (t: Answer['trace'][number]) => (t.outcome === 'timeout' && t.stage !== 'fallback') || (t.outcome === 'skipped' && t.note === 'time budget spent');
  const failed = a.trace.filter((t) => outOfTime(t) || (t.error && FAILURES.has(String(t.error.code))));
  if (failed.length === 0) return undefined;
  const timedOut = failed.some((t) => outOfTime(t) || t.error?.code === 'QUERY_TIMEOUT' || t.error?.code === 'REQUEST_TIMEOUT');
  const first = failed.find((t) => t.error)?.error;
  const code = (timedOut ? 'QUERY_TIMEOUT' : (first?.code ?? 'INTERNAL')) as 'QUERY_TIMEOUT';
  const trace = failed.slice(0, 10).map((t) => ({
    stage: t.stage,
    outcome: t.outcome,
    ...(t.error ? { code: t.error.code, message: t.error.message.slice(0, 200) } : {}),
    ...(t.note ? { note: t.note.slice(0, 200) } : {}),
  }));
  const why = timedOut ? 'its time budget ran out (a query timed out, or no time was left to run one)' : `${first?.code ?? 'an error'}: ${first?.message ?? ''}`.slice(0, 300);
  return new AskgraphError(code, `the question could not be answered because ${why}`, { details: { trace } });
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
  req.log?.debug({ question }, 'ask');
  const answer = await withDeadline(ctx.gateway.ask(question, { ...options, timeoutMs: budget }), budget + 1000, 'REQUEST_TIMEOUT', 'answering the question');
  for (const [stage, ms] of Object.entries(answer.timings ?? {})) {
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
