/**
 * Prune: the queue history (`pgqueuer_log`) past its retention, deleted in batches. Each batch
 * walks the `pgqueuer_log_created` index from the oldest row, so it costs the same on a log of
 * a thousand rows or a billion; a short batch ends the drain. VACUUM (ANALYZE) follows: it
 * never locks writers out and never hands disk back. `reclaimLog` is the one-time rewrite that
 * does hand disk back, under an ACCESS EXCLUSIVE lock.
 */
import type pg from 'pg'
import type { Queryable } from '../db/queryable.js'
import { ConflictError } from '../errors.js'
import { COUNT_LEFT, COUNT_PRUNABLE, CUTOFF_OF, DELETE_BATCH, LOG_SIZE, RESET_LOCK_TIMEOUT, VACUUM_FULL_LOG, VACUUM_LOG } from './sql/prune.js'

export interface PruneProgress {
  /** Rows deleted so far. */
  deleted: number
  batches: number
  /** Rows the last batch deleted. */
  lastBatch: number
  /** Rows older than the cutoff when the drain started (only when `countFirst`). */
  total?: number
}

export interface PruneOptions {
  retentionDays: number
  batch: number
  /** VACUUM (ANALYZE) the log afterwards (default true; needs a connection outside a transaction). */
  vacuum?: boolean
  onProgress?: (p: PruneProgress) => void
  /** Count the rows to delete first, so progress can show a total. */
  countFirst?: boolean
  /** Stop after the current batch when aborted (the rows deleted so far stay deleted). */
  signal?: AbortSignal
}

export interface PruneResult {
  deleted: number
  batches: number
  cutoff: string
  vacuumed: boolean
  ms: number
}

function checkOptions(opts: { retentionDays: number; batch?: number }): void {
  if (!(opts.retentionDays >= 0)) throw new RangeError(`retentionDays must be >= 0, got ${opts.retentionDays}`)
  if (opts.batch !== undefined && (!Number.isInteger(opts.batch) || opts.batch < 1)) {
    throw new RangeError(`batch must be a whole number >= 1, got ${opts.batch}`)
  }
}

async function cutoffOf(db: Queryable, retentionDays: number): Promise<Date> {
  const { rows } = await db.query<{ cutoff: Date }>(CUTOFF_OF, [retentionDays])
  return rows[0].cutoff
}

/** How many log rows are older than the retention (what a prune would delete). */
export async function countPrunable(db: Queryable, opts: { retentionDays: number }): Promise<{ rows: number; cutoff: string }> {
  checkOptions(opts)
  const cutoff = await cutoffOf(db, opts.retentionDays)
  const { rows } = await db.query<{ n: string }>(COUNT_PRUNABLE, [cutoff])
  return { rows: Number(rows[0].n), cutoff: cutoff.toISOString() }
}

/**
 * Delete log rows older than the retention, `batch` at a time, until a short batch. The cutoff
 * is fixed when the drain starts, so rows written meanwhile never keep it going.
 */
export async function pruneLog(db: Queryable, opts: PruneOptions): Promise<PruneResult> {
  checkOptions(opts)
  const started = Date.now()
  const cutoff = await cutoffOf(db, opts.retentionDays)
  let total: number | undefined
  if (opts.countFirst) {
    const { rows } = await db.query<{ n: string }>(COUNT_LEFT, [cutoff])
    total = Number(rows[0].n)
  }
  let deleted = 0
  let batches = 0
  for (;;) {
    const res = await db.query(DELETE_BATCH, [cutoff, opts.batch])
    const n = res.rowCount ?? 0
    deleted += n
    batches++
    opts.onProgress?.({ deleted, batches, lastBatch: n, total })
    if (n < opts.batch || opts.signal?.aborted) break
  }
  const vacuum = opts.vacuum !== false
  if (vacuum) await db.query(VACUUM_LOG)
  return { deleted, batches, cutoff: cutoff.toISOString(), vacuumed: vacuum, ms: Date.now() - started }
}

export interface LogSize {
  /** The planner's estimate (pg_class.reltuples); null before the table was ever analyzed. */
  rowsEstimate: number | null
  /** Heap, indexes and TOAST. */
  bytes: number
  /** Left out of the WAL (`aizk durability balanced`): a crash of the server empties it. */
  unlogged: boolean
}

/** The log's size from the catalogue: no scan of the table. */
export async function logSize(db: Queryable): Promise<LogSize> {
  const { rows } = await db.query<{ reltuples: number; bytes: string; unlogged: boolean }>(LOG_SIZE)
  const r = rows[0]
  return { rowsEstimate: r.reltuples < 0 ? null : Math.round(r.reltuples), bytes: Number(r.bytes), unlogged: r.unlogged }
}

export interface ReclaimResult {
  bytesBefore: number
  bytesAfter: number
  ms: number
}

/**
 * Rewrite the log (VACUUM FULL) to hand its free space back to the operating system. It takes
 * an ACCESS EXCLUSIVE lock: workers writing log rows wait until it ends. `lockTimeoutMs` bounds
 * the wait for the lock itself (exit 6 when another session holds the table that long).
 * Needs one session outside a transaction: a pool (a connection of its own is taken and
 * returned) or a client.
 */
export async function reclaimLog(db: pg.Pool | pg.ClientBase, opts: { lockTimeoutMs?: number } = {}): Promise<ReclaimResult> {
  // The rewrite's lock_timeout is a session setting: on a connection of its own, never a shared one's.
  if ('totalCount' in db) {
    const client = await db.connect()
    try {
      return await reclaimLog(client, opts)
    } finally {
      client.release()
    }
  }
  const client = db
  const started = Date.now()
  const before = await logSize(client)
  await client.query(`SET lock_timeout = ${Math.max(0, Math.floor(opts.lockTimeoutMs ?? 10_000))}`)
  try {
    await client.query(VACUUM_FULL_LOG)
  } catch (err) {
    if ((err as { code?: string }).code === '55P03') {
      throw new ConflictError(
        'could not lock pgqueuer_log for the rewrite: another session holds it',
        'retry when the queue is quieter, or raise the wait with --lock-timeout',
      )
    }
    throw err
  } finally {
    await client.query(RESET_LOCK_TIMEOUT).catch(() => {})
  }
  const after = await logSize(client)
  return { bytesBefore: before.bytes, bytesAfter: after.bytes, ms: Date.now() - started }
}
