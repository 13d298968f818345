/**
 * Cancelling a running (picked) job: the row is marked (headers.aizk.cancelRequestedAt) and
 * PgQueuer's own `cancellation_event` is sent on ch_pgqueuer, so the worker running it (aizk's
 * or a Python PgQueuer one) aborts the handler. The mark is what makes the request durable:
 * NOTIFY is only a hint, so aizk workers also find marked rows in their heartbeat and in a
 * pick (a row re-picked from a dead worker is canceled, not run). The worker that settles the
 * job deletes it with one `canceled` log row.
 */
import type { Queryable } from '../db/queryable.js'
import { filterParams, filterSql, type JobFilter } from './job-filter.js'
import { NOTIFY_CHANNEL } from './notify.js'

/** Ids per notification: NOTIFY payloads must stay under 8000 bytes. */
const IDS_PER_NOTIFY = 300

export interface CancelRequestOptions extends JobFilter {
  limit: number
  afterId?: string
  dryRun?: boolean
  by?: string | null
}

export interface CancelRequestedJob {
  id: string
  entrypoint: string
  /** The worker running it (its queue_manager_id). */
  queueManagerId: string | null
}

const WINDOW = `
  SELECT id FROM pgqueuer
   WHERE status = 'picked' AND ${filterSql(1)}
     AND ($4::bigint IS NULL OR id > $4::bigint)
   ORDER BY id
   LIMIT $5`

// Plain FOR UPDATE, not SKIP LOCKED: a picked row is locked only for a moment (a heartbeat).
const REQUEST = `
  WITH win AS (${WINDOW} FOR UPDATE),
  marked AS (
    UPDATE pgqueuer p
       SET headers = coalesce(CASE WHEN jsonb_typeof(p.headers) = 'object' THEN p.headers END, '{}'::jsonb)
             || jsonb_build_object('aizk',
                  coalesce(CASE WHEN jsonb_typeof(p.headers->'aizk') = 'object' THEN p.headers->'aizk' END, '{}'::jsonb)
                  || jsonb_build_object('cancelRequestedAt', now(), 'cancelRequestedBy', $6::text))
      FROM win
     WHERE p.id = win.id AND p.status = 'picked'
    RETURNING p.id, p.entrypoint, p.queue_manager_id),
  notified AS (
    SELECT pg_notify('${NOTIFY_CHANNEL}', json_build_object(
             'channel', '${NOTIFY_CHANNEL}', 'ids', json_agg(g.id ORDER BY g.id),
             'sent_at', now(), 'type', 'cancellation_event')::text) AS n
      FROM (SELECT id, (row_number() OVER (ORDER BY id) - 1) / ${IDS_PER_NOTIFY} AS grp FROM marked) g
     GROUP BY g.grp)
  SELECT m.id::text AS id, m.entrypoint, m.queue_manager_id::text AS "queueManagerId"
    FROM marked m LEFT JOIN (SELECT count(*) AS n FROM notified) sent ON true
   ORDER BY m.id`

const PREVIEW = `
  SELECT p.id::text AS id, p.entrypoint, p.queue_manager_id::text AS "queueManagerId", $6::text AS by
    FROM pgqueuer p JOIN (${WINDOW}) win USING (id)
   ORDER BY p.id`

/** Ask the workers running a window of picked jobs to cancel them; returns the rows asked. */
export async function requestCancel(db: Queryable, opts: CancelRequestOptions): Promise<CancelRequestedJob[]> {
  if (!Number.isInteger(opts.limit) || opts.limit < 1) throw new RangeError(`limit must be a whole number >= 1, got ${opts.limit}`)
  const params = [...filterParams(opts), opts.afterId ?? null, opts.limit, opts.by ?? null]
  const { rows } = await db.query<CancelRequestedJob & { by?: unknown }>(opts.dryRun ? PREVIEW : REQUEST, params)
  return rows.map((r) => ({ id: r.id, entrypoint: r.entrypoint, queueManagerId: r.queueManagerId }))
}

/** Whether a picked row's headers carry a cancel request. */
export function cancelRequested(headers: Record<string, unknown> | null | undefined): boolean {
  const aizk = headers?.aizk
  return typeof aizk === 'object' && aizk !== null && 'cancelRequestedAt' in aizk
}

/** The ids in a `cancellation_event` payload, kept as text (bigint ids must not pass through a JS number). */
export function cancellationIds(payload: string): string[] | null {
  if (!/"type"\s*:\s*"cancellation_event"/.test(payload)) return null
  const list = /"ids"\s*:\s*\[([^\]]*)\]/.exec(payload)
  if (!list) return []
  return list[1]
    .split(',')
    .map((s) => s.trim().replace(/^"|"$/g, ''))
    .filter((s) => /^\d+$/.test(s))
}

const SETTLE = {
  name: 'aizk_cancel_settle',
  text: `WITH gone AS (
           DELETE FROM pgqueuer
            WHERE id = ANY ($1::bigint[]) AND queue_manager_id = $2 AND status = 'picked'
           RETURNING id, priority, entrypoint, attempts, headers->'aizk'->>'cancelRequestedBy' AS by)
         INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint, traceback)
         SELECT id, 'canceled', priority, entrypoint, jsonb_build_object(
                  'job_id', id,
                  'timestamp', now(),
                  'exception_type', 'JobCanceled',
                  'exception_message', 'canceled while running, by ' || coalesce(by, 'an operator'),
                  'traceback', '',
                  'additional_context', jsonb_build_object('action', 'canceled', 'by', by, 'attempts', attempts, 'whileRunning', true))
           FROM gone`,
}

/** A worker's canceled jobs leave the table, one `canceled` log row each; returns how many were still its own. */
export async function settleCanceled(db: Queryable, queueManagerId: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0
  const result = await db.query({ ...SETTLE, values: [`{${ids.join(',')}}`, queueManagerId] })
  return result.rowCount ?? 0
}
