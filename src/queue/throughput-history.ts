/**
 * Throughput history from aizk_throughput (finished jobs per second, entrypoint and status,
 * written by the log's insert trigger and kept for an hour by compaction): per-second buckets
 * and totals over a window. Reads go through aizk_throughput_second_idx.
 */
import type { Queryable } from '../db/queryable.js'
import { READ_THROUGHPUT_BUCKETS, READ_THROUGHPUT_TOTALS } from './sql/throughput-history.js'

/** How far back aizk_throughput reaches (compactThroughput's default keep). */
export const THROUGHPUT_KEEP_SECONDS = 3600

export interface ThroughputBucket {
  second: string
  entrypoint: string
  status: string
  count: number
}

export interface ThroughputTotal {
  entrypoint: string
  status: string
  count: number
}

/** The newest `limit` (second, entrypoint, status) buckets, within `periodSeconds` when given. */
export async function readThroughputBuckets(db: Queryable, opts: { periodSeconds?: number; limit: number }): Promise<ThroughputBucket[]> {
  const { rows } = await db.query<{ second: Date; entrypoint: string; status: string; n: string }>(READ_THROUGHPUT_BUCKETS, [
    opts.periodSeconds ?? null,
    opts.limit,
  ])
  return rows.map((r) => ({ second: r.second.toISOString(), entrypoint: r.entrypoint, status: r.status, count: Number(r.n) }))
}

/** Totals per entrypoint and status within `periodSeconds` (or all the history kept). */
export async function readThroughputTotals(db: Queryable, periodSeconds?: number): Promise<ThroughputTotal[]> {
  const { rows } = await db.query<{ entrypoint: string; status: string; n: string }>(READ_THROUGHPUT_TOTALS, [periodSeconds ?? null])
  return rows.map((r) => ({ entrypoint: r.entrypoint, status: r.status, count: Number(r.n) }))
}
