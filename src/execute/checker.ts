import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { AskgraphError, ERROR_STATUS, toAskgraphError, type ErrorCode } from '../core';
import { type CheckedQuery, precheckQuery, type UserQueryLimits } from './user-query';

/** A worker_threads Worker for a sibling module, compiled (…/x.js) or from the sources under tsx (…/x.ts). */
export function siblingWorker(name: string, workerData?: unknown): Worker {
  const ext = path.extname(__filename);
  const file = path.join(__dirname, name + ext);
  if (ext === '.ts') {
    const tsx = require.resolve('tsx/cjs');
    return new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(file)});`, { eval: true, workerData });
  }
  return new Worker(file, { workerData });
}

interface Job {
  id: number;
  text: string;
  limits: UserQueryLimits;
  resolve: (c: CheckedQuery) => void;
  reject: (e: AskgraphError) => void;
}

/**
 * Parses and checks user queries in a worker thread, one at a time, each within `timeoutMs` (the
 * worker is terminated and replaced when a parse takes longer: QUERY_TOO_COMPLEX). The main thread
 * only runs precheckQuery's linear scan, so /healthz and every other route keep answering while
 * hostile queries are parsed. Parsing is plain JavaScript: terminating the worker is always safe.
 */
export class QueryChecker {
  private worker: Worker | undefined;
  private queue: Job[] = [];
  private running: Job | undefined;
  private timer: NodeJS.Timeout | undefined;
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: { timeoutMs: number; maxQueue: number }) {}

  check(text: string, limits: UserQueryLimits): Promise<CheckedQuery> {
    if (this.closed) return Promise.reject(new AskgraphError('SERVER_BUSY', 'the query checker is closed'));
    try {
      precheckQuery(text, limits);
    } catch (e) {
      return Promise.reject(toAskgraphError(e));
    }
    if (this.queue.length >= this.opts.maxQueue) {
      return Promise.reject(new AskgraphError('SERVER_BUSY', `${this.queue.length} queries are waiting to be checked; retry later`));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, text, limits, resolve, reject });
      this.pump();
    });
  }

  private spawn(): Worker {
    const w = siblingWorker('check-worker');
    w.unref();
    w.on('message', (msg: { id: number; ok: true; checked: CheckedQuery } | { id: number; ok: false; error: { code: string; message: string; details?: Record<string, unknown> } }) => {
      const job = this.running;
      if (w !== this.worker || job?.id !== msg.id) return;
      this.finish();
      if (msg.ok) job.resolve(msg.checked);
      else {
        const code = (msg.error.code in ERROR_STATUS ? msg.error.code : 'SPARQL_SYNTAX') as ErrorCode;
        job.reject(new AskgraphError(code, msg.error.message, msg.error.details ? { details: msg.error.details } : {}));
      }
      this.pump();
    });
    const lost = (why: string) => {
      if (w !== this.worker) return;
      this.worker = undefined;
      const job = this.running;
      this.finish();
      job?.reject(new AskgraphError('QUERY_TOO_COMPLEX', `the query could not be checked (${why})`));
      this.pump();
    };
    w.on('error', (e) => lost(e.message));
    w.on('exit', (code) => lost(`checker exited with code ${code}`));
    return w;
  }

  private finish(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.running = undefined;
  }

  private pump(): void {
    if (this.running || this.closed) return;
    const job = this.queue.shift();
    if (!job) return;
    this.running = job;
    this.worker ??= this.spawn();
    const w = this.worker;
    this.timer = setTimeout(() => {
      if (this.running !== job) return;
      this.worker = undefined;
      w.removeAllListeners();
      void w.terminate();
      this.finish();
      job.reject(new AskgraphError('QUERY_TOO_COMPLEX', `the query took longer than ${this.opts.timeoutMs} ms to parse`));
      this.pump();
    }, this.opts.timeoutMs);
    this.timer.unref();
    w.postMessage({ id: job.id, text: job.text, limits: job.limits });
  }

  async close(): Promise<void> {
    this.closed = true;
    const e = new AskgraphError('SERVER_BUSY', 'the query checker was closed');
    for (const j of this.queue.splice(0)) j.reject(e);
    this.running?.reject(e);
    this.finish();
    const w = this.worker;
    this.worker = undefined;
    if (w) {
      w.removeAllListeners();
      await w.terminate();
    }
  }
}
