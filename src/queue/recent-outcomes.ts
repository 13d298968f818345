/**
 * Finished jobs as they arrive, for live views: pgqueuer_log rows of a terminal status after a
 * log id, read through the log's primary key (never a scan of the log, however long it is).
 */
import type { Queryable } from '../db/queryable.js'
import { LATEST_LOG_ID, READ_OUTCOMES_AFTER, READ_OUTCOMES_SINCE } from './sql/recent-outcomes.js'

export interface Outcome {
  logId: string
  jobId: string
  entrypoint: string
  /** successful, exception, canceled, deleted, or failed (held). */
  status: string
  created: string
}

/** The newest log id: where a live view starts, so it reports only what finishes after. */
export async function latestLogId(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ id: string | null }>(LATEST_LOG_ID)
  return rows[0].id ?? '0'
}

/**
 * Terminal log rows after `afterLogId`, oldest first, at most `limit`; with no cursor, the
 * newest `limit` of them (a page's first view).
 */
export async function readOutcomes(db: Queryable, afterLogId: string | null, limit: number): Promise<Outcome[]> {
  const { rows } = await db.query<{ id: string; job_id: string; entrypoint: string; status: string; created: Date }>(
    afterLogId === null ? READ_OUTCOMES_AFTER : READ_OUTCOMES_SINCE,
    afterLogId === null ? [limit] : [limit, afterLogId],
  )
  return rows.map((r) => ({ logId: r.id, jobId: r.job_id, entrypoint: r.entrypoint, status: r.status, created: r.created.toISOString() }))
}
