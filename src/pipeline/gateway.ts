import {
  noAnswer,
  AskgraphError,
  type Answer,
  type Candidate,
  type CompiledQuery,
  type Executor,
  type PackConfig,
  type TraceEntry,
  isStopword,
} from '../core';
import { compileForm, packCompileOptions } from '../compile';
import { chainTrace, defaultReaders, DEFAULT_BUDGET, readersByName, runChain } from '../fallback';
import { parseForm } from '../form';
import { entityRefsOf } from './labels';
import { namedNothingReason, unexplainedReason, unexplainedWords, unmatchedNames, wordsOf, type KnownWords } from './abstain';
import { expectedAnswer, yesNoWording } from './wording';
import { type Calibration } from './calibration';
import { leftOut, noAnswerReason, writtenAsCapitalised } from './checks';
import {
  type EntityIndex,
  type Scorer,
} from '../ground';
import { ASK_DEFAULTS, checkAskOptions, validateQuestion, type AskOptions } from './options';
import { halted, stop, type AttemptRun } from './run';
import { fallbackTopics, nearLabels } from './topics';
import { openPack, type GatewayOptions, type ScoringGenerator } from './open';
import type { StartupPhase } from './startup';
import { gatewayContext, groundContext, type GatewayContext } from './context';
import { checkContext } from './judge';
import { readings } from './attempt';
import { choose } from './choose';
import { parserAnswer, stopped } from './answer';

export type { GatewayOptions, ScoringGenerator } from './open';
export { parserConfidence } from './answer';

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
  /** Where createGateway spent its time (cold start; `ask --explain` prints it). */
  readonly startup?: readonly StartupPhase[];
  close(): Promise<void>;
}

export async function createGateway(opts: GatewayOptions = {}): Promise<Gateway> {
  const o = await openPack(opts);
  try {
    const gateway = new PipelineGateway(o.pack, o.executor, o.ownExecutor, o.generator, o.index, opts.defaults ?? {}, opts.entityScorer, o.knownWords, o.calibration);
    o.clock.mark('gateway');
    gateway.startup = o.clock.phases;
    return gateway;
  } catch (e) {
    await o.release();
    throw e;
  }
}

class PipelineGateway implements Gateway {
  readonly version: string;
  startup?: readonly StartupPhase[];
  /** What the steps of a question read of the pack (context.ts). */
  private readonly gw: GatewayContext;

  constructor(
    readonly pack: { dir: string; config: PackConfig },
    readonly executor: Executor,
    private readonly ownExecutor: boolean,
    readonly generator: ScoringGenerator | undefined,
    readonly index: EntityIndex,
    private readonly defaults: AskOptions,
    entityScorer?: Scorer,
    /** Words of the parser's training questions (abstain.ts); undefined = no abstention on unexplained words. */
    knownWords?: KnownWords,
    /** Calibrated confidence and the abstention threshold of the parser (calibration.ts); undefined = raw confidence. */
    calibration?: Calibration,
  ) {
    this.version = `${executor.id}+${generator?.id ?? 'no-parser'}`;
    this.gw = gatewayContext(pack, executor, generator, index, entityScorer, knownWords, calibration);
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
    // Unknown reader names are a bad request whether or not the fallback is reached.
    const readers = o.fallback === 'off' ? [] : Array.isArray(o.fallback) ? readersByName(o.fallback) : defaultReaders();
    const deadline = t0 + o.timeoutMs;
    const trace: TraceEntry[] = [];
    const timings = { generate: 0, ground: 0, execute: 0, fallback: 0, total: 0 };
    const left = () => Math.max(1, Math.floor(deadline - performance.now()));
    const run: AttemptRun = { n: 0, winners: [], vacuous: [], seen: new Set(), trace, timings, t0, deadline, left, o, expected: o.noAbstain ? undefined : expectedAnswer(q), yesNo: o.noAbstain || yesNoWording(q) };
    const ctx = groundContext(this.gw, q);

    // 1. the parser's readings; 2. which of them answers (judged by the named checks, checks.ts)
    const read = o.noParser || !this.generator ? undefined : await readings(this.gw, q, run, ctx);
    if (!read) trace.push({ stage: 'generate', outcome: 'skipped', note: o.noParser ? 'noParser' : 'no parser model', timeMs: 0 });
    if (read?.answer) return read.answer;
    const c = await choose(this.gw, q, read?.win, read?.beam ?? [], run, ctx);
    const beam = c.beam;
    if (run.stopped) return stopped(this.gw, q, run, c.accepted, beam, t0);
    if (c.win) return parserAnswer(this.gw, q, c, run);
    // 3. the fallback readers; they answer with entities: a count or yes/no question they cannot answer in its shape
    let doubt = c.doubt;
    if (!doubt && run.expected) doubt = `no reading of the question as a ${run.expected === 'number' ? 'count or number' : 'yes/no question'} found an answer in the graph`;
    const fallback = await this.fallback(q, beam, run, readers, c.abstained);
    if (fallback) return fallback;
    if (run.stopped) return stopped(this.gw, q, run, undefined, beam, t0);
    timings.total = performance.now() - t0;
    // no doubt of the parser's readings: the reason is read off the trace itself (checks.ts)
    doubt ??= noAnswerReason(trace, (names) => nearLabels(this.index, names));
    return noAnswer(q, { ...(doubt ? { reason: doubt } : {}), beam: beam.map((c) => ({ form: c.text, logProb: c.logProb })), trace, timings });
  }

  /**
   * The fallback readers (evidence from the graph around the question's entities), unless the question abstains
   * first: words nothing the parser was shown explains, or a name of several words no one topic spells. Their
   * answer says what of the question its evidence does not hold (checks.ts leftOut). Undefined: no answer.
   */
  private async fallback(q: string, beam: Candidate[], run: AttemptRun, readers: ReturnType<typeof defaultReaders>, abstained: boolean): Promise<Answer | undefined> {
    const { o, trace, timings, t0 } = run;
    if (o.fallback !== 'off' && !run.expected && !abstained && !halted(run, 'fallback')) {
      const tf = performance.now();
      const topics = fallbackTopics(this.index, checkContext(this.gw, q, beam), q, beam, trace);
      // The readers answer from evidence around the topics: a question word that nothing the parser was shown
      // explains (and that is no topic's name) means the question asks for something else ("the capital of Peru").
      // (the parser's own mentions count as names too: a name the graph lacks is reported as such, not as a word)
      const named = [...topics.map((t) => ({ text: t.label, label: t.label })), ...(beam[0] ? entityRefsOf(beam[0].form).map((text) => ({ text })) : [])];
      const offTopic = this.gw.knownWords && this.gw.knownWords.size > 0 && !o.noAbstain ? unexplainedWords(q, named, this.gw.knownWords) : [];
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
        const reason = placeless.length > 0 ? unexplainedReason(placeless) : namedNothingReason(unnamed, nearLabels(this.index, unnamed));
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
        budget: { ...DEFAULT_BUDGET, timeMs: run.left() },
        ...(scorer ? { scorer } : {}),
        ...(this.gw.relationVocabulary ? { relationVocabulary: this.gw.relationVocabulary } : {}),
        labelPredicates: [...this.pack.config.labelPredicates, ...(this.pack.config.aliasPredicates ?? [])],
      });
      trace.push(...chainTrace(chain));
      timings.fallback = performance.now() - tf;
      if (chain.stopped) {
        stop(run, 'fallback', chain.stopped.code, chain.stopped.message);
        return stopped(this.gw, q, run, undefined, beam, t0);
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

    return undefined;
  }

  async close(): Promise<void> {
    if (this.ownExecutor) await this.executor.close();
  }
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
