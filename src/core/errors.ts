/**
 * One error type for the whole product: a machine-readable code, an HTTP status, and a cause.
 * Expected failures inside the pipeline are values (see Outcome); this is for the edges.
 * Only src/serve maps it to HTTP responses; only src/cli maps it to exit codes.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  FORM_SYNTAX: 400,
  SPARQL_SYNTAX: 400,
  QUESTION_INVALID: 400,
  INPUT_TOO_LARGE: 413,
  UNAUTHORIZED: 401,
  UPDATE_FORBIDDEN: 403,
  NOT_FOUND: 404,
  NOT_ACCEPTABLE: 406,
  RATE_LIMITED: 429,
  UNSUPPORTED: 422,
  CONVERSION_UNSUPPORTED: 422,
  DATA_FORMAT: 422,
  QUERY_TIMEOUT: 504,
  /** The server ran out of time for the request (its budget, or a wait for a free slot). */
  REQUEST_TIMEOUT: 504,
  /** The client did not send its whole request in time (Node's requestTimeout / headersTimeout). */
  REQUEST_NOT_RECEIVED: 408,
  ENDPOINT_DOWN: 502,
  ENDPOINT_ERROR: 502,
  /** The remote endpoint refused the query as the query's fault (its HTTP 400, or a Virtuoso error of the query's own making). */
  ENDPOINT_REFUSED: 400,
  STORE_UNAVAILABLE: 503,
  /** The data would not fit in the embedded store (memory estimate over the machine's or the configured limit): use an endpoint. */
  STORE_TOO_LARGE: 507,
  MODEL_UNAVAILABLE: 503,
  MODEL_ERROR: 500,
  TRAINING_FAILED: 500,
  INTERNAL: 500,
  UNSUPPORTED_MEDIA_TYPE: 415,
  SERVER_BUSY: 503,
  /** A user query over the size / nesting / pattern limits (checked before it is parsed or run). */
  QUERY_TOO_COMPLEX: 400,
  /** SERVICE (federation) in a user query: refused unless the server allows it. */
  FEDERATION_FORBIDDEN: 403,
  /** An extension function of a remote endpoint in a user query (`bif:http_get` fetches URLs): refused unless the server allows federation. */
  FUNCTION_FORBIDDEN: 403,
  /** FROM / FROM NAMED / default-graph-uri / named-graph-uri where the store does not take a dataset. */
  DATASET_UNSUPPORTED: 400,
  /** A result over the configured row / byte cap (the query should page with LIMIT / OFFSET). */
  RESULT_TOO_LARGE: 422,
  /** The request's method is not allowed on the route (the response carries Allow). */
  METHOD_NOT_ALLOWED: 405,
  /** The request's header block is over the server's limit. */
  HEADERS_TOO_LARGE: 431,
  /** The server's address is taken by another process (listen EADDRINUSE). */
  PORT_IN_USE: 503,
  /** The server cannot listen on its address (no permission, address not on this machine, …). */
  LISTEN_FAILED: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Failures of the moment, not of the request: time ran out, the store or the parser is away. The same
 * request may well succeed later, so the pipeline stops on them (it does not try another reading, whose
 * answer would depend on the machine's load or a fault) and nothing they touched is cached.
 */
export const TRANSIENT_CODES: ReadonlySet<string> = new Set<ErrorCode>(['QUERY_TIMEOUT', 'REQUEST_TIMEOUT', 'STORE_UNAVAILABLE', 'ENDPOINT_DOWN', 'MODEL_UNAVAILABLE']);

export class AskgraphError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AskgraphError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = options.details;
  }

  toJSON(): { error: { code: ErrorCode; message: string; details?: Record<string, unknown> } } {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

export function isAskgraphError(e: unknown): e is AskgraphError {
  return e instanceof AskgraphError;
}

/** Any thrown value as an AskgraphError (unknown errors become INTERNAL, message kept, no stack). */
export function toAskgraphError(e: unknown): AskgraphError {
  if (e instanceof AskgraphError) return e;
  const message = e instanceof Error ? e.message : String(e);
  return new AskgraphError('INTERNAL', message, { cause: e });
}
