/**
 * Success: the finished rows leave the table and each writes one `successful` log row, many
 * jobs in one statement (one commit, one NOTIFY from the DELETE trigger). Only rows this worker
 * still owns are completed: a row re-picked after a stale heartbeat belongs to its new worker.
 */
import type { Queryable } from '../db/queryable.js'
import { idArray } from './notify.js'

const COMPLETE = {
  name: 'aizk_complete',
  text: `WITH done AS (
           DELETE FROM pgqueuer
            WHERE id = ANY ($1::bigint[]) AND queue_manager_id = $2 AND status = 'picked'
           RETURNING id, priority, entrypoint)
         INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint)
         SELECT id, 'successful', priority, entrypoint FROM done`,
}

/** Complete jobs by id; returns how many were still this worker's and were completed. */
export async function completeJobs(db: Queryable, queueManagerId: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0
  const result = await db.query({ ...COMPLETE, values: [idArray(ids), queueManagerId] })
  return result.rowCount ?? 0
}
