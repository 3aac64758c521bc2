// Reading a long result a batch at a time, each batch starting after the last row of the one before (a
// keyset, as the list pages do): a statement per batch, never an OFFSET, never the whole result in memory.
// What exports stream (common/csv.ts).

/** Batches of `read(after, size)` until one comes back short; `keyOf` names where the next one starts. */
export async function* keysetBatches<T, K>(
  read: (after: K | undefined, size: number) => Promise<readonly T[]>,
  keyOf: (row: T) => K,
  size: number,
): AsyncGenerator<readonly T[]> {
  let after: K | undefined;
  for (;;) {
    const rows = await read(after, size);
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (rows.length < size || last === undefined) return;
    after = keyOf(last);
  }
}

/** `batches` with each row mapped. */
export async function* mapBatches<T, U>(
  batches: AsyncIterable<readonly T[]>,
  map: (row: T) => U,
): AsyncGenerator<readonly U[]> {
  for await (const rows of batches) yield rows.map(map);
}
