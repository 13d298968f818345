/**
 * Who is alive: aizk_worker rows whose heartbeat is within the timeout, with the picks each
 * holds; foreign queue managers (PgQueuer workers), seen only through the rows they hold
 * picked; and the stale picks, judged by aizk_stale_pick, the rule aizk_pick re-picks by: an
 * aizk worker's by the heartbeat timeout, a foreign one's by the longer foreign timeout. Between the
 * two, a foreign pick whose owner has not heartbeated any of its picks for longer than aizk's own
 * heartbeat timeout is *suspect*: its worker is probably dead, but nobody re-picks it until the
 * foreign timeout passes, so it is shown (and judged unhealthy) meanwhile.
 */
import type { Queryable } from '../db/queryable.js'
import { readWorkerRows } from '../db/sql/aizk-worker.js'
import { countPicksSql, picksSql, READ_FOREIGN_WORKERS, STALE_WHERE, SUSPECT_WHERE } from './sql/stats-workers.js'

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
  /**
   * Its handler statements nothing is ending (past their deadline, or without one past the job
   * timeout) as its last heartbeat said, and since when (docs/running-the-worker.md#stuck-handlers).
   */
  stuckCalls: number
  stuckSince: string | null
}

/** A queue manager aizk does not know (not in aizk_worker) that holds picked rows. */
export interface ForeignWorker {
  queueManagerId: string
  entrypoints: string[]
  /** Rows it holds picked, counted up to PICKED_CAP. */
  picked: number
  /** Age of the freshest heartbeat among its picks. */
  heartbeatAgeSeconds: number
  /** No pick of its heartbeated within aizk's heartbeat timeout: probably dead. */
  suspect: boolean
}

export interface StalePick {
  id: string
  entrypoint: string
  queueManagerId: string | null
  heartbeat: string
  ageSeconds: number
}

/** A registered worker's state as `aizk status` and the dashboard show it: gone, alive, or stuck with N handler statements. */
export function workerState(w: Pick<WorkerInfo, 'alive' | 'stuckCalls'>): string {
  if (!w.alive) return 'gone'
  return w.stuckCalls > 0 ? `stuck (${w.stuckCalls})` : 'alive'
}

export async function readWorkers(db: Queryable, timeoutSeconds: number): Promise<WorkerInfo[]> {
  const rows = await readWorkerRows(db)
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
    stuckCalls: r.stuck_calls,
    stuckSince: r.stuck_since?.toISOString() ?? null,
  }))
}

/**
 * Foreign queue managers: the distinct queue_manager_id values, found by skipping through
 * pgqueuer_queue_manager_id_idx (one probe per distinct value, never a walk of every picked row:
 * a registered worker's thousands of picks cost nothing here), less the registered ones, each
 * with its picks counted up to PICKED_CAP.
 */
export async function readForeignWorkers(db: Queryable, timeoutSeconds: number, limit = 100): Promise<ForeignWorker[]> {
  const { rows } = await db.query<{ qm: string; entrypoints: string[]; picked: string; age: number }>(READ_FOREIGN_WORKERS, [limit])
  return rows.map((r) => ({
    queueManagerId: r.qm,
    entrypoints: r.entrypoints,
    picked: Number(r.picked),
    heartbeatAgeSeconds: Math.max(0, r.age),
    suspect: r.age > timeoutSeconds,
  }))
}

/**
 * Stale picks, oldest heartbeat first (through aizk_picked_heartbeat_idx), and their count up to
 * PICKED_CAP (a queue whose workers all died may hold any number; counting them all would make
 * a refresh grow with the queue).
 * `foreignTimeoutSeconds` judges picks of queue managers aizk does not know (0 = never stale).
 */
export function readStalePicks(db: Queryable, timeoutSeconds: number, foreignTimeoutSeconds = 0, limit = 20): Promise<{ count: number; jobs: StalePick[] }> {
  return readPicks(db, STALE_WHERE, timeoutSeconds, foreignTimeoutSeconds, limit)
}

export function readSuspectPicks(
  db: Queryable,
  timeoutSeconds: number,
  foreignTimeoutSeconds: number,
  limit = 20,
): Promise<{ count: number; jobs: StalePick[] }> {
  return readPicks(db, SUSPECT_WHERE, timeoutSeconds, foreignTimeoutSeconds, limit)
}

/** The picks `where` selects (over $1 = aizk's timeout, $2 = the foreign one), oldest heartbeat first, counted up to PICKED_CAP. */
async function readPicks(
  db: Queryable,
  where: string,
  timeoutSeconds: number,
  foreignTimeoutSeconds: number,
  limit: number,
): Promise<{ count: number; jobs: StalePick[] }> {
  const { rows } = await db.query<{ id: string; entrypoint: string; qm: string | null; heartbeat: Date; age: number }>(picksSql(where), [
    timeoutSeconds,
    foreignTimeoutSeconds,
    limit,
  ])
  let count = rows.length
  if (count === limit) {
    const res = await db.query<{ n: string }>(countPicksSql(where), [timeoutSeconds, foreignTimeoutSeconds])
    count = Number(res.rows[0].n)
  }
  return {
    count,
    jobs: rows.map((r) => ({ id: r.id, entrypoint: r.entrypoint, queueManagerId: r.qm, heartbeat: r.heartbeat.toISOString(), ageSeconds: r.age })),
  }
}
