/** What every part of the dashboard shares: the pool, settings, mode, CSRF token and event log. */
import type pg from 'pg'
import { countIntegrityFailures } from '../content/integrity.js'
import { statsJobHooks } from '../operator/job-inventory.js'
import { type QueueStats, queueStats } from '../queue/stats.js'
import { type MemoryBacklog, memoryBacklog } from '../scope/memory-backlog.js'
import type { Settings } from '../settings.js'

export interface DashboardContext {
  pool: pg.Pool
  settings: Settings
  readOnly: boolean
  csrf: string
  /** One JSON event line (actions, start, stop). */
  log: (event: string, fields: Record<string, unknown>) => void
}

export type DashboardStats = QueueStats<MemoryBacklog>

/** The same read `aizk status` makes: queue stats in one snapshot, and the memory backlog. */
export async function loadStats(ctx: DashboardContext): Promise<DashboardStats> {
  const s = ctx.settings
  const stats = await queueStats(ctx.pool, {
    heartbeatTimeoutSeconds: s.heartbeatTimeoutSeconds,
    foreignHeartbeatTimeoutSeconds: s.foreignHeartbeatTimeoutSeconds,
    heldThreshold: s.statusHeldThreshold,
    timezone: s.timezone,
    ...statsJobHooks(s),
    integrity: countIntegrityFailures,
  })
  return { ...stats, memory: await memoryBacklog(ctx.pool, s) }
}
