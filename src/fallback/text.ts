/**
 * Question/label text for the readers: the removal of the topic mention from
 * the question (its words say nothing about the relations). Tokens, the light stemmer and stop words are src/core/text.ts's.
 */
import MiniSearch from 'minisearch';
import { identifierWords, isStopword, stem, words } from '../core';


/** Content terms of a text: stemmed, stop words removed. */
export function terms(text: string): string[] {
  return words(text)
    .filter((w) => !isStopword(w))
    .map(stem);
}

/** Terms of a relation name or IRI local name ("has_imdb_rating" → [imdb, rat]). */
export function relationTerms(name: string): string[] {
  return identifierWords(name)
    .filter((w) => !isStopword(w))
    .map(stem);
}

/**
 * The question's words with the topic mentions taken out (first occurrence of each topic label's
 * word sequence; when a label does not occur verbatim, its words are removed one by one).
 */
export function questionWithoutTopics(question: string, topicLabels: string[]): string[] {
  let ws = words(question);
  for (const label of topicLabels) {
    const lw = words(label);
    if (lw.length === 0) continue;
    let found = -1;
    for (let i = 0; i + lw.length <= ws.length && found < 0; i++) {
      if (lw.every((w, j) => ws[i + j] === w)) found = i;
    }
    if (found >= 0) ws = [...ws.slice(0, found), ...ws.slice(found + lw.length)];
    else {
      const drop = new Set(lw);
      ws = ws.filter((w) => !drop.has(w));
    }
  }
  return ws;
}

/**
 * Terms of the question without the topic mentions, stemmed. Wh-words and other function words are
 * kept: under the vocabulary's background model they weigh nothing unless they are informative
 * ("who" / "when" tell the answer's relation).
 */
export function questionTerms(question: string, topicLabels: string[]): string[] {
  return questionWithoutTopics(question, topicLabels).map(stem);
}

/** Content terms of the question without the topic mentions (stop words removed) — for BM25. */
export function questionContentTerms(question: string, topicLabels: string[]): string[] {
  return questionWithoutTopics(question, topicLabels)
    .filter((w) => !isStopword(w))
    .map(stem);
}

/**
 * Okapi BM25 (k1 1.2, b 0.75) over a small set of short documents (relations, entity labels) — ToG's
 * pruning scorer — by MiniSearch: documents are term lists, the query its distinct terms (OR); a
 * document's score is MiniSearch's sum over the matched terms (its "quality" factor, × matched terms,
 * taken out). MiniSearch measures a document's length in distinct terms.
 */
export class Bm25 {
  private readonly index: MiniSearch<{ id: number; terms: string }>;
  constructor(private readonly docs: string[][], k1 = 1.2, b = 0.75) {
    this.index = new MiniSearch<{ id: number; terms: string }>({
      fields: ['terms'],
      tokenize: (text) => (text === '' ? [] : text.split(' ')),
      processTerm: (term) => term,
      searchOptions: { bm25: { k: k1, b, d: 0 } },
    });
    this.index.addAll(docs.map((d, id) => ({ id, terms: d.join(' ') })));
  }
  score(query: string[]): number[] {
    const out = new Array<number>(this.docs.length).fill(0);
    const queries = [...new Set(query)].filter((t) => t !== '');
    if (queries.length === 0 || this.docs.length === 0) return out;
    for (const r of this.index.search({ queries, combineWith: 'OR' })) out[r.id as number] = r.score / (r.terms.length || 1);
    return out;
  }
}

