/**
 * aizk_pick over many bound entrypoints (migration 0014): the best batch across all of them in
 * pick order, per-entrypoint limits and not-ready rows in front still honoured, only the rows it
 * takes locked, and concurrent pickers never taking a row twice. A queue shorter than the front
 * the pick reads (migration 0018) is taken from that front alone, with the same meaning.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import pg from 'pg'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { listPaused, pauseEntrypoint, resumeEntrypoint } from '../../src/queue/pause.js'
import { pickJobs, planPick } from '../../src/queue/pick.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase({ emptied: ['pgqueuer', 'pgqueuer_log'] })

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

const pickOrder = (a: { id: string; priority: number }, b: { id: string; priority: number }) => b.priority - a.priority || Number(a.id) - Number(b.id)

describe('aizk_pick over many entrypoints', () => {
  it('takes the best batch across every bound entrypoint, in pick order', async () => {
    const jobs = await spread()
    const picked = await pickJobs(db.pool, plan(), 64, 0)
    assert.deepEqual(
      picked.map((j) => j.id),
      [...jobs]
        .sort(pickOrder)
        .slice(0, 64)
        .map((j) => j.id),
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

/** 20 entrypoints x `each` jobs, priorities 0..4 mixed: with `each` 2, fewer rows than a pick of 64 reads in front. */
async function short(each: number): Promise<{ id: string; entrypoint: string; priority: number }[]> {
  const items = Array.from({ length: 20 * each }, (_, k) => ({ entrypoint: eps[k % 20], priority: (k * 3) % 5 }))
  const ids = await enqueueMany(db.pool, items)
  return items.map((it, k) => ({ ...it, id: ids[k] as string }))
}

const queuedLeft = async () =>
  (await db.pool.query<{ n: number }>("select count(*)::int as n from pgqueuer where status = 'queued' and execute_after <= now()")).rows[0].n

describe('aizk_pick over many entrypoints, the whole queue in its front (migration 0018)', () => {
  it('takes every ready row of every entrypoint in one call, in pick order, each logged once', async () => {
    const jobs = await short(2)
    // A held row and a row not due yet, both in front by priority; a delayed row already due;
    // a stale pick of a dead queue manager.
    const { rows: odd } = await db.pool.query<{ id: string }>(`
      insert into pgqueuer (priority, entrypoint, status, execute_after, created, heartbeat, queue_manager_id)
      values (9, 'many_03', 'failed', now(), now(), now(), null),
             (9, 'many_04', 'queued', now() + interval '1 hour', now(), now(), null),
             (1, 'many_06', 'queued', now() - interval '1 minute', now() - interval '2 minutes', now(), null),
             (2, 'many_07', 'picked', now() - interval '1 hour', now() - interval '1 hour', now() - interval '1 hour', gen_random_uuid())
      returning id`)
    const [held, notDue, due, stale] = odd.map((r) => r.id)
    const p = planPick(
      randomUUID(),
      eps.map((entrypoint) => ({ entrypoint, concurrencyLimit: 0 })),
      { foreignStaleSeconds: 60, logPicks: true },
    )
    const picked = await pickJobs(db.pool, p, 64, 30)
    const expected = [...jobs, { id: due, priority: 1 }, { id: stale, priority: 2 }].sort(pickOrder).map((j) => j.id)
    assert.deepEqual(
      picked.map((j) => j.id),
      expected,
    )
    assert.deepEqual(
      picked.filter((j) => j.recovered).map((j) => j.id),
      [stale],
    )
    assert.ok(!picked.some((j) => j.id === held || j.id === notDue))
    assert.equal(await queuedLeft(), 0)
    const { rows: logged } = await db.pool.query<{ job_id: string; n: number }>(
      "select job_id::text, count(*)::int as n from pgqueuer_log where status = 'picked' group by job_id",
    )
    assert.equal(logged.length, expected.length)
    assert.ok(logged.every((r) => r.n === 1))
  })

  it('a limited entrypoint among them still stops at its limit, counting picks of other workers', async () => {
    const jobs = await short(3)
    const [other] = jobs.filter((j) => j.entrypoint === 'many_05')
    await db.pool.query("update pgqueuer set status = 'picked', queue_manager_id = gen_random_uuid(), heartbeat = now() where id = $1", [other.id])
    const picked = await pickJobs(db.pool, plan({ many_05: 2 }), 64, 0)
    const limited = jobs.filter((j) => j.entrypoint === 'many_05' && j.id !== other.id).sort(pickOrder)
    const expected = jobs
      .filter((j) => j.entrypoint !== 'many_05')
      .concat(limited.slice(0, 1))
      .sort(pickOrder)
    assert.deepEqual(
      picked.map((j) => j.id),
      expected.map((j) => j.id),
    )
    assert.equal(await queuedLeft(), 1)
  })

  it("a paused entrypoint's rows stay queued, however high their priority", async () => {
    const jobs = await short(2)
    const [first, second] = await enqueueMany(db.pool, [
      { entrypoint: 'many_09', priority: 9 },
      { entrypoint: 'many_09', priority: 9 },
    ])
    await pauseEntrypoint(db.pool, 'many_09')
    try {
      // As the worker plans: the paused entrypoints left out of what it asks for.
      const paused = new Set((await listPaused(db.pool)).map((x) => x.entrypoint))
      const p = planPick(
        randomUUID(),
        eps.filter((e) => !paused.has(e)).map((entrypoint) => ({ entrypoint, concurrencyLimit: 0 })),
      )
      const picked = await pickJobs(db.pool, p, 64, 0)
      assert.deepEqual(
        picked.map((j) => j.id),
        jobs
          .filter((j) => j.entrypoint !== 'many_09')
          .sort(pickOrder)
          .map((j) => j.id),
      )
      const { rows } = await db.pool.query<{ id: string }>("select id::text from pgqueuer where status = 'queued' order by id")
      assert.deepEqual(rows.map((r) => r.id).sort(), [...jobs.filter((j) => j.entrypoint === 'many_09').map((j) => j.id), first, second].sort())
    } finally {
      await resumeEntrypoint(db.pool, 'many_09')
    }
  })

  it('a pick asking for fewer than the queue holds takes the best by priority, and the next the rest', async () => {
    const jobs = (await short(1)).sort(pickOrder)
    const first = await pickJobs(db.pool, plan(), 8, 0)
    assert.deepEqual(
      first.map((j) => j.id),
      jobs.slice(0, 8).map((j) => j.id),
    )
    const rest = await pickJobs(db.pool, plan(), 64, 0)
    assert.deepEqual(
      rest.map((j) => j.id),
      jobs.slice(8).map((j) => j.id),
    )
  })
})
