/**
 * Live counts without a count(*): statement triggers (src/db/definitions/triggers/aizk_count_*)
 * append deltas to aizk_queue_count_delta and readers sum it with the compacted base,
 * aizk_queue_count. Compaction folds deltas into the base: DELETE ... RETURNING takes exactly the
 * delta rows this snapshot sees (a concurrent writer's rows stay for the next pass), and a transaction-level advisory
 * lock keeps two compactors from upserting the same base rows at once.
 */
import type pg from 'pg'
import type { Queryable } from '../db/queryable.js'
import { withTransaction } from '../db/sql/transaction.js'

/** Advisory lock keys (arbitrary, stable): one per compaction. */
const COUNTS_LOCK = 0x61697a6b01
const THROUGHPUT_LOCK = 0x61697a6b02

export interface CountRow {
  entrypoint: string
  priority: number
  status: string
  n: number
}

/** Exact live counts per (entrypoint, priority, status), zero groups left out. */
export async function readCounts(db: Queryable): Promise<CountRow[]> {
  const { rows } = await db.query<{ entrypoint: string; priority: number; status: string; n: string }>(
    `SELECT entrypoint, priority, status::text AS status, sum(n)::text AS n
       FROM (SELECT entrypoint, priority, status, n FROM aizk_queue_count
             UNION ALL
             SELECT entrypoint, priority, status, n FROM aizk_queue_count_delta) c
      GROUP BY 1, 2, 3
     HAVING sum(n) <> 0
      ORDER BY 1, 2 DESC, 3`,
  )
  return rows.map((r) => ({ entrypoint: r.entrypoint, priority: r.priority, status: r.status, n: Number(r.n) }))
}


/**
 * Fold the deltas into the base table. Returns how many delta rows were folded, or null when
 * another compactor holds the lock (it is doing the same work; nobody waits).
 */
export async function compactCounts(db: pg.Pool | pg.ClientBase): Promise<number | null> {
  return withTransaction(db, async (c) => {
    const { rows } = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [COUNTS_LOCK])
    if (!rows[0].ok) return null
    const res = await c.query<{ folded: string }>(
      `WITH gone AS (DELETE FROM aizk_queue_count_delta RETURNING entrypoint, priority, status, n),
       summed AS (SELECT entrypoint, priority, status, sum(n) AS n, count(*) AS k FROM gone GROUP BY 1, 2, 3),
       upserted AS (
         INSERT INTO aizk_queue_count AS b (entrypoint, priority, status, n)
         SELECT entrypoint, priority, status, n FROM summed
         ON CONFLICT (entrypoint, priority, status) DO UPDATE SET n = b.n + EXCLUDED.n
         RETURNING 1
       )
       SELECT coalesce(sum(k), 0)::text AS folded FROM summed, (SELECT count(*) FROM upserted) u`,
    )
    await c.query('DELETE FROM aizk_queue_count WHERE n = 0')
    return Number(res.rows[0]?.folded ?? 0)
  })
}

/**
 * Keep the throughput table small: fold the recent seconds (one row per second, entrypoint
 * and status instead of one per statement) and drop seconds older than `keepSeconds`.
 */
export async function compactThroughput(db: pg.Pool | pg.ClientBase, opts: { keepSeconds?: number } = {}): Promise<number | null> {
  const keep = opts.keepSeconds ?? 3600
  return withTransaction(db, async (c) => {
    const { rows } = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [THROUGHPUT_LOCK])
    if (!rows[0].ok) return null
    const trimmed = await c.query('DELETE FROM aizk_throughput WHERE second < now() - make_interval(secs => $1::float8)', [keep])
    // Seconds still being written (the last two) are left for the next pass; keys already
    // folded to one row are not rewritten, so a quiet table sees no churn.
    await c.query(
      `WITH dup AS (
         SELECT second, entrypoint, status FROM aizk_throughput
          WHERE second >= now() - interval '120 seconds' AND second < now() - interval '2 seconds'
          GROUP BY 1, 2, 3 HAVING count(*) > 1
       ),
       gone AS (
         DELETE FROM aizk_throughput t USING dup
          WHERE t.second = dup.second AND t.entrypoint = dup.entrypoint AND t.status = dup.status
         RETURNING t.second, t.entrypoint, t.status, t.n
       )
       INSERT INTO aizk_throughput (second, entrypoint, status, n)
       SELECT second, entrypoint, status, sum(n) FROM gone GROUP BY 1, 2, 3`,
    )
    return trimmed.rowCount ?? 0
  })
}

export interface ThroughputStats {
  /** Finished jobs per second over the last 10 complete seconds. */
  perSecondNow: number
  /** Finished jobs in the last 60 seconds. */
  lastMinute: number
  /** Finished jobs per minute, oldest first, the last entry the current minute. */
  perMinute: number[]
  /** Per entrypoint: jobs per second over the last 10 seconds. */
  byEntrypoint: Record<string, number>
  /** Failed (held) outcomes in the last 60 seconds. */
  failedLastMinute: number
}

/**
 * Throughput from aizk_throughput (finished jobs, from the log's insert trigger, aizk_throughput_insert):
 * PgQueuer's `queued` and `picked` log rows are not finished jobs and never count.
 */
export async function readThroughput(db: Queryable, opts: { minutes?: number } = {}): Promise<ThroughputStats> {
  const minutes = opts.minutes ?? 15
  const { rows } = await db.query<{ minute_ago: number; entrypoint: string; status: string; n: string; recent: string; last_minute: string }>(
    `SELECT floor(extract(epoch FROM date_trunc('minute', now()) - date_trunc('minute', second)) / 60)::int AS minute_ago,
            entrypoint, status::text AS status, sum(n)::text AS n,
            sum(n) FILTER (WHERE second >= date_trunc('second', now()) - interval '10 seconds'
                             AND second < date_trunc('second', now()))::text AS recent,
            sum(n) FILTER (WHERE second >= now() - interval '60 seconds')::text AS last_minute
       FROM aizk_throughput
      WHERE second >= date_trunc('minute', now()) - make_interval(mins => $1::int - 1)
        AND status NOT IN ('queued', 'picked')
      GROUP BY 1, 2, 3`,
    [minutes],
  )
  const perMinute = new Array<number>(minutes).fill(0)
  const byEntrypoint: Record<string, number> = {}
  let recent = 0
  let lastMinute = 0
  let failedLastMinute = 0
  for (const r of rows) {
    const idx = minutes - 1 - r.minute_ago
    if (idx >= 0 && idx < minutes) perMinute[idx] += Number(r.n)
    const rec = Number(r.recent ?? 0)
    recent += rec
    byEntrypoint[r.entrypoint] = (byEntrypoint[r.entrypoint] ?? 0) + rec / 10
    lastMinute += Number(r.last_minute ?? 0)
    if (r.status === 'failed') failedLastMinute += Number(r.last_minute ?? 0)
  }
  return { perSecondNow: recent / 10, lastMinute, perMinute, byEntrypoint, failedLastMinute }
}
