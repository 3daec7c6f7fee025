/**
 * BudgetGuard: an Executor wrapper that counts queries and result rows and enforces a wall-clock
 * deadline. It wraps the Executor interface, so the same limits hold for the embedded store and
 * for remote SPARQL endpoints. Running out throws BudgetExhausted, which readers turn into a
 * failure value ({reason, exhausted}).
 */
import type { Executor, QueryOptions, SelectResult, Triple } from '../core';
import type { Exhausted, ReaderBudget, ReaderStats } from './types';

/** Results kept across questions, by query text (BudgetGuard.selectShared). */
export interface SharedResults {
  get(query: string): SelectResult | undefined;
  set(query: string, result: SelectResult): unknown;
}

export class BudgetExhausted extends Error {
  constructor(readonly kind: Exhausted, message: string) {
    super(message);
    this.name = 'BudgetExhausted';
  }
}

export class BudgetGuard implements Executor {
  readonly id: string;
  private queries = 0;
  private triples = 0;
  private readonly start: number;
  readonly deadline: number;

  /** `now` is the clock of the time budget (milliseconds; tests inject one). */
  constructor(
    readonly inner: Executor,
    readonly budget: ReaderBudget,
    private readonly now: () => number = Date.now,
  ) {
    this.id = inner.id;
    this.start = now();
    this.deadline = this.start + budget.timeMs;
  }

  stats(): ReaderStats {
    return { queries: this.queries, triples: this.triples, timeMs: this.now() - this.start };
  }

  remainingMs(): number {
    return this.deadline - this.now();
  }

  /** Rows still allowed; readers use it to size their LIMITs. */
  remainingTriples(): number {
    return this.budget.maxTriples - this.triples;
  }

  /** Throws if the time budget is gone (readers call it between steps of in-memory work too). */
  checkTime(): void {
    if (this.remainingMs() <= 0) throw new BudgetExhausted('time', `time budget of ${this.budget.timeMs} ms used up`);
  }

  private async run<T>(size: (r: T) => number, call: (opts: QueryOptions) => Promise<T>, opts?: QueryOptions): Promise<T> {
    this.checkTime();
    if (this.queries >= this.budget.maxQueries) {
      throw new BudgetExhausted('queries', `query budget of ${this.budget.maxQueries} queries used up`);
    }
    if (this.triples >= this.budget.maxTriples) {
      throw new BudgetExhausted('triples', `triple budget of ${this.budget.maxTriples} rows used up`);
    }
    this.queries++;
    const remaining = this.remainingMs();
    const timeoutMs = Math.max(1, Math.min(opts?.timeoutMs ?? remaining, remaining));
    let timer: NodeJS.Timeout | undefined;
    // The executor also gets the timeout (so the embedded worker can kill the query); the race makes
    // sure a remote endpoint that ignores it still cannot hold the reader past its deadline.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new BudgetExhausted('time', `time budget of ${this.budget.timeMs} ms used up`)), timeoutMs + 5);
    });
    try {
      const result = await Promise.race([call({ ...opts, timeoutMs }), deadline]);
      this.triples += size(result);
      return result;
    } catch (e) {
      if ((e as { code?: string }).code === 'QUERY_TIMEOUT' && this.remainingMs() <= 5) {
        throw new BudgetExhausted('time', `time budget of ${this.budget.timeMs} ms used up`);
      }
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  select(query: string, opts?: QueryOptions): Promise<SelectResult> {
    return this.run((r) => r.rows.length, (o) => this.inner.select(query, o), opts);
  }
  /**
   * A select whose result is a fact of the graph asked again and again (a hub's sample): answered from `cache`
   * when it holds the query, else asked and kept. It counts as a query and its rows like any select, so the
   * budget spent, and with it what the reader does, is the same with or without the cache; only the time differs.
   */
  selectShared(query: string, cache: SharedResults, opts?: QueryOptions): Promise<SelectResult> {
    return this.run(
      (r) => r.rows.length,
      async (o) => {
        const hit = cache.get(query);
        if (hit) return hit;
        const res = await this.inner.select(query, o);
        cache.set(query, res);
        return res;
      },
      opts,
    );
  }
  ask(query: string, opts?: QueryOptions): Promise<boolean> {
    return this.run(() => 0, (o) => this.inner.ask(query, o), opts);
  }
  count(query: string, opts?: QueryOptions): Promise<number> {
    return this.run(() => 1, (o) => this.inner.count(query, o), opts);
  }
  construct(query: string, opts?: QueryOptions): Promise<Triple[]> {
    return this.run((r) => r.length, (o) => this.inner.construct(query, o), opts);
  }
  labels(iris: string[], opts?: QueryOptions): Promise<Map<string, string>> {
    return this.run((r) => r.size, (o) => this.inner.labels(iris, o), opts);
  }
  /** The guard does not own the store. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The guard of this context, creating one if the executor is not guarded yet. */
export function guardOf(executor: Executor, budget: ReaderBudget, now?: () => number): BudgetGuard {
  return executor instanceof BudgetGuard ? executor : new BudgetGuard(executor, budget, now);
}
