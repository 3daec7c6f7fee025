/**
 * Form sampling over the real store. Each sampler builds a form the way a question about the graph
 * would be built — from a topic entity (weighted toward well-connected ones), along edges that exist —
 * runs it, and keeps it only when it executes with an answer. Comparisons and aggregates only use
 * number / year / date valued properties; their constants come from the members' own values (decades,
 * round numbers).
 */
import type { Literal } from '../core';
import { XSD } from '../core';
import { entitiesOf, type CmpOp, type GroupFn, type SCol, type SForm, type SRel } from './forms';
import type { Lexicon } from './lexicon';
import { Rng, defined } from '../core';
import type { Edge, Item, PoolEntry, SynthStore, Value } from './store';
import type { SchemaClass, SchemaProperty, SynthOperator } from './types';

export interface Sampled {
  form: SForm;
  operator: SynthOperator;
  answer: Value;
  answerCount: number;
}

export const OPERATOR_WEIGHTS: Record<SynthOperator, number> = {
  join1: 14,
  join2: 8,
  join3: 3,
  class: 5,
  and: 9,
  count: 9,
  argmax: 5,
  argmin: 4,
  compare: 6,
  range: 4,
  ask: 8,
  diff: 8,
  aggregate: 5,
  ratio: 3,
  mostcommon: 4,
  argmaxcount: 4,
  compare2: 6,
  // answers as tables and the operators that came with them (about a fifth of the mix)
  table: 5,
  group: 5,
  having: 3,
  topk: 5,
  attrcompare: 3,
  countcompare: 3,
  contains: 3,
  percent: 3,
};

interface SetForm {
  form: SForm;
  items: Item[];
}

const MAX_SET = 2000;

/** Words of a name too common to search for ("the", "of"). */
const STOP = new Set(['the', 'and', 'for', 'with', 'from', 'of', 'in', 'on', 'at', 'by', 'des', 'del', 'der', 'die', 'las', 'los', 'les']);

function ent(e: { iri: string; label: string }): SForm {
  return { op: 'ent', iri: e.iri, label: e.label };
}

function itemEnt(i: Item): SForm | undefined {
  return i.type === 'uri' && i.label ? { op: 'ent', iri: i.value, label: i.label } : undefined;
}

function rel(p: SchemaProperty, inv: boolean): SRel {
  return { prop: p.name, iri: p.iri, inv };
}

/** The constraint an edge of member m puts on m: (m p o) → (JOIN p o), (o p m) → (JOIN (R p) o). */
function constraintOf(e: Edge): SForm | undefined {
  const o = itemEnt(e.other);
  return o ? { op: 'join', rel: rel(e.prop, !e.out), arg: o } : undefined;
}

/** The relation from a member m to the other end of its edge (for ARGMAXCOUNT / MOSTCOMMON): (m r o). */
function relOf(e: Edge): SRel {
  return rel(e.prop, !e.out);
}

function isValued(p: SchemaProperty): boolean {
  return p.valueKind === 'number' || p.valueKind === 'year' || p.valueKind === 'date';
}

function lit(n: number): Literal {
  const integer = Number.isInteger(n);
  return { kind: 'literal', value: String(n), datatype: XSD + (integer ? 'integer' : 'decimal') };
}

/** A round threshold near t: decades for years, halves/units/powers of ten for numbers. */
function roundStep(p: SchemaProperty, t: number): number {
  if (p.valueKind === 'year' || p.valueKind === 'date') return 10;
  const span = (p.max ?? t) - (p.min ?? 0);
  if (span <= 10) return 0.5;
  if (span <= 100) return 5;
  return Math.pow(10, Math.max(0, Math.floor(Math.log10(span)) - 1));
}

export class Sampler {
  private readonly pools = new Map<string, Promise<PoolEntry[]>>();
  readonly entityProps: SchemaProperty[];
  readonly valueProps: SchemaProperty[];

  constructor(
    readonly store: SynthStore,
    readonly rng: Rng,
    readonly lexicon?: Lexicon,
  ) {
    const props = store.schema.properties;
    this.entityProps = props.filter((p) => p.objectKind !== 'literal' && p.count > 0);
    this.valueProps = props.filter((p) => isValued(p) && p.count > 0);
  }

  /** Operators this schema can produce (no classes → no class-typed answers; no valued property → no comparisons). */
  operators(): SynthOperator[] {
    const ops = Object.keys(OPERATOR_WEIGHTS) as SynthOperator[];
    const typed = this.store.schema.classes.some((c) => c.count > 0);
    const valued = this.valueProps.length > 0;
    return ops.filter((op) => {
      if (op === 'class') return typed;
      if (['argmax', 'argmin', 'compare', 'range', 'aggregate'].includes(op)) return valued;
      if (op === 'attrcompare') return this.attrPairs().length > 0;
      if (op === 'table' || op === 'topk') return this.store.schema.properties.some((p) => p.functional && p.count > 0);
      if (this.entityProps.length === 0) return op === 'join1';
      return true;
    });
  }

  private pool(p: SchemaProperty, side: 'subject' | 'object'): Promise<PoolEntry[]> {
    const key = `${p.iri} ${side}`;
    let hit = this.pools.get(key);
    if (!hit) {
      hit = this.store.pool(p, side);
      this.pools.set(key, hit);
    }
    return hit;
  }

  /** A topic entity at one end of p: mostly by degree (famous things), sometimes uniform (the long tail). */
  private async pickEntity(p: SchemaProperty, side: 'subject' | 'object'): Promise<PoolEntry | undefined> {
    const pool = await this.pool(p, side);
    if (!pool.length) return undefined;
    return this.rng.chance(0.65) ? this.rng.weighted(pool, (e) => Math.sqrt(e.degree)) : this.rng.pick(pool);
  }

  private pickProp(props: SchemaProperty[]): SchemaProperty {
    // values with few distinct levels (a rating, an age) are compared more often than near-unique numbers (a house number)
    return this.rng.weighted(props, (p) => (Math.sqrt(p.count) + 10) / (isValued(p) ? 1 + Math.log10(Math.max(1, p.objects)) : 1));
  }

  private async set(form: SForm, min = 1, max = MAX_SET): Promise<SetForm | undefined> {
    try {
      const items = await this.store.members(form);
      return items.length >= min && items.length <= max ? { form, items } : undefined;
    } catch {
      return undefined;
    }
  }

  /** (JOIN p e) or (JOIN (R p) e): one hop from a topic entity; `entities` keeps only entity answers. */
  private async join1(min = 1, entities = false): Promise<SetForm | undefined> {
    const props = entities ? this.entityProps : this.store.schema.properties.filter((p) => p.count > 0);
    if (!props.length) return undefined;
    const p = this.pickProp(props);
    const answerObjects = p.objectKind === 'literal' ? true : this.rng.chance(0.5);
    const e = await this.pickEntity(p, answerObjects ? 'subject' : 'object');
    if (!e) return undefined;
    return this.set({ op: 'join', rel: rel(p, answerObjects), arg: ent(e) }, min);
  }

  /**
   * One entity in two roles: (JOIN p X) and (JOIN q X) with q another relation whose object is X ("movies X both
   * directed and wrote", "X's movies that X did not act in"); the forms, for AND or DIFF.
   */
  private async twoRoles(): Promise<[SForm, SForm] | undefined> {
    const b = await this.join1(2, true);
    if (b?.form.op !== 'join' || b.form.arg.op !== 'ent' || b.form.rel.inv) return undefined;
    const x = b.form.arg;
    const first = b.form.rel.prop;
    // two roles of one kind (both people: "who"), not a person and a tag named after them
    const wh = (name: string) => this.lexicon?.properties[name]?.wh;
    const edges = (await this.store.edges(x.iri)).filter((e) => !e.out && e.prop.name !== first && e.prop.objectKind !== 'literal' && wh(e.prop.name) === wh(first));
    if (!edges.length) return undefined;
    const e = this.rng.pick(edges);
    return [b.form, { op: 'join', rel: rel(e.prop, false), arg: x }];
  }

  /**
   * The same two-hop path from two entities of one kind: (JOIN r (JOIN q X)) and (JOIN r (JOIN q Y)) — "actors who
   * were in both a movie directed by X and one directed by Y"; Y is reached from a member of the first set.
   */
  private async bothChains(): Promise<[SForm, SForm] | undefined> {
    const b = await this.join1(1, true);
    const c = b && (await this.extend(b, 300));
    if (c?.form.op !== 'join' || c.form.arg.op !== 'join' || c.form.arg.arg.op !== 'ent') return undefined;
    const outer = c.form.rel;
    const inner = c.form.arg.rel;
    const x = c.form.arg.arg;
    const m = this.rng.pick(c.items);
    if (m.type !== 'uri') return undefined;
    // m —outer→ z —inner→ y: (JOIN r S) holds m when (m r z), (JOIN (R r) S) when (z r m)
    const zs = (await this.store.edges(m.value)).filter((e) => e.prop.name === outer.prop && e.out === !outer.inv && e.other.type === 'uri');
    for (const z of this.rng.shuffle(zs).slice(0, 4)) {
      const ys = (await this.store.edges(z.other.value)).filter(
        (e) => e.prop.name === inner.prop && e.out === !inner.inv && e.other.type === 'uri' && e.other.value !== x.iri && !!e.other.label && e.other.label.toLowerCase() !== x.label.toLowerCase(),
      );
      if (!ys.length) continue;
      const y = defined(itemEnt(this.rng.pick(ys).other), 'entity of a labelled item');
      return [c.form, { op: 'join', rel: outer, arg: { op: 'join', rel: inner, arg: y } }];
    }
    return undefined;
  }

  /** One more hop from a member of the set (both directions), as (JOIN r base). */
  private async extend(base: SetForm, max = 500): Promise<SetForm | undefined> {
    const m = this.rng.pick(base.items);
    if (m.type !== 'uri') return undefined;
    const edges = (await this.store.edges(m.value)).filter((e) => e.other.value !== m.value);
    if (!edges.length) return undefined;
    const last = base.form.op === 'join' ? base.form.rel : undefined;
    const back = (x: Edge) => !!last && x.prop.name === last.prop && x.out === !last.inv;
    // going straight back over the same relation: "movies with the same director as X" is kept (rarer), but not
    // "directors of the movies of X" for a one-valued relation (that is X again)
    const usable = edges.filter((x) => !(back(x) && (x.prop.functional || !last?.inv)));
    if (!usable.length) return undefined;
    let e = this.rng.pick(usable);
    if (back(e) && this.rng.chance(0.6)) e = this.rng.pick(usable);
    return this.set({ op: 'join', rel: rel(e.prop, e.out), arg: base.form }, 1, max);
  }

  /**
   * A member's other edges, as constraints (entity-valued, not the one the set was built from); `own` keeps
   * only the member's own properties (m p o), which describe it ("not a comedy"), not its back-links.
   */
  private async constraints(m: Item, not?: SForm, own = false): Promise<SForm[]> {
    if (m.type !== 'uri') return [];
    const notKey = not ? JSON.stringify(not) : '';
    // and never an entity named like one already in the set's form ("roman polanski movies by Roman Polanski")
    const taken = new Set(not ? entitiesOf(not).map((e) => e.label.toLowerCase()) : []);
    return (await this.store.edges(m.value))
      .filter((e) => !own || e.out)
      .filter((e) => !taken.has((e.other.label ?? '').toLowerCase()))
      .map(constraintOf)
      .filter((c): c is SForm => !!c && JSON.stringify(c) !== notKey);
  }

  /** A set of entities that share a valued property (for superlatives / aggregates): the neighbours of one subject of r. */
  private async valuedSet(r: SchemaProperty, min = 2, max = MAX_SET): Promise<SetForm | undefined> {
    const typed = this.classOf(r.domain);
    if (typed && this.rng.chance(0.2) && typed.count <= 5000) {
      return this.set({ op: 'cls', name: typed.name, iri: typed.iri }, min, 100000);
    }
    const s = await this.pickEntity(r, 'subject');
    if (!s) return undefined;
    // not a set defined by the value itself ("the latest of the films released in 1927")
    const cs = (await this.constraints({ value: s.iri, label: s.label, type: 'uri' })).filter((c) => c.op !== 'join' || c.rel.prop !== r.name);
    if (!cs.length) return undefined;
    return this.set(this.rng.pick(cs), min, max);
  }

  /**
   * A constraint one hop further along the graph, sometimes: (JOIN inTown [X]) → (JOIN inTown (JOIN inProvince [Y]))
   * — "thai bakeries in Norvale" (a province: bakeries are in towns), "movies by directors from France".
   */
  private async deepen(c: SForm, p: number): Promise<SForm> {
    if (c.op !== 'join' || c.arg.op !== 'ent' || c.rel.inv || !this.rng.chance(p)) return c;
    const from = c.arg.iri;
    const out = (await this.store.edges(from)).filter((e) => e.out && e.other.type === 'uri' && e.other.label && e.other.value !== from);
    if (!out.length) return c;
    const e = this.rng.pick(out);
    return { op: 'join', rel: c.rel, arg: { op: 'join', rel: rel(e.prop, false), arg: defined(itemEnt(e.other), 'entity of a labelled item') } };
  }

  /** Sometimes a second constraint from a member's own edges: "the best thai bakery in harlow bend". */
  private async narrow(base: SetForm, r: SchemaProperty, p = 0.35): Promise<SetForm> {
    if (base.form.op !== 'join' || !this.rng.chance(p)) return base;
    const cs = (await this.constraints(this.rng.pick(base.items), base.form, true)).filter((c) => c.op !== 'join' || c.rel.prop !== r.name);
    const both = cs.length ? await this.set({ op: 'and', a: base.form, b: await this.deepen(this.rng.pick(cs), 0.25) }, 2) : undefined;
    return both ?? base;
  }

  private classOf(iris: string[]): SchemaClass | undefined {
    return this.store.schema.classes.find((c) => iris.includes(c.iri) && c.count > 0);
  }

  private async threshold(base: SetForm, r: SchemaProperty): Promise<{ value: number; member: number } | undefined> {
    const m = this.rng.pick(base.items);
    const vals = (await this.store.valuesOf(m, rel(r, false))).map((x) => x.num).filter((n): n is number => n !== undefined);
    const [v] = vals;
    if (v === undefined) return undefined;
    return { value: v, member: v };
  }

  private async compare(range: boolean): Promise<SetForm | undefined> {
    const r = this.pickProp(this.valueProps);
    let base: SetForm | undefined = await this.valuedSet(r, 3);
    if (!base) return undefined;
    base = await this.narrow(base, r); // three constraints: "good thai bakeries in harlow bend"
    const t = await this.threshold(base, r);
    if (!t) return undefined;
    const good = this.lexicon?.properties[r.name]?.scale?.threshold;
    if (good !== undefined && !range && this.rng.chance(0.4)) {
      // "good" / "bad": the lexicon's threshold of a rating scale
      const cond: SForm = { op: 'cmp', cmp: this.rng.chance(0.7) ? 'GT' : 'LT', rel: rel(r, false), value: lit(good) };
      return this.set({ op: 'and', a: base.form, b: cond }, 1);
    }
    const step = roundStep(r, t.value);
    const lo = Math.max(Math.floor(t.value / step) * step, r.min !== undefined && r.min >= 0 ? 0 : -Infinity);
    const round = (x: number) => Number(x.toFixed(6));
    let cond: SForm;
    if (range) {
      cond = { op: 'and', a: { op: 'cmp', cmp: 'GE', rel: rel(r, false), value: lit(round(lo)) }, b: { op: 'cmp', cmp: 'LT', rel: rel(r, false), value: lit(round(lo + step)) } };
    } else {
      const up = this.rng.chance(0.5);
      const op = up ? this.rng.pick(['GT', 'GE'] as const) : this.rng.pick(['LT', 'LE'] as const);
      const v = up ? (op === 'GT' ? lo - (lo === t.value ? step : 0) : lo) : op === 'LT' ? lo + step : lo + step;
      cond = { op: 'cmp', cmp: op, rel: rel(r, false), value: lit(round(v)) };
    }
    base = await this.set({ op: 'and', a: base.form, b: cond }, 1);
    return base;
  }

  /**
   * "how many years apart were A and B released", "how much higher is A's rating than B's":
   * (ABSDIFF (JOIN (R r) A) (JOIN (R r) B)) for two entities with exactly one r-value each and different values
   * (dates: different years). The larger value goes first, so a rendering that says which is later / higher
   * (absdiffQuestion) is true of the graph; the answer, a magnitude, is the same in either order.
   */
  private async absdiff(): Promise<SForm | undefined> {
    const r = this.pickProp(this.valueProps);
    const a = await this.pickEntity(r, 'subject');
    const b = await this.pickEntity(r, 'subject');
    if (!a || !b || a.iri === b.iri) return undefined;
    const one = async (e: PoolEntry): Promise<number | undefined> => {
      const values = await this.store.valuesOf({ value: e.iri, label: e.label, type: 'uri' }, rel(r, false));
      return values.length === 1 ? values[0]?.num : undefined;
    };
    const va = await one(a);
    const vb = await one(b);
    if (va === undefined || vb === undefined) return undefined;
    const dated = r.valueKind === 'year' || r.valueKind === 'date';
    if (dated ? Math.floor(va) === Math.floor(vb) : va === vb) return undefined;
    const [hi, lo] = va > vb ? [a, b] : [b, a];
    return { op: 'absdiff', a: { op: 'join', rel: rel(r, true), arg: ent(hi) }, b: { op: 'join', rel: rel(r, true), arg: ent(lo) } };
  }

  // ---------- answers as tables (form language v3) ----------

  /** Pairs of one-valued numeric / date properties of one kind on the same subjects, on one scale ("width" and "height"). */
  attrPairs(): [SchemaProperty, SchemaProperty][] {
    const out: [SchemaProperty, SchemaProperty][] = [];
    const vs = this.valueProps.flatMap((p) => (p.functional && p.min !== undefined && p.max !== undefined ? [{ p, min: p.min, max: p.max }] : []));
    for (const [i, ra] of vs.entries()) {
      for (const rb of vs.slice(i + 1)) {
        const { p: a } = ra;
        const { p: b } = rb;
        const dated = (p: SchemaProperty) => p.valueKind === 'year' || p.valueKind === 'date';
        if (dated(a) !== dated(b)) continue;
        const shared = a.domain.length && b.domain.length ? a.domain.some((d) => b.domain.includes(d)) : true;
        if (!shared) continue;
        // values of one scale: spans within a factor 3, overlapping over half the smaller span (width and height, price and
        // cost — not width and price)
        const [sa, sb] = [ra.max - ra.min, rb.max - rb.min];
        const overlap = Math.min(ra.max, rb.max) - Math.max(ra.min, rb.min);
        if (sa > 0 && sb > 0 && Math.max(sa, sb) <= 3 * Math.min(sa, sb) && overlap >= 0.5 * Math.min(sa, sb)) out.push([a, b]);
      }
    }
    return out;
  }

  /**
   * The rows of a table question: a class ("every product") or the members of a one-hop set ("employees in
   * Sales", "players of Brazil" on an untyped graph), entities only, `min`–`max` of them.
   */
  private async rowSet(min: number, max: number, classShare = 0.5): Promise<SetForm | undefined> {
    const typed = this.store.schema.classes.filter((c) => c.count >= min && c.count <= max);
    if (typed.length && this.rng.chance(classShare)) {
      const c = this.rng.pick(typed);
      return this.set({ op: 'cls', name: c.name, iri: c.iri }, min, max);
    }
    const b = await this.join1(min, true);
    if (!b || b.items.length > max || !b.items.every((i) => i.type === 'uri')) return undefined;
    // members of a one-valued relation's inverse (the one director of X) make a one-row table: allowed, but not a group
    return b;
  }

  /** The relation a set form was built from (its own JOIN), not to be asked again as a column or a group. */
  private ownRels(f: SForm): Set<string> {
    const out = new Set<string>();
    const walk = (g: SForm): void => {
      if (g.op === 'join') out.add(g.rel.prop);
      if (g.op === 'and') {
        walk(g.a);
        walk(g.b);
      }
    };
    walk(f);
    return out;
  }

  /** A member's one-valued properties of its own (s p o): the attributes a table can show. */
  private async attributes(base: SetForm): Promise<SchemaProperty[]> {
    const own = this.ownRels(base.form);
    const m = this.rng.pick(base.items);
    if (m.type !== 'uri') return [];
    const seen = new Set<string>();
    const out: SchemaProperty[] = [];
    for (const e of await this.store.edges(m.value)) {
      if (!e.out || !e.prop.functional || own.has(e.prop.name) || seen.has(e.prop.name)) continue;
      seen.add(e.prop.name);
      out.push(e.prop);
    }
    return out;
  }

  /** (TABLE x r1 … rn): 2–4 attributes the members mostly have, an optional one now and then (empty cells). */
  private async tableForm(): Promise<SForm | undefined> {
    const base = await this.rowSet(1, 300);
    if (!base) return undefined;
    let attrs = this.rng.shuffle(await this.attributes(base));
    // an attribute of the class the picked member lacks: the table shows it with empty cells
    if (base.form.op === 'cls' && this.rng.chance(0.3)) {
      const iri = base.form.iri;
      const optional = this.store.schema.properties.filter((p) => p.functional && p.domain.includes(iri) && !attrs.includes(p) && p.subjects < (this.classOf([iri])?.count ?? 0));
      if (optional.length) attrs = [this.rng.pick(optional), ...attrs];
    }
    if (!attrs.length) return undefined;
    const n = Math.min(attrs.length, this.rng.weighted([1, 2, 3, 4], (k) => [2, 5, 3, 1][k - 1] ?? 0));
    const cols: SCol[] = attrs.slice(0, n).map((p) => rel(p, false));
    const form: SForm = { op: 'table', arg: base.form, cols };
    const rows = await this.tableRows(form);
    if (!rows || rows.length === 0) return undefined;
    // columns the members mostly have: each at least 40% filled
    for (let c = 1; c <= cols.length; c++) if (rows.filter((r) => r[c]).length < 0.4 * rows.length) return undefined;
    return form;
  }

  private async tableRows(f: SForm): Promise<(Item | null)[][] | undefined> {
    try {
      const v = await this.store.run(f);
      return v.type === 'table' ? v.rows : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * (GROUPCOUNT x r) or (GROUPAVG x r v): members grouped by a category-like one-valued relation (many members
   * per group), with a count or an aggregate of a numeric attribute per group; at least two groups.
   */
  private async groupForm(minRows = 2): Promise<{ form: Extract<SForm, { op: 'group' }>; rows: (Item | null)[][] } | undefined> {
    const base = await this.rowSet(6, 20000, 0.7);
    if (!base) return undefined;
    const m = this.rng.pick(base.items);
    if (m.type !== 'uri') return undefined;
    const own = this.ownRels(base.form);
    const edges = await this.store.edges(m.value);
    const groups = edges.filter((e) => e.out && e.other.type === 'uri' && !own.has(e.prop.name) && !isValued(e.prop) && e.prop.objects >= 2 && e.prop.objects <= Math.max(50, e.prop.subjects / 3));
    if (!groups.length) return undefined;
    const by = rel(this.rng.pick(groups).prop, false);
    let fn: GroupFn = 'COUNT';
    let value: SRel | undefined;
    const values = edges.filter((e) => e.out && isValued(e.prop) && e.prop.functional && !own.has(e.prop.name));
    if (values.length && this.rng.chance(0.45)) {
      const v = this.rng.pick(values).prop;
      const scale = this.lexicon?.properties[v.name]?.scale;
      const fns: GroupFn[] = v.valueKind === 'number' ? (scale ? ['AVG', 'AVG', 'MAX', 'MIN'] : ['AVG', 'AVG', 'SUM', 'MAX', 'MIN']) : ['MAX', 'MIN'];
      fn = this.rng.pick(fns);
      value = rel(v, false);
    }
    const form: Extract<SForm, { op: 'group' }> = { op: 'group', fn, arg: base.form, by, ...(value ? { value } : {}) };
    const rows = await this.tableRows(form);
    if (!rows || rows.length < minRows) return undefined;
    return { form, rows };
  }

  /** (HAVING g GT n): a threshold from the groups' own values, so that some groups pass and some do not. */
  private async havingForm(): Promise<SForm | undefined> {
    const g = await this.groupForm(3);
    if (!g || (g.form.fn !== 'COUNT' && g.form.fn !== 'AVG' && g.form.fn !== 'SUM')) return undefined;
    const vals = g.rows.map((r) => r[r.length - 1]?.num).filter((x): x is number => x !== undefined).sort((a, b) => a - b);
    if (vals.length < 3) return undefined;
    // a cut between two neighbouring distinct values, below the largest
    const cuts = vals.slice(0, -1).filter((v, i) => {
      const next = vals[i + 1];
      return next !== undefined && v < next;
    });
    if (!cuts.length) return undefined;
    const at = this.rng.pick(cuts);
    let t: number;
    const up = this.rng.chance(0.75);
    if (g.form.fn === 'COUNT') t = at;
    else {
      const p = this.store.prop(defined(g.form.value, 'aggregated relation').prop);
      const step = roundStep(p, at);
      t = Number((Math.floor(at / step) * step).toFixed(6));
    }
    const cmp: CmpOp = up ? (g.form.fn === 'COUNT' && this.rng.chance(0.3) ? 'GE' : 'GT') : 'LT';
    const value = cmp === 'GE' ? t + 1 : cmp === 'LT' ? (g.form.fn === 'COUNT' ? t + 1 : t) : t;
    const form: SForm = { op: 'having', arg: g.form, cmp, value: lit(value) };
    const rows = await this.tableRows(form);
    return rows && rows.length > 0 && rows.length < g.rows.length ? form : undefined;
  }

  /**
   * Ordered answers: (LIMIT k (DESC x r)) "the three … with the highest …", (LIMIT k (OFFSET o (DESC x r))) "the 6th
   * to 10th …", (ASC x r) a list in order, and (LIMIT k (DESC (GROUPCOUNT x r))) "the three … with the most …".
   * Enough rows for the window.
   */
  private async topkForm(): Promise<SForm | undefined> {
    const rng = this.rng;
    const desc = rng.chance(0.65);
    // k ≥ 2: "the product with the highest price" is ARGMAX's question (ties kept), not a top-1 list
    const k = rng.weighted([2, 3, 4, 5, 10], (x) => ({ 2: 2, 3: 5, 4: 1, 5: 3, 10: 2 })[x] ?? 0);
    if (rng.chance(0.3)) {
      const g = await this.groupForm(k + 1);
      if (!g) return undefined;
      return { op: 'slice', offset: false, n: k, arg: { op: 'order', desc, arg: g.form } };
    }
    const ones = this.valueProps.filter((p) => p.functional);
    if (!ones.length) return undefined;
    const r = this.pickProp(ones);
    const typed = this.classOf(r.domain);
    const base = typed && rng.chance(0.6) ? await this.set({ op: 'cls', name: typed.name, iri: typed.iri }, 2, 20000) : await this.valuedSet(r, 2);
    if (!base) return undefined;
    const ordered: SForm = { op: 'order', desc, arg: base.form, rel: rel(r, false) };
    const kind = rng.next();
    let form: SForm;
    let need: number;
    if (kind < 0.15) {
      form = ordered; // the whole (small) list in order
      need = 2;
    } else if (kind < 0.32) {
      const o = rng.pick([k, 5, 10]);
      form = { op: 'slice', offset: false, n: k, arg: { op: 'slice', offset: true, n: o, arg: ordered } };
      need = o + k;
    } else {
      form = { op: 'slice', offset: false, n: k, arg: ordered };
      need = k + 1;
    }
    const rows = await this.tableRows(form);
    if (!rows) return undefined;
    const all = await this.tableRows(ordered);
    if (!all || all.length < need || (form === ordered && all.length > 40)) return undefined;
    return rows.length ? form : undefined;
  }

  /** (AND x (GT a b)) "… whose width is greater than their height", or a difference column (TABLE x (MINUS a b)). */
  private async attrCompareForm(): Promise<SForm | undefined> {
    const pairs = this.attrPairs();
    if (!pairs.length) return undefined;
    const [a0, b0] = this.rng.pick(pairs);
    const [a, b] = this.rng.chance(0.5) ? [a0, b0] : [b0, a0];
    const typed = this.classOf(a.domain.filter((d) => b.domain.includes(d)));
    const base = typed && this.rng.chance(0.6) ? await this.set({ op: 'cls', name: typed.name, iri: typed.iri }, 2, 20000) : await this.valuedSet(a, 2);
    if (!base) return undefined;
    if (this.rng.chance(0.3)) {
      const form: SForm = { op: 'table', arg: base.form, cols: [{ minus: [rel(a, false), rel(b, false)] }] };
      const rows = await this.tableRows(form);
      return rows && rows.length > 0 && rows.length <= 300 ? form : undefined;
    }
    const cmp: CmpOp = this.rng.pick(['GT', 'GT', 'LT', 'LT', 'GE', 'LE']);
    return (await this.set({ op: 'and', a: base.form, b: { op: 'attrcmp', cmp, rel: rel(a, false), other: rel(b, false) } }))?.form;
  }

  /**
   * (MORE (COUNT A) (COUNT B)) / (LESS …): two sets reached one way from two entities ("are there more employees in
   * Sales than in Support"), or an aggregate of the same value over both; true and false about equally often.
   */
  private async countCompareForm(): Promise<SForm | undefined> {
    const rng = this.rng;
    const less = rng.chance(0.4);
    const classes = this.store.schema.classes.filter((c) => c.count > 0);
    if (classes.length >= 2 && rng.chance(0.12)) {
      const [c1, c2] = rng.shuffle([...classes]);
      if (!c1 || !c2 || c1.count === c2.count) return undefined;
      return { op: 'more', less, a: { op: 'count', arg: { op: 'cls', name: c1.name, iri: c1.iri } }, b: { op: 'count', arg: { op: 'cls', name: c2.name, iri: c2.iri } } };
    }
    const p = this.pickProp(this.entityProps);
    const side = rng.chance(0.7) ? 'object' : 'subject';
    const a = await this.pickEntity(p, side);
    const b = await this.pickEntity(p, side);
    if (!a || !b || a.iri === b.iri || a.label.toLowerCase() === b.label.toLowerCase()) return undefined;
    const r = rel(p, side === 'subject');
    const sa: SForm = { op: 'join', rel: r, arg: ent(a) };
    const sb: SForm = { op: 'join', rel: r, arg: ent(b) };
    const ma = await this.set(sa, 1);
    const mb = await this.set(sb, 1);
    if (!ma || !mb || !ma.items.every((i) => i.type === 'uri')) return undefined;
    if (side === 'object' && rng.chance(0.3)) {
      // an aggregate of one numeric attribute of both sets' members: "is the average salary in Sales higher than in Support"
      const m = rng.pick(ma.items);
      const vals = (await this.store.edges(m.value)).filter((e) => e.out && isValued(e.prop) && e.prop.functional && e.prop.valueKind === 'number');
      if (!vals.length) return undefined;
      const v = rel(rng.pick(vals).prop, true);
      const fn = rng.pick(['AVG', 'AVG', 'MAX', 'MIN'] as const);
      return { op: 'more', less, a: { op: 'agg', fn, arg: { op: 'join', rel: v, arg: sa } }, b: { op: 'agg', fn, arg: { op: 'join', rel: v, arg: sb } } };
    }
    if (ma.items.length === mb.items.length) return undefined;
    return { op: 'more', less, a: { op: 'count', arg: sa }, b: { op: 'count', arg: sb } };
  }

  /** A word of a member's label that some members share: (AND x (CONTAINS [ word ])), the word as the label writes it, lower-cased. */
  private async containsForm(): Promise<SForm | undefined> {
    const base = await this.rowSet(3, 20000, 0.6);
    if (!base) return undefined;
    const m = this.rng.pick(base.items);
    const label = await this.store.labelOf(m);
    if (!label) return undefined;
    const words = label.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3 && /\p{L}/u.test(w) && !STOP.has(w.toLowerCase()));
    if (!words.length) return undefined;
    const w = this.rng.pick(words).toLowerCase();
    const set = await this.set({ op: 'and', a: base.form, b: { op: 'contains', text: w } }, 1);
    // a word that names the whole set says nothing
    return set && set.items.length < base.items.length ? set.form : undefined;
  }

  /**
   * (PERCENT (AND x c) x): the share of a class or set that meets a condition — a comparison of a numeric
   * attribute with a round value, one of the members' own relations, two attributes compared, a name word.
   */
  private async percentForm(): Promise<SForm | undefined> {
    const base = await this.rowSet(4, 20000, 0.7);
    if (!base) return undefined;
    const m = this.rng.pick(base.items);
    if (m.type !== 'uri') return undefined;
    const own = this.ownRels(base.form);
    const edges = (await this.store.edges(m.value)).filter((e) => e.out && !own.has(e.prop.name));
    const r = this.rng.next();
    let cond: SForm | undefined;
    const valued = edges.flatMap((e) => (isValued(e.prop) && e.other.num !== undefined ? [{ e, num: e.other.num }] : []));
    if (r < 0.55 && valued.length) {
      const { e, num } = this.rng.pick(valued);
      const step = roundStep(e.prop, num);
      const t = Number((Math.round(num / step) * step).toFixed(6));
      cond = { op: 'cmp', cmp: this.rng.pick(['GT', 'LT', 'GE', 'LE'] as const), rel: rel(e.prop, false), value: lit(t) };
    } else if (r < 0.85) {
      const cs = await this.constraints(m, base.form, true);
      cond = cs.length ? this.rng.pick(cs) : undefined;
    } else {
      const pairs = this.attrPairs().filter(([a, b]) => edges.some((e) => e.prop === a) && edges.some((e) => e.prop === b));
      if (pairs.length) {
        const [a, b] = this.rng.pick(pairs);
        cond = { op: 'attrcmp', cmp: this.rng.pick(['GT', 'LT'] as const), rel: rel(a, false), other: rel(b, false) };
      }
    }
    if (!cond) return undefined;
    const part = await this.set({ op: 'and', a: base.form, b: cond }, 1);
    if (!part || part.items.length === base.items.length) return undefined;
    return { op: 'ratio', pct: true, a: part.form, b: base.form };
  }

  async sample(op: SynthOperator): Promise<Sampled | undefined> {
    let f: SForm | undefined;
    try {
      f = await this.sampleForm(op);
    } catch {
      return undefined; // a query of the sampler failed or timed out: this attempt is lost, not the run
    }
    if (!f) return undefined;
    let answer: Value;
    try {
      answer = await this.store.run(f);
    } catch {
      return undefined;
    }
    const answerCount = answer.type === 'set' ? answer.items.length : answer.type === 'table' ? answer.rows.length : 1;
    if ((answer.type === 'set' || answer.type === 'table') && answerCount === 0) return undefined;
    if (answer.type === 'num' && !Number.isFinite(answer.value)) return undefined;
    return { form: f, operator: op, answer, answerCount };
  }

  private async sampleForm(op: SynthOperator): Promise<SForm | undefined> {
    const rng = this.rng;
    switch (op) {
      case 'join1':
        return (await this.join1())?.form;
      case 'join2': {
        const b = await this.join1(1, true);
        return b && (await this.extend(b))?.form;
      }
      case 'join3': {
        const b = await this.join1(1, true);
        const c = b && (await this.extend(b, 200));
        return c && (await this.extend(c))?.form;
      }
      case 'class': {
        const c = rng.pick(this.store.schema.classes.filter((x) => x.count > 0));
        const cls: SForm = { op: 'cls', name: c.name, iri: c.iri };
        // a class constraint the relation already implies (the only domain / range) is left out of the form:
        // "shops in X" is (JOIN inTown X) either way; the class itself is asked for ("all shops", "how many towns")
        const implied = (p: SchemaProperty, subjects: boolean) => {
          const side = subjects ? p.domain : p.range;
          return side.length === 1 && side[0] === c.iri;
        };
        const ps = this.entityProps.filter((p) => (p.domain.includes(c.iri) && !implied(p, true)) || (p.range.includes(c.iri) && !implied(p, false)));
        if (!ps.length) {
          // few distinct forms ("all cities", "how many cities"): asked now and then, not in every tenth question
          if (rng.chance(0.7)) return undefined;
          if (c.count > MAX_SET && rng.chance(0.7)) return { op: 'count', arg: cls };
          return rng.chance(0.5) ? cls : { op: 'count', arg: cls };
        }
        const p = rng.pick(ps);
        const answerSubjects = p.domain.includes(c.iri) && !implied(p, true) && (!p.range.includes(c.iri) || rng.chance(0.5));
        const e = await this.pickEntity(p, answerSubjects ? 'object' : 'subject');
        if (!e) return undefined;
        return (await this.set({ op: 'and', a: cls, b: { op: 'join', rel: rel(p, !answerSubjects), arg: ent(e) } }))?.form;
      }
      case 'and': {
        if (rng.chance(0.12)) {
          const two = await this.bothChains();
          return two && (await this.set({ op: 'and', a: two[0], b: two[1] }))?.form;
        }
        if (rng.chance(0.15)) {
          const two = await this.twoRoles();
          return two && (await this.set({ op: 'and', a: two[0], b: two[1] }))?.form;
        }
        const b = await this.join1(2, true);
        if (!b) return undefined;
        // "tags shared by X and Y" reads; "the years of both X and Y" (a one-valued relation) does not
        if (b.form.op === 'join' && b.form.rel.inv && this.store.prop(b.form.rel.prop).functional) return undefined;
        const topic = b.form.op === 'join' && b.form.arg.op === 'ent' ? b.form.arg.iri : '';
        const cs = (await this.constraints(rng.pick(b.items), b.form)).filter((c) => !(c.op === 'join' && c.arg.op === 'ent' && c.arg.iri === topic));
        if (!cs.length) return undefined;
        const c = await this.deepen(rng.pick(cs), 0.25);
        const form: SForm = rng.chance(0.5) ? { op: 'and', a: b.form, b: c } : { op: 'and', a: c, b: b.form };
        return (await this.set(form))?.form;
      }
      case 'count': {
        const kind = rng.next();
        let b: SetForm | undefined;
        if (kind < 0.6) b = await this.join1(1, true);
        else if (kind < 0.8) {
          const a = await this.join1(2, true);
          const cs = a ? await this.constraints(rng.pick(a.items), a.form) : [];
          b = a && cs.length ? await this.set({ op: 'and', a: a.form, b: rng.pick(cs) }) : undefined;
        } else if (kind < 0.9 || !this.valueProps.length) {
          const a = await this.join1(1, true);
          b = a && (await this.extend(a));
        } else b = await this.compare(false); // "how many restaurants in X are rated above 4"
        // counts of things, not of distinct literal values, nor of a one-valued relation ("how many years of X")
        if (!b?.items.every((i) => i.type === 'uri')) return undefined;
        if (b.form.op === 'join' && b.form.rel.inv && this.store.prop(b.form.rel.prop).functional) return undefined;
        return { op: 'count', arg: b.form };
      }
      case 'argmax':
      case 'argmin': {
        const r = this.pickProp(this.valueProps);
        const b0 = await this.valuedSet(r);
        const b = b0 && (await this.narrow(b0, r, 0.3));
        return b && { op: 'arg', max: op === 'argmax', arg: b.form, rel: rel(r, false) };
      }
      case 'compare':
        return (await this.compare(false))?.form;
      case 'range':
        return (await this.compare(true))?.form;
      case 'ask': {
        if (this.valueProps.length && rng.chance(0.2)) {
          // "is X rated above 4", "was X released before 1990": a value against a round constant, true or false
          const r = this.pickProp(this.valueProps);
          const e = await this.pickEntity(r, 'subject');
          if (!e) return undefined;
          const v = (await this.store.valuesOf({ value: e.iri, label: e.label, type: 'uri' }, rel(r, false)))[0]?.num;
          if (v === undefined) return undefined;
          const step = roundStep(r, v);
          const t = Number((Math.round(v / step + (rng.chance(0.5) ? 0.5 : -0.5)) * step).toFixed(6));
          if (t === v) return undefined;
          return { op: 'ask', arg: { op: 'and', a: ent(e), b: { op: 'cmp', cmp: rng.pick(['GT', 'LT'] as const), rel: rel(r, false), value: lit(t) } } };
        }
        const b = await this.join1(1, true);
        if (b?.form.op !== 'join') return undefined;
        let member: SForm | undefined;
        if (rng.chance(0.5)) {
          const m = rng.pick(b.items);
          await this.store.labelOf(m);
          member = itemEnt(m);
        }
        else {
          // a plausible non-member: same kind of thing (same end of the same relation), not in the set
          const p = this.store.prop(b.form.rel.prop);
          const pool = await this.pool(p, b.form.rel.inv ? 'object' : 'subject');
          const inSet = new Set(b.items.map((i) => i.value));
          const out = pool.filter((e) => !inSet.has(e.iri));
          member = out.length ? ent(rng.pick(out)) : undefined;
        }
        if (!member) return undefined;
        // one form per fact: "is Heat a thriller" is (ASK (AND [Heat] (JOIN has_genre [Thriller]))), never the inverted twin
        if (b.form.rel.inv) return { op: 'ask', arg: { op: 'and', a: b.form.arg, b: { op: 'join', rel: { ...b.form.rel, inv: false }, arg: member } } };
        return { op: 'ask', arg: { op: 'and', a: member, b: b.form } };
      }
      case 'diff': {
        if (rng.chance(0.1)) {
          const two = await this.bothChains();
          return two && (await this.set({ op: 'diff', a: two[0], b: two[1] }))?.form;
        }
        if (rng.chance(0.3)) {
          const two = await this.twoRoles();
          return two && (await this.set({ op: 'diff', a: two[0], b: two[1] }))?.form;
        }
        const b = await this.join1(2, true);
        if (!b) return undefined;
        const cs = await this.constraints(rng.pick(b.items), b.form, true);
        if (!cs.length) return undefined;
        return (await this.set({ op: 'diff', a: b.form, b: rng.pick(cs) }))?.form;
      }
      case 'aggregate': {
        const r = this.pickProp(this.valueProps);
        const b = await this.valuedSet(r, 2);
        if (!b) return undefined;
        // totals only of amounts, not of a rating scale
        const scale = this.lexicon?.properties[r.name]?.scale;
        const fns = r.valueKind === 'number' ? (scale ? (['AVG', 'AVG', 'MAX', 'MIN'] as const) : (['AVG', 'AVG', 'SUM', 'MAX', 'MIN'] as const)) : (['MAX', 'MIN', 'AVG'] as const);
        return { op: 'agg', fn: rng.pick(fns), arg: { op: 'join', rel: rel(r, true), arg: b.form } };
      }
      case 'ratio': {
        const b = await this.join1(3, true);
        if (!b || b.items.length > 500) return undefined;
        const c1 = await this.constraints(rng.pick(b.items), b.form, true);
        if (!c1.length) return undefined;
        const part: SForm = { op: 'and', a: b.form, b: rng.pick(c1) };
        if (rng.chance(0.75)) return { op: 'ratio', pct: true, a: part, b: b.form };
        const c2 = (await this.constraints(rng.pick(b.items), b.form, true)).filter((c) => JSON.stringify(c) !== JSON.stringify((part as { b: SForm }).b));
        return c2.length ? { op: 'ratio', pct: false, a: part, b: { op: 'and', a: b.form, b: rng.pick(c2) } } : undefined;
      }
      case 'mostcommon':
      case 'argmaxcount': {
        const typed = this.store.schema.classes.filter((c) => c.count > 1 && c.count <= 2000);
        let b: SetForm | undefined;
        if (op === 'argmaxcount' && typed.length && rng.chance(0.3)) {
          const c = rng.pick(typed);
          b = await this.set({ op: 'cls', name: c.name, iri: c.iri }, 2, 2000);
        } else b = await this.join1(op === 'mostcommon' ? 3 : 2, true);
        if (!b) return undefined;
        const m = rng.pick(b.items);
        if (m.type !== 'uri') return undefined;
        const edges = (await this.store.edges(m.value)).filter((e) => e.other.type === 'uri' || op === 'argmaxcount');
        const own = b.form.op === 'join' ? b.form.rel : undefined;
        // "most common genre among X's movies": forward relations to category-like values (few distinct objects)
        const usable = edges.filter(
          (e) =>
            own?.prop !== e.prop.name &&
            (op === 'argmaxcount'
              ? !(e.out && (e.prop.functional || isValued(e.prop)))
              : // most common category ("genre"), or the person who acts most ("who directed the most of X's movies")
                e.out && (e.prop.objects <= Math.max(50, e.prop.subjects / 5) || this.lexicon?.properties[e.prop.name]?.wh === 'who')),
        );
        if (!usable.length) return undefined;
        const r = relOf(rng.pick(usable));
        if (op === 'mostcommon') return { op: 'common', most: rng.chance(0.8), arg: b.form, rel: r };
        return { op: 'argcount', max: rng.chance(0.75), arg: b.form, rel: r };
      }
      case 'table':
        return this.tableForm();
      case 'group':
        return (await this.groupForm())?.form;
      case 'having':
        return this.havingForm();
      case 'topk':
        return this.topkForm();
      case 'attrcompare':
        return this.attrCompareForm();
      case 'countcompare':
        return this.countCompareForm();
      case 'contains':
        return this.containsForm();
      case 'percent':
        return this.percentForm();
      case 'compare2': {
        if (this.valueProps.length && rng.chance(0.7)) {
          if (rng.chance(0.45)) return this.absdiff();
          const r = this.pickProp(this.valueProps);
          const a = await this.pickEntity(r, 'subject');
          const b = await this.pickEntity(r, 'subject');
          if (!a || !b || a.iri === b.iri) return undefined;
          const va = (await this.store.valuesOf({ value: a.iri, label: a.label, type: 'uri' }, rel(r, false)))[0]?.num;
          const vb = (await this.store.valuesOf({ value: b.iri, label: b.label, type: 'uri' }, rel(r, false)))[0]?.num;
          if (va === undefined || vb === undefined || va === vb) return undefined;
          const arg: SForm = { op: 'arg', max: rng.chance(0.5), arg: { op: 'or', a: ent(a), b: ent(b) }, rel: rel(r, false) };
          // "is A newer than B": true iff A is the winner of the two
          return rng.chance(0.4) ? { op: 'ask', arg: { op: 'and', a: ent(a), b: arg } } : arg;
        }
        const p = this.pickProp(this.entityProps);
        const side = rng.chance(0.5) ? 'subject' : 'object';
        const a = await this.pickEntity(p, side);
        const b = await this.pickEntity(p, side);
        if (!a || !b || a.iri === b.iri) return undefined;
        const r = rel(p, side === 'object');
        const na = (await this.store.valuesOf({ value: a.iri, label: a.label, type: 'uri' }, r)).length;
        const nb = (await this.store.valuesOf({ value: b.iri, label: b.label, type: 'uri' }, r)).length;
        if (na === nb) return undefined;
        return { op: 'argcount', max: rng.chance(0.7), arg: { op: 'or', a: ent(a), b: ent(b) }, rel: r };
      }
    }
  }
}
