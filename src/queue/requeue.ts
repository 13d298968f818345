/**
 * Requeue: held rows (status `failed`) back to `queued`, a bounded window at a time, oldest
 * first. One statement locks the window with SKIP LOCKED, so two requeues at once never move
 * the same row twice, counts one more terminal cycle under aizk's own headers key, and
 * notifies `ch_pgqueuer` itself: PgQueuer's statement trigger never notifies on UPDATE.
 */
import type { Queryable } from '../db/queryable.js'
import { ACTION_WINDOW, checkWindowLimit, countMatching, filterParams, idsNotIn, inWindows, type JobFilter } from './job-filter.js'
import { queueLogParity } from './log-parity.js'
import { COUNT_HELD, PREVIEW, REQUEUE } from './sql/requeue.js'

export { CYCLES_SQL } from './sql/requeue.js'

export interface RequeueOptions extends JobFilter {
  /** The window: at most this many rows. */
  limit: number
  /** Skip rows whose cycles already reached this; undefined = no cap. */
  maxCycles?: number
  /** Only rows with an id above this (lets a caller walk a large backlog in windows). */
  afterId?: string
  /** Report the rows that would move; change nothing. */
  dryRun?: boolean
  /** Also write a `queued` log row per moved job, as PgQueuer does; default AIZK_QUEUE_LOG_PARITY. */
  logQueued?: boolean
}

export interface RequeuedJob {
  id: string
  entrypoint: string
  /** Terminal cycles counted on the row after this requeue. */
  cycles: number
}

function params(opts: RequeueOptions): unknown[] {
  checkWindowLimit(opts.limit, 'requeue limit')
  return [...filterParams(opts), opts.afterId ?? null, opts.limit, opts.maxCycles ?? null]
}

/** Put a window of held jobs back in flight; returns the rows moved, in id order. */
export async function requeueFailed(db: Queryable, opts: RequeueOptions): Promise<RequeuedJob[]> {
  const { rows } = opts.dryRun
    ? await db.query<RequeuedJob>(PREVIEW, params(opts))
    : await db.query<RequeuedJob>(REQUEUE, [...params(opts), opts.logQueued ?? queueLogParity(db)])
  return rows.map((r) => ({ id: String(r.id), entrypoint: r.entrypoint, cycles: Number(r.cycles) }))
}

/** How many held rows match the filters (the whole backlog, not a window). */
export async function countHeld(db: Queryable, opts: Omit<RequeueOptions, 'limit' | 'dryRun' | 'afterId'>): Promise<number> {
  if (opts.maxCycles === undefined) return countMatching(db, 'failed', opts)
  const { rows } = await db.query<{ n: string }>(COUNT_HELD, [...filterParams(opts), opts.maxCycles])
  return Number(rows[0].n)
}

/** The ids among `ids` that are not held jobs (missing, or in another status). */
export function idsNotHeld(db: Queryable, ids: string[]): Promise<{ id: string; status: string | null }[]> {
  return idsNotIn(db, ids, ['failed'])
}

/**
 * Requeue up to `limit` held jobs of the filter, oldest first, one window of ACTION_WINDOW rows
 * per statement, each starting after the last id of the one before (the paging `aizk requeue` uses).
 */
export async function requeueHeld(
  db: Queryable,
  opts: Omit<RequeueOptions, 'afterId' | 'dryRun'> & { onProgress?: (done: number) => void },
): Promise<RequeuedJob[]> {
  const { onProgress, limit, ...filter } = opts
  return inWindows(limit, ACTION_WINDOW, (n, afterId) => requeueFailed(db, { ...filter, limit: n, afterId }), onProgress)
}
