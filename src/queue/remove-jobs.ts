/**
 * Discard and cancel: rows leave the queue for good, each with one log row in a status PgQueuer
 * knows, so the history stays complete. Discard takes held rows (`failed` -> log `deleted`, which
 * frees their dedupe keys); cancel takes queued rows (-> log `canceled`). A window at a time,
 * oldest first, locked with SKIP LOCKED so two commands (or a worker's pick) never take one row
 * twice. The log row's traceback is PgQueuer's record shape naming who removed the job and why.
 */
import type { Queryable } from '../db/queryable.js'
import { checkWindowLimit, filterParams, type JobFilter } from './job-filter.js'
import { DROP_QUEUED_JOBS, previewSql, type Removal, removeSql } from './sql/remove-jobs.js'

export interface RemoveOptions extends JobFilter {
  /** The window: at most this many rows. */
  limit: number
  /** Only rows with an id above this (walks a large backlog in windows). */
  afterId?: string
  /** Report the rows that would go; change nothing. */
  dryRun?: boolean
  /** Who asked (user@host), kept in the log row. */
  by?: string | null
}

export interface RemovedJob {
  id: string
  entrypoint: string
  attempts: number
  /** Terminal cycles the row had burned (headers.aizk.cycles). */
  cycles: number
}

const DISCARD: Removal = { from: 'failed', logAs: 'deleted', type: 'JobDiscarded', verb: 'discarded' }
const CANCEL: Removal = { from: 'queued', logAs: 'canceled', type: 'JobCanceled', verb: 'canceled' }

async function remove(db: Queryable, r: Removal, opts: RemoveOptions): Promise<RemovedJob[]> {
  checkWindowLimit(opts.limit, 'limit')
  const params = [...filterParams(opts), opts.afterId ?? null, opts.limit, opts.by ?? null]
  const { rows } = await db.query<RemovedJob>(opts.dryRun ? previewSql(r) : removeSql(r), params)
  return rows.map((row) => ({ id: String(row.id), entrypoint: row.entrypoint, attempts: Number(row.attempts), cycles: Number(row.cycles) }))
}

/** Delete a window of held jobs, each logged `deleted`; returns the rows removed, in id order. */
export function discardHeld(db: Queryable, opts: RemoveOptions): Promise<RemovedJob[]> {
  return remove(db, DISCARD, opts)
}

/** Delete a window of queued jobs, each logged `canceled`; returns the rows removed, in id order. */
export function cancelQueued(db: Queryable, opts: RemoveOptions): Promise<RemovedJob[]> {
  return remove(db, CANCEL, opts)
}

/**
 * Drop the queued jobs of `entrypoint` whose dedupe key is among `keys` (work that became moot,
 * such as the projections of chunks just replaced), in the caller's transaction. Through the
 * SECURITY DEFINER function aizk_drop_queued_jobs: the app role may not delete queue rows itself
 * (docs/security.md). Returns how many were dropped.
 */
export async function dropQueuedJobs(db: Queryable, entrypoint: string, keys: readonly string[]): Promise<number> {
  if (keys.length === 0) return 0
  const { rows } = await db.query<{ n: string }>(DROP_QUEUED_JOBS, [entrypoint, keys])
  return Number(rows[0].n)
}
