import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import { iriLocalName, localNameLabel, RDFS_LABEL, type Executor, type Row } from '../core';
import { EntityIndex, type LabelEntry } from './entity-index';
import { labelsPageQuery, relationsQuery, unlabelledEntitiesQuery } from './queries';

export interface StoreIndexOptions {
  labelPredicates?: string[];
  aliasPredicates?: string[];
  /** Entities without a label through the label predicates are indexed under their split local name (PackConfig.localNameLabels). */
  localNameLabels?: boolean;
  /** IRIs in these namespaces are not entities (e.g. the relation vocabulary). */
  excludeNamespaces?: string[];
  /** These IRIs are not entities (a pack's classes and properties, pack.json `names`). */
  excludeIris?: string[];
  /** Rows per SPARQL page. Default 50,000. */
  pageSize?: number;
  /** Where a progress bar is drawn (only when it is a TTY); none by default. */
  progress?: NodeJS.WritableStream;
  timeoutMs?: number;
}

export interface RelationInfo {
  iri: string;
  /** Local name (after the vocabulary namespace / last # or /), e.g. "directed_by". */
  name: string;
}

/**
 * Label entries page by page: `query(predicates, limit, offset)` gives the rows, `entry(row)` an entry or
 * nothing; the index's own excluded IRIs and namespaces are left out.
 */
async function pagedLabels(
  executor: Executor,
  opts: StoreIndexOptions,
  query: (predicates: string[], limit: number, offset: number) => string,
  entry: (row: Row) => LabelEntry | undefined,
): Promise<LabelEntry[]> {
  const predicates = [...(opts.labelPredicates ?? [RDFS_LABEL]), ...(opts.aliasPredicates ?? [])];
  const pageSize = opts.pageSize ?? 50000;
  const exclude = opts.excludeNamespaces ?? [];
  const excludeIris = new Set(opts.excludeIris ?? []);
  const out: LabelEntry[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const res = await executor.select(query(predicates, pageSize, offset), { timeoutMs: opts.timeoutMs ?? 120000 });
    for (const row of res.rows) {
      const e = entry(row);
      if (e && !excludeIris.has(e.iri) && !exclude.some((ns) => e.iri.startsWith(ns))) out.push(e);
    }
    if (res.rows.length < pageSize) break;
  }
  return out;
}

/** Every (IRI, label) pair of the label and alias predicates, fetched page by page. */
export async function fetchLabels(executor: Executor, opts: StoreIndexOptions = {}): Promise<LabelEntry[]> {
  const out = await pagedLabels(executor, opts, labelsPageQuery, (row) =>
    row.s?.type === 'uri' && row.l?.type === 'literal' ? { iri: row.s.value, label: row.l.value } : undefined,
  );
  if (opts.localNameLabels) out.push(...(await fetchLocalNameLabels(executor, opts)));
  return out;
}

/** Labels made from local names for the entities that have none through the label predicates (paged). */
export async function fetchLocalNameLabels(executor: Executor, opts: StoreIndexOptions = {}): Promise<LabelEntry[]> {
  return pagedLabels(executor, opts, unlabelledEntitiesQuery, (row) => {
    const e = row.e;
    const label = e?.type === 'uri' ? localNameLabel(e.value) : undefined;
    return e && label ? { iri: e.value, label } : undefined;
  });
}

/** The predicates used in the store (at most `limit`), as the relation vocabulary. */
export async function fetchRelations(executor: Executor, opts: { limit?: number; timeoutMs?: number; exclude?: string[] } = {}): Promise<RelationInfo[]> {
  const res = await executor.select(relationsQuery(opts.limit ?? 20000), { timeoutMs: opts.timeoutMs ?? 60000 });
  const exclude = new Set(opts.exclude ?? []);
  return res.rows
    .flatMap((r) => (r.p?.type === 'uri' && !exclude.has(r.p.value) ? [{ iri: r.p.value, name: iriLocalName(r.p.value) }] : []));
}

function withBar<T>(stream: NodeJS.WritableStream | undefined, total: number, label: string, run: (tick: (n: number) => void) => T): T {
  const tty = stream !== undefined && 'isTTY' in stream && stream.isTTY === true;
  if (!tty) return run(() => undefined); // no terminal: no bar to move
  const bar = new SingleBar({ stream, format: `${label} [{bar}] {percentage}% {value}/{total}`, hideCursor: true }, Presets.shades_classic);
  bar.start(total, 0);
  try {
    return run((n) => bar.update(n));
  } finally {
    bar.stop();
  }
}

/** Fetches the labels and the relation vocabulary of a store and builds its entity index. */
export async function buildStoreIndex(executor: Executor, opts: StoreIndexOptions = {}): Promise<EntityIndex> {
  const started = Date.now();
  const entries = await fetchLabels(executor, opts);
  let relations: RelationInfo[] = [];
  try {
    relations = await fetchRelations(executor, { exclude: [...(opts.labelPredicates ?? [RDFS_LABEL]), ...(opts.aliasPredicates ?? [])] });
  } catch {
    // A large remote store may refuse the DISTINCT ?p scan; relations are then found around entities only.
  }
  const meta = { store: executor.id, builtAt: new Date().toISOString(), labels: entries.length, relations, fetchMs: Date.now() - started };
  return withBar(opts.progress, entries.length, 'indexing labels', (tick) => EntityIndex.build(entries, { meta, onProgress: tick }));
}

/** A cache file name that changes when the store or the label settings change. */
export function indexCacheFile(cacheDir: string, executorId: string, opts: StoreIndexOptions, fingerprint = ''): string {
  const key = JSON.stringify([executorId, opts.labelPredicates ?? [RDFS_LABEL], opts.aliasPredicates ?? [], opts.excludeNamespaces ?? [], fingerprint, ...(opts.localNameLabels ? ['local-names-2'] : []) /* -2: split by core identifierBoundaries ("IMDb" kept whole) */, ...(opts.excludeIris?.length ? [opts.excludeIris] : [])]);
  const hash = crypto.createHash('sha256').update(key).digest('hex').slice(0, 16);
  return path.join(cacheDir, `entity-index-${hash}.json`);
}

/** sha256 of a cache file's bytes, kept beside it in `<file>.sha256`. */
function fileSha256(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/**
 * The store's entity index from the cache file when present, readable and unchanged since it was written
 * (its sha256 is kept beside it in `<file>.sha256`), else built and saved. A corrupt, cut or edited cache
 * is rebuilt, not trusted; an index of an empty store is not cached (it would outlive the empty store).
 */
export async function loadOrBuildStoreIndex(executor: Executor, cacheFile: string | undefined, opts: StoreIndexOptions = {}): Promise<EntityIndex> {
  if (cacheFile && fs.existsSync(cacheFile)) {
    try {
      if (fs.readFileSync(cacheFile + '.sha256', 'utf8').trim() === fileSha256(cacheFile)) return EntityIndex.load(cacheFile);
    } catch {
      // fall through and rebuild
    }
  }
  const index = await buildStoreIndex(executor, opts);
  if (cacheFile && index.size > 0) {
    try {
      fs.rmSync(cacheFile + '.sha256', { force: true });
      index.save(cacheFile);
      fs.writeFileSync(cacheFile + '.sha256', fileSha256(cacheFile) + '\n');
    } catch {
      // read-only install: keep the in-memory index
    }
  }
  return index;
}

/** Fingerprint of data files (size + mtime) so a changed pack rebuilds its index. */
export function filesFingerprint(files: string[]): string {
  return files
    .map((f) => {
      try {
        const st = fs.statSync(f);
        return `${path.basename(f)}:${st.size}:${Math.floor(st.mtimeMs)}`;
      } catch {
        return `${path.basename(f)}:missing`;
      }
    })
    .join(',');
}
