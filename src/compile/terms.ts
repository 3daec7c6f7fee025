import type * as RDF from '@rdfjs/types';
import { AskgraphError, DF, Literal, PackConfig, Ref, TopicExclusion, RDF_LANG_STRING, RDFS_LABEL, RDF_TYPE, XSD, defined } from '../core';
import { checkIri } from '../sparql';

/** RDF/JS terms for the sparqljs AST (core's data factory). Every user string enters the query only as a term value. */
export { DF };


export interface CompileOptions {
  /**
   * Namespace bare relation names resolve against — the pack's (packCompileOptions). There is no
   * default: the compiler knows no graph, so a bare name without a namespace (or a `names` entry) is
   * a BAD_REQUEST; forms written with IRIs need none.
   */
  vocabularyNamespace?: string;
  /** Namespace bare class names resolve against (default: vocabularyNamespace). */
  classNamespace?: string;
  /** Namespace bare entity ids (GrailQA `m.0abc`) resolve against: the pack's <baseIri>entity/ (no default). */
  entityNamespace?: string;
  /** Predicates a `[ label ]` entity is matched on (default rdfs:label). */
  labelPredicates?: string[];
  /**
   * Language tags a `[ label ]` also matches besides the plain literal (default ["en"]):
   * `VALUES ?l { "x" "x"@en }` — an exact-term match both Oxigraph and Virtuoso evaluate from their indexes.
   */
  labelLanguages?: string[];
  /** Predicate of class constraints (default rdf:type; Freebase uses type.object.type). */
  typePredicate?: string;
  /**
   * Exclude the topic entities (entity leaves) from the answers — the benchmarks' convention (default
   * true). 'every-hop' also excludes them from every intermediate node of the JOIN path: MetaQA's
   * "films that share directors with X" never counts X itself (oracle 3-hop Acc 100% this way, 51.5%
   * with the answer-only rule), while PathQuestion's paths do pass back through the topic (PQ-3H oracle
   * Acc 98.5% answer-only, 58.2% every-hop) — so it is a per-pack setting (pack.json `excludeTopic`).
   * 'retraced' keeps the topic out only of the node a path reaches by going back along the relation it came
   * by — (JOIN r (JOIN (R r) X)) or (JOIN (R r) (JOIN r X)), at any depth: "films that share a director with X"
   * are the other films — and keeps it everywhere else: the spouse of X's spouse is X (`askgraph init`'s
   * default; measured in src/compile/README.md).
   */
  excludeTopic?: TopicExclusion;
  /** LIMIT on SELECT queries (none by default). */
  limit?: number;
  /**
   * Bare name → IRI for relations and classes whose IRI is not namespace + name (a pack's `names`);
   * consulted before vocabularyNamespace / classNamespace.
   */
  names?: Record<string, string>;
}

/** A pack's namespaces: bare relation and class names under vocabularyNamespace, bare entity ids under <baseIri>entity/. */
export function packNamespaces(pack: Pick<PackConfig, 'vocabularyNamespace'> & { baseIri?: string }): Pick<CompileOptions, 'vocabularyNamespace' | 'entityNamespace'> {
  return {
    vocabularyNamespace: pack.vocabularyNamespace,
    ...(pack.baseIri !== undefined ? { entityNamespace: pack.baseIri + 'entity/' } : {}),
  };
}

/** The compile options a knowledge pack sets (pack.json): namespaces, label predicates, topic rule, names. */
export function packCompileOptions(pack: Pick<PackConfig, 'vocabularyNamespace' | 'labelPredicates' | 'excludeTopic' | 'names'> & { baseIri?: string }): CompileOptions {
  return {
    ...packNamespaces(pack),
    labelPredicates: pack.labelPredicates,
    ...(pack.excludeTopic !== undefined ? { excludeTopic: pack.excludeTopic } : {}),
    ...(pack.names ? { names: pack.names } : {}),
  };
}

export interface ResolvedOptions {
  vocabularyNamespace?: string;
  classNamespace?: string;
  entityNamespace?: string;
  labelPredicates: string[];
  labelLanguages: string[];
  typePredicate: string;
  excludeTopic: TopicExclusion;
  limit?: number;
  names: Record<string, string>;
}

export function resolveOptions(opts: CompileOptions = {}): ResolvedOptions {
  const labelPredicates = opts.labelPredicates && opts.labelPredicates.length > 0 ? opts.labelPredicates : [RDFS_LABEL];
  const classNamespace = opts.classNamespace ?? opts.vocabularyNamespace;
  const resolved: ResolvedOptions = {
    ...(opts.vocabularyNamespace !== undefined ? { vocabularyNamespace: opts.vocabularyNamespace } : {}),
    ...(classNamespace !== undefined ? { classNamespace } : {}),
    ...(opts.entityNamespace !== undefined ? { entityNamespace: opts.entityNamespace } : {}),
    labelPredicates,
    labelLanguages: opts.labelLanguages ?? ['en'],
    typePredicate: opts.typePredicate ?? RDF_TYPE,
    excludeTopic: opts.excludeTopic ?? true,
    names: opts.names ?? {},
    ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
  };
  for (const iri of [resolved.vocabularyNamespace, resolved.classNamespace, resolved.entityNamespace, resolved.typePredicate, ...labelPredicates]) {
    if (iri !== undefined) checkIri(iri);
  }
  for (const [name, iri] of Object.entries(resolved.names)) {
    if (typeof iri !== 'string') throw new AskgraphError('BAD_REQUEST', `names: ${JSON.stringify(name)} must map to an IRI string`);
    checkIri(iri);
  }
  for (const lang of resolved.labelLanguages) {
    if (!/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(lang)) throw new AskgraphError('BAD_REQUEST', `not a language tag: ${JSON.stringify(lang)}`);
  }
  if (resolved.limit !== undefined && (!Number.isInteger(resolved.limit) || resolved.limit < 1)) {
    throw new AskgraphError('BAD_REQUEST', `limit must be a positive integer, got ${resolved.limit}`);
  }
  return resolved;
}


/**
 * A bare name becomes names[name] when the pack lists it, else namespace + encodeURIComponent(name)
 * (the pack's IRI-minting rule); without a namespace it is a BAD_REQUEST.
 */
export function resolveName(ref: Ref, namespace: string | undefined, what: string, names?: Record<string, string>): RDF.NamedNode {
  switch (ref.kind) {
    case 'iri':
      return DF.namedNode(checkIri(ref.iri));
    case 'name': {
      const listed = names && Object.prototype.hasOwnProperty.call(names, ref.name) ? names[ref.name] : undefined;
      if (listed === undefined && namespace === undefined) {
        throw new AskgraphError(
          'BAD_REQUEST',
          `the bare ${what} name "${ref.name}" needs a namespace: compile with the pack's options (pack.json vocabularyNamespace / baseIri, or --ns) or write an IRI`,
          { details: { name: ref.name, what } },
        );
      }
      return DF.namedNode(checkIri(listed ?? defined(namespace, 'namespace') + encodeURIComponent(ref.name)));
    }
    case 'label':
      throw new AskgraphError('UNSUPPORTED', `a ${what} given as a label ([ ${ref.label} ]) must be grounded to an IRI or name before compiling`);
  }
}

export function literalTerm(lit: Literal): RDF.Literal {
  if (lit.lang !== undefined && lit.lang !== '') return DF.literal(lit.value, lit.lang);
  if (lit.datatype === RDF_LANG_STRING) return DF.literal(lit.value);
  return DF.literal(lit.value, DF.namedNode(checkIri(lit.datatype)));
}

const DATE_TYPES = new Set(['date', 'dateTime', 'dateTimeStamp', 'gYear', 'gYearMonth'].map((t) => XSD + t));
const NUMERIC_TYPES = new Set(
  ['integer', 'decimal', 'double', 'float', 'int', 'long', 'short', 'byte', 'nonNegativeInteger', 'positiveInteger', 'negativeInteger', 'nonPositiveInteger', 'unsignedInt', 'unsignedLong', 'unsignedShort', 'unsignedByte'].map((t) => XSD + t),
);

export function isDateType(datatype: string): boolean {
  return DATE_TYPES.has(datatype);
}

export function isNumericType(datatype: string): boolean {
  return NUMERIC_TYPES.has(datatype);
}

/** A 4-digit year given as xsd:gYear or as a bare integer (how years appear in forms). */
export function yearOf(lit: Literal): number | null {
  if ((lit.datatype === XSD + 'gYear' || lit.datatype === XSD + 'integer') && /^\d{4}$/.test(lit.value)) return Number(lit.value);
  return null;
}

/**
 * The first instant of a date-like literal as an xsd:dateTime lexical form (partial dates are
 * taken at their start: 2011 → 2011-01-01T00:00:00, 2011-05 → 2011-05-01T00:00:00).
 */
export function dateTimeStart(lit: Literal): string {
  const v = lit.value.trim();
  let m: RegExpMatchArray | null;
  if ((m = /^(-?\d{4})$/.exec(v))) return `${m[1]}-01-01T00:00:00`;
  if ((m = /^(-?\d{4}-\d{2})$/.exec(v))) return `${m[1]}-01T00:00:00`;
  if ((m = /^(-?\d{4}-\d{2}-\d{2})(Z|[+-]\d{2}:\d{2})?$/.exec(v))) return `${m[1]}T00:00:00${m[2] ?? ''}`;
  if (/^-?\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/.test(v)) return v.length === 16 ? v + ':00' : v;
  throw new AskgraphError('UNSUPPORTED', `cannot read ${JSON.stringify(lit.value)} as a date`);
}
