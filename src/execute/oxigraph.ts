import { type ChildProcess, fork } from 'node:child_process';
import * as path from 'node:path';
import { AskgraphError, ErrorCode, ERROR_STATUS, Executor, QueryOptions, SelectResult, Triple } from '../core';
import { type BuildInfo, checkStoreFits, type StoreSource } from './loaders';
import type { WorkerDataset, WorkerReply, WorkerRequest, WorkerStatus } from './protocol';
import { expectForm, queryByForm, QueryForm } from './readonly';
import { isSafeIri } from '../sparql';
import { parseJsonAsk, parseJsonSelect, RDFS_LABEL } from './terms';
import { countFromSelect } from './count';
import { withLocalNameLabels } from './labels';
import type { CheckedQuery } from './user-query';

export interface OxigraphOptions {
  /** Identity for traces / cache keys; default "oxigraph:" + the first data file. */
  id?: string;
  labelPredicates?: string[];
  /** IRIs without a label get their split local name (PackConfig.localNameLabels). */
  localNameLabels?: boolean;
  /** Timeout of calls that give none (default 30 s). */
  defaultTimeoutMs?: number;
  /**
   * The pipeline's store process is killed for a running query no earlier than this many ms after the
   * query started (default 3000, the pipeline's default per-query timeout): a caller whose own timeout
   * is shorter gets QUERY_TIMEOUT at its timeout, while the query runs on (its result dropped) up to
   * this floor. So a request asking for a tiny queryTimeoutMs cannot make the store that every
   * question shares restart (and reload) once per query.
   */
  minKillMs?: number;
}

/** Default of OxigraphOptions.minKillMs. */
const MIN_KILL_MS = 3000;

/** What a store process is doing: loading (first start), ready, restarting after a failure, or failed for good. */
export type StoreState = 'starting' | 'ready' | 'restarting' | 'failed';

export interface StoreHealth {
  state: StoreState;
  /** Processes started after the first one (after a timeout kill, a trap, a crash). */
  restarts: number;
  /** Queries waiting + running. */
  queued: number;
  /** The last reason for a restart (no paths). */
  lastRestart?: string;
}

/** Result of a user query (the /sparql route), by form. */
export type UserQueryResult = { form: 'SELECT'; result: SelectResult } | { form: 'ASK'; value: boolean } | { form: 'CONSTRUCT' | 'DESCRIBE'; triples: Triple[] };

export interface UserQueryOptions extends QueryOptions {
  /** Graphs from the protocol's default-graph-uri / named-graph-uri (they replace the query's FROM). */
  dataset?: WorkerDataset;
  /** Result cap in bytes (see WorkerRequest). */
  maxBytes?: number;
}

interface Job {
  id: number;
  request: WorkerRequest;
  resolve: (reply: WorkerReply & { ok: true }) => void;
  reject: (e: AskgraphError) => void;
  timer: NodeJS.Timeout;
  timeoutMs: number;
  /** When the store process started running it. */
  startedAt?: number;
  /** Its caller timed out while it ran: the result is dropped, the process killed if it runs past the floor. */
  abandoned?: boolean;
}

type Ok = WorkerReply & { ok: true };

/**
 * Starts a store process. It must run compiled (dist/…/oxigraph-worker.js) and from the sources under
 * tsx: the file sits next to this one with the same extension, and a .ts child first loads tsx's
 * require hook.
 */
function spawnStoreProcess(): ChildProcess {
  const ext = path.extname(__filename);
  const file = path.join(__dirname, 'oxigraph-worker' + ext);
  // --no-turbo-inline-js-wasm-calls: with it on (Node 20's default) V8 aborts the process ("Fatal error
  // … unreachable code" in Deoptimizer::DoComputeBuiltinContinuation, SIGTRAP) when optimised code that
  // inlined a call into Oxigraph's wasm deoptimises — the CONSTRUCT … n-triples crash of issue 15, which
  // took the whole gateway down while the store ran in a worker thread of the gateway's process.
  const execArgv = ['--no-turbo-inline-js-wasm-calls', ...(ext === '.ts' ? ['--require', require.resolve('tsx/cjs')] : [])];
  return fork(file, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
}

/** Restart delays after consecutive failures without a successful query in between (ms). */
const BACKOFF = [0, 250, 1000, 3000, 5000];

/**
 * One store process with its queue and its supervisor. Queries go by message one at a time; a call's
 * timeout covers its wait in the queue and its run. A query still running at its timeout is
 * QUERY_TIMEOUT for its caller and kills the process — but not before minKillMs after it started (the
 * query runs on, abandoned, its result dropped); a store failure (wasm trap, out of memory, the process dying for any reason)
 * fails the running query with STORE_UNAVAILABLE. Either way a fresh process reloads the store from
 * its source (the snapshot when there is one) and the waiting queries run once it is ready.
 */
class StoreProcess {
  info: BuildInfo | undefined;
  generation = 0;
  state: StoreState = 'starting';
  lastRestart: string | undefined;

  private child: ChildProcess | undefined;
  private readyWaiters: { resolve: () => void; reject: (e: AskgraphError) => void }[] = [];
  private fatal: AskgraphError | undefined;
  private queue: Job[] = [];
  private running: Job | undefined;
  private nextId = 1;
  private closed = false;
  private failures = 0;
  private restartTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly source: StoreSource,
    private readonly defaultTimeoutMs: number,
    /** A running query is killed no earlier than this after it started (see OxigraphOptions.minKillMs). */
    private readonly minKillMs = 0,
  ) {}

  get queued(): number {
    return this.queue.length + (this.running ? 1 : 0);
  }

  whenReady(): Promise<void> {
    if (this.fatal) return Promise.reject(this.fatal);
    if (this.state === 'ready') return Promise.resolve();
    return new Promise((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
  }

  start(): void {
    this.restartTimer = undefined;
    if (this.closed || this.fatal) return;
    this.generation++;
    const child = spawnStoreProcess();
    this.child = child;
    child.on('message', (msg: WorkerStatus | WorkerReply) => {
      if (child !== this.child) return;
      if ('type' in msg) this.onStatus(msg);
      else this.onReply(msg);
    });
    child.on('error', (err) => {
      if (child !== this.child) return;
      this.onCrash(`the store process failed: ${err.message}`);
    });
    child.on('exit', (code, signal) => {
      if (child !== this.child || this.closed) return;
      this.onCrash(`the store process exited (${signal ?? `code ${String(code)}`})`);
    });
    child.send({ id: 0, op: 'init', source: this.source } satisfies WorkerRequest);
  }

  private onStatus(msg: WorkerStatus): void {
    if (msg.type === 'ready') {
      this.info = msg.info;
      this.state = 'ready';
      for (const w of this.readyWaiters.splice(0)) w.resolve();
      this.pump();
    } else {
      const code = (msg.error.code in ERROR_STATUS ? msg.error.code : 'STORE_UNAVAILABLE') as ErrorCode;
      this.fatal = new AskgraphError(code, msg.error.message);
      this.state = 'failed';
      for (const w of this.readyWaiters.splice(0)) w.reject(this.fatal);
      for (const job of this.queue.splice(0)) this.fail(job, this.fatal);
      this.stopChild();
    }
  }

  private onReply(reply: WorkerReply): void {
    const job = this.running;
    if (job?.id !== reply.id) return;
    this.running = undefined;
    clearTimeout(job.timer);
    if (job.abandoned && !(!reply.ok && reply.fatal)) {
      // its caller gave up already: nobody reads the result; the store is fine
      if (reply.ok) this.failures = 0;
      this.pump();
      return;
    }
    if (reply.ok) {
      this.failures = 0;
      job.resolve(reply);
    } else {
      const code = (reply.error.code in ERROR_STATUS ? reply.error.code : 'UNSUPPORTED') as ErrorCode;
      job.reject(new AskgraphError(code, reply.error.message, reply.error.details ? { details: reply.error.details } : {}));
      if (reply.fatal) {
        // the process exits by itself after this reply; do not wait for it
        this.restart(`store failure: ${reply.error.message.slice(0, 200)}`);
        return;
      }
    }
    this.pump();
  }

  /** The process died on its own (V8 fatal error, killed by the OS …): fail the running query, start a new one. */
  private onCrash(message: string): void {
    const job = this.running;
    this.running = undefined;
    if (job) this.fail(job, new AskgraphError('STORE_UNAVAILABLE', `${message}; the store is being restarted`));
    this.restart(message);
  }

  private restart(reason: string): void {
    this.stopChild();
    if (this.closed || this.fatal) return;
    this.lastRestart = reason;
    this.state = 'restarting';
    const delay = BACKOFF[Math.min(this.failures, BACKOFF.length - 1)];
    this.failures++;
    clearTimeout(this.restartTimer);
    if (delay === 0) this.start();
    else this.restartTimer = setTimeout(() => this.start(), delay);
  }

  private stopChild(): void {
    const c = this.child;
    this.child = undefined;
    if (this.state === 'ready') this.state = 'restarting';
    if (c) {
      c.removeAllListeners('message');
      c.on('error', () => undefined);
      if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      if (c.connected) c.disconnect();
    }
  }

  private fail(job: Job, e: AskgraphError): void {
    clearTimeout(job.timer);
    job.reject(e);
  }

  private pump(): void {
    if (this.running || this.state !== 'ready' || !this.child || this.closed) return;
    const job = this.queue.shift();
    if (!job) return;
    this.running = job;
    job.startedAt = Date.now();
    this.child.send(job.request);
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
      job.reject(e);
      // Oxigraph cannot be interrupted: a query still running at the floor kills the process (and the
      // store is rebuilt in a fresh one). Before the floor it runs on, abandoned by its caller.
      const left = this.minKillMs - (Date.now() - (job.startedAt ?? 0));
      if (left > 0 && !job.abandoned) {
        job.abandoned = true;
        job.timer = setTimeout(() => this.onTimeout(job), left);
        return;
      }
      this.running = undefined;
      this.failures = 0; // a timeout is the query's fault, not the store's: restart at once
      this.restart(job.abandoned ? `a query ran past ${this.minKillMs} ms (its caller's timeout was ${job.timeoutMs} ms)` : `a query exceeded its ${job.timeoutMs} ms timeout`);
    }
  }

  send(request: (id: number) => WorkerRequest, opts?: QueryOptions): Promise<Ok> {
    if (this.closed) return Promise.reject(new AskgraphError('STORE_UNAVAILABLE', 'the executor is closed'));
    if (this.fatal) return Promise.reject(this.fatal);
    const timeoutMs = opts?.timeoutMs ?? this.defaultTimeoutMs;
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const job: Job = { id, request: request(id), resolve, reject, timeoutMs, timer: setTimeout(() => this.onTimeout(job), timeoutMs) };
      this.queue.push(job);
      this.pump();
    });
  }

  /** Kills the process as if it had crashed (fault injection for tests of the supervisor). */
  kill(): void {
    this.child?.kill('SIGKILL');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.restartTimer);
    const e = new AskgraphError('STORE_UNAVAILABLE', 'the executor was closed');
    for (const job of this.queue.splice(0)) this.fail(job, e);
    if (this.running) this.fail(this.running, e);
    this.running = undefined;
    for (const w of this.readyWaiters.splice(0)) w.reject(e);
    const c = this.child;
    this.child = undefined;
    if (c) {
      c.removeAllListeners();
      c.on('error', () => undefined);
      const gone = new Promise<void>((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve() : c.once('exit', () => resolve())));
      c.kill('SIGKILL');
      await gone;
    }
  }
}

/**
 * The embedded store: Oxigraph (wasm) in supervised child processes that each hold the store. The
 * pipeline's queries run in one; queries written by users (/sparql) run in a second one once
 * openUserLane() was called, so a user's cartesian product or a query that crashes the store never
 * takes capacity from question answering (and costs the user lane a restart, not the pipeline).
 */
export class OxigraphExecutor implements Executor {
  readonly id: string;
  readonly labelPredicates: string[];
  readonly localNameLabels: boolean;

  private readonly main: StoreProcess;
  private users: StoreProcess[] = [];
  private readonly defaultTimeoutMs: number;

  private constructor(
    private readonly source: StoreSource,
    opts: OxigraphOptions,
  ) {
    this.id = opts.id ?? 'oxigraph:' + (source.files[0] ?? 'empty');
    this.labelPredicates = opts.labelPredicates ?? [RDFS_LABEL];
    this.localNameLabels = opts.localNameLabels ?? false;
    this.defaultTimeoutMs = opts.defaultTimeoutMs ?? 30_000;
    // STORE_TOO_LARGE before a process is started: a graph over the machine's memory or wasm32's 4 GiB
    checkStoreFits(source.files, { purpose: 'open', copies: 1 });
    this.main = new StoreProcess(source, this.defaultTimeoutMs, opts.minKillMs ?? MIN_KILL_MS);
  }

  /** Starts the store process and resolves once the store is loaded (rejects with the load error). */
  static async open(source: StoreSource, opts: OxigraphOptions = {}): Promise<OxigraphExecutor> {
    const ex = new OxigraphExecutor(source, opts);
    ex.main.start();
    try {
      await ex.main.whenReady();
    } catch (e) {
      await ex.close();
      throw e;
    }
    return ex;
  }

  /** Starts the store process without waiting for the load (queries wait for it; whenReady() reports a load error). */
  static openInBackground(source: StoreSource, opts: OxigraphOptions = {}): OxigraphExecutor {
    const ex = new OxigraphExecutor(source, opts);
    ex.main.start();
    return ex;
  }

  /** How the pipeline's store process built its store (size, load time, snapshot or sources). */
  get info(): BuildInfo | undefined {
    return this.main.info;
  }

  /** Store processes started for the pipeline (1 + restarts); for tests and the trace. */
  get generation(): number {
    return this.main.generation;
  }

  /** Store processes started for user queries (0 while there is no user lane). */
  get userGeneration(): number {
    return this.users.reduce((n, p) => n + p.generation, 0);
  }

  /** Resolves when the pipeline's store process has the store loaded. */
  whenReady(): Promise<void> {
    return this.main.whenReady();
  }

  /**
   * Starts the separate store processes for user queries (idempotent; `processes` of them, each a copy
   * of the store in memory); resolves when they are loaded.
   */
  async openUserLane(processes = 1): Promise<void> {
    if (this.users.length < processes) checkStoreFits(this.source.files, { purpose: 'open', copies: 1 + processes });
    while (this.users.length < processes) {
      const p = new StoreProcess(this.source, this.defaultTimeoutMs);
      p.start();
      this.users.push(p);
    }
    await Promise.all(this.users.map((p) => p.whenReady()));
  }

  /** The state of each store process (no paths). */
  health(): { pipeline: StoreHealth; user?: StoreHealth } {
    const h = (p: StoreProcess): StoreHealth => ({ state: p.state, restarts: Math.max(0, p.generation - 1), queued: p.queued, ...(p.lastRestart ? { lastRestart: p.lastRestart } : {}) });
    const out: Record<string, StoreHealth> = { pipeline: h(this.main) };
    this.users.forEach((p, i) => (out[i === 0 ? 'user' : `user${i + 1}`] = h(p)));
    return out as { pipeline: StoreHealth; user?: StoreHealth };
  }

  /** Fault injection for tests: kills a store process as a crash would. */
  killStoreProcess(lane: 'pipeline' | 'user' = 'pipeline'): void {
    (lane === 'user' ? this.users[0] : this.main)?.kill();
  }

  private run(query: string, form: QueryForm, opts?: QueryOptions): Promise<Ok> {
    return this.main.send((id) => ({ id, op: 'query', query, form }), opts);
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

  /**
   * A user query already checked by analyseQuery (parsed once, off the main thread): runs its capped
   * text in the user lane (the pipeline's process when there is none) with its dataset.
   */
  async runChecked(checked: CheckedQuery, opts: UserQueryOptions = {}): Promise<UserQueryResult> {
    if (checked.service) throw new AskgraphError('FEDERATION_FORBIDDEN', 'SERVICE (federated query) is not available on the embedded store');
    // the user process that is ready and least busy (the pipeline's when there is none)
    const rank = (p: StoreProcess) => (p.state === 'ready' ? 0 : 1_000_000) + p.queued;
    const lane = this.users.length ? this.users.reduce((a, b) => (rank(b) < rank(a) ? b : a)) : this.main;
    const dataset = opts.dataset ?? checked.dataset;
    const reply = await lane.send(
      (id) => ({ id, op: 'query', query: checked.run, form: checked.form, ...(dataset ? { dataset } : {}), ...(opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}) }),
      opts,
    );
    if (checked.form === 'SELECT') return { form: 'SELECT', result: parseJsonSelect((reply as { json: string }).json) };
    if (checked.form === 'ASK') return { form: 'ASK', value: parseJsonAsk((reply as { json: string }).json) };
    return { form: checked.form, triples: (reply as { triples: Triple[] }).triples };
  }

  /** Labels by index lookups inside the store process (not SPARQL: see oxigraph-worker.ts), one message per call. */
  async labels(iris: string[], opts?: QueryOptions): Promise<Map<string, string>> {
    const wanted = [...new Set(iris.filter(isSafeIri))];
    if (wanted.length === 0) return new Map();
    const reply = await this.main.send((id) => ({ id, op: 'labels', iris: wanted, predicates: this.labelPredicates }), opts);
    const found = new Map((reply as { labels: [string, string][] }).labels);
    return this.localNameLabels ? withLocalNameLabels(wanted, found) : found;
  }

  /** Any read-only query, result by its form (CLI `run --sparql`). */
  async query(query: string, opts?: QueryOptions): Promise<SelectResult | boolean | Triple[]> {
    return queryByForm(this, query, opts);
  }

  async close(): Promise<void> {
    await Promise.all([this.main.close(), ...this.users.map((p) => p.close())]);
  }
}
