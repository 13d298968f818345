import assert from 'node:assert/strict'
import { beforeEach, describe, it } from 'node:test'
import pg from 'pg'
import { compactCounts, readCounts } from '../../src/queue/counts.js'
import { countHeld, idsNotHeld, requeueFailed } from '../../src/queue/requeue.js'
import { insertHeld } from '../support/commands/queue-rows.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()

beforeEach(async () => {
  await db.pool.query('TRUNCATE pgqueuer')
})

describe('requeueFailed', () => {
  it('moves the oldest window of one entrypoint back to queued, resetting attempts and counting a cycle', async () => {
    const a = await insertHeld(db.pool, 'ep_a', 5, { lastError: 'boom' })
    const b = await insertHeld(db.pool, 'ep_b', 3)
    await db.pool.query("UPDATE pgqueuer SET execute_after = now() + interval '1 day', queue_manager_id = gen_random_uuid()")
    const moved = await requeueFailed(db.pool, { entrypoints: ['ep_a'], limit: 3 })
    assert.deepEqual(
      moved.map((m) => m.id),
      a.slice(0, 3),
    )
    assert.ok(moved.every((m) => m.entrypoint === 'ep_a' && m.cycles === 1))
    const { rows } = await db.pool.query(
      `SELECT id::text, status::text, attempts, queue_manager_id, execute_after <= now() AS ready, headers FROM pgqueuer ORDER BY id`,
    )
    const byId = new Map(rows.map((r) => [r.id, r]))
    for (const id of a.slice(0, 3)) {
      const r = byId.get(id)
      assert.equal(r.status, 'queued')
      assert.equal(r.attempts, 0)
      assert.equal(r.queue_manager_id, null)
      assert.equal(r.ready, true)
      assert.equal(r.headers.aizk.cycles, 1)
      assert.equal(r.headers.aizk.lastError, 'boom', 'other aizk headers are kept')
      assert.equal(r.headers.other, 'kept')
    }
    for (const id of [...a.slice(3), ...b]) assert.equal(byId.get(id).status, 'failed')
  })

  it('skips rows whose cycles reached the cap; no cap moves them all', async () => {
    const burned = await insertHeld(db.pool, 'ep_c', 1, { cycles: 3 })
    const two = await insertHeld(db.pool, 'ep_c', 1, { cycles: 2 })
    const fresh = await insertHeld(db.pool, 'ep_c', 1)
    const moved = await requeueFailed(db.pool, { entrypoints: ['ep_c'], limit: 10, maxCycles: 3 })
    assert.deepEqual(
      moved.map((m) => [m.id, m.cycles]),
      [
        [two[0], 3],
        [fresh[0], 1],
      ],
    )
    const { rows } = await db.pool.query('SELECT status::text FROM pgqueuer WHERE id = $1', [burned[0]])
    assert.equal(rows[0].status, 'failed', 'the row that burned 3 cycles is left alone')
    const uncapped = await requeueFailed(db.pool, { limit: 10 })
    assert.deepEqual(
      uncapped.map((m) => [m.id, m.cycles]),
      [[burned[0], 4]],
    )
  })

  it('dry run reports the window and changes nothing; ids and counts', async () => {
    const ids = await insertHeld(db.pool, 'ep_d', 4)
    const preview = await requeueFailed(db.pool, { limit: 2, dryRun: true })
    assert.deepEqual(
      preview.map((p) => p.id),
      ids.slice(0, 2),
    )
    assert.equal(await countHeld(db.pool, {}), 4)
    const only = await requeueFailed(db.pool, { ids: [ids[3]], limit: 10 })
    assert.deepEqual(
      only.map((p) => p.id),
      [ids[3]],
    )
    assert.equal(await countHeld(db.pool, {}), 3)
    const missing = await idsNotHeld(db.pool, [ids[0], ids[3], '999999'])
    assert.deepEqual(missing, [
      { id: ids[3], status: 'queued' },
      { id: '999999', status: null },
    ])
  })

  it('notifies ch_pgqueuer with PgQueuer payload shape', async () => {
    await insertHeld(db.pool, 'ep_e', 2)
    const listener = new pg.Client({ connectionString: db.url })
    await listener.connect()
    try {
      await listener.query('LISTEN ch_pgqueuer')
      const got = new Promise<string>((resolve) => listener.on('notification', (n) => resolve(n.payload ?? '')))
      await requeueFailed(db.pool, { limit: 10 })
      const payload = JSON.parse(await got)
      assert.deepEqual(Object.keys(payload).sort(), ['channel', 'operation', 'sent_at', 'table', 'type'])
      assert.equal(payload.channel, 'ch_pgqueuer')
      assert.equal(payload.operation, 'update')
      assert.equal(payload.table, 'pgqueuer')
      assert.equal(payload.type, 'table_changed_event')
      assert.ok(!Number.isNaN(Date.parse(payload.sent_at)))
    } finally {
      await listener.end()
    }
  })

  it('two requeues at once never move the same row twice', async () => {
    await insertHeld(db.pool, 'ep_f', 2000)
    const c1 = await db.pool.connect()
    const c2 = await db.pool.connect()
    try {
      await c1.query('BEGIN')
      await c2.query('BEGIN')
      const first = await requeueFailed(c1, { limit: 1200 })
      // c1 still holds its window's row locks: c2 skips them instead of waiting or taking them.
      const second = await requeueFailed(c2, { limit: 1200 })
      await c1.query('COMMIT')
      await c2.query('COMMIT')
      assert.equal(first.length, 1200)
      assert.equal(second.length, 800)
      const all = new Set([...first, ...second].map((r) => r.id))
      assert.equal(all.size, 2000, 'no row moved twice')
      const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM pgqueuer WHERE status = 'queued' AND (headers->'aizk'->>'cycles')::int = 1`)
      assert.equal(rows[0].n, 2000)
    } finally {
      c1.release()
      c2.release()
    }
  })

  it('keeps the live counts right', async () => {
    await insertHeld(db.pool, 'ep_g', 10)
    await requeueFailed(db.pool, { limit: 4 })
    await compactCounts(db.pool)
    const counts = (await readCounts(db.pool)).filter((c) => c.entrypoint === 'ep_g')
    assert.deepEqual(
      counts.map((c) => [c.status, c.n]),
      [
        ['failed', 6],
        ['queued', 4],
      ],
    )
  })

  it('rejects a zero limit', async () => {
    await assert.rejects(requeueFailed(db.pool, { limit: 0 }), /limit/)
  })
})
