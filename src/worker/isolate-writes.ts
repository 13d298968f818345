/**
 * One batched outcome write that fails because of one of its rows (its data, a constraint, a
 * trigger that refuses it) must not hold back the rest: the batch is split in halves until the
 * rows that fail alone are found, and every other row is written. A failure of any other kind
 * (the connection, the server) says nothing about the rows: the batch waits for the next flush.
 */

/** SQLSTATE classes a row's own content causes: data exception, integrity constraint, program limit, a raised exception. */
const ROW_ERROR_CLASSES = new Set(['22', '23', '54', 'P0'])

export function isRowError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && ROW_ERROR_CLASSES.has(code.slice(0, 2))
}

export interface IsolatedWrite<T> {
  /** Items in batches that committed. */
  written: T[]
  /** Items not attempted or in a batch that failed for no reason of its rows: write them later. */
  pending: T[]
  /** That failure, when there was one. */
  error?: unknown
  /** Items that failed alone, each with its own error. */
  refused: { item: T; error: unknown }[]
}

export async function writeIsolating<T>(items: readonly T[], write: (batch: T[]) => Promise<void>): Promise<IsolatedWrite<T>> {
  const out: IsolatedWrite<T> = { written: [], pending: [], refused: [] }
  const batches: T[][] = [[...items]]
  while (batches.length > 0) {
    const batch = batches.shift() as T[]
    if (out.error !== undefined) {
      out.pending.push(...batch)
      continue
    }
    try {
      await write(batch)
      out.written.push(...batch)
    } catch (err) {
      if (!isRowError(err)) {
        out.error = err
        out.pending.push(...batch)
      } else if (batch.length === 1) {
        out.refused.push({ item: batch[0], error: err })
      } else {
        const half = Math.ceil(batch.length / 2)
        batches.unshift(batch.slice(0, half), batch.slice(half))
      }
    }
  }
  return out
}
