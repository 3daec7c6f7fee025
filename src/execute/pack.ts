import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { AskgraphError, defaultPackDir, itemAt, PackConfig } from '../core';
import { EndpointExecutor } from './endpoint';
import { DATA_EXTENSIONS, digestOf, StoreSource } from './loaders';
import { OxigraphExecutor } from './oxigraph';
import { RDFS_LABEL } from './terms';

const PackSchema = z.object({
  name: z.string().min(1),
  data: z.array(z.string().min(1)).optional(),
  baseIri: z.string().min(1),
  vocabularyNamespace: z.string().min(1),
  labelPredicates: z.array(z.string().min(1)).min(1),
  aliasPredicates: z.array(z.string().min(1)).optional(),
  localNameLabels: z.boolean().optional(),
  endpoint: z.string().regex(/^https?:\/\//i, 'an http(s) URL').optional(),
  model: z.string().optional(),
  excludeTopic: z.union([z.boolean(), z.literal('every-hop'), z.literal('retraced')]).optional(),
  names: z.record(z.string().min(1), z.string().min(1)).optional(),
  nonTopicWords: z.array(z.string().min(1)).optional(),
  title: z.string().min(1).optional(),
  description: z.string().min(1).optional(),
  examples: z.array(z.string().min(1)).optional(),
  files: z.record(z.string().min(1), z.object({ size: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex') })).optional(),
});

export const PACK_FILE = 'pack.json';

/** Reads and checks <dir>/pack.json (default: the embedded movies pack). */
export async function loadPack(dir?: string): Promise<{ dir: string; config: PackConfig }> {
  const abs = path.resolve(dir ?? defaultPackDir());
  const file = path.join(abs, PACK_FILE);
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (e) {
    throw new AskgraphError('NOT_FOUND', `no knowledge pack at ${abs} (missing ${PACK_FILE})`, { cause: e });
  }
  return { dir: abs, config: parsePackConfig(text, file) };
}

/** Checks the text of a pack.json (`file` names it in errors): DATA_FORMAT when it is not JSON or not a pack. */
export function parsePackConfig(text: string, file: string): PackConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new AskgraphError('DATA_FORMAT', `${file}: ${(e as Error).message}`, { cause: e });
  }
  const parsed = PackSchema.safeParse(json);
  if (!parsed.success) {
    const issue = itemAt(parsed.error.issues, 0, 'issues of a failed pack.json parse');
    throw new AskgraphError('DATA_FORMAT', `${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`, { details: { issues: parsed.error.issues } });
  }
  return parsed.data;
}

// ---------- the manifest: size and sha256 of the files a pack is served from ----------

/** The files a manifest covers: the data files and every file of the model folder but its notes (*.md) (paths relative to the pack, with /). */
function manifestFiles(dir: string, config: PackConfig): string[] {
  const rel = new Set<string>(config.data ?? []);
  if (config.model) {
    const modelDir = path.resolve(dir, config.model);
    if (fs.existsSync(modelDir)) {
      for (const f of fs.readdirSync(modelDir).sort()) {
        if (!f.startsWith('.') && !f.endsWith('.md') && fs.statSync(path.join(modelDir, f)).isFile()) rel.add(path.posix.join(config.model.split(path.sep).join('/'), f));
      }
    }
  }
  return [...rel].filter((f) => fs.existsSync(path.resolve(dir, f))).sort();
}

/** The manifest of a pack folder as it is now (`askgraph init` writes it into pack.json as `files`). */
export function packManifest(dir: string, config: PackConfig): Record<string, { size: number; sha256: string }> {
  const out: Record<string, { size: number; sha256: string }> = {};
  for (const f of manifestFiles(dir, config)) out[f] = digestOf(fs.readFileSync(path.resolve(dir, f)));
  return out;
}

/**
 * Rewrites pack.json's manifest from the files as they are now (after a tool such as scripts/calibrate.ts
 * changed a model file on purpose). With `onlyIfPresent`, a pack without a manifest is left alone.
 */
export function refreshPackManifest(dir: string, opts: { onlyIfPresent?: boolean } = {}): void {
  const file = path.join(dir, PACK_FILE);
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  if (opts.onlyIfPresent && raw.files === undefined) return;
  const config = parsePackConfig(JSON.stringify(raw), file);
  raw.files = packManifest(dir, config);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(raw, null, 2) + '\n');
  fs.renameSync(tmp, file);
}

/**
 * Checks every file of the pack's manifest (pack.json `files`): size first, then sha256. A missing file
 * is NOT_FOUND, a different one DATA_FORMAT, both naming the file — a pack is never served from a file
 * that is not the one it was built with (a cut data file or a model with flipped bytes starts "ok" and
 * answers wrong). No manifest, nothing to check.
 */
export function verifyPack(dir: string, config: PackConfig): void {
  for (const [rel, want] of Object.entries(config.files ?? {})) {
    const abs = path.resolve(dir, rel);
    if (path.relative(dir, abs).startsWith('..')) throw new AskgraphError('DATA_FORMAT', `${path.join(dir, PACK_FILE)}: files: ${rel} is outside the pack`);
    let size: number;
    try {
      size = fs.statSync(abs).size;
    } catch (e) {
      throw new AskgraphError('NOT_FOUND', `pack ${config.name}: ${rel} is missing (${abs})`, { cause: e, details: { file: rel } });
    }
    const got = size === want.size ? digestOf(fs.readFileSync(abs)) : { size, sha256: '' };
    if (got.size !== want.size || got.sha256 !== want.sha256) {
      const what = got.size !== want.size ? `${got.size} bytes where ${PACK_FILE} says ${want.size}` : `its sha256 is not the one ${PACK_FILE} records`;
      throw new AskgraphError('DATA_FORMAT', `pack ${config.name}: ${rel} is corrupt or was changed (${what}): restore it, or rebuild the pack with askgraph init`, {
        details: { file: rel, size: got.size, expectedSize: want.size },
      });
    }
  }
}

// ---------- store specs: the one place that says what a --store / ASKGRAPH_STORE value is ----------

/** Is this store spec a SPARQL endpoint (an http(s) URL)? (Not a type guard: a string that is not one is still a string.) */
export function isEndpointUrl(spec: string | undefined): boolean {
  return spec !== undefined && /^https?:\/\//i.test(spec);
}

/**
 * What a store spec names: undefined = the embedded movies pack; an http(s) URL = a SPARQL endpoint;
 * a directory with pack.json = a pack; any other directory = the RDF / triple files in it; else a data file.
 * `path` is absolute (not for endpoints); a path that does not exist is a NOT_FOUND error.
 */
export type StoreSpec = { kind: 'endpoint'; url: string } | { kind: 'pack' | 'dir' | 'file'; path: string };

export function resolveStoreSpec(spec?: string): StoreSpec {
  if (spec !== undefined && isEndpointUrl(spec)) return { kind: 'endpoint', url: spec };
  const target = path.resolve(spec ?? defaultPackDir());
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    throw new AskgraphError('NOT_FOUND', `no store at ${target}`);
  }
  if (!stat.isDirectory()) return { kind: 'file', path: target };
  return { kind: fs.existsSync(path.join(target, PACK_FILE)) ? 'pack' : 'dir', path: target };
}

/** The pack a store spec names (undefined = the embedded pack), or undefined for an endpoint, a plain folder or a file. */
export async function packOfStore(spec?: string): Promise<{ dir: string; config: PackConfig } | undefined> {
  const s = resolveStoreSpec(spec);
  return s.kind === 'pack' ? loadPack(s.path) : undefined;
}


/** The data files behind a store spec (a pack's data, a folder's data files, the file), [] for an endpoint. */
export function storeDataFiles(spec: StoreSpec, config?: PackConfig): string[] {
  if (spec.kind === 'endpoint') return [];
  if (spec.kind === 'file') return [spec.path];
  if (spec.kind === 'pack' && config?.data) return config.data.map((f) => path.resolve(spec.path, f));
  return dataFilesIn(spec.path);
}

export interface OpenOptions {
  /** Label predicates for an endpoint or a plain data dir/file (a pack says its own). */
  labelPredicates?: string[];
  /** Label IRIs without a label by their local name (a pack says its own; see PackConfig.localNameLabels). */
  localNameLabels?: boolean;
  /** Base IRI for minting when a plain data dir/file holds triple files (default http://askgraph.dev/<name>/). */
  baseIri?: string;
  defaultTimeoutMs?: number;
  /** Use/write the snapshot cache in <pack>/.cache (default true). */
  cache?: boolean;
  /**
   * Resolve as soon as the embedded store's worker has started (default: once it has loaded the data).
   * Queries wait for the load; `whenReady()` rejects with the load error. Lets callers load a model meanwhile.
   */
  background?: boolean;
}

export type StoreExecutor = OxigraphExecutor | EndpointExecutor;

function dataFilesIn(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => !f.startsWith('.') && DATA_EXTENSIONS.includes(path.extname(f).toLowerCase()))
    .sort()
    .map((f) => path.join(dir, f));
}

/**
 * An executor for a store spec: undefined = the embedded movies pack; an http(s) URL = a SPARQL endpoint;
 * a directory with pack.json = that pack's data; any other directory = the RDF / triple files in it;
 * a file = that file (e.g. a snapshot .nq written by `askgraph load`).
 */
export async function openExecutor(spec?: string, opts: OpenOptions = {}): Promise<StoreExecutor> {
  const store = resolveStoreSpec(spec);
  if (store.kind === 'endpoint') {
    return new EndpointExecutor(store.url, { labelPredicates: opts.labelPredicates, localNameLabels: opts.localNameLabels, defaultTimeoutMs: opts.defaultTimeoutMs });
  }
  const target = store.path;
  let source: StoreSource;
  let labelPredicates = opts.labelPredicates ?? [RDFS_LABEL];
  let localNameLabels = opts.localNameLabels ?? false;
  let verify: (() => void) | undefined;
  if (store.kind === 'pack') {
    const { config } = await loadPack(target);
    verify = () => verifyPack(target, config);
    if (config.endpoint) {
      verify();
      return new EndpointExecutor(config.endpoint, { labelPredicates: config.labelPredicates, localNameLabels: config.localNameLabels, defaultTimeoutMs: opts.defaultTimeoutMs });
    }
    localNameLabels = config.localNameLabels ?? false;
    source = { files: storeDataFiles(store, config), baseIri: config.baseIri, ...(opts.cache !== false ? { cacheDir: path.join(target, '.cache') } : {}) };
    labelPredicates = config.labelPredicates;
  } else if (store.kind === 'dir') {
    const files = storeDataFiles(store);
    if (files.length === 0) throw new AskgraphError('NOT_FOUND', `no data files (${DATA_EXTENSIONS.join(' ')}) in ${target}`);
    source = { files, baseIri: opts.baseIri ?? `http://askgraph.dev/${encodeURIComponent(path.basename(target))}/` };
  } else {
    const name = path.basename(target, path.extname(target));
    source = { files: [target], baseIri: opts.baseIri ?? `http://askgraph.dev/${encodeURIComponent(name)}/` };
  }
  for (const f of source.files) {
    if (!fs.existsSync(f)) throw new AskgraphError('NOT_FOUND', `data file of ${target} is missing: ${f}`);
  }
  const oxOpts = { id: 'oxigraph:' + target, labelPredicates, localNameLabels, defaultTimeoutMs: opts.defaultTimeoutMs };
  if (!verify) return opts.background ? OxigraphExecutor.openInBackground(source, oxOpts) : OxigraphExecutor.open(source, oxOpts);
  // the pack's files are checked while the store's worker loads (the snapshot it may load is checked there)
  const ex = OxigraphExecutor.openInBackground(source, oxOpts);
  try {
    verify();
    if (!opts.background) await ex.whenReady();
  } catch (e) {
    await ex.close().catch(() => undefined);
    throw e;
  }
  return ex;
}
