/**
 * The worker's health port as services the worker starts and stops with itself: the HTTP server
 * of health.ts with the Prometheus metrics of metrics.ts behind /metrics. None without a port.
 * Used by src/app/run-worker.ts's buildServices: `...(await healthServices({ probe: worker, pool, settings, events, log }))`.
 */
import type pg from 'pg'
import type { WorkerEvents } from '../events.js'
import type { Settings } from '../settings.js'
import type { HealthService, WorkerProbe } from './health.js'
import type { WorkerMetrics } from './metrics.js'

export interface HealthServicesOptions {
  probe: WorkerProbe
  pool: pg.Pool
  settings: Pick<Settings, 'workerHealthPort' | 'appRole' | 'heartbeatTimeoutSeconds' | 'foreignHeartbeatTimeoutSeconds' | 'dbDeadlineSeconds'>
  events: WorkerEvents
  /** Where the chosen port is announced (one plain line). Default: nowhere. */
  log?: (line: string) => void
  host?: string
}

export interface HealthPort {
  start(): Promise<void>
  stop(): Promise<void>
  readonly health: HealthService
  readonly metrics: WorkerMetrics
}

export async function healthServices(opts: HealthServicesOptions): Promise<HealthPort[]> {
  const port = opts.settings.workerHealthPort
  if (port === undefined) return []
  // prom-client and the HTTP server load only in workers that serve the port.
  const [{ createHealthService }, { createWorkerMetrics }] = await Promise.all([import('./health.js'), import('./metrics.js')])
  // Created now, not at start, so the counters see every job from the worker's first pick.
  const { heartbeatTimeoutSeconds, foreignHeartbeatTimeoutSeconds } = opts.settings
  const metrics = createWorkerMetrics({ events: opts.events, db: opts.pool, pickTimeouts: { heartbeatTimeoutSeconds, foreignHeartbeatTimeoutSeconds } })
  const health = createHealthService({
    port,
    host: opts.host,
    pool: opts.pool,
    settings: opts.settings,
    events: opts.events,
    probe: opts.probe,
    metrics,
    deadlineMs: opts.settings.dbDeadlineSeconds * 1000,
  })
  return [
    {
      health,
      metrics,
      async start() {
        await health.start()
        opts.log?.(`aizk: health on port ${health.port}: /livez /readyz /metrics`)
      },
      async stop() {
        const close = async () => {
          await health.stop()
          metrics.detach()
        }
        if (!opts.probe.draining) return close()
        // The worker stops its services before it waits for running jobs: keep answering
        // (/readyz 503 draining, /livez, /metrics) through the drain, close once it has stopped.
        health.unref()
        const off = opts.events.on('worker:stopped', () => {
          off()
          void close()
        })
      },
    },
  ]
}
