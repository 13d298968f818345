/**
 * The other ways out of `picked`, each batched across jobs and each clearing queue_manager_id
 * (and PgQueuer 1.4's `slot` where the column exists):
 * - retry: back to `queued`, attempts + 1, execute_after pushed back, the error kept under
 *   headers.aizk.lastError, no log row;
 * - hold: `failed`, row kept, one `failed` log row carrying PgQueuer's traceback record;
 * - release (shutdown): back to `queued` as it was, no attempt counted.
 * Rows put back to `queued` notify ch_pgqueuer themselves (the trigger never does on UPDATE).
 */
import type { Queryable } from '../db/queryable.js'
import { idArray } from './notify.js'
import { HAS_SLOT_COLUMN, holdSql, releaseSql, retrySql } from './sql/retry.js'
import { storableJson } from './storable-json.js'

export interface LastError {
  type: string
  message: string
  at: string
  attempt: number
}

export interface RetryItem {
  id: string
  delayMs: number
  error: LastError
}

/** PgQueuer's traceback record, stored in pgqueuer_log.traceback. */
export interface TracebackRecord {
  job_id: string
  timestamp: string
  exception_type: string
  exception_message: string
  traceback: string
  additional_context: Record<string, unknown> | null
}

export interface HoldItem {
  id: string
  /** Added to attempts: 1 when a run failed, 0 when no run happened (dead worker too often). */
  attemptsBump: number
  error: LastError
  record: TracebackRecord
}

export interface OutcomeOptions {
  /** The table has PgQueuer 1.4's `slot` column. */
  hasSlot: boolean
}

/** Retry failed jobs; returns how many were still this worker's. */
export async function retryJobs(db: Queryable, queueManagerId: string, items: readonly RetryItem[], o: OutcomeOptions): Promise<number> {
  return (await retryJobIds(db, queueManagerId, items, o)).length
}

/** Retry failed jobs; returns the ids that were still this worker's (the ones retried). */
export async function retryJobIds(db: Queryable, queueManagerId: string, items: readonly RetryItem[], o: OutcomeOptions): Promise<string[]> {
  if (items.length === 0) return []
  const { rows } = await db.query<{ ids: string[] }>({
    ...retrySql(o),
    values: [idArray(items.map((i) => i.id)), items.map((i) => i.delayMs), items.map((i) => storableJson(i.error)), queueManagerId],
  })
  return rows[0].ids
}

/** Hold jobs (status failed, row kept) with one `failed` log row each; returns how many. */
export async function holdJobs(db: Queryable, queueManagerId: string, items: readonly HoldItem[], o: OutcomeOptions): Promise<number> {
  return (await holdJobIds(db, queueManagerId, items, o)).length
}

/** Hold jobs; returns the ids that were still this worker's (the ones held and logged). */
export async function holdJobIds(db: Queryable, queueManagerId: string, items: readonly HoldItem[], o: OutcomeOptions): Promise<string[]> {
  if (items.length === 0) return []
  const { rows } = await db.query<{ id: string }>({
    ...holdSql(o),
    values: [
      idArray(items.map((i) => i.id)),
      items.map((i) => i.attemptsBump),
      items.map((i) => storableJson(i.error)),
      items.map((i) => storableJson(i.record)),
      queueManagerId,
    ],
  })
  return rows.map((r) => r.id)
}

/** Put still-running jobs back to `queued` on shutdown without counting an attempt. */
export async function releaseJobs(db: Queryable, queueManagerId: string, ids: readonly string[], o: OutcomeOptions): Promise<number> {
  if (ids.length === 0) return 0
  const { rows } = await db.query<{ n: number }>({ ...releaseSql(o), values: [idArray(ids), queueManagerId] })
  return rows[0].n
}

/** Whether pgqueuer has PgQueuer 1.4's `slot` column (kept null whenever a row leaves picked). */
export async function hasSlotColumn(db: Queryable): Promise<boolean> {
  const { rows } = await db.query(HAS_SLOT_COLUMN)
  return rows.length > 0
}
