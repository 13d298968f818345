/**
 * The Scheduler service: the worker runs it beside the job loop. It keeps one pgqueuer_schedules
 * row per enabled scheduled job and claims due rows in the database, so each tick fires once
 * across every worker however many run. A tick missed while every worker was down fires once when
 * one comes back (next_run jumps past now), and a disabled job never has a row claimed.
 */
import type pg from 'pg'
import { nextFireAfter, toPgqueuerExpression } from '../cron.js'
import * as sql from '../db/sql/pgqueuer-schedules.js'
import { withTransaction } from '../db/sql/transaction.js'
import { errorMessage } from '../errors.js'
import type { WorkerEvents } from '../events.js'
import type { JobRegistry } from '../jobs/registry.js'
import { isScheduledJobClass, type ScheduledJobClass } from '../jobs/scheduled-job.js'
import type { Settings } from '../settings.js'
import { traceTick } from '../tracing/tick.js'
import { type FanOutResult, fanOut } from './fan-out.js'

export interface SchedulerOptions {
  pool: pg.Pool
  registry: JobRegistry
  settings: Settings
  events: WorkerEvents
  /** Longest sleep between looks at the table (stale picks are noticed within it). Default 5 s. */
  maxSleepMs?: number
  staleAfterSeconds?: number
  /**
   * The entrypoints the worker runs: only their schedules are kept and fired here, so a worker
   * started with `--entrypoint X` leaves no tick queued that it will not run. Unset: every
   * registered scheduled job (a scheduler beside a worker of every entrypoint).
   */
  entrypoints?: readonly string[]
}

export interface FireResult extends FanOutResult {
  cronEntrypoint: string
  scheduledFor: Date
  nextRun: Date
  error?: string
}

export interface UpcomingFire {
  name: string
  kind: 'scoped' | 'system'
  entrypoint: string
  cronEntrypoint: string
  cron: string
  expression: string | null
  enabled: boolean
  nextRun: string | null
  lastRun: string | null
  status: string | null
}

interface Entry extends sql.ScheduleKey {
  job: ScheduledJobClass
  cron: string
}

const ENSURE_EVERY_MS = 60_000

export class Scheduler {
  private readonly jobs: ScheduledJobClass[]
  private readonly entries: Entry[]
  private readonly byKey = new Map<string, Entry>()
  private readonly inFlight = new Map<number, Promise<FireResult>>()
  private running = false
  private loop?: Promise<void>
  private wake?: AbortController
  private heartbeat?: NodeJS.Timeout
  private lastEnsure = 0

  constructor(private readonly opts: SchedulerOptions) {
    const runs = (job: ScheduledJobClass) => !opts.entrypoints || opts.entrypoints.includes(job.entrypoint)
    this.jobs = (opts.registry.all().filter((j) => isScheduledJobClass(j)) as unknown as ScheduledJobClass[]).filter(runs)
    this.entries = this.jobs
      .filter((job) => job.fires(opts.settings))
      .map((job) => {
        const cron = job.cron(opts.settings)
        return { job, cron, entrypoint: job.cronEntrypoint, expression: toPgqueuerExpression(cron) }
      })
    for (const e of this.entries) this.byKey.set(keyOf(e), e)
  }

  /** The enabled scheduled jobs this scheduler fires. */
  get scheduled(): ScheduledJobClass[] {
    return this.entries.map((e) => e.job)
  }

  /**
   * Starts the loop; its first turn creates the schedule rows, so a database that is away right
   * now is retried there instead of failing the worker's start-up.
   */
  async start(): Promise<void> {
    if (this.running) return
    this.running = true
    const beatMs = Math.max(50, this.opts.settings.heartbeatIntervalSeconds * 1000)
    this.heartbeat = setInterval(() => void this.beat(), beatMs)
    this.heartbeat.unref()
    this.loop = this.run()
  }

  async stop(): Promise<void> {
    this.running = false
    this.wake?.abort()
    await this.loop
    await Promise.allSettled(this.inFlight.values())
    if (this.heartbeat) clearInterval(this.heartbeat)
  }

  private byEntrypoint(cronEntrypoint: string): Entry | undefined {
    return this.entries.find((e) => e.entrypoint === cronEntrypoint)
  }

  /** Create the missing schedule rows (first next_run from now) and drop outdated ones. */
  async ensure(): Promise<void> {
    const now = new Date()
    const rows = this.entries.map((e) => ({ ...e, nextRun: nextFireAfter(e.cron, now, this.cronOpts()) }))
    await sql.ensureSchedules(this.opts.pool, rows)
    await sql.removeStaleSchedules(
      this.opts.pool,
      this.jobs.map((job) => ({ entrypoint: job.cronEntrypoint, expression: this.byEntrypoint(job.cronEntrypoint)?.expression ?? null })),
    )
    this.lastEnsure = Date.now()
  }

  /** One look at the table: claim every due tick and fire it. Tests call this directly. */
  async runDue(): Promise<FireResult[]> {
    const claimed = await this.claim()
    return Promise.all(claimed.map((c) => this.track(c)))
  }

  /** What fires next, for UIs and `aizk jobs types`: every scheduled job this scheduler runs, enabled or not. */
  async upcomingFires(from: Date = new Date()): Promise<UpcomingFire[]> {
    const rows = await sql.listSchedules(
      this.opts.pool,
      this.jobs.map((j) => j.cronEntrypoint),
    )
    return this.jobs.map((job) => {
      const enabled = job.enabled(this.opts.settings)
      const cron = job.cron(this.opts.settings)
      const expression = cron === 'off' ? null : toPgqueuerExpression(cron)
      const fires = job.fires(this.opts.settings)
      const row = fires ? rows.find((r) => r.entrypoint === job.cronEntrypoint && r.expression === expression) : undefined
      const next = fires ? (row?.nextRun ?? nextFireAfter(cron, from, this.cronOpts())) : null
      return {
        name: job.jobName,
        kind: job.kind as 'scoped' | 'system',
        entrypoint: job.entrypoint,
        cronEntrypoint: job.cronEntrypoint,
        cron,
        expression,
        enabled,
        nextRun: next?.toISOString() ?? null,
        lastRun: row?.lastRun?.toISOString() ?? null,
        status: row?.status ?? null,
      }
    })
  }

  private cronOpts() {
    return { timezone: this.opts.settings.timezone }
  }

  private async run(): Promise<void> {
    const maxSleep = this.opts.maxSleepMs ?? 5000
    while (this.running) {
      let wait = maxSleep
      try {
        if (Date.now() - this.lastEnsure > ENSURE_EVERY_MS) await this.ensure()
        for (const c of await this.claim()) void this.track(c)
        const until = await sql.msUntilNextRun(this.opts.pool, this.entries)
        // Wake a few ms after the earliest next_run, by the database's clock.
        if (until !== null) wait = Math.min(maxSleep, Math.max(20, until + 5))
      } catch (err) {
        this.opts.events.reportError('scheduler', err)
      }
      if (this.running) await this.sleep(wait)
    }
  }

  private sleep(ms: number): Promise<void> {
    this.wake = new AbortController()
    const signal = this.wake.signal
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms)
      signal.addEventListener('abort', () => {
        clearTimeout(timer)
        resolve()
      })
    })
  }

  /** Lock due rows, advance their next_run and flip them to picked, in one transaction. */
  private async claim(): Promise<(sql.DueSchedule & { entry: Entry; advancedTo: Date })[]> {
    if (this.entries.length === 0) return []
    return withTransaction(this.opts.pool, async (client) => {
      const due = await sql.lockDueSchedules(client, this.entries, this.opts.staleAfterSeconds)
      const claimed = due.flatMap((row) => {
        const entry = this.byKey.get(keyOf(row))
        return entry ? [{ ...row, entry, advancedTo: this.advance(entry, row) }] : []
      })
      await sql.markSchedulesPicked(
        client,
        claimed.map((c) => ({ id: c.id, nextRun: c.advancedTo })),
      )
      return claimed
    })
  }

  /**
   * The next tick after the one being fired. When more ticks than this one have passed (every
   * worker was down), they collapse into this fire and next_run jumps past now.
   */
  private advance(entry: Entry, row: sql.DueSchedule): Date {
    if (row.nextRun > row.dbNow) return row.nextRun // a stale pick whose tick was already advanced
    const next = nextFireAfter(entry.cron, row.nextRun, this.cronOpts())
    return next > row.dbNow ? next : nextFireAfter(entry.cron, row.dbNow, this.cronOpts())
  }

  private track(c: sql.DueSchedule & { entry: Entry; advancedTo: Date }): Promise<FireResult> {
    const p = this.fire(c).finally(() => this.inFlight.delete(c.id))
    this.inFlight.set(c.id, p)
    return p
  }

  private async fire(c: sql.DueSchedule & { entry: Entry; advancedTo: Date }): Promise<FireResult> {
    const { job } = c.entry
    const scheduledFor = c.stale ? c.dbNow : c.nextRun
    let result: FireResult
    try {
      const tick = { name: job.jobName, cronEntrypoint: job.cronEntrypoint, scheduledFor }
      const out = await traceTick(tick, () => fanOut(job, this.opts.pool, this.opts.settings))
      result = { ...out, cronEntrypoint: job.cronEntrypoint, scheduledFor, nextRun: c.advancedTo }
      this.opts.events.emit('schedule:fired', {
        name: out.name,
        cronEntrypoint: job.cronEntrypoint,
        scheduledFor: scheduledFor.toISOString(),
        enqueued: out.enqueued,
        alreadyQueued: out.alreadyQueued,
      })
    } catch (err) {
      const error = errorMessage(err)
      this.opts.events.reportError(`scheduler:${job.jobName}`, err)
      const kind = job.kind as 'scoped' | 'system'
      result = {
        name: job.jobName,
        kind,
        items: 0,
        enqueued: 0,
        alreadyQueued: 0,
        cronEntrypoint: job.cronEntrypoint,
        scheduledFor,
        nextRun: c.advancedTo,
        error,
      }
    }
    try {
      await sql.releaseSchedules(this.opts.pool, [c.id])
    } catch (err) {
      // The row stays picked; its heartbeat stops, so another scheduler reclaims it after 30 s.
      this.opts.events.reportError('scheduler:release', err)
    }
    this.opts.events.emit('schedule:next', { name: job.jobName, cronEntrypoint: job.cronEntrypoint, nextRun: c.advancedTo.toISOString() })
    return result
  }

  private async beat(): Promise<void> {
    try {
      await sql.heartbeatSchedules(this.opts.pool, [...this.inFlight.keys()])
    } catch (err) {
      this.opts.events.reportError('scheduler:heartbeat', err)
    }
  }
}

function keyOf(k: sql.ScheduleKey): string {
  return `${k.entrypoint}\n${k.expression}`
}
