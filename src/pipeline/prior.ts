/**
 * The graph prior on the relation of a reading "(JOIN r [ X ])": how the graph relates to X (its incoming
 * triples per relation, one SPARQL count per entity of X's label) — to replace the relation of an "X films"
 * reading the parser could not tell from the words (relationPrior), and to back a reading the parser alone is
 * unsure of (priorSignals, for the calibrated confidence).
 */
import { AskgraphError, type Candidate, type Executor, type Form, type PackConfig } from '../core';
import { compileForm, packCompileOptions } from '../compile';
import { runCompiled } from '../execute';
import { children, mapChildren, mapRefs, printForm } from '../form';
import { incomingDegreesQuery, type EntityIndex } from '../ground';
import { signalsOf, type Signals } from './calibration';
import type { ScoringGenerator } from './open';
import { halted, haltOn, storeStep, traceError, type AttemptRun, type Winner } from './run';

/** What the prior reads: the store, the index, the graph's relations and the parser that scores readings. */
export interface PriorDeps {
  executor: Executor;
  index: EntityIndex;
  /** The graph's relation IRIs. */
  vocabulary: ReadonlySet<string>;
  generator: ScoringGenerator | undefined;
  config: PackConfig;
  /** The bare relation name the parser writes for a relation IRI. */
  relationName(iri: string): string | undefined;
}

export class GraphPrior {
  constructor(private readonly d: PriorDeps) {}

  /**
   * The (relation, entity) readings the graph offers for the winner's first "(JOIN r [ X ])": every relation
   * pointing at X (or at an entity of exactly X's label) with its number of triples, each scored by the parser,
   * ranked by log P(form | question) + log P(r, X' | graph). `onlyIfBetter`: undefined unless some reading holds
   * more triples than the winner's own.
   */
  private relationAlternatives(q: string, win: Winner, run: AttemptRun, onlyIfBetter: boolean) {
    // one computation per winner: the prior on the relation and the prior on the confidence share it
    let pending = this.alternativesOf.get(win);
    if (!pending) {
      pending = this.computeAlternatives(q, win, run);
      this.alternativesOf.set(win, pending);
    }
    return pending.then(async (alt) => {
      if (!alt || (onlyIfBetter && !alt.better)) return undefined;
      return { ...alt, ranked: await alt.rank() };
    });
  }

  private readonly alternativesOf = new WeakMap<Winner, ReturnType<GraphPrior['computeAlternatives']>>();

  private async computeAlternatives(q: string, win: Winner, run: AttemptRun) {
    const target = forwardEntityJoin(win.attempt.form);
    if (!target || !this.d.generator?.score || halted(run)) return undefined;
    // The entity and the others of exactly the same label (a person and a tag both labelled "Leonardo DiCaprio").
    const label = this.d.index.labelsOf(target.entity)[0];
    const same = label ? this.d.index.search(label, { k: 4 }).filter((h) => h.exact).map((h) => h.iri) : [];
    const entities = [target.entity, ...same.filter((e) => e !== target.entity)].slice(0, 3);
    const degrees = new Map<string, number>(); // "relation entity" → incoming triples
    const tq = performance.now();
    for (const e of entities) {
      // a count that could not be finished stops the question (it would decide the reading otherwise)
      const res = await storeStep(run, 'ground', 'graph prior', (timeoutMs) => this.d.executor.select(incomingDegreesQuery(e, 100), { timeoutMs }), undefined, 'graph prior: the count of relations pointing at the entity failed; the reading keeps its relation');
      if (!res) return undefined;
      for (const r of res.rows) if (r.p?.type === 'uri' && r.n && this.d.vocabulary.has(r.p.value)) degrees.set(`${r.p.value} ${e}`, Number(r.n.value));
    }
    run.timings.ground += performance.now() - tq;
    const total = [...degrees.values()].reduce((a, b) => a + b, 0);
    const own = degrees.get(`${target.relation} ${target.entity}`) ?? 0;
    const oldName = this.d.relationName(target.relation);
    if (!oldName || total === 0) return undefined;
    const better = [...degrees.values()].some((d) => d > own);
    // every (relation, entity) the graph offers, scored by the parser in one call
    const options = [...degrees.entries()].flatMap(([key, deg]) => {
      const [rel, ent] = key.split(' ') as [string, string];
      const name = this.d.relationName(rel);
      if (!name) return [];
      const form = rel === target.relation ? win.attempt.candidate.form : replaceForwardJoinRelation(win.attempt.candidate.form, oldName, name);
      return [{ rel, ent, name, deg, form, text: printForm(form) }];
    });
    const prior = (d: number) => Math.log(Math.max(d, 0.5) / total);
    const generator = this.d.generator;
    let ranking: Promise<(typeof options[number] & { logProb: number; total: number })[]> | undefined;
    // scored only when needed (the parser's pass over the options is the costly part)
    const rank = () =>
      (ranking ??= (async () => {
        const ts = performance.now();
        if (!generator.score) throw new AskgraphError('INTERNAL', 'the graph prior ranks with a parser that scores forms');
        const scores = await generator.score(q, options.map((x) => x.text));
        run.timings.generate += performance.now() - ts;
        return options.map((x, i) => ({ ...x, logProb: scores[i] ?? -Infinity, total: (scores[i] ?? -Infinity) + prior(x.deg) })).sort((a, b) => b.total - a.total);
      })());
    return { target, total, own, oldName, prior, rank, better };
  }

  /**
   * Calibration signals with the graph prior: the parser's probability mass over the relation readings of the
   * winner's "(JOIN r [ X ])" is shared out by P(form | question) · P(r, X | graph) (Bayes), so a reading the
   * graph strongly supports ("Kurosawa films": 23 directed_by triples, 1 starred_actors) is not withheld for
   * the parser's doubt between relations the words do not tell apart. Undefined when the graph does not
   * support the winner more than the parser alone does.
   */
  async priorSignals(q: string, win: Winner, beam: Candidate[], run: AttemptRun): Promise<Signals | undefined> {
    const alt = await this.relationAlternatives(q, win, run, false);
    if (!alt || alt.ranked.length < 2) return undefined;
    const mine = alt.ranked.find((x) => x.rel === alt.target.relation && x.ent === alt.target.entity);
    if (!mine || alt.ranked[0] !== mine || !Number.isFinite(mine.logProb)) return undefined;
    const lse = (xs: number[]) => {
      const m = Math.max(...xs);
      return m + Math.log(xs.reduce((a, x) => a + Math.exp(x - m), 0));
    };
    const family = alt.ranked.filter((x) => Number.isFinite(x.logProb));
    const mass = lse(family.map((x) => x.logProb));
    const joint = lse(family.map((x) => x.total));
    const adjusted = (x: (typeof family)[number]) => mass + x.total - joint;
    const logProb = adjusted(mine);
    if (logProb <= win.attempt.candidate.logProb) return undefined;
    const texts = new Set(family.map((x) => x.text));
    const nextInBeam = beam.find((c) => !texts.has(c.text))?.logProb;
    const nextInFamily = family.filter((x) => x !== mine).map(adjusted);
    const next = Math.max(...nextInFamily, nextInBeam ?? -Infinity);
    return signalsOf(logProb, [...win.attempt.entityScores, ...win.attempt.relationScores], Number.isFinite(next) ? next : undefined);
  }

  /**
   * Graph prior on the relation of "X films" readings: a question that names an entity without saying how it
   * relates ("fellini films", "Kurosawa's movies") is read by the parser as (JOIN r [ X ]) with a relation
   * it cannot tell from the words. The graph can: P(r, X' | X) ∝ the number of r-triples pointing at X' (X or an
   * entity of exactly X's label). When another (relation, entity) holds more of them, its form is scored by
   * the parser and the two are compared on log P(form | question) + log P(r, X'); the better one, if it has
   * answers, wins. Forms that say the relation ("films directed by X") keep it: the parser's probability
   * of the other relation is then far lower than the prior can make up.
   */
  async relationPrior(q: string, win: Winner, run: AttemptRun): Promise<Winner> {
    const alt = await this.relationAlternatives(q, win, run, true);
    if (!alt) return win;
    const { target, total, own, oldName, prior, ranked } = alt;
    const current = win.attempt.candidate.logProb + prior(own);
    const top = ranked[0];
    if (!top || !Number.isFinite(top.total) || top.total <= current || (top.rel === target.relation && top.ent === target.entity)) return win;
    const [best, bestEntity, bestDeg, name, altForm, altText, altLogProb] = [top.rel, top.ent, top.deg, top.name, top.form, top.text, top.logProb];
    let grounded = replaceForwardJoinRelation(win.attempt.form, target.relation, best, true);
    if (bestEntity !== target.entity) grounded = replaceEntityIri(grounded, target.entity, bestEntity);
    const te = performance.now();
    if (halted(run)) return win;
    try {
      const compiled = compileForm(grounded, packCompileOptions(this.d.config));
      const out = await runCompiled(this.d.executor, compiled, { timeoutMs: Math.min(run.o.queryTimeoutMs, run.left()) });
      run.timings.execute += performance.now() - te;
      const text = printForm(grounded);
      run.trace.push({ stage: 'execute', beamForm: altText, groundedForm: text, sparql: compiled.sparql, outcome: out.status, answerCount: out.answers.length, note: `graph prior: ${bestDeg} of ${total} triples pointing at the entity are ${name}, ${own} ${oldName}`, timeMs: performance.now() - te });
      if (haltOn(run, out, `graph prior: ${altText}`) || out.status !== 'answers') return win;
      const candidate = { ...win.attempt.candidate, form: altForm, text: altText, logProb: altLogProb };
      return { attempt: { ...win.attempt, candidate, form: grounded, text }, compiled, answers: out.answers, ...(out.table ? { table: out.table } : {}) };
    } catch (e) {
      traceError(run, 'execute', e, `graph prior: ${altText} could not be run; the reading keeps its relation`, { beamForm: altText, groundedForm: printForm(grounded) });
      return win;
    }
  }
}

/** The first (JOIN r <entity>) of a grounded form: a forward relation straight onto an entity IRI. */
function forwardEntityJoin(form: Form): { relation: string; entity: string } | undefined {
  if (form.kind === 'join' && form.relation.kind === 'rel' && form.relation.ref.kind === 'iri' && form.arg.kind === 'entity' && form.arg.ref.kind === 'iri') {
    return { relation: form.relation.ref.iri, entity: form.arg.ref.iri };
  }
  for (const c of children(form)) {
    const hit = forwardEntityJoin(c);
    if (hit) return hit;
  }
  return undefined;
}

/** The form with one entity IRI replaced by another. */
function replaceEntityIri(form: Form, from: string, to: string): Form {
  return mapRefs(form, { entity: (ref) => (ref.kind === 'iri' && ref.iri === from ? { kind: 'iri', iri: to } : ref) });
}

/** The form with the relation of its first forward entity join replaced (by name, or by IRI when `iri`). */
function replaceForwardJoinRelation(form: Form, from: string, to: string, iri = false): Form {
  let done = false;
  const walk = (f: Form): Form => {
    if (done) return f;
    if (f.kind === 'join' && f.relation.kind === 'rel' && f.arg.kind === 'entity') {
      const ref = f.relation.ref;
      const matches = iri ? ref.kind === 'iri' && ref.iri === from : ref.kind === 'name' && ref.name === from;
      if (matches) {
        done = true;
        return { ...f, relation: { kind: 'rel', ref: iri ? { kind: 'iri', iri: to } : { kind: 'name', name: to } } };
      }
    }
    return mapChildren(f, walk);
  };
  return walk(form);
}
