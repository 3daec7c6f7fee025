/**
 * The state of one question as it runs: the readings found so far (winners, vacuous ones), the trace, the
 * timings, the deadline and the options; and why it stopped, if it did (a time budget spent, the store or the
 * parser away). Shared by the orchestration (gateway.ts), the graph prior (prior.ts) and the probes (probes.ts).
 */
import { AskgraphError, TRANSIENT_CODES, type AnswerItem, type AnswerTable, type CompiledQuery, type Outcome, type Timings, type TraceEntry } from '../core';
import type { GroundAttempt } from '../ground';
import type { ExpectedAnswer } from './wording';
import type { AskOptions } from './options';

export interface Winner {
  attempt: GroundAttempt;
  compiled: CompiledQuery;
  answers: AnswerItem[];
  /** The rows of a table answer (answerType 'table'); `answers` are then its first column's values. */
  table?: AnswerTable;
  /** A count / yes/no / negation whose entity never takes its relation (kept only if nothing else answers). */
  vacuous?: boolean;
}

export interface AttemptRun {
  n: number;
  winners: Winner[];
  /** Count and yes/no readings with a vacuous join (answers only if nothing better turns up). */
  vacuous: Winner[];
  /** Grounded forms already executed in this question. */
  seen: Set<string>;
  trace: TraceEntry[];
  timings: Timings;
  /** When the question started (performance.now()). */
  t0: number;
  deadline: number;
  left: () => number;
  /** The widest beam the parser has decoded for this question (repair.ts readings follow it in `beam`). */
  beamWidth?: number;
  /** The parser's log-probabilities of the repaired readings scored so far (repair.ts: each pass scores only new ones). */
  repairScores?: Map<string, number>;
  /** The answer shape the question's wording asks for (abstain.ts); forms of another shape are skipped. */
  expected: ExpectedAnswer | undefined;
  /** Whether the wording can ask yes or no; if not, yes/no readings are skipped. */
  yesNo: boolean;
  o: AskOptions & { beam: number; timeoutMs: number; bestOf: number; maxAttempts: number; queryTimeoutMs: number };
  /**
   * Why the question was stopped before it finished: its time ran out (QUERY_TIMEOUT), or the store or the
   * parser failed for the moment (TRANSIENT_CODES). Every later step is skipped and the answer is partial:
   * the choice of reading is a function of the question, the pack and the options, so a step that cannot
   * be finished ends the question instead of letting another reading win.
   */
  stopped?: { code: string; message: string; stage: TraceEntry['stage'] };
}

/** Stops the run (the first reason is kept). */
export function stop(run: AttemptRun, stage: TraceEntry['stage'], code: string, message: string): void {
  run.stopped ??= { code, message, stage };
}

/** Has the run stopped (a time budget ran out, or the store or parser is away)? No deadline check: see halted(). */
export function isStopped(run: AttemptRun): boolean {
  return run.stopped !== undefined;
}

/** Whether the run is stopped; stops it when its time budget (timeoutMs) is spent. */
export function halted(run: AttemptRun, stage: TraceEntry['stage'] = 'execute'): boolean {
  if (!run.stopped && performance.now() >= run.deadline) stop(run, stage, 'QUERY_TIMEOUT', `the time budget of ${run.o.timeoutMs} ms ran out`);
  return run.stopped !== undefined;
}

/** Stops the run when a query's outcome failed for the moment (timed out, store away); whether it is stopped. */
export function haltOn(run: AttemptRun, out: Outcome, what: string): boolean {
  const code = out.status === 'timeout' ? 'QUERY_TIMEOUT' : out.error && TRANSIENT_CODES.has(out.error.code) ? out.error.code : undefined;
  if (code) stop(run, 'execute', code, `${what}: ${out.error?.message ?? 'timed out'}`);
  return run.stopped !== undefined;
}

/** The best-scored reading with answers of an attempt pass, else its first vacuous one. */
export function bestReading(run: AttemptRun): Winner | undefined {
  return [...run.winners].sort((x, y) => y.attempt.score - x.attempt.score)[0] ?? run.vacuous[0];
}

/**
 * A step that failed without stopping the question (its reading is dropped, the question goes on): the trace
 * row that says so, with the error's code (INTERNAL for an error of no code).
 */
export function traceError(run: AttemptRun, stage: TraceEntry['stage'], e: unknown, note: string, extra: Partial<TraceEntry> = {}): void {
  const code = e instanceof AskgraphError ? e.code : 'INTERNAL';
  run.trace.push({ stage, ...extra, outcome: 'error', error: { code, message: (e as Partial<Error> | null)?.message ?? String(e) }, note, timeMs: 0 });
}

/**
 * A step that asks the store something the question can do without (the graph prior, the typed checks, the typed
 * readings), within the query's and the question's time: a transient failure (time, the store away) stops the question
 * and gives undefined; any other leaves an error row (`note`) and gives `otherwise`, and the question goes on.
 */
export async function storeStep<T>(run: AttemptRun, stage: TraceEntry['stage'], what: string, step: (timeoutMs: number) => Promise<T>, otherwise: T, note = `${what} could not be asked; the question goes on without it`): Promise<T | undefined> {
  try {
    return await step(Math.min(run.o.queryTimeoutMs, run.left()));
  } catch (e) {
    const code = e instanceof AskgraphError ? e.code : 'INTERNAL';
    if (TRANSIENT_CODES.has(code)) {
      stop(run, stage, code, `${what}: ${(e as Error).message}`);
      return undefined;
    }
    traceError(run, stage, e, note);
    return otherwise;
  }
}
