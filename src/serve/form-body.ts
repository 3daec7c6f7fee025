import { AskgraphError } from '../core';

/**
 * Lenient form decoding for benchmark harnesses (GERBIL QA posts `query=<question>&lang=en`):
 * application/x-www-form-urlencoded or multipart/form-data; bytes are decoded as UTF-8 when they are
 * valid UTF-8 (or the declared charset), else as latin1 — so "Beyoncé" arrives right either way.
 */

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function decodeText(bytes: Uint8Array, charset?: string): string {
  const cs = charset?.toLowerCase();
  if (cs && cs !== 'utf-8' && cs !== 'utf8') {
    try {
      return new TextDecoder(cs).decode(bytes);
    } catch {
      // unknown label: fall through to sniffing
    }
  }
  try {
    return utf8.decode(bytes);
  } catch {
    return Buffer.from(bytes).toString('latin1');
  }
}

function percentDecodeBytes(s: string): Buffer {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2b) out.push(0x20); // '+'
    else if (c === 0x25 && i + 2 < s.length && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) {
      out.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else out.push(c & 0xff); // the caller passes a latin1 view: one char per byte
  }
  return Buffer.from(out);
}

export function parseUrlEncoded(body: Buffer, charset?: string): Record<string, string> {
  const out: Record<string, string> = {};
  // The body is ASCII when well-formed; raw non-ASCII bytes are kept byte-for-byte (latin1 view).
  const text = body.toString('latin1');
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const k = eq < 0 ? pair : pair.slice(0, eq);
    const v = eq < 0 ? '' : pair.slice(eq + 1);
    const key = decodeText(percentDecodeBytes(k), charset);
    if (!(key in out)) out[key] = decodeText(percentDecodeBytes(v), charset);
  }
  return out;
}

export function parseMultipart(body: Buffer, boundary: string, charset?: string): Record<string, string> {
  if (!boundary || boundary.length > 200) throw new AskgraphError('BAD_REQUEST', 'multipart body without a valid boundary');
  const out: Record<string, string> = {};
  const delim = Buffer.from('--' + boundary);
  let pos = body.indexOf(delim);
  if (pos < 0) throw new AskgraphError('BAD_REQUEST', 'malformed multipart body');
  for (;;) {
    pos += delim.length;
    if (body.slice(pos, pos + 2).toString('latin1') === '--') break; // closing delimiter
    const headerEnd = body.indexOf('\r\n\r\n', pos);
    if (headerEnd < 0) throw new AskgraphError('BAD_REQUEST', 'malformed multipart body');
    const headers = body.slice(pos, headerEnd).toString('latin1');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delim]), headerEnd + 4);
    if (next < 0) throw new AskgraphError('BAD_REQUEST', 'malformed multipart body (no closing boundary)');
    const value = body.slice(headerEnd + 4, next);
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers)?.[1];
    const partCharset = /content-type:[^\r\n]*charset=("?)([\w.:-]+)\1/i.exec(headers)?.[2];
    if (name !== undefined && !(name in out)) out[name] = decodeText(value, partCharset ?? charset);
    pos = next + 2;
  }
  return out;
}

/** Fields of a form body by content type; JSON objects are accepted too (string values only). */
export function parseFormBody(body: Buffer, contentType: string | undefined): Record<string, string> {
  const ct = (contentType ?? '').toLowerCase();
  const charset = /charset=("?)([\w.:-]+)\1/i.exec(contentType ?? '')?.[2];
  if (ct.startsWith('multipart/form-data')) {
    const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
    return parseMultipart(body, boundary?.[1] ?? boundary?.[2] ?? '', charset);
  }
  if (ct.startsWith('application/json')) {
    let v: unknown;
    try {
      v = JSON.parse(decodeText(body, charset));
    } catch {
      throw new AskgraphError('BAD_REQUEST', 'malformed request body (invalid JSON)');
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new AskgraphError('BAD_REQUEST', 'JSON body must be an object');
    const out: Record<string, string> = {};
    for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
    return out;
  }
  // urlencoded, text/plain, or no content type: treat as urlencoded (harnesses are sloppy about it)
  return parseUrlEncoded(body, charset);
}
