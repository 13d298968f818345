/** Run scheduled passes' bodies directly (as the worker would, minus the queue). */
import type pg from 'pg'
import type { ScopedScheduledJob, SystemScheduledJob } from '../../../src/jobs/scheduled-job.js'
import type { Settings } from '../../../src/settings.js'

function baseContext(pool: pg.Pool, settings: Settings, entrypoint: string) {
  return { pool, settings, jobId: '0', entrypoint, attempts: 0, headers: {}, signal: new AbortController().signal }
}

/** Through the job's handle, as the worker calls it: most open the pass's one transaction, some take their own short ones. */
export async function runScoped(Job: new () => ScopedScheduledJob, pool: pg.Pool, settings: Settings, scopes: string[]): Promise<void> {
  const JobClass = Job as unknown as typeof ScopedScheduledJob
  await new Job().handle(JobClass.payload.parse({ scopes }), baseContext(pool, settings, JobClass.entrypoint))
}

export async function runSystem(Job: new () => SystemScheduledJob, pool: pg.Pool, settings: Settings): Promise<void> {
  await new Job().execute(baseContext(pool, settings, (Job as unknown as typeof SystemScheduledJob).entrypoint))
}
