/**
 * QueueJob: the declaration every job type makes. A subclass sets the static entrypoint,
 * payload schema, priority, concurrency limit and attempts, and implements `handle`.
 * Declarations are checked when they register (registry.ts), not when a job first runs.
 */
import { z } from 'zod'
import type { Queryable } from '../db/queryable.js'
import type { JobEventName, WorkerEventMap } from '../events.js'
import { type EnqueueOptions, enqueue, enqueueMany } from '../queue/enqueue.js'
import { PayloadError } from '../queue/payload.js'
import type { NumberSettingKey, Settings } from '../settings.js'

export type JobKind = 'on-write' | 'scoped' | 'system'

/**
 * How the stored payload bytes reach `handle`: `json` (the default) parses them as JSON; `bytes`
 * passes them unchanged as a Buffer, or null for a null payload (a PgQueuer producer's raw
 * bytes payloads, for instance). The payload schema then validates that Buffer or null.
 */
export type PayloadFormat = 'json' | 'bytes'

/** The payload schema of a `bytes` job that takes any bytes or none. */
export const bytesPayload = z.custom<Buffer | null>((v) => v === null || Buffer.isBuffer(v), { message: 'expected raw bytes (a Buffer) or null' })

/** What a handler gets besides its payload. */
export interface JobContext {
  jobId: string
  entrypoint: string
  attempts: number
  headers: Record<string, unknown>
  /** Aborted when the worker shuts down or the job's time is up: long handlers should check it. */
  signal: AbortSignal
  /** The worker's pool (the owner login); scoped work goes through the scope module. */
  pool: import('pg').Pool
  /** The worker's settings: the environment with its flags on top, parsed once. */
  settings: Settings
  /** Say what the run decided (a gate's skip, counts): shown on the job's completed event. */
  report?(detail: Record<string, unknown>): void
  /** Raise an event of the worker's stream (its JSON lines, an embedding application's listeners). */
  emit?<K extends JobEventName>(name: K, payload: WorkerEventMap[K]): void
  /**
   * `pool` with `seconds` (0: none) as the round-trip deadline of the statements run through it
   * instead of AIZK_DB_DEADLINE_SECONDS: for a statement that may rightly run long (withStatementDeadline).
   */
  poolWithDeadline?(seconds: number): import('pg').Pool
}

/**
 * How long one statement of a job's handler may wait for its reply before its connection is
 * destroyed and the job fails as a lost connection (retried): seconds (0: no deadline), or
 * 'job-timeout' for AIZK_JOB_TIMEOUT_SECONDS. Undefined: AIZK_DB_DEADLINE_SECONDS.
 */
export type StatementDeadline = number | 'job-timeout'

export interface JobClass {
  readonly entrypoint: string
  readonly payload: z.ZodTypeAny
  readonly priority: number
  readonly concurrencyLimit: number
  readonly concurrencySetting?: NumberSettingKey
  readonly maxAttempts: number
  readonly payloadFormat: PayloadFormat
  readonly statementDeadlineSeconds?: StatementDeadline
  readonly kind: JobKind
  readonly name: string
  new (): QueueJob<unknown>
}

export abstract class QueueJob<P = unknown> {
  /** The name stored in the database: a contract, pinned by tests. */
  declare static entrypoint: string
  declare static payload: z.ZodTypeAny
  static priority = 0
  /** 0 = unbounded; otherwise a global limit across every worker. */
  static concurrencyLimit = 0
  /** A setting whose value is the limit instead (a number setting's key, e.g. 'doclingConcurrency'). */
  static concurrencySetting?: NumberSettingKey
  static maxAttempts = 5
  static payloadFormat: PayloadFormat = 'json'
  /**
   * The handler's statements run long (a rebuild over every row): the round-trip deadline of each
   * (StatementDeadline). Unset: AIZK_DB_DEADLINE_SECONDS, as for the queue's own round trips.
   */
  static statementDeadlineSeconds?: StatementDeadline
  static kind: JobKind = 'on-write'

  abstract handle(payload: P, context: JobContext): Promise<void>

  /** Validate and enqueue one job of this type in the caller's transaction; false if its key is live. */
  static async enqueue<T extends JobClass>(this: T, db: Queryable, payload: z.input<T['payload']>, opts: EnqueueOptions = {}) {
    return enqueue(db, { entrypoint: this.entrypoint, priority: this.priority, ...opts, payload: validatePayload(this, payload) })
  }

  /** Validate every payload first, then enqueue all in one statement; false per live key. */
  static async enqueueMany<T extends JobClass>(this: T, db: Queryable, items: { payload: z.input<T['payload']>; options?: EnqueueOptions }[]) {
    const rows = items.map((item) => ({
      entrypoint: this.entrypoint,
      priority: this.priority,
      ...item.options,
      payload: validatePayload(this, item.payload),
    }))
    return enqueueMany(db, rows)
  }
}

export function validatePayload(job: Pick<JobClass, 'payload' | 'entrypoint'>, payload: unknown): unknown {
  const result = job.payload.safeParse(payload)
  if (!result.success) throw PayloadError.fromZod(job.entrypoint, result.error)
  return result.data
}

/** A job's concurrency limit under these settings: its setting's value when it names one. */
export function concurrencyLimitOf(
  job: Pick<JobClass, 'concurrencyLimit' | 'concurrencySetting'>,
  settings: Partial<Pick<Settings, NumberSettingKey>>,
): number {
  const value = job.concurrencySetting === undefined ? undefined : settings[job.concurrencySetting]
  return typeof value === 'number' ? value : job.concurrencyLimit
}
