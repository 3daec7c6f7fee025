import { AnswerType, Column, Form, Ref, Relation, itemAt } from '../core';
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

/** The form with each direct sub-form replaced by f(sub-form), left to right; leaves are returned as they are. */
export function mapChildren(form: Form, f: (child: Form) => Form): Form {
  switch (form.kind) {
    case 'entity':
    case 'class':
    case 'literal':
    case 'compare':
    case 'has':
    case 'attrcompare':
    case 'contains':
      return form;
    case 'table':
    case 'group':
    case 'having':
    case 'order':
    case 'slice':
    case 'join':
    case 'count':
    case 'arg':
    case 'tc':
    case 'ask':
    case 'aggregate':
    case 'common':
    case 'argcount':
      return { ...form, arg: f(form.arg) };
    case 'and':
    case 'diff':
    case 'or':
    case 'ratio':
    case 'arith':
    case 'more': {
      const first = f(form.args[0]);
      return { ...form, args: [first, f(form.args[1])] };
    }
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
    case 'ask':
      return { kind: 'ask', arg: mapRefs(form.arg, m) };
    case 'diff':
    case 'or':
      return { kind: form.kind, args: [mapRefs(form.args[0], m), mapRefs(form.args[1], m)] };
    case 'aggregate':
      return { kind: 'aggregate', op: form.op, arg: mapRefs(form.arg, m) };
    case 'ratio':
      return { kind: 'ratio', op: form.op, args: [mapRefs(form.args[0], m), mapRefs(form.args[1], m)] };
    case 'arith':
      return { kind: 'arith', op: form.op, args: [mapRefs(form.args[0], m), mapRefs(form.args[1], m)] };
    case 'common':
      return { kind: 'common', op: form.op, arg: mapRefs(form.arg, m), relation: rel(form.relation) };
    case 'argcount':
      return { kind: 'argcount', op: form.op, arg: mapRefs(form.arg, m), relation: rel(form.relation) };
    case 'has':
      return { kind: 'has', relation: rel(form.relation) };
    case 'table':
      return { kind: 'table', arg: mapRefs(form.arg, m), columns: form.columns.map((c) => mapColumn(c, rel)) };
    case 'group':
      return { ...form, arg: mapRefs(form.arg, m), by: rel(form.by), ...(form.value ? { value: rel(form.value) } : {}) };
    case 'having':
    case 'slice':
      return { ...form, arg: mapRefs(form.arg, m) };
    case 'order':
      return { ...form, arg: mapRefs(form.arg, m), ...(form.relation ? { relation: rel(form.relation) } : {}) };
    case 'attrcompare':
      return { ...form, relation: rel(form.relation), other: rel(form.other) };
    case 'more':
      return { kind: 'more', op: form.op, args: [mapRefs(form.args[0], m), mapRefs(form.args[1], m)] };
    case 'contains':
      return form.relation ? { ...form, relation: rel(form.relation) } : form;
  }
}

export function mapColumn(col: Column, f: (r: Relation) => Relation): Column {
  return col.kind === 'minus' ? { kind: 'minus', args: [f(col.args[0]), f(col.args[1])] } : f(col);
}

/**
 * The answer type of a form: ASK and MORE / LESS are a boolean; COUNT, AVG/SUM/MAX/MIN, RATIO/PERCENT and ABSDIFF
 * are one number (MAX/MIN of dates: one date); TABLE, the GROUP aggregates, HAVING, ASC/DESC and LIMIT/OFFSET are
 * a table (rows of cells); everything else denotes a set of entities or values.
 */
export function answerTypeOf(form: Form): AnswerType {
  switch (form.kind) {
    case 'ask':
    case 'more':
      return 'boolean';
    case 'table':
    case 'group':
    case 'having':
    case 'order':
    case 'slice':
      return 'table';
    case 'count':
    case 'aggregate':
    case 'ratio':
    case 'arith':
      return 'number';
    default:
      return 'entities';
  }
}

/** The direct sub-forms of a form, left to right (every one an operand that must denote a set). */
export function children(form: Form): Form[] {
  const out: Form[] = [];
  mapChildren(form, (c) => (out.push(c), c));
  return out;
}

/**
 * Type errors of a form: a number, a boolean or a table where a set is expected — they may only stand outermost,
 * except where an operator takes them ([33]–[37]): HAVING takes a GROUP table (or a HAVING of one); ASC / DESC a
 * set, or without a relation a TABLE / GROUP / HAVING table; LIMIT / OFFSET an ordered table (ASC / DESC, or a
 * LIMIT / OFFSET of one); MORE / LESS two numbers. Empty when the form is well typed.
 */
export function typeErrors(form: Form): string[] {
  const out: string[] = [];
  const walk = (f: Form): void => {
    const kids = children(f);
    kids.forEach((arg) => {
      const t = answerTypeOf(arg);
      const need = operandNeed(f);
      if (need === 'set' && t !== 'entities') out.push(`${printForm(arg)} is a ${t}, but ${opName(f)} needs a set`);
      else if (need === 'number' && t !== 'number') out.push(`${printForm(arg)} is ${t === 'entities' ? 'a set' : `a ${t}`}, but ${opName(f)} needs a number`);
      else if (need === 'grouped' && arg.kind !== 'group' && arg.kind !== 'having') out.push(`${printForm(arg)} is not a GROUP table, but HAVING needs one`);
      else if (need === 'ordered' && arg.kind !== 'order' && arg.kind !== 'slice') out.push(`${printForm(arg)} is not ordered, but ${opName(f)} needs an ASC / DESC table`);
      else if (need === 'orderable' && t !== 'entities' && !(t === 'table' && (arg.kind === 'table' || arg.kind === 'group' || arg.kind === 'having')))
        out.push(`${printForm(arg)} is a ${t}, but ${opName(f)} needs a set or a TABLE / GROUP table`);
      walk(arg);
    });
    if (f.kind === 'order' && f.relation && answerTypeOf(f.arg) !== 'entities') out.push(`${opName(f)} orders a table by its last column: drop the relation`);
  };
  walk(form);
  return out;
}

/** What an operator needs of one of its operands. */
function operandNeed(parent: Form): 'set' | 'number' | 'grouped' | 'ordered' | 'orderable' {
  switch (parent.kind) {
    case 'more':
      return 'number';
    case 'having':
      return 'grouped';
    case 'slice':
      return 'ordered';
    case 'order':
      return 'orderable';
    default:
      return 'set';
  }
}

function opName(f: Form): string {
  return 'op' in f && typeof f.op === 'string' ? f.op : f.kind.toUpperCase();
}

/** Entity refs in left-to-right order (duplicates kept: each occurrence is a slot). */
export function entityRefs(form: Form): Ref[] {
  const out: Ref[] = [];
  mapRefs(form, { entity: (r) => (out.push(r), r) });
  return out;
}

/**
 * The texts of the form's CONTAINS ([38]) in left-to-right order: spans copied from the question like entity
 * labels, but never entities — grounding leaves them as they are (a substring test on labels / values).
 */
export function containsTexts(form: Form): string[] {
  if (form.kind === 'contains') return [form.text];
  return children(form).flatMap(containsTexts);
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

/** Flattens nested ANDs (or ORs: both associative) into their operands. */
function andOperands(form: Form, kind: 'and' | 'or' = 'and'): Form[] {
  return form.kind === kind ? [...andOperands(form.args[0], kind), ...andOperands(form.args[1], kind)] : [form];
}

/**
 * The canonical normal form for comparing forms: AND is commutative and associative, so its operands
 * are flattened, normalised, ordered by their printed text and rebuilt right-nested.
 */
export function normalizeForm(form: Form): Form {
  switch (form.kind) {
    case 'and': {
      // (AND x (DIFF y z)) = (DIFF (AND x y) z): subtractions move outermost, so both spellings are one form
      const ops = andOperands(form).map(normalizeForm);
      if (!ops.some((f) => f.kind === 'diff')) return sortedChain('and', ops);
      const bases: Form[] = [];
      const subs: Form[] = [];
      for (const f of ops) {
        const p = diffParts(f);
        bases.push(p.base);
        subs.push(...p.subs);
      }
      return diffChain(normalizeForm(sortedChain('and', bases)), subs);
    }
    case 'or':
      return sortedChain('or', andOperands(form, 'or').map(normalizeForm));
    case 'diff': {
      const p = diffParts({ kind: 'diff', args: [normalizeForm(form.args[0]), normalizeForm(form.args[1])] });
      return diffChain(p.base, p.subs);
    }
    case 'ratio':
      return { ...form, args: [normalizeForm(form.args[0]), normalizeForm(form.args[1])] };
    case 'more': {
      // (LESS a b) = (MORE b a): one spelling
      const [a, b] = [normalizeForm(form.args[0]), normalizeForm(form.args[1])];
      return form.op === 'LESS' ? { kind: 'more', op: 'MORE', args: [b, a] } : { kind: 'more', op: 'MORE', args: [a, b] };
    }
    case 'slice': {
      const arg = normalizeForm(form.arg);
      // (OFFSET m (LIMIT k t)) = (LIMIT k−m (OFFSET m t)): the window is always written LIMIT over OFFSET
      if (form.op === 'OFFSET' && arg.kind === 'slice' && arg.op === 'LIMIT') {
        return { kind: 'slice', op: 'LIMIT', n: Math.max(0, arg.n - form.n), arg: { kind: 'slice', op: 'OFFSET', n: form.n, arg: arg.arg } };
      }
      return { ...form, arg };
    }
    case 'having': {
      // nested HAVINGs are one conjunction: their tests are ordered by their text
      const tests: Extract<Form, { kind: 'having' }>[] = [];
      let base: Form = form;
      while (base.kind === 'having') {
        tests.push(base);
        base = base.arg;
      }
      const key = (h: Extract<Form, { kind: 'having' }>): string => `${h.op} ${printForm(h.value)}`;
      tests.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
      return tests.reduce<Form>((acc, h) => ({ kind: 'having', arg: acc, op: h.op, value: h.value }), normalizeForm(base));
    }
    case 'table':
    case 'group':
    case 'order':
      return { ...form, arg: normalizeForm(form.arg) };
    case 'arith': {
      // |a − b| = |b − a|: the operands are ordered by their printed text, so both spellings are one form
      const [a, b] = byText([normalizeForm(form.args[0]), normalizeForm(form.args[1])]) as [Form, Form];
      return { ...form, args: [a, b] };
    }
    case 'ask':
    case 'aggregate':
    case 'common':
    case 'argcount':
      return { ...form, arg: normalizeForm(form.arg) };
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

function byText(fs: Form[]): Form[] {
  return fs
    .map((f) => ({ f, key: printForm(f) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((x) => x.f);
}

/** Operands ordered by their printed text, rebuilt right-nested. */
function sortedChain(kind: 'and' | 'or', operands: Form[]): Form {
  const ops = byText(operands);
  let acc = itemAt(ops, -1, 'chain operands');
  for (let i = ops.length - 2; i >= 0; i--) acc = { kind, args: [itemAt(ops, i, 'chain operands'), acc] };
  return acc;
}

/** (DIFF (DIFF a b) c) → base a, subtractions [b, c] (their order does not matter). */
function diffParts(f: Form): { base: Form; subs: Form[] } {
  if (f.kind !== 'diff') return { base: f, subs: [] };
  const inner = diffParts(f.args[0]);
  return { base: inner.base, subs: [...inner.subs, f.args[1]] };
}

function diffChain(base: Form, subs: Form[]): Form {
  return byText(subs).reduce<Form>((acc, s) => ({ kind: 'diff', args: [acc, s] }), base);
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
    case 'and':
    case 'or': {
      const name = form.kind === 'and' ? 'AND' : 'OR';
      const ops = andOperands(form, form.kind).map(skeleton).sort();
      return ops.reduceRight((acc, op) => `(${name} ${op} ${acc})`);
    }
    case 'diff':
      return `(DIFF ${skeleton(form.args[0])} ${skeleton(form.args[1])})`;
    case 'ratio':
      return `(${form.op} ${skeleton(form.args[0])} ${skeleton(form.args[1])})`;
    case 'arith': {
      const [a, b] = [skeleton(form.args[0]), skeleton(form.args[1])].sort();
      return `(${form.op} ${a} ${b})`;
    }
    case 'ask':
      return `(ASK ${skeleton(form.arg)})`;
    case 'aggregate':
      return `(${form.op} ${skeleton(form.arg)})`;
    case 'common':
    case 'argcount':
      return `(${form.op} ${skeleton(form.arg)} ${relationSkeleton(form.relation)})`;
    case 'has':
      return `(HAS ${relationSkeleton(form.relation)})`;
    case 'table':
      return `(TABLE ${skeleton(form.arg)} ${form.columns.map((c) => (c.kind === 'minus' ? `(MINUS ${relationSkeleton(c.args[0])} ${relationSkeleton(c.args[1])})` : relationSkeleton(c))).join(' ')})`;
    case 'group':
      return `(${form.op} ${skeleton(form.arg)} ${relationSkeleton(form.by)}${form.value ? ' ' + relationSkeleton(form.value) : ''})`;
    case 'having':
      return `(HAVING ${skeleton(form.arg)} ${form.op} [])`;
    case 'order':
      return `(${form.op} ${skeleton(form.arg)}${form.relation ? ' ' + relationSkeleton(form.relation) : ''})`;
    case 'slice':
      return `(${form.op} [] ${skeleton(form.arg)})`;
    case 'attrcompare':
      return `(${form.op} ${relationSkeleton(form.relation)} ${relationSkeleton(form.other)})`;
    case 'more': {
      const [a, b] = form.op === 'LESS' ? [form.args[1], form.args[0]] : form.args;
      return `(MORE ${skeleton(a)} ${skeleton(b)})`;
    }
    case 'contains':
      return `(CONTAINS ${form.relation ? relationSkeleton(form.relation) + ' ' : ''}[])`;
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
