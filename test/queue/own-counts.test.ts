/**
 * aizk_pick and aizk_complete write their own live-count deltas and throughput rows with
 * aizk.own_counts on, and the statement triggers skip them (docs/job-lifecycle.md#live-counts-and-throughput-on-the-hot-path).
 * Every case compares the live counts with a count(*) of the table, so a delta written twice,
 * never, or with the wrong status shows.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import type pg from 'pg'
import { withTransaction } from '../../src/db/sql/transaction.js'
import { readCounts } from '../../src/queue/counts.js'
import { insertQueued } from '../support/commands/queue-rows.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase({ emptied: ['pgqueuer', 'pgqueuer_log', 'aizk_worker', 'aizk_queue_count', 'aizk_queue_count_delta', 'aizk_throughput'] })

async function registerWorker(q: pg.Pool | pg.ClientBase): Promise<string> {
  const id = randomUUID()
  await q.query(`INSERT INTO aizk_worker (queue_manager_id, host, pid, version, entrypoints) VALUES ($1, 'test', 1, 'test', '{ep_a,ep_b}')`, [id])
  return id
}

/** (entrypoint, priority, status, n) from the live counts and from count(*), both sorted. */
async function countsAndTable(): Promise<{ live: string[]; table: string[] }> {
  const live = (await readCounts(db.pool)).map((c) => `${c.entrypoint}/${c.priority}/${c.status}=${c.n}`).sort()
  const { rows } = await db.pool.query<{ k: string }>(
    `SELECT entrypoint || '/' || priority || '/' || status || '=' || count(*) AS k FROM pgqueuer GROUP BY entrypoint, priority, status`,
  )
  return { live, table: rows.map((r) => r.k).sort() }
}

async function assertExact(context: string): Promise<void> {
  const { live, table } = await countsAndTable()
  assert.deepEqual(live, table, context)
}

async function pick(
  q: pg.Pool | pg.ClientBase,
  manager: string,
  batch: number,
  opts: { staleSeconds?: number } = {},
): Promise<{ id: string; recovered: boolean }[]> {
  const { rows } = await q.query<{ id: string; recovered: boolean }>(`SELECT id::text, recovered FROM aizk_pick($1, $2::uuid, '{ep_a,ep_b}', '{0,0}', $3)`, [
    batch,
    manager,
    opts.staleSeconds ?? 0,
  ])
  return rows
}

async function throughputSum(status: string): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>('SELECT coalesce(sum(n), 0)::int AS n FROM aizk_throughput WHERE status = $1', [status])
  return rows[0].n
}

describe('live counts written by the hot path', () => {
  it('a registered pick, its completions, the next pick and a completion alone keep counts and throughput exact', async () => {
    await insertQueued(db.pool, 'ep_a', 30, { priority: 5 })
    await insertQueued(db.pool, 'ep_a', 10)
    await insertQueued(db.pool, 'ep_b', 20)
    const manager = await registerWorker(db.pool)
    const first = await pick(db.pool, manager, 25)
    assert.equal(first.length, 25)
    await assertExact('after a pick of 25')
    await db.pool.query('SELECT aizk_complete($1::bigint[], $2::uuid)', [first.map((r) => r.id), manager])
    const second = await pick(db.pool, manager, 25)
    assert.equal(second.length, 25)
    await assertExact('after 25 completions and the next pick')
    const { rows } = await db.pool.query<{ n: string }>('SELECT aizk_complete($1::bigint[], $2::uuid) AS n', [second.slice(0, 10).map((r) => r.id), manager])
    assert.equal(Number(rows[0].n), 10)
    await assertExact('after completing 10 alone')
    assert.equal(await throughputSum('successful'), 35)
    const logged = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgqueuer_log WHERE status = 'successful'`)
    assert.equal(logged.rows[0].n, 35)
  })

  it("a completion of rows no longer this worker's counts nothing and writes no throughput", async () => {
    await insertQueued(db.pool, 'ep_a', 4)
    const manager = await registerWorker(db.pool)
    const picked = await pick(db.pool, manager, 4)
    const { rows } = await db.pool.query<{ n: string }>('SELECT aizk_complete($1::bigint[], $2::uuid) AS n', [picked.map((r) => r.id), randomUUID()])
    assert.equal(Number(rows[0].n), 0)
    await assertExact('after a completion by another manager')
    assert.equal(await throughputSum('successful'), 0)
  })

  it('a stale pick re-taken stays one picked row', async () => {
    await insertQueued(db.pool, 'ep_a', 6)
    const dead = await registerWorker(db.pool)
    await pick(db.pool, dead, 3)
    await db.pool.query(`UPDATE pgqueuer SET heartbeat = now() - interval '1 hour' WHERE status = 'picked'`)
    await assertExact('after aging the dead worker’s picks')
    const alive = await registerWorker(db.pool)
    const taken = await pick(db.pool, alive, 6, { staleSeconds: 60 })
    assert.equal(taken.length, 6)
    assert.equal(taken.filter((r) => r.recovered).length, 3)
    await assertExact('after re-taking 3 stale picks and 3 queued rows')
  })

  it('an unregistered pick is counted by the trigger, once', async () => {
    await insertQueued(db.pool, 'ep_b', 8)
    await pick(db.pool, randomUUID(), 5)
    await assertExact('after an unregistered pick')
  })

  it('the setting ends with the statement: later writes of the same transaction are counted', async () => {
    await insertQueued(db.pool, 'ep_a', 10)
    const manager = await registerWorker(db.pool)
    await withTransaction(db.pool, async (c) => {
      const picked = await pick(c, manager, 4)
      await c.query(`UPDATE pgqueuer SET status = 'failed' WHERE id = (SELECT min(id) FROM pgqueuer WHERE status = 'queued')`)
      await c.query('SELECT aizk_complete($1::bigint[], $2::uuid)', [picked.slice(0, 2).map((r) => r.id), manager])
      await c.query(`DELETE FROM pgqueuer WHERE id = (SELECT min(id) FROM pgqueuer WHERE status = 'queued')`)
      await c.query(`INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint) VALUES (0, 'exception', 0, 'ep_a')`)
    })
    await assertExact('after a pick, an update, a completion and a delete in one transaction')
    assert.equal(await throughputSum('exception'), 1, 'the log insert after the completion was counted by its trigger')
  })

  it('a pick rolled back to a savepoint leaves no delta and no setting behind', async () => {
    await insertQueued(db.pool, 'ep_a', 5)
    const manager = await registerWorker(db.pool)
    await withTransaction(db.pool, async (c) => {
      await c.query('SAVEPOINT s')
      await pick(c, manager, 3)
      await c.query('ROLLBACK TO SAVEPOINT s')
      const { rows } = await c.query<{ v: string | null }>(`SELECT current_setting('aizk.own_counts', true) AS v`)
      assert.notEqual(rows[0].v, 'on')
      await c.query(`UPDATE pgqueuer SET status = 'failed' WHERE id = (SELECT min(id) FROM pgqueuer)`)
    })
    await assertExact('after a rolled-back pick and an update')
  })
})
