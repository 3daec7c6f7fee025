import { AskgraphError, type Answer } from '../core';

/** Outcomes that say an answer is transient (store down, timed out): it is the answer of this moment, not of the question. */
export const TRANSIENT_OUTCOMES: ReadonlySet<string> = new Set(['QUERY_TIMEOUT', 'REQUEST_TIMEOUT', 'ENDPOINT_DOWN', 'ENDPOINT_ERROR', 'STORE_UNAVAILABLE', 'MODEL_UNAVAILABLE']);

/** Failures of the service itself (not of one candidate form): with no answer they make the request fail. */
const FAILURES = new Set([...TRANSIENT_OUTCOMES, 'MODEL_ERROR', 'INTERNAL']);

/**
 * Errors are errors: a question without answers whose trace shows a timed-out query, a store or
 * upstream failure or a broken parser is answered with that error's status (504 / 503 / 502 / 500),
 * never a 200 "no answer"; details.trace lists the failed steps. (A fallback reader that spent its
 * own exploration budget is not a failure: that is an honest "no answer".)
 */
export function failureOf(a: Answer): AskgraphError | undefined {
  if (a.answers.length > 0) return undefined;
  const outOfTime = (t: Answer['trace'][number]) => (t.outcome === 'timeout' && t.stage !== 'fallback') || (t.outcome === 'skipped' && t.note === 'time budget spent');
  const failed = a.trace.filter((t) => outOfTime(t) || (t.error && FAILURES.has(t.error.code)));
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

