/**
 * `askgraph init`: a complete knowledge pack from a graph alone — the store (or an endpoint reference),
 * schema.json (discovery), lexicon.json (editable), synthetic (question, form) data split into train and
 * a held-out valid set, the parser trained on it, the relation vocabulary of the fallback readers mined
 * from it, and REPORT.md (data per operator, training curve, self-evaluation, time per phase, size).
 *
 * Re-running on the same sources is cheap: the store and the schema are kept when the sources did not
 * change (fingerprint in .init-state.json); an edited lexicon re-synthesises and re-trains.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  ALIAS_PREDICATES,
  AskgraphError,
  iriLocalName,
  LOCAL_NAME_SOURCE,
  packageRoot,
  type Answer,
  type Candidate,
  type Executor,
  type PackConfig,
} from '../core';
import { buildStore, openExecutor, PACK_FILE, packManifest, saveSnapshot, EndpointExecutor } from '../execute';
import { chainFromForm, mineRelationVocabulary, questionTerms, VOCABULARY_FILE, type VocabExample } from '../fallback';
import { parseForm } from '../form';
import { filesFingerprint } from '../ground';
import { readModelConfig } from '../generate';
import { createGateway, type Gateway, type ScoringGenerator } from '../pipeline';
import { runExamples, summarize, type Example, type EvalSummary } from '../eval';
import { checkInterpolate, train, type ModelSize, type TrainEvent, type TrainResult } from '../train';
import {
  buildLexicon,
  describeLabelSources,
  discoverSchema,
  entityEdges,
  mergeLexicon,
  namesOf,
  readLexicon,
  synthesize,
  writeLexicon,
  type Lexicon,
  type Schema,
  type SynthExample,
  type SynthOperator,
  type SynthStats,
} from '../synth';
import { LEXICON_FILE, Rng, defined, itemAt } from '../core';

export const INIT_STATE_FILE = '.init-state.json';
export const SCHEMA_FILE = 'schema.json';
export const REPORT_FILE = 'REPORT.md';

export type InitPhase = 'store' | 'discover' | 'index' | 'lexicon' | 'synth' | 'vocabulary' | 'train' | 'self-eval' | 'report';

export interface InitReporter {
  /** A phase starts; `total` steps when known (progress() then counts them). */
  start?(phase: InitPhase, total?: number): void;
  progress?(phase: InitPhase, done: number, total?: number): void;
  end?(phase: InitPhase, ms: number, note?: string): void;
  /** Trainer events (start/step/epoch/phase/done) for the training bar. */
  train?(e: TrainEvent): void;
  /** One line of information (label sources, skipped phases). */
  info?(line: string): void;
}

export interface InitOptions {
  /** RDF / triple files, or one http(s) SPARQL endpoint URL. */
  sources: string[];
  out: string;
  /**
   * Time budget of the whole init, training included (default 10: fine-tuning the base model). 0 is zero-shot: the base model
   * (`baseModel`) is copied into the pack as it is, untrained on this graph (a pack in about a minute).
   */
  minutes?: number;
  /** A user-edited lexicon merged over the generated one. */
  lexicon?: string;
  /** Synthetic examples (default 16,000; fewer for budgets under 30 minutes: defaultCount). */
  count?: number;
  seed?: number;
  /** Model size when training from scratch (default base); a base model keeps its own size. */
  size?: ModelSize;
  /**
   * The pre-trained open-name parser (askgraph-base) the pack's parser is fine-tuned from (the trainer's
   * `--init-from`: its weights, tokenizer and size). Default: the package's assets/askgraph-base when it has
   * one (defaultBaseModel), else none; false: train from scratch.
   */
  baseModel?: string | false;
  /** Training epochs (default: as many as fit in the time budget). */
  epochs?: number;
  /**
   * With a base model: the parser's weights lie this share of the way from the base model's to the fine-tuned ones
   * (weight-space ensembling, WiSE-FT; the trainer's --interpolate), in (0, 1]. Default 1: the fine-tuned weights.
   */
  interpolate?: number;
  /** false: no parser (the fallback readers answer). */
  train?: boolean;
  /** Share of sampled forms held out for validation (default 0.08). */
  validShare?: number;
  /** Held-out questions in the self-evaluation (default 300). */
  selfEval?: number;
  name?: string;
  /** Base IRI for minting entities of triple files (default http://askgraph.dev/<name>/). */
  baseIri?: string;
  python?: string;
  threads?: number;
  env?: NodeJS.ProcessEnv;
  reporter?: InitReporter;
}

export interface OperatorEval {
  n: number;
  em: number | null;
  hits1: number;
  f1: number;
}

export interface InitResult {
  out: string;
  pack: PackConfig;
  schema: Schema;
  phases: Partial<Record<InitPhase, number>>;
  /** Peak RSS of this process (MiB) at the end of each phase: no phase may hold the whole graph (the trainer's own process is not counted). */
  phaseRssMiB: Partial<Record<InitPhase, number>>;
  skipped: InitPhase[];
  data: { train: number; valid: number; perOperator: Record<string, { train: number; valid: number }>; stats?: SynthStats };
  training?: { seconds: number; epochs: unknown; curve: { epoch: number; loss: number; validEm: number | null }[]; report: Record<string, unknown> };
  selfEval?: { overall: OperatorEval; perOperator: Record<string, OperatorEval>; oracle: OperatorEval; stoppedAtBudget?: boolean };
  /** The time budget (minutes; 0 = zero-shot) and what the run did with it. */
  budget: { minutes: number; trainMinutes?: number };
  /** The base model the parser came from (fine-tuned, or copied as it is when zero-shot); absent: trained from scratch. */
  base?: BaseModel & { zeroShot: boolean };
  /** Things the user must know (a poor parser, a phase over the budget), each with what to do; also in REPORT.md. */
  warnings: string[];
  packBytes: number;
  totalMs: number;
}

/**
 * Synthetic examples when --count is not given: 16,000 for a budget of 30 minutes or more, proportionally
 * fewer for a shorter one (at least 1,000), so that synthesis leaves the budget to training. A function of
 * the budget alone, never of the machine's speed: the same flags give the same data.
 */
export function defaultCount(minutes: number): number {
  return Math.max(1_000, Math.min(16_000, Math.round((16_000 * minutes) / 30 / 100) * 100));
}

/**
 * When synthesis stops (ms since the epoch): its share of --minutes ends where the phases after it still fit —
 * training keeps at least TRAIN_SHARE of the budget (when it is planned by time), the self-evaluation and
 * the report their reserve. At least SYNTH_FLOOR of the budget from synthesis's start, so a run whose
 * earlier phases spent the budget still makes a few pairs (and says it went over).
 */
export function synthesisDeadline(t0: number, start: number, budgetMs: number, trainsByTime: boolean, reserveMs: number): number {
  const end = t0 + budgetMs - reserveMs - (trainsByTime ? TRAIN_SHARE * budgetMs : 0);
  return Math.max(end, start + SYNTH_FLOOR * budgetMs);
}
const TRAIN_SHARE = 0.3;
const SYNTH_FLOOR = 0.1;

/** The base model's folder inside the package (askgraph-base, when the package ships one). */
export const BASE_MODEL_DIR = path.join('assets', 'askgraph-base');

/** What a zero-shot init (--minutes 0) plans its phases with: a pack in about a minute. */
export const ZERO_SHOT_MINUTES = 1;

/** The base model init uses when none is named: <package>/assets/askgraph-base when it holds a model, else undefined. */
export function defaultBaseModel(root: string = packageRoot()): string | undefined {
  const dir = path.join(root, BASE_MODEL_DIR);
  return fs.existsSync(path.join(dir, 'config.json')) ? dir : undefined;
}

/** A base model folder as init uses it. */
export interface BaseModel {
  dir: string;
  /** config.json `version` (the trainer's name of the model). */
  version?: string;
  /** Model size from config.json's dimensions ("d_model 192, 3+2 layers"): the trainer keeps it when fine-tuning. */
  size: string;
  /** Content key (config.json and the ONNX files' sizes): a changed base re-trains the pack's parser. */
  key: string;
}

/** The files a model folder must hold (src/generate's model-folder contract). */
const MODEL_FILES = ['config.json', 'encoder.onnx', 'decoder.onnx'];

/**
 * Checks a base model folder: the model files (NOT_FOUND naming the missing one) and open names (config.json
 * `names: open`: relations and classes written as words — a model whose names are one graph's symbols cannot
 * serve another graph, BAD_REQUEST).
 */
export function readBaseModel(dir: string): BaseModel {
  const abs = path.resolve(dir);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) throw new AskgraphError('NOT_FOUND', `no base model folder at ${abs}`);
  for (const f of MODEL_FILES) {
    if (!fs.existsSync(path.join(abs, f))) throw new AskgraphError('NOT_FOUND', `base model ${abs}: ${f} is missing (not a model folder written by askgraph train)`);
  }
  const configText = fs.readFileSync(path.join(abs, 'config.json'), 'utf8');
  const config = readModelConfig(abs); // the model-folder contract's own reader (MODEL_ERROR when malformed)
  if (!fs.existsSync(path.join(abs, config.tokenizer))) throw new AskgraphError('NOT_FOUND', `base model ${abs}: ${config.tokenizer} is missing`);
  if (config.names !== 'open') {
    throw new AskgraphError(
      'BAD_REQUEST',
      `base model ${abs} is not an open-name model (its config.json has no "names": "open"): its relations are one graph's symbols, so it cannot be fine-tuned for another graph. ` +
        'Give an askgraph-base folder, or --no-base-model to train from scratch.',
    );
  }
  const size = `d_model ${String(config.dModel)}, ${String(config.encoderLayers)}+${String(config.decoderLayers)} layers`;
  const key = sha(configText + MODEL_FILES.map((f) => fs.statSync(path.join(abs, f)).size).join(','));
  return { dir: abs, version: config.version, size, key };
}

/** A base model's files that only fine-tuning reads (the replay questions of other graphs): not part of a pack's parser. */
const BASE_TRAINING_FILES: readonly string[] = ['replay.jsonl'];

/**
 * Copies a model folder's files (not its dot files, nor BASE_TRAINING_FILES) into a fresh `to` (zero-shot: the base
 * model is the pack's parser).
 */
function copyModelFolder(from: string, to: string): void {
  fs.rmSync(to, { recursive: true, force: true });
  fs.mkdirSync(to, { recursive: true });
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    if (e.isFile() && !e.name.startsWith('.') && !BASE_TRAINING_FILES.includes(e.name)) fs.copyFileSync(path.join(from, e.name), path.join(to, e.name));
  }
}

/**
 * words.json after fine-tuning a base model: the words of the base's training questions and of the graph's
 * synthetic ones (counts added). The trainer writes only the latter; the parser still knows the former.
 */
function mergeModelWords(baseDir: string, modelDir: string): void {
  const read = (dir: string): Record<string, number> | undefined => {
    const w = (readJson(path.join(dir, 'words.json')) as { words?: unknown } | undefined)?.words;
    return w && typeof w === 'object' && !Array.isArray(w) ? (w as Record<string, number>) : undefined;
  };
  const base = read(baseDir);
  const own = read(modelDir);
  if (!base || !own) return;
  const file = path.join(modelDir, 'words.json');
  const data = readJson(file) as Record<string, unknown>;
  const words: Record<string, number> = { ...base };
  for (const [w, n] of Object.entries(own)) words[w] = (words[w] ?? 0) + n;
  writeJson(file, { ...data, words });
}

/** Below this Hits@1 on the held-out synthetic questions the parser is called poor (init warns). */
export const POOR_SELF_EVAL = 0.5;

interface InitState {
  sources: string[];
  fingerprint: string;
  schemaHash?: string;
  lexiconHash?: string;
  synthKey?: string;
  modelKey?: string;
}

const isUrl = (s: string) => /^https?:\/\//i.test(s);

function sha(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** A JSON file this command wrote on an earlier run (unknown: each reader says what it wrote there), or undefined when absent or unreadable. */
function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n');
  fs.renameSync(tmp, file);
}

/** The pack with its manifest (size and sha256 of its data and model files, see verifyPack) as they are now. */
function withManifest(out: string, pack: PackConfig): PackConfig {
  const rest: PackConfig = { ...pack };
  delete rest.files;
  const files = packManifest(out, rest);
  return Object.keys(files).length ? { ...rest, files } : rest;
}

function writeJsonl(file: string, rows: unknown[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : ''));
}

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) n += dirBytes(p);
    else if (e.isFile()) n += fs.statSync(p).size;
  }
  return n;
}

/** Held-out split by form (paraphrases of one form never straddle train and valid), deterministic. */
export function splitBySample<T extends { form: string }>(examples: T[], validShare: number): { train: T[]; valid: T[] } {
  const train: T[] = [];
  const valid: T[] = [];
  for (const ex of examples) {
    const h = parseInt(sha('split:' + ex.form).slice(0, 8), 16) / 0xffffffff;
    (h < validShare ? valid : train).push(ex);
  }
  return { train, valid };
}

/**
 * The fallback readers' relation vocabulary from synthetic pairs: chains of JOIN forms, with each bare
 * name mapped to the name the readers give that relation (its label through the pack's label predicates,
 * else its IRI local name — see src/fallback/readers/common.ts relationName).
 */
export async function vocabularyFromSynthetic(examples: { question: string; form: string }[], names: Record<string, string>, executor: Executor) {
  const iris = [...new Set(Object.values(names))];
  const labels = await executor.labels(iris, { timeoutMs: 60_000 });
  const readerName = new Map<string, string>();
  for (const [name, iri] of Object.entries(names)) readerName.set(name, labels.get(iri) ?? iriLocalName(iri));
  const out: VocabExample[] = [];
  for (const ex of examples) {
    let c: ReturnType<typeof chainFromForm> = null;
    try {
      c = chainFromForm(parseForm(ex.form));
    } catch {
      continue;
    }
    if (!c || c.hops.length === 0) continue;
    out.push({ terms: questionTerms(ex.question, [c.topic]), hops: c.hops.map((h) => ({ name: readerName.get(h.name) ?? h.name, dir: h.dir })) });
  }
  return { vocabulary: mineRelationVocabulary(out), chains: out.length };
}

/** A generator that returns the gold form of each held-out question: the pipeline with a perfect parser. */
function goldGenerator(gold: Map<string, string>): ScoringGenerator {
  return {
    id: 'gold-forms',
    generate(question: string) {
      const text = gold.get(question);
      const candidates: Candidate[] = [];
      if (text) {
        try {
          candidates.push({ form: parseForm(text), text, logProb: 0, rank: 0 });
        } catch {
          /* an unparsable gold form: no candidate */
        }
      }
      return Promise.resolve({ candidates, dropped: 0, timeMs: 0 });
    },
  };
}

function opEval(s: { count: number; em: number | null; hits1: number | null; f1: number | null }): OperatorEval {
  return { n: s.count, em: s.em, hits1: s.hits1 ?? 0, f1: s.f1 ?? 0 };
}

/** Keys of an answer for comparing two runs: IRIs and literal values. */
function answerValues(a: Answer): string[] {
  return a.answers.map((x) => x.value);
}

/** init's default budget in minutes: fine-tuning askgraph-base on the graph's synthetic questions (issue 20). */
export const DEFAULT_MINUTES = 10;

/** Builds (or refreshes) a knowledge pack from a graph. */
export async function initPack(opts: InitOptions): Promise<InitResult> {
  const t0 = Date.now();
  const rep = opts.reporter ?? {};
  const out = path.resolve(opts.out);
  const minutes = opts.minutes ?? DEFAULT_MINUTES;
  if (!(minutes >= 0)) throw new AskgraphError('BAD_REQUEST', `--minutes must be ≥ 0, got ${minutes}`);
  // the base model: named, or the package's when it ships one; none without a parser or with --no-base-model
  const baseDir = opts.train === false || opts.baseModel === false ? undefined : opts.baseModel ?? defaultBaseModel();
  const base = baseDir === undefined ? undefined : readBaseModel(baseDir);
  const zeroShot = minutes === 0;
  if (zeroShot && !base) {
    throw new AskgraphError(
      'BAD_REQUEST',
      opts.train === false
        ? '--minutes 0 (zero-shot) copies a base parser into the pack; with --no-train there is none: give a budget (--minutes) instead'
        : `--minutes 0 (zero-shot) needs a base model (--base-model DIR${opts.baseModel === false ? ', not --no-base-model' : `; this package has none at ${BASE_MODEL_DIR}`})`,
    );
  }
  if (opts.interpolate !== undefined) checkInterpolate(opts.interpolate);
  // the share of the fine-tuned weights the trainer is asked for; none at 1 (its default: the fine-tuned weights)
  const interpolate = opts.interpolate !== undefined && opts.interpolate < 1 ? opts.interpolate : undefined;
  if (interpolate !== undefined && (!base || zeroShot)) {
    throw new AskgraphError('BAD_REQUEST', `--interpolate ${interpolate} mixes a base model's weights with fine-tuned ones: it needs a base model and a training budget (${zeroShot ? 'not --minutes 0' : 'not --no-base-model or --no-train'})`);
  }
  if (base) {
    const how = zeroShot ? 'zero-shot (--minutes 0): the base model is the parser as it is, not trained on this graph' : 'fine-tuned from the base model on this graph\'s synthetic questions';
    const sizeNote = `its size (${base.size}) wins${opts.size !== undefined ? `: --size ${opts.size} is ignored` : ''}`;
    rep.info?.(`parser: ${how} — ${base.dir}${base.version ? ` (${base.version})` : ''}, ${sizeNote}${opts.baseModel === undefined ? '; --no-base-model trains from scratch' : ''}`);
  }
  if (opts.sources.length === 0) throw new AskgraphError('BAD_REQUEST', 'init needs RDF files or a SPARQL endpoint URL');
  const [first, ...more] = opts.sources;
  const endpoint = first !== undefined && more.length === 0 && isUrl(first) ? first : undefined;
  if (!endpoint && opts.sources.some(isUrl)) throw new AskgraphError('BAD_REQUEST', 'give either one SPARQL endpoint URL or RDF files, not both');
  const files = endpoint ? [] : opts.sources.map((f) => path.resolve(f));
  for (const f of files) if (!fs.existsSync(f)) throw new AskgraphError('NOT_FOUND', `no such file: ${f}`);
  if (opts.lexicon && !fs.existsSync(opts.lexicon)) throw new AskgraphError('NOT_FOUND', `no such lexicon file: ${opts.lexicon}`);
  fs.mkdirSync(out, { recursive: true });
  const name = opts.name ?? path.basename(out);
  const baseIri = opts.baseIri ?? `http://askgraph.dev/${encodeURIComponent(name)}/`;
  const seed = opts.seed ?? 1;
  // a zero-shot run plans its phases (synthesis for the readers' vocabulary and the self-evaluation) as a short budget
  const planMinutes = zeroShot ? ZERO_SHOT_MINUTES : minutes;
  const count = opts.count ?? defaultCount(planMinutes);
  const validShare = opts.validShare ?? 0.08;
  const phases: Partial<Record<InitPhase, number>> = {};
  const phaseRssMiB: Partial<Record<InitPhase, number>> = {};
  const skipped: InitPhase[] = [];
  // The whole run ends by the deadline: training gets what is left after the phases before it, less what
  // the self-evaluation and the report need; the trainer's own budget covers its tokenizer, evaluation and
  // export (train/askgraph_train.py --minutes), and the self-evaluation stops at its share.
  const budgetMs = planMinutes * 60_000;
  const deadline = t0 + budgetMs;
  const REPORT_MS = 2_000;
  const selfEvalMs = Math.min(180_000, Math.max(10_000, 0.15 * budgetMs));
  const timed = async <T>(phase: InitPhase, total: number | undefined, run: () => T | Promise<T>, note?: (r: T) => string): Promise<T> => {
    const ts = Date.now();
    rep.start?.(phase, total);
    const r = await run();
    const ms = Date.now() - ts;
    phases[phase] = ms;
    phaseRssMiB[phase] = Math.round(process.resourceUsage().maxRSS / 1024);
    rep.end?.(phase, ms, note?.(r));
    return r;
  };

  const stateFile = path.join(out, INIT_STATE_FILE);
  const prev = readJson(stateFile) as InitState | undefined;
  const fingerprint = endpoint ? 'endpoint:' + endpoint : filesFingerprint(files) + '|' + files.join('|');
  const dataFile = path.join('store', 'data.nq');
  const sameSources = prev?.fingerprint === fingerprint && fs.existsSync(path.join(out, SCHEMA_FILE)) && (endpoint !== undefined || fs.existsSync(path.join(out, dataFile)));
  const state: InitState = { sources: endpoint ? [endpoint] : files, fingerprint };

  // 1. the store
  if (sameSources) {
    skipped.push('store');
    rep.info?.('store: sources unchanged, kept');
  } else if (!endpoint) {
    await timed('store', files.length, () => {
      const { store, info } = buildStore({ files, baseIri });
      saveSnapshot(store, path.join(out, dataFile));
      fs.rmSync(path.join(out, '.cache'), { recursive: true, force: true });
      return info;
    }, (info) => `${info.size.toLocaleString('en-US')} triples`);
  }

  // 2. discovery (a plain executor: discovery reads every label predicate itself)
  let schema: Schema;
  if (sameSources) {
    schema = defined(readJson(path.join(out, SCHEMA_FILE)) as Schema | undefined, 'schema.json of unchanged sources');
    skipped.push('discover');
    rep.info?.('discovery: sources unchanged, schema.json kept');
  } else {
    const plain: Executor = endpoint ? new EndpointExecutor(endpoint) : await openExecutor(path.join(out, dataFile), { baseIri });
    try {
      schema = await timed('discover', undefined, () => discoverSchema(plain, { onProgress: (d, t) => rep.progress?.('discover', d, t) }), (s) => `${s.classes.length} classes, ${s.properties.length} properties`);
    } finally {
      await plain.close();
    }
    writeJson(path.join(out, SCHEMA_FILE), schema);
  }
  state.schemaHash = sha(JSON.stringify({ ...schema, createdAt: '' }));
  rep.info?.(`labels: ${describeLabelSources(schema.labelSources)}`);

  // 3. pack.json (model added after training)
  const previousPack = readJson(path.join(out, PACK_FILE)) as PackConfig | undefined;
  const names = namesOf(schema);
  const pack: PackConfig = {
    name,
    ...(endpoint ? { endpoint } : { data: [dataFile] }),
    baseIri,
    // Every class and property resolves through `names`; the namespace is only the fallback of unknown names,
    // and it must not hold entities (the entity index leaves it out).
    vocabularyNamespace: baseIri + 'relation/',
    labelPredicates: schema.labelPredicates,
    ...(schema.labelSources.some((s) => ALIAS_PREDICATES.includes(s.source)) ? { aliasPredicates: schema.labelSources.filter((s) => ALIAS_PREDICATES.includes(s.source)).map((s) => s.source) } : {}),
    ...(schema.labelSources.some((s) => s.source === LOCAL_NAME_SOURCE) ? { localNameLabels: true } : {}),
    names,
    // the topic stays out only of the node a path reaches by going back along its own relation (src/compile README)
    excludeTopic: previousPack?.excludeTopic ?? 'retraced',
    ...(previousPack?.model && fs.existsSync(path.join(out, previousPack.model, 'config.json')) ? { model: previousPack.model } : {}),
  };
  writeJson(path.join(out, PACK_FILE), withManifest(out, pack));
  const compileOptions = {
    vocabularyNamespace: pack.vocabularyNamespace,
    labelPredicates: pack.labelPredicates,
    names,
    excludeTopic: pack.excludeTopic,
  };

  // 4. the pack's executor and entity index (cached in <pack>/.cache for ask / eval)
  const executor = await openExecutor(out);
  let oracle: Gateway | undefined;
  let parser: Gateway | undefined;
  try {
    const oracleGateway = await timed('index', undefined, () => createGateway({ store: out, executor, generator: goldGenerator(new Map()) }), (g) => `${g.index.size.toLocaleString('en-US')} labels`);
    oracle = oracleGateway;
    // (the gold-form generator takes the parser's place here, so no model is loaded)

    // 5. lexicon
    const lexicon = await timed('lexicon', undefined, () => {
      let lex: Lexicon = buildLexicon(schema);
      if (opts.lexicon) lex = mergeLexicon(lex, readLexicon(opts.lexicon));
      writeLexicon(path.join(out, LEXICON_FILE), lex);
      return lex;
    });
    state.lexiconHash = sha(JSON.stringify(lexicon));

    // 6. synthetic data
    const dataDir = path.join(out, 'data');
    const synthKey = sha(JSON.stringify([state.schemaHash, state.lexiconHash, count, seed, validShare]));
    state.synthKey = synthKey;
    let trainSet: SynthExample[];
    let validSet: SynthExample[];
    let stats: SynthStats | undefined;
    // data cut short by an earlier run's budget is made again (this run may have the time to finish it)
    const cutShort = (readJson(path.join(dataDir, 'stats.json')) as SynthStats | undefined)?.stoppedAtBudget === true;
    if (prev?.synthKey === synthKey && !cutShort && fs.existsSync(path.join(dataDir, 'train.jsonl')) && fs.existsSync(path.join(dataDir, 'valid.jsonl'))) {
      const read = (f: string) => fs.readFileSync(path.join(dataDir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as SynthExample);
      trainSet = read('train.jsonl');
      validSet = read('valid.jsonl');
      stats = readJson(path.join(dataDir, 'stats.json')) as SynthStats | undefined;
      skipped.push('synth');
      rep.info?.('synthetic data: schema, lexicon, count and seed unchanged, kept');
    } else {
      const synthEnd = synthesisDeadline(t0, Date.now(), budgetMs, opts.train !== false && !zeroShot && opts.epochs === undefined, selfEvalMs + REPORT_MS);
      const res = await timed(
        'synth',
        count,
        () =>
          synthesize(executor, schema, lexicon, {
            count,
            seed,
            compile: compileOptions,
            stopWhen: () => Date.now() > synthEnd,
            onProgress: (d, t) => rep.progress?.('synth', d, t),
          }),
        (r) => `${r.examples.length} examples${r.stats.stoppedAtBudget ? ` of ${count} (its share of the budget ended)` : ''}`,
      );
      if (res.examples.length === 0) throw new AskgraphError('DATA_FORMAT', 'no synthetic example could be made from this graph (no property with entity objects?)');
      stats = res.stats;
      ({ train: trainSet, valid: validSet } = splitBySample(res.examples, validShare));
      writeJsonl(path.join(dataDir, 'train.jsonl'), trainSet);
      writeJsonl(path.join(dataDir, 'valid.jsonl'), validSet);
      writeJson(path.join(dataDir, 'stats.json'), stats);
    }
    const perOperator: Record<string, { train: number; valid: number }> = {};
    for (const [set, key] of [[trainSet, 'train'], [validSet, 'valid']] as const) {
      for (const ex of set) (perOperator[ex.operator] ??= { train: 0, valid: 0 })[key]++;
    }

    // 7. relation vocabulary of the fallback readers
    await timed('vocabulary', undefined, async () => {
      const { vocabulary, chains } = await vocabularyFromSynthetic(trainSet, names, executor);
      writeJson(path.join(out, VOCABULARY_FILE), vocabulary);
      return chains;
    }, (n) => `${n} chains`);

    // 8. training
    let training: InitResult['training'];
    let trainMinutes: number | undefined;
    const modelDir = path.join(out, 'model');
    const modelKey = sha(JSON.stringify([synthKey, base ? `base:${base.key}` : opts.size ?? 'base', opts.epochs ?? null, minutes, seed, ...(interpolate ? [interpolate] : [])]));
    state.modelKey = modelKey;
    if (opts.train === false) {
      skipped.push('train');
      delete pack.model;
    } else if (zeroShot && base) {
      // zero-shot: the base model's folder is the pack's parser (its words.json, report.json and all)
      await timed('train', undefined, () => copyModelFolder(base.dir, modelDir), () => 'zero-shot: the base model copied, not trained');
      pack.model = 'model';
      fs.rmSync(path.join(out, 'data', 'training.json'), { force: true });
    } else if (prev?.modelKey === modelKey && fs.existsSync(path.join(modelDir, 'config.json'))) {
      skipped.push('train');
      pack.model = 'model';
      rep.info?.('parser: data and settings unchanged, model kept');
    } else {
      const trainFiles = await writeTrainerInputs(dataDir, schema, executor, oracleGateway);
      // at least 6 s: the trainer reads its data and trains its tokenizer even on a spent budget (REPORT.md shows the overrun)
      let trainBudget: { epochs: number; minutes?: number };
      if (opts.epochs === undefined) {
        trainMinutes = Math.max(0.1, (deadline - Date.now() - selfEvalMs - REPORT_MS) / 60_000);
        trainBudget = { epochs: 100, minutes: trainMinutes };
      } else trainBudget = { epochs: opts.epochs };
      const res: TrainResult = await timed('train', undefined, () =>
        train({
          data: path.join(dataDir, 'train.jsonl'),
          valid: path.join(dataDir, 'valid.jsonl'),
          out: modelDir,
          ...trainBudget,
          seed,
          // a base model brings its size (and tokenizer, and open names) with its weights: no --size then
          ...(base ? { initFrom: base.dir } : { size: opts.size ?? 'base' }),
          ...(interpolate ? { interpolate } : {}),
          // the base's replay questions (other graphs', real) are mixed into each epoch: fine-tuning on synthetic
          // questions alone wears away how the base reads people's questions
          ...(base && fs.existsSync(path.join(base.dir, 'replay.jsonl')) ? { extraArgs: ['--replay', path.join(base.dir, 'replay.jsonl')] } : {}),
          labels: [trainFiles.labels],
          kb: [trainFiles.kb],
          probe: Math.min(100, validSet.length),
          beam: 0,
          finalEval: Math.max(1, Math.min(200, validSet.length)),
          ...(opts.threads ? { threads: opts.threads } : {}),
          ...(opts.python ? { python: opts.python } : {}),
          env: opts.env,
          onEvent: (e) => rep.train?.(e),
        }),
      );
      pack.model = 'model';
      if (base) mergeModelWords(base.dir, modelDir);
      const curve = res.events
        .filter((e) => e.event === 'epoch')
        .map((e) => ({ epoch: Number(e.epoch), loss: Number(e.loss), validEm: typeof e.validEm === 'number' ? e.validEm : null }));
      training = { seconds: res.seconds, epochs: res.report.epochs, curve, report: res.report };
      writeJson(path.join(out, 'data', 'training.json'), { seconds: res.seconds, curve, epochs: res.report.epochs });
    }
    if (!training && pack.model) {
      const t = readJson(path.join(out, 'data', 'training.json')) as { seconds: number; curve: { epoch: number; loss: number; validEm: number | null }[]; epochs: unknown } | undefined;
      if (t) training = { ...t, report: (readJson(path.join(modelDir, 'report.json')) as Record<string, unknown> | undefined) ?? {} };
    }
    writeJson(path.join(out, PACK_FILE), withManifest(out, pack));

    // 9. self-evaluation on the held-out synthetic questions: the pipeline with the trained parser against
    //    the same pipeline given the gold form (so grounding and labels are compared like for like).
    let selfEval: InitResult['selfEval'];
    if (pack.model && validSet.length) {
      selfEval = await timed('self-eval', Math.min(opts.selfEval ?? 300, validSet.length), async () => {
        const n = Math.min(opts.selfEval ?? 300, validSet.length);
        const step = validSet.length / n;
        // an even spread of the held-out set, in a seeded order: questions cut off by the budget are a random share
        const picked = new Rng(seed).shuffle(Array.from({ length: n }, (_, i) => itemAt(validSet, Math.floor(i * step), 'held-out examples')));
        const gold = new Map(picked.map((e) => [e.question, e.form]));
        const goldGateway = await createGateway({ store: out, executor, index: oracleGateway.index, generator: goldGenerator(gold) });
        const parserGateway = await createGateway({ store: out, executor, index: oracleGateway.index });
        parser = parserGateway;
        const results: Awaited<ReturnType<typeof runExamples>>['results'] = [];
        let wallMs = 0;
        let asked = 0;
        let oracleOk = 0;
        let stoppedAtBudget = false;
        for (const e of picked) {
          // the budget's end: stop (at least 20 questions, so the numbers mean something)
          if (Date.now() > deadline - REPORT_MS && asked >= 20) {
            stoppedAtBudget = true;
            break;
          }
          asked++;
          const a = await goldGateway.ask(e.question, { fallback: 'off' });
          if (a.answers.length > 0) {
            oracleOk++;
            const ex: Example = { id: e.id, question: e.question, form: e.form, answers: answerValues(a), meta: { dataset: 'synthetic-valid', qtype: e.operator } };
            const r = await runExamples([ex], (x) => parserGateway.ask(x.question), { mode: 'pipeline' });
            results.push(...r.results);
            wallMs += r.wallMs;
          }
          rep.progress?.('self-eval', asked, picked.length);
        }
        const summary: EvalSummary = summarize(results, wallMs, 'pipeline', 'synthetic-valid');
        const perOperator: Record<string, OperatorEval> = {};
        for (const [op, g] of Object.entries(summary.byType)) perOperator[op] = opEval(g);
        return {
          overall: opEval(summary),
          perOperator,
          oracle: { n: asked, em: null, hits1: oracleOk / Math.max(1, asked), f1: NaN },
          ...(stoppedAtBudget ? { stoppedAtBudget } : {}),
        };
      });
    }

    fs.writeFileSync(stateFile, JSON.stringify(state, null, 2) + '\n');
    const result: InitResult = {
      out,
      pack,
      schema,
      phases,
      phaseRssMiB,
      skipped,
      data: { train: trainSet.length, valid: validSet.length, perOperator, ...(stats ? { stats } : {}) },
      ...(training ? { training } : {}),
      ...(selfEval ? { selfEval } : {}),
      budget: { minutes, ...(trainMinutes !== undefined ? { trainMinutes } : {}) },
      ...(base && pack.model ? { base: { ...base, zeroShot } } : {}),
      warnings: [],
      packBytes: 0,
      totalMs: 0,
    };
    result.warnings = initWarnings(result, Date.now() - t0, opts);
    await timed('report', undefined, () => {
      result.totalMs = Date.now() - t0;
      result.packBytes = dirBytes(out);
      fs.writeFileSync(path.join(out, REPORT_FILE), renderReport(result));
    });
    result.totalMs = Date.now() - t0;
    result.warnings = initWarnings(result, result.totalMs, opts);
    result.packBytes = dirBytes(out);
    fs.writeFileSync(path.join(out, REPORT_FILE), renderReport(result));
    return result;
  } finally {
    await oracle?.close();
    await parser?.close();
    await executor.close();
  }
}

/** labels.txt (every entity label) and kb.txt (label|name|label of entity-valued properties) for the trainer. */
async function writeTrainerInputs(dataDir: string, schema: Schema, executor: Executor, gateway: Gateway): Promise<{ labels: string; kb: string }> {
  const labelsFile = path.join(dataDir, 'labels.txt');
  const kbFile = path.join(dataDir, 'kb.txt');
  const labels = [...new Set(gateway.index.allLabels())].filter((l) => !/[\n|]/.test(l));
  fs.writeFileSync(labelsFile, labels.join('\n') + '\n');
  const lines: string[] = [];
  const labelOf = new Map<string, string | undefined>();
  for (const p of schema.properties) {
    if (p.objectKind === 'literal') continue;
    const edges = await entityEdges(executor, p.iri, 20_000);
    const need = [...new Set(edges.flatMap(([s, o]) => [s, o]))].filter((i) => !labelOf.has(i));
    for (const iri of need) labelOf.set(iri, gateway.index.labelsOf(iri)[0]);
    for (const [s, o] of edges) {
      const a = labelOf.get(s);
      const b = labelOf.get(o);
      if (a && b && !/[\n|]/.test(a + b)) lines.push(`${a}|${p.name}|${b}`);
    }
  }
  fs.writeFileSync(kbFile, lines.join('\n') + '\n');
  return { labels: labelsFile, kb: kbFile };
}

/**
 * What the user must know about a finished pack, each with what to do: a parser whose self-evaluation is
 * poor (below POOR_SELF_EVAL Hits@1), and a run that went over its time budget (which phase took it).
 */
function initWarnings(r: InitResult, totalMs: number, opts: InitOptions): string[] {
  const w: string[] = [];
  const e = r.selfEval;
  if (e && e.overall.hits1 < POOR_SELF_EVAL && r.base?.zeroShot) {
    w.push(
      `the base parser, zero-shot, is poor on this graph: Hits@1 ${pct(e.overall.hits1)}% on ${e.overall.n} held-out synthetic questions (below ${100 * POOR_SELF_EVAL}%). ` +
        'Fine-tune it on the graph: run init again with a budget (--minutes 10 or more; the store, schema and synthetic data are kept); see REPORT.md for each operator.',
    );
  } else if (e && e.overall.hits1 < POOR_SELF_EVAL) {
    const trained = r.training ? `the parser trained ${r.training.seconds.toFixed(0)} s (${String(r.training.epochs)} epochs)` : 'the parser';
    w.push(
      `the parser of this pack is poor: Hits@1 ${pct(e.overall.hits1)}% on ${e.overall.n} held-out synthetic questions (below ${100 * POOR_SELF_EVAL}%); ` +
        `${trained} within --minutes ${r.budget.minutes}. Most questions will get a wrong answer or none. ` +
        `Give it more time (run init again with --minutes 30 or more; the store, schema and synthetic data are kept)` +
        `${opts.size === 'tiny' || r.base ? '' : ', or for a short budget a smaller parser (--size small or tiny)'}; see REPORT.md for each operator.`,
    );
  }
  const st = r.data.stats;
  if (st?.stoppedAtBudget) {
    const made = r.data.train + r.data.valid;
    w.push(
      `synthesis made ${made} of the ${st.requested ?? '?'} pairs asked for within its share of --minutes ${r.budget.minutes}; ` +
        `the parser learns from fewer questions. Give init more time (--minutes), or ask for fewer (--count ${made}) to make the same data without the cut.`,
    );
  }
  // zero-shot plans with ZERO_SHOT_MINUTES
  const planned = r.budget.minutes > 0 ? r.budget.minutes : ZERO_SHOT_MINUTES;
  const over = totalMs - planned * 60_000;
  if (over > Math.max(15_000, 0.1 * planned * 60_000)) {
    const [slowest, ms] = Object.entries(r.phases).sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
    const synthHint = slowest === 'synth' ? ` (fewer synthetic questions: --count ${Math.max(500, Math.round((r.data.train + r.data.valid) / 4))})` : '';
    w.push(`init took ${(totalMs / 60_000).toFixed(1)} minutes of a ${r.budget.minutes > 0 ? `${r.budget.minutes}-minute budget` : `zero-shot run planned as ${ZERO_SHOT_MINUTES} minute`}: ${slowest} alone took ${(ms / 60_000).toFixed(1)} minutes${synthHint}.`);
  }
  return w;
}

const pct = (x: number | null | undefined) => (x === null || x === undefined || Number.isNaN(x) ? '—' : (100 * x).toFixed(1));
const secs = (ms: number | undefined) => (ms === undefined ? '—' : (ms / 1000).toFixed(1) + ' s');

function mib(bytes: number): string {
  return (bytes / 1048576).toFixed(1) + ' MiB';
}

/** REPORT.md of a pack. */
export function renderReport(r: InitResult): string {
  const L: string[] = [];
  const s = r.schema;
  L.push(`# Knowledge pack \`${r.pack.name}\``, '');
  L.push(`Built by \`askgraph init\` from ${r.pack.endpoint ? `the SPARQL endpoint ${r.pack.endpoint}` : 'RDF files'}; zero annotations: ${r.base ? (r.base.zeroShot ? 'the parser is a base model pre-trained on other graphs, not trained on this one' : 'the parser is a base model pre-trained on other graphs, fine-tuned on questions synthesised from this graph alone') : 'the parser is trained on questions synthesised from the graph alone'}.`, '');
  L.push('## Graph', '');
  L.push(`- ${s.triples.toLocaleString('en-US')} triples, ${s.entities.toLocaleString('en-US')} entities, ${s.classes.length} classes, ${s.properties.length} properties`);
  L.push(`- label sources: ${s.labelSources.map((x) => `${x.source === LOCAL_NAME_SOURCE ? 'IRI local names' : `<${x.source}>`} ${x.count}`).join(', ') || 'none'}`);
  L.push('', '| property | name | count | objects | kind | functional |', '|---|---|---|---|---|---|');
  for (const p of s.properties) L.push(`| ${p.label} | \`${p.name}\` | ${p.count} | ${p.objects} | ${p.objectKind}${p.valueKind ? ' / ' + p.valueKind : ''} | ${p.functional ? 'yes' : 'no'} |`);
  L.push('', '## Synthetic data', '');
  L.push(`${r.data.train} training and ${r.data.valid} held-out examples (held out by form: no paraphrase of a held-out form is trained on).`, '');
  L.push('| operator | train | valid | sampled forms | failed samples |', '|---|---|---|---|---|');
  const ops = Object.entries(r.data.perOperator).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [op, n] of ops) {
    const st = r.data.stats?.perOperator[op as SynthOperator];
    L.push(`| ${op} | ${n.train} | ${n.valid} | ${st?.forms ?? '—'} | ${st?.failures ?? '—'} |`);
  }
  if (r.data.stats?.stoppedAtBudget) {
    L.push(
      '',
      `Synthesis was ended by its share of the time budget (--minutes ${r.budget.minutes}): it made ${r.data.train + r.data.valid} of the ${r.data.stats.requested ?? '?'} pairs asked for. ` +
        'They are the first pairs of the full run (a seeded sequence, cut between samples); how many there are depends on the machine, the answers of the finished pack never depend on time.',
    );
  }
  if (r.data.stats) L.push('', `${r.data.stats.templates} templates; noise: ${Object.entries(r.data.stats.noise).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}; ${r.data.stats.queries} store queries in ${secs(r.data.stats.timeMs)}.`);
  L.push('', '## Training', '');
  if (r.base) {
    L.push(
      `The parser ${r.base.zeroShot ? 'is the base model as it is (zero-shot, `--minutes 0`: not trained on this graph)' : 'is fine-tuned from the base model on this graph\'s synthetic questions (its weights, tokenizer and size)'}: ` +
        `\`${r.base.dir}\`${r.base.version ? ` (${r.base.version}, size ${r.base.size})` : ` (size ${r.base.size})`}. ` +
        'It writes relation and class names as words (open names), which grounding matches to the graph; entity mentions are copied from the question and grounded on the entity index.',
      '',
    );
  } else {
    L.push('Relation and class names are target tokens of the parser (one symbol each: the bare names of pack.json `names`); entity mentions are copied from the question and grounded on the entity index.', '');
  }
  if (r.training) {
    L.push(`${String(r.training.epochs)} epochs in ${r.training.seconds.toFixed(0)} s (model size ${r.base ? r.base.size : typeof r.training.report.size === 'string' ? r.training.report.size : ''}).`, '');
    const mixed = r.training.report.interpolate as { share: number } | undefined;
    if (mixed) L.push(`The parser's weights lie ${mixed.share} of the way from the base model's to the fine-tuned ones (\`--interpolate\`, weight-space ensembling): the probe below measured the fine-tuned weights, the self-evaluation the parser's.`, '');
    L.push('| epoch | loss | valid EM (probe) |', '|---|---|---|');
    const curve = r.training.curve;
    const every = Math.max(1, Math.ceil(curve.length / 15)); // at most ~15 rows, the last epoch always
    for (const c of curve.filter((_, i) => i % every === 0 || i === curve.length - 1)) L.push(`| ${c.epoch} | ${c.loss.toFixed(4)} | ${pct(c.validEm)} |`);
  } else if (r.base?.zeroShot) L.push('No training (zero-shot).');
  else L.push('No parser trained (`--no-train`): the fallback readers answer.');
  L.push('', '## Self-evaluation (held-out synthetic questions)', '');
  if (r.selfEval) {
    const e = r.selfEval;
    L.push(`Answers of \`askgraph ask\` with the trained parser compared with the same pipeline given the gold form (${e.oracle.n} questions; gold forms answered: ${pct(e.oracle.hits1)}%). These are synthetic questions from the same templates as the training data, so they measure fit, not real-question accuracy.`, '');
    L.push('| operator | n | form EM | Hits@1 | F1 |', '|---|---|---|---|---|');
    for (const [op, x] of Object.entries(e.perOperator).sort()) L.push(`| ${op} | ${x.n} | ${pct(x.em)} | ${pct(x.hits1)} | ${pct(x.f1)} |`);
    L.push(`| **all** | ${e.overall.n} | ${pct(e.overall.em)} | ${pct(e.overall.hits1)} | ${pct(e.overall.f1)} |`);
    if (e.stoppedAtBudget) L.push('', `Stopped at the time budget after ${e.oracle.n} questions (a seeded random share of the held-out set).`);
  } else L.push('Not run (no parser).');
  if (r.warnings.length) L.splice(2, 0, '## Warnings', '', ...r.warnings.map((x) => `- **${x}**`), '');
  L.push('', '## Time per phase', '', `Budget: ${r.budget.minutes > 0 ? `${r.budget.minutes} minutes` : `zero-shot (--minutes 0; planned as ${ZERO_SHOT_MINUTES} minute)`}${r.budget.trainMinutes !== undefined ? ` (the trainer's share, tokenizer, evaluation and export included: ${r.budget.trainMinutes.toFixed(1)} minutes)` : ''}.`, '', '| phase | time | peak RSS |', '|---|---|---|');
  for (const [ph, ms] of Object.entries(r.phases)) L.push(`| ${ph} | ${secs(ms)} | ${r.phaseRssMiB[ph as InitPhase] !== undefined ? `${r.phaseRssMiB[ph as InitPhase]} MiB` : '—'} |`);
  if (r.skipped.length) L.push(`| skipped (unchanged) | ${r.skipped.join(', ')} |`);
  L.push(`| **total** | ${secs(r.totalMs)} |`, '');
  L.push(`Pack size: ${mib(r.packBytes)}.`, '');
  return L.join('\n');
}
