/**
 * Prometheus metrics of one worker (prom-client), a listener of the worker's events. Each worker
 * gets its own Registry, so tests (and a process running several workers) never share counters.
 * Queue depth comes from the live counts at scrape time (cached briefly), never a count(*).
 */
import client from 'prom-client'
import { countIntegrityFailures } from '../content/integrity.js'
import { boundaryRefusals } from '../db/boundary-refusals.js'
import type { Queryable } from '../db/queryable.js'
import type { WorkerEvents } from '../events.js'
import { readCounts } from '../queue/counts.js'
import { readStalePicks, readSuspectPicks } from '../queue/stats-workers.js'
import { registerAlertMetrics } from './metrics-alerts.js'
import { withTimeout } from './with-timeout.js'

export interface WorkerMetricsOptions {
  events: WorkerEvents
  /** Where queue depth is read; without it the depth gauge stays empty. */
  db?: Queryable
  /** Process metrics (memory, CPU, event-loop lag) too. Default true. */
  processMetrics?: boolean
  /** Scrapes closer together than this reuse the last queue-depth read. Default 1000 ms. */
  depthCacheMs?: number
  /** A database read of a scrape that takes longer is given up (the last values stay). Default 1000 ms. */
  readTimeoutMs?: number
  /** How `aizk status` judges picks (the heartbeat timeouts): with them, the stale and suspect pick gauges. */
  pickTimeouts?: { heartbeatTimeoutSeconds: number; foreignHeartbeatTimeoutSeconds: number }
}

export interface WorkerMetrics {
  registry: client.Registry
  contentType: string
  /** The Prometheus text exposition. */
  render(): Promise<string>
  detach(): void
}

const WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300]
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800]

export function createWorkerMetrics(opts: WorkerMetricsOptions): WorkerMetrics {
  const registry = new client.Registry()
  const registers = [registry]
  const counter = (name: string, help: string) => new client.Counter({ name, help, labelNames: ['entrypoint'], registers })
  const picked = counter('aizk_worker_jobs_picked_total', 'Jobs this worker picked, by entrypoint.')
  const completed = counter('aizk_worker_jobs_completed_total', 'Jobs this worker completed, by entrypoint.')
  const retried = counter('aizk_worker_jobs_retried_total', 'Jobs whose handler failed and went back to queued for another attempt.')
  const held = counter('aizk_worker_jobs_held_total', 'Jobs held (status failed, row kept) after their last attempt or a bad payload.')
  const released = counter('aizk_worker_jobs_released_total', 'Jobs released back to queued on shutdown without counting an attempt.')
  const canceled = counter('aizk_worker_jobs_canceled_total', 'Jobs an operator canceled while this worker held them (`aizk cancel --running`).')
  const recovered = counter('aizk_worker_jobs_recovered_total', 'Stale picked jobs of a dead worker that this worker picked again.')
  const inFlight = new client.Gauge({ name: 'aizk_worker_jobs_in_flight', help: 'Jobs running in this worker now.', labelNames: ['entrypoint'], registers })
  const wait = new client.Histogram({
    name: 'aizk_worker_pick_latency_seconds',
    help: 'How long a ready job waited before this worker picked it and started it.',
    labelNames: ['entrypoint'],
    buckets: WAIT_BUCKETS,
    registers,
  })
  const duration = new client.Histogram({
    name: 'aizk_worker_job_duration_seconds',
    help: 'Handler run time, by entrypoint and outcome (completed, retried, held).',
    labelNames: ['entrypoint', 'outcome'],
    buckets: DURATION_BUCKETS,
    registers,
  })
  const batches = new client.Counter({ name: 'aizk_worker_batches_total', help: 'Pick round trips that returned at least one job.', registers })
  const fired = new client.Counter({
    name: 'aizk_worker_schedule_fired_total',
    help: 'Cron ticks this worker claimed and fanned out.',
    labelNames: ['name'],
    registers,
  })
  const dbLost = new client.Counter({ name: 'aizk_worker_db_disconnects_total', help: 'Times this worker lost its database connection.', registers })
  const vacuums = new client.Counter({
    name: 'aizk_worker_queue_vacuums_total',
    help: 'VACUUMs of the queue table this worker ran (AIZK_QUEUE_VACUUM_ROWS).',
    registers,
  })
  const dbUp = new client.Gauge({ name: 'aizk_worker_db_up', help: '1 while the worker reaches its database, 0 after a loss until it reconnects.', registers })
  const draining = new client.Gauge({ name: 'aizk_worker_draining', help: '1 once the worker stops picking to shut down.', registers })
  dbUp.set(1)
  draining.set(0)
  boundaryCounters(registers)

  const depthCacheMs = opts.depthCacheMs ?? 1000
  const readTimeoutMs = opts.readTimeoutMs ?? 1000
  let bound: string[] = []
  let depthReadAt = 0
  const depth = new client.Gauge({
    name: 'aizk_queue_depth',
    help: 'Jobs in the queue table by entrypoint and status (queued, picked, failed = held), read from the live counts.',
    labelNames: ['entrypoint', 'status'],
    registers,
    async collect() {
      if (!opts.db || Date.now() - depthReadAt < depthCacheMs) return
      try {
        const rows = await withTimeout(readCounts(opts.db), readTimeoutMs, 'queue depth')
        this.reset()
        // Bound entrypoints report 0 queued rather than no series, so an autoscaler query on an
        // empty queue returns 0, not nothing.
        for (const entrypoint of bound) this.set({ entrypoint, status: 'queued' }, 0)
        // The live counts are kept per priority too; the gauge sums them per entrypoint and status.
        for (const row of rows) this.inc({ entrypoint: row.entrypoint, status: row.status }, row.n)
        depthReadAt = Date.now()
      } catch {
        // The database is away: keep the last values; aizk_worker_db_up tells the story.
      }
    },
  })
  void depth

  let integrityReadAt = 0
  const integrity = new client.Gauge({
    name: 'aizk_artifact_integrity_failures',
    help: 'Artifacts whose stored original failed re-verification, by status (mismatch, missing).',
    labelNames: ['status'],
    registers,
    async collect() {
      if (!opts.db || Date.now() - integrityReadAt < depthCacheMs) return
      try {
        const failures = await withTimeout(countIntegrityFailures(opts.db), readTimeoutMs, 'integrity failures')
        this.set({ status: 'mismatch' }, failures.mismatch)
        this.set({ status: 'missing' }, failures.missing)
        integrityReadAt = Date.now()
      } catch {
        // As for the depth: keep the last values while the database is away.
      }
    },
  })
  void integrity

  if (opts.pickTimeouts) picksWithoutHeartbeat(opts.db, opts.pickTimeouts, registers, depthCacheMs, readTimeoutMs)

  if (opts.processMetrics ?? true) client.collectDefaultMetrics({ register: registry })
  const detachAlertMetrics = registerAlertMetrics({ registry, events: opts.events, db: opts.db, cacheMs: depthCacheMs })

  const { events } = opts
  /** A job left this worker: count the outcome, free its in-flight slot, time its run. */
  const finished = (counter: client.Counter<'entrypoint'>, outcome: string) => (e: { entrypoint: string; durationMs: number }) => {
    counter.inc({ entrypoint: e.entrypoint })
    inFlight.dec({ entrypoint: e.entrypoint })
    duration.observe({ entrypoint: e.entrypoint, outcome }, e.durationMs / 1000)
  }
  const offs = [
    events.on('job:picked', (e) => {
      picked.inc({ entrypoint: e.entrypoint })
      inFlight.inc({ entrypoint: e.entrypoint })
      wait.observe({ entrypoint: e.entrypoint }, e.waitMs / 1000)
    }),
    events.on('job:completed', finished(completed, 'completed')),
    events.on('job:retried', finished(retried, 'retried')),
    events.on('job:held', finished(held, 'held')),
    events.on('job:released', (e) => {
      released.inc({ entrypoint: e.entrypoint })
      inFlight.dec({ entrypoint: e.entrypoint })
    }),
    events.on('job:canceled', (e) => {
      canceled.inc({ entrypoint: e.entrypoint })
      inFlight.dec({ entrypoint: e.entrypoint })
    }),
    events.on('job:recovered', (e) => recovered.inc({ entrypoint: e.entrypoint })),
    events.on('batch:picked', () => batches.inc()),
    events.on('schedule:fired', (e) => fired.inc({ name: e.name })),
    events.on('db:lost', () => {
      dbLost.inc()
      dbUp.set(0)
    }),
    events.on('db:reconnected', () => dbUp.set(1)),
    events.on('queue:vacuumed', () => vacuums.inc()),
    events.on('worker:stopping', () => draining.set(1)),
    events.on('worker:started', (e) => {
      bound = e.entrypoints
    }),
  ]

  return {
    registry,
    contentType: registry.contentType,
    render: () => registry.metrics(),
    detach() {
      for (const off of offs.splice(0)) off()
      detachAlertMetrics()
    },
  }
}

/**
 * Picks whose owner stopped heartbeating, as `aizk status` counts them: stale (proven dead, the
 * next pick takes them over) and suspect (a foreign owner silent past aizk's heartbeat timeout,
 * not re-picked until the foreign timeout). Both read together at scrape time, cached.
 */
function picksWithoutHeartbeat(
  db: Queryable | undefined,
  t: NonNullable<WorkerMetricsOptions['pickTimeouts']>,
  registers: client.Registry[],
  cacheMs: number,
  readTimeoutMs: number,
): void {
  let readAt = 0
  let reading: Promise<void> | undefined
  let counts = { stale: 0, suspect: 0 }
  const refresh = async () => {
    if (!db || Date.now() - readAt < cacheMs) return
    reading ??= (async () => {
      try {
        const [stale, suspect] = [
          await readStalePicks(db, t.heartbeatTimeoutSeconds, t.foreignHeartbeatTimeoutSeconds, 1),
          await readSuspectPicks(db, t.heartbeatTimeoutSeconds, t.foreignHeartbeatTimeoutSeconds, 1),
        ]
        counts = { stale: stale.count, suspect: suspect.count }
        readAt = Date.now()
      } catch {
        // As for the depth: keep the last values while the database is away.
      } finally {
        reading = undefined
      }
    })()
    // A scrape answers whatever the database does; the read goes on and refreshes the next one.
    await withTimeout(reading, readTimeoutMs, 'stale and suspect picks').catch(() => {})
  }
  const gauges = [
    ['aizk_queue_stale_picks', 'Picked jobs whose worker is proven dead (heartbeat past its timeout); the next pick takes them over.', 'stale'],
    [
      'aizk_queue_suspect_picks',
      'Jobs picked by a worker aizk does not know (PgQueuer) that has not heartbeated within AIZK_HEARTBEAT_TIMEOUT_SECONDS; picked again only after AIZK_FOREIGN_HEARTBEAT_TIMEOUT_SECONDS.',
      'suspect',
    ],
  ] as const
  for (const [name, help, which] of gauges) {
    new client.Gauge({
      name,
      help,
      registers,
      async collect() {
        await refresh()
        this.set(counts[which])
      },
    })
  }
}

/** The process's refusals at the tenant boundary (db/boundary-refusals.ts), read at scrape time. */
function boundaryCounters(registers: client.Registry[]): void {
  const counters = [
    [
      'aizk_app_login_settings_refusals_total',
      'Scoped transactions refused because the app login has role-level settings (ALTER ROLE ... SET): an administrator must remove them (docs/security.md#the-login-itself).',
      'loginSettings',
    ],
    [
      'aizk_scoped_transaction_escapes_total',
      'Scoped callbacks that ended, or tried to end, their own transaction: failed, and their connection closed.',
      'transactionEscapes',
    ],
  ] as const
  for (const [name, help, which] of counters) {
    let reported = 0
    new client.Counter({
      name,
      help,
      registers,
      collect() {
        this.inc(boundaryRefusals[which] - reported)
        reported = boundaryRefusals[which]
      },
    })
  }
}
