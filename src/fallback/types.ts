/**
 * Fallback readers: answer from graph evidence when no logical form executes (issue 6).
 * A reader first *tests* whether it can handle the question (Comunica-style), then *reads*; both
 * return expected failures as values, which runChain collects for the trace.
 */
import type { AnswerItem, Evidence, Executor, TopicExclusion } from '../core';
import type { RelationVocabulary } from './vocabulary';

export interface Topic {
  iri: string;
  label: string;
  score: number;
}

/**
 * Per-reader limits; enforced by the BudgetGuard around the Executor, so remote endpoints obey them too.
 * maxQueries and maxTriples are the work bound that decides what a reader finds (the same on any machine);
 * timeMs is wall time: running out of it stops the whole chain as timed out (it never hands the question
 * to the next reader).
 */
export interface ReaderBudget {
  timeMs: number;
  maxQueries: number;
  /** Result rows (≈ triples visited) the reader may pull from the store. */
  maxTriples: number;
}

export const DEFAULT_BUDGET: ReaderBudget = { timeMs: 2000, maxQueries: 200, maxTriples: 60000 };

/** Log-probabilities of forms given the question, e.g. the parser model's `score`. */
export type FormScorer = (question: string, forms: string[]) => Promise<number[]>;

export interface ReaderContext {
  question: string;
  /** Grounded topic entities (from entity retrieval — never assumed to be bracketed in the question). */
  topics: Topic[];
  executor: Executor;
  budget: ReaderBudget;
  /** The clock of the time budget (milliseconds; default Date.now — tests inject one). */
  clock?: () => number;
  scorer?: FormScorer;
  /** Mined word statistics per relation (see vocabulary.ts); readers fall back to relation labels without it. */
  relationVocabulary?: RelationVocabulary;
  /** Predicates that only carry labels (not followed while exploring). Default: rdfs:label. */
  labelPredicates?: string[];
  /**
   * Which answers a topic entity is kept out of: the pack's `excludeTopic`, as the compiler applies it to forms
   * (src/compile CompileOptions.excludeTopic; readers/common.ts `topicBarred`). Default true (the answers: the
   * MetaQA/ChatKBQA convention).
   */
  excludeTopics?: TopicExclusion;
  /**
   * Relations the question names by a word that reads clearly as one of them (the pipeline's lexical reading of the
   * graph's relations, src/pipeline checks.ts relationWordsOf): a chain without such a relation leaves a word of the
   * question unexplained (the paths reader's unexplainedHopCost for each).
   */
  relationWords?: { word: string; iri: string }[];
  /**
   * Whether a chain's last hop (predicate, and '>' from subject to object or '<' back) ends on what the question asks
   * for — on a graph with classes, the class it names (src/pipeline typed.ts answerFits); undefined: anything fits.
   * The paths reader ranks the chains that end elsewhere after those that fit.
   */
  answerFits?: (last: { p: string; dir: '>' | '<' }) => boolean;
}

export interface ReaderStats {
  queries: number;
  triples: number;
  timeMs: number;
}

export type Exhausted = 'time' | 'queries' | 'triples';

export interface ReaderSuccess {
  answers: AnswerItem[];
  evidence: Evidence[];
  /**
   * Confidence on the fallback scale [0, 0.6] — always below a parsed answer's confidence.
   * Caps: paths 0.6, triples 0.5, explore 0.4, llm 0.3 (see chain.ts).
   */
  confidence: number;
  stats: ReaderStats;
  note?: string;
  /** Answers the reader itself discarded because they were not grounded (LLM reader). */
  dropped?: number;
}

export interface ReaderFailure {
  reason: string;
  exhausted?: Exhausted;
  /** The error code when the store failed (QUERY_TIMEOUT, STORE_UNAVAILABLE, …). */
  code?: string;
  stats?: ReaderStats;
}

export type ReaderResult = ReaderSuccess | ReaderFailure;

export function isFailure(r: ReaderResult): r is ReaderFailure {
  const x = r as Partial<ReaderFailure & ReaderSuccess>;
  return x.reason !== undefined && x.answers === undefined;
}

export interface Reader {
  readonly name: string;
  test(ctx: ReaderContext): Promise<true | { reason: string }>;
  read(ctx: ReaderContext): Promise<ReaderResult>;
}

export interface ChainFailure {
  reader: string;
  reason: string;
  /** The reader's test said it cannot handle the question (it did not run). */
  skipped?: boolean;
  exhausted?: Exhausted;
  code?: string;
  stats?: ReaderStats;
}

export interface ChainResult {
  result?: ReaderSuccess;
  reader?: string;
  failures: ChainFailure[];
  /** Answers dropped by the grounding assertion (not present in the reader's own evidence), over all readers tried. */
  dropped: number;
  /**
   * The chain stopped: a reader ran out of time (`QUERY_TIMEOUT`) or the store failed for the moment
   * (TRANSIENT_CODES). The readers after it were not tried — their answer would depend on the machine's
   * load — and there is no result.
   */
  stopped?: { code: string; message: string };
  timeMs: number;
}

/** One step of a relation chain, seen from the topic entity: forward = (x r ?y), backward = (?y r x). */
export interface Hop {
  /** Relation IRI. */
  p: string;
  /** Relation label / name, e.g. "directed_by". */
  name: string;
  dir: '>' | '<';
}
