/**
 * Which registered jobs a worker runs: the entrypoints it was given (each must be registered),
 * else every registered job except a scheduled pass that is disabled under its settings.
 */
import { UsageError } from '../errors.js'
import type { JobClass } from '../jobs/queue-job.js'
import type { JobRegistry } from '../jobs/registry.js'
import { isScheduledJobClass } from '../jobs/scheduled-job.js'
import type { Settings } from '../settings.js'

export function bindJobs(registry: JobRegistry, settings: Settings, entrypoints?: readonly string[]): Map<string, JobClass> {
  const wanted = entrypoints?.length ? entrypoints : undefined
  const unknown = (wanted ?? []).filter((e) => !registry.get(e))
  if (unknown.length) {
    throw new UsageError(
      `no job with a handler for entrypoint ${unknown.join(', ')} in this worker`,
      `known entrypoints: ${registry.entrypoints().join(', ') || '(none)'}; name job modules in AIZK_WORKER_JOB_MODULES`,
    )
  }
  const jobs = new Map<string, JobClass>()
  for (const cls of registry.all()) {
    if (wanted && !wanted.includes(cls.entrypoint)) continue
    // A disabled scheduled pass is not bound unless asked for by name.
    if (!wanted && isScheduledJobClass(cls) && !cls.enabled(settings)) continue
    jobs.set(cls.entrypoint, cls)
  }
  return jobs
}
