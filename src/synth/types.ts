/**
 * Types shared by the synthesis stage (`askgraph init` / `askgraph synth`): the schema discovered from a
 * store, and the synthetic (question, form) examples made from it. Discovery writes a Schema (also saved as
 * <pack>/schema.json); the lexicon verbalises it; the sampler and renderer turn it into examples.
 */

/** Where entity labels came from: a label predicate, or the IRI's local name split into words. */
export interface LabelSource {
  source: string; // predicate IRI, or 'iri-local-name'
  count: number; // entities labelled through it
}

export type ValueKind = 'number' | 'year' | 'date' | 'string' | 'boolean';

export interface SchemaClass {
  iri: string;
  /** Unique bare token used in forms and as a model symbol (e.g. "Restaurant"); resolved by pack.json `names`. */
  name: string;
  /** Human phrase (rdfs:label or the split local name), e.g. "food type". */
  label: string;
  count: number; // instances
}

export interface SchemaProperty {
  iri: string;
  /** Unique bare token used in forms and as a model symbol (e.g. "inTown", "directed_by"). */
  name: string;
  /** Human phrase (rdfs:label or the split local name), e.g. "in city", "directed by". */
  label: string;
  count: number; // triples
  subjects: number; // distinct subjects
  objects: number; // distinct objects
  /** Class IRIs of subjects / objects (declared rdfs:domain/range, else observed on a sample). */
  domain: string[];
  range: string[];
  objectKind: 'entity' | 'literal' | 'mixed';
  /** Dominant literal datatype IRI when objects are literals. */
  datatype?: string;
  /** What the values are, for comparisons/aggregates: literals by datatype, entities by a numeric/date label (MetaQA years). */
  valueKind?: ValueKind;
  /** At most one object per subject (on the whole store, or the sample when the store is large). */
  functional: boolean;
  /** For numeric/date values: observed range, used to pick comparison constants. */
  min?: number;
  max?: number;
}

export interface Schema {
  /** Store identity (Executor.id) and when it was read. */
  store: string;
  createdAt: string;
  triples: number;
  entities: number;
  typePredicate: string;
  labelPredicates: string[];
  labelSources: LabelSource[];
  classes: SchemaClass[];
  properties: SchemaProperty[];
}

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
