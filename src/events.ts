/**
 * The worker's typed events. The core emits them; the ink view, the JSON log lines and the
 * Prometheus metrics are three listeners of the same stream. Job ids are bigint strings.
 */
import { EventEmitter } from 'node:events'

export interface WorkerEventMap {
  'worker:started': { queueManagerId: string; entrypoints: string[]; batchSize: number; concurrency: number; localQueueSize: number; pid: number; host: string }
  /** Start-up: PostgreSQL refused or is still starting; the worker tries again (AIZK_WORKER_STARTUP_WAIT_SECONDS). */
  'worker:waiting': { error: string; attempt: number; retryInMs: number; waitedMs: number; giveUpAfterMs: number }
  'worker:stopping': { reason: string; inFlight: number }
  'worker:stopped': { released: number; completedInTime: number; unwritten?: number }
  'worker:error': { where: string; error: string }
  /** A write of job outcomes committed (a flush, or completions a pick carried): tests wait on it. */
  'outcomes:written': { completed: number; retried: number; held: number; released: number; canceled: number }
  /** The worker vacuumed the queue table: `changedRows` rows had been updated or deleted since the last VACUUM. */
  'queue:vacuumed': { changedRows: number; ms: number }
  /** `readOnly`: the server answers but refuses writes (a standby, a primary turned read-only). */
  'db:lost': { error: string; readOnly?: boolean }
  'db:reconnected': { downMs: number }
  /** One event per picked batch, so listeners aggregate cheaply at thousands of jobs/s. */
  'batch:picked': { count: number; byEntrypoint: Record<string, number>; ms: number }
  'job:picked': { jobId: string; entrypoint: string; priority: number; attempts: number; scopes?: string[]; waitMs: number }
  'job:completed': { jobId: string; entrypoint: string; durationMs: number; scopes?: string[]; detail?: Record<string, unknown> }
  'job:retried': { jobId: string; entrypoint: string; attempts: number; error: string; retryInMs: number; durationMs: number; scopes?: string[] }
  'job:held': { jobId: string; entrypoint: string; attempts: number; error: string; scopes?: string[]; durationMs: number }
  'job:released': { jobId: string; entrypoint: string; scopes?: string[] }
  'job:recovered': { jobId: string; entrypoint: string; attempts: number }
  /** An operator asked to cancel a job this worker runs: its handler's signal was aborted. */
  'job:cancel-requested': { jobId: string; entrypoint: string }
  /** A `cancellation_event` named jobs this worker runs that no authorized role canceled: ignored. */
  'job:cancel-unverified': { jobIds: string[] }
  /** A canceled job left the queue (`canceled` log row); `ran` is false when it was canceled before its handler started. */
  'job:canceled': { jobId: string; entrypoint: string; durationMs: number; ran: boolean }
  /** One of this worker's entrypoints was paused (also reported on start for those paused then). */
  'entrypoint:paused': { entrypoint: string; pausedAt: string; pausedBy: string | null; reason: string | null }
  'entrypoint:resumed': { entrypoint: string }
  'schedule:fired': { name: string; cronEntrypoint: string; scheduledFor: string; enqueued: number; alreadyQueued: number }
  'schedule:next': { name: string; cronEntrypoint: string; nextRun: string }
  /** An artifact's original failed re-verification (ArtifactIntegrityJob). */
  'artifact:integrity': { status: string; artifactId: string; contentId: string; scopes: string[]; storage: string }
  /** A backup was written and checked with pg_restore --list (BackupJob). */
  'backup:written': { file: string; bytes: number; entries: number; removed: string[] }
}

export type WorkerEventName = keyof WorkerEventMap

/** The events a job's handler may raise (JobContext.emit); the others are the worker's own. */
export type JobEventName = 'artifact:integrity' | 'backup:written'

export type AnyListener = <K extends WorkerEventName>(name: K, payload: WorkerEventMap[K]) => void

/**
 * A listener that throws never reaches the emitter: not the loop, not a job's outcome, not the
 * other listeners. Its error is reported once as 'worker:error' (where 'listener:<event>'),
 * unless it was a 'worker:error' listener itself, which would only loop.
 */
export class WorkerEvents {
  private readonly emitter = new EventEmitter()
  private readonly anyListeners = new Set<AnyListener>()
  private errorRoute: ((where: string, err: unknown) => void) | undefined

  constructor() {
    this.emitter.setMaxListeners(50)
  }

  emit<K extends WorkerEventName>(name: K, payload: WorkerEventMap[K]): void {
    for (const listener of this.anyListeners) this.guard(name, () => listener(name, payload))
    this.emitter.emit(name, payload)
  }

  on<K extends WorkerEventName>(name: K, listener: (payload: WorkerEventMap[K]) => void): () => void {
    const guarded = (payload: WorkerEventMap[K]) => this.guard(name, () => listener(payload))
    this.emitter.on(name, guarded)
    return () => this.emitter.off(name, guarded)
  }

  /** Every event, for loggers: (name, payload). */
  onAny(listener: AnyListener): () => void {
    this.anyListeners.add(listener)
    return () => this.anyListeners.delete(listener)
  }

  private guard(name: WorkerEventName, call: () => void): void {
    try {
      call()
    } catch (err) {
      if (name !== 'worker:error') this.emit('worker:error', { where: `listener:${name}`, error: err instanceof Error ? err.message : String(err) })
    }
  }

  /**
   * A background task's failure (a periodic pass, a scheduler tick): a 'worker:error', unless a
   * running worker routed these through its database health (routeErrors), where a connection
   * fault while the server restarts is the outage's 'db:lost', not an error (src/worker/db-health.ts).
   */
  reportError(where: string, err: unknown): void {
    if (this.errorRoute) this.errorRoute(where, err)
    else this.emit('worker:error', { where, error: err instanceof Error ? err.message : String(err) })
  }

  /** Where reportError sends failures from now on (the worker's database health). */
  routeErrors(route: (where: string, err: unknown) => void): void {
    this.errorRoute = route
  }

  /** Whether anybody listens, so the hot path can skip building a payload. */
  wants(name: WorkerEventName): boolean {
    return this.anyListeners.size > 0 || this.emitter.listenerCount(name) > 0
  }
}
