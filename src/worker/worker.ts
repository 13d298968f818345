/**
 * The worker loop: pick a batch (one round trip), hand each job to the executor, pick again
 * while batches come back full, else sleep until a NOTIFY or a jittered poll. Outcomes are
 * written in batches (outcomes.ts); one statement per heartbeat interval keeps every pick and
 * the worker's row alive. `stop()` stops picking, lets running jobs finish within the timeout,
 * releases the rest to `queued` without counting an attempt, and deregisters.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { isScheduledJobClass } from '../jobs/scheduled-job.js'
import { UsageError } from '../errors.js'
import { concurrencyLimitOf, type JobClass } from '../jobs/queue-job.js'
import type { JobRegistry } from '../jobs/registry.js'
import { deregisterWorker, heartbeat, registerWorker } from '../db/sql/aizk-worker.js'
import { QueueListener } from '../queue/listen.js'
import { type PickedJob, type PickPlan, pickJobs, pickOptionsFrom, planPick } from '../queue/pick.js'
import { hasSlotColumn } from '../queue/retry.js'
import type { Settings } from '../settings.js'
import { WorkerEvents } from './events.js'
import { Executor } from './executor.js'
import { OutcomeBuffer } from './outcomes.js'
import { PauseControl } from './pause-control.js'
import { fanOutScopes } from './fan-out-scopes.js'
import { describeWorker } from './registration.js'

export interface WorkerService {
  start(): Promise<void> | void
  stop(): Promise<void>
}

export type WorkerSettings = Settings

export interface WorkerOptions {
  pool: pg.Pool
  registry: JobRegistry
  settings: WorkerSettings
  events?: WorkerEvents
  /** Only these entrypoints (each must have a handler); default every registered job. */
  entrypoints?: string[]
  batchSize: number
  concurrency: number
  services?: WorkerService[]
}

export class Worker {
  readonly queueManagerId = randomUUID()
  readonly events: WorkerEvents
  private readonly jobs = new Map<string, JobClass>()
  private readonly batchSize: number
  private readonly concurrency: number
  private readonly minPick: number
  private plan!: PickPlan
  private pauses!: PauseControl
  private executor!: Executor
  private outcomes!: OutcomeBuffer
  private listener: QueueListener | undefined
  private heartbeatTimer: NodeJS.Timeout | undefined
  private loop: Promise<void> | undefined
  private stopping = false
  private stopped: Promise<void> | undefined
  private wakePending = false
  private busy = false
  private waiter: (() => void) | undefined
  private secondaryWaiter: (() => void) | undefined
  private lastStaleCheck = 0
  private dbDownSince = 0
  private startedServices: WorkerService[] = []
  private turnAt = 0
  private hasLimits = false
  /** Slots promised to picks still in flight, so concurrent pickers never overshoot. */
  private reserved = 0
  private readonly extraServices: WorkerService[] = []

  constructor(private readonly o: WorkerOptions) {
    this.events = o.events ?? new WorkerEvents()
    this.batchSize = Math.max(1, o.batchSize)
    this.concurrency = Math.max(1, o.concurrency)
    this.minPick = Math.max(1, Math.floor(Math.min(this.batchSize, this.concurrency) / 2))
    const wanted = o.entrypoints?.length ? o.entrypoints : undefined
    for (const cls of o.registry.all()) {
      if (wanted && !wanted.includes(cls.entrypoint)) continue
      // A disabled scheduled pass is not bound unless asked for by name.
      if (!wanted && isScheduledJobClass(cls) && !cls.enabled(o.settings)) continue
      this.jobs.set(cls.entrypoint, cls)
    }
    const unknown = (wanted ?? []).filter((e) => !o.registry.get(e))
    if (unknown.length) {
      throw new UsageError(
        `no job with a handler for entrypoint ${unknown.join(', ')} in this worker`,
        `known entrypoints: ${o.registry.entrypoints().join(', ') || '(none)'}; name job modules in AIZK_WORKER_JOB_MODULES`,
      )
    }
  }

  get entrypoints(): string[] {
    return [...this.jobs.keys()].sort()
  }

  /** True once the worker stopped picking to shut down (health's /readyz). */
  get draining(): boolean {
    return this.stopping
  }

  /** Date.now() of the loop's last turn, 0 before the first (health's /livez). */
  get lastTurnAt(): number {
    return this.turnAt
  }

  get inFlight(): number {
    return this.executor?.size ?? 0
  }

  /** Add a service (scheduler, health server) to start and stop with the worker; before start(). */
  use(service: WorkerService): this {
    if (this.loop) throw new Error('Worker.use() after start()')
    this.extraServices.push(service)
    return this
  }

  async start(): Promise<void> {
    const { pool } = this.o
    this.pauses = new PauseControl(pool, this.entrypoints, (name, payload) => this.emit(name, payload), () => {
      this.replan()
      this.wake(true)
    })
    await this.pauses.load()
    this.replan()
    this.hasLimits = [...this.jobs.values()].some((j) => concurrencyLimitOf(j, this.o.settings) > 0)
    const hasSlot = await hasSlotColumn(pool)
    this.outcomes = new OutcomeBuffer(
      pool,
      this.queueManagerId,
      { hasSlot },
      (where, err) => this.dbError(where, err),
      () => this.dbRecovered(),
      this.o.settings.completionFlushMs,
    )
    this.outcomes.carrierActive = () => this.busy && !this.stopping
    this.executor = new Executor({
      pool,
      events: this.events,
      outcomes: this.outcomes,
      settings: this.o.settings,
      jobs: this.jobs,
      onSlotFree: () => {
        if (this.waiter && this.concurrency - this.executor.size - this.reserved >= this.minPick) this.wake(false)
      },
    })
    const registration = describeWorker(this.queueManagerId, this.entrypoints)
    await registerWorker(pool, registration)
    this.listener = new QueueListener(connectionConfig(pool), {
      // A completion anywhere may free a slot of a global limit: only then is a DELETE news.
      onWake: (kind) => {
        if (kind === 'work' || this.hasLimits) this.wake(true)
      },
      // Notifications sent while LISTEN was down are lost: poll again once it is back.
      onConnected: ({ reconnect }) => {
        if (reconnect) {
          this.dbRecovered()
          this.refreshPauses()
          this.wake(true)
        }
      },
      onLost: (error) => this.dbLost(error),
      onCancel: (ids) => this.executor.requestCancel(ids),
      onControl: () => this.refreshPauses(),
    })
    await this.listener.start()
    const hbMs = this.o.settings.heartbeatIntervalSeconds * 1000
    this.heartbeatTimer = setInterval(() => {
      heartbeat(pool, this.queueManagerId).then(
        (beat) => {
          if (beat.cancelRequested.length) this.executor.requestCancel(beat.cancelRequested)
          if (!this.pauses.matches(beat.paused)) this.refreshPauses()
        },
        (err) => this.dbError('heartbeat', err),
      )
    }, hbMs)
    this.emit('worker:started', {
      queueManagerId: this.queueManagerId,
      entrypoints: this.entrypoints,
      batchSize: this.batchSize,
      concurrency: this.concurrency,
      pid: registration.pid,
      host: registration.host,
    })
    this.pauses.announce()
    for (const service of [...(this.o.services ?? []), ...this.extraServices]) {
      await service.start()
      this.startedServices.push(service)
    }
    // Two pickers: while one waits on its round trip the other's batch runs, so a busy queue
    // keeps the server and the handlers busy at once. SKIP LOCKED keeps their picks disjoint.
    this.loop = Promise.all([this.pickLoop(0), this.pickLoop(1)]).then(() => {})
  }

  /** The pick asks only for entrypoints that are not paused (aizk_pick itself knows nothing of pauses). */
  private replan(): void {
    const active = [...this.jobs.values()].filter((j) => !this.pauses.isPaused(j.entrypoint))
    this.plan = planPick(
      this.queueManagerId,
      active.map((j) => ({ entrypoint: j.entrypoint, concurrencyLimit: concurrencyLimitOf(j, this.o.settings) })),
      pickOptionsFrom(this.o.settings),
    )
  }

  private refreshPauses(): void {
    this.pauses.refresh().catch((err) => this.dbError('pause', err))
  }

  /** Wake the loop: `work` when new work may be ready (NOTIFY), false when only a slot freed. */
  private wake(work: boolean): void {
    if (work) this.wakePending = true
    const w = this.waiter
    this.waiter = undefined
    w?.()
  }

  private sleep(ms: number, index = 0): Promise<void> {
    if (index > 0) return this.sleepSecondary(ms)
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined
        resolve()
      }, ms)
      this.waiter = () => {
        clearTimeout(timer)
        resolve()
      }
    })
  }

  private sleepSecondary(ms = 1000): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.secondaryWaiter = undefined
        resolve()
      }, ms)
      this.secondaryWaiter = () => {
        clearTimeout(timer)
        resolve()
      }
    })
  }

  private wakeSecondary(): void {
    const w = this.secondaryWaiter
    this.secondaryWaiter = undefined
    w?.()
  }

  private pollDelayMs(): number {
    return this.o.settings.pollIntervalSeconds * 1000 * (0.5 + Math.random())
  }

  private staleSecondsIfDue(): number {
    const timeout = this.o.settings.heartbeatTimeoutSeconds
    const now = Date.now()
    if (now - this.lastStaleCheck < Math.min(5000, (timeout * 1000) / 2)) return 0
    this.lastStaleCheck = now
    return timeout
  }

  private async pickLoop(index: number): Promise<void> {
    let failures = 0
    while (!this.stopping) {
      this.turnAt = Date.now()
      // The second picker only works while batches come back full.
      if (index > 0 && !this.busy) {
        await this.sleepSecondary()
        continue
      }
      const capacity = this.concurrency - this.executor.size - this.reserved
      if (capacity < this.minPick) {
        await this.sleep(this.pollDelayMs(), index)
        continue
      }
      const want = Math.min(this.batchSize, capacity)
      this.wakePending = false
      this.reserved += want
      let jobs: PickedJob[]
      const t0 = Date.now()
      const done = this.outcomes.takeCompletes()
      try {
        jobs = await pickJobs(this.o.pool, this.plan, want, index === 0 ? this.staleSecondsIfDue() : 0, done)
        failures = 0
        if (this.dbDownSince) this.dbRecovered()
      } catch (err) {
        if (done.length) this.outcomes.returnCompletes(done)
        this.dbError('pick', err)
        failures++
        await this.sleep(Math.min(5000, 100 * 2 ** Math.min(failures, 6)), index)
        continue
      } finally {
        this.reserved -= want
      }
      if (jobs.length) this.dispatch(jobs, Date.now() - t0)
      const full = jobs.length === want
      if (index === 0 && full !== this.busy) {
        this.busy = full
        if (full) this.wakeSecondary()
      }
      if (full || this.wakePending) continue
      await this.sleep(this.pollDelayMs(), index)
    }
  }

  private dispatch(jobs: PickedJob[], ms: number): void {
    const events = this.events
    if (events.wants('batch:picked')) {
      const byEntrypoint: Record<string, number> = {}
      for (const j of jobs) byEntrypoint[j.entrypoint] = (byEntrypoint[j.entrypoint] ?? 0) + 1
      this.emit('batch:picked', { count: jobs.length, byEntrypoint, ms })
    }
    const perJob = events.wants('job:picked')
    const recovered = events.wants('job:recovered')
    const now = Date.now()
    for (const job of jobs) {
      if (job.recovered && recovered) this.emit('job:recovered', { jobId: job.id, entrypoint: job.entrypoint, attempts: job.attempts })
      const scopes = fanOutScopes(job, this.jobs.get(job.entrypoint))
      if (perJob) {
        this.emit('job:picked', {
          jobId: job.id,
          entrypoint: job.entrypoint,
          priority: job.priority,
          attempts: job.attempts,
          waitMs: Math.max(0, now - job.readyAtMs),
          ...(scopes ? { scopes } : {}),
        })
      }
      if (!this.executor.execute(job, scopes)) {
        this.emit('worker:error', { where: 'pick', error: `job ${job.id} is already running in this worker; the second pick was not started (is the heartbeat timeout too short?)` })
      }
    }
  }

  private dbError(where: string, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err)
    if (isConnectionError(err)) {
      this.dbLost(message)
    } else {
      this.emit('worker:error', { where, error: message })
    }
  }

  /** One 'db:lost' per outage, whichever connection noticed first. */
  private dbLost(message: string): void {
    if (this.dbDownSince) return
    this.dbDownSince = Date.now()
    this.emit('db:lost', { error: message })
  }

  private dbRecovered(): void {
    if (!this.dbDownSince) return
    const downMs = Date.now() - this.dbDownSince
    this.dbDownSince = 0
    this.emit('db:reconnected', { downMs })
    this.wake(true)
  }

  /** Stop picking, drain within `timeoutMs`, release what is still running, deregister. */
  stop(opts: { timeoutMs?: number; reason?: string } = {}): Promise<void> {
    this.stopped ??= this.shutdown(opts.timeoutMs ?? 25_000, opts.reason ?? 'stop requested')
    return this.stopped
  }

  private async shutdown(timeoutMs: number, reason: string): Promise<void> {
    const deadline = Date.now() + timeoutMs
    this.stopping = true
    this.emit('worker:stopping', { reason, inFlight: this.inFlight })
    this.wake(false)
    this.wakeSecondary()
    await this.loop
    for (const service of this.startedServices.splice(0).reverse()) {
      await service.stop().catch((err) => this.dbError('service', err))
    }
    const before = this.executor ? this.executor.finishedCount : 0
    while (this.executor && this.executor.size > 0 && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        this.waiter = resolve
        setTimeout(resolve, Math.min(100, Math.max(1, deadline - Date.now()))).unref()
      })
    }
    const completedInTime = this.executor ? this.executor.finishedCount - before : 0
    const released = this.executor?.releaseAll() ?? 0
    this.executor?.close()
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer)
    if (this.outcomes) {
      // Keep trying past the drain deadline a little: what is not written stays picked and is
      // recovered after the heartbeat timeout, so give up only when the database is gone.
      await this.outcomes.drain(Math.max(deadline, Date.now() + 5000)).catch((err) => this.dbError('shutdown', err))
      // A released handler that finishes later must not start writes (and retry timers) on a
      // pool that is about to close: that kept stopped workers alive.
      this.outcomes.close()
    }
    await deregisterWorker(this.o.pool, this.queueManagerId).catch((err) => this.dbError('deregister', err))
    await this.listener?.stop()
    this.emit('worker:stopped', { released, completedInTime })
  }

  /** Resolves when the worker has stopped (after `stop()`). */
  async finished(): Promise<void> {
    await this.loop
    await this.stopped
  }

  private emit<K extends keyof import('./events.js').WorkerEventMap>(name: K, payload: import('./events.js').WorkerEventMap[K]): void {
    try {
      this.events.emit(name, payload)
    } catch {
      // A listener's bug must not stop the loop.
    }
  }
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03', '08000', '08003', '08006'])

function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: string })?.code
  if (code && CONNECTION_CODES.has(code)) return true
  return /terminat|connect|closed|ended/i.test(err instanceof Error ? err.message : String(err))
}

/** The pool's connection settings, for the LISTEN client. */
function connectionConfig(pool: pg.Pool): pg.ClientConfig {
  const options = (pool as unknown as { options: pg.PoolConfig }).options
  const { max: _max, idleTimeoutMillis: _idle, ...client } = options as pg.PoolConfig & Record<string, unknown>
  return client as pg.ClientConfig
}
