/**
 * Runs a data set through the same pipeline as `askgraph ask` (gateway.ask) — or, in oracle mode, executes the
 * gold forms directly (compileForm + runCompiled) — and scores every example. Examples run one after another so
 * the latencies are those of a single user.
 */
import { noAnswer, Rng, type Answer, type Executor, type PackConfig, type Timings } from '../core';
import { compileForm, packCompileOptions } from '../compile';
import { runCompiled } from '../execute';
import { diffForms } from '../form';
import { parseForm, skeleton, formsEqual } from '../form';
import { answerKeys, cellKey, normalizeAnswer, rowsMatch, scoreAnswers, type AnswerScores } from './metrics';
import type { Example } from './types';

/** What eval needs of the pipeline's Gateway (structural, so test stand-ins fit). */
export interface Asker {
  ask(question: string, opts?: AskOptionsLike): Promise<Answer>;
}

export interface AskOptionsLike {
  beam?: number;
  fallback?: 'off' | string[];
  timeoutMs?: number;
  noParser?: boolean;
  [key: string]: unknown;
}

export type EvalMode = 'pipeline' | 'oracle';

export interface ExampleResult {
  id: string;
  question: string;
  meta: Example['meta'];
  gold: string[];
  goldForm: string | null;
  /** Predicted answers in rank order (labels, or values when there is no label / gold answers are IRIs). */
  predicted: string[];
  /** The answer type of the answer ('entities' | 'number' | 'boolean'; null when there is no answer). */
  answerType: Answer['answerType'] | null;
  /** The top form of the beam (the generator's first output), or the winning form when there is no beam. */
  form: string | null;
  groundedForm: string | null;
  sparql: string | null;
  beam: string[];
  source: string;
  /** The answer's confidence (the calibrated probability of its reading; 0 for no answer): for calibration studies. */
  confidence: number;
  scores: AnswerScores;
  /**
   * Exact row match of a table question (gold rows with several variables): the predicted table's rows equal the
   * gold rows (cells compared as in F1, column order free); false when the answer is no table; null when the gold
   * answer is not a table.
   */
  rowMatch: boolean | null;
  /** Form metrics: null when the example has no gold form or the mode makes them meaningless (oracle). */
  em: boolean | null;
  bm: boolean | null;
  sm: boolean | null;
  executable: boolean | null;
  fallback: boolean | null;
  noAnswer: boolean;
  latencyMs: number;
  timings: Timings;
  /** Why the example is not an exact answer-set match (absent when acc = 1). */
  failure?: string;
}

/** Answers one example: the pipeline (gateway.ask on the question) or the oracle (the gold form). */
export type ExampleRunner = (ex: Example) => Promise<Answer>;

export function pipelineRunner(gateway: Asker, opts: AskOptionsLike = {}): ExampleRunner {
  return (ex) => gateway.ask(ex.question, opts);
}

export interface EvalRunOptions {
  mode: EvalMode;
  /** Fallback readers only (--no-parser): the form metrics and the executable rate do not apply. */
  noParser?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface OracleContext {
  executor: Executor;
  pack?: Pick<PackConfig, 'vocabularyNamespace' | 'labelPredicates' | 'excludeTopic' | 'names'> & { baseIri?: string };
  timeoutMs?: number;
  /** Keep the topic entities among the answers (PathQuestion paths may end where they start); default false. */
  keepTopic?: boolean;
}


/** Oracle "asker": the gold form, compiled and executed on the store; no generation, no grounding. */
export function oracleRunner(ctx: OracleContext): ExampleRunner {
  return async (ex: Example): Promise<Answer> => {
      const t0 = performance.now();
      const question = ex.question;
      const gold = ex.form;
      const base: Answer = noAnswer(question, { form: gold ?? null });
      if (!gold) {
        base.trace.push({ stage: 'execute', outcome: 'skipped', note: 'no gold form', timeMs: 0 });
        return base;
      }
      let compiled;
      try {
        compiled = compileForm(parseForm(gold), {
          ...(ctx.pack ? packCompileOptions(ctx.pack) : {}),
          excludeTopic: ctx.keepTopic ? false : (ctx.pack?.excludeTopic ?? true),
        });
      } catch (e) {
        const err = e as { code?: string; message?: string };
        base.trace.push({ stage: 'execute', outcome: 'error', beamForm: gold, error: { code: err.code ?? 'INTERNAL', message: err.message ?? String(e) }, timeMs: 0 });
        return base;
      }
      const outcome = await runCompiled(ctx.executor, compiled, ctx.timeoutMs ? { timeoutMs: ctx.timeoutMs } : {});
      const ms = performance.now() - t0;
      return {
        ...base,
        answers: outcome.answers,
        ...(outcome.table ? { table: outcome.table } : {}),
        ...(outcome.status === 'answers' ? { answerType: compiled.answerType ?? 'entities' } : {}),
        sparql: compiled.sparql,
        source: outcome.status === 'answers' ? 'parser' : 'none',
        confidence: outcome.status === 'answers' ? 1 : 0,
        trace: [
          {
            stage: 'execute',
            beamForm: gold,
            sparql: compiled.sparql,
            outcome: outcome.status,
            answerCount: outcome.answers.length,
            ...(compiled.answerType ? { answerType: compiled.answerType } : {}),
            ...(outcome.error ? { error: outcome.error } : {}),
            timeMs: outcome.timeMs,
          },
        ],
        timings: { generate: 0, ground: 0, execute: ms, fallback: 0, total: ms },
      };
  };
}

function tryParse(text: string | null | undefined) {
  if (!text) return undefined;
  try {
    return parseForm(text);
  } catch {
    return undefined;
  }
}

/** `; missing: a, b; extra: c` — at most three of each, compared normalised. */
function setDelta(gold: readonly string[], predicted: readonly string[]): string {
  const g = new Map(gold.map((x) => [normalizeAnswer(x), x]));
  const p = new Map(predicted.map((x) => [normalizeAnswer(x), x]));
  const missing = [...g].filter(([k]) => !p.has(k)).map(([, x]) => x);
  const extra = [...p].filter(([k]) => !g.has(k)).map(([, x]) => x);
  const list = (xs: string[]) => xs.slice(0, 3).join(', ') + (xs.length > 3 ? ` … (+${xs.length - 3})` : '');
  return (missing.length ? `; missing: ${list(missing)}` : '') + (extra.length ? `; extra: ${list(extra)}` : '');
}

/** ChatKBQA's error analysis in words: skeleton / entity / relation errors, or where else it went wrong. */
function explainFailure(r: Omit<ExampleResult, 'failure'>, answer: Answer, mode: EvalMode): string {
  const errors = answer.trace.flatMap((t) => (t.error ? [`${t.stage}: ${t.error.code}`] : []));
  const uniq = [...new Set(errors)].slice(0, 3).join('; ');
  const partial = r.scores.f1 > 0 ? ` (partial: F1 ${r.scores.f1.toFixed(2)}, ${r.predicted.length} predicted vs ${r.gold.length} gold${setDelta(r.gold, r.predicted)})` : '';
  if (mode === 'oracle') {
    if (!r.goldForm) return 'no gold form';
    if (answer.trace.some((t) => t.error)) return `gold form failed to run: ${uniq}`;
    if (r.noAnswer) return 'gold form executed but returned no answers';
    return `gold form answers differ from the gold answers${partial}`;
  }
  const gold = tryParse(r.goldForm);
  const top = tryParse(r.form);
  let formPart = '';
  if (gold && !r.form) formPart = 'no form generated';
  else if (gold && top && !r.em) {
    const d = diffForms(gold, top);
    if (!d.sameSkeleton) formPart = 'skeleton error';
    else {
      const kinds = new Set(d.changes.map((c) => c.kind));
      const parts = ['entity', 'relation', 'class', 'literal', 'operator'].filter((k) => kinds.has(k as never));
      formPart = `${parts.join(' + ') || 'form'} error`;
    }
    if (r.bm) formPart += ' (gold form is in the beam)';
  } else if (gold && r.em) formPart = 'top form is right';
  const answerPart = r.noAnswer
    ? `no answer${r.fallback ? '' : r.source === 'none' ? (uniq ? ` — ${uniq}` : ' — no candidate executed') : ''}`
    : r.fallback
      ? `answered by ${r.source}${partial}`
      : `wrong answers${partial}`;
  return formPart ? `${formPart}; ${answerPart}` : answerPart;
}

/** Scores one answer against its example. */
export function scoreExample(ex: Example, answer: Answer, latencyMs: number, mode: EvalMode, noParser = false): ExampleResult {
  // A table question (gold rows of several variables) scores every cell of a table answer, challenge-style; any
  // other question scores the answers (of a table: its first column, the row keys).
  const goldCells = new Set(ex.answers.map(normalizeAnswer));
  const tableRows = ex.rows && answer.table ? answer.table.rows.map((row) => row.map((c) => cellKey(c, goldCells))) : undefined;
  const predicted = tableRows ? tableRows.flat().filter((c): c is string => c !== null) : answerKeys(answer.answers, ex.answers);
  const scores = scoreAnswers(predicted, ex.answers);
  const rowMatch = ex.rows ? (tableRows ? rowsMatch(tableRows, ex.rows) : false) : null;
  const beam = answer.beam.map((b) => b.form);
  const top = beam[0] ?? answer.form;
  const goldForm = ex.form ?? null;
  const gold = mode === 'pipeline' && !noParser ? tryParse(goldForm) : undefined;
  let em: boolean | null = null;
  let bm: boolean | null = null;
  let sm: boolean | null = null;
  if (gold) {
    const topForm = tryParse(top);
    em = topForm ? formsEqual(topForm, gold) : false;
    bm = beam.length ? beam.some((f) => { const p = tryParse(f); return p ? formsEqual(p, gold) : false; }) : em;
    sm = topForm ? skeleton(topForm) === skeleton(gold) : false;
  }
  const executed = answer.trace.some((t) => t.stage === 'execute' && (t.outcome === 'answers' || t.outcome === 'empty'));
  const r: Omit<ExampleResult, 'failure'> = {
    id: ex.id,
    question: ex.question,
    meta: ex.meta,
    gold: ex.answers,
    goldForm,
    predicted,
    answerType: answer.answers.length > 0 ? (answer.answerType ?? 'entities') : null,
    form: top ?? null,
    groundedForm: answer.groundedForm,
    sparql: answer.sparql,
    beam,
    source: answer.source,
    confidence: answer.confidence,
    scores,
    rowMatch,
    em,
    bm,
    sm,
    executable: mode === 'oracle' ? (goldForm ? executed : null) : noParser ? null : answer.source === 'parser' || executed,
    fallback: mode === 'oracle' ? null : answer.source.startsWith('fallback:'),
    noAnswer: answer.answers.length === 0,
    latencyMs,
    timings: answer.timings,
  };
  return scores.acc === 1 ? r : { ...r, failure: explainFailure(r, answer, mode) };
}

/** Runs every example (in order) and scores it. An exception from ask() fails that example, not the run. */
export async function runExamples(examples: readonly Example[], runner: ExampleRunner, opts: EvalRunOptions): Promise<{ results: ExampleResult[]; wallMs: number }> {
  const results: ExampleResult[] = [];
  const start = performance.now();
  for (const [i, ex] of examples.entries()) {
    const t0 = performance.now();
    let answer: Answer;
    try {
      answer = await runner(ex);
    } catch (e) {
      const err = e as { code?: string; message?: string };
      answer = noAnswer(ex.question, {
        trace: [{ stage: 'execute', outcome: 'error', error: { code: err.code ?? 'INTERNAL', message: err.message ?? String(e) }, timeMs: 0 }],
      });
    }
    results.push(scoreExample(ex, answer, performance.now() - t0, opts.mode, opts.noParser === true));
    opts.onProgress?.(i + 1, examples.length);
  }
  return { results, wallMs: performance.now() - start };
}

/** Deterministic sample of n examples (Fisher–Yates with core's seeded Rng), in the original order. */
export function sampleExamples<T>(items: readonly T[], n: number, seed: number): T[] {
  if (n >= items.length) return [...items];
  const keep = new Set(new Rng(seed).shuffle(items.map((_, i) => i)).slice(0, n));
  return items.filter((_, i) => keep.has(i));
}
