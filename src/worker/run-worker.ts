/**
 * `run_worker()` of the spec: load the job modules, open the database (installing the schema on
 * the embedded default), bind every registered job with a handler and start the loop with its
 * services. The command (src/commands/worker.ts) adds flags, output and signals around it.
 */
import type { Database } from '../db/database.js'
import { openDatabase } from '../db/database.js'
import { loadJobModules } from '../jobs/load.js'
import { type JobRegistry, jobRegistry } from '../jobs/registry.js'
import type { Settings } from '../settings.js'
import { WorkerEvents } from './events.js'
import { Worker, type WorkerService } from './worker.js'

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
}

/**
 * The worker's built-in services: the cron scheduler (unless workerNoScheduler) and the health
 * server (when workerHealthPort is set) are added here as they land.
 */
export function buildServices(_ctx: ServiceContext): WorkerService[] {
  return []
}

export interface RunningWorker {
  worker: Worker
  db: Database
  events: WorkerEvents
  /** Drain and close the database; resolves when everything is stopped. */
  stop(timeoutMs?: number, reason?: string): Promise<void>
}

export async function startWorker(opts: WorkerRunOptions): Promise<RunningWorker> {
  const { settings } = opts
  await loadJobModules()
  const events = opts.events ?? new WorkerEvents()
  const concurrency = settings.queueConcurrentTasks ?? settings.queueBatchSize * 4
  const db = await openDatabase(settings, {
    applicationName: 'aizk-worker',
    poolSize: Math.min(64, 8 + Math.ceil(concurrency / 16)),
    log: opts.log,
  })
  let worker: Worker
  try {
    const entrypoints = opts.entrypoints ?? settings.workerEntrypoints
    worker = new Worker({
      pool: db.pool,
      registry: opts.registry ?? jobRegistry,
      settings,
      events,
      entrypoints: entrypoints.length ? entrypoints : undefined,
      batchSize: settings.queueBatchSize,
      concurrency,
    })
    for (const service of [...buildServices({ worker, db, settings, events }), ...(opts.services ?? [])]) worker.use(service)
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
      stopping ??= worker.stop({ timeoutMs, reason }).finally(() => db.close().catch(() => {}))
      return stopping
    },
  }
}
