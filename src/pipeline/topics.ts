/**
 * Names for the fallback and for "did you mean": the topic entities the fallback readers start from (the
 * beam's mentions searched in the entity index, then the entities linked in the question; none named only by
 * common words the question does not write as a name — checks.ts weakTitle), and the graph's labels near a
 * name it lacks.
 */
import { normalizeLabel, singularForms, type Candidate, type TraceEntry } from '../core';
import type { Topic } from '../fallback';
import { commonNoun, linkEntities, type EntityIndex } from '../ground';
import { wordsOf } from './abstain';
import { isWeakWord, setAsideRow, weakTitle, type CheckContext } from './checks';
import { entityRefsOf } from './labels';

/** Labels of the graph near names it lacks, for "did you mean" (best first, at most 3). */
export function nearLabels(index: EntityIndex, names: readonly string[]): string[] {
  const out: string[] = [];
  const add = (text: string, k: number, threshold = 0.6) => {
    let found = false;
    for (const h of index.search(text, { k, threshold })) {
      found = true;
      if (!out.includes(h.label) && normalizeLabel(h.label) !== normalizeLabel(text)) out.push(h.label);
    }
    return found;
  };
  // the whole name, else each of its words that could be a name ("Hitchcook and Trufaut": each a near miss)
  for (const n of names) if (!add(n, 3)) for (const w of wordsOf(n)) if (w.length >= 5 && !isWeakWord(w) && ![w, ...singularForms(w)].some(commonNoun)) add(w, 1, 0.7);
  return out.slice(0, 3);
}

/**
 * Topic entities for the fallback: the entities the beam named (searched in the index — the parser
 * finds the mention even when its copy is slightly off), then entity links found in the question.
 */
export function fallbackTopics(index: EntityIndex, checks: CheckContext, question: string, beam: Candidate[], trace: TraceEntry[]): Topic[] {
  const best = new Map<string, Topic>();
  const add = (t: Topic, text: string, match: 'exact' | 'fuzzy' | 'partial' | 'inflected') => {
    // a topic named only by common words the question does not write as a name ("more" → the film "More") is none
    const weak = weakTitle({ form: '', mentions: [{ text, label: t.label, match }] }, checks);
    if (!weak.pass) {
      if (!trace.some((r) => r.check && r.note?.endsWith(weak.reason ?? ''))) setAsideRow(trace, undefined, { ...weak, reason: `as a topic, ${weak.reason}` }, 'fallback');
      return;
    }
    const prev = best.get(t.iri);
    if (!prev || prev.score < t.score) best.set(t.iri, t);
  };
  for (const c of beam.slice(0, 3)) {
    for (const label of entityRefsOf(c.form)) for (const h of index.search(label, { k: 2, threshold: 0.6 })) add({ iri: h.iri, label: h.label, score: h.score }, label, h.match ?? (h.exact ? 'exact' : 'fuzzy'));
  }
  for (const l of linkEntities(question, index, { k: 5 })) add({ iri: l.iri, label: l.label, score: l.score }, l.text, l.exact ? 'exact' : 'fuzzy');
  return [...best.values()].sort((a, b) => b.score - a.score).slice(0, 5);
}
