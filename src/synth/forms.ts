/**
 * The forms the sampler builds, as a small tree that knows the schema items behind its names, printed
 * two ways: for execution (entities, relations and classes as IRIs, so a sampled form means exactly
 * what was sampled) and for the training pair (bare relation / class names of the schema, entities as
 * `[ mention ]` — the span of the question that names them). Syntax: the form language of the BRIEF
 * (grammar/logical-form.ebnf, version 2 operators ASK DIFF OR AVG SUM MAX MIN RATIO PERCENT MOSTCOMMON
 * LEASTCOMMON ARGMAXCOUNT ARGMINCOUNT, and ABSDIFF; version 3, answers as tables: TABLE, GROUPCOUNT … GROUPMIN,
 * HAVING, ASC / DESC, LIMIT / OFFSET, attribute comparisons (GT r1 r2), MORE / LESS, CONTAINS).
 */
import { printLiteral } from '../form';
import type { Literal } from '../core';

export interface SRel {
  prop: string; // SchemaProperty.name
  iri: string;
  inv: boolean; // (R r)
}

export type SForm =
  | { op: 'ent'; iri: string; label: string }
  | { op: 'cls'; name: string; iri: string }
  | { op: 'join'; rel: SRel; arg: SForm }
  | { op: 'and'; a: SForm; b: SForm }
  | { op: 'or'; a: SForm; b: SForm }
  | { op: 'diff'; a: SForm; b: SForm }
  | { op: 'count'; arg: SForm }
  | { op: 'ask'; arg: SForm }
  | { op: 'arg'; max: boolean; arg: SForm; rel: SRel }
  | { op: 'argcount'; max: boolean; arg: SForm; rel: SRel }
  | { op: 'cmp'; cmp: 'GT' | 'GE' | 'LT' | 'LE'; rel: SRel; value: Literal }
  | { op: 'agg'; fn: 'AVG' | 'SUM' | 'MAX' | 'MIN'; arg: SForm }
  | { op: 'ratio'; pct: boolean; a: SForm; b: SForm }
  | { op: 'common'; most: boolean; arg: SForm; rel: SRel }
  | { op: 'absdiff'; a: SForm; b: SForm } // the sampler puts the larger value first (render.ts absdiffQuestion)
  // ---- v3: tables ----
  | { op: 'table'; arg: SForm; cols: SCol[] } // (TABLE x r1 … rn): a row per member, a cell per relation
  | { op: 'group'; fn: GroupFn; arg: SForm; by: SRel; value?: SRel } // (GROUPCOUNT x r) / (GROUPAVG x r v): a row per r-value
  | { op: 'having'; arg: SForm; cmp: CmpOp; value: Literal } // (HAVING g GT 10)
  | { op: 'order'; desc: boolean; arg: SForm; rel?: SRel } // (DESC x r) / (ASC g)
  | { op: 'slice'; offset: boolean; n: number; arg: SForm } // (LIMIT 3 t) / (OFFSET 5 t)
  | { op: 'attrcmp'; cmp: CmpOp; rel: SRel; other: SRel } // (GT width height): members whose first value compares to their second
  | { op: 'more'; less: boolean; a: SForm; b: SForm } // (MORE n1 n2): number against number, a boolean
  | { op: 'contains'; rel?: SRel; text: string }; // (CONTAINS [ word ]): members whose label (or r-value) contains the word

export type CmpOp = 'GT' | 'GE' | 'LT' | 'LE';
export type GroupFn = 'COUNT' | 'SUM' | 'AVG' | 'MAX' | 'MIN';
/** A TABLE column: a relation of the member, or the difference of two of its values. */
export type SCol = SRel | { minus: [SRel, SRel] };

export type Mentions = Map<string, string>; // entity IRI → mention text

function rel(r: SRel, exec: boolean): string {
  const base = exec ? `<${r.iri}>` : r.prop;
  return r.inv ? `(R ${base})` : base;
}

function label(text: string): string {
  return `[ ${text.replace(/\\/g, '\\\\').replace(/\]/g, '\\]')} ]`;
}

/** Prints a form; `mentions` given → output form (names, `[ mention ]`), else the execution form (IRIs). */
export function printSForm(f: SForm, mentions?: Mentions): string {
  const exec = mentions === undefined;
  const p = (x: SForm): string => printSForm(x, mentions);
  switch (f.op) {
    case 'ent':
      return exec ? `<${f.iri}>` : label(mentions.get(f.iri) ?? f.label);
    case 'cls':
      return exec ? `@<${f.iri}>` : f.name;
    case 'join':
      return `(JOIN ${rel(f.rel, exec)} ${p(f.arg)})`;
    case 'and':
      return `(AND ${p(f.a)} ${p(f.b)})`;
    case 'or':
      return `(OR ${p(f.a)} ${p(f.b)})`;
    case 'diff':
      return `(DIFF ${p(f.a)} ${p(f.b)})`;
    case 'count':
      return `(COUNT ${p(f.arg)})`;
    case 'ask':
      return `(ASK ${p(f.arg)})`;
    case 'arg':
      return `(${f.max ? 'ARGMAX' : 'ARGMIN'} ${p(f.arg)} ${rel(f.rel, exec)})`;
    case 'argcount':
      return `(${f.max ? 'ARGMAXCOUNT' : 'ARGMINCOUNT'} ${p(f.arg)} ${rel(f.rel, exec)})`;
    case 'cmp':
      return `(${f.cmp} ${rel(f.rel, exec)} ${printLiteral(f.value)})`;
    case 'agg':
      return `(${f.fn} ${p(f.arg)})`;
    case 'ratio':
      return `(${f.pct ? 'PERCENT' : 'RATIO'} ${p(f.a)} ${p(f.b)})`;
    case 'common':
      return `(${f.most ? 'MOSTCOMMON' : 'LEASTCOMMON'} ${p(f.arg)} ${rel(f.rel, exec)})`;
    case 'absdiff':
      return `(ABSDIFF ${p(f.a)} ${p(f.b)})`;
    case 'table':
      return `(TABLE ${p(f.arg)} ${f.cols.map((c) => ('minus' in c ? `(MINUS ${rel(c.minus[0], exec)} ${rel(c.minus[1], exec)})` : rel(c, exec))).join(' ')})`;
    case 'group':
      return `(GROUP${f.fn} ${p(f.arg)} ${rel(f.by, exec)}${f.value ? ' ' + rel(f.value, exec) : ''})`;
    case 'having':
      return `(HAVING ${p(f.arg)} ${f.cmp} ${printLiteral(f.value)})`;
    case 'order':
      return `(${f.desc ? 'DESC' : 'ASC'} ${p(f.arg)}${f.rel ? ' ' + rel(f.rel, exec) : ''})`;
    case 'slice':
      return `(${f.offset ? 'OFFSET' : 'LIMIT'} ${f.n} ${p(f.arg)})`;
    case 'attrcmp':
      return `(${f.cmp} ${rel(f.rel, exec)} ${rel(f.other, exec)})`;
    case 'more':
      return `(${f.less ? 'LESS' : 'MORE'} ${p(f.a)} ${p(f.b)})`;
    case 'contains':
      // [38] the text is a bracketed span in both forms: the decoder copies it from the question like a label
      return `(CONTAINS ${f.rel ? rel(f.rel, exec) + ' ' : ''}${label(f.text)})`;
  }
}

/** Entities of a form, left to right (each once). */
export function entitiesOf(f: SForm, out: { iri: string; label: string }[] = []): { iri: string; label: string }[] {
  switch (f.op) {
    case 'ent':
      if (!out.some((e) => e.iri === f.iri)) out.push({ iri: f.iri, label: f.label });
      break;
    case 'cls':
    case 'cmp':
    case 'attrcmp':
    case 'contains':
      break;
    case 'join':
    case 'table':
    case 'group':
    case 'having':
    case 'order':
    case 'slice':
    case 'count':
    case 'ask':
    case 'arg':
    case 'argcount':
    case 'agg':
    case 'common':
      entitiesOf(f.arg, out);
      break;
    default:
      entitiesOf(f.a, out);
      entitiesOf(f.b, out);
  }
  return out;
}

/**
 * The conjuncts of every AND in the order the question mentions them (first-mentioned first), so that one
 * question shape has one target: "comedies by Spielberg" and "Spielberg's comedies" get their conjuncts in
 * the order of their words. Conjuncts without entities keep their place; the fixed shapes of ASK
 * membership (member first) and PERCENT (part = whole AND constraint) are left as they are.
 */
export function orderByMentions(f: SForm, position: (iri: string) => number): SForm {
  const first = (g: SForm): number => {
    const es = entitiesOf(g);
    return es.length ? Math.min(...es.map((e) => position(e.iri))) : -1;
  };
  const rec = (g: SForm, fixed: boolean): SForm => {
    switch (g.op) {
      case 'ent':
      case 'cls':
      case 'cmp':
      case 'attrcmp':
      case 'contains':
        return g;
      case 'and': {
        const a = rec(g.a, false);
        const b = rec(g.b, false);
        if (!fixed) {
          const pa = first(a);
          const pb = first(b);
          if (pa >= 0 && pb >= 0 && pb < pa) return { op: 'and', a: b, b: a };
        }
        return { op: 'and', a, b };
      }
      case 'ask':
        return { ...g, arg: rec(g.arg, true) };
      case 'ratio':
        return { ...g, a: rec(g.a, g.pct), b: rec(g.b, false) };
      case 'or':
      case 'diff':
        return { ...g, a: rec(g.a, false), b: rec(g.b, false) };
      case 'more':
        // MORE / LESS are not symmetric: the operands keep their order (the question says which is compared to which)
        return { ...g, a: rec(g.a, false), b: rec(g.b, false) };
      case 'table':
      case 'group':
      case 'having':
      case 'order':
      case 'slice':
        return { ...g, arg: rec(g.arg, false) };
      case 'absdiff': {
        // |a − b| = |b − a|: the operand mentioned first goes first ("how much older is B than A" → (ABSDIFF B A))
        const a = rec(g.a, false);
        const b = rec(g.b, false);
        const pa = first(a);
        const pb = first(b);
        return pa >= 0 && pb >= 0 && pb < pa ? { op: 'absdiff', a: b, b: a } : { op: 'absdiff', a, b };
      }
      case 'join':
      case 'count':
      case 'arg':
      case 'argcount':
      case 'agg':
      case 'common':
        return { ...g, arg: rec(g.arg, false) };
    }
  };
  return rec(f, false);
}
