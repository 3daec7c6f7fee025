import type * as RDF from '@rdfjs/types';
import type * as S from 'sparqljs';
import { AskgraphError, CompareOp, CompiledQuery, Form, GroupOp, Literal, Relation, TableColumn, XSD, defined, itemAt, localNameLabel, splitName } from '../core';
import { answerTypeOf, printRelation, typeErrors } from '../form';
import {
  CompileOptions,
  DF,
  ResolvedOptions,
  dateTimeStart,
  isDateType,
  isNumericType,
  literalTerm,
  resolveName,
  resolveOptions,
  yearOf,
} from './terms';
import { generateSparql } from '../sparql';

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
 * Form language v2:
 *   (ASK x)           ASK { x(?x) }                                     (outermost; kind 'ask')
 *   (DIFF a b)        a(?v) FILTER NOT EXISTS { b(?v) }
 *   (OR a b)          { a(?v) } UNION { b(?v) }
 *   (AVG x) …         one literal: the aggregate of the values of x (outermost; kind 'value'); for
 *                     x = (JOIN (R r) y) the values of every member of y count (mean rating of restaurants)
 *   (RATIO a b)       COUNT(a) / COUNT(b) as xsd:decimal; PERCENT × 100 (outermost; kind 'value')
 *   (ABSDIFF a b)     ABS(va − vb), each side's one number from a MIN / COUNT(DISTINCT) subquery (outermost; kind 'value');
 *                     a side with no number or several different numbers gives no row, i.e. no answer
 *   (MOSTCOMMON x r)  GROUP BY o of (s r o), s ∈ x, COUNT(DISTINCT s) equal to the MAX of those counts (ties kept)
 *   (ARGMAXCOUNT x r) GROUP BY s ∈ x of (s r o), COUNT(DISTINCT o) equal to the MAX (members with ≥ 1 value)
 *   (HAS r)           ?x r ?h — the subjects with some r-value (an existence join: "restaurants with an address")
 * Values: where a form compares, orders or aggregates values, an object that is an IRI counts by its label
 * (numeric or date labels: MetaQA's years are entities labelled "1994"), a literal by itself — see valueOf.
 */
const VAR_ANSWER = 'x';
const VAR_COUNT = 'count';

type Pattern = S.Pattern;
type Term = RDF.NamedNode | RDF.Literal | RDF.Variable;

const XSD_DATETIME = DF.namedNode(XSD + 'dateTime');

function triple(s: Term, p: RDF.NamedNode | RDF.Variable, o: Term): S.Triple {
  return { subject: s as S.Triple['subject'], predicate: p, object: o };
}

function bgp(...triples: S.Triple[]): S.BgpPattern {
  return { type: 'bgp', triples };
}

function op(operator: string, ...args: (S.Expression | S.Pattern)[]): S.OperationExpression {
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
    if (p.type === 'bgp' && last?.type === 'bgp') out[out.length - 1] = bgp(...last.triples, ...p.triples);
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

/** Never bound: the "not a number" branch of numValue. */
export const NO_NUMBER = DF.variable('noNumber');

const XSD_DECIMAL = DF.namedNode(XSD + 'decimal');
const XSD_INTEGER = DF.namedNode(XSD + 'integer');
const INTEGER_LEXICAL = '^[+-]?[0-9]+$';
const NUMERIC_LEXICAL = '^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)$';

/**
 * A value as a number: numeric literals as they are, any other term whose lexical form is a number
 * (a label "1994", an xsd:gYear) cast to xsd:integer or xsd:decimal after a REGEX check (Virtuoso aborts the
 * query on a failed cast); anything else is an error (unbound), so comparisons with it are false.
 */
export function numValue(v: RDF.Variable): S.Expression {
  const str = op('str', v);
  const asInteger = cast(XSD_INTEGER, op('if', op('regex', str, DF.literal(INTEGER_LEXICAL)), str, NO_NUMBER));
  const asDecimal = cast(XSD_DECIMAL, op('if', op('regex', str, DF.literal(NUMERIC_LEXICAL)), str, NO_NUMBER));
  return op('if', op('isnumeric', v), v, op('coalesce', asInteger, asDecimal));
}

/** The ordering key of a value: its number, else its date as xsd:dateTime, else the term itself. */
export function sortKey(v: RDF.Variable): S.Expression {
  return op('coalesce', numValue(v), dateValue(v), v);
}

const AGGREGATION: Record<'AVG' | 'SUM' | 'MAX' | 'MIN', string> = { AVG: 'avg', SUM: 'sum', MAX: 'max', MIN: 'min' };

/** The relation under any (R …), and whether it is read backwards (an odd number of them). */
function direction(r: Relation): { base: Relation; backwards: boolean } {
  let backwards = false;
  while (r.kind === 'reverse') {
    r = r.of;
    backwards = !backwards;
  }
  return { base: r, backwards };
}

/** b then a walks back along the edge b walked: one relation, read in opposite directions. */
function retraces(a: Relation, b: Relation): boolean {
  const x = direction(a);
  const y = direction(b);
  return x.backwards !== y.backwards && printRelation(x.base) === printRelation(y.base);
}

class Compiler {
  private counters = new Map<string, number>();
  topicIris: string[] = [];
  topicVars: RDF.Variable[] = [];
  /** Intermediate nodes of JOIN paths (outside subqueries), for excluding the topic at every hop. */
  hopVars: RDF.Variable[] = [];
  /** The term each JOIN's argument compiled to (for 'retraced' topic exclusion: the node a path goes back to). */
  private joinArgs = new WeakMap<Form, Term>();
  /** Inside a subquery (ARGMAX, group counts): its variables are local, so no topic exclusion from there. */
  private inSubquery = 0;
  /** Inside an OR branch or a DIFF's NOT EXISTS: its variables are not bound in the whole group. */
  private inScope = 0;

  constructor(private readonly o: ResolvedOptions) {}

  fresh(prefix: string): RDF.Variable {
    const n = this.counters.get(prefix) ?? 0;
    this.counters.set(prefix, n + 1);
    return DF.variable(`${prefix}${n}`);
  }

  private get local(): boolean {
    return this.inSubquery > 0 || this.inScope > 0;
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

  /** The label predicate(s) as a term, with the VALUES pattern a variable needs (several predicates). */
  private labelPredicate(): { p: RDF.NamedNode | RDF.Variable; patterns: Pattern[] } {
    const preds = this.o.labelPredicates;
    if (preds.length === 1) return { p: DF.namedNode(itemAt(preds, 0, 'label predicates')), patterns: [] };
    const p = this.fresh('p');
    return { p, patterns: [{ type: 'values', values: preds.map((iri) => ({ [`?${p.value}`]: DF.namedNode(iri) })) }] };
  }

  /** `?v` is an entity with this label on one of the label predicates (plain or language-tagged). */
  private labelMatch(label: string, v: RDF.Variable): Pattern[] {
    const { p, patterns: out } = this.labelPredicate();
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

  /**
   * The value of an object ?o: its label when it is an entity with a label, else the term itself —
   * `OPTIONAL { ?o label ?ol } BIND(COALESCE(?ol, ?o) AS ?ov)`. MetaQA's years are entities labelled
   * "1994"; GrailQA's are literals; both compare, order and aggregate the same way this way.
   */
  valueOf(o: RDF.Variable): { v: RDF.Variable; patterns: Pattern[] } {
    const ol = this.fresh('ol');
    const ov = this.fresh('ov');
    const { p, patterns } = this.labelPredicate();
    const optional: S.OptionalPattern = { type: 'optional', patterns: [bgp(triple(o, p, ol)), ...patterns] };
    const bind: S.BindPattern = { type: 'bind', variable: ov, expression: op('coalesce', ol, o) };
    return { v: ov, patterns: [optional, bind] };
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
      if (!this.local) this.topicVars.push(v);
      return { term: v, patterns: this.labelMatch(form.ref.kind === 'label' ? form.ref.label : '', v) };
    }
    const v = this.fresh('y');
    if (!this.local && form.kind !== 'class') this.hopVars.push(v);
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
        this.joinArgs.set(form, term);
        const out = [bgp(...this.path(form.relation, v, term)), ...patterns];
        // 'retraced': v went back along the relation that led from the topic X: v is never X itself
        const back = form.arg.kind === 'join' && form.arg.arg.kind === 'entity' && this.o.excludeTopic === 'retraced' && retraces(form.relation, form.arg.relation) ? this.joinArgs.get(form.arg) : undefined;
        if (back) out.push(filter(op('!=', v, back)));
        return out;
      }
      case 'and':
        return this.conjunction(form, v);
      case 'or': {
        this.inScope++;
        const a = mergeBgps(this.constrain(form.args[0], v));
        const b = mergeBgps(this.constrain(form.args[1], v));
        this.inScope--;
        return [{ type: 'union', patterns: [{ type: 'group', patterns: a }, { type: 'group', patterns: b }] }];
      }
      case 'diff': {
        const a = this.constrain(form.args[0], v);
        this.inScope++;
        const b = mergeBgps(this.constrain(form.args[1], v));
        this.inScope--;
        const group: S.GroupPattern = { type: 'group', patterns: b };
        // sparqljs types EXISTS arguments as expressions; at runtime they are graph patterns.
        return [...a, filter(op('notexists', group))];
      }
      case 'arg':
        return this.argBest(form, v);
      case 'common':
        return this.groupBest(form.op === 'MOSTCOMMON' ? 'max' : 'min', form.arg, form.relation, v, 'value');
      case 'argcount':
        return this.groupBest(form.op === 'ARGMAXCOUNT' ? 'max' : 'min', form.arg, form.relation, v, 'member');
      case 'compare': {
        const o = this.fresh('v');
        const value = this.valueOf(o);
        return [bgp(...this.path(form.relation, v, o)), ...value.patterns, filter(this.comparison(form.op, value.v, form.value))];
      }
      case 'tc':
        return [...this.constrain(form.arg, v), ...this.timeConstraint(form.relation, form.value, v)];
      case 'has':
        return [bgp(...this.path(form.relation, v, this.fresh('h')))];
      case 'attrcompare': {
        // [36] { s : v(s r1) op v(s r2) }, both values read by valueOf and compared by their ordering keys
        const a = this.fresh('v');
        const b = this.fresh('v');
        const va = this.valueOf(a);
        const vb = this.valueOf(b);
        const sym = { GT: '>', GE: '>=', LT: '<', LE: '<=' }[form.op];
        return [bgp(...this.path(form.relation, v, a), ...this.path(form.other, v, b)), ...va.patterns, ...vb.patterns, filter(op(sym, sortKey(va.v), sortKey(vb.v)))];
      }
      case 'contains':
        return this.contains(form, v);
      case 'count':
      case 'ask':
      case 'aggregate':
      case 'ratio':
      case 'arith':
      case 'table':
      case 'group':
      case 'having':
      case 'order':
      case 'slice':
      case 'more':
        throw new AskgraphError('UNSUPPORTED', `${'op' in form ? form.op : form.kind.toUpperCase()} is only supported as the outermost operator (its answer is a ${answerTypeOf(form)}, not a set)`);
    }
  }

  /**
   * [38] CONTAINS: the member's label (no relation: on the pack's label predicates) or its r-value read by valueOf
   * contains the text, ignoring case — CONTAINS(LCASE(STR(?l)), "text") with the text lower-cased here: a plain
   * substring test, so a text like `a.*(` matches only itself (no regular expression is ever built from it).
   */
  private contains(form: Extract<Form, { kind: 'contains' }>, v: RDF.Variable): Pattern[] {
    const needle = DF.literal(form.text.toLowerCase());
    const test = (t: RDF.Variable): S.FilterPattern => filter(op('contains', op('lcase', op('str', t)), needle));
    if (form.relation) {
      const o = this.fresh('v');
      const value = this.valueOf(o);
      return [bgp(...this.path(form.relation, v, o)), ...value.patterns, test(value.v)];
    }
    const { p, patterns } = this.labelPredicate();
    const l = this.fresh('l');
    return [bgp(triple(v, p, l)), ...patterns, test(l)];
  }

  /**
   * AND: the operands' patterns on v. Comparisons on the same relation share one value — a range
   * (AND (GE r 1960) (LE r 1969)) holds for an s with ONE r-value in it, not one value ≥ 1960 and another
   * ≤ 1969 (the same for single-valued relations; MetaQA merges films that share a title, with two years).
   */
  private conjunction(form: Extract<Form, { kind: 'and' }>, v: RDF.Variable): Pattern[] {
    const operands: Form[] = [];
    const flat = (f: Form): void => { if (f.kind === 'and') { flat(f.args[0]); flat(f.args[1]); } else operands.push(f); };
    flat(form);
    const ranges = new Map<string, Extract<Form, { kind: 'compare' }>[]>();
    for (const f of operands) {
      if (f.kind !== 'compare') continue;
      const key = printRelation(f.relation);
      ranges.set(key, [...(ranges.get(key) ?? []), f]);
    }
    const out: Pattern[] = [];
    const done = new Set<string>();
    for (const f of operands) {
      if (f.kind !== 'compare' || defined(ranges.get(printRelation(f.relation)), 'comparisons on a relation').length === 1) {
        out.push(...this.constrain(f, v));
        continue;
      }
      const key = printRelation(f.relation);
      if (done.has(key)) continue;
      done.add(key);
      const o = this.fresh('v');
      const value = this.valueOf(o);
      out.push(bgp(...this.path(f.relation, v, o)), ...value.patterns, ...defined(ranges.get(key), 'comparisons on a relation').map((c) => filter(this.comparison(c.op, value.v, c.value))));
    }
    return out;
  }

  /** A value (see valueOf) against a constant: dates as xsd:dateTime, numbers as numbers, else the terms. */
  private comparison(cmp: 'GT' | 'GE' | 'LT' | 'LE' | '<=' | '>=', v: RDF.Variable, value: Literal): S.Expression {
    const sym = { GT: '>', GE: '>=', LT: '<', LE: '<=', '<=': '<=', '>=': '>=' }[cmp];
    if (isDateType(value.datatype)) return op(sym, dateValue(v), DF.literal(dateTimeStart(value), XSD_DATETIME));
    if (isNumericType(value.datatype)) return op(sym, numValue(v), literalTerm(value));
    return op(sym, v, literalTerm(value));
  }

  /**
   * GrailQA ARGMAX/ARGMIN: every member whose value equals the MAX/MIN over the set (ties kept). Values
   * are ordered by sortKey (numbers, then dates, then the terms), so labelled year entities order as years.
   */
  private argBest(form: Extract<Form, { kind: 'arg' }>, v: RDF.Variable): Pattern[] {
    const best = this.fresh('best');
    const o = this.fresh('o');
    const outerValue = this.valueOf(o);
    const outer = [...this.constrain(form.arg, v), bgp(...this.path(form.relation, v, o)), ...outerValue.patterns];
    this.inSubquery++;
    const z = this.fresh('z');
    const w = this.fresh('w');
    const innerValue = this.valueOf(w);
    const inner = mergeBgps([...this.constrain(form.arg, z), bgp(...this.path(form.relation, z, w)), ...innerValue.patterns]);
    this.inSubquery--;
    const sub: S.SelectQuery = {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [
        {
          expression: { type: 'aggregate', aggregation: form.op === 'ARGMAX' ? 'max' : 'min', distinct: false, expression: sortKey(innerValue.v) },
          variable: best,
        },
      ],
      where: inner,
    };
    return [...outer, { type: 'group', patterns: [sub] }, filter(op('=', sortKey(outerValue.v), best))];
  }

  /**
   * Group-count superlatives, ties kept. side 'value' (MOSTCOMMON): the objects o of (s r o), s ∈ x, whose
   * number of such s is the max/min; side 'member' (ARGMAXCOUNT): the s ∈ x whose number of r-values is the
   * max/min (only members with at least one value are counted). Two subqueries: the counts per group, and
   * the max/min of the same counts, joined on equality.
   */
  private groupBest(agg: 'max' | 'min', set: Form, rel: Relation, v: RDF.Variable, side: 'value' | 'member'): Pattern[] {
    this.inSubquery++;
    const counts = (key: RDF.Variable): { where: Pattern[]; counted: RDF.Variable } => {
      const other = this.fresh('c');
      const member = side === 'member' ? key : other;
      const value = side === 'member' ? other : key;
      return { where: mergeBgps([...this.constrain(set, member), bgp(...this.path(rel, member, value))]), counted: other };
    };
    const n = this.fresh('n');
    const first = counts(v);
    const perGroup: S.SelectQuery = {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [v, { expression: { type: 'aggregate', aggregation: 'count', distinct: true, expression: first.counted }, variable: n }],
      where: first.where,
      group: [{ expression: v }],
    };
    const k = this.fresh('k');
    const n2 = this.fresh('n');
    const second = counts(k);
    const perGroup2: S.SelectQuery = {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [k, { expression: { type: 'aggregate', aggregation: 'count', distinct: true, expression: second.counted }, variable: n2 }],
      where: second.where,
      group: [{ expression: k }],
    };
    const m = this.fresh('m');
    const best: S.SelectQuery = {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [{ expression: { type: 'aggregate', aggregation: agg, distinct: false, expression: n2 }, variable: m }],
      where: [{ type: 'group', patterns: [perGroup2] }],
    };
    this.inSubquery--;
    return [{ type: 'group', patterns: [perGroup] }, { type: 'group', patterns: [best] }, filter(op('=', n, m))];
  }

  /** TC: the from bound is missing or ≤ the end of t, and the to bound is missing or ≥ the start of t. */
  private timeConstraint(from: Relation, value: Literal, v: RDF.Variable): Pattern[] {
    const to = toRelation(from);
    const { start, end } = tcBounds(value);
    const bound = (rel: Relation, cmp: '<=' | '>=', at: string): Pattern => {
      const a = this.fresh('t');
      const b = this.fresh('t');
      const value = this.valueOf(b); // a date entity counts by its label, like every compared value
      const exists: S.GroupPattern = {
        type: 'group',
        patterns: [bgp(...this.path(rel, v, b)), ...value.patterns, filter(op(cmp, dateValue(value.v), DF.literal(at, XSD_DATETIME)))],
      };
      // sparqljs types EXISTS arguments as expressions; at runtime they are graph patterns.
      const notExists = op('notexists', bgp(...this.path(rel, v, a)));
      return filter(op('||', notExists, op('exists', exists)));
    };
    return [bound(from, '<=', end), bound(to, '>=', start)];
  }

  /**
   * The patterns of a set form on x with the topic exclusion filters of its own entities (each top-level
   * set of a query — the body, or each operand of RATIO — excludes its own topics).
   */
  setWhere(form: Form, x: RDF.Variable, keys: RDF.Variable[] = []): { where: Pattern[]; topics: string[] } {
    const saved: [string[], RDF.Variable[], RDF.Variable[]] = [this.topicIris, this.topicVars, this.hopVars];
    this.topicIris = [];
    this.topicVars = [];
    this.hopVars = [];
    const where = this.constrain(form, x);
    // true / 'every-hop': the answers leave the topics out, in the query and again in runCompiled ('retraced' has put
    // its filters in at the joins that go back, constrain 'join'; false: none)
    const answersLeaveOut = this.o.excludeTopic === true || this.o.excludeTopic === 'every-hop';
    if (answersLeaveOut) {
      // keys: other answer nodes (a GROUP table's group values) that exclude the topics like x
      const nodes = this.o.excludeTopic === 'every-hop' ? [x, ...keys, ...this.hopVars] : [x, ...keys];
      for (const n of nodes) {
        for (const iri of this.topicIris) where.push(filter(op('!=', n, DF.namedNode(iri))));
        for (const tv of this.topicVars) where.push(filter(op('!=', n, tv)));
      }
    }
    const topics = answersLeaveOut ? [...this.topicIris] : [];
    [this.topicIris, this.topicVars, this.hopVars] = saved;
    return { where: mergeBgps(where), topics };
  }

  /**
   * An aggregate over the values of a set. For (JOIN (R r) y) the pairs (member of y, value) are kept, so
   * equal values of different members all count (the mean rating of restaurants, not of distinct ratings).
   * Each value is read by valueOf; AVG / SUM take the numbers (other values are left out), MAX / MIN the
   * ordering key (numbers, dates as xsd:dateTime).
   */
  aggregate(form: Extract<Form, { kind: 'aggregate' }>, result: RDF.Variable): S.SelectQuery {
    const x = DF.variable(VAR_ANSWER);
    const { where } = this.setWhere(form.arg, x);
    // The member variable of (JOIN (R r) y): the subject term of the (last) triple that reaches ?x.
    let member: RDF.Variable | undefined;
    if (form.arg.kind === 'join' && form.arg.relation.kind === 'reverse') {
      for (const p of where) {
        if (p.type !== 'bgp') continue;
        for (const t of p.triples) if (t.object.equals(x) && t.subject.termType === 'Variable') member = t.subject;
      }
    }
    const pairs: S.SelectQuery = {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      distinct: true,
      variables: member ? [member, x] : [x],
      where,
    };
    const value = this.valueOf(x);
    const num = this.fresh('num');
    const isNumber = form.op === 'AVG' || form.op === 'SUM';
    // One number per (member, value): several labels of one entity must not count twice.
    const perValue: S.SelectQuery = {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [...(member ? [member] : []), x, { expression: { type: 'aggregate', aggregation: 'sample', distinct: false, expression: num }, variable: this.fresh('val') }],
      where: [
        { type: 'group', patterns: [pairs] },
        ...value.patterns,
        { type: 'bind', variable: num, expression: isNumber ? numValue(value.v) : sortKey(value.v) },
        filter(isNumber ? op('bound', num) : op('isliteral', num)),
      ],
      group: [...(member ? [{ expression: member }] : []), { expression: x }],
    };
    const val = (perValue.variables[perValue.variables.length - 1] as S.VariableExpression).variable;
    const total: S.VariableExpression = { expression: { type: 'aggregate', aggregation: AGGREGATION[form.op], distinct: false, expression: val }, variable: result };
    const aggregate = (more: S.VariableExpression[]): S.SelectQuery => ({
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [total, ...more],
      where: [{ type: 'group', patterns: [perValue] }],
    });
    if (!isNumber) return aggregate([]);
    // The average or sum of no numbers is no answer, not SPARQL's 0: the graph lacks the values (the entity's own
    // values missing, or values that are not numbers — an AVG of a relation to entities), as ownValueMissing says of
    // counts. (A filter on a counted sub-select: Virtuoso refuses HAVING without GROUP BY.)
    const n = this.fresh('n');
    return {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [result],
      where: [
        { type: 'group', patterns: [aggregate([{ expression: { type: 'aggregate', aggregation: 'count', distinct: false, expression: val }, variable: n }])] },
        filter(op('>', n, DF.literal('0', XSD_INTEGER))),
      ],
    };
  }

  /** RATIO / PERCENT: COUNT(DISTINCT a) / COUNT(DISTINCT b) as xsd:decimal (× 100); b empty gives no answer. */
  ratio(form: Extract<Form, { kind: 'ratio' }>, result: RDF.Variable): S.SelectQuery {
    const counted = (arg: Form): { sub: S.SelectQuery; n: RDF.Variable } => {
      const x = this.fresh('r');
      const n = this.fresh('n');
      const { where } = this.setWhere(arg, x);
      return {
        n,
        sub: {
          type: 'query',
          queryType: 'SELECT',
          prefixes: {},
          variables: [{ expression: { type: 'aggregate', aggregation: 'count', distinct: true, expression: x }, variable: n }],
          where,
        },
      };
    };
    const a = counted(form.args[0]);
    const b = counted(form.args[1]);
    let quotient: S.Expression = op('/', cast(XSD_DECIMAL, a.n), b.n);
    if (form.op === 'PERCENT') quotient = op('*', DF.literal('100', DF.namedNode(XSD + 'integer')), quotient);
    return {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [{ expression: quotient, variable: result }],
      where: [{ type: 'group', patterns: [a.sub] }, { type: 'group', patterns: [b.sub] }],
    };
  }

  /**
   * ABSDIFF: |va − vb| where va is the one number of a's values (each read by valueOf and numValue, as AVG /
   * SUM read them; a date by the year of its dateValue). Each side is a subquery with the MIN and the COUNT
   * of distinct numbers; the row survives only when both counts are 1, so an empty side or a side with two
   * different values gives no answer. (A FILTER comparing MIN with MAX across the two subqueries is what
   * Virtuoso 7 cannot compile: "Bad dfe in sqlo_place_exp".)
   */
  arith(form: Extract<Form, { kind: 'arith' }>, result: RDF.Variable): S.SelectQuery {
    const side = (arg: Form): { sub: S.SelectQuery; lo: RDF.Variable; hi: RDF.Variable } => {
      const x = this.fresh('d');
      const { where } = this.setWhere(arg, x);
      const value = this.valueOf(x);
      const num = this.fresh('num');
      const lo = this.fresh('lo');
      const hi = this.fresh('hi');
      const number = op('coalesce', numValue(value.v), op('year', dateValue(value.v)));
      return {
        lo,
        hi,
        sub: {
          type: 'query',
          queryType: 'SELECT',
          prefixes: {},
          variables: [
            { expression: { type: 'aggregate', aggregation: 'min', distinct: false, expression: num }, variable: lo },
            { expression: { type: 'aggregate', aggregation: 'count', distinct: true, expression: num }, variable: hi },
          ],
          where: [...where, ...value.patterns, { type: 'bind', variable: num, expression: number }],
        },
      };
    };
    const a = side(form.args[0]);
    const b = side(form.args[1]);
    const one = DF.literal('1', XSD_INTEGER);
    return {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [{ expression: op('abs', op('-', a.lo, b.lo)), variable: result }],
      where: [{ type: 'group', patterns: [a.sub] }, { type: 'group', patterns: [b.sub] }, filter(op('&&', op('=', a.hi, one), op('=', b.hi, one)))],
    };
  }
}

const VAR_VALUE = 'value';

const COMPARE_SYMBOL: Record<CompareOp, string> = { GT: '>', GE: '>=', LT: '<', LE: '<=' };
const GROUP_AGGREGATION: Record<GroupOp, string> = { GROUPCOUNT: 'count', GROUPSUM: 'sum', GROUPAVG: 'avg', GROUPMAX: 'max', GROUPMIN: 'min' };

/** A heading for a relation's column: its name's words ("release year"; "(R directed by)" for a reverse). */
function relationHeading(rel: Relation): string {
  switch (rel.kind) {
    case 'rel':
      return rel.ref.kind === 'label' ? rel.ref.label : rel.ref.kind === 'iri' ? localNameLabel(rel.ref.iri) : splitName(rel.ref.name);
    case 'reverse':
      return `${relationHeading(rel.of)} of`;
    case 'chain':
      return `${relationHeading(rel.first)} / ${relationHeading(rel.then)}`;
  }
}

/** A table query: the SELECT, its columns in order, and its sort key (the value of its last column) when it has one. */
interface TableQuery {
  query: S.SelectQuery;
  columns: TableColumn[];
  /** The ordering key of the last column ([34] orders by it), a variable the query projects. */
  key: RDF.Variable;
  /** The row key (first column). */
  first: RDF.Variable;
  topics: string[];
}

/**
 * Form language v3 ([31]–[35]): the SELECT of a table form. Columns are the projected variables in order; the
 * executor reads only those (the sort key may be projected besides them).
 */
class TableCompiler {
  constructor(private readonly c: Compiler) {}

  table(form: Form, ordered = false): TableQuery {
    switch (form.kind) {
      case 'table':
        return this.attributes(form, ordered);
      case 'group':
      case 'having':
        return this.group(form);
      case 'order':
        return this.order(form);
      case 'slice': {
        const t = this.table(form.arg);
        const q = t.query;
        if (form.op === 'LIMIT') q.limit = q.limit === undefined ? form.n : Math.min(q.limit, form.n);
        else {
          q.offset = (q.offset ?? 0) + form.n;
          if (q.limit !== undefined) q.limit = Math.max(0, q.limit - form.n);
        }
        return t;
      }
      default:
        throw new AskgraphError('UNSUPPORTED', `${printRelationOrForm(form)} is not a table form`);
    }
  }

  /** [31] SELECT DISTINCT ?x ?c1 … { x(?x) OPTIONAL { ?x r1 ?c1 } … } — an absent value is an unbound cell. */
  private attributes(form: Extract<Form, { kind: 'table' }>, ordered: boolean): TableQuery {
    const c = this.c;
    const x = DF.variable(VAR_ANSWER);
    const { where, topics } = c.setWhere(form.arg, x);
    const columns: TableColumn[] = [{ name: x.value, label: 'answer' }];
    const projected: RDF.Variable[] = [x];
    let key: RDF.Variable = x;
    form.columns.forEach((col, i) => {
      const cell = DF.variable(`c${i + 1}`);
      const last = i === form.columns.length - 1;
      let k = c.fresh('k');
      if (col.kind === 'minus') {
        const a = c.fresh('v');
        const b = c.fresh('v');
        const va = c.valueOf(a);
        const vb = c.valueOf(b);
        const number = (v: RDF.Variable): S.Expression => op('coalesce', numValue(v), op('year', dateValue(v)));
        where.push({
          type: 'optional',
          patterns: [bgp(...c.path(col.args[0], x, a), ...c.path(col.args[1], x, b)), ...va.patterns, ...vb.patterns, { type: 'bind', variable: cell, expression: op('-', number(va.v), number(vb.v)) }],
        });
        if (last) k = cell;
        columns.push({ name: cell.value, label: `${relationHeading(col.args[0])} minus ${relationHeading(col.args[1])}` });
      } else {
        // an ordered table sorts by its last column's value (valueOf: an entity by its label)
        const keyed = last && ordered;
        const value = keyed ? c.valueOf(cell) : { v: cell, patterns: [] as Pattern[] };
        where.push({ type: 'optional', patterns: [bgp(...c.path(col, x, cell)), ...value.patterns, ...(keyed ? [{ type: 'bind' as const, variable: k, expression: sortKey(value.v) }] : [])] });
        columns.push({ name: cell.value, label: relationHeading(col) });
      }
      projected.push(cell);
      if (last) key = k;
    });
    return { query: { type: 'query', queryType: 'SELECT', prefixes: {}, distinct: true, variables: projected, where: mergeBgps(where) }, columns, key, first: x, topics };
  }

  /** [32] / [33] SELECT ?g (AGG(…) AS ?n) { x(?m) ?m r ?g [?m v ?o] } GROUP BY ?g [HAVING (AGG(…) op lit)] */
  private group(form: Extract<Form, { kind: 'group' | 'having' }>): TableQuery {
    const c = this.c;
    const havings: Extract<Form, { kind: 'having' }>[] = [];
    let g: Form = form;
    while (g.kind === 'having') {
      havings.push(g);
      g = g.arg;
    }
    if (g.kind !== 'group') throw new AskgraphError('UNSUPPORTED', 'HAVING needs a GROUP table');
    const key = DF.variable('g');
    const m = DF.variable('m');
    const n = DF.variable('n');
    const { where, topics } = c.setWhere(g.arg, m, [key]);
    where.unshift(bgp(...c.path(g.by, m, key)));
    let aggregate: S.AggregateExpression;
    let body: Pattern[] = mergeBgps(where);
    if (g.op === 'GROUPCOUNT' || !g.value) aggregate = { type: 'aggregate', aggregation: 'count', distinct: true, expression: m };
    else {
      // each (group, member, value) once: the member set's own patterns (a second has_genre, a label) must not
      // repeat a member's value in the aggregate
      const o = c.fresh('o');
      const value = c.valueOf(o);
      const num = c.fresh('num');
      const isNumber = g.op === 'GROUPAVG' || g.op === 'GROUPSUM';
      const triples: S.SelectQuery = { type: 'query', queryType: 'SELECT', prefixes: {}, distinct: true, variables: [key, m, o], where: mergeBgps([...where, bgp(...c.path(g.value, m, o))]) };
      body = [{ type: 'group', patterns: [triples] }, ...value.patterns, { type: 'bind', variable: num, expression: isNumber ? numValue(value.v) : sortKey(value.v) }];
      aggregate = { type: 'aggregate', aggregation: GROUP_AGGREGATION[g.op], distinct: false, expression: num };
    }
    const query: S.SelectQuery = {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [key, { expression: aggregate, variable: n }],
      where: body,
      group: [{ expression: key }],
      // several HAVINGs as one conjunction (sparqljs writes a list of conditions without separators)
      ...(havings.length ? { having: [havings.map((h) => this.havingTest(aggregate, h)).reduce((a, b) => op('&&', a, b))] } : {}),
    };
    const valueLabel = g.op === 'GROUPCOUNT' || !g.value ? 'count' : `${{ GROUPSUM: 'total', GROUPAVG: 'average', GROUPMAX: 'largest', GROUPMIN: 'smallest', GROUPCOUNT: 'count' }[g.op]} ${relationHeading(g.value)}`;
    return { query, columns: [{ name: key.value, label: relationHeading(g.by) }, { name: n.value, label: valueLabel }], key: n, first: key, topics };
  }

  private havingTest(aggregate: S.AggregateExpression, h: Extract<Form, { kind: 'having' }>): S.Expression {
    const sym = COMPARE_SYMBOL[h.op];
    if (isNumericType(h.value.datatype)) return op(sym, aggregate, literalTerm(h.value));
    if (isDateType(h.value.datatype)) return op(sym, aggregate, DF.literal(dateTimeStart(h.value), XSD_DATETIME));
    return op(sym, aggregate, literalTerm(h.value));
  }

  /** [34] ORDER BY [DESC](key) ?first: the rows by the value, ties by the row key. */
  private order(form: Extract<Form, { kind: 'order' }>): TableQuery {
    const c = this.c;
    const dir = (e: S.Expression): S.Ordering => ({ expression: e, ...(form.op === 'DESC' ? { descending: true } : {}) });
    if (answerTypeOf(form.arg) === 'table') {
      const t = this.table(form.arg, true);
      if (t.query.group) {
        // a group table is ordered outside its GROUP BY, by the projected aggregate
        const outer: S.SelectQuery = { type: 'query', queryType: 'SELECT', prefixes: {}, variables: t.columns.map((col) => DF.variable(col.name)), where: [{ type: 'group', patterns: [t.query] }], order: [dir(t.key), { expression: t.first }] };
        return { ...t, query: outer };
      }
      t.query.order = [dir(t.key), { expression: t.first }];
      return t;
    }
    const x = DF.variable(VAR_ANSWER);
    const { where, topics } = c.setWhere(form.arg, x);
    const k = c.fresh('k');
    const columns: TableColumn[] = [{ name: x.value, label: 'answer' }];
    const projected: RDF.Variable[] = [x];
    if (form.relation) {
      const cell = DF.variable('c1');
      const value = c.valueOf(cell);
      where.push(bgp(...c.path(form.relation, x, cell)), ...value.patterns, { type: 'bind', variable: k, expression: sortKey(value.v) });
      columns.push({ name: cell.value, label: relationHeading(form.relation) });
      projected.push(cell);
    } else {
      const value = c.valueOf(x);
      where.push(...value.patterns, { type: 'bind', variable: k, expression: sortKey(value.v) });
    }
    const query: S.SelectQuery = { type: 'query', queryType: 'SELECT', prefixes: {}, distinct: true, variables: projected, where: mergeBgps(where), order: [dir(k), { expression: x }] };
    return { query, columns, key: k, first: x, topics };
  }
}

function printRelationOrForm(form: Form): string {
  return 'op' in form && typeof form.op === 'string' ? form.op : form.kind.toUpperCase();
}

/** [37] one side of MORE / LESS: the number form as a subquery projecting `result`. */
function numberQuery(c: Compiler, form: Form, result: RDF.Variable): S.SelectQuery {
  switch (form.kind) {
    case 'count': {
      const r = c.fresh('r');
      const { where } = c.setWhere(form.arg, r);
      return { type: 'query', queryType: 'SELECT', prefixes: {}, variables: [{ expression: { type: 'aggregate', aggregation: 'count', distinct: true, expression: r }, variable: result }], where };
    }
    case 'aggregate':
      return c.aggregate(form, result);
    case 'ratio':
      return c.ratio(form, result);
    case 'arith':
      return c.arith(form, result);
    default:
      throw new AskgraphError('UNSUPPORTED', `${printRelationOrForm(form)} is not a number, but MORE / LESS compare two numbers`);
  }
}

/** Compile a logical form to SPARQL (through the sparqljs AST; no user text is ever concatenated). */
/**
 * Most a form may cost to compile (formCost): an operator that compares members of its set (ARGMAX, ARGMAXCOUNT,
 * MOSTCOMMON) writes that set's pattern more than once, so nesting them grows the query exponentially (20 nested
 * ARGMINCOUNTs, which a half-trained parser wrote, would have been gigabytes of SPARQL). Real questions cost far less.
 */
export const MAX_FORM_COST = 4096;
/** Deepest nesting of a form the compiler takes (its recursion, and the engines', stay shallow). */
export const MAX_FORM_DEPTH = 32;

/** The size of the query a form compiles to, in units of patterns: a set that an operator repeats counts thrice. */
export function formCost(form: Form, depth = 0): number {
  if (depth > MAX_FORM_DEPTH) return Infinity;
  const f = form as unknown as Record<string, unknown>;
  const repeats = form.kind === 'arg' || form.kind === 'argcount' || form.kind === 'common' ? 3 : 1;
  let cost = 1;
  for (const key of ['arg', 'args'] as const) {
    const v = f[key];
    const kids = Array.isArray(v) ? v : v && typeof v === 'object' ? [v] : [];
    for (const k of kids as Form[]) cost += repeats * formCost(k, depth + 1);
  }
  return cost;
}

export function compileForm(form: Form, opts: CompileOptions = {}): CompiledQuery {
  const cost = formCost(form);
  if (cost > MAX_FORM_COST) {
    throw new AskgraphError('QUERY_TOO_COMPLEX', `the form is nested too deeply to compile (${Number.isFinite(cost) ? `cost ${cost}` : `depth over ${MAX_FORM_DEPTH}`}; at most ${MAX_FORM_COST}): operators such as ARGMAX repeat their set, so the query would grow exponentially`, {
      details: { ...(Number.isFinite(cost) ? { cost } : {}), maxCost: MAX_FORM_COST, maxDepth: MAX_FORM_DEPTH },
    });
  }
  const o = resolveOptions(opts);
  const errors = typeErrors(form);
  if (errors.length > 0) throw new AskgraphError('UNSUPPORTED', `the form is not well typed: ${errors[0]}`, { details: { errors } });
  const c = new Compiler(o);
  const answerType = answerTypeOf(form);
  const x = DF.variable(VAR_ANSWER);
  if (answerType === 'table') {
    const t = new TableCompiler(c).table(form);
    const ordered = t.query.order !== undefined;
    if (!ordered && o.limit !== undefined) t.query.limit = o.limit;
    return { sparql: generateSparql(t.query), answerVar: t.columns[0]?.name ?? VAR_ANSWER, kind: 'table', columns: t.columns, ordered, answerType, topicEntities: t.topics };
  }
  if (form.kind === 'more') {
    // [37] ASK { { SELECT (… AS ?a) } { SELECT (… AS ?b) } FILTER(?a > ?b) }
    const a = DF.variable('a');
    const b = DF.variable('b');
    const query: S.AskQuery = {
      type: 'query',
      queryType: 'ASK',
      prefixes: {},
      where: [{ type: 'group', patterns: [numberQuery(c, form.args[0], a)] }, { type: 'group', patterns: [numberQuery(c, form.args[1], b)] }, filter(op(form.op === 'MORE' ? '>' : '<', a, b))],
    };
    return { sparql: generateSparql(query), answerVar: VAR_ANSWER, kind: 'ask', answerType, topicEntities: [] };
  }
  if (form.kind === 'aggregate' || form.kind === 'ratio' || form.kind === 'arith') {
    const result = DF.variable(VAR_VALUE);
    const query = form.kind === 'aggregate' ? c.aggregate(form, result) : form.kind === 'ratio' ? c.ratio(form, result) : c.arith(form, result);
    return { sparql: generateSparql(query), answerVar: VAR_VALUE, kind: 'value', answerType, topicEntities: [] };
  }
  if (form.kind === 'ask') {
    const { where } = c.setWhere(form.arg, x);
    const query: S.AskQuery = { type: 'query', queryType: 'ASK', prefixes: {}, where };
    return { sparql: generateSparql(query), answerVar: VAR_ANSWER, kind: 'ask', answerType, topicEntities: [] };
  }
  const isCount = form.kind === 'count';
  const body = isCount ? form.arg : form;
  const { where, topics } = c.setWhere(body, x);
  const query: S.SelectQuery = {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: isCount
      ? [{ expression: { type: 'aggregate', aggregation: 'count', distinct: true, expression: x }, variable: DF.variable(VAR_COUNT) }]
      : [x],
    ...(isCount ? {} : { distinct: true }),
    where,
    ...(!isCount && o.limit !== undefined ? { limit: o.limit } : {}),
  };
  return {
    sparql: generateSparql(query),
    answerVar: isCount ? VAR_COUNT : VAR_ANSWER,
    kind: isCount ? 'count' : 'select',
    answerType,
    topicEntities: topics,
  };
}
