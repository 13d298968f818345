/**
 * Finished jobs as they arrive, for live views: pgqueuer_log rows of a terminal status after a
 * log id, read through the log's primary key (never a scan of the log, however long it is).
 */
import type { Queryable } from '../db/queryable.js'

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
  const { rows } = await db.query<{ id: string | null }>('SELECT max(id)::text AS id FROM pgqueuer_log')
  return rows[0].id ?? '0'
}

/**
 * Terminal log rows after `afterLogId`, oldest first, at most `limit`; with no cursor, the
 * newest `limit` of them (a page's first view).
 */
export async function readOutcomes(db: Queryable, afterLogId: string | null, limit: number): Promise<Outcome[]> {
  const { rows } = await db.query<{ id: string; job_id: string; entrypoint: string; status: string; created: Date }>(
    afterLogId === null
      ? `SELECT * FROM (SELECT id::text, job_id::text, entrypoint, status::text, created FROM pgqueuer_log
          WHERE status NOT IN ('queued', 'picked') ORDER BY id DESC LIMIT $1) t ORDER BY id::bigint`
      : `SELECT id::text, job_id::text, entrypoint, status::text, created FROM pgqueuer_log
          WHERE id > $2::bigint AND status NOT IN ('queued', 'picked') ORDER BY id LIMIT $1`,
    afterLogId === null ? [limit] : [limit, afterLogId],
  )
  return rows.map((r) => ({ logId: r.id, jobId: r.job_id, entrypoint: r.entrypoint, status: r.status, created: r.created.toISOString() }))
}
