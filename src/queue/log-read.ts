/**
 * Recent pgqueuer_log rows for operators and assistants, newest first by id: the whole log through
 * its primary key, failures (aizk's holds, PgQueuer's exceptions) through pgqueuer_log_failures
 * (migration 0032). Both read a bounded page, never the whole table.
 */
import type { Queryable } from '../db/queryable.js'
import { READ_RECENT_FAILURES, READ_RECENT_LOG } from './sql/log-read.js'

export interface LogRow {
  id: string
  created: string
  jobId: string
  status: string
  priority: number
  entrypoint: string
  traceback: unknown
}

type Raw = { id: string; created: Date; job_id: string; status: string; priority: number; entrypoint: string; traceback: unknown }

const toRow = (r: Raw): LogRow => ({
  id: r.id,
  created: r.created.toISOString(),
  jobId: r.job_id,
  status: r.status,
  priority: r.priority,
  entrypoint: r.entrypoint,
  traceback: r.traceback,
})

/** The newest `limit` log rows of every status. */
export async function readRecentLog(db: Queryable, limit: number): Promise<LogRow[]> {
  const { rows } = await db.query<Raw>(READ_RECENT_LOG, [limit])
  return rows.map(toRow)
}

/** The newest `limit` failures: `failed` (an aizk hold) and `exception` (a PgQueuer worker's), with their tracebacks. */
export async function readRecentFailures(db: Queryable, limit: number): Promise<LogRow[]> {
  const { rows } = await db.query<Raw>(READ_RECENT_FAILURES, [limit])
  return rows.map(toRow)
}
