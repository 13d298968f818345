/** Run scheduled passes' bodies directly (as the worker would, minus the queue). */
import type pg from 'pg'
import type { ScopedScheduledJob, SystemScheduledJob } from '../../../src/jobs/scheduled-job.js'
import { User } from '../../../src/scope/user.js'
import type { Settings } from '../../../src/settings.js'

function baseContext(pool: pg.Pool, settings: Settings, entrypoint: string) {
  return { pool, settings, jobId: '0', entrypoint, attempts: 0, headers: {}, signal: new AbortController().signal }
}

export async function runScoped(Job: new () => ScopedScheduledJob, pool: pg.Pool, settings: Settings, scopes: string[]): Promise<void> {
  const user = User.system(scopes, settings)
  const job = new Job()
  await user.transaction(pool, (db) =>
    job.execute(user.write, { ...baseContext(pool, settings, (Job as unknown as typeof ScopedScheduledJob).entrypoint), db, user }),
  )
}

export async function runSystem(Job: new () => SystemScheduledJob, pool: pg.Pool, settings: Settings): Promise<void> {
  await new Job().execute(baseContext(pool, settings, (Job as unknown as typeof SystemScheduledJob).entrypoint))
}
