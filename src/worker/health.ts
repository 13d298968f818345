/**
 * The worker's health port (node:http): /livez (the loop turned recently, its picks come back
 * within the round-trip deadline, no database call is older than that, no handler's statement
 * outlived its own deadline: progress, not just a process that answers), /readyz (schema present and current, not draining) and /metrics
 * (Prometheus text); /readyz also fails while no server that accepts writes is reachable (the
 * worker's own outage, or the connection it asks on reports a standby or a read-only server:
 * docs/running-the-worker.md#read-only-servers). A service the worker starts and stops with itself. Probes answer JSON
 * `{status, checks}` with 200 or 503; each database check is bounded by a timeout so a probe
 * never hangs, whatever the database does (docs/job-lifecycle.md#network-stalls).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type pg from 'pg'
import { ConflictError, errorMessage } from '../errors.js'
import { readOnlyNow } from '../db/connect.js'
import { isAhead, schemaState } from '../db/migrate.js'
import type { WorkerEvents } from '../events.js'
import type { WorkerMetrics } from './metrics.js'
import { withTimeout } from './with-timeout.js'
import { OVERDUE_SLACK_MS as CALL_SLACK_MS } from '../db/deadline-client.js'

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

type Check = { ok: boolean; detail?: string }


export function createHealthService(opts: HealthServiceOptions): HealthService {
  const startedAt = Date.now()
  const loopStaleMs = opts.loopStaleMs ?? opts.settings.heartbeatTimeoutSeconds * 1000
  const timeoutMs = opts.checkTimeoutMs ?? 1000
  const deadlineMs = opts.deadlineMs ?? 15_000
  let stoppingSeen = false
  const offStopping = opts.events.on('worker:stopping', () => {
    stoppingSeen = true
  })
  const draining = () => opts.probe?.draining ?? stoppingSeen

  const databaseCheck = async (): Promise<Check> => {
    try {
      await withTimeout(opts.pool.query('select 1'), timeoutMs, 'select 1')
      return { ok: true }
    } catch (err) {
      return { ok: false, detail: errorMessage(err) }
    }
  }

  const loopCheck = (): Check => {
    if (!opts.probe || draining()) return { ok: true }
    const since = opts.probe.lastTurnAt || startedAt
    const age = Date.now() - since
    return age <= loopStaleMs ? { ok: true, detail: `last turn ${age} ms ago` } : { ok: false, detail: `no turn for ${age} ms` }
  }

  /** The loop's picks come back: one that tried and got nothing back for longer than the deadline is stuck. */
  const picksCheck = (probe: WorkerProbe): Check => {
    const stalled = probe.pickStalledMs ?? 0
    if (stalled <= deadlineMs) return { ok: true }
    return { ok: false, detail: `no pick came back for ${stalled} ms (deadline ${deadlineMs} ms)` }
  }

  const callsCheck = (probe: WorkerProbe): Check => {
    const age = probe.oldestCallMs ?? 0
    if (age <= deadlineMs + CALL_SLACK_MS) return { ok: true }
    return { ok: false, detail: `a database call has waited ${age} ms (deadline ${deadlineMs} ms)` }
  }

  /**
   * A handler's statement is ended at its deadline (the handlers' pool has one, and a longer one a
   * handler asked for): one still waiting past it, or one without a deadline past the job timeout
   * (its job already ended), holds a connection nothing ends.
   */
  const handlersCheck = (probe: WorkerProbe): Check => {
    const stuck = probe.stuckHandlerCalls?.(CALL_SLACK_MS) ?? 0
    if (stuck === 0) return { ok: true }
    return { ok: false, detail: `${stuck} handler statement(s) waited past their deadline (or, without one, the job timeout): their connections are not ending` }
  }

  /** With the worker to ask, its own round trips are the database check: /livez never waits on the database. */
  const livenessChecks = async (): Promise<Record<string, Check>> => {
    const probe = opts.probe
    if (!probe) return { loop: loopCheck(), database: await databaseCheck() }
    // Draining is alive, whatever the database does: the drain has its own deadline.
    if (draining()) return { loop: loopCheck() }
    return { loop: loopCheck(), picks: picksCheck(probe), calls: callsCheck(probe), handlers: handlersCheck(probe) }
  }

  /** The schema, and whether the server the check reached accepts writes (its reported parameters: no extra round trip on PostgreSQL 14+). */
  const schemaAndWritableChecks = async (): Promise<{ writable: Check; schema: Check }> => {
    try {
      const { state, readOnly } = await withTimeout(
        (async () => {
          const client = await opts.pool.connect()
          try {
            return { state: await schemaState(client, { appRole: opts.settings.appRole }), readOnly: await readOnlyNow(client) }
          } finally {
            client.release()
          }
        })(),
        timeoutMs,
        'schema check',
      )
      const down = opts.probe?.databaseDown
      const writable: Check = readOnly ? { ok: false, detail: `the server is ${readOnly}` } : down ? { ok: false, detail: `database away: ${down}` } : { ok: true }
      return { writable, schema: schemaStateCheck(state) }
    } catch (err) {
      const failed = { ok: false, detail: errorMessage(err) }
      return { writable: failed, schema: failed }
    }
  }

  const respond = (res: http.ServerResponse, checks: Record<string, Check>) => {
    const ok = Object.values(checks).every((c) => c.ok)
    res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    res.end(`${JSON.stringify({ status: ok ? 'ok' : 'fail', checks })}\n`)
  }

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end()
      return
    }
    if (path === '/livez') return respond(res, await livenessChecks())
    if (path === '/readyz') {
      const notDraining: Check = draining() ? { ok: false, detail: 'draining' } : { ok: true }
      return respond(res, { draining: notDraining, ...(await schemaAndWritableChecks()) })
    }
    if (path === '/metrics' && opts.metrics) {
      const body = await opts.metrics.render()
      res.writeHead(200, { 'content-type': opts.metrics.contentType }).end(body)
      return
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try /livez, /readyz or /metrics\n')
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(`${errorMessage(err)}\n`)
    })
  })
  server.keepAliveTimeout = 5000

  return {
    get port() {
      return (server.address() as AddressInfo | null)?.port ?? opts.port
    },
    unref() {
      server.unref()
    },
    start() {
      return new Promise<void>((resolve, reject) => {
        server.once('error', (err: NodeJS.ErrnoException) => {
          if (err.code !== 'EADDRINUSE') return reject(err)
          reject(new ConflictError(`health port ${opts.port} is in use`, 'pick another AIZK_WORKER_HEALTH_PORT, or 0 for any free port'))
        })
        server.listen(opts.port, opts.host, () => {
          server.removeAllListeners('error')
          resolve()
        })
      })
    },
    stop() {
      offStopping()
      return new Promise<void>((resolve) => {
        if (!server.listening) return resolve()
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
}

function schemaStateCheck(state: Awaited<ReturnType<typeof schemaState>>): Check {
  if (!state.installed) return { ok: false, detail: 'schema not installed' }
  if (state.pending.length) return { ok: false, detail: `schema at ${state.current}, needs ${state.latest}` }
  if (isAhead(state)) return { ok: true, detail: `version ${state.current}, installed by a newer aizk` }
  if (state.pendingDefinitions.length) return { ok: false, detail: `${state.pendingDefinitions.length} schema definitions changed: run aizk install` }
  return { ok: true, detail: `version ${state.current}` }
}
