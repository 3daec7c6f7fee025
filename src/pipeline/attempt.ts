/**
 * Running the parser's readings: ground each beam form (Algorithm 1, src/ground), compile and execute the grounded
 * forms in order (`attempt`), the adaptive beam (`readings`: greedy form first, exact grounding, else the full beam).
 */
import {
  defined,
  noAnswer,
  AskgraphError,
  TRANSIENT_CODES,
  type Answer,
  type Candidate,
  type CompiledQuery,
} from '../core';
import { compileForm, packCompileOptions } from '../compile';
import { runCompiled } from '../execute';
import { answerTypeOf } from '../form';
import { nothingNearReason } from './abstain';
import { formFits, wordsOfNames } from './checks';
import {
  groundCandidates,
  type GroundAttempt,
  type GroundContext,
} from '../ground';
import { bestReading, halted, haltOn, isStopped, stop, storeStep, type AttemptRun, type Winner } from './run';
import { copiedTextsOf } from './labels';
import { linkedNames } from './typed';
import { subtracted, vacuousJoin } from './probes';
import { farWords, nearGraph, type GatewayContext } from './context';
import { fitting, generate } from './generate-pass';
import { unexplainedQuestionWords } from './judge';

/**
 * The parser's readings of the question, executed in order (attempt): the greedy form first with exact grounding
 * (adaptive beam), else the full beam and all of Algorithm 1. The beam and the best reading found; or the
 * no-answer when the question has words the parser was never shown, outside its mentions.
 */
export async function readings(gw: GatewayContext, q: string, run: AttemptRun, ctx: GroundContext): Promise<{ beam: Candidate[]; win?: Winner; answer?: Answer }> {
  const { o, trace, timings, t0 } = run;
  let beam: Candidate[] = [];
  // Adaptive beam: the greedy form first, exact grounding only (most questions end here); the
  // full beam and Algorithm 1 only when it does not answer. adaptiveBeam: false = always the full beam.
  const adaptive = o.adaptiveBeam && o.beam > 1;
  const first = await generate(gw, q, adaptive ? 1 : o.beam, run);
  // words the parser was never shown refuse the question only when nothing of the graph is near them (checks.ts
  // nothingNear); the others are left to the readings' calibrated confidence
  let unexplained = o.noAbstain || run.stopped ? [] : unexplainedQuestionWords(gw, q, first);
  // a word that names a condition on the class the question asks for ("which **networking** products …": a category of
  // the graph) is a name of the graph, not a question it cannot answer: the readings must use it (checks.ts unusedWords)
  const top = first[0];
  if (unexplained.length > 0 && top) {
    const linked = (await storeStep(run, 'generate', 'the names of conditions on the class asked for', (t) => linkedNames(gw, q, copiedTextsOf(top.form), t, top.form), [])) ?? [];
    const named = wordsOfNames(linked);
    unexplained = unexplained.filter((w) => !named.has(w));
  }
  const far = farWords(gw, unexplained);
  if (far.length > 0) {
    const reason = nothingNearReason(far);
    trace.push({ stage: 'generate', outcome: 'skipped', note: `abstained: ${reason}`, check: { name: 'nothingNear', code: 'NOTHING_NEAR' }, timeMs: 0 });
    timings.total = performance.now() - t0;
    return { beam, answer: noAnswer(q, { reason, beam: first.map((c) => ({ form: c.text, logProb: c.logProb })), trace, timings }) };
  }
  // a word near the graph that reads as none of its relations clearly keeps the closed-vocabulary rule (checks.ts wordNotRead)
  const unclear = unexplained.filter((w) => !nearGraph(gw).clearRelation(w));
  if (unclear.length > 0) {
    const reason = `${unclear.slice(0, 3).map((w) => `"${w}"`).join(', ')} ${unclear.length > 1 ? 'were' : 'was'} never asked of this graph and ${unclear.length > 1 ? 'read' : 'reads'} as none of its relations clearly`;
    trace.push({ stage: 'generate', outcome: 'skipped', note: `abstained: ${reason}`, check: { name: 'wordNotRead', code: 'WORD_NOT_READ' }, timeMs: 0 });
    timings.total = performance.now() - t0;
    return { beam, answer: noAnswer(q, { reason, beam: first.map((c) => ({ form: c.text, logProb: c.logProb })), trace, timings }) };
  }
  if (unexplained.length > 0) trace.push({ stage: 'generate', outcome: 'answers', note: `words the parser was never shown, read as relations: ${unexplained.map((w) => `"${w}" → ${nearGraph(gw).clearRelation(w)?.note ?? ''}`).join(', ')}`, timeMs: 0 });
  if (adaptive) {
    const greedy = first;
    if (greedy.length > 0) {
      beam = greedy;
      await attempt(gw, groundCandidates(fitting(greedy, run), ctx, { ...o, exactOnly: true }), run, greedy, false);
    }
  }
  if (run.winners.length === 0 && !run.stopped) {
    const full = adaptive ? await generate(gw, q, o.beam, run) : first;
    if (full.length > 0 && !isStopped(run)) {
      beam = full;
      await attempt(gw, groundCandidates(fitting(full, run), ctx, o), run, full, true);
    }
  }
  const win = bestReading(run);
  return { beam, ...(win ? { win } : {}) };
}

/**
 * Compiles and executes grounded forms in order until the strategy is satisfied, or the run has executed `maxAttempts`
 * forms (default the option's); every attempt goes to the trace.
 */
export async function attempt(gw: GatewayContext, attempts: AsyncGenerator<GroundAttempt>, run: AttemptRun, beam: Candidate[], reportUngrounded: boolean, maxAttempts = run.o.maxAttempts): Promise<void> {
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
    const fits = formFits({ form: a.candidate.text, mentions: [], answerType: shape, tree: a.form }, { question: '', beam: [], ...(run.expected ? { expected: run.expected } : {}), yesNo: run.yesNo });
    if (!fits.pass) {
      trace.push({ stage: 'execute', beamForm: a.candidate.text, groundedForm: a.text, score: a.score, outcome: 'skipped', note: defined(fits.reason, 'reason of a failed formFits'), check: { name: fits.check, code: fits.code ?? '' }, timeMs: 0 });
      continue;
    }
    if (run.n >= maxAttempts) {
      trace.push({ stage: 'execute', beamForm: a.candidate.text, groundedForm: a.text, score: a.score, outcome: 'skipped', note: `maxAttempts ${maxAttempts} reached`, timeMs: 0 });
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
      compiled = compileForm(a.form, packCompileOptions(gw.pack.config));
    } catch (e) {
      const err = e instanceof AskgraphError ? e : new AskgraphError('INTERNAL', (e as Error).message);
      trace.push({ stage: 'execute', beamForm: a.candidate.text, groundedForm: a.text, score: a.score, outcome: 'error', error: { code: err.code, message: err.message }, note: a.phase, timeMs: performance.now() - te });
      timings.execute += performance.now() - te;
      continue;
    }
    const out = await runCompiled(gw.executor, compiled, { timeoutMs: Math.min(o.queryTimeoutMs, run.left()) });
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
      note: `${a.phase} (beam rank ${a.candidate.rank})${a.entityMatches?.some((m) => m !== 'exact') ? `; mentions matched ${a.entityMatches.join(', ')}` : ''}${a.relationReadings ? `; relations read as ${a.relationReadings.join(', ')}` : ''}${a.classReadings ? `; classes read as ${a.classReadings.join(', ')}` : ''}${a.bridges ? `; bridged ${a.bridges.join(', ')}` : ''}${a.flips ? `; ${a.flips.join(', ')}` : ''}`,
      timeMs: performance.now() - te,
    });
    // a form that timed out (queryTimeoutMs, or the question's time) or met the store away stops the question:
    // the next forms would answer a different reading, depending on the machine's load
    if (haltOn(run, out, `executing ${a.text}`)) break;
    const negated = subtracted(a.form);
    if (out.status === 'answers' && (shape !== 'entities' || negated.length > 0) && (await vacuousJoin(gw.executor, gw.pack.config, shape !== 'entities' ? a.form : negated, run))) {
      // a count or yes/no answers even over an empty set: "0" from a grounding whose entity never takes that
      // relation (a tag where a person was meant) is kept only in case no other reading answers; so is a DIFF
      // that takes away nothing ("… that aren't comedies" with the tag "comedy" for the genre)
      run.vacuous.push({ attempt: a, compiled, answers: out.answers, ...(out.table ? { table: out.table } : {}), vacuous: true });
      trace.push({ stage: 'execute', groundedForm: a.text, outcome: 'skipped', note: 'set aside: an entity of this reading never takes its relation', timeMs: 0 });
      continue;
    }
    if (run.stopped) break; // the existence check could not be finished
    if (out.status === 'answers') {
      run.winners.push({ attempt: a, compiled, answers: out.answers, ...(out.table ? { table: out.table } : {}) });
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
