import { AskgraphError } from '../core';

/**
 * Admission control for pipeline work (ask, parse): at most `concurrency` run at once, the rest wait
 * in a FIFO queue of at most `queue` entries (beyond it: 503 SERVER_BUSY). Why: the store runs one
 * query at a time and every query's timeout includes its wait, so letting all requests into the
 * pipeline at once turns overload into timed-out queries and wrong "no answer"s; waiting here keeps
 * answers the same under load and only costs latency (bounded by the request timeout).
 */
export class Admission {
  private running = 0;
  private readonly waiting: { grant: () => void }[] = [];

  constructor(private readonly opts: { concurrency: number; queue: number }) {}

  get active(): number {
    return this.running;
  }
  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves with a release function once a slot is free. */
  async acquire(): Promise<() => void> {
    if (this.running < this.opts.concurrency) {
      this.running++;
      return this.releaser();
    }
    if (this.waiting.length >= this.opts.queue) {
      throw new AskgraphError('SERVER_BUSY', `server busy: ${this.running} questions running and ${this.waiting.length} waiting; retry later`);
    }
    await new Promise<void>((grant) => this.waiting.push({ grant }));
    return this.releaser();
  }

  /** Runs `work` in a slot; `stillWanted` is checked when the slot is granted (the client may have timed out). */
  async run<T>(work: () => Promise<T>, stillWanted: () => boolean = () => true): Promise<T | undefined> {
    const release = await this.acquire();
    try {
      if (!stillWanted()) return undefined;
      return await work();
    } finally {
      release();
    }
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting.shift();
      if (next) next.grant(); // the slot passes straight to the next waiter
      else this.running--;
    };
  }
}
