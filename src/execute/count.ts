import { AskgraphError, SelectResult } from '../core';

/** The number of a count query: the single projected variable of its first row (no row = 0). */
export function countFromSelect(res: SelectResult): number {
  if (res.vars.length !== 1) {
    throw new AskgraphError('BAD_REQUEST', `a count query projects exactly one variable, this one ${res.vars.length}`);
  }
  const row = res.rows[0];
  if (!row || !row[res.vars[0]]) return 0;
  const n = Number(row[res.vars[0]].value);
  if (!Number.isFinite(n)) throw new AskgraphError('ENDPOINT_ERROR', `count is not a number: ${row[res.vars[0]].value}`);
  return n;
}
