/** The parser's answer: its confidence (`parserConfidence`), the answer of the chosen reading (`parserAnswer`), the answer of a stopped question (`stopped`). */
import {
  defined,
  noAnswer,
  type Answer,
  type Candidate,
} from '../core';
import { calibratedProbability, type Signals } from './calibration';
import {
  type GroundAttempt,
} from '../ground';
import { type AttemptRun, type Winner } from './run';
import { type GatewayContext } from './context';
import { type Choice } from './choose';

/** Parser confidence lives on [0.6, 1]; fallback readers are capped at 0.6 (src/fallback/chain.ts). */
export const PARSER_FLOOR = 0.6;

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

/** What an answer says of the reading that gave it: its answers, their type, the forms, the SPARQL. */
export function readingFields(win: Winner): Pick<Answer, 'answers' | 'answerType' | 'table' | 'form' | 'groundedForm' | 'sparql' | 'source'> {
  return {
    answers: win.answers,
    ...(win.table ? { table: win.table } : {}),
    answerType: win.compiled.answerType ?? 'entities',
    form: win.attempt.candidate.text,
    groundedForm: win.attempt.text,
    sparql: win.compiled.sparql,
    source: 'parser',
  };
}

/** The answer of the reading chosen (its confidence: calibrated, capped at 0.6 with a caveat). */
export function parserAnswer(gw: GatewayContext, q: string, c: Choice, run: AttemptRun): Answer {
  const { trace, timings, t0 } = run;
  const { beam, caveat, uncertain, signals } = c;
  const win = defined(c.win, 'the chosen reading');
  timings.total = performance.now() - t0;
  return {
    question: q,
    ...readingFields(win),
    // an answer that leaves part of the question out is no more certain than a fallback answer
    confidence: uncertain ?? Math.min(caveat ? PARSER_FLOOR : 1, gw.calibration && signals ? calibratedProbability(gw.calibration, signals) : parserConfidence(win.attempt)),
    ...(caveat ? { reason: caveat } : {}),
    ...(signals ? { signals } : {}),
    beam: beam.map((c) => ({ form: c.text, logProb: c.logProb })),
    trace,
    timings,
  };
}

/**
 * The answer of a stopped question (run.stopped): marked `partial` (and `timedOut` when its time ran out),
 * with the answers of a reading already accepted when it stopped, if any — never of a reading that won
 * because another could not be finished. The trace ends with the step that stopped it.
 */
export function stopped(gw: GatewayContext, q: string, run: AttemptRun, accepted: { win: Winner; signals?: Signals } | undefined, beam: Candidate[], t0: number): Answer {
  const s = defined(run.stopped, 'why the run stopped');
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
    confidence: gw.calibration && signals ? calibratedProbability(gw.calibration, signals) : parserConfidence(win.attempt),
    reason,
    ...marks,
    beam: beamOut,
    trace: run.trace,
    timings: run.timings,
  };
}
