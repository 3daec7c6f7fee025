/**
 * The sampler's view of the store: runs sampled forms (compiled by src/compile, executed by src/execute
 * with a timeout per query), entity pools by degree, and the edges of one entity. Every query is bounded
 * (LIMIT, timeout) so that sampling also works against a remote endpoint.
 *
 * Forms that use the form-language-v2 operators are run by the compiler when it knows them; while it
 * does not (before the `grammar` branch is merged), they are evaluated by composing the results of their
 * v1 sub-forms, each of which runs on the store — so every kept example is still checked against the graph.
 */
import { Generator } from 'sparqljs';
import type * as S from 'sparqljs';
import { AnswerItem, Executor, isAskgraphError, XSD } from '../core';
import { CompileOptions, compileForm } from '../compile';
import { runCompiled } from '../execute';
import { parseForm } from '../form';
import { printSForm, SForm, SRel, usesV2 } from './forms';
import type { Schema, SchemaProperty } from './types';

export interface Item {
  value: string;
  label: string | null;
  type: 'uri' | 'literal';
  /** Numeric value (literals, or IRIs whose label is a number or a date: years as entities). */
  num?: number;
}

export type Value = { type: 'set'; items: Item[] } | { type: 'bool'; value: boolean } | { type: 'num'; value: number };

export interface PoolEntry {
  iri: string;
  label: string;
  degree: number;
}

export interface Edge {
  prop: SchemaProperty;
  /** true: (this p other), the other is the object. */
  out: boolean;
  other: Item;
}

const generator = new Generator();
const iri = (value: string) => ({ termType: 'NamedNode', value }) as unknown as S.IriTerm;
const v = (value: string) => ({ termType: 'Variable', value }) as unknown as S.VariableTerm;

function numOf(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined) return undefined;
  const t = text.trim();
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(t)) return Number(t);
  const d = /^(-?\d{4})-(\d{2})(-(\d{2}))?/.exec(t);
  if (d) return Number(d[1]) + (Number(d[2]) - 1) / 12 + (d[4] ? (Number(d[4]) - 1) / 372 : 0);
  return undefined;
}

function toItem(a: AnswerItem): Item {
  const num = a.type === 'literal' ? numOf(a.value) : numOf(a.label);
  return { value: a.value, label: a.label, type: a.type === 'uri' ? 'uri' : 'literal', ...(num !== undefined ? { num } : {}) };
}

export interface StoreOptions {
  compile?: CompileOptions;
  /** Timeout per query (default 5000 ms). */
  timeoutMs?: number;
  /** Max members expanded when a v2 form is evaluated by composition (default 60). */
  maxExpand?: number;
}

export class SynthStore {
  readonly v2: boolean;
  private readonly compileOpts: CompileOptions;
  private readonly timeoutMs: number;
  private readonly maxExpand: number;
  private readonly cache = new Map<string, Promise<Value>>();
  private readonly props: Set<string>;
  queries = 0;

  constructor(
    readonly executor: Executor,
    readonly schema: Schema,
    opts: StoreOptions = {},
  ) {
    this.compileOpts = { labelPredicates: schema.labelPredicates, typePredicate: schema.typePredicate, ...opts.compile };
    this.timeoutMs = opts.timeoutMs ?? 5000;
    this.maxExpand = opts.maxExpand ?? 60;
    this.props = new Set(schema.properties.map((p) => p.iri));
    this.v2 = supportsV2();
  }

  prop(name: string): SchemaProperty {
    const p = this.schema.properties.find((x) => x.name === name);
    if (!p) throw new Error(`no property ${name}`);
    return p;
  }

  /** Runs a form on the store (cached). Throws on query errors / timeouts (the sampler drops the form). */
  run(f: SForm): Promise<Value> {
    const key = printSForm(f);
    let hit = this.cache.get(key);
    if (!hit) {
      hit = this.evaluate(f);
      hit.catch(() => undefined);
      if (this.cache.size > 20000) this.cache.clear();
      this.cache.set(key, hit);
    }
    return hit;
  }

  /** A set-valued form's members (empty for non-sets). */
  async members(f: SForm): Promise<Item[]> {
    const r = await this.run(f);
    return r.type === 'set' ? r.items : [];
  }

  private entityValued(f: SForm): boolean {
    // comparisons / orderings over entities labelled with numbers need the v2 compiler (values by label)
    const ev = (r: SRel) => !r.inv && this.prop(r.prop).objectKind !== 'literal';
    switch (f.op) {
      case 'cmp':
        return ev(f.rel);
      case 'arg':
        return ev(f.rel) || this.entityValued(f.arg);
      case 'join':
      case 'count':
        return this.entityValued(f.arg);
      case 'and':
        return this.entityValued(f.a) || this.entityValued(f.b);
      default:
        return false;
    }
  }

  private async compiled(f: SForm): Promise<Value> {
    const form = parseForm(printSForm(f));
    const compiled = compileForm(form, this.compileOpts);
    this.queries++;
    const out = await runCompiled(this.executor, compiled, { timeoutMs: this.timeoutMs });
    if (out.status === 'error' || out.status === 'timeout') throw new Error(`${out.error?.code}: ${out.error?.message}`);
    const one = out.answers[0];
    if (f.op === 'ask' || (compiled.kind === 'ask' && one)) return { type: 'bool', value: one?.value === 'true' };
    if (['count', 'agg', 'ratio'].includes(f.op)) {
      const n = one ? Number(one.value) : NaN;
      if (!Number.isFinite(n)) throw new Error('no number');
      return { type: 'num', value: n };
    }
    return { type: 'set', items: out.answers.map(toItem) };
  }

  private async evaluate(f: SForm): Promise<Value> {
    if (this.v2 || (!usesV2(f) && !this.entityValued(f))) return this.compiled(f);
    return this.compose(f);
  }

  /** Values of `rel` for one member (the r-objects of s; for (R r) the r-subjects). */
  async valuesOf(member: Item, rel: SRel): Promise<Item[]> {
    if (member.type !== 'uri') return [];
    return this.members({ op: 'join', rel: { ...rel, inv: !rel.inv }, arg: { op: 'ent', iri: member.value, label: member.label ?? '' } });
  }

  private async bounded(f: SForm): Promise<Item[]> {
    const m = await this.members(f);
    if (m.length > this.maxExpand) throw new Error('set too large to compose');
    return m;
  }

  private async compose(f: SForm): Promise<Value> {
    const set = (items: Item[]): Value => ({ type: 'set', items });
    const key = (i: Item) => `${i.type} ${i.value}`;
    switch (f.op) {
      case 'ent':
      case 'cls':
        return this.compiled(f);
      case 'join': {
        if (!usesV2(f.arg) && !this.entityValued(f.arg)) return this.compiled(f);
        const out = new Map<string, Item>();
        for (const m of await this.bounded(f.arg)) for (const x of await this.valuesOf(m, { ...f.rel, inv: !f.rel.inv })) out.set(key(x), x);
        return set([...out.values()]);
      }
      case 'and': {
        if (!usesV2(f) && !this.entityValued(f)) return this.compiled(f);
        // conjuncts: sets intersected, comparisons applied to the members' values
        const parts: SForm[] = [];
        const flat = (x: SForm): void => (x.op === 'and' ? (flat(x.a), flat(x.b)) : void parts.push(x));
        flat(f);
        const sets = parts.filter((x) => x.op !== 'cmp');
        const cmps = parts.filter((x): x is Extract<SForm, { op: 'cmp' }> => x.op === 'cmp');
        if (!sets.length) throw new Error('comparisons alone are not composed');
        let items = await this.members(sets[0]);
        for (const other of sets.slice(1)) {
          const keep = new Set((await this.members(other)).map(key));
          items = items.filter((i) => keep.has(key(i)));
        }
        if (cmps.length && items.length > this.maxExpand) throw new Error('set too large to compose');
        const out: Item[] = [];
        for (const m of items) {
          let ok = true;
          for (const c of cmps) {
            const t = Number(c.value.value);
            const vals = (await this.valuesOf(m, c.rel)).map((x) => x.num).filter((n): n is number => n !== undefined);
            if (!vals.some((n) => (c.cmp === 'GT' ? n > t : c.cmp === 'GE' ? n >= t : c.cmp === 'LT' ? n < t : n <= t))) ok = false;
          }
          if (ok) out.push(m);
        }
        return set(out);
      }
      case 'or': {
        const out = new Map<string, Item>();
        for (const i of [...(await this.members(f.a)), ...(await this.members(f.b))]) out.set(key(i), i);
        return set([...out.values()]);
      }
      case 'diff': {
        const b = new Set((await this.members(f.b)).map(key));
        return set((await this.members(f.a)).filter((i) => !b.has(key(i))));
      }
      case 'count':
        return { type: 'num', value: (await this.members(f.arg)).length };
      case 'ask':
        return { type: 'bool', value: (await this.members(f.arg)).length > 0 };
      case 'cmp':
        throw new Error('a comparison alone is not composed');
      case 'arg': {
        const scored: [Item, number][] = [];
        for (const m of await this.bounded(f.arg)) {
          const vals = (await this.valuesOf(m, f.rel)).map((x) => x.num).filter((n): n is number => n !== undefined);
          if (vals.length) scored.push([m, f.max ? Math.max(...vals) : Math.min(...vals)]);
        }
        if (!scored.length) return set([]);
        const best = f.max ? Math.max(...scored.map((s) => s[1])) : Math.min(...scored.map((s) => s[1]));
        return set(scored.filter((s) => s[1] === best).map((s) => s[0]));
      }
      case 'argcount': {
        const scored: [Item, number][] = [];
        for (const m of await this.bounded(f.arg)) {
          const n = (await this.valuesOf(m, f.rel)).length;
          if (n > 0) scored.push([m, n]);
        }
        if (!scored.length) return set([]);
        const best = f.max ? Math.max(...scored.map((s) => s[1])) : Math.min(...scored.map((s) => s[1]));
        return set(scored.filter((s) => s[1] === best).map((s) => s[0]));
      }
      case 'agg': {
        const nums = (await this.members(f.arg)).map((x) => x.num).filter((n): n is number => n !== undefined);
        if (!nums.length) throw new Error('no values');
        const sum = nums.reduce((a, b) => a + b, 0);
        const value = f.fn === 'AVG' ? sum / nums.length : f.fn === 'SUM' ? sum : f.fn === 'MAX' ? Math.max(...nums) : Math.min(...nums);
        return { type: 'num', value };
      }
      case 'ratio': {
        const a = (await this.members(f.a)).length;
        const b = (await this.members(f.b)).length;
        if (b === 0) throw new Error('division by zero');
        return { type: 'num', value: (a / b) * (f.pct ? 100 : 1) };
      }
      case 'common': {
        const counts = new Map<string, [Item, number]>();
        for (const m of await this.bounded(f.arg)) {
          for (const x of await this.valuesOf(m, f.rel)) {
            const c = counts.get(key(x)) ?? [x, 0];
            c[1]++;
            counts.set(key(x), c);
          }
        }
        if (!counts.size) return set([]);
        const ns = [...counts.values()].map((c) => c[1]);
        const best = f.most ? Math.max(...ns) : Math.min(...ns);
        return set([...counts.values()].filter((c) => c[1] === best).map((c) => c[0]));
      }
    }
  }

  private async select(q: S.SelectQuery) {
    this.queries++;
    return this.executor.select(generator.stringify(q), { timeoutMs: this.timeoutMs });
  }

  /**
   * Entities at one end of a property, the best-connected first (people ask about famous things), plus
   * a page from the long tail: `side` 'subject' or 'object'.
   */
  async pool(p: SchemaProperty, side: 'subject' | 'object', limit = 300): Promise<PoolEntry[]> {
    const e = v('e');
    const triple = side === 'object' ? { subject: v('s'), predicate: iri(p.iri), object: e } : { subject: e, predicate: iri(p.iri), object: v('o') };
    const count = { expression: { type: 'aggregate', aggregation: 'count', distinct: false, expression: { termType: 'Wildcard', value: '*' } }, variable: v('n') };
    const isIri = { type: 'filter', expression: { type: 'operation', operator: 'isiri', args: [e] } };
    const top = (await this.select({
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [e, count],
      where: [{ type: 'bgp', triples: [triple] }, isIri],
      group: [{ expression: e }],
      order: [{ expression: v('n'), descending: true }],
      limit,
    } as unknown as S.SelectQuery)).rows;
    const tail = (await this.select({
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      distinct: true,
      variables: [e],
      where: [{ type: 'bgp', triples: [triple] }, isIri],
      offset: Math.max(0, Math.floor((side === 'object' ? p.objects : p.subjects) / 2) - limit),
      limit,
    } as unknown as S.SelectQuery)).rows;
    const degree = new Map<string, number>();
    for (const r of top) if (r.e?.type === 'uri') degree.set(r.e.value, Number(r.n?.value ?? 1));
    for (const r of tail) if (r.e?.type === 'uri' && !degree.has(r.e.value)) degree.set(r.e.value, 1);
    const labels = await this.executor.labels([...degree.keys()], { timeoutMs: this.timeoutMs });
    const out: PoolEntry[] = [];
    for (const [iriValue, d] of degree) {
      const label = labels.get(iriValue);
      if (label && label.trim() !== '') out.push({ iri: iriValue, label, degree: d });
    }
    return out;
  }

  /** The schema edges of one entity, both directions (bounded). */
  async edges(entity: string, limit = 200): Promise<Edge[]> {
    const out: Edge[] = [];
    for (const dir of ['out', 'in'] as const) {
      const triple = dir === 'out' ? { subject: iri(entity), predicate: v('p'), object: v('o') } : { subject: v('o'), predicate: v('p'), object: iri(entity) };
      const rows = (await this.select({
        type: 'query',
        queryType: 'SELECT',
        prefixes: {},
        variables: [v('p'), v('o')],
        where: [{ type: 'bgp', triples: [triple] }],
        limit,
      } as unknown as S.SelectQuery)).rows;
      const iris = rows.filter((r) => r.o?.type === 'uri').map((r) => r.o.value);
      const labels = iris.length ? await this.executor.labels(iris, { timeoutMs: this.timeoutMs }) : new Map<string, string>();
      for (const r of rows) {
        if (!r.p || !r.o || !this.props.has(r.p.value) || r.o.type === 'bnode') continue;
        const prop = this.schema.properties.find((x) => x.iri === r.p.value) as SchemaProperty;
        const label = r.o.type === 'uri' ? labels.get(r.o.value) ?? null : null;
        if (r.o.type === 'uri' && !label) continue;
        const num = r.o.type === 'literal' ? numOf(r.o.value) : numOf(label);
        out.push({ prop, out: dir === 'out', other: { value: r.o.value, label, type: r.o.type === 'uri' ? 'uri' : 'literal', ...(num !== undefined ? { num } : {}) } });
      }
    }
    return out;
  }
}

/** Does the installed form parser know the v2 operators (ASK, DIFF, …)? */
export function supportsV2(): boolean {
  try {
    parseForm('(ASK (OR [ a ] [ b ]))');
    return true;
  } catch (e) {
    if (isAskgraphError(e)) return false;
    throw e;
  }
}

export const XSD_INTEGER = XSD + 'integer';
export const XSD_DECIMAL = XSD + 'decimal';
