import busboy from 'busboy';
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

const LATIN1_ONLY = /^[\u0000-\u00ff]*$/;

/** Parts beyond this many (fields and files together) end the parse with INPUT_TOO_LARGE. */
export const MULTIPART_MAX_PARTS = 1000;

/**
 * multipart/form-data fields through busboy (the request body is already bounded by express.raw).
 * Text is decoded like urlencoded values (the form's charset, else UTF-8 when valid, else latin1):
 * busboy hands undeclared parts over as latin1, which keeps every byte, and those are sniffed. A part
 * that declares a charset is decoded by busboy first; its result is sniffed too when it is latin1-sized
 * (busboy does not say which parts declared one), which changes only text that is also valid UTF-8 in
 * latin1 (mojibake). File parts count as fields (harnesses are sloppy about it).
 * The first value of a repeated name wins. Malformed bodies are BAD_REQUEST, too many parts INPUT_TOO_LARGE.
 */
export function parseMultipart(body: Buffer, contentType: string, charset?: string): Promise<Record<string, string>> {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const b = boundary?.[1] ?? boundary?.[2] ?? '';
  if (!b || b.length > 200) return Promise.reject(new AskgraphError('BAD_REQUEST', 'multipart body without a valid boundary'));
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      defCharset: 'latin1',
      limits: { parts: MULTIPART_MAX_PARTS, fields: MULTIPART_MAX_PARTS, files: MULTIPART_MAX_PARTS, fieldSize: body.length, fileSize: body.length, headerPairs: 20 },
    });
  } catch (e) {
    return Promise.reject(new AskgraphError('BAD_REQUEST', `malformed multipart content type: ${(e as Error).message}`, { cause: e }));
  }
  return new Promise((resolve, reject) => {
    const out: Record<string, string> = {};
    let settled = false;
    const fail = (e: AskgraphError) => {
      if (settled) return;
      settled = true;
      parser.removeAllListeners();
      parser.on('error', () => undefined); // late errors of an abandoned parse are of no interest
      reject(e);
    };
    const set = (name: string | undefined, value: string) => {
      if (name !== undefined && !(name in out)) out[name] = value;
    };
    const tooMany = () => fail(new AskgraphError('INPUT_TOO_LARGE', `multipart body with more than ${MULTIPART_MAX_PARTS} parts`));
    parser.on('field', (name, value) => {
      // busboy returns undefined for a declared charset it cannot decode
      if (typeof value !== 'string') {
        fail(new AskgraphError('BAD_REQUEST', `multipart field ${JSON.stringify(name)}: unsupported charset`));
        return;
      }
      set(name, LATIN1_ONLY.test(value) ? decodeText(Buffer.from(value, 'latin1'), charset) : value);
    });
    parser.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => set(name, decodeText(Buffer.concat(chunks), charset)));
    });
    parser.on('partsLimit', tooMany);
    parser.on('fieldsLimit', tooMany);
    parser.on('filesLimit', tooMany);
    parser.on('error', (e: Error) => fail(new AskgraphError('BAD_REQUEST', `malformed multipart body (${e.message})`, { cause: e })));
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      resolve(out);
    });
    parser.end(body);
  });
}

/** Fields of a form body by content type; JSON objects are accepted too (string values only). */
export async function parseFormBody(body: Buffer, contentType: string | undefined): Promise<Record<string, string>> {
  const ct = (contentType ?? '').toLowerCase();
  const charset = /charset=("?)([\w.:-]+)\1/i.exec(contentType ?? '')?.[2];
  if (ct.startsWith('multipart/form-data')) return parseMultipart(body, contentType ?? '', charset);
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
