/**
 * A starting worker waits for PostgreSQL instead of giving up: while the server refuses
 * connections, answers "the database system is starting up", or cannot write yet (a standby, a
 * new leader still read-only: docs/running-the-worker.md#read-only-servers), it tries again with backoff for
 * up to AIZK_WORKER_STARTUP_WAIT_SECONDS, saying so ('worker:waiting') each time. Meanwhile the
 * health port, when configured, already answers: /livez 200 (the process is fine) and /readyz
 * 503 (no database yet), so an orchestrator neither kills nor routes to it.
 */
import http from 'node:http'
import { type Database, type OpenOptions, openDatabase } from '../db/database.js'
import { DatabaseError, DatabaseReadOnlyError, errorMessage } from '../errors.js'
import type { WorkerEvents } from '../events.js'
import type { Settings } from '../settings.js'

const FIRST_DELAY_MS = 250
const MAX_DELAY_MS = 5000

function transient(err: unknown): boolean {
  return (err instanceof DatabaseError || err instanceof DatabaseReadOnlyError) && (err.details as { transient?: boolean } | undefined)?.transient === true
}

export async function openDatabaseWhenReady(settings: Settings, events: WorkerEvents, opts: OpenOptions = {}): Promise<Database> {
  const giveUpAfterMs = settings.workerStartupWaitSeconds * 1000
  const started = Date.now()
  let waitingHealth: http.Server | undefined
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        return await openDatabase(settings, opts)
      } catch (err) {
        const waitedMs = Date.now() - started
        if (!transient(err) || waitedMs >= giveUpAfterMs) throw err
        const retryInMs = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (attempt - 1), giveUpAfterMs - waitedMs)
        events.emit('worker:waiting', { error: errorMessage(err), attempt, retryInMs, waitedMs, giveUpAfterMs })
        if (settings.workerHealthPort !== undefined && !waitingHealth) waitingHealth = await serveWaiting(settings.workerHealthPort, err)
        await new Promise((resolve) => setTimeout(resolve, retryInMs))
      }
    }
  } finally {
    // Closed before the worker's own health service binds the same port.
    if (waitingHealth) await new Promise<void>((resolve) => waitingHealth?.close(() => resolve()).closeAllConnections())
  }
}

/** The health port while waiting. A port that cannot be bound now is left to the real service. */
function serveWaiting(port: number, cause: unknown): Promise<http.Server | undefined> {
  const detail = `waiting for PostgreSQL: ${errorMessage(cause)}`
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    const live = path === '/livez'
    if (!live && path !== '/readyz') {
      res.writeHead(503, { 'content-type': 'text/plain' }).end(`${detail}\n`)
      return
    }
    const checks = live ? { startup: { ok: true, detail } } : { database: { ok: false, detail } }
    res.writeHead(live ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    res.end(`${JSON.stringify({ status: live ? 'ok' : 'fail', checks })}\n`)
  })
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined))
    server.listen(port, () => resolve(server))
  })
}
