import { AskgraphError, Executor, isAskgraphError, QueryOptions, SelectResult, Triple } from '../core';
import { countFromSelect } from './count';
import { lookupLabels, withLocalNameLabels } from './labels';
import { expectForm, queryByForm } from './readonly';
import { isSafeIri } from '../sparql';
import { parseNTriples, RDFS_LABEL, selectFromJson } from './terms';
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
   * (`…/sparql?default-graph-uri=…`).
   */
  defaultGraphs?: string[];
  /** Largest response body read (default 64 MiB); a call may ask for a smaller cap. More is RESULT_TOO_LARGE. */
  maxResultBytes?: number;
}

const SELECT_ACCEPT = 'application/sparql-results+json';
const GRAPH_ACCEPT = 'application/n-triples, text/plain;q=0.9';

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

/** Default cap of one response body (user queries pass the server's own, smaller one). */
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
/** Queries up to this URL length go by GET (cacheable, what most endpoints expect), longer ones by urlencoded POST. */
const MAX_GET_URL = 2000;
/** Window of /healthz's endpoint report. */
const HEALTH_WINDOW_MS = 60_000;

/** What the endpoint's recent calls say about it (/healthz in remote mode). */
export interface EndpointHealth {
  /** ok: no failure in the last minute; degraded: calls failed (timed out, unreachable, HTTP 5xx, broken responses). */
  state: 'ok' | 'degraded';
  /** Calls in the last minute, and how many of them failed, by kind. */
  calls: number;
  failures: { timeout: number; down: number; error: number; truncated: number };
  /** The last failure in the window: its code, a short message and its age. */
  reason?: string;
}

type Failure = keyof EndpointHealth['failures'];

/**
 * Any SPARQL 1.1 endpoint by URL, over the SPARQL 1.1 Protocol with plain fetch: the query text is sent
 * as it is (GET, or urlencoded POST for long queries such as label batches) with default-graph-uri, and
 * the response read by this class: SPARQL JSON results for SELECT / ASK, N-Triples for CONSTRUCT /
 * DESCRIBE. Not Comunica (which it used before): with a single endpoint as its source Comunica added
 * an algebra round trip (3-4x the latency of a small query, measured against Virtuoso) and a
 * process-wide per-host rate limiter (actor-http-limit-rate) that, after one timed-out request, spaced
 * every later request to the endpoint ~the timeout apart — one cartesian /sparql query made every
 * question time out for minutes. It also read any body size, and a truncated body became an empty
 * result. Here each call stands alone: a timeout (an AbortController aborts the request; Virtuoso stops
 * a query whose client disconnected), a byte cap on the body (RESULT_TOO_LARGE, read no further), and
 * a body that ends early or does not parse is ENDPOINT_ERROR (details.reason 'truncated'), never an
 * empty answer. Read-only: queries are parsed and updates refused before anything is sent. health()
 * reports recent failures for /healthz.
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
  private readonly maxBytes: number;
  private closed = false;
  /** Outcomes of recent calls (time, failure kind or undefined), for health(). */
  private recent: { at: number; failure?: Failure; reason?: string }[] = [];

  constructor(url: string, opts: EndpointOptions = {}) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new AskgraphError('BAD_REQUEST', `not an endpoint URL: ${url}`);
    }
    if (!/^https?:$/.test(parsed.protocol)) throw new AskgraphError('BAD_REQUEST', `not an http(s) endpoint URL: ${url}`);
    const graphs = [...parsed.searchParams.getAll('default-graph-uri'), ...(opts.defaultGraphs ?? [])];
    parsed.searchParams.delete('default-graph-uri');
    this.url = parsed.href;
    this.defaultGraphs = graphs;
    this.id = 'sparql:' + url;
    this.labelPredicates = opts.labelPredicates ?? [RDFS_LABEL];
    this.localNameLabels = opts.localNameLabels ?? false;
    this.defaultTimeoutMs = opts.defaultTimeoutMs ?? 30_000;
    this.maxBytes = opts.maxResultBytes ?? DEFAULT_MAX_BYTES;
  }

  /** The endpoint's state by its calls of the last minute (never a query of its own). */
  health(now = Date.now()): EndpointHealth {
    this.recent = this.recent.filter((r) => now - r.at < HEALTH_WINDOW_MS);
    const failures = { timeout: 0, down: 0, error: 0, truncated: 0 };
    let last: (typeof this.recent)[number] | undefined;
    for (const r of this.recent) {
      if (!r.failure) continue;
      failures[r.failure]++;
      last = r;
    }
    if (!last) return { state: 'ok', calls: this.recent.length, failures };
    const age = Math.round((now - last.at) / 1000);
    return { state: 'degraded', calls: this.recent.length, failures, reason: `${last.reason} (${age} s ago)` };
  }

  private record(failure?: Failure, reason?: string): void {
    const now = Date.now();
    this.recent.push({ at: now, ...(failure ? { failure, reason } : {}) });
    if (this.recent.length > 2000) this.recent = this.recent.filter((r) => now - r.at < HEALTH_WINDOW_MS).slice(-1000);
  }

  /** The protocol request of one query: GET when the URL is short, else urlencoded POST; default-graph-uri on both. */
  private request(query: string, accept: string, signal: AbortSignal): Promise<Response> {
    const params = new URLSearchParams({ query });
    for (const g of this.defaultGraphs) params.append('default-graph-uri', g);
    const get = this.url + (this.url.includes('?') ? '&' : '?') + params.toString();
    if (get.length <= MAX_GET_URL) return fetch(get, { headers: { accept }, signal });
    return fetch(this.url, { method: 'POST', headers: { accept, 'content-type': 'application/x-www-form-urlencoded' }, body: params.toString(), signal });
  }

  /** The body as text, at most maxBytes of it (RESULT_TOO_LARGE past that, the rest never read). */
  private async readBody(res: Response, maxBytes: number, ac: AbortController): Promise<string> {
    const tooLarge = () =>
      new AskgraphError('RESULT_TOO_LARGE', `the result has more than ${maxBytes} bytes; page through it with LIMIT and OFFSET`, { details: { maxBytes } });
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared > maxBytes) {
      ac.abort();
      throw tooLarge();
    }
    if (!res.body) return '';
    const reader = res.body.getReader();
    const chunks: Uint8Array[] = [];
    let n = 0;
    for (;;) {
      let part: ReadableStreamReadResult<Uint8Array>;
      try {
        part = await reader.read();
      } catch (e) {
        if (ac.signal.aborted) throw e;
        // the connection closed before the body was complete (Content-Length or chunked framing unmet)
        throw new AskgraphError('ENDPOINT_ERROR', `${this.url} sent a truncated response (the connection closed after ${n} bytes)`, { cause: e, details: { reason: 'truncated', bytes: n } });
      }
      if (part.done) break;
      n += part.value.byteLength;
      if (n > maxBytes) {
        ac.abort();
        throw tooLarge();
      }
      chunks.push(part.value);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** A broken body (cut short without a transport error, or not the format asked for): ENDPOINT_ERROR 'truncated'. */
  private malformed(what: string, cause?: unknown): AskgraphError {
    return new AskgraphError('ENDPOINT_ERROR', `${this.url} sent a response that is not complete ${what} (truncated or malformed)`, { cause, details: { reason: 'truncated' } });
  }

  private async call<T>(query: string, accept: string, opts: (QueryOptions & { maxBytes?: number }) | undefined, use: (body: string, type: string) => T): Promise<T> {
    if (this.closed) throw new AskgraphError('STORE_UNAVAILABLE', 'the executor is closed');
    const timeoutMs = opts?.timeoutMs ?? this.defaultTimeoutMs;
    const maxBytes = Math.min(opts?.maxBytes ?? this.maxBytes, this.maxBytes);
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), timeoutMs);
    try {
      const res = await this.request(query, accept, ac.signal);
      if (!res.ok) {
        const text = await this.readBody(res, 64 * 1024, ac).catch(() => '');
        const body = text.replace(/\s+/g, ' ').trim().slice(0, 300);
        if (refusedByEndpoint(res.status, body)) {
          throw new AskgraphError('ENDPOINT_REFUSED', `${this.url} refused the query (HTTP ${res.status}): ${body}`, { details: { status: res.status } });
        }
        throw new AskgraphError('ENDPOINT_ERROR', `${this.url} answered HTTP ${res.status}: ${body}`, { details: { status: res.status } });
      }
      // Virtuoso's "anytime" answer: at its own MaxQueryExecutionTime it sends HTTP 200 with the rows found so
      // far and X-SQL-State S1TAT. Fewer rows read as the answer would depend on the endpoint's load (a paged
      // label fetch ended early at 3.76M of 5.0M labels): time ran out, so it is a timeout.
      if ((res.headers.get('x-sql-state') ?? '').trim().toUpperCase() === 'S1TAT') {
        const why = (res.headers.get('x-sql-message') ?? '').slice(0, 200);
        await res.body?.cancel().catch(() => undefined);
        throw new AskgraphError('QUERY_TIMEOUT', `${this.url} cut the result at its own time limit (incomplete results${why ? `: ${why}` : ''})`, { details: { reason: 'endpoint-time-limit' } });
      }
      const type = ((res.headers.get('content-type') ?? '').split(';')[0] ?? '').trim().toLowerCase();
      const out = use(await this.readBody(res, maxBytes, ac), type);
      this.record();
      return out;
    } catch (e) {
      const err = this.mapError(e, ac.signal.aborted, timeoutMs);
      const kind: Failure | undefined =
        err.code === 'QUERY_TIMEOUT'
          ? 'timeout'
          : err.code === 'ENDPOINT_DOWN'
            ? 'down'
            : err.details?.reason === 'truncated'
              ? 'truncated'
              : err.code === 'ENDPOINT_ERROR' && !(Number(err.details?.status) >= 400 && Number(err.details?.status) < 500)
                ? 'error'
                : undefined;
      this.record(kind, `${err.code}: ${err.message.slice(0, 160)}`);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  private mapError(e: unknown, aborted: boolean, timeoutMs: number): AskgraphError {
    if (isAskgraphError(e)) return e;
    const message = e instanceof Error ? e.message : String(e);
    if (aborted) return new AskgraphError('QUERY_TIMEOUT', `query exceeded its ${timeoutMs} ms timeout at ${this.url}`, { cause: e, details: { timeoutMs } });
    if (causeCodes(e).some((c) => DOWN_CODES.has(c))) {
      return new AskgraphError('ENDPOINT_DOWN', `cannot reach ${this.url}: ${causeCodes(e).join(', ')}`, { cause: e });
    }
    if (/fetch failed|socket|network/i.test(message)) return new AskgraphError('ENDPOINT_DOWN', `cannot reach ${this.url}: ${message}`, { cause: e });
    return new AskgraphError('ENDPOINT_ERROR', `${this.url}: ${message.split('\n')[0]}`, { cause: e });
  }

  private parseJson(body: string): Record<string, unknown> {
    try {
      const doc = JSON.parse(body) as unknown;
      if (doc && typeof doc === 'object' && !Array.isArray(doc)) return doc as Record<string, unknown>;
    } catch (e) {
      throw this.malformed('SPARQL JSON results', e);
    }
    throw this.malformed('SPARQL JSON results');
  }

  async select(query: string, opts?: QueryOptions): Promise<SelectResult> {
    expectForm(query, 'SELECT');
    return this.selectParsed(query, opts);
  }

  /** A user query checked by analyseQuery (sent as checked: the capped text). opts.maxBytes caps the body (at most the executor's own cap). */
  async runChecked(checked: CheckedQuery, opts?: QueryOptions & { maxBytes?: number }): Promise<UserQueryResult> {
    if (checked.form === 'SELECT') return { form: 'SELECT', result: await this.selectParsed(checked.run, opts) };
    if (checked.form === 'ASK') return { form: 'ASK', value: await this.askParsed(checked.run, opts) };
    return { form: checked.form, triples: await this.constructParsed(checked.run, opts) };
  }

  private selectParsed(query: string, opts?: QueryOptions & { maxBytes?: number }): Promise<SelectResult> {
    return this.call(query, SELECT_ACCEPT, opts, (body) => {
      const doc = this.parseJson(body);
      const head = doc.head as { vars?: unknown } | undefined;
      const results = doc.results as { bindings?: unknown } | undefined;
      if (!head || typeof head !== 'object' || !results || !Array.isArray(results.bindings)) throw this.malformed('SPARQL JSON results of a SELECT');
      return selectFromJson(doc as Parameters<typeof selectFromJson>[0]);
    });
  }

  async ask(query: string, opts?: QueryOptions): Promise<boolean> {
    expectForm(query, 'ASK');
    return this.askParsed(query, opts);
  }

  private askParsed(query: string, opts?: QueryOptions & { maxBytes?: number }): Promise<boolean> {
    return this.call(query, SELECT_ACCEPT, opts, (body) => {
      const doc = this.parseJson(body);
      if (typeof doc.boolean !== 'boolean') throw this.malformed('SPARQL JSON results of an ASK');
      return doc.boolean;
    });
  }

  async count(query: string, opts?: QueryOptions): Promise<number> {
    return countFromSelect(await this.select(query, opts));
  }

  async construct(query: string, opts?: QueryOptions): Promise<Triple[]> {
    expectForm(query, 'CONSTRUCT', 'DESCRIBE');
    return this.constructParsed(query, opts);
  }

  private constructParsed(query: string, opts?: QueryOptions & { maxBytes?: number }): Promise<Triple[]> {
    return this.call(query, GRAPH_ACCEPT, opts, (body, type) => {
      if (type && type !== 'application/n-triples' && type !== 'text/plain') {
        throw new AskgraphError('ENDPOINT_ERROR', `${this.url} answered a ${/DESCRIBE/i.test(query) ? 'DESCRIBE' : 'CONSTRUCT'} with ${type}; askgraph reads N-Triples (application/n-triples)`, {
          details: { contentType: type },
        });
      }
      try {
        return parseNTriples(body);
      } catch (e) {
        throw this.malformed('N-Triples', e);
      }
    });
  }

  async labels(iris: string[], opts?: QueryOptions): Promise<Map<string, string>> {
    const found = await lookupLabels((q, o) => this.select(q, o), iris, this.labelPredicates, opts);
    return this.localNameLabels ? withLocalNameLabels(iris.filter(isSafeIri), found) : found;
  }

  async query(query: string, opts?: QueryOptions): Promise<SelectResult | boolean | Triple[]> {
    return queryByForm(this, query, opts);
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}
