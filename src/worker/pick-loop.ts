/**
 * The pick loop: pick a batch (one round trip) into the local queue, start handlers from it up
 * to the concurrency, pick again while batches come back full, else sleep until a NOTIFY, a
 * freed slot or a jittered poll. What a round trip picks (the batch size) is decoupled from what
 * runs at once (the concurrency): the local queue holds the difference, bounded (see
 * `localQueueLimit`), and picking stops while it is full. While picks come back full, each asks
 * for twice the last, up to `pickCeiling` (a busy queue pays fewer round trips per job); a short
 * pick goes back to the batch size (docs/job-lifecycle.md#the-size-of-a-pick). With
 * AIZK_QUEUE_PICKS_IN_FLIGHT=2 a second picker sends its pick while the first waits on its round
 * trip, only while batches come back full (SKIP LOCKED keeps their picks disjoint): a lone worker
 * drains faster, at a higher CPU cost per job on the server (docs/job-lifecycle.md#picks-in-flight).
 * Completions are not carried by picks: they are written beside them (outcomes.ts).
 */
import type pg from 'pg'
import type { WorkerEvents } from '../events.js'
import type { JobClass } from '../jobs/queue-job.js'
import { type PickedJob, type PickPlan, pickJobs } from '../queue/pick.js'
import { pickCeiling, type Settings } from '../settings.js'
import { runTraced, traceReceived } from '../tracing/job-spans.js'
import type { DatabaseHealth } from './db-health.js'
import type { Executor } from './executor.js'
import { fanOutScopes } from './fan-out-scopes.js'
import { LocalQueue } from './local-queue.js'
import type { OutcomeBuffer } from './outcomes.js'
import { PickOrder } from './pick-order.js'
import { announceBatch, jobAnnouncer } from './picked-events.js'
import { Wakeup } from './wakeup.js'

/**
 * The local queue holds at most about this much work: jobs that the handlers, at the pace
 * they have shown, start within a second. Quick jobs fill it to its size; jobs of seconds or
 * minutes leave it empty, so a worker never sits on long jobs another worker could run.
 */
export const LOCAL_QUEUE_HORIZON_MS = 1000

export interface PickLoopParts {
  pool: pg.Pool
  settings: Pick<Settings, 'pollIntervalSeconds' | 'heartbeatTimeoutSeconds' | 'queuePicksInFlight'>
  events: WorkerEvents
  health: DatabaseHealth
  jobs: ReadonlyMap<string, JobClass>
  /** The current plan (it changes when an entrypoint is paused or resumed). */
  plan: () => PickPlan
  batchSize: number
  concurrency: number
  /** Picked jobs that may wait for a handler slot at most (0: none, the pick tied to free slots). */
  localQueueSize: number
}

export class PickLoop {
  /** Date.now() of the last turn, 0 before the first (health's /livez). */
  turnAt = 0
  /** Date.now() when the first of the picks failing in a row was sent; 0 while picks succeed. */
  private failingSince = 0
  /** The last batch came back full: a second picker (if any) runs, and completions gather longer (outcomes.ts). */
  busy = false
  private stopping = false
  private wakePending = false
  /** By picker: it sleeps because the worker held all it may, so a freed slot is worth a pick. */
  private readonly capacityBound = [false, false]
  /** Slots promised to picks still in flight, so the two pickers never overshoot. */
  private reserved = 0
  private lastStaleCheck = 0
  /** What the next pick asks for: the batch size, doubled after each full pick up to the ceiling. */
  private pickSize: number
  /** Mean handler run time (ms, moving average), for the local queue's limit. */
  private meanRunMs = 0
  private readonly waiting = new LocalQueue()
  private readonly order = new PickOrder()
  private readonly wakeups = [new Wakeup(), new Wakeup()]
  private running: Promise<void> | undefined

  constructor(
    private readonly p: PickLoopParts,
    private readonly executor: Executor,
    private readonly outcomes: OutcomeBuffer,
  ) {
    this.pickSize = p.batchSize
  }

  start(): void {
    const pickers = Math.min(this.wakeups.length, Math.max(1, this.p.settings.queuePicksInFlight))
    this.running = Promise.all(this.wakeups.slice(0, pickers).map((_, i) => this.pick(i))).then(() => {})
  }

  /** Stop picking; resolves once every picker has returned. Jobs still waiting stay for `takeWaiting`. */
  async stop(): Promise<void> {
    this.stopping = true
    for (const w of this.wakeups) w.wake()
    await this.running
  }

  get finished(): Promise<void> {
    return this.running ?? Promise.resolve()
  }

  /** Jobs picked and waiting for a handler slot. */
  get waitingCount(): number {
    return this.waiting.size
  }

  /** Ids of the jobs waiting for a handler slot, or of those picked before `pickedBefore` (the heartbeat's lists). */
  waitingIds(pickedBefore?: number): string[] {
    return this.waiting.ids(pickedBefore)
  }

  /**
   * How long the loop has gone without completing a pick it tried (health's /livez): the age of
   * the oldest pick on its way, or of the first of the picks that failed in a row since the last
   * one that came back. 0 while picks come back, and while the loop has nothing to pick for.
   */
  get pickStalledMs(): number {
    if (this.stopping) return 0
    const since = Math.min(this.failingSince || Number.POSITIVE_INFINITY, this.order.oldestSentAt())
    return since === Number.POSITIVE_INFINITY ? 0 : Date.now() - since
  }

  /** Wake the first picker: `work` when new work may be ready (NOTIFY), false when only a slot freed. */
  wake(work: boolean): void {
    if (work) this.wakePending = true
    this.wakeups[0].wake()
  }

  /** A handler finished after `ranMs`: start the next waiting job, and pick once enough room is free. */
  slotFreed(ranMs: number): void {
    this.meanRunMs += (ranMs - this.meanRunMs) / 16
    this.startWaiting()
    for (let i = 0; i < this.wakeups.length; i++) {
      if (this.capacityBound[i] && this.wakeups[i].sleeping && this.capacity() >= this.minPick()) this.wakeups[i].wake()
    }
  }

  /** After stop(): wait up to `ms` for a running job to finish (the drain). */
  waitForSlot(ms: number): Promise<void> {
    return this.wakeups[0].sleep(ms, { unref: true })
  }

  /** Take the waiting jobs that match out of the local queue (a cancel, a pause, shutdown). */
  takeWaiting(match: (job: PickedJob) => boolean = () => true): PickedJob[] {
    return this.waiting.removeWhere(match)
  }

  /** What the local queue may hold now: its size, cut to about LOCAL_QUEUE_HORIZON_MS of work. */
  localQueueLimit(): number {
    const size = this.p.localQueueSize
    if (this.meanRunMs <= 0) return size
    return Math.min(size, Math.floor((this.p.concurrency * LOCAL_QUEUE_HORIZON_MS) / this.meanRunMs))
  }

  /**
   * The smallest pick worth a round trip. With a local queue, a whole batch: the queue keeps
   * up to a batch in reserve while the next one is picked. While picks come back full, a whole
   * pick of the current size, so the two pickers take turns with whole picks instead of
   * splitting the room into slivers. Without a local queue, half the free slots.
   */
  private minPick(): number {
    const { batchSize, concurrency } = this.p
    const limit = this.localQueueLimit()
    if (limit === 0) return Math.max(1, Math.floor(Math.min(batchSize, concurrency) / 2))
    return Math.max(1, Math.min(this.busy ? this.pickSize : batchSize, Math.floor((concurrency + limit) / 2)))
  }

  /** The largest pick: without a local queue, picks are tied to free slots and never grow past a batch. */
  private largestPick(): number {
    return this.p.localQueueSize > 0 ? pickCeiling(this.p.batchSize) : this.p.batchSize
  }

  private capacity(): number {
    return this.p.concurrency + this.localQueueLimit() - this.executor.size - this.waiting.size - this.reserved
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

  /** A picker's sleep; none once stopping, so a pick that comes back after stop() ends its loop at once. */
  private nap(wakeup: Wakeup, ms: number): Promise<void> {
    return this.stopping ? Promise.resolve() : wakeup.sleep(ms)
  }

  private async pick(index: number): Promise<void> {
    const wakeup = this.wakeups[index]
    let failures = 0
    while (!this.stopping) {
      this.turnAt = Date.now()
      if (index > 0 && !this.busy) {
        await this.nap(wakeup, 1000)
        continue
      }
      const capacity = this.capacity()
      if (capacity < this.minPick()) {
        this.capacityBound[index] = true
        await this.nap(wakeup, this.pollDelayMs())
        continue
      }
      if (index > 0) this.capacityBound[index] = false
      const asked = this.pickSize
      const want = Math.min(asked, capacity)
      this.wakePending = false
      this.reserved += want
      let jobs: PickedJob[]
      const t0 = Date.now()
      const seq = this.order.send(t0)
      try {
        jobs = await pickJobs(this.p.pool, this.p.plan(), want, index === 0 ? this.staleSecondsIfDue() : 0)
        traceReceived(jobs, t0, Date.now())
        failures = 0
        this.failingSince = 0
        this.p.health.recovered()
      } catch (err) {
        this.deliver(seq, [], 0)
        this.p.health.error('pick', err)
        if (!this.failingSince) this.failingSince = t0
        failures++
        await this.nap(wakeup, Math.min(5000, 100 * 2 ** Math.min(failures, 6)))
        continue
      } finally {
        this.reserved -= want
        this.order.settled(seq)
      }
      this.deliver(seq, jobs, Date.now() - t0)
      const full = jobs.length === want
      if (!full) this.pickSize = this.p.batchSize
      else if (want === asked) this.pickSize = Math.min(this.largestPick(), Math.max(this.pickSize, asked * 2))
      if (index === 0) {
        // A short pick emptied the ready rows: until a NOTIFY or the poll, a freed slot is no news.
        this.capacityBound[0] = full && want < asked
        if (full !== this.busy) {
          this.busy = full
          if (full) this.wakeups[1].wake()
        }
      }
      if (full || this.wakePending) continue
      await this.nap(wakeup, this.pollDelayMs())
    }
  }

  /** A pick came back: its jobs join the local queue at once (merged by priority), to start in pick order (pick-order.ts). */
  private deliver(seq: number, jobs: PickedJob[], ms: number): void {
    this.order.back(seq)
    if (jobs.length) this.dispatch(jobs, ms)
    this.startWaiting()
  }

  private dispatch(jobs: PickedJob[], ms: number): void {
    const events = this.p.events
    announceBatch(events, jobs, ms)
    const announce = jobAnnouncer(events, this.p.jobs, Date.now())
    const fresh: PickedJob[] = []
    for (const job of jobs) {
      announce?.(job)
      // A pick that found our own row stale (the heartbeat failed long enough): the copy we hold
      // goes on, or the outcome we still have to write for it stands.
      if (job.recovered && (this.executor.isRunning(job.id) || this.waiting.has(job.id) || this.outcomes.has(job.id))) {
        events.emit('worker:error', {
          where: 'pick',
          error: `job ${job.id} is already running in this worker; the second pick was not started (is the heartbeat timeout too short?)`,
        })
        continue
      }
      this.order.holdBack(job)
      fresh.push(job)
    }
    this.waiting.push(fresh)
  }

  /** Start waiting jobs, in pick order, while a handler slot is free and the next one's rivals are back. */
  private startWaiting(): void {
    while (this.executor.size < this.p.concurrency) {
      const next = this.waiting.peek()
      if (!next || !this.order.mayStart(next)) return
      const job = this.waiting.take()!
      // The job's process span is active while it starts, so its handler's spans nest under it.
      if (!runTraced(job, () => this.executor.execute(job, fanOutScopes(job, this.p.jobs.get(job.entrypoint))))) {
        this.p.events.emit('worker:error', {
          where: 'pick',
          error: `job ${job.id} is already running in this worker; the second pick was not started (is the heartbeat timeout too short?)`,
        })
      }
    }
  }
}
