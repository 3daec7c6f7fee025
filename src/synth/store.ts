/**
 * The sampler's view of the store: runs sampled forms (compiled by src/compile, executed by src/execute
 * with a timeout per query), entity pools by degree, and the edges of one entity. Every query is bounded
 * (LIMIT, timeout) so that sampling also works against a remote endpoint.
 * Every form, v1 or v2 operators alike, runs as one compiled query: what the sampler keeps is exactly
 * what the pipeline would answer.
 */
import type * as S from 'sparqljs';
import { AnswerItem, DF, Executor, defined } from '../core';
import { CompileOptions, compileForm } from '../compile';
import { runCompiled } from '../execute';
import { countAll, generateSparql } from '../sparql';
import { parseForm } from '../form';
import { printSForm, SForm, SRel } from './forms';
import type { Schema, SchemaProperty } from './types';

export interface Item {
  value: string;
  label: string | null;
  type: 'uri' | 'literal';
  /** Numeric value (literals, or IRIs whose label is a number or a date: years as entities). */
  num?: number;
}

/** A table answer: rows of cells (null: an empty cell), the first column the row key. */
export type Value = { type: 'set'; items: Item[] } | { type: 'bool'; value: boolean } | { type: 'num'; value: number } | { type: 'table'; rows: (Item | null)[][] };

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

const LABELLED_SET = 300;
const iri = (value: string): S.IriTerm => DF.namedNode(value);
const v = (value: string): S.VariableTerm => DF.variable(value);

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
}

export class SynthStore {
  private readonly compileOpts: CompileOptions;
  private readonly timeoutMs: number;
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
    this.props = new Set(schema.properties.map((p) => p.iri));
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
      hit = this.compiled(f);
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

  private async compiled(f: SForm): Promise<Value> {
    const form = parseForm(printSForm(f));
    const compiled = compileForm(form, this.compileOpts);
    this.queries++;
    // labels only for small sets (a genre's 5,000 films need none): a picked member gets its label by labelOf
    const out = await runCompiled(this.executor, compiled, { timeoutMs: this.timeoutMs, labels: false });
    if (out.status === 'error' || out.status === 'timeout') throw new Error(`${out.error?.code}: ${out.error?.message}`);
    const one = out.answers[0];
    if (compiled.kind === 'table') {
      const rows = (out.table?.rows ?? []).map((r) => r.map((c) => (c ? toItem(c) : null)));
      return { type: 'table', rows };
    }
    if (f.op === 'more' || f.op === 'ask' || (compiled.kind === 'ask' && one)) return { type: 'bool', value: one?.value === 'true' };
    if (['count', 'agg', 'ratio', 'absdiff'].includes(f.op)) {
      const n = one ? Number(one.value) : NaN;
      if (!Number.isFinite(n)) throw new Error('no number');
      return { type: 'num', value: n };
    }
    const iris = out.answers.filter((a) => a.type === 'uri').map((a) => a.value);
    if (iris.length > 0 && iris.length <= LABELLED_SET) {
      const labels = await this.executor.labels(iris, { timeoutMs: this.timeoutMs });
      for (const a of out.answers) if (a.type === 'uri') a.label = labels.get(a.value) ?? null;
    }
    return { type: 'set', items: out.answers.map(toItem) };
  }

  /** The label of a set member (fetched when its set was too large to label whole). */
  async labelOf(item: Item): Promise<string | null> {
    if (item.label !== null || item.type !== 'uri') return item.label;
    const labels = await this.executor.labels([item.value], { timeoutMs: this.timeoutMs });
    item.label = labels.get(item.value) ?? null;
    const num = numOf(item.label);
    if (num !== undefined) item.num = num;
    return item.label;
  }

  /** Values of `rel` for one member (the r-objects of s; for (R r) the r-subjects). */
  async valuesOf(member: Item, rel: SRel): Promise<Item[]> {
    if (member.type !== 'uri') return [];
    return this.members({ op: 'join', rel: { ...rel, inv: !rel.inv }, arg: { op: 'ent', iri: member.value, label: member.label ?? '' } });
  }

  private async select(q: S.SelectQuery) {
    this.queries++;
    return this.executor.select(generateSparql(q), { timeoutMs: this.timeoutMs });
  }

  /**
   * Entities at one end of a property, the best-connected first (people ask about famous things), plus
   * a page from the long tail: `side` 'subject' or 'object'.
   */
  async pool(p: SchemaProperty, side: 'subject' | 'object', limit = 300): Promise<PoolEntry[]> {
    const e = v('e');
    const triple: S.Triple = side === 'object' ? { subject: v('s'), predicate: iri(p.iri), object: e } : { subject: e, predicate: iri(p.iri), object: v('o') };
    const count = countAll('n');
    const isIri: S.FilterPattern = { type: 'filter', expression: { type: 'operation', operator: 'isiri', args: [e] } };
    // each query may time out on a large endpoint: the pool is then what the other one gave
    const safe = async (q: Promise<{ rows: Record<string, { type: string; value: string }>[] }>) => {
      try {
        return (await q).rows;
      } catch {
        return [];
      }
    };
    const top = await safe(this.select({
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [e, count],
      where: [{ type: 'bgp', triples: [triple] }, isIri],
      group: [{ expression: e }],
      order: [{ expression: v('n'), descending: true }],
      limit,
    }));
    // one page of the distinct entities on this side of the relation, from `offset`
    const page = (offset: number) =>
      safe(this.select({
        type: 'query',
        queryType: 'SELECT',
        prefixes: {},
        distinct: true,
        variables: [e],
        where: [{ type: 'bgp', triples: [triple] }, isIri],
        ...(offset > 0 ? { offset } : {}),
        limit,
      }));
    const tail = await page(Math.max(0, Math.floor((side === 'object' ? p.objects : p.subjects) / 2) - limit));
    // neither answered in time (a very large endpoint): the first page of the relation, unsorted
    const first = top.length || tail.length ? [] : await page(0);
    const degree = new Map<string, number>();
    for (const r of top) if (r.e?.type === 'uri') degree.set(r.e.value, Number(r.n?.value ?? 1));
    for (const r of [...tail, ...first]) if (r.e?.type === 'uri' && !degree.has(r.e.value)) degree.set(r.e.value, 1);
    let labels = new Map<string, string>();
    try {
      labels = await this.executor.labels([...degree.keys()], { timeoutMs: this.timeoutMs });
    } catch {
      return [];
    }
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
      const triple: S.Triple = dir === 'out' ? { subject: iri(entity), predicate: v('p'), object: v('o') } : { subject: v('o'), predicate: v('p'), object: iri(entity) };
      const rows = (await this.select({
        type: 'query',
        queryType: 'SELECT',
        prefixes: {},
        variables: [v('p'), v('o')],
        where: [{ type: 'bgp', triples: [triple] }],
        limit,
      })).rows;
      const iris = rows.flatMap((r) => (r.o?.type === 'uri' ? [r.o.value] : []));
      const labels = iris.length ? await this.executor.labels(iris, { timeoutMs: this.timeoutMs }) : new Map<string, string>();
      for (const r of rows) {
        const { p, o } = r;
        if (!p || !o || !this.props.has(p.value) || o.type === 'bnode') continue;
        const prop = defined(this.schema.properties.find((x) => x.iri === p.value), 'schema property');
        const label = o.type === 'uri' ? labels.get(o.value) ?? null : null;
        if (o.type === 'uri' && !label) continue;
        const num = o.type === 'literal' ? numOf(o.value) : numOf(label);
        out.push({ prop, out: dir === 'out', other: { value: o.value, label, type: o.type === 'uri' ? 'uri' : 'literal', ...(num !== undefined ? { num } : {}) } });
      }
    }
    return out;
  }
}
