/**
 * Success: the finished rows leave the table and each writes one `successful` log row, many
 * jobs in one statement (one commit, one NOTIFY from the DELETE trigger). The statement is the
 * SQL function aizk_complete (src/db/definitions/functions/aizk_complete.sql). Only rows this
 * worker still owns are completed.
 */
import type { Queryable } from '../db/queryable.js'
import { idArray } from './notify.js'

const COMPLETE = { name: 'aizk_complete', text: 'SELECT aizk_complete($1::bigint[], $2::uuid) AS n' }

/** Complete jobs by id; returns how many were still this worker's and were completed. */
export async function completeJobs(db: Queryable, queueManagerId: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0
  const result = await db.query<{ n: string }>({ ...COMPLETE, values: [idArray(ids), queueManagerId] })
  return Number(result.rows[0].n)
}
