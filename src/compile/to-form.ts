import type * as S from 'sparqljs';
import { AskgraphError, Column, Form, GroupOp, Literal, defined, itemAt, nameInNamespace, Ref, Relation, RDF_LANG_STRING, RDF_TYPE, RDFS_LABEL, XSD } from '../core';
import { parseSparql } from '../sparql';
import { isDateType } from './terms';
import { toRelation } from './compile';
import { answerTypeOf, printRelation } from '../form';

/**
 * SPARQL → logical form for the subset found in GrailQA / CWQ / QALD data and in our own compiled
 * queries: a tree of triple patterns rooted at the single answer variable, class constraints,
 * COUNT, ORDER BY … LIMIT 1 and MAX/MIN subqueries (→ ARGMAX/ARGMIN), comparisons of a value with a
 * literal (→ GT/GE/LT/LE), the WebQSP/CWQ from/to NOT EXISTS filters (→ TC) and label matches
 * (→ [ label ]), and compileForm's own v2 shapes (RATIO, aggregates, ABSDIFF). Inequality filters
 * (`?x != ?c`, the topic exclusion) and language filters are dropped (they are the benchmarks'
 * conventions, which compileForm re-adds). Anything else throws
 * CONVERSION_UNSUPPORTED with the reason in details.reason — nothing is guessed.
 */
export interface ToFormOptions {
  /** IRIs under this namespace become bare relation names — the pack's (packCompileOptions); none: IRIs stay IRIs. */
  vocabularyNamespace?: string;
  /** IRIs under this namespace become bare class names (default: vocabularyNamespace). */
  classNamespace?: string;
  /** IRIs under this namespace whose rest looks like a GrailQA id (m.0abc / g.1xyz) become bare ids (the pack's <baseIri>entity/; none: IRIs stay IRIs). */
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
  /** Bare name → IRI of relations and classes outside the namespaces (a pack's `names`): those IRIs become the names. */
  names?: Record<string, string>;
}

/**
 * The CWQ queries write their language filter with Virtuoso's `OR`; this exact filter is rewritten to
 * SPARQL's `||` before parsing (nothing else is touched).
 */
const CWQ_LANG_FILTER = /FILTER \(!isLiteral\((\?\w+)\) OR lang\(\1\) = '' OR langMatches\(lang\(\1\), 'en'\)\)/g;

const FREEBASE_TYPE = 'http://rdf.freebase.com/ns/type.object.type';
const ENTITY_ID = /^[mg]\.[0-9a-zA-Z_]+$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_.:\-/#%]*$/;
const KEYWORDS = new Set(['JOIN', 'AND', 'COUNT', 'ARGMAX', 'ARGMIN', 'TC', 'R', 'GT', 'GE', 'LT', 'LE', 'gt', 'ge', 'lt', 'le', 'ASK', 'DIFF', 'OR', 'AVG', 'SUM', 'MAX', 'MIN', 'RATIO', 'PERCENT', 'MOSTCOMMON', 'LEASTCOMMON', 'ARGMAXCOUNT', 'ARGMINCOUNT', 'HAS', 'ABSDIFF', 'TABLE', 'GROUPCOUNT', 'GROUPSUM', 'GROUPAVG', 'GROUPMAX', 'GROUPMIN', 'HAVING', 'ASC', 'DESC', 'LIMIT', 'OFFSET', 'MORE', 'LESS', 'CONTAINS', 'MINUS']);

/** A dateTime at midnight (how compileForm writes a date bound, and how CWQ writes dates) read as that xsd:date. */
function dateOnly(lit: Literal): Literal {
  const m = lit.datatype === XSD + 'dateTime' ? /^(\d{4}-\d{2}-\d{2})(T00:00:00)?$/.exec(lit.value) : null;
  return m ? { kind: 'literal', value: defined(m[1], 'date group'), datatype: XSD + 'date' } : lit;
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
      return JSON.stringify([t.value, t.datatype.value, t.language]);
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
  return typeof e === 'object' && e !== null && 'type' in e && e.type === 'operation' && (ops.length === 0 || ops.includes((e as S.OperationExpression).operator.toLowerCase()));
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

interface GroupCount {
  key: string; // the grouped variable
  counted: string; // the variable counted per group
  where: S.Pattern[];
}

/** Operations that keep "the value of one variable" (casts, compileForm's dateValue / numValue / sortKey). */
const VALUE_OPS = new Set(['if', 'coalesce', 'regex', 'str', 'concat', 'substr', 'isnumeric', 'isliteral', 'bound', 'isiri', 'isuri', 'datatype']);
/** Variables that compileForm leaves unbound on purpose (the "not a date / number" branches). */
const NEVER_BOUND = new Set(['noDate', 'noNumber']);

/** The variable names (without "?") an expression reads. */
function varsIn(e: unknown): string[] {
  if (isVar(e)) return [e.value];
  if (typeof e !== 'object' || e === null || isTerm(e)) return [];
  const args = (e as { args?: unknown[] }).args;
  return Array.isArray(args) ? args.flatMap(varsIn) : [];
}

/** The SELECT a pattern is, when it is a sub-select (bare or in a group of its own). */
function subqueryOf(p: S.Pattern): S.SelectQuery | null {
  const only = p.type === 'group' && p.patterns.length === 1 ? itemAt(p.patterns, 0, 'group patterns') : p;
  return only.type === 'query' ? only : null;
}

function isAggregate(e: unknown): e is S.AggregateExpression {
  return typeof e === 'object' && e !== null && 'type' in e && e.type === 'aggregate';
}

/**
 * The text a regular expression matches when it is a plain text (metacharacters escaped, no anchors or
 * classes): `a\.b` → `a.b`; null for a real pattern (`^a`, `a.*b`, `[ab]`), which CONTAINS cannot say.
 */
export function plainTextOfRegex(pattern: string): string | null {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charAt(i);
    if (c === '\\') {
      const n = pattern[i + 1];
      if (n === undefined || /[A-Za-z0-9]/.test(n)) return null; // \d, \w, \b … are classes, not text
      out += n;
      i++;
    } else if ('.^$*+?()[]{}|'.includes(c)) return null;
    else out += c;
  }
  return out;
}

const GROUP_OP: Record<string, GroupOp> = { COUNT: 'GROUPCOUNT', SUM: 'GROUPSUM', AVG: 'GROUPAVG', MAX: 'GROUPMAX', MIN: 'GROUPMIN' };

class Converter {
  private readonly vocab: string | undefined;
  private readonly classNs: string | undefined;
  private readonly entityNs: string | undefined;
  private readonly typePreds: Set<string>;
  private readonly labelPreds: Set<string>;
  private readonly dropInnerClasses: boolean;
  private readonly names: Map<string, string>; // IRI → bare name (the pack's names, reversed)

  private edges: Edge[] = [];
  private terms = new Map<string, NodeTerm>();
  /** ASK rooted at a constant: the constant's key → the root variable standing for it. */
  readonly alias = new Map<string, string>();
  /** VALUES ?v { <c> … }: per VALUES pattern, the constants a variable is one of (one: an entity; several: OR). */
  readonly entityParts = new Map<string, string[][]>();
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
  // ---- form language v2 ----
  private optLabels = new Map<string, string>(); // OPTIONAL { ?o label ?ol }: ?ol → ?o
  private valueAlias = new Map<string, string>(); // BIND(f(?o) AS ?v): ?v → ?o (the value of ?o)
  private unions: S.Pattern[][][] = []; // UNION branches, resolved once the graph is known
  private negations: S.Pattern[][] = []; // FILTER NOT EXISTS / MINUS groups
  private equalities: [S.Expression, S.Expression][] = []; // FILTER(a = b), resolved after the subqueries
  private extraParts = new Map<string, Form[]>(); // OR forms of a node (from UNION)
  private diffs = new Map<string, Form[]>(); // forms subtracted from a node (NOT EXISTS / MINUS)
  readonly groupCounts = new Map<string, GroupCount>(); // ?n of { SELECT ?g (COUNT(?c) AS ?n) … GROUP BY ?g }
  readonly counts = new Map<string, { v: string; where: S.Pattern[] }>(); // ?n of { SELECT (COUNT(?c) AS ?n) … }
  groupBest: { n: string; op: 'max' | 'min' } | null = null; // FILTER(?n = ?max) over a group count
  private varCompares: { a: string; b: string; sym: string; done?: boolean }[] = []; // FILTER(?a > ?b)
  // ---- form language v3 ----
  private texts = new Map<string, string[]>(); // FILTER(CONTAINS(LCASE(?l), "t")) / regex(str(?l), "t", "i"): ?l → texts
  /** The node each extra leaf was reached from. */
  readonly leafAt = new Map<string, string>();
  /** Leaves whose path from their node is wanted as a relation (group counts), and that path. */
  readonly extraLeaves = new Set<string>();
  readonly leafRel = new Map<string, Relation>();
  private counter = 0;

  constructor(private readonly opts: ToFormOptions) {
    this.vocab = opts.vocabularyNamespace;
    this.classNs = opts.classNamespace ?? this.vocab;
    this.entityNs = opts.entityNamespace;
    this.typePreds = new Set(opts.typePredicates ?? [RDF_TYPE, FREEBASE_TYPE]);
    this.labelPreds = new Set(opts.labelPredicates ?? [RDFS_LABEL]);
    this.dropInnerClasses = opts.innerClasses === 'drop';
    this.names = new Map(Object.entries(opts.names ?? {}).map(([name, iri]) => [iri, name]));
  }

  private sub(): Converter {
    return new Converter(this.opts);
  }

  convert(text: string): Form {
    const q = parseSparql(text.replace(CWQ_LANG_FILTER, "FILTER (!isLiteral($1) || lang($1) = '' || langMatches(lang($1), 'en'))"), { implicitPrefixes: true });
    if (q.type === 'update') unsupported('not a query', 'SPARQL update');
    if (q.queryType === 'ASK') {
      if (q.values && q.values.length > 0) unsupported('trailing VALUES');
      const more = this.moreForm(q.where ?? [], null);
      if (more) return more;
      return { kind: 'ask', arg: this.askForm(q.where ?? []) };
    }
    if (q.queryType !== 'SELECT') unsupported('not a SELECT or ASK query', q.queryType);
    return this.select(q);
  }

  private select(q0: S.SelectQuery): Form {
    let q = this.mergeGroupSubselect(q0);
    const more = this.moreSelect(q);
    if (more) return more;
    const absdiff = this.absdiffForm(q);
    if (absdiff) return absdiff;
    const ratio = this.ratioForm(q);
    if (ratio) return ratio;
    const aggregate = this.aggregateForm(q);
    if (aggregate) return aggregate;
    if (q.group && !this.isGroupSuperlative(q)) {
      try {
        return this.groupTableForm(q);
      } catch (e) {
        // the count of each member's own values (ARGMAXCOUNT's side) has no group table; LIMIT 1 of it is the superlative
        if (!(q.limit === 1 && !q.having && !q.offset)) throw e;
      }
    }
    const grouped = this.groupOrderForm(q);
    if (grouped) return grouped;
    if (this.isTableQuery(q)) return this.tableForm(q);
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
      const v = this.valueVar(itemAt(q.order, 0, 'ORDER BY keys').expression);
      if (!v) unsupported('ORDER BY on an expression');
      order = { v: '?' + v.value, op: itemAt(q.order, 0, 'ORDER BY keys').descending ? 'ARGMAX' : 'ARGMIN' };
    } else if (q.limit !== undefined) unsupported('LIMIT without ORDER BY');
    const root = '?' + answer;
    let form: Form;
    const best = order ? null : this.groupBestQuery(q.where ?? [], root);
    if (best) form = this.groupCountForm(best.gc, best.op);
    else form = this.tree(q.where ?? [], root, order);
    if (isCount) form = { kind: 'count', arg: form };
    return form;
  }

  /**
   * The patterns as a form of the set of values `root` takes: the tree of triple patterns rooted there,
   * with its filters, subqueries, unions and negations (throws CONVERSION_UNSUPPORTED otherwise).
   */
  tree(where: S.Pattern[], root: string, order?: { v: string; op: 'ARGMAX' | 'ARGMIN' }, valueRoot = false): Form {
    this.root = root;
    this.patterns(where);
    this.resolveTriples();
    this.resolveEqualities();
    if (valueRoot) this.root = root = this.unlabelRoot(root);
    this.resolveDeferred();
    this.texts = new Map([...this.texts].map(([k, v]) => [this.aliasOf(k), v]));
    // FILTER(?a > ?b) on two values of one node: an attribute comparison ([36]) where nodeForm finds both
    for (const c of this.varCompares) {
      c.a = this.aliasOf(c.a);
      c.b = this.aliasOf(c.b);
      this.extraLeaves.add(c.a);
      this.extraLeaves.add(c.b);
    }
    if (this.groupBest) unsupported('group-count superlative below the answer');
    if (order) {
      const v = this.aliasOf(order.v);
      if (this.best.has(v)) unsupported('ORDER BY on an aggregated variable');
      this.best.set(v, order.op);
      order = { ...order, v };
    }
    const form = this.nodeForm(root, null);
    if (this.varCompares.some((c) => !c.done)) unsupported('comparison of two variables that are not two values of one node');
    const [unused] = this.edges.filter((e) => !e.used);
    if (unused) unsupported('triple patterns not connected to the answer variable', `${unused.s} ${unused.p} ${unused.o}`);
    if (order && this.bestAt.get(order.v) !== root) unsupported('ORDER BY on a value that is not a property path of the answer variable');
    // A MAX/MIN subquery ranges over the whole pattern (GrailQA), which is an ARGMAX of the answer set only;
    // on an inner node the form's ARGMAX would range over that node's set alone — not the same query.
    for (const [leaf, at] of this.bestAt) if (at !== root && !this.extraLeaves.has(leaf)) unsupported('MAX/MIN over a value of an inner variable', leaf);
    for (const v of [...this.compares.keys(), ...this.best.keys(), ...this.texts.keys()]) {
      if (!this.consumedValues.has(v)) unsupported('comparison or aggregate on a variable that is not a value of the answer tree', v);
    }
    for (const v of [...this.bounds.keys(), ...this.classes.keys(), ...this.labels.keys(), ...this.entityParts.keys(), ...this.extraParts.keys(), ...this.diffs.keys()]) {
      if (!this.consumed.has(v)) unsupported('constraint on a variable outside the answer tree', v);
    }
    return form;
  }

  // ---------- query shapes of form language v2 ----------

  /** ASK { … }: the patterns rooted at ?x, a subject constant or another variable (ASK is symmetric in them). */
  private askForm(where: S.Pattern[]): Form {
    const compared = this.sub().compareTwo(where);
    if (compared) return compared;
    const nodes: { key: string; term: NodeTerm }[] = [];
    const seen = new Set<string>();
    const visit = (ps: S.Pattern[]): void => {
      for (const p of ps) {
        if (p.type === 'bgp') {
          for (const t of p.triples) {
            for (const term of [t.subject, t.object] as NodeTerm[]) {
              if (term.termType !== 'Variable' && term.termType !== 'NamedNode') continue;
              const k = key(term);
              if (!seen.has(k)) { seen.add(k); nodes.push({ key: k, term }); }
            }
          }
        } else if (p.type === 'group') visit(p.patterns);
        else if (p.type === 'values') for (const name of Object.keys(p.values[0] ?? {})) if (!seen.has(name)) { seen.add(name); nodes.push({ key: name, term: { termType: 'Variable', value: name.slice(1) } as S.VariableTerm }); }
      }
    };
    visit(where);
    for (const v of this.varsOf(where)) if (!seen.has(v)) { seen.add(v); nodes.push({ key: v, term: { termType: 'Variable', value: v.slice(1) } as S.VariableTerm }); }
    const rank = (n: { key: string; term: NodeTerm }): number => (n.key === '?x' ? 0 : n.term.termType === 'NamedNode' ? 1 : 2);
    const candidates = [...nodes].sort((a, b) => rank(a) - rank(b));
    if (candidates.length === 0) unsupported('ASK without triple patterns');
    let first: unknown;
    for (const c of candidates) {
      const conv = this.sub();
      let root = c.key;
      if (c.term.termType === 'NamedNode') {
        root = '?__ask';
        conv.alias.set(c.key, root);
        conv.entityParts.set(root, [[c.key]]);
        conv.terms.set(c.key, c.term);
      }
      try {
        return conv.tree(where, root);
      } catch (e) {
        first ??= e;
      }
    }
    throw first;
  }

  /**
   * ASK { A r ?a . B r ?b FILTER(?a > ?b) } — two constants compared on one value:
   * A > B is (ASK (DIFF A (ARGMIN (OR A B) r))) (A is not among the smallest), A ≥ B is
   * (ASK (AND A (ARGMAX (OR A B) r))); < and ≤ mirror them.
   */
  private compareTwo(where: S.Pattern[]): Form | null {
    try {
      this.patterns(where);
      this.resolveTriples();
    } catch {
      return null;
    }
    if (this.varCompares.length !== 1) return null;
    const { a, b, sym } = itemAt(this.varCompares, 0, 'variable comparisons');
    const pa = this.pathToConstant(a);
    const pb = this.pathToConstant(b);
    if (!pa || !pb) return null;
    if (this.edges.some((e) => !e.used) || this.compares.size || this.best.size || this.classes.size || this.labels.size || this.unions.length || this.negations.length) return null;
    if (printRelation(pa.rel) !== printRelation(pb.rel)) unsupported('comparison of the values of two different relations');
    const A = this.constantForm(pa.constant);
    const B = this.constantForm(pb.constant);
    const both: Form = { kind: 'or', args: [A, B] };
    const arg = (op: 'ARGMAX' | 'ARGMIN'): Form => ({ kind: 'arg', op, arg: both, relation: pa.rel });
    switch (sym) {
      case '>':
        return { kind: 'diff', args: [A, arg('ARGMIN')] };
      case '<':
        return { kind: 'diff', args: [A, arg('ARGMAX')] };
      case '>=':
        return { kind: 'and', args: [A, arg('ARGMAX')] };
      case '<=':
        return { kind: 'and', args: [A, arg('ARGMIN')] };
      default:
        return null;
    }
  }

  /** From a value variable back to the constant it is a value of, through pass-through variables. */
  private pathToConstant(v: string): { constant: string; rel: Relation } | null {
    const steps: Relation[] = [];
    let cur = v;
    for (let i = 0; i < 32; i++) {
      const open = this.degree(cur).filter((e) => !e.used);
      if (open.length !== 1) return null;
      const e = itemAt(open, 0, 'open edges');
      const other = e.s === cur ? e.o : e.s;
      steps.unshift(e.s === other ? this.rel(e.p) : { kind: 'reverse', of: this.rel(e.p) });
      e.used = true;
      if (!other.startsWith('?')) return { constant: other, rel: this.chainOf(steps) };
      if (this.degree(other).length !== 2 || this.classes.has(other) || this.labels.has(other)) return null;
      cur = other;
    }
    return null;
  }

  /** Steps as a right-nested chain, without a final label step (a value is its label: see compileForm). */
  private chainOf(steps: Relation[]): Relation {
    const last = itemAt(steps, -1, 'path steps');
    if (steps.length > 1 && last.kind === 'rel' && last.ref.kind === 'iri' && this.labelPreds.has(last.ref.iri)) steps = steps.slice(0, -1);
    return steps.reduceRight((acc, r) => ({ kind: 'chain', first: r, then: acc }));
  }

  /**
   * compileForm's ABSDIFF: SELECT (ABS(?lo0 - ?lo1) AS ?v) { { SELECT (MIN(?n) AS ?lo0) (MAX(?n) AS ?hi0) { P0 } }
   * { … ?lo1 ?hi1 { P1 } } FILTER(?lo0 = ?hi0 && ?lo1 = ?hi1) }, ?n bound to the number of the value of P's root.
   * Without the one-value filter (a MIN of several values) or in any other arithmetic shape: unsupported.
   */
  private absdiffForm(q: S.SelectQuery): Form | null {
    if (q.variables.length !== 1) return null;
    const v = q.variables[0];
    if (isVar(v) || 'termType' in v) return null;
    const e = v.expression;
    if (!isOp(e, 'abs')) return null;
    const d = e.args[0];
    if (e.args.length !== 1 || !isOp(d, '-') || d.args.length !== 2 || !d.args.every(isVar)) return unsupported('arithmetic projection', 'ABS of something other than ?a - ?b');
    if (q.group || q.having || q.order || q.limit !== undefined) unsupported('arithmetic projection', 'with GROUP BY / ORDER BY / LIMIT');
    const sides = new Map<string, { n: string; num: string; where: S.Pattern[] }>(); // ?lo → its subquery
    const one = new Set<string>(); // the ?n of the one-value filter (?n = 1)
    const conjuncts = (x: S.Expression): S.Expression[] => (isOp(x, '&&') ? x.args.flatMap((a) => conjuncts(a as S.Expression)) : [x]);
    for (const p0 of q.where ?? []) {
      const p = p0.type === 'group' && p0.patterns.length === 1 ? itemAt(p0.patterns, 0, 'group patterns') : p0;
      if (p.type === 'query' && p.variables.length === 2 && !p.group) {
        const agg = (x: S.SelectQuery['variables'][number], fn: string, distinct: boolean): { out: string; arg: string } | null => {
          const ve = x as S.VariableExpression;
          const a = ve.expression;
          return isAggregate(a) && a.aggregation.toLowerCase() === fn && !!a.distinct === distinct && isVar(a.expression)
            ? { out: '?' + ve.variable.value, arg: '?' + a.expression.value }
            : null;
        };
        const lo = agg(itemAt(p.variables, 0, 'sub-select projection'), 'min', false);
        const n = agg(itemAt(p.variables, 1, 'sub-select projection'), 'count', true);
        if (!lo || lo.arg !== n?.arg) unsupported('arithmetic projection', 'a side that is not the MIN and COUNT(DISTINCT) of one variable');
        sides.set(lo.out, { n: n.out, num: lo.arg, where: p.where ?? [] });
      } else if (p.type === 'filter') {
        for (const c of conjuncts(p.expression)) {
          const [a, b] = isOp(c, '=') ? c.args : [];
          if (!isVar(a) || !isTerm(b) || b.termType !== 'Literal' || Number(b.value) !== 1) unsupported('arithmetic projection', 'a filter other than the one-value check');
          one.add('?' + a.value);
        }
      } else unsupported('arithmetic projection', `a ${p.type} pattern beside the two sides`);
    }
    const side = (x: S.VariableTerm): Form => {
      const s = sides.get('?' + x.value);
      if (!s || !one.has(s.n)) return unsupported('arithmetic projection', 'a side that is not one value (COUNT(DISTINCT) = 1)');
      // the number's BIND reads the value of one variable (valueOf's ?ov): that BIND is the operator's, the rest is the set
      const bind = s.where.find((p): p is S.BindPattern => p.type === 'bind' && '?' + p.variable.value === s.num);
      const read = bind ? varsIn(bind.expression).filter((n) => !NEVER_BOUND.has(n)) : [];
      if (!bind || new Set(read).size !== 1) return unsupported('arithmetic projection', 'a side whose number is not the value of one variable');
      const where = s.where.filter((p) => p !== bind);
      const probe = this.sub();
      probe.patterns(where);
      return this.sub().tree(where, probe.aliasOf('?' + itemAt(read, 0, 'variables read')));
    };
    return { kind: 'arith', op: 'ABSDIFF', args: [side(itemAt(d.args, 0, 'ABS operands')), side(itemAt(d.args, 1, 'ABS operands'))] };
  }

  /** SELECT ((?a / ?b) AS ?r) over two COUNT subqueries → RATIO; a factor 100 → PERCENT. */
  private ratioForm(q: S.SelectQuery): Form | null {
    if (q.variables.length !== 1) return null;
    const v = q.variables[0];
    if (isVar(v) || 'termType' in v) return null;
    const e = v.expression;
    if (!isOp(e, '/', '*', '-', '+', 'abs')) return null;
    if (e.operator !== '/' && e.operator !== '*') unsupported('arithmetic projection', e.operator);
    let hundreds = 0;
    const order: string[] = [];
    const walk = (x: unknown): void => {
      if (isOp(x, '/', '*')) { x.args.forEach(walk); return; }
      if (isTerm(x) && x.termType === 'Literal') {
        if (Number(x.value) === 100) {
          hundreds++;
          return;
        }
        return unsupported('arithmetic projection', x.value);
      }
      const w = this.valueVar(x as S.Expression);
      if (!w) return unsupported('arithmetic projection');
      order.push('?' + w.value);
    };
    walk(e);
    this.patterns(q.where ?? []);
    if (order.length !== 2 || !order.every((n) => this.counts.has(n))) unsupported('arithmetic projection (not a ratio of two counts)');
    const [a, b] = order.map((n) => {
      const c = defined(this.counts.get(n), 'count subquery');
      return this.sub().tree(c.where, c.v);
    }) as [Form, Form];
    return { kind: 'ratio', op: hundreds > 0 ? 'PERCENT' : 'RATIO', args: [a, b] };
  }

  /** SELECT (AVG(?v) AS ?a) … → (AVG x) with x the values ?v takes (also compileForm's own aggregate query). */
  private aggregateForm(q0: S.SelectQuery): Form | null {
    const q = this.counted(q0) ?? q0;
    if (q.variables.length !== 1) return null;
    const v = q.variables[0];
    if (isVar(v) || 'termType' in v) return null;
    const agg = v.expression;
    if (!isAggregate(agg)) return null;
    const op = agg.aggregation.toUpperCase();
    if (op !== 'AVG' && op !== 'SUM' && op !== 'MAX' && op !== 'MIN') return null;
    if (q.group || q.having || q.order || q.limit !== undefined) unsupported('aggregate with GROUP BY / ORDER BY / LIMIT');
    const w = this.valueVar(agg.expression as S.Expression);
    if (!w) unsupported('aggregate of an expression');
    // compileForm's shape: SELECT (AVG(?val) AS ?value) { SELECT … (SAMPLE(?num) AS ?val) { { SELECT DISTINCT [?member] ?x { P } } value of ?x } GROUP BY … }
    const inner = this.wrapped(q);
    if (inner?.group) {
      const sample = inner.variables.find((x) => !isVar(x) && !('termType' in x) && x.variable.value === w.value) as S.VariableExpression | undefined;
      const distinct = (inner.where ?? []).map((p) => (p.type === 'group' && p.patterns.length === 1 ? p.patterns[0] : p)).find((p): p is S.SelectQuery => p?.type === 'query');
      if (sample && distinct?.distinct) {
        const last = distinct.variables.at(-1);
        if (!isVar(last)) unsupported('aggregate subquery shape');
        return { kind: 'aggregate', op, arg: this.tree(distinct.where ?? [], '?' + last.value) };
      }
    }
    return { kind: 'aggregate', op, arg: this.tree(q.where ?? [], '?' + w.value, undefined, true) };
  }

  /**
   * compileForm's AVG / SUM with "no numbers, no answer": SELECT ?a { { SELECT (AVG(?v) AS ?a) (COUNT(?v) AS ?n) … } FILTER(?n > 0) }
   * → the inner aggregate query without its count (the same form: an empty average is no answer either way).
   */
  private counted(q: S.SelectQuery): S.SelectQuery | null {
    const where = q.where ?? [];
    const [sub, test] = where;
    const only = q.variables.length === 1 ? q.variables[0] : undefined;
    if (where.length !== 2 || !isVar(only) || sub?.type !== 'group' || sub.patterns.length !== 1 || test?.type !== 'filter') return null;
    const inner = sub.patterns[0];
    if (inner?.type !== 'query' || inner.variables.length !== 2) return null;
    const [value, count] = inner.variables as S.VariableExpression[];
    if (!value || !count || !isAggregate(count.expression) || count.expression.aggregation.toLowerCase() !== 'count' || value.variable.value !== only.value) return null;
    const e = test.expression as S.OperationExpression;
    const [l, r] = e.args as [unknown, { termType?: string; value?: string } | undefined];
    if (e.operator !== '>' || !isVar(l) || l.value !== count.variable.value || r?.termType !== 'Literal' || r.value !== '0') return null;
    return { ...inner, variables: [value] };
  }

  /** SELECT ?g [(COUNT(?c) AS ?n)] { P } GROUP BY ?g ORDER BY DESC(COUNT(?c)) LIMIT 1 → MOSTCOMMON / ARGMAXCOUNT. */
  private groupOrderForm(q: S.SelectQuery): Form | null {
    if (!q.group) return null;
    if (q.group.length !== 1 || !isVar(q.group[0]?.expression)) unsupported('GROUP BY / HAVING');
    const g = '?' + (itemAt(q.group, 0, 'GROUP BY keys').expression as S.VariableTerm).value;
    if (q.having || q.order?.length !== 1 || q.limit !== 1) unsupported('GROUP BY / HAVING');
    let counted: string | null = null;
    const countOf = (e: unknown): string | null => {
      return isAggregate(e) && e.aggregation.toLowerCase() === 'count' && isVar(e.expression) ? '?' + e.expression.value : null;
    };
    for (const v of q.variables) {
      if (isVar(v)) {
        if ('?' + v.value !== g) unsupported('GROUP BY / HAVING');
        continue;
      }
      const c = countOf((v as S.VariableExpression).expression);
      if (!c) unsupported('GROUP BY / HAVING');
      if (isVar(q.order[0]?.expression) && q.order[0].expression.value === (v as S.VariableExpression).variable.value) counted = c;
    }
    counted ??= countOf(itemAt(q.order, 0, 'ORDER BY keys').expression);
    if (!counted) unsupported('GROUP BY / HAVING');
    return this.groupCountForm({ key: g, counted, where: q.where ?? [] }, itemAt(q.order, 0, 'ORDER BY keys').descending ? 'max' : 'min');
  }

  /** The answer is the key of a group count equal to the MAX/MIN of the counts (the query has nothing else). */
  private groupBestQuery(where: S.Pattern[], root: string): { gc: GroupCount; op: 'max' | 'min' } | null {
    const shape = where.every((p) => p.type === 'filter' || (p.type === 'group' && p.patterns.length === 1 && p.patterns[0]?.type === 'query'));
    if (!shape || !where.some((p) => p.type === 'filter')) return null;
    const probe = this.sub();
    try {
      probe.patterns(where);
      probe.resolveEqualities();
    } catch {
      return null;
    }
    if (!probe.groupBest) return null;
    const gc = defined(probe.groupCounts.get(probe.groupBest.n), 'group count');
    if (gc.key !== root) unsupported('group-count superlative on another variable than the answer');
    return { gc, op: probe.groupBest.op };
  }

  /**
   * A group count as a form: the grouped key is a value of the counted members (MOSTCOMMON x r, x the
   * members' set, r their path to the key) or the counted variable is a value of the key (ARGMAXCOUNT x r).
   */
  groupCountForm(gc: GroupCount, op: 'max' | 'min'): Form {
    let first: unknown;
    for (const side of ['common', 'argcount'] as const) {
      const leaf = side === 'common' ? gc.key : gc.counted;
      const root = side === 'common' ? gc.counted : gc.key;
      const conv = this.sub();
      conv.extraLeaves.add(leaf);
      try {
        const arg = conv.tree(gc.where, root);
        const relation = conv.leafRel.get(leaf);
        if (!relation) unsupported('group count whose key is not a value of the counted variable');
        if (side === 'common') return { kind: 'common', op: op === 'max' ? 'MOSTCOMMON' : 'LEASTCOMMON', arg, relation };
        return { kind: 'argcount', op: op === 'max' ? 'ARGMAXCOUNT' : 'ARGMINCOUNT', arg, relation };
      } catch (e) {
        first ??= e;
      }
    }
    throw first;
  }

  // ---------- form language v3: tables, groups, order, windows, two numbers compared ----------

  /**
   * A grouped sub-select with filters / order / window outside it — `SELECT ?g ?n { { SELECT ?g (COUNT(?f) AS ?n) …
   * GROUP BY ?g } FILTER(?n > 5) } ORDER BY DESC(?n) LIMIT 3` — read as the one grouped query it is (HAVING for the
   * filters on the aggregate's alias).
   */
  private mergeGroupSubselect(q: S.SelectQuery): S.SelectQuery {
    if (q.group || q.having) return q;
    let inner: S.SelectQuery | null = null;
    const filters: S.Expression[] = [];
    for (const p of q.where ?? []) {
      const sq = subqueryOf(p);
      if (sq?.group && !inner) inner = sq;
      else if (p.type === 'filter') filters.push(p.expression);
      else return q;
    }
    if (!inner) return q;
    // an aggregate over the groups (compileForm's AVG over per-value samples) is not this shape
    if (q.variables.some((v) => !isVar(v) && !('termType' in v && (v as { termType: string }).termType === 'Wildcard'))) return q;
    const inn = inner;
    const named = (v: S.Variable): string => (isVar(v) ? v.value : v.variable.value);
    const alias = new Map<string, S.Expression>();
    for (const v of inn.variables) if (!isVar(v) && !('termType' in v)) alias.set(v.variable.value, v.expression);
    const star = q.variables.length === 1 && 'termType' in q.variables[0] && (q.variables[0] as { termType: string }).termType === 'Wildcard';
    const variables = star
      ? inn.variables
      : (q.variables as S.Variable[]).map((v) => {
          if (!isVar(v)) return unsupported('sub-select', 'a computed projection around a grouped sub-select');
          return (inn.variables as S.Variable[]).find((w) => named(w) === v.value) ?? unsupported('sub-select', `?${v.value} is not projected by the grouped sub-select`);
        });
    const subst = (e: S.Expression): S.Expression => {
      if (isVar(e) && alias.has(e.value)) return defined(alias.get(e.value), 'projected expression');
      if (isOp(e)) return { ...e, args: e.args.map((a) => subst(a as S.Expression)) };
      return e;
    };
    if ((q.order || q.limit !== undefined || q.offset) && (inn.order || inn.limit !== undefined || inn.offset)) unsupported('sub-select', 'ORDER BY / LIMIT both inside and outside');
    const having = [...(inn.having ?? []), ...filters.map(subst)];
    const order = q.order ?? inn.order;
    const limit = q.limit ?? inn.limit;
    const offset = q.offset ?? inn.offset;
    return {
      ...inn,
      variables,
      ...(having.length ? { having } : {}),
      ...(order ? { order } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(offset ? { offset } : {}),
    };
  }

  /**
   * [37] Two numbers compared: `ASK { { SELECT (COUNT(?a) AS ?n1) … } { SELECT (COUNT(?b) AS ?n2) … } FILTER(?n1 > ?n2) }`,
   * or the same as `SELECT (IF(?n1 > ?n2, true, false) AS ?r)` / `BIND(IF(…) AS ?r)`; each side any number form
   * (COUNT, AVG/SUM/MAX/MIN, a ratio). Null when the query is not of this shape.
   */
  private moreForm(where: S.Pattern[], test0: S.Expression | null): Form | null {
    const sides = new Map<string, Form>();
    let test = test0;
    for (const p of where) {
      const sq = subqueryOf(p);
      if (sq) {
        const shown = this.counted(sq) ?? sq; // an AVG / SUM side: its count-guarded shape projects the plain variable
        const v = shown.variables[0];
        if (shown.variables.length !== 1 || isVar(v) || 'termType' in v) return null;
        let f: Form;
        try {
          f = this.sub().select(sq);
        } catch {
          return null;
        }
        if (answerTypeOf(f) !== 'number') return null;
        sides.set(v.variable.value, f);
      } else if (p.type === 'filter' && test === null) test = p.expression;
      else return null;
    }
    if (sides.size !== 2 || !test || !isOp(test, '>', '<', '>=', '<=')) return null;
    const [a, b] = test.args;
    if (!isVar(a) || !isVar(b)) return null;
    const fa = sides.get(a.value);
    const fb = sides.get(b.value);
    if (!fa || !fb) return null;
    if (test.operator === '>=' || test.operator === '<=') unsupported('comparison of two numbers with >= / <=');
    return { kind: 'more', op: test.operator === '>' ? 'MORE' : 'LESS', args: [fa, fb] };
  }

  /** SELECT (IF(?a > ?b, true, false) AS ?r) { two number sub-selects } — or BIND(IF(…) AS ?r) and SELECT ?r. */
  private moreSelect(q: S.SelectQuery): Form | null {
    if (q.variables.length !== 1 || q.group || q.order) return null;
    const v = q.variables[0];
    const unIf = (e: unknown): S.Expression | null => {
      if (isOp(e, 'if') && e.args.length === 3) {
        const [c, t, f] = e.args;
        if (isTerm(t) && isTerm(f) && t.termType === 'Literal' && f.termType === 'Literal' && t.value === 'true' && f.value === 'false') return c as S.Expression;
        return null;
      }
      return isOp(e, '>', '<', '>=', '<=') ? e : null;
    };
    let where = q.where ?? [];
    let test: S.Expression | null = null;
    if (isVar(v)) {
      const bind = where.find((p): p is S.BindPattern => p.type === 'bind' && p.variable.value === v.value);
      if (!bind) return null;
      test = unIf(bind.expression);
      where = where.filter((p) => p !== bind);
    } else if (!('termType' in v)) test = unIf(v.expression);
    if (!test) return null;
    return this.moreForm(where, test);
  }

  /** GROUP BY … ORDER BY … LIMIT 1 projecting only the key: a group-count superlative (MOSTCOMMON / ARGMAXCOUNT, ties kept). */
  private isGroupSuperlative(q: S.SelectQuery): boolean {
    return q.limit === 1 && !q.having && !q.offset && q.variables.length === 1 && isVar(q.variables[0]);
  }

  /** Several projected variables, an OFFSET, or an ORDER BY without LIMIT 1: a table ([31], [34], [35]). */
  private isTableQuery(q: S.SelectQuery): boolean {
    return q.variables.length > 1 || !!q.offset || (!!q.order && q.order.length > 0 && q.limit !== 1);
  }

  /** A member set with given leaves reached from it (their relations in the same order), trying each variable as the member. */
  private memberWithLeaves(where: S.Pattern[], leaves: string[]): { arg: Form; rels: Relation[] } {
    const probe = this.sub();
    probe.patterns(where);
    probe.resolveTriples();
    const candidates = [...new Set(probe.edges.flatMap((e) => [e.s, e.o]))].filter((v) => v.startsWith('?') && !leaves.includes(v));
    let first: unknown;
    for (const root of candidates) {
      const conv = this.sub();
      for (const l of leaves) conv.extraLeaves.add(l);
      try {
        const arg = conv.tree(where, root);
        const rels = leaves.map((l) => (conv.leafAt.get(l) === root ? conv.leafRel.get(l) : undefined));
        if (rels.every((r) => r !== undefined)) return { arg, rels };
        first ??= new AskgraphError('CONVERSION_UNSUPPORTED', 'values of different members', { details: { reason: 'group key and value are not values of one member' } });
      } catch (e) {
        first ??= e;
      }
    }
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows, unchanged, the first error a candidate member threw (a catch clause holds it as unknown)
    throw first ?? new AskgraphError('CONVERSION_UNSUPPORTED', 'no member variable', { details: { reason: 'no member variable' } });
  }

  /** [32]–[35] GROUP BY ?g with one aggregate (projected, or in HAVING / ORDER BY), HAVING, ORDER BY it, LIMIT / OFFSET. */
  private groupTableForm(q: S.SelectQuery): Form {
    const grouping = q.group ?? [];
    if (grouping.length !== 1 || !isVar(grouping[0]?.expression)) unsupported('GROUP BY several keys or an expression');
    const g = '?' + (itemAt(grouping, 0, 'GROUP BY keys').expression as S.VariableTerm).value;
    if (q.values && q.values.length > 0) unsupported('trailing VALUES');
    let agg: S.AggregateExpression | null = null;
    let alias: string | null = null;
    for (const v of q.variables) {
      if (isVar(v)) {
        if ('?' + v.value !== g) unsupported('a projected variable that is not the group key', v.value);
        continue;
      }
      if ('termType' in v) unsupported('SELECT * with GROUP BY');
      const ve = v;
      if (!isAggregate(ve.expression)) unsupported('a projected expression that is not an aggregate');
      if (agg) unsupported('several aggregates per group');
      agg = ve.expression;
      alias = ve.variable.value;
    }
    const findAgg = (e: unknown): S.AggregateExpression | null => (isAggregate(e) ? e : isOp(e) ? (e.args.map(findAgg).find((x) => x !== null) ?? null) : null);
    for (const e of [...(q.having ?? []), ...(q.order ?? []).map((o) => o.expression)]) agg ??= findAgg(e);
    if (!agg) unsupported('GROUP BY without an aggregate');
    const theAgg = agg;
    const aggOp = theAgg.aggregation.toUpperCase();
    const groupOp = GROUP_OP[aggOp];
    if (!groupOp) unsupported('aggregate', aggOp);
    // the aggregated value through the query's BIND / label lookups (compileForm reads values that way)
    const probe = this.sub();
    for (const p of q.where ?? []) if (p.type === 'bind' || p.type === 'optional') try { probe.patterns([p]); } catch { /* not a value alias */ }
    const w = probe.valueVar(theAgg.expression as S.Expression);
    if (!w) unsupported('aggregate of an expression or of *');
    const counted = '?' + w.value;
    let form: Form;
    if (groupOp === 'GROUPCOUNT') {
      const conv = this.sub();
      conv.extraLeaves.add(g);
      const arg = conv.tree(q.where ?? [], counted);
      const by = conv.leafAt.get(g) === counted ? conv.leafRel.get(g) : undefined;
      if (!by) unsupported('group key that is not a value of the counted variable');
      form = { kind: 'group', op: groupOp, arg, by };
    } else {
      const { arg, rels } = this.memberWithLeaves(q.where ?? [], [g, counted]);
      form = { kind: 'group', op: groupOp, arg, by: itemAt(rels, 0, 'group relations'), value: itemAt(rels, 1, 'group relations') };
    }
    const sameAgg = (e: unknown): boolean => {
      if (isVar(e) && alias !== null) return e.value === alias;
      if (!isAggregate(e) || e.aggregation.toUpperCase() !== aggOp) return false;
      const x = probe.valueVar(e.expression as S.Expression);
      return x !== null && '?' + x.value === counted;
    };
    for (const h of q.having ?? []) form = this.havingOf(form, h, sameAgg);
    if (q.order && q.order.length > 0) {
      if (!sameAgg(itemAt(q.order, 0, 'ORDER BY keys').expression)) unsupported('ORDER BY something other than the group aggregate');
      form = { kind: 'order', op: itemAt(q.order, 0, 'ORDER BY keys').descending ? 'DESC' : 'ASC', arg: form };
    }
    return this.windowOf(form, q);
  }

  /** HAVING (agg op literal) (and &&-conjunctions; `=` as GE and LE) → [33]. */
  private havingOf(form: Form, h: S.Expression, sameAgg: (e: unknown) => boolean): Form {
    if (isOp(h, '&&')) return h.args.reduce<Form>((f, a) => this.havingOf(f, a as S.Expression, sameAgg), form);
    if (!isOp(h, '<', '>', '<=', '>=', '=') || h.args.length !== 2) return unsupported('HAVING expression');
    let [a, b] = h.args;
    let sym = h.operator;
    if (isTerm(a) && a.termType === 'Literal') {
      [a, b] = [b, a];
      sym = FLIP[sym] ?? sym;
    }
    if (!sameAgg(a) || !isTerm(b) || b.termType !== 'Literal') return unsupported('HAVING on something other than the group aggregate and a constant');
    const value = this.literal(b);
    if (sym === '=') return { kind: 'having', op: 'LE', value, arg: { kind: 'having', op: 'GE', value, arg: form } };
    return { kind: 'having', op: defined(CMP_OP[sym], 'comparison operator'), value, arg: form };
  }

  /** LIMIT / OFFSET of an ordered form ([35]); a window without ORDER BY is refused (its rows would be arbitrary). */
  private windowOf(form: Form, q: S.SelectQuery): Form {
    if (q.limit === undefined && !q.offset) return form;
    if (form.kind !== 'order') unsupported('LIMIT / OFFSET without ORDER BY');
    let f: Form = form;
    if (q.offset) f = { kind: 'slice', op: 'OFFSET', n: q.offset, arg: f };
    if (q.limit !== undefined) f = { kind: 'slice', op: 'LIMIT', n: q.limit, arg: f };
    return f;
  }

  /**
   * [31] / [34] / [35] Several projected variables (OPTIONAL ones give empty cells), and ORDER BY … LIMIT k / OFFSET n:
   * the first projected variable is the row (or its label), each other one a value of it (or `?a - ?b`: a MINUS column).
   */
  private tableForm(q: S.SelectQuery): Form {
    if (q.values && q.values.length > 0) unsupported('trailing VALUES');
    const cols: { name: string; minus?: [string, string] }[] = [];
    for (const v of q.variables) {
      if (isVar(v)) {
        cols.push({ name: '?' + v.value });
        continue;
      }
      if ('termType' in v) unsupported('SELECT *');
      const e = v.expression;
      if (isVar(e)) {
        cols.push({ name: '?' + e.value });
        continue;
      }
      if (isOp(e, '-') && e.args.length === 2) {
        const a = this.valueVar(e.args[0] as S.Expression);
        const b = this.valueVar(e.args[1] as S.Expression);
        if (a && b) {
          cols.push({ name: '?' + v.variable.value, minus: ['?' + a.value, '?' + b.value] });
          continue;
        }
      }
      unsupported('a projected expression in a table');
    }
    // OPTIONAL groups (other than a label lookup of an unprojected value) join the pattern; the variables they bind
    // are optional columns. Inside them, a label lookup or a BIND of a value is an alias (compileForm's sort key), a
    // BIND(?a - ?b) a MINUS column.
    const projected = new Set(cols.map((c) => c.name));
    const where: S.Pattern[] = [];
    const optional = new Set<string>();
    const isLookup = (p: S.OptionalPattern): boolean => {
      const bgps = p.patterns.filter((x): x is S.BgpPattern => x.type === 'bgp');
      const t = bgps[0]?.triples[0];
      const pred = t?.predicate as S.Term | undefined;
      return bgps.length === 1 && bgps[0]?.triples.length === 1 && p.patterns.every((x) => x.type === 'bgp' || x.type === 'values') && !!t && isVar(t.object) && !projected.has('?' + t.object.value) && !!pred && 'termType' in pred && (pred.termType === 'Variable' || this.labelPreds.has(pred.value));
    };
    const flatOptional = (ps: S.Pattern[]): S.Triple[] =>
      ps.flatMap((x): S.Triple[] => {
        if (x.type === 'bgp') return x.triples;
        if (x.type === 'group') return flatOptional(x.patterns);
        if (x.type === 'optional' && isLookup(x)) {
          this.optional(x);
          return [];
        }
        if (x.type === 'optional') return flatOptional(x.patterns);
        if (x.type === 'bind') {
          const e = x.expression;
          const name = '?' + x.variable.value;
          const c = cols.find((col) => col.name === name);
          if (c && isOp(e, '-') && e.args.length === 2) {
            // compileForm's MINUS column reads each side as COALESCE(number, YEAR(date)): the year is the date's value
            const unYear = (y: unknown): unknown => (isOp(y, 'year') && y.args.length === 1 ? y.args[0] : isOp(y) ? { ...y, args: y.args.map(unYear) } : y);
            const a = this.valueVar(unYear(e.args[0]) as S.Expression);
            const b = this.valueVar(unYear(e.args[1]) as S.Expression);
            if (a && b) c.minus = ['?' + a.value, '?' + b.value];
            else unsupported('a projected expression in a table');
            return [];
          }
          this.bind(x);
          return [];
        }
        return unsupported('OPTIONAL', `a ${x.type} inside`);
      });
    for (const p of q.where ?? []) {
      if (p.type !== 'optional' || isLookup(p)) {
        where.push(p);
        continue;
      }
      const triples = flatOptional(p.patterns);
      for (const t of triples) for (const x of [t.subject, t.object]) if (isVar(x)) optional.add('?' + x.value);
      where.push({ type: 'bgp', triples });
    }
    const resolve = (n: string): string => this.aliasOf(n);
    for (const c of cols) if (c.minus) c.minus = [resolve(c.minus[0]), resolve(c.minus[1])];
    const first = itemAt(cols, 0, 'table columns');
    if (first.minus) unsupported('a computed first column');
    // the row: the first variable, or the entity it is the label of
    let root = first.name;
    const labelLeaves: string[] = [];
    for (const p of where) {
      if (p.type !== 'bgp') continue;
      for (const t of p.triples) {
        const pred = t.predicate as S.Term;
        if ('termType' in pred && pred.termType === 'NamedNode' && this.labelPreds.has(pred.value) && isVar(t.object) && '?' + t.object.value === first.name && isVar(t.subject)) {
          root = '?' + t.subject.value;
          labelLeaves.push(first.name);
        }
      }
    }
    let orderVar: string | null = null;
    if (q.order && q.order.length > 0) {
      // the sort key through the top-level BIND / label lookups (compileForm's) and the OPTIONALs' aliases
      const probe = this.sub();
      for (const p of where) if (p.type === 'bind' || p.type === 'optional') try { probe.patterns([p]); } catch { /* not a value alias */ }
      const v = probe.valueVar(itemAt(q.order, 0, 'ORDER BY keys').expression);
      if (!v) unsupported('ORDER BY on an expression');
      orderVar = resolve('?' + v.value);
    } else if (q.limit !== undefined || q.offset) unsupported('LIMIT / OFFSET without ORDER BY');
    const byRow = orderVar !== null && (orderVar === root || orderVar === first.name);
    const leaves = new Set<string>(labelLeaves);
    for (const c of cols.slice(1)) for (const n of c.minus ?? [c.name]) leaves.add(n);
    if (orderVar && !byRow && !cols.some((c) => c.name === orderVar)) leaves.add(orderVar);
    const conv = this.sub();
    for (const l of leaves) conv.extraLeaves.add(l);
    let arg = conv.tree(where, root);
    const relOf = (n: string): Relation => (conv.leafAt.get(n) === root ? conv.leafRel.get(n) : undefined) ?? unsupported('a projected variable that is not a value of the row', n);
    const required: Relation[] = [];
    const columns: { name: string; column: Column }[] = [];
    for (const c of cols.slice(1)) {
      if (c.minus) {
        const [ra, rb] = [relOf(c.minus[0]), relOf(c.minus[1])];
        columns.push({ name: c.name, column: { kind: 'minus', args: [ra, rb] } });
        for (const [n, r] of [[c.minus[0], ra], [c.minus[1], rb]] as const) if (!optional.has(n)) required.push(r);
      } else {
        const r = relOf(c.name);
        columns.push({ name: c.name, column: r });
        if (!optional.has(c.name)) required.push(r);
      }
    }
    const dir = q.order?.[0]?.descending ? 'DESC' : 'ASC';
    let form: Form;
    if (orderVar === null) {
      if (columns.length === 0) unsupported('a table without columns');
      form = { kind: 'table', arg: this.withHas(arg, required), columns: columns.map((c) => c.column) };
    } else if (byRow) {
      if (columns.length > 0) unsupported('ORDER BY the row itself in a table with columns');
      form = { kind: 'order', op: dir, arg };
    } else {
      const at = columns.findIndex((c) => c.name === orderVar);
      const key: Relation | Column = at >= 0 ? itemAt(columns, at, 'table columns').column : relOf(orderVar);
      const rest = columns.filter((_, i) => i !== at);
      if (rest.length === 0 && key.kind !== 'minus' && !optional.has(orderVar)) form = { kind: 'order', op: dir, arg, relation: key };
      else {
        if (at < 0 && !optional.has(orderVar) && key.kind !== 'minus') required.push(key);
        arg = this.withHas(arg, required);
        form = { kind: 'order', op: dir, arg: { kind: 'table', arg, columns: [...rest.map((c) => c.column), key] } };
      }
    }
    return this.windowOf(form, q);
  }

  /** The set restricted to members with each of the relations (a required, not OPTIONAL, column): (AND x (HAS r)). */
  private withHas(arg: Form, rels: Relation[]): Form {
    const seen = new Set<string>();
    let out = arg;
    for (const r of rels) {
      const k = printRelation(r);
      if (seen.has(k)) continue;
      seen.add(k);
      out = { kind: 'and', args: [out, { kind: 'has', relation: r }] };
    }
    return out;
  }

  // ---------- query shape ----------

  private wrapped(q: S.SelectQuery): S.SelectQuery | null {
    const where = q.where ?? [];
    let only: S.Pattern | undefined = where.length === 1 ? where[0] : undefined;
    if (only?.type === 'group' && only.patterns.length === 1) only = only.patterns[0];
    if (only?.type === 'query') return only;
    return null;
  }

  private projection(q: S.SelectQuery): { v: string; count: boolean } {
    const vars = q.variables;
    if (vars.length !== 1) unsupported('not exactly one projected variable', `${vars.length}`);
    const v = vars[0];
    if (isVar(v)) return { v: v.value, count: false };
    if ('termType' in v) unsupported('SELECT *');
    const e = v.expression;
    if (isVar(e)) return { v: e.value, count: false };
    if (isAggregate(e)) {
      const agg = e;
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
          if (p.patterns.length === 1 && p.patterns[0]?.type === 'query') this.subquery(p.patterns[0]);
          else this.patterns(p.patterns);
          break;
        case 'query':
          this.subquery(p);
          break;
        case 'values':
          this.values(p);
          break;
        case 'filter':
          this.filter(p.expression);
          break;
        case 'union':
          this.unions.push(p.patterns.map((b) => (b.type === 'group' ? b.patterns : [b])));
          break;
        case 'minus':
          this.negations.push(p.patterns);
          break;
        case 'optional':
          this.optional(p);
          break;
        case 'bind':
          this.bind(p);
          break;
        default:
          unsupported(`${p.type.toUpperCase()} pattern`);
      }
    }
  }

  /** compileForm's value of an object: OPTIONAL { ?o label ?ol } (with VALUES ?p for several label predicates). */
  private optional(p: S.OptionalPattern): void {
    const triples = p.patterns.filter((x): x is S.BgpPattern => x.type === 'bgp').flatMap((x) => x.triples);
    const others = p.patterns.filter((x) => x.type !== 'bgp');
    const t = triples[0];
    const pred = t?.predicate;
    const labelPred =
      pred && 'termType' in pred && ((pred.termType === 'NamedNode' && this.labelPreds.has(pred.value)) || (pred.termType === 'Variable' && others.length === 1 && others[0]?.type === 'values'));
    if (triples.length !== 1 || !labelPred || !isVar(t.subject) || !isVar(t.object) || others.some((x) => x.type !== 'values')) unsupported('OPTIONAL');
    this.optLabels.set(key(t.object), key(t.subject));
  }

  /** BIND(f(?o) AS ?v) where f keeps the value of ?o (COALESCE of its label, casts): ?v stands for ?o. */
  private bind(p: S.BindPattern): void {
    const v = this.valueVar(p.expression);
    if (!v) unsupported('BIND of an expression');
    this.valueAlias.set('?' + p.variable.value, this.aliasOf('?' + v.value));
  }

  private aliasOf(name: string): string {
    let cur = name;
    for (let i = 0; i < 16; i++) {
      const next = this.valueAlias.get(cur) ?? this.optLabels.get(cur);
      if (!next) break;
      cur = next;
    }
    return cur;
  }

  /**
   * Subqueries: { SELECT (MAX(e) AS ?best) … } (GrailQA's ARGMAX / ARGMIN; its pattern restates the outer
   * one), { SELECT ?g (COUNT(?c) AS ?n) … GROUP BY ?g } (a group count) and { SELECT (COUNT(?c) AS ?n) … }.
   */
  private subquery(q: S.SelectQuery): void {
    // a plain projection (SELECT [DISTINCT] ?a ?b { … }: no aggregate, group or window) is its patterns
    if (q.variables.length > 0 && q.variables.every((v) => isVar(v)) && !q.group && !q.having && !q.order && q.limit === undefined && !q.offset) {
      this.patterns(q.where ?? []);
      return;
    }
    const exprs = q.variables.filter((v) => !isVar(v) && !('termType' in v)) as S.VariableExpression[];
    const plain = q.variables.filter(isVar);
    const agg = exprs.length === 1 && isAggregate(exprs[0]?.expression) ? exprs[0].expression : null;
    const kind = agg?.aggregation.toLowerCase();
    const out = exprs[0] ? '?' + exprs[0].variable.value : '';
    if (agg && kind === 'count' && isVar(agg.expression)) {
      if (q.group?.length === 1 && plain.length === 1 && isVar(q.group[0]?.expression) && q.group[0].expression.value === plain[0]?.value) {
        this.groupCounts.set(out, { key: '?' + itemAt(plain, 0, 'projected variables').value, counted: '?' + agg.expression.value, where: q.where ?? [] });
        return;
      }
      if (!q.group && plain.length === 0) {
        this.counts.set(out, { v: '?' + agg.expression.value, where: q.where ?? [] });
        return;
      }
    }
    if (!agg || plain.length > 0 || q.group || (kind !== 'max' && kind !== 'min')) unsupported('subquery other than a MAX/MIN aggregate or a count');
    this.best.set(out, kind === 'max' ? 'ARGMAX' : 'ARGMIN');
  }

  private values(p: S.ValuesPattern): void {
    const vars = new Set(p.values.flatMap((row) => Object.keys(row)));
    if (vars.size !== 1) unsupported('VALUES over several variables');
    const name = itemAt([...vars], 0, 'VALUES variables');
    const cells = p.values.map((row) => row[name as `?${string}`]);
    if (cells.some((c) => c === undefined)) unsupported('VALUES with UNDEF');
    const terms = cells as S.Term[];
    if (terms.every((t) => t.termType === 'Literal') && terms.length > 1 && new Set(terms.map((t) => t.value)).size === 1) {
      this.literalSets.set(name, terms);
      return;
    }
    if (terms.length > 1 && terms.every((t) => t.termType === 'NamedNode' && this.labelPreds.has(t.value))) {
      this.predicateSets.set(name, terms.map((t) => t.value));
      return;
    }
    if (terms.every((t) => t.termType === 'NamedNode' || t.termType === 'Literal')) {
      for (const t of terms) this.terms.set(key(t), t);
      this.entityParts.set(name, [...(this.entityParts.get(name) ?? []), terms.map((t) => key(t as NodeTerm))]);
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
        sym = defined(FLIP[sym], 'flipped comparison');
      }
      const v = this.valueVar(a);
      if (!v) unsupported('comparison of an expression', e.operator);
      if (!isTerm(b) || b.termType !== 'Literal') {
        const w = this.valueVar(b);
        if (!w) unsupported('comparison of two variables');
        this.varCompares.push({ a: '?' + v.value, b: '?' + w.value, sym });
        return;
      }
      const list = this.compares.get('?' + v.value) ?? [];
      list.push({ op: defined(CMP_OP[sym], 'comparison operator'), value: dateOnly(this.literal(b)) });
      this.compares.set('?' + v.value, list);
      return;
    }
    if (isOp(e, '=') && e.args.length === 2) {
      this.equalities.push(e.args as [S.Expression, S.Expression]);
      return;
    }
    if (isOp(e, 'notexists')) {
      this.negations.push((e.args as S.Pattern[]).flatMap((p) => (p.type === 'group' ? p.patterns : [p])));
      return;
    }
    if (isOp(e, 'regex', 'contains')) {
      // [38] "whose name contains …": CONTAINS(LCASE(STR(?l)), "t"), regex(str(?l), "t", "i") — a plain text only
      const [hay, needle] = e.args;
      let h: unknown = hay;
      while (isOp(h, 'lcase', 'ucase', 'str') && h.args.length === 1) h = h.args[0];
      if (!isVar(h) || !isTerm(needle) || needle.termType !== 'Literal') unsupported('string matching filter', e.operator);
      const text = e.operator.toLowerCase() === 'regex' ? plainTextOfRegex(needle.value) : needle.value;
      if (text === null || text === '') unsupported('string matching filter', 'a regular expression that is not a plain text');
      // the form writes the text as a span of the question ([ … ], trimmed): a text with spaces at its ends cannot be said
      if (text.trim() !== text) unsupported('string matching filter', 'a text with spaces at its start or end');
      const name = this.aliasOf('?' + h.value);
      this.texts.set(name, [...(this.texts.get(name) ?? []), text]);
      return;
    }
    if (isOp(e, 'strstarts', 'strends')) unsupported('string matching filter', e.operator);
    if (isOp(e, 'exists')) unsupported('EXISTS / NOT EXISTS filter');
    if (isOp(e, '-', '+', '*', '/')) unsupported('arithmetic filter');
    return unsupported('FILTER expression', isOp(e) ? e.operator : 'other');
  }

  /**
   * FILTER(value(?v) = ?best) with ?best a MAX/MIN: ?v is that ARGMAX/ARGMIN's value; FILTER(?n = ?m) with
   * ?n a group count and ?m the MAX/MIN of the counts: a group-count superlative. Anything else is refused.
   */
  private resolveEqualities(): void {
    for (const [a, b] of this.equalities) {
      const va = this.valueVar(a);
      const vb = this.valueVar(b);
      if (!va || !vb) unsupported('equality filter (language-agnostic or computed value match)');
      const [na, nb] = ['?' + va.value, '?' + vb.value];
      const bestSide = this.best.has(na) ? na : this.best.has(nb) ? nb : null;
      const other = bestSide === na ? nb : na;
      if (bestSide && this.groupCounts.has(other)) {
        if (this.groupBest) unsupported('two group-count superlatives');
        this.groupBest = { n: other, op: this.best.get(bestSide) === 'ARGMAX' ? 'max' : 'min' };
        this.best.delete(bestSide);
        continue;
      }
      if (!bestSide || this.best.has(other)) unsupported('equality filter (language-agnostic or computed value match)');
      const target = this.aliasOf(other);
      if (this.best.has(target)) unsupported('two ARGMAX / ARGMIN on one value');
      this.best.set(target, defined(this.best.get(bestSide), 'superlative'));
      this.best.delete(bestSide);
    }
    this.equalities = [];
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
    const missing = pathOf(a.args as S.Pattern[]);
    const present = pathOf(b.args as S.Pattern[]);
    if (!missing || !present || missing.rest.length > 0) return false;
    // compileForm reads the bound's value through its label (OPTIONAL + BIND) before the date filter
    try {
      for (const p of present.rest) {
        if (p.type === 'optional') this.optional(p);
        else if (p.type === 'bind') this.bind(p);
      }
    } catch {
      return false;
    }
    present.rest = present.rest.filter((p) => p.type !== 'optional' && p.type !== 'bind');
    if (present.rest.length !== 1) return false;
    if (missing.node !== present.node || missing.preds.join(' ') !== present.preds.join(' ')) return false;
    const f = itemAt(present.rest, 0, 'remaining patterns');
    if (f.type !== 'filter' || !isOp(f.expression, '<=', '>=')) return false;
    const [l, r] = f.expression.args as [S.Expression, S.Expression];
    const v = this.valueVar(l);
    if (!v || '?' + v.value !== present.end || !isTerm(r) || r.termType !== 'Literal') return false;
    const list = this.bounds.get(missing.node) ?? [];
    list.push({ rel: present.preds, cmp: f.expression.operator as '<=' | '>=', at: dateOnly(this.literal(r)) });
    this.bounds.set(missing.node, list);
    return true;
  }

  /**
   * The variable whose value an expression is: ?v, a cast of ?v (xsd:integer(?v)), compileForm's value
   * expressions (COALESCE of ?v's label and ?v, dateValue, numValue, sortKey — REGEX-guarded casts of STR(?v))
   * — through BIND / OPTIONAL-label aliases. Null for anything else (arithmetic, other functions, two variables).
   */
  private valueVar(e: S.Expression): S.VariableTerm | null {
    const vars = new Set<string>();
    const ok = (x: unknown): boolean => {
      if (isVar(x)) {
        if (!NEVER_BOUND.has(x.value)) vars.add(this.aliasOf('?' + x.value));
        return true;
      }
      if (isTerm(x)) return x.termType === 'Literal';
      if (typeof x !== 'object' || x === null) return false;
      const fc = x as S.FunctionCallExpression;
      if ('type' in x && x.type === 'functionCall') {
        const fn = fc.function;
        return typeof fn === 'object' && fn.value.toLowerCase().startsWith(XSD.toLowerCase()) && fc.args.every(ok);
      }
      if (isOp(x)) return VALUE_OPS.has(x.operator.toLowerCase()) && x.args.every(ok);
      return false;
    };
    if (!ok(e) || vars.size !== 1) return null;
    return { termType: 'Variable', value: itemAt([...vars], 0, 'variables read').slice(1) } as S.VariableTerm;
  }

  private literal(t: S.LiteralTerm): Literal {
    if (t.language) return { kind: 'literal', value: t.value, datatype: RDF_LANG_STRING, lang: t.language };
    return { kind: 'literal', value: t.value, datatype: t.datatype.value };
  }

  // ---------- the graph ----------

  private canon(k: string): string {
    return this.alias.get(k) ?? k;
  }

  /** A predicate with a sequence / inverse property path of IRIs becomes a chain of triples. */
  private expand(t: S.Triple): S.Triple[] {
    const pred = t.predicate as S.PropertyPath | S.Term;
    if ('termType' in pred) return [t];
    if (pred.pathType === '^' && pred.items.length === 1) return this.expand({ subject: t.object as S.Triple['subject'], predicate: pred.items[0] as S.Triple['predicate'], object: t.subject });
    if (pred.pathType === '/') {
      const out: S.Triple[] = [];
      let s: NodeTerm = t.subject;
      pred.items.forEach((item, i) => {
        const o: NodeTerm = i === pred.items.length - 1 ? t.object : ({ termType: 'Variable', value: `__path${this.counter++}` } as S.VariableTerm);
        out.push(...this.expand({ subject: s as S.Triple['subject'], predicate: item, object: o }));
        s = o;
      });
      return out;
    }
    return unsupported('property path', pred.pathType);
  }

  private resolveTriples(): void {
    const all = this.pendingTriples.flatMap((t) => this.expand(t));
    this.pendingTriples = [];
    for (const t of all) {
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

  /** Aggregates over a label (?e r/rdfs:label ?l, AVG(?l)) range over the values of ?e: the root moves to ?e. */
  private unlabelRoot(root: string): string {
    const es = this.degree(root);
    if (es.length !== 1 || es[0]?.o !== root || !this.labelPreds.has(itemAt(es, 0, 'label edges').p) || this.compares.has(root) || this.classes.has(root)) return root;
    this.edges = this.edges.filter((e) => e !== es[0]);
    return itemAt(es, 0, 'label edges').s;
  }

  /** Variables of a group (triples, VALUES, BIND, nested groups) — to find where a UNION / NOT EXISTS attaches. */
  private varsOf(ps: S.Pattern[]): Set<string> {
    const out = new Set<string>();
    const walk = (list: S.Pattern[]): void => {
      for (const p of list) {
        if (p.type === 'bgp') {
          for (const t of p.triples) for (const x of [t.subject, t.object]) if (x.termType === 'Variable') out.add(this.canon('?' + x.value));
        } else if (p.type === 'values') for (const row of p.values) for (const k of Object.keys(row)) out.add(k);
        else if (p.type === 'group' || p.type === 'union' || p.type === 'optional' || p.type === 'minus') walk(p.patterns);
        else if (p.type === 'bind') out.add('?' + p.variable.value);
      }
    };
    walk(ps);
    return out;
  }

  /** The one variable a group shares with the rest of the query (its anchor), or a refusal. */
  private anchorOf(groups: S.Pattern[][], what: string): string {
    const outer = new Set<string>([this.root, ...this.edges.flatMap((e) => [e.s, e.o]), ...this.classes.keys(), ...this.labels.keys(), ...this.entityParts.keys()]);
    const sets = groups.map((g) => this.varsOf(g));
    const shared = [...itemAt(sets, 0, 'group variables')].filter((v) => outer.has(v) && sets.every((s) => s.has(v)));
    if (shared.length !== 1) unsupported(`${what} that does not share exactly one variable with the query`, shared.join(' '));
    return itemAt(shared, 0, 'shared variables');
  }

  /** UNION branches → OR of their forms on the shared variable; NOT EXISTS / MINUS → DIFF. */
  private resolveDeferred(): void {
    for (const branches of this.unions) {
      const anchor = this.anchorOf(branches, 'UNION');
      const forms = branches.map((b) => this.sub().tree(b, anchor));
      const or = forms.reduceRight((acc, f) => ({ kind: 'or', args: [f, acc] }));
      this.extraParts.set(anchor, [...(this.extraParts.get(anchor) ?? []), or]);
    }
    for (const group of this.negations) {
      if (this.superlativeByNegation(group)) continue;
      const anchor = this.anchorOf([group], 'NOT EXISTS / MINUS');
      const form = this.sub().tree(group, anchor);
      this.diffs.set(anchor, [...(this.diffs.get(anchor) ?? []), form]);
    }
  }

  /**
   * The negation idiom of a superlative: `?r … r ?x . FILTER NOT EXISTS { ?s … r ?y FILTER(?y > ?x) }` — no
   * other member has a larger value — is ARGMAX on ?x (`<`: ARGMIN). Like GrailQA's MAX subquery, the inner
   * pattern is taken to restate the outer set. True when the group was read this way.
   */
  private superlativeByNegation(group: S.Pattern[]): boolean {
    const probe = this.sub();
    try {
      probe.patterns(group);
    } catch {
      return false;
    }
    if (probe.varCompares.length !== 1) return false;
    const outer = new Set(this.edges.flatMap((e) => [e.s, e.o]));
    const { a, b, sym } = itemAt(probe.varCompares, 0, 'variable comparisons');
    const [mine, , op] = outer.has(this.aliasOf(b)) && !outer.has(a) ? [this.aliasOf(b), a, sym] : outer.has(this.aliasOf(a)) && !outer.has(b) ? [this.aliasOf(a), b, defined(FLIP[sym], 'flipped comparison')] : [null, null, null];
    if (!mine || (op !== '>' && op !== '<')) return false;
    if (this.best.has(mine)) unsupported('two ARGMAX / ARGMIN on one value');
    this.best.set(mine, op === '>' ? 'ARGMAX' : 'ARGMIN');
    return true;
  }

  private degree(node: string): Edge[] {
    return this.edges.filter((e) => e.s === node || e.o === node);
  }

  private constrained(node: string): boolean {
    return this.classes.has(node) || this.labels.has(node) || this.bounds.has(node) || this.entityParts.has(node) || this.extraParts.has(node) || this.diffs.has(node);
  }

  /** A variable whose only role is to carry a value (compared, ordered, or MAX/MIN-aggregated). */
  private isValueLeaf(node: string): boolean {
    return node.startsWith('?') && (this.compares.has(node) || this.best.has(node) || this.extraLeaves.has(node) || this.texts.has(node)) && this.degree(node).length === 1 && !this.constrained(node);
  }

  private isPassThrough(node: string): boolean {
    return node.startsWith('?') && node !== this.root && this.degree(node).length === 2 && !this.constrained(node) && !this.compares.has(node) && !this.best.has(node) && !this.extraLeaves.has(node) && !this.texts.has(node);
  }

  /** A variable that only says "some value exists" (one edge, no constraint): (HAS r) on its node. */
  private isExistenceLeaf(node: string): boolean {
    return node.startsWith('?') && node !== this.root && this.degree(node).length === 1 && !this.constrained(node) && !this.compares.has(node) && !this.best.has(node) && !this.extraLeaves.has(node) && !this.texts.has(node);
  }

  /** From node across e, through pass-through variables, to a value leaf: the relation path, or null. */
  private walkToLeaf(node: string, e: Edge, isLeaf: (n: string) => boolean = (n) => this.isValueLeaf(n)): { leaf: string; rel: Relation; edges: Edge[] } | null {
    let cur = node;
    let edge = e;
    const steps: Relation[] = [];
    const edges: Edge[] = [];
    for (let i = 0; i < 32; i++) {
      const forward = edge.s === cur;
      const next = forward ? edge.o : edge.s;
      steps.push(forward ? this.rel(edge.p) : { kind: 'reverse', of: this.rel(edge.p) });
      edges.push(edge);
      if (next === node || edge.used) return null;
      if (isLeaf(next)) return { leaf: next, rel: this.chainOf(steps), edges };
      if (!this.isPassThrough(next)) return null;
      const prev = edge;
      edge = defined(this.degree(next).find((x) => x !== prev), 'next edge');
      cur = next;
    }
    return null;
  }

  private rel(iri: string): Relation {
    const named = this.names.get(iri);
    if (named !== undefined) return { kind: 'rel', ref: { kind: 'name', name: named } };
    if (this.labelPreds.has(iri)) return { kind: 'rel', ref: { kind: 'iri', iri } };
    return { kind: 'rel', ref: this.ref(iri, this.vocab, (rest) => NAME.test(rest) && !KEYWORDS.has(rest)) };
  }

  private ref(iri: string, ns: string | undefined, ok: (rest: string) => boolean): Ref {
    const rest = nameInNamespace(iri, ns);
    if (rest !== undefined && ns !== undefined && encodeURIComponent(rest) === iri.slice(ns.length) && ok(rest)) return { kind: 'name', name: rest };
    return { kind: 'iri', iri };
  }

  private constantForm(k: string): Form {
    const t = this.terms.get(k);
    if (!t) return unsupported('unknown term', k);
    if (t.termType === 'Literal') return this.literal(t);
    if (t.termType === 'NamedNode') return { kind: 'entity', ref: this.ref(t.value, this.entityNs, (rest) => ENTITY_ID.test(rest)) };
    return unsupported('unsupported term', t.termType);
  }

  private classForm(iri: string): Form {
    const named = this.names.get(iri);
    if (named !== undefined) return { kind: 'class', ref: { kind: 'name', name: named } };
    return { kind: 'class', ref: this.ref(iri, this.classNs, (rest) => NAME.test(rest) && !KEYWORDS.has(rest)) };
  }

  /** The form of the set of values a node can take, given all its patterns except the edge to its parent. */
  private nodeForm(node: string, parent: Edge | null): Form {
    if (!node.startsWith('?')) return this.constantForm(node);
    const parts: Form[] = [];
    for (const constants of this.entityParts.get(node) ?? []) parts.push(constants.map((k) => this.constantForm(k)).reduceRight((acc, f) => ({ kind: 'or', args: [f, acc] })));
    for (const c of this.classes.get(node) ?? []) parts.push(this.classForm(c));
    const label = this.labels.get(node);
    if (label !== undefined) parts.push({ kind: 'entity', ref: { kind: 'label', label } });
    parts.push(...(this.extraParts.get(node) ?? []));
    let argBest: { op: 'ARGMAX' | 'ARGMIN'; rel: Relation } | null = null;
    const walked = new Map<string, Relation>(); // extra leaves reached from this node
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
        for (const t of this.texts.get(leaf.leaf) ?? []) {
          const onLabel = leaf.rel.kind === 'rel' && leaf.rel.ref.kind === 'iri' && this.labelPreds.has(leaf.rel.ref.iri);
          parts.push(onLabel ? { kind: 'contains', text: t } : { kind: 'contains', relation: leaf.rel, text: t });
        }
        this.consumedValues.add(leaf.leaf);
        if (this.extraLeaves.has(leaf.leaf)) {
          this.leafRel.set(leaf.leaf, leaf.rel);
          this.leafAt.set(leaf.leaf, node);
          walked.set(leaf.leaf, leaf.rel);
        }
        const best = this.best.get(leaf.leaf);
        if (best) {
          if (argBest) unsupported('two ARGMAX / ARGMIN on one variable');
          argBest = { op: best, rel: leaf.rel };
          this.bestAt.set(leaf.leaf, node);
        }
        continue;
      }
      const exists = this.walkToLeaf(node, e, (n) => this.isExistenceLeaf(n));
      if (exists) {
        for (const pe of exists.edges) pe.used = true;
        this.consumed.add(exists.leaf);
        parts.push({ kind: 'has', relation: exists.rel });
        continue;
      }
      e.used = true;
      const forward = e.s === node;
      const sub = this.nodeForm(other, e);
      parts.push({ kind: 'join', relation: forward ? this.rel(e.p) : { kind: 'reverse', of: this.rel(e.p) }, arg: sub });
    }
    for (const c of this.varCompares) {
      const ra = walked.get(c.a);
      const rb = walked.get(c.b);
      if (c.done || !ra || !rb) continue;
      c.done = true;
      parts.push({ kind: 'attrcompare', op: defined(CMP_OP[c.sym], 'comparison operator'), relation: ra, other: rb });
    }
    // a member set that only carries its table's / group's values: the members with the first of them (HAS r)
    const firstWalked = [...walked.values()][0];
    if (parts.length === 0 && firstWalked && node === this.root) parts.push({ kind: 'has', relation: firstWalked });
    if (parts.length === 0) unsupported('unconstrained variable', node);
    let form = parts.reduceRight((acc, p) => ({ kind: 'and', args: [p, acc] }));
    this.consumed.add(node);
    for (const d of this.diffs.get(node) ?? []) form = { kind: 'diff', args: [form, d] };
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
    const ys = /^(\d{4})-01-01(T00:00:00)?$/.exec(start);
    const ye = /^(\d{4})-12-31(T(00:00:00|23:59:59))?$/.exec(end);
    if (ys && ye && ys[1] === ye[1]) value = { kind: 'literal', value: defined(ys[1], 'year group'), datatype: XSD + 'integer' };
    else if (start === end && isDateType(from.at.datatype)) value = from.at;
    else return unsupported('time constraint bounds are not one year or one date', `${start} .. ${end}`);
    return { kind: 'tc', arg, relation: fromRel, value };
  }
}

/** Convert a SPARQL SELECT / ASK query to a logical form (throws CONVERSION_UNSUPPORTED with details.reason). */
export function sparqlToForm(sparql: string, opts: ToFormOptions = {}): Form {
  return new Converter(opts).convert(sparql);
}
