import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  noAnswer,
  AskgraphError,
  TRANSIENT_CODES,
  type Answer,
  type AnswerItem,
  type Candidate,
  type CompiledQuery,
  type Executor,
  type Form,
  type Generator,
  type Outcome,
  type PackConfig,
  type Timings,
  type TraceEntry,
  isStopword,
  nameInNamespace,
  stem,
} from '../core';
import { compileForm, packCompileOptions } from '../compile';
import { loadPack, openExecutor, runCompiled } from '../execute';
import { chainTrace, defaultReaders, DEFAULT_BUDGET, loadRelationVocabulary, readersByName, runChain, type RelationVocabulary, type Topic } from '../fallback';
import { answerTypeOf, children, entityRefs, mapChildren, mapRefs, parseForm, printForm } from '../form';
import type * as GenerateModule from '../generate';
import { entityRefsOf } from './labels';
import { singularForms } from '../core/morph';
import { expectedAnswer, loadKnownWords, namedNothingReason, unexplainedReason, unexplainedWords, unmatchedNames, wordsOf, yesNoWording, type ExpectedAnswer, type KnownWords } from './abstain';
import { calibratedProbability, loadCalibration, signalsOf, type Calibration, type Signals } from './calibration';
import { graphNames, isWeakWord, leftOut, noAnswerReason, writtenAsCapitalised, unusedWords, weakTitle, type CheckContext, type Reading, type Verdict } from './checks';
import {
  commonNoun,
  filesFingerprint,
  normalizeLabel,
  relationWords,
  incomingDegreesQuery,
  groundCandidates,
  indexCacheFile,
  linkEntities,
  loadOrBuildStoreIndex,
  RelationRetriever,
  type EntityIndex,
  type GroundAttempt,
  type RelationInfo,
  type Scorer,
} from '../ground';
import { ASK_DEFAULTS, checkAskOptions, validateQuestion, type AskOptions } from './options';

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
}

export interface ParseResult {
  question: string;
  candidates: { form: string; logProb: number; rank: number }[];
  timeMs: number;
}

export interface Gateway {
  ask(question: string, opts?: AskOptions): Promise<Answer>;
  parse(question: string, opts?: { beam?: number }): Promise<ParseResult>;
  compile(formText: string): CompiledQuery;
  readonly executor: Executor;
  readonly pack: { dir: string; config: PackConfig };
  readonly generator: ScoringGenerator | undefined;
  readonly index: EntityIndex;
  /** Store id + model id, for cache keys. */
  readonly version: string;
  close(): Promise<void>;
}

/** Parser confidence lives on [0.6, 1]; fallback readers are capped at 0.6 (src/fallback/chain.ts). */
const PARSER_FLOOR = 0.6;
/** How many more readings are tried after the best one is set aside (unexplained words, too uncertain). */
const MAX_REJUDGED = 3;

/**
 * Confidence of a parser answer: 0.6 + 0.4 × P(form | question) × Π entity and relation similarities,
 * where P is the model's own sequence probability of the winning beam form (exp of its log-probability;
 * not renormalised over the beam, so it does not depend on the beam width or the adaptive greedy pass).
 * A parser answer always ranks above a fallback answer (capped at 0.6 in src/fallback/chain.ts); a form
 * the model was unsure of, or grounded by fuzzy matches, ends near 0.6.
 */
export function parserConfidence(win: GroundAttempt): number {
  const p = Math.min(1, Math.exp(win.candidate.logProb));
  const sims = [...win.entityScores, ...win.relationScores].reduce((a, b) => a * b, 1);
  return PARSER_FLOOR + (1 - PARSER_FLOOR) * p * sims;
}

interface Winner {
  attempt: GroundAttempt;
  compiled: CompiledQuery;
  answers: AnswerItem[];
  /** A count / yes/no / negation whose entity never takes its relation (kept only if nothing else answers). */
  vacuous?: boolean;
}

/**
 * "(COUNT (JOIN (R r) X))" over an entity: how many r-values X has. When X has none at all, the graph lacks
 * the fact ("how many directors did The Matrix have" with no director recorded): the relation and the
 * entity's words, for the reason; undefined for any other form.
 */
function ownValueCount(form: Form): { relation: string; entity: string } | undefined {
  if (form.kind !== 'count' || form.arg.kind !== 'join' || form.arg.relation.kind !== 'reverse' || form.arg.arg.kind !== 'entity') return undefined;
  const rel = form.arg.relation.of;
  const ref = form.arg.arg.ref;
  if (rel.kind !== 'rel' || rel.ref.kind !== 'name') return undefined;
  return { relation: rel.ref.name.replace(/_/g, ' '), entity: ref.kind === 'label' ? ref.label : ref.kind === 'name' ? ref.name : ref.iri };
}

/** The verdict of judge() on a winner. `caveat`: set aside only for what it leaves out (answers if nothing better does). */
interface Judgement {
  rejected: boolean;
  abstained: boolean;
  doubt?: string;
  signals?: Signals;
  caveat?: Verdict;
  /** Withheld only as too uncertain (calibration): its signals and calibrated probability. */
  uncertain?: { signals: Signals; p: number };
}

/** The trace row of a reading a named check set aside: the check, its code and its reason (checks.ts). */
function setAsideRow(trace: TraceEntry[], groundedForm: string | undefined, v: Verdict, stage: TraceEntry['stage'] = 'execute'): void {
  trace.push({ stage, ...(groundedForm ? { groundedForm } : {}), outcome: 'skipped', note: `set aside (${v.code}): ${v.reason}`, check: { name: v.check, code: v.code ?? '' }, timeMs: 0 });
}

interface AttemptRun {
  n: number;
  winners: Winner[];
  /** Count and yes/no readings with a vacuous join (answers only if nothing better turns up). */
  vacuous: Winner[];
  /** Grounded forms already executed in this question. */
  seen: Set<string>;
  trace: TraceEntry[];
  timings: Timings;
  deadline: number;
  left: () => number;
  /** The answer shape the question's wording asks for (abstain.ts); forms of another shape are skipped. */
  expected: ExpectedAnswer | undefined;
  /** Whether the wording can ask yes or no; if not, yes/no readings are skipped. */
  yesNo: boolean;
  o: AskOptions & { beam: number; timeoutMs: number; bestOf: number; maxAttempts: number; queryTimeoutMs: number };
  /**
   * Why the question was stopped before it finished: its time ran out (QUERY_TIMEOUT), or the store or the
   * parser failed for the moment (TRANSIENT_CODES). Every later step is skipped and the answer is partial:
   * the choice of reading is a function of the question, the pack and the options, so a step that cannot
   * be finished ends the question instead of letting another reading win.
   */
  stopped?: { code: string; message: string; stage: TraceEntry['stage'] };
}

/** Stops the run (the first reason is kept). */
function stop(run: AttemptRun, stage: TraceEntry['stage'], code: string, message: string): void {
  run.stopped ??= { code, message, stage };
}

/** Whether the run is stopped; stops it when its time budget (timeoutMs) is spent. */
function halted(run: AttemptRun, stage: TraceEntry['stage'] = 'execute'): boolean {
  if (!run.stopped && performance.now() >= run.deadline) stop(run, stage, 'QUERY_TIMEOUT', `the time budget of ${run.o.timeoutMs} ms ran out`);
  return run.stopped !== undefined;
}

/** Stops the run when a query's outcome failed for the moment (timed out, store away); whether it is stopped. */
function haltOn(run: AttemptRun, out: Outcome, what: string): boolean {
  const code = out.status === 'timeout' ? 'QUERY_TIMEOUT' : out.error && TRANSIENT_CODES.has(String(out.error.code)) ? String(out.error.code) : undefined;
  if (code) stop(run, 'execute', code, `${what}: ${out.error?.message ?? 'timed out'}`);
  return run.stopped !== undefined;
}

export async function createGateway(opts: GatewayOptions = {}): Promise<Gateway> {
  const storeIsPack = opts.store !== undefined && !/^https?:\/\//i.test(opts.store) && fs.existsSync(path.join(path.resolve(opts.store), 'pack.json'));
  const pack = await loadPack(opts.pack ?? (storeIsPack ? opts.store : undefined));
  const ownExecutor = !opts.executor;
  // The embedded store loads in its worker while this thread loads the entity index and the parser
  // (cold `askgraph ask`: the store load and the model load overlap instead of adding up).
  const executor: Executor = opts.executor ?? (await openExecutor(opts.store ?? pack.dir, { background: true }));
  const storeReady = (executor as { whenReady?: () => Promise<void> }).whenReady?.() ?? Promise.resolve();
  storeReady.catch(() => undefined); // awaited below; a load error must not be an unhandled rejection meanwhile
  // The generator's modules (onnxruntime, sentencepiece) load after the store's worker has started.
  const { HttpGenerator, loadParser } = require('../generate') as typeof GenerateModule;
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
      const fingerprint = isUrl ? '' : filesFingerprint(packStore ? (pack.config.data ?? []).map((f) => path.resolve(pack.dir, f)) : storeFiles(opts.store!));
      indexKey = indexCacheFile(cacheDir, executor.id, indexOpts, fingerprint);
      if (!fs.existsSync(indexKey)) await storeReady; // building the index queries the store: wait for its load (and its error)
      index = await loadOrBuildStoreIndex(executor, indexKey, indexOpts);
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
      if (modelDir) generator = await loadParser(modelDir, { labels: sharedLabels(indexKey, index.allLabels()) });
    }
    await storeReady;
    const modelDir = opts.generator ? undefined : opts.model ?? (pack.config.model ? path.resolve(pack.dir, pack.config.model) : undefined);
    return new PipelineGateway(pack, executor, ownExecutor, generator, index, opts.defaults ?? {}, opts.entityScorer, loadKnownWords(modelDir), loadCalibration(modelDir));
  } catch (e) {
    if (ownExecutor) await executor.close().catch(() => undefined);
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
  if (prev && prev.length === labels.length) return prev;
  if (labelLists.size >= 8) labelLists.delete(labelLists.keys().next().value as string);
  labelLists.set(key, labels);
  return labels;
}

/** The first (JOIN r <entity>) of a grounded form: a forward relation straight onto an entity IRI. */
function forwardEntityJoin(form: Form): { relation: string; entity: string } | undefined {
  if (form.kind === 'join' && form.relation.kind === 'rel' && form.relation.ref.kind === 'iri' && form.arg.kind === 'entity' && form.arg.ref.kind === 'iri') {
    return { relation: form.relation.ref.iri, entity: form.arg.ref.iri };
  }
  for (const c of children(form)) {
    const hit = forwardEntityJoin(c);
    if (hit) return hit;
  }
  return undefined;
}

/** Every "(JOIN r X)" of a form whose X is an entity, outermost first. */
function entityJoins(form: Form): Form[] {
  return [...(form.kind === 'join' && form.arg.kind === 'entity' ? [form] : []), ...children(form).flatMap(entityJoins)];
}

/** The best-scored reading with answers of an attempt pass, else its first vacuous one. */
function bestReading(run: AttemptRun): Winner | undefined {
  return [...run.winners].sort((x, y) => y.attempt.score - x.attempt.score)[0] ?? run.vacuous[0];
}

/** The subtracted sides of a form's DIFFs: a vacuous join there makes the DIFF its first side, unchanged. */
function subtracted(form: Form): Form[] {
  return [...(form.kind === 'diff' ? [form.args[1]] : []), ...children(form).flatMap(subtracted)];
}

/** The form with one entity IRI replaced by another. */
function replaceEntityIri(form: Form, from: string, to: string): Form {
  return mapRefs(form, { entity: (ref) => (ref.kind === 'iri' && ref.iri === from ? { kind: 'iri', iri: to } : ref) });
}

/** The form with the relation of its first forward entity join replaced (by name, or by IRI when `iri`). */
function replaceForwardJoinRelation(form: Form, from: string, to: string, iri = false): Form {
  let done = false;
  const walk = (f: Form): Form => {
    if (done) return f;
    if (f.kind === 'join' && f.relation.kind === 'rel' && f.arg.kind === 'entity') {
      const ref = f.relation.ref;
      const matches = iri ? ref.kind === 'iri' && ref.iri === from : ref.kind === 'name' && ref.name === from;
      if (matches) {
        done = true;
        return { ...f, relation: { kind: 'rel', ref: iri ? { kind: 'iri', iri: to } : { kind: 'name', name: to } } };
      }
    }
    return mapChildren(f, walk);
  };
  return walk(form);
}

/** The data files of a store given as a file or a folder (for the index fingerprint). */
function storeFiles(store: string): string[] {
  const abs = path.resolve(store);
  try {
    if (!fs.statSync(abs).isDirectory()) return [abs];
    return fs
      .readdirSync(abs)
      .filter((f) => !f.startsWith('.'))
      .sort()
      .map((f) => path.join(abs, f));
  } catch {
    return [abs];
  }
}

class PipelineGateway implements Gateway {
  readonly version: string;
  private readonly relations: RelationRetriever;
  private readonly vocabulary: Set<string>;
  /** Question words ↔ relations mined from the pack's training data (fallback readers rank chains with it). */
  private readonly relationVocabulary: RelationVocabulary | undefined;

  constructor(
    readonly pack: { dir: string; config: PackConfig },
    readonly executor: Executor,
    private readonly ownExecutor: boolean,
    readonly generator: ScoringGenerator | undefined,
    readonly index: EntityIndex,
    private readonly defaults: AskOptions,
    private readonly entityScorer?: Scorer,
    /** Words of the parser's training questions (abstain.ts); undefined = no abstention on unexplained words. */
    private readonly knownWords?: KnownWords,
    /** Calibrated confidence and the abstention threshold of the parser (calibration.ts); undefined = raw confidence. */
    private readonly calibration?: Calibration,
  ) {
    this.version = `${executor.id}+${generator?.id ?? 'no-parser'}`;
    const rels = (index.meta.relations as RelationInfo[] | undefined) ?? [];
    this.vocabulary = new Set(rels.map((r) => r.iri));
    this.relationVocabulary = loadRelationVocabulary(pack.dir);
    this.relations = new RelationRetriever(executor, { exclude: [...pack.config.labelPredicates, ...(pack.config.aliasPredicates ?? [])] });
  }

  private compileOptions() {
    return packCompileOptions(this.pack.config);
  }

  compile(formText: string): CompiledQuery {
    return compileForm(parseForm(formText), this.compileOptions());
  }

  async parse(question: string, opts: { beam?: number } = {}): Promise<ParseResult> {
    const q = validateQuestion(question);
    checkAskOptions({ beam: opts.beam });
    if (!this.generator) throw new AskgraphError('MODEL_UNAVAILABLE', 'this gateway has no parser');
    const res = await this.generator.generate(q, { beam: opts.beam ?? this.defaults.beam ?? ASK_DEFAULTS.beam });
    return { question: q, candidates: res.candidates.map((c) => ({ form: c.text, logProb: c.logProb, rank: c.rank })), timeMs: res.timeMs };
  }

  async ask(question: string, askOpts: AskOptions = {}): Promise<Answer> {
    const t0 = performance.now();
    const q = validateQuestion(question);
    const o = { ...ASK_DEFAULTS, ...this.defaults, ...definedOnly(askOpts) };
    checkAskOptions(o);
    const deadline = t0 + o.timeoutMs;
    const left = () => Math.max(1, Math.floor(deadline - performance.now()));
    // Unknown reader names are a bad request whether or not the fallback is reached.
    const readers = o.fallback === 'off' ? [] : Array.isArray(o.fallback) ? readersByName(o.fallback) : defaultReaders();
    const trace: TraceEntry[] = [];
    const timings = { generate: 0, ground: 0, execute: 0, fallback: 0, total: 0 };
    let beam: Candidate[] = [];
    let win: Winner | undefined;
    const run: AttemptRun = { n: 0, winners: [], vacuous: [], seen: new Set(), trace, timings, deadline, left, o, expected: o.noAbstain ? undefined : expectedAnswer(q), yesNo: o.noAbstain || yesNoWording(q) };
    const ctx = {
      index: this.index,
      relations: this.relations,
      vocabulary: this.vocabulary,
      vocabularyNamespace: this.pack.config.vocabularyNamespace,
      ...(this.pack.config.names ? { names: this.pack.config.names } : {}),
      question: q,
      ...(this.entityScorer ? { scorer: this.entityScorer } : {}),
    };

    if (!o.noParser && this.generator) {
      // Adaptive beam: the greedy form first, exact grounding only (most questions end here); the
      // full beam and Algorithm 1 only when it does not answer. adaptiveBeam: false = always the full beam.
      const adaptive = o.adaptiveBeam && o.beam > 1;
      const first = await this.generate(q, adaptive ? 1 : o.beam, run);
      const unexplained = o.noAbstain || run.stopped ? [] : this.unexplained(q, first);
      if (unexplained.length > 0) {
        const reason = unexplainedReason(unexplained);
        trace.push({ stage: 'generate', outcome: 'skipped', note: `abstained: unexplained words ${unexplained.join(', ')}`, timeMs: 0 });
        timings.total = performance.now() - t0;
        return noAnswer(q, { reason, beam: first.map((c) => ({ form: c.text, logProb: c.logProb })), trace, timings });
      }
      if (adaptive) {
        const greedy = first;
        if (greedy.length > 0) {
          beam = greedy;
          await this.attempt(groundCandidates(greedy, ctx, { ...o, exactOnly: true }), run, greedy, false);
        }
      }
      if (run.winners.length === 0 && !run.stopped) {
        const full = adaptive ? await this.generate(q, o.beam, run) : first;
        if (full.length > 0 && !run.stopped) {
          beam = full;
          await this.attempt(groundCandidates(full, ctx, o), run, full, true);
        }
      }
      win = bestReading(run);
    } else {
      trace.push({ stage: 'generate', outcome: 'skipped', note: o.noParser ? 'noParser' : 'no parser model', timeMs: 0 });
    }

    if (win && !o.noAbstain && !run.stopped) win = await this.relationPrior(q, win, run);

    let verdict = win && !run.stopped ? await this.judge(q, win, beam, run) : undefined;
    // the first reading set aside only for a part of the question it leaves out: the answer if no reading uses it
    let caveated = win && verdict?.caveat ? { win, verdict } : undefined;
    // the first reading withheld only as too uncertain (it may use what a better-scored one leaves out)
    let complete = win && verdict?.uncertain ? { win, verdict } : undefined;
    const setAside = [...run.vacuous]; // vacuous readings of every pass, the last resort
    // A reading set aside (a word it leaves unexplained, or too uncertain) does not end the search: the next
    // groundings and beam forms are tried, a few times, before the question goes to the fallback or abstains
    // ("spielberg films": the tag "spielberg" is too uncertain, Steven Spielberg's films are not).
    // (a time budget spent on the way stops the question, timed out: it never decides which reading wins)
    for (let retry = 0; win && verdict?.rejected && !o.noAbstain && retry < MAX_REJUDGED && !halted(run); retry++) {
      if (beam.length < o.beam) {
        const full = await this.generate(q, o.beam, run);
        if (full.length > 0) beam = full;
        if (run.stopped) break;
      }
      run.winners = [];
      run.vacuous = [];
      await this.attempt(groundCandidates(beam, ctx, o), run, beam, false);
      if (run.stopped) break;
      setAside.push(...run.vacuous);
      let next = bestReading(run);
      if (!next) break;
      next = await this.relationPrior(q, next, run);
      if (run.stopped) break;
      const v = await this.judge(q, next, beam, run);
      if (run.stopped) break;
      if (!v.rejected) {
        win = next;
        verdict = v;
      } else if (v.caveat && !caveated) caveated = { win: next, verdict: v };
      else if (v.uncertain && !complete) complete = { win: next, verdict: v };
    }
    // every reading with answers was set aside: a vacuous count is the graph's answer after all ("how many films
    // did Brad Pitt direct": 0), unless it asks for a fact the graph lacks (judge)
    const lastResort = win && verdict?.rejected && !win.vacuous && !run.stopped ? setAside.find((w) => w !== win) : undefined;
    if (lastResort) {
      const v = await this.judge(q, lastResort, beam, run);
      if (!v.rejected) {
        win = lastResort;
        verdict = v;
      }
    }
    if (run.stopped) return this.stopped(q, run, win && verdict && !verdict.rejected ? { win, signals: verdict.signals } : undefined, beam, t0);
    // no reading uses what the set-aside one left out: it answers, and the answer says what it left out
    let caveat: string | undefined;
    let uncertain: number | undefined;
    // a reading that reads the whole question beats one that drops part of it, though the parser was unsure of it
    const whole = caveated && complete && complete.win !== caveated.win ? unusedWords(this.readingOf(complete.win), this.checkContext(q, beam)) : undefined;
    if (win && verdict?.rejected && caveated && complete && whole?.pass) {
      const dropped = caveated.verdict.caveat!;
      win = complete.win;
      verdict = { rejected: false, abstained: false, signals: complete.verdict.uncertain!.signals };
      uncertain = complete.verdict.uncertain!.p;
      caveat = `the reading ${caveated.win.attempt.candidate.text} leaves out ${dropped.words!.map((w) => `"${w}"`).join(', ')}; this reading uses ${dropped.words!.length > 1 ? 'them' : 'it'}, but the parser was unsure of it (confidence ${uncertain.toFixed(2)})`;
      trace.push({ stage: 'execute', groundedForm: win.attempt.text, outcome: 'answers', answerCount: win.answers.length, note: `answered: ${caveat}`, check: { name: dropped.check, code: dropped.code ?? '' }, timeMs: 0 });
    } else if (win && verdict?.rejected && caveated) {
      win = caveated.win;
      verdict = { ...caveated.verdict, rejected: false };
      caveat = `${caveated.verdict.caveat!.reason}: no reading that uses ${caveated.verdict.caveat!.words!.length > 1 ? 'them' : 'it'} found an answer`;
      trace.push({ stage: 'execute', groundedForm: win.attempt.text, outcome: 'answers', answerCount: win.answers.length, note: `answered with a caveat: ${caveat}`, check: { name: caveated.verdict.caveat!.check, code: caveated.verdict.caveat!.code ?? '' }, timeMs: 0 });
    }
    let doubt: string | undefined;
    let abstained = false;
    let signals: Signals | undefined;
    if (win && verdict?.rejected) {
      doubt = verdict.doubt;
      abstained = verdict.abstained;
      win = undefined;
    } else signals = verdict?.signals;

    if (win) {
      timings.total = performance.now() - t0;
      return {
        question: q,
        answers: win.answers,
        answerType: win.compiled.answerType ?? 'entities',
        form: win.attempt.candidate.text,
        groundedForm: win.attempt.text,
        sparql: win.compiled.sparql,
        source: 'parser',
        // an answer that leaves part of the question out is no more certain than a fallback answer
        confidence: uncertain ?? Math.min(caveat ? PARSER_FLOOR : 1, this.calibration && signals ? calibratedProbability(this.calibration, signals) : parserConfidence(win.attempt)),
        ...(caveat ? { reason: caveat } : {}),
        ...(signals ? { signals } : {}),
        beam: beam.map((c) => ({ form: c.text, logProb: c.logProb })),
        trace,
        timings,
      };
    }

    // Fallback readers: evidence from the graph around the question's entities.
    // The readers answer with entities: a count or yes/no question they cannot answer in its shape.
    if (!doubt && run.expected && !win) doubt = `no reading of the question as a ${run.expected === 'number' ? 'count or number' : 'yes/no question'} found an answer in the graph`;
    if (o.fallback !== 'off' && !run.expected && !abstained && !halted(run, 'fallback')) {
      const tf = performance.now();
      const topics = this.topics(q, beam, trace);
      // The readers answer from evidence around the topics: a question word that nothing the parser was shown
      // explains (and that is no topic's name) means the question asks for something else ("the capital of Peru").
      // (the parser's own mentions count as names too: a name the graph lacks is reported as such, not as a word)
      const named = [...topics.map((t) => ({ text: t.label, label: t.label })), ...(beam[0] ? entityRefsOf(beam[0].form).map((text) => ({ text })) : [])];
      const offTopic = this.knownWords && this.knownWords.size > 0 && !o.noAbstain ? unexplainedWords(q, named, this.knownWords) : [];
      if (offTopic.length > 0) {
        trace.push({ stage: 'fallback', outcome: 'skipped', note: `abstained: unexplained words ${offTopic.join(', ')}`, timeMs: 0 });
        timings.total = performance.now() - t0;
        return noAnswer(q, { reason: unexplainedReason(offTopic), beam: beam.map((c) => ({ form: c.text, logProb: c.logProb })), trace, timings });
      }
      // A name of several words that no one entity spells ("the president of France": only a tag "president"
      // and a tag "france") is a name the graph lacks; evidence around its pieces answers another question.
      const unnamed = !o.noAbstain && beam[0] && topics.length > 0 ? unmatchedNames(entityRefsOf(beam[0].form), topics.map((t) => t.label)) : [];
      if (unnamed.length > 0) {
        // words of those mentions no topic spells and the question does not write as a name are words it cannot place
        const spelt = new Set(topics.flatMap((t) => wordsOf(t.label)));
        const placeless = unnamed.flatMap((m) => wordsOf(m)).filter((w) => !spelt.has(w) && !isStopword(w) && !writtenAsCapitalised(q, w));
        const reason = placeless.length > 0 ? unexplainedReason(placeless) : namedNothingReason(unnamed, this.suggestions(unnamed));
        trace.push({ stage: 'fallback', outcome: 'skipped', note: `abstained: ${reason}`, timeMs: 0 });
        timings.total = performance.now() - t0;
        return noAnswer(q, { reason, beam: beam.map((c) => ({ form: c.text, logProb: c.logProb })), trace, timings });
      }
      const scorer = this.generator?.score ? (question: string, forms: string[]) => this.generator!.score!(question, forms) : undefined;
      const chain = await runChain(readers, {
        question: q,
        topics,
        executor: this.executor,
        // the readers' work bound is their queries and rows; their time is what is left of the question's, and
        // running out of it stops the question (chain.stopped), it never hands the question to the next reader
        budget: { ...DEFAULT_BUDGET, timeMs: left() },
        ...(scorer ? { scorer } : {}),
        ...(this.relationVocabulary ? { relationVocabulary: this.relationVocabulary } : {}),
        labelPredicates: [...this.pack.config.labelPredicates, ...(this.pack.config.aliasPredicates ?? [])],
      });
      trace.push(...chainTrace(chain));
      timings.fallback = performance.now() - tf;
      if (chain.stopped) {
        stop(run, 'fallback', chain.stopped.code, chain.stopped.message);
        return this.stopped(q, run, undefined, beam, t0);
      }
      if (chain.result && chain.reader && chain.result.answers.length > 0) {
        timings.total = performance.now() - t0;
        // the readers answer from evidence around the topics: a number or a graph name of the question their
        // evidence does not hold ("after 2013", "and Lucas") is left out, and the answer says so (checks.ts leftOut)
        const held = JSON.stringify(chain.result.evidence ?? []) + trace.filter((t) => t.stage === 'fallback' && t.reader === chain.reader).map((t) => t.note ?? '').join(' ');
        const left = o.noAbstain ? [] : leftOut(q, held, (w) => this.index.hasWord(w));
        const caveat = left.length ? `the fallback reader's answer leaves out ${left.map((n) => `"${n}"`).join(', ')} of the question: no reading of the whole question found an answer` : undefined;
        return {
          question: q,
          answers: chain.result.answers,
          answerType: 'entities',
          form: null,
          groundedForm: null,
          sparql: null,
          source: `fallback:${chain.reader}`,
          confidence: chain.result.confidence,
          ...(caveat ? { reason: caveat } : {}),
          beam: beam.map((c) => ({ form: c.text, logProb: c.logProb })),
          trace,
          evidence: chain.result.evidence,
          timings,
        };
      }
    }

    if (run.stopped) return this.stopped(q, run, undefined, beam, t0);
    timings.total = performance.now() - t0;
    // no doubt of the parser's readings: the reason is read off the trace itself (checks.ts)
    doubt ??= noAnswerReason(trace, (names) => this.suggestions(names));
    return noAnswer(q, { ...(doubt ? { reason: doubt } : {}), beam: beam.map((c) => ({ form: c.text, logProb: c.logProb })), trace, timings });
  }

  /**
   * The answer of a stopped question (run.stopped): marked `partial` (and `timedOut` when its time ran out),
   * with the answers of a reading already accepted when it stopped, if any — never of a reading that won
   * because another could not be finished. The trace ends with the step that stopped it.
   */
  private stopped(q: string, run: AttemptRun, accepted: { win: Winner; signals?: Signals } | undefined, beam: Candidate[], t0: number): Answer {
    const s = run.stopped!;
    const timedOut = s.code === 'QUERY_TIMEOUT' || s.code === 'REQUEST_TIMEOUT';
    run.trace.push({ stage: s.stage, outcome: timedOut ? 'timeout' : 'error', error: { code: s.code, message: s.message }, note: `stopped: ${s.message}`, timeMs: 0 });
    run.timings.total = performance.now() - t0;
    const reason = timedOut ? `timed out before the question was answered (${s.message})` : `stopped before the question was answered: ${s.message}`;
    const marks = { partial: true as const, ...(timedOut ? { timedOut: true as const } : {}) };
    const beamOut = beam.map((c) => ({ form: c.text, logProb: c.logProb }));
    if (!accepted) return { ...noAnswer(q, { reason, beam: beamOut, trace: run.trace, timings: run.timings }), ...marks };
    const { win, signals } = accepted;
    return {
      question: q,
      answers: win.answers,
      answerType: win.compiled.answerType ?? 'entities',
      form: win.attempt.candidate.text,
      groundedForm: win.attempt.text,
      sparql: win.compiled.sparql,
      source: 'parser',
      confidence: this.calibration && signals ? calibratedProbability(this.calibration, signals) : parserConfidence(win.attempt),
      reason,
      ...marks,
      beam: beamOut,
      trace: run.trace,
      timings: run.timings,
    };
  }

  /**
   * The (relation, entity) readings the graph offers for the winner's first "(JOIN r [ X ])": every relation
   * pointing at X (or at an entity of exactly X's label) with its number of triples, each scored by the parser,
   * ranked by log P(form | question) + log P(r, X' | graph). `onlyIfBetter`: undefined unless some reading holds
   * more triples than the winner's own.
   */
  private relationAlternatives(q: string, win: Winner, run: AttemptRun, onlyIfBetter: boolean) {
    // one computation per winner: the prior on the relation and the prior on the confidence share it
    let pending = this.alternativesOf.get(win);
    if (!pending) {
      pending = this.computeAlternatives(q, win, run);
      this.alternativesOf.set(win, pending);
    }
    return pending.then(async (alt) => {
      if (!alt || (onlyIfBetter && !alt.better)) return undefined;
      return { ...alt, ranked: await alt.rank() };
    });
  }

  private readonly alternativesOf = new WeakMap<Winner, ReturnType<PipelineGateway['computeAlternatives']>>();

  private async computeAlternatives(q: string, win: Winner, run: AttemptRun) {
    const target = forwardEntityJoin(win.attempt.form);
    if (!target || !this.generator?.score || halted(run)) return undefined;
    // The entity and the others of exactly the same label (a person and a tag both labelled "Leonardo DiCaprio").
    const label = this.index.labelsOf(target.entity)[0];
    const same = label ? this.index.search(label, { k: 4 }).filter((h) => h.exact).map((h) => h.iri) : [];
    const entities = [target.entity, ...same.filter((e) => e !== target.entity)].slice(0, 3);
    const degrees = new Map<string, number>(); // "relation entity" → incoming triples
    const tq = performance.now();
    for (const e of entities) {
      try {
        const res = await this.executor.select(incomingDegreesQuery(e, 100), { timeoutMs: Math.min(run.o.queryTimeoutMs, run.left()) });
        for (const r of res.rows) if (r.p?.type === 'uri' && r.n && this.vocabulary.has(r.p.value)) degrees.set(`${r.p.value} ${e}`, Number(r.n.value));
      } catch (e) {
        // a count that could not be finished stops the question (it would decide the reading otherwise)
        const code = e instanceof AskgraphError ? e.code : 'INTERNAL';
        if (TRANSIENT_CODES.has(code)) stop(run, 'ground', code, `graph prior: ${(e as Error).message}`);
        return undefined;
      }
    }
    run.timings.ground += performance.now() - tq;
    const total = [...degrees.values()].reduce((a, b) => a + b, 0);
    const own = degrees.get(`${target.relation} ${target.entity}`) ?? 0;
    const oldName = this.relationName(target.relation);
    if (!oldName || total === 0) return undefined;
    const better = [...degrees.values()].some((d) => d > own);
    // every (relation, entity) the graph offers, scored by the parser in one call
    const options = [...degrees.entries()].flatMap(([key, deg]) => {
      const [rel, ent] = key.split(' ') as [string, string];
      const name = this.relationName(rel);
      if (!name) return [];
      const form = rel === target.relation ? win.attempt.candidate.form : replaceForwardJoinRelation(win.attempt.candidate.form, oldName, name);
      return [{ rel, ent, name, deg, form, text: printForm(form) }];
    });
    const prior = (d: number) => Math.log(Math.max(d, 0.5) / total);
    const generator = this.generator;
    let ranking: Promise<(typeof options[number] & { logProb: number; total: number })[]> | undefined;
    // scored only when needed (the parser's pass over the options is the costly part)
    const rank = () =>
      (ranking ??= (async () => {
        const ts = performance.now();
        const scores = await generator.score!(q, options.map((x) => x.text));
        run.timings.generate += performance.now() - ts;
        return options.map((x, i) => ({ ...x, logProb: scores[i] ?? -Infinity, total: (scores[i] ?? -Infinity) + prior(x.deg) })).sort((a, b) => b.total - a.total);
      })());
    return { target, total, own, oldName, prior, rank, better };
  }

  /**
   * Calibration signals with the graph prior: the parser's probability mass over the relation readings of the
   * winner's "(JOIN r [ X ])" is shared out by P(form | question) · P(r, X | graph) (Bayes), so a reading the
   * graph strongly supports ("Kurosawa films": 23 directed_by triples, 1 starred_actors) is not withheld for
   * the parser's doubt between relations the words do not tell apart. Undefined when the graph does not
   * support the winner more than the parser alone does.
   */
  private async priorSignals(q: string, win: Winner, beam: Candidate[], run: AttemptRun): Promise<Signals | undefined> {
    const alt = await this.relationAlternatives(q, win, run, false);
    if (!alt || alt.ranked.length < 2) return undefined;
    const mine = alt.ranked.find((x) => x.rel === alt.target.relation && x.ent === alt.target.entity);
    if (!mine || alt.ranked[0] !== mine || !Number.isFinite(mine.logProb)) return undefined;
    const lse = (xs: number[]) => {
      const m = Math.max(...xs);
      return m + Math.log(xs.reduce((a, x) => a + Math.exp(x - m), 0));
    };
    const family = alt.ranked.filter((x) => Number.isFinite(x.logProb));
    const mass = lse(family.map((x) => x.logProb));
    const joint = lse(family.map((x) => x.total));
    const adjusted = (x: (typeof family)[number]) => mass + x.total - joint;
    const logProb = adjusted(mine);
    if (logProb <= win.attempt.candidate.logProb) return undefined;
    const texts = new Set(family.map((x) => x.text));
    const nextInBeam = beam.find((c) => !texts.has(c.text))?.logProb;
    const nextInFamily = family.filter((x) => x !== mine).map(adjusted);
    const next = Math.max(...nextInFamily, nextInBeam ?? -Infinity);
    return signalsOf(logProb, [...win.attempt.entityScores, ...win.attempt.relationScores], Number.isFinite(next) ? next : undefined);
  }

  /**
   * Graph prior on the relation of "X films" readings: a question that names an entity without saying how it
   * relates ("spielberg films", "Kurosawa's movies") is read by the parser as (JOIN r [ X ]) with a relation
   * it cannot tell from the words. The graph can: P(r, X' | X) ∝ the number of r-triples pointing at X' (X or an
   * entity of exactly X's label). When another (relation, entity) holds more of them, its form is scored by
   * the parser and the two are compared on log P(form | question) + log P(r, X'); the better one, if it has
   * answers, wins. Forms that say the relation ("films directed by X") keep it: the parser's probability
   * of the other relation is then far lower than the prior can make up.
   */
  private async relationPrior(q: string, win: Winner, run: AttemptRun): Promise<Winner> {
    const alt = await this.relationAlternatives(q, win, run, true);
    if (!alt) return win;
    const { target, total, own, oldName, prior, ranked } = alt;
    const current = win.attempt.candidate.logProb + prior(own);
    const top = ranked[0];
    if (!top || !Number.isFinite(top.total) || top.total <= current || (top.rel === target.relation && top.ent === target.entity)) return win;
    const [best, bestEntity, bestDeg, name, altForm, altText, altLogProb] = [top.rel, top.ent, top.deg, top.name, top.form, top.text, top.logProb];
    let grounded = replaceForwardJoinRelation(win.attempt.form, target.relation, best, true);
    if (bestEntity !== target.entity) grounded = replaceEntityIri(grounded, target.entity, bestEntity);
    const te = performance.now();
    if (halted(run)) return win;
    try {
      const compiled = compileForm(grounded, this.compileOptions());
      const out = await runCompiled(this.executor, compiled, { timeoutMs: Math.min(run.o.queryTimeoutMs, run.left()) });
      run.timings.execute += performance.now() - te;
      const text = printForm(grounded);
      run.trace.push({ stage: 'execute', beamForm: altText, groundedForm: text, sparql: compiled.sparql, outcome: out.status, answerCount: out.answers.length, note: `graph prior: ${bestDeg} of ${total} triples pointing at the entity are ${name}, ${own} ${oldName}`, timeMs: performance.now() - te });
      if (haltOn(run, out, `graph prior: ${altText}`) || out.status !== 'answers') return win;
      const candidate = { ...win.attempt.candidate, form: altForm, text: altText, logProb: altLogProb };
      return { attempt: { ...win.attempt, candidate, form: grounded, text }, compiled, answers: out.answers };
    } catch {
      return win;
    }
  }

  /** The bare relation name the parser writes for a relation IRI (pack names, else the vocabulary namespace). */
  private relationName(iri: string): string | undefined {
    for (const [n, i] of Object.entries(this.pack.config.names ?? {})) if (i === iri) return n;
    return nameInNamespace(iri, this.pack.config.vocabularyNamespace);
  }

  /** Calibration signals of a winning attempt (calibration.ts). */
  private signals(win: Winner, beam: Candidate[]): Signals {
    const next = beam.find((c) => c.text !== win.attempt.candidate.text);
    return signalsOf(win.attempt.candidate.logProb, [...win.attempt.entityScores, ...win.attempt.relationScores], next?.logProb);
  }

  private async generate(q: string, beam: number, run: AttemptRun): Promise<Candidate[]> {
    const tg = performance.now();
    try {
      const res = await this.generator!.generate(q, { beam });
      const dropped = res.dropped ? `, ${res.dropped} dropped` : '';
      run.trace.push({ stage: 'generate', outcome: res.candidates.length ? 'answers' : 'empty', answerCount: res.candidates.length, note: `beam ${beam}: ${res.candidates.length} forms${dropped}`, timeMs: res.timeMs });
      for (const r of res.rejected ?? []) run.trace.push({ stage: 'generate', beamForm: r.text, outcome: 'empty', note: `dropped: ${r.reason}`, timeMs: 0 });
      return res.candidates;
    } catch (e) {
      const err = e instanceof AskgraphError ? e : new AskgraphError('MODEL_ERROR', (e as Error).message, { cause: e });
      run.trace.push({ stage: 'generate', outcome: 'error', error: { code: err.code, message: err.message }, timeMs: performance.now() - tg });
      // the parser failing is no reading of the question: the fallback's answer in its place would be another one
      stop(run, 'generate', err.code, `the parser failed: ${err.message}`);
      return [];
    } finally {
      run.timings.generate += performance.now() - tg;
    }
  }

  /** Compiles and executes grounded forms in order until the strategy is satisfied; every attempt goes to the trace. */
  private async attempt(attempts: AsyncGenerator<GroundAttempt>, run: AttemptRun, beam: Candidate[], reportUngrounded: boolean): Promise<void> {
    const { o, trace, timings } = run;
    let exhausted = false;
    const grounded = new Set<number>();
    for (;;) {
      const tgr = performance.now();
      let next: IteratorResult<GroundAttempt>;
      try {
        next = await attempts.next();
      } catch (e) {
        // a store failure during grounding keeps its code (the server turns it into its status)
        const code = e instanceof AskgraphError ? e.code : 'INTERNAL';
        trace.push({ stage: 'ground', outcome: 'error', error: { code, message: (e as Error).message }, timeMs: performance.now() - tgr });
        if (TRANSIENT_CODES.has(code)) stop(run, 'ground', code, `grounding: ${(e as Error).message}`);
        break;
      }
      timings.ground += performance.now() - tgr;
      if (next.done) {
        exhausted = true;
        break;
      }
      const a = next.value;
      grounded.add(a.candidate.rank);
      if (run.seen.has(a.text)) continue; // already executed (greedy pass)
      run.seen.add(a.text);
      const shape = answerTypeOf(a.form);
      if (run.expected && shape !== run.expected) {
        trace.push({ stage: 'execute', beamForm: a.candidate.text, groundedForm: a.text, score: a.score, outcome: 'skipped', note: `answers ${shape}, the question asks for a ${run.expected}`, timeMs: 0 });
        continue;
      }
      if (shape === 'boolean' && !run.yesNo) {
        trace.push({ stage: 'execute', beamForm: a.candidate.text, groundedForm: a.text, score: a.score, outcome: 'skipped', note: 'answers yes or no, the question is not worded as a yes/no question', timeMs: 0 });
        continue;
      }
      if (run.n >= o.maxAttempts) {
        trace.push({ stage: 'execute', beamForm: a.candidate.text, groundedForm: a.text, score: a.score, outcome: 'skipped', note: `maxAttempts ${o.maxAttempts} reached`, timeMs: 0 });
        break;
      }
      if (halted(run)) {
        // out of time: the question stops here, timed out (the next forms would answer another reading)
        trace.push({ stage: 'execute', beamForm: a.candidate.text, groundedForm: a.text, score: a.score, outcome: 'skipped', note: 'time budget spent', timeMs: 0 });
        break;
      }
      run.n++;
      const te = performance.now();
      let compiled: CompiledQuery;
      try {
        compiled = compileForm(a.form, this.compileOptions());
      } catch (e) {
        const err = e instanceof AskgraphError ? e : new AskgraphError('INTERNAL', (e as Error).message);
        trace.push({ stage: 'execute', beamForm: a.candidate.text, groundedForm: a.text, score: a.score, outcome: 'error', error: { code: err.code, message: err.message }, note: a.phase, timeMs: performance.now() - te });
        timings.execute += performance.now() - te;
        continue;
      }
      const out = await runCompiled(this.executor, compiled, { timeoutMs: Math.min(o.queryTimeoutMs, run.left()) });
      timings.execute += performance.now() - te;
      trace.push({
        stage: 'execute',
        beamForm: a.candidate.text,
        groundedForm: a.text,
        sparql: compiled.sparql,
        score: a.score,
        outcome: out.status,
        answerCount: out.answers.length,
        ...(compiled.answerType ? { answerType: compiled.answerType } : {}),
        ...(out.error ? { error: out.error } : {}),
        note: `${a.phase} (beam rank ${a.candidate.rank})${a.entityMatches?.some((m) => m !== 'exact') ? `; mentions matched ${a.entityMatches.join(', ')}` : ''}`,
        timeMs: performance.now() - te,
      });
      // a form that timed out (queryTimeoutMs, or the question's time) or met the store away stops the question:
      // the next forms would answer a different reading, depending on the machine's load
      if (haltOn(run, out, `executing ${a.text}`)) break;
      const negated = subtracted(a.form);
      if (out.status === 'answers' && (shape !== 'entities' || negated.length > 0) && (await this.vacuousJoin(shape !== 'entities' ? a.form : negated, run))) {
        // a count or yes/no answers even over an empty set: "0" from a grounding whose entity never takes that
        // relation (a tag where a person was meant) is kept only in case no other reading answers; so is a DIFF
        // that takes away nothing ("… that aren't comedies" with the tag "comedy" for the genre)
        run.vacuous.push({ attempt: a, compiled, answers: out.answers, vacuous: true });
        trace.push({ stage: 'execute', groundedForm: a.text, outcome: 'skipped', note: 'set aside: an entity of this reading never takes its relation', timeMs: 0 });
        continue;
      }
      if (run.stopped) break; // the existence check could not be finished
      if (out.status === 'answers') {
        run.winners.push({ attempt: a, compiled, answers: out.answers });
        if (o.strategy === 'first-nonempty' || run.winners.length >= o.bestOf) break;
      }
    }
    await attempts.return(undefined);
    if (exhausted && reportUngrounded) {
      for (const c of beam) {
        if (!grounded.has(c.rank)) trace.push({ stage: 'ground', beamForm: c.text, outcome: 'empty', note: 'no grounding above the thresholds', timeMs: 0 });
      }
    }
  }

  /**
   * Whether a reading may be the answer: every word of its mentions explained by the entity it grounded to
   * (else abstained: the question asks about something the graph lacks), and, with a calibration, confident
   * enough (with the graph prior's support when the parser alone is not). The trace says why not.
   */
  private async judge(q: string, win: Winner, beam: Candidate[], run: AttemptRun): Promise<Judgement> {
    const { o, trace } = run;
    const own = win.vacuous && !o.noAbstain ? ownValueCount(win.attempt.candidate.form) : undefined;
    if (own) {
      // "0" would say X has no r; the graph only lacks the fact
      const doubt = `the graph records no ${own.relation} for "${own.entity}"`;
      trace.push({ stage: 'execute', groundedForm: win.attempt.text, outcome: 'skipped', note: `abstained: ${doubt}`, timeMs: 0 });
      return { rejected: true, abstained: true, doubt };
    }
    const reading = this.readingOf(win);
    const checks = this.checkContext(q, beam);
    const weak = o.noAbstain ? undefined : weakTitle(reading, checks);
    if (weak && !weak.pass) {
      setAsideRow(trace, win.attempt.text, weak);
      return { rejected: true, abstained: false, doubt: weak.reason };
    }
    const leftovers = o.noAbstain ? [] : this.leftoverWords(q, win);
    if (leftovers.length > 0) {
      trace.push({ stage: 'execute', groundedForm: win.attempt.text, outcome: 'skipped', note: `abstained: the mention words ${leftovers.join(', ')} are not part of the entity they grounded to`, timeMs: 0 });
      // words of a name that its entity does not spell: the graph lacks that name (say so, with the labels it has near it)
      // (written as names, with capitals: "Ugly Duckling Sunrise" grounded to "Ugly"; else words it cannot place: "Tom Hanks born")
      const names = reading.mentions.filter((m) => wordsOf(m.text).some((w) => leftovers.includes(w))).map((m) => m.text);
      const inNames = leftovers.every((w) => names.some((n) => wordsOf(n).includes(w)) && writtenAsCapitalised(q, w));
      return { rejected: true, abstained: true, doubt: inNames && names.length > 0 ? namedNothingReason(names, this.suggestions(names)) : unexplainedReason(leftovers) };
    }
    let signals = this.signals(win, beam);
    if (this.calibration && !o.noAbstain) {
      let p = calibratedProbability(this.calibration, signals);
      if (p < this.calibration.threshold) {
        const withPrior = await this.priorSignals(q, win, beam, run);
        const p2 = withPrior ? calibratedProbability(this.calibration, withPrior) : 0;
        if (withPrior && p2 > p + 0.005) {
          trace.push({ stage: 'execute', groundedForm: win.attempt.text, outcome: 'answers', note: `graph prior: the graph supports this relation reading (confidence ${p.toFixed(2)} → ${p2.toFixed(2)})`, timeMs: 0 });
          signals = withPrior;
          p = p2;
        }
      }
      if (p < this.calibration.threshold) {
        const doubt = `the parser's best reading, ${win.attempt.candidate.text}, is too uncertain (confidence ${p.toFixed(2)} < ${this.calibration.threshold.toFixed(2)})`;
        trace.push({ stage: 'execute', groundedForm: win.attempt.text, outcome: 'skipped', note: `withheld: ${doubt}`, timeMs: 0 });
        return { rejected: true, abstained: false, doubt, uncertain: { signals, p } };
      }
    }
    // last: a reading that drops part of the question is set aside for one that uses it, or answers with a caveat
    const unused = o.noAbstain ? undefined : unusedWords(reading, checks);
    if (unused && !unused.pass) {
      setAsideRow(trace, win.attempt.text, unused);
      return { rejected: true, abstained: false, doubt: unused.reason, signals, caveat: unused };
    }
    return { rejected: false, abstained: false, signals };
  }

  /** A winner as the checks see it: its beam form, and each mention with the label and match it grounded to. */
  private readingOf(win: Winner): Reading {
    const texts = entityRefsOf(win.attempt.candidate.form);
    const refs = entityRefs(win.attempt.form);
    return {
      form: win.attempt.candidate.text,
      mentions: texts.map((text, i) => {
        const ref = refs[i];
        const label = ref?.kind === 'iri' ? this.index.labelsOf(ref.iri)[0] : undefined;
        return { text, ...(label ? { label } : {}), match: win.attempt.entityMatches?.[i] ?? 'exact' };
      }),
    };
  }

  /** What the checks know besides the reading: the question, the beam's readings, the graph's words. */
  private checkContext(q: string, beam: Candidate[]): CheckContext {
    const relWords = this.relationWordSet();
    return {
      question: q,
      beam: beam.map((c) => ({ form: c.text, mentions: entityRefsOf(c.form) })),
      graphWord: (w) => this.index.hasWord(w),
      relationWord: (w) => relWords.has(w) || relWords.has(stem(w)) || this.index.nonTopicWords.has(w),
    };
  }

  private relationWordsCache: Set<string> | undefined;
  /** Words of the graph's relation names and their stems ("directed", "direct"). */
  private relationWordSet(): Set<string> {
    if (!this.relationWordsCache) {
      const out = new Set<string>();
      for (const iri of this.vocabulary) {
        const name = this.relationName(iri);
        if (name) for (const w of relationWords(name).split(' ')) if (w) out.add(w).add(stem(w));
      }
      this.relationWordsCache = out;
    }
    return this.relationWordsCache;
  }

  /** Labels of the graph near names it lacks, for "did you mean" (best first, at most 3). */
  private suggestions(names: readonly string[]): string[] {
    const out: string[] = [];
    const add = (text: string, k: number, threshold = 0.6) => {
      let found = false;
      for (const h of this.index.search(text, { k, threshold })) {
        found = true;
        if (!out.includes(h.label) && normalizeLabel(h.label) !== normalizeLabel(text)) out.push(h.label);
      }
      return found;
    };
    // the whole name, else each of its words that could be a name ("Hitchcook and Trufaut": each a near miss)
    for (const n of names) if (!add(n, 3)) for (const w of wordsOf(n)) if (w.length >= 5 && !isWeakWord(w) && ![w, ...singularForms(w)].some(commonNoun)) add(w, 1, 0.7);
    return out.slice(0, 3);
  }

  /** Whether some "(JOIN r X)" of the forms, X an entity, is empty on its own: X never takes the relation r. */
  private async vacuousJoin(forms: Form | Form[], run: AttemptRun): Promise<boolean> {
    for (const j of [forms].flat().flatMap(entityJoins).slice(0, 4)) {
      if (halted(run)) return false;
      const te = performance.now();
      try {
        // (ASK (JOIN r X)): one existence check, not the whole set; one that cannot be finished stops the question
        const out = await runCompiled(this.executor, compileForm({ kind: 'ask', arg: j }, this.compileOptions()), { timeoutMs: Math.min(run.o.queryTimeoutMs, run.left()) });
        if (haltOn(run, out, 'checking a join')) return false;
        if (out.answers[0]?.value === 'false') return true;
      } catch {
        return false;
      } finally {
        run.timings.execute += performance.now() - te;
      }
    }
    return false;
  }

  /** Question words the parser was never shown, outside the entity mentions of the first forms (abstain.ts). */
  private unexplained(q: string, beam: Candidate[]): string[] {
    if (!this.knownWords || this.knownWords.size === 0) return [];
    const top = beam[0];
    if (!top) return [];
    // Before grounding: the words outside the mentions (the mentions' own words are checked on the winner).
    const mentions = entityRefsOf(top.form).map((text) => ({ text }));
    // a name of the graph the parser left out ("Lucas") is not a question the graph cannot answer: the readings
    // are judged on whether they use it (checks.ts unusedWords)
    const words = unexplainedWords(q, mentions, this.knownWords);
    const names = graphNames(q, words, (w) => this.index.hasWord(w));
    return words.filter((w) => !names.includes(w));
  }

  /**
   * The question's unexplained words given the winner's mentions and the entities they grounded to: words
   * outside its mentions, and words of a mention that its entity does not spell ("[ the budget of Titanic ]"
   * grounded to Titanic leaves "budget"), that the parser was never shown (abstain.ts).
   */
  private leftoverWords(q: string, win: Winner): string[] {
    if (!this.knownWords || this.knownWords.size === 0) return [];
    const texts = entityRefsOf(win.attempt.candidate.form);
    const iris = entityRefs(win.attempt.form).map((r) => (r.kind === 'iri' ? r.iri : undefined));
    const mentions = texts.map((text, i) => {
      const iri = iris[i];
      return { text, label: iri ? this.index.labelsOf(iri)[0] ?? text : text };
    });
    // the whole question against the winner's own mentions (the check before grounding used the first form's)
    const words = unexplainedWords(q, mentions, this.knownWords);
    // a name of the graph outside every mention is a part of the question the reading leaves out (checks.ts
    // unusedWords), not a word the graph has nothing for
    const inMentions = new Set(texts.flatMap((t) => wordsOf(t)));
    const names = graphNames(q, words.filter((w) => !inMentions.has(w)), (w) => this.index.hasWord(w));
    return words.filter((w) => !names.includes(w));
  }

  /**
   * Topic entities for the fallback: the entities the beam named (searched in the index — the parser
   * finds the mention even when its copy is slightly off), then entity links found in the question.
   */
  private topics(question: string, beam: Candidate[], trace: TraceEntry[]): Topic[] {
    const best = new Map<string, Topic>();
    const checks = this.checkContext(question, beam);
    const add = (t: Topic, text: string, match: 'exact' | 'fuzzy' | 'partial' | 'inflected') => {
      // a topic named only by common words the question does not write as a name ("more" → the film "More") is none
      const weak = weakTitle({ form: '', mentions: [{ text, label: t.label, match }] }, checks);
      if (!weak.pass) {
        if (!trace.some((r) => r.check && r.note?.endsWith(weak.reason!))) setAsideRow(trace, undefined, { ...weak, reason: `as a topic, ${weak.reason}` }, 'fallback');
        return;
      }
      const prev = best.get(t.iri);
      if (!prev || prev.score < t.score) best.set(t.iri, t);
    };
    for (const c of beam.slice(0, 3)) {
      for (const label of entityRefsOf(c.form)) for (const h of this.index.search(label, { k: 2, threshold: 0.6 })) add({ iri: h.iri, label: h.label, score: h.score }, label, h.match ?? (h.exact ? 'exact' : 'fuzzy'));
    }
    for (const l of linkEntities(question, this.index, { k: 5 })) add({ iri: l.iri, label: l.label, score: l.score }, l.text, l.exact ? 'exact' : 'fuzzy');
    return [...best.values()].sort((a, b) => b.score - a.score).slice(0, 5);
  }

  async close(): Promise<void> {
    if (this.ownExecutor) await this.executor.close();
  }
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
