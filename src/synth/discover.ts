/**
 * Schema discovery: what a graph holds, read through bounded SPARQL only, so it runs the same on the
 * embedded Oxigraph store and on a remote endpoint (Virtuoso in the integration tests). Every query has a
 * timeout; lists are paged with LIMIT/OFFSET; per-property details come from a sample of its triples, and
 * exact whole-store aggregates (distinct counts, functionality, min/max) are tried with a timeout and fall
 * back to the sample when the store refuses or is too big (`exactLimit`).
 *
 * Queries are templates parsed into the sparqljs AST once; IRIs and limits go in as AST terms (never text).
 */
import type * as S from 'sparqljs';
import { DataFactory } from 'rdf-data-factory';
import {
  ALIAS_PREDICATES,
  defined,
  iriLocalName,
  itemAt,
  LABEL_PREDICATES,
  LOCAL_NAME_SOURCE,
  localNameLabel,
  RDF_TYPE,
  RDFS_DOMAIN,
  RDFS_RANGE,
  termPhrase,
  XSD,
  type Executor,
  type Term,
} from '../core';
import { generateSparql, parseSparql } from '../sparql';
import { lookupLabels } from '../execute';
import { unlabelledCountQuery } from '../ground';
import type { LabelSource, Schema, SchemaClass, SchemaProperty, ValueKind } from './types';

const DF = new DataFactory();
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
const OWL = 'http://www.w3.org/2002/07/owl#';

/** Namespaces whose predicates and classes describe the schema itself, not the data. */
const META_NAMESPACES = [RDF, RDFS, OWL, 'http://www.w3.org/ns/shacl#'];

/** Operators and keywords of the form language: never used as bare names. */
const RESERVED = new Set(
  'JOIN R AND OR COUNT ARGMAX ARGMIN GT GE LT LE TC ASK DIFF AVG SUM MAX MIN RATIO PERCENT MOSTCOMMON LEASTCOMMON ARGMAXCOUNT ARGMINCOUNT ABSDIFF true false'.split(' '),
);

export interface DiscoverOptions {
  /** Timeout of each query (default 30 s). */
  timeoutMs?: number;
  /** Rows per page when listing predicates and classes (default 1000). */
  pageSize?: number;
  /** Triples sampled per property (default 400). */
  sample?: number;
  /** At most this many properties / classes are described (most used first; default 400 / 400). */
  maxProperties?: number;
  maxClasses?: number;
  /** Above this many triples, whole-store distinct counts / functionality / ranges are estimated from samples (default 5,000,000). */
  exactLimit?: number;
  typePredicate?: string;
  /** Candidate label predicates, in order of preference (default LABEL_PREDICATES). */
  labelPredicates?: string[];
  /** Predicates in these namespaces are not described (e.g. a minted relation vocabulary that is schema-less anyway stays). */
  excludeNamespaces?: string[];
  /** Progress: `done` of `total` steps, with what is being read. */
  onProgress?: (done: number, total: number, what: string) => void;
}

// ---------- query templates (parsed once, filled as AST) ----------

const P = 'urn:askgraph:p';
const TYPE = 'urn:askgraph:type';
const NODES = 'urn:askgraph:nodes';

const TEMPLATES = {
  triples: 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }',
  entities: 'SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE { { ?e ?p ?o } UNION { ?s ?q ?e FILTER(isIRI(?e) && ?q != <urn:askgraph:type>) } }',
  subjects: 'SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s ?p ?o }',
  predicates: 'SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p ORDER BY DESC(?n) ?p LIMIT 1 OFFSET 0',
  predicatesDistinct: 'SELECT DISTINCT ?p WHERE { ?s ?p ?o } LIMIT 1 OFFSET 0',
  predicateCount: 'SELECT (COUNT(*) AS ?n) WHERE { ?s <urn:askgraph:p> ?o }',
  classes: 'SELECT ?c (COUNT(*) AS ?n) WHERE { ?s <urn:askgraph:type> ?c FILTER(isIRI(?c)) } GROUP BY ?c ORDER BY DESC(?n) ?c LIMIT 1 OFFSET 0',
  declared: 'SELECT ?p ?c WHERE { ?p <urn:askgraph:p> ?c FILTER(isIRI(?c)) } LIMIT 1 OFFSET 0',
  stats: 'SELECT (COUNT(*) AS ?n) (COUNT(DISTINCT ?s) AS ?ns) (COUNT(DISTINCT ?o) AS ?no) WHERE { ?s <urn:askgraph:p> ?o }',
  sample: 'SELECT ?s ?o WHERE { ?s <urn:askgraph:p> ?o } LIMIT 1',
  multi: 'SELECT ?s WHERE { ?s <urn:askgraph:p> ?o } GROUP BY ?s HAVING (COUNT(?o) > 1) LIMIT 1',
  multiOf: 'SELECT ?s (COUNT(?o) AS ?n) WHERE { VALUES ?s { <urn:askgraph:nodes> } ?s <urn:askgraph:p> ?o } GROUP BY ?s',
  typesOf: 'SELECT ?c (COUNT(DISTINCT ?x) AS ?n) WHERE { VALUES ?x { <urn:askgraph:nodes> } ?x <urn:askgraph:type> ?c } GROUP BY ?c',
  numberRange:
    'PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> SELECT (MIN(?v) AS ?min) (MAX(?v) AS ?max) WHERE { ?s <urn:askgraph:p> ?o FILTER(isLiteral(?o)) BIND(xsd:double(STR(?o)) AS ?v) FILTER(BOUND(?v)) }',
  literalRange: 'SELECT (MIN(?o) AS ?min) (MAX(?o) AS ?max) WHERE { ?s <urn:askgraph:p> ?o FILTER(isLiteral(?o)) }',
  edges: 'SELECT ?s ?o WHERE { ?s <urn:askgraph:p> ?o FILTER(isIRI(?s) && isIRI(?o)) } LIMIT 1',
  labelledBy: 'SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s <urn:askgraph:p> ?l FILTER(isIRI(?s)) }',
} as const;

type TemplateName = keyof typeof TEMPLATES;
const parsed = new Map<TemplateName, S.SelectQuery>();

/** A template with its placeholders replaced: single IRIs in place, VALUES rows expanded to `nodes`. */
function query(name: TemplateName, fill: { p?: string; type?: string; nodes?: string[]; limit?: number; offset?: number } = {}): string {
  let q = parsed.get(name);
  if (!q) {
    q = parseSparql(TEMPLATES[name]) as S.SelectQuery;
    parsed.set(name, q);
  }
  const map: Record<string, string | undefined> = { [P]: fill.p, [TYPE]: fill.type };
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const n = node as Record<string, unknown>;
    if (n.termType === 'NamedNode' && typeof n.value === 'string' && n.value in map) {
      const iri = map[n.value];
      if (iri === undefined) throw new Error(`discover: template ${name} needs ${n.value}`);
      return DF.namedNode(iri);
    }
    if ('termType' in n) return n; // an RDF/JS term (sparqljs tells terms by their class)
    if (n.type === 'values' && Array.isArray(n.values)) {
      const rows = n.values as Record<string, { termType: string; value: string }>[];
      const v = Object.keys(rows[0] ?? {})[0];
      if (v && rows[0]?.[v]?.value === NODES) return { ...n, values: (fill.nodes ?? []).map((iri) => ({ [v]: DF.namedNode(iri) })) };
    }
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(n)) out[k] = walk(x);
    return out;
  };
  const filled = walk(q) as S.SelectQuery; // a new tree; the parsed template is never changed
  if (fill.limit !== undefined) filled.limit = fill.limit;
  if (fill.offset !== undefined) filled.offset = fill.offset;
  return generateSparql(filled);
}

// ---------- helpers ----------

function num(t: Term | undefined): number | undefined {
  if (!t) return undefined;
  const n = Number(t.value);
  return Number.isFinite(n) ? n : undefined;
}

function inNamespaces(iri: string, namespaces: string[]): boolean {
  return namespaces.some((ns) => iri.startsWith(ns));
}

const NUMERIC = new Set(
  ['integer', 'decimal', 'double', 'float', 'int', 'long', 'short', 'byte', 'nonNegativeInteger', 'positiveInteger', 'negativeInteger', 'nonPositiveInteger', 'unsignedInt', 'unsignedLong', 'unsignedShort', 'unsignedByte'].map((t) => XSD + t),
);
const DATES = new Set(['date', 'dateTime', 'dateTimeStamp', 'gYearMonth'].map((t) => XSD + t));
const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DATE_TEXT = /^-?\d{4}-\d{2}(-\d{2})?(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;
const YEAR_TEXT = /^\d{4}$/;

/** The year of a date-like text (1994-05-01 → 1994), else NaN. */
function yearOfText(v: string): number {
  const m = /^(-?\d{4})/.exec(v.trim());
  return m ? Number(m[1]) : NaN;
}

/**
 * What a list of values is, for comparisons and aggregates: 4-digit integers on a year-like property
 * (or xsd:gYear) are years; numbers; ISO dates; booleans; else strings. `texts` are literal lexical
 * forms or entity labels.
 */
export function valueKindOf(texts: string[], datatype: string | undefined, phrase: string): ValueKind | undefined {
  if (texts.length === 0) return undefined;
  if (datatype === XSD + 'gYear') return 'year';
  if (datatype === XSD + 'boolean') return 'boolean';
  if (datatype && DATES.has(datatype)) return 'date';
  const allNumbers = texts.every((t) => NUMBER_TEXT.test(t.trim()));
  if ((datatype && NUMERIC.has(datatype)) || allNumbers) {
    const years = texts.every((t) => YEAR_TEXT.test(t.trim()) && Number(t) >= 1000 && Number(t) <= 2100);
    return years && /\byears?\b|\byr\b/i.test(phrase) ? 'year' : allNumbers ? 'number' : 'string';
  }
  if (texts.every((t) => DATE_TEXT.test(t.trim()))) return 'date';
  if (texts.every((t) => /^(true|false)$/i.test(t.trim()))) return 'boolean';
  return 'string';
}

/** A bare-name token from a local name: letters, digits and '_' only, starting with a letter. */
export function nameToken(local: string, fallback: string): string {
  let s = local
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!s) s = fallback;
  if (!/^[A-Za-z]/.test(s)) s = fallback + '_' + s;
  return s;
}

/** A short token for an IRI's namespace, to tell apart equal local names: foaf, schema, dbo… */
function namespaceToken(iri: string): string {
  const local = iriLocalName(iri);
  const ns = iri.slice(0, iri.length - encodeURI(local).length).replace(/[/#:]+$/, '');
  let host = '';
  let segs: string[] = [];
  try {
    const u = new URL(ns);
    host = u.hostname.replace(/^www\./, '');
    segs = u.pathname.split('/').filter(Boolean);
  } catch {
    segs = ns.split(/[/:#]/).filter(Boolean);
  }
  const alpha = segs.filter((s) => /^[A-Za-z][A-Za-z0-9_-]*$/.test(s));
  const first = host.split('.')[0] ?? '';
  const pick = alpha.at(-1) ?? (first === '' ? 'ns' : first);
  return nameToken(pick, 'ns').toLowerCase();
}

/**
 * Unique bare names for IRIs (classes and properties share one name space): the local name as a token;
 * IRIs whose local names collide get their namespace token as prefix (foaf_name, schema_name), then
 * a number; operator words are never names. Deterministic for a given set of IRIs.
 */
export function assignNames(iris: string[], fallback: (iri: string) => string = () => 'x'): Map<string, string> {
  const base = new Map<string, string>();
  for (const iri of iris) base.set(iri, nameToken(iriLocalName(iri), fallback(iri)));
  const groups = new Map<string, string[]>();
  for (const iri of [...iris].sort()) {
    const b = defined(base.get(iri), 'base name');
    groups.set(b, [...(groups.get(b) ?? []), iri]);
  }
  const out = new Map<string, string>();
  const used = new Set<string>();
  const take = (iri: string, want: string) => {
    let name = RESERVED.has(want) || RESERVED.has(want.toUpperCase()) ? want + '_' : want;
    for (let i = 2; used.has(name); i++) name = `${want}_${i}`;
    used.add(name);
    out.set(iri, name);
  };
  // Unique local names first, so a prefixed name never takes a plain one.
  for (const [b, [only, ...more]] of groups) if (only !== undefined && more.length === 0) take(only, b);
  for (const [b, members] of groups) if (members.length > 1) for (const iri of members) take(iri, `${namespaceToken(iri)}_${b}`);
  return out;
}

// ---------- discovery ----------

interface Reader {
  executor: Pick<Executor, 'select'>;
  timeoutMs: number;
  warnings: string[];
}

async function rows(r: Reader, q: string): Promise<Record<string, Term>[] | undefined> {
  try {
    return (await r.executor.select(q, { timeoutMs: r.timeoutMs })).rows;
  } catch (e) {
    r.warnings.push((e as Error).message.split('\n')[0] ?? '');
    return undefined;
  }
}

async function countOf(r: Reader, q: string): Promise<number | undefined> {
  const res = await rows(r, q);
  return res ? (num(res[0]?.n) ?? 0) : undefined;
}

/** Pages a list query until a short page (or `max` rows). */
async function paged(r: Reader, make: (limit: number, offset: number) => string, pageSize: number, max: number): Promise<Record<string, Term>[] | undefined> {
  const out: Record<string, Term>[] = [];
  for (let offset = 0; offset < max; offset += pageSize) {
    const page = await rows(r, make(Math.min(pageSize, max - offset), offset));
    if (!page) return offset === 0 ? undefined : out;
    out.push(...page);
    if (page.length < pageSize) break;
  }
  return out;
}

/** Labels of schema terms / sample objects through the label predicates, else their split local names. */
async function labelsOf(r: Reader, iris: string[], predicates: string[]): Promise<Map<string, string>> {
  let found = new Map<string, string>();
  if (predicates.length && iris.length) {
    try {
      found = await lookupLabels((q, o) => r.executor.select(q, o), iris, predicates, { timeoutMs: r.timeoutMs });
    } catch (e) {
      r.warnings.push((e as Error).message.split('\n')[0] ?? '');
    }
  }
  return found;
}

export interface DiscoveryResult extends Schema {
  /** Queries that failed or timed out (the values they would have given were estimated from samples). */
  warnings?: string[];
}

export interface LabelSourceResult {
  /** Label predicates present in the store, in order of preference (at least rdfs:label, so a pack config stays valid). */
  labelPredicates: string[];
  aliasPredicates: string[];
  /** Entities labelled per predicate, and (source 'iri-local-name') entities left to their local names. */
  labelSources: LabelSource[];
  /** Some entities have no label triple: the pack should set localNameLabels. */
  localNameLabels: boolean;
}

async function labelSourcesOf(r: Reader, candidates: string[], present?: Set<string>): Promise<LabelSourceResult> {
  const labelSources: LabelSource[] = [];
  const labelPredicates: string[] = [];
  const aliasPredicates: string[] = [];
  for (const p of [...candidates, ...ALIAS_PREDICATES.filter((a) => !candidates.includes(a))]) {
    if (present && !present.has(p)) continue;
    const count = await countOf(r, query('labelledBy', { p }));
    if (count === 0) continue;
    labelSources.push({ source: p, count: count ?? -1 });
    (ALIAS_PREDICATES.includes(p) ? aliasPredicates : labelPredicates).push(p);
  }
  const allLabelPreds = [...labelPredicates, ...aliasPredicates];
  // The exact count reads the whole graph: a large endpoint refuses it or runs out of time (Virtuoso with
  // 28M triples, and even a small named graph in a large database). Then a bounded sample decides.
  let unlabelled = await countOf(r, unlabelledCountQuery(allLabelPreds));
  let sampled = false;
  if (unlabelled === undefined && present && allLabelPreds.length) {
    const s = await sampledUnlabelled(r, [...present].filter((p) => !inNamespaces(p, META_NAMESPACES) && !allLabelPreds.includes(p)), allLabelPreds);
    if (s) {
      unlabelled = s.unlabelled;
      sampled = true;
      r.warnings.push(`entities without a label: the exact count did not finish; ${s.unlabelled} of ${s.sampled} sampled entities have none`);
    }
  }
  // a sample that found unlabelled entities does not know how many (-1); one that found none says 0
  if (unlabelled === undefined || unlabelled > 0) labelSources.push({ source: LOCAL_NAME_SOURCE, count: unlabelled === undefined || sampled ? -1 : unlabelled });
  return {
    labelPredicates: labelPredicates.length ? labelPredicates : LABEL_PREDICATES.slice(0, 1),
    aliasPredicates,
    labelSources,
    localNameLabels: unlabelled === undefined || unlabelled > 0,
  };
}

/** Triples sampled per predicate by sampledUnlabelled (their subjects and IRI objects are checked for labels). */
const UNLABELLED_SAMPLE_PER_PREDICATE = 50;

/**
 * Bounded stand-in for the whole-graph unlabelled count: the subjects and IRI objects of the first triples
 * of each data predicate (at most 400 predicates × 50 triples, each query with its timeout), checked for a
 * label through the label predicates (VALUES lookups). Classes and predicates are not entities. Undefined
 * when no sample could be read.
 */
async function sampledUnlabelled(r: Reader, predicates: string[], labelPredicates: string[]): Promise<{ sampled: number; unlabelled: number } | undefined> {
  const nodes = new Set<string>();
  let read = false;
  for (const p of predicates.slice(0, 400)) {
    const page = await rows(r, query('sample', { p, limit: UNLABELLED_SAMPLE_PER_PREDICATE }));
    if (!page) continue;
    read = true;
    for (const row of page) {
      if (row.s?.type === 'uri') nodes.add(row.s.value);
      if (row.o?.type === 'uri' && p !== RDF_TYPE) nodes.add(row.o.value);
    }
  }
  if (!read) return undefined;
  const schemaTerms = new Set(predicates);
  const entities = [...nodes].filter((n) => !schemaTerms.has(n));
  // in chunks, each with the query timeout: a chunk that fails leaves its entities out of the sample
  let sampled = 0;
  let unlabelled = 0;
  for (let i = 0; i < entities.length; i += 200) {
    const chunk = entities.slice(i, i + 200);
    try {
      const labelled = await lookupLabels((q, o) => r.executor.select(q, o), chunk, labelPredicates, { timeoutMs: r.timeoutMs });
      sampled += chunk.length;
      unlabelled += chunk.filter((e) => !labelled.has(e)).length;
    } catch (e) {
      r.warnings.push((e as Error).message.split('\n')[0] ?? '');
    }
  }
  return sampled > 0 ? { sampled, unlabelled } : undefined;
}

/**
 * Which label predicates a store uses (rdfs:label, skos:prefLabel/altLabel, schema:name, foaf:name, dc:title)
 * with the number of entities each labels, and how many entities have none (they are labelled by their
 * IRI local names). Used by `askgraph load` and `askgraph init`.
 */
export async function discoverLabelSources(executor: Pick<Executor, 'select'>, opts: { timeoutMs?: number; labelPredicates?: string[] } = {}): Promise<LabelSourceResult> {
  const r: Reader = { executor, timeoutMs: opts.timeoutMs ?? 30_000, warnings: [] };
  return labelSourcesOf(r, opts.labelPredicates ?? [...LABEL_PREDICATES]);
}

/** One line per label source, for `load` / `init` output: "rdfs:label 9,953 entities; IRI local names 4 entities". */
export function describeLabelSources(sources: LabelSource[]): string {
  if (sources.length === 0) return 'no entities';
  const short = (iri: string) =>
    iri === LOCAL_NAME_SOURCE
      ? 'IRI local names'
      : iri.replace('http://www.w3.org/2000/01/rdf-schema#', 'rdfs:').replace('http://www.w3.org/2004/02/skos/core#', 'skos:').replace(/^https?:\/\/schema\.org\//, 'schema:').replace('http://xmlns.com/foaf/0.1/', 'foaf:').replace('http://purl.org/dc/elements/1.1/', 'dc:').replace('http://purl.org/dc/terms/', 'dcterms:');
  return sources.map((s) => `${short(s.source)} ${s.count >= 0 ? s.count.toLocaleString('en-US') : '?'} entities`).join('; ');
}

/** Reads the schema of a store: label sources, classes, properties with their statistics. */
export async function discoverSchema(executor: Pick<Executor, 'select' | 'id'>, opts: DiscoverOptions = {}): Promise<Schema> {
  const r: Reader = { executor, timeoutMs: opts.timeoutMs ?? 30_000, warnings: [] };
  const pageSize = opts.pageSize ?? 1000;
  const sampleSize = opts.sample ?? 400;
  const typePredicate = opts.typePredicate ?? RDF_TYPE;
  const candidates = opts.labelPredicates ?? [...LABEL_PREDICATES];
  const exclude = [...META_NAMESPACES, ...(opts.excludeNamespaces ?? [])];
  const progress = opts.onProgress ?? (() => undefined);
  let done = 0;
  let total = 6;
  const step = (what: string) => progress(++done, total, what);

  // 1. size
  const triples = (await countOf(r, query('triples'))) ?? -1;
  const exact = triples >= 0 && triples <= (opts.exactLimit ?? 5_000_000);
  step('size');

  // 2. predicates with counts (GROUP BY; a store that refuses it: DISTINCT ?p then one count each)
  const maxProps = opts.maxProperties ?? 400;
  let predRows = await paged(r, (limit, offset) => query('predicates', { limit, offset }), pageSize, 20_000);
  let predicateCounts: [string, number][];
  if (predRows) {
    predicateCounts = predRows.flatMap((x): [string, number][] => (x.p?.type === 'uri' ? [[x.p.value, num(x.n) ?? 0]] : []));
  } else {
    predRows = (await paged(r, (limit, offset) => query('predicatesDistinct', { limit, offset }), pageSize, 20_000)) ?? [];
    predicateCounts = [];
    for (const x of predRows) {
      if (x.p?.type !== 'uri') continue;
      predicateCounts.push([x.p.value, (await countOf(r, query('predicateCount', { p: x.p.value }))) ?? 0]);
    }
    predicateCounts.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  }
  const present = new Set(predicateCounts.map(([p]) => p));
  step('predicates');

  // 3. label sources
  const { labelPredicates, aliasPredicates, labelSources } = await labelSourcesOf(r, candidates, present);
  // distinct entities: a whole-graph scan, only tried where exact counts are (a large graph: -1, unknown)
  const entities = exact ? ((await countOf(r, query('entities', { type: typePredicate }))) ?? (await countOf(r, query('subjects'))) ?? -1) : -1;
  step('labels');

  // 4. classes
  const classRows = (await paged(r, (limit, offset) => query('classes', { type: typePredicate, limit, offset }), pageSize, opts.maxClasses ?? 400)) ?? [];
  const classCounts = classRows.flatMap((x): [string, number][] => (x.c?.type === 'uri' && !inNamespaces(x.c.value, META_NAMESPACES) ? [[x.c.value, num(x.n) ?? 0]] : []));
  step('classes');

  // 5. declared domains / ranges
  const declared = async (rel: string) => {
    const m = new Map<string, string[]>();
    for (const x of (await paged(r, (limit, offset) => query('declared', { p: rel, limit, offset }), pageSize, 20_000)) ?? []) {
      if (x.p?.type === 'uri' && x.c?.type === 'uri' && !inNamespaces(x.c.value, [XSD, RDFS])) m.set(x.p.value, [...(m.get(x.p.value) ?? []), x.c.value]);
    }
    return m;
  };
  const domains = present.has(RDFS_DOMAIN) ? await declared(RDFS_DOMAIN) : new Map<string, string[]>();
  const ranges = present.has(RDFS_RANGE) ? await declared(RDFS_RANGE) : new Map<string, string[]>();
  step('domains');

  // 6. properties
  const skip = new Set([typePredicate, ...labelPredicates, ...aliasPredicates]);
  const props = predicateCounts.filter(([p]) => !skip.has(p) && !inNamespaces(p, exclude)).slice(0, maxProps);
  total = done + props.length + 1;
  const allLabelPreds = [...labelPredicates, ...aliasPredicates];
  const schemaLabels = await labelsOf(r, [...classCounts.map(([c]) => c), ...props.map(([p]) => p)], labelPredicates);
  const properties: Omit<SchemaProperty, 'name'>[] = [];
  for (const [p, count] of props) {
    properties.push(await describeProperty(r, p, count, { exact, sampleSize, typePredicate, labelPredicates: allLabelPreds, label: schemaLabels.get(p), domains, ranges }));
    step(iriLocalName(p));
  }

  const names = assignNames(
    [...classCounts.map(([c]) => c), ...properties.map((p) => p.iri)],
    (iri) => (classCounts.some(([c]) => c === iri) ? 'class' : 'prop'),
  );
  const classes: SchemaClass[] = classCounts.map(([iri, count]) => ({ iri, name: defined(names.get(iri), 'class name'), label: phraseOf(schemaLabels.get(iri), iri), count }));
  step('names');
  const schema: DiscoveryResult = {
    store: executor.id,
    createdAt: new Date().toISOString(),
    triples,
    entities,
    typePredicate,
    labelPredicates,
    labelSources,
    classes,
    properties: properties.map(({ iri, ...rest }) => ({ iri, name: defined(names.get(iri), 'property name'), ...rest })),
  };
  if (r.warnings.length) schema.warnings = r.warnings.slice(0, 50);
  return schema;
}

interface PropertyContext {
  exact: boolean;
  sampleSize: number;
  typePredicate: string;
  labelPredicates: string[];
  label?: string;
  domains: Map<string, string[]>;
  ranges: Map<string, string[]>;
}

async function describeProperty(r: Reader, p: string, count: number, c: PropertyContext): Promise<Omit<SchemaProperty, 'name'>> {
  const label = phraseOf(c.label, p);
  const sample = (await rows(r, query('sample', { p, limit: c.sampleSize }))) ?? [];
  const subjects = new Map<string, number>();
  const objects = new Set<string>();
  const entityObjects: string[] = [];
  const literals: Term[] = [];
  for (const row of sample) {
    if (row.s) subjects.set(row.s.value, (subjects.get(row.s.value) ?? 0) + 1);
    if (!row.o) continue;
    objects.add(`${row.o.type} ${row.o.value}`);
    if (row.o.type === 'literal') literals.push(row.o);
    else if (row.o.type === 'uri') entityObjects.push(row.o.value);
  }
  const objectKind: SchemaProperty['objectKind'] = literals.length && entityObjects.length ? 'mixed' : literals.length ? 'literal' : 'entity';

  // whole-store counts when affordable, else the sample's proportions
  let subjectsN: number | undefined;
  let objectsN: number | undefined;
  if (c.exact) {
    const st = await rows(r, query('stats', { p }));
    const counts = st?.[0];
    if (counts) {
      subjectsN = num(counts.ns);
      objectsN = num(counts.no);
    }
  }
  const scale = sample.length ? count / sample.length : 1;
  subjectsN ??= Math.round(subjects.size * scale);
  objectsN ??= Math.round(objects.size * scale);

  // functional: at most one object per subject
  let functional: boolean | undefined;
  if (c.exact) functional = subjectsN === count;
  // (the whole-property GROUP BY only where exact counts are: on a large graph it runs into its timeout per property)
  if (functional === undefined && c.exact) {
    const multi = await rows(r, query('multi', { p, limit: 1 }));
    if (multi) functional = multi.length === 0;
  }
  if (functional === undefined) {
    const some = [...subjects.keys()].slice(0, 100);
    const res = await rows(r, query('multiOf', { p, nodes: some }));
    functional = res ? res.every((x) => (num(x.n) ?? 0) <= 1) : [...subjects.values()].every((n) => n <= 1);
  }

  // domain / range: declared, else the types seen on the sample
  const observed = async (nodes: string[]): Promise<string[]> => {
    const some = [...new Set(nodes)].slice(0, 200);
    if (some.length === 0) return [];
    const res = await rows(r, query('typesOf', { type: c.typePredicate, nodes: some }));
    if (!res) return [];
    return res
      .flatMap((x) => (x.c?.type === 'uri' && !inNamespaces(x.c.value, META_NAMESPACES) && (num(x.n) ?? 0) >= 0.2 * some.length ? [{ c: x.c.value, n: num(x.n) ?? 0 }] : []))
      .sort((a, b) => b.n - a.n || (a.c < b.c ? -1 : 1))
      .map((x) => x.c);
  };
  const domain = c.domains.get(p) ?? (await observed([...subjects.keys()]));
  const range = c.ranges.get(p) ?? (objectKind === 'literal' ? [] : await observed(entityObjects));

  // values: literals by datatype / lexical form; entities by their labels (MetaQA's "1994" year entities)
  const out: Omit<SchemaProperty, 'name'> = { iri: p, label, count, subjects: subjectsN, objects: objectsN, domain, range, objectKind, functional };
  if (literals.length) {
    const dts = new Map<string, number>();
    for (const l of literals) {
      const dt = l.datatype ?? (l.lang ? 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString' : XSD + 'string');
      dts.set(dt, (dts.get(dt) ?? 0) + 1);
    }
    const [datatype] = itemAt([...dts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)), 0, 'datatypes of the literals');
    out.datatype = datatype;
    const kind = valueKindOf(literals.map((l) => l.value), datatype, label + ' ' + iriLocalName(p));
    if (kind) out.valueKind = kind;
    if (kind === 'number' || kind === 'year' || kind === 'date') {
      const texts = literals.map((l) => l.value);
      let range: [number, number] | undefined;
      if (c.exact) {
        const res = await rows(r, query(kind === 'date' ? 'literalRange' : 'numberRange', { p }));
        const mn = res?.[0]?.min;
        const mx = res?.[0]?.max;
        if (mn && mx) {
          const a = kind === 'date' ? yearOfText(mn.value) : Number(mn.value);
          const b = kind === 'date' ? yearOfText(mx.value) : Number(mx.value);
          if (Number.isFinite(a) && Number.isFinite(b)) range = [a, b];
        }
      }
      range ??= rangeOf(texts.map((t) => (kind === 'date' ? yearOfText(t) : Number(t))));
      if (range) [out.min, out.max] = range;
    }
  } else if (entityObjects.length) {
    const some = [...new Set(entityObjects)].slice(0, 200);
    const labels = await labelsOf(r, some, c.labelPredicates);
    const texts = some.map((iri) => labels.get(iri) ?? localNameLabel(iri)).filter(Boolean);
    const kind = valueKindOf(texts, undefined, label + ' ' + iriLocalName(p));
    if (kind && kind !== 'string' && kind !== 'boolean') {
      out.valueKind = kind;
      const range = rangeOf(texts.map((t) => (kind === 'date' ? yearOfText(t) : Number(t))));
      if (range) [out.min, out.max] = range;
    }
  }
  return out;
}

/** A human phrase for a schema term: its label, words split when the label is itself an identifier ("starred_actors"). */
function phraseOf(label: string | undefined, iri: string): string {
  const l = label?.trim();
  if (!l) return termPhrase(iriLocalName(iri));
  return /^\S+$/.test(l) && /[_.]|\p{Ll}\p{Lu}/u.test(l) ? termPhrase(l) : l;
}

function rangeOf(values: number[]): [number, number] | undefined {
  const v = values.filter(Number.isFinite);
  if (v.length === 0) return undefined;
  return [Math.min(...v), Math.max(...v)];
}

/** The pack.json `names` map of a schema: bare name → IRI for every class and property. */
export function namesOf(schema: Schema): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of schema.classes) out[c.name] = c.iri;
  for (const p of schema.properties) out[p.name] = p.iri;
  return out;
}

/** Up to `limit` (subject, object) IRI pairs of a property (e.g. for the trainer's entity role pools). */
export async function entityEdges(executor: Pick<Executor, 'select'>, p: string, limit: number, timeoutMs = 60_000): Promise<[string, string][]> {
  const res = await executor.select(query('edges', { p, limit }), { timeoutMs });
  return res.rows.flatMap((r): [string, string][] => (r.s && r.o ? [[r.s.value, r.o.value]] : []));
}
