/**
 * FAULT INJECTOR (a stand-in, named so): an Executor in front of the REAL store that makes it slow, the
 * way a loaded machine or a busy endpoint does. Every call waits `delay[op]` ms (or `delay.all`) before the
 * real store runs it with what is left of its timeout; a call whose wait outlasts its timeoutMs fails at
 * its timeout with QUERY_TIMEOUT, as the real store's own timeout would. Deterministic: the same delays
 * give the same timeouts on any machine (no busy loops, no timing races beyond the delays themselves).
 */
import { AskgraphError, type Executor, type QueryOptions, type SelectResult, type Triple } from '../../src/core';

export type Op = 'select' | 'ask' | 'count' | 'construct' | 'labels';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class LatencyInjector implements Executor {
  /** The real store's id: the same cache keys and entity index as the store itself. */
  readonly id: string;
  /** Added latency per call (ms), by operation, or for all of them; change it between questions. */
  delay: Partial<Record<Op | 'all', number>> = {};
  /** Calls failed by the injector with QUERY_TIMEOUT. */
  timeouts = 0;

  constructor(readonly inner: Executor) {
    this.id = inner.id;
  }

  private async run<T>(op: Op, opts: QueryOptions | undefined, call: (o: QueryOptions | undefined) => Promise<T>): Promise<T> {
    const d = this.delay[op] ?? this.delay.all ?? 0;
    const t = opts?.timeoutMs;
    if (d > 0) {
      if (t !== undefined && d >= t) {
        await sleep(t);
        this.timeouts++;
        throw new AskgraphError('QUERY_TIMEOUT', `fault injector: the store took ${d} ms, over the ${t} ms timeout`);
      }
      await sleep(d);
    }
    return call(t === undefined ? opts : { ...opts, timeoutMs: t - d });
  }

  select(query: string, opts?: QueryOptions): Promise<SelectResult> {
    return this.run('select', opts, (o) => this.inner.select(query, o));
  }
  ask(query: string, opts?: QueryOptions): Promise<boolean> {
    return this.run('ask', opts, (o) => this.inner.ask(query, o));
  }
  count(query: string, opts?: QueryOptions): Promise<number> {
    return this.run('count', opts, (o) => this.inner.count(query, o));
  }
  construct(query: string, opts?: QueryOptions): Promise<Triple[]> {
    return this.run('construct', opts, (o) => this.inner.construct(query, o));
  }
  labels(iris: string[], opts?: QueryOptions): Promise<Map<string, string>> {
    return this.run('labels', opts, (o) => this.inner.labels(iris, o));
  }
  /** The injector does not own the store. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
