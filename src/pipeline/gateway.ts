import {
  noAnswer,
  AskgraphError,
  type Answer,
  type CompiledQuery,
  type Executor,
  type PackConfig,
  type TraceEntry,
} from '../core';
import { compileForm, packCompileOptions } from '../compile';
import { defaultReaders, readersByName } from '../fallback';
import { parseForm } from '../form';
import { type KnownWords } from './abstain';
import { expectedAnswer, yesNoWording } from './wording';
import { type Calibration } from './calibration';
import { hearingAgain, noAnswerReason, secondHearingAnswers } from './checks';
import {
  type EntityIndex,
  type Scorer,
  warmLexical,
} from '../ground';
import { ASK_DEFAULTS, checkAskOptions, validateQuestion, type AskOptions } from './options';
import { isStopped, type AttemptRun } from './run';
import { nearLabels } from './topics';
import { openPack, type GatewayOptions, type ScoringGenerator } from './open';
import type { StartupPhase } from './startup';
import { gatewayContext, groundContext, reheard, respelled, respeltText, type GatewayContext, type Respelt } from './context';
import { readings } from './attempt';
import { choose } from './choose';
import { parserAnswer, stopped } from './answer';
import { fallbackStep } from './fallback-step';

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
    if (opts.warm) {
      warmLexical();
      o.index.warm();
      o.clock.mark('warm', 'entity index lookups by IRI and by word, word vectors, WordNet');
    }
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
    const asked = validateQuestion(question);
    const o = { ...ASK_DEFAULTS, ...this.defaults, ...definedOnly(askOpts) };
    checkAskOptions(o);
    // the question read as meant: its typos and misheard words respelt (context.ts respelled); the answer keeps the
    // question as asked
    const spelt = respelled(this.gw, asked);
    let answer = await this.answer(spelt.question, o, t0, spelt.respelt);
    // a question that found no answer for its words, or that no reading of the parser's answered (the fallback's
    // evidence did), is heard again (context.ts reheard), and answered so if that finds an answer — a reading of the
    // parser's, where the fallback answered; a second hearing that the time budget stopped says so (never the first
    // answer instead)
    // (a question read without the parser is not: only a reading of the parser's takes the fallback's place)
    const why = o.noParser || !this.generator ? undefined : hearingAgain(answer);
    const again = why ? reheard(this.gw, spelt.question) : undefined;
    if (why && again && again.respelt.length > 0) {
      const second = await this.answer(again.question, o, t0, spelt.respelt);
      if (secondHearingAnswers(why, second)) {
        const as = why === 'refused' ? `the question as heard found no answer (${answer.reason ?? 'no reading answered'})` : 'no reading of the question as heard answered';
        const heard = `heard again, as ${as}: ${respeltText(again.respelt)}`;
        second.trace.unshift({ stage: 'generate', outcome: 'answers', note: heard, timeMs: 0 });
        // (the answer says so too: a person sees which words it took for misheard)
        answer = second.partial ? second : { ...second, reason: second.reason ? `${heard}; ${second.reason}` : heard };
      }
    }
    return answer.question !== asked ? { ...answer, question: asked } : answer;
  }

  private async answer(q: string, o: AskOptions & typeof ASK_DEFAULTS, t0: number, respelt: Respelt['respelt']): Promise<Answer> {
    // Unknown reader names are a bad request whether or not the fallback is reached.
    const readers = o.fallback === 'off' ? [] : Array.isArray(o.fallback) ? readersByName(o.fallback) : defaultReaders();
    const deadline = t0 + o.timeoutMs;
    const trace: TraceEntry[] = [];
    const timings = { generate: 0, ground: 0, execute: 0, fallback: 0, total: 0 };
    const left = () => Math.max(1, Math.floor(deadline - performance.now()));
    const run: AttemptRun = { n: 0, winners: [], vacuous: [], seen: new Set(), trace, timings, t0, deadline, left, o, expected: o.noAbstain ? undefined : expectedAnswer(q), yesNo: o.noAbstain === true || yesNoWording(q) };
    const ctx = groundContext(this.gw, q);
    if (respelt.length > 0) trace.push({ stage: 'generate', outcome: 'answers', note: `read with typos or misheard words respelt: ${respeltText(respelt)}`, timeMs: 0 });

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
    const fallback = await fallbackStep(this.gw, q, beam, run, readers, c.abstained);
    if (fallback) return fallback;
    if (isStopped(run)) return stopped(this.gw, q, run, undefined, beam, t0);
    timings.total = performance.now() - t0;
    // no doubt of the parser's readings: the reason is read off the trace itself (checks.ts)
    doubt ??= noAnswerReason(trace, (names) => nearLabels(this.index, names));
    return noAnswer(q, { ...(doubt ? { reason: doubt } : {}), beam: beam.map((c) => ({ form: c.text, logProb: c.logProb })), trace, timings });
  }

  async close(): Promise<void> {
    if (this.ownExecutor) await this.executor.close();
  }
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
