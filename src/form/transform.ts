import { Form, Ref, Relation } from '../core';
import { printForm } from './print';

/** Rewrites of the refs in a form (grounding replaces labels by IRIs this way). */
export interface RefMapper {
  entity?: (ref: Ref) => Ref;
  relation?: (ref: Ref) => Ref;
  cls?: (ref: Ref) => Ref;
}

export function mapRelation(rel: Relation, f: (ref: Ref) => Ref): Relation {
  switch (rel.kind) {
    case 'rel':
      return { kind: 'rel', ref: f(rel.ref) };
    case 'reverse':
      return { kind: 'reverse', of: mapRelation(rel.of, f) };
    case 'chain':
      return { kind: 'chain', first: mapRelation(rel.first, f), then: mapRelation(rel.then, f) };
  }
}

export function mapRefs(form: Form, m: RefMapper): Form {
  const rel = (r: Relation): Relation => (m.relation ? mapRelation(r, m.relation) : r);
  switch (form.kind) {
    case 'entity':
      return m.entity ? { kind: 'entity', ref: m.entity(form.ref) } : form;
    case 'class':
      return m.cls ? { kind: 'class', ref: m.cls(form.ref) } : form;
    case 'literal':
      return form;
    case 'join':
      return { kind: 'join', relation: rel(form.relation), arg: mapRefs(form.arg, m) };
    case 'and':
      return { kind: 'and', args: [mapRefs(form.args[0], m), mapRefs(form.args[1], m)] };
    case 'count':
      return { kind: 'count', arg: mapRefs(form.arg, m) };
    case 'arg':
      return { kind: 'arg', op: form.op, arg: mapRefs(form.arg, m), relation: rel(form.relation) };
    case 'compare':
      return { kind: 'compare', op: form.op, relation: rel(form.relation), value: form.value };
    case 'tc':
      return { kind: 'tc', arg: mapRefs(form.arg, m), relation: rel(form.relation), value: form.value };
  }
}

/** Entity refs in left-to-right order (duplicates kept: each occurrence is a slot). */
export function entityRefs(form: Form): Ref[] {
  const out: Ref[] = [];
  mapRefs(form, { entity: (r) => (out.push(r), r) });
  return out;
}

/** Relation refs (the leaves of every relation, R and chains unfolded) in left-to-right order. */
export function relationRefs(form: Form): Ref[] {
  const out: Ref[] = [];
  mapRefs(form, { relation: (r) => (out.push(r), r) });
  return out;
}

export function classRefs(form: Form): Ref[] {
  const out: Ref[] = [];
  mapRefs(form, { cls: (r) => (out.push(r), r) });
  return out;
}

/** Flattens nested ANDs (associative) into their operands. */
function andOperands(form: Form): Form[] {
  return form.kind === 'and' ? [...andOperands(form.args[0]), ...andOperands(form.args[1])] : [form];
}

/**
 * The canonical normal form for comparing forms: AND is commutative and associative, so its operands
 * are flattened, normalised, ordered by their printed text and rebuilt right-nested.
 */
export function normalizeForm(form: Form): Form {
  switch (form.kind) {
    case 'and': {
      const ops = andOperands(form)
        .map(normalizeForm)
        .map((f) => ({ f, key: printForm(f) }))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        .map((x) => x.f);
      let acc = ops[ops.length - 1]!;
      for (let i = ops.length - 2; i >= 0; i--) acc = { kind: 'and', args: [ops[i]!, acc] };
      return acc;
    }
    case 'join':
      return { ...form, arg: normalizeForm(form.arg) };
    case 'count':
      return { ...form, arg: normalizeForm(form.arg) };
    case 'arg':
      return { ...form, arg: normalizeForm(form.arg) };
    case 'tc':
      return { ...form, arg: normalizeForm(form.arg) };
    default:
      return form;
  }
}

export function canonicalText(form: Form): string {
  return printForm(normalizeForm(form));
}

/** Equal after normalisation (AND order, printing). */
export function formsEqual(a: Form, b: Form): boolean {
  return canonicalText(a) === canonicalText(b);
}

/** The skeleton: entities, relations, classes and literals replaced by `[]` (structure and R kept), AND operands ordered. */
export function skeleton(form: Form): string {
  switch (form.kind) {
    case 'entity':
    case 'class':
    case 'literal':
      return '[]';
    case 'join':
      return `(JOIN ${relationSkeleton(form.relation)} ${skeleton(form.arg)})`;
    case 'and': {
      const ops = andOperands(form).map(skeleton).sort();
      return ops.reduceRight((acc, op) => `(AND ${op} ${acc})`);
    }
    case 'count':
      return `(COUNT ${skeleton(form.arg)})`;
    case 'arg':
      return `(${form.op} ${skeleton(form.arg)} ${relationSkeleton(form.relation)})`;
    case 'compare':
      return `(${form.op} ${relationSkeleton(form.relation)} [])`;
    case 'tc':
      return `(TC ${skeleton(form.arg)} ${relationSkeleton(form.relation)} [])`;
  }
}

function relationSkeleton(rel: Relation): string {
  switch (rel.kind) {
    case 'rel':
      return '[]';
    case 'reverse':
      return `(R ${relationSkeleton(rel.of)})`;
    case 'chain':
      return `(JOIN ${relationSkeleton(rel.first)} ${relationSkeleton(rel.then)})`;
  }
}
