/**
 * Readings that add a relation the question names and the parser's readings leave out (`repairs`).
 *
 * A question word that reads clearly as one relation of the graph (relations.ts rankPhrase through
 * NearGraph.clearRelation: WordNet and GloVe nearness to the relation's name, CLEAR_READING and CLEAR_MARGIN) is a
 * part of the question a reading must use (checks.ts relationUnused). A parser that has not learnt a graph's
 * two-hop questions reads "the nationality of X's spouse" as X's nationality: the hop that "spouse" names is
 * missing. Each such reading gives a few readings with the hop added — as the outer hop, (JOIN (R r) F) and
 * (JOIN r F), or in place of an entity X, (JOIN (R r) X) and (JOIN r X) — and the parser scores each one
 * (teacher-forced log-probability, the same scale as its beam). They follow the parser's own beam, so they are
 * run and judged only when its readings are empty or set aside, and the store says which of them hold at all.
 * No word of any graph is written here: the relations are the graph's, the words the question's.
 */
import { itemAt, normalizeLabel, type Candidate, type Form, type Relation } from '../core';
import { answerTypeOf, entityRefs, mapChildren, mapRefs, printForm } from '../form';
import { isWeakWord, usesRelation, type RelationWord } from './checks';
import { copiedTextsOf } from './labels';
import { questionRelationWords, type GatewayContext } from './context';

/** How many of the beam's first readings are repaired, and how many repaired readings are scored at most. */
export const REPAIRED_READINGS = 2;
export const MAX_REPAIRS = 16;

/** The form with one relation hop added: outside it, and in place of each entity, in both directions. */
function withHop(form: Form, name: string): Form[] {
  const rel: Relation = { kind: 'rel', ref: { kind: 'name', name } };
  const hops = (x: Form): Form[] => [
    { kind: 'join', relation: { kind: 'reverse', of: rel }, arg: x },
    { kind: 'join', relation: rel, arg: x },
  ];
  const out: Form[] = [...hops(form)];
  // in place of one entity at a time
  for (let k = 0; k < entityRefs(form).length; k++) {
    for (const dir of [0, 1]) {
      let seen = -1;
      const put = (f: Form): Form => {
        if (f.kind === 'entity') return ++seen === k ? (hops(f)[dir] ?? f) : f;
        return mapChildren(f, put);
      };
      out.push(put(form));
    }
  }
  return out;
}

/**
 * A one-hop reading read the other way round: (JOIN r X) for (JOIN (R r) X) and back — the parser's direction of a
 * relation it was never trained on is a guess ("clubs with a player from X": the players of X, then their clubs).
 */
function flipped(form: Form): Form[] {
  if (form.kind !== 'join' || form.arg.kind !== 'entity') return [];
  const r = form.relation;
  if (r.kind === 'reverse') return [{ ...form, relation: r.of }];
  if (r.kind === 'rel') return [{ ...form, relation: { kind: 'reverse', of: r } }];
  return [];
}

/**
 * A mention that spells no label of the graph but holds a span of its words that does: the longest such span (the
 * first of equal length), never one of function words and common adjectives only. "[ mom of X ]" → "X": the parser
 * copied the relation word into the name, and grounding finds no entity of that name.
 */
function trimmedMention(gw: GatewayContext, text: string): string | undefined {
  if (gw.index.hasExact(normalizeLabel(text))) return undefined;
  const words = text.split(/\s+/).filter(Boolean);
  for (let n = words.length - 1; n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const span = words.slice(i, i + n);
      if (span.every((w) => isWeakWord(w.toLowerCase()) || !/\p{L}/u.test(w))) continue;
      if (gw.index.hasExact(normalizeLabel(span.join(' ')))) return span.join(' ');
    }
  }
  return undefined;
}

/** The form with each mention that spells no label trimmed to the label it holds (trimmedMention); undefined: none is. */
function trimmed(gw: GatewayContext, form: Form): Form | undefined {
  const cuts: string[] = [];
  const out = mapRefs(form, {
    entity: (r) => {
      const t = r.kind === 'label' ? trimmedMention(gw, r.label) : undefined;
      if (t === undefined) return r;
      cuts.push(t);
      return { kind: 'label', label: t };
    },
  });
  return cuts.length > 0 ? out : undefined;
}

/**
 * The repaired readings of a beam, scored by the parser; those it can write, best first, ranked after the beam. For
 * each of the first readings, with its mentions trimmed to the labels they hold (trimmed) and for each relation word
 * of the question outside them that it does not use: the reading with that hop added (withHop; a one-hop reading
 * also read the other way round). None without a scoring parser, or when nothing is to repair. `scores` holds the
 * parser's log-probabilities of the forms a pass of the same question scored before (filled here).
 */
export async function repairs(gw: GatewayContext, question: string, beam: readonly Candidate[], scores: Map<string, number> = new Map<string, number>()): Promise<{ candidates: Candidate[]; words: RelationWord[] }> {
  const score = gw.generator?.score?.bind(gw.generator);
  if (!score || beam.length === 0) return { candidates: [], words: [] };
  const seen = new Set(beam.map((c) => c.text));
  const forms: Form[] = [];
  const add = (f: Form) => {
    const text = printForm(f);
    if (seen.has(text) || forms.length >= MAX_REPAIRS) return;
    seen.add(text);
    forms.push(f);
  };
  const words: RelationWord[] = [];
  for (const c of beam.slice(0, REPAIRED_READINGS)) {
    if (answerTypeOf(c.form) !== 'entities') continue;
    // (the trimmed reading alone is no candidate: grounding reads such a mention by its parts already)
    const cut = trimmed(gw, c.form);
    const base = cut ?? c.form;
    // a trimmed mention is a label: its words are the label's, the rest of the question is outside it
    const mentions = copiedTextsOf(base).map((text) => (cut ? { text, label: text } : { text }));
    for (const w of questionRelationWords(gw, question, mentions)) {
      if (!words.some((x) => x.relation === w.relation)) words.push(w);
      if (usesRelation(base, w.relation)) continue;
      for (const f of [base, ...flipped(base)].flatMap((x) => withHop(x, w.relation))) add(f);
    }
  }
  if (forms.length === 0) return { candidates: [], words };
  // the full beam's first readings are mostly the greedy pass's: what that pass scored is not scored again
  const texts = forms.map(printForm);
  const fresh = texts.filter((t) => !scores.has(t));
  if (fresh.length > 0) {
    const lp = await score(question, fresh);
    fresh.forEach((t, i) => scores.set(t, lp[i] ?? -Infinity));
  }
  const scored = forms.map((form, i) => ({ form, text: itemAt(texts, i), logProb: scores.get(itemAt(texts, i)) ?? -Infinity })).filter((c) => Number.isFinite(c.logProb));
  scored.sort((a, b) => b.logProb - a.logProb || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  return { candidates: scored.map((c, i) => ({ ...c, rank: beam.length + i })), words };
}
