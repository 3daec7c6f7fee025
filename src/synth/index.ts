/**
 * The synthesis stage of `askgraph init` / `askgraph synth`: training data made from the graph alone.
 *   buildLexicon(schema)                       → how the graph's classes and properties are said (lexicon.ts)
 *   synthesize(executor, schema, lexicon, …)   → (question, form) pairs whose forms execute with an answer
 * Deterministic for a seed (given the same store).
 */
import { type Executor } from '../core';
import type { CompileOptions } from '../compile';
import { orderByMentions, printSForm } from './forms';
import type { Lexicon } from './lexicon';
import { renderQuestion } from './render';
import { Rng, defined } from '../core';
import { OPERATOR_WEIGHTS, Sampler } from './sample';
import { SynthStore } from './store';
import type { Schema, SynthExample, SynthOperator } from './types';

export * from './types';
export { readSchema } from '../core';
export { buildLexicon, mergeLexicon, readLexicon, writeLexicon, LEXICON_FORMAT, LEXICON_FILE, type Lexicon, type LexiconOptions, type PropertyLexicon } from './lexicon';
export { renderQuestion, typo } from './render';
export { printSForm, orderByMentions, type SForm, type SRel } from './forms';
export { Rng } from '../core';
export { SynthStore } from './store';
export { Sampler, OPERATOR_WEIGHTS } from './sample';
export { WordNet, wordNet } from '../core';
export { describeLabelSources, discoverLabelSources, discoverSchema, entityEdges, namesOf, type DiscoverOptions, type LabelSourceResult } from './discover';

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
  /**
   * Asked before each sample: true ends synthesis with the pairs made so far (init's share of --minutes).
   * The pairs are then a prefix of those of the same run without it (stats.stoppedAtBudget).
   */
  stopWhen?: () => boolean;
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
  templates: number;
  perOperator: Partial<Record<SynthOperator, OperatorStats>>;
  noise: Record<string, number>;
  /** The count asked for. */
  requested?: number;
  /** Set when `stopWhen` ended the run before `requested` pairs were made. */
  stoppedAtBudget?: true;
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
  const sampler = new Sampler(store, rng, lexicon);
  const paraphrases = Math.max(1, opts.paraphrases ?? 2);
  // (a caller's weights may hold an explicit undefined: that operator weighs 0)
  const weights: Partial<Record<SynthOperator, number>> = { ...OPERATOR_WEIGHTS, ...opts.weights };
  let ops = sampler.operators().filter((op) => (weights[op] ?? 0) > 0);
  const perOperator: Partial<Record<SynthOperator, OperatorStats>> = {};
  for (const op of ops) perOperator[op] = { examples: 0, forms: 0, attempts: 0, failures: 0 };
  const examples: SynthExample[] = [];
  const seen = new Set<string>();
  const templates = new Set<string>();
  const noise: Record<string, number> = {};
  let attempts = 0;
  let forms = 0;
  const maxAttempts = opts.count * 20 + 1000; // a small graph runs out of distinct forms
  let stoppedAtBudget = false;
  while (examples.length < opts.count && ops.length && attempts < maxAttempts) {
    // between samples only: the pairs made so far are exactly those of a run without the stop
    if (opts.stopWhen?.()) {
      stoppedAtBudget = true;
      break;
    }
    const op = rng.weighted(ops, (o) => weights[o] ?? 0);
    const st = defined(perOperator[op], 'operator stats');
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
      const q = r.question.toLowerCase();
      const ordered = orderByMentions(s.form, (iri) => q.indexOf((r.mentions.get(iri) ?? '').toLowerCase()));
      const form = printSForm(ordered, r.mentions);
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
    stats: {
      examples: examples.length,
      forms,
      attempts,
      queries: store.queries,
      timeMs: Date.now() - t0,
      templates: templates.size,
      perOperator,
      noise,
      requested: opts.count,
      ...(stoppedAtBudget ? { stoppedAtBudget: true as const } : {}),
    },
  };
}

/** One pair in the chat fine-tuning layout (system prompt lists the graph's relations and classes). */
export function chatRecord(schema: Schema, e: SynthExample): { messages: { role: string; content: string }[] } {
  const system =
    'Translate the question into an S-expression logical form over this knowledge graph. ' +
    `Relations: ${schema.properties.map((p) => p.name).join(', ')}.` +
    (schema.classes.length ? ` Classes: ${schema.classes.map((c) => c.name).join(', ')}.` : '') +
    ' Write entities as [ the words of the question that name them ].';
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: e.question },
      { role: 'assistant', content: e.form },
    ],
  };
}
