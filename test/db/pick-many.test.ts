/**
 * aizk_pick over many bound entrypoints (migration 0014): the best batch across all of them in
 * pick order, per-entrypoint limits and not-ready rows in front still honoured, only the rows it
 * takes locked, and concurrent pickers never taking a row twice.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import pg from 'pg'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { pickJobs, planPick } from '../../src/queue/pick.js'
import { queueTestDatabase } from '../helpers/db.js'

const db = queueTestDatabase()

const eps = Array.from({ length: 20 }, (_, i) => `many_${String(i).padStart(2, '0')}`)
const plan = (limits: Record<string, number> = {}) =>
  planPick(
    randomUUID(),
    eps.map((entrypoint) => ({ entrypoint, concurrencyLimit: limits[entrypoint] ?? 0 })),
  )

/** 20 entrypoints x 40 jobs, priorities 0..4 spread so every entrypoint holds some of the best. */
async function spread(): Promise<{ id: string; entrypoint: string; priority: number }[]> {
  const items = Array.from({ length: 800 }, (_, k) => ({ entrypoint: eps[k % 20], priority: (k * 7) % 5 }))
  const ids = await enqueueMany(db.pool, items)
  return items.map((it, k) => ({ ...it, id: ids[k] as string }))
}

const pickOrder = (a: { id: string; priority: number }, b: { id: string; priority: number }) =>
  b.priority - a.priority || Number(a.id) - Number(b.id)

describe('aizk_pick over many entrypoints', () => {
  it('takes the best batch across every bound entrypoint, in pick order', async () => {
    const jobs = await spread()
    const picked = await pickJobs(db.pool, plan(), 64, 0)
    assert.deepEqual(
      picked.map((j) => j.id),
      [...jobs].sort(pickOrder).slice(0, 64).map((j) => j.id),
    )
  })

  it('locks only the rows it takes', async () => {
    await spread()
    const a = await db.pool.connect()
    const b = await db.pool.connect()
    try {
      await a.query('BEGIN')
      await pickJobs(a, plan(), 64, 0)
      const { rows } = await b.query<{ free: number; queued: number }>(`
        select (select count(*)::int from (select id from pgqueuer where status = 'queued' for update skip locked) s) as free,
               (select count(*)::int from pgqueuer where status = 'queued') as queued`)
      // The picker's own transaction is open: its 64 rows still read as queued to b, locked.
      assert.equal(rows[0].queued - rows[0].free, 64)
    } finally {
      await a.query('ROLLBACK')
      a.release()
      b.release()
    }
  })

  it('honours per-entrypoint limits and not-ready rows in front among the others', async () => {
    // many_00 is limited to 2; many_01 has 300 not-ready rows in front of its ready ones.
    await db.pool.query(`insert into pgqueuer (priority, entrypoint, status, execute_after)
      select 9, 'many_01', 'queued', now() + interval '1 day' from generate_series(1, 300)`)
    const jobs = await spread()
    const picked = await pickJobs(db.pool, plan({ many_00: 2 }), 64, 0)
    const expected: string[] = []
    let limited = 0
    for (const j of [...jobs].sort(pickOrder)) {
      if (j.entrypoint === 'many_00' && limited++ >= 2) continue
      expected.push(j.id)
    }
    assert.deepEqual(
      picked.map((j) => j.id),
      expected.slice(0, 64),
    )
  })

  it('concurrent pickers take every row exactly once', async () => {
    const jobs = await spread()
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: db.url, max: 1 }))
    try {
      const taken = await Promise.all(
        pools.map(async (p) => {
          const mine: string[] = []
          const pl = plan()
          for (;;) {
            const got = await pickJobs(p, pl, 16, 0)
            if (got.length === 0) return mine
            mine.push(...got.map((j) => j.id))
          }
        }),
      )
      const all = taken.flat()
      assert.equal(all.length, jobs.length)
      assert.equal(new Set(all).size, jobs.length)
    } finally {
      await Promise.all(pools.map((p) => p.end()))
    }
  })
})
