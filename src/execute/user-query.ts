import { Parser, type SparqlQuery } from 'sparqljs';
import { AskgraphError } from '../core';
import { generateSparql, parseSparql } from '../sparql';
import type { QueryForm } from './readonly';

/**
 * Checks of SPARQL written by users (the /sparql endpoint), before a store sees it:
 *  1. precheckQuery: a linear scan on the main thread (size, bracket nesting depth) — the only work a
 *     request does on the main thread, so no query text can block other routes (sparqljs' parser grows
 *     much faster than linearly with nesting, and Oxigraph's evaluator overflows on deep or very long
 *     queries). It is a cheap first filter that skips what SPARQL's lexer skips (strings, IRIs,
 *     comments, PN_LOCAL_ESC escapes such as `e:a\#`);
 *  2. analyseQuery: the nesting depth again on sparqljs' own tokens (its lexer, so no escaping trick
 *     can hide a bracket the parser reads), then one sparqljs parse (in the checker worker, see
 *     checker.ts): form, updates refused,
 *     pattern count, SERVICE, the query's FROM / FROM NAMED dataset, and the text to run with the row
 *     cap applied as a LIMIT (so a cartesian product stops at maxRows + 1 solutions instead of being
 *     materialised).
 */
export interface UserQueryLimits {
  /** Longest query text in bytes (UTF-8). */
  maxQueryBytes: number;
  /** Deepest nesting of { ( [ brackets. */
  maxDepth: number;
  /** Most triple patterns + graph patterns + expressions in one query. */
  maxPatterns: number;
  /** Most result rows (SELECT) or solutions (CONSTRUCT / DESCRIBE) sent back; more is RESULT_TOO_LARGE. */
  maxRows: number;
}

export const DEFAULT_USER_QUERY_LIMITS: UserQueryLimits = { maxQueryBytes: 32 * 1024, maxDepth: 48, maxPatterns: 1000, maxRows: 10_000 };

export interface QueryDataset {
  default: string[];
  named: string[];
}

export interface CheckedQuery {
  form: QueryForm;
  /** The text a store runs: the user's query, with LIMIT maxRows + 1 when it had none (or a larger one). */
  run: string;
  /** True when `run` carries the cap's LIMIT: maxRows + 1 rows back means the result was too large. */
  capped: boolean;
  /** The query uses SERVICE (federation). */
  service: boolean;
  /** IRIs of the extension functions the query calls (any function IRI but an XSD cast: `bif:http_get`, …). */
  functions: string[];
  /** FROM / FROM NAMED of the query, when it has any. */
  dataset?: QueryDataset;
  /** Size of the query's algebra (see countPatterns). */
  patterns: number;
}

const IRI_REF = /<[^<>"{}|^`\\\u0000-\u0020]*>/y;

/**
 * Size and nesting depth by a single pass over the text that skips strings, IRIs and comments.
 * Throws QUERY_TOO_COMPLEX (400) before any parser runs.
 */
export function precheckQuery(text: string, limits: UserQueryLimits): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxQueryBytes) {
    throw new AskgraphError('QUERY_TOO_COMPLEX', `the query has ${bytes} bytes; at most ${limits.maxQueryBytes} are accepted`, {
      details: { bytes, maxQueryBytes: limits.maxQueryBytes },
    });
  }
  let depth = 0;
  let max = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x28 || c === 0x5b) {
      // { ( [
      if (++depth > max) {
        max = depth;
        if (max > limits.maxDepth) {
          throw new AskgraphError('QUERY_TOO_COMPLEX', `the query nests brackets deeper than ${limits.maxDepth} levels`, {
            details: { maxDepth: limits.maxDepth },
          });
        }
      }
    } else if (c === 0x7d || c === 0x29 || c === 0x5d) {
      depth = Math.max(0, depth - 1);
    } else if (c === 0x5c) {
      // \ outside a string is a PN_LOCAL_ESC (e:a\# e:a\' e:a\( …): the next character is part of a name
      i++;
    } else if (c === 0x23) {
      // # comment to the end of the line (\n or \r, as SPARQL's lexer ends it)
      let j = i + 1;
      while (j < n && text.charCodeAt(j) !== 0x0a && text.charCodeAt(j) !== 0x0d) j++;
      i = j;
    } else if (c === 0x22 || c === 0x27) {
      // "…", '…', """…""", '''…''' (escapes skip the next character)
      const q = c === 0x22 ? '"' : "'";
      const long = text.startsWith(q.repeat(3), i);
      const close = long ? q.repeat(3) : q;
      let j = i + close.length;
      while (j < n && !text.startsWith(close, j)) j += text[j] === '\\' ? 2 : 1;
      i = j + close.length - 1;
    } else if (c === 0x3c) {
      // an IRI, or the < operator
      IRI_REF.lastIndex = i;
      if (IRI_REF.test(text)) i = IRI_REF.lastIndex - 1;
    }
  }
}

const OPEN_TOKENS = new Set(['{', '(', '[', '<<', '{|']);
const CLOSE_TOKENS = new Set(['}', ')', ']', '>>', '|}']);
interface JisonLexer {
  setInput(text: string, yy: object): void;
  lex(): number | string;
  yytext: string;
  EOF: number;
}
let lexerProto: JisonLexer | undefined;

/**
 * Bracket nesting depth ({ ( [ << {|) counted on the tokens of sparqljs' own lexer, the one its parser
 * reads: strings, IRIs, comments and escapes in prefixed names are whatever the parser takes them for.
 * Linear in the text (one token at a time). Throws QUERY_TOO_COMPLEX over limits.maxDepth. A text the
 * lexer cannot read further is left to the parser, which stops at the same place with SPARQL_SYNTAX.
 */
export function checkTokenDepth(text: string, limits: UserQueryLimits): void {
  lexerProto ??= (new Parser() as unknown as { lexer: JisonLexer }).lexer;
  const lexer = Object.create(lexerProto) as JisonLexer;
  lexer.setInput(text, {});
  let depth = 0;
  for (;;) {
    let tok: number | string;
    try {
      tok = lexer.lex();
    } catch {
      return;
    }
    if (tok === lexer.EOF || tok === 'EOF') return;
    const t = lexer.yytext;
    if (OPEN_TOKENS.has(t)) {
      if (++depth > limits.maxDepth) {
        throw new AskgraphError('QUERY_TOO_COMPLEX', `the query nests brackets deeper than ${limits.maxDepth} levels`, {
          details: { maxDepth: limits.maxDepth },
        });
      }
    } else if (CLOSE_TOKENS.has(t)) depth = Math.max(0, depth - 1);
  }
}

/** Nodes of the sparqljs AST that cost evaluation: triples, graph patterns, operations. */
function countPatterns(node: unknown, depth = 0): number {
  if (depth > 400 || node === null || typeof node !== 'object') return 0;
  if (Array.isArray(node)) {
    let n = 0;
    for (const x of node) n += countPatterns(x, depth + 1);
    return n;
  }
  const o = node as Record<string, unknown>;
  // terms (NamedNode, Literal, Variable …) carry termType and cost nothing
  if (typeof o.termType === 'string') return 0;
  let n = 0;
  if (typeof o.type === 'string' || ('subject' in o && 'predicate' in o && 'object' in o)) n = 1;
  for (const [k, v] of Object.entries(o)) if (k !== 'prefixes' && v && typeof v === 'object') n += countPatterns(v, depth + 1);
  return n;
}

const XSD_NS = 'http://www.w3.org/2001/XMLSchema#';

/** Extension function IRIs called anywhere in the query (sparqljs `functionCall` nodes; XSD casts are SPARQL's own). */
function extensionFunctions(node: unknown, out = new Set<string>(), depth = 0): Set<string> {
  if (depth > 400 || node === null || typeof node !== 'object') return out;
  if (Array.isArray(node)) {
    for (const x of node) extensionFunctions(x, out, depth + 1);
    return out;
  }
  const o = node as Record<string, unknown>;
  const fn = o.function as { termType?: string; value?: string } | undefined;
  if (o.type === 'functionCall' && fn?.termType === 'NamedNode' && typeof fn.value === 'string' && !fn.value.startsWith(XSD_NS)) out.add(fn.value);
  for (const [k, v] of Object.entries(o)) if (k !== 'prefixes' && v !== null && typeof v === 'object') extensionFunctions(v, out, depth + 1);
  return out;
}

function usesService(node: unknown, depth = 0): boolean {
  if (depth > 400 || node === null || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.some((x) => usesService(x, depth + 1));
  const o = node as Record<string, unknown>;
  if (o.type === 'service') return true;
  return Object.entries(o).some(([k, v]) => k !== 'prefixes' && v !== null && typeof v === 'object' && usesService(v, depth + 1));
}

/**
 * Parses once and checks (see the file comment). Throws SPARQL_SYNTAX, UPDATE_FORBIDDEN or
 * QUERY_TOO_COMPLEX. The caller decides what SERVICE and the dataset mean for its store.
 */
export function analyseQuery(text: string, limits: UserQueryLimits): CheckedQuery {
  precheckQuery(text, limits);
  checkTokenDepth(text, limits);
  const parsed = parseSparql(text);
  if (parsed.type === 'update') {
    const ops = parsed.updates.map((u) => ('updateType' in u ? u.updateType : u.type)).join(', ');
    throw new AskgraphError('UPDATE_FORBIDDEN', `this endpoint is read-only: SPARQL updates are refused (${ops || 'update'})`);
  }
  const patterns = countPatterns(parsed);
  if (patterns > limits.maxPatterns) {
    throw new AskgraphError('QUERY_TOO_COMPLEX', `the query has ${patterns} patterns and expressions; at most ${limits.maxPatterns} are accepted`, {
      details: { patterns, maxPatterns: limits.maxPatterns },
    });
  }
  const form = parsed.queryType;
  const from = parsed.from;
  const dataset = from && (from.default.length > 0 || from.named.length > 0) ? { default: from.default.map((g) => g.value), named: from.named.map((g) => g.value) } : undefined;
  let run = text;
  let capped = false;
  // sparqljs' types give CONSTRUCT no solution modifiers, but its parser reads them for every form
  const mod = parsed as { limit?: number; values?: unknown };
  if (form !== 'ASK' && (mod.limit === undefined || mod.limit > limits.maxRows)) {
    capped = true;
    if (mod.limit === undefined && mod.values === undefined) run = `${text}\nLIMIT ${limits.maxRows + 1}`;
    else run = generateSparql({ ...parsed, limit: limits.maxRows + 1 } as SparqlQuery);
  }
  return { form, run, capped, service: usesService(parsed.where ?? []), functions: [...extensionFunctions(parsed)], ...(dataset ? { dataset } : {}), patterns };
}
