/**
 * Requeue: held rows (status `failed`) back to `queued`, a bounded window at a time, oldest
 * first. One statement locks the window with SKIP LOCKED, so two requeues at once never move
 * the same row twice, counts one more terminal cycle under aizk's own headers key, and
 * notifies `ch_pgqueuer` itself: PgQueuer's statement trigger never notifies on UPDATE.
 */
import type { Queryable } from '../db/queryable.js'
import { ACTION_WINDOW, checkWindowLimit, countMatching, filterParams, filterSql, idsNotIn, inWindows, type JobFilter, windowSql } from './job-filter.js'
import { queueLogParity } from './log-parity.js'

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

/** The cycles a row has burned, as stored under headers.aizk.cycles. */
export const CYCLES_SQL = `coalesce(CASE WHEN jsonb_typeof(headers->'aizk'->'cycles') = 'number' THEN (headers->'aizk'->>'cycles')::int END, 0)`

const WINDOW = windowSql('failed', `($6::int IS NULL OR ${CYCLES_SQL} < $6::int)`)

const REQUEUE = `
  WITH win AS (${WINDOW} FOR UPDATE SKIP LOCKED),
  moved AS (
    UPDATE pgqueuer p
       SET status = 'queued', attempts = 0, execute_after = now(), updated = now(), heartbeat = now(),
           queue_manager_id = NULL,
           headers = coalesce(CASE WHEN jsonb_typeof(p.headers) = 'object' THEN p.headers END, '{}'::jsonb)
             || jsonb_build_object('aizk',
                  coalesce(CASE WHEN jsonb_typeof(p.headers->'aizk') = 'object' THEN p.headers->'aizk' END, '{}'::jsonb)
                  || jsonb_build_object('cycles', ${CYCLES_SQL.replaceAll('headers', 'p.headers')} + 1))
      FROM win
     WHERE p.id = win.id AND p.status = 'failed'
    RETURNING p.id, p.entrypoint, p.priority, (p.headers->'aizk'->>'cycles')::int AS cycles
  ),
  logged AS (
    INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint)
    SELECT id, 'queued', priority, entrypoint FROM moved WHERE $7::boolean
  ),
  notified AS (
    SELECT pg_notify('ch_pgqueuer', json_build_object(
             'channel', 'ch_pgqueuer', 'operation', 'update', 'sent_at', now(),
             'table', 'pgqueuer', 'type', 'table_changed_event')::text) AS n
     WHERE EXISTS (SELECT 1 FROM moved)
  )
  SELECT m.id::text AS id, m.entrypoint, m.cycles
    FROM moved m LEFT JOIN notified ON true
   ORDER BY m.id`

const PREVIEW = `
  SELECT p.id::text AS id, p.entrypoint, ${CYCLES_SQL.replaceAll('headers', 'p.headers')} + 1 AS cycles
    FROM pgqueuer p JOIN (${WINDOW}) win USING (id)
   ORDER BY p.id`

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
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM pgqueuer
      WHERE status = 'failed' AND ${filterSql(1)} AND ${CYCLES_SQL} < $4::int`,
    [...filterParams(opts), opts.maxCycles],
  )
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
