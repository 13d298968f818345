/**
 * Vacuums the queue table once enough jobs have passed through it since the last VACUUM, by
 * anyone (autovacuum included). Every pick leaves the old version of each row it took, and every
 * completion a deleted row; until VACUUM removes them, their entries stay at the front of the
 * index the pick walks, so each pick reads past all the jobs finished since (docs/deployment.md#the-queue-table-and-vacuum).
 * Autovacuum visits a table at most once a naptime (a minute by default) and only past a share of
 * its size, which a busy queue outruns within seconds.
 *
 * The count is PostgreSQL's own (`pg_stat_user_tables`: rows updated and deleted, vacuums run),
 * from the worker's start or the last vacuum, and shared by every worker: the first to see the
 * threshold passed runs `VACUUM (SKIP_LOCKED)`;
 * the others see the vacuum counter move and count again from there. A login that may not
 * vacuum the table says so once and leaves it to autovacuum.
 */
import type pg from 'pg'
import type { WorkerEvents } from '../events.js'
import { QUEUE_CHURN, QUEUE_VACUUM, VACUUM_ALLOWED } from '../queue/sql/queue-vacuum.js'
import { periodic } from './periodic.js'
import type { WorkerService } from './worker-options.js'

const CHECK_EVERY_MS = 2000

interface Churn {
  /** Rows updated and deleted in the table so far (PostgreSQL's cumulative statistics). */
  changed: number
  /** Vacuums of the table so far, manual and automatic. */
  vacuums: number
}

async function readChurn(pool: pg.Pool): Promise<Churn | undefined> {
  const { rows } = await pool.query<{ changed: string; vacuums: string }>(QUEUE_CHURN)
  return rows[0] ? { changed: Number(rows[0].changed), vacuums: Number(rows[0].vacuums) } : undefined
}

/** `rows`: row versions updated or deleted since the last vacuum that call for the next one. */
export function queueVacuumService(pool: pg.Pool, events: WorkerEvents, rows: number): WorkerService {
  let since: Churn | undefined
  /** Whether this login may vacuum the table; unknown until a first look succeeds. */
  let allowed: boolean | undefined

  const pass = async (): Promise<void> => {
    if (allowed === undefined) {
      const { rows: answer } = await pool.query<{ allowed: boolean }>(VACUUM_ALLOWED)
      allowed = answer[0]?.allowed === true
      if (!allowed) {
        void checks.stop()
        events.emit('worker:error', {
          where: 'queue-vacuum',
          error:
            'this login may not VACUUM pgqueuer (it needs to own the table or the database): the worker leaves the queue table to autovacuum; AIZK_QUEUE_VACUUM_ROWS=0 silences this',
        })
        return
      }
    }
    const now = await readChurn(pool)
    if (!now) return
    const last = since
    if (!last || now.vacuums !== last.vacuums || now.changed < last.changed) {
      since = now
      return
    }
    if (now.changed - last.changed < rows) return
    // Counted from here even if the VACUUM fails (past the round-trip deadline on a huge table,
    // it goes on in the server): the next try waits for another `rows`, not for the next check.
    since = now
    const started = Date.now()
    await pool.query(QUEUE_VACUUM)
    since = (await readChurn(pool)) ?? now
    events.emit('queue:vacuumed', { changedRows: now.changed - last.changed, ms: Date.now() - started })
  }
  const checks = periodic(CHECK_EVERY_MS, pass, events, 'queue-vacuum')

  return {
    // The first look (the right to vacuum, the count to start from) goes out now, ahead of the
    // first pick, but the start does not wait for it: a database away at this moment is
    // reported, never a failed or delayed start, and the next check looks again.
    start: () => checks.start({ now: true }),
    stop: () => checks.stop(),
  }
}
