import type * as S from 'sparqljs';
import { DF } from '../core';
import { generateSparql, isSafeIri, parseSparql } from '../sparql';

/**
 * The few SPARQL queries grounding asks of the store. They are written once as templates, parsed into
 * the sparqljs AST, and IRIs / limits are put into the AST as terms — no text concatenation.
 */

const TEMPLATES = {
  labels: 'SELECT ?s ?l WHERE { VALUES ?p { <urn:x> } ?s ?p ?l FILTER(isIRI(?s)) } LIMIT 1 OFFSET 0',
  relations: 'SELECT DISTINCT ?p WHERE { ?s ?p ?o } LIMIT 1',
  classes: 'SELECT DISTINCT ?c WHERE { ?s <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> ?c FILTER(isIRI(?c)) } LIMIT 1',
  unlabelled:
    'SELECT DISTINCT ?e WHERE { { ?e ?p ?o } UNION { ?s ?q ?e FILTER(?q != <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>) } FILTER(isIRI(?e)) FILTER NOT EXISTS { VALUES ?lp { <urn:x> } ?e ?lp ?l } FILTER NOT EXISTS { ?x <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> ?e } FILTER NOT EXISTS { ?a ?e ?b } } LIMIT 1 OFFSET 0',
  unlabelledCount:
    'SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE { { ?e ?p ?o } UNION { ?s ?q ?e FILTER(?q != <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>) } FILTER(isIRI(?e)) FILTER NOT EXISTS { VALUES ?lp { <urn:x> } ?e ?lp ?l } FILTER NOT EXISTS { ?x <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> ?e } FILTER NOT EXISTS { ?a ?e ?b } }',
  neighbours1: 'SELECT DISTINCT ?p WHERE { VALUES ?e { <urn:x> } { ?e ?p ?o } UNION { ?o ?p ?e } } LIMIT 1',
  degree: 'SELECT ?e (COUNT(?x) AS ?n) WHERE { VALUES ?e { <urn:x> } { ?e ?p ?x } UNION { ?x ?q ?e } } GROUP BY ?e LIMIT 1',
  incoming: 'SELECT ?p (COUNT(?s) AS ?n) WHERE { VALUES ?e { <urn:x> } ?s ?p ?e } GROUP BY ?p LIMIT 1',
  neighbours2:
    'SELECT DISTINCT ?p WHERE { { SELECT DISTINCT ?m WHERE { VALUES ?e { <urn:x> } { ?e ?q ?m } UNION { ?m ?q ?e } FILTER(isIRI(?m)) } LIMIT 1 } { ?m ?p ?o } UNION { ?o ?p ?m } } LIMIT 1',
  // neighbours2's inner select with isIRI(?m) written as "neither literal nor blank node" (the same terms): Virtuoso
  // plans isIRI on a subject variable as a scan of the whole graph (2.8 s for an entity nothing points at, on
  // 28M triples) and the negated form by the entity's index (3 ms)
  neighbourIris:
    'SELECT DISTINCT ?m WHERE { VALUES ?e { <urn:x> } { ?e ?q ?m } UNION { ?m ?q ?e } FILTER(!isLiteral(?m) && !isBlank(?m)) } LIMIT 1',
  // whether the entity is a value of the relation (as its object; as its subject)
  takesAsObject: 'SELECT ?s WHERE { VALUES ?e { <urn:x> } VALUES ?r { <urn:x> } ?s ?r ?e } LIMIT 1',
  takesAsSubject: 'SELECT ?o WHERE { VALUES ?e { <urn:x> } VALUES ?r { <urn:x> } ?e ?r ?o } LIMIT 1',
  // whether the entity is a member of the class
  isA: 'SELECT ?e WHERE { VALUES ?e { <urn:x> } VALUES ?c { <urn:x> } ?e <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> ?c } LIMIT 1',
  // the predicates that link the entity (?d 1: pointing at it, 2: from it) to some object (bridgeObjects) or
  // subject (bridgeSubjects) of the relation
  bridgeObjects:
    'SELECT DISTINCT ?p ?d WHERE { VALUES ?e { <urn:x> } VALUES ?r { <urn:x> } { ?c ?p ?e BIND(1 AS ?d) } UNION { ?e ?p ?c BIND(2 AS ?d) } FILTER(!isLiteral(?c) && !isBlank(?c)) FILTER EXISTS { ?s ?r ?c } } LIMIT 1',
  bridgeSubjects:
    'SELECT DISTINCT ?p ?d WHERE { VALUES ?e { <urn:x> } VALUES ?r { <urn:x> } { ?c ?p ?e BIND(1 AS ?d) } UNION { ?e ?p ?c BIND(2 AS ?d) } FILTER(!isLiteral(?c) && !isBlank(?c)) FILTER EXISTS { ?c ?r ?o } } LIMIT 1',
} as const;

type TemplateName = keyof typeof TEMPLATES;
const parsed = new Map<TemplateName, S.SelectQuery>();

function template(name: TemplateName): S.SelectQuery {
  let q = parsed.get(name);
  if (!q) {
    q = parseSparql(TEMPLATES[name]) as S.SelectQuery;
    parsed.set(name, q);
  }
  return JSON.parse(JSON.stringify(q), reviveTerms) as S.SelectQuery;
}

/** JSON round trip loses the RDF/JS term classes; sparqljs's generator only needs termType/value. */
function reviveTerms(_key: string, v: unknown): unknown {
  if (v && typeof v === 'object' && 'termType' in v) {
    const t = v as { termType: string; value: string; language?: string; datatype?: { value: string } };
    if (t.termType === 'NamedNode') return DF.namedNode(t.value);
    if (t.termType === 'Variable') return DF.variable(t.value);
    if (t.termType === 'Literal') return DF.literal(t.value, t.language !== '' ? t.language : t.datatype ? DF.namedNode(t.datatype.value) : undefined);
  }
  return v;
}


/** Replaces the rows of every VALUES block on `variable` (at any depth) by the given IRIs. */
function setValues(node: unknown, variable: string, iris: string[]): void {
  if (Array.isArray(node)) {
    for (const x of node) setValues(x, variable, iris);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const n = node as Record<string, unknown>;
  if (n.type === 'values' && Array.isArray(n.values)) {
    const rows = n.values as Record<string, unknown>[];
    if (rows.length > 0 && !rows.some((row) => `?${variable}` in row)) return; // another variable's block
    n.values = iris.filter(isSafeIri).map((iri) => ({ ['?' + variable]: DF.namedNode(iri) }));
    return;
  }
  for (const v of Object.values(n)) if (v && typeof v === 'object') setValues(v, variable, iris);
}

/** Sets LIMIT (and OFFSET) on the outermost query and, with `inner`, on the first sub-select. */
function setLimits(q: S.SelectQuery, limit: number, offset?: number, inner?: number): void {
  q.limit = limit;
  if (offset !== undefined) q.offset = offset;
  if (inner !== undefined) {
    const sub = findSubSelect(q.where);
    if (sub) sub.limit = inner;
  }
}

/** The first sub-SELECT among the patterns (depth first). */
function findSubSelect(patterns: S.Pattern[] | undefined): S.SelectQuery | undefined {
  for (const p of patterns ?? []) {
    if (p.type === 'query') return p;
    const f = 'patterns' in p ? findSubSelect(p.patterns) : undefined;
    if (f) return f;
  }
  return undefined;
}

export function labelsPageQuery(predicates: string[], limit: number, offset: number): string {
  const q = template('labels');
  setValues(q.where, 'p', predicates);
  setLimits(q, limit, offset);
  return generateSparql(q);
}

export function relationsQuery(limit: number): string {
  const q = template('relations');
  setLimits(q, limit);
  return generateSparql(q);
}

/** The classes of the store (objects of rdf:type), at most `limit`. */
export function classesQuery(limit: number): string {
  const q = template('classes');
  setLimits(q, limit);
  return generateSparql(q);
}

/** Predicates pointing at the entity, with how many subjects each (what the entity mostly is the object of). */
export function incomingDegreesQuery(entity: string, limit: number): string {
  const q = template('incoming');
  setValues(q.where, 'e', [entity]);
  setLimits(q, limit);
  return generateSparql(q);
}

/** How many triples touch each entity (either direction): the graph-degree signal of ambiguous partial names. */
export function degreesQuery(entities: string[]): string {
  const q = template('degree');
  setValues(q.where, 'e', entities);
  setLimits(q, Math.max(1, entities.length));
  return generateSparql(q);
}

/** Distinct predicates on triples touching the entities (either direction). */
export function neighbours1Query(entities: string[], limit: number): string {
  const q = template('neighbours1');
  setValues(q.where, 'e', entities);
  setLimits(q, limit);
  return generateSparql(q);
}

/** Distinct predicates one step further: around up to `sample` neighbours of the entities. */
export function neighbours2Query(entities: string[], sample: number, limit: number): string {
  const q = template('neighbours2');
  setValues(q.where, 'e', entities);
  setLimits(q, limit, undefined, sample);
  return generateSparql(q);
}

/** The distinct IRI neighbours of the entities (either direction), at most `limit` of them. */
export function neighbourIrisQuery(entities: string[], limit: number): string {
  const q = template('neighbourIris');
  setValues(q.where, 'e', entities);
  setLimits(q, limit);
  return generateSparql(q);
}

/**
 * Whether the entity is a value of the relation: an object of it (`asObject`: some ?s r e), else a subject (e r ?o).
 * One row or none.
 */
export function takesQuery(relation: string, entity: string, asObject: boolean): string {
  const q = template(asObject ? 'takesAsObject' : 'takesAsSubject');
  setValues(q.where, 'e', [entity]);
  setValues(q.where, 'r', [relation]);
  return generateSparql(q);
}

/** Whether the entity is a member of the class (rdf:type). One row or none. */
export function isAQuery(entity: string, cls: string): string {
  const q = template('isA');
  setValues(q.where, 'e', [entity]);
  setValues(q.where, 'c', [cls]);
  return generateSparql(q);
}

/**
 * The predicates ?p that link the entity to a value of the relation, one hop away: with `toObjects`, to an object of
 * it (some ?s r ?c), else to a subject (?c r ?o); ?d is 1 for (?c ?p e), 2 for (e ?p ?c). At most `limit` rows.
 */
export function bridgeQuery(relation: string, entity: string, toObjects: boolean, limit: number): string {
  const q = template(toObjects ? 'bridgeObjects' : 'bridgeSubjects');
  setValues(q.where, 'e', [entity]);
  setValues(q.where, 'r', [relation]);
  setLimits(q, limit);
  return generateSparql(q);
}

/**
 * Entities (IRIs in subject or non-type object position, neither classes nor predicates) without a label
 * through the given predicates, page by page: they get their split local name as label (localNameLabels).
 */
export function unlabelledEntitiesQuery(labelPredicates: string[], limit: number, offset: number): string {
  const q = template('unlabelled');
  setValues(q.where, 'lp', labelPredicates);
  setLimits(q, limit, offset);
  return generateSparql(q);
}

/** How many entities have no label through the given predicates (as unlabelledEntitiesQuery). */
export function unlabelledCountQuery(labelPredicates: string[]): string {
  const q = template('unlabelledCount');
  setValues(q.where, 'lp', labelPredicates);
  return generateSparql(q);
}
