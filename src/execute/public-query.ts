import { AskgraphError, type Executor, type Triple } from '../core';
import { EndpointExecutor } from './endpoint';
import { OxigraphExecutor, type UserQueryOptions, type UserQueryResult } from './oxigraph';
import type { CheckedQuery } from './user-query';

export interface UserRunOptions extends UserQueryOptions {
  /** Most rows (SELECT) or triples (CONSTRUCT / DESCRIBE); more is RESULT_TOO_LARGE, or cut here with `truncate`. */
  maxRows: number;
  /** Cut a result over maxRows to maxRows and say so (`truncated`) instead of refusing it (Virtuoso's ResultSetMaxRows). */
  truncate?: boolean;
  /** Remote store: forward SERVICE to the upstream (default: refused). */
  allowService?: boolean;
  /** Remote store: forward FROM / FROM NAMED to the upstream (default: refused). */
  allowDataset?: boolean;
}

function tooLarge(what: string, max: number): AskgraphError {
  return new AskgraphError('RESULT_TOO_LARGE', `the result has more than ${max} ${what}; add a LIMIT of at most ${max} (and page with OFFSET)`, {
    details: { [what === 'bytes' ? 'maxBytes' : 'maxRows']: max },
  });
}

function graphBytes(triples: Triple[]): number {
  let n = 0;
  for (const t of triples) n += t.s.value.length + t.p.value.length + t.o.value.length + 12;
  return n;
}

/**
 * Runs a user query (already checked by analyseQuery) with the public endpoint's policy:
 * - embedded Oxigraph: in its user store process; FROM / FROM NAMED and the protocol's dataset are
 *   honoured; SERVICE is refused (the embedded store has no HTTP client);
 * - a remote endpoint: SERVICE, the upstream's extension functions (`bif:http_get` fetches a URL) and
 *   FROM / FROM NAMED are refused unless allowed (a federating upstream would otherwise fetch any URL
 *   for anyone: an SSRF relay); the protocol's graph
 *   parameters are refused (the upstream's dataset is the one configured with --store).
 * Results over maxRows (rows, or triples of a graph) are cut to maxRows with `truncate` (the result
 * says `truncated: true`), else RESULT_TOO_LARGE; over maxBytes they are RESULT_TOO_LARGE.
 */
export async function runUserQuery(ex: Executor, checked: CheckedQuery, opts: UserRunOptions): Promise<UserQueryResult & { truncated?: boolean }> {
  let result: UserQueryResult;
  if (ex instanceof OxigraphExecutor) {
    result = await ex.runChecked(checked, opts);
  } else {
    if (checked.service && !opts.allowService) {
      throw new AskgraphError('FEDERATION_FORBIDDEN', 'SERVICE (federated query) is refused by this endpoint (server setting sparql.allowService)');
    }
    if (checked.functions.length > 0 && !opts.allowService) {
      // the upstream's own functions run inside it with its network: Virtuoso's bif:http_get fetches any URL
      throw new AskgraphError('FUNCTION_FORBIDDEN', `extension functions of the upstream endpoint are refused by this endpoint (${checked.functions.slice(0, 3).map((f) => `<${f}>`).join(', ')}): some fetch URLs; SPARQL's own functions and XSD casts are accepted (server setting sparql.allowService)`, {
        details: { functions: checked.functions },
      });
    }
    if (opts.dataset) {
      throw new AskgraphError('DATASET_UNSUPPORTED', 'default-graph-uri / named-graph-uri are not supported with a remote store; the dataset is the upstream endpoint\'s');
    }
    if (checked.dataset && !opts.allowDataset) {
      throw new AskgraphError('DATASET_UNSUPPORTED', 'FROM / FROM NAMED are refused by this endpoint (server setting sparql.allowDataset)');
    }
    if (ex instanceof EndpointExecutor) result = await ex.runChecked(checked, opts);
    else if (checked.form === 'SELECT') result = { form: 'SELECT', result: await ex.select(checked.run, opts) };
    else if (checked.form === 'ASK') result = { form: 'ASK', value: await ex.ask(checked.run, opts) };
    else result = { form: checked.form, triples: await ex.construct(checked.run, opts) };
  }
  let truncated = false;
  if (result.form === 'SELECT' && result.result.rows.length > opts.maxRows) {
    if (!opts.truncate) throw tooLarge('rows', opts.maxRows);
    result = { ...result, result: { ...result.result, rows: result.result.rows.slice(0, opts.maxRows) } };
    truncated = true;
  }
  if ((result.form === 'CONSTRUCT' || result.form === 'DESCRIBE') && result.triples.length > opts.maxRows) {
    if (!opts.truncate) throw tooLarge('triples', opts.maxRows);
    result = { ...result, triples: result.triples.slice(0, opts.maxRows) };
    truncated = true;
  }
  if (opts.maxBytes !== undefined && (result.form === 'CONSTRUCT' || result.form === 'DESCRIBE') && graphBytes(result.triples) > opts.maxBytes) {
    throw tooLarge('bytes', opts.maxBytes);
  }
  return truncated ? { ...result, truncated } : result;
}
