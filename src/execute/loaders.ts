import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as oxigraph from 'oxigraph';
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

// ---------- snapshots ----------

/** Size and sha256 of a file's bytes (what a snapshot key or a pack manifest records). */
export interface FileDigest {
  size: number;
  sha256: string;
}

export function digestOf(bytes: Buffer): FileDigest {
  return { size: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
}

/** Writes every quad of the store (all graphs) as N-Quads, atomically (temp file + rename); returns its digest. */
export function saveSnapshot(store: oxigraph.Store, file: string): FileDigest {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  const bytes = Buffer.from(store.dump({ format: MEDIA_TYPE.nq }), 'utf8');
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
function verifiedSnapshot(snap: string, keyFile: string, key: string): string | undefined {
  if (!fs.existsSync(snap) || !fs.existsSync(keyFile)) return undefined;
  let saved: { key?: unknown; snapshot?: Partial<FileDigest> };
  try {
    saved = JSON.parse(fs.readFileSync(keyFile, 'utf8'));
  } catch {
    return undefined;
  }
  if (saved.key !== key || typeof saved.snapshot?.sha256 !== 'string' || fs.statSync(snap).size !== saved.snapshot.size) return undefined;
  const bytes = fs.readFileSync(snap);
  if (digestOf(bytes).sha256 !== saved.snapshot.sha256) return undefined;
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
  const useCache = source.cacheDir !== undefined && source.files.some((f) => detectFormat(f) !== 'nq');
  let key: string | undefined;
  if (useCache) {
    const snap = path.join(source.cacheDir!, 'snapshot.nq');
    const keyFile = path.join(source.cacheDir!, 'snapshot.key');
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
  if (useCache && key !== undefined) {
    const snap = path.join(source.cacheDir!, 'snapshot.nq');
    const keyFile = path.join(source.cacheDir!, 'snapshot.key');
    try {
      fs.rmSync(keyFile, { force: true }); // never a new key next to an old snapshot, or the reverse
      const snapshot = saveSnapshot(store, snap);
      fs.writeFileSync(keyFile + '.tmp', JSON.stringify({ key, snapshot }));
      fs.renameSync(keyFile + '.tmp', keyFile);
      info.snapshotWritten = snap;
    } catch (e) {
      info.snapshotError = (e as Error).message; // a read-only pack still works, just without the cache
    }
  }
  return { store, info };
}
