/**
 * Discard and cancel: rows leave the queue for good, each with one log row in a status PgQueuer
 * knows, so the history stays complete. Discard takes held rows (`failed` -> log `deleted`, which
 * frees their dedupe keys); cancel takes queued rows (-> log `canceled`). A window at a time,
 * oldest first, locked with SKIP LOCKED so two commands (or a worker's pick) never take one row
 * twice. The log row's traceback is PgQueuer's record shape naming who removed the job and why.
 */
import type { Queryable } from '../db/queryable.js'
import { checkWindowLimit, filterParams, type JobFilter, windowSql } from './job-filter.js'
import { CYCLES_SQL } from './requeue.js'

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

type Removal = { from: 'failed' | 'queued'; logAs: 'deleted' | 'canceled'; type: string; verb: string }

const DISCARD: Removal = { from: 'failed', logAs: 'deleted', type: 'JobDiscarded', verb: 'discarded' }
const CANCEL: Removal = { from: 'queued', logAs: 'canceled', type: 'JobCanceled', verb: 'canceled' }

function removeSql(r: Removal): string {
  return `WITH win AS (${windowSql(r.from)} FOR UPDATE SKIP LOCKED),
          gone AS (
            DELETE FROM pgqueuer p USING win
             WHERE p.id = win.id AND p.status = '${r.from}'
            RETURNING p.id, p.priority, p.entrypoint, p.attempts, ${CYCLES_SQL.replaceAll('headers', 'p.headers')} AS cycles),
          logged AS (
            INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint, traceback)
            SELECT id, '${r.logAs}', priority, entrypoint, jsonb_build_object(
                     'job_id', id,
                     'timestamp', now(),
                     'exception_type', '${r.type}',
                     'exception_message', '${r.verb} by ' || coalesce($6::text, 'an operator'),
                     'traceback', '',
                     'additional_context', jsonb_build_object('action', '${r.verb}', 'by', $6::text, 'attempts', attempts, 'cycles', cycles))
              FROM gone
            RETURNING job_id)
          SELECT g.id::text AS id, g.entrypoint, g.attempts, g.cycles
            FROM gone g
           WHERE g.id IN (SELECT job_id FROM logged)
           ORDER BY g.id`
}

function previewSql(r: Removal): string {
  return `SELECT p.id::text AS id, p.entrypoint, p.attempts, ${CYCLES_SQL.replaceAll('headers', 'p.headers')} AS cycles, $6::text AS by
            FROM pgqueuer p JOIN (${windowSql(r.from)}) win USING (id)
           ORDER BY p.id`
}

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
  const { rows } = await db.query<{ n: string }>('SELECT aizk_drop_queued_jobs($1, $2::text[]) AS n', [entrypoint, keys])
  return Number(rows[0].n)
}
