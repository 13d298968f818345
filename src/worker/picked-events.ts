/** The events a pick's jobs announce, each built only when someone listens. */

import type { WorkerEvents } from '../events.js'
import type { JobClass } from '../jobs/queue-job.js'
import type { PickedJob } from '../queue/pick.js'
import { fanOutScopes } from './fan-out-scopes.js'

/** `batch:picked`: how many jobs a pick brought, by entrypoint, and its round trip. */
export function announceBatch(events: WorkerEvents, jobs: readonly PickedJob[], ms: number): void {
  if (!events.wants('batch:picked')) return
  const byEntrypoint: Record<string, number> = {}
  for (const j of jobs) byEntrypoint[j.entrypoint] = (byEntrypoint[j.entrypoint] ?? 0) + 1
  events.emit('batch:picked', { count: jobs.length, byEntrypoint, ms })
}

/**
 * What announces each job of a pick (`job:recovered` for a re-pick after a dead worker, and
 * `job:picked` with its wait since ready at `now`); undefined when nobody listens to either.
 * Who listens is asked once a pick, not once a job.
 */
export function jobAnnouncer(events: WorkerEvents, classes: ReadonlyMap<string, JobClass>, now: number): ((job: PickedJob) => void) | undefined {
  const perJob = events.wants('job:picked')
  const recovered = events.wants('job:recovered')
  if (!perJob && !recovered) return undefined
  return (job) => {
    if (job.recovered && recovered) events.emit('job:recovered', { jobId: job.id, entrypoint: job.entrypoint, attempts: job.attempts })
    if (!perJob) return
    const scopes = fanOutScopes(job, classes.get(job.entrypoint))
    events.emit('job:picked', {
      jobId: job.id,
      entrypoint: job.entrypoint,
      priority: job.priority,
      attempts: job.attempts,
      waitMs: Math.max(0, now - job.readyAtMs),
      ...(scopes ? { scopes } : {}),
    })
  }
}
