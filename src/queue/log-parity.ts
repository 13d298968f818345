/**
 * PgQueuer writes a `queued` log row on enqueue and a `picked` one on pick; aizk writes them
 * only with AIZK_QUEUE_LOG_PARITY (docs/pgqueuer-interop.md has the measured cost). This wraps
 * an INSERT or UPDATE ... RETURNING id, priority, entrypoint so it also logs each row it returns.
 */
import { DatabasePool } from '../db/database-pool.js'
import { DeadlineClient } from '../db/deadline-client.js'

export { withLogRows } from './sql/log-parity.js'

/**
 * Whether `db` writes parity rows: a pool `openDatabase` opened with the setting on, or one of its
 * clients. A pool or client of the application's own writes them only when asked (`logQueued`).
 */
export function queueLogParity(db: object): boolean {
  return (db instanceof DatabasePool || db instanceof DeadlineClient) && db.logParity
}
