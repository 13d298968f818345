/**
 * Server-sent events: while at least one browser listens, one timer reads the queue every
 * AIZK_DASHBOARD_INTERVAL_SECONDS and sends every listener the same pulse (counts, charts, jobs
 * finished since the last pulse). With nobody listening there is no timer and no query.
 */
import type { ServerResponse } from 'node:http'
import { formatAge } from '../operator/format.js'
import { latestLogId, type Outcome, readOutcomes } from '../queue/recent-outcomes.js'
import { barChart, clock, tickIndexes } from './charts.js'
import { type DashboardContext, type DashboardStats, loadStats } from './context.js'
import { readStateCounts, type StateCounts } from './state-counts.js'

/** Pickup-latency samples kept: the oldest ready job's wait, one per pulse. */
const SAMPLES = 90

export interface Pulse {
  generatedAt: string
  totals: DashboardStats['totals']
  workersAlive: number
  throughputPerSecond: number
  finishedLastMinute: number
  oldestWaitSeconds: number
  /** The same, as the page shows it (4m05s). */
  oldestWait: string
  memory: { chunksPendingProjection: number; dirtyProfiles: number }
  completions: Outcome[]
  charts: { throughput: string; latency: string }
  /** Live jobs per state (the tabs and the ready / scheduled cards). */
  states: StateCounts & { all: number }
}

/** The oldest ready job's wait across entrypoints: how long the next pickup has been waiting. */
export function oldestWait(stats: DashboardStats): number {
  return Math.max(0, ...stats.entrypoints.map((e) => e.oldestQueuedAgeSeconds ?? 0))
}

export function throughputChart(stats: DashboardStats): string {
  const per = stats.throughput.perMinute
  const minuteOf = (i: number) => Date.parse(stats.generatedAt) - (per.length - 1 - i) * 60_000
  return barChart({
    label: 'Jobs finished per minute (last 15 minutes, UTC)',
    values: per,
    barLabel: (i) => `${clock(minuteOf(i))}Z${i === per.length - 1 ? ' (this minute)' : ''}`,
    format: (v) => `${v.toLocaleString('en-US')}/min`,
    ticks: tickIndexes(per.length).map((i) => ({ index: i, label: clock(minuteOf(i)) })),
  })
}

export class LiveHub {
  private readonly clients = new Set<ServerResponse>()
  private timer: NodeJS.Timeout | null = null
  private lastLogId: string | null = null
  private busy = false
  readonly latency: number[] = []
  /** When each latency sample was taken (ms since the epoch). */
  private readonly sampledAt: number[] = []
  readonly intervalMs: number

  constructor(private readonly ctx: DashboardContext) {
    this.intervalMs = ctx.settings.dashboardIntervalSeconds * 1000
  }

  get listeners(): number {
    return this.clients.size
  }

  latencyChart(): string {
    const at = this.sampledAt
    return barChart({
      label: `Pickup latency: the oldest ready job's wait, sampled every ${this.intervalMs / 1000}s while the dashboard is watched (UTC)`,
      values: this.latency,
      barLabel: (i) => `${clock(at[i], true)}Z`,
      format: (v) => formatAge(v),
      ticks: tickIndexes(at.length).map((i) => ({ index: i, label: clock(at[i], true) })),
    })
  }

  /** Note one latency sample (the pages do too when they read the stats). */
  sample(stats: DashboardStats): void {
    this.latency.push(oldestWait(stats))
    this.sampledAt.push(Date.parse(stats.generatedAt))
    if (this.latency.length > SAMPLES) {
      this.latency.shift()
      this.sampledAt.shift()
    }
  }

  add(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' })
    res.write(`retry: ${Math.max(this.intervalMs, 1000)}\n\n`)
    this.clients.add(res)
    res.on('close', () => {
      this.clients.delete(res)
      if (this.clients.size === 0) this.stop()
    })
    if (!this.timer) {
      this.timer = setInterval(() => void this.tick(), this.intervalMs)
      void this.tick()
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    this.lastLogId = null
  }

  close(): void {
    this.stop()
    for (const c of this.clients) c.end()
    this.clients.clear()
  }

  private async tick(): Promise<void> {
    if (this.busy) return
    this.busy = true
    try {
      if (this.lastLogId === null) this.lastLogId = await latestLogId(this.ctx.pool)
      const stats = await loadStats(this.ctx)
      const states = await readStateCounts(this.ctx.pool)
      const completions = await readOutcomes(this.ctx.pool, this.lastLogId, 50)
      if (completions.length) this.lastLogId = completions[completions.length - 1].logId
      this.sample(stats)
      const pulse: Pulse = {
        generatedAt: stats.generatedAt,
        totals: stats.totals,
        workersAlive: stats.workers.alive,
        throughputPerSecond: stats.throughput.perSecondNow,
        finishedLastMinute: stats.throughput.lastMinute,
        oldestWaitSeconds: oldestWait(stats),
        oldestWait: formatAge(oldestWait(stats)),
        memory: { chunksPendingProjection: stats.memory?.chunksPendingProjection ?? 0, dirtyProfiles: stats.memory?.dirtyProfiles ?? 0 },
        completions,
        charts: { throughput: throughputChart(stats), latency: this.latencyChart() },
        states: { ...states, all: states.ready + states.scheduled + states.picked + states.held },
      }
      const frame = `event: pulse\ndata: ${JSON.stringify(pulse)}\n\n`
      for (const c of this.clients) c.write(frame)
    } catch (err) {
      const frame = `event: trouble\ndata: ${JSON.stringify({ message: (err as Error).message })}\n\n`
      for (const c of this.clients) c.write(frame)
    } finally {
      this.busy = false
    }
  }
}
