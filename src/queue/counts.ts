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
import {
  DELETE_ZERO_COUNTS,
  FOLD_COUNT_DELTAS,
  FOLD_THROUGHPUT,
  READ_COUNTS,
  READ_THROUGHPUT,
  TRIM_THROUGHPUT,
  TRY_COUNTS_LOCK,
  TRY_THROUGHPUT_LOCK,
} from './sql/counts.js'

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
  const { rows } = await db.query<{ entrypoint: string; priority: number; status: string; n: string }>(READ_COUNTS)
  return rows.map((r) => ({ entrypoint: r.entrypoint, priority: r.priority, status: r.status, n: Number(r.n) }))
}

/**
 * Fold the deltas into the base table. Returns how many delta rows were folded, or null when
 * another compactor holds the lock (it is doing the same work; nobody waits).
 */
export async function compactCounts(db: pg.Pool | pg.ClientBase): Promise<number | null> {
  return withTransaction(db, async (c) => {
    const { rows } = await c.query<{ ok: boolean }>(TRY_COUNTS_LOCK, [COUNTS_LOCK])
    if (!rows[0].ok) return null
    const res = await c.query<{ folded: string }>(FOLD_COUNT_DELTAS)
    await c.query(DELETE_ZERO_COUNTS)
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
    const { rows } = await c.query<{ ok: boolean }>(TRY_THROUGHPUT_LOCK, [THROUGHPUT_LOCK])
    if (!rows[0].ok) return null
    const trimmed = await c.query(TRIM_THROUGHPUT, [keep])
    // Seconds still being written (the last two) are left for the next pass; keys already
    // folded to one row are not rewritten, so a quiet table sees no churn.
    await c.query(FOLD_THROUGHPUT)
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
  const { rows } = await db.query<{ minute_ago: number; entrypoint: string; status: string; n: string; recent: string; last_minute: string }>(READ_THROUGHPUT, [
    minutes,
  ])
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
