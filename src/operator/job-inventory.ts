/**
 * The inventory as operators see it: every registered job with its kind, priority, limit,
 * attempts, payload fields and, for scheduled jobs, cron, enabled and next fire (computed from
 * the cron, so it needs no database), and its rendering as text. Also what `status` needs to
 * know about a job by entrypoint.
 */

import { concurrencyLimitOf } from '../jobs/queue-job.js'
import { jobRegistry } from '../jobs/registry.js'
import { isScheduledJobClass } from '../jobs/scheduled-job.js'
import type { StatsOptions } from '../queue/stats.js'
import type { Settings } from '../settings.js'
import { formatRelative } from './format.js'
import { type PayloadShape, payloadShape } from './payload-fields.js'
import { renderTable } from './table.js'

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
  /** What `aizk enqueue` accepts for this entrypoint (from the job's zod schema). */
  payload: PayloadShape
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
      payload: payloadShape(job.payload, job.payloadFormat),
    }
  })
}

/** The inventory as text: the table, then each entrypoint's payload fields (what `enqueue --payload` takes). */
export function renderJobInventory(rows: InventoryRow[], now = new Date()): string {
  const table = renderTable(
    rows,
    [
      { header: 'ENTRYPOINT', get: (r) => r.entrypoint },
      { header: 'KIND', get: (r) => r.kind },
      { header: 'PRIORITY', get: (r) => r.priority, align: 'right' },
      { header: 'CONCURRENCY', get: (r) => (r.concurrencyLimit === 0 ? 'unbounded' : r.concurrencyLimit), align: 'right' },
      { header: 'ATTEMPTS', get: (r) => r.maxAttempts, align: 'right' },
      { header: 'CRON', get: (r) => r.cron },
      { header: 'ENABLED', get: (r) => (r.enabled ? 'yes' : 'no') },
      { header: 'NEXT FIRE', get: (r) => (r.nextFire ? `${r.nextFire} (${formatRelative(r.nextFire, now.getTime())})` : null) },
    ],
    { empty: '(no jobs registered)' },
  )
  if (rows.length === 0) return table
  const width = Math.max(...rows.map((r) => r.entrypoint.length))
  const payloads = rows.map((r) => `  ${r.entrypoint.padEnd(width)}  ${r.payload.summary}`)
  return `${table}\n\nPAYLOAD (\`aizk enqueue ENTRYPOINT --payload JSON\`; ? = optional, = default)\n${payloads.join('\n')}`
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
