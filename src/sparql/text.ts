import { Generator, Parser, SparqlQuery } from 'sparqljs';
import { AskgraphError, XSD } from '../core';

/** Prefixes a query may use without declaring them (CWQ writes `xsd:datetime(…)` undeclared). */
const IMPLICIT_PREFIXES: Record<string, string> = { xsd: XSD };

export function generateSparql(query: SparqlQuery): string {
  return new Generator({ allPrefixes: false }).stringify(query);
}

/**
 * Parse SPARQL 1.1 (query or update) into the sparqljs AST. Syntax errors become SPARQL_SYNTAX with
 * line / column when sparqljs reports them. `implicitPrefixes` lets data-set queries use xsd: undeclared.
 */
export function parseSparql(text: string, opts: { implicitPrefixes?: boolean } = {}): SparqlQuery {
  if (typeof text !== 'string' || text.trim() === '') throw new AskgraphError('SPARQL_SYNTAX', 'empty SPARQL query');
  const parser = new Parser({ ...(opts.implicitPrefixes ? { prefixes: { ...IMPLICIT_PREFIXES } } : {}) });
  try {
    return parser.parse(text);
  } catch (e) {
    const err = e as { message?: unknown; hash?: { line?: number; token?: string; text?: string; loc?: { first_line?: number; first_column?: number } } };
    const loc = err.hash?.loc;
    const line = loc?.first_line ?? (err.hash?.line !== undefined ? err.hash.line + 1 : undefined);
    let column = loc?.first_column !== undefined ? loc.first_column + 1 : undefined;
    // jison's location can lag behind the offending token; point at the token itself when it follows.
    const tokenText = err.hash?.text;
    if (line !== undefined && column !== undefined && tokenText) {
      const at = (text.split('\n')[line - 1] ?? '').indexOf(tokenText, column - 1);
      if (at >= 0) column = at + 1;
    }
    const where = line !== undefined ? ` at line ${line}${column !== undefined ? `, column ${column}` : ''}` : '';
    const what = err.hash?.text !== undefined ? `unexpected ${JSON.stringify(err.hash.text)}` : String(err.message ?? e).split('\n')[0];
    throw new AskgraphError('SPARQL_SYNTAX', `${what}${where}`, {
      cause: e,
      details: { ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}), message: String(err.message ?? e) },
    });
  }
}

export type QueryKind = 'select' | 'ask' | 'construct' | 'describe' | 'update';

export function queryKind(text: string): QueryKind {
  const q = parseSparql(text);
  if (q.type === 'update') return 'update';
  return q.queryType.toLowerCase() as QueryKind;
}

/** Refuse every SPARQL Update (INSERT, DELETE, LOAD, CLEAR, DROP, CREATE, ADD, MOVE, COPY) with UPDATE_FORBIDDEN. */
export function assertReadOnly(text: string): void {
  const q = parseSparql(text);
  if (q.type === 'update') {
    const ops = q.updates.map((u) => ('updateType' in u ? u.updateType : u.type)).join(', ');
    throw new AskgraphError('UPDATE_FORBIDDEN', `SPARQL updates are not allowed (${ops || 'update'}); the gateway is read-only`);
  }
}
