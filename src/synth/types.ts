/**
 * Types shared by the synthesis stage (`askgraph init` / `askgraph synth`): the schema discovered from a store (its
 * types live in src/core schema.ts, re-exported here), and the synthetic (question, form) examples made from it.
 * Discovery writes a Schema (also saved as <pack>/schema.json); the lexicon verbalises it; the sampler and renderer
 * turn it into examples.
 */

export type { LabelSource, Schema, SchemaClass, SchemaProperty, ValueKind } from '../core';

/** Operators of the form language an example exercises (for per-operator statistics in REPORT.md). */
export type SynthOperator =
  | 'join1' | 'join2' | 'join3' | 'class' | 'and' | 'count' | 'argmax' | 'argmin' | 'compare' | 'range'
  | 'ask' | 'diff' | 'aggregate' | 'ratio' | 'mostcommon' | 'argmaxcount' | 'compare2'
  // answers as tables and the operators that came with them (form language v3)
  | 'table' | 'group' | 'having' | 'topk' | 'attrcompare' | 'countcompare' | 'contains' | 'percent';

export interface SynthExample {
  id: string;
  question: string;
  /** The form with entity labels as they appear in the question's mention target (`[ label ]`). */
  form: string;
  operator: SynthOperator;
  /** Number of answers (table answers: rows) the form had on the store when sampled (every sampled form executes with an answer). */
  answerCount: number;
  /** Template id and noise applied, for statistics. */
  template?: string;
  noise?: string[];
}
