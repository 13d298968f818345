/**
 * The jobs themselves, by state, a page at a time (`aizk jobs`, the dashboard's jobs pages).
 * Every page is a handful of index range scans of at most `limit` rows each, so its cost does not
 * grow with the table (docs/jobs-by-state.md):
 *   - queued and all: one walk per (entrypoint, priority) group with queued rows, through
 *     pgqueuer_ep_prio_id_idx, whose rows within one group are in id order;
 *   - scheduled (queued, not yet due): one walk per entrypoint through pgqueuer_ep_ea_idx, soonest
 *     due first; a page resumes after the due time of the row it was given;
 *   - held: one walk per entrypoint through aizk_failed_ep_id_idx;
 *   - picked: every picked row (as many as the workers' slots) through pgqueuer_updated_id_id1_idx.
 * The groups come from the trigger-kept counts (readCounts), never from the table.
 */
import type { Queryable } from '../db/queryable.js'
import { readCounts } from './counts.js'
import { HELD, PICKED, queuedSql, SCHEDULED } from './sql/list-jobs.js'
import { describeError } from './stats-held.js'

export const JOB_STATES = ['queued', 'scheduled', 'picked', 'held'] as const
export type JobState = (typeof JOB_STATES)[number]

export interface ListJobsQuery {
  /** One state, or every live job (undefined). */
  state?: JobState
  entrypoints?: string[]
  priorities?: number[]
  /** Only rows unchanged for at least this many seconds. */
  olderThanSeconds?: number
  /** Resume after this job id (the last id of the previous page). */
  afterId?: string
  limit: number
}

export interface ListedJob {
  id: string
  state: JobState
  entrypoint: string
  priority: number
  attempts: number
  cycles: number
  created: string
  /** When the row entered its current state. */
  updated: string
  executeAfter: string
  /** Seconds since `updated`. */
  ageSeconds: number
  /** Seconds until it is due; 0 unless scheduled. */
  dueInSeconds: number
  queueManagerId: string | null
  /** A held job's last error as the worker kept it (headers.aizk.lastError), one line. */
  lastError: string | null
}

export interface JobsPage {
  jobs: ListedJob[]
  /** Pass as afterId for the next page; null when this page is the last. */
  nextAfter: string | null
}

interface Row {
  id: string
  status: string
  entrypoint: string
  priority: number
  attempts: number
  cycles: number
  created: Date
  updated: Date
  execute_after: Date
  age: number
  due_in: number
  queue_manager_id: string | null
  last_error: unknown
}

function toJob(r: Row): ListedJob {
  const state: JobState = r.status === 'failed' ? 'held' : r.status === 'picked' ? 'picked' : r.due_in > 0 ? 'scheduled' : 'queued'
  return {
    id: r.id,
    state,
    entrypoint: r.entrypoint,
    priority: r.priority,
    attempts: r.attempts,
    cycles: Number(r.cycles),
    created: r.created.toISOString(),
    updated: r.updated.toISOString(),
    executeAfter: r.execute_after.toISOString(),
    ageSeconds: r.age,
    dueInSeconds: r.due_in,
    queueManagerId: r.queue_manager_id,
    lastError: describeError(r.last_error),
  }
}

/** One page of live jobs matching `q`, and the cursor of the next. */
export async function listJobs(db: Queryable, q: ListJobsQuery): Promise<JobsPage> {
  const counts = (await readCounts(db)).filter(
    (c) => (!q.entrypoints?.length || q.entrypoints.includes(c.entrypoint)) && (!q.priorities?.length || q.priorities.includes(c.priority)),
  )
  const queuedGroups = counts.filter((c) => c.status === 'queued')
  const epsOf = (status: string) => [...new Set(counts.filter((c) => c.status === status).map((c) => c.entrypoint))]
  const priorities = q.priorities?.length ? q.priorities : null
  const tail = [q.olderThanSeconds ?? null, q.afterId ?? null, q.limit]
  const run = async (sql: string, a: unknown, b: unknown) => (await db.query<Row>(sql, [a, b, ...tail])).rows
  const queued = (due: 'any' | 'ready') =>
    queuedGroups.length === 0
      ? Promise.resolve([])
      : run(
          queuedSql(due),
          queuedGroups.map((g) => g.entrypoint),
          queuedGroups.map((g) => g.priority),
        )
  const held = () => run(HELD, epsOf('failed'), priorities)
  const picked = () => run(PICKED, q.entrypoints?.length ? q.entrypoints : null, priorities)

  let rows: Row[]
  if (q.state === 'queued') rows = await queued('ready')
  else if (q.state === 'scheduled') rows = await run(SCHEDULED, epsOf('queued'), priorities)
  else if (q.state === 'held') rows = await held()
  else if (q.state === 'picked') rows = await picked()
  else {
    const all = [...(await queued('any')), ...(await held()), ...(await picked())]
    rows = all.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1)).slice(0, q.limit)
  }
  const jobs = rows.map(toJob)
  return { jobs, nextAfter: jobs.length === q.limit ? jobs[jobs.length - 1].id : null }
}
