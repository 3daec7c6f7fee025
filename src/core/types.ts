/**
 * Shared types of the pipeline (see DESIGN: question → Candidate → GroundedCandidate → CompiledQuery
 * → Outcome → Answer). Stages import these from src/core; nothing here does I/O.
 */
import type { AnswerType, Form } from './form';

// ---------- RDF terms and results ----------

export interface Term {
  type: 'uri' | 'literal' | 'bnode';
  value: string;
  datatype?: string;
  lang?: string;
}

export type Row = Record<string, Term>;

export interface SelectResult {
  vars: string[];
  rows: Row[];
}

export interface Triple {
  s: Term;
  p: Term;
  o: Term;
}

export interface QueryOptions {
  /** Hard limit for this call; the executor kills/aborts the query after it. */
  timeoutMs?: number;
}

/**
 * One executor interface for every store (embedded Oxigraph in a worker, remote SPARQL endpoint).
 * Read-only: update queries are refused with UPDATE_FORBIDDEN. Every call has a timeout
 * (QUERY_TIMEOUT); a store that cannot be reached gives STORE_UNAVAILABLE / ENDPOINT_DOWN.
 */
export interface Executor {
  /** Stable identity of the store, used in cache keys and traces, e.g. "oxigraph:/abs/store/movies". */
  readonly id: string;
  select(query: string, opts?: QueryOptions): Promise<SelectResult>;
  ask(query: string, opts?: QueryOptions): Promise<boolean>;
  /** Runs a SELECT whose single projected variable is a count and returns it as a number. */
  count(query: string, opts?: QueryOptions): Promise<number>;
  construct(query: string, opts?: QueryOptions): Promise<Triple[]>;
  /** Labels of IRIs through the pack's label predicates (missing ones are absent from the map). */
  labels(iris: string[], opts?: QueryOptions): Promise<Map<string, string>>;
  close(): Promise<void>;
}

// ---------- the knowledge pack ----------

/**
 * Which answers a topic entity is kept out of (CompileOptions.excludeTopic): true — the answers; 'every-hop' — the
 * answers and every intermediate node of a JOIN path; 'retraced' — only the node a path reaches by going back along
 * the relation it came by; false — none.
 */
export type TopicExclusion = boolean | 'every-hop' | 'retraced';

/** What the gateway needs for one graph, read from <pack>/pack.json. Paths are relative to the pack dir. */
export interface PackConfig {
  name: string;
  /** Data files loaded into the embedded store (nt, ttl, nq, rdf, or triple files .txt/.tsv), or a snapshot. */
  data?: string[];
  /** Base IRI for minting entity / relation IRIs when loading triple files. */
  baseIri: string;
  /** Namespace that bare relation names resolve against, e.g. "<baseIri>relation/"; the compiler has no default of its own. */
  vocabularyNamespace: string;
  labelPredicates: string[];
  aliasPredicates?: string[];
  /**
   * Entities without a label through labelPredicates are labelled by their IRI local name split into words
   * ("Tom_Hanks" → "Tom Hanks"), in the entity index and in answer labels (see src/core/labels.ts). Default false.
   */
  localNameLabels?: boolean;
  /** A SPARQL endpoint URL holding the pack's graph (instead of embedded data files). */
  endpoint?: string;
  /** Topic exclusion when compiling forms for this graph (see CompileOptions.excludeTopic; default true). */
  excludeTopic?: TopicExclusion;
  /** Model folder (relative) for the parser, if the pack has one. */
  model?: string;
  /**
   * Bare relation / class names that are not `vocabularyNamespace + name` (e.g. `"Restaurant":
   * "http://example.org/rest/Restaurant"`); consulted before the namespace when compiling forms.
   */
  names?: Record<string, string>;
  /**
   * Words of this graph's questions that are labels somewhere but never the topic of a question alone
   * ("movie", "actor" for the movies graph); entity linking skips spans made only of them (LinkOptions).
   */
  nonTopicWords?: string[];
  /**
   * The manifest: size and sha256 of the pack's data and model files (paths relative to the pack folder,
   * written by `askgraph init`). A file that does not match is a start-up error naming it, never served.
   */
  files?: Record<string, { size: number; sha256: string }>;
  /** For people (the inspector's overview): a title, one or two sentences on what the graph covers, example questions. */
  title?: string;
  description?: string;
  examples?: string[];
}

// ---------- the pipeline ----------

/** One beam entry of the generator: a form with labels in it. */
export interface Candidate {
  form: Form;
  text: string; // printed form
  logProb: number;
  rank: number; // 0-based position in the beam
}

/** The parser's beam width when none is asked for (the pipeline, the ONNX parser and the HTTP generator). */
export const DEFAULT_BEAM = 4;

export interface GenerateOptions {
  /** Beam width (default DEFAULT_BEAM). */
  beam?: number;
  maxLength?: number;
}

export interface GenerateResult {
  candidates: Candidate[];
  /** Outputs dropped because they did not parse (HTTP generator) — always 0 for the constrained decoder. */
  dropped: number;
  /** The dropped outputs and why (HTTP generator: does not parse, relation not in the graph, entity not in the question). */
  rejected?: { text: string; reason: string }[];
  timeMs: number;
}

/** Turns a question into a beam of forms: the ONNX seq2seq model, or an OpenAI-compatible endpoint. */
export interface Generator {
  readonly id: string; // model version / endpoint, used in cache keys
  generate(question: string, opts?: GenerateOptions): Promise<GenerateResult>;
  close?(): Promise<void>;
}

export interface GroundedCandidate {
  candidate: Candidate;
  form: Form; // entities and relations as IRIs
  text: string;
  score: number; // combined score used for ordering
  entityScores: number[];
  relationScores: number[];
}

export interface CompiledQuery {
  sparql: string;
  answerVar: string;
  /**
   * The result form the executor must use: 'select' a set of answers, 'count' one integer, 'ask' one
   * boolean, 'value' one literal (an aggregate or a ratio: the answer variable of the single row), 'table'
   * rows of several variables (`columns`, in order; the first is the row key).
   */
  kind: 'select' | 'count' | 'ask' | 'value' | 'table';
  /** kind 'table': the projected columns in order. */
  columns?: TableColumn[];
  /** kind 'table': the query orders its rows (ORDER BY of the form): the executor keeps that order, else sorts canonically. */
  ordered?: boolean;
  /** What the form answers (answerTypeOf in src/form): a set, one number or one boolean. */
  answerType?: AnswerType;
  /** IRIs of topic entities excluded from the answers (benchmarks' convention). */
  topicEntities: string[];
}

export interface AnswerItem {
  value: string; // IRI or literal lexical form
  label: string | null;
  type: 'uri' | 'literal';
  datatype?: string;
}

/** One column of a table answer: the SPARQL variable it comes from and a heading for people. */
export interface TableColumn {
  /** The projected variable's name (without "?"), unique in the table. */
  name: string;
  /** A heading for people: the relation's label ("release year"), "count", "average rating", … */
  label: string;
}

/**
 * A table answer (answerType 'table'): the rows in the answer's order (ORDER BY of the form, else the canonical
 * order), each with one cell per column in column order. An absent optional value is null — an empty cell,
 * never a dropped row.
 */
export interface AnswerTable {
  columns: TableColumn[];
  rows: (AnswerItem | null)[][];
}

export type OutcomeStatus = 'answers' | 'empty' | 'error' | 'timeout' | 'skipped';

export interface Outcome {
  status: OutcomeStatus;
  answers: AnswerItem[];
  /** The rows of a table answer (answerType 'table'); `answers` then holds the first column's distinct values. */
  table?: AnswerTable;
  /** The code: an ErrorCode, or one passed on from elsewhere (a remote part). */
  error?: { code: string; message: string };
  timeMs: number;
}

/** One attempt of the pipeline, kept for --explain, the web inspector and eval's failure list. */
export interface TraceEntry {
  stage: 'generate' | 'ground' | 'execute' | 'fallback';
  beamForm?: string;
  groundedForm?: string;
  sparql?: string;
  score?: number;
  reader?: string;
  outcome: OutcomeStatus;
  answerCount?: number;
  /** The answer type of the executed form (answerTypeOf): a set, one number, or one boolean. */
  answerType?: AnswerType;
  error?: { code: string; message: string };
  note?: string;
  /** The named check (src/pipeline/checks.ts) that set this reading aside, and its reason code. */
  check?: { name: string; code: string };
  timeMs: number;
}

export interface EvidenceTriple {
  s: AnswerItem;
  p: AnswerItem;
  o: AnswerItem;
}

export interface Evidence {
  /** A path of triples from a topic entity to an answer, or a set of supporting triples. */
  triples: EvidenceTriple[];
  score?: number;
  note?: string;
}

export type AnswerSource = 'parser' | `fallback:${string}` | 'none';

export interface Timings {
  generate: number;
  ground: number;
  execute: number;
  fallback: number;
  total: number;
}

/** The JSON of `askgraph ask --json`, `POST /v1/ask` and the web inspector. */
export interface Answer {
  question: string;
  answers: AnswerItem[];
  /**
   * What the answers are: 'entities' (a set of IRIs / values), 'number' (one typed numeric literal: COUNT,
   * AVG/SUM/MAX/MIN, RATIO/PERCENT, ABSDIFF) or 'boolean' (one xsd:boolean literal "true"/"false": ASK). Set by the
   * pipeline on every answer it gives (absent on a "no answer", and in older producers: read as 'entities').
   */
  answerType?: AnswerType;
  /**
   * answerType 'table': the columns and rows. `answers` then holds the distinct values of the first column (the
   * row keys — the entities or groups the rows are about), so a client that reads only `answers` still sees them.
   */
  table?: AnswerTable;
  form: string | null;
  groundedForm: string | null;
  sparql: string | null;
  source: AnswerSource;
  confidence: number;
  /** Why there is no answer (or why it is doubtful), in words a person understands. */
  reason?: string;
  /**
   * The pipeline was stopped before it finished: its time budget ran out (`timedOut`), or the store or the
   * parser failed for the moment (the failing step is in the trace). `answers` are then those of a reading
   * already accepted when it stopped, usually none — never the reading that won because another one could
   * not be finished. A partial answer is never cached; the server answers a partial "no answer" with the
   * failure's status (504 QUERY_TIMEOUT, 503 STORE_UNAVAILABLE, …).
   */
  partial?: true;
  /** Set with `partial` when the time budget (timeoutMs, queryTimeoutMs) ran out. */
  timedOut?: true;
  /** What the parser answer's confidence is computed from (src/pipeline/calibration.ts). */
  signals?: { logProb: number; grounding: number; margin: number };
  beam: { form: string; logProb: number }[];
  trace: TraceEntry[];
  evidence?: Evidence[];
  timings: Timings;
}
