/** The generate pass: the parser's beam for a question (`generate`), and the forms of it whose shape fits the wording (`fitting`). */
import {
  AskgraphError,
  defined,
  type Candidate,
} from '../core';
import { answerTypeOf } from '../form';
import { formFits } from './checks';
import { stop, type AttemptRun } from './run';
import { type GatewayContext } from './context';
import { completeMentions, repairs } from './repair';

export async function generate(gw: GatewayContext, q: string, beam: number, run: AttemptRun): Promise<Candidate[]> {
  const tg = performance.now();
  try {
    const res = await defined(gw.generator, 'the parser').generate(q, { beam });
    const dropped = res.dropped ? `, ${res.dropped} dropped` : '';
    run.trace.push({ stage: 'generate', outcome: res.candidates.length ? 'answers' : 'empty', answerCount: res.candidates.length, note: `beam ${beam}: ${res.candidates.length} forms${dropped}`, timeMs: res.timeMs });
    for (const r of res.rejected ?? []) run.trace.push({ stage: 'generate', beamForm: r.text, outcome: 'empty', note: `dropped: ${r.reason}`, timeMs: 0 });
    run.beamWidth = Math.max(run.beamWidth ?? 0, beam);
    // a mention cut out of a word of the question names the whole word (repair.ts completeMentions)
    const whole = completeMentions(gw, q, res.candidates);
    if (whole.completed.length > 0) {
      const list = whole.completed.map((x) => `"${x.from}" → "${x.to}"`).join(', ');
      run.trace.push({ stage: 'generate', outcome: 'answers', answerCount: whole.candidates.length, note: `mentions completed to the question's whole words: ${list}`, timeMs: 0 });
    }
    const cands = whole.candidates;
    if (run.o.noAbstain || cands.length === 0) return cands;
    // readings with a hop the question names and the parser's readings leave out (repair.ts), after the beam
    const tr = performance.now();
    const fixed = await repairs(gw, q, cands, (run.repairScores ??= new Map<string, number>()));
    if (fixed.candidates.length > 0) {
      const words = fixed.words.map((w) => `"${w.word}" → ${w.note}`).join(', ');
      run.trace.push({ stage: 'generate', outcome: 'answers', answerCount: fixed.candidates.length, note: `repaired readings: ${fixed.candidates.length} forms: conjunctions of one entity's relations read as compositions, and relations the question names (${words || 'none'})`, timeMs: performance.now() - tr });
    }
    return [...cands, ...fixed.candidates];
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

/**
 * The beam forms whose answer shape fits the question and that rank by values (formFits): the shape is the form's, the same for
 * every grounding of it, so a form that does not fit is set aside once, with one trace row, before grounding
 * (its groundings could be many thousands, each one a skipped row).
 */
export function fitting(cands: Candidate[], run: AttemptRun): Candidate[] {
  return cands.filter((c) => {
    const fits = formFits({ form: c.text, mentions: [], answerType: answerTypeOf(c.form), tree: c.form }, { question: '', beam: [], ...(run.expected ? { expected: run.expected } : {}), yesNo: run.yesNo });
    if (fits.pass) return true;
    if (!run.trace.some((t) => t.beamForm === c.text && t.check?.code === fits.code)) {
      run.trace.push({ stage: 'execute', beamForm: c.text, outcome: 'skipped', note: defined(fits.reason, 'reason of a failed formFits'), check: { name: fits.check, code: fits.code ?? '' }, timeMs: 0 });
    }
    return false;
  });
}
