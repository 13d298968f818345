/**
 * One weekly pass in a process of its own, so its peak memory (maxRSS) is the pass's alone:
 *   node --import tsx bench/graph-maintenance-child.ts <communities|raptor|insight> <databaseUrl> <scope>
 * Runs the pass through its real job handler (User.system(scope), the app role, one
 * transaction), as a worker would, and prints one JSON line: time, what the pass reported, RSS,
 * and the longest event-loop delay (what a worker's picks and heartbeats would have waited).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import pg from 'pg'
import { CommunitiesJob, InsightJob, RaptorJob } from '../src/jobs/inventory/index.js'
import { jobRegistry } from '../src/jobs/registry.js'
import type { ScopedScheduledJob } from '../src/jobs/scheduled-job.js'
import { parseSettings } from '../src/settings.js'

const [pass, url, scope] = process.argv.slice(2)
const jobs = { communities: CommunitiesJob, raptor: RaptorJob, insight: InsightJob } as const
const Job = jobs[pass as keyof typeof jobs]
if (!Job || !url || !scope) throw new Error('usage: graph-maintenance-child.ts <communities|raptor|insight> <databaseUrl> <scope>')

const pool = new pg.Pool({ connectionString: url, max: 2 })
const rssBeforeMb = process.memoryUsage().rss / 2 ** 20
let detail: Record<string, unknown> = {}
const context = {
  pool,
  jobId: '0',
  entrypoint: Job.entrypoint,
  attempts: 0,
  headers: {},
  settings: parseSettings(process.env, { registry: jobRegistry }),
  signal: new AbortController().signal,
  report: (d: Record<string, unknown>) => {
    detail = { ...detail, ...d }
  },
}
const loopDelay = monitorEventLoopDelay({ resolution: 10 })
loopDelay.enable()
const t0 = performance.now()
const cpu0 = process.cpuUsage()
try {
  await (new Job() as ScopedScheduledJob).handle({ scopes: [scope] }, context)
} catch (err) {
  console.error(`${pass} failed:`, err, (err as { cause?: unknown }).cause ?? '')
  process.exit(1)
}
const seconds = (performance.now() - t0) / 1000
loopDelay.disable()
const longestStallMs = loopDelay.max / 1e6
const cpu = process.cpuUsage(cpu0)
const cpuSeconds = (cpu.user + cpu.system) / 1e6
await pool.end()
console.log(JSON.stringify({ pass, seconds, cpuSeconds, detail, rssBeforeMb, longestStallMs, peakRssMb: process.resourceUsage().maxRSS / 1024 }))
