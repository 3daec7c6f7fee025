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
import { type Candidate, type Form, type Relation } from '../core';
import { answerTypeOf, mapChildren, printForm } from '../form';
import { usesRelation, type RelationWord } from './checks';
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
  const entities = (f: Form): number => (f.kind === 'entity' ? 1 : childrenOf(f).reduce((n, c) => n + entities(c), 0));
  for (let k = 0; k < entities(form); k++) {
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

function childrenOf(f: Form): Form[] {
  const out: Form[] = [];
  mapChildren(f, (c) => (out.push(c), c));
  return out;
}

/**
 * The repaired readings of a beam: for each relation word of the question that a first reading does not use,
 * that reading with the hop added, scored by the parser; those it can write, best first, ranked after the beam.
 * None without a scoring parser, or when the readings use every relation the question names.
 */
export async function repairs(gw: GatewayContext, question: string, beam: readonly Candidate[]): Promise<{ candidates: Candidate[]; words: RelationWord[] }> {
  const score = gw.generator?.score?.bind(gw.generator);
  const top = beam[0];
  if (!score || !top) return { candidates: [], words: [] };
  const words = questionRelationWords(gw, question, copiedTextsOf(top.form).map((text) => ({ text })));
  if (words.length === 0) return { candidates: [], words };
  const seen = new Set(beam.map((c) => c.text));
  const forms: Form[] = [];
  for (const c of beam.slice(0, REPAIRED_READINGS)) {
    if (answerTypeOf(c.form) !== 'entities') continue;
    for (const w of words) {
      if (usesRelation(c.form, w.relation)) continue;
      for (const f of [c.form, ...flipped(c.form)].flatMap((x) => withHop(x, w.relation))) {
        const text = printForm(f);
        if (seen.has(text) || forms.length >= MAX_REPAIRS) continue;
        seen.add(text);
        forms.push(f);
      }
    }
  }
  if (forms.length === 0) return { candidates: [], words };
  const lp = await score(question, forms.map(printForm));
  const scored = forms.map((form, i) => ({ form, text: printForm(form), logProb: lp[i] ?? -Infinity })).filter((c) => Number.isFinite(c.logProb));
  scored.sort((a, b) => b.logProb - a.logProb || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  return { candidates: scored.map((c, i) => ({ ...c, rank: beam.length + i })), words };
}
