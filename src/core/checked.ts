import { AskgraphError } from './errors';

/**
 * Checked reads for places where the code's own logic guarantees a value (under `noUncheckedIndexedAccess` an
 * index or a map look-up is typed `T | undefined`). A broken guarantee is a bug: it throws INTERNAL with what was
 * read, instead of carrying `undefined` on. Use them only for lists and maps whose items are never `undefined`;
 * where a missing item is a normal case, test for it (`?.`, `??`, `for…of`, destructuring with a default).
 */
export function itemAt<T>(list: readonly T[], index: number, what = 'list'): T {
  const x = list[index < 0 ? list.length + index : index];
  if (x === undefined) throw new AskgraphError('INTERNAL', `${what}: no item at index ${index} of ${list.length}`);
  return x;
}

/** The value, or an INTERNAL error naming what was missing (a Map look-up or a regular-expression group that must exist). */
export function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new AskgraphError('INTERNAL', `${what}: missing`);
  return value;
}
