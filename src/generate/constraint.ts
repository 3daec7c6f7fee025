/**
 * The grammar automaton over target tokens: a pushdown machine of the logical-form grammar the model
 * emits (a subset of grammar/logical-form.ebnf, with single-token symbols):
 *
 *   top  := expr | '(' ASK expr ')' | '(' AVG|SUM|MAX|MIN expr ')' | '(' RATIO|PERCENT|ABSDIFF expr expr ')'
 *   expr := '[' piece+ ']' | CLASSNAME | '(' JOIN rel expr ')' | '(' AND expr expr ')' | '(' COUNT expr ')'
 *         | '(' ARGMAX|ARGMIN expr rel ')' | '(' GT|GE|LT|LE rel literal ')' | '(' TC expr rel literal ')'
 *         | '(' DIFF|OR expr expr ')' | '(' MOSTCOMMON|LEASTCOMMON|ARGMAXCOUNT|ARGMINCOUNT expr rel ')' | '(' HAS rel ')'
 *   rel  := RELNAME | '(' R RELNAME ')'   (a reverse of a reverse is the relation itself: never written)
 *
 * The operators whose answer is a boolean or a number (ASK, the aggregates, RATIO / PERCENT, ABSDIFF) stand only
 * outermost (COUNT keeps the older models' freedom to nest). Class names (config.classes) are forms.
 *
 * Form language v3 ([31]–[38]): the table operators (TABLE, GROUP*, HAVING, ASC / DESC, LIMIT / OFFSET) and MORE / LESS
 * stand only outermost, or where an operator takes them; CONTAINS and the attribute comparison are sets:
 *   top  += '(' TABLE expr col col* ')' | '(' GROUPCOUNT expr rel ')' | '(' GROUPSUM|GROUPAVG|GROUPMAX|GROUPMIN expr rel rel ')'
 *         | '(' HAVING grouped GT|GE|LT|LE literal ')' | '(' ASC|DESC ordarg ')' | '(' LIMIT|OFFSET int ordered ')'
 *         | '(' MORE|LESS num num ')'
 *   expr += '(' CONTAINS rel? span ')' | '(' GT|GE|LT|LE rel rel ')'
 *   col  := rel | '(' MINUS rel rel ')';  grouped := '(' GROUP…|HAVING … ')';  ordered := '(' ASC|DESC|LIMIT|OFFSET … ')'
 *   ordarg := expr rel? | '(' TABLE|GROUP…|HAVING … ')' (a table is ordered by its last column: no relation after it)
 *   num  := '(' COUNT|AVG|SUM|MAX|MIN|RATIO|PERCENT|ABSDIFF … ')';  int: a non-negative integer symbol
 *   span := '[' piece+ ']' — the text of CONTAINS is copied from the question exactly like an entity label (the
 *           same copy state), so a word the model never saw in training can be written; the span filter (graph
 *           labels) does not apply to it: a text is a part of a name, not a name
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
 * Open-name models (vocab.names, config.json `"names": "open"`, issue 20): there are no relation, class or literal
 * symbols; wherever one is allowed above, a name is written instead: one or more pieces (never unk / bos / eos /
 * pad), then the end symbol `</n>`. A relation or class name must make a form name ([21]) — ASCII pieces, no digit
 * before its first letter —, a literal a number or date (`</n>` only when the text is one: "12." waits for a
 * digit), a row count 0 … 1000000; after GT r either. With ConstraintOptions.nameTries relation / class names
 * follow a trie of the graph's names' pieces instead (graph-restricted; free is the default).
 *
 * States are immutable values: advance() returns a new state, so beams can share prefixes freely.
 */
import { AskgraphError, defined, itemAt } from '../core';
import { isOpenLiteral, isOpenLiteralPrefix, NameTrieNode, openNameToken } from './names';

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
  /**
   * Open-name models (config.json `"names": "open"`): relations, classes and literals are not symbols but
   * pieces followed by the symbol `end` ("▁place ▁of ▁birth </n>"); `pieces` are the piece strings by id.
   */
  names?: { end: string; pieces: readonly string[] };
  /** The unk id: never part of an open name. */
  unk?: number;
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
  /**
   * Open-name models: restrict relation slots (and class names in form position) to the names of these tries
   * of piece sequences (names.ts nameTrie) — the graph-name restriction. Without one a slot takes any name.
   */
  nameTries?: { relations?: NameTrieNode; classes?: NameTrieNode };
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
// ---- form language v3 ----
const COL = 8; // a TABLE column: a relation or (MINUS r r)
const COLS = 9; // more columns, or nothing (before the ')')
const OPTREL = 10; // an optional relation (ASC / DESC after a set; CONTAINS before its text)
const INT = 11; // a row count (LIMIT / OFFSET)
const CMP = 12; // GT / GE / LT / LE (HAVING)
const NUM = 13; // a number form: '(' COUNT / AVG / … ')'
const NUM_HEAD = 14;
const STR = 15; // the text of CONTAINS: '[' then a copied span of the question (any span, not only labels)
const LIT_OR_REL = 16; // after GT r: a literal ([7]) or a second relation ([36])
const ORDARG = 17; // the operand of ASC / DESC
const ORDARG_HEAD = 18;
const SLICED = 19; // the operand of LIMIT / OFFSET: '(' ASC / DESC / LIMIT / OFFSET … ')'
const SLICED_HEAD = 20;
const GROUPED = 21; // the operand of HAVING: '(' GROUP… / HAVING … ')'
const GROUPED_HEAD = 22;
const COL_HEAD = 23; // after '(' in a column: R or MINUS
const REL_NAME = 24; // a relation name inside (R …): no second R

export interface ConstraintState {
  readonly stack: readonly number[];
  /**
   * null outside `[ … ]`; else where the span may be: (start, last copied position) pairs encoded as
   * start * SPAN_KEY + position ([] right after '[').
   */
  readonly copy: readonly number[] | null;
  /** The open span is a CONTAINS text (its ends need no graph label); false outside `[ … ]` and in an entity. */
  readonly text: boolean;
  /** eos was emitted. */
  readonly done: boolean;
  /** Tokens needed at least to complete the form, eos included. */
  readonly need: number;
  /** Open-name models: the name being written (its pieces so far); absent outside a name. */
  readonly name?: NameState;
}

/**
 * A name being written by an open-name model. Its readings: a literal (a number or date, or a row count) and a
 * relation / class name, free ('start' before its first word, 'word' after it) or along a trie of graph names.
 */
export interface NameState {
  /** The text so far (pieces joined, "▁" as spaces) while a literal reading lives, else ''. */
  readonly text: string;
  /** 0: no literal reading; 1: a number or date; 2: a row count (0 to 1000000). */
  readonly literal: 0 | 1 | 2;
  readonly reading: 'start' | 'word' | NameTrieNode | null;
  /** Tokens needed at least to finish the name, the end symbol included. */
  readonly need: number;
}

/** Which names a slot takes: a relation, a class (a form), a literal, a row count, or a literal or a relation. */
type NameKind = 'rel' | 'class' | 'lit' | 'int' | 'litrel';

/** Per-piece facts of an open-name vocabulary (built once per vocabulary object). */
interface NameTables {
  end: number;
  /** Piece text with "▁" as a space. */
  text: readonly string[];
  /** 3: never in a name (special, unk, non-ASCII); else the first letter/digit: 0 none, 1 a letter, 2 a digit. */
  lead: Uint8Array;
  /** Pieces a free name may go on with (ASCII), and those it may start with (no digit before its first letter). */
  word: readonly number[];
  wordStart: readonly number[];
  /** Pieces made only of number / date characters and spaces, and those that may start a literal / a row count. */
  literal: readonly number[];
  literalSet: Uint8Array;
  litStart: readonly number[];
  intStart: readonly number[];
}

const nameTables = new WeakMap<TargetVocabulary, NameTables>();

function openNameTables(vocab: TargetVocabulary, end: number): NameTables {
  const hit = nameTables.get(vocab);
  if (hit) return hit;
  const S = vocab.pieces;
  const pieces = vocab.names?.pieces ?? [];
  const never = new Set([...(vocab.special ?? []), vocab.eos, ...(vocab.unk !== undefined ? [vocab.unk] : [])]);
  const text: string[] = [];
  const lead = new Uint8Array(S);
  const literalSet = new Uint8Array(S);
  const word: number[] = [];
  const wordStart: number[] = [];
  const literal: number[] = [];
  const litStart: number[] = [];
  const intStart: number[] = [];
  for (let id = 0; id < S; id++) {
    const t = (pieces[id] ?? '').replace(/▁/g, ' ');
    text.push(t);
    // a name's words must make a form name ([21]: ASCII, a letter first): no other letters or digits may enter it
    if (never.has(id) || t.length === 0 || !/^[\x20-\x7e]*$/.test(t)) {
      lead[id] = 3;
      continue;
    }
    const first = /[A-Za-z0-9]/.exec(t)?.[0];
    lead[id] = first === undefined ? 0 : /[0-9]/.test(first) ? 2 : 1;
    word.push(id);
    if (lead[id] !== 2) wordStart.push(id);
    if (/^[0-9.eE+\- ]+$/.test(t)) {
      literal.push(id);
      literalSet[id] = 1;
      if (literalViable(t, 1)) litStart.push(id);
      if (literalViable(t, 2)) intStart.push(id);
    }
  }
  const out: NameTables = { end, text, lead, word, wordStart, literal, literalSet, litStart, intStart };
  nameTables.set(vocab, out);
  return out;
}

/** A row count of LIMIT / OFFSET ([35]: 0 to 1000000), whole (`full`) or a prefix of one. */
function rowCount(text: string, full: boolean): boolean {
  return (full ? /^\d+$/ : /^\d*$/).test(text) && Number(text || '0') <= 1_000_000;
}

/** Is the text (1) a number or date, (2) a row count — once trimmed? */
function literalDone(text: string, literal: 1 | 2): boolean {
  const t = text.trim();
  return literal === 1 ? isOpenLiteral(t) : rowCount(t, true);
}

/** Can more pieces make the text a literal? Leading spaces are dropped; after a trailing space it must be whole already. */
function literalViable(text: string, literal: 1 | 2): boolean {
  const t = text.trimStart();
  if (/\s$/.test(t)) return literalDone(t, literal);
  return literal === 1 ? isOpenLiteralPrefix(t) : rowCount(t, false);
}

const SPAN_KEY = 1 << 16;

/**
 * Where copied spans may start and end. Entity labels use the table the span filter shaped (hard filter: label
 * spans only); CONTAINS texts use the table of every span (the same object when no hard filter applies).
 */
interface SpanTable {
  /** endOk[start * n + end]: the span start..end may be closed with ']' (text, word boundaries, filter). */
  readonly endOk: Uint8Array;
  /** closeAt[start * n + p]: the nearest end >= p at which start..end may close, or -1. */
  readonly closeAt: Int32Array;
  /** Source pieces a span may start with, and the (start, position) keys each opens. */
  readonly startIds: readonly number[];
  readonly startPositions: ReadonlyMap<number, number[]>;
  /** Tokens needed right after '[': the shortest closable span plus ']'. */
  readonly startNeed: number;
}

const OPERATORS = [
  'JOIN', 'AND', 'COUNT', 'ARGMAX', 'ARGMIN', 'GT', 'GE', 'LT', 'LE', 'TC', 'R',
  'ASK', 'DIFF', 'OR', 'AVG', 'SUM', 'MAX', 'MIN', 'RATIO', 'PERCENT', 'MOSTCOMMON', 'LEASTCOMMON', 'ARGMAXCOUNT', 'ARGMINCOUNT', 'HAS',
  'ABSDIFF',
  'TABLE', 'MINUS', 'GROUPCOUNT', 'GROUPSUM', 'GROUPAVG', 'GROUPMAX', 'GROUPMIN', 'HAVING', 'ASC', 'DESC', 'LIMIT', 'OFFSET', 'MORE', 'LESS', 'CONTAINS',
] as const;
/** Operators that stand only outermost (their answer is a boolean, a number or a table). */
const TOP_ONLY = new Set<string>(['ASK', 'AVG', 'SUM', 'MAX', 'MIN', 'RATIO', 'PERCENT', 'ABSDIFF', 'TABLE', 'GROUPCOUNT', 'GROUPSUM', 'GROUPAVG', 'GROUPMAX', 'GROUPMIN', 'HAVING', 'ASC', 'DESC', 'LIMIT', 'OFFSET', 'MORE', 'LESS']);
/** Operators never offered after '(' in form position (MINUS is a column). */
const NOT_A_FORM = new Set<string>(['R', 'MINUS']);
/** Number operators (the operands of MORE / LESS). */
const NUMBER_OPS = new Set<string>(['COUNT', 'AVG', 'SUM', 'MAX', 'MIN', 'RATIO', 'PERCENT', 'ABSDIFF']);
/** Table operators an ASC / DESC may order (by their last column). */
const TABLE_ARG_OPS = new Set<string>(['TABLE', 'GROUPCOUNT', 'GROUPSUM', 'GROUPAVG', 'GROUPMAX', 'GROUPMIN', 'HAVING']);
const SLICED_OPS = new Set<string>(['ASC', 'DESC', 'LIMIT', 'OFFSET']);
const GROUPED_OPS = new Set<string>(['GROUPCOUNT', 'GROUPSUM', 'GROUPAVG', 'GROUPMAX', 'GROUPMIN', 'HAVING']);
const CMP_OPS = ['GT', 'GE', 'LT', 'LE'] as const;
/** What each operator expects after it, pushed in reverse order (the first argument ends on top). */
const PUSH: Record<string, number[]> = {
  JOIN: [EXPR, REL],
  AND: [EXPR, EXPR],
  COUNT: [EXPR],
  ARGMAX: [REL, EXPR],
  ARGMIN: [REL, EXPR],
  GT: [LIT_OR_REL, REL],
  GE: [LIT_OR_REL, REL],
  LT: [LIT_OR_REL, REL],
  LE: [LIT_OR_REL, REL],
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
  TABLE: [COLS, COL, EXPR],
  MINUS: [REL, REL],
  GROUPCOUNT: [REL, EXPR],
  GROUPSUM: [REL, REL, EXPR],
  GROUPAVG: [REL, REL, EXPR],
  GROUPMAX: [REL, REL, EXPR],
  GROUPMIN: [REL, REL, EXPR],
  HAVING: [LIT, CMP, GROUPED],
  ASC: [ORDARG],
  DESC: [ORDARG],
  LIMIT: [SLICED, INT],
  OFFSET: [SLICED, INT],
  MORE: [NUM, NUM],
  LESS: [NUM, NUM],
  CONTAINS: [STR, OPTREL],
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
  /** Operators offered after '(' in the outermost position (exprHeads and the top-only ones). */
  private readonly topHeads: readonly number[];
  /** Class-name symbols allowed where a form is expected. */
  readonly classIds: readonly number[];
  // ---- form language v3 ----
  private readonly intIds: readonly number[];
  private readonly cmpIds: readonly number[];
  private readonly numHeads: readonly number[];
  private readonly ordHeads: readonly number[];
  private readonly tableArgHeads: Set<number>;
  private readonly slicedHeads: readonly number[];
  private readonly groupedHeads: readonly number[];
  private readonly colHeads: readonly number[];
  private readonly classSet: Set<number>;
  /** The minimal number of tokens that completes an EXPR (3 = '[' piece ']'). */
  private readonly cost: number[];
  private readonly src: readonly number[];
  private readonly copyable: readonly boolean[];
  /** The spans of entity labels, and of CONTAINS texts ([38]: any span at word boundaries). */
  private readonly spans: SpanTable;
  private readonly textSpans: SpanTable;
  /** The span filter was applied (some span passed it). */
  readonly filtered: boolean;
  /** Soft filter: preferred[start * n + end] marks spans that pass it (closing others costs spanPenalty). */
  private readonly preferred?: Uint8Array;
  private readonly spanPenalty: number;
  /** Open-name models: the piece tables, and a fresh name per slot kind (null: the slot takes no name). */
  private readonly tables?: NameTables;
  private readonly fresh: Record<NameKind, NameState | null> = { rel: null, class: null, lit: null, int: null, litrel: null };
  /** The pieces a name may start with, per slot kind. */
  private readonly starts: Record<NameKind, readonly number[]> = { rel: [], class: [], lit: [], int: [], litrel: [] };
  /** Some relation can be written (a relation symbol, or an open name). */
  private readonly hasRel: boolean;

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
    if (vocab.names) {
      const tables = openNameTables(vocab, need(vocab.names.end));
      this.tables = tables;
      const relTrie = opts.nameTries?.relations;
      const classTrie = opts.nameTries?.classes;
      const reading = (trie: NameTrieNode | undefined): 'start' | NameTrieNode | null => (trie === undefined ? 'start' : trie.next.size ? trie : null);
      const fresh = (literal: 0 | 1 | 2, r: 'start' | NameTrieNode | null): NameState | null => {
        const lit = literal === 1 ? tables.litStart.length > 0 : literal === 2 ? tables.intStart.length > 0 : false;
        const ns: NameState = { text: '', literal: lit ? literal : 0, reading: r, need: 0 };
        return lit || r !== null ? { ...ns, need: this.nameNeed(ns) } : null;
      };
      const starts = (r: 'start' | NameTrieNode | null): readonly number[] => (r === 'start' ? tables.wordStart : r ? [...r.next.keys()].sort((a, b) => a - b) : []);
      const rel = reading(relTrie);
      const cls = reading(classTrie);
      this.fresh = { rel: fresh(0, rel), class: fresh(0, cls), lit: fresh(1, null), int: fresh(2, null), litrel: fresh(1, rel) };
      const relStart = starts(rel);
      this.starts = {
        rel: relStart,
        class: starts(cls),
        lit: tables.litStart,
        int: tables.intStart,
        litrel: [...new Set([...tables.litStart, ...relStart])].sort((a, b) => a - b),
      };
    }
    this.hasRel = rels.length > 0 || this.fresh.rel !== null;

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
    const spanTable = (ok: Uint8Array): SpanTable => {
      const closeAt = new Int32Array(n * n).fill(-1);
      for (let a = 0; a < n; a++) {
        let next = -1;
        for (let p = n - 1; p >= a; p--) {
          if (ok[a * n + p]) next = p;
          closeAt[a * n + p] = next;
        }
      }
      let startNeed = 1e9;
      const startPositions = new Map<number, number[]>();
      for (let p = 0; p < n; p++) {
        const e = closeAt[p * n + p] ?? -1;
        if (e < 0) continue;
        startNeed = Math.min(startNeed, 1 + (e - p) + 1);
        const id = itemAt(sourceIds, p);
        const list = startPositions.get(id);
        if (list) list.push(p * SPAN_KEY + p);
        else startPositions.set(id, [p * SPAN_KEY + p]);
      }
      return { endOk: ok, closeAt, startIds: [...startPositions.keys()].sort((a, b) => a - b), startPositions, startNeed };
    };
    this.spans = spanTable(endOk);
    // a hard filter shaped the entity table: the texts get their own table of every span
    this.textSpans = opts.spanFilter && this.filtered && !soft ? spanTable(table()) : this.spans;
    const startNeed = this.spans.startNeed;

    // Minimal completion costs. A relation needs 1 token if any relation is allowed (else it cannot complete).
    const INF = 1e9;
    // (an open name: its fewest pieces and the end symbol)
    const nameCost = (kind: NameKind): number => this.fresh[kind]?.need ?? INF;
    const relCost = Math.min(rels.length > 0 ? 1 : INF, nameCost('rel'));
    const litCost = Math.min(this.literalIds.length > 0 ? 1 : INF, nameCost('lit'));
    // A form without operators: an entity span, or a class name. (Recursive forms only add to these.)
    const exprCost = Math.min(this.spans.startIds.length > 0 ? 1 + startNeed : INF, classIds.length > 0 ? 1 : INF, nameCost('class'));
    this.intIds = this.literalIds.filter((t) => /^\d+$/.test(vocab.symbols[t - S] ?? ''));
    this.cmpIds = CMP_OPS.flatMap((o) => this.op.get(o) ?? []);
    const cost: number[] = new Array<number>(25).fill(INF);
    cost[EXPR] = exprCost;
    cost[TOP] = exprCost;
    cost[REL] = relCost;
    cost[REL_NAME] = relCost;
    cost[LIT] = litCost;
    cost[CLOSE] = 1;
    cost[REL_HEAD] = this.op.has('R') ? 1 + relCost : INF;
    cost[COL] = relCost;
    cost[COLS] = 0;
    cost[OPTREL] = 0;
    cost[INT] = Math.min(this.intIds.length > 0 ? 1 : INF, nameCost('int'));
    cost[CMP] = this.cmpIds.length > 0 ? 1 : INF;
    cost[STR] = this.textSpans.startIds.length > 0 ? 1 + this.textSpans.startNeed : INF;
    cost[LIT_OR_REL] = Math.min(litCost, relCost, nameCost('litrel'));
    cost[ORDARG] = exprCost;
    cost[COL_HEAD] = Math.min(itemAt(cost, REL_HEAD, 'cost'), this.op.has('MINUS') ? 1 + 2 * relCost : INF);
    const headCost = (o: Operator): number => defined(PUSH[o], `PUSH ${o}`).reduce((sum, item) => sum + (cost[item] ?? INF), 0);
    const usable = (o: Operator): boolean => !NOT_A_FORM.has(o) && this.op.has(o) && headCost(o) < INF;
    const headNeed = (ops: readonly Operator[]): number => (ops.length ? 1 + Math.min(...ops.map(headCost)) : INF);
    // the operand items refer to each other (LIMIT of LIMIT, HAVING of HAVING): a few rounds reach the fixed point
    for (let round = 0; round < 6; round++) {
      const ok = OPERATORS.filter(usable);
      cost[EXPR_HEAD] = headNeed(ok.filter((o) => !TOP_ONLY.has(o)));
      cost[TOP_HEAD] = headNeed(ok);
      cost[NUM_HEAD] = headNeed(ok.filter((o) => NUMBER_OPS.has(o)));
      cost[NUM] = itemAt(cost, NUM_HEAD, 'cost') + 2;
      cost[SLICED_HEAD] = headNeed(ok.filter((o) => SLICED_OPS.has(o)));
      cost[SLICED] = itemAt(cost, SLICED_HEAD, 'cost') + 2;
      cost[GROUPED_HEAD] = headNeed(ok.filter((o) => GROUPED_OPS.has(o)));
      cost[GROUPED] = itemAt(cost, GROUPED_HEAD, 'cost') + 2;
      cost[ORDARG_HEAD] = Math.min(itemAt(cost, EXPR_HEAD, 'cost'), headNeed(ok.filter((o) => TABLE_ARG_OPS.has(o))));
    }
    const ok = OPERATORS.filter(usable);
    const ids = (ops: readonly Operator[]): number[] => ops.map((o) => defined(this.op.get(o), `operator ${o}`));
    const exprOps = ok.filter((o) => !TOP_ONLY.has(o));
    this.exprHeads = ids(exprOps);
    this.topHeads = ids(ok);
    this.numHeads = ids(ok.filter((o) => NUMBER_OPS.has(o)));
    this.tableArgHeads = new Set(ids(ok.filter((o) => TABLE_ARG_OPS.has(o))));
    this.ordHeads = [...this.exprHeads, ...this.tableArgHeads];
    this.slicedHeads = ids(ok.filter((o) => SLICED_OPS.has(o)));
    this.groupedHeads = ids(ok.filter((o) => GROUPED_OPS.has(o)));
    this.colHeads = this.hasRel ? [this.op.get('R'), this.op.get('MINUS')].filter((id) => id !== undefined) : [];
    this.cost = cost;
  }

  /** The state before the first target token. */
  initial(): ConstraintState {
    return { stack: [TOP], copy: null, text: false, done: false, need: itemAt(this.cost, TOP) + 1 };
  }

  isComplete(s: ConstraintState): boolean {
    return s.done || (s.stack.length === 0 && s.copy === null && s.name === undefined);
  }

  /**
   * Token ids that keep the prefix valid. With `budget` (tokens still allowed, eos included), only the
   * tokens after which the form can still be completed within the budget.
   */
  allowed(s: ConstraintState, budget?: number): number[] {
    const out = this.allowedRaw(s);
    if (budget === undefined) return out;
    const tables = this.tables;
    if (tables === undefined || s.copy !== null) return out.filter((t) => t === this.eos || this.advance(s, t).need <= budget - 1);
    // open names: a piece's need without building its whole state (a slot may offer every piece)
    const S = this.vocab.pieces;
    const name = s.name;
    const start = name ? undefined : this.nameSlot(s);
    const startNeed = start ? this.make(start.stack, null).need : 0;
    // a free or literal reading needs at most 2 more tokens after any piece (one more piece, the end): when the
    // budget has room for that, no piece needs checking
    const free = (ns: NameState): boolean => ns.reading === null || ns.reading === 'start' || ns.reading === 'word';
    const roomy = name ? free(name) && s.need - name.need + 2 <= budget - 1 : start !== undefined && free(start.fresh) && startNeed + 2 <= budget - 1;
    return out.filter((t) => {
      if (t === this.eos) return true;
      if (t < S) {
        if (roomy) return true;
        if (name) {
          const ns = this.stepName(name, t);
          return ns !== null && s.need - name.need + ns.need <= budget - 1;
        }
        if (start) {
          const ns = this.stepName(start.fresh, t);
          return ns !== null && startNeed + ns.need <= budget - 1;
        }
      }
      return this.advance(s, t).need <= budget - 1;
    });
  }

  /** Where a piece starts a name in this state (open-name models): the fresh name and the stack it leaves. */
  private nameSlot(s: ConstraintState): { fresh: NameState; stack: readonly number[] } | undefined {
    if (!this.tables || s.copy !== null || s.name || s.done || s.stack.length === 0) return undefined;
    const rest = s.stack.slice(0, -1);
    const top = s.stack[s.stack.length - 1];
    const at = (kind: NameKind, stack: readonly number[]): { fresh: NameState; stack: readonly number[] } | undefined => {
      const fresh = this.fresh[kind];
      return fresh ? { fresh, stack } : undefined;
    };
    switch (top) {
      case EXPR:
      case TOP:
        return at('class', rest);
      case ORDARG:
        return at('class', [...rest, OPTREL]);
      case REL:
      case REL_NAME:
      case COL:
      case OPTREL:
        return at('rel', rest);
      case COLS:
        return at('rel', [...rest, COLS]);
      case LIT:
        return at('lit', rest);
      case INT:
        return at('int', rest);
      case LIT_OR_REL:
        return at('litrel', rest);
      default:
        return undefined;
    }
  }

  /** The name after one more piece, or null when no reading of it goes on. */
  private stepName(ns: NameState, t: number): NameState | null {
    const tables = this.tables;
    if (!tables || t < 0 || t >= this.vocab.pieces || tables.lead[t] === 3) return null;
    let literal = ns.literal;
    let text = '';
    if (literal !== 0) {
      if (tables.literalSet[t]) {
        text = ns.text + (tables.text[t] ?? '');
        if (!literalViable(text, literal)) literal = 0;
      } else literal = 0;
      if (literal === 0) text = '';
    }
    let reading = ns.reading;
    if (reading === 'start') {
      const lead = tables.lead[t];
      reading = lead === 1 ? 'word' : lead === 2 ? null : 'start';
    } else if (reading !== 'word' && reading !== null) reading = reading.next.get(t) ?? null;
    if (literal === 0 && reading === null) return null;
    const out: NameState = { text, literal, reading, need: 0 };
    return { ...out, need: this.nameNeed(out) };
  }

  /** Fewest tokens that finish a name (the end symbol included). */
  private nameNeed(ns: NameState): number {
    let best = Infinity;
    if (ns.literal !== 0) best = this.nameCanEnd({ ...ns, reading: null }) ? 1 : 2;
    if (ns.reading === 'word') best = Math.min(best, 1);
    else if (ns.reading === 'start') best = Math.min(best, 2);
    else if (ns.reading !== null) best = Math.min(best, ns.reading.need);
    return best;
  }

  /** May the end symbol close the name now? */
  private nameCanEnd(ns: NameState): boolean {
    if (ns.literal !== 0 && literalDone(ns.text, ns.literal)) return true;
    return ns.reading === 'word' || (ns.reading !== null && ns.reading !== 'start' && ns.reading.end);
  }

  /** The pieces (and the end symbol) a name may go on with. */
  private nameAllowed(ns: NameState): number[] {
    const tables = this.tables;
    if (!tables) return [];
    const out: number[] = [];
    if (ns.literal !== 0) for (const t of tables.literal) if (this.stepName({ ...ns, reading: null }, t)) out.push(t);
    const r = ns.reading;
    const more = r === 'start' ? tables.wordStart : r === 'word' ? tables.word : r !== null ? [...r.next.keys()].sort((a, b) => a - b) : [];
    const pieces = ns.literal !== 0 && out.length && more.length ? [...new Set([...out, ...more])].sort((a, b) => a - b) : out.length ? out : more.slice();
    if (this.nameCanEnd(ns)) pieces.push(tables.end);
    return pieces;
  }

  private allowedRaw(s: ConstraintState): number[] {
    if (s.done) return [];
    if (s.name) return this.nameAllowed(s.name);
    if (s.copy !== null) {
      const spans = s.text ? this.textSpans : this.spans;
      if (s.copy.length === 0) return spans.startIds.slice();
      const n = this.src.length;
      const next = new Set<number>();
      let close = false;
      for (const key of s.copy) {
        const a = Math.floor(key / SPAN_KEY);
        const p = key % SPAN_KEY;
        if (spans.endOk[a * n + p]) close = true;
        const src = this.src[p + 1];
        if (src !== undefined && (spans.closeAt[a * n + p + 1] ?? -1) >= 0) next.add(src);
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
        if (this.spans.startIds.length) out.push(this.lbrack);
        if ((top === TOP ? this.topHeads : this.exprHeads).length) out.push(this.open);
        out.push(...this.classIds, ...this.starts.class);
        return out;
      }
      case TOP_HEAD:
        return this.topHeads.slice();
      case REL: {
        const out = [...this.relationIds, ...this.starts.rel];
        if (this.op.has('R') && this.hasRel) out.push(this.open);
        return out;
      }
      case REL_NAME:
        return [...this.relationIds, ...this.starts.rel];
      case LIT:
        return [...this.literalIds, ...this.starts.lit];
      case CLOSE:
        return [this.close];
      case EXPR_HEAD:
        return this.exprHeads.slice();
      case REL_HEAD:
        return [defined(this.op.get('R'), 'operator R')];
      // ---- form language v3 ----
      case COL:
        return [...this.relationIds, ...this.starts.rel, ...(this.colHeads.length ? [this.open] : [])];
      case COL_HEAD:
        return this.colHeads.slice();
      case COLS:
        return [...new Set([...this.relationIds, ...this.starts.rel, ...(this.colHeads.length ? [this.open] : []), ...this.allowedRaw(this.popped(s))])];
      case OPTREL:
        return [...new Set([...this.relationIds, ...this.starts.rel, ...(this.op.has('R') && this.hasRel ? [this.open] : []), ...this.allowedRaw(this.popped(s))])];
      case INT:
        return [...this.intIds, ...this.starts.int];
      case CMP:
        return this.cmpIds.slice();
      case STR:
        return this.textSpans.startIds.length ? [this.lbrack] : [];
      case LIT_OR_REL:
        return [...this.literalIds, ...this.relationIds, ...this.starts.litrel, ...(this.op.has('R') && this.hasRel ? [this.open] : [])];
      case NUM:
      case SLICED:
      case GROUPED:
        return [this.open];
      case NUM_HEAD:
        return this.numHeads.slice();
      case SLICED_HEAD:
        return this.slicedHeads.slice();
      case GROUPED_HEAD:
        return this.groupedHeads.slice();
      case ORDARG: {
        const out: number[] = [];
        if (this.spans.startIds.length) out.push(this.lbrack);
        if (this.ordHeads.length) out.push(this.open);
        out.push(...this.classIds, ...this.starts.class);
        return out;
      }
      case ORDARG_HEAD:
        return this.ordHeads.slice();
      default:
        return [];
    }
  }

  /** The state with its top item taken off (an optional item that is skipped). */
  private popped(s: ConstraintState): ConstraintState {
    return { ...s, stack: s.stack.slice(0, -1) };
  }

  /** The state after a token; throws MODEL_ERROR if the token is not allowed there. */
  advance(s: ConstraintState, t: number): ConstraintState {
    const bad = (): never => {
      throw new AskgraphError('MODEL_ERROR', `token ${t} is not allowed here by the form grammar`);
    };
    if (s.done) return bad();
    if (s.copy !== null) {
      const spans = s.text ? this.textSpans : this.spans;
      const n = this.src.length;
      if (t === this.rbrack) {
        if (!s.copy.some((key) => spans.endOk[Math.floor(key / SPAN_KEY) * n + (key % SPAN_KEY)])) return bad();
        return this.make(s.stack, null);
      }
      let keys: number[];
      if (s.copy.length === 0) keys = spans.startPositions.get(t) ?? [];
      else
        keys = s.copy.flatMap((key) => {
          const a = Math.floor(key / SPAN_KEY);
          const q = (key % SPAN_KEY) + 1;
          return q < n && this.src[q] === t && (spans.closeAt[a * n + q] ?? -1) >= 0 ? [key + 1] : [];
        });
      if (keys.length === 0) return bad();
      return this.make(s.stack, keys, s.text);
    }
    if (s.name) {
      if (t === this.tables?.end) return this.nameCanEnd(s.name) ? this.make(s.stack, null) : bad();
      const ns = this.stepName(s.name, t);
      return ns ? this.withName(s.stack, ns) : bad();
    }
    if (s.stack.length === 0) {
      if (t === this.eos) return { stack: [], copy: null, text: false, done: true, need: 0 };
      return bad();
    }
    if (this.tables && t >= 0 && t < this.vocab.pieces) {
      // open names: a piece in a relation, class or literal slot starts a name
      const slot = this.nameSlot(s);
      const ns = slot ? this.stepName(slot.fresh, t) : null;
      if (slot && ns) return this.withName(slot.stack, ns);
    }
    const rest = s.stack.slice(0, -1);
    const top = s.stack[s.stack.length - 1];
    switch (top) {
      case EXPR:
      case TOP:
        if (t === this.lbrack && this.spans.startIds.length) return this.make(rest, []);
        if (this.classSet.has(t)) return this.make(rest, null);
        if (t === this.open && top === TOP && this.topHeads.length) return this.make([...rest, CLOSE, TOP_HEAD], null);
        if (t === this.open && this.exprHeads.length) return this.make([...rest, CLOSE, EXPR_HEAD], null);
        return bad();
      case REL:
        if (this.relationSet.has(t)) return this.make(rest, null);
        if (t === this.open && this.op.has('R') && this.hasRel) return this.make([...rest, CLOSE, REL_HEAD], null);
        return bad();
      case REL_NAME:
        return this.relationSet.has(t) ? this.make(rest, null) : bad();
      case LIT:
        if (this.literalSet.has(t)) return this.make(rest, null);
        return bad();
      case CLOSE:
        if (t === this.close) return this.make(rest, null);
        return bad();
      case REL_HEAD:
        if (t === this.op.get('R')) return this.make([...rest, REL_NAME], null);
        return bad();
      case EXPR_HEAD:
      case TOP_HEAD: {
        if (!(top === TOP_HEAD ? this.topHeads : this.exprHeads).includes(t)) return bad();
        const o = defined(this.opOf.get(t), `operator of token ${t}`);
        return this.make([...rest, ...defined(PUSH[o], `PUSH ${o}`)], null);
      }
      // ---- form language v3 ----
      case COL:
        if (this.relationSet.has(t)) return this.make(rest, null);
        if (t === this.open && this.colHeads.length) return this.make([...rest, CLOSE, COL_HEAD], null);
        return bad();
      case COL_HEAD:
        if (!this.colHeads.includes(t)) return bad();
        return this.make(this.opOf.get(t) === 'MINUS' ? [...rest, REL, REL] : [...rest, REL_NAME], null);
      case COLS:
        if (this.relationSet.has(t) || (t === this.open && this.colHeads.length)) return this.advance(this.make([...rest, COLS, COL], null), t);
        return this.advance(this.make(rest, null), t);
      case OPTREL:
        if (this.relationSet.has(t)) return this.make(rest, null);
        if (t === this.open && this.op.has('R') && this.hasRel) return this.make([...rest, CLOSE, REL_HEAD], null);
        return this.advance(this.make(rest, null), t);
      case INT:
        return this.intIds.includes(t) ? this.make(rest, null) : bad();
      case CMP:
        return this.cmpIds.includes(t) ? this.make(rest, null) : bad();
      case STR:
        // the text of CONTAINS opens a copy of the question, as an entity label does (any span: no label filter)
        return t === this.lbrack && this.textSpans.startIds.length ? this.make(rest, [], true) : bad();
      case LIT_OR_REL:
        if (this.literalSet.has(t) || this.relationSet.has(t)) return this.make(rest, null);
        if (t === this.open && this.op.has('R') && this.hasRel) return this.make([...rest, CLOSE, REL_HEAD], null);
        return bad();
      case NUM:
        return t === this.open ? this.make([...rest, CLOSE, NUM_HEAD], null) : bad();
      case SLICED:
        return t === this.open ? this.make([...rest, CLOSE, SLICED_HEAD], null) : bad();
      case GROUPED:
        return t === this.open ? this.make([...rest, CLOSE, GROUPED_HEAD], null) : bad();
      case NUM_HEAD:
      case SLICED_HEAD:
      case GROUPED_HEAD: {
        const heads = top === NUM_HEAD ? this.numHeads : top === SLICED_HEAD ? this.slicedHeads : this.groupedHeads;
        if (!heads.includes(t)) return bad();
        return this.make([...rest, ...defined(PUSH[defined(this.opOf.get(t), `operator of token ${t}`)], 'PUSH')], null);
      }
      case ORDARG:
        // a set operand may be followed by the relation it is ordered by
        if (t === this.lbrack && this.spans.startIds.length) return this.make([...rest, OPTREL], []);
        if (this.classSet.has(t)) return this.make([...rest, OPTREL], null);
        if (t === this.open && this.ordHeads.length) return this.make([...rest, ORDARG_HEAD], null);
        return bad();
      case ORDARG_HEAD: {
        if (!this.ordHeads.includes(t)) return bad();
        const o = defined(this.opOf.get(t), `operator of token ${t}`);
        // a table is ordered by its last column: no relation after it
        return this.make(this.tableArgHeads.has(t) ? [...rest, CLOSE, ...defined(PUSH[o], `PUSH ${o}`)] : [...rest, OPTREL, CLOSE, ...defined(PUSH[o], `PUSH ${o}`)], null);
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
    // a CONTAINS text is no label: the label prior never costs it anything
    if (!this.preferred || t !== this.rbrack || s.copy === null || s.text) return 0;
    const n = this.src.length;
    for (const key of s.copy) {
      const i = Math.floor(key / SPAN_KEY) * n + (key % SPAN_KEY);
      if (this.spans.endOk[i] && this.preferred[i]) return 0;
    }
    return -this.spanPenalty;
  }

  /** Advances through a whole token sequence from the initial state (throws on the first bad token). */
  run(tokens: readonly number[]): ConstraintState {
    let s = this.initial();
    for (const t of tokens) s = this.advance(s, t);
    return s;
  }

  /** A state inside a name: the stack it leaves when it ends, and the name so far. */
  private withName(stack: readonly number[], name: NameState): ConstraintState {
    const base = this.make(stack, null);
    return { ...base, name, need: base.need + name.need };
  }

  private make(stack: readonly number[], copy: readonly number[] | null, text = false): ConstraintState {
    let need = 1; // eos
    for (const item of stack) need += this.cost[item] ?? 1e9;
    if (copy !== null) need += this.copyNeed(copy, text ? this.textSpans : this.spans);
    return { stack, copy, text: copy !== null && text, done: false, need };
  }

  /** Tokens needed to close the span: the pieces up to its nearest possible end, then ']'. */
  private copyNeed(copy: readonly number[], spans: SpanTable): number {
    if (copy.length === 0) return spans.startNeed;
    const n = this.src.length;
    let best = 1e9;
    for (const key of copy) {
      const a = Math.floor(key / SPAN_KEY);
      const p = key % SPAN_KEY;
      const e = spans.closeAt[a * n + p] ?? -1;
      if (e >= 0) best = Math.min(best, e - p + 1);
    }
    return best;
  }
}

/**
 * The form text of a target token sequence (eos excluded): symbols joined by spaces, copied spans
 * decoded with the tokenizer (the text Python's sentencepiece decode gives) and escaped as labels; in an
 * open-name model a name's pieces decoded and made a form token (names.ts openNameToken: "place of birth"
 * → place_of_birth, "1990" stays).
 */
export function tokensToFormText(tokens: readonly number[], vocab: TargetVocabulary, decode: (ids: number[]) => string): string {
  const S = vocab.pieces;
  const end = vocab.names?.end;
  const parts: string[] = [];
  let span: number[] | null = null;
  let name: number[] | null = null;
  for (const t of tokens) {
    if (t === vocab.eos && span === null && name === null) break;
    const sym = t >= S ? vocab.symbols[t - S] : undefined;
    if (name !== null) {
      if (end !== undefined && sym === end) {
        parts.push(openNameToken(decode(name)));
        name = null;
      } else if (t < S) name.push(t);
      else throw new AskgraphError('MODEL_ERROR', `symbol "${sym ?? t}" inside a name`);
      continue;
    }
    if (span !== null) {
      if (sym === ']') {
        parts.push('[ ' + escapeLabel(decode(span).trim()) + ' ]');
        span = null;
      } else if (t < S) span.push(t);
      else throw new AskgraphError('MODEL_ERROR', `symbol "${sym}" inside an entity span`);
      continue;
    }
    if (sym === '[') span = [];
    else if (end !== undefined && sym === end) throw new AskgraphError('MODEL_ERROR', `"${end}" outside a name`);
    else if (sym !== undefined) parts.push(sym);
    else if (end !== undefined && t >= 0 && t < S) name = [t];
    else throw new AskgraphError('MODEL_ERROR', `piece ${t} outside an entity span`);
  }
  if (span !== null) throw new AskgraphError('MODEL_ERROR', 'unclosed entity span');
  if (name !== null) throw new AskgraphError('MODEL_ERROR', 'unfinished name');
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
