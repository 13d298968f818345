/**
 * The worker: binds the registry's jobs, and runs the pick loop (pick-loop.ts), the executor,
 * outcome batching (outcomes.ts), one heartbeat statement per interval for everything it holds
 * (running jobs and those waiting in the local queue), the LISTEN link and its services.
 * `stop()` stops picking, releases the jobs still waiting, lets running jobs finish within the
 * timeout, releases the rest to `queued` without counting an attempt, and deregisters.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { callsOf, connectionLimits, listenConfigOf } from '../db/connect.js'
import { DatabasePool } from '../db/database-pool.js'
import { OVERDUE_SLACK_MS } from '../db/deadline-client.js'
import { deregisterWorker, heartbeat, registerWorker, type WorkerRegistration } from '../db/sql/aizk-worker.js'
import { UsageError } from '../errors.js'
import { concurrencyLimitOf, type JobClass } from '../jobs/queue-job.js'
import { verifiedCancels } from '../queue/cancel-request.js'
import { QueueListener } from '../queue/listen.js'
import { type PickPlan, pickOptionsFrom, planPick } from '../queue/pick.js'
import { hasSlotColumn } from '../queue/retry.js'
import { bindJobs } from './bind-jobs.js'
import { DatabaseHealth } from './db-health.js'
import { WorkerEvents } from '../events.js'
import { Executor } from './executor.js'
import { OutcomeBuffer } from './outcomes.js'
import { PauseControl } from './pause-control.js'
import { PickLoop } from './pick-loop.js'
import type { WorkerOptions, WorkerService, WorkerSettings } from './worker-options.js'
import { defaultLocalQueueSize } from '../settings.js'
import { describeWorker } from './registration.js'
import { queueVacuumService } from './queue-vacuum.js'
import { lostStatementsService } from './lost-statements.js'

export class Worker {
  readonly queueManagerId = randomUUID()
  readonly events: WorkerEvents
  private readonly jobs: Map<string, JobClass>
  private readonly health: DatabaseHealth
  private plan!: PickPlan
  private pauses!: PauseControl
  private executor: Executor | undefined
  private outcomes: OutcomeBuffer | undefined
  private picker: PickLoop | undefined
  private listener: QueueListener | undefined
  private heartbeatTimer: NodeJS.Timeout | undefined
  private beating = false
  private registration: WorkerRegistration | undefined
  private stopped: Promise<void> | undefined
  private readonly services: WorkerService[] = []
  private startedServices: WorkerService[] = []

  constructor(private readonly o: WorkerOptions) {
    this.events = o.events ?? new WorkerEvents()
    this.health = new DatabaseHealth(this.events, {
      recovered: (writesRefused) => {
        // The LISTEN link may still be on the server that refused: renew it where connections go now.
        if (writesRefused) this.listener?.renew()
        this.outcomes?.retryNow()
        this.picker?.wake(true)
      },
      writesRefused: () => this.releaseWaitingWhileReadOnly(),
    })
    // The services' failures too: a connection fault in a background pass is part of the outage.
    this.events.routeErrors((where, err) => this.health.error(where, err))
    this.jobs = bindJobs(o.registry, o.settings, o.entrypoints)
    this.services.push(...(o.services ?? []))
  }

  get entrypoints(): string[] {
    return [...this.jobs.keys()].sort()
  }

  /** True once the worker stopped picking to shut down (health's /readyz). */
  get draining(): boolean {
    return this.stopped !== undefined
  }

  /** Date.now() of the loop's last turn, 0 before the first (health's /livez). */
  get lastTurnAt(): number {
    return this.picker?.turnAt ?? 0
  }

  get inFlight(): number {
    return this.executor?.size ?? 0
  }

  /** How long the pick loop has gone without completing a pick it tried (health's /livez). */
  get pickStalledMs(): number {
    return this.picker?.pickStalledMs ?? 0
  }

  /** Age (ms) of the oldest queue round trip on its way, 0 when none (health's /livez). */
  get oldestCallMs(): number {
    return callsOf(this.o.pool)?.oldestAgeMs() ?? 0
  }

  /**
   * Handlers' statements on their way `slackMs` past their own deadline, or without one past the
   * job timeout (health's /livez, and the heartbeat's `stuck_calls` for `aizk status --check`).
   */
  stuckHandlerCalls(slackMs: number): number {
    return callsOf(this.o.workPool ?? this.o.pool)?.overdue(slackMs, this.o.settings.jobTimeoutSeconds * 1000) ?? 0
  }

  /** Why the database is counted away, '' while it is up (health's /readyz). */
  get databaseDown(): string {
    return this.health.downError
  }

  /** Jobs picked and waiting in the local queue for a handler slot. */
  get waiting(): number {
    return this.picker?.waitingCount ?? 0
  }

  /** Add a service (scheduler, health server) to start and stop with the worker; before start(). */
  use(service: WorkerService): this {
    if (this.picker) throw new Error('Worker.use() after start()')
    this.services.push(service)
    return this
  }

  async start(): Promise<void> {
    const { pool, settings } = this.o
    const batchSize = Math.max(1, this.o.batchSize)
    const concurrency = Math.max(1, this.o.concurrency)
    const localQueueSize = Math.max(0, this.o.localQueueSize ?? defaultLocalQueueSize(batchSize))
    this.pauses = new PauseControl(pool, this.entrypoints, (name, payload) => this.events.emit(name, payload), () => {
      this.replan()
      this.releasePausedWaiting()
      this.picker?.wake(true)
    })
    await this.pauses.load()
    this.replan()
    const hasLimits = [...this.jobs.values()].some((j) => concurrencyLimitOf(j, settings) > 0)
    const outcomes = new OutcomeBuffer(pool, this.queueManagerId, { hasSlot: await hasSlotColumn(pool) }, (where, err) => this.health.error(where, err), () => this.health.recovered(), settings.completionFlushMs)
    outcomes.busy = () => (this.picker?.busy ?? false) && !this.draining
    outcomes.onWritten = (written) => this.events.emit('outcomes:written', written)
    const executor = new Executor({ pool: this.o.workPool ?? pool, events: this.events, outcomes, settings, jobs: this.jobs, onSlotFree: (ranMs) => this.picker?.slotFreed(ranMs) })
    const picker = new PickLoop({ pool, settings, events: this.events, health: this.health, jobs: this.jobs, plan: () => this.plan, batchSize, concurrency, localQueueSize }, executor, outcomes)
    this.outcomes = outcomes
    this.executor = executor
    this.picker = picker
    const limits = Object.fromEntries(
      [...this.jobs.values()].map((j) => [j.entrypoint, concurrencyLimitOf(j, settings)] as const).filter(([, limit]) => limit > 0),
    )
    const registration = describeWorker(this.queueManagerId, this.entrypoints, limits, settings.heartbeatTimeoutSeconds)
    await registerWorker(pool, registration)
    this.registration = registration
    try {
      const listen = this.listenConfig()
      // No LISTEN (behind a transaction pooler without a direct URL): the picks poll, and the
      // heartbeat brings cancels and pauses.
      this.listener = listen === false ? undefined : new QueueListener(listen, settings.listenCheckSeconds * 1000, {
        // A completion anywhere may free a slot of a global limit: only then is a DELETE news.
        onWake: (kind) => {
          if (kind === 'work' || hasLimits) picker.wake(true)
        },
        // Notifications sent while LISTEN was down are lost: poll again once it is back.
        onConnected: ({ reconnect }) => {
          if (!reconnect) return
          // A link back proves the server answers, not that it writes: a pick or a heartbeat says that.
          if (!this.health.writesRefused) this.health.recovered()
          this.refreshPauses()
          picker.wake(true)
        },
        onLost: (error) => this.health.lost(error),
        onCancel: (ids) => this.claimedCancel(ids),
        onControl: () => this.refreshPauses(),
      })
      await this.listener?.start()
      this.heartbeatTimer = setInterval(() => this.beat(), settings.heartbeatIntervalSeconds * 1000)
      this.events.emit('worker:started', { queueManagerId: this.queueManagerId, entrypoints: this.entrypoints, batchSize, concurrency, localQueueSize, pid: registration.pid, host: registration.host })
      this.pauses.announce()
      const vacuum = settings.queueVacuumRows > 0 ? [queueVacuumService(pool, this.events, settings.queueVacuumRows)] : []
      for (const service of [...this.services, ...vacuum, ...this.lostStatements()]) {
        await service.start()
        this.startedServices.push(service)
      }
    } catch (err) {
      // A port already taken, a listener that cannot connect: leave no row (and no timer) behind.
      await this.undoStart()
      throw err
    }
    picker.start()
  }

  /**
   * The handlers' pool's statements past the round-trip deadline checked on the server
   * (lost-statements.ts); not behind a transaction pooler, whose connections are not the server's.
   */
  private lostStatements(): WorkerService[] {
    const handlers = this.o.workPool
    if (!(handlers instanceof DatabasePool) || handlers === this.o.pool || handlers.clientConfig.namedStatements === false) return []
    return [lostStatementsService({ pool: this.o.pool, handlers, deadlineMs: connectionLimits(this.o.settings).deadlineMs, events: this.events })]
  }

  /** A start that failed after registering: stop what started, deregister; the caller reports the error. */
  private async undoStart(): Promise<void> {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer)
    this.heartbeatTimer = undefined
    for (const service of this.startedServices.splice(0).reverse()) await service.stop().catch(() => {})
    await this.listener?.stop().catch(() => {})
    this.executor?.close()
    this.outcomes?.close()
    await deregisterWorker(this.o.pool, this.queueManagerId).catch((err) => this.health.error('deregister', err))
  }

  private listenConfig(): pg.ClientConfig | false {
    const config = this.o.listen ?? listenConfigOf(this.o.pool)
    if (config === undefined) throw new UsageError('the worker needs its LISTEN connection', 'pass `listen` (a pg client config), or a pool from openDatabase')
    return config
  }

  /** One statement for the worker's row and every pick it holds; it also brings cancels and pauses whose NOTIFY was lost. */
  private beat(): void {
    // One beat at a time: on a silent network the next waits for this one's deadline.
    if (this.beating) return
    this.beating = true
    const { stale, fresh } = this.heldByAge()
    heartbeat(this.o.pool, this.queueManagerId, stale, fresh, this.stuckHandlerCalls(OVERDUE_SLACK_MS))
      .then(
        (beat) => {
          // The heartbeat is a write: it ends a read-only outage even while every slot is busy and nothing picks.
          if (this.health.writesRefused) this.health.recovered()
          if (beat.cancelRequested.length) this.cancel(beat.cancelRequested)
          if (!this.pauses.matches(beat.paused)) this.refreshPauses()
          // Silent past its timeout (a stall), the row was removed as dead: without it, this
          // worker's picks would be judged foreign and its limits would not count.
          if (!beat.registered && !this.draining && this.registration) return registerWorker(this.o.pool, this.registration)
        },
        (err) => this.health.error('heartbeat', err),
      )
      .catch((err) => this.health.error('register', err))
      .finally(() => {
        this.beating = false
      })
  }

  /**
   * The rows this worker knows it holds (running, waiting for a slot, or with an outcome to
   * write), split by age: a row picked less than half an interval ago has the heartbeat its pick
   * wrote, so its first refresh comes at most 1.5 intervals after the pick and one late beat still
   * stays inside the timeout (HEARTBEATS_PER_TIMEOUT). Quick jobs finish before they need one.
   */
  private heldByAge(): { stale: string[]; fresh: string[] } {
    const before = Date.now() - (this.o.settings.heartbeatIntervalSeconds * 1000) / 2
    const stale = [...(this.executor?.runningIds(before) ?? []), ...(this.picker?.waitingIds(before) ?? []), ...(this.outcomes?.ids() ?? [])]
    const refreshed = new Set(stale)
    const fresh = [...(this.executor?.runningIds() ?? []), ...(this.picker?.waitingIds() ?? [])].filter((id) => !refreshed.has(id))
    return { stale, fresh }
  }

  /**
   * A `cancellation_event` names ids, and anyone may send one (NOTIFY needs no privilege, a tenant's
   * scoped transaction included): only the ids the database confirms an authorized role canceled
   * are acted on (verifiedCancels), and only ids this worker holds are asked about at all.
   */
  private claimedCancel(ids: readonly string[]): void {
    const held = new Set([...(this.executor?.runningIds() ?? []), ...(this.picker?.waitingIds() ?? [])])
    const claimed = [...new Set(ids)].filter((id) => held.has(id))
    if (claimed.length === 0) return
    verifiedCancels(this.o.pool, this.queueManagerId, claimed).then(
      (verified) => {
        const refused = claimed.filter((id) => !verified.includes(id))
        if (refused.length) this.events.emit('job:cancel-unverified', { jobIds: refused })
        if (verified.length) this.cancel(verified)
      },
      (err) => this.health.error('cancel', err),
    )
  }

  /** An operator canceled these jobs: abort the running ones, log the waiting ones `canceled` without running them. */
  private cancel(ids: readonly string[]): void {
    this.executor?.requestCancel(ids)
    const wanted = new Set(ids)
    const waiting = this.picker?.takeWaiting((job) => wanted.has(job.id)) ?? []
    if (waiting.length) this.executor?.releaseWaiting(waiting, true)
  }

  /**
   * The server refuses writes: the jobs picked but not started go back to `queued` (written once
   * a server accepts writes; a no-op for rows another worker has recovered meanwhile) instead of
   * starting handlers whose writes and outcome would be refused
   * (docs/running-the-worker.md#read-only-servers).
   */
  private releaseWaitingWhileReadOnly(): void {
    const waiting = this.picker?.takeWaiting() ?? []
    if (waiting.length) this.executor?.releaseWaiting(waiting)
  }

  /** A paused entrypoint starts nothing new: its waiting jobs go back to `queued` for whoever picks after the resume. */
  private releasePausedWaiting(): void {
    const waiting = this.picker?.takeWaiting((job) => this.pauses.isPaused(job.entrypoint)) ?? []
    if (waiting.length) this.executor?.releaseWaiting(waiting)
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
    this.pauses.refresh().catch((err) => this.health.error('pause', err))
  }

  /** Stop picking, drain within `timeoutMs`, release what is still running, deregister. */
  stop(opts: { timeoutMs?: number; reason?: string } = {}): Promise<void> {
    this.stopped ??= this.shutdown(opts.timeoutMs ?? 25_000, opts.reason ?? 'stop requested')
    return this.stopped
  }

  /**
   * Running jobs get `timeoutMs`; the last writes (outcomes, releases, deregistering, closing
   * LISTEN) get `shutdownFinishMs` more, each step cut off there however its connection behaves,
   * so the worker always stops. What could not be written is said ('worker:error') and stays
   * picked, to be picked again after the heartbeat timeout.
   */
  private async shutdown(timeoutMs: number, reason: string): Promise<void> {
    const deadline = Date.now() + timeoutMs
    const end = deadline + shutdownFinishMs(this.o.settings)
    const { executor, outcomes, picker } = this
    this.events.emit('worker:stopping', { reason, inFlight: this.inFlight })
    await until(end, picker?.stop())
    // Waiting jobs never started: back to `queued` at once, not after the drain.
    const notStarted = picker?.takeWaiting() ?? []
    if (notStarted.length) executor?.releaseWaiting(notStarted)
    for (const service of this.startedServices.splice(0).reverse()) {
      await until(end, service.stop()).catch((err) => this.health.error('service', err))
    }
    const before = executor?.finishedCount ?? 0
    while (picker && executor && executor.size > 0 && Date.now() < deadline) {
      await picker.waitForSlot(Math.min(100, Math.max(1, deadline - Date.now())))
    }
    const completedInTime = (executor?.finishedCount ?? 0) - before
    const released = executor?.releaseAll() ?? 0
    executor?.close()
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer)
    let unwritten = 0
    if (outcomes) {
      // What is not written stays picked and is recovered after the heartbeat timeout.
      await outcomes.drain(end).catch(() => {
        const ids = outcomes.ids()
        unwritten = ids.length
        const named = `${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', ...' : ''}`
        this.events.emit('worker:error', {
          where: 'shutdown',
          error: `${unwritten} job outcomes or releases could not be written before the shutdown deadline (is the database reachable?): jobs ${named} stay picked and run again after the heartbeat timeout`,
        })
      })
      // A released handler that finishes later must not start writes (and retry timers) on a
      // pool that is about to close: that kept stopped workers alive.
      outcomes.close()
    }
    await until(end, deregisterWorker(this.o.pool, this.queueManagerId)).catch((err) => this.health.error('deregister', err))
    await until(end, this.listener?.stop())
    this.events.emit('worker:stopped', { released, completedInTime, ...(unwritten ? { unwritten } : {}) })
  }

  /** Resolves when the worker has stopped (after `stop()`). */
  async finished(): Promise<void> {
    await this.picker?.finished
    await this.stopped
  }
}

/** How long a stopping worker's last writes may take past the shutdown timeout: 5 s, or the database deadline if shorter. */
export function shutdownFinishMs(settings: Pick<WorkerSettings, 'dbDeadlineSeconds'>): number {
  return Math.min(5000, Math.round((settings.dbDeadlineSeconds ?? 15) * 1000))
}

/** `promise`, or nothing once `end` (Date.now() ms) has passed: a step of the shutdown that may hang. */
function until<T>(end: number, promise: Promise<T> | undefined): Promise<T | undefined> {
  if (!promise) return Promise.resolve(undefined)
  let timer: NodeJS.Timeout | undefined
  const cut = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, end - Date.now()))
  })
  return Promise.race([promise, cut]).finally(() => clearTimeout(timer))
}
