/**
 * The worker's health port (node:http): /livez (the loop turned recently, its picks come back
 * within the round-trip deadline, no database call is older than that, no handler's statement
 * outlived its own deadline: progress, not just a process that answers), /readyz (schema present and current, not draining) and /metrics
 * (Prometheus text); /readyz also fails while no server that accepts writes is reachable (the
 * worker's own outage, or the connection it asks on reports a standby or a read-only server:
 * docs/running-the-worker.md#read-only-servers). A service the worker starts and stops with itself. Probes answer JSON
 * `{status, checks}` with 200 or 503; each database check is bounded by a timeout so a probe
 * never hangs, whatever the database does (docs/job-lifecycle.md#network-stalls). The checks
 * themselves are in health-checks.ts.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type pg from 'pg'
import { ConflictError, errorMessage } from '../errors.js'
import type { WorkerEvents } from '../events.js'
import { type Check, type CheckContext, livenessChecks, readinessChecks } from './health-checks.js'
import type { WorkerMetrics } from './metrics.js'

/** What health needs to know about the running worker. */
export interface WorkerProbe {
  /** True once the worker stopped picking to shut down. */
  readonly draining: boolean
  /** Date.now() of the loop's last turn (pick, wait or poll); 0 before the first. */
  readonly lastTurnAt: number
  /** How long the loop has gone without completing a pick it tried; 0 while picks come back. */
  readonly pickStalledMs?: number
  /** Age of the oldest queue round trip on its way; 0 when none. */
  readonly oldestCallMs?: number
  /**
   * Handlers' statements on their way longer than their own deadline (without one: the job
   * timeout) plus `slackMs`: connections nothing is ending.
   */
  stuckHandlerCalls?(slackMs: number): number
  /** Why the worker counts the database away ('' while up): a lost link, or a server refusing writes. */
  readonly databaseDown?: string
}

export interface HealthServiceOptions {
  port: number
  /** Default: every interface (a Kubernetes probe comes from the node). */
  host?: string
  pool: pg.Pool
  settings: { appRole: string; heartbeatTimeoutSeconds: number }
  events: WorkerEvents
  /** The worker; without it draining is learnt from 'worker:stopping' and the loop is not checked. */
  probe?: WorkerProbe
  metrics?: WorkerMetrics
  /** The loop counts as stuck when it has not turned for this long. Default: the heartbeat timeout. */
  loopStaleMs?: number
  /** Bound on each database check (/readyz's schema, /livez's `select 1` without a probe). Default 1000 ms. */
  checkTimeoutMs?: number
  /** The round-trip deadline: /livez fails when picks or a call go longer. Default 15 s. */
  deadlineMs?: number
}

export interface HealthService {
  start(): Promise<void>
  stop(): Promise<void>
  /** The port it listens on (the chosen one when asked for port 0). */
  readonly port: number
  /** Let the process exit even while it listens. */
  unref(): void
}

/** Serves /livez, /readyz and /metrics (docs/running-the-worker.md) on the given port while started. */
export function createHealthService(opts: HealthServiceOptions): HealthService {
  let stoppingSeen = false
  const offStopping = opts.events.on('worker:stopping', () => {
    stoppingSeen = true
  })
  const ctx: CheckContext = {
    pool: opts.pool,
    appRole: opts.settings.appRole,
    probe: opts.probe,
    draining: () => opts.probe?.draining ?? stoppingSeen,
    startedAt: Date.now(),
    loopStaleMs: opts.loopStaleMs ?? opts.settings.heartbeatTimeoutSeconds * 1000,
    timeoutMs: opts.checkTimeoutMs ?? 1000,
    deadlineMs: opts.deadlineMs ?? 15_000,
  }
  const server = http.createServer((req, res) => {
    handle(req, res, ctx, opts.metrics).catch((err) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(`${errorMessage(err)}\n`)
    })
  })
  server.keepAliveTimeout = 5000
  return {
    get port() {
      return (server.address() as AddressInfo | null)?.port ?? opts.port
    },
    unref: () => server.unref(),
    start: () => listen(server, opts.port, opts.host),
    stop() {
      offStopping()
      return close(server)
    },
  }
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse, ctx: CheckContext, metrics: WorkerMetrics | undefined) {
  const path = (req.url ?? '/').split('?')[0]
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end()
    return
  }
  if (path === '/livez') return respond(res, await livenessChecks(ctx))
  if (path === '/readyz') return respond(res, await readinessChecks(ctx))
  if (path === '/metrics' && metrics) {
    const body = await metrics.render()
    res.writeHead(200, { 'content-type': metrics.contentType }).end(body)
    return
  }
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try /livez, /readyz or /metrics\n')
}

function respond(res: http.ServerResponse, checks: Record<string, Check>) {
  const ok = Object.values(checks).every((c) => c.ok)
  res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
  res.end(`${JSON.stringify({ status: ok ? 'ok' : 'fail', checks })}\n`)
}

function listen(server: http.Server, port: number, host: string | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRINUSE') return reject(err)
      reject(new ConflictError(`health port ${port} is in use`, 'pick another AIZK_WORKER_HEALTH_PORT, or 0 for any free port'))
    })
    server.listen(port, host, () => {
      server.removeAllListeners('error')
      resolve()
    })
  })
}

function close(server: http.Server): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!server.listening) return resolve()
    server.close(() => resolve())
    server.closeAllConnections()
  })
}
