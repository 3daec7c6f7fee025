/**
 * Closes what an after() hook owns, one after the other in the order given. An item that a failed before() hook
 * never opened is still undefined and is skipped, so the hook reports nothing beyond the first failure.
 */
export async function closeAll(...items: ({ close(): Promise<unknown> } | undefined)[]): Promise<void> {
  for (const item of items) await item?.close();
}
