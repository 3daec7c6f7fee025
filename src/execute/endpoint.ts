import { AskgraphError, Executor, isAskgraphError, QueryOptions, SelectResult, Term, Triple } from '../core';
import { countFromSelect } from './count';
import { lookupLabels, withLocalNameLabels } from './labels';
import { expectForm, queryByForm } from './readonly';
import { fromRdfJs, isSafeIri, RdfJsTerm, RDFS_LABEL, tripleFromRdfJs } from './terms';
import type { UserQueryResult } from './oxigraph';
import type { CheckedQuery } from './user-query';

export interface EndpointOptions {
  labelPredicates?: string[];
  /** IRIs without a label get their split local name (PackConfig.localNameLabels). */
  localNameLabels?: boolean;
  /** Timeout of calls that give none (default 30 s). */
  defaultTimeoutMs?: number;
  /**
   * Graphs sent as SPARQL-protocol `default-graph-uri` with every request. Also taken from the URL
   * (`…/sparql?default-graph-uri=…`), because Comunica appends `?query=` to the endpoint URL as is.
   */
  defaultGraphs?: string[];
}

// The few parts of Comunica we use (its own types pull in the whole engine's declarations).
interface ResultStream<T> {
  toArray(): Promise<T[]>;
}
interface Bindings {
  get(name: string): RdfJsTerm | undefined;
  [Symbol.iterator](): Iterator<[{ value: string }, RdfJsTerm]>;
}
interface QueryResult {
  resultType: 'bindings' | 'quads' | 'boolean' | 'void';
  execute(): Promise<unknown>;
  // Comunica 5: variables are RDF/JS Variables; older versions wrapped them as { variable, canBeUndef }
  metadata?(): Promise<{ variables: ({ value: string } | { variable: { value: string } })[] }>;
}
interface ComunicaEngine {
  query(query: string, context: Record<string, unknown>): Promise<QueryResult>;
}

let engine: ComunicaEngine | undefined;
/** Comunica takes ~0.5 s to load: only when an endpoint is used. */
function comunica(): ComunicaEngine {
  if (!engine) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { QueryEngine } = require('@comunica/query-sparql') as { QueryEngine: new () => ComunicaEngine };
    engine = new QueryEngine();
  }
  return engine;
}

const DOWN_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

function causeCodes(e: unknown): string[] {
  const codes: string[] = [];
  for (let c: unknown = e, i = 0; c && i < 6; c = (c as { cause?: unknown }).cause, i++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    const errors = (c as { errors?: unknown[] }).errors; // AggregateError (IPv4 + IPv6 attempts)
    if (Array.isArray(errors)) for (const x of errors) codes.push(...causeCodes(x));
  }
  return codes;
}

/**
 * Any SPARQL 1.1 endpoint by URL, through Comunica. With a single SPARQL source Comunica sends the whole
 * query to the endpoint (GET, or POST for long queries such as label batches) after a round trip
 * through its algebra (it may wrap the query in a sub-SELECT; the differential test checks Virtuoso
 * gives the same answers). So a label lookup is one VALUES query per 500 IRIs, evaluated by the
 * endpoint — no per-IRI requests. Read-only: queries are parsed and updates refused before anything is
 * sent. Every call has a timeout: an AbortController aborts the HTTP request through a fetch wrapper
 * and a timer race bounds Comunica's own work. (Virtuoso stops a query whose client disconnected.)
 */
/**
 * Virtuoso errors of the query's own making that it answers with HTTP 500: a procedure the query
 * calls is undefined (SR185) or not permitted (SR186), or the HTTP client the query called
 * (bif:http_get …) failed (HTCLI HCxxx / HTxxx). Its SPARQL compiler's refusals (SPxxx) come as HTTP 400.
 */
const VIRTUOSO_QUERY_FAULT = /^Virtuoso \S+ Error (SR18[56]|HC\d{3}|HT\d{3})\b/;

/**
 * An endpoint answer that refuses the query itself (a client error: ENDPOINT_REFUSED, 400) rather than
 * failing as a service (ENDPOINT_ERROR, 502): HTTP 400, or a Virtuoso error of the query's making.
 * Other statuses (404 wrong path, 401 / 403 credentials, 5xx) are the endpoint's or its operator's.
 */
export function refusedByEndpoint(status: number, body: string): boolean {
  return status === 400 || (status === 500 && VIRTUOSO_QUERY_FAULT.test(body));
}

export class EndpointExecutor implements Executor {
  readonly id: string;
  readonly url: string;
  readonly labelPredicates: string[];
  readonly localNameLabels: boolean;
  private readonly defaultTimeoutMs: number;
  private readonly defaultGraphs: string[];
  private closed = false;

  constructor(url: string, opts: EndpointOptions = {}) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new AskgraphError('BAD_REQUEST', `not an endpoint URL: ${url}`);
    }
    const graphs = [...parsed.searchParams.getAll('default-graph-uri'), ...(opts.defaultGraphs ?? [])];
    parsed.searchParams.delete('default-graph-uri');
    this.url = parsed.href;
    this.defaultGraphs = graphs;
    this.id = 'sparql:' + url;
    this.labelPredicates = opts.labelPredicates ?? [RDFS_LABEL];
    this.localNameLabels = opts.localNameLabels ?? false;
    this.defaultTimeoutMs = opts.defaultTimeoutMs ?? 30_000;
  }

  /** Wraps fetch: the call's abort signal, plus default-graph-uri on every request. */
  private fetcher(signal: AbortSignal): typeof fetch {
    const graphs = this.defaultGraphs;
    return (input, init) => {
      let url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      let body = init?.body;
      if (graphs.length) {
        const extra = graphs.map((g) => 'default-graph-uri=' + encodeURIComponent(g)).join('&');
        if (body instanceof URLSearchParams) {
          body = new URLSearchParams(body);
          for (const g of graphs) body.append('default-graph-uri', g);
        } else if (typeof body === 'string' && /^query=/.test(body)) body = body + '&' + extra;
        else url += (url.includes('?') ? '&' : '?') + extra;
      }
      const signals = init?.signal ? [init.signal, signal] : [signal];
      return fetch(url, { ...init, body, signal: AbortSignal.any(signals) });
    };
  }

  private async call<T>(query: string, opts: QueryOptions | undefined, use: (r: QueryResult) => Promise<T>): Promise<T> {
    if (this.closed) throw new AskgraphError('STORE_UNAVAILABLE', 'the executor is closed');
    const timeoutMs = opts?.timeoutMs ?? this.defaultTimeoutMs;
    const ac = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        ac.abort();
        reject(new AskgraphError('QUERY_TIMEOUT', `query exceeded its ${timeoutMs} ms timeout at ${this.url}`, { details: { timeoutMs } }));
      }, timeoutMs);
    });
    const work = (async () => {
      const result = await comunica().query(query, {
        sources: [{ type: 'sparql', value: this.url }],
        fetch: this.fetcher(ac.signal),
        // no lenient mode: an endpoint error must surface, not become an empty answer
      });
      return use(result);
    })();
    work.catch(() => undefined); // after a timeout the losing branch's rejection is expected
    try {
      return await Promise.race([work, timeout]);
    } catch (e) {
      throw this.mapError(e, ac.signal.aborted, timeoutMs);
    } finally {
      clearTimeout(timer);
    }
  }

  private mapError(e: unknown, aborted: boolean, timeoutMs: number): AskgraphError {
    if (isAskgraphError(e)) return e;
    const message = e instanceof Error ? e.message : String(e);
    if (aborted) return new AskgraphError('QUERY_TIMEOUT', `query exceeded its ${timeoutMs} ms timeout at ${this.url}`, { cause: e });
    if (causeCodes(e).some((c) => DOWN_CODES.has(c))) {
      return new AskgraphError('ENDPOINT_DOWN', `cannot reach ${this.url}: ${causeCodes(e).join(', ')}`, { cause: e });
    }
    const status = /HTTP status (\d+)/.exec(message);
    if (status) {
      const body = message.split('\n').slice(1).join(' ').replace(/\s+/g, ' ').trim().slice(0, 300);
      if (refusedByEndpoint(Number(status[1]), body)) {
        return new AskgraphError('ENDPOINT_REFUSED', `${this.url} refused the query (HTTP ${status[1]}): ${body}`, { cause: e, details: { status: Number(status[1]) } });
      }
      return new AskgraphError('ENDPOINT_ERROR', `${this.url} answered HTTP ${status[1]}: ${body}`, { cause: e, details: { status: Number(status[1]) } });
    }
    const fn = /no configured actor was able to evaluate function (\S+)/.exec(message);
    if (fn) {
      // Comunica evaluates this part of the query itself and knows no such function (bif:http_get …): the query's fault
      return new AskgraphError('UNSUPPORTED', `the query calls a function that cannot be evaluated over ${this.url}: ${fn[1]}`, { cause: e, details: { function: fn[1] } });
    }
    if (/fetch failed|socket|network/i.test(message)) return new AskgraphError('ENDPOINT_DOWN', `cannot reach ${this.url}: ${message}`, { cause: e });
    return new AskgraphError('ENDPOINT_ERROR', `${this.url}: ${message.split('\n')[0]}`, { cause: e });
  }

  async select(query: string, opts?: QueryOptions): Promise<SelectResult> {
    expectForm(query, 'SELECT');
    return this.selectParsed(query, opts);
  }

  /** A user query checked by analyseQuery (not parsed again here; Comunica parses it once more). */
  async runChecked(checked: CheckedQuery, opts?: QueryOptions): Promise<UserQueryResult> {
    if (checked.form === 'SELECT') return { form: 'SELECT', result: await this.selectParsed(checked.run, opts) };
    if (checked.form === 'ASK') return { form: 'ASK', value: await this.askParsed(checked.run, opts) };
    return { form: checked.form, triples: await this.constructParsed(checked.run, opts) };
  }

  private selectParsed(query: string, opts?: QueryOptions): Promise<SelectResult> {
    return this.call(query, opts, async (r) => {
      if (r.resultType !== 'bindings') throw new AskgraphError('ENDPOINT_ERROR', `expected bindings, got ${r.resultType}`);
      const meta = r.metadata ? await r.metadata() : { variables: [] };
      const vars = meta.variables.map((v) => ('variable' in v ? v.variable.value : v.value));
      const bindings = (await ((await r.execute()) as ResultStream<Bindings>).toArray()) as Bindings[];
      const rows = bindings.map((b) => {
        const row: Record<string, Term> = {};
        for (const [k, v] of b) row[k.value] = fromRdfJs(v);
        return row;
      });
      return { vars, rows };
    });
  }

  async ask(query: string, opts?: QueryOptions): Promise<boolean> {
    expectForm(query, 'ASK');
    return this.askParsed(query, opts);
  }

  private askParsed(query: string, opts?: QueryOptions): Promise<boolean> {
    return this.call(query, opts, async (r) => (await r.execute()) === true);
  }

  async count(query: string, opts?: QueryOptions): Promise<number> {
    return countFromSelect(await this.select(query, opts));
  }

  async construct(query: string, opts?: QueryOptions): Promise<Triple[]> {
    expectForm(query, 'CONSTRUCT', 'DESCRIBE');
    return this.constructParsed(query, opts);
  }

  private constructParsed(query: string, opts?: QueryOptions): Promise<Triple[]> {
    return this.call(query, opts, async (r) => {
      const quads = await ((await r.execute()) as ResultStream<{ subject: RdfJsTerm; predicate: RdfJsTerm; object: RdfJsTerm }>).toArray();
      return quads.map(tripleFromRdfJs);
    });
  }

  async labels(iris: string[], opts?: QueryOptions): Promise<Map<string, string>> {
    const found = await lookupLabels((q, o) => this.select(q, o), iris, this.labelPredicates, opts);
    return this.localNameLabels ? withLocalNameLabels(iris.filter(isSafeIri), found) : found;
  }

  async query(query: string, opts?: QueryOptions): Promise<SelectResult | boolean | Triple[]> {
    return queryByForm(this, query, opts);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
