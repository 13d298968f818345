/**
 * The pick loop: pick a batch (one round trip), hand each job to the executor, pick again while
 * batches come back full, else sleep until a NOTIFY, a freed slot or a jittered poll. Two
 * pickers: while one waits on its round trip the other's batch runs, so a busy queue keeps the
 * server and the handlers busy at once (SKIP LOCKED keeps their picks disjoint). The second
 * picker works only while batches come back full. Each pick carries the completions that are
 * due, so a busy worker commits both in one transaction.
 */
import type pg from 'pg'
import type { JobClass } from '../jobs/queue-job.js'
import { type PickedJob, type PickPlan, pickJobs } from '../queue/pick.js'
import type { Settings } from '../settings.js'
import type { DatabaseHealth } from './db-health.js'
import type { WorkerEvents } from '../events.js'
import type { Executor } from './executor.js'
import { fanOutScopes } from './fan-out-scopes.js'
import type { OutcomeBuffer } from './outcomes.js'
import { Wakeup } from './wakeup.js'

export interface PickLoopParts {
  pool: pg.Pool
  settings: Pick<Settings, 'pollIntervalSeconds' | 'heartbeatTimeoutSeconds'>
  events: WorkerEvents
  health: DatabaseHealth
  jobs: ReadonlyMap<string, JobClass>
  /** The current plan (it changes when an entrypoint is paused or resumed). */
  plan: () => PickPlan
  batchSize: number
  concurrency: number
}

export class PickLoop {
  /** Date.now() of the last turn, 0 before the first (health's /livez). */
  turnAt = 0
  /** The last batch came back full: the second picker runs and completions wait for a carrier. */
  busy = false
  private stopping = false
  private wakePending = false
  /** Slots promised to picks still in flight, so the two pickers never overshoot. */
  private reserved = 0
  private lastStaleCheck = 0
  private readonly minPick: number
  private readonly wakeups = [new Wakeup(), new Wakeup()]
  private running: Promise<void> | undefined

  constructor(
    private readonly p: PickLoopParts,
    private readonly executor: Executor,
    private readonly outcomes: OutcomeBuffer,
  ) {
    this.minPick = Math.max(1, Math.floor(Math.min(p.batchSize, p.concurrency) / 2))
  }

  start(): void {
    this.running = Promise.all([this.pick(0), this.pick(1)]).then(() => {})
  }

  /** Stop picking; resolves once both pickers have returned. */
  async stop(): Promise<void> {
    this.stopping = true
    for (const w of this.wakeups) w.wake()
    await this.running
  }

  get finished(): Promise<void> {
    return this.running ?? Promise.resolve()
  }

  /** Wake the first picker: `work` when new work may be ready (NOTIFY), false when only a slot freed. */
  wake(work: boolean): void {
    if (work) this.wakePending = true
    this.wakeups[0].wake()
  }

  /** A handler finished: worth a pick once enough slots are free. */
  slotFreed(): void {
    if (this.wakeups[0].sleeping && this.capacity() >= this.minPick) this.wake(false)
  }

  /** After stop(): wait up to `ms` for a running job to finish (the drain). */
  waitForSlot(ms: number): Promise<void> {
    return this.wakeups[0].sleep(ms, { unref: true })
  }

  private capacity(): number {
    return this.p.concurrency - this.executor.size - this.reserved
  }

  private pollDelayMs(): number {
    return this.p.settings.pollIntervalSeconds * 1000 * (0.5 + Math.random())
  }

  private staleSecondsIfDue(): number {
    const timeout = this.p.settings.heartbeatTimeoutSeconds
    const now = Date.now()
    if (now - this.lastStaleCheck < Math.min(5000, (timeout * 1000) / 2)) return 0
    this.lastStaleCheck = now
    return timeout
  }

  private async pick(index: number): Promise<void> {
    const wakeup = this.wakeups[index]
    let failures = 0
    while (!this.stopping) {
      this.turnAt = Date.now()
      if (index > 0 && !this.busy) {
        await wakeup.sleep(1000)
        continue
      }
      const capacity = this.capacity()
      if (capacity < this.minPick) {
        await wakeup.sleep(this.pollDelayMs())
        continue
      }
      const want = Math.min(this.p.batchSize, capacity)
      this.wakePending = false
      this.reserved += want
      let jobs: PickedJob[]
      const t0 = Date.now()
      const done = this.outcomes.takeCompletes()
      try {
        jobs = await pickJobs(this.p.pool, this.p.plan(), want, index === 0 ? this.staleSecondsIfDue() : 0, done)
        failures = 0
        this.p.health.recovered()
        if (done.length && this.p.events.wants('outcomes:written')) {
          this.p.events.emit('outcomes:written', { completed: done.length, retried: 0, held: 0, released: 0, canceled: 0 })
        }
      } catch (err) {
        if (done.length) this.outcomes.returnCompletes(done)
        this.p.health.error('pick', err)
        failures++
        await wakeup.sleep(Math.min(5000, 100 * 2 ** Math.min(failures, 6)))
        continue
      } finally {
        this.reserved -= want
      }
      if (jobs.length) this.dispatch(jobs, Date.now() - t0)
      const full = jobs.length === want
      if (index === 0 && full !== this.busy) {
        this.busy = full
        if (full) this.wakeups[1].wake()
      }
      if (full || this.wakePending) continue
      await wakeup.sleep(this.pollDelayMs())
    }
  }

  private dispatch(jobs: PickedJob[], ms: number): void {
    const events = this.p.events
    if (events.wants('batch:picked')) {
      const byEntrypoint: Record<string, number> = {}
      for (const j of jobs) byEntrypoint[j.entrypoint] = (byEntrypoint[j.entrypoint] ?? 0) + 1
      events.emit('batch:picked', { count: jobs.length, byEntrypoint, ms })
    }
    const perJob = events.wants('job:picked')
    const recovered = events.wants('job:recovered')
    const now = Date.now()
    for (const job of jobs) {
      if (job.recovered && recovered) events.emit('job:recovered', { jobId: job.id, entrypoint: job.entrypoint, attempts: job.attempts })
      const scopes = fanOutScopes(job, this.p.jobs.get(job.entrypoint))
      if (perJob) {
        events.emit('job:picked', {
          jobId: job.id,
          entrypoint: job.entrypoint,
          priority: job.priority,
          attempts: job.attempts,
          waitMs: Math.max(0, now - job.readyAtMs),
          ...(scopes ? { scopes } : {}),
        })
      }
      if (!this.executor.execute(job, scopes)) {
        events.emit('worker:error', { where: 'pick', error: `job ${job.id} is already running in this worker; the second pick was not started (is the heartbeat timeout too short?)` })
      }
    }
  }
}
