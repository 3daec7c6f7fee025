import { AskgraphError, ErrorCode, isAskgraphError } from '../core';

export interface ErrorBody {
  /** An ErrorCode, or a code passed on from elsewhere (a remote part). */
  error: { code: string; message: string; details?: Record<string, unknown>; requestId?: string };
}

/** body-parser / raw-body error types → our codes (they carry `type` and `status`). */
const BODY_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  'entity.too.large': { code: 'INPUT_TOO_LARGE', message: 'request body too large' },
  'entity.parse.failed': { code: 'BAD_REQUEST', message: 'malformed request body (invalid JSON)' },
  'entity.verify.failed': { code: 'BAD_REQUEST', message: 'request body failed verification' },
  'encoding.unsupported': { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'unsupported Content-Encoding (gzip, deflate, br and identity are accepted)' },
  'charset.unsupported': { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'unsupported charset (JSON bodies are UTF-8)' },
  'request.aborted': { code: 'BAD_REQUEST', message: 'request aborted' },
  'request.size.invalid': { code: 'BAD_REQUEST', message: 'request size did not match content-length' },
  'parameters.too.many': { code: 'INPUT_TOO_LARGE', message: 'too many parameters' },
};

/**
 * Absolute filesystem paths in a public text replaced by their last segment ("oxigraph:/srv/x/movies"
 * → "oxigraph:movies"); URLs are left alone (their path follows "//host").
 */
export function redactPaths(text: string): string {
  return text.replace(/(^|[\s"'(=,:])\/(?!\/)(?:[^\s"'(),:/]+\/)*([^\s"'(),:/+]*)/g, (_m, pre: string, last: string) => pre + (last || '.'));
}

/** Details are plain data by construction; keep them only when they serialise small (never a stack). */
function safeDetails(details: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!details) return undefined;
  try {
    const s = JSON.stringify(details);
    return s.length <= 4096 ? (JSON.parse(s) as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The only place where errors become HTTP responses (CommunitySolidServer style). Unknown errors are
 * INTERNAL with a generic message (the real one goes to the log with the request id).
 */
export function toHttpError(e: unknown): { status: number; body: ErrorBody; internal: boolean } {
  if (isAskgraphError(e)) {
    const details = safeDetails(e.details);
    return {
      status: e.status,
      body: { error: { code: e.code, message: e.message, ...(details ? { details } : {}) } },
      internal: e.code === 'INTERNAL',
    };
  }
  const type = (e as { type?: unknown } | null)?.type;
  if (typeof type === 'string' && BODY_ERRORS[type]) {
    const m = BODY_ERRORS[type];
    const err = new AskgraphError(m.code, m.message);
    return { status: err.status, body: { error: { code: err.code, message: err.message } }, internal: false };
  }
  // other client errors of the body parsers (http-errors with a 4xx status), e.g. a body that is not
  // what its Content-Encoding says (zlib: "incorrect header check")
  const status = (e as { status?: unknown } | null)?.status;
  if ((e as { expose?: unknown } | null)?.expose === true && typeof status === 'number' && status >= 400 && status < 500) {
    const code = (e as { code?: unknown }).code;
    const zlib = typeof code === 'string' && code.startsWith('Z_');
    const err =
      status === 413
        ? new AskgraphError('INPUT_TOO_LARGE', 'request body too large')
        : status === 415
          ? new AskgraphError('UNSUPPORTED_MEDIA_TYPE', 'unsupported media type or encoding')
          : new AskgraphError('BAD_REQUEST', zlib ? 'the request body does not match its Content-Encoding' : 'malformed request body');
    return { status: err.status, body: { error: { code: err.code, message: err.message } }, internal: false };
  }
  return { status: 500, body: { error: { code: 'INTERNAL', message: 'internal server error' } }, internal: true };
}
