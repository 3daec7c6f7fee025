import type * as S from 'sparqljs';
import { AskgraphError, Form, Literal, Ref, Relation, RDF_TYPE, RDFS_LABEL, XSD } from '../core';
import { parseSparql } from './sparql';
import { RDF_LANG_STRING, isDateType, DEFAULT_ENTITY_NAMESPACE, DEFAULT_VOCABULARY_NAMESPACE } from './terms';
import { toRelation } from './compile';

/**
 * SPARQL → logical form for the subset found in GrailQA / CWQ / QALD data and in our own compiled
 * queries: a tree of triple patterns rooted at the single answer variable, class constraints,
 * COUNT, ORDER BY … LIMIT 1 and MAX/MIN subqueries (→ ARGMAX/ARGMIN), comparisons of a value with a
 * literal (→ GT/GE/LT/LE), the WebQSP/CWQ from/to NOT EXISTS filters (→ TC) and label matches
 * (→ [ label ]). Inequality filters (`?x != ?c`, the topic exclusion) and language filters are
 * dropped (they are the benchmarks' conventions, which compileForm re-adds). Anything else throws
 * CONVERSION_UNSUPPORTED with the reason in details.reason — nothing is guessed.
 */
export interface ToFormOptions {
  /** IRIs under this namespace become bare relation names (default http://askgraph.dev/movies/relation/). */
  vocabularyNamespace?: string;
  /** IRIs under this namespace become bare class names (default: vocabularyNamespace). */
  classNamespace?: string;
  /** IRIs under this namespace whose rest looks like a GrailQA id (m.0abc / g.1xyz) become bare ids (default http://askgraph.dev/movies/entity/). */
  entityNamespace?: string;
  /** Class-constraint predicates (default rdf:type and Freebase type.object.type). */
  typePredicates?: string[];
  /** Label predicates: `?e <label> "X"` becomes the entity [ X ] (default rdfs:label). */
  labelPredicates?: string[];
  /**
   * 'drop' ignores class constraints on variables other than the answer (GrailQA's SPARQL types every
   * node, its s_expression only the answer; this changes the query's meaning, so it is opt-in). Default 'keep'.
   */
  innerClasses?: 'keep' | 'drop';
}

/**
 * The CWQ queries write their language filter with Virtuoso's `OR`; this exact filter is rewritten to
 * SPARQL's `||` before parsing (nothing else is touched).
 */
const CWQ_LANG_FILTER = /FILTER \(!isLiteral\((\?\w+)\) OR lang\(\1\) = '' OR langMatches\(lang\(\1\), 'en'\)\)/g;

const FREEBASE_TYPE = 'http://rdf.freebase.com/ns/type.object.type';
const ENTITY_ID = /^[mg]\.[0-9a-zA-Z_]+$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_.:\-/#%]*$/;
const KEYWORDS = new Set(['JOIN', 'AND', 'COUNT', 'ARGMAX', 'ARGMIN', 'TC', 'R', 'GT', 'GE', 'LT', 'LE', 'gt', 'ge', 'lt', 'le']);

/** Chains built left-nested while walking become right-nested (JOIN r1 (JOIN r2 r3)) like GrailQA's. */
function rebalance(rel: Relation): Relation {
  const links: Relation[] = [];
  const flat = (r: Relation): void => (r.kind === 'chain' ? (flat(r.first), flat(r.then)) : void links.push(r));
  flat(rel);
  return links.reduceRight((acc, r) => ({ kind: 'chain', first: r, then: acc }));
}

/** A dateTime at midnight (how compileForm writes a date bound, and how CWQ writes dates) read as that xsd:date. */
function dateOnly(lit: Literal): Literal {
  const m = lit.datatype === XSD + 'dateTime' ? lit.value.match(/^(\d{4}-\d{2}-\d{2})(T00:00:00)?$/) : null;
  return m ? { kind: 'literal', value: m[1]!, datatype: XSD + 'date' } : lit;
}

function unsupported(reason: string, detail?: string): never {
  throw new AskgraphError('CONVERSION_UNSUPPORTED', detail ? `${reason}: ${detail}` : reason, { details: { reason } });
}

type NodeTerm = S.Triple['subject'] | S.Triple['object'];

function key(t: NodeTerm | S.Term): string {
  switch (t.termType) {
    case 'Variable':
      return '?' + t.value;
    case 'NamedNode':
      return '<' + t.value + '>';
    case 'Literal':
      return JSON.stringify([t.value, t.datatype?.value ?? '', t.language ?? '']);
    default:
      return unsupported('unsupported term', t.termType);
  }
}

function isVar(t: unknown): t is S.VariableTerm {
  return typeof t === 'object' && t !== null && (t as { termType?: string }).termType === 'Variable';
}

function isTerm(e: unknown): e is S.Term {
  return typeof e === 'object' && e !== null && 'termType' in e;
}

function isOp(e: unknown, ...ops: string[]): e is S.OperationExpression {
  return typeof e === 'object' && e !== null && (e as S.OperationExpression).type === 'operation' && (ops.length === 0 || ops.includes((e as S.OperationExpression).operator.toLowerCase()));
}

interface Edge {
  s: string;
  p: string;
  o: string;
  used: boolean;
}

interface Compare {
  op: 'GT' | 'GE' | 'LT' | 'LE';
  value: Literal;
}

interface Bound {
  rel: string[]; // predicate IRIs of the path from the node to the bound value
  cmp: '<=' | '>=';
  at: Literal;
}

const FLIP: Record<string, string> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=' };
const CMP_OP: Record<string, Compare['op']> = { '>': 'GT', '>=': 'GE', '<': 'LT', '<=': 'LE' };

class Converter {
  private readonly vocab: string;
  private readonly classNs: string;
  private readonly entityNs: string;
  private readonly typePreds: Set<string>;
  private readonly labelPreds: Set<string>;
  private readonly dropInnerClasses: boolean;

  private edges: Edge[] = [];
  private terms = new Map<string, NodeTerm>();
  private alias = new Map<string, string>(); // VALUES ?v { <c> } → ?v is <c>
  private literalSets = new Map<string, S.LiteralTerm[]>(); // VALUES ?l { "a" "a"@en }
  private predicateSets = new Map<string, string[]>(); // VALUES ?p { <p1> <p2> }
  private classes = new Map<string, string[]>();
  private labels = new Map<string, string>();
  private compares = new Map<string, Compare[]>();
  private bounds = new Map<string, Bound[]>();
  private best = new Map<string, 'ARGMAX' | 'ARGMIN'>(); // var bound by a MAX/MIN subquery
  private pendingTriples: S.Triple[] = [];
  private root = '';
  private consumed = new Set<string>(); // variables whose constraints made it into the form
  private consumedValues = new Set<string>(); // compared / aggregated leaves that became GT… / ARGMAX…
  private bestAt = new Map<string, string>(); // aggregated / ordered leaf → the node its ARG wraps

  constructor(opts: ToFormOptions) {
    this.vocab = opts.vocabularyNamespace ?? DEFAULT_VOCABULARY_NAMESPACE;
    this.classNs = opts.classNamespace ?? this.vocab;
    this.entityNs = opts.entityNamespace ?? DEFAULT_ENTITY_NAMESPACE;
    this.typePreds = new Set(opts.typePredicates ?? [RDF_TYPE, FREEBASE_TYPE]);
    this.labelPreds = new Set(opts.labelPredicates ?? [RDFS_LABEL]);
    this.dropInnerClasses = opts.innerClasses === 'drop';
  }

  convert(text: string): Form {
    let q = parseSparql(text.replace(CWQ_LANG_FILTER, "FILTER (!isLiteral($1) || lang($1) = '' || langMatches(lang($1), 'en'))"), { implicitPrefixes: true });
    if (q.type === 'update') unsupported('not a query', 'SPARQL update');
    if (q.queryType !== 'SELECT') unsupported('not a SELECT query', q.queryType);
    let isCount = false;
    let answer: string;
    // GrailQA wraps the real query: SELECT (?x0 AS ?value) / (COUNT(?x0) AS ?value) WHERE { SELECT DISTINCT ?x0 … }
    const inner = this.wrapped(q);
    const proj = this.projection(q);
    if (inner) {
      isCount = proj.count;
      q = inner;
      const p2 = this.projection(inner);
      if (p2.count) unsupported('nested COUNT');
      if (p2.v !== proj.v) unsupported('wrapper projects a different variable', proj.v);
      answer = p2.v;
    } else {
      isCount = proj.count;
      answer = proj.v;
    }
    if (q.group || q.having) unsupported('GROUP BY / HAVING');
    if (q.offset) unsupported('OFFSET');
    if (q.values && q.values.length > 0) unsupported('trailing VALUES');
    let order: { v: string; op: 'ARGMAX' | 'ARGMIN' } | undefined;
    if (q.order && q.order.length > 0) {
      if (q.order.length > 1) unsupported('ORDER BY with several keys');
      if (q.limit !== 1) unsupported('ORDER BY without LIMIT 1');
      const v = this.valueVar(q.order[0]!.expression);
      if (!v) unsupported('ORDER BY on an expression');
      order = { v: '?' + v.value, op: q.order[0]!.descending ? 'ARGMAX' : 'ARGMIN' };
    } else if (q.limit !== undefined) unsupported('LIMIT without ORDER BY');
    const root = '?' + answer;
    this.root = root;
    this.patterns(q.where ?? []);
    this.resolveTriples();
    if (order) {
      if (this.best.has(order.v)) unsupported('ORDER BY on an aggregated variable');
      this.best.set(order.v, order.op);
    }
    let form = this.nodeForm(root, null);
    const unused = this.edges.filter((e) => !e.used);
    if (unused.length > 0) unsupported('triple patterns not connected to the answer variable', `${unused[0]!.s} ${unused[0]!.p} ${unused[0]!.o}`);
    if (order && this.bestAt.get(order.v) !== root) unsupported('ORDER BY on a value that is not a property path of the answer variable');
    // A MAX/MIN subquery ranges over the whole pattern (GrailQA), which is an ARGMAX of the answer set only;
    // on an inner node the form's ARGMAX would range over that node's set alone — not the same query.
    for (const [leaf, at] of this.bestAt) if (at !== root) unsupported('MAX/MIN over a value of an inner variable', leaf);
    for (const v of [...this.compares.keys(), ...this.best.keys()]) {
      if (!this.consumedValues.has(v)) unsupported('comparison or aggregate on a variable that is not a value of the answer tree', v);
    }
    for (const v of [...this.bounds.keys(), ...this.classes.keys(), ...this.labels.keys()]) {
      if (!this.consumed.has(v)) unsupported('constraint on a variable outside the answer tree', v);
    }
    if (isCount) form = { kind: 'count', arg: form };
    return form;
  }

  // ---------- query shape ----------

  private wrapped(q: S.SelectQuery): S.SelectQuery | null {
    const where = q.where ?? [];
    let only: S.Pattern | undefined = where.length === 1 ? where[0] : undefined;
    if (only && only.type === 'group' && only.patterns.length === 1) only = only.patterns[0];
    if (only && only.type === 'query' && only.queryType === 'SELECT') return only;
    return null;
  }

  private projection(q: S.SelectQuery): { v: string; count: boolean } {
    const vars = q.variables;
    if (vars.length !== 1) unsupported('not exactly one projected variable', `${vars.length}`);
    const v = vars[0]!;
    if (isVar(v)) return { v: v.value, count: false };
    if ('termType' in v) unsupported('SELECT *');
    const e = (v as S.VariableExpression).expression;
    if (isVar(e)) return { v: e.value, count: false };
    if (typeof e === 'object' && (e as S.AggregateExpression).type === 'aggregate') {
      const agg = e as S.AggregateExpression;
      if (agg.aggregation.toLowerCase() === 'count' && isVar(agg.expression)) return { v: agg.expression.value, count: true };
      unsupported('projection aggregate', agg.aggregation);
    }
    return unsupported('projection expression');
  }

  private patterns(ps: S.Pattern[]): void {
    for (const p of ps) {
      switch (p.type) {
        case 'bgp':
          for (const t of p.triples) this.pendingTriples.push(t);
          break;
        case 'group':
          if (p.patterns.length === 1 && p.patterns[0]!.type === 'query') this.subquery(p.patterns[0] as S.SelectQuery);
          else this.patterns(p.patterns);
          break;
        case 'query':
          this.subquery(p as S.SelectQuery);
          break;
        case 'values':
          this.values(p);
          break;
        case 'filter':
          this.filter(p.expression);
          break;
        default:
          unsupported(`${p.type.toUpperCase()} pattern`);
      }
    }
  }

  /** { SELECT (MAX(?w) AS ?best) WHERE { … } } — GrailQA's ARGMAX / ARGMIN (its inner pattern restates the outer one). */
  private subquery(q: S.SelectQuery): void {
    if (q.queryType !== 'SELECT' || q.variables.length !== 1) unsupported('subquery shape');
    const v = q.variables[0]!;
    const e = !isVar(v) && !('termType' in v) ? (v as S.VariableExpression) : null;
    const agg = e && typeof e.expression === 'object' && (e.expression as S.AggregateExpression).type === 'aggregate' ? (e.expression as S.AggregateExpression) : null;
    const kind = agg?.aggregation.toLowerCase();
    if (!e || !agg || (kind !== 'max' && kind !== 'min')) unsupported('subquery other than a MAX/MIN aggregate');
    this.best.set('?' + e.variable.value, kind === 'max' ? 'ARGMAX' : 'ARGMIN');
  }

  private values(p: S.ValuesPattern): void {
    const vars = new Set(p.values.flatMap((row) => Object.keys(row)));
    if (vars.size !== 1) unsupported('VALUES over several variables');
    const name = [...vars][0]!;
    const cells = p.values.map((row) => row[name as `?${string}`]);
    if (cells.some((c) => c === undefined)) unsupported('VALUES with UNDEF');
    const terms = cells as S.Term[];
    if (terms.length === 1 && terms[0]!.termType !== 'Variable') {
      this.alias.set(name, key(terms[0] as NodeTerm));
      this.terms.set(key(terms[0] as NodeTerm), terms[0] as NodeTerm);
      return;
    }
    if (terms.every((t) => t.termType === 'Literal') && new Set(terms.map((t) => t.value)).size === 1) {
      this.literalSets.set(name, terms as S.LiteralTerm[]);
      return;
    }
    if (terms.every((t) => t.termType === 'NamedNode' && this.labelPreds.has(t.value))) {
      this.predicateSets.set(name, terms.map((t) => t.value));
      return;
    }
    unsupported('VALUES with several rows (not a label match)');
  }

  // ---------- filters ----------

  private filter(e: S.Expression): void {
    if (this.isIgnorable(e)) return;
    if (isOp(e, '||') && e.args.length === 2 && this.timeBound(e)) return;
    if (isOp(e, '&&')) {
      for (const a of e.args) this.filter(a as S.Expression);
      return;
    }
    if (isOp(e, '<', '>', '<=', '>=')) {
      let [a, b] = e.args as [S.Expression, S.Expression];
      let sym = e.operator;
      if (isTerm(a) && a.termType === 'Literal') {
        [a, b] = [b, a];
        sym = FLIP[sym]!;
      }
      const v = this.valueVar(a);
      if (!v) unsupported('comparison of an expression', e.operator);
      if (!isTerm(b) || b.termType !== 'Literal') unsupported('comparison of two variables');
      const list = this.compares.get('?' + v.value) ?? [];
      list.push({ op: CMP_OP[sym]!, value: dateOnly(this.literal(b)) });
      this.compares.set('?' + v.value, list);
      return;
    }
    if (isOp(e, '=')) unsupported('equality filter (language-agnostic or computed value match)');
    if (isOp(e, 'regex', 'contains', 'strstarts', 'strends')) unsupported('string matching filter', e.operator);
    if (isOp(e, 'notexists', 'exists')) unsupported('EXISTS / NOT EXISTS filter');
    if (isOp(e, '-', '+', '*', '/')) unsupported('arithmetic filter');
    return unsupported('FILTER expression', isOp(e) ? e.operator : 'other');
  }

  /** `?a != ?b`, `?a != <c>` (topic exclusion) and the language filters on the answer. */
  private isIgnorable(e: S.Expression): boolean {
    if (isOp(e, '!=')) return e.args.every((a) => isTerm(a));
    if (isOp(e, '&&')) return e.args.every((a) => this.isIgnorable(a as S.Expression));
    return this.isLangFilter(e);
  }

  private isLangFilter(e: S.Expression): boolean {
    const only = (x: unknown): boolean => {
      if (isTerm(x)) return x.termType === 'Variable' || x.termType === 'Literal';
      if (!isOp(x, '||', '!', 'isliteral', 'lang', 'langmatches', '=')) return false;
      return x.args.every(only);
    };
    const mentionsLang = (x: unknown): boolean => isOp(x, 'lang', 'langmatches') || (isOp(x) && x.args.some(mentionsLang));
    return only(e) && mentionsLang(e);
  }

  /** NOT EXISTS { ?y r ?a } || EXISTS { ?y r ?b FILTER (cast(?b) <= t) } — one bound of a TC interval. */
  private timeBound(e: S.OperationExpression): boolean {
    const [a, b] = e.args as [S.Expression, S.Expression];
    if (!isOp(a, 'notexists') || !isOp(b, 'exists')) return false;
    const pathOf = (pats: S.Pattern[]): { node: string; preds: string[]; end: string; rest: S.Pattern[] } | null => {
      const flat: S.Pattern[] = [];
      const flatten = (ps: S.Pattern[]): void => ps.forEach((p) => (p.type === 'group' ? flatten(p.patterns) : flat.push(p)));
      flatten(pats);
      const triples = flat.filter((p): p is S.BgpPattern => p.type === 'bgp').flatMap((p) => p.triples);
      if (triples.length === 0) return null;
      const preds: string[] = [];
      let node = '';
      let cur = '';
      for (const t of triples) {
        if (!('termType' in t.predicate) || t.predicate.termType !== 'NamedNode') return null;
        const s = this.canon(key(t.subject));
        if (node === '') node = s;
        else if (s !== cur) return null;
        preds.push(t.predicate.value);
        cur = key(t.object);
      }
      return { node, preds, end: cur, rest: flat.filter((p) => p.type !== 'bgp') };
    };
    const missing = pathOf(a.args as unknown as S.Pattern[]);
    const present = pathOf(b.args as unknown as S.Pattern[]);
    if (!missing || !present || missing.rest.length > 0 || present.rest.length !== 1) return false;
    if (missing.node !== present.node || missing.preds.join(' ') !== present.preds.join(' ')) return false;
    const f = present.rest[0]!;
    if (f.type !== 'filter' || !isOp(f.expression, '<=', '>=')) return false;
    const [l, r] = f.expression.args as [S.Expression, S.Expression];
    const v = this.valueVar(l);
    if (!v || '?' + v.value !== present.end || !isTerm(r) || r.termType !== 'Literal') return false;
    const list = this.bounds.get(missing.node) ?? [];
    list.push({ rel: present.preds, cmp: f.expression.operator as '<=' | '>=', at: dateOnly(this.literal(r)) });
    this.bounds.set(missing.node, list);
    return true;
  }

  /** ?v, a cast of ?v (xsd:integer(?v), xsd:datetime(?v)), or compileForm's COALESCE of dateTime casts of ?v. */
  private valueVar(e: S.Expression): S.VariableTerm | null {
    if (isVar(e)) return e;
    if (typeof e !== 'object' || e === null) return null;
    const fc = e as S.FunctionCallExpression;
    const fn = fc.function as S.IriTerm | string;
    const dv = this.dateValueVar(e);
    if (dv) return dv;
    if (fc.type === 'functionCall' && fc.args.length === 1 && typeof fn === 'object' && fn.value.toLowerCase().startsWith(XSD.toLowerCase())) {
      return this.valueVar(fc.args[0] as S.Expression);
    }
    if (isOp(e, 'coalesce')) {
      const vs = e.args.map((a) => this.castVar(a as S.Expression));
      if (vs.every((v) => v !== null && v.value === vs[0]!.value)) return vs[0]!;
    }
    return null;
  }

  /** compileForm's dateValue: xsd:dateTime(IF(REGEX(STR(?v), …), …)) — the variable inside STR. */
  private dateValueVar(e: S.Expression): S.VariableTerm | null {
    const fc = e as S.FunctionCallExpression;
    if (fc.type !== 'functionCall' || fc.args.length !== 1 || !isOp(fc.args[0], 'if')) return null;
    const cond = fc.args[0].args[0];
    if (isOp(cond, 'regex') && isOp(cond.args[0], 'str') && isVar(cond.args[0].args[0])) return cond.args[0].args[0];
    return null;
  }

  private castVar(e: S.Expression): S.VariableTerm | null {
    const fc = e as S.FunctionCallExpression;
    if (fc.type !== 'functionCall' || fc.args.length !== 1) return null;
    const arg = fc.args[0] as S.Expression;
    if (isVar(arg)) return arg;
    if (isOp(arg, 'concat') && isOp(arg.args[0], 'str') && isVar(arg.args[0].args[0])) return arg.args[0].args[0];
    return null;
  }

  private literal(t: S.LiteralTerm): Literal {
    if (t.language) return { kind: 'literal', value: t.value, datatype: RDF_LANG_STRING, lang: t.language };
    return { kind: 'literal', value: t.value, datatype: t.datatype?.value ?? XSD + 'string' };
  }

  // ---------- the graph ----------

  private canon(k: string): string {
    return this.alias.get(k) ?? k;
  }

  private resolveTriples(): void {
    for (const t of this.pendingTriples) {
      const pred = t.predicate;
      if (!('termType' in pred)) unsupported('property path');
      const s = this.canon(key(t.subject));
      let oKey = this.canon(key(t.object));
      this.terms.set(key(t.subject), t.subject);
      this.terms.set(key(t.object), t.object);
      const labelPred = pred.termType === 'NamedNode' ? this.labelPreds.has(pred.value) : this.predicateSets.has('?' + pred.value);
      if (labelPred && s.startsWith('?')) {
        const lit = t.object.termType === 'Literal' ? t.object : this.literalSets.get(oKey)?.[0];
        if (lit) {
          if (this.labels.has(s)) unsupported('two label matches on one variable');
          this.labels.set(s, lit.value);
          continue;
        }
      }
      if (pred.termType !== 'NamedNode') unsupported('variable predicate');
      if (this.typePreds.has(pred.value)) {
        if (!s.startsWith('?')) unsupported('class constraint on a constant');
        if (t.object.termType !== 'NamedNode') unsupported('class constraint with a variable class');
        if (this.dropInnerClasses && s !== this.root) continue;
        const list = this.classes.get(s) ?? [];
        list.push(t.object.value);
        this.classes.set(s, list);
        continue;
      }
      if (t.subject.termType === 'BlankNode' || t.object.termType === 'BlankNode') unsupported('blank node');
      if (this.literalSets.has(oKey)) unsupported('VALUES literals outside a label match');
      oKey = this.canon(oKey);
      this.edges.push({ s, p: pred.value, o: oKey, used: false });
    }
  }

  private degree(node: string): Edge[] {
    return this.edges.filter((e) => e.s === node || e.o === node);
  }

  /** A variable whose only role is to carry a value (compared, ordered, or MAX/MIN-aggregated). */
  private isValueLeaf(node: string): boolean {
    return node.startsWith('?') && (this.compares.has(node) || this.best.has(node)) && this.degree(node).length === 1 && !this.classes.has(node) && !this.labels.has(node) && !this.bounds.has(node);
  }

  private isPassThrough(node: string): boolean {
    return node.startsWith('?') && node !== this.root && this.degree(node).length === 2 && !this.classes.has(node) && !this.labels.has(node) && !this.bounds.has(node) && !this.compares.has(node) && !this.best.has(node);
  }

  /** From node across e, through pass-through variables, to a value leaf: the relation path, or null. */
  private walkToLeaf(node: string, e: Edge): { leaf: string; rel: Relation; edges: Edge[] } | null {
    let cur = node;
    let edge = e;
    let rel: Relation | null = null;
    const edges: Edge[] = [];
    for (let i = 0; i < 32; i++) {
      const forward = edge.s === cur;
      const next = forward ? edge.o : edge.s;
      const step: Relation = forward ? this.rel(edge.p) : { kind: 'reverse', of: this.rel(edge.p) };
      rel = rel ? { kind: 'chain', first: rel, then: step } : step;
      edges.push(edge);
      if (next === node || edge.used) return null;
      if (this.isValueLeaf(next)) return { leaf: next, rel: rebalance(rel), edges };
      if (!this.isPassThrough(next)) return null;
      const prev = edge;
      edge = this.degree(next).find((x) => x !== prev)!;
      cur = next;
    }
    return null;
  }

  private rel(iri: string): Relation {
    return { kind: 'rel', ref: this.ref(iri, this.vocab, (rest) => NAME.test(rest) && !KEYWORDS.has(rest)) };
  }

  private ref(iri: string, ns: string, ok: (rest: string) => boolean): Ref {
    if (iri.startsWith(ns) && iri.length > ns.length) {
      let rest: string;
      try {
        rest = decodeURIComponent(iri.slice(ns.length));
      } catch {
        return { kind: 'iri', iri };
      }
      if (encodeURIComponent(rest) === iri.slice(ns.length) && ok(rest)) return { kind: 'name', name: rest };
    }
    return { kind: 'iri', iri };
  }

  private constantForm(k: string): Form {
    const t = this.terms.get(k);
    if (!t) return unsupported('unknown term', k);
    if (t.termType === 'Literal') return this.literal(t);
    if (t.termType === 'NamedNode') return { kind: 'entity', ref: this.ref(t.value, this.entityNs, (rest) => ENTITY_ID.test(rest)) };
    return unsupported('unsupported term', t.termType);
  }

  /** The form of the set of values a node can take, given all its patterns except the edge to its parent. */
  private nodeForm(node: string, parent: Edge | null): Form {
    if (!node.startsWith('?')) return this.constantForm(node);
    const parts: Form[] = [];
    for (const c of this.classes.get(node) ?? []) parts.push({ kind: 'class', ref: this.ref(c, this.classNs, (rest) => NAME.test(rest) && !KEYWORDS.has(rest)) });
    const label = this.labels.get(node);
    if (label !== undefined) parts.push({ kind: 'entity', ref: { kind: 'label', label } });
    let argBest: { op: 'ARGMAX' | 'ARGMIN'; rel: Relation } | null = null;
    for (const e of this.degree(node)) {
      if (e === parent || e.used) {
        if (e !== parent) unsupported('cycle in the triple patterns');
        continue;
      }
      const other = e.s === node ? e.o : e.s;
      if (other === node) unsupported('self loop');
      // A value path ending in a compared / aggregated leaf becomes GT… / ARGMAX on this node.
      const leaf = this.walkToLeaf(node, e);
      if (leaf) {
        for (const pe of leaf.edges) pe.used = true;
        for (const c of this.compares.get(leaf.leaf) ?? []) parts.push({ kind: 'compare', op: c.op, relation: leaf.rel, value: c.value });
        this.consumedValues.add(leaf.leaf);
        const best = this.best.get(leaf.leaf);
        if (best) {
          if (argBest) unsupported('two ARGMAX / ARGMIN on one variable');
          argBest = { op: best, rel: leaf.rel };
          this.bestAt.set(leaf.leaf, node);
        }
        continue;
      }
      e.used = true;
      const forward = e.s === node;
      const sub = this.nodeForm(other, e);
      parts.push({ kind: 'join', relation: forward ? this.rel(e.p) : { kind: 'reverse', of: this.rel(e.p) }, arg: sub });
    }
    if (parts.length === 0) unsupported('unconstrained variable', node);
    let form = parts.reduceRight((acc, p) => ({ kind: 'and', args: [p, acc] }) as Form);
    this.consumed.add(node);
    const bounds = this.bounds.get(node);
    if (bounds) form = this.tc(form, bounds);
    if (argBest) form = { kind: 'arg', op: argBest.op, arg: form, relation: argBest.rel };
    return form;
  }

  private tc(arg: Form, bounds: Bound[]): Form {
    const from = bounds.find((b) => b.cmp === '<=');
    const to = bounds.find((b) => b.cmp === '>=');
    if (!from || !to || bounds.length !== 2) unsupported('time constraint without both a from and a to bound');
    const chain = (preds: string[]): Relation => preds.map((p) => this.rel(p)).reduceRight((acc, r) => ({ kind: 'chain', first: r, then: acc }));
    const fromRel = chain(from.rel);
    let paired: Relation;
    try {
      paired = toRelation(fromRel);
    } catch {
      return unsupported('time constraint relation without a from/to naming pair', from.rel.join(' '));
    }
    if (JSON.stringify(paired) !== JSON.stringify(chain(to.rel))) unsupported('time constraint from/to relations do not pair', `${from.rel.join(' ')} / ${to.rel.join(' ')}`);
    const end = from.at.value;
    const start = to.at.value;
    let value: Literal;
    const ys = start.match(/^(\d{4})-01-01(T00:00:00)?$/);
    const ye = end.match(/^(\d{4})-12-31(T(00:00:00|23:59:59))?$/);
    if (ys && ye && ys[1] === ye[1]) value = { kind: 'literal', value: ys[1]!, datatype: XSD + 'integer' };
    else if (start === end && isDateType(from.at.datatype)) value = from.at;
    else return unsupported('time constraint bounds are not one year or one date', `${start} .. ${end}`);
    return { kind: 'tc', arg, relation: fromRel, value };
  }
}

/** Convert a SPARQL SELECT query to a logical form (throws CONVERSION_UNSUPPORTED with details.reason). */
export function sparqlToForm(sparql: string, opts: ToFormOptions = {}): Form {
  return new Converter(opts).convert(sparql);
}
