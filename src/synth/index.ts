/**
 * The synthesis stage of `askgraph init` / `askgraph synth`: training data made from the graph alone.
 *   buildLexicon(schema)                       → how the graph's classes and properties are said (lexicon.ts)
 *   synthesize(executor, schema, lexicon, …)   → (question, form) pairs whose forms execute with an answer
 * Deterministic for a seed (given the same store).
 */
import type { Executor } from '../core';
import type { CompileOptions } from '../compile';
import { printSForm } from './forms';
import type { Lexicon } from './lexicon';
import { renderQuestion } from './render';
import { Rng } from './random';
import { OPERATOR_WEIGHTS, Sampler } from './sample';
import { SynthStore } from './store';
import type { Schema, SynthExample, SynthOperator } from './types';

export * from './types';
export { buildLexicon, mergeLexicon, readLexicon, writeLexicon, LEXICON_FORMAT, type Lexicon, type LexiconOptions, type PropertyLexicon } from './lexicon';
export { renderQuestion, typo } from './render';
export { printSForm, type SForm } from './forms';
export { SynthStore, supportsV2 } from './store';
export { Sampler, OPERATOR_WEIGHTS } from './sample';
export { WordNet, wordNet } from './wordnet';

export interface SynthOptions {
  count: number;
  seed?: number;
  /** Relative weights per operator (default OPERATOR_WEIGHTS); 0 turns one off. */
  weights?: Partial<Record<SynthOperator, number>>;
  /** Compile options of the pack (topic exclusion, label predicates); schema's label/type predicates by default. */
  compile?: CompileOptions;
  /** Timeout per query (ms, default 5000). */
  timeoutMs?: number;
  /** Questions per sampled form (different templates / noise; default 2). */
  paraphrases?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface OperatorStats {
  examples: number;
  forms: number;
  attempts: number;
  failures: number;
}

export interface SynthStats {
  examples: number;
  forms: number;
  attempts: number;
  queries: number;
  timeMs: number;
  /** v2 operators run by the compiler (true) or composed from v1 sub-forms run on the store (false). */
  compilerV2: boolean;
  templates: number;
  perOperator: Partial<Record<SynthOperator, OperatorStats>>;
  noise: Record<string, number>;
}

export interface SynthResult {
  examples: SynthExample[];
  stats: SynthStats;
}

/**
 * Samples forms over the store (each executes with an answer), renders questions for them, and returns
 * `count` examples with statistics per operator. Operators the schema cannot express (no classes, no
 * numeric values) get no examples; an operator whose samples keep failing is given up after a budget.
 */
export async function synthesize(executor: Executor, schema: Schema, lexicon: Lexicon, opts: SynthOptions): Promise<SynthResult> {
  const t0 = Date.now();
  const seed = opts.seed ?? 1;
  const rng = new Rng(seed);
  const store = new SynthStore(executor, schema, { compile: opts.compile, timeoutMs: opts.timeoutMs });
  const sampler = new Sampler(store, rng);
  const paraphrases = Math.max(1, opts.paraphrases ?? 2);
  const weights = { ...OPERATOR_WEIGHTS, ...opts.weights };
  let ops = sampler.operators().filter((op) => (weights[op] ?? 0) > 0);
  const perOperator: Partial<Record<SynthOperator, OperatorStats>> = {};
  for (const op of ops) perOperator[op] = { examples: 0, forms: 0, attempts: 0, failures: 0 };
  const examples: SynthExample[] = [];
  const seen = new Set<string>();
  const templates = new Set<string>();
  const noise: Record<string, number> = {};
  let attempts = 0;
  let forms = 0;
  while (examples.length < opts.count && ops.length) {
    const op = rng.weighted(ops, (o) => weights[o] ?? 0);
    const st = perOperator[op] as OperatorStats;
    st.attempts++;
    attempts++;
    const s = await sampler.sample(op);
    if (!s) {
      st.failures++;
      // an operator that (almost) never works on this graph is dropped rather than looped on
      if (st.attempts >= 60 && st.forms * 20 < st.attempts) ops = ops.filter((o) => o !== op);
      continue;
    }
    st.forms++;
    forms++;
    for (let k = 0; k < paraphrases && examples.length < opts.count; k++) {
      const r = renderQuestion(s.form, lexicon, rng);
      if (!r) continue;
      const form = printSForm(s.form, r.mentions);
      const key = `${r.question}\t${form}`;
      if (seen.has(key)) continue;
      seen.add(key);
      templates.add(r.template);
      for (const n of r.noise) noise[n] = (noise[n] ?? 0) + 1;
      st.examples++;
      examples.push({
        id: `synth-${seed}-${examples.length}`,
        question: r.question,
        form,
        operator: op,
        answerCount: s.answerCount,
        template: r.template,
        noise: r.noise,
      });
    }
    opts.onProgress?.(examples.length, opts.count);
  }
  return {
    examples,
    stats: { examples: examples.length, forms, attempts, queries: store.queries, timeMs: Date.now() - t0, compilerV2: store.v2, templates: templates.size, perOperator, noise },
  };
}
