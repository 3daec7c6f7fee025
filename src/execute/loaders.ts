import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { constants as bufferConstants } from 'node:buffer';
import { pathToFileURL } from 'node:url';
import type * as oxigraph from 'oxigraph';
import { z } from 'zod';
import { AskgraphError, readTriples } from '../core';
import { isSafeIri } from '../sparql';
import { RDFS_LABEL } from './terms';

/**
 * Loading data files into an Oxigraph store: the RDF syntaxes through Oxigraph's own parsers, and the
 * plain triple files of our data sets (`head|relation|tail`, tab-separated `subj rel obj`) by the
 * minting rule of src/core/README.md. Used inside the query worker and by `askgraph load`.
 */

export type DataFormat = 'nt' | 'nq' | 'ttl' | 'trig' | 'rdfxml' | 'triples';

const MEDIA_TYPE: Record<Exclude<DataFormat, 'triples'>, string> = {
  nt: 'application/n-triples',
  nq: 'application/n-quads',
  ttl: 'text/turtle',
  trig: 'application/trig',
  rdfxml: 'application/rdf+xml',
};

const BY_EXTENSION: Record<string, DataFormat> = {
  '.nt': 'nt',
  '.nq': 'nq',
  '.ttl': 'ttl',
  '.trig': 'trig',
  '.rdf': 'rdfxml',
  '.owl': 'rdfxml',
  '.xml': 'rdfxml',
  '.txt': 'triples',
  '.tsv': 'triples',
};

export const DATA_EXTENSIONS = Object.keys(BY_EXTENSION);

export function detectFormat(file: string): DataFormat {
  const format = BY_EXTENSION[path.extname(file).toLowerCase()];
  if (!format) {
    throw new AskgraphError('DATA_FORMAT', `unknown data file type: ${path.basename(file)} (known: ${DATA_EXTENSIONS.join(' ')})`);
  }
  return format;
}

// ---------- the minting rule (src/core/README.md: the ONLY place IRIs are minted) ----------

export function mintEntity(baseIri: string, label: string): string {
  return baseIri + 'entity/' + encodeURIComponent(label);
}

export function mintRelation(baseIri: string, name: string): string {
  return baseIri + 'relation/' + encodeURIComponent(name);
}

/** N-Triples string literal body (ECHAR escapes for the characters that must be escaped). */
function ntString(text: string): string {
  return '"' + text.replace(/[\\"\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '"' ? '\\"' : c === '\n' ? '\\n' : '\\r')) + '"';
}

/**
 * A triple file as N-Triples text chunks, read by the one triple reader (src/core/triples.ts). Every
 * entity (heads and tails alike, as MetaQA treats years and tags as entities) and relation gets
 * rdfs:label.
 */
export function tripleFileToNTriples(text: string, baseIri: string, name = 'triples'): { chunks: string[]; triples: number } {
  if (!isSafeIri(baseIri)) throw new AskgraphError('DATA_FORMAT', `invalid base IRI: ${baseIri}`);
  const labelled = new Set<string>();
  const chunks: string[] = [];
  let chunk: string[] = [];
  let triples = 0;
  const label = (iri: string, text: string): void => {
    if (labelled.has(iri)) return;
    labelled.add(iri);
    chunk.push(`<${iri}> <${RDFS_LABEL}> ${ntString(text)} .`);
  };
  for (const { triple: [h, r, t] } of readTriples(text, name)) {
    const hi = mintEntity(baseIri, h);
    const ri = mintRelation(baseIri, r);
    const ti = mintEntity(baseIri, t);
    chunk.push(`<${hi}> <${ri}> <${ti}> .`);
    triples++;
    label(hi, h);
    label(ri, r);
    label(ti, t);
    if (chunk.length >= 20000) {
      chunks.push(chunk.join('\n') + '\n');
      chunk = [];
    }
  }
  if (chunk.length) chunks.push(chunk.join('\n') + '\n');
  return { chunks, triples };
}

/** Loads one data file into the store. */
export function loadFile(store: oxigraph.Store, file: string, baseIri: string): void {
  const format = detectFormat(file);
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch (e) {
    throw new AskgraphError('NOT_FOUND', `cannot read data file ${file}: ${(e as Error).message}`, { cause: e });
  }
  try {
    if (format === 'triples') {
      const { chunks } = tripleFileToNTriples(data.toString('utf8'), baseIri, path.basename(file));
      store.load(chunks, { format: MEDIA_TYPE.nt, no_transaction: true });
    } else {
      store.load(data, { format: MEDIA_TYPE[format], base_iri: pathToFileURL(file).href, no_transaction: true });
    }
  } catch (e) {
    if (e instanceof AskgraphError) throw e;
    if (isMemoryFailure(e)) throw tooLargeAfter(e, `loading ${path.basename(file)}`);
    throw new AskgraphError('DATA_FORMAT', `${path.basename(file)}: ${(e as Error).message}`, { cause: e });
  }
}

/** Loads RDF text of a known syntax (tests, small inline data). */
export function loadText(store: oxigraph.Store, text: string, format: DataFormat, baseIri: string): void {
  try {
    if (format === 'triples') store.load(tripleFileToNTriples(text, baseIri).chunks, { format: MEDIA_TYPE.nt, no_transaction: true });
    else store.load(text, { format: MEDIA_TYPE[format], base_iri: baseIri, no_transaction: true });
  } catch (e) {
    if (e instanceof AskgraphError) throw e;
    throw new AskgraphError('DATA_FORMAT', (e as Error).message, { cause: e });
  }
}

// ---------- the embedded store's ceiling ----------

/**
 * Peak resident memory of a process holding an Oxigraph store, per triple, above an idle process (~63 MiB),
 * measured by scripts/measure-store-ceiling.ts on N-Triples of scripts/gen-ceiling-nt.ts (0.5M-8M triples,
 * see docs/deployment.md): opening a store (the store process: parse data.nq or the snapshot) 760-790 B
 * up to 1M triples, 560-630 B from 2M; `askgraph load` (parse, dump data.nq, label discovery, in one
 * process) 1,008 B at 0.5M, 861 B at 2M. Rounded up from the largest.
 */
export const STORE_BYTES_PER_TRIPLE = { open: 800, load: 1100 } as const;
/** What a process with an empty store holds (node, Oxigraph's wasm). */
const STORE_BASE_BYTES = 64 * 2 ** 20;
/** Oxigraph runs as wasm32: its linear memory ends at 4 GiB, whatever the machine has. */
export const WASM32_MEMORY_BYTES = 4 * 2 ** 30;
/**
 * Oxigraph's WebAssembly memory per triple once loaded (same measurement, memory.buffer.byteLength):
 * 774 B at 0.5M triples, 589 B at 2M, 463 B at 8M (3.5 GiB); rounded up where the 4 GiB end is near.
 */
export const WASM_BYTES_PER_TRIPLE = 500;
/**
 * The longest JavaScript string (V8: 2^29 - 24 characters). Oxigraph's dump returns the whole N-Quads
 * text as one string, so `askgraph load` cannot write a data.nq longer than this.
 */
export const MAX_DUMP_CHARS: number = bufferConstants.MAX_STRING_LENGTH;
/** N-Quads characters per triple of a dump when the input is not N-Triples / N-Quads (whose size is the dump's). */
const DUMP_CHARS_PER_TRIPLE = 120;
/** Bytes per triple by which files that are not line-based are estimated (Turtle / TriG are terse, RDF/XML is not). */
const FILE_BYTES_PER_TRIPLE: Partial<Record<DataFormat, number>> = { ttl: 60, trig: 60, rdfxml: 120 };

/** Newline count of a file, read in 1 MiB pieces (never the whole file in memory). */
function countLines(file: string): number {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let lines = 0;
    let last = 0x0a;
    for (let n = fs.readSync(fd, buf, 0, buf.length, null); n > 0; n = fs.readSync(fd, buf, 0, buf.length, null)) {
      for (let i = buf.indexOf(0x0a, 0); i >= 0 && i < n; i = buf.indexOf(0x0a, i + 1)) lines++;
      last = buf[n - 1] ?? last;
    }
    return last === 0x0a ? lines : lines + 1;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * About how many triples the files hold, without parsing them: N-Triples / N-Quads one a line; a triple
 * file one a line plus the labels it mints (counted as one more a line); Turtle, TriG and RDF/XML by size.
 */
export function estimateTriples(files: string[]): number {
  let triples = 0;
  for (const f of files) {
    const format = detectFormat(f);
    if (format === 'nt' || format === 'nq') triples += countLines(f);
    else if (format === 'triples') triples += 2 * countLines(f);
    else triples += Math.ceil(fs.statSync(f).size / (FILE_BYTES_PER_TRIPLE[format] ?? 60));
  }
  return triples;
}

/**
 * The memory the embedded store may use on this machine, in bytes, all its processes together:
 * ASKGRAPH_STORE_MAX_BYTES (a number of bytes, or with K / M / G; 0 = no check), else 80 % of the
 * machine's memory (os.totalmem, not the free memory: the answer to "does it fit" must not depend on
 * how busy the machine is right now). Each store process is also held to wasm32's 4 GiB.
 */
export function storeMemoryLimit(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.ASKGRAPH_STORE_MAX_BYTES?.trim();
  if (raw === undefined || raw === '') return Math.floor(os.totalmem() * 0.8);
  const m = /^(\d+(?:\.\d+)?)\s*([KMG]i?B?)?$/i.exec(raw);
  if (!m) throw new AskgraphError('BAD_REQUEST', `ASKGRAPH_STORE_MAX_BYTES must be a number of bytes (or with K, M, G), got "${raw}"`);
  const unit = (m[2] ?? '').charAt(0).toUpperCase();
  const bytes = Math.floor(Number(m[1]) * (unit === 'K' ? 2 ** 10 : unit === 'M' ? 2 ** 20 : unit === 'G' ? 2 ** 30 : 1));
  return bytes === 0 ? undefined : bytes;
}

export interface StoreFit {
  triples: number;
  /** Estimated peak memory of one process holding the store. */
  bytesPerCopy: number;
  /** The most triples one process may hold here (the smallest of the limits below). */
  maxTriples: number;
}

function millions(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${Math.round(n / 1e3)}k` : String(n);
}

const size = (b: number) => (b >= 2 ** 30 ? `${(b / 2 ** 30).toFixed(1)} GiB` : `${Math.round(b / 2 ** 20)} MiB`);

/**
 * Refuses, before anything is loaded or written, data that would not fit in the embedded store, with
 * STORE_TOO_LARGE when any of these is over: the estimated peak of `copies` store processes (`purpose`
 * open: the gateway's store processes; load: `askgraph load`'s one process) against storeMemoryLimit;
 * one process's WebAssembly memory against wasm32's 4 GiB; for load, the data.nq dump against the
 * longest JavaScript string. Returns the estimate (undefined when the check is off).
 */
export function checkStoreFits(files: string[], opts: { purpose: 'open' | 'load'; copies?: number; env?: NodeJS.ProcessEnv }): StoreFit | undefined {
  const env = opts.env ?? process.env;
  const limit = storeMemoryLimit(env);
  if (limit === undefined) return undefined;
  const copies = Math.max(1, opts.copies ?? 1);
  const perTriple = STORE_BYTES_PER_TRIPLE[opts.purpose];
  const triples = estimateTriples(files);
  const lineBased = files.every((f) => ['nt', 'nq'].includes(detectFormat(f)));
  const limits: { max: number; why: string }[] = [
    {
      max: Math.floor((limit / copies - STORE_BASE_BYTES) / perTriple),
      why: `${size(limit)} for the store${copies > 1 ? ` across ${copies} store processes` : ''}, ${env.ASKGRAPH_STORE_MAX_BYTES ? 'ASKGRAPH_STORE_MAX_BYTES' : "80 % of this machine's memory"}`,
    },
    { max: Math.floor(WASM32_MEMORY_BYTES / WASM_BYTES_PER_TRIPLE), why: `Oxigraph's WebAssembly memory ends at ${size(WASM32_MEMORY_BYTES)} per store process` },
  ];
  if (opts.purpose === 'load') {
    const dumpChars = lineBased ? files.reduce((n, f) => n + fs.statSync(f).size, 0) : triples * DUMP_CHARS_PER_TRIPLE;
    const perTripleChars = triples > 0 ? dumpChars / triples : DUMP_CHARS_PER_TRIPLE;
    limits.push({ max: Math.floor(MAX_DUMP_CHARS / perTripleChars), why: `data.nq is written from one JavaScript string, at most ${size(MAX_DUMP_CHARS)}` });
  }
  const tightest = limits.reduce((a, b) => (b.max < a.max ? b : a));
  const maxTriples = Math.max(0, tightest.max);
  const fit: StoreFit = { triples, bytesPerCopy: STORE_BASE_BYTES + triples * perTriple, maxTriples };
  if (triples > maxTriples) {
    throw new AskgraphError(
      'STORE_TOO_LARGE',
      `this graph has ~${millions(triples)} triples (~${size(fit.bytesPerCopy)} in the embedded store); the embedded store holds about ${millions(maxTriples)} on this machine (${tightest.why}) — ` +
        'use an endpoint: load the data into a SPARQL store such as Virtuoso and run askgraph init <endpoint URL>',
      { details: { triples, estimatedBytes: fit.bytesPerCopy, copies, limitBytes: limit, maxTriples } },
    );
  }
  return fit;
}

/** A failure of memory (wasm allocation, V8's string / buffer limits) while loading or dumping a store. */
export function isMemoryFailure(e: unknown): boolean {
  const m = e instanceof Error ? e.message : String(e);
  return e instanceof RangeError || /out of memory|memory allocation|allocation failed|Cannot create a string longer|Array buffer allocation/i.test(m);
}

function tooLargeAfter(e: unknown, what: string): AskgraphError {
  return new AskgraphError(
    'STORE_TOO_LARGE',
    `the embedded store ran out of memory ${what} (${(e instanceof Error ? e.message : String(e)).slice(0, 200)}) — use an endpoint: load the data into a SPARQL store such as Virtuoso and run askgraph init <endpoint URL>`,
    { cause: e },
  );
}

// ---------- snapshots ----------

/** Size and sha256 of a file's bytes (what a snapshot key or a pack manifest records). */
export interface FileDigest {
  size: number;
  sha256: string;
}

export function digestOf(bytes: Buffer): FileDigest {
  return { size: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
}

/** Writes every quad of the store (all graphs) as N-Quads, atomically (temp file + rename); returns its digest. A dump over memory is STORE_TOO_LARGE. */
export function saveSnapshot(store: oxigraph.Store, file: string): FileDigest {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  let bytes: Buffer;
  try {
    bytes = Buffer.from(store.dump({ format: MEDIA_TYPE.nq }), 'utf8');
  } catch (e) {
    if (isMemoryFailure(e)) throw tooLargeAfter(e, `writing ${path.basename(file)}`);
    throw e;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true }); // after the dump: a dump that fails leaves no folder
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, file);
  return digestOf(bytes);
}

/**
 * Loads a snapshot written by saveSnapshot, lenient: its quads were validated when the sources were
 * loaded. Movies snapshot (25 MB), CPU time of a fresh process, 3 runs each: strict 661/668/695 ms,
 * lenient 542/550/554 ms. (As a string: handing Oxigraph a Buffer cost 1,000-1,400 ms.)
 */
export function loadSnapshot(store: oxigraph.Store, file: string): void {
  store.load(fs.readFileSync(file, 'utf8'), { format: MEDIA_TYPE.nq, no_transaction: true, lenient: true });
}

// ---------- what a store is made of ----------

/** The recipe for an embedded store; plain data, so it can be sent to the worker and used to rebuild it. */
export interface StoreSource {
  /** Absolute paths of data files. */
  files: string[];
  baseIri: string;
  /** Folder for the generated snapshot (N-Quads) of files that are slower to parse than N-Quads; none = no cache. */
  cacheDir?: string;
}

export interface BuildInfo {
  size: number;
  loadMs: number;
  from: 'sources' | 'snapshot';
  /** CPU time of the store process up to ready (its start, the wasm, the load), when it runs in one. */
  cpuMs?: number;
  snapshotWritten?: string;
  snapshotError?: string;
}

const SNAPSHOT_VERSION = 2;

function cacheKey(source: StoreSource): string {
  const files = source.files.map((f) => {
    const st = fs.statSync(f);
    return { f, size: st.size, mtime: Math.floor(st.mtimeMs) };
  });
  return JSON.stringify({ v: SNAPSHOT_VERSION, baseIri: source.baseIri, files });
}

/**
 * The snapshot's text when snapshot.key holds this source's key and the snapshot's own size and sha256
 * (written with it), else undefined: a snapshot that is empty, cut or changed is not loaded but rebuilt.
 */
const SnapshotKeySchema = z.object({ key: z.string(), snapshot: z.object({ size: z.number(), sha256: z.string() }) });
function verifiedSnapshot(snap: string, keyFile: string, key: string): string | undefined {
  if (!fs.existsSync(snap) || !fs.existsSync(keyFile)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(keyFile, 'utf8'));
  } catch {
    return undefined;
  }
  const saved = SnapshotKeySchema.safeParse(json);
  if (!saved.success || saved.data.key !== key || fs.statSync(snap).size !== saved.data.snapshot.size) return undefined;
  const bytes = fs.readFileSync(snap);
  if (digestOf(bytes).sha256 !== saved.data.snapshot.sha256) return undefined;
  return bytes.toString('utf8');
}

/**
 * Builds a store from its source. With a cacheDir, the first build writes snapshot.nq + snapshot.key
 * there; later builds whose key (files, sizes, mtimes, base IRI) matches load the snapshot instead
 * (for the movies pack: ~1.1 s instead of ~2.6 s, see scripts/bench-store.ts). The key file also
 * holds the snapshot's size and sha256: a snapshot that does not match them (empty, cut, edited) is
 * rebuilt from the sources, never loaded.
 */
export function buildStore(source: StoreSource): { store: oxigraph.Store; info: BuildInfo } {
  const t0 = Date.now();
  // required here, not at the top: the main thread of `askgraph ask` imports this module but never
  // builds a store (the worker does), so it does not compile Oxigraph's wasm for nothing
  const { Store } = require('oxigraph') as typeof oxigraph;
  // the cache folder, when the sources are not already one N-Quads dump
  const cacheDir = source.files.some((f) => detectFormat(f) !== 'nq') ? source.cacheDir : undefined;
  let key: string | undefined;
  if (cacheDir !== undefined) {
    const snap = path.join(cacheDir, 'snapshot.nq');
    const keyFile = path.join(cacheDir, 'snapshot.key');
    key = cacheKey(source);
    try {
      const text = verifiedSnapshot(snap, keyFile, key);
      if (text !== undefined) {
        const store = new Store();
        store.load(text, { format: MEDIA_TYPE.nq, no_transaction: true, lenient: true });
        return { store, info: { size: store.size, loadMs: Date.now() - t0, from: 'snapshot' } };
      }
    } catch {
      // an unreadable cache is rebuilt below (into a fresh store)
    }
  }
  const store = new Store();
  for (const f of source.files) loadFile(store, f, source.baseIri);
  const info: BuildInfo = { size: store.size, loadMs: Date.now() - t0, from: 'sources' };
  if (cacheDir !== undefined && key !== undefined) {
    const snap = path.join(cacheDir, 'snapshot.nq');
    const keyFile = path.join(cacheDir, 'snapshot.key');
    try {
      fs.rmSync(keyFile, { force: true }); // never a new key next to an old snapshot, or the reverse
      const snapshot = saveSnapshot(store, snap);
      // a temp name of this process: gateways sharing a pack folder may write the key at the same time
      const tmpKey = `${keyFile}.${process.pid}.tmp`;
      fs.writeFileSync(tmpKey, JSON.stringify({ key, snapshot }));
      fs.renameSync(tmpKey, keyFile);
      info.snapshotWritten = snap;
    } catch (e) {
      info.snapshotError = (e as Error).message; // a read-only pack still works, just without the cache
    }
  }
  return { store, info };
}
