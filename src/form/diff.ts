/**
 * Structural diff of two logical forms: which subtrees, entities, relations, classes, operators or literals
 * were added, removed or substituted, as a list of changes and as an aligned tree.
 *
 * Both forms are compared in normal form (AND flattened and ordered), so reordering AND operands is no change.
 * The alignment is a small minimum-cost search: two nodes are either aligned part by part, or one is a wrapper
 * around (a child of) the other — an added / removed hop, COUNT or AND operand — or, failing both, a whole
 * subtree is substituted. Forms are small (tens of nodes), so the search is cheap; pairs are memoised.
 */
import { XSD, itemAt, type Form, type Literal, type Relation } from '../core';
import { printForm, printLiteral, printRef, printRelation } from './print';
import { canonicalText, normalizeForm, skeleton } from './transform';

export type ChangeOp = 'added' | 'removed' | 'substituted';
export type ChangeKind = 'entity' | 'class' | 'literal' | 'relation' | 'operator' | 'subtree';

export interface FormChange {
  change: ChangeOp;
  kind: ChangeKind;
  /** Where, in the old form `a`: segments like `arg`, `relation`, `and[1]`; `/` is the root. */
  path: string;
  a?: string;
  b?: string;
}

export type DiffStatus = 'same' | 'added' | 'removed' | 'changed';

/** One line of the aligned tree: an operator head (`JOIN (R directed_by)`) or a leaf (`[ Forrest Gump ]`). */
export interface DiffNode {
  status: DiffStatus;
  /** An operator head (printed as `(JOIN …`) or a leaf. */
  op: boolean;
  text: string;
  /** The new text when status is 'changed'. */
  textB?: string;
  children: DiffNode[];
}

export interface FormDiff {
  /** Same canonical printing (the same form up to whitespace). */
  equal: boolean;
  /** Same after normalisation (AND order). */
  equalNormalized: boolean;
  sameSkeleton: boolean;
  a: string;
  b: string;
  skeletonA: string;
  skeletonB: string;
  changes: FormChange[];
  counts: Record<ChangeOp, number>;
  tree: DiffNode;
}

// ---------- an n-ary view of forms (AND flattened) ----------

interface LeafNode {
  leaf: true;
  kind: 'entity' | 'class' | 'literal';
  text: string;
  size: 1;
}
interface OpNode {
  leaf: false;
  op: string; // JOIN, AND, COUNT, ARGMAX, ARGMIN, GT, GE, LT, LE, TC, ASK, DIFF, OR, AVG, …
  rels: Relation[];
  lits: Literal[];
  children: TreeNode[];
  text: string; // canonical print of the whole subtree
  size: number;
}
type TreeNode = LeafNode | OpNode;

function toTree(f: Form): TreeNode {
  const text = printForm(f);
  const op = (op: string, rels: Relation[], lits: Literal[], children: TreeNode[]): OpNode => ({
    leaf: false,
    op,
    rels,
    lits,
    children,
    text,
    size: 1 + rels.length + lits.length + children.reduce((s, c) => s + c.size, 0),
  });
  switch (f.kind) {
    case 'entity':
    case 'class':
    case 'literal':
      return { leaf: true, kind: f.kind, text, size: 1 };
    case 'join':
      return op('JOIN', [f.relation], [], [toTree(f.arg)]);
    case 'and':
    case 'or': {
      const kind = f.kind;
      const flat: Form[] = [];
      const walk = (x: Form): void => {
        if (x.kind === kind) { walk(x.args[0]); walk(x.args[1]); }
        else flat.push(x);
      };
      walk(f);
      return op(kind === 'and' ? 'AND' : 'OR', [], [], flat.map(toTree));
    }
    case 'diff':
      return op('DIFF', [], [], [toTree(f.args[0]), toTree(f.args[1])]);
    case 'ratio':
    case 'arith':
      return op(f.op, [], [], [toTree(f.args[0]), toTree(f.args[1])]);
    case 'ask':
      return op('ASK', [], [], [toTree(f.arg)]);
    case 'aggregate':
      return op(f.op, [], [], [toTree(f.arg)]);
    case 'common':
    case 'argcount':
      return op(f.op, [f.relation], [], [toTree(f.arg)]);
    case 'has':
      return op('HAS', [f.relation], [], []);
    case 'count':
      return op('COUNT', [], [], [toTree(f.arg)]);
    case 'arg':
      return op(f.op, [f.relation], [], [toTree(f.arg)]);
    case 'compare':
      return op(f.op, [f.relation], [f.value], []);
    case 'tc':
      return op('TC', [f.relation], [f.value], [toTree(f.arg)]);
    case 'table':
      // a (MINUS r1 r2) column shows as its two relations, after MINUS in the operator name
      return op(f.columns.some((c) => c.kind === 'minus') ? `TABLE/${f.columns.map((c) => (c.kind === 'minus' ? 'MINUS' : 'r')).join(',')}` : 'TABLE', f.columns.flatMap((c) => (c.kind === 'minus' ? [...c.args] : [c])), [], [toTree(f.arg)]);
    case 'group':
      return op(f.op, f.value ? [f.by, f.value] : [f.by], [], [toTree(f.arg)]);
    case 'having':
      return op(`HAVING ${f.op}`, [], [f.value], [toTree(f.arg)]);
    case 'order':
      return op(f.op, f.relation ? [f.relation] : [], [], [toTree(f.arg)]);
    case 'slice':
      return op(f.op, [], [{ kind: 'literal', value: String(f.n), datatype: XSD + 'integer' }], [toTree(f.arg)]);
    case 'attrcompare':
      return op(f.op, [f.relation, f.other], [], []);
    case 'more':
      return op(f.op, [], [], [toTree(f.args[0]), toTree(f.args[1])]);
    case 'contains':
      // the text is a leaf of its own (a copied span, printed `[ word ]`), compared like a literal
      return op('CONTAINS', f.relation ? [f.relation] : [], [], [{ leaf: true, kind: 'literal', text: printRef({ kind: 'label', label: f.text }), size: 1 }]);
  }
}

function head(n: OpNode): string {
  return [n.op, ...n.rels.map(printRelation), ...n.lits.map(printLiteral)].join(' ');
}

/** Operators whose operands are an unordered set (flattened, aligned by content). */
const UNORDERED = new Set(['AND', 'OR']);

function childSegment(n: OpNode, i: number): string {
  if (UNORDERED.has(n.op)) return `${n.op.toLowerCase()}[${i}]`;
  return n.children.length > 1 ? `args[${i}]` : 'arg';
}

// ---------- alignment ----------

interface Aligned {
  cost: number;
  changes: FormChange[]; // paths relative to the aligned node ('' = the node itself)
  nodes: DiffNode[]; // usually one; a substituted subtree gives a removed and an added node
}

const join = (base: string, rest: string) => (rest === '' ? base : base === '' ? rest : `${base}/${rest}`);
const prefix = (changes: FormChange[], seg: string) => changes.map((c) => ({ ...c, path: join(seg, c.path) }));

function sameTree(n: TreeNode, status: DiffStatus): DiffNode {
  return n.leaf
    ? { status, op: false, text: n.text, children: [] }
    : { status, op: true, text: head(n), children: n.children.map((c) => sameTree(c, status)) };
}

class Aligner {
  private memo = new Map<TreeNode, Map<TreeNode, Aligned>>();

  align(a: TreeNode, b: TreeNode): Aligned {
    let row = this.memo.get(a);
    if (!row) this.memo.set(a, (row = new Map<TreeNode, Aligned>()));
    const hit = row.get(b);
    if (hit) return hit;
    const result = this.compute(a, b);
    row.set(b, result);
    return result;
  }

  private compute(a: TreeNode, b: TreeNode): Aligned {
    if (a.text === b.text) return { cost: 0, changes: [], nodes: [sameTree(a, 'same')] };
    const options: Aligned[] = [this.direct(a, b)];
    if (!b.leaf) b.children.forEach((_, i) => options.push(this.wrapperAdded(a, b, i)));
    if (!a.leaf) a.children.forEach((_, i) => options.push(this.wrapperRemoved(a, b, i)));
    return options.reduce((best, o) => (o.cost < best.cost ? o : best));
  }

  /** b is a new operator around a (e.g. an added hop or COUNT); b's other children are added subtrees. */
  private wrapperAdded(a: TreeNode, b: OpNode, i: number): Aligned {
    const inner = this.align(a, itemAt(b.children, i, 'diff children'));
    const changes: FormChange[] = [{ change: 'added', kind: 'operator', path: '', b: head(b) }];
    const kids: DiffNode[] = [];
    b.children.forEach((c, j) => {
      if (j === i) return kids.push(...inner.nodes);
      changes.push({ change: 'added', kind: 'subtree', path: '', b: c.text });
      kids.push(sameTree(c, 'added'));
    });
    changes.push(...inner.changes);
    return { cost: 1 + (b.children.length - 1) + inner.cost, changes, nodes: [{ status: 'added', op: true, text: head(b), children: kids }] };
  }

  /** a was an operator around (a child of) b: removed hop / COUNT / AND operands. */
  private wrapperRemoved(a: OpNode, b: TreeNode, i: number): Aligned {
    const inner = this.align(itemAt(a.children, i, 'diff children'), b);
    const changes: FormChange[] = [{ change: 'removed', kind: 'operator', path: '', a: head(a) }];
    const kids: DiffNode[] = [];
    a.children.forEach((c, j) => {
      if (j === i) return kids.push(...inner.nodes);
      changes.push({ change: 'removed', kind: 'subtree', path: childSegment(a, j), a: c.text });
      kids.push(sameTree(c, 'removed'));
    });
    changes.push(...prefix(inner.changes, childSegment(a, i)));
    return { cost: 1 + (a.children.length - 1) + inner.cost, changes, nodes: [{ status: 'removed', op: true, text: head(a), children: kids }] };
  }

  private substituteSubtree(a: TreeNode, b: TreeNode): Aligned {
    return {
      cost: a.size + b.size,
      changes: [{ change: 'substituted', kind: 'subtree', path: '', a: a.text, b: b.text }],
      nodes: [sameTree(a, 'removed'), sameTree(b, 'added')],
    };
  }

  private direct(a: TreeNode, b: TreeNode): Aligned {
    if (a.leaf && b.leaf) {
      if (a.kind !== b.kind) return this.substituteSubtree(a, b);
      return {
        cost: 1,
        changes: [{ change: 'substituted', kind: a.kind, path: '', a: a.text, b: b.text }],
        nodes: [{ status: 'changed', op: false, text: a.text, textB: b.text, children: [] }],
      };
    }
    if (a.leaf || b.leaf) return this.substituteSubtree(a, b);
    const shapeA = [a.rels.length, a.lits.length, UNORDERED.has(a.op) ? -1 : a.children.length].join();
    const shapeB = [b.rels.length, b.lits.length, UNORDERED.has(b.op) ? -1 : b.children.length].join();
    if (shapeA !== shapeB) return this.substituteSubtree(a, b);

    const changes: FormChange[] = [];
    let cost = 0;
    if (a.op !== b.op) {
      changes.push({ change: 'substituted', kind: 'operator', path: '', a: a.op, b: b.op });
      cost++;
    }
    a.rels.forEach((ra, i) => {
      const c = relationChange(ra, itemAt(b.rels, i, 'diff relations'));
      if (c) { changes.push(c); cost++; }
    });
    a.lits.forEach((la, i) => {
      const ta = printLiteral(la);
      const tb = printLiteral(itemAt(b.lits, i, 'diff literals'));
      if (ta !== tb) { changes.push({ change: 'substituted', kind: 'literal', path: 'value', a: ta, b: tb }); cost++; }
    });
    const kids: DiffNode[] = [];
    if (UNORDERED.has(a.op) && UNORDERED.has(b.op)) {
      const r = this.alignOperands(a.children, b.children, a.op.toLowerCase());
      cost += r.cost;
      changes.push(...r.changes);
      kids.push(...r.nodes);
    } else {
      a.children.forEach((ca, i) => {
        const r = this.align(ca, itemAt(b.children, i, 'diff children'));
        cost += r.cost;
        changes.push(...prefix(r.changes, childSegment(a, i)));
        kids.push(...r.nodes);
      });
    }
    const headA = head(a);
    const headB = head(b);
    const node: DiffNode =
      headA === headB
        ? { status: 'same', op: true, text: headA, children: kids }
        : { status: 'changed', op: true, text: headA, textB: headB, children: kids };
    return { cost, changes, nodes: [node] };
  }

  /** AND operands: equal ones pair first, then the cheapest pairs cheaper than remove + add; the rest are added / removed. */
  private alignOperands(as: TreeNode[], bs: TreeNode[], segName = 'and'): Aligned {
    const pairOf = new Map<number, number>();
    const usedB = new Set<number>();
    as.forEach((x, i) => {
      const j = bs.findIndex((y, k) => !usedB.has(k) && y.text === x.text);
      if (j >= 0) { pairOf.set(i, j); usedB.add(j); }
    });
    const candidates: { i: number; j: number; cost: number }[] = [];
    as.forEach((x, i) => {
      if (pairOf.has(i)) return;
      bs.forEach((y, j) => {
        if (usedB.has(j)) return;
        const c = this.align(x, y).cost;
        if (c < x.size + y.size) candidates.push({ i, j, cost: c });
      });
    });
    candidates.sort((p, q) => p.cost - q.cost || p.i - q.i || p.j - q.j);
    for (const c of candidates) if (!pairOf.has(c.i) && !usedB.has(c.j)) { pairOf.set(c.i, c.j); usedB.add(c.j); }

    const out: Aligned = { cost: 0, changes: [], nodes: [] };
    as.forEach((x, i) => {
      const seg = `${segName}[${i}]`;
      const j = pairOf.get(i);
      if (j === undefined) {
        out.cost += 1;
        out.changes.push({ change: 'removed', kind: 'subtree', path: seg, a: x.text });
        out.nodes.push(sameTree(x, 'removed'));
      } else {
        const r = this.align(x, itemAt(bs, j, 'diff operands'));
        out.cost += r.cost;
        out.changes.push(...prefix(r.changes, seg));
        out.nodes.push(...r.nodes);
      }
    });
    bs.forEach((y, j) => {
      if (usedB.has(j)) return;
      out.cost += 1;
      out.changes.push({ change: 'added', kind: 'subtree', path: '', b: y.text });
      out.nodes.push(sameTree(y, 'added'));
    });
    return out;
  }
}

/** A relation change: R added / removed is an operator change; anything else substitutes the relation. */
function relationChange(a: Relation, b: Relation): FormChange | undefined {
  const ta = printRelation(a);
  const tb = printRelation(b);
  if (ta === tb) return undefined;
  if (b.kind === 'reverse' && printRelation(b.of) === ta) return { change: 'added', kind: 'operator', path: 'relation', a: ta, b: tb };
  if (a.kind === 'reverse' && printRelation(a.of) === tb) return { change: 'removed', kind: 'operator', path: 'relation', a: ta, b: tb };
  return { change: 'substituted', kind: 'relation', path: 'relation', a: ta, b: tb };
}

/** The structural diff of two forms (see the file comment). */
export function diffForms(a: Form, b: Form): FormDiff {
  const na = normalizeForm(a);
  const nb = normalizeForm(b);
  const result = new Aligner().align(toTree(na), toTree(nb));
  const changes = result.changes.map((c) => ({ ...c, path: c.path === '' ? '/' : '/' + c.path }));
  const counts: Record<ChangeOp, number> = { added: 0, removed: 0, substituted: 0 };
  for (const c of changes) counts[c.change]++;
  const tree: DiffNode =
    result.nodes.length === 1 ? itemAt(result.nodes, 0, 'diff nodes') : { status: 'changed', op: false, text: 'form', children: result.nodes };
  const sa = skeleton(a);
  const sb = skeleton(b);
  return {
    equal: printForm(a) === printForm(b),
    equalNormalized: canonicalText(a) === canonicalText(b),
    sameSkeleton: sa === sb,
    a: printForm(a),
    b: printForm(b),
    skeletonA: sa,
    skeletonB: sb,
    changes,
    counts,
    tree,
  };
}

export interface RenderOptions {
  color?: boolean;
}

const COLORS: Record<DiffStatus, [string, string]> = {
  same: ['', ''],
  added: ['\x1b[32m', '\x1b[0m'],
  removed: ['\x1b[31m', '\x1b[0m'],
  changed: ['\x1b[33m', '\x1b[0m'],
};
const MARK: Record<DiffStatus, string> = { same: ' ', added: '+', removed: '-', changed: '~' };

/**
 * The aligned tree, one node a line: a marker (` ` same, `+` added, `-` removed, `~` substituted), indentation by
 * depth, operator heads as `(JOIN (R directed_by)` and leaves as printed; substitutions show `old → new`.
 */
export function renderDiffTree(tree: DiffNode, opts: RenderOptions = {}): string {
  const lines: string[] = [];
  const walk = (n: DiffNode, depth: number) => {
    const status = n.status;
    const show = (t: string) => (n.op ? (n.children.length ? `(${t}` : `(${t})`) : t);
    const body = n.textB !== undefined && n.textB !== n.text ? `${show(n.text)} → ${show(n.textB)}` : show(n.text);
    const line = `${MARK[status]} ${'  '.repeat(depth)}${body}`;
    const [on, off] = opts.color ? COLORS[status] : ['', ''];
    lines.push(on + line + off);
    for (const c of n.children) walk(c, depth + 1);
  };
  walk(tree, 0);
  return lines.join('\n');
}

/** A short human summary of one change: `~ relation /arg: (R directed_by) → (R written_by)`. */
export function describeChange(c: FormChange): string {
  const mark = c.change === 'added' ? '+' : c.change === 'removed' ? '-' : '~';
  const what = c.change === 'substituted' ? `${c.a} → ${c.b}` : c.change === 'added' ? (c.b ?? '') : (c.a ?? '');
  return `${mark} ${c.kind} ${c.path}: ${what}`;
}

// ---------- prediction files ----------

export type ExampleStatus = 'same' | 'same-skeleton' | 'different' | 'only-a' | 'only-b';

export interface PredictionRow {
  id: string;
  form: string | null;
}

export interface ExampleDiff {
  id: string;
  status: ExampleStatus;
  a: string | null;
  b: string | null;
  changes?: FormChange[];
}

export interface FilesDiff {
  totals: Record<ExampleStatus, number> & { total: number };
  /** Every example that is not 'same', in the order of file a then the ids only in b. */
  changed: ExampleDiff[];
}

/**
 * Per-example status of two prediction sets. `parse` is parseForm; a form that does not parse is compared as text
 * (same text → same; otherwise different); a missing form (null) is like an unparsable one.
 */
export function diffPredictions(a: PredictionRow[], b: PredictionRow[], parse: (text: string) => Form): FilesDiff {
  const mapB = new Map(b.map((r) => [r.id, r]));
  const mapA = new Map(a.map((r) => [r.id, r]));
  const totals = { same: 0, 'same-skeleton': 0, different: 0, 'only-a': 0, 'only-b': 0, total: 0 };
  const changed: ExampleDiff[] = [];
  const tryParse = (t: string | null): Form | undefined => {
    if (t === null) return undefined;
    try {
      return parse(t);
    } catch {
      return undefined;
    }
  };
  const record = (d: ExampleDiff) => {
    totals[d.status]++;
    totals.total++;
    if (d.status !== 'same') changed.push(d);
  };
  for (const ra of a) {
    const rb = mapB.get(ra.id);
    if (!rb) {
      record({ id: ra.id, status: 'only-a', a: ra.form, b: null });
      continue;
    }
    const fa = tryParse(ra.form);
    const fb = tryParse(rb.form);
    if (!fa || !fb) {
      record({ id: ra.id, status: ra.form === rb.form ? 'same' : 'different', a: ra.form, b: rb.form });
      continue;
    }
    const d = diffForms(fa, fb);
    const status: ExampleStatus = d.equalNormalized ? 'same' : d.sameSkeleton ? 'same-skeleton' : 'different';
    record({ id: ra.id, status, a: d.a, b: d.b, ...(status === 'same' ? {} : { changes: d.changes }) });
  }
  for (const rb of b) if (!mapA.has(rb.id)) record({ id: rb.id, status: 'only-b', a: null, b: rb.form });
  return { totals, changed };
}
