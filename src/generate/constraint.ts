/**
 * The grammar automaton over target tokens: a pushdown machine of the logical-form grammar the model
 * emits (a subset of grammar/logical-form.ebnf, with single-token symbols):
 *
 *   top  := expr | '(' ASK expr ')' | '(' AVG|SUM|MAX|MIN expr ')' | '(' RATIO|PERCENT|ABSDIFF expr expr ')'
 *   expr := '[' piece+ ']' | CLASSNAME | '(' JOIN rel expr ')' | '(' AND expr expr ')' | '(' COUNT expr ')'
 *         | '(' ARGMAX|ARGMIN expr rel ')' | '(' GT|GE|LT|LE rel literal ')' | '(' TC expr rel literal ')'
 *         | '(' DIFF|OR expr expr ')' | '(' MOSTCOMMON|LEASTCOMMON|ARGMAXCOUNT|ARGMINCOUNT expr rel ')' | '(' HAS rel ')'
 *   rel  := RELNAME | '(' R rel ')'
 *
 * The operators whose answer is a boolean or a number (ASK, the aggregates, RATIO / PERCENT, ABSDIFF) stand only
 * outermost (COUNT keeps the older models' freedom to nest). Class names (config.classes) are forms.
 *
 * It is data-driven: operators exist only if they are in config.symbols, relation slots admit
 * config.relations (optionally intersected with a caller-given set), literals are the symbols that
 * look like literals (numbers, dates, quoted strings). Productions that can never complete (e.g. a
 * comparison when there is no literal symbol) are never offered, so no prefix is a dead end.
 *
 * Inside `[ … ]` only a contiguous span of the question's own source pieces may be copied: the first
 * piece may be any source piece, each next one must be the source piece right after a previously
 * copied position (the set of possible positions is tracked, since a piece may occur twice), and `]`
 * closes the span once it holds some non-space text. eos is allowed only when the form is complete.
 *
 * States are immutable values: advance() returns a new state, so beams can share prefixes freely.
 */
import { AskgraphError, defined, itemAt } from '../core';

/** What the automaton needs from the model config. */
export interface TargetVocabulary {
  /** sentencepiece vocabulary size S: target ids < S are pieces, S + i is symbols[i]. */
  pieces: number;
  symbols: readonly string[];
  relations: readonly string[];
  /** Bare class names allowed in expression position (each a symbol). */
  classes?: readonly string[];
  eos: number;
  /** Ids that are never copied (bos, eos, pad, …). */
  special?: readonly number[];
}

export interface ConstraintOptions {
  /** Restrict relation slots to these names (intersected with the vocabulary's relations). */
  relations?: Iterable<string>;
  /**
   * Pieces (aligned with sourceIds) used to decide whether a copied span has text: a span made only of
   * whitespace pieces ("▁") cannot be closed. Without it every piece counts as text.
   */
  sourcePieces?: readonly string[];
  /**
   * With sourcePieces: a span must start and end at word boundaries (default true) — entity mentions
   * are whole words, so `[ Teres ]` for "Teresa" is never offered. A boundary is the start/end of the
   * question, a piece starting with "▁", or a non-alphanumeric character on either side.
   */
  wordBoundaries?: boolean;
  /**
   * An extra test on whole spans (start..end piece positions, inclusive), e.g. "the span's text is a
   * label of the graph". Ignored when no span of the question passes it (then any span may be copied).
   */
  spanFilter?: (start: number, end: number) => boolean;
  /**
   * Make spanFilter soft: spans failing it stay allowed, but closing one costs this many nats (added
   * to the hypothesis score by tokenBonus). Without it the filter is a hard restriction.
   */
  spanPenalty?: number;
  /** Longest span in pieces (default 64). */
  maxSpan?: number;
}

// Stack items (what is still expected), top of stack = last element.
const EXPR = 0; // a form
const REL = 1; // a relation
const LIT = 2; // a literal
const CLOSE = 3; // ')'
const EXPR_HEAD = 4; // after '(' in form position: an operator
const REL_HEAD = 5; // after '(' in relation position: R
const TOP = 6; // the outermost form: an expression or a boolean / number operator
const TOP_HEAD = 7; // after '(' in the outermost position

export interface ConstraintState {
  readonly stack: readonly number[];
  /**
   * null outside `[ … ]`; else where the span may be: (start, last copied position) pairs encoded as
   * start * SPAN_KEY + position ([] right after '[').
   */
  readonly copy: readonly number[] | null;
  /** eos was emitted. */
  readonly done: boolean;
  /** Tokens needed at least to complete the form, eos included. */
  readonly need: number;
}

const SPAN_KEY = 1 << 16;

const OPERATORS = [
  'JOIN', 'AND', 'COUNT', 'ARGMAX', 'ARGMIN', 'GT', 'GE', 'LT', 'LE', 'TC', 'R',
  'ASK', 'DIFF', 'OR', 'AVG', 'SUM', 'MAX', 'MIN', 'RATIO', 'PERCENT', 'MOSTCOMMON', 'LEASTCOMMON', 'ARGMAXCOUNT', 'ARGMINCOUNT', 'HAS',
  'ABSDIFF',
] as const;
/** Operators that stand only outermost (their answer is a boolean or a number). */
const TOP_ONLY = new Set<string>(['ASK', 'AVG', 'SUM', 'MAX', 'MIN', 'RATIO', 'PERCENT', 'ABSDIFF']);
/** What each operator expects after it, pushed in reverse order (the first argument ends on top). */
const PUSH: Record<string, number[]> = {
  JOIN: [EXPR, REL],
  AND: [EXPR, EXPR],
  COUNT: [EXPR],
  ARGMAX: [REL, EXPR],
  ARGMIN: [REL, EXPR],
  GT: [LIT, REL],
  GE: [LIT, REL],
  LT: [LIT, REL],
  LE: [LIT, REL],
  TC: [LIT, REL, EXPR],
  ASK: [EXPR],
  DIFF: [EXPR, EXPR],
  OR: [EXPR, EXPR],
  AVG: [EXPR],
  SUM: [EXPR],
  MAX: [EXPR],
  MIN: [EXPR],
  RATIO: [EXPR, EXPR],
  PERCENT: [EXPR, EXPR],
  MOSTCOMMON: [REL, EXPR],
  LEASTCOMMON: [REL, EXPR],
  ARGMAXCOUNT: [REL, EXPR],
  ARGMINCOUNT: [REL, EXPR],
  HAS: [REL],
  ABSDIFF: [EXPR, EXPR],
};
type Operator = (typeof OPERATORS)[number];

/** Does a symbol look like a literal of the grammar (number, date, quoted string, typed literal)? */
export function isLiteralSymbol(s: string): boolean {
  return (
    /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(s) ||
    /^\d{4}-\d{2}(-\d{2}(T\S+)?)?$/.test(s) ||
    /^"([^"\\]|\\.)*"(@[A-Za-z-]+|\^\^\S+)?$/.test(s) ||
    /^[^\s()[\]"]+\^\^\S+$/.test(s)
  );
}

export class GrammarConstraint {
  readonly vocabSize: number;
  readonly open: number;
  readonly close: number;
  readonly lbrack: number;
  readonly rbrack: number;
  readonly eos: number;
  private readonly op = new Map<Operator, number>();
  private readonly opOf = new Map<number, Operator>();
  readonly relationIds: readonly number[];
  private readonly relationSet: Set<number>;
  readonly literalIds: readonly number[];
  private readonly literalSet: Set<number>;
  /** Operators offered after '(' in form position. */
  private readonly exprHeads: readonly number[];
  private readonly exprHeadNeed: number;
  /** Operators offered after '(' in the outermost position (exprHeads and the top-only ones). */
  private readonly topHeads: readonly number[];
  private readonly topHeadNeed: number;
  /** Class-name symbols allowed where a form is expected. */
  readonly classIds: readonly number[];
  private readonly classSet: Set<number>;
  /** The minimal number of tokens that completes an EXPR (3 = '[' piece ']'). */
  private readonly cost: number[];
  private readonly src: readonly number[];
  private readonly copyable: readonly boolean[];
  /** endOk[start * n + end]: the span start..end may be closed with ']' (text, word boundaries, filter). */
  private readonly endOk: Uint8Array;
  /** closeAt[start * n + p]: the nearest end >= p at which start..end may close, or -1. */
  private readonly closeAt: Int32Array;
  /** The span filter was applied (some span passed it). */
  readonly filtered: boolean;
  /** Soft filter: preferred[start * n + end] marks spans that pass it (closing others costs spanPenalty). */
  private readonly preferred?: Uint8Array;
  private readonly spanPenalty: number;
  private readonly startIds: readonly number[];
  private readonly startPositions = new Map<number, number[]>();
  /** Tokens needed right after '[': the shortest closable span plus ']'. */
  private readonly startNeed: number;

  constructor(
    readonly vocab: TargetVocabulary,
    sourceIds: readonly number[],
    opts: ConstraintOptions = {},
  ) {
    const S = vocab.pieces;
    this.vocabSize = S + vocab.symbols.length;
    const idOf = new Map<string, number>();
    vocab.symbols.forEach((s, i) => {
      if (!idOf.has(s)) idOf.set(s, S + i);
    });
    const need = (s: string): number => {
      const id = idOf.get(s);
      if (id === undefined) throw new AskgraphError('MODEL_ERROR', `model config: symbols lack "${s}"`);
      return id;
    };
    this.open = need('(');
    this.close = need(')');
    this.lbrack = need('[');
    this.rbrack = need(']');
    this.eos = vocab.eos;
    for (const o of OPERATORS) {
      const id = idOf.get(o);
      if (id !== undefined) {
        this.op.set(o, id);
        this.opOf.set(id, o);
      }
    }
    const allowedNames = opts.relations ? new Set(opts.relations) : null;
    const rels: number[] = [];
    for (const r of new Set(vocab.relations)) {
      const id = idOf.get(r);
      if (id !== undefined && !this.opOf.has(id) && (!allowedNames || allowedNames.has(r))) rels.push(id);
    }
    this.relationIds = rels;
    this.relationSet = new Set(rels);
    const classIds: number[] = [];
    for (const c of new Set(vocab.classes ?? [])) {
      const id = idOf.get(c);
      if (id !== undefined && !this.opOf.has(id) && !this.relationSet.has(id) && !['(', ')', '[', ']'].includes(c)) classIds.push(id);
    }
    this.classIds = classIds;
    this.classSet = new Set(classIds);
    const reserved = new Set(['(', ')', '[', ']', ...OPERATORS, ...vocab.relations, ...(vocab.classes ?? [])]);
    this.literalIds = vocab.symbols.flatMap((s, i) => (!reserved.has(s) && isLiteralSymbol(s) ? [S + i] : []));
    this.literalSet = new Set(this.literalIds);

    // Source pieces that may be copied.
    this.src = sourceIds;
    const special = new Set(vocab.special ?? []);
    special.add(vocab.eos);
    this.copyable = sourceIds.map((id) => id >= 0 && id < S && !special.has(id));
    const n = sourceIds.length;
    const pcs = opts.sourcePieces && opts.sourcePieces.length >= n ? opts.sourcePieces : undefined;
    const hasText = sourceIds.map((_, i) => (pcs ? itemAt(pcs, i).replace(/[▁\s]/g, '').length > 0 : true));
    const useWords = pcs !== undefined && opts.wordBoundaries !== false;
    const alnum = (ch: string | undefined): boolean => ch !== undefined && /[\p{L}\p{N}]/u.test(ch);
    const first = (p: number): string | undefined => pcs?.[p]?.replace(/^▁+/, '')[0];
    const lastCh = (p: number): string | undefined => pcs?.[p]?.at(-1);
    // a word boundary between piece p-1 and piece p
    const boundary = (p: number): boolean =>
      !useWords || p <= 0 || p >= n || (pcs[p] ?? '').startsWith('▁') || !alnum(lastCh(p - 1)) || !alnum(first(p));
    const maxSpan = opts.maxSpan ?? 64;
    const table = (filter?: (a: number, b: number) => boolean): Uint8Array => {
      const ok = new Uint8Array(n * n);
      for (let a = 0; a < n; a++) {
        if (!this.copyable[a] || !boundary(a)) continue;
        let text = false;
        for (let e = a; e < n && e - a < maxSpan && this.copyable[e]; e++) {
          text = text || itemAt(hasText, e);
          if (text && boundary(e + 1) && (!filter || filter(a, e))) ok[a * n + e] = 1;
        }
      }
      return ok;
    };
    const soft = opts.spanPenalty !== undefined && opts.spanFilter !== undefined;
    this.spanPenalty = opts.spanFilter !== undefined && opts.spanPenalty !== undefined ? Math.abs(opts.spanPenalty) : 0;
    let endOk = table(opts.spanFilter);
    this.filtered = opts.spanFilter !== undefined && endOk.some((x) => x === 1);
    if (soft && this.filtered) this.preferred = endOk;
    if (opts.spanFilter && (!this.filtered || soft)) endOk = table();
    this.endOk = endOk;
    const closeAt = new Int32Array(n * n).fill(-1);
    for (let a = 0; a < n; a++) {
      let next = -1;
      for (let p = n - 1; p >= a; p--) {
        if (endOk[a * n + p]) next = p;
        closeAt[a * n + p] = next;
      }
    }
    this.closeAt = closeAt;
    let startNeed = 1e9;
    for (let p = 0; p < n; p++) {
      const e = closeAt[p * n + p] ?? -1;
      if (e < 0) continue;
      startNeed = Math.min(startNeed, 1 + (e - p) + 1);
      const id = itemAt(sourceIds, p);
      const list = this.startPositions.get(id);
      if (list) list.push(p * SPAN_KEY + p);
      else this.startPositions.set(id, [p * SPAN_KEY + p]);
    }
    this.startIds = [...this.startPositions.keys()].sort((a, b) => a - b);
    this.startNeed = startNeed;

    // Minimal completion costs. A relation needs 1 token if any relation is allowed (else it cannot complete).
    const INF = 1e9;
    const relCost = rels.length > 0 ? 1 : INF;
    const litCost = this.literalIds.length > 0 ? 1 : INF;
    // A form without operators: an entity span, or a class name. (Recursive forms only add to these.)
    const exprCost = Math.min(this.startIds.length > 0 ? 1 + startNeed : INF, classIds.length > 0 ? 1 : INF);
    const costOf = (item: number): number => (item === EXPR ? exprCost : item === REL ? relCost : litCost);
    const headCost = (o: Operator): number => defined(PUSH[o], `PUSH ${o}`).reduce((sum, item) => sum + costOf(item), 0);
    const usable = (o: Operator): boolean => o !== 'R' && this.op.has(o) && headCost(o) < INF;
    const exprOps = OPERATORS.filter((o) => usable(o) && !TOP_ONLY.has(o));
    const topOps = OPERATORS.filter((o) => usable(o));
    const headNeed = (ops: readonly Operator[]): number => (ops.length ? 1 + Math.min(...ops.map(headCost)) : INF);
    this.exprHeads = exprOps.map((o) => defined(this.op.get(o), `operator ${o}`));
    this.exprHeadNeed = headNeed(exprOps);
    this.topHeads = topOps.map((o) => defined(this.op.get(o), `operator ${o}`));
    this.topHeadNeed = headNeed(topOps);
    this.cost = [exprCost, relCost, litCost, 1, this.exprHeadNeed, this.op.has('R') ? 1 + relCost : INF, exprCost, this.topHeadNeed];
  }

  /** The state before the first target token. */
  initial(): ConstraintState {
    return { stack: [TOP], copy: null, done: false, need: itemAt(this.cost, TOP) + 1 };
  }

  isComplete(s: ConstraintState): boolean {
    return s.done || (s.stack.length === 0 && s.copy === null);
  }

  /**
   * Token ids that keep the prefix valid. With `budget` (tokens still allowed, eos included), only the
   * tokens after which the form can still be completed within the budget.
   */
  allowed(s: ConstraintState, budget?: number): number[] {
    const out = this.allowedRaw(s);
    if (budget === undefined) return out;
    return out.filter((t) => t === this.eos || this.advance(s, t).need <= budget - 1);
  }

  private allowedRaw(s: ConstraintState): number[] {
    if (s.done) return [];
    if (s.copy !== null) {
      if (s.copy.length === 0) return this.startIds.slice();
      const n = this.src.length;
      const next = new Set<number>();
      let close = false;
      for (const key of s.copy) {
        const a = Math.floor(key / SPAN_KEY);
        const p = key % SPAN_KEY;
        if (this.endOk[a * n + p]) close = true;
        const src = this.src[p + 1];
        if (src !== undefined && (this.closeAt[a * n + p + 1] ?? -1) >= 0) next.add(src);
      }
      const out = [...next].sort((x, y) => x - y);
      if (close) out.push(this.rbrack);
      return out;
    }
    if (s.stack.length === 0) return [this.eos];
    const top = s.stack[s.stack.length - 1];
    switch (top) {
      case EXPR:
      case TOP: {
        const out: number[] = [];
        if (this.startIds.length) out.push(this.lbrack);
        if ((top === TOP ? this.topHeads : this.exprHeads).length) out.push(this.open);
        out.push(...this.classIds);
        return out;
      }
      case TOP_HEAD:
        return this.topHeads.slice();
      case REL: {
        const out = this.relationIds.slice();
        if (this.op.has('R') && this.relationIds.length) out.push(this.open);
        return out;
      }
      case LIT:
        return this.literalIds.slice();
      case CLOSE:
        return [this.close];
      case EXPR_HEAD:
        return this.exprHeads.slice();
      case REL_HEAD:
        return [defined(this.op.get('R'), 'operator R')];
      default:
        return [];
    }
  }

  /** The state after a token; throws MODEL_ERROR if the token is not allowed there. */
  advance(s: ConstraintState, t: number): ConstraintState {
    const bad = (): never => {
      throw new AskgraphError('MODEL_ERROR', `token ${t} is not allowed here by the form grammar`);
    };
    if (s.done) return bad();
    if (s.copy !== null) {
      const n = this.src.length;
      if (t === this.rbrack) {
        if (!s.copy.some((key) => this.endOk[Math.floor(key / SPAN_KEY) * n + (key % SPAN_KEY)])) return bad();
        return this.make(s.stack, null);
      }
      let keys: number[];
      if (s.copy.length === 0) keys = this.startPositions.get(t) ?? [];
      else
        keys = s.copy.flatMap((key) => {
          const a = Math.floor(key / SPAN_KEY);
          const q = (key % SPAN_KEY) + 1;
          return q < n && this.src[q] === t && (this.closeAt[a * n + q] ?? -1) >= 0 ? [key + 1] : [];
        });
      if (keys.length === 0) return bad();
      return this.make(s.stack, keys);
    }
    if (s.stack.length === 0) {
      if (t === this.eos) return { stack: [], copy: null, done: true, need: 0 };
      return bad();
    }
    const rest = s.stack.slice(0, -1);
    const top = s.stack[s.stack.length - 1];
    switch (top) {
      case EXPR:
      case TOP:
        if (t === this.lbrack && this.startIds.length) return this.make(rest, []);
        if (this.classSet.has(t)) return this.make(rest, null);
        if (t === this.open && top === TOP && this.topHeads.length) return this.make([...rest, CLOSE, TOP_HEAD], null);
        if (t === this.open && this.exprHeads.length) return this.make([...rest, CLOSE, EXPR_HEAD], null);
        return bad();
      case REL:
        if (this.relationSet.has(t)) return this.make(rest, null);
        if (t === this.open && this.op.has('R') && this.relationIds.length) return this.make([...rest, CLOSE, REL_HEAD], null);
        return bad();
      case LIT:
        if (this.literalSet.has(t)) return this.make(rest, null);
        return bad();
      case CLOSE:
        if (t === this.close) return this.make(rest, null);
        return bad();
      case REL_HEAD:
        if (t === this.op.get('R')) return this.make([...rest, REL], null);
        return bad();
      case EXPR_HEAD:
      case TOP_HEAD: {
        if (!(top === TOP_HEAD ? this.topHeads : this.exprHeads).includes(t)) return bad();
        const o = defined(this.opOf.get(t), `operator of token ${t}`);
        return this.make([...rest, ...defined(PUSH[o], `PUSH ${o}`)], null);
      }
      default:
        return bad();
    }
  }

  /**
   * Score adjustment for a token (0 or a negative number of nats): with a soft span filter, closing a
   * span that does not pass it costs spanPenalty (the best reading of the span is taken).
   */
  tokenBonus(s: ConstraintState, t: number): number {
    if (!this.preferred || t !== this.rbrack || s.copy === null) return 0;
    const n = this.src.length;
    for (const key of s.copy) {
      const i = Math.floor(key / SPAN_KEY) * n + (key % SPAN_KEY);
      if (this.endOk[i] && this.preferred[i]) return 0;
    }
    return -this.spanPenalty;
  }

  /** Advances through a whole token sequence from the initial state (throws on the first bad token). */
  run(tokens: readonly number[]): ConstraintState {
    let s = this.initial();
    for (const t of tokens) s = this.advance(s, t);
    return s;
  }

  private make(stack: readonly number[], copy: readonly number[] | null): ConstraintState {
    let need = 1; // eos
    for (const item of stack) need += itemAt(this.cost, item, 'completion cost');
    if (copy !== null) need += this.copyNeed(copy);
    return { stack, copy, done: false, need };
  }

  /** Tokens needed to close the span: the pieces up to its nearest possible end, then ']'. */
  private copyNeed(copy: readonly number[]): number {
    if (copy.length === 0) return this.startNeed;
    const n = this.src.length;
    let best = 1e9;
    for (const key of copy) {
      const a = Math.floor(key / SPAN_KEY);
      const p = key % SPAN_KEY;
      const e = this.closeAt[a * n + p] ?? -1;
      if (e >= 0) best = Math.min(best, e - p + 1);
    }
    return best;
  }
}

/**
 * The form text of a target token sequence (eos excluded): symbols joined by spaces, copied spans
 * decoded with the tokenizer (the text Python's sentencepiece decode gives) and escaped as labels.
 */
export function tokensToFormText(tokens: readonly number[], vocab: TargetVocabulary, decode: (ids: number[]) => string): string {
  const S = vocab.pieces;
  const parts: string[] = [];
  let span: number[] | null = null;
  for (const t of tokens) {
    if (t === vocab.eos && span === null) break;
    const sym = t >= S ? vocab.symbols[t - S] : undefined;
    if (span !== null) {
      if (sym === ']') {
        parts.push('[ ' + escapeLabel(decode(span).trim()) + ' ]');
        span = null;
      } else if (t < S) span.push(t);
      else throw new AskgraphError('MODEL_ERROR', `symbol "${sym}" inside an entity span`);
      continue;
    }
    if (sym === '[') span = [];
    else if (sym !== undefined) parts.push(sym);
    else throw new AskgraphError('MODEL_ERROR', `piece ${t} outside an entity span`);
  }
  if (span !== null) throw new AskgraphError('MODEL_ERROR', 'unclosed entity span');
  let out = '';
  parts.forEach((p, i) => {
    if (i > 0 && parts[i - 1] !== '(' && p !== ')') out += ' ';
    out += p;
  });
  return out;
}

/** Label escaping of grammar/logical-form.ebnf [12]: "\" and "]" are escaped inside `[ … ]`. */
export function escapeLabel(label: string): string {
  return label.replace(/\\/g, '\\\\').replace(/\]/g, '\\]');
}
