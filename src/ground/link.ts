import { itemAt } from '../core';
import type { EntityIndex } from './entity-index';
import { normalizeLabel, relationWords, STOP_WORDS, surfaceTokens } from '../core';

/** One entity mention found in a free question. */
export interface EntityLink {
  iri: string;
  label: string;
  score: number;
  /** Token span [start, end) in the normalised question. */
  span: { start: number; end: number };
  /** The normalised text of the span. */
  text: string;
  exact: boolean;
}

export interface LinkOptions {
  /** Links returned. Default 5. */
  k?: number;
  /** Longest span tried, in tokens. Default 12. */
  maxSpan?: number;
  /** Minimum similarity of a fuzzy link. Default 0.8. */
  fuzzyThreshold?: number;
  /** At most this many fuzzy index searches per question. Default 40. */
  maxFuzzySearches?: number;
  /** Words of this graph that are never the topic alone, besides the stop words and relation words. Default: index.nonTopicWords (pack.json `nonTopicWords`). */
  nonTopicWords?: Iterable<string>;
}

const relationWordsOfIndex = new WeakMap<EntityIndex, ReadonlySet<string>>();

/** The words of the graph's relation names, from the relation vocabulary the index was built with. */
function relationNameWords(index: EntityIndex): ReadonlySet<string> {
  let set = relationWordsOfIndex.get(index);
  if (!set) {
    const relations = Array.isArray(index.meta.relations) ? (index.meta.relations as { name?: unknown }[]) : [];
    const out = new Set<string>();
    for (const r of relations) if (typeof r.name === 'string') for (const w of relationWords(r.name).split(' ')) if (w) out.add(w);
    set = out;
    relationWordsOfIndex.set(index, set);
  }
  return set;
}

/**
 * Words that are labels somewhere in a graph but almost never the topic when alone: the stop words, words
 * sharing a stem with a word of the graph's relation names ("director" ~ directed_by), and the pack's own
 * `nonTopicWords` (pack.json).
 */
function nonTopicTest(index: EntityIndex, extra: Iterable<string> | undefined): (w: string) => boolean {
  const relWords = relationNameWords(index);
  const own = new Set(extra ?? []);
  return (w) => STOP_WORDS.has(w) || own.has(w) || relWords.has(w);
}

/**
 * Entity linking in a question without brackets (for the fallback readers and the bench without
 * gold topics). Spans are taken greedily, never overlapping, in this order:
 *   1. exact normalised matches of 2+ tokens, longest first;
 *   2. fuzzy index matches of 2–6 token windows (similarity ≥ fuzzyThreshold), best first;
 *   3. exact single tokens (not stop words) — after 2, so "forest" does not eat "forest gump";
 *   4. fuzzy single tokens of 5+ letters.
 * Scores: exact 0.83 / 0.92 / 1 for 1 / 2 / 3+ tokens; fuzzy similarity × 0.9 (× 0.9 again for one token).
 */
export function linkEntities(question: string, index: EntityIndex, opts: LinkOptions = {}): EntityLink[] {
  const k = opts.k ?? 5;
  const isNonTopic = nonTopicTest(index, opts.nonTopicWords ?? index.nonTopicWords);
  const toks = normalizeLabel(question).split(' ').filter((t) => t !== '');
  const surface = surfaceTokens(question) ?? toks;
  const covered = new Array<boolean>(toks.length).fill(false);
  const links: EntityLink[] = [];
  const maxSpan = Math.min(opts.maxSpan ?? 12, toks.length);
  const threshold = opts.fuzzyThreshold ?? 0.8;
  let budget = opts.maxFuzzySearches ?? 40;
  const free = (i: number, n: number) => !covered.slice(i, i + n).some(Boolean);
  const cover = (i: number, n: number) => {
    for (let j = i; j < i + n; j++) covered[j] = true;
  };

  const exactPass = (minN: number, maxN: number) => {
    for (let n = maxN; n >= minN; n--) {
      for (let i = 0; i + n <= toks.length; i++) {
        if (!free(i, n)) continue;
        const span = toks.slice(i, i + n);
        if (span.every(isNonTopic)) continue;
        const text = span.join(' ');
        if (!index.hasExact(text)) continue;
        for (const hit of index.exact(surface.slice(i, i + n).join(' '))) {
          links.push({ ...hit, score: (0.75 + 0.25 * Math.min(1, n / 3)) * hit.score, span: { start: i, end: i + n }, text, exact: true });
        }
        cover(i, n);
      }
    }
  };

  const fuzzyPass = (minN: number, maxN: number, factor: number) => {
    const found: EntityLink[] = [];
    for (let n = maxN; n >= minN && budget > 0; n--) {
      for (let i = 0; i + n <= toks.length && budget > 0; i++) {
        if (!free(i, n)) continue;
        const span = toks.slice(i, i + n);
        if (isNonTopic(itemAt(span, 0)) || isNonTopic(itemAt(span, -1))) continue;
        const text = span.join(' ');
        if (text.length < 5) continue;
        budget--;
        // a partial name ("keanu" → Keanu Reeves) is a reading of a mention the parser copied, not of any free word
        for (const hit of index.search(text, { k: 2, threshold }).filter((h) => h.match !== 'partial')) {
          found.push({ ...hit, score: hit.score * factor, span: { start: i, end: i + n }, text, exact: false });
        }
      }
    }
    found.sort((a, b) => b.score - a.score || b.span.end - b.span.start - (a.span.end - a.span.start));
    const taken = new Set<string>();
    for (const f of found) {
      const key = `${f.span.start}:${f.span.end}`;
      if (!taken.has(key) && !free(f.span.start, f.span.end - f.span.start)) continue;
      links.push(f);
      taken.add(key);
      cover(f.span.start, f.span.end - f.span.start);
    }
  };

  exactPass(2, maxSpan);
  fuzzyPass(2, Math.min(6, maxSpan), 0.9);
  exactPass(1, 1);
  if (links.length < k) fuzzyPass(1, 1, 0.81);

  const seen = new Set<string>();
  return links
    .sort((a, b) => b.score - a.score || b.span.end - b.span.start - (a.span.end - a.span.start) || a.span.start - b.span.start)
    .filter((l) => (seen.has(l.iri) ? false : (seen.add(l.iri), true)))
    .slice(0, k);
}
