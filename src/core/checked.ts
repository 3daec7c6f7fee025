import { AskgraphError } from './errors';

/**
 * Checked reads for places where the code's own logic guarantees a value (under `noUncheckedIndexedAccess` an
 * index or a map look-up is typed `T | undefined`). A broken guarantee is a bug: it throws INTERNAL with what was
 * read, instead of carrying `undefined` on. Use them only for lists and maps whose items are never `undefined`;
 * where a missing item is a normal case, test for it (`?.`, `??`, `for…of`, destructuring with a default).
 */
export function itemAt<T>(list: ArrayLike<T>, index: number, what = 'list'): T {
  const x = list[index < 0 ? list.length + index : index];
  if (x === undefined) throw new AskgraphError('INTERNAL', `${what}: no item at index ${index} of ${list.length}`);
  return x;
}

/** The value, or an INTERNAL error naming what was missing (a Map look-up or a regular-expression group that must exist). */
export function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new AskgraphError('INTERNAL', `${what}: missing`);
  return value;
}

/** The value of `?name` in a result row of a query that always binds it (an INTERNAL error where it is unbound). */
export function bindingOf<T>(row: Readonly<Record<string, T>>, name: string): T {
  const value = row[name];
  if (value === undefined) throw new AskgraphError('INTERNAL', `query result row has no ?${name}`);
  return value;
}

/** Appends to the list under `key` of a map of lists, starting the list when the key is new. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The value under `key`, made and stored on first use (a cache, or a map of lists/sets to add to). */
export function getOrAdd<K, V>(map: { get(key: K): V | undefined; set(key: K, value: V): unknown }, key: K, make: (key: K) => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make(key);
    map.set(key, value);
  }
  return value;
}
