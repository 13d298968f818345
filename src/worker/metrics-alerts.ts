/**
 * The metrics the alert rules in deploy/prometheus read besides the worker's counters
 * (docs/observability.md#alerts): errors by where they happened, the oldest ready job's age per
 * bound entrypoint, this worker's heartbeat as the database recorded it, and each schedule's last
 * fire and period. The database-backed ones are read at scrape time, each at most once per
 * `cacheMs`, by index probes and small tables only, and keep their last values while the
 * database is away: a heartbeat timestamp that stops moving is what the alert is about.
 */
import client from 'prom-client'
import type { Queryable } from '../db/queryable.js'
import type { WorkerEvents } from '../events.js'
import { readOldest } from '../queue/stats.js'
import { readSchedules } from '../queue/stats-schedules.js'
import { readWorkers } from '../queue/stats-workers.js'

export interface AlertMetricsOptions {
  registry: client.Registry
  events: WorkerEvents
  db?: Queryable
  cacheMs: number
}

/** A gauge filled from the database at scrape time, at most once per `cacheMs`. */
function databaseGauge<L extends string>(
  o: AlertMetricsOptions,
  config: { name: string; help: string; labelNames: L[] },
  read: (db: Queryable, gauge: client.Gauge<L>) => Promise<void>,
): client.Gauge<L> {
  let readAt = 0
  return new client.Gauge<L>({
    ...config,
    registers: [o.registry],
    async collect() {
      if (!o.db || Date.now() - readAt < o.cacheMs) return
      try {
        await read(o.db, this)
        readAt = Date.now()
      } catch {
        // The database is away: keep the last values (aizk_worker_db_up says so).
      }
    },
  })
}

/** Registers the gauges and the error counter; returns the detach of its event listeners. */
export function registerAlertMetrics(o: AlertMetricsOptions): () => void {
  const errors = new client.Counter({
    name: 'aizk_worker_errors_total',
    help: 'Errors the worker reported (worker:error), by where: pick, heartbeat, flush, scheduler:<job>, ...',
    labelNames: ['where'],
    registers: [o.registry],
  })
  let bound: string[] = []
  let queueManagerId: string | undefined

  databaseGauge(
    o,
    {
      name: 'aizk_queue_oldest_ready_age_seconds',
      help: 'Seconds the oldest ready queued job of each bound entrypoint has waited (0 when none is ready).',
      labelNames: ['entrypoint'],
    },
    async (db, gauge) => {
      const oldest = await readOldest(db, bound)
      gauge.reset()
      for (const entrypoint of bound) gauge.set({ entrypoint }, oldest.get(entrypoint)?.age ?? 0)
    },
  )
  databaseGauge(
    o,
    {
      name: 'aizk_worker_last_heartbeat_timestamp_seconds',
      help: "When this worker's heartbeat last reached the database (its aizk_worker row), Unix seconds.",
      labelNames: [],
    },
    async (db, gauge) => {
      if (!queueManagerId) return
      const own = (await readWorkers(db, 0)).find((w) => w.queueManagerId === queueManagerId)
      if (own) gauge.set(Date.parse(own.heartbeat) / 1000)
    },
  )
  // One read of the schedules serves both gauges of a scrape.
  let schedules: { at: number; rows: ReturnType<typeof readSchedules> } | undefined
  const readSchedulesOnce = (db: Queryable) => {
    if (!schedules || Date.now() - schedules.at >= o.cacheMs) schedules = { at: Date.now(), rows: readSchedules(db) }
    return schedules.rows
  }
  databaseGauge(
    o,
    {
      name: 'aizk_schedule_last_fire_timestamp_seconds',
      help: 'When each schedule last fired (before its first fire: when its row was created), Unix seconds.',
      labelNames: ['entrypoint'],
    },
    async (db, gauge) => {
      const now = Date.now() / 1000
      const rows = await readSchedulesOnce(db)
      gauge.reset()
      for (const s of rows) gauge.set({ entrypoint: s.entrypoint }, now - s.sinceFireSeconds)
    },
  )
  databaseGauge(
    o,
    { name: 'aizk_schedule_period_seconds', help: "Seconds between two fires of each schedule's cron.", labelNames: ['entrypoint'] },
    async (db, gauge) => {
      const rows = await readSchedulesOnce(db)
      gauge.reset()
      for (const s of rows) if (s.periodSeconds !== null) gauge.set({ entrypoint: s.entrypoint }, s.periodSeconds)
    },
  )

  const offs = [
    o.events.on('worker:error', (e) => errors.inc({ where: e.where })),
    o.events.on('worker:started', (e) => {
      bound = e.entrypoints
      queueManagerId = e.queueManagerId
    }),
  ]
  return () => {
    for (const off of offs.splice(0)) off()
  }
}
