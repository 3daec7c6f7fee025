import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { AskgraphError, ErrorCode, ERROR_STATUS, Executor, QueryOptions, SelectResult, Triple } from '../core';
import type { BuildInfo, StoreSource } from './loaders';
import type { WorkerReply, WorkerRequest, WorkerStatus } from './protocol';
import { expectForm, queryByForm, QueryForm } from './readonly';
import { isSafeIri, parseJsonAsk, parseJsonSelect, RDFS_LABEL } from './terms';
import { countFromSelect } from './count';

export interface OxigraphOptions {
  /** Identity for traces / cache keys; default "oxigraph:" + the first data file. */
  id?: string;
  labelPredicates?: string[];
  /** Timeout of calls that give none (default 30 s). */
  defaultTimeoutMs?: number;
}

interface Job {
  id: number;
  request: WorkerRequest;
  resolve: (reply: WorkerReply & { ok: true }) => void;
  reject: (e: AskgraphError) => void;
  timer: NodeJS.Timeout;
  timeoutMs: number;
}

/**
 * Starts the query worker. It must run compiled (dist/…/oxigraph-worker.js) and from the sources under
 * tsx: the worker file sits next to this one with the same extension, and a .ts worker first loads tsx's
 * require hook (mocha's --require does not reach workers through process.execArgv).
 */
function spawnWorker(source: StoreSource): Worker {
  const ext = path.extname(__filename);
  const file = path.join(__dirname, 'oxigraph-worker' + ext);
  if (ext === '.ts') {
    const tsx = require.resolve('tsx/cjs');
    return new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(file)});`, { eval: true, workerData: source });
  }
  return new Worker(file, { workerData: source });
}

/**
 * The embedded store: Oxigraph (wasm) inside a worker thread that holds the store. Queries go by message
 * one at a time; a call's timeout covers its wait in the queue and its run. A query still running at its
 * timeout terminates the worker (QUERY_TIMEOUT) and a fresh worker reloads the store from its source
 * (the snapshot when there is one); waiting queries run once it is ready.
 */
export class OxigraphExecutor implements Executor {
  readonly id: string;
  readonly labelPredicates: string[];
  /** How the current worker built its store (size, load time, snapshot or sources). */
  info: BuildInfo | undefined;
  /** Number of workers started (1 + restarts); for tests and the trace. */
  generation = 0;

  private worker: Worker | undefined;
  private ready = false;
  private readyWaiters: { resolve: () => void; reject: (e: AskgraphError) => void }[] = [];
  private fatal: AskgraphError | undefined;
  private queue: Job[] = [];
  private running: Job | undefined;
  private nextId = 1;
  private closed = false;
  private readonly defaultTimeoutMs: number;

  private constructor(
    private readonly source: StoreSource,
    opts: OxigraphOptions,
  ) {
    this.id = opts.id ?? 'oxigraph:' + (source.files[0] ?? 'empty');
    this.labelPredicates = opts.labelPredicates ?? [RDFS_LABEL];
    this.defaultTimeoutMs = opts.defaultTimeoutMs ?? 30_000;
  }

  /** Starts the worker and resolves once the store is loaded (rejects with the load error). */
  static async open(source: StoreSource, opts: OxigraphOptions = {}): Promise<OxigraphExecutor> {
    const ex = new OxigraphExecutor(source, opts);
    ex.start();
    try {
      await ex.whenReady();
    } catch (e) {
      await ex.close();
      throw e;
    }
    return ex;
  }

  /** Starts the worker without waiting for the load (queries wait for it; whenReady() reports a load error). */
  static openInBackground(source: StoreSource, opts: OxigraphOptions = {}): OxigraphExecutor {
    const ex = new OxigraphExecutor(source, opts);
    ex.start();
    return ex;
  }

  /** Resolves when a worker has the store loaded. */
  whenReady(): Promise<void> {
    if (this.fatal) return Promise.reject(this.fatal);
    if (this.ready) return Promise.resolve();
    return new Promise((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
  }

  private start(): void {
    this.ready = false;
    this.generation++;
    const worker = spawnWorker(this.source);
    this.worker = worker;
    worker.on('message', (msg: WorkerStatus | WorkerReply) => {
      if (worker !== this.worker) return;
      if ('type' in msg) this.onStatus(msg);
      else this.onReply(msg);
    });
    worker.on('error', (err) => {
      if (worker !== this.worker) return;
      this.onCrash(`the store worker failed: ${err.message}`);
    });
    worker.on('exit', (code) => {
      if (worker !== this.worker || this.closed) return;
      this.onCrash(`the store worker exited (code ${code})`);
    });
  }

  private onStatus(msg: WorkerStatus): void {
    if (msg.type === 'ready') {
      this.info = msg.info;
      this.ready = true;
      for (const w of this.readyWaiters.splice(0)) w.resolve();
      this.pump();
    } else {
      const code = (msg.error.code in ERROR_STATUS ? msg.error.code : 'STORE_UNAVAILABLE') as ErrorCode;
      this.fatal = new AskgraphError(code, msg.error.message);
      for (const w of this.readyWaiters.splice(0)) w.reject(this.fatal);
      for (const job of this.queue.splice(0)) this.fail(job, this.fatal);
      this.stopWorker();
    }
  }

  private onReply(reply: WorkerReply): void {
    const job = this.running;
    if (!job || job.id !== reply.id) return;
    this.running = undefined;
    clearTimeout(job.timer);
    if (reply.ok) job.resolve(reply);
    else {
      const code = (reply.error.code in ERROR_STATUS ? reply.error.code : 'UNSUPPORTED') as ErrorCode;
      job.reject(new AskgraphError(code, reply.error.message));
    }
    this.pump();
  }

  /** The worker died on its own (e.g. wasm out of memory): fail the running query, start a new worker. */
  private onCrash(message: string): void {
    const job = this.running;
    this.running = undefined;
    if (job) this.fail(job, new AskgraphError('STORE_UNAVAILABLE', message));
    this.stopWorker();
    if (!this.closed && !this.fatal) this.start();
  }

  private stopWorker(): void {
    const w = this.worker;
    this.worker = undefined;
    this.ready = false;
    if (w) {
      w.removeAllListeners('message');
      void w.terminate();
    }
  }

  private fail(job: Job, e: AskgraphError): void {
    clearTimeout(job.timer);
    job.reject(e);
  }

  private pump(): void {
    if (this.running || !this.ready || !this.worker || this.closed) return;
    const job = this.queue.shift();
    if (!job) return;
    this.running = job;
    this.worker.postMessage(job.request);
  }

  private onTimeout(job: Job): void {
    const e = new AskgraphError('QUERY_TIMEOUT', `query exceeded its ${job.timeoutMs} ms timeout`, { details: { timeoutMs: job.timeoutMs } });
    const i = this.queue.indexOf(job);
    if (i >= 0) {
      this.queue.splice(i, 1);
      job.reject(e);
      return;
    }
    if (this.running === job) {
      // Oxigraph cannot be interrupted: terminate the worker and rebuild the store in a fresh one.
      this.running = undefined;
      job.reject(e);
      this.stopWorker();
      if (!this.closed) this.start();
    }
  }

  private run(query: string, form: QueryForm, opts?: QueryOptions): Promise<WorkerReply & { ok: true }> {
    return this.send((id) => ({ id, op: 'query', query, form }), opts);
  }

  private send(request: (id: number) => WorkerRequest, opts?: QueryOptions): Promise<WorkerReply & { ok: true }> {
    if (this.closed) return Promise.reject(new AskgraphError('STORE_UNAVAILABLE', 'the executor is closed'));
    if (this.fatal) return Promise.reject(this.fatal);
    const timeoutMs = opts?.timeoutMs ?? this.defaultTimeoutMs;
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const job: Job = { id, request: request(id), resolve, reject, timeoutMs, timer: undefined as unknown as NodeJS.Timeout };
      job.timer = setTimeout(() => this.onTimeout(job), timeoutMs);
      this.queue.push(job);
      this.pump();
    });
  }

  async select(query: string, opts?: QueryOptions): Promise<SelectResult> {
    const form = expectForm(query, 'SELECT');
    const reply = await this.run(query, form, opts);
    return parseJsonSelect((reply as { json: string }).json);
  }

  async ask(query: string, opts?: QueryOptions): Promise<boolean> {
    const form = expectForm(query, 'ASK');
    const reply = await this.run(query, form, opts);
    return parseJsonAsk((reply as { json: string }).json);
  }

  async count(query: string, opts?: QueryOptions): Promise<number> {
    return countFromSelect(await this.select(query, opts));
  }

  async construct(query: string, opts?: QueryOptions): Promise<Triple[]> {
    const form = expectForm(query, 'CONSTRUCT', 'DESCRIBE');
    const reply = await this.run(query, form, opts);
    return (reply as { triples: Triple[] }).triples;
  }

  /** Labels by index lookups inside the worker (not SPARQL: see oxigraph-worker.ts), one message per call. */
  async labels(iris: string[], opts?: QueryOptions): Promise<Map<string, string>> {
    const wanted = [...new Set(iris.filter(isSafeIri))];
    if (wanted.length === 0) return new Map();
    const reply = await this.send((id) => ({ id, op: 'labels', iris: wanted, predicates: this.labelPredicates }), opts);
    return new Map((reply as { labels: [string, string][] }).labels);
  }

  /** Any read-only query, result by its form (CLI `run --sparql`). */
  async query(query: string, opts?: QueryOptions): Promise<SelectResult | boolean | Triple[]> {
    return queryByForm(this, query, opts);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const e = new AskgraphError('STORE_UNAVAILABLE', 'the executor was closed');
    for (const job of this.queue.splice(0)) this.fail(job, e);
    if (this.running) this.fail(this.running, e);
    this.running = undefined;
    for (const w of this.readyWaiters.splice(0)) w.reject(e);
    const w = this.worker;
    this.worker = undefined;
    if (w) {
      w.removeAllListeners();
      await w.terminate();
    }
  }
}
