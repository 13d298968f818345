/**
 * One job's story for `aizk jobs show`: its row (while it is queued, picked or held), every
 * pgqueuer_log row of its id (PgQueuer writes finished jobs there and aizk writes holds, discards
 * and cancels), and the worker holding it now. A finished job's row is gone; its log remains
 * until pruned. Reads are index probes: pgqueuer's primary key and pgqueuer_log (job_id, created).
 */
import type { Queryable } from '../db/queryable.js'
import { readWorkerRow } from '../db/sql/aizk-worker.js'
import type { TracebackRecord } from './retry.js'
import { READ_STORY_LOG, READ_STORY_ROW } from './sql/job-story.js'

export interface StoryRow {
  entrypoint: string
  /** pgqueuer_status as stored (`failed` is a held job). */
  status: string
  priority: number
  attempts: number
  cycles: number
  dedupeKey: string | null
  created: string
  updated: string
  executeAfter: string
  heartbeat: string
  queueManagerId: string | null
  payload: Buffer | null
  headers: unknown
}

export interface StoryLogRow {
  id: string
  created: string
  status: string
  priority: number
  entrypoint: string
  traceback: TracebackRecord | Record<string, unknown> | null
}

export interface StoryHolder {
  queueManagerId: string
  /** False for a worker aizk does not know (a Python PgQueuer one). */
  registered: boolean
  host: string | null
  pid: number | null
  version: string | null
  started: string | null
  heartbeatAgeSeconds: number | null
  alive: boolean | null
}

export interface JobStory {
  id: string
  /** queued, picked, held, or finished (the row is gone, the log remains). */
  state: 'queued' | 'picked' | 'held' | 'finished'
  row: StoryRow | null
  log: StoryLogRow[]
  holder: StoryHolder | null
}

const STATE: Record<string, JobStory['state']> = { queued: 'queued', picked: 'picked', failed: 'held' }

/** The story of job `id`, or null when neither the table nor the log knows it. */
export async function readJobStory(db: Queryable, id: string, heartbeatTimeoutSeconds: number): Promise<JobStory | null> {
  const rowResult = await db.query<{
    entrypoint: string
    status: string
    priority: number
    attempts: number
    cycles: number
    dedupe_key: string | null
    created: Date
    updated: Date
    execute_after: Date
    heartbeat: Date
    queue_manager_id: string | null
    payload: Buffer | null
    headers: unknown
  }>(READ_STORY_ROW, [id])
  const logResult = await db.query<{ id: string; created: Date; status: string; priority: number; entrypoint: string; traceback: StoryLogRow['traceback'] }>(
    READ_STORY_LOG,
    [id],
  )
  const r = rowResult.rows[0]
  if (!r && logResult.rows.length === 0) return null
  const row: StoryRow | null = r
    ? {
        entrypoint: r.entrypoint,
        status: r.status,
        priority: r.priority,
        attempts: r.attempts,
        cycles: Number(r.cycles),
        dedupeKey: r.dedupe_key,
        created: r.created.toISOString(),
        updated: r.updated.toISOString(),
        executeAfter: r.execute_after.toISOString(),
        heartbeat: r.heartbeat.toISOString(),
        queueManagerId: r.queue_manager_id,
        payload: r.payload,
        headers: r.headers,
      }
    : null
  const holder = row?.status === 'picked' && row.queueManagerId ? await readHolder(db, row.queueManagerId, heartbeatTimeoutSeconds) : null
  return {
    id,
    state: row ? (STATE[row.status] ?? 'queued') : 'finished',
    row,
    log: logResult.rows.map((l) => ({ ...l, created: l.created.toISOString() })),
    holder,
  }
}

async function readHolder(db: Queryable, queueManagerId: string, timeoutSeconds: number): Promise<StoryHolder> {
  const w = await readWorkerRow(db, queueManagerId)
  if (!w) return { queueManagerId, registered: false, host: null, pid: null, version: null, started: null, heartbeatAgeSeconds: null, alive: null }
  return {
    queueManagerId,
    registered: true,
    host: w.host,
    pid: w.pid,
    version: w.version,
    started: w.started.toISOString(),
    heartbeatAgeSeconds: w.age,
    alive: w.age <= timeoutSeconds,
  }
}
