import { AskgraphError, type Executor, type QueryOptions, type SelectResult, type Triple } from '../core';
import { assertReadOnly, parseSparql } from '../sparql';

export type QueryForm = 'SELECT' | 'ASK' | 'CONSTRUCT' | 'DESCRIBE';

/**
 * Parses a query once at the edge of every executor: syntax errors become SPARQL_SYNTAX and any update
 * (INSERT, DELETE, LOAD, CLEAR, DROP…) is refused with UPDATE_FORBIDDEN before a store sees it.
 * Returns the query form, which picks the result type.
 */
export function checkReadOnly(query: string): QueryForm {
  const parsed = parseSparql(query);
  if (parsed.type === 'update') {
    assertReadOnly(query); // throws UPDATE_FORBIDDEN naming the operations
    throw new AskgraphError('UPDATE_FORBIDDEN', 'SPARQL updates are not allowed; the gateway is read-only');
  }
  return parsed.queryType;
}

/** The same check, but the query must have the given form (select() given an ASK is a caller bug shown as BAD_REQUEST). */
export function expectForm(query: string, ...forms: QueryForm[]): QueryForm {
  const form = checkReadOnly(query);
  if (!forms.includes(form)) {
    throw new AskgraphError('BAD_REQUEST', `expected a ${forms.join(' or ')} query, got ${form}`);
  }
  return form;
}

/** Any read-only query on an executor, its result by the query's form (CLI `run --sparql`, the /sparql route). */
export function queryByForm(
  executor: Pick<Executor, 'select' | 'ask' | 'construct'>,
  query: string,
  opts?: QueryOptions,
): Promise<SelectResult | boolean | Triple[]> {
  const form = checkReadOnly(query);
  if (form === 'SELECT') return executor.select(query, opts);
  if (form === 'ASK') return executor.ask(query, opts);
  return executor.construct(query, opts);
}
