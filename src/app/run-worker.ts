/**
 * `run_worker()` of the spec: load the job modules, open the database (installing the schema on
 * the embedded default), bind every registered job with a handler and start the loop with its
 * services. The command (src/commands/worker.ts) adds flags, output and signals around it.
 */
import { connectionLimits } from '../db/connect.js'
import type { Database } from '../db/database.js'
import { WorkerEvents } from '../events.js'
import { type JobRegistry, jobRegistry } from '../jobs/registry.js'
import { Scheduler } from '../scheduler/scheduler.js'
import type { Settings } from '../settings.js'
import { countMaintenanceService } from '../worker/count-maintenance.js'
import { healthServices } from '../worker/health-services.js'
import { openDatabaseWhenReady } from '../worker/startup-wait.js'
import { Worker } from '../worker/worker.js'
import type { WorkerService } from '../worker/worker-options.js'
import { loadJobModules } from './load-job-modules.js'

/** Connections of the queue's own pool: up to two pickers, two outcome writes, heartbeat, pauses, health, scheduler, counts. */
const QUEUE_POOL_SIZE = 10
/** How long a stopping worker's pools wait for goodbyes before destroying what is left. */
export const POOL_GOODBYE_MS = 1000

export interface WorkerRunOptions {
  settings: Settings
  registry?: JobRegistry
  events?: WorkerEvents
  /** Only these entrypoints; default settings.workerEntrypoints, else every registered job. */
  entrypoints?: string[]
  log?: (line: string) => void
  /** Extra services to start with the worker (tests, embedding applications). */
  services?: WorkerService[]
}

export interface ServiceContext {
  worker: Worker
  db: Database
  settings: Settings
  events: WorkerEvents
  registry: JobRegistry
  log?: (line: string) => void
}

/**
 * The worker's built-in services, started in this order and stopped in reverse: the health
 * port (when workerHealthPort is set) answers through the whole drain, the count maintenance
 * keeps the live-count tables small and removes dead workers' rows, and the cron scheduler (unless
 * workerNoScheduler), firing only the schedules of the entrypoints the worker runs, stops first so
 * no tick fires into a draining worker.
 */
export async function buildServices(ctx: ServiceContext): Promise<WorkerService[]> {
  const services: WorkerService[] = [
    ...(await healthServices({ probe: ctx.worker, pool: ctx.db.pool, settings: ctx.settings, events: ctx.events, log: ctx.log })),
    countMaintenanceService(ctx.db.pool, ctx.events, ctx.settings.heartbeatTimeoutSeconds),
  ]
  if (!ctx.settings.workerNoScheduler) {
    // Only the schedules of the entrypoints this worker runs: a tick it fired for another would wait for a worker that may not exist.
    services.push(new Scheduler({ pool: ctx.db.pool, registry: ctx.registry, settings: ctx.settings, events: ctx.events, entrypoints: ctx.worker.entrypoints }))
  }
  return services
}

export interface RunningWorker {
  worker: Worker
  db: Database
  events: WorkerEvents
  /** Drain and close the database; resolves when everything is stopped. */
  stop(timeoutMs?: number, reason?: string): Promise<void>
}

/** The handlers' pool when AIZK_WORKER_JOB_POOL_SIZE is unset: a few connections more as concurrency grows. */
function defaultJobPoolSize(concurrency: number): number {
  return Math.min(64, 8 + Math.ceil(concurrency / 16))
}

export async function startWorker(opts: WorkerRunOptions): Promise<RunningWorker> {
  const { settings } = opts
  await loadJobModules(settings.workerJobModules)
  const events = opts.events ?? new WorkerEvents()
  const concurrency = settings.queueConcurrentTasks
  // The queue's round trips (picks, outcomes, heartbeat, health, scheduler) run on a small pool,
  // handlers' SQL on a pool of its own; both under the round-trip deadline and keepalive, so a
  // stalled handler statement fails its job at the deadline instead of holding its slot (a
  // handler that runs long statements says so: QueueJob.statementDeadlineSeconds).
  const db = await openDatabaseWhenReady(settings, events, { applicationName: 'aizk-worker', poolSize: QUEUE_POOL_SIZE, log: opts.log })
  let worker: Worker
  try {
    const entrypoints = opts.entrypoints ?? settings.workerEntrypoints
    const registry = opts.registry ?? jobRegistry
    const workPool = db.addPool({
      applicationName: 'aizk-worker-jobs',
      max: settings.workerJobPoolSize ?? defaultJobPoolSize(concurrency),
      deadlineMs: connectionLimits(settings).deadlineMs,
    })
    worker = new Worker({
      pool: db.pool,
      workPool,
      registry,
      settings,
      events,
      entrypoints: entrypoints.length ? entrypoints : undefined,
      batchSize: settings.queueBatchSize,
      concurrency,
      localQueueSize: settings.queueLocalSize,
    })
    for (const service of [...(await buildServices({ worker, db, settings, events, registry, log: opts.log })), ...(opts.services ?? [])]) worker.use(service)
    await worker.start()
  } catch (err) {
    await db.close().catch(() => {})
    throw err
  }
  let stopping: Promise<void> | undefined
  return {
    worker,
    db,
    events,
    stop(timeoutMs = settings.shutdownTimeoutSeconds * 1000, reason = 'stop requested') {
      // The extraction threads outlive the drain: in-flight projections still use them. The
      // pools get a second for goodbyes: a connection silent past that is destroyed. The thread
      // pool's module is imported here, not at the top, so the library entry (startWorker) stays
      // light; in a worker the job modules have loaded it already.
      stopping ??= worker
        .stop({ timeoutMs, reason })
        .finally(() =>
          Promise.all([
            db.close(POOL_GOODBYE_MS).catch(() => 0),
            import('../graph/extract/extract-pool.js').then((m) => m.closeExtractionPool()).catch(() => {}),
          ]).then(() => {}),
        )
      return stopping
    },
  }
}
