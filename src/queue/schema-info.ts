/**
 * The queue's tables as the catalogue sees them: present or not, logged or unlogged, estimated
 * rows and total size. Estimates only (pg_class), so it costs the same on any queue.
 */
import type { Queryable } from '../db/queryable.js'
import { READ_QUEUE_TABLES } from './sql/schema-info.js'

/** PgQueuer's four tables, then aizk's own beside them. */
export const QUEUE_TABLES = [
  'pgqueuer',
  'pgqueuer_log',
  'pgqueuer_statistics',
  'pgqueuer_schedules',
  'aizk_worker',
  'aizk_queue_count',
  'aizk_queue_count_delta',
  'aizk_throughput',
  'aizk_entrypoint_pause',
  'aizk_schema_version',
] as const

export interface TableInfo {
  table: string
  exists: boolean
  persistence: 'LOGGED' | 'UNLOGGED' | 'TEMPORARY' | null
  /** pg_class.reltuples: null before the first ANALYZE. */
  estimatedRows: number | null
  totalBytes: number | null
}

export async function readQueueTables(db: Queryable): Promise<TableInfo[]> {
  const { rows } = await db.query<{ name: string; persistence: string | null; reltuples: number | null; bytes: string | null }>(READ_QUEUE_TABLES, [
    QUEUE_TABLES,
  ])
  const persistence = { p: 'LOGGED', u: 'UNLOGGED', t: 'TEMPORARY' } as const
  return rows.map((r) => ({
    table: r.name,
    exists: r.persistence !== null,
    persistence: r.persistence ? (persistence[r.persistence as keyof typeof persistence] ?? null) : null,
    estimatedRows: r.reltuples === null || r.reltuples < 0 ? null : Math.round(r.reltuples),
    totalBytes: r.bytes === null ? null : Number(r.bytes),
  }))
}
