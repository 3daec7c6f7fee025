/**
 * The one file of src/serve that reaches into other stages (through their index), so an API move
 * elsewhere is adapted here only.
 */
import { AskgraphError } from '../core';
import { Parser } from 'sparqljs';

// TODO(serve): use queryKind from '../compile' once its index builds (it is being written now).
function queryKind(text: string): ReadQueryKind | 'update' {
  let q: import('sparqljs').SparqlQuery;
  try {
    q = new Parser().parse(text);
  } catch (e) {
    throw new AskgraphError('SPARQL_SYNTAX', `SPARQL syntax error: ${String((e as Error).message).split('\n')[0]}`, { cause: e });
  }
  return q.type === 'update' ? 'update' : (q.queryType.toLowerCase() as ReadQueryKind);
}

export type ReadQueryKind = 'select' | 'ask' | 'construct' | 'describe';

/**
 * Classifies a SPARQL request text: a read query kind, or UPDATE_FORBIDDEN for any update
 * (INSERT/DELETE/DROP/LOAD/CLEAR/CREATE/…), SPARQL_SYNTAX when it does not parse.
 */
export function classifyQuery(text: string): ReadQueryKind {
  const kind = queryKind(text);
  if (kind === 'update') throw new AskgraphError('UPDATE_FORBIDDEN', 'this endpoint is read-only: SPARQL updates are refused');
  return kind;
}

/** The structural diff of two forms (as `askgraph diff --json` prints it); undefined until src/form exports it. */
export const diffFormsText: ((a: string, b: string) => unknown) | undefined = undefined;

/** The pipeline's gateway for a server config (store / model / pack). */
export async function openGateway(_cfg: { store?: string; model?: string; pack?: string }): Promise<import('./gateway').ServeGateway> {
  throw new AskgraphError('MODEL_UNAVAILABLE', 'the pipeline (createGateway) is not available in this build yet');
}
