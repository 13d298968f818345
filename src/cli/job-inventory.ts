/**
 * The inventory as operators see it: every registered job with its kind, priority, limit,
 * attempts and, for scheduled jobs, cron, enabled and next fire (computed from the cron, so it
 * needs no database). Also what `status` needs to know about a job by entrypoint.
 */
import { jobRegistry } from '../jobs/registry.js'
import { concurrencyLimitOf } from '../jobs/queue-job.js'
import { isScheduledJobClass } from '../jobs/scheduled-job.js'
import type { Settings } from '../settings.js'
import type { StatsOptions } from '../queue/stats.js'

export interface InventoryRow {
  entrypoint: string
  className: string
  kind: string
  priority: number
  concurrencyLimit: number
  maxAttempts: number
  cron: string | null
  cronEntrypoint: string | null
  enabled: boolean
  nextFire: string | null
  settings: { cron: string; enabled: string } | null
}

export function jobInventory(settings: Settings, now = new Date()): InventoryRow[] {
  return jobRegistry.all().map((job) => {
    const s = isScheduledJobClass(job) ? job.describe(settings, now) : null
    return {
      entrypoint: job.entrypoint,
      className: job.name,
      kind: job.kind,
      priority: job.priority,
      concurrencyLimit: concurrencyLimitOf(job, settings),
      maxAttempts: job.maxAttempts,
      cron: s?.cron ?? null,
      cronEntrypoint: s?.cronEntrypoint ?? null,
      enabled: s ? s.enabled : true,
      nextFire: s?.nextFire ?? null,
      settings: s?.settings ?? null,
    }
  })
}

/** What `queueStats` asks about jobs, answered from the registry and settings. */
export function statsJobHooks(settings: Settings): Pick<StatsOptions, 'jobInfo' | 'scheduleEnabled'> {
  const byCron = new Map<string, boolean>()
  for (const job of jobRegistry.all()) {
    if (isScheduledJobClass(job)) byCron.set(job.cronEntrypoint, job.enabled(settings))
  }
  return {
    jobInfo: (ep) => {
      const job = jobRegistry.get(ep)
      return job ? { concurrencyLimit: concurrencyLimitOf(job, settings) } : undefined
    },
    scheduleEnabled: (cronEp) => byCron.get(cronEp),
  }
}
