/**
 * The reader chain: try readers in order; each first tests, then reads under its own budget guard.
 * Failures are values collected for the trace; the first reader with grounded answers wins. A reader
 * that runs out of time (or meets a store failure of the moment) stops the chain (`stopped`): which
 * reader answers never depends on how busy the machine is.
 *
 * Grounding assertion (READS-style discriminative answering, enforced here for every reader): an
 * answer must occur as a node of the reader's own evidence triples — which came from the store —
 * otherwise it is dropped and counted. A reader therefore cannot return a made-up string.
 */
import type { AnswerItem, TraceEntry } from '../core';
import { AskgraphError, TRANSIENT_CODES } from '../core';
import { BudgetGuard } from './budget';
import { isFailure, type ChainFailure, type ChainResult, type Reader, type ReaderContext, type ReaderSuccess } from './types';

/** Fallback confidence scale: every reader's confidence is capped below any parsed answer's. */
export const CONFIDENCE_CAP: Record<string, number> = { paths: 0.6, triples: 0.5, explore: 0.4, llm: 0.3 };
export const MAX_FALLBACK_CONFIDENCE = 0.6;

function itemKey(a: AnswerItem): string {
  return `${a.type}|${a.value}|${a.datatype ?? ''}`;
}

/** Keeps only answers that occur in the evidence; returns the kept result and the number dropped. */
export function assertGrounded(result: ReaderSuccess): { result: ReaderSuccess; dropped: number } {
  const nodes = new Set<string>();
  for (const ev of result.evidence) for (const t of ev.triples) for (const n of [t.s, t.o]) nodes.add(itemKey(n));
  const answers = result.answers.filter((a) => nodes.has(itemKey(a)));
  return { result: { ...result, answers }, dropped: result.answers.length - answers.length };
}

export async function runChain(readers: Reader[], ctx: ReaderContext): Promise<ChainResult> {
  const start = Date.now();
  const failures: ChainFailure[] = [];
  let dropped = 0;
  const base = ctx.executor instanceof BudgetGuard ? ctx.executor.inner : ctx.executor;
  for (const reader of readers) {
    let ok: true | { reason: string };
    try {
      ok = await reader.test(ctx);
    } catch (e) {
      ok = { reason: `internal error in test: ${(e as Error).message}` };
    }
    if (ok !== true) {
      failures.push({ reader: reader.name, reason: ok.reason, skipped: true });
      continue;
    }
    const guard = new BudgetGuard(base, ctx.budget, ctx.clock);
    let res;
    try {
      res = await reader.read({ ...ctx, executor: guard });
    } catch (e) {
      // A bug in one reader must not take the answer down: it is recorded like any failure.
      failures.push({ reader: reader.name, reason: `internal error: ${(e as Error).message}`, stats: guard.stats() });
      continue;
    }
    if (isFailure(res)) {
      failures.push({ reader: reader.name, reason: res.reason, ...(res.exhausted ? { exhausted: res.exhausted } : {}), ...(res.code ? { code: res.code } : {}), stats: res.stats ?? guard.stats() });
      // Out of time, or the store away: what the next reader would answer depends on the machine's load or
      // the fault, not on the question. The chain stops here, timed out (or failed), with no result.
      const code = res.exhausted === 'time' ? 'QUERY_TIMEOUT' : res.code !== undefined && TRANSIENT_CODES.has(res.code) ? res.code : undefined;
      if (code) return { failures, dropped, stopped: { code, message: `fallback reader ${reader.name}: ${res.reason}` }, timeMs: Date.now() - start };
      continue;
    }
    const checked = assertGrounded(res);
    dropped += checked.dropped + (res.dropped ?? 0);
    if (!checked.result.answers.length) {
      failures.push({
        reader: reader.name,
        reason: checked.dropped ? `all ${checked.dropped} answers were outside the reader's evidence (dropped)` : 'no answers',
        stats: res.stats,
      });
      continue;
    }
    const cap = CONFIDENCE_CAP[reader.name] ?? MAX_FALLBACK_CONFIDENCE;
    const result = { ...checked.result, confidence: Math.max(0, Math.min(checked.result.confidence, cap)) };
    return { result, reader: reader.name, failures, dropped, timeMs: Date.now() - start };
  }
  return { failures, dropped, timeMs: Date.now() - start };
}

/** A failure that stops the chain because the store failed for the moment (time is `exhausted: 'time'`). */
function stops(f: ChainFailure): f is ChainFailure & { code: string } {
  return f.code !== undefined && TRANSIENT_CODES.has(f.code);
}

/** Trace entries for a chain run (one per reader tried), for Answer.trace. */
export function chainTrace(chain: ChainResult): TraceEntry[] {
  const entries: TraceEntry[] = chain.failures.map((f) => ({
    stage: 'fallback',
    reader: f.reader,
    outcome: f.skipped ? 'skipped' : f.exhausted === 'time' ? 'timeout' : stops(f) || f.reason.startsWith('internal error') ? 'error' : 'empty',
    ...(stops(f) ? { error: { code: f.code, message: f.reason } } : {}),
    note: f.exhausted ? `${f.reason} (exhausted: ${f.exhausted})` : f.reason,
    timeMs: f.stats?.timeMs ?? 0,
  }));
  if (chain.result && chain.reader) {
    entries.push({
      stage: 'fallback',
      reader: chain.reader,
      outcome: 'answers',
      answerCount: chain.result.answers.length,
      score: chain.result.confidence,
      ...(chain.result.note ? { note: chain.result.note } : {}),
      timeMs: chain.result.stats.timeMs,
    });
  }
  return entries;
}

export function unknownReader(name: string, known: string[]): AskgraphError {
  return new AskgraphError('BAD_REQUEST', `unknown fallback reader "${name}" (known: ${known.join(', ')})`, { details: { reader: name, known } });
}
