/**
 * The worker: binds the registry's jobs, and runs the pick loop (pick-loop.ts), the executor,
 * outcome batching (outcomes.ts), one heartbeat statement per interval for everything it holds
 * (running jobs and those waiting in the local queue), the LISTEN link and its services.
 * `stop()` stops picking, releases the jobs still waiting, lets running jobs finish within the
 * timeout, releases the rest to `queued` without counting an attempt, and deregisters.
 */
import { randomUUID } from 'node:crypto'
import { callsOf } from '../db/connect.js'
import { deregisterWorker, type HeartbeatResult, registerWorker, type WorkerRegistration } from '../db/sql/aizk-worker.js'
import { WorkerEvents } from '../events.js'
import { concurrencyLimitOf, type JobClass } from '../jobs/queue-job.js'
import { verifiedCancels } from '../queue/cancel-request.js'
import type { QueueListener } from '../queue/listen.js'
import { type PickPlan, pickOptionsFrom, planPick } from '../queue/pick.js'
import { defaultLocalQueueSize } from '../settings.js'
import { bindJobs } from './bind-jobs.js'
import { builtinServices } from './builtin-services.js'
import { DatabaseHealth } from './db-health.js'
import type { Executor } from './executor.js'
import type { HeldJobs } from './held-jobs.js'
import type { OutcomeBuffer } from './outcomes.js'
import { PauseControl } from './pause-control.js'
import type { PickLoop } from './pick-loop.js'
import { describeWorker, globalLimits } from './registration.js'
import { Heartbeat } from './worker-heartbeat.js'
import { listenConfig, workerListener } from './worker-listen.js'
import type { WorkerOptions, WorkerService } from './worker-options.js'
import { assembleParts } from './worker-parts.js'
import { shutDown } from './worker-shutdown.js'

export { shutdownFinishMs } from './worker-shutdown.js'

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
  private held: HeldJobs | undefined
  private listener: QueueListener | undefined
  private readonly heartbeat: Heartbeat
  private registration: WorkerRegistration | undefined
  private stopped: Promise<void> | undefined
  private readonly services: WorkerService[] = []
  private readonly startedServices: WorkerService[] = []

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
    this.heartbeat = new Heartbeat({
      pool: o.pool,
      queueManagerId: this.queueManagerId,
      health: this.health,
      held: () => this.held?.byAge(o.settings.heartbeatIntervalSeconds) ?? { stale: [], fresh: [] },
      stuckCalls: (slackMs) => this.stuckHandlerCalls(slackMs),
      onBeat: (beat) => this.afterBeat(beat),
    })
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
    this.pauses = new PauseControl(
      pool,
      this.entrypoints,
      (name, payload) => this.events.emit(name, payload),
      () => this.pausesChanged(),
    )
    await this.pauses.load()
    this.replan()
    const limits = globalLimits(this.jobs.values(), settings)
    const hasLimits = Object.keys(limits).length > 0
    const sizes = { batchSize, concurrency, localQueueSize }
    const { events, health, jobs } = this
    const parts = await assembleParts({
      options: this.o,
      queueManagerId: this.queueManagerId,
      events,
      health,
      jobs,
      sizes,
      plan: () => this.plan,
      draining: () => this.draining,
    })
    const { picker } = parts
    this.outcomes = parts.outcomes
    this.executor = parts.executor
    this.picker = picker
    this.held = parts.held
    const registration = describeWorker(this.queueManagerId, this.entrypoints, limits, settings.heartbeatTimeoutSeconds)
    await registerWorker(pool, registration)
    this.registration = registration
    try {
      const listen = listenConfig(this.o.listen, pool)
      const reactions = {
        picker,
        health: this.health,
        hasLimits,
        refreshPauses: () => this.refreshPauses(),
        claimedCancel: (ids: readonly string[]) => this.claimedCancel(ids),
      }
      this.listener = workerListener(listen, settings.listenCheckSeconds * 1000, reactions)
      await this.listener?.start()
      this.heartbeat.start(settings.heartbeatIntervalSeconds * 1000)
      this.events.emit('worker:started', {
        queueManagerId: this.queueManagerId,
        entrypoints: this.entrypoints,
        ...sizes,
        pid: registration.pid,
        host: registration.host,
      })
      this.pauses.announce()
      for (const service of [...this.services, ...builtinServices(this.o, this.events)]) {
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

  /** A start that failed after registering: stop what started, deregister; the caller reports the error. */
  private async undoStart(): Promise<void> {
    this.heartbeat.stop()
    for (const service of this.startedServices.splice(0).reverse()) await service.stop().catch(() => {})
    await this.listener?.stop().catch(() => {})
    this.executor?.close()
    this.outcomes?.close()
    await deregisterWorker(this.o.pool, this.queueManagerId).catch((err) => this.health.error('deregister', err))
  }

  /** What a heartbeat brought back: cancels and pauses whose NOTIFY was lost, a row removed as dead. */
  private afterBeat(beat: HeartbeatResult): Promise<void> | undefined {
    if (beat.cancelRequested.length) this.held?.cancel(beat.cancelRequested)
    if (!this.pauses.matches(beat.paused)) this.refreshPauses()
    // Silent past its timeout (a stall), the row was removed as dead: without it, this
    // worker's picks would be judged foreign and its limits would not count.
    if (!beat.registered && !this.draining && this.registration) return registerWorker(this.o.pool, this.registration)
    return undefined
  }

  /**
   * A `cancellation_event` names ids, and anyone may send one (NOTIFY needs no privilege, a tenant's
   * scoped transaction included): only the ids the database confirms an authorized role canceled
   * are acted on (verifiedCancels), and only ids this worker holds are asked about at all.
   */
  private claimedCancel(ids: readonly string[]): void {
    const held = this.held?.started() ?? new Set<string>()
    const claimed = [...new Set(ids)].filter((id) => held.has(id))
    if (claimed.length === 0) return
    verifiedCancels(this.o.pool, this.queueManagerId, claimed).then(
      (verified) => {
        const refused = claimed.filter((id) => !verified.includes(id))
        if (refused.length) this.events.emit('job:cancel-unverified', { jobIds: refused })
        if (verified.length) this.held?.cancel(verified)
      },
      (err) => this.health.error('cancel', err),
    )
  }

  /**
   * The server refuses writes: the jobs picked but not started go back to `queued` (written once
   * a server accepts writes; a no-op for rows another worker has recovered meanwhile) instead of
   * starting handlers whose writes and outcome would be refused
   * (docs/running-the-worker.md#read-only-servers).
   */
  private releaseWaitingWhileReadOnly(): void {
    this.held?.releaseWaiting()
  }

  /** A paused entrypoint starts nothing new: its waiting jobs go back to `queued` for whoever picks after the resume. */
  private pausesChanged(): void {
    this.replan()
    this.held?.releaseWaiting((job) => this.pauses.isPaused(job.entrypoint))
    this.picker?.wake(true)
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

  /** worker-shutdown.ts: drain, release, write the last outcomes, deregister; each step bounded. */
  private shutdown(timeoutMs: number, reason: string): Promise<void> {
    const { queueManagerId, events, health, executor, outcomes, picker, heartbeat } = this
    const parts = {
      ...this.o,
      queueManagerId,
      events,
      health,
      executor,
      outcomes,
      picker,
      heartbeat,
      services: this.startedServices,
      listener: () => this.listener,
    }
    return shutDown(parts, timeoutMs, reason)
  }

  /** Resolves when the worker has stopped (after `stop()`). */
  async finished(): Promise<void> {
    await this.picker?.finished
    await this.stopped
  }
}
