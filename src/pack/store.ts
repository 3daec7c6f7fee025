import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskgraphError, type PackConfig } from '../core';
import { buildStore, checkStoreFits, PACK_FILE, parseJsonSelect, saveSnapshot } from '../execute';
import { discoverLabelSources, type LabelSource } from '../synth';

export interface StorePackOptions {
  /** RDF files (nt, ttl, nq, trig, rdf/owl/xml) and triple files (.txt `head|rel|tail`, .tsv). */
  files: string[];
  /** The store folder to write. */
  dir: string;
  /** Pack name (default: the folder name). */
  name?: string;
  /** Base IRI for minting entities/relations of triple files (default http://askgraph.dev/<name>/). */
  baseIri?: string;
  /** The environment the memory limit is read from (ASKGRAPH_STORE_MAX_BYTES; default process.env). */
  env?: NodeJS.ProcessEnv;
}

export interface StorePack {
  dir: string;
  pack: PackConfig;
  dataFile: string;
  triples: number;
  files: string[];
  loadMs: number;
  timeMs: number;
  labelSources: LabelSource[];
}

/**
 * `askgraph load`: an embedded store from data files, saved as <dir>/data.nq, and its pack.json (label
 * predicates discovered from the graph; a model and alias predicates of an earlier pack.json are kept), so
 * `askgraph run --store DIR` (and every stage) can open it.
 */
export async function buildStorePack(opts: StorePackOptions): Promise<StorePack> {
  const dir = path.resolve(opts.dir);
  const name = opts.name ?? path.basename(dir);
  const baseIri = opts.baseIri ?? `http://askgraph.dev/${encodeURIComponent(name)}/`;
  if (!/^https?:\/\/\S+[/#]$/.test(baseIri)) {
    throw new AskgraphError('BAD_REQUEST', `--base must be an http(s) IRI ending in / or #, got "${baseIri}"`);
  }
  const abs = opts.files.map((f) => path.resolve(f));
  for (const f of abs) if (!fs.existsSync(f)) throw new AskgraphError('NOT_FOUND', `no such file: ${f}`);
  // a graph the embedded store cannot hold is refused here, before anything is loaded or written
  checkStoreFits(abs, { purpose: 'load', ...(opts.env ? { env: opts.env } : {}) });
  const t0 = Date.now();
  const { store, info } = buildStore({ files: abs, baseIri });
  fs.mkdirSync(dir, { recursive: true });
  const dataFile = 'data.nq';
  saveSnapshot(store, path.join(dir, dataFile));
  // Which label predicates the graph uses (and whether some entities only have their IRI to go by).
  const select = (q: string) => Promise.resolve(parseJsonSelect(store.query(q, { use_default_graph_as_union: true, results_format: 'application/sparql-results+json' }) as string));
  const labels = await discoverLabelSources({ select });
  let previous: Partial<PackConfig> = {};
  try {
    previous = JSON.parse(fs.readFileSync(path.join(dir, PACK_FILE), 'utf8')) as Partial<PackConfig>;
  } catch {
    // a new store
  }
  const pack: PackConfig = {
    name,
    data: [dataFile],
    baseIri,
    vocabularyNamespace: baseIri + 'relation/',
    labelPredicates: labels.labelPredicates,
    ...(labels.aliasPredicates.length ? { aliasPredicates: labels.aliasPredicates } : previous.aliasPredicates ? { aliasPredicates: previous.aliasPredicates } : {}),
    ...(labels.localNameLabels ? { localNameLabels: true } : {}),
    ...(previous.model ? { model: previous.model } : {}),
  };
  const packTmp = path.join(dir, `${PACK_FILE}.${process.pid}.tmp`);
  fs.writeFileSync(packTmp, JSON.stringify(pack, null, 2) + '\n');
  fs.renameSync(packTmp, path.join(dir, PACK_FILE));
  fs.rmSync(path.join(dir, '.cache'), { recursive: true, force: true }); // stale snapshot of older data
  return { dir, pack, dataFile, triples: info.size, files: abs, loadMs: info.loadMs, timeMs: Date.now() - t0, labelSources: labels.labelSources };
}
