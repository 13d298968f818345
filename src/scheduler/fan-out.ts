/**
 * A tick becomes real queue jobs (docs/scope-sets.md#fan-out). A scoped job fans out into one item
 * per exact set in the roster, keyed `<name>:<sorted scopes>`, so a tick that fires while the
 * previous run is still queued (or held) adds nothing; a system job enqueues one item keyed
 * `<name>`.
 */
import type pg from 'pg'
import { validatePayload } from '../jobs/queue-job.js'
import { type ScheduledJobClass, ScopedScheduledJob } from '../jobs/scheduled-job.js'
import { type EnqueueItem, enqueueMany } from '../queue/enqueue.js'
import { scopeRoster } from '../scope/roster.js'
import type { IdentitySettings } from '../scope/user.js'
import { startLinkedTraces } from '../tracing/tick.js'

export interface FanOutResult {
  name: string
  kind: 'scoped' | 'system'
  /** Items the tick asked for: roster sets for a scoped job, 1 for a system job. */
  items: number
  enqueued: number
  alreadyQueued: number
}

/** Enqueue in slices, so 100,000 sets do not become one enormous statement. */
const SLICE = 5000

export async function fanOut(job: ScheduledJobClass, pool: pg.Pool, settings: IdentitySettings, roster?: string[][]): Promise<FanOutResult> {
  const name = job.jobName
  if (!(job.prototype instanceof ScopedScheduledJob)) {
    const [id] = await enqueueMany(pool, startLinkedTraces([item(job, {}, job.jobName)]))
    return { name, kind: 'system', items: 1, enqueued: id ? 1 : 0, alreadyQueued: id ? 0 : 1 }
  }
  const scoped = job as typeof ScopedScheduledJob
  const sets = roster ?? (await scopeRoster(pool, settings))
  let enqueued = 0
  for (let i = 0; i < sets.length; i += SLICE) {
    const slice = sets.slice(i, i + SLICE).map((scopes) => item(scoped, { scopes }, scoped.dedupeKey(scopes)))
    const ids = await enqueueMany(pool, startLinkedTraces(slice))
    for (const id of ids) if (id) enqueued++
  }
  return { name, kind: 'scoped', items: sets.length, enqueued, alreadyQueued: sets.length - enqueued }
}

function item(job: ScheduledJobClass, payload: unknown, dedupeKey: string): EnqueueItem {
  return { entrypoint: job.entrypoint, priority: job.priority, dedupeKey, payload: validatePayload(job, payload) }
}
