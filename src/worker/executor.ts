/**
 * Runs picked jobs. Every job that starts ends in exactly one of completed, retried, held or
 * released: `settle` is the single exit, guarded so it runs once, and reached from the
 * handler's resolve, its reject, a synchronous throw, the job timeout, or shutdown. A handler
 * that never settles is timed out by a sweep (one timer for all jobs, not one per job), its
 * signal aborted and its slot freed; whatever it does later is ignored.
 */
import type pg from 'pg'
import { withStatementDeadline } from '../db/statement-deadline.js'
import type { WorkerEventMap, WorkerEventName, WorkerEvents } from '../events.js'
import type { JobClass, QueueJob } from '../jobs/queue-job.js'
import { isPermanentError } from '../permanent-error.js'
import { retryDelayMs } from '../queue/backoff.js'
import { cancelRequested } from '../queue/cancel-request.js'
import { decodePayload, PayloadError } from '../queue/payload.js'
import type { PickedJob } from '../queue/pick.js'
import type { Settings } from '../settings.js'
import { traceSettlements } from '../tracing/job-spans.js'
import { errorInfo, tracebackRecord } from './failure-record.js'
import { JobCanceledError, JobTimeoutError, WorkerDiedError } from './job-errors.js'
import type { OutcomeBuffer } from './outcomes.js'
import { RunContext, type Running } from './run-context.js'

export { JobCanceledError, JobTimeoutError, WorkerDiedError } from './job-errors.js'

export interface ExecutorOptions {
  pool: pg.Pool
  events: WorkerEvents
  outcomes: OutcomeBuffer
  settings: Settings
  jobs: Map<string, JobClass>
  /** Called whenever a job leaves the running set (a slot is free), with how long it ran. */
  onSlotFree: (ranMs: number) => void
}

export class Executor {
  private readonly running = new Map<string, Running>()
  private readonly handlers = new Map<string, QueueJob<unknown>>()
  private readonly timeoutMs: number
  private sweeper: NodeJS.Timeout | undefined
  private finished = 0
  /** Ends the jobs' process spans; undefined without an OpenTelemetry SDK. */
  private readonly untrace: (() => void) | undefined

  constructor(private readonly o: ExecutorOptions) {
    const seconds = o.settings.jobTimeoutSeconds
    this.timeoutMs = seconds > 0 ? seconds * 1000 : Number.POSITIVE_INFINITY
    for (const [entrypoint, cls] of o.jobs) this.handlers.set(entrypoint, new cls())
    this.untrace = traceSettlements(o.events)
    if (Number.isFinite(this.timeoutMs)) {
      this.sweeper = setInterval(() => this.sweep(), Math.max(50, Math.min(1000, this.timeoutMs / 4)))
    }
  }

  get size(): number {
    return this.running.size
  }

  /** A statement deadline of 'job-timeout': the job timeout, 0 (none) without one. */
  private get jobTimeoutSeconds(): number {
    return Number.isFinite(this.timeoutMs) ? this.timeoutMs / 1000 : 0
  }

  isRunning(id: string): boolean {
    return this.running.has(id)
  }

  /** Ids of the jobs running now, or of those whose pick came back before `pickedBefore` (the heartbeat's lists). */
  runningIds(pickedBefore = Number.POSITIVE_INFINITY): string[] {
    const ids: string[] = []
    for (const [id, run] of this.running) if ((run.job.pickedAtMs ?? 0) < pickedBefore) ids.push(id)
    return ids
  }

  /** Jobs that ended since the worker started (any outcome but release). */
  get finishedCount(): number {
    return this.finished
  }

  /**
   * Start a picked job, unless this worker is already running it (a pick that found our own row
   * stale): the running handler goes on and settles that id once; the duplicate never starts.
   * Returns whether it started.
   */
  execute(job: PickedJob, scopes?: string[]): boolean {
    if (this.running.has(job.id)) return false
    const now = Date.now()
    const run: Running = { job, startedAt: now, deadline: now + this.timeoutMs, settled: false, controller: undefined, scopes }
    this.running.set(job.id, run)
    const cls = this.o.jobs.get(job.entrypoint)
    const handler = this.handlers.get(job.entrypoint)
    if (cancelRequested(job.headers)) {
      // Re-picked from a dead worker after an operator asked to cancel it: never run it.
      run.cancelRequested = true
      this.settle(run, undefined, false)
      return true
    }
    let promise: Promise<void>
    try {
      if (!cls || !handler) throw new Error(`no handler for entrypoint ${job.entrypoint} in this worker`)
      if (job.recovered && job.attempts >= cls.maxAttempts) {
        throw new WorkerDiedError(`the worker running this job stopped heartbeating ${job.attempts} times (killed or out of memory?)`)
      }
      const raw = cls.payloadFormat === 'bytes' ? job.payload : decodePayload(job.entrypoint, job.payload)
      const parsed = cls.payload.safeParse(raw)
      if (!parsed.success) throw PayloadError.fromZod(job.entrypoint, parsed.error)
      const deadline = cls.statementDeadlineSeconds
      const pool = deadline === undefined ? this.o.pool : withStatementDeadline(this.o.pool, deadline === 'job-timeout' ? this.jobTimeoutSeconds : deadline)
      promise = handler.handle(parsed.data, new RunContext(run, pool, this.o.settings, this.o.events))
    } catch (err) {
      this.settle(run, err)
      return true
    }
    if (promise && typeof promise.then === 'function') {
      promise.then(
        () => this.settle(run, undefined),
        (err) => this.settle(run, err ?? new Error('handler rejected without a reason')),
      )
    } else {
      this.settle(run, undefined)
    }
    return true
  }

  /** Abort the handlers of these jobs (those running here); returns how many were. */
  requestCancel(ids: readonly string[]): number {
    let n = 0
    for (const id of ids) {
      const run = this.running.get(id)
      if (!run || run.settled || run.cancelRequested) continue
      run.cancelRequested = true
      run.controller ??= new AbortController()
      run.controller.abort(new JobCanceledError('an operator canceled this job'))
      this.emit('job:cancel-requested', { jobId: id, entrypoint: run.job.entrypoint })
      n++
    }
    return n
  }

  private settle(run: Running, err: unknown, ran = true): void {
    if (run.settled) return
    run.settled = true
    this.running.delete(run.job.id)
    this.finished++
    try {
      if (run.cancelRequested) this.cancel(run, ran)
      else if (err === undefined) this.complete(run)
      else this.fail(run, err)
    } finally {
      this.o.onSlotFree(Date.now() - run.startedAt)
    }
  }

  private complete(run: Running): void {
    this.o.outcomes.complete(run.job.id)
    if (this.o.events.wants('job:completed')) {
      this.emit('job:completed', {
        jobId: run.job.id,
        entrypoint: run.job.entrypoint,
        durationMs: Date.now() - run.startedAt,
        ...(run.scopes ? { scopes: run.scopes } : {}),
        ...(run.detail ? { detail: run.detail } : {}),
      })
    }
  }

  private cancel(run: Running, ran: boolean): void {
    this.o.outcomes.cancel(run.job.id)
    this.emit('job:canceled', { jobId: run.job.id, entrypoint: run.job.entrypoint, durationMs: Date.now() - run.startedAt, ran })
  }

  private fail(run: Running, err: unknown): void {
    const { job } = run
    const cls = this.o.jobs.get(job.entrypoint)
    const maxAttempts = cls?.maxAttempts ?? 1
    const died = err instanceof WorkerDiedError
    const attempt = died ? job.attempts : job.attempts + 1
    const lastError = errorInfo(err, attempt)
    const durationMs = Date.now() - run.startedAt
    const final = died || err instanceof PayloadError || isPermanentError(err) || !cls || attempt >= maxAttempts
    if (!final) {
      const delayMs = retryDelayMs(attempt, this.o.settings)
      this.o.outcomes.retry({ id: job.id, delayMs, error: lastError }, (written) =>
        this.emit('job:retried', {
          jobId: job.id,
          entrypoint: job.entrypoint,
          attempts: attempt,
          error: written.error.message,
          retryInMs: delayMs,
          durationMs,
          scopes: run.scopes,
        }),
      )
      return
    }
    const record = tracebackRecord(job, err, lastError, maxAttempts, died)
    // Announced once written: a hold the database refused as given is written in a fallback form.
    this.o.outcomes.hold({ id: job.id, attemptsBump: died ? 0 : 1, error: lastError, record }, (written) =>
      this.emit('job:held', { jobId: job.id, entrypoint: job.entrypoint, attempts: attempt, error: written.error.message, durationMs, scopes: run.scopes }),
    )
  }

  private sweep(): void {
    const now = Date.now()
    for (const run of this.running.values()) {
      if (run.deadline > now) continue
      run.controller?.abort(new JobTimeoutError('job timed out'))
      this.settle(run, new JobTimeoutError(`handler did not finish within ${this.timeoutMs / 1000} s (AIZK_JOB_TIMEOUT_SECONDS)`))
    }
  }

  /** Shutdown: every job still running goes back to `queued` without counting an attempt. */
  releaseAll(): number {
    let n = 0
    for (const run of [...this.running.values()]) {
      if (run.settled) continue
      if (run.cancelRequested) {
        this.settle(run, undefined)
        continue
      }
      run.settled = true
      this.running.delete(run.job.id)
      run.controller?.abort(new Error('worker shutting down'))
      this.o.outcomes.release(run.job.id)
      this.emit('job:released', { jobId: run.job.id, entrypoint: run.job.entrypoint, scopes: run.scopes })
      n++
    }
    return n
  }

  /**
   * Jobs picked that never started (they waited in the local queue): a canceled one is logged
   * `canceled` without running, the others go back to `queued` without counting an attempt, as
   * a running job released at shutdown does.
   */
  releaseWaiting(jobs: readonly PickedJob[], canceled = false): void {
    for (const job of jobs) {
      if (canceled) {
        this.o.outcomes.cancel(job.id)
        this.emit('job:canceled', { jobId: job.id, entrypoint: job.entrypoint, durationMs: 0, ran: false })
      } else {
        this.o.outcomes.release(job.id)
        this.emit('job:released', { jobId: job.id, entrypoint: job.entrypoint })
      }
    }
  }

  close(): void {
    this.untrace?.()
    if (this.sweeper) clearInterval(this.sweeper)
    this.sweeper = undefined
  }

  /** Listener errors are the emitter's to contain (events.ts): they never change an outcome. */
  private emit<K extends WorkerEventName>(name: K, payload: WorkerEventMap[K]): void {
    this.o.events.emit(name, payload)
  }
}
