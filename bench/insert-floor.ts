/**
 * (k) Where an enqueue's server time goes: the harness's a64 statement (64 rows an INSERT,
 * pgbench, BENCH_FLOOR_CLIENTS clients) on aizk's pgqueuer table as migrated, then with its triggers
 * off (PgQueuer's NOTIFY and aizk's live counts), then with PgQueuer's own indexes only (aizk's
 * two partial pick indexes of migration 0016 dropped), then with only the two indexes the
 * harness's bare table has (the primary key and one priority index). Each step prints rows/s
 * and its share of the first. A scratch database of its own, dropped at the end: the steps take
 * the schema apart.
 */
import pg from 'pg'
import { BENCH_ENTRYPOINT } from './bench-jobs.js'
import { aizkEnqueueFloor } from './floor.js'
import { createScratchDb } from './scratch-db.js'

export interface InsertFloorOptions {
  seconds: number
  clients: number
}

type Row = { section: string; what: string; value: string; note?: string }

const STEPS: { what: string; sql: string }[] = [
  { what: "aizk's pgqueuer as migrated (PgQueuer's indexes and trigger, aizk's indexes and count trigger)", sql: '' },
  { what: 'the same, triggers off', sql: 'ALTER TABLE pgqueuer DISABLE TRIGGER USER' },
  {
    what: "and PgQueuer's own indexes only (aizk_ready_ep_prio_id_idx, aizk_delayed_ep_ea_idx dropped)",
    sql: 'DROP INDEX aizk_ready_ep_prio_id_idx, aizk_delayed_ep_ea_idx',
  },
  {
    what: "and only the harness table's two indexes (primary key, pgqueuer_priority_id_id1_idx)",
    sql: 'DROP INDEX pgqueuer_ep_prio_id_idx, pgqueuer_ep_ea_idx',
  },
]

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

export async function insertFloorSection(o: InsertFloorOptions): Promise<Row[]> {
  const scratch = await createScratchDb(`aizk_bench_insert_${process.pid}`)
  const db = new pg.Client({ connectionString: scratch.url })
  const rows: Row[] = []
  try {
    await db.connect()
    let first = 0
    for (const step of STEPS) {
      if (step.sql) await db.query(step.sql)
      await db.query('TRUNCATE pgqueuer')
      await db.query('VACUUM ANALYZE pgqueuer')
      await db.query('CHECKPOINT')
      const value = await aizkEnqueueFloor({ url: scratch.url, seconds: o.seconds, clients: o.clients, entrypoint: BENCH_ENTRYPOINT }, 'a64')
      first ||= value
      rows.push({
        section: 'k',
        what: `a64 by pgbench, ${o.clients} clients: ${step.what}`,
        value: `${fmt(value)} rows/s`,
        note: `${(value / first).toFixed(2)} of the first`,
      })
    }
  } finally {
    await db.end()
    await scratch.drop()
  }
  return rows
}
