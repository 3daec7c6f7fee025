/** Shared plumbing of the readers: the budget guard, failure values, labels, evidence items. */
import type { AnswerItem, EvidenceTriple, Term } from '../../core';
import { isAskgraphError } from '../../core';
import { BudgetExhausted, guardOf, type BudgetGuard } from '../budget';
import type { Edge } from '../graph';
import { termKey } from '../graph';
import { iriLocalName } from '../../core';
import type { Reader, ReaderContext, ReaderResult } from '../types';

/**
 * Runs a reader body with its budget guard. Budget exhaustion and store errors (timeouts, endpoint
 * down) become failure values; anything else is a bug and is thrown.
 */
async function withGuard(ctx: ReaderContext, body: (guard: BudgetGuard) => Promise<ReaderResult>): Promise<ReaderResult> {
  const guard = guardOf(ctx.executor, ctx.budget, ctx.clock);
  try {
    return { ...(await body(guard)), stats: guard.stats() };
  } catch (e) {
    if (e instanceof BudgetExhausted) return { reason: `budget exhausted: ${e.message}`, exhausted: e.kind, stats: guard.stats() };
    if (isAskgraphError(e)) {
      const exhausted = e.code === 'QUERY_TIMEOUT' ? ('time' as const) : undefined;
      return { reason: `${e.code}: ${e.message}`, code: e.code, ...(exhausted ? { exhausted } : {}), stats: guard.stats() };
    }
    throw e;
  }
}

/** A reader that needs grounded topics and runs its body under its budget guard (all of ours). */
export abstract class GuardedReader implements Reader {
  abstract readonly name: string;

  test(ctx: ReaderContext): Promise<true | { reason: string }> {
    return testTopics(ctx);
  }

  read(ctx: ReaderContext): Promise<ReaderResult> {
    return withGuard(ctx, (guard) => this.run(ctx, guard));
  }

  protected abstract run(ctx: ReaderContext, guard: BudgetGuard): Promise<ReaderResult>;
}

export function topicTerms(ctx: ReaderContext): Term[] {
  return ctx.topics.map((t) => ({ type: 'uri' as const, value: t.iri }));
}

/**
 * Whether a topic entity is kept out of every answer and every node a path goes on through (true, 'every-hop': the
 * readers have always read true so, a path back through the topic only restating its own facts). With 'retraced'
 * and false it is not: see `topicBarred`.
 */
export function excludeTopics(ctx: ReaderContext): boolean {
  const e = ctx.excludeTopics ?? true;
  return e === true || e === 'every-hop';
}

/**
 * Whether the node a path reaches by `hops` (from a topic) may not be a topic entity: always where `excludeTopics`;
 * with 'retraced' (the compiler's rule, src/compile) only the node the second hop reaches by going back along the
 * first hop's relation ("the other films of the director of F" are not F; "the spouse of X's spouse" is X).
 */
export function topicBarred(ctx: ReaderContext, hops: readonly { p: string; dir: '>' | '<' }[]): boolean {
  if (excludeTopics(ctx)) return hops.length > 0;
  const [a, b] = hops;
  return ctx.excludeTopics === 'retraced' && hops.length === 2 && a?.p === b?.p && a?.dir !== b?.dir;
}

function testTopics(ctx: ReaderContext): Promise<true | { reason: string }> {
  if (!ctx.topics.length) return Promise.resolve({ reason: 'no topic entities were grounded' });
  if (!ctx.question.trim()) return Promise.resolve({ reason: 'empty question' });
  return Promise.resolve(true);
}

/** Labels for the IRIs among the terms (one executor call); literals label themselves. */
export async function labelsFor(guard: BudgetGuard, terms: Iterable<Term | string>, known?: Map<string, string>): Promise<Map<string, string>> {
  const iris = new Set<string>();
  for (const t of terms) {
    const v = typeof t === 'string' ? t : t.type === 'uri' ? t.value : null;
    if (v && !known?.has(v)) iris.add(v);
  }
  const out = new Map(known ?? []);
  if (iris.size) for (const [k, l] of await guard.labels([...iris])) out.set(k, l);
  return out;
}

export function item(t: Term, labels: Map<string, string>): AnswerItem {
  if (t.type === 'literal') return { value: t.value, label: t.value, type: 'literal', ...(t.datatype ? { datatype: t.datatype } : {}) };
  return { value: t.value, label: labels.get(t.value) ?? null, type: 'uri' };
}

export function relationName(p: string, labels: Map<string, string>): string {
  return labels.get(p) ?? iriLocalName(p);
}

export function evidenceTriple(e: Edge, labels: Map<string, string>): EvidenceTriple {
  return {
    s: item(e.s, labels),
    p: { value: e.p, label: relationName(e.p, labels), type: 'uri' },
    o: item(e.o, labels),
  };
}

export { termKey };
