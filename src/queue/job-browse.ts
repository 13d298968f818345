/**
 * A page of the queue table's rows in pick order (priority highest first, then id), as
 * PgQueuer's MCP `queue_table_info` browses it: through pgqueuer_priority_id_id1_idx read
 * backwards. Payloads are shown as text (cut at `payloadChars`; bytes that are not UTF-8 show
 * as replacement characters) with their size.
 */
import type { Queryable } from '../db/queryable.js'
import { BROWSE_JOBS } from './sql/job-browse.js'

export interface BrowsedJob {
  id: string
  priority: number
  status: string
  entrypoint: string
  queueManagerId: string | null
  created: string
  updated: string
  heartbeat: string
  executeAfter: string
  attempts: number
  dedupeKey: string | null
  payloadBytes: number
  /** The payload as UTF-8 text, cut at payloadChars; null when there is none. */
  payload: string | null
  headers: unknown
}

export async function browseJobs(db: Queryable, opts: { limit: number; offset?: number; payloadChars?: number }): Promise<BrowsedJob[]> {
  const { rows } = await db.query<{
    id: string
    priority: number
    status: string
    entrypoint: string
    qm: string | null
    created: Date
    updated: Date
    heartbeat: Date
    execute_after: Date
    attempts: number
    dedupe_key: string | null
    bytes: number | null
    payload: Buffer | null
    headers: unknown
  }>(BROWSE_JOBS, [opts.limit, opts.offset ?? 0, opts.payloadChars ?? 500])
  return rows.map((r) => ({
    id: r.id,
    priority: r.priority,
    status: r.status,
    entrypoint: r.entrypoint,
    queueManagerId: r.qm,
    created: r.created.toISOString(),
    updated: r.updated.toISOString(),
    heartbeat: r.heartbeat.toISOString(),
    executeAfter: r.execute_after.toISOString(),
    attempts: r.attempts,
    dedupeKey: r.dedupe_key,
    payloadBytes: r.bytes ?? 0,
    payload: r.payload === null ? null : r.payload.toString('utf8').slice(0, opts.payloadChars ?? 500),
    headers: r.headers,
  }))
}
