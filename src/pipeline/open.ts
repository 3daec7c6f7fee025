/**
 * The pack loader: opens what a gateway asks with — the pack (pack.json), the executor over its store, the
 * entity index (cached), the parser (or an HTTP generator) and the parser's known words and calibration.
 * The embedded store loads in its worker while this thread loads the index and the parser.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskgraphError, type Executor, type Generator, type PackConfig } from '../core';
import { loadPack, openExecutor } from '../execute';
import type * as GenerateModule from '../generate';
import { filesFingerprint, indexCacheFile, loadOrBuildStoreIndex, RelationRetriever, type EntityIndex, type RelationInfo, type Scorer } from '../ground';
import { loadKnownWords, type KnownWords } from './abstain';
import { loadCalibration, type Calibration } from './calibration';
import type { AskOptions } from './options';
import { PhaseClock } from './startup';

export type ScoringGenerator = Generator & { score?(question: string, forms: string[]): Promise<number[]> };

export interface GatewayOptions {
  /** Knowledge pack folder (pack.json). Default: the store's pack if it is one, else the embedded movies pack. */
  pack?: string;
  /** Store spec for openExecutor: pack/store dir, data file, or SPARQL endpoint URL. Default: the pack. */
  store?: string;
  /** Parser model folder. Default: <pack>/<config.model>. */
  model?: string;
  /** A ready generator (tests, HTTP generator); replaces `model`. */
  generator?: ScoringGenerator;
  /**
   * An OpenAI-compatible chat/completions server that writes the forms (replaces `model`): its forms are
   * held to the decoder's rules (the graph's relation names, entities copied from the question), then
   * grounded, executed and traced like the parser's. Bearer token from ASKGRAPH_LLM_KEY.
   */
  generatorUrl?: string;
  /** Model name sent to generatorUrl (default "default", or ASKGRAPH_LLM_MODEL). */
  generatorModel?: string;
  /** A ready executor; replaces `store` (the gateway does not close it). */
  executor?: Executor;
  /** A ready entity index; else loaded from / built into the cache. */
  index?: EntityIndex;
  /** Where the entity index is cached. Default <pack>/.cache for a local pack, else $ASKGRAPH_CACHE_DIR or ~/.cache/askgraph. */
  cacheDir?: string;
  /** Progress bar stream while building the entity index (drawn only on a TTY). */
  progress?: NodeJS.WritableStream;
  /** Default options of every ask. */
  defaults?: AskOptions;
  /** Entity similarity for entity retrieval (pluggable: fuzzy, BM25, dense — see src/ground/scorers.ts). */
  entityScorer?: Scorer;
  /**
   * Open-name parser models (config.json names: open): 'graph' (default) restricts its names to the store's
   * relations and classes (their local names, as words); 'free' lets the model write any relation or class name
   * (grounding reads it as the graph's). Closed models ignore it.
   */
  parserNames?: 'free' | 'graph';
  /**
   * Build what the first questions would otherwise build on first use (the entity index's lookups by IRI and by
   * word, the word vectors, WordNet's indexes): for a long-running gateway (`askgraph serve`), so no question pays
   * for them — 4.9 s, 3.7 s and ~1 s on the first questions over the 5.0M labels of a 28M-triple graph. A one-shot
   * `askgraph ask` leaves them lazy (an exact lookup needs none of them).
   */
  warm?: boolean;
}

/** What a gateway asks with, opened. */
export interface OpenedPack {
  pack: { dir: string; config: PackConfig };
  executor: Executor;
  /** Whether the executor was opened here (the gateway closes it), not handed in. */
  ownExecutor: boolean;
  generator: ScoringGenerator | undefined;
  index: EntityIndex;
  /** Words of the parser's training questions (abstain.ts); undefined = no abstention on unexplained words. */
  knownWords: KnownWords | undefined;
  /** Calibrated confidence and the abstention threshold of the parser (calibration.ts); undefined = raw confidence. */
  calibration: Calibration | undefined;
  /** Where the opening spent its time, phase by phase (the gateway adds its own and keeps it as `startup`). */
  clock: PhaseClock;
  /** Closes what was opened here (after a failure past this point). */
  release(): Promise<void>;
}

/** Opens the pack, its executor, entity index and parser; on a failure closes the executor it opened. */
export async function openPack(opts: GatewayOptions = {}): Promise<OpenedPack> {
  const clock = new PhaseClock();
  const storeIsPack = opts.store !== undefined && !/^https?:\/\//i.test(opts.store) && fs.existsSync(path.join(path.resolve(opts.store), 'pack.json'));
  const pack = await loadPack(opts.pack ?? (storeIsPack ? opts.store : undefined));
  clock.mark('pack');
  const ownExecutor = !opts.executor;
  // The embedded store loads in its worker while this thread loads the entity index and the parser
  // (cold `askgraph ask`: the store load and the model load overlap instead of adding up).
  const executor: Executor = opts.executor ?? (await openExecutor(opts.store ?? pack.dir, { background: true }));
  const release = async () => {
    if (ownExecutor) await executor.close().catch(() => undefined); // closing after a failure: that failure is the error
  };
  const storeReady = (executor as { whenReady?: () => Promise<void> }).whenReady?.() ?? Promise.resolve();
  storeReady.catch(() => undefined); // awaited below; a load error must not be an unhandled rejection meanwhile
  clock.mark('store process start');
  // The generator's modules (onnxruntime, sentencepiece) load after the store's worker has started.
  const { HttpGenerator, loadParser, readModelConfig } = require('../generate') as typeof GenerateModule;
  clock.mark('parser modules');
  try {
    const indexOpts = {
      labelPredicates: pack.config.labelPredicates,
      aliasPredicates: pack.config.aliasPredicates,
      localNameLabels: pack.config.localNameLabels,
      excludeNamespaces: [pack.config.vocabularyNamespace],
      ...(pack.config.names ? { excludeIris: Object.values(pack.config.names) } : {}),
      progress: opts.progress,
    };
    const isUrl = opts.store !== undefined && /^https?:\/\//i.test(opts.store);
    const packStore = opts.store === undefined || storeIsPack;
    let index = opts.index;
    let indexKey: string = executor.id;
    if (!index) {
      const userCache = process.env.ASKGRAPH_CACHE_DIR ?? path.join(process.env.HOME ?? '.', '.cache', 'askgraph');
      const cacheDir = opts.cacheDir ?? (packStore ? path.join(pack.dir, '.cache') : userCache);
      // A changed data file must rebuild the index: fingerprint the pack's data files, or the store file / folder.
      const fingerprint = isUrl ? '' : filesFingerprint(opts.store !== undefined && !packStore ? storeFiles(opts.store) : (pack.config.data ?? []).map((f) => path.resolve(pack.dir, f)));
      indexKey = indexCacheFile(cacheDir, executor.id, indexOpts, fingerprint);
      const cached = fs.existsSync(indexKey);
      if (!cached) await storeReady; // building the index queries the store: wait for its load (and its error)
      index = await loadOrBuildStoreIndex(executor, indexKey, indexOpts);
      clock.mark('entity index', cached ? 'from its cache' : 'built from the store');
    }
    index.setNonTopicWords(pack.config.nonTopicWords ?? []);
    let generator = opts.generator;
    if (!generator && opts.generatorUrl !== undefined) {
      if (opts.model !== undefined) throw new AskgraphError('BAD_REQUEST', 'give either a parser model or a generator URL, not both');
      const ns = pack.config.vocabularyNamespace;
      const relations = ((index.meta.relations as RelationInfo[] | undefined) ?? []).filter((r) => r.iri.startsWith(ns)).map((r) => r.iri.slice(ns.length)).sort();
      generator = new HttpGenerator({ url: opts.generatorUrl, ...(opts.generatorModel ? { model: opts.generatorModel } : {}), relations });
    }
    if (!generator) {
      const modelDir = opts.model ?? (pack.config.model ? path.resolve(pack.dir, pack.config.model) : undefined);
      // A pack without a parser model is still askable: the fallback readers answer (trace: "no parser model").
      // The parser prefers copied spans that spell a label of the store actually queried; the entity index
      // already holds them, so the pack's triple files are not read a second time.
      if (modelDir) {
        const labels = sharedLabels(indexKey, index.allLabels());
        let names: { relations: string[]; classes: string[] } | undefined;
        // an open-name parser writes the graph's own names by default (zero-shot on the graphs the base was not
        // trained on: WC2014 15.0% → 36.5%, PathQuestion 11.0% → 12.5% Hits@1); 'free' names go to grounding as written
        // (a closed model ignores names: no wait for the store, no classes query for it)
        if (readModelConfig(modelDir).names === 'open' && (opts.parserNames ?? 'graph') === 'graph') {
          await storeReady; // the classes are asked of the store
          // the names a form can hold bare: the pack's names, or local names under its vocabulary namespace (the
          // parser writes them back as spelt, so each must resolve to its own IRI)
          const own = pack.config.names ?? {};
          const ns = pack.config.vocabularyNamespace;
          const bare = (r: RelationInfo): boolean => own[r.name] === r.iri || (!Object.prototype.hasOwnProperty.call(own, r.name) && ns + encodeURIComponent(r.name) === r.iri);
          const relations = ((index.meta.relations as RelationInfo[] | undefined) ?? []).filter(bare).map((r) => r.name);
          const classes = (await new RelationRetriever(executor).classes()).filter(bare).map((c) => c.name);
          names = { relations: [...new Set(relations)].sort(), classes: [...new Set(classes)].sort() };
        }
        generator = await loadParser(modelDir, { labels, ...(names ? { names } : {}) });
      }
      clock.mark('parser (tokenizer, ONNX sessions)');
    }
    await storeReady;
    const info = (executor as { info?: { loadMs: number; from: string; cpuMs?: number } }).info;
    clock.mark('waiting for the store', info ? `its process loaded it from ${info.from} in ${info.loadMs} ms${info.cpuMs !== undefined ? `, ${Math.round(info.cpuMs)} ms CPU` : ''}` : undefined);
    const modelDir = opts.generator ? undefined : opts.model ?? (pack.config.model ? path.resolve(pack.dir, pack.config.model) : undefined);
    return { pack, executor, ownExecutor, generator, index, knownWords: loadKnownWords(modelDir), calibration: loadCalibration(modelDir), clock, release };
  } catch (e) {
    await release();
    throw e;
  }
}

/**
 * loadParser caches parsers per labels object: the same store's label list is handed over as the same
 * array, so gateways over one store share one parser instead of opening new ONNX sessions each time.
 */
const labelLists = new Map<string, readonly string[]>();
function sharedLabels(key: string, labels: readonly string[]): readonly string[] {
  const prev = labelLists.get(key);
  if (prev?.length === labels.length) return prev;
  const oldest = labelLists.keys().next().value;
  if (labelLists.size >= 8 && oldest !== undefined) labelLists.delete(oldest);
  labelLists.set(key, labels);
  return labels;
}

/** The data files of a store given as a file or a folder (for the index fingerprint). */
function storeFiles(store: string): string[] {
  const abs = path.resolve(store);
  let isDir: boolean;
  try {
    isDir = fs.statSync(abs).isDirectory();
  } catch (e) {
    // no such file: the store opened from something else (openExecutor said what); fingerprint the name
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [abs];
    throw e;
  }
  if (!isDir) return [abs];
  return fs
    .readdirSync(abs)
    .filter((f) => !f.startsWith('.'))
    .sort()
    .map((f) => path.join(abs, f));
}
