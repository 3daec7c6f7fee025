import { AskgraphError, itemAt, type SelectResult } from '../core';

/** The number of a count query: the single projected variable of its first row (no row = 0). */
export function countFromSelect(res: SelectResult): number {
  if (res.vars.length !== 1) {
    throw new AskgraphError('BAD_REQUEST', `a count query projects exactly one variable, this one ${res.vars.length}`);
  }
  const cell = res.rows[0]?.[itemAt(res.vars, 0, 'count query variables')];
  if (!cell) return 0;
  const n = Number(cell.value);
  if (!Number.isFinite(n)) throw new AskgraphError('ENDPOINT_ERROR', `count is not a number: ${cell.value}`);
  return n;
}
