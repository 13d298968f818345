/**
 * Every statement on `aizk_worker`, the worker's row beside PgQueuer's tables
 * (docs/pgqueuer-interop.md#what-aizk-adds-beside-pgqueuers-tables): inserted on start,
 * heartbeated with its picks, deleted on a clean exit or, once dead, by the cleanup pass, read by
 * `aizk status` and `aizk jobs show`. Registering also stores the limits it declares in
 * `aizk_entrypoint_limit`, what a pick by any other queue manager is held to (docs/pgqueuer-interop.md#concurrency-limits).
 */
import type { Queryable } from '../queryable.js'
import { owned } from './owned.js'

export interface WorkerRegistration {
  queueManagerId: string
  host: string
  pid: number
  version: string
  entrypoints: string[]
  /** The global limit of each bound entrypoint that has one (above 0): foreign picks respect them too. */
  limits: Record<string, number>
  /** Its AIZK_HEARTBEAT_TIMEOUT_SECONDS: past it without a heartbeat the row is dead. */
  heartbeatTimeoutSeconds: number
}

/**
 * The worker's row, and the limit of each entrypoint it binds stored apart from it: the latest
 * registration wins, and binding an entrypoint without a limit removes its stored one. One statement.
 */
export async function registerWorker(db: Queryable, w: WorkerRegistration): Promise<void> {
  await db.query(
    `WITH registered AS (
       INSERT INTO aizk_worker (queue_manager_id, host, pid, version, entrypoints, limits, heartbeat_timeout_seconds)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (queue_manager_id) DO UPDATE SET heartbeat = now(), limits = EXCLUDED.limits
     ), declared AS (
       SELECT e.entrypoint, ($6::jsonb ->> e.entrypoint)::int AS lim FROM unnest($5::text[]) AS e(entrypoint)
     ), stored AS (
       INSERT INTO aizk_entrypoint_limit (entrypoint, concurrency_limit, queue_manager_id, version)
       SELECT d.entrypoint, d.lim, $1, $4 FROM declared d WHERE d.lim > 0
       ON CONFLICT (entrypoint) DO UPDATE
         SET concurrency_limit = EXCLUDED.concurrency_limit, queue_manager_id = EXCLUDED.queue_manager_id,
             version = EXCLUDED.version, declared_at = now()
     )
     DELETE FROM aizk_entrypoint_limit l USING declared d
      WHERE l.entrypoint = d.entrypoint AND coalesce(d.lim, 0) <= 0`,
    [w.queueManagerId, w.host, w.pid, w.version, w.entrypoints, JSON.stringify(w.limits), w.heartbeatTimeoutSeconds],
  )
}

export async function deregisterWorker(db: Queryable, queueManagerId: string): Promise<void> {
  await db.query('DELETE FROM aizk_worker WHERE queue_manager_id = $1', [queueManagerId])
}

/**
 * The cleanup pass: deletes the rows of dead workers (no heartbeat within their own timeout)
 * that hold no picked row. A dead worker's picks are re-picked by its row's rule (aizk_stale_pick:
 * stale after the aizk timeout, not the foreign one), so its row stays until they are; an
 * entrypoint nobody else binds keeps the row, shown as gone. Returns the rows removed.
 */
export async function removeDeadWorkers(db: Queryable): Promise<{ queueManagerId: string; host: string; pid: number }[]> {
  const { rows } = await db.query<{ queue_manager_id: string; host: string; pid: number }>(
    `DELETE FROM aizk_worker w
      WHERE w.heartbeat < now() - make_interval(secs => w.heartbeat_timeout_seconds)
        AND NOT EXISTS (SELECT 1 FROM pgqueuer q WHERE q.queue_manager_id = w.queue_manager_id AND q.status = 'picked')
      RETURNING w.queue_manager_id::text, w.host, w.pid`,
  )
  return rows.map((r) => ({ queueManagerId: r.queue_manager_id, host: r.host, pid: r.pid }))
}

/**
 * One statement per interval for everything a worker holds: its `aizk_worker` row and the rows
 * it knows it holds (running, waiting, or with an outcome still to write), found through
 * pgqueuer_queue_manager_id_idx, never one statement per job. A row picked under this worker's
 * id whose reply never reached it (a pick past its deadline that committed anyway) is left out,
 * so it goes stale and is picked again like a dead worker's. It also
 * reports which of those rows an operator asked to cancel and which entrypoints are paused, so
 * a cancel or pause whose NOTIFY was lost still reaches the worker within one interval. Rows
 * picked moments ago (`fresh`) already carry a recent heartbeat from their pick: they are only
 * read for cancels, not rewritten, as a rewrite of a `picked` row costs as much as the pick's
 * own (docs/job-lifecycle.md#heartbeat). The rows are found by id (owned.ts). It says whether the
 * worker's row was still there: the cleanup pass removes the row of a worker silent past its
 * timeout (a stall), which then registers again. It also writes how many of the worker's handler
 * statements are stuck (past their deadline, or without one past the job timeout) and since when,
 * for `aizk status --check` (docs/running-the-worker.md#stuck-handlers).
 */
const HEARTBEAT = {
  name: 'aizk_heartbeat',
  text: `WITH w AS (UPDATE aizk_worker
                SET heartbeat = now(), stuck_calls = $4::int,
                    stuck_since = CASE WHEN $4::int > 0 THEN coalesce(stuck_since, now()) END
              WHERE queue_manager_id = $1 RETURNING 1),
         hb AS (UPDATE pgqueuer SET heartbeat = now()
                 WHERE id = ANY ($2::bigint[]) AND ${owned('pgqueuer', '$1')}
                RETURNING id, headers),
         fresh AS (SELECT id, headers FROM pgqueuer
                    WHERE id = ANY ($3::bigint[]) AND ${owned('pgqueuer', '$1')})
         SELECT (SELECT count(*) FROM hb)::int AS touched, EXISTS (SELECT 1 FROM w) AS registered,
                coalesce((SELECT array_agg(id::text) FROM (SELECT id, headers FROM hb UNION ALL SELECT id, headers FROM fresh) h
                           WHERE headers->'aizk' ? 'cancelRequestedAt'), '{}') AS cancel,
                coalesce((SELECT array_agg(entrypoint) FROM aizk_entrypoint_pause), '{}') AS paused`,
}

export interface HeartbeatResult {
  /** Picked rows touched. */
  touched: number
  /** Ids among them whose cancel was requested. */
  cancelRequested: string[]
  /** Every paused entrypoint (a tiny table), so a lost pause notification is noticed here. */
  paused: string[]
  /** False when the worker's row was gone (removed as dead): it must register again. */
  registered: boolean
}

/**
 * `held`: rows whose heartbeat is refreshed; `fresh`: rows picked too lately to need it, checked
 * for cancels only; `stuckCalls`: the worker's handler statements nothing is ending.
 */
export async function heartbeat(
  db: Queryable,
  queueManagerId: string,
  held: readonly string[],
  fresh: readonly string[] = [],
  stuckCalls = 0,
): Promise<HeartbeatResult> {
  const { rows } = await db.query<{ touched: number; registered: boolean; cancel: string[]; paused: string[] }>({
    ...HEARTBEAT,
    values: [queueManagerId, `{${held.join(',')}}`, `{${fresh.join(',')}}`, stuckCalls],
  })
  return { touched: rows[0].touched, cancelRequested: rows[0].cancel, paused: rows[0].paused, registered: rows[0].registered }
}

/** Picks counted per worker at most (a worker holds at most its concurrency; keeps the probe bounded). */
export const PICKED_CAP = 1000

export interface WorkerRow {
  queue_manager_id: string
  host: string
  pid: number
  version: string
  entrypoints: string[]
  started: Date
  heartbeat: Date
  /** Seconds since its heartbeat. */
  age: number
  /** Rows it holds picked, counted up to PICKED_CAP. */
  picked: string | null
  /** Its handler statements nothing is ending, as its last heartbeat said, and since when. */
  stuck_calls: number
  stuck_since: Date | null
}

/** Registered workers, oldest first, each with its picks counted. */
export async function readWorkerRows(db: Queryable): Promise<WorkerRow[]> {
  const { rows } = await db.query<WorkerRow>(
    `SELECT w.queue_manager_id::text, w.host, w.pid, w.version, w.entrypoints, w.started, w.heartbeat,
            extract(epoch FROM now() - w.heartbeat)::float8 AS age, p.n::text AS picked,
            w.stuck_calls, w.stuck_since
       FROM aizk_worker w
       LEFT JOIN LATERAL (
         SELECT count(*) AS n FROM (
           SELECT 1 FROM pgqueuer WHERE queue_manager_id = w.queue_manager_id AND status = 'picked' LIMIT ${PICKED_CAP}
         ) capped
       ) p ON true
      ORDER BY w.started, w.queue_manager_id
      LIMIT 500`,
  )
  return rows
}

/** One worker's row (who holds a pick), or undefined when it is not registered. */
export async function readWorkerRow(
  db: Queryable,
  queueManagerId: string,
): Promise<{ host: string; pid: number; version: string; started: Date; age: number } | undefined> {
  const { rows } = await db.query<{ host: string; pid: number; version: string; started: Date; age: number }>(
    `SELECT host, pid, version, started, extract(epoch FROM now() - heartbeat)::float8 AS age
       FROM aizk_worker WHERE queue_manager_id = $1::uuid`,
    [queueManagerId],
  )
  return rows[0]
}
