/**
 * The schema of a store as discovery reads it (src/synth discover.ts; <pack>/schema.json, written by `askgraph init`):
 * classes, properties with their domains, ranges and statistics, where labels come from. Here, below every stage, so
 * that the question pipeline (typed.ts) reads a pack's schema as synthesis does.
 */
import * as fs from 'node:fs';
import { AskgraphError } from './errors';

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

/** Reads a schema.json (written by schema discovery), with DATA_FORMAT / NOT_FOUND errors. */
export function readSchema(file: string): Schema {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
    throw new AskgraphError(missing ? 'NOT_FOUND' : 'DATA_FORMAT', missing ? `no schema file ${file}` : `${file}: ${(e as Error).message}`, { cause: e });
  }
  const bad = (msg: string): never => {
    throw new AskgraphError('DATA_FORMAT', `${file}: ${msg}`);
  };
  if (typeof json !== 'object' || json === null) return bad('not a JSON object');
  const s = json as Partial<Schema>;
  if (!Array.isArray(s.properties)) bad('properties must be an array');
  if (!Array.isArray(s.classes)) bad('classes must be an array');
  if (!Array.isArray(s.labelPredicates)) bad('labelPredicates must be an array');
  for (const [i, p] of (s.properties as unknown[]).entries()) {
    if (typeof p !== 'object' || p === null) return bad(`properties[${i}] needs iri and name`);
    const q = p as Record<string, unknown>;
    if (typeof q.iri !== 'string' || typeof q.name !== 'string') bad(`properties[${i}] needs iri and name`);
    if (!Array.isArray(q.domain) || !Array.isArray(q.range)) bad(`properties[${i}] needs domain and range arrays`);
  }
  return s as Schema;
}
