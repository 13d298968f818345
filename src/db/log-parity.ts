/**
 * Which connections write PgQueuer's `queued` and `picked` log rows (AIZK_QUEUE_LOG_PARITY). The
 * setting belongs to the database a process opened, so it travels with its pools and their
 * clients: enqueue and requeue take any Queryable and ask here, never the environment.
 */
import type pg from 'pg'

const parity = new WeakSet<object>()

/** Every connection of `pool` (and the pool itself) writes parity log rows. Call before its first connect. */
export function enableLogParity(pool: pg.Pool): void {
  parity.add(pool)
  pool.on('connect', (client) => parity.add(client))
}

/** Whether `db` (a pool or one of its clients) was opened with log parity on. */
export function writesLogParity(db: object): boolean {
  return parity.has(db)
}
