import type * as RDF from '@rdfjs/types';
import type * as S from 'sparqljs';
import { AskgraphError, CompiledQuery, Form, Literal, Relation, XSD } from '../core';
import {
  CompileOptions,
  DF,
  ResolvedOptions,
  dateTimeStart,
  isDateType,
  literalTerm,
  resolveName,
  resolveOptions,
  yearOf,
} from './terms';
import { generateSparql } from './sparql';

/**
 * Form → sparqljs AST → SPARQL text. Semantics (ChatKBQA / GrailQA S-expressions):
 *   (JOIN r x)        { s : (s r o), o ∈ x }          (JOIN (R r) x)  { o : (s r o), s ∈ x }
 *   (AND a b)         a ∩ b; a bare class C in AND is `?v rdf:type C` (the type predicate is an option)
 *   (COUNT x)         SELECT (COUNT(DISTINCT ?x) AS ?count)
 *   (ARGMAX x r)      the members of x whose r-value is the maximum over x — ties are all kept (GrailQA):
 *                     { SELECT (MAX(?w) AS ?best) WHERE { x(?z) . ?z r ?w } }  x(?v) . ?v r ?best
 *   (GT r v) …        { s : (s r o), o > v }; date-like constants compare as xsd:dateTime (see dateValue)
 *   (TC x r t)        members of x whose interval [r, r'] contains t, r' the paired "to" relation (see toRelation);
 *                     a missing bound counts as open (the WebQSP / CWQ convention)
 * A relation chain (JOIN r1 r2) in relation position is the path s r1 ?m . ?m r2 o.
 */
const VAR_ANSWER = 'x';
const VAR_COUNT = 'count';

type Pattern = S.Pattern;
type Term = RDF.NamedNode | RDF.Literal | RDF.Variable;

const XSD_DATETIME = DF.namedNode(XSD + 'dateTime');

function triple(s: Term, p: RDF.NamedNode | RDF.Variable, o: Term): S.Triple {
  return { subject: s as S.Triple['subject'], predicate: p, object: o as S.Triple['object'] };
}

function bgp(...triples: S.Triple[]): S.BgpPattern {
  return { type: 'bgp', triples };
}

function op(operator: string, ...args: S.Expression[]): S.OperationExpression {
  return { type: 'operation', operator, args };
}

function filter(expression: S.Expression): S.FilterPattern {
  return { type: 'filter', expression };
}

function cast(datatype: RDF.NamedNode, arg: S.Expression): S.FunctionCallExpression {
  return { type: 'functionCall', function: datatype, args: [arg], distinct: false };
}

/** Adjacent BGPs merged into one (shorter, identical semantics). */
function mergeBgps(patterns: Pattern[]): Pattern[] {
  const out: Pattern[] = [];
  for (const p of patterns) {
    const last = out[out.length - 1];
    if (p.type === 'bgp' && last && last.type === 'bgp') out[out.length - 1] = bgp(...last.triples, ...p.triples);
    else out.push(p);
  }
  return out;
}

/** Never bound: the "not a date" branch of dateValue, so the comparison is an error, i.e. false. */
export const NO_DATE = DF.variable('noDate');

/**
 * A value compared against a date constant, as xsd:dateTime in standard SPARQL 1.1. The lexical form is
 * checked by REGEX before it is cast, because Virtuoso aborts the whole query on a failed cast (where
 * Oxigraph just drops the row), and xsd:gYear / xsd:gYearMonth have no cast to xsd:dateTime at all:
 *   2011 → 2011-01-01T00:00:00, 2011-05 → 2011-05-01T00:00:00, 2011-05-03 → 2011-05-03T00:00:00,
 *   2011-05-03-08:00 → 2011-05-03T00:00:00-08:00, a dateTime stays, anything else → unbound (no match).
 * Partial dates thus compare at their first instant. Checked on Oxigraph 0.5 and Virtuoso 7.
 */
export function dateValue(v: RDF.Variable): S.Expression {
  const str = op('str', v);
  const re = (pattern: string): S.Expression => op('regex', str, DF.literal(pattern));
  // Month 01–12, day 01–31 and a valid clock, so that (almost) every string that passes is castable.
  const Y = '-?[0-9]{4}';
  const M = '(0[1-9]|1[0-2])';
  const D = '(0[1-9]|[12][0-9]|3[01])';
  const TZ = '(Z|[+-][0-9]{2}:[0-9]{2})';
  const int = (n: number): RDF.Literal => DF.literal(String(n), DF.namedNode(XSD + 'integer'));
  const cases: [string, S.Expression][] = [
    [`^${Y}$`, op('concat', str, DF.literal('-01-01T00:00:00'))],
    [`^${Y}-${M}$`, op('concat', str, DF.literal('-01T00:00:00'))],
    [`^${Y}-${M}-${D}$`, op('concat', str, DF.literal('T00:00:00'))],
    [`^[0-9]{4}-${M}-${D}${TZ}$`, op('concat', op('substr', str, int(1), int(10)), DF.literal('T00:00:00'), op('substr', str, int(11)))],
    [`^${Y}-${M}-${D}T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?${TZ}?$`, str],
  ];
  const lexical = cases.reduceRight<S.Expression>((otherwise, [pattern, then]) => op('if', re(pattern), then, otherwise), NO_DATE);
  return cast(XSD_DATETIME, lexical);
}

const TO_SUFFIXES: [string, string][] = [
  ['from_date', 'to_date'],
  ['start_date', 'end_date'],
  ['from', 'to'],
];

/**
 * The "to" relation paired with a TC "from" relation, by name: …from → …to (Freebase
 * government_position_held.from / .to; our fixture's in_theaters_from / in_theaters_to),
 * …from_date → …to_date, …start_date → …end_date. For a chain, the last link is paired.
 */
export function toRelation(rel: Relation): Relation {
  switch (rel.kind) {
    case 'chain':
      return { kind: 'chain', first: rel.first, then: toRelation(rel.then) };
    case 'reverse':
      throw new AskgraphError('UNSUPPORTED', 'TC needs a forward "from" relation, not a reversed one');
    case 'rel': {
      const ref = rel.ref;
      const text = ref.kind === 'name' ? ref.name : ref.kind === 'iri' ? ref.iri : ref.label;
      for (const [from, to] of TO_SUFFIXES) {
        if (text.endsWith(from)) {
          const paired = text.slice(0, text.length - from.length) + to;
          if (ref.kind === 'name') return { kind: 'rel', ref: { kind: 'name', name: paired } };
          if (ref.kind === 'iri') return { kind: 'rel', ref: { kind: 'iri', iri: paired } };
        }
      }
      throw new AskgraphError('UNSUPPORTED', `TC relation ${JSON.stringify(text)} does not end in from / from_date / start_date, so its "to" relation is unknown`);
    }
  }
}

/** The interval a TC time stands for: a year is the whole year; any other date is its first instant. */
export function tcBounds(value: Literal): { start: string; end: string } {
  const year = yearOf(value);
  if (year !== null) {
    const y = String(year).padStart(4, '0');
    return { start: `${y}-01-01T00:00:00`, end: `${y}-12-31T23:59:59` };
  }
  if (!isDateType(value.datatype)) throw new AskgraphError('UNSUPPORTED', `TC needs a year or a date, got ${JSON.stringify(value.value)}`);
  const t = dateTimeStart(value);
  return { start: t, end: t };
}

class Compiler {
  private counters = new Map<string, number>();
  readonly topicIris: string[] = [];
  readonly topicVars: RDF.Variable[] = [];
  /** Intermediate nodes of JOIN paths (outside subqueries), for excluding the topic at every hop. */
  readonly hopVars: RDF.Variable[] = [];
  /** Inside an ARGMAX/ARGMIN subquery: its variables are local, so no topic exclusion from there. */
  private inSubquery = 0;

  constructor(private readonly o: ResolvedOptions) {}

  fresh(prefix: string): RDF.Variable {
    const n = this.counters.get(prefix) ?? 0;
    this.counters.set(prefix, n + 1);
    return DF.variable(prefix + n);
  }

  private predicate(ref: Extract<Relation, { kind: 'rel' }>['ref']): RDF.NamedNode {
    return resolveName(ref, this.o.vocabularyNamespace, 'relation', this.o.names);
  }

  /** Triples linking s to o through the relation (reverse swaps, chains go through fresh ?y variables). */
  path(rel: Relation, s: Term, o: Term): S.Triple[] {
    switch (rel.kind) {
      case 'rel':
        return [triple(s, this.predicate(rel.ref), o)];
      case 'reverse':
        return this.path(rel.of, o, s);
      case 'chain': {
        const m = this.fresh('y');
        return [...this.path(rel.first, s, m), ...this.path(rel.then, m, o)];
      }
    }
  }

  /** `?v` is an entity with this label on one of the label predicates (plain or language-tagged). */
  private labelMatch(label: string, v: RDF.Variable): Pattern[] {
    const out: Pattern[] = [];
    const preds = this.o.labelPredicates;
    let p: RDF.NamedNode | RDF.Variable;
    if (preds.length === 1) p = DF.namedNode(preds[0]!);
    else {
      p = this.fresh('p');
      const pv = p;
      out.push({ type: 'values', values: preds.map((iri) => ({ [`?${pv.value}`]: DF.namedNode(iri) })) });
    }
    let l: RDF.Literal | RDF.Variable;
    if (this.o.labelLanguages.length === 0) l = DF.literal(label);
    else {
      l = this.fresh('l');
      const lv = l;
      const literals = [DF.literal(label), ...this.o.labelLanguages.map((lang) => DF.literal(label, lang))];
      out.push({ type: 'values', values: literals.map((lit) => ({ [`?${lv.value}`]: lit })) });
    }
    out.unshift(bgp(triple(v, p, l)));
    return out;
  }

  /** A JOIN argument as a term: IRIs and literals directly, anything else through a fresh variable. */
  argTerm(form: Form): { term: Term; patterns: Pattern[] } {
    if (form.kind === 'literal') return { term: literalTerm(form), patterns: [] };
    if (form.kind === 'entity' && form.ref.kind !== 'label') {
      const iri = resolveName(form.ref, this.o.entityNamespace, 'entity');
      if (this.inSubquery === 0 && !this.topicIris.includes(iri.value)) this.topicIris.push(iri.value);
      return { term: iri, patterns: [] };
    }
    if (form.kind === 'entity') {
      const v = this.fresh('e');
      if (this.inSubquery === 0) this.topicVars.push(v);
      return { term: v, patterns: this.labelMatch(form.ref.kind === 'label' ? form.ref.label : '', v) };
    }
    const v = this.fresh('y');
    if (this.inSubquery === 0 && form.kind !== 'class') this.hopVars.push(v);
    return { term: v, patterns: this.constrain(form, v) };
  }

  /** Patterns that hold exactly when v is a member of the set the form denotes. */
  constrain(form: Form, v: RDF.Variable): Pattern[] {
    switch (form.kind) {
      case 'entity':
        if (form.ref.kind === 'label') return this.labelMatch(form.ref.label, v);
        return [{ type: 'values', values: [{ [`?${v.value}`]: resolveName(form.ref, this.o.entityNamespace, 'entity') }] }];
      case 'literal':
        return [{ type: 'values', values: [{ [`?${v.value}`]: literalTerm(form) }] }];
      case 'class':
        return [bgp(triple(v, DF.namedNode(this.o.typePredicate), resolveName(form.ref, this.o.classNamespace, 'class', this.o.names)))];
      case 'join': {
        const { term, patterns } = this.argTerm(form.arg);
        return [bgp(...this.path(form.relation, v, term)), ...patterns];
      }
      case 'and':
        return [...this.constrain(form.args[0], v), ...this.constrain(form.args[1], v)];
      case 'count':
        throw new AskgraphError('UNSUPPORTED', 'COUNT is only supported as the outermost operator');
      case 'arg':
        return this.argBest(form, v);
      case 'compare': {
        const o = this.fresh('v');
        return [bgp(...this.path(form.relation, v, o)), filter(this.comparison(form.op, o, form.value))];
      }
      case 'tc':
        return [...this.constrain(form.arg, v), ...this.timeConstraint(form.relation, form.value, v)];
    }
  }

  private comparison(cmp: 'GT' | 'GE' | 'LT' | 'LE' | '<=' | '>=', v: RDF.Variable, value: Literal): S.Expression {
    const sym = { GT: '>', GE: '>=', LT: '<', LE: '<=', '<=': '<=', '>=': '>=' }[cmp];
    if (isDateType(value.datatype)) return op(sym, dateValue(v), DF.literal(dateTimeStart(value), XSD_DATETIME));
    return op(sym, v, literalTerm(value));
  }

  /** GrailQA ARGMAX/ARGMIN: every member whose value equals the MAX/MIN over the set (ties kept). */
  private argBest(form: Extract<Form, { kind: 'arg' }>, v: RDF.Variable): Pattern[] {
    const best = this.fresh('best');
    const outer = [...this.constrain(form.arg, v), bgp(...this.path(form.relation, v, best))];
    this.inSubquery++;
    const z = this.fresh('z');
    const w = this.fresh('w');
    const inner = mergeBgps([...this.constrain(form.arg, z), bgp(...this.path(form.relation, z, w))]);
    this.inSubquery--;
    const sub: S.SelectQuery = {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [
        {
          expression: { type: 'aggregate', aggregation: form.op === 'ARGMAX' ? 'max' : 'min', distinct: false, expression: w },
          variable: best,
        },
      ],
      where: inner,
    };
    return [...outer, { type: 'group', patterns: [sub] }];
  }

  /** TC: the from bound is missing or ≤ the end of t, and the to bound is missing or ≥ the start of t. */
  private timeConstraint(from: Relation, value: Literal, v: RDF.Variable): Pattern[] {
    const to = toRelation(from);
    const { start, end } = tcBounds(value);
    const bound = (rel: Relation, cmp: '<=' | '>=', at: string): Pattern => {
      const a = this.fresh('t');
      const b = this.fresh('t');
      const exists: S.GroupPattern = {
        type: 'group',
        patterns: [bgp(...this.path(rel, v, b)), filter(op(cmp, dateValue(b), DF.literal(at, XSD_DATETIME)))],
      };
      // sparqljs types EXISTS arguments as expressions; at runtime they are graph patterns.
      const notExists = op('notexists', bgp(...this.path(rel, v, a)) as unknown as S.Expression);
      return filter(op('||', notExists, op('exists', exists as unknown as S.Expression)));
    };
    return [bound(from, '<=', end), bound(to, '>=', start)];
  }
}

/** Compile a logical form to SPARQL (through the sparqljs AST; no user text is ever concatenated). */
export function compileForm(form: Form, opts: CompileOptions = {}): CompiledQuery {
  const o = resolveOptions(opts);
  const c = new Compiler(o);
  const isCount = form.kind === 'count';
  const body = isCount ? form.arg : form;
  const x = DF.variable(VAR_ANSWER);
  const where: Pattern[] = c.constrain(body, x);
  if (o.excludeTopic) {
    const nodes = o.excludeTopic === 'every-hop' ? [x, ...c.hopVars] : [x];
    for (const n of nodes) {
      for (const iri of c.topicIris) where.push(filter(op('!=', n, DF.namedNode(iri))));
      for (const tv of c.topicVars) where.push(filter(op('!=', n, tv)));
    }
  }
  const query: S.SelectQuery = {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: isCount
      ? [{ expression: { type: 'aggregate', aggregation: 'count', distinct: true, expression: x }, variable: DF.variable(VAR_COUNT) }]
      : [x],
    ...(isCount ? {} : { distinct: true }),
    where: mergeBgps(where),
    ...(!isCount && o.limit !== undefined ? { limit: o.limit } : {}),
  };
  return {
    sparql: generateSparql(query),
    answerVar: isCount ? VAR_COUNT : VAR_ANSWER,
    kind: isCount ? 'count' : 'select',
    topicEntities: o.excludeTopic ? [...c.topicIris] : [],
  };
}
