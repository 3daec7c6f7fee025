import type { EntityIndex } from './entity-index';
import { normalizeLabel } from './normalize';

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
}

// Words that are labels somewhere in most graphs but are almost never the topic when alone.
const STOP = new Set(
  ('a an the of in on at to for by with from and or is are was were be been do does did what which who whom whose when where why how ' +
    'that this these those it its movie movies film films me my i you your he she they them their there here about as than ' +
    'also same share shared other any all some has have had can could would should will name names list tell show give').split(' '),
);

function allStop(tokens: string[]): boolean {
  return tokens.every((t) => STOP.has(t));
}

/**
 * Entity linking in a question without brackets (for the fallback readers and the bench without
 * gold topics): the longest exact normalised n-gram matches first (non-overlapping, left to right
 * within a length), then fuzzy index matches over the uncovered windows. Exact links score
 * 0.75–1 by span length; fuzzy ones their similarity × 0.9.
 */
export function linkEntities(question: string, index: EntityIndex, opts: LinkOptions = {}): EntityLink[] {
  const k = opts.k ?? 5;
  const toks = normalizeLabel(question).split(' ').filter((t) => t !== '');
  const covered = new Array<boolean>(toks.length).fill(false);
  const links: EntityLink[] = [];
  const maxSpan = Math.min(opts.maxSpan ?? 12, toks.length);

  for (let n = maxSpan; n >= 1; n--) {
    for (let i = 0; i + n <= toks.length; i++) {
      if (covered.slice(i, i + n).some(Boolean)) continue;
      const span = toks.slice(i, i + n);
      if (allStop(span)) continue;
      const text = span.join(' ');
      if (!index.hasExact(text)) continue;
      for (const hit of index.exact(text)) {
        links.push({ ...hit, score: 0.75 + 0.25 * Math.min(1, n / 3), span: { start: i, end: i + n }, text, exact: true });
      }
      for (let j = i; j < i + n; j++) covered[j] = true;
    }
  }

  if (links.length < k) {
    const threshold = opts.fuzzyThreshold ?? 0.8;
    let budget = opts.maxFuzzySearches ?? 40;
    const fuzzy: EntityLink[] = [];
    for (let n = Math.min(6, maxSpan); n >= 1 && budget > 0; n--) {
      for (let i = 0; i + n <= toks.length && budget > 0; i++) {
        if (covered.slice(i, i + n).some(Boolean)) continue;
        const span = toks.slice(i, i + n);
        if (STOP.has(span[0]) || STOP.has(span[n - 1])) continue;
        const text = span.join(' ');
        if (text.length < 5) continue;
        budget--;
        for (const hit of index.search(text, { k: 2, threshold })) {
          fuzzy.push({ ...hit, score: hit.score * 0.9, span: { start: i, end: i + n }, text, exact: false });
        }
      }
    }
    // Best fuzzy links first; drop ones overlapping a better one.
    fuzzy.sort((a, b) => b.score - a.score || b.span.end - b.span.start - (a.span.end - a.span.start));
    for (const f of fuzzy) {
      if (covered.slice(f.span.start, f.span.end).some(Boolean) && !links.some((l) => l.text === f.text)) continue;
      links.push(f);
      for (let j = f.span.start; j < f.span.end; j++) covered[j] = true;
    }
  }

  const seen = new Set<string>();
  return links
    .sort((a, b) => b.score - a.score || b.span.end - b.span.start - (a.span.end - a.span.start) || a.span.start - b.span.start)
    .filter((l) => (seen.has(l.iri) ? false : (seen.add(l.iri), true)))
    .slice(0, k);
}
