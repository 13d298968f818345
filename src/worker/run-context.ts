/** A running job as the executor tracks it, and the context its handler sees. */
import type pg from 'pg'
import { withStatementDeadline } from '../db/statement-deadline.js'
import type { JobEventName, WorkerEventMap, WorkerEvents } from '../events.js'
import type { JobContext } from '../jobs/queue-job.js'
import type { PickedJob } from '../queue/pick.js'
import type { Settings } from '../settings.js'

export interface Running {
  job: PickedJob
  startedAt: number
  deadline: number
  settled: boolean
  controller: AbortController | undefined
  /** An operator asked to cancel: however the handler ends, the job is logged `canceled`. */
  cancelRequested?: boolean
  /** A fan-out job's scope set, named on each of its events. */
  scopes: string[] | undefined
  detail?: Record<string, unknown>
}

export class RunContext implements JobContext {
  constructor(
    private readonly run: Running,
    readonly pool: pg.Pool,
    readonly settings: Settings,
    private readonly events: WorkerEvents,
  ) {}
  get jobId() {
    return this.run.job.id
  }
  get entrypoint() {
    return this.run.job.entrypoint
  }
  get attempts() {
    return this.run.job.attempts
  }
  get headers() {
    return this.run.job.headers ?? {}
  }
  report(detail: Record<string, unknown>): void {
    this.run.detail = { ...this.run.detail, ...detail }
  }
  emit<K extends JobEventName>(name: K, payload: WorkerEventMap[K]): void {
    this.events.emit(name, payload)
  }
  poolWithDeadline(seconds: number): pg.Pool {
    return withStatementDeadline(this.pool, seconds)
  }
  /** Created on first use: most handlers never look. */
  get signal(): AbortSignal {
    this.run.controller ??= new AbortController()
    return this.run.controller.signal
  }
}
