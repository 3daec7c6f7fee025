import {
  noAnswer,
  AskgraphError,
  TRANSIENT_CODES,
  type Answer,
  type Candidate,
  type CompiledQuery,
  type Executor,
  type PackConfig,
  type TraceEntry,
  defined,
  isStopword,
  nameInNamespace,
  stem,
} from '../core';
import { compileForm, packCompileOptions } from '../compile';
import { runCompiled } from '../execute';
import { chainTrace, defaultReaders, DEFAULT_BUDGET, loadRelationVocabulary, readersByName, runChain, type RelationVocabulary } from '../fallback';
import { answerTypeOf, entityRefs, parseForm } from '../form';
import { entityRefsOf } from './labels';
import { expectedAnswer, namedNothingReason, unexplainedReason, unexplainedWords, unmatchedNames, wordsOf, yesNoWording, type KnownWords } from './abstain';
import { calibratedProbability, signalsOf, type Calibration, type Signals } from './calibration';
import { answerShape, graphNames, leftOut, noAnswerReason, ownValueMissing, setAsideRow, tooUncertain, unexplainedMentionWords, writtenAsCapitalised, unusedWords, weakTitle, type CheckContext, type Reading, type Verdict } from './checks';
import {
  relationWords,
  groundCandidates,
  RelationRetriever,
  type EntityIndex,
  type GroundAttempt,
  type GroundContext,
  type RelationInfo,
  type Scorer,
} from '../ground';
import { ASK_DEFAULTS, checkAskOptions, validateQuestion, type AskOptions } from './options';
import { bestReading, halted, haltOn, isStopped, stop, type AttemptRun, type Winner } from './run';
import { GraphPrior } from './prior';
import { subtracted, vacuousJoin } from './probes';
import { fallbackTopics, nearLabels } from './topics';
import { openPack, type GatewayOptions, type ScoringGenerator } from './open';
import type { StartupPhase } from './startup';

export type { GatewayOptions, ScoringGenerator } from './open';

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

/** The outcome of choose(): the reading that answers (if any), with its caveat, or why none does. */
interface Choice {
  beam: Candidate[];
  win?: Winner;
  signals?: Signals;
  /** What the answering reading leaves out of the question (its confidence is then ≤ 0.6). */
  caveat?: string;
  /** The calibrated confidence of a reading withheld as too uncertain that answers after all. */
  uncertain?: number;
  doubt?: string;
  abstained: boolean;
  /** A stopped run: the reading already accepted when it stopped. */
  accepted?: { win: Winner; signals?: Signals };
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




/** What an answer says of the reading that gave it: its answers, their type, the forms, the SPARQL. */
function readingFields(win: Winner): Pick<Answer, 'answers' | 'answerType' | 'form' | 'groundedForm' | 'sparql' | 'source'> {
  return {
    answers: win.answers,
    answerType: win.compiled.answerType ?? 'entities',
    form: win.attempt.candidate.text,
    groundedForm: win.attempt.text,
    sparql: win.compiled.sparql,
    source: 'parser',
  };
}

class PipelineGateway implements Gateway {
  readonly version: string;
  startup?: readonly StartupPhase[];
  private readonly relations: RelationRetriever;
  private readonly vocabulary: Set<string>;
  /** Question words ↔ relations mined from the pack's training data (fallback readers rank chains with it). */
  private readonly relationVocabulary: RelationVocabulary | undefined;
  /** The graph prior on a reading's relation (prior.ts). */
  private readonly prior: GraphPrior;

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
    this.prior = new GraphPrior({ executor, index, vocabulary: this.vocabulary, generator, config: pack.config, relationName: (iri) => this.relationName(iri) });
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
    // Unknown reader names are a bad request whether or not the fallback is reached.
    const readers = o.fallback === 'off' ? [] : Array.isArray(o.fallback) ? readersByName(o.fallback) : defaultReaders();
    const deadline = t0 + o.timeoutMs;
    const trace: TraceEntry[] = [];
    const timings = { generate: 0, ground: 0, execute: 0, fallback: 0, total: 0 };
    const left = () => Math.max(1, Math.floor(deadline - performance.now()));
    const run: AttemptRun = { n: 0, winners: [], vacuous: [], seen: new Set(), trace, timings, t0, deadline, left, o, expected: o.noAbstain ? undefined : expectedAnswer(q), yesNo: (o.noAbstain ?? false) || yesNoWording(q) };
    const ctx = this.groundContext(q);

    // 1. the parser's readings; 2. which of them answers (judged by the named checks, checks.ts)
    const read = o.noParser || !this.generator ? undefined : await this.readings(q, run, ctx);
    if (!read) trace.push({ stage: 'generate', outcome: 'skipped', note: o.noParser ? 'noParser' : 'no parser model', timeMs: 0 });
    if (read?.answer) return read.answer;
    const c = await this.choose(q, read?.win, read?.beam ?? [], run, ctx);
    const beam = c.beam;
    if (isStopped(run)) return this.stopped(q, run, c.accepted, beam, t0);
    if (c.win) return this.parserAnswer(q, c, run);
    // 3. the fallback readers; they answer with entities: a count or yes/no question they cannot answer in its shape
    let doubt = c.doubt;
    if (!doubt && run.expected) doubt = `no reading of the question as a ${run.expected === 'number' ? 'count or number' : 'yes/no question'} found an answer in the graph`;
    const fallback = await this.fallback(q, beam, run, readers, c.abstained);
    if (fallback) return fallback;
    if (isStopped(run)) return this.stopped(q, run, undefined, beam, t0);
    timings.total = performance.now() - t0;
    // no doubt of the parser's readings: the reason is read off the trace itself (checks.ts)
    doubt ??= noAnswerReason(trace, (names) => nearLabels(this.index, names));
    return noAnswer(q, { ...(doubt ? { reason: doubt } : {}), beam: beam.map((c) => ({ form: c.text, logProb: c.logProb })), trace, timings });
  }

  /** What grounding reads: the entity index, the relation retriever, the graph's relations, the pack's names. */
  private groundContext(q: string): GroundContext {
    return {
      index: this.index,
      relations: this.relations,
      vocabulary: this.vocabulary,
      vocabularyNamespace: this.pack.config.vocabularyNamespace,
      ...(this.pack.config.names ? { names: this.pack.config.names } : {}),
      question: q,
      ...(this.entityScorer ? { scorer: this.entityScorer } : {}),
    };
  }

  /**
   * The parser's readings of the question, executed in order (attempt): the greedy form first with exact grounding
   * (adaptive beam), else the full beam and all of Algorithm 1. The beam and the best reading found; or the
   * no-answer when the question has words the parser was never shown, outside its mentions.
   */
  private async readings(q: string, run: AttemptRun, ctx: GroundContext): Promise<{ beam: Candidate[]; win?: Winner; answer?: Answer }> {
    const { o, trace, timings, t0 } = run;
    let beam: Candidate[] = [];
    // Adaptive beam: the greedy form first, exact grounding only (most questions end here); the
    // full beam and Algorithm 1 only when it does not answer. adaptiveBeam: false = always the full beam.
    const adaptive = o.adaptiveBeam && o.beam > 1;
    const first = await this.generate(q, adaptive ? 1 : o.beam, run);
    const unexplained = o.noAbstain || isStopped(run) ? [] : this.unexplained(q, first);
    if (unexplained.length > 0) {
      const reason = unexplainedReason(unexplained);
      trace.push({ stage: 'generate', outcome: 'skipped', note: `abstained: unexplained words ${unexplained.join(', ')}`, timeMs: 0 });
      timings.total = performance.now() - t0;
      return { beam, answer: noAnswer(q, { reason, beam: first.map((c) => ({ form: c.text, logProb: c.logProb })), trace, timings }) };
    }
    if (adaptive) {
      const greedy = first;
      if (greedy.length > 0) {
        beam = greedy;
        await this.attempt(groundCandidates(this.fitting(greedy, run), ctx, { ...o, exactOnly: true }), run, greedy, false);
      }
    }
    if (run.winners.length === 0 && !isStopped(run)) {
      const full = adaptive ? await this.generate(q, o.beam, run) : first;
      if (full.length > 0 && !isStopped(run)) {
        beam = full;
        await this.attempt(groundCandidates(this.fitting(full, run), ctx, o), run, full, true);
      }
    }
    const win = bestReading(run);
    return { beam, ...(win ? { win } : {}) };
  }

  /**
   * Which reading answers: the graph prior on the best reading's relation, then judge(); a reading set aside
   * does not end the search (the next groundings and beam forms, up to MAX_REJUDGED more), then the last resort
   * (a vacuous reading), then a reading set aside only for what it leaves out (answers with a caveat) or one
   * withheld only as too uncertain that reads the whole question. A stopped run returns what was accepted.
   */
  private async choose(q: string, win: Winner | undefined, beam: Candidate[], run: AttemptRun, ctx: GroundContext): Promise<Choice> {
    const { o, trace } = run;
    if (win && !o.noAbstain && !isStopped(run)) win = await this.prior.relationPrior(q, win, run);

    let verdict = win && !isStopped(run) ? await this.judge(q, win, beam, run) : undefined;
    // the first reading set aside only for a part of the question it leaves out: the answer if no reading uses it
    let caveated = win && verdict?.caveat ? { win, verdict, caveat: verdict.caveat } : undefined;
    // the first reading withheld only as too uncertain (it may use what a better-scored one leaves out)
    let complete = win && verdict?.uncertain ? { win, verdict, uncertain: verdict.uncertain } : undefined;
    const setAside = [...run.vacuous]; // vacuous readings of every pass, the last resort
    // A reading set aside (a word it leaves unexplained, or too uncertain) does not end the search: the next
    // groundings and beam forms are tried, a few times, before the question goes to the fallback or abstains
    // ("spielberg films": the tag "spielberg" is too uncertain, Steven Spielberg's films are not).
    // (a time budget spent on the way stops the question, timed out: it never decides which reading wins)
    for (let retry = 0; win && verdict?.rejected && !o.noAbstain && retry < MAX_REJUDGED && !halted(run); retry++) {
      if (beam.length < o.beam) {
        const full = await this.generate(q, o.beam, run);
        if (full.length > 0) beam = full;
        if (isStopped(run)) break;
      }
      run.winners = [];
      run.vacuous = [];
      await this.attempt(groundCandidates(this.fitting(beam, run), ctx, o), run, beam, false);
      if (isStopped(run)) break;
      setAside.push(...run.vacuous);
      let next = bestReading(run);
      if (!next) break;
      next = await this.prior.relationPrior(q, next, run);
      if (isStopped(run)) break;
      const v = await this.judge(q, next, beam, run);
      if (isStopped(run)) break;
      if (!v.rejected) {
        win = next;
        verdict = v;
      } else if (v.caveat && !caveated) caveated = { win: next, verdict: v, caveat: v.caveat };
      else if (v.uncertain && !complete) complete = { win: next, verdict: v, uncertain: v.uncertain };
    }
    // every reading with answers was set aside: a vacuous count is the graph's answer after all ("how many films
    // did Brad Pitt direct": 0), unless it asks for a fact the graph lacks (judge)
    const lastResort = win && verdict?.rejected && !win.vacuous && !isStopped(run) ? setAside.find((w) => w !== win) : undefined;
    if (lastResort) {
      const v = await this.judge(q, lastResort, beam, run);
      if (!v.rejected) {
        win = lastResort;
        verdict = v;
      }
    }
    if (isStopped(run)) return { beam, abstained: false, ...(win && verdict && !verdict.rejected ? { accepted: { win, signals: verdict.signals } } : {}) };
    // no reading uses what the set-aside one left out: it answers, and the answer says what it left out
    let caveat: string | undefined;
    let uncertain: number | undefined;
    // a reading that reads the whole question beats one that drops part of it, though the parser was unsure of it
    const whole = caveated && complete && complete.win !== caveated.win ? unusedWords(this.readingOf(complete.win), this.checkContext(q, beam)) : undefined;
    if (win && verdict?.rejected && caveated && complete && whole?.pass) {
      const dropped = caveated.caveat;
      const words = dropped.words ?? [];
      win = complete.win;
      verdict = { rejected: false, abstained: false, signals: complete.uncertain.signals };
      uncertain = complete.uncertain.p;
      caveat = `the reading ${caveated.win.attempt.candidate.text} leaves out ${words.map((w) => `"${w}"`).join(', ')}; this reading uses ${words.length > 1 ? 'them' : 'it'}, but the parser was unsure of it (confidence ${uncertain.toFixed(2)})`;
      trace.push({ stage: 'execute', groundedForm: win.attempt.text, outcome: 'answers', answerCount: win.answers.length, note: `answered: ${caveat}`, check: { name: dropped.check, code: dropped.code ?? '' }, timeMs: 0 });
    } else if (win && verdict?.rejected && caveated) {
      win = caveated.win;
      verdict = { ...caveated.verdict, rejected: false };
      const dropped = caveated.caveat;
      caveat = `${dropped.reason ?? dropped.check}: no reading that uses ${(dropped.words ?? []).length > 1 ? 'them' : 'it'} found an answer`;
      trace.push({ stage: 'execute', groundedForm: win.attempt.text, outcome: 'answers', answerCount: win.answers.length, note: `answered with a caveat: ${caveat}`, check: { name: dropped.check, code: dropped.code ?? '' }, timeMs: 0 });
    }
    let doubt: string | undefined;
    let abstained = false;
    let signals: Signals | undefined;
    if (win && verdict?.rejected) {
      doubt = verdict.doubt;
      abstained = verdict.abstained;
      win = undefined;
    } else signals = verdict?.signals;

    return { beam, abstained, ...(win ? { win } : {}), ...(signals ? { signals } : {}), ...(caveat ? { caveat } : {}), ...(uncertain !== undefined ? { uncertain } : {}), ...(doubt ? { doubt } : {}) };
  }

  /** The answer of the reading chosen (its confidence: calibrated, capped at 0.6 with a caveat). */
  private parserAnswer(q: string, c: Choice, run: AttemptRun): Answer {
    const { trace, timings, t0 } = run;
    const { beam, caveat, uncertain, signals } = c;
    const win = defined(c.win, 'the winning reading');
    timings.total = performance.now() - t0;
    return {
      question: q,
      ...readingFields(win),
      // an answer that leaves part of the question out is no more certain than a fallback answer
      confidence: uncertain ?? Math.min(caveat ? PARSER_FLOOR : 1, this.calibration && signals ? calibratedProbability(this.calibration, signals) : parserConfidence(win.attempt)),
      ...(caveat ? { reason: caveat } : {}),
      ...(signals ? { signals } : {}),
      beam: beam.map((c) => ({ form: c.text, logProb: c.logProb })),
      trace,
      timings,
    };
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
      const topics = fallbackTopics(this.index, this.checkContext(q, beam), q, beam, trace);
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
        const reason = placeless.length > 0 ? unexplainedReason(placeless) : namedNothingReason(unnamed, nearLabels(this.index, unnamed));
        trace.push({ stage: 'fallback', outcome: 'skipped', note: `abstained: ${reason}`, timeMs: 0 });
        timings.total = performance.now() - t0;
        return noAnswer(q, { reason, beam: beam.map((c) => ({ form: c.text, logProb: c.logProb })), trace, timings });
      }
      const score = this.generator?.score?.bind(this.generator);
      const scorer = score ? (question: string, forms: string[]) => score(question, forms) : undefined;
      const chain = await runChain(readers, {
        question: q,
        topics,
        executor: this.executor,
        // the readers' work bound is their queries and rows; their time is what is left of the question's, and
        // running out of it stops the question (chain.stopped), it never hands the question to the next reader
        budget: { ...DEFAULT_BUDGET, timeMs: run.left() },
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
        const held = JSON.stringify(chain.result.evidence) + trace.filter((t) => t.stage === 'fallback' && t.reader === chain.reader).map((t) => t.note ?? '').join(' ');
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

  /**
   * The answer of a stopped question (run.stopped): marked `partial` (and `timedOut` when its time ran out),
   * with the answers of a reading already accepted when it stopped, if any — never of a reading that won
   * because another could not be finished. The trace ends with the step that stopped it.
   */
  private stopped(q: string, run: AttemptRun, accepted: { win: Winner; signals?: Signals } | undefined, beam: Candidate[], t0: number): Answer {
    const s = defined(run.stopped, 'the stop of a stopped run');
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
      ...readingFields(win),
      confidence: this.calibration && signals ? calibratedProbability(this.calibration, signals) : parserConfidence(win.attempt),
      reason,
      ...marks,
      beam: beamOut,
      trace: run.trace,
      timings: run.timings,
    };
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
      const res = await defined(this.generator, 'the parser').generate(q, { beam });
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
  /**
   * The beam forms whose answer shape fits the question (answerShape): the shape is the form's, the same for
   * every grounding of it, so a form that does not fit is set aside once, with one trace row, before grounding
   * (its groundings could be many thousands, each one a skipped row).
   */
  private fitting(cands: Candidate[], run: AttemptRun): Candidate[] {
    return cands.filter((c) => {
      const fits = answerShape({ form: c.text, mentions: [], answerType: answerTypeOf(c.form) }, { question: '', beam: [], ...(run.expected ? { expected: run.expected } : {}), yesNo: run.yesNo });
      if (fits.pass) return true;
      if (!run.trace.some((t) => t.beamForm === c.text && t.check?.code === fits.code)) {
        run.trace.push({ stage: 'execute', beamForm: c.text, outcome: 'skipped', note: fits.reason ?? fits.check, check: { name: fits.check, code: fits.code ?? '' }, timeMs: 0 });
      }
      return false;
    });
  }

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
      const fits = answerShape({ form: a.candidate.text, mentions: [], answerType: shape }, { question: '', beam: [], ...(run.expected ? { expected: run.expected } : {}), yesNo: run.yesNo });
      if (!fits.pass) {
        trace.push({ stage: 'execute', beamForm: a.candidate.text, groundedForm: a.text, score: a.score, outcome: 'skipped', note: fits.reason ?? fits.check, check: { name: fits.check, code: fits.code ?? '' }, timeMs: 0 });
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
      if (out.status === 'answers' && (shape !== 'entities' || negated.length > 0) && (await vacuousJoin(this.executor, this.pack.config, shape !== 'entities' ? a.form : negated, run))) {
        // a count or yes/no answers even over an empty set: "0" from a grounding whose entity never takes that
        // relation (a tag where a person was meant) is kept only in case no other reading answers; so is a DIFF
        // that takes away nothing ("… that aren't comedies" with the tag "comedy" for the genre)
        run.vacuous.push({ attempt: a, compiled, answers: out.answers, vacuous: true });
        trace.push({ stage: 'execute', groundedForm: a.text, outcome: 'skipped', note: 'set aside: an entity of this reading never takes its relation', timeMs: 0 });
        continue;
      }
      if (isStopped(run)) break; // the existence check could not be finished
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
   * Whether a reading may be the answer: the named checks of checks.ts in order — ownValueMissing (abstained),
   * weakTitle, unexplainedMentionWords (abstained: the question asks about something the graph lacks),
   * tooUncertain with a calibration (with the graph prior's support when the parser alone is not sure), and
   * unusedWords last (a caveat: answers if no reading uses what it leaves out). The trace says why not.
   */
  private async judge(q: string, win: Winner, beam: Candidate[], run: AttemptRun): Promise<Judgement> {
    const { o, trace } = run;
    if (o.noAbstain) return { rejected: false, abstained: false, signals: this.signals(win, beam) };
    const row = (v: Verdict, note: string) => trace.push({ stage: 'execute', groundedForm: win.attempt.text, outcome: 'skipped', note, check: { name: v.check, code: v.code ?? '' }, timeMs: 0 });
    const reading = this.readingOf(win);
    const checks = this.checkContext(q, beam);
    const own = ownValueMissing(reading, checks);
    if (!own.pass) {
      row(own, `abstained: ${own.reason}`);
      return { rejected: true, abstained: true, doubt: own.reason };
    }
    const weak = weakTitle(reading, checks);
    if (!weak.pass) {
      setAsideRow(trace, win.attempt.text, weak);
      return { rejected: true, abstained: false, doubt: weak.reason };
    }
    const unexplained = unexplainedMentionWords(reading, checks);
    if (!unexplained.pass) {
      row(unexplained, `abstained: the mention words ${(unexplained.words ?? []).join(', ')} are not part of the entity they grounded to`);
      return { rejected: true, abstained: true, doubt: unexplained.reason };
    }
    let signals = this.signals(win, beam);
    let sure = tooUncertain({ ...reading, signals }, checks);
    if (!sure.pass) {
      const withPrior = await this.prior.priorSignals(q, win, beam, run);
      const p = sure.confidence ?? 0;
      const p2 = withPrior && this.calibration ? calibratedProbability(this.calibration, withPrior) : 0;
      if (withPrior && p2 > p + 0.005) {
        trace.push({ stage: 'execute', groundedForm: win.attempt.text, outcome: 'answers', note: `graph prior: the graph supports this relation reading (confidence ${p.toFixed(2)} → ${p2.toFixed(2)})`, timeMs: 0 });
        signals = withPrior;
        sure = tooUncertain({ ...reading, signals }, checks);
      }
    }
    if (!sure.pass) {
      row(sure, `withheld: ${sure.reason}`);
      return { rejected: true, abstained: false, doubt: sure.reason, uncertain: { signals, p: sure.confidence ?? 0 } };
    }
    // last: a reading that drops part of the question is set aside for one that uses it, or answers with a caveat
    const unused = unusedWords(reading, checks);
    if (!unused.pass) {
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
      tree: win.attempt.candidate.form,
      ...(win.vacuous ? { vacuous: true } : {}),
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
      ...(this.knownWords ? { knownWords: this.knownWords } : {}),
      near: (names) => nearLabels(this.index, names),
      ...(this.calibration ? { calibration: this.calibration } : {}),
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

  async close(): Promise<void> {
    if (this.ownExecutor) await this.executor.close();
  }
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
