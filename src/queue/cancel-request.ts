/**
 * Cancelling a running (picked) job: the row is marked (headers.aizk.cancelRequestedAt) and
 * PgQueuer's own `cancellation_event` is sent on ch_pgqueuer, so the worker running it (aizk's
 * or a Python PgQueuer one) aborts the handler. The mark is what makes the request durable:
 * NOTIFY is only a hint, so aizk workers also find marked rows in their heartbeat and in a
 * pick (a row re-picked from a dead worker is canceled, not run). The worker that settles the
 * job deletes it with one `canceled` log row.
 */
import type { Queryable } from '../db/queryable.js'
import { filterParams, type JobFilter } from './job-filter.js'
import { PREVIEW, REQUEST, SETTLE, VERIFY } from './sql/cancel-request.js'

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

/**
 * The claimed ids (from a `cancellation_event`, which anyone may send) that an authorized role
 * really canceled: marked rows still picked by this worker, or rows PgQueuer deleted and logged
 * `canceled`. One round trip, before any handler is aborted.
 */
export async function verifiedCancels(db: Queryable, queueManagerId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return []
  const { rows } = await db.query<{ id: string }>({ ...VERIFY, values: [`{${ids.join(',')}}`, queueManagerId] })
  return rows.map((r) => r.id)
}

/** A worker's canceled jobs leave the table, one `canceled` log row each; returns how many were still its own. */
export async function settleCanceled(db: Queryable, queueManagerId: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0
  const result = await db.query({ ...SETTLE, values: [`{${ids.join(',')}}`, queueManagerId] })
  return result.rowCount ?? 0
}
