import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot } from '../../../src/core';
import { parseForm } from '../../../src/form';
import { vocabularyFromExamples, type ReaderContext, type RelationVocabulary, type Topic } from '../../../src/fallback';
import { InProcessOxigraph } from './oxigraph-adapter';

export const MOVIES = 'http://askgraph.dev/movies/';
export const PQ = 'http://askgraph.dev/pq2/';

/** Test data lives next to this file in src; from dist/ read it from the source tree. */
function fixture(name: string): string {
  return path.join(packageRoot(), 'test', 'unit', 'fallback', name);
}

let movies: InProcessOxigraph | undefined;
/** 948 MetaQA triples: every movie directed by Roman Polanski or Robert Zemeckis or starring Tom Hanks. */
export function moviesStore(): InProcessOxigraph {
  movies ??= InProcessOxigraph.fromTriples(fs.readFileSync(fixture('movies-mini.txt'), 'utf8'), MOVIES);
  return movies;
}

let pq: InProcessOxigraph | undefined;
/** The PathQuestion PQ-2H knowledge base (1,211 triples). */
export function pqStore(): InProcessOxigraph {
  pq ??= InProcessOxigraph.fromTriples(fs.readFileSync(fixture('pq-2h-kb.txt'), 'utf8'), PQ);
  return pq;
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
