/**
 * Who is alive: aizk_worker rows whose heartbeat is within the timeout, with the picks each
 * holds, and the stale picks (picked rows whose heartbeat is older than the timeout: their
 * worker died, and any worker will pick them again).
 */
import type { Queryable } from '../db/queryable.js'

/** Picks counted per worker at most (a worker holds at most its concurrency; keeps the probe bounded). */
export const PICKED_CAP = 1000

export interface WorkerInfo {
  queueManagerId: string
  host: string
  pid: number
  version: string
  entrypoints: string[]
  started: string
  heartbeat: string
  heartbeatAgeSeconds: number
  alive: boolean
  /** Rows this worker holds picked, counted up to PICKED_CAP. */
  picked: number
}

export interface StalePick {
  id: string
  entrypoint: string
  queueManagerId: string | null
  heartbeat: string
  ageSeconds: number
}

export async function readWorkers(db: Queryable, timeoutSeconds: number): Promise<WorkerInfo[]> {
  const { rows } = await db.query<{
    queue_manager_id: string
    host: string
    pid: number
    version: string
    entrypoints: string[]
    started: Date
    heartbeat: Date
    age: number
    picked: string | null
  }>(
    `SELECT w.queue_manager_id::text, w.host, w.pid, w.version, w.entrypoints, w.started, w.heartbeat,
            extract(epoch FROM now() - w.heartbeat)::float8 AS age, p.n::text AS picked
       FROM aizk_worker w
       LEFT JOIN LATERAL (
         SELECT count(*) AS n FROM (
           SELECT 1 FROM pgqueuer WHERE queue_manager_id = w.queue_manager_id AND status = 'picked' LIMIT ${PICKED_CAP}
         ) capped
       ) p ON true
      ORDER BY w.started, w.queue_manager_id
      LIMIT 500`,
  )
  return rows.map((r) => ({
    queueManagerId: r.queue_manager_id,
    host: r.host,
    pid: r.pid,
    version: r.version,
    entrypoints: r.entrypoints,
    started: r.started.toISOString(),
    heartbeat: r.heartbeat.toISOString(),
    heartbeatAgeSeconds: Math.max(0, r.age),
    alive: r.age <= timeoutSeconds,
    picked: Number(r.picked ?? 0),
  }))
}

/** Stale picks, oldest heartbeat first (through aizk_picked_heartbeat_idx), and their count. */
export async function readStalePicks(db: Queryable, timeoutSeconds: number, limit = 20): Promise<{ count: number; jobs: StalePick[] }> {
  const { rows } = await db.query<{ id: string; entrypoint: string; qm: string | null; heartbeat: Date; age: number }>(
    `SELECT id::text, entrypoint, queue_manager_id::text AS qm, heartbeat,
            extract(epoch FROM now() - heartbeat)::float8 AS age
       FROM pgqueuer
      WHERE status = 'picked' AND heartbeat < now() - make_interval(secs => $1::float8)
      ORDER BY heartbeat
      LIMIT $2`,
    [timeoutSeconds, limit],
  )
  let count = rows.length
  if (count === limit) {
    const res = await db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM pgqueuer
        WHERE status = 'picked' AND heartbeat < now() - make_interval(secs => $1::float8)`,
      [timeoutSeconds],
    )
    count = Number(res.rows[0].n)
  }
  return {
    count,
    jobs: rows.map((r) => ({ id: r.id, entrypoint: r.entrypoint, queueManagerId: r.qm, heartbeat: r.heartbeat.toISOString(), ageSeconds: r.age })),
  }
}
