/**
 * Where each of a set of jobs stands now, for waiting on them: its row while it is queued,
 * picked or held, else the newest finishing row of its log (successful, exception, canceled,
 * deleted). One statement, so row and log are read in one snapshot: a job finishing meanwhile
 * is seen either still in the table or already in the log, never in neither. Index probes only:
 * pgqueuer's primary key and pgqueuer_log (job_id, created).
 */
import type { Queryable } from '../db/queryable.js'
import { STATUS_SQL } from './sql/job-status.js'

/** A job that will not move again by itself. `held` may still be requeued by an operator. */
export type FinalStatus = 'successful' | 'held' | 'exception' | 'canceled' | 'deleted' | 'missing'
export type CurrentStatus = FinalStatus | 'queued' | 'picked'

/**
 * The status of each id. A row gone with a `failed` log row last was removed without a log row
 * of its own (a truncate): `deleted`. No row and no log row: `missing` (never enqueued, or its
 * log already pruned).
 */
export async function readJobStatuses(db: Queryable, ids: readonly string[]): Promise<Map<string, CurrentStatus>> {
  const out = new Map<string, CurrentStatus>()
  if (ids.length === 0) return out
  const { rows } = await db.query<{ id: string; row_status: string | null; log_status: string | null }>(STATUS_SQL, [ids])
  for (const r of rows) out.set(r.id, currentStatus(r.row_status, r.log_status))
  return out
}

function currentStatus(row: string | null, log: string | null): CurrentStatus {
  if (row === 'failed') return 'held'
  if (row === 'queued' || row === 'picked') return row
  if (row !== null) return 'queued'
  if (log === 'successful' || log === 'exception' || log === 'canceled' || log === 'deleted') return log
  if (log !== null) return 'deleted'
  return 'missing'
}

export function isFinal(status: CurrentStatus): status is FinalStatus {
  return status !== 'queued' && status !== 'picked'
}
