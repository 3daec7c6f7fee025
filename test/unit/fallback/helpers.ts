import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot, type Executor, type QueryOptions } from '../../../src/core';
import { parseForm } from '../../../src/form';
import { vocabularyFromExamples, type ReaderContext, type RelationVocabulary, type Topic } from '../../../src/fallback';
import { OxigraphExecutor } from '../../../src/execute';

export const MOVIES = 'http://askgraph.dev/movies/';
export const PQ = 'http://askgraph.dev/pq2/';

/** Test data lives next to this file in src; from dist/ read it from the source tree. */
export function fixture(name: string): string {
  return path.join(packageRoot(), 'test', 'unit', 'fallback', name);
}

let movies: OxigraphExecutor | undefined;
let pq: OxigraphExecutor | undefined;

// The real embedded executor (worker thread, the loader's triple reader), opened once for every fallback test file.
before(async function () {
  this.timeout(20000);
  movies ??= await OxigraphExecutor.open({ files: [fixture('movies-mini.txt')], baseIri: MOVIES }, { id: 'oxigraph:movies-mini' });
  pq ??= await OxigraphExecutor.open({ files: [fixture('pq-2h-kb.txt')], baseIri: PQ }, { id: 'oxigraph:pq-2h' });
});
after(async () => {
  await movies?.close();
  await pq?.close();
  movies = pq = undefined;
});

function opened(ex: OxigraphExecutor | undefined): OxigraphExecutor {
  if (!ex) throw new Error('the fallback test stores are opened in a root before() hook of helpers.ts');
  return ex;
}

/** 948 MetaQA triples: every movie directed by Roman Polanski or Robert Zemeckis or starring Tom Hanks. */
export function moviesStore(): OxigraphExecutor {
  return opened(movies);
}

/** The PathQuestion PQ-2H knowledge base (1,211 triples). */
export function pqStore(): OxigraphExecutor {
  return opened(pq);
}

/** A clock for time budgets that moves only when told to (no timing windows in tests). */
export class ManualClock {
  ms = 0;
  readonly now = (): number => this.ms;
}

/** Stand-in that injects latency: the real executor, every call moving `clock` on by `costMs` (for time-budget tests). */
export class SlowExecutorStandIn implements Executor {
  readonly id: string;
  constructor(
    private readonly inner: Executor,
    private readonly clock: ManualClock,
    private readonly costMs: number,
  ) {
    this.id = `stand-in:slow:${inner.id}`;
  }
  private spend(): void {
    this.clock.ms += this.costMs;
  }
  async select(query: string, opts?: QueryOptions) {
    this.spend();
    return this.inner.select(query, opts);
  }
  async ask(query: string, opts?: QueryOptions) {
    this.spend();
    return this.inner.ask(query, opts);
  }
  async count(query: string, opts?: QueryOptions) {
    this.spend();
    return this.inner.count(query, opts);
  }
  async construct(query: string, opts?: QueryOptions) {
    this.spend();
    return this.inner.construct(query, opts);
  }
  async labels(iris: string[], opts?: QueryOptions) {
    this.spend();
    return this.inner.labels(iris, opts);
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

let vocab: RelationVocabulary | undefined;
/** Vocabulary mined from every 10th MetaQA training example (training split only). */
export function moviesVocabulary(): RelationVocabulary {
  if (!vocab) {
    const lines = fs.readFileSync(path.join(packageRoot(), 'fixtures', 'metaqa', 'train.jsonl'), 'utf8').split('\n').filter(Boolean);
    vocab = vocabularyFromExamples(lines.filter((_, i) => i % 10 === 0).map((l) => JSON.parse(l)), parseForm);
  }
  return vocab;
}

export function topic(base: string, label: string, score = 1): Topic {
  return { iri: base + 'entity/' + encodeURIComponent(label), label, score };
}

export function ctx(question: string, topics: Topic[], over: Partial<ReaderContext> = {}): ReaderContext {
  return {
    question,
    topics,
    executor: moviesStore(),
    budget: { timeMs: 5000, maxQueries: 200, maxTriples: 100000 },
    relationVocabulary: moviesVocabulary(),
    ...over,
  };
}
