/**
 * Which clients are inside a scoped transaction right now (the app role, row security on). The
 * scope module marks them; the queue asks, because the app role enqueues through its one door,
 * aizk_app_enqueue, not by inserting queue rows (docs/security.md).
 */
import type pg from 'pg'
import { boundaryRefusals } from './boundary-refusals.js'
import { guardTransaction } from './transaction-guard.js'

const scoped = new WeakSet<object>()

/**
 * Run `fn` with a guarded stand-in for `client` (transaction-guard.ts), marked as scoped. When
 * the scoped code ended the transaction, or tried to, `fn` fails with TransactionEscapeError even
 * if it caught that error itself.
 */
export async function asScoped<T>(client: pg.PoolClient, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const guard = guardTransaction(client)
  scoped.add(guard.client)
  try {
    const result = await fn(guard.client)
    if (guard.escaped()) throw guard.escaped()
    return result
  } catch (err) {
    const escaped = guard.escaped()
    if (escaped) boundaryRefusals.transactionEscapes++
    throw escaped ?? err
  } finally {
    scoped.delete(guard.client)
  }
}

/** Whether `db` is a client inside a scoped transaction. */
export function isScopedClient(db: object): boolean {
  return scoped.has(db)
}
