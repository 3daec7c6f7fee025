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
import { normalizeLabel, type Candidate, type Form, type Relation } from '../core';
import { answerTypeOf, children, mapChildren, mapRefs, printForm, printRelation } from '../form';
import { isWeakWord, usesFully, type RelationWord } from './checks';
import { copiedTextsOf, entityRefsOf } from './labels';
import { questionRelationWords, type GatewayContext } from './context';

/** How many of the beam's first readings are repaired, and how many repaired readings are scored at most. */
export const REPAIRED_READINGS = 2;
export const MAX_REPAIRS = 16;

/**
 * The form with one relation hop added, in both directions, at each place `at` picks — a subform, outermost or not —
 * one place at a time: (JOIN (R r) F) and (JOIN r F) in place of the subform F. One walk for withHop and withHopAnywhere.
 */
function hopsAt(form: Form, name: string, at: (f: Form, outermost: boolean) => boolean, outermost = true): Form[] {
  const rel: Relation = { kind: 'rel', ref: { kind: 'name', name } };
  const out: Form[] = at(form, outermost) ? [{ kind: 'join', relation: { kind: 'reverse', of: rel }, arg: form }, { kind: 'join', relation: rel, arg: form }] : [];
  children(form).forEach((kid, i) => {
    for (const v of hopsAt(kid, name, at, false)) {
      let j = -1;
      out.push(mapChildren(form, (c) => (++j === i ? v : c)));
    }
  });
  return out;
}

/** The form with one relation hop added: outside it, and in place of each entity, in both directions. */
function withHop(form: Form, name: string): Form[] {
  return hopsAt(form, name, (f, outermost) => outermost || f.kind === 'entity');
}

/**
 * The form with one relation hop added at any place of its chains: above the whole form, and above each argument of
 * a join or a conjunction — between two hops as well as in place of an entity (withHop's places, and those between)
 * —, in both directions. Only where a set of entities stands: never above a count, a class or a literal.
 */
export function withHopAnywhere(form: Form, name: string): Form[] {
  return hopsAt(form, name, (f) => f.kind === 'join' || f.kind === 'and' || f.kind === 'entity');
}

/**
 * Distinct readings in the order they are added, none of `seen` (the texts already read; filled here), at most
 * MAX_REPAIRS: what repairs and extensions give the parser to score.
 */
export function readingSet(seen: Set<string>): { add: (form: Form) => void; forms: { form: Form; text: string }[] } {
  const forms: { form: Form; text: string }[] = [];
  const add = (form: Form) => {
    const text = printForm(form);
    if (seen.has(text) || forms.length >= MAX_REPAIRS) return;
    seen.add(text);
    forms.push({ form, text });
  };
  return { add, forms };
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
 * copied the relation word into the name, and grounding finds no entity of that name. A common adjective counts as a
 * name where the mention writes it with a capital ("[ Legal department ]" → "Legal", not "[ good shop ]" → "good").
 */
export function trimmedMention(gw: Pick<GatewayContext, 'index'>, text: string): string | undefined {
  if (gw.index.hasExact(normalizeLabel(text))) return undefined;
  const words = text.split(/\s+/).filter(Boolean);
  return labelSpan(gw, words, { maxWords: words.length - 1, skipWeak: true });
}

/**
 * The longest span of the words (at most `maxWords`; holding the first word with `first`, the last with `last`) that
 * spells a label of the graph, the first of equal length; with `skipWeak`, never a span of function words and common
 * adjectives only (one written with a capital is a name). One search for trimmedMention (a span inside a mention) and completedMention (the words a
 * completed mention stands in).
 */
function labelSpan(gw: Pick<GatewayContext, 'index'>, words: readonly string[], opts: { maxWords: number; first?: boolean; last?: boolean; skipWeak?: boolean }): string | undefined {
  for (let n = Math.min(opts.maxWords, words.length); n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      if ((opts.first && i !== 0) || (opts.last && i + n !== words.length)) continue;
      const span = words.slice(i, i + n);
      // (a common adjective written with a capital is a name: "[ Legal department ]" → the department Legal)
      if (opts.skipWeak && span.every((w) => (isWeakWord(w.toLowerCase()) && !/^\p{Lu}/u.test(w)) || !/\p{L}/u.test(w))) continue;
      if (gw.index.hasExact(normalizeLabel(span.join(' ')))) return span.join(' ');
    }
  }
  return undefined;
}

/** A relation without its (R …): the relation a reverse reads the other way. */
function unreversed(r: Relation): Relation {
  return r.kind === 'reverse' ? r.of : r;
}

/** The form with each (AND A A) read as A — the same reading written twice is one; undefined when it has none. */
export function unrepeated(form: Form): Form | undefined {
  let collapsed = 0;
  const once = (f: Form): Form => {
    const g = mapChildren(f, once);
    if (g.kind !== 'and' || printForm(g.args[0]) !== printForm(g.args[1])) return g;
    collapsed++;
    return g.args[0];
  };
  const out = once(form);
  return collapsed > 0 ? out : undefined;
}

/**
 * A conjunction of two relations of one entity read as their composition: (AND (JOIN a X) (JOIN b X)) — what is both
 * X's a and X's b, nearly always nothing — is the parser's way of writing two relations it could not nest; read as
 * (JOIN a (JOIN b X)) and (JOIN b (JOIN a X)). One relation in both directions is left alone. Each AND of the form
 * is read so, one at a time; [] when none is such a conjunction.
 */
export function composed(form: Form): Form[] {
  const readings = (x: Form): Form[] => {
    if (x.kind !== 'and') return [];
    const [a, b] = x.args;
    if (a.kind !== 'join' || b.kind !== 'join' || a.arg.kind !== 'entity' || printForm(a.arg) !== printForm(b.arg)) return [];
    // the same relation both times is one reading (unrepeated); written both ways it is the parser unsure of its
    // direction, not two hops (their composition would be X's peers: what shares X's value)
    if (printRelation(unreversed(a.relation)) === printRelation(unreversed(b.relation))) return [];
    return [
      { kind: 'join', relation: a.relation, arg: b },
      { kind: 'join', relation: b.relation, arg: a },
    ];
  };
  // the form with one AND read so (this one, or one below a child)
  const out = readings(form);
  children(form).forEach((kid, i) => {
    for (const v of composed(kid)) {
      let j = -1;
      out.push(mapChildren(form, (c) => (++j === i ? v : c)));
    }
  });
  return out;
}

/** A letter, digit or underscore: a mention that ends next to one was cut out of a word of the question. */
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * A mention the parser copied from inside a word of the question, completed to the whole word it cuts when that
 * spells a label of the graph: "[ charles_lennox ]" in "… charles_lennox_1st_duke_of_richmond 's heir" names the
 * whole name, not a shorter one (a copy that stops at an underscore or mid-word is the parser's slip: the question
 * wrote one word). Undefined: the mention is a whole-word copy somewhere in the question, or no completion is a label.
 */
export function completedMention(gw: Pick<GatewayContext, 'index'>, question: string, text: string): string | undefined {
  const q = question.toLowerCase();
  const m = text.trim().toLowerCase();
  if (m === '' || q.length !== question.length) return undefined;
  let found: string | undefined;
  for (let at = q.indexOf(m); at >= 0; at = q.indexOf(m, at + 1)) {
    let s = at;
    let e = at + m.length;
    while (s > 0 && WORD_CHAR.test(question.charAt(s - 1))) s--;
    while (e < question.length && WORD_CHAR.test(question.charAt(e))) e++;
    if (s === at && e === at + m.length) return undefined; // copied as whole words
    // the longest span of those words that spells a label and keeps the completed word: "the couple of
    // elena_pavlovna_of_wurttemberg" → the name
    const words = question.slice(s, e).split(/\s+/).filter(Boolean);
    found ??= labelSpan(gw, words, { maxWords: words.length, first: s < at, last: e > at + m.length });
  }
  return found;
}

/**
 * The beam with each mention completed to the whole word of the question it was cut from (completedMention); a
 * reading that becomes one before it is dropped (the first keeps its rank). `completed` lists what was completed.
 */
export function completeMentions(gw: Pick<GatewayContext, 'index'>, question: string, beam: readonly Candidate[]): { candidates: Candidate[]; completed: { from: string; to: string }[] } {
  const completed: { from: string; to: string }[] = [];
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const c of beam) {
    const whole = new Map(entityRefsOf(c.form).flatMap((label) => {
      const w = completedMention(gw, question, label);
      return w === undefined ? [] : [[label, w] as const];
    }));
    let next = c;
    // (a reading with nothing to complete stays as the parser wrote it: no form rebuilt, no text printed again)
    if (whole.size > 0) {
      for (const [from, to] of whole) if (!completed.some((x) => x.from === from)) completed.push({ from, to });
      const form = mapRefs(c.form, { entity: (r) => (r.kind === 'label' && whole.has(r.label) ? { kind: 'label', label: whole.get(r.label) ?? r.label } : r) });
      next = { ...c, form, text: printForm(form) };
    }
    if (seen.has(next.text)) continue;
    seen.add(next.text);
    out.push(next);
  }
  return { candidates: out, completed };
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
  const { add, forms } = readingSet(new Set(beam.map((c) => c.text)));
  const words: RelationWord[] = [];
  for (const c of beam.slice(0, REPAIRED_READINGS)) {
    if (answerTypeOf(c.form) !== 'entities') continue;
    // (the trimmed reading alone is no candidate: grounding reads such a mention by its parts already)
    const cut = trimmed(gw, c.form);
    // a conjunction of one reading with itself is that reading (unrepeated), a candidate of its own
    const once = unrepeated(cut ?? c.form);
    if (once) add(once);
    const base = once ?? cut ?? c.form;
    // a trimmed mention is a label: its words are the label's, the rest of the question is outside it
    const mentions = copiedTextsOf(base).map((text) => (cut ? { text, label: text } : { text }));
    const named = questionRelationWords(gw, question, mentions);
    for (const w of named) {
      if (!words.some((x) => x.relation === w.relation)) words.push(w);
      if (!usesFully(base, w)) for (const f of [base, ...flipped(base)].flatMap((x) => withHop(x, w.relation))) add(f);
    }
    // then its conjunctions of one entity's relations read as their composition (composed; no hop is added to a
    // composition of two: a third is no repair)
    for (const b of composed(base)) add(b);
  }
  return { candidates: await scoredReadings(score, question, forms, scores, beam.length), words };
}

/**
 * Readings scored by the parser (teacher-forced log-probability), best first, ranked from `rank0`; those it cannot
 * write are dropped. A form `scores` holds (a pass of the same question scored it) is not scored again: the full
 * beam's first readings are mostly the greedy pass's.
 */
export async function scoredReadings(score: (q: string, forms: string[]) => Promise<number[]>, question: string, forms: readonly { form: Form; text: string }[], scores: Map<string, number>, rank0: number): Promise<Candidate[]> {
  if (forms.length === 0) return [];
  const fresh = forms.map((f) => f.text).filter((t) => !scores.has(t));
  if (fresh.length > 0) {
    const lp = await score(question, fresh);
    fresh.forEach((t, i) => scores.set(t, lp[i] ?? -Infinity));
  }
  const scored = forms.map((f) => ({ ...f, logProb: scores.get(f.text) ?? -Infinity })).filter((c) => Number.isFinite(c.logProb));
  scored.sort((a, b) => b.logProb - a.logProb || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  return scored.map((c, i) => ({ ...c, rank: rank0 + i }));
}

/**
 * A reading set aside only for relation words of the question it leaves out (checks.ts relationUnused), extended by
 * the hop of each such word at any place of it (withHopAnywhere), scored by the parser and ranked after the beam; an
 * extension the beam already holds is left out (it was run, and is not scored again). The beam's repairs (repairs)
 * add one hop to its first readings; a question naming three relations read as one needs a hop more, in a place the
 * first repair could not see.
 */
export async function extensions(gw: GatewayContext, question: string, reading: Candidate, beam: readonly Candidate[], scores: Map<string, number>): Promise<{ candidates: Candidate[]; words: RelationWord[] }> {
  const score = gw.generator?.score?.bind(gw.generator);
  if (!score || answerTypeOf(reading.form) !== 'entities') return { candidates: [], words: [] };
  const words = questionRelationWords(gw, question, copiedTextsOf(reading.form).map((text) => ({ text }))).filter((w) => !usesFully(reading.form, w));
  const { add, forms } = readingSet(new Set([reading.text]));
  for (const f of words.flatMap((w) => withHopAnywhere(reading.form, w.relation))) add(f);
  const inBeam = new Set(beam.map((c) => c.text));
  return { candidates: await scoredReadings(score, question, forms.filter((f) => !inBeam.has(f.text)), scores, beam.length), words };
}

/**
 * A reading whose answers are of another kind than the question asks for (checks.ts wrongKind) with the hop to a value
 * of that kind on top — (JOIN (R r) F) for each relation r whose name gives that kind ("which country …": the clubs'
 * is_in_country) — scored by the parser and ranked after the beam; one the beam holds is left out.
 */
export async function kindHops(gw: GatewayContext, question: string, reading: Candidate, relations: readonly string[], beam: readonly Candidate[], scores: Map<string, number>): Promise<Candidate[]> {
  const score = gw.generator?.score?.bind(gw.generator);
  if (!score || answerTypeOf(reading.form) !== 'entities') return [];
  const inBeam = new Set(beam.map((c) => c.text));
  const { add, forms } = readingSet(new Set([reading.text, ...inBeam]));
  for (const name of relations) add({ kind: 'join', relation: { kind: 'reverse', of: { kind: 'rel', ref: { kind: 'name', name } } }, arg: reading.form });
  return scoredReadings(score, question, forms, scores, beam.length);
}
