/**
 * Handlers' statements that waited past the round-trip deadline because their job declared a
 * longer one (QueueJob.statementDeadlineSeconds) are asked about on the server: a backend that
 * is not running a statement, and has not been for longer than the deadline, finished it or
 * never received it, so the reply is lost and the connection is dead (a network stall). Its
 * socket is destroyed at once and the job fails as a lost connection (retried), instead of
 * holding its slot until its own, longer deadline. A statement the server is running is left
 * alone, however long it takes (docs/job-lifecycle.md#network-stalls).
 */
import type pg from 'pg'
import { isConnectionError } from '../db/connect.js'
import type { DatabasePool } from '../db/database-pool.js'
import { DeadlineError } from '../db/deadline-client.js'
import type { WorkerEvents } from '../events.js'
import { periodic } from './periodic.js'
import type { WorkerService } from './worker-options.js'

/** Each backend asked about: lost when idle (in a transaction or not) for longer than the deadline, or gone. */
const BACKENDS = `SELECT pid, state IS DISTINCT FROM 'active' AND state IS NOT NULL
                          AND state_change < now() - make_interval(secs => $2) AS lost
                     FROM pg_stat_activity WHERE pid = ANY ($1::int[])`

export interface LostStatementsOptions {
  /** The queue's pool: the question goes there, never on the handlers' connections it is about. */
  pool: pg.Pool
  /** The handlers' pool, on the owner login (the app login's backends do not show their state to it). */
  handlers: DatabasePool
  deadlineMs: number
  events: WorkerEvents
}

export function lostStatementsService(o: LostStatementsOptions): WorkerService {
  const pass = async (): Promise<void> => {
    const waiting = [...o.handlers.clients].filter((c) => c.waitingMs > o.deadlineMs && c.backendPid !== undefined)
    if (!waiting.length) return
    let rows: { pid: number; lost: boolean }[]
    try {
      rows = (await o.pool.query<{ pid: number; lost: boolean }>(BACKENDS, [waiting.map((c) => c.backendPid), o.deadlineMs / 1000])).rows
    } catch (err) {
      // The queue's own round trips say the database is away (db:lost): nothing to add here.
      if (isConnectionError(err)) return
      throw err
    }
    const lost = new Map(rows.map((r) => [r.pid, r.lost]))
    for (const client of waiting) {
      // A backend gone from the server (killed, restarted) whose goodbye never came is lost too.
      if (lost.get(client.backendPid as number) === false || client.waitingMs <= o.deadlineMs) continue
      client.destroy(new DeadlineError(client.waitingMs, 'PostgreSQL is not running this statement (it finished or never arrived) and no reply came'))
    }
  }
  const checks = periodic(Math.min(5000, Math.max(250, o.deadlineMs / 2)), pass, o.events, 'lost-statements')
  return { start: () => checks.start(), stop: () => checks.stop() }
}
