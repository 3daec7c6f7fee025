/**
 * The readers' SPARQL, built as sparqljs ASTs and generated (never string-concatenated), so IRIs
 * and literals are always escaped correctly.
 */
import type * as S from 'sparqljs';
import { literal, namedNode, variable, type Term } from '../core';
import { countAll, generateSparql } from '../sparql';

type AnyTerm = S.IriTerm | S.LiteralTerm | S.VariableTerm;

export function iri(value: string): S.IriTerm {
  return namedNode(value);
}
export function v(name: string): S.VariableTerm {
  return variable(name);
}
export function lit(value: string, datatype?: string, lang?: string): S.LiteralTerm {
  return literal(value, datatype, lang);
}
/** A result term back into a query term. */
export function fromTerm(t: Term): S.IriTerm | S.LiteralTerm {
  return t.type === 'literal' ? lit(t.value, t.datatype, t.lang) : iri(t.value);
}

function triple(s: AnyTerm, p: AnyTerm, o: AnyTerm): S.Triple {
  return { subject: s, predicate: p, object: o } as S.Triple;
}
function bgp(...triples: S.Triple[]): S.BgpPattern {
  return { type: 'bgp', triples };
}
function values(name: string, terms: (S.IriTerm | S.LiteralTerm)[]): S.ValuesPattern {
  return { type: 'values', values: terms.map((t) => ({ ['?' + name]: t })) };
}
function notIn(name: string, terms: S.IriTerm[]): S.FilterPattern {
  return { type: 'filter', expression: { type: 'operation', operator: 'notin', args: [v(name), terms] } };
}
function select(variables: (S.VariableTerm | S.VariableExpression)[], where: S.Pattern[], extra: Partial<S.SelectQuery> = {}): string {
  const q: S.SelectQuery = { type: 'query', queryType: 'SELECT', prefixes: {}, variables, where, ...extra };
  return generateSparql(q);
}

export type Direction = '>' | '<';

/** Pattern for one edge seen from ?x: forward (?x ?p ?y) or backward (?y ?p ?x). */
function edge(x: AnyTerm, p: AnyTerm, y: AnyTerm, dir: Direction): S.Triple {
  return dir === '>' ? triple(x, p, y) : triple(y, p, x);
}

/** Degrees (number of non-label edges in one direction) of the given nodes. */
export function degreeQuery(nodes: (S.IriTerm | S.LiteralTerm)[], dir: Direction, labelPredicates: string[]): string {
  const count = countAll('n');
  return select([v('x'), count], [values('x', nodes), bgp(edge(v('x'), v('p'), v('y'), dir)), notIn('p', labelPredicates.map(iri))], {
    group: [{ expression: v('x') }],
  });
}

/** All non-label edges of the given nodes in one direction: rows ?x ?p ?y. */
export function edgesQuery(nodes: (S.IriTerm | S.LiteralTerm)[], dir: Direction, labelPredicates: string[], limit?: number): string {
  return select([v('x'), v('p'), v('y')], [values('x', nodes), bgp(edge(v('x'), v('p'), v('y'), dir)), notIn('p', labelPredicates.map(iri))], limit ? { limit } : {});
}

/**
 * A deterministic sample of a hub's edges: ordered by MD5 of the neighbour (a stable pseudo-random
 * order that any SPARQL 1.1 store computes the same way), first `limit` rows.
 */
export function sampledEdgesQuery(node: S.IriTerm | S.LiteralTerm, dir: Direction, labelPredicates: string[], limit: number): string {
  const order: S.Ordering[] = [{ expression: { type: 'operation', operator: 'md5', args: [{ type: 'operation', operator: 'str', args: [v('y')] }] } }];
  return select([v('x'), v('p'), v('y')], [values('x', [node]), bgp(edge(v('x'), v('p'), v('y'), dir)), notIn('p', labelPredicates.map(iri))], {
    order,
    limit,
  });
}

/** Distinct predicates per node in one direction (rows ?x ?p) — enough to extend chains by one hop. */
export function predicatesQuery(nodes: (S.IriTerm | S.LiteralTerm)[], dir: Direction, labelPredicates: string[], limit: number): string {
  return select([v('x'), v('p')], [values('x', nodes), bgp(edge(v('x'), v('p'), v('y'), dir)), notIn('p', labelPredicates.map(iri))], { distinct: true, limit });
}

/**
 * Paths along a relation chain from the topics: rows ?t ?x1 … ?xn, the nodes ?x<i> for each i of `excludeAt` kept
 * out of `exclude` (the topics).
 */
export function chainQuery(topics: S.IriTerm[], hops: { p: string; dir: Direction }[], exclude: S.IriTerm[], excludeAt: number[], limit: number): string {
  const triples: S.Triple[] = [];
  let prev: S.VariableTerm = v('t');
  hops.forEach((h, i) => {
    const next = v(`x${i + 1}`);
    triples.push(edge(prev, iri(h.p), next, h.dir));
    prev = next;
  });
  const where: S.Pattern[] = [values('t', topics), bgp(...triples)];
  if (exclude.length) for (const i of excludeAt) where.push(notIn(`x${i}`, exclude));
  return select([v('t'), ...hops.map((_, i) => v(`x${i + 1}`))], where, { distinct: true, limit });
}

/** ASK whether a term occurs in the store (as subject or object of any triple). */
export function existsQuery(t: S.IriTerm | S.LiteralTerm): string {
  const asObject: S.Pattern = { type: 'bgp', triples: [triple(v('s'), v('p'), t)] };
  const where: S.Pattern[] =
    t.termType === 'Literal'
      ? [asObject]
      : [{ type: 'union', patterns: [{ type: 'bgp', triples: [triple(t, v('p'), v('o'))] }, asObject] }];
  return generateSparql({ type: 'query', queryType: 'ASK', prefixes: {}, where });
}
